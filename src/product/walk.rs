//! Following an automaton along one concrete path of the CFA (one step per edge).

use super::{Matcher, StackId, Stacks};
use crate::automaton::{AssumeTruth, Automaton, StateId, Target};
use crate::cfa::{Cfa, EdgeId, EdgeKind};

/// What the automaton does on one edge.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// It moves to (or stays in) this state.
    To(StateId),
    /// The path ends: a constantly false `ASSUME` (`{false}`, `{0}`), `STOP`, `BREAK`.
    Blocked,
    /// The transition goes to `ERROR` (the target of a counterexample automaton).
    Error,
}

/// The edges a path may take from CFA node `src` with call stack `stack`: summary edges never, return
/// edges only to the call on top of the stack.
pub fn takeable_edges(cfa: &Cfa, stacks: &Stacks, stack: StackId, src: crate::cfa::NodeId) -> Vec<EdgeId> {
    cfa.frame_out_edges(src, stacks.top(stack).map(|(top, _)| top))
}

/// The call stack after taking `e`.
pub fn stack_after(cfa: &Cfa, stacks: &mut Stacks, stack: StackId, e: EdgeId) -> StackId {
    match cfa.edge(e).kind {
        EdgeKind::Call(cs) => stacks.push(stack, cs),
        EdgeKind::Return(_) => stacks.top(stack).map_or(stack, |(_, rest)| rest),
        _ => stack,
    }
}

/// The automaton's step from state `q` on edge `e` (one of `siblings`, the takeable edges of its source).
pub fn step(aut: &Automaton, matcher: &Matcher, q: StateId, siblings: &[EdgeId], e: EdgeId) -> Step {
    let i = siblings.iter().position(|&x| x == e).expect("edge among its siblings");
    let fired = matcher.fire_all(q, siblings).swap_remove(i);
    let Some(&t) = fired.transitions.first() else { return Step::To(q) };
    let tr = &aut.state(q).transitions[t];
    if tr.assume == AssumeTruth::False {
        return Step::Blocked;
    }
    match tr.target {
        Target::Goto(next) => Step::To(next),
        Target::Error(_) => Step::Error,
        Target::Stop | Target::Break => Step::Blocked,
    }
}
