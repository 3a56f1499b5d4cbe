//! `vcov compare`: each configuration measured as `vcov coverage` would, and the relations between them.

use crate::util::{json, nums, vcov};

const PROGRAM: &str = "fixtures/e2e/branches/program.c";
const AUTOMATA: [&str; 3] = [
    "fixtures/e2e/branches/aa_then_explored.txt",
    "fixtures/e2e/branches/aa_else_prefix.txt",
    "assumption-automata/true.spc",
];

#[test]
fn each_configuration_equals_its_own_coverage_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.json");
    let mut args = vec!["compare", PROGRAM];
    for a in AUTOMATA {
        args.extend(["--aa", a]);
    }
    args.extend(["--name", "then", "--name", "else", "--json", out.to_str().unwrap()]);
    let run = vcov(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("with 3 configurations"), "{}", run.stdout);
    let c = json(&out);
    assert_eq!(c["names"], serde_json::json!(["then", "else", "true"]));
    let configurations = c["configurations"].as_array().unwrap();
    for (i, aa) in AUTOMATA.iter().enumerate() {
        let single = dir.path().join(format!("{i}.json"));
        let run = vcov(["coverage", PROGRAM, "--aa", aa, "--json", single.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let s = json(&single);
        for key in ["lines_to_cover", "over_approximation", "under_approximation", "line_status", "exact", "bug_found"]
        {
            assert_eq!(configurations[i][key], s[key], "{aa}: {key}");
        }
    }
    // The relations follow from the configurations' own lines.
    let under: Vec<Vec<u64>> = configurations.iter().map(|r| nums(&r["under_approximation"]["lines"])).collect();
    let all: Vec<u64> = under[0].iter().copied().filter(|l| under.iter().all(|u| u.contains(l))).collect();
    assert_eq!(nums(&c["covered_by_all"]), all);
    let only_true: Vec<u64> =
        under[2].iter().copied().filter(|l| !under[0].contains(l) && !under[1].contains(l)).collect();
    assert_eq!(nums(&c["covered_only_by"]["true"]), only_true);
    assert!(!only_true.is_empty(), "everything explored covers lines the partial automata do not: {c}");
}

#[test]
fn snapshots_that_shrink_are_warned_about() {
    // Read in this order as snapshots of one run, the second over-approximates less than the first.
    let run = vcov(["compare", PROGRAM, "--aa", AUTOMATA[2], "--aa", AUTOMATA[1], "--order", "time"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("as snapshots of one run"), "{}", run.stdout);
    assert!(run.stderr.contains("does not contain that of true"), "{}", run.stderr);
    let run = vcov(["compare", PROGRAM, "--aa", AUTOMATA[1], "--aa", AUTOMATA[2], "--order", "time"]);
    assert!(!run.stderr.contains("does not contain"), "{}", run.stderr);
}

#[test]
fn bad_uses_are_errors() {
    let run = vcov(["compare", PROGRAM, "--aa", AUTOMATA[0]]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("at least two automata"), "{}", run.stderr);
    let run = vcov(["compare", PROGRAM, "--aa", AUTOMATA[0], "--aa", AUTOMATA[0]]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("named aa_then_explored"), "{}", run.stderr);
}
