//! `vcov verify`: SV-COMP-style verification of a reachability property with the symbolic executor.
//!
//! Reads the program (and the task definition and property file, if given), builds the CFA, runs an
//! exhaustive exploration (`symex::Exhaustive`) and turns its outcome into a verdict:
//! - FALSE when a violating path was found whose inputs, replayed by the concrete interpreter, take
//!   exactly the same path to the violation, and whose model made no approximation that could make
//!   the violation spurious; a GraphML violation witness is written for it.
//! - TRUE only when the exploration ran out of paths with no path cut (unwinding bound, unsupported
//!   construct, possible undefined behaviour), no approximation, and no violation found.
//! - UNKNOWN with the reason otherwise (time limit, cuts, approximations, a counterexample that did
//!   not replay).
//!
//! Invariant: this is the only part of `verify` that touches files.

pub mod task;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{bail, Context};

use crate::base::{Diagnostic, SourceFile};
use crate::cfa::{self, CfaConfig};
use crate::cfront::{self, types::DataModel};
use crate::symex::{
    self, Budget, Exhaustive, ExploreConfig, Mode, PathEnd, Property, ReplayEnd, Stats, StopReason, Strategy,
};
use crate::witness::{self, WitnessInfo};

/// Options of `vcov verify`.
#[derive(Clone, Debug, Default)]
pub struct VerifyConfig {
    /// The program; taken from the task when absent. [default: none]
    pub program: Option<PathBuf>,
    /// An SV-COMP task definition (`.yml`). [default: none]
    pub task: Option<PathBuf>,
    /// A property file (`unreach-call.prp`); overrides the task's. [default: none]
    pub prop: Option<PathBuf>,
    /// Check CPAchecker's ErrorLabel specification (no label `ERROR` reachable) instead. [default: false]
    pub error_label: bool,
    /// The data model from the command line; the task's `data_model` wins. [default: ILP32]
    pub data_model: Option<DataModel>,
    /// Search order. [default: DFS]
    pub strategy: Strategy,
    /// Incremental mode. [default: full]
    pub mode: Mode,
    /// Unwinding bound. [default: none]
    pub unwind: Option<u32>,
    /// Time limit. [default: none]
    pub time_limit: Option<Duration>,
    /// Turn state caching off (for measurements). [default: false]
    pub no_state_caching: bool,
    /// Give up (UNKNOWN) when the process uses more memory than this. [default: 6144 MiB]
    pub memory_limit_mb: Option<u64>,
    /// Stop (UNKNOWN) once this flag is set, by a SIGINT or SIGTERM handler. [default: none]
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// The answer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The property holds.
    True,
    /// The property is violated (a replayed counterexample exists).
    False,
    /// No answer, with the reason.
    Unknown(String),
}

/// What `run` found.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// The verdict.
    pub verdict: Verdict,
    /// Exploration counters.
    pub stats: Stats,
    /// The GraphML violation witness, when the verdict is FALSE.
    pub witness: Option<String>,
    /// Diagnostics of the front end and the CFA builder.
    pub diagnostics: Vec<Diagnostic>,
    /// The expected verdict of the task, if it gives one.
    pub expected: Option<bool>,
    /// The program file (from the command line or the task).
    pub program: PathBuf,
    /// The data model used (the task's, the command line's, or ILP32).
    pub data_model: DataModel,
    /// When the verdict is FALSE: the program and the inputs of the counterexample (for confirming
    /// it outside, `vcov verify --confirm`).
    pub counterexample: Option<(cfront::ir::Program, Vec<symex::InputValue>)>,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::True => write!(f, "TRUE"),
            Verdict::False => write!(f, "FALSE(unreach-call)"),
            Verdict::Unknown(why) => write!(f, "UNKNOWN ({why})"),
        }
    }
}

/// The default text of the ErrorLabel specification for witnesses.
/// The text of CPAchecker's ErrorLabel specification in witnesses.
pub const ERROR_LABEL_SPEC: &str = "CHECK( init(main()), LTL(G ! label(ERROR)) )";

