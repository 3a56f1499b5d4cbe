//! The symbolic state of one path: location, call stack, memory, path condition and inputs.
//!
//! A `SymState` is a plain value: cloning it is cheap because memory objects are shared until
//! written (`memory`) and the path's histories are persistent lists (`List`), so a branch clones the
//! state once per successor and never copies a path.
//!
//! Invariant: the path condition of a state in the explorer's work list is satisfiable.
//! Invariant: `inputs` lists every symbolic input the path created, in creation order; the concrete
//! interpreter (`interp`) creates them in the same order.

use crate::base::fp::Rounding;
use std::cell::{Cell, OnceCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use super::memory::{Memory, ObjId};
use super::trace::Repeat;
use crate::cfa::{CallSiteId, EdgeId, NodeId};
use crate::cfront::ir::{FuncId, VarId};
use crate::cfront::types::TypeId;
use crate::sat::{Aig, AigLit, AigNode, Bv, Lit};

/// A persistent singly linked list, newest element first; clones share their tails.
pub struct List<T> {
    head: Option<Rc<ListNode<T>>>,
}

struct ListNode<T> {
    val: T,
    next: Option<Rc<ListNode<T>>>,
    len: usize,
}

/// One conjunct of a path condition: a branch condition the path took while its negation was
/// feasible (conditions implied by the path so far are not recorded).
#[derive(Debug)]
pub struct Conjunct {
    /// The condition.
    pub lit: AigLit,
    /// The full-incremental solver's activation literal for the path up to here (set on first use),
    /// with the generation of the solver it belongs to.
    pub act: Cell<Option<(u32, Lit)>>,
    /// The inputs `lit` depends on, by input index (computed on first use by state caching).
    pub support: OnceCell<Rc<[u32]>>,
}

/// Where a symbolic input comes from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum InputKind {
    /// The result of a call of a function without body on edge `edge` (`__VERIFIER_nondet_int()`,
    /// an unknown external function); `func` is `None` for an unresolved call through a pointer.
    Call {
        /// The external-call edge.
        edge: EdgeId,
        /// The called function.
        func: Option<FuncId>,
    },
    /// Byte `offset` of allocation number `alloc`, read before anything was written there.
    Uninit {
        /// The allocation number of the object (`memory::Object::alloc`).
        alloc: u32,
        /// The byte offset in the object.
        offset: u64,
    },
}

/// What the value of a pointer input (`SymInput::pointer_choice`) chose.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PointerChoice {
    /// The null pointer.
    Null,
    /// Fresh memory of its own, pointed to at `memory::Layout::lazy_offset`.
    Fresh,
    /// An address in the fresh memory it was read from (`memory::Layout::alias_address_bv`).
    Alias {
        /// The offset in that memory.
        offset: u64,
        /// Plus 2^63 (`memory::Layout::wild_bit`).
        wild: bool,
    },
}

impl PointerChoice {
    /// The choice the input value `value` makes.
    pub fn of(value: u128) -> PointerChoice {
        if value & 1 == 1 {
            PointerChoice::Fresh
        } else if value & 2 == 2 {
            PointerChoice::Alias { offset: (value >> 3) as u64, wild: value & 4 == 4 }
        } else {
            PointerChoice::Null
        }
    }
}

/// A symbolic input of a path: where it comes from, its C type, and its bits.
///
/// A pointer-valued input (`pointer_choice`) is one bit: 0 for the null pointer, 1 for a pointer to
/// fresh memory of its own (see `memory::ObjKind::Lazy`). One read from fresh memory has more bits
/// (`PointerChoice::of`): bit 1 set (and bit 0 clear) makes it an address in that memory, at the
/// offset the bits from 3 on give, plus 2^63 if bit 2 is set (LP64 only).
#[derive(Clone, Debug)]
pub struct SymInput {
    /// Where it comes from.
    pub kind: InputKind,
    /// Its C type (`None` for a raw byte of uninitialised memory).
    pub ty: Option<TypeId>,
    /// Whether the input chooses between null and fresh memory.
    pub pointer_choice: bool,
    /// The symbolic value.
    pub bv: Bv,
}

/// Approximations a path made; each limits which verdicts the exploration may give.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Approx(u8);

