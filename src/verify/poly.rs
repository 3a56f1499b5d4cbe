//! Polynomial equalities at loop heads, proven inductive by algebra instead of by SAT.
//!
//! A SAT solver cannot show `y*y + y - 2*x == 0` inductive over `y = y + 1; x = x + y`: it would
//! have to relate `(y+1)*(y+1)` to `y*y` inside two 64-bit multipliers. Algebra does it at once:
//! substituting the step's updates into the polynomial gives the polynomial itself. Here each step
//! of the transition system (`verify::ts`) is taken path by path, every state variable's next value
//! a polynomial over the values at the step's start (*atoms* `0..n`, one per state variable) and
//! fresh atoms for what is not a polynomial (an input, a comparison, a division, an extension of a
//! narrower value, anything floating point computes or converts); conditions are not followed, so the paths over-approximate the step's.
//!
//! A candidate `p == 0` of `bits`-bit variables is arithmetic modulo `2^bits`, as the machine's: a
//! polynomial over the integers that is zero is zero modulo `2^bits`, and so is one whose every
//! coefficient is a multiple of `2^bits`. A candidate at cut point `c` is *inductive* relative to
//! the others when, for every path of a step into `c`, its polynomial after the path is a sum of
//! multiples `λ·m·g` of the candidates `g` of its width at the path's start and of the equalities
//! `g == 0` the path's own conditions say (`m` a monomial, `λ` a constant): those hold where the path
//! goes, so that sum is zero after it. The entry has no candidates, so the paths from it establish
//! each candidate at first arrival. The multipliers `λ`
//! are found modulo a prime and checked again, exactly, modulo `2^bits` (`in_span`): what is
//! accepted does not depend on the search for `λ`.
//!
//! Invariant: `prove` keeps a candidate only if every path into its cut point passes that exact
//! check with the candidates kept (Houdini's fixpoint); what the walker does not model (`walk`
//! returns `None`) proves nothing.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::ts::{Target, Ts};
use crate::base::bits::{self, mask};
use crate::cfa::{EdgeKind, GlobalKind};
use crate::cfront::ir::{BinOp, Expr, ExprKind, Init, UnOp};
use crate::libmodels::LibFn;
use crate::symex::semantics::{self, Repr};

/// The most paths of all steps together the walker follows.
const MAX_PATHS: usize = 4_096;
/// The most terms a value's polynomial may have; larger ones become fresh atoms.
const MAX_TERMS: usize = 256;
/// The highest degree a value's polynomial may have; higher ones become fresh atoms.
const MAX_DEGREE: usize = 8;
/// The most products `m·g` a membership check may combine.
const MAX_PRODUCTS: usize = 512;

/// The width narrower state variables are extended to in a polynomial of wider ones (C's
/// `long long`: `x * z` of a `long long` and an `int`).
pub const EXT_BITS: u32 = 64;

/// The atom of state variable `v`'s value at a step's start, extended by its signedness to
/// `EXT_BITS` (of `n` state variables; atom `v` is the value itself).
fn ext_atom(n: usize, v: usize) -> u32 {
    (n + v) as u32
}

/// A monomial: atoms in ascending order, repeated for powers (empty: the constant 1).
pub type Mono = Vec<u32>;

/// A polynomial with coefficients modulo `2^bits` (the width is the caller's), none zero.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Poly(BTreeMap<Mono, u128>);

impl Poly {
    /// The constant `c`.
    pub fn constant(c: u128, bits: u32) -> Poly {
        let c = c & mask(bits);
        Poly(if c == 0 { BTreeMap::new() } else { BTreeMap::from([(Vec::new(), c)]) })
    }

    /// The atom `a`.
    pub fn atom(a: u32) -> Poly {
        Poly(BTreeMap::from([(vec![a], 1)]))
    }

    /// The sum of `k · m` over the terms.
    pub fn from_terms(terms: impl IntoIterator<Item = (Mono, i128)>, bits: u32) -> Poly {
        let mut p = Poly::default();
        for (mut m, k) in terms {
            m.sort_unstable();
            p.add_term(m, k as u128, bits);
        }
        p
    }

    fn add_term(&mut self, m: Mono, k: u128, bits: u32) {
        use std::collections::btree_map::Entry;
        match self.0.entry(m) {
            Entry::Vacant(e) => {
                if k & mask(bits) != 0 {
                    e.insert(k & mask(bits));
                }
            }
            Entry::Occupied(mut e) => {
                let c = e.get().wrapping_add(k) & mask(bits);
                if c == 0 {
                    e.remove();
                } else {
                    *e.get_mut() = c;
                }
            }
        }
    }

