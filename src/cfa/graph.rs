//! The mutable graph the CFA is built in: edges can be removed and redirected until `freeze`.

use super::{BlankKind, CallSite, Cfa, Edge, EdgeId, EdgeKind, Era, FuncCfa, Node, NodeId, NodeKind};
use crate::cfront::ir::FuncId;

/// The first and last line of an edge, `None` for an edge without a real location (`Edge::lines`).
type Lines = Option<(u32, u32)>;

/// A CFA under construction. Removed edges leave holes that `freeze` compacts.
pub(super) struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Option<Edge>>,
    pub out: Vec<Vec<EdgeId>>,
    pub inc: Vec<Vec<EdgeId>>,
}

impl Graph {
    pub fn new() -> Graph {
        Graph { nodes: Vec::new(), edges: Vec::new(), out: Vec::new(), inc: Vec::new() }
    }

    pub fn new_node(&mut self, func: FuncId, kind: NodeKind) -> NodeId {
        self.nodes.push(Node { func, kind, loop_head: false, loop_stmt: None, label: None, postorder: 0 });
        self.out.push(Vec::new());
        self.inc.push(Vec::new());
        NodeId::from_idx(self.nodes.len() - 1)
    }

    pub fn edge(&self, e: EdgeId) -> &Edge {
        self.edges[e.idx()].as_ref().expect("live edge")
    }

    /// CPAchecker's `isReachableNode`: a node counts as reachable while building if it has an entering
    /// edge, or is an entry, a loop head or a label node.
    pub fn is_reachable(&self, n: NodeId) -> bool {
        let node = &self.nodes[n.idx()];
        !self.inc[n.idx()].is_empty() || node.kind == NodeKind::Entry || node.loop_head || node.label.is_some()
    }

    /// Adds an edge without any check.
    pub fn add_unchecked(&mut self, src: NodeId, dst: NodeId, kind: EdgeKind, text: &str, lines: Lines) -> EdgeId {
        let id = EdgeId::from_idx(self.edges.len());
        let era = if matches!(kind, EdgeKind::Blank(BlankKind::DoBody)) { Era::Since23 } else { Era::All };
        self.edges.push(Some(Edge { src, dst, kind, text: text.into(), text2: None, era, lines }));
        self.out[src.idx()].push(id);
        self.inc[dst.idx()].push(id);
        id
    }

    /// Adds an edge only if its source counts as reachable (CPAchecker drops edges of dead code).
    pub fn add(&mut self, src: NodeId, dst: NodeId, kind: EdgeKind, text: &str, lines: Lines) -> Option<EdgeId> {
        self.is_reachable(src).then(|| self.add_unchecked(src, dst, kind, text, lines))
    }

    /// Gives edge `e` (if it was added) CPAchecker ≥ 2.0's text `text2`, kept only where it differs
    /// from the 1.x text.
    pub fn set_text2(&mut self, e: Option<EdgeId>, text2: &str) {
        let Some(e) = e else { return };
        let edge = self.edges[e.idx()].as_mut().expect("live edge");
        edge.text2 = (*edge.text != *text2).then(|| text2.into());
    }

    /// Adds an edge without any check whose texts (both generations), era and lines are those of
    /// `like`.
    pub fn add_like(&mut self, src: NodeId, dst: NodeId, kind: EdgeKind, like: &Edge) -> EdgeId {
        let id = self.add_unchecked(src, dst, kind, &like.text, like.lines);
        let edge = self.edges[id.idx()].as_mut().expect("live edge");
        edge.text2 = like.text2.clone();
        edge.era = like.era;
        id
    }

    /// Marks edge `e` (if it was added) as built by the versions of `era` only.
    pub fn set_era(&mut self, e: Option<EdgeId>, era: Era) {
        if let Some(e) = e {
            self.edges[e.idx()].as_mut().expect("live edge").era = era;
        }
    }

    /// A blank edge with empty text.
    pub fn blank(&mut self, src: NodeId, dst: NodeId, kind: BlankKind, lines: Lines) -> Option<EdgeId> {
        self.add(src, dst, EdgeKind::Blank(kind), "", lines)
    }

    pub fn remove_edge(&mut self, e: EdgeId) {
        let edge = self.edges[e.idx()].take().expect("edge removed twice");
        self.out[edge.src.idx()].retain(|&x| x != e);
        self.inc[edge.dst.idx()].retain(|&x| x != e);
    }

    /// Removes the edges `es` (distinct) at once: each list of leaving and entering edges is filtered
    /// once, where `remove_edge` one by one would filter a node's list once per edge (quadratic at a
    /// join node that hundreds of nested `if`s enter).
    pub fn remove_edges(&mut self, es: &[EdgeId]) {
        let mut nodes = Vec::with_capacity(2 * es.len());
        for &e in es {
            let edge = self.edges[e.idx()].take().expect("edge removed twice");
            nodes.push(edge.src);
            nodes.push(edge.dst);
        }
        nodes.sort_unstable();
        nodes.dedup();
        // The removed edges are the ones no longer there.
        let edges = &self.edges;
        for n in nodes {
            self.out[n.idx()].retain(|x| edges[x.idx()].is_some());
            self.inc[n.idx()].retain(|x| edges[x.idx()].is_some());
        }
    }

