//! The result model of a coverage run: what a report shows, as typed values (`CoverageResult`
//! and the claims in it: `LineStatus`, `NotCoverableBy`, `Exactness`, `InexactReason`,
//! `PropertyStatus`, `Origin`, `StoppedBy`). The rules that decide the claims are in `rules`; the
//! words that say them are `report::words`'s alone.

mod rules;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::product::MatchStats;
use crate::symex::{Approx, CutReason, Rejected, StopReason};

pub use rules::{
    line_status, not_coverable_by, search_state, Dropped, ProofFacts, PropertyFacts, SearchEnd, SearchState,
};

/// A function of the program, for function coverage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionInfo {
    /// Name.
    pub name: String,
    /// First line of the definition.
    pub first_line: u32,
    /// Last line of the definition.
    pub last_line: u32,
}

/// What is known about a line to cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LineStatus {
    /// Covered; the number of the first execution that covers it.
    Covered(usize),
    /// In the over-approximation, not covered, and not decided (the search was limited or did not run).
    OverOnly,
    /// In the over-approximation and proven not coverable (the search was exhaustive, or an
    /// abstraction of the program has no terminating path covering it).
    NotCoverable,
    /// Outside the over-approximation: the verifier never explored it.
    Unexplored,
    /// In the over-approximation, not covered, and the search could not decide it (paths were cut).
    Unknown,
}

impl LineStatus {
    /// Whether the line is in the over-approximation and decided: covered or proven not coverable.
    pub fn is_decided(self) -> bool {
        matches!(self, LineStatus::Covered(_) | LineStatus::NotCoverable)
    }

    /// Whether the line is in the over-approximation and not decided (`Unknown` or `OverOnly`).
    pub fn is_undecided(self) -> bool {
        matches!(self, LineStatus::Unknown | LineStatus::OverOnly)
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            LineStatus::Covered(_) => "covered",
            LineStatus::OverOnly => "over_only",
            LineStatus::NotCoverable => "not_coverable",
            LineStatus::Unexplored => "unexplored",
            LineStatus::Unknown => "unknown",
        }
    }
}

/// How many lines have each status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatusCounts {
    /// Covered.
    pub covered: usize,
    /// Proven not coverable.
    pub not_coverable: usize,
    /// Undecided after an incomplete search.
    pub unknown: usize,
    /// Undecided: no search decided them.
    pub over_only: usize,
    /// Outside the over-approximation.
    pub unexplored: usize,
}

impl StatusCounts {
    /// The counts of `statuses`.
    pub fn of<'a>(statuses: impl IntoIterator<Item = &'a LineStatus>) -> StatusCounts {
        let mut c = StatusCounts::default();
        for s in statuses {
            match s {
                LineStatus::Covered(_) => c.covered += 1,
                LineStatus::NotCoverable => c.not_coverable += 1,
                LineStatus::Unknown => c.unknown += 1,
                LineStatus::OverOnly => c.over_only += 1,
                LineStatus::Unexplored => c.unexplored += 1,
            }
        }
        c
    }

    /// Lines of the over-approximation.
    pub fn over(&self) -> usize {
        self.decided() + self.undecided()
    }

    /// Lines decided: covered or proven not coverable.
    pub fn decided(&self) -> usize {
        self.covered + self.not_coverable
    }

    /// Lines of the over-approximation not decided.
    pub fn undecided(&self) -> usize {
        self.unknown + self.over_only
    }
}

/// Whether a result decides every line of its over-approximation (each covered or proven not
/// coverable), relying on what, or why not: the one value every format words (`report::words`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exactness {
    /// Exact, relying on no environment assumption.
    Exact,
    /// Exact relying on these environment assumptions, which the user accepted (`--assume`).
    ExactAssuming(Approx),
    /// Not exact, for this first reason.
    Inexact(InexactReason),
}

