//! Houdini: the largest subset of the candidates that is inductive relative to the invariants
//! proven before, and the pruning of proven invariants the others imply.
//!
//! A candidate is dropped while some step from a state that satisfies all remaining ones (and the
//! invariants proven before) reaches a state that violates it; every order of the questions gives
//! the same fixpoint, so the slices below, which depend on the clock, change only how soon it comes.
//! Under a work cap (`KindConfig::conflicts`) the slices are counted in conflicts instead, and the
//! invariants are the same on every machine.

use std::time::{Duration, Instant};

use crate::sat::{AigLit, CadicalBackend, Encoder, Interrupt, Lit, SatBackend, SatResult};

use super::candidates::{alive_only, Candidate};
use super::{Engine, H};

/// How long a joint Houdini query may take before the candidates are asked in groups.
const JOINT_SLICE: Duration = Duration::from_millis(300);
/// The candidates of the first Houdini group once the joint query took too long (`houdini`): one,
/// as a hard candidate in a larger group would time it out.
const FIRST_GROUP: usize = 1;
/// The largest Houdini group.
const MAX_GROUP: usize = 1024;
/// How long the query of a group of candidates may take before it is halved (or, for one
/// candidate, asked again after the others).
const SINGLE_SLICE: Duration = Duration::from_millis(200);
/// Under a work cap (`KindConfig::conflicts`), how many caps a candidate's last query may take.
const HARD_WORK: i32 = 4;

/// The solver of one Houdini fixpoint: one step from an arbitrary state at a cut point, the
/// invariants proven before holding before and after it, each candidate made to hold before the
/// step by its activation literal and evaluated after it.
struct Query {
    solver: CadicalBackend,
    enc: Encoder,
    /// The budget's interrupt, with the deadline of the phase's share of the time.
    interrupt: Interrupt,
    /// When the phase's share of the time ends.
    phase_end: Option<Instant>,
    /// Per candidate, the literal that makes it hold before the step.
    acts: Vec<Lit>,
    /// Per candidate, whether it holds after the step.
    after: Vec<AigLit>,
}

impl Query {
    fn past_phase(&self) -> bool {
        self.phase_end.is_some_and(|d| Instant::now() >= d)
    }
}

/// Which candidates Houdini asks about next, and what it knows of them.
///
/// Joint rounds first: one query whether some candidate breaks, which finds the broken ones fast
/// and, once none does, ends the fixpoint at once. Once such a query takes longer than
/// `JOINT_SLICE`, the candidates are asked in groups instead, in their order (so mostly of one cut
/// point): whether one of the group breaks, every live candidate assumed before the step. A few
/// candidates broken is a much easier question for the solver than the disjunction of all (a proof
/// by bit-level arithmetic for each at once), and a group whose members all hold is settled by one
/// query, not one each. The first group is one candidate. A group whose query outlasts
/// `SINGLE_SLICE` is halved, a group answered fast lets the next be twice as large, but never as
/// large as one that was halved (by the clock only when no work cap orders the questions); a
/// candidate whose own query outlasts the slice is asked again after the others, without a slice.
struct Schedule {
    /// The candidates not shown broken.
    alive: Vec<bool>,
    /// Whether the queries still ask about every live candidate at once.
    joint: bool,
    /// The most candidates of the next group.
    width: usize,
    /// Half the smallest group whose query outlasted its slice: no group grows past it again.
    ceiling: usize,
    /// The candidates shown to hold after the step, each with the candidates its proof assumed
    /// (`support`, the failed assumptions): it must be shown again when one of those drops.
    settled: Vec<bool>,
    support: Vec<Vec<usize>>,
    /// The candidates whose own query outlasted `SINGLE_SLICE`.
    hard: Vec<bool>,
}

impl Schedule {
    fn new(n: usize) -> Schedule {
        Schedule {
            alive: vec![true; n],
            joint: true,
            width: FIRST_GROUP,
            ceiling: MAX_GROUP,
            settled: vec![false; n],
            support: vec![Vec::new(); n],
            hard: vec![false; n],
        }
    }

