//! `index.html`: the summary (the decided share of the over-approximation, the figures, what is said of
//! each result), the status chart and the plots.

use super::*;

#[derive(Serialize)]
pub(super) struct IndexPage<'a> {
    pub(super) common: &'a Common,
    pub(super) summary: SummaryView,
    pub(super) status_chart: String,
    pub(super) plots: Vec<String>,
    pub(super) functions: Table,
    /// The branch table, unless it has a page of its own (`branches.html`).
    pub(super) branches: Option<Table>,
    pub(super) n_branches: usize,
    /// Safe HTML: the annotated source (`rows_html`), when it is on this page.
    pub(super) source: Option<String>,
    pub(super) source_pages: Vec<PageRow>,
    pub(super) executions: Vec<ExecutionsView>,
    pub(super) script: &'static str,
}

#[derive(Serialize)]
pub(super) struct SummaryView {
    pub(super) configs: Vec<ConfigRow>,
    /// Safe HTML: the relations of `vcov compare`, line numbers linked.
    pub(super) compare: Vec<String>,
}

#[derive(Serialize)]
pub(super) struct ConfigRow {
    pub(super) name: String,
    /// Safe HTML: the decided and undecided share of the over-approximation, in one sentence.
    pub(super) headline: String,
    pub(super) over: usize,
    pub(super) over_pct: String,
    pub(super) covered: usize,
    pub(super) covered_pct: String,
    pub(super) not_coverable: usize,
    pub(super) undecided: usize,
    pub(super) undecided_pct: String,
    pub(super) unexplored: usize,
    pub(super) executions: usize,
    pub(super) property: &'static str,
    pub(super) property_detail: String,
    pub(super) exact: String,
    pub(super) time: String,
    /// `(term, safe HTML)`: everything said about the result, one entry each.
    pub(super) details: Vec<(String, String)>,
}

pub(super) fn summary_view(input: &HtmlInput, layout: &Layout) -> SummaryView {
    let href = |l: u32| layout.href(l);
    let configs = input
        .results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let c = r.counts();
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
                property: words::property_answer(&r.property),
                property_detail: words::property(&r.property),
                exact: words::exactness(&r.exactness).answer,
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
pub(super) fn headline(r: &CoverageResult, c: &StatusCounts) -> String {
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
pub(super) fn details(
    input: &HtmlInput,
    i: usize,
    r: &CoverageResult,
    href: &dyn Fn(u32) -> String,
) -> Vec<(String, String)> {
    let mut d: Vec<(String, String)> = Vec::new();
    let mut add = |term: &str, text: String| d.push((term.to_string(), linkify(&text, href)));
    add("automaton", r.automaton.display().to_string());
    add("exact", words::exactness(&r.exactness).definition());
    if let Some(by) = r.stopped_by {
        add("stopped", format!("by {} after {:.1} s", words::stopped_by(by), r.times.search_end));
    }
    add("property", words::property(&r.property));
    add(
        "assumptions",
        if r.assumed.is_empty() {
            "none".into()
        } else {
            r.assumed.assumptions().iter().map(|(n, s)| format!("{n} ({s})")).collect::<Vec<_>>().join("; ")
        },
    );
    if let Some(what) = words::abstraction(r) {
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
        add("undecided", words::undecided_summary(u));
    }
    if let Some(w) = input.witness.get(i).cloned().flatten() {
        d.push(("witness".into(), format!(r#"<a href="{}">the violation witness (GraphML)</a>"#, escape(&w))));
    }
    d
}

pub(super) fn confirmation(r: &CoverageResult) -> String {
    match r.confirmation {
        Confirmation::Interpreter { rejected: 0 } => "vcov's concrete interpreter (none rejected)".into(),
        Confirmation::Interpreter { rejected } => {
            let why: Vec<String> =
                words::refusals(&r.refusals).iter().take(3).map(|(n, why)| format!("{n}: {why}")).collect();
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
pub(super) fn compare_notes(c: &Compared, href: &dyn Fn(u32) -> String) -> Vec<String> {
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
pub(super) fn status_chart(results: &[CoverageResult]) -> String {
    let mut bars = Vec::new();
    for r in results {
        let c = r.counts();
        let name = |what: &str| if results.len() == 1 { what.to_string() } else { format!("{}: {what}", r.instance) };
        let parts = |with_unexplored: bool| -> Vec<(usize, usize)> {
            STATUSES
                .iter()
                .enumerate()
                .filter(|(_, s)| with_unexplored || s.key != "unexplored")
                .map(|(k, s)| (k, count_of(&c, s.key)))
                .collect()
        };
        bars.push(StackedBar { label: name("over-approximation"), parts: parts(false) });
        bars.push(StackedBar { label: name("all lines to cover"), parts: parts(true) });
    }
    stacked_bars("Lines by status", &bars)
}

pub(super) fn plots(input: &HtmlInput) -> Vec<String> {
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
pub(super) fn over_time_chart(input: &HtmlInput) -> Option<String> {
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
            points: points(&|r| r.counts().decided()),
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
