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

// What a test needs besides the fixtures. `build.rs` tells, when the tests are built, whether each
// is there: a test that needs one carries `#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore =
// "...")]` (`vcov_TOOL` for a tool): under CI it always runs. It calls the function below, which
// fails the test, saying what is missing, when it runs anyway.

/// The shared corpus (`../shared/corpus`, or `$VCOV_CORPUS` when the tests were built).
pub fn corpus() -> PathBuf {
    let dir = PathBuf::from(env!("VCOV_CORPUS_DIR"));
    assert!(
        dir.is_dir(),
        "this test needs the shared corpus, which is not at {} (lay ../shared/corpus beside the crate, or \
         build the tests with VCOV_CORPUS=DIR)",
        dir.display()
    );
    dir
}

/// Fails the test unless `gcc -m32 --coverage` links a program here (Debian's gcc-multilib).
pub fn require_gcc32() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.c"), "int main(void) { return 0; }\n").unwrap();
    let out = Command::new("gcc").args(["-m32", "--coverage", "p.c", "-o", "p"]).current_dir(dir.path()).output();
    match out {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!(
            "this test needs gcc -m32, which cannot link here (install gcc-multilib):\n{}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("this test needs gcc -m32, but gcc cannot run: {e}"),
    }
}

/// Fails the test unless `TOOL --version` runs here (Debian's package `package` has it).
pub fn require_tool(tool: &str, package: &str) {
    match Command::new(tool).arg("--version").output() {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!(
            "this test needs {tool}, whose `--version` fails here (package {package}):\n{}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("this test needs {tool}, which cannot run here (install the package {package}): {e}"),
    }
}

/// sv-witnesses' linter: the Python to run it with and `witnesslinter.py` (`$VCOV_WITNESSLINT_PYTHON`
/// and `$VCOV_WITNESSLINT` when the tests were built, by default those of /work/tools).
pub fn witnesslint() -> (PathBuf, PathBuf) {
    let (python, script) = (PathBuf::from(env!("VCOV_WITNESSLINT_PY")), PathBuf::from(env!("VCOV_WITNESSLINT_SCRIPT")));
    for file in [&python, &script] {
        assert!(
            file.is_file(),
            "this test needs witnesslint, and {} is not there (set VCOV_WITNESSLINT and VCOV_WITNESSLINT_PYTHON when \
             building the tests)",
            file.display()
        );
    }
    (python, script)
}

/// A `vcov` run whose standard error is a pseudo-terminal, so that it draws its progress line (the
/// evidence of which phase the run is in), while its standard output is a pipe.
pub struct TtyRun {
    child: std::process::Child,
    screen: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    reader: std::thread::JoinHandle<()>,
}

impl TtyRun {
    /// Starts `vcov ARGS` in the crate root.
    pub fn start<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> TtyRun {
        use std::os::fd::{FromRawFd, OwnedFd};
        let (mut master, mut slave) = (0, 0);
        let size = libc::winsize { ws_row: 30, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0 };
        // SAFETY: `openpty` writes two descriptors it opened into the integers it is given.
        let r = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &size) };
        assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors are open and owned by nothing else.
        let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        for fd in [&master, &slave] {
            use std::os::fd::AsRawFd;
            // SAFETY: a plain system call on a descriptor this function owns. Close-on-exec keeps
            // other tests' children from holding the terminal open.
            unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
        }
        let child = Command::new(env!("CARGO_BIN_EXE_vcov"))
            .args(args)
            .current_dir(root())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("TERM", "xterm-256color")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::from(slave))
            .spawn()
            .expect("vcov starts");
        let screen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = std::sync::Arc::clone(&screen);
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            let mut master = std::fs::File::from(master);
            let mut buf = [0u8; 4096];
            // Reading fails (EIO) once the child has exited and the terminal is gone.
            while let Ok(n) = master.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        TtyRun { child, screen, reader }
    }

    /// What the run wrote to standard error so far.
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    /// Waits until standard error shows one of `texts`; fails after `limit` or when the run ends
    /// first.
    pub fn wait_for(&mut self, texts: &[&str], limit: std::time::Duration) {
        let start = std::time::Instant::now();
        while !texts.iter().any(|t| self.screen().contains(t)) {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("vcov ended ({status}) before it showed any of {texts:?}:\n{}", self.screen());
            }
            assert!(start.elapsed() < limit, "vcov did not show any of {texts:?} within {limit:?}:\n{}", self.screen());
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Sends `signal` to the run.
    pub fn signal(&self, signal: libc::c_int) {
        // SAFETY: a plain system call on this test's own child.
        let r = unsafe { libc::kill(self.child.id() as libc::pid_t, signal) };
        assert_eq!(r, 0, "kill: {}", std::io::Error::last_os_error());
    }

    /// Waits for the run to end (a hang fails the test after `limit`); returns its exit code (`None`
    /// when a signal ended it), standard output and standard error.
    pub fn finish(mut self, limit: std::time::Duration) -> (Option<i32>, String, String) {
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                panic!("vcov did not end within {limit:?}:\n{}", self.screen());
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let mut stdout = String::new();
        std::io::Read::read_to_string(self.child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
        // The terminal is gone with the child: the reader drains what is left and ends.
        let drain = std::time::Instant::now();
        while !self.reader.is_finished() && drain.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        (status.code(), stdout, self.screen())
    }
}

/// Every file below `dir` (folders walked down), sorted by path.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut res = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                res.push(p);
            }
        }
    }
    res.sort();
    res
}
