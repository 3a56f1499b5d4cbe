//! The plain result of a coverage run, handed to the report writers.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use crate::product::MatchStats;
use crate::symex::{Approx, CutReason, Rejected, StopReason};

/// A function of the program, for function coverage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionInfo {
    /// Name.
    pub name: String,
    /// First line of the definition.
    pub first_line: u32,
    /// Last line of the definition.
    pub last_line: u32,
}

/// What is known about a line to cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LineStatus {
    /// Covered; the number of the first execution that covers it.
    Covered(usize),
    /// In the over-approximation, not covered, and not decided (the search was limited or did not run).
    OverOnly,
    /// In the over-approximation and proven not coverable (the search was exhaustive, or an
    /// abstraction of the program has no terminating path covering it).
    NotCoverable,
    /// Outside the over-approximation: the verifier never explored it.
    Unexplored,
    /// In the over-approximation, not covered, and the search could not decide it (paths were cut).
    Unknown,
}

impl LineStatus {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            LineStatus::Covered(_) => "covered",
            LineStatus::OverOnly => "over_only",
            LineStatus::NotCoverable => "not_coverable",
            LineStatus::Unexplored => "unexplored",
            LineStatus::Unknown => "unknown",
        }
    }
}

/// A place where undefined behaviour can happen on a path the search explored. The execution ends
/// there (it is not a terminating execution); for people auditing the program it is a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndefinedAt {
    /// What can happen (`invalid memory access`, `division by zero`, ...).
    pub kind: &'static str,
    /// The line where it can happen.
    pub line: u32,
    /// The lines of the path that leads there, in order (immediate repetitions removed).
    pub trace: Vec<u32>,
}

/// How the search ended, for the status of lines it did not cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SearchState {
    /// Executions came from files.
    NotSearched,
    /// Every candidate was explored: uncovered lines are not coverable.
    Complete,
    /// A limit stopped it.
    Limited,
    /// Paths were cut or executions rejected.
    Incomplete,
}

/// The status of every line to cover: `covered` (by the first execution that covers it) for the
/// under-approximation, `unexplored` outside the over-approximation, `not_coverable` for lines
/// `proven` not coverable or left uncovered by a complete search, and otherwise `unknown` after an
/// incomplete search or `over_only` when no search decided it (files, a limit).
///
/// `lines`, `over`, `under` and `proven` are ascending; every line of `under` is a line of some
/// execution.
pub fn line_status(
    lines: &[u32],
    over: &[u32],
    under: &[u32],
    proven: &[u32],
    executions: &[ExecutionRecord],
    state: SearchState,
) -> BTreeMap<u32, LineStatus> {
    let mut first_cover: BTreeMap<u32, usize> = BTreeMap::new();
    for e in executions {
        for &l in &e.lines {
            first_cover.entry(l).or_insert(e.id);
        }
    }
    lines
        .iter()
        .map(|&l| {
            let status = if under.binary_search(&l).is_ok() {
                LineStatus::Covered(first_cover[&l])
            } else if over.binary_search(&l).is_err() {
                LineStatus::Unexplored
            } else if proven.binary_search(&l).is_ok() {
                LineStatus::NotCoverable
            } else {
                match state {
                    SearchState::Complete => LineStatus::NotCoverable,
                    SearchState::Incomplete => LineStatus::Unknown,
                    SearchState::NotSearched | SearchState::Limited => LineStatus::OverOnly,
                }
            };
            (l, status)
        })
        .collect()
}

