//! And-inverter graph with structural hashing, constant propagation and local two-level rewriting.
//!
//! Node 0 is the constant false; every other node is an input or a two-input AND whose operands are
//! older nodes, so node indices are a topological order.
//! Invariant: an AND node never has a constant operand, two equal operands or two complementary
//! operands, and no two AND nodes have the same (ordered) operands.
//! Invariant: nodes are only appended, so an `AigLit` stays valid as long as its `Aig`.

use std::fmt;
use std::ops::Not;

use rustc_hash::FxHashMap;

crate::id_type! {
    /// The index of an input of an `Aig`, in creation order (the first `new_input` is input 0).
    pub struct AigInput;
}

/// A literal of an `Aig`: a node index shifted left by one, with the low bit set for the complement.
///
/// Equal literals denote structurally equal functions, so literals can be compared and hashed to
/// detect identical terms.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AigLit(u32);

/// What a node of an `Aig` is, as seen through `Aig::node`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AigNode {
    /// The constant node (false; its complement is true).
    Const,
    /// A free input.
    Input(AigInput),
    /// The conjunction of two literals of older nodes, the smaller literal first.
    And(AigLit, AigLit),
}

/// An and-inverter graph: the solver-independent representation of every symbolic value.
#[derive(Clone, Debug)]
pub struct Aig {
    nodes: Vec<Node>,
    /// Per node, its value when every input is false (bit 0) and when every input is true (bit 1):
    /// kept as nodes are made, so that `value_at_corner` is a lookup.
    corners: Vec<u8>,
    inputs: Vec<u32>,
    strash: Strash,
    n_ands: usize,
}

/// The structural-hashing table: the indices of the AND nodes, by open addressing with linear
/// probing, keyed by the operands the nodes hold. A slot is 4 bytes (a map from the operand pair
/// would hold 16 per entry, the pair a second time); at most three quarters are taken. Node 0 is
/// the constant, never an AND node, so 0 marks an empty slot.
#[derive(Clone, Debug, Default)]
struct Strash {
    slots: Vec<u32>,
    len: usize,
}

impl Strash {
    /// The first slot to probe for the key `a, b` (Fibonacci hashing: the product's high bits).
    #[inline]
    fn home(&self, a: u32, b: u32) -> usize {
        let key = (a as u64) << 32 | b as u64;
        let bits = self.slots.len().trailing_zeros();
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
    }

    /// The AND node of `a, b` if there is one, else the empty slot where it would go.
    fn find(&self, nodes: &[Node], a: u32, b: u32) -> Result<u32, usize> {
        if self.slots.is_empty() {
            return Err(usize::MAX);
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(a, b);
        loop {
            let n = self.slots[i];
            if n == 0 {
                return Err(i);
            }
            let node = nodes[n as usize];
            if node.a == a && node.b == b {
                return Ok(n);
            }
            i = (i + 1) & mask;
        }
    }

    /// Enters the AND node `node_idx` (held in `nodes`) at the empty slot `slot` that `find` gave.
    fn insert(&mut self, nodes: &[Node], node_idx: u32, mut slot: usize) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            let capacity = (self.slots.len() * 2).max(1024);
            let old = std::mem::replace(&mut self.slots, vec![0; capacity]);
            for n in old.into_iter().filter(|&n| n != 0) {
                let node = nodes[n as usize];
                let Err(i) = self.find(nodes, node.a, node.b) else { unreachable!("AND nodes are unique") };
                self.slots[i] = n;
            }
            let node = nodes[node_idx as usize];
            slot = self.find(nodes, node.a, node.b).expect_err("a new AND node");
        }
        self.slots[slot] = node_idx;
        self.len += 1;
    }
}

/// A node: an AND of the literals `a < b`, or an input (`a == INPUT_MARK`, `b` = input index), or the
/// constant (`a == INPUT_MARK`, `b == CONST_MARK`).
#[derive(Clone, Copy, Debug)]
struct Node {
    a: u32,
    b: u32,
}