    fn live(&self) -> Vec<usize> {
        (0..self.alive.len()).filter(|&i| self.alive[i]).collect()
    }

    /// The candidates of the next query (of `live`): all of them while the rounds are joint, then
    /// a group of those not settled. The candidates whose own query outlasted `SINGLE_SLICE` last
    /// (most drops come from the others, and each drop may ask again what rested on the dropped one).
    fn group(&self, live: &[usize]) -> Vec<usize> {
        if self.joint {
            return live.to_vec();
        }
        let pick = |hard_ones: bool, n: usize| -> Vec<usize> {
            live.iter().copied().filter(|&i| !self.settled[i] && self.hard[i] == hard_ones).take(n).collect()
        };
        let easy = pick(false, self.width);
        if easy.is_empty() {
            pick(true, 1)
        } else {
            easy
        }
    }

    /// Whether the query of `group` has no slice: a candidate whose own query outlasted it before.
    fn unsliced(&self, group: &[usize]) -> bool {
        !self.joint && group.len() == 1 && self.hard[group[0]]
    }

    /// How long the query of `group` may take (`None`: as long as the phase).
    fn slice(&self, group: &[usize]) -> Option<Duration> {
        match (self.joint, self.unsliced(group)) {
            (true, _) => Some(JOINT_SLICE),
            (false, false) => Some(SINGLE_SLICE),
            (false, true) => None,
        }
    }

    /// The query of `group` was left open by its slice, or by the work cap when it had none.
    fn open(&mut self, group: &[usize]) {
        if self.unsliced(group) {
            // Not shown within the cap: dropped, as a broken candidate is.
            self.alive[group[0]] = false;
            self.unsettle();
        } else if self.joint {
            self.joint = false;
        } else if group.len() > 1 {
            self.width = (group.len() / 2).max(1);
            self.ceiling = self.ceiling.min(self.width);
        } else {
            self.hard[group[0]] = true;
        }
    }

    /// A model broke the candidates of `live` that do not `hold` after the step: they are dropped.
    fn broken(&mut self, live: &[usize], hold: &[bool]) {
        let mut dropped = 0;
        for (&i, &holds) in live.iter().zip(hold) {
            if !holds {
                self.alive[i] = false;
                dropped += 1;
            }
        }
        assert!(dropped > 0, "a model of the Houdini query breaks some candidate");
        self.unsettle();
    }

    /// Every candidate of `group` holds after the step, the proof assuming the candidates
    /// `assumed`; a query answered `fast` lets the next group be larger.
    fn held(&mut self, group: &[usize], assumed: Vec<usize>, fast: bool) {
        for &i in group {
            self.settled[i] = true;
            self.support[i] = assumed.clone();
        }
        if fast {
            self.width = (self.width * 2).min(self.ceiling);
        }
    }

    /// The candidates shown to hold whose proof assumed one no longer alive must be shown again.
    fn unsettle(&mut self) {
        for (i, s) in self.settled.iter_mut().enumerate() {
            if *s && self.support[i].iter().any(|&j| !self.alive[j]) {
                *s = false;
            }
        }
    }
}

