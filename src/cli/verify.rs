//! `vcov verify`: flags, their validation, and the printed verdict.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use crate::base::signal_name;
use crate::cfront::types::DataModel;
use crate::driver;
use crate::driver::VerifyConfig;
use crate::symex::{Mode, Strategy};
use crate::verify::region::Dialect;
use crate::verify::Verdict;
use clap::Args;

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
    /// Only the explicit-path search, breadth-first (the default runs a portfolio: the explicit
    /// search depth-first beside BMC and k-induction).
    #[arg(long, conflicts_with_all = ["dfs", "kinduction"])]
    bfs: bool,
    /// Only the explicit-path search, depth-first.
    #[arg(long, conflicts_with = "kinduction")]
    dfs: bool,
    /// Only BMC and k-induction (integer programs without arrays or pointers).
    #[arg(long, conflicts_with_all = ["unwind", "partial_incremental", "no_state_caching"])]
    kinduction: bool,
    /// Partial-incremental solving: a fresh solver on every backtrack.
    #[arg(long)]
    partial_incremental: bool,
    /// Cut paths after N iterations of a loop (the result can then not be TRUE).
    #[arg(long, value_name = "N")]
    unwind: Option<u32>,
    /// Time limit in seconds [default: no limit].
    #[arg(long, value_name = "S")]
    timelimit: Option<f64>,
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
    memory_limit: Option<u64>,
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
    #[arg(long, value_name = "S", requires = "aa_out")]
    snapshot_every: Option<f64>,
    /// Preprocessor options.
    #[command(flatten)]
    preprocess: super::args::PreprocessArgs,
}