const INPUT_MARK: u32 = u32::MAX;
const CONST_MARK: u32 = u32::MAX;

impl AigLit {
    /// The constant false.
    pub const FALSE: AigLit = AigLit(0);
    /// The constant true.
    pub const TRUE: AigLit = AigLit(1);

    /// The literal with the raw code `node << 1 | complement`.
    #[inline]
    pub fn from_raw(raw: u32) -> AigLit {
        AigLit(raw)
    }

    /// The raw code `node << 1 | complement`.
    #[inline]
    pub fn raw(self) -> u32 {
        self.0
    }

    /// The index of the node of the literal.
    #[inline]
    pub fn node_idx(self) -> usize {
        (self.0 >> 1) as usize
    }

    /// Whether the literal is the complement of its node.
    #[inline]
    pub fn is_complemented(self) -> bool {
        self.0 & 1 == 1
    }

    /// The literal of the node itself, without complement.
    #[inline]
    pub fn regular(self) -> AigLit {
        AigLit(self.0 & !1)
    }

    /// The constant true for `true`, false for `false`.
    #[inline]
    pub fn constant(value: bool) -> AigLit {
        AigLit(value as u32)
    }

    /// The value of a constant literal, `None` for any other.
    #[inline]
    pub fn as_const(self) -> Option<bool> {
        (self.0 <= 1).then_some(self.0 == 1)
    }

    /// Whether the literal is one of the two constants.
    #[inline]
    pub fn is_const(self) -> bool {
        self.0 <= 1
    }

    /// The literal, complemented if `complement`.
    #[inline]
    pub fn xor_complement(self, complement: bool) -> AigLit {
        AigLit(self.0 ^ complement as u32)
    }
}

impl Not for AigLit {
    type Output = AigLit;

    #[inline]
    fn not(self) -> AigLit {
        AigLit(self.0 ^ 1)
    }
}

impl fmt::Debug for AigLit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_const() {
            Some(value) => write!(f, "{value}"),
            None => write!(f, "{}n{}", if self.is_complemented() { "!" } else { "" }, self.node_idx()),
        }
    }
}

/// A truth value of the walks that evaluate an `Aig` (`Aig::eval_node`): `bool` for `eval`, and
/// `Option<bool>` for the three-valued `eval3` (`None`: unknown).
trait Truth: Copy {
    /// The value of the constant node.
    const FALSE: Self;

    /// The value of an AND node from the values of its operands, each `None` while the walk has not
    /// been there; `None` when an operand must be walked first (never when both have values).
    fn and(a: Option<Self>, b: Option<Self>) -> Option<Self>;

    /// The value of the complement, where `complement` holds.
    fn complement(self, complement: bool) -> Self;
}

impl Truth for bool {
    const FALSE: bool = false;

    fn and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
        Some(a? && b?)
    }

    fn complement(self, complement: bool) -> bool {
        self ^ complement
    }
}

impl Truth for Option<bool> {
    const FALSE: Option<bool> = Some(false);

    /// False as soon as one operand is false, whatever the other.
    fn and(a: Option<Option<bool>>, b: Option<Option<bool>>) -> Option<Option<bool>> {
        match (a, b) {
            (Some(Some(false)), _) | (_, Some(Some(false))) => Some(Some(false)),
            (Some(x), Some(y)) => Some((x == Some(true) && y == Some(true)).then_some(true)),
            _ => None,
        }
    }

    fn complement(self, complement: bool) -> Option<bool> {
        self.map(|v| v ^ complement)
    }
}

impl Default for Aig {
    fn default() -> Aig {
        Aig {
            nodes: vec![Node { a: INPUT_MARK, b: CONST_MARK }],
            corners: vec![0],
            inputs: Vec::new(),
            strash: Strash::default(),
            n_ands: 0,
        }
    }
}

