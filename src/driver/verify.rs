//! `vcov verify`'s file side: reads the task definition, the property file and the program, runs
//! `verify::decide`, and builds the violation witness.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use anyhow::{bail, Context};

use crate::cfa::{self, CfaConfig};
use crate::cfront::{self, types::DataModel};
use crate::symex::{Budget, ExploreConfig, Mode, Property, Strategy};
use crate::verify::condition::{Basis, Condition, ConditionCounts, RegionGuide, Snapshots};
use crate::verify::region::Region;
use crate::verify::{self, task, VerifyReport, ERROR_LABEL_SPEC, UNREACH_CALL_SPEC};
use crate::witness::correctness::{self, LoopInvariant};
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
    /// How a program that needs it is preprocessed (`-I`, `-D`). [default: no options]
    pub preprocess: super::Preprocess,
    /// Stop (UNKNOWN) once this flag is set, by a SIGINT or SIGTERM handler. [default: none]
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The engines: the portfolio, the explicit-path search alone (in the order `strategy` says),
    /// or BMC and k-induction alone. [default: the portfolio]
    pub engines: verify::Engines,
    /// Draw a progress line on standard error when it is a terminal. [default: false]
    pub progress: bool,
    /// The assumption automaton of a first verifier: only what it leaves open is verified
    /// (`verify::condition`). [default: none]
    pub condition: Option<PathBuf>,
    /// Where to write the explored region as an assumption automaton. [default: nowhere]
    pub aa_out: Option<super::region::AaOut>,
}

