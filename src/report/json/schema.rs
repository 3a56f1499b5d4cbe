//! The JSON coverage report's types: what `vcov coverage --json` writes and what `vcov batch` reads
//! back (the same structs both ways, so that a reader never looks up keys by name).
//!
//! Invariant: fields are only ever added (`SCHEMA_VERSION` says the first version a field is in);
//! a field a later version added is `#[serde(default)]`, so that an older report still reads.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Version of the JSON report's schema; later versions only add fields.
pub const SCHEMA_VERSION: u32 = 1;

/// The JSON report of one coverage result.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct CoverageReport {
    /// `SCHEMA_VERSION`.
    pub schema_version: u32,
    /// The program file as given.
    pub program: String,
    /// The automaton file as given.
    pub automaton: String,
    /// `ILP32` or `LP64`.
    pub data_model: String,
    /// `spanned` or `first-line`.
    pub line_rule: String,
    /// Lines to cover, ascending.
    pub lines_to_cover: Vec<u32>,
    /// The over-approximation.
    pub over_approximation: Lines,
    /// The under-approximation.
    pub under_approximation: Under,
    /// Whether an execution violating the property was found.
    pub bug_found: bool,
    /// What the run says about the property inside the explored region.
    pub property: PropertyJson,
    /// Whether the result is exact (with or without assumptions: `exactness` says which).
    pub exact: bool,
    /// Why it is not exact (the words of `exactness.detail` without its head).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inexact_reason: Option<String>,
    /// Whether the result is exact, relying on what, or why not.
    #[serde(default)]
    pub exactness: ExactnessJson,
    /// Whether a limit or a signal stopped the search.
    pub interrupted: bool,
    /// What stopped it (`time_limit`, `memory_limit`, `signal`, `max_executions`, `solver`).
    pub stopped_by: Option<String>,
    /// How the executions were confirmed.
    pub confirmation: ConfirmationJson,
    /// What the proof pass abstracted away, when it proved lines not coverable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstraction: Option<Abstraction>,
    /// Where the executions came from: `files`, `blind`, `guided` or `targeted`.
    pub generate: String,
    /// The accepted environment assumptions (`--assume`) the result relies on.
    pub assumptions: Vec<Assumption>,
    /// The status of every line to cover.
    pub line_status: BTreeMap<u32, String>,
    /// What the run decides under assumptions it did not accept, when only they keep it from being
    /// exact: each set, with the status under it of the lines `line_status` leaves undecided.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decided_assuming: Vec<DecidedAssumingJson>,
    /// For every line proven not coverable, the argument in words.
    pub not_coverable_by: BTreeMap<u32, String>,
    /// The invariants proven at the program's loop heads that arguments of `not_coverable_by`
    /// assumed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invariants: Vec<InvariantJson>,
    /// Where the search found that undefined behaviour can happen.
    pub undefined_behaviour: Undefined,
    /// Paths that violate the property only relative to the accepted assumptions.
    pub violations_under_assumptions: Undefined,
    /// For every covered line, the first execution that covers it.
    pub covered_by: BTreeMap<u32, usize>,
    /// Why the undecided lines are: where the search could not get past.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undecided: Option<UndecidedJson>,
    /// Branch arms reached.
    pub branch_coverage: Counts,
    /// Functions reached.
    pub function_coverage: Counts,
    /// How the automaton fits the program.
    pub automaton_match: Match,
    /// The executions measured.
    pub executions: Vec<Execution>,
    /// The search's progress: `[seconds, executions, lines covered]` each time it kept an execution.
    pub timeline: Vec<(f64, usize, usize)>,
    /// Stage times.
    pub time_seconds: Times,
    /// Where the result comes from: digests of the inputs and the evidence, the automaton's
    /// producer, the options, the commands that check it again.
    pub provenance: ProvenanceJson,
}

