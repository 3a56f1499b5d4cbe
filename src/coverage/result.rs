//! The plain result of a coverage run, handed to the report writers.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use crate::product::MatchStats;
use crate::symex::{Approx, CutReason, Rejected, StopReason};

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

/// How the search ended, for the status of lines it did not cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SearchState {
    /// Executions came from files.
    NotSearched,
    /// Every candidate was explored: uncovered lines are not coverable.
    Complete,
    /// A limit stopped it.
    Limited,
    /// Paths were cut or executions rejected.
    Incomplete,
}

/// The status of every line to cover: `covered` (by the first execution that covers it) for the
/// under-approximation, `unexplored` outside the over-approximation, `not_coverable` for lines
/// `proven` not coverable or left uncovered by a complete search, and otherwise `unknown` after an
/// incomplete search or `over_only` when no search decided it (files, a limit).
///
/// `lines`, `over`, `under` and `proven` are ascending; every line of `under` is a line of some
/// execution.
pub fn line_status(
    lines: &[u32],
    over: &[u32],
    under: &[u32],
    proven: &[u32],
    executions: &[ExecutionRecord],
    state: SearchState,
) -> BTreeMap<u32, LineStatus> {
    let mut first_cover: BTreeMap<u32, usize> = BTreeMap::new();
    for e in executions {
        for &l in &e.lines {
            first_cover.entry(l).or_insert(e.id);
        }
    }
    lines
        .iter()
        .map(|&l| {
            let status = if under.binary_search(&l).is_ok() {
                LineStatus::Covered(first_cover[&l])
            } else if over.binary_search(&l).is_err() {
                LineStatus::Unexplored
            } else if proven.binary_search(&l).is_ok() {
                LineStatus::NotCoverable
            } else {
                match state {
                    SearchState::Complete => LineStatus::NotCoverable,
                    SearchState::Incomplete => LineStatus::Unknown,
                    SearchState::NotSearched | SearchState::Limited => LineStatus::OverOnly,
                }
            };
            (l, status)
        })
        .collect()
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

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Generated => f.write_str("generated"),
            Origin::FoundFor(name) => write!(f, "found for {name}"),
            Origin::File(name) => f.write_str(name),
            Origin::Bug => f.write_str("bug"),
        }
    }
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

    /// A phrase for text reports (`the time limit`, ...).
    pub fn describe(self) -> &'static str {
        match self {
            StoppedBy::TimeLimit => "the time limit",
            StoppedBy::MemoryLimit => "the memory limit",
            StoppedBy::Signal => "a signal",
            StoppedBy::MaxExecutions => "the limit on executions (--max-executions)",
            StoppedBy::Solver => "the SAT solver giving up",
        }
    }
}

/// How a search ended, as facts: the status of the lines it left (`SearchEnd::state`), why it is
/// not exact (`InexactReason::first`) and what stopped it (`SearchEnd::stopped_by`) are decided
/// from them, and from nothing else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchEnd {
    /// Every line of the over-approximation was covered or proven not coverable (a targeted search):
    /// the result is exact whatever else happened.
    pub all_decided: bool,
    /// The executor's work list ran empty.
    pub exhausted: bool,
    /// A limit, a signal or the solver stopped the executor.
    pub stop: Option<StopReason>,
    /// `--max-executions` stopped the search at this many executions.
    pub max_executions: Option<usize>,
    /// The search stopped at the first bug.
    pub stopped_at_bug: bool,
    /// Paths cut other than at undefined behaviour (`Summary::lossy_cuts`), the first one's reason
    /// and line.
    pub cuts: (u64, Option<CutReason>, Option<u32>),
    /// Approximations the paths made that the user did not accept.
    pub unaccepted: Approx,
    /// The first execution or violation the concrete interpreter refused for another reason than
    /// the approximations it made (it ran otherwise, or the solver gave no inputs); a violation
    /// refused for them leaves them in `unaccepted`.
    pub rejected: Option<Rejected>,
    /// Paths a search other than the targeted one pruned as covered by explored states.
    pub pruned: u64,
}

impl SearchEnd {
    /// Whether a limit (time, memory, signal, solver, number of executions) stopped the search.
    pub fn limited(&self) -> bool {
        self.stop.is_some() || self.max_executions.is_some()
    }

    /// Whether the search was stopped before it ended: a signal, the time or memory limit, or the
    /// solver giving up.
    pub fn interrupted(&self) -> bool {
        self.stop.is_some()
    }

    /// What stopped the search, if a limit or a signal did.
    pub fn stopped_by(&self) -> Option<StoppedBy> {
        match self.stop {
            Some(StopReason::Time) => Some(StoppedBy::TimeLimit),
            Some(StopReason::Memory) => Some(StoppedBy::MemoryLimit),
            Some(StopReason::Interrupted) => Some(StoppedBy::Signal),
            Some(StopReason::SolverUnknown) => Some(StoppedBy::Solver),
            Some(StopReason::Requested) => None,
            None => self.max_executions.map(|_| StoppedBy::MaxExecutions),
        }
    }

