//! Feasibility checks of path conditions, in Pinaka's two incremental modes.
//!
//! Full-incremental (`Mode::Full`, the default): one CaDiCaL instance for the whole run. Each
//! conjunct node of a path condition gets an activation literal `a` when a check first needs it,
//! with the clauses `a ⇒ a_parent` and `a ⇒ conjunct`; a check of a path assumes only the
//! activation literal of its newest conjunct, which switches on exactly that path's constraints.
//! Constraints of other paths stay in the solver, switched off because nothing assumes their
//! literals. Tseitin definitions are shared by all paths.
//!
//! Partial-incremental (`Mode::Partial`): one solver holds the conjuncts of one path as unit
//! clauses; a check of a longer version of the same path adds only the new conjuncts, and a check of
//! any other path (a backtrack) starts a fresh solver and re-encodes that path's condition.
//!
//! A full-incremental solver that grows past `FULL_RESET_VARS` variables is replaced by a fresh one
//! (a new generation; activation literals of older generations are recreated on demand): CaDiCaL
//! assigns every variable to answer SAT, so a solver holding the clauses of thousands of abandoned
//! paths makes every check slow, which is the cost Pinaka reports for its FI mode on programs with
//! many paths.
//!
//! Both modes keep the model of the last satisfiable check together with the id of the state it
//! belongs to, so the explorer can settle a branch condition that the model already satisfies
//! without a solver call; any clause added invalidates it.
//!
//! Invariant: a literal of the backend is only used with the encoder of the same backend.

use std::time::{Duration, Instant};

use super::state::{Conjunct, List};
use crate::sat::{Aig, AigLit, Bv, CadicalBackend, Encoder, Interrupt, Lit, SatBackend, SatResult};

/// How path conditions are handed to the SAT solver.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Mode {
    /// One solver for the run, path segments switched by activation literals.
    #[default]
    Full,
    /// One solver per path, a fresh one (with the prefix re-encoded) on every backtrack.
    Partial,
}

/// The size (in variables) at which the full-incremental solver starts over.
const FULL_RESET_VARS: u32 = 10_000;

/// Counters of the solver layer.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolverStats {
    /// SAT solver calls.
    pub calls: u64,
    /// Checks settled by the model of an earlier call.
    pub model_hits: u64,
    /// Solver instances created (partial-incremental mode: one per backtrack; full-incremental
    /// mode: one per growth past the size limit).
    pub fresh_solvers: u64,
    /// Time spent in the SAT solver.
    pub solve_time: Duration,
    /// Time spent turning AIG cones into clauses.
    pub encode_time: Duration,
    /// Variables and clauses of the current solver (partial mode: the latest one).
    pub n_vars: u64,
    /// Clauses of all solvers created.
    pub n_clauses: u64,
}

/// A solver with the model bookkeeping of one exploration.
pub(crate) struct Solver {
    mode: Mode,
    backend: CadicalBackend,
    enc: Encoder,
    /// Partial mode: the path condition whose conjuncts are unit clauses of `backend`.
    asserted: List<Conjunct>,
    /// The state whose path condition the current model satisfies (no clause was added since).
    model_for: Option<u64>,
    interrupt: Interrupt,
    /// Full mode: the generation of `backend` (activation literals carry theirs).
    generation: u32,
    /// Full mode: variables of `backend` right after its first check (the current path's size).
    floor: u32,
    clauses_before: u64,
    pub stats: SolverStats,
}

impl Solver {
    /// A solver for `mode` that gives up when `interrupt` fires.
    pub fn new(mode: Mode, interrupt: Interrupt) -> Solver {
        let mut backend = CadicalBackend::default();
        backend.set_interrupt(interrupt.clone());
        Solver {
            mode,
            backend,
            enc: Encoder::default(),
            asserted: List::new(),
            model_for: None,
            interrupt,
            generation: 0,
            floor: 0,
            clauses_before: 0,
            stats: SolverStats { fresh_solvers: 1, ..SolverStats::default() },
        }
    }

    /// The value of `lit` in the current model if that model satisfies the path condition of state
    /// `state`; `None` when there is no such model.
    pub fn model_value(&mut self, aig: &Aig, state: u64, lit: AigLit) -> Option<bool> {
        if self.model_for != Some(state) {
            return None;
        }
        let v = self.enc.value(aig, &self.backend, lit);
        if v {
            self.stats.model_hits += 1;
        }
        Some(v)
    }

    /// Whether the current model satisfies the path condition of state `state`.
    pub fn owns_model(&self, state: u64) -> bool {
        self.model_for == Some(state)
    }

    /// Declares that the current model satisfies the path condition of state `state`.
    pub fn set_model_owner(&mut self, state: Option<u64>) {
        self.model_for = state;
    }