/// Why a coverage result is not exact: the first obstacle the search met, or what happened to its
/// executions afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InexactReason {
    /// Paths were cut other than at undefined behaviour (an unwinding bound, an unsupported
    /// construct): `count`, the first one's reason and line.
    Cut {
        /// How many.
        count: u64,
        /// The first one's reason.
        first: Option<CutReason>,
        /// The first one's line.
        line: Option<u32>,
    },
    /// Paths made approximations the user did not accept (`--assume`).
    Approximated(Approx),
    /// An execution or a violation was not confirmed by the concrete interpreter.
    Rejected(Rejected),
    /// `blind` or `guided` pruned this many paths as covered by explored states.
    PrunedAsCovered(u64),
    /// A limit, a signal or the solver stopped the search.
    Stopped(StopReason),
    /// `--max-executions` stopped it at this many executions.
    MaxExecutions(usize),
    /// It stopped at the first bug.
    StoppedAtBug,
    /// It ended before exhausting the program (a guided search that ran out of candidates).
    EndedEarly,
    /// The executions came from files (`--executions-from`).
    FromFiles,
    /// This many executions read bytes of `malloc`'d memory never written, which the replay harness
    /// cannot reproduce.
    Unreproducible(usize),
    /// This many executions did not replay under gcc (`--confirm`).
    RejectedByGcc(usize),
    /// This many paths violate the property relying on the accepted assumptions (`--assume`): not
    /// shown to be bugs of the program, nor shown not to be.
    AssumedViolation(u64),
    /// Every line was decided, and the search gave up looking for violations after this many more
    /// edges.
    ViolationsGivenUp(u64),
    /// This many executions were not replayed under gcc before the time limit (`--confirm`) and do
    /// not count.
    ConfirmationPending(usize),
}

impl fmt::Display for InexactReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InexactReason::Cut { count, first, line } => {
                write!(f, "{count} path(s) cut; first")?;
                if let Some(l) = line {
                    write!(f, " at line {l}")?;
                }
                f.write_str(": ")?;
                first.as_ref().map_or(Ok(()), |c| write!(f, "{c}"))
            }
            InexactReason::Approximated(a) => f.write_str(&a.describe().join("; ")),
            InexactReason::Rejected(r) => write!(f, "{r}"),
            InexactReason::PrunedAsCovered(hits) => write!(
                f,
                "{hits} path(s) were pruned as covered by explored states, so not every execution was \
                 enumerated (--generate targeted proves lines not coverable)"
            ),
            InexactReason::Stopped(stop) => write!(f, "the search was stopped before it ended ({})", stop.describe()),
            InexactReason::MaxExecutions(n) => write!(f, "the search stopped at {n} execution(s) (--max-executions)"),
            InexactReason::StoppedAtBug => {
                f.write_str("the search stopped at the first bug (--continue-after-bug goes on)")
            }
            InexactReason::EndedEarly => f.write_str("the search ended before exhausting the program"),
            InexactReason::FromFiles => f.write_str("the executions come from files; no search was made"),
            InexactReason::Unreproducible(n) => write!(
                f,
                "{n} execution(s) read bytes of malloc'd memory never written, which vcov replay cannot \
                 reproduce; they do not count"
            ),
            InexactReason::RejectedByGcc(n) => {
                write!(f, "{n} execution(s) did not replay under gcc (--confirm) and do not count")
            }
            InexactReason::AssumedViolation(n) => {
                write!(f, "{n} path(s) violate the property relying on the accepted assumptions")
            }
            InexactReason::ConfirmationPending(n) => write!(
                f,
                "{n} execution(s) were not replayed under gcc before the time limit (--confirm) and do not count"
            ),
            InexactReason::ViolationsGivenUp(n) => write!(
                f,
                "every line was decided; the search for violations went on for {n} more edge(s), as many as \
                 deciding the lines took (at least 100,000), and was given up"
            ),
        }
    }
}

/// What a run says about the property (`--spec`, `--prop`, or the default error calls and labels)
/// inside the explored region. `exact` is a statement about lines; this one is about violations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyStatus {
    /// An execution that stays inside the explored region violates the property (the bug's
    /// witness and test show it).
    FoundInRegion,
    /// An execution violates the property after it left the explored region: a bug of the program
    /// that the verifier's run never reached; it says nothing about the region.
    FoundOutsideRegion,
    /// No execution inside the explored region violates the property: a partial verification
    /// result, shown `by`, relying on the accepted assumptions `assumed`.
    NoneInRegion {
        /// How it was shown.
        by: NoViolationBy,
        /// The accepted assumptions (`--assume`) it relies on.
        assumed: Approx,
    },
    /// Not decided, and why.
    NotDecided(InexactReason),
}

