//! Limits of one exploration: a deadline and an interrupt flag, and the reason a run stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::sat::{Interrupt, MovableDeadline};

/// The memory limit of `vcov verify` and `vcov coverage` unless told otherwise, in MiB: well within
/// the 8 GiB SV-COMP gives a verifier, and leaves room for the report.
pub const DEFAULT_MEMORY_MB: u64 = 6144;

/// When an exploration must give up.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Stop once this instant has passed. [default: none]
    pub deadline: Option<Instant>,
    /// Stop once this flag is set (for example by a SIGINT handler). [default: none]
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop once the process's resident memory exceeds this many bytes (checked now and then, on
    /// Linux). [default: none]
    pub memory: Option<u64>,
    /// Stop once this flag is set: the memory limit was passed (set by a watchdog that looks more
    /// often than the search can). [default: none]
    pub memory_flag: Option<Arc<AtomicBool>>,
    /// Stop once this flag is set: another engine of a portfolio decided (`verify::decide`).
    /// [default: none]
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop for the time limit once this deadline passes, which the run moves earlier to keep the
    /// time what it does after the search takes (`vcov verify --aa-out`). [default: none]
    pub movable: Option<MovableDeadline>,
}

/// Why an exploration ended before it had explored every path.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StopReason {
    /// The deadline passed.
    Time,
    /// The interrupt flag was set.
    Interrupted,
    /// The solver gave up on a query without an answer (other than by the deadline or the flag).
    SolverUnknown,
    /// The caller (or its `Guide`) asked the exploration to stop.
    Requested,
    /// The memory limit was reached.
    Memory,
}

impl Budget {
    /// A budget that ends `limit` from now.
    pub fn with_time_limit(limit: Duration) -> Budget {
        Budget { deadline: Some(Instant::now() + limit), ..Budget::default() }
    }

    /// Whether the process uses more memory than allowed (cheap enough to call every few thousand
    /// steps: one read of `/proc/self/statm`).
    pub fn memory_exhausted(&self) -> bool {
        let Some(limit) = self.memory else { return false };
        resident_bytes().is_some_and(|r| r > limit)
    }

    /// The reason to stop now, if any.
    pub fn exhausted(&self) -> Option<StopReason> {
        if self.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Some(StopReason::Interrupted);
        }
        if crate::base::clock::past(self.deadline) || self.movable.as_ref().is_some_and(MovableDeadline::passed) {
            return Some(StopReason::Time);
        }
        if self.memory_flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Some(StopReason::Memory);
        }
        if self.cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Some(StopReason::Requested);
        }
        None
    }

    /// The same limits for a solver call.
    pub fn interrupt(&self) -> Interrupt {
        Interrupt {
            stop: self.stop.clone(),
            also: self.memory_flag.clone(),
            cancel: self.cancel.clone(),
            deadline: self.deadline,
            movable: self.movable.clone(),
        }
    }
}

impl StopReason {
    /// A short description for messages (`time limit`, `interrupted`, ...).
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Time => "time limit",
            StopReason::Interrupted => "interrupted",
            StopReason::SolverUnknown => "solver gave up",
            StopReason::Requested => "stopped on request",
            StopReason::Memory => "memory limit",
        }
    }
}

/// The resident set size of this process, if the system tells it.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_and_deadline() {
        let b = Budget::default();
        assert_eq!(b.exhausted(), None);
        let flag = Arc::new(AtomicBool::new(false));
        let b = Budget { stop: Some(flag.clone()), ..Budget::default() };
        assert_eq!(b.exhausted(), None);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(b.exhausted(), Some(StopReason::Interrupted));
        let b = Budget { deadline: Some(Instant::now()), ..Budget::default() };
        assert_eq!(b.exhausted(), Some(StopReason::Time));
        assert!(b.interrupt().is_triggered());
        assert!(!b.memory_exhausted());
        assert!(Budget { memory: Some(1), ..Budget::default() }.memory_exhausted());
        let flag = Arc::new(AtomicBool::new(false));
        let b = Budget { memory_flag: Some(flag.clone()), ..Budget::default() };
        assert_eq!(b.exhausted(), None);
        assert!(!b.interrupt().is_triggered());
        flag.store(true, Ordering::Relaxed);
        assert_eq!(b.exhausted(), Some(StopReason::Memory));
        assert!(b.interrupt().is_triggered());
    }
}
