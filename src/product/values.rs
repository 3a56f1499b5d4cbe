//! A value analysis over the product: which product edges an execution of the program can take,
//! given the values of its integer variables whose address is never taken.
//!
//! The product follows the automaton and the CFA's control flow, not the program's values, so it
//! holds paths no execution takes. An automaton CPAchecker wrote sends every edge its analysis did
//! not explore (most of them infeasible there) to `__TRUE`, and the over-approximation then counts
//! everything the CFA reaches from there: a disconnect handler behind `if (state == 3)` in a state
//! where the environment's `state` is 0. Forward abstract interpretation over the product, with a
//! finite set of values (at most `MAX_VALUES`, else any value) per variable and product node,
//! tells those edges apart: an edge whose condition is false for every value the node can hold is
//! taken by no execution, and neither is anything only behind it.
//!
//! Soundness: the tracked variables are integer variables whose address is never taken (not in an
//! `&` or array decay anywhere in the program), so only the edges that name them change them
//! (assignments, declarations, calls and returns; a call may re-enter its caller's function, whose
//! variables the inner activation shares by name, so returning from it makes the caller's own
//! variables any value: `call_components`); everything
//! else (a read of memory, a call of a function without body, a floating-point value) is any value.
//! The analysis joins at product nodes and each variable's set only grows, to "any value", so it
//! ends. Undefined behaviour in an expression gives any value.
//!
//! Invariant: only edges and nodes no execution inside the region can reach are dropped; the result
//! is a subset of the over-approximation that still contains every line a terminating execution's
//! prefix inside the region covers.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::rc::Rc;

use fixedbitset::FixedBitSet;

use super::reach::{region_edges, TrueRegion};
use super::{stack_after, takeable_edges, Product, StackId, Stacks};
use crate::cfa::{expr_vars, root_var, Cfa, EdgeId, EdgeKind, GlobalKind, LineRule, NodeId};
use crate::cfront::ir::{Expr, ExprKind, FuncId, Init, InitStep, Program, VarId, VarKind};
use crate::cfront::types::{DataModel, IntRank, IntType, RecordKind, TypeKind};
use crate::cfront::{eval_int, eval_int_with};
use crate::libmodels::LibFn;

/// Values a variable may hold at a node before the analysis takes it as any value.
const MAX_VALUES: usize = 8;
/// Combinations of variable values an expression is evaluated for before it is taken as any value.
const MAX_COMBINATIONS: usize = 256;

/// Variables per chunk of an `Env`.
const CHUNK: usize = 16;

/// What each tracked variable may hold; a variable absent may hold any value. A persistent array by
/// variable id, in chunks shared between the states of nodes until one of them writes: an edge
/// that assigns one variable copies one chunk, and a join skips the chunks both sides share (a
/// driver tracks thousands of globals, most of which no edge between two nodes touches).
#[derive(Clone, Default, PartialEq, Eq, Debug)]
struct Env {
    /// Chunk `k` holds variables `k * CHUNK ..`; `None` (or past the end) holds none.
    chunks: Vec<Option<Rc<[Option<Val>; CHUNK]>>>,
}

impl Env {
    fn get(&self, v: &VarId) -> Option<&Val> {
        let i = v.idx();
        self.chunks.get(i / CHUNK)?.as_ref()?[i % CHUNK].as_ref()
    }

    fn insert(&mut self, v: VarId, val: Val) {
        let i = v.idx();
        if self.chunks.len() <= i / CHUNK {
            self.chunks.resize(i / CHUNK + 1, None);
        }
        let chunk = self.chunks[i / CHUNK].get_or_insert_with(|| Rc::new(std::array::from_fn(|_| None)));
        Rc::make_mut(chunk)[i % CHUNK] = Some(val);
    }

    fn remove(&mut self, v: &VarId) {
        let i = v.idx();
        if let Some(Some(chunk)) = self.chunks.get_mut(i / CHUNK) {
            if chunk[i % CHUNK].is_some() {
                Rc::make_mut(chunk)[i % CHUNK] = None;
            }
        }
    }

    /// The variables with a known value, in id order.
    fn iter(&self) -> impl Iterator<Item = (VarId, &Val)> {
        self.chunks.iter().enumerate().filter_map(|(k, c)| Some((k, c.as_ref()?))).flat_map(|(k, c)| {
            c.iter().enumerate().filter_map(move |(j, val)| Some((VarId::from_idx(k * CHUNK + j), val.as_ref()?)))
        })
    }
}

impl FromIterator<(VarId, Val)> for Env {
    fn from_iter<I: IntoIterator<Item = (VarId, Val)>>(iter: I) -> Self {
        let mut env = Env::default();
        for (v, val) in iter {
            env.insert(v, val);
        }
        env
    }
}

/// What the analysis found: the product edges an execution can take, and the CFA edges it can take
/// after the automaton reached `__TRUE`.
pub struct Feasible {
    /// For every product node, which of its successor edges (by index) an execution can take (none
    /// for a node no execution reaches).
    edges: Vec<FixedBitSet>,
    /// CFA edges an execution can take inside the `__TRUE` region.
    true_edges: FixedBitSet,
    /// Places of the `__TRUE` region where the analysis stopped following calls (into a recursive
    /// function): everything the CFA reaches from there counts.
    unfollowed: Vec<(NodeId, StackId)>,
    /// The call stacks of the product and of the `__TRUE` region.
    stacks: Stacks,
    /// Whether an access through a null pointer ended a way (`Undefined::null_access`).
    pub cut_at_null: bool,
}

impl Feasible {
    /// The lines an execution can cover inside the explored region when only feasible edges count:
    /// edges taken from reached product nodes into nodes outside `__FALSE` (an execution's lines end
    /// before the edge into `__FALSE`), the feasible edges of the `__TRUE` region, and everything the
    /// CFA reaches from where the analysis stopped following it.
    pub fn lines(&self, product: &Product, cfa: &Cfa, rule: LineRule) -> Vec<u32> {
        // (`__FALSE` nodes have no successors.)
        let into_false =
            |i: usize, j: usize| Some(product.nodes[product.succ[i][j].to.idx()].aut) == product.false_state;
        let mut edges: Vec<EdgeId> = self.true_edges.ones().map(EdgeId::from_idx).collect();
        for (i, feasible) in self.edges.iter().enumerate() {
            edges.extend(feasible.ones().filter(|&j| !into_false(i, j)).map(|j| product.succ[i][j].edge));
        }
        let mut queries: Vec<NodeId> = Vec::new();
        for &(node, stack) in &self.unfollowed {
            queries.push(node);
            let mut s = stack;
            while let Some((cs, rest)) = self.stacks.top(s) {
                queries.extend(cfa.call_site(cs).return_node);
                s = rest;
            }
        }
        if !queries.is_empty() {
            queries.sort_unstable();
            queries.dedup();
            let mut region = TrueRegion::new(cfa, &queries);
            let mut all = FixedBitSet::with_capacity(cfa.n_nodes());
            for &(node, stack) in &self.unfollowed {
                all.union_with(&region.reach(&self.stacks, node, stack));
            }
            edges.extend(region_edges(cfa, &all));
        }
        edges.sort_unstable();
        edges.dedup();
        cfa.lines_of_edges(&edges, rule)
    }
}

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
    let n = product.nodes.len();
    let is_true = |i: usize| Some(product.nodes[i].aut) == product.true_state;
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
    let mut stacks = product.stacks.clone();
    // Nodes 0..n are the product's; the rest are places (CFA node, call stack) of the `__TRUE`
    // region, with their successors (edge, node) computed when first visited.
    let mut states: Vec<Option<Rc<Env>>> = vec![None; n];
    let mut places = Places::default();
    let mut edges: Vec<FixedBitSet> = product.succ.iter().map(|s| FixedBitSet::with_capacity(s.len())).collect();
    // For every place of the `__TRUE` region, which of its successors (by index) an execution can
    // take; and the places where calls were not followed.
    let mut place_edges: Vec<FixedBitSet> = Vec::new();
    let mut unfollowed = Vec::new();
    let mut queued = FixedBitSet::with_capacity(n);
    // The node numbered first first: nodes are numbered as they are discovered, from the initial
    // one on, so a node mostly waits for the joins into it from the nodes before it (far fewer
    // visits than first in, first out).
    let mut work = BinaryHeap::new();
    if n > 0 {
        states[0] = Some(Rc::new(Env::default()));
        work.push(Reverse(0usize));
        queued.insert(0);
    }
    let mut visits = 0u32;
    while let Some(Reverse(i)) = work.pop() {
        visits = visits.wrapping_add(1);
        if visits.is_multiple_of(256) && give_up() {
            return None;
        }
        queued.set(i, false);
        let Some(env) = states[i].clone() else { continue };
        // The successors: product edges, the place a `__TRUE` leaf stands for, or CFA edges.
        let succ: Vec<(EdgeId, usize, Option<usize>)> = if i < n {
            if is_true(i) {
                let node = product.nodes[i];
                let p = places.node((node.cfa, node.stack), &mut states, &mut queued);
                if places.keys.len() > MAX_TRUE_NODES {
                    return None;
                }
                join_into(&mut states, p, &env, Out::Same, &mut queued, &mut work);
                continue;
            }
            product.succ[i].iter().enumerate().map(|(j, pe)| (pe.edge, pe.to.idx(), Some(j))).collect()
        } else {
            let k = i - n;
            if places.succ[k].is_none() {
                let (node, stack) = places.keys[k];
                let mut succ = Vec::new();
                for e in takeable_edges(cfa, &stacks, stack, node) {
                    if let EdgeKind::Call(cs) = cfa.edge(e).kind {
                        if recursive[cfa.call_site(cs).callee.idx()] {
                            unfollowed.push((node, stack, i));
                            continue;
                        }
                    }
                    let next = stack_after(cfa, &mut stacks, stack, e);
                    let p = places.node((cfa.edge(e).dst, next), &mut states, &mut queued);
                    succ.push((e, p));
                }
                if places.keys.len() > MAX_TRUE_NODES {
                    return None;
                }
                place_edges.resize_with(places.keys.len(), FixedBitSet::new);
                place_edges[k].grow(succ.len());
                places.succ[k] = Some(succ);
            }
            places.succ[k].as_ref().expect("computed").iter().enumerate().map(|(j, &(e, p))| (e, p, Some(j))).collect()
        };
        for (edge, to, j) in succ {
            let Some(out) = a.transfer(&env, edge) else { continue };
            match (i < n, j) {
                (true, Some(j)) => edges[i].insert(j),
                (_, Some(j)) => place_edges[i - n].insert(j),
                (_, None) => unreachable!("every successor has its index"),
            }
            join_into(&mut states, to, &env, out, &mut queued, &mut work);
        }
    }
    // Only edges into nodes from which a way of feasible edges leads on to the end of `main` count:
    // an execution that covers a line terminates.
    let live = ends_reachable(product, cfa, &places, &states, &edges, &place_edges, &unfollowed);
    for (i, feasible) in edges.iter_mut().enumerate() {
        let dead: Vec<usize> = feasible.ones().filter(|&j| !live.contains(product.succ[i][j].to.idx())).collect();
        dead.into_iter().for_each(|j| feasible.set(j, false));
    }
    let mut true_edges = FixedBitSet::with_capacity(cfa.n_edges());
    for (k, feasible) in place_edges.iter().enumerate() {
        let Some(succ) = places.succ[k].as_ref() else { continue };
        for (e, p) in feasible.ones().map(|j| succ[j]) {
            if live.contains(p) {
                true_edges.insert(e.idx());
            }
        }
    }
    let mut unfollowed: Vec<(NodeId, StackId)> = unfollowed.into_iter().map(|(node, stack, _)| (node, stack)).collect();
    unfollowed.sort_unstable();
    unfollowed.dedup();
    Some(Feasible { edges, true_edges, unfollowed, stacks, cut_at_null: a.cut_at_null.get() })
}