    /// Why the search alone does not decide every line, in one order: a stop, the limit on
    /// executions, the first bug, then the first obstacle (cut paths, approximations, a refused
    /// path, pruned paths), else that the work list did not run empty. `None` exactly when the
    /// search is complete.
    fn reason(&self) -> Option<InexactReason> {
        if self.all_decided {
            return None;
        }
        let (count, first, line) = &self.cuts;
        let obstacle = if *count > 0 {
            Some(InexactReason::Cut { count: *count, first: first.clone(), line: *line })
        } else if !self.unaccepted.is_empty() {
            Some(InexactReason::Approximated(self.unaccepted))
        } else if let Some(r) = &self.rejected {
            Some(InexactReason::Rejected(r.clone()))
        } else if self.pruned > 0 {
            Some(InexactReason::PrunedAsCovered(self.pruned))
        } else {
            None
        };
        if self.exhausted && !self.limited() && !self.stopped_at_bug && obstacle.is_none() {
            return None;
        }
        Some(if let Some(stop) = self.stop {
            InexactReason::Stopped(stop)
        } else if let Some(n) = self.max_executions {
            InexactReason::MaxExecutions(n)
        } else if self.stopped_at_bug {
            InexactReason::StoppedAtBug
        } else {
            obstacle.unwrap_or(InexactReason::EndedEarly)
        })
    }

    /// Whether the search alone decides every line of the over-approximation.
    pub fn complete(&self) -> bool {
        self.reason().is_none()
    }

    /// The environment assumptions (`--assume`) under which the search alone would decide every
    /// line, when it does not and they are its only obstacle: the approximations its paths made that
    /// the user did not accept, each one a user may accept. The paths explored do not depend on
    /// `--assume` (only which of them are accepted), so a run accepting these explores the same paths
    /// and is complete; violations refused for these approximations would be accepted as findings.
    pub fn complete_assuming(&self) -> Option<Approx> {
        if self.complete() || !Approx::ASSUMABLE.contains(self.unaccepted) {
            return None;
        }
        let assuming = SearchEnd { unaccepted: Approx::NONE, ..self.clone() };
        assuming.complete().then_some(self.unaccepted)
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

/// Executions a result does not claim, though the search found them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Executions that read bytes of `malloc`'d memory never written (see `memory_facts`).
    pub unreproducible: usize,
    /// Executions that did not replay under gcc (`--confirm`).
    pub rejected_by_gcc: usize,
    /// Executions the time limit left unconfirmed by gcc (`--confirm`).
    pub pending: usize,
}

impl Dropped {
    /// Whether any execution was dropped.
    pub fn any(&self) -> bool {
        self.unreproducible + self.rejected_by_gcc + self.pending > 0
    }
}

/// How the search ended, for the status of the lines it left: `search` is `None` when the
/// executions came from files. A complete search that dropped executions is incomplete: lines only
/// they covered were never searched for again.
pub fn search_state(search: Option<&SearchEnd>, dropped: Dropped) -> SearchState {
    match search {
        None => SearchState::NotSearched,
        Some(e) if e.complete() && !dropped.any() => SearchState::Complete,
        Some(e) if e.complete() => SearchState::Incomplete,
        Some(e) if e.limited() => SearchState::Limited,
        Some(_) => SearchState::Incomplete,
    }
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

impl fmt::Display for NotCoverableBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let assumed = match self {
            NotCoverableBy::NoExit => return f.write_str("no path to the end of main"),
            NotCoverableBy::Frontier => return f.write_str("only on edges into the unexplored region"),
            NotCoverableBy::PastUndefinedCall => {
                return f.write_str(
                    "value analysis of automaton x CFA, past a call through a pointer of an incompatible function \
                     type (undefined behaviour)",
                )
            }
            NotCoverableBy::PastNullAccess => {
                return f.write_str(
                    "value analysis of automaton x CFA, past an access through a null pointer (undefined behaviour)",
                )
            }
            NotCoverableBy::Values => return f.write_str("value analysis of automaton x CFA"),
            NotCoverableBy::Bmc { steps } => {
                return write!(f, "bounded model checking of the program: every execution ends within {steps} step(s)")
            }
            NotCoverableBy::Induction { k: 0, invariants: n @ 1.. } => {
                return write!(
                    f,
                    "invariants: no step from a state the program's {n} proven invariant(s) allow reaches it"
                )
            }
            NotCoverableBy::Induction { k, invariants: 0 } => {
                return write!(f, "k-induction over the program (k = {k})")
            }
            NotCoverableBy::Induction { k, invariants } => {
                return write!(f, "k-induction over the program (k = {k}, {invariants} invariant(s))")
            }
            NotCoverableBy::Abstraction { counters, extern_writes, assumed } => {
                match (extern_writes, counters) {
                    (false, _) => f.write_str("counter abstraction")?,
                    (true, false) => write!(f, "search with {EXTERN_WRITES_ABSTRACTED} abstracted away")?,
                    (true, true) => write!(f, "counter abstraction, with {EXTERN_WRITES_ABSTRACTED} abstracted away")?,
                }
                assumed
            }
            NotCoverableBy::ExhaustiveSearch { assumed } => {
                f.write_str("exhaustive search")?;
                assumed
            }
        };
        let names = assumed.assumption_names();
        if !names.is_empty() {
            write!(f, ", assuming {}", names.join(", "))?;
        }
        Ok(())
    }
}

