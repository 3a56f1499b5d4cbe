//! The `vcov` binary: parses the arguments, runs the command, prints a fatal error once, and maps the
//! outcome to the exit code.

use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::sync::Mutex;

use clap::Parser;
use vcov::cli::{self, args::Cli, ExitStatus};

/// The message and place of the last panic, for the one-line report of an internal error.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

fn main() -> ExitCode {
    vcov::driver::mark_start();
    let cli = Cli::parse();
    // Standard output and error are locked one write at a time, never across the run: the progress
    // line is drawn from another thread while the command runs.
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    // The default hook's message would precede ours; a bug is reported once, in one line.
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = Some(format!("{what}{at}"));
        }
    }));
    // The last resort: a bug of vcov becomes one line and exit code 3. Outputs are staged until the
    // end of a command, so unwinding leaves no partial file behind.
    let res = std::panic::catch_unwind(AssertUnwindSafe(|| cli::run(cli, &mut stdout, &mut stderr)));
    match res {
        Ok(Ok(status)) => ExitCode::from(status as u8),
        Ok(Err(e)) => {
            // A closed pipe (`vcov cfa x.c | head`) is not an error.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("vcov: {e:#}");
            ExitCode::from(ExitStatus::Error as u8)
        }
        Err(_) => {
            let what = LAST_PANIC.lock().ok().and_then(|l| l.clone()).unwrap_or_else(|| "unknown panic".into());
            eprintln!("vcov: internal error: {what}; please report it with the command and its input files");
            ExitCode::from(ExitStatus::InternalError as u8)
        }
    }
}
