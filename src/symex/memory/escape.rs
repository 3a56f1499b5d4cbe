//! What functions without body may write: the objects the pointers they receive reach
//! (`Memory::escape`), and the bytes of those objects such a call may have changed since the path
//! wrote them (stale bytes, `Stale`), which a later access reports to the executor
//! (`MemCtx::read_stale`).

use std::collections::BTreeMap;
use std::rc::Rc;

use super::{bytes_to_bv, small_value_set, Byte, MemCtx, Memory, ObjId, Object, CHUNK, MAX_TARGETS};
use crate::sat::{Aig, Bv};

/// How `Memory::escape` bounded the objects a function without body can reach.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Escape {
    /// Every pointer's objects are known.
    Bounded,
    /// Some pointer is an unknown value (its object id is arbitrary input bits): taken as an
    /// unknown pointer, which reaches no object of the path (null or fresh memory).
    Unknown,
    /// Some pointer may denote too many objects: any object may have been reached.
    Unbounded,
}

/// Stale bytes: a mask per chunk (bit `i` for byte `i`), the chunks not listed all stale or not.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stale {
    /// Whether the bytes of chunks not listed are stale.
    pub default: bool,
    /// Masks of the chunks listed, by chunk index.
    pub chunks: BTreeMap<u64, u64>,
}

impl Escape {
    /// The weaker of two bounds.
    fn and(self, other: Escape) -> Escape {
        match (self, other) {
            (Escape::Unbounded, _) | (_, Escape::Unbounded) => Escape::Unbounded,
            (Escape::Unknown, _) | (_, Escape::Unknown) => Escape::Unknown,
            _ => Escape::Bounded,
        }
    }
}

impl Object {
    /// Marks every byte that holds a value as stale (a function without body may have written it).
    fn make_stale(&mut self) {
        let default = !self.store.default.is_uninit();
        let chunks = self
            .store
            .chunks
            .iter()
            .map(|&(ci, ref c)| {
                (ci, c.iter().enumerate().filter(|(_, b)| !b.is_uninit()).fold(0u64, |m, (i, _)| m | 1 << i))
            })
            .collect();
        self.stale = Some(Rc::new(Stale { default, chunks }));
    }

    /// Makes the stale bytes in `range` (`None`: all) never written, so that reads give fresh
    /// values: what a function without body may have written there.
    fn forget_stale(&mut self, range: Option<(u64, u64)>) {
        let Some(stale) = self.stale.clone() else { return };
        match range {
            Some((off, n)) => {
                let stale: Vec<u64> =
                    (off..off.saturating_add(n).min(self.size)).filter(|&k| self.any_stale(Some((k, 1)))).collect();
                for k in stale {
                    self.set_byte(k, Byte::uninit());
                }
            }
            None => {
                // Chunks without a mask are the chunks not stored (see `make_stale`).
                if stale.default {
                    self.store.default = Byte::uninit();
                }
                let size = self.size;
                for (&ci, &mask) in &stale.chunks {
                    for i in (0..CHUNK).filter(|&i| mask >> i & 1 == 1 && ci * CHUNK + i < size) {
                        self.set_byte(ci * CHUNK + i, Byte::uninit());
                    }
                }
                self.stale = None;
                self.scanned = false;
            }
        }
    }

    /// The stale bytes, if any.
    pub fn stale(&self) -> Option<&Stale> {
        self.stale.as_deref()
    }

    /// Whether a byte among `off..off + n` is stale (`None`: any byte of the object).
    pub fn any_stale(&self, range: Option<(u64, u64)>) -> bool {
        let Some(stale) = &self.stale else { return false };
        let Some((off, n)) = range else {
            return stale.default || stale.chunks.values().any(|&m| m != 0);
        };
        (off..off + n).any(|k| {
            let mask = stale.chunks.get(&(k / CHUNK)).copied().unwrap_or(if stale.default { u64::MAX } else { 0 });
            mask >> (k % CHUNK) & 1 == 1
        })
    }
}

