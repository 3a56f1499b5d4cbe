//! The time limit of a run as CPU time (`--timelimit`, as BenchExec and SV-COMP count it: the CPU
//! time of every thread of the process and of the children it waited for), with the wall clock as a
//! guard.
//!
//! Every part of a run that has a time limit holds the wall-clock deadline of the run (`deadline`
//! fields of `symex::Budget`, `sat::Interrupt`, the replay's configuration) and asks `past` whether
//! it has come; `past` also answers yes once the run's CPU time is spent, which the run's watchdog
//! (`driver::watchdog`, the one thread that reads the CPU clock) records with `spend`. So the
//! engines of a portfolio, which run on several threads, share one budget of CPU time, and a run
//! that waits (for gcc, or starved by other processes) still ends by the clock.
//!
//! Invariant: one flag per process, reset when a run's watchdog starts; nothing but the watchdog
//! sets it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Set once the run's CPU time is spent.
static SPENT: AtomicBool = AtomicBool::new(false);

/// Records that the run's CPU time is spent (`true`), or starts a run with its time whole.
pub fn spend(spent: bool) {
    SPENT.store(spent, Ordering::Relaxed);
}

/// Whether the run's CPU time is spent.
pub fn spent() -> bool {
    SPENT.load(Ordering::Relaxed)
}

/// Whether the time limit whose wall-clock deadline is `deadline` has come: the deadline passed,
/// or the run's CPU time is spent. Without a deadline there is no limit.
pub fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| spent() || Instant::now() >= d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_limit_comes_by_the_clock_or_by_the_cpu_time_spent() {
        let later = Some(Instant::now() + Duration::from_secs(3600));
        assert!(!past(None) && !past(later));
        assert!(past(Some(Instant::now())));
        spend(true);
        assert!(past(later) && !past(None));
        spend(false);
        assert!(!past(later));
    }
}
