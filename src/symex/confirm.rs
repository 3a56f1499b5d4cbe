//! The rules that decide what the executor's results establish, written once for `coverage` and
//! `verify`: when the concrete interpreter confirms a path (`confirm`), and why an exploration proves
//! nothing (`Inconclusive`, from `Summary::inconclusive`).
//!
//! Invariant: a path counts (an execution covering lines, a counterexample) only if `confirm` accepts
//! it: the interpreter, fed the path's inputs, takes exactly its edges and ends as the path does, and
//! a violation relies on no approximation that makes it one possible behaviour of the model only.

use std::fmt;

use super::budget::StopReason;
use super::exec::Property;
use super::explore::{CutReason, InputValue, PathEnd, PathOutcome, Summary};
use super::interp::{interpret, interpret_accelerated, AllocOrigin, ConcreteEnd};
use super::state::Approx;
use super::trace::Trace;
use crate::cfa::{Cfa, EdgeId};
use crate::cfront::ir::Program;

/// A path the concrete run confirmed: its edges and inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirmed {
    /// The edges, as the executor and the interpreter took them (those taken one by one, when the
    /// path jumped over loop iterations: `trace` has them all).
    pub edges: Vec<EdgeId>,
    /// The edges with the iterations jumped over.
    pub trace: Trace,
    /// The inputs that drive it.
    pub inputs: Vec<InputValue>,
    /// For a violation: the accepted approximations it relies on (see `confirm`); empty when it is
    /// a violation of the program, not only of the model.
    pub assumed: Approx,
    /// What each allocation of the concrete run was, in order (`ConcreteRun::allocs`).
    pub allocs: Vec<AllocOrigin>,
}

/// Why a path was not confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The solver gave no values for its inputs.
    NoModel,
    /// A violation that relies on these approximations: a behaviour of the model, perhaps not of the
    /// program.
    Approximated(Approx),
    /// The concrete run ended this way, or took other edges.
    Diverged(ConcreteEnd),
}

/// A path that was not confirmed: what it claimed and why it was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// Whether it claimed a violation (a counterexample) or a terminating execution.
    pub violation: bool,
    /// Why it was refused.
    pub why: Rejection,
    /// For a path the concrete run did not follow: the path's edge where the run left it (took
    /// another edge, or ended before it), if it did so on the path.
    pub at: Option<EdgeId>,
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.violation { "a counterexample" } else { "an execution" };
        match &self.why {
            Rejection::NoModel => write!(f, "{what} had no model"),
            Rejection::Approximated(a) => write!(f, "{what} depends on an approximation: {}", a.describe().join("; ")),
            Rejection::Diverged(end) => write!(f, "{what} did not replay (the concrete run ended with {end:?})"),
        }
    }
}

/// The path acceptance rule: `outcome`, which ended in `main`'s return or in a violation, counts
/// only if the concrete interpreter, fed its inputs, takes exactly its edges and ends the same way,
/// and, for a violation, if the path relies on no approximation that could make it unreal
/// (`Approx::violation_is_real`) other than those in `accepted` (environment assumptions the user
/// accepted: the violation is then one of the model, and `Confirmed::assumed` says which it relies
/// on). Paths with other ends are refused as diverged.
pub fn confirm<T>(
    prog: &Program,
    cfa: &Cfa,
    property: Property,
    outcome: &PathOutcome<T>,
    accepted: Approx,
) -> Result<Confirmed, Rejected> {
    let violation = outcome.end == PathEnd::Violation;
    let refuse = |why| Err(Rejected { violation, why, at: None });
    let expected = match outcome.end {
        PathEnd::Exit => ConcreteEnd::Exit,
        PathEnd::Violation => ConcreteEnd::Violation,
        _ => return refuse(Rejection::Diverged(ConcreteEnd::Diverged)),
    };
    let Some(inputs) = outcome.inputs.clone() else { return refuse(Rejection::NoModel) };
    if violation && !outcome.approx.without(accepted).violation_is_real() {
        return refuse(Rejection::Approximated(outcome.approx));
    }
    let assumed = if violation && !outcome.approx.violation_is_real() {
        outcome.approx.without(outcome.approx.without(accepted))
    } else {
        Approx::NONE
    };
    let edges = outcome.path.edges();
    let trace = outcome.path.trace();
    let run = if outcome.path.has_repeats() {
        interpret_accelerated(prog, cfa, property, &inputs, trace.stored() + 1)
    } else {
        interpret(prog, cfa, property, &inputs, edges.len() as u64 + 1)
    };
    let differs = if outcome.path.has_repeats() {
        (run.trace != trace).then_some(edges.len())
    } else {
        run.trace.first_difference(&edges)
    };
    if run.end != expected || differs.is_some() {
        // Where the run left the path: the first edge it did not take as the path did.
        let left = differs.unwrap_or(edges.len());
        let end = if run.end != expected { run.end } else { ConcreteEnd::Diverged };
        return Err(Rejected { violation, why: Rejection::Diverged(end), at: edges.get(left).copied() });
    }
    Ok(Confirmed { edges, trace, inputs, assumed, allocs: run.allocs })
}

