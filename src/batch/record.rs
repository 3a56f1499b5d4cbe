//! How a child's end becomes a task's record (`classify`), the record as JSON (`DIR/tasks/NAME.json`)
//! and as a row of `DIR/results.csv`, and whether a record lets a rerun skip its task (`resume`).

use serde_json::{json, Value};

use super::{ChildOptions, Limits, Mode, Task};

/// Schema of the record files.
pub const RECORD_SCHEMA_VERSION: u64 = 1;

/// How the child process ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
}

/// Why the batch killed a child.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Kill {
    /// It ran past the hard time limit.
    TimeLimit {
        /// Seconds it had run.
        after: f64,
    },
    /// Its process group's resident memory passed the hard memory limit.
    MemoryLimit {
        /// MiB measured.
        used_mb: u64,
    },
    /// The batch was stopped (SIGINT, SIGTERM) and the child did not stop in time.
    Stop,
}

/// What the runner saw of one child.
#[derive(Clone, PartialEq, Debug)]
pub struct ChildEnd {
    /// How it ended.
    pub exit: Exit,
    /// Why the batch killed it, if it did.
    pub killed_for: Option<Kill>,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
    /// Wall-clock seconds from start to end.
    pub wall_seconds: f64,
    /// CPU seconds (user + system) of the child and its reaped descendants.
    pub cpu_seconds: f64,
}

/// A finished task's status.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    /// The child gave a result (possibly stopped by its own limit, as a coverage report says).
    Done,
    /// No result: an error, a crash, an internal error, or the batch killed it at a limit.
    Failed,
}

/// The figures of a coverage report (the paper's columns).
#[derive(Clone, PartialEq, Debug)]
pub struct CoverageFigures {
    /// `# lines`.
    pub lines: u64,
    /// `Over A.`.
    pub over: u64,
    /// `Under A.`.
    pub under: u64,
    /// `# exec`.
    pub executions: u64,
    /// `Bug?`.
    pub bug: bool,
    /// Every other line of the over-approximation is proven not coverable.
    pub exact: bool,
    /// A limit stopped the search.
    pub interrupted: bool,
    /// What stopped it.
    pub stopped_by: Option<String>,
    /// The property's status inside the explored region (`property.status` of the report; `None`
    /// in records of vcov versions before it).
    pub property: Option<String>,
}

/// A verification result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    /// `TRUE`.
    True,
    /// `FALSE(unreach-call)`.
    False,
    /// `UNKNOWN`, or no answer (a failed task).
    Unknown,
}

impl Answer {
    /// `true`, `false` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Answer::True => "true",
            Answer::False => "false",
            Answer::Unknown => "unknown",
        }
    }
}

/// The SV-COMP 2016 score of `answer` for a task whose expected verdict is `expected` (true: the
/// property holds): +2 a correct TRUE, +1 a correct FALSE, -16 a wrong FALSE (false alarm), -32 a
/// wrong TRUE (wrong proof), 0 unknown. `None` when the expected verdict is not known.
pub fn sv_comp_2016_score(answer: Answer, expected: Option<bool>) -> Option<i32> {
    let expected = expected?;
    Some(match (answer, expected) {
        (Answer::Unknown, _) => 0,
        (Answer::True, true) => 2,
        (Answer::False, false) => 1,
        (Answer::False, true) => -16,
        (Answer::True, false) => -32,
    })
}

/// The result of one finished task.
#[derive(Clone, PartialEq, Debug)]
pub struct TaskRecord {
    /// The task's name.
    pub name: String,
    /// Its mode.
    pub mode: Mode,
    /// `Task::key` when it ran.
    pub key: String,
    /// Done or failed.
    pub status: Status,
    /// Why it failed, why the answer is UNKNOWN, or why the coverage is not exact.
    pub reason: Option<String>,
    /// The child's exit code, when it exited.
    pub exit_code: Option<i32>,
    /// The signal that ended the child, when one did.
    pub signal: Option<i32>,
    /// Wall-clock seconds.
    pub wall_seconds: f64,
    /// CPU seconds of the child.
    pub cpu_seconds: f64,
    /// Coverage figures (a done coverage task).
    pub coverage: Option<CoverageFigures>,
    /// The answer (verify; `Unknown` for a failed task).
    pub answer: Option<Answer>,
    /// The expected verdict (verify).
    pub expected: Option<bool>,
    /// The child's JSON report (a done coverage task), kept whole in the record file.
    pub report: Option<Value>,
}