/// Runs `vcov verify`: a verdict (exit code 0), or an error for bad input.
pub fn run(args: VerifyArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<super::ExitStatus> {
    if let Some(t) = args.timelimit {
        if !(t.is_finite() && t > 0.0) {
            anyhow::bail!("--timelimit must be a positive number of seconds");
        }
    }
    if let Some(t) = args.snapshot_every {
        if !(t.is_finite() && t > 0.0) {
            anyhow::bail!("--snapshot-every must be a positive number of seconds");
        }
    }
    let aa_out = args.aa_out.clone().map(|path| driver::region::AaOut {
        path,
        dialect: args.aa_dialect.as_deref().map(|d| if d == "2" { Dialect::V2 } else { Dialect::V1 }),
        snapshot_every: args.snapshot_every.map(Duration::from_secs_f64),
    });
    if let Some(out) = &aa_out {
        out.check()?;
    }
    let config = VerifyConfig {
        condition: args.condition.clone(),
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
        time_limit: args.timelimit.map(Duration::from_secs_f64),
        no_state_caching: args.no_state_caching,
        memory_limit_mb: args.memory_limit,
        preprocess: super::preprocess(args.preprocess.clone()),
        stop: None,
        progress: !args.no_progress,
        // An option of the explicit search forces it alone.
        engines: if args.kinduction {
            crate::verify::Engines::KInduction
        } else if args.bfs || args.dfs || args.unwind.is_some() || args.partial_incremental || args.no_state_caching {
            crate::verify::Engines::Explicit
        } else {
            crate::verify::Engines::Portfolio
        },
    };
    // The limits hold over the whole run: one that ends it before the search could answer gives
    // UNKNOWN with the limit and what the run was doing.
    let _watchdog = driver::watchdog::Watchdog::start(
        driver::watchdog::RunLimits::from_now(config.time_limit, config.memory_limit_mb),
        Box::new(|limit, phase| {
            println!("Verification result: UNKNOWN ({} while {})", limit.name(), phase.doing());
            super::ExitStatus::Success as i32
        }),
    );
    // SIGINT or SIGTERM stops the search: the answer is UNKNOWN, and the exit code says which signal.
    let signals = driver::signals::StopSignals::install()?;
    let config = VerifyConfig { stop: Some(signals.flag()), ..config };
    // An internal error (a bug of vcov) must not turn into a verdict: report it as UNKNOWN.
    let Ok(result) = std::panic::catch_unwind(|| driver::verify(&config)) else {
        writeln!(out, "Verification result: UNKNOWN (internal error)")?;
        return Ok(super::ExitStatus::Success);
    };
    let mut report = result?;
    // A signal that came after the answer changes nothing.
    let signal = signals.received().filter(|_| matches!(report.verdict, Verdict::Unknown(_)));
    drop(signals);
    if let Some(sig) = signal {
        report.verdict = Verdict::Unknown(format!("stopped by {}", signal_name(sig).unwrap_or("a signal")));
    }
    super::print_diagnostics(err, &report.diagnostics);
    // Every counterexample was replayed by the internal interpreter; `--confirm` adds gcc.
    let mut confirmed_by = None;
    if let (Verdict::False, Some((prog, inputs))) = (&report.verdict, &report.counterexample) {
        if args.confirm {
            let arch = report.data_model;
            let why = match driver::replay::confirm_violation(&report.program, prog, arch, inputs) {
                Ok(Ok(_)) => None,
                Ok(Err(end)) => Some(format!("counterexample not confirmed by gcc {}: {end}", arch.gcc_flag())),
                Err(e) => Some(format!("counterexample not confirmed: gcc could not run it: {e:#}")),
            };
            match why {
                None => confirmed_by = Some(format!("internal interpreter and gcc {}", arch.gcc_flag())),
                Some(why) => {
                    // One line: the reason and the first lines of gcc's complaint.
                    let mut one: String = why.lines().take(3).collect::<Vec<_>>().join(" ");
                    if one.len() > 300 {
                        one.truncate(one.floor_char_boundary(300));
                        one.push_str(" ...");
                    }
                    report.verdict = Verdict::Unknown(one);
                    report.witness = None;
                }
            }
        } else {
            confirmed_by = Some("internal interpreter".to_string());
        }
    }
    driver::watchdog::finish();
    // The witnesses are written before anything is printed: a reader that closes the pipe after
    // the verdict (`| head -1`) must not keep them from being written.
    let mut written = Vec::new();
    for path in &args.witness {
        let yaml = path.extension().is_some_and(|e| e == "yml" || e == "yaml");
        let text = if yaml { &report.witness_yaml } else { &report.witness };
        match text {
            Some(text) => {
                crate::driver::write_atomically(path, text.as_bytes())
                    .with_context(|| format!("{}: cannot write the witness", path.display()))?;
                written.push(path);
            }
            // vcov writes no YAML violation witnesses (format 2.0 `violation_sequence`).
            None if yaml && report.verdict == Verdict::False => {
                writeln!(err, "note: {}: no YAML violation witness (the GraphML one is written)", path.display())?
            }
            None => {}
        }
    }
    writeln!(out, "Verification result: {}", report.verdict)?;
    if let Some(basis) = &report.basis {
        writeln!(out, "Basis: {basis}")?;
    }
    if let Some((path, states)) = &report.aa_written {
        writeln!(out, "Explored region written to {} ({states} states)", path.display())?;
    }
    if let Some(by) = confirmed_by {
        writeln!(out, "Counterexample confirmed by: {by}")?;
    }
    for path in written {
        writeln!(out, "Witness written to {}", path.display())?;
    }
    if args.stats {
        write!(out, "{}", report.stats)?;
        if let Some((stats, said)) = &report.kind {
            write!(out, "{stats}")?;
            writeln!(out, "  result:                 {said}")?;
        }
        if let Some(r) = &report.random {
            writeln!(
                out,
                "random testing:\n  runs:                   {}\n  edges run:              {}",
                r.runs, r.steps
            )?;
        }
        match report.engine {
            Some(engine) => writeln!(out, "Decided by: {engine}")?,
            None => writeln!(out, "Decided by: -")?,
        }
    }
    Ok(super::ExitStatus::after(signal))
}
