//! `vcov verify`: SV-COMP-style verification of a reachability property with the symbolic executor.
//!
//! `decide` runs an exhaustive exploration (`symex::Exhaustive`) of a program and turns its outcome
//! into a verdict (`driver::verify` reads the files, runs `decide` and writes the witness), which
//! `settle` turns into the verdict the run reports:
//! - FALSE when a violating path was found whose inputs, replayed by the concrete interpreter, take
//!   exactly the same path to the violation, and whose model made no approximation that could make
//!   the violation spurious; a GraphML violation witness is written for it.
//! - TRUE only when the exploration ran out of paths with no path cut (unwinding bound, unsupported
//!   construct, possible undefined behaviour), no approximation, and no violation found.
//! - UNKNOWN with the reason otherwise (time limit, cuts, approximations, a counterexample that did
//!   not replay), and when a run ends without the engines' answer (an internal error, a signal) or
//!   gcc does not confirm a counterexample (`--confirm`).
//!
//! `task` reads task definitions and property files from their text; `check_property` is the one
//! check of a property file that both `vcov verify` and `vcov coverage --prop` apply.
//!
//! This file holds the verdict, the explicit-path search (`explicit`) and the portfolio of engines
//! that decides (`decide`, `decide_guided`), and the property check. The other files, one job each:
//! - `task`: task definitions (YAML) and property files, from their text;
//! - `ts/`: the program as a transition system between cut points (`ts/mod.rs`), and the circuit of
//!   one step (`ts/encode.rs`);
//! - `kind/`: BMC and k-induction over it (`kind/mod.rs`), with the engine for coverage
//!   (`unreached`), the candidate invariants (`candidates`, `templates`, `sampled`, `disjunctive`,
//!   `polys`), Houdini (`houdini`), invariants as C (`invariant_c`) and the thread's priority
//!   (`priority`);
//! - `sample`: the transition system simulated on concrete inputs, and the candidate invariants
//!   the sampled states satisfy;
//! - `poly`: polynomial equalities proven inductive by algebra;
//! - `fuzz`: random testing with the concrete interpreter;
//! - `region`: the region the explicit search explored, written as an assumption automaton;
//! - `condition`: a first verifier's automaton as the condition that steers the explicit search.
//!
//! Invariant: `verify` does no file IO and uses no `anyhow`: `driver` does both.

pub mod condition;
pub mod fuzz;
pub mod intervals;
pub mod kind;
pub mod poly;
pub mod region;
pub mod sample;
pub mod task;
pub mod ts;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

use crate::cfa::Cfa;
use crate::cfront::{ir::Program, types::DataModel};
use crate::symex::{self, Exhaustive, ExploreConfig, Guide, InputValue, PathEnd, PathOutcome, Stats, Strategy, Trace};
use kind::{KindConfig, KindResult, KindStats, ProofKind};

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

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::True => write!(f, "TRUE"),
            Verdict::False => write!(f, "FALSE(unreach-call)"),
            Verdict::Unknown(why) => write!(f, "UNKNOWN ({why})"),
        }
    }
}

impl Verdict {
    /// What the line that states the verdict starts with, before the verdict.
    pub const RESULT_PREFIX: &'static str = "Verification result: ";

    /// The line that states the verdict (`vcov verify`'s first line of output).
    pub fn result_line(&self) -> String {
        format!("{}{self}", Verdict::RESULT_PREFIX)
    }
}

/// A signal that asked a run to stop (the first of them: a second one ends the process).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopSignal {
    /// SIGINT (Ctrl-C).
    Interrupt,
    /// SIGTERM.
    Terminate,
}

impl StopSignal {
    /// The signal's name for messages.
    pub fn name(self) -> &'static str {
        let number = match self {
            StopSignal::Interrupt => crate::base::SIGINT,
            StopSignal::Terminate => crate::base::SIGTERM,
        };
        crate::base::signal_name(number).expect("SIGINT and SIGTERM are named")
    }
}

/// What a verdict says without the reason of an UNKNOWN (`Verdict::kind`): what SV-COMP scores.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VerdictKind {
    /// TRUE.
    True,
    /// FALSE.
    False,
    /// UNKNOWN.
    Unknown,
}

impl Verdict {
    /// TRUE, FALSE or UNKNOWN, without the reason.
    pub fn kind(&self) -> VerdictKind {
        match self {
            Verdict::True => VerdictKind::True,
            Verdict::False => VerdictKind::False,
            Verdict::Unknown(_) => VerdictKind::Unknown,
        }
    }
}

