//! Generating terminating executions with the symbolic executor: the paper's baseline (blind), its
//! heuristic (guided) and the targeted search that finds, one after the other, executions covering a
//! line not covered yet, and proves the rest not coverable when it runs out of candidates.
//!
//! The executor knows nothing of automata; `CoverageGuide` follows the automaton along every path
//! (the same step function as `Analysis::measure`), orders branches by CFA postorder then by the
//! Reach score of the automaton state, and in targeted mode prunes a path that cannot cover anything
//! new: its prefix covers no line still uncovered and no uncovered line is reachable before
//! `__FALSE`. A path whose prefix covers new lines but can reach no further uncovered line is only
//! completed to the program's exit (`Step::CompletionOnly`).
//!
//! Invariant: an execution is reported only if the concrete interpreter, fed its inputs, takes exactly
//! its edges and returns from `main`; its lines are measured by `Analysis::measure`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use fixedbitset::FixedBitSet;
use petgraph::graph::DiGraph;

use super::exchange::{Participant, Shared};
use super::result::MemoryFact;
pub use super::result::{Generate, StoppedBy};
use super::result::{InexactReason, NoViolationBy, PropertyStatus, SearchEnd, TimelinePoint, UndefinedAt};
use super::undecided::Tally;
use super::{memory_facts, Analysis, Execution, ExecutionCoverage, RuledOut};
use crate::automaton::StateId;
use crate::cfa::{Cfa, EdgeId, EdgeKind, NodeId};
use crate::cfront::ir::{Program, VarId};
use crate::product::{solve_dag, stack_after, step, takeable_edges, ProductNode, StackId, Stacks, Step as AutStep};
use crate::symex::{self, Approx, CutReason, ExploreConfig, Explorer, Guide, PathEnd, Pulled, Step, Succ};

/// Options of the search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// How executions are generated. [default: targeted]
    pub generate: Generate,
    /// Stop after this many terminating executions. [default: none]
    pub max_executions: Option<usize>,
    /// Go on after an execution violates the property. [default: false]
    pub continue_after_bug: bool,
    /// Targeted mode: edges the search executes before it tries to prove the lines it has not
    /// covered not coverable with an abstraction. [default: `DEFAULT_PROOF_AFTER`]
    pub proof_after: u64,
    /// Free the executor's memory at the end (a process about to exit may skip it, which can take
    /// seconds after a long search). [default: true]
    pub free_memory: bool,
    /// Environment assumptions the user accepts (`Approx::ASSUMPTIONS`): a search that made only
    /// these approximations still ends exact, relative to them. [default: none]
    pub assume: Approx,
    /// The executor's configuration (strategy, solver mode, property, budget).
    pub explore: ExploreConfig,
}

/// An execution the search generated.
#[derive(Clone, Debug)]
pub struct FoundExecution {
    /// Its edges.
    pub edges: Vec<EdgeId>,
    /// The values of its nondeterministic inputs, in order.
    pub inputs: Vec<symex::InputValue>,
    /// What it covers.
    pub coverage: ExecutionCoverage,
    /// The search (of `vcov compare`) that found it, when another one did (`exchange`).
    pub found_for: Option<usize>,
    /// What the replay harness needs to rebuild the memory it read (`memory_facts`); `None` when it
    /// cannot (the execution is not claimed).
    pub memory: Option<Vec<MemoryFact>>,
}

/// Why the concrete interpreter refused executions of the executor (`symex::confirm`), grouped for
/// the report: an executor and an interpreter that disagree is a model problem until shown otherwise.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Refusal {
    /// The solver gave no values for the inputs.
    NoModel,
    /// The run took another edge than the path at this line (the first where they differ).
    LeftPath {
        /// The line of the path's edge.
        line: u32,
        /// That edge's text.
        edge: String,
    },
    /// The run ended this way before the path did (undefined behaviour, a construct the interpreter
    /// does not model, ...).
    Ended(String),
}

impl Refusal {
    fn of(cfa: &Cfa, r: &symex::Rejected) -> Refusal {
        match (&r.why, r.at) {
            (symex::Rejection::NoModel, _) => Refusal::NoModel,
            (symex::Rejection::Diverged(symex::ConcreteEnd::Diverged), Some(e)) => {
                Refusal::LeftPath { line: cfa.edge(e).lines.map_or(0, |(l, _)| l), edge: cfa.edge(e).text.to_string() }
            }
            (symex::Rejection::Diverged(end), _) => Refusal::Ended(format!("{end:?}")),
            (symex::Rejection::Approximated(a), _) => Refusal::Ended(a.describe().join("; ")),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NoModel => f.write_str("the solver gave no values for the inputs"),
            Refusal::LeftPath { line, edge } => write!(f, "the concrete run left the path at line {line} (`{edge}`)"),
            Refusal::Ended(end) => write!(f, "the concrete run ended before the path did: {end}"),
        }
    }
}

/// An execution that violates the property.
#[derive(Clone, Debug)]
pub struct FoundBug {
    /// Its edges, up to the violation.
    pub edges: Vec<EdgeId>,
    /// The values of its nondeterministic inputs, in order.
    pub inputs: Vec<symex::InputValue>,
    /// What the replay harness needs to rebuild the memory it read; `None` when it cannot.
    pub memory: Option<Vec<MemoryFact>>,
}

/// Counters a running search keeps up to date for a progress display on another thread (relaxed
/// atomics: a store per path costs nothing next to executing it).
#[derive(Debug, Default)]
pub struct SearchProgress {
    /// Paths the executor has finished (terminating, violating, cut or pruned).
    pub paths: AtomicU64,
    /// Executions kept.
    pub executions: AtomicU64,
    /// Lines of the over-approximation covered or proven not coverable.
    pub decided: AtomicU64,
}

impl SearchProgress {
    fn note(&self, out: &SearchOutcome, decided: usize) {
        self.executions.store(out.executions.len() as u64, Ordering::Relaxed);
        self.decided.store(decided as u64, Ordering::Relaxed);
    }
}

