//! C semantics checked against gcc (issue #14): each program of `fixtures/c/semantics/` calls
//! `reach_error` or not; `vcov verify` must say so for ILP32 and LP64, and so must the program
//! compiled by gcc (`-O0`, `-m32`/`-m64`), which decides the truth.
//!
//! Programs with `#include` are preprocessed by vcov (`gcc -E -m32|-m64`), so their ILP32 verdicts
//! need 32-bit headers too. The 32-bit gcc runs are a test of their own, ignored where `gcc -m32`
//! could not link when the tests were built, unless `CI` was set; vcov's ILP32 verdicts of the
//! programs without headers are checked everywhere.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The fixtures with whether gcc's executable reaches `reach_error`.
const CASES: &[(&str, bool)] = &[
    // Hoisted calls, assignments and increments keep the conversions of their context.
    ("neg_promoted_call.c", true),
    ("not_promoted_call.c", true),
    ("shl_promoted_call.c", true),
    ("unsigned_compare_call.c", false),
    ("add_promoted_call.c", true),
    ("call_argument_conversion.c", true),
    ("neg_promoted_assign.c", true),
    ("not_promoted_increment.c", true),
    ("unsigned_compare_assign.c", false),
    // Struct layouts: `#pragma pack` and the `packed`/`aligned` attributes.
    ("pragma_pack.c", true),
    ("pack_push_pop.c", false),
    ("pack_bitfields.c", true),
    ("packed_before_tag.c", true),
    ("attribute_positions.c", true),
    ("pragma_operator.c", true),
    // GNU C of current code and headers: statement expressions (glibc's `assert`), typeof,
    // __extension__, sizeof of branches, a parenthesized comma statement, and programs with
    // system headers that vcov preprocesses (gcc -E).
    ("stmt_expr_value.c", true),
    ("stmt_expr_assignment.c", true),
    ("stmt_expr_void_if.c", false),
    ("stmt_expr_in_loop.c", true),
    ("typeof_extension.c", true),
    ("sizeof_branches.c", true),
    ("comma_in_parentheses.c", true),
    ("headers_bswap.c", true),
    ("headers_assert_string.c", true),
    // IEEE floating point as SSE computes it (gcc -m32 with -msse2 -mfpmath=sse), and math.h.
    ("float_excess_precision.c", true),
    ("float_single_rounding.c", true),
    ("float_nan_and_zero.c", true),
    ("float_conversions.c", true),
    ("float_subnormal.c", true),
    ("headers_math.c", true),
    ("headers_fenv.c", true),
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/c/semantics").join(name)
}

/// The verdict line of `vcov verify --spec unreach-call FILE --32/--64`.
fn verdict(file: &Path, bits: u32) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_vcov"))
        .arg("verify")
        .arg(file)
        .args(["--spec", "unreach-call", &format!("--{bits}")])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .expect("vcov runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("Verification result:")).unwrap_or("");
    format!("{line}{}", if out.status.success() { "" } else { " (failed)" })
}

/// Whether the program built by `gcc -m{bits} -O0` (with the floating-point flags of vcov's model,
/// `DataModel::gcc_float_flags`) calls `reach_error`.
fn gcc_reaches(file: &Path, bits: u32, dir: &Path) -> bool {
    let stub = dir.join("reach_error.c");
    std::fs::write(&stub, "void reach_error(void) { __builtin_exit(101); }\n").unwrap();
    let exe = dir.join(format!("p{bits}"));
    let out = Command::new("gcc")
        .args([format!("-m{bits}").as_str(), "-O0", "-w"])
        .args(if bits == 32 { &["-msse2", "-mfpmath=sse", "-frounding-math"][..] } else { &["-frounding-math"] })
        .arg(file)
        .arg(&stub)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .expect("gcc runs");
    assert!(
        out.status.success(),
        "{}: gcc -m{bits} cannot build it:\n{}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let code = Command::new(&exe).status().expect("the program runs").code();
    assert!(matches!(code, Some(0 | 101)), "{}: gcc's executable exited with {code:?}", file.display());
    code == Some(101)
}

/// For each case (all, or those without `#include` when `with_gcc` is false): the expected verdict
/// agrees with gcc's build (when `with_gcc`) and with `vcov verify --{bits}`.
fn check(bits: u32, with_gcc: bool) {
    let dir = tempfile::tempdir().unwrap();
    let mut n = 0;
    for &(file, reached) in CASES {
        let p = fixture(file);
        if !with_gcc && std::fs::read_to_string(&p).unwrap().contains("#include") {
            continue;
        }
        if with_gcc {
            assert_eq!(
                gcc_reaches(&p, bits, dir.path()),
                reached,
                "{file}: gcc -m{bits} disagrees with the expected verdict"
            );
        }
        let expect = if reached { "Verification result: FALSE(unreach-call)" } else { "Verification result: TRUE" };
        assert_eq!(verdict(&p, bits), expect, "{file} --{bits}");
        n += 1;
    }
    let with_headers = CASES.iter().filter(|(f, _)| f.starts_with("headers_")).count();
    assert_eq!(n, if with_gcc { CASES.len() } else { CASES.len() - with_headers }, "the cases checked");
}

#[test]
fn verdicts_agree_with_gcc_under_lp64() {
    check(64, true);
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn verdicts_agree_with_gcc_under_ilp32() {
    crate::util::require_gcc32();
    check(32, true);
}

/// vcov's ILP32 verdicts where gcc -m32 need not be there: the programs without headers.
#[test]
fn ilp32_verdicts_of_programs_without_headers() {
    check(32, false);
}
