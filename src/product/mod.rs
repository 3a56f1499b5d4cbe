//! The composition of an assumption automaton with the program's CFA, with call stacks, and what is
//! computed on it: which automaton states and transitions the program can reach, the Reach scores of
//! the Verification Coverage paper, and the over-approximation of verification coverage.
//!
//! A product node is (automaton state, CFA node, call stack). Nodes whose automaton state is `__TRUE`
//! or `__FALSE` are leaves: nothing restricts the program after `__TRUE` (its reach is computed on the
//! CFA with summaries, see `reach`), and `__FALSE` ends the explored region.
//!
//! Invariant: a return edge is only taken to the call site on top of the node's call stack.
//! Invariant: an observer automaton state stays the same on an edge no transition fires on (so also
//! on an edge its CPAchecker generation does not build, `cfa::Edge::exists_in`).
//! Invariant: all transitions of one automaton are matched with the edge texts of one generation.
//! Invariant: only this module and `cfa` import `petgraph`.

mod generation;
mod matching;
mod reach;
pub mod values;
mod walk;

use std::collections::HashMap;

use crate::automaton::{AssumeTruth, Automaton, StateId, Target};
use crate::cfa::{CallSiteId, Cfa, EdgeId, Generation, NodeId};
use crate::id_type;

pub use generation::{detect, exact_texts, foreign_text, texts_found, Source};
pub use matching::{assume_polarity, token_key, Fired, Matcher, Tier};
pub use reach::{solve_dag, ReachInfo, TrueRegion};
pub use walk::{stack_after, step, takeable_edges, Step};

id_type! {
    /// A node of the product.
    pub struct ProductNodeId;
}
id_type! {
    /// An interned call stack.
    pub struct StackId;
}

/// Call stacks as a tree of (parent, call site); `StackId(0)` is the empty stack.
#[derive(Clone, Debug)]
pub struct Stacks {
    frames: Vec<(StackId, CallSiteId)>,
    index: HashMap<(StackId, CallSiteId), StackId>,
}

impl Default for Stacks {
    fn default() -> Self {
        // Slot 0 is the empty stack; its frame is never read.
        Stacks { frames: vec![(StackId(0), CallSiteId(u32::MAX))], index: HashMap::new() }
    }
}

impl Stacks {
    /// The empty stack.
    pub const EMPTY: StackId = StackId(0);

    /// `s` with `cs` pushed.
    pub fn push(&mut self, s: StackId, cs: CallSiteId) -> StackId {
        *self.index.entry((s, cs)).or_insert_with(|| {
            self.frames.push((s, cs));
            StackId::from_idx(self.frames.len() - 1)
        })
    }

    /// The top call site and the rest of the stack, or `None` for the empty stack.
    pub fn top(&self, s: StackId) -> Option<(CallSiteId, StackId)> {
        (s != Self::EMPTY).then(|| {
            let (parent, cs) = self.frames[s.idx()];
            (cs, parent)
        })
    }
}

/// One node of the product.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ProductNode {
    /// Automaton state.
    pub aut: StateId,
    /// CFA location.
    pub cfa: NodeId,
    /// Call stack.
    pub stack: StackId,
}

/// One product edge: the CFA edge taken and, if a transition fired, which one.
#[derive(Clone, Copy, Debug)]
pub struct ProductEdge {
    /// The CFA edge.
    pub edge: EdgeId,
    /// The successor.
    pub to: ProductNodeId,
    /// The transition (index in the source state's transitions) that fired, if any.
    pub transition: Option<u32>,
    /// How the transition's text matched.
    pub tier: Option<Tier>,
}