/// How gcc's run of a counterexample's inputs went (`vcov verify --confirm`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GccRun {
    /// The program compiled by gcc reached the violation.
    Confirmed,
    /// It ended otherwise; how (`main returned 0`).
    Ended(String),
    /// gcc could not build or run it; why.
    Failed(String),
}

/// What happened to a run besides the engines' answer, for `settle`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct After {
    /// The first stop signal that arrived while the engines ran, if one did.
    pub signal: Option<StopSignal>,
    /// gcc's run of a FALSE's counterexample in the data model it was built for, when `--confirm`
    /// asked for it.
    pub gcc: Option<(DataModel, GccRun)>,
}

/// Who confirmed the counterexample of a FALSE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfirmedBy {
    /// vcov's concrete interpreter (`symex::confirm`), as every counterexample.
    Interpreter,
    /// The interpreter and the program compiled by gcc in this data model (`--confirm`).
    InterpreterAndGcc(DataModel),
}

impl fmt::Display for ConfirmedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfirmedBy::Interpreter => f.write_str("internal interpreter"),
            ConfirmedBy::InterpreterAndGcc(dm) => write!(f, "internal interpreter and gcc {}", dm.gcc_flag()),
        }
    }
}

/// The verdict a run reports (`settle`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// The verdict.
    pub verdict: Verdict,
    /// Who confirmed the counterexample, when the verdict is FALSE.
    pub confirmed_by: Option<ConfirmedBy>,
    /// The signal that stopped the run before it had an answer (the exit status says which).
    pub stopped_by: Option<StopSignal>,
    /// Whether the engines' witness stands: not when gcc refused their counterexample.
    pub witness_stands: bool,
}

/// The rule that turns the engines' verdict (`None`: an engine, or reading the inputs, panicked: a
/// bug of vcov) and what happened `after` into the verdict the run reports:
/// - a panic gives UNKNOWN (internal error), whatever else happened: a bug never becomes a verdict;
/// - a signal turns only an UNKNOWN into UNKNOWN (stopped by the signal), which the exit status
///   tells; one that came after a TRUE or FALSE changes nothing;
/// - a FALSE (whose counterexample the interpreter replayed, as every FALSE's) stands when gcc was
///   not asked or confirmed it, and becomes UNKNOWN with gcc's reason in one line otherwise, its
///   witness dropped.
pub fn settle(engines: Option<&Verdict>, after: &After) -> Settled {
    let settled = |verdict, confirmed_by| Settled { verdict, confirmed_by, stopped_by: None, witness_stands: true };
    let refused = |why: String| Settled { witness_stands: false, ..settled(Verdict::Unknown(one_line(&why)), None) };
    let Some(verdict) = engines else {
        return Settled { witness_stands: false, ..settled(Verdict::Unknown("internal error".into()), None) };
    };
    match (verdict, after.signal, &after.gcc) {
        (Verdict::Unknown(_), Some(signal), _) => Settled {
            stopped_by: Some(signal),
            ..settled(Verdict::Unknown(format!("stopped by {}", signal.name())), None)
        },
        (Verdict::False, _, None) => settled(Verdict::False, Some(ConfirmedBy::Interpreter)),
        (Verdict::False, _, Some((dm, GccRun::Confirmed))) => {
            settled(Verdict::False, Some(ConfirmedBy::InterpreterAndGcc(*dm)))
        }
        (Verdict::False, _, Some((dm, GccRun::Ended(end)))) => {
            refused(format!("counterexample not confirmed by gcc {}: {end}", dm.gcc_flag()))
        }
        (Verdict::False, _, Some((_, GccRun::Failed(why)))) => {
            refused(format!("counterexample not confirmed: gcc could not run it: {why}"))
        }
        (verdict, _, _) => settled(verdict.clone(), None),
    }
}

/// `why` as one line for a verdict: its first three lines joined, cut after 300 bytes.
fn one_line(why: &str) -> String {
    let mut one: String = why.lines().take(3).collect::<Vec<_>>().join(" ");
    if one.len() > 300 {
        one.truncate(one.floor_char_boundary(300));
        one.push_str(" ...");
    }
    one
}

/// A text that is not a verdict as `Verdict`'s `Display` writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAVerdict(pub String);

impl fmt::Display for NotAVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown verdict `{}`", self.0)
    }
}

/// Reads a verdict back from what `Display` writes (`vcov verify`'s `Verification result:` line).
impl FromStr for Verdict {
    type Err = NotAVerdict;

