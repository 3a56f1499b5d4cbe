//! The report of `vcov compare`: the configurations side by side, and how their lines relate.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::{json, Value};

use crate::coverage::result::{CoverageResult, Exactness, LineStatus, Origin};

/// Several coverage results of one program, compared.
pub struct Compared<'a> {
    /// One result per configuration, in the order given.
    pub results: &'a [CoverageResult],
    /// Lines every configuration covers.
    pub covered_by_all: Vec<u32>,
    /// Lines some configuration covers.
    pub covered_by_some: Vec<u32>,
    /// For each configuration, the lines only it covers.
    pub covered_only_by: Vec<Vec<u32>>,
    /// Lines one configuration over-approximates and another proves not coverable, with the
    /// configurations (indices) of each kind.
    pub over_but_not_coverable: Vec<(u32, Vec<usize>, Vec<usize>)>,
    /// Whether the results are snapshots of one run, in order.
    pub over_time: bool,
    /// With `over_time`: snapshots whose over-approximation lacks lines of the previous one's.
    pub not_monotone: Vec<NotMonotone>,
    /// With `over_time`: when each snapshot was taken, in seconds after the start of its run, where
    /// its automaton says (`vcov verify --aa-out` writes it); empty otherwise.
    pub taken_at: Vec<Option<f64>>,
}

/// A snapshot whose over-approximation does not contain the previous one's.
pub struct NotMonotone {
    /// The later snapshot's index.
    pub later: usize,
    /// The lines the earlier one has and it has not.
    pub lines: Vec<u32>,
}

