//! From what was measured to what a result claims: the executions a result counts, the status of
//! every line, why a line is not coverable, why the result is not exact. `driver` gathers the
//! executions (from files or from `search`) and confirms them with gcc; everything it then
//! claims is decided here, without IO, for `vcov coverage` and `vcov compare` alike.
//!
//! Invariant: an execution the replay harness cannot rebuild (`memory_facts` is `None`) is never
//! claimed, whether it terminates or violates the property.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::result::{
    self, BlockedAt, BranchInfo, ClaimBasis, Confirmation, CoverageResult, DecidedAssuming, Dropped, Exactness,
    ExecutionRecord, ExecutionSource, FunctionInfo, InexactReason, InputValue, LineStatus, NotCoverableBy, Origin,
    ProgramProofs, ProofFacts, PropertyStatus, Provenance, Refusal, SearchEnd, SearchState, Times, UndecidedLines,
};
use super::search::{FoundBug, SearchOutcome};
use super::{undecided, Analysis, RuledOut};
use crate::cfa::{Cfa, EdgeId, LineRule};
use crate::cfront::ir::Program;
use crate::symex::{self, InputKind};

/// One execution a result may claim: its record, its path and the edges it covers.
#[derive(Clone, Debug)]
pub struct Claimed {
    /// What the report shows of it.
    pub record: ExecutionRecord,
    /// Its path, for its counterexample automaton.
    pub path: Vec<EdgeId>,
    /// The edges it covers inside the explored region.
    pub edges: Vec<EdgeId>,
}

/// The executions a search found that a result may claim, numbered from 1, and how many it may not
/// (they read memory the replay harness cannot rebuild).
pub fn executions_of_search(prog: &Program, outcome: &SearchOutcome, names: &[String]) -> (Vec<Claimed>, usize) {
    let mut unreproducible = 0;
    let mut res: Vec<Claimed> = Vec::new();
    for found in &outcome.executions {
        let Some(memory) = found.memory.clone() else {
            unreproducible += 1;
            continue;
        };
        let record = ExecutionRecord {
            id: res.len() + 1,
            origin: match found.found_for {
                Some(other) => Origin::FoundFor(names[other].clone()),
                None => Origin::Generated,
            },
            lines: found.coverage.lines.clone(),
            terminating: true,
            violates_property: false,
            inputs: found.inputs.iter().map(|v| input_value(prog, v)).collect(),
            memory,
        };
        res.push(Claimed { record, path: found.edges.clone(), edges: found.coverage.edges.clone() });
    }
    (res, unreproducible)
}

/// An execution read from a counterexample automaton (`file`): what `analysis` measures of `path`.
pub fn execution_of_file(analysis: &Analysis, id: usize, file: String, path: Vec<EdgeId>) -> Claimed {
    let cfa = analysis.cfa;
    let main_exit = cfa.func(cfa.main).expect("main").exit;
    let terminating = path.last().is_some_and(|&e| cfa.edge(e).dst == main_exit);
    let cov = analysis.coverage_of(&super::Execution { origin: file.clone(), edges: path.clone(), terminating });
    let record = ExecutionRecord {
        id,
        origin: Origin::File(file),
        lines: cov.lines,
        terminating,
        violates_property: false,
        inputs: Vec::new(),
        memory: Vec::new(),
    };
    Claimed { record, path, edges: cov.edges }
}

/// Keeps the executions `keep` says, numbered again from 1: the ids stay dense (`covered_by`, the
/// tests and the automata of the evidence follow them).
pub fn retain(claimed: &mut Vec<Claimed>, keep: &[bool]) {
    assert_eq!(claimed.len(), keep.len(), "one flag per execution");
    let mut k = keep.iter();
    claimed.retain(|_| *k.next().expect("one flag per execution"));
    for (i, c) in claimed.iter_mut().enumerate() {
        c.record.id = i + 1;
    }
}

/// The test of the evidence for a bug, after the `n_executions` others: every line of its path up
/// to the violation (the run executes them all); `None` when the replay harness cannot rebuild the
/// memory it read (then only the witness shows it).
pub fn bug_test(
    prog: &Program,
    bug: &FoundBug,
    n_executions: usize,
    line_rule: LineRule,
    cfa: &Cfa,
) -> Option<ExecutionRecord> {
    let memory = bug.memory.clone()?;
    Some(ExecutionRecord {
        id: n_executions + 1,
        origin: Origin::Bug,
        lines: cfa.lines_of_edges(&bug.edges, line_rule),
        terminating: false,
        violates_property: true,
        inputs: bug.inputs.iter().map(|v| input_value(prog, v)).collect(),
        memory,
    })
}