    fn from_str(text: &str) -> Result<Verdict, NotAVerdict> {
        match text {
            "TRUE" => Ok(Verdict::True),
            "FALSE(unreach-call)" => Ok(Verdict::False),
            _ => match text.strip_prefix("UNKNOWN (").and_then(|why| why.strip_suffix(')')) {
                Some(why) => Ok(Verdict::Unknown(why.to_string())),
                None => Err(NotAVerdict(text.to_string())),
            },
        }
    }
}

/// The default text of the ErrorLabel specification for witnesses.
/// The text of CPAchecker's ErrorLabel specification in witnesses.
pub const ERROR_LABEL_SPEC: &str = "CHECK( init(main()), LTL(G ! label(ERROR)) )";

/// The text of the unreach-call property for `reach_error` when no property file is given.
pub const UNREACH_CALL_SPEC: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";

/// Why a property file is not one vcov checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyError {
    /// Not a `CHECK( init(f()), LTL(G ! call(g())) )` property.
    Unsupported,
    /// The entry function is not `main`.
    Entry(String),
    /// A forbidden call other than `reach_error` and `__VERIFIER_error`.
    Call(String),
}

impl fmt::Display for PropertyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PropertyError::Unsupported => {
                f.write_str("unsupported property (vcov checks `G ! call(reach_error())` from main)")
            }
            PropertyError::Entry(e) => write!(f, "the entry function must be main, not '{e}'"),
            PropertyError::Call(c) => {
                write!(f, "vcov checks calls of reach_error or __VERIFIER_error only, not of '{c}'")
            }
        }
    }
}

/// The one check of a property file's `text`: an unreach-call property from `main` whose forbidden
/// calls are `reach_error` or `__VERIFIER_error`. Returns the property's text for witnesses.
pub fn check_property(text: &str) -> Result<String, PropertyError> {
    let (init, forbidden) = task::parse_property(text).ok_or(PropertyError::Unsupported)?;
    if init != "main" {
        return Err(PropertyError::Entry(init));
    }
    if let Some(other) = forbidden.iter().find(|f| *f != "reach_error" && *f != "__VERIFIER_error") {
        return Err(PropertyError::Call(other.clone()));
    }
    Ok(text.trim().to_string())
}

/// What the engines are doing, for a progress line: counters the engines store with relaxed
/// atomics and a display thread reads (nothing waits for it).
#[derive(Debug, Default)]
pub struct Progress {
    /// Paths the explicit search has finished (depth-first, or alone).
    pub paths: AtomicU64,
    /// Paths the breadth-first search of the portfolio's second thread has finished.
    pub bfs_paths: AtomicU64,
    /// What BMC and k-induction are at: 0 not started, 1 proving invariants, 2 unrolling (then `k`
    /// is the current bound), 3 done.
    pub kind_phase: AtomicU8,
    /// The bound BMC and k-induction are at.
    pub k: AtomicU32,
    /// Runs random testing has made (`fuzz`).
    pub random_runs: AtomicU64,
}

/// Which engines `decide` runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engines {
    /// The explicit-path search and BMC/k-induction side by side, in two threads; the first that
    /// decides stops the other (the default).
    #[default]
    Portfolio,
    /// The explicit-path search alone, in the order `ExploreConfig::strategy` says.
    Explicit,
    /// BMC and k-induction alone.
    KInduction,
}

/// The engine that decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The explicit-path search, depth-first.
    ExplicitDfs,
    /// The explicit-path search, breadth-first.
    ExplicitBfs,
    /// Bounded model checking: a counterexample, or every path ends within the bound.
    Bmc,
    /// k-induction.
    KInduction,
    /// Random testing (`fuzz`): a run on random inputs reached the violation.
    Random,
    /// Interval analysis with input subdivision (`intervals`): no box of inputs has a bad path.
    Intervals,
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::ExplicitDfs => "explicit-dfs",
            Engine::ExplicitBfs => "explicit-bfs",
            Engine::Bmc => "bmc",
            Engine::KInduction => "k-induction",
            Engine::Random => "random-testing",
            Engine::Intervals => "intervals",
        })
    }
}

