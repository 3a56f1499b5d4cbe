//! The JSON coverage report (`--json FILE` or `--format json`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::words;
use crate::coverage::result::{Confirmation, CoverageResult, Exactness, LineStatus, PropertyStatus};

/// Version of the JSON report's schema; later versions only add fields.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    schema_version: u32,
    program: String,
    automaton: String,
    data_model: &'a str,
    line_rule: &'a str,
    lines_to_cover: &'a [u32],
    over_approximation: Lines<'a>,
    under_approximation: Under<'a>,
    bug_found: bool,
    /// What the run says about the property inside the explored region.
    property: PropertyJson,
    exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    inexact_reason: Option<String>,
    /// Whether the result is exact, relying on what, or why not.
    exactness: ExactnessJson,
    interrupted: bool,
    stopped_by: Option<&'static str>,
    confirmation: ConfirmationJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    abstraction: Option<Abstraction<'a>>,
    generate: &'a str,
    /// The accepted environment assumptions (`--assume`) the result relies on.
    assumptions: Vec<Assumption>,
    line_status: BTreeMap<u32, &'static str>,
    /// What the run decides under assumptions it did not accept, when only they keep it from being
    /// exact: each set, with the status under it of the lines `line_status` leaves undecided.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    decided_assuming: Vec<DecidedAssumingJson>,
    not_coverable_by: BTreeMap<u32, String>,
    /// The invariants proven at the program's loop heads that arguments of `not_coverable_by`
    /// assumed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    invariants: Vec<InvariantJson<'a>>,
    undefined_behaviour: Undefined<'a>,
    /// Paths that violate the property only relative to the accepted assumptions.
    violations_under_assumptions: Undefined<'a>,
    covered_by: BTreeMap<u32, usize>,
    /// Why the undecided lines are: where the search could not get past.
    #[serde(skip_serializing_if = "Option::is_none")]
    undecided: Option<UndecidedJson<'a>>,
    branch_coverage: Counts,
    function_coverage: Counts,
    automaton_match: Match,
    executions: Vec<Execution<'a>>,
    /// The search's progress: `[seconds, executions, lines covered]` each time it kept an execution.
    timeline: Vec<(f64, usize, usize)>,
    time_seconds: Times,
    /// Where the result comes from: digests of the inputs and the evidence, the automaton's
    /// producer, the options, the commands that check it again.
    provenance: ProvenanceJson<'a>,
}

#[derive(Serialize)]
struct ProvenanceJson<'a> {
    vcov_version: &'a str,
    program: FileJson,
    automaton: AutomatonJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    evidence: Option<EvidenceJson<'a>>,
    /// The options that shape the result, as command-line words.
    options: &'a [String],
    /// Commands that check the result again, from the folder vcov ran in.
    recheck: Vec<RecheckJson>,
}

#[derive(Serialize)]
struct FileJson {
    path: String,
    sha256: String,
}

#[derive(Serialize)]
struct AutomatonJson<'a> {
    path: String,
    sha256: &'a str,
    /// The tool that wrote it, when its header or its folder's `CPALog.txt` says.
    producer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    producer_source: Option<&'a str>,
}

#[derive(Serialize)]
struct EvidenceJson<'a> {
    directory: String,
    files: Vec<EvidenceFile<'a>>,
}

#[derive(Serialize)]
struct EvidenceFile<'a> {
    file: &'a str,
    sha256: &'a str,
}

#[derive(Serialize)]
struct RecheckJson {
    checks: String,
    command: String,
}

/// The property's status (`coverage::result::PropertyStatus`): `found_in_region`,
/// `found_outside_region`, `none_in_region` (with how: `no_error_location`, `exhaustive_search`,
/// `abstraction`, and the assumptions it relies on) or `not_decided`; `detail` says it in words.
#[derive(Serialize)]
struct PropertyJson {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    assuming: Vec<&'static str>,
    detail: String,
}

