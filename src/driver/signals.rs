//! SIGINT and SIGTERM as a request to stop: the first sets a flag the search polls (through
//! `symex::Budget::stop`), so the run ends with what it has; a second ends the process at once
//! (exit 128 + signal, `ExitStatus::after`), before anything is written.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use signal_hook::SigId;

use crate::base::ExitStatus;

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
                signal_hook::flag::register_conditional_shutdown(
                    sig,
                    ExitStatus::after(Some(sig)) as i32,
                    Arc::clone(&got),
                )
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_signal_numbers_of_base_are_the_systems() {
        use crate::base::{SIGINT, SIGNALS, SIGTERM};
        assert_eq!((SIGINT, SIGTERM), (libc::SIGINT, libc::SIGTERM));
        let system = [
            (libc::SIGHUP, "SIGHUP"),
            (libc::SIGINT, "SIGINT"),
            (libc::SIGQUIT, "SIGQUIT"),
            (libc::SIGILL, "SIGILL"),
            (libc::SIGABRT, "SIGABRT"),
            (libc::SIGBUS, "SIGBUS"),
            (libc::SIGFPE, "SIGFPE"),
            (libc::SIGKILL, "SIGKILL"),
            (libc::SIGSEGV, "SIGSEGV"),
            (libc::SIGPIPE, "SIGPIPE"),
            (libc::SIGALRM, "SIGALRM"),
            (libc::SIGTERM, "SIGTERM"),
            (libc::SIGXCPU, "SIGXCPU"),
            (libc::SIGXFSZ, "SIGXFSZ"),
        ];
        assert_eq!(SIGNALS, system);
    }
}
