//! State caching at loop heads: prune a path whose state is covered by a state explored before.
//!
//! A symbolic state `S` stands for the concrete states `C(S) = { v(α) | α ⊨ pc }`, where `v` gives
//! the value of every live storage byte as a function of the inputs `α`. Everything a path can still
//! do depends only on its concrete state (and on inputs it has not drawn yet). So when a path reaches
//! a loop head with state `S_new` and an earlier state `S_old` at the same location satisfies
//! `C(S_new) ⊆ C(S_old)`, every execution from `S_new` is an execution from `S_old`, and the new path
//! can be pruned provided `S_old`'s subtree is (or will be) explored in full.
//!
//! Which earlier states count: a state whose subtree was fully explored (every path below it ended
//! without a cut or a dropped alternative; pruned-as-covered paths count as explored, and so do
//! paths the guide pruned, since it prunes monotonically: it would prune the same continuations of
//! the new path, and paths that ended at a violation or at undefined behaviour, since every
//! execution from a covered state that gets there ends there too, and the explorer counted and
//! reported that end when it met it), or a state on the new path's own history (a cycle: the
//! subtree of that
//! ancestor contains the new path, and an execution that violates the property from `S_new` would
//! reach a violation from `S_old` in fewer steps, so induction on the length of that execution shows
//! the ancestor's subtree finds it unless it is cut). The explorer reports whether any cut happened;
//! only an exploration without cuts may conclude that no violation exists.
//!
//! The check `C(S_new) ⊆ C(S_old)` is sufficient-only, by three keys hashed with SHA-256:
//! 1. The state's structure: location, call stack, the guide's tag, and for every live object its
//!    id, size, whether it escaped to a function without body and which bytes are stale (their
//!    later reads are approximations, which a pruned path must not hide) and bytes. Locals that
//!    are dead at the location (by a live-variable analysis of the
//!    function; address-taken locals are always live) are left out, since no execution reads them
//!    before writing them.
//! 2. The bytes as AIG cones with the inputs renamed in order of first appearance ("canonical"), and
//!    the relevant part of the path condition: the conjuncts connected to the values' inputs through
//!    shared inputs (the rest constrains only inputs no live value depends on, is satisfiable, and so
//!    does not restrict the values). Equal canonical keys (values and relevant conjuncts isomorphic)
//!    give `C(S_new) = C(S_old)`. If `S_old` had no relevant conjunct, equal canonical values suffice
//!    (`C(S_old)` holds every value of that shape).
//! 3. Identical bytes without renaming (the same terms): then `pc_new ⇒ R_old` (one solver call,
//!    `pc_new ∧ ¬R_old` unsatisfiable, with `R_old` the old relevant conjuncts) suffices.
//!
//! A byte never written is an input of its own that nothing constrains; it is written as a mark.
//!
//! A guide may mark a path *exclusive* (`Guide::exclusive`): it carries something of its own that
//! only a completion of that very path can use (the coverage layer: lines its prefix covers that
//! are still uncovered). Pruning such a path as covered would lose that completion, unless the
//! covering state has none: so an exclusive path is pruned only by an entry with an equal tag (the
//! rules above) or by a `Complete` entry whose subtree holds no completing path. Each entry records
//! what it knows (`Completion`): `Always` once a path below it completed or was pruned by the guide,
//! or was pruned as covered by an entry that may complete; `Dep(a)` when a path below it was pruned
//! as covered by its ancestor `a` (or by an entry that completes only if `a` does): it completes
//! only if `a` does; `Never` otherwise. A `Complete` entry resolves to `Never` if it is `Never`, or
//! `Dep(a)` with `a` `Complete` and resolving to `Never`. The induction above, on the length of the
//! shortest completing execution from any state of the entries resolving to `Never`, shows that
//! they have no completing execution.
//! State keys hash the guide's `Guide::cache_tag` (the tag without what makes a path exclusive);
//! entries keep the hash of the whole tag for the equal-tag rules.
//!
//! Invariant: an entry is `Complete` only if its subtree ended without any taint.
//! Invariant: every entry enclosing a completing (or guide-pruned) path is `Always` before it is
//! `Complete`; a `Dep(a)` names a strict ancestor `a`.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::exec::World;
use super::memory::{Byte, ObjId, ObjKind, Object};
use super::shift::Shift;
use super::state::{Conjunct, List, SymState};
use crate::base::bits;
use crate::cfa::{Cfa, LiveLocals, NodeId};
use crate::cfront::ir::{Program, VarId};
use crate::sat::{Aig, AigLit, AigNode};

