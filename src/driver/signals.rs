//! SIGINT and SIGTERM as a request to stop: the first sets a flag the search polls (through
//! `symex::Budget::stop`), so the run ends with what it has; a second ends the process at once
//! (exit 128 + signal), before anything is written.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use signal_hook::SigId;

/// The handlers of one run; dropping it restores the default behaviour.
pub struct StopSignals {
    stop: Arc<AtomicBool>,
    received: Vec<(i32, Arc<AtomicBool>)>,
    handlers: Vec<SigId>,
}

impl StopSignals {
    /// Installs the handlers for SIGINT and SIGTERM.
    pub fn install() -> Result<StopSignals> {
        let stop = Arc::new(AtomicBool::new(false));
        let mut handlers = Vec::new();
        let mut received = Vec::new();
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            let got = Arc::new(AtomicBool::new(false));
            // A second signal ends the process at once (nothing has been written yet).
            handlers.push(
                signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&got))
                    .context("cannot install a signal handler")?,
            );
            for flag in [&stop, &got] {
                handlers.push(
                    signal_hook::flag::register(sig, Arc::clone(flag)).context("cannot install a signal handler")?,
                );
            }
            received.push((sig, got));
        }
        Ok(StopSignals { stop, received, handlers })
    }

    /// The flag a signal sets (for `Budget::stop`).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The first of SIGINT, SIGTERM that arrived, if one did.
    pub fn received(&self) -> Option<i32> {
        self.received.iter().find(|(_, got)| got.load(Ordering::Relaxed)).map(|(sig, _)| *sig)
    }
}

impl Drop for StopSignals {
    fn drop(&mut self) {
        for h in self.handlers.drain(..) {
            signal_hook::low_level::unregister(h);
        }
    }
}
