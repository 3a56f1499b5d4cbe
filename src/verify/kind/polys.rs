//! The polynomial candidates of the simulated runs, proven by algebra (`verify::poly`) rather than
//! by Houdini, and the order in which their circuits multiply the variables (the program's).

use std::collections::BTreeSet;

use crate::cfa::EdgeKind;
use crate::cfront::ir::{BinOp, Expr, ExprKind, VarId};
use crate::verify::poly::{self, PolyEq};

use super::candidates::{alive_only, Candidate, Template};
use super::Engine;

impl Engine<'_, '_> {
    /// Of the polynomial candidates `cands`, those the algebra of `verify::poly` proves (none if the
    /// transition system's steps have too many paths to follow), and how many conditions of the
    /// program they refute (now blocked in the transition system).
    pub(super) fn proven_polys(&mut self, cands: Vec<Candidate>) -> (Vec<Candidate>, usize) {
        let Some(walk) = poly::walk(&self.ts) else { return (Vec::new(), 0) };
        let eqs: Vec<PolyEq> = cands
            .iter()
            .map(|c| match c.kind {
                Template::Poly(i) => self.polys[i].clone(),
                _ => unreachable!("polynomial candidates only"),
            })
            .collect();
        self.mul_order = self.products();
        let budget = &self.config.budget;
        let alive = poly::prove(&walk, &eqs, &|| budget.exhausted().is_some());
        // What they make false is taken out of the steps: a comparison of the program the
        // invariants decide need not be decided again by SAT inside multipliers.
        let mut blocked = 0;
        if alive.iter().any(|&a| a) {
            let refuted = poly::refuted(&walk, &eqs, &alive);
            self.ts.block(&refuted);
            blocked = refuted.len();
        }
        (alive_only(cands, &alive), blocked)
    }

    /// The pairs of state variables `(a, b)` the reachable code multiplies as `a * b` (through
    /// conversions).
    fn products(&self) -> BTreeSet<(usize, usize)> {
        fn visit(e: &Expr, out: &mut Vec<(VarId, VarId)>) {
            let var = |x: &Expr| match &x.strip_implicit().kind {
                ExprKind::Var(v) => Some(*v),
                ExprKind::Cast(y, _) => match &y.kind {
                    ExprKind::Var(v) => Some(*v),
                    _ => None,
                },
                _ => None,
            };
            match &e.kind {
                ExprKind::Binary(op, a, b) => {
                    if let (BinOp::Mul, Some(x), Some(y)) = (op, var(a), var(b)) {
                        out.push((x, y));
                    }
                    visit(a, out);
                    visit(b, out);
                }
                ExprKind::Unary(_, a) | ExprKind::Cast(a, _) => visit(a, out),
                ExprKind::Cond(a, b, c) => [a, b, c].into_iter().for_each(|x| visit(x, out)),
                ExprKind::Comma(a, b) => {
                    visit(a, out);
                    visit(b, out);
                }
                _ => {}
            }
        }
        let ts = &self.ts;
        let mut res = BTreeSet::new();
        for ie in &ts.edges {
            let ctx = ts.nodes[ie.src as usize].ctx;
            let mut found = Vec::new();
            match &self.cfa.edge(ie.edge).kind {
                EdgeKind::Assign { rhs: x, .. } | EdgeKind::Assume { cond: x, .. } | EdgeKind::Eval(x) => {
                    visit(x, &mut found)
                }
                EdgeKind::ReturnStmt(Some(x)) => visit(x, &mut found),
                EdgeKind::Call(cs) => self.cfa.call_site(*cs).args.iter().for_each(|a| visit(a, &mut found)),
                _ => {}
            }
            for (x, y) in found {
                if let (Some(a), Some(b)) = (ts.var_of(x, ctx), ts.var_of(y, ctx)) {
                    res.insert((a as usize, b as usize));
                }
            }
        }
        res
    }
}
