//! CPAchecker counterexample automata (`Counterexample.N.spc`) for CFA paths.
//!
//! One state per edge: `MATCH "<the edge's raw text>" -> GOTO <next>`, the last edge `-> ERROR`, and
//! `TRUE -> STOP` on every other edge, so the automaton accepts exactly the paths whose edge texts
//! are the given path's. `coverage::path_of_counterexample` follows it back breadth-first, which
//! tells equal texts apart by what follows them.
//!
//! Invariant: following the automaton of a path of the CFA gives back that path (checked on the
//! fixtures, paths through calls and with repeated texts included).

use std::fmt;

use crate::automaton::write::{self, To};
use crate::automaton::{AutomatonKind, MatchMode};
use crate::cfa::{Cfa, EdgeId, Generation};

/// The counterexample automaton named `name` (an identifier, e.g. `ErrorPath1`) for `path`, a path of
/// `cfa` from its entry; `None` for an empty path, which no automaton of this form describes.
pub fn counterexample_automaton(cfa: &Cfa, path: &[EdgeId], name: &str) -> Option<String> {
    // The texts are CPAchecker 1.x's, so the edges 1.x does not have are left out (they are taken
    // without a step when the automaton is read back).
    let path: Vec<EdgeId> = path.iter().copied().filter(|&e| cfa.edge(e).exists_in(Generation::V1)).collect();
    if path.is_empty() {
        return None;
    }
    let mut res = String::new();
    // Writing to a `String` does not fail.
    let _ = write_automaton(&mut res, cfa, &path, name);
    Some(res)
}

fn write_automaton(res: &mut String, cfa: &Cfa, path: &[EdgeId], name: &str) -> fmt::Result {
    write::header(res, AutomatonKind::Control, name)?;
    write::initial(res, "ARG0")?;
    for (i, &e) in path.iter().enumerate() {
        write::state(res, &format!("ARG{i}"), Some(MatchMode::UseFirst), false, None)?;
        let next = i + 1;
        let to = if next == path.len() { To::Error(None) } else { To::Goto(format!("ARG{next}")) };
        write::transition_line(res, format_args!("MATCH {}", write::string(&cfa.edge(e).text)), None, to)?;
        write::transition_line(res, "TRUE", None, To::<&str>::Stop)?;
        res.push('\n');
    }
    write::end(res)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::base::SourceFile;
    use crate::cfa::{CallSiteId, EdgeKind};
    use crate::cfront::types::DataModel;

    fn cfa_of(path: &Path) -> (Cfa, Vec<String>) {
        let text = std::fs::read_to_string(path).unwrap();
        let (mut prog, _) = crate::cfront::parse_program(SourceFile::new(path, text), DataModel::Ilp32).unwrap();
        let (cfa, _) = crate::cfa::build(&mut prog, &crate::cfa::CfaConfig::default()).unwrap();
        let names = prog.funcs.iter().map(|f| f.name.clone()).collect();
        (cfa, names)
    }

    /// Every path from the entry with at most `max_len` edges (at most `limit` of them), taking calls
    /// and only the returns to the call site on top of the stack.
    fn paths(cfa: &Cfa, max_len: usize, limit: usize) -> Vec<Vec<EdgeId>> {
        fn go(
            cfa: &Cfa,
            path: &mut Vec<EdgeId>,
            stack: &mut Vec<CallSiteId>,
            max_len: usize,
            limit: usize,
            out: &mut Vec<Vec<EdgeId>>,
        ) {
            if out.len() >= limit || path.len() >= max_len {
                return;
            }
            let node = path.last().map_or(cfa.entry(), |&e| cfa.edge(e).dst);
            for &e in cfa.out_edges(node) {
                let pushed = match cfa.edge(e).kind {
                    EdgeKind::Summary(_) => continue,
                    EdgeKind::Return(cs) if stack.last() != Some(&cs) => continue,
                    EdgeKind::Return(_) => {
                        let top = stack.pop();
                        path.push(e);
                        out.push(path.clone());
                        go(cfa, path, stack, max_len, limit, out);
                        path.pop();
                        stack.extend(top);
                        continue;
                    }
                    EdgeKind::Call(cs) => Some(cs),
                    _ => None,
                };
                stack.extend(pushed);
                path.push(e);
                out.push(path.clone());
                go(cfa, path, stack, max_len, limit, out);
                path.pop();
                if pushed.is_some() {
                    stack.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(cfa, &mut Vec::new(), &mut Vec::new(), max_len, limit, &mut out);
        out
    }

    fn check_round_trip(program: &Path, min_paths: usize) {
        let (cfa, names) = cfa_of(program);
        let all = paths(&cfa, 40, 3000);
        assert!(all.len() >= min_paths, "{}: only {} paths", program.display(), all.len());
        for (i, p) in all.iter().enumerate() {
            let text = counterexample_automaton(&cfa, p, &format!("ErrorPath{i}")).unwrap();
            let (aut, diags) = crate::automaton::parse(&SourceFile::new("cex.spc", text.clone())).unwrap();
            assert!(diags.is_empty(), "{diags:?}");
            let back = crate::coverage::path_of_counterexample(&aut, &cfa, names.clone())
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", program.display()));
            assert_eq!(&back, p, "{}:\n{text}", program.display());
        }
    }

    #[test]
    fn automata_of_fixture_paths_are_followed_back_to_the_same_path() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        for (rel, min) in [
            ("e2e/branches/program.c", 10),
            ("e2e/calls/program.c", 20),
            ("e2e/multiline/program.c", 8),
            ("evidence/calls/program.c", 30),
            ("evidence/twice/program.c", 10),
        ] {
            check_round_trip(&root.join(rel), min);
        }
    }

    #[test]
    fn writes_cpachecker_form() {
        let (cfa, _) = cfa_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/e2e/branches/program.c"));
        let path = &paths(&cfa, 6, 100)[5];
        let text = counterexample_automaton(&cfa, path, "ErrorPath1").unwrap();
        assert!(text.starts_with("CONTROL AUTOMATON ErrorPath1\n\nINITIAL STATE ARG0;\n\nSTATE USEFIRST ARG0 :\n"));
        assert!(text.contains("    MATCH \"int x = __VERIFIER_nondet_int();\" -> GOTO ARG5;\n    TRUE -> STOP;\n"));
        assert!(text.ends_with("-> ERROR;\n    TRUE -> STOP;\n\nEND AUTOMATON\n"), "{text}");
        assert_eq!(counterexample_automaton(&cfa, &[], "E"), None);
    }
}