/// What the exploration decided.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The verdict.
    pub verdict: Verdict,
    /// Exploration counters.
    pub stats: Stats,
    /// When the verdict is FALSE: the counterexample's edges and inputs.
    pub counterexample: Option<(Trace, Vec<InputValue>)>,
    /// The engine that decided, when one did.
    pub engine: Option<Engine>,
    /// When BMC and k-induction ran: their counters and their result in words.
    pub kind: Option<(KindStats, String)>,
    /// When k-induction proved the property: the proof (its invariants).
    pub proof: Option<kind::Proof>,
    /// When random testing ran: what it did.
    pub random: Option<fuzz::FuzzStats>,
}

/// A guide of the explicit-path search that also hears how every path ended (`decide_guided`).
pub trait Observer: Guide {
    /// Called with every path the search yields, in order.
    fn ended(&mut self, outcome: &PathOutcome<Self::Tag>);
}

impl Observer for Exhaustive {
    fn ended(&mut self, _outcome: &PathOutcome<()>) {}
}

/// Decides with `engines`: the explicit-path search (`explicit`), BMC and k-induction
/// (`kind::run`), or both side by side, the first answer winning. Two answers that disagree (a
/// vcov bug) give UNKNOWN rather than either.
/// The engines count what they do in `progress`.
pub fn decide(
    prog: &Program,
    cfa: &Cfa,
    explore: ExploreConfig,
    engines: Engines,
    progress: &Arc<Progress>,
) -> Decision {
    decide_guided(prog, cfa, explore, engines, progress, Exhaustive)
}

/// `decide` with `guide` steering the explicit-path search of the calling thread (the one of
/// `Engines::Explicit`, the depth-first one of the portfolio); the other engines run on the whole
/// program as always.
pub fn decide_guided<G: Observer>(
    prog: &Program,
    cfa: &Cfa,
    explore: ExploreConfig,
    engines: Engines,
    progress: &Arc<Progress>,
    guide: G,
) -> Decision {
    let property = explore.property;
    let kind_config = |cancel: Option<Arc<AtomicBool>>| KindConfig {
        // Beside the explicit search (a portfolio), past its invariants and first depths.
        yield_from_k: cancel.is_some().then_some(YIELD_FROM_K),
        budget: symex::Budget { cancel, ..explore.budget.clone() },
        progress: Some(progress.clone()),
        ..KindConfig::default()
    };
    match engines {
        Engines::Explicit => explicit_guided(prog, cfa, explore, &progress.paths, guide),
        Engines::KInduction => {
            let (res, stats) = kind::run(prog, cfa, property, &kind_config(None));
            combine(None, res, stats)
        }
        Engines::Portfolio => {
            let cancel = Arc::new(AtomicBool::new(false));
            let config = kind_config(Some(cancel.clone()));
            let mode = explore.mode;
            let mut explore = explore;
            explore.budget.cancel = Some(cancel.clone());
            let budget = explore.budget.clone();
            // The second engine works on its own copy of the program, in a thread that is not
            // waited for once the first engine decided: it stops at its next check of `cancel`.
            let (prog2, cfa2) = (prog.clone(), cfa.clone());
            let cancel2 = cancel.clone();
            let progress2 = progress.clone();
            let (send, recv) = std::sync::mpsc::channel();
            let spawned = std::thread::Builder::new().name("vcov-kinduction".into()).spawn(move || {
                let res = second_engine(&prog2, &cfa2, property, &config, mode, budget, &progress2.bfs_paths);
                if res.1.as_ref().is_some_and(|d| !matches!(d.verdict, Verdict::Unknown(_)))
                    || !matches!(res.0 .0, KindResult::Unknown(_))
                {
                    cancel2.store(true, Ordering::Relaxed);
                }
                // The receiver is gone when the first engine decided first.
                let _ = send.send(res);
            });
            let limits = explore.budget.clone();
            let random = spawn_random(prog, cfa, property, &explore.budget, progress);
            let first = explicit_guided(prog, cfa, explore, &progress.paths, guide);
            let decided = !matches!(first.verdict, Verdict::Unknown(_));
            // Past a limit (time, memory, a signal) the second engine's answer is the one it has
            // already sent: the run does not wait while it notices the limit and frees its memory,
            // which would eat into the grace the limit leaves for the report.
            // (Not a cancel: the second engine cancels the first when it decided, and then sends.)
            let limited = !matches!(limits.exhausted(), None | Some(symex::StopReason::Requested));
            if decided || limited {
                cancel.store(true, Ordering::Relaxed);
            }
            let second = match spawned {
                Err(_) => None,
                // An answer already there is checked against the first one.
                Ok(_) if decided || limited => recv.try_recv().ok(),
                Ok(_) => recv.recv().ok(),
            };
            let Some(((res, stats), bfs)) = second else {
                let random = random.and_then(|r| r.finish(&cancel, decided || limited));
                let said = match (decided, limited) {
                    (true, _) => "not finished",
                    (false, true) => "stopped by the limit before it answered",
                    (false, false) => "internal error",
                };
                let first = Decision { kind: Some((KindStats::default(), said.into())), ..first };
                return with_random(first, random);
            };
            let undecided = matches!(first.verdict, Verdict::Unknown(_));
            let res = combine(Some(first), res, stats);
            let res = match bfs {
                Some(b) if !matches!(b.verdict, Verdict::Unknown(_)) => match res.verdict {
                    Verdict::Unknown(_) => Decision { kind: res.kind, ..b },
                    ref v if *v == b.verdict => res,
                    _ => disagreement(res),
                },
                _ => res,
            };
            // Random testing gets its turn when the other engines ended undecided before any limit.
            let settled = !matches!(res.verdict, Verdict::Unknown(_)) || !undecided;
            let limited = !matches!(limits.exhausted(), None | Some(symex::StopReason::Requested));
            let random = random.and_then(|r| r.finish(&cancel, settled || limited));
            with_random(res, random)
        }
    }
}

