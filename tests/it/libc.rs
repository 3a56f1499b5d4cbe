//! vcov's C library (`src/libmodels/libc.c`) against glibc (issue #50): every model, on inputs that
//! reach each of its branches, computes what glibc computes (`fixtures/c/libc/cases.c`, built by
//! gcc to print glibc's values, then verified by vcov with those values as expectations), in both
//! data models; symbolic programs get the verdicts gcc confirms; coverage counts no line of the
//! library and its tests replay under gcc.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{fixture, vcov};

fn libc_fixture(name: &str) -> PathBuf {
    fixture(&format!("c/libc/{name}"))
}

/// `(line, value)` of every `CHECK` of `cases.c`, as glibc computes them (`gcc -m{bits} -O0
/// -fno-builtin`, so that gcc folds no call at compile time).
fn glibc_values(bits: u32, dir: &Path) -> Vec<(u32, i64)> {
    let exe = dir.join(format!("cases{bits}"));
    let out = Command::new("gcc")
        .args([&format!("-m{bits}"), "-O0", "-fno-builtin", "-w", "-DPRINT", "-o"])
        .arg(&exe)
        .arg(libc_fixture("cases.c"))
        .arg("-lm")
        .output()
        .expect("gcc runs");
    assert!(out.status.success(), "gcc -m{bits}: {}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(&exe).output().expect("the program runs");
    assert!(run.status.success());
    String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (line, value) = l.split_once(' ').expect("line value");
            (line.parse().unwrap(), value.parse().unwrap())
        })
        .collect()
}

/// The verdict of `vcov verify cases.c --{bits}` expecting `values`.
fn verdict(bits: u32, values: &[(u32, i64)]) -> String {
    let mut args = vec!["verify".to_string(), libc_fixture("cases.c").display().to_string(), format!("--{bits}")];
    for (line, value) in values {
        args.push("-D".into());
        args.push(format!("EXPECT_{line}=((long long){}ULL)", *value as u64));
    }
    let run = vcov(&args);
    run.stdout.lines().find(|l| l.starts_with("Verification result:")).unwrap_or(&run.stderr).to_string()
}

/// The models agree with glibc on every case, and a single wrong expectation is found.
fn agree_with_glibc(bits: u32) {
    let dir = tempfile::tempdir().unwrap();
    let values = glibc_values(bits, dir.path());
    assert!(values.len() > 60, "{} cases", values.len());
    assert_eq!(verdict(bits, &values), "Verification result: TRUE", "a model differs from glibc (--{bits})");
    // The check can fail: one expectation off by one, in the string, integer and character parts.
    for k in [1, values.len() / 2, values.len() - 2] {
        let mut wrong = values.clone();
        wrong[k].1 = wrong[k].1.wrapping_add(1);
        assert_eq!(
            verdict(bits, &wrong),
            "Verification result: FALSE(unreach-call)",
            "line {} expecting {} (--{bits})",
            wrong[k].0,
            wrong[k].1
        );
    }
}

