//! What an exploration tells its caller: the guide's hooks (`Guide`, `Step`, `Succ`), how each path
//! ended (`PathOutcome`, `PathEnd`, `CutReason`, `InputValue`), and what the exploration as a whole
//! established and cost (`Summary`, `Stats`). The explorer (`super`) produces these; nothing here
//! runs a path.

use std::fmt;
use std::hash::Hash;
use std::time::Duration;

use crate::base::bits;
use crate::cfa::{Cfa, EdgeId, NodeId};
use crate::cfront::types::TypeId;
use crate::symex::budget::StopReason;
use crate::symex::cache::{self, CacheStats};
use crate::symex::exec::EndKind;
use crate::symex::semantics::UbKind;
use crate::symex::solver::SolverStats;
use crate::symex::state::{Approx, InputKind, List};
use crate::symex::trace::{Repeat, Trace};

/// What the guide says about a path taking an edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Step {
    /// Take the edge.
    Continue,
    /// Do not take the edge; the path ends as `PathEnd::Pruned`. The guide must prune again any
    /// later non-exclusive path that takes the same edge from the same state with an equal
    /// `Guide::cache_tag` (pruning is monotone): the state cache counts a pruned path as explored
    /// (and as possibly completing).
    Prune,
    /// Take the edge and from now on look only for one feasible continuation to the end of the
    /// program (`Guide::completes`): once the caller accepts a completing path of this subtree
    /// (`Explorer::accept_completion`), the remaining alternatives are dropped (`PathEnd::Dropped`).
    CompletionOnly,
    /// Stop the whole exploration, for this reason (`StopReason::Requested` when the guide has no
    /// other; `StopReason::Time` when it stops to leave time for what the run does after).
    Stop(StopReason),
}

/// A successor of a branch, as the guide sees it when ordering.
#[derive(Clone, Debug)]
pub struct Succ<T> {
    /// The edge into the successor.
    pub edge: EdgeId,
    /// The path's tag after `Guide::on_edge` for this edge.
    pub tag: T,
}

/// The caller's control over an exploration (the coverage layer plugs its automaton product in
/// here; `verify` uses `Exhaustive`).
pub trait Guide {
    /// Per-path information the guide keeps (an automaton state, a score); cloned at branches and
    /// part of the state-cache key, so equal tags must mean equal future guidance.
    type Tag: Clone + Eq + Hash + fmt::Debug;

    /// The tag of the initial path.
    fn initial_tag(&mut self) -> Self::Tag;

    /// Called before a path takes `edge` (for the successors of a branch, before the feasibility
    /// check, each with its own copy of the tag). May update `tag`.
    fn on_edge(&mut self, cfa: &Cfa, tag: &mut Self::Tag, edge: EdgeId) -> Step;

    /// Orders the feasible successors of a branch at `node`: the first is explored first. The
    /// default keeps the CFA's order of leaving edges.
    fn order(&mut self, cfa: &Cfa, node: NodeId, succs: &mut [Succ<Self::Tag>]) {
        let _ = (cfa, node, succs);
    }

    /// Called when a path got past `edge`: the edge was feasible after the path's conditions and
    /// the path goes on at its target (or ends there, returning from `main` or halting); `tag` is
    /// the path's tag after `on_edge`. The default does nothing.
    fn on_passed(&mut self, tag: &Self::Tag, edge: EdgeId) {
        let _ = (tag, edge);
    }

    /// Whether a path that ended this way needs its concrete inputs in the outcome (a solver model
    /// is read for it). The default: paths that exited, halted or violated the property.
    fn wants_inputs(&mut self, end: &PathEnd, tag: &Self::Tag) -> bool {
        let _ = tag;
        end.is_execution()
    }

    /// Whether a path that ended this way completes a `Step::CompletionOnly` subtree. The default:
    /// paths that exited or halted.
    fn completes(&self, end: &PathEnd) -> bool {
        matches!(end, PathEnd::Exit | PathEnd::Halt)
    }

    /// The part of `tag` that state-cache keys compare (see `cache`). The default: all of it.
    fn cache_tag(&self, tag: &Self::Tag) -> u64 {
        cache::tag_hash(tag)
    }

