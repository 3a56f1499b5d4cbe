//! `CoverageGuide`: how the executor is steered along the automaton (which paths to prune, which to
//! complete only, in which order), and which lines each product state can still reach.

use super::*;

/// Where a path is with respect to the automaton.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) enum Pos {
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
    pub(super) pos: Pos,
    pub(super) stack: StackId,
    /// Lines on the path that were uncovered when it took them (re-checked as coverage grows).
    pub(super) fresh: Vec<u32>,
    /// Distinguishes paths with fresh lines, so the state cache prunes one only where no execution
    /// can complete it (0 when `fresh` is empty; see `Guide::exclusive`).
    pub(super) unique: u64,
}

/// The coverage layer's guide of the executor.
#[derive(Clone)]
pub struct CoverageGuide<'a> {
    pub(super) a: &'a Analysis<'a>,
    pub(super) generate: Generate,
    pub(super) stacks: Stacks,
    pub(super) index: std::collections::HashMap<ProductNode, u32>,
    pub(super) uncovered: FixedBitSet,
    pub(super) n_uncovered: usize,
    /// For every product node, the lines it can still cover (edges whose target is not `__FALSE`).
    pub(super) node_lines: Vec<FixedBitSet>,
    /// For every CFA node, the lines of edges reachable from it (any call stack): the `__TRUE` region.
    pub(super) cfa_lines: Option<Vec<FixedBitSet>>,
    /// The violations inside the explored region (`Violations`).
    pub(super) violations: Violations,
    /// Whether the search still looks for violations: the region has a way to one and none was
    /// found yet (or the search goes on after bugs).
    pub(super) violations_open: bool,
    pub(super) next_unique: u64,
    /// What the search saw of each edge, to explain the lines it leaves undecided.
    pub(super) tally: Tally,
}

/// Where a path may violate the property inside the explored region: the targets a search looks for
/// besides lines (`symex::World::violating_edges`).
#[derive(Clone)]
pub(super) struct Violations {
    /// For every CFA edge, whether a path may end at a violation on it.
    pub(super) edges: Vec<bool>,
    /// For every product node, whether a path from it can take such an edge into a node outside
    /// `__FALSE` (the `__TRUE` leaves: whether the CFA leads from them to one).
    pub(super) from_node: FixedBitSet,
    /// For every CFA node, whether a CFA path (any call stack) leads from it to such an edge.
    pub(super) from_cfa: FixedBitSet,
    /// Whether the initial product node is one of `from_node`: the region holds a violation's place.
    pub(super) in_region: bool,
}

impl<'a> CoverageGuide<'a> {
    /// Records how a path ended on its last edge: infeasible there, or cut.
    pub(super) fn tally_end(&mut self, outcome: &symex::PathOutcome<Tag>) {
        let Some(last) = outcome.path.last() else { return };
        match (&outcome.end, outcome.tag.pos) {
            (PathEnd::Infeasible, Pos::At(q)) => self.tally.refused(q, last),
            (PathEnd::Cut(r), _) => self.tally.cut(last, matches!(r, CutReason::Undefined(_))),
            _ => {}
        }
    }

    pub(super) fn new(a: &'a Analysis<'a>, prog: &Program, generate: Generate, property: symex::Property) -> Self {
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

    pub(super) fn is_uncovered(&self, line: u32) -> bool {
        (line as usize) < self.uncovered.len() && self.uncovered.contains(line as usize)
    }

    /// Removes lines decided without an execution (proven not coverable) from the targets.
    pub(super) fn mark_proven(&mut self, lines: &[u32]) {
        self.mark_covered(lines);
    }

    pub(super) fn mark_covered(&mut self, lines: &[u32]) {
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
    pub(super) fn nothing_left(&self) -> bool {
        self.n_uncovered == 0 && !self.violations_open
    }

    pub(super) fn is_true(&self, q: StateId) -> bool {
        Some(q) == self.a.product.true_state
    }

    /// Whether a path at CFA node `n` with `tag` can still reach an uncovered line.
    pub(super) fn ahead(&self, tag: &Tag, n: NodeId) -> bool {
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
    pub(super) fn violation_ahead(&self, tag: &Tag, n: NodeId) -> bool {
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

    pub(super) fn score(&self, tag: &Tag) -> u32 {
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
    pub(super) fn new(a: &Analysis, edges: Vec<bool>) -> Self {
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
pub(super) fn product_line_reach(a: &Analysis, width: usize, cfa_lines: Option<&[FixedBitSet]>) -> Vec<FixedBitSet> {
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
pub(super) fn cfa_line_reach(a: &Analysis, width: usize) -> Option<Vec<FixedBitSet>> {
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
pub(super) fn dag_union(g: &DiGraph<(), ()>, own: Vec<FixedBitSet>) -> Vec<FixedBitSet> {
    let width = own.first().map_or(0, FixedBitSet::len);
    let needed = vec![true; g.node_count()];
    let mut sets = solve_dag(g, width, |v, set| set.union_with(&own[v]), &needed);
    (0..g.node_count()).map(|v| sets.remove(&v).expect("every vertex was needed")).collect()
}