/// How a run showed that no violation happens inside the explored region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoViolationBy {
    /// No path of automaton x CFA reaches a place where the property can be violated.
    NoErrorLocation,
    /// The search explored every path inside the region that leads toward such a place.
    ExhaustiveSearch,
    /// An over-approximation of the program (counters abstracted away, functions without body
    /// writing arbitrary values) was explored in full without a violation.
    Abstraction,
}

impl Default for PropertyStatus {
    /// Before anything is known.
    fn default() -> Self {
        PropertyStatus::NotDecided(InexactReason::EndedEarly)
    }
}

impl PropertyStatus {
    /// The name in reports.
    pub fn name(&self) -> &'static str {
        match self {
            PropertyStatus::FoundInRegion => "found_in_region",
            PropertyStatus::FoundOutsideRegion => "found_outside_region",
            PropertyStatus::NoneInRegion { .. } => "none_in_region",
            PropertyStatus::NotDecided(_) => "not_decided",
        }
    }

    /// Whether a violation was found (in the region or outside it).
    pub fn bug_found(&self) -> bool {
        matches!(self, PropertyStatus::FoundInRegion | PropertyStatus::FoundOutsideRegion)
    }
}

impl NoViolationBy {
    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            NoViolationBy::NoErrorLocation => "no_error_location",
            NoViolationBy::ExhaustiveSearch => "exhaustive_search",
            NoViolationBy::Abstraction => "abstraction",
        }
    }
}

impl fmt::Display for PropertyStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PropertyStatus::FoundInRegion => f.write_str("violated inside the explored region"),
            PropertyStatus::FoundOutsideRegion => f.write_str(
                "violated outside the explored region (a bug the verifier's run never reached; nothing is said \
                 about the region)",
            ),
            PropertyStatus::NoneInRegion { by, assumed } => {
                f.write_str("no violation inside the explored region (")?;
                f.write_str(match by {
                    NoViolationBy::NoErrorLocation => "no path of automaton x CFA reaches an error location",
                    NoViolationBy::ExhaustiveSearch => "every path there toward an error location was explored",
                    NoViolationBy::Abstraction => "an over-approximation of the program was explored in full",
                })?;
                let names: Vec<&str> = assumed.assumptions().iter().map(|a| a.0).collect();
                if !names.is_empty() {
                    write!(f, ", assuming {}", names.join(", "))?;
                }
                f.write_str(")")
            }
            PropertyStatus::NotDecided(why) => write!(f, "not decided inside the explored region: {why}"),
        }
    }
}

/// The search's progress when it kept an execution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimelinePoint {
    /// Seconds since the search started (0 with `--reproducible`).
    pub seconds: f64,
    /// Executions kept so far.
    pub executions: usize,
    /// Lines they cover together.
    pub lines: usize,
}

/// One branching point (a node with two or more assume edges) and which of its arms are taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchInfo {
    /// Line of the condition.
    pub line: u32,
    /// For every arm, in CFA order: taken in the over-approximation, taken by a covering execution.
    pub arms: Vec<(bool, bool)>,
}

/// One nondeterministic value an execution consumed: a call of `__VERIFIER_nondet_*` or of a
/// function without a body, in call order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputValue {
    /// The function whose call produced the value.
    pub function: String,
    /// The C type of the value, as written in the program (`int`, `unsigned long`, `char *`).
    pub c_type: String,
    /// The value (two's complement for signed types; pointers as integers).
    pub value: i128,
}

