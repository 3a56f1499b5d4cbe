//! Executions given as CPAchecker counterexample automata (`Counterexample.N.spc`): the automaton is
//! followed through the CFA until it reaches its `ERROR` transition.

use std::collections::{HashMap, VecDeque};

use crate::automaton::{Automaton, StateId};
use crate::cfa::{Cfa, EdgeId, Generation, NodeId};
use crate::product::{exact_texts, stack_after, step, takeable_edges, texts_found, Matcher, StackId, Stacks, Step};

/// Why a counterexample automaton does not describe a path of the program.
#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    /// No path of the CFA takes the automaton to its `ERROR` transition.
    #[error(
        "no path of the program follows the automaton to its ERROR transition (it got as far as automaton line {line})"
    )]
    NoPath {
        /// Line in the automaton file of the furthest state reached.
        line: u32,
    },
}

/// The CFA path described by counterexample automaton `cex`: the shortest path from the program entry
/// whose edges the automaton follows to its `ERROR` transition (breadth-first over automaton state,
/// CFA node and call stack, so edges with equal texts are told apart by what follows them), with the
/// edge texts of the generation that wrote it (`follow_counterexample`).
pub fn path_of_counterexample(cex: &Automaton, cfa: &Cfa, func_names: Vec<String>) -> Result<Vec<EdgeId>, FollowError> {
    follow_counterexample(cex, cfa, func_names, None).map(|(path, _)| path)
}

/// `path_of_counterexample` with the edge texts of the generation that wrote `cex` (among those that
/// share `forced`'s texts, if given): the generations are tried by how many `MATCH` texts of `cex`
/// are edge texts in them, most first, and the first one with a path wins. The path and that
/// generation; without a path, the error of the first generation tried.
pub fn follow_counterexample(
    cex: &Automaton,
    cfa: &Cfa,
    func_names: Vec<String>,
    forced: Option<Generation>,
) -> Result<(Vec<EdgeId>, Generation), FollowError> {
    let candidates = forced.map_or(&Generation::ALL[..], Generation::with_texts_of);
    let texts = exact_texts(cex);
    let mut found: Vec<(usize, Generation)> = candidates.iter().map(|&g| (texts_found(cfa, &texts, g), g)).collect();
    // Most texts found first; the sort is stable, so in `Generation::ALL`'s order among equals.
    found.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
    let order: Vec<Generation> = found.into_iter().map(|(_, g)| g).collect();
    let mut first_err = None;
    for g in order {
        match path_in(cex, cfa, func_names.clone(), g) {
            Ok(path) => return Ok((path, g)),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.expect("at least one generation"))
}

/// The path of `cex` through `cfa` with the edge texts of `generation`.
fn path_in(
    cex: &Automaton,
    cfa: &Cfa,
    func_names: Vec<String>,
    generation: Generation,
) -> Result<Vec<EdgeId>, FollowError> {
    let matcher = Matcher::new(cex, cfa, func_names, generation);
    let mut stacks = Stacks::default();
    type Key = (StateId, NodeId, StackId);
    let start: Key = (cex.initial, cfa.entry(), Stacks::EMPTY);
    let mut parent: HashMap<Key, Option<(Key, EdgeId)>> = HashMap::from([(start, None)]);
    let mut queue = VecDeque::from([start]);
    let mut furthest = cex.state(cex.initial).line;
    while let Some(key @ (q, n, s)) = queue.pop_front() {
        furthest = furthest.max(cex.state(q).line);
        let siblings = takeable_edges(cfa, &stacks, s, n);
        for &e in &siblings {
            let next_q = match step(cex, &matcher, q, &siblings, e) {
                Step::To(q2) => q2,
                Step::Blocked => continue,
                Step::Error => {
                    let mut path = vec![e];
                    let mut cur = key;
                    while let Some(Some((prev, pe))) = parent.get(&cur) {
                        path.push(*pe);
                        cur = *prev;
                    }
                    path.reverse();
                    return Ok(path);
                }
            };
            let next = (next_q, cfa.edge(e).dst, stack_after(cfa, &mut stacks, s, e));
            if let std::collections::hash_map::Entry::Vacant(slot) = parent.entry(next) {
                slot.insert(Some((key, e)));
                queue.push_back(next);
            }
        }
    }
    Err(FollowError::NoPath { line: furthest })
}