/// What the search's proofs say about lines, for `not_coverable_by`.
#[derive(Clone, Copy, Debug)]
pub struct ProofFacts<'a> {
    /// Lines the proof pass proved not coverable, ascending.
    pub proven: &'a [u32],
    /// Whether the proof pass abstracted counters away.
    pub counters: bool,
    /// Whether it took what functions without body write as arbitrary.
    pub extern_writes: bool,
    /// The accepted assumptions the proof relied on.
    pub proof_assumed: Approx,
    /// The accepted assumptions the search relied on.
    pub search_assumed: Approx,
    /// Whether the search explored every path (its lines not covered are its to argue).
    pub complete: bool,
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

/// The argument of every line `status` says is not coverable: no path to the end of `main`
/// (`no_exit`), only edges into the unexplored region (`frontier`), the value analysis of the
/// product (`ruled_out`, past an undefined call or a null access first), the proof pass, the
/// exhaustive search when it was complete (`search`, `None` when no search ran), a proof over the
/// whole program (`program`), or else the search.
/// All line lists are ascending.
pub fn not_coverable_by(
    status: &BTreeMap<u32, LineStatus>,
    search: Option<ProofFacts<'_>>,
    program: &BTreeMap<u32, NotCoverableBy>,
    no_exit: &[u32],
    frontier: &[u32],
    ruled_out: &super::RuledOut,
) -> BTreeMap<u32, NotCoverableBy> {
    let has = |lines: &[u32], l: u32| lines.binary_search(&l).is_ok();
    status
        .iter()
        .filter(|(_, s)| **s == LineStatus::NotCoverable)
        .filter_map(|(&l, _)| {
            let by = if has(no_exit, l) {
                NotCoverableBy::NoExit
            } else if has(frontier, l) {
                NotCoverableBy::Frontier
            } else if has(&ruled_out.by_undefined_call, l) {
                NotCoverableBy::PastUndefinedCall
            } else if has(&ruled_out.by_null_access, l) {
                NotCoverableBy::PastNullAccess
            } else if has(&ruled_out.all, l) {
                NotCoverableBy::Values
            } else if let Some(s) = search.filter(|s| has(s.proven, l)) {
                NotCoverableBy::Abstraction {
                    counters: s.counters,
                    extern_writes: s.extern_writes,
                    assumed: s.proof_assumed,
                }
            } else if let Some(s) = search.filter(|s| s.complete) {
                NotCoverableBy::ExhaustiveSearch { assumed: s.search_assumed }
            } else if let Some(&by) = program.get(&l) {
                by
            } else {
                NotCoverableBy::ExhaustiveSearch { assumed: search?.search_assumed }
            };
            Some((l, by))
        })
        .collect()
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

impl InexactReason {
    /// Why a result is not exact, if it is not: the search's reason (`search`; `None` when the
    /// executions came from files, which is a reason of its own), else the executions it dropped,
    /// in the order of `Dropped`'s fields. A result is exact exactly when this is `None`.
    pub fn first(search: Option<&SearchEnd>, dropped: Dropped) -> Option<InexactReason> {
        let searched = match search {
            Some(end) => end.reason(),
            None => Some(InexactReason::FromFiles),
        };
        searched
            .or((dropped.unreproducible > 0).then_some(InexactReason::Unreproducible(dropped.unreproducible)))
            .or((dropped.rejected_by_gcc > 0).then_some(InexactReason::RejectedByGcc(dropped.rejected_by_gcc)))
            .or((dropped.pending > 0).then_some(InexactReason::ConfirmationPending(dropped.pending)))
    }
}

impl fmt::Display for InexactReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InexactReason::Cut { count, first, line } => {
                write!(f, "{count} path(s) cut; first")?;
                if let Some(l) = line {
                    write!(f, " at line {l}")?;
                }
                f.write_str(": ")?;
                first.as_ref().map_or(Ok(()), |c| write!(f, "{c}"))
            }
            InexactReason::Approximated(a) => f.write_str(&a.describe().join("; ")),
            InexactReason::Rejected(r) => write!(f, "{r}"),
            InexactReason::PrunedAsCovered(hits) => write!(
                f,
                "{hits} path(s) were pruned as covered by explored states, so not every execution was \
                 enumerated (--generate targeted proves lines not coverable)"
            ),
            InexactReason::Stopped(stop) => write!(f, "the search was stopped before it ended ({})", stop.describe()),
            InexactReason::MaxExecutions(n) => write!(f, "the search stopped at {n} execution(s) (--max-executions)"),
            InexactReason::StoppedAtBug => {
                f.write_str("the search stopped at the first bug (--continue-after-bug goes on)")
            }
            InexactReason::EndedEarly => f.write_str("the search ended before exhausting the program"),
            InexactReason::FromFiles => f.write_str("the executions come from files; no search was made"),
            InexactReason::Unreproducible(n) => write!(
                f,
                "{n} execution(s) read bytes of malloc'd memory never written, which vcov replay cannot \
                 reproduce; they do not count"
            ),
            InexactReason::RejectedByGcc(n) => {
                write!(f, "{n} execution(s) did not replay under gcc (--confirm) and do not count")
            }
            InexactReason::AssumedViolation(n) => {
                write!(f, "{n} path(s) violate the property relying on the accepted assumptions")
            }
            InexactReason::ConfirmationPending(n) => write!(
                f,
                "{n} execution(s) were not replayed under gcc before the time limit (--confirm) and do not count"
            ),
            InexactReason::ProofContradicted(line) => write!(
                f,
                "line {line} was proven not coverable, yet an execution another configuration found covers it"
            ),
            InexactReason::ViolationsGivenUp(n) => write!(
                f,
                "every line was decided; the search for violations went on for {n} more edge(s), as many as \
                 deciding the lines took (at least 100,000), and was given up"
            ),
        }
    }
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

