//! The work list: single-path symbolic execution over the CFA with eager feasibility checks.
//!
//! An `Explorer` owns the AIG, the solver (`solver`), the state cache (`cache`) and a work list of
//! paths. It runs one path until it branches or ends. At a branch it evaluates the conditions of all
//! leaving assume edges on the path's state, lets the `Guide` update a copy of the path's tag for
//! each (or prune it), checks each remaining successor's feasibility at once (eagerly; a successor
//! the model of an earlier check already satisfies needs no call), reports the infeasible ones, and
//! orders the feasible ones with the guide. Depth-first search continues with the first successor
//! and pushes the others; breadth-first search queues them all. Calls are inlined as the path meets
//! them (a frame per call, so recursion works) and loops are unrolled as the path goes around them.
//!
//! Feasibility checks avoid the solver where they can: constant conditions; a condition that is
//! already a conjunct of the path condition (or whose negation is); a condition over inputs the
//! path condition does not mention (independent: satisfiable iff some assignment of its own inputs
//! satisfies it, and all-false or all-true is tried); a condition the model of the previous check
//! already satisfies; and the second side of a two-way branch whose first side is infeasible.
//!
//! Depth-first search works in depth bands (`ExploreConfig::dfs_band`): a path that has passed more
//! branch points than the band waits until every shallower path is explored, then the band doubles.
//! On programs with infinite paths this keeps the search from diving forever into one of them while
//! a violation waits nearer the root; nothing is cut, so exhaustiveness is unaffected.
//!
//! A `CompletionOnly` subtree (the guide wants one path to the end of the program from there, see
//! `Step`) that the guide deems worth it (`Guide::completion_worth`) and in which depth-first search
//! went past the depth band without a completion is searched a second time, from its first branch
//! on, by a copy that takes the waiting path nearest to the end of `main` first
//! (`cfa::exit_distances`, a call counting as the shortest way through its callee), depth bands
//! aside. Depth-first search gets lost where the way out takes a particular
//! order of steps (an environment loop that must see probe, suspend, resume and disconnect before
//! it may end: after a violation it backtracks into the loop's next iteration, not into the handler
//! whose choices decided it), nearest-first where it must go a long way round; the first completion
//! found ends both. The copies take turns with the rest of the search by feasibility checks: half of
//! them at first, a sixteenth at least; a copy that finds a completion first doubles their share, a
//! copy given up (after `COPY_CHECKS`, or when the caller rejects one of its completions) halves it.
//! The copies keep their own state-cache entries and report only executions (the depth-first search
//! meets every other end too), and edges they execute do not count in `edges_executed`.
//!
//! Every path that ends becomes a `PathOutcome`, yielded by the explorer's `Iterator`
//! implementation in the order the paths ended: the program exited, halted or violated the property;
//! a successor was infeasible or pruned by the guide; the state was covered by the cache; the
//! alternative was dropped after a completion was found; or the path was cut (unwinding bound,
//! unsupported construct, undefined behaviour). The caller can stop at any time by not asking for
//! more; `Explorer::summary` says whether the exploration was exhaustive.
//!
//! Invariant: a path in the work list has a satisfiable path condition.
//! Invariant: the same program, configuration and guide give the same sequence of outcomes.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::rc::Rc;
use std::time::{Duration, Instant};

use super::budget::{Budget, StopReason};
use super::cache::{self, Cache, CacheStats, KeyScratch, Liveness, Probe, Seeker};
use super::exec::{Effect, EndKind, Exec, Oracle, Property, World};
use super::semantics::UbKind;
use super::solver::{Mode, Solver, SolverStats};
use super::state::{support, Approx, Conjunct, InputKind, List, SymState};
use crate::cfa::{Cfa, EdgeId, EdgeKind, NodeId, NodeKind};
use crate::cfront::ir::{Program, VarId};
use crate::cfront::types::TypeId;
use crate::sat::{Aig, AigLit, Bv, SatResult};

/// The order in which pending paths are explored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Strategy {
    /// Depth-first: continue the current path, backtrack to the latest branch.
    #[default]
    Dfs,
    /// Breadth-first: the oldest pending path first.
    Bfs,
}

/// The most paths waiting for the next DFS depth band.
const MAX_DEFERRED: usize = 20_000;
/// The most paths of the best-first copies waiting; beyond, new ones are left to the depth-first
/// search.
const MAX_COMPLETING: usize = 4096;
/// Feasibility checks of a turn of the best-first copies or of the rest of the search.
const TURN_CHECKS: u64 = 500;
/// The least and greatest `copy_shift`: the copies take between a half and a sixteenth of the
/// checks.
const MIN_COPY_SHIFT: u32 = 1;
const MAX_COPY_SHIFT: u32 = 4;
/// Feasibility checks a best-first copy may take before it is given up.
const COPY_CHECKS: u64 = 6_000;

