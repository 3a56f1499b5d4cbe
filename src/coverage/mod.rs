//! Verification coverage of one program under one assumption automaton: lines to cover, the
//! over-approximation from the product, and the under-approximation from terminating executions.
//!
//! An execution covers the lines of its edges up to, not including, the edge on which the automaton
//! enters `__FALSE`; once the automaton is in `__TRUE` every later edge covers its lines.
//!
//! Invariant: the under-approximation is the union of the lines of executions that terminate; every
//! covered line is backed by one of them.

pub mod assemble;
pub mod exchange;
mod follow;
pub mod result;
pub mod search;
pub mod undecided;

use std::collections::BTreeSet;

use crate::automaton::{Automaton, StateId};
use crate::cfa::{Cfa, EdgeId, Generation, LineRule};
use crate::cfront::ir::Program;
use crate::product::{stack_after, step, takeable_edges, MatchStats, Matcher, Product, ReachInfo, Stacks, Step};

pub use follow::{follow_counterexample, path_of_counterexample, FollowError};

use crate::symex::{AllocOrigin, InputKind};
use result::MemoryFact;

/// The memory facts of an execution with `inputs` (see `MemoryFact`), given what each allocation of
/// its concrete run was (`allocs`, as `symex::interp` and `symex::confirm` tell); `None` when the
/// execution read bytes of a `malloc`'d block never written, which the replay harness cannot
/// reproduce (the C library's `malloc` serves the program there).
pub fn memory_facts(
    prog: &Program,
    inputs: &[crate::symex::InputValue],
    allocs: &[AllocOrigin],
) -> Option<Vec<MemoryFact>> {
    let mut facts = Vec::new();
    let mut read = std::collections::BTreeSet::new();
    for (i, inp) in inputs.iter().enumerate() {
        if let InputKind::Uninit { alloc, offset } = inp.kind {
            facts.push(MemoryFact::At { input: i, alloc, offset, pointer: inp.pointer_choice });
            read.insert(alloc);
        }
        if inp.pointer_choice && inp.value & 1 == 1 {
            let fresh = AllocOrigin::Lazy { input: Some(i) };
            if let Some(a) = allocs.iter().position(|o| *o == fresh) {
                facts.push(MemoryFact::Fresh { input: i, alloc: a as u32 });
            }
        }
    }
    for alloc in read {
        match allocs.get(alloc as usize) {
            Some(&AllocOrigin::Var { var, instance }) => {
                let name = prog.var(var).name.clone();
                facts.push(MemoryFact::Var { alloc, var: var.idx() as u32, name, instance });
            }
            Some(AllocOrigin::Heap) => return None,
            _ => {}
        }
    }
    Some(facts)
}

/// The lines the value analysis of the product rules out (`Analysis::lines_ruled_out`), ascending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuledOut {
    /// Every line it rules out.
    pub all: Vec<u32>,
    /// Those of `all` it rules out only because a call on every way there is undefined behaviour
    /// (`CallSite::incompatible_argument`).
    pub by_undefined_call: Vec<u32>,
    /// Those of `all` it rules out only because every way there accesses memory through a null
    /// pointer (`values::Undefined::null_access`), or that and such a call.
    pub by_null_access: Vec<u32>,
}

/// One execution of the program as a path of CFA edges from the program entry.
#[derive(Clone, Debug)]
pub struct Execution {
    /// Where it came from (a file name, or a generated execution's number).
    pub origin: String,
    /// The edges in order.
    pub edges: Vec<EdgeId>,
    /// Whether it ends at the exit of `main` (a terminating execution).
    pub terminating: bool,
}

/// What one execution contributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecutionCoverage {
    /// Edges taken inside the explored region (empty for executions that do not terminate).
    pub edges: Vec<EdgeId>,
    /// Lines covered (empty for executions that do not terminate).
    pub lines: Vec<u32>,
    /// Whether the automaton entered `__FALSE` on the path.
    pub left_explored_region: bool,
}

/// The value analysis of a product and what its lines are measured against (`Analysis::values_job`).
pub struct ValuesJob<'a> {
    product: &'a Product,
    cfa: &'a Cfa,
    prog: &'a Program,
    over: &'a [u32],
    rule: LineRule,
}

