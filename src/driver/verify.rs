//! `vcov verify`'s whole run: the watchdog of its limits, the handlers of SIGINT and SIGTERM, the
//! task definition, the property file and the program read, `verify::decide` run (a panic caught),
//! gcc's confirmation of a FALSE (`--confirm`), the verdict settled (`verify::settle`) and the
//! witnesses written. `cli::verify` only prints the outcome.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{bail, Context};

use crate::base::Diagnostic;
use crate::cfa::{self, Cfa, CfaConfig};
use crate::cfront::{self, ir::Program, types::DataModel};
use crate::symex::{Budget, ExploreConfig, InputValue, Mode, Property, Stats, Strategy};
use crate::verify::condition::{Basis, Condition, ConditionCounts, RegionGuide, Snapshots};
use crate::verify::fuzz::FuzzStats;
use crate::verify::kind::KindStats;
use crate::verify::region::{Dialect, Region};
use crate::verify::{self, task, After, ConfirmedBy, Decision, GccRun, StopSignal, Verdict};
use crate::verify::{ERROR_LABEL_SPEC, UNREACH_CALL_SPEC};
use crate::witness::correctness::{self, LoopInvariant};
use crate::witness::{self, WitnessInfo};

use super::watchdog::{Phase, RunLimits, Watchdog};
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
    /// Time limit of the whole run, counted from its start (`driver::deadline`). [default: none]
    pub time_limit: Option<Duration>,
    /// Turn state caching off (for measurements). [default: false]
    pub no_state_caching: bool,
    /// Give up (UNKNOWN) when the process uses more memory than this. [default: 6144 MiB]
    pub memory_limit_mb: Option<u64>,
    /// How a program that needs it is preprocessed (`-I`, `-D`). [default: no options]
    pub preprocess: super::Preprocess,
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
    /// Where to write the witness of a TRUE or FALSE: GraphML, or the YAML correctness witness for a
    /// name ending in `.yml` or `.yaml`. [default: nowhere]
    pub witness: Vec<PathBuf>,
    /// Run a FALSE's counterexample in the program compiled by gcc before answering FALSE.
    /// [default: false]
    pub confirm: bool,
}

/// What a run of `vcov verify` reports, in the order `cli::verify` prints it.
#[derive(Debug)]
pub struct VerifyOutcome {
    /// Warnings of the front end, the CFA builder and the condition's automaton.
    pub diagnostics: Vec<Diagnostic>,
    /// What the run has to say besides the verdict (on standard error).
    pub notes: Vec<VerifyNote>,
    /// The error that stopped writing the witnesses, after `notes`: the run then fails.
    pub witness_error: Option<anyhow::Error>,
    /// The verdict (`verify::settle`).
    pub verdict: Verdict,
    /// With a condition (`--condition`): what the engines' verdict rests on.
    pub basis: Option<Basis>,
    /// With `--aa-out`: where the explored region was written, and its states.
    pub aa_written: Option<(PathBuf, usize)>,
    /// Who confirmed the counterexample of a FALSE.
    pub confirmed_by: Option<ConfirmedBy>,
    /// The witnesses written, in the order of `VerifyConfig::witness`.
    pub witnesses: Vec<PathBuf>,
    /// What the engines did (`--stats`); none when the run ended in an internal error.
    pub engines: Option<EngineReport>,
    /// The signal that stopped the run before it had an answer, for the exit status.
    pub stopped_by: Option<StopSignal>,
}

/// What the engines of `vcov verify` did.
#[derive(Clone, Debug)]
pub struct EngineReport {
    /// The explicit search's counters.
    pub stats: Stats,
    /// BMC and k-induction's counters and their result in words, when they ran.
    pub kind: Option<(KindStats, String)>,
    /// What random testing did, when it ran.
    pub random: Option<FuzzStats>,
    /// The engine that decided, when one did.
    pub engine: Option<verify::Engine>,
}

/// What a run of `vcov verify` says besides its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyNote {
    /// A YAML witness was asked for a FALSE: vcov writes none (format 2.0 `violation_sequence`),
    /// only the GraphML one.
    NoYamlViolationWitness(PathBuf),
}

