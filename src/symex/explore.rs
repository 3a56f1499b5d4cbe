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
//! This file runs paths (stepping, splitting on undefined behaviour, the state cache); how a path
//! branches (conditions, feasibility, successor paths) is in `branch`; what the explorer reports
//! (the guide's hooks, path outcomes, summary and counters) in `outcome`; which waiting path runs
//! next (work list, depth bands, best-first copies) in `schedule`.
//!
//! Invariant: a path in the work list has a satisfiable path condition.
//! Invariant: the same program, configuration and guide give the same sequence of outcomes.

mod branch;
mod jump;
mod outcome;
mod schedule;

use std::collections::{BTreeMap, BinaryHeap, VecDeque};
use std::rc::Rc;
use std::time::Instant;

use super::budget::{Budget, StopReason};
use super::cache::{self, Cache, KeyScratch, Liveness, Probe, Seeker};
use super::exec::{Effect, Exec, Oracle, Property, World};
use super::semantics::{UbKind, Unsupported};
use super::solver::{Mode, Solver};
use super::state::{Approx, Conjunct, List, SymState};
use crate::cfa::{Cfa, EdgeId, EdgeKind, NodeKind};
use crate::cfront::ir::{Program, VarId};
use crate::sat::{Aig, AigLit, Bv, SatResult};

use outcome::end_of;
pub use outcome::{
    CutReason, Exhaustive, Guide, InputValue, PathEdges, PathEnd, PathOutcome, Pulled, Stats, Step, Succ, Summary,
};
use schedule::Completing;

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
    /// Set when the path ends covered: the entry that covered it.
    covered_by: Option<u32>,
}

/// What the state cache says of a path at a loop head.
enum Cached {
    /// An explored state covers it (the state of this entry): it ends.
    Covered(u32),
    /// An entry still being explored will cover it: it waits (`Explorer::waiting`).
    Wait(u32),
    /// It goes on.
    Explore,
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
        let init = self.world.initial_state(&mut self.aig).and_then(|st| self.library_init(st));
        match init {
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
                covered_by: None,
            }),
            Err(u) => {
                self.stats.paths += 1;
                self.stats.cuts += 1;
                let reason = CutReason::Unsupported(u.0);
                self.first_cut.get_or_insert(reason.clone());
                self.first_other_cut.get_or_insert(reason.clone());
                self.pending.push_back(PathOutcome {
                    end: PathEnd::Cut(reason),
                    path: PathEdges(List::new(), List::new()),
                    tag,
                    inputs: None,
                    approx: Approx::NONE,
                    group: None,
                    best_first: false,
                    covered_by: None,
                });
            }
        }
    }

    /// `st` after the edges that give the C library's variables their storage (`Cfa::library_init`),
    /// back at the program's entry.
    fn library_init(&mut self, mut st: SymState) -> Result<SymState, Unsupported> {
        let cfa = self.world.cfa;
        for &e in cfa.library_init() {
            let mut oracle = SolverOracle { solver: &mut self.solver };
            Exec::new(&self.world, &mut self.aig, &mut st, &mut oracle).edge(e)?;
        }
        st.node = cfa.entry();
        Ok(st)
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
                        Some(Cached::Covered(by)) => {
                            it.covered_by = Some(by);
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
                if self.guide.accelerates() && !cfa.in_model(it.st.frames.iter().map(|f| f.func)) {
                    if let Some(len) = jump::try_jump(&self.world, &mut it.st, node) {
                        self.stats.edges += len as u64;
                        continue;
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

    /// `e` as the guide and the path's edges see it from state `st`: `None` for an edge of a model
    /// of the C library, which is not the program's (`cfa::library`), and for an edge of a function
    /// a model calls back (`Cfa::in_model`): the guide steps over the call of the model, and a path
    /// that ends inside one ends at that call.
    pub(super) fn visible(&self, st: &SymState, e: EdgeId) -> Option<EdgeId> {
        let cfa = self.world.cfa;
        (!cfa.is_library_edge(e) && !cfa.in_model(st.frames.iter().map(|f| f.func))).then_some(e)
    }

    /// The guide's step on edge `shown` (`Continue` for an edge it does not see, `visible`).
    pub(super) fn guide_step(&mut self, tag: &mut G::Tag, shown: Option<EdgeId>) -> Step {
        match shown {
            Some(e) => self.guide.on_edge(self.world.cfa, tag, e),
            None => Step::Continue,
        }
    }

    /// Tells the guide that a path passed edge `shown`, if it sees it (`visible`).
    pub(super) fn guide_passed(&mut self, tag: &G::Tag, shown: Option<EdgeId>) {
        if let Some(e) = shown {
            self.guide.on_passed(tag, e);
        }
    }

    /// Takes the single edge `e`.
    fn step(&mut self, mut it: Item<G::Tag>, e: EdgeId) -> Option<Item<G::Tag>> {
        // Seen from the state before the edge: a call into a callback, or the return from one,
        // changes the frames.
        let shown = self.visible(&it.st, e);
        match self.guide_step(&mut it.tag, shown) {
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
        it.st.path.extend(shown);
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
                self.guide_passed(&it.tag, shown);
                self.arrive(it)
            }
            Effect::End(k) => {
                self.guide_passed(&it.tag, shown);
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
                self.guide_passed(&it.tag, shown);
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
            it.st.path.extend(at.and_then(|e| self.visible(&it.st, e)));
            self.end(it, cut);
            return None;
        }
        if rest {
            let mut path = it.st.path.clone();
            path.extend(at.and_then(|e| self.visible(&it.st, e)));
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
            it.st.path.extend(at.and_then(|e| self.visible(&it.st, e)));
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
                path.extend(at.and_then(|e| self.visible(&it.st, e)));
                self.emit(&it, path, it.tag.clone(), cut);
                it.st.assume(&self.aig, !any);
                self.solver.set_model_owner(Some(it.id));
                Some(it)
            }
            _ => {
                it.st.path.extend(at.and_then(|e| self.visible(&it.st, e)));
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
                return Some(Cached::Covered(by));
            }
            // Once: a path back from waiting is explored if the entry ended tainted. (The copies
            // searching best-first do not wait: they are to find a completion before the rest.)
            Probe::Wait(e) if !resumed && !it.best_first => {
                self.cache.record_wait(node);
                return Some(Cached::Wait(e));
            }
            Probe::Wait(_) => {}
            Probe::Check(cands) => {
                for (by, relevant) in cands {
                    let r = self.aig.and_all(relevant.iter().copied());
                    if self.check(it, !r)? == SatResult::Unsat {
                        self.cache.note_covered(by, it.entry);
                        self.cache.record_hit(node);
                        self.cache.stats.hits_by_implication += 1;
                        return Some(Cached::Covered(by));
                    }
                }
            }
            Probe::Miss => {}
        }
        let e = self.cache.register(keys, it.entry, who.tag);
        self.guide.on_cache_entry(&it.tag, e);
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
            path: PathEdges(it.st.path.clone(), it.st.jumps.clone()),
            tag: it.tag,
            inputs,
            approx: it.st.approx,
            group,
            best_first: it.best_first,
            covered_by: it.covered_by,
        });
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
            path: PathEdges(path, it.st.jumps.clone()),
            tag,
            inputs: None,
            approx: it.st.approx,
            group: None,
            best_first: false,
            covered_by: None,
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