/// The record of `task` ended as `end`, or `None` when a signal stopped it (SIGINT or SIGTERM,
/// exit code 130 or 143, or the batch's stop): such a task is not finished and runs again.
pub fn classify(task: &Task, limits: &Limits, opts: &ChildOptions, end: &ChildEnd) -> Option<TaskRecord> {
    let mode = task.mode();
    let mut rec = TaskRecord {
        name: task.name.clone(),
        mode,
        key: task.key(limits, opts),
        status: Status::Failed,
        reason: None,
        exit_code: None,
        signal: None,
        wall_seconds: end.wall_seconds,
        cpu_seconds: end.cpu_seconds,
        coverage: None,
        answer: (mode == Mode::Verify).then_some(Answer::Unknown),
        expected: task.expected(),
        report: None,
    };
    match end.exit {
        Exit::Code(c) => rec.exit_code = Some(c),
        Exit::Signal(s) => rec.signal = Some(s),
    }
    let last_err = last_line(&end.stderr);
    let reason = match (end.killed_for, end.exit) {
        (Some(Kill::Stop), _) | (None, Exit::Code(130 | 143) | Exit::Signal(2 | 15)) => return None,
        (Some(Kill::TimeLimit { after }), _) => format!(
            "time limit: killed after {after:.1} s (--timelimit {} s did not stop it)",
            limits.time_limit.unwrap_or(0.0)
        ),
        (Some(Kill::MemoryLimit { used_mb }), _) => format!(
            "memory limit: killed using {used_mb} MiB (--memory-limit {} MiB did not stop it)",
            limits.memory_limit_mb
        ),
        (None, Exit::Signal(s)) => format!("crashed: killed by signal {s} ({}){}", signal_name(s), with(&last_err)),
        (None, Exit::Code(0)) => match read_result(mode, &end.stdout) {
            Ok(Read::Coverage(figures, report)) => {
                rec.status = Status::Done;
                // Why the result is not exact, as the report says it.
                if !figures.exact {
                    rec.reason = report.get("inexact_reason").and_then(Value::as_str).map(str::to_string);
                }
                rec.coverage = Some(figures);
                rec.report = Some(report);
                return Some(rec);
            }
            Ok(Read::Verify(answer, why)) => {
                rec.status = Status::Done;
                rec.answer = Some(answer);
                rec.reason = why;
                return Some(rec);
            }
            Err(e) => format!("no result: {e}"),
        },
        (None, Exit::Code(2)) => format!("error{}", with(&last_err)),
        (None, Exit::Code(3)) => format!("internal error{}", with(&last_err)),
        // vcov's own limits ended the run before it had a report: the line says which and where.
        (None, Exit::Code(4)) => last_err
            .as_deref()
            .map(|l| l.strip_prefix("vcov: ").unwrap_or(l).to_string())
            .unwrap_or_else(|| "a limit ended the run before it had a report".into()),
        (None, Exit::Code(c)) => format!("exit code {c}{}", with(&last_err)),
    };
    rec.reason = Some(reason);
    Some(rec)
}

enum Read {
    Coverage(CoverageFigures, Value),
    Verify(Answer, Option<String>),
}

