//! Running the built binary from tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The result of one `vcov` run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The crate root (fixtures are relative to it).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture path.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("fixtures").join(rel)
}

/// Runs `vcov` with `args` in the crate root, with a clean environment.
pub fn vcov<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = Command::new(env!("CARGO_BIN_EXE_vcov"))
        .args(args)
        .current_dir(root())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .expect("vcov runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Reads a JSON file.
pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("report exists")).expect("valid JSON")
}

/// Runs `vcov ARGS --json PATH --no-progress`, which must succeed, and returns its JSON report.
pub fn run_json_to<S: AsRef<str>>(args: &[S], path: &Path) -> serde_json::Value {
    let mut all: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let p = path.display().to_string();
    all.extend(["--json", &p, "--no-progress"]);
    let run = vcov(&all);
    assert_eq!(run.code, 0, "vcov {}: {}", all.join(" "), run.stderr);
    json(path)
}

/// Runs `vcov ARGS`, which must succeed, and returns its JSON report (written to a temporary file).
pub fn run_json<S: AsRef<str>>(args: &[S]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    run_json_to(args, &dir.path().join("r.json"))
}

/// A JSON array of numbers as a vector.
pub fn nums(v: &serde_json::Value) -> Vec<u64> {
    v.as_array().expect("array").iter().map(|x| x.as_u64().expect("number")).collect()
}

/// A text summary with its wrapped notes joined again: a note's continuation lines start with six
/// spaces (`report::text::wrap`), which stand for the one space the line was broken at.
pub fn unwrapped(text: &str) -> String {
    text.replace("\n      ", " ")
}
