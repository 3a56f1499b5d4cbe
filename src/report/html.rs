//! The HTML report (`--html DIR` of `vcov coverage` and `vcov compare`): one self-contained page
//! (inline CSS and SVG, one inline script that only records the load time; no network, opens from a
//! file URL) with the summary, plots, function and branch tables, the annotated source and the
//! executions. Rendered with minijinja from `html/report.html`, which escapes every value (the
//! program's text included) unless marked safe (only the SVG charts built in `svg`).
//!
//! Invariant: every source line's row holds one cell per configuration whose class is `st-` and
//! the JSON report's `line_status` of that line (`st-none` for lines not to cover).

use std::collections::{BTreeMap, BTreeSet};

use minijinja::Environment;
use serde::Serialize;

use super::compare::Compared;
use super::svg::{bar_chart, line_chart, Series};
use crate::coverage::result::{Confirmation, CoverageResult, LineStatus, PropertyStatus};

/// What the page shows.
pub struct HtmlInput<'a> {
    /// The program's text.
    pub source: &'a str,
    /// One result per configuration (one for `vcov coverage`).
    pub results: &'a [CoverageResult],
    /// The comparison, for `vcov compare`.
    pub compared: Option<&'a Compared<'a>>,
    /// Per configuration: for each execution id, the links (relative to the page) to its Test-Comp
    /// test and counterexample automaton, when evidence was written.
    pub links: Vec<BTreeMap<usize, (String, String)>>,
    /// Per configuration: the link to the violation witness, when one was written.
    pub witness: Vec<Option<String>>,
}

#[derive(Serialize)]
struct Page {
    title: String,
    program: String,
    producer: String,
    lines_to_cover: usize,
    configs: Vec<Config>,
    compare: Option<CompareView>,
    plots: Vec<String>,
    functions: Vec<Row>,
    branches: Vec<Row>,
    lines: Vec<Line>,
}

#[derive(Serialize)]
struct Config {
    name: String,
    anchor: String,
    automaton: String,
    over: usize,
    over_pct: String,
    under: usize,
    under_pct: String,
    executions: usize,
    /// The property's status in a few words, and in full.
    bug: &'static str,
    property: String,
    exact: String,
    assumptions: String,
    approximated: String,
    confirmation: String,
    time: String,
    undefined: String,
    undecided: String,
    witness: Option<String>,
    execs: Vec<Exec>,
}

#[derive(Serialize)]
struct Exec {
    id: usize,
    inputs: String,
    added: String,
    test: Option<String>,
    cex: Option<String>,
}

#[derive(Serialize)]
struct CompareView {
    all: usize,
    some: usize,
    only: Vec<Only>,
    conflicts: usize,
}

#[derive(Serialize)]
struct Only {
    name: String,
    count: usize,
}

#[derive(Serialize)]
struct Row {
    name: String,
    first: u32,
    last: u32,
    line: u32,
    cells: Vec<String>,
}

#[derive(Serialize)]
struct Line {
    n: u32,
    text: String,
    cells: Vec<Cell>,
}

#[derive(Serialize)]
struct Cell {
    config: String,
    status: &'static str,
    title: String,
}

/// Inputs shown per execution before the rest is summarised.
const MAX_INPUTS_SHOWN: usize = 24;
/// Executions named in a covered line's tooltip.
const MAX_EXECS_IN_TITLE: usize = 8;