/// Why an exploration does not establish that every path was explored, in the order the reasons
/// are reported: a stop, cut paths, approximations, an exploration that did not run out of paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inconclusive {
    /// A limit, a signal or the solver stopped it.
    Stopped(StopReason),
    /// Paths were cut (`count`; `first` the first cut's reason).
    Cut {
        /// How many.
        count: u64,
        /// The first one's reason.
        first: Option<CutReason>,
    },
    /// Paths made these approximations.
    Approximated(Approx),
    /// The exploration did not run out of paths.
    NotExhausted,
}

impl fmt::Display for Inconclusive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inconclusive::Stopped(StopReason::Time) => f.write_str("time limit reached"),
            Inconclusive::Stopped(StopReason::Memory) => f.write_str("memory limit reached"),
            Inconclusive::Stopped(other) => f.write_str(other.describe()),
            Inconclusive::Cut { count, first } => {
                write!(f, "{count} path(s) cut; first: ")?;
                first.as_ref().map_or(Ok(()), |c| write!(f, "{c}"))
            }
            Inconclusive::Approximated(a) => f.write_str(&a.describe().join("; ")),
            Inconclusive::NotExhausted => f.write_str("exploration incomplete"),
        }
    }
}

impl Summary {
    /// Why this exploration does not show that every path was explored exactly, if it does not: for
    /// a verdict, every cut counts (undefined behaviour included) and every approximation.
    pub fn inconclusive(&self) -> Option<Inconclusive> {
        if let Some(stop) = self.stop {
            Some(Inconclusive::Stopped(stop))
        } else if self.cuts > 0 {
            Some(Inconclusive::Cut { count: self.cuts, first: self.first_cut.clone() })
        } else if !self.approx.is_empty() {
            Some(Inconclusive::Approximated(self.approx))
        } else if !self.exhausted {
            Some(Inconclusive::NotExhausted)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symex::semantics::UbKind;

    fn summary() -> Summary {
        Summary {
            exhausted: true,
            stop: None,
            cuts: 0,
            pruned: 0,
            first_cut: None,
            undefined: 0,
            first_other_cut: None,
            approx: Approx::NONE,
        }
    }

    #[test]
    fn an_exhausted_exploration_without_cuts_or_approximations_is_conclusive() {
        assert_eq!(summary().inconclusive(), None);
    }

    #[test]
    fn reasons_come_in_order_stop_cut_approximation_incomplete() {
        let mut s = summary();
        s.exhausted = false;
        assert_eq!(s.inconclusive(), Some(Inconclusive::NotExhausted));
        s.approx = Approx::LAZY_MEMORY;
        assert_eq!(s.inconclusive(), Some(Inconclusive::Approximated(Approx::LAZY_MEMORY)));
        s.cuts = 2;
        s.undefined = 2;
        s.first_cut = Some(CutReason::Undefined(UbKind::InvalidAccess));
        assert!(matches!(s.inconclusive(), Some(Inconclusive::Cut { count: 2, .. })));
        s.stop = Some(StopReason::Time);
        assert_eq!(s.inconclusive(), Some(Inconclusive::Stopped(StopReason::Time)));
    }

    #[test]
    fn reasons_read_as_verify_reports_them() {
        let cut = Inconclusive::Cut { count: 3, first: Some(CutReason::Undefined(UbKind::InvalidAccess)) };
        assert_eq!(cut.to_string(), "3 path(s) cut; first: possible undefined behaviour: invalid memory access");
        assert_eq!(Inconclusive::Stopped(StopReason::Time).to_string(), "time limit reached");
        assert_eq!(Inconclusive::Stopped(StopReason::Memory).to_string(), "memory limit reached");
        assert_eq!(Inconclusive::Stopped(StopReason::Interrupted).to_string(), "interrupted");
        assert_eq!(
            Inconclusive::Approximated(Approx::EXTERN_WRITE.union(Approx::UNMODELLED)).to_string(),
            "a function without body received pointers and may write through them; \
             a library function that is not modelled returned an arbitrary value"
        );
        assert_eq!(Inconclusive::NotExhausted.to_string(), "exploration incomplete");
        let r = Rejected { violation: true, why: Rejection::Diverged(ConcreteEnd::Halt), at: None };
        assert_eq!(r.to_string(), "a counterexample did not replay (the concrete run ended with Halt)");
        let r = Rejected { violation: false, why: Rejection::NoModel, at: None };
        assert_eq!(r.to_string(), "an execution had no model");
    }
}