/// Locals live at loop heads and call return sites.
pub(crate) struct Liveness {
    live: LiveLocals,
    /// The counters keyed by their differences where that is sound (`shift`).
    shift: Option<Shift>,
}

/// The keys of one state.
pub(crate) struct Keys {
    full: [u8; 32],
    values: [u8; 32],
    raw: [u8; 32],
    free: bool,
    relevant: Rc<[AigLit]>,
}

/// What a lookup found.
pub(crate) enum Probe {
    /// Covered by this entry.
    Covered(u32),
    /// Covered if the path condition implies one of these conjunctions (entry, conjuncts).
    Check(Vec<(u32, Rc<[AigLit]>)>),
    /// Covered by this entry once its subtree is explored: it is neither complete nor an ancestor
    /// of the path (whose subtree then repeats the entry's; `Cache::watch`).
    Wait(u32),
    /// Not covered.
    Miss,
}

/// Counters of state caching.
#[derive(Clone, Copy, Debug, Default)]
pub struct CacheStats {
    /// States looked up at loop heads.
    pub lookups: u64,
    /// Paths pruned as covered.
    pub hits: u64,
    /// Of those, by a solver call (`pc_new ⇒ R_old`).
    pub hits_by_implication: u64,
    /// Entries registered.
    pub entries: u64,
    /// Entries whose subtree was explored in full.
    pub completed: u64,
    /// Time spent computing keys and looking up.
    pub time: Duration,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    Pending,
    Complete,
    Tainted,
}

struct Entry {
    parent: Option<u32>,
    depth: u32,
    open: u32,
    status: Status,
    tainted: bool,
    free: bool,
    relevant: Rc<[AigLit]>,
    /// Hash of the whole guide tag of the state.
    tag: u64,
    /// Whether a path below may complete (see the module header).
    completion: Completion,
}

/// What an entry knows of completing paths in its subtree.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Completion {
    /// None completes.
    Never,
    /// One completes only if one completes below this ancestor entry.
    Dep(u32),
    /// One does, or may.
    Always,
}

/// How a path looks an entry up: the hash of its whole tag and whether it is exclusive.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seeker {
    pub tag: u64,
    pub exclusive: bool,
}

/// The most AIG nodes a state's key may describe; bigger states are not cached (sound: a state
/// that is not looked up is explored).
const MAX_KEY_NODES: u32 = 100_000;
/// Bytes of key text past which a state is not keyed either: keying it would cost more than the
/// exploration it could save (a state with a 100,000-element array), and the lookup cannot be cut
/// short by the time limit.
const MAX_KEY_BYTES: usize = 1 << 20;
/// Stored bytes of memory past which a state is not keyed (checked before any work).
const MAX_KEY_OBJECT_BYTES: u64 = 1 << 18;

/// The entries of one exploration and their key tables.
#[derive(Default)]
pub(crate) struct Cache {
    /// Per loop head: visits and hits, to back off where caching never helps.
    heads: HashMap<NodeId, (u64, u64)>,
    entries: Vec<Entry>,
    full: HashMap<[u8; 32], Vec<u32>>,
    values: HashMap<[u8; 32], Vec<u32>>,
    raw: HashMap<[u8; 32], Vec<u32>>,
    /// Entries paths wait for (`Probe::Wait`).
    watched: HashSet<u32>,
    /// Watched entries that stopped being pending, in the order they did.
    released: Vec<u32>,
    pub stats: CacheStats,
}

