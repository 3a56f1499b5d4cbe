//! BMC and k-induction over the transition system of `verify::ts`, on the SAT layer (CaDiCaL).
//!
//! A state is a cut point and the values of the state variables (`verify::ts`); a state is *bad*
//! when its step can reach a violation or possible undefined behaviour (the executor cuts such
//! paths, so no TRUE may be drawn while one is reachable). Two incremental solvers grow one step at
//! a time:
//! - the *base case* unrolls the steps from the program's entry (BMC): a bad state at depth `k` is a
//!   counterexample candidate. A violation becomes FALSE only once the concrete interpreter, fed the
//!   inputs the model gives, reaches it (`symex::interp`); possible undefined behaviour gives
//!   UNKNOWN. When no path has a step at depth `k + 1`, every path ended safely: TRUE.
//! - the *step case* unrolls `k + 1` steps from an arbitrary state at a cut point, assumes the
//!   first `k` states good and every state to satisfy the invariants, and asks whether the last can
//!   be bad; when it cannot (and the base case showed the states of the first `k` depths good),
//!   every reachable state is good: TRUE.
//!
//! *Invariants* strengthen the step case. Candidates from templates over the state variables in
//! scope at each loop head (`v = w`, `v + w = u`, `v ≤ w`, `v < w`, `0 ≤ v`) and the affine
//! equalities (in the integers and modulo the variables' width), bounds and shared low bits
//! simulated runs satisfy there (`verify::sample`, `Σ cᵢ·vᵢ + c = 0`, `p·a + q·b ≤ c`,
//! `v ≡ c (mod 2^t)`) are filtered by a Houdini fixpoint over one step from an arbitrary state: a
//! candidate is dropped while some step from a state that satisfies all remaining ones (the entry
//! state is unconstrained) reaches a state that violates it. What is left is inductive, so it holds
//! in every reachable state: an invariant is used only after it is proven.
//!
//! Invariant: a TRUE comes only from an unsatisfiable base or step query over the over-approximating
//! transition system; a FALSE only from a concrete run (`symex::interpret`) that reaches the violation.
//! Invariant: no clock or thread decides an answer: limits only stop the engine (UNKNOWN).

use std::fmt;

use crate::cfa::{Cfa, EdgeId};
use crate::cfront::ir::Program;
use crate::sat::{Aig, AigLit, Bv, CadicalBackend, Encoder, Lit, SatBackend, SatResult};
use crate::symex::{self, Budget, ConcreteEnd, InputValue, Property, StopReason};

use super::poly::{self, mask, PolyEq};
use super::sample::{self, Linear};
use super::ts::{self, Step, Ts};

/// Limits and switches of the engine.
#[derive(Clone, Debug)]
pub struct KindConfig {
    /// When to give up (deadline, interrupt flags, memory). [default: none]
    pub budget: Budget,
    /// The largest `k` tried. [default: 10,000]
    pub max_k: u32,
    /// Strengthen the step case with proven invariants. [default: true]
    pub invariants: bool,
    /// The most invariant candidates. [default: 3,000]
    pub max_candidates: usize,
    /// Where the engine says what it is doing (`Progress::kind_phase`, `Progress::k`). [default: none]
    pub progress: Option<std::sync::Arc<super::Progress>>,
    /// The work of one SAT query, in conflicts. When set, a query that needs more answers nothing
    /// (Houdini drops its candidate, a line stays unproven), and no clock orders Houdini's
    /// questions, so the same program gives the same invariants on every machine unless the
    /// budget's deadline passes. [default: none]
    pub conflicts: Option<i32>,
    /// Try disjunctions of the program's comparisons when the step case still fails after the other
    /// invariants (the last phase: many candidates, rarely needed). [default: true]
    pub disjunctions: bool,
    /// From this `k` on, the engine's thread takes a lower scheduling priority (Linux: nice 10 for
    /// the thread alone), so that it yields the CPU to the other engines of a portfolio when they
    /// compete for it, and uses it as before when they do not. Past its invariants and first depths,
    /// deeper unrolling rarely decides a program the explicit search has not. On a transition
    /// system of more than `YIELD_VARS` state variables it does so from the start: k-induction's
    /// queries grow with the state, and on such programs (SystemC rings of a dozen processes) the
    /// explicit search is the engine that decides. [default: none]
    pub yield_from_k: Option<u32>,
}

/// What the engine established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KindResult {
    /// The property holds (and no undefined behaviour is reachable).
    Proof(Proof),
    /// A counterexample the concrete interpreter runs to a violation.
    Counterexample {
        /// The number of steps (cut point to cut point) before the violating one.
        depth: u32,
        /// The edges of the concrete run.
        edges: Vec<EdgeId>,
        /// The inputs that drive it.
        inputs: Vec<InputValue>,
    },
    /// No answer, and why.
    Unknown(String),
}

/// How the property was proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Which argument: every path ends within `k` steps (BMC), or k-induction at `k`.
    pub by: ProofKind,
    /// The steps unrolled.
    pub k: u32,
    /// The invariants the step case assumed, as C expressions per loop head.
    pub invariants: Vec<Invariant>,
}

/// The argument of a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofKind {
    /// No path of the program has more than `k` steps, and none of them is bad.
    Bmc,
    /// The step case held at `k`.
    KInduction,
}

/// A proven invariant: at a loop head, a C expression over the program's variables that holds
/// whenever the loop head is reached (in every context its function is called in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    /// The CFA node of the loop head.
    pub node: crate::cfa::NodeId,
    /// The function the loop head is in.
    pub func: crate::cfront::ir::FuncId,
    /// The expression, in C: free of side effects and of undefined behaviour, and equivalent to the
    /// proven template on the variables' values in their declared types.
    pub expr: String,
    /// The variables it reads.
    pub vars: Vec<crate::cfront::ir::VarId>,
}

/// Counters of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindStats {
    /// The largest `k` reached.
    pub k: u32,
    /// Invariant candidates and how many were proven.
    pub candidates: usize,
    /// Invariants proven.
    pub proven: usize,
    /// SAT solver calls.
    pub solver_calls: u64,
}

impl Default for KindConfig {
    fn default() -> KindConfig {
        KindConfig {
            budget: Budget::default(),
            max_k: 10_000,
            invariants: true,
            max_candidates: 3_000,
            progress: None,
            conflicts: None,
            disjunctions: true,
            yield_from_k: None,
        }
    }
}

impl fmt::Display for KindStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "k-induction:")?;
        writeln!(f, "  k reached:              {}", self.k)?;
        writeln!(f, "  invariant candidates:   {}", self.candidates)?;
        writeln!(f, "  invariants proven:      {}", self.proven)?;
        writeln!(f, "  solver calls:           {}", self.solver_calls)
    }
}

/// One chain of unrolled steps in its own solver.
struct Unroll {
    solver: CadicalBackend,
    enc: Encoder,
    pc: Bv,
    vars: Vec<Bv>,
    steps: Vec<Step>,
}

/// Why the engine stopped without an answer: a limit (`stopped`), or a reason in words.
enum Halt {
    Stopped(StopReason),
    Why(String),
}

type H<T> = Result<T, Halt>;

/// Runs BMC and k-induction on `prog` for `property` until one decides or a limit stops it.
pub fn run(prog: &Program, cfa: &Cfa, property: Property, config: &KindConfig) -> (KindResult, KindStats) {
    let mut stats = KindStats::default();
    let res = match Engine::new(prog, cfa, property, config) {
        Ok(mut engine) => {
            let res = engine.run(&mut stats);
            engine.phase(3);
            stats.solver_calls = engine.solver_calls;
            res
        }
        Err(why) => Err(why),
    };
    let res = match res {
        Ok(r) => r,
        Err(Halt::Stopped(s)) => KindResult::Unknown(format!("k-induction: {}", s.describe())),
        Err(Halt::Why(why)) => KindResult::Unknown(format!("k-induction: {why}")),
    };
    (res, stats)
}

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

struct Engine<'t, 'a> {
    prog: &'a Program,
    cfa: &'a Cfa,
    property: Property,
    ts: Ts<'a>,
    aig: Aig,
    config: &'t KindConfig,
    solver_calls: u64,
    /// The linear constraints candidates of `Template::Linear` stand for.
    linear: Vec<Linear>,
    /// The polynomial equalities candidates of `Template::Poly` stand for.
    polys: Vec<PolyEq>,
    /// Pairs of state variables `(a, b)` the program multiplies as `a * b`.
    mul_order: std::collections::BTreeSet<(usize, usize)>,
    /// The disjunctions candidates of `Template::Or` stand for.
    disjunctions: Vec<(Candidate, Candidate)>,
    /// The states simulated runs visited at each cut point (`sample::simulate`).
    samples: Vec<Vec<Vec<i128>>>,
    /// The integer constants of the conditions on the system's edges
    /// (`sample::condition_constants`).
    consts: Vec<i128>,
}

/// What the step case must show: the property (no violation, no undefined behaviour), or that
/// no step takes the inlined edges marked (`unreachable`).
#[derive(Clone, Copy)]
enum Goal<'g> {
    Property,
    Taken(&'g [bool]),
}

/// What candidates' circuits refer to besides the state.
struct Tables<'e> {
    linear: &'e [Linear],
    polys: &'e [PolyEq],
    mul_order: &'e std::collections::BTreeSet<(usize, usize)>,
    disjunctions: &'e [(Candidate, Candidate)],
}

impl<'t, 'a> Engine<'t, 'a> {
    fn new(prog: &'a Program, cfa: &'a Cfa, property: Property, config: &'t KindConfig) -> H<Engine<'t, 'a>> {
        let ts = Ts::build(prog, cfa, property).map_err(|u| Halt::Why(format!("unsupported: {}", u.0)))?;
        let mut aig = Aig::default();
        // Encode one step from an arbitrary state first: a construct the system does not model is
        // found before any solving.
        let (pc, vars) = ts.fresh_state(&mut aig);
        ts.encode_step(&mut aig, &pc, &vars).map_err(|u| Halt::Why(format!("unsupported: {}", u.0)))?;
        let consts = sample::condition_constants(ts.edges.iter().filter_map(|ie| match &cfa.edge(ie.edge).kind {
            crate::cfa::EdgeKind::Assume { cond, .. } => Some(cond),
            _ => None,
        }));
        Ok(Engine {
            prog,
            cfa,
            property,
            ts,
            aig,
            config,
            solver_calls: 0,
            linear: Vec::new(),
            polys: Vec::new(),
            mul_order: Default::default(),
            disjunctions: Vec::new(),
            samples: Vec::new(),
            consts,
        })
    }

    /// The constants of the bound templates `v <= c` and `c <= v`: 0 and the (at most 6) constants
    /// of the program's conditions smallest in magnitude.
    fn template_consts(&self) -> Vec<i128> {
        let mut consts = self.consts.clone();
        consts.retain(|&c| c != 0);
        consts.sort_by_key(|c| (c.unsigned_abs(), *c));
        consts.truncate(6);
        consts.insert(0, 0);
        consts
    }

    /// Tells the progress line what the engine is at (`Progress::kind_phase`).
    fn phase(&self, phase: u8) {
        if let Some(p) = &self.config.progress {
            p.kind_phase.store(phase, std::sync::atomic::Ordering::Relaxed);
        }
    }

    fn solver(&self) -> CadicalBackend {
        let mut s = CadicalBackend::default();
        s.set_interrupt(self.config.budget.interrupt());
        s
    }

    fn check(&self) -> H<()> {
        match self.config.budget.exhausted() {
            Some(s) => Err(Halt::Stopped(s)),
            None if self.config.budget.memory_exhausted() => Err(Halt::Stopped(StopReason::Memory)),
            None => Ok(()),
        }
    }

    fn solve(&mut self, solver: &mut CadicalBackend, assumptions: &[Lit]) -> H<bool> {
        self.solver_calls += 1;
        match solver.solve(assumptions) {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => {
                Err(Halt::Stopped(self.config.budget.exhausted().unwrap_or(StopReason::SolverUnknown)))
            }
        }
    }

    /// `solve`, giving up after `cap` conflicts (`KindConfig::conflicts`): `None` when the cap left
    /// the query open.
    fn solve_capped(&mut self, solver: &mut CadicalBackend, assumptions: &[Lit], cap: Option<i32>) -> H<Option<bool>> {
        let Some(cap) = cap else { return self.solve(solver, assumptions).map(Some) };
        self.solver_calls += 1;
        solver.limit_conflicts(cap);
        match solver.solve(assumptions) {
            SatResult::Sat => Ok(Some(true)),
            SatResult::Unsat => Ok(Some(false)),
            SatResult::Unknown => match self.config.budget.exhausted() {
                Some(s) => Err(Halt::Stopped(s)),
                None if self.config.budget.memory_exhausted() => Err(Halt::Stopped(StopReason::Memory)),
                None => Ok(None),
            },
        }
    }

    fn encode(&mut self, pc: &Bv, vars: &[Bv]) -> H<Step> {
        self.ts.encode_step(&mut self.aig, pc, vars).map_err(|u| Halt::Why(format!("unsupported: {}", u.0)))
    }