impl Memory {
    /// Marks as escaped the objects the pointer values `roots` may point to and, transitively, the
    /// objects that pointers stored in escaped objects may point to: what a function without body
    /// that receives `roots` can write (it may also keep pointers it received before, so objects
    /// escaped earlier are scanned again). A stored pointer is a value of pointer width at an
    /// aligned offset. Returns how the objects were bounded (`Escape`); when they could not be,
    /// nothing is marked.
    pub fn escape(&mut self, aig: &Aig, roots: &[Bv]) -> Escape {
        let mut work: Vec<ObjId> = Vec::new();
        let mut res = Escape::Bounded;
        for r in roots {
            res = res.and(self.pointees(aig, r, &mut work));
        }
        work.extend(self.objects().filter(|(_, o)| o.escaped).map(|(id, _)| id));
        let mut reached: Vec<ObjId> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let width = (self.layout.ptr_bits / 8) as u64;
        while let Some(id) = work.pop() {
            if res == Escape::Unbounded {
                return res;
            }
            if !seen.insert(id) {
                continue;
            }
            let Some(o) = self.get(id) else { continue };
            if !o.is_writable() || o.scanned {
                // An object scanned before and not written since: its bytes are stale and what
                // its pointers reach escaped then.
                continue;
            }
            reached.push(id);
            let (_, written) = o.written();
            let mut window: Vec<Byte> = Vec::with_capacity(width as usize);
            let mut stored: Vec<Bv> = Vec::new();
            for (off, b) in written {
                if off % width == 0 {
                    window.clear();
                }
                window.push(b);
                if window.len() as u64 == width && window.iter().all(|b| !b.is_uninit()) {
                    stored.push(bytes_to_bv(&window));
                }
            }
            for v in &stored {
                res = res.and(self.pointees(aig, v, &mut work));
            }
        }
        if res == Escape::Unbounded {
            return res;
        }
        for id in reached {
            let o = self.get_mut(id).expect("live");
            o.escaped = true;
            o.make_stale();
            o.scanned = true;
        }
        res
    }

    /// Adds to `out` the live objects the value `v` may point to, judged by its structure alone: a
    /// constant, or a choice among addresses (an object id that depends on at most 6 inputs,
    /// `small_value_set`). An object id whose bits are constants and inputs of their own (more
    /// than a choice among `MAX_TARGETS` objects would need) is data no address flowed into: as a
    /// pointer, an unknown pointer.
    fn pointees(&self, aig: &Aig, v: &Bv, out: &mut Vec<ObjId>) -> Escape {
        let (obj, _) = self.layout.split(v);
        let live = |id: u128| id != 0 && self.get(id as ObjId).is_some();
        if let Some(id) = obj.as_const() {
            if live(id) {
                out.push(id as ObjId);
            }
            return Escape::Bounded;
        }
        let mut inputs = std::collections::HashSet::new();
        let data = obj
            .bits()
            .iter()
            .all(|b| b.is_const() || matches!(aig.node(*b), crate::sat::AigNode::Input(i) if inputs.insert(i.0)));
        if data && inputs.len() > MAX_TARGETS.ilog2() as usize {
            return Escape::Unknown;
        }
        // (At every call of a function without body: enumerating more inputs than
        // `small_value_set` does, 10, made kbtab's search 2.6 times slower.)
        if let Some(values) = small_value_set(aig, &obj) {
            let cands: Vec<ObjId> = values.into_iter().filter(|&v| live(v)).map(|v| v as ObjId).collect();
            if cands.len() <= MAX_TARGETS {
                out.extend(cands);
                return Escape::Bounded;
            }
        }
        Escape::Unbounded
    }

    /// Reports an access to stale bytes of object `id` in `range` (`None`: anywhere) to `ctx`, and
    /// forgets them if it says so.
    pub fn check_stale(&mut self, ctx: &mut dyn MemCtx, id: ObjId, range: Option<(u64, u64)>) {
        if self.get(id).is_some_and(|o| o.any_stale(range)) && ctx.read_stale() {
            self.get_mut(id).expect("live").forget_stale(range);
        }
    }
}
