//! Snapshots of the text, JSON, CSV and lcov reports of a few fixtures (`tests/it/snapshots/`), so
//! that a change of any report shows as a diff of its `.snap` file. Every run is `--reproducible`
//! and bounded by executions, not time. Review changes with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test --test it snapshots`, then read the diff).

use crate::util::vcov;

/// One fixture run: its name and the arguments of `vcov coverage` (or `vcov compare`).
const RUNS: &[(&str, &[&str])] = &[
    ("calls", &["coverage", "fixtures/e2e/calls/program.c", "--aa", "fixtures/e2e/calls/aa.txt"]),
    ("mode_guard", &["coverage", "fixtures/c/coverage/mode_guard.c", "--aa", "fixtures/automata/mode_guard_aa.txt"]),
    ("error_label", &["coverage", "fixtures/c/coverage/error_label.c", "--aa", "assumption-automata/true.spc"]),
    ("extern_write", &["coverage", "fixtures/c/coverage/extern_write.c", "--aa", "assumption-automata/true.spc"]),
    (
        "uninitialized_heap",
        &["coverage", "fixtures/c/coverage/uninitialized_heap.c", "--aa", "assumption-automata/true.spc"],
    ),
    (
        "paths_blind",
        &[
            "coverage",
            "fixtures/c/coverage/paths.c",
            "--aa",
            "assumption-automata/true.spc",
            "--generate",
            "blind",
            "--max-executions",
            "3",
        ],
    ),
    (
        "compare_calls",
        &[
            "compare",
            "fixtures/e2e/calls/program.c",
            "--aa",
            "fixtures/e2e/calls/aa.txt",
            "--aa",
            "assumption-automata/true.spc",
            "--name",
            "calls",
            "--name",
            "true",
        ],
    ),
];

/// The reports of one run, each as text: `(suffix, text)`.
fn reports(args: &[&str]) -> Vec<(&'static str, String)> {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).display().to_string();
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(["--reproducible", "--no-progress", "--json", &out("r.json"), "--csv", &out("r.csv")].map(String::from));
    all.extend(["--lcov".to_string(), out("lcov")]);
    let run = vcov(&all);
    assert_eq!(run.code, 0, "vcov {}: {}", all.join(" "), run.stderr);
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    // Pretty, so that a change shows on its own line (keys sorted); without vcov's version, so that
    // a release does not change every snapshot.
    let mut json: serde_json::Value = serde_json::from_str(&read("r.json")).unwrap();
    hide_version(&mut json);
    let json = serde_json::to_string_pretty(&json).unwrap();
    let mut res = vec![("text", run.stdout), ("json", json), ("csv", read("r.csv"))];
    let mut lcov: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("lcov.") && n.ends_with(".info"))
        .collect();
    lcov.sort();
    let tracefiles: String = lcov.iter().map(|n| format!("=== {}\n{}", n, read(n))).collect();
    res.push(("lcov", tracefiles));
    res
}

/// Replaces every `vcov_version` in `v` by `[version]`.
fn hide_version(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match k == "vcov_version" {
                    true => *x = "[version]".into(),
                    false => hide_version(x),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(hide_version),
        _ => {}
    }
}

#[test]
fn reports_of_the_fixtures_are_as_recorded() {
    for (name, args) in RUNS {
        for (suffix, text) in reports(args) {
            insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false, description => args.join(" ") }, {
                insta::assert_snapshot!(format!("{name}.{suffix}"), text);
            });
        }
    }
}