/// The analysis nodes (product nodes, then places of the `__TRUE` region) from which feasible
/// edges lead to the end of `main` or out of what the analysis follows: into `__FALSE` (the
/// unexplored region, where an execution may go on to anywhere), a place whose calls it did not
/// follow, one it never visited, or a product node with no successor although its CFA node has
/// some (the automaton does not say). Places and nodes where the CFA itself ends elsewhere
/// (`abort()`) lead nowhere, as for `Analysis::lines_without_exit`.
fn ends_reachable(
    product: &Product,
    cfa: &Cfa,
    places: &Places,
    states: &[Option<Rc<Env>>],
    edges: &[FixedBitSet],
    place_edges: &[FixedBitSet],
    unfollowed: &[(NodeId, StackId, usize)],
) -> FixedBitSet {
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

/// Which undefined behaviour the analysis takes as ending every execution that meets it: no edge
/// past it is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undefined {
    /// A call through a pointer of a function type incompatible with the callee's
    /// (`CallSite::incompatible_argument`).
    pub calls: bool,
    /// An access (read, write or call) through a pointer whose only possible value is null.
    pub null_access: bool,
}

impl Undefined {
    /// Every rule.
    pub const ALL: Undefined = Undefined { calls: true, null_access: true };
    /// None: the values alone.
    pub const NONE: Undefined = Undefined { calls: false, null_access: false };
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

/// Joins `out` (the state after an edge from a node with `env`) into the state of node `to`,
/// queueing it if it grew.
fn join_into(
    states: &mut [Option<Rc<Env>>],
    to: usize,
    env: &Rc<Env>,
    out: Out,
    queued: &mut FixedBitSet,
    work: &mut BinaryHeap<Reverse<usize>>,
) {
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
    if changed && !queued.contains(to) {
        queued.insert(to);
        work.push(Reverse(to));
    }
}

/// The join of `old` and `new` if it differs from `old`; it shares what did not change with `old`.
fn join(old: &Env, new: &Env) -> Option<Env> {
    let mut out: Option<Env> = None;
    for (k, chunk) in old.chunks.iter().enumerate() {
        let Some(chunk) = chunk else { continue };
        let other = new.chunks.get(k).and_then(|c| c.as_ref());
        if other.is_some_and(|o| Rc::ptr_eq(chunk, o)) {
            continue;
        }
        for (j, a) in chunk.iter().enumerate() {
            let Some(a) = a else { continue };
            let joined = match other.and_then(|o| o[j].as_ref()) {
                Some(b) if a.same(b) || a.includes(b) => continue,
                Some(b) => a.join(b),
                None => None,
            };
            let v = VarId::from_idx(k * CHUNK + j);
            let out = out.get_or_insert_with(|| old.clone());
            match joined {
                Some(u) => out.insert(v, u),
                None => out.remove(&v),
            }
        }
    }
    out
}

/// What a tracked variable may hold (a variable absent from an `Env` may hold anything).
#[derive(Clone, PartialEq, Eq, Debug)]
enum Val {
    /// One of these values (sorted, at most `MAX_VALUES`, never empty).
    Is(Rc<[i128]>),
    /// Any value but these (sorted, at most `MAX_VALUES`, never empty): a pointer known not null.
    Not(Rc<[i128]>),
    /// Any value whose bits under `known` are `ones` (bits of the value's two's complement to 128
    /// bits, so that conversions keeping the value keep the bits): what bitwise operations on values
    /// otherwise unknown leave known (`x | 128` has bit 7 set). `known` is neither empty nor full.
    Bits(Rc<KnownBits>),
}

/// The bits of a `Val::Bits` (behind a pointer, so that a `Val` and the chunks of an `Env` that an
/// edge copies stay small).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct KnownBits {
    known: u128,
    ones: u128,
}

impl Val {
    /// The join, `None` for any value.
    fn join(&self, other: &Val) -> Option<Val> {
        match (self, other) {
            (Val::Is(a), Val::Is(b)) => merge(a, b).map(|u| Val::Is(u.into())),
            (Val::Not(a), Val::Not(b)) => {
                let both: Vec<i128> = a.iter().filter(|x| b.contains(x)).copied().collect();
                (!both.is_empty()).then_some(Val::Not(both.into()))
            }
            (Val::Is(s), Val::Not(x)) | (Val::Not(x), Val::Is(s)) => {
                let rest: Vec<i128> = x.iter().filter(|c| !s.contains(c)).copied().collect();
                (!rest.is_empty()).then_some(Val::Not(rest.into()))
            }
            (Val::Bits(_), Val::Is(_) | Val::Bits(_)) | (Val::Is(_), Val::Bits(_)) => {
                let ((ka, oa), (kb, ob)) = (self.bits()?, other.bits()?);
                let known = ka & kb & !(oa ^ ob);
                Val::of_bits(known, oa & known)
            }
            (Val::Not(_), Val::Bits(_)) | (Val::Bits(_), Val::Not(_)) => None,
        }
    }