    /// The value if the polynomial is a constant.
    pub fn as_constant(&self) -> Option<u128> {
        match self.0.len() {
            0 => Some(0),
            1 => self.0.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    /// Whether every coefficient is zero (modulo `2^bits`).
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The highest degree of a term (0 for constants).
    pub fn degree(&self) -> usize {
        self.0.keys().map(Vec::len).max().unwrap_or(0)
    }

    /// `self + k · o`.
    pub fn add_scaled(&self, o: &Poly, k: u128, bits: u32) -> Poly {
        let mut p = self.clone();
        for (m, &c) in &o.0 {
            p.add_term(m.clone(), c.wrapping_mul(k), bits);
        }
        p
    }

    /// The coefficients taken modulo `2^bits` (a narrower width).
    pub fn truncate(&self, bits: u32) -> Poly {
        Poly(self.0.iter().map(|(m, &c)| (m.clone(), c & mask(bits))).filter(|(_, c)| *c != 0).collect())
    }

    /// The product, or `None` when it would exceed `MAX_TERMS` or `MAX_DEGREE`.
    pub fn mul(&self, o: &Poly, bits: u32) -> Option<Poly> {
        if self.degree() + o.degree() > MAX_DEGREE || self.0.len() * o.0.len() > 4 * MAX_TERMS {
            return None;
        }
        let mut p = Poly::default();
        for (ma, &ca) in &self.0 {
            for (mb, &cb) in &o.0 {
                let mut m: Mono = ma.iter().chain(mb).copied().collect();
                m.sort_unstable();
                p.add_term(m, ca.wrapping_mul(cb), bits);
            }
        }
        (p.0.len() <= MAX_TERMS).then_some(p)
    }

    /// The polynomial with atom `a` replaced by `vals[a]` (atoms beyond `vals` stay), or `None`
    /// when a product grows too large.
    pub fn substitute(&self, vals: &[Poly], bits: u32) -> Option<Poly> {
        let mut res = Poly::default();
        for (m, &c) in &self.0 {
            let mut t = Poly::constant(c, bits);
            for &a in m {
                let v = vals.get(a as usize).cloned().unwrap_or_else(|| Poly::atom(a));
                t = t.mul(&v, bits)?;
            }
            res = res.add_scaled(&t, 1, bits);
        }
        Some(res)
    }
}

/// A value along a path: its polynomial modulo `2^bits`, and for the value of a comparison, what it
/// compared.
#[derive(Clone, Debug)]
struct Val {
    p: Poly,
    bits: u32,
    rel: Option<Rc<Rel>>,
    /// For a value narrower than `EXT_BITS`: its extension (by its type's signedness) to
    /// `EXT_BITS`, where known: of a state variable's value at the start, a constant, a widening
    /// conversion of those. Not of arithmetic, which wraps around at the value's width.
    wide: Option<Poly>,
}

/// The value is not zero exactly when `p == 0` (`zero`) or when `p != 0` (not `zero`), modulo
/// `2^bits`.
#[derive(Clone, Debug)]
struct Rel {
    p: Poly,
    bits: u32,
    zero: bool,
}

impl Rel {
    fn negated(&self) -> Rc<Rel> {
        Rc::new(Rel { p: self.p.clone(), bits: self.bits, zero: !self.zero })
    }
}

impl Val {
    fn new(p: Poly, bits: u32) -> Val {
        Val { p, bits, rel: None, wide: None }
    }
}

/// One path of a step: from a cut point to a cut point, with the next values of the state
/// variables as polynomials over the values at its start.
#[derive(Clone, Debug)]
pub struct StepPath {
    /// The cut point it starts at.
    pub from: u32,
    /// The cut point it reaches.
    pub to: u32,
    /// Per state variable, its value at `to`, modulo `2^bits` of the variable.
    pub next: Vec<Poly>,
    /// The equalities its conditions say (`p == 0` modulo `2^bits`, over the start's atoms).
    pub facts: Rc<Vec<(Poly, u32)>>,
}

/// A condition a path takes: the inlined edge, the cut point the path started at, what the
/// condition says there if it says that a polynomial is not zero (modulo `2^bits`), and the
/// equalities the path's earlier conditions say.
type Taken = (u32, u32, Option<(Poly, u32)>, Rc<Vec<(Poly, u32)>>);

/// The steps between cut points, path by path.
pub struct Walk {
    /// Every path from a cut point to the next one.
    pub paths: Vec<StepPath>,
    /// Every condition a path takes (those into violations and ends included).
    conds: Vec<Taken>,
    /// The state variables' widths.
    widths: Vec<u32>,
}

/// Every path of every step between cut points, or `None` if there are more than `MAX_PATHS` or a
/// construct the walker does not follow.
pub fn walk(ts: &Ts) -> Option<Walk> {
    let mut w = Walker {
        ts,
        fresh: 2 * ts.vars.len() as u32,
        paths: Vec::new(),
        conds: Vec::new(),
        extensions: BTreeMap::new(),
    };
    let n = ts.vars.len();
    let start: Rc<Vec<Val>> = Rc::new(
        ts.vars
            .iter()
            .enumerate()
            .map(|(i, sv)| {
                let mut v = Val::new(Poly::atom(i as u32), sv.repr.bits);
                v.wide = (sv.repr.bits < EXT_BITS).then(|| Poly::atom(ext_atom(n, i)));
                v
            })
            .collect(),
    );
    for (c, &v) in ts.cuts.iter().enumerate() {
        w.walk(c as u32, v, start.clone())?;
    }
    Some(Walk { paths: w.paths, conds: w.conds, widths: ts.vars.iter().map(|v| v.repr.bits).collect() })
}

/// Enumerates the paths of steps.
struct Walker<'t, 'a> {
    ts: &'t Ts<'a>,
    /// The next fresh atom.
    fresh: u32,
    paths: Vec<StepPath>,
    conds: Vec<Taken>,
    /// The atoms of extended values (`extension`).
    extensions: BTreeMap<(Poly, u32, bool, u32), u32>,
}

/// What an edge does to a path.
enum Effect {
    Moved(Rc<Vec<Val>>),
    Ends,
}

impl Walker<'_, '_> {
    fn fresh(&mut self, bits: u32) -> Val {
        self.fresh += 1;
        Val::new(Poly::atom(self.fresh - 1), bits)
    }

    fn repr(&self, e: &Expr) -> Option<Repr> {
        semantics::repr(&self.ts.prog.types, e.ty).ok().filter(|r| !r.is_ptr)
    }

    /// Every path from inlined node `start` (the cut point `from`) to the next cut points.
    fn walk(&mut self, from: u32, start: u32, env: Rc<Vec<Val>>) -> Option<()> {
        let ts = self.ts;
        let mut stack = vec![(start, env, Rc::new(Vec::new()))];
        while let Some((v, env, facts)) = stack.pop() {
            let outs = ts.out_edges(v);
            let ctx = ts.nodes[v as usize].ctx;
            let single = outs.len() == 1
                && !matches!(ts.cfa.edge(ts.edges[outs[0] as usize].edge).kind, EdgeKind::Assume { .. });
            for &ie in outs {
                let iedge = ts.edges[ie as usize];
                let mut facts = facts.clone();
                let env = if single {
                    match self.edge(ie, ctx, env.clone())? {
                        Effect::Moved(env) => env,
                        Effect::Ends => continue,
                    }
                } else {
                    let EdgeKind::Assume { cond, truth } = &ts.cfa.edge(iedge.edge).kind else { return None };
                    // A constant condition decides; others are not followed, but what they say of
                    // a polynomial is kept.
                    let c = self.expr(cond, &env, ctx)?;
                    if let Some(k) = c.p.as_constant() {
                        if (k != 0) != *truth {
                            continue;
                        }
                    }
                    let rel = c.rel.filter(|_| c.p.as_constant().is_none());
                    let nonzero = rel.as_ref().filter(|r| r.zero != *truth).map(|r| (r.p.clone(), r.bits));
                    if self.conds.len() >= 8 * MAX_PATHS {
                        return None;
                    }
                    self.conds.push((ie, from, nonzero, facts.clone()));
                    if let Some(r) = rel.filter(|r| r.zero == *truth) {
                        Rc::make_mut(&mut facts).push((r.p.clone(), r.bits));
                    }
                    env.clone()
                };
                let Target::Node(w) = iedge.dst else { continue };
                match ts.cut_of(w) {
                    Some(to) => {
                        if self.paths.len() >= MAX_PATHS {
                            return None;
                        }
                        // The state variables' values, then those of the narrower ones extended.
                        let mut next: Vec<Poly> = env.iter().map(|v| v.p.clone()).collect();
                        for (i, v) in env.iter().enumerate() {
                            let r = ts.vars[i].repr;
                            let ext = if r.bits < EXT_BITS {
                                let wide = Repr { bits: EXT_BITS, is_bool: false, ..r };
                                self.convert_value(v.clone(), r, wide).p
                            } else {
                                // No candidate has its atom (`PolyEq::poly`); a fresh one whatever.
                                self.fresh(EXT_BITS).p
                            };
                            next.push(ext);
                        }
                        self.paths.push(StepPath { from, to, next, facts });
                    }
                    None => stack.push((w, env, facts)),
                }
            }
        }
        Some(())
    }

    /// Takes the non-branching inlined edge `ie` (as `Ts::encode_step` does, over polynomials).
    fn edge(&mut self, ie: u32, ctx: u32, env: Rc<Vec<Val>>) -> Option<Effect> {
        let ts = self.ts;
        let iedge = ts.edges[ie as usize];
        if matches!(iedge.dst, Target::Error | Target::End) {
            return Some(Effect::Ends);
        }
        let mut env = env;
        match &ts.cfa.edge(iedge.edge).kind {
            EdgeKind::Blank(_)
            | EdgeKind::TypeDecl
            | EdgeKind::Summary(_)
            | EdgeKind::Eval(_)
            | EdgeKind::Global(GlobalKind::Type | GlobalKind::Function(_))
            | EdgeKind::ReturnStmt(None) => {}
            EdgeKind::Assume { .. } => return None,
            EdgeKind::Global(GlobalKind::Var { var, init }) | EdgeKind::Decl { var, init } => {
                if let Some(i) = ts.var_of(*var, ctx) {
                    let bits = ts.vars[i as usize].repr.bits;
                    let global = matches!(ts.cfa.edge(iedge.edge).kind, EdgeKind::Global(_));
                    let value = match init {
                        Some(Init::Expr(x)) => self.expr(x, &env, ctx)?,
                        Some(Init::List(leaves)) => match &leaves[..] {
                            [] => Val::new(Poly::default(), bits),
                            [leaf] if leaf.path.is_empty() => self.expr(&leaf.value, &env, ctx)?,
                            _ => return None,
                        },
                        None if global && !ts.prog.var(*var).is_extern => Val::new(Poly::default(), bits),
                        None => self.fresh(bits),
                    };
                    if value.bits != bits {
                        return None;
                    }
                    Rc::make_mut(&mut env)[i as usize] = value;
                }
            }
            EdgeKind::Assign { lhs, rhs } => {
                let i = self.lvalue(lhs, ctx)?;
                let v = self.expr(rhs, &env, ctx)?;
                if v.bits != ts.vars[i as usize].repr.bits {
                    return None;
                }
                Rc::make_mut(&mut env)[i as usize] = v;
            }
            EdgeKind::ExternCall { lhs, callee, args } => {
                let ExprKind::Func(f) = &callee.strip_implicit().kind else { return None };
                if ts.world().lib(*f).for_call(args.len()) == LibFn::Halt {
                    return Some(Effect::Ends);
                }
                // Whatever it returns is arbitrary here (an over-approximation of the library
                // functions the transition system models).
                if let Some(lhs) = lhs {
                    let i = self.lvalue(lhs, ctx)?;
                    let bits = ts.vars[i as usize].repr.bits;
                    let v = self.fresh(bits);
                    Rc::make_mut(&mut env)[i as usize] = v;
                }
            }
            EdgeKind::Call(cs) => {
                let site = ts.cfa.call_site(*cs);
                let Target::Node(d) = iedge.dst else { return None };
                let callee_ctx = ts.nodes[d as usize].ctx;
                let mut values = Vec::with_capacity(site.args.len());
                for a in &site.args {
                    values.push(self.expr(a, &env, ctx)?);
                }
                let params = ts.prog.func(site.callee).params.clone();
                for (k, p) in params.into_iter().enumerate() {
                    let Some(i) = ts.var_of(p, callee_ctx) else { continue };
                    let bits = ts.vars[i as usize].repr.bits;
                    let v = match values.get(k) {
                        Some(v) if v.bits == bits => v.clone(),
                        _ => self.fresh(bits),
                    };
                    Rc::make_mut(&mut env)[i as usize] = v;
                }
                if let Some(rv) = ts.cfa.func(site.callee).and_then(|f| f.ret_var) {
                    if let Some(i) = ts.var_of(rv, callee_ctx) {
                        let v = self.fresh(ts.vars[i as usize].repr.bits);
                        Rc::make_mut(&mut env)[i as usize] = v;
                    }
                }
            }
            EdgeKind::Return(cs) => {
                let site = ts.cfa.call_site(*cs);
                let ret_var = ts.cfa.func(site.callee).and_then(|f| f.ret_var);
                if let (Some(rv), Some(lhs)) = (ret_var, &site.lhs) {
                    let Target::Node(d) = iedge.dst else { return None };
                    let caller_ctx = ts.nodes[d as usize].ctx;
                    let i = ts.var_of(rv, ctx)?;
                    let from = ts.vars[i as usize].repr;
                    let j = self.lvalue(lhs, caller_ctx)?;
                    let to = ts.vars[j as usize].repr;
                    let v = if ts.vars[i as usize].is_integer() && ts.vars[j as usize].is_integer() {
                        self.convert(env[i as usize].clone(), from, to)
                    } else {
                        self.fresh(to.bits)
                    };
                    Rc::make_mut(&mut env)[j as usize] = v;
                }
            }
            EdgeKind::ReturnStmt(Some(x)) => {
                let f = ts.ctxs[ctx as usize].func;
                if let Some(rv) = ts.cfa.func(f).and_then(|fc| fc.ret_var) {
                    let i = ts.var_of(rv, ctx)?;
                    let to = ts.vars[i as usize].repr;
                    let v = match self.repr(x) {
                        Some(from) if ts.vars[i as usize].is_integer() => {
                            let v = self.expr(x, &env, ctx)?;
                            self.convert(v, from, to)
                        }
                        _ => self.fresh(to.bits),
                    };
                    Rc::make_mut(&mut env)[i as usize] = v;
                }
            }
        }
        Some(Effect::Moved(env))
    }

    fn lvalue(&self, lhs: &Expr, ctx: u32) -> Option<u32> {
        match &lhs.kind {
            ExprKind::Var(v) => self.ts.var_of(*v, ctx),
            _ => None,
        }
    }

    /// `v` of representation `from` converted to `to`: a truncation keeps the polynomial (modulo
    /// the narrower width), an extension of a non-constant is a fresh atom.
    fn convert(&mut self, v: Val, from: Repr, to: Repr) -> Val {
        // A comparison's 0 or 1 stays what it is in any integer type.
        let rel = v.rel.clone();
        let mut res = self.convert_value(v, from, to);
        res.rel = rel;
        res
    }

    fn convert_value(&mut self, v: Val, from: Repr, to: Repr) -> Val {
        let constant = v.p.as_constant();
        if to.is_bool {
            return match constant {
                Some(k) => Val::new(Poly::constant(u128::from(k != 0), to.bits), to.bits),
                None => self.fresh(to.bits),
            };
        }
        if to.bits <= v.bits {
            let mut res = Val::new(v.p.truncate(to.bits), to.bits);
            if to.bits == v.bits && to.signed == from.signed {
                res.wide = v.wide;
            }
            return res;
        }
        if let Some(w) = v.wide.clone().filter(|_| to.bits <= EXT_BITS) {
            // The extension to `EXT_BITS` is known: the value extended to any width up to it is it
            // cut there, and keeps it unless a signed value becomes an unsigned one (whose
            // extension would be by zeros).
            if to.bits == EXT_BITS {
                return Val::new(w, to.bits);
            }
            let mut res = Val::new(w.truncate(to.bits), to.bits);
            if !from.signed || to.signed {
                res.wide = Some(w);
            }
            return res;
        }
        match self.extended(&v.p, v.bits, from.signed, to.bits) {
            Some(p) => Val::new(p, to.bits),
            None => self.extension(v.p, v.bits, from.signed, to.bits),
        }
    }

    /// A fresh atom for the extension of a value that is no state variable's at the start, the same
    /// for the same value (`y = z` and `z` extended later are one value).
    fn extension(&mut self, p: Poly, bits: u32, signed: bool, to: u32) -> Val {
        if let Some(&a) = self.extensions.get(&(p.clone(), bits, signed, to)) {
            return Val::new(Poly::atom(a), to);
        }
        let v = self.fresh(to);
        self.extensions.insert((p, bits, signed, to), self.fresh - 1);
        v
    }

    /// The polynomial `p` of a `bits`-bit value extended to `to` bits (sign-extended if `signed`),
    /// where it is one: a constant, or a state variable's value at the step's start extended by its
    /// own signedness to `EXT_BITS` (its atom `ext_atom`).
    fn extended(&self, p: &Poly, bits: u32, signed: bool, to: u32) -> Option<Poly> {
        if let Some(k) = p.as_constant() {
            let negative = signed && bits > 0 && k & bits::sign_bit(bits) != 0;
            return Some(Poly::constant(if negative { k | !mask(bits) } else { k }, to));
        }
        let (m, &k) = p.0.iter().next().filter(|_| p.0.len() == 1 && to == EXT_BITS)?;
        let &[a] = m.as_slice() else { return None };
        let r = self.ts.vars.get(a as usize)?.repr;
        (k == 1 && r.bits == bits && r.signed == signed).then(|| Poly::atom(ext_atom(self.ts.vars.len(), a as usize)))
    }

    /// Whether `e` is of a floating type, or an operator or conversion on a floating operand.
    fn floating(&self, e: &Expr) -> bool {
        let types = &self.ts.prog.types;
        let float = |x: &Expr| types.float_format(x.ty).is_some();
        float(e)
            || match &e.kind {
                ExprKind::Unary(_, x) | ExprKind::Cast(x, _) => float(x),
                ExprKind::Binary(_, a, b) => float(a) || float(b),
                _ => false,
            }
    }

    /// The value of the integer expression `e`; what floating point computes is no polynomial (a
    /// floating value is a bit pattern, and so is what it converts to): a fresh value.
    fn expr(&mut self, e: &Expr, env: &[Val], ctx: u32) -> Option<Val> {
        let bits = |w: &Walker, x: &Expr| w.repr(x).map(|r| r.bits);
        if self.floating(e) {
            return Some(self.opaque(e));
        }
        Some(match &e.kind {
            ExprKind::IntConst(k) => {
                let b = bits(self, e)?;
                let mut v = Val::new(Poly::constant(*k as u128, b), b);
                v.wide = (b < EXT_BITS).then(|| Poly::constant(*k as u128, EXT_BITS));
                v
            }
            ExprKind::SizeOf(k) | ExprKind::SizeOfExpr(k, _) => {
                let b = bits(self, e)?;
                Val::new(Poly::constant(u128::from(*k), b), b)
            }
            ExprKind::Var(v) => env[self.ts.var_of(*v, ctx)? as usize].clone(),
            ExprKind::Unary(op, x) => {
                let r = self.repr(x)?;
                let v = self.expr(x, env, ctx)?;
                let res = match op {
                    UnOp::Plus => v,
                    UnOp::Neg => Val::new(Poly::default().add_scaled(&v.p, mask(v.bits), v.bits), v.bits),
                    // ~v = -v - 1
                    UnOp::BitNot => {
                        Val::new(Poly::constant(mask(v.bits), v.bits).add_scaled(&v.p, mask(v.bits), v.bits), v.bits)
                    }
                    UnOp::LogNot => {
                        let mut res = self.opaque(e);
                        res.rel = v.rel.map(|r| r.negated());
                        return Some(res);
                    }
                };
                let rr = self.repr(e)?;
                if rr.bits != res.bits {
                    self.convert(res, r, rr)
                } else {
                    res
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (ra, rr) = (self.repr(a)?, self.repr(e)?);
                let arith = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl);
                if !arith {
                    let va = self.expr(a, env, ctx)?;
                    let vb = self.expr(b, env, ctx)?;
                    let mut res = self.fresh(rr.bits);
                    if matches!(op, BinOp::Eq | BinOp::Ne) {
                        let eq = *op == BinOp::Eq;
                        // `c == 0` of a comparison `c` is its negation; `a == b` compares `a - b`
                        // with 0 (of one width: a wider one's extension would be no polynomial).
                        res.rel = match (&va.rel, vb.p.as_constant(), &vb.rel, va.p.as_constant()) {
                            (Some(r), Some(0), _, _) | (_, _, Some(r), Some(0)) => {
                                Some(if eq { r.negated() } else { r.clone() })
                            }
                            _ if va.bits == vb.bits => Some(Rc::new(Rel {
                                p: va.p.add_scaled(&vb.p, mask(va.bits), va.bits),
                                bits: va.bits,
                                zero: eq,
                            })),
                            _ => None,
                        };
                    }
                    return Some(res);
                }
                let va = self.expr(a, env, ctx)?;
                let vb = self.expr(b, env, ctx)?;
                let w = va.bits;
                let p = match op {
                    BinOp::Add if vb.bits == w => va.p.add_scaled(&vb.p, 1, w),
                    BinOp::Sub if vb.bits == w => va.p.add_scaled(&vb.p, mask(w), w),
                    BinOp::Mul if vb.bits == w => match va.p.mul(&vb.p, w) {
                        Some(p) => p,
                        None => return Some(self.fresh(rr.bits)),
                    },
                    BinOp::Shl => match vb.p.as_constant() {
                        Some(k) if k < u128::from(w) => Poly::default().add_scaled(&va.p, 1u128 << k, w),
                        _ => return Some(self.fresh(rr.bits)),
                    },
                    _ => return Some(self.fresh(rr.bits)),
                };
                // No `wide`: the result may have wrapped around (signed arithmetic wraps in the
                // transition system), so its extension is not the result of the extensions.
                let res = Val::new(p, w);
                if rr.bits != w {
                    self.convert(res, ra, rr)
                } else {
                    res
                }
            }
            ExprKind::Cast(x, _) => {
                if matches!(self.ts.prog.types.kind(e.ty), crate::cfront::types::TypeKind::Void) {
                    self.expr(x, env, ctx)?;
                    return Some(Val::new(Poly::default(), 8));
                }
                let from = self.repr(x)?;
                let to = self.repr(e)?;
                let v = self.expr(x, env, ctx)?;
                self.convert(v, from, to)
            }
            ExprKind::Comma(a, b) => {
                self.expr(a, env, ctx)?;
                self.expr(b, env, ctx)?
            }
            ExprKind::Cond(c, a, b) => {
                for x in [c, a, b] {
                    self.expr(x, env, ctx)?;
                }
                self.opaque(e)
            }
            _ => return None,
        })
    }

    /// A fresh value of `e`'s type, for what is no polynomial.
    fn opaque(&mut self, e: &Expr) -> Val {
        let float = self.ts.prog.types.float_format(e.ty).map(|f| f.bits());
        let b = float.or_else(|| self.repr(e).map(|r| r.bits)).unwrap_or(32);
        self.fresh(b)
    }
}

/// A polynomial equality candidate: `Σ k · Π vars == 0` modulo `2^bits` at a cut point, over state
/// variables (indices into `Ts::vars`) all of `bits` bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolyEq {
    /// The cut point.
    pub cut: u32,
    /// The width of its variables and of its arithmetic.
    pub bits: u32,
    /// Monomials (state variables, ascending, repeated for powers; empty for the constant) and
    /// their non-zero coefficients.
    pub terms: Vec<(Vec<usize>, i128)>,
}

impl PolyEq {
    /// Whether a sampled state (values signed as each variable's type, so a narrower variable
    /// counts extended by its signedness) satisfies the equality modulo `2^bits`.
    pub fn holds_wrapping(&self, s: &[i128]) -> bool {
        let sum = self.terms.iter().fold(0u128, |acc, (m, c)| {
            let t = m.iter().fold(*c as u128, |t, &v| t.wrapping_mul(s[v] as u128));
            acc.wrapping_add(t)
        });
        sum & mask(self.bits) == 0
    }

