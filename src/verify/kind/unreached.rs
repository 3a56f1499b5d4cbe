//! `unreachable`, the engine for coverage: BMC and k-induction that show sets of CFA edges (the
//! edges of a line) never taken.
//!
//! The base case unrolls from the entry and sets aside every target a model takes; the step case
//! treats the remaining targets as Houdini treats candidates (`Engine::unreachable`). When no
//! execution goes on past a depth, the open targets are proven by BMC.

use std::collections::BTreeMap;

use crate::cfa::{Cfa, EdgeId};
use crate::cfront::ir::Program;
use crate::sat::{AigLit, Lit, SatBackend};
use crate::symex::Property;
use crate::verify::ts::{Step, Ts};

use super::candidates::Candidate;
use super::{Engine, Goal, Halt, Invariant, KindConfig, KindStats, Unroll, H};

/// How a target (a set of CFA edges) was shown never taken by `unreachable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreached {
    /// Every execution ends within this many steps (cut point to cut point), and none takes it.
    Bmc {
        /// The steps.
        steps: u32,
    },
    /// No execution takes it within `k` steps, and `k` steps from any state the invariants allow
    /// that avoid it are never followed by one that takes it (k-induction; at `k = 0`, no step from
    /// such a state takes it).
    Induction {
        /// The steps of the argument.
        k: u32,
        /// Whether the step case assumed the invariants (`Unreachability::invariants`).
        invariants: bool,
    },
}

/// What `unreachable` established.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unreachability {
    /// Per target, how it was shown never taken; `None` where it was not.
    pub proven: Vec<Option<Unreached>>,
    /// The invariants the inductive arguments assumed, as C expressions (those that have one).
    pub invariants: Vec<Invariant>,
    /// Why the engine proved nothing more: no transition system, a limit, or the largest `k` reached.
    pub ended: String,
}

/// Shows sets of CFA edges (`targets`) never taken by any execution of `prog` in which no violation
/// of `property` and no undefined behaviour happened before, by BMC and k-induction over the
/// transition system of `verify::ts` with the invariants `run` proves. A target some execution
/// takes stays unproven; so does one the budget, `max_k` or the work cap leaves open. What is
/// proven before a limit stops the engine is kept.
/// `publish` gets what is established so far after each step forward.
pub fn unreachable(
    prog: &Program,
    cfa: &Cfa,
    property: Property,
    targets: &[Vec<EdgeId>],
    config: &KindConfig,
    publish: &mut dyn FnMut(&Unreachability),
) -> (Unreachability, KindStats) {
    let mut stats = KindStats::default();
    let mut out = Unreachability { proven: vec![None; targets.len()], ..Unreachability::default() };
    let res = Engine::new(prog, cfa, property, config).and_then(|mut engine| {
        let res = engine.unreachable(targets, &mut stats, &mut out, publish);
        stats.solver_calls = engine.solver_calls;
        res
    });
    out.ended = match res {
        Ok(None) => "every target proven or taken by an execution".to_string(),
        Ok(Some(k)) => format!("no proof of the others up to k = {k}"),
        Err(Halt::Stopped(s)) => s.describe().to_string(),
        Err(Halt::Why(why)) => why,
    };
    (out, stats)
}

/// The targets of `unreachable`: each one's inlined edges, and whether it is still open (neither
/// proven nor taken by an execution).
struct Targets {
    inlined: Vec<Vec<u32>>,
    open: Vec<bool>,
}

impl Targets {
    /// The targets `targets` (sets of CFA edges) in the inlined program of `ts`, all open.
    fn new(ts: &Ts, targets: &[Vec<EdgeId>]) -> Targets {
        let n = targets.len();
        // The inlined edges of each target.
        let mut of_edge: BTreeMap<EdgeId, Vec<usize>> = BTreeMap::new();
        for (t, edges) in targets.iter().enumerate() {
            for &e in edges {
                of_edge.entry(e).or_default().push(t);
            }
        }
        let mut inlined: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (ie, edge) in ts.edges.iter().enumerate() {
            for &t in of_edge.get(&edge.edge).map(Vec::as_slice).unwrap_or_default() {
                inlined[t].push(ie as u32);
            }
        }
        Targets { inlined, open: vec![true; n] }
    }

    fn any_open(&self) -> bool {
        self.open.iter().any(|&o| o)
    }
}

/// `unreachable`'s base case: the unrolling from the entry and how many depths it has shown free
/// of open targets (`stuck` once the work cap left a query open).
struct BaseCase {
    unroll: Unroll,
    depth: u32,
    stuck: bool,
}