/// Where a result comes from.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ProvenanceJson {
    /// The version of vcov that measured it.
    pub vcov_version: String,
    /// The program and its digest.
    pub program: FileJson,
    /// The automaton, its digest and producer.
    pub automaton: AutomatonJson,
    /// The evidence written, with digests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<EvidenceJson>,
    /// The options that shape the result, as command-line words.
    pub options: Vec<String>,
    /// Commands that check the result again, from the folder vcov ran in.
    pub recheck: Vec<RecheckJson>,
}

/// A file and its SHA-256.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct FileJson {
    /// As given.
    pub path: String,
    /// In hex.
    pub sha256: String,
}

/// The automaton file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct AutomatonJson {
    /// As given.
    pub path: String,
    /// In hex.
    pub sha256: String,
    /// The tool that wrote it, when its header or its folder's `CPALog.txt` says.
    pub producer: Option<String>,
    /// Where that was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer_source: Option<String>,
}

/// The evidence folder.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct EvidenceJson {
    /// As given.
    pub directory: String,
    /// Every file, with its digest.
    pub files: Vec<EvidenceFile>,
}

/// One file of the evidence.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct EvidenceFile {
    /// Its path in the folder.
    pub file: String,
    /// In hex.
    pub sha256: String,
}

/// A command that checks claims again.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecheckJson {
    /// What it checks.
    pub checks: String,
    /// The shell command.
    pub command: String,
}

/// The property's status (`coverage::result::PropertyStatus`): `found_in_region`,
/// `found_outside_region`, `none_in_region` (with how: `no_error_location`, `exhaustive_search`,
/// `abstraction`, and the assumptions it relies on) or `not_decided`; `detail` says it in words.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct PropertyJson {
    /// The status.
    pub status: String,
    /// How no violation was shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The accepted assumptions it relies on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assuming: Vec<String>,
    /// In words.
    pub detail: String,
}

/// The result's exactness (`coverage::result::Exactness`): `exact`, `exact_assuming` (with the
/// accepted assumptions it relies on) or `not_exact`; `detail` says it in words.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct ExactnessJson {
    /// The status.
    pub status: String,
    /// The accepted assumptions an exact result relies on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assuming: Vec<String>,
    /// In words.
    pub detail: String,
}

/// How the executions were confirmed: `interpreter`, or `gcc` with how many it confirmed and rejected.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ConfirmationJson {
    /// `interpreter` or `gcc`.
    pub method: String,
    /// With gcc: executions confirmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmed: Option<usize>,
    /// Executions rejected (not counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected: Option<usize>,
    /// With gcc: executions the time limit came before gcc replayed (not counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<usize>,
    /// Why vcov's interpreter refused executions of the executor, most frequent first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refusals: Vec<RefusalJson>,
}

/// Why executions were refused, and how many.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RefusalJson {
    /// How many.
    pub count: usize,
    /// Why.
    pub why: String,
}

/// The proof pass: which variables it abstracted away, whether it took what functions without body
/// write as arbitrary, how many lines it proved not coverable.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Abstraction {
    /// The variables.
    pub variables: Vec<String>,
    /// Whether what functions without body write was taken as arbitrary.
    pub extern_writes: bool,
    /// Lines it proved not coverable.
    pub lines_proven: usize,
}

/// An environment assumption.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Assumption {
    /// As `--assume` names it.
    pub name: String,
    /// What it states.
    pub statement: String,
}

/// One set of assumptions and what the run decides under them.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct DecidedAssumingJson {
    /// The assumptions.
    pub assumptions: Vec<Assumption>,
    /// The status under them of the lines `line_status` leaves undecided.
    pub line_status: BTreeMap<u32, String>,
}

/// The undecided lines sorted by why (`coverage::undecided`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct UndecidedJson {
    /// How many.
    pub lines: usize,
    /// Lines some path got to, none of them returning from `main`.
    pub reached: Vec<u32>,
    /// Edges no path got past, most lines behind first.
    pub blocked: Vec<BlockedJson>,
    /// The others.
    pub elsewhere: Vec<u32>,
}

