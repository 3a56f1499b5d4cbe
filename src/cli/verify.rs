//! `vcov verify`: its flags, their translation into `driver::VerifyConfig`, and the printed outcome
//! of `driver::verify`, which runs the command and decides the verdict.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cfront::types::DataModel;
use crate::driver::{self, EngineReport, VerifyConfig, VerifyNote, VerifyOutcome};
use crate::symex::{Mode, Strategy};
use crate::verify::region::Dialect;
use crate::verify::{Engines, StopSignal};

/// Flags of `vcov verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The C program (taken from the task when omitted).
    pub(super) program: Option<PathBuf>,
    /// SV-COMP task definition (.yml): input file, property, data model.
    #[arg(long)]
    pub(super) task: Option<PathBuf>,
    /// Property file (unreach-call.prp).
    #[arg(long)]
    prop: Option<PathBuf>,
    /// Specification: `errorlabel` checks that no label ERROR is reachable (CPAchecker's ErrorLabel).
    #[arg(long, value_parser = ["errorlabel", "unreach-call"])]
    spec: Option<String>,
    /// 32-bit data model (ILP32), the default.
    #[arg(long = "32", conflicts_with = "lp64")]
    pub(super) ilp32: bool,
    /// 64-bit data model (LP64).
    #[arg(long = "64")]
    pub(super) lp64: bool,
    /// Only the explicit-path search, breadth-first (the default runs a portfolio: the explicit
    /// search depth-first beside BMC and k-induction).
    #[arg(long, conflicts_with_all = ["dfs", "kinduction"])]
    bfs: bool,
    /// Only the explicit-path search, depth-first.
    #[arg(long, conflicts_with = "kinduction")]
    dfs: bool,
    /// Only BMC and k-induction (programs over integer, float and double variables, without arrays or pointers).
    #[arg(long, conflicts_with_all = ["unwind", "partial_incremental", "no_state_caching"])]
    kinduction: bool,
    /// Partial-incremental solving: a fresh solver on every backtrack.
    #[arg(long)]
    partial_incremental: bool,
    /// Cut paths after N iterations of a loop (the result can then not be TRUE).
    #[arg(long, value_name = "N")]
    unwind: Option<u32>,
    /// Time limit in seconds of CPU time, as BenchExec counts it (every thread, and gcc's runs),
    /// and the same seconds by the clock at most [default: no limit].
    #[arg(long, value_name = "S", value_parser = super::args::positive_seconds)]
    pub(super) timelimit: Option<Duration>,
    /// Write the witness of a TRUE or FALSE result here: GraphML (format 1.0; a violation or a
    /// correctness witness), or for a name ending in .yml or .yaml the YAML correctness witness
    /// (format 2.0) of a TRUE result. May be given twice, e.g. `--witness witness.graphml --witness
    /// witness.yml`.
    #[arg(long, value_name = "FILE")]
    witness: Vec<PathBuf>,
    /// Print exploration statistics.
    #[arg(long)]
    stats: bool,
    /// No progress line on standard error (there is none when it is not a terminal).
    #[arg(long)]
    no_progress: bool,
    /// Turn state caching at loop heads off.
    #[arg(long)]
    no_state_caching: bool,
    /// Give up when the process uses more than this much memory, in MiB [default: 6144].
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) memory_limit: Option<u64>,
    /// Before answering FALSE, run the counterexample's inputs in the program compiled by gcc (with
    /// the harness of `vcov replay`); a counterexample gcc does not confirm gives UNKNOWN.
    #[arg(long)]
    confirm: bool,
    /// Verify only what this assumption automaton (a first verifier's, e.g. CPAchecker's
    /// AssumptionAutomaton.txt, or a CPAchecker output folder) leaves open; a TRUE then rests on the
    /// first verifier's claim on the region it explored (for the property it checked).
    #[arg(long, value_name = "AA")]
    condition: Option<PathBuf>,
    /// Write the region the explicit-path search explored as an assumption automaton (also when a
    /// limit or a signal stops the run); with --snapshot-every, a folder of automata.
    #[arg(long, value_name = "FILE")]
    aa_out: Option<PathBuf>,
    /// The CPAchecker texts of --aa-out: 1 (1.x) or 2 (2.3 and later) [default: the condition's,
    /// or 1].
    #[arg(long, value_name = "N", value_parser = ["1", "2"], requires = "aa_out")]
    aa_dialect: Option<String>,
    /// Write an automaton of the explored region into the folder --aa-out every S seconds (and
    /// aa-final.txt at the end).
    #[arg(long, value_name = "S", requires = "aa_out", value_parser = super::args::positive_seconds)]
    snapshot_every: Option<Duration>,
    /// Preprocessor options.
    #[command(flatten)]
    preprocess: super::args::PreprocessArgs,
}

