//! Counters: variables whose values never repeat, and what can be done about them.
//!
//! State caching ends an exploration only when states repeat. Counters (`n = n + 1`) and the values
//! copied from them never do, though they rarely decide where a run goes. Two remedies:
//!
//! - *Shifting* (exact). When every use of the counters ahead of a location is invariant under
//!   adding one constant `k` to all of them at once — copies among them, adding or subtracting
//!   constants, `==`/`!=` between them, all in one width of at least `int` (so the arithmetic is
//!   modulo 2^width) — two states that differ only by such a `k` have the same futures (the same
//!   edges, violations and exits). The state cache then keys the counters by their differences to
//!   the first live one (`Shift`), so `(c, c_t) = (5, 6)` and `(9, 10)` are one state.
//! - *Abstraction* (over-approximation, for proofs only). The coverage proof pass explores the
//!   program with the counters abstracted away (`ExploreConfig::havoc`: every read gives an
//!   arbitrary value); a line that no terminating path of that exploration covers is covered by no
//!   terminating execution of the program.
//!
//! The counters: integer variables updated by adding or subtracting a constant to themselves, and,
//! transitively, integer variables assigned a copy of one of those (`c = data`, possibly converted).

use std::collections::{BTreeSet, HashSet};

use fixedbitset::FixedBitSet;

use crate::cfa::{expr_vars, init_vars};
use crate::cfa::{Cfa, EdgeKind, GlobalKind, NodeId};
use crate::cfront::ir::{BinOp, Expr, ExprKind, Init, Program, UnOp, VarId};

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

/// The counters of a program whose differences are what matters ahead of some locations.
#[derive(Debug)]
pub(crate) struct Shift {
    /// The counters, ascending.
    vars: Vec<VarId>,
    /// Their common size in bytes.
    size: u64,
    /// Locations from which every use of the counters ahead is invariant under a common shift.
    ok: FixedBitSet,
}

impl Shift {
    /// The shift analysis of `prog`: `None` when it has no counters, when they differ in size or are
    /// narrower than `int`, or when the address of one is taken.
    pub fn analyse(prog: &Program, cfa: &Cfa) -> Option<Shift> {
        let vars = counters(prog, cfa);
        let first = *vars.first()?;
        let size = prog.types.size_of(prog.var(first).ty)?;
        // `int` has 4 bytes in both data models.
        if size < 4 || vars.iter().any(|&v| prog.types.size_of(prog.var(v).ty) != Some(size)) {
            return None;
        }
        let set: HashSet<VarId> = vars.iter().copied().collect();
        let u = Uses { prog, set: &set, size };
        let mut bad = Vec::new();
        for (id, e) in cfa.edges() {
            let fine = match &e.kind {
                EdgeKind::Assign { lhs, rhs } => match lhs.strip_implicit().kind {
                    ExprKind::Var(v) if set.contains(&v) => u.affine(rhs),
                    _ => !u.mentions(lhs)? && !u.mentions(rhs)?,
                },
                EdgeKind::Decl { var, init } if set.contains(var) => match init {
                    None => true,
                    Some(Init::Expr(x)) => u.affine(x),
                    Some(Init::List(_)) => false,
                },
                EdgeKind::Decl { init, .. } => !init.as_ref().map_or(Some(false), |i| u.init_mentions(i))?,
                EdgeKind::Global(GlobalKind::Var { var, init }) => {
                    !set.contains(var) && !init.as_ref().map_or(Some(false), |i| u.init_mentions(i))?
                }
                EdgeKind::Assume { cond, .. } => !u.mentions(cond)? || u.comparison(cond),
                EdgeKind::Eval(x) | EdgeKind::ReturnStmt(Some(x)) => !u.mentions(x)?,
                EdgeKind::ExternCall { lhs, callee, args } => {
                    let mut any = u.mentions(callee)?;
                    for x in lhs.iter().chain(args) {
                        any |= u.mentions(x)?;
                    }
                    !any
                }
                EdgeKind::Call(cs) | EdgeKind::Summary(cs) => {
                    let site = cfa.call_site(*cs);
                    let mut any = false;
                    for x in site.lhs.iter().chain(&site.args) {
                        any |= u.mentions(x)?;
                    }
                    !any
                }
                EdgeKind::Return(_)
                | EdgeKind::ReturnStmt(None)
                | EdgeKind::Blank(_)
                | EdgeKind::TypeDecl
                | EdgeKind::Global(_) => true,
            };
            if !fine {
                bad.push(id);
            }
        }
        // Locations that can reach a non-invariant use (over call and return edges, returns to every
        // call site: an over-approximation of what can happen ahead).
        let mut reaches_bad = FixedBitSet::with_capacity(cfa.n_nodes());
        let mut work: Vec<NodeId> = bad.iter().map(|&e| cfa.edge(e).src).collect();
        while let Some(n) = work.pop() {
            if reaches_bad.put(n.idx()) {
                continue;
            }
            for &e in cfa.in_edges(n) {
                if !matches!(cfa.edge(e).kind, EdgeKind::Summary(_)) {
                    work.push(cfa.edge(e).src);
                }
            }
        }
        let mut ok = FixedBitSet::with_capacity(cfa.n_nodes());
        ok.insert_range(..);
        ok.difference_with(&reaches_bad);
        if ok.count_ones(..) == 0 {
            return None;
        }
        Some(Shift { vars, size, ok })
    }

