//! `vcov coverage` generating executions with the symbolic executor: the three modes, exactness,
//! bugs, evidence that `vcov replay` confirms, and stopping early (time limit, SIGINT).

use std::time::Duration;

use crate::util::{json, nums, root, vcov, TtyRun};

/// The JSON report of `vcov coverage ARGS`.
fn run_json(args: &[&str]) -> serde_json::Value {
    crate::util::run_json(&[&["coverage"], args].concat())
}

#[test]
fn targeted_covers_what_can_be_covered_and_proves_the_rest() {
    let j = run_json(&["fixtures/e2e/branches/program.c", "--aa", "fixtures/e2e/branches/aa_then_explored.txt"]);
    assert_eq!(j["generate"], "targeted");
    assert_eq!(nums(&j["under_approximation"]["lines"]), [3, 4, 5, 6, 9]);
    assert_eq!(j["exact"], true);
    assert_eq!(j["interrupted"], false);
    let status = &j["line_status"];
    assert_eq!(status["6"], "covered");
    // `return 1;` and `return 2;` enter __FALSE: no execution can cover them.
    assert_eq!(status["7"], "not_coverable");
    assert_eq!(status["10"], "not_coverable");
    // The else branch was never explored by the verifier.
    assert_eq!(status["13"], "unexplored");
    // Every execution is backed by concrete inputs.
    for e in j["executions"].as_array().unwrap() {
        assert_eq!(e["terminating"], true);
        assert_eq!(e["inputs"][0]["function"], "__VERIFIER_nondet_int");
    }
    // The execution that covers each line first.
    assert_eq!(j["covered_by"], serde_json::json!({"3": 1, "4": 2, "5": 2, "6": 2, "9": 3}));
}

#[test]
fn blind_enumerates_terminating_paths_and_respects_the_limit() {
    // Four feasible paths; `a * 0 == 1` is infeasible and never explored.
    let j = run_json(&[
        "fixtures/c/coverage/paths.c",
        "--aa",
        "assumption-automata/true.spc",
        "--generate",
        "blind",
        "--max-executions",
        "10",
    ]);
    assert_eq!(j["under_approximation"]["executions"], 4);
    assert_eq!(j["exact"], true);
    assert!(j.get("inexact_reason").is_none(), "{j}");
    assert_eq!(j["line_status"]["13"], "not_coverable");
    let j = run_json(&[
        "fixtures/c/coverage/paths.c",
        "--aa",
        "assumption-automata/true.spc",
        "--generate",
        "blind",
        "--max-executions",
        "2",
    ]);
    assert_eq!(j["under_approximation"]["executions"], 2);
    assert_eq!(j["exact"], false);
    assert!(j["inexact_reason"].as_str().unwrap().contains("--max-executions"), "{j}");
    // With the automaton that explored nothing, executions exist but cover nothing.
    let j = run_json(&["fixtures/c/coverage/paths.c", "--aa", "assumption-automata/false.spc", "--generate", "guided"]);
    assert!(nums(&j["under_approximation"]["lines"]).is_empty());
    assert!(nums(&j["over_approximation"]["lines"]).is_empty());
}

#[test]
fn a_violation_on_the_way_is_reported_with_a_witness() {
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("ev");
    let j = run_json(&[
        "fixtures/c/coverage/error_label.c",
        "--aa",
        "assumption-automata/true.spc",
        "--generate",
        "blind",
        "--evidence",
        evidence.to_str().unwrap(),
    ]);
    assert_eq!(j["bug_found"], true);
    let witness = std::fs::read_to_string(evidence.join("witness.graphml")).unwrap();
    assert!(witness.contains("violation_witness"), "{witness}");
    assert!(witness.contains("42"), "the witness carries the input that reaches ERROR");
}

#[test]
fn evidence_is_confirmed_by_gcc_and_gcov() {
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("ev");
    let j = run_json(&[
        "fixtures/e2e/calls/program.c",
        "--aa",
        "assumption-automata/true.spc",
        "--64",
        "--evidence",
        evidence.to_str().unwrap(),
        // error() is reached for a == 100 (a bug under the ERROR-label specification); go on after it.
        "--continue-after-bug",
    ]);
    assert_eq!(j["bug_found"], true);
    let n = j["under_approximation"]["executions"].as_u64().unwrap();
    assert!(n >= 2, "{j}");
    assert!(evidence.join("metadata.xml").exists() && evidence.join("vcov-claims.json").exists());
    assert!(evidence.join("Counterexample.1.spc").exists());
    let run = vcov(["replay", "fixtures/e2e/calls/program.c", evidence.to_str().unwrap(), "--64"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The terminating executions, and the bug as a test of its own that reaches the label ERROR.
    assert_eq!(run.stdout.matches(": ok").count() as u64, n + 1, "{}", run.stdout);
    let bug_test = format!("test{}.xml", n + 1);
    let bug = std::fs::read_to_string(evidence.join(&bug_test)).unwrap();
    assert!(
        bug.contains("<testcase coversError=\"true\">") && bug.contains("<input variable=\"__VERIFIER_nondet_int\""),
        "{bug}"
    );
    let claims = json(&evidence.join("vcov-claims.json"));
    assert_eq!(claims["error_label"], true);
    let last = claims["tests"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["file"].as_str().unwrap(), &last["violates_property"]),
        (bug_test.as_str(), &serde_json::json!(true))
    );
    assert!(nums(&last["lines"]).contains(&3), "the line of the label: {last}");
    let meta = std::fs::read_to_string(evidence.join("metadata.xml")).unwrap();
    assert!(
        meta.contains("<specification>COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )</specification>"),
        "{meta}"
    );
    // The counterexample automata describe the same executions.
    let again = run_json(&[
        "fixtures/e2e/calls/program.c",
        "--aa",
        "assumption-automata/true.spc",
        "--64",
        "--executions-from",
        evidence.to_str().unwrap(),
    ]);
    assert_eq!(again["under_approximation"]["lines"], j["under_approximation"]["lines"]);
}

#[test]
fn the_time_limit_stops_the_search_and_the_report_says_so() {
    let args = ["fixtures/c/coverage/endless.c", "--aa", "assumption-automata/true.spc", "--timelimit", "2"];
    let without: Vec<&str> = args.iter().copied().chain(["--no-induction"]).collect();
    let j = run_json(&without);
    assert_eq!(j["interrupted"], true);
    assert_eq!(j["stopped_by"], "time_limit");
    assert_eq!(j["exact"], false);
    assert!(j["inexact_reason"].as_str().unwrap().contains("stopped"), "{j}");
    // `s = 0;` cannot be covered, but an interrupted search cannot prove it.
    assert_eq!(j["line_status"]["9"], "over_only");
    assert_eq!(j["line_status"]["6"], "covered");
    // k-induction beside the search can: `n < 0` leaves the loop at once, with `s == 0`.
    let j = run_json(&args);
    assert_eq!(j["stopped_by"], "time_limit");
    assert_eq!(j["line_status"]["9"], "not_coverable");
    let by = j["not_coverable_by"]["9"].as_str().unwrap();
    assert!(by.starts_with("k-induction over the program") || by.starts_with("invariants"), "{by}");
}

#[test]
fn sigint_stops_the_search_and_the_report_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let o = out.display().to_string();
    let mut run = TtyRun::start(&[
        "coverage",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--json",
        &o,
    ]);
    // The search has covered every line it can (only `s = 0;` is left) and goes on forever.
    run.wait_for(&["6/7 lines decided"], Duration::from_secs(120));
    run.signal(libc::SIGINT);
    let (code, _, screen) = run.finish(Duration::from_secs(60));
    assert_eq!(code, Some(130), "128 + SIGINT, after the report: {screen}");
    let j = json(&out);
    assert_eq!(j["interrupted"], true);
    assert_eq!(j["stopped_by"], "signal");
    assert_eq!(nums(&j["under_approximation"]["lines"]), [3, 4, 5, 6, 8, 11]);
}

