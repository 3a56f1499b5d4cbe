//! The results of `vcov replay`: how a run ended (the harness's status file and the process
//! status), the line counts gcov reports, and whether they confirm what vcov claims.
//!
//! A test is *confirmed* when every claimed line that has code was executed (gcov count > 0), when a
//! claimed return from `main` happened, and when a claimed violation happened. A claimed line
//! without code in gcov's view (a declaration without initializer, the continuation line of a
//! statement) cannot be checked and is reported as such. Other surprises (input values read for
//! another function, inputs left over, a run that did not return from `main` although vcov did not
//! claim it would) are notes.

use std::collections::BTreeMap;

use serde_json::Value;

use super::claims::TestClaim;
use super::ReadError;

/// How a replayed run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// `main` returned (with this exit code).
    Returned(i32),
    /// The program called `exit` (or `_exit`) with this status.
    Exit(i32),
    /// The program called `abort`.
    Abort,
    /// The program violated the property.
    Violation(Violated),
    /// `__VERIFIER_assume` was called with a false condition.
    AssumeFailed,
    /// The program called a function the harness cannot provide (one only inline assembly calls).
    Unsupported(String),
    /// The process was killed by this signal.
    Signal(i32),
    /// The run was stopped after the time limit.
    Timeout,
    /// The process ended without a status file (with this exit code, if any).
    Unknown(Option<i32>),
}

/// How a run violated the property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violated {
    /// It called this violation function (`reach_error`, `__assert_fail`, ...).
    Call(String),
    /// It reached the label of this name (`--spec errorlabel`).
    Label(String),
}

impl std::fmt::Display for Violated {
    /// The violation as the status file names it: the function, or `label NAME`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violated::Call(name) => f.write_str(name),
            Violated::Label(name) => write!(f, "label {name}"),
        }
    }
}

impl std::fmt::Display for RunEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunEnd::Returned(c) => write!(f, "main returned {c}"),
            RunEnd::Exit(c) => write!(f, "the program called exit({c})"),
            RunEnd::Abort => write!(f, "the program called abort()"),
            RunEnd::Violation(Violated::Label(name)) => {
                write!(f, "the program reached the label {name} (property violation)")
            }
            RunEnd::Violation(Violated::Call(name)) => write!(f, "the program called {name}() (property violation)"),
            RunEnd::AssumeFailed => write!(f, "an assumption (__VERIFIER_assume) failed"),
            RunEnd::Unsupported(name) => {
                write!(f, "the program called {name} from inline assembly, which the harness cannot run")
            }
            RunEnd::Signal(s) => write!(f, "the program was killed by signal {s}"),
            RunEnd::Timeout => write!(f, "the program did not end within the time limit"),
            RunEnd::Unknown(Some(c)) => write!(f, "the program ended with code {c} without the harness noticing"),
            RunEnd::Unknown(None) => write!(f, "the program ended without the harness noticing"),
        }
    }
}

/// What the harness and the process report about one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStatus {
    /// How the run ended (`None` until known).
    pub end: Option<RunEnd>,
    /// Inputs the stubs consumed.
    pub used: u64,
    /// Inputs skipped because they were written for functions taken from libc.
    pub skipped: u64,
    /// Inputs never asked for.
    pub left: u64,
    /// The first input read by another function than it was written for: (its position, written for,
    /// read by).
    pub mismatch: Option<(u64, String, String)>,
    /// The first function that asked for an input after the last one.
    pub exhausted: Option<String>,
}