    fn run(&mut self, stats: &mut KindStats) -> H<KindResult> {
        if self.config.yield_from_k.is_some() && self.ts.vars.len() > YIELD_VARS {
            lower_priority();
        }
        let invariants = self.invariants(stats, Goal::Property)?;
        stats.proven = invariants.len();
        let mut base = Unroll {
            solver: self.solver(),
            enc: Encoder::default(),
            pc: self.ts.pc_const(0),
            vars: self.ts.vars.iter().map(|v| Bv::input(&mut self.aig, v.repr.bits)).collect(),
            steps: Vec::new(),
        };
        let (pc, vars) = self.ts.fresh_state(&mut self.aig);
        let mut step = Unroll { solver: self.solver(), enc: Encoder::default(), pc, vars, steps: Vec::new() };
        let valid = self.ts.pc_valid(&mut self.aig, &step.pc);
        step.enc.assert(&self.aig, &mut step.solver, valid);
        self.phase(2);
        for k in 0..=self.config.max_k {
            stats.k = k;
            if let Some(p) = &self.config.progress {
                p.k.store(k, std::sync::atomic::Ordering::Relaxed);
            }
            if self.config.yield_from_k == Some(k) {
                lower_priority();
            }
            self.check()?;
            // Base case: the states at depth k are good, or a counterexample.
            let st = self.encode(&base.pc.clone(), &base.vars.clone())?;
            let err = base.enc.lit(&self.aig, &mut base.solver, st.err);
            base.steps.push(st);
            if self.solve(&mut base.solver, &[err])? {
                return self.counterexample(&mut base, k);
            }
            base.solver.add_clause(&[!err]);
            let st = base.steps.last().expect("just pushed");
            let (ub, cont, next_pc, next) = (st.ub, st.cont, st.next_pc.clone(), st.next.clone());
            let ub = base.enc.lit(&self.aig, &mut base.solver, ub);
            if self.solve(&mut base.solver, &[ub])? {
                return Err(Halt::Why(format!("possible undefined behaviour after {k} steps")));
            }
            base.solver.add_clause(&[!ub]);
            let cont = base.enc.lit(&self.aig, &mut base.solver, cont);
            base.solver.add_clause(&[cont]);
            if !self.solve(&mut base.solver, &[])? {
                return Ok(KindResult::Proof(Proof { by: ProofKind::Bmc, k, invariants: Vec::new() }));
            }
            base.pc = next_pc;
            base.vars = next;
            // Step case: k good steps from any state (all satisfying the invariants) make the next
            // one good.
            self.check()?;
            let inv = self.holds(&invariants, &step.pc.clone(), &step.vars.clone());
            step.enc.assert(&self.aig, &mut step.solver, inv);
            let st = self.encode(&step.pc.clone(), &step.vars.clone())?;
            let bad = self.aig.or(st.err, st.ub);
            let bad = step.enc.lit(&self.aig, &mut step.solver, bad);
            if !self.solve(&mut step.solver, &[bad])? {
                let invariants = self.describe_all(&invariants);
                return Ok(KindResult::Proof(Proof { by: ProofKind::KInduction, k, invariants }));
            }
            step.solver.add_clause(&[!bad]);
            let cont = step.enc.lit(&self.aig, &mut step.solver, st.cont);
            step.solver.add_clause(&[cont]);
            step.pc = st.next_pc.clone();
            step.vars = st.next.clone();
            step.steps.push(st);
        }
        Err(Halt::Why(format!("no proof up to k = {}", self.config.max_k)))
    }

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
        use std::collections::BTreeMap;
        let n = targets.len();
        // The inlined edges of each target.
        let mut of_edge: BTreeMap<EdgeId, Vec<usize>> = BTreeMap::new();
        for (t, edges) in targets.iter().enumerate() {
            for &e in edges {
                of_edge.entry(e).or_default().push(t);
            }
        }
        let mut inlined: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (ie, edge) in self.ts.edges.iter().enumerate() {
            for &t in of_edge.get(&edge.edge).map(Vec::as_slice).unwrap_or_default() {
                inlined[t].push(ie as u32);
            }
        }
        let mut goal = Targets { inlined, open: vec![true; n] };
        // Targets the inlined program has no edge of are never taken.
        for t in 0..n {
            if goal.inlined[t].is_empty() {
                out.proven[t] = Some(Unreached::Induction { k: 0, invariants: false });
                goal.open[t] = false;
            }
        }
        let mut base = BaseCase {
            unroll: Unroll {
                solver: self.solver(),
                enc: Encoder::default(),
                pc: self.ts.pc_const(0),
                vars: self.ts.vars.iter().map(|v| Bv::input(&mut self.aig, v.repr.bits)).collect(),
                steps: Vec::new(),
            },
            depth: 0,
            stuck: false,
        };
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
        let (pc, vars) = self.ts.fresh_state(&mut self.aig);
        let mut step = Unroll { solver: self.solver(), enc: Encoder::default(), pc, vars, steps: Vec::new() };
        let valid = self.ts.pc_valid(&mut self.aig, &step.pc);
        step.enc.assert(&self.aig, &mut step.solver, valid);
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
            let cont = step.enc.lit(&self.aig, &mut step.solver, st.cont);
            step.solver.add_clause(&[cont]);
            step.pc = st.next_pc.clone();
            step.vars = st.next.clone();
            step.steps.push(st);
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
        let cont = b.enc.lit(&self.aig, &mut b.solver, st.cont);
        b.solver.add_clause(&[cont]);
        b.pc = st.next_pc.clone();
        b.vars = st.next.clone();
        b.steps.push(st);
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

    /// The invariants proven for `goal`: the phases below, each relative to what the ones before
    /// proved, until the step case at k = 0 holds for `goal` (`inductive`).
    fn invariants(&mut self, stats: &mut KindStats, goal: Goal) -> H<Vec<Candidate>> {
        let mut invariants = Vec::new();
        self.phase(1);
        if self.config.invariants {
            // One-variable templates first, then the equalities simulated runs suggest, the
            // two-variable templates, sums and the runs' bounds (the most numerous), each relative
            // to what the phases before proved; a phase that does not reach its fixpoint within its
            // share of the time proves nothing. Of the simulated runs' invariants, those the others
            // imply are left out (they would only weigh on every later query and the witness).
            // The simulated runs first: a template some state they reached breaks is no invariant,
            // and is left out before the cap on candidates counts it.
            let (sampled, polys) = self.sampled_candidates();
            let (pairs, single): (Vec<Candidate>, Vec<Candidate>) = self.candidates().into_iter().partition(|c| {
                matches!(c.kind, Template::Eq(..) | Template::Le(..) | Template::Lt(..) | Template::Sum(..))
            });
            let (sums, pairs): (Vec<Candidate>, Vec<Candidate>) =
                pairs.into_iter().partition(|c| matches!(c.kind, Template::Sum(..)));
            let (equalities, bounds): (Vec<Candidate>, Vec<Candidate>) =
                sampled.into_iter().partition(|c| match c.kind {
                    Template::Linear(i) => !self.linear[i].at_most,
                    kind => matches!(kind, Template::LowBits(..) | Template::Poly(..)),
                });
            stats.candidates = single.len() + pairs.len() + sums.len() + equalities.len() + bounds.len() + polys.len();
            let mut enough = false;
            for (k, phase) in [single, equalities, pairs, sums, bounds].into_iter().enumerate() {
                // The two-variable templates, the sums and the bounds (the most numerous) only when
                // the step case needs more than the phases before at k = 0.
                if k >= 2 && !phase.is_empty() && self.inductive(&invariants, goal)? {
                    enough = true;
                    break;
                }
                let proven = self.houdini(phase, &invariants, 4)?;
                let proven = if k == 1 || k == 4 { self.without_implied(proven, &invariants)? } else { proven };
                invariants.extend(proven);
            }
            // The polynomial equalities, proven by algebra (`verify::poly`), only when the step
            // case still needs more: their multipliers weigh on every query.
            if !polys.is_empty() && !enough && !self.inductive(&invariants, goal)? {
                // Kept only if they settle a condition of the program or make the step case at
                // k = 0 go through: otherwise their multipliers would only slow every later step.
                let (proven, blocked) = self.proven_polys(polys);
                let mut with = invariants.clone();
                with.extend(proven);
                if blocked > 0 || self.inductive(&with, goal)? {
                    invariants = with;
                }
            }
            // Disjunctions of the program's comparisons, last: they are many and rarely needed.
            if self.config.disjunctions && !enough && !self.inductive(&invariants, goal)? {
                let disjunctions = self.disjunctive_candidates(&invariants);
                stats.candidates += disjunctions.len();
                // The last phase: half of the time left (what is proven now is all the unrolling
                // will have).
                let proven = self.houdini(disjunctions, &invariants, 2)?;
                invariants.extend(proven);
            }
        }
        Ok(invariants)
    }

    /// The base case found a violation at depth `k`: runs the model's inputs concretely.
    fn counterexample(&mut self, base: &mut Unroll, k: u32) -> H<KindResult> {
        // The interpreter reads bytes never written as 0 when no input says otherwise: ask first
        // for a model in which every value of a variable never written is 0.
        let st = base.steps.last().expect("the violating step");
        let err = base.enc.lit(&self.aig, &mut base.solver, st.err);
        let mut zero = vec![err];
        for s in &base.steps {
            for inp in &s.inputs {
                if inp.kind == ts::InputKind::Uninit {
                    for &b in inp.bv.bits() {
                        zero.push(!base.enc.lit(&self.aig, &mut base.solver, b));
                    }
                }
            }
        }
        let attempts: [&[Lit]; 2] = [&zero, &[err]];
        for assumptions in attempts {
            if !self.solve(&mut base.solver, assumptions)? {
                continue;
            }
            let inputs = self.model_inputs(base);
            let run = symex::interpret(self.prog, self.cfa, self.property, &inputs, 50_000_000);
            if run.end == ConcreteEnd::Violation {
                return Ok(KindResult::Counterexample { depth: k, edges: run.edges, inputs });
            }
        }
        Err(Halt::Why(format!("a counterexample of {} steps did not replay", k + 1)))
    }

    /// The inputs of calls of functions without body along the model's path, in call order.
    fn model_inputs(&self, base: &Unroll) -> Vec<InputValue> {
        let mut res = Vec::new();
        for s in &base.steps {
            for inp in &s.inputs {
                let (ts::InputKind::Call { func, ty }, Some(ie)) = (inp.kind, inp.edge) else { continue };
                let taken = s.taken.iter().find(|(e, _)| *e == ie).map(|(_, l)| *l).unwrap_or(AigLit::FALSE);
                if !base.enc.value(&self.aig, &base.solver, taken) {
                    continue;
                }
                res.push(InputValue {
                    kind: symex::InputKind::Call { edge: self.ts.edges[ie as usize].edge, func: Some(func) },
                    ty: Some(ty),
                    pointer_choice: false,
                    bits: inp.bv.width(),
                    value: base.enc.bv_value(&self.aig, &base.solver, &inp.bv),
                });
            }
        }
        res
    }

    /// The conjunction of the invariants for a state (`pc`, `vars`).
    fn holds(&mut self, invariants: &[Candidate], pc: &Bv, vars: &[Bv]) -> AigLit {
        let mut res = AigLit::TRUE;
        for c in invariants {
            let l = self.candidate_holds(c, pc, vars);
            res = self.aig.and(res, l);
        }
        res
    }

    /// `pc` at the candidate's cut point implies the candidate.
    fn candidate_holds(&mut self, c: &Candidate, pc: &Bv, vars: &[Bv]) -> AigLit {
        let at = pc.eq(&mut self.aig, &self.ts.pc_const(c.cut));
        let tables = Tables {
            linear: &self.linear,
            polys: &self.polys,
            mul_order: &self.mul_order,
            disjunctions: &self.disjunctions,
        };
        let v = c.eval(&mut self.aig, vars, &tables, &self.ts.vars);
        self.aig.implies(at, v)
    }

