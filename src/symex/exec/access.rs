//! Memory accesses of the executor: reads and writes of values at places and of bytes at
//! addresses, through the state's `memory` (with the `MemCtx` of the state), each reporting where it
//! is undefined behaviour; an unknown pointer read from bytes never written; and accesses at
//! offsets too wide to expand, pinned to one address per object they may reach.

use super::place::Place;
use super::{points_to_linked_record, Exec, Oracle, Value, R};
use crate::cfront::types::{bitfield_bytes, TypeKind};
use crate::sat::{Aig, AigLit, Bv};
use crate::symex::memory::{bv_to_bytes, bytes_to_bv, Byte, MemCtx, Memory, ObjId, ObjKind};
use crate::symex::semantics::{self, UbKind, Unsupported};
use crate::symex::state::{Approx, Conjunct, Facts, InputKind, List, SymInput, SymState};

/// Why the rest of a path whose access was pinned to one address (`Exec::pinned`) is cut.
const PINNED: &str = "an access at a symbolic offset in a large object, explored at one offset";

/// How far from where fresh memory is pointed to (`Layout::lazy_offset`) a pinned access
/// (`Exec::pinned`) is placed if it can be, nearest first.
const CONCRETE_WINDOWS: [u64; 2] = [1 << 12, 1 << 20];

/// The `MemCtx` of one state: fresh bytes become its inputs.
pub(super) struct Ctx<'x> {
    aig: &'x mut Aig,
    inputs: &'x mut List<SymInput>,
    pc: &'x List<Conjunct>,
    facts: &'x Facts,
    approx: &'x mut Approx,
    havoc_extern_writes: bool,
    oracle: &'x mut dyn Oracle,
}

/// `a` where `c` holds, else `b`: two reads of the same place (a scalar against bytes as bytes).
fn merge_values(aig: &mut Aig, c: AigLit, a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) if x.width() == y.width() => Value::Scalar(Bv::ite(aig, c, &x, &y)),
        (a, b) => {
            let bytes = |v: Value| match v {
                Value::Scalar(x) => bv_to_bytes(&x),
                Value::Bytes(b) => b,
            };
            Value::Bytes(merge_bytes(aig, c, bytes(a), bytes(b)))
        }
    }
}

/// `a` where `c` holds, else `b`, byte by byte (of equal length).
fn merge_bytes(aig: &mut Aig, c: AigLit, a: Vec<Byte>, b: Vec<Byte>) -> Vec<Byte> {
    debug_assert_eq!(a.len(), b.len(), "merging reads of different sizes");
    a.iter().zip(&b).map(|(&x, &y)| Byte::ite(aig, c, x, y)).collect()
}

impl MemCtx for Ctx<'_> {
    fn aig(&mut self) -> &mut Aig {
        self.aig
    }

    fn fresh_byte(&mut self, alloc: u32, offset: u64) -> Byte {
        let bv = Bv::input(self.aig, 8);
        let b = Byte::of(&bv, 0);
        self.inputs.push(SymInput { kind: InputKind::Uninit { alloc, offset }, ty: None, pointer_choice: false, bv });
        b
    }

    fn possible_values(&mut self, bv: &Bv, max: usize) -> Option<Vec<u128>> {
        self.oracle.possible_values(self.aig, self.pc, bv, max)
    }

    fn fixed(&mut self, bv: &Bv) -> Option<u128> {
        self.facts.value_of(self.aig, bv)
    }

    fn fixed_assuming(&mut self, bv: &Bv, assume: AigLit) -> Option<u128> {
        let mut facts = self.facts.clone();
        facts.learn(self.aig, assume);
        facts.value_of(self.aig, bv)
    }

    /// The path reads what a function without body may have written: in the over-approximating
    /// exploration an arbitrary value, otherwise an approximation of the path.
    fn read_stale(&mut self) -> bool {
        let a = if self.havoc_extern_writes { Approx::ABSTRACT } else { Approx::EXTERN_WRITE };
        *self.approx = self.approx.union(a);
        self.havoc_extern_writes
    }
}

