//! `vcov replay`: Test-Comp suites of the fixture programs replayed with gcc --coverage and gcov.
//!
//! The 32-bit replays need `gcc -m32` (Debian's gcc-multilib): those tests are ignored where it could
//! not link when the tests were built, unless `CI` was set.

use std::path::{Path, PathBuf};

use vcov::automaton;
use vcov::base::SourceFile;
use vcov::cfa::LineRule;
use vcov::cfront::types::DataModel;
use vcov::coverage::result::{ExecutionRecord, InputValue};
use vcov::coverage::{path_of_counterexample, Analysis, Execution};

use crate::util::{corpus, fixture, json as json_file, require_gcc32, root, vcov};

fn replay(program: &Path, suite: &Path, extra: &[&str]) -> crate::util::Run {
    let mut args: Vec<std::ffi::OsString> = vec!["replay".into(), program.into(), suite.into()];
    args.extend(extra.iter().map(|a| a.into()));
    vcov(args)
}

/// A copy of fixture suite `rel` in a temporary directory.
fn copy_suite(rel: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("suite");
    std::fs::create_dir(&to).unwrap();
    for e in std::fs::read_dir(fixture(rel)).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
    (dir, to)
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn hand_written_suite_is_confirmed() {
    require_gcc32();
    let run = replay(&fixture("evidence/calls/program.c"), &fixture("evidence/calls/suite"), &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "test1.xml: ok, 18 lines confirmed, 1 without code\n\
         test2.xml: ok, 19 lines confirmed, 1 without code\n\
         replay: 2 tests, 2 confirmed, 0 not confirmed (32bit, gcc -m32)\n"
    );
    // The line lists only on request.
    let run = replay(&fixture("evidence/calls/program.c"), &fixture("evidence/calls/suite"), &["--verbose"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let first = run.stdout.lines().next().unwrap();
    assert!(
        first.starts_with("test1.xml: ok, 18 lines confirmed (") && first.ends_with(", 1 without code (27)"),
        "{first}"
    );
}

/// The check can fail: a line of a branch the run does not take makes replay exit with 1 and name it.
#[test]
fn a_wrong_claim_is_refuted() {
    let (_tmp, suite) = copy_suite("evidence/calls/suite");
    let claims = suite.join("vcov-claims.json");
    let text = std::fs::read_to_string(&claims).unwrap();
    // test2's pointer input is not null, so `a = a + 2;` (line 47) is not executed.
    let wrong = text.replace("46, 49, 52]", "46, 47, 49, 52]");
    assert_ne!(text, wrong);
    std::fs::write(&claims, wrong).unwrap();
    let run = replay(&fixture("evidence/calls/program.c"), &suite, &["--64"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("test1.xml: ok, 18 lines confirmed"), "{}", run.stdout);
    assert!(run.stdout.contains("test2.xml: MISMATCH, claimed but not executed: 47\n"), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("replay: 2 tests, 1 confirmed, 1 not confirmed (64bit, gcc -m64)\n"),
        "{}",
        run.stdout
    );
}

/// A suite vcov writes (counterexample path -> measured lines -> Test-Comp files) of `branches`: the
/// temporary folder, the program and the suite.
fn suite_written_by_vcov() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let program = fixture("e2e/branches/program.c");
    let (prog, cfa, _) = vcov::driver::load_cfa(&program, DataModel::Lp64, &Default::default()).unwrap();
    let names: Vec<String> = prog.funcs.iter().map(|f| f.name.clone()).collect();
    let aa_text = std::fs::read_to_string(fixture("e2e/multiline/aa_true.txt")).unwrap();
    let (aa, _) = automaton::parse(&SourceFile::new("aa_true.txt", aa_text)).unwrap();
    let analysis = Analysis::new(&aa, &cfa, names.clone(), LineRule::Spanned);
    let mut executions = Vec::new();
    for (id, x) in [(1, 0), (2, 11)] {
        let file = fixture(&format!("e2e/branches/executions/Counterexample.{id}.spc"));
        let (cex, _) = vcov::driver::load_automaton(&file).unwrap();
        let edges = path_of_counterexample(&cex, &cfa, names.clone()).unwrap();
        let cov =
            analysis.coverage_of(&Execution { origin: format!("Counterexample.{id}.spc"), edges, terminating: true });
        let (then, other) = (vec![3, 4, 5, 6, 7], vec![3, 4, 13, 14, 15]);
        assert_eq!(cov.lines, if x == 0 { other } else { then }, "{id}");
        executions.push(ExecutionRecord {
            id,
            origin: vcov::coverage::result::Origin::File(format!("Counterexample.{id}.spc")),
            lines: cov.lines,
            terminating: true,
            violates_property: false,
            inputs: vec![InputValue { function: "__VERIFIER_nondet_int".into(), c_type: "int".into(), value: x }],
            memory: vec![],
        });
    }
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let spec = "CHECK( init(main()), LTL(G ! call(reach_error())) )";
    let meta = vcov::driver::suite_metadata(&program, spec, DataModel::Lp64).unwrap();
    vcov::driver::write_test_suite(&suite, &meta, &executions).unwrap();
    let metadata = std::fs::read_to_string(suite.join("metadata.xml")).unwrap();
    assert!(metadata.contains("<producer>vcov "), "{metadata}");

    (dir, program, suite)
}

/// The suite vcov writes is confirmed by gcc; the default architecture comes from `metadata.xml`.
#[test]
fn suite_written_by_vcov_is_confirmed() {
    let (_dir, program, suite) = suite_written_by_vcov();
    let run = replay(&program, &suite, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "test1.xml: ok, 5 lines confirmed\ntest2.xml: ok, 5 lines confirmed\n\
         replay: 2 tests, 2 confirmed, 0 not confirmed (64bit, gcc -m64)\n"
    );
}

/// `--32` overrides the architecture of `metadata.xml`.
#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn suite_written_by_vcov_is_confirmed_under_ilp32() {
    require_gcc32();
    let (_dir, program, suite) = suite_written_by_vcov();
    let run = replay(&program, &suite, &["--32"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.ends_with("(32bit, gcc -m32)\n"), "{}", run.stdout);
}

/// `unsigned long` is 64 bits with `--64` and 32 bits with `--32`: the same input takes the other
/// branch, and the claim written for 64 bits is refuted.
#[test]
fn the_architecture_decides() {
    let program = fixture("evidence/widths/program.c");
    let suite = fixture("evidence/widths/suite");
    let run = replay(&program, &suite, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("test1.xml: ok, 14 lines confirmed\n"), "{}", run.stdout);
}

/// The same input under `--32`: the claim written for 64 bits is refuted.
#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn the_architecture_decides_under_ilp32() {
    require_gcc32();
    let run = replay(&fixture("evidence/widths/program.c"), &fixture("evidence/widths/suite"), &["--32"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("test1.xml: MISMATCH, claimed but not executed: 14\n"), "{}", run.stdout);
}

/// Runs that exit, abort, violate the property, fail an assumption, crash or do not end are told
/// apart, and checked against the claims' `terminating`/`violates_property`.
#[test]
fn how_a_run_ends_is_reported_and_checked() {
    let program = fixture("evidence/ends/program.c");
    let run = replay(&program, &fixture("evidence/ends/suite"), &["--timeout", "1"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    for expect in [
        "test1.xml: ok, 9 lines confirmed\n",
        "test1.xml: note: 1 inputs written for functions taken from the C library were skipped\n",
        "test2.xml: note: the program called exit(3)\n",
        "test3.xml: ok, 6 lines confirmed\n",
        "test4.xml: ok, 5 lines confirmed\ntest4.xml: note: the program called abort()\n",
        "test5.xml: note: an assumption (__VERIFIER_assume) failed\n",
        "test6.xml: note: the program was killed by signal 11\n",
        "test7.xml: note: the program did not end within the time limit\n",
        "replay: 7 tests, 7 confirmed, 0 not confirmed (64bit, gcc -m64)\n",
    ] {
        assert!(run.stdout.contains(expect), "missing {expect:?} in\n{}", run.stdout);
    }

    // Claim that the `exit(3)` run returns from main and that the returning one violates the property.
    let (_tmp, suite) = copy_suite("evidence/ends/suite");
    let claims = suite.join("vcov-claims.json");
    let text = std::fs::read_to_string(&claims).unwrap();
    let wrong = text
        .replace(r#"[8, 9, 10, 11], "terminating": false"#, r#"[8, 9, 10, 11], "terminating": true"#)
        .replace(r#"27], "terminating": true, "violates_property": false"#, r#"27], "violates_property": true"#);
    assert_ne!(text, wrong);
    std::fs::write(&claims, wrong).unwrap();
    std::fs::remove_file(suite.join("test7.xml")).unwrap();
    let text = std::fs::read_to_string(&claims).unwrap();
    std::fs::write(&claims, text.replace(",\n {\"file\": \"test7.xml\", \"id\": 7, \"lines\": [], \"terminating\": false, \"violates_property\": false}", "")).unwrap();
    let run = replay(&program, &suite, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("test1.xml: MISMATCH, claimed to violate the property, but main returned 0\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("test2.xml: MISMATCH, claimed to return from main, but the program called exit(3)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_suites_and_programs_exit_with_2() {
    let calls = fixture("evidence/calls/program.c");
    let run = replay(&calls, &fixture("evidence/missing"), &[]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("evidence/missing: not a directory of test cases"), "{}", run.stderr);

    // The suite belongs to another program.
    let run = replay(&fixture("evidence/ends/program.c"), &fixture("evidence/calls/suite"), &["--64"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("metadata.xml: programhash"), "{}", run.stderr);

    // A malformed test case is named with its line and column.
    let (_tmp, suite) = copy_suite("evidence/calls/suite");
    std::fs::write(suite.join("test2.xml"), "<testcase>\n  <input>five</input>\n</testcase>\n").unwrap();
    let run = replay(&calls, &suite, &["--64"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("test2.xml:2:3: `five` is not an integer literal"), "{}", run.stderr);

    // Claims about a test that is not there.
    std::fs::remove_file(suite.join("test2.xml")).unwrap();
    let run = replay(&calls, &suite, &["--64"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("claims about test2.xml, which is not in"), "{}", run.stderr);

    // gcc rejects the program: its message is shown.
    let program = fixture("evidence/conflicting_types/program.c");
    let dir = tempfile::tempdir().unwrap();
    let meta = vcov::driver::suite_metadata(&program, "", DataModel::Lp64).unwrap();
    vcov::driver::write_test_suite(dir.path(), &meta, &[]).unwrap();
    let run = replay(&program, dir.path(), &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("gcc cannot compile the program"), "{}", run.stderr);
    assert!(run.stderr.contains("conflicting types for"), "{}", run.stderr);
}

/// The harness compiles and links with real Linux drivers (CIL output declaring hundreds of kernel
/// functions, `memcpy`, `printk`, `__builtin_expect`, aliases and inline assembly calling helpers).
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn harness_links_with_corpus_drivers() {
    let drivers = corpus().join("fse12/drivers64");
    for name in ["kbtab.c", "usbmouse.BUG.c", "drbd.BUG.c", "mISDN_core.BUG.c"] {
        let program = drivers.join(name);
        let dir = tempfile::tempdir().unwrap();
        let meta = vcov::driver::suite_metadata(&program, "", DataModel::Lp64).unwrap();
        vcov::driver::write_test_suite(dir.path(), &meta, &[]).unwrap();
        std::fs::write(dir.path().join("test1.xml"), "<testcase/>").unwrap();
        let run = replay(&program, dir.path(), &["--timeout", "5"]);
        assert_eq!(run.code, 0, "{name}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("test1.xml: ran without claims, main returned"), "{name}: {}", run.stdout);
    }
}

/// The path from the CFA's entry that takes, at every branch, the edge whose text is the next of
/// `decisions` (calls are entered, returns go back to their call site).
fn walk(cfa: &vcov::cfa::Cfa, decisions: &[&str]) -> Vec<vcov::cfa::EdgeId> {
    use vcov::cfa::EdgeKind;
    let main_exit = cfa.func(cfa.main).unwrap().exit;
    let (mut node, mut stack, mut path, mut next) = (cfa.entry(), Vec::new(), Vec::new(), 0);
    while node != main_exit {
        let takeable: Vec<_> = cfa
            .out_edges(node)
            .iter()
            .copied()
            .filter(|&e| match cfa.edge(e).kind {
                EdgeKind::Summary(_) => false,
                EdgeKind::Return(cs) => stack.last() == Some(&cs),
                _ => true,
            })
            .collect();
        let e = if takeable.len() == 1 {
            takeable[0]
        } else {
            let e = *takeable.iter().find(|&&e| &*cfa.edge(e).text == decisions[next]).unwrap_or_else(|| {
                panic!(
                    "no edge {:?} among {:?}",
                    decisions[next],
                    takeable.iter().map(|&e| &cfa.edge(e).text).collect::<Vec<_>>()
                )
            });
            next += 1;
            e
        };
        match cfa.edge(e).kind {
            EdgeKind::Call(cs) => stack.push(cs),
            EdgeKind::Return(_) => {
                stack.pop();
            }
            _ => {}
        }
        path.push(e);
        node = cfa.edge(e).dst;
    }
    assert_eq!(next, decisions.len());
    path
}

/// vcov's own claim for an execution of `calls` (measured under an automaton that explored
/// everything) against gcc. The temporary that holds `__VERIFIER_nondet_pointer()` in
/// `if (__VERIFIER_nondet_pointer() == 0) { ... }` counts only for the condition's lines (CPAchecker
/// locates it at the whole `if`, whose other lines the path need not execute); gcc confirms the claim.
#[test]
fn replay_confirms_vcovs_claim_for_a_hoisted_condition() {
    let program = fixture("evidence/calls/program.c");
    let (prog, cfa, _) = vcov::driver::load_cfa(&program, DataModel::Lp64, &Default::default()).unwrap();
    let names: Vec<String> = prog.funcs.iter().map(|f| f.name.clone()).collect();
    let aa_text = std::fs::read_to_string(fixture("e2e/multiline/aa_true.txt")).unwrap();
    let (aa, _) = automaton::parse(&SourceFile::new("aa_true.txt", aa_text)).unwrap();
    let analysis = Analysis::new(&aa, &cfa, names, LineRule::Spanned);
    // The execution of test2.xml of the hand-written suite.
    let edges = walk(
        &cfa,
        &[
            "[!(v < lo)]",
            "[!(v > hi)]",
            "[!(v < lo)]",
            "[!(v > hi)]",
            "[u > 4000000000U]",
            "[!(c < 0)]",
            "[!(__CPAchecker_TMP_0 == 0)]",
            "[l < 0]",
            "[!(__CPAchecker_TMP_1 == 0)]",
            "[!(a == 101)]",
        ],
    );
    let cov = analysis.coverage_of(&Execution { origin: "walk".into(), edges, terminating: true });
    let input =
        |function: &str, c_type: &str, value| InputValue { function: function.into(), c_type: c_type.into(), value };
    let exec = ExecutionRecord {
        id: 2,
        origin: vcov::coverage::result::Origin::File("walk".into()),
        lines: cov.lines.clone(),
        terminating: true,
        violates_property: false,
        inputs: vec![
            input("__VERIFIER_nondet_int", "int", 5),
            input("__VERIFIER_nondet_uint", "unsigned int", 4294967295),
            input("__VERIFIER_nondet_char", "char", 3),
            input("sensor_read", "int", 2),
            input("__VERIFIER_nondet_bool", "_Bool", 1),
            input("__VERIFIER_nondet_long", "long", -1),
            input("__VERIFIER_nondet_pointer", "void *", 1),
        ],
        memory: vec![],
    };
    let dir = tempfile::tempdir().unwrap();
    let meta = vcov::driver::suite_metadata(&program, "", DataModel::Lp64).unwrap();
    vcov::driver::write_test_suite(dir.path(), &meta, &[exec]).unwrap();
    assert!(cov.lines.contains(&46) && !cov.lines.contains(&47), "{:?}", cov.lines);
    let run = replay(&program, dir.path(), &[]);
    assert_eq!(run.code, 0, "{:?}\n{}{}", cov.lines, run.stdout, run.stderr);
    assert!(run.stdout.starts_with("test2.xml: ok"), "{}", run.stdout);
}

/// A statement over several lines counts for every line it spans (the spanned line rule), while
/// gcov shows the line of the branch not taken unexecuted: replay confirms the statement as a whole,
/// and says so.
#[test]
fn a_multi_line_statement_is_confirmed_as_a_whole() {
    let program = fixture("c/coverage/multiline_ternary.c");
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let true_aa = root().join("assumption-automata/true.spc");
    let run = vcov([
        "coverage".as_ref(),
        program.as_os_str(),
        "--aa".as_ref(),
        true_aa.as_os_str(),
        "--64".as_ref(),
        "--no-progress".as_ref(),
        "--evidence".as_ref(),
        suite.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = replay(&program, &suite, &["--verbose"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("1 in multi-line statements run (8)"), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("replay: 1 tests, 1 confirmed, 0 not confirmed (64bit, gcc -m64)\n"),
        "{}",
        run.stdout
    );
}

/// The driver fixture (environment model calling callbacks through a table, kernel functions
/// without body returning pointers, container_of, an uninitialized local pointer, inline assembly):
/// everything explored, exact, and every test vcov writes for the data model `model` replays under
/// gcc.
fn the_driver_fixture_replays_completely(model: &str) {
    let program = fixture("c/driver/program.c");
    let true_aa = root().join("assumption-automata/true.spc");
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let json = dir.path().join("r.json");
    let run = vcov([
        "coverage".as_ref(),
        program.as_os_str(),
        "--aa".as_ref(),
        true_aa.as_os_str(),
        model.as_ref(),
        "--no-progress".as_ref(),
        "--evidence".as_ref(),
        suite.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = json_file(&json);
    assert_eq!(report["exact"], true, "{model}: {report}");
    let n = report["under_approximation"]["executions"].as_u64().unwrap();
    assert!(n >= 5, "{model}: {report}");
    let run = replay(&program, &suite, &[]);
    assert_eq!(run.code, 0, "{model}: {}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with(&format!(
            "replay: {n} tests, {n} confirmed, 0 not confirmed ({}bit, gcc -m{})\n",
            &model[2..],
            &model[2..]
        )),
        "{}",
        run.stdout
    );
}

#[test]
fn the_driver_fixture_replays_completely_under_lp64() {
    the_driver_fixture_replays_completely("--64");
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn the_driver_fixture_replays_completely_under_ilp32() {
    require_gcc32();
    the_driver_fixture_replays_completely("--32");
}

#[test]
fn builtin_object_size_is_what_gcc_folds_not_an_input() {
    // `__builtin_object_size(to, 0)` of a pointer parameter is (size_t)-1 under gcc -O0, so the
    // `return 0;` of line 13 never runs; of `&m.text[4]` (kind 1) it is 8 and of `m.text` (kind 0)
    // the 12 bytes left in `m`. An executor that took the value as an input would claim line 13 and
    // the replay would refute it.
    let program = fixture("c/coverage/object_size.c");
    let true_aa = root().join("assumption-automata/true.spc");
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let json = dir.path().join("r.json");
    let run = vcov([
        "coverage".as_ref(),
        program.as_os_str(),
        "--aa".as_ref(),
        true_aa.as_os_str(),
        "--64".as_ref(),
        "--no-progress".as_ref(),
        "--evidence".as_ref(),
        suite.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = json_file(&json);
    assert_eq!(report["exact"], true, "{report}");
    assert_eq!(report["line_status"]["13"], "not_coverable", "{report}");
    for l in ["24", "27"] {
        assert_eq!(report["line_status"][l], "covered", "line {l}: {report}");
    }
    let run = replay(&program, &suite, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(" 0 not confirmed"), "{}", run.stdout);
}

/// A subscript far past its array (usbcore's `usb_minors[minor]`): under ILP32 the offset carries
/// into the object id of vcov's address, which named another object whose non-null pointer the
/// executor and its interpreter read, while gcc's program reads what lies that far past the array.
/// The subscript is undefined behaviour, so no execution claims the line behind it, and every claim
/// replays under gcc (`replay_under_gcc`: 64-bit here, 32-bit in the test below).
fn a_subscript_past_its_object_claims_nothing_behind_it(replay_under_gcc: &str) {
    let program = fixture("evidence/far_index/program.c");
    let text = std::fs::read_to_string(&program).unwrap();
    let far = text.lines().position(|l| l.contains("FAR_LINE: never")).unwrap() as u64 + 1;
    let true_aa = root().join("assumption-automata/true.spc");
    for model in ["--32", "--64"] {
        let dir = tempfile::tempdir().unwrap();
        let suite = dir.path().join("suite");
        let run = vcov([
            "coverage".as_ref(),
            program.as_os_str(),
            "--aa".as_ref(),
            true_aa.as_os_str(),
            model.as_ref(),
            "--no-progress".as_ref(),
            "--evidence".as_ref(),
            suite.as_os_str(),
        ]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        let claims: serde_json::Value = json_file(&suite.join("vcov-claims.json"));
        let tests = claims["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 1, "{model}: {claims}");
        let lines: Vec<u64> = tests[0]["lines"].as_array().unwrap().iter().map(|l| l.as_u64().unwrap()).collect();
        assert!(!lines.contains(&far), "{model}: line {far} claimed by {}", tests[0]["file"]);
        assert_eq!(lines, [7, 10, 11, 12, 13, 15, 16, 17, 18, 19], "{model}");
        if model != replay_under_gcc {
            continue;
        }
        let run = replay(&program, &suite, &[]);
        assert_eq!(run.code, 0, "{model}: {}{}", run.stdout, run.stderr);
        let n = tests.len();
        assert!(
            run.stdout.ends_with(&format!(
                "replay: {n} tests, {n} confirmed, 0 not confirmed ({}bit, gcc -m{})\n",
                &model[2..],
                &model[2..]
            )),
            "{}",
            run.stdout
        );
    }
}

#[test]
fn a_subscript_past_its_object_claims_nothing_behind_it_under_lp64() {
    a_subscript_past_its_object_claims_nothing_behind_it("--64");
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn a_subscript_past_its_object_claims_nothing_behind_it_under_ilp32() {
    require_gcc32();
    a_subscript_past_its_object_claims_nothing_behind_it("--32");
}
