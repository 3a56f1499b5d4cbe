//! Programs as people write them: `.c` files with `#include`, `#define` and `#if` that vcov runs
//! through `gcc -E` (lines of the user's file, `-I` and `-D` passed on), `.i` files made with
//! `gcc -E`, and the GNU C of glibc's headers (`assert` is a statement expression). Every verdict is
//! checked for ILP32 and LP64, and every execution `vcov coverage` writes is replayed by gcc.
//!
//! The 32-bit runs need gcc-multilib (32-bit headers and libraries): they are tests of their own,
//! ignored where `gcc -m32` could not link when the tests were built, unless `CI` was set.

use std::path::Path;
use std::process::Command;

use crate::util::{fixture, json, nums, require_gcc32, root, vcov};

const INC: &str = "fixtures/c/include/inc";

/// The verdict line of `vcov verify ARGS`, with ` (exit N)` when the exit code is not 0.
fn verdict(args: &[&str]) -> String {
    let mut all = vec!["verify"];
    all.extend_from_slice(args);
    let run = vcov(&all);
    let line = run.stdout.lines().find(|l| l.starts_with("Verification result:")).unwrap_or("").to_string();
    if run.code == 0 {
        line
    } else {
        format!("{line} (exit {}: {})", run.code, run.stderr.trim())
    }
}

fn the_seven_line_program_is_false(m: &str) {
    // `assert` comes from <assert.h>: with the header skipped it was an undeclared function and the
    // answer a wrong TRUE.
    let p = fixture("c/include/assert_seven.c");
    assert_eq!(verdict(&[p.to_str().unwrap(), m]), "Verification result: FALSE(unreach-call)", "{m}");
    // gcc, given the counterexample's input, fails the assertion too.
    let run = vcov(["verify", p.to_str().unwrap(), m, "--confirm"]);
    let by = format!("Counterexample confirmed by: internal interpreter and gcc {}\n", m.replace("--", "-m"));
    assert!(run.stdout.contains(&by), "{m}: {}{}", run.stdout, run.stderr);
}

