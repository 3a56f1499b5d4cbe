//! How a child's end becomes a task's record (`classify`), the record as JSON (`DIR/tasks/NAME.json`)
//! and as a row of `DIR/results.csv`, and whether a record lets a rerun skip its task (`resume`).
//!
//! Invariant: what a child says is read back through the types that wrote it: the coverage report
//! as `report::CoverageReport`, the verdict as `verify::Verdict`, the exit code as
//! `base::ExitStatus`; the record file is read back through the serde structs that write it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Limits, Mode, Task};
use crate::base::{signal_name, ExitStatus, SIGINT, SIGTERM};
use crate::report::CoverageReport;
use crate::verify::{Verdict, VerdictKind};

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

/// A finished task's status (its serde name is the record's word).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The child gave a result (possibly stopped by its own limit, as a coverage report says).
    Done,
    /// No result: an error, a crash, an internal error, or the batch killed it at a limit.
    Failed,
}

impl Status {
    /// `done` or `failed`, as in the record and in `results.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Done => "done",
            Status::Failed => "failed",
        }
    }
}

/// The figures of a coverage report (the paper's columns); the field names are the record's.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
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

impl CoverageFigures {
    /// The figures of `report`.
    pub fn of(report: &CoverageReport) -> CoverageFigures {
        let n = |lines: &[u32]| lines.len() as u64;
        CoverageFigures {
            lines: n(&report.lines_to_cover),
            over: n(&report.over_approximation.lines),
            under: n(&report.under_approximation.lines),
            executions: report.under_approximation.executions as u64,
            bug: report.bug_found,
            exact: report.exact,
            interrupted: report.interrupted,
            stopped_by: report.stopped_by.clone(),
            property: Some(report.property.status.clone()),
        }
    }
}

/// `true`, `false` or `unknown`: a verification answer as the records and `results.csv` say it.
pub fn answer_name(answer: VerdictKind) -> &'static str {
    match answer {
        VerdictKind::True => "true",
        VerdictKind::False => "false",
        VerdictKind::Unknown => "unknown",
    }
}

/// The SV-COMP 2016 score of `answer` for a task whose expected verdict is `expected` (true: the
/// property holds): +2 a correct TRUE, +1 a correct FALSE, -16 a wrong FALSE (false alarm), -32 a
/// wrong TRUE (wrong proof), 0 unknown. `None` when the expected verdict is not known.
pub fn sv_comp_2016_score(answer: VerdictKind, expected: Option<bool>) -> Option<i32> {
    let expected = expected?;
    Some(match (answer, expected) {
        (VerdictKind::Unknown, _) => 0,
        (VerdictKind::True, true) => 2,
        (VerdictKind::False, false) => 1,
        (VerdictKind::False, true) => -16,
        (VerdictKind::True, false) => -32,
    })
}

/// The result of one finished task; its fields are the record file's (`RecordFile` adds the
/// schema version and the score).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct TaskRecord {
    /// The task's name.
    pub name: String,
    /// Its mode.
    pub mode: Mode,
    /// `batch::key` of the child's arguments when it ran.
    pub key: String,
    /// Done or failed.
    pub status: Status,
    /// Why it failed, why the answer is UNKNOWN, or why the coverage is not exact.
    pub reason: Option<String>,
    /// The child's exit code, when it exited.
    pub exit_code: Option<i32>,
    /// The signal that ended the child, when one did.
    pub signal: Option<i32>,
    /// Wall-clock seconds (written to the millisecond).
    #[serde(serialize_with = "to_the_millisecond")]
    pub wall_seconds: f64,
    /// CPU seconds of the child (written to the millisecond).
    #[serde(serialize_with = "to_the_millisecond")]
    pub cpu_seconds: f64,
    /// Coverage figures (a done coverage task).
    pub coverage: Option<CoverageFigures>,
    /// The answer (verify; `Unknown` for a failed task).
    #[serde(with = "answer_word")]
    pub answer: Option<VerdictKind>,
    /// The expected verdict (verify).
    pub expected: Option<bool>,
    /// The child's JSON report (a done coverage task), kept whole in the record file.
    pub report: Option<Box<CoverageReport>>,
}

