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
use crate::coverage::result::{Confirmation, CoverageResult, LineStatus, PropertyStatus};

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
        input.results.iter().map(|r| r.undecided.as_ref().map(|u| u.whys()).unwrap_or_default()).collect();
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
        ("style.css", include_str!("html/style.css")),
        ("legend.html", include_str!("html/legend.html")),
        ("table.html", include_str!("html/table.html")),
        ("report.html", include_str!("html/report.html")),
        ("source.html", include_str!("html/source.html")),
        ("review.html", include_str!("html/review.html")),
        ("branches.html", include_str!("html/branches.html")),
        ("batch.html", include_str!("html/batch.html")),
    ] {
        env.add_template(name, text).expect("the templates parse");
    }
    env
}

fn render<S: Serialize>(env: &Environment, name: &str, page: &S) -> String {
    env.get_template(name).expect("added").render(page).expect("the page renders")
}

/// Sorting, filtering and the load time (`data-load-ms` on the body, read by the benchmarks).
const SCRIPT: &str = include_str!("html/report.js");

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
                counts: input.results.iter().map(|r| Counts::of(r).get(s.key)).collect(),
            })
            .collect(),
    }
}

/// How many lines to cover have each status.
#[derive(Default, Clone, Copy)]
struct Counts {
    covered: usize,
    not_coverable: usize,
    unknown: usize,
    over_only: usize,
    unexplored: usize,
}

impl Counts {
    fn of(r: &CoverageResult) -> Counts {
        Counts::of_lines(r, r.line_status.keys().copied())
    }

    fn of_lines(r: &CoverageResult, lines: impl Iterator<Item = u32>) -> Counts {
        let mut c = Counts::default();
        for l in lines {
            match r.line_status.get(&l) {
                Some(LineStatus::Covered(_)) => c.covered += 1,
                Some(LineStatus::NotCoverable) => c.not_coverable += 1,
                Some(LineStatus::Unknown) => c.unknown += 1,
                Some(LineStatus::OverOnly) => c.over_only += 1,
                Some(LineStatus::Unexplored) => c.unexplored += 1,
                None => {}
            }
        }
        c
    }

    fn get(&self, key: &str) -> usize {
        match key {
            "covered" => self.covered,
            "not_coverable" => self.not_coverable,
            "unknown" => self.unknown,
            "over_only" => self.over_only,
            _ => self.unexplored,
        }
    }

    fn over(&self) -> usize {
        self.covered + self.not_coverable + self.unknown + self.over_only
    }

    fn decided(&self) -> usize {
        self.covered + self.not_coverable
    }

    fn undecided(&self) -> usize {
        self.unknown + self.over_only
    }
}

fn pct(n: usize, of: usize) -> String {
    if of == 0 {
        "0.0".into()
    } else {
        format!("{:.1}", 100.0 * n as f64 / of as f64)
    }
}

#[derive(Serialize)]
struct IndexPage<'a> {
    common: &'a Common,
    summary: SummaryView,
    status_chart: String,
    plots: Vec<String>,
    functions: Table,
    /// The branch table, unless it has a page of its own (`branches.html`).
    branches: Option<Table>,
    n_branches: usize,
    /// Safe HTML: the annotated source (`rows_html`), when it is on this page.
    source: Option<String>,
    source_pages: Vec<PageRow>,
    executions: Vec<ExecutionsView>,
    script: &'static str,
}

#[derive(Serialize)]
struct SummaryView {
    configs: Vec<ConfigRow>,
    /// Safe HTML: the relations of `vcov compare`, line numbers linked.
    compare: Vec<String>,
}

#[derive(Serialize)]
struct ConfigRow {
    name: String,
    /// Safe HTML: the decided and undecided share of the over-approximation, in one sentence.
    headline: String,
    over: usize,
    over_pct: String,
    covered: usize,
    covered_pct: String,
    not_coverable: usize,
    undecided: usize,
    undecided_pct: String,
    unexplored: usize,
    executions: usize,
    property: &'static str,
    property_detail: String,
    exact: &'static str,
    time: String,
    /// `(term, safe HTML)`: everything said about the result, one entry each.
    details: Vec<(String, String)>,
}