/// Options of an exploration.
#[derive(Clone, Debug)]
pub struct ExploreConfig {
    /// Search order. [default: `Dfs`]
    pub strategy: Strategy,
    /// Incremental solving mode. [default: `Mode::Full`]
    pub mode: Mode,
    /// Cut a path when it reaches a loop head for the `n+1`-th time in one call frame. [default: none]
    pub unwind: Option<u32>,
    /// Prune paths whose state at a loop head is covered by an explored one. [default: true]
    pub state_caching: bool,
    /// The property that defines violations. [default: `Property::UnreachCall`]
    pub property: Property,
    /// Time limit and interrupt flag. [default: none]
    pub budget: Budget,
    /// DFS in depth bands: a path that passes this many branch points (with more than one feasible
    /// successor) waits until every shallower path is explored; then the band doubles. Keeps DFS
    /// from diving forever into an infinite path while a bug waits nearer the root; `None` is plain
    /// DFS. [default: `Some(256)`]
    pub dfs_band: Option<u32>,
    /// Check every new branch successor's path condition with a fresh solver and panic if it is
    /// unsatisfiable (slow; for tests of the explorer). [default: false]
    pub self_check: bool,
    /// Variables abstracted away: every read of one gives an arbitrary value, writes are dropped.
    /// The exploration then over-approximates the program's behaviours: every path carries
    /// `Approx::ABSTRACT` and shows only what *cannot* happen. [default: none]
    pub havoc: Rc<[VarId]>,
    /// Functions without body write arbitrary values through the pointers they receive: a read of
    /// a byte they may have written (`memory::Memory::escape`) gives an arbitrary value and marks
    /// the path `Approx::ABSTRACT` (instead of `Approx::EXTERN_WRITE` with the path's own value).
    /// [default: false]
    pub havoc_extern_writes: bool,
    /// A link read from fresh memory may also point back into it (`exec::Exec::unknown_pointer`).
    /// [default: false]
    pub alias_links: bool,
}

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

    /// Whether a path with `tag` carries something only its own completions can use: it is pruned
    /// as covered only by a state with an equal tag or by one from which no path completes. The
    /// default: no path is.
    fn exclusive(&self, tag: &Self::Tag) -> bool {
        let _ = tag;
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
pub struct PathEdges(List<EdgeId>);

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

/// A path in the work list.
#[derive(Clone)]
struct Item<T> {
    st: SymState,
    tag: T,
    id: u64,
    /// Branch points with more than one feasible successor on the path.
    depth: u32,
    group: Option<u32>,
    /// A copy searching its `CompletionOnly` subtree best-first (`serve_completing`).
    best_first: bool,
    entry: Option<u32>,
    chain: List<u32>,
    /// It waited at its loop head for a cache entry (`Probe::Wait`) and is looked up there again:
    /// its loop was counted already.
    resumed: bool,
}

/// What the state cache says of a path at a loop head.
enum Cached {
    /// An explored state covers it: it ends.
    Covered,
    /// An entry still being explored will cover it: it waits (`Explorer::waiting`).
    Wait(u32),
    /// It goes on.
    Explore,
}

/// A path of a `CompletionOnly` subtree in the best-first queue: the fewer edges to the end of the
/// program, the sooner; then the newer (as depth-first search would).
struct Completing<T> {
    key: (u32, u64),
    item: Item<T>,
}

impl<T> PartialEq for Completing<T> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<T> Eq for Completing<T> {}

impl<T> PartialOrd for Completing<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Completing<T> {
    /// Reversed: `BinaryHeap` pops the greatest, the queue the smallest key.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

/// Runs the exploration of one program (see the module documentation).
pub struct Explorer<'a, G: Guide> {
    world: World<'a>,
    aig: Aig,
    solver: Solver,
    guide: G,
    config: ExploreConfig,
    liveness: Option<Liveness>,
    cache: Cache,
    /// The state cache's key buffers, kept between lookups.
    key_scratch: KeyScratch,
    work: VecDeque<Item<G::Tag>>,
    /// DFS: paths beyond the current depth band, in the order they got there.
    deferred: Vec<Item<G::Tag>>,
    /// The process's resident memory when the exploration began (`Stats::memory_growth`).
    resident_at_start: u64,
    /// Paths whose state a cache entry still being explored covers (`Probe::Wait`), by entry: each
    /// goes back to the work list when its entry's subtree ended, to be pruned as covered (or, if
    /// the entry ended tainted, explored). Whatever the order of the work list, a state's subtree is
    /// then explored once, not again beside itself; when nothing else is left, they all go on.
    waiting: BTreeMap<u32, Vec<Item<G::Tag>>>,
    /// Paths in `waiting`.
    n_waiting: usize,
    /// DFS: the current depth band (branch points).
    band: u32,
    /// DFS: whether every fourth path is taken from the oldest pending ones (`mix_oldest`).
    mix: bool,
    /// Paths taken from the work list while mixing.
    picks: u64,
    /// Steps taken, for occasional memory checks.
    ticks: u64,
    pending: VecDeque<PathOutcome<G::Tag>>,
    /// For every `CompletionOnly` subtree, whether a completion was accepted.
    groups: Vec<bool>,
    /// DFS: the waiting paths of each `CompletionOnly` subtree searched best-first (see
    /// `serve_completing`), nearest to the end of the program first.
    completing: BTreeMap<u32, BinaryHeap<Completing<G::Tag>>>,
    /// Paths waiting in `completing`.
    n_completing: usize,
    /// For every `CompletionOnly` subtree, whether its best-first copy was made.
    copied: Vec<bool>,
    /// The best-first copies made and not started yet, by subtree.
    copy_roots: BTreeMap<u32, Item<G::Tag>>,
    /// For every `CompletionOnly` subtree, the feasibility checks its best-first copy took.
    spent: Vec<u64>,
    /// Feasibility checks taken by the rest of the search (the copies': `Stats::copy_checks`).
    checks_rest: u64,
    /// Whether the copies have their turn.
    serving_best_first: bool,
    /// Edges the copies executed.
    edges_best_first: u64,
    /// The copies take one in `2^copy_shift` checks.
    copy_shift: u32,
    /// For every CFA location, the fewest edges to its function's exit (`cfa::exit_distances`).
    exit_dist: Vec<u32>,
    stats: Stats,
    stop: Option<StopReason>,
    next_id: u64,
    approx: Approx,
    first_cut: Option<CutReason>,
    undefined_cuts: u64,
    first_other_cut: Option<CutReason>,
    started: bool,
}

/// The explorer's solver as the executor's oracle.
struct SolverOracle<'s> {
    solver: &'s mut Solver,
}

impl Default for ExploreConfig {
    fn default() -> Self {
        ExploreConfig {
            strategy: Strategy::Dfs,
            mode: Mode::Full,
            unwind: None,
            state_caching: true,
            property: Property::UnreachCall,
            budget: Budget::default(),
            dfs_band: Some(256),
            self_check: false,
            havoc: Rc::from(Vec::new()),
            havoc_extern_writes: false,
            alias_links: false,
        }
    }
}

impl Guide for Exhaustive {
    type Tag = ();

    fn initial_tag(&mut self) {}