/// Runs `vcov verify` with `config`: reads the task, the property file and the program, builds the
/// CFA, lets `verify::decide` explore it, and builds the violation witness of a FALSE answer.
pub fn verify(config: &VerifyConfig) -> anyhow::Result<VerifyReport> {
    // The run's start and its one deadline, as the watchdog's (`driver::deadline`).
    let start = super::started();
    let deadline = super::deadline(config.time_limit);
    let task = match &config.task {
        Some(p) => {
            let text = super::read_text(p)?;
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
            Some(p) => (Property::UnreachCall, read_property(&p)?),
            None if task.is_some() => {
                let path = config.task.as_deref().unwrap_or(Path::new("")).display();
                bail!("{path}: the task has no unreach-call property")
            }
            None => (Property::UnreachCall, UNREACH_CALL_SPEC.to_string()),
        }
    };
    let bytes = std::fs::read(&program).with_context(|| match (&config.program, &config.task) {
        (None, Some(t)) => format!("{}: cannot read program {}, its input file", t.display(), program.display()),
        _ => format!("cannot read program {}", program.display()),
    })?;
    let file = super::read_program(&program, dm, &config.preprocess)?;
    let (mut prog, mut diagnostics) = cfront::parse_program(file, dm)?;
    let (cfa, cfa_diags) = cfa::build(&mut prog, &CfaConfig::default())?;
    diagnostics.extend(cfa_diags);
    super::watchdog::enter(super::watchdog::Phase::Composing);
    let loaded = match &config.condition {
        Some(path) => Some(super::region::load_condition(path, &prog, &cfa)?),
        None => None,
    };
    if let Some(l) = &loaded {
        diagnostics.extend(l.diagnostics.iter().cloned());
    }
    let matcher = loaded.as_ref().map(|l| l.matcher(&prog, &cfa));
    let condition = match (&loaded, &matcher) {
        (Some(l), Some(m)) => Some(Condition::new(&l.aut, &cfa, &l.product, m)),
        _ => None,
    };
    let region = config.aa_out.as_ref().map(|_| Rc::new(RefCell::new(Region::default())));
    // The automaton goes on in the condition's own states only when it is written in its texts.
    let dialect =
        config.aa_out.as_ref().and_then(|o| o.dialect).or(loaded.as_ref().map(|l| l.dialect())).unwrap_or_default();
    let embed = loaded.as_ref().filter(|l| l.dialect() == dialect).map(|l| &l.aut);

    // With `--aa-out` and a time limit, the search stops while there is still the time to write the
    // automaton of its region (`RegionGuide::writing_by`).
    let writing = region.as_ref().and(deadline).map(|_| crate::symex::MovableDeadline::new());
    let budget = Budget {
        deadline,
        stop: config.stop.clone(),
        memory: Some(config.memory_limit_mb.unwrap_or(crate::symex::DEFAULT_MEMORY_MB) << 20),
        memory_flag: Some(super::watchdog::memory_flag()),
        cancel: None,
        movable: writing.clone(),
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
    super::watchdog::enter(super::watchdog::Phase::Searching);
    let counts = Rc::new(Cell::new(ConditionCounts::default()));
    let mut snapshot_error: Option<anyhow::Error> = None;
    let snapshots = match &config.aa_out {
        Some(out @ super::region::AaOut { snapshot_every: Some(every), .. }) => {
            std::fs::create_dir_all(&out.path)
                .with_context(|| format!("{}: cannot create the snapshot folder", out.path.display()))?;
            let mut index = 0;
            let (cfa, err) = (&cfa, &mut snapshot_error);
            Some(Snapshots {
                every: *every,
                start,
                sink: Box::new(move |region: &Region, at: Duration| {
                    index += 1;
                    let what = format!("snapshot {index}\n{}", super::region::taken_at_line(at));
                    let path = out.snapshot_file(index, at);
                    if let Err(e) = super::region::write_region(&path, region, cfa, dialect, &what, embed) {
                        err.get_or_insert(e);
                    }
                }),
            })
        }
        _ => None,
    };
    let guide = RegionGuide::new(condition.as_ref(), region.clone(), snapshots, counts.clone())
        .writing_by(deadline.zip(writing));
    let progress = super::progress::VerifyProgressLine::start(config.progress, config.engines);
    let decision = verify::decide_guided(&prog, &cfa, explore_config, config.engines, progress.counters(), guide);
    progress.finish();
    if let Some(e) = snapshot_error {
        return Err(e);
    }
    super::watchdog::enter(super::watchdog::Phase::Reporting);
    // A verdict of the guided search rests on the condition's claim where it pruned.
    let guided = config.engines == verify::Engines::Explicit || decision.engine == Some(verify::Engine::ExplicitDfs);
    let basis = condition.as_ref().map(|_| {
        let c = counts.get();
        let counted =
            format!("{} paths pruned on the first verifier's claim, {} left the explored region", c.claimed, c.left);
        match (&decision.verdict, decision.engine) {
            (verify::Verdict::True, Some(engine)) => Basis::of(engine, guided, c).true_text(),
            (verify::Verdict::False, _) => {
                "FALSE with a counterexample vcov replayed (the condition was not needed)".into()
            }
            _ => format!("no verdict ({counted})"),
        }
    });
    let aa_written = match (&config.aa_out, &region) {
        (Some(out), Some(region)) => {
            let path = out.final_file();
            // The last of a series of snapshots says when it was taken too (only then: a run's
            // automaton is otherwise the same text whenever it ends).
            let taken = match out.snapshot_every {
                Some(_) => format!("\n{}", super::region::taken_at_line(start.elapsed())),
                None => String::new(),
            };
            let what = format!(
                "verdict: {}{}{taken}",
                decision.verdict,
                config.condition.as_ref().map(|c| format!("\ncondition: {}", c.display())).unwrap_or_default()
            );
            let states = super::region::write_region(&path, &region.borrow(), &cfa, dialect, &what, embed)?;
            Some((path, states))
        }
        _ => None,
    };
    let info = WitnessInfo {
        producer: format!("vcov {}", env!("CARGO_PKG_VERSION")),
        specification: spec_text,
        program_file: program.display().to_string(),
        program_hash: witness::sha256_hex(&bytes),
        architecture: dm.architecture().into(),
        creation_time: witness::utc_timestamp(SystemTime::now()),
    };
    let mut witness = decision
        .counterexample
        .as_ref()
        .map(|(edges, inputs)| witness::violation_graphml(&info, &prog, &cfa, edges, inputs));
    let mut witness_yaml = None;
    if decision.verdict == verify::Verdict::True {
        // The invariants of a k-induction proof; a TRUE of another engine has none to give.
        let invariants: Vec<LoopInvariant> = decision
            .proof
            .iter()
            .flat_map(|p| &p.invariants)
            .map(|i| LoopInvariant { node: i.node, expr: i.expr.clone(), vars: i.vars.clone() })
            .collect();
        let loops = correctness::place(&prog, &cfa, &invariants);
        witness = Some(correctness::correctness_graphml(&info, &cfa, &loops));
        witness_yaml = Some(correctness::correctness_yaml(&info, &prog, &cfa, dm.name(), &loops));
    }
    Ok(VerifyReport {
        verdict: decision.verdict,
        stats: decision.stats,
        witness,
        witness_yaml,
        diagnostics,
        expected: task.and_then(|t| t.expected_verdict),
        program,
        data_model: dm,
        counterexample: decision.counterexample.map(|(_, inputs)| (prog, inputs)),
        engine: decision.engine,
        kind: decision.kind,
        basis,
        aa_written,
        random: decision.random,
    })
}

/// Reads the property file `path` and checks it (`verify::check_property`); its text for witnesses.
pub fn read_property(path: &Path) -> anyhow::Result<String> {
    let text = super::read_text(path)?;
    verify::check_property(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}
