//! Conditional verification (`vcov verify --condition AA`): the assumption automaton of a first
//! verifier is a *condition* (Beyer et al., FSE 2012), the part of the state space it covered, and
//! vcov verifies only the rest.
//!
//! The explicit-path search runs on the product AA × CFA (`ConditionGuide`): a path is followed
//! while the automaton stays in its explored states; it is pruned where every continuation stays
//! there (the automaton enters `__TRUE`, or its product node can reach no way out of the explored
//! region), since the first verifier claims that part; it is searched exhaustively from the moment
//! it leaves the region: the automaton enters `__FALSE` (the frontier), or a transition with an
//! `ASSUME` that is not constantly true fires (the first verifier explored the edge only under that
//! assumption, so the rest is vcov's), or one that ends the path (`ASSUME {false}`, `STOP`,
//! `ERROR`), or several transitions fire at once.
//!
//! The verdict of the whole program (`Basis`): FALSE needs a counterexample that replays, as without
//! a condition, wherever it lies. TRUE from the guided search means: no violation on the paths vcov
//! explored (every path that leaves the region, exhaustively) and, where it pruned, the first
//! verifier's claim; it is stated as resting on that claim. A TRUE of BMC or k-induction (which run
//! on the whole program) needs no claim.
//!
//! The claim is the first verifier's, for the property *it* checked: an automaton CPAchecker wrote
//! for the ErrorLabel specification says nothing about calls of `reach_error`, so the property of
//! `vcov verify` (`--spec`, `--prop`) must be the one the first run checked. The automaton does not
//! say which it was; the user does.
//!
//! Invariant: a path is pruned only where the automaton's every continuation stays inside explored
//! states with constantly true assumptions (`Condition::open` is false there), or enters `__TRUE`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::time::{Duration, Instant};

use fixedbitset::FixedBitSet;

use super::region::Region;
use super::{Engine, Observer, Verdict};
use crate::automaton::{AssumeTruth, Automaton, StateId, Target};
use crate::cfa::{Cfa, EdgeId};
use crate::product::{stack_after, takeable_edges, Matcher, Product, ProductNode, StackId, Stacks};
use crate::sat::MovableDeadline;
use crate::symex::{Guide, PathOutcome, Step};

/// What the automaton does on one edge, for the condition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Move {
    /// No transition fires: the observer stays in its state.
    Stay,
    /// One transition fires, with a constantly true assumption, into this explored state.
    To(StateId),
    /// Into `__TRUE`: the first verifier claims every continuation.
    Claimed,
    /// Out of the explored region: `__FALSE`, an assumption that is not constantly true, a
    /// transition that ends the path, or several transitions at once.
    Leaves,
}

/// A condition: an assumption automaton composed with the program.
pub struct Condition<'a> {
    aut: &'a Automaton,
    product: &'a Product,
    matcher: &'a Matcher<'a>,
    index: HashMap<ProductNode, u32>,
    /// Product nodes from which a path can leave the explored region.
    open: FixedBitSet,
}

impl<'a> Condition<'a> {
    /// The condition `aut`, with its product `product` and the matcher of the product's generation.
    pub fn new(aut: &'a Automaton, cfa: &Cfa, product: &'a Product, matcher: &'a Matcher<'a>) -> Self {
        let n = product.nodes.len();
        let index: HashMap<ProductNode, u32> =
            product.nodes.iter().enumerate().map(|(i, node)| (*node, i as u32)).collect();
        let mut c = Condition { aut, product, matcher, index, open: FixedBitSet::with_capacity(n) };
        // Where a path leaves the region on its next edge, then everything that leads there.
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut todo: Vec<u32> = Vec::new();
        for (i, node) in product.nodes.iter().enumerate() {
            if product.is_leaf(node.aut) {
                if Some(node.aut) == product.false_state {
                    c.open.insert(i);
                    todo.push(i as u32);
                }
                continue;
            }
            for e in &product.succ[i] {
                preds[e.to.idx()].push(i as u32);
            }
            let siblings = takeable_edges(cfa, &product.stacks, node.stack, node.cfa);
            let leaves = c.moves(node.aut, &siblings).contains(&Move::Leaves);
            if leaves && !c.open.contains(i) {
                c.open.insert(i);
                todo.push(i as u32);
            }
        }
        while let Some(i) = todo.pop() {
            for &p in &preds[i as usize] {
                if !c.open.contains(p as usize) {
                    c.open.insert(p as usize);
                    todo.push(p);
                }
            }
        }
        c
    }

