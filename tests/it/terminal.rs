//! `vcov coverage` in a real terminal (a pseudo-terminal, as a user's shell gives it): the progress line
//! is drawn, runs end, and Ctrl-C typed on the terminal stops the search with a complete report.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};

use crate::util::{json, root};

/// A `vcov` process on a pseudo-terminal, with everything it writes to the terminal collected.
struct TermRun {
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
    screen: Arc<Mutex<Vec<u8>>>,
    reader: std::thread::JoinHandle<()>,
}

impl TermRun {
    fn start(args: &[&str]) -> TermRun {
        let pair = native_pty_system()
            .openpty(PtySize { rows: 30, cols: 100, pixel_width: 0, pixel_height: 0 })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_vcov"));
        cmd.args(args);
        cmd.cwd(root());
        cmd.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(cmd).expect("vcov starts on the terminal");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("terminal reader");
        let screen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&screen);
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Reading fails (EIO) once the child has exited and the terminal is gone.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        TermRun { child, master: pair.master, screen, reader }
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    /// Waits until the terminal shows `text`; fails after `limit`.
    fn wait_for(&self, text: &str, limit: Duration) {
        let start = Instant::now();
        while !self.screen().contains(text) {
            assert!(start.elapsed() < limit, "the terminal never showed {text:?}:\n{}", self.screen());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Types `bytes` on the terminal.
    fn type_keys(&self, bytes: &[u8]) {
        let mut w = self.master.take_writer().expect("terminal writer");
        w.write_all(bytes).unwrap();
        w.flush().unwrap();
    }

    /// Waits for the process to end (a hang fails the test after `limit`); returns its exit code and
    /// what the terminal showed.
    fn finish(mut self, limit: Duration) -> (u32, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                // The terminal is gone with the child: the reader drains what it wrote last and ends.
                let drain = Instant::now();
                while !self.reader.is_finished() && drain.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(10));
                }
                return (status.exit_code(), self.screen());
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                panic!("vcov did not end within {limit:?} on a terminal:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The arguments of the README's first command (`cargo run --release -- ARGS`).
fn readme_first_command() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let line = readme.lines().find(|l| l.starts_with("cargo run --release -- ")).expect("README has its first command");
    line["cargo run --release -- ".len()..].split_whitespace().map(str::to_string).collect()
}

#[test]
fn the_readme_command_ends_with_the_table_on_a_terminal() {
    let args = readme_first_command();
    assert_eq!(args[0], "coverage", "{args:?}");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, screen) = TermRun::start(&args).finish(Duration::from_secs(120));
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains("# lines") && screen.contains("Over A."), "the table: {screen}");
    // The progress display was on, and its last line is a plain line of its own.
    assert!(screen.contains("search ended: "), "{screen}");
    assert!(screen.contains(" in ") && screen.contains(" s\r\n"), "{screen}");
}

#[test]
fn ctrl_c_on_the_terminal_stops_a_long_run_with_a_complete_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let out_arg = out.display().to_string();
    // The loop never ends: only Ctrl-C stops this search.
    let run = TermRun::start(&[
        "coverage",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--json",
        &out_arg,
    ]);
    // The progress line is drawn and keeps moving.
    run.wait_for("lines decided", Duration::from_secs(60));
    run.wait_for(" paths (", Duration::from_secs(60));
    run.type_keys(b"\x03");
    let (code, screen) = run.finish(Duration::from_secs(60));
    assert_eq!(code, 130, "{screen}");
    assert!(screen.contains("search stopped by a signal: "), "{screen}");
    assert!(screen.contains("# lines") && screen.contains("stopped by a signal after"), "{screen}");
    assert_one_end_time(&screen);
    let j = json(&out);
    assert_eq!(j["interrupted"], true);
    assert_eq!(j["stopped_by"], "signal");
    assert_eq!(j["line_status"]["6"], "covered", "{j}");
}