/// One execution and what it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecutionRecord {
    /// 1-based number in the report.
    pub id: usize,
    /// Where it came from (file name or `generated`).
    pub origin: String,
    /// Lines it covers (empty if it does not terminate).
    pub lines: Vec<u32>,
    /// Whether it ends at `main`'s exit.
    pub terminating: bool,
    /// Whether it violates the property.
    pub violates_property: bool,
    /// The nondeterministic values it consumed, in order (empty when it came from a file).
    pub inputs: Vec<InputValue>,
    /// Where its inputs of uninitialized memory lie and which fresh memory its pointer inputs chose:
    /// what the replay harness needs to rebuild the memory the execution read.
    pub memory: Vec<MemoryFact>,
}

/// A fact about an execution's memory, for the replay harness (allocation numbers count the objects
/// the execution allocated, from 0, as `symex::replay` does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryFact {
    /// Input `input` (index into the inputs) was read from bytes never written: at `offset` of
    /// allocation `alloc`, one byte, or a pointer when `pointer`.
    At {
        /// Index of the input.
        input: usize,
        /// The allocation read.
        alloc: u32,
        /// The byte offset in it.
        offset: u64,
        /// Whether the input is a pointer (null or fresh memory) rather than a byte.
        pointer: bool,
    },
    /// Pointer input `input` chose fresh memory: allocation `alloc`, pointed to at the executor's
    /// `lazy_offset`.
    Fresh {
        /// Index of the input.
        input: usize,
        /// The allocation of the fresh memory.
        alloc: u32,
    },
    /// Allocation `alloc` is the storage of variable `var` (its index in the program's variables,
    /// named `name`), allocated for the `instance`-th time (from 1).
    Var {
        /// The allocation.
        alloc: u32,
        /// The variable's index.
        var: u32,
        /// The variable's source name.
        name: String,
        /// Which allocation of the variable.
        instance: u32,
    },
}

/// Wall-clock and CPU time of the stages, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Times {
    /// Reading and parsing the program and the automaton.
    pub parse: f64,
    /// Building the CFA.
    pub cfa: f64,
    /// Building the product and the Reach fixpoint (the over-approximation).
    pub compose: f64,
    /// The value analysis of the product (`Analysis::lines_ruled_out`, with its second run for
    /// calls that are undefined behaviour) and the lines without a way out.
    pub values: f64,
    /// The search, without its proof passes.
    pub search: f64,
    /// The proof passes (`--proof-after`, and the one after an exhausted search).
    pub proof: f64,
    /// Replaying the executions under gcc (`--confirm`).
    pub confirm: f64,
    /// Everything, wall clock.
    pub total: f64,
    /// Seconds from the start of the run to the end of the search (its proofs included): when a
    /// limit or a signal stopped it, when it was stopped. The progress line and the summary both
    /// say this figure.
    pub search_end: f64,
    /// Process CPU time at the end of the run.
    pub cpu: f64,
}

/// How the executions a report counts were confirmed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Confirmation {
    /// vcov's concrete interpreter replayed each generated execution along its path (executions from
    /// files are taken as given); `rejected` ones it did not replay (or whose model the solver did
    /// not give) are not counted.
    Interpreter {
        /// Executions and counterexamples the interpreter did not replay, dropped.
        rejected: usize,
    },
    /// In addition, the program compiled by gcc ran each one and gcov saw its claimed lines
    /// (`--confirm`); `rejected` executions did not replay and are not counted, nor are `pending`
    /// ones, which the time limit left unconfirmed.
    Gcc {
        /// Executions gcc confirmed (all the report counts).
        confirmed: usize,
        /// Executions that did not replay under gcc, dropped.
        rejected: usize,
        /// Executions the time limit came before gcc could replay, dropped.
        pending: usize,
    },
}

