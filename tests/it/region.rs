//! `vcov verify --aa-out` and `--condition` end to end (issue #31): the explored region as an
//! assumption automaton that `vcov coverage` measures and `vcov verify --condition` continues.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::util::{corpus, fixture, json, vcov, Run, TtyRun};

fn verify_fixture(name: &str) -> String {
    fixture(&format!("c/verify/{name}")).display().to_string()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn verdict(run: &Run) -> &str {
    run.stdout.lines().find(|l| l.starts_with("Verification result:")).unwrap_or("")
}

fn basis(run: &Run) -> &str {
    run.stdout.lines().find(|l| l.starts_with("Basis:")).unwrap_or("")
}

/// The lines the run visited, from the automaton's header comment.
fn visited(aa: &Path) -> BTreeSet<u32> {
    let text = std::fs::read_to_string(aa).expect("automaton written");
    let line = text.lines().find(|l| l.starts_with("// visited lines:")).expect("visited lines comment");
    let mut res = BTreeSet::new();
    for part in line["// visited lines:".len()..].trim().split(',').filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        res.extend(a.parse::<u32>().unwrap()..=b.parse::<u32>().unwrap());
    }
    res
}

/// `vcov coverage` on `program` with `aa`: (over-approximation, decided lines, exact).
fn coverage(program: &str, aa: &Path, extra: &[&str], dir: &Path) -> (BTreeSet<u32>, usize, bool, String) {
    let report = dir.join(format!("{}.json", aa.file_name().unwrap().to_string_lossy()));
    let mut args = vec!["coverage".to_string(), program.to_string(), "--aa".into(), s(aa), "--json".into(), s(&report)];
    args.extend(extra.iter().map(|a| a.to_string()));
    let run = vcov(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // vcov's own automaton fits its program: every transition of a reached state fires (one that
    // an `ASSUME {false}` blocks included).
    let own = std::fs::read_to_string(aa).unwrap().starts_with("// Written by vcov");
    assert!(!own || !run.stderr.contains("never fire"), "{}", run.stderr);
    let v = json(&report);
    let status = v["line_status"].as_object().expect("line_status");
    let over: BTreeSet<u32> =
        status.iter().filter(|(_, st)| *st != "unexplored").map(|(l, _)| l.parse().unwrap()).collect();
    let decided = status.values().filter(|st| *st == "covered" || *st == "not_coverable").count();
    (over, decided, v["exact"].as_bool().unwrap(), run.stdout)
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn the_region_of_a_finished_run_is_measured_exactly_and_claims_the_whole_program() {
    let dir = tmp();
    let aa = dir.path().join("aa.txt");
    let program = verify_fixture("safe_loop.c");
    let run = vcov(["verify", &program, "--dfs", "--aa-out", &s(&aa)]);
    assert_eq!(verdict(&run), "Verification result: TRUE", "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(&format!("Explored region written to {}", aa.display())), "{}", run.stdout);
    let (over, decided, exact, text) = coverage(&program, &aa, &[], dir.path());
    let seen = visited(&aa);
    assert_eq!(seen, BTreeSet::from([6, 7, 8, 9, 11, 12, 14, 17]));
    assert!(seen.is_subset(&over), "visited {seen:?} not in the over-approximation {over:?}");
    assert!(exact, "{text}");
    assert_eq!(decided, over.len(), "{text}");
    // Verifying again with the region as the condition: nothing is left open.
    let chained = dir.path().join("chained.txt");
    let again = vcov(["verify", &program, "--condition", &s(&aa), "--aa-out", &s(&chained)]);
    assert_eq!(verdict(&again), "Verification result: TRUE", "{}{}", again.stdout, again.stderr);
    assert!(basis(&again).starts_with("Basis: TRUE assuming the first verifier's claim"), "{}", again.stdout);
    // The second region goes on in copies of the first one's states where it pruned on the claim,
    // and measures the same.
    let text = std::fs::read_to_string(&chained).unwrap();
    assert!(text.contains("STATE USEFIRST CARG"), "{text}");
    let (over2, decided2, exact2, _) = coverage(&program, &chained, &[], dir.path());
    assert_eq!((over2, decided2, exact2), (over, decided, exact));
}

#[test]
fn a_condition_continues_where_the_run_was_cut() {
    let dir = tmp();
    let aa = dir.path().join("cut.txt");
    let program = verify_fixture("safe_loop.c");
    // Cut at the second iteration: UNKNOWN, and the cuts are excluded from the region.
    let run = vcov(["verify", &program, "--dfs", "--unwind", "2", "--aa-out", &s(&aa)]);
    assert!(verdict(&run).starts_with("Verification result: UNKNOWN"), "{}", run.stdout);
    let text = std::fs::read_to_string(&aa).unwrap();
    assert!(text.contains("-> ASSUME {false} GOTO __FALSE;"), "{text}");
    let (over, _, _, _) = coverage(&program, &aa, &[], dir.path());
    assert!(visited(&aa).is_subset(&over));
    // Without the bound, the condition leaves only the cut paths to verify: TRUE, on the claim of
    // the first run for the rest.
    let next = dir.path().join("next.txt");
    let cont = vcov(["verify", &program, "--dfs", "--condition", &s(&aa), "--aa-out", &s(&next)]);
    assert_eq!(verdict(&cont), "Verification result: TRUE", "{}{}", cont.stdout, cont.stderr);
    assert!(basis(&cont).starts_with("Basis: TRUE assuming the first verifier's claim"), "{}", cont.stdout);
    // The continued run's region decides at least what the first one did.
    let (_, first, _, _) = coverage(&program, &aa, &[], dir.path());
    let (_, second, exact, out) = coverage(&program, &next, &[], dir.path());
    assert!(second >= first, "{first} then {second}: {out}");
    assert!(exact, "{out}");
}

#[test]
fn a_condition_does_not_hide_a_violation_left_open() {
    let dir = tmp();
    let aa = dir.path().join("bug.txt");
    let program = verify_fixture("scheduler_label_bug.c");
    // The search stops at the first violation: the violation and what waited are left open.
    let run = vcov(["verify", &program, "--spec", "errorlabel", "--dfs", "--aa-out", &s(&aa)]);
    assert_eq!(verdict(&run), "Verification result: FALSE(unreach-call)", "{}", run.stdout);
    let text = std::fs::read_to_string(&aa).unwrap();
    assert!(text.contains("-> GOTO __FALSE;"), "{text}");
    let cont = vcov(["verify", &program, "--spec", "errorlabel", "--condition", &s(&aa)]);
    assert_eq!(verdict(&cont), "Verification result: FALSE(unreach-call)", "{}", cont.stdout);
    assert!(basis(&cont).contains("counterexample vcov replayed"), "{}", cont.stdout);
}

#[test]
fn an_interrupted_run_writes_its_region_and_2x_texts_when_asked() {
    let dir = tmp();
    let aa = dir.path().join("endless.txt");
    let program = verify_fixture("endless_counter.c");
    let run = vcov(["verify", &program, "--dfs", "--timelimit", "1", "--aa-out", &s(&aa), "--aa-dialect", "2"]);
    assert!(verdict(&run).starts_with("Verification result: UNKNOWN"), "{}{}", run.stdout, run.stderr);
    let text = std::fs::read_to_string(&aa).unwrap();
    assert!(text.contains("CPAchecker 2.x texts") && text.contains("MATCH \"[__VERIFIER_nondet_int()]\""), "{text}");
    let (over, _, _, out) = coverage(&program, &aa, &["--timelimit", "10"], dir.path());
    assert!(out.contains("automaton texts: CPAchecker 2.x+"), "{out}");
    assert!(visited(&aa).is_subset(&over), "{out}");
}

#[test]
fn sigint_writes_the_region_and_exits_130() {
    let dir = tmp();
    let aa = dir.path().join("sigint.txt");
    let program = verify_fixture("endless_counter.c");
    let mut run = TtyRun::start(&["verify", &program, "--dfs", "--aa-out", &s(&aa)]);
    // The progress line counts the search's paths: it runs, and runs forever without the signal.
    run.wait_for(&[" paths ("], Duration::from_secs(60));
    run.signal(libc::SIGINT);
    let (code, stdout, screen) = run.finish(Duration::from_secs(60));
    assert_eq!(code, Some(130), "{stdout}{screen}");
    assert!(stdout.contains("UNKNOWN (stopped by SIGINT)"), "{stdout}");
    let text = std::fs::read_to_string(&aa).expect("written on SIGINT");
    assert!(text.ends_with("END AUTOMATON\n"));
    let (over, _, _, _) = coverage(&program, &aa, &["--timelimit", "10"], dir.path());
    assert!(visited(&aa).is_subset(&over));
}

#[test]
fn snapshots_are_compared_over_time() {
    let dir = tmp();
    let snaps = dir.path().join("snaps");
    let program = verify_fixture("endless_counter.c");
    let run =
        vcov(["verify", &program, "--dfs", "--timelimit", "2", "--aa-out", &s(&snaps), "--snapshot-every", "0.3"]);
    assert!(verdict(&run).starts_with("Verification result: UNKNOWN"), "{}{}", run.stdout, run.stderr);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&snaps).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert!(names.len() >= 2 && names.last().unwrap() == "aa-final.txt", "{names:?}");
    assert!(names[0].starts_with("aa-0001-"), "{names:?}");
    // Each snapshot's region contains the previous one's visited lines.
    for w in files.windows(2) {
        assert!(visited(&w[0]).is_subset(&visited(&w[1])), "{w:?}");
    }
    let mut args = vec!["compare".to_string(), program.clone(), "--order".into(), "time".into()];
    for f in &files {
        args.extend(["--aa".to_string(), s(f)]);
    }
    let html = dir.path().join("html");
    args.extend(["--timelimit".to_string(), "5".into(), "--html".into(), s(&html)]);
    let cmp = vcov(&args);
    assert_eq!(cmp.code, 0, "{}{}", cmp.stdout, cmp.stderr);
    // The chart of coverage over time, alone for a README, against the times the snapshots say.
    let chart = std::fs::read_to_string(html.join("coverage-over-time.svg")).expect("the chart is written");
    assert!(chart.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{chart}");
    assert!(chart.contains("seconds after the start of the run"), "{chart}");
    for series in ["over-approximation", "decided", "covered"] {
        assert!(chart.contains(series), "{series}: {chart}");
    }
    let index = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(index.contains("Coverage over time"));
}

#[test]
fn a_condition_that_does_not_fit_is_an_error() {
    let dir = tmp();
    let aa = dir.path().join("other.txt");
    let run = vcov(["verify", &verify_fixture("safe_loop.c"), "--dfs", "--aa-out", &s(&aa)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let other = vcov(["verify", &verify_fixture("bug_call.c"), "--condition", &s(&aa)]);
    assert_eq!(other.code, 2, "{}{}", other.stdout, other.stderr);
    assert!(other.stderr.contains("the condition does not fit the program"), "{}", other.stderr);
}

#[test]
fn recording_the_region_does_not_change_the_search() {
    let dir = tmp();
    let aa = dir.path().join("sched.txt");
    let program = verify_fixture("scheduler_label.c");
    let paths = |run: &Run| {
        run.stdout
            .lines()
            .filter(|l| l.contains("paths explored") || l.contains("state cache hits"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let plain = vcov(["verify", &program, "--spec", "errorlabel", "--dfs", "--stats"]);
    let recorded = vcov(["verify", &program, "--spec", "errorlabel", "--dfs", "--stats", "--aa-out", &s(&aa)]);
    assert_eq!(verdict(&recorded), "Verification result: TRUE", "{}", recorded.stdout);
    assert_eq!(paths(&plain), paths(&recorded));
    assert_eq!(
        paths(&plain),
        ["  paths explored:              3", "  state cache hits:            3 (0 by implication)"]
    );
}

/// Issue #31's chain on a shared CPAchecker run: CPAchecker's automaton, `vcov coverage`, `vcov
/// verify --condition` stopped by its time limit, its `--aa-out`, `vcov coverage` again, and once
/// more: the decided lines only grow.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn a_chain_from_a_cpachecker_run_only_decides_more() {
    let corpus = corpus().join("cpachecker/kbtab-value-10s");
    let dir = tmp();
    let program = s(&corpus.join("program.c"));
    let spec = ["--spec", "errorlabel", "--timelimit", "60"];
    let mut aa = corpus.join("AssumptionAutomaton.txt");
    let (_, mut decided, _, out) = coverage(&program, &aa, &spec, dir.path());
    for step in 1..=2 {
        let next = dir.path().join(format!("step{step}.txt"));
        let run = vcov([
            "verify",
            &program,
            "--spec",
            "errorlabel",
            "--condition",
            &s(&aa),
            "--timelimit",
            "3",
            "--aa-out",
            &s(&next),
        ]);
        // kbtab satisfies the ErrorLabel property.
        let v = verdict(&run);
        assert!(v == "Verification result: TRUE" || v.starts_with("Verification result: UNKNOWN"), "{}", run.stdout);
        let (_, now, _, next_out) = coverage(&program, &next, &spec, dir.path());
        assert!(now >= decided, "step {step}: {decided} then {now} decided lines:\n{out}\n{next_out}");
        decided = now;
        aa = next;
    }
}