    /// Whether `self` and `other` are one value, shared (a cheap test before `includes`: states
    /// mostly hold the values their predecessors held).
    fn same(&self, other: &Val) -> bool {
        match (self, other) {
            (Val::Is(a), Val::Is(b)) | (Val::Not(a), Val::Not(b)) => Rc::ptr_eq(a, b),
            (Val::Bits(a), Val::Bits(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Whether every possible value of `other` is one of `self` (the join of the two is `self`).
    fn includes(&self, other: &Val) -> bool {
        match (self, other) {
            (Val::Is(a), Val::Is(b)) => a == b || b.iter().all(|x| a.binary_search(x).is_ok()),
            (Val::Not(a), Val::Not(b)) => a.iter().all(|x| b.contains(x)),
            (Val::Not(x), Val::Is(s)) => s.iter().all(|c| !x.contains(c)),
            (Val::Is(_), Val::Not(_)) => false,
            (Val::Bits(b), _) => match other.bits() {
                Some((kb, ob)) => kb & b.known == b.known && ob & b.known == b.ones,
                None => false,
            },
            (Val::Is(_) | Val::Not(_), Val::Bits(_)) => false,
        }
    }

    /// Whether `c` is a possible value.
    fn admits(&self, c: i128) -> bool {
        match self {
            Val::Is(s) => s.contains(&c),
            Val::Not(x) => !x.contains(&c),
            Val::Bits(b) => c as u128 & b.known == b.ones,
        }
    }

    /// The bits every possible value has: `(known, ones)`; `None` for "any value but these".
    fn bits(&self) -> Option<(u128, u128)> {
        match self {
            Val::Is(s) => {
                let differ = s.iter().fold(0u128, |acc, &x| acc | (x as u128 ^ s[0] as u128));
                Some((!differ, s[0] as u128 & !differ))
            }
            Val::Not(_) => None,
            Val::Bits(b) => Some((b.known, b.ones)),
        }
    }

    /// The value with bits `ones` under `known`: one value when every bit is known, `None` (any
    /// value) when none is.
    fn of_bits(known: u128, ones: u128) -> Option<Val> {
        match known {
            0 => None,
            u128::MAX => Some(Val::Is(vec![ones as i128].into())),
            _ => Some(Val::Bits(Rc::new(KnownBits { known, ones: ones & known }))),
        }
    }
}

/// The union of two sorted sets of values, `None` if it has more than `MAX_VALUES`.
fn merge(a: &[i128], b: &[i128]) -> Option<Vec<i128>> {
    let mut u = Vec::with_capacity(MAX_VALUES.min(a.len() + b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => unreachable!("the loop ends first"),
        };
        if u.len() == MAX_VALUES {
            return None;
        }
        u.push(next);
    }
    Some(u)
}

/// Known bits `(known, ones)` of a value converted to `to` (C's conversion: wraparound, `_Bool`
/// is "not zero"), in the two's complement of the converted value.
fn wrap_bits((known, ones): (u128, u128), to: IntType, dm: DataModel) -> (u128, u128) {
    if to.rank == IntRank::Bool {
        return match (ones != 0, known == u128::MAX) {
            (true, _) => (u128::MAX, 1),
            (false, true) => (u128::MAX, 0),
            (false, false) => (!1, 0),
        };
    }
    let w = to.bits(dm);
    if w >= 128 {
        return (known, ones);
    }
    let low = (1u128 << w) - 1;
    let sign = 1u128 << (w - 1);
    // Above the type's width: zeros, or copies of the sign bit.
    match (to.signed, known & sign != 0, ones & sign != 0) {
        (false, _, _) => ((known & low) | !low, ones & low),
        (true, true, negative) => ((known & low) | !low, (ones & low) | if negative { !low } else { 0 }),
        (true, false, _) => (known & low, ones & low),
    }
}

/// The result of an edge on a state.
enum Out {
    Same,
    New(Env),
}

struct Analyser<'a> {
    cfa: &'a Cfa,
    prog: &'a Program,
    /// For every variable, its integer type (pointers: unsigned long) if it is tracked.
    tracked: &'a [Option<IntType>],
    /// For every variable, its elements' integer type if it is a summarized array
    /// (`summarized_arrays`): its `Env` entry holds what any of its elements may hold.
    arrays: &'a [Option<IntType>],
    /// Globals that never change (`constant_globals`), with their initializers.
    constants: &'a HashMap<VarId, Option<&'a Init>>,
    /// Each function's component of the call graph (`call_components`).
    components: &'a [usize],
    /// For every call site, whether its call is undefined behaviour and no execution takes it.
    undefined: &'a [bool],
    /// Whether an edge that accesses memory through a pointer that can only be null is taken by no
    /// execution (`Undefined::null_access`).
    null_access: bool,
    /// Whether that rule ended a way.
    cut_at_null: std::cell::Cell<bool>,
}

/// Whether some call site of `cfa` is undefined behaviour (`CallSite::incompatible_argument`): only
/// then can `analyse` with `undefined_calls` rule out more than without.
pub fn has_undefined_calls(cfa: &Cfa, prog: &Program) -> bool {
    cfa.call_sites.iter().any(|cs| cs.incompatible_argument(prog).is_some())
}

impl Analyser<'_> {
    fn int_of(&self, v: VarId) -> Option<IntType> {
        self.tracked.get(v.idx()).copied().flatten()
    }

    /// Whether `v` is a local variable or parameter of `f` (its return value included).
    fn local_of(&self, v: VarId, f: FuncId) -> bool {
        matches!(self.prog.var(v).kind, VarKind::Local(g) | VarKind::Param(g, _) if g == f)
    }

    /// The state after `edge`, `None` if no execution in `env` takes it.
    fn transfer(&self, env: &Env, edge: EdgeId) -> Option<Out> {
        let e = self.cfa.edge(edge);
        if self.null_access && self.accesses_null(env, &e.kind) {
            self.cut_at_null.set(true);
            return None;
        }
        let set = |env: &Env, v: VarId, val: Option<Val>| -> Out {
            let mut next = env.clone();
            match val {
                Some(val) => next.insert(v, val),
                None => next.remove(&v),
            };
            Out::New(next)
        };
        Some(match &e.kind {
            EdgeKind::Assign { lhs, rhs } => match (self.tracked_lvalue(lhs), self.element_of(lhs)) {
                (Some(v), _) => set(env, v, self.value(env, rhs)),
                (None, Some(a)) => {
                    let mut next = env.clone();
                    let val = self.int_like(rhs.ty).and_then(|from| Some((self.value(env, rhs)?, from)));
                    self.join_element(&mut next, a, val);
                    Out::New(next)
                }
                (None, None) => Out::Same,
            },
            EdgeKind::ExternCall { lhs: Some(lhs), callee, args } => match self.tracked_lvalue(lhs) {
                // `__builtin_expect(e, c)` is `e`; other functions without body return anything.
                Some(v) => {
                    let val = match (&callee.kind, args.first()) {
                        (ExprKind::Func(f), Some(arg)) if LibFn::of(&self.prog.func(*f).name) == LibFn::Expect => self
                            .value(env, arg)
                            .and_then(|val| self.convert(val, self.int_like(arg.ty)?, self.int_of(v)?)),
                        _ => None,
                    };
                    set(env, v, val)
                }
                // An element it writes may now hold anything, and so may the array's elements.
                None => match self.element_of(lhs) {
                    Some(a) => set(env, a, None),
                    None => Out::Same,
                },
            },
            EdgeKind::Decl { var, init } if self.int_of(*var).is_some() => {
                let val = init.as_ref().and_then(|init| self.init_value(env, init));
                set(env, *var, val)
            }
            EdgeKind::Decl { var, init } if self.element_type(*var).is_some() => {
                // An automatic array without initializer holds anything; with one, what it lists and
                // zero for the elements it leaves out.
                let val = init.as_ref().and_then(|init| self.elements_value(env, *var, init));
                set(env, *var, val)
            }
            EdgeKind::Global(GlobalKind::Var { var, init })
                if self.int_of(*var).is_some() || self.element_type(*var).is_some() =>
            {
                let val = match init {
                    Some(init) if self.element_type(*var).is_some() => self.elements_value(env, *var, init),
                    Some(init) => self.init_value(env, init),
                    None if self.prog.var(*var).is_extern => None,
                    None => Some(Val::Is(vec![0].into())),
                };
                set(env, *var, val)
            }
            EdgeKind::Assume { cond, truth } => return self.assume(env, cond, *truth),
            EdgeKind::Call(cs) if self.undefined[cs.idx()] => return None,
            EdgeKind::Call(cs) => {
                let site = self.cfa.call_site(*cs);
                let params = &self.prog.func(site.callee).params;
                // A call starts with fresh locals (and return value): nothing of an earlier call of
                // the same function is left in them.
                let mut next = env.clone();
                let locals: Vec<VarId> =
                    env.iter().map(|(v, _)| v).filter(|&v| self.local_of(v, site.callee)).collect();
                for v in &locals {
                    next.remove(v);
                }
                for (p, arg) in params.iter().zip(&site.args) {
                    if self.int_of(*p).is_some() {
                        match self.value(env, arg) {
                            Some(val) => next.insert(*p, val),
                            None => next.remove(p),
                        };
                    }
                }
                Out::New(next)
            }
            EdgeKind::Return(cs) => {
                let site = self.cfa.call_site(*cs);
                // A callee that may have re-entered the caller (recursion) may have changed the
                // variables the caller's activation sees, which share their names with the inner
                // activation's: those are any value again.
                let reentered = self.components[site.caller.idx()] == self.components[site.callee.idx()];
                let ret = self.cfa.func(site.callee).and_then(|f| f.ret_var);
                let lhs = site.lhs.as_ref().and_then(|l| self.tracked_lvalue(l));
                let element = site.lhs.as_ref().and_then(|l| self.element_of(l));
                if lhs.is_none() && element.is_none() && !reentered {
                    return Some(Out::Same);
                }
                let mut next = env.clone();
                if reentered {
                    let locals: Vec<VarId> =
                        env.iter().map(|(v, _)| v).filter(|&v| self.local_of(v, site.caller)).collect();
                    for v in &locals {
                        next.remove(v);
                    }
                }
                if let Some(v) = lhs {
                    match ret.and_then(|r| self.converted(env, r, v)) {
                        Some(val) => next.insert(v, val),
                        None => next.remove(&v),
                    };
                }
                if let Some(a) = element {
                    let val = ret.and_then(|r| Some((env.get(&r)?.clone(), self.int_of(r)?)));
                    self.join_element(&mut next, a, val);
                }
                Out::New(next)
            }
            EdgeKind::ReturnStmt(Some(x)) => {
                let f = self.cfa.node(e.src).func;
                match self.cfa.func(f).and_then(|fc| fc.ret_var).filter(|&r| self.int_of(r).is_some()) {
                    Some(r) => {
                        let to = self.int_of(r).expect("tracked");
                        let val = self.value(env, x).and_then(|val| self.convert(val, self.int_like(x.ty)?, to));
                        set(env, r, val)
                    }
                    None => Out::Same,
                }
            }
            _ => Out::Same,
        })
    }

    /// Whether every execution that takes an edge of `kind` in `env` accesses memory through a
    /// null pointer. A call's left-hand side is not looked at: the callee may end the program before
    /// it is written.
    fn accesses_null(&self, env: &Env, kind: &EdgeKind) -> bool {
        let mut hit = false;
        let mut check = |x: &Expr| hit = hit || self.null_access_in(env, x);
        match kind {
            EdgeKind::ExternCall { callee, args, .. } => {
                check(callee);
                args.iter().for_each(check);
            }
            EdgeKind::Call(cs) => self.cfa.call_site(*cs).args.iter().for_each(check),
            EdgeKind::Return(_) => {}
            _ => edge_exprs(self.cfa, kind, check),
        }
        hit
    }

    /// Whether evaluating `e` in `env` certainly reads, writes or calls through a pointer that can
    /// only be null: `*p`, `p->f`, `p[i]`, in operands C always evaluates (not the right of `&&`,
    /// `||`, the branches of `?:`), not under `&` or an array's decay (which compute an address).
    fn null_access_in(&self, env: &Env, e: &Expr) -> bool {
        use crate::cfront::ir::BinOp;
        let null = |p: &Expr| {
            matches!(self.prog.types.kind(p.ty), TypeKind::Pointer(_))
                && matches!(self.value(env, p), Some(Val::Is(s)) if *s == [0])
        };
        match &e.kind {
            ExprKind::AddrOf(_) | ExprKind::Decay(_) => false,
            ExprKind::Deref(p) | ExprKind::Member { base: p, arrow: true, .. } => {
                null(p) || self.null_access_in(env, p)
            }
            ExprKind::Index(p, i) => null(p) || self.null_access_in(env, p) || self.null_access_in(env, i),
            ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, a, _) | ExprKind::Cond(a, _, _) => {
                self.null_access_in(env, a)
            }
            _ => {
                let mut hit = false;
                e.for_each_child(|x| hit = hit || self.null_access_in(env, x));
                hit
            }
        }
    }

    /// The element type of `v` if it is a summarized array.
    fn element_type(&self, v: VarId) -> Option<IntType> {
        self.arrays.get(v.idx()).copied().flatten()
    }

    /// The summarized array `e` is an element of: `a[i]`, whatever `i`.
    fn element_of(&self, e: &Expr) -> Option<VarId> {
        let ExprKind::Index(base, _) = &e.strip_implicit().kind else { return None };
        let ExprKind::Decay(inner) = &base.strip_implicit().kind else { return None };
        let ExprKind::Var(a) = inner.kind else { return None };
        self.element_type(a).map(|_| a)
    }

    /// Joins `val` (of the given type; `None`: any value) into what the elements of summarized array
    /// `a` may hold: one element changed, the others kept their values.
    fn join_element(&self, env: &mut Env, a: VarId, val: Option<(Val, IntType)>) {
        let elem = self.element_type(a).expect("a summarized array");
        let joined = match (env.get(&a), val.and_then(|(val, from)| self.convert(val, from, elem))) {
            (None, _) => return,
            (Some(old), Some(new)) if old.includes(&new) => return,
            (Some(old), Some(new)) => old.join(&new),
            (Some(_), None) => None,
        };
        match joined {
            Some(u) => env.insert(a, u),
            None => env.remove(&a),
        }
    }

    /// What the elements of an array with initializer `init` may hold: the values it lists, and
    /// zero (for those it leaves out).
    fn elements_value(&self, env: &Env, a: VarId, init: &Init) -> Option<Val> {
        let Init::List(leaves) = init else { return None };
        let to = self.element_type(a)?;
        let mut acc = Val::Is(vec![0].into());
        for leaf in leaves {
            if !matches!(leaf.path.as_slice(), [InitStep::Index(_)]) {
                return None;
            }
            let val = self.value(env, &leaf.value)?;
            acc = acc.join(&self.convert(val, self.int_like(leaf.value.ty)?, to)?)?;
        }
        Some(acc)
    }

    /// The value of tracked `from` converted to the type of tracked `to`.
    fn converted(&self, env: &Env, from: VarId, to: VarId) -> Option<Val> {
        let val = env.get(&from)?.clone();
        self.convert(val, self.int_of(from)?, self.int_of(to)?)
    }

    /// `val` of type `from` converted to `to`: sets value by value; "not these" only when every value
    /// of `from` is one of `to`.
    fn convert(&self, val: Val, from: IntType, to: IntType) -> Option<Val> {
        let dm = self.prog.data_model();
        match val {
            Val::Is(s) => {
                let mut c: Vec<i128> = s.iter().map(|&x| to.wrap(x, dm)).collect();
                c.sort_unstable();
                c.dedup();
                Some(Val::Is(c.into()))
            }
            Val::Not(x) => preserves(from, to, dm).then_some(Val::Not(x)),
            Val::Bits(b) => {
                let (k, o) = wrap_bits((b.known, b.ones), to, dm);
                Val::of_bits(k, o)
            }
        }
    }

    /// The integer type standing for `ty`: itself, or unsigned long (the pointer width) for a pointer.
    fn int_like(&self, ty: crate::cfront::types::TypeId) -> Option<IntType> {
        match self.prog.types.kind(ty) {
            TypeKind::Int(it) => Some(*it),
            TypeKind::Pointer(_) => Some(IntType::ULONG),
            _ => None,
        }
    }

    /// The tracked variable `lhs` names, if it is one.
    fn tracked_lvalue(&self, lhs: &Expr) -> Option<VarId> {
        match lhs.kind {
            ExprKind::Var(v) if self.int_of(v).is_some() => Some(v),
            _ => None,
        }
    }

    fn init_value(&self, env: &Env, init: &Init) -> Option<Val> {
        match init {
            Init::Expr(e) => self.value(env, e),
            Init::List(leaves) => match leaves.as_slice() {
                [leaf] if leaf.path.is_empty() => self.value(env, &leaf.value),
                // `int x = {};`: the rest of the object is zero.
                [] => Some(Val::Is(vec![0].into())),
                _ => None,
            },
        }
    }

    /// The tracked variable `e` is, through conversions that keep every value (pointers count as
    /// unsigned long).
    fn var_through_casts(&self, e: &Expr) -> Option<VarId> {
        match self.through_casts(e)?.kind {
            ExprKind::Var(v) => self.int_of(v).map(|_| v),
            _ => None,
        }
    }

    /// `e` without the conversions around it that keep every value (pointers count as unsigned
    /// long); `None` if one does not.
    fn through_casts<'e>(&self, e: &'e Expr) -> Option<&'e Expr> {
        let dm = self.prog.data_model();
        let mut x = e;
        loop {
            match &x.kind {
                ExprKind::Cast(inner, _) => {
                    if !preserves(self.int_like(inner.ty)?, self.int_like(x.ty)?, dm) {
                        return None;
                    }
                    x = inner;
                }
                _ => return Some(x),
            }
        }
    }

    /// What `e` may be, `None` for any value.
    fn value(&self, env: &Env, e: &Expr) -> Option<Val> {
        if let Some(v) = self.var_through_casts(e) {
            return env.get(&v).cloned();
        }
        if let Some(a) = self.through_casts(e).and_then(|x| self.element_of(x)) {
            return env.get(&a).cloned();
        }
        if self.is_object_address(e) {
            return Some(Val::Not(vec![0].into()));
        }
        if let Some(b) = self.decide(env, e) {
            return Some(Val::Is(vec![b as i128].into()));
        }
        let mut out = Vec::new();
        let complete = self.for_each_combination(env, e, |_, v| {
            match v {
                Some(v) => out.push(v),
                None => return false,
            }
            true
        });
        if !complete {
            let (known, ones) = self.known_bits(env, e);
            return Val::of_bits(known, ones);
        }
        out.sort_unstable();
        out.dedup();
        (out.len() <= MAX_VALUES).then_some(Val::Is(out.into()))
    }

    /// The bits of `e` known whatever the unknown values it reads: `(known, ones)` (see
    /// `Val::Bits`), through constants, tracked variables, members of constant globals, integer
    /// conversions, `!`, `~`, `&`, `|` and `^`; anything else is unknown (`(0, 0)`).
    fn known_bits(&self, env: &Env, e: &Expr) -> (u128, u128) {
        use crate::cfront::ir::{BinOp, UnOp};
        const NONE: (u128, u128) = (0, 0);
        let dm = self.prog.data_model();
        let Some(ty) = self.int_like(e.ty) else { return NONE };
        let not = |(k, o): (u128, u128)| match (o != 0, k == u128::MAX) {
            (true, _) => (u128::MAX, 0),
            (false, true) => (u128::MAX, 1),
            (false, false) => (!1, 0),
        };
        let bits = match &e.kind {
            ExprKind::IntConst(v) => (u128::MAX, *v as u128),
            ExprKind::Var(v) if self.int_of(*v).is_some() => env.get(v).and_then(Val::bits).unwrap_or(NONE),
            ExprKind::Index(..) => match self.element_of(e) {
                Some(a) => env.get(&a).and_then(Val::bits).unwrap_or(NONE),
                None => NONE,
            },
            ExprKind::Var(_) | ExprKind::Member { .. } => match self.constant_member(e) {
                Some(c) => (u128::MAX, c as u128),
                None => NONE,
            },
            ExprKind::Cast(inner, _) => match self.int_like(inner.ty) {
                Some(_) => self.known_bits(env, inner),
                None => NONE,
            },
            ExprKind::Unary(UnOp::LogNot, x) => not(self.known_bits(env, x)),
            ExprKind::Unary(UnOp::BitNot, x) => {
                let (k, o) = self.known_bits(env, x);
                (k, !o & k)
            }
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                // Equal only if no bit known on both sides differs; decided when all are known.
                let ((ka, oa), (kb, ob)) = self.operand_bits(env, a, b);
                let eq = if (oa ^ ob) & ka & kb != 0 {
                    Some(false)
                } else if ka == u128::MAX && kb == u128::MAX {
                    Some(true)
                } else {
                    None
                };
                match eq {
                    Some(eq) => (u128::MAX, (eq == (*op == BinOp::Eq)) as u128),
                    None => (!1, 0),
                }
            }
            ExprKind::Binary(op @ (BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge), a, b) => {
                // Decided when the ranges the known bits leave apart do not overlap: with the sign
                // known (always, for an unsigned type narrower than 128 bits), a value lies between
                // its bits with the unknown ones cleared and with them set.
                let ((ka, oa), (kb, ob)) = self.operand_bits(env, a, b);
                let top = 1u128 << 127;
                // (The bits read as an `i128`: right for signed types, and for unsigned ones below
                // 128 bits, whose bits above their width are zeros.)
                let as_i128 = self.int_like(a.ty).is_some_and(|t| t.signed || t.bits(dm) < 128);
                if ka & kb & top == 0 || !as_i128 {
                    (!1, 0)
                } else {
                    let (amin, amax) = (oa as i128, (oa | !ka) as i128);
                    let (bmin, bmax) = (ob as i128, (ob | !kb) as i128);
                    let decided = match op {
                        BinOp::Lt if amax < bmin => Some(true),
                        BinOp::Lt if amin >= bmax => Some(false),
                        BinOp::Le if amax <= bmin => Some(true),
                        BinOp::Le if amin > bmax => Some(false),
                        BinOp::Gt if amin > bmax => Some(true),
                        BinOp::Gt if amax <= bmin => Some(false),
                        BinOp::Ge if amin >= bmax => Some(true),
                        BinOp::Ge if amax < bmin => Some(false),
                        _ => None,
                    };
                    match decided {
                        Some(d) => (u128::MAX, d as u128),
                        None => (!1, 0),
                    }
                }
            }
            ExprKind::Binary(op @ (BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor), a, b) => {
                let ((ka, oa), (kb, ob)) = self.operand_bits(env, a, b);
                match op {
                    BinOp::BitAnd => ((ka & kb) | (ka & !oa) | (kb & !ob), oa & ob),
                    BinOp::BitOr => ((ka & kb) | oa | ob, oa | ob),
                    _ => (ka & kb, (oa ^ ob) & ka & kb),
                }
            }
            _ => NONE,
        };
        wrap_bits(bits, ty, dm)
    }

    /// The known bits of the operands of a binary operator, both converted to the type of the first
    /// (the IR converts operands to a common type; as `cfront::fold_binary` does).
    fn operand_bits(&self, env: &Env, a: &Expr, b: &Expr) -> ((u128, u128), (u128, u128)) {
        let dm = self.prog.data_model();
        match self.int_like(a.ty) {
            Some(t) => (wrap_bits(self.known_bits(env, a), t, dm), wrap_bits(self.known_bits(env, b), t, dm)),
            None => ((0, 0), (0, 0)),
        }
    }

    /// Whether `e` is, through pointer conversions, the address of a variable, of a part of one, or of
    /// a function: never null.
    fn is_object_address(&self, e: &Expr) -> bool {
        let mut x = e;
        while let ExprKind::Cast(inner, _) = &x.kind {
            let pointers = |t| matches!(self.prog.types.kind(t), TypeKind::Pointer(_));
            if !pointers(x.ty) || !pointers(inner.ty) {
                return false;
            }
            x = inner;
        }
        let mut lv = match &x.kind {
            ExprKind::AddrOf(lv) | ExprKind::Decay(lv) => &**lv,
            _ => return false,
        };
        loop {
            match &lv.kind {
                ExprKind::Var(_) | ExprKind::Func(_) | ExprKind::Str(_) => return true,
                ExprKind::Member { base, arrow: false, .. } => lv = base,
                _ => return false,
            }
        }
    }

    /// The truth of a comparison `v == c`, `v != c`, `!v` or `v` (through value-keeping
    /// conversions) that "not these" values decide.
    fn decide(&self, env: &Env, e: &Expr) -> Option<bool> {
        let (v, eq, c) = self.atom(env, e, true)?;
        match env.get(&v)? {
            Val::Not(x) if x.contains(&c) => Some(!eq),
            _ => None,
        }
    }

    /// `(v, eq, c)` if `cond` being `truth` means tracked `v` equals `c` (`eq`) or differs from it.
    fn atom(&self, env: &Env, cond: &Expr, truth: bool) -> Option<(VarId, bool, i128)> {
        use crate::cfront::ir::{BinOp, UnOp};
        match &cond.kind {
            ExprKind::Unary(UnOp::LogNot, x) => self.atom(env, x, !truth),
            ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let eq = (*op == BinOp::Eq) == truth;
                let side = |x: &Expr, y: &Expr| -> Option<(VarId, bool, i128)> {
                    let v = self.var_through_casts(x)?;
                    match self.value(env, y)? {
                        Val::Is(s) if s.len() == 1 => Some((v, eq, s[0])),
                        _ => None,
                    }
                };
                side(a, b).or_else(|| side(b, a))
            }
            ExprKind::Cast(inner, _) if self.int_like(cond.ty).is_some() => {
                // A conversion to `_Bool` or a wider type keeps zero and non-zero apart.
                let (from, to) = (self.int_like(inner.ty)?, self.int_like(cond.ty)?);
                let dm = self.prog.data_model();
                if to.rank == IntRank::Bool || preserves(from, to, dm) {
                    self.atom(env, inner, truth)
                } else {
                    None
                }
            }
            ExprKind::Var(v) if self.int_of(*v).is_some() => Some((*v, !truth, 0)),
            _ => None,
        }
    }

    /// Calls `f` with each combination of the known values of the tracked variables `e` reads and
    /// the value of `e` there (`None`: unknown); stops when `f` returns false. Returns false if it
    /// stopped or there were too many combinations.
    fn for_each_combination(
        &self,
        env: &Env,
        e: &Expr,
        mut f: impl FnMut(&[(VarId, i128)], Option<i128>) -> bool,
    ) -> bool {
        // Every variable `e` names (some only as an address: harmless, they are not tracked).
        let (mut vars, mut addressed) = (Vec::new(), Vec::new());
        expr_vars(e, &mut vars, &mut addressed);
        vars.sort_unstable();
        vars.dedup();
        // (Not the summarized arrays: two elements read need not hold the same value.)
        let known: Vec<(VarId, &Rc<[i128]>)> = vars
            .iter()
            .filter(|v| self.int_of(**v).is_some())
            .filter_map(|v| match env.get(v) {
                Some(Val::Is(s)) => Some((*v, s)),
                _ => None,
            })
            .collect();
        let total = known.iter().try_fold(1usize, |acc, (_, s)| acc.checked_mul(s.len()));
        if total.is_none_or(|t| t > MAX_COMBINATIONS) {
            return false;
        }
        let types = &self.prog.types;
        let mut idx = vec![0usize; known.len()];
        let mut assignment: Vec<(VarId, i128)> = known.iter().map(|(v, s)| (*v, s[0])).collect();
        loop {
            for (k, (_, s)) in known.iter().enumerate() {
                assignment[k].1 = s[idx[k]];
            }
            let value = eval_int_with(types, e, &mut |x| match x.kind {
                ExprKind::Var(v) => assignment.iter().find(|(w, _)| *w == v).map(|(_, val)| *val),
                ExprKind::Index(..) => match env.get(&self.element_of(x)?) {
                    Some(Val::Is(s)) if s.len() == 1 => Some(s[0]),
                    _ => None,
                },
                _ => self.constant_member(x),
            });
            if !f(&assignment, value) {
                return false;
            }
            // The next combination.
            let mut k = 0;
            loop {
                if k == known.len() {
                    return true;
                }
                idx[k] += 1;
                if idx[k] < known[k].1.len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }

    /// The value of `e`, a member (through `.` only) of a global that never changes: what its
    /// initializer gives it, zero where the initializer leaves it out. `None` for a member of a union
    /// (its members share bytes), a bit-field, or one an initializer sets as part of a larger whole.
    fn constant_member(&self, e: &Expr) -> Option<i128> {
        let types = &self.prog.types;
        let mut path = Vec::new();
        let mut x = e;
        let var = loop {
            match &x.kind {
                ExprKind::Member { base, field, arrow: false, .. } => {
                    let TypeKind::Record(r) = types.kind(base.ty) else { return None };
                    let rec = types.record(*r);
                    if rec.kind != RecordKind::Struct || rec.fields.as_ref()?.get(*field)?.bitfield.is_some() {
                        return None;
                    }
                    path.push(InitStep::Field(*field));
                    x = base;
                }
                ExprKind::Var(v) => break *v,
                _ => return None,
            }
        };
        path.reverse();
        match self.constants.get(&var)? {
            None => Some(0),
            Some(Init::List(leaves)) => match leaves.iter().find(|l| l.path == path) {
                Some(leaf) => eval_int(types, &leaf.value),
                None if leaves.iter().any(|l| l.path.starts_with(&path) || path.starts_with(&l.path)) => None,
                None => Some(0),
            },
            Some(Init::Expr(_)) => None,
        }
    }

    /// The state after assuming `cond` is `truth`, `None` if no value in `env` allows it: the values
    /// of each variable the condition reads are narrowed to those some combination satisfying it
    /// (or not decided) uses, and a comparison with a constant pins or excludes a value.
    fn assume(&self, env: &Env, cond: &Expr, truth: bool) -> Option<Out> {
        let mut kept: BTreeMap<VarId, Vec<i128>> = BTreeMap::new();
        let mut any = false;
        let complete = self.for_each_combination(env, cond, |assignment, value| {
            if value.is_none_or(|c| (c != 0) == truth) {
                any = true;
                for &(v, x) in assignment {
                    kept.entry(v).or_default().push(x);
                }
            }
            true
        });
        if complete && !any {
            return None;
        }
        // What the bits known of the values decide (a combination with an unknown value counts
        // as satisfying above).
        let (known, ones) = self.known_bits(env, cond);
        let decided = if ones != 0 { Some(true) } else { (known == u128::MAX).then_some(false) };
        if decided.is_some_and(|d| d != truth) {
            return None;
        }
        let mut next: Option<Env> = None;
        if complete {
            for (v, mut vals) in kept {
                vals.sort_unstable();
                vals.dedup();
                if matches!(env.get(&v), Some(Val::Is(old)) if old.len() != vals.len()) {
                    next.get_or_insert_with(|| env.clone()).insert(v, Val::Is(vals.into()));
                }
            }
        }
        if let Some((v, eq, c)) = self.atom(env, cond, truth) {
            let ty = self.int_of(v).expect("tracked");
            let dm = self.prog.data_model();
            let cur = next.as_ref().unwrap_or(env).get(&v).cloned();
            let refined = match (eq, cur) {
                (true, _) if ty.wrap(c, dm) != c => return None,
                (true, Some(val)) if !val.admits(c) => return None,
                (true, _) => Some(Val::Is(vec![c].into())),
                (false, Some(Val::Is(s))) => {
                    let rest: Vec<i128> = s.iter().filter(|&&x| x != c).copied().collect();
                    if rest.is_empty() {
                        return None;
                    }
                    Some(Val::Is(rest.into()))
                }
                (false, Some(Val::Not(x))) if !x.contains(&c) && x.len() < MAX_VALUES => {
                    let mut x = x.to_vec();
                    x.push(c);
                    x.sort_unstable();
                    Some(Val::Not(x.into()))
                }
                (false, Some(not @ Val::Not(_))) => Some(not),
                (false, Some(bits @ Val::Bits(_))) => Some(bits),
                (false, None) if ty.wrap(c, dm) == c => Some(Val::Not(vec![c].into())),
                (false, None) => None,
            };
            if let Some(val) = refined {
                if env.get(&v) != Some(&val) {
                    next.get_or_insert_with(|| env.clone()).insert(v, val);
                }
            }
        }
        Some(next.map_or(Out::Same, Out::New))
    }
}

/// Whether every value of `from` is one of `to`.
fn preserves(from: IntType, to: IntType, dm: DataModel) -> bool {
    to.min(dm) <= from.min(dm) && to.max(dm) >= from.max(dm)
}

/// The expressions of an edge.
fn edge_exprs(cfa: &Cfa, kind: &EdgeKind, mut f: impl FnMut(&Expr)) {
    let init = |i: &Init, f: &mut dyn FnMut(&Expr)| match i {
        Init::Expr(e) => f(e),
        Init::List(leaves) => leaves.iter().for_each(|l| f(&l.value)),
    };
    match kind {
        EdgeKind::Global(GlobalKind::Var { init: Some(i), .. }) | EdgeKind::Decl { init: Some(i), .. } => {
            init(i, &mut f)
        }
        EdgeKind::Assign { lhs, rhs } => {
            f(lhs);
            f(rhs);
        }
        EdgeKind::Eval(x) | EdgeKind::Assume { cond: x, .. } | EdgeKind::ReturnStmt(Some(x)) => f(x),
        EdgeKind::ExternCall { lhs, callee, args } => {
            lhs.iter().for_each(&mut f);
            f(callee);
            args.iter().for_each(&mut f);
        }
        EdgeKind::Call(cs) => {
            let site = cfa.call_site(*cs);
            site.lhs.iter().for_each(&mut f);
            site.args.iter().for_each(&mut f);
        }
        _ => {}
    }
}

/// For every variable, its integer type if the analysis tracks it: an integer variable whose
/// address the program never takes, of no function that can call itself.
/// How the program's edges use its variables.
struct VarUses<'c> {
    /// Variables whose address is taken other than to read or write an element `v[i]` of an array
    /// `v` (that decays to a pointer only to be indexed): in an `&`, or an array used as a pointer.
    taken: FixedBitSet,
    /// Variables written, whole or in part: the target of an assignment or of a call's result
    /// (through `.` members and array elements). Expressions on edges have no side effects (the
    /// CFA's invariant: `x++` and assignments used as values are statements of their own).
    written: FixedBitSet,
    /// Every name in the operands of inline assembly (its text outside string literals, which are
    /// the template and the constraints), with the function it is in: it may write the variables it
    /// names (its outputs), and its operands are not in the IR. A block-scope variable can be named
    /// only there.
    in_asm: std::collections::HashSet<(FuncId, &'c str)>,
    /// Every word of inline assembly, templates included: a template may name a global's symbol.
    asm_words: std::collections::HashSet<&'c str>,
}

/// The words of `text` outside its string literals.
fn words_outside_strings(text: &str) -> impl Iterator<Item = &str> {
    let (mut quoted, mut escaped) = (false, false);
    text.split(move |c: char| {
        let outside = !quoted;
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ => {}
        }
        !(outside && !quoted && (c.is_ascii_alphanumeric() || c == '_'))
    })
    .filter(|w| !w.is_empty())
}

