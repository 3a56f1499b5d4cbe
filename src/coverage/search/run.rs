//! The search's loop: it pulls paths from the executor, confirms them with the concrete interpreter,
//! keeps the executions that cover something new, takes part in `vcov compare`'s exchange, runs the
//! proof pass when it is due, and at its end gathers the facts a result is decided from
//! (`SearchEnd`, `PropertyFacts`).

use std::collections::BTreeSet;
use std::time::Instant;

use super::proof::prove_not_coverable;
use super::values::ValuesBeside;
use super::*;
use crate::coverage::result::PropertyFacts;

/// What the loop does next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flow {
    /// Pull the next path.
    Go,
    /// Look again before pulling.
    Again,
    /// End the search.
    Stop,
}

/// What a search reads and never changes.
#[derive(Clone, Copy)]
pub(super) struct Given<'a> {
    pub(super) analysis: &'a Analysis<'a>,
    pub(super) prog: &'a Program,
    pub(super) config: &'a SearchConfig,
    pub(super) progress: &'a SearchProgress,
}

/// The state of one search while it runs.
pub(super) struct Run<'a, 's> {
    given: Given<'a>,
    /// `vcov compare`'s exchange (targeted search only).
    share: Option<&'a mut Participant>,
    values: ValuesBeside<'s>,
    explorer: Explorer<'a, CoverageGuide<'a>>,
    out: SearchOutcome,
    /// Whether a path of the region can violate the property at all.
    violations_in_region: bool,
    t_search: Instant,
    proof_seconds: f64,
    /// The first path the interpreter refused for another reason than its approximations.
    rejected: Option<symex::Rejected>,
    /// A violation the interpreter did not confirm: the property is not decided by this search.
    violation_rejected: Option<symex::Rejected>,
    first_cut_line: Option<u32>,
    limit: usize,
    limited: bool,
    proof_due: bool,
    /// Lines of the over-approximation.
    over: usize,
    started: Instant,
    covered: BTreeSet<u32>,
    /// Edges executed when a line was last covered: a targeted search that covers nothing new for
    /// `STALL_EDGES` is stuck in one subtree and mixes in paths that wait near the root.
    last_new: u64,
    mixing: bool,
    /// Own executions published to the exchange so far.
    published: usize,
    /// Edges executed when every line was decided while violations were still looked for: the
    /// search goes on for them with a budget of its own (`violation_budget`).
    lines_done_at: Option<u64>,
}

impl<'a, 's> Run<'a, 's> {
    /// A search of the given analysis's program and automaton, with the value analysis `values` beside it.
    pub(super) fn new(given: Given<'a>, share: Option<&'a mut Participant>, values: ValuesBeside<'s>) -> Self {
        let Given { analysis, prog, config, .. } = given;
        // Blind and guided generation keep every execution they find themselves.
        let share = share.filter(|_| config.generate == Generate::Targeted);
        let t_values = Instant::now();
        let frontier = analysis.lines_into_unexplored().to_vec();
        let mut guide = CoverageGuide::new(analysis, prog, config.generate, config.explore.property);
        guide.mark_proven(&frontier);
        // Lines no terminating execution reaches are decided before the search (a path there may
        // end at a violation, which the search looks for as a target of its own).
        let no_exit = analysis.lines_without_exit();
        guide.mark_proven(&no_exit);
        let violations_in_region = guide.violations.in_region;
        let values_seconds = t_values.elapsed().as_secs_f64();
        let t_search = Instant::now();
        let explorer = symex::explore(prog, analysis.cfa, config.explore.clone(), guide);
        let mut out = SearchOutcome { no_exit, frontier, ..SearchOutcome::default() };
        out.times.values = values_seconds;
        let limit = config.max_executions.unwrap_or(usize::MAX);
        Run {
            given,
            share,
            values,
            explorer,
            out,
            violations_in_region,
            t_search,
            proof_seconds: 0.0,
            rejected: None,
            violation_rejected: None,
            first_cut_line: None,
            limit,
            limited: limit == 0,
            proof_due: config.generate == Generate::Targeted,
            over: analysis.reach.over_lines.len(),
            started: Instant::now(),
            covered: BTreeSet::new(),
            last_new: 0,
            mixing: false,
            published: 0,
            lines_done_at: None,
        }
    }