impl Cache {
    /// Whether to look up a state at loop head `n`: always for the first 64 visits and where
    /// lookups ever hit, then at exponentially spaced visits (skipping a lookup is sound).
    pub fn should_probe(&mut self, n: NodeId) -> bool {
        let (visits, hits) = self.heads.entry(n).or_default();
        *visits += 1;
        *hits > 0 || *visits <= 64 || visits.is_power_of_two()
    }

    /// Records that a path at loop head `n` waits for an entry still being explored: lookups there
    /// pay off (the path will be covered when the entry ends), as hits do.
    pub fn record_wait(&mut self, n: NodeId) {
        self.heads.entry(n).or_default().1 += 1;
    }

    /// Records a hit at loop head `n`.
    pub fn record_hit(&mut self, n: NodeId) {
        self.heads.entry(n).or_default().1 += 1;
        self.stats.hits += 1;
    }

    /// Looks up a state with keys `k` whose chain of enclosing entries is `ancestors` (nearest first).
    pub fn probe(&mut self, k: &Keys, ancestors: &List<u32>, who: Seeker) -> Probe {
        self.stats.lookups += 1;
        for &e in self.full.get(&k.full).into_iter().flatten() {
            if self.usable(e, ancestors, who) {
                return Probe::Covered(e);
            }
        }
        for &e in self.values.get(&k.values).into_iter().flatten() {
            if self.entries[e as usize].free && self.usable(e, ancestors, who) {
                return Probe::Covered(e);
            }
        }
        let checks: Vec<(u32, Rc<[AigLit]>)> = self
            .raw
            .get(&k.raw)
            .into_iter()
            .flatten()
            .filter(|&&e| self.usable(e, ancestors, who))
            .map(|&e| (e, self.entries[e as usize].relevant.clone()))
            .collect();
        if !checks.is_empty() {
            return Probe::Check(checks);
        }
        // An entry that covers the state by its keys once explored: the path waits for it rather
        // than explore the same subtree again beside it.
        let values = self.values.get(&k.values).into_iter().flatten().filter(|&&e| self.entries[e as usize].free);
        let pending = self.full.get(&k.full).into_iter().flatten().chain(values).find(|&&e| {
            let entry = &self.entries[e as usize];
            entry.status == Status::Pending && (!who.exclusive || entry.tag == who.tag)
        });
        match pending {
            Some(&e) => Probe::Wait(e),
            None => Probe::Miss,
        }
    }

    /// Paths wait for entry `e` to stop being pending (`take_released`).
    pub fn watch(&mut self, e: u32) {
        self.watched.insert(e);
    }