    /// Removes `n`'s leaving edges and, recursively, successors left without entering edges
    /// (CPAchecker's `removeChainOfNodesFromCFA`); does nothing if `n` still has entering edges.
    pub fn remove_chain(&mut self, n: NodeId) {
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            if !self.inc[n.idx()].is_empty() {
                continue;
            }
            let leaving = std::mem::take(&mut self.out[n.idx()]);
            for e in leaving.into_iter().rev() {
                let edge = self.edges[e.idx()].take().expect("live edge");
                self.inc[edge.dst.idx()].retain(|&x| x != e);
                stack.push(edge.dst);
            }
        }
    }

    /// Nodes reachable from `start` inside its function (summary edges stand for calls; return edges
    /// are followed), marked in `seen` (as long as the node list) and listed. Nodes already marked are
    /// not entered, so marks shared over several starts give the union of what they reach.
    pub fn reachable_in_function(&self, start: NodeId, seen: &mut [bool]) -> Vec<NodeId> {
        let mut reached = vec![start];
        seen[start.idx()] = true;
        let mut next = 0;
        while let Some(&n) = reached.get(next) {
            next += 1;
            for &e in &self.out[n.idx()] {
                let edge = self.edge(e);
                if matches!(edge.kind, EdgeKind::Call(_)) {
                    continue;
                }
                if !seen[edge.dst.idx()] {
                    seen[edge.dst.idx()] = true;
                    reached.push(edge.dst);
                }
            }
        }
        reached
    }

    /// Compacts ids, keeping only the nodes marked in `keep` and the edges between them.
    pub fn freeze(
        self,
        keep: &[bool],
        mut funcs: Vec<FuncCfa>,
        mut call_sites: Vec<CallSite>,
        main: FuncId,
        n_funcs: usize,
    ) -> Cfa {
        let mut node_map = vec![None; self.nodes.len()];
        let mut nodes = Vec::new();
        for (i, node) in self.nodes.into_iter().enumerate() {
            if keep[i] {
                node_map[i] = Some(NodeId::from_idx(nodes.len()));
                nodes.push(node);
            }
        }
        let mut edge_map = vec![None; self.edges.len()];
        let mut edges = Vec::new();
        for (i, edge) in self.edges.into_iter().enumerate() {
            let Some(mut edge) = edge else { continue };
            let (Some(src), Some(dst)) = (node_map[edge.src.idx()], node_map[edge.dst.idx()]) else { continue };
            edge.src = src;
            edge.dst = dst;
            edge_map[i] = Some(EdgeId::from_idx(edges.len()));
            edges.push(edge);
        }
        let remap_list =
            |list: &Vec<EdgeId>| -> Vec<EdgeId> { list.iter().filter_map(|e| edge_map[e.idx()]).collect() };
        let mut out = vec![Vec::new(); nodes.len()];
        let mut inc = vec![Vec::new(); nodes.len()];
        for (old, new) in node_map.iter().enumerate() {
            if let Some(new) = new {
                out[new.idx()] = remap_list(&self.out[old]);
                inc[new.idx()] = remap_list(&self.inc[old]);
            }
        }
        for f in &mut funcs {
            f.entry = node_map[f.entry.idx()].expect("entries are kept");
            f.exit = node_map[f.exit.idx()].expect("exits are kept");
        }
        // Call sites whose call edge was dropped with dead code disappear; ids are renumbered.
        let mut cs_map = vec![None; call_sites.len()];
        let mut kept_sites = Vec::new();
        for (i, mut cs) in call_sites.drain(..).enumerate() {
            let Some(call_edge) = edge_map[cs.call_edge.idx()] else { continue };
            cs.call_edge = call_edge;
            cs.return_edge = cs.return_edge.and_then(|e| edge_map[e.idx()]);
            cs.return_node = cs.return_node.and_then(|n| node_map[n.idx()]);
            cs_map[i] = Some(super::CallSiteId::from_idx(kept_sites.len()));
            kept_sites.push(cs);
        }
        let mut dead_edges = Vec::new();
        for (i, e) in edges.iter_mut().enumerate() {
            match &mut e.kind {
                EdgeKind::Call(cs) | EdgeKind::Return(cs) | EdgeKind::Summary(cs) => match cs_map[cs.idx()] {
                    Some(n) => *cs = n,
                    None => dead_edges.push(i),
                },
                _ => {}
            }
        }
        debug_assert!(dead_edges.is_empty(), "call-site edges without their call edge: {dead_edges:?}");
        let mut func_index = vec![None; n_funcs];
        for (i, f) in funcs.iter().enumerate() {
            func_index[f.func.idx()] = Some(i);
        }
        Cfa {
            nodes,
            edges,
            out,
            inc,
            funcs,
            func_index,
            call_sites: kept_sites,
            main,
            library_calls: Default::default(),
            callbacks: Default::default(),
            library_init: Vec::new(),
        }
    }
}