fn summary_view(input: &HtmlInput, layout: &Layout) -> SummaryView {
    let href = |l: u32| layout.href(l);
    let configs = input
        .results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let c = Counts::of(r);
            let over = c.over();
            ConfigRow {
                name: r.instance.clone(),
                headline: headline(r, &c),
                over,
                over_pct: pct(over, r.lines_to_cover.len()),
                covered: c.covered,
                covered_pct: pct(c.covered, r.lines_to_cover.len()),
                not_coverable: c.not_coverable,
                undecided: c.undecided(),
                undecided_pct: pct(c.undecided(), over),
                unexplored: c.unexplored,
                executions: r.n_terminating(),
                property: match &r.property {
                    PropertyStatus::FoundInRegion => "violated in the region",
                    PropertyStatus::FoundOutsideRegion => "violated outside the region",
                    PropertyStatus::NoneInRegion { .. } => "none in the region",
                    PropertyStatus::NotDecided(_) => "not decided",
                },
                property_detail: r.property.to_string(),
                exact: match (r.exact(), r.assumed.is_empty()) {
                    (true, true) => "yes",
                    (true, false) => "yes, assuming",
                    (false, _) => "no",
                },
                time: format!("{:.2}", r.times.total),
                details: details(input, i, r, &href),
            }
        })
        .collect();
    let compare = input.compared.map(|c| compare_notes(c, &href)).unwrap_or_default();
    SummaryView { configs, compare }
}

/// `857 of the 867 lines of the over-approximation (98.8%) are decided: 852 covered, 5 proven not
/// coverable; 10 (1.2%) are undecided (10 unknown). 15381 lines to cover lie outside it.`
fn headline(r: &CoverageResult, c: &Counts) -> String {
    let over = c.over();
    let mut undecided = Vec::new();
    if c.unknown > 0 {
        undecided.push(format!("{} unknown", c.unknown));
    }
    if c.over_only > 0 {
        undecided.push(format!("{} over-approximation only", c.over_only));
    }
    let undecided = if undecided.is_empty() { String::new() } else { format!(" ({})", undecided.join(", ")) };
    let mut text = format!(
        "<b>{}</b> of the {over} lines of the over-approximation ({}%) are <b>decided</b>: {} covered, {} proven \
         not coverable; <b>{}</b> ({}%) are <b>undecided</b>{undecided}. {} of the {} lines to cover lie outside \
         it (unexplored).",
        c.decided(),
        pct(c.decided(), over),
        c.covered,
        c.not_coverable,
        c.undecided(),
        pct(c.undecided(), over),
        c.unexplored,
        r.lines_to_cover.len()
    );
    if let Some(d) = &r.decided_assuming {
        let names = escape(&d.assumptions.assumption_names().join(","));
        let n = d.not_coverable.len();
        text.push_str(&format!(
            " <b>Assuming {names}</b>, {n} of the undecided lines ({}%) are not coverable and {} stay undecided: the \
             search is complete under {} (<code>--assume {names}</code> makes it the result).",
            pct(n, over),
            c.undecided() - n,
            d.assumptions.assumptions().iter().map(|(_, st)| escape(st)).collect::<Vec<_>>().join("; ")
        ));
    }
    text
}

