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
    // Everything explored covers lines the partial automata do not.
    assert_eq!(under, [vec![3, 4, 5, 6, 9], vec![3, 4, 13], vec![3, 4, 5, 6, 7, 9, 10, 13, 14, 15]]);
    assert_eq!((all, only_true), (vec![3, 4], vec![7, 10, 14, 15]));
    assert_eq!(c["covered_only_by"]["then"], serde_json::json!([]), "{c}");
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

#[test]
fn a_product_with_long_paths_is_measured_on_the_configurations_threads() {
    // An automaton whose states follow one another edge after edge through a loop: the product has
    // paths of hundreds of thousands of nodes, whose strongly connected components a recursive search
    // finds only with a stack deeper than a thread's (this overflowed `vcov compare`'s threads, and
    // `vcov coverage`'s main thread a little further).
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("spin.c");
    std::fs::write(
        &program,
        "int main(void) {\n  int x = 0;\n  while (x < 5) {\n    x = x + 1;\n  }\n  return x;\n}\n",
    )
    .unwrap();
    let n = 200_000;
    let mut aa = String::from("OBSERVER AUTOMATON AssumptionAutomaton\n\nINITIAL STATE ARG0;\n\n");
    for i in 0..n {
        aa.push_str(&format!("STATE USEFIRST ARG{i} :\n    TRUE -> GOTO ARG{};\n\n", i + 1));
    }
    aa.push_str(&format!("STATE USEFIRST ARG{n} :\n    TRUE -> GOTO ARG{n};\n\nEND AUTOMATON\n"));
    let automaton = dir.path().join("chain.txt");
    std::fs::write(&automaton, aa).unwrap();
    let (p, a) = (program.to_str().unwrap(), automaton.to_str().unwrap());
    let run = vcov(["compare", p, "--aa", a, "--aa", a, "--name", "one", "--name", "two", "--max-executions", "0"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("with 2 configurations"), "{}", run.stdout);
    let run = vcov(["coverage", p, "--aa", a, "--max-executions", "0"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn a_compare_its_time_limit_stops_still_reports_and_says_what_it_left_out() {
    // Both searches run until the limit (the counter never ends): the report is written, and the
    // executions are not shared after the searches, which would compose every automaton again.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.json");
    let run = vcov([
        "compare",
        "fixtures/c/verify/endless_counter.c",
        "--aa",
        "assumption-automata/true.spc",
        "--aa",
        "assumption-automata/true.spc",
        "--name",
        "a",
        "--name",
        "b",
        "--timelimit",
        "1",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("executions were not shared between the configurations"), "{}", run.stderr);
    let c = json(&out);
    for conf in c["configurations"].as_array().unwrap() {
        assert_eq!(conf["stopped_by"], "time_limit", "{conf}");
    }
}
