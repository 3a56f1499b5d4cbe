//! The JSON coverage report (`--json FILE` or `--format json`): a `CoverageResult` as the types of
//! `schema`, which `vcov batch` reads back.

mod schema;

use crate::coverage::result::{
    Confirmation, CoverageResult, Exactness, FunctionInfo, LineStatus, PropertyStatus, UndecidedLines, UndefinedAt,
};

use super::words;
pub use schema::*;

/// The JSON report of `res` on one line (compact: line lists can be long), with a trailing newline.
pub fn coverage_json(res: &CoverageResult) -> String {
    let mut s = serde_json::to_string(&CoverageReport::of(res)).expect("report serializes");
    s.push('\n');
    s
}

impl CoverageReport {
    /// The report of `res`.
    pub fn of(res: &CoverageResult) -> CoverageReport {
        CoverageReport {
            schema_version: SCHEMA_VERSION,
            program: res.program.display().to_string(),
            automaton: res.automaton.display().to_string(),
            data_model: res.data_model.to_string(),
            line_rule: res.line_rule.to_string(),
            lines_to_cover: res.lines_to_cover.clone(),
            over_approximation: Lines { lines: res.over_lines.clone() },
            under_approximation: Under { lines: res.under_lines.clone(), executions: res.n_terminating() },
            bug_found: res.bug_found,
            property: property(&res.property),
            exact: res.exact(),
            inexact_reason: res.exactness.reason().map(words::inexact),
            exactness: exactness(&res.exactness),
            interrupted: res.interrupted,
            stopped_by: res.stopped_by.map(|s| s.name().to_string()),
            confirmation: confirmation(res),
            abstraction: (res.proven_by_abstraction > 0).then(|| Abstraction {
                variables: res.abstracted.clone(),
                extern_writes: res.abstracted_extern_writes,
                lines_proven: res.proven_by_abstraction,
            }),
            generate: res.generate.name().to_string(),
            assumptions: assumptions(res.assumed.assumptions()),
            line_status: res.line_status.iter().map(|(l, s)| (*l, s.name().to_string())).collect(),
            decided_assuming: res
                .decided_assuming
                .iter()
                .map(|d| DecidedAssumingJson {
                    assumptions: assumptions(d.assumptions.assumptions()),
                    line_status: d.not_coverable.iter().map(|&l| (l, LineStatus::NotCoverable.name().into())).collect(),
                })
                .collect(),
            not_coverable_by: res.not_coverable_by.iter().map(|(&l, by)| (l, words::not_coverable_by(by))).collect(),
            invariants: res
                .invariants
                .iter()
                .map(|i| InvariantJson { function: i.function.clone(), line: i.line, invariant: i.expr.clone() })
                .collect(),
            undefined_behaviour: undefined(res.undefined_paths, res.undefined.iter(), true),
            violations_under_assumptions: undefined(res.assumed_violations.0, res.assumed_violations.1.iter(), false),
            covered_by: res
                .line_status
                .iter()
                .filter_map(|(l, s)| match s {
                    LineStatus::Covered(id) => Some((*l, *id)),
                    _ => None,
                })
                .collect(),
            undecided: res.undecided.as_ref().map(undecided),
            branch_coverage: Counts {
                total: res.branches.iter().map(|b| b.arms.len()).sum(),
                over: res.branches.iter().flat_map(|b| &b.arms).filter(|a| a.0).count(),
                under: res.branches.iter().flat_map(|b| &b.arms).filter(|a| a.1).count(),
            },
            function_coverage: Counts {
                total: res.functions.len(),
                over: res.functions.iter().filter(|f| function_hit(res, f, &res.over_lines)).count(),
                under: res.functions.iter().filter(|f| function_hit(res, f, &res.under_lines)).count(),
            },
            automaton_match: automaton_match(res),
            executions: executions(res),
            timeline: res.timeline.iter().map(|p| (round3(p.seconds), p.executions, p.lines)).collect(),
            time_seconds: times(res),
            provenance: provenance(res),
        }
    }
}

fn property(p: &PropertyStatus) -> PropertyJson {
    PropertyJson {
        status: p.name().to_string(),
        by: match p {
            PropertyStatus::NoneInRegion { by, .. } => Some(by.name().to_string()),
            _ => None,
        },
        assuming: match p {
            PropertyStatus::NoneInRegion { assumed, .. } => names(assumed.assumption_names()),
            _ => Vec::new(),
        },
        detail: words::property(p),
    }
}

fn exactness(e: &Exactness) -> ExactnessJson {
    ExactnessJson {
        status: e.name().to_string(),
        assuming: match e {
            Exactness::ExactAssuming(assumed) => names(assumed.assumption_names()),
            _ => Vec::new(),
        },
        detail: words::exactness(e).sentence(),
    }
}

fn names(names: Vec<&str>) -> Vec<String> {
    names.into_iter().map(str::to_string).collect()
}