/// What the search found and why it ended.
#[derive(Clone, Debug, Default)]
pub struct SearchOutcome {
    /// Terminating executions, in the order found.
    pub executions: Vec<FoundExecution>,
    /// Executions that violate the property (at most one unless `continue_after_bug`).
    pub bugs: Vec<FoundBug>,
    /// How the search ended: whether it is complete, what stopped it and why it is not exact are
    /// decided from these facts (`SearchEnd`, `InexactReason::first`).
    pub end: SearchEnd,
    /// Executor statistics.
    pub stats: Option<symex::Stats>,
    /// Lines the proof pass showed not coverable (ascending), with the variables it abstracted
    /// away; empty when it did not run or proved nothing.
    pub proven: Vec<u32>,
    /// Lines of the over-approximation with no path on to the end of `main`, hence covered by no
    /// terminating execution (`Analysis::lines_without_exit`), ascending.
    pub no_exit: Vec<u32>,
    /// Lines of the over-approximation the value analysis of the product showed no execution reaches
    /// inside the explored region (`Analysis::lines_ruled_out`).
    pub ruled_out: RuledOut,
    /// Lines only edges into `__FALSE` count for (`Analysis::lines_into_unexplored`), ascending.
    pub frontier: Vec<u32>,
    /// The variables the proof pass abstracted away, if it proved anything.
    pub abstracted: Vec<VarId>,
    /// The accepted assumptions (`SearchConfig::assume`) the search relied on: approximations it
    /// made that are part of the model.
    pub assumed: Approx,
    /// The accepted assumptions the proof pass relied on.
    pub proof_assumed: Approx,
    /// Whether the proof pass took the writes of functions without body as arbitrary.
    pub proof_extern_writes: bool,
    /// Paths that ended at possible undefined behaviour (they are not terminating executions).
    pub undefined_paths: u64,
    /// Executions and counterexamples vcov's interpreter did not confirm (or the solver gave no
    /// model for), refused by `symex::confirm`: dropped, and the search goes on.
    pub not_confirmed: usize,
    /// Those refusals grouped by why.
    pub refusals: BTreeMap<Refusal, usize>,
    /// Where undefined behaviour can happen, one per line and kind (at most `MAX_UNDEFINED`), in
    /// the order found, each with the path that leads there.
    pub undefined: Vec<UndefinedAt>,
    /// The search's progress: a point each time it kept an execution.
    pub timeline: Vec<TimelinePoint>,
    /// Violations that are real only relative to the accepted assumptions (`--assume`): how many
    /// paths, and the first one's place and trace. They end their executions; they are not bugs.
    pub assumed_violations: u64,
    /// The first of them.
    pub assumed_violation: Option<UndefinedAt>,
    /// What the search saw of each edge (`undecided::explain` sorts the lines left undecided by it);
    /// empty for a search that did not follow the automaton (blind).
    pub tally: Tally,
    /// Whether one of `bugs` stays inside the explored region up to its violation.
    pub bug_in_region: bool,
    /// The proof pass showed that no execution inside the region violates the property, relying on
    /// these accepted assumptions.
    pub no_violation_proof: Option<Approx>,
    /// What the search says about the property inside the explored region.
    pub property: PropertyStatus,
    /// The search gave up looking for violations after every line was decided, having executed this
    /// many edges for them (`violation_budget`).
    pub violations_given_up: Option<u64>,
    /// How long its phases took (`values`, `search`, `proof`; the others are the driver's).
    pub times: super::result::Times,
}

impl SearchOutcome {
    /// A point of the timeline for the execution just kept: time since `started`, executions,
    /// `lines` covered.
    fn mark_time(&mut self, started: std::time::Instant, lines: usize) {
        let seconds = started.elapsed().as_secs_f64();
        self.timeline.push(TimelinePoint { seconds, executions: self.executions.len(), lines });
    }
}

/// Edges a targeted search whose lines are all decided after `at` edges goes on executing to look for
/// violations: as many again, at least `VIOLATION_EDGES_MIN` (a budget in edges keeps the result
/// independent of the machine). A search with no time limit then still ends.
fn violation_budget(at: u64) -> u64 {
    at.max(VIOLATION_EDGES_MIN)
}

/// The least `violation_budget`.
const VIOLATION_EDGES_MIN: u64 = 100_000;

/// Distinct places of possible undefined behaviour a search reports.
pub const MAX_UNDEFINED: usize = 100;

/// Edges a targeted search executes before it tries to prove the lines it has not covered not
/// coverable with an abstraction (`symex::counters`); most searches that end by themselves end sooner.
pub const DEFAULT_PROOF_AFTER: u64 = 1_000_000;
/// Edges a targeted search executes without covering a new line before it takes some paths from
/// the oldest pending ones (`Explorer::mix_oldest`); searches that end by exhausting their paths
/// mostly end sooner after their last new line.
pub const STALL_EDGES: u64 = 100_000;
/// Edges the proof pass may execute.
const PROOF_EDGES: u64 = 10_000_000;
/// The proof pass after an exhausted search may execute this many times the search's edges (at
/// least `FINAL_PROOF_MIN_EDGES`, at most `PROOF_EDGES`): the search has an answer already, which
/// the proof may only sharpen, and the over-approximation has more paths than the program, most of
/// them with arbitrary values a solver must reason about. A budget in edges keeps the result
/// independent of the machine.
const FINAL_PROOF_FACTOR: u64 = 4;
const FINAL_PROOF_MIN_EDGES: u64 = 10_000;
/// Path segments between two looks at the work done, while the proof is due.
const SEGMENTS_PER_LOOK: u64 = 1024;

/// Runs the search on `analysis`'s program and automaton, keeping `progress` up to date.
///
/// With `share` (targeted generation only), the search takes part in `vcov compare`'s exchange: it
/// publishes its executions and adds the others' that cover lines it has not covered yet.
pub fn search(
    analysis: &Analysis,
    prog: &Program,
    config: &SearchConfig,
    progress: &SearchProgress,
    share: Option<&mut Participant>,
) -> SearchOutcome {
    // The value analysis of the product runs beside the search, on a thread of its own (see
    // `ValuesBeside`).
    let cancel = AtomicBool::new(false);
    let job = analysis.values_job(prog);
    let budget = &config.explore.budget;
    std::thread::scope(|scope| {
        let cancel = &cancel;
        let job = &job;
        let start = move || {
            scope.spawn(move || {
                let t = std::time::Instant::now();
                let ruled_out = job.run(&|| cancel.load(Ordering::Relaxed) || budget.exhausted().is_some());
                (ruled_out, t.elapsed().as_secs_f64())
            })
        };
        let values = ValuesBeside { start: Some(Box::new(start)), handle: None, cancel };
        search_beside(analysis, prog, config, progress, share, values)
    })
}