/// Everything a coverage report shows.
#[derive(Clone, Debug)]
pub struct CoverageResult {
    /// The program file as given.
    pub program: PathBuf,
    /// The automaton file as given.
    pub automaton: PathBuf,
    /// `ILP32` or `LP64`.
    pub data_model: &'static str,
    /// `spanned` or `first-line`.
    pub line_rule: &'static str,
    /// Lines to cover, ascending.
    pub lines_to_cover: Vec<u32>,
    /// Over-approximation, ascending.
    pub over_lines: Vec<u32>,
    /// Under-approximation, ascending.
    pub under_lines: Vec<u32>,
    /// The executions measured.
    pub executions: Vec<ExecutionRecord>,
    /// Automaton states and transitions reached.
    pub matching: MatchStats,
    /// Functions of the program (with a body), by first line.
    pub functions: Vec<FunctionInfo>,
    /// Branching points, by line.
    pub branches: Vec<BranchInfo>,
    /// Whether an execution violating the property was found (inside or outside the region).
    pub bug_found: bool,
    /// What the run says about the property inside the explored region.
    pub property: PropertyStatus,
    /// Whether every line to cover that is not covered was proven not coverable.
    pub exact: bool,
    /// Whether the run was stopped (signal or time limit) before its search ended.
    pub interrupted: bool,
    /// What stopped the search, if a limit or a signal did.
    pub stopped_by: Option<crate::coverage::search::StoppedBy>,
    /// How the executions counted were confirmed.
    pub confirmation: Confirmation,
    /// Why vcov's interpreter refused executions of the executor, most frequent first (`count`,
    /// `why`): ties by why.
    pub refusals: Vec<(usize, String)>,
    /// Why the result is not exact, when it is not: the search's first obstacle (cut paths,
    /// approximations, limits), or that the executions came from files.
    pub inexact_reason: Option<InexactReason>,
    /// The variables the proof pass abstracted away, when it proved lines not coverable.
    pub abstracted: Vec<String>,
    /// Whether the proof pass took what functions without body write as arbitrary.
    pub abstracted_extern_writes: bool,
    /// How many lines the proof pass proved not coverable.
    pub proven_by_abstraction: usize,
    /// How many lines are not coverable because no path leads from them to the end of `main`.
    pub without_exit: usize,
    /// How many lines are not coverable because the value analysis of the product rules out every
    /// way there inside the explored region (and some path leads from them to the end of `main`).
    pub infeasible: usize,
    /// How many of `infeasible` lie only past calls that are undefined behaviour (a call through a
    /// pointer of an incompatible function type).
    pub past_undefined_call: usize,
    /// How many lines are not coverable because only edges into `__FALSE` count for them (and some
    /// path leads from them to the end of `main`).
    pub into_unexplored: usize,
    /// The environment assumptions the result relies on (accepted by the user with `--assume` and
    /// made by the search or the proof): their names and what they state.
    pub assumed: Vec<(&'static str, &'static str)>,
    /// For every line proven not coverable, the argument: `exhaustive search` or `counter
    /// abstraction`, followed by `, assuming ...` when it relies on accepted assumptions.
    pub not_coverable_by: BTreeMap<u32, String>,
    /// Paths the search ended at possible undefined behaviour.
    pub undefined_paths: u64,
    /// Where undefined behaviour can happen (see `UndefinedAt`), by line.
    pub undefined: Vec<UndefinedAt>,
    /// The search's timeline (empty when executions came from files).
    pub timeline: Vec<TimelinePoint>,
    /// Paths that violate the property only relative to the accepted assumptions, and the first.
    pub assumed_violations: (u64, Option<UndefinedAt>),
    /// The row name for tables (`--instance`, default the program's file name).
    pub instance: String,
    /// The status of every line to cover.
    pub line_status: BTreeMap<u32, LineStatus>,
    /// Why the lines the search left undecided are (`coverage::undecided`); `None` without a search
    /// that followed the automaton, or with no line undecided.
    pub undecided: Option<UndecidedLines>,
    /// Where the executions came from: `files`, `blind`, `guided` or `targeted`.
    pub generate: &'static str,
    /// Stage times.
    pub times: Times,
    /// Where the result comes from, for a reviewer (set by the driver, which reads the files).
    pub provenance: Provenance,
}