/// Runs `vcov verify`: a verdict (exit code 0, or 130/143 when a signal stopped the run), or an
/// error for bad input. The run is `driver::verify`'s; this prints its outcome.
pub fn run(args: VerifyArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<super::ExitStatus> {
    let stats = args.stats;
    let mut outcome = driver::verify(&config(args)?)?;
    print_notes(&outcome, err)?;
    if let Some(e) = outcome.witness_error.take() {
        return Err(e);
    }
    print(&outcome, stats, out)?;
    Ok(match outcome.stopped_by {
        Some(StopSignal::Interrupt) => super::ExitStatus::Interrupted,
        Some(StopSignal::Terminate) => super::ExitStatus::Terminated,
        None => super::ExitStatus::Success,
    })
}

/// The configuration of the flags.
fn config(args: VerifyArgs) -> anyhow::Result<VerifyConfig> {
    let aa_out = args.aa_out.map(|path| driver::region::AaOut {
        path,
        dialect: args.aa_dialect.as_deref().map(|d| if d == "2" { Dialect::V2 } else { Dialect::V1 }),
        snapshot_every: args.snapshot_every,
    });
    if let Some(out) = &aa_out {
        out.check()?;
    }
    Ok(VerifyConfig {
        condition: args.condition,
        aa_out,
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
        time_limit: args.timelimit,
        no_state_caching: args.no_state_caching,
        memory_limit_mb: args.memory_limit,
        preprocess: super::preprocess(args.preprocess),
        progress: !args.no_progress,
        // An option of the explicit search forces it alone.
        engines: if args.kinduction {
            Engines::KInduction
        } else if args.bfs || args.dfs || args.unwind.is_some() || args.partial_incremental || args.no_state_caching {
            Engines::Explicit
        } else {
            Engines::Portfolio
        },
        witness: args.witness,
        confirm: args.confirm,
    })
}

/// Prints the diagnostics and notes of `outcome` on `err`.
fn print_notes(outcome: &VerifyOutcome, err: &mut dyn Write) -> anyhow::Result<()> {
    super::print_diagnostics(err, &outcome.diagnostics);
    for note in &outcome.notes {
        match note {
            VerifyNote::NoYamlViolationWitness(path) => {
                writeln!(err, "note: {}: no YAML violation witness (the GraphML one is written)", path.display())?
            }
        }
    }
    Ok(())
}

/// Prints the verdict of `outcome` and what it rests on, and with `stats` what the engines did.
fn print(outcome: &VerifyOutcome, stats: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out, "{}", outcome.verdict.result_line())?;
    if let Some(basis) = &outcome.basis {
        writeln!(out, "Basis: {basis}")?;
    }
    if let Some((path, states)) = &outcome.aa_written {
        writeln!(out, "Explored region written to {} ({states} states)", path.display())?;
    }
    if let Some(by) = outcome.confirmed_by {
        writeln!(out, "Counterexample confirmed by: {by}")?;
    }
    for path in &outcome.witnesses {
        writeln!(out, "Witness written to {}", path.display())?;
    }
    match &outcome.engines {
        Some(engines) if stats => print_stats(engines, out),
        _ => Ok(()),
    }
}

/// What the engines did (`--stats`).
fn print_stats(report: &EngineReport, out: &mut dyn Write) -> anyhow::Result<()> {
    write!(out, "{}", report.stats)?;
    if let Some((stats, said)) = &report.kind {
        write!(out, "{stats}")?;
        writeln!(out, "  result:                 {said}")?;
    }
    if let Some(r) = &report.random {
        writeln!(out, "random testing:\n  runs:                   {}\n  edges run:              {}", r.runs, r.steps)?;
    }
    // The whole run so far, as `--timelimit` counts it (CPU: every thread, and gcc's runs).
    let (wall, cpu) = (crate::driver::started().elapsed().as_secs_f64(), crate::driver::run_cpu_seconds());
    writeln!(out, "run time:                 {wall:.2} s wall, {cpu:.2} s CPU")?;
    match report.engine {
        Some(engine) => writeln!(out, "Decided by: {engine}")?,
        None => writeln!(out, "Decided by: -")?,
    }
    Ok(())
}