/// Edges the search executes before the value analysis starts beside it: a search that ends sooner
/// (most that stop at a bug) does not share the machine with it.
const VALUES_START_EDGES: u64 = 20_000;

/// Edges the search executes before it waits for the value analysis, if that has not ended yet, and
/// stops targeting the lines it rules out (a count of edges, not a time, so that the result does not
/// depend on the machine or the thread count).
const VALUES_JOIN_EDGES: u64 = 50_000;

/// The value analysis' thread, once started.
type ValuesHandle<'s> = std::thread::ScopedJoinHandle<'s, (RuledOut, f64)>;

/// The value analysis of the product (`Analysis::lines_ruled_out`) running beside the search: lines
/// no execution reaches inside the region are decided without the search, which stops looking for
/// them once it has them. It starts after `VALUES_START_EDGES` edges; the search joins it after
/// `VALUES_JOIN_EDGES` edges or when it ends (a search that ended sooner runs it then), except when
/// it stops at the first bug: then it reports without it. (Pruning the product edges it rules out
/// from the guide's targets as well changes the search order for the worse on keyspan_remote.BUG.)
struct ValuesBeside<'s> {
    start: Option<Box<dyn FnOnce() -> ValuesHandle<'s> + 's>>,
    handle: Option<ValuesHandle<'s>>,
    cancel: &'s AtomicBool,
}

impl ValuesBeside<'_> {
    /// Starts the analysis if it has not started.
    fn start(&mut self) {
        if let Some(start) = self.start.take() {
            self.handle = Some(start());
        }
    }

    /// Whether it has started (or ended).
    fn started(&self) -> bool {
        self.start.is_none()
    }

    /// Whether its result is still to be taken.
    fn pending(&self) -> bool {
        self.start.is_some() || self.handle.is_some()
    }

    /// The analysis' result and how long it took, waiting for it; `None` after the first call.
    fn join(&mut self) -> Option<(RuledOut, f64)> {
        self.start();
        let handle = self.handle.take()?;
        Some(handle.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    }

    /// Stops the analysis without its result (it never starts if it has not).
    fn abandon(&mut self) {
        self.start = None;
        self.cancel.store(true, Ordering::Relaxed);
        self.handle.take();
    }
}

impl SearchOutcome {
    /// Takes the value analysis' result (if it has not been taken) and decides its lines in `guide`.
    fn join_values(&mut self, values: &mut ValuesBeside, guide: &mut CoverageGuide) {
        if let Some((ruled_out, seconds)) = values.join() {
            guide.mark_proven(&ruled_out.all);
            self.ruled_out = ruled_out;
            self.times.values += seconds;
        }
    }
}