impl<'a> Compared<'a> {
    /// Compares `results` (of one program, same lines to cover); `taken_at` as the field says.
    pub fn new(results: &'a [CoverageResult], over_time: bool, taken_at: Vec<Option<f64>>) -> Compared<'a> {
        let has = |set: &[u32], l: u32| set.binary_search(&l).is_ok();
        let mut some: Vec<u32> = results.iter().flat_map(|r| r.under_lines.iter().copied()).collect();
        some.sort_unstable();
        some.dedup();
        let all: Vec<u32> = some.iter().copied().filter(|&l| results.iter().all(|r| has(&r.under_lines, l))).collect();
        let only = (0..results.len())
            .map(|i| {
                results[i]
                    .under_lines
                    .iter()
                    .copied()
                    .filter(|&l| results.iter().enumerate().all(|(j, r)| j == i || !has(&r.under_lines, l)))
                    .collect()
            })
            .collect();
        let mut lines: BTreeMap<u32, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
        for (i, r) in results.iter().enumerate() {
            for (&l, s) in &r.line_status {
                let e = lines.entry(l).or_default();
                if *s == LineStatus::NotCoverable {
                    e.1.push(i);
                } else if has(&r.over_lines, l) {
                    e.0.push(i);
                }
            }
        }
        let over_but_not_coverable = lines
            .into_iter()
            .filter(|(_, (o, n))| !o.is_empty() && !n.is_empty())
            .map(|(l, (o, n))| (l, o, n))
            .collect();
        let not_monotone = if over_time {
            (1..results.len())
                .filter_map(|i| {
                    let lost: Vec<u32> = results[i - 1]
                        .over_lines
                        .iter()
                        .copied()
                        .filter(|&l| !has(&results[i].over_lines, l))
                        .collect();
                    (!lost.is_empty()).then_some(NotMonotone { later: i, lines: lost })
                })
                .collect()
        } else {
            Vec::new()
        };
        Compared {
            results,
            covered_by_all: all,
            covered_by_some: some,
            covered_only_by: only,
            over_but_not_coverable,
            over_time,
            not_monotone,
            taken_at: if over_time { taken_at } else { Vec::new() },
        }
    }
}

/// The text report: a row per configuration with the paper's columns, then the relations.
pub fn compare_summary(c: &Compared) -> String {
    let mut out = String::new();
    let Some(first) = c.results.first() else { return out };
    let _ = writeln!(
        out,
        "{} with {} configurations ({}, {} lines){}",
        first.program.display(),
        c.results.len(),
        first.data_model,
        first.line_rule,
        if c.over_time { ", as snapshots of one run" } else { "" }
    );
    let width = c.results.iter().map(|r| r.instance.len()).max().unwrap_or(0).max(13);
    let _ = writeln!(
        out,
        "  {:width$}  {:>8}  {:>16}  {:>16}  {:>7}  {:>4}  {:>9}  {:>5}",
        "configuration", "# lines", "Over A.", "Under A.", "# exec", "Bug?", "CPU time", "exact"
    );
    for r in c.results {
        let pct = |n: usize| r.percent_of_lines(n);
        let _ = writeln!(
            out,
            "  {:width$}  {:>8}  {:>8} ({:>5.1}%)  {:>8} ({:>5.1}%)  {:>7}  {:>4}  {:>8.2}s  {:>5}",
            r.instance,
            r.lines_to_cover.len(),
            r.over_lines.len(),
            pct(r.over_lines.len()),
            r.under_lines.len(),
            pct(r.under_lines.len()),
            r.n_terminating(),
            if r.bug_found { "yes" } else { "-" },
            r.times.cpu,
            super::words::exactness(&r.exactness).answer
        );
    }
    for r in c.results {
        out.push_str(&super::text::wrap(
            &format!("decided under {}: {}", r.instance, super::text::decided(r)),
            "  ",
            "      ",
        ));
        if let Some(note) = super::text::decided_assuming(r) {
            out.push_str(&super::text::wrap(&format!("{note} ({})", r.instance), "  ", "      "));
        }
        if r.exactness != Exactness::Exact {
            let words = super::words::exactness(&r.exactness);
            let line = format!("{} under {}: {}", words.headline, r.instance, words.why);
            out.push_str(&super::text::wrap(&line, "  ", "      "));
        }
    }
    for r in c.results {
        out.push_str(&super::text::wrap(
            &format!("property under {}: {}", r.instance, super::words::property(&r.property)),
            "  ",
            "      ",
        ));
    }
    let _ =
        writeln!(out, "  covered by all: {} lines; by some: {} lines", c.covered_by_all.len(), c.covered_by_some.len());
    for (r, only) in c.results.iter().zip(&c.covered_only_by) {
        let _ = writeln!(out, "  covered only by {}: {} lines{}", r.instance, only.len(), list(only));
    }
    for r in c.results {
        let shared: Vec<_> = r.executions.iter().filter(|e| matches!(e.origin, Origin::FoundFor(_))).collect();
        if shared.is_empty() {
            continue;
        }
        let own: std::collections::BTreeSet<u32> = r
            .executions
            .iter()
            .filter(|e| !matches!(e.origin, Origin::FoundFor(_)))
            .flat_map(|e| e.lines.iter().copied())
            .collect();
        let gained: std::collections::BTreeSet<u32> =
            shared.iter().flat_map(|e| e.lines.iter().copied()).filter(|l| !own.contains(l)).collect();
        let _ = writeln!(
            out,
            "  {} gained {} lines from {} execution(s) found for other configurations (shared executions)",
            r.instance,
            gained.len(),
            shared.len()
        );
    }
    let _ = writeln!(
        out,
        "  over-approximated by one, proven not coverable under another: {} lines{}",
        c.over_but_not_coverable.len(),
        list(&c.over_but_not_coverable.iter().map(|(l, _, _)| *l).collect::<Vec<_>>())
    );
    out
}

fn list(lines: &[u32]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = lines.iter().take(12).map(u32::to_string).collect();
    format!(" ({}{})", shown.join(", "), if lines.len() > 12 { ", ..." } else { "" })
}

/// The JSON report: each configuration's `vcov coverage` report, and the relations.
pub fn compare_json(c: &Compared) -> String {
    let configurations: Vec<Value> = c
        .results
        .iter()
        .map(|r| serde_json::from_str(&super::coverage_json(r)).expect("the coverage report is JSON"))
        .collect();
    let names: Vec<&str> = c.results.iter().map(|r| r.instance.as_str()).collect();
    let only: serde_json::Map<String, Value> =
        names.iter().zip(&c.covered_only_by).map(|(n, l)| (n.to_string(), json!(l))).collect();
    let conflicts: Vec<Value> = c
        .over_but_not_coverable
        .iter()
        .map(|(l, o, n)| {
            json!({"line": l, "over_in": o.iter().map(|&i| names[i]).collect::<Vec<_>>(),
                   "not_coverable_in": n.iter().map(|&i| names[i]).collect::<Vec<_>>()})
        })
        .collect();
    let mut doc = json!({
        "schema_version": super::SCHEMA_VERSION,
        "program": c.results.first().map(|r| r.program.display().to_string()),
        "names": names,
        "over_time": c.over_time,
        "configurations": configurations,
        "covered_by_all": c.covered_by_all,
        "covered_by_some": c.covered_by_some,
        "covered_only_by": only,
        "over_but_not_coverable": conflicts,
    });
    if c.over_time {
        // When each snapshot was taken (seconds after the start of its run; null where its
        // automaton does not say).
        doc["taken_at"] = json!(c.taken_at);
    }
    let mut res = serde_json::to_string(&doc).expect("JSON values serialize");
    res.push('\n');
    res
}