    fn on_edge(&mut self, _cfa: &Cfa, _tag: &mut (), _edge: EdgeId) -> Step {
        Step::Continue
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
    fn taints(&self) -> bool {
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
    /// The edges, first to last.
    pub fn edges(&self) -> Vec<EdgeId> {
        self.0.to_vec()
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
        if self.bits >= 128 || self.value >> (self.bits - 1) & 1 == 0 {
            self.value as i128
        } else {
            self.value as i128 - (1i128 << self.bits)
        }
    }
}

impl Oracle for SolverOracle<'_> {
    fn possible_values(&mut self, aig: &mut Aig, pc: &List<Conjunct>, bv: &Bv, max: usize) -> Option<Vec<u128>> {
        let mut values: Vec<u128> = Vec::new();
        loop {
            let mut others = AigLit::TRUE;
            for &v in &values {
                let ne = bv.ne(aig, &Bv::constant(v, bv.width()));
                others = aig.and(others, ne);
            }
            match self.solver.check(aig, pc, others) {
                SatResult::Sat => {
                    values.push(self.solver.value(aig, bv));
                    if values.len() > max {
                        return None;
                    }
                }
                SatResult::Unsat => return Some(values),
                SatResult::Unknown => return None,
            }
        }
    }

    fn a_value(&mut self, aig: &mut Aig, pc: &List<Conjunct>, bv: &Bv, lit: AigLit) -> Option<u128> {
        match self.solver.check(aig, pc, lit) {
            SatResult::Sat => Some(self.solver.value(aig, bv)),
            _ => None,
        }
    }
}

impl<'a, G: Guide> Explorer<'a, G> {
    /// An exploration of `prog` (whose CFA is `cfa`) with `config`, guided by `guide`.
    pub fn new(prog: &'a Program, cfa: &'a Cfa, config: ExploreConfig, guide: G) -> Self {
        let mut world = World::new(prog, cfa, config.property);
        world.havoc = config.havoc.iter().copied().collect();
        world.havoc_extern_writes = config.havoc_extern_writes;
        world.alias_links = config.alias_links;
        let solver = Solver::new(config.mode, config.budget.interrupt());
        let liveness = config.state_caching.then(|| Liveness::compute(prog, cfa));
        let band = config.dfs_band.unwrap_or(u32::MAX);
        Explorer {
            world,
            aig: Aig::default(),
            solver,
            guide,
            config,
            liveness,
            key_scratch: KeyScratch::default(),
            cache: Cache::default(),
            work: VecDeque::new(),
            deferred: Vec::new(),
            waiting: BTreeMap::new(),
            n_waiting: 0,
            resident_at_start: super::resident_bytes().unwrap_or(0),
            band,
            mix: false,
            picks: 0,
            ticks: 0,
            pending: VecDeque::new(),
            groups: Vec::new(),
            completing: BTreeMap::new(),
            n_completing: 0,
            copied: Vec::new(),
            copy_roots: BTreeMap::new(),
            spent: Vec::new(),
            serving_best_first: false,
            edges_best_first: 0,
            copy_shift: MIN_COPY_SHIFT,
            checks_rest: 0,
            exit_dist: crate::cfa::exit_distances(cfa),
            stats: Stats::default(),
            stop: None,
            next_id: 0,
            approx: Approx::NONE,
            first_cut: None,
            undefined_cuts: 0,
            first_other_cut: None,
            started: false,
        }
    }

    /// The guide.
    pub fn guide(&self) -> &G {
        &self.guide
    }

    /// The guide, for changes between outcomes.
    pub fn guide_mut(&mut self) -> &mut G {
        &mut self.guide
    }

    /// Edges executed so far: a measure of the work done.
    pub fn edges_executed(&self) -> u64 {
        self.stats.edges - self.edges_best_first
    }

    /// From now on, depth-first search takes every fourth path from the oldest pending ones
    /// instead of the newest: for a caller whose search stalls in one deep subtree (an endless
    /// environment loop) while paths branching off near the root wait. Which paths there are does
    /// not change, only the order they are taken in.
    pub fn mix_oldest(&mut self) {
        self.mix = true;
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        let mut s = self.stats;
        s.solver = self.solver.stats;
        s.cache = self.cache.stats;
        s.aig_nodes = self.aig.n_nodes() as u64;
        s.memory_growth = super::resident_bytes().map_or(0, |now| now.saturating_sub(self.resident_at_start));
        s
    }

    /// Stops the exploration: no more outcomes after those already produced.
    pub fn stop(&mut self) {
        self.stop.get_or_insert(StopReason::Requested);
    }

    /// What the exploration established so far.
    pub fn summary(&self) -> Summary {
        Summary {
            exhausted: self.started
                && self.stop.is_none()
                && self.work.is_empty()
                && self.deferred.is_empty()
                && self.waiting.is_empty()
                && self.pending.is_empty(),
            stop: self.stop,
            cuts: self.stats.cuts,
            pruned: self.stats.pruned + self.stats.dropped,
            first_cut: self.first_cut.clone(),
            undefined: self.undefined_cuts,
            first_other_cut: self.first_other_cut.clone(),
            approx: self.approx,
        }
    }

    fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn start(&mut self) {
        self.started = true;
        let tag = self.guide.initial_tag();
        let id = self.fresh_id();
        match self.world.initial_state(&mut self.aig) {
            Ok(st) => self.work.push_back(Item {
                st,
                tag,
                id,
                depth: 0,
                group: None,
                best_first: false,
                entry: None,
                chain: List::new(),
                resumed: false,
            }),
            Err(u) => {
                self.stats.paths += 1;
                self.stats.cuts += 1;
                let reason = CutReason::Unsupported(u.0);
                self.first_cut.get_or_insert(reason.clone());
                self.first_other_cut.get_or_insert(reason.clone());
                self.pending.push_back(PathOutcome {
                    end: PathEnd::Cut(reason),
                    path: PathEdges(List::new()),
                    tag,
                    inputs: None,
                    approx: Approx::NONE,
                    group: None,
                    best_first: false,
                });
            }
        }
    }

