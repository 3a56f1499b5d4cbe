//! Branching: a path at a location that assume edges leave becomes the paths of its feasible
//! successors (see the module documentation of `super`). `Explorer::branch` evaluates the
//! conditions once on the path's state, lets the guide see (or prune) each successor and order
//! them, checks their feasibility eagerly (avoiding the solver where it can), makes the paths of the
//! feasible ones and queues them.

use std::rc::Rc;

use super::outcome::{CutReason, PathEnd, Step, Succ};
use super::{Explorer, Guide, Item, SolverOracle, Strategy};
use crate::cfa::{EdgeId, EdgeKind};
use crate::sat::{Aig, AigLit, SatResult};
use crate::symex::exec::Exec;
use crate::symex::solver::{Mode, Solver};
use crate::symex::state::SymState;

/// A successor of a branch: its edge, its condition and its tag.
type Successor<T> = (EdgeId, AigLit, T);

/// The successors of a branch that the guide keeps, on their way to becoming paths.
struct Branch<T> {
    /// In the guide's order (once `order_successors` ran).
    succs: Vec<Successor<T>>,
    /// The edges of those that enter a `CompletionOnly` subtree.
    completion: Vec<EdgeId>,
    /// Whether the branch has two edges with complementary conditions.
    complementary: bool,
    /// The supports of the conditions.
    supports: Supports,
}

/// The supports of the successors' conditions, computed at most once per AIG node: a two-way
/// branch's conditions are one node, checked for independence and assumed by each side.
#[derive(Default)]
struct Supports(Vec<(usize, Rc<[u32]>)>);

impl Supports {
    /// The support of `lit`.
    fn of(&mut self, aig: &Aig, lit: AigLit) -> Rc<[u32]> {
        if let Some((_, sup)) = self.0.iter().find(|(n, _)| *n == lit.node_idx()) {
            return sup.clone();
        }
        let sup = aig.support(lit);
        self.0.push((lit.node_idx(), sup.clone()));
        sup
    }
}