/// Reads the harness's status file (`end ...`, `used N`, `skipped N`, `left N`, `mismatch POS WRITTEN
/// READ`, `exhausted NAME`); the process exit code completes `end return`.
pub fn read_status(text: &str, exit_code: Option<i32>) -> RunStatus {
    let mut res = RunStatus::default();
    for line in text.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let num = || rest.trim().parse::<u64>().unwrap_or(0);
        match key {
            "end" => {
                let (what, arg) = rest.split_once(' ').unwrap_or((rest, ""));
                res.end = Some(match what {
                    "return" => RunEnd::Returned(exit_code.unwrap_or(0)),
                    "exit" => RunEnd::Exit(arg.trim().parse().unwrap_or(0)),
                    "abort" => RunEnd::Abort,
                    "violation" => RunEnd::Violation(match arg.trim().strip_prefix("label ") {
                        Some(label) => Violated::Label(label.to_string()),
                        None => Violated::Call(arg.trim().to_string()),
                    }),
                    "assume" => RunEnd::AssumeFailed,
                    "unsupported" => RunEnd::Unsupported(arg.trim().to_string()),
                    _ => RunEnd::Unknown(exit_code),
                });
            }
            "used" => res.used = num(),
            "skipped" => res.skipped = num(),
            "left" => res.left = num(),
            "mismatch" => {
                let parts: Vec<&str> = rest.split(' ').collect();
                if let [pos, written, read] = parts.as_slice() {
                    res.mismatch = Some((pos.parse().unwrap_or(0), written.to_string(), read.to_string()));
                }
            }
            "exhausted" => res.exhausted = Some(rest.trim().to_string()),
            _ => {}
        }
    }
    res
}

/// Whether a run of a counterexample's inputs under gcc confirms the violation (`vcov verify
/// --confirm`): the run must end in a call of a violation function; otherwise the reason.
pub fn violation_confirmed(status: &RunStatus) -> Result<String, String> {
    match &status.end {
        Some(RunEnd::Violation(v)) => Ok(v.to_string()),
        Some(end) => Err(format!("{end}")),
        None => Err(RunEnd::Unknown(None).to_string()),
    }
}

/// The execution count of every line of `source` (a file name) with code, from gcov's JSON
/// (`gcov --json-format --stdout`); lines that appear twice (code of two functions) add up.
pub fn read_gcov_json(text: &str, source: &str) -> Result<BTreeMap<u32, u64>, ReadError> {
    let mut res = BTreeMap::new();
    // `--stdout` prints one JSON document per data file; vcov gives gcov one.
    for doc in serde_json::Deserializer::from_str(text).into_iter::<Value>() {
        let doc = doc.map_err(|e| ReadError::at(e.line() as u32, e.column() as u32, format!("gcov output: {e}")))?;
        let files = doc
            .get("files")
            .and_then(Value::as_array)
            .ok_or_else(|| ReadError::new("gcov output: no `files` array"))?;
        let base = |p: &str| p.rsplit(['/', '\\']).next().unwrap_or(p).to_string();
        for f in files {
            let name = f.get("file").and_then(Value::as_str).unwrap_or_default();
            if base(name) != base(source) {
                continue;
            }
            for l in f.get("lines").and_then(Value::as_array).into_iter().flatten() {
                let line = l.get("line_number").and_then(Value::as_u64);
                let count = l.get("count").and_then(Value::as_u64);
                if let (Some(line), Some(count)) = (line, count) {
                    *res.entry(line as u32).or_insert(0) += count;
                }
            }
        }
    }
    Ok(res)
}

/// The claimed lines of one test, sorted by what gcov says about them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineCheck {
    /// Executed (count > 0).
    pub confirmed: Vec<u32>,
    /// Not executed in gcov's view, but inside a statement of several lines that gcov shows
    /// executed, and claimed only as part of it, or a label whose statement gcov shows executed
    /// (see [`check_lines`]).
    pub in_statement: Vec<u32>,
    /// Without code in gcov's view: cannot be checked.
    pub no_code: Vec<u32>,
    /// With code, never executed: the claim is wrong.
    pub not_executed: Vec<u32>,
}

/// What the program's CFA tells about lines whose gcov counts differ from what vcov counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineHints {
    /// The first and last lines of the statements (CFA edges) that span several lines.
    pub statements: Vec<(u32, u32)>,
    /// The line of each label, with the first lines of the statements that follow it.
    pub labels: BTreeMap<u32, Vec<u32>>,
}