/// The result in a child's standard output: the JSON report of `vcov coverage --json -`, or the
/// `Verification result:` line of `vcov verify`.
fn read_result(mode: Mode, stdout: &str) -> Result<Read, String> {
    match mode {
        Mode::Coverage => {
            let report: Value =
                serde_json::from_str(stdout.trim()).map_err(|e| format!("the report is not JSON ({e})"))?;
            let n_lines = |v: &Value| v.as_array().map(|a| a.len() as u64);
            let figures = (|| {
                Some(CoverageFigures {
                    lines: n_lines(report.get("lines_to_cover")?)?,
                    over: n_lines(report.get("over_approximation")?.get("lines")?)?,
                    under: n_lines(report.get("under_approximation")?.get("lines")?)?,
                    executions: report.get("under_approximation")?.get("executions")?.as_u64()?,
                    bug: report.get("bug_found")?.as_bool()?,
                    exact: report.get("exact")?.as_bool()?,
                    interrupted: report.get("interrupted")?.as_bool()?,
                    stopped_by: report.get("stopped_by").and_then(Value::as_str).map(str::to_string),
                    property: report
                        .get("property")
                        .and_then(|p| p.get("status"))
                        .and_then(Value::as_str)
                        .map(str::to_string),
                })
            })()
            .ok_or("the report lacks the coverage figures")?;
            Ok(Read::Coverage(figures, report))
        }
        Mode::Verify => {
            let line = stdout
                .lines()
                .find_map(|l| l.strip_prefix("Verification result: "))
                .ok_or("no `Verification result:` line")?
                .trim();
            if line == "TRUE" {
                Ok(Read::Verify(Answer::True, None))
            } else if line.starts_with("FALSE") {
                Ok(Read::Verify(Answer::False, None))
            } else if let Some(rest) = line.strip_prefix("UNKNOWN") {
                let why = rest.trim().trim_start_matches('(').trim_end_matches(')').trim();
                Ok(Read::Verify(Answer::Unknown, Some(why.to_string()).filter(|w| !w.is_empty())))
            } else {
                Err(format!("unknown verdict `{line}`"))
            }
        }
    }
}

fn last_line(text: &str) -> Option<String> {
    let line = text.lines().rev().map(str::trim).find(|l| !l.is_empty())?;
    Some(line.chars().take(300).collect())
}

fn with(line: &Option<String>) -> String {
    line.as_ref().map(|l| format!(": {l}")).unwrap_or_default()
}

/// The usual name of a Linux signal.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => "signal",
    }
}

impl TaskRecord {
    /// The record file's JSON.
    pub fn to_json(&self) -> Value {
        let coverage = self.coverage.as_ref().map(|c| {
            json!({"lines": c.lines, "over": c.over, "under": c.under, "executions": c.executions,
                   "bug": c.bug, "exact": c.exact, "interrupted": c.interrupted, "stopped_by": c.stopped_by,
                   "property": c.property})
        });
        json!({
            "schema_version": RECORD_SCHEMA_VERSION,
            "name": self.name,
            "mode": self.mode.name(),
            "key": self.key,
            "status": match self.status { Status::Done => "done", Status::Failed => "failed" },
            "reason": self.reason,
            "exit_code": self.exit_code,
            "signal": self.signal,
            "wall_seconds": round3(self.wall_seconds),
            "cpu_seconds": round3(self.cpu_seconds),
            "coverage": coverage,
            "answer": self.answer.map(Answer::name),
            "expected": self.expected,
            "score": self.answer.and_then(|a| sv_comp_2016_score(a, self.expected)),
            "report": self.report,
        })
    }

    /// Reads a record file's JSON back; `None` when it is not a record of this schema.
    pub fn from_json(v: &Value) -> Option<TaskRecord> {
        if v.get("schema_version")?.as_u64()? != RECORD_SCHEMA_VERSION {
            return None;
        }
        let str_of = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let coverage = match v.get("coverage") {
            Some(Value::Null) | None => None,
            Some(c) => Some(CoverageFigures {
                lines: c.get("lines")?.as_u64()?,
                over: c.get("over")?.as_u64()?,
                under: c.get("under")?.as_u64()?,
                executions: c.get("executions")?.as_u64()?,
                bug: c.get("bug")?.as_bool()?,
                exact: c.get("exact")?.as_bool()?,
                interrupted: c.get("interrupted")?.as_bool()?,
                stopped_by: c.get("stopped_by").and_then(Value::as_str).map(str::to_string),
                property: c.get("property").and_then(Value::as_str).map(str::to_string),
            }),
        };
        Some(TaskRecord {
            name: str_of("name")?,
            mode: match v.get("mode")?.as_str()? {
                "coverage" => Mode::Coverage,
                "verify" => Mode::Verify,
                _ => return None,
            },
            key: str_of("key")?,
            status: match v.get("status")?.as_str()? {
                "done" => Status::Done,
                "failed" => Status::Failed,
                _ => return None,
            },
            reason: str_of("reason"),
            exit_code: v.get("exit_code").and_then(Value::as_i64).map(|c| c as i32),
            signal: v.get("signal").and_then(Value::as_i64).map(|c| c as i32),
            wall_seconds: v.get("wall_seconds")?.as_f64()?,
            cpu_seconds: v.get("cpu_seconds")?.as_f64()?,
            coverage,
            answer: match v.get("answer").and_then(Value::as_str) {
                None => None,
                Some("true") => Some(Answer::True),
                Some("false") => Some(Answer::False),
                Some("unknown") => Some(Answer::Unknown),
                Some(_) => return None,
            },
            expected: v.get("expected").and_then(Value::as_bool),
            report: v.get("report").filter(|r| !r.is_null()).cloned(),
        })
    }

