//! The memory model: objects of bytes addressed by (object, offset) pairs packed into one integer.
//!
//! Every variable (global, local, parameter, block-scope static), every string literal, every heap
//! block and every function is an object with an id. An address is one unsigned integer of the
//! pointer width whose high `obj_bits` hold the object id and whose low `off_bits` hold the byte
//! offset (ILP32: 12 + 20 bits, so 4096 objects of at most 1 MiB; LP64: 24 + 40 bits). Object 0 is
//! the null object, so the null pointer is the address 0 and `(int)p` / `(T *)i` are plain
//! conversions of the same bits. Pointer arithmetic is integer arithmetic on the address; a pointer
//! moved out of its object reaches an offset past the object's end (or another id), and a read or
//! write there is undefined behaviour. Comparing pointers into different objects compares ids
//! (deterministic, where C leaves it unspecified).
//!
//! Objects hold bytes, each a vector of 8 `AigLit`s, little-endian, with the layouts of
//! `cfront::types` (struct padding and bit-field units included), or the mark "never written".
//! Reading a byte that was never written creates a fresh symbolic byte (an input of kind
//! `Uninit { alloc, offset }`, see `state`), so uninitialised locals and `malloc`'d memory are
//! nondeterministic while globals and `calloc`'d memory start zeroed. Storage is a map of
//! copy-on-write chunks of 64 bytes (fewer where the object ends sooner) with a default byte for
//! absent chunks, so big zeroed arrays cost nothing until written and states share unchanged
//! objects.
//!
//! An access through an address whose object id is not a constant is resolved to the live objects it
//! can denote (by the id's known bits, or by asking the solver for at most 16 values) and becomes an
//! if-then-else over them; an offset that is not constant selects among the offsets its known bits
//! allow. Every access reports the condition under which it is invalid (no live object, a function,
//! a string literal written, or past the end); the executor cuts the paths where it can hold.
//!
//! A block of a symbolic size (`malloc(n)`) spans the largest size an object may have and keeps
//! the size as its `limit`: an access is in bounds only where it ends at or below it. A path that
//! went on past an access at a constant place did so only where that access was in bounds, so its
//! copy of the block records how far such accesses reached (`Memory::note_in_bounds`) and later
//! accesses within that reach are not checked again.
//!
//! A new object takes the lowest free id, so the ids of a returning function's locals (and of freed
//! heap blocks) are reused: a loop that calls a function does not run out of ids, and equal program
//! states get equal ids.
//!
//! This file holds the objects, their storage and the accesses; `layout` the address layout, and
//! `escape` what functions without body may write (the objects they reach, stale bytes).
//!
//! Invariant: an object's byte vector never changes length; its id is fixed until it is freed.

mod escape;
mod layout;

use std::rc::Rc;

use super::semantics::Unsupported;
use crate::cfront::ir::{FuncId, VarId};
use crate::sat::{Aig, AigLit, Bv};

pub use escape::{Escape, Stale};
pub use layout::Layout;

/// An object id: the high bits of an address.
pub type ObjId = u32;

/// Bytes per storage chunk.
const CHUNK: u64 = 64;
/// The most (candidate offset × access size) pairs a symbolic-offset access may expand to.
const MAX_SYMBOLIC_EXPANSION: u64 = 1 << 16;
/// The most objects a symbolic object id may resolve to.
pub const MAX_TARGETS: usize = 16;

/// One byte of memory: eight literals, least significant first, or the mark "never written".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Byte(pub [AigLit; 8]);

/// What an object stands for.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ObjKind {
    /// A function (no storage; its address is what function pointers hold).
    Func(FuncId),
    /// A string literal (read-only).
    Str,
    /// A variable's storage.
    Var(VarId),
    /// A block from `malloc`, `calloc` or `alloca`.
    Heap,
    /// Memory an unknown pointer points to (nondet or uninitialised pointers, pointers returned by
    /// functions without body), of the largest size, pointed to in its middle
    /// (`Layout::lazy_offset`).
    Lazy,
}

