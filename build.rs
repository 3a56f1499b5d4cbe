//! Tells the tests what this machine has, as cfgs set when they are built: a test that needs the
//! shared corpus or a tool is `#[ignore]`d, with the reason, where it is missing, and runs (failing
//! loudly without it) where it is there. With `CI` set at build time the tests that need the corpus
//! (CI lays `shared/` beside its clone) or a tool CI installs are never ignored: what CI misses
//! fails them.
//!
//! - `vcov_corpus`: the shared corpus is there: `$VCOV_CORPUS`, by default `../shared/corpus` beside
//!   the crate (the tests read its path as `env!("VCOV_CORPUS_DIR")`);
//!   `vcov_corpus_current`: it has CPAchecker 2.3 and 4.0's artifacts (`cpachecker-current/`).
//! - `vcov_chromium`: `chromium --version` runs (the HTML report in a browser).
//! - `vcov_gcc32`: `gcc -m32 --coverage` links a program (Debian's gcc-multilib: 32-bit replays).
//! - `vcov_genhtml`: `genhtml --version` runs (Debian's lcov: the lcov tracefiles).
//! - `vcov_witnesslint`: sv-witnesses' linter is there: `$VCOV_WITNESSLINT` (`witnesslinter.py`)
//!   and `$VCOV_WITNESSLINT_PYTHON` (a Python with lxml), by default those of `/work/tools`; the
//!   tests read them as `env!("VCOV_WITNESSLINT_SCRIPT")` and `env!("VCOV_WITNESSLINT_PY")`. No
//!   package registry has it, so CI cannot install it and `CI` does not force these tests.
//! - `vcov_ci`: `CI` is set (and neither empty, `0` nor `false`).
//!
//! The probes are cheap and never fail the build (`cargo install --path .` runs them too). Cargo
//! reruns this script when what a probe looked at changes: the corpus folder, a tool's file, the
//! folders of `PATH` where a tool is missing (installing one changes them), or one of the variables.
//! A path that does not exist is never watched: cargo would rerun the script, and so rebuild the
//! crate, on every build.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const CFGS: &[&str] = &[
    "vcov_corpus",
    "vcov_corpus_current",
    "vcov_chromium",
    "vcov_gcc32",
    "vcov_genhtml",
    "vcov_witnesslint",
    "vcov_ci",
];

fn main() {
    for name in CFGS {
        println!("cargo::rustc-check-cfg=cfg({name})");
    }
    println!("cargo::rerun-if-changed=build.rs");
    for var in ["CI", "PATH", "VCOV_CORPUS", "VCOV_WITNESSLINT", "VCOV_WITNESSLINT_PYTHON"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));

    let corpus = env::var_os("VCOV_CORPUS").map_or_else(|| manifest.join("../shared/corpus"), PathBuf::from);
    println!("cargo::rustc-env=VCOV_CORPUS_DIR={}", corpus.display());
    if corpus.is_dir() {
        watch(&corpus);
        set("vcov_corpus");
        if corpus.join("cpachecker-current").is_dir() {
            set("vcov_corpus_current");
        }
    } else if let Some(parent) = corpus.parent().filter(|p| p.is_dir()) {
        // Laying the corpus there changes the folder.
        watch(parent);
    }

    let path_dirs = path_dirs(&manifest);
    if probe_tool("chromium", &["--version"], &path_dirs) {
        set("vcov_chromium");
    }
    if probe_tool("genhtml", &["--version"], &path_dirs) {
        set("vcov_genhtml");
    }
    if gcc32_links(&out, &path_dirs) {
        set("vcov_gcc32");
    }

    let script =
        env::var_os("VCOV_WITNESSLINT").map_or_else(|| "/work/tools/lint/witnesslinter.py".into(), PathBuf::from);
    let python =
        env::var_os("VCOV_WITNESSLINT_PYTHON").map_or_else(|| "/work/tools/wl-venv/bin/python".into(), PathBuf::from);
    println!("cargo::rustc-env=VCOV_WITNESSLINT_SCRIPT={}", script.display());
    println!("cargo::rustc-env=VCOV_WITNESSLINT_PY={}", python.display());
    let mut lint = true;
    for file in [&script, &python] {
        if file.is_file() {
            watch(file);
        } else {
            lint = false;
            // The nearest folder that is there, unless it is `/` or a folder right under it, whose
            // whole tree cargo would scan on every build.
            if let Some(dir) = file.ancestors().skip(1).find(|d| d.is_dir()).filter(|d| d.components().count() >= 3) {
                watch(dir);
            }
        }
    }
    if lint {
        set("vcov_witnesslint");
    }

    if env::var("CI").is_ok_and(|v| !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false"))) {
        set("vcov_ci");
    }
    WATCHED.with_borrow(|paths| paths.iter().for_each(|p| println!("cargo::rerun-if-changed={}", p.display())));
}