/// The depth from which k-induction yields the CPU to the explicit search of a portfolio when the
/// two compete for it (`KindConfig::yield_from_k`).
const YIELD_FROM_K: u32 = 2;

/// How long the portfolio runs before random testing starts: what the other engines decide this
/// early, they decide without it.
const RANDOM_DELAY: std::time::Duration = std::time::Duration::from_secs(2);

/// Edges random testing runs first; the rest of its limits once a quarter of the time limit has
/// passed (15 s without one), so that what the other engines decide in the meantime costs little
/// more CPU time.
const RANDOM_FIRST_EDGES: u64 = 1_000_000;

/// Random testing (`fuzz`) in a thread of its own: it starts after `RANDOM_DELAY` (at once for a
/// program without inputs) and pauses after `RANDOM_FIRST_EDGES` until a quarter of the time limit,
/// or goes on at once when told (`Random::finish`), unless the budget ends first.
struct Random {
    /// Its answer: the violation found, if any (sent after it set the budget's cancel flag to stop
    /// the other engines).
    answer: std::sync::mpsc::Receiver<(Option<fuzz::Found>, fuzz::FuzzStats)>,
    /// Start without waiting for the delay to pass.
    now: Arc<AtomicBool>,
}

impl Random {
    /// What random testing found and did: what it sent already when `stop` (the thread is then
    /// cancelled, not waited for); otherwise, what it finds within its limits, started now if it
    /// has not started yet.
    fn finish(self, cancel: &AtomicBool, stop: bool) -> Option<(Option<fuzz::Found>, fuzz::FuzzStats)> {
        if stop {
            cancel.store(true, Ordering::Relaxed);
            return self.answer.try_recv().ok();
        }
        self.now.store(true, Ordering::Relaxed);
        self.answer.recv().ok()
    }
}

