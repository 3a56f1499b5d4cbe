//! The summary of a batch: the paper-like table of coverage figures, or the verification answers with
//! their correctness and SV-COMP 2016 score, and the totals.

use std::fmt::Write;

use super::record::{answer_name, Status, TaskRecord};
use super::Mode;
use crate::verify::VerdictKind;

/// The summary of the finished tasks `records` (in task order) of a batch of `n_tasks` tasks.
pub fn summary(mode: Mode, records: &[&TaskRecord], n_tasks: usize) -> String {
    match mode {
        Mode::Coverage => coverage_summary(records, n_tasks),
        Mode::Verify => verify_summary(records, n_tasks),
    }
}

fn width(records: &[&TaskRecord]) -> usize {
    records.iter().map(|r| r.name.len()).max().unwrap_or(0).max(8)
}

fn pct(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

fn coverage_summary(records: &[&TaskRecord], n_tasks: usize) -> String {
    let w = width(records);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w$}  {:>8}  {:>16}  {:>16}  {:>7}  {:>4}  {:>9}  {:>5}",
        "instance", "# lines", "Over A.", "Under A.", "# exec", "Bug?", "CPU time", "exact"
    );
    let (mut lines, mut over, mut under, mut cpu) = (0u64, 0u64, 0u64, 0.0f64);
    let (mut done, mut exact, mut bugs) = (0usize, 0usize, 0usize);
    for r in records {
        cpu += r.cpu_seconds;
        match (&r.coverage, r.status) {
            (Some(c), Status::Done) => {
                done += 1;
                exact += usize::from(c.exact);
                bugs += usize::from(c.bug);
                lines += c.lines;
                over += c.over;
                under += c.under;
                let _ = writeln!(
                    out,
                    "{:<w$}  {:>8}  {:>8} ({:>5.1}%)  {:>8} ({:>5.1}%)  {:>7}  {:>4}  {:>8.2}s  {:>5}",
                    r.name,
                    c.lines,
                    c.over,
                    pct(c.over, c.lines),
                    c.under,
                    pct(c.under, c.lines),
                    c.executions,
                    if c.bug { "yes" } else { "-" },
                    r.cpu_seconds,
                    if c.exact { "yes" } else { "no" }
                );
                if let (false, Some(why)) = (c.exact, &r.reason) {
                    out.push_str(&crate::report::wrap_text(&format!("not exact: {why}"), "    ", "        "));
                }
            }
            _ => {
                let _ = writeln!(out, "{:<w$}  failed: {}", r.name, r.reason.as_deref().unwrap_or("no reason"));
            }
        }
    }
    let failed = records.len() - done;
    let _ = writeln!(
        out,
        "{n_tasks} tasks: {done} done ({exact} exact, {bugs} with a bug), {failed} failed, {} not finished",
        n_tasks - records.len()
    );
    let _ = writeln!(
        out,
        "lines: {lines}, over-approximation {over} ({:.1}%), under-approximation {under} ({:.1}%); CPU time {cpu:.1} s",
        pct(over, lines),
        pct(under, lines)
    );
    out
}