    /// Runs the search to its end.
    pub(super) fn search(mut self) -> SearchOutcome {
        while !self.limited {
            match self.between_paths() {
                Flow::Stop => break,
                Flow::Again => continue,
                Flow::Go => {}
            }
            let outcome = match self.explorer.pull(self.proof_due.then_some(SEGMENTS_PER_LOOK)) {
                Pulled::Path(o) => o,
                Pulled::Busy => continue,
                Pulled::Done => break,
            };
            if self.on_path(outcome) == Flow::Stop {
                break;
            }
        }
        self.finish()
    }

    fn targeted(&self) -> bool {
        self.given.config.generate == Generate::Targeted
    }

    fn note_progress(&self) {
        self.given.progress.note(&self.out, self.over.saturating_sub(self.explorer.guide().n_open()));
    }

    /// What is due between two paths: the value analysis, the end of a targeted search, the
    /// exchange, mixing in old paths, the proof pass.
    fn between_paths(&mut self) -> Flow {
        let edges = self.explorer.edges_executed();
        if edges >= VALUES_START_EDGES {
            self.values.start();
        }
        if edges >= VALUES_JOIN_EDGES && self.values.pending() {
            self.out.join_values(&mut self.values, self.explorer.guide_mut());
            self.note_progress();
        }
        if self.targeted() {
            let g = self.explorer.guide();
            if g.nothing_left() {
                return Flow::Stop;
            }
            if g.n_open() == 0 {
                let at = *self.lines_done_at.get_or_insert(edges);
                if edges - at > violation_budget(at) {
                    self.out.violations_given_up = Some(edges - at);
                    return Flow::Stop;
                }
            }
        }
        if self.share.as_deref().is_some_and(|p| p.due(edges)) {
            self.exchange();
        }
        if !self.mixing && self.targeted() && edges - self.last_new > STALL_EDGES {
            self.mixing = true;
            self.explorer.mix_oldest();
        }
        if self.proof_due && edges >= self.given.config.proof_after {
            self.proof_due = false;
            let extern_writes = reads_extern_writes(self.given.config, &self.explorer.summary());
            self.prove(extern_writes, PROOF_EDGES);
            return Flow::Again;
        }
        Flow::Go
    }

    /// Publishes the executions found since the last exchange and takes the others' that cover
    /// lines not covered yet.
    fn exchange(&mut self) {
        let mine = own_since(&self.out.executions, &mut self.published);
        let Some(p) = self.share.as_deref_mut() else { return };
        for (from, (edges, inputs)) in p.exchange(mine) {
            let exec = Execution { origin: String::new(), edges, terminating: true };
            let coverage = self.given.analysis.coverage_of(&exec);
            let guide = self.explorer.guide_mut();
            if !coverage.lines.iter().any(|&l| guide.is_uncovered(l)) {
                continue;
            }
            guide.mark_covered(&coverage.lines);
            self.covered.extend(coverage.lines.iter().copied());
            // The other search's interpreter ran it; its allocations are this program's too.
            let property = self.given.config.explore.property;
            let run = symex::interpret(
                self.given.prog,
                self.given.analysis.cfa,
                property,
                &inputs,
                exec.edges.len() as u64 + 1,
            );
            let memory = memory_facts(self.given.prog, &inputs, &run.allocs);
            let found = FoundExecution { edges: exec.edges, inputs, coverage, found_for: Some(from), memory };
            self.out.executions.push(found);
            self.out.mark_time(self.started, self.covered.len());
        }
        self.note_progress();
    }

    /// The proof pass over at most `max_edges` edges; its lines are settled in the guide.
    fn prove(&mut self, extern_writes: bool, max_edges: u64) {
        let t_proof = Instant::now();
        let proof = prove_not_coverable(
            self.given.analysis,
            self.given.prog,
            self.given.config,
            self.explorer.guide(),
            extern_writes,
            max_edges,
        );
        self.proof_seconds += t_proof.elapsed().as_secs_f64();
        if let Some(proof) = proof {
            self.out.add_proof(self.explorer.guide_mut(), proof);
            self.note_progress();
        }
    }