/// An executor input as the report shows it.
pub fn input_value(prog: &Program, v: &symex::InputValue) -> InputValue {
    let function = match &v.kind {
        InputKind::Call { func: Some(f), .. } => prog.func(*f).name.clone(),
        InputKind::Call { func: None, .. } => "<call through a pointer>".into(),
        InputKind::Uninit { .. } => result::UNINITIALIZED.into(),
    };
    let c_type = v.ty.map(|t| prog.types.display(t)).unwrap_or_else(|| "unsigned char".into());
    let signed = v.ty.and_then(|t| prog.types.as_int(t)).is_some_and(|it| it.signed);
    let value = if signed { v.signed() } else { v.value as i128 };
    InputValue { function, c_type, value }
}

/// What a result is assembled from, besides the analysis and the program.
pub struct Assembly<'a> {
    /// The program file as given.
    pub program: PathBuf,
    /// The automaton file as given.
    pub automaton: PathBuf,
    /// `ILP32` or `LP64`.
    pub data_model: &'static str,
    /// Which lines an edge counts for.
    pub line_rule: LineRule,
    /// Where the executions come from.
    pub source: ExecutionSource,
    /// The search, when one ran.
    pub search: Option<&'a SearchOutcome>,
    /// Without a search: the lines without a way to the end of `main` and those the value analysis
    /// rules out (`Analysis::lines_without_exit`, `lines_ruled_out`).
    pub unsearched: Option<(Vec<u32>, RuledOut)>,
    /// The executions claimed, after every drop.
    pub executions: Vec<Claimed>,
    /// Executions the search found that the replay harness cannot rebuild (dropped before).
    pub unreproducible: usize,
    /// How the executions were confirmed.
    pub confirmation: Confirmation,
    /// The row's name in tables.
    pub instance: String,
    /// Stage times (zero with `--reproducible`).
    pub times: Times,
    /// Whether timings are zeroed (`--reproducible`): the timeline's too.
    pub reproducible: bool,
    /// Lines proven not coverable by BMC or k-induction over the whole program.
    pub program_proofs: ProgramProofs,
}