impl Exactness {
    /// The name in reports: `exact`, `exact_assuming`, `not_exact`.
    pub fn name(&self) -> &'static str {
        match self {
            Exactness::Exact => "exact",
            Exactness::ExactAssuming(_) => "exact_assuming",
            Exactness::Inexact(_) => "not_exact",
        }
    }

    /// Whether the result is exact (with or without assumptions).
    pub fn is_exact(&self) -> bool {
        !matches!(self, Exactness::Inexact(_))
    }

    /// Why it is not exact, if it is not.
    pub fn reason(&self) -> Option<&InexactReason> {
        match self {
            Exactness::Inexact(why) => Some(why),
            _ => None,
        }
    }
}

/// Why the concrete interpreter refused executions of the executor (`symex::confirm`), grouped for
/// the report: an executor and an interpreter that disagree is a model problem until shown otherwise.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Refusal {
    /// The solver gave no values for the inputs.
    NoModel,
    /// The run took another edge than the path at this line (the first where they differ).
    LeftPath {
        /// The line of the path's edge.
        line: u32,
        /// That edge's text.
        edge: String,
    },
    /// The run ended this way before the path did (undefined behaviour, a construct the interpreter
    /// does not model, ...).
    Ended(String),
}

/// A place where undefined behaviour can happen on a path the search explored. The execution ends
/// there (it is not a terminating execution); for people auditing the program it is a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndefinedAt {
    /// What can happen (`invalid memory access`, `division by zero`, ...).
    pub kind: &'static str,
    /// The line where it can happen.
    pub line: u32,
    /// The lines of the path that leads there, in order (immediate repetitions removed).
    pub trace: Vec<u32>,
}

/// How executions are generated.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Generate {
    /// Depth-first over the program in CFA postorder (the paper's baseline).
    Blind,
    /// Like blind, postorder ties broken by the Reach score of the automaton state (the paper's heuristic).
    Guided,
    /// Executions that cover something new, until none is left (the reference's fixpoint generator).
    #[default]
    Targeted,
}

impl Generate {
    /// The name in reports and on the command line (`blind`, `guided`, `targeted`).
    pub fn name(self) -> &'static str {
        match self {
            Generate::Blind => "blind",
            Generate::Guided => "guided",
            Generate::Targeted => "targeted",
        }
    }
}

/// Where the executions of a result come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ExecutionSource {
    /// Counterexample automata read from files (`--executions-from`).
    Files,
    /// vcov's own search, in this mode.
    Search(Generate),
}

impl ExecutionSource {
    /// The name in reports: `files`, or the mode of the search.
    pub fn name(self) -> &'static str {
        match self {
            ExecutionSource::Files => "files",
            ExecutionSource::Search(g) => g.name(),
        }
    }
}

/// Where one execution of a result came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// This configuration's own search found it.
    Generated,
    /// The search of another configuration of `vcov compare` found it (named here), and it covers
    /// lines this one had not.
    FoundFor(String),
    /// A counterexample automaton, read from the file of this name.
    File(String),
    /// The execution that violates the property (a test of the evidence, after the others).
    Bug,
}

/// What stopped a search before it ended by itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StoppedBy {
    /// The time limit.
    TimeLimit,
    /// The memory limit.
    MemoryLimit,
    /// A signal (SIGINT, SIGTERM) set the stop flag.
    Signal,
    /// `--max-executions`.
    MaxExecutions,
    /// The SAT solver gave up on a query.
    Solver,
}

impl StoppedBy {
    /// The name in reports (`time_limit`, `memory_limit`, `signal`, `max_executions`, `solver`).
    pub fn name(self) -> &'static str {
        match self {
            StoppedBy::TimeLimit => "time_limit",
            StoppedBy::MemoryLimit => "memory_limit",
            StoppedBy::Signal => "signal",
            StoppedBy::MaxExecutions => "max_executions",
            StoppedBy::Solver => "solver",
        }
    }
}

