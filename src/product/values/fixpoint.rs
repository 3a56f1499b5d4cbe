//! The fixpoint over the product: states flow along the edges an execution can take, through the
//! product and through the places (CFA node, call stack) of the `__TRUE` region behind it, found as
//! the analysis reaches them, and join at each node until none grows; only the edges from which a
//! way leads on to the end of `main` count.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;

use fixedbitset::FixedBitSet;

use super::domain::{join, Env};
use super::tracked::{
    call_components, constant_globals, recursive_functions, summarized_arrays, tracked_vars, VarUses,
};
use super::transfer::{Analyser, Out};
use super::{Feasible, Undefined};
use crate::cfa::{Cfa, EdgeId, EdgeKind, NodeId};
use crate::cfront::ir::Program;
use crate::product::{stack_after, takeable_edges, Product, StackId, Stacks};

/// Places of the `__TRUE` region the analysis follows at most; beyond, it gives up (no line is
/// dropped).
const MAX_TRUE_NODES: usize = 4_000_000;

/// Runs the analysis on `product`; `None` if the `__TRUE` region has more than `MAX_TRUE_NODES`
/// places. With `undefined_calls`, the call edges of call sites that are undefined behaviour
/// (`CallSite::incompatible_argument`) are taken by no execution either.
///
/// `give_up` is asked every few hundred visits: when it says so (a limit of the run passed), the
/// analysis stops without a result.
pub fn analyse(
    product: &Product,
    cfa: &Cfa,
    prog: &Program,
    rules: Undefined,
    give_up: &dyn Fn() -> bool,
) -> Option<Feasible> {
    let undefined: Vec<bool> =
        cfa.call_sites.iter().map(|cs| rules.calls && cs.incompatible_argument(prog).is_some()).collect();
    let uses = VarUses::of(cfa, prog);
    let tracked = tracked_vars(prog, &uses);
    let arrays = summarized_arrays(prog, &uses);
    let components = call_components(cfa, prog.funcs.len());
    let constants = constant_globals(cfa, prog, &uses);
    let recursive = recursive_functions(cfa, prog.funcs.len());
    let a = Analyser {
        cfa,
        prog,
        tracked: &tracked,
        arrays: &arrays,
        constants: &constants,
        components: &components,
        undefined: &undefined,
        null_access: rules.null_access,
        cut_at_null: std::cell::Cell::new(false),
    };
    let mut fixpoint = Fixpoint::new(product, cfa, &recursive);
    fixpoint.run(&a, give_up)?;
    Some(fixpoint.feasible(a.cut_at_null.get()))
}

/// The analysis while it runs. Its nodes `0..n` are the product's nodes; the rest are places (CFA
/// node, call stack) of the `__TRUE` region, with their successors (edge, node) computed when first
/// visited.
struct Fixpoint<'p> {
    product: &'p Product,
    cfa: &'p Cfa,
    /// For every function, whether it is on a cycle of the call graph: the `__TRUE` region does not
    /// follow calls of it.
    recursive: &'p [bool],
    /// The call stacks of the product and of the `__TRUE` region.
    stacks: Stacks,
    /// For every node, what the variables may hold there (`None`: no execution reached it yet).
    states: Vec<Option<Rc<Env>>>,
    places: Places,
    /// For every product node, which of its successor edges (by index) an execution can take.
    edges: Vec<FixedBitSet>,
    /// For every place of the `__TRUE` region, which of its successors (by index) an execution can
    /// take.
    place_edges: Vec<FixedBitSet>,
    /// The places where calls were not followed, with their node.
    unfollowed: Vec<(NodeId, StackId, usize)>,
    queued: FixedBitSet,
    /// The node numbered first first: nodes are numbered as they are discovered, from the initial
    /// one on, so a node mostly waits for the joins into it from the nodes before it (far fewer
    /// visits than first in, first out).
    work: BinaryHeap<Reverse<usize>>,
}