    /// The polynomial over the atoms of the state variables.
    /// `widths` gives each state variable's width; one narrower than the candidate's stands for its
    /// extended value.
    pub fn poly(&self, widths: &[u32]) -> Poly {
        let atom = |v: usize| if widths[v] < self.bits { ext_atom(widths.len(), v) } else { v as u32 };
        Poly::from_terms(self.terms.iter().map(|(m, k)| (m.iter().map(|&v| atom(v)).collect(), *k)), self.bits)
    }

    /// Its degree.
    pub fn degree(&self) -> usize {
        self.terms.iter().map(|(m, _)| m.len()).max().unwrap_or(0)
    }
}

/// Which of `cands` hold in every reachable state: the greatest subset each of whose members is
/// inductive relative to the subset (and the equalities the path's conditions say) along every path
/// of `paths` (see the module's comment); `false` for all when `give_up` says so first.
pub fn prove(walk: &Walk, cands: &[PolyEq], give_up: &dyn Fn() -> bool) -> Vec<bool> {
    let paths = &walk.paths;
    let widths = &walk.widths;
    if cands.iter().any(|c| c.bits == 0 || c.bits > 64) {
        return vec![false; cands.len()];
    }
    let polys: Vec<Poly> = cands.iter().map(|c| c.poly(widths)).collect();
    let mut alive = vec![true; cands.len()];
    // After each path, every candidate at its end: computed once.
    let mut after: BTreeMap<(usize, usize), Option<Poly>> = BTreeMap::new();
    loop {
        let mut changed = false;
        for (pi, path) in paths.iter().enumerate() {
            for (j, c) in cands.iter().enumerate() {
                if !alive[j] || c.cut != path.to {
                    continue;
                }
                if give_up() {
                    return vec![false; cands.len()];
                }
                let q = after.entry((pi, j)).or_insert_with(|| polys[j].substitute(&path.next, c.bits));
                // The candidates kept at the path's start, and what its conditions say.
                let gens: Vec<&Poly> = (0..cands.len())
                    .filter(|&g| alive[g] && cands[g].cut == path.from && cands[g].bits == c.bits)
                    .map(|g| &polys[g])
                    .chain(path.facts.iter().filter(|(_, b)| *b == c.bits).map(|(p, _)| p))
                    .collect();
                if !q.as_ref().is_some_and(|q| in_span(q, &gens, c.bits)) {
                    alive[j] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            return alive;
        }
    }
}

/// Whether `q` is, modulo `2^bits`, a sum `Σ λ · m · g` over `gens` and monomials `m` over the
/// atoms of `q` and `gens` (of degree up to `q`'s less `g`'s): found modulo the prime `P`, checked
/// exactly.
fn in_span(q: &Poly, gens: &[&Poly], bits: u32) -> bool {
    if q.is_zero() {
        return true;
    }
    if gens.is_empty() {
        return false;
    }
    let mut atoms: Vec<u32> = q.0.keys().chain(gens.iter().flat_map(|g| g.0.keys())).flatten().copied().collect();
    atoms.sort_unstable();
    atoms.dedup();
    let mut products: Vec<Poly> = Vec::new();
    for g in gens {
        let room = q.degree().saturating_sub(g.degree());
        for m in monomials(&atoms, room) {
            let mp = Poly(BTreeMap::from([(m, 1)]));
            let Some(p) = g.mul(&mp, bits) else { continue };
            products.push(p);
            if products.len() > MAX_PRODUCTS {
                return false;
            }
        }
    }
    // Rows: the monomials of `q` and of the products; columns: the products, then `q`.
    let mut rows: BTreeMap<&Mono, Vec<u64>> = BTreeMap::new();
    let n = products.len();
    for (c, p) in products.iter().enumerate() {
        for (m, &k) in &p.0 {
            rows.entry(m).or_insert_with(|| vec![0; n + 1])[c] = modp_signed(k, bits);
        }
    }
    for (m, &k) in &q.0 {
        rows.entry(m).or_insert_with(|| vec![0; n + 1])[n] = modp_signed(k, bits);
    }
    let Some(lambda) = solve(rows.into_values().collect(), n) else { return false };
    // Back to the integers modulo 2^bits: each multiplier a fraction with an odd denominator.
    let mut sum = Poly::default();
    for (p, l) in products.iter().zip(lambda) {
        if l == 0 {
            continue;
        }
        let Some((a, d)) = super::sample::reconstruct(l) else { return false };
        if d % 2 == 0 {
            return false;
        }
        let k = (a as u128).wrapping_mul(inverse_odd(d as u128)) & mask(bits);
        sum = sum.add_scaled(p, k, bits);
    }
    sum == *q
}

/// Every monomial over `atoms` (ascending) of degree at most `deg`, by degree, the constant first,
/// at most about `MAX_PRODUCTS` (the higher degrees left out).
pub(super) fn monomials(atoms: &[u32], deg: usize) -> Vec<Mono> {
    let mut res = vec![Vec::new()];
    let mut last: Vec<Mono> = vec![Vec::new()];
    for _ in 0..deg {
        let mut next = Vec::new();
        for m in &last {
            let low = m.last().copied().unwrap_or(0);
            for &a in atoms.iter().filter(|&&a| a >= low) {
                let mut m2 = m.clone();
                m2.push(a);
                next.push(m2);
            }
        }
        if res.len() + next.len() > MAX_PRODUCTS {
            break;
        }
        res.extend(next.iter().cloned());
        last = next;
    }
    res
}

/// The coefficient `k` (modulo `2^bits`) as its signed value, modulo `P`.
/// (`bits` is at most 64: `prove` takes no wider candidates.)
fn modp_signed(k: u128, bits: u32) -> u64 {
    super::sample::modp(bits::sign_extend(k, bits))
}

/// A solution `x` of `Σ_c rows[r][c] · x[c] = rows[r][n]` modulo `P` (free unknowns 0), if any.
fn solve(mut rows: Vec<Vec<u64>>, n: usize) -> Option<Vec<u64>> {
    use super::sample::{inverse, mulmod, sub_scaled, P};
    let mut pivots: Vec<(usize, usize)> = Vec::new();
    let mut r = 0;
    for c in 0..n {
        let Some(p) = (r..rows.len()).find(|&i| rows[i][c] != 0) else { continue };
        rows.swap(r, p);
        let inv = inverse(rows[r][c]);
        rows[r].iter_mut().for_each(|x| *x = mulmod(*x, inv));
        let pivot = rows[r].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            if i != r && row[c] != 0 {
                let f = row[c];
                sub_scaled(row, &pivot, f);
            }
        }
        pivots.push((r, c));
        r += 1;
    }
    // Inconsistent: a row without a pivot whose right-hand side is not zero.
    if rows[r..].iter().any(|row| row[n] % P != 0) {
        return None;
    }
    let mut x = vec![0; n];
    for (r, c) in pivots {
        x[c] = rows[r][n];
    }
    Some(x)
}

/// The inverse of the odd `d` modulo `2^128` (Newton's iteration).
fn inverse_odd(d: u128) -> u128 {
    let mut x = d;
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(d.wrapping_mul(x)));
    }
    x
}

