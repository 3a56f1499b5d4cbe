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
//! The files: `domain.rs` is the abstract domain (what a variable may hold, the state of a node, their
//! joins); `eval.rs` evaluates expressions in a state; `transfer.rs` gives the state after each CFA
//! edge, or that no execution takes it; `fixpoint.rs` runs the analysis over the product and the
//! `__TRUE` region behind it until no state grows; `tracked.rs` is the pre-analysis of how the program
//! uses its variables, which chooses what the analysis tracks. This file holds what it returns.
//!
//! Invariant: only edges and nodes no execution inside the region can reach are dropped; the result
//! is a subset of the over-approximation that still contains every line a terminating execution's
//! prefix inside the region covers.

mod domain;
mod eval;
mod fixpoint;
#[cfg(test)]
mod tests;
mod tracked;
mod transfer;

use fixedbitset::FixedBitSet;

use super::reach::{region_edges, TrueRegion};
use super::{Product, StackId, Stacks};
use crate::cfa::{Cfa, EdgeId, LineRule, NodeId};
use crate::cfront::ir::Program;

pub use fixpoint::analyse;

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

/// Whether some call site of `cfa` is undefined behaviour (`CallSite::incompatible_argument`): only
/// then can `analyse` with `undefined_calls` rule out more than without.
pub fn has_undefined_calls(cfa: &Cfa, prog: &Program) -> bool {
    cfa.call_sites.iter().any(|cs| cs.incompatible_argument(prog).is_some())
}