/// The result: every claim of it decided from what was measured.
pub fn assemble(analysis: &Analysis, prog: &Program, a: Assembly<'_>) -> (CoverageResult, Vec<Vec<EdgeId>>) {
    let cfa = analysis.cfa;
    let o = a.search;
    let (rejected_by_gcc, pending) = match a.confirmation {
        Confirmation::Gcc { rejected, pending, .. } => (rejected, pending),
        Confirmation::Interpreter { .. } => (0, 0),
    };
    let dropped = Dropped { unreproducible: a.unreproducible, rejected_by_gcc, pending };
    let end = o.map(|o| &o.end);
    let mut under: Vec<u32> = a.executions.iter().flat_map(|e| e.record.lines.iter().copied()).collect();
    under.sort_unstable();
    under.dedup();
    let mut under_edges: Vec<EdgeId> = a.executions.iter().flat_map(|e| e.edges.iter().copied()).collect();
    under_edges.sort_unstable();
    under_edges.dedup();
    let (executions, paths): (Vec<ExecutionRecord>, Vec<Vec<EdgeId>>) =
        a.executions.into_iter().map(|c| (c.record, c.path)).unzip();

    let lines_to_cover = analysis.lines_to_cover();
    let over = analysis.reach.over_lines.clone();
    let proven = o.map(|o| o.proven.as_slice()).unwrap_or_default();
    // Lines no terminating execution reaches need no search: decided also for executions from files.
    let (no_exit, ruled_out, frontier) = match (o, a.unsearched) {
        (Some(o), _) => (o.no_exit.clone(), o.ruled_out.clone(), o.frontier.clone()),
        (None, Some((no_exit, ruled_out))) => (no_exit, ruled_out, analysis.lines_into_unexplored().to_vec()),
        (None, None) => Default::default(),
    };
    let mut decided: Vec<u32> = proven
        .iter()
        .chain(&no_exit)
        .chain(&ruled_out.all)
        .chain(&frontier)
        .chain(a.program_proofs.lines.keys())
        .copied()
        .collect();
    decided.sort_unstable();
    decided.dedup();
    let state: SearchState = result::search_state(end, dropped);
    let line_status = result::line_status(&lines_to_cover, &over, &under, &decided, &executions, state);
    let proofs = o.map(|o| ProofFacts {
        proven: &o.proven,
        counters: !o.abstracted.is_empty(),
        extern_writes: o.proof_extern_writes,
        proof_assumed: o.proof_assumed,
        search_assumed: o.assumed,
        complete: state == SearchState::Complete,
    });
    let not_coverable_by =
        result::not_coverable_by(&line_status, proofs, &a.program_proofs.lines, &no_exit, &frontier, &ruled_out);
    let decided_assuming = end
        .filter(|_| !dropped.any())
        .and_then(SearchEnd::complete_assuming)
        .map(|assumptions| DecidedAssuming {
            assumptions,
            not_coverable: line_status.iter().filter(|(_, s)| **s == LineStatus::Unknown).map(|(&l, _)| l).collect(),
        })
        .filter(|d| !d.not_coverable.is_empty());
    // The invariants are evidence only where an argument rests on them.
    let invariants =
        match not_coverable_by.values().any(|by| matches!(by, NotCoverableBy::Induction { invariants: 1.., .. })) {
            true => a.program_proofs.invariants.clone(),
            false => Vec::new(),
        };
    let bug = o.and_then(|o| o.bugs.first());
    let undecided = o.and_then(|o| undecided_lines(analysis, prog, o, &line_status));
    let assumed = o
        .map(|o| o.assumed.union(if proven.is_empty() { symex::Approx::NONE } else { o.proof_assumed }))
        .unwrap_or_default();
    let basis = ClaimBasis { search: end.cloned(), dropped, proven: decided, contradicted: None };
    let result = CoverageResult {
        program: a.program,
        automaton: a.automaton,
        data_model: a.data_model,
        line_rule: match a.line_rule {
            LineRule::Spanned => "spanned",
            LineRule::FirstLine => "first-line",
        },
        lines_to_cover,
        over_lines: over,
        under_lines: under,
        executions,
        matching: analysis.match_stats(),
        functions: functions(cfa, prog),
        branches: branch_info(cfa, &analysis.reach.over_edges, &under_edges),
        bug_found: bug.is_some(),
        property: match o {
            Some(o) => o.property.clone(),
            None => PropertyStatus::NotDecided(InexactReason::FromFiles),
        },
        interrupted: end.is_some_and(|e| e.interrupted()),
        stopped_by: end.and_then(|e| e.stopped_by()),
        confirmation: a.confirmation,
        refusals: o.map(refusals).unwrap_or_default(),
        exactness: Exactness::of(&basis, assumed),
        abstracted: o.map(|o| o.abstracted.iter().map(|&v| prog.var(v).name.clone()).collect()).unwrap_or_default(),
        abstracted_extern_writes: o.is_some_and(|o| o.proof_extern_writes),
        proven_by_abstraction: proven.len(),
        assumed,
        decided_assuming,
        not_coverable_by,
        invariants,
        undefined_paths: o.map_or(0, |o| o.undefined_paths),
        undefined: o.map(|o| o.undefined.clone()).unwrap_or_default(),
        assumed_violations: o.map_or((0, None), |o| (o.assumed_violations, o.assumed_violation.clone())),
        timeline: o.map(|o| timeline(o, a.reproducible)).unwrap_or_default(),
        line_status,
        undecided,
        generate: a.source,
        instance: a.instance,
        times: a.times,
        provenance: Provenance::default(),
        basis,
    };
    (result, paths)
}

/// Why the interpreter refused executions, with how many (the report orders them).
fn refusals(o: &SearchOutcome) -> Vec<(usize, Refusal)> {
    o.refusals.iter().map(|(r, &n)| (n, r.clone())).collect()
}

/// The search's timeline, its times zeroed when `reproducible`.
fn timeline(o: &SearchOutcome, reproducible: bool) -> Vec<result::TimelinePoint> {
    o.timeline
        .iter()
        .map(|p| result::TimelinePoint { seconds: if reproducible { 0.0 } else { p.seconds }, ..*p })
        .collect()
}