    /// The automaton's move from `q` on `e`, one of `siblings` (the takeable edges of its source).
    pub fn step(&self, q: StateId, siblings: &[EdgeId], e: EdgeId) -> Move {
        if Some(q) == self.product.true_state {
            return Move::Claimed;
        }
        if Some(q) == self.product.false_state {
            return Move::Leaves;
        }
        let i = siblings.iter().position(|&x| x == e).expect("edge among its siblings");
        self.moves(q, siblings)[i]
    }

    /// The automaton's moves from `q` on each of `siblings`.
    fn moves(&self, q: StateId, siblings: &[EdgeId]) -> Vec<Move> {
        if Some(q) == self.product.true_state {
            return vec![Move::Claimed; siblings.len()];
        }
        if Some(q) == self.product.false_state {
            return vec![Move::Leaves; siblings.len()];
        }
        self.matcher.fire_all(q, siblings).into_iter().map(|fired| self.move_of(q, &fired.transitions)).collect()
    }

    fn move_of(&self, q: StateId, transitions: &[usize]) -> Move {
        match *transitions {
            [] => Move::Stay,
            [t] => {
                let tr = &self.aut.state(q).transitions[t];
                match tr.target {
                    Target::Goto(next) if tr.assume == AssumeTruth::True => {
                        if Some(next) == self.product.true_state {
                            Move::Claimed
                        } else if Some(next) == self.product.false_state {
                            Move::Leaves
                        } else {
                            Move::To(next)
                        }
                    }
                    _ => Move::Leaves,
                }
            }
            // Several transitions of a `USEALL` state: the automaton branches; the path is vcov's.
            _ => Move::Leaves,
        }
    }

    /// Whether a path at `node` can still leave the explored region (`true` for a node the product
    /// does not hold, which a path the automaton follows never reaches).
    pub fn open(&self, node: ProductNode) -> bool {
        self.index.get(&node).is_none_or(|&i| self.open.contains(i as usize))
    }

    /// The automaton.
    pub fn automaton(&self) -> &'a Automaton {
        self.aut
    }

    /// The initial state.
    pub fn initial(&self) -> StateId {
        self.aut.initial
    }
}

/// Where a path stands with respect to the condition.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Pos {
    /// No condition: plain verification.
    Plain,
    /// In this explored state of the automaton.
    At(StateId),
    /// Out of the explored region: searched exhaustively.
    Open,
    /// Pruned: the first verifier's claim covers it.
    Claimed,
}

/// The tag of `RegionGuide`. Equality and hashing leave out the region's node: it records where
/// the path was and guides nothing, and the state cache compares tags (an ancestor's entry covers a
/// path only with an equal tag).
#[derive(Clone, Debug)]
pub struct RegionTag {
    /// The node of the recorded region (`Region::ROOT` when nothing is recorded).
    node: u32,
    pos: Pos,
    stack: StackId,
}

impl PartialEq for RegionTag {
    fn eq(&self, other: &Self) -> bool {
        (self.pos, self.stack) == (other.pos, other.stack)
    }
}

impl Eq for RegionTag {}

impl Hash for RegionTag {
    fn hash<H: Hasher>(&self, h: &mut H) {
        (self.pos, self.stack).hash(h);
    }
}