/// Runs `vcov verify` with `config`, the whole run: the watchdog bounds it by its limits, SIGINT
/// and SIGTERM stop its search, a panic of the engines (or of reading) gives UNKNOWN, gcc confirms
/// a FALSE when asked, and the witnesses are written before anything is printed (a reader that
/// closes the pipe after the verdict, `| head -1`, must not keep them from being written).
/// An `Err` is bad input, never a verdict.
pub fn verify(config: &VerifyConfig) -> anyhow::Result<VerifyOutcome> {
    let limits = RunLimits::of_run(config.time_limit, config.memory_limit_mb);
    // A limit that ends the run before the search could answer gives UNKNOWN with the limit and
    // what the run was doing; the process then ends with the exit status of a verdict, 0.
    let _watchdog = Watchdog::start(
        limits,
        Box::new(|limit, phase| {
            println!("{}", Verdict::Unknown(format!("{} while {}", limit.name(), phase.doing())).result_line());
            0
        }),
    );
    let signals = super::signals::StopSignals::install()?;
    let stop = signals.flag();
    let answer = match std::panic::catch_unwind(|| answer(config, limits.deadline, stop)) {
        Ok(answer) => Some(answer?),
        Err(_) => None,
    };
    let signal = signals.received().and_then(stop_signal);
    drop(signals);
    let gcc = answer.as_ref().and_then(|a| confirm_with_gcc(config, a));
    let settled = verify::settle(answer.as_ref().map(|a| &a.verdict), &After { signal, gcc });
    super::watchdog::finish();
    let none = Witnesses::default();
    let texts = answer.as_ref().filter(|_| settled.witness_stands).map_or(&none, |a| &a.witnesses);
    let written = write_witnesses(&config.witness, texts, &settled.verdict);
    let (diagnostics, basis, aa_written, engines) = match answer {
        // What the verdict rests on is said of the verdict the run reports.
        Some(a) => {
            let basis = a.basis.map(|b| Basis::of(&settled.verdict, b.engine, b.guided, b.counts));
            (a.diagnostics, basis, a.aa_written, Some(a.engines))
        }
        None => (Vec::new(), None, None, None),
    };
    Ok(VerifyOutcome {
        diagnostics,
        notes: written.notes,
        witness_error: written.error,
        verdict: settled.verdict,
        basis,
        aa_written,
        confirmed_by: settled.confirmed_by,
        witnesses: written.paths,
        engines,
        stopped_by: settled.stopped_by,
    })
}

/// The witnesses of the engines' verdict, as text.
#[derive(Default)]
struct Witnesses {
    /// GraphML: a violation witness for a FALSE, a correctness witness (with the invariants of the
    /// proof, if any) for a TRUE.
    graphml: Option<String>,
    /// The YAML correctness witness (format 2.0) of a TRUE.
    yaml: Option<String>,
}

/// What the engines answered, with what the run needs to settle and report it.
struct Answer {
    /// The engines' verdict (`verify::settle` gives the one reported).
    verdict: Verdict,
    engines: EngineReport,
    witnesses: Witnesses,
    diagnostics: Vec<Diagnostic>,
    /// The program file (from the command line or the task).
    program: PathBuf,
    /// The data model used (the task's, the command line's, or ILP32).
    data_model: DataModel,
    /// When the verdict is FALSE: the program and the inputs of the counterexample (for gcc).
    counterexample: Option<(Program, Vec<InputValue>)>,
    /// With a condition: what a verdict rests on is decided from these once the run's verdict is.
    basis: Option<BasisFacts>,
    aa_written: Option<(PathBuf, usize)>,
}

/// What `Basis::of` needs besides the verdict.
struct BasisFacts {
    /// The engine that decided, if one did.
    engine: Option<verify::Engine>,
    /// Whether that engine's search was the guided one.
    guided: bool,
    /// What the guided search pruned and saw leave the region.
    counts: ConditionCounts,
}

/// The inputs of a run, read and parsed.
struct Inputs {
    /// The program file (from the command line or the task).
    program: PathBuf,
    /// The program file's bytes, for the witnesses' hash.
    bytes: Vec<u8>,
    data_model: DataModel,
    property: Property,
    /// The property's text, for the witnesses.
    spec_text: String,
    prog: Program,
    cfa: Cfa,
    diagnostics: Vec<Diagnostic>,
}

/// Where the explored region goes (`--aa-out`).
struct RegionOut<'a> {
    /// The region the explicit search records, with `--aa-out`.
    region: Option<Rc<RefCell<Region>>>,
    /// The CPAchecker texts of the automaton.
    dialect: Dialect,
    /// The condition's automaton, when the region goes on in its states.
    embed: Option<&'a crate::automaton::Automaton>,
}

/// The stop signal `sig` is, if it is one.
fn stop_signal(sig: i32) -> Option<StopSignal> {
    match sig {
        signal_hook::consts::SIGINT => Some(StopSignal::Interrupt),
        signal_hook::consts::SIGTERM => Some(StopSignal::Terminate),
        _ => None,
    }
}

