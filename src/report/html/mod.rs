//! The HTML report (`--html DIR` of `vcov coverage` and `vcov compare`): `index.html` (summary with
//! the decided share of the over-approximation, plots, sortable and filterable function and branch
//! tables, executions), the annotated source (in `index.html` for programs of at most
//! `SOURCE_PAGE_LINES` lines, otherwise split into `source-N.html` pages at function boundaries, so
//! that no page of a 30,000-line driver weighs more than a few hundred KiB), and `review.html`, the
//! reviewer's page (claims, model, digests, how each claim was checked, the commands that check it
//! again; printable). Every page is self-contained (inline CSS and SVG, inline scripts that only sort,
//! filter and record the load time; no network, opens from a file URL). Rendered with minijinja from
//! `html/*.html`, which escapes every value (the program's text included) unless marked safe (the SVG
//! charts of `svg`, notes whose line numbers `linkify` made links, and the source rows `rows_html`
//! writes itself, escaping every text, because a driver's tens of thousands of rows are too many for
//! the template engine within the grace the reports have after a time limit), plus branches.html
//! (the branch table of a program whose source is split).
//!
//! Invariant: every source line's row holds one cell per configuration whose class is `st-` and the
//! JSON report's `line_status` of that line (`st-none` for lines not to cover), coloured as
//! `svg::STATUSES` says, like every chart and legend.
//! Invariant: every `line N` (and `lines N, M`) in the words of a note is a link to that line.

use std::collections::{BTreeMap, BTreeSet};

use minijinja::Environment;
use serde::Serialize;

use super::compare::Compared;
use super::svg::{self, dash, escape, line_chart, stacked_bars, Axis, Series, Shape, StackedBar, STATUSES};
use super::words;
use crate::coverage::result::{Confirmation, CoverageResult, LineStatus, StatusCounts};

mod batch;
mod executions;
mod index;
mod review;
mod source;
mod tables;
#[cfg(test)]
mod tests;

pub use batch::{batch_html, BatchTaskView};
use executions::*;
use index::*;
pub(crate) use review::recheck_commands;
use review::*;
use source::*;
use tables::*;

/// What the pages show.
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

/// One file of the report: its name in the report's folder and its text.
pub struct HtmlPage {
    /// `index.html`, `review.html`, `source-N.html`.
    pub file: String,
    /// The page.
    pub text: String,
}

/// Source lines in `index.html` at most; a longer program's source gets pages of its own, of about
/// this many lines each.
pub const SOURCE_PAGE_LINES: usize = 1000;
/// Inputs shown per execution before the rest is summarised.
const MAX_INPUTS_SHOWN: usize = 24;
/// Executions named in a covered line's tooltip.
const MAX_EXECS_IN_TITLE: usize = 8;

