//! Which variables to abstract away when proving lines not coverable.
//!
//! A targeted search proves the lines it did not cover not coverable by exhausting the program's
//! states, which state caching makes finite only when the states repeat. Counters (`n = n + 1`) and
//! the values copied from them never repeat, though they rarely decide whether a run can end. The
//! proof pass therefore explores an over-approximation in which these variables are abstracted
//! away (`ExploreConfig::havoc`: every read gives an arbitrary value): a line that no terminating
//! path of the over-approximation covers is covered by no terminating execution of the program.
//!
//! The variables: integer variables updated by adding or subtracting a constant to themselves, and,
//! transitively, integer variables assigned a copy of one of those (`c = data`, possibly converted).

use std::collections::BTreeSet;

use crate::cfa::{Cfa, EdgeKind};
use crate::cfront::ir::{BinOp, Expr, ExprKind, Init, Program, VarId};

/// The counters of `prog` and the integer variables their values flow into by copies, ascending.
pub fn counters(prog: &Program, cfa: &Cfa) -> Vec<VarId> {
    let is_int = |v: VarId| prog.types.as_int(prog.var(v).ty).is_some();
    // Assignments `v = e` of whole integer variables.
    let mut assigns: Vec<(VarId, &Expr)> = Vec::new();
    for (_, e) in cfa.edges() {
        match &e.kind {
            EdgeKind::Assign { lhs, rhs } => {
                if let ExprKind::Var(v) = strip(lhs).kind {
                    if is_int(v) {
                        assigns.push((v, rhs));
                    }
                }
            }
            EdgeKind::Decl { var, init: Some(Init::Expr(rhs)) } if is_int(*var) => assigns.push((*var, rhs)),
            _ => {}
        }
    }
    let mut set: BTreeSet<VarId> = assigns.iter().filter(|(v, rhs)| steps_itself(*v, rhs)).map(|(v, _)| *v).collect();
    loop {
        let before = set.len();
        for (v, rhs) in &assigns {
            if let ExprKind::Var(u) = strip(rhs).kind {
                if set.contains(&u) {
                    set.insert(*v);
                }
            }
        }
        if set.len() == before {
            return set.into_iter().collect();
        }
    }
}

/// Whether `rhs` is `v + c`, `c + v` or `v - c` for a non-zero constant `c` (conversions aside).
fn steps_itself(v: VarId, rhs: &Expr) -> bool {
    let is_v = |e: &Expr| matches!(strip(e).kind, ExprKind::Var(u) if u == v);
    let is_step = |e: &Expr| matches!(strip(e).kind, ExprKind::IntConst(c) if c != 0);
    match &strip(rhs).kind {
        ExprKind::Binary(BinOp::Add, a, b) => (is_v(a) && is_step(b)) || (is_step(a) && is_v(b)),
        ExprKind::Binary(BinOp::Sub, a, b) => is_v(a) && is_step(b),
        _ => false,
    }
}

/// `e` without the conversions around it.
fn strip(mut e: &Expr) -> &Expr {
    while let ExprKind::Cast(inner, _) = &e.kind {
        e = inner;
    }
    e
}