impl fmt::Display for PropertyStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PropertyStatus::FoundInRegion => f.write_str("violated inside the explored region"),
            PropertyStatus::FoundOutsideRegion => f.write_str(
                "violated outside the explored region (a bug the verifier's run never reached; nothing is said \
                 about the region)",
            ),
            PropertyStatus::NoneInRegion { by, assumed } => {
                f.write_str("no violation inside the explored region (")?;
                f.write_str(match by {
                    NoViolationBy::NoErrorLocation => "no path of automaton x CFA reaches an error location",
                    NoViolationBy::ExhaustiveSearch => "every path there toward an error location was explored",
                    NoViolationBy::Abstraction => "an over-approximation of the program was explored in full",
                })?;
                let names: Vec<&str> = assumed.assumptions().iter().map(|a| a.0).collect();
                if !names.is_empty() {
                    write!(f, ", assuming {}", names.join(", "))?;
                }
                f.write_str(")")
            }
            PropertyStatus::NotDecided(why) => write!(f, "not decided inside the explored region: {why}"),
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
    pub refusals: Vec<(usize, String)>,
    /// Why the result is not exact (`InexactReason::first`); `None` exactly when it is exact: every
    /// line to cover that is not covered was proven not coverable.
    pub inexact_reason: Option<InexactReason>,
    /// The variables the proof pass abstracted away, when it proved lines not coverable.
    pub abstracted: Vec<String>,
    /// Whether the proof pass took what functions without body write as arbitrary.
    pub abstracted_extern_writes: bool,
    /// How many lines the proof pass proved not coverable.
    pub proven_by_abstraction: usize,
    /// The environment assumptions the result relies on (accepted by the user with `--assume` and
    /// made by the search or the proof): their names and what they state.
    pub assumed: Vec<(&'static str, &'static str)>,
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

    /// Where the undecided lines are, in one sentence: the edges with most lines behind them first.
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = self
            .blocked
            .iter()
            .take(BLOCKED_NAMED)
            .map(|b| format!("{} behind {}", b.lines.len(), b.describe_edge()))
            .collect();
        let more = &self.blocked[self.blocked.len().min(BLOCKED_NAMED)..];
        if !more.is_empty() {
            let n: usize = more.iter().map(|b| b.lines.len()).sum();
            parts.push(format!("{n} behind {} other edge(s) no path got past", more.len()));
        }
        if !self.reached.is_empty() {
            parts.push(format!("{} {REACHED}", self.reached.len()));
        }
        if !self.elsewhere.is_empty() {
            parts.push(format!("{} {ELSEWHERE}", self.elsewhere.len()));
        }
        format!("{} line(s) undecided: {}", self.len(), parts.join(", "))
    }

    /// Why each undecided line is undecided (`why` of every line at once: each blocking edge is
    /// described once, not once per line).
    pub fn whys(&self) -> BTreeMap<u32, String> {
        let mut res: BTreeMap<u32, String> = BTreeMap::new();
        for &l in &self.elsewhere {
            res.insert(l, ELSEWHERE.to_string());
        }
        // In the order `why` tries them: a line reached, then behind the first blocking edge
        // holding it.
        for b in self.blocked.iter().rev() {
            let why = format!("behind {}", b.describe_edge());
            for &l in &b.lines {
                res.insert(l, why.clone());
            }
        }
        for &l in &self.reached {
            res.insert(l, REACHED.to_string());
        }
        res
    }

    /// Why `line` is undecided, if it is.
    pub fn why(&self, line: u32) -> Option<String> {
        if self.reached.binary_search(&line).is_ok() {
            return Some(REACHED.to_string());
        }
        if let Some(b) = self.blocked.iter().find(|b| b.lines.binary_search(&line).is_ok()) {
            return Some(format!("behind {}", b.describe_edge()));
        }
        self.elsewhere.binary_search(&line).is_ok().then(|| ELSEWHERE.to_string())
    }
}