impl Aig {
    /// A fresh input.
    pub fn new_input(&mut self) -> AigLit {
        let input_idx = self.inputs.len() as u32;
        let node_idx = self.push(Node { a: INPUT_MARK, b: input_idx });
        self.inputs.push(node_idx);
        AigLit(node_idx << 1)
    }

    /// The conjunction of `a` and `b`.
    ///
    /// Folds constants, applies `x∧x = x`, `x∧¬x = 0` and the two-level rules of Brummayer and Biere
    /// (contradiction, idempotence, subsumption, substitution, resolution), and returns the existing
    /// node for operands seen before.
    pub fn and(&mut self, a: AigLit, b: AigLit) -> AigLit {
        let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
        if a == AigLit::FALSE {
            return AigLit::FALSE;
        }
        if a == AigLit::TRUE {
            return b;
        }
        if a == b {
            return a;
        }
        if a == !b {
            return AigLit::FALSE;
        }
        if let Some(res) = self.rewrite_two_level(a, b) {
            return res;
        }
        let slot = match self.strash.find(&self.nodes, a.0, b.0) {
            Ok(node_idx) => return AigLit(node_idx << 1),
            Err(slot) => slot,
        };
        let node_idx = self.push(Node { a: a.0, b: b.0 });
        self.strash.insert(&self.nodes, node_idx, slot);
        self.n_ands += 1;
        AigLit(node_idx << 1)
    }

    /// The disjunction of `a` and `b`.
    #[inline]
    pub fn or(&mut self, a: AigLit, b: AigLit) -> AigLit {
        !self.and(!a, !b)
    }

    /// `a` implies `b`.
    #[inline]
    pub fn implies(&mut self, a: AigLit, b: AigLit) -> AigLit {
        self.or(!a, b)
    }

    /// The exclusive or of `a` and `b`, built as `¬(a∧b) ∧ ¬(¬a∧¬b)` so that adders share `a∧b`
    /// with their carry.
    pub fn xor(&mut self, a: AigLit, b: AigLit) -> AigLit {
        if let Some(value) = a.as_const() {
            return b.xor_complement(value);
        }
        if let Some(value) = b.as_const() {
            return a.xor_complement(value);
        }
        if a == b {
            return AigLit::FALSE;
        }
        if a == !b {
            return AigLit::TRUE;
        }
        let both = self.and(a, b);
        let neither = self.and(!a, !b);
        self.and(!both, !neither)
    }

    /// `a` equals `b`.
    #[inline]
    pub fn xnor(&mut self, a: AigLit, b: AigLit) -> AigLit {
        !self.xor(a, b)
    }

    /// If `c` then `t` else `e`.
    pub fn ite(&mut self, c: AigLit, t: AigLit, e: AigLit) -> AigLit {
        if let Some(value) = c.as_const() {
            return if value { t } else { e };
        }
        if t == e {
            return t;
        }
        if t == !e {
            return self.xnor(c, t);
        }
        if t == c || t == AigLit::TRUE {
            return self.or(c, e);
        }
        if t == !c || t == AigLit::FALSE {
            return self.and(!c, e);
        }
        if e == c || e == AigLit::FALSE {
            return self.and(c, t);
        }
        if e == !c || e == AigLit::TRUE {
            return self.or(!c, t);
        }
        let then = self.and(c, t);
        let other = self.and(!c, e);
        self.or(then, other)
    }

    /// The conjunction of all `lits` (true for none); stops at the first false operand.
    pub fn and_all(&mut self, lits: impl IntoIterator<Item = AigLit>) -> AigLit {
        let mut res = AigLit::TRUE;
        for lit in lits {
            res = self.and(res, lit);
            if res == AigLit::FALSE {
                break;
            }
        }
        res
    }

    /// The disjunction of all `lits` (false for none); stops at the first true operand.
    pub fn or_all(&mut self, lits: impl IntoIterator<Item = AigLit>) -> AigLit {
        !self.and_all(lits.into_iter().map(|l| !l))
    }