    /// The watched entries that are no longer pending since the last call, in the order they ended.
    pub fn take_released(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.released)
    }

    /// Registers a state with keys `k` inside entry `parent`; the new entry counts the state as open.
    pub fn register(&mut self, k: Keys, parent: Option<u32>, tag: u64) -> u32 {
        let id = self.entries.len() as u32;
        let depth = parent.map_or(0, |p| self.entries[p as usize].depth + 1);
        self.entries.push(Entry {
            parent,
            depth,
            open: 1,
            status: Status::Pending,
            tainted: false,
            free: k.free,
            relevant: k.relevant,
            tag,
            completion: Completion::Never,
        });
        self.full.entry(k.full).or_default().push(id);
        self.values.entry(k.values).or_default().push(id);
        self.raw.entry(k.raw).or_default().push(id);
        self.stats.entries += 1;
        id
    }

    /// `n` more open paths inside entry `e` (a branch).
    pub fn add_open(&mut self, e: Option<u32>, n: u32) {
        if let Some(e) = e {
            self.entries[e as usize].open += n;
        }
    }

    /// Marks entry `e` as not fully explored (a path below it was cut).
    pub fn taint(&mut self, e: Option<u32>) {
        if let Some(e) = e {
            self.entries[e as usize].tainted = true;
        }
    }

    /// One open path inside entry `e` ended (`taint`: without being explored in full).
    pub fn finish(&mut self, mut e: Option<u32>, mut taint: bool) {
        while let Some(id) = e {
            let entry = &mut self.entries[id as usize];
            entry.tainted |= taint;
            entry.open -= 1;
            if entry.open > 0 {
                return;
            }
            entry.status = if entry.tainted { Status::Tainted } else { Status::Complete };
            if !entry.tainted {
                self.stats.completed += 1;
            }
            if self.watched.remove(&id) {
                self.released.push(id);
            }
            taint = entry.tainted;
            e = entry.parent;
        }
    }

    /// A path inside entry `e` completed: every enclosing entry may complete. (`Always` is set on
    /// whole chains only, so the entries above an `Always` one are `Always`.)
    pub fn mark_completion(&mut self, mut e: Option<u32>) {
        while let Some(id) = e {
            let entry = &mut self.entries[id as usize];
            if entry.completion == Completion::Always {
                return;
            }
            entry.completion = Completion::Always;
            e = entry.parent;
        }
    }

    /// A path inside entry `e` was pruned as covered by entry `by`: the entries enclosing it may
    /// complete if `by` may; if `by` is their ancestor (or completes only if an ancestor `a` does),
    /// the entries below it (below `a`) complete only if it (`a`) does.
    pub fn note_covered(&mut self, by: u32, e: Option<u32>) {
        let dep = match self.entries[by as usize].status {
            Status::Pending => Some(by),
            Status::Tainted => None,
            Status::Complete => match self.resolve(by) {
                Completion::Never => return,
                Completion::Dep(a) => Some(a),
                Completion::Always => None,
            },
        };
        // Entries below an ancestor `a` depend on it; if `a` is not an ancestor, they may complete.
        let Some(a) = dep.filter(|&a| self.ancestors(e).any(|x| x == a)) else {
            self.mark_completion(e);
            return;
        };
        let mut x = e;
        while let Some(id) = x {
            if id == a {
                return;
            }
            let merged = match self.entries[id as usize].completion {
                Completion::Always => Completion::Always,
                Completion::Never => Completion::Dep(a),
                // Both are ancestors of this entry: the shallower one's subtree holds the other.
                Completion::Dep(b) if self.entries[b as usize].depth < self.entries[a as usize].depth => {
                    Completion::Dep(b)
                }
                Completion::Dep(_) => Completion::Dep(a),
            };
            let entry = &mut self.entries[id as usize];
            entry.completion = merged;
            x = entry.parent;
        }
    }

    /// Entry `e` and the entries enclosing it, nearest first.
    fn ancestors(&self, e: Option<u32>) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(e, |&id| self.entries[id as usize].parent)
    }

    /// What entry `e` knows, with the complete ancestors it depends on resolved.
    fn resolve(&self, mut e: u32) -> Completion {
        loop {
            match self.entries[e as usize].completion {
                Completion::Dep(a) => match self.entries[a as usize].status {
                    Status::Complete => e = a,
                    Status::Tainted => return Completion::Always,
                    Status::Pending => return Completion::Dep(a),
                },
                c => return c,
            }
        }
    }

    fn usable(&self, e: u32, ancestors: &List<u32>, who: Seeker) -> bool {
        let entry = &self.entries[e as usize];
        match entry.status {
            Status::Complete => !who.exclusive || entry.tag == who.tag || self.resolve(e) == Completion::Never,
            Status::Tainted => false,
            Status::Pending => {
                let n = ancestors.len();
                let d = entry.depth as usize + 1;
                entry.tag == who.tag && d <= n && ancestors.drop_newest(n - d).head() == Some(&e)
            }
        }
    }
}

/// Writes the canonical and the raw serialization of a state at once, into byte buffers that are
/// hashed at the end. Every item is a number written as a LEB128 varint (self-delimiting, so the
/// sequence of numbers is read back uniquely; most are below 128, one byte).
struct KeyWriter<'a> {
    aig: &'a Aig,
    can: Vec<u8>,
    raw: Vec<u8>,
    ids: HashMap<u32, u32>,
    next: u32,
    inputs: HashSet<u32>,
    stack: Vec<u32>,
}