impl Engine<'_, '_> {
    /// `unreachable`'s engine: fills `out.proven` as targets are shown never taken, calling
    /// `publish` after each step forward (so that what is proven outlives a limit), and returns the
    /// largest `k` tried while targets were left open.
    ///
    /// The base case unrolls from the entry and sets aside every target a model takes (some
    /// execution takes it). The step case treats the remaining targets as Houdini treats candidates:
    /// it looks for the largest set `S` such that `k` steps avoiding all of `S` from a state the
    /// invariants allow are never followed by a step taking one of `S`. Were some target of `S`
    /// taken, the first execution to take one would contradict that at the first such step (the base
    /// case covers the first `k` steps), so all of `S` is never taken. A few steps without
    /// invariants come first, so that what needs none is proven before the invariants' phases.
    fn unreachable(
        &mut self,
        targets: &[Vec<EdgeId>],
        stats: &mut KindStats,
        out: &mut Unreachability,
        publish: &mut dyn FnMut(&Unreachability),
    ) -> H<Option<u32>> {
        let n = targets.len();
        let mut goal = Targets::new(&self.ts, targets);
        // Targets the inlined program has no edge of are never taken.
        for t in 0..n {
            if goal.inlined[t].is_empty() {
                out.proven[t] = Some(Unreached::Induction { k: 0, invariants: false });
                goal.open[t] = false;
            }
        }
        let mut base = BaseCase { unroll: self.unroll_from_entry(), depth: 0, stuck: false };
        // A few depths first: targets reached early would keep the invariants' phases from ending.
        for _ in 0..BASE_FIRST {
            if !self.base_step(&mut base, &mut goal, out)? {
                break;
            }
        }
        publish(out);
        self.phase(2);
        self.induct(&[], EARLY_K.min(self.config.max_k), &mut base, &mut goal, stats, out, publish)?;
        let mut invariants = Vec::new();
        if goal.any_open() {
            self.phase(1);
            let mask = self.edge_mask(&goal);
            invariants = self.invariants(stats, Goal::Taken(&mask))?;
            stats.proven = invariants.len();
            if !invariants.is_empty() {
                // Described now: a limit during the unrolling keeps the proofs that assume them.
                out.invariants = self.describe_all(&invariants);
            }
            self.phase(2);
        }
        // Again from k = 0 with the invariants (or, with none, on to `max_k`).
        let k = self.induct(&invariants, self.config.max_k, &mut base, &mut goal, stats, out, publish)?;
        if !out.proven.iter().any(|p| matches!(p, Some(Unreached::Induction { invariants: true, .. }))) {
            out.invariants.clear();
        }
        Ok(goal.any_open().then_some(k))
    }

    /// The step case of `unreachable` for k = 0 up to `max_k` over one unrolling from a state that
    /// satisfies `invariants`, the base case extended as it needs. Returns the largest `k` tried.
    #[allow(clippy::too_many_arguments)]
    fn induct(
        &mut self,
        invariants: &[Candidate],
        max_k: u32,
        base: &mut BaseCase,
        goal: &mut Targets,
        stats: &mut KindStats,
        out: &mut Unreachability,
        publish: &mut dyn FnMut(&Unreachability),
    ) -> H<u32> {
        let n = goal.open.len();
        let cap = self.config.conflicts;
        let mut step = self.unroll_from_any_state();
        // Per target: its edges not taken in the step case's steps so far.
        let mut avoided = vec![AigLit::TRUE; n];
        let mut k = 0;
        while k <= max_k && goal.any_open() {
            stats.k = stats.k.max(k);
            self.check()?;
            while base.depth <= k && !base.stuck {
                if !self.base_step(base, goal, out)? {
                    break;
                }
            }
            if !goal.any_open() {
                break;
            }
            let inv = self.holds(invariants, &step.pc.clone(), &step.vars.clone());
            step.enc.assert(&self.aig, &mut step.solver, inv);
            let st = self.encode(&step.pc.clone(), &step.vars.clone())?;
            let taken: Vec<AigLit> = (0..n).map(|t| self.taken_any(&st, &goal.inlined[t])).collect();
            // The base case must have shown the first k + 1 depths before a proof at k.
            let mut live: Vec<usize> = (0..n).filter(|&t| goal.open[t] && base.depth > k).collect();
            while !live.is_empty() {
                self.check()?;
                let any = self.aig.or_all(live.iter().map(|&t| taken[t]));
                let mut assumptions: Vec<Lit> =
                    live.iter().map(|&t| step.enc.lit(&self.aig, &mut step.solver, avoided[t])).collect();
                assumptions.push(step.enc.lit(&self.aig, &mut step.solver, any));
                match self.solve_capped(&mut step.solver, &assumptions, cap)? {
                    Some(true) => {
                        let before = live.len();
                        let lits: Vec<AigLit> = live.iter().map(|&t| taken[t]).collect();
                        let took = step.enc.values(&self.aig, &step.solver, &lits);
                        live = live.iter().zip(took).filter(|&(_, took)| !took).map(|(&t, _)| t).collect();
                        assert!(live.len() < before, "a model of the step case takes some target");
                    }
                    Some(false) => {
                        let with = !invariants.is_empty();
                        for &t in &live {
                            out.proven[t] = Some(Unreached::Induction { k, invariants: with });
                            goal.open[t] = false;
                            // Proven: no reachable state's step takes it.
                            let l = step.enc.lit(&self.aig, &mut step.solver, !taken[t]);
                            step.solver.add_clause(&[l]);
                        }
                        break;
                    }
                    None => break,
                }
            }
            publish(out);
            for t in 0..n {
                avoided[t] = self.aig.and(avoided[t], !taken[t]);
            }
            step.advance(&self.aig, st);
            k += 1;
        }
        Ok(k.saturating_sub(1))
    }

