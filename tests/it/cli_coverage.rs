//! `vcov coverage`, `vcov scores` and `vcov cfa` on the fixtures: numbers, report files, errors.

use crate::util::{fixture, json, nums, run_json, vcov};

fn coverage_json(program: &str, aa: &str, extra: &[&str]) -> serde_json::Value {
    let (program, aa) = (fixture(program).display().to_string(), fixture(aa).display().to_string());
    let mut args = vec!["coverage", &program, "--aa", &aa];
    args.extend(extra);
    run_json(&args)
}

#[test]
fn over_and_under_approximation_from_given_executions() {
    let execs = fixture("e2e/branches/executions").display().to_string();
    let j = coverage_json("e2e/branches/program.c", "e2e/branches/aa_else_prefix.txt", &["--executions-from", &execs]);
    assert_eq!(j["schema_version"], 1);
    assert_eq!(nums(&j["lines_to_cover"]), [3, 4, 5, 6, 7, 9, 10, 13, 14, 15]);
    // The edge into __FALSE (`x = x * 2;`) counts for the over-approximation, not for executions.
    assert_eq!(nums(&j["over_approximation"]["lines"]), [3, 4, 13, 14]);
    assert_eq!(nums(&j["under_approximation"]["lines"]), [3, 4, 13]);
    assert_eq!(j["under_approximation"]["executions"], 2);
    assert_eq!(nums(&j["executions"][0]["lines"]), [3, 4, 13]);
    // The second execution leaves the explored region at the first branch.
    assert_eq!(nums(&j["executions"][1]["lines"]), [3]);
    assert_eq!(j["automaton_match"]["states"], 9);
    assert_eq!(j["automaton_match"]["states_reached"], 9);

    let j =
        coverage_json("e2e/branches/program.c", "e2e/branches/aa_then_explored.txt", &["--executions-from", &execs]);
    assert_eq!(nums(&j["over_approximation"]["lines"]), [3, 4, 5, 6, 7, 9, 10]);
    assert_eq!(nums(&j["under_approximation"]["lines"]), [3, 4, 5, 6]);
}

#[test]
fn max_executions_limits_the_executions_measured() {
    let execs = fixture("e2e/branches/executions").display().to_string();
    let j = coverage_json(
        "e2e/branches/program.c",
        "e2e/branches/aa_then_explored.txt",
        &["--executions-from", &execs, "--max-executions", "1"],
    );
    assert_eq!(j["under_approximation"]["executions"], 1);
    assert_eq!(nums(&j["under_approximation"]["lines"]), [3]);
}

#[test]
fn returns_go_back_to_their_own_call_site() {
    let j = coverage_json("e2e/calls/program.c", "e2e/calls/aa.txt", &[]);
    assert_eq!(j["automaton_match"]["states_reached"], j["automaton_match"]["states"]);
    assert_eq!(j["automaton_match"]["states"], 23);
    // Line 15 (`error();`) is behind the edge into __FALSE; line 3 is error()'s body.
    assert_eq!(nums(&j["over_approximation"]["lines"]), [1, 5, 6, 8, 11, 12, 13, 14, 17, 18]);
    assert_eq!(nums(&j["lines_to_cover"]), [1, 3, 5, 6, 8, 11, 12, 13, 14, 15, 17, 18]);
}

#[test]
fn first_line_rule_counts_only_where_edges_start() {
    let spanned = coverage_json("e2e/multiline/program.c", "e2e/multiline/aa_true.txt", &[]);
    let first = coverage_json("e2e/multiline/program.c", "e2e/multiline/aa_true.txt", &["--line-rule", "first-line"]);
    // `int x;` (3), the call over lines 4-5, both `&&` leaves of the `if` (6-7), the assignment (8-9).
    assert_eq!(nums(&spanned["lines_to_cover"]), [3, 4, 5, 6, 7, 8, 9]);
    // CPAchecker 1.5's coverage.info counts where edges start; both leaves start on the `if` line.
    assert_eq!(nums(&first["lines_to_cover"]), [3, 4, 6, 8]);
    // Everything was explored: the over-approximation is every line to cover.
    assert_eq!(spanned["over_approximation"]["lines"], spanned["lines_to_cover"]);
}