impl Exec<'_, '_> {
    /// The value stored at `place`.
    pub(super) fn read(&mut self, place: &Place) -> R<Value> {
        let types = self.types();
        let size = match types.size_of(place.ty) {
            Some(s) => s,
            None if matches!(types.kind(place.ty), TypeKind::Array(..)) => 0,
            None => return Err(Unsupported(format!("reading a value of type {}", types.display(place.ty)))),
        };
        if let Some(pins) = self.pinned(&place.addr, size.max(1)) {
            let none = match semantics::repr(types, place.ty) {
                Ok(r)
                    if place.bitfield.is_some()
                        || matches!(types.kind(place.ty), TypeKind::Int(_) | TypeKind::Pointer(_)) =>
                {
                    Value::Scalar(Bv::zero(r.bits))
                }
                _ => Value::Bytes(vec![Byte::constant(0); size as usize]),
            };
            return self.per_pin(
                &pins,
                |ex, a| ex.read(&Place { addr: a.clone(), ..place.clone() }),
                merge_values,
                none,
            );
        }
        if let Some((bit, width)) = place.bitfield {
            let r = semantics::repr(types, place.ty)?;
            // Only the bytes the field spans: in packed layouts it may cross its type's unit.
            let unit = self.read_bytes(&place.addr, bitfield_bytes(bit, width))?;
            let unit = bytes_to_bv(&unit);
            let field = unit.extract(bit + width - 1, bit);
            return Ok(Value::Scalar(semantics::resize(&field, r.bits, r.signed)));
        }
        match types.kind(place.ty) {
            TypeKind::Int(_) | TypeKind::Pointer(_) => {
                if matches!(types.kind(place.ty), TypeKind::Pointer(_)) {
                    if let Some(v) = self.unknown_pointer_read(place, size)? {
                        return Ok(Value::Scalar(v));
                    }
                }
                let bytes = self.read_bytes(&place.addr, size)?;
                let v = bytes_to_bv(&bytes);
                let r = semantics::repr(types, place.ty)?;
                if r.is_bool {
                    // A _Bool object holds 0 or 1; other bytes (never written) read as true.
                    let nz = v.reduce_or(self.aig);
                    return Ok(Value::Scalar(semantics::bool_value(nz, 8)));
                }
                Ok(Value::Scalar(v))
            }
            TypeKind::Float(k) if k.format().is_some() => {
                Ok(Value::Scalar(bytes_to_bv(&self.read_bytes(&place.addr, size)?)))
            }
            _ => Ok(Value::Bytes(self.read_bytes(&place.addr, size)?)),
        }
    }

    /// A pointer read from bytes never written, at an address that denotes one object at a fixed
    /// offset wherever the read is valid: an unknown pointer (null or fresh memory), stored back so
    /// that later reads agree. Where the address denotes no object (say, a null unknown pointer
    /// plus a member offset), the read is undefined behaviour.
    fn unknown_pointer_read(&mut self, place: &Place, size: u64) -> R<Option<Bv>> {
        let (obj, off, invalid) = match self.fixed(&place.addr) {
            Some(addr) => {
                let (obj, off) = self.w.layout.split_const(addr);
                (obj, off, AigLit::FALSE)
            }
            None => {
                // Where the read is valid, does the address denote one object at a fixed offset?
                let (mem, mut ctx) = self.mem_ctx();
                let t = mem.targets(&mut ctx, &place.addr)?;
                match (t.objs.as_slice(), t.off.as_const()) {
                    ([(id, _)], Some(off)) => (*id, off as u64, t.none),
                    _ => return Ok(None),
                }
            }
        };
        if self.w.havoc_extern_writes && self.st.mem.get(obj).is_some_and(|o| o.any_stale(Some((off, size)))) {
            // What a function without body wrote there is an unknown pointer.
            let (mem, mut ctx) = self.mem_ctx();
            mem.check_stale(&mut ctx, obj, Some((off, size)));
        }
        let Some(o) = self.st.mem.get(obj) else { return Ok(None) };
        if obj == 0 || off + size > o.size || !(off..off + size).all(|k| o.byte(k).is_uninit()) {
            return Ok(None);
        }
        if invalid != AigLit::FALSE {
            let g = self.aig.and(self.guard, invalid);
            self.ub.push((g, UbKind::InvalidAccess));
        }
        let linked = self.w.alias_links && points_to_linked_record(self.types(), place.ty);
        let (alloc, container) = (o.alloc, (o.kind == ObjKind::Lazy && linked).then_some(obj));
        let v = self.unknown_pointer(InputKind::Uninit { alloc, offset: off }, place.ty, container)?;
        let bytes = bv_to_bytes(&v);
        let o = self.st.mem.get_mut(obj).expect("live");
        for (k, b) in bytes.into_iter().enumerate() {
            o.set_byte(off + k as u64, b);
        }
        Ok(Some(v))
    }

