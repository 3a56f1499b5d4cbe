//! What a new user meets in the first hour (issue #8): output paths checked before any work, no partial
//! output, normal file permissions, messages naming the user's paths, `-` for standard output, what
//! stopped a run, and the flags' limits.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{fixture, json, root, vcov, Run, TtyRun};

/// Runs `vcov` under `sh -c 'umask U; exec vcov ...'` in `cwd`.
fn vcov_with_umask(umask: &str, cwd: &Path, args: &[&str]) -> Run {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_vcov"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `vcov` and fails the test if it has not ended after `limit` (a hang guard, not a timing).
fn vcov_within(args: &[&str], limit: Duration) -> Run {
    vcov_within_cpu(args, limit).0
}

/// `vcov_within` that also gives the CPU time the run used (user and system, from `wait4`).
fn vcov_within_cpu(args: &[&str], limit: Duration) -> (Run, Duration) {
    use std::io::Read;
    // Reaped by `wait4` below, which gives the run's resource usage as `Child::wait` does not.
    #[allow(clippy::zombie_processes)]
    let mut child = Command::new(env!("CARGO_BIN_EXE_vcov"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: `rusage` is plain data that `wait4` fills in; `pid` is this test's own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(r >= 0, "wait4: {}", std::io::Error::last_os_error());
        if r == pid {
            break (status, usage);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("vcov {args:?} did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut stdout, mut stderr) = (String::new(), String::new());
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let seconds = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    (Run { code, stdout, stderr }, seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut res: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    res.sort();
    res
}

#[test]
fn output_paths_are_checked_before_the_search() {
    // Without a time limit this search never ends: only a check made before it can end the run.
    let run = vcov_within(
        &[
            "coverage",
            "fixtures/c/coverage/endless.c",
            "--aa",
            "assumption-automata/true.spc",
            "--json",
            "nodir/r.json",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.starts_with("vcov: nodir/r.json: cannot write the JSON report"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    for bad in [
        &["--lcov", "nodir/r"][..],
        &["--csv", "nodir/t.csv"],
        &["--witness", "nodir/w.graphml"],
        &["--evidence", "nodir/deeper/suite"],
        &["--json", "fixtures"],
    ] {
        let mut args = vec!["coverage", "fixtures/c/coverage/endless.c", "--aa", "assumption-automata/true.spc"];
        args.extend_from_slice(bad);
        let run = vcov_within(&args, Duration::from_secs(60));
        assert_eq!(run.code, 2, "{bad:?}: {}", run.stderr);
        assert!(run.stderr.starts_with(&format!("vcov: {}", bad[1])), "{bad:?}: {}", run.stderr);
    }
}

#[test]
fn a_failed_run_leaves_no_output_behind() {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path();
    let json_path = o.join("r.json");
    let lcov_prefix = o.join("nodir/r");
    let run = vcov([
        "coverage",
        "fixtures/e2e/calls/program.c",
        "--aa",
        "fixtures/e2e/calls/aa.txt",
        "--json",
        json_path.to_str().unwrap(),
        "--lcov",
        lcov_prefix.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(files_in(o).is_empty(), "{:?}", files_in(o));

    // A bad automaton is found after the outputs were checked: still nothing is written.
    let run = vcov([
        "coverage",
        "fixtures/e2e/calls/program.c",
        "--aa",
        "fixtures/automata/invalid/missing_semicolon.spc",
        "--json",
        json_path.to_str().unwrap(),
        "--evidence",
        o.join("suite").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(files_in(o).is_empty(), "{:?}", files_in(o));
}

#[test]
fn files_get_the_permissions_of_the_umask() {
    let dir = tempfile::tempdir().unwrap();
    let program = fixture("c/verify/bug_call.c");
    let automaton = root().join("assumption-automata/true.spc");
    let args = |sub: &str| {
        vec![
            "coverage".to_string(),
            program.display().to_string(),
            "--aa".into(),
            automaton.display().to_string(),
            "--continue-after-bug".into(),
            "--json".into(),
            format!("{sub}/r.json"),
            "--lcov".into(),
            format!("{sub}/r"),
            "--csv".into(),
            format!("{sub}/t.csv"),
            "--evidence".into(),
            format!("{sub}/suite"),
        ]
    };
    for (umask, expected) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let sub = format!("u{umask}");
        std::fs::create_dir(dir.path().join(&sub)).unwrap();
        let a = args(&sub);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let run = vcov_with_umask(umask, dir.path(), &a);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let base = dir.path().join(&sub);
        let suite = base.join("suite");
        let mut files: Vec<_> = ["r.json", "r.under.info", "r.over.info", "t.csv"].map(|f| base.join(f)).to_vec();
        files.extend(std::fs::read_dir(&suite).unwrap().map(|e| e.unwrap().path()));
        let names = files_in(&suite);
        for kind in ["metadata.xml", "test1.xml", "vcov-claims.json", "Counterexample.1.spc", "witness.graphml"] {
            assert!(names.iter().any(|n| n == kind), "{kind} in {names:?}");
        }
        for f in files {
            assert_eq!(mode(&f), expected, "{} under umask {umask}", f.display());
        }
    }
}

#[test]
fn messages_name_the_users_path_not_a_temporary_file() {
    let run = vcov([
        "coverage",
        "fixtures/e2e/calls/program.c",
        "--aa",
        "fixtures/e2e/calls/aa.txt",
        "--json",
        "/proc/r.json",
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("vcov: /proc/r.json: cannot write the JSON report: "), "{}", run.stderr);
    assert!(!run.stderr.contains(".tmp") && !run.stderr.contains(".vcov-"), "{}", run.stderr);
    let run =
        vcov(["scores", "fixtures/e2e/calls/program.c", "--aa", "fixtures/e2e/calls/aa.txt", "-o", "/proc/s.csv"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("vcov: /proc/s.csv: cannot write the scores: "), "{}", run.stderr);
    assert!(!run.stderr.contains(".tmp") && !run.stderr.contains(".vcov-"), "{}", run.stderr);
}

#[test]
fn csv_rows_are_named_by_folder_and_say_what_stopped_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.csv");
    let t = table.to_str().unwrap();
    let run = vcov(["coverage", "fixtures/e2e/calls/program.c", "--aa", "fixtures/e2e/calls/aa.txt", "--csv", t]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = vcov([
        "coverage",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--csv",
        t,
        "--timelimit",
        "1",
    ]);
    assert_eq!(run.code, 0, "a limit the user set is not a failure: {}", run.stderr);
    assert!(run.stdout.contains("stopped by the time limit after"), "{}", run.stdout);
    let mut reader = csv::Reader::from_path(&table).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(&rows[0][col("instance")], "calls/program.c");
    assert_eq!(&rows[0][col("interrupted")], "false");
    assert_eq!(&rows[0][col("stopped_by")], "");
    assert_eq!(&rows[1][col("instance")], "coverage/endless.c");
    assert_eq!(&rows[1][col("interrupted")], "true");
    assert_eq!(&rows[1][col("stopped_by")], "time_limit");

    // A table with other columns is refused before any work, and left as it was.
    let old = dir.path().join("old.csv");
    std::fs::write(&old, "instance,lines,over,under,executions,bug,cpu_seconds,exact\nx,1,1,1,1,no,0.1,true\n")
        .unwrap();
    let run = vcov([
        "coverage",
        "fixtures/e2e/calls/program.c",
        "--aa",
        "fixtures/e2e/calls/aa.txt",
        "--csv",
        old.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("old.csv: line 1:1: the table's columns are not vcov's"), "{}", run.stderr);
    assert!(std::fs::read_to_string(&old).unwrap().ends_with("x,1,1,1,1,no,0.1,true\n"));
}

#[test]
fn a_dash_means_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let program = fixture("e2e/calls/program.c").display().to_string();
    let automaton = fixture("e2e/calls/aa.txt").display().to_string();
    let base = ["coverage", program.as_str(), "--aa", automaton.as_str()];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        vcov_with_umask("022", dir.path(), &a)
    };
    let run = with(&["--json", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j: serde_json::Value = serde_json::from_str(&run.stdout).expect("the JSON report on standard output");
    assert_eq!(j["schema_version"], 1);
    assert!(run.stderr.contains("# lines"), "the summary moves to standard error: {}", run.stderr);
    let run = with(&["--csv", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("instance,lines,over,under,"), "{}", run.stdout);
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
    let run = with(&["--lcov", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("TN:").count(), 2, "{}", run.stdout);
    assert_eq!(run.stdout.matches("end_of_record").count(), 2, "{}", run.stdout);
    assert!(files_in(dir.path()).is_empty(), "no file named -: {:?}", files_in(dir.path()));

    let run = with(&["--json", "-", "--csv", "-"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--json and --csv cannot all write to standard output"), "{}", run.stderr);
    let run = with(&["--json", "-", "--format", "json"]);
    assert_eq!(run.code, 2);
}

#[test]
fn limits_are_positive_and_documented() {
    for flag in ["--memory-limit", "--timelimit"] {
        let run = vcov(["coverage", "fixtures/e2e/calls/program.c", "--aa", "fixtures/e2e/calls/aa.txt", flag, "0"]);
        assert_eq!(run.code, 2, "{flag} 0: {}", run.stderr);
        assert!(run.stderr.contains(flag), "{}", run.stderr);
    }
    let run = vcov(["verify", "fixtures/c/verify/bug_call.c", "--memory-limit", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let help = vcov(["coverage", "--help"]).stdout;
    let timelimit = help.split("--timelimit").nth(1).unwrap();
    assert!(timelimit[..timelimit.find("--").unwrap()].contains("[default: no limit]"), "{help}");
}

/// A program with `n` small functions, all called: reading it takes long and needs memory.
fn write_large_program(path: &Path, n: usize) {
    let mut text = String::from("extern int __VERIFIER_nondet_int(void);\n");
    for i in 0..n {
        text.push_str(&format!("int f{i}(int x) {{ if (x > {i}) return x - {i}; return x + {i}; }}\n"));
    }
    text.push_str("int main(void) {\n  int s = __VERIFIER_nondet_int();\n");
    for i in 0..n {
        text.push_str(&format!("  s = f{i}(s);\n"));
    }
    text.push_str("  return s;\n}\n");
    std::fs::write(path, text).unwrap();
}

/// `--timelimit` is CPU time, as BenchExec counts it: the portfolio of `vcov verify` runs its engines
/// on two threads and `vcov coverage` its proofs beside the search, and the run still uses no more
/// CPU than the limit and a second (it is told to stop half a second before, `watchdog::RESERVE`),
/// however many cores it gets. `--stats` prints the run's time by the clock and in CPU.
#[test]
fn the_time_limit_is_cpu_time_shared_by_the_threads() {
    let program = "fixtures/c/verify/hash_chain.c";
    let (run, cpu) = vcov_within_cpu(&["verify", program, "--timelimit", "3", "--stats"], Duration::from_secs(60));
    assert!(run.stdout.starts_with("Verification result: UNKNOWN (time limit reached)\n"), "{}", run.stdout);
    assert!(cpu <= Duration::from_secs(4), "{cpu:?} of CPU");
    let line = run.stdout.lines().find(|l| l.starts_with("run time:")).expect("the run's time");
    let re = regex::Regex::new(r"^run time: +(\d+\.\d\d) s wall, (\d+\.\d\d) s CPU$").unwrap();
    let said: f64 = re.captures(line).unwrap_or_else(|| panic!("{line}"))[2].parse().unwrap();
    assert!(said <= cpu.as_secs_f64() + 0.05 && said > 0.5, "{line} ({cpu:?})");
    let aa = "assumption-automata/true.spc";
    let (run, cpu) = vcov_within_cpu(
        &["coverage", program, "--aa", aa, "--timelimit", "3", "--json", "-", "--no-progress"],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["stopped_by"], "time_limit", "{report}");
    assert!(cpu <= Duration::from_secs(4), "{cpu:?} of CPU");
}

/// `--timelimit` and `--memory-limit` bound the whole run, reading the inputs included: a run they
/// end before it has a report says which limit and where, exits 4 and leaves no file; `vcov verify`
/// answers UNKNOWN with the same reason.
#[test]
fn limits_hold_while_the_inputs_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("large.c");
    write_large_program(&program, 30_000);
    let p = program.to_str().unwrap();
    let out = dir.path().join("r.json");
    let o = out.to_str().unwrap();
    let aa = "assumption-automata/true.spc";
    let start = Instant::now();
    let (run, cpu) =
        vcov_within_cpu(&["coverage", p, "--aa", aa, "--json", o, "--timelimit", "0.3"], Duration::from_secs(60));
    let took = start.elapsed();
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(run.stderr, "vcov: time limit: 0.3 s passed while reading the inputs; nothing written\n");
    // Reading goes on for a second of CPU past S (the grace in which a product would still be
    // reported), however loaded the machine, and at most ten seconds by the clock; with room for
    // starting the process and the watchdog's tick.
    assert!(cpu < Duration::from_millis(1800), "{cpu:?} of CPU");
    assert!(took < Duration::from_millis(11_300), "{took:?}");
    let run = vcov_within(&["coverage", p, "--aa", aa, "--json", o, "--memory-limit", "40"], Duration::from_secs(60));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(run.stderr, "vcov: memory limit: more than 40 MiB in use while reading the inputs; nothing written\n");
    let html = dir.path().join("html");
    let run = vcov_within(
        &[
            "compare",
            p,
            "--aa",
            aa,
            "--aa",
            aa,
            "--name",
            "a",
            "--name",
            "b",
            "--html",
            html.to_str().unwrap(),
            "--timelimit",
            "0.3",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(run.stderr.starts_with("vcov: time limit: 0.3 s passed while "), "{}", run.stderr);
    assert_eq!(files_in(dir.path()), ["large.c"]);
    let run = vcov_within(&["verify", p, "--timelimit", "0.3"], Duration::from_secs(60));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "Verification result: UNKNOWN (time limit while reading the inputs)\n");
    let run = vcov_within(&["verify", p, "--memory-limit", "40"], Duration::from_secs(60));
    assert_eq!(run.stdout, "Verification result: UNKNOWN (memory limit while reading the inputs)\n");
}

/// A limit that passes while the inputs are read or composed does not lose the run when the product
/// is ready within the grace: the report has the over-approximation and says the limit stopped it.
#[test]
fn a_limit_passed_while_reading_still_gives_the_report_when_composing_ends_within_the_grace() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("medium.c");
    write_large_program(&program, 1_000);
    let out = dir.path().join("r.json");
    let run = vcov_within(
        &[
            "coverage",
            program.to_str().unwrap(),
            "--aa",
            "assumption-automata/true.spc",
            "--json",
            out.to_str().unwrap(),
            "--timelimit",
            "0.01",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j = json(&out);
    let t = &j["time_seconds"];
    let before_search = t["parse"].as_f64().unwrap() + t["cfa"].as_f64().unwrap() + t["compose"].as_f64().unwrap();
    assert!(before_search > 0.01, "the limit did not pass before the search: {t}");
    assert_eq!(j["stopped_by"], "time_limit");
    // Every function's two lines, main's and the declaration's.
    assert!(j["over_approximation"]["lines"].as_array().unwrap().len() > 2_000, "{}", j["over_approximation"]);
}

/// The CPU time a report gives is vcov's own: the kernel keeps a process's CPU time across `exec`,
/// so what ran in the process before it became vcov (cargo's child under `cargo run`, a wrapper
/// script) must not count.
#[test]
fn the_cpu_time_reported_is_what_vcov_used() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    // The shell burns CPU for a while, then becomes vcov.
    let script = format!(
        "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; exec \"$0\" coverage fixtures/e2e/calls/program.c \
         --aa fixtures/e2e/calls/aa.txt --no-progress --json {}",
        out.display()
    );
    let run =
        Command::new("sh").args(["-c", &script, env!("CARGO_BIN_EXE_vcov")]).current_dir(root()).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let t = json(&out)["time_seconds"].clone();
    let (cpu, total) = (t["cpu"].as_f64().unwrap(), t["total"].as_f64().unwrap());
    // Two threads at most read the inputs of this small run at once.
    assert!(cpu <= 2.0 * total + 0.05, "cpu {cpu} s for a run of {total} s");
}

#[test]
fn a_report_is_valid_after_a_signal_or_a_limit_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let run = vcov([
        "coverage",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--max-executions",
        "1",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j = json(&out);
    assert_eq!(j["stopped_by"], "max_executions");
    let run = vcov(["coverage", "fixtures/e2e/calls/program.c", "--aa", "fixtures/e2e/calls/aa.txt", "--json", "-"]);
    let j: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(j["stopped_by"], serde_json::Value::Null);
}

/// SIGINT and SIGTERM stop `vcov verify` too: UNKNOWN with the signal named, exit 130 / 143.
#[cfg(unix)]
#[test]
fn a_signal_stops_verify_with_unknown() {
    for (sig, code, name) in [(libc::SIGINT, 130, "SIGINT"), (libc::SIGTERM, 143, "SIGTERM")] {
        let mut run = TtyRun::start(&["verify", "fixtures/c/verify/endless_counter.c", "--dfs"]);
        // The search runs forever without the signal: wait until its progress line counts paths.
        run.wait_for(&[" paths ("], Duration::from_secs(60));
        run.signal(sig);
        let (status, stdout, screen) = run.finish(Duration::from_secs(20));
        assert_eq!(status, Some(code), "{name}: {screen}");
        assert_eq!(stdout, format!("Verification result: UNKNOWN (stopped by {name})\n"));
    }
}