/// The buffers of a `KeyWriter`, kept between keys (their capacity is what a state needs).
#[derive(Default)]
pub(crate) struct KeyScratch {
    can: Vec<u8>,
    raw: Vec<u8>,
    ids: HashMap<u32, u32>,
    inputs: HashSet<u32>,
    stack: Vec<u32>,
}

/// Appends `x` to `buf` as a LEB128 varint.
fn varint(buf: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        buf.push(x as u8 | 0x80);
        x >>= 7;
    }
    buf.push(x as u8);
}

impl<'a> KeyWriter<'a> {
    fn new(aig: &'a Aig, scratch: KeyScratch) -> Self {
        let KeyScratch { mut can, mut raw, mut ids, mut inputs, mut stack } = scratch;
        can.clear();
        raw.clear();
        ids.clear();
        inputs.clear();
        stack.clear();
        KeyWriter { aig, can, raw, ids, next: 1, inputs, stack }
    }

    fn into_scratch(self) -> KeyScratch {
        let KeyWriter { can, raw, ids, inputs, stack, .. } = self;
        KeyScratch { can, raw, ids, inputs, stack }
    }

    fn u64(&mut self, x: u64) {
        varint(&mut self.can, x);
        varint(&mut self.raw, x);
    }

    fn lit(&mut self, l: AigLit) {
        varint(&mut self.raw, l.raw() as u64);
        let code = self.code(l);
        varint(&mut self.can, code as u64);
    }

    /// The canonical code of `l`: constants keep theirs, other nodes are numbered in order of first
    /// appearance (their structure written to the canonical serialization when numbered).
    fn code(&mut self, l: AigLit) -> u32 {
        if l.is_const() {
            return l.raw();
        }
        let root = l.node_idx() as u32;
        if !self.ids.contains_key(&root) {
            self.stack.push(root);
            while let Some(&n) = self.stack.last() {
                if self.ids.contains_key(&n) {
                    self.stack.pop();
                    continue;
                }
                match self.aig.node(AigLit::from_raw(n << 1)) {
                    AigNode::Const => unreachable!("constants are handled above"),
                    AigNode::Input(i) => {
                        self.inputs.insert(i.0);
                        self.number(n, None);
                        self.stack.pop();
                    }
                    AigNode::And(a, b) => {
                        let mut ready = true;
                        for c in [a, b] {
                            if !c.is_const() && !self.ids.contains_key(&(c.node_idx() as u32)) {
                                self.stack.push(c.node_idx() as u32);
                                ready = false;
                            }
                        }
                        if ready {
                            let (ca, cb) = (self.code_of_numbered(a), self.code_of_numbered(b));
                            self.number(n, Some((ca, cb)));
                            self.stack.pop();
                        }
                    }
                }
            }
        }
        self.code_of_numbered(l)
    }

    fn too_big(&self) -> bool {
        self.next > MAX_KEY_NODES || self.raw.len() + self.can.len() > MAX_KEY_BYTES
    }

    /// Numbers node `n`, an input (`None`) or the AND of two numbered literals (their codes), and
    /// writes that structure to the canonical serialization.
    fn number(&mut self, n: u32, and: Option<(u32, u32)>) {
        self.ids.insert(n, self.next);
        self.next += 1;
        match and {
            None => varint(&mut self.can, 0xA1),
            Some((ca, cb)) => {
                varint(&mut self.can, 0xA2);
                varint(&mut self.can, ca as u64);
                varint(&mut self.can, cb as u64);
            }
        }
    }

    fn code_of_numbered(&self, l: AigLit) -> u32 {
        if l.is_const() {
            return l.raw();
        }
        (self.ids[&(l.node_idx() as u32)] << 1) | l.is_complemented() as u32
    }

