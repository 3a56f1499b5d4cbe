//! The interpreter's memory: objects of concrete bytes under the executor's ids and address layout
//! (written apart from `symex::memory`), their allocation, and reads and writes of bytes and values,
//! with the unknown pointers read from bytes never written.

use std::collections::BTreeMap;

use super::{scalar, ub, unsupported, AllocOrigin, Interp, Place, Val, R};
use crate::base::bits::{mask, sign_extend, truncate};
use crate::cfront::ir::{VarId, VarKind};
use crate::cfront::types::{bitfield_bytes, TypeKind};
use crate::symex::memory::ObjId;
use crate::symex::semantics::UbKind;
use crate::symex::state::PointerChoice;

/// What an object stands for (as `memory::ObjKind`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Func,
    Str,
    Var,
    Heap,
    Lazy,
}

/// An object: its size, kind and allocation number, the value of the bytes never written (`None`:
/// an input's, 0 when absent) and the bytes written or read so far.
#[derive(Clone, Debug)]
pub(super) struct Obj {
    pub(super) size: u64,
    pub(super) kind: Kind,
    pub(super) alloc: u32,
    pub(super) default: Option<u8>,
    pub(super) bytes: BTreeMap<u64, u8>,
}

impl Interp<'_> {
    pub(super) fn alloc(&mut self, size: u64, kind: Kind, fill: Option<u8>, origin: AllocOrigin) -> R<ObjId> {
        if size > self.layout.max_size() {
            return unsupported(format!("an object of {size} bytes"));
        }
        let alloc = self.next_alloc(origin);
        let mut id = self.first_free;
        while id < self.objs.len() && self.objs[id].is_some() {
            id += 1;
        }
        if id as u64 >= self.layout.max_objects() {
            return unsupported("too many live objects");
        }
        if id == self.objs.len() {
            self.objs.push(None);
        }
        self.objs[id] = Some(Obj { size, kind, alloc, default: fill, bytes: BTreeMap::new() });
        self.first_free = id + 1;
        Ok(id as ObjId)
    }

    /// The next allocation number, which stands for `origin`.
    fn next_alloc(&mut self, origin: AllocOrigin) -> u32 {
        let alloc = self.n_allocs;
        self.n_allocs += 1;
        self.allocs.push(origin);
        alloc
    }

    /// The origin of the next allocation of variable `v`.
    fn var_origin(&mut self, v: VarId) -> AllocOrigin {
        let n = self.instances.entry(v).or_insert(0);
        *n += 1;
        AllocOrigin::Var { var: v, instance: *n }
    }

    pub(super) fn free_id(&mut self, id: ObjId) {
        if let Some(slot) = self.objs.get_mut(id as usize) {
            *slot = None;
            self.first_free = self.first_free.min(id as usize);
        }
    }

    pub(super) fn is_global(&self, v: VarId) -> bool {
        matches!(self.prog.var(v).kind, VarKind::Global | VarKind::StaticLocal(_))
    }

    /// Allocates (or renews) the object of `v`, like `exec::alloc_var`.
    pub(super) fn alloc_var(&mut self, v: VarId, fill: Option<u8>) -> R<ObjId> {
        let var = self.prog.var(v);
        let size = match self.types().size_of(var.ty) {
            Some(s) => s,
            None if matches!(self.types().kind(var.ty), TypeKind::Array(_, None)) => 0,
            None => return unsupported(format!("variable '{}' of incomplete type", var.name)),
        };
        let global = self.is_global(v);
        let existing = if global {
            self.globals.get(&v).copied()
        } else {
            self.frames.last().expect("frame").locals.get(&v).copied()
        };
        let origin = self.var_origin(v);
        if let Some(id) = existing {
            let alloc = self.next_alloc(origin);
            self.objs[id as usize] = Some(Obj { size, kind: Kind::Var, alloc, default: fill, bytes: BTreeMap::new() });
            return Ok(id);
        }
        let id = self.alloc(size, Kind::Var, fill, origin)?;
        if global {
            self.globals.insert(v, id);
        } else {
            self.frames.last_mut().expect("frame").locals.insert(v, id);
        }
        Ok(id)
    }

    /// The object and offset `n` bytes at `addr` lie in, for reading or writing.
    fn locate(&self, addr: u128, n: u64, write: bool) -> R<(ObjId, u64)> {
        let (id, off) = self.layout.split_const(truncate(addr, self.layout.ptr_bits));
        match self.objs.get(id as usize).and_then(|o| o.as_ref()) {
            Some(o)
                if id != 0
                    && o.kind != Kind::Func
                    && !(write && o.kind == Kind::Str)
                    && off.checked_add(n).is_some_and(|end| end <= o.size) =>
            {
                Ok((id, off))
            }
            _ => ub(UbKind::InvalidAccess),
        }
    }

    pub(super) fn read_bytes(&mut self, addr: u128, n: u64) -> R<Vec<u8>> {
        if n == 0 {
            return Ok(vec![]);
        }
        let (id, off) = self.locate(addr, n, false)?;
        let mut res = Vec::with_capacity(n as usize);
        for k in off..off + n {
            let o = self.objs[id as usize].as_mut().expect("live");
            let b = match o.bytes.get(&k).copied().or(o.default) {
                Some(b) => b,
                None => {
                    let v = self.uninit.get(&(o.alloc, k)).map_or(0, |(_, i)| i.value as u8);
                    o.bytes.insert(k, v);
                    v
                }
            };
            res.push(b);
        }
        Ok(res)
    }

    pub(super) fn write_bytes(&mut self, addr: u128, bytes: &[u8]) -> R<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let (id, off) = self.locate(addr, bytes.len() as u64, true)?;
        let o = self.objs[id as usize].as_mut().expect("live");
        for (k, &b) in bytes.iter().enumerate() {
            o.bytes.insert(off + k as u64, b);
        }
        Ok(())
    }

    pub(super) fn read(&mut self, p: &Place) -> R<Val> {
        let types = self.types();
        let size = match types.size_of(p.ty) {
            Some(s) => s,
            None if matches!(types.kind(p.ty), TypeKind::Array(..)) => 0,
            None => return unsupported("reading a value of incomplete type"),
        };
        if let Some((bit, width)) = p.bitfield {
            let (bits, signed, _) = scalar(types, p.ty)?;
            let unit = self.read_bytes(p.addr, bitfield_bytes(bit, width))?;
            let u = unit.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128);
            let f = truncate(u >> bit, width);
            let v = if signed { truncate(sign_extend(f, width) as u128, bits) } else { f };
            return Ok(Val::Int(v, bits));
        }
        match types.kind(p.ty) {
            TypeKind::Int(_) | TypeKind::Pointer(_) => {
                if matches!(types.kind(p.ty), TypeKind::Pointer(_)) {
                    if let Some(v) = self.unknown_pointer_read(p.addr, size)? {
                        return Ok(Val::Int(v, self.layout.ptr_bits));
                    }
                }
                let bytes = self.read_bytes(p.addr, size)?;
                let v = bytes.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128);
                let (bits, _, is_bool) = scalar(types, p.ty)?;
                if is_bool {
                    return Ok(Val::Int((v != 0) as u128, 8));
                }
                Ok(Val::Int(v, bits))
            }
            TypeKind::Float(k) if k.format().is_some() => {
                let bytes = self.read_bytes(p.addr, size)?;
                Ok(Val::Int(bytes.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128), size as u32 * 8))
            }
            _ => Ok(Val::Bytes(self.read_bytes(p.addr, size)?)),
        }
    }

    /// A pointer read from bytes never written: null, fresh memory or an address in the memory it is
    /// read from, as the input says.
    fn unknown_pointer_read(&mut self, addr: u128, size: u64) -> R<Option<u128>> {
        let (id, off) = self.layout.split_const(addr);
        let Some(Some(o)) = self.objs.get(id as usize) else { return Ok(None) };
        if id == 0 || off + size > o.size || o.default.is_some() || (off..off + size).any(|k| o.bytes.contains_key(&k))
        {
            return Ok(None);
        }
        let (key, kind) = ((o.alloc, off), o.kind);
        if self.uninit.get(&key).is_some_and(|(_, i)| !i.pointer_choice) {
            // The executor read these bytes as bytes (at an address it could not tie to one place,
            // `Exec::unknown_pointer_read`): so does the run, and it makes no fresh memory.
            return Ok(None);
        }
        let input = self.uninit.get(&key).map(|&(i, _)| i);
        let lazy = self.alloc(self.layout.max_size(), Kind::Lazy, None, AllocOrigin::Lazy { input })?;
        let choice = self.uninit.get(&key).map_or(PointerChoice::Null, |(_, i)| PointerChoice::of(i.value));
        let v = match choice {
            PointerChoice::Null => 0,
            PointerChoice::Fresh => self.layout.address(lazy, self.layout.lazy_offset()),
            PointerChoice::Alias { offset, wild } => {
                let id = match self.layout.wild_bit() {
                    Some(bit) if wild => id | 1 << bit,
                    _ => id,
                };
                if kind != Kind::Lazy || offset >= self.layout.max_size() {
                    return unsupported("an alias of memory that is not fresh");
                }
                self.layout.address(id, offset)
            }
        };
        let bytes: Vec<u8> = (0..size).map(|k| (v >> (8 * k)) as u8).collect();
        let o = self.objs[id as usize].as_mut().expect("live");
        for (k, b) in bytes.into_iter().enumerate() {
            o.bytes.insert(off + k as u64, b);
        }
        Ok(Some(v))
    }

    pub(super) fn write(&mut self, p: &Place, v: Val) -> R<()> {
        if let Some((bit, width)) = p.bitfield {
            let Val::Int(x, _) = v else { return unsupported("a non-scalar stored into a bit-field") };
            let size = bitfield_bytes(bit, width);
            let unit = self.read_bytes(p.addr, size)?;
            let mut u = unit.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128);
            let m = mask(width) << bit;
            u = (u & !m) | ((truncate(x, width) << bit) & m);
            let bytes: Vec<u8> = (0..size).map(|k| (u >> (8 * k)) as u8).collect();
            return self.write_bytes(p.addr, &bytes);
        }
        let bytes = match v {
            Val::Int(x, bits) => (0..bits.div_ceil(8)).map(|k| (x >> (8 * k)) as u8).collect(),
            Val::Bytes(b) => b,
        };
        self.write_bytes(p.addr, &bytes)
    }
}
