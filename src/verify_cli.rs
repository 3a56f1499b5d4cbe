//! The `vcov verify` subcommand: flags, their validation, and the printed verdict.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use vcov::cfront::types::DataModel;
use vcov::symex::{Mode, Strategy};
use vcov::verify::{self, VerifyConfig};

/// Flags of `vcov verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The C program (taken from the task when omitted).
    program: Option<PathBuf>,
    /// SV-COMP task definition (.yml): input file, property, data model.
    #[arg(long)]
    task: Option<PathBuf>,
    /// Property file (unreach-call.prp).
    #[arg(long)]
    prop: Option<PathBuf>,
    /// Specification: `errorlabel` checks that no label ERROR is reachable (CPAchecker's ErrorLabel).
    #[arg(long, value_parser = ["errorlabel", "unreach-call"])]
    spec: Option<String>,
    /// 32-bit data model (ILP32), the default.
    #[arg(long = "32", conflicts_with = "lp64")]
    ilp32: bool,
    /// 64-bit data model (LP64).
    #[arg(long = "64")]
    lp64: bool,
    /// Breadth-first search instead of depth-first.
    #[arg(long)]
    bfs: bool,
    /// Partial-incremental solving: a fresh solver on every backtrack.
    #[arg(long)]
    partial_incremental: bool,
    /// Cut paths after N iterations of a loop (the result can then not be TRUE).
    #[arg(long, value_name = "N")]
    unwind: Option<u32>,
    /// Time limit in seconds.
    #[arg(long, value_name = "S")]
    timelimit: Option<f64>,
    /// Write a GraphML violation witness here when the result is FALSE.
    #[arg(long, value_name = "FILE")]
    witness: Option<PathBuf>,
    /// Print exploration statistics.
    #[arg(long)]
    stats: bool,
    /// Turn state caching at loop heads off.
    #[arg(long)]
    no_state_caching: bool,
    /// Give up when the process uses more than this much memory, in MiB [default: 6144].
    #[arg(long, value_name = "MB")]
    memory_limit: Option<u64>,
}

/// Runs `vcov verify`; exit code 0 with a verdict, 2 on bad input.
pub fn run(args: VerifyArgs) -> ExitCode {
    if let Some(t) = args.timelimit {
        if !(t.is_finite() && t > 0.0) {
            eprintln!("vcov: --timelimit must be a positive number of seconds");
            return ExitCode::from(2);
        }
    }
    let config = VerifyConfig {
        program: args.program,
        task: args.task,
        prop: args.prop,
        error_label: args.spec.as_deref() == Some("errorlabel"),
        data_model: if args.lp64 {
            Some(DataModel::Lp64)
        } else if args.ilp32 {
            Some(DataModel::Ilp32)
        } else {
            None
        },
        strategy: if args.bfs { Strategy::Bfs } else { Strategy::Dfs },
        mode: if args.partial_incremental { Mode::Partial } else { Mode::Full },
        unwind: args.unwind,
        time_limit: args.timelimit.map(Duration::from_secs_f64),
        witness: args.witness,
        no_state_caching: args.no_state_caching,
        memory_limit_mb: args.memory_limit,
    };
    // An internal error must not turn into a verdict: report it as UNKNOWN.
    let run = std::panic::catch_unwind(|| verify::run(&config));
    let Ok(result) = run else {
        println!("Verification result: UNKNOWN (internal error)");
        return ExitCode::SUCCESS;
    };
    match result {
        Ok(report) => {
            println!("Verification result: {}", report.verdict);
            if let Some(w) = &report.witness {
                println!("Witness written to {}", w.display());
            }
            if args.stats {
                print!("{}", verify::stats_text(&report.stats));
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("vcov: {err:#}");
            ExitCode::from(2)
        }
    }
}