/// `search`, with the value analysis running beside.
fn search_beside(
    analysis: &Analysis,
    prog: &Program,
    config: &SearchConfig,
    progress: &SearchProgress,
    mut share: Option<&mut Participant>,
    mut values: ValuesBeside,
) -> SearchOutcome {
    let cfa = analysis.cfa;
    if config.generate != Generate::Targeted {
        // Blind and guided generation keep every execution they find themselves.
        share = None;
    }
    let t_values = std::time::Instant::now();
    let frontier = analysis.lines_into_unexplored().to_vec();
    let mut guide = CoverageGuide::new(analysis, prog, config.generate, config.explore.property);
    guide.mark_proven(&frontier);
    // Lines no terminating execution reaches are decided before the search (a path there may end
    // at a violation, which the search looks for as a target of its own).
    let no_exit = analysis.lines_without_exit();
    guide.mark_proven(&no_exit);
    let violations_in_region = guide.violations.in_region;
    let values_seconds = t_values.elapsed().as_secs_f64();
    let t_search = std::time::Instant::now();
    let mut proof_seconds = 0.0;
    let property = config.explore.property;
    let mut explorer: Explorer<'_, CoverageGuide> = symex::explore(prog, cfa, config.explore.clone(), guide);
    let mut out = SearchOutcome { no_exit, frontier, ..SearchOutcome::default() };
    out.times.values = values_seconds;
    let mut rejected: Option<symex::Rejected> = None;
    // A violation the interpreter did not confirm: the property is not decided by this search.
    let mut violation_rejected: Option<symex::Rejected> = None;
    let mut first_cut_line: Option<u32> = None;
    let limit = config.max_executions.unwrap_or(usize::MAX);
    let mut limited = limit == 0;
    let mut proof_due = config.generate == Generate::Targeted;
    let over = analysis.reach.over_lines.len();
    let started = std::time::Instant::now();
    let mut covered: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
    // Edges executed when a line was last covered: a targeted search that covers nothing new for
    // `STALL_EDGES` is stuck in one subtree and mixes in paths that wait near the root.
    let mut last_new = 0u64;
    let mut mixing = false;
    // Own executions published to the exchange so far.
    let mut published = 0;
    // Edges executed when every line was decided while violations were still looked for: the search
    // goes on for them with a budget of its own (`violation_budget`).
    let mut lines_done_at: Option<u64> = None;
    while !limited {
        if explorer.edges_executed() >= VALUES_START_EDGES {
            values.start();
        }
        if explorer.edges_executed() >= VALUES_JOIN_EDGES && values.pending() {
            out.join_values(&mut values, explorer.guide_mut());
            progress.note(&out, over.saturating_sub(explorer.guide().n_open()));
        }
        if config.generate == Generate::Targeted {
            let g = explorer.guide();
            if g.nothing_left() {
                break;
            }
            if g.n_open() == 0 {
                let at = *lines_done_at.get_or_insert(explorer.edges_executed());
                if explorer.edges_executed() - at > violation_budget(at) {
                    out.violations_given_up = Some(explorer.edges_executed() - at);
                    break;
                }
            }
        }
        if let Some(p) = share.as_deref_mut().filter(|p| p.due(explorer.edges_executed())) {
            let mine = own_since(&out.executions, &mut published);
            for (from, (edges, inputs)) in p.exchange(mine) {
                let exec = Execution { origin: String::new(), edges, terminating: true };
                let coverage = analysis.coverage_of(&exec);
                let guide = explorer.guide_mut();
                if !coverage.lines.iter().any(|&l| guide.is_uncovered(l)) {
                    continue;
                }
                guide.mark_covered(&coverage.lines);
                covered.extend(coverage.lines.iter().copied());
                // The other search's interpreter ran it; its allocations are this program's too.
                let run = symex::interpret(prog, cfa, property, &inputs, exec.edges.len() as u64 + 1);
                let memory = memory_facts(prog, &inputs, &run.allocs);
                out.executions.push(FoundExecution {
                    edges: exec.edges,
                    inputs,
                    coverage,
                    found_for: Some(from),
                    memory,
                });
                out.mark_time(started, covered.len());
            }
            progress.note(&out, over.saturating_sub(explorer.guide().n_open()));
        }
        if !mixing && config.generate == Generate::Targeted && explorer.edges_executed() - last_new > STALL_EDGES {
            mixing = true;
            explorer.mix_oldest();
        }
        if proof_due && explorer.edges_executed() >= config.proof_after {
            proof_due = false;
            let extern_writes = reads_extern_writes(config, &explorer.summary());
            let t_proof = std::time::Instant::now();
            let proof = prove_not_coverable(analysis, prog, config, explorer.guide(), extern_writes, PROOF_EDGES);
            proof_seconds += t_proof.elapsed().as_secs_f64();
            if let Some(proof) = proof {
                out.add_proof(explorer.guide_mut(), proof);
                progress.note(&out, over.saturating_sub(explorer.guide().n_open()));
            }
            continue;
        }
        let outcome = match explorer.pull(proof_due.then_some(SEGMENTS_PER_LOOK)) {
            Pulled::Path(o) => o,
            Pulled::Busy => continue,
            Pulled::Done => break,
        };
        progress.paths.fetch_add(1, Ordering::Relaxed);
        explorer.guide_mut().tally_end(&outcome);
        match outcome.end {
            PathEnd::Exit | PathEnd::Violation => {}
            PathEnd::Cut(CutReason::Undefined(kind)) => {
                // Undefined behaviour ends the execution: not a terminating one, but a finding.
                out.undefined_paths += 1;
                let line = outcome.path.last().and_then(|e| cfa.edge(e).lines).map_or(0, |(l, _)| l);
                let seen = out.undefined.iter().any(|u| u.line == line && u.kind == kind.describe());
                if !seen && out.undefined.len() < MAX_UNDEFINED {
                    out.undefined.push(UndefinedAt {
                        kind: kind.describe(),
                        line,
                        trace: trace_lines(cfa, &outcome.path.edges()),
                    });
                }
                continue;
            }
            PathEnd::Cut(_) => {
                if first_cut_line.is_none() {
                    first_cut_line = outcome.path.last().and_then(|e| cfa.edge(e).lines).map(|(l, _)| l);
                }
                continue;
            }
            _ => continue,
        }
        let (memory, edges, inputs) = match symex::confirm(prog, cfa, property, &outcome, config.assume) {
            Ok(c) if !c.assumed.is_empty() => {
                // A violation of the model the user accepted, not shown to be one of the program: a
                // finding, not a bug; like undefined behaviour, it ends the execution.
                out.assumed_violations += 1;
                if out.assumed_violation.is_none() {
                    let line = c.edges.last().and_then(|&e| cfa.edge(e).lines).map_or(0, |(l, _)| l);
                    let kind = "violation of the property, relying on the accepted assumptions";
                    out.assumed_violation = Some(UndefinedAt { kind, line, trace: trace_lines(cfa, &c.edges) });
                }
                continue;
            }
            Ok(c) => (memory_facts(prog, &c.inputs, &c.allocs), c.edges, c.inputs),
            Err(r) => {
                explorer.reject_completion(&outcome);
                if outcome.end == PathEnd::Violation {
                    violation_rejected.get_or_insert(r.clone());
                }
                // A violation refused for its approximations leaves them in the summary, where
                // they are the search's obstacle (`SearchEnd::unaccepted`).
                if !matches!(r.why, symex::Rejection::Approximated(_)) {
                    out.not_confirmed += 1;
                    *out.refusals.entry(Refusal::of(cfa, &r)).or_default() += 1;
                    rejected.get_or_insert(r);
                }
                continue;
            }
        };
        if outcome.end == PathEnd::Violation {
            out.bug_in_region |= analysis.stays_in_region(&edges);
            out.bugs.push(FoundBug { edges, inputs, memory });
            if !config.continue_after_bug {
                break;
            }
            continue;
        }
        // A real execution: it completes its `CompletionOnly` subtree, if it is in one.
        explorer.accept_completion(&outcome);
        let coverage =
            analysis.coverage_of(&Execution { origin: String::new(), edges: edges.clone(), terminating: true });
        // The invariants behind `lines_without_exit`, `lines_ruled_out` and
        // `lines_into_unexplored`: no terminating execution covers one of them.
        debug_assert!(
            coverage.lines.iter().all(|l| out.no_exit.binary_search(l).is_err()),
            "an execution covers a line without a path to the end of main"
        );
        debug_assert!(
            coverage.lines.iter().all(|l| out.ruled_out.all.binary_search(l).is_err()),
            "an execution covers a line the value analysis ruled out"
        );
        debug_assert!(
            coverage.lines.iter().all(|l| out.frontier.binary_search(l).is_err()),
            "an execution covers a line only edges into __FALSE count for"
        );
        let guide = explorer.guide_mut();
        let new = coverage.lines.iter().any(|&l| guide.is_uncovered(l));
        if config.generate == Generate::Targeted && !new {
            continue;
        }
        guide.mark_covered(&coverage.lines);
        last_new = explorer.edges_executed();
        covered.extend(coverage.lines.iter().copied());
        out.executions.push(FoundExecution { edges, inputs, coverage, found_for: None, memory });
        out.mark_time(started, covered.len());
        progress.note(&out, over.saturating_sub(explorer.guide().n_open()));
        if out.executions.len() >= limit {
            limited = true;
        }
    }
    if let Some(p) = share {
        p.end(own_since(&out.executions, &mut published));
    }
    let bug_stop = !out.bugs.is_empty() && !config.continue_after_bug;
    // A path pruned as covered has the futures of an explored state, but not its prefix: the
    // lines its executions would cover are not all known. Only the targeted search keeps the
    // prefix's uncovered lines in its tags.
    let pruned = match config.generate {
        Generate::Targeted => 0,
        _ => explorer.stats().cache.hits,
    };
    let end_of = |summary: &symex::Summary, guide: &CoverageGuide| SearchEnd {
        all_decided: config.generate == Generate::Targeted && guide.n_open() == 0,
        exhausted: summary.exhausted,
        stop: summary.stop,
        max_executions: limited.then_some(limit),
        stopped_at_bug: bug_stop,
        cuts: (summary.lossy_cuts(), summary.first_other_cut.clone(), first_cut_line),
        unaccepted: summary.approx.without(config.assume),
        rejected: rejected.clone(),
        pruned,
    };
    let mut summary = explorer.summary();
    // The value analysis decides nothing a complete search has not: one that ended before it
    // started does without it (it would only name another argument for the same lines), unless
    // paths met undefined behaviour: then it tells which lines lie past an undefined call.
    let complete = end_of(&summary, explorer.guide()).complete();
    if bug_stop || (!values.started() && complete && out.undefined_paths == 0) {
        values.abandon();
    } else {
        out.join_values(&mut values, explorer.guide_mut());
    }
    // An exhausted search whose paths read what functions without body may have written decides
    // the rest in the model where they write arbitrary values (a lossy cut or a limit would leave
    // paths unexplored that the proof does not make up for).
    if config.generate == Generate::Targeted
        && summary.exhausted
        && !limited
        && summary.lossy_cuts() == 0
        && reads_extern_writes(config, &summary)
        && EXTERN_EFFECTS.contains(summary.approx.without(config.assume))
        && !explorer.guide().nothing_left()
    {
        let budget = (FINAL_PROOF_FACTOR * explorer.edges_executed()).clamp(FINAL_PROOF_MIN_EDGES, PROOF_EDGES);
        let t_proof = std::time::Instant::now();
        let proof = prove_not_coverable(analysis, prog, config, explorer.guide(), true, budget);
        proof_seconds += t_proof.elapsed().as_secs_f64();
        if let Some(proof) = proof {
            out.add_proof(explorer.guide_mut(), proof);
            progress.note(&out, over.saturating_sub(explorer.guide().n_open()));
        }
        summary = explorer.summary();
    }
    out.stats = Some(explorer.stats());
    out.times.proof = proof_seconds;
    out.times.search = t_search.elapsed().as_secs_f64() - proof_seconds;
    out.tally = std::mem::take(&mut explorer.guide_mut().tally);
    let unaccepted = summary.approx.without(config.assume);
    out.assumed = summary.approx.without(unaccepted);
    out.end = end_of(&summary, explorer.guide());
    out.property = if !out.bugs.is_empty() {
        if out.bug_in_region {
            PropertyStatus::FoundInRegion
        } else {
            PropertyStatus::FoundOutsideRegion
        }
    } else if !violations_in_region {
        PropertyStatus::NoneInRegion { by: NoViolationBy::NoErrorLocation, assumed: Approx::NONE }
    } else if let Some(assumed) = out.no_violation_proof {
        PropertyStatus::NoneInRegion { by: NoViolationBy::Abstraction, assumed }
    } else {
        // Every path toward a violation inside the region was explored, unless one of these.
        let why = if let Some(stop) = summary.stop {
            Some(InexactReason::Stopped(stop))
        } else if let Some(edges) = out.violations_given_up {
            Some(InexactReason::ViolationsGivenUp(edges))
        } else if limited {
            Some(InexactReason::MaxExecutions(limit))
        } else if summary.lossy_cuts() > 0 {
            Some(InexactReason::Cut {
                count: summary.lossy_cuts(),
                first: summary.first_other_cut.clone(),
                line: first_cut_line,
            })
        } else if !unaccepted.is_empty() {
            Some(InexactReason::Approximated(unaccepted))
        } else if let Some(r) = violation_rejected {
            Some(InexactReason::Rejected(r))
        } else if out.assumed_violations > 0 {
            Some(InexactReason::AssumedViolation(out.assumed_violations))
        } else if !summary.exhausted {
            Some(InexactReason::EndedEarly)
        } else {
            None
        };
        match why {
            Some(why) => PropertyStatus::NotDecided(why),
            None => PropertyStatus::NoneInRegion { by: NoViolationBy::ExhaustiveSearch, assumed: out.assumed },
        }
    };
    if !config.free_memory {
        // The process ends soon: freeing millions of shared states would only delay the report.
        std::mem::forget(explorer);
    }
    out
}