/// Sorts `claimed` by the counts gcov gives.
///
/// Under the spanned line rule a statement covers every line it spans, while gcc attributes the
/// code of a multi-line expression to the lines of its parts: a `return c ? a : b;` over four lines
/// covers all four, though gcov shows the line of the branch not taken unexecuted. Such a line
/// counts as confirmed when it lies in a statement (`hints.statements`) whose lines are all claimed
/// and of which gcov shows some line executed; the statement is then confirmed as a whole. The same
/// for a label: vcov counts its line when the run passes it, gcc gives it code only where a jump
/// lands (`if (c) {..} else {} L: s;` counts for the empty `else` alone); its line counts as
/// confirmed when gcov shows a statement after it executed and the test claims that statement.
pub fn check_lines(claimed: &[u32], counts: &BTreeMap<u32, u64>, hints: &LineHints) -> LineCheck {
    let is_claimed = |l: u32| claimed.binary_search(&l).is_ok();
    let executed = |l: u32| counts.get(&l).is_some_and(|&c| c > 0);
    let statement_ran = |l: u32| {
        hints.statements.iter().any(|&(a, b)| a <= l && l <= b && (a..=b).all(is_claimed) && (a..=b).any(executed))
            || hints.labels.get(&l).is_some_and(|next| next.iter().any(|&n| is_claimed(n) && executed(n)))
    };
    let mut res = LineCheck::default();
    for &l in claimed {
        match counts.get(&l) {
            Some(&c) if c > 0 => res.confirmed.push(l),
            Some(_) if statement_ran(l) => res.in_statement.push(l),
            Some(_) => res.not_executed.push(l),
            None => res.no_code.push(l),
        }
    }
    res
}

/// The result of one test: whether its claims hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResult {
    /// The test case's file name.
    pub file: String,
    /// Whether vcov claims anything about this test (an entry in the claims file).
    pub claimed: bool,
    /// How the run ended.
    pub end: RunEnd,
    /// The claimed lines against gcov; `None` when the run left no coverage data.
    pub lines: Option<LineCheck>,
    /// Lines executed in the run (all lines with count > 0).
    pub n_executed: usize,
    /// Why the claim is not confirmed (empty: confirmed).
    pub refutations: Vec<String>,
    /// Worth knowing, but no refutation.
    pub notes: Vec<String>,
}

impl TestResult {
    /// Whether everything claimed was confirmed.
    pub fn confirmed(&self) -> bool {
        self.refutations.is_empty()
    }

    /// The report lines: `test3.xml: ok, 14 lines confirmed` or `test3.xml: MISMATCH, ...`, then
    /// notes; `verbose` lists the confirmed lines and those without code.
    pub fn render(&self, verbose: bool) -> String {
        let mut res = String::new();
        let f = &self.file;
        if !self.claimed {
            res.push_str(&format!("{f}: ran without claims, {}, {} lines executed\n", self.end, self.n_executed));
        } else if self.confirmed() {
            let l = self.lines.clone().unwrap_or_default();
            let mut line = format!("{f}: ok, {} lines confirmed", l.confirmed.len());
            if verbose && !l.confirmed.is_empty() {
                line.push_str(&format!(" ({})", join(&l.confirmed)));
            }
            if !l.in_statement.is_empty() {
                line.push_str(&format!(", {} in multi-line statements run", l.in_statement.len()));
                if verbose {
                    line.push_str(&format!(" ({})", join(&l.in_statement)));
                }
            }
            if !l.no_code.is_empty() {
                line.push_str(&format!(", {} without code", l.no_code.len()));
                if verbose {
                    line.push_str(&format!(" ({})", join(&l.no_code)));
                }
            }
            res.push_str(&line);
            res.push('\n');
        }
        for r in &self.refutations {
            res.push_str(&format!("{f}: MISMATCH, {r}\n"));
        }
        for n in &self.notes {
            res.push_str(&format!("{f}: note: {n}\n"));
        }
        res
    }
}