/// An object: size, kind, allocation number and bytes.
#[derive(Clone, Debug)]
pub struct Object {
    /// Size in bytes.
    pub size: u64,
    /// What it stands for.
    pub kind: ObjKind,
    /// The allocation number along the path (how `Uninit` inputs name their object).
    pub alloc: u32,
    /// Abstracted away: every read gives fresh bytes, writes are dropped (`ExploreConfig::havoc`).
    pub havoc: bool,
    /// The allocated size when it is no constant (`malloc(n)`, `n` symbolic): the object spans the
    /// most an allocation may (`size`), and an access is in bounds only where it ends at or below
    /// this value (unsigned, `size_t` wide).
    pub limit: Option<Rc<Bv>>,
    /// With a `limit`: accesses ending at or below this offset are in bounds on this path, which
    /// went on past an access ending here only where it was (`Memory::note_in_bounds`).
    shown: u64,
    /// Reachable by a function without body (`Memory::escape`): every such call may write it.
    pub escaped: bool,
    /// The bytes such a call may have changed since the path last wrote them (`None`: none). A
    /// read of one depends on the model of that call (`MemCtx::read_stale`); a byte never written
    /// is not stale, its fresh value already stands for anything the call may have written.
    stale: Option<Rc<Stale>>,
    /// Escaped, and not written since `Memory::escape` last scanned it and made it stale: a scan
    /// would find nothing new.
    scanned: bool,
    store: Store,
}

/// Copy-on-write chunks of bytes, with a default for chunks never written.
///
/// A chunk holds the bytes of its 64 that lie inside the object (an `int` is a chunk of 4 bytes, not
/// of 64), and the chunks are a vector sorted by index: most objects have one chunk, which a state
/// that writes a shared object copies with its chunk list (one small allocation each).
#[derive(Clone, Debug)]
struct Store {
    default: Byte,
    chunks: Vec<(u64, Rc<[Byte]>)>,
}

impl Store {
    /// The chunk of index `ci`, if written.
    fn get(&self, ci: u64) -> Option<&Rc<[Byte]>> {
        self.chunks.binary_search_by_key(&ci, |&(i, _)| i).ok().map(|k| &self.chunks[k].1)
    }

    /// The chunk of index `ci` for writing (created with the default bytes, or copied if shared), of
    /// the bytes of an object of `size` bytes it holds.
    fn get_mut(&mut self, ci: u64, size: u64) -> &mut [Byte] {
        let k = match self.chunks.binary_search_by_key(&ci, |&(i, _)| i) {
            Ok(k) => k,
            Err(k) => {
                let len = size.saturating_sub(ci * CHUNK).min(CHUNK) as usize;
                self.chunks.insert(k, (ci, Rc::from(vec![self.default; len])));
                k
            }
        };
        Rc::make_mut(&mut self.chunks[k].1)
    }
}

/// All objects of one state; cheap to clone (objects are shared until written).
#[derive(Clone, Debug)]
pub struct Memory {
    layout: Layout,
    objs: Rc<Vec<Option<Rc<Object>>>>,
    /// Every id below this one is taken.
    first_free: u32,
}

/// Where an access may go: the objects an address can denote with the condition for each, the
/// offset part, and the condition that it denotes no live object.
#[derive(Clone, Debug)]
pub struct Targets {
    /// Candidate objects and when the address denotes each.
    pub objs: Vec<(ObjId, AigLit)>,
    /// The offset part of the address.
    pub off: Bv,
    /// When the address denotes no candidate (null, a freed or a never allocated object).
    pub none: AigLit,
}

/// The callbacks memory accesses need from the executor.
pub trait MemCtx {
    /// The graph all values live in.
    fn aig(&mut self) -> &mut Aig;
    /// A fresh symbolic byte for the never-written byte `offset` of allocation `alloc`.
    fn fresh_byte(&mut self, alloc: u32, offset: u64) -> Byte;
    /// The values `bv` can take under the current path condition, if there are at most `max`.
    fn possible_values(&mut self, bv: &Bv, max: usize) -> Option<Vec<u128>>;
    /// The value of `bv` if the path condition fixes it by cheap reasoning (no solver call).
    fn fixed(&mut self, bv: &Bv) -> Option<u128> {
        bv.as_const()
    }
    /// The value of `bv` if the path condition and `assume` fix it by cheap reasoning.
    fn fixed_assuming(&mut self, bv: &Bv, assume: AigLit) -> Option<u128> {
        let _ = assume;
        self.fixed(bv)
    }
    /// Called when an access may see a stale byte (one a function without body may have written
    /// since the path wrote it, see `Memory::escape`); returns whether to take the stale bytes as
    /// arbitrary (forget them) instead of keeping the path's own values.
    fn read_stale(&mut self) -> bool {
        false
    }
}