/// Where a result comes from: the digests of the inputs and of the evidence, what wrote the
/// automaton, and the options that shape the result, so that a reviewer can check the claims again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The version of vcov that measured it.
    pub vcov_version: String,
    /// The SHA-256 of the program file, in hex.
    pub program_sha256: String,
    /// The SHA-256 of the automaton file, in hex.
    pub automaton_sha256: String,
    /// The tool that wrote the automaton (`CPAchecker 4.0`), and where that was read (its header
    /// comment, or the `CPALog.txt` of its folder); `None` when nothing says.
    pub producer: Option<(String, String)>,
    /// The evidence written (`--evidence`): its folder as given, and each file with its SHA-256.
    pub evidence: Option<(PathBuf, Vec<(String, String)>)>,
    /// The command-line options that shape the result, as words (`--generate targeted`, `--32`, ...),
    /// the program and the automaton aside.
    pub options: Vec<String>,
    /// The options `vcov replay` needs for the program (data model, preprocessor).
    pub replay_options: Vec<String>,
}

/// The undecided lines of a result, sorted by why (`coverage::undecided::Undecided`, with names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndecidedLines {
    /// Lines some path got to without any of them returning from `main`, ascending.
    pub reached: Vec<u32>,
    /// Edges no path got past, most lines behind first.
    pub blocked: Vec<BlockedAt>,
    /// The other undecided lines, ascending.
    pub elsewhere: Vec<u32>,
}

impl UndecidedLines {
    /// How many lines it sorts.
    pub fn len(&self) -> usize {
        self.reached.len() + self.elsewhere.len() + self.blocked.iter().map(|b| b.lines.len()).sum::<usize>()
    }

    /// Whether it sorts no line.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where the undecided lines are, in one sentence: the edges with most lines behind them first.
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = self
            .blocked
            .iter()
            .take(BLOCKED_NAMED)
            .map(|b| format!("{} behind {}", b.lines.len(), b.describe_edge()))
            .collect();
        let more = &self.blocked[self.blocked.len().min(BLOCKED_NAMED)..];
        if !more.is_empty() {
            let n: usize = more.iter().map(|b| b.lines.len()).sum();
            parts.push(format!("{n} behind {} other edge(s) no path got past", more.len()));
        }
        if !self.reached.is_empty() {
            parts.push(format!("{} {REACHED}", self.reached.len()));
        }
        if !self.elsewhere.is_empty() {
            parts.push(format!("{} {ELSEWHERE}", self.elsewhere.len()));
        }
        format!("{} line(s) undecided: {}", self.len(), parts.join(", "))
    }

    /// Why each undecided line is undecided (`why` of every line at once: each blocking edge is
    /// described once, not once per line).
    pub fn whys(&self) -> BTreeMap<u32, String> {
        let mut res: BTreeMap<u32, String> = BTreeMap::new();
        for &l in &self.elsewhere {
            res.insert(l, ELSEWHERE.to_string());
        }
        // In the order `why` tries them: a line reached, then behind the first blocking edge
        // holding it.
        for b in self.blocked.iter().rev() {
            let why = format!("behind {}", b.describe_edge());
            for &l in &b.lines {
                res.insert(l, why.clone());
            }
        }
        for &l in &self.reached {
            res.insert(l, REACHED.to_string());
        }
        res
    }

    /// Why `line` is undecided, if it is.
    pub fn why(&self, line: u32) -> Option<String> {
        if self.reached.binary_search(&line).is_ok() {
            return Some(REACHED.to_string());
        }
        if let Some(b) = self.blocked.iter().find(|b| b.lines.binary_search(&line).is_ok()) {
            return Some(format!("behind {}", b.describe_edge()));
        }
        self.elsewhere.binary_search(&line).is_ok().then(|| ELSEWHERE.to_string())
    }
}

