//! The value analysis of the product running beside the search, on a thread of its own.

use super::*;

/// Edges the search executes before the value analysis starts beside it: a search that ends sooner
/// (most that stop at a bug) does not share the machine with it.
pub(super) const VALUES_START_EDGES: u64 = 20_000;

/// Edges the search executes before it waits for the value analysis, if that has not ended yet, and
/// stops targeting the lines it rules out (a count of edges, not a time, so that the result does not
/// depend on the machine or the thread count).
pub(super) const VALUES_JOIN_EDGES: u64 = 50_000;

/// The value analysis' thread, once started.
pub(super) type ValuesHandle<'s> = std::thread::ScopedJoinHandle<'s, (RuledOut, f64)>;

/// The value analysis of the product (`Analysis::lines_ruled_out`) running beside the search: lines
/// no execution reaches inside the region are decided without the search, which stops looking for
/// them once it has them. It starts after `VALUES_START_EDGES` edges; the search joins it after
/// `VALUES_JOIN_EDGES` edges or when it ends (a search that ended sooner runs it then), except when
/// it stops at the first bug: then it reports without it. (Pruning the product edges it rules out
/// from the guide's targets as well changes the search order for the worse on keyspan_remote.BUG.)
pub(super) struct ValuesBeside<'s> {
    pub(super) start: Option<Box<dyn FnOnce() -> ValuesHandle<'s> + 's>>,
    pub(super) handle: Option<ValuesHandle<'s>>,
    pub(super) cancel: &'s AtomicBool,
}

impl ValuesBeside<'_> {
    /// Starts the analysis if it has not started.
    pub(super) fn start(&mut self) {
        if let Some(start) = self.start.take() {
            self.handle = Some(start());
        }
    }

    /// Whether it has started (or ended).
    pub(super) fn started(&self) -> bool {
        self.start.is_none()
    }

    /// Whether its result is still to be taken.
    pub(super) fn pending(&self) -> bool {
        self.start.is_some() || self.handle.is_some()
    }

    /// The analysis' result and how long it took, waiting for it; `None` after the first call.
    pub(super) fn join(&mut self) -> Option<(RuledOut, f64)> {
        self.start();
        let handle = self.handle.take()?;
        Some(handle.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    }

    /// Stops the analysis without its result (it never starts if it has not).
    pub(super) fn abandon(&mut self) {
        self.start = None;
        self.cancel.store(true, Ordering::Relaxed);
        self.handle.take();
    }
}

impl SearchOutcome {
    /// Takes the value analysis' result (if it has not been taken) and decides its lines in `guide`.
    pub(super) fn join_values(&mut self, values: &mut ValuesBeside, guide: &mut CoverageGuide) {
        if let Some((ruled_out, seconds)) = values.join() {
            guide.mark_proven(&ruled_out.all);
            self.ruled_out = ruled_out;
            self.times.values += seconds;
        }
    }
}