/// The executions of `found` from `*published` on that the search found itself, for the exchange.
fn own_since(found: &[FoundExecution], published: &mut usize) -> Vec<Shared> {
    let mine = found[*published..]
        .iter()
        .filter(|f| f.found_for.is_none())
        .map(|f| (f.edges.clone(), f.inputs.clone()))
        .collect();
    *published = found.len();
    mine
}

/// What the over-approximating exploration with `ExploreConfig::havoc_extern_writes` models: what
/// functions without body and library functions vcov does not model write and return.
const EXTERN_EFFECTS: Approx = Approx::EXTERN_WRITE.union(Approx::UNMODELLED);

/// Whether a proof should take the writes of functions without body as arbitrary: the search so far
/// read what they may have written, and the user did not accept that they write nothing.
fn reads_extern_writes(config: &SearchConfig, summary: &symex::Summary) -> bool {
    let unaccepted = summary.approx.without(config.assume);
    unaccepted.contains(Approx::EXTERN_WRITE) || unaccepted.contains(Approx::UNMODELLED)
}

/// What the proof pass showed: the lines, whether no violation happens inside the region, and the
/// over-approximation it explored.
struct Proof {
    lines: Vec<u32>,
    vars: Vec<VarId>,
    extern_writes: bool,
    assumed: Approx,
    no_violation: bool,
}

impl SearchOutcome {
    /// Records `proof` (adding to an earlier one) and settles its lines in `guide`.
    fn add_proof(&mut self, guide: &mut CoverageGuide, proof: Proof) {
        guide.mark_proven(&proof.lines);
        if proof.no_violation && guide.violations_open {
            guide.violations_open = false;
            self.no_violation_proof = Some(proof.assumed);
        }
        self.proven.extend(proof.lines);
        self.proven.sort_unstable();
        self.proven.dedup();
        for v in proof.vars {
            if !self.abstracted.contains(&v) {
                self.abstracted.push(v);
            }
        }
        self.proof_extern_writes |= proof.extern_writes;
        self.proof_assumed = self.proof_assumed.union(proof.assumed);
    }
}