    /// Runs `it` until it branches (successors queued, the first one returned for DFS) or ends.
    fn advance(&mut self, mut it: Item<G::Tag>) {
        let cfa = self.world.cfa;
        let mut steps = 0u32;
        loop {
            steps += 1;
            if steps.is_multiple_of(64) {
                if let Some(r) = self.config.budget.exhausted() {
                    self.stop = Some(r);
                    return;
                }
            }
            self.ticks += 1;
            if self.ticks.is_multiple_of(8192) && self.config.budget.memory_exhausted() {
                self.stop = Some(StopReason::Memory);
                return;
            }
            if self.stop.is_some() {
                return;
            }
            if it.group.is_some_and(|g| self.groups[g as usize]) {
                self.end(it, PathEnd::Dropped);
                return;
            }
            let node = it.st.node;
            let n = cfa.node(node);
            if n.kind == NodeKind::Termination {
                self.end(it, PathEnd::Halt);
                return;
            }
            let (func, call_site) = (it.st.top().func, it.st.top().call_site);
            let at_exit = n.kind == NodeKind::Exit && cfa.func(func).is_some_and(|f| f.exit == node);
            if at_exit && it.st.frames.len() == 1 {
                self.end(it, PathEnd::Exit);
                return;
            }
            if n.loop_head && !at_exit {
                let resumed = std::mem::take(&mut it.resumed);
                if let Some(k) = self.config.unwind.filter(|_| !resumed) {
                    if it.st.top_mut().count_loop(node) > k {
                        self.end(it, PathEnd::Cut(CutReason::Unwind(node)));
                        return;
                    }
                }
                if self.liveness.is_some() {
                    match self.cache_step(&mut it, resumed) {
                        Some(Cached::Covered) => {
                            self.end(it, PathEnd::Covered);
                            return;
                        }
                        Some(Cached::Wait(e)) => {
                            it.resumed = true;
                            self.cache.watch(e);
                            self.waiting.entry(e).or_default().push(it);
                            self.n_waiting += 1;
                            self.stats.peak_waiting = self.stats.peak_waiting.max(self.n_waiting as u64);
                            return;
                        }
                        Some(Cached::Explore) => {}
                        None => return,
                    }
                }
            }
            let edges = cfa.frame_out_edges(node, call_site);
            let next = match edges.len() {
                0 => {
                    self.end(it, PathEnd::Halt);
                    return;
                }
                1 if !matches!(cfa.edge(edges[0]).kind, EdgeKind::Assume { .. }) => self.step(it, edges[0]),
                _ => self.branch(it, &edges),
            };
            match next {
                Some(next) => it = next,
                None => return,
            }
        }
    }

    /// Takes the single edge `e`.
    fn step(&mut self, mut it: Item<G::Tag>, e: EdgeId) -> Option<Item<G::Tag>> {
        match self.guide.on_edge(self.world.cfa, &mut it.tag, e) {
            Step::Continue => {}
            Step::Prune => {
                it.st.path.push(e);
                self.end(it, PathEnd::Pruned);
                return None;
            }
            Step::CompletionOnly => self.enter_completion(&mut it),
            Step::Stop(reason) => {
                self.stop.get_or_insert(reason);
                return None;
            }
        }
        let (res, ub, narrowed) = {
            let mut oracle = SolverOracle { solver: &mut self.solver };
            let mut ex = Exec::new(&self.world, &mut self.aig, &mut it.st, &mut oracle);
            let res = ex.edge(e);
            (res, std::mem::take(&mut ex.ub), std::mem::take(&mut ex.narrowed))
        };
        self.stats.edges += 1;
        it.st.path.push(e);
        let effect = match res {
            Ok(effect) => effect,
            Err(u) => {
                self.end(it, PathEnd::Cut(CutReason::Unsupported(u.0)));
                return None;
            }
        };
        let it = self.split_narrowed(it, narrowed, None)?;
        let mut it = self.split_ub(it, ub, None)?;
        match effect {
            Effect::Moved => {
                self.guide.on_passed(&it.tag, e);
                self.arrive(it)
            }
            Effect::End(k) => {
                self.guide.on_passed(&it.tag, e);
                self.end(it, end_of(k));
                None
            }
            Effect::Assume(lit) => {
                // A blocking assumption outside a branch (`__VERIFIER_assume` as a call).
                match self.check(&it, lit)? {
                    SatResult::Unsat => {
                        self.end(it, PathEnd::Infeasible);
                        return None;
                    }
                    _ => {
                        if self.check(&it, !lit)? == SatResult::Sat {
                            it.st.assume(&self.aig, lit);
                        }
                    }
                }
                self.guide.on_passed(&it.tag, e);
                self.arrive(it)
            }
        }
    }

    /// The path arrived at its location by a taken edge: check for an error label.
    fn arrive(&mut self, it: Item<G::Tag>) -> Option<Item<G::Tag>> {
        if let Some(label) = &self.world.cfa.node(it.st.node).label {
            if self.world.is_error_label(label) {
                self.end(it, PathEnd::Violation);
                return None;
            }
        }
        Some(it)
    }