    /// How much a completion of a `CompletionOnly` subtree entered with `tag` is worth (say, the
    /// lines it would cover): the most valuable subtrees are also searched best-first. The default:
    /// nothing, no subtree is.
    fn completion_worth(&self, tag: &Self::Tag) -> u32 {
        let _ = tag;
        0
    }

    /// A path with `tag` registered state-cache entry `entry` at its location (a loop head): a path
    /// covered by it later ends with `PathOutcome::covered_by` set to `entry`. The default: nothing.
    fn on_cache_entry(&mut self, tag: &Self::Tag, entry: u32) {
        let _ = (tag, entry);
    }

    /// Whether a path with `tag` carries something only its own completions can use: it is pruned
    /// as covered only by a state with an equal tag or by one from which no path completes. The
    /// default: no path is.
    fn exclusive(&self, tag: &Self::Tag) -> bool {
        let _ = tag;
        false
    }

    /// Whether paths may jump over loop iterations (`accel`): the guide then sees no edge of the
    /// iterations jumped over, and the paths' `PathEdges::trace` has them. The default: no.
    fn accelerates(&self) -> bool {
        false
    }
}

/// The guide of plain verification: every path, in CFA order, tag `()`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Exhaustive;

/// Why a path was cut (the exploration below it is incomplete).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum CutReason {
    /// The unwinding bound was reached at this loop head.
    Unwind(NodeId),
    /// A construct the executor does not model.
    Unsupported(String),
    /// Undefined behaviour can happen here.
    Undefined(UbKind),
}

/// How a path ended.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum PathEnd {
    /// `main` returned: a terminating execution.
    Exit,
    /// The program stopped (`abort()`, `exit()`, a location that ends paths).
    Halt,
    /// The property is violated by the last edge (or at its target location).
    Violation,
    /// The last edge of the path cannot be taken after the ones before it.
    Infeasible,
    /// The guide refused the last edge.
    Pruned,
    /// At a loop head, the state was covered by an explored state.
    Covered,
    /// A completion of the enclosing `CompletionOnly` subtree was found (or the subtree was given
    /// up); this alternative was not explored.
    Dropped,
    /// The path was cut at its last edge.
    Cut(CutReason),
}

/// The edges of a path, shared with the explorer (materialize with `edges`).
#[derive(Clone, Debug)]
pub struct PathEdges(pub(super) List<EdgeId>, pub(super) List<Repeat>);

/// The value a symbolic input took on a path.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct InputValue {
    /// Where the input comes from.
    pub kind: InputKind,
    /// Its C type (`None` for a raw byte).
    pub ty: Option<TypeId>,
    /// For an unknown pointer: what `value` chose is `PointerChoice::of(value)`.
    pub pointer_choice: bool,
    /// Width in bits.
    pub bits: u32,
    /// The bits, as an unsigned number.
    pub value: u128,
}

/// One ended path.
#[derive(Clone, Debug)]
pub struct PathOutcome<T> {
    /// How it ended.
    pub end: PathEnd,
    /// Its edges, the edge it ended on included (for `Infeasible` and `Pruned`: the refused edge).
    pub path: PathEdges,
    /// The guide's tag at the end.
    pub tag: T,
    /// Concrete values of every symbolic input in creation order (calls of functions without body
    /// in call order, interleaved with bytes read before being written), when the guide wanted them.
    pub inputs: Option<Vec<InputValue>>,
    /// Approximations made on the path.
    pub approx: Approx,
    /// The `CompletionOnly` subtree this path completes, if any (see `Explorer::accept_completion`).
    pub group: Option<u32>,
    /// Whether the path is of a best-first copy of its subtree.
    pub best_first: bool,
    /// For `PathEnd::Covered`: the state-cache entry whose state covered it (the number
    /// `Guide::on_cache_entry` gave when a path registered it).
    pub covered_by: Option<u32>,
}