fn verify_summary(records: &[&TaskRecord], n_tasks: usize) -> String {
    let w = width(records);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w$}  {:>8}  {:>7}  {:>7}  {:>5}  {:>9}  reason",
        "task", "expected", "result", "", "score", "CPU time"
    );
    let (mut correct_true, mut correct_false, mut wrong_true, mut wrong_false) = (0, 0, 0, 0);
    let (mut unknown, mut failed, mut score, mut scored) = (0, 0, 0i64, 0);
    for r in records {
        let answer = r.answer.unwrap_or(VerdictKind::Unknown);
        let _ = writeln!(
            out,
            "{:<w$}  {:>8}  {:>7}  {:>7}  {:>5}  {:>8.2}s  {}",
            r.name,
            r.expected.map(|e| e.to_string()).unwrap_or_else(|| "-".into()),
            if r.status == Status::Failed { "failed" } else { answer_name(answer) },
            r.correctness().unwrap_or(""),
            r.score().map(|s| s.to_string()).unwrap_or_else(|| "-".into()),
            r.cpu_seconds,
            r.reason.as_deref().unwrap_or("")
        );
        if let Some(s) = r.score() {
            score += i64::from(s);
            scored += 1;
        }
        failed += usize::from(r.status == Status::Failed);
        match (answer, r.correctness()) {
            (VerdictKind::Unknown, _) => unknown += 1,
            (VerdictKind::True, Some("correct")) => correct_true += 1,
            (VerdictKind::False, Some("correct")) => correct_false += 1,
            (VerdictKind::True, Some("wrong")) => wrong_true += 1,
            (VerdictKind::False, Some("wrong")) => wrong_false += 1,
            _ => {}
        }
    }
    let _ = writeln!(
        out,
        "{n_tasks} tasks: {} correct ({correct_true} true, {correct_false} false), {} wrong ({wrong_true} true, \
         {wrong_false} false), {unknown} unknown ({failed} failed), {} not finished",
        correct_true + correct_false,
        wrong_true + wrong_false,
        n_tasks - records.len()
    );
    if scored > 0 {
        let _ = writeln!(out, "SV-COMP 2016 score: {score} ({scored} tasks with an expected verdict)");
    }
    let n_answered = records.len() - unknown;
    if scored == 0 && n_answered > 0 {
        let _ = writeln!(out, "no expected verdicts: no score");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::record::{classify, ChildEnd, Exit};
    use crate::batch::test_util::report_text;
    use crate::batch::{Inputs, Limits, Task};

    fn verify(name: &str, expected: bool, stdout: &str, code: i32) -> TaskRecord {
        let t = Task {
            name: name.into(),
            inputs: Inputs::Verify {
                task_file: Some("t.yml".into()),
                program: None,
                data_model: None,
                expected: Some(expected),
            },
        };
        let end = ChildEnd {
            exit: Exit::Code(code),
            killed_for: None,
            stdout: stdout.into(),
            stderr: "vcov: bad".into(),
            wall_seconds: 1.0,
            cpu_seconds: 0.25,
        };
        classify(&t, "k", &Limits::default(), &end).unwrap()
    }

    #[test]
    fn verification_totals_and_score() {
        let recs = [
            verify("safe", true, "Verification result: TRUE\n", 0),
            verify("bug", false, "Verification result: FALSE(unreach-call)\n", 0),
            verify("alarm", true, "Verification result: FALSE(unreach-call)\n", 0),
            verify("slow", false, "Verification result: UNKNOWN (time limit)\n", 0),
            verify("broken", false, "", 2),
        ];
        let refs: Vec<&TaskRecord> = recs.iter().collect();
        let s = summary(Mode::Verify, &refs, 6);
        assert!(
            s.contains(
                "6 tasks: 2 correct (1 true, 1 false), 1 wrong (0 true, 1 false), 2 unknown (1 failed), 1 not finished"
            ),
            "{s}"
        );
        assert!(s.contains("SV-COMP 2016 score: -13 (5 tasks with an expected verdict)"), "{s}");
        assert!(
            s.lines().any(|l| l.starts_with("broken") && l.contains("failed") && l.contains("error: vcov: bad")),
            "{s}"
        );
    }

    #[test]
    fn coverage_table_and_totals() {
        let t =
            Task { name: "kbtab".into(), inputs: Inputs::Coverage { program: "p.c".into(), automaton: "a".into() } };
        let figures = serde_json::json!({"lines_to_cover": [1, 2, 3, 4], "over_approximation": {"lines": [1, 2, 3]},
            "under_approximation": {"lines": [1, 2], "executions": 2}, "bug_found": true, "exact": false});
        let report = report_text(figures.clone());
        let end = |code, stdout: &str| ChildEnd {
            exit: Exit::Code(code),
            killed_for: None,
            stdout: stdout.into(),
            stderr: "vcov: internal error: x".into(),
            wall_seconds: 1.0,
            cpu_seconds: 1.5,
        };
        let done = classify(&t, "k", &Limits::default(), &end(0, &report)).unwrap();
        let failed = classify(&t, "k", &Limits::default(), &end(3, "")).unwrap();
        let s = summary(Mode::Coverage, &[&done, &failed], 2);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], "instance   # lines           Over A.          Under A.   # exec  Bug?   CPU time  exact");
        assert_eq!(
            lines[1],
            "kbtab            4         3 ( 75.0%)         2 ( 50.0%)        2   yes      1.50s     no"
        );
        assert_eq!(lines[2], "kbtab     failed: internal error: vcov: internal error: x");
        assert_eq!(lines[3], "2 tasks: 1 done (0 exact, 1 with a bug), 1 failed, 0 not finished");
        assert_eq!(lines[4], "lines: 4, over-approximation 3 (75.0%), under-approximation 2 (50.0%); CPU time 3.0 s");
        // A result that is not exact says why, under its row.
        let mut figures = figures;
        figures["inexact_reason"] = "1 path(s) cut; first at line 3: x".into();
        let why = classify(&t, "k", &Limits::default(), &end(0, &report_text(figures))).unwrap();
        let s = summary(Mode::Coverage, &[&why], 1);
        assert_eq!(s.lines().nth(2), Some("    not exact: 1 path(s) cut; first at line 3: x"), "{s}");
    }
}