/// Blocking edges `UndecidedLines::summary` names; the JSON report has them all.
const BLOCKED_NAMED: usize = 3;
/// Undecided lines some path got to.
const REACHED: &str = "reached by paths none of which returned from main";
/// Undecided lines neither reached nor behind a blocking edge.
const ELSEWHERE: &str = "where no path came near";
/// Characters of an edge's text quoted in summaries.
const EDGE_TEXT_SHOWN: usize = 60;

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

impl BlockedAt {
    /// The edge, where it is and what stopped the paths there, in words: ``line 10614 in f
    /// (`[!(a != b)]`: tried 10 time(s), infeasible each time)``.
    pub fn describe_edge(&self) -> String {
        // The first line of the edge's text (a block's text spans many), shortened.
        let first = self.edge.lines().next().unwrap_or_default().trim();
        let text = match first.char_indices().nth(EDGE_TEXT_SHOWN) {
            Some((cut, _)) => format!("{}…", &first[..cut]),
            None if first.len() < self.edge.trim().len() => format!("{first} …"),
            None => first.to_string(),
        };
        let obstacle = self.obstacle.describe(self.tried, self.cut);
        // An edge without a line (the start of a function) is named by its function alone, so that
        // every `line N` a report shows is a line of the program.
        let place = match self.line {
            0 => format!("the start of {}", self.function),
            line => format!("line {line} in {}", self.function),
        };
        if text.is_empty() {
            format!("{place} ({obstacle})")
        } else {
            format!("{place} (`{text}`: {obstacle})")
        }
    }
}

/// How the proof pass names its abstraction of what functions without body write.
pub const EXTERN_WRITES_ABSTRACTED: &str = "what functions without body write";

impl CoverageResult {
    /// What the proof pass abstracted away, for messages: the variables, and what functions without
    /// body write (`None` if it proved nothing).
    pub fn abstraction(&self) -> Option<String> {
        let mut what = self.abstracted.clone();
        if self.abstracted_extern_writes {
            what.push(EXTERN_WRITES_ABSTRACTED.to_string());
        }
        (self.proven_by_abstraction > 0 && !what.is_empty()).then(|| what.join(", "))
    }