/// The page `index.html` for `input`.
pub fn html_report(input: &HtmlInput) -> String {
    let first = &input.results[0];
    let page = Page {
        title: match input.results {
            [one] => format!("{} with {}", one.program.display(), one.automaton.display()),
            many => format!("{} with {} configurations", first.program.display(), many.len()),
        },
        program: first.program.display().to_string(),
        producer: format!("vcov {}", env!("CARGO_PKG_VERSION")),
        lines_to_cover: first.lines_to_cover.len(),
        configs: input.results.iter().enumerate().map(|(i, r)| config_view(input, i, r)).collect(),
        compare: input.compared.map(|c| CompareView {
            all: c.covered_by_all.len(),
            some: c.covered_by_some.len(),
            only: c
                .covered_only_by
                .iter()
                .zip(input.results)
                .map(|(o, r)| Only { name: r.instance.clone(), count: o.len() })
                .collect(),
            conflicts: c.over_but_not_coverable.len(),
        }),
        plots: plots(input),
        functions: first
            .functions
            .iter()
            .map(|f| Row {
                name: f.name.clone(),
                first: f.first_line,
                last: f.last_line,
                line: f.first_line,
                cells: input
                    .results
                    .iter()
                    .map(|r| {
                        let in_f = |set: &[u32]| set.iter().filter(|&&l| l >= f.first_line && l <= f.last_line).count();
                        format!("{} / {} / {}", in_f(&r.lines_to_cover), in_f(&r.over_lines), in_f(&r.under_lines))
                    })
                    .collect(),
            })
            .collect(),
        branches: first
            .branches
            .iter()
            .enumerate()
            .map(|(k, b)| Row {
                name: String::new(),
                first: b.line,
                last: b.line,
                line: b.line,
                cells: input
                    .results
                    .iter()
                    .map(|r| match r.branches.get(k) {
                        Some(rb) => format!(
                            "{} / {} of {}",
                            rb.arms.iter().filter(|a| a.0).count(),
                            rb.arms.iter().filter(|a| a.1).count(),
                            rb.arms.len()
                        ),
                        None => String::new(),
                    })
                    .collect(),
            })
            .collect(),
        lines: lines(input),
    };
    let mut env = Environment::new();
    env.add_template("report.html", include_str!("html/report.html")).expect("the template parses");
    env.get_template("report.html").expect("added").render(&page).expect("the page renders")
}