/// An edge no path got past.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct BlockedJson {
    /// Its first line (0: the start of a function).
    pub line: u32,
    /// Its function.
    pub function: String,
    /// Its text, as CPAchecker writes it.
    pub edge: String,
    /// The automaton state after it.
    pub automaton_state: String,
    /// What stopped the paths there.
    pub obstacle: String,
    /// How often a path tried it.
    pub tried: u64,
    /// How many paths were cut on it.
    pub cut: u64,
    /// The undecided lines behind it.
    pub lines: Vec<u32>,
}

/// An invariant at a loop head.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct InvariantJson {
    /// The function.
    pub function: String,
    /// The line of the loop.
    pub line: u32,
    /// A C expression over the program's variables.
    pub invariant: String,
}

/// Where the search found that undefined behaviour can happen (the executions end there).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Undefined {
    /// Paths that ended there.
    pub paths: u64,
    /// The places, by line.
    pub places: Vec<UndefinedPlace>,
}

/// One place of undefined behaviour.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct UndefinedPlace {
    /// Its line.
    pub line: u32,
    /// What can happen.
    pub kind: String,
    /// The lines of a path there.
    pub trace: Vec<u32>,
}

/// A set of lines.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Lines {
    /// Ascending.
    pub lines: Vec<u32>,
}

/// The under-approximation.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Under {
    /// Ascending.
    pub lines: Vec<u32>,
    /// Terminating executions.
    pub executions: usize,
}

/// How many branches (or functions) there are and how many each approximation reaches.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Counts {
    /// All.
    pub total: usize,
    /// Reached by the over-approximation.
    pub over: usize,
    /// Reached by the under-approximation.
    pub under: usize,
}

/// How the automaton fits the program.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Match {
    /// States.
    pub states: usize,
    /// States the product reaches.
    pub states_reached: usize,
    /// Transitions.
    pub transitions: usize,
    /// Transitions some edge fires.
    pub transitions_used: usize,
    /// The CPAchecker generation whose edge texts the transitions were matched with: `1.x` or `2.x+`.
    pub generation: String,
    /// How it was chosen: `detected`, `forced` or `no-texts`.
    pub generation_source: String,
    /// States the product does not reach.
    pub unmatched: Vec<Unmatched>,
    /// Transitions no edge fires.
    pub unmatched_transitions: Vec<Unmatched>,
}

/// A state (or a transition of it) of the automaton.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Unmatched {
    /// The state's name.
    pub state: String,
    /// Its line in the automaton file.
    pub aa_line: u32,
}

/// One execution.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Execution {
    /// Its number, from 1.
    pub id: usize,
    /// Where it came from (`coverage::result::Origin::label`).
    pub origin: String,
    /// The lines it covers.
    pub lines: Vec<u32>,
    /// Whether `main` returns.
    pub terminating: bool,
    /// Whether it violates the property.
    pub violates_property: bool,
    /// The values it consumed.
    pub inputs: Vec<Input>,
}

/// One value an execution consumed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Input {
    /// The function whose call produced it.
    pub function: String,
    /// Its C type.
    #[serde(rename = "type")]
    pub c_type: String,
    /// The value, in decimal.
    pub value: String,
}

/// Stage times, in seconds.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Times {
    /// Reading and parsing.
    pub parse: f64,
    /// Building the CFA.
    pub cfa: f64,
    /// The product and the over-approximation.
    pub compose: f64,
    /// The value analysis.
    pub value_analysis: f64,
    /// The search.
    pub search: f64,
    /// The proof passes.
    pub proof: f64,
    /// Replaying under gcc.
    pub confirmation: f64,
    /// Everything, wall clock.
    pub total: f64,
    /// Process CPU time.
    pub cpu: f64,
}