    fn byte(&mut self, b: &Byte) {
        if b.is_uninit() {
            self.u64(0x100);
        } else if let Some(v) = b.as_const() {
            self.u64(v as u64);
        } else {
            self.u64(0x200);
            for &l in &b.0 {
                self.lit(l);
            }
        }
    }

    /// Writes the object of a counter as its difference to `base` (see `shift`).
    fn shifted(&mut self, id: ObjId, o: &Object, base: u128) {
        let value = counter_value(o).expect("the shift base is taken only when every counter is known");
        let bits = 8 * o.size as u32;
        let diff = bits::truncate(value.wrapping_sub(base), bits);
        self.u64(0x53_4849_4654);
        self.u64(id as u64);
        self.escape_marks(o);
        for k in 0..o.size {
            self.u64((diff >> (8 * k)) as u8 as u64);
        }
    }

    /// Whether `o` escaped to functions without body and which of its bytes are stale: a later
    /// read of a stale byte is an approximation (`Memory::escape`) that a pruned path must not hide.
    fn escape_marks(&mut self, o: &Object) {
        self.u64(o.escaped as u64);
        if let Some(stale) = o.stale() {
            self.u64(0x57A1E | (stale.default as u64) << 32);
            for (&ci, &mask) in &stale.chunks {
                self.u64(ci);
                self.u64(mask);
            }
            self.u64(u64::MAX);
        }
    }

    fn object(&mut self, id: ObjId, o: &Object) {
        self.u64(id as u64);
        self.u64(o.size);
        if let Some(limit) = &o.limit {
            self.u64(0x11A1);
            for &l in limit.bits() {
                self.lit(l);
            }
        }
        self.escape_marks(o);
        let (default, written) = o.written();
        self.byte(&default);
        for (off, b) in written {
            if b != default {
                self.u64(off);
                self.byte(&b);
            }
        }
        self.u64(u64::MAX);
    }
}

/// The keys of state `st` (with the guide's tag hash `tag`); `None` if the state is too big to key.
/// `scratch` holds the buffers between calls.
pub(crate) fn keys(
    aig: &Aig,
    w: &World,
    live: &Liveness,
    st: &SymState,
    tag: u64,
    scratch: &mut KeyScratch,
) -> Option<Keys> {
    // Checked first: keying one large object cannot be cut short, and would cost more than it saves.
    if st.mem.objects().map(|(_, o)| o.stored_bytes()).sum::<u64>() > MAX_KEY_OBJECT_BYTES {
        return None;
    }
    let mut kw = KeyWriter::new(aig, std::mem::take(scratch));
    let res = write_keys(&mut kw, w, live, st, tag);
    *scratch = kw.into_scratch();
    res
}