    /// The subset of `cands` that is inductive relative to the invariants `known` (Houdini), or none
    /// when the fixpoint is not reached within `1 / share` of the time left.
    fn houdini(&mut self, mut cands: Vec<Candidate>, known: &[Candidate], share: u32) -> H<Vec<Candidate>> {
        if cands.is_empty() {
            return Ok(cands);
        }
        let mut solver = self.solver();
        let mut interrupt = self.config.budget.interrupt();
        if let Some(d) = self.config.budget.deadline {
            let now = std::time::Instant::now();
            interrupt.deadline = Some(now + d.saturating_duration_since(now) / share);
        }
        let phase_end = interrupt.deadline;
        solver.set_interrupt(interrupt.clone());
        let mut enc = Encoder::default();
        let (pc, vars) = self.ts.fresh_state(&mut self.aig);
        let valid = self.ts.pc_valid(&mut self.aig, &pc);
        enc.assert(&self.aig, &mut solver, valid);
        let st = self.encode(&pc, &vars)?;
        let cont = enc.lit(&self.aig, &mut solver, st.cont);
        solver.add_clause(&[cont]);
        // The invariants already proven hold in every reachable state, before and after the step.
        let before = self.holds(known, &pc, &vars);
        let after_known = self.holds(known, &st.next_pc, &st.next);
        enc.assert(&self.aig, &mut solver, before);
        enc.assert(&self.aig, &mut solver, after_known);
        // Per candidate: an activation literal that makes it hold before the step, and its value
        // after the step.
        let mut acts = Vec::with_capacity(cands.len());
        let mut after = Vec::with_capacity(cands.len());
        for (i, c) in cands.iter().enumerate() {
            // Building thousands of candidates' circuits takes a while on large programs.
            if i % 64 == 0 {
                self.check()?;
            }
            let before = self.candidate_holds(c, &pc, &vars);
            let act = solver.new_var().pos();
            enc.assert_under(&self.aig, &mut solver, act, before);
            acts.push(act);
            after.push(self.candidate_holds(c, &st.next_pc, &st.next));
        }
        let mut alive = vec![true; cands.len()];
        // Joint rounds first: one query whether some candidate breaks, which finds the broken ones
        // fast and, once none does, ends the fixpoint at once. Once such a query takes longer than
        // `JOINT_SLICE`, the candidates are asked in groups instead, in their order (so mostly of
        // one cut point): whether one of the group breaks, every live candidate assumed before the
        // step. A few candidates broken is a much easier question for the solver than the
        // disjunction of all (a proof by bit-level arithmetic for each at once), and a group whose
        // members all hold is settled by one query, not one each. The first group is one
        // candidate. A group whose query outlasts `SINGLE_SLICE` is halved, a group answered fast
        // lets the next be twice as large, but never as large as one that was halved (by the clock
        // only when no work cap orders the questions); a candidate whose own query outlasts the
        // slice is asked again after the others, without a slice.
        let mut joint = true;
        let mut width = FIRST_GROUP;
        // Half the smallest group whose query outlasted its slice: no group grows past it again.
        let mut ceiling = MAX_GROUP;
        // The candidates shown to hold after the step, each with the candidates its proof assumed
        // (the failed assumptions): it must be shown again when one of those drops.
        let mut settled = vec![false; cands.len()];
        let mut support: Vec<Vec<usize>> = vec![Vec::new(); cands.len()];
        let mut hard = vec![false; cands.len()];
        loop {
            self.check()?;
            if phase_end.is_some_and(|d| std::time::Instant::now() >= d) {
                return Ok(Vec::new());
            }
            let live: Vec<usize> = (0..cands.len()).filter(|&i| alive[i]).collect();
            // The candidates whose own query outlasted `SINGLE_SLICE` last (most drops come from the
            // others, and each drop may ask again what rested on the dropped one).
            let group: Vec<usize> = if joint {
                live.clone()
            } else {
                let pick = |hard_ones: bool, n: usize| -> Vec<usize> {
                    live.iter().copied().filter(|&i| !settled[i] && hard[i] == hard_ones).take(n).collect()
                };
                let easy = pick(false, width);
                if easy.is_empty() {
                    pick(true, 1)
                } else {
                    easy
                }
            };
            if group.is_empty() {
                break;
            }
            let goal = self.aig.or_all(group.iter().map(|&i| !after[i]));
            let round = solver.new_var().pos();
            enc.assert_under(&self.aig, &mut solver, round, goal);
            let mut assumptions: Vec<Lit> = live.iter().map(|&i| acts[i]).collect();
            assumptions.push(round);
            self.solver_calls += 1;
            let unsliced = !joint && group.len() == 1 && hard[group[0]];
            let slice = match (joint, unsliced) {
                (true, _) => Some(JOINT_SLICE),
                (false, false) => Some(SINGLE_SLICE),
                (false, true) => None,
            };
            // Under a work cap the slices are counted in conflicts, not by the clock.
            let work = self.config.conflicts;
            match (slice, work) {
                (Some(slice), None) => {
                    let mut sliced = interrupt.clone();
                    let slice_end = std::time::Instant::now() + slice;
                    sliced.deadline = Some(phase_end.map_or(slice_end, |d| d.min(slice_end)));
                    solver.set_interrupt(sliced);
                }
                (Some(_), Some(cap)) => solver.limit_conflicts(cap),
                (None, Some(cap)) => solver.limit_conflicts(cap.saturating_mul(HARD_WORK)),
                (None, None) => {}
            }
            let asked = std::time::Instant::now();
            let result = solver.solve(&assumptions);
            let fast = work.is_none() && asked.elapsed() < SINGLE_SLICE / 8;
            if slice.is_some() && work.is_none() {
                solver.set_interrupt(interrupt.clone());
            }
            let sat = match result {
                SatResult::Sat => true,
                SatResult::Unsat => false,
                SatResult::Unknown => {
                    self.check()?;
                    if phase_end.is_some_and(|d| std::time::Instant::now() >= d) {
                        return Ok(Vec::new());
                    }
                    // The round's goal is never needed again.
                    solver.add_clause(&[!round]);
                    if unsliced {
                        if work.is_none() {
                            return Ok(Vec::new());
                        }
                        // Not shown within the cap: dropped, as a broken candidate is.
                        alive[group[0]] = false;
                        unsettle(&mut settled, &support, &alive);
                    } else if joint {
                        joint = false;
                    } else if group.len() > 1 {
                        width = (group.len() / 2).max(1);
                        ceiling = ceiling.min(width);
                    } else {
                        hard[group[0]] = true;
                    }
                    continue;
                }
            };
            let mut dropped = 0;
            // Read the model or the failed assumptions before any clause is added (that discards them).
            if sat {
                let lits: Vec<AigLit> = live.iter().map(|&i| after[i]).collect();
                for (&i, holds) in live.iter().zip(enc.values(&self.aig, &solver, &lits)) {
                    if !holds {
                        alive[i] = false;
                        dropped += 1;
                    }
                }
            } else if !joint {
                let assumed: Vec<usize> = live.iter().copied().filter(|&j| solver.failed(acts[j])).collect();
                for &i in &group {
                    settled[i] = true;
                    support[i] = assumed.clone();
                }
                if fast {
                    width = (width * 2).min(ceiling);
                }
            }
            // The round's goal is never needed again.
            solver.add_clause(&[!round]);
            if !sat && joint {
                break;
            }
            if sat {
                assert!(dropped > 0, "a model of the Houdini query breaks some candidate");
                unsettle(&mut settled, &support, &alive);
            }
        }
        let mut k = 0;
        cands.retain(|_| {
            k += 1;
            alive[k - 1]
        });
        Ok(cands)
    }

    /// Whether no step from a state (at any cut point) that satisfies `invariants` can be bad for
    /// `goal`: the step case at k = 0.
    fn inductive(&mut self, invariants: &[Candidate], goal: Goal) -> H<bool> {
        let mut solver = self.solver();
        let mut enc = Encoder::default();
        let (pc, vars) = self.ts.fresh_state(&mut self.aig);
        let valid = self.ts.pc_valid(&mut self.aig, &pc);
        let inv = self.holds(invariants, &pc, &vars);
        enc.assert(&self.aig, &mut solver, valid);
        enc.assert(&self.aig, &mut solver, inv);
        let st = self.encode(&pc, &vars)?;
        let bad = self.bad(&st, goal);
        let bad = enc.lit(&self.aig, &mut solver, bad);
        // A query the work cap leaves open: not shown inductive.
        Ok(self.solve_capped(&mut solver, &[bad], self.config.conflicts)? == Some(false))
    }

    /// Where a step is bad for `goal`.
    fn bad(&mut self, st: &Step, goal: Goal) -> AigLit {
        match goal {
            Goal::Property => self.aig.or(st.err, st.ub),
            Goal::Taken(targets) => {
                let lits: Vec<AigLit> =
                    st.taken.iter().filter(|(ie, _)| targets[*ie as usize]).map(|&(_, l)| l).collect();
                self.aig.or_all(lits)
            }
        }
    }

    /// `proven` (invariants) without those that `known` and the others of `proven` imply at their cut
    /// point, the later ones dropped first.
    fn without_implied(&mut self, mut proven: Vec<Candidate>, known: &[Candidate]) -> H<Vec<Candidate>> {
        if proven.len() < 2 {
            return Ok(proven);
        }
        let mut solver = self.solver();
        let mut enc = Encoder::default();
        let (pc, vars) = self.ts.fresh_state(&mut self.aig);
        let known = self.holds(known, &pc, &vars);
        enc.assert(&self.aig, &mut solver, known);
        let mut acts = Vec::with_capacity(proven.len());
        let mut holds = Vec::with_capacity(proven.len());
        for c in &proven {
            let h = self.candidate_holds(c, &pc, &vars);
            let act = solver.new_var().pos();
            enc.assert_under(&self.aig, &mut solver, act, h);
            acts.push(act);
            holds.push(h);
        }
        let mut alive = vec![true; proven.len()];
        for i in (0..proven.len()).rev() {
            self.check()?;
            let at = pc.eq(&mut self.aig, &self.ts.pc_const(proven[i].cut));
            let broken = self.aig.and(at, !holds[i]);
            let mut assumptions: Vec<Lit> =
                (0..proven.len()).filter(|&j| j != i && alive[j]).map(|j| acts[j]).collect();
            assumptions.push(enc.lit(&self.aig, &mut solver, broken));
            // Left open by the work cap: kept (an implied invariant kept only costs time).
            if self.solve_capped(&mut solver, &assumptions, self.config.conflicts)? == Some(false) {
                alive[i] = false;
            }
        }
        let mut k = 0;
        proven.retain(|_| {
            k += 1;
            alive[k - 1]
        });
        Ok(proven)
    }

    /// The template candidates at every loop head.
    fn candidates(&self) -> Vec<Candidate> {
        let ts = &self.ts;
        let mut res = Vec::new();
        let consts = self.template_consts();
        for cut in 1..ts.cuts.len() as u32 {
            let scope = self.scope(cut);
            for &a in &scope {
                let r = ts.vars[a].repr;
                if r.signed {
                    res.push(Candidate { cut, kind: Template::NonNeg(a), signed: false });
                }
                res.push(Candidate { cut, kind: Template::Parity(a, false), signed: false });
                res.push(Candidate { cut, kind: Template::Parity(a, true), signed: false });
                for &c in &consts {
                    // Only constants the variable's type holds.
                    if holds_constant(r, c) {
                        res.push(Candidate { cut, kind: Template::AtMost(a, c), signed: false });
                        // `0 <= v` holds of every unsigned value.
                        if r.signed || c != 0 {
                            res.push(Candidate { cut, kind: Template::AtLeast(a, c), signed: false });
                        }
                    }
                }
            }
            for (x, &a) in scope.iter().enumerate() {
                for &b in &scope[x + 1..] {
                    let (ra, rb) = (ts.vars[a].repr, ts.vars[b].repr);
                    if ra.bits != rb.bits {
                        continue;
                    }
                    res.push(Candidate { cut, kind: Template::Eq(a, b), signed: false });
                    if ra.signed == rb.signed {
                        for (p, q) in [(a, b), (b, a)] {
                            res.push(Candidate { cut, kind: Template::Le(p, q, ra.signed), signed: false });
                            res.push(Candidate { cut, kind: Template::Lt(p, q, ra.signed), signed: false });
                        }
                    }
                }
            }
            if scope.len() <= MAX_SUM_SCOPE {
                for &s in &scope {
                    for (x, &a) in scope.iter().enumerate() {
                        for &b in &scope[x + 1..] {
                            let w = ts.vars[s].repr.bits;
                            if a != s && b != s && ts.vars[a].repr.bits == w && ts.vars[b].repr.bits == w {
                                res.push(Candidate { cut, kind: Template::Sum(a, b, s), signed: false });
                            }
                        }
                    }
                }
            }
        }
        for c in &mut res {
            c.signed = c.kind.first().is_some_and(|a| ts.vars[a].repr.signed);
        }
        // A template a state of the simulated runs breaks is no invariant (that state is
        // reachable): left out, it costs Houdini no model and the cap no place.
        res.retain(|c| {
            self.samples.get(c.cut as usize).is_none_or(|at| at.iter().all(|s| template_holds(c, s, &ts.vars)))
        });
        // The cap takes the cut points in turn, each's templates in the order above (one variable's
        // first): a cut point left without candidates would let its states be anything, and every
        // candidate after it would fall.
        let mut rank = vec![0u32; ts.cuts.len()];
        let mut keyed: Vec<(u32, u32, Candidate)> = res
            .into_iter()
            .map(|c| {
                rank[c.cut as usize] += 1;
                (rank[c.cut as usize], c.cut, c)
            })
            .collect();
        if keyed.len() > self.config.max_candidates {
            keyed.sort_by_key(|&(r, cut, _)| (r, cut));
            keyed.truncate(self.config.max_candidates);
            keyed.sort_by_key(|&(r, cut, _)| (cut, r));
        }
        keyed.into_iter().map(|(_, _, c)| c).collect()
    }