fn assumptions(list: Vec<(&str, &str)>) -> Vec<Assumption> {
    list.into_iter().map(|(name, statement)| Assumption { name: name.into(), statement: statement.into() }).collect()
}

fn confirmation(res: &CoverageResult) -> ConfirmationJson {
    let refusals = words::refusals(&res.refusals).into_iter().map(|(count, why)| RefusalJson { count, why }).collect();
    match res.confirmation {
        Confirmation::Interpreter { rejected } => ConfirmationJson {
            method: "interpreter".into(),
            confirmed: None,
            rejected: Some(rejected),
            pending: None,
            refusals,
        },
        Confirmation::Gcc { confirmed, rejected, pending } => ConfirmationJson {
            method: "gcc".into(),
            confirmed: Some(confirmed),
            rejected: Some(rejected),
            pending: Some(pending),
            refusals,
        },
    }
}

/// `paths` ending at the places `at`, sorted by line and kind when `sort`.
fn undefined<'a>(paths: u64, at: impl Iterator<Item = &'a UndefinedAt>, sort: bool) -> Undefined {
    let mut places: Vec<UndefinedPlace> =
        at.map(|u| UndefinedPlace { line: u.line, kind: u.kind.to_string(), trace: u.trace.clone() }).collect();
    if sort {
        places.sort_by(|a, b| (a.line, &a.kind).cmp(&(b.line, &b.kind)));
    }
    Undefined { paths, places }
}

fn undecided(u: &UndecidedLines) -> UndecidedJson {
    UndecidedJson {
        lines: u.len(),
        reached: u.reached.clone(),
        blocked: u
            .blocked
            .iter()
            .map(|b| BlockedJson {
                line: b.line,
                function: b.function.clone(),
                edge: b.edge.clone(),
                automaton_state: b.state.clone(),
                obstacle: b.obstacle.name().to_string(),
                tried: b.tried,
                cut: b.cut,
                lines: b.lines.clone(),
            })
            .collect(),
        elsewhere: u.elsewhere.clone(),
    }
}

fn automaton_match(res: &CoverageResult) -> Match {
    let m = &res.matching;
    let unmatched = |list: &[(String, u32)]| {
        list.iter().map(|(s, l)| Unmatched { state: s.clone(), aa_line: *l }).collect::<Vec<_>>()
    };
    Match {
        states: m.states,
        states_reached: m.states_reached,
        transitions: m.transitions,
        transitions_used: m.transitions_used,
        generation: m.generation.label().to_string(),
        generation_source: m.source.label().to_string(),
        unmatched: unmatched(&m.unreached),
        unmatched_transitions: unmatched(&m.unused_transitions),
    }
}

fn executions(res: &CoverageResult) -> Vec<Execution> {
    res.executions
        .iter()
        .map(|e| Execution {
            id: e.id,
            origin: words::origin(&e.origin),
            lines: e.lines.clone(),
            terminating: e.terminating,
            violates_property: e.violates_property,
            inputs: e
                .inputs
                .iter()
                .map(|i| Input { function: i.function.clone(), c_type: i.c_type.clone(), value: i.value.to_string() })
                .collect(),
        })
        .collect()
}

fn times(res: &CoverageResult) -> Times {
    let t = &res.times;
    Times {
        parse: round3(t.parse),
        cfa: round3(t.cfa),
        compose: round3(t.compose),
        value_analysis: round3(t.values),
        search: round3(t.search),
        proof: round3(t.proof),
        confirmation: round3(t.confirm),
        total: round3(t.total),
        cpu: round3(t.cpu),
    }
}

fn provenance(res: &CoverageResult) -> ProvenanceJson {
    let p = &res.provenance;
    ProvenanceJson {
        vcov_version: p.vcov_version.clone(),
        program: FileJson { path: res.program.display().to_string(), sha256: p.program_sha256.clone() },
        automaton: AutomatonJson {
            path: res.automaton.display().to_string(),
            sha256: p.automaton_sha256.clone(),
            producer: p.producer.as_ref().map(|(who, _)| who.clone()),
            producer_source: p.producer.as_ref().map(|(_, from)| from.clone()),
        },
        evidence: p.evidence.as_ref().map(|(dir, files)| EvidenceJson {
            directory: dir.display().to_string(),
            files: files
                .iter()
                .map(|(file, sha256)| EvidenceFile { file: file.clone(), sha256: sha256.clone() })
                .collect(),
        }),
        options: p.options.clone(),
        recheck: super::html::recheck_commands(res)
            .into_iter()
            .map(|(checks, command)| RecheckJson { checks, command })
            .collect(),
    }
}

/// Whether some line to cover of `f` is in `hit` (ascending).
pub(super) fn function_hit(res: &CoverageResult, f: &FunctionInfo, hit: &[u32]) -> bool {
    res.lines_to_cover.iter().any(|&l| l >= f.first_line && l <= f.last_line && hit.binary_search(&l).is_ok())
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