fn write_keys(kw: &mut KeyWriter, w: &World, live: &Liveness, st: &SymState, tag: u64) -> Option<Keys> {
    let aig = kw.aig;
    kw.u64(st.node.0 as u64);
    kw.u64(tag);
    kw.u64(st.rounding as u64);
    kw.u64(st.frames.len() as u64);
    let frames = live_locals(w, live, st);
    // With counters that only their differences matter for, key them relative to the first one.
    let shift = live.shift.as_ref().filter(|s| s.applies_at(st.node));
    let base = shift.and_then(|s| {
        let counters = frames.iter().flatten().copied().chain(st.globals.iter()).filter(|(v, _)| s.is_counter(**v));
        let mut base = None;
        for (_, &id) in counters {
            let o = st.mem.get(id)?;
            let value = counter_value(o).filter(|_| o.size == s.size())?;
            base.get_or_insert(value);
        }
        base
    });
    let is_counter = |v: VarId| base.is_some() && shift.is_some_and(|s| s.is_counter(v));
    // Keys variable `v` held in object `id`; false once the key is too big to keep.
    let key_variable = |kw: &mut KeyWriter<'_>, v: VarId, id| {
        kw.u64(v.0 as u64);
        if let Some(o) = st.mem.get(id) {
            match base {
                Some(b) if is_counter(v) => kw.shifted(id, o, b),
                _ => kw.object(id, o),
            }
        }
        !kw.too_big()
    };
    for (frame, locals) in st.frames.iter().zip(&frames) {
        kw.u64(frame.func.0 as u64);
        kw.u64(frame.call_site.map_or(u64::MAX, |c| c.0 as u64));
        for &(&v, &id) in locals {
            if !key_variable(&mut *kw, v, id) {
                return None;
            }
        }
        kw.u64(u64::MAX - 1);
    }
    for (&v, &id) in st.globals.iter() {
        if !key_variable(&mut *kw, v, id) {
            return None;
        }
    }
    kw.u64(u64::MAX - 2);
    for (id, o) in st.mem.objects() {
        if matches!(o.kind, ObjKind::Heap | ObjKind::Lazy) {
            kw.object(id, o);
        }
    }
    if kw.too_big() {
        return None;
    }
    let raw: [u8; 32] = Sha256::digest(&kw.raw).into();
    let mut can_hash = Sha256::new();
    can_hash.update(&kw.can);
    let values: [u8; 32] = can_hash.clone().finalize().into();
    let values_len = kw.can.len();
    // The relevant conjuncts: connected to the values' inputs through shared inputs.
    let mut relevant = Vec::new();
    if !kw.inputs.is_empty() && !st.pc.is_empty() {
        let conj: Vec<&Conjunct> = {
            let mut v: Vec<&Conjunct> = st.pc.iter().collect();
            v.reverse();
            v
        };
        let mut chosen = vec![false; conj.len()];
        // The inputs reached, ascending (supports are too): most conjuncts (a branch on an input
        // drawn and then dead) have supports whose range holds none of them, which one binary
        // search tells.
        let mut reach: Vec<u32> = kw.inputs.iter().copied().collect();
        reach.sort_unstable();
        let touches = |sup: &[u32], reach: &[u32]| {
            let (Some(&lo), Some(&hi)) = (sup.first(), sup.last()) else { return false };
            reach.get(reach.partition_point(|&x| x < lo)).is_some_and(|&x| x <= hi)
                && sup.iter().any(|x| reach.binary_search(x).is_ok())
        };
        loop {
            let mut changed = false;
            for (i, c) in conj.iter().enumerate() {
                if chosen[i] {
                    continue;
                }
                let sup = c.support.get_or_init(|| aig.support(c.lit));
                if touches(sup, &reach) {
                    chosen[i] = true;
                    reach.extend(sup.iter().copied());
                    reach.sort_unstable();
                    reach.dedup();
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (i, c) in conj.iter().enumerate() {
            if chosen[i] {
                relevant.push(c.lit);
            }
        }
    }
    kw.u64(u64::MAX - 3);
    for &l in &relevant {
        kw.lit(l);
    }
    if kw.too_big() {
        return None;
    }
    can_hash.update(&kw.can[values_len..]);
    let full: [u8; 32] = can_hash.finalize().into();
    Some(Keys { full, values, raw, free: relevant.is_empty(), relevant: relevant.into() })
}

/// A 64-bit hash of a guide's tag.
pub(crate) fn tag_hash<T: Hash>(tag: &T) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    tag.hash(&mut h);
    h.finish()
}

/// Per frame of `st`, the locals that are live where the frame resumes (all when not computed).
fn live_locals<'s>(w: &World, live: &Liveness, st: &'s SymState) -> Vec<Vec<(&'s VarId, &'s ObjId)>> {
    st.frames
        .iter()
        .enumerate()
        .map(|(k, frame)| {
            let resume = match st.frames.get(k + 1) {
                None => Some(st.node),
                Some(callee) => callee.call_site.and_then(|cs| w.cfa.call_site(cs).return_node),
            };
            let live_vars = resume.and_then(|n| live.live_at(n));
            frame
                .locals
                .iter()
                .filter(|(v, _)| live_vars.is_none_or(|l| l.binary_search(v).is_ok()))
                .map(|(v, id)| (v, id))
                .collect()
        })
        .collect()
}