    /// Stores `v` at `place`.
    pub(super) fn write(&mut self, place: &Place, v: Value) -> R<()> {
        let size = self.types().size_of(place.ty).unwrap_or(0);
        if let Some(pins) = self.pinned(&place.addr, size.max(1)) {
            let write = |ex: &mut Self, a: &Bv| ex.write(&Place { addr: a.clone(), ..place.clone() }, v.clone());
            return self.per_pin(&pins, write, |_, _, _, _| (), ());
        }
        if let Some((bit, width)) = place.bitfield {
            let Value::Scalar(v) = v else {
                return Err(Unsupported("a non-scalar stored into a bit-field".into()));
            };
            let unit = bytes_to_bv(&self.read_bytes(&place.addr, bitfield_bytes(bit, width))?);
            let field = semantics::resize(&v, width, false);
            let mut bits = unit.bits().to_vec();
            bits[bit as usize..(bit + width) as usize].copy_from_slice(field.bits());
            let unit = Bv::from_bits(bits);
            return self.write_bytes(&place.addr, &bv_to_bytes(&unit));
        }
        let bytes = match v {
            Value::Scalar(bv) => bv_to_bytes(&bv),
            Value::Bytes(b) => b,
        };
        if bytes.is_empty() {
            return Ok(());
        }
        self.write_bytes(&place.addr, &bytes)
    }

    pub(super) fn read_bytes(&mut self, addr: &Bv, n: u64) -> R<Vec<Byte>> {
        if n == 0 {
            return Ok(vec![]);
        }
        if let Some(pins) = self.pinned(addr, n) {
            let none = vec![Byte::constant(0); n as usize];
            return self.per_pin(&pins, |ex, a| ex.read_bytes(a, n), merge_bytes, none);
        }
        let (mem, mut ctx) = self.mem_ctx();
        let (bytes, invalid) = mem.read(&mut ctx, addr, n)?;
        if invalid != AigLit::FALSE {
            let g = self.aig.and(self.guard, invalid);
            self.ub.push((g, UbKind::InvalidAccess));
        }
        self.note_in_bounds(addr, n);
        Ok(bytes)
    }

    pub(super) fn write_bytes(&mut self, addr: &Bv, bytes: &[Byte]) -> R<()> {
        if let Some(pins) = self.pinned(addr, bytes.len() as u64) {
            return self.per_pin(&pins, |ex, a| ex.write_bytes(a, bytes), |_, _, _, _| (), ());
        }
        let guard = self.guard;
        let (mem, mut ctx) = self.mem_ctx();
        let invalid = mem.write(&mut ctx, addr, bytes, guard)?;
        if invalid != AigLit::FALSE {
            let g = self.aig.and(self.guard, invalid);
            self.ub.push((g, UbKind::InvalidAccess));
        }
        self.note_in_bounds(addr, bytes.len() as u64);
        Ok(())
    }

    /// After an access of `n` bytes at `addr`: if it certainly took place there (no guard, a
    /// constant address), the path goes on only where it was in bounds (`Memory::note_in_bounds`).
    fn note_in_bounds(&mut self, addr: &Bv, n: u64) {
        if self.guard != AigLit::TRUE {
            return;
        }
        if let Some(a) = addr.as_const() {
            let (obj, off) = self.w.layout.split_const(a);
            self.st.mem.note_in_bounds(obj, off.saturating_add(n));
        }
    }