impl ValuesJob<'_> {
    /// The lines the analysis rules out (`Analysis::lines_ruled_out`); nothing when `give_up` (a
    /// limit of the run passed) stopped it.
    pub fn run(&self, give_up: &dyn Fn() -> bool) -> RuledOut {
        use crate::product::values::{self, Undefined};
        let ruled_out = |rules: Undefined| -> Option<(Vec<u32>, bool)> {
            let feasible = values::analyse(self.product, self.cfa, self.prog, rules, give_up)?;
            let kept = feasible.lines(self.product, self.cfa, self.rule);
            let out = self.over.iter().copied().filter(|l| kept.binary_search(l).is_err()).collect();
            Some((out, feasible.cut_at_null))
        };
        let Some((all, cut_at_null)) = ruled_out(Undefined::ALL) else { return RuledOut::default() };
        let calls = values::has_undefined_calls(self.cfa, self.prog);
        if !calls && !cut_at_null {
            return RuledOut { all, ..RuledOut::default() };
        }
        // Which of them the values alone do not rule out: a second analysis, without the rules, and
        // a third to tell the two rules apart when both may apply (if one is stopped, the lines
        // cannot be told apart: none is claimed).
        let Some((by_values, _)) = ruled_out(Undefined::NONE) else { return RuledOut::default() };
        let past: Vec<u32> = all.iter().copied().filter(|l| by_values.binary_search(l).is_err()).collect();
        let (by_undefined_call, by_null_access) = match (calls, cut_at_null) {
            (true, false) => (past, Vec::new()),
            (false, _) => (Vec::new(), past),
            (true, true) => {
                let Some((with_calls, _)) = ruled_out(Undefined { calls: true, null_access: false }) else {
                    return RuledOut::default();
                };
                past.into_iter().partition(|l| with_calls.binary_search(l).is_ok())
            }
        };
        RuledOut { all, by_undefined_call, by_null_access }
    }
}

/// The automaton followed along a path (`Analysis::walk`).
struct Walk {
    /// The edges that count (taken while the automaton is outside `__FALSE`).
    counted: BTreeSet<EdgeId>,
    /// Whether the automaton entered `__FALSE`.
    left: bool,
    /// How many edges of the path, from its start, count.
    followed: usize,
}

/// The composition of a program with an assumption automaton, ready to measure executions.
pub struct Analysis<'a> {
    /// The automaton.
    pub aut: &'a Automaton,
    /// The program's CFA.
    pub cfa: &'a Cfa,
    /// Which lines an edge counts for.
    pub line_rule: LineRule,
    /// The product.
    pub product: Product,
    /// Reach scores and the over-approximation.
    pub reach: ReachInfo,
    matcher: Matcher<'a>,
}

impl<'a> Analysis<'a> {
    /// Builds the product, with the edge texts of the CPAchecker generation that wrote the automaton
    /// (`product::detect`), and solves the Reach fixpoint.
    pub fn new(aut: &'a Automaton, cfa: &'a Cfa, func_names: Vec<String>, line_rule: LineRule) -> Self {
        Self::with_generation(aut, cfa, func_names, line_rule, None)
    }

    /// `new` with the edge texts of generation `forced` (`None`: detected from the automaton).
    pub fn with_generation(
        aut: &'a Automaton,
        cfa: &'a Cfa,
        func_names: Vec<String>,
        line_rule: LineRule,
        forced: Option<Generation>,
    ) -> Self {
        let product = crate::product::detect(aut, cfa, func_names.clone(), forced);
        let reach = ReachInfo::compute(&product, aut, cfa, line_rule);
        let matcher = Matcher::new(aut, cfa, func_names, product.generation);
        Analysis { aut, cfa, line_rule, product, reach, matcher }
    }

    /// CPAchecker's lines to cover.
    pub fn lines_to_cover(&self) -> Vec<u32> {
        self.cfa.lines_to_cover(self.line_rule)
    }

    /// Which automaton states and transitions the program reaches.
    pub fn match_stats(&self) -> MatchStats {
        self.product.match_stats(self.aut)
    }

    /// The lines `exec` covers.
    pub fn coverage_of(&self, exec: &Execution) -> ExecutionCoverage {
        let walk = self.walk(&exec.edges);
        let edges: Vec<EdgeId> = if exec.terminating { walk.counted.into_iter().collect() } else { Vec::new() };
        let lines = self.cfa.lines_of_edges(&edges, self.line_rule);
        ExecutionCoverage { edges, lines, left_explored_region: walk.left }
    }

    /// Whether every edge of the path `edges` counts: the automaton follows it to its end without
    /// entering `__FALSE` or finding no transition (a violation at its end happens inside the
    /// explored region).
    pub fn stays_in_region(&self, edges: &[EdgeId]) -> bool {
        self.walk(edges).followed == edges.len()
    }