#[test]
fn a_time_limit_ends_a_run_on_a_terminal() {
    let run = TermRun::start(&[
        "coverage",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--timelimit",
        "1",
    ]);
    let (code, screen) = run.finish(Duration::from_secs(60));
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains("search stopped by the time limit: "), "{screen}");
    assert!(screen.contains("stopped by the time limit after"), "{screen}");
    assert_one_end_time(&screen);
}

/// The progress line's last words (`... in 13.2 s`) and the summary (`stopped by ... after 13.2 s`)
/// give the same time (issue #28: they said 13.2 and 13.7 s).
fn assert_one_end_time(screen: &str) {
    let progress = regex::Regex::new(r"search stopped by [^\r\n]* in (\d+\.\d) s").unwrap();
    let summary = regex::Regex::new(r"stopped by [a-z ]+ after (\d+\.\d) s").unwrap();
    let p = &progress.captures(screen).unwrap_or_else(|| panic!("{screen}"))[1];
    let s = &summary.captures(screen).unwrap_or_else(|| panic!("{screen}"))[1];
    assert_eq!(p, s, "{screen}");
}

#[test]
fn a_batch_draws_its_progress_bar_and_ends_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out_arg = out.display().to_string();
    let run = TermRun::start(&["batch", "fixtures/batch/coverage", "--out", &out_arg, "--jobs", "2"]);
    let (code, screen) = run.finish(Duration::from_secs(120));
    assert_eq!(code, 0, "{screen}");
    assert!(out.join("results.csv").exists(), "{screen}");
}

#[test]
fn r28_8_a_batch_shows_an_eta_only_once_a_task_finished() {
    // The first task runs into its 3 s time limit; until it ends, no task of the run has finished and
    // there is nothing to estimate from (issue #28: `0/2 tasks ... ETA 0s`).
    let dir = tempfile::tempdir().unwrap();
    let tasks = dir.path().join("tasks");
    for (name, program, automaton) in [
        ("a_endless", "fixtures/c/coverage/endless.c", "assumption-automata/true.spc"),
        ("b_calls", "fixtures/e2e/calls/program.c", "fixtures/e2e/calls/aa.txt"),
    ] {
        let d = tasks.join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(root().join(program), d.join("program.c")).unwrap();
        std::fs::copy(root().join(automaton), d.join("AssumptionAutomaton.txt")).unwrap();
    }
    let out = dir.path().join("out");
    let (t, o) = (tasks.display().to_string(), out.display().to_string());
    let run = TermRun::start(&["batch", &t, "--out", &o, "--jobs", "1", "--timelimit", "3"]);
    // Everything the bar drew until the first task ended (after its 3 s) has no ETA.
    run.wait_for("1/2 tasks", Duration::from_secs(60));
    let screen = run.screen();
    let before = &screen[..screen.find("1/2 tasks").unwrap()];
    assert!(before.contains("0/2 tasks"), "the bar was drawn before the first task ended:\n{before}");
    assert!(!before.contains("ETA"), "an ETA before any task finished:\n{before}");
    let (code, screen) = run.finish(Duration::from_secs(60));
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains("2 tasks: 2 done"), "{screen}");
}

#[test]
fn vcov_verify_draws_its_progress_line_and_ends_on_a_terminal() {
    // The explicit search alone never ends on this program: the time limit stops it.
    let run = TermRun::start(&["verify", "fixtures/c/verify/endless_counter.c", "--dfs", "--timelimit", "3"]);
    run.wait_for("explicit search: ", Duration::from_secs(60));
    let (code, screen) = run.finish(Duration::from_secs(60));
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains(" paths ("), "{screen}");
    // The line is cleared before the verdict, which starts a line of its own.
    let verdict = screen.find("Verification result: UNKNOWN").expect("the verdict");
    assert!(screen[..verdict].ends_with("\r\u{1b}[2K"), "{screen:?}");
    assert!(!screen[verdict..].contains("explicit search"), "no progress after the verdict: {screen:?}");
}
