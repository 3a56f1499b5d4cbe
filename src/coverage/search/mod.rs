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

mod guide;
mod proof;
mod run;
mod values;

pub use guide::{CoverageGuide, Tag};
use values::*;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use fixedbitset::FixedBitSet;
use petgraph::graph::DiGraph;

use super::exchange::{Participant, Shared};
use super::result::MemoryFact;
pub use super::result::{Generate, Refusal, StoppedBy};
use super::result::{PropertyStatus, SearchEnd, TimelinePoint, UndefinedAt};
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

/// The refusal `r` of the concrete interpreter, grouped for the report.
fn refusal_of(cfa: &Cfa, r: &symex::Rejected) -> Refusal {
    match (&r.why, r.at) {
        (symex::Rejection::NoModel, _) => Refusal::NoModel,
        (symex::Rejection::Diverged(symex::ConcreteEnd::Diverged), Some(e)) => {
            Refusal::LeftPath { line: cfa.edge(e).lines.map_or(0, |(l, _)| l), edge: cfa.edge(e).text.to_string() }
        }
        (symex::Rejection::Diverged(end), _) => Refusal::Ended(format!("{end:?}")),
        (symex::Rejection::Approximated(a), _) => Refusal::Ended(a.describe().join("; ")),
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
        run::Run::new(run::Given { analysis, prog, config, progress }, share, values).search()
    })
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
