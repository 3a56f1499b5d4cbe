//! C semantics checked against gcc (issue #14): each program of `fixtures/c/semantics/` calls
//! `reach_error` or not; `vcov verify` must say so for ILP32 and LP64, and so must the program
//! compiled by gcc (`-O0`, `-m32`/`-m64`), which decides the truth.
//!
//! Programs with `#include` are preprocessed by vcov (`gcc -E -m32|-m64`); without 32-bit headers
//! their ILP32 verdicts cannot be had either, and are skipped with the gcc runs.
//!
//! The 32-bit gcc runs are skipped when `gcc -m32` cannot link here, unless `VCOV_REQUIRE_GCC32` is
//! set (CI sets it when gcc-multilib is installed).

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

/// Whether the program built by `gcc -m{bits} -O0` calls `reach_error`; `None` if it cannot link.
fn gcc_reaches(file: &Path, bits: u32, dir: &Path) -> Option<bool> {
    let stub = dir.join("reach_error.c");
    std::fs::write(&stub, "void reach_error(void) { __builtin_exit(101); }\n").unwrap();
    let exe = dir.join(format!("p{bits}"));
    let built = Command::new("gcc")
        .args([format!("-m{bits}").as_str(), "-O0", "-w"])
        .arg(file)
        .arg(&stub)
        .arg("-o")
        .arg(&exe)
        .output()
        .is_ok_and(|o| o.status.success());
    if !built {
        return None;
    }
    let code = Command::new(&exe).status().expect("the program runs").code();
    assert!(matches!(code, Some(0 | 101)), "{}: gcc's executable exited with {code:?}", file.display());
    Some(code == Some(101))
}

#[test]
fn verdicts_agree_with_gcc() {
    let dir = tempfile::tempdir().unwrap();
    for &(file, reached) in CASES {
        let p = fixture(file);
        let expect = if reached { "Verification result: FALSE(unreach-call)" } else { "Verification result: TRUE" };
        let includes = std::fs::read_to_string(&p).unwrap().contains("#include");
        for bits in [32, 64] {
            match gcc_reaches(&p, bits, dir.path()) {
                Some(r) => assert_eq!(r, reached, "{file}: gcc -m{bits} disagrees with the expected verdict"),
                None if bits == 32 && std::env::var_os("VCOV_REQUIRE_GCC32").is_none() => {
                    eprintln!("note: gcc -m32 cannot link here; the 32-bit gcc check of {file} is skipped");
                    if includes {
                        // vcov needs the 32-bit headers too.
                        eprintln!("SKIPPED: vcov verify --32 {file} (no 32-bit C headers here)");
                        continue;
                    }
                }
                None => panic!("{file}: gcc -m{bits} cannot build it"),
            }
            assert_eq!(verdict(&p, bits), expect, "{file} --{bits}");
        }
    }
}