    /// Whether states at `n` may be keyed by the counters' differences.
    pub fn applies_at(&self, n: NodeId) -> bool {
        self.ok.contains(n.idx())
    }

    /// Whether `v` is one of the counters.
    pub fn is_counter(&self, v: VarId) -> bool {
        self.vars.binary_search(&v).is_ok()
    }

    /// The counters' size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }
}

/// How the counters are used in an expression.
struct Uses<'a> {
    prog: &'a Program,
    set: &'a HashSet<VarId>,
    size: u64,
}

impl Uses<'_> {
    /// Whether `e` reads a counter; `None` if it takes the address of one.
    fn mentions(&self, e: &Expr) -> Option<bool> {
        let (mut uses, mut esc) = (Vec::new(), Vec::new());
        expr_vars(e, &mut uses, &mut esc);
        self.judge(&uses, &esc)
    }

    fn init_mentions(&self, i: &Init) -> Option<bool> {
        let (mut uses, mut esc) = (Vec::new(), Vec::new());
        init_vars(i, &mut uses, &mut esc);
        self.judge(&uses, &esc)
    }

    fn judge(&self, uses: &[VarId], esc: &[VarId]) -> Option<bool> {
        if esc.iter().any(|v| self.set.contains(v)) {
            return None;
        }
        Some(uses.iter().any(|v| self.set.contains(v)))
    }

    /// `e` without conversions that keep the width.
    fn strip<'e>(&self, mut e: &'e Expr) -> &'e Expr {
        while let ExprKind::Cast(inner, _) = &e.kind {
            let same = self.prog.types.size_of(e.ty) == Some(self.size)
                && self.prog.types.size_of(inner.ty) == Some(self.size)
                && self.prog.types.as_int(e.ty).is_some();
            if !same {
                break;
            }
            e = inner;
        }
        e
    }

    /// A counter plus or minus constants.
    fn affine(&self, e: &Expr) -> bool {
        let is_const = |x: &Expr| matches!(self.strip(x).kind, ExprKind::IntConst(_));
        match &self.strip(e).kind {
            ExprKind::Var(v) => self.set.contains(v),
            ExprKind::Binary(BinOp::Add, a, b) => (self.affine(a) && is_const(b)) || (is_const(a) && self.affine(b)),
            ExprKind::Binary(BinOp::Sub, a, b) => self.affine(a) && is_const(b),
            _ => false,
        }
    }

    /// `a == b` or `a != b` (possibly negated) between counters plus constants.
    fn comparison(&self, e: &Expr) -> bool {
        match &e.strip_implicit().kind {
            ExprKind::Unary(UnOp::LogNot, x) => self.comparison(x),
            ExprKind::Binary(BinOp::Eq | BinOp::Ne, a, b) => self.affine(a) && self.affine(b),
            _ => false,
        }
    }
}
