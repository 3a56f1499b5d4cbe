//! The abstract domain: what a tracked variable may hold (`Val`: one of a few values, any value but
//! a few, or a value with some bits known) and the state at a node (`Env`: a persistent array by
//! variable id, shared in chunks), with their joins.

use std::rc::Rc;

use crate::base::bits;
use crate::cfront::ir::VarId;
use crate::cfront::types::{DataModel, IntRank, IntType};

/// Values a variable may hold at a node before the analysis takes it as any value.
pub(super) const MAX_VALUES: usize = 8;

/// Variables per chunk of an `Env`.
const CHUNK: usize = 16;

/// What each tracked variable may hold; a variable absent may hold any value. A persistent array by
/// variable id, in chunks shared between the states of nodes until one of them writes: an edge
/// that assigns one variable copies one chunk, and a join skips the chunks both sides share (a
/// driver tracks thousands of globals, most of which no edge between two nodes touches).
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub(super) struct Env {
    /// Chunk `k` holds variables `k * CHUNK ..`; `None` (or past the end) holds none.
    chunks: Vec<Option<Rc<[Option<Val>; CHUNK]>>>,
}

impl Env {
    pub(super) fn get(&self, v: &VarId) -> Option<&Val> {
        let i = v.idx();
        self.chunks.get(i / CHUNK)?.as_ref()?[i % CHUNK].as_ref()
    }

    pub(super) fn insert(&mut self, v: VarId, val: Val) {
        let i = v.idx();
        if self.chunks.len() <= i / CHUNK {
            self.chunks.resize(i / CHUNK + 1, None);
        }
        let chunk = self.chunks[i / CHUNK].get_or_insert_with(|| Rc::new(std::array::from_fn(|_| None)));
        Rc::make_mut(chunk)[i % CHUNK] = Some(val);
    }

    pub(super) fn remove(&mut self, v: &VarId) {
        let i = v.idx();
        if let Some(Some(chunk)) = self.chunks.get_mut(i / CHUNK) {
            if chunk[i % CHUNK].is_some() {
                Rc::make_mut(chunk)[i % CHUNK] = None;
            }
        }
    }

    /// The variables with a known value, in id order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (VarId, &Val)> {
        self.chunks.iter().enumerate().filter_map(|(k, c)| Some((k, c.as_ref()?))).flat_map(|(k, c)| {
            c.iter().enumerate().filter_map(move |(j, val)| Some((VarId::from_idx(k * CHUNK + j), val.as_ref()?)))
        })
    }
}

impl FromIterator<(VarId, Val)> for Env {
    fn from_iter<I: IntoIterator<Item = (VarId, Val)>>(iter: I) -> Self {
        let mut env = Env::default();
        for (v, val) in iter {
            env.insert(v, val);
        }
        env
    }
}

/// The join of `old` and `new` if it differs from `old`; it shares what did not change with `old`.
pub(super) fn join(old: &Env, new: &Env) -> Option<Env> {
    let mut out: Option<Env> = None;
    for (k, chunk) in old.chunks.iter().enumerate() {
        let Some(chunk) = chunk else { continue };
        let other = new.chunks.get(k).and_then(|c| c.as_ref());
        if other.is_some_and(|o| Rc::ptr_eq(chunk, o)) {
            continue;
        }
        for (j, a) in chunk.iter().enumerate() {
            let Some(a) = a else { continue };
            let joined = match other.and_then(|o| o[j].as_ref()) {
                Some(b) if a.same(b) || a.includes(b) => continue,
                Some(b) => a.join(b),
                None => None,
            };
            let v = VarId::from_idx(k * CHUNK + j);
            let out = out.get_or_insert_with(|| old.clone());
            match joined {
                Some(u) => out.insert(v, u),
                None => out.remove(&v),
            }
        }
    }
    out
}

/// What a tracked variable may hold (a variable absent from an `Env` may hold anything).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum Val {
    /// One of these values (sorted, at most `MAX_VALUES`, never empty).
    Is(Rc<[i128]>),
    /// Any value but these (sorted, at most `MAX_VALUES`, never empty): a pointer known not null.
    Not(Rc<[i128]>),
    /// Any value whose bits under `known` are `ones` (bits of the value's two's complement to 128
    /// bits, so that conversions keeping the value keep the bits): what bitwise operations on values
    /// otherwise unknown leave known (`x | 128` has bit 7 set). `known` is neither empty nor full.
    Bits(Rc<KnownBits>),
}

/// The bits of a `Val::Bits` (behind a pointer, so that a `Val` and the chunks of an `Env` that an
/// edge copies stay small).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct KnownBits {
    pub(super) known: u128,
    pub(super) ones: u128,
}

