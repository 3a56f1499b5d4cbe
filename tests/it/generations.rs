//! Automata of every CPAchecker generation (`fixtures/automata/generations`, written by the rules of
//! CPAchecker's writers for `fixtures/c/generations`): the generation told from the automaton, the
//! option that forces it, and the format changes since CPAchecker 1.5.

use crate::util::{fixture, json, nums, vcov};

const BRANCH: &str = "fixtures/c/generations/branch.c";

/// `vcov coverage BRANCH --aa automaton extra…` with `--max-executions 0` unless `extra` measures
/// executions: the JSON report, or the failed run's exit code and standard error.
fn report(program: &str, automaton: &std::path::Path, extra: &[&str]) -> Result<serde_json::Value, (i32, String)> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let mut args: Vec<String> = vec!["coverage".into(), program.into(), "--aa".into(), automaton.display().to_string()];
    if !extra.contains(&"--executions-from") {
        args.extend(["--max-executions".into(), "0".into()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(["--no-progress".into(), "--json".into(), out.display().to_string()]);
    let run = vcov(&args);
    if run.code != 0 {
        return Err((run.code, run.stderr));
    }
    Ok(json(&out))
}

fn aa(name: &str) -> std::path::PathBuf {
    fixture(&format!("automata/generations/{name}"))
}

/// The then-branch of `if (x)` explored, the else-branch not: the same over-approximation from the
/// automaton of each generation, and the generation reported.
#[test]
fn each_generation_is_told_from_the_automaton_and_reported() {
    for (file, generation) in
        [("aa_v1.txt", "1.x"), ("aa_v20.txt", "2.x+"), ("aa_v23.txt", "2.x+"), ("aa_v23_ordered.txt", "2.x+")]
    {
        let j = report(BRANCH, &aa(file), &[]).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        let m = &j["automaton_match"];
        assert_eq!(m["states_reached"], m["states"], "{file}");
        assert_eq!(m["unmatched_transitions"].as_array().map(Vec::len), Some(0), "{file}");
        assert_eq!(m["generation"], generation, "{file}");
        assert_eq!(m["generation_source"], "detected", "{file}");
        // Lines 4-7 up to `n = 1;`, the do loop (11-13) and the return; not `n = 2;` (9).
        assert_eq!(nums(&j["over_approximation"]["lines"]), [4, 5, 6, 7, 11, 12, 13, 14], "{file}");
    }
    let run = vcov(["coverage", BRANCH, "--aa", &aa("aa_v23.txt").display().to_string(), "--max-executions", "0"]);
    assert!(
        run.stdout.contains("\n  automaton texts: CPAchecker 2.x+ (told from its MATCH texts)\n"),
        "{}",
        run.stdout
    );
}

/// Read as 2.0-2.2 (no body edge in `do` loops), the 2.3+ automaton leaves its `MATCH ""` of that
/// edge unused, and read as 2.3+, the 2.0 automaton falls back to `__TRUE` on it: each is told
/// apart by the transitions the other leaves unused or falls back on.
#[test]
fn the_body_edge_of_do_loops_tells_2_3_from_2_0() {
    let v23 = report(BRANCH, &aa("aa_v23.txt"), &[]).unwrap();
    let v20 = report(BRANCH, &aa("aa_v20.txt"), &[]).unwrap();
    // Every transition that leads somewhere fires: 2.3+ has one more state and transition.
    assert_eq!(v23["automaton_match"]["transitions_used"], 20);
    assert_eq!(v20["automaton_match"]["transitions_used"], 19);
}

/// `--cpachecker-texts` forces a generation: the right one changes nothing but the report; with the
/// wrong one the branch is matched by the polarity of its texts alone, swapped, and the states
/// after `n = 1;` are never reached.
#[test]
fn the_generation_can_be_forced() {
    let j = report(BRANCH, &aa("aa_v23.txt"), &["--cpachecker-texts", "2"]).unwrap();
    assert_eq!(j["automaton_match"]["generation"], "2.x+");
    assert_eq!(j["automaton_match"]["generation_source"], "forced");
    assert_eq!(nums(&j["over_approximation"]["lines"]), [4, 5, 6, 7, 11, 12, 13, 14]);
    let (code, stderr) = report(BRANCH, &aa("aa_v23.txt"), &["--cpachecker-texts", "1"]).unwrap_err();
    assert_eq!(code, 2);
    assert!(stderr.contains("9 of 18 states are never reached (first: ARG10"), "{stderr}");
    assert!(stderr.contains("with the edge texts of CPAchecker 1.x"), "{stderr}");
    let j = report(BRANCH, &aa("aa_v23.txt"), &["--cpachecker-texts", "1", "--allow-mismatch"]).unwrap();
    assert_eq!(j["automaton_match"]["generation"], "1.x");
    assert_eq!(j["automaton_match"]["generation_source"], "forced");
    let run = vcov(["coverage", BRANCH, "--aa", &aa("aa_v1.txt").display().to_string(), "--cpachecker-texts", "3"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("invalid value '3' for '--cpachecker-texts"), "{}", run.stderr);
}

/// An automaton no generation fits is the usual mismatch error, which names the first transition
/// whose text is no edge's in any generation.
#[test]
fn an_automaton_of_no_generation_names_its_first_foreign_transition() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(aa("aa_v23.txt")).unwrap().replace("\"n = 1;\"", "\"n = 3;\"");
    let path = dir.path().join("aa.txt");
    std::fs::write(&path, &text).unwrap();
    let line = text.lines().position(|l| l.contains("\"n = 3;\"")).unwrap() + 1;
    let (code, stderr) = report(BRANCH, &path, &[]).unwrap_err();
    assert_eq!(code, 2);
    assert!(stderr.contains("the automaton does not fit the program"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the first transition whose text is no edge's in any CPAchecker generation is at line {line} (\"n = 3;\")"
        )),
        "{stderr}"
    );
}

/// Since 2018-07 an automaton that assumes nothing starts in `__TRUE` and has no `__FALSE` state:
/// everything is explored. The initial condition of the composition algorithm is `__FALSE` alone:
/// nothing is.
#[test]
fn trivial_automata_of_2018_and_of_the_composition_algorithm() {
    let j = report(BRANCH, &aa("aa_nothing_assumed.txt"), &[]).unwrap();
    assert_eq!(j["automaton_match"]["states"], 0);
    assert_eq!(j["automaton_match"]["generation_source"], "no-texts");
    assert_eq!(j["over_approximation"]["lines"], j["lines_to_cover"]);
    assert_eq!(nums(&j["lines_to_cover"]), [4, 5, 6, 7, 9, 11, 12, 13, 14]);
    let j = report(BRANCH, &aa("aa_false_only.txt"), &[]).unwrap();
    assert_eq!(nums(&j["over_approximation"]["lines"]), Vec::<u64>::new());
    assert_eq!(j["under_approximation"]["lines"].as_array().map(Vec::len), Some(0));
}

/// Since 2022-02 `ASSUME {…}` holds C expressions: one that is constantly false (`0`, or 1.5's
/// formula `false`) blocks the edge, here the edge into `__FALSE` that would count `n = 1;` (line 7)
/// for the over-approximation; one over the program's variables restricts nothing, as 1.5's
/// formulas never did; an old solver formula is named in a warning and not used.
#[test]
fn c_expression_assumptions_block_when_constantly_false() {
    let dir = tempfile::tempdir().unwrap();
    let template = std::fs::read_to_string(aa("aa_v23_assume.txt")).unwrap();
    assert!(template.contains("ASSUME {( x == 1 )}"));
    for (body, over, warning) in [
        ("( x == 1 )", &[4, 5, 6, 7][..], false),
        ("1", &[4, 5, 6, 7][..], false),
        ("0", &[4, 5, 6][..], false),
        ("( ( x == 1 ) && ( 0 ) )", &[4, 5, 6][..], false),
        ("false", &[4, 5, 6][..], false),
        ("(= |main::x| 1)", &[4, 5, 6, 7][..], true),
    ] {
        let path = dir.path().join("aa.txt");
        std::fs::write(&path, template.replace("( x == 1 )", body)).unwrap();
        let out = dir.path().join("r.json");
        let run = vcov([
            "coverage",
            BRANCH,
            "--aa",
            path.to_str().unwrap(),
            "--max-executions",
            "0",
            "--no-progress",
            "--json",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{body}: {}", run.stderr);
        assert_eq!(nums(&json(&out)["over_approximation"]["lines"]), over, "{body}");
        assert_eq!(run.stderr.contains("is not a C expression"), warning, "{body}: {}", run.stderr);
    }
}

/// Since 2018-08 a carriage return in a MATCH text is written `\r`: a declaration over two lines of
/// a file with Windows line ends matches.
#[test]
fn escaped_carriage_returns_match_windows_line_ends() {
    let source = std::fs::read(fixture("c/generations/crlf.c")).unwrap();
    assert!(source.windows(2).any(|w| w == b"\r\n"), "the fixture keeps its CR LF line ends");
    let j = report("fixtures/c/generations/crlf.c", &aa("aa_crlf.txt"), &[]).unwrap();
    let m = &j["automaton_match"];
    assert_eq!(m["states_reached"], m["states"]);
    assert_eq!(m["unmatched_transitions"].as_array().map(Vec::len), Some(0));
    assert_eq!(nums(&j["over_approximation"]["lines"]), [4, 5, 6, 7, 8]);
}

/// Counterexample automata of 1.x and of 2.3+ describe the same two executions, each generation told
/// from each automaton; forced to the other generation, the 2.3+ ones fit no path.
#[test]
fn counterexample_automata_of_each_generation_measure_the_same_executions() {
    for executions in ["executions_v1", "executions_v23"] {
        let dir = aa(executions).display().to_string();
        for automaton in ["aa_v1.txt", "aa_v23.txt"] {
            let j = report(BRANCH, &aa(automaton), &["--executions-from", &dir]).unwrap();
            let lines: Vec<Vec<u64>> = j["executions"].as_array().unwrap().iter().map(|e| nums(&e["lines"])).collect();
            // x == 0 leaves the explored region at the else-branch; x != 0 runs to the end in it.
            assert_eq!(lines, [vec![4, 5], vec![4, 5, 6, 7, 11, 12, 13, 14]], "{executions} with {automaton}");
        }
    }
    let dir = aa("executions_v23").display().to_string();
    let (code, stderr) =
        report(BRANCH, &aa("aa_nothing_assumed.txt"), &["--executions-from", &dir, "--cpachecker-texts", "1"])
            .unwrap_err();
    assert_eq!(code, 2);
    assert!(stderr.contains("Counterexample.1.spc: the execution does not fit the program"), "{stderr}");
}