/// Everything the summary says about one result besides its figures, line numbers linked.
fn details(input: &HtmlInput, i: usize, r: &CoverageResult, href: &dyn Fn(u32) -> String) -> Vec<(String, String)> {
    let mut d: Vec<(String, String)> = Vec::new();
    let mut add = |term: &str, text: String| d.push((term.to_string(), linkify(&text, href)));
    add("automaton", r.automaton.display().to_string());
    add(
        "exact",
        match (&r.inexact_reason, r.exact()) {
            (_, true) if r.assumed.is_empty() => {
                "yes: every other line of the over-approximation is proven not coverable".into()
            }
            (_, true) => "yes, relative to the assumptions: every other line is proven not coverable".into(),
            (Some(why), false) => format!("no: {why}"),
            (None, false) => "no".into(),
        },
    );
    if let Some(by) = r.stopped_by {
        add("stopped", format!("by {} after {:.1} s", by.describe(), r.times.search_end));
    }
    add("property", r.property.to_string());
    add(
        "assumptions",
        if r.assumed.is_empty() {
            "none".into()
        } else {
            r.assumed.iter().map(|(n, s)| format!("{n} ({s})")).collect::<Vec<_>>().join("; ")
        },
    );
    if let Some(what) = r.abstraction() {
        add(
            "abstraction",
            format!("{} line(s) proven not coverable with {what} abstracted away", r.proven_by_abstraction),
        );
    }
    if !r.invariants.is_empty() {
        let list: Vec<String> = r
            .invariants
            .iter()
            .map(|i| format!("{} (in {}, the loop of line {})", i.expr, i.function, i.line))
            .collect();
        add(
            "invariants",
            format!("proven at the loop heads; the proofs over the program assume them: {}", list.join("; ")),
        );
    }
    add("executions confirmed by", confirmation(r));
    if !r.undefined.is_empty() {
        let places: Vec<String> =
            r.undefined.iter().take(10).map(|u| format!("line {} ({})", u.line, u.kind)).collect();
        let more = if r.undefined.len() > 10 { ", ..." } else { "" };
        add(
            "undefined behaviour",
            format!(
                "{} path(s) end at possible undefined behaviour, at {} place(s): {}{more}",
                r.undefined_paths,
                r.undefined.len(),
                places.join(", ")
            ),
        );
    }
    if let (n, Some(first)) = &r.assumed_violations {
        add(
            "violations under assumptions",
            format!(
                "{n} path(s) violate the property relying on the accepted assumptions (first at line {})",
                first.line
            ),
        );
    }
    if let Some(u) = &r.undecided {
        add("undecided", u.summary());
    }
    if let Some(w) = input.witness.get(i).cloned().flatten() {
        d.push(("witness".into(), format!(r#"<a href="{}">the violation witness (GraphML)</a>"#, escape(&w))));
    }
    d
}

fn confirmation(r: &CoverageResult) -> String {
    match r.confirmation {
        Confirmation::Interpreter { rejected: 0 } => "vcov's concrete interpreter (none rejected)".into(),
        Confirmation::Interpreter { rejected } => {
            let why: Vec<String> = r.refusals.iter().take(3).map(|(n, why)| format!("{n}: {why}")).collect();
            let more = if r.refusals.len() > 3 { "; ..." } else { "" };
            format!("vcov's concrete interpreter; {rejected} rejected and not counted ({}{more})", why.join("; "))
        }
        Confirmation::Gcc { confirmed, rejected, pending: 0 } => {
            format!("gcc and gcov (--confirm): {confirmed} confirmed, {rejected} rejected and not counted")
        }
        Confirmation::Gcc { confirmed, rejected, pending } => format!(
            "gcc and gcov (--confirm): {confirmed} confirmed, {rejected} rejected, {pending} not replayed before the \
             time limit (neither counted)"
        ),
    }
}

/// The relations of `vcov compare`, as safe HTML sentences.
fn compare_notes(c: &Compared, href: &dyn Fn(u32) -> String) -> Vec<String> {
    let mut out = vec![linkify(
        &format!(
            "Covered by every configuration: {} lines; by some: {} lines.",
            c.covered_by_all.len(),
            c.covered_by_some.len()
        ),
        href,
    )];
    for (r, only) in c.results.iter().zip(&c.covered_only_by) {
        let list = if only.is_empty() { String::new() } else { format!(": {}", line_list(only, 30)) };
        out.push(linkify(&format!("Covered only by {}: {} lines{list}.", r.instance, only.len()), href));
    }
    let conflicts: Vec<u32> = c.over_but_not_coverable.iter().map(|(l, _, _)| *l).collect();
    let list = if conflicts.is_empty() { String::new() } else { format!(": {}", line_list(&conflicts, 30)) };
    out.push(linkify(
        &format!(
            "Over-approximated by one configuration, proven not coverable under another: {} lines{list}.",
            conflicts.len()
        ),
        href,
    ));
    out
}

/// The stacked bars of every configuration: its over-approximation and all its lines to cover, by
/// status.
fn status_chart(results: &[CoverageResult]) -> String {
    let mut bars = Vec::new();
    for r in results {
        let c = Counts::of(r);
        let name = |what: &str| if results.len() == 1 { what.to_string() } else { format!("{}: {what}", r.instance) };
        let parts = |with_unexplored: bool| -> Vec<(usize, usize)> {
            STATUSES
                .iter()
                .enumerate()
                .filter(|(_, s)| with_unexplored || s.key != "unexplored")
                .map(|(k, s)| (k, c.get(s.key)))
                .collect()
        };
        bars.push(StackedBar { label: name("over-approximation"), parts: parts(false) });
        bars.push(StackedBar { label: name("all lines to cover"), parts: parts(true) });
    }
    stacked_bars("Lines by status", &bars)
}

fn plots(input: &HtmlInput) -> Vec<String> {
    let mut out = Vec::new();
    let covered = svg::status_colour("covered");
    let with_timeline: Vec<(usize, &CoverageResult)> =
        input.results.iter().enumerate().filter(|(_, r)| !r.timeline.is_empty()).collect();
    if with_timeline.is_empty() {
        return out;
    }
    let series = |f: &dyn Fn(&crate::coverage::result::TimelinePoint) -> f64, end: &dyn Fn(&CoverageResult) -> f64| {
        with_timeline
            .iter()
            .map(|&(i, r)| Series {
                name: r.instance.clone(),
                points: r.timeline.iter().map(|p| (f(p), p.lines as f64)).collect(),
                end: Some(end(r)),
                colour: covered,
                dash: dash(i),
            })
            .collect::<Vec<_>>()
    };
    let execs = series(&|p| p.executions as f64, &|r| r.n_terminating() as f64);
    out.push(line_chart(
        "Lines covered against executions",
        &Axis::count("executions kept"),
        &Axis::count("lines covered"),
        &execs,
        Shape::Steps,
    ));
    // The search's own clock: it ran until search_end (its proofs included), not until the last
    // execution it kept.
    let times = series(&|p| p.seconds, &|r| r.times.search + r.times.proof);
    if times.iter().any(|s| s.end.unwrap_or(0.0) > 0.0 || s.points.iter().any(|p| p.0 > 0.0)) {
        out.push(line_chart(
            "Lines covered against time",
            &Axis::real("seconds of search (to its end)"),
            &Axis::count("lines covered"),
            &times,
            Shape::Steps,
        ));
    }
    out.extend(over_time_chart(input));
    out
}

/// For snapshots of one run (`vcov compare --order time`): the over-approximation, the covered and
/// the decided lines (covered or proven not coverable) of each snapshot, against the time it was
/// taken when every automaton says (`Compared::taken_at`), else against its number.
fn over_time_chart(input: &HtmlInput) -> Option<String> {
    let compared = input.compared.filter(|c| c.over_time)?;
    let times: Option<Vec<f64>> = match compared.taken_at.len() == input.results.len() {
        true => compared.taken_at.iter().copied().collect(),
        false => None,
    };
    let x = |k: usize| times.as_ref().map_or((k + 1) as f64, |t| t[k]);
    let points = |count: &dyn Fn(&CoverageResult) -> usize| -> Vec<(f64, f64)> {
        input.results.iter().enumerate().map(|(k, r)| (x(k), count(r) as f64)).collect()
    };
    let axis = match times {
        Some(_) => Axis::real("seconds after the start of the run"),
        None => Axis { label: "snapshot", integer: true, min: 1.0 },
    };
    let series = [
        Series {
            name: "over-approximation".into(),
            points: points(&|r| r.over_lines.len()),
            end: None,
            colour: svg::NEUTRAL,
            dash: "8 4",
        },
        Series {
            name: "decided".into(),
            points: points(&|r| Counts::of(r).decided()),
            end: None,
            colour: svg::status_colour("not_coverable"),
            dash: "3 3",
        },
        Series {
            name: "covered".into(),
            points: points(&|r| r.under_lines.len()),
            end: None,
            colour: svg::status_colour("covered"),
            dash: "",
        },
    ];
    Some(line_chart("Coverage over time", &axis, &Axis::count("lines"), &series, Shape::Points))
}

/// A sortable, filterable table: a header row per configuration group, then rows of cells.
#[derive(Serialize)]
struct Table {
    /// Names of the configuration groups above the columns (empty for one configuration).
    groups: Vec<String>,
    /// How many columns each group has.
    group_width: usize,
    /// Columns before the groups.
    lead: Vec<Column>,
    /// Every column: the lead, then those of each configuration.
    header: Vec<Column>,
    rows: Vec<TableRow>,
}

impl Table {
    fn new(groups: Vec<String>, lead: Vec<Column>, per_config: &[Column], rows: Vec<TableRow>) -> Table {
        let mut header = lead.clone();
        for _ in 0..groups.len().max(1) {
            header.extend(per_config.iter().cloned());
        }
        Table { group_width: per_config.len(), groups, lead, header, rows }
    }
}

#[derive(Serialize, Clone)]
struct Column {
    name: &'static str,
    title: &'static str,
    num: bool,
}

#[derive(Serialize)]
struct TableRow {
    /// Filter attributes: name (lowercase), and whether it has undecided lines / is open.
    key: String,
    flag: bool,
    over: bool,
    link: Link,
    /// `(text, numeric)`.
    cells: Vec<(String, bool)>,
}

#[derive(Serialize)]
struct Link {
    text: String,
    href: String,
}

fn function_table(input: &HtmlInput, layout: &Layout) -> Table {
    let first = &input.results[0];
    let rows = first
        .functions
        .iter()
        .map(|f| {
            // `lines_to_cover` is ascending: the function's lines are one slice of it.
            let lines = &first.lines_to_cover;
            let to_cover = lines.partition_point(|&l| l <= f.last_line) - lines.partition_point(|&l| l < f.first_line);
            let mut cells = vec![(format!("{}–{}", f.first_line, f.last_line), true), (to_cover.to_string(), true)];
            let (mut undecided, mut over) = (0, 0);
            for r in input.results {
                let c = Counts::of_lines(r, r.line_status.range(f.first_line..=f.last_line).map(|(l, _)| *l));
                undecided += c.undecided();
                over += c.over();
                cells.extend([c.over(), c.covered, c.not_coverable, c.undecided()].map(|n| (n.to_string(), true)));
            }
            TableRow {
                key: f.name.to_lowercase(),
                flag: undecided > 0,
                over: over > 0,
                link: Link { text: f.name.clone(), href: layout.href(f.first_line) },
                cells,
            }
        })
        .collect();
    Table::new(
        group_names(input),
        vec![
            Column { name: "function", title: "the function (link to its first line)", num: false },
            Column { name: "lines", title: "its first and last line", num: true },
            Column { name: "to cover", title: "lines to cover in it", num: true },
        ],
        &[
            Column { name: "over", title: "lines of the over-approximation", num: true },
            Column { name: "covered", title: "lines covered", num: true },
            Column { name: "not cov.", title: "lines proven not coverable", num: true },
            Column { name: "undecided", title: "lines undecided (unknown or over-approximation only)", num: true },
        ],
        rows,
    )
}

fn group_names(input: &HtmlInput) -> Vec<String> {
    if input.results.len() > 1 {
        input.results.iter().map(|r| r.instance.clone()).collect()
    } else {
        Vec::new()
    }
}

fn branch_table(input: &HtmlInput, layout: &Layout) -> Table {
    let first = &input.results[0];
    let function_of = |line: u32| {
        let k = first.functions.partition_point(|f| f.first_line <= line);
        first.functions[..k].iter().rev().find(|f| f.last_line >= line).map(|f| f.name.clone()).unwrap_or_default()
    };
    let rows = first
        .branches
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let mut cells = vec![(function_of(b.line), false), (b.arms.len().to_string(), true)];
            let mut open = false;
            let mut over_any = false;
            for r in input.results {
                let (over, covered) = match r.branches.get(k) {
                    Some(rb) => (rb.arms.iter().filter(|a| a.0).count(), rb.arms.iter().filter(|a| a.1).count()),
                    None => (0, 0),
                };
                open |= over > covered;
                over_any |= over > 0;
                cells.extend([(over.to_string(), true), (covered.to_string(), true)]);
            }
            TableRow {
                key: function_of(b.line).to_lowercase(),
                flag: open,
                over: over_any,
                link: Link { text: b.line.to_string(), href: layout.href(b.line) },
                cells,
            }
        })
        .collect();
    Table::new(
        group_names(input),
        vec![
            Column { name: "line", title: "the branching line (link)", num: true },
            Column { name: "function", title: "the function it is in", num: false },
            Column { name: "arms", title: "how many arms the branch has", num: true },
        ],
        &[
            Column { name: "arms over", title: "arms in the over-approximation", num: true },
            Column { name: "arms covered", title: "arms some execution took", num: true },
        ],
        rows,
    )
}

/// For every configuration, the executions covering each line.
fn covering(results: &[CoverageResult]) -> Vec<BTreeMap<u32, Vec<usize>>> {
    results
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
        .collect()
}

struct SourceRow {
    n: u32,
    text: String,
    cells: Vec<Cell>,
}

struct Cell {
    config: String,
    status: &'static str,
    title: String,
}

fn source_rows(
    input: &HtmlInput,
    covering: &[BTreeMap<u32, Vec<usize>>],
    whys: &[BTreeMap<u32, String>],
    first: u32,
    last: u32,
    texts: &[&str],
) -> Vec<SourceRow> {
    (first..=last)
        .map(|n| {
            let text = texts.get(n as usize - 1).copied().unwrap_or_default();
            let cells = input
                .results
                .iter()
                .zip(covering.iter().zip(whys))
                .map(|(r, (cov, why))| {
                    let status = r.line_status.get(&n);
                    Cell {
                        config: r.instance.clone(),
                        status: status.map_or("none", |s| s.name()),
                        title: title(r, cov, why.get(&n).map(String::as_str), n),
                    }
                })
                .collect();
            SourceRow { n, text: text.to_string(), cells }
        })
        .collect()
}

/// The annotated source as a table: a row per line with its number (a link to itself), one status
/// cell per configuration (class `st-` + the status, the tooltip of `title`) and the code.
/// Written here rather than through a template: a driver has tens of thousands of rows, and the
/// template engine took most of a second for them where this takes a few milliseconds (which
/// matters when a time limit leaves the reports only the watchdog's grace). Every text is escaped.
fn rows_html(names: &[String], rows: &[SourceRow]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(rows.len() * 120);
    out.push_str(r#"<table class="source"><colgroup><col class="ln">"#);
    for _ in names {
        out.push_str(r#"<col class="st">"#);
    }
    out.push_str("<col class=\"code\"></colgroup>\n");
    for l in rows {
        let _ = write!(out, r##"<tr id="L{n}" data-line="{n}"><td class="ln"><a href="#L{n}">{n}</a></td>"##, n = l.n);
        for c in &l.cells {
            let _ = write!(out, r#"<td class="st st-{}" data-config="{}""#, c.status, escape(&c.config));
            if !c.title.is_empty() {
                let _ = write!(out, r#" title="{}""#, escape(&c.title));
            }
            out.push_str("></td>");
        }
        let _ = writeln!(out, r#"<td class="code">{}</td></tr>"#, escape(&l.text));
    }
    out.push_str("</table>");
    out
}

/// A status cell's tooltip: the covering executions, or why the line is not coverable or undecided
/// (`why`, from `UndecidedLines::whys`).
fn title(r: &CoverageResult, cov: &BTreeMap<u32, Vec<usize>>, why: Option<&str>, n: u32) -> String {
    match r.line_status.get(&n) {
        Some(LineStatus::Covered(_)) => {
            let ids = cov.get(&n).map(Vec::as_slice).unwrap_or_default();
            let mut t: Vec<String> = ids.iter().take(MAX_EXECS_IN_TITLE).map(|i| format!("#{i}")).collect();
            if ids.len() > MAX_EXECS_IN_TITLE {
                t.push(format!("and {} more", ids.len() - MAX_EXECS_IN_TITLE));
            }
            format!("{}: covered by execution {}", r.instance, t.join(", "))
        }
        Some(LineStatus::NotCoverable) => format!(
            "{}: not coverable ({})",
            r.instance,
            r.not_coverable_by.get(&n).map_or("proof".to_string(), |by| by.to_string())
        ),
        Some(LineStatus::Unknown) => format!(
            "{}: unknown ({})",
            r.instance,
            why.map(str::to_string).or_else(|| r.inexact_reason.as_ref().map(|w| w.to_string())).unwrap_or_default()
        ),
        Some(LineStatus::OverOnly) => match why {
            Some(why) => format!("{}: over_only, undecided: {why}", r.instance),
            None => format!("{}: over_only", r.instance),
        },
        Some(s) => format!("{}: {}", r.instance, s.name()),
        None => String::new(),
    }
}

/// A source page in the index of `index.html`: its lines, functions and undecided lines.
#[derive(Serialize)]
struct PageRow {
    href: String,
    first: u32,
    last: u32,
    functions: String,
    counts: Vec<String>,
}

fn page_rows(input: &HtmlInput, layout: &Layout) -> Vec<PageRow> {
    layout
        .pages
        .iter()
        .enumerate()
        .map(|(k, &(first, last))| {
            let names: Vec<&str> = input.results[0]
                .functions
                .iter()
                .filter(|f| f.first_line >= first && f.first_line <= last)
                .map(|f| f.name.as_str())
                .collect();
            let functions = match names.as_slice() {
                [] => "-".to_string(),
                [one] => one.to_string(),
                [a, .., b] => format!("{a} … {b} ({})", names.len()),
            };
            PageRow {
                href: layout.file(k),
                first,
                last,
                functions,
                counts: input
                    .results
                    .iter()
                    .map(|r| {
                        let c = Counts::of_lines(r, r.line_status.range(first..=last).map(|(l, _)| *l));
                        format!("{} / {} / {}", c.covered, c.not_coverable, c.undecided())
                    })
                    .collect(),
            }
        })
        .collect()
}

#[derive(Serialize)]
struct SourcePage<'a> {
    common: &'a Common,
    first: u32,
    last: u32,
    page: usize,
    n_pages: usize,
    prev: Option<String>,
    next: Option<String>,
    functions: Vec<Link>,
    /// Safe HTML: the annotated lines of the page (`rows_html`).
    rows: String,
    script: &'static str,
}

/// The name of the status `key` in legends.
fn status_label(key: &str) -> &'static str {
    STATUSES.iter().find(|s| s.key == key).map_or("", |s| s.label)
}

/// A page holding one table (`branches.html` of a program whose source is split).
#[derive(Serialize)]
struct TablePage<'a> {
    common: &'a Common,
    title: &'static str,
    table: &'a Table,
    script: &'static str,
}

#[derive(Serialize)]
struct ExecutionsView {
    name: String,
    anchor: String,
    witness: Option<String>,
    execs: Vec<Exec>,
}

#[derive(Serialize)]
struct Exec {
    id: usize,
    origin: String,
    inputs: String,
    added: String,
    test: Option<String>,
    cex: Option<String>,
}

fn executions_view(input: &HtmlInput, i: usize, r: &CoverageResult) -> ExecutionsView {
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
                origin: e.origin.to_string(),
                inputs: inputs.join("; "),
                added: format!("{}: {}", added.len(), ranges(&added)),
                test: link.map(|l| l.0.clone()),
                cex: link.map(|l| l.1.clone()),
            }
        })
        .collect();
    ExecutionsView {
        name: r.instance.clone(),
        anchor: format!("c{i}"),
        witness: input.witness.get(i).cloned().flatten(),
        execs,
    }
}

#[derive(Serialize)]
struct ReviewPage<'a> {
    common: &'a Common,
    configs: Vec<ReviewConfig>,
    /// `(what, path, SHA-256)` of every input.
    inputs: Vec<(String, String, String)>,
    vcov_version: &'static str,
}

