//! The `vcov` command line: parses arguments, runs the pipeline, maps the outcome to an exit code.

use clap::Parser;

/// Verification coverage of C programs from interrupted software-verifier runs.
#[derive(Parser)]
#[command(name = "vcov", version)]
struct Cli {}

fn main() {
    let _ = Cli::parse();
}
