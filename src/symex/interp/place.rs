//! Places: the address, type and bit-field an expression designates, the places of variables, and
//! the initialization of a variable's object.

use super::{scalar, ub, unsupported, Interp, Stop, R};
use crate::base::bits::{sign_extend, truncate};
use crate::cfront::ir::{Expr, ExprKind, InitStep, VarId};
use crate::cfront::types::{TypeId, TypeKind};
use crate::symex::initializer::{self, Initialize};
use crate::symex::semantics::UbKind;

#[derive(Clone, Debug)]
pub(super) struct Place {
    pub(super) addr: u128,
    pub(super) ty: TypeId,
    pub(super) bitfield: Option<(u32, u32)>,
}

impl Interp<'_> {
    pub(super) fn place(&mut self, e: &Expr) -> R<Place> {
        let types = self.types();
        match &e.kind {
            ExprKind::Var(v) => self.var_place(*v),
            ExprKind::Str(s) => {
                Ok(Place { addr: self.layout.address(self.w.str_obj(*s), 0), ty: e.ty, bitfield: None })
            }
            ExprKind::Func(f) => {
                Ok(Place { addr: self.layout.address(self.w.func_obj(*f), 0), ty: e.ty, bitfield: None })
            }
            ExprKind::Deref(p) => Ok(Place { addr: self.int(p)?, ty: e.ty, bitfield: None }),
            ExprKind::Index(base, idx) => {
                let p = self.int(base)?;
                let i = self.int(idx)?;
                let (ib, is, _) = scalar(types, idx.ty)?;
                let Some(size) = types.size_of(e.ty) else { return unsupported("indexing an incomplete type") };
                let wide = if is { sign_extend(i, ib) as u128 } else { truncate(i, ib) };
                let addr = truncate(p.wrapping_add(wide.wrapping_mul(size as u128)), self.layout.ptr_bits);
                // As the executor: a subscript whose offset carries into the object id leaves its
                // object.
                if self.layout.split_const(p).0 != self.layout.split_const(addr).0 {
                    return ub(UbKind::InvalidAccess);
                }
                Ok(Place { addr, ty: e.ty, bitfield: None })
            }
            ExprKind::Member { base, field, arrow, .. } => {
                let (addr, rec) = if *arrow {
                    let Some(t) = types.pointee(base.ty) else { return unsupported("'->' on a non-pointer") };
                    (self.int(base)?, t)
                } else {
                    (self.place(base)?.addr, base.ty)
                };
                let TypeKind::Record(r) = types.kind(rec) else { return unsupported("member of a non-record") };
                let Some(f) = types.record(*r).fields.as_ref().and_then(|fs| fs.get(*field)) else {
                    return unsupported("member of an incomplete struct");
                };
                let addr = truncate(addr.wrapping_add(f.offset as u128), self.layout.ptr_bits);
                Ok(Place { addr, ty: f.ty, bitfield: f.bitfield })
            }
            ExprKind::Cast(inner, _) if types.size_of(inner.ty) == types.size_of(e.ty) => {
                let p = self.place(inner)?;
                Ok(Place { ty: e.ty, ..p })
            }
            _ => unsupported("an lvalue of this form"),
        }
    }
}

impl Initialize for Interp<'_> {
    type Place = Place;
    type Error = Stop;

    fn var_place(&mut self, v: VarId) -> R<Place> {
        let global = self.is_global(v);
        let bound = if global {
            self.globals.get(&v).copied()
        } else {
            self.frames.last().expect("frame").locals.get(&v).copied()
        };
        let id = match bound {
            Some(id) => id,
            None => {
                let fill = if global && !self.prog.var(v).is_extern { Some(0) } else { None };
                self.alloc_var(v, fill)?
            }
        };
        Ok(Place { addr: self.layout.address(id, 0), ty: self.prog.var(v).ty, bitfield: None })
    }

    fn sub_place(&mut self, place: &Place, step: InitStep) -> R<Place> {
        match initializer::sub_object(self.types(), place.ty, step) {
            Ok(sub) => Ok(Place { addr: place.addr + sub.offset as u128, ty: sub.ty, bitfield: sub.bitfield }),
            Err(why) => unsupported(why),
        }
    }

    fn init_place(&mut self, place: &Place, x: &Expr) -> R<()> {
        if let Some(bytes) = initializer::string_bytes(self.prog, place.ty, x) {
            return self.write_bytes(place.addr, &bytes);
        }
        let v = self.rvalue(x)?;
        self.write(place, v)
    }
}