/// Judges one run: `claim` is vcov's claim (if the claims file has one), `status` how the run ended,
/// `counts` gcov's line counts (`None` when the run wrote no coverage data), `statements` the
/// what the CFA tells about lines (see [`check_lines`]).
pub fn test_result(
    file: &str,
    claim: Option<&TestClaim>,
    status: &RunStatus,
    counts: Option<&BTreeMap<u32, u64>>,
    hints: &LineHints,
) -> TestResult {
    let end = status.end.clone().unwrap_or(RunEnd::Unknown(None));
    let mut refutations = Vec::new();
    let mut notes = Vec::new();
    let lines = match (claim, counts) {
        (Some(c), Some(counts)) => {
            let mut lines = c.lines.clone();
            lines.sort_unstable();
            lines.dedup();
            let check = check_lines(&lines, counts, hints);
            if !check.not_executed.is_empty() {
                refutations.push(format!("claimed but not executed: {}", join(&check.not_executed)));
            }
            Some(check)
        }
        (Some(c), None) => {
            if !c.lines.is_empty() {
                refutations.push(format!("the run wrote no coverage data ({end}), so no claimed line is confirmed"));
            }
            None
        }
        (None, _) => None,
    };
    let returned = matches!(end, RunEnd::Returned(_));
    let violated = matches!(end, RunEnd::Violation(_));
    let mut end_explained = false;
    if let Some(c) = claim {
        if c.terminating == Some(true) && !returned {
            refutations.push(format!("claimed to return from main, but {end}"));
            end_explained = true;
        }
        if c.violates_property == Some(true) {
            if !violated {
                refutations.push(format!("claimed to violate the property, but {end}"));
            }
            end_explained = true;
        }
    }
    if !returned && !end_explained && claim.is_some() {
        notes.push(end.to_string());
    }
    if let Some((pos, written, read)) = &status.mismatch {
        notes.push(format!("input {pos} was written for {written} but read by {read}: the run may differ from vcov's"));
    }
    if let Some(f) = &status.exhausted {
        notes.push(format!("{f} asked for an input after the last one (it got 0)"));
    }
    if status.left > 0 {
        notes.push(format!("{} inputs were never asked for", status.left));
    }
    if status.skipped > 0 {
        notes.push(format!("{} inputs written for functions taken from the C library were skipped", status.skipped));
    }
    let n_executed = counts.map_or(0, |c| c.values().filter(|&&n| n > 0).count());
    TestResult { file: file.to_string(), claimed: claim.is_some(), end, lines, n_executed, refutations, notes }
}

