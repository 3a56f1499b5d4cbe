//! The values of expressions, computed on plain integers (`Val`) with C's rules as the executor
//! applies them, written apart from `semantics`.

use super::{scalar, ub, unsupported, Interp, Val, R};
use crate::base::bits::{min_signed, sign_extend, truncate};
use crate::base::fp::{self, Arith, Compare, Format};
use crate::cfront::ir::{BinOp, Expr, ExprKind, UnOp};
use crate::cfront::types::{TypeId, TypeKind};
use crate::symex::semantics::UbKind;

impl Interp<'_> {
    pub(super) fn truth(&mut self, e: &Expr) -> R<bool> {
        let v = self.int(e)?;
        Ok(match self.types().float_format(e.ty) {
            Some(f) => !f.is_zero(v),
            None => v != 0,
        })
    }

    pub(super) fn int(&mut self, e: &Expr) -> R<u128> {
        match self.rvalue(e)? {
            Val::Int(v, _) => Ok(v),
            Val::Bytes(_) => unsupported("an aggregate used as a scalar"),
        }
    }

    pub(super) fn rvalue(&mut self, e: &Expr) -> R<Val> {
        let types = self.types();
        match &e.kind {
            ExprKind::IntConst(v) => {
                let (bits, _, _) = scalar(types, e.ty)?;
                Ok(Val::Int(truncate(*v as u128, bits), bits))
            }
            ExprKind::SizeOf(v) | ExprKind::SizeOfExpr(v, _) => {
                let (bits, _, _) = scalar(types, e.ty)?;
                Ok(Val::Int(truncate(*v as u128, bits), bits))
            }
            ExprKind::FloatConst(lit) => match (lit.bits, types.float_format(e.ty)) {
                (Some(v), Some(f)) => Ok(Val::Int(v, f.bits())),
                _ => unsupported(format!("{} values", types.display(e.ty))),
            },
            ExprKind::StmtExpr(_) => unsupported("a statement expression on an edge"),
            ExprKind::Unsupported(r) => unsupported(r.clone()),
            ExprKind::Var(_)
            | ExprKind::Member { .. }
            | ExprKind::Index(..)
            | ExprKind::Deref(_)
            | ExprKind::Str(_) => {
                let p = self.place(e)?;
                self.read(&p)
            }
            ExprKind::Func(f) => Ok(Val::Int(self.layout.address(self.w.func_obj(*f), 0), self.layout.ptr_bits)),
            ExprKind::Decay(inner) | ExprKind::AddrOf(inner) => {
                if let ExprKind::Func(f) = inner.strip_implicit().kind {
                    return Ok(Val::Int(self.layout.address(self.w.func_obj(f), 0), self.layout.ptr_bits));
                }
                let p = self.place(inner)?;
                if p.bitfield.is_some() {
                    return unsupported("address of a bit-field");
                }
                Ok(Val::Int(truncate(p.addr, self.layout.ptr_bits), self.layout.ptr_bits))
            }
            ExprKind::Unary(op, x) => {
                let (bits, _, _) = scalar(types, x.ty)?;
                if let Some(f) = types.float_format(x.ty) {
                    let v = self.int(x)?;
                    return Ok(match op {
                        UnOp::Neg => Val::Int(v ^ f.sign_mask(), bits),
                        UnOp::LogNot => Val::Int(f.is_zero(v) as u128, 32),
                        UnOp::Plus | UnOp::BitNot => Val::Int(v, bits),
                    });
                }
                let v = self.int(x)?;
                Ok(match op {
                    UnOp::Neg => Val::Int(truncate(v.wrapping_neg(), bits), bits),
                    UnOp::BitNot => Val::Int(truncate(!v, bits), bits),
                    UnOp::Plus => Val::Int(v, bits),
                    UnOp::LogNot => Val::Int((v == 0) as u128, 32),
                })
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            ExprKind::Cast(x, _) => {
                if matches!(types.kind(e.ty), TypeKind::Void) {
                    self.rvalue(x)?;
                    return Ok(Val::Int(0, 8));
                }
                let v = self.rvalue(x)?;
                self.convert(v, x.ty, e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                if self.truth(c)? {
                    self.rvalue(a)
                } else {
                    self.rvalue(b)
                }
            }
            ExprKind::Comma(a, b) => {
                self.rvalue(a)?;
                self.rvalue(b)
            }
            _ => unsupported("a side effect inside an expression"),
        }
    }

    pub(super) fn convert(&mut self, v: Val, from: TypeId, to: TypeId) -> R<Val> {
        let types = self.types();
        match v {
            Val::Int(x, _) => {
                let (fb, fs, _) = scalar(types, from)?;
                let (tb, ts, tbool) = scalar(types, to)?;
                match (types.float_format(from), types.float_format(to)) {
                    (Some(ff), Some(tf)) => return Ok(Val::Int(fp::convert(ff, tf, self.rounding, x), tb)),
                    (None, Some(tf)) => return Ok(Val::Int(fp::from_int(tf, self.rounding, x, fb, fs), tb)),
                    (Some(ff), None) if tbool => return Ok(Val::Int(!ff.is_zero(x) as u128, 8)),
                    (Some(ff), None) => match fp::to_int(ff, x, tb, ts) {
                        Some(v) => return Ok(Val::Int(v, tb)),
                        None => return ub(UbKind::FloatToInt),
                    },
                    (None, None) => {}
                }
                if tbool {
                    return Ok(Val::Int((truncate(x, fb) != 0) as u128, 8));
                }
                let wide = if fs { sign_extend(x, fb) as u128 } else { truncate(x, fb) };
                Ok(Val::Int(truncate(wide, tb), tb))
            }
            Val::Bytes(b) => {
                if from == to || types.size_of(from) == types.size_of(to) && !types.is_scalar(to) {
                    Ok(Val::Bytes(b))
                } else {
                    unsupported("a conversion between aggregate types")
                }
            }
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> R<Val> {
        let types = self.types();
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            let x = self.truth(a)?;
            let res = if op == BinOp::LogAnd { x && self.truth(b)? } else { x || self.truth(b)? };
            let (bits, _, _) = scalar(types, e.ty)?;
            return Ok(Val::Int(res as u128, bits));
        }
        let (pa, pb) = (types.pointee(a.ty), types.pointee(b.ty));
        let x = self.int(a)?;
        let y = self.int(b)?;
        let pbits = self.layout.ptr_bits;
        let elem = |t: TypeId| -> R<u128> {
            match types.kind(t) {
                TypeKind::Void | TypeKind::Func(_) => Ok(1),
                _ => match types.size_of(t) {
                    Some(s) => Ok(s as u128),
                    None => unsupported("pointer arithmetic on an incomplete type"),
                },
            }
        };
        let offset = |p: u128, i: u128, it: &Expr, size: u128, sub: bool| -> R<u128> {
            let (ib, is, _) = scalar(types, it.ty)?;
            let wide = if is { sign_extend(i, ib) as u128 } else { truncate(i, ib) };
            let scaled = wide.wrapping_mul(size);
            Ok(truncate(if sub { p.wrapping_sub(scaled) } else { p.wrapping_add(scaled) }, pbits))
        };
        match (pa, pb) {
            (Some(t), None) if matches!(op, BinOp::Add | BinOp::Sub) => {
                return Ok(Val::Int(offset(x, y, b, elem(t)?, op == BinOp::Sub)?, pbits));
            }
            (None, Some(t)) if op == BinOp::Add => return Ok(Val::Int(offset(y, x, a, elem(t)?, false)?, pbits)),
            (Some(t), Some(_)) if op == BinOp::Sub => {
                let (bits, _, _) = scalar(types, e.ty)?;
                let d = sign_extend(truncate(x.wrapping_sub(y), pbits), pbits);
                let size = elem(t)? as i128;
                // As the executor computes it: an arithmetic shift for powers of two, else division.
                let q = if size.count_ones() == 1 { d.div_euclid(size) } else { d / size };
                return Ok(Val::Int(truncate(q as u128, bits), bits));
            }
            _ => {}
        }
        if let Some(f) = types.float_format(a.ty) {
            return self.float_binary(e, f, op, x, y);
        }
        let (ab, asg, _) = scalar(types, a.ty)?;
        let (bb, bsg, _) = scalar(types, b.ty)?;
        let shift = matches!(op, BinOp::Shl | BinOp::Shr);
        // Operands have their common type, except shift amounts and a pointer compared with an
        // integer constant (compared in the wider width).
        let w = if shift { ab } else { ab.max(bb) };
        let (x, y) = if !shift && ab != bb {
            let ext = |v: u128, bits: u32, s: bool| {
                if s {
                    truncate(sign_extend(v, bits) as u128, w)
                } else {
                    truncate(v, bits)
                }
            };
            (ext(x, ab, asg), ext(y, bb, bsg))
        } else {
            (x, y)
        };
        let signed = asg;
        let sx = sign_extend(x, w);
        let sy = if shift { sign_extend(y, bb) } else { sign_extend(y, w) };
        let res = match op {
            BinOp::Add => truncate(x.wrapping_add(y), w),
            BinOp::Sub => truncate(x.wrapping_sub(y), w),
            BinOp::Mul => truncate(x.wrapping_mul(y), w),
            BinOp::BitAnd => x & y,
            BinOp::BitOr => x | y,
            BinOp::BitXor => x ^ y,
            BinOp::Div | BinOp::Rem => {
                if truncate(y, w) == 0 {
                    return ub(UbKind::DivByZero);
                }
                if signed {
                    if sx == min_signed(w) && sy == -1 {
                        return ub(UbKind::DivOverflow);
                    }
                    truncate(if op == BinOp::Div { sx / sy } else { sx % sy } as u128, w)
                } else if op == BinOp::Div {
                    x / y
                } else {
                    x % y
                }
            }
            BinOp::Shl | BinOp::Shr => {
                let amount = if bsg { sy } else { truncate(y, bb) as i128 };
                if amount < 0 || amount >= w as i128 {
                    return ub(UbKind::ShiftOutOfRange);
                }
                let amount = amount as u32;
                match (op, signed) {
                    (BinOp::Shl, _) => truncate(x << amount, w),
                    (_, true) => truncate((sx >> amount) as u128, w),
                    _ => x >> amount,
                }
            }
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                let ord = if signed { sx.cmp(&sy) } else { x.cmp(&y) };
                let r = match op {
                    BinOp::Lt => ord.is_lt(),
                    BinOp::Gt => ord.is_gt(),
                    BinOp::Le => ord.is_le(),
                    BinOp::Ge => ord.is_ge(),
                    BinOp::Eq => ord.is_eq(),
                    _ => ord.is_ne(),
                };
                r as u128
            }
            BinOp::LogAnd | BinOp::LogOr => unreachable!("handled above"),
        };
        let (rb, _, _) = scalar(types, e.ty)?;
        Ok(Val::Int(truncate(res, rb), rb))
    }

    /// `x op y` with both operands of the floating format `f` (the common type).
    fn float_binary(&mut self, e: &Expr, f: Format, op: BinOp, x: u128, y: u128) -> R<Val> {
        let arith = |a| Val::Int(fp::arith(f, self.rounding, a, x, y), f.bits());
        let cmp = |c, x, y| Val::Int(fp::compare(f, c, x, y) as u128, 32);
        let v = match op {
            BinOp::Add => arith(Arith::Add),
            BinOp::Sub => arith(Arith::Sub),
            BinOp::Mul => arith(Arith::Mul),
            BinOp::Div => arith(Arith::Div),
            BinOp::Eq => cmp(Compare::Eq, x, y),
            BinOp::Ne => Val::Int(!fp::compare(f, Compare::Eq, x, y) as u128, 32),
            BinOp::Lt => cmp(Compare::Lt, x, y),
            BinOp::Le => cmp(Compare::Le, x, y),
            BinOp::Gt => cmp(Compare::Lt, y, x),
            BinOp::Ge => cmp(Compare::Le, y, x),
            _ => return unsupported(format!("`{}` on {} operands", op.symbol(), self.types().display(e.ty))),
        };
        Ok(v)
    }
}