#[test]
fn undefined_behaviour_ends_the_execution_and_is_reported_where_it_happens() {
    // `*p = 1;` is undefined when x == 0: that execution ends there (it is not a terminating
    // execution, as gcc's build of the program ends with a fault), so `g = 2;`, which lies only
    // beyond it, is not coverable; the search is still exhaustive, and the report names the place
    // and the path that leads to it.
    let j = run_json(&["fixtures/c/coverage/maybe_null.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(j["exact"], true, "{j}");
    assert_eq!(j["line_status"]["9"], "not_coverable");
    assert_eq!(j["not_coverable_by"]["9"], "exhaustive search");
    assert_eq!(j["line_status"]["10"], "covered");
    assert_eq!(j["assumptions"], serde_json::json!([]));
    let ub = &j["undefined_behaviour"];
    assert_eq!(ub["paths"], 1, "{ub}");
    assert_eq!(ub["places"].as_array().unwrap().len(), 1, "{ub}");
    assert_eq!(ub["places"][0]["line"], 7);
    assert_eq!(ub["places"][0]["kind"], "invalid memory access");
    assert_eq!(nums(&ub["places"][0]["trace"]), vec![1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn approximations_block_exactness_unless_the_user_assumes_them() {
    // `get` has no body and receives a pointer: without assumptions the search cannot exclude that
    // it writes `flag` (whose address `keep` takes, so the value analysis of the product does not
    // track it); with `--assume no-extern-writes` the result is exact relative to that.
    // (`value` is read after the call, so the search's own paths do not settle it; the proof that
    // takes what `get` writes as arbitrary decides line 9, not line 7.)
    let plain = run_json(&["fixtures/c/coverage/extern_write.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(plain["exact"], false, "{plain}");
    assert!(plain["inexact_reason"].as_str().unwrap().contains("may write through them"), "{plain}");
    assert_eq!(plain["line_status"]["7"], "unknown", "{plain}");
    assert_eq!(plain["line_status"]["9"], "not_coverable", "{plain}");
    assert_eq!(plain["not_coverable_by"]["9"], "search with what functions without body write abstracted away");
    let assumed = run_json(&[
        "fixtures/c/coverage/extern_write.c",
        "--aa",
        "assumption-automata/true.spc",
        "--assume",
        "no-extern-writes",
    ]);
    assert_eq!(assumed["exact"], true, "{assumed}");
    assert_eq!(assumed["line_status"]["9"], "not_coverable", "{assumed}");
    assert_eq!(assumed["not_coverable_by"]["9"], "exhaustive search, assuming no-extern-writes");
    assert_eq!(assumed["assumptions"][0]["name"], "no-extern-writes");
    // An assumption the search did not need is not named.
    let both = run_json(&[
        "fixtures/c/coverage/extern_write.c",
        "--aa",
        "assumption-automata/true.spc",
        "--assume",
        "no-extern-writes,fresh-pointers",
    ]);
    assert_eq!(both["assumptions"].as_array().unwrap().len(), 1, "{both}");
}

#[test]
fn a_search_complete_but_for_an_assumption_says_what_it_decides_under_it() {
    // `get_node` may return `&n0` (its address is in a global), so `p->v = x` may set `n0.v` to 7:
    // line 17 is undecided in the sound model; assuming fresh pointers, `n0.v` stays 0 and the
    // exhaustive search decides it. Line 11 (`head` is never null) is decided soundly, by the values.
    let program = "fixtures/c/coverage/alias_or_fresh.c";
    let aa = "assumption-automata/true.spc";
    let j = run_json(&[program, "--aa", aa]);
    assert_eq!(j["exact"], false, "{j}");
    assert_eq!(j["line_status"]["11"], "not_coverable", "{j}");
    assert_eq!(j["line_status"]["17"], "unknown", "{j}");
    let d = j["decided_assuming"].as_array().unwrap();
    assert_eq!(d.len(), 1, "{j}");
    assert_eq!(d[0]["assumptions"][0]["name"], "fresh-pointers");
    assert_eq!(d[0]["line_status"], serde_json::json!({"17": "not_coverable"}));
    // The three figures in the summary a user reads, and in the HTML report.
    let run = vcov(["coverage", program, "--aa", aa, "--no-progress"]);
    assert!(run.stdout.contains("10 covered, 1 proven not coverable;\n      1 undecided (8.3%)"), "{}", run.stdout);
    assert!(
        run.stdout.contains("decided assuming fresh-pointers: 1 more line(s) not coverable, 0 undecided"),
        "{}",
        run.stdout
    );
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("html");
    let run = vcov(["coverage", program, "--aa", aa, "--no-progress", "--html", html.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(
        page.contains("<b>Assuming fresh-pointers</b>, 1 of the undecided lines (8.3%) are not coverable"),
        "{page}"
    );
    let run = vcov(["compare", program, "--aa", aa, "--aa", aa, "--name", "a", "--name", "b", "--no-progress"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("decided assuming fresh-pointers: 1 more line(s) not coverable, 0 undecided"),
        "{}",
        run.stdout
    );
    // Exact without an obstacle, or with one no assumption removes: nothing to add.
    let j = run_json(&["fixtures/c/coverage/mode_guard.c", "--aa", "fixtures/automata/mode_guard_aa.txt"]);
    assert!(j.get("decided_assuming").is_none(), "{j}");
    let j = run_json(&["fixtures/c/coverage/list_walk.c", "--aa", aa]);
    assert_eq!(j["exact"], false, "{j}");
    assert!(j.get("decided_assuming").is_none(), "{j}");
}

/// What a run says it decides under assumptions is what a run accepting them decides: the same
/// status for every line, exact.
#[test]
fn what_is_decided_assuming_is_what_a_run_under_the_assumptions_decides() {
    let aa = "assumption-automata/true.spc";
    let mut checked = 0;
    for program in [
        "fixtures/c/coverage/alias_or_fresh.c",
        "fixtures/c/coverage/extern_write.c",
        "fixtures/c/coverage/extern_reached.c",
        "fixtures/c/coverage/fresh_pointer_violation.c",
    ] {
        let plain = run_json(&[program, "--aa", aa]);
        let d = &plain["decided_assuming"][0];
        let names: Vec<&str> =
            d["assumptions"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
        let mut expected = plain["line_status"].as_object().unwrap().clone();
        for (line, status) in d["line_status"].as_object().unwrap() {
            assert_eq!(expected[line], "unknown", "{program}: line {line} was decided soundly");
            expected.insert(line.clone(), status.clone());
        }
        let assumed = run_json(&[program, "--aa", aa, "--assume", &names.join(",")]);
        assert_eq!(assumed["exact"], true, "{program}: {assumed}");
        assert_eq!(assumed["line_status"].as_object().unwrap(), &expected, "{program}");
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn what_functions_without_body_may_write_matters_only_where_the_path_reads_it() {
    // `reg(&d)` may write `d` and, through `d.buf`, `data`; `secret` never escapes, and `d.id` is
    // written by the path after the last call: no read depends on what `reg` writes, so the
    // exhaustive search alone is exact without any assumption. (In these programs `keep` takes the
    // address of `secret`, so the value analysis of the product, which tracks only variables whose
    // address is never taken, leaves the lines to the search and its proofs.)
    let j = run_json(&["fixtures/c/coverage/extern_untouched.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(j["exact"], true, "{j}");
    assert_eq!(j["assumptions"].as_array().unwrap().len(), 0, "{j}");
    for l in ["11", "14"] {
        assert_eq!(j["line_status"][l], "not_coverable", "line {l}: {j}");
        assert_eq!(j["not_coverable_by"][l], "exhaustive search", "line {l}");
    }
    // `reg` may keep the pointer: after `reg(0)`, `d.id` is again what it may have written. The
    // search's paths read it, so they alone decide nothing; the proof that takes those writes as
    // arbitrary shows line 10 not coverable, and the rest is covered.
    let j = run_json(&["fixtures/c/coverage/extern_retained.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(j["exact"], true, "{j}");
    assert_eq!(j["line_status"]["10"], "not_coverable", "{j}");
    assert_eq!(j["not_coverable_by"]["10"], "search with what functions without body write abstracted away");
    assert_eq!(j["abstraction"]["extern_writes"], true, "{j}");
    for l in ["13", "14"] {
        assert_eq!(j["line_status"][l], "covered", "line {l}: {j}");
    }
    // `data` is reached through the pointer stored in `d`: the branch on it is what `reg` wrote.
    // Line 10 is reachable in that model (unknown: no execution of the program shows it, no proof
    // excludes it); line 12 also needs `secret`, which `reg` cannot reach.
    let j = run_json(&["fixtures/c/coverage/extern_reached.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(j["exact"], false, "{j}");
    assert!(j["inexact_reason"].as_str().unwrap().contains("may write through them"), "{j}");
    assert_eq!(j["line_status"]["10"], "unknown", "{j}");
    assert_eq!(j["line_status"]["12"], "not_coverable", "{j}");
    assert_eq!(j["not_coverable_by"]["12"], "search with what functions without body write abstracted away");
}

#[test]
fn a_violation_that_needs_an_accepted_assumption_is_a_finding_not_a_bug() {
    // `probe` returns null or fresh memory; the violation needs `d->state == 7` in that fresh memory.
    let program = "fixtures/c/coverage/fresh_pointer_violation.c";
    let plain = run_json(&[program, "--aa", "assumption-automata/true.spc"]);
    assert_eq!((plain["exact"].as_bool(), plain["bug_found"].as_bool()), (Some(false), Some(false)), "{plain}");
    assert_eq!(plain["line_status"]["7"], "unknown");
    assert_eq!(plain["violations_under_assumptions"]["paths"], 0);
    let assumed = run_json(&[program, "--aa", "assumption-automata/true.spc", "--assume", "fresh-pointers"]);
    assert_eq!(assumed["exact"], true, "{assumed}");
    assert_eq!(assumed["bug_found"], false, "a violation of the model only is not a bug");
    let v = &assumed["violations_under_assumptions"];
    assert_eq!(v["paths"], 1, "{v}");
    assert_eq!(v["places"][0]["line"], 7);
    assert_eq!(assumed["line_status"]["7"], "not_coverable");
    assert_eq!(assumed["not_coverable_by"]["7"], "exhaustive search, assuming fresh-pointers");
}

#[test]
fn executions_through_members_of_unknown_pointers_replay() {
    // `intf` is never written; `intf->dev.parent` is undefined where it is null, and both
    // branches on the parent are covered by executions whose `intf` is fresh memory (a path that
    // took them with a null `intf` would not replay and would cover nothing).
    let j = run_json(&["fixtures/c/coverage/unknown_pointer_member.c", "--aa", "assumption-automata/true.spc"]);
    for line in ["4", "6", "7", "13", "14"] {
        assert_eq!(j["line_status"][line], "covered", "line {line}: {j}");
    }
    assert_eq!(j["exact"], true, "{j}");
}

/// The number after `paths explored:` in the `--stats` output.
fn paths_explored(stderr: &str) -> u64 {
    let line = stderr.lines().find(|l| l.trim_start().starts_with("paths explored:")).expect("statistics printed");
    line.split(':').nth(1).unwrap().trim().parse().unwrap()
}

#[test]
fn paths_meeting_in_one_state_each_cover_their_own_lines() {
    // Both `a = 1;` lines lead to the same state at the loop head; the second path must not be
    // pruned as covered by the first: only its own completion covers its line.
    let j = run_json(&["fixtures/c/coverage/shared_state.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(nums(&j["under_approximation"]["lines"]), [3, 4, 5, 7, 9, 10, 12, 17]);
    assert_eq!(j["exact"], true);
    // The endless loop cannot be part of a terminating execution.
    assert_eq!(j["line_status"]["13"], "not_coverable");
    assert_eq!(j["line_status"]["14"], "not_coverable");
    // Blind search enumerates executions; state caching keeps it from enumerating them all here, so
    // it must not claim that what it missed is not coverable. Only the endless loop, from which no
    // path leads to the end of main, is not coverable whatever the search did.
    let j = run_json(&[
        "fixtures/c/coverage/shared_state.c",
        "--aa",
        "assumption-automata/true.spc",
        "--generate",
        "blind",
    ]);
    assert_eq!(j["exact"], false, "{j}");
    assert!(j["inexact_reason"].as_str().unwrap().contains("pruned as covered"), "{j}");
    for (line, status) in j["line_status"].as_object().unwrap() {
        if line == "13" || line == "14" {
            assert_eq!(status, "not_coverable", "line {line}");
            assert_eq!(j["not_coverable_by"][line], "no path to the end of main", "line {line}");
        } else {
            assert_ne!(status, "not_coverable", "line {line}");
        }
    }
}

#[test]
fn a_region_no_execution_leaves_is_explored_once() {
    // 32 paths reach the endless loop, each still carrying uncovered lines; once the loop's states
    // are known to have no terminating continuation, the later paths are pruned on arrival instead
    // of exploring its 8 states again.
    let run = vcov([
        "coverage",
        "fixtures/c/coverage/stuck_zone.c",
        "--aa",
        "assumption-automata/true.spc",
        "--format",
        "json",
        "--no-progress",
        "--stats",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(j["exact"], true);
    let under = nums(&j["under_approximation"]["lines"]);
    assert_eq!(under, [3, 4, 5, 6, 7, 8, 10, 12, 13, 15, 17, 18, 20, 22, 23, 25, 27, 28, 30, 32, 45]);
    for l in 33..=42 {
        assert_ne!(j["line_status"][l.to_string()], "covered", "line {l}");
    }
    let paths = paths_explored(&run.stderr);
    assert!(paths < 1000, "{paths} paths explored");
}

#[test]
fn lines_behind_an_endless_counting_loop_are_proven_not_coverable_by_abstraction() {
    // `ticks` grows forever, so the states of the loop never repeat; with the counter abstracted
    // away they do, and no terminating path of the abstraction enters the loop.
    let j = run_json(&[
        "fixtures/c/coverage/counter_loop.c",
        "--aa",
        "assumption-automata/true.spc",
        "--proof-after",
        "0",
        "--timelimit",
        "60",
    ]);
    assert_eq!(nums(&j["under_approximation"]["lines"]), [2, 4, 5, 6]);
    assert_eq!(j["exact"], true, "{j}");
    for l in ["8", "9", "10", "11", "14"] {
        assert_eq!(j["line_status"][l], "not_coverable", "line {l}");
    }
}

#[test]
fn lines_without_a_way_to_the_end_of_main_are_decided_before_the_search() {
    // The error location, a function that never returns and an endless loop: no terminating
    // execution covers their lines, which the CFA alone shows; the unbounded loop in main keeps the
    // search from ever ending by itself, yet every other line is covered, so the result is exact.
    // (Under the unreach-call property the `ERROR` label is no violation: see
    // `a_violation_behind_lines_decided_before_the_search_is_found` for the default property.)
    let j = run_json(&[
        "fixtures/c/coverage/no_way_out.c",
        "--aa",
        "assumption-automata/true.spc",
        "--spec",
        "unreach-call",
        "--proof-after",
        "100000000",
        "--timelimit",
        "60",
    ]);
    assert_eq!(j["exact"], true, "{j}");
    assert_eq!(j["stopped_by"], serde_json::Value::Null);
    assert_eq!(j["property"]["status"], "none_in_region", "{j}");
    assert_eq!(j["property"]["by"], "no_error_location", "{j}");
    for l in ["4", "5", "9", "16", "19"] {
        assert_eq!(j["line_status"][l], "not_coverable", "line {l}");
        assert_eq!(j["not_coverable_by"][l], "no path to the end of main", "line {l}");
    }
    for l in ["14", "15", "18", "21", "22", "23", "25"] {
        assert_eq!(j["line_status"][l], "covered", "line {l}");
    }
    // The CFA alone decides them, so they are decided without a search too: for executions read
    // from files, here the one execution of a run stopped after it.
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("evidence");
    let first = vcov([
        "coverage",
        "fixtures/c/coverage/no_way_out.c",
        "--aa",
        "assumption-automata/true.spc",
        "--spec",
        "unreach-call",
        "--max-executions",
        "1",
        "--evidence",
        evidence.to_str().unwrap(),
    ]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let j = run_json(&[
        "fixtures/c/coverage/no_way_out.c",
        "--aa",
        "assumption-automata/true.spc",
        "--spec",
        "unreach-call",
        "--executions-from",
        evidence.to_str().unwrap(),
    ]);
    assert_eq!(j["exact"], false, "{j}");
    assert_eq!(j["property"]["status"], "not_decided", "{j}");
    for l in ["4", "5", "9", "16", "19"] {
        assert_eq!(j["line_status"][l], "not_coverable", "line {l}");
        assert_eq!(j["not_coverable_by"][l], "no path to the end of main", "line {l}");
    }
    assert!(j["line_status"].as_object().unwrap().values().any(|s| s == "over_only"), "{j}");
    // The summary says why they are not coverable.
    let text = vcov([
        "coverage",
        "fixtures/c/coverage/no_way_out.c",
        "--aa",
        "assumption-automata/true.spc",
        "--spec",
        "unreach-call",
    ]);
    assert!(
        text.stdout.contains("5 line(s) not coverable: no path leads from them to the end of main"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_violation_behind_lines_decided_before_the_search_is_found() {
    // `fail()` (line 16, x == 1) leads to the `ERROR` label and never back to the end of main: its
    // lines are decided before the search. The default search still looks for the violation there,
    // inside the explored region, and reports it with a witness.
    let dir = tempfile::tempdir().unwrap();
    let witness = dir.path().join("w.graphml");
    let j = run_json(&[
        "fixtures/c/coverage/no_way_out.c",
        "--aa",
        "assumption-automata/true.spc",
        "--witness",
        witness.to_str().unwrap(),
        "--timelimit",
        "60",
    ]);
    assert_eq!(j["bug_found"], true, "{j}");
    assert_eq!(j["property"]["status"], "found_in_region", "{j}");
    assert_eq!(j["stopped_by"], serde_json::Value::Null, "{j}");
    let w = std::fs::read_to_string(&witness).unwrap();
    assert!(w.contains("violation_witness"), "{w}");
    // The summary says it, and never "exact" beside "not decided".
    let text = vcov(["coverage", "fixtures/c/coverage/no_way_out.c", "--aa", "assumption-automata/true.spc"]);
    assert!(text.stdout.contains("property: violated inside the explored region"), "{}", text.stdout);
}

#[test]
fn the_property_status_says_what_no_bug_means() {
    // The call is unreachable, which only an exhaustive search shows (no square is 3 mod 4).
    let j = run_json(&["fixtures/c/coverage/unreachable_error.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(j["bug_found"], false, "{j}");
    assert_eq!(
        (&j["property"]["status"], &j["property"]["by"]),
        (&"none_in_region".into(), &"exhaustive_search".into())
    );
    assert_eq!(j["exact"], true, "{j}");
    // With a limit on executions the search cannot show it.
    let j = run_json(&[
        "fixtures/c/coverage/unreachable_error.c",
        "--aa",
        "assumption-automata/true.spc",
        "--max-executions",
        "1",
    ]);
    assert_eq!(j["property"]["status"], "not_decided", "{j}");
    assert!(j["property"]["detail"].as_str().unwrap().contains("--max-executions"), "{j}");
    // Nothing explored: no violation can happen inside the region, whatever the program does...
    let j = run_json(&["fixtures/c/coverage/error_label.c", "--aa", "assumption-automata/false.spc"]);
    assert_eq!(
        (&j["property"]["status"], &j["property"]["by"]),
        (&"none_in_region".into(), &"no_error_location".into())
    );
    assert_eq!(j["bug_found"], false, "{j}");
    // ...while a search that does not follow the automaton finds the program's bug outside it.
    let j = run_json(&[
        "fixtures/c/coverage/error_label.c",
        "--aa",
        "assumption-automata/false.spc",
        "--generate",
        "blind",
    ]);
    assert_eq!(j["bug_found"], true, "{j}");
    assert_eq!(j["property"]["status"], "found_outside_region", "{j}");
    // The CSV has the status too.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let run = vcov([
        "coverage",
        "fixtures/c/coverage/error_label.c",
        "--aa",
        "assumption-automata/false.spc",
        "--generate",
        "blind",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let table = std::fs::read_to_string(&csv).unwrap();
    assert!(table.lines().next().unwrap().ends_with(",property,exact_assuming"), "{table}");
    assert!(table.lines().nth(1).unwrap().ends_with(",found_outside_region,"), "{table}");
}

#[test]
fn a_search_with_nothing_left_to_decide_ends_at_once() {
    // Every line lies on the endless loop or behind it, with no violation anywhere: everything is
    // decided before the search, which ends by itself well before its time limit.
    let j =
        run_json(&["fixtures/c/coverage/spin_forever.c", "--aa", "assumption-automata/true.spc", "--timelimit", "60"]);
    assert_eq!(j["stopped_by"], serde_json::Value::Null, "{j}");
    assert_eq!(j["exact"], true, "{j}");
    assert_eq!(j["property"]["status"], "none_in_region", "{j}");
    assert!(j["line_status"].as_object().unwrap().values().all(|s| s == "not_coverable"), "{j}");
}

#[test]
fn the_abstraction_never_claims_a_line_a_long_execution_covers() {
    // `n = 0;` needs a million iterations: the abstraction cannot rule it out, and the search stops
    // before it gets there, so the line stays undecided.
    let j = run_json(&[
        "fixtures/c/coverage/deep_counter.c",
        "--aa",
        "assumption-automata/true.spc",
        "--proof-after",
        "0",
        "--timelimit",
        "2",
    ]);
    assert_eq!(j["exact"], false);
    assert_eq!(j["line_status"]["7"], "covered");
    assert_eq!(j["line_status"]["8"], "over_only");
}

/// `vcov coverage ARGS` on `program` with everything explored, 64-bit, evidence into `out`.
fn coverage_args(program: &str, confirm: bool, out: &std::path::Path) -> Vec<String> {
    let mut a = vec![program.to_string(), "--aa".into(), "assumption-automata/true.spc".into(), "--64".into()];
    a.extend(["--evidence".into(), out.display().to_string()]);
    if confirm {
        a.push("--confirm".into());
    }
    a
}

#[test]
fn confirm_counts_only_executions_gcc_replays() {
    // The branch on `argc`: vcov's model reads its bytes as inputs and covers `g = 2;`, but the
    // compiled program gets the real argument count, so gcc does not replay that execution.
    let dir = tempfile::tempdir().unwrap();
    let evidence = dir.path().join("ev");
    let program = "fixtures/c/coverage/main_arguments.c";
    let plain = coverage_args(program, false, &dir.path().join("plain"));
    let plain = run_json(&plain.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(plain["confirmation"]["method"], "interpreter");
    assert_eq!(plain["confirmation"]["rejected"], 0, "the interpreter replays every execution it counts");
    assert_eq!(plain["line_status"]["7"], "covered");
    let claims = json(&dir.path().join("plain/vcov-claims.json"));
    assert!(
        claims["tests"].as_array().unwrap().iter().any(|t| t["uninitialized_memory"] == true),
        "the dependence on uninitialized bytes is marked: {claims}"
    );

    let j = run_json(&coverage_args(program, true, &evidence).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(j["confirmation"], serde_json::json!({"method": "gcc", "confirmed": 1, "rejected": 1, "pending": 0}));
    assert_eq!(j["line_status"]["7"], "unknown", "no longer claimed covered: {j}");
    assert_eq!(j["exact"], false);
    assert_eq!(j["line_status"]["8"], "covered");
    // What is written is what gcc confirmed.
    let run = vcov(["replay", program, evidence.to_str().unwrap(), "--64"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let n = j["under_approximation"]["executions"].as_u64().unwrap();
    assert_eq!(run.stdout.matches(": ok").count() as u64, n, "{}", run.stdout);
}

#[test]
fn executions_that_read_unwritten_malloc_memory_are_not_claimed() {
    // `*p` of a block `malloc` returned, never written: vcov replay cannot give the C library's block
    // the bytes vcov's execution read, so no execution that read them counts, even without --confirm.
    let dir = tempfile::tempdir().unwrap();
    let program = "fixtures/c/coverage/uninitialized_heap.c";
    let j =
        run_json(&coverage_args(program, false, &dir.path().join("ev")).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(j["line_status"]["11"], "unknown", "{j}");
    assert_eq!(j["exact"], false);
    let text = vcov(["coverage", program, "--aa", "assumption-automata/true.spc", "--64", "--no-progress"]);
    assert!(
        crate::util::unwrapped(&text.stdout)
            .contains("read bytes of malloc'd memory never written, which vcov replay cannot reproduce"),
        "{}",
        text.stdout
    );
}

#[test]
fn an_uninitialized_local_is_replayed_with_the_bytes_vcov_read() {
    // `int x;` never written, `if (x == 12345)`: the replay copy fills `x` after its declaration
    // with the bytes the execution read (vcov-claims.json's `memory`), so gcc confirms both branches.
    let dir = tempfile::tempdir().unwrap();
    let program = "fixtures/c/coverage/uninitialized_branch.c";
    let evidence = dir.path().join("ev");
    let j = run_json(&coverage_args(program, true, &evidence).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(j["confirmation"]["method"], "gcc");
    assert_eq!(j["confirmation"]["rejected"], 0, "{j}");
    assert_eq!(j["line_status"]["10"], "covered", "{j}");
    assert_eq!(j["exact"], true);
    let claims = json(&evidence.join("vcov-claims.json"));
    let memory =
        claims["tests"].as_array().unwrap().iter().flat_map(|t| t["memory"].as_array().cloned().unwrap_or_default());
    assert!(memory.clone().any(|f| f["variable"] == "x" && f["instance"] == 1), "{claims}");
    let run = vcov(["replay", program, evidence.to_str().unwrap(), "--64"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn an_uninitialized_local_is_replayed_with_the_bytes_vcov_read_under_ilp32() {
    crate::util::require_gcc32();
    let dir = tempfile::tempdir().unwrap();
    let mut a = coverage_args("fixtures/c/coverage/uninitialized_branch.c", true, &dir.path().join("ev32"));
    a[3] = "--32".into();
    let j = run_json(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(j["confirmation"]["method"], "gcc");
    assert_eq!(j["confirmation"]["rejected"], 0, "{j}");
    assert_eq!(j["line_status"]["10"], "covered", "{j}");
}

#[test]
fn lines_behind_a_branch_the_values_rule_out_are_not_coverable_without_a_complete_search() {
    // The automaton sends `[state == 1]` to `__TRUE`, as CPAchecker does with a branch its analysis
    // ruled out, so the handler counts in the over-approximation; `state` is 0 there, which the
    // value analysis of the product shows without the search. A search that explores every path
    // (the default here) decides them by itself, and the value analysis is not run; one stopped
    // after the first execution leaves them to it.
    let program = "fixtures/c/coverage/mode_guard.c";
    let aa = "fixtures/automata/mode_guard_aa.txt";
    let complete = run_json(&[program, "--aa", aa]);
    let j = run_json(&[program, "--aa", aa, "--max-executions", "1"]);
    for (j, by) in [(&complete, "exhaustive search"), (&j, "value analysis of automaton x CFA")] {
        assert_eq!(j["exact"], true, "{j}");
        for l in ["4", "5", "11"] {
            assert_eq!(j["line_status"][l], "not_coverable", "line {l}: {j}");
            assert_eq!(j["not_coverable_by"][l], by, "line {l}");
        }
        assert_eq!(nums(&j["over_approximation"]["lines"]), [2, 4, 5, 9, 10, 11, 13, 14]);
        assert_eq!(nums(&j["under_approximation"]["lines"]), [2, 9, 10, 13, 14]);
    }
    // The same in the text report a user reads.
    let run = vcov(["coverage", program, "--aa", aa, "--no-progress", "--max-executions", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("3 line(s) not coverable: the values of the program's variables rule out"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_line_only_an_edge_into_the_unexplored_region_counts_for_is_not_coverable() {
    // `state = 1;` leads into `__FALSE`: the over-approximation counts its line (the location it
    // leaves is explored), an execution's lines end before it.
    let program = "fixtures/c/coverage/mode_guard.c";
    let aa = "fixtures/automata/mode_guard_frontier_aa.txt";
    let j = run_json(&[program, "--aa", aa]);
    assert_eq!(j["exact"], true, "{j}");
    assert_eq!(nums(&j["over_approximation"]["lines"]), [2, 4, 5, 9, 10, 11, 13]);
    assert_eq!(nums(&j["under_approximation"]["lines"]), [2, 9, 10]);
    assert_eq!(j["line_status"]["13"], "not_coverable", "{j}");
    assert_eq!(j["not_coverable_by"]["13"], "only on edges into the unexplored region");
    // The handler behind `[state == 1]`: `state` is 0 there (the value analysis says so when the
    // search does not explore every path).
    assert_eq!(j["not_coverable_by"]["11"], "exhaustive search");
    let stopped = run_json(&[program, "--aa", aa, "--max-executions", "1"]);
    assert_eq!(stopped["not_coverable_by"]["11"], "value analysis of automaton x CFA", "{stopped}");
    assert_eq!(stopped["not_coverable_by"]["13"], "only on edges into the unexplored region");
    let run = vcov(["coverage", program, "--aa", aa, "--no-progress"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("1 line(s) not coverable: only edges into the unexplored region count for them"),
        "{}",
        run.stdout
    );
}

#[test]
fn undecided_lines_are_reported_with_the_edge_no_path_got_past() {
    // The walk ends only at `&head`, which an unknown pointer (null or fresh memory) never is: the
    // loop's exit is infeasible on every path, and the lines after it stay undecided behind it.
    let program = "fixtures/c/coverage/list_walk.c";
    let aa = "assumption-automata/true.spc";
    let j = run_json(&[program, "--aa", aa]);
    assert_eq!(j["exact"], false, "{j}");
    let u = &j["undecided"];
    let undecided = j["line_status"].as_object().unwrap().values().filter(|s| *s == "unknown").count();
    assert_eq!(u["lines"].as_u64().unwrap() as usize, undecided, "{u}");
    let blocked = u["blocked"].as_array().unwrap();
    assert_eq!(blocked.len(), 1, "{u}");
    let b = &blocked[0];
    assert_eq!(b["line"], 10);
    assert_eq!(b["function"], "main");
    assert_eq!(b["edge"], "[!(p != (&head))]");
    assert_eq!(b["automaton_state"], "__TRUE");
    assert_eq!(b["obstacle"], "infeasible");
    assert!(b["tried"].as_u64().unwrap() > 100, "{b}");
    assert_eq!(nums(&b["lines"]), [14, 15, 17]);
    // The loop's lines were reached, by paths that never returned from main.
    let reached = nums(&u["reached"]);
    assert!([8, 9, 10, 11, 12].iter().all(|l| reached.contains(l)), "{u}");
    assert!(nums(&u["elsewhere"]).is_empty(), "{u}");
    let run = vcov(["coverage", program, "--aa", aa, "--no-progress"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("line(s) undecided: 3 behind line 10 in main (`[!(p != (&head))]`: tried "),
        "{}",
        run.stdout
    );
    // Nothing to explain where every line is decided, or where the search did not follow the
    // automaton.
    let j = run_json(&["fixtures/e2e/branches/program.c", "--aa", "fixtures/e2e/branches/aa_then_explored.txt"]);
    assert_eq!(j["exact"], true);
    assert!(j.get("undecided").is_none(), "{j}");
    let j = run_json(&[program, "--aa", aa, "--generate", "blind", "--max-executions", "1"]);
    assert!(j.get("undecided").is_none(), "{j}");
}

fn a_list_that_ends_where_its_link_points_back_into_its_memory_is_walked_and_replays(flag: &str, arch: &str) {
    // CIL's `list_for_each_entry` of the LDV drivers: the walk ends only where a link read from the
    // environment's memory points back into that memory (under LP64 2^63 away, as CIL wrapped the
    // member offset). Null-or-fresh pointers never end it; the alias does, and the loop's body is
    // reached through an access at an offset the executor pins. Every line is covered, by executions
    // gcc replays, in both data models.
    let program = "fixtures/c/coverage/wrapped_container_of.c";
    // With --no-alias-links the walk never ends with a link: the line after it is not covered. Under
    // LP64 the search ends by itself (every access through a null or fresh link is undefined, 2^63
    // away); under ILP32 it would go on until a time limit, which a test cannot race on a loaded
    // machine.
    let plain = run_json(&[program, "--aa", "assumption-automata/true.spc", "--64", "--no-alias-links"]);
    assert_eq!(plain["interrupted"], false, "{plain}");
    assert_ne!(plain["line_status"]["32"], "covered", "{plain}");
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev");
    let args = [program, "--aa", "assumption-automata/true.spc", flag, "--confirm", "--evidence", ev.to_str().unwrap()];
    let j = run_json(&args);
    assert_eq!(j["confirmation"]["method"], "gcc", "{j}");
    assert_eq!(j["confirmation"]["rejected"], 0, "{j}");
    for line in ["26", "27", "30", "32"] {
        assert_eq!(j["line_status"][line], "covered", "line {line} with {flag}: {j}");
    }
    let claims = json(&ev.join("vcov-claims.json"));
    let memory =
        claims["tests"].as_array().unwrap().iter().flat_map(|t| t["memory"].as_array().cloned().unwrap_or_default());
    assert!(memory.into_iter().any(|m| m["pointer"] == true), "a link read from fresh memory: {claims}");
    let run = vcov(["replay", program, ev.to_str().unwrap(), flag]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let n = j["under_approximation"]["executions"].as_u64().unwrap();
    assert!(
        run.stdout
            .ends_with(&format!("replay: {n} tests, {n} confirmed, 0 not confirmed ({arch}, gcc -m{})\n", &arch[..2])),
        "{}",
        run.stdout
    );
}

#[test]
fn a_list_that_ends_where_its_link_points_back_into_its_memory_is_walked_and_replays_under_lp64() {
    a_list_that_ends_where_its_link_points_back_into_its_memory_is_walked_and_replays("--64", "64bit");
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn a_list_that_ends_where_its_link_points_back_into_its_memory_is_walked_and_replays_under_ilp32() {
    crate::util::require_gcc32();
    a_list_that_ends_where_its_link_points_back_into_its_memory_is_walked_and_replays("--32", "32bit");
}

#[test]
fn a_call_through_a_pointer_of_an_incompatible_function_type_is_undefined_and_ends_the_way_there() {
    // CPAchecker resolves a call through a function pointer to every function with parameters of the
    // same sizes: here the driver's `device_release(struct inode *, struct file *)` for a channel's
    // `start_xmit(struct channel *, struct sk_buff *)`, as in ppp_generic. Such a call is undefined
    // behaviour, so the release function's lines, reached only through it, are not coverable, with
    // that argument; the rest is decided as before.
    const PAST_CALL: &str = "value analysis of automaton x CFA, past a call through a pointer of an incompatible \
                             function type (undefined behaviour)";
    for flag in ["--32", "--64"] {
        let j = run_json(&[
            "fixtures/c/coverage/incompatible_pointer_call.c",
            "--aa",
            "assumption-automata/true.spc",
            flag,
        ]);
        for l in ["12", "13"] {
            assert_eq!(j["line_status"][l], "not_coverable", "line {l} with {flag}: {j}");
            assert_eq!(j["not_coverable_by"][l], PAST_CALL, "line {l} with {flag}");
        }
        for l in ["20", "21", "22", "23", "26"] {
            assert_eq!(j["line_status"][l], "covered", "line {l} with {flag}: {j}");
        }
    }
    // A program that makes such a call itself meets undefined behaviour there: reported with its
    // line, and the called function's lines are not coverable.
    let program = "fixtures/c/coverage/incompatible_cast_call.c";
    let j = run_json(&[program, "--aa", "assumption-automata/true.spc"]);
    let places = &j["undefined_behaviour"]["places"];
    assert_eq!(places[0]["line"], 13, "{j}");
    assert_eq!(places[0]["kind"], "call through a pointer of an incompatible function type", "{j}");
    assert_eq!(j["line_status"]["6"], "not_coverable", "{j}");
    assert_eq!(j["not_coverable_by"]["6"], PAST_CALL);
    let run = vcov(["coverage", program, "--aa", "assumption-automata/true.spc", "--no-progress"]);
    assert!(
        run.stdout.contains("(1 of them lie past a call through a pointer of an incompatible function type"),
        "{}",
        run.stdout
    );
    // `vcov verify` does not guess past it.
    let run = vcov(["verify", program]);
    assert!(
        run.stdout.contains("UNKNOWN")
            && run.stdout.contains("call through a pointer of an incompatible function type"),
        "{}{}",
        run.stdout,
        run.stderr
    );
}

#[test]
fn lines_only_past_an_access_through_a_pointer_that_can_only_be_null_are_not_coverable_with_that_argument() {
    // `debug` is set only by `init`, which nothing calls: every way through `poll` reads `*debug`,
    // null, so `poll`'s lines and its call are not coverable, past undefined behaviour (the call's
    // line is reached, but no execution that reaches it returns from `main`). `handlers` is only
    // ever indexed and never written: `return h;` is ruled out by the values alone.
    const PAST_NULL: &str =
        "value analysis of automaton x CFA, past an access through a null pointer (undefined behaviour)";
    let program = "fixtures/c/coverage/null_only_pointer.c";
    for flag in ["--32", "--64"] {
        let j = run_json(&[program, "--aa", "assumption-automata/true.spc", flag]);
        for l in ["14", "15", "16", "33"] {
            assert_eq!(j["line_status"][l], "not_coverable", "line {l} with {flag}: {j}");
            assert_eq!(j["not_coverable_by"][l], PAST_NULL, "line {l} with {flag}");
        }
        assert_eq!(j["not_coverable_by"]["24"], "value analysis of automaton x CFA", "{flag}");
        for l in ["22", "23", "26", "31", "32", "35"] {
            assert_eq!(j["line_status"][l], "covered", "line {l} with {flag}: {j}");
        }
        assert_eq!(j["exact"], true, "{flag}");
    }
    let run = vcov(["coverage", program, "--aa", "assumption-automata/true.spc", "--no-progress"]);
    let summary = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        summary.contains("(4 of them lie past an access through a null pointer, which is undefined behaviour)"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_call_through_a_function_pointer_of_the_environment_is_cut_not_reported_as_undefined() {
    // `chan->ops->start_xmit` is read from the environment's memory: null (calling it is undefined,
    // a finding) or a function the environment provides, which vcov does not model: that part of
    // the path is cut as unsupported. No execution goes past the call only for the interpreter to
    // refuse it, and the call is no undefined behaviour where the pointer was checked not null.
    let j = run_json(&["fixtures/c/coverage/environment_callback.c", "--aa", "assumption-automata/true.spc"]);
    let places = j["undefined_behaviour"]["places"].as_array().unwrap();
    assert_eq!(places.len(), 1, "{j}");
    assert_eq!(places[0]["line"], 14);
    assert_eq!(places[0]["kind"], "call through an invalid function pointer");
    assert_eq!(j["confirmation"]["rejected"], 0, "{j}");
    assert!(
        j["inexact_reason"].as_str().unwrap().contains("a call through a function pointer the environment provides"),
        "{j}"
    );
    for l in ["15", "16", "17"] {
        assert_ne!(j["line_status"][l], "covered", "line {l}: {j}");
        assert_ne!(j["line_status"][l], "not_coverable", "line {l}: {j}");
    }
    // What leaves them open is the cut, not the null case.
    let blocked = &j["undecided"]["blocked"][0];
    assert_eq!((blocked["line"].as_u64(), blocked["obstacle"].as_str()), (Some(14), Some("unsupported")), "{j}");
    // Checked not null first: no undefined behaviour at the call.
    let j = run_json(&["fixtures/c/coverage/incompatible_pointer_call.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(j["undefined_behaviour"]["places"], serde_json::json!([]), "{j}");
    assert_eq!(j["line_status"]["24"], "unknown", "{j}");
}

/// A check that cannot drift (issue #33): on every coverage fixture and automaton, no generation
/// mode finds a violation inside the explored region where the default search claims there is none.
#[test]
fn no_mode_finds_a_violation_where_the_default_claims_none() {
    let mut cases: Vec<(String, String)> = Vec::new();
    for e in std::fs::read_dir(root().join("fixtures/c/coverage")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "c") {
            cases.push((p.display().to_string(), "assumption-automata/true.spc".into()));
        }
    }
    for (program, automata) in [
        ("fixtures/e2e/calls/program.c", &["fixtures/e2e/calls/aa.txt", "assumption-automata/true.spc"][..]),
        (
            "fixtures/e2e/branches/program.c",
            &["fixtures/e2e/branches/aa_then_explored.txt", "fixtures/e2e/branches/aa_else_prefix.txt"][..],
        ),
    ] {
        for aa in automata {
            cases.push((program.into(), aa.to_string()));
        }
    }
    cases.sort();
    let mut found = 0;
    for (program, aa) in &cases {
        let status = |mode: &str| -> String {
            let j = run_json(&[program, "--aa", aa, "--generate", mode, "--timelimit", "3"]);
            j["property"]["status"].as_str().unwrap().to_string()
        };
        let default = status("targeted");
        for mode in ["blind", "guided"] {
            let other = status(mode);
            if other == "found_in_region" {
                found += 1;
                assert_ne!(default, "none_in_region", "{program} with {aa}: {mode} finds a violation in the region");
            }
        }
    }
    assert!(found > 0, "some fixture has a violation inside its region");
}

#[test]
fn a_pointer_read_pinned_to_several_objects_numbers_its_fresh_memory_as_the_concrete_run_does() {
    // Before, each object the read was pinned to made fresh memory of its own, so every later
    // allocation was numbered one higher than in the concrete run, which then read other bytes at
    // `*skb->data`: the execution covering `return 2;` was refused and the result was not exact.
    let j = run_json(&["fixtures/c/coverage/pinned_pointer_read.c", "--aa", "assumption-automata/true.spc"]);
    assert_eq!(j["confirmation"]["rejected"], 0, "{}", j["confirmation"]);
    assert_eq!(j["line_status"]["26"], "covered", "{}", j["line_status"]);
    assert_eq!(j["exact"], true, "{}", j["inexact_reason"]);
}