    /// Branches over the assume edges `edges` leaving the path's location.
    fn branch(&mut self, mut it: Item<G::Tag>, edges: &[EdgeId]) -> Option<Item<G::Tag>> {
        let cfa = self.world.cfa;
        let it_best_first = it.best_first;
        // Conditions, evaluated once on the path's state.
        let mut lits = Vec::with_capacity(edges.len());
        let (res, ub, narrowed) = {
            let mut oracle = SolverOracle { solver: &mut self.solver };
            let mut ex = Exec::new(&self.world, &mut self.aig, &mut it.st, &mut oracle);
            let mut res = Ok(());
            for &e in edges {
                match &cfa.edge(e).kind {
                    EdgeKind::Assume { cond, truth } => match ex.condition(cond) {
                        Ok(l) => lits.push(if *truth { l } else { !l }),
                        Err(u) => {
                            res = Err((e, u));
                            break;
                        }
                    },
                    _ => lits.push(AigLit::TRUE),
                }
            }
            (res, std::mem::take(&mut ex.ub), std::mem::take(&mut ex.narrowed))
        };
        if let Err((e, u)) = res {
            it.st.path.push(e);
            self.end(it, PathEnd::Cut(CutReason::Unsupported(u.0)));
            return None;
        }
        // Undefined behaviour while evaluating the condition, and a narrowing, are attributed to
        // the first edge.
        let it = self.split_narrowed(it, narrowed, Some(edges[0]))?;
        let it = self.split_ub(it, ub, Some(edges[0]))?;
        // The guide's view of each successor.
        let mut succs: Vec<(EdgeId, AigLit, G::Tag)> = Vec::with_capacity(edges.len());
        let mut completion = Vec::new();
        for (&e, &lit) in edges.iter().zip(&lits) {
            let mut tag = it.tag.clone();
            match self.guide.on_edge(cfa, &mut tag, e) {
                Step::Continue => succs.push((e, lit, tag)),
                Step::CompletionOnly => {
                    completion.push(e);
                    succs.push((e, lit, tag));
                }
                Step::Prune => {
                    let mut path = it.st.path.clone();
                    path.push(e);
                    self.emit(&it, path, tag, PathEnd::Pruned);
                }
                Step::Stop(reason) => {
                    self.stop.get_or_insert(reason);
                    return None;
                }
            }
        }
        // The guide orders the successors; feasibility is checked in reverse order, so that the model
        // of the last solver call belongs to the successor explored first.
        if succs.len() > 1 {
            let mut view: Vec<Succ<G::Tag>> = succs.iter().map(|(e, _, t)| Succ { edge: *e, tag: t.clone() }).collect();
            self.guide.order(cfa, it.st.node, &mut view);
            let mut ordered = Vec::with_capacity(succs.len());
            for v in &view {
                if let Some(pos) = succs.iter().position(|s| s.0 == v.edge) {
                    ordered.push(succs.remove(pos));
                }
            }
            ordered.append(&mut succs);
            succs = ordered;
        }
        // Feasibility, eagerly; a successor the current model satisfies needs no solver call.
        let complementary = edges.len() == 2 && lits[0] == !lits[1];
        let had_model = self.solver.owns_model(it.id);
        let mut feasible: Vec<Option<bool>> = vec![None; succs.len()];
        let mut via_model = None;
        for (i, s) in succs.iter().enumerate() {
            if let Some(v) = s.1.as_const() {
                feasible[i] = Some(v);
            } else if it.st.has_conjunct(!s.1) {
                feasible[i] = Some(false);
            } else if had_model && self.solver.model_value(&self.aig, it.id, s.1) == Some(true) {
                feasible[i] = Some(true);
                via_model = Some(i);
            }
        }
        // The successor whose condition the last solver call found satisfiable, if that call was the
        // last one (an unsatisfiable call leaves no model).
        let mut last_solved: Option<usize> = None;
        let mut solved_any = false;
        // The supports of the successors' conditions, computed at most once per AIG node: a two-way
        // branch's conditions are one node, checked for independence and assumed by each side.
        let mut supports: Vec<(usize, Rc<[u32]>)> = Vec::new();
        let mut support_of = |aig: &Aig, lit: AigLit| -> Rc<[u32]> {
            if let Some((_, sup)) = supports.iter().find(|(n, _)| *n == lit.node_idx()) {
                return sup.clone();
            }
            let sup = support(aig, lit);
            supports.push((lit.node_idx(), sup.clone()));
            sup
        };
        for i in (0..succs.len()).rev() {
            if feasible[i].is_some() {
                continue;
            }
            if complementary && succs.len() == 2 && feasible[1 - i] == Some(false) {
                feasible[i] = Some(true);
                continue;
            }
            self.stats.branch_checks += 1;
            // A condition on inputs the path condition does not mention is feasible if some
            // assignment of its own inputs satisfies it; two cheap ones are tried first.
            let lit = succs[i].1;
            if it.st.independent(&support_of(&self.aig, lit))
                && (self.aig.eval(lit, &|_| false) || self.aig.eval(lit, &|_| true))
            {
                self.stats.independent += 1;
                feasible[i] = Some(true);
                continue;
            }
            solved_any = true;
            match self.check(&it, succs[i].1)? {
                SatResult::Sat => {
                    feasible[i] = Some(true);
                    last_solved = Some(i);
                }
                _ => {
                    feasible[i] = Some(false);
                    last_solved = None;
                }
            }
        }
        // Without a solver call the parent's model still stands: it satisfies a successor whose
        // condition is the constant true or true under the model.
        let model_child = if solved_any {
            last_solved
        } else if had_model {
            via_model.or_else(|| (0..succs.len()).find(|&i| succs[i].1 == AigLit::TRUE))
        } else {
            None
        };
        let implied: Vec<bool> =
            (0..succs.len()).map(|i| complementary && succs.len() == 2 && feasible[1 - i] == Some(false)).collect();
        // Successor paths.
        let mut children: Vec<Item<G::Tag>> = Vec::new();
        let mut owner = None;
        for (i, (e, lit, tag)) in succs.into_iter().enumerate() {
            if feasible[i] != Some(true) {
                self.stats.infeasible += 1;
                let mut path = it.st.path.clone();
                path.push(e);
                self.emit(&it, path, tag, PathEnd::Infeasible);
                continue;
            }
            self.guide.on_passed(&tag, e);
            let mut child = it.clone();
            child.id = self.fresh_id();
            child.tag = tag;
            child.st.node = cfa.edge(e).dst;
            child.st.path.push(e);
            if !implied[i] && lit != AigLit::TRUE {
                child.st.assume_with_support(&self.aig, lit, support_of(&self.aig, lit));
            }
            if completion.contains(&e) {
                self.enter_completion(&mut child);
            }
            if model_child == Some(i) {
                owner = Some(child.id);
            }
            children.push(child);
        }
        self.solver.set_model_owner(owner);
        if self.config.self_check {
            for c in &children {
                let mut fresh = Solver::new(Mode::Partial, Default::default());
                let res = fresh.check(&self.aig, &c.st.pc, AigLit::TRUE);
                assert_eq!(res, SatResult::Sat, "self-check: a successor with an unsatisfiable path condition");
            }
        }
        self.stats.edges += children.len() as u64;
        if children.is_empty() {
            self.cache.finish(it.entry, false);
            return None;
        }
        self.cache.add_open(it.entry, children.len() as u32 - 1);
        let split = children.len() > 1;
        let children: Vec<Item<G::Tag>> = children
            .into_iter()
            .filter_map(|mut c| {
                c.depth += split as u32;
                self.arrive(c)
            })
            .collect();
        if children.is_empty() {
            return None;
        }
        match self.config.strategy {
            Strategy::Dfs => {
                // A `CompletionOnly` subtree is searched depth-first as any other; a copy of it
                // from its first branch on is kept, to search it best-first (`serve_completing`)
                // once depth-first search has gone past the band in it.
                if it_best_first {
                    for c in children {
                        self.queue_best_first(c);
                    }
                    return None;
                }
                for c in &children {
                    let g = c.group.map(|g| g as usize);
                    if let Some(g) = g.filter(|&g| !self.copied[g]) {
                        self.copied[g] = true;
                        if self.guide.completion_worth(&c.tag) == 0 {
                            continue;
                        }
                        let mut copy = c.clone();
                        copy.id = self.fresh_id();
                        copy.best_first = true;
                        copy.entry = None;
                        copy.chain = List::new();
                        self.copy_roots.insert(g as u32, copy);
                    }
                }
                // Paths deeper than the current band wait until the band is explored.
                // (Beyond `MAX_DEFERRED` waiting paths, plain DFS: the band must not turn into BFS's
                // frontier.)
                let band = if self.deferred.len() >= MAX_DEFERRED { u32::MAX } else { self.band };
                let (mut now, later): (Vec<_>, Vec<_>) = children.into_iter().partition(|c| c.depth <= band);
                for c in &later {
                    // Depth-first search found no completion of the subtree within the band: its
                    // copy starts.
                    if let Some(copy) = c.group.and_then(|g| self.copy_roots.remove(&g)) {
                        self.stats.copies += 1;
                        self.queue_best_first(copy);
                    }
                }
                self.deferred.extend(later);
                if now.is_empty() {
                    return None;
                }
                let first = now.remove(0);
                for c in now.into_iter().rev() {
                    self.work.push_back(c);
                }
                Some(first)
            }
            Strategy::Bfs => {
                self.work.extend(children);
                None
            }
        }
    }