    /// Whether the path condition `pc` together with `extra` is satisfiable. On `Sat` the model can
    /// be read with `value` until the next check.
    pub fn check(&mut self, aig: &Aig, pc: &List<Conjunct>, extra: AigLit) -> SatResult {
        if extra == AigLit::FALSE {
            return SatResult::Unsat;
        }
        self.model_for = None;
        let t = Instant::now();
        let mut assumptions: Vec<Lit> = Vec::with_capacity(2);
        match self.mode {
            Mode::Full => {
                // Start over when the solver is mostly other paths' clauses (never for a solver
                // that the current path alone fills).
                let fresh = self.backend.n_vars() > FULL_RESET_VARS.max(3 * self.floor);
                if fresh {
                    self.fresh();
                }
                if let Some(a) = self.activation(aig, pc) {
                    assumptions.push(a);
                }
                if fresh {
                    self.floor = self.backend.n_vars();
                }
            }
            Mode::Partial => {
                if !self.asserted.is_prefix_of(pc) {
                    self.fresh();
                }
                for c in pc.newer_than(&self.asserted) {
                    self.enc.assert(aig, &mut self.backend, c.lit);
                }
                self.asserted = pc.clone();
            }
        }
        if extra != AigLit::TRUE {
            assumptions.push(self.enc.lit(aig, &mut self.backend, extra));
        }
        let t2 = Instant::now();
        self.stats.encode_time += t2 - t;
        let res = self.backend.solve(&assumptions);
        self.stats.solve_time += t2.elapsed();
        self.stats.calls += 1;
        self.stats.n_vars = self.backend.n_vars() as u64;
        self.stats.n_clauses = self.clauses_before + self.backend.n_clauses();
        res
    }

    /// The value of `bv` in the model of the last `Sat` check.
    pub fn value(&self, aig: &Aig, bv: &Bv) -> u128 {
        self.enc.bv_value(aig, &self.backend, bv)
    }

    /// The activation literal of the whole path condition `pc` (created, with its clauses, for the
    /// conjuncts that have none yet); `None` for the empty path condition.
    fn activation(&mut self, aig: &Aig, pc: &List<Conjunct>) -> Option<Lit> {
        let mut missing: Vec<&Conjunct> = Vec::new();
        let mut parent = None;
        for c in pc.iter() {
            match c.act.get() {
                Some((g, a)) if g == self.generation => {
                    parent = Some(a);
                    break;
                }
                _ => missing.push(c),
            }
        }
        for c in missing.into_iter().rev() {
            let a = self.backend.new_var().pos();
            if let Some(p) = parent {
                self.backend.add_clause(&[!a, p]);
            }
            let l = self.enc.lit(aig, &mut self.backend, c.lit);
            self.backend.add_clause(&[!a, l]);
            c.act.set(Some((self.generation, a)));
            parent = Some(a);
        }
        parent
    }

    fn fresh(&mut self) {
        self.clauses_before += self.backend.n_clauses();
        self.backend = CadicalBackend::default();
        self.backend.set_interrupt(self.interrupt.clone());
        self.enc = Encoder::default();
        self.asserted = List::new();
        self.generation += 1;
        self.stats.fresh_solvers += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(pc: &List<Conjunct>, lit: AigLit) -> List<Conjunct> {
        let mut res = pc.clone();
        res.push(Conjunct::new(lit));
        res
    }

    /// Branches on x < 10, then on x > 5 / x <= 5 along both sides, in both modes.
    #[test]
    fn both_modes_agree_on_a_branching_tree() {
        for mode in [Mode::Full, Mode::Partial] {
            let mut aig = Aig::default();
            let x = Bv::input(&mut aig, 8);
            let lt10 = x.ult(&mut aig, &Bv::constant(10, 8));
            let gt5 = x.ugt(&mut aig, &Bv::constant(5, 8));
            let mut s = Solver::new(mode, Interrupt::default());
            let root = List::new();
            assert_eq!(s.check(&aig, &root, lt10), SatResult::Sat);
            let left = push(&root, lt10);
            let right = push(&root, !lt10);
            assert_eq!(s.check(&aig, &left, gt5), SatResult::Sat);
            let v = s.value(&aig, &x);
            assert!(v > 5 && v < 10, "{mode:?}: {v}");
            // Backtrack to the other side of the first branch: x >= 10 and x <= 5 is impossible.
            assert_eq!(s.check(&aig, &right, !gt5), SatResult::Unsat, "{mode:?}");
            assert_eq!(s.check(&aig, &right, gt5), SatResult::Sat, "{mode:?}");
            assert!(s.value(&aig, &x) >= 10);
            // And back again.
            assert_eq!(s.check(&aig, &push(&left, gt5), AigLit::TRUE), SatResult::Sat);
            assert_eq!(s.check(&aig, &push(&left, !gt5), gt5), SatResult::Unsat);
            if mode == Mode::Partial {
                assert!(s.stats.fresh_solvers >= 3, "backtracks start fresh solvers");
            } else {
                assert_eq!(s.stats.fresh_solvers, 1);
            }
        }
    }

    #[test]
    fn model_answers_only_for_its_owner() {
        let mut aig = Aig::default();
        let x = Bv::input(&mut aig, 8);
        let c = x.eq(&mut aig, &Bv::constant(3, 8));
        let mut s = Solver::new(Mode::Full, Interrupt::default());
        assert_eq!(s.check(&aig, &List::new(), c), SatResult::Sat);
        s.set_model_owner(Some(7));
        assert_eq!(s.model_value(&aig, 7, c), Some(true));
        assert_eq!(s.model_value(&aig, 8, c), None);
        let d = x.eq(&mut aig, &Bv::constant(4, 8));
        assert_eq!(s.model_value(&aig, 7, d), Some(false));
        s.check(&aig, &List::new(), d);
        assert_eq!(s.model_value(&aig, 7, c), None, "a new check invalidates the model");
    }
}