/// Adds to `taken` the variables whose address `e` takes other than as the array of an element
/// `v[i]` (see `VarUses::taken`), and to `named` every variable it names.
fn note_uses(e: &Expr, taken: &mut FixedBitSet, named: &mut FixedBitSet) {
    if let ExprKind::Var(v) = e.kind {
        named.insert(v.idx());
    }
    if let ExprKind::Index(base, index) = &e.kind {
        if let ExprKind::Decay(inner) = &base.strip_implicit().kind {
            if let ExprKind::Var(v) = inner.kind {
                named.insert(v.idx());
                return note_uses(index, taken, named);
            }
        }
    }
    if let ExprKind::AddrOf(x) | ExprKind::Decay(x) = &e.kind {
        if let Some(v) = root_var(x) {
            taken.insert(v.idx());
        }
    }
    e.for_each_child(|x| note_uses(x, taken, named));
}

impl<'c> VarUses<'c> {
    fn of(cfa: &'c Cfa, prog: &Program) -> VarUses<'c> {
        let n_vars = prog.vars.len();
        let mut taken = FixedBitSet::with_capacity(n_vars);
        let mut written = FixedBitSet::with_capacity(n_vars);
        let mut in_asm = std::collections::HashSet::new();
        let mut asm_words = std::collections::HashSet::new();
        // What the initializer of each global takes the address of counts only if the program uses
        // that global (names it outside its declaration, or in the initializer of one it uses):
        // otherwise no address stored there flows anywhere (a module parameter's `&debug` in a
        // descriptor nothing reads).
        let mut used = FixedBitSet::with_capacity(n_vars);
        let mut initializers: Vec<(VarId, &'c Init)> = Vec::new();
        for (_, e) in cfa.edges() {
            if let EdgeKind::Global(GlobalKind::Var { var, init: Some(init) }) = &e.kind {
                initializers.push((*var, init));
                continue;
            }
            edge_exprs(cfa, &e.kind, |x| note_uses(x, &mut taken, &mut used));
            if let EdgeKind::Assign { lhs, .. } | EdgeKind::ExternCall { lhs: Some(lhs), .. } = &e.kind {
                root_var(lhs).iter().for_each(|v| written.insert(v.idx()));
            }
            if matches!(e.kind, EdgeKind::Blank(crate::cfa::BlankKind::Asm)) {
                let f = cfa.node(e.src).func;
                in_asm.extend(words_outside_strings(&e.text).map(|w| (f, w)));
                asm_words
                    .extend(e.text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()));
            }
        }
        for v in cfa.call_sites.iter().filter_map(|cs| cs.lhs.as_ref().and_then(root_var)) {
            written.insert(v.idx());
        }
        let mut uses = VarUses { taken, written, in_asm, asm_words };
        let mut done = vec![false; initializers.len()];
        loop {
            let mut grew = false;
            for (k, (var, init)) in initializers.iter().enumerate() {
                if done[k] || !(used.contains(var.idx()) || uses.in_asm(prog.var(*var))) {
                    continue;
                }
                done[k] = true;
                grew = true;
                match init {
                    Init::Expr(x) => note_uses(x, &mut uses.taken, &mut used),
                    Init::List(leaves) => leaves.iter().for_each(|l| note_uses(&l.value, &mut uses.taken, &mut used)),
                }
            }
            if !grew {
                return uses;
            }
        }
    }

    /// Whether inline assembly may name `v`: in an operand of its function, or anywhere for a
    /// global.
    fn in_asm(&self, v: &crate::cfront::ir::Var) -> bool {
        let named =
            |f: FuncId| self.in_asm.contains(&(f, v.name.as_str())) || self.in_asm.contains(&(f, v.cpa_name.as_str()));
        match v.kind {
            VarKind::Local(f) | VarKind::Param(f, _) | VarKind::StaticLocal(f) => named(f),
            VarKind::Global => self.asm_words.contains(v.name.as_str()) || self.asm_words.contains(v.cpa_name.as_str()),
        }
    }
}

/// Globals whose value never changes, with their initializers (`None`: zero): defined here (not
/// `extern`), never written, their address never taken, not named by inline assembly. Nothing but
/// their initialization can change them, so a read of one of their members has the initializer's
/// value.
fn constant_globals<'c>(cfa: &'c Cfa, prog: &Program, uses: &VarUses) -> HashMap<VarId, Option<&'c Init>> {
    cfa.edges()
        .filter_map(|(_, e)| match &e.kind {
            EdgeKind::Global(GlobalKind::Var { var, init }) => Some((*var, init.as_ref())),
            _ => None,
        })
        .filter(|(v, _)| {
            let var = prog.var(*v);
            matches!(var.kind, VarKind::Global)
                && !var.is_extern
                && !uses.taken.contains(v.idx())
                && !uses.written.contains(v.idx())
                && !uses.in_asm(var)
        })
        .collect()
}

