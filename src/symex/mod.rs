//! vcov's own engine: single-path symbolic execution over the CFA, bit-precise, with incremental SAT
//! (Pinaka's technique, plus state caching at loop heads).
//!
//! A path's state (`state::SymState`) holds the location, the call stack, memory objects of bytes
//! (`memory`), the path condition and the symbolic inputs drawn so far; every value is a vector of
//! AIG literals (`sat::Bv`) computed with C's integer rules (`semantics`) by the transfer function
//! (`exec`). The explorer (`explore`) runs paths one at a time, checks every branch successor's
//! feasibility at once (`solver`: full-incremental or partial-incremental CaDiCaL), inlines calls
//! and unrolls loops as paths meet them, and prunes paths whose state at a loop head is covered by an
//! explored one (`cache`). A small concrete interpreter (`interp`) re-runs a path's inputs to check
//! counterexamples and claimed executions.
//!
//! # Files
//!
//! - `state.rs`: a path's symbolic state; `memory.rs` its objects of bytes and their accesses, with
//!   `memory/layout.rs` (the address layout) and `memory/escape.rs` (what functions without body
//!   may write); `semantics.rs`: C's integer and floating rules over bit-vectors; `math.rs`: the
//!   `math.h` models on circuits (`MathHost`); both are shared with `verify::ts`.
//! - `exec/`: the transfer function of one edge: `mod.rs` (`Exec::edge`), `world.rs` (what all
//!   states share, the initial state), `library.rs` (library models), `expr.rs` (expressions),
//!   `place.rs` (places and initializers), `access.rs` (memory accesses, pinning).
//! - `explore.rs`: the explorer, running paths; `explore/branch.rs` (branching and feasibility),
//!   `explore/schedule.rs` (which waiting path runs next), `explore/outcome.rs` (what it reports);
//!   `solver.rs` (feasibility checks), `cache.rs` (the state cache), `shift.rs` (counters),
//!   `budget.rs` (limits and why a run stopped).
//! - `interp.rs`: the concrete interpreter, with `interp/memory.rs`, `interp/place.rs`,
//!   `interp/expr.rs`, `interp/library.rs` and `interp/jump.rs` (its loop acceleration);
//!   `initializer.rs`: the walk over initializers that it shares with the executor (structure
//!   only); `confirm.rs`: the rule that accepts a path.
//! - `accel.rs`: loop acceleration, the iterations of a loop that repeat one path with constant
//!   increments computed in closed form; `trace.rs`: a run's edges with the iterations jumped over
//!   folded (`Trace`).
//!
//! # The exploration API
//!
//! `explore(prog, cfa, config, guide)` returns an `Explorer`, an `Iterator<Item = PathOutcome<Tag>>`
//! that yields every path when it ends. The caller's `Guide`:
//! - keeps a per-path `Tag` (`initial_tag`), updated by `on_edge` on every edge a path takes (each
//!   branch successor gets its own copy, before the feasibility check), which may also prune the path
//!   (`Step::Prune`), stop everything (`Step::Stop`, with a reason), or mark the path "completion only"
//!   (`Step::CompletionOnly`: the subtree is searched for one feasible continuation that
//!   `Guide::completes` and that the caller accepts (`Explorer::accept_completion`), then its
//!   remaining alternatives are dropped);
//! - orders the feasible successors of each branch (`order`; the first is explored first);
//! - says which ended paths need concrete inputs (`wants_inputs`).
//!
//! Each `PathOutcome` has the end (`PathEnd`: exit, halt, violation, infeasible successor, pruned,
//! covered by the cache, dropped, cut with a reason), the edges (`PathEdges::edges`), the tag, the
//! concrete inputs (`InputValue`s in creation order, with their C types), and the approximations the
//! path made. `Explorer::summary` tells whether the work list ran empty (`exhausted`), whether any
//! path was cut, and which approximations were made; only an exhausted exploration without cuts and
//! without approximations shows that no violation exists. `verify` uses the guide `Exhaustive`.
//!
//! Invariant: `symex` knows nothing of automata; guidance comes only through `Guide`.
//! Invariant: `symex` names no `cadical` or `lang_c` type.
//! Invariant: a TRUE-style conclusion (`Summary::exhausted` with no cut and no approximation) is
//! never drawn from a run in which any path was cut, pruned or approximated.

mod accel;
pub mod budget;
mod cache;
mod confirm;
mod exec;
mod explore;
mod initializer;
mod interp;
pub mod math;
pub mod memory;
pub mod semantics;
mod shift;
mod solver;
pub mod state;
mod trace;

use crate::cfa::Cfa;
use crate::cfront::ir::Program;

pub use crate::sat::MovableDeadline;
pub use budget::{resident_bytes, Budget, StopReason, DEFAULT_MEMORY_MB};
pub use cache::CacheStats;
pub use confirm::{confirm, Confirmed, Inconclusive, Rejected, Rejection};
pub use exec::{EndKind, Property, World};
pub use explore::{
    CutReason, Exhaustive, ExploreConfig, Explorer, Guide, InputValue, PathEdges, PathEnd, PathOutcome, Pulled, Stats,
    Step, Strategy, Succ, Summary,
};
pub use interp::{interpret, interpret_accelerated, interpret_drawing, AllocOrigin, ConcreteEnd, ConcreteRun, Draw};
pub use shift::counters;
pub use solver::{Mode, SolverStats};
pub use state::{Approx, InputKind, PointerChoice};
pub use trace::{Repeat, Trace};

/// Starts an exploration of `prog` (with CFA `cfa`) under `config`, guided by `guide`.
pub fn explore<'a, G: Guide>(prog: &'a Program, cfa: &'a Cfa, config: ExploreConfig, guide: G) -> Explorer<'a, G> {
    Explorer::new(prog, cfa, config, guide)
}

#[cfg(test)]
mod tests;