/// The conditions (inlined edges) no path takes from a state where the invariants `cands` (those
/// `alive`) hold: every path that takes one starts at a cut point whose invariants make the
/// polynomial the condition says is not zero a sum of their multiples, so zero.
pub fn refuted(walk: &Walk, cands: &[PolyEq], alive: &[bool]) -> Vec<u32> {
    let polys: Vec<Option<Poly>> = cands.iter().zip(alive).map(|(c, &a)| a.then(|| c.poly(&walk.widths))).collect();
    let mut verdict: BTreeMap<u32, bool> = BTreeMap::new();
    for (ie, from, nonzero, facts) in &walk.conds {
        let ok = nonzero.as_ref().is_some_and(|(p, bits)| {
            let gens: Vec<&Poly> = (0..cands.len())
                .filter(|&g| cands[g].cut == *from && cands[g].bits == *bits)
                .filter_map(|g| polys[g].as_ref())
                .chain(facts.iter().filter(|(_, b)| b == bits).map(|(p, _)| p))
                .collect();
            *bits <= 64 && in_span(p, &gens, *bits)
        });
        let v = verdict.entry(*ie).or_insert(true);
        *v &= ok;
    }
    verdict.into_iter().filter(|(_, v)| *v).map(|(ie, _)| ie).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(terms: &[(&[u32], i128)]) -> Poly {
        Poly::from_terms(terms.iter().map(|(m, k)| (m.to_vec(), *k)), 64)
    }

    #[test]
    fn a_multiple_of_an_invariant_times_a_monomial_is_in_its_span() {
        // g = x*z - x - y + 1 (atoms x = 0, y = 1, z = 2); after `x = x*z + 1; y = y*z` it is z·g.
        let g = poly(&[(&[0, 2], 1), (&[0], -1), (&[1], -1), (&[], 1)]);
        let next = [poly(&[(&[0, 2], 1), (&[], 1)]), poly(&[(&[1, 2], 1)]), poly(&[(&[2], 1)])];
        let q = g.substitute(&next, 64).expect("small");
        assert_eq!(q, g.mul(&Poly::atom(2), 64).expect("small"));
        assert!(in_span(&q, &[&g], 64));
        // Not without the invariant, and not for a polynomial it does not give.
        assert!(!in_span(&q, &[], 64));
        assert!(!in_span(&poly(&[(&[0], 1), (&[1], -1)]), &[&g], 64));
        // A third of an invariant is one modulo 2^64 (3 is invertible there); a half is not.
        let third = poly(&[(&[0], 1)]);
        assert!(in_span(&Poly::default().add_scaled(&third, 3, 64), &[&third], 64));
    }

    /// The program `src` and its CFA.
    fn system(src: &str) -> (crate::cfront::ir::Program, crate::cfa::Cfa) {
        let file = crate::base::SourceFile::new("t.c", src.to_string());
        let (mut prog, _) = crate::cfront::parse_program(file, crate::cfront::types::DataModel::Ilp32).expect("parses");
        let (cfa, _) = crate::cfa::build(&mut prog, &crate::cfa::CfaConfig::default()).expect("builds");
        (prog, cfa)
    }

    #[test]
    fn arithmetic_of_narrow_values_wraps_before_it_is_extended() {
        // `s == 2 * (long long)i` is no invariant: `i + i` wraps around in `int` (at i = 2^30) before
        // it is converted. The algebra must not take `(long long)(i + i)` as `2 * (long long)i`.
        let src = "int __VERIFIER_nondet_int(void);\nint main(void) {\n  int i = 0;\n  long long s = 0;\n  while (__VERIFIER_nondet_int()) {\n    i = i + 1;\n    s = (long long)(i + i);\n  }\n  return 0;\n}\n";
        let (prog, cfa) = system(src);
        let ts = Ts::build(&prog, &cfa, crate::symex::Property::UnreachCall).expect("a transition system");
        let var = |name: &str| ts.vars.iter().position(|v| prog.var(v.var).name == name).expect("a state variable");
        let (i, s) = (var("i"), var("s"));
        let walk = walk(&ts).expect("paths");
        let cut = walk.paths.iter().find(|p| p.from != 0).expect("the loop's step").to;
        let cand = |terms: Vec<(Vec<usize>, i128)>| PolyEq { cut, bits: 64, terms };
        assert_eq!(prove(&walk, &[cand(vec![(vec![s], 1), (vec![i], -2)])], &|| false), [false]);
    }

    #[test]
    fn coefficients_are_taken_modulo_the_width() {
        let p = poly(&[(&[0], 1 << 32)]);
        assert!(!p.is_zero());
        assert!(p.truncate(32).is_zero());
        assert_eq!(Poly::constant(u128::MAX, 8).as_constant(), Some(255));
        let x = Poly::atom(0);
        let square = x.mul(&x, 64).expect("small");
        assert_eq!(square.degree(), 2);
    }
}