impl Byte {
    /// The mark of a byte never written.
    pub fn uninit() -> Byte {
        Byte([AigLit::from_raw(u32::MAX); 8])
    }

    /// Whether this is the mark of a byte never written.
    pub fn is_uninit(&self) -> bool {
        self.0[0].raw() == u32::MAX
    }

    /// The constant byte `v`.
    pub fn constant(v: u8) -> Byte {
        Byte(std::array::from_fn(|i| AigLit::constant(v >> i & 1 == 1)))
    }

    /// The value if every bit is constant.
    pub fn as_const(&self) -> Option<u8> {
        if self.is_uninit() {
            return None;
        }
        let mut v = 0u8;
        for (i, b) in self.0.iter().enumerate() {
            v |= (b.as_const()? as u8) << i;
        }
        Some(v)
    }

    /// Byte `i` (little-endian) of `bv`, whose width is a multiple of 8.
    pub fn of(bv: &Bv, i: u32) -> Byte {
        Byte(std::array::from_fn(|k| bv.bit(i * 8 + k as u32)))
    }

    /// `if c then a else b`, bit by bit.
    pub fn ite(aig: &mut Aig, c: AigLit, a: Byte, b: Byte) -> Byte {
        if a == b {
            return a;
        }
        Byte(std::array::from_fn(|k| aig.ite(c, a.0[k], b.0[k])))
    }
}

/// The bytes `bytes` (little-endian) as one bit-vector.
pub fn bytes_to_bv(bytes: &[Byte]) -> Bv {
    let mut bits = Vec::with_capacity(bytes.len() * 8);
    for b in bytes {
        debug_assert!(!b.is_uninit(), "reading an unmaterialised byte");
        bits.extend_from_slice(&b.0);
    }
    Bv::from_bits(bits)
}

/// The bytes of `bv` (width a multiple of 8), little-endian.
pub fn bv_to_bytes(bv: &Bv) -> Vec<Byte> {
    assert!(bv.width().is_multiple_of(8), "storing a value of {} bits", bv.width());
    (0..bv.width() / 8).map(|i| Byte::of(bv, i)).collect()
}

impl Object {
    /// A new object of `size` bytes, every byte `fill` (zero or never written).
    pub fn new(size: u64, kind: ObjKind, alloc: u32, fill: Byte) -> Object {
        Object {
            size,
            kind,
            alloc,
            havoc: false,
            limit: None,
            shown: 0,
            escaped: false,
            stale: None,
            scanned: false,
            store: Store { default: fill, chunks: Vec::new() },
        }
    }

    /// The size limit and how far this path's accesses reached within it (`within_limit`).
    fn bound(&self) -> Option<(Rc<Bv>, u64)> {
        self.limit.clone().map(|l| (l, self.shown))
    }

    /// Byte `off` as stored (possibly the never-written mark).
    pub fn byte(&self, off: u64) -> Byte {
        debug_assert!(off < self.size, "byte {off} of an object of {} bytes", self.size);
        match self.store.get(off / CHUNK) {
            Some(c) => c[(off % CHUNK) as usize],
            None => self.store.default,
        }
    }

    /// Stores `b` at byte `off`.
    pub fn set_byte(&mut self, off: u64, b: Byte) {
        debug_assert!(off < self.size, "byte {off} of an object of {} bytes", self.size);
        self.scanned = false;
        if let Some(stale) = &mut self.stale {
            let stale = Rc::make_mut(stale);
            let mask = stale.chunks.entry(off / CHUNK).or_insert(if stale.default { u64::MAX } else { 0 });
            *mask &= !(1u64 << (off % CHUNK));
        }
        self.store.get_mut(off / CHUNK, self.size)[(off % CHUNK) as usize] = b;
    }

    /// Whether the object can be written (not a function or string literal).
    pub fn is_writable(&self) -> bool {
        !matches!(self.kind, ObjKind::Func(_) | ObjKind::Str)
    }

    /// Whether the object has storage that can be read.
    pub fn is_readable(&self) -> bool {
        !matches!(self.kind, ObjKind::Func(_))
    }

    /// How many bytes of the object are stored (written chunks): what keying it costs.
    pub fn stored_bytes(&self) -> u64 {
        self.store.chunks.len() as u64 * CHUNK
    }