/// What a search that is complete only under assumptions the user did not accept decides under
/// them (`SearchEnd::complete_assuming`): a second answer beside the sound one, never mixed into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecidedAssuming {
    /// The assumptions.
    pub assumptions: Approx,
    /// The lines undecided in the sound result that are not coverable under them, ascending.
    pub not_coverable: Vec<u32>,
}

/// Why a line is not coverable: the argument that proves it, in the order the arguments are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotCoverableBy {
    /// No path leads from it to the end of `main` (`Analysis::lines_without_exit`): the CFA alone.
    NoExit,
    /// Only edges into the unexplored region count for it (`Analysis::lines_into_unexplored`): the
    /// definition of the under-approximation alone.
    Frontier,
    /// The value analysis of the product rules it out, but only past calls that are undefined
    /// behaviour (`RuledOut::by_undefined_call`).
    PastUndefinedCall,
    /// The value analysis of the product rules it out, but only past accesses through a null
    /// pointer, undefined behaviour (`RuledOut::by_null_access`).
    PastNullAccess,
    /// The value analysis of the product rules out every way there (`RuledOut::all`).
    Values,
    /// The proof pass: an over-approximation of the program explored in full.
    Abstraction {
        /// Whether it abstracted counters away (variables).
        counters: bool,
        /// Whether it took what functions without body write as arbitrary.
        extern_writes: bool,
        /// The accepted assumptions it relies on.
        assumed: Approx,
    },
    /// The search explored every path and none covers it.
    ExhaustiveSearch {
        /// The accepted assumptions it relies on.
        assumed: Approx,
    },
    /// Bounded model checking of the whole program (`ProgramProofs`): every execution ends within
    /// `steps` steps between loop heads, and none reaches it.
    Bmc {
        /// The steps.
        steps: u32,
    },
    /// k-induction over the whole program (`ProgramProofs`), with the invariants proven at its loop
    /// heads: no execution reaches it.
    Induction {
        /// The steps of the argument (0: no step from a state the invariants allow reaches it).
        k: u32,
        /// How many invariants it assumed.
        invariants: usize,
    },
}

impl NotCoverableBy {
    /// Whether the value analysis rules the line out (with or without calls that are undefined
    /// behaviour).
    pub fn by_values(&self) -> bool {
        matches!(self, NotCoverableBy::Values | NotCoverableBy::PastUndefinedCall | NotCoverableBy::PastNullAccess)
    }
}

/// Lines proven not coverable by an argument over the whole program, without the automaton:
/// BMC or k-induction shows that no execution (without a violation or undefined behaviour before)
/// takes an edge that counts for the line, so none covers it inside the explored region either.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramProofs {
    /// The lines and their argument (`NotCoverableBy::Bmc` or `NotCoverableBy::Induction`).
    pub lines: BTreeMap<u32, NotCoverableBy>,
    /// The invariants the inductive arguments assumed.
    pub invariants: Vec<LoopInvariant>,
}

/// An invariant proven at a loop head of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    /// The function.
    pub function: String,
    /// The line of the loop head.
    pub line: u32,
    /// The invariant, a C expression.
    pub expr: String,
}

/// Why a coverage result is not exact: the first obstacle the search met, or what happened to its
/// executions afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InexactReason {
    /// Paths were cut other than at undefined behaviour (an unwinding bound, an unsupported
    /// construct): `count`, the first one's reason and line.
    Cut {
        /// How many.
        count: u64,
        /// The first one's reason.
        first: Option<CutReason>,
        /// The first one's line.
        line: Option<u32>,
    },
    /// Paths made approximations the user did not accept (`--assume`).
    Approximated(Approx),
    /// An execution or a violation was not confirmed by the concrete interpreter.
    Rejected(Rejected),
    /// `blind` or `guided` pruned this many paths as covered by explored states.
    PrunedAsCovered(u64),
    /// A limit, a signal or the solver stopped the search.
    Stopped(StopReason),
    /// `--max-executions` stopped it at this many executions.
    MaxExecutions(usize),
    /// It stopped at the first bug.
    StoppedAtBug,
    /// It ended before exhausting the program (a guided search that ran out of candidates).
    EndedEarly,
    /// The executions came from files (`--executions-from`).
    FromFiles,
    /// This many executions read bytes of `malloc`'d memory never written, which the replay harness
    /// cannot reproduce.
    Unreproducible(usize),
    /// This many executions did not replay under gcc (`--confirm`).
    RejectedByGcc(usize),
    /// This many paths violate the property relying on the accepted assumptions (`--assume`): not
    /// shown to be bugs of the program, nor shown not to be.
    AssumedViolation(u64),
    /// Every line was decided, and the search gave up looking for violations after this many more
    /// edges.
    ViolationsGivenUp(u64),
    /// This many executions were not replayed under gcc before the time limit (`--confirm`) and do
    /// not count.
    ConfirmationPending(usize),
    /// An execution another configuration of `vcov compare` found covers this line, which this
    /// configuration proved not coverable: the proof was wrong.
    ProofContradicted(u32),
}

