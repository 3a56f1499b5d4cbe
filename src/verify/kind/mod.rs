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
//! *Invariants* strengthen the step case. Candidates from templates over the integer state variables
//! in scope at each loop head (`v = w`, `v + w = u`, `v ≤ w`, `v < w`, `0 ≤ v`; a floating
//! variable's bit pattern is in no candidate, so it stays unconstrained) and the affine
//! equalities (in the integers and modulo the variables' width), bounds and shared low bits
//! simulated runs satisfy there (`verify::sample`, `Σ cᵢ·vᵢ + c = 0`, `p·a + q·b ≤ c`,
//! `v ≡ c (mod 2^t)`) are filtered by a Houdini fixpoint over one step from an arbitrary state: a
//! candidate is dropped while some step from a state that satisfies all remaining ones (the entry
//! state is unconstrained) reaches a state that violates it. What is left is inductive, so it holds
//! in every reachable state: an invariant is used only after it is proven.
//!
//! This file is the engine: its configuration and result, the BMC and k-induction loop (`run`), the
//! phases that prove the invariants and the replay of a counterexample. Its other jobs, a file each:
//! - `unreached`: `unreachable`, the engine for coverage (sets of CFA edges no execution takes);
//! - `candidates`: the candidate invariants (`Candidate`, `Template`), their circuits and whether a
//!   sampled state satisfies them;
//! - `templates`, `sampled`, `disjunctive`: the candidates from templates, from simulated runs
//!   (`verify::sample`) and the disjunctions;
//! - `polys`: the polynomial candidates, proven by algebra (`verify::poly`);
//! - `houdini`: the Houdini fixpoint that keeps the inductive candidates, and the pruning of the
//!   implied ones;
//! - `invariant_c`: proven invariants as C expressions at the loop heads of the CFA;
//! - `priority`: the lower scheduling priority of the engine's thread (`KindConfig::yield_from_k`).
//!
//! Invariant: a TRUE comes only from an unsatisfiable base or step query over the over-approximating
//! transition system; a FALSE only from a concrete run (`symex::interpret`) that reaches the violation.
//! Invariant: no clock or thread decides an answer: limits only stop the engine (UNKNOWN).

mod candidates;
mod disjunctive;
mod houdini;
mod invariant_c;
mod polys;
mod priority;
mod sampled;
mod templates;
mod unreached;

use std::fmt;

use crate::cfa::{Cfa, EdgeId};
use crate::cfront::ir::Program;
use crate::sat::{Aig, AigLit, Bv, CadicalBackend, Encoder, Lit, SatBackend, SatResult};
use crate::symex::{self, Budget, ConcreteEnd, InputValue, Property, StopReason};

use super::poly::PolyEq;
use super::sample::{self, Linear};
use super::ts::{self, Step, Ts};
use candidates::{Candidate, Template};
use priority::{lower_priority, YIELD_VARS};

pub use unreached::{unreachable, Unreachability, Unreached};

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
    /// Run interval analysis with input subdivision (`verify::intervals`) first on a program with
    /// a floating state variable. [default: true]
    pub intervals: bool,
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
        /// The engine that found it: BMC, or interval analysis (`ProofKind::Intervals`, `depth` 0).
        by: ProofKind,
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
    /// Interval analysis with input subdivision (`verify::intervals`) showed `k` boxes that cover
    /// every input safe.
    Intervals,
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
    /// What interval analysis (`verify::intervals`, first on programs with floating variables)
    /// established, in words.
    pub intervals: Option<String>,
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
            intervals: true,
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
        writeln!(f, "  solver calls:           {}", self.solver_calls)?;
        if let Some(i) = &self.intervals {
            writeln!(f, "  interval analysis:      {i}")?;
        }
        Ok(())
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

impl Unroll {
    /// Goes on with the step `st`, encoded from the last state: where it reaches a cut point, to
    /// its next state.
    fn advance(&mut self, aig: &Aig, st: Step) {
        let cont = self.enc.lit(aig, &mut self.solver, st.cont);
        self.solver.add_clause(&[cont]);
        self.pc = st.next_pc.clone();
        self.vars = st.next.clone();
        self.steps.push(st);
    }
}