    /// The byte offsets that hold data different from the default, ascending, with the default.
    pub fn written(&self) -> (Byte, impl Iterator<Item = (u64, Byte)> + '_) {
        let it = self
            .store
            .chunks
            .iter()
            .flat_map(move |(ci, c)| c.iter().enumerate().map(move |(i, b)| (ci * CHUNK + i as u64, *b)));
        (self.store.default, it)
    }
}

impl Memory {
    /// An empty memory whose ids `1..first_dynamic` are reserved (for functions and strings).
    pub fn new(layout: Layout, first_dynamic: u32) -> Memory {
        let objs = vec![None; first_dynamic as usize];
        Memory { layout, objs: Rc::new(objs), first_free: first_dynamic }
    }

    /// The address layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The live object `id`.
    pub fn get(&self, id: ObjId) -> Option<&Object> {
        self.objs.get(id as usize).and_then(|o| o.as_deref())
    }

    /// The live object `id`, for writing (copied first if shared).
    pub fn get_mut(&mut self, id: ObjId) -> Option<&mut Object> {
        let slot = Rc::make_mut(&mut self.objs).get_mut(id as usize)?;
        slot.as_mut().map(Rc::make_mut)
    }

    /// The path goes on past an access of object `id` that ends at offset `end` only where the
    /// access is in bounds (the explorer cuts, or assumes away, the undefined behaviour every access
    /// reports): later accesses ending there or before need no check against the object's `limit`.
    /// To be called only for an access that certainly takes place, at that constant place.
    pub fn note_in_bounds(&mut self, id: ObjId, end: u64) {
        if self.get(id).is_some_and(|o| o.limit.is_some() && end > o.shown) {
            self.get_mut(id).expect("live").shown = end;
        }
    }