impl Engine<'_, '_> {
    /// The subset of `cands` that is inductive relative to the invariants `known` (Houdini), or none
    /// when the fixpoint is not reached within `1 / share` of the time left.
    pub(super) fn houdini(&mut self, cands: Vec<Candidate>, known: &[Candidate], share: u32) -> H<Vec<Candidate>> {
        if cands.is_empty() {
            return Ok(cands);
        }
        let mut query = self.houdini_query(&cands, known, share)?;
        let mut schedule = Schedule::new(cands.len());
        loop {
            self.check()?;
            if query.past_phase() {
                return Ok(Vec::new());
            }
            let live = schedule.live();
            let group = schedule.group(&live);
            if group.is_empty() {
                break;
            }
            let (result, round, fast) = self.ask(&mut query, &live, &group, schedule.slice(&group));
            let sat = match result {
                SatResult::Sat => true,
                SatResult::Unsat => false,
                SatResult::Unknown => {
                    self.check()?;
                    if query.past_phase() {
                        return Ok(Vec::new());
                    }
                    // The round's goal is never needed again.
                    query.solver.add_clause(&[!round]);
                    if schedule.unsliced(&group) && self.config.conflicts.is_none() {
                        return Ok(Vec::new());
                    }
                    schedule.open(&group);
                    continue;
                }
            };
            // Read the model or the failed assumptions before any clause is added (that discards them).
            if sat {
                let lits: Vec<AigLit> = live.iter().map(|&i| query.after[i]).collect();
                let hold = query.enc.values(&self.aig, &query.solver, &lits);
                schedule.broken(&live, &hold);
            } else if !schedule.joint {
                let assumed: Vec<usize> =
                    live.iter().copied().filter(|&j| query.solver.failed(query.acts[j])).collect();
                schedule.held(&group, assumed, fast);
            }
            // The round's goal is never needed again.
            query.solver.add_clause(&[!round]);
            if !sat && schedule.joint {
                break;
            }
        }
        Ok(alive_only(cands, &schedule.alive))
    }

    /// The solver of a Houdini fixpoint over `cands` relative to `known`, its phase given `1 / share`
    /// of the time left.
    fn houdini_query(&mut self, cands: &[Candidate], known: &[Candidate], share: u32) -> H<Query> {
        let mut solver = self.solver();
        let mut interrupt = self.config.budget.interrupt();
        if let Some(d) = self.config.budget.deadline {
            let now = Instant::now();
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
        Ok(Query { solver, enc, interrupt, phase_end, acts, after })
    }

    /// Asks whether some candidate of `group` breaks in a step from a state where every candidate
    /// of `live` holds, within `slice` (counted in conflicts under a work cap). Returns the answer,
    /// the round's literal, and whether the answer came fast (in an eighth of `SINGLE_SLICE`, by
    /// the clock only when there is no work cap).
    fn ask(
        &mut self,
        query: &mut Query,
        live: &[usize],
        group: &[usize],
        slice: Option<Duration>,
    ) -> (SatResult, Lit, bool) {
        let goal = self.aig.or_all(group.iter().map(|&i| !query.after[i]));
        let round = query.solver.new_var().pos();
        query.enc.assert_under(&self.aig, &mut query.solver, round, goal);
        let mut assumptions: Vec<Lit> = live.iter().map(|&i| query.acts[i]).collect();
        assumptions.push(round);
        self.solver_calls += 1;
        // Under a work cap the slices are counted in conflicts, not by the clock.
        let work = self.config.conflicts;
        match (slice, work) {
            (Some(slice), None) => {
                let mut sliced = query.interrupt.clone();
                let slice_end = Instant::now() + slice;
                sliced.deadline = Some(query.phase_end.map_or(slice_end, |d| d.min(slice_end)));
                query.solver.set_interrupt(sliced);
            }
            (Some(_), Some(cap)) => query.solver.limit_conflicts(cap),
            (None, Some(cap)) => query.solver.limit_conflicts(cap.saturating_mul(HARD_WORK)),
            (None, None) => {}
        }
        let asked = Instant::now();
        let result = query.solver.solve(&assumptions);
        let fast = work.is_none() && asked.elapsed() < SINGLE_SLICE / 8;
        if slice.is_some() && work.is_none() {
            query.solver.set_interrupt(query.interrupt.clone());
        }
        (result, round, fast)
    }

    /// `proven` (invariants) without those that `known` and the others of `proven` imply at their cut
    /// point, the later ones dropped first.
    pub(super) fn without_implied(&mut self, proven: Vec<Candidate>, known: &[Candidate]) -> H<Vec<Candidate>> {
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
        Ok(alive_only(proven, &alive))
    }
}