/// Why the engine stopped without an answer: a limit (`stopped`), or a reason in words.
enum Halt {
    Stopped(StopReason),
    Why(String),
}

impl From<ts::Unsupported> for Halt {
    fn from(u: ts::Unsupported) -> Halt {
        Halt::Why(format!("unsupported: {}", u.0))
    }
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

/// The engine: the transition system and its circuits, and what the candidates' circuits refer to.
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

impl<'t, 'a> Engine<'t, 'a> {
    fn new(prog: &'a Program, cfa: &'a Cfa, property: Property, config: &'t KindConfig) -> H<Engine<'t, 'a>> {
        let ts = Ts::build(prog, cfa, property)?;
        let mut aig = Aig::default();
        // Encode one step from an arbitrary state first: a construct the system does not model is
        // found before any solving.
        let (pc, vars) = ts.fresh_state(&mut aig);
        ts.encode_step(&mut aig, &pc, &vars)?;
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
}

impl Engine<'_, '_> {
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
            SatResult::Unknown => self.check().map(|()| None),
        }
    }

    fn encode(&mut self, pc: &Bv, vars: &[Bv]) -> H<Step> {
        Ok(self.ts.encode_step(&mut self.aig, pc, vars)?)
    }

    /// An unrolling from the program's entry: the first cut point, every variable an input.
    fn unroll_from_entry(&mut self) -> Unroll {
        Unroll {
            solver: self.solver(),
            enc: Encoder::default(),
            pc: self.ts.pc_const(0),
            vars: self.ts.vars.iter().map(|v| Bv::input(&mut self.aig, v.repr.bits)).collect(),
            steps: Vec::new(),
        }
    }

    /// An unrolling from an arbitrary state at a cut point.
    fn unroll_from_any_state(&mut self) -> Unroll {
        let (pc, vars) = self.ts.fresh_state(&mut self.aig);
        let mut res = Unroll { solver: self.solver(), enc: Encoder::default(), pc, vars, steps: Vec::new() };
        let valid = self.ts.pc_valid(&mut self.aig, &res.pc);
        res.enc.assert(&self.aig, &mut res.solver, valid);
        res
    }

    fn run(&mut self, stats: &mut KindStats) -> H<KindResult> {
        if self.config.yield_from_k.is_some() && self.ts.vars.len() > YIELD_VARS {
            lower_priority();
        }
        if self.config.intervals && self.ts.vars.iter().any(|v| !v.is_integer()) {
            // Floating arithmetic over ranges of inputs, where bit-blasted circuits are slow.
            let limits = super::intervals::Limits::default();
            let out = super::intervals::prove(&self.ts, limits, &self.config.budget);
            stats.intervals = Some(out.to_string());
            match out {
                super::intervals::Outcome::Proven { boxes } => {
                    let k = u32::try_from(boxes).unwrap_or(u32::MAX);
                    return Ok(KindResult::Proof(Proof { by: ProofKind::Intervals, k, invariants: Vec::new() }));
                }
                super::intervals::Outcome::Counterexample { edges, inputs } => {
                    return Ok(KindResult::Counterexample { depth: 0, edges, inputs, by: ProofKind::Intervals });
                }
                super::intervals::Outcome::Unknown(_) => {}
            }
        }
        let invariants = self.invariants(stats, Goal::Property)?;
        stats.proven = invariants.len();
        let mut base = self.unroll_from_entry();
        let mut step = self.unroll_from_any_state();
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
            let bad = self.bad(&st, Goal::Property);
            let bad = step.enc.lit(&self.aig, &mut step.solver, bad);
            if !self.solve(&mut step.solver, &[bad])? {
                let invariants = self.describe_all(&invariants);
                return Ok(KindResult::Proof(Proof { by: ProofKind::KInduction, k, invariants }));
            }
            step.solver.add_clause(&[!bad]);
            step.advance(&self.aig, st);
        }
        Err(Halt::Why(format!("no proof up to k = {}", self.config.max_k)))
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
            let (pairs, single): (Vec<Candidate>, Vec<Candidate>) = self.templates().into_iter().partition(|c| {
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
                return Ok(KindResult::Counterexample {
                    depth: k,
                    edges: run.trace.to_vec(),
                    inputs,
                    by: ProofKind::Bmc,
                });
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
}

#[cfg(test)]
mod tests;