/// Blocking edges `UndecidedLines::summary` names; the JSON report has them all.
const BLOCKED_NAMED: usize = 3;
/// Undecided lines some path got to.
const REACHED: &str = "reached by paths none of which returned from main";
/// Undecided lines neither reached nor behind a blocking edge.
const ELSEWHERE: &str = "where no path came near";
/// Characters of an edge's text quoted in summaries.
const EDGE_TEXT_SHOWN: usize = 60;

/// An edge no path got past, and the undecided lines nearest behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedAt {
    /// The edge's first line.
    pub line: u32,
    /// The function it is in.
    pub function: String,
    /// The edge as CPAchecker writes it.
    pub edge: String,
    /// The automaton state a path would be in after it.
    pub state: String,
    /// What stopped the paths there.
    pub obstacle: crate::coverage::undecided::Obstacle,
    /// How often a path tried it.
    pub tried: u64,
    /// How many paths were cut on it.
    pub cut: u64,
    /// The undecided lines behind it, ascending.
    pub lines: Vec<u32>,
}

impl BlockedAt {
    /// The edge, where it is and what stopped the paths there, in words: ``line 10614 in f
    /// (`[!(a != b)]`: tried 10 time(s), infeasible each time)``.
    pub fn describe_edge(&self) -> String {
        // The first line of the edge's text (a block's text spans many), shortened.
        let first = self.edge.lines().next().unwrap_or_default().trim();
        let text = match first.char_indices().nth(EDGE_TEXT_SHOWN) {
            Some((cut, _)) => format!("{}…", &first[..cut]),
            None if first.len() < self.edge.trim().len() => format!("{first} …"),
            None => first.to_string(),
        };
        let obstacle = self.obstacle.describe(self.tried, self.cut);
        // An edge without a line (the start of a function) is named by its function alone, so that
        // every `line N` a report shows is a line of the program.
        let place = match self.line {
            0 => format!("the start of {}", self.function),
            line => format!("line {line} in {}", self.function),
        };
        if text.is_empty() {
            format!("{place} ({obstacle})")
        } else {
            format!("{place} (`{text}`: {obstacle})")
        }
    }
}

/// How the proof pass names its abstraction of what functions without body write.
pub const EXTERN_WRITES_ABSTRACTED: &str = "what functions without body write";

impl CoverageResult {
    /// What the proof pass abstracted away, for messages: the variables, and what functions without
    /// body write (`None` if it proved nothing).
    pub fn abstraction(&self) -> Option<String> {
        let mut what = self.abstracted.clone();
        if self.abstracted_extern_writes {
            what.push(EXTERN_WRITES_ABSTRACTED.to_string());
        }
        (self.proven_by_abstraction > 0 && !what.is_empty()).then(|| what.join(", "))
    }

    /// Number of terminating executions.
    pub fn n_terminating(&self) -> usize {
        self.executions.iter().filter(|e| e.terminating).count()
    }