#[derive(Serialize)]
struct ReviewConfig {
    name: String,
    /// `(claim, lines, how it was established, safe HTML)`.
    claims: Vec<Claim>,
    exact: String,
    property: String,
    /// Safe HTML: where the undecided lines are, line numbers linked.
    undecided: Option<String>,
    /// `(aspect, value)`: the model the claims hold under.
    model: Vec<(String, String)>,
    /// `(file, SHA-256)` of the evidence, with its folder.
    evidence_dir: Option<String>,
    evidence: Vec<(String, String)>,
    /// `(what it checks, command)`.
    commands: Vec<(String, String)>,
}

#[derive(Serialize)]
struct Claim {
    status: &'static str,
    colour: &'static str,
    /// The status's name in legends.
    label: &'static str,
    claim: &'static str,
    lines: usize,
    how: String,
}

fn review_view<'a>(input: &HtmlInput, common: &'a Common, layout: &Layout) -> ReviewPage<'a> {
    let href = |l: u32| layout.href_from_review(l);
    let first = &input.results[0];
    let mut inputs =
        vec![("program".to_string(), first.program.display().to_string(), first.provenance.program_sha256.clone())];
    for r in input.results {
        let what =
            if input.results.len() == 1 { "automaton".to_string() } else { format!("automaton of {}", r.instance) };
        inputs.push((what, r.automaton.display().to_string(), r.provenance.automaton_sha256.clone()));
    }
    let configs = input
        .results
        .iter()
        .map(|r| {
            let c = Counts::of(r);
            let mut by_argument: BTreeMap<String, usize> = BTreeMap::new();
            for arg in r.not_coverable_by.values() {
                *by_argument.entry(arg.to_string()).or_default() += 1;
            }
            let arguments: Vec<String> = by_argument.iter().map(|(a, n)| format!("{n} by {a}")).collect();
            let claims = vec![
                Claim {
                    status: "covered",
                    colour: svg::status_colour("covered"),
                    label: status_label("covered"),
                    claim: "covered: a terminating execution inside the explored region runs the line",
                    lines: c.covered,
                    how: format!(
                        "{} execution(s), each replayed: {}; every line is claimed for a test of the evidence",
                        r.n_terminating(),
                        confirmation(r)
                    ),
                },
                Claim {
                    status: "not_coverable",
                    colour: svg::status_colour("not_coverable"),
                    label: status_label("not_coverable"),
                    claim: "proven not coverable: no terminating execution inside the explored region runs the line",
                    lines: c.not_coverable,
                    how: if arguments.is_empty() { "-".into() } else { arguments.join("; ") },
                },
                Claim {
                    status: "unknown",
                    colour: svg::status_colour("unknown"),
                    label: status_label("unknown"),
                    claim: "unknown: the search ended incomplete; nothing is claimed",
                    lines: c.unknown,
                    how: if c.unknown == 0 {
                        "-".into()
                    } else {
                        "the search reached them but could not decide them (where: see undecided below)".into()
                    },
                },
                Claim {
                    status: "over_only",
                    colour: svg::status_colour("over_only"),
                    label: status_label("over_only"),
                    claim: "over-approximation only: not decided (a limit stopped the search, or no search was made)",
                    lines: c.over_only,
                    how: match (c.over_only, r.stopped_by) {
                        (0, _) => "-".into(),
                        (_, Some(by)) => format!("stopped by {} (where: see undecided below)", by.describe()),
                        (_, None) => "no search decided them (where: see undecided below)".into(),
                    },
                },
                Claim {
                    status: "unexplored",
                    colour: svg::status_colour("unexplored"),
                    label: status_label("unexplored"),
                    claim: "unexplored: outside the over-approximation; the verifier's run never got there",
                    lines: c.unexplored,
                    how: "the automaton x CFA product reaches none of its edges before __FALSE".into(),
                },
            ];
            let p = &r.provenance;
            let producer = match &p.producer {
                Some((who, source)) => format!("{who} (from {source})"),
                None => "not stated (the automaton has no header comment naming it, and no CPALog.txt lies beside it)"
                    .into(),
            };
            let model = vec![
                ("data model".to_string(), r.data_model.to_string()),
                ("line rule".into(), r.line_rule.to_string()),
                ("executions generated by".into(), r.generate.name().to_string()),
                (
                    "assumptions accepted".into(),
                    if r.assumed.is_empty() {
                        "none (the environment is over-approximated)".into()
                    } else {
                        r.assumed.iter().map(|(n, s)| format!("{n}: {s}")).collect::<Vec<_>>().join("; ")
                    },
                ),
                (
                    "automaton texts".into(),
                    format!("CPAchecker {} ({})", r.matching.generation.label(), r.matching.source.describe()),
                ),
                ("automaton written by".into(), producer),
                (
                    "automaton fit".into(),
                    format!(
                        "{} of {} states reached, {} of {} transitions used",
                        r.matching.states_reached,
                        r.matching.states,
                        r.matching.transitions_used,
                        r.matching.transitions
                    ),
                ),
                ("options".into(), if p.options.is_empty() { "-".into() } else { p.options.join(" ") }),
                ("measured by".into(), format!("vcov {}", p.vcov_version)),
            ];
            let commands = recheck_commands(r);
            ReviewConfig {
                name: r.instance.clone(),
                claims,
                exact: match (&r.inexact_reason, r.exact()) {
                    (_, true) => "yes: every line of the over-approximation is covered or proven not coverable".into(),
                    (Some(why), false) => linkify(&format!("no: {why}"), &href),
                    (None, false) => "no".into(),
                },
                property: linkify(&r.property.to_string(), &href),
                undecided: r.undecided.as_ref().map(|u| linkify(&u.summary(), &href)),
                model,
                evidence_dir: p.evidence.as_ref().map(|(d, _)| d.display().to_string()),
                evidence: p.evidence.as_ref().map(|(_, f)| f.clone()).unwrap_or_default(),
                commands,
            }
        })
        .collect();
    ReviewPage { common, configs, inputs, vcov_version: env!("CARGO_PKG_VERSION") }
}

