//! The same inputs and options give byte-identical reports (JSON, CSV, lcov, HTML) and evidence with
//! `--reproducible`, whatever the thread count.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::util::root;

/// Every file below `dir`, by path relative to it.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let files = crate::util::files_under(dir);
    files.iter().map(|p| (p.strip_prefix(dir).unwrap().display().to_string(), std::fs::read(p).unwrap())).collect()
}

/// Runs `vcov coverage` with every output into `out`, on `threads` rayon threads; returns the
/// files and standard output.
fn run(
    program: &str,
    automaton: &str,
    extra: &[&str],
    threads: &str,
    out: &Path,
) -> (BTreeMap<String, Vec<u8>>, String) {
    std::fs::create_dir_all(out).unwrap();
    let o = |name: &str| out.join(name).display().to_string();
    let res = Command::new(env!("CARGO_BIN_EXE_vcov"))
        .args(["coverage", program, "--aa", automaton, "--reproducible", "--no-progress"])
        .args(["--json", &o("r.json"), "--csv", &o("t.csv"), "--lcov", &o("r"), "--evidence", &o("evidence")])
        .args(["--html", &o("html")])
        .args(extra)
        .env("RAYON_NUM_THREADS", threads)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(res.status.success(), "{}", String::from_utf8_lossy(&res.stderr));
    (tree(out), String::from_utf8_lossy(&res.stdout).into_owned())
}

#[test]
fn outputs_are_byte_identical_across_runs_and_thread_counts() {
    let cases: [(&str, &str, &[&str]); 4] = [
        ("fixtures/e2e/calls/program.c", "fixtures/e2e/calls/aa.txt", &[]),
        ("fixtures/e2e/branches/program.c", "fixtures/e2e/branches/aa_then_explored.txt", &[]),
        ("fixtures/e2e/calls/program.c", "assumption-automata/true.spc", &["--continue-after-bug", "--64"]),
        ("fixtures/c/coverage/paths.c", "assumption-automata/true.spc", &["--generate", "guided"]),
    ];
    for (i, (program, automaton, extra)) in cases.iter().enumerate() {
        // Every run writes to the same folder, emptied before it: the reports name their evidence
        // folder (the reviewer's page, the JSON's `provenance`), so the same command is run each time.
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let runs: Vec<_> = ["1", "2", "2", "1"]
            .iter()
            .map(|threads| {
                if out.exists() {
                    std::fs::remove_dir_all(&out).unwrap();
                }
                run(program, automaton, extra, threads, &out)
            })
            .collect();
        let (first_files, first_stdout) = &runs[0];
        assert!(first_files.len() >= 6, "case {i}: {:?}", first_files.keys().collect::<Vec<_>>());
        assert!(first_files.contains_key("html/index.html"), "case {i}: the HTML report is compared too");
        let json = String::from_utf8_lossy(&first_files["r.json"]).into_owned();
        let zero = r#""time_seconds":{"parse":0.0,"cfa":0.0,"compose":0.0,"value_analysis":0.0,"search":0.0,"proof":0.0,"confirmation":0.0,"total":0.0,"cpu":0.0}"#;
        assert!(json.contains(zero), "{json}");
        for (files, stdout) in &runs[1..] {
            assert_eq!(files.keys().collect::<Vec<_>>(), first_files.keys().collect::<Vec<_>>(), "case {i}");
            for (name, bytes) in files {
                assert!(bytes == &first_files[name], "case {i}: {name} differs between runs");
            }
            assert_eq!(stdout, first_stdout, "case {i}");
        }
    }
}
