//! The values of expressions: constants, reads of places, operators with C's integer rules
//! (`semantics`), conversions, and conditions as literals.

use super::{Exec, Value, R};
use crate::base::fp::{Format, Rounding};
use crate::cfront::ir::{BinOp, Expr, ExprKind, UnOp};
use crate::cfront::types::{TypeId, TypeKind};
use crate::sat::{AigLit, Bv};
use crate::symex::memory::Byte;
use crate::symex::semantics::{self, Repr, Unsupported};

impl Exec<'_, '_> {
    /// The truth value of a scalar condition.
    pub(in crate::symex) fn condition(&mut self, cond: &Expr) -> R<AigLit> {
        let v = self.scalar(cond)?;
        Ok(semantics::scalar_truth(self.aig, self.types(), cond.ty, &v))
    }

    /// The rounding mode of floating-point operations (`fesetround`).
    pub(super) fn rounding(&self) -> Rounding {
        self.st.rounding
    }

    /// The value of a scalar expression.
    pub(super) fn scalar(&mut self, e: &Expr) -> R<Bv> {
        match self.rvalue(e)? {
            Value::Scalar(v) => Ok(v),
            Value::Bytes(_) => {
                Err(Unsupported(format!("a value of type {} used as a scalar", self.types().display(e.ty))))
            }
        }
    }

