//! Reach sets (the least fixpoint of the paper's `Reach((s_a, l))`), scores, and the over-approximation.
//!
//! `Reach(n)` is the set of CFA locations reachable from product node `n` without entering `__FALSE`.
//! After `__TRUE` nothing restricts the program, so the reach of a `__TRUE` leaf is computed on the CFA:
//! the locations reachable inside the current function (callees included, continuing after a call only
//! if the callee can return) and, if the function's exit is among them, the reach of the return site of
//! the call on top of the stack. Both graphs are solved over their SCC condensation with bitsets,
//! sinks first; a bitset is dropped as soon as every node that needs it has used it.

use std::collections::HashMap;

use fixedbitset::FixedBitSet;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::DiGraph;

use super::{Product, ProductNodeId, StackId, Stacks};
use crate::automaton::Automaton;
use crate::cfa::{Cfa, EdgeId, EdgeKind, LineRule, NodeId};

/// Reach sets of `__TRUE` leaves: locations reachable on the CFA from (node, stack).
pub struct TrueRegion<'a> {
    cfa: &'a Cfa,
    /// Local reach of the queried CFA nodes.
    local: HashMap<NodeId, FixedBitSet>,
    memo: HashMap<(NodeId, StackId), FixedBitSet>,
}

impl<'a> TrueRegion<'a> {
    /// Prepares the local reach of `queries` (CFA nodes whose reach will be asked for).
    pub fn new(cfa: &'a Cfa, queries: &[NodeId]) -> Self {
        let n = cfa.n_nodes();
        let returns = returning_functions(cfa);
        // The local graph: intra-procedural edges, call node -> callee entry, and call node -> return
        // node when the callee can return.
        let mut g = DiGraph::<(), ()>::with_capacity(n, cfa.n_edges());
        for _ in 0..n {
            g.add_node(());
        }
        for (_, e) in cfa.edges() {
            match e.kind {
                EdgeKind::Return(_) | EdgeKind::Summary(_) => {}
                EdgeKind::Call(cs) => {
                    g.add_edge(e.src.0.into(), e.dst.0.into(), ());
                    let site = cfa.call_site(cs);
                    if let (true, Some(ret)) = (returns[site.callee.idx()], site.return_node) {
                        g.add_edge(e.src.0.into(), ret.0.into(), ());
                    }
                }
                _ => {
                    g.add_edge(e.src.0.into(), e.dst.0.into(), ());
                }
            }
        }
        let mut needed = vec![false; n];
        for q in queries {
            needed[q.idx()] = true;
        }
        let sets = solve_dag(&g, n, |v, set| set.insert(v), &needed);
        let local = queries.iter().map(|&q| (q, sets[&q.idx()].clone())).collect();
        TrueRegion { cfa, local, memo: HashMap::new() }
    }

    /// The locations reachable from `node` with call stack `stack` (both must have been queried).
    pub fn reach(&mut self, stacks: &Stacks, node: NodeId, stack: StackId) -> FixedBitSet {
        if let Some(r) = self.memo.get(&(node, stack)) {
            return r.clone();
        }
        let mut set = self.local[&node].clone();
        let exit = self.cfa.func(self.cfa.node(node).func).expect("defined").exit;
        if set.contains(exit.idx()) {
            if let Some((cs, rest)) = stacks.top(stack) {
                if let Some(ret) = self.cfa.call_site(cs).return_node {
                    let outer = self.reach(stacks, ret, rest);
                    set.union_with(&outer);
                }
            }
        }
        self.memo.insert((node, stack), set.clone());
        set
    }
}

/// The edges taken from the CFA nodes of `nodes` (the `__TRUE` region), calls included and returns
/// left out (`TrueRegion` reaches the return node of a call over the call itself).
pub fn region_edges<'c>(cfa: &'c Cfa, nodes: &'c FixedBitSet) -> impl Iterator<Item = crate::cfa::EdgeId> + 'c {
    nodes.ones().flat_map(move |v| {
        cfa.out_edges(NodeId::from_idx(v))
            .iter()
            .copied()
            .filter(|&e| !matches!(cfa.edge(e).kind, EdgeKind::Return(_) | EdgeKind::Summary(_)))
    })
}