/// Counters of an exploration (`--stats`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Paths that ended after being explored (infeasible successors are not counted).
    pub paths: u64,
    /// Paths through which `main` returned.
    pub exits: u64,
    /// Paths that halted.
    pub halts: u64,
    /// Paths that violated the property.
    pub violations: u64,
    /// Paths cut (unwinding bound, unsupported construct, undefined behaviour).
    pub cuts: u64,
    /// Paths pruned by the guide.
    pub pruned: u64,
    /// Alternatives dropped after a completion.
    pub dropped: u64,
    /// Edges executed.
    pub edges: u64,
    /// Branch successors checked for feasibility.
    pub branch_checks: u64,
    /// Branch successors found infeasible (never explored).
    pub infeasible: u64,
    /// Branch checks settled without the solver: the condition's inputs are independent of the
    /// path condition.
    pub independent: u64,
    /// Checks whether undefined behaviour is possible.
    pub ub_checks: u64,
    /// Best-first copies of `CompletionOnly` subtrees made.
    pub copies: u64,
    /// Completions the copies found first.
    pub copy_completions: u64,
    /// Branch checks the copies took (counted in `branch_checks` too).
    pub copy_checks: u64,
    /// Solver counters.
    pub solver: SolverStats,
    /// State-cache counters.
    pub cache: CacheStats,
    /// Time spent in the explorer, solver and cache included.
    pub time: Duration,
    /// Nodes of the and-inverter graph every value is built in.
    pub aig_nodes: u64,
    /// How much the process's resident memory grew since the exploration began.
    pub memory_growth: u64,
    /// The most paths that waited at once for a state-cache entry still being explored.
    pub peak_waiting: u64,
}

impl fmt::Display for Stats {
    /// The statistics of `--stats`, one counter per line, with the share of time spent in the solver,
    /// the encoding and the state cache.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stats = self;
        let secs = |d: Duration| d.as_secs_f64();
        let total = secs(stats.time).max(1e-9);
        let solve = secs(stats.solver.solve_time);
        let encode = secs(stats.solver.encode_time);
        let cache = secs(stats.cache.time);
        let rest = (total - solve - encode - cache).max(0.0);
        let pct = |x: f64| 100.0 * x / total;
        write!(
            f,
            "Statistics:\n\
         \x20 paths explored:              {}\n\
         \x20   exit / halt / violation:   {} / {} / {}\n\
         \x20   cut / covered / pruned:    {} / {} / {}\n\
         \x20 edges executed:              {}\n\
         \x20 branch checks:               {}\n\
         \x20 infeasible branches pruned:  {}\n\
         \x20 checks without solver call: {} (independent of the path condition)\n\
         \x20 undefined-behaviour checks:  {}\n\
         \x20 best-first copies:           {} ({} completions first, {} branch checks)\n\
         \x20 solver calls:                {}\n\
         \x20 checks settled by models:    {}\n\
         \x20 solver instances:            {}\n\
         \x20 clauses:                     {}\n\
         \x20 state cache lookups:         {}\n\
         \x20 state cache hits:            {} ({} by implication)\n\
         \x20 state cache entries:         {} ({} fully explored)\n\
         \x20 time total:                  {:.3} s\n\
         \x20 time in solver:              {:.3} s ({:.1}%)\n\
         \x20 time in encoding:            {:.3} s ({:.1}%)\n\
         \x20 time in state cache:         {:.3} s ({:.1}%)\n\
         \x20 time in the rest:            {:.3} s ({:.1}%)\n\
         \x20 memory grown:                {:.1} MiB ({} bytes per state-cache entry)\n\
         \x20 AIG nodes:                   {}\n\
         \x20 paths waiting at most:       {}\n",
            stats.paths,
            stats.exits,
            stats.halts,
            stats.violations,
            stats.cuts,
            stats.cache.hits,
            stats.pruned,
            stats.edges,
            stats.branch_checks,
            stats.infeasible,
            stats.independent,
            stats.ub_checks,
            stats.copies,
            stats.copy_completions,
            stats.copy_checks,
            stats.solver.calls,
            stats.solver.model_hits,
            stats.solver.fresh_solvers,
            stats.solver.n_clauses,
            stats.cache.lookups,
            stats.cache.hits,
            stats.cache.hits_by_implication,
            stats.cache.entries,
            stats.cache.completed,
            total,
            solve,
            pct(solve),
            encode,
            pct(encode),
            cache,
            pct(cache),
            rest,
            pct(rest),
            stats.memory_growth as f64 / (1 << 20) as f64,
            stats.memory_growth / stats.cache.entries.max(1),
            stats.aig_nodes,
            stats.peak_waiting,
        )
    }
}

