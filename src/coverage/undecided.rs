//! Why lines stay undecided after a search: the edges it could not get past.
//!
//! For a post-mortem the undecided lines are the ones that matter, and "the search was stopped" does
//! not say where it stood. While it runs, the search keeps a `Tally` of every edge a path tried, got
//! past, found infeasible, or was cut on, by the automaton state the path is in after the edge.
//! `explain` then sorts the undecided lines of the over-approximation:
//! - *reached*: some path got past an edge counting for the line, but none of those paths went on
//!   to return from `main` (they were cut, or the search stopped first);
//! - *behind* a blocking edge: the line lies beyond an edge that leaves a place some path reached and
//!   that no path got past (tried and infeasible each time, cut at a construct vcov does not model
//!   or else at undefined behaviour, never tried);
//!   each such line goes to the nearest blocking edge, the distance counted in edges of the
//!   over-approximation, through edges no path got past;
//! - *elsewhere*: neither (not expected: every line of the over-approximation lies behind some edge
//!   leaving the program entry; kept so that the three parts always add up to the undecided lines).
//!
//! This is a diagnosis, not a claim: "nearest" ignores call stacks (a return edge leads to every
//! caller), and it says nothing of whether the lines can be covered.

use std::collections::VecDeque;

use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

use super::Analysis;
use crate::automaton::StateId;
use crate::cfa::{EdgeId, EdgeKind, NodeId};

/// What one search saw of the edges it tried.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// By (automaton state after the edge, edge).
    attempts: FxHashMap<(StateId, EdgeId), Attempts>,
    /// Paths cut on each edge (any automaton state).
    cuts: FxHashMap<EdgeId, Cuts>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Attempts {
    tried: u64,
    passed: u64,
    refused: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Cuts {
    undefined: u64,
    other: u64,
}

impl Tally {
    /// A path in state `q` after `e` is about to take `e`.
    pub fn tried(&mut self, q: StateId, e: EdgeId) {
        self.attempts.entry((q, e)).or_default().tried += 1;
    }

    /// A path got past `e` into state `q`.
    pub fn passed(&mut self, q: StateId, e: EdgeId) {
        self.attempts.entry((q, e)).or_default().passed += 1;
    }

    /// `e` (into state `q`) was infeasible after a path's conditions.
    pub fn refused(&mut self, q: StateId, e: EdgeId) {
        self.attempts.entry((q, e)).or_default().refused += 1;
    }

    /// A path was cut on `e`: at possible undefined behaviour, or for another reason.
    pub fn cut(&mut self, e: EdgeId, undefined: bool) {
        let c = self.cuts.entry(e).or_default();
        if undefined {
            c.undefined += 1;
        } else {
            c.other += 1;
        }
    }

    /// Whether nothing was recorded (a search that did not follow the automaton).
    pub fn is_empty(&self) -> bool {
        self.attempts.is_empty()
    }

    fn got_past(&self, q: StateId, e: EdgeId) -> bool {
        self.attempts.get(&(q, e)).is_some_and(|a| a.passed > 0)
    }
}

/// What stopped every path at a blocking edge.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Obstacle {
    /// Tried, and infeasible after the path's conditions each time.
    Infeasible,
    /// Paths were cut there at possible undefined behaviour.
    Undefined,
    /// Paths were cut there for another reason (a construct the executor does not model).
    Unsupported,
    /// Tried, but no path went on past it before the search ended.
    Unfinished,
    /// Never tried: the paths that reached its source ended there, or waited when the search stopped.
    NotTried,
}

impl Obstacle {
    /// The name in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Obstacle::Infeasible => "infeasible",
            Obstacle::Undefined => "undefined_behaviour",
            Obstacle::Unsupported => "unsupported",
            Obstacle::Unfinished => "unfinished",
            Obstacle::NotTried => "not_tried",
        }
    }
}

/// An edge no path got past, with the undecided lines nearest behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// The CFA edge.
    pub edge: EdgeId,
    /// The automaton state a path would be in after it.
    pub state: StateId,
    /// What stopped the paths there.
    pub obstacle: Obstacle,
    /// How often a path tried it.
    pub tried: u64,
    /// How many paths were cut on it.
    pub cut: u64,
    /// The undecided lines behind it, ascending.
    pub lines: Vec<u32>,
}