/// The record file: the record with its schema version and score.
#[derive(Serialize)]
struct RecordFile<'a> {
    schema_version: u64,
    #[serde(flatten)]
    record: &'a TaskRecord,
    score: Option<i32>,
}

/// The schema of a record file, read before the record (which is read without `RecordFile`: serde
/// reads the number keys of the report's maps only outside a flattened struct; the score is
/// computed again).
#[derive(Deserialize)]
struct RecordSchema {
    schema_version: u64,
}

fn to_the_millisecond<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((x * 1000.0).round() / 1000.0)
}

/// `TaskRecord::answer` as `answer_name` says it.
mod answer_word {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    use super::{answer_name, VerdictKind};

    pub fn serialize<S: Serializer>(answer: &Option<VerdictKind>, s: S) -> Result<S::Ok, S::Error> {
        match answer {
            Some(a) => s.serialize_some(answer_name(*a)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<VerdictKind>, D::Error> {
        let Some(word) = Option::<String>::deserialize(d)? else { return Ok(None) };
        [VerdictKind::True, VerdictKind::False, VerdictKind::Unknown]
            .into_iter()
            .find(|a| answer_name(*a) == word)
            .map(Some)
            .ok_or_else(|| D::Error::custom(format!("unknown answer `{word}`")))
    }
}

/// The record of `task` ended as `end`, its child's arguments having had the key `key`, or `None`
/// when a signal stopped it (SIGINT or SIGTERM, exit code 130 or 143, or the batch's stop): such a
/// task is not finished and runs again.
pub fn classify(task: &Task, key: &str, limits: &Limits, end: &ChildEnd) -> Option<TaskRecord> {
    let mode = task.mode();
    let mut rec = TaskRecord {
        name: task.name.clone(),
        mode,
        key: key.to_string(),
        status: Status::Failed,
        reason: None,
        exit_code: None,
        signal: None,
        wall_seconds: end.wall_seconds,
        cpu_seconds: end.cpu_seconds,
        coverage: None,
        answer: (mode == Mode::Verify).then_some(VerdictKind::Unknown),
        expected: task.expected(),
        report: None,
    };
    match end.exit {
        Exit::Code(c) => rec.exit_code = Some(c),
        Exit::Signal(s) => rec.signal = Some(s),
    }
    let last_err = last_line(&end.stderr);
    let reason = match (end.killed_for, end.exit) {
        (Some(Kill::Stop), _) | (None, Exit::Signal(SIGINT | SIGTERM)) => return None,
        (Some(Kill::TimeLimit { after }), _) => format!(
            "time limit: killed after {after:.1} s (--timelimit {} s did not stop it)",
            limits.time_limit.unwrap_or(0.0)
        ),
        (Some(Kill::MemoryLimit { used_mb }), _) => format!(
            "memory limit: killed using {used_mb} MiB (--memory-limit {} MiB did not stop it)",
            limits.memory_limit_mb
        ),
        (None, Exit::Signal(s)) => format!("crashed: killed by {}{}", signal_words(s), with(&last_err)),
        (None, Exit::Code(c)) => match ExitStatus::from_code(c) {
            Some(ExitStatus::Interrupted | ExitStatus::Terminated) => return None,
            Some(ExitStatus::Success) => match read_result(mode, &end.stdout) {
                Ok(read) => {
                    rec.status = Status::Done;
                    take_result(&mut rec, read);
                    return Some(rec);
                }
                Err(e) => format!("no result: {e}"),
            },
            Some(ExitStatus::Error) => format!("error{}", with(&last_err)),
            Some(ExitStatus::InternalError) => format!("internal error{}", with(&last_err)),
            // vcov's own limits ended the run before it had a report: the line says which and where.
            Some(ExitStatus::LimitReached) => last_err
                .as_deref()
                .map(|l| l.strip_prefix("vcov: ").unwrap_or(l).to_string())
                .unwrap_or_else(|| "a limit ended the run before it had a report".into()),
            Some(ExitStatus::CheckFailed) | None => format!("exit code {c}{}", with(&last_err)),
        },
    };
    rec.reason = Some(reason);
    Some(rec)
}

/// `signal 11 (SIGSEGV)`, or `signal 40` for a signal without a usual name.
fn signal_words(sig: i32) -> String {
    match signal_name(sig) {
        Some(name) => format!("signal {sig} ({name})"),
        None => format!("signal {sig}"),
    }
}

enum Read {
    Coverage(Box<CoverageReport>),
    Verify(Verdict),
}

/// The result in a child's standard output: the JSON report of `vcov coverage --json -`, or the
/// `Verification result:` line of `vcov verify`.
fn read_result(mode: Mode, stdout: &str) -> Result<Read, String> {
    match mode {
        Mode::Coverage => match serde_json::from_str(stdout.trim()) {
            Ok(report) => Ok(Read::Coverage(Box::new(report))),
            Err(e) if e.is_data() => Err(format!("the report is not a coverage report of vcov ({e})")),
            Err(e) => Err(format!("the report is not JSON ({e})")),
        },
        Mode::Verify => {
            let line = stdout
                .lines()
                .find_map(|l| l.strip_prefix(Verdict::RESULT_PREFIX))
                .ok_or("no `Verification result:` line")?;
            line.trim().parse().map(Read::Verify).map_err(|e: crate::verify::NotAVerdict| e.to_string())
        }
    }
}

/// Fills the record of a done task from the child's result: the coverage figures and the report,
/// with why the coverage is not exact as the report says it; or the answer, with why it is UNKNOWN.
fn take_result(rec: &mut TaskRecord, read: Read) {
    match read {
        Read::Coverage(report) => {
            let figures = CoverageFigures::of(&report);
            if !figures.exact {
                rec.reason = report.inexact_reason.clone();
            }
            rec.coverage = Some(figures);
            rec.report = Some(report);
        }
        Read::Verify(verdict) => {
            rec.answer = Some(verdict.kind());
            if let Verdict::Unknown(why) = verdict {
                rec.reason = Some(why).filter(|w| !w.is_empty());
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

impl TaskRecord {
    /// The record file's JSON. (A `Value`, whose keys are in name order: the order of the files
    /// written so far.)
    pub fn to_json(&self) -> Value {
        let file = RecordFile { schema_version: RECORD_SCHEMA_VERSION, record: self, score: self.score() };
        serde_json::to_value(file).expect("a record is JSON")
    }

    /// Reads a record file back; `None` when it is not a record of this schema.
    pub fn from_json(text: &str) -> Option<TaskRecord> {
        let schema: RecordSchema = serde_json::from_str(text).ok()?;
        if schema.schema_version != RECORD_SCHEMA_VERSION {
            return None;
        }
        serde_json::from_str(text).ok()
    }

    /// The SV-COMP 2016 score (verify, expected verdict known).
    pub fn score(&self) -> Option<i32> {
        self.answer.and_then(|a| sv_comp_2016_score(a, self.expected))
    }

    /// `correct`, `wrong` or `unknown` (verify, expected verdict known).
    pub fn correctness(&self) -> Option<&'static str> {
        let expected = self.expected?;
        Some(match self.answer? {
            VerdictKind::Unknown => "unknown",
            VerdictKind::True if expected => "correct",
            VerdictKind::False if !expected => "correct",
            _ => "wrong",
        })
    }
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

/// Whether `task`, whose child's arguments have the key `key`, runs, given the text of its record
/// file (if there is one) and `--force`.
pub fn resume(task: &Task, key: &str, record_text: Option<&str>, force: bool) -> Resume {
    let Some(rec) = record_text.and_then(TaskRecord::from_json) else { return Resume::Run };
    if rec.key != key || rec.name != task.name {
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
            Mode::Coverage => row = crate::report::csv_row(r.report.as_deref(), &r.name, r.cpu_seconds),
            Mode::Verify => row.extend([
                r.expected.map(|e| e.to_string()).unwrap_or_default(),
                answer_name(r.answer.unwrap_or(VerdictKind::Unknown)).to_string(),
                r.correctness().unwrap_or("").to_string(),
                r.score().map(|s| s.to_string()).unwrap_or_default(),
                format!("{:.2}", r.cpu_seconds),
            ]),
        }
        row.extend([
            format!("{:.2}", r.wall_seconds),
            r.status.name().to_string(),
            r.reason.clone().unwrap_or_default(),
            r.exit_code.map(|c| c.to_string()).unwrap_or_default(),
        ]);
        let _ = w.write_record(row);
    }
    w.into_inner().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::batch::test_util::report_text;
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

    fn record(task: &Task, end: &ChildEnd) -> Option<TaskRecord> {
        classify(task, "k", &Limits { time_limit: Some(2.0), memory_limit_mb: 100 }, end)
    }

    fn check(task: &Task, end: &ChildEnd) -> Option<(Status, Option<String>)> {
        record(task, end).map(|r| (r.status, r.reason))
    }

    #[test]
    fn the_score_is_sv_comp_2016() {
        // The same table as bench/verify.py's `score`.
        use VerdictKind::{False, True, Unknown};
        assert_eq!(sv_comp_2016_score(True, Some(true)), Some(2));
        assert_eq!(sv_comp_2016_score(False, Some(false)), Some(1));
        assert_eq!(sv_comp_2016_score(False, Some(true)), Some(-16));
        assert_eq!(sv_comp_2016_score(True, Some(false)), Some(-32));
        assert_eq!(sv_comp_2016_score(Unknown, Some(false)), Some(0));
        assert_eq!(sv_comp_2016_score(True, None), None);
    }

    #[test]
    fn verdict_lines_and_failures() {
        let t = verify_task(Some(false));
        let line = |v: Verdict| format!("{}\n", v.result_line());
        assert_eq!(check(&t, &end(Exit::Code(0), &line(Verdict::False), "")), Some((Status::Done, None)));
        let r = record(&t, &end(Exit::Code(0), &line(Verdict::True), "")).unwrap();
        assert_eq!((r.answer, r.score(), r.correctness()), (Some(VerdictKind::True), Some(-32), Some("wrong")));
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
        assert_eq!(check(&t, &end(Exit::Code(1), "", "")), Some((Status::Failed, Some("exit code 1".into()))));
        assert_eq!(
            check(&t, &end(Exit::Signal(11), "", "")),
            Some((Status::Failed, Some("crashed: killed by signal 11 (SIGSEGV)".into())))
        );
        assert_eq!(
            check(&t, &end(Exit::Signal(40), "", "")),
            Some((Status::Failed, Some("crashed: killed by signal 40".into())))
        );
        assert_eq!(
            check(&t, &end(Exit::Code(0), "nothing\n", "")),
            Some((Status::Failed, Some("no result: no `Verification result:` line".into())))
        );
        assert_eq!(
            check(&t, &end(Exit::Code(0), "Verification result: MAYBE\n", "")),
            Some((Status::Failed, Some("no result: unknown verdict `MAYBE`".into())))
        );
        let failed = record(&t, &end(Exit::Code(2), "", "")).unwrap();
        assert_eq!((failed.answer, failed.score()), (Some(VerdictKind::Unknown), Some(0)));
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

    #[test]
    fn coverage_reports_round_trip_through_the_record() {
        let t = cov_task();
        let report = report_text(json!({}));
        let rec = record(&t, &end(Exit::Code(0), &report, "")).unwrap();
        let c = rec.coverage.clone().unwrap();
        assert_eq!((c.lines, c.over, c.under, c.executions, c.bug, c.exact), (3, 2, 1, 1, false, true));
        assert_eq!(c.property.as_deref(), Some("none_in_region"));
        // The report is kept whole, as the child wrote it.
        let kept = rec.to_json()["report"].clone();
        assert_eq!(kept, serde_json::from_str::<Value>(&report).unwrap());
        let text = rec.to_json().to_string();
        assert_eq!(TaskRecord::from_json(&text), Some(rec.clone()));
        assert_eq!(resume(&t, "k", Some(&text), false), Resume::Skip(Box::new(rec)));
        assert_eq!(resume(&t, "k", Some(&text), true), Resume::Run);
        assert_eq!(resume(&t, "k", None, false), Resume::Run);
        assert_eq!(resume(&t, "k", Some("{\"half"), false), Resume::Run);
        assert_eq!(resume(&t, "other", Some(&text), false), Resume::Stale);
        let newer = text.replace("\"schema_version\":1,\"score\"", "\"schema_version\":2,\"score\"");
        assert_ne!(newer, text);
        assert_eq!(resume(&t, "k", Some(&newer), false), Resume::Run);
        let (status, why) = check(&t, &end(Exit::Code(0), "{}", "")).unwrap();
        assert_eq!(status, Status::Failed);
        assert!(
            why.as_deref().unwrap().starts_with("no result: the report is not a coverage report of vcov ("),
            "{why:?}"
        );
        assert_eq!(
            check(&t, &end(Exit::Code(0), "{\"half", ""))
                .map(|(_, why)| why.unwrap().starts_with("no result: the report is not JSON (")),
            Some(true)
        );
    }

    #[test]
    fn record_files_keep_their_format() {
        // The record file of a verification task, as earlier versions wrote it (keys in name order).
        let rec = record(&verify_task(Some(true)), &end(Exit::Code(0), "Verification result: TRUE\n", "")).unwrap();
        let text = serde_json::to_string(&rec.to_json()).unwrap();
        assert_eq!(
            text,
            r#"{"answer":"true","coverage":null,"cpu_seconds":0.5,"exit_code":0,"expected":true,"key":"k","mode":"verify","name":"t","reason":null,"report":null,"schema_version":1,"score":2,"signal":null,"status":"done","wall_seconds":1.0}"#
        );
        let mut slow = rec.clone();
        slow.wall_seconds = 1.23456;
        assert_eq!(slow.to_json()["wall_seconds"], json!(1.235));
        assert_eq!(TaskRecord::from_json(&text), Some(rec));
        // A coverage record's figures, with a record of a version before `property`.
        let rec = record(&cov_task(), &end(Exit::Code(0), &report_text(json!({})), "")).unwrap();
        assert_eq!(
            rec.to_json()["coverage"],
            json!({"lines": 3, "over": 2, "under": 1, "executions": 1, "bug": false, "exact": true,
                   "interrupted": false, "stopped_by": null, "property": "none_in_region"})
        );
        let mut old = rec.to_json();
        old["coverage"].as_object_mut().unwrap().remove("property");
        let read = TaskRecord::from_json(&old.to_string()).unwrap();
        assert_eq!(read.coverage.unwrap().property, None);
    }

    #[test]
    fn an_inexact_coverage_says_why_in_the_record_and_the_table() {
        let report = report_text(json!({"exact": false,
            "inexact_reason": "the search was stopped before it ended (time limit)",
            "interrupted": true, "stopped_by": "time_limit",
            "property": {"status": "not_decided", "detail": "not decided"}}));
        let rec = record(&cov_task(), &end(Exit::Code(0), &report, "")).unwrap();
        assert_eq!(rec.status, Status::Done);
        assert_eq!(rec.reason.as_deref(), Some("the search was stopped before it ended (time limit)"));
        let csv = String::from_utf8(results_csv(Mode::Coverage, &[&rec])).unwrap();
        assert!(
            csv.ends_with(
                ",false,true,time_limit,not_decided,,1.00,done,the search was stopped before it ended (time limit),0\n"
            ),
            "{csv}"
        );
    }

    #[test]
    fn results_table_rows() {
        let done = record(&cov_task(), &end(Exit::Code(0), &report_text(json!({})), "")).unwrap();
        let failed = record(&cov_task(), &end(Exit::Code(3), "", "boom")).unwrap();
        let csv = String::from_utf8(results_csv(Mode::Coverage, &[&done, &failed])).unwrap();
        assert_eq!(
            csv,
            "instance,lines,over,under,executions,bug,cpu_seconds,exact,interrupted,stopped_by,property,exact_assuming,wall_seconds,status,reason,exit_code\n\
             c,3,2,1,1,no,0.50,true,false,,none_in_region,,1.00,done,,0\n\
             c,,,,,,0.50,,,,,,1.00,failed,internal error: boom,3\n"
        );
        let v = record(&verify_task(Some(true)), &end(Exit::Code(0), "Verification result: TRUE\n", "")).unwrap();
        let csv = String::from_utf8(results_csv(Mode::Verify, &[&v])).unwrap();
        assert_eq!(
            csv,
            "instance,expected,result,correct,score,cpu_seconds,wall_seconds,status,reason,exit_code\n\
             t,true,true,correct,2,0.50,1.00,done,,0\n"
        );
    }
}
