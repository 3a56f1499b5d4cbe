//! How far each location is from the exit of its function, counting a call of a function with a
//! body as the shortest way through the callee: what a search that only wants a path to the end of
//! the program orders its candidates by.
//!
//! Invariant: `u32::MAX` means no path of the CFA leads from the location to its function's exit
//! (an error loop, a call that never returns); every other value is the fewest edges on such a path.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Cfa, EdgeKind, NodeId};

/// For every location, the fewest edges from it to the exit of its function, where a call of a
/// function with a body (its summary edge) counts one edge plus the fewest edges from the callee's
/// entry to its exit; `u32::MAX` where the exit is out of reach.
pub fn exit_distances(cfa: &Cfa) -> Vec<u32> {
    let n = cfa.n_nodes();
    // The cost of passing through each function, refined until no call gets cheaper: a round
    // computes every function with the costs of the previous one (recursive functions converge as
    // the costs only decrease).
    let mut through = vec![u32::MAX; cfa.funcs.len()];
    let index_of = |f| cfa.funcs.iter().position(|fc| fc.func == f);
    let callee_index: Vec<Option<usize>> = cfa
        .edges()
        .map(|(_, e)| match e.kind {
            EdgeKind::Summary(cs) => index_of(cfa.call_site(cs).callee),
            _ => None,
        })
        .collect();
    loop {
        let dist = shortest_to_exits(cfa, n, |e| match cfa.edge(e).kind {
            EdgeKind::Call(_) | EdgeKind::Return(_) => None,
            EdgeKind::Summary(_) => {
                let cost = callee_index[e.idx()].map_or(u32::MAX, |i| through[i]);
                (cost != u32::MAX).then(|| cost.saturating_add(1))
            }
            _ => Some(1),
        });
        let next: Vec<u32> = cfa.funcs.iter().map(|f| dist[f.entry.idx()]).collect();
        if next == through {
            return dist;
        }
        through = next;
    }
}

/// Dijkstra backwards from every function's exit over the edges `weight` admits.
fn shortest_to_exits(cfa: &Cfa, n: usize, weight: impl Fn(super::EdgeId) -> Option<u32>) -> Vec<u32> {
    let mut dist = vec![u32::MAX; n];
    let mut heap = BinaryHeap::new();
    for f in &cfa.funcs {
        dist[f.exit.idx()] = 0;
        heap.push(Reverse((0u32, f.exit)));
    }
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v.idx()] {
            continue;
        }
        for &e in cfa.in_edges(v) {
            let Some(w) = weight(e) else { continue };
            let src: NodeId = cfa.edge(e).src;
            let nd = d.saturating_add(w);
            if nd < dist[src.idx()] {
                dist[src.idx()] = nd;
                heap.push(Reverse((nd, src)));
            }
        }
    }
    dist
}