    /// Whether `a` and `b` share object `id` (neither has written it since they were cloned).
    pub fn shares(&self, other: &Memory, id: ObjId) -> bool {
        match (self.objs.get(id as usize), other.objs.get(id as usize)) {
            (Some(Some(a)), Some(Some(b))) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Puts `obj` at the reserved id `id`.
    pub fn place(&mut self, id: ObjId, obj: Object) {
        let objs = Rc::make_mut(&mut self.objs);
        if objs.len() <= id as usize {
            objs.resize(id as usize + 1, None);
        }
        objs[id as usize] = Some(Rc::new(obj));
    }

    /// Stores `obj` under the lowest free id.
    pub fn alloc(&mut self, obj: Object) -> Result<ObjId, Unsupported> {
        if obj.size > self.layout.max_size() {
            return Err(Unsupported(format!(
                "an object of {} bytes (at most {} fit the address layout)",
                obj.size,
                self.layout.max_size()
            )));
        }
        let objs = Rc::make_mut(&mut self.objs);
        let mut id = self.first_free as usize;
        while id < objs.len() && objs[id].is_some() {
            id += 1;
        }
        if id as u64 >= self.layout.max_objects() {
            return Err(Unsupported(format!("more than {} live objects", self.layout.max_objects())));
        }
        if id == objs.len() {
            objs.push(None);
        }
        objs[id] = Some(Rc::new(obj));
        self.first_free = id as u32 + 1;
        Ok(id as ObjId)
    }

    /// Frees the object `id` (its id becomes available again).
    pub fn free(&mut self, id: ObjId) {
        let objs = Rc::make_mut(&mut self.objs);
        if let Some(slot) = objs.get_mut(id as usize) {
            *slot = None;
            self.first_free = self.first_free.min(id);
        }
    }

    /// Live objects in id order.
    pub fn objects(&self) -> impl Iterator<Item = (ObjId, &Object)> {
        self.objs.iter().enumerate().filter_map(|(i, o)| o.as_deref().map(|o| (i as ObjId, o)))
    }

    /// The objects the address `addr` can denote.
    pub fn targets(&self, ctx: &mut dyn MemCtx, addr: &Bv) -> Result<Targets, Unsupported> {
        let (obj, off) = self.layout.split(addr);
        let off = match off.as_const().or_else(|| ctx.fixed(&off)) {
            Some(k) => Bv::constant(k, off.width()),
            None => off,
        };
        if let Some(id) = obj.as_const().or_else(|| ctx.fixed(&obj)) {
            let id = id as ObjId;
            return Ok(match self.get(id) {
                Some(_) if id != 0 => Targets { objs: vec![(id, AigLit::TRUE)], off, none: AigLit::FALSE },
                _ => Targets { objs: vec![], off, none: AigLit::TRUE },
            });
        }
        let (mask, value) = known_bits(&obj);
        let mut cands: Vec<ObjId> = match small_value_set(ctx.aig(), &obj) {
            Some(values) => {
                values.into_iter().map(|v| v as ObjId).filter(|&id| id != 0 && self.get(id).is_some()).collect()
            }
            None => self.objects().map(|(id, _)| id).filter(|&id| id != 0 && (id as u128 & mask) == value).collect(),
        };
        if cands.len() > MAX_TARGETS {
            let Some(values) = ctx.possible_values(&obj, MAX_TARGETS) else {
                return Err(Unsupported("a pointer that may point to too many objects".into()));
            };
            cands = values.into_iter().map(|v| v as ObjId).filter(|&id| id != 0 && self.get(id).is_some()).collect();
            cands.sort_unstable();
        }
        let aig = ctx.aig();
        let mut objs = Vec::with_capacity(cands.len());
        let mut any = AigLit::FALSE;
        for id in cands {
            let c = obj.eq(aig, &Bv::constant(id as u128, obj.width()));
            if c != AigLit::FALSE {
                any = aig.or(any, c);
                objs.push((id, c));
            }
        }
        // On the paths where the access is valid and goes to a single object, the offset may be
        // fixed (an unknown pointer `b ? &lazy[k] : 0` has offset k exactly where it is valid).
        let off = match (objs.as_slice(), off.as_const()) {
            ([(_, c)], None) => match ctx.fixed_assuming(&off, *c) {
                Some(k) => Bv::constant(k, off.width()),
                None => off,
            },
            _ => off,
        };
        Ok(Targets { objs, off, none: !any })
    }

    /// Reads `n` bytes at `addr`; returns them and the condition under which the read is invalid.
    pub fn read(&mut self, ctx: &mut dyn MemCtx, addr: &Bv, n: u64) -> Result<(Vec<Byte>, AigLit), Unsupported> {
        let t = self.targets(ctx, addr)?;
        let range = t.off.as_const().map(|k| (k as u64, n));
        for &(id, _) in &t.objs {
            self.check_stale(ctx, id, range);
        }
        let mut res: Option<Vec<Byte>> = None;
        let mut invalid = t.none;
        for &(id, cond) in t.objs.iter().rev() {
            let (bytes, ok) = self.read_in(ctx, id, &t.off, n)?;
            let aig = ctx.aig();
            let bad = aig.and(cond, !ok);
            invalid = aig.or(invalid, bad);
            res = Some(match res {
                None => bytes,
                Some(other) => bytes.iter().zip(&other).map(|(&a, &b)| Byte::ite(aig, cond, a, b)).collect(),
            });
        }
        let bytes = res.unwrap_or_else(|| vec![Byte::constant(0); n as usize]);
        Ok((bytes, invalid))
    }

    /// The objects an access of `n` bytes at `addr` can reach, with the condition under which it
    /// does, when its offset has too many possible values to expand in one of them
    /// (`candidate_offsets`): the executor then concretises the address (`Exec::pinned`).
    pub fn offset_too_wide(&self, ctx: &mut dyn MemCtx, addr: &Bv, n: u64) -> Option<Vec<(ObjId, AigLit, &Object)>> {
        // Every access goes through here: settle the common case by the offset's known bits alone
        // (no object is larger than the largest), before `targets` (which may ask the solver).
        let (_, off) = self.layout.split(addr);
        let max = self.layout.max_size();
        if off.as_const().is_some() || n > max || candidate_offsets(&off, max, n).is_ok() {
            return None;
        }
        let t = self.targets(ctx, addr).ok()?;
        if t.off.as_const().is_some() {
            return None;
        }
        let objs: Vec<(ObjId, AigLit, &Object)> =
            t.objs.iter().filter_map(|&(id, c)| Some((id, c, self.get(id)?))).collect();
        objs.iter().any(|(_, _, o)| n <= o.size && candidate_offsets(&t.off, o.size, n).is_err()).then_some(objs)
    }

    /// Writes `bytes` at `addr` where `guard` holds; returns the condition under which the write is
    /// invalid.
    pub fn write(
        &mut self,
        ctx: &mut dyn MemCtx,
        addr: &Bv,
        bytes: &[Byte],
        guard: AigLit,
    ) -> Result<AigLit, Unsupported> {
        let t = self.targets(ctx, addr)?;
        let mut invalid = t.none;
        let range = t.off.as_const().map(|k| (k as u64, bytes.len() as u64));
        for &(id, cond) in &t.objs {
            let g = ctx.aig().and(guard, cond);
            if g == AigLit::FALSE {
                continue;
            }
            if g != AigLit::TRUE || range.is_none() {
                // The old bytes stay where the write does not happen: as good as read.
                self.check_stale(ctx, id, range);
            }
            let ok = self.write_in(ctx, id, &t.off, bytes, g)?;
            let aig = ctx.aig();
            let bad = aig.and(cond, !ok);
            invalid = aig.or(invalid, bad);
        }
        Ok(invalid)
    }

    /// Byte `off` of object `id`, created fresh (and stored) if never written.
    pub fn materialize(&mut self, ctx: &mut dyn MemCtx, id: ObjId, off: u64) -> Byte {
        let obj = self.get(id).expect("materialize in a live object");
        let b = obj.byte(off);
        if !b.is_uninit() {
            return b;
        }
        let (alloc, havoc) = (obj.alloc, obj.havoc);
        let fresh = ctx.fresh_byte(alloc, off);
        if !havoc {
            self.get_mut(id).expect("live").set_byte(off, fresh);
        }
        fresh
    }

    /// Reads `n` bytes at offset `off` of object `id`; returns them and when the read is in bounds.
    fn read_in(
        &mut self,
        ctx: &mut dyn MemCtx,
        id: ObjId,
        off: &Bv,
        n: u64,
    ) -> Result<(Vec<Byte>, AigLit), Unsupported> {
        let obj = self.get(id).expect("target is live");
        let size = obj.size;
        if !obj.is_readable() || n > size {
            return Ok((vec![Byte::constant(0); n as usize], AigLit::FALSE));
        }
        let limit = obj.bound();
        if let Some(k) = off.as_const() {
            let k = k as u64;
            if k.checked_add(n).is_none_or(|end| end > size) {
                return Ok((vec![Byte::constant(0); n as usize], AigLit::FALSE));
            }
            let bytes = (k..k + n).map(|o| self.materialize(ctx, id, o)).collect();
            return Ok((bytes, within_limit(ctx.aig(), limit, off, n)));
        }
        let cands = candidate_offsets(off, size, n)?;
        let Some(&last) = cands.last() else {
            return Ok((vec![Byte::constant(0); n as usize], AigLit::FALSE));
        };
        for &c in &cands {
            for o in c..c + n {
                self.materialize(ctx, id, o);
            }
        }
        let obj = self.get(id).expect("target is live");
        let aig = ctx.aig();
        let mut res: Vec<Byte> = (0..n).map(|j| obj.byte(last + j)).collect();
        for &c in cands.iter().rev().skip(1) {
            let hit = off.eq(aig, &Bv::constant(c as u128, off.width()));
            for (j, r) in res.iter_mut().enumerate() {
                *r = Byte::ite(aig, hit, obj.byte(c + j as u64), *r);
            }
        }
        let in_bounds = off.ule(aig, &Bv::constant((size - n) as u128, off.width()));
        let within = within_limit(aig, limit, off, n);
        Ok((res, aig.and(in_bounds, within)))
    }

    /// Writes `bytes` at offset `off` of object `id` where `guard` holds; returns when the write is
    /// valid.
    fn write_in(
        &mut self,
        ctx: &mut dyn MemCtx,
        id: ObjId,
        off: &Bv,
        bytes: &[Byte],
        guard: AigLit,
    ) -> Result<AigLit, Unsupported> {
        let n = bytes.len() as u64;
        let obj = self.get(id).expect("target is live");
        let size = obj.size;
        if !obj.is_writable() || n > size {
            return Ok(AigLit::FALSE);
        }
        let havoc = obj.havoc;
        let limit = obj.bound();
        let cands = match off.as_const() {
            Some(k) => {
                let k = k as u64;
                if k.checked_add(n).is_none_or(|end| end > size) {
                    return Ok(AigLit::FALSE);
                }
                vec![k]
            }
            None => candidate_offsets(off, size, n)?,
        };
        let in_bounds = if off.is_const() {
            AigLit::TRUE
        } else {
            off.ule(ctx.aig(), &Bv::constant((size - n) as u128, off.width()))
        };
        let within = within_limit(ctx.aig(), limit, off, n);
        let in_bounds = ctx.aig().and(in_bounds, within);
        if havoc {
            // Nothing to store: reads give arbitrary bytes anyway.
            return Ok(in_bounds);
        }
        if guard == AigLit::TRUE && off.is_const() {
            let obj = self.get_mut(id).expect("target is live");
            for (j, b) in bytes.iter().enumerate() {
                obj.set_byte(cands[0] + j as u64, *b);
            }
            return Ok(in_bounds);
        }
        for &c in &cands {
            let hit = if off.is_const() {
                guard
            } else {
                let aig = ctx.aig();
                let eq = off.eq(aig, &Bv::constant(c as u128, off.width()));
                aig.and(guard, eq)
            };
            if hit == AigLit::FALSE {
                continue;
            }
            for (j, &b) in bytes.iter().enumerate() {
                let o = c + j as u64;
                let old = self.materialize(ctx, id, o);
                let new = Byte::ite(ctx.aig(), hit, b, old);
                self.get_mut(id).expect("live").set_byte(o, new);
            }
        }
        Ok(in_bounds)
    }
}

/// When an access of `n` bytes at offset `off` ends at or below `limit` (always without one):
/// `off + n ≤ limit`, as `n ≤ limit ∧ off ≤ limit - n` in the wider of the two widths (nothing
/// wraps around, and a `calloc` size is already 128 bits wide); always when it ends at or below
/// `shown`, the end of an access the path already went past in bounds.
fn within_limit(aig: &mut Aig, limit: Option<(Rc<Bv>, u64)>, off: &Bv, n: u64) -> AigLit {
    let Some((limit, shown)) = limit else { return AigLit::TRUE };
    if off.as_const().is_some_and(|k| k + n as u128 <= shown as u128) {
        return AigLit::TRUE;
    }
    let w = off.width().max(limit.width());
    let (off, limit) = (off.zext(w), limit.zext(w));
    let n = Bv::constant(n as u128, w);
    let room = n.ule(aig, &limit);
    let last = limit.sub(aig, &n);
    let fits = off.ule(aig, &last);
    aig.and(room, fits)
}

/// Every value `bv` can take, if it depends on at most 6 inputs (by enumerating them).
fn small_value_set(aig: &Aig, bv: &Bv) -> Option<Vec<u128>> {
    let mut inputs: Vec<u32> = Vec::new();
    for &bit in bv.bits() {
        for &i in aig.support(bit).iter() {
            if !inputs.contains(&i) {
                inputs.push(i);
                if inputs.len() > 6 {
                    return None;
                }
            }
        }
    }
    let mut values: Vec<u128> = (0..1u32 << inputs.len())
        .map(|assignment| {
            bv.eval(aig, &|input| {
                let k = inputs.iter().position(|&i| i == input.0).expect("input in the support");
                assignment >> k & 1 == 1
            })
        })
        .collect();
    values.sort_unstable();
    values.dedup();
    Some(values)
}

/// The mask of the bits of `bv` that are constant, and their values.
pub fn known_bits(bv: &Bv) -> (u128, u128) {
    let (mut mask, mut value) = (0u128, 0u128);
    for (i, b) in bv.bits().iter().enumerate() {
        if let Some(v) = b.as_const() {
            mask |= 1 << i;
            value |= (v as u128) << i;
        }
    }
    (mask, value)
}

/// The offsets in `0..=size-n` that agree with the known bits of `off`.
fn candidate_offsets(off: &Bv, size: u64, n: u64) -> Result<Vec<u64>, Unsupported> {
    let (mask, value) = known_bits(off);
    let (mask, value) = (mask as u64, value as u64);
    let max = size - n;
    // Free bits of the offset below the object size; each candidate fixes them.
    let free: Vec<u32> = (0..64 - max.leading_zeros()).filter(|&i| mask >> i & 1 == 0).collect();
    if free.len() >= 63 || (1u64 << free.len()).saturating_mul(n) > MAX_SYMBOLIC_EXPANSION {
        return Err(Unsupported(format!("an access at a symbolic offset in an object of {size} bytes")));
    }
    let base = value & mask;
    let mut res = Vec::new();
    for combo in 0..(1u64 << free.len()) {
        let mut o = base;
        for (k, &bit) in free.iter().enumerate() {
            if combo >> k & 1 == 1 {
                o |= 1 << bit;
            }
        }
        if o <= max {
            res.push(o);
        }
    }
    res.sort_unstable();
    Ok(res)
}

#[cfg(test)]
mod tests;
