//! The annotated source: one row per line with a status cell per configuration (`index.html`, or
//! `source-N.html` pages).

use super::*;

/// For every configuration, the executions covering each line.
pub(super) fn covering(results: &[CoverageResult]) -> Vec<BTreeMap<u32, Vec<usize>>> {
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

pub(super) struct SourceRow {
    pub(super) n: u32,
    pub(super) text: String,
    pub(super) cells: Vec<Cell>,
}

pub(super) struct Cell {
    pub(super) config: String,
    pub(super) status: &'static str,
    pub(super) title: String,
}

pub(super) fn source_rows(
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
pub(super) fn rows_html(names: &[String], rows: &[SourceRow]) -> String {
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
pub(super) fn title(r: &CoverageResult, cov: &BTreeMap<u32, Vec<usize>>, why: Option<&str>, n: u32) -> String {
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
            r.not_coverable_by.get(&n).map_or("proof".to_string(), words::not_coverable_by)
        ),
        Some(LineStatus::Unknown) => format!(
            "{}: unknown ({})",
            r.instance,
            why.map(str::to_string).or_else(|| r.exactness.reason().map(words::inexact)).unwrap_or_default()
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
pub(super) struct PageRow {
    pub(super) href: String,
    pub(super) first: u32,
    pub(super) last: u32,
    pub(super) functions: String,
    pub(super) counts: Vec<String>,
}

pub(super) fn page_rows(input: &HtmlInput, layout: &Layout) -> Vec<PageRow> {
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
                        let c = StatusCounts::of(r.line_status.range(first..=last).map(|(_, s)| s));
                        format!("{} / {} / {}", c.covered, c.not_coverable, c.undecided())
                    })
                    .collect(),
            }
        })
        .collect()
}

#[derive(Serialize)]
pub(super) struct SourcePage<'a> {
    pub(super) common: &'a Common,
    pub(super) first: u32,
    pub(super) last: u32,
    pub(super) page: usize,
    pub(super) n_pages: usize,
    pub(super) prev: Option<String>,
    pub(super) next: Option<String>,
    pub(super) functions: Vec<Link>,
    /// Safe HTML: the annotated lines of the page (`rows_html`).
    pub(super) rows: String,
    pub(super) script: &'static str,
}

/// The name of the status `key` in legends.
pub(super) fn status_label(key: &str) -> &'static str {
    STATUSES.iter().find(|s| s.key == key).map_or("", |s| s.label)
}