    /// What the node of `lit` is.
    #[inline]
    pub fn node(&self, lit: AigLit) -> AigNode {
        let node = self.nodes[lit.node_idx()];
        if node.a != INPUT_MARK {
            AigNode::And(AigLit(node.a), AigLit(node.b))
        } else if node.b == CONST_MARK {
            AigNode::Const
        } else {
            AigNode::Input(AigInput(node.b))
        }
    }

    /// The indices of the inputs `lit` depends on (its support), ascending.
    pub fn support(&self, lit: AigLit) -> std::rc::Rc<[u32]> {
        let mut res = Vec::new();
        let mut seen: rustc_hash::FxHashSet<usize> = rustc_hash::FxHashSet::default();
        let mut stack = vec![lit];
        while let Some(l) = stack.pop() {
            if l.is_const() || !seen.insert(l.node_idx()) {
                continue;
            }
            match self.node(l) {
                AigNode::Const => {}
                AigNode::Input(i) => res.push(i.0),
                AigNode::And(a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
            }
        }
        res.sort_unstable();
        res.into()
    }

    /// The (positive) literal of input `input`.
    #[inline]
    pub fn input_lit(&self, input: AigInput) -> AigLit {
        AigLit(self.inputs[input.idx()] << 1)
    }

    /// The input of the node of `lit`, if it is an input.
    #[inline]
    pub fn input_of(&self, lit: AigLit) -> Option<AigInput> {
        match self.node(lit) {
            AigNode::Input(input) => Some(input),
            _ => None,
        }
    }

    /// How many nodes the graph has, the constant node included.
    #[inline]
    pub fn n_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// How many AND nodes the graph has.
    #[inline]
    pub fn n_ands(&self) -> usize {
        self.n_ands
    }

    /// How many inputs the graph has.
    #[inline]
    pub fn n_inputs(&self) -> usize {
        self.inputs.len()
    }

    /// The value of `lit` when each input has the value `input_value(input)`.
    ///
    /// Visits only the cone of influence of `lit`.
    pub fn eval(&self, lit: AigLit, input_value: &dyn Fn(AigInput) -> bool) -> bool {
        self.eval_many(&[lit], input_value)[0]
    }

    /// The values of `lits` when each input has the value `input_value(input)`.
    ///
    /// Visits only the cone of influence of `lits`, each node once.
    pub fn eval_many(&self, lits: &[AigLit], input_value: &dyn Fn(AigInput) -> bool) -> Vec<bool> {
        let mut memo: FxHashMap<u32, bool> = FxHashMap::default();
        let mut stack = Vec::new();
        lits.iter()
            .map(|&lit| {
                let value = self.eval_node(lit, input_value, usize::MAX, &mut memo, &mut stack);
                value.expect("a walk without bound ends with a value") ^ lit.is_complemented()
            })
            .collect()
    }

    /// The values of `lits` when only some inputs are known (`input_value(input)` is `None` for an
    /// unknown one), if the known inputs fix every one of them; `None` if one of them depends on an
    /// unknown input, or once the walk has evaluated more than `max_nodes` nodes.
    ///
    /// Three-valued (Kleene) evaluation: an AND is false when an operand is false, whatever the
    /// other (whose cone is then not walked), true when both are true, and unknown otherwise. A value
    /// it fixes is the one `eval` gives under every assignment that agrees with the known inputs.
    /// Visits only the cones of `lits`, each node once, in the order of `lits`, and stops at the
    /// first literal not fixed.
    pub fn eval3(
        &self,
        lits: &[AigLit],
        input_value: &dyn Fn(AigInput) -> Option<bool>,
        max_nodes: usize,
    ) -> Option<Vec<bool>> {
        let mut memo: FxHashMap<u32, Option<bool>> = FxHashMap::default();
        let mut stack = Vec::new();
        lits.iter()
            .map(|&lit| match lit.as_const() {
                Some(v) => Some(v),
                None => self
                    .eval_node(lit, input_value, max_nodes, &mut memo, &mut stack)?
                    .map(|v| v ^ lit.is_complemented()),
            })
            .collect()
    }

    /// The value of the node of `lit` (without its complement), two-valued or three-valued (see
    /// `Truth`), by an explicit depth-first walk so that deep graphs cannot overflow the call stack;
    /// `memo` holds the values of the nodes walked so far. `None` once more than `max_nodes` nodes
    /// are in `memo`.
    fn eval_node<V: Truth>(
        &self,
        lit: AigLit,
        input_value: &dyn Fn(AigInput) -> V,
        max_nodes: usize,
        memo: &mut FxHashMap<u32, V>,
        stack: &mut Vec<u32>,
    ) -> Option<V> {
        let root = lit.node_idx() as u32;
        stack.push(root);
        while let Some(&node_idx) = stack.last() {
            if memo.contains_key(&node_idx) {
                stack.pop();
                continue;
            }
            if memo.len() > max_nodes {
                return None;
            }
            let value = match self.node(AigLit(node_idx << 1)) {
                AigNode::Const => V::FALSE,
                AigNode::Input(input) => input_value(input),
                AigNode::And(a, b) => {
                    let seen = |x: AigLit| memo.get(&(x.node_idx() as u32)).map(|&v| v.complement(x.is_complemented()));
                    let (a_value, b_value) = (seen(a), seen(b));
                    match V::and(a_value, b_value) {
                        Some(value) => value,
                        None => {
                            if a_value.is_none() {
                                stack.push(a.node_idx() as u32);
                            }
                            if b_value.is_none() {
                                stack.push(b.node_idx() as u32);
                            }
                            continue;
                        }
                    }
                }
            };
            memo.insert(node_idx, value);
            stack.pop();
        }
        Some(memo[&root])
    }

    fn push(&mut self, node: Node) -> u32 {
        let node_idx = self.nodes.len();
        assert!(node_idx < (1 << 31) - 1, "AIG node overflow");
        let corners = if node.a == INPUT_MARK {
            // An input (the constant is node 0, made by `default`).
            0b10
        } else {
            self.corners_of(AigLit(node.a)) & self.corners_of(AigLit(node.b))
        };
        self.nodes.push(node);
        self.corners.push(corners);
        node_idx as u32
    }

    /// The values of `lit` when every input is false (bit 0) and when every input is true (bit 1).
    #[inline]
    fn corners_of(&self, lit: AigLit) -> u8 {
        let c = self.corners[lit.node_idx()];
        if lit.is_complemented() {
            !c & 0b11
        } else {
            c
        }
    }

    /// The value of `lit` when every input has the value `all`: `eval(lit, &|_| all)` without a walk.
    #[inline]
    pub fn value_at_corner(&self, lit: AigLit, all: bool) -> bool {
        self.corners_of(lit) >> all as u8 & 1 == 1
    }

    /// The operands of the AND node of `lit` (whatever its complement), if it is one.
    #[inline]
    fn and_operands(&self, lit: AigLit) -> Option<(AigLit, AigLit)> {
        match self.node(lit) {
            AigNode::And(x, y) => Some((x, y)),
            _ => None,
        }
    }

    /// The two-level rules for `a ∧ b` that need no new node or only a smaller one.
    ///
    /// Each rule that builds a node recurses on operands of older nodes, so the recursion ends.
    fn rewrite_two_level(&mut self, a: AigLit, b: AigLit) -> Option<AigLit> {
        let ga = self.and_operands(a);
        let gb = self.and_operands(b);
        for (p, q, gp, gq) in [(a, b, ga, gb), (b, a, gb, ga)] {
            if let Some((x, y)) = gp {
                if !p.is_complemented() {
                    // Contradiction: (x∧y)∧¬x = 0. Idempotence: (x∧y)∧x = x∧y.
                    if q == !x || q == !y {
                        return Some(AigLit::FALSE);
                    }
                    if q == x || q == y {
                        return Some(p);
                    }
                } else {
                    // Subsumption: ¬(x∧y)∧¬x = ¬x. Substitution: ¬(x∧y)∧x = x∧¬y.
                    if q == !x || q == !y {
                        return Some(q);
                    }
                    if q == x {
                        return Some(self.and(q, !y));
                    }
                    if q == y {
                        return Some(self.and(q, !x));
                    }
                }
            }
            if let (Some((x, y)), Some((u, v))) = (gp, gq) {
                match (p.is_complemented(), q.is_complemented()) {
                    (false, false) => {
                        // Contradiction: (x∧y)∧(u∧v) = 0 when an operand of one is the negation of one
                        // of the other.
                        if x == !u || x == !v || y == !u || y == !v {
                            return Some(AigLit::FALSE);
                        }
                    }
                    (false, true) => {
                        // Subsumption: (x∧y)∧¬(u∧v) = x∧y when x∧y already falsifies u or v.
                        if u == !x || u == !y || v == !x || v == !y {
                            return Some(p);
                        }
                    }
                    (true, true) => {
                        // Resolution: ¬(x∧y)∧¬(x∧¬y) = ¬x.
                        for (shared, rest) in [(x, y), (y, x)] {
                            if (u == shared && v == !rest) || (v == shared && u == !rest) {
                                return Some(!shared);
                            }
                        }
                    }
                    (true, false) => {}
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A random Boolean expression over a few inputs.
    #[derive(Clone, Debug)]
    enum Expr {
        Input(u32),
        Const(bool),
        Not(Box<Expr>),
        And(Box<Expr>, Box<Expr>),
        Or(Box<Expr>, Box<Expr>),
        Xor(Box<Expr>, Box<Expr>),
        Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    }

    const N_INPUTS: u32 = 4;

    fn expr() -> impl Strategy<Value = Expr> {
        let leaf = prop_oneof![(0..N_INPUTS).prop_map(Expr::Input), any::<bool>().prop_map(Expr::Const)];
        leaf.prop_recursive(6, 64, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|e| Expr::Not(Box::new(e))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::And(Box::new(a), Box::new(b))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Or(Box::new(a), Box::new(b))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Xor(Box::new(a), Box::new(b))),
                (inner.clone(), inner.clone(), inner).prop_map(|(c, t, e)| Expr::Ite(
                    Box::new(c),
                    Box::new(t),
                    Box::new(e)
                )),
            ]
        })
    }

    fn build(aig: &mut Aig, inputs: &[AigLit], e: &Expr) -> AigLit {
        match e {
            Expr::Input(i) => inputs[*i as usize],
            Expr::Const(b) => AigLit::constant(*b),
            Expr::Not(a) => !build(aig, inputs, a),
            Expr::And(a, b) => {
                let (a, b) = (build(aig, inputs, a), build(aig, inputs, b));
                aig.and(a, b)
            }
            Expr::Or(a, b) => {
                let (a, b) = (build(aig, inputs, a), build(aig, inputs, b));
                aig.or(a, b)
            }
            Expr::Xor(a, b) => {
                let (a, b) = (build(aig, inputs, a), build(aig, inputs, b));
                aig.xor(a, b)
            }
            Expr::Ite(c, t, e) => {
                let (c, t, e) = (build(aig, inputs, c), build(aig, inputs, t), build(aig, inputs, e));
                aig.ite(c, t, e)
            }
        }
    }

    fn eval_expr(e: &Expr, bits: u32) -> bool {
        match e {
            Expr::Input(i) => bits >> i & 1 == 1,
            Expr::Const(b) => *b,
            Expr::Not(a) => !eval_expr(a, bits),
            Expr::And(a, b) => eval_expr(a, bits) && eval_expr(b, bits),
            Expr::Or(a, b) => eval_expr(a, bits) || eval_expr(b, bits),
            Expr::Xor(a, b) => eval_expr(a, bits) ^ eval_expr(b, bits),
            Expr::Ite(c, t, e) => {
                if eval_expr(c, bits) {
                    eval_expr(t, bits)
                } else {
                    eval_expr(e, bits)
                }
            }
        }
    }

    /// Checks that `build` of `e` agrees with `e` on every input assignment and that no AND node
    /// breaks the graph invariants.
    fn check(e: &Expr) {
        let mut aig = Aig::default();
        let inputs: Vec<AigLit> = (0..N_INPUTS).map(|_| aig.new_input()).collect();
        let lit = build(&mut aig, &inputs, e);
        for bits in 0..1u32 << N_INPUTS {
            let got = aig.eval(lit, &|input| bits >> input.0 & 1 == 1);
            assert_eq!(got, eval_expr(e, bits), "{e:?} under {bits:04b}");
        }
        for node_idx in 0..aig.n_nodes() {
            if let AigNode::And(x, y) = aig.node(AigLit((node_idx as u32) << 1)) {
                assert!(!x.is_const() && !y.is_const() && x.regular() != y.regular() && x < y);
                assert!(x.node_idx() < node_idx && y.node_idx() < node_idx);
            }
        }
    }

    /// A random circuit over four inputs: the constants, the inputs and `n` more literals, each an
    /// AND or XOR of two earlier ones (possibly complemented), drawn from `seed`.
    fn random_circuit(mut seed: u64, n: usize) -> (Aig, Vec<AigLit>) {
        let mut aig = Aig::default();
        let mut lits: Vec<AigLit> = vec![AigLit::FALSE, AigLit::TRUE];
        lits.extend((0..4).map(|_| aig.new_input()));
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..n {
            let (a, b) = (lits[next(lits.len())], lits[next(lits.len())]);
            let (a, b) = (if next(2) == 0 { a } else { !a }, if next(2) == 0 { b } else { !b });
            let made = if next(3) == 0 { aig.xor(a, b) } else { aig.and(a, b) };
            lits.push(made);
        }
        (aig, lits)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn rewriting_preserves_semantics(e in expr()) {
            check(&e);
        }
    }

    #[test]
    fn strash_returns_the_same_literal() {
        let mut aig = Aig::default();
        let (x, y) = (aig.new_input(), aig.new_input());
        let a = aig.and(x, !y);
        assert_eq!(aig.and(!y, x), a);
        assert_eq!(aig.n_ands(), 1);
        assert_eq!(aig.xor(x, y), aig.xor(y, x));
        assert_eq!(aig.xor(x, y), !aig.xnor(x, y));
        assert_eq!(aig.n_ands(), 4);
    }

    #[test]
    fn constants_and_local_rules_make_no_nodes() {
        let mut aig = Aig::default();
        let x = aig.new_input();
        let (t, f) = (AigLit::TRUE, AigLit::FALSE);
        assert_eq!(aig.and(x, t), x);
        assert_eq!(aig.and(f, x), f);
        assert_eq!(aig.and(x, x), x);
        assert_eq!(aig.and(x, !x), f);
        assert_eq!(aig.or(x, t), t);
        assert_eq!(aig.or(x, f), x);
        assert_eq!(aig.xor(x, t), !x);
        assert_eq!(aig.xor(x, !x), t);
        assert_eq!(aig.ite(t, x, f), x);
        assert_eq!(aig.ite(x, t, f), x);
        assert_eq!(aig.ite(x, f, t), !x);
        assert_eq!(aig.implies(f, x), t);
        assert_eq!(aig.and_all([t, x, t]), x);
        assert_eq!(aig.and_all([]), t);
        assert_eq!(aig.or_all([f, f]), f);
        assert_eq!(aig.n_ands(), 0);
    }

    #[test]
    fn two_level_rules() {
        let mut aig = Aig::default();
        let (x, y) = (aig.new_input(), aig.new_input());
        let xy = aig.and(x, y);
        assert_eq!(aig.and(xy, !x), AigLit::FALSE, "contradiction");
        assert_eq!(aig.and(xy, y), xy, "idempotence");
        assert_eq!(aig.and(!xy, !y), !y, "subsumption");
        let x_not_y = aig.and(x, !y);
        assert_eq!(aig.and(!xy, x), x_not_y, "substitution");
        assert_eq!(aig.and(!xy, !x_not_y), !x, "resolution");
        assert_eq!(aig.n_ands(), 2);
    }

    #[test]
    fn the_values_with_all_inputs_alike_are_those_a_walk_computes() {
        // Random circuits over four inputs, each node checked against `eval`.
        let (aig, lits) = random_circuit(0x9e37_79b9_7f4a_7c15, 500);
        for &l in &lits {
            for all in [false, true] {
                assert_eq!(aig.value_at_corner(l, all), aig.eval(l, &|_| all), "{l:?} with every input {all}");
                assert_eq!(aig.value_at_corner(!l, all), !aig.eval(l, &|_| all));
            }
        }
    }

    #[test]
    fn three_valued_values_are_those_of_every_completion() {
        // Random circuits over four inputs, each literal under every partial assignment: a value
        // `eval3` fixes is the value `eval` gives under every assignment that agrees with it.
        let (mut aig, lits) = random_circuit(0x2545_f491_4f6c_dd1d, 300);
        let (mut fixed, mut open) = (0, 0);
        for known in 0..16u32 {
            for values in (0..16u32).filter(|v| v & !known == 0) {
                let partial = |input: AigInput| (known >> input.0 & 1 == 1).then_some(values >> input.0 & 1 == 1);
                for &l in &lits {
                    let Some(got) = aig.eval3(&[l], &partial, usize::MAX) else {
                        open += 1;
                        continue;
                    };
                    fixed += 1;
                    for rest in (0..16u32).filter(|r| r & known == 0) {
                        let bits = values | rest;
                        assert_eq!(got, vec![aig.eval(l, &|input| bits >> input.0 & 1 == 1)], "{l:?} under {bits:04b}");
                    }
                }
            }
        }
        // Every input known: the two-valued values, all literals in one walk.
        for bits in 0..16u32 {
            let value = |input: AigInput| bits >> input.0 & 1 == 1;
            assert_eq!(aig.eval3(&lits, &|input| Some(value(input)), usize::MAX), Some(aig.eval_many(&lits, &value)));
        }
        assert!(fixed > 0 && open > 0, "both outcomes occur ({fixed} fixed, {open} open)");
        // A false operand fixes an AND whatever the other; a walk past its bound gives up.
        let (x, y) = (aig.input_lit(AigInput(0)), aig.input_lit(AigInput(1)));
        let xy = aig.and(x, y);
        assert_eq!(aig.eval3(&[xy], &|input| (input.0 == 1).then_some(false), usize::MAX), Some(vec![false]));
        assert_eq!(aig.eval3(&[xy], &|input| (input.0 == 1).then_some(true), usize::MAX), None);
        assert_eq!(aig.eval3(&[xy], &|_| Some(true), 0), None);
        assert_eq!(aig.eval3(&[AigLit::TRUE, x], &|_| Some(false), 0), Some(vec![true, false]));
    }

    #[test]
    fn eval_deep_chain() {
        let mut aig = Aig::default();
        let inputs: Vec<AigLit> = (0..100_000).map(|_| aig.new_input()).collect();
        let all = aig.and_all(inputs.iter().copied());
        assert!(aig.eval(all, &|_| true));
        assert!(!aig.eval(all, &|input| input.0 != 7));
        assert_eq!(aig.input_of(inputs[5]), Some(AigInput(5)));
        assert_eq!(aig.input_lit(AigInput(5)), inputs[5]);
        assert_eq!(aig.node(AigLit::TRUE), AigNode::Const);
    }
}