/// One call-stack frame.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The function executing.
    pub func: FuncId,
    /// The call that created the frame (`None` for `main`).
    pub call_site: Option<CallSiteId>,
    /// Objects of the locals and parameters declared so far, by variable id.
    pub locals: Vec<(VarId, ObjId)>,
    /// How often each loop head was reached in this frame (kept only with an unwinding bound).
    pub loop_counts: Vec<(NodeId, u32)>,
}

/// The symbolic state of one path.
#[derive(Clone)]
pub struct SymState {
    /// The current location.
    pub node: NodeId,
    /// The call stack, `main`'s frame first.
    pub frames: Vec<Frame>,
    /// Objects of globals and block-scope statics.
    pub globals: Rc<BTreeMap<VarId, ObjId>>,
    /// Memory.
    pub mem: Memory,
    /// Path condition.
    pub pc: List<Conjunct>,
    /// Edges taken (and, for a path that ended at a refused edge, that edge).
    pub path: List<EdgeId>,
    /// Loop iterations jumped over (`accel`), newest first, each placed after the edges of `path`
    /// it counts (`Repeat::at`).
    pub jumps: List<Repeat>,
    /// Symbolic inputs created, in creation order (newest first in the list).
    pub inputs: List<SymInput>,
    /// Objects allocated so far (numbers `memory::Object::alloc`).
    pub n_allocs: u32,
    /// Approximations made on the path.
    pub approx: Approx,
    /// The inputs the path condition depends on (input indices).
    pub pc_inputs: Bits,
    /// The conjuncts of the path condition (raw literals), to see repeated conditions.
    pub pc_lits: Bits,
    /// Inputs whose value the path condition fixes.
    pub facts: Facts,
    /// The rounding mode of floating-point operations (`fesetround`).
    pub rounding: Rounding,
}

/// Input values implied by a path condition: the inputs that are conjuncts of it, directly or
/// inside conjunctions (`x == 5` on an input vector is such a conjunction).
#[derive(Clone, Debug, Default)]
pub struct Facts {
    known: Bits,
    value: Bits,
}

/// A persistent set of small integers: the non-zero 64-bit words of the bit set, sorted by index,
/// copy-on-write. A clone costs a pointer; an insertion into a shared set copies the words it holds
/// (a path condition's inputs and literals: tens of words, spread over indices that reach millions,
/// so a table indexed densely by word or chunk would cost kilobytes per copy).
#[derive(Clone, Debug, Default)]
pub struct Bits {
    words: Rc<Vec<(u32, u64)>>,
}

impl<T> List<T> {
    /// The empty list.
    pub fn new() -> List<T> {
        List { head: None }
    }

    /// Adds `val` in front.
    pub fn push(&mut self, val: T) {
        let len = self.len() + 1;
        let next = self.head.take();
        self.head = Some(Rc::new(ListNode { val, next, len }));
    }