impl Val {
    /// The join, `None` for any value.
    pub(super) fn join(&self, other: &Val) -> Option<Val> {
        match (self, other) {
            (Val::Is(a), Val::Is(b)) => merge(a, b).map(|u| Val::Is(u.into())),
            (Val::Not(a), Val::Not(b)) => {
                let both: Vec<i128> = a.iter().filter(|x| b.contains(x)).copied().collect();
                (!both.is_empty()).then_some(Val::Not(both.into()))
            }
            (Val::Is(s), Val::Not(x)) | (Val::Not(x), Val::Is(s)) => {
                let rest: Vec<i128> = x.iter().filter(|c| !s.contains(c)).copied().collect();
                (!rest.is_empty()).then_some(Val::Not(rest.into()))
            }
            (Val::Bits(_), Val::Is(_) | Val::Bits(_)) | (Val::Is(_), Val::Bits(_)) => {
                let ((ka, oa), (kb, ob)) = (self.bits()?, other.bits()?);
                let known = ka & kb & !(oa ^ ob);
                Val::of_bits(known, oa & known)
            }
            (Val::Not(_), Val::Bits(_)) | (Val::Bits(_), Val::Not(_)) => None,
        }
    }

    /// Whether `self` and `other` are one value, shared (a cheap test before `includes`: states
    /// mostly hold the values their predecessors held).
    fn same(&self, other: &Val) -> bool {
        match (self, other) {
            (Val::Is(a), Val::Is(b)) | (Val::Not(a), Val::Not(b)) => Rc::ptr_eq(a, b),
            (Val::Bits(a), Val::Bits(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Whether every possible value of `other` is one of `self` (the join of the two is `self`).
    pub(super) fn includes(&self, other: &Val) -> bool {
        match (self, other) {
            (Val::Is(a), Val::Is(b)) => a == b || b.iter().all(|x| a.binary_search(x).is_ok()),
            (Val::Not(a), Val::Not(b)) => a.iter().all(|x| b.contains(x)),
            (Val::Not(x), Val::Is(s)) => s.iter().all(|c| !x.contains(c)),
            (Val::Is(_), Val::Not(_)) => false,
            (Val::Bits(b), _) => match other.bits() {
                Some((kb, ob)) => kb & b.known == b.known && ob & b.known == b.ones,
                None => false,
            },
            (Val::Is(_) | Val::Not(_), Val::Bits(_)) => false,
        }
    }

    /// Whether `c` is a possible value.
    pub(super) fn admits(&self, c: i128) -> bool {
        match self {
            Val::Is(s) => s.contains(&c),
            Val::Not(x) => !x.contains(&c),
            Val::Bits(b) => c as u128 & b.known == b.ones,
        }
    }

    /// The bits every possible value has: `(known, ones)`; `None` for "any value but these".
    pub(super) fn bits(&self) -> Option<(u128, u128)> {
        match self {
            Val::Is(s) => {
                let differ = s.iter().fold(0u128, |acc, &x| acc | (x as u128 ^ s[0] as u128));
                Some((!differ, s[0] as u128 & !differ))
            }
            Val::Not(_) => None,
            Val::Bits(b) => Some((b.known, b.ones)),
        }
    }

    /// The value with bits `ones` under `known`: one value when every bit is known, `None` (any
    /// value) when none is.
    pub(super) fn of_bits(known: u128, ones: u128) -> Option<Val> {
        match known {
            0 => None,
            u128::MAX => Some(Val::Is(vec![ones as i128].into())),
            _ => Some(Val::Bits(Rc::new(KnownBits { known, ones: ones & known }))),
        }
    }
}

/// The union of two sorted sets of values, `None` if it has more than `MAX_VALUES`.
fn merge(a: &[i128], b: &[i128]) -> Option<Vec<i128>> {
    let mut u = Vec::with_capacity(MAX_VALUES.min(a.len() + b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => unreachable!("the loop ends first"),
        };
        if u.len() == MAX_VALUES {
            return None;
        }
        u.push(next);
    }
    Some(u)
}

/// Known bits `(known, ones)` of a value converted to `to` (C's conversion: wraparound, `_Bool`
/// is "not zero"), in the two's complement of the converted value.
pub(super) fn wrap_bits((known, ones): (u128, u128), to: IntType, dm: DataModel) -> (u128, u128) {
    if to.rank == IntRank::Bool {
        return match (ones != 0, known == u128::MAX) {
            (true, _) => (u128::MAX, 1),
            (false, true) => (u128::MAX, 0),
            (false, false) => (!1, 0),
        };
    }
    let w = to.bits(dm);
    if w >= 128 {
        return (known, ones);
    }
    let low = bits::mask(w);
    let sign = bits::sign_bit(w);
    // Above the type's width: zeros, or copies of the sign bit.
    match (to.signed, known & sign != 0, ones & sign != 0) {
        (false, _, _) => ((known & low) | !low, ones & low),
        (true, true, negative) => ((known & low) | !low, (ones & low) | if negative { !low } else { 0 }),
        (true, false, _) => (known & low, ones & low),
    }
}