    /// The state variables (indices into `Ts::vars`) in scope at cut point `cut`, but for 1-bit
    /// ones: the globals and the variables of its context and of its callers.
    fn scope(&self, cut: u32) -> Vec<usize> {
        let ts = &self.ts;
        let ctx = ts.nodes[ts.cuts[cut as usize] as usize].ctx;
        let mut chain = vec![ctx];
        let mut c = ts.ctxs[ctx as usize].parent;
        while let Some(p) = c {
            chain.push(p);
            c = ts.ctxs[p as usize].parent;
        }
        (0..ts.vars.len())
            .filter(|&i| ts.vars[i].ctx.is_none_or(|c| chain.contains(&c)))
            .filter(|&i| ts.vars[i].repr.bits > 1)
            .collect()
    }

    /// The program variables a step from cut point `cut` may write (over-approximated: any variable
    /// an assigned lvalue names, declared, or a called function's parameter).
    fn written_by_steps(&self, cut: u32) -> std::collections::BTreeSet<crate::cfront::ir::VarId> {
        use crate::cfa::EdgeKind;
        use crate::cfront::ir::{Expr, ExprKind, VarId};
        fn names(e: &Expr, out: &mut std::collections::BTreeSet<VarId>) {
            if let ExprKind::Var(v) = e.kind {
                out.insert(v);
            }
            e.for_each_child(|c| names(c, out));
        }
        let ts = &self.ts;
        let mut written = std::collections::BTreeSet::new();
        let mut seen = vec![false; ts.nodes.len()];
        let mut todo = vec![ts.cuts[cut as usize]];
        while let Some(v) = todo.pop() {
            for &ie in ts.out_edges(v) {
                let edge = ts.edges[ie as usize];
                match &self.cfa.edge(edge.edge).kind {
                    EdgeKind::Assign { lhs, .. } | EdgeKind::ExternCall { lhs: Some(lhs), .. } => {
                        names(lhs, &mut written)
                    }
                    EdgeKind::Decl { var, .. } => {
                        written.insert(*var);
                    }
                    EdgeKind::Return(cs) => {
                        if let Some(lhs) = &self.cfa.call_site(*cs).lhs {
                            names(lhs, &mut written);
                        }
                    }
                    EdgeKind::Call(cs) => written.extend(self.prog.func(self.cfa.call_site(*cs).callee).params.iter()),
                    _ => {}
                }
                if let ts::Target::Node(w) = edge.dst {
                    if ts.cut_of(w).is_none() && !seen[w as usize] {
                        seen[w as usize] = true;
                        todo.push(w);
                    }
                }
            }
        }
        written
    }

    /// Candidates from simulated runs (`verify::sample`): at every loop head, the affine equalities
    /// over the variables in scope (of at most 64 bits) and the bounds over those of at most 32
    /// bits that every sampled state there satisfies.
    fn sampled_candidates(&mut self) -> (Vec<Candidate>, Vec<Candidate>) {
        let budget = &self.config.budget;
        let Ok(samples) = sample::simulate(&self.ts, &self.consts, &|| budget.exhausted().is_some()) else {
            return (Vec::new(), Vec::new());
        };
        self.samples = samples;
        let samples = &self.samples;
        let mut res = Vec::new();
        let mut polys = Vec::new();
        for cut in 1..self.ts.cuts.len() as u32 {
            let scope: Vec<usize> = self.scope(cut).into_iter().filter(|&i| self.ts.vars[i].repr.bits <= 64).collect();
            let mut widths: Vec<u32> = scope.iter().map(|&v| self.ts.vars[v].repr.bits).collect();
            widths.sort_unstable();
            widths.dedup();
            for &bits in &widths {
                // Narrower variables join the widest polynomials extended (`poly::EXT_BITS`).
                let fits = |b: u32| b == bits || bits == poly::EXT_BITS && b < bits;
                let vars: Vec<usize> = scope.iter().copied().filter(|&v| fits(self.ts.vars[v].repr.bits)).collect();
                for eq in sample::poly_equalities(cut, &samples[cut as usize], &vars, bits) {
                    polys.push(Candidate { cut, kind: Template::Poly(self.polys.len()), signed: false });
                    self.polys.push(eq);
                }
            }
            for bits in widths {
                let vars: Vec<usize> = scope.iter().copied().filter(|&v| self.ts.vars[v].repr.bits == bits).collect();
                for eq in sample::modular_equalities(cut, &samples[cut as usize], &vars, bits) {
                    res.push(Candidate { cut, kind: Template::Poly(self.polys.len()), signed: false });
                    self.polys.push(eq);
                }
            }
            for eq in sample::equalities(cut, &samples[cut as usize], &scope) {
                // `a + b == s` of one width: the templates have it already (`candidates`). A
                // variable constant and two variables equal are templates too, but may need an
                // equality of this phase to be proven (`x == 0` where `x` is computed as `d - 2*p`
                // and `d == 2*p` holds modulo 2^32), so they are asked again here.
                let width = |v: usize| self.ts.vars[v].repr.bits;
                let plain = match eq.terms.as_slice() {
                    &[(a, ka), (b, kb), (c, kc)] => {
                        eq.constant == 0
                            && [ka, kb, kc].iter().all(|k| k.abs() == 1)
                            && ka + kb + kc != 3 * ka.signum()
                            && width(a) == width(b)
                            && width(b) == width(c)
                            && scope.len() <= MAX_SUM_SCOPE
                    }
                    _ => false,
                };
                // Coefficients a C constant of 64 bits writes as they are (`describe`).
                let big = |k: i128| k.unsigned_abs() >= 1 << 62;
                if plain || big(eq.constant) || eq.terms.iter().any(|&(_, k)| big(k)) {
                    continue;
                }
                res.push(Candidate { cut, kind: Template::Linear(self.linear.len()), signed: false });
                self.linear.push(eq);
            }
            let width = |v: usize| self.ts.vars[v].repr.bits;
            for (v, t, low) in sample::low_bits(&samples[cut as usize], &scope, &width) {
                res.push(Candidate { cut, kind: Template::LowBits(v, t, low), signed: false });
            }
            // Bounds over variables of at most 32 bits: with coefficients of at most 3, exact in 64.
            let narrow: Vec<usize> = scope.iter().copied().filter(|&i| self.ts.vars[i].repr.bits <= 32).collect();
            let range = |v: usize| value_range(self.ts.vars[v].repr);
            for b in sample::bounds(cut, &samples[cut as usize], &narrow, &range) {
                res.push(Candidate { cut, kind: Template::Linear(self.linear.len()), signed: false });
                self.linear.push(b);
            }
        }
        (res, polys)
    }

    /// Disjunctions `a || b` at each loop head that every state the simulated runs visited there
    /// satisfies, `a` a one-variable template: the comparisons of a variable with a constant the
    /// program makes (`x < 65520`, `y > 0`, either way round), signs (`n <= 0`) and parities.
    /// - `b` one of those too (not a sign): pairs neither of whose sides holds of every sample first.
    /// - `b` what the samples where `a` is false share and the others do not (the samples split by
    ///   `a`, not a parity): a parity, or a relation `±v ± w <= c` with `|c| <= 16`
    ///   (`n <= 0 || i - n <= 1`: after `for (i = 0; i < n; i += 2)`, unless `n` was negative).
    ///
    /// Left out: a pair one of whose sides is proven already (`known`), pairs over the same variable
    /// that say no more than one side, and cut points with fewer than three samples; at most
    /// `MAX_DISJUNCTIONS` of each kind per cut point.
    fn disjunctive_candidates(&mut self, known: &[Candidate]) -> Vec<Candidate> {
        use crate::cfront::ir::BinOp;
        let mut comparisons = Vec::new();
        for ie in &self.ts.edges {
            for_each_expr(self.cfa, ie.edge, &mut |e| var_const_comparisons(e, &mut comparisons));
        }
        comparisons.sort_unstable_by_key(|&(v, op, c)| (v, op as u8, c));
        comparisons.dedup();
        let mut res = Vec::new();
        for cut in 1..self.ts.cuts.len() as u32 {
            let Some(samples) = self.samples.get(cut as usize).filter(|s| s.len() >= 3) else { continue };
            let scope = self.scope(cut);
            let mut atoms: Vec<Template> = Vec::new();
            for &v in &scope {
                let r = self.ts.vars[v].repr;
                for &(_, op, c) in comparisons.iter().filter(|&&(var, _, _)| var == self.ts.vars[v].var) {
                    // The comparison and its negation, as `v <= k` and `k <= v`.
                    let (at_most, at_least) = match op {
                        BinOp::Lt | BinOp::Ge => (c - 1, c),
                        BinOp::Le | BinOp::Gt => (c, c + 1),
                        _ => continue,
                    };
                    for t in [Template::AtMost(v, at_most), Template::AtLeast(v, at_least)] {
                        let k = match t {
                            Template::AtMost(_, k) | Template::AtLeast(_, k) => k,
                            _ => unreachable!(),
                        };
                        if holds_constant(r, k) && !atoms.contains(&t) {
                            atoms.push(t);
                        }
                    }
                }
                atoms.push(Template::Parity(v, false));
                atoms.push(Template::Parity(v, true));
            }
            // The comparisons and signs, for splitting the samples below.
            let mut splits: Vec<Template> =
                atoms.iter().copied().filter(|t| !matches!(t, Template::Parity(..))).collect();
            for &v in &scope {
                for t in [Template::AtMost(v, 0), Template::AtLeast(v, 0)] {
                    let unsigned_floor = !self.ts.vars[v].repr.signed && matches!(t, Template::AtLeast(..));
                    if !unsigned_floor && !splits.contains(&t) {
                        splits.push(t);
                    }
                }
            }
            let atom = |kind: Template| {
                let signed = kind.first().is_some_and(|a| self.ts.vars[a].repr.signed);
                Candidate { cut, kind, signed }
            };
            let on_samples = |c: &Candidate| samples.iter().map(|s| sample_holds(c, s)).collect::<Vec<bool>>();
            let values: Vec<Vec<bool>> = atoms.iter().map(|&t| on_samples(&atom(t))).collect();
            let (mut strict, mut loose) = (Vec::new(), Vec::new());
            for i in 0..atoms.len() {
                for j in i + 1..atoms.len() {
                    let (a, b) = (atom(atoms[i]), atom(atoms[j]));
                    if a.kind.first() == b.kind.first() && !complementary(a.kind, b.kind) {
                        continue;
                    }
                    if known.contains(&a) || known.contains(&b) {
                        continue;
                    }
                    if !values[i].iter().zip(&values[j]).all(|(&x, &y)| x || y) {
                        continue;
                    }
                    let alone = values[i].iter().all(|&x| x) || values[j].iter().all(|&y| y);
                    if alone { &mut loose } else { &mut strict }.push((a, b));
                }
            }
            // `a || b` with `b` a bound (`sample::bounds`) of the samples where `a` is false that some
            // sample where `a` holds breaks: `n <= 0 || i - n <= 1`.
            let narrow: Vec<usize> = scope.iter().copied().filter(|&i| self.ts.vars[i].repr.bits <= 32).collect();
            let range = |v: usize| value_range(self.ts.vars[v].repr);
            // Per split: the bounds some other sample breaks, and those every sample satisfies.
            // With whether the split's variable is a mode (no step from here writes it).
            #[allow(clippy::type_complexity)]
            let mut split_bounds: Vec<(bool, Vec<(Candidate, Linear)>, Vec<(Candidate, Linear)>)> = Vec::new();
            let written = self.written_by_steps(cut);
            let mut split_parities = Vec::new();
            for &t in &splits {
                let a = atom(t);
                if known.contains(&a) {
                    continue;
                }
                let rest: Vec<Vec<i128>> = samples.iter().filter(|s| !sample_holds(&a, s)).cloned().collect();
                if rest.len() < 3 || rest.len() == samples.len() {
                    continue;
                }
                // Parities the samples where `a` is false share.
                for &v in &scope {
                    for odd in [false, true] {
                        let p = atom(Template::Parity(v, odd));
                        let holds_rest = rest.iter().all(|s| sample_holds(&p, s));
                        if holds_rest && !samples.iter().all(|s| sample_holds(&p, s)) && !known.contains(&p) {
                            split_parities.push((a, p));
                        }
                    }
                }
                // Relations between two variables with a small constant (a bound on one variable
                // of the samples that happen to be drawn says little): those some other sample
                // breaks, and those all satisfy (perhaps inductive only where `a` is false).
                let (mut strict, mut loose) = (Vec::new(), Vec::new());
                for b in sample::bounds_of(cut, &rest, &narrow, &range, true) {
                    let unit = b.terms.iter().all(|&(_, k)| k.abs() == 1);
                    if b.terms.len() == 2 && unit && b.constant.abs() <= 16 {
                        let everywhere = samples.iter().all(|s| b.holds(s));
                        if everywhere { &mut loose } else { &mut strict }.push((a, b));
                    }
                }
                let mode = t.first().is_some_and(|v| !written.contains(&self.ts.vars[v].var));
                split_bounds.push((mode, strict, loose));
            }
            for pair in strict.into_iter().chain(split_parities).chain(loose).take(MAX_DISJUNCTIONS) {
                res.push(Candidate { cut, kind: Template::Or(self.disjunctions.len()), signed: false });
                self.disjunctions.push(pair);
            }
            // The splits over a variable no step from here writes first (a mode the loop keeps,
            // as `flag` or `n`), then those that tell the samples apart the most (by their bounds
            // the others break); from each, its bounds the others break, then the rest, at most
            // `MAX_SPLIT_BOUNDS`.
            split_bounds.sort_by_key(|(mode, strict, _)| (!mode, std::cmp::Reverse(strict.len())));
            let split_bounds = split_bounds
                .into_iter()
                .flat_map(|(_, strict, loose)| strict.into_iter().chain(loose).take(MAX_SPLIT_BOUNDS));
            for (a, bound) in split_bounds.take(MAX_DISJUNCTIONS) {
                let b = Candidate { cut, kind: Template::Linear(self.linear.len()), signed: false };
                self.linear.push(bound);
                res.push(Candidate { cut, kind: Template::Or(self.disjunctions.len()), signed: false });
                self.disjunctions.push((a, b));
            }
        }
        res
    }