    /// One more depth of `unreachable`'s base case: sets aside the open targets some execution
    /// takes at this depth; when no execution goes on past it, proves the others. Returns whether
    /// it may go deeper (`stuck` is set when the work cap left a query open).
    fn base_step(&mut self, base: &mut BaseCase, goal: &mut Targets, out: &mut Unreachability) -> H<bool> {
        self.check()?;
        let cap = self.config.conflicts;
        let b = &mut base.unroll;
        let st = self.encode(&b.pc.clone(), &b.vars.clone())?;
        let n = goal.open.len();
        let taken: Vec<AigLit> = (0..n).map(|t| self.taken_any(&st, &goal.inlined[t])).collect();
        loop {
            let live: Vec<usize> = (0..n).filter(|&t| goal.open[t]).collect();
            if live.is_empty() {
                return Ok(false);
            }
            let any = self.aig.or_all(live.iter().map(|&t| taken[t]));
            let any = b.enc.lit(&self.aig, &mut b.solver, any);
            match self.solve_capped(&mut b.solver, &[any], cap)? {
                Some(true) => {
                    let lits: Vec<AigLit> = live.iter().map(|&t| taken[t]).collect();
                    for (&t, took) in live.iter().zip(b.enc.values(&self.aig, &b.solver, &lits)) {
                        if took {
                            goal.open[t] = false;
                        }
                    }
                }
                Some(false) => {
                    b.solver.add_clause(&[!any]);
                    break;
                }
                None => {
                    base.stuck = true;
                    return Ok(false);
                }
            }
        }
        base.depth += 1;
        b.advance(&self.aig, st);
        match self.solve_capped(&mut b.solver, &[], cap)? {
            Some(true) => Ok(true),
            Some(false) => {
                // Every execution ended within `depth` steps without taking the open targets.
                for t in 0..n {
                    if goal.open[t] {
                        out.proven[t] = Some(Unreached::Bmc { steps: base.depth });
                        goal.open[t] = false;
                    }
                }
                Ok(false)
            }
            None => {
                base.stuck = true;
                Ok(false)
            }
        }
    }

    /// Where the step `st` takes one of the inlined edges `edges`.
    fn taken_any(&mut self, st: &Step, edges: &[u32]) -> AigLit {
        let lits: Vec<AigLit> =
            st.taken.iter().filter(|(ie, _)| edges.binary_search(ie).is_ok()).map(|&(_, l)| l).collect();
        self.aig.or_all(lits)
    }

    /// Per inlined edge, whether it is an edge of an open target.
    fn edge_mask(&self, goal: &Targets) -> Vec<bool> {
        let mut mask = vec![false; self.ts.edges.len()];
        for (t, edges) in goal.inlined.iter().enumerate() {
            if goal.open[t] {
                for &ie in edges {
                    mask[ie as usize] = true;
                }
            }
        }
        mask
    }
}

/// How many depths `unreachable`'s base case unrolls before the invariants are proven.
const BASE_FIRST: u32 = 3;
/// The largest `k` `unreachable` tries without invariants, before it proves them.
const EARLY_K: u32 = 2;