    /// `n` lines as a percentage of the lines to cover (0 when there are none).
    pub fn percent_of_lines(&self, n: usize) -> f64 {
        if self.lines_to_cover.is_empty() {
            0.0
        } else {
            100.0 * n as f64 / self.lines_to_cover.len() as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn execution(id: usize, lines: &[u32]) -> ExecutionRecord {
        ExecutionRecord {
            id,
            origin: "generated".into(),
            lines: lines.to_vec(),
            terminating: true,
            violates_property: false,
            inputs: Vec::new(),
            memory: Vec::new(),
        }
    }

    #[test]
    fn every_undecided_line_has_one_why() {
        let at = |lines: &[u32], edge: &str| BlockedAt {
            line: 9,
            function: "f".into(),
            edge: edge.into(),
            state: "ARG1".into(),
            obstacle: crate::coverage::undecided::Obstacle::NotTried,
            tried: 0,
            cut: 0,
            lines: lines.to_vec(),
        };
        let u = UndecidedLines {
            reached: vec![1, 3],
            blocked: vec![at(&[2, 3, 4], "a;"), at(&[4, 5], "b;")],
            elsewhere: vec![6],
        };
        let whys = u.whys();
        for line in 0..8 {
            assert_eq!(whys.get(&line).cloned(), u.why(line), "line {line}");
        }
    }

    #[test]
    fn a_blocking_edge_without_a_line_is_named_by_its_function() {
        let at = |line: u32, edge: &str| BlockedAt {
            line,
            function: "f".into(),
            edge: edge.into(),
            state: "ARG1".into(),
            obstacle: crate::coverage::undecided::Obstacle::NotTried,
            tried: 0,
            cut: 0,
            lines: vec![3],
        };
        assert_eq!(at(0, "").describe_edge(), "the start of f (never tried)");
        assert_eq!(at(7, "x = 1;").describe_edge(), "line 7 in f (`x = 1;`: never tried)");
    }

    #[test]
    fn each_line_gets_the_status_the_search_allows() {
        // Lines 1-6 to cover; 1-5 over-approximated; 1 and 2 covered (2 first by execution 2);
        // 3 proven not coverable; 4 and 5 left; 6 never explored.
        let lines = [1, 2, 3, 4, 5, 6];
        let over = [1, 2, 3, 4, 5];
        let under = [1, 2];
        let execs = [execution(1, &[1]), execution(2, &[1, 2])];
        let status = |state| line_status(&lines, &over, &under, &[3], &execs, state);
        for state in [SearchState::NotSearched, SearchState::Complete, SearchState::Limited, SearchState::Incomplete] {
            let s = status(state);
            assert_eq!(s[&1], LineStatus::Covered(1));
            assert_eq!(s[&2], LineStatus::Covered(2));
            assert_eq!(s[&3], LineStatus::NotCoverable, "{state:?}");
            assert_eq!(s[&6], LineStatus::Unexplored);
        }
        assert_eq!(status(SearchState::Complete)[&4], LineStatus::NotCoverable);
        assert_eq!(status(SearchState::Incomplete)[&4], LineStatus::Unknown);
        assert_eq!(status(SearchState::Limited)[&5], LineStatus::OverOnly);
        assert_eq!(status(SearchState::NotSearched)[&5], LineStatus::OverOnly);
    }

    #[test]
    fn inexact_reasons_read_as_the_reports_say_them() {
        use crate::symex::semantics::UbKind;
        let cut = InexactReason::Cut { count: 2, first: Some(CutReason::Unwind(crate::cfa::NodeId(4))), line: Some(7) };
        assert!(cut.to_string().starts_with("2 path(s) cut; first at line 7: "), "{cut}");
        let cut = InexactReason::Cut { count: 1, first: Some(CutReason::Undefined(UbKind::DivByZero)), line: None };
        assert_eq!(cut.to_string(), "1 path(s) cut; first: possible undefined behaviour: division by zero");
        assert_eq!(
            InexactReason::Stopped(StopReason::Time).to_string(),
            "the search was stopped before it ended (time limit)"
        );
        assert_eq!(
            InexactReason::Approximated(Approx::LAZY_MEMORY).to_string(),
            "an unknown pointer was taken to point to fresh memory"
        );
        assert_eq!(
            InexactReason::MaxExecutions(3).to_string(),
            "the search stopped at 3 execution(s) (--max-executions)"
        );
        assert_eq!(
            InexactReason::RejectedByGcc(2).to_string(),
            "2 execution(s) did not replay under gcc (--confirm) and do not count"
        );
    }

    #[test]
    fn names_are_the_reports_words() {
        let names: Vec<&str> = [
            LineStatus::Covered(1),
            LineStatus::OverOnly,
            LineStatus::NotCoverable,
            LineStatus::Unexplored,
            LineStatus::Unknown,
        ]
        .iter()
        .map(|s| s.name())
        .collect();
        assert_eq!(names, ["covered", "over_only", "not_coverable", "unexplored", "unknown"]);
    }
}
