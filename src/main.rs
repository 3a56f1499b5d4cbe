//! The `vcov` binary: parses the arguments, runs the command, prints a fatal error once, and maps the
//! outcome to the exit code.

use std::process::ExitCode;

use clap::Parser;
use vcov::cli::{self, args::Cli, ExitStatus};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    match cli::run(cli, &mut stdout.lock(), &mut stderr.lock()) {
        Ok(status) => ExitCode::from(status as u8),
        Err(e) => {
            // A closed pipe (`vcov cfa x.c | head`) is not an error.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("vcov: {e:#}");
            ExitCode::from(ExitStatus::Error as u8)
        }
    }
}
