//! Places: the lvalue (address, type, bit-field) an expression designates, the places of variables
//! (allocated on first use), and the initialization of a variable's object.

use super::{alloc_var, Exec, R};
use crate::cfront::ir::{Expr, ExprKind, InitStep, VarId, VarKind};
use crate::cfront::types::{TypeId, TypeKind};
use crate::sat::{AigLit, Bv};
use crate::symex::initializer::{self, Initialize};
use crate::symex::memory::Byte;
use crate::symex::semantics::{self, UbKind, Unsupported};

/// An lvalue: address, type and bit-field position.
#[derive(Clone, Debug)]
pub(in crate::symex) struct Place {
    pub(super) addr: Bv,
    pub(super) ty: TypeId,
    pub(super) bitfield: Option<(u32, u32)>,
}

impl Exec<'_, '_> {
    /// The place `e` designates.
    pub(super) fn place(&mut self, e: &Expr) -> R<Place> {
        let types = self.types();
        match &e.kind {
            ExprKind::Var(v) => self.var_place(*v),
            ExprKind::Str(s) => {
                Ok(Place { addr: self.w.layout.address_bv(self.w.str_obj(*s), 0), ty: e.ty, bitfield: None })
            }
            ExprKind::Func(f) => {
                Ok(Place { addr: self.w.layout.address_bv(self.w.func_obj(*f), 0), ty: e.ty, bitfield: None })
            }
            ExprKind::Deref(p) => {
                let addr = self.scalar(p)?;
                Ok(Place { addr, ty: e.ty, bitfield: None })
            }
            ExprKind::Index(base, idx) => {
                let p = self.scalar(base)?;
                let i = self.scalar(idx)?;
                let ri = semantics::repr(types, idx.ty)?;
                let size = types.size_of(e.ty).ok_or_else(|| Unsupported("indexing an incomplete type".into()))?;
                let addr = semantics::pointer_offset(self.aig, &p, &i, ri, size, false);
                // A subscript whose offset carries into the object id (an index far past the
                // array: `usb_minors[minor]` with a minor of 2^19 under ILP32) would name another
                // object, where gcc's program reads whatever lies that far past the array: the
                // subscript leaves its object, undefined behaviour.
                let (po, _) = self.w.layout.split(&p);
                let (ao, _) = self.w.layout.split(&addr);
                let same = po.eq(self.aig, &ao);
                let left = self.aig.and(self.guard, !same);
                if left != AigLit::FALSE {
                    self.ub.push((left, UbKind::InvalidAccess));
                }
                Ok(Place { addr, ty: e.ty, bitfield: None })
            }
            ExprKind::Member { base, field, arrow, .. } => {
                let (base_addr, rec_ty) = if *arrow {
                    let p = self.scalar(base)?;
                    let t = types.pointee(base.ty).ok_or_else(|| Unsupported("'->' on a non-pointer".into()))?;
                    (p, t)
                } else {
                    let p = self.place(base)?;
                    (p.addr, base.ty)
                };
                let TypeKind::Record(r) = types.kind(rec_ty) else {
                    return Err(Unsupported("member of a non-record".into()));
                };
                let f = types
                    .record(*r)
                    .fields
                    .as_ref()
                    .and_then(|fs| fs.get(*field))
                    .ok_or_else(|| Unsupported("member of an incomplete struct".into()))?;
                let addr = self.offset_addr(&base_addr, f.offset);
                Ok(Place { addr, ty: f.ty, bitfield: f.bitfield })
            }
            ExprKind::Cast(inner, _) if types.size_of(inner.ty) == types.size_of(e.ty) => {
                // GNU lvalue casts; the bytes are reinterpreted.
                let p = self.place(inner)?;
                Ok(Place { ty: e.ty, ..p })
            }
            _ => Err(Unsupported(format!("an lvalue of this form: {}", self.w.prog.text(e.span)))),
        }
    }

    fn offset_addr(&mut self, addr: &Bv, off: u64) -> Bv {
        if off == 0 {
            return addr.clone();
        }
        addr.add(self.aig, &Bv::constant(off as u128, addr.width()))
    }
}

impl Initialize for Exec<'_, '_> {
    type Place = Place;
    type Error = Unsupported;

    /// The place of variable `v` (allocated on first use if no declaration was executed, e.g. after
    /// a `goto` past it).
    fn var_place(&mut self, v: VarId) -> R<Place> {
        let var = self.w.prog.var(v);
        let global = matches!(var.kind, VarKind::Global | VarKind::StaticLocal(_));
        let bound = if global { self.st.globals.get(&v).copied() } else { self.st.top().local(v) };
        let id = match bound {
            Some(id) => id,
            None => {
                let fill = if global && !var.is_extern { Byte::constant(0) } else { Byte::uninit() };
                alloc_var(self.w, self.st, v, fill)?
            }
        };
        Ok(Place { addr: self.w.layout.address_bv(id, 0), ty: var.ty, bitfield: None })
    }

    /// The sub-object `step` of the object at `place`.
    fn sub_place(&mut self, place: &Place, step: InitStep) -> R<Place> {
        let sub = initializer::sub_object(self.types(), place.ty, step).map_err(|why| Unsupported(why.into()))?;
        let addr = self.offset_addr(&place.addr, sub.offset);
        Ok(Place { addr, ty: sub.ty, bitfield: sub.bitfield })
    }

    /// Initializes `place` with `x` (a string literal for a character array copies its bytes).
    fn init_place(&mut self, place: &Place, x: &Expr) -> R<()> {
        if let Some(data) = initializer::string_bytes(self.w.prog, place.ty, x) {
            let bytes: Vec<Byte> = data.into_iter().map(Byte::constant).collect();
            if !bytes.is_empty() {
                self.write_bytes(&place.addr, &bytes)?;
            }
            return Ok(());
        }
        let v = self.rvalue(x)?;
        self.write(place, v)
    }
}