    /// Whether every line to cover that is not covered was proven not coverable.
    pub fn exact(&self) -> bool {
        self.inexact_reason.is_none()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn execution(id: usize, lines: &[u32]) -> ExecutionRecord {
        ExecutionRecord {
            id,
            origin: Origin::Generated,
            lines: lines.to_vec(),
            terminating: true,
            violates_property: false,
            inputs: Vec::new(),
            memory: Vec::new(),
        }
    }

    #[test]
    fn every_undecided_line_has_one_why() {
        let at = |lines: &[u32], edge: &str| BlockedAt {
            line: 9,
            function: "f".into(),
            edge: edge.into(),
            state: "ARG1".into(),
            obstacle: crate::coverage::undecided::Obstacle::NotTried,
            tried: 0,
            cut: 0,
            lines: lines.to_vec(),
        };
        let u = UndecidedLines {
            reached: vec![1, 3],
            blocked: vec![at(&[2, 3, 4], "a;"), at(&[4, 5], "b;")],
            elsewhere: vec![6],
        };
        let whys = u.whys();
        for line in 0..8 {
            assert_eq!(whys.get(&line).cloned(), u.why(line), "line {line}");
        }
    }

    #[test]
    fn a_blocking_edge_without_a_line_is_named_by_its_function() {
        let at = |line: u32, edge: &str| BlockedAt {
            line,
            function: "f".into(),
            edge: edge.into(),
            state: "ARG1".into(),
            obstacle: crate::coverage::undecided::Obstacle::NotTried,
            tried: 0,
            cut: 0,
            lines: vec![3],
        };
        assert_eq!(at(0, "").describe_edge(), "the start of f (never tried)");
        assert_eq!(at(7, "x = 1;").describe_edge(), "line 7 in f (`x = 1;`: never tried)");
    }

    #[test]
    fn each_line_gets_the_status_the_search_allows() {
        // Lines 1-6 to cover; 1-5 over-approximated; 1 and 2 covered (2 first by execution 2);
        // 3 proven not coverable; 4 and 5 left; 6 never explored.
        let lines = [1, 2, 3, 4, 5, 6];
        let over = [1, 2, 3, 4, 5];
        let under = [1, 2];
        let execs = [execution(1, &[1]), execution(2, &[1, 2])];
        let status = |state| line_status(&lines, &over, &under, &[3], &execs, state);
        for state in [SearchState::NotSearched, SearchState::Complete, SearchState::Limited, SearchState::Incomplete] {
            let s = status(state);
            assert_eq!(s[&1], LineStatus::Covered(1));
            assert_eq!(s[&2], LineStatus::Covered(2));
            assert_eq!(s[&3], LineStatus::NotCoverable, "{state:?}");
            assert_eq!(s[&6], LineStatus::Unexplored);
        }
        assert_eq!(status(SearchState::Complete)[&4], LineStatus::NotCoverable);
        assert_eq!(status(SearchState::Incomplete)[&4], LineStatus::Unknown);
        assert_eq!(status(SearchState::Limited)[&5], LineStatus::OverOnly);
        assert_eq!(status(SearchState::NotSearched)[&5], LineStatus::OverOnly);
    }

    #[test]
    fn inexact_reasons_read_as_the_reports_say_them() {
        use crate::symex::semantics::UbKind;
        let cut = InexactReason::Cut { count: 2, first: Some(CutReason::Unwind(crate::cfa::NodeId(4))), line: Some(7) };
        assert!(cut.to_string().starts_with("2 path(s) cut; first at line 7: "), "{cut}");
        let cut = InexactReason::Cut { count: 1, first: Some(CutReason::Undefined(UbKind::DivByZero)), line: None };
        assert_eq!(cut.to_string(), "1 path(s) cut; first: possible undefined behaviour: division by zero");
        assert_eq!(
            InexactReason::Stopped(StopReason::Time).to_string(),
            "the search was stopped before it ended (time limit)"
        );
        assert_eq!(
            InexactReason::Approximated(Approx::LAZY_MEMORY).to_string(),
            "an unknown pointer was taken to point to fresh memory"
        );
        assert_eq!(
            InexactReason::MaxExecutions(3).to_string(),
            "the search stopped at 3 execution(s) (--max-executions)"
        );
        assert_eq!(
            InexactReason::RejectedByGcc(2).to_string(),
            "2 execution(s) did not replay under gcc (--confirm) and do not count"
        );
    }

    fn ruled(all: &[u32], by_undefined_call: &[u32], by_null_access: &[u32]) -> super::super::RuledOut {
        super::super::RuledOut {
            all: all.to_vec(),
            by_undefined_call: by_undefined_call.to_vec(),
            by_null_access: by_null_access.to_vec(),
        }
    }

    #[test]
    fn a_proof_over_the_whole_program_argues_for_the_lines_the_search_left() {
        let status: BTreeMap<u32, LineStatus> =
            [(2, LineStatus::NotCoverable), (3, LineStatus::NotCoverable), (4, LineStatus::NotCoverable)]
                .into_iter()
                .collect();
        let program: BTreeMap<u32, NotCoverableBy> = [
            (2, NotCoverableBy::Induction { k: 0, invariants: 2 }),
            (3, NotCoverableBy::Induction { k: 3, invariants: 0 }),
            (4, NotCoverableBy::Bmc { steps: 7 }),
        ]
        .into_iter()
        .collect();
        let facts = ProofFacts {
            proven: &[4],
            counters: true,
            extern_writes: false,
            proof_assumed: Approx::NONE,
            search_assumed: Approx::NONE,
            complete: false,
        };
        let by = not_coverable_by(&status, Some(facts), &program, &[], &[], &ruled(&[], &[], &[]));
        assert_eq!(
            by[&2].to_string(),
            "invariants: no step from a state the program's 2 proven invariant(s) allow reaches it"
        );
        assert_eq!(by[&3].to_string(), "k-induction over the program (k = 3)");
        // The search's own proof comes first.
        assert_eq!(by[&4].to_string(), "counter abstraction");
        assert_eq!(
            NotCoverableBy::Induction { k: 2, invariants: 5 }.to_string(),
            "k-induction over the program (k = 2, 5 invariant(s))"
        );
        assert_eq!(
            NotCoverableBy::Bmc { steps: 7 }.to_string(),
            "bounded model checking of the program: every execution ends within 7 step(s)"
        );
        // Without a search, too.
        let by = not_coverable_by(&status, None, &program, &[], &[], &ruled(&[], &[], &[]));
        assert_eq!((by[&3], by[&4]), (program[&3], program[&4]));
        // A complete search decided the lines itself.
        let by = not_coverable_by(
            &status,
            Some(ProofFacts { complete: true, ..facts }),
            &program,
            &[],
            &[],
            &ruled(&[], &[], &[]),
        );
        assert_eq!(by[&2], NotCoverableBy::ExhaustiveSearch { assumed: Approx::NONE });
    }

    #[test]
    fn every_not_coverable_line_names_its_argument_and_assumptions() {
        let none = BTreeMap::new();
        let status: BTreeMap<u32, LineStatus> = [
            (1, LineStatus::Covered(1)),
            (2, LineStatus::NotCoverable),
            (3, LineStatus::NotCoverable),
            (4, LineStatus::Unknown),
            (5, LineStatus::NotCoverable),
        ]
        .into_iter()
        .collect();
        let facts = ProofFacts {
            proven: &[3],
            counters: false,
            extern_writes: false,
            proof_assumed: Approx::NONE,
            search_assumed: Approx::LAZY_MEMORY,
            complete: true,
        };
        let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[], &[], &[]));
        assert_eq!(by.len(), 3);
        assert_eq!(by[&2].to_string(), "exhaustive search, assuming fresh-pointers");
        assert_eq!(by[&3].to_string(), "counter abstraction");
        assert_eq!(by[&5], NotCoverableBy::NoExit);
        assert_eq!(by[&5].to_string(), "no path to the end of main");
        // A proof that took what functions without body write as arbitrary says so.
        let facts = ProofFacts { extern_writes: true, ..facts };
        let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[], &[], &[]));
        assert_eq!(by[&3].to_string(), "search with what functions without body write abstracted away");
        let facts = ProofFacts { counters: true, ..facts };
        let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[], &[], &[]));
        assert_eq!(by[&3].to_string(), "counter abstraction, with what functions without body write abstracted away");
        // Without a search only the lines a static argument decides are not coverable.
        let unsearched: BTreeMap<u32, LineStatus> =
            [(1, LineStatus::OverOnly), (5, LineStatus::NotCoverable)].into_iter().collect();
        let by = not_coverable_by(&unsearched, None, &none, &[5], &[], &ruled(&[], &[], &[]));
        assert_eq!(by.into_iter().collect::<Vec<_>>(), [(5, NotCoverableBy::NoExit)]);
        // The static arguments, in their order: no way out, then the frontier, then the values
        // (past an undefined call first), with or without a search.
        let by = not_coverable_by(&status, None, &none, &[5], &[3, 5], &ruled(&[2], &[], &[]));
        assert_eq!(
            (by[&2], by[&3], by[&5]),
            (NotCoverableBy::Values, NotCoverableBy::Frontier, NotCoverableBy::NoExit)
        );
        assert_eq!(by[&2].to_string(), "value analysis of automaton x CFA");
        assert_eq!(by[&3].to_string(), "only on edges into the unexplored region");
        let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[2], &[2], &[]));
        assert_eq!(by[&2], NotCoverableBy::PastUndefinedCall);
        assert!(by[&2].by_values() && NotCoverableBy::Values.by_values() && !by[&5].by_values());
        let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[2], &[], &[2]));
        assert_eq!(by[&2], NotCoverableBy::PastNullAccess);
        assert!(by[&2].by_values());
        assert_eq!(
            by[&2].to_string(),
            "value analysis of automaton x CFA, past an access through a null pointer (undefined behaviour)"
        );
    }

    #[test]
    fn one_precedence_decides_why_a_result_is_not_exact() {
        let done = SearchEnd { exhausted: true, ..SearchEnd::default() };
        let none = Dropped::default();
        assert_eq!(InexactReason::first(Some(&done), none), None);
        assert_eq!(InexactReason::first(None, none), Some(InexactReason::FromFiles));
        // A search that did not run out of paths, with nothing else to say.
        let open = SearchEnd::default();
        assert_eq!(InexactReason::first(Some(&open), none), Some(InexactReason::EndedEarly));
        // The obstacles, in order: cuts, approximations, a refused path, pruned paths.
        let mut e = SearchEnd { pruned: 3, ..done.clone() };
        assert_eq!(InexactReason::first(Some(&e), none), Some(InexactReason::PrunedAsCovered(3)));
        let refused = Rejected { violation: false, why: crate::symex::Rejection::NoModel, at: None };
        e.rejected = Some(refused.clone());
        assert_eq!(InexactReason::first(Some(&e), none), Some(InexactReason::Rejected(refused)));
        e.unaccepted = Approx::LAZY_MEMORY;
        assert_eq!(InexactReason::first(Some(&e), none), Some(InexactReason::Approximated(Approx::LAZY_MEMORY)));
        e.cuts = (2, None, Some(7));
        assert_eq!(
            InexactReason::first(Some(&e), none),
            Some(InexactReason::Cut { count: 2, first: None, line: Some(7) })
        );
        // Then the first bug, the limit on executions and a stop come before every obstacle.
        e.stopped_at_bug = true;
        assert_eq!(InexactReason::first(Some(&e), none), Some(InexactReason::StoppedAtBug));
        e.max_executions = Some(4);
        assert_eq!(InexactReason::first(Some(&e), none), Some(InexactReason::MaxExecutions(4)));
        e.stop = Some(StopReason::Time);
        assert_eq!(InexactReason::first(Some(&e), none), Some(InexactReason::Stopped(StopReason::Time)));
        assert_eq!(e.stopped_by(), Some(StoppedBy::TimeLimit));
        // A search that decided every line is exact whatever else happened.
        e.all_decided = true;
        assert_eq!(InexactReason::first(Some(&e), none), None);
        // Dropped executions come after the search's reason, in their order.
        let dropped = Dropped { unreproducible: 1, rejected_by_gcc: 2, pending: 3 };
        assert_eq!(InexactReason::first(Some(&done), dropped), Some(InexactReason::Unreproducible(1)));
        let dropped = Dropped { unreproducible: 0, ..dropped };
        assert_eq!(InexactReason::first(Some(&done), dropped), Some(InexactReason::RejectedByGcc(2)));
        let dropped = Dropped { rejected_by_gcc: 0, ..dropped };
        assert_eq!(InexactReason::first(Some(&done), dropped), Some(InexactReason::ConfirmationPending(3)));
        assert_eq!(InexactReason::first(Some(&open), dropped), Some(InexactReason::EndedEarly));
    }

    #[test]
    fn the_search_state_follows_the_search_and_what_was_dropped() {
        let done = SearchEnd { exhausted: true, ..SearchEnd::default() };
        let none = Dropped::default();
        let one = Dropped { pending: 1, ..none };
        assert_eq!(search_state(None, none), SearchState::NotSearched);
        assert_eq!(search_state(Some(&done), none), SearchState::Complete);
        assert_eq!(search_state(Some(&done), one), SearchState::Incomplete);
        let limited = SearchEnd { max_executions: Some(2), ..done.clone() };
        assert_eq!(search_state(Some(&limited), one), SearchState::Limited);
        assert_eq!(limited.stopped_by(), Some(StoppedBy::MaxExecutions));
        let cut = SearchEnd { cuts: (1, None, None), ..done };
        assert_eq!(search_state(Some(&cut), none), SearchState::Incomplete);
        assert_eq!(cut.stopped_by(), None);
    }

    #[test]
    fn a_search_is_complete_assuming_only_what_alone_keeps_it_from_being_complete() {
        let done = SearchEnd { exhausted: true, ..SearchEnd::default() };
        assert_eq!(done.complete_assuming(), None, "complete already");
        let fresh = SearchEnd { unaccepted: Approx::LAZY_MEMORY, ..done.clone() };
        assert_eq!(fresh.complete_assuming(), Some(Approx::LAZY_MEMORY));
        let both = SearchEnd { unaccepted: Approx::LAZY_MEMORY.union(Approx::EXTERN_WRITE), ..done.clone() };
        assert_eq!(both.complete_assuming(), Some(Approx::LAZY_MEMORY.union(Approx::EXTERN_WRITE)));
        // No assumption removes any other obstacle.
        let refused = Rejected { violation: false, why: crate::symex::Rejection::NoModel, at: None };
        for other in [
            SearchEnd { rejected: Some(refused), ..fresh.clone() },
            SearchEnd { unaccepted: Approx::ABSTRACT, ..done.clone() },
            SearchEnd { cuts: (1, None, None), ..fresh.clone() },
            SearchEnd { exhausted: false, ..fresh.clone() },
            SearchEnd { max_executions: Some(3), ..fresh.clone() },
            SearchEnd { stop: Some(StopReason::Time), ..fresh.clone() },
            SearchEnd { stopped_at_bug: true, ..fresh.clone() },
            SearchEnd { pruned: 2, ..fresh.clone() },
        ] {
            assert_eq!(other.complete_assuming(), None, "{other:?}");
        }
    }

    #[test]
    fn origins_read_as_the_reports_say_them() {
        let names: Vec<String> =
            [Origin::Generated, Origin::FoundFor("value".into()), Origin::File("c.spc".into()), Origin::Bug]
                .iter()
                .map(Origin::to_string)
                .collect();
        assert_eq!(names, ["generated", "found for value", "c.spc", "bug"]);
        let sources: Vec<&str> = [
            ExecutionSource::Files,
            ExecutionSource::Search(Generate::Blind),
            ExecutionSource::Search(Generate::Guided),
            ExecutionSource::Search(Generate::Targeted),
        ]
        .iter()
        .map(|s| s.name())
        .collect();
        assert_eq!(sources, ["files", "blind", "guided", "targeted"]);
    }

    #[test]
    fn names_are_the_reports_words() {
        let names: Vec<&str> = [
            LineStatus::Covered(1),
            LineStatus::OverOnly,
            LineStatus::NotCoverable,
            LineStatus::Unexplored,
            LineStatus::Unknown,
        ]
        .iter()
        .map(|s| s.name())
        .collect();
        assert_eq!(names, ["covered", "over_only", "not_coverable", "unexplored", "unknown"]);
    }
}