fn tracked_vars(prog: &Program, uses: &VarUses) -> Vec<Option<IntType>> {
    prog.vars
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let excluded = uses.taken.contains(i) || uses.in_asm(v);
            if excluded {
                return None;
            }
            match prog.types.kind(v.ty) {
                TypeKind::Int(it) => Some(*it),
                TypeKind::Pointer(_) => Some(IntType::ULONG),
                _ => None,
            }
        })
        .collect()
}

/// For every variable, its elements' integer type (pointers: unsigned long) if the analysis keeps
/// one set of values for all its elements: an array of integers or pointers whose elements the
/// program reads and writes only as `a[i]` (`VarUses::taken`: no pointer into it exists), not
/// named by inline assembly. Only assignments to `a[i]` change it (an access out of another
/// object's bounds is undefined behaviour), so the join of what they store and of its initial
/// values is what any element may hold. A read is that set; a write joins into it, and a condition
/// on one element does not narrow it.
fn summarized_arrays(prog: &Program, uses: &VarUses) -> Vec<Option<IntType>> {
    prog.vars
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if uses.taken.contains(i) || uses.in_asm(v) {
                return None;
            }
            let TypeKind::Array(elem, _) = prog.types.kind(v.ty) else { return None };
            match prog.types.kind(*elem) {
                TypeKind::Int(it) => Some(*it),
                TypeKind::Pointer(_) => Some(IntType::ULONG),
                _ => None,
            }
        })
        .collect()
}