    /// Of the polynomial candidates `cands`, those the algebra of `verify::poly` proves (none if the
    /// transition system's steps have too many paths to follow), and how many conditions of the
    /// program they refute (now blocked in the transition system).
    fn proven_polys(&mut self, cands: Vec<Candidate>) -> (Vec<Candidate>, usize) {
        let Some(walk) = poly::walk(&self.ts) else { return (Vec::new(), 0) };
        let eqs: Vec<PolyEq> = cands
            .iter()
            .map(|c| match c.kind {
                Template::Poly(i) => self.polys[i].clone(),
                _ => unreachable!("polynomial candidates only"),
            })
            .collect();
        self.mul_order = self.products();
        let budget = &self.config.budget;
        let alive = poly::prove(&walk, &eqs, &|| budget.exhausted().is_some());
        // What they make false is taken out of the steps: a comparison of the program the
        // invariants decide need not be decided again by SAT inside multipliers.
        let mut blocked = 0;
        if alive.iter().any(|&a| a) {
            let refuted = poly::refuted(&walk, &eqs, &alive);
            self.ts.block(&refuted);
            blocked = refuted.len();
        }
        (cands.into_iter().zip(alive).filter(|(_, a)| *a).map(|(c, _)| c).collect(), blocked)
    }

    /// The pairs of state variables `(a, b)` the reachable code multiplies as `a * b` (through
    /// conversions).
    fn products(&self) -> std::collections::BTreeSet<(usize, usize)> {
        use crate::cfa::EdgeKind;
        use crate::cfront::ir::{BinOp, Expr, ExprKind};
        fn visit(e: &Expr, out: &mut Vec<(crate::cfront::ir::VarId, crate::cfront::ir::VarId)>) {
            let var = |x: &Expr| match &x.strip_implicit().kind {
                ExprKind::Var(v) => Some(*v),
                ExprKind::Cast(y, _) => match &y.kind {
                    ExprKind::Var(v) => Some(*v),
                    _ => None,
                },
                _ => None,
            };
            match &e.kind {
                ExprKind::Binary(op, a, b) => {
                    if let (BinOp::Mul, Some(x), Some(y)) = (op, var(a), var(b)) {
                        out.push((x, y));
                    }
                    visit(a, out);
                    visit(b, out);
                }
                ExprKind::Unary(_, a) | ExprKind::Cast(a, _) => visit(a, out),
                ExprKind::Cond(a, b, c) => [a, b, c].into_iter().for_each(|x| visit(x, out)),
                ExprKind::Comma(a, b) => {
                    visit(a, out);
                    visit(b, out);
                }
                _ => {}
            }
        }
        let ts = &self.ts;
        let mut res = std::collections::BTreeSet::new();
        for ie in &ts.edges {
            let ctx = ts.nodes[ie.src as usize].ctx;
            let mut found = Vec::new();
            match &self.cfa.edge(ie.edge).kind {
                EdgeKind::Assign { rhs: x, .. } | EdgeKind::Assume { cond: x, .. } | EdgeKind::Eval(x) => {
                    visit(x, &mut found)
                }
                EdgeKind::ReturnStmt(Some(x)) => visit(x, &mut found),
                EdgeKind::Call(cs) => self.cfa.call_site(*cs).args.iter().for_each(|a| visit(a, &mut found)),
                _ => {}
            }
            for (x, y) in found {
                if let (Some(a), Some(b)) = (ts.var_of(x, ctx), ts.var_of(y, ctx)) {
                    res.insert((a as usize, b as usize));
                }
            }
        }
        res
    }

    /// The proven invariants `proven` as C expressions at CFA loop heads, in proof order: those that
    /// have a C form and hold at every cut point of their loop head (one per context its function is
    /// inlined in); an invariant of one context alone is not one of the loop in the C program.
    fn describe_all(&self, proven: &[Candidate]) -> Vec<Invariant> {
        use std::collections::{BTreeMap, BTreeSet};
        let mut n_cuts: BTreeMap<crate::cfa::NodeId, usize> = BTreeMap::new();
        for &v in &self.ts.cuts[1..] {
            *n_cuts.entry(self.ts.nodes[v as usize].cfa).or_default() += 1;
        }
        let described: Vec<(u32, Invariant)> =
            proven.iter().filter_map(|c| self.describe(c).map(|inv| (c.cut, inv))).collect();
        // Keyed by the variables too: one name may stand for a global in one context and for a
        // caller's local in another.
        type Key<'i> = (crate::cfa::NodeId, &'i str, &'i [crate::cfront::ir::VarId]);
        let mut cuts_of: BTreeMap<Key, BTreeSet<u32>> = BTreeMap::new();
        for (cut, inv) in &described {
            cuts_of.entry((inv.node, inv.expr.as_str(), inv.vars.as_slice())).or_default().insert(*cut);
        }
        let mut seen = BTreeSet::new();
        let mut res = Vec::new();
        for (_, inv) in &described {
            let key = (inv.node, inv.expr.as_str(), inv.vars.as_slice());
            if cuts_of[&key].len() == n_cuts[&inv.node] && seen.insert(key) {
                res.push(inv.clone());
            }
        }
        res
    }

    /// The invariant `c` as a C expression (`Invariant::expr`), or `None` when its variables are of a
    /// width C has no standard integer type for.
    fn describe(&self, c: &Candidate) -> Option<Invariant> {
        let node = self.ts.nodes[self.ts.cuts[c.cut as usize] as usize];
        let var = |i: usize| &self.ts.vars[i];
        let name = |i: usize| self.prog.var(var(i).var).name.clone();
        // The unsigned type of a variable's width, for comparing bits or adding modulo the width.
        let unsigned = |i: usize| c_int_type(var(i).repr.bits, false);
        let (expr, vars) = match c.kind {
            Template::Or(i) => {
                let (a, b) = self.disjunctions[i];
                let (a, b) = (self.describe(&a)?, self.describe(&b)?);
                let mut vars = a.vars;
                for v in b.vars {
                    if !vars.contains(&v) {
                        vars.push(v);
                    }
                }
                let expr = format!("({}) || ({})", a.expr, b.expr);
                return Some(Invariant { expr, vars, ..a });
            }
            Template::NonNeg(a) => (format!("0 <= {}", name(a)), vec![a]),
            Template::Parity(a, true) => (format!("{} % 2 != 0", name(a)), vec![a]),
            Template::Parity(a, false) => (format!("{} % 2 == 0", name(a)), vec![a]),
            Template::LowBits(a, t, low) => {
                // In the unsigned type of the width (of at least `unsigned int`'s: no promotion).
                let ty = c_int_type(var(a).repr.bits.max(32), false)?;
                let suffix = if var(a).repr.bits > 32 { "ULL" } else { "U" };
                let m = (1u128 << t) - 1;
                (format!("(({ty}){} & {m}{suffix}) == {low}{suffix}", name(a)), vec![a])
            }
            Template::AtMost(a, k) => {
                (format!("{} <= {}", name(a), c_literal(k, var(a).repr.bits, var(a).repr.signed)?), vec![a])
            }
            Template::AtLeast(a, k) => {
                (format!("{} <= {}", c_literal(k, var(a).repr.bits, var(a).repr.signed)?, name(a)), vec![a])
            }
            Template::Eq(a, b) if var(a).repr.signed == var(b).repr.signed => {
                c_int_type(var(a).repr.bits, false)?;
                (format!("{} == {}", name(a), name(b)), vec![a, b])
            }
            Template::Eq(a, b) => {
                let u = unsigned(a)?;
                (format!("({u}){} == ({u}){}", name(a), name(b)), vec![a, b])
            }
            Template::Le(a, b, _) => {
                c_int_type(var(a).repr.bits, false)?;
                (format!("{} <= {}", name(a), name(b)), vec![a, b])
            }
            Template::Lt(a, b, _) => {
                c_int_type(var(a).repr.bits, false)?;
                (format!("{} < {}", name(a), name(b)), vec![a, b])
            }
            Template::Sum(a, b, s) => {
                let u = unsigned(s)?;
                // Unsigned arithmetic of at least `int`'s width is modular in C already; otherwise
                // the sum is taken in the unsigned type (no overflow) and cut to the width.
                let modular = [a, b, s].iter().all(|&i| !var(i).repr.signed && var(i).repr.bits >= 32);
                let expr = if modular {
                    format!("{} + {} == {}", name(a), name(b), name(s))
                } else {
                    format!("({u})(({u}){} + ({u}){}) == ({u}){}", name(a), name(b), name(s))
                };
                (expr, vec![a, b, s])
            }
            Template::Poly(i) => {
                let eq = &self.polys[i];
                // `a - b == 0` and `s - a - b == 0` over variables of the equality's width say what
                // the templates `Eq` and `Sum` say (equal bits, a sum modulo the width): written as
                // those, `x == y` rather than `(unsigned int)x - (unsigned int)y == 0U`.
                let plain: Option<Vec<(usize, bool)>> = eq
                    .terms
                    .iter()
                    .map(|(m, k)| match m[..] {
                        [v] if k.abs() == 1 && var(v).repr.bits == eq.bits => Some((v, *k > 0)),
                        _ => None,
                    })
                    .collect();
                let as_template = match plain.as_deref() {
                    Some(&[(a, pa), (b, pb)]) if pa != pb => Some(Template::Eq(a, b)),
                    Some(&[(a, pa), (b, pb), (d, pd)]) if !(pa == pb && pb == pd) => {
                        // The one whose sign differs from the other two's is the sum.
                        Some(if pb == pd {
                            Template::Sum(b, d, a)
                        } else if pa == pd {
                            Template::Sum(a, d, b)
                        } else {
                            Template::Sum(a, b, d)
                        })
                    }
                    _ => None,
                };
                if let Some(kind) = as_template {
                    return self.describe(&Candidate { cut: c.cut, kind, signed: false });
                }
                // Modular arithmetic in the unsigned type of the variables' width (of at least
                // `unsigned int`'s, so that nothing is promoted to `int`), cut to the width.
                let ty = c_int_type(eq.bits.max(32), false)?;
                let suffix = if eq.bits > 32 { "ULL" } else { "U" };
                let mut expr = String::new();
                for (k, (m, coeff)) in eq.terms.iter().enumerate() {
                    expr.push_str(match (*coeff < 0, k) {
                        (true, 0) => "-",
                        (true, _) => " - ",
                        (false, 0) => "",
                        (false, _) => " + ",
                    });
                    let factors: Vec<String> = m.iter().map(|&v| format!("({ty}){}", name(v))).collect();
                    match (factors.is_empty(), coeff.unsigned_abs()) {
                        (true, k) => expr.push_str(&format!("{k}{suffix}")),
                        (false, 1) => expr.push_str(&factors.join(" * ")),
                        (false, k) => expr.push_str(&format!("{} * {k}{suffix}", factors.join(" * "))),
                    }
                }
                let expr = match eq.bits {
                    32 | 64 => format!("{expr} == 0{suffix}"),
                    b => format!("({})({expr}) == 0", c_int_type(b, false)?),
                };
                let mut vars: Vec<usize> = eq.terms.iter().flat_map(|(m, _)| m.iter().copied()).collect();
                vars.sort_unstable();
                vars.dedup();
                (expr, vars)
            }
            Template::Linear(i) => {
                // An equality in `unsigned long long`, modular as the candidate (a signed variable
                // converts by its value modulo 2^64, as sign extension does); a bound in `long long`
                // (no overflow: variables of at most 32 bits, coefficients of at most 3).
                let eq = &self.linear[i];
                let (ty, suffix, rel) =
                    if eq.at_most { ("long long", "LL", "<=") } else { ("unsigned long long", "ULL", "==") };
                let mut expr = String::new();
                for (k, &(v, coeff)) in eq.terms.iter().enumerate() {
                    expr.push_str(match (coeff < 0, k) {
                        (true, 0) => "-",
                        (true, _) => " - ",
                        (false, 0) => "",
                        (false, _) => " + ",
                    });
                    expr.push_str(&format!("({ty}){}", name(v)));
                    if coeff.abs() != 1 {
                        expr.push_str(&format!(" * {}{suffix}", coeff.unsigned_abs()));
                    }
                }
                match eq.constant {
                    0 => {}
                    c if c < 0 => expr.push_str(&format!(" - {}{suffix}", c.unsigned_abs())),
                    c => expr.push_str(&format!(" + {c}{suffix}")),
                }
                expr.push_str(&format!(" {rel} 0{suffix}"));
                (expr, eq.terms.iter().map(|&(v, _)| v).collect())
            }
        };
        let vars = vars.into_iter().map(|i| var(i).var).collect();
        Some(Invariant { node: node.cfa, func: self.ts.ctxs[node.ctx as usize].func, expr, vars })
    }
}