/// Runs `vcov verify` with `config`.
pub fn run(config: &VerifyConfig) -> anyhow::Result<VerifyReport> {
    let start = Instant::now();
    let task = match &config.task {
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| format!("cannot read task file {}", p.display()))?;
            Some(task::parse_task(p, &text)?)
        }
        None => None,
    };
    let program = match (&config.program, &task) {
        (Some(p), _) => p.clone(),
        (None, Some(t)) => t.input_file.clone(),
        (None, None) => bail!("no program given (pass PROGRAM or --task)"),
    };
    let dm = task.as_ref().and_then(|t| t.data_model).or(config.data_model).unwrap_or_default();
    let (property, spec_text) = if config.error_label {
        (Property::ErrorLabel, ERROR_LABEL_SPEC.to_string())
    } else {
        let prop_file = config.prop.clone().or_else(|| task.as_ref().and_then(|t| t.property_file.clone()));
        match prop_file {
            Some(p) => {
                let text = std::fs::read_to_string(&p)
                    .with_context(|| format!("cannot read property file {}", p.display()))?;
                let Some((init, forbidden)) = task::parse_property(&text) else {
                    bail!("{}: unsupported property (vcov checks 'G ! call(f())' reachability)", p.display());
                };
                if init != "main" {
                    bail!("{}: the entry function must be main, not '{init}'", p.display());
                }
                if forbidden.iter().any(|f| f != "reach_error" && f != "__VERIFIER_error") {
                    bail!("{}: vcov checks calls of reach_error or __VERIFIER_error only", p.display());
                }
                (Property::UnreachCall, text.trim().to_string())
            }
            None if task.is_some() => {
                let path = config.task.as_deref().unwrap_or(Path::new("")).display();
                bail!("{path}: the task has no unreach-call property")
            }
            None => (Property::UnreachCall, "CHECK( init(main()), LTL(G ! call(reach_error())) )".to_string()),
        }
    };
    let bytes = std::fs::read(&program).with_context(|| match (&config.program, &config.task) {
        (None, Some(t)) => format!("{}: cannot read program {}, its input file", t.display(), program.display()),
        _ => format!("cannot read program {}", program.display()),
    })?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (mut prog, mut diagnostics) = cfront::parse_program(SourceFile::new(&program, text), dm)?;
    let (cfa, cfa_diags) = cfa::build(&mut prog, &CfaConfig::default())?;
    diagnostics.extend(cfa_diags);

    let budget = Budget {
        deadline: config.time_limit.map(|l| start + l),
        stop: config.stop.clone(),
        memory: Some(config.memory_limit_mb.unwrap_or(crate::symex::DEFAULT_MEMORY_MB) << 20),
    };
    let explore_config = ExploreConfig {
        strategy: config.strategy,
        mode: config.mode,
        unwind: config.unwind,
        state_caching: !config.no_state_caching,
        property,
        budget,
        self_check: false,
        ..ExploreConfig::default()
    };
    let mut explorer = symex::explore(&prog, &cfa, explore_config, Exhaustive);
    let mut spurious: Option<String> = None;
    let mut found = None;
    while let Some(outcome) = explorer.next() {
        if outcome.end != PathEnd::Violation {
            continue;
        }
        let Some(inputs) = outcome.inputs.clone() else {
            spurious.get_or_insert_with(|| "no model for a counterexample".into());
            continue;
        };
        if !outcome.approx.violation_is_real() {
            spurious.get_or_insert_with(|| {
                format!("a counterexample depends on an approximation: {}", outcome.approx.describe().join("; "))
            });
            continue;
        }
        let edges = outcome.path.edges();
        let replayed = symex::replay(&prog, &cfa, property, &inputs, edges.len() as u64 + 1);
        if replayed.end == ReplayEnd::Violation && replayed.edges == edges {
            found = Some((edges, inputs));
            explorer.stop();
            break;
        }
        spurious.get_or_insert_with(|| {
            format!("a counterexample did not replay (the concrete run ended with {:?})", replayed.end)
        });
    }
    let summary = explorer.summary();
    let stats = explorer.stats();
    drop(explorer);
    let mut witness_text = None;
    let mut counterexample = None;
    let verdict = if let Some((edges, inputs)) = found {
        let info = WitnessInfo {
            producer: format!("vcov {}", env!("CARGO_PKG_VERSION")),
            specification: spec_text,
            program_file: program.display().to_string(),
            program_hash: witness::sha256_hex(&bytes),
            architecture: match dm {
                DataModel::Ilp32 => "32bit".into(),
                DataModel::Lp64 => "64bit".into(),
            },
            creation_time: witness::utc_timestamp(SystemTime::now()),
        };
        witness_text = Some(witness::violation_graphml(&info, &prog, &cfa, &edges, &inputs));
        counterexample = Some(inputs);
        Verdict::False
    } else if let Some(why) = spurious {
        Verdict::Unknown(why)
    } else if let Some(stop) = summary.stop {
        Verdict::Unknown(match stop {
            StopReason::Time => "time limit reached".into(),
            StopReason::Memory => "memory limit reached".into(),
            other => other.describe().into(),
        })
    } else if summary.cuts > 0 {
        let first = summary.first_cut.map(|c| c.to_string()).unwrap_or_default();
        Verdict::Unknown(format!("{} path(s) cut; first: {first}", summary.cuts))
    } else if !summary.approx.is_empty() {
        Verdict::Unknown(summary.approx.describe().join("; "))
    } else if summary.exhausted {
        Verdict::True
    } else {
        Verdict::Unknown("exploration incomplete".into())
    };
    Ok(VerifyReport {
        verdict,
        stats,
        witness: witness_text,
        diagnostics,
        expected: task.and_then(|t| t.expected_verdict),
        program,
        data_model: dm,
        counterexample: counterexample.map(|inputs| (prog, inputs)),
    })
}

