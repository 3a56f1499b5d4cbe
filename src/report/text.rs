//! The human-readable summary with the columns of the paper's tables.

use std::fmt::Write;

use super::words;
use crate::coverage::result::{Confirmation, CoverageResult, NotCoverableBy};

/// Columns a line of the text summaries takes at most (a word longer than that aside): notes wrap,
/// their continuation lines indented.
pub const TEXT_WIDTH: usize = 100;

/// A few lines: the paper's columns (# lines, Over A., Under A., # exec, Bug?, CPU time), how much of
/// the over-approximation is decided, notes (each wrapped at `TEXT_WIDTH`), and how much of the
/// automaton the program reaches.
pub fn coverage_summary(res: &CoverageResult) -> String {
    let mut out = String::new();
    let head = format!("{} with {}", res.program.display(), res.automaton.display());
    let model = format!("({}, {} lines)", res.data_model, res.line_rule);
    if head.len() + model.len() < TEXT_WIDTH {
        let _ = writeln!(out, "{head} {model}");
    } else {
        let _ = writeln!(out, "{}\n  with {} {model}", res.program.display(), res.automaton.display());
    }
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
    let mut notes = exactness_notes(res);
    notes.extend(not_coverable_notes(res));
    notes.extend(confirmation_note(res));
    notes.extend(property_notes(res));
    for note in notes {
        out.push_str(&wrap(&note, "  ", "      "));
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

/// How much is decided, whether the result is exact (`words::exactness`) and what stopped the search.
fn exactness_notes(res: &CoverageResult) -> Vec<String> {
    let mut notes = vec![format!("decided: {}", decided(res))];
    notes.extend(decided_assuming(res));
    notes.push(words::exactness(&res.exactness).sentence());
    if let Some(by) = res.stopped_by {
        let what = if res.exact() {
            "every line was decided, the property was not"
        } else {
            "lines not reached are not decided"
        };
        notes.push(format!("stopped by {} after {:.1} s: {what}", words::stopped_by(by), res.times.search_end));
    }
    if let Some(what) = words::abstraction(res) {
        notes.push(format!("{} line(s) proven not coverable with {what} abstracted away", res.proven_by_abstraction));
    }
    notes
}

/// How many lines each argument other than the search proves not coverable.
fn not_coverable_notes(res: &CoverageResult) -> Vec<String> {
    let mut notes = Vec::new();
    let infeasible = res.n_not_coverable_by(NotCoverableBy::by_values);
    if infeasible > 0 {
        let past = match (
            res.n_not_coverable_by(|b| *b == NotCoverableBy::PastUndefinedCall),
            res.n_not_coverable_by(|b| *b == NotCoverableBy::PastNullAccess),
        ) {
            (0, 0) => String::new(),
            (n, 0) => format!(
                " ({n} of them lie past a call through a pointer of an incompatible function type, which is undefined behaviour)"
            ),
            (0, m) => format!(" ({m} of them lie past an access through a null pointer, which is undefined behaviour)"),
            (n, m) => format!(
                " ({n} of them lie past a call through a pointer of an incompatible function type, {m} past an access \
                 through a null pointer, both undefined behaviour)"
            ),
        };
        notes.push(format!(
            "{infeasible} line(s) not coverable: the values of the program's variables rule out every way there inside the explored region{past}",
        ));
    }
    let into_unexplored = res.n_not_coverable_by(|b| *b == NotCoverableBy::Frontier);
    if into_unexplored > 0 {
        notes.push(format!(
            "{into_unexplored} line(s) not coverable: only edges into the unexplored region count for them, and an execution's lines end before such an edge",
        ));
    }
    let by_program =
        res.n_not_coverable_by(|b| matches!(b, NotCoverableBy::Bmc { .. } | NotCoverableBy::Induction { .. }));
    if by_program > 0 {
        let invariants = match res.invariants.len() {
            0 => String::new(),
            n => format!(", with {n} invariant(s) proven at its loop heads (listed in the JSON report)"),
        };
        notes.push(format!(
            "{by_program} line(s) not coverable: no execution of the program reaches them (bounded model checking and \
             k-induction over the whole program{invariants})"
        ));
    }
    let without_exit = res.n_not_coverable_by(|b| *b == NotCoverableBy::NoExit);
    if without_exit > 0 {
        notes.push(format!("{without_exit} line(s) not coverable: no path leads from them to the end of main"));
    }
    notes
}

/// How the executions were confirmed, when it is worth a note.
fn confirmation_note(res: &CoverageResult) -> Option<String> {
    match res.confirmation {
        Confirmation::Gcc { confirmed, rejected, pending: 0 } => {
            Some(format!("confirmed by gcc: {confirmed} execution(s), {rejected} rejected"))
        }
        Confirmation::Gcc { confirmed, rejected, pending } => Some(format!(
            "confirmed by gcc: {confirmed} execution(s), {rejected} rejected, {pending} not replayed before the \
             time limit (not counted)"
        )),
        Confirmation::Interpreter { rejected } if rejected > 0 => {
            let why: Vec<String> =
                words::refusals(&res.refusals).iter().take(3).map(|(n, why)| format!("{n}: {why}")).collect();
            let more = if res.refusals.len() > 3 { "; ..." } else { "" };
            Some(format!(
                "{rejected} execution(s) vcov's interpreter did not replay were dropped ({}{more})",
                why.join("; ")
            ))
        }
        Confirmation::Interpreter { .. } => None,
    }
}

/// The property, violations relying on assumptions, undefined behaviour met and undecided lines.
fn property_notes(res: &CoverageResult) -> Vec<String> {
    let mut notes = vec![format!("property: {}", words::property(&res.property))];
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
    if let Some(u) = &res.undecided {
        notes.push(words::undecided_summary(u));
    }
    notes
}

/// `decided assuming fresh-pointers: 3622 more line(s) not coverable, 0 undecided (the search is
/// complete under these assumptions; --assume fresh-pointers makes it the result)`: the answer under
/// the assumptions the run did not accept, when it has one.
pub(super) fn decided_assuming(res: &CoverageResult) -> Option<String> {
    let d = res.decided_assuming.as_ref()?;
    let names = d.assumptions.assumption_names().join(",");
    let undecided = res.counts().undecided();
    Some(format!(
        "decided assuming {names}: {} more line(s) not coverable, {} undecided (the search is complete under \
         these assumptions; --assume {names} makes it the result)",
        d.not_coverable.len(),
        undecided - d.not_coverable.len()
    ))
}

/// `857 of the 867 lines of the over-approximation (98.8%): 852 covered, 5 proven not coverable; 10
/// undecided (1.2%)`: the post-mortem's key figure.
pub(super) fn decided(res: &CoverageResult) -> String {
    let c = res.counts();
    let over = c.over();
    let pct = |n: usize| if over == 0 { 0.0 } else { 100.0 * n as f64 / over as f64 };
    format!(
        "{} of the {over} lines of the over-approximation ({:.1}%): {} covered, {} proven not coverable; {} \
         undecided ({:.1}%)",
        c.decided(),
        pct(c.decided()),
        c.covered,
        c.not_coverable,
        c.undecided(),
        pct(c.undecided())
    )
}

/// `text` as lines of at most `TEXT_WIDTH` columns, the first starting with `first`, the others with
/// `rest`; it breaks at spaces, never inside a `quoted` edge text when it can help it, and never
/// inside a word.
pub fn wrap(text: &str, first: &str, rest: &str) -> String {
    // Words: split at spaces outside backquotes.
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        if c == '`' {
            quoted = !quoted;
        }
        if c == ' ' && !quoted {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for w in words {
        // A quoted text longer than a line is broken at its own spaces after all.
        let pieces: Vec<String> = if w.chars().count() + rest.len() > TEXT_WIDTH && w.contains(' ') {
            w.split(' ').map(str::to_string).collect()
        } else {
            vec![w]
        };
        for p in pieces {
            if !empty && line.chars().count() + 1 + p.chars().count() > TEXT_WIDTH {
                out.push_str(&line);
                out.push('\n');
                line = rest.to_string();
                empty = true;
            }
            if !empty {
                line.push(' ');
            }
            line.push_str(&p);
            empty = false;
        }
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_wrap_at_spaces_outside_edge_texts() {
        let note = "445 line(s) undecided: 164 behind line 15153 in main (`[tmp___0 == 9]`: never tried), 121 behind \
                    line 10939 in ppp_mp_explode (`goto ldv_40131;`: never tried), 3 reached by paths none of which \
                    returned from main";
        let text = wrap(note, "  ", "      ");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() == 3 && lines.iter().all(|l| l.len() <= TEXT_WIDTH), "{text}");
        assert!(lines[1].starts_with("      ") && lines.iter().all(|l| l.matches('`').count() % 2 == 0), "{text}");
        // Nothing is lost: the words joined again are the note.
        assert_eq!(text.split_whitespace().collect::<Vec<_>>(), note.split_whitespace().collect::<Vec<_>>());
        assert_eq!(wrap("short", "  ", "    "), "  short\n");
    }
}