/// The value of a counter's object if every byte of it is a known constant (little-endian).
fn counter_value(o: &Object) -> Option<u128> {
    if o.size > 16 {
        return None;
    }
    let mut value = 0u128;
    for k in 0..o.size {
        let b = o.byte(k).as_const()?;
        value |= (b as u128) << (8 * k);
    }
    Some(value)
}

impl Liveness {
    /// Live locals at every loop head and call return site of `cfa`, and the counters `shift` keys.
    pub fn compute(prog: &Program, cfa: &Cfa) -> Liveness {
        Liveness { live: LiveLocals::compute(prog, cfa), shift: Shift::analyse(prog, cfa) }
    }

    /// The live locals at `n` (sorted), if computed there.
    pub fn live_at(&self, n: NodeId) -> Option<&[VarId]> {
        self.live.live_at(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> Keys {
        Keys { full: [n; 32], values: [n; 32], raw: [n; 32], free: false, relevant: Rc::from(Vec::new()) }
    }

    const OWN: Seeker = Seeker { tag: 1, exclusive: false };
    const OTHER_EXCLUSIVE: Seeker = Seeker { tag: 2, exclusive: true };

    #[test]
    fn a_loop_head_where_paths_wait_stays_probed() {
        let head = NodeId(7);
        let mut c = Cache::default();
        // 64 visits without a hit: from then on only every power of two.
        assert!((0..64).all(|_| c.should_probe(head)));
        assert!(!c.should_probe(head));
        // A path that waits for an entry still being explored (around a cycle of the product) pays
        // off like a hit: the head is probed at every visit again.
        c.record_wait(head);
        assert!((0..100).all(|_| c.should_probe(head)));
    }

    fn covered(c: &mut Cache, n: u8, who: Seeker) -> bool {
        matches!(c.probe(&key(n), &List::new(), who), Probe::Covered(_))
    }

    #[test]
    fn an_exclusive_path_is_pruned_only_by_states_without_completions() {
        let mut c = Cache::default();
        // Entry 0 (state A) branches; one path reaches entry 1 (state B) and then returns to A.
        let a = c.register(key(1), None, OWN.tag);
        c.add_open(Some(a), 1);
        let b = c.register(key(2), Some(a), OWN.tag);
        c.note_covered(a, Some(b));
        c.finish(Some(b), false);
        // B is explored, but whether it completes depends on A, still open.
        assert!(covered(&mut c, 2, OWN));
        assert!(!covered(&mut c, 2, OTHER_EXCLUSIVE));
        c.finish(Some(a), false);
        // Nothing below A completed: neither A nor B has a completing execution.
        assert!(covered(&mut c, 1, OTHER_EXCLUSIVE));
        assert!(covered(&mut c, 2, OTHER_EXCLUSIVE));
    }

    #[test]
    fn a_completion_or_a_guide_prune_below_keeps_exclusive_paths_out() {
        let mut c = Cache::default();
        let a = c.register(key(1), None, OWN.tag);
        let b = c.register(key(2), Some(a), OWN.tag);
        c.add_open(Some(b), 1);
        c.mark_completion(Some(b));
        c.finish(Some(b), false);
        c.finish(Some(b), false);
        assert!(covered(&mut c, 1, OWN) && covered(&mut c, 2, OWN));
        assert!(!covered(&mut c, 1, OTHER_EXCLUSIVE) && !covered(&mut c, 2, OTHER_EXCLUSIVE));
        // A path covered by B may complete like B: the entries around it may too.
        let d = c.register(key(3), None, OWN.tag);
        c.note_covered(b, Some(d));
        c.finish(Some(d), false);
        assert!(!covered(&mut c, 3, OTHER_EXCLUSIVE));
    }

    #[test]
    fn a_tainted_state_covers_nothing() {
        let mut c = Cache::default();
        let a = c.register(key(1), None, OWN.tag);
        c.finish(Some(a), true);
        assert!(!covered(&mut c, 1, OWN));
        assert!(!covered(&mut c, 1, OTHER_EXCLUSIVE));
    }
}