/// The undecided lines of a search's result, sorted by why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Undecided {
    /// Lines some path got to without any of them returning from `main`, ascending.
    pub reached: Vec<u32>,
    /// Blocking edges, most lines first (ties: by first line).
    pub blocked: Vec<Blocked>,
    /// The other undecided lines, ascending.
    pub elsewhere: Vec<u32>,
}

/// Sorts the `undecided` lines (ascending) by what the search saw (`tally`).
pub fn explain(a: &Analysis, tally: &Tally, undecided: &[u32]) -> Undecided {
    let cfa = a.cfa;
    let width = undecided.last().map_or(0, |&l| l as usize + 1);
    let mut open = FixedBitSet::with_capacity(width);
    for &l in undecided {
        open.insert(l as usize);
    }
    let lines_of = |e: EdgeId| -> Vec<u32> {
        match cfa.counted_lines(e, a.line_rule) {
            Some((lo, hi)) => (lo..=hi).filter(|&l| open.contains(l as usize)).collect(),
            None => Vec::new(),
        }
    };

    // Lines some path got past an edge for.
    let mut reached_lines = FixedBitSet::with_capacity(width);
    let mut passed: Vec<(StateId, EdgeId)> =
        tally.attempts.iter().filter(|(_, at)| at.passed > 0).map(|(&k, _)| k).collect();
    passed.sort_unstable();
    for &(_, e) in &passed {
        for l in lines_of(e) {
            reached_lines.insert(l as usize);
        }
    }

    let graph = Forgetful::new(a);
    // Places some path reached, and the edges leaving them no path got past.
    let mut reached: Vec<(StateId, NodeId)> = vec![(a.aut.initial, cfa.entry())];
    reached.extend(passed.iter().map(|&(q, e)| (q, cfa.edge(e).dst)));
    reached.sort_unstable();
    reached.dedup();
    let mut frontier: Vec<(EdgeId, StateId)> = Vec::new();
    for &(q, n) in &reached {
        for (e, to) in graph.successors(q, n) {
            if !tally.got_past(to, e) {
                frontier.push((e, to));
            }
        }
    }
    frontier.sort_unstable();
    frontier.dedup();

    let owner = nearest_blocking_edge(&graph, tally, &frontier, &reached, width, &|e| {
        lines_of(e).into_iter().filter(|&l| !reached_lines.contains(l as usize)).collect()
    });
    let mut res = Undecided::default();
    let mut behind: Vec<Vec<u32>> = vec![Vec::new(); frontier.len()];
    for &l in undecided {
        if reached_lines.contains(l as usize) {
            res.reached.push(l);
        } else if let Some(who) = owner[l as usize] {
            behind[who].push(l);
        } else {
            res.elsewhere.push(l);
        }
    }
    for (i, lines) in behind.into_iter().enumerate() {
        if lines.is_empty() {
            continue;
        }
        let (edge, state) = frontier[i];
        let at = tally.attempts.get(&(state, edge)).copied().unwrap_or_default();
        let (obstacle, cut) = obstacle_at(at, tally.cuts.get(&edge).copied().unwrap_or_default());
        res.blocked.push(Blocked { edge, state, obstacle, tried: at.tried, cut, lines });
    }
    res.blocked.sort_by_key(|b| (std::cmp::Reverse(b.lines.len()), b.lines[0], b.edge));
    res
}

/// The over-approximation with call stacks forgotten: from (state, location) to (edge, state after).
struct Forgetful<'a> {
    a: &'a Analysis<'a>,
    succ: FxHashMap<(StateId, NodeId), Vec<(EdgeId, StateId)>>,
}