/// The result's exactness (`coverage::result::Exactness`): `exact`, `exact_assuming` (with the
/// accepted assumptions it relies on) or `not_exact`; `detail` says it in words.
#[derive(Serialize)]
struct ExactnessJson {
    status: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    assuming: Vec<&'static str>,
    detail: String,
}

/// How the executions were confirmed: `interpreter`, or `gcc` with how many it confirmed and rejected.
#[derive(Serialize)]
struct ConfirmationJson<'a> {
    method: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    confirmed: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rejected: Option<usize>,
    /// With gcc: executions the time limit came before gcc replayed (not counted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pending: Option<usize>,
    /// Why vcov's interpreter refused executions of the executor, most frequent first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    refusals: Vec<RefusalJson<'a>>,
}

#[derive(Serialize)]
struct RefusalJson<'a> {
    count: usize,
    why: &'a str,
}

/// The proof pass: which variables it abstracted away, whether it took what functions without body
/// write as arbitrary, how many lines it proved not coverable.
#[derive(Serialize)]
struct Abstraction<'a> {
    variables: &'a [String],
    extern_writes: bool,
    lines_proven: usize,
}

#[derive(Serialize)]
struct Assumption {
    name: &'static str,
    statement: &'static str,
}

/// One set of assumptions and what the run decides under them.
#[derive(Serialize)]
struct DecidedAssumingJson {
    assumptions: Vec<Assumption>,
    line_status: BTreeMap<u32, &'static str>,
}

/// The undecided lines sorted by why (`coverage::undecided`).
#[derive(Serialize)]
struct UndecidedJson<'a> {
    lines: usize,
    reached: &'a [u32],
    blocked: Vec<BlockedJson<'a>>,
    elsewhere: &'a [u32],
}

#[derive(Serialize)]
struct BlockedJson<'a> {
    line: u32,
    function: &'a str,
    edge: &'a str,
    automaton_state: &'a str,
    obstacle: &'static str,
    tried: u64,
    cut: u64,
    lines: &'a [u32],
}

/// Where the search found that undefined behaviour can happen (the executions end there).
/// An invariant at a loop head.
#[derive(Serialize)]
struct InvariantJson<'a> {
    function: &'a str,
    /// The line of the loop.
    line: u32,
    /// A C expression over the program's variables.
    invariant: &'a str,
}

#[derive(Serialize)]
struct Undefined<'a> {
    paths: u64,
    places: Vec<UndefinedPlace<'a>>,
}

#[derive(Serialize)]
struct UndefinedPlace<'a> {
    line: u32,
    kind: &'static str,
    trace: &'a [u32],
}

#[derive(Serialize)]
struct Lines<'a> {
    lines: &'a [u32],
}

#[derive(Serialize)]
struct Under<'a> {
    lines: &'a [u32],
    executions: usize,
}

/// How many branches (or functions) there are and how many each approximation reaches.
#[derive(Serialize)]
struct Counts {
    total: usize,
    over: usize,
    under: usize,
}

#[derive(Serialize)]
struct Match {
    states: usize,
    states_reached: usize,
    transitions: usize,
    transitions_used: usize,
    /// The CPAchecker generation whose edge texts the transitions were matched with: `1.x` or `2.x+`.
    generation: &'static str,
    /// How it was chosen: `detected`, `forced` or `no-texts`.
    generation_source: &'static str,
    unmatched: Vec<Unmatched>,
    unmatched_transitions: Vec<Unmatched>,
}

#[derive(Serialize)]
struct Unmatched {
    state: String,
    aa_line: u32,
}

#[derive(Serialize)]
struct Execution<'a> {
    id: usize,
    origin: String,
    lines: &'a [u32],
    terminating: bool,
    violates_property: bool,
    inputs: Vec<Input<'a>>,
}

#[derive(Serialize)]
struct Input<'a> {
    function: &'a str,
    #[serde(rename = "type")]
    c_type: &'a str,
    value: String,
}