    /// The automaton along `edges`, until it enters `__FALSE` or has no transition.
    fn walk(&self, edges: &[EdgeId]) -> Walk {
        let mut stacks = Stacks::default();
        let mut stack = Stacks::EMPTY;
        let mut q = Some(self.aut.initial);
        let mut walk = Walk { counted: BTreeSet::new(), left: false, followed: 0 };
        for &e in edges {
            let src = self.cfa.edge(e).src;
            let siblings = takeable_edges(self.cfa, &stacks, stack, src);
            if let Some(state) = q {
                if Some(state) != self.product.true_state {
                    match step(self.aut, &self.matcher, state, &siblings, e) {
                        Step::To(next) if Some(next) == self.product.false_state => {
                            walk.left = true;
                            q = None;
                        }
                        Step::To(next) => q = Some(next),
                        Step::Blocked | Step::Error => q = None,
                    }
                }
                if q.is_some() {
                    walk.counted.insert(e);
                    walk.followed += 1;
                }
            }
            stack = stack_after(self.cfa, &mut stacks, stack, e);
            if q.is_none() {
                break;
            }
        }
        walk
    }

    /// Lines no terminating execution can cover, of the over-approximation, ascending: every edge
    /// that counts for one of them leads to a node from which no path of the CFA reaches the end of
    /// `main` (the error location `ERROR: goto ERROR;`, a call of a function that never returns,
    /// code that only leads into an endless loop or to `abort`). A terminating execution covers a
    /// line on an edge and then goes on to `main`'s exit; once an edge is taken, the automaton no
    /// longer restricts what follows, so the CFA alone decides. The search is backwards from `main`'s
    /// exit over every edge (calls and returns of all call sites alike: a context-insensitive
    /// over-approximation of the ways out), so a node it does not reach has none.
    pub fn lines_without_exit(&self) -> Vec<u32> {
        let cfa = self.cfa;
        let Some(main) = cfa.func(cfa.main) else { return Vec::new() };
        let mut can_exit = vec![false; cfa.n_nodes()];
        can_exit[main.exit.idx()] = true;
        let mut stack = vec![main.exit];
        while let Some(n) = stack.pop() {
            for &e in cfa.in_edges(n) {
                let src = cfa.edge(e).src;
                if !can_exit[src.idx()] {
                    can_exit[src.idx()] = true;
                    stack.push(src);
                }
            }
        }
        // For every line, whether some edge counting for it leads on to the exit.
        let mut way_out: std::collections::BTreeMap<u32, bool> = std::collections::BTreeMap::new();
        for (id, e) in cfa.edges() {
            if let Some((a, b)) = cfa.counted_lines(id, self.line_rule) {
                for l in a..=b {
                    *way_out.entry(l).or_default() |= can_exit[e.dst.idx()];
                }
            }
        }
        self.reach.over_lines.iter().copied().filter(|l| way_out.get(l) == Some(&false)).collect()
    }

    /// Lines of the over-approximation no execution reaches inside the explored region, by the value
    /// analysis of the product (`product::values`): every edge that counts for one of them is taken
    /// only where the values of the program's variables rule it out, or only past a call that is
    /// undefined behaviour. Nothing when the analysis gives up (its `__TRUE` region is too large).
    /// `give_up` (a limit of the run passed) stops the analysis: then nothing is ruled out.
    pub fn lines_ruled_out(&self, prog: &Program, give_up: &dyn Fn() -> bool) -> RuledOut {
        self.values_job(prog).run(give_up)
    }

    /// What `lines_ruled_out` needs, apart from the matcher (which is not `Sync`): the analysis can
    /// run on a thread of its own beside the search.
    pub fn values_job<'p>(&'p self, prog: &'p Program) -> ValuesJob<'p> {
        ValuesJob { product: &self.product, cfa: self.cfa, prog, over: &self.reach.over_lines, rule: self.line_rule }
    }

    /// Lines of the over-approximation only edges into `__FALSE` count for
    /// (`ReachInfo::frontier_lines`): an execution's lines end before such an edge. Ascending.
    pub fn lines_into_unexplored(&self) -> &[u32] {
        &self.reach.frontier_lines
    }

    /// The matcher of the automaton's transitions on the CFA's edges.
    pub fn matcher(&self) -> &Matcher<'a> {
        &self.matcher
    }

    /// The automaton state the initial product node is in.
    pub fn initial_state(&self) -> StateId {
        self.aut.initial
    }
}