/// The C type of `bits`-bit integers of the given signedness (`int` is 32 bits and `long long` 64
/// in both data models), or `None` for other widths.
/// Houdini: the candidates shown to hold (`settled`) whose proof assumed one that is no longer
/// `alive` must be shown again.
fn unsettle(settled: &mut [bool], support: &[Vec<usize>], alive: &[bool]) {
    for (i, s) in settled.iter_mut().enumerate() {
        if *s && support[i].iter().any(|&j| !alive[j]) {
            *s = false;
        }
    }
}

fn c_int_type(bits: u32, signed: bool) -> Option<&'static str> {
    Some(match (bits, signed) {
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long long",
        (64, false) => "unsigned long long",
        _ => return None,
    })
}

/// `k` as a C constant whose type holds it and compares with a `bits`-bit variable without changing
/// the comparison (`U`, `LL`, `ULL` suffixes; the most negative value as a difference).
fn c_literal(k: i128, bits: u32, signed: bool) -> Option<String> {
    c_int_type(bits, signed)?;
    let suffix = match (bits, signed) {
        (64, true) => "LL",
        (64, false) => "ULL",
        (32, false) => "U",
        _ => "",
    };
    if signed && k == -(1i128 << (bits - 1)) {
        return Some(format!("(-{}{suffix} - 1)", (1i128 << (bits - 1)) - 1));
    }
    Some(format!("{k}{suffix}"))
}

/// Variables in scope at a loop head up to which `a + b == s` templates are tried.
const MAX_SUM_SCOPE: usize = 12;
/// How long a joint Houdini query may take before the candidates are asked in groups.
const JOINT_SLICE: std::time::Duration = std::time::Duration::from_millis(300);
/// The candidates of the first Houdini group once the joint query took too long (`houdini`): one,
/// as a hard candidate in a larger group would time it out.
const FIRST_GROUP: usize = 1;
/// The largest Houdini group.
const MAX_GROUP: usize = 1024;
/// How long the query of a group of candidates may take before it is halved (or, for one
/// candidate, asked again after the others).
const SINGLE_SLICE: std::time::Duration = std::time::Duration::from_millis(200);
/// How many depths `unreachable`'s base case unrolls before the invariants are proven.
const BASE_FIRST: u32 = 3;
/// The largest `k` `unreachable` tries without invariants, before it proves them.
const EARLY_K: u32 = 2;
/// Under a work cap (`KindConfig::conflicts`), how many caps a candidate's last query may take.
const HARD_WORK: i32 = 4;

/// Whether a variable of representation `r` can hold `c` (any constant, for 128 bits).
fn holds_constant(r: crate::symex::semantics::Repr, c: i128) -> bool {
    if r.bits >= 127 {
        return r.signed || c >= 0;
    }
    let (least, greatest) = value_range(r);
    least <= c && c <= greatest
}

/// The least and greatest values of a representation of at most 126 bits.
fn value_range(r: crate::symex::semantics::Repr) -> (i128, i128) {
    let bits = r.bits as i128;
    if r.signed {
        (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    } else {
        (0, (1 << bits) - 1)
    }
}

/// Disjunctions tried per loop head at most.
const MAX_DISJUNCTIONS: usize = 48;
/// Disjunctions with a bound per split of the samples at most (`Engine::disjunctive_candidates`).
const MAX_SPLIT_BOUNDS: usize = 12;

/// Whether two one-variable templates over the same variable say more together (`a || b`) than
/// either alone: `v <= k` or `l <= v` with a gap between them (`k + 1 < l`), or a bound and a parity.
fn complementary(a: Template, b: Template) -> bool {
    match (a, b) {
        (Template::AtMost(_, k), Template::AtLeast(_, l)) | (Template::AtLeast(_, l), Template::AtMost(_, k)) => {
            k + 1 < l
        }
        (Template::Parity(..), Template::Parity(..)) => false,
        (Template::Parity(..), _) | (_, Template::Parity(..)) => true,
        _ => false,
    }
}

/// Whether a sampled state (values signed as each variable's type) satisfies a one-variable
/// template; anything else counts as satisfied (the proof decides).
fn sample_holds(c: &Candidate, s: &[i128]) -> bool {
    match c.kind {
        Template::AtMost(v, k) => s[v] <= k,
        Template::AtLeast(v, k) => k <= s[v],
        Template::Parity(v, odd) => (s[v] & 1 == 1) == odd,
        _ => true,
    }
}

/// Lowers the scheduling priority of the calling thread alone (`KindConfig::yield_from_k`); where
/// that cannot be done, nothing changes (it only affects how the CPU is shared, never an answer).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` and `setpriority` only read their arguments; on Linux, a thread id as the
    // `PRIO_PROCESS` target names that thread only.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, YIELD_NICE);
    }
}

/// The nice value of a thread past `KindConfig::yield_from_k` (CFS gives a nice-0 thread about
/// nine times its share).
#[cfg(target_os = "linux")]
const YIELD_NICE: libc::c_int = 10;

/// The state variables above which k-induction yields from the start (`KindConfig::yield_from_k`;
/// a SystemC pipeline has 47, a ring of thirteen processes 815).
const YIELD_VARS: usize = 256;

/// Whether a sampled state (values signed as each variable's type) satisfies a template of
/// `Engine::candidates`, two-variable ones included (compared as the circuit compares them: `Eq`
/// and `Sum` by their bits); anything else counts as satisfied.
fn template_holds(c: &Candidate, s: &[i128], vars: &[ts::StateVar]) -> bool {
    let bits = |v: usize| mask(vars[v].repr.bits);
    match c.kind {
        Template::NonNeg(v) => s[v] >= 0,
        Template::Eq(a, b) => (s[a] - s[b]) as u128 & bits(a) == 0,
        // Generated only for variables of one signedness, in which the samples are read.
        Template::Le(a, b, _) => s[a] <= s[b],
        Template::Lt(a, b, _) => s[a] < s[b],
        Template::Sum(a, b, v) => (s[a] + s[b] - s[v]) as u128 & bits(v) == 0,
        _ => sample_holds(c, s),
    }
}

/// Calls `f` on each expression of edge `e` (a call edge: its arguments).
fn for_each_expr(cfa: &Cfa, e: EdgeId, f: &mut dyn FnMut(&crate::cfront::ir::Expr)) {
    use crate::cfa::EdgeKind;
    match &cfa.edge(e).kind {
        EdgeKind::Assign { lhs, rhs } => {
            f(lhs);
            f(rhs);
        }
        EdgeKind::Eval(x) | EdgeKind::Assume { cond: x, .. } | EdgeKind::ReturnStmt(Some(x)) => f(x),
        EdgeKind::ExternCall { lhs, callee, args } => {
            lhs.iter().chain(std::iter::once(callee)).chain(args).for_each(f);
        }
        EdgeKind::Call(cs) => cfa.call_site(*cs).args.iter().for_each(f),
        _ => {}
    }
}

/// The comparisons `v op c` (or `c op v`, turned round) of a variable with an integer constant in
/// `e` and its subexpressions, conversions stripped.
fn var_const_comparisons(
    e: &crate::cfront::ir::Expr,
    out: &mut Vec<(crate::cfront::ir::VarId, crate::cfront::ir::BinOp, i128)>,
) {
    use crate::cfront::ir::{BinOp, ExprKind};
    fn strip(mut x: &crate::cfront::ir::Expr) -> &crate::cfront::ir::Expr {
        while let ExprKind::Cast(inner, _) = &x.kind {
            x = inner;
        }
        x
    }
    if let ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) = &e.kind {
        let turned = |op: BinOp| match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            _ => BinOp::Le,
        };
        match (&strip(a).kind, &strip(b).kind) {
            (ExprKind::Var(v), ExprKind::IntConst(c)) => out.push((*v, *op, *c)),
            (ExprKind::IntConst(c), ExprKind::Var(v)) => out.push((*v, turned(*op), *c)),
            _ => {}
        }
    }
    e.for_each_child(|c| var_const_comparisons(c, out));
}

/// The width in which `eq` is evaluated: 64 bits (its meaning, `Template::Linear`), or the fewest
/// signed bits that hold every value its sum can take (the same constraint then, exactly).
fn linear_width(eq: &Linear, state: &[ts::StateVar]) -> u32 {
    let mut most = eq.constant.unsigned_abs();
    for &(v, k) in &eq.terms {
        let r = state[v].repr;
        if r.bits >= 64 {
            return 64;
        }
        let magnitude = if r.signed { 1u128 << (r.bits - 1) } else { (1u128 << r.bits) - 1 };
        most = most.saturating_add(k.unsigned_abs().saturating_mul(magnitude));
    }
    // `most` and `-most` in two's complement: its bits and a sign bit.
    let bits = 128 - most.leading_zeros() + 1;
    bits.clamp(2, 64)
}

/// A candidate invariant: a template instance at a cut point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Candidate {
    cut: u32,
    kind: Template,
    /// Whether the template's first variable is signed (for the bounds).
    signed: bool,
}

/// Templates over state variables (indices into `Ts::vars`), compared in their own type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Template {
    /// A signed variable is not negative.
    NonNeg(usize),
    /// The lowest bit of a variable is 1 (odd) or 0 (even).
    Parity(usize, bool),
    /// The `t` lowest bits of a variable are those of a constant (`x ≡ c (mod 2^t)`).
    LowBits(usize, u32, u64),
    /// A variable is at most a constant, in its signedness.
    AtMost(usize, i128),
    /// A variable is at least a constant, in its signedness.
    AtLeast(usize, i128),
    /// Two variables of one width are equal.
    Eq(usize, usize),
    /// `a <= b`, signed or not as both variables.
    Le(usize, usize, bool),
    /// `a < b`, signed or not as both variables.
    Lt(usize, usize, bool),
    /// `a + b == s`, modulo the common width.
    Sum(usize, usize, usize),
    /// The linear constraint `Engine::linear[i]` in 64 bits (each variable sign- or zero-extended as
    /// its type): an equality modulo 2^64, a bound `≤ 0` signed (of variables of at most 32 bits and
    /// small coefficients: exact).
    Linear(usize),
    /// The polynomial equality `Engine::polys[i]`, modulo 2^bits of its variables (proven by
    /// `verify::poly`, not by Houdini).
    Poly(usize),
    /// The disjunction `Engine::disjunctions[i]` of two one-variable templates.
    Or(usize),
}

impl Template {
    /// The template's first variable (`None` for an affine equality, whose variables are elsewhere).
    fn first(self) -> Option<usize> {
        Some(match self {
            Template::NonNeg(a)
            | Template::Parity(a, _)
            | Template::LowBits(a, _, _)
            | Template::AtMost(a, _)
            | Template::AtLeast(a, _)
            | Template::Eq(a, _)
            | Template::Le(a, _, _)
            | Template::Lt(a, _, _)
            | Template::Sum(a, _, _) => a,
            Template::Linear(_) | Template::Poly(_) | Template::Or(_) => return None,
        })
    }
}

