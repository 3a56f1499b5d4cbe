//! `review.html`, the reviewer's page: the claims, the model, the digests, how each claim was checked
//! and the commands that check it again.

use super::*;

#[derive(Serialize)]
pub(super) struct ReviewPage<'a> {
    pub(super) common: &'a Common,
    pub(super) configs: Vec<ReviewConfig>,
    /// `(what, path, SHA-256)` of every input.
    pub(super) inputs: Vec<(String, String, String)>,
    pub(super) vcov_version: &'static str,
}

#[derive(Serialize)]
pub(super) struct ReviewConfig {
    pub(super) name: String,
    /// `(claim, lines, how it was established, safe HTML)`.
    pub(super) claims: Vec<Claim>,
    pub(super) exact: String,
    pub(super) property: String,
    /// Safe HTML: where the undecided lines are, line numbers linked.
    pub(super) undecided: Option<String>,
    /// `(aspect, value)`: the model the claims hold under.
    pub(super) model: Vec<(String, String)>,
    /// `(file, SHA-256)` of the evidence, with its folder.
    pub(super) evidence_dir: Option<String>,
    pub(super) evidence: Vec<(String, String)>,
    /// `(what it checks, command)`.
    pub(super) commands: Vec<(String, String)>,
}

#[derive(Serialize)]
pub(super) struct Claim {
    pub(super) status: &'static str,
    pub(super) colour: &'static str,
    /// The status's name in legends.
    pub(super) label: &'static str,
    pub(super) claim: &'static str,
    pub(super) lines: usize,
    pub(super) how: String,
}

pub(super) fn review_view<'a>(input: &HtmlInput, common: &'a Common, layout: &Layout) -> ReviewPage<'a> {
    let href = |l: u32| layout.href_from_review(l);
    let first = &input.results[0];
    let mut inputs =
        vec![("program".to_string(), first.program.display().to_string(), first.provenance.program_sha256.clone())];
    for r in input.results {
        let what =
            if input.results.len() == 1 { "automaton".to_string() } else { format!("automaton of {}", r.instance) };
        inputs.push((what, r.automaton.display().to_string(), r.provenance.automaton_sha256.clone()));
    }
    let configs = input.results.iter().map(|r| review_config(r, &href)).collect();
    ReviewPage { common, configs, inputs, vcov_version: env!("CARGO_PKG_VERSION") }
}

/// What `r` claims per status, how many lines and how each claim was established.
fn claims(r: &CoverageResult) -> Vec<Claim> {
    let c = r.counts();
    let mut by_argument: BTreeMap<String, usize> = BTreeMap::new();
    for arg in r.not_coverable_by.values() {
        *by_argument.entry(words::not_coverable_by(arg)).or_default() += 1;
    }
    let arguments: Vec<String> = by_argument.iter().map(|(a, n)| format!("{n} by {a}")).collect();
    vec![
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
                (_, Some(by)) => format!("stopped by {} (where: see undecided below)", words::stopped_by(by)),
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
    ]
}

/// The model `r` was measured under: data model, line rule, generation, assumptions, automaton.
fn model(r: &CoverageResult) -> Vec<(String, String)> {
    let p = &r.provenance;
    let producer = match &p.producer {
        Some((who, source)) => format!("{who} (from {source})"),
        None => "not stated (the automaton has no header comment naming it, and no CPALog.txt lies beside it)".into(),
    };
    vec![
        ("data model".to_string(), r.data_model.to_string()),
        ("floating point".into(), words::FLOAT_MODEL.into()),
        ("line rule".into(), r.line_rule.to_string()),
        ("executions generated by".into(), r.generate.name().to_string()),
        (
            "assumptions accepted".into(),
            if r.assumed.is_empty() {
                "none (the environment is over-approximated)".into()
            } else {
                r.assumed.assumptions().iter().map(|(n, s)| format!("{n}: {s}")).collect::<Vec<_>>().join("; ")
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
                r.matching.states_reached, r.matching.states, r.matching.transitions_used, r.matching.transitions
            ),
        ),
        ("options".into(), if p.options.is_empty() { "-".into() } else { p.options.join(" ") }),
        ("measured by".into(), format!("vcov {}", p.vcov_version)),
    ]
}

/// The reviewer's view of `r`, every line number a link made by `href`.
fn review_config(r: &CoverageResult, href: &dyn Fn(u32) -> String) -> ReviewConfig {
    let p = &r.provenance;
    ReviewConfig {
        name: r.instance.clone(),
        claims: claims(r),
        exact: linkify(&words::exactness(&r.exactness).definition(), href),
        property: linkify(&words::property(&r.property), href),
        undecided: r.undecided.as_ref().map(|u| linkify(&words::undecided_summary(u), href)),
        model: model(r),
        evidence_dir: p.evidence.as_ref().map(|(d, _)| d.display().to_string()),
        evidence: p.evidence.as_ref().map(|(_, f)| f.clone()).unwrap_or_default(),
        commands: recheck_commands(r),
    }
}

/// The commands that check `r` again, from the folder vcov ran in, with what each checks: the
/// inputs' digests, every covered line under gcc and gcov (`vcov replay`, when evidence was
/// written), and the whole measurement.
pub(crate) fn recheck_commands(r: &CoverageResult) -> Vec<(String, String)> {
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
pub(super) fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=,:+@%".contains(&b)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