/// What the guided search counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConditionCounts {
    /// Paths pruned where the condition's claim covers every continuation.
    pub claimed: u64,
    /// Paths that left the explored region (searched exhaustively from there).
    pub left: u64,
}

/// What gets each snapshot: the region and the time since the start.
pub type SnapshotSink<'s> = Box<dyn FnMut(&Region, Duration) + 's>;

/// Automata written while the search runs (`--snapshot-every`): `sink` gets the region and the
/// time since the start.
pub struct Snapshots<'s> {
    /// The interval.
    pub every: Duration,
    /// When the run started.
    pub start: Instant,
    /// Gets each snapshot.
    pub sink: SnapshotSink<'s>,
}

/// The guide of `vcov verify`'s explicit-path search with a condition and/or a recorded region:
/// every path, in CFA order, as `Exhaustive`, except where the condition's claim prunes it.
pub struct RegionGuide<'a, 's> {
    cond: Option<&'a Condition<'a>>,
    stacks: Stacks,
    region: Option<Rc<RefCell<Region>>>,
    counts: Rc<Cell<ConditionCounts>>,
    snapshots: Option<(Snapshots<'s>, Instant)>,
    calls: u32,
    /// When the region's automaton must be written by (the run's deadline), and the search's
    /// deadline that is moved earlier as the region grows; how long writing takes per node of the
    /// region (the larger of `WRITE_SECONDS_PER_NODE` and what the snapshots took).
    write_by: Option<(Instant, MovableDeadline)>,
    seconds_per_node: f64,
}

/// Seconds it takes to write the automaton of a region, per node of the region (a search tree of
/// token_ring.13: 0.45–0.6 µs; pipeline, whose tree folds well: 0.1 µs), with a margin.
const WRITE_SECONDS_PER_NODE: f64 = 1e-6;
/// Seconds set aside for writing besides (the file, the rest of the report).
const WRITE_SECONDS_FIXED: f64 = 0.2;

impl<'a, 's> RegionGuide<'a, 's> {
    /// A guide following `cond` (if any), recording into `region` (if any), writing `snapshots` (if
    /// any; they need a region), and counting into `counts`.
    pub fn new(
        cond: Option<&'a Condition<'a>>,
        region: Option<Rc<RefCell<Region>>>,
        snapshots: Option<Snapshots<'s>>,
        counts: Rc<Cell<ConditionCounts>>,
    ) -> Self {
        let stacks = cond.map(|c| c.product.stacks.clone()).unwrap_or_default();
        let snapshots = snapshots.map(|s| {
            let next = s.start + s.every;
            (s, next)
        });
        RegionGuide {
            cond,
            stacks,
            region,
            counts,
            snapshots,
            calls: 0,
            write_by: None,
            seconds_per_node: WRITE_SECONDS_PER_NODE,
        }
    }

    /// The same guide, which moves `search_deadline` (the search's budget's, for the time limit)
    /// to `deadline` less the time writing its region's automaton takes, as the region grows: a run
    /// with `--aa-out` and a time limit ends with its automaton written, however large the region
    /// grew, also when the search is inside a long solver call then.
    pub fn writing_by(mut self, deadlines: Option<(Instant, MovableDeadline)>) -> Self {
        self.write_by = deadlines.filter(|_| self.region.is_some());
        self
    }

    fn count(&self, f: impl FnOnce(&mut ConditionCounts)) {
        let mut c = self.counts.get();
        f(&mut c);
        self.counts.set(c);
    }