/// Reads the inputs, decides with the engines and builds the witnesses of their verdict; with a
/// condition, what the verdict rests on; with `--aa-out`, the explored region written. The search
/// ends at `deadline` or when `stop` is set.
fn answer(config: &VerifyConfig, deadline: Option<Instant>, stop: Arc<AtomicBool>) -> anyhow::Result<Answer> {
    let mut input = read_inputs(config)?;
    super::watchdog::enter(Phase::Composing);
    let loaded = match &config.condition {
        Some(path) => Some(super::region::load_condition(path, &input.prog, &input.cfa)?),
        None => None,
    };
    if let Some(l) = &loaded {
        input.diagnostics.extend(l.diagnostics.iter().cloned());
    }
    let matcher = loaded.as_ref().map(|l| l.matcher(&input.prog, &input.cfa));
    let condition = match (&loaded, &matcher) {
        (Some(l), Some(m)) => Some(Condition::new(&l.aut, &input.cfa, &l.product, m)),
        _ => None,
    };
    // The automaton goes on in the condition's own states only when it is written in its texts.
    let dialect =
        config.aa_out.as_ref().and_then(|o| o.dialect).or(loaded.as_ref().map(|l| l.dialect())).unwrap_or_default();
    let out = RegionOut {
        region: config.aa_out.as_ref().map(|_| Rc::new(RefCell::new(Region::default()))),
        dialect,
        embed: loaded.as_ref().filter(|l| l.dialect() == dialect).map(|l| &l.aut),
    };
    let (decision, counts) = search(config, &input, condition.as_ref(), &out, deadline, stop)?;
    super::watchdog::enter(Phase::Reporting);
    // A verdict of the guided search rests on the condition's claim where it pruned.
    let guided = config.engines == verify::Engines::Explicit || decision.engine == Some(verify::Engine::ExplicitDfs);
    let basis = condition.as_ref().map(|_| BasisFacts { engine: decision.engine, guided, counts });
    let aa_written = write_final_region(config, &input.cfa, &out, &decision.verdict)?;
    let witnesses = witnesses_of(&input, &decision);
    Ok(Answer {
        verdict: decision.verdict,
        engines: EngineReport {
            stats: decision.stats,
            kind: decision.kind,
            random: decision.random,
            engine: decision.engine,
        },
        witnesses,
        diagnostics: input.diagnostics,
        program: input.program,
        data_model: input.data_model,
        counterexample: decision.counterexample.map(|(_, inputs)| (input.prog, inputs)),
        basis,
        aa_written,
    })
}

/// Reads the task definition, the property file and the program, and builds the CFA.
fn read_inputs(config: &VerifyConfig) -> anyhow::Result<Inputs> {
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
    Ok(Inputs { program, bytes, data_model: dm, property, spec_text, prog, cfa, diagnostics })
}

/// Runs the engines (`verify::decide_guided`, the explicit search steered by `condition` and
/// recording into `out`'s region) until `deadline` or `stop`, with a progress line and the
/// snapshots of `--snapshot-every`; returns their decision and what the guided search counted.
fn search(
    config: &VerifyConfig,
    input: &Inputs,
    condition: Option<&Condition>,
    out: &RegionOut,
    deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
) -> anyhow::Result<(Decision, ConditionCounts)> {
    // With `--aa-out` and a time limit, the search stops while there is still the time to write the
    // automaton of its region (`RegionGuide::writing_by`).
    let writing = out.region.as_ref().and(deadline).map(|_| crate::symex::MovableDeadline::new());
    let budget = Budget {
        deadline,
        stop: Some(stop),
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
        property: input.property,
        budget,
        self_check: false,
        ..ExploreConfig::default()
    };
    super::watchdog::enter(Phase::Searching);
    let counts = Rc::new(Cell::new(ConditionCounts::default()));
    let mut snapshot_error: Option<anyhow::Error> = None;
    let snapshots = match &config.aa_out {
        Some(aa @ super::region::AaOut { snapshot_every: Some(every), .. }) => {
            std::fs::create_dir_all(&aa.path)
                .with_context(|| format!("{}: cannot create the snapshot folder", aa.path.display()))?;
            let mut index = 0;
            let (cfa, err) = (&input.cfa, &mut snapshot_error);
            Some(Snapshots {
                every: *every,
                start: super::started(),
                sink: Box::new(move |region: &Region, at: Duration| {
                    index += 1;
                    let what = format!("snapshot {index}\n{}", super::region::taken_at_line(at));
                    let path = aa.snapshot_file(index, at);
                    if let Err(e) = super::region::write_region(&path, region, cfa, out.dialect, &what, out.embed) {
                        err.get_or_insert(e);
                    }
                }),
            })
        }
        _ => None,
    };
    let guide =
        RegionGuide::new(condition, out.region.clone(), snapshots, counts.clone()).writing_by(deadline.zip(writing));
    let progress = super::progress::VerifyProgressLine::start(config.progress, config.engines);
    let decision =
        verify::decide_guided(&input.prog, &input.cfa, explore_config, config.engines, progress.counters(), guide);
    progress.finish();
    match snapshot_error {
        Some(e) => Err(e),
        None => Ok((decision, counts.get())),
    }
}