/// Whether an exploration proved anything, and what limited it.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Every path was explored to its end (the work list ran empty).
    pub exhausted: bool,
    /// Why the exploration stopped early.
    pub stop: Option<StopReason>,
    /// Paths cut: any cut means the exploration is incomplete.
    pub cuts: u64,
    /// Paths pruned by the guide or dropped after completions.
    pub pruned: u64,
    /// The first cut's reason, for messages.
    pub first_cut: Option<CutReason>,
    /// Of the cuts, those where undefined behaviour can happen (`CutReason::Undefined`): the path
    /// ends there, as the C program's execution does not go on in a defined way.
    pub undefined: u64,
    /// The first cut for another reason (an unwinding bound, an unsupported construct).
    pub first_other_cut: Option<CutReason>,
    /// Approximations made on any path.
    pub approx: Approx,
}

impl Summary {
    /// Cuts that lose behaviours of the program: all but those at undefined behaviour.
    pub fn lossy_cuts(&self) -> u64 {
        self.cuts - self.undefined
    }
}

impl Guide for Exhaustive {
    type Tag = ();

    fn initial_tag(&mut self) {}

    fn on_edge(&mut self, _cfa: &Cfa, _tag: &mut (), _edge: EdgeId) -> Step {
        Step::Continue
    }

    fn accelerates(&self) -> bool {
        true
    }
}

impl PathEnd {
    /// Whether the path is an execution of the program to its end (exit, halt or violation).
    pub fn is_execution(&self) -> bool {
        matches!(self, PathEnd::Exit | PathEnd::Halt | PathEnd::Violation)
    }

    /// Whether the path's subtree is incomplete because of this end.
    pub fn is_incomplete(&self) -> bool {
        matches!(self, PathEnd::Cut(_) | PathEnd::Pruned | PathEnd::Dropped)
    }

    /// Whether this end keeps the enclosing state-cache entries from counting as explored in full.
    /// A guide's prune does not (pruning is monotone, see `Step::Prune`); it only makes them
    /// possibly completing. Nor do undefined behaviour and violations: the execution ends there,
    /// and so does every execution from a state the entry covers that gets there (counted and
    /// reported when met: `Summary::lossy_cuts`, `Stats::violations`).
    pub(super) fn taints(&self) -> bool {
        matches!(self, PathEnd::Cut(r) if !matches!(r, CutReason::Undefined(_))) || *self == PathEnd::Dropped
    }
}

impl fmt::Display for CutReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CutReason::Unwind(n) => write!(f, "unwinding bound reached at loop head N{}", n.0),
            CutReason::Unsupported(s) => write!(f, "unsupported: {s}"),
            CutReason::Undefined(k) => write!(f, "possible undefined behaviour: {}", k.describe()),
        }
    }
}

impl PathEdges {
    /// The edges, first to last: every edge, unless the guide `accelerates` (then the edges taken
    /// one by one; `trace` has the iterations jumped over too).
    pub fn edges(&self) -> Vec<EdgeId> {
        self.0.to_vec()
    }

    /// The edges with the loop iterations jumped over.
    pub fn trace(&self) -> Trace {
        Trace::from_parts(self.edges(), self.1.to_vec())
    }

    /// Whether loop iterations were jumped over.
    pub fn has_repeats(&self) -> bool {
        !self.1.is_empty()
    }

    /// Number of edges.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the path has no edge.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The last edge.
    pub fn last(&self) -> Option<EdgeId> {
        self.0.head().copied()
    }
}

impl InputValue {
    /// The value read as a two's-complement signed number of `bits` bits.
    pub fn signed(&self) -> i128 {
        bits::sign_extend(self.value, self.bits)
    }
}

pub(super) fn end_of(k: EndKind) -> PathEnd {
    match k {
        EndKind::Exit => PathEnd::Exit,
        EndKind::Halt => PathEnd::Halt,
        EndKind::Violation => PathEnd::Violation,
    }
}

/// What `Explorer::pull` got.
#[derive(Debug)]
pub enum Pulled<T> {
    /// A path ended.
    Path(PathOutcome<T>),
    /// No path ended within the allowed work; call again to go on.
    Busy,
    /// The exploration is over (exhausted or stopped; see `Explorer::summary`).
    Done,
}