/// What a run says about the property (`--spec`, `--prop`, or the default error calls and labels)
/// inside the explored region. `exact` is a statement about lines; this one is about violations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyStatus {
    /// An execution that stays inside the explored region violates the property (the bug's
    /// witness and test show it).
    FoundInRegion,
    /// An execution violates the property after it left the explored region: a bug of the program
    /// that the verifier's run never reached; it says nothing about the region.
    FoundOutsideRegion,
    /// No execution inside the explored region violates the property: a partial verification
    /// result, shown `by`, relying on the accepted assumptions `assumed`.
    NoneInRegion {
        /// How it was shown.
        by: NoViolationBy,
        /// The accepted assumptions (`--assume`) it relies on.
        assumed: Approx,
    },
    /// Not decided, and why.
    NotDecided(InexactReason),
}

/// How a run showed that no violation happens inside the explored region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoViolationBy {
    /// No path of automaton x CFA reaches a place where the property can be violated.
    NoErrorLocation,
    /// The search explored every path inside the region that leads toward such a place.
    ExhaustiveSearch,
    /// An over-approximation of the program (counters abstracted away, functions without body
    /// writing arbitrary values) was explored in full without a violation.
    Abstraction,
}

impl Default for PropertyStatus {
    /// Before anything is known.
    fn default() -> Self {
        PropertyStatus::NotDecided(InexactReason::EndedEarly)
    }
}

impl PropertyStatus {
    /// The name in reports.
    pub fn name(&self) -> &'static str {
        match self {
            PropertyStatus::FoundInRegion => "found_in_region",
            PropertyStatus::FoundOutsideRegion => "found_outside_region",
            PropertyStatus::NoneInRegion { .. } => "none_in_region",
            PropertyStatus::NotDecided(_) => "not_decided",
        }
    }

    /// Whether a violation was found (in the region or outside it).
    pub fn bug_found(&self) -> bool {
        matches!(self, PropertyStatus::FoundInRegion | PropertyStatus::FoundOutsideRegion)
    }
}

impl NoViolationBy {
    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            NoViolationBy::NoErrorLocation => "no_error_location",
            NoViolationBy::ExhaustiveSearch => "exhaustive_search",
            NoViolationBy::Abstraction => "abstraction",
        }
    }
}

/// The search's progress when it kept an execution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimelinePoint {
    /// Seconds since the search started (0 with `--reproducible`).
    pub seconds: f64,
    /// Executions kept so far.
    pub executions: usize,
    /// Lines they cover together.
    pub lines: usize,
}

/// One branching point (a node with two or more assume edges) and which of its arms are taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchInfo {
    /// Line of the condition.
    pub line: u32,
    /// For every arm, in CFA order: taken in the over-approximation, taken by a covering execution.
    pub arms: Vec<(bool, bool)>,
}