/// The `--stats` text of `stats`.
pub fn stats_text(stats: &Stats) -> String {
    let secs = |d: Duration| d.as_secs_f64();
    let total = secs(stats.time).max(1e-9);
    let solve = secs(stats.solver.solve_time);
    let encode = secs(stats.solver.encode_time);
    let cache = secs(stats.cache.time);
    let rest = (total - solve - encode - cache).max(0.0);
    let pct = |x: f64| 100.0 * x / total;
    format!(
        "Statistics:\n\
         \x20 paths explored:              {}\n\
         \x20   exit / halt / violation:   {} / {} / {}\n\
         \x20   cut / covered / pruned:    {} / {} / {}\n\
         \x20 edges executed:              {}\n\
         \x20 branch checks:               {}\n\
         \x20 infeasible branches pruned:  {}\n\
         \x20 checks without solver call: {} (independent of the path condition)\n\
         \x20 undefined-behaviour checks:  {}\n\
         \x20 solver calls:                {}\n\
         \x20 checks settled by models:    {}\n\
         \x20 solver instances:            {}\n\
         \x20 clauses:                     {}\n\
         \x20 state cache lookups:         {}\n\
         \x20 state cache hits:            {} ({} by implication)\n\
         \x20 state cache entries:         {} ({} fully explored)\n\
         \x20 time total:                  {:.3} s\n\
         \x20 time in solver:              {:.3} s ({:.1}%)\n\
         \x20 time in encoding:            {:.3} s ({:.1}%)\n\
         \x20 time in state cache:         {:.3} s ({:.1}%)\n\
         \x20 time in the rest:            {:.3} s ({:.1}%)\n",
        stats.paths,
        stats.exits,
        stats.halts,
        stats.violations,
        stats.cuts,
        stats.cache.hits,
        stats.pruned,
        stats.edges,
        stats.branch_checks,
        stats.infeasible,
        stats.independent,
        stats.ub_checks,
        stats.solver.calls,
        stats.solver.model_hits,
        stats.solver.fresh_solvers,
        stats.solver.n_clauses,
        stats.cache.lookups,
        stats.cache.hits,
        stats.cache.hits_by_implication,
        stats.cache.entries,
        stats.cache.completed,
        total,
        solve,
        pct(solve),
        encode,
        pct(encode),
        cache,
        pct(cache),
        rest,
        pct(rest),
    )
}