impl<G: Guide> Explorer<'_, G> {
    /// Branches over the assume edges `edges` leaving the path's location.
    pub(super) fn branch(&mut self, it: Item<G::Tag>, edges: &[EdgeId]) -> Option<Item<G::Tag>> {
        let (it, lits) = self.conditions(it, edges)?;
        let mut branch = self.guide_successors(&it, edges, &lits)?;
        self.order_successors(&it.st, &mut branch.succs);
        let (feasible, model_child) = self.feasibility(&it, &mut branch)?;
        let children = self.successor_paths(&it, branch, &feasible, model_child);
        self.queue_children(&it, children)
    }

    /// The conditions of `edges`, evaluated once on the path's state, and the path split on the
    /// undefined behaviour and the narrowing met on the way (attributed to the first edge); `None`
    /// when no part of the path goes on.
    fn conditions(&mut self, mut it: Item<G::Tag>, edges: &[EdgeId]) -> Option<(Item<G::Tag>, Vec<AigLit>)> {
        let cfa = self.world.cfa;
        let mut lits = Vec::with_capacity(edges.len());
        let (res, ub, narrowed) = {
            let mut oracle = SolverOracle { solver: &mut self.solver };
            let mut ex = Exec::new(&self.world, &mut self.aig, &mut it.st, &mut oracle);
            let mut res = Ok(());
            for &e in edges {
                match &cfa.edge(e).kind {
                    EdgeKind::Assume { cond, truth } => match ex.condition(cond) {
                        Ok(l) => lits.push(if *truth { l } else { !l }),
                        Err(u) => {
                            res = Err((e, u));
                            break;
                        }
                    },
                    _ => lits.push(AigLit::TRUE),
                }
            }
            (res, std::mem::take(&mut ex.ub), std::mem::take(&mut ex.narrowed))
        };
        if let Err((e, u)) = res {
            let shown = self.visible(&it.st, e);
            it.st.path.extend(shown);
            self.end(it, PathEnd::Cut(CutReason::Unsupported(u.0)));
            return None;
        }
        // Undefined behaviour while evaluating the condition, and a narrowing, are attributed to
        // the first edge.
        let it = self.split_narrowed(it, narrowed, Some(edges[0]))?;
        let it = self.split_ub(it, ub, Some(edges[0]))?;
        Some((it, lits))
    }

    /// The guide's view of each successor of the branch over `edges` (with conditions `lits`):
    /// those it keeps, each with its own copy of the tag, in the branch's order; those it prunes end
    /// here. `None`: the guide stopped the exploration.
    fn guide_successors(&mut self, it: &Item<G::Tag>, edges: &[EdgeId], lits: &[AigLit]) -> Option<Branch<G::Tag>> {
        let mut succs: Vec<Successor<G::Tag>> = Vec::with_capacity(edges.len());
        let mut completion = Vec::new();
        for (&e, &lit) in edges.iter().zip(lits) {
            let mut tag = it.tag.clone();
            match self.guide_step(&mut tag, self.visible(&it.st, e)) {
                Step::Continue => succs.push((e, lit, tag)),
                Step::CompletionOnly => {
                    completion.push(e);
                    succs.push((e, lit, tag));
                }
                Step::Prune => {
                    let mut path = it.st.path.clone();
                    path.push(e);
                    self.emit(it, path, tag, PathEnd::Pruned);
                }
                Step::Stop(reason) => {
                    self.stop.get_or_insert(reason);
                    return None;
                }
            }
        }
        let complementary = edges.len() == 2 && lits[0] == !lits[1];
        Some(Branch { succs, completion, complementary, supports: Supports::default() })
    }

    /// Puts the successors `succs` of a branch at `node` in the guide's order (`Guide::order`; any
    /// it leaves out follow in their own order).
    fn order_successors(&mut self, st: &SymState, succs: &mut Vec<Successor<G::Tag>>) {
        let node = st.node;
        if succs.len() <= 1 || self.visible(st, succs[0].0).is_none() {
            return;
        }
        let mut view: Vec<Succ<G::Tag>> = succs.iter().map(|(e, _, t)| Succ { edge: *e, tag: t.clone() }).collect();
        self.guide.order(self.world.cfa, node, &mut view);
        let mut ordered = Vec::with_capacity(succs.len());
        for v in &view {
            if let Some(pos) = succs.iter().position(|s| s.0 == v.edge) {
                ordered.push(succs.remove(pos));
            }
        }
        ordered.append(succs);
        *succs = ordered;
    }

    /// Whether each successor is feasible, checked eagerly, and which successor (by index) the
    /// solver's model now satisfies; `None` when the solver gave up.
    ///
    /// Feasibility is checked in reverse order, so that the model of the last solver call belongs
    /// to the successor explored first. A successor the current model satisfies needs no solver
    /// call, nor does a constant condition, one the path condition decides, one over inputs the
    /// path condition does not mention that all-false or all-true inputs satisfy, or the second
    /// side of a complementary branch whose first side is infeasible.
    fn feasibility(
        &mut self,
        it: &Item<G::Tag>,
        branch: &mut Branch<G::Tag>,
    ) -> Option<(Vec<Option<bool>>, Option<usize>)> {
        let Branch { succs, complementary, supports, .. } = branch;
        let had_model = self.solver.owns_model(it.id);
        let mut feasible: Vec<Option<bool>> = vec![None; succs.len()];
        let mut via_model = None;
        for (i, s) in succs.iter().enumerate() {
            if let Some(v) = s.1.as_const() {
                feasible[i] = Some(v);
            } else if it.st.has_conjunct(!s.1) {
                feasible[i] = Some(false);
            } else if had_model && self.solver.model_value(&self.aig, it.id, s.1) == Some(true) {
                feasible[i] = Some(true);
                via_model = Some(i);
            }
        }
        // The successor whose condition the last solver call found satisfiable, if that call was the
        // last one (an unsatisfiable call leaves no model).
        let mut last_solved: Option<usize> = None;
        let mut solved_any = false;
        for i in (0..succs.len()).rev() {
            if feasible[i].is_some() {
                continue;
            }
            if *complementary && succs.len() == 2 && feasible[1 - i] == Some(false) {
                feasible[i] = Some(true);
                continue;
            }
            self.stats.branch_checks += 1;
            // A condition on inputs the path condition does not mention is feasible if some
            // assignment of its own inputs satisfies it; two cheap ones are tried first.
            let lit = succs[i].1;
            if it.st.independent(&supports.of(&self.aig, lit))
                && (self.aig.value_at_corner(lit, false) || self.aig.value_at_corner(lit, true))
            {
                self.stats.independent += 1;
                feasible[i] = Some(true);
                continue;
            }
            solved_any = true;
            match self.check(it, succs[i].1)? {
                SatResult::Sat => {
                    feasible[i] = Some(true);
                    last_solved = Some(i);
                }
                _ => {
                    feasible[i] = Some(false);
                    last_solved = None;
                }
            }
        }
        // Without a solver call the parent's model still stands: it satisfies a successor whose
        // condition is the constant true or true under the model.
        let model_child = if solved_any {
            last_solved
        } else if had_model {
            via_model.or_else(|| (0..succs.len()).find(|&i| succs[i].1 == AigLit::TRUE))
        } else {
            None
        };
        Some((feasible, model_child))
    }

    /// The paths of the feasible successors of `it` (the infeasible ones end here), each assuming
    /// its condition unless the branch implies it; the solver's model goes to the successor
    /// `model_child`, which it satisfies.
    fn successor_paths(
        &mut self,
        it: &Item<G::Tag>,
        branch: Branch<G::Tag>,
        feasible: &[Option<bool>],
        model_child: Option<usize>,
    ) -> Vec<Item<G::Tag>> {
        let Branch { succs, completion, complementary, mut supports } = branch;
        let cfa = self.world.cfa;
        let implied: Vec<bool> =
            (0..succs.len()).map(|i| complementary && succs.len() == 2 && feasible[1 - i] == Some(false)).collect();
        let mut children: Vec<Item<G::Tag>> = Vec::new();
        let mut owner = None;
        for (i, (e, lit, tag)) in succs.into_iter().enumerate() {
            if feasible[i] != Some(true) {
                self.stats.infeasible += 1;
                // An infeasible branch inside a model of the C library is no refused edge of the
                // program's: it is not reported.
                if let Some(e) = self.visible(&it.st, e) {
                    let mut path = it.st.path.clone();
                    path.push(e);
                    self.emit(it, path, tag, PathEnd::Infeasible);
                }
                continue;
            }
            let shown = self.visible(&it.st, e);
            self.guide_passed(&tag, shown);
            let mut child = it.clone();
            child.id = self.fresh_id();
            child.tag = tag;
            child.st.node = cfa.edge(e).dst;
            child.st.path.extend(shown);
            if !implied[i] && lit != AigLit::TRUE {
                child.st.assume_with_support(&self.aig, lit, supports.of(&self.aig, lit));
            }
            if completion.contains(&e) {
                self.enter_completion(&mut child);
            }
            if model_child == Some(i) {
                owner = Some(child.id);
            }
            children.push(child);
        }
        self.solver.set_model_owner(owner);
        if self.config.self_check {
            for c in &children {
                let mut fresh = Solver::new(Mode::Partial, Default::default());
                let res = fresh.check(&self.aig, &c.st.pc, AigLit::TRUE);
                assert_eq!(res, SatResult::Sat, "self-check: a successor with an unsatisfiable path condition");
            }
        }
        children
    }

    /// Queues the successor paths `children` of `it` (those that arrive at an error label end
    /// there); returns the one depth-first search goes on with.
    fn queue_children(&mut self, it: &Item<G::Tag>, children: Vec<Item<G::Tag>>) -> Option<Item<G::Tag>> {
        self.stats.edges += children.len() as u64;
        if children.is_empty() {
            self.cache.finish(it.entry, false);
            return None;
        }
        self.cache.add_open(it.entry, children.len() as u32 - 1);
        let split = children.len() > 1;
        let children: Vec<Item<G::Tag>> = children
            .into_iter()
            .filter_map(|mut c| {
                c.depth += split as u32;
                self.arrive(c)
            })
            .collect();
        if children.is_empty() {
            return None;
        }
        match self.config.strategy {
            Strategy::Dfs => self.queue_depth_first(it.best_first, children),
            Strategy::Bfs => {
                self.work.extend(children);
                None
            }
        }
    }
}