    /// A path the executor finished: a finding, a refusal, a bug or an execution.
    fn on_path(&mut self, outcome: symex::PathOutcome<Tag>) -> Flow {
        let cfa = self.given.analysis.cfa;
        self.given.progress.paths.fetch_add(1, Ordering::Relaxed);
        self.explorer.guide_mut().tally_end(&outcome);
        let line_of_last = |edge: Option<EdgeId>| edge.and_then(|e| cfa.edge(e).lines).map(|(l, _)| l);
        match outcome.end {
            PathEnd::Exit | PathEnd::Violation => {}
            PathEnd::Cut(CutReason::Undefined(kind)) => {
                // Undefined behaviour ends the execution: not a terminating one, but a finding.
                self.out.undefined_paths += 1;
                let line = line_of_last(outcome.path.last()).unwrap_or(0);
                let seen = self.out.undefined.iter().any(|u| u.line == line && u.kind == kind.describe());
                if !seen && self.out.undefined.len() < MAX_UNDEFINED {
                    let trace = trace_lines(cfa, &outcome.path.edges());
                    self.out.undefined.push(UndefinedAt { kind: kind.describe(), line, trace });
                }
                return Flow::Go;
            }
            PathEnd::Cut(_) => {
                if self.first_cut_line.is_none() {
                    self.first_cut_line = line_of_last(outcome.path.last());
                }
                return Flow::Go;
            }
            _ => return Flow::Go,
        }
        let property = self.given.config.explore.property;
        let (memory, edges, inputs) =
            match symex::confirm(self.given.prog, cfa, property, &outcome, self.given.config.assume) {
                Ok(c) if !c.assumed.is_empty() => {
                    // A violation of the model the user accepted, not shown to be one of the program:
                    // a finding, not a bug; like undefined behaviour, it ends the execution.
                    self.out.assumed_violations += 1;
                    if self.out.assumed_violation.is_none() {
                        let line = line_of_last(c.edges.last().copied()).unwrap_or(0);
                        let kind = "violation of the property, relying on the accepted assumptions";
                        let trace = trace_lines(cfa, &c.edges);
                        self.out.assumed_violation = Some(UndefinedAt { kind, line, trace });
                    }
                    return Flow::Go;
                }
                Ok(c) => (memory_facts(self.given.prog, &c.inputs, &c.allocs), c.edges, c.inputs),
                Err(r) => {
                    self.refused(&outcome, r);
                    return Flow::Go;
                }
            };
        if outcome.end == PathEnd::Violation {
            self.out.bug_in_region |= self.given.analysis.stays_in_region(&edges);
            self.out.bugs.push(FoundBug { edges, inputs, memory });
            return if self.given.config.continue_after_bug { Flow::Go } else { Flow::Stop };
        }
        // A real execution: it completes its `CompletionOnly` subtree, if it is in one.
        self.explorer.accept_completion(&outcome);
        self.keep_execution(edges, inputs, memory);
        Flow::Go
    }

    /// A path the concrete interpreter refused (`r`).
    fn refused(&mut self, outcome: &symex::PathOutcome<Tag>, r: symex::Rejected) {
        self.explorer.reject_completion(outcome);
        if outcome.end == PathEnd::Violation {
            self.violation_rejected.get_or_insert(r.clone());
        }
        // A violation refused for its approximations leaves them in the summary, where they are
        // the search's obstacle (`SearchEnd::unaccepted`).
        if !matches!(r.why, symex::Rejection::Approximated(_)) {
            self.out.not_confirmed += 1;
            *self.out.refusals.entry(refusal_of(self.given.analysis.cfa, &r)).or_default() += 1;
            self.rejected.get_or_insert(r);
        }
    }

    /// Keeps a confirmed terminating execution if it covers something new (a search other than the
    /// targeted one keeps every one).
    fn keep_execution(&mut self, edges: Vec<EdgeId>, inputs: Vec<symex::InputValue>, memory: Option<Vec<MemoryFact>>) {
        let coverage = self.given.analysis.coverage_of(&Execution {
            origin: String::new(),
            edges: edges.clone(),
            terminating: true,
        });
        // The invariants behind `lines_without_exit`, `lines_ruled_out` and
        // `lines_into_unexplored`: no terminating execution covers one of them.
        debug_assert!(
            coverage.lines.iter().all(|l| self.out.no_exit.binary_search(l).is_err()),
            "an execution covers a line without a path to the end of main"
        );
        debug_assert!(
            coverage.lines.iter().all(|l| self.out.ruled_out.all.binary_search(l).is_err()),
            "an execution covers a line the value analysis ruled out"
        );
        debug_assert!(
            coverage.lines.iter().all(|l| self.out.frontier.binary_search(l).is_err()),
            "an execution covers a line only edges into __FALSE count for"
        );
        let targeted = self.targeted();
        let guide = self.explorer.guide_mut();
        let new = coverage.lines.iter().any(|&l| guide.is_uncovered(l));
        if targeted && !new {
            return;
        }
        guide.mark_covered(&coverage.lines);
        self.last_new = self.explorer.edges_executed();
        self.covered.extend(coverage.lines.iter().copied());
        self.out.executions.push(FoundExecution { edges, inputs, coverage, found_for: None, memory });
        self.out.mark_time(self.started, self.covered.len());
        self.note_progress();
        if self.out.executions.len() >= self.limit {
            self.limited = true;
        }
    }