    /// Adds each element of `vals` in front, in order.
    pub fn extend(&mut self, vals: impl IntoIterator<Item = T>) {
        for v in vals {
            self.push(v);
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.head.as_ref().map_or(0, |n| n.len)
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// The newest element.
    pub fn head(&self) -> Option<&T> {
        self.head.as_deref().map(|n| &n.val)
    }

    /// The elements, newest first.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        let mut cur = self.head.as_deref();
        std::iter::from_fn(move || {
            let n = cur?;
            cur = n.next.as_deref();
            Some(&n.val)
        })
    }

    /// Whether both lists are the same list (same head node).
    pub fn ptr_eq(&self, other: &List<T>) -> bool {
        match (&self.head, &other.head) {
            (None, None) => true,
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The list without its newest `n` elements.
    pub fn drop_newest(&self, n: usize) -> List<T> {
        let mut cur = self.head.clone();
        for _ in 0..n {
            cur = cur.and_then(|node| node.next.clone());
        }
        List { head: cur }
    }

    /// Whether `self` is `other` or one of its tails (a prefix of the same history).
    pub fn is_prefix_of(&self, other: &List<T>) -> bool {
        let (a, b) = (self.len(), other.len());
        a <= b && other.drop_newest(b - a).ptr_eq(self)
    }

    /// The elements of `self` that are newer than its tail `prefix`, oldest first.
    ///
    /// Panics if `prefix` is not a tail of `self`.
    pub fn newer_than(&self, prefix: &List<T>) -> Vec<&T> {
        let n = self.len() - prefix.len();
        let mut res: Vec<&T> = self.iter().take(n).collect();
        res.reverse();
        res
    }
}

impl<T: Clone> List<T> {
    /// The elements, oldest first.
    pub fn to_vec(&self) -> Vec<T> {
        let mut res: Vec<T> = self.iter().cloned().collect();
        res.reverse();
        res
    }
}

impl<T> Default for List<T> {
    fn default() -> List<T> {
        List::new()
    }
}

impl<T> Clone for List<T> {
    fn clone(&self) -> List<T> {
        List { head: self.head.clone() }
    }
}

impl<T> Drop for List<T> {
    /// Frees the nodes this list alone owns one by one: paths can be millions of edges long, too
    /// long for the recursive drop of nested `Rc`s.
    fn drop(&mut self) {
        let mut cur = self.head.take();
        while let Some(node) = cur {
            match Rc::try_unwrap(node) {
                Ok(mut n) => cur = n.next.take(),
                Err(_) => break,
            }
        }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Approx {
    /// No approximation.
    pub const NONE: Approx = Approx(0);
    /// A function without body received pointers and might have written through them (not
    /// modelled): the path is one possible behaviour, but not every one.
    pub const EXTERN_WRITE: Approx = Approx(1);
    /// An unknown pointer was taken to be null or to point to fresh memory of its own, though it
    /// might alias other objects.
    pub const LAZY_MEMORY: Approx = Approx(2);
    /// A library function whose meaning is known but not modelled returned an arbitrary value.
    pub const UNMODELLED: Approx = Approx(4);
    /// Variables were abstracted away (`ExploreConfig::havoc`): the path may be impossible; it
    /// over-approximates the program's behaviours.
    pub const ABSTRACT: Approx = Approx(8);

    /// Both sets of approximations.
    pub const fn union(self, other: Approx) -> Approx {
        Approx(self.0 | other.0)
    }

    /// Whether `self` contains every approximation of `other`.
    pub fn contains(self, other: Approx) -> bool {
        self.0 & other.0 == other.0
    }

    /// The approximations of `self` that are not in `other`.
    pub fn without(self, other: Approx) -> Approx {
        Approx(self.0 & !other.0)
    }

    /// Whether no approximation was made.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether a violation found on such a path is a real one (the model is exact or one possible
    /// behaviour of unknown code).
    pub fn violation_is_real(self) -> bool {
        self.0 & (Approx::LAZY_MEMORY.0 | Approx::UNMODELLED.0 | Approx::ABSTRACT.0) == 0
    }

    /// Every approximation a user can accept as an assumption (`ASSUMPTIONS`).
    pub const ASSUMABLE: Approx = Approx::LAZY_MEMORY.union(Approx::EXTERN_WRITE).union(Approx::UNMODELLED);

    /// The environment assumptions a user can accept (`--assume`): name, the approximation it makes
    /// part of the model, and what it states. Without them the model over-approximates: body-less
    /// functions may write anything through their pointers, unknown pointers may alias.
    pub const ASSUMPTIONS: [(&'static str, Approx, &'static str); 3] = [
        (
            "fresh-pointers",
            Approx::LAZY_MEMORY,
            "unknown pointers are null or point to fresh memory of their own (a list link read from fresh memory may \
             also point back into it, unless --no-alias-links); they never alias other objects",
        ),
        (
            "no-extern-writes",
            Approx::EXTERN_WRITE,
            "functions without body do not write through the pointers they receive",
        ),
        (
            "unmodelled-library",
            Approx::UNMODELLED,
            "library functions vcov does not model have no effect besides returning an arbitrary value",
        ),
    ];

    /// The `--assume` names of the assumptions among `self`, in `ASSUMPTIONS` order.
    pub fn assumption_names(self) -> Vec<&'static str> {
        self.assumptions().into_iter().map(|(n, _)| n).collect()
    }

    /// The assumptions among `self` (name and statement), in `ASSUMPTIONS` order.
    pub fn assumptions(self) -> Vec<(&'static str, &'static str)> {
        Approx::ASSUMPTIONS.iter().filter(|(_, a, _)| self.contains(*a)).map(|&(n, _, s)| (n, s)).collect()
    }

    /// The names of the approximations, for messages.
    pub fn describe(self) -> Vec<&'static str> {
        let mut res = Vec::new();
        if self.contains(Approx::EXTERN_WRITE) {
            res.push("a function without body received pointers and may write through them");
        }
        if self.contains(Approx::LAZY_MEMORY) {
            res.push("an unknown pointer was taken to point to fresh memory");
        }
        if self.contains(Approx::UNMODELLED) {
            res.push("a library function that is not modelled returned an arbitrary value");
        }
        if self.contains(Approx::ABSTRACT) {
            res.push("variables were abstracted away");
        }
        res
    }
}

impl Conjunct {
    /// A conjunct without activation literal or support yet.
    pub fn new(lit: AigLit) -> Conjunct {
        Conjunct { lit, act: Cell::new(None), support: OnceCell::new() }
    }
}

impl Frame {
    /// The object of local `v`, if declared in this frame.
    pub fn local(&self, v: VarId) -> Option<ObjId> {
        self.locals.binary_search_by_key(&v, |&(var, _)| var).ok().map(|i| self.locals[i].1)
    }

    /// Binds local `v` to `obj`.
    pub fn bind(&mut self, v: VarId, obj: ObjId) {
        match self.locals.binary_search_by_key(&v, |&(var, _)| var) {
            Ok(i) => self.locals[i].1 = obj,
            Err(i) => self.locals.insert(i, (v, obj)),
        }
    }

    /// Counts one more visit of loop head `n`; returns the new count.
    pub fn count_loop(&mut self, n: NodeId) -> u32 {
        match self.loop_counts.iter_mut().find(|(m, _)| *m == n) {
            Some((_, c)) => {
                *c += 1;
                *c
            }
            None => {
                self.loop_counts.push((n, 1));
                1
            }
        }
    }
}

impl SymState {
    /// The frame of the function executing.
    pub fn top(&self) -> &Frame {
        self.frames.last().expect("a state has a frame")
    }

    /// The frame of the function executing, for changes.
    pub fn top_mut(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a state has a frame")
    }

    /// Adds a conjunct to the path condition (unless it is `TRUE`).
    pub fn assume(&mut self, aig: &Aig, lit: AigLit) {
        if lit == AigLit::TRUE {
            return;
        }
        self.assume_with_support(aig, lit, aig.support(lit));
    }

    /// `assume` of a literal other than `TRUE` whose support (`support`) is known.
    pub fn assume_with_support(&mut self, aig: &Aig, lit: AigLit, sup: Rc<[u32]>) {
        debug_assert!(lit != AigLit::TRUE);
        for &x in sup.iter() {
            self.pc_inputs.insert(x);
        }
        self.pc_lits.insert(lit.raw());
        self.facts.learn(aig, lit);
        let c = Conjunct::new(lit);
        let _ = c.support.set(sup);
        self.pc.push(c);
    }

    /// Whether `lit` is a conjunct of the path condition (so the path implies it).
    pub fn has_conjunct(&self, lit: AigLit) -> bool {
        self.pc_lits.contains(lit.raw())
    }

    /// Whether `lit` depends on no input the path condition depends on (then `pc ∧ lit` is
    /// satisfiable exactly when `lit` is).
    pub fn independent(&self, sup: &[u32]) -> bool {
        sup.iter().all(|&x| !self.pc_inputs.contains(x))
    }
}

impl Facts {
    /// The value of input `input` if it is fixed.
    pub fn get(&self, input: u32) -> Option<bool> {
        self.known.contains(input).then(|| self.value.contains(input))
    }

    /// Records the inputs `lit` fixes (looking into at most 256 AND nodes).
    pub fn learn(&mut self, aig: &Aig, lit: AigLit) {
        let mut stack = vec![lit];
        let mut budget = 256;
        while let Some(l) = stack.pop() {
            if budget == 0 {
                return;
            }
            budget -= 1;
            match aig.node(l) {
                AigNode::Input(i) => {
                    self.known.insert(i.0);
                    if !l.is_complemented() {
                        self.value.insert(i.0);
                    }
                }
                AigNode::And(a, b) if !l.is_complemented() => {
                    stack.push(a);
                    stack.push(b);
                }
                _ => {}
            }
        }
    }

    /// The value of `bv` if the fixed inputs determine every bit of it (three-valued evaluation of
    /// its cone, `Aig::eval3`, at most 100 000 nodes).
    pub fn value_of(&self, aig: &Aig, bv: &Bv) -> Option<u128> {
        if let Some(v) = bv.as_const() {
            return Some(v);
        }
        if self.known.is_empty() {
            return None;
        }
        let bits = aig.eval3(bv.bits(), &|input| self.get(input.0), 100_000)?;
        Some(bits.iter().enumerate().fold(0u128, |res, (i, &v)| res | (v as u128) << i))
    }
}

impl Bits {
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Whether `x` is in the set.
    pub fn contains(&self, x: u32) -> bool {
        match self.words.binary_search_by_key(&(x / 64), |&(w, _)| w) {
            Ok(k) => self.words[k].1 >> (x % 64) & 1 == 1,
            Err(_) => false,
        }
    }

    /// Adds `x`.
    pub fn insert(&mut self, x: u32) {
        let bit = 1u64 << (x % 64);
        match self.words.binary_search_by_key(&(x / 64), |&(w, _)| w) {
            Ok(k) if self.words[k].1 & bit != 0 => {}
            Ok(k) => Rc::make_mut(&mut self.words)[k].1 |= bit,
            Err(k) => Rc::make_mut(&mut self.words).insert(k, (x / 64, bit)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_share_tails() {
        let mut a: List<u32> = List::new();
        a.push(1);
        a.push(2);
        let mut b = a.clone();
        b.push(3);
        assert_eq!(a.to_vec(), vec![1, 2]);
        assert_eq!(b.to_vec(), vec![1, 2, 3]);
        assert!(a.is_prefix_of(&b));
        assert!(!b.is_prefix_of(&a));
        assert_eq!(b.newer_than(&a), vec![&3]);
        let mut c = a.clone();
        c.push(3);
        assert!(!b.is_prefix_of(&c), "equal values, different histories");
        assert_eq!(b.drop_newest(2).to_vec(), vec![1]);
    }

    #[test]
    fn long_lists_drop_without_recursion() {
        let mut a: List<u64> = List::new();
        for i in 0..2_000_000 {
            a.push(i);
        }
        let b = a.drop_newest(10);
        drop(a);
        assert_eq!(b.len(), 1_999_990);
    }

    #[test]
    fn bit_sets_are_persistent() {
        let mut a = Bits::default();
        a.insert(3);
        a.insert(70_000);
        let mut b = a.clone();
        b.insert(5);
        assert!(a.contains(3) && a.contains(70_000) && !a.contains(5) && !a.contains(4));
        assert!(b.contains(5) && b.contains(3));
    }

    #[test]
    fn facts_fix_values() {
        let mut aig = Aig::default();
        let x = Bv::input(&mut aig, 8);
        let b = aig.new_input();
        let p = Bv::ite(&mut aig, b, &Bv::constant(0x40, 8), &Bv::zero(8));
        let eq = x.eq(&mut aig, &Bv::constant(5, 8));
        let mut f = Facts::default();
        assert_eq!(f.value_of(&aig, &p), None);
        f.learn(&aig, b);
        assert_eq!(f.value_of(&aig, &p), Some(0x40));
        assert_eq!(f.value_of(&aig, &x), None);
        f.learn(&aig, eq);
        assert_eq!(f.value_of(&aig, &x), Some(5));
        let sum = x.add(&mut aig, &Bv::constant(1, 8));
        assert_eq!(f.value_of(&aig, &sum), Some(6));
    }

    #[test]
    fn frames_bind_sorted() {
        let mut f = Frame { func: FuncId(0), call_site: None, locals: vec![], loop_counts: vec![] };
        f.bind(VarId(5), 1);
        f.bind(VarId(2), 2);
        f.bind(VarId(5), 3);
        assert_eq!(f.locals, vec![(VarId(2), 2), (VarId(5), 3)]);
        assert_eq!(f.local(VarId(5)), Some(3));
        assert_eq!(f.local(VarId(4)), None);
        assert_eq!((f.count_loop(NodeId(1)), f.count_loop(NodeId(1))), (1, 2));
    }
}
