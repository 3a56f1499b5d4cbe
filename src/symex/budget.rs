//! Limits of one exploration: a deadline and an interrupt flag, and the reason a run stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::sat::Interrupt;

/// When an exploration must give up.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Stop once this instant has passed. [default: none]
    pub deadline: Option<Instant>,
    /// Stop once this flag is set (for example by a SIGINT handler). [default: none]
    pub stop: Option<Arc<AtomicBool>>,
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
}

impl Budget {
    /// A budget that ends `limit` from now.
    pub fn with_time_limit(limit: Duration) -> Budget {
        Budget { deadline: Some(Instant::now() + limit), stop: None }
    }

    /// The reason to stop now, if any.
    pub fn exhausted(&self) -> Option<StopReason> {
        if self.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Some(StopReason::Interrupted);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(StopReason::Time);
        }
        None
    }

    /// The same limits for a solver call.
    pub fn interrupt(&self) -> Interrupt {
        Interrupt { stop: self.stop.clone(), deadline: self.deadline }
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_and_deadline() {
        let b = Budget::default();
        assert_eq!(b.exhausted(), None);
        let flag = Arc::new(AtomicBool::new(false));
        let b = Budget { deadline: None, stop: Some(flag.clone()) };
        assert_eq!(b.exhausted(), None);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(b.exhausted(), Some(StopReason::Interrupted));
        let b = Budget { deadline: Some(Instant::now()), stop: None };
        assert_eq!(b.exhausted(), Some(StopReason::Time));
        assert!(b.interrupt().is_triggered());
    }
}