    /// Narrows the path to the conditions `narrowed` its last edge (or, with `at`, the edge `at` it
    /// is about to take) went on under (`Exec::pinned`, `Exec::pointer_call`): the part where they
    /// do not all hold is cut as unsupported (named by the first condition's reason), and so is the
    /// whole path if they cannot hold.
    fn split_narrowed(
        &mut self,
        mut it: Item<G::Tag>,
        narrowed: Vec<(AigLit, &'static str)>,
        at: Option<EdgeId>,
    ) -> Option<Item<G::Tag>> {
        let Some(&(_, why)) = narrowed.first() else { return Some(it) };
        let all = narrowed.iter().fold(AigLit::TRUE, |acc, &(l, _)| self.aig.and(acc, l));
        let cut = PathEnd::Cut(CutReason::Unsupported(why.into()));
        let rest = self.check(&it, !all)? == SatResult::Sat;
        // Last, so that the solver's model is one of the path that goes on.
        if self.check(&it, all)? != SatResult::Sat {
            it.st.path.extend(at);
            self.end(it, cut);
            return None;
        }
        if rest {
            let mut path = it.st.path.clone();
            path.extend(at);
            self.emit(&it, path, it.tag.clone(), cut);
        }
        it.st.assume(&self.aig, all);
        self.solver.set_model_owner(Some(it.id));
        Some(it)
    }

    /// Splits the path on the undefined behaviour `ub` found on its last edge (or, with `at`, on the
    /// edge `at` it is about to take): the part where it can happen is cut, the rest continues (if
    /// feasible).
    fn split_ub(
        &mut self,
        mut it: Item<G::Tag>,
        ub: Vec<(AigLit, UbKind)>,
        at: Option<EdgeId>,
    ) -> Option<Item<G::Tag>> {
        let mut any = AigLit::FALSE;
        let mut kind = None;
        for (l, k) in ub {
            if l != AigLit::FALSE {
                any = self.aig.or(any, l);
                kind.get_or_insert(k);
            }
        }
        let Some(kind) = kind else { return Some(it) };
        if any == AigLit::FALSE {
            return Some(it);
        }
        let cut = PathEnd::Cut(CutReason::Undefined(kind));
        if any == AigLit::TRUE {
            it.st.path.extend(at);
            self.end(it, cut);
            return None;
        }
        self.stats.ub_checks += 1;
        let ub_possible = self.check(&it, any)? == SatResult::Sat;
        if !ub_possible {
            return Some(it);
        }
        match self.check(&it, !any)? {
            SatResult::Sat => {
                let mut path = it.st.path.clone();
                path.extend(at);
                self.emit(&it, path, it.tag.clone(), cut);
                it.st.assume(&self.aig, !any);
                self.solver.set_model_owner(Some(it.id));
                Some(it)
            }
            _ => {
                it.st.path.extend(at);
                self.end(it, cut);
                None
            }
        }
    }

    /// Looks the path's state up in the cache at a loop head.
    /// `resumed`: the path waited for an entry here, and does not wait again.
    fn cache_step(&mut self, it: &mut Item<G::Tag>, resumed: bool) -> Option<Cached> {
        let node = it.st.node;
        if !resumed && !self.cache.should_probe(node) {
            return Some(Cached::Explore);
        }
        let t = Instant::now();
        let live = self.liveness.as_ref().expect("caching is on");
        // The copies searching best-first keep their own entries: the two searches of a subtree do
        // not prune each other.
        let copy = if it.best_first { 0x9e37_79b9_7f4a_7c15 } else { 0 };
        let who = Seeker { tag: cache::tag_hash(&it.tag) ^ copy, exclusive: self.guide.exclusive(&it.tag) };
        let keys = cache::keys(
            &self.aig,
            &self.world,
            live,
            &it.st,
            self.guide.cache_tag(&it.tag) ^ copy,
            &mut self.key_scratch,
        );
        let probe = keys.as_ref().map(|k| self.cache.probe(k, &it.chain, who));
        self.cache.stats.time += t.elapsed();
        let Some(keys) = keys else { return Some(Cached::Explore) };
        match probe.expect("probed") {
            Probe::Covered(by) => {
                self.cache.note_covered(by, it.entry);
                self.cache.record_hit(node);
                return Some(Cached::Covered);
            }
            // Once: a path back from waiting is explored if the entry ended tainted. (The copies
            // searching best-first do not wait: they are to find a completion before the rest.)
            Probe::Wait(e) if !resumed && !it.best_first => return Some(Cached::Wait(e)),
            Probe::Wait(_) => {}
            Probe::Check(cands) => {
                for (by, relevant) in cands {
                    let r = self.aig.and_all(relevant.iter().copied());
                    if self.check(it, !r)? == SatResult::Unsat {
                        self.cache.note_covered(by, it.entry);
                        self.cache.record_hit(node);
                        self.cache.stats.hits_by_implication += 1;
                        return Some(Cached::Covered);
                    }
                }
            }
            Probe::Miss => {}
        }
        let e = self.cache.register(keys, it.entry, who.tag);
        it.entry = Some(e);
        it.chain.push(e);
        Some(Cached::Explore)
    }

    /// Whether `pc ∧ lit` is satisfiable for path `it`; `None` (and the exploration stops) when the
    /// solver gives up.
    fn check(&mut self, it: &Item<G::Tag>, lit: AigLit) -> Option<SatResult> {
        let res = self.solver.check(&self.aig, &it.st.pc, lit);
        if res == SatResult::Unknown {
            self.stop = Some(self.config.budget.exhausted().unwrap_or(StopReason::SolverUnknown));
            return None;
        }
        Some(res)
    }

    /// Queues a path of a best-first copy, unless its subtree is completed or the queue is full (the
    /// depth-first search covers every path of the copies: nothing is lost).
    fn queue_best_first(&mut self, c: Item<G::Tag>) {
        let g = c.group.expect("copies are of subtrees");
        if self.groups[g as usize] || self.n_completing >= MAX_COMPLETING {
            return;
        }
        let key = (self.distance_to_end(&c.st), u64::MAX - c.id);
        self.completing.entry(g).or_default().push(Completing { key, item: c });
        self.n_completing += 1;
    }

    /// The fewest edges from the path's location to the end of the program: to the exit of its
    /// function, then from each return site to the exit of its caller.
    fn distance_to_end(&self, st: &SymState) -> u32 {
        let cfa = self.world.cfa;
        let mut d = self.exit_dist[st.node.idx()];
        for f in &st.frames {
            if let Some(cs) = f.call_site {
                let back = cfa.call_site(cs).return_node.map_or(u32::MAX, |r| self.exit_dist[r.idx()]);
                d = d.saturating_add(back).saturating_add(1);
            }
        }
        d
    }

    /// Runs the waiting path of the best-first copies nearest to the end of the program, unless its
    /// copy has used up `COPY_CHECKS`: then the copy is given up.
    fn serve_completing(&mut self) {
        // (`Completing` orders the nearest greatest.)
        let g = *self
            .completing
            .iter()
            .max_by_key(|(_, q)| q.peek().expect("queues are never empty"))
            .map(|(g, _)| g)
            .expect("called with waiting paths");
        if self.spent[g as usize] > COPY_CHECKS {
            // The copy gave no completion within its checks: the depth-first search goes on alone.
            self.give_up_copy(g);
            return;
        }
        let queue = self.completing.get_mut(&g).expect("present");
        let c = queue.pop().expect("queues are never empty");
        if queue.is_empty() {
            self.completing.remove(&g);
        }
        self.n_completing -= 1;
        let (before, edges_before) = (self.stats.branch_checks, self.stats.edges);
        self.advance(c.item);
        let spent = self.stats.branch_checks - before;
        self.edges_best_first += self.stats.edges - edges_before;
        self.spent[g as usize] = self.spent[g as usize].saturating_add(spent);
        self.stats.copy_checks += spent;
    }

    fn enter_completion(&mut self, it: &mut Item<G::Tag>) {
        if it.group.is_none() {
            self.groups.push(false);
            self.copied.push(false);
            self.spent.push(0);
            it.group = Some(self.groups.len() as u32 - 1);
        }
    }

    /// Ends path `it` with `end`.
    fn end(&mut self, it: Item<G::Tag>, end: PathEnd) {
        // A completion of a `CompletionOnly` subtree counts once the caller accepts it
        // (`accept_completion`): a caller may reject it (say, when a concrete replay disagrees), and
        // the subtree must then look for another.
        let group = it.group.filter(|_| self.guide.completes(&end));
        if self.guide.completes(&end) || end == PathEnd::Pruned {
            self.cache.mark_completion(it.entry);
        }
        self.cache.finish(it.entry, end.taints());
        if it.best_first && !end.is_execution() {
            // The depth-first search meets this end too (unless a completion makes it moot).
            return;
        }
        let inputs =
            if self.guide.wants_inputs(&end, &it.tag) && end.is_execution() { self.inputs_of(&it) } else { None };
        self.count(&end, it.st.approx);
        self.pending.push_back(PathOutcome {
            end,
            path: PathEdges(it.st.path.clone()),
            tag: it.tag,
            inputs,
            approx: it.st.approx,
            group,
            best_first: it.best_first,
        });
    }

    /// Accepts a completing path: the remaining alternatives of its `CompletionOnly` subtree (if
    /// any) are dropped. Call it before pulling the next path.
    pub fn accept_completion(&mut self, outcome: &PathOutcome<G::Tag>) {
        if outcome.best_first && outcome.group.is_some_and(|g| !self.groups[g as usize]) {
            // The copies found what depth-first search had not: give them more turns.
            self.copy_shift = (self.copy_shift - 1).max(MIN_COPY_SHIFT);
            self.stats.copy_completions += 1;
        }
        if let Some(g) = outcome.group {
            self.groups[g as usize] = true;
            self.copy_roots.remove(&g);
            if let Some(q) = self.completing.remove(&g) {
                self.n_completing -= q.len();
            }
        }
    }

    /// Rejects a completing path (its replay disagreed): the best-first copy of its
    /// `CompletionOnly` subtree, which may well meet more such paths, is given up; the depth-first
    /// search of the subtree goes on.
    pub fn reject_completion(&mut self, outcome: &PathOutcome<G::Tag>) {
        if let Some(g) = outcome.group {
            self.give_up_copy(g);
        }
    }

    /// Gives up the best-first copy of subtree `g` (and the copies get fewer turns).
    fn give_up_copy(&mut self, g: u32) {
        if let Some(q) = self.completing.remove(&g) {
            self.n_completing -= q.len();
            self.copy_shift = (self.copy_shift + 1).min(MAX_COPY_SHIFT);
        }
        self.spent[g as usize] = u64::MAX;
    }

    /// Reports an ended path that branched off `it` (which goes on).
    fn emit(&mut self, it: &Item<G::Tag>, path: List<EdgeId>, tag: G::Tag, end: PathEnd) {
        if end == PathEnd::Pruned {
            self.cache.mark_completion(it.entry);
        } else if end.taints() {
            self.cache.taint(it.entry);
        }
        if it.best_first {
            return;
        }
        self.count(&end, it.st.approx);
        self.pending.push_back(PathOutcome {
            end,
            path: PathEdges(path),
            tag,
            inputs: None,
            approx: it.st.approx,
            group: None,
            best_first: false,
        });
    }

    fn count(&mut self, end: &PathEnd, approx: Approx) {
        if *end != PathEnd::Infeasible {
            self.stats.paths += 1;
        }
        self.approx = self.approx.union(approx);
        match end {
            PathEnd::Exit => self.stats.exits += 1,
            PathEnd::Halt => self.stats.halts += 1,
            PathEnd::Violation => self.stats.violations += 1,
            PathEnd::Cut(reason) => {
                self.stats.cuts += 1;
                self.first_cut.get_or_insert_with(|| reason.clone());
                if matches!(reason, CutReason::Undefined(_)) {
                    self.undefined_cuts += 1;
                } else {
                    self.first_other_cut.get_or_insert_with(|| reason.clone());
                }
            }
            PathEnd::Pruned => self.stats.pruned += 1,
            PathEnd::Dropped => self.stats.dropped += 1,
            PathEnd::Covered | PathEnd::Infeasible => {}
        }
    }

    /// The concrete inputs of path `it` from a model of its path condition.
    fn inputs_of(&mut self, it: &Item<G::Tag>) -> Option<Vec<InputValue>> {
        if !self.solver.owns_model(it.id) && self.solver.check(&self.aig, &it.st.pc, AigLit::TRUE) != SatResult::Sat {
            return None;
        }
        let mut res: Vec<InputValue> = it
            .st
            .inputs
            .iter()
            .map(|inp| InputValue {
                kind: inp.kind,
                ty: inp.ty,
                pointer_choice: inp.pointer_choice,
                bits: inp.bv.width(),
                value: self.solver.value(&self.aig, &inp.bv),
            })
            .collect();
        res.reverse();
        Some(res)
    }
}

fn end_of(k: EndKind) -> PathEnd {
    match k {
        EndKind::Exit => PathEnd::Exit,
        EndKind::Halt => PathEnd::Halt,
        EndKind::Violation => PathEnd::Violation,
    }
}

impl<G: Guide> Iterator for Explorer<'_, G> {
    type Item = PathOutcome<G::Tag>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.pull(None) {
            Pulled::Path(o) => Some(o),
            Pulled::Busy | Pulled::Done => None,
        }
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

impl<G: Guide> Explorer<'_, G> {
    /// The next ended path, like `Iterator::next`, but giving up after `max_segments` path segments
    /// (runs from one branch to the next) without one, if given.
    pub fn pull(&mut self, max_segments: Option<u64>) -> Pulled<G::Tag> {
        let t = Instant::now();
        if !self.started {
            self.start();
        }
        let mut segments = 0u64;
        let res = loop {
            if let Some(o) = self.pending.pop_front() {
                break Pulled::Path(o);
            }
            if self.stop.is_some() {
                break Pulled::Done;
            }
            if let Some(r) = self.config.budget.exhausted() {
                self.stop = Some(r);
                break Pulled::Done;
            }
            if max_segments.is_some_and(|m| segments >= m) {
                break Pulled::Busy;
            }
            segments += 1;
            if self.work.is_empty() && self.deferred.is_empty() {
                // The depth-first search is over: the copies would repeat it.
                self.completing.clear();
                self.n_completing = 0;
            }
            // The copies take one in `2^copy_shift` checks, in turns of at least `TURN_CHECKS`
            // (a switch costs the solver its incremental state).
            let weighted = self.stats.copy_checks.saturating_mul((1 << self.copy_shift) - 1);
            self.serving_best_first = if self.serving_best_first {
                weighted < self.checks_rest + TURN_CHECKS
            } else {
                self.checks_rest >= weighted + TURN_CHECKS
            };
            if self.n_completing > 0 && self.serving_best_first {
                self.serve_completing();
                continue;
            }
            // Paths back from waiting first: each is pruned at once, or explored if its entry was
            // tainted.
            for e in self.cache.take_released() {
                for it in self.waiting.remove(&e).unwrap_or_default().into_iter().rev() {
                    self.n_waiting -= 1;
                    self.work.push_back(it);
                }
            }
            if self.work.is_empty() && self.deferred.is_empty() && !self.waiting.is_empty() {
                // Nothing else is left: the entries they wait for wait on them (a cycle).
                for (_, items) in std::mem::take(&mut self.waiting).into_iter().rev() {
                    self.work.extend(items.into_iter().rev());
                }
                self.n_waiting = 0;
            }
            if self.work.is_empty() && !self.deferred.is_empty() {
                // The band is explored: double it and go on with the paths that waited, oldest first.
                self.band = self.band.saturating_mul(2);
                let deferred = std::mem::take(&mut self.deferred);
                self.work.extend(deferred.into_iter().rev());
            }
            let item = match self.config.strategy {
                Strategy::Dfs if self.mix => {
                    // Every fourth path from the oldest pending ones (see `mix_oldest`).
                    self.picks += 1;
                    if self.picks.is_multiple_of(4) {
                        self.work.pop_front()
                    } else {
                        self.work.pop_back()
                    }
                }
                Strategy::Dfs => self.work.pop_back(),
                Strategy::Bfs => self.work.pop_front(),
            };
            match item {
                Some(it) => {
                    let before = self.stats.branch_checks;
                    self.advance(it);
                    self.checks_rest += self.stats.branch_checks - before;
                }
                None => break Pulled::Done,
            }
        };
        self.stats.time += t.elapsed();
        res
    }
}