impl<'p> Fixpoint<'p> {
    /// The analysis before its first visit: the initial product node (if any) reached with every
    /// variable any value.
    fn new(product: &'p Product, cfa: &'p Cfa, recursive: &'p [bool]) -> Fixpoint<'p> {
        let n = product.nodes.len();
        let mut res = Fixpoint {
            product,
            cfa,
            recursive,
            stacks: product.stacks.clone(),
            states: vec![None; n],
            places: Places::default(),
            edges: product.succ.iter().map(|s| FixedBitSet::with_capacity(s.len())).collect(),
            place_edges: Vec::new(),
            unfollowed: Vec::new(),
            queued: FixedBitSet::with_capacity(n),
            work: BinaryHeap::new(),
        };
        if n > 0 {
            res.states[0] = Some(Rc::new(Env::default()));
            res.work.push(Reverse(0usize));
            res.queued.insert(0);
        }
        res
    }

    /// Visits nodes until no state grows; `None` if `give_up` said so or the `__TRUE` region has
    /// more than `MAX_TRUE_NODES` places.
    fn run(&mut self, a: &Analyser, give_up: &dyn Fn() -> bool) -> Option<()> {
        let n = self.product.nodes.len();
        let mut visits = 0u32;
        while let Some(Reverse(i)) = self.work.pop() {
            visits = visits.wrapping_add(1);
            if visits.is_multiple_of(256) && give_up() {
                return None;
            }
            self.queued.set(i, false);
            let Some(env) = self.states[i].clone() else { continue };
            // The successors: product edges, the place a `__TRUE` leaf stands for, or CFA edges.
            let succ: Vec<(EdgeId, usize)> = if i < n {
                if Some(self.product.nodes[i].aut) == self.product.true_state {
                    let node = self.product.nodes[i];
                    let p = self.places.node((node.cfa, node.stack), &mut self.states, &mut self.queued);
                    if self.places.keys.len() > MAX_TRUE_NODES {
                        return None;
                    }
                    self.join_into(p, &env, Out::Same);
                    continue;
                }
                self.product.succ[i].iter().map(|pe| (pe.edge, pe.to.idx())).collect()
            } else {
                self.place_successors(i - n)?
            };
            for (j, (edge, to)) in succ.into_iter().enumerate() {
                let Some(out) = a.transfer(&env, edge) else { continue };
                if i < n {
                    self.edges[i].insert(j);
                } else {
                    self.place_edges[i - n].insert(j);
                }
                self.join_into(to, &env, out);
            }
        }
        Some(())
    }

    /// The successors (CFA edge, node) of place `k`, computed on its first visit; `None` if that
    /// takes the `__TRUE` region past `MAX_TRUE_NODES` places.
    fn place_successors(&mut self, k: usize) -> Option<Vec<(EdgeId, usize)>> {
        if self.places.succ[k].is_none() {
            let cfa = self.cfa;
            let (node, stack) = self.places.keys[k];
            let mut succ = Vec::new();
            for e in takeable_edges(cfa, &self.stacks, stack, node) {
                if let EdgeKind::Call(cs) = cfa.edge(e).kind {
                    if self.recursive[cfa.call_site(cs).callee.idx()] {
                        self.unfollowed.push((node, stack, self.product.nodes.len() + k));
                        continue;
                    }
                }
                let next = stack_after(cfa, &mut self.stacks, stack, e);
                let p = self.places.node((cfa.edge(e).dst, next), &mut self.states, &mut self.queued);
                succ.push((e, p));
            }
            if self.places.keys.len() > MAX_TRUE_NODES {
                return None;
            }
            self.place_edges.resize_with(self.places.keys.len(), FixedBitSet::new);
            self.place_edges[k].grow(succ.len());
            self.places.succ[k] = Some(succ);
        }
        self.places.succ[k].clone()
    }

    /// Joins `out` (the state after an edge from a node with `env`) into the state of node `to`,
    /// queueing it if it grew.
    fn join_into(&mut self, to: usize, env: &Rc<Env>, out: Out) {
        let states = &mut self.states;
        let changed = match &states[to] {
            None => {
                states[to] = Some(match out {
                    Out::Same => env.clone(),
                    Out::New(e) => Rc::new(e),
                });
                true
            }
            Some(old) => {
                let new = match &out {
                    Out::Same => &**env,
                    Out::New(e) => e,
                };
                match join(old, new) {
                    Some(joined) => {
                        states[to] = Some(Rc::new(joined));
                        true
                    }
                    None => false,
                }
            }
        };
        if changed && !self.queued.contains(to) {
            self.queued.insert(to);
            self.work.push(Reverse(to));
        }
    }

    /// What the analysis found once it ran: only edges into nodes from which a way of feasible edges
    /// leads on to the end of `main` count, for an execution that covers a line terminates.
    fn feasible(self, cut_at_null: bool) -> Feasible {
        let product = self.product;
        let live = self.ends_reachable();
        let mut edges = self.edges;
        for (i, feasible) in edges.iter_mut().enumerate() {
            let dead: Vec<usize> = feasible.ones().filter(|&j| !live.contains(product.succ[i][j].to.idx())).collect();
            dead.into_iter().for_each(|j| feasible.set(j, false));
        }
        let mut true_edges = FixedBitSet::with_capacity(self.cfa.n_edges());
        for (k, feasible) in self.place_edges.iter().enumerate() {
            let Some(succ) = self.places.succ[k].as_ref() else { continue };
            for (e, p) in feasible.ones().map(|j| succ[j]) {
                if live.contains(p) {
                    true_edges.insert(e.idx());
                }
            }
        }
        let mut unfollowed: Vec<(NodeId, StackId)> =
            self.unfollowed.into_iter().map(|(node, stack, _)| (node, stack)).collect();
        unfollowed.sort_unstable();
        unfollowed.dedup();
        Feasible { edges, true_edges, unfollowed, stacks: self.stacks, cut_at_null }
    }

    /// The analysis nodes (product nodes, then places of the `__TRUE` region) from which feasible
    /// edges lead to the end of `main` or out of what the analysis follows: into `__FALSE` (the
    /// unexplored region, where an execution may go on to anywhere), a place whose calls it did not
    /// follow, one it never visited, or a product node with no successor although its CFA node has
    /// some (the automaton does not say). Places and nodes where the CFA itself ends elsewhere
    /// (`abort()`) lead nowhere, as for `Analysis::lines_without_exit`.
    fn ends_reachable(&self) -> FixedBitSet {
        let Fixpoint { product, cfa, places, states, edges, place_edges, unfollowed, .. } = self;
        let n = product.nodes.len();
        let total = states.len();
        let main_exit = cfa.func(cfa.main).map(|f| f.exit);
        let open_end = |node: NodeId| Some(node) == main_exit || !cfa.out_edges(node).is_empty();
        let mut live = FixedBitSet::with_capacity(total);
        // Feasible links (to, from), the `__TRUE` leaves' links to their places included.
        let mut links: Vec<(u32, u32)> = Vec::new();
        for i in (0..n).filter(|&i| states[i].is_some()) {
            let node = product.nodes[i];
            if Some(node.aut) == product.true_state {
                if let Some(&p) = places.index.get(&(node.cfa, node.stack)) {
                    links.push((p as u32, i as u32));
                }
            } else if Some(node.aut) == product.false_state || (product.succ[i].is_empty() && open_end(node.cfa)) {
                live.insert(i);
            }
            links.extend(edges[i].ones().map(|j| (product.succ[i][j].to.idx() as u32, i as u32)));
        }
        for (k, &(node, _)) in places.keys.iter().enumerate() {
            match (&places.succ[k], place_edges.get(k)) {
                (Some(succ), Some(feasible)) => {
                    links.extend(feasible.ones().map(|j| (succ[j].1 as u32, (n + k) as u32)));
                    if succ.is_empty() && open_end(node) {
                        live.insert(n + k);
                    }
                }
                _ => live.insert(n + k),
            }
        }
        for &(_, _, i) in unfollowed {
            live.insert(i);
        }
        links.sort_unstable();
        let mut stack: Vec<usize> = live.ones().collect();
        while let Some(t) = stack.pop() {
            let from = links.partition_point(|&(to, _)| (to as usize) < t);
            for &(_, f) in links[from..].iter().take_while(|&&(to, _)| to as usize == t) {
                if !live.put(f as usize) {
                    stack.push(f as usize);
                }
            }
        }
        live
    }
}

/// The places (CFA node, call stack) of the `__TRUE` region the analysis visited: the analysis' node
/// after the product's `n` nodes, `n + k`, is `keys[k]`, its successors (edge, node) are computed on the first visit.
#[derive(Default)]
struct Places {
    keys: Vec<(NodeId, StackId)>,
    index: HashMap<(NodeId, StackId), usize>,
    succ: Vec<Option<Vec<(EdgeId, usize)>>>,
}

impl Places {
    /// The analysis node of place `key`, added (without a state) if new.
    fn node(&mut self, key: (NodeId, StackId), states: &mut Vec<Option<Rc<Env>>>, queued: &mut FixedBitSet) -> usize {
        *self.index.entry(key).or_insert_with(|| {
            self.keys.push(key);
            self.succ.push(None);
            states.push(None);
            queued.grow(states.len());
            states.len() - 1
        })
    }
}
