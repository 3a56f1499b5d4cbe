//! Reader for CPAchecker's automaton language: assumption automata, counterexample automata, specifications.
//!
//! [`parse`] turns the text of one file into an [`Automaton`]: named states in file order, each with
//! its transitions (trigger, assertions, `ASSUME` expressions, actions, target). The reader covers the
//! whole grammar of CPAchecker's `parser.cup` and `Scanner.jflex`; see `parser/mod.rs` for the grammar and
//! the few deliberate departures (each reported as a diagnostic), and `lexer.rs` for what the scanner
//! accepts in strings, `{…}` and `[…]`.
//!
//! The module knows nothing about C or the CFA: `MATCH` texts, patterns, regexes and `ASSUME` bodies are
//! kept as unescaped strings for `product` to interpret.
//!
//! Invariant: this module depends on `base` only.
//! Invariant: parsing never panics; input CPAchecker would reject as syntax is a [`ParseError`], unusual
//! but readable input is a [`Diagnostic`](crate::base::Diagnostic).
//! Invariant: state ids are dense and in file order; synthesized `__TRUE`/`__FALSE` come last.
//! Invariant: no file IO here (`#include` lines are reported and skipped).

mod assume;
mod ast;
mod lexer;
mod parser;
mod print;
pub mod write;

