//! Proofs over the whole program for `vcov coverage`: BMC and k-induction (`verify::kind::unreachable`)
//! try to show that no execution takes an edge of the lines the automaton lets the search reach, on
//! a thread beside the search; the lines the search leaves undecided take the proofs found.
//!
//! The argument ignores the automaton: a line no execution of the program reaches is covered by no
//! execution inside the explored region either. It needs the transition system of `verify::ts`
//! (integer programs without a memory model), so most programs with pointers get none.
//!
//! The thread works on its own copy of the program and publishes what it has proven after each step
//! forward; the run takes what is published when the search ends past a limit, and never waits for
//! the thread then (its computations between checks of the limit may take longer than the grace
//! the limit leaves for the report).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::cfa::Cfa;
use crate::cfront::ir::Program;
use crate::coverage::result::{LoopInvariant, NotCoverableBy, ProgramProofs};
use crate::coverage::Analysis;
use crate::symex::{Budget, Property};
use crate::verify::kind::{self, KindConfig, Unreachability, Unreached};

/// The work of one SAT query of the proofs, in conflicts: one hard question does not hold up the
/// others.
const CONFLICTS: i32 = 20_000;
/// The largest `k` tried.
const MAX_K: u32 = 8;

/// What the proofs established, and why they stopped.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProofsDone {
    pub proofs: ProgramProofs,
    /// Why the engine proved nothing more (for `--stats`).
    pub ended: String,
    /// Seconds the proofs took.
    pub seconds: f64,
}

/// The proofs running beside the search.
pub(crate) struct Running {
    cancel: Arc<AtomicBool>,
    published: Arc<Mutex<ProofsDone>>,
    done: Receiver<ProofsDone>,
    deadline: Option<Instant>,
    started: Instant,
}

/// Starts the proofs for the lines of the over-approximation that no static argument of `analysis`
/// decides already (no way to the end of `main`, only edges into the unexplored region), under
/// `budget`, which must have a deadline: without one they do not run (nor when the program has no
/// transition system).
pub(crate) fn start(analysis: &Analysis, prog: &Program, property: Property, budget: Budget) -> Option<Running> {
    let deadline = budget.deadline?;
    let cfa = analysis.cfa;
    // Most programs with pointers have no transition system: found out before anything is copied.
    crate::verify::ts::Ts::build(prog, cfa, property).ok()?;
    let no_exit = analysis.lines_without_exit();
    let frontier = analysis.lines_into_unexplored();
    let lines: Vec<u32> = analysis
        .reach
        .over_lines
        .iter()
        .copied()
        .filter(|l| no_exit.binary_search(l).is_err() && frontier.binary_search(l).is_err())
        .collect();
    if lines.is_empty() {
        return None;
    }
    let targets = cfa.edges_counting_for(&lines, analysis.line_rule);
    let cancel = Arc::new(AtomicBool::new(false));
    let config = KindConfig {
        budget: Budget { cancel: Some(Arc::clone(&cancel)), ..budget },
        max_k: MAX_K,
        conflicts: Some(CONFLICTS),
        // Many lines stay open because executions reach them beyond the base case's depth, so
        // the step case rarely holds for all: the last phase would always run, for little.
        disjunctions: false,
        ..KindConfig::default()
    };
    let published = Arc::new(Mutex::new(ProofsDone::default()));
    let (send, done) = std::sync::mpsc::channel();
    let (prog, cfa, shared) = (prog.clone(), cfa.clone(), Arc::clone(&published));
    let started = Instant::now();
    std::thread::Builder::new()
        .name("vcov-proofs".into())
        .spawn(move || {
            let t = started;
            let mut publish = |u: &Unreachability| {
                let now = proofs_of(&prog, &cfa, &lines, u, t);
                *shared.lock().unwrap_or_else(|e| e.into_inner()) = now;
            };
            let (found, _) = kind::unreachable(&prog, &cfa, property, &targets, &config, &mut publish);
            let done = proofs_of(&prog, &cfa, &lines, &found, t);
            *shared.lock().unwrap_or_else(|e| e.into_inner()) = done.clone();
            // The receiver is gone when the run did not wait.
            let _ = send.send(done);
        })
        .ok()?;
    Some(Running { cancel, published, done, deadline: Some(deadline), started })
}

impl Running {
    /// Stops the proofs: the search decided every line itself.
    pub fn cancel(self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The proofs, once they end or the deadline passes (then what they had published), or at once
    /// when `limited` (a limit or a signal ended the search).
    pub fn finish(self, limited: bool) -> ProofsDone {
        let waited = match (limited, self.deadline) {
            (true, _) => self.done.try_recv().map_err(|_| RecvTimeoutError::Timeout),
            (false, Some(d)) => self.done.recv_timeout(d.saturating_duration_since(Instant::now())),
            (false, None) => self.done.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        self.cancel.store(true, Ordering::Relaxed);
        match waited {
            Ok(done) => done,
            Err(_) => {
                let mut done = self.published.lock().unwrap_or_else(|e| e.into_inner()).clone();
                done.ended = "stopped by the limit".to_string();
                done.seconds = self.started.elapsed().as_secs_f64();
                done
            }
        }
    }
}

/// The proofs `u` establishes for `lines`, as the coverage result takes them.
fn proofs_of(prog: &Program, cfa: &Cfa, lines: &[u32], u: &Unreachability, start: Instant) -> ProofsDone {
    let n_inv = u.invariants.len();
    let lines = lines
        .iter()
        .zip(&u.proven)
        .filter_map(|(&l, p)| {
            let by = match (*p)? {
                Unreached::Bmc { steps } => NotCoverableBy::Bmc { steps },
                Unreached::Induction { k, invariants } => {
                    NotCoverableBy::Induction { k, invariants: if invariants { n_inv } else { 0 } }
                }
            };
            Some((l, by))
        })
        .collect();
    let invariants = u
        .invariants
        .iter()
        .map(|inv| LoopInvariant {
            function: prog.func(inv.func).name.clone(),
            line: loop_line(prog, cfa, inv.node),
            expr: inv.expr.clone(),
        })
        .collect();
    ProofsDone {
        proofs: ProgramProofs { lines, invariants },
        ended: u.ended.clone(),
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The proofs that may be claimed besides the executions `covered` (lines, ascending): none when a
/// proof says a covered line is never reached, which would make every proof of the run suspect.
pub(crate) fn consistent(done: ProofsDone, covered: &[u32]) -> Result<ProofsDone, u32> {
    match done.proofs.lines.keys().find(|l| covered.binary_search(l).is_ok()) {
        Some(&l) => Err(l),
        None => Ok(done),
    }
}

/// The line of a loop head: its `while`/`for`/`do` statement's, else the first line of the edges
/// that leave it.
fn loop_line(prog: &Program, cfa: &Cfa, node: crate::cfa::NodeId) -> u32 {
    if let Some(span) = cfa.node(node).loop_stmt {
        let (path, lc) = prog.file.position(span.lo);
        if path == prog.file.path() && lc.line > 0 {
            return lc.line;
        }
    }
    let first = cfa.out_edges(node).iter().filter_map(|&e| cfa.edge(e).lines).map(|(a, _)| a).min();
    first.unwrap_or(0)
}