/// The pages of the report for `input`: `index.html`, `review.html` and, for a program of more than
/// `SOURCE_PAGE_LINES` lines, `source-1.html`, `source-2.html`, ... and `branches.html`; for
/// snapshots of one run, `coverage-over-time.svg` (the chart of `index.html`, alone).
pub fn html_report(input: &HtmlInput) -> Vec<HtmlPage> {
    let texts: Vec<&str> = input.source.lines().collect();
    let layout = Layout::new(texts.len(), &input.results[0].functions);
    let env = environment();
    let common = common(input);
    let mut pages = Vec::new();
    let covering = covering(input.results);
    let whys: Vec<BTreeMap<u32, String>> =
        input.results.iter().map(|r| r.undecided.as_ref().map(words::undecided_whys).unwrap_or_default()).collect();
    // With the source split, the branch table (thousands of rows on a driver) gets a page of its
    // own too, so that `index.html` stays light.
    let branches = branch_table(input, &layout);
    let n_branches = branches.rows.len();
    let branches_apart = !layout.inline;
    if branches_apart {
        let page = TablePage { common: &common, title: "Branches", table: &branches, script: SCRIPT };
        pages.push(HtmlPage { file: "branches.html".into(), text: render(&env, "branches.html", &page) });
    }
    let index = IndexPage {
        common: &common,
        summary: summary_view(input, &layout),
        status_chart: status_chart(input.results),
        plots: plots(input),
        functions: function_table(input, &layout),
        branches: if branches_apart { None } else { Some(branches) },
        n_branches,
        source: if layout.inline {
            Some(rows_html(&common.names, &source_rows(input, &covering, &whys, 1, texts.len() as u32, &texts)))
        } else {
            None
        },
        source_pages: if layout.inline { Vec::new() } else { page_rows(input, &layout) },
        executions: input.results.iter().enumerate().map(|(i, r)| executions_view(input, i, r)).collect(),
        script: SCRIPT,
    };
    pages.push(HtmlPage { file: "index.html".into(), text: render(&env, "report.html", &index) });
    // The chart of snapshots on its own too, for a README or a paper.
    if let Some(chart) = over_time_chart(input) {
        pages.push(HtmlPage { file: "coverage-over-time.svg".into(), text: chart });
    }
    if !layout.inline {
        for (k, &(first, last)) in layout.pages.iter().enumerate() {
            let page = SourcePage {
                common: &common,
                first,
                last,
                page: k + 1,
                n_pages: layout.pages.len(),
                prev: (k > 0).then(|| layout.file(k - 1)),
                next: (k + 1 < layout.pages.len()).then(|| layout.file(k + 1)),
                functions: input.results[0]
                    .functions
                    .iter()
                    .filter(|f| f.first_line >= first && f.first_line <= last)
                    .map(|f| Link { text: f.name.clone(), href: format!("#L{}", f.first_line) })
                    .collect(),
                rows: rows_html(&common.names, &source_rows(input, &covering, &whys, first, last, &texts)),
                script: SCRIPT,
            };
            pages.push(HtmlPage { file: layout.file(k), text: render(&env, "source.html", &page) });
        }
    }
    let review = review_view(input, &common, &layout);
    pages.push(HtmlPage { file: "review.html".into(), text: render(&env, "review.html", &review) });
    pages
}

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    for (name, text) in [
        ("style.css", include_str!("style.css")),
        ("legend.html", include_str!("legend.html")),
        ("table.html", include_str!("table.html")),
        ("report.html", include_str!("report.html")),
        ("source.html", include_str!("source.html")),
        ("review.html", include_str!("review.html")),
        ("branches.html", include_str!("branches.html")),
        ("batch.html", include_str!("batch.html")),
    ] {
        env.add_template(name, text).expect("the templates parse");
    }
    env
}

fn render<S: Serialize>(env: &Environment, name: &str, page: &S) -> String {
    env.get_template(name).expect("added").render(page).expect("the page renders")
}

/// Sorting, filtering and the load time (`data-load-ms` on the body, read by the benchmarks).
const SCRIPT: &str = include_str!("report.js");

/// Where each source line is shown: `index.html` for a short program, else pages of about
/// `SOURCE_PAGE_LINES` lines, cut before a function where one starts in the last half of a page.
struct Layout {
    /// Whether the source is in `index.html`.
    inline: bool,
    /// The first and last line of each source page (one page, all lines, when inline).
    pages: Vec<(u32, u32)>,
}

impl Layout {
    fn new(n_lines: usize, functions: &[crate::coverage::result::FunctionInfo]) -> Layout {
        let n = n_lines.max(1) as u32;
        if n_lines <= SOURCE_PAGE_LINES {
            return Layout { inline: true, pages: vec![(1, n)] };
        }
        let page = SOURCE_PAGE_LINES as u32;
        let mut starts: Vec<u32> = functions.iter().map(|f| f.first_line).collect();
        starts.sort_unstable();
        let mut pages = Vec::new();
        let mut first = 1;
        while first <= n {
            let mut last = (first + page - 1).min(n);
            if last < n {
                // The last function starting in the second half of the page starts the next one.
                if let Some(&s) = starts.iter().rev().find(|&&s| s > first + page / 2 && s <= last + 1) {
                    last = s - 1;
                }
            }
            pages.push((first, last));
            first = last + 1;
        }
        Layout { inline: false, pages }
    }

    /// The page (index into `pages`) of `line`.
    fn page_of(&self, line: u32) -> usize {
        self.pages.partition_point(|&(_, last)| last < line).min(self.pages.len() - 1)
    }