/// One nondeterministic value an execution consumed: a call of `__VERIFIER_nondet_*` or of a
/// function without a body, in call order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputValue {
    /// The function whose call produced the value.
    pub function: String,
    /// The C type of the value, as written in the program (`int`, `unsigned long`, `char *`).
    pub c_type: String,
    /// The value (two's complement for signed types; pointers as integers).
    pub value: i128,
}

/// The `function` of an input read from memory never written rather than returned by a call.
pub const UNINITIALIZED: &str = "<uninitialized memory>";

/// One execution and what it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecutionRecord {
    /// 1-based number in the report.
    pub id: usize,
    /// Where it came from.
    pub origin: Origin,
    /// Lines it covers (empty if it does not terminate).
    pub lines: Vec<u32>,
    /// Whether it ends at `main`'s exit.
    pub terminating: bool,
    /// Whether it violates the property.
    pub violates_property: bool,
    /// The nondeterministic values it consumed, in order (empty when it came from a file).
    pub inputs: Vec<InputValue>,
    /// Where its inputs of uninitialized memory lie and which fresh memory its pointer inputs chose:
    /// what the replay harness needs to rebuild the memory the execution read.
    pub memory: Vec<MemoryFact>,
}

/// A fact about an execution's memory, for the replay harness (allocation numbers count the objects
/// the execution allocated, from 0, as `symex::interp` does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryFact {
    /// Input `input` (index into the inputs) was read from bytes never written: at `offset` of
    /// allocation `alloc`, one byte, or a pointer when `pointer`.
    At {
        /// Index of the input.
        input: usize,
        /// The allocation read.
        alloc: u32,
        /// The byte offset in it.
        offset: u64,
        /// Whether the input is a pointer (null or fresh memory) rather than a byte.
        pointer: bool,
    },
    /// Pointer input `input` chose fresh memory: allocation `alloc`, pointed to at the executor's
    /// `lazy_offset`.
    Fresh {
        /// Index of the input.
        input: usize,
        /// The allocation of the fresh memory.
        alloc: u32,
    },
    /// Allocation `alloc` is the storage of variable `var` (its index in the program's variables,
    /// named `name`), allocated for the `instance`-th time (from 1).
    Var {
        /// The allocation.
        alloc: u32,
        /// The variable's index.
        var: u32,
        /// The variable's source name.
        name: String,
        /// Which allocation of the variable.
        instance: u32,
    },
}

/// Wall-clock and CPU time of the stages, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Times {
    /// Reading and parsing the program and the automaton.
    pub parse: f64,
    /// Building the CFA.
    pub cfa: f64,
    /// Building the product and the Reach fixpoint (the over-approximation).
    pub compose: f64,
    /// The value analysis of the product (`Analysis::lines_ruled_out`, with its second run for
    /// calls that are undefined behaviour) and the lines without a way out.
    pub values: f64,
    /// The search, without its proof passes.
    pub search: f64,
    /// The proof passes (`--proof-after`, and the one after an exhausted search).
    pub proof: f64,
    /// Replaying the executions under gcc (`--confirm`).
    pub confirm: f64,
    /// Everything, wall clock.
    pub total: f64,
    /// Seconds from the start of the run to the end of the search (its proofs included): when a
    /// limit or a signal stopped it, when it was stopped. The progress line and the summary both
    /// say this figure.
    pub search_end: f64,
    /// Process CPU time at the end of the run.
    pub cpu: f64,
}

/// How the executions a report counts were confirmed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Confirmation {
    /// vcov's concrete interpreter replayed each generated execution along its path (executions from
    /// files are taken as given); `rejected` ones it did not replay (or whose model the solver did
    /// not give) are not counted.
    Interpreter {
        /// Executions and counterexamples the interpreter did not replay, dropped.
        rejected: usize,
    },
    /// In addition, the program compiled by gcc ran each one and gcov saw its claimed lines
    /// (`--confirm`); `rejected` executions did not replay and are not counted, nor are `pending`
    /// ones, which the time limit left unconfirmed.
    Gcc {
        /// Executions gcc confirmed (all the report counts).
        confirmed: usize,
        /// Executions that did not replay under gcc, dropped.
        rejected: usize,
        /// Executions the time limit came before gcc could replay, dropped.
        pending: usize,
    },
}

