//! Integer promotions (bit-fields included) and the usual arithmetic conversions.

use super::Lowerer;
use crate::cfront::ir::*;
use crate::cfront::types::*;

impl Lowerer<'_> {
    /// The integer promotion of `ty`.
    fn promoted_type(&mut self, ty: TypeId) -> TypeId {
        match self.types.kind(ty) {
            TypeKind::Int(it) if it.rank < IntRank::Int => self.int(),
            _ => ty,
        }
    }

    /// The width of the bit-field whose value `e` is: a member that is a bit-field, or a comma,
    /// assignment or increment whose value is one (gcc gives these the bit-field's type too).
    fn bitfield_width(&self, e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Member { base, field, arrow, .. } => {
                let rec_ty = if *arrow { self.types.pointee(base.ty)? } else { base.ty };
                let TypeKind::Record(r) = self.types.kind(rec_ty) else { return None };
                let (_, width) = self.types.record(*r).fields.as_ref()?.get(*field)?.bitfield?;
                Some(width)
            }
            ExprKind::Comma(_, x)
            | ExprKind::Assign(x, _)
            | ExprKind::CompoundAssign(_, x, _, _)
            | ExprKind::IncDec { target: x, .. } => self.bitfield_width(x),
            _ => None,
        }
    }

    /// The integer promotion of the value of `e`: that of its type, except that a bit-field all of
    /// whose values `int` represents promotes to `int` (C11 6.3.1.1p2; gcc also for bit-fields
    /// declared with a type wider than `int`), as `unsigned x : 17` does.
    pub(super) fn promoted_type_of(&mut self, e: &Expr) -> TypeId {
        if let (Some(w), Some(it)) = (self.bitfield_width(e), self.types.as_int(e.ty)) {
            let int_bits = IntType::INT.bits(self.types.data_model());
            if w < int_bits || (it.signed && w == int_bits) {
                return self.int();
            }
        }
        self.promoted_type(e.ty)
    }

    pub(super) fn promote(&mut self, e: Expr) -> Expr {
        let t = self.promoted_type_of(&e);
        self.convert(e, t)
    }

    /// `e` converted to `int` if it is a bit-field that promotes to `int`, else `e` (before the
    /// usual arithmetic conversions, which only see types).
    pub(super) fn promote_bitfield(&mut self, e: Expr) -> Expr {
        if self.bitfield_width(&e).is_some() && self.types.as_int(e.ty).is_some() {
            self.promote(e)
        } else {
            e
        }
    }

    /// The common type of the usual arithmetic conversions.
    pub(super) fn common_type(&mut self, a: TypeId, b: TypeId) -> TypeId {
        let a = self.promoted_type(a);
        let b = self.promoted_type(b);
        match (self.types.kind(a).clone(), self.types.kind(b).clone()) {
            (TypeKind::Float(x), TypeKind::Float(y)) => {
                if float_rank(x) >= float_rank(y) {
                    a
                } else {
                    b
                }
            }
            (TypeKind::Float(_), _) => a,
            (_, TypeKind::Float(_)) => b,
            (TypeKind::Int(x), TypeKind::Int(y)) => {
                if x == y {
                    return a;
                }
                let dm = self.types.data_model();
                let res = if x.signed == y.signed {
                    if x.rank >= y.rank {
                        x
                    } else {
                        y
                    }
                } else {
                    let (s, u) = if x.signed { (x, y) } else { (y, x) };
                    if u.rank >= s.rank {
                        u
                    } else if s.bits(dm) > u.bits(dm) {
                        s
                    } else {
                        IntType { rank: s.rank, signed: false }
                    }
                };
                self.types.int(res)
            }
            _ => a,
        }
    }
}

fn float_rank(k: FloatKind) -> u8 {
    match k {
        FloatKind::Float => 0,
        FloatKind::Double => 1,
        FloatKind::LongDouble => 2,
        FloatKind::Float128 => 3,
    }
}