    fn file(&self, k: usize) -> String {
        if self.inline {
            "index.html".into()
        } else {
            format!("source-{}.html", k + 1)
        }
    }

    /// The link to `line` from a page that is not a source page (index, review).
    fn href(&self, line: u32) -> String {
        if self.inline {
            format!("#L{line}")
        } else {
            format!("{}#L{line}", self.file(self.page_of(line)))
        }
    }

    /// The link to `line` from the review page, which never holds the source.
    fn href_from_review(&self, line: u32) -> String {
        format!("{}#L{line}", self.file(self.page_of(line)))
    }
}

/// `text`, escaped, with every line number it names (`line 12`, `lines 3, 7-9`) a link made by
/// `href`; safe HTML.
pub(super) fn linkify(text: &str, href: &dyn Fn(u32) -> String) -> String {
    use std::sync::OnceLock;
    static LINES: OnceLock<regex::Regex> = OnceLock::new();
    static NUMBER: OnceLock<regex::Regex> = OnceLock::new();
    let lines = LINES
        .get_or_init(|| regex::Regex::new(r"\b(lines?) (\d+(?:-\d+)?(?:, \d+(?:-\d+)?)*)").expect("a valid pattern"));
    let number = NUMBER.get_or_init(|| regex::Regex::new(r"\d+").expect("a valid pattern"));
    let escaped = escape(text);
    lines
        .replace_all(&escaped, |c: &regex::Captures| {
            let list = number.replace_all(&c[2], |n: &regex::Captures| {
                let line: u32 = n[0].parse().unwrap_or(0);
                format!(r#"<a class="line" href="{}">{}</a>"#, href(line), &n[0])
            });
            format!("{} {list}", &c[1])
        })
        .into_owned()
}

/// `lines` (ascending) as `lines 3-5, 9` for `linkify`; `n` first ones at most, then `...`.
fn line_list(lines: &[u32], n: usize) -> String {
    let shown = &lines[..lines.len().min(n)];
    let more = if lines.len() > n { ", ..." } else { "" };
    match shown {
        [] => String::new(),
        [one] => format!("line {one}"),
        _ => format!("lines {}{more}", ranges(shown)),
    }
}

/// What every page shows in its header.
#[derive(Serialize)]
struct Common {
    title: String,
    program: String,
    producer: String,
    lines_to_cover: usize,
    n_lines: usize,
    names: Vec<String>,
    statuses: Vec<StatusView>,
}

#[derive(Serialize)]
struct StatusView {
    key: &'static str,
    label: &'static str,
    colour: &'static str,
    /// Per configuration: how many lines have this status.
    counts: Vec<usize>,
}

fn common(input: &HtmlInput) -> Common {
    let first = &input.results[0];
    Common {
        title: match input.results {
            [one] => format!("{} with {}", one.program.display(), one.automaton.display()),
            many => format!("{} with {} configurations", first.program.display(), many.len()),
        },
        program: first.program.display().to_string(),
        producer: format!("vcov {}", env!("CARGO_PKG_VERSION")),
        lines_to_cover: first.lines_to_cover.len(),
        n_lines: input.source.lines().count(),
        names: input.results.iter().map(|r| r.instance.clone()).collect(),
        statuses: STATUSES
            .iter()
            .map(|s| StatusView {
                key: s.key,
                label: s.label,
                colour: s.colour,
                counts: input.results.iter().map(|r| count_of(&r.counts(), s.key)).collect(),
            })
            .collect(),
    }
}

/// How many lines have the status of `key` (`svg::STATUSES`' keys, which are `LineStatus::name`s).
fn count_of(c: &StatusCounts, key: &str) -> usize {
    match key {
        "covered" => c.covered,
        "not_coverable" => c.not_coverable,
        "unknown" => c.unknown,
        "over_only" => c.over_only,
        _ => c.unexplored,
    }
}

fn pct(n: usize, of: usize) -> String {
    if of == 0 {
        "0.0".into()
    } else {
        format!("{:.1}", 100.0 * n as f64 / of as f64)
    }
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
