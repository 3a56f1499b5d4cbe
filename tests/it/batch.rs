//! `vcov batch`: coverage over a folder of CPAchecker-like output folders, verification over task
//! definitions and tables, resuming, `--force`, tasks that crash, panic, hang or eat memory (through
//! the stand-in of `fixtures/batch/stand-in-vcov.sh`), and SIGINT midway.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{json, root, Run};

/// Runs `vcov batch ARGS` in the crate root; the stand-in finds the real vcov in `VCOV_REAL`.
fn batch(args: &[&str]) -> Run {
    let out = batch_command(args).output().expect("vcov runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn batch_command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vcov"));
    cmd.arg("batch")
        .args(args)
        .current_dir(root())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("VCOV_REAL", env!("CARGO_BIN_EXE_vcov"));
    cmd
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).expect("results.csv");
    text.lines().map(|l| l.split(',').map(str::to_string).collect()).collect()
}

fn record(out: &Path, name: &str) -> serde_json::Value {
    json(&out.join("tasks").join(format!("{name}.json")))
}

#[test]
fn coverage_over_a_folder_resumes_and_reruns_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let run = batch(&["fixtures/batch/coverage", "--out", o, "--jobs", "2", "--timelimit", "60", "--no-progress"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The paper's columns, one row per folder, in name order.
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(
        lines[0].starts_with("instance") && lines[0].contains("Over A.") && lines[0].ends_with("exact"),
        "{}",
        run.stdout
    );
    let row =
        |name: &str| *lines.iter().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}: {}", run.stdout));
    let cells = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(cells(row("calls"))[..8], ["calls", "12", "10", "(", "83.3%)", "10", "(", "83.3%)"]);
    assert!(run.stdout.contains("3 tasks: 3 done (3 exact, 0 with a bug), 0 failed, 0 not finished"), "{}", run.stdout);
    let rows = csv_rows(&out.join("results.csv"));
    assert_eq!(rows[0][..4], ["instance", "lines", "over", "under"]);
    let names: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, ["branches_else", "branches_then", "calls"]);
    assert_eq!(rows[3][1..4], ["12", "10", "10"]);
    let rec = record(&out, "calls");
    assert_eq!(rec["status"], "done");
    assert_eq!(rec["coverage"]["over"], 10);
    assert_eq!(rec["report"]["under_approximation"]["executions"], 2);
    // The report is kept whole, as the child wrote it; the record's keys are in name order.
    assert_eq!(rec["report"], json(&out.join("logs/calls.out")));
    let text = std::fs::read_to_string(out.join("tasks/calls.json")).unwrap();
    assert_eq!(text, serde_json::to_string_pretty(&rec).unwrap() + "\n");

    // A rerun keeps the records it finds: mark one to see that it is not rewritten.
    let path = out.join("tasks/calls.json");
    let mut marked = rec.clone();
    marked["wall_seconds"] = serde_json::json!(4242.0);
    std::fs::write(&path, serde_json::to_string(&marked).unwrap()).unwrap();
    let args = ["fixtures/batch/coverage", "--out", o, "--jobs", "2", "--timelimit", "60", "--no-progress"];
    let again = batch(&args);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stderr.contains("skipped 3 finished task(s) of 3"), "{}", again.stderr);
    assert_eq!(record(&out, "calls")["wall_seconds"], 4242.0);
    assert!(std::fs::read_to_string(out.join("results.csv")).unwrap().contains(",4242.00,done,"));
    assert!(again.stdout.contains("3 tasks: 3 done"), "{}", again.stdout);

    // --force runs every task again.
    let forced = batch(&[&args[..], &["--force"]].concat());
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(!forced.stderr.contains("skipped"), "{}", forced.stderr);
    assert_ne!(record(&out, "calls")["wall_seconds"], 4242.0);

    // Other limits make the records stale.
    let other = batch(&["fixtures/batch/coverage", "--out", o, "--timelimit", "30", "--no-progress"]);
    assert!(other.stderr.contains("3 task(s) run again"), "{}", other.stderr);
}