    /// For an access of `n` bytes at `addr` whose offset is too wide to expand in its objects
    /// (`Memory::offset_too_wide`; an alias of fresh memory at an arbitrary offset, moved by
    /// `container_of`, say): per object the address can denote, the condition that it does and one
    /// constant address it takes there, in bounds and near where fresh memory is pointed to if it
    /// can be (`CONCRETE_WINDOWS`: the replay harness builds fresh memory as one block spanning
    /// the offsets an execution reads). Where an object allows other addresses the path goes on
    /// with the chosen one (`narrowed`) and the rest of it is cut as unsupported, as the whole path
    /// was before. `None`: the access needs no pinning.
    fn pinned(&mut self, addr: &Bv, n: u64) -> Option<Vec<(AigLit, Bv)>> {
        let layout = self.w.layout;
        let objs: Vec<(ObjId, AigLit, u64, bool)> = {
            let (mem, mut ctx) = self.mem_ctx();
            let objs = mem.offset_too_wide(&mut ctx, addr, n)?;
            objs.into_iter()
                .filter(|(_, _, o)| n <= o.size)
                .map(|(id, c, o)| (id, c, o.size - n, o.kind == ObjKind::Lazy))
                .collect()
        };
        let mut pins = Vec::with_capacity(objs.len());
        for (id, c, last, lazy) in objs {
            let here = self.aig.and(self.guard, c);
            let mut value = None;
            for window in CONCRETE_WINDOWS.iter().map(Some).chain([None]) {
                let (lo, hi) = match window {
                    Some(&w) if lazy => {
                        let mid = layout.lazy_offset();
                        (mid.saturating_sub(w), (mid + w).min(last))
                    }
                    Some(_) => continue,
                    None => (0, last),
                };
                let (lo, hi) = (layout.address_bv(id, lo), layout.address_bv(id, hi));
                let (above, below) = (lo.ule(self.aig, addr), addr.ule(self.aig, &hi));
                let inside = self.aig.and(above, below);
                let wanted = self.aig.and(here, inside);
                value = self.oracle.a_value(self.aig, &self.st.pc, addr, wanted);
                if value.is_some() {
                    break;
                }
            }
            // Out of bounds everywhere (undefined behaviour, reported by the access), or not at all.
            let Some(value) = value.or_else(|| self.oracle.a_value(self.aig, &self.st.pc, addr, here)) else {
                continue;
            };
            let c_addr = Bv::constant(value, addr.width());
            let eq = addr.eq(self.aig, &c_addr);
            let other = self.aig.and(here, !eq);
            if self.oracle.a_value(self.aig, &self.st.pc, addr, other).is_some() {
                self.narrowed.push((!other, PINNED));
            }
            pins.push((c, c_addr));
        }
        Some(pins)
    }

    /// Runs `access` once per pin of `pins` (`pinned`), under the guard that the address is that
    /// pin's object, and reports the access as invalid where it denotes none of them.
    fn per_pin<T>(
        &mut self,
        pins: &[(AigLit, Bv)],
        mut access: impl FnMut(&mut Self, &Bv) -> R<T>,
        mut merge: impl FnMut(&mut Aig, AigLit, T, T) -> T,
        none: T,
    ) -> R<T> {
        let outer = self.guard;
        let mut res = None;
        let mut any = AigLit::FALSE;
        let lazy = self.pin_lazy.replace(None);
        for (c, a) in pins.iter().rev() {
            self.guard = self.aig.and(outer, *c);
            let r = access(self, a);
            self.guard = outer;
            let r = r.inspect_err(|_| self.pin_lazy = lazy);
            let r = r?;
            res = Some(match res {
                None => r,
                Some(other) => merge(self.aig, *c, r, other),
            });
            any = self.aig.or(any, *c);
        }
        self.pin_lazy = lazy;
        let res = res.unwrap_or(none);
        let nowhere = self.aig.and(outer, !any);
        if nowhere != AigLit::FALSE {
            self.ub.push((nowhere, UbKind::InvalidAccess));
        }
        Ok(res)
    }

    /// The state's memory and the `MemCtx` its accesses need.
    pub(super) fn mem_ctx(&mut self) -> (&mut Memory, Ctx<'_>) {
        let SymState { mem, inputs, pc, facts, approx, .. } = &mut *self.st;
        let havoc_extern_writes = self.w.havoc_extern_writes;
        (mem, Ctx { aig: &mut *self.aig, inputs, pc, facts, approx, havoc_extern_writes, oracle: &mut *self.oracle })
    }
}
