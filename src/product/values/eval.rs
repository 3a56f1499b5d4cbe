//! What an expression may evaluate to in a state: the values it takes over the combinations of the
//! values of the variables it reads, the bits bitwise operations and comparisons leave known, the
//! conditions that pin or exclude one value of a variable, and members of globals that never change.

use std::rc::Rc;

use super::domain::{wrap_bits, Env, Val, MAX_VALUES};
use super::transfer::Analyser;
use crate::cfa::expr_vars;
use crate::cfront::ir::{Expr, ExprKind, Init, InitStep, VarId};
use crate::cfront::types::{DataModel, IntRank, IntType, RecordKind, TypeKind};
use crate::cfront::{eval_int, eval_int_with};

/// Combinations of variable values an expression is evaluated for before it is taken as any value.
const MAX_COMBINATIONS: usize = 256;

impl Analyser<'_> {
    /// The element type of `v` if it is a summarized array.
    pub(super) fn element_type(&self, v: VarId) -> Option<IntType> {
        self.arrays.get(v.idx()).copied().flatten()
    }

    /// The summarized array `e` is an element of: `a[i]`, whatever `i`.
    pub(super) fn element_of(&self, e: &Expr) -> Option<VarId> {
        let ExprKind::Index(base, _) = &e.strip_implicit().kind else { return None };
        let ExprKind::Decay(inner) = &base.strip_implicit().kind else { return None };
        let ExprKind::Var(a) = inner.kind else { return None };
        self.element_type(a).map(|_| a)
    }

    /// The value of tracked `from` converted to the type of tracked `to`.
    pub(super) fn converted(&self, env: &Env, from: VarId, to: VarId) -> Option<Val> {
        let val = env.get(&from)?.clone();
        self.convert(val, self.int_of(from)?, self.int_of(to)?)
    }

    /// `val` of type `from` converted to `to`: sets value by value; "not these" only when every value
    /// of `from` is one of `to`.
    pub(super) fn convert(&self, val: Val, from: IntType, to: IntType) -> Option<Val> {
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
    pub(super) fn int_like(&self, ty: crate::cfront::types::TypeId) -> Option<IntType> {
        match self.prog.types.kind(ty) {
            TypeKind::Int(it) => Some(*it),
            TypeKind::Pointer(_) => Some(IntType::ULONG),
            _ => None,
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
    pub(super) fn value(&self, env: &Env, e: &Expr) -> Option<Val> {
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
    pub(super) fn known_bits(&self, env: &Env, e: &Expr) -> (u128, u128) {
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
    pub(super) fn atom(&self, env: &Env, cond: &Expr, truth: bool) -> Option<(VarId, bool, i128)> {
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
    pub(super) fn for_each_combination(
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
    pub(super) fn constant_member(&self, e: &Expr) -> Option<i128> {
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
}

/// Whether every value of `from` is one of `to`.
fn preserves(from: IntType, to: IntType, dm: DataModel) -> bool {
    to.min(dm) <= from.min(dm) && to.max(dm) >= from.max(dm)
}