#[test]
fn verify_over_task_definitions_and_a_tasks_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("yml");
    let run = batch(&["fixtures/c/verify", "--mode", "verify", "--out", out.to_str().unwrap(), "--no-progress"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("5 tasks: 5 correct (2 true, 3 false), 0 wrong"), "{}", run.stdout);
    assert!(run.stdout.contains("SV-COMP 2016 score: 7 (5 tasks with an expected verdict)"), "{}", run.stdout);
    assert_eq!(record(&out, "heap_list")["answer"], "true");
    assert_eq!(record(&out, "bug_call")["score"], 1);
    // A task definition of format 1.0 (ILP32, which makes its program FALSE).
    assert_eq!(record(&out, "long_size_1_0")["answer"], "false");

    // The columns of svcomp/tasks.csv, paths relative to the table; a row without task definition
    // gives the program and its data model.
    let out = dir.path().join("csv");
    let run = batch(&["fixtures/batch/verify-tasks.csv", "--mode", "verify", "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("SV-COMP 2016 score: 5"), "{}", run.stdout);
    let rec = record(&out, "heap_list");
    assert_eq!(rec["key"], "verify fixtures/batch/../c/verify/heap_list.c --64 --memory-limit 6144");
    let rows = csv_rows(&out.join("results.csv"));
    assert_eq!(rows[0][..5], ["instance", "expected", "result", "correct", "score"]);
    assert_eq!(rows[1][..5], ["bug_call", "false", "false", "correct", "1"]);
}

#[test]
fn crashes_panics_hangs_and_memory_hogs_fail_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let start = Instant::now();
    let run = batch(&[
        "fixtures/batch/faults.csv",
        "--out",
        out.to_str().unwrap(),
        "--vcov-exe",
        "fixtures/batch/stand-in-vcov.sh",
        "--timelimit",
        "1",
        "--memory-limit",
        "64",
        "--jobs",
        "2",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The hang is killed at 1 s + 5 s + 10%, not at its own 600 s.
    assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
    assert_eq!(record(&out, "ok")["status"], "done");
    let reason = |name: &str| {
        let rec = record(&out, name);
        assert_eq!(rec["status"], "failed", "{name}: {rec}");
        rec["reason"].as_str().unwrap().to_string()
    };
    assert_eq!(reason("crash"), "crashed: killed by signal 11 (SIGSEGV)");
    assert_eq!(reason("panic"), "internal error: vcov: internal error: a panic of the stand-in");
    assert!(reason("hang").starts_with("time limit: killed after 6."), "{}", reason("hang"));
    let memory = reason("memory");
    assert!(
        memory.starts_with("memory limit: killed using ")
            && memory.ends_with("(--memory-limit 64 MiB did not stop it)"),
        "{memory}"
    );
    assert!(run.stdout.contains("5 tasks: 1 done (1 exact, 0 with a bug), 4 failed, 0 not finished"), "{}", run.stdout);
    assert!(run.stderr.contains("hang: failed: time limit"), "{}", run.stderr);
    // Failed tasks are finished: a rerun skips them.
    let again = batch(&[
        "fixtures/batch/faults.csv",
        "--out",
        out.to_str().unwrap(),
        "--vcov-exe",
        "fixtures/batch/stand-in-vcov.sh",
        "--timelimit",
        "1",
        "--memory-limit",
        "64",
    ]);
    assert!(again.stderr.contains("skipped 5 finished task(s) of 5"), "{}", again.stderr);
}

#[test]
fn sigint_midway_then_a_rerun_finishes_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let args = ["fixtures/batch/slow.csv", "--out", o, "--vcov-exe", "fixtures/batch/stand-in-vcov.sh", "--jobs", "1"];
    let mut child = batch_command(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // Each stand-in task sleeps a second first: once the first record is written, the second task
    // is running and the others wait.
    let first = out.join("tasks/slow1.json");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !first.exists() {
        assert!(Instant::now() < deadline, "the first task never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a plain system call on our own child.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    let mut stdout = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("stopped by SIGINT: 3 task(s) not finished"), "{stdout}");
    assert!(!out.join("tasks/slow2.json").exists(), "a task stopped by the signal is not finished");
    assert_eq!(csv_rows(&out.join("results.csv")).len(), 2, "the header and the finished task");

    let again = batch(&args);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert!(again.stderr.contains("skipped 1 finished task(s) of 4"), "{}", again.stderr);
    assert!(again.stdout.contains("4 tasks: 4 done"), "{}", again.stdout);
    for n in 1..=4 {
        assert_eq!(record(&out, &format!("slow{n}"))["status"], "done");
    }
}

#[test]
fn bad_inputs_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("out");
    let run = batch(&["fixtures/e2e", "--out", o.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no tasks found in fixtures/e2e"), "{}", run.stderr);
    let run = batch(&["fixtures/c/verify/bug_call.c", "--out", o.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("fixtures/c/verify/bug_call.c: not a folder, a CSV table"), "{}", run.stderr);
}