/// Everything a coverage report shows.
#[derive(Clone, Debug)]
pub struct CoverageResult {
    /// The program file as given.
    pub program: PathBuf,
    /// The automaton file as given.
    pub automaton: PathBuf,
    /// `ILP32` or `LP64`.
    pub data_model: &'static str,
    /// `spanned` or `first-line`.
    pub line_rule: &'static str,
    /// Lines to cover, ascending.
    pub lines_to_cover: Vec<u32>,
    /// Over-approximation, ascending.
    pub over_lines: Vec<u32>,
    /// Under-approximation, ascending.
    pub under_lines: Vec<u32>,
    /// The executions measured.
    pub executions: Vec<ExecutionRecord>,
    /// Automaton states and transitions reached.
    pub matching: MatchStats,
    /// Functions of the program (with a body), by first line.
    pub functions: Vec<FunctionInfo>,
    /// Branching points, by line.
    pub branches: Vec<BranchInfo>,
    /// Whether an execution violating the property was found (inside or outside the region).
    pub bug_found: bool,
    /// What the run says about the property inside the explored region.
    pub property: PropertyStatus,
    /// Whether the run was stopped (signal or time limit) before its search ended.
    pub interrupted: bool,
    /// What stopped the search, if a limit or a signal did.
    pub stopped_by: Option<StoppedBy>,
    /// How the executions counted were confirmed.
    pub confirmation: Confirmation,
    /// Why vcov's interpreter refused executions of the executor, most frequent first (`count`,
    /// `why`): ties by why.
    pub refusals: Vec<(usize, Refusal)>,
    /// Whether every line of the over-approximation is decided, and relying on what, or why not
    /// (`Exactness::of`).
    pub exactness: Exactness,
    /// The variables the proof pass abstracted away, when it proved lines not coverable.
    pub abstracted: Vec<String>,
    /// Whether the proof pass took what functions without body write as arbitrary.
    pub abstracted_extern_writes: bool,
    /// How many lines the proof pass proved not coverable.
    pub proven_by_abstraction: usize,
    /// The environment assumptions the result relies on (accepted by the user with `--assume` and
    /// made by the search or the proof).
    pub assumed: Approx,
    /// What the search decides under the assumptions it did not accept, when only they keep the
    /// result from being exact (`line_status` stays the sound answer).
    pub decided_assuming: Option<DecidedAssuming>,
    /// For every line proven not coverable, the argument (`not_coverable_by`).
    pub not_coverable_by: BTreeMap<u32, NotCoverableBy>,
    /// The invariants proven at the program's loop heads that `Induction` arguments of
    /// `not_coverable_by` assumed (empty when none did).
    pub invariants: Vec<LoopInvariant>,
    /// Paths the search ended at possible undefined behaviour.
    pub undefined_paths: u64,
    /// Where undefined behaviour can happen (see `UndefinedAt`), by line.
    pub undefined: Vec<UndefinedAt>,
    /// The search's timeline (empty when executions came from files).
    pub timeline: Vec<TimelinePoint>,
    /// Paths that violate the property only relative to the accepted assumptions, and the first.
    pub assumed_violations: (u64, Option<UndefinedAt>),
    /// The row name for tables (`--instance`, default the program's file name).
    pub instance: String,
    /// The status of every line to cover.
    pub line_status: BTreeMap<u32, LineStatus>,
    /// Why the lines the search left undecided are (`coverage::undecided`); `None` without a search
    /// that followed the automaton, or with no line undecided.
    pub undecided: Option<UndecidedLines>,
    /// Where the executions came from.
    pub generate: ExecutionSource,
    /// Stage times.
    pub times: Times,
    /// Where the result comes from, for a reviewer (set by the driver, which reads the files).
    pub provenance: Provenance,
    /// What the claims were decided from, so that an execution gained later (`vcov compare`) goes
    /// through the same rules.
    pub basis: ClaimBasis,
}