    /// Every 64 edges: writes a snapshot when one is due, moves the search's deadline for the time
    /// writing the region takes (`writing_by`), and says whether that deadline has passed.
    fn tick(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        if !self.calls.is_multiple_of(64) {
            return false;
        }
        let Some(region) = &self.region else { return false };
        if let Some((snap, next)) = &mut self.snapshots {
            let now = Instant::now();
            if now >= *next {
                let nodes = region.borrow().len().max(1);
                (snap.sink)(&region.borrow(), now - snap.start);
                let took = now.elapsed().as_secs_f64();
                self.seconds_per_node = self.seconds_per_node.max(took / nodes as f64);
                // The next one an interval after this one ended, so that a large region cannot make
                // the search write all the time.
                *next = Instant::now() + snap.every;
            }
        }
        let Some((by, search_deadline)) = &self.write_by else { return false };
        let writing = WRITE_SECONDS_FIXED + self.seconds_per_node * region.borrow().len() as f64;
        search_deadline.move_to(by.checked_sub(Duration::from_secs_f64(writing)).unwrap_or_else(Instant::now));
        search_deadline.passed()
    }
}

impl Guide for RegionGuide<'_, '_> {
    type Tag = RegionTag;

    fn initial_tag(&mut self) -> RegionTag {
        let pos = match self.cond {
            None => Pos::Plain,
            Some(c) => match c.initial() {
                q if Some(q) == c.product.true_state => Pos::At(q),
                q if Some(q) == c.product.false_state => Pos::Open,
                q => Pos::At(q),
            },
        };
        RegionTag { node: Region::ROOT, pos, stack: Stacks::EMPTY }
    }

    /// Jumps over loop iterations only with neither a condition to follow nor a region to record:
    /// both need every edge.
    fn accelerates(&self) -> bool {
        self.cond.is_none() && self.region.is_none()
    }

    fn on_edge(&mut self, cfa: &Cfa, tag: &mut RegionTag, edge: EdgeId) -> Step {
        if let Some(r) = &self.region {
            tag.node = r.borrow_mut().child(tag.node, edge);
        }
        if self.tick() {
            return Step::Stop(crate::symex::StopReason::Time);
        }
        let (Some(cond), Pos::At(q)) = (self.cond, tag.pos) else { return Step::Continue };
        let src = cfa.edge(edge).src;
        let siblings = takeable_edges(cfa, &self.stacks, tag.stack, src);
        let mv = cond.step(q, &siblings, edge);
        tag.stack = stack_after(cfa, &mut self.stacks, tag.stack, edge);
        let next = match mv {
            Move::Stay => q,
            Move::To(next) => next,
            Move::Claimed => {
                tag.pos = Pos::Claimed;
                self.count(|c| c.claimed += 1);
                return Step::Prune;
            }
            Move::Leaves => {
                tag.pos = Pos::Open;
                self.count(|c| c.left += 1);
                return Step::Continue;
            }
        };
        tag.pos = Pos::At(next);
        if let Some(r) = &self.region {
            r.borrow_mut().set_condition_state(tag.node, next);
        }
        if cond.open(ProductNode { aut: next, cfa: cfa.edge(edge).dst, stack: tag.stack }) {
            Step::Continue
        } else {
            // Every continuation stays in explored states: the first verifier's claim.
            tag.pos = Pos::Claimed;
            self.count(|c| c.claimed += 1);
            Step::Prune
        }
    }

    fn on_passed(&mut self, tag: &RegionTag, _edge: EdgeId) {
        if let Some(r) = &self.region {
            r.borrow_mut().passed(tag.node);
        }
    }

    fn on_cache_entry(&mut self, tag: &RegionTag, entry: u32) {
        if let Some(r) = &self.region {
            r.borrow_mut().entry(entry, tag.node);
        }
    }