/// Starts random testing; `None` when the program reads no input of `__VERIFIER_nondet_*` (one
/// run is then what the explicit search does anyway) or no thread can be had.
fn spawn_random(
    prog: &Program,
    cfa: &Cfa,
    property: symex::Property,
    budget: &symex::Budget,
    progress: &Arc<Progress>,
) -> Option<Random> {
    // A program without inputs has one run, short when its loops accelerate: it goes first.
    let delay =
        if prog.funcs.iter().any(|f| fuzz::is_input(&f.name)) { RANDOM_DELAY } else { std::time::Duration::ZERO };
    let (prog, cfa, budget, progress) = (prog.clone(), cfa.clone(), budget.clone(), progress.clone());
    let (send, answer) = std::sync::mpsc::channel();
    let now = Arc::new(AtomicBool::new(false));
    let start_now = now.clone();
    std::thread::Builder::new()
        .name("vcov-random".into())
        .spawn(move || {
            let start = std::time::Instant::now();
            let second = start
                + budget.deadline.map_or(std::time::Duration::from_secs(15), |d| {
                    d.saturating_duration_since(start).div_f64(4.0).max(RANDOM_DELAY)
                });
            // Waits until `until` passes, unless told to go on or the budget ends.
            let wait = |until: std::time::Instant| {
                while std::time::Instant::now() < until && !start_now.load(Ordering::Relaxed) {
                    if budget.exhausted().is_some() {
                        return;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
            };
            wait(start + delay);
            if budget.exhausted().is_some() {
                let _ = send.send((None, fuzz::FuzzStats::default()));
                return;
            }
            let between = |s: &fuzz::FuzzStats| {
                progress.random_runs.store(u64::from(s.runs), Ordering::Relaxed);
                if s.steps >= RANDOM_FIRST_EDGES {
                    wait(second);
                }
            };
            let (found, stats) = fuzz::run(&prog, &cfa, property, fuzz::FuzzLimits::default(), &budget, &between);
            if found.is_some() {
                if let Some(c) = &budget.cancel {
                    c.store(true, Ordering::Relaxed);
                }
            }
            // The receiver is gone when the portfolio ended without it.
            let _ = send.send((found, stats));
        })
        .ok()?;
    Some(Random { answer, now })
}

/// `decision` with what random testing did and the violation it found, if any: FALSE when the other
/// engines found nothing, UNKNOWN when one of them proved the program (an internal error).
fn with_random(decision: Decision, random: Option<(Option<fuzz::Found>, fuzz::FuzzStats)>) -> Decision {
    let Some((found, stats)) = random else { return decision };
    let decision = Decision { random: Some(stats), ..decision };
    let Some((edges, inputs)) = found else { return decision };
    match decision.verdict {
        Verdict::False => decision,
        Verdict::True => disagreement(decision),
        Verdict::Unknown(_) => Decision {
            verdict: Verdict::False,
            counterexample: Some((edges, inputs)),
            engine: Some(Engine::Random),
            proof: None,
            ..decision
        },
    }
}

/// `decision` turned into UNKNOWN because another engine answered the opposite (a vcov bug).
fn disagreement(decision: Decision) -> Decision {
    Decision {
        verdict: Verdict::Unknown("the engines disagree (an internal error of vcov)".into()),
        counterexample: None,
        engine: None,
        proof: None,
        ..decision
    }
}

/// What the second thread of the portfolio found: BMC and k-induction, then (when they cannot
/// work on the program, before any limit) the explicit search breadth-first, so that shallow bugs
/// come fast whatever order the first thread finds them in.
fn second_engine(
    prog: &Program,
    cfa: &Cfa,
    property: symex::Property,
    config: &KindConfig,
    mode: symex::Mode,
    budget: symex::Budget,
    paths: &AtomicU64,
) -> ((KindResult, KindStats), Option<Decision>) {
    let (res, stats) = kind::run(prog, cfa, property, config);
    if !matches!(res, KindResult::Unknown(_)) || config.budget.exhausted().is_some() {
        return ((res, stats), None);
    }
    let bfs = ExploreConfig { strategy: Strategy::Bfs, mode, property, budget, ..ExploreConfig::default() };
    ((res, stats), Some(explicit(prog, cfa, bfs, paths)))
}

/// The answer of the explicit-path search (if it ran) and of BMC/k-induction together.
fn combine(explicit: Option<Decision>, res: KindResult, kind_stats: KindStats) -> Decision {
    let said = match &res {
        KindResult::Proof(p) => match p.by {
            ProofKind::Bmc => format!("TRUE: every path ends within {} steps", p.k + 1),
            ProofKind::KInduction => format!("TRUE at k = {} with {} invariants", p.k, p.invariants.len()),
            ProofKind::Intervals => format!("TRUE: no path of any of {} boxes of inputs is bad on intervals", p.k),
        },
        KindResult::Counterexample { by: ProofKind::Intervals, .. } => {
            "FALSE: a run on inputs from a box of the interval analysis".to_string()
        }
        KindResult::Counterexample { depth, .. } => format!("FALSE after {depth} steps"),
        KindResult::Unknown(why) => format!("UNKNOWN ({why})"),
    };
    let kind = Some((kind_stats, said));
    match (explicit, res) {
        (Some(d), KindResult::Proof(_)) if d.verdict == Verdict::False => disagreement(Decision { kind, ..d }),
        (Some(d), KindResult::Counterexample { .. }) if d.verdict == Verdict::True => {
            disagreement(Decision { kind, ..d })
        }
        (Some(d), _) if !matches!(d.verdict, Verdict::Unknown(_)) => Decision { kind, ..d },
        (d, KindResult::Proof(p)) => Decision {
            verdict: Verdict::True,
            stats: d.map(|d| d.stats).unwrap_or_default(),
            counterexample: None,
            engine: Some(match p.by {
                ProofKind::Bmc => Engine::Bmc,
                ProofKind::KInduction => Engine::KInduction,
                ProofKind::Intervals => Engine::Intervals,
            }),
            kind,
            proof: Some(p),
            random: None,
        },
        (d, KindResult::Counterexample { edges, inputs, by, .. }) => Decision {
            verdict: Verdict::False,
            stats: d.map(|d| d.stats).unwrap_or_default(),
            counterexample: Some((Trace::from(edges), inputs)),
            engine: Some(if by == ProofKind::Intervals { Engine::Intervals } else { Engine::Bmc }),
            kind,
            proof: None,
            random: None,
        },
        (Some(d), KindResult::Unknown(_)) => Decision { kind, ..d },
        (None, KindResult::Unknown(why)) => Decision {
            verdict: Verdict::Unknown(why),
            stats: Stats::default(),
            counterexample: None,
            engine: None,
            kind,
            proof: None,
            random: None,
        },
    }
}

/// Explores `prog` exhaustively under `explore` and decides: FALSE with the first counterexample the
/// path acceptance rule (`symex::confirm`) accepts; otherwise UNKNOWN if a counterexample was refused
/// or the exploration is inconclusive (`Summary::inconclusive`); otherwise TRUE. Counts the paths
/// it finishes in `paths`.
pub fn explicit(prog: &Program, cfa: &Cfa, explore: ExploreConfig, paths: &AtomicU64) -> Decision {
    explicit_guided(prog, cfa, explore, paths, Exhaustive)
}

/// `explicit` under `guide`, which hears every path's end. A path the guide prunes is left out of
/// the verdict: the caller answers for it (`condition`).
pub fn explicit_guided<G: Observer>(
    prog: &Program,
    cfa: &Cfa,
    explore: ExploreConfig,
    paths: &AtomicU64,
    guide: G,
) -> Decision {
    let property = explore.property;
    let engine = if explore.strategy == Strategy::Bfs { Engine::ExplicitBfs } else { Engine::ExplicitDfs };
    let mut explorer = symex::explore(prog, cfa, explore, guide);
    let mut rejected: Option<symex::Rejected> = None;
    let mut found = None;
    while let Some(outcome) = explorer.next() {
        paths.fetch_add(1, Ordering::Relaxed);
        explorer.guide_mut().ended(&outcome);
        if outcome.end != PathEnd::Violation {
            continue;
        }
        match symex::confirm(prog, cfa, property, &outcome, symex::Approx::NONE) {
            Ok(c) => {
                found = Some((c.trace, c.inputs));
                explorer.stop();
                break;
            }
            Err(r) => {
                rejected.get_or_insert(r);
            }
        }
    }
    let summary = explorer.summary();
    let stats = explorer.stats();
    let verdict = if found.is_some() {
        Verdict::False
    } else if let Some(r) = rejected {
        Verdict::Unknown(r.to_string())
    } else {
        match summary.inconclusive() {
            None => Verdict::True,
            Some(why) => Verdict::Unknown(why.to_string()),
        }
    };
    let engine = (!matches!(verdict, Verdict::Unknown(_))).then_some(engine);
    Decision { verdict, stats, counterexample: found, engine, kind: None, proof: None, random: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdict `settle` reports for `engines` and `after`, with who confirmed it and the signal.
    fn check(engines: Option<Verdict>, after: After, expect: &str) {
        let s = settle(engines.as_ref(), &after);
        let mut got = s.verdict.result_line();
        if let Some(by) = s.confirmed_by {
            got.push_str(&format!("; confirmed by {by}"));
        }
        if let Some(signal) = s.stopped_by {
            got.push_str(&format!("; exit by {}", signal.name()));
        }
        if !s.witness_stands {
            got.push_str("; no witness");
        }
        assert_eq!(got, expect);
    }

    fn unknown(why: &str) -> Option<Verdict> {
        Some(Verdict::Unknown(why.into()))
    }

    #[test]
    fn a_panic_is_never_a_verdict() {
        let everything = After { signal: Some(StopSignal::Interrupt), gcc: Some((DataModel::Lp64, GccRun::Confirmed)) };
        check(None, everything, "Verification result: UNKNOWN (internal error); no witness");
        check(None, After::default(), "Verification result: UNKNOWN (internal error); no witness");
    }

    #[test]
    fn a_signal_stops_only_a_run_without_an_answer() {
        let int = After { signal: Some(StopSignal::Interrupt), gcc: None };
        let term = After { signal: Some(StopSignal::Terminate), gcc: None };
        check(
            unknown("time limit reached"),
            int.clone(),
            "Verification result: UNKNOWN (stopped by SIGINT); exit by SIGINT",
        );
        check(
            unknown("time limit reached"),
            term.clone(),
            "Verification result: UNKNOWN (stopped by SIGTERM); exit by SIGTERM",
        );
        check(Some(Verdict::True), int.clone(), "Verification result: TRUE");
        check(
            Some(Verdict::False),
            term,
            "Verification result: FALSE(unreach-call); confirmed by internal interpreter",
        );
        check(unknown("1 path(s) cut"), After::default(), "Verification result: UNKNOWN (1 path(s) cut)");
    }

    #[test]
    fn gcc_confirms_a_false_or_turns_it_into_unknown() {
        let gcc = |run| After { signal: None, gcc: Some((DataModel::Ilp32, run)) };
        check(
            Some(Verdict::False),
            After::default(),
            "Verification result: FALSE(unreach-call); confirmed by internal interpreter",
        );
        check(
            Some(Verdict::False),
            gcc(GccRun::Confirmed),
            "Verification result: FALSE(unreach-call); confirmed by internal interpreter and gcc -m32",
        );
        check(
            Some(Verdict::False),
            gcc(GccRun::Ended("main returned 0".into())),
            "Verification result: UNKNOWN (counterexample not confirmed by gcc -m32: main returned 0); no witness",
        );
        // gcc's complaint: its first lines, in one line of at most 300 bytes.
        let complaint = format!("gcc failed\nfirst\nsecond\nthird\n{}", "x".repeat(400));
        check(
            Some(Verdict::False),
            gcc(GccRun::Failed(complaint)),
            "Verification result: UNKNOWN (counterexample not confirmed: gcc could not run it: gcc failed first \
             second); no witness",
        );
        let long = "é".repeat(200);
        let s = settle(Some(&Verdict::False), &gcc(GccRun::Failed(long)));
        let Verdict::Unknown(why) = s.verdict else { panic!("UNKNOWN") };
        assert!(why.len() <= 304 && why.ends_with("é ..."), "{why}");
        // A signal after a FALSE gcc refuses does not stop the run.
        let both = After { signal: Some(StopSignal::Interrupt), ..gcc(GccRun::Ended("main returned 0".into())) };
        check(
            Some(Verdict::False),
            both,
            "Verification result: UNKNOWN (counterexample not confirmed by gcc -m32: main returned 0); no witness",
        );
        check(Some(Verdict::True), gcc(GccRun::Confirmed), "Verification result: TRUE");
    }

    #[test]
    fn only_unreach_call_properties_from_main_are_checked() {
        let ok = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";
        assert_eq!(check_property(ok).unwrap(), ok.trim());
        assert!(check_property("CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )").is_ok());
        assert_eq!(
            check_property("CHECK( init(start()), LTL(G ! call(reach_error())) )"),
            Err(PropertyError::Entry("start".into()))
        );
        assert_eq!(
            check_property("CHECK( init(main()), LTL(G ! call(abort())) )"),
            Err(PropertyError::Call("abort".into()))
        );
        assert_eq!(check_property("CHECK( init(main()), LTL(G valid-free) )"), Err(PropertyError::Unsupported));
        assert_eq!(check_property(""), Err(PropertyError::Unsupported));
    }

    #[test]
    fn verdicts_read_back_as_they_are_written() {
        let verdicts = [
            Verdict::True,
            Verdict::False,
            Verdict::Unknown("time limit".into()),
            Verdict::Unknown("counterexample not confirmed by gcc -m32 (exit code 1)".into()),
            Verdict::Unknown(String::new()),
        ];
        for v in verdicts {
            assert_eq!(v.to_string().parse::<Verdict>(), Ok(v.clone()), "{v}");
        }
        assert_eq!(Verdict::False.to_string(), "FALSE(unreach-call)");
        assert_eq!("UNKNOWN (why)".parse::<Verdict>().map(|v| v.kind()), Ok(VerdictKind::Unknown));
        for text in ["true", "FALSE", "FALSE(valid-deref)", "UNKNOWN", "UNKNOWN (why", "TRUE "] {
            assert_eq!(text.parse::<Verdict>(), Err(NotAVerdict(text.into())), "{text}");
        }
        assert_eq!(NotAVerdict("x".into()).to_string(), "unknown verdict `x`");
    }
}