impl Candidate {
    fn eval(&self, aig: &mut Aig, vars: &[Bv], tables: &Tables, state: &[ts::StateVar]) -> AigLit {
        let linear = tables.linear;
        match self.kind {
            Template::Or(i) => {
                let (a, b) = tables.disjunctions[i];
                let a = a.eval(aig, vars, tables, state);
                let b = b.eval(aig, vars, tables, state);
                aig.or(a, b)
            }
            Template::Poly(i) => {
                // `Σ_{k>0} k·m == Σ_{k<0} -k·m` modulo 2^bits, each product of two variables in the
                // order the program multiplies them (the same circuit as the program's, shared).
                let eq = &tables.polys[i];
                let w = eq.bits;
                let (mut pos, mut neg) = (Bv::zero(w), Bv::zero(w));
                for (m, k) in &eq.terms {
                    let mut ops = m.clone();
                    if let [a, b] = ops[..] {
                        if tables.mul_order.contains(&(b, a)) && !tables.mul_order.contains(&(a, b)) {
                            ops = vec![b, a];
                        }
                    }
                    let scale = Bv::constant(k.unsigned_abs() & mask(w), w);
                    let term = match ops.split_first() {
                        None => scale,
                        Some((&first, rest)) => {
                            let ext = |v: usize| {
                                let r = state[v].repr;
                                match (r.bits < w, r.signed) {
                                    (false, _) => vars[v].clone(),
                                    (true, true) => vars[v].sext(w),
                                    (true, false) => vars[v].zext(w),
                                }
                            };
                            let t = rest.iter().fold(ext(first), |t, &v| t.mul(aig, &ext(v)));
                            if k.unsigned_abs() == 1 {
                                t
                            } else {
                                t.mul(aig, &scale)
                            }
                        }
                    };
                    if *k > 0 {
                        pos = pos.add(aig, &term);
                    } else {
                        neg = neg.add(aig, &term);
                    }
                }
                pos.eq(aig, &neg)
            }
            Template::Linear(i) => {
                let eq = &linear[i];
                // In 64 bits, or fewer when the sum of the terms' magnitudes fits: the same
                // constraint, a smaller circuit.
                let w = linear_width(eq, state);
                let mut sum = Bv::constant(eq.constant as u128 & mask(w), w);
                for &(v, k) in &eq.terms {
                    let x = if state[v].repr.signed { vars[v].sext(w) } else { vars[v].zext(w) };
                    let term = x.mul(aig, &Bv::constant(k as u128 & mask(w), w));
                    sum = sum.add(aig, &term);
                }
                if eq.at_most {
                    sum.sle(aig, &Bv::zero(w))
                } else {
                    sum.is_zero(aig)
                }
            }
            Template::NonNeg(a) => !vars[a].bit(vars[a].width() - 1),
            Template::Parity(a, odd) => vars[a].bit(0).xor_complement(!odd),
            Template::LowBits(a, t, low) => vars[a].trunc(t).eq(aig, &Bv::constant(low as u128, t)),
            Template::AtMost(a, c) | Template::AtLeast(a, c) => {
                let v = &vars[a];
                let k = Bv::constant(c as u128 & mask(v.width()), v.width());
                let signed = self.signed;
                match (matches!(self.kind, Template::AtMost(..)), signed) {
                    (true, true) => v.sle(aig, &k),
                    (true, false) => v.ule(aig, &k),
                    (false, true) => k.sle(aig, v),
                    (false, false) => k.ule(aig, v),
                }
            }
            Template::Eq(a, b) => vars[a].eq(aig, &vars[b]),
            Template::Le(a, b, signed) if signed => vars[a].sle(aig, &vars[b]),
            Template::Le(a, b, _) => vars[a].ule(aig, &vars[b]),
            Template::Lt(a, b, signed) if signed => vars[a].slt(aig, &vars[b]),
            Template::Lt(a, b, _) => vars[a].ult(aig, &vars[b]),
            Template::Sum(a, b, s) => {
                let sum = vars[a].add(aig, &vars[b]);
                sum.eq(aig, &vars[s])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfa::CfaConfig;
    use crate::cfront::types::DataModel;

    /// Runs the engine on `src` (with a generous limit) and renders what it established: `true by
    /// bmc`, `true by k-induction at k with N invariants`, `false after N steps: inputs`, or
    /// `unknown: why`.
    fn check(src: &str, expect: &str) {
        let got = match result(src) {
            KindResult::Proof(Proof { by: ProofKind::Bmc, .. }) => "true by bmc".to_string(),
            KindResult::Proof(Proof { by: ProofKind::KInduction, k, invariants }) => {
                let inv: Vec<_> = invariants.iter().map(|i| i.expr.clone()).collect();
                format!("true by k-induction at {k} with [{}]", inv.join(", "))
            }
            KindResult::Counterexample { depth, inputs, .. } => {
                let v: Vec<_> = inputs.iter().map(|i| i.signed().to_string()).collect();
                format!("false after {depth} steps: {}", v.join(" "))
            }
            KindResult::Unknown(why) => format!("unknown: {why}"),
        };
        assert_eq!(got, expect, "{src}");
    }

    /// The program `src` and its CFA.
    fn compile(src: &str) -> (Program, Cfa) {
        let file = crate::base::SourceFile::new("t.c", src.to_string());
        let (mut prog, _) = crate::cfront::parse_program(file, DataModel::Ilp32).expect("parses");
        let (cfa, _) = crate::cfa::build(&mut prog, &CfaConfig::default()).expect("builds");
        (prog, cfa)
    }

    /// What the engine establishes on `src` within a generous limit.
    fn result(src: &str) -> KindResult {
        let (prog, cfa) = compile(src);
        let config = KindConfig {
            budget: Budget::with_time_limit(std::time::Duration::from_secs(60)),
            max_k: 300,
            ..KindConfig::default()
        };
        run(&prog, &cfa, Property::UnreachCall, &config).0
    }

    const HEAD: &str =
        "void reach_error(void);\nunsigned int __VERIFIER_nondet_uint(void);\nint __VERIFIER_nondet_int(void);\n";

    /// What `unreachable` shows of each of `lines` of `src` (with or without invariants).
    fn unreached(src: &str, lines: &[u32], invariants: bool) -> Vec<Option<Unreached>> {
        let (prog, cfa) = compile(src);
        let config = KindConfig {
            budget: Budget::with_time_limit(std::time::Duration::from_secs(60)),
            max_k: 10,
            invariants,
            conflicts: Some(20_000),
            ..KindConfig::default()
        };
        let targets = cfa.edges_counting_for(lines, crate::cfa::LineRule::Spanned);
        assert!(targets.iter().all(|t| !t.is_empty()), "every line has an edge");
        unreachable(&prog, &cfa, Property::UnreachCall, &targets, &config, &mut |_| {}).0.proven
    }

    #[test]
    fn a_line_the_invariants_rule_out_is_never_reached_and_a_reachable_one_stays_open() {
        // Line 11 needs `x != y`: one step that avoids it keeps `x == y` (1-inductive, before any
        // invariant is proven); line 13 is reached.
        let src = format!("{HEAD}int main(void) {{\n  unsigned int x = __VERIFIER_nondet_uint();\n  unsigned int y = x;\n  while (__VERIFIER_nondet_int()) {{\n    x++;\n    y++;\n    if (x != y)\n      x = 0;\n  }}\n  x = 1;\n  return 0;\n}}\n");
        assert_eq!(unreached(&src, &[11, 13], true), [Some(Unreached::Induction { k: 1, invariants: false }), None]);
        assert_eq!(unreached(&src, &[11], false), [Some(Unreached::Induction { k: 1, invariants: false })]);
    }

    #[test]
    fn a_line_after_a_loop_needs_the_loops_invariant() {
        // From a loop-head state with `x != y`, any number of iterations lead to line 10: no `k`
        // proves it alone.
        let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 0, y = 0;\n  while (__VERIFIER_nondet_int()) {{\n    x++;\n    y++;\n  }}\n  if (x != y)\n    x = 0;\n  return 0;\n}}\n");
        assert_eq!(unreached(&src, &[11], true), [Some(Unreached::Induction { k: 0, invariants: true })]);
        assert_eq!(unreached(&src, &[11], false), [None]);
    }

    #[test]
    fn a_line_behind_a_contradiction_is_never_reached_by_bmc_when_every_path_ends() {
        let src = format!("{HEAD}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  if (x > 5)\n    if (x < 3)\n      x = 0;\n  return x;\n}}\n");
        assert_eq!(unreached(&src, &[8], false), [Some(Unreached::Bmc { steps: 1 })]);
    }

    #[test]
    fn a_line_two_steps_from_any_state_apart_needs_k_induction_without_invariants() {
        // From any state, `y` is 1 after two iterations: 2-inductive.
        let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 0, y = 0;\n  while (__VERIFIER_nondet_int()) {{\n    if (y == 2)\n      x = 5;\n    y = x;\n    x = 1;\n  }}\n  return 0;\n}}\n");
        assert_eq!(unreached(&src, &[8], false), [Some(Unreached::Induction { k: 2, invariants: false })]);
        // Up to k = 2 comes before the invariants: what needs none is proven without them.
        assert_eq!(unreached(&src, &[8], true), [Some(Unreached::Induction { k: 2, invariants: false })]);
        // Three steps: past the steps tried before the invariants, without any.
        let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 0, y = 0, z = 0;\n  while (__VERIFIER_nondet_int()) {{\n    if (z == 2)\n      x = 5;\n    z = y;\n    y = x;\n    x = 1;\n  }}\n  return 0;\n}}\n");
        assert_eq!(unreached(&src, &[8], false), [Some(Unreached::Induction { k: 3, invariants: false })]);
    }

    #[test]
    fn a_loop_free_program_is_decided_by_bmc() {
        check(&format!("{HEAD}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  int y = x > 0 ? x : 1;\n  if (y <= 0) reach_error();\n  return 0;\n}}\n"), "true by bmc");
        check(&format!("{HEAD}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  if (x == 42) reach_error();\n  return 0;\n}}\n"), "false after 0 steps: 42");
    }

    #[test]
    fn an_invariant_of_two_counters_proves_the_loop() {
        let src = format!("{HEAD}int main(void) {{\n  unsigned int x = __VERIFIER_nondet_uint();\n  unsigned int y = x;\n  while (x < 1024) {{\n    x++;\n    y++;\n  }}\n  if (x != y) reach_error();\n  return 0;\n}}\n");
        check(&src, "true by k-induction at 0 with [x == y]");
    }

    #[test]
    fn a_sum_invariant_proves_count_up_down() {
        let src = format!("{HEAD}int main(void) {{\n  unsigned int n = __VERIFIER_nondet_uint();\n  unsigned int x = n, y = 0;\n  while (x > 0) {{\n    x--;\n    y++;\n  }}\n  if (y != n) reach_error();\n  return 0;\n}}\n");
        check(&src, "true by k-induction at 0 with [x + y == n]");
    }

    #[test]
    fn an_affine_equality_of_simulated_runs_proves_the_loop() {
        // `x - y == i - j` over four variables: no template has it; the runs show it.
        let src = format!("{HEAD}int main(void) {{\n  int i = __VERIFIER_nondet_int();\n  int j = __VERIFIER_nondet_int();\n  if (!(i >= 0 && j >= 0)) return 0;\n  int x = i;\n  int y = j;\n  while (x != 0) {{\n    x--;\n    y--;\n  }}\n  if (i == j && y != 0) reach_error();\n  return 0;\n}}\n");
        check(
            &src,
            "true by k-induction at 0 with [0 <= i, 0 <= j, 0 <= x, (unsigned long long)i - (unsigned long long)j - (unsigned long long)x + (unsigned long long)y == 0ULL]",
        );
    }

    #[test]
    fn an_equality_modulo_the_width_proves_what_a_constant_needs_in_a_later_phase() {
        // `d == 2*p` holds modulo 2^32 only (`(a + b) + (a - b)` wraps around), so the integers'
        // equalities miss it; `z == 0` needs it, and is a template of the first phase, asked again
        // with the equalities (SV-COMP's SystemC pipeline has both, at seven loop heads). The `q`s
        // make the scope too large for the sum templates and the polynomials, as the pipeline's is.
        let src = format!(
            "{HEAD}int p, d, p_t, d_t, up, z, q0, q1, q2, q3, q4, q5, q6, q7;
int main(void) {{
  while (__VERIFIER_nondet_int()) {{
    q0 = q1 + 1; q1 = q2 + 1; q2 = q3 + 1; q3 = q4 + 1; q4 = q5 + 1; q5 = q6 + 1; q6 = q7 + 1;
    q7 = __VERIFIER_nondet_int();
    if (__VERIFIER_nondet_int()) {{
      int a = __VERIFIER_nondet_int();
      int b = __VERIFIER_nondet_int();
      p_t = a;
      d_t = (a + b) + (a - b);
      up = 1;
    }}
    if (up == 1) {{
      p = p_t;
      d = d_t;
      up = 0;
    }}
    if (__VERIFIER_nondet_int()) z = d - p - p;
  }}
  if (z != 0) reach_error();
  return 0;
}}
"
        );
        check(
            &src,
            "true by k-induction at 0 with [d % 2 == 0, d_t % 2 == 0, 0 <= up, up % 2 == 0, up <= 0, up <= 1, z % 2 == 0, (unsigned int)p * 2U - (unsigned int)d == 0U, p == p_t, (unsigned int)p * 2U - (unsigned int)d_t == 0U, (unsigned long long)z == 0ULL]",
        );
    }

    #[test]
    fn a_bound_of_simulated_runs_proves_the_loop_when_the_templates_do_not() {
        // `2*i - x <= 0` (the runs' bound): `x` grows by 2 or 3, `i` by 1; the step case needs it.
        let src = format!("{HEAD}int main(void) {{\n  int n = __VERIFIER_nondet_int();\n  if (!(0 < n && n < 1000)) return 0;\n  int i = 0;\n  int x = 0;\n  while (i < n) {{\n    if (__VERIFIER_nondet_int()) x = x + 2; else x = x + 3;\n    i++;\n  }}\n  if (x < 2 * n) reach_error();\n  return 0;\n}}\n");
        check(
            &src,
            "true by k-induction at 0 with [0 <= n, n <= 1000, 0 <= i, i <= 1000, i <= n, (long long)n - 999LL <= 0LL, -(long long)n + 1LL <= 0LL, (long long)i * 2LL - (long long)x <= 0LL, -(long long)i * 3LL + (long long)x <= 0LL]",
        );
    }

    #[test]
    fn the_low_bits_simulated_runs_share_prove_the_loop() {
        // `x ≡ 5 (mod 8)`: no parity, bound or equality says it (sv-benchmarks' bin-suffix-5).
        let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 5;\n  while (__VERIFIER_nondet_int()) x += 8;\n  if ((x & 5) != 5) reach_error();\n  return 0;\n}}\n");
        check(&src, "true by k-induction at 0 with [x % 2 != 0, ((unsigned int)x & 7U) == 5U]");
    }

    #[test]
    fn a_disjunction_of_the_programs_comparisons_proves_a_loop_with_phases() {
        // `x <= 65519 || x is even` (sv-benchmarks' phases_1-1): neither side alone is inductive.
        let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 0;\n  while (x < 0x0fffffff) {{\n    if (x < 0xfff0) x++;\n    else x += 2;\n  }}\n  if (x % 2) reach_error();\n  return 0;\n}}\n");
        check(
            &src,
            "true by k-induction at 0 with [(x % 2 == 0) || (__CPAchecker_TMP_0 % 2 == 0), (x <= 65519U) || (x % 2 == 0), (x <= 65519U) || (__CPAchecker_TMP_0 % 2 != 0), (x <= 268435454U) || (x % 2 == 0), (x <= 268435454U) || (__CPAchecker_TMP_0 % 2 != 0), (x <= 0U) || (-(long long)x + (long long)__CPAchecker_TMP_0 + 1LL <= 0LL)]",
        );
    }

    #[test]
    fn a_relation_of_the_samples_a_sign_splits_off_proves_the_loop() {
        // `n <= 0 || i - n <= 1` (sv-benchmarks' half_2): `i <= n + 1` after the first loop unless
        // `n` was negative; the second loop needs it.
        let src = format!("{HEAD}int main(void) {{\n  int n = __VERIFIER_nondet_int();\n  if (!(n <= 1000000)) return 0;\n  int k = n, i = 0;\n  while (i < n) {{\n    k--;\n    i = i + 2;\n  }}\n  int j = 0;\n  while (j < n / 2) {{\n    if (k <= 0) reach_error();\n    k--;\n    j++;\n  }}\n  return 0;\n}}\n");
        let res = result(&src);
        let KindResult::Proof(Proof { by: ProofKind::KInduction, invariants, .. }) = res else {
            panic!("no proof: {res:?}")
        };
        let exprs: Vec<&str> = invariants.iter().map(|i| i.expr.as_str()).collect();
        assert!(exprs.contains(&"(n <= 0) || (-(long long)n + (long long)i - 1LL <= 0LL)"), "{exprs:?}");
    }

    /// The invariants of a k-induction proof of `src`; panics when there is none.
    fn proof_invariants(src: &str) -> Vec<String> {
        match result(src) {
            KindResult::Proof(Proof { by: ProofKind::KInduction, invariants, .. }) => {
                invariants.into_iter().map(|i| i.expr).collect()
            }
            res => panic!("no proof by k-induction: {res:?}"),
        }
    }

    #[test]
    fn a_variable_zero_at_a_loop_head_is_a_candidate_without_a_zero_in_the_program() {
        // `k <= 0` in the first loop (no condition compares with 0), so `i == k` in the second
        // (sv-benchmarks' fragtest_simple).
        let src = format!(
            "{HEAD}int main(void) {{
  int i = 0, k = 0;
  while (__VERIFIER_nondet_int() && i <= 1000000) i = i + 1;
  i = 0;
  while (__VERIFIER_nondet_int() && i <= 1000000) {{
    i = i + 1;
    k = k + 1;
  }}
  if (k != i) reach_error();
  return 0;
}}
"
        );
        let inv = proof_invariants(&src);
        assert!(inv.iter().any(|e| e == "k <= 0"), "{inv:?}");
        assert!(inv.iter().any(|e| e == "i == k"), "{inv:?}");
    }

    #[test]
    fn a_relation_bounded_by_the_programs_constants_keeps_a_counter_from_wrapping() {
        // `l - k <= 999998`: the simulated runs draw the program's constants (`l = 999999`), and
        // with `k <= 1000000` it keeps `l + 1` from wrapping around, so `1 <= l` is inductive
        // (nest-if3). Its proof is too hard for one joint query; one candidate at a time it is not.
        let src = format!(
            "{HEAD}int main(void) {{
  int n = __VERIFIER_nondet_int();
  int l = __VERIFIER_nondet_int();
  if (!(l > 0 && l < 1000000 && n < 1000000)) return 0;
  for (int k = 1; k < n; k++) {{
    for (int i = l; i < n; i++) {{
      if (i < 1) reach_error();
    }}
    if (__VERIFIER_nondet_int()) l = l + 1;
  }}
  return 0;
}}
"
        );
        let inv = proof_invariants(&src);
        assert!(inv.iter().any(|e| e == "(long long)l - (long long)k - 999998LL <= 0LL"), "{inv:?}");
    }

    #[test]
    fn a_relation_all_samples_satisfy_joins_a_split_when_alone_it_is_not_inductive() {
        // `flag <= 0 || j - i - 1 <= 0` and `flag <= 0 || a - b <= 0` (ddlm2013): both hold of every
        // sample, but only where `flag > 0` are they inductive.
        let src = format!(
            "{HEAD}int main(void) {{
  unsigned int i, j = 1, a = 0, b = 0;
  int flag = __VERIFIER_nondet_int();
  if (flag) i = 0; else i = 1;
  while (__VERIFIER_nondet_int()) {{
    a++;
    b += j - i;
    i += 2;
    if (i % 2 == 0) j += 2; else j++;
  }}
  if (flag && a != b) reach_error();
  return 0;
}}
"
        );
        let inv = proof_invariants(&src);
        assert!(inv.iter().any(|e| e.starts_with("(flag <= 0) || ") || e.starts_with("(0 <= flag) || ")), "{inv:?}");
    }

    #[test]
    fn a_polynomial_equality_of_simulated_runs_is_proven_by_algebra() {
        // `y*y + y == 2*x` over `long long`, with the bound an `int` (nla-digbench's ps2): SAT alone
        // cannot show it inductive through the multipliers; substituting the loop's updates does.
        let src = format!("{HEAD}int main(void) {{\n  int k = __VERIFIER_nondet_int();\n  long long y = 0, x = 0, c = 0;\n  while (c < k) {{\n    c = c + 1;\n    y = y + 1;\n    x = y + x;\n  }}\n  if (y * y - 2 * x + y != 0) reach_error();\n  return 0;\n}}\n");
        check(
            &src,
            "true by k-induction at 0 with [0 <= c, 0LL <= c, y == c, y <= c, c <= y, (unsigned long long)y - (unsigned long long)x * 2ULL + (unsigned long long)y * (unsigned long long)y == 0ULL]",
        );
        // A product over a narrower variable, extended as C does (geo1): `x*z - x - y + 1 == 0`.
        // (geo1 itself computes `z - 1` in `int`, which may wrap around before it is extended.)
        let src = format!("{HEAD}int main(void) {{\n  int z = __VERIFIER_nondet_int();\n  int k = __VERIFIER_nondet_int();\n  if (!(z >= 1 && k >= 1)) return 0;\n  long long x = 1, y = z, c = 1;\n  while (c < k) {{\n    c = c + 1;\n    x = x * z + 1;\n    y = y * z;\n  }}\n  x = x * ((long long)z - 1);\n  if (1 + x - y != 0) reach_error();\n  return 0;\n}}\n");
        check(
            &src,
            "true by k-induction at 0 with [0 <= z, 1 <= z, 0 <= k, 1 <= k, 0 <= c, 0LL <= c, 1LL <= c, -1ULL + (unsigned long long)x + (unsigned long long)y - (unsigned long long)z * (unsigned long long)x == 0ULL]",
        );
    }

    #[test]
    fn a_polynomial_equality_may_need_what_the_path_compared() {
        // `y1*x2 + y2 + y3 == x1` (nla-digbench's mannadiv): on the branch `y2 + 1 == x2`, the
        // update is a multiple of the invariant only given that equality.
        let src = format!("{HEAD}int main(void) {{\n  int x1 = __VERIFIER_nondet_int();\n  int x2 = __VERIFIER_nondet_int();\n  if (!(x1 >= 0 && x1 < 1000 && x2 > 0 && x2 < 1000)) return 0;\n  int y1 = 0, y2 = 0, y3 = x1;\n  while (y3 != 0) {{\n    if (y2 + 1 == x2) {{\n      y1 = y1 + 1;\n      y2 = 0;\n    }} else {{\n      y2 = y2 + 1;\n    }}\n    y3 = y3 - 1;\n  }}\n  if (y1 * x2 + y2 != x1) reach_error();\n  return 0;\n}}\n");
        check(
            &src,
            "true by k-induction at 0 with [0 <= x1, x1 <= 1000, 0 <= x2, 1 <= x2, x2 <= 1000, 0 <= y3, y3 <= 1000, y3 <= x1, y2 <= x2, y2 < x2, (long long)x1 - 999LL <= 0LL, (long long)x2 - 999LL <= 0LL, -(long long)y1 <= 0LL, -(long long)y2 <= 0LL, (long long)y1 + (long long)y3 - 999LL <= 0LL, (long long)y2 + (long long)y3 - 999LL <= 0LL, (unsigned int)x1 - (unsigned int)y2 - (unsigned int)y3 - (unsigned int)x2 * (unsigned int)y1 == 0U]",
        );
    }

    #[test]
    fn invariants_over_signed_variables_are_exact_in_c() {
        // `x` odd and negative: `x % 2 == 1` would be false in C; a sum of signed variables is
        // written in unsigned arithmetic of their width (a signed overflow would be undefined).
        let src = format!("{HEAD}int main(void) {{\n  signed char n = __VERIFIER_nondet_int();\n  int x = -1;\n  signed char a = n, b = 0;\n  while (__VERIFIER_nondet_int()) {{\n    x = x - 2;\n    if (x < -100) x = -1;\n    a = a - 1;\n    b = b + 1;\n  }}\n  if (x % 2 == 0 || (signed char)(a + b) != n) reach_error();\n  return 0;\n}}\n");
        check(
            &src,
            "true by k-induction at 0 with [x % 2 != 0, x <= 0, x <= 2, -100 <= x, (unsigned char)((unsigned char)a + (unsigned char)b) == (unsigned char)n]",
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn past_the_depth_it_was_given_the_engine_yields_the_cpu_of_its_own_thread() {
        // A loop BMC unrolls to its end (`x` counts to 3; no induction without invariants shows
        // `y == 6`): past depth 2 the thread runs at a lower priority; the answer is the same, and
        // without the setting nothing changes.
        let src = format!("{HEAD}int main(void) {{\n  int x = 0, y = 0;\n  while (x < 3) {{ x++; y += 2; }}\n  if (y != 6) reach_error();\n  return 0;\n}}\n");
        let (prog, cfa) = compile(&src);
        let nice_after = |yield_from_k: Option<u32>| {
            let (prog, cfa) = (prog.clone(), cfa.clone());
            std::thread::spawn(move || {
                let config = KindConfig { yield_from_k, invariants: false, ..KindConfig::default() };
                let (res, stats) = run(&prog, &cfa, Property::UnreachCall, &config);
                assert!(matches!(res, KindResult::Proof(Proof { by: ProofKind::Bmc, .. })), "{res:?}");
                assert!(stats.k >= 3, "{stats:?}");
                // SAFETY: reads the calling thread's priority.
                unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
            })
            .join()
            .expect("the engine's thread")
        };
        let before = nice_after(None);
        assert_eq!(nice_after(Some(2)), before.max(YIELD_NICE));
        // The depth is never reached: nothing changes.
        assert_eq!(nice_after(Some(50)), before);
    }

    #[test]
    fn a_deep_bug_is_found_and_replayed() {
        let src = format!("{HEAD}int main(void) {{\n  int i = 0;\n  int x = __VERIFIER_nondet_int();\n  while (i < 50) {{\n    i++;\n  }}\n  if (i == 50 && x == -7) reach_error();\n  return 0;\n}}\n");
        check(&src, "false after 51 steps: -7");
    }

    #[test]
    fn a_bug_is_never_proven_away() {
        // A counter that overflows: i < 0 happens after 2^31 iterations, so neither a proof nor a
        // counterexample within the bound.
        let src = format!("{HEAD}int main(void) {{\n  unsigned int i = 0;\n  while (__VERIFIER_nondet_int()) {{\n    i++;\n    if (i == 0) reach_error();\n  }}\n  return 0;\n}}\n");
        check(&src, "unknown: k-induction: no proof up to k = 300");
    }

    #[test]
    fn undefined_behaviour_and_unsupported_constructs_give_unknown() {
        check(
            &format!(
                "{HEAD}int main(void) {{\n  int d = __VERIFIER_nondet_int();\n  int q = 10 / d;\n  return q;\n}}\n"
            ),
            "unknown: k-induction: possible undefined behaviour after 0 steps",
        );
        check(
            &format!(
                "{HEAD}int main(void) {{\n  int a[2];\n  a[0] = 1;\n  if (a[0] != 1) reach_error();\n  return 0;\n}}\n"
            ),
            "unknown: k-induction: unsupported: arrays",
        );
    }
}
