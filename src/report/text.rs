//! The human-readable summary with the columns of the paper's tables.

use std::fmt::Write;

use crate::coverage::result::CoverageResult;

/// A few lines: the paper's columns (# lines, Over A., Under A., # exec, Bug?, CPU time) and how much
/// of the automaton the program reaches.
pub fn coverage_summary(res: &CoverageResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} with {} ({}, {} lines)",
        res.program.display(),
        res.automaton.display(),
        res.data_model,
        res.line_rule
    );
    let pct = |n: usize| res.percent_of_lines(n);
    let _ = writeln!(
        out,
        "  {:>8}  {:>16}  {:>16}  {:>7}  {:>4}  {:>9}",
        "# lines", "Over A.", "Under A.", "# exec", "Bug?", "CPU time"
    );
    let _ = writeln!(
        out,
        "  {:>8}  {:>8} ({:>5.1}%)  {:>8} ({:>5.1}%)  {:>7}  {:>4}  {:>8.2}s",
        res.lines_to_cover.len(),
        res.over_lines.len(),
        pct(res.over_lines.len()),
        res.under_lines.len(),
        pct(res.under_lines.len()),
        res.n_terminating(),
        if res.bug_found { "yes" } else { "-" },
        res.times.cpu
    );
    let mut notes = Vec::new();
    if res.exact && res.assumed.is_empty() {
        notes.push("exact: every other line is proven not coverable".to_string());
    } else if res.exact {
        notes.push(format!(
            "exact assuming {}: every other line is proven not coverable",
            res.assumed.iter().map(|a| a.0).collect::<Vec<_>>().join(", ")
        ));
    }
    if let Some(by) = res.stopped_by {
        let what = if res.exact {
            "every line was decided, the property was not"
        } else {
            "lines not reached are not decided"
        };
        notes.push(format!("stopped by {} after {:.1} s: {what}", by.describe(), res.times.total));
    } else if let (Some(why), "blind" | "guided" | "targeted") = (&res.inexact_reason, res.generate) {
        notes.push(format!("not exact: {why}"));
    }
    if let Some(what) = res.abstraction() {
        notes.push(format!("{} line(s) proven not coverable with {what} abstracted away", res.proven_by_abstraction));
    }
    if res.infeasible > 0 {
        let past = match res.past_undefined_call {
            0 => String::new(),
            n => format!(
                " ({n} of them lie past a call through a pointer of an incompatible function type, which is undefined behaviour)"
            ),
        };
        notes.push(format!(
            "{} line(s) not coverable: the values of the program's variables rule out every way there inside the explored region{past}",
            res.infeasible
        ));
    }
    if res.into_unexplored > 0 {
        notes.push(format!(
            "{} line(s) not coverable: only edges into the unexplored region count for them, and an execution's lines end before such an edge",
            res.into_unexplored
        ));
    }
    if res.without_exit > 0 {
        notes.push(format!("{} line(s) not coverable: no path leads from them to the end of main", res.without_exit));
    }
    match res.confirmation {
        crate::coverage::result::Confirmation::Gcc { confirmed, rejected, pending: 0 } => {
            notes.push(format!("confirmed by gcc: {confirmed} execution(s), {rejected} rejected"));
        }
        crate::coverage::result::Confirmation::Gcc { confirmed, rejected, pending } => {
            notes.push(format!(
                "confirmed by gcc: {confirmed} execution(s), {rejected} rejected, {pending} not replayed before the \
                 time limit (not counted)"
            ));
        }
        crate::coverage::result::Confirmation::Interpreter { rejected } if rejected > 0 => {
            let why: Vec<String> = res.refusals.iter().take(3).map(|(n, why)| format!("{n}: {why}")).collect();
            let more = if res.refusals.len() > 3 { "; ..." } else { "" };
            notes.push(format!(
                "{rejected} execution(s) vcov's interpreter did not replay were dropped ({}{more})",
                why.join("; ")
            ));
        }
        crate::coverage::result::Confirmation::Interpreter { .. } => {}
    }
    notes.push(format!("property: {}", res.property));
    if let (n, Some(first)) = &res.assumed_violations {
        notes.push(format!(
            "{n} path(s) violate the property relying on the accepted assumptions (first at line {}); not a \
             bug of the program until shown without them",
            first.line
        ));
    }
    if let Some(first) = res.undefined.iter().min_by_key(|u| u.line) {
        notes.push(format!(
            "{} path(s) end at possible undefined behaviour, at {} place(s) (first at line {}: {})",
            res.undefined_paths,
            res.undefined.len(),
            first.line,
            first.kind
        ));
    }
    for note in notes {
        let _ = writeln!(out, "  {note}");
    }
    if let Some(u) = &res.undecided {
        let _ = writeln!(out, "  {}", u.summary());
    }
    let m = &res.matching;
    let _ = writeln!(
        out,
        "  automaton: {} of {} states reached, {} of {} transitions used",
        m.states_reached, m.states, m.transitions_used, m.transitions
    );
    let _ = writeln!(out, "  automaton texts: CPAchecker {} ({})", m.generation.label(), m.source.describe());
    out
}