#[test]
fn the_seven_line_program_is_false_under_lp64() {
    the_seven_line_program_is_false("--64");
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn the_seven_line_program_is_false_under_ilp32() {
    require_gcc32();
    the_seven_line_program_is_false("--32");
}

fn programs_with_system_headers_get_their_verdicts(m: &str) {
    let cases: &[(&str, &[&str], &str)] = &[
        ("assert_holds.c", &[], "TRUE"),
        ("headers_true.c", &[], "TRUE"),
        ("headers_false.c", &[], "FALSE(unreach-call)"),
        ("defines.c", &["-I", INC], "TRUE"),
        ("defines.c", &["-I", INC, "-D", "BUG"], "FALSE(unreach-call)"),
        ("defines.c", &["-I", INC, "-DBUG=1"], "FALSE(unreach-call)"),
    ];
    for (file, flags, expect) in cases {
        let p = fixture(&format!("c/include/{file}"));
        let mut args = vec![p.to_str().unwrap(), m];
        args.extend_from_slice(flags);
        assert_eq!(verdict(&args), format!("Verification result: {expect}"), "{file} {flags:?} {m}");
    }
}

#[test]
fn programs_with_system_headers_get_their_verdicts_under_lp64() {
    programs_with_system_headers_get_their_verdicts("--64");
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn programs_with_system_headers_get_their_verdicts_under_ilp32() {
    require_gcc32();
    programs_with_system_headers_get_their_verdicts("--32");
}

fn dot_i_files_made_with_gcc_e_get_the_same_verdicts(m: &str) {
    let dir = tempfile::tempdir().unwrap();
    for (file, expect) in [("assert_seven.c", "FALSE(unreach-call)"), ("assert_holds.c", "TRUE")] {
        let i = dir.path().join(file.replace(".c", &format!("{m}.i")).replace("--", ""));
        let out = Command::new("gcc")
            .args(["-E", &m.replace("--", "-m")])
            .arg(fixture(&format!("c/include/{file}")))
            .arg("-o")
            .arg(&i)
            .output()
            .expect("gcc runs");
        assert!(out.status.success(), "gcc -E {file}: {}", String::from_utf8_lossy(&out.stderr));
        let run = vcov(["verify", i.to_str().unwrap(), m]);
        assert!(run.stdout.contains(&format!("Verification result: {expect}\n")), "{file} {m}: {}", run.stdout);
        assert!(!run.stderr.contains("statement expression"), "{}", run.stderr);
    }
}

#[test]
fn dot_i_files_made_with_gcc_e_get_the_same_verdicts_under_lp64() {
    dot_i_files_made_with_gcc_e_get_the_same_verdicts("--64");
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn dot_i_files_made_with_gcc_e_get_the_same_verdicts_under_ilp32() {
    require_gcc32();
    dot_i_files_made_with_gcc_e_get_the_same_verdicts("--32");
}

#[test]
fn svcomp_tasks_of_preprocessed_programs_get_their_verdicts() {
    // sv-benchmarks' tasks of today: `reach_error` fails glibc's assert in a statement expression;
    // format 2.0 and 1.0 task definitions.
    for (task, expect) in [("svcomp_style-1.yml", "FALSE(unreach-call)"), ("svcomp_style-2.yml", "TRUE")] {
        let p = fixture(&format!("c/include/{task}"));
        let run = vcov(["verify", "--task", p.to_str().unwrap()]);
        assert!(run.stdout.contains(&format!("Verification result: {expect}\n")), "{task}: {}", run.stdout);
        assert!(run.stderr.is_empty(), "{task}: {}", run.stderr);
    }
}

#[test]
fn lines_are_the_user_files_lines() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let lcov = dir.path().join("cov");
    let run = vcov([
        "coverage",
        "fixtures/c/include/headers_true.c",
        "--aa",
        "assumption-automata/true.spc",
        "--json",
        report.to_str().unwrap(),
        "--lcov",
        lcov.to_str().unwrap(),
        "--64",
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j = json(&report);
    // The statements of the file itself (the global `struct buf` counts with its first line); not
    // one line of the headers' thousands.
    let expect = [9, 15, 16, 17, 18, 19, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35];
    assert_eq!(nums(&j["lines_to_cover"]), expect);
    assert_eq!(j["exact"], true);
    // malloc never fails in vcov's model: line 25 is the one line not covered.
    let under = nums(&j["under_approximation"]["lines"]);
    assert_eq!(expect.iter().filter(|l| !under.contains(l)).collect::<Vec<_>>(), [&25]);
    assert_eq!(j["function_coverage"]["total"], 2, "clamp and main; not the headers' inline functions");
    let info = std::fs::read_to_string(dir.path().join("cov.under.info")).unwrap();
    assert!(info.contains("SF:fixtures/c/include/headers_true.c\n"), "{info}");
    assert!(info.contains("FN:14,clamp\n") && info.contains("FN:22,main\n"), "{info}");
    let da: Vec<u64> = info.lines().filter_map(|l| l.strip_prefix("DA:")?.split(',').next()?.parse().ok()).collect();
    assert_eq!(da, expect);
}

fn evidence_of_preprocessed_programs_replays_under_gcc(m: &str) {
    let cases: &[(&str, &[&str])] = &[
        ("c/include/headers_true.c", &[]),
        ("c/include/headers_false.c", &["--continue-after-bug"]),
        ("c/include/assert_seven.c", &["--continue-after-bug"]),
        // `--spec unreach-call`: under the default property the replay of a violation in a program
        // that defines `reach_error` with an empty body is not confirmed (a limit of the replay copy
        // with labels as violations, not of preprocessing).
        ("c/include/defines.c", &["-I", INC, "-D", "BUG", "--spec", "unreach-call", "--continue-after-bug"]),
        ("c/include/svcomp_style-1.i", &["--continue-after-bug"]),
        ("c/semantics/headers_bswap.c", &[]),
        ("c/semantics/stmt_expr_in_loop.c", &[]),
    ];
    for (file, flags) in cases {
        let dir = tempfile::tempdir().unwrap();
        let ev = dir.path().join("ev");
        let p = fixture(file);
        let mut args = vec!["coverage", p.to_str().unwrap(), "--aa", "assumption-automata/true.spc"];
        args.extend(["--evidence", ev.to_str().unwrap(), "--no-progress", m]);
        args.extend_from_slice(flags);
        let run = vcov(&args);
        assert_eq!(run.code, 0, "{file} {m}: {}", run.stderr);
        let n_tests = std::fs::read_dir(&ev).unwrap().filter(|e| is_test(&e.as_ref().unwrap().path())).count();
        assert!(n_tests > 0, "{file} {m}: no test written");
        let mut replay = vec!["replay", p.to_str().unwrap(), ev.to_str().unwrap()];
        let preprocessor = flags.windows(2).filter(|w| w[0] == "-I" || w[0] == "-D").flatten();
        replay.extend(preprocessor.copied());
        let run = vcov(&replay);
        let summary = format!("replay: {n_tests} tests, {n_tests} confirmed, 0 not confirmed");
        assert!(run.code == 0 && run.stdout.contains(&summary), "{file} {m}:\n{}\n{}", run.stdout, run.stderr);
    }
}

#[test]
fn evidence_of_preprocessed_programs_replays_under_gcc_under_lp64() {
    evidence_of_preprocessed_programs_replays_under_gcc("--64");
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn evidence_of_preprocessed_programs_replays_under_gcc_under_ilp32() {
    require_gcc32();
    evidence_of_preprocessed_programs_replays_under_gcc("--32");
}

fn is_test(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "xml") && p.file_name().is_some_and(|n| n != "metadata.xml")
}

#[test]
fn preprocessor_problems_are_bad_input() {
    // The header is in a directory only -I names.
    let run = vcov(["verify", "fixtures/c/include/defines.c"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("fixtures/c/include/defines.c:2:10: fatal error: limits_local.h"), "{}", run.stderr);
    // Without gcc a program that needs the preprocessor cannot be read; a plain one still can.
    let out = Command::new(env!("CARGO_BIN_EXE_vcov"))
        .args(["cfa", "fixtures/c/include/assert_seven.c"])
        .current_dir(root())
        .env_clear()
        .env("PATH", "/nonexistent")
        .output()
        .expect("vcov runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("fixtures/c/include/assert_seven.c: vcov preprocesses this file with `gcc -E -m32")
            && stderr.contains("(#include at fixtures/c/include/assert_seven.c:1:1)")
            && stderr.contains("gcc was not found"),
        "{stderr}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_vcov"))
        .args(["cfa", "fixtures/c/verify/bug_call.c"])
        .current_dir(root())
        .env_clear()
        .env("PATH", "/nonexistent")
        .output()
        .expect("vcov runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn an_undeclared_function_does_not_hide_a_failed_assertion() {
    // Without <assert.h>, `assert` is a function nothing declares: UNKNOWN with the reason, never
    // the TRUE of a function that returns.
    let p = fixture("c/verify/undeclared_assert.c");
    let line = verdict(&[p.to_str().unwrap()]);
    assert_eq!(
        line,
        "Verification result: UNKNOWN (1 path(s) cut; first: unsupported: a call of 'assert', which the program \
         never declares (is an #include missing?))"
    );
}