/// The commands that check `r` again, from the folder vcov ran in, with what each checks: the
/// inputs' digests, every covered line under gcc and gcov (`vcov replay`, when evidence was
/// written), and the whole measurement.
pub(super) fn recheck_commands(r: &CoverageResult) -> Vec<(String, String)> {
    let p = &r.provenance;
    let program = shell_word(&r.program.display().to_string());
    let automaton = shell_word(&r.automaton.display().to_string());
    let mut commands = vec![(
        "the inputs are the ones measured (compare with their SHA-256)".to_string(),
        format!("sha256sum {program} {automaton}"),
    )];
    if let Some((dir, _)) = &p.evidence {
        let mut words =
            vec!["vcov".to_string(), "replay".into(), program.clone(), shell_word(&dir.display().to_string())];
        words.extend(p.replay_options.iter().map(|w| shell_word(w)));
        commands.push((
            "every covered line: gcc and gcov run each execution's test and see the lines it claims (exit code 0 \
             when every claim is confirmed)"
                .into(),
            words.join(" "),
        ));
    }
    let mut words = vec!["vcov".to_string(), "coverage".into(), program, "--aa".into(), automaton];
    words.extend(p.options.iter().map(|w| shell_word(w)));
    commands.push((
        "every figure, measured again (the same figures when the search ended by itself; a limit makes them vary)"
            .into(),
        words.join(" "),
    ));
    commands
}