fn join(lines: &[u32]) -> String {
    lines.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_violation_confirms_a_counterexample() {
        let run = |end| RunStatus { end, ..Default::default() };
        assert_eq!(
            violation_confirmed(&run(Some(RunEnd::Violation(Violated::Call("reach_error".into()))))),
            Ok("reach_error".into())
        );
        assert_eq!(violation_confirmed(&run(Some(RunEnd::Returned(0)))), Err("main returned 0".into()));
        assert_eq!(violation_confirmed(&run(None)), Err("the program ended without the harness noticing".into()));
    }

    fn claim(lines: &[u32], terminating: Option<bool>, violates: Option<bool>) -> TestClaim {
        TestClaim {
            file: "test1.xml".into(),
            id: 1,
            origin: None,
            lines: lines.to_vec(),
            terminating,
            violates_property: violates,
            inputs: None,
            uninitialized_memory: None,
            memory: vec![],
        }
    }

    fn counts(pairs: &[(u32, u64)]) -> BTreeMap<u32, u64> {
        pairs.iter().copied().collect()
    }

    fn returned() -> RunStatus {
        RunStatus { end: Some(RunEnd::Returned(0)), used: 1, ..Default::default() }
    }

    #[test]
    fn status_file() {
        let s =
            read_status("end violation reach_error\nused 3\nskipped 1\nleft 2\nmismatch 2 f g\nexhausted h\n", Some(0));
        assert_eq!(s.end, Some(RunEnd::Violation(Violated::Call("reach_error".into()))));
        assert_eq!((s.used, s.skipped, s.left), (3, 1, 2));
        assert_eq!(s.mismatch, Some((2, "f".into(), "g".into())));
        assert_eq!(s.exhausted.as_deref(), Some("h"));
        assert_eq!(read_status("end return\n", Some(3)).end, Some(RunEnd::Returned(3)));
        assert_eq!(read_status("end exit 7\n", Some(7)).end, Some(RunEnd::Exit(7)));
    }

    #[test]
    fn gcov_json_lines_add_up() {
        let text = r#"{"format_version": "1", "files": [
            {"file": "/tmp/x/program.c", "lines": [{"line_number": 3, "count": 1}, {"line_number": 5, "count": 0},
                                                   {"line_number": 3, "count": 2}]},
            {"file": "other.c", "lines": [{"line_number": 4, "count": 1}]}]}"#;
        assert_eq!(read_gcov_json(text, "program.c").unwrap(), counts(&[(3, 3), (5, 0)]));
        assert!(read_gcov_json("{", "p.c").is_err());
        assert!(read_gcov_json("{}", "p.c").unwrap_err().message.contains("files"));
    }

    #[test]
    fn confirmed_claim() {
        let v = test_result(
            "test1.xml",
            Some(&claim(&[2, 3, 4], Some(true), Some(false))),
            &returned(),
            Some(&counts(&[(2, 1), (4, 5)])),
            &LineHints::default(),
        );
        assert!(v.confirmed());
        assert_eq!(v.render(false), "test1.xml: ok, 2 lines confirmed, 1 without code\n");
        assert_eq!(v.render(true), "test1.xml: ok, 2 lines confirmed (2, 4), 1 without code (3)\n");
    }

    #[test]
    fn a_line_not_executed_refutes_the_claim() {
        let v = test_result(
            "test1.xml",
            Some(&claim(&[2, 7, 8], None, None)),
            &returned(),
            Some(&counts(&[(2, 1), (7, 0), (8, 0)])),
            &LineHints::default(),
        );
        assert!(!v.confirmed());
        assert_eq!(v.render(false), "test1.xml: MISMATCH, claimed but not executed: 7, 8\n");
    }

    #[test]
    fn a_statement_over_several_lines_is_confirmed_as_a_whole() {
        // `return c ? a : b;` on lines 4-7, the branch on line 7 not taken: gcov shows it unexecuted.
        let gcov = counts(&[(5, 3), (6, 3), (7, 0), (9, 0)]);
        let hints = |statements: Vec<(u32, u32)>| LineHints { statements, ..LineHints::default() };
        let v = test_result(
            "t.xml",
            Some(&claim(&[4, 5, 6, 7], None, None)),
            &returned(),
            Some(&gcov),
            &hints(vec![(4, 7)]),
        );
        assert!(v.confirmed(), "{v:?}");
        assert_eq!(v.render(false), "t.xml: ok, 2 lines confirmed, 1 in multi-line statements run, 1 without code\n");
        assert_eq!(
            v.render(true),
            "t.xml: ok, 2 lines confirmed (5, 6), 1 in multi-line statements run (7), 1 without code (4)\n"
        );
        // Not when the statement is claimed only in part (another edge claims line 7) ...
        let v = test_result("t.xml", Some(&claim(&[5, 7], None, None)), &returned(), Some(&gcov), &hints(vec![(4, 7)]));
        assert_eq!(v.refutations, vec!["claimed but not executed: 7".to_string()]);
        // ... nor when gcov shows no line of the statement executed.
        let v = test_result("t.xml", Some(&claim(&[8, 9], None, None)), &returned(), Some(&gcov), &hints(vec![(8, 9)]));
        assert_eq!(v.refutations, vec!["claimed but not executed: 9".to_string()]);
    }

    #[test]
    fn a_label_is_confirmed_by_the_statement_after_it() {
        // `} else { }` on line 3, `L:` on line 4 (gcc's code there is the empty else's jump), line 5 ran.
        let gcov = counts(&[(2, 1), (4, 0), (5, 1), (7, 0)]);
        let hints = LineHints { labels: [(4, vec![5]), (6, vec![7])].into(), ..LineHints::default() };
        let v = test_result("t.xml", Some(&claim(&[2, 4, 5], None, None)), &returned(), Some(&gcov), &hints);
        assert!(v.confirmed(), "{v:?}");
        assert_eq!(v.lines.unwrap().in_statement, vec![4]);
        // The statement after the label did not run (or is not claimed): the label is not confirmed.
        let v = test_result("t.xml", Some(&claim(&[6, 7], None, None)), &returned(), Some(&gcov), &hints);
        assert_eq!(v.refutations, vec!["claimed but not executed: 7".to_string()]);
        let gcov = counts(&[(6, 0), (7, 1)]);
        let v = test_result("t.xml", Some(&claim(&[6], None, None)), &returned(), Some(&gcov), &hints);
        assert_eq!(v.refutations, vec!["claimed but not executed: 6".to_string()]);
    }

    #[test]
    fn how_the_run_ended_is_checked_against_the_claim() {
        let exit = RunStatus { end: Some(RunEnd::Exit(1)), ..Default::default() };
        let v =
            test_result("t.xml", Some(&claim(&[], Some(true), None)), &exit, Some(&counts(&[])), &LineHints::default());
        assert_eq!(v.render(false), "t.xml: MISMATCH, claimed to return from main, but the program called exit(1)\n");
        let v = test_result(
            "t.xml",
            Some(&claim(&[], Some(false), Some(true))),
            &returned(),
            Some(&counts(&[])),
            &LineHints::default(),
        );
        assert_eq!(v.refutations, vec!["claimed to violate the property, but main returned 0".to_string()]);
        let violation =
            RunStatus { end: Some(RunEnd::Violation(Violated::Call("reach_error".into()))), ..Default::default() };
        let v = test_result(
            "t.xml",
            Some(&claim(&[], Some(false), Some(true))),
            &violation,
            Some(&counts(&[])),
            &LineHints::default(),
        );
        assert!(v.confirmed() && v.notes.is_empty(), "{v:?}");
        let v = test_result(
            "t.xml",
            Some(&claim(&[1], None, None)),
            &RunStatus { end: Some(RunEnd::Signal(11)), ..Default::default() },
            None,
            &LineHints::default(),
        );
        assert_eq!(
            v.render(false),
            "t.xml: MISMATCH, the run wrote no coverage data (the program was killed by signal 11), so no claimed line is confirmed\n\
             t.xml: note: the program was killed by signal 11\n"
        );
    }

    #[test]
    fn input_problems_are_notes() {
        let s = RunStatus {
            end: Some(RunEnd::Returned(0)),
            mismatch: Some((2, "f".into(), "g".into())),
            exhausted: Some("g".into()),
            left: 1,
            skipped: 1,
            ..Default::default()
        };
        let v = test_result("t.xml", None, &s, Some(&counts(&[(1, 1), (2, 0)])), &LineHints::default());
        assert!(v.confirmed());
        assert_eq!(
            v.render(false),
            "t.xml: ran without claims, main returned 0, 1 lines executed\n\
             t.xml: note: input 2 was written for f but read by g: the run may differ from vcov's\n\
             t.xml: note: g asked for an input after the last one (it got 0)\n\
             t.xml: note: 1 inputs were never asked for\n\
             t.xml: note: 1 inputs written for functions taken from the C library were skipped\n"
        );
    }
}