/// The reachable part of automaton × CFA.
#[derive(Clone, Debug)]
pub struct Product {
    /// All nodes; `nodes[0]` is the initial one.
    pub nodes: Vec<ProductNode>,
    /// Successors of each node (empty for `__TRUE`/`__FALSE` leaves).
    pub succ: Vec<Vec<ProductEdge>>,
    /// The call stacks used.
    pub stacks: Stacks,
    /// The `__TRUE` state, if the automaton has one.
    pub true_state: Option<StateId>,
    /// The `__FALSE` state, if the automaton has one.
    pub false_state: Option<StateId>,
    /// Number of transitions matched per tier (exact, tokens, loose, context).
    pub tier_counts: [u64; 4],
    /// The CPAchecker generation whose edge texts the transitions were matched with.
    pub generation: Generation,
    /// How that generation was chosen (`Forced` after `Product::build`, where the caller chose it;
    /// `detect` says).
    pub source: Source,
    /// Transitions (state, index) that fired but whose `ASSUME {false}` blocks the path: they match
    /// the program (`match_stats` counts them as used), though no product edge takes them. Sorted.
    pub blocked: Vec<(StateId, u32)>,
}

/// How much of the automaton the program reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStats {
    /// States other than `__TRUE`/`__FALSE`.
    pub states: usize,
    /// Those of them that occur in the product.
    pub states_reached: usize,
    /// Transitions of those states (all states other than `__TRUE`/`__FALSE`).
    pub transitions: usize,
    /// Those of them that fired at least once.
    pub transitions_used: usize,
    /// States never reached: name and line in the automaton file.
    pub unreached: Vec<(String, u32)>,
    /// Those of them the automaton's own transitions lead to from its initial state (ignoring
    /// triggers): a state no transition leads to is unreachable in any program and says nothing about
    /// the fit.
    pub missed: Vec<(String, u32)>,
    /// `MATCH` transitions of reached states that never fired: state name, transition line.
    pub unused_transitions: Vec<(String, u32)>,
    /// The CPAchecker generation whose edge texts the transitions were matched with.
    pub generation: Generation,
    /// How that generation was chosen.
    pub source: Source,
}

impl MatchStats {
    /// Whether the automaton fits the program: every state its own transitions lead to is reached in
    /// the product. An automaton CPAchecker wrote for this program reaches every state (checked on all
    /// automata of the corpus); one written for another program reaches few of them.
    pub fn fits(&self) -> bool {
        self.missed.is_empty()
    }
}

impl Product {
    /// Explores the product from (initial state, program entry, empty stack), matching `MATCH` texts
    /// with the edge texts of `generation`.
    pub fn build(aut: &Automaton, cfa: &Cfa, func_names: Vec<String>, generation: Generation) -> Product {
        let matcher = Matcher::new(aut, cfa, func_names, generation);
        let mut p = Product {
            nodes: Vec::new(),
            succ: Vec::new(),
            stacks: Stacks::default(),
            true_state: aut.true_state(),
            false_state: aut.false_state(),
            tier_counts: [0; 4],
            generation,
            source: Source::Forced,
            blocked: Vec::new(),
        };
        let mut index: HashMap<ProductNode, ProductNodeId> = HashMap::new();
        let start = ProductNode { aut: aut.initial, cfa: cfa.entry(), stack: Stacks::EMPTY };
        p.intern(start, &mut index);
        let mut next = 0;
        while next < p.nodes.len() {
            let id = ProductNodeId::from_idx(next);
            next += 1;
            let node = p.nodes[id.idx()];
            if p.is_leaf(node.aut) {
                continue;
            }
            let edges = takeable_edges(cfa, &p.stacks, node.stack, node.cfa);
            let fired = matcher.fire_all(node.aut, &edges);
            let mut blocked = Vec::new();
            let mut succ = Vec::new();
            for (&e, f) in edges.iter().zip(fired) {
                let edge = cfa.edge(e);
                let stack = stack_after(cfa, &mut p.stacks, node.stack, e);
                if let Some(t) = f.tier {
                    p.tier_counts[t as usize] += f.transitions.len() as u64;
                }
                let targets: Vec<(Option<u32>, StateId)> = if f.transitions.is_empty() {
                    // An observer automaton stays where it is when no transition fires.
                    vec![(None, node.aut)]
                } else {
                    let state = aut.state(node.aut);
                    f.transitions
                        .iter()
                        .filter_map(|&t| {
                            let tr = &state.transitions[t];
                            // `ASSUME {false}` (or any constantly false assumption) blocks the path.
                            if tr.assume == AssumeTruth::False {
                                blocked.push((node.aut, t as u32));
                                return None;
                            }
                            match tr.target {
                                Target::Goto(q) => Some((Some(t as u32), q)),
                                // In an assumption automaton these end the path.
                                Target::Error(_) | Target::Stop | Target::Break => None,
                            }
                        })
                        .collect()
                };
                for (t, q) in targets {
                    let to = p.intern(ProductNode { aut: q, cfa: edge.dst, stack }, &mut index);
                    succ.push(ProductEdge { edge: e, to, transition: t, tier: f.tier });
                }
            }
            p.succ[id.idx()] = succ;
            p.blocked.extend(blocked);
        }
        p.blocked.sort_unstable();
        p.blocked.dedup();
        p
    }