    /// The SV-COMP 2016 score (verify, expected verdict known).
    pub fn score(&self) -> Option<i32> {
        self.answer.and_then(|a| sv_comp_2016_score(a, self.expected))
    }

    /// `correct`, `wrong` or `unknown` (verify, expected verdict known).
    pub fn correctness(&self) -> Option<&'static str> {
        let expected = self.expected?;
        Some(match self.answer? {
            Answer::Unknown => "unknown",
            Answer::True if expected => "correct",
            Answer::False if !expected => "correct",
            _ => "wrong",
        })
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// What a rerun does with a task.
#[derive(Clone, PartialEq, Debug)]
pub enum Resume {
    /// No (usable) record: run it.
    Run,
    /// A record made with other inputs or limits: run it again.
    Stale,
    /// Finished with the same key: keep its record.
    Skip(Box<TaskRecord>),
}

/// Whether `task` runs, given the text of its record file (if there is one) and `--force`.
pub fn resume(task: &Task, limits: &Limits, opts: &ChildOptions, record_text: Option<&str>, force: bool) -> Resume {
    let Some(text) = record_text else { return Resume::Run };
    let Some(rec) = serde_json::from_str::<Value>(text).ok().as_ref().and_then(TaskRecord::from_json) else {
        return Resume::Run;
    };
    if rec.key != task.key(limits, opts) || rec.name != task.name {
        Resume::Stale
    } else if force {
        Resume::Run
    } else {
        Resume::Skip(Box::new(rec))
    }
}

/// The columns of `results.csv`: for coverage, the paper's (as `vcov coverage --csv`) then the
/// batch's; for verify, the answer, its correctness and score, then the batch's.
pub fn csv_header(mode: Mode) -> Vec<&'static str> {
    let mut h: Vec<&str> = match mode {
        Mode::Coverage => crate::report::CSV_HEADER.to_vec(),
        Mode::Verify => vec!["instance", "expected", "result", "correct", "score", "cpu_seconds"],
    };
    h.extend(["wall_seconds", "status", "reason", "exit_code"]);
    h
}

