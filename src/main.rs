//! The `vcov` command line: parses arguments, runs the pipeline, maps the outcome to an exit code.

mod verify_cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use vcov::base::SourceFile;
use vcov::cfront::types::DataModel;

/// Verification coverage of C programs from interrupted software-verifier runs.
#[derive(Parser)]
#[command(name = "vcov", version)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Print the control-flow automaton of a program.
    Cfa {
        /// The C program.
        program: PathBuf,
        /// Print Graphviz DOT instead of text.
        #[arg(long)]
        dot: bool,
        /// 64-bit data model (LP64).
        #[arg(long = "64")]
        lp64: bool,
    },
    /// Verify a reachability property (SV-COMP style) with the symbolic executor.
    Verify(verify_cli::VerifyArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Verify(args) => verify_cli::run(args),
        Cmd::Cfa { program, dot, lp64 } => {
            let text = std::fs::read_to_string(&program).unwrap();
            let dm = if lp64 { DataModel::Lp64 } else { DataModel::Ilp32 };
            let (mut prog, _) = vcov::cfront::parse_program(SourceFile::new(&program, text), dm).unwrap();
            let (cfa, _) = vcov::cfa::build(&mut prog, &Default::default()).unwrap();
            if dot {
                print!("{}", vcov::cfa::to_dot(&cfa, &prog));
            } else {
                print!("{}", vcov::cfa::to_text(&cfa, &prog));
            }
            ExitCode::SUCCESS
        }
    }
}