impl<'a> Forgetful<'a> {
    fn new(a: &'a Analysis<'a>) -> Self {
        let p = &a.product;
        let mut succ: FxHashMap<(StateId, NodeId), Vec<(EdgeId, StateId)>> = FxHashMap::default();
        for (i, n) in p.nodes.iter().enumerate() {
            if p.is_leaf(n.aut) {
                continue;
            }
            let out = succ.entry((n.aut, n.cfa)).or_default();
            for pe in &p.succ[i] {
                let to = p.nodes[pe.to.idx()].aut;
                if Some(to) != p.false_state && !out.contains(&(pe.edge, to)) {
                    out.push((pe.edge, to));
                }
            }
        }
        Forgetful { a, succ }
    }

    fn successors(&self, q: StateId, n: NodeId) -> Vec<(EdgeId, StateId)> {
        let cfa = self.a.cfa;
        if Some(q) == self.a.product.true_state {
            // The `__TRUE` region: every edge an execution can take, whatever the call stack.
            cfa.out_edges(n)
                .iter()
                .filter(|&&e| !matches!(cfa.edge(e).kind, EdgeKind::Summary(_)))
                .map(|&e| (e, q))
                .collect()
        } else {
            self.succ.get(&(q, n)).cloned().unwrap_or_default()
        }
    }
}

/// Every line (below `width`) to its nearest blocking edge of `frontier` (an index into it): a
/// breadth-first search from all of them at once through edges no path got past, stopping at
/// places some path `reached` (ascending); `lines_of` gives the lines an edge may own.
fn nearest_blocking_edge(
    graph: &Forgetful,
    tally: &Tally,
    frontier: &[(EdgeId, StateId)],
    reached: &[(StateId, NodeId)],
    width: usize,
    lines_of: &dyn Fn(EdgeId) -> Vec<u32>,
) -> Vec<Option<usize>> {
    let cfa = graph.a.cfa;
    let is_reached = |v: &(StateId, NodeId)| reached.binary_search(v).is_ok();
    let mut owner: Vec<Option<usize>> = vec![None; width];
    let assign = |e: EdgeId, who: usize, owner: &mut Vec<Option<usize>>| {
        for l in lines_of(e) {
            if owner[l as usize].is_none() {
                owner[l as usize] = Some(who);
            }
        }
    };
    let mut seen: rustc_hash::FxHashSet<(StateId, NodeId)> = rustc_hash::FxHashSet::default();
    let mut queue = VecDeque::new();
    for (i, &(e, to)) in frontier.iter().enumerate() {
        assign(e, i, &mut owner);
        let v = (to, cfa.edge(e).dst);
        if !is_reached(&v) && seen.insert(v) {
            queue.push_back((v, i));
        }
    }
    while let Some(((q, n), who)) = queue.pop_front() {
        for (e, to) in graph.successors(q, n) {
            if tally.got_past(to, e) {
                continue;
            }
            assign(e, who, &mut owner);
            let v = (to, cfa.edge(e).dst);
            if !is_reached(&v) && seen.insert(v) {
                queue.push_back((v, who));
            }
        }
    }
    owner
}