/// Adds to `result` (of `vcov compare`) an execution another configuration found, covering `lines`
/// here: it gets the next id and origin `found for FROM`, and the claims are decided again by the
/// rules that decided them (`line_status`, `Exactness::of`), from the same basis. Returns the lines
/// it covers that `result` had proven not coverable (the proof was wrong: the result is then not
/// exact).
pub fn gain_execution(result: &mut CoverageResult, mut rec: ExecutionRecord, from: &str, lines: Vec<u32>) -> Vec<u32> {
    rec.id = result.executions.len() + 1;
    rec.origin = Origin::FoundFor(from.to_string());
    let contradicted: Vec<u32> =
        lines.iter().copied().filter(|l| result.line_status.get(l) == Some(&LineStatus::NotCoverable)).collect();
    let basis = &mut result.basis;
    if basis.contradicted.is_none() {
        basis.contradicted = contradicted.first().copied();
    }
    // A real execution covers them: no assumption makes them not coverable.
    if let Some(d) = &mut result.decided_assuming {
        d.not_coverable.retain(|l| !lines.contains(l));
        if d.not_coverable.is_empty() {
            result.decided_assuming = None;
        }
    }
    let mut under: Vec<u32> = result.under_lines.iter().copied().chain(lines.iter().copied()).collect();
    under.sort_unstable();
    under.dedup();
    result.under_lines = under;
    rec.lines = lines;
    result.executions.push(rec);
    let state = result::search_state(basis.search.as_ref(), basis.dropped);
    result.line_status = result::line_status(
        &result.lines_to_cover,
        &result.over_lines,
        &result.under_lines,
        &basis.proven,
        &result.executions,
        state,
    );
    result.not_coverable_by.retain(|l, _| result.line_status.get(l) == Some(&LineStatus::NotCoverable));
    result.exactness = Exactness::of(&result.basis, result.assumed);
    contradicted
}

/// The functions of the program with a body, by first line; functions defined in headers have no
/// lines in the user's file, and the models of vcov's C library are not the program's.
fn functions(cfa: &Cfa, prog: &Program) -> Vec<FunctionInfo> {
    let mut res: Vec<FunctionInfo> = cfa
        .funcs
        .iter()
        .filter(|f| !f.library)
        .filter_map(|f| {
            let func = prog.func(f.func);
            let (first_line, last_line) = prog.file.user_lines(func.span)?;
            Some(FunctionInfo { name: func.name.clone(), first_line, last_line })
        })
        .collect();
    res.sort_by_key(|f| (f.first_line, f.name.clone()));
    res
}

/// Which arms of each branching point the over-approximation and the covering executions take.
fn branch_info(cfa: &Cfa, over: &[EdgeId], under: &[EdgeId]) -> Vec<BranchInfo> {
    let mut res: Vec<_> = cfa
        .branches()
        .into_iter()
        .map(|arms| BranchInfo {
            line: cfa.edge(arms[0]).lines.map_or(0, |l| l.0),
            arms: arms.iter().map(|e| (over.binary_search(e).is_ok(), under.binary_search(e).is_ok())).collect(),
        })
        .collect();
    res.sort_by_key(|b| b.line);
    res
}

/// The lines `line_status` leaves undecided, sorted by what the search saw (`coverage::undecided`).
fn undecided_lines(
    analysis: &Analysis,
    prog: &Program,
    outcome: &SearchOutcome,
    line_status: &BTreeMap<u32, LineStatus>,
) -> Option<UndecidedLines> {
    let open: Vec<u32> = line_status.iter().filter(|(_, s)| s.is_undecided()).map(|(&l, _)| l).collect();
    if open.is_empty() || outcome.tally.is_empty() {
        return None;
    }
    let u = undecided::explain(analysis, &outcome.tally, &open);
    let cfa = analysis.cfa;
    let blocked = u
        .blocked
        .into_iter()
        .map(|b| {
            let e = cfa.edge(b.edge);
            BlockedAt {
                line: e.lines.map_or(0, |(l, _)| l),
                function: prog.func(cfa.node(e.src).func).name.clone(),
                edge: e.text.to_string(),
                state: analysis.aut.state(b.state).name.clone(),
                obstacle: b.obstacle,
                tried: b.tried,
                cut: b.cut,
                lines: b.lines,
            }
        })
        .collect();
    Some(UndecidedLines { reached: u.reached, blocked, elsewhere: u.elsewhere })
}