/// The proof pass: explores an over-approximation of the program, with its counters
/// (`symex::counters`) abstracted away and, if `extern_writes`, functions without body writing
/// arbitrary values through the pointers they receive, as a targeted search for the lines `concrete`
/// has not covered (and the violations it looks for). If it ends without a cut, a limit or an
/// approximation other than the abstraction and the accepted assumptions, the lines no terminating
/// path of the abstraction covered are not coverable, and if no path of it violated the property,
/// no execution inside the region does; returns them with what was abstracted and the assumptions
/// the proof relied on. (Paths ending at undefined behaviour are not terminating executions: they
/// do not stand in the proof's way.)
fn prove_not_coverable(
    analysis: &Analysis,
    prog: &Program,
    config: &SearchConfig,
    concrete: &CoverageGuide,
    extern_writes: bool,
    max_edges: u64,
) -> Option<Proof> {
    let havoc = symex::counters(prog, analysis.cfa);
    if havoc.is_empty() && !extern_writes {
        return None;
    }
    let explore =
        ExploreConfig { havoc: havoc.clone().into(), havoc_extern_writes: extern_writes, ..config.explore.clone() };
    // What the exploration over-approximates rather than assumes.
    let modelled = if extern_writes { Approx::UNMODELLED } else { Approx::NONE };
    let mut explorer = symex::explore(prog, analysis.cfa, explore, concrete.clone());
    let looks_for_violations = concrete.violations_open;
    while let Some(outcome) = explorer.next() {
        if explorer.edges_executed() > max_edges {
            return None;
        }
        if outcome.end == PathEnd::Violation {
            // The abstraction cannot show that no violation happens: it stops looking for them.
            explorer.guide_mut().violations_open = false;
        }
        if outcome.end == PathEnd::Exit {
            explorer.accept_completion(&outcome);
            let edges = outcome.path.edges();
            let coverage = analysis.coverage_of(&Execution { origin: String::new(), edges, terminating: true });
            explorer.guide_mut().mark_covered(&coverage.lines);
        }
        if explorer.guide().nothing_left() {
            return None;
        }
    }
    let summary = explorer.summary();
    let sound = summary.exhausted
        && summary.lossy_cuts() == 0
        && summary.stop.is_none()
        && Approx::ABSTRACT.union(config.assume).union(modelled).contains(summary.approx);
    if !sound {
        return None;
    }
    let g = explorer.guide();
    let lines: Vec<u32> = g.uncovered.ones().map(|l| l as u32).collect();
    let no_violation = looks_for_violations && g.violations_open;
    let assumed = summary.approx.without(Approx::ABSTRACT).without(modelled);
    (!lines.is_empty() || no_violation).then_some(Proof { lines, vars: havoc, extern_writes, assumed, no_violation })
}

/// The lines of `edges`, in order, without immediate repetitions: the trace of a path for reports.
fn trace_lines(cfa: &Cfa, edges: &[EdgeId]) -> Vec<u32> {
    let mut lines: Vec<u32> = Vec::new();
    for &e in edges {
        if let Some((first, _)) = cfa.edge(e).lines {
            if lines.last() != Some(&first) {
                lines.push(first);
            }
        }
    }
    lines
}

/// Where a path is with respect to the automaton.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Pos {
    /// Blind search: the automaton is not followed.
    Untracked,
    /// In this state (not `__FALSE`).
    At(StateId),
    /// The path left the explored region; nothing more counts.
    Left,
}

/// The guide's per-path information.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Tag {
    pos: Pos,
    stack: StackId,
    /// Lines on the path that were uncovered when it took them (re-checked as coverage grows).
    fresh: Vec<u32>,
    /// Distinguishes paths with fresh lines, so the state cache prunes one only where no execution
    /// can complete it (0 when `fresh` is empty; see `Guide::exclusive`).
    unique: u64,
}

/// The coverage layer's guide of the executor.
#[derive(Clone)]
pub struct CoverageGuide<'a> {
    a: &'a Analysis<'a>,
    generate: Generate,
    stacks: Stacks,
    index: std::collections::HashMap<ProductNode, u32>,
    uncovered: FixedBitSet,
    n_uncovered: usize,
    /// For every product node, the lines it can still cover (edges whose target is not `__FALSE`).
    node_lines: Vec<FixedBitSet>,
    /// For every CFA node, the lines of edges reachable from it (any call stack): the `__TRUE` region.
    cfa_lines: Option<Vec<FixedBitSet>>,
    /// The violations inside the explored region (`Violations`).
    violations: Violations,
    /// Whether the search still looks for violations: the region has a way to one and none was
    /// found yet (or the search goes on after bugs).
    violations_open: bool,
    next_unique: u64,
    /// What the search saw of each edge, to explain the lines it leaves undecided.
    tally: Tally,
}

/// Where a path may violate the property inside the explored region: the targets a search looks for
/// besides lines (`symex::World::violating_edges`).
#[derive(Clone)]
struct Violations {
    /// For every CFA edge, whether a path may end at a violation on it.
    edges: Vec<bool>,
    /// For every product node, whether a path from it can take such an edge into a node outside
    /// `__FALSE` (the `__TRUE` leaves: whether the CFA leads from them to one).
    from_node: FixedBitSet,
    /// For every CFA node, whether a CFA path (any call stack) leads from it to such an edge.
    from_cfa: FixedBitSet,
    /// Whether the initial product node is one of `from_node`: the region holds a violation's place.
    in_region: bool,
}

impl<'a> CoverageGuide<'a> {
    /// Records how a path ended on its last edge: infeasible there, or cut.
    fn tally_end(&mut self, outcome: &symex::PathOutcome<Tag>) {
        let Some(last) = outcome.path.last() else { return };
        match (&outcome.end, outcome.tag.pos) {
            (PathEnd::Infeasible, Pos::At(q)) => self.tally.refused(q, last),
            (PathEnd::Cut(r), _) => self.tally.cut(last, matches!(r, CutReason::Undefined(_))),
            _ => {}
        }
    }

    fn new(a: &'a Analysis<'a>, prog: &Program, generate: Generate, property: symex::Property) -> Self {
        let width = a.reach.over_lines.last().map_or(1, |&l| l as usize + 1);
        let mut uncovered = FixedBitSet::with_capacity(width);
        for &l in &a.reach.over_lines {
            uncovered.insert(l as usize);
        }
        let index = a.product.nodes.iter().enumerate().map(|(i, n)| (*n, i as u32)).collect();
        let (node_lines, cfa_lines) = if generate == Generate::Targeted {
            let cfa_lines = cfa_line_reach(a, width);
            (product_line_reach(a, width, cfa_lines.as_deref()), cfa_lines)
        } else {
            (Vec::new(), None)
        };
        let violations = Violations::new(a, symex::World::new(prog, a.cfa, property).violating_edges());
        CoverageGuide {
            a,
            generate,
            stacks: a.product.stacks.clone(),
            index,
            n_uncovered: uncovered.count_ones(..),
            uncovered,
            node_lines,
            cfa_lines,
            violations_open: violations.in_region,
            violations,
            next_unique: 1,
            tally: Tally::default(),
        }
    }