pub use assume::AssumeTruth;
pub use ast::{
    Action, Automaton, AutomatonKind, IntExpr, LocalInit, LocalVar, MatchMode, MatchTrigger, PrintArg, State, StateId,
    Target, Transition, Trigger, FALSE_STATE, TRUE_STATE,
};
pub use parser::{parse, parse_all, ParseError};

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use proptest::prelude::*;

    use super::*;
    use crate::base::{Severity, SourceFile};

    /// The shared corpus (`../shared/corpus`, or `$VCOV_CORPUS` when the tests were built, see
    /// `build.rs`); the tests that read it are ignored without it (except under CI), and fail when run anyway.
    fn corpus_dir() -> PathBuf {
        let dir = PathBuf::from(env!("VCOV_CORPUS_DIR"));
        assert!(
            dir.join("cpachecker").is_dir(),
            "this test needs the shared corpus, which is not at {}",
            dir.display()
        );
        dir
    }

    fn fixtures_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/automata")
    }

    /// Every file under `dir` whose name satisfies `keep`, sorted.
    fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
        let mut res = Vec::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(d) = todo.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    todo.push(path);
                } else if keep(&path) {
                    res.push(path);
                }
            }
        }
        res.sort();
        res
    }

    fn is_automaton_file(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "spc") || path.file_name().is_some_and(|n| n == "AssumptionAutomaton.txt")
    }

    /// The automata of the corpus.
    fn corpus_automata() -> Vec<PathBuf> {
        let res = files_under(&corpus_dir().join("cpachecker"), &is_automaton_file);
        assert!(res.len() >= 40, "the corpus's automata: {res:?}");
        res
    }

    fn read(path: &Path) -> SourceFile {
        SourceFile::new(path, std::fs::read_to_string(path).unwrap())
    }

    /// Counts states and transitions without the parser: lines that start with `STATE` (or `TARGET STATE`),
    /// and lines with `->` outside `"…"` (generated automata write one transition per line).
    fn count_lines(text: &str) -> (usize, usize) {
        let mut n_states = 0;
        let mut n_transitions = 0;
        for line in text.lines() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("STATE ") || trimmed.starts_with("TARGET STATE ") {
                n_states += 1;
            }
            if trimmed.starts_with("//") {
                continue;
            }
            let mut in_string = false;
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if in_string => {
                        chars.next();
                    }
                    '"' => in_string = !in_string,
                    '-' if !in_string && chars.peek() == Some(&'>') => {
                        n_transitions += 1;
                        break;
                    }
                    _ => {}
                }
            }
        }
        (n_states, n_transitions)
    }

    /// `check(path, expect)`: parses the file and prints `<states> states, <transitions> transitions`
    /// (those read from the file, then `+<n> synthetic` if any), the initial state and the diagnostics.
    fn check(file: &SourceFile, expect: &str) {
        let res = match parse(file) {
            Ok((aut, diags)) => {
                let n_synthetic = aut.states.iter().filter(|s| s.synthetic).count();
                let n_read_transitions: usize =
                    aut.states.iter().filter(|s| !s.synthetic).map(|s| s.transitions.len()).sum();
                let mut res = format!(
                    "{} states, {n_read_transitions} transitions, initial {}",
                    aut.states.len() - n_synthetic,
                    aut.state(aut.initial).name
                );
                if n_synthetic > 0 {
                    res.push_str(&format!(", +{n_synthetic} synthetic"));
                }
                for d in diags {
                    let sev = match d.severity {
                        Severity::Note => "note",
                        Severity::Warning => "warning",
                        Severity::Error => "error",
                    };
                    res.push_str(&format!("\n{}:{}: {sev}: {}", d.line, d.col, d.message));
                }
                res
            }
            Err(e) => format!("error {}:{}: {}", e.line, e.col, e.message),
        };
        assert_eq!(res, expect, "{}", file.path().display());
    }

    /// The `// expect: …` header lines of a fixture, joined by line breaks.
    fn expectation(text: &str) -> String {
        text.lines().filter_map(|l| l.strip_prefix("// expect: ")).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn fixtures_match_their_expect_headers() {
        let fixtures = files_under(&fixtures_dir(), &|p| p.extension().is_some_and(|e| e == "spc" || e == "txt"));
        assert!(fixtures.len() >= 8, "fixtures missing: {fixtures:?}");
        for path in fixtures {
            let file = read(&path);
            let expect = expectation(file.text());
            assert!(!expect.is_empty(), "{} has no `// expect:` header", path.display());
            check(&file, &expect);
        }
    }

    #[test]
    fn valid_fixtures_agree_with_line_counts() {
        for path in files_under(&fixtures_dir(), &|p| p.extension().is_some_and(|e| e == "txt")) {
            let file = read(&path);
            let (aut, _) = parse(&file).unwrap();
            let (n_states, n_transitions) = count_lines(file.text());
            let read: Vec<&State> = aut.states.iter().filter(|s| !s.synthetic).collect();
            assert_eq!(read.len(), n_states, "{}", path.display());
            assert_eq!(read.iter().map(|s| s.transitions.len()).sum::<usize>(), n_transitions, "{}", path.display());
        }
    }

    #[test]
    #[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
    fn corpus_automata_parse_with_the_expected_counts() {
        for path in corpus_automata() {
            let file = read(&path);
            let (aut, diags) = parse(&file).unwrap_or_else(|e| panic!("{e}"));
            let (n_states, n_transitions) = count_lines(file.text());
            let read: Vec<&State> = aut.states.iter().filter(|s| !s.synthetic).collect();
            assert_eq!(read.len(), n_states, "{}", path.display());
            assert_eq!(read.iter().map(|s| s.transitions.len()).sum::<usize>(), n_transitions, "{}", path.display());
            assert!(diags.iter().all(|d| d.severity == Severity::Note), "{}: {diags:?}", path.display());
            // Every automaton of the corpus is an assumption or counterexample automaton.
            let name = aut.state(aut.initial).name.as_str();
            assert!(name.starts_with("ARG") || name == TRUE_STATE || name == "DummyAA", "{}", path.display());
        }
    }

    #[test]
    #[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
    fn corpus_special_cases() {
        let dir = corpus_dir();
        let cp = dir.join("cpachecker");
        // A finished proof: `INITIAL STATE ARG0;` without `ARG0`.
        check(
            &read(&cp.join("kundu-value-10s/AssumptionAutomaton.txt")),
            "1 states, 1 transitions, initial __TRUE\n3:15: note: initial state `ARG0` is not declared and no state \
             but `__TRUE`/`__FALSE` is: the verifier left no open path, so the automaton starts in `__TRUE`",
        );
        // A counterexample automaton with ERROR and STOP targets and old chain-state names.
        let (aut, _) =
            parse(&read(&cp.join("coverage-script-tests/cex_three_paths/inner_both_blocks/Counterexample.8.spc")))
                .unwrap();
        assert_eq!(aut.kind, AutomatonKind::Control);
        assert_eq!(aut.name, "ErrorPath8");
        let arg18 = aut.state(aut.state_by_name("ARG18").unwrap());
        assert_eq!(arg18.transitions[0].target, Target::Error(None));
        assert_eq!(arg18.transitions[1].target, Target::Stop);
        assert!(aut.state_by_name("ARG2_0_1").is_some());
        assert_eq!(aut.true_state(), None);
    }

    /// Parses every prefix of `text` that ends at a multiple of `step` (and on a char boundary).
    fn parse_prefixes(text: &str, step: usize) {
        let mut cut = 0;
        while cut <= text.len() {
            if text.is_char_boundary(cut) {
                let _ = parse_all(&SourceFile::new("cut.spc", text[..cut].to_string()));
            }
            cut += step;
        }
    }

    #[test]
    fn truncated_fixtures_never_panic() {
        for path in files_under(&fixtures_dir(), &|_| true) {
            parse_prefixes(&std::fs::read_to_string(&path).unwrap(), 1);
        }
    }

    #[test]
    #[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
    fn truncated_corpus_files_never_panic() {
        for path in corpus_automata() {
            let text = std::fs::read_to_string(&path).unwrap();
            // About 40 cuts per large file, every byte for small ones.
            let step = (text.len() / 40).max(1);
            let step = if text.len() < 4000 { 1 } else { step };
            parse_prefixes(&text, step);
        }
    }

    #[test]
    fn mutated_fixtures_never_panic() {
        const NOISE: &[&str] = &["\"", "{", "}", "[", "]", "\\", "\n", ";", "(", "!", "->", "é", "/*", "STATE", ""];
        for path in files_under(&fixtures_dir(), &|_| true) {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut pos = 0;
            let mut k = 0;
            while pos < text.len() {
                if text.is_char_boundary(pos) {
                    let end = text[pos..].chars().next().map_or(pos, |c| pos + c.len_utf8());
                    let mutated = format!("{}{}{}", &text[..pos], NOISE[k % NOISE.len()], &text[end..]);
                    let _ = parse_all(&SourceFile::new("mut.spc", mutated));
                    k += 1;
                }
                pos += 1;
            }
        }
    }

    fn token_soup() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            Just("OBSERVER"),
            Just("CONTROL"),
            Just("AUTOMATON"),
            Just("A"),
            Just("INITIAL"),
            Just("STATE"),
            Just("USEFIRST"),
            Just("TARGET"),
            Just("q"),
            Just(":"),
            Just(";"),
            Just("->"),
            Just("GOTO"),
            Just("ERROR"),
            Just("STOP"),
            Just("MATCH"),
            Just("\"x\""),
            Just("{a}"),
            Just("[b]"),
            Just("LABEL"),
            Just("TRUE"),
            Just("CHECK"),
            Just("("),
            Just(")"),
            Just(","),
            Just("!"),
            Just("&&"),
            Just("=="),
            Just("+"),
            Just("1"),
            Just("ASSUME"),
            Just("DO"),
            Just("="),
            Just("PRINT"),
            Just("LOCAL"),
            Just("END"),
            Just("ASSERT"),
            Just("COVERS_LINES"),
            Just("EVAL"),
            Just("MODIFY"),
        ];
        proptest::collection::vec(word, 0..60).prop_map(|words| words.join(" "))
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            let _ = parse_all(&SourceFile::new("any.spc", text));
        }

        #[test]
        fn token_soup_never_panics(text in token_soup()) {
            let _ = parse_all(&SourceFile::new("soup.spc", text));
        }

        #[test]
        fn valid_prefix_then_soup_never_panics(text in token_soup()) {
            let input = format!("OBSERVER AUTOMATON A INITIAL STATE q; STATE q : {text}");
            let _ = parse_all(&SourceFile::new("soup.spc", input));
        }
    }
}