#[test]
fn text_summary_has_the_papers_columns() {
    let run = vcov(["coverage", "fixtures/e2e/branches/program.c", "--aa", "fixtures/e2e/branches/aa_else_prefix.txt"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("# lines"), "{}", run.stdout);
    assert!(run.stdout.contains("Over A."));
    assert!(run.stdout.contains("9 of 9 states reached"), "{}", run.stdout);
}

#[test]
fn lcov_tracefiles_list_every_line_to_cover() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("cov");
    let run = vcov([
        "coverage",
        "fixtures/e2e/branches/program.c",
        "--aa",
        "fixtures/e2e/branches/aa_then_explored.txt",
        "--lcov",
        prefix.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let over = std::fs::read_to_string(dir.path().join("cov.over.info")).unwrap();
    assert!(over.starts_with("TN:"));
    assert!(over.contains("DA:5,1\n") && over.contains("DA:13,0\n") && over.contains("LF:10\nLH:7\n"), "{over}");
    assert!(over.contains("FN:2,main\n") && over.ends_with("end_of_record\n"));
    // The generated executions cover lines 3, 4, 5, 6 and 9; the returns enter __FALSE.
    let under = std::fs::read_to_string(dir.path().join("cov.under.info")).unwrap();
    assert!(under.contains("DA:6,1\n") && under.contains("DA:7,0\n") && under.contains("LH:5\n"), "{under}");
}

/// genhtml (Debian's lcov) accepts the tracefiles and reads the same figures from them.
#[test]
#[cfg_attr(not(any(vcov_genhtml, vcov_ci)), ignore = "needs genhtml (lcov)")]
fn genhtml_accepts_the_lcov_tracefiles() {
    crate::util::require_tool("genhtml", "lcov");
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("cov");
    let run = vcov([
        "coverage",
        "fixtures/e2e/branches/program.c",
        "--aa",
        "fixtures/e2e/branches/aa_then_explored.txt",
        "--lcov",
        prefix.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for (file, lines) in [("cov.over.info", "(7 of 10 lines)"), ("cov.under.info", "(5 of 10 lines)")] {
        let out = std::process::Command::new("genhtml")
            .arg("-o")
            .arg(dir.path().join(file).with_extension("html"))
            .arg(dir.path().join(file))
            .current_dir(crate::util::root())
            .output()
            .expect("genhtml runs");
        let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "genhtml rejected {file}: {said}");
        // Its summary, `lines......: 70.0% (7 of 10 lines)`.
        assert!(said.contains(lines), "{file}: genhtml's summary: {said}");
        assert!(dir.path().join(file).with_extension("html").join("index.html").is_file(), "{file}");
    }
}

#[test]
fn scores_are_written_as_csv() {
    let run = vcov(["scores", "fixtures/e2e/branches/program.c", "--aa", "fixtures/e2e/branches/aa_then_explored.txt"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut lines = run.stdout.lines();
    assert_eq!(lines.next(), Some("state,aa_line,score,product_nodes"));
    // ARG5 branches into both explored inner blocks; ARG7M0 only reaches `return 2;`.
    let row = |name: &str| run.stdout.lines().find(|l| l.starts_with(&format!("{name},"))).unwrap().to_string();
    let score = |name: &str| row(name).split(',').nth(2).unwrap().parse::<u32>().unwrap();
    assert!(score("ARG5") > score("ARG6"));
    assert!(score("ARG6") > score("ARG6M0"));
    assert_eq!(score("__FALSE"), 0);
}

#[test]
fn bad_inputs_name_the_place_and_exit_with_2() {
    let run = vcov(["coverage", "fixtures/e2e/missing.c", "--aa", "fixtures/e2e/calls/aa.txt"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("fixtures/e2e/missing.c: cannot read the file"), "{}", run.stderr);

    let run = vcov(["coverage", "fixtures/c/errors/syntax.c", "--aa", "fixtures/e2e/calls/aa.txt"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("fixtures/c/errors/syntax.c:3:"), "{}", run.stderr);

    let run =
        vcov(["coverage", "fixtures/e2e/calls/program.c", "--aa", "fixtures/automata/invalid/missing_semicolon.spc"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("fixtures/automata/invalid/missing_semicolon.spc:"), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"));
}

#[test]
fn an_automaton_that_does_not_fit_is_an_error_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    // The automaton of another program: its states beyond the global prefix are not reached.
    let args = |allow: bool| {
        let mut a = vec![
            "coverage".to_string(),
            "fixtures/e2e/calls/program.c".into(),
            "--aa".into(),
            "fixtures/e2e/branches/aa_else_prefix.txt".into(),
            "--json".into(),
            out.display().to_string(),
        ];
        if allow {
            a.push("--allow-mismatch".into());
        }
        a
    };
    let run = vcov(args(false));
    assert_eq!(run.code, 2, "{}", run.stderr);
    // The numbers that show it: states never reached, with the first ones and their lines.
    assert!(
        run.stderr
            .starts_with("vcov: fixtures/e2e/branches/aa_else_prefix.txt: the automaton does not fit the program"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("states are never reached (first: ") && run.stderr.contains("(line "),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--allow-mismatch"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "no summary that could pass for a result: {}", run.stdout);
    assert!(!out.exists(), "no report");

    let run = vcov(args(true));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("automaton states are not reached"), "{}", run.stderr);
    let j = json(&out);
    let m = &j["automaton_match"];
    assert_eq!(
        (&m["states"], &m["states_reached"], &m["transitions"], &m["transitions_used"]),
        (&9.into(), &2.into(), &19.into(), &2.into())
    );
    let unmatched: Vec<(&str, u64)> = m["unmatched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (u["state"].as_str().unwrap(), u["aa_line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        unmatched,
        [("ARG1M0", 21), ("ARG1M1", 25), ("ARG1M2", 29), ("ARG2", 33), ("ARG3", 37), ("ARG4", 42), ("ARG4M0", 46)]
    );
    // The prefix states are reached, but their MATCHes for the other program's edges never fire.
    assert_eq!(m["unmatched_transitions"], serde_json::json!([{"state": "ARG1", "aa_line": 18}]));
}

#[test]
fn a_state_no_transition_leads_to_does_not_count_against_the_fit() {
    // The reference scripts' automata keep such states (`ARG2_0_1`): no program can reach them.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("e2e/calls/aa.txt")).unwrap();
    let end = text.rfind("END AUTOMATON").unwrap();
    let orphan =
        format!("{}STATE USEFIRST ORPHAN :\n    MATCH \"x = 1;\" -> GOTO __FALSE;\n\n{}", &text[..end], &text[end..]);
    let aa = dir.path().join("aa.txt");
    std::fs::write(&aa, orphan).unwrap();
    let run = vcov(["coverage", "fixtures/e2e/calls/program.c", "--aa", aa.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("ORPHAN"), "still reported: {}", run.stderr);
}

#[test]
fn output_into_a_missing_directory_fails_without_a_partial_file() {
    let run = vcov([
        "coverage",
        "fixtures/e2e/calls/program.c",
        "--aa",
        "fixtures/e2e/calls/aa.txt",
        "--json",
        "/nonexistent-dir/r.json",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("/nonexistent-dir/r.json: cannot write the JSON report"), "{}", run.stderr);
}

#[test]
fn cfa_prints_text_and_dot() {
    let run = vcov(["cfa", "fixtures/e2e/calls/program.c"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("\"a = step(a);\""), "{}", run.stdout);
    let run = vcov(["cfa", "--dot", "fixtures/e2e/calls/program.c"]);
    assert!(run.stdout.starts_with("digraph cfa {"));
}

#[test]
fn csv_rows_are_appended_under_one_header() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.csv");
    // The first run `--reproducible` (its CPU time is 0), the second not.
    for (name, reproducible) in [("first", true), ("second", false)] {
        let mut args = vec![
            "coverage",
            "fixtures/e2e/branches/program.c",
            "--aa",
            "fixtures/e2e/branches/aa_then_explored.txt",
            "--csv",
            table.to_str().unwrap(),
            "--instance",
            name,
            "--max-executions",
            "0",
        ];
        if reproducible {
            args.push("--reproducible");
        }
        let run = vcov(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let text = std::fs::read_to_string(&table).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert_eq!(
        rows[0],
        [
            "instance",
            "lines",
            "over",
            "under",
            "executions",
            "bug",
            "cpu_seconds",
            "exact",
            "interrupted",
            "stopped_by",
            "property",
            "exact_assuming"
        ]
    );
    // The program has no error location.
    assert_eq!(
        rows[1],
        ["first", "10", "7", "0", "0", "no", "0.00", "false", "false", "max_executions", "none_in_region", ""]
    );
    // The CPU time of a run that is not reproducible varies: seconds with two decimals.
    let second = &rows[2];
    assert_eq!(
        [&second[..6], &second[7..]].concat(),
        ["second", "10", "7", "0", "0", "no", "false", "false", "max_executions", "none_in_region", ""]
    );
    assert!(regex::Regex::new(r"^\d+\.\d\d$").unwrap().is_match(second[6]), "the CPU time: {}", second[6]);
}

#[test]
fn branch_and_function_coverage() {
    let execs = fixture("e2e/branches/executions").display().to_string();
    let j =
        coverage_json("e2e/branches/program.c", "e2e/branches/aa_then_explored.txt", &["--executions-from", &execs]);
    // Two branching points with two arms each; the over-approximation takes three arms (the else arm
    // of `if (x)` goes into __FALSE, which still counts), the executions one per point.
    assert_eq!(j["branch_coverage"], serde_json::json!({"total": 4, "over": 4, "under": 2}));
    assert_eq!(j["function_coverage"], serde_json::json!({"total": 1, "over": 1, "under": 1}));
}

#[test]
fn a_line_no_execution_of_the_program_reaches_is_proven_not_coverable_beside_the_search() {
    // The search cannot exhaust the loop (2^32 iterations). Line 10 needs `j > i` in the loop, line
    // 14 `j != i` after it: no execution reaches either. `--max-executions` ends the search the same
    // way on every run, and the proofs (which need a time limit) end long before the limit, so each
    // run gives the same report.
    let args = ["--max-executions", "2", "--timelimit", "60", "--reproducible"];
    let j = coverage_json("e2e/loop/program.c", "e2e/loop/aa.txt", &args);
    assert_eq!(j["line_status"]["10"], "not_coverable");
    assert_eq!(j["line_status"]["14"], "not_coverable");
    // One step that avoids line 10 leaves `j <= i`, so the next cannot take it.
    assert_eq!(j["not_coverable_by"]["10"], "k-induction over the program (k = 1)");
    // Line 14 needs the loop's invariant `i == j`: no number of steps shows it alone.
    let by = j["not_coverable_by"]["14"].as_str().expect("an argument for line 14");
    assert!(by.starts_with("invariants: no step from a state the program's "), "{by}");
    let invariants = j["invariants"].as_array().expect("the invariants the proof assumed");
    assert!(invariants.iter().all(|i| i["function"] == "main" && i["line"] == 6), "{invariants:?}");
    assert!(invariants.iter().any(|i| i["invariant"] == "i == j"), "{invariants:?}");
    // Line 17 is reached by executions with n > 1000, though none inside the explored region: no
    // proof over the whole program can decide it.
    assert_eq!(j["line_status"]["17"], "over_only");
    assert_eq!(coverage_json("e2e/loop/program.c", "e2e/loop/aa.txt", &args), j);
    // The summary says it, and the HTML report lists the invariants.
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report");
    let h = html.display().to_string();
    let text = vcov(
        ["coverage", "fixtures/e2e/loop/program.c", "--aa", "fixtures/e2e/loop/aa.txt", "--no-progress", "--html", &h]
            .into_iter()
            .chain(args),
    );
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(page.contains("the proofs over the program assume them: "), "no invariants in the HTML report");
    assert!(page.contains("i == j (in main, the loop of line <a class=\"line\" href=\"#L6\">6</a>)"));
    assert!(
        crate::util::unwrapped(&text.stdout).contains(
            "2 line(s) not coverable: no execution of the program reaches them (bounded model checking and \
             k-induction over the whole program, with 5 invariant(s) proven at its loop heads"
        ),
        "{}",
        text.stdout
    );
    // Without the proofs (or without a time limit) the lines stay undecided, and no invariant is
    // reported.
    let mut without = args.to_vec();
    without.push("--no-induction");
    for extra in [&without[..], &["--max-executions", "2"]] {
        let j = coverage_json("e2e/loop/program.c", "e2e/loop/aa.txt", extra);
        assert_eq!(j["line_status"]["10"], "over_only");
        assert_eq!(j["line_status"]["14"], "over_only");
        assert!(j.get("invariants").is_none());
    }
}