    /// The value of `e`.
    pub(super) fn rvalue(&mut self, e: &Expr) -> R<Value> {
        let types = self.types();
        match &e.kind {
            ExprKind::IntConst(v) => {
                let r = semantics::repr(types, e.ty)?;
                Ok(Value::Scalar(Bv::constant(*v as u128, r.bits)))
            }
            ExprKind::SizeOf(v) | ExprKind::SizeOfExpr(v, _) => {
                let r = semantics::repr(types, e.ty)?;
                Ok(Value::Scalar(Bv::constant(*v as u128, r.bits)))
            }
            ExprKind::FloatConst(lit) => match (lit.bits, types.float_format(e.ty)) {
                (Some(v), Some(f)) => Ok(Value::Scalar(Bv::constant(v, f.bits()))),
                _ => Err(Unsupported(format!("{} values", types.display(e.ty)))),
            },
            // The CFA builder turns every statement expression into edges.
            ExprKind::StmtExpr(_) => Err(Unsupported("a statement expression on an edge".into())),
            ExprKind::Unsupported(reason) => Err(Unsupported(reason.clone())),
            ExprKind::Var(_)
            | ExprKind::Member { .. }
            | ExprKind::Index(..)
            | ExprKind::Deref(_)
            | ExprKind::Str(_) => {
                let place = self.place(e)?;
                self.read(&place)
            }
            ExprKind::Func(f) => Ok(Value::Scalar(self.w.layout.address_bv(self.w.func_obj(*f), 0))),
            ExprKind::Decay(inner) | ExprKind::AddrOf(inner) => {
                if let ExprKind::Func(f) = inner.strip_implicit().kind {
                    return Ok(Value::Scalar(self.w.layout.address_bv(self.w.func_obj(f), 0)));
                }
                let place = self.place(inner)?;
                if place.bitfield.is_some() {
                    return Err(Unsupported("address of a bit-field".into()));
                }
                Ok(Value::Scalar(place.addr))
            }
            ExprKind::Unary(op, x) => {
                if let Some(f) = types.float_format(x.ty) {
                    let v = self.scalar(x)?;
                    let bits = if *op == UnOp::LogNot { semantics::repr(types, e.ty)?.bits } else { f.bits() };
                    return Ok(Value::Scalar(semantics::float_unary(self.aig, f, *op, &v, bits)));
                }
                let r = semantics::repr(types, x.ty)?;
                let v = self.scalar(x)?;
                let res = semantics::unary(self.aig, *op, &v, r);
                let rr = semantics::repr(types, e.ty)?;
                if *op != UnOp::LogNot && rr.bits != res.width() {
                    return Ok(Value::Scalar(semantics::convert(self.aig, &res, r, rr)));
                }
                Ok(Value::Scalar(res))
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b).map(Value::Scalar),
            ExprKind::Cast(x, _) => {
                if matches!(types.kind(e.ty), TypeKind::Void) {
                    self.rvalue(x)?;
                    return Ok(Value::Scalar(Bv::zero(8)));
                }
                let v = self.rvalue(x)?;
                self.convert_value(v, x.ty, e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                let cl = self.condition(c)?;
                let saved = self.guard;
                self.guard = self.aig.and(saved, cl);
                let va = self.rvalue(a);
                self.guard = self.aig.and(saved, !cl);
                let vb = self.rvalue(b);
                self.guard = saved;
                let (va, vb) = (va?, vb?);
                self.ite_value(cl, va, vb)
            }
            ExprKind::Comma(a, b) => {
                self.rvalue(a)?;
                self.rvalue(b)
            }
            ExprKind::Assign(..) | ExprKind::CompoundAssign(..) | ExprKind::IncDec { .. } | ExprKind::Call(..) => {
                Err(Unsupported("a side effect inside an expression".into()))
            }
        }
    }

    fn ite_value(&mut self, c: AigLit, a: Value, b: Value) -> R<Value> {
        match (a, b) {
            (Value::Scalar(x), Value::Scalar(y)) if x.width() == y.width() => {
                Ok(Value::Scalar(Bv::ite(self.aig, c, &x, &y)))
            }
            (Value::Bytes(x), Value::Bytes(y)) if x.len() == y.len() => {
                Ok(Value::Bytes(x.iter().zip(&y).map(|(&p, &q)| Byte::ite(self.aig, c, p, q)).collect()))
            }
            _ => Err(Unsupported("a conditional expression whose branches differ in type".into())),
        }
    }

    /// `v` of type `from` converted to type `to`.
    pub(super) fn convert_value(&mut self, v: Value, from: TypeId, to: TypeId) -> R<Value> {
        let types = self.types();
        match v {
            Value::Scalar(bv) => {
                if types.float_format(from).is_some() || types.float_format(to).is_some() {
                    return self.convert_float(&bv, from, to).map(Value::Scalar);
                }
                let fr = semantics::repr(types, from)?;
                let tr = semantics::repr(types, to)?;
                Ok(Value::Scalar(semantics::convert(self.aig, &bv, fr, tr)))
            }
            Value::Bytes(bytes) => {
                if from == to || types.size_of(from) == types.size_of(to) && !types.is_scalar(to) {
                    Ok(Value::Bytes(bytes))
                } else {
                    Err(Unsupported(format!("a conversion from {} to {}", types.display(from), types.display(to))))
                }
            }
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> R<Bv> {
        let types = self.types();
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            let ca = self.condition(a)?;
            let saved = self.guard;
            self.guard = self.aig.and(saved, if op == BinOp::LogAnd { ca } else { !ca });
            let cb = self.condition(b);
            self.guard = saved;
            let cb = cb?;
            let lit = if op == BinOp::LogAnd { self.aig.and(ca, cb) } else { self.aig.or(ca, cb) };
            let r = semantics::repr(types, e.ty)?;
            return Ok(semantics::bool_value(lit, r.bits));
        }
        let (pa, pb) = (types.pointee(a.ty), types.pointee(b.ty));
        let va = self.scalar(a)?;
        let vb = self.scalar(b)?;
        let elem_size = |t: TypeId| -> R<u64> {
            match types.kind(t) {
                TypeKind::Void | TypeKind::Func(_) => Ok(1),
                _ => types.size_of(t).ok_or_else(|| Unsupported("pointer arithmetic on an incomplete type".into())),
            }
        };
        match (pa, pb) {
            (Some(t), None) if matches!(op, BinOp::Add | BinOp::Sub) => {
                let rb = semantics::repr(types, b.ty)?;
                return Ok(semantics::pointer_offset(self.aig, &va, &vb, rb, elem_size(t)?, op == BinOp::Sub));
            }
            (None, Some(t)) if op == BinOp::Add => {
                let ra = semantics::repr(types, a.ty)?;
                return Ok(semantics::pointer_offset(self.aig, &vb, &va, ra, elem_size(t)?, false));
            }
            (Some(t), Some(_)) if op == BinOp::Sub => {
                let r = semantics::repr(types, e.ty)?;
                return Ok(semantics::pointer_diff(self.aig, &va, &vb, elem_size(t)?, r.bits));
            }
            _ => {}
        }
        if let Some(f) = types.float_format(a.ty) {
            return self.float_binary(e, f, op, &va, &vb);
        }
        let ra = semantics::repr(types, a.ty)?;
        let rb = semantics::repr(types, b.ty)?;
        let (va, vb) = semantics::align_relational(op, va, vb, ra, rb);
        let r = Repr { bits: va.width(), ..ra };
        let res = semantics::binary(self.aig, op, &va, &vb, r, rb);
        if res.ub != AigLit::FALSE {
            let g = self.aig.and(self.guard, res.ub);
            self.ub.push((g, res.kind));
        }
        let rr = semantics::repr(types, e.ty)?;
        if rr.bits != res.value.width() {
            return Ok(semantics::resize(&res.value, rr.bits, r.signed && !op.is_relational()));
        }
        Ok(res.value)
    }

    /// `x op y` with both operands of the floating format `f` (the common type).
    fn float_binary(&mut self, e: &Expr, f: Format, op: BinOp, x: &Bv, y: &Bv) -> R<Bv> {
        let bits = if op.is_relational() { semantics::repr(self.types(), e.ty)?.bits } else { f.bits() };
        let rm = self.rounding();
        semantics::float_binary(self.aig, f, rm, op, x, y, bits)
            .ok_or_else(|| Unsupported(format!("`{}` on {} operands", op.symbol(), self.types().display(e.ty))))
    }

    /// `v` converted from type `from` to type `to`, at least one of them floating
    /// (`semantics::convert_float`). A conversion to an integer where the value does not fit is
    /// undefined behaviour.
    fn convert_float(&mut self, v: &Bv, from: TypeId, to: TypeId) -> R<Bv> {
        let rm = self.rounding();
        let res = semantics::convert_float(self.aig, self.types(), rm, v, from, to)?;
        if res.ub != AigLit::FALSE {
            let g = self.aig.and(self.guard, res.ub);
            self.ub.push((g, res.kind));
        }
        Ok(res.value)
    }
}