/// What stopped the paths at a blocking edge tried as `at` with `cuts` on it, and how many were cut.
fn obstacle_at(at: Attempts, cuts: Cuts) -> (Obstacle, u64) {
    if at.refused > 0 {
        (Obstacle::Infeasible, 0)
    } else if cuts.other > 0 {
        // Before undefined behaviour: where both cut paths (a callback that may be null or an
        // environment's function), what vcov does not model is what leaves the lines open.
        (Obstacle::Unsupported, cuts.other)
    } else if cuts.undefined > 0 {
        (Obstacle::Undefined, cuts.undefined)
    } else if at.tried > 0 {
        (Obstacle::Unfinished, 0)
    } else {
        (Obstacle::NotTried, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::parse;
    use crate::base::SourceFile;
    use crate::cfa::{build, Cfa, CfaConfig, LineRule};
    use crate::cfront::parse_program;
    use crate::cfront::types::DataModel;

    const PROGRAM: &str = "extern int f(void);\n\
                           int main(void) {\n\
                           \x20 int x = f();\n\
                           \x20 if (x == 1) {\n\
                           \x20   x = 2;\n\
                           \x20   if (x == 3) {\n\
                           \x20     x = 4;\n\
                           \x20   }\n\
                           \x20 }\n\
                           \x20 return x;\n\
                           }\n";
    /// Everything explored, without `__TRUE`: the product is the CFA in one state.
    const AUTOMATON: &str = "OBSERVER AUTOMATON AssumptionAutomaton\nINITIAL STATE ARG0;\n\
                             STATE USEFIRST ARG0 :\n    TRUE -> GOTO ARG0;\nEND AUTOMATON\n";

    fn edge(cfa: &Cfa, text: &str) -> EdgeId {
        cfa.edges().find(|(_, e)| &*e.text == text).map(|(id, _)| id).unwrap_or_else(|| panic!("no edge {text}"))
    }

    /// Every edge from the entry up to and including `last` (a path without branches before it).
    fn passed_up_to(cfa: &Cfa, tally: &mut Tally, q: StateId, last: EdgeId) {
        let mut n = cfa.entry();
        loop {
            let e = cfa.out_edges(n)[0];
            let e = if cfa.out_edges(n).contains(&last) { last } else { e };
            tally.tried(q, e);
            tally.passed(q, e);
            if e == last {
                return;
            }
            n = cfa.edge(e).dst;
        }
    }

    #[test]
    fn each_undecided_line_goes_to_the_nearest_edge_no_path_got_past() {
        let (mut prog, _) = parse_program(SourceFile::new("t.c", PROGRAM.to_string()), DataModel::Ilp32).unwrap();
        let (cfa, _) = build(&mut prog, &CfaConfig::default()).unwrap();
        let (aut, _) = parse(&SourceFile::new("aa.txt", AUTOMATON.to_string())).unwrap();
        let names = prog.funcs.iter().map(|f| f.name.clone()).collect();
        let a = Analysis::new(&aut, &cfa, names, LineRule::Spanned);
        let q = aut.initial;
        let (is_one, is_three) = (edge(&cfa, "[x == 1]"), edge(&cfa, "[x == 3]"));

        // Paths got into the branch and past `x = 2;`, and found `x == 3` infeasible each time.
        let mut tally = Tally::default();
        passed_up_to(&cfa, &mut tally, q, is_one);
        let set_two = edge(&cfa, "x = 2;");
        tally.tried(q, set_two);
        tally.passed(q, set_two);
        for _ in 0..3 {
            tally.tried(q, is_three);
            tally.refused(q, is_three);
        }
        let u = explain(&a, &tally, &[5, 7, 10]);
        assert_eq!(u.reached, [5]);
        assert_eq!(u.blocked.len(), 2, "{u:?}");
        let b = &u.blocked[0];
        assert_eq!((b.edge, b.obstacle, b.tried, b.lines.as_slice()), (is_three, Obstacle::Infeasible, 3, &[7][..]));
        // `return x;` is nearest behind the other arm of the same branch, never tried.
        assert_eq!(u.blocked[1].obstacle, Obstacle::NotTried);
        assert_eq!(u.blocked[1].lines, [10]);

        // No path got past `f()`: every line lies behind the branch at line 4, the nearest, and
        // none behind `x == 3` further on.
        let mut tally = Tally::default();
        passed_up_to(&cfa, &mut tally, q, cfa.in_edges(cfa.edge(is_one).src)[0]);
        tally.tried(q, is_one);
        tally.cut(is_one, true);
        let u = explain(&a, &tally, &[5, 7]);
        assert!(u.reached.is_empty() && u.elsewhere.is_empty(), "{u:?}");
        assert_eq!(u.blocked.len(), 1, "{u:?}");
        assert_eq!((u.blocked[0].edge, u.blocked[0].obstacle, u.blocked[0].cut), (is_one, Obstacle::Undefined, 1));
        assert_eq!(u.blocked[0].lines, [5, 7]);

        // Before any path: everything lies behind the program's first edge.
        let u = explain(&a, &Tally::default(), &[7]);
        assert_eq!(u.blocked.len(), 1, "{u:?}");
        assert_eq!((u.blocked[0].edge, u.blocked[0].obstacle), (cfa.out_edges(cfa.entry())[0], Obstacle::NotTried));
        assert_eq!(u.blocked[0].lines, [7]);
    }
}