/// Which functions can return: the exit is reachable from the entry when calls of functions that
/// cannot return are dead ends (least fixpoint, so recursion without a base case does not return).
fn returning_functions(cfa: &Cfa) -> Vec<bool> {
    let n_funcs = cfa.funcs.iter().map(|f| f.func.idx() + 1).max().unwrap_or(0);
    let mut returns = vec![false; n_funcs];
    loop {
        let mut changed = false;
        for f in &cfa.funcs {
            if returns[f.func.idx()] {
                continue;
            }
            let mut seen = vec![false; cfa.n_nodes()];
            let mut stack = vec![f.entry];
            seen[f.entry.idx()] = true;
            while let Some(v) = stack.pop() {
                for &e in cfa.out_edges(v) {
                    let edge = cfa.edge(e);
                    let next = match edge.kind {
                        EdgeKind::Call(cs) => {
                            let site = cfa.call_site(cs);
                            match site.return_node {
                                Some(r) if returns[site.callee.idx()] => r,
                                _ => continue,
                            }
                        }
                        EdgeKind::Return(_) | EdgeKind::Summary(_) => continue,
                        _ => edge.dst,
                    };
                    if !seen[next.idx()] {
                        seen[next.idx()] = true;
                        stack.push(next);
                    }
                }
            }
            if seen[f.exit.idx()] {
                returns[f.func.idx()] = true;
                changed = true;
            }
        }
        if !changed {
            return returns;
        }
    }
}

/// Solves a union problem over the SCC condensation of `g`, sinks first.
///
/// For every vertex `v` of `g` marked in `needed`, the union of `own(w)` over the vertices `w`
/// reachable from `v` (including `v`), as a bitset of `width` bits.
pub fn solve_dag(
    g: &DiGraph<(), ()>,
    width: usize,
    own: impl Fn(usize, &mut FixedBitSet),
    needed: &[bool],
) -> HashMap<usize, FixedBitSet> {
    // Kosaraju's algorithm in petgraph is iterative: the product of a large automaton has paths of
    // tens of thousands of nodes, deeper than a thread's stack can recurse (`vcov compare` runs
    // each configuration on a thread of its own).
    let sccs = kosaraju_scc(g);
    let mut scc_of = vec![0usize; g.node_count()];
    for (i, scc) in sccs.iter().enumerate() {
        for v in scc {
            scc_of[v.index()] = i;
        }
    }
    // How many other SCCs still need each SCC's set (successor sets are freed after their last use).
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); sccs.len()];
    let mut pending = vec![0usize; sccs.len()];
    for (i, scc) in sccs.iter().enumerate() {
        let mut s: Vec<usize> =
            scc.iter().flat_map(|v| g.neighbors(*v)).map(|w| scc_of[w.index()]).filter(|&j| j != i).collect();
        s.sort_unstable();
        s.dedup();
        for &j in &s {
            pending[j] += 1;
        }
        succs[i] = s;
    }
    let mut sets: Vec<Option<FixedBitSet>> = vec![None; sccs.len()];
    let mut res = HashMap::new();
    // The SCCs come sinks first (postorder).
    for (i, scc) in sccs.iter().enumerate() {
        let mut set = FixedBitSet::with_capacity(width);
        for v in scc {
            own(v.index(), &mut set);
        }
        for &j in &succs[i] {
            set.union_with(sets[j].as_ref().expect("successor solved first"));
            pending[j] -= 1;
            if pending[j] == 0 {
                sets[j] = None;
            }
        }
        for v in scc {
            if needed[v.index()] {
                res.insert(v.index(), set.clone());
            }
        }
        if pending[i] > 0 {
            sets[i] = Some(set);
        }
    }
    res
}

/// What the Reach fixpoint gives.
#[derive(Clone, Debug)]
pub struct ReachInfo {
    /// `|Reach(n)|` for every product node.
    pub node_reach: Vec<u32>,
    /// For every automaton state, the size of its largest Reach set (0 if unreached).
    pub state_score: Vec<u32>,
    /// Edges of the over-approximation (taken outside `__FALSE`), ascending.
    pub over_edges: Vec<crate::cfa::EdgeId>,
    /// Lines of the over-approximation, ascending.
    pub over_lines: Vec<u32>,
    /// Lines of the over-approximation that only edges into `__FALSE` count for, ascending: the
    /// paper's Reach counts the location an edge leaves, but an execution's lines end before the
    /// edge on which the automaton enters `__FALSE` (`coverage::Analysis::measure`), so no execution
    /// covers one of these inside the explored region.
    pub frontier_lines: Vec<u32>,
}