/// What a result's line statuses and exactness were decided from, besides its lines and executions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimBasis {
    /// How the search ended (`None`: the executions came from files).
    pub search: Option<SearchEnd>,
    /// The executions found and not claimed.
    pub dropped: Dropped,
    /// Lines decided not coverable by an argument other than the search's completeness, ascending.
    pub proven: Vec<u32>,
    /// The first line proven not coverable that an execution gained later covers (the proof was
    /// wrong).
    pub contradicted: Option<u32>,
}

/// Where a result comes from: the digests of the inputs and of the evidence, what wrote the
/// automaton, and the options that shape the result, so that a reviewer can check the claims again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The version of vcov that measured it.
    pub vcov_version: String,
    /// The SHA-256 of the program file, in hex.
    pub program_sha256: String,
    /// The SHA-256 of the automaton file, in hex.
    pub automaton_sha256: String,
    /// The tool that wrote the automaton (`CPAchecker 4.0`), and where that was read (its header
    /// comment, or the `CPALog.txt` of its folder); `None` when nothing says.
    pub producer: Option<(String, String)>,
    /// The evidence written (`--evidence`): its folder as given, and each file with its SHA-256.
    pub evidence: Option<(PathBuf, Vec<(String, String)>)>,
    /// The command-line options that shape the result, as words (`--generate targeted`, `--32`, ...),
    /// the program and the automaton aside.
    pub options: Vec<String>,
    /// The options `vcov replay` needs for the program (data model, preprocessor).
    pub replay_options: Vec<String>,
}

/// The undecided lines of a result, sorted by why (`coverage::undecided::Undecided`, with names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndecidedLines {
    /// Lines some path got to without any of them returning from `main`, ascending.
    pub reached: Vec<u32>,
    /// Edges no path got past, most lines behind first.
    pub blocked: Vec<BlockedAt>,
    /// The other undecided lines, ascending.
    pub elsewhere: Vec<u32>,
}

impl UndecidedLines {
    /// How many lines it sorts.
    pub fn len(&self) -> usize {
        self.reached.len() + self.elsewhere.len() + self.blocked.iter().map(|b| b.lines.len()).sum::<usize>()
    }

    /// Whether it sorts no line.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An edge no path got past, and the undecided lines nearest behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedAt {
    /// The edge's first line.
    pub line: u32,
    /// The function it is in.
    pub function: String,
    /// The edge as CPAchecker writes it.
    pub edge: String,
    /// The automaton state a path would be in after it.
    pub state: String,
    /// What stopped the paths there.
    pub obstacle: crate::coverage::undecided::Obstacle,
    /// How often a path tried it.
    pub tried: u64,
    /// How many paths were cut on it.
    pub cut: u64,
    /// The undecided lines behind it, ascending.
    pub lines: Vec<u32>,
}

impl CoverageResult {
    /// Whether every line to cover that is not covered was proven not coverable (with or without
    /// assumptions).
    pub fn exact(&self) -> bool {
        self.exactness.is_exact()
    }

    /// How many lines to cover have each status.
    pub fn counts(&self) -> StatusCounts {
        StatusCounts::of(self.line_status.values())
    }

    /// How many lines are not coverable by an argument `by` accepts.
    pub fn n_not_coverable_by(&self, by: impl Fn(&NotCoverableBy) -> bool) -> usize {
        self.not_coverable_by.values().filter(|b| by(b)).count()
    }

    /// Number of terminating executions.
    pub fn n_terminating(&self) -> usize {
        self.executions.iter().filter(|e| e.terminating).count()
    }

    /// `n` lines as a percentage of the lines to cover (0 when there are none).
    pub fn percent_of_lines(&self, n: usize) -> f64 {
        if self.lines_to_cover.is_empty() {
            0.0
        } else {
            100.0 * n as f64 / self.lines_to_cover.len() as f64
        }
    }
}
