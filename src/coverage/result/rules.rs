//! The rules that decide a coverage result's claims from what was measured: the status of each
//! line (`line_status`), why a line is not coverable (`not_coverable_by`), how a search ended
//! (`SearchEnd`) and why a result is not exact (`InexactReason::first`, `Exactness::of`). No IO and no
//! words: `report::words` says what these decide.

use std::collections::BTreeMap;

use super::*;

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
    ruled_out: &crate::coverage::RuledOut,
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

impl InexactReason {
    /// Why a result is not exact, if it is not: the search's reason (`search`; `None` when the
    /// executions came from files, which is a reason of its own), else the executions it dropped,
    /// in the order of `Dropped`'s fields, else a proof an execution gained later contradicted
    /// (`contradicted`). A result is exact exactly when this is `None`.
    pub fn first(search: Option<&SearchEnd>, dropped: Dropped, contradicted: Option<u32>) -> Option<InexactReason> {
        let searched = match search {
            Some(end) => end.reason(),
            None => Some(InexactReason::FromFiles),
        };
        searched
            .or((dropped.unreproducible > 0).then_some(InexactReason::Unreproducible(dropped.unreproducible)))
            .or((dropped.rejected_by_gcc > 0).then_some(InexactReason::RejectedByGcc(dropped.rejected_by_gcc)))
            .or((dropped.pending > 0).then_some(InexactReason::ConfirmationPending(dropped.pending)))
            .or(contradicted.map(InexactReason::ProofContradicted))
    }
}

impl Exactness {
    /// The exactness of a result decided from `basis` (`InexactReason::first`) that relies on the
    /// accepted assumptions `assumed`.
    pub fn of(basis: &ClaimBasis, assumed: Approx) -> Exactness {
        match InexactReason::first(basis.search.as_ref(), basis.dropped, basis.contradicted) {
            Some(why) => Exactness::Inexact(why),
            None if assumed.is_empty() => Exactness::Exact,
            None => Exactness::ExactAssuming(assumed),
        }
    }
}

/// What a search found that decides what the run says about the property (`PropertyStatus::of`).
#[derive(Clone, Debug, Default)]
pub struct PropertyFacts {
    /// Whether it found a violation.
    pub bugs: bool,
    /// Whether one of them stays inside the explored region up to the violation.
    pub bug_in_region: bool,
    /// Whether a path of automaton x CFA reaches a place where the property can be violated.
    pub violations_in_region: bool,
    /// The proof pass showed that no execution inside the region violates the property, relying on
    /// these accepted assumptions.
    pub no_violation_proof: Option<Approx>,
    /// What stopped the executor.
    pub stop: Option<StopReason>,
    /// The search gave up looking for violations after this many edges.
    pub violations_given_up: Option<u64>,
    /// `--max-executions` stopped it at this many.
    pub max_executions: Option<usize>,
    /// Paths cut other than at undefined behaviour, the first one's reason and line.
    pub cuts: (u64, Option<CutReason>, Option<u32>),
    /// Approximations the paths made that the user did not accept.
    pub unaccepted: Approx,
    /// A violation the concrete interpreter did not confirm.
    pub violation_rejected: Option<Rejected>,
    /// Paths that violate the property only relative to the accepted assumptions.
    pub assumed_violations: u64,
    /// Whether the executor's work list ran empty.
    pub exhausted: bool,
    /// The accepted assumptions the search relied on.
    pub assumed: Approx,
}

impl PropertyStatus {
    /// What the run says about the property: a violation found (inside or outside the region),
    /// none possible, none by the proof pass, none by an exhaustive search, or not decided, for the
    /// first of the reasons that keep every path toward a violation inside the region from having
    /// been explored.
    pub fn of(f: &PropertyFacts) -> PropertyStatus {
        if f.bugs {
            return match f.bug_in_region {
                true => PropertyStatus::FoundInRegion,
                false => PropertyStatus::FoundOutsideRegion,
            };
        }
        if !f.violations_in_region {
            return PropertyStatus::NoneInRegion { by: NoViolationBy::NoErrorLocation, assumed: Approx::NONE };
        }
        if let Some(assumed) = f.no_violation_proof {
            return PropertyStatus::NoneInRegion { by: NoViolationBy::Abstraction, assumed };
        }
        let (count, first, line) = &f.cuts;
        let why = if let Some(stop) = f.stop {
            Some(InexactReason::Stopped(stop))
        } else if let Some(edges) = f.violations_given_up {
            Some(InexactReason::ViolationsGivenUp(edges))
        } else if let Some(n) = f.max_executions {
            Some(InexactReason::MaxExecutions(n))
        } else if *count > 0 {
            Some(InexactReason::Cut { count: *count, first: first.clone(), line: *line })
        } else if !f.unaccepted.is_empty() {
            Some(InexactReason::Approximated(f.unaccepted))
        } else if let Some(r) = &f.violation_rejected {
            Some(InexactReason::Rejected(r.clone()))
        } else if f.assumed_violations > 0 {
            Some(InexactReason::AssumedViolation(f.assumed_violations))
        } else if !f.exhausted {
            Some(InexactReason::EndedEarly)
        } else {
            None
        };
        match why {
            Some(why) => PropertyStatus::NotDecided(why),
            None => PropertyStatus::NoneInRegion { by: NoViolationBy::ExhaustiveSearch, assumed: f.assumed },
        }
    }
}
