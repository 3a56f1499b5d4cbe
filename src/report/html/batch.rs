//! `summary.html` of `vcov batch --html`: one row per task.

use super::*;

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
    /// Why it failed, why its answer is unknown, or why its coverage is not exact.
    pub reason: String,
    /// Whether it counts as solved for the quantile plot (a done coverage task; a correct answer).
    pub solved: bool,
    /// Links (relative to the page) to the task's files: its HTML report, record (JSON) and logs,
    /// those that exist, as `(what, href)`.
    pub links: Vec<(String, String)>,
}

#[derive(Serialize)]
pub(super) struct BatchPage {
    pub(super) title: String,
    pub(super) producer: String,
    pub(super) counts: String,
    pub(super) summary: String,
    pub(super) solved_means: &'static str,
    pub(super) quantile: String,
    pub(super) tasks: Vec<BatchTaskRow>,
}

#[derive(Serialize)]
pub(super) struct BatchTaskRow {
    pub(super) name: String,
    pub(super) status: String,
    pub(super) result: String,
    pub(super) class: &'static str,
    pub(super) cpu: String,
    pub(super) wall: String,
    pub(super) reason: String,
    pub(super) links: Vec<Link>,
}

/// The summary page of a batch (`vcov batch --html`): the summary text, a quantile plot of the CPU
/// times of the solved tasks, and one row per task with links to its files. `verify` says what
/// "solved" means.
pub fn batch_html(title: &str, summary: &str, verify: bool, tasks: &[BatchTaskView]) -> String {
    let mut cpu: Vec<f64> = tasks.iter().filter(|t| t.solved).map(|t| t.cpu_seconds).collect();
    cpu.sort_by(f64::total_cmp);
    let points: Vec<(f64, f64)> = cpu.iter().enumerate().map(|(k, &c)| ((k + 1) as f64, c)).collect();
    let quantile = line_chart(
        "CPU time of the solved tasks, sorted",
        &Axis { label: "n-th solved task", integer: true, min: 1.0 },
        &Axis::real("CPU seconds"),
        &[Series {
            name: if verify { "correct answers" } else { "finished tasks" }.into(),
            points,
            end: None,
            colour: svg::NEUTRAL,
            dash: "",
        }],
        Shape::Points,
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
                links: t.links.iter().map(|(text, href)| Link { text: text.clone(), href: href.clone() }).collect(),
            })
            .collect(),
    };
    render(&environment(), "batch.html", &page)
}