    fn is_uncovered(&self, line: u32) -> bool {
        (line as usize) < self.uncovered.len() && self.uncovered.contains(line as usize)
    }

    /// Removes lines decided without an execution (proven not coverable) from the targets.
    fn mark_proven(&mut self, lines: &[u32]) {
        self.mark_covered(lines);
    }

    fn mark_covered(&mut self, lines: &[u32]) {
        for &l in lines {
            if self.is_uncovered(l) {
                self.uncovered.set(l as usize, false);
                self.n_uncovered -= 1;
            }
        }
    }

    /// Lines of the over-approximation neither covered nor decided yet.
    pub fn n_open(&self) -> usize {
        self.n_uncovered
    }

    /// Whether nothing is left to look for: every line is decided, and violations are not searched
    /// for (none can happen inside the region, or one was found).
    fn nothing_left(&self) -> bool {
        self.n_uncovered == 0 && !self.violations_open
    }

    fn is_true(&self, q: StateId) -> bool {
        Some(q) == self.a.product.true_state
    }

    /// Whether a path at CFA node `n` with `tag` can still reach an uncovered line.
    fn ahead(&self, tag: &Tag, n: NodeId) -> bool {
        match tag.pos {
            Pos::Untracked => true,
            Pos::Left => false,
            Pos::At(q) if self.is_true(q) => match &self.cfa_lines {
                Some(lines) => !lines[n.idx()].is_disjoint(&self.uncovered),
                None => true,
            },
            Pos::At(q) => match self.index.get(&ProductNode { aut: q, cfa: n, stack: tag.stack }) {
                Some(&i) => !self.node_lines[i as usize].is_disjoint(&self.uncovered),
                // Not in the product (it cannot happen for a path the product follows); keep going.
                None => true,
            },
        }
    }

    /// Whether a path at CFA node `n` with `tag` can still reach a place of a violation the search
    /// looks for.
    fn violation_ahead(&self, tag: &Tag, n: NodeId) -> bool {
        if !self.violations_open {
            return false;
        }
        match tag.pos {
            Pos::Untracked => true,
            Pos::Left => false,
            Pos::At(q) if self.is_true(q) => self.violations.from_cfa.contains(n.idx()),
            Pos::At(q) => match self.index.get(&ProductNode { aut: q, cfa: n, stack: tag.stack }) {
                Some(&i) => self.violations.from_node.contains(i as usize),
                None => true,
            },
        }
    }

    fn score(&self, tag: &Tag) -> u32 {
        match tag.pos {
            Pos::At(q) if self.is_true(q) => u32::MAX,
            Pos::At(q) => self.a.reach.state_score[q.idx()],
            _ => 0,
        }
    }
}

impl Guide for CoverageGuide<'_> {
    type Tag = Tag;

    fn initial_tag(&mut self) -> Tag {
        let pos = if self.generate == Generate::Blind { Pos::Untracked } else { Pos::At(self.a.aut.initial) };
        let pos = match pos {
            Pos::At(q) if Some(q) == self.a.product.false_state => Pos::Left,
            p => p,
        };
        Tag { pos, stack: Stacks::EMPTY, fresh: Vec::new(), unique: 0 }
    }

    fn on_edge(&mut self, cfa: &Cfa, tag: &mut Tag, edge: EdgeId) -> Step {
        let e = cfa.edge(edge);
        // The automaton's step; the edge counts if the automaton does not enter `__FALSE` on it.
        let mut counts = false;
        if let Pos::At(q) = tag.pos {
            if self.is_true(q) {
                counts = true;
            } else {
                let siblings = takeable_edges(cfa, &self.stacks, tag.stack, e.src);
                tag.pos = match step(self.a.aut, self.a.matcher(), q, &siblings, edge) {
                    AutStep::To(next) if Some(next) == self.a.product.false_state => Pos::Left,
                    AutStep::To(next) => {
                        counts = true;
                        Pos::At(next)
                    }
                    AutStep::Blocked | AutStep::Error => Pos::Left,
                };
            }
        }
        tag.stack = stack_after(cfa, &mut self.stacks, tag.stack, edge);
        if let Pos::At(q) = tag.pos {
            self.tally.tried(q, edge);
        }
        if self.generate != Generate::Targeted {
            return Step::Continue;
        }
        // Fresh lines: those of this edge, and those of the prefix still uncovered.
        tag.fresh.retain(|&l| self.uncovered.contains(l as usize));
        if counts {
            if let Some((a, b)) = cfa.counted_lines(edge, self.a.line_rule) {
                for l in a..=b {
                    if self.is_uncovered(l) && !tag.fresh.contains(&l) {
                        tag.fresh.push(l);
                    }
                }
            }
        }
        if tag.fresh.is_empty() {
            tag.unique = 0;
        } else if tag.unique == 0 {
            tag.unique = self.next_unique;
            self.next_unique += 1;
        }
        // A violation the search looks for: on this very edge, or ahead.
        let violation =
            self.violations_open && ((counts && self.violations.edges[edge.idx()]) || self.violation_ahead(tag, e.dst));
        match (tag.fresh.is_empty(), violation || self.ahead(tag, e.dst)) {
            (_, true) => Step::Continue,
            (false, false) => Step::CompletionOnly,
            (true, false) => Step::Prune,
        }
    }

    fn on_passed(&mut self, tag: &Tag, edge: EdgeId) {
        if let Pos::At(q) = tag.pos {
            self.tally.passed(q, edge);
        }
    }

    fn order(&mut self, cfa: &Cfa, _node: NodeId, succs: &mut [Succ<Tag>]) {
        // Lower postorder first (toward the exit), then the higher Reach score.
        succs.sort_by_key(|s| (cfa.node(cfa.edge(s.edge).dst).postorder, std::cmp::Reverse(self.score(&s.tag))));
    }

    fn wants_inputs(&mut self, end: &PathEnd, _tag: &Tag) -> bool {
        matches!(end, PathEnd::Exit | PathEnd::Violation)
    }

    fn completes(&self, end: &PathEnd) -> bool {
        // Only a return from `main` is a terminating execution.
        matches!(end, PathEnd::Exit)
    }

    fn cache_tag(&self, tag: &Tag) -> u64 {
        // What guides the future of a path: where it is in the automaton and the call stack.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(&(tag.pos, tag.stack), &mut h);
        std::hash::Hasher::finish(&h)
    }

    fn completion_worth(&self, tag: &Tag) -> u32 {
        tag.fresh.len() as u32
    }

    fn exclusive(&self, tag: &Tag) -> bool {
        // Its fresh lines are covered only by a completion of this very path.
        tag.unique != 0
    }
}