thread_local! {
    /// The paths whose change reruns this script.
    static WATCHED: RefCell<BTreeSet<PathBuf>> = const { RefCell::new(BTreeSet::new()) };
}

fn set(cfg: &str) {
    println!("cargo::rustc-cfg={cfg}");
}

fn watch(path: &Path) {
    WATCHED.with_borrow_mut(|paths| paths.insert(path.to_path_buf()));
}

/// The absolute folders of `PATH` that exist, outside the crate (its `target/` changes with every
/// build).
fn path_dirs(manifest: &Path) -> Vec<PathBuf> {
    let mut res: Vec<PathBuf> = Vec::new();
    for dir in env::split_paths(&env::var_os("PATH").unwrap_or_default()) {
        if dir.is_absolute() && dir.is_dir() && !dir.starts_with(manifest) && !res.contains(&dir) {
            res.push(dir);
        }
    }
    res
}

/// Where `name` is in `PATH`, if anywhere; watches that file, or every folder of `PATH` when it is
/// nowhere.
fn find_tool(name: &str, path_dirs: &[PathBuf]) -> Option<PathBuf> {
    let found = path_dirs.iter().map(|d| d.join(name)).find(|p| p.is_file());
    match &found {
        Some(file) => watch(file),
        None => path_dirs.iter().for_each(|d| watch(d)),
    }
    found
}

/// Whether `name ARGS` is in `PATH` and exits with 0.
fn probe_tool(name: &str, args: &[&str], path_dirs: &[PathBuf]) -> bool {
    find_tool(name, path_dirs).is_some_and(|exe| quiet(Command::new(exe).args(args)))
}

/// Whether `gcc -m32 --coverage` links a program (in `OUT_DIR`); watches gcc and the folder of its
/// libgcc, where gcc-multilib adds the 32-bit one.
fn gcc32_links(out: &Path, path_dirs: &[PathBuf]) -> bool {
    let Some(gcc) = find_tool("gcc", path_dirs) else { return false };
    if let Ok(o) = Command::new(&gcc).arg("-print-libgcc-file-name").stderr(Stdio::null()).output() {
        let libgcc = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
        if let Some(dir) = libgcc.parent().filter(|d| d.is_absolute() && d.is_dir()) {
            watch(dir);
        }
    }
    for dir in ["/usr/lib32", "/usr/libx32"].map(Path::new).into_iter().filter(|d| d.is_dir()) {
        watch(dir);
    }
    let probe = out.join("gcc32-probe.c");
    if std::fs::write(&probe, "int main(void) { return 0; }\n").is_err() {
        return false;
    }
    quiet(
        Command::new(&gcc)
            .args(["-m32", "--coverage"])
            .arg(&probe)
            .arg("-o")
            .arg(out.join("gcc32-probe"))
            .current_dir(out),
    )
}

/// Runs `cmd` with its output discarded: whether it exited with 0.
fn quiet(cmd: &mut Command) -> bool {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}