impl ReachInfo {
    /// Solves the Reach fixpoint on `product`.
    pub fn compute(product: &Product, aut: &Automaton, cfa: &Cfa, rule: LineRule) -> ReachInfo {
        let n_cfa = cfa.n_nodes();
        let is_true = |i: usize| Some(product.nodes[i].aut) == product.true_state;
        let is_false = |i: usize| Some(product.nodes[i].aut) == product.false_state;

        // Reach of the `__TRUE` leaves, on the CFA.
        let mut queries: Vec<NodeId> = Vec::new();
        for (i, n) in product.nodes.iter().enumerate() {
            if is_true(i) {
                queries.push(n.cfa);
                let mut s = n.stack;
                while let Some((cs, rest)) = product.stacks.top(s) {
                    if let Some(r) = cfa.call_site(cs).return_node {
                        queries.push(r);
                    }
                    s = rest;
                }
            }
        }
        queries.sort_unstable();
        queries.dedup();
        let mut region = TrueRegion::new(cfa, &queries);
        let mut true_sets: HashMap<usize, FixedBitSet> = HashMap::new();
        let mut true_union = FixedBitSet::with_capacity(n_cfa);
        for (i, n) in product.nodes.iter().enumerate() {
            if is_true(i) {
                let set = region.reach(&product.stacks, n.cfa, n.stack);
                true_union.union_with(&set);
                true_sets.insert(i, set);
            }
        }

        // The product graph, solved sinks first.
        let mut g = DiGraph::<(), ()>::with_capacity(product.nodes.len(), product.nodes.len());
        for _ in &product.nodes {
            g.add_node(());
        }
        for (i, succ) in product.succ.iter().enumerate() {
            for e in succ {
                g.add_edge((i as u32).into(), e.to.0.into(), ());
            }
        }
        let needed = vec![true; product.nodes.len()];
        let own = |v: usize, set: &mut FixedBitSet| {
            if is_false(v) {
                return;
            }
            if let Some(t) = true_sets.get(&v) {
                set.union_with(t);
            } else {
                set.insert(product.nodes[v].cfa.idx());
            }
        };
        let sets = solve_dag(&g, n_cfa, own, &needed);
        let mut node_reach = vec![0u32; product.nodes.len()];
        let mut state_score = vec![0u32; aut.states.len()];
        for (i, set) in &sets {
            let size = set.count_ones(..) as u32;
            node_reach[*i] = size;
            let q = product.nodes[*i].aut.idx();
            state_score[q] = state_score[q].max(size);
        }

        // Every edge taken from a node outside `__FALSE`, plus the edges of the `__TRUE` region; of
        // them, those an execution's lines can count for (not into `__FALSE`).
        let (mut edges, mut inner) = (Vec::new(), Vec::new());
        for (i, succ) in product.succ.iter().enumerate() {
            if !is_false(i) {
                edges.extend(succ.iter().map(|e| e.edge));
                inner.extend(succ.iter().filter(|e| !is_false(e.to.idx())).map(|e| e.edge));
            }
        }
        let region: Vec<EdgeId> = region_edges(cfa, &true_union).collect();
        edges.extend(&region);
        inner.extend(region);
        edges.sort_unstable();
        edges.dedup();
        let lines = cfa.lines_of_edges(&edges, rule);
        let inner_lines = cfa.lines_of_edges(&inner, rule);
        let frontier_lines = lines.iter().copied().filter(|l| inner_lines.binary_search(l).is_err()).collect();
        ReachInfo { node_reach, state_score, over_edges: edges, over_lines: lines, frontier_lines }
    }

    /// The score of product node `n` (its Reach size).
    pub fn of(&self, n: ProductNodeId) -> u32 {
        self.node_reach[n.idx()]
    }
}