impl Violations {
    /// The places of violations in the region of `a`, with `edges` the CFA edges a path may end at a
    /// violation on.
    fn new(a: &Analysis, edges: Vec<bool>) -> Self {
        let cfa = a.cfa;
        // CFA nodes with a CFA path to a violating edge: backwards over every edge but summaries
        // (calls and returns of all call sites alike, as `cfa_line_reach`).
        let mut from_cfa = FixedBitSet::with_capacity(cfa.n_nodes());
        let mut stack: Vec<NodeId> = Vec::new();
        for (id, e) in cfa.edges() {
            if edges[id.idx()] && !from_cfa.put(e.src.idx()) {
                stack.push(e.src);
            }
        }
        while let Some(n) = stack.pop() {
            for &e in cfa.in_edges(n) {
                let edge = cfa.edge(e);
                if !matches!(edge.kind, EdgeKind::Summary(_)) && !from_cfa.put(edge.src.idx()) {
                    stack.push(edge.src);
                }
            }
        }
        // Product nodes with a way to a violating edge that counts (into a node outside `__FALSE`).
        let p = &a.product;
        let is_false = |i: usize| Some(p.nodes[i].aut) == p.false_state;
        let is_true = |i: usize| Some(p.nodes[i].aut) == p.true_state;
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); p.nodes.len()];
        let mut from_node = FixedBitSet::with_capacity(p.nodes.len());
        let mut work: Vec<usize> = Vec::new();
        for (i, succ) in p.succ.iter().enumerate() {
            if is_false(i) {
                continue;
            }
            if is_true(i) && from_cfa.contains(p.nodes[i].cfa.idx()) && !from_node.put(i) {
                work.push(i);
            }
            for e in succ {
                if is_false(e.to.idx()) {
                    continue;
                }
                preds[e.to.idx()].push(i as u32);
                if edges[e.edge.idx()] && !from_node.put(i) {
                    work.push(i);
                }
            }
        }
        while let Some(i) = work.pop() {
            for &j in &preds[i] {
                if !from_node.put(j as usize) {
                    work.push(j as usize);
                }
            }
        }
        // `nodes[0]` is the initial node.
        let in_region = !p.nodes.is_empty() && from_node.contains(0);
        Violations { edges, from_node, from_cfa, in_region }
    }
}

/// For every product node, the lines an execution can still cover from it: lines of edges taken from
/// nodes reachable from it (outside `__FALSE`) into a node outside `__FALSE`; the `__TRUE` leaves
/// contribute the lines reachable in the CFA.
fn product_line_reach(a: &Analysis, width: usize, cfa_lines: Option<&[FixedBitSet]>) -> Vec<FixedBitSet> {
    let p = &a.product;
    let is_false = |i: usize| Some(p.nodes[i].aut) == p.false_state;
    let is_true = |i: usize| Some(p.nodes[i].aut) == p.true_state;
    let mut g = DiGraph::<(), ()>::with_capacity(p.nodes.len(), p.nodes.len());
    for _ in &p.nodes {
        g.add_node(());
    }
    for (i, succ) in p.succ.iter().enumerate() {
        for e in succ {
            g.add_edge((i as u32).into(), e.to.0.into(), ());
        }
    }
    let full = {
        let mut f = FixedBitSet::with_capacity(width);
        f.insert_range(..);
        f
    };
    let mut own = vec![FixedBitSet::with_capacity(width); p.nodes.len()];
    for (i, set) in own.iter_mut().enumerate() {
        if is_true(i) {
            match cfa_lines {
                Some(l) => set.union_with(&l[p.nodes[i].cfa.idx()]),
                None => set.union_with(&full),
            }
            continue;
        }
        for e in &p.succ[i] {
            if is_false(e.to.idx()) {
                continue;
            }
            if let Some((lo, hi)) = a.cfa.counted_lines(e.edge, a.line_rule) {
                for l in lo..=hi {
                    if (l as usize) < width {
                        set.insert(l as usize);
                    }
                }
            }
        }
    }
    dag_union(&g, own)
}

/// For every CFA node, the lines of the edges reachable from it on any path (returns to every call
/// site), or `None` when the bitsets would take more than 256 MiB.
fn cfa_line_reach(a: &Analysis, width: usize) -> Option<Vec<FixedBitSet>> {
    let cfa = a.cfa;
    if cfa.n_nodes().saturating_mul(width) > 1 << 31 {
        return None;
    }
    let mut g = DiGraph::<(), ()>::with_capacity(cfa.n_nodes(), cfa.n_edges());
    for _ in 0..cfa.n_nodes() {
        g.add_node(());
    }
    let mut own = vec![FixedBitSet::with_capacity(width); cfa.n_nodes()];
    for (id, e) in cfa.edges() {
        if matches!(e.kind, EdgeKind::Summary(_)) {
            continue;
        }
        g.add_edge(e.src.0.into(), e.dst.0.into(), ());
        if let Some((lo, hi)) = cfa.counted_lines(id, a.line_rule) {
            for l in lo..=hi {
                if (l as usize) < width {
                    own[e.src.idx()].insert(l as usize);
                }
            }
        }
    }
    Some(dag_union(&g, own))
}

/// For every vertex, the union of `own` over the vertices reachable from it.
fn dag_union(g: &DiGraph<(), ()>, own: Vec<FixedBitSet>) -> Vec<FixedBitSet> {
    let width = own.first().map_or(0, FixedBitSet::len);
    let needed = vec![true; g.node_count()];
    let mut sets = solve_dag(g, width, |v, set| set.union_with(&own[v]), &needed);
    (0..g.node_count()).map(|v| sets.remove(&v).expect("every vertex was needed")).collect()
}