#[derive(Serialize)]
struct Times {
    parse: f64,
    cfa: f64,
    compose: f64,
    value_analysis: f64,
    search: f64,
    proof: f64,
    confirmation: f64,
    total: f64,
    cpu: f64,
}

/// The JSON report of `res` on one line (compact: line lists can be long), with a trailing newline.
pub fn coverage_json(res: &CoverageResult) -> String {
    let m = &res.matching;
    let report = Report {
        schema_version: SCHEMA_VERSION,
        program: res.program.display().to_string(),
        automaton: res.automaton.display().to_string(),
        data_model: res.data_model,
        line_rule: res.line_rule,
        lines_to_cover: &res.lines_to_cover,
        over_approximation: Lines { lines: &res.over_lines },
        under_approximation: Under { lines: &res.under_lines, executions: res.n_terminating() },
        bug_found: res.bug_found,
        property: PropertyJson {
            status: res.property.name(),
            by: match &res.property {
                PropertyStatus::NoneInRegion { by, .. } => Some(by.name()),
                _ => None,
            },
            assuming: match &res.property {
                PropertyStatus::NoneInRegion { assumed, .. } => assumed.assumptions().iter().map(|a| a.0).collect(),
                _ => Vec::new(),
            },
            detail: words::property(&res.property),
        },
        exact: res.exact(),
        inexact_reason: res.exactness.reason().map(words::inexact),
        exactness: ExactnessJson {
            status: res.exactness.name(),
            assuming: match &res.exactness {
                Exactness::ExactAssuming(assumed) => assumed.assumption_names(),
                _ => Vec::new(),
            },
            detail: words::exactness(&res.exactness).sentence(),
        },
        abstraction: (res.proven_by_abstraction > 0).then(|| Abstraction {
            variables: &res.abstracted,
            extern_writes: res.abstracted_extern_writes,
            lines_proven: res.proven_by_abstraction,
        }),
        interrupted: res.interrupted,
        stopped_by: res.stopped_by.map(|s| s.name()),
        confirmation: match res.confirmation {
            Confirmation::Interpreter { rejected } => ConfirmationJson {
                method: "interpreter",
                confirmed: None,
                rejected: Some(rejected),
                pending: None,
                refusals: res.refusals.iter().map(|(count, why)| RefusalJson { count: *count, why }).collect(),
            },
            Confirmation::Gcc { confirmed, rejected, pending } => ConfirmationJson {
                method: "gcc",
                confirmed: Some(confirmed),
                rejected: Some(rejected),
                pending: Some(pending),
                refusals: res.refusals.iter().map(|(count, why)| RefusalJson { count: *count, why }).collect(),
            },
        },
        generate: res.generate.name(),
        assumptions: res
            .assumed
            .assumptions()
            .into_iter()
            .map(|(name, statement)| Assumption { name, statement })
            .collect(),
        not_coverable_by: res.not_coverable_by.iter().map(|(&l, by)| (l, words::not_coverable_by(by))).collect(),
        invariants: res
            .invariants
            .iter()
            .map(|i| InvariantJson { function: &i.function, line: i.line, invariant: &i.expr })
            .collect(),
        undefined_behaviour: Undefined {
            paths: res.undefined_paths,
            places: {
                let mut places: Vec<UndefinedPlace> = res
                    .undefined
                    .iter()
                    .map(|u| UndefinedPlace { line: u.line, kind: u.kind, trace: &u.trace })
                    .collect();
                places.sort_by_key(|p| (p.line, p.kind));
                places
            },
        },
        violations_under_assumptions: Undefined {
            paths: res.assumed_violations.0,
            places: res
                .assumed_violations
                .1
                .iter()
                .map(|u| UndefinedPlace { line: u.line, kind: u.kind, trace: &u.trace })
                .collect(),
        },
        line_status: res.line_status.iter().map(|(l, s)| (*l, s.name())).collect(),
        decided_assuming: res
            .decided_assuming
            .iter()
            .map(|d| DecidedAssumingJson {
                assumptions: d
                    .assumptions
                    .assumptions()
                    .into_iter()
                    .map(|(name, statement)| Assumption { name, statement })
                    .collect(),
                line_status: d.not_coverable.iter().map(|&l| (l, LineStatus::NotCoverable.name())).collect(),
            })
            .collect(),
        covered_by: res
            .line_status
            .iter()
            .filter_map(|(l, s)| match s {
                LineStatus::Covered(id) => Some((*l, *id)),
                _ => None,
            })
            .collect(),
        undecided: res.undecided.as_ref().map(|u| UndecidedJson {
            lines: u.len(),
            reached: &u.reached,
            blocked: u
                .blocked
                .iter()
                .map(|b| BlockedJson {
                    line: b.line,
                    function: &b.function,
                    edge: &b.edge,
                    automaton_state: &b.state,
                    obstacle: b.obstacle.name(),
                    tried: b.tried,
                    cut: b.cut,
                    lines: &b.lines,
                })
                .collect(),
            elsewhere: &u.elsewhere,
        }),
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
        automaton_match: Match {
            states: m.states,
            states_reached: m.states_reached,
            transitions: m.transitions,
            transitions_used: m.transitions_used,
            generation: m.generation.label(),
            generation_source: m.source.label(),
            unmatched: m.unreached.iter().map(|(s, l)| Unmatched { state: s.clone(), aa_line: *l }).collect(),
            unmatched_transitions: m
                .unused_transitions
                .iter()
                .map(|(s, l)| Unmatched { state: s.clone(), aa_line: *l })
                .collect(),
        },
        executions: res
            .executions
            .iter()
            .map(|e| Execution {
                id: e.id,
                origin: e.origin.label(),
                lines: &e.lines,
                terminating: e.terminating,
                violates_property: e.violates_property,
                inputs: e
                    .inputs
                    .iter()
                    .map(|i| Input { function: &i.function, c_type: &i.c_type, value: i.value.to_string() })
                    .collect(),
            })
            .collect(),
        timeline: res.timeline.iter().map(|p| (round3(p.seconds), p.executions, p.lines)).collect(),
        time_seconds: Times {
            parse: round3(res.times.parse),
            cfa: round3(res.times.cfa),
            compose: round3(res.times.compose),
            value_analysis: round3(res.times.values),
            search: round3(res.times.search),
            proof: round3(res.times.proof),
            confirmation: round3(res.times.confirm),
            total: round3(res.times.total),
            cpu: round3(res.times.cpu),
        },
        provenance: {
            let p = &res.provenance;
            ProvenanceJson {
                vcov_version: &p.vcov_version,
                program: FileJson { path: res.program.display().to_string(), sha256: p.program_sha256.clone() },
                automaton: AutomatonJson {
                    path: res.automaton.display().to_string(),
                    sha256: &p.automaton_sha256,
                    producer: p.producer.as_ref().map(|(who, _)| who.as_str()),
                    producer_source: p.producer.as_ref().map(|(_, from)| from.as_str()),
                },
                evidence: p.evidence.as_ref().map(|(dir, files)| EvidenceJson {
                    directory: dir.display().to_string(),
                    files: files.iter().map(|(file, sha256)| EvidenceFile { file, sha256 }).collect(),
                }),
                options: &p.options,
                recheck: super::html::recheck_commands(res)
                    .into_iter()
                    .map(|(checks, command)| RecheckJson { checks, command })
                    .collect(),
            }
        },
    };
    let mut s = serde_json::to_string(&report).expect("report serializes");
    s.push('\n');
    s
}

/// Whether some line to cover of `f` is in `hit` (ascending).
pub(super) fn function_hit(res: &CoverageResult, f: &crate::coverage::result::FunctionInfo, hit: &[u32]) -> bool {
    res.lines_to_cover.iter().any(|&l| l >= f.first_line && l <= f.last_line && hit.binary_search(&l).is_ok())
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