/// `results.csv` for `records` (in the batch's task order).
pub fn results_csv(mode: Mode, records: &[&TaskRecord]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(csv_header(mode));
    for r in records {
        let mut row: Vec<String> = vec![r.name.clone()];
        match mode {
            Mode::Coverage => {
                let report = r.report.as_ref().and_then(|v| serde_json::from_value(v.clone()).ok());
                row = crate::report::csv_row(report.as_ref(), &r.name, r.cpu_seconds);
            }
            Mode::Verify => row.extend([
                r.expected.map(|e| e.to_string()).unwrap_or_default(),
                r.answer.unwrap_or(Answer::Unknown).name().to_string(),
                r.correctness().unwrap_or("").to_string(),
                r.score().map(|s| s.to_string()).unwrap_or_default(),
                format!("{:.2}", r.cpu_seconds),
            ]),
        }
        row.extend([
            format!("{:.2}", r.wall_seconds),
            match r.status {
                Status::Done => "done",
                Status::Failed => "failed",
            }
            .to_string(),
            r.reason.clone().unwrap_or_default(),
            r.exit_code.map(|c| c.to_string()).unwrap_or_default(),
        ]);
        let _ = w.write_record(row);
    }
    w.into_inner().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Inputs;

    fn verify_task(expected: Option<bool>) -> Task {
        Task {
            name: "t".into(),
            inputs: Inputs::Verify { task_file: Some("t.yml".into()), program: None, data_model: None, expected },
        }
    }

    fn cov_task() -> Task {
        Task { name: "c".into(), inputs: Inputs::Coverage { program: "p.c".into(), automaton: "a.txt".into() } }
    }

    fn end(exit: Exit, stdout: &str, stderr: &str) -> ChildEnd {
        ChildEnd {
            exit,
            killed_for: None,
            stdout: stdout.into(),
            stderr: stderr.into(),
            wall_seconds: 1.0,
            cpu_seconds: 0.5,
        }
    }

    fn check(task: &Task, end: &ChildEnd) -> Option<(Status, Option<String>)> {
        classify(task, &Limits { time_limit: Some(2.0), memory_limit_mb: 100 }, &ChildOptions::default(), end)
            .map(|r| (r.status, r.reason))
    }

    #[test]
    fn the_score_is_sv_comp_2016() {
        // The same table as bench/verify.py's `score`.
        assert_eq!(sv_comp_2016_score(Answer::True, Some(true)), Some(2));
        assert_eq!(sv_comp_2016_score(Answer::False, Some(false)), Some(1));
        assert_eq!(sv_comp_2016_score(Answer::False, Some(true)), Some(-16));
        assert_eq!(sv_comp_2016_score(Answer::True, Some(false)), Some(-32));
        assert_eq!(sv_comp_2016_score(Answer::Unknown, Some(false)), Some(0));
        assert_eq!(sv_comp_2016_score(Answer::True, None), None);
    }

    #[test]
    fn verdict_lines_and_failures() {
        let t = verify_task(Some(false));
        assert_eq!(
            check(&t, &end(Exit::Code(0), "Verification result: FALSE(unreach-call)\n", "")),
            Some((Status::Done, None))
        );
        let r = classify(
            &t,
            &Limits::default(),
            &ChildOptions::default(),
            &end(Exit::Code(0), "Verification result: TRUE\n", ""),
        )
        .unwrap();
        assert_eq!((r.answer, r.score(), r.correctness()), (Some(Answer::True), Some(-32), Some("wrong")));
        assert_eq!(
            check(&t, &end(Exit::Code(0), "Verification result: UNKNOWN (time limit)\n", "")),
            Some((Status::Done, Some("time limit".into())))
        );
        assert_eq!(
            check(&t, &end(Exit::Code(2), "", "warning\nvcov: t.yml:1:1: bad\n")),
            Some((Status::Failed, Some("error: vcov: t.yml:1:1: bad".into())))
        );
        assert_eq!(
            check(&t, &end(Exit::Code(3), "", "vcov: internal error: boom\n")),
            Some((Status::Failed, Some("internal error: vcov: internal error: boom".into())))
        );
        assert_eq!(
            check(
                &cov_task(),
                &end(Exit::Code(4), "", "vcov: time limit: 2 s passed while reading the inputs; nothing written\n")
            ),
            Some((Status::Failed, Some("time limit: 2 s passed while reading the inputs; nothing written".into())))
        );
        assert_eq!(
            check(&t, &end(Exit::Signal(11), "", "")),
            Some((Status::Failed, Some("crashed: killed by signal 11 (SIGSEGV)".into())))
        );
        assert_eq!(
            check(&t, &end(Exit::Code(0), "nothing\n", "")),
            Some((Status::Failed, Some("no result: no `Verification result:` line".into())))
        );
        let failed = classify(&t, &Limits::default(), &ChildOptions::default(), &end(Exit::Code(2), "", "")).unwrap();
        assert_eq!((failed.answer, failed.score()), (Some(Answer::Unknown), Some(0)));
    }

    #[test]
    fn signals_leave_the_task_unfinished_and_limits_fail_it() {
        let t = cov_task();
        for e in [Exit::Code(130), Exit::Code(143), Exit::Signal(2), Exit::Signal(15)] {
            assert_eq!(check(&t, &end(e, "", "")), None, "{e:?}");
        }
        let mut stopped = end(Exit::Signal(9), "", "");
        stopped.killed_for = Some(Kill::Stop);
        assert_eq!(check(&t, &stopped), None);
        let mut slow = end(Exit::Signal(9), "", "");
        slow.killed_for = Some(Kill::TimeLimit { after: 7.25 });
        assert_eq!(
            check(&t, &slow),
            Some((Status::Failed, Some("time limit: killed after 7.2 s (--timelimit 2 s did not stop it)".into())))
        );
        let mut big = end(Exit::Signal(9), "", "");
        big.killed_for = Some(Kill::MemoryLimit { used_mb: 400 });
        assert_eq!(
            check(&t, &big),
            Some((
                Status::Failed,
                Some("memory limit: killed using 400 MiB (--memory-limit 100 MiB did not stop it)".into())
            ))
        );
    }

    const REPORT: &str = r#"{"lines_to_cover": [1, 2, 3], "over_approximation": {"lines": [1, 2]},
        "under_approximation": {"lines": [1], "executions": 1}, "bug_found": false, "exact": true,
        "interrupted": false, "stopped_by": null, "property": {"status": "none_in_region"}}"#;

    #[test]
    fn coverage_reports_round_trip_through_the_record() {
        let t = cov_task();
        let limits = Limits::default();
        let rec = classify(&t, &limits, &ChildOptions::default(), &end(Exit::Code(0), REPORT, "")).unwrap();
        let c = rec.coverage.clone().unwrap();
        assert_eq!((c.lines, c.over, c.under, c.executions, c.bug, c.exact), (3, 2, 1, 1, false, true));
        assert_eq!(c.property.as_deref(), Some("none_in_region"));
        let text = rec.to_json().to_string();
        assert_eq!(TaskRecord::from_json(&serde_json::from_str(&text).unwrap()), Some(rec.clone()));
        assert_eq!(resume(&t, &limits, &ChildOptions::default(), Some(&text), false), Resume::Skip(Box::new(rec)));
        assert_eq!(resume(&t, &limits, &ChildOptions::default(), Some(&text), true), Resume::Run);
        assert_eq!(resume(&t, &limits, &ChildOptions::default(), None, false), Resume::Run);
        assert_eq!(resume(&t, &limits, &ChildOptions::default(), Some("{\"half"), false), Resume::Run);
        let other = Limits { time_limit: Some(1.0), ..limits };
        assert_eq!(resume(&t, &other, &ChildOptions::default(), Some(&text), false), Resume::Stale);
        assert_eq!(
            check(&t, &end(Exit::Code(0), "{}", "")),
            Some((Status::Failed, Some("no result: the report lacks the coverage figures".into())))
        );
    }

    #[test]
    fn an_inexact_coverage_says_why_in_the_record_and_the_table() {
        let report = r#"{"lines_to_cover": [1, 2, 3], "over_approximation": {"lines": [1, 2]},
            "under_approximation": {"lines": [1], "executions": 1}, "bug_found": false, "exact": false,
            "inexact_reason": "the search was stopped before it ended (time limit)",
            "interrupted": true, "stopped_by": "time_limit", "property": {"status": "not_decided"}}"#;
        let rec = classify(&cov_task(), &Limits::default(), &ChildOptions::default(), &end(Exit::Code(0), report, ""))
            .unwrap();
        assert_eq!(rec.status, Status::Done);
        assert_eq!(rec.reason.as_deref(), Some("the search was stopped before it ended (time limit)"));
        let csv = String::from_utf8(results_csv(Mode::Coverage, &[&rec])).unwrap();
        assert!(
            csv.ends_with(
                ",false,true,time_limit,not_decided,1.00,done,the search was stopped before it ended (time limit),0\n"
            ),
            "{csv}"
        );
    }

    #[test]
    fn results_table_rows() {
        let limits = Limits::default();
        let done = classify(&cov_task(), &limits, &ChildOptions::default(), &end(Exit::Code(0), REPORT, "")).unwrap();
        let failed = classify(&cov_task(), &limits, &ChildOptions::default(), &end(Exit::Code(3), "", "boom")).unwrap();
        let csv = String::from_utf8(results_csv(Mode::Coverage, &[&done, &failed])).unwrap();
        assert_eq!(
            csv,
            "instance,lines,over,under,executions,bug,cpu_seconds,exact,interrupted,stopped_by,property,wall_seconds,status,reason,exit_code\n\
             c,3,2,1,1,no,0.50,true,false,,none_in_region,1.00,done,,0\n\
             c,,,,,,0.50,,,,,1.00,failed,internal error: boom,3\n"
        );
        let v = classify(
            &verify_task(Some(true)),
            &limits,
            &ChildOptions::default(),
            &end(Exit::Code(0), "Verification result: TRUE\n", ""),
        )
        .unwrap();
        let csv = String::from_utf8(results_csv(Mode::Verify, &[&v])).unwrap();
        assert_eq!(
            csv,
            "instance,expected,result,correct,score,cpu_seconds,wall_seconds,status,reason,exit_code\n\
             t,true,true,correct,2,0.50,1.00,done,,0\n"
        );
    }
}