/// Writes the explored region (`--aa-out`) after the search, saying the engines' `verdict`; where
/// and how many states.
fn write_final_region(
    config: &VerifyConfig,
    cfa: &Cfa,
    out: &RegionOut,
    verdict: &Verdict,
) -> anyhow::Result<Option<(PathBuf, usize)>> {
    let (Some(aa), Some(region)) = (&config.aa_out, &out.region) else { return Ok(None) };
    let path = aa.final_file();
    // The last of a series of snapshots says when it was taken too (only then: a run's automaton is
    // otherwise the same text whenever it ends).
    let taken = match aa.snapshot_every {
        Some(_) => format!("\n{}", super::region::taken_at_line(super::started().elapsed())),
        None => String::new(),
    };
    let what = format!(
        "verdict: {verdict}{}{taken}",
        config.condition.as_ref().map(|c| format!("\ncondition: {}", c.display())).unwrap_or_default()
    );
    let states = super::region::write_region(&path, &region.borrow(), cfa, out.dialect, &what, out.embed)?;
    Ok(Some((path, states)))
}

/// The witnesses of `decision`: the violation witness of a counterexample, the correctness
/// witnesses of a TRUE.
fn witnesses_of(input: &Inputs, decision: &Decision) -> Witnesses {
    let info = WitnessInfo {
        producer: format!("vcov {}", env!("CARGO_PKG_VERSION")),
        specification: input.spec_text.clone(),
        program_file: input.program.display().to_string(),
        program_hash: witness::sha256_hex(&input.bytes),
        architecture: input.data_model.architecture().into(),
        creation_time: witness::utc_timestamp(SystemTime::now()),
    };
    let (prog, cfa) = (&input.prog, &input.cfa);
    if decision.verdict != Verdict::True {
        let graphml = decision
            .counterexample
            .as_ref()
            .map(|(edges, inputs)| witness::violation_graphml(&info, prog, cfa, edges, inputs));
        return Witnesses { graphml, yaml: None };
    }
    // The invariants of a k-induction proof; a TRUE of another engine has none to give.
    let invariants: Vec<LoopInvariant> = decision
        .proof
        .iter()
        .flat_map(|p| &p.invariants)
        .map(|i| LoopInvariant { node: i.node, expr: i.expr.clone(), vars: i.vars.clone() })
        .collect();
    let loops = correctness::place(prog, cfa, &invariants);
    Witnesses {
        graphml: Some(correctness::correctness_graphml(&info, cfa, &loops)),
        yaml: Some(correctness::correctness_yaml(&info, prog, cfa, input.data_model.name(), &loops)),
    }
}

/// gcc's run of the counterexample of a FALSE, when `--confirm` asks for it (`verify::settle` says
/// what it means for the verdict).
fn confirm_with_gcc(config: &VerifyConfig, a: &Answer) -> Option<(DataModel, GccRun)> {
    if !config.confirm || a.verdict != Verdict::False {
        return None;
    }
    let (prog, inputs) = a.counterexample.as_ref()?;
    let run = match super::replay::confirm_violation(&a.program, prog, a.data_model, inputs) {
        Ok(Ok(_)) => GccRun::Confirmed,
        Ok(Err(end)) => GccRun::Ended(end),
        Err(e) => GccRun::Failed(format!("{e:#}")),
    };
    Some((a.data_model, run))
}

/// What `write_witnesses` did.
#[derive(Default)]
struct Written {
    paths: Vec<PathBuf>,
    notes: Vec<VerifyNote>,
    /// The error that stopped it.
    error: Option<anyhow::Error>,
}

/// Writes the witness each of `paths` asks for (GraphML, or YAML for `.yml`/`.yaml`) from `texts`,
/// each atomically, in order, until one cannot be written; notes a YAML witness asked for a FALSE.
fn write_witnesses(paths: &[PathBuf], texts: &Witnesses, verdict: &Verdict) -> Written {
    let mut res = Written::default();
    for path in paths {
        let yaml = path.extension().is_some_and(|e| e == "yml" || e == "yaml");
        match if yaml { &texts.yaml } else { &texts.graphml } {
            Some(text) => {
                let written = super::write_atomically(path, text.as_bytes())
                    .with_context(|| format!("{}: cannot write the witness", path.display()));
                if let Err(e) = written {
                    res.error = Some(e);
                    return res;
                }
                res.paths.push(path.clone());
            }
            // vcov writes no YAML violation witnesses (format 2.0 `violation_sequence`).
            None if yaml && *verdict == Verdict::False => {
                res.notes.push(VerifyNote::NoYamlViolationWitness(path.clone()))
            }
            None => {}
        }
    }
    res
}

/// Reads the property file `path` and checks it (`verify::check_property`); its text for witnesses.
pub fn read_property(path: &Path) -> anyhow::Result<String> {
    let text = super::read_text(path)?;
    verify::check_property(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}