#[test]
fn every_model_computes_what_glibc_computes_under_lp64() {
    agree_with_glibc(64);
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn every_model_computes_what_glibc_computes_under_ilp32() {
    crate::util::require_gcc32();
    agree_with_glibc(32);
}

/// Every function the table models in C is called by `cases.c`, so none goes untested.
#[test]
fn the_cases_call_every_model_of_the_table() {
    let cases = std::fs::read_to_string(libc_fixture("cases.c")).unwrap();
    // The classification macros of <ctype.h> reach the `__ctype_*_loc` functions.
    let via_macros = ["__ctype_b_loc", "__ctype_toupper_loc", "__ctype_tolower_loc"];
    for &(name, model) in vcov::libmodels::TABLE {
        if model != vcov::libmodels::LibFn::Code || via_macros.contains(&name) {
            continue;
        }
        assert!(cases.contains(&format!("{name}(")) || cases.contains(&format!("({name})")), "{name}");
    }
    for name in via_macros {
        assert!(vcov::libmodels::LIBC.contains(&format!("{name}(void)")), "{name}");
    }
}

/// Programs with nondeterministic strings, characters, block sizes and arrays to sort or search: the
/// verdicts, each FALSE one confirmed by the program built by gcc and linked with glibc
/// (`--confirm`).
#[test]
fn symbolic_programs_get_verdicts_gcc_confirms() {
    let cases = [
        ("strlen_nondet_false.c", "Verification result: FALSE(unreach-call)"),
        ("strlen_nondet_true.c", "Verification result: TRUE"),
        ("strcmp_nondet_false.c", "Verification result: FALSE(unreach-call)"),
        ("ctype_nondet_true.c", "Verification result: TRUE"),
        ("atoi_nondet_false.c", "Verification result: FALSE(unreach-call)"),
        (
            "strcpy_overflow.c",
            "Verification result: UNKNOWN (1 path(s) cut; first: possible undefined behaviour: invalid memory access)",
        ),
        ("realloc_nondet_false.c", "Verification result: FALSE(unreach-call)"),
        ("realloc_nondet_true.c", "Verification result: TRUE"),
        ("qsort_nondet_true.c", "Verification result: TRUE"),
        ("qsort_calls_false.c", "Verification result: FALSE(unreach-call)"),
        ("bsearch_nondet_false.c", "Verification result: FALSE(unreach-call)"),
        (
            "realloc_overflow.c",
            "Verification result: UNKNOWN (6 path(s) cut; first: possible undefined behaviour: invalid memory access)",
        ),
    ];
    for (file, expected) in cases {
        for bits in ["--32", "--64"] {
            let p = libc_fixture(file);
            let run = vcov(["verify", p.to_str().unwrap(), bits, "--confirm"]);
            let mut lines = run.stdout.lines();
            assert_eq!(lines.next(), Some(expected), "{file} {bits}: {}{}", run.stdout, run.stderr);
            if expected.contains("FALSE") {
                let bits = &bits[2..];
                let confirmed = format!("Counterexample confirmed by: internal interpreter and gcc -m{bits}");
                assert_eq!(lines.next(), Some(confirmed.as_str()), "{file}");
            }
        }
    }
}

/// `vcov coverage` of `program` with everything explored, its JSON report and the folder of its tests
/// (in `dir`).
fn coverage_with_tests(program: &Path, dir: &Path) -> (serde_json::Value, PathBuf) {
    let aa = fixture("../assumption-automata/true.spc");
    let (json, tests) = (dir.join("r.json"), dir.join("tests"));
    let run = vcov([
        "coverage",
        program.to_str().unwrap(),
        "--aa",
        aa.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--evidence",
        tests.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    (crate::util::json(&json), tests)
}

/// Coverage with everything explored: the program's lines only (none of the library's), all
/// covered, and every test replays under gcc and gcov with glibc's functions.
#[test]
fn coverage_counts_the_programs_lines_and_its_tests_replay_with_glibc() {
    let dir = tempfile::tempdir().unwrap();
    let p = libc_fixture("strlen_nondet_true.c");
    let (report, tests) = coverage_with_tests(&p, dir.path());
    let code_lines = std::fs::read_to_string(&p).unwrap().lines().count() as u64;
    let to_cover = crate::util::nums(&report["lines_to_cover"]);
    assert!(to_cover.len() > 5 && to_cover.iter().all(|&l| l <= code_lines), "{to_cover:?}");
    assert_eq!(report["function_coverage"]["total"], 1, "main only: {}", report["function_coverage"]);
    assert_eq!(report["exact"], true, "{report}");
    // Every line but the two calls of reach_error is covered.
    let under = crate::util::nums(&report["under_approximation"]["lines"]);
    assert_eq!(under.len() + 2, to_cover.len(), "{under:?}");
    let replay = vcov(["replay", p.to_str().unwrap(), tests.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}{}", replay.stdout, replay.stderr);
    assert!(replay.stdout.contains(" 0 not confirmed"), "{}", replay.stdout);
}

/// qsort runs the program's comparison (the sort is real: the violation after it is proven not
/// coverable), but what runs in the callback is the model's doing, as in CPAchecker's CFA, where
/// the call of qsort is one edge: the comparison's lines are neither in the over- nor in the
/// under-approximation, and the test replays under gcc and gcov.
#[test]
fn a_callback_from_qsort_runs_but_counts_for_no_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = libc_fixture("qsort_nondet_true.c");
    let (report, tests) = coverage_with_tests(&p, dir.path());
    let text = std::fs::read_to_string(&p).unwrap();
    let line_of = |s: &str| text.lines().position(|l| l.contains(s)).unwrap() as u64 + 1;
    let (compare, main) = (line_of("int x = *"), line_of("int main"));
    let over = crate::util::nums(&report["over_approximation"]["lines"]);
    let under = crate::util::nums(&report["under_approximation"]["lines"]);
    assert!(crate::util::nums(&report["lines_to_cover"]).contains(&compare));
    assert!(over.iter().all(|&l| l > main), "{over:?}");
    assert!(!under.is_empty() && under.iter().all(|l| over.contains(l)), "{under:?}");
    assert!(!under.contains(&line_of("reach_error();")), "{under:?}");
    assert_eq!(report["exact"], true, "{report}");
    let replay = vcov(["replay", p.to_str().unwrap(), tests.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}{}", replay.stdout, replay.stderr);
    assert!(replay.stdout.contains(" 0 not confirmed"), "{}", replay.stdout);
}
