//! `SatBackend` on the CaDiCaL solver; the only file that names `cadical` types.
//!
//! Invariant: no `cadical` type leaves this file.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::{Lit, SatBackend, SatResult, SolverError, Var};

/// When a running `solve` must give up and answer `SatResult::Unknown`.
///
/// CaDiCaL polls these conditions during the search, so a SIGINT handler that sets the flag, or the
/// deadline of a time budget, stops even a long solve.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// Stop once this flag is true (it is only read, never reset). [default: none]
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop once this second flag is true (a memory limit). [default: none]
    pub also: Option<Arc<AtomicBool>>,
    /// Stop once this third flag is true (another engine of a portfolio decided). [default: none]
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop once this instant has passed. [default: none]
    pub deadline: Option<Instant>,
    /// Stop once this deadline, which its owner may move earlier while the solver runs, has passed.
    /// [default: none]
    pub movable: Option<MovableDeadline>,
}

/// A deadline its owner may move earlier while others read it (`vcov verify --aa-out` stops its
/// search while there is still the time to write the automaton of a region that keeps growing).
/// Clones share the deadline.
#[derive(Clone, Debug)]
pub struct MovableDeadline {
    base: Instant,
    /// Nanoseconds after `base`; `u64::MAX`: none yet.
    nanos: Arc<std::sync::atomic::AtomicU64>,
}

impl MovableDeadline {
    /// A deadline not set yet.
    pub fn new() -> MovableDeadline {
        MovableDeadline { base: Instant::now(), nanos: Arc::new(std::sync::atomic::AtomicU64::new(u64::MAX)) }
    }

    /// Sets it to `at`, if that is earlier than where it is.
    pub fn move_to(&self, at: Instant) {
        let n = at.saturating_duration_since(self.base).as_nanos().min(u64::MAX as u128 - 1) as u64;
        self.nanos.fetch_min(n, Ordering::Relaxed);
    }

    /// Whether it has passed.
    pub fn passed(&self) -> bool {
        let n = self.nanos.load(Ordering::Relaxed);
        n != u64::MAX && self.base.elapsed().as_nanos() >= n as u128
    }
}

impl Default for MovableDeadline {
    fn default() -> Self {
        MovableDeadline::new()
    }
}

/// The CaDiCaL incremental SAT solver.
pub struct CadicalBackend {
    solver: cadical::Solver<Terminator>,
    interrupt: Interrupt,
    n_vars: u32,
    n_clauses: u64,
    n_solves: u64,
    /// The answer of the last `solve`, reset by `add_clause`: CaDiCaL only answers `value` and
    /// `failed` right after a `Sat` or `Unsat` answer.
    last: Option<SatResult>,
}

/// The terminate callback handed to CaDiCaL.
struct Terminator(Interrupt);

impl Interrupt {
    /// Whether the search must stop now.
    pub fn is_triggered(&self) -> bool {
        [&self.stop, &self.also, &self.cancel].into_iter().flatten().any(|flag| flag.load(Ordering::Relaxed))
            || crate::base::clock::past(self.deadline)
            || self.movable.as_ref().is_some_and(MovableDeadline::passed)
    }

    fn is_set(&self) -> bool {
        self.stop.is_some()
            || self.also.is_some()
            || self.cancel.is_some()
            || self.deadline.is_some()
            || self.movable.is_some()
    }
}

impl CadicalBackend {
    /// A solver with one of CaDiCaL's named configurations: `default`, `plain` (no preprocessing),
    /// `sat` or `unsat`.
    pub fn with_config(config: &str) -> Result<CadicalBackend, SolverError> {
        let solver = cadical::Solver::with_config(config).map_err(|_| SolverError::UnknownConfig(config.to_owned()))?;
        Ok(CadicalBackend::from_solver(solver))
    }

    /// Sets when later `solve` calls give up; `Interrupt::default()` clears it.
    pub fn set_interrupt(&mut self, interrupt: Interrupt) {
        self.interrupt = interrupt;
    }

    /// Makes the next `solve` give up (`SatResult::Unknown`) after `n` conflicts: a bound on work
    /// that, unlike a deadline, gives the same answers on every machine.
    pub fn limit_conflicts(&mut self, n: i32) {
        // "conflicts" is one of CaDiCaL's limits, so setting it cannot fail.
        let _ = self.solver.set_limit("conflicts", n);
    }

    /// The interrupt conditions in force.
    pub fn interrupt(&self) -> &Interrupt {
        &self.interrupt
    }

    /// How many times `solve` was called.
    pub fn n_solves(&self) -> u64 {
        self.n_solves
    }

    /// The name and version of the solver library.
    pub fn signature(&self) -> String {
        self.solver.signature().to_owned()
    }

    fn from_solver(solver: cadical::Solver<Terminator>) -> CadicalBackend {
        CadicalBackend { solver, interrupt: Interrupt::default(), n_vars: 0, n_clauses: 0, n_solves: 0, last: None }
    }

    /// Whether `lit` names a variable that CaDiCaL has seen in a clause or an assumption.
    fn is_known(&self, lit: Lit) -> bool {
        lit.var().index() <= self.solver.max_variable() as u32
    }
}

impl Default for CadicalBackend {
    fn default() -> CadicalBackend {
        CadicalBackend::from_solver(cadical::Solver::new())
    }
}