/// `word` as one word of a POSIX shell command (quoted when it needs to be).
fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=,:+@%".contains(&b)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
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
    /// Why it failed, why its answer is unknown, or why its coverage is not exact.
    pub reason: String,
    /// Whether it counts as solved for the quantile plot (a done coverage task; a correct answer).
    pub solved: bool,
    /// Links (relative to the page) to the task's files: its HTML report, record (JSON) and logs,
    /// those that exist, as `(what, href)`.
    pub links: Vec<(String, String)>,
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
    links: Vec<Link>,
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

    #[test]
    fn every_line_number_of_a_note_is_a_link() {
        let href = |l: u32| format!("source-1.html#L{l}");
        let out = linkify(
            "3 line(s) undecided: 2 behind line 10614 in f (`[a < b]`), first at line 7: x; lines 3-5, 9 & more",
            &href,
        );
        assert_eq!(
            out,
            "3 line(s) undecided: 2 behind line <a class=\"line\" href=\"source-1.html#L10614\">10614</a> in f \
             (`[a &lt; b]`), first at line <a class=\"line\" href=\"source-1.html#L7\">7</a>: x; lines <a \
             class=\"line\" href=\"source-1.html#L3\">3</a>-<a class=\"line\" href=\"source-1.html#L5\">5</a>, <a \
             class=\"line\" href=\"source-1.html#L9\">9</a> &amp; more"
        );
    }

    #[test]
    fn source_pages_split_before_functions() {
        use crate::coverage::result::FunctionInfo;
        let f = |name: &str, first, last| FunctionInfo { name: name.into(), first_line: first, last_line: last };
        let small = Layout::new(SOURCE_PAGE_LINES, &[]);
        assert!(small.inline && small.pages == [(1, SOURCE_PAGE_LINES as u32)]);
        assert_eq!(small.href(7), "#L7");
        let functions = [f("a", 1, 750), f("b", 751, 2000), f("c", 2001, 2050)];
        let big = Layout::new(2250, &functions);
        // `b` starts in the second half of the first page: the page ends before it; `b` itself is
        // longer than a page and is cut; the rest fits one page.
        assert_eq!(SOURCE_PAGE_LINES, 1000);
        assert_eq!(big.pages, [(1, 750), (751, 1750), (1751, 2250)]);
        assert_eq!(big.href(1800), "source-3.html#L1800");
        assert_eq!(big.href(750), "source-1.html#L750");
        assert_eq!(big.page_of(2250), 2);
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("dir/program.c"), "dir/program.c");
    }
}