    fn intern(&mut self, n: ProductNode, index: &mut HashMap<ProductNode, ProductNodeId>) -> ProductNodeId {
        *index.entry(n).or_insert_with(|| {
            self.nodes.push(n);
            self.succ.push(Vec::new());
            ProductNodeId::from_idx(self.nodes.len() - 1)
        })
    }

    /// How many product edges took a transition without `MATCH` (a fallback such as `TRUE -> …`).
    pub fn fallback_firings(&self) -> usize {
        self.succ.iter().flatten().filter(|e| e.transition.is_some() && e.tier.is_none()).count()
    }

    /// Whether nodes in state `q` are not expanded (`__TRUE` and `__FALSE`).
    pub fn is_leaf(&self, q: StateId) -> bool {
        Some(q) == self.true_state || Some(q) == self.false_state
    }

    /// Which states and transitions of `aut` the program reaches.
    pub fn match_stats(&self, aut: &Automaton) -> MatchStats {
        let special = |q: StateId| Some(q) == self.true_state || Some(q) == self.false_state;
        let mut reached = vec![false; aut.states.len()];
        let mut used: Vec<Vec<bool>> = aut.states.iter().map(|s| vec![false; s.transitions.len()]).collect();
        for (i, n) in self.nodes.iter().enumerate() {
            reached[n.aut.idx()] = true;
            for e in &self.succ[i] {
                if let Some(t) = e.transition {
                    used[n.aut.idx()][t as usize] = true;
                }
            }
        }
        for &(q, t) in &self.blocked {
            used[q.idx()][t as usize] = true;
        }
        let mut stats = MatchStats {
            states: 0,
            states_reached: 0,
            transitions: 0,
            transitions_used: 0,
            unreached: Vec::new(),
            missed: Vec::new(),
            unused_transitions: Vec::new(),
            generation: self.generation,
            source: self.source,
        };
        let mut in_automaton = vec![false; aut.states.len()];
        let mut todo = vec![aut.initial];
        while let Some(q) = todo.pop() {
            if std::mem::replace(&mut in_automaton[q.idx()], true) {
                continue;
            }
            for tr in &aut.state(q).transitions {
                if let Target::Goto(next) = tr.target {
                    todo.push(next);
                }
            }
        }
        for q in aut.state_ids() {
            if special(q) {
                continue;
            }
            let st = aut.state(q);
            stats.states += 1;
            stats.transitions += st.transitions.len();
            if reached[q.idx()] {
                stats.states_reached += 1;
            } else {
                stats.unreached.push((st.name.clone(), st.line));
                if in_automaton[q.idx()] {
                    stats.missed.push((st.name.clone(), st.line));
                }
            }
            for (t, tr) in st.transitions.iter().enumerate() {
                if used[q.idx()][t] {
                    stats.transitions_used += 1;
                } else if reached[q.idx()] && matching::has_match(&tr.trigger) {
                    // A fallback that never fires is normal; a MATCH that never fires did not fit.
                    stats.unused_transitions.push((st.name.clone(), tr.line));
                }
            }
        }
        stats
    }
}