    /// How the search ended, as facts.
    fn end(&self, summary: &symex::Summary) -> SearchEnd {
        // A path pruned as covered has the futures of an explored state, but not its prefix: the
        // lines its executions would cover are not all known. Only the targeted search keeps the
        // prefix's uncovered lines in its tags.
        let pruned = match self.given.config.generate {
            Generate::Targeted => 0,
            _ => self.explorer.stats().cache.hits,
        };
        SearchEnd {
            all_decided: self.targeted() && self.explorer.guide().n_open() == 0,
            exhausted: summary.exhausted,
            stop: summary.stop,
            max_executions: self.limited.then_some(self.limit),
            stopped_at_bug: self.bug_stop(),
            cuts: (summary.lossy_cuts(), summary.first_other_cut.clone(), self.first_cut_line),
            unaccepted: summary.approx.without(self.given.config.assume),
            rejected: self.rejected.clone(),
            pruned,
        }
    }

    fn bug_stop(&self) -> bool {
        !self.out.bugs.is_empty() && !self.given.config.continue_after_bug
    }

    /// Ends the search: the value analysis, the final proof pass, and the facts of the outcome.
    fn finish(mut self) -> SearchOutcome {
        if let Some(p) = self.share.take() {
            p.end(own_since(&self.out.executions, &mut self.published));
        }
        let mut summary = self.explorer.summary();
        // The value analysis decides nothing a complete search has not: one that ended before it
        // started does without it (it would only name another argument for the same lines), unless
        // paths met undefined behaviour: then it tells which lines lie past an undefined call.
        let complete = self.end(&summary).complete();
        if self.bug_stop() || (!self.values.started() && complete && self.out.undefined_paths == 0) {
            self.values.abandon();
        } else {
            self.out.join_values(&mut self.values, self.explorer.guide_mut());
        }
        // An exhausted search whose paths read what functions without body may have written
        // decides the rest in the model where they write arbitrary values (a lossy cut or a limit
        // would leave paths unexplored that the proof does not make up for).
        if self.targeted()
            && summary.exhausted
            && !self.limited
            && summary.lossy_cuts() == 0
            && reads_extern_writes(self.given.config, &summary)
            && EXTERN_EFFECTS.contains(summary.approx.without(self.given.config.assume))
            && !self.explorer.guide().nothing_left()
        {
            let edges = self.explorer.edges_executed();
            let budget = (FINAL_PROOF_FACTOR * edges).clamp(FINAL_PROOF_MIN_EDGES, PROOF_EDGES);
            self.prove(true, budget);
            summary = self.explorer.summary();
        }
        self.out.stats = Some(self.explorer.stats());
        self.out.times.proof = self.proof_seconds;
        self.out.times.search = self.t_search.elapsed().as_secs_f64() - self.proof_seconds;
        self.out.tally = std::mem::take(&mut self.explorer.guide_mut().tally);
        let unaccepted = summary.approx.without(self.given.config.assume);
        self.out.assumed = summary.approx.without(unaccepted);
        self.out.end = self.end(&summary);
        self.out.property = PropertyStatus::of(&PropertyFacts {
            bugs: !self.out.bugs.is_empty(),
            bug_in_region: self.out.bug_in_region,
            violations_in_region: self.violations_in_region,
            no_violation_proof: self.out.no_violation_proof,
            stop: summary.stop,
            violations_given_up: self.out.violations_given_up,
            max_executions: self.limited.then_some(self.limit),
            cuts: (summary.lossy_cuts(), summary.first_other_cut.clone(), self.first_cut_line),
            unaccepted,
            violation_rejected: self.violation_rejected.take(),
            assumed_violations: self.out.assumed_violations,
            exhausted: summary.exhausted,
            assumed: self.out.assumed,
        });
        let out = std::mem::take(&mut self.out);
        if !self.given.config.free_memory {
            // The process ends soon: freeing millions of shared states would only delay the report.
            std::mem::forget(self.explorer);
        }
        out
    }
}