fn config_view(input: &HtmlInput, i: usize, r: &CoverageResult) -> Config {
    let pct = |n: usize| format!("{:.1}", r.percent_of_lines(n));
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    let execs = r
        .executions
        .iter()
        .map(|e| {
            let added: Vec<u32> = e.lines.iter().copied().filter(|l| seen.insert(*l)).collect();
            let link = input.links.get(i).and_then(|m| m.get(&e.id));
            let mut inputs: Vec<String> = e
                .inputs
                .iter()
                .take(MAX_INPUTS_SHOWN)
                .map(|v| format!("{}() -> ({}) {}", v.function, v.c_type, v.value))
                .collect();
            if e.inputs.len() > MAX_INPUTS_SHOWN {
                inputs.push(format!("... {} more", e.inputs.len() - MAX_INPUTS_SHOWN));
            }
            Exec {
                id: e.id,
                inputs: inputs.join("; "),
                added: format!("{}: {}", added.len(), ranges(&added)),
                test: link.map(|l| l.0.clone()),
                cex: link.map(|l| l.1.clone()),
            }
        })
        .collect();
    Config {
        name: r.instance.clone(),
        anchor: format!("c{i}"),
        automaton: r.automaton.display().to_string(),
        over: r.over_lines.len(),
        over_pct: pct(r.over_lines.len()),
        under: r.under_lines.len(),
        under_pct: pct(r.under_lines.len()),
        executions: r.n_terminating(),
        bug: match &r.property {
            PropertyStatus::FoundInRegion => "violated in the region",
            PropertyStatus::FoundOutsideRegion => "violated outside the region",
            PropertyStatus::NoneInRegion { .. } => "none in the region",
            PropertyStatus::NotDecided(_) => "not decided",
        },
        property: r.property.to_string(),
        exact: match (&r.inexact_reason, r.exact) {
            (_, true) if r.assumed.is_empty() => "yes".into(),
            (_, true) => "yes, relative to the assumptions".into(),
            (Some(why), false) => format!("no: {why}"),
            (None, false) => "no".into(),
        },
        assumptions: if r.assumed.is_empty() {
            "none".into()
        } else {
            r.assumed.iter().map(|(n, s)| format!("{n} ({s})")).collect::<Vec<_>>().join("; ")
        },
        approximated: match r.abstraction() {
            None => "-".into(),
            Some(what) => format!("{} line(s) proven with {what} abstracted away", r.proven_by_abstraction),
        },
        confirmation: match r.confirmation {
            Confirmation::Interpreter { rejected: 0 } => "vcov's concrete interpreter".into(),
            Confirmation::Interpreter { rejected } => format!("vcov's concrete interpreter: {rejected} rejected"),
            Confirmation::Gcc { confirmed, rejected, pending: 0 } => {
                format!("gcc and gcov: {confirmed} confirmed, {rejected} rejected")
            }
            Confirmation::Gcc { confirmed, rejected, pending } => format!(
                "gcc and gcov: {confirmed} confirmed, {rejected} rejected, {pending} not replayed before the time limit"
            ),
        },
        time: format!("{:.2}", r.times.total),
        undefined: match r.undefined.first() {
            Some(_) => format!(
                "{} path(s) end at possible undefined behaviour, at {} place(s): {}",
                r.undefined_paths,
                r.undefined.len(),
                r.undefined
                    .iter()
                    .take(10)
                    .map(|u| format!("line {} ({})", u.line, u.kind))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => String::new(),
        } + &match &r.assumed_violations {
            (n, Some(first)) => format!(
                " {n} path(s) violate the property relying on the accepted assumptions (first at line {}).",
                first.line
            ),
            _ => String::new(),
        },
        undecided: r.undecided.as_ref().map(|u| u.summary()).unwrap_or_default(),
        witness: input.witness.get(i).cloned().flatten(),
        execs,
    }
}

fn lines(input: &HtmlInput) -> Vec<Line> {
    // For every configuration, the executions covering each line.
    let covering: Vec<BTreeMap<u32, Vec<usize>>> = input
        .results
        .iter()
        .map(|r| {
            let mut m: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
            for e in r.executions.iter().filter(|e| e.terminating) {
                for &l in &e.lines {
                    m.entry(l).or_default().push(e.id);
                }
            }
            m
        })
        .collect();
    input
        .source
        .lines()
        .enumerate()
        .map(|(k, text)| {
            let n = k as u32 + 1;
            let cells = input
                .results
                .iter()
                .zip(&covering)
                .map(|(r, cov)| {
                    let status = r.line_status.get(&n);
                    let title = match status {
                        Some(LineStatus::Covered(_)) => {
                            let ids = cov.get(&n).map(Vec::as_slice).unwrap_or_default();
                            let mut t: Vec<String> =
                                ids.iter().take(MAX_EXECS_IN_TITLE).map(|i| format!("#{i}")).collect();
                            if ids.len() > MAX_EXECS_IN_TITLE {
                                t.push(format!("and {} more", ids.len() - MAX_EXECS_IN_TITLE));
                            }
                            format!("{}: covered by execution {}", r.instance, t.join(", "))
                        }
                        Some(LineStatus::NotCoverable) => format!(
                            "{}: not coverable ({})",
                            r.instance,
                            r.not_coverable_by.get(&n).map(String::as_str).unwrap_or("proof")
                        ),
                        Some(LineStatus::Unknown) => format!(
                            "{}: unknown ({})",
                            r.instance,
                            r.undecided
                                .as_ref()
                                .and_then(|u| u.why(n))
                                .or_else(|| r.inexact_reason.as_ref().map(|w| w.to_string()))
                                .unwrap_or_default()
                        ),
                        Some(LineStatus::OverOnly) => match r.undecided.as_ref().and_then(|u| u.why(n)) {
                            Some(why) => format!("{}: over_only, undecided: {why}", r.instance),
                            None => format!("{}: over_only", r.instance),
                        },
                        Some(s) => format!("{}: {}", r.instance, s.name()),
                        None => String::new(),
                    };
                    Cell { config: r.instance.clone(), status: status.map_or("none", |s| s.name()), title }
                })
                .collect();
            Line { n, text: text.to_string(), cells }
        })
        .collect()
}

fn plots(input: &HtmlInput) -> Vec<String> {
    let mut out = Vec::new();
    let by = |f: &dyn Fn(&crate::coverage::result::TimelinePoint) -> f64| -> Vec<Series> {
        input
            .results
            .iter()
            .filter(|r| !r.timeline.is_empty())
            .map(|r| Series {
                name: r.instance.clone(),
                points: r.timeline.iter().map(|p| (f(p), p.lines as f64)).collect(),
            })
            .collect()
    };
    let execs = by(&|p| p.executions as f64);
    if !execs.is_empty() {
        out.push(line_chart("Lines covered against executions", "executions", "lines covered", &execs));
        let times = by(&|p| p.seconds);
        if times.iter().any(|s| s.points.iter().any(|p| p.0 > 0.0)) {
            out.push(line_chart("Lines covered against time", "seconds of search", "lines covered", &times));
        }
    }
    if input.results.len() > 1 {
        let labels: Vec<String> = input.results.iter().map(|r| r.instance.clone()).collect();
        let groups: Vec<Vec<f64>> =
            input.results.iter().map(|r| vec![r.over_lines.len() as f64, r.under_lines.len() as f64]).collect();
        out.push(bar_chart(
            "Configurations",
            "lines",
            &labels,
            &["over-approximation", "under-approximation"],
            &groups,
        ));
        if input.compared.is_some_and(|c| c.over_time) {
            let over = input.results.iter().enumerate().map(|(k, r)| ((k + 1) as f64, r.over_lines.len() as f64));
            let under = input.results.iter().enumerate().map(|(k, r)| ((k + 1) as f64, r.under_lines.len() as f64));
            out.push(line_chart(
                "Coverage over time (snapshots in order)",
                "snapshot",
                "lines",
                &[
                    Series { name: "over-approximation".into(), points: over.collect() },
                    Series { name: "under-approximation".into(), points: under.collect() },
                ],
            ));
        }
    }
    out
}

/// One task of a batch, for its summary page.
pub struct BatchTaskView {
    /// The task's name.
    pub name: String,
    /// `done` or `failed`.
    pub status: String,
    /// The result: coverage figures, or the answer with its correctness.
    pub result: String,
    /// `failed`, `wrong`, `unknown` or empty: how the row is marked.
    pub class: &'static str,
    /// CPU seconds of the child.
    pub cpu_seconds: f64,
    /// Wall seconds.
    pub wall_seconds: f64,
    /// Why it failed or is unknown.
    pub reason: String,
    /// Whether it counts as solved for the quantile plot (a done coverage task; a correct answer).
    pub solved: bool,
}

#[derive(Serialize)]
struct BatchPage {
    title: String,
    producer: String,
    counts: String,
    summary: String,
    solved_means: &'static str,
    quantile: String,
    tasks: Vec<BatchTaskRow>,
}

#[derive(Serialize)]
struct BatchTaskRow {
    name: String,
    status: String,
    result: String,
    class: &'static str,
    cpu: String,
    wall: String,
    reason: String,
}

/// The summary page of a batch (`vcov batch --html`): the summary text, a quantile plot of the CPU
/// times of the solved tasks, and one row per task. `verify` says what "solved" means.
pub fn batch_html(title: &str, summary: &str, verify: bool, tasks: &[BatchTaskView]) -> String {
    let mut cpu: Vec<f64> = tasks.iter().filter(|t| t.solved).map(|t| t.cpu_seconds).collect();
    cpu.sort_by(f64::total_cmp);
    let points: Vec<(f64, f64)> = cpu.iter().enumerate().map(|(k, &c)| ((k + 1) as f64, c)).collect();
    let quantile = line_chart(
        "CPU time of the solved tasks, sorted",
        "solved tasks",
        "CPU seconds",
        &[Series { name: if verify { "correct answers" } else { "finished tasks" }.into(), points }],
    );
    let failed = tasks.iter().filter(|t| t.status == "failed").count();
    let page = BatchPage {
        title: title.to_string(),
        producer: format!("vcov {}", env!("CARGO_PKG_VERSION")),
        counts: format!("{} task(s) finished, {} solved, {failed} failed.", tasks.len(), cpu.len()),
        summary: summary.to_string(),
        solved_means: if verify {
            "a correct answer (the expected verdict is known and vcov gave it)"
        } else {
            "the coverage run finished with a report"
        },
        quantile,
        tasks: tasks
            .iter()
            .map(|t| BatchTaskRow {
                name: t.name.clone(),
                status: t.status.clone(),
                result: t.result.clone(),
                class: t.class,
                cpu: format!("{:.2}", t.cpu_seconds),
                wall: format!("{:.2}", t.wall_seconds),
                reason: t.reason.clone(),
            })
            .collect(),
    };
    let mut env = Environment::new();
    env.add_template("batch.html", include_str!("html/batch.html")).expect("the template parses");
    env.get_template("batch.html").expect("added").render(&page).expect("the page renders")
}

/// `lines` (ascending) as ranges: `3-5, 9`.
fn ranges(lines: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        out.push(if i == j { lines[i].to_string() } else { format!("{}-{}", lines[i], lines[j]) });
        i = j + 1;
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
        assert_eq!(ranges(&[]), "");
    }
}