    fn cache_tag(&self, tag: &RegionTag) -> u64 {
        // What guides the future of a path: its place in the automaton (the region's node only
        // records where it was).
        let mut h = std::collections::hash_map::DefaultHasher::new();
        match tag.pos {
            Pos::At(_) => (tag.pos, tag.stack).hash(&mut h),
            p => p.hash(&mut h),
        }
        h.finish()
    }
}

impl Observer for RegionGuide<'_, '_> {
    fn ended(&mut self, outcome: &PathOutcome<RegionTag>) {
        if let Some(r) = &self.region {
            let mut r = r.borrow_mut();
            r.ended(outcome.tag.node, &outcome.end);
            if let Some(entry) = outcome.covered_by {
                r.covered_by(outcome.tag.node, entry);
            }
        }
    }
}

/// What a verdict of `vcov verify` with a condition rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// TRUE from an engine that ran on the whole program (BMC, k-induction, the unguided
    /// breadth-first search).
    WholeProgram(Engine),
    /// TRUE: the guided search explored every path; the condition pruned none.
    Exhaustive,
    /// TRUE: the guided search explored every path that leaves the explored region; the condition's
    /// claim covers the `claimed` paths it pruned.
    Claim {
        /// Paths pruned on the claim.
        claimed: u64,
    },
    /// FALSE: a counterexample vcov replayed, wherever it lies.
    Counterexample,
    /// No verdict, with what the guided search counted.
    Undecided(ConditionCounts),
}

impl Basis {
    /// The basis of the engines' `verdict`, given by `engine` (if one decided), with the guided
    /// search's `counts`; `guided` says whether that engine's search was the guided one.
    pub fn of(verdict: &Verdict, engine: Option<Engine>, guided: bool, counts: ConditionCounts) -> Basis {
        match (verdict, engine) {
            (Verdict::True, Some(engine)) if !guided => Basis::WholeProgram(engine),
            (Verdict::True, Some(_)) if counts.claimed == 0 => Basis::Exhaustive,
            (Verdict::True, Some(_)) => Basis::Claim { claimed: counts.claimed },
            (Verdict::False, _) => Basis::Counterexample,
            _ => Basis::Undecided(counts),
        }
    }
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Basis::WholeProgram(e) => write!(f, "TRUE for the whole program ({e}); the condition was not needed"),
            Basis::Exhaustive => {
                f.write_str("TRUE for the whole program: vcov explored every path, the condition pruned none")
            }
            Basis::Claim { claimed } => write!(
                f,
                "TRUE assuming the first verifier's claim on the explored region \
                 ({claimed} paths pruned there; vcov explored every path that leaves it)"
            ),
            Basis::Counterexample => {
                f.write_str("FALSE with a counterexample vcov replayed (the condition was not needed)")
            }
            Basis::Undecided(c) => write!(
                f,
                "no verdict ({} paths pruned on the first verifier's claim, {} left the explored region)",
                c.claimed, c.left
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_true_rests_on_the_claim_only_when_the_guided_search_pruned() {
        let none = ConditionCounts::default();
        let some = ConditionCounts { claimed: 3, left: 1 };
        let of = |engine, guided, counts| Basis::of(&Verdict::True, Some(engine), guided, counts);
        assert_eq!(of(Engine::KInduction, false, some), Basis::WholeProgram(Engine::KInduction));
        assert_eq!(of(Engine::ExplicitDfs, true, none), Basis::Exhaustive);
        assert_eq!(of(Engine::ExplicitDfs, true, some), Basis::Claim { claimed: 3 });
        assert!(Basis::Claim { claimed: 3 }.to_string().starts_with("TRUE assuming the first verifier's claim"));
    }

    #[test]
    fn a_false_rests_on_its_counterexample_and_no_verdict_on_nothing() {
        let some = ConditionCounts { claimed: 3, left: 1 };
        assert_eq!(Basis::of(&Verdict::False, Some(Engine::Bmc), false, some), Basis::Counterexample);
        let unknown = Verdict::Unknown("time limit reached".into());
        assert_eq!(Basis::of(&unknown, None, true, some), Basis::Undecided(some));
        // A TRUE no engine claims is no verdict to rest on.
        assert_eq!(Basis::of(&Verdict::True, None, true, some), Basis::Undecided(some));
        assert_eq!(
            Basis::Undecided(some).to_string(),
            "no verdict (3 paths pruned on the first verifier's claim, 1 left the explored region)"
        );
    }
}