impl SatBackend for CadicalBackend {
    fn new_var(&mut self) -> Var {
        self.n_vars += 1;
        Var::new(self.n_vars)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        debug_assert!(lits.iter().all(|l| l.var().index() <= self.n_vars), "clause uses a variable not from new_var");
        self.solver.add_clause(lits.iter().map(|l| l.to_dimacs()));
        self.n_clauses += 1;
        self.last = None;
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        self.n_solves += 1;
        // CaDiCaL polls the callback only now and then, so an interrupt that already fired is
        // honoured here, before any work.
        if self.interrupt.is_triggered() {
            self.last = Some(SatResult::Unknown);
            return SatResult::Unknown;
        }
        let callbacks = self.interrupt.is_set().then(|| Terminator(self.interrupt.clone()));
        self.solver.set_callbacks(callbacks);
        let res = match self.solver.solve_with(assumptions.iter().map(|l| l.to_dimacs())) {
            Some(true) => SatResult::Sat,
            Some(false) => SatResult::Unsat,
            None => SatResult::Unknown,
        };
        self.last = Some(res);
        res
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        if self.last != Some(SatResult::Sat) || !self.is_known(lit) {
            return None;
        }
        self.solver.value(lit.to_dimacs())
    }

    fn failed(&self, lit: Lit) -> bool {
        self.last == Some(SatResult::Unsat) && self.is_known(lit) && self.solver.failed(lit.to_dimacs())
    }

    fn n_vars(&self) -> u32 {
        self.n_vars
    }

    fn n_clauses(&self) -> u64 {
        self.n_clauses
    }
}

impl cadical::Callbacks for Terminator {
    fn terminate(&mut self) -> bool {
        self.0.is_triggered()
    }
}

#[cfg(test)]
mod tests {
    use std::thread;
    use std::time::Duration;

    use super::*;

    /// Adds the pigeon-hole formula for `n + 1` pigeons in `n` holes: unsatisfiable and hard.
    fn pigeon_hole(solver: &mut CadicalBackend, n: usize) {
        let vars: Vec<Vec<Var>> = (0..=n).map(|_| (0..n).map(|_| solver.new_var()).collect()).collect();
        for pigeon in &vars {
            solver.add_clause(&pigeon.iter().map(|v| v.pos()).collect::<Vec<_>>());
        }
        for hole in 0..n {
            let column: Vec<Lit> = vars.iter().map(|pigeon| pigeon[hole].pos()).collect();
            for (i, &p) in column.iter().enumerate() {
                for &q in &column[i + 1..] {
                    solver.add_clause(&[!p, !q]);
                }
            }
        }
    }

    #[test]
    fn solve_value_failed() {
        let mut s = CadicalBackend::default();
        let (a, b) = (s.new_var().pos(), s.new_var().pos());
        s.add_clause(&[a, b]);
        s.add_clause(&[!a, b]);
        assert_eq!(s.solve(&[]), SatResult::Sat);
        assert_eq!(s.value(b), Some(true));
        assert_eq!(s.value(!b), Some(false));
        assert_eq!(s.solve(&[!b, a]), SatResult::Unsat);
        assert!(s.failed(!b));
        assert_eq!(s.value(b), None, "no model after Unsat");
        assert_eq!((s.n_vars(), s.n_clauses(), s.n_solves()), (2, 2, 2));
    }

    #[test]
    fn value_of_unused_var_and_stale_model() {
        let mut s = CadicalBackend::default();
        let a = s.new_var().pos();
        let unused = s.new_var().pos();
        s.add_clause(&[a]);
        assert_eq!(s.solve(&[]), SatResult::Sat);
        assert_eq!(s.value(a), Some(true));
        assert_eq!(s.value(unused), None);
        s.add_clause(&[a, unused]);
        assert_eq!(s.value(a), None, "a new clause invalidates the model");
    }

    #[test]
    fn unknown_config() {
        let err = CadicalBackend::with_config("nonsense").err().unwrap();
        assert_eq!(err.to_string(), "unknown solver configuration `nonsense`");
        assert!(err.is_recoverable());
        assert!(CadicalBackend::with_config("plain").is_ok());
    }

    #[test]
    fn deadline_stops_a_hard_solve() {
        let mut s = CadicalBackend::default();
        pigeon_hole(&mut s, 12);
        let start = Instant::now();
        s.set_interrupt(Interrupt { deadline: Some(start + Duration::from_millis(100)), ..Interrupt::default() });
        assert_eq!(s.solve(&[]), SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
        // The deadline has passed, so the next call returns at once.
        assert_eq!(s.solve(&[]), SatResult::Unknown);
    }

    #[test]
    fn a_movable_deadline_only_moves_earlier_and_stops_a_hard_solve() {
        let movable = MovableDeadline::new();
        assert!(!movable.passed(), "not set yet");
        let start = Instant::now();
        movable.move_to(start + Duration::from_secs(3600));
        movable.move_to(start + Duration::from_secs(7200));
        assert!(!movable.passed());
        let mut s = CadicalBackend::default();
        pigeon_hole(&mut s, 12);
        s.set_interrupt(Interrupt { movable: Some(movable.clone()), ..Interrupt::default() });
        // Moved earlier by another holder while the solver runs.
        let setter = thread::spawn(move || {
            thread::sleep(Duration::from_millis(100));
            movable.move_to(Instant::now());
        });
        assert_eq!(s.solve(&[]), SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
        setter.join().unwrap();
    }

    #[test]
    fn stop_flag_stops_a_hard_solve() {
        let mut s = CadicalBackend::default();
        pigeon_hole(&mut s, 12);
        let stop = Arc::new(AtomicBool::new(false));
        s.set_interrupt(Interrupt { stop: Some(stop.clone()), ..Interrupt::default() });
        let setter = thread::spawn(move || {
            thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        let start = Instant::now();
        assert_eq!(s.solve(&[]), SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
        setter.join().unwrap();
    }
}