/// Functions on a cycle of the call graph (calls of functions with a body).
fn recursive_functions(cfa: &Cfa, n_funcs: usize) -> Vec<bool> {
    let components = call_components(cfa, n_funcs);
    let mut size = vec![0usize; n_funcs];
    for &c in &components {
        size[c] += 1;
    }
    let mut out: Vec<bool> = components.iter().map(|&c| size[c] > 1).collect();
    for site in &cfa.call_sites {
        if site.caller == site.callee {
            out[site.caller.idx()] = true;
        }
    }
    out
}

/// For every function, the number of its strongly connected component of the call graph (calls
/// of functions with a body): a call from `f` to `g` may re-enter `f` before it returns exactly
/// when both are in the same component.
fn call_components(cfa: &Cfa, n_funcs: usize) -> Vec<usize> {
    let mut g = petgraph::graph::DiGraph::<(), ()>::with_capacity(n_funcs, cfa.call_sites.len());
    for _ in 0..n_funcs {
        g.add_node(());
    }
    for site in &cfa.call_sites {
        g.add_edge(site.caller.0.into(), site.callee.0.into(), ());
    }
    let mut out = vec![0; n_funcs];
    for (k, scc) in petgraph::algo::kosaraju_scc(&g).into_iter().enumerate() {
        for f in scc {
            out[f.index()] = k;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::parse;
    use crate::base::SourceFile;
    use crate::cfa::{build, CfaConfig};
    use crate::cfront::parse_program;
    use crate::cfront::types::DataModel;
    use crate::product::ReachInfo;

    /// An automaton that sends the edge with text `to_true` to `__TRUE` and stays in its state on
    /// every other edge, as CPAchecker's automata do with the branches their analysis ruled out.
    fn aa(to_true: &str) -> String {
        format!(
            "OBSERVER AUTOMATON AssumptionAutomaton\nINITIAL STATE ARG0;\nSTATE __TRUE :\n    TRUE -> GOTO __TRUE;\n\
             STATE USEFIRST ARG0 :\n    MATCH \"{to_true}\" -> GOTO __TRUE;\n    TRUE -> GOTO ARG0;\nEND AUTOMATON\n"
        )
    }

    /// The over-approximation's lines and those of them the value analysis rules out.
    fn lines(src: &str, automaton: &str) -> (Vec<u32>, Vec<u32>) {
        let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
        let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
        let (aut, _) = parse(&SourceFile::new("aa.txt", automaton.to_string())).expect("automaton parses");
        let names = prog.funcs.iter().map(|f| f.name.clone()).collect();
        let product = Product::build(&aut, &cfa, names, crate::cfa::Generation::V1);
        let reach = ReachInfo::compute(&product, &aut, &cfa, LineRule::Spanned);
        let kept = analyse(&product, &cfa, &prog, Undefined::ALL, &|| false).expect("small").lines(
            &product,
            &cfa,
            LineRule::Spanned,
        );
        let ruled_out = reach.over_lines.iter().copied().filter(|l| kept.binary_search(l).is_err()).collect();
        (reach.over_lines, ruled_out)
    }

    /// For each `(edge, line, ruled_out)`: with an automaton that sends `edge` to `__TRUE`, `line`
    /// is in the over-approximation, and the value analysis rules it out exactly when `ruled_out`.
    fn assert_ruled_out(src: &str, cases: &[(&str, u32, bool)]) {
        for &(edge, line, ruled_out) in cases {
            let (over, out) = lines(src, &aa(edge));
            assert!(over.contains(&line), "{edge}: {over:?}");
            assert_eq!(out.contains(&line), ruled_out, "{edge}: {out:?}");
        }
    }

    const MODE: &str = include_str!("../../fixtures/c/coverage/mode_guard.c");

    #[test]
    fn a_branch_the_values_rule_out_does_not_bring_in_what_the_cfa_reaches_behind_it() {
        let (over, out) = lines(MODE, &aa("[state == 1]"));
        // Behind `[state == 1]` the automaton reaches `__TRUE`: the handler counts in the
        // over-approximation, but `state` is 0 there.
        for l in [4, 5, 11] {
            assert!(over.contains(&l), "line {l} in {over:?}");
        }
        assert_eq!(out, vec![4, 5, 11]);
    }

    #[test]
    fn a_return_from_a_call_that_may_reenter_the_caller_forgets_the_callers_variables() {
        // `f(1)` runs an inner activation of `f`, whose `x` shares the outer one's name: what the
        // inner `x = 0` left says nothing of the outer `x` (5) after the return. `h()` cannot
        // re-enter `f`: `x` keeps its value over it.
        let src = "int g = 0;
void h(void) { g = g + 1; }
void f(int depth) {
  int x = 0;
  if (depth == 0) {
    x = 5;
    h();
    f(1);
    if (x == 5) {
      g = 1;
    }
  }
}
int main(void) {
  f(0);
  return g;
}
";
        let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
        let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
        let uses = VarUses::of(&cfa, &prog);
        let tracked = tracked_vars(&prog, &uses);
        let components = call_components(&cfa, prog.funcs.len());
        let constants = HashMap::new();
        let undefined = vec![false; cfa.call_sites.len()];
        let a = Analyser {
            cfa: &cfa,
            prog: &prog,
            tracked: &tracked,
            arrays: &summarized_arrays(&prog, &uses),
            constants: &constants,
            components: &components,
            undefined: &undefined,
            null_access: true,
            cut_at_null: std::cell::Cell::new(false),
        };
        let x = VarId(prog.vars.iter().position(|v| v.name == "x").expect("x") as u32);
        assert!(tracked[x.idx()].is_some(), "a recursive function's variable is tracked");
        let env: Env = [(x, Val::Is(vec![5].into()))].into_iter().collect();
        let after = |callee: &str| {
            let (e, _) = cfa
                .edges()
                .find(|(_, e)| {
                    matches!(e.kind, EdgeKind::Return(cs) if prog.func(cfa.call_site(cs).callee).name == callee
                        && prog.func(cfa.call_site(cs).caller).name == "f")
                })
                .expect("a return edge");
            match a.transfer(&env, e) {
                Some(Out::New(next)) => next.get(&x).cloned(),
                Some(Out::Same) => env.get(&x).cloned(),
                None => panic!("a return is always taken"),
            }
        };
        assert_eq!(after("h"), Some(Val::Is(vec![5].into())));
        assert_eq!(after("f"), None, "any value after the recursive call");
    }

    #[test]
    fn a_variable_whose_address_is_taken_is_not_tracked() {
        // `reset(&state)` may write anything into `state`.
        let src = MODE.replace("int main(void) {\n", "void reset(int *p);\nint main(void) {\n  reset(&state);\n");
        let (over, out) = lines(&src, &aa("[state == 1]"));
        assert!(over.contains(&12), "{over:?}");
        assert_eq!(out, Vec::<u32>::new());
    }

    #[test]
    fn values_flow_through_calls_returns_and_conversions() {
        let src = "extern int __VERIFIER_nondet_int(void);
int twice(int v) {
  return v + v;
}
int main(void) {
  unsigned char c = 255;
  int k;
  c = c + 1;
  k = twice(c);
  if (k == 0) {
    k = 1;
  }
  if (k == 2) {
    k = 3;
  }
  return 0;
}
";
        // `c` wraps to 0: `k == 0` holds (and after it, `k` is 1, so `k == 2` cannot)...
        let (over, out) = lines(src, &aa("[k == 0]"));
        assert!(over.contains(&11) && over.contains(&14), "{over:?}");
        assert_eq!(out, vec![14]);
        // ... and without the automaton's help either.
        let (over, out) = lines(src, &aa("[k == 2]"));
        assert!(over.contains(&14), "{over:?}");
        assert_eq!(out, vec![14]);
    }

    #[test]
    fn a_call_does_not_see_the_locals_or_return_value_of_an_earlier_call() {
        // The second call of `f` falls off its end: its result is indeterminate, not the 1 of the
        // first call (the executor reads a fresh value there).
        let src = "int f(int x) {
  if (x) {
    return 1;
  }
}
int main(void) {
  int a = f(1);
  int b = f(0);
  if (b == 2) {
    return 1;
  }
  return 0;
}
";
        let (over, out) = lines(src, &aa("[b == 2]"));
        assert!(over.contains(&10), "{over:?}");
        assert_eq!(out, Vec::<u32>::new());
    }

    #[test]
    fn a_variable_inline_assembly_names_is_not_tracked() {
        let src = "int main(void) {
  int r = 0;
  __asm__ volatile (\"movl $1, %0\" : \"=r\" (r));
  if (r == 1) {
    return 1;
  }
  return 0;
}
";
        let (over, out) = lines(src, &aa("[r == 1]"));
        assert!(over.contains(&5), "{over:?}");
        assert_eq!(out, Vec::<u32>::new());
        // The operands name variables of their own function only; a template may name a global.
        // `f`'s `r` and `a` (a constraint's letter) are tracked, `g` is not.
        let src = "int g = 0;
int f(void) {
  int r = 0;
  int a = 0;
  if (r == 1) {
    return 1;
  }
  if (a == 2) {
    return 2;
  }
  return 0;
}
int main(void) {
  int r = 0;
  __asm__ volatile (\"movl $1, %0; movl $1, g\" : \"=r\" (r) : \"a\" (0));
  if (g == 1) {
    return 3;
  }
  return f();
}
";
        assert_ruled_out(src, &[("[r == 1]", 6, true), ("[a == 2]", 9, true), ("[g == 1]", 17, false)]);
    }

    #[test]
    fn an_array_only_indexed_holds_what_its_elements_were_given() {
        // `tab` and `ptab` are only read and written as `a[i]`: `tab`'s elements are 0 or 5,
        // `ptab`'s null. `esc`'s address escapes through `&esc[1]` (any value), `loc` is an automatic
        // array without initializer (anything), `init` holds 3, 4 and zero.
        let src = "extern int nondet_int(void);
static int tab[4];
static int *ptab[4];
static int esc[4];
int *where(void) { return &esc[1]; }
int main(void) {
  int i = nondet_int();
  int loc[2];
  int init[3] = {3, 4};
  tab[i] = 5;
  ptab[i] = (int *)0;
  int c = tab[i + 1];
  int *p = ptab[i];
  int d = esc[i];
  int l = loc[i];
  int k = init[i];
  if (c == 7) {
    return 1;
  }
  if (c == 5) {
    return 2;
  }
  if (p != (int *)0) {
    return 3;
  }
  if (d == 7) {
    return 4;
  }
  if (l == 7) {
    return 5;
  }
  if (k == 7) {
    return 6;
  }
  if (k == 4) {
    return 7;
  }
  return 0;
}
";
        assert_ruled_out(
            src,
            &[
                ("[c == 7]", 18, true),
                ("[c == 5]", 21, false),
                ("[p != (int *)0]", 24, true),
                ("[d == 7]", 27, false),
                ("[l == 7]", 30, false),
                ("[k == 7]", 33, true),
                ("[k == 4]", 36, false),
            ],
        );
    }

    #[test]
    fn no_execution_goes_past_an_access_through_a_pointer_that_can_only_be_null() {
        // `debug` is set only by `init`, which nothing calls: reading `*debug` is undefined
        // behaviour on every way there, so nothing behind it is taken. `maybe` may point to `g`:
        // the way past `*maybe` stays; `&debug[1]` computes an address and reads nothing.
        let src = "extern int nondet_int(void);
static int *debug;
int g;
void init(int *d) { debug = d; }
int main(void) {
  int x = nondet_int();
  int *maybe = (int *)0;
  if (nondet_int()) {
    maybe = &g;
  }
  if (x == 1) {
    x = *debug;
    g = 2;
  }
  if (x == 3) {
    x = *maybe;
    g = 4;
  }
  if (x == 5) {
    int *p = &debug[1];
    g = 6;
  }
  return 0;
}
";
        assert_ruled_out(src, &[("[x == 1]", 13, true), ("[x == 3]", 17, false), ("[x == 5]", 21, false)]);
    }

    #[test]
    fn a_line_from_which_every_way_ends_before_the_end_of_main_is_taken_by_no_terminating_execution() {
        // In `poll` every way reads `*debug`, null: `g = 1` is reached, but no execution that
        // covers it terminates. In `ioctl` the way with `cmd == 1` returns first: the lines before
        // the branch stay.
        let src = "extern int nondet_int(void);
static int *debug;
int g;
void poll(void) {
  g = 1;
  g = *debug;
}
void ioctl(int cmd) {
  g = 2;
  if (cmd == 1) {
    return;
  }
  g = *debug;
}
int main(void) {
  int c = nondet_int();
  if (c == 2) {
    poll();
  }
  ioctl(c);
  return 0;
}
";
        let (over, out) = lines(src, &aa("[c == 2]"));
        for l in [5, 13, 18] {
            assert!(over.contains(&l) && out.contains(&l), "line {l}: {over:?} {out:?}");
        }
        for l in [9, 10, 11, 20, 21] {
            assert!(over.contains(&l) && !out.contains(&l), "line {l}: {over:?} {out:?}");
        }
    }

    #[test]
    fn a_comparison_the_known_bits_keep_apart_is_decided() {
        // A 32-bit value converted to 64 bits is below 2^60 - 4096, whatever it is (the kernel's
        // `IS_ERR` in a 32-bit program compiled for 64-bit constants); a value masked to 8 bits is
        // not negative; nothing is known of `x > 5`.
        let src = "extern unsigned int nondet_uint(void);
extern int nondet_int(void);
int main(void) {
  unsigned int x = nondet_uint();
  int y = nondet_int() & 255;
  int err = (unsigned long long)x > 1152921504606842880ULL;
  if (err) {
    return 1;
  }
  if (y < 0) {
    return 2;
  }
  if (x > 5U) {
    return 3;
  }
  return 0;
}
";
        assert_ruled_out(src, &[("[err]", 8, true), ("[y < 0]", 11, true), ("[x > 5U]", 14, false)]);
    }

    #[test]
    fn an_address_only_an_unused_initializer_takes_flows_nowhere() {
        // `param_debug` is never named outside its declaration (a module parameter's descriptor):
        // `debug` stays tracked. `param_level` is read in `get`, so `&level` flows there.
        let src = "struct param { void *arg; };
static int debug = 0;
static int level = 0;
static struct param const param_debug = { (void *)&debug };
static struct param const param_level = { (void *)&level };
void *get(void) { return param_level.arg; }
int main(void) {
  if (debug) {
    return 1;
  }
  if (level) {
    return 2;
  }
  return 0;
}
";
        assert_ruled_out(src, &[("[debug]", 9, true), ("[level]", 12, false)]);
    }

    #[test]
    fn a_member_of_a_global_nothing_writes_has_its_initial_value() {
        // `desc` is only read: `desc.enabled` is 0 and `desc.level` (left out) is 0 as well; the
        // same reads of `live`, which the program writes, may be anything.
        let src = "struct d { const char *name; unsigned int line : 24; char enabled; int level; };
static struct d desc = {\"mod\", 12U, (char)0};
static struct d live = {\"mod\", 12U, (char)0};
void enable(void) { live.enabled = 1; }
int main(void) {
  int t = desc.enabled;
  int u = desc.level;
  int w = live.enabled;
  if (t) {
    return 1;
  }
  if (u == 3) {
    return 2;
  }
  if (w) {
    return 3;
  }
  return 0;
}
";
        assert_ruled_out(src, &[("[t]", 10, true), ("[u == 3]", 13, true), ("[w]", 16, false)]);
        // A member whose address is taken, a union and a bit-field are not followed.
        let src = "struct d { int on; unsigned int bits : 4; };
union u { int a; char b; };
static struct d desc = {0, 0U};
static struct d shared = {0, 0U};
static union u un = {0};
int *where(void) { return &shared.on; }
int main(void) {
  int t = shared.on;
  int b = desc.bits;
  int c = un.b;
  if (t) {
    return 1;
  }
  if (b) {
    return 2;
  }
  if (c) {
    return 3;
  }
  return 0;
}
";
        assert_ruled_out(src, &[("[t]", 12, false), ("[b]", 15, false), ("[c]", 18, false)]);
    }

    #[test]
    fn bits_that_bitwise_operations_set_stay_known_through_conversions_and_joins() {
        // usbmouse's `usb_maxpacket(dev, pipe, !(pipe & 128))` with `pipe = x | 128`.
        let src = "extern unsigned int get(void);
extern int flag(void);
int main(void) {
  unsigned int u = get();
  int pipe = (int)(u | 128U);
  int is_out = !(pipe & 128);
  signed char c = (signed char)(u | 128U);
  int x = c;
  unsigned char b = (unsigned char)(u | 128U);
  int y = b;
  int v;
  if (is_out) {
    return 1;
  }
  if ((x & 256) == 0) {
    return 2;
  }
  if ((y & 256) != 0) {
    return 3;
  }
  if ((y & 64) != 0) {
    return 4;
  }
  if (flag()) {
    v = 3;
  } else {
    v = (int)(u | 1U);
  }
  if ((v & 1) == 0) {
    return 5;
  }
  if ((v & 2) == 0) {
    return 6;
  }
  return 0;
}
";
        // Bit 7 set: `is_out` is 0; a signed char with bit 7 set is negative (bit 8 of the int is
        // set), an unsigned char is not (bit 8 clear); bit 6 is unknown; `v` is 3 or odd; bit 1 of
        // `v` is unknown.
        assert_ruled_out(
            src,
            &[
                ("[is_out]", 13, true),
                ("[(x & 256) == 0]", 16, true),
                ("[(y & 256) != 0]", 19, true),
                ("[(y & 64) != 0]", 22, false),
                ("[(v & 1) == 0]", 30, true),
                ("[(v & 2) == 0]", 33, false),
            ],
        );
    }

    #[test]
    fn a_pointer_tested_not_null_stays_not_null_where_it_is_copied() {
        let src = "extern void *get(void);
int main(void) {
  int *q = get();
  int *r;
  if (q == 0) {
    return 1;
  }
  r = q;
  if (r == 0) {
    return 2;
  }
  return 0;
}
";
        let (over, out) = lines(src, &aa("[r == 0]"));
        assert!(over.contains(&10), "{over:?}");
        assert_eq!(out, vec![10]);
    }

    #[test]
    fn an_address_is_not_null_and_builtin_expect_is_its_first_argument() {
        let src = "long __builtin_expect(long e, long c);
int g;
int main(void) {
  int *p = &g;
  long t;
  t = __builtin_expect((long)(p == 0), 0L);
  if (t != 0L) {
    return 1;
  }
  return 0;
}
";
        let (over, out) = lines(src, &aa("[t != 0L]"));
        assert!(over.contains(&8), "{over:?}");
        assert_eq!(out, vec![8]);
    }

    #[test]
    fn a_counter_with_more_values_than_the_analysis_keeps_may_hold_anything() {
        let src = "int main(void) {
  int i = 0;
  while (i < 20) {
    i++;
  }
  if (i == 20) {
    i = 0;
  }
  if (i == 30) {
    i = 1;
  }
  return 0;
}
";
        // Sound, not precise: past `MAX_VALUES` values `i` may be anything, so neither branch is
        // ruled out (the first is taken by every execution).
        for target in ["[i == 20]", "[i == 30]"] {
            let (over, out) = lines(src, &aa(target));
            assert!(over.contains(&7) && over.contains(&10), "{over:?}");
            assert_eq!(out, Vec::<u32>::new(), "{target}");
        }
    }

    #[test]
    fn joins_keep_value_sets_and_excluded_values_apart() {
        let is = |v: &[i128]| Val::Is(v.into());
        let not = |v: &[i128]| Val::Not(v.into());
        assert_eq!(is(&[1, 3]).join(&is(&[2])), Some(is(&[1, 2, 3])));
        assert_eq!(is(&[0, 1, 2, 3, 4, 5, 6]).join(&is(&[7, 8])), None);
        assert_eq!(not(&[0]).join(&is(&[5])), Some(not(&[0])));
        assert_eq!(not(&[0]).join(&is(&[0])), None);
        assert_eq!(not(&[0, 1]).join(&not(&[1, 2])), Some(not(&[1])));
        assert!(not(&[0]).admits(7) && !not(&[0]).admits(0) && !is(&[1]).admits(0));
    }
}
