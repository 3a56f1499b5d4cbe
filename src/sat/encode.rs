//! Lazy Tseitin encoding of `Aig` cones into the CNF of one `SatBackend`, and model read-back.
//!
//! An `Encoder` belongs to one solver: it remembers which variable stands for each encoded node.
//! Only the cone of influence of the literals actually requested is encoded, each node once.
//! AND nodes are Tseitin-encoded with 3 clauses, except XOR and multiplexer shapes, which get their
//! own direct clauses (4 and 6) over the shape's operands.
//! A fresh `Encoder` with a fresh solver can re-encode any literal of the same `Aig`.
//! Invariant: an `Encoder` is only ever used with the solver it first encoded into.

use super::aig::{Aig, AigInput, AigLit, AigNode};
use super::bv::Bv;
use super::{Lit, SatBackend, Var};

/// Maps the nodes of an `Aig` to the variables of one solver, encoding them on demand.
#[derive(Clone, Debug, Default)]
pub struct Encoder {
    /// The variable number of each node, 0 while the node is not encoded; indexed by node.
    vars: Vec<u32>,
    /// The literal fixed to true by a unit clause, created on first use.
    true_lit: Option<Lit>,
    n_vars: u32,
    n_clauses: u64,
    /// The work list of `encode_node`, kept to spare allocations.
    stack: Vec<u32>,
}

/// The gate an AND node is encoded as.
#[derive(Clone, Copy, Debug)]
enum Gate {
    /// `a ∧ b`: 3 clauses.
    And(AigLit, AigLit),
    /// `¬ite(c, t, e)`, the shape `¬(c∧t) ∧ ¬(¬c∧e)` that `Aig::ite` and `Aig::xor` build: 6 clauses
    /// (4 when `t = ¬e`, a XOR) and one variable instead of 9 clauses and three variables.
    NotIte(AigLit, AigLit, AigLit),
}

impl Gate {
    fn operands(self) -> impl Iterator<Item = AigLit> {
        let (ops, n) = match self {
            Gate::And(a, b) => ([a, b, a], 2),
            Gate::NotIte(c, t, e) => ([c, t, e], 3),
        };
        ops.into_iter().take(n)
    }
}

/// `(c, t, e)` if the AND of `a` and `b` is `¬(c∧t) ∧ ¬(¬c∧e)`, that is `¬ite(c, t, e)`.
fn ite_pattern(aig: &Aig, a: AigLit, b: AigLit) -> Option<(AigLit, AigLit, AigLit)> {
    if !a.is_complemented() || !b.is_complemented() {
        return None;
    }
    let (AigNode::And(x0, x1), AigNode::And(y0, y1)) = (aig.node(a), aig.node(b)) else {
        return None;
    };
    for (c, t) in [(x0, x1), (x1, x0)] {
        for (not_c, e) in [(y0, y1), (y1, y0)] {
            if c == !not_c {
                return Some((c, t, e));
            }
        }
    }
    None
}

impl Encoder {
    /// The solver literal equivalent to `lit`, encoding its cone as needed: an input gets a free
    /// variable, an AND node a variable and 3 Tseitin clauses, a constant the shared true literal.
    /// An AND node of the shape `¬(c∧t) ∧ ¬(¬c∧e)` (the XORs and multiplexers of the bit-vector
    /// circuits) is encoded directly as `¬ite(c, t, e)` over `c`, `t` and `e`, skipping its inner
    /// AND nodes unless something else needs them.
    pub fn lit<B: SatBackend + ?Sized>(&mut self, aig: &Aig, solver: &mut B, lit: AigLit) -> Lit {
        if let Some(value) = lit.as_const() {
            let true_lit = self.true_lit(solver);
            return if value { true_lit } else { !true_lit };
        }
        let var = self.encode_node(aig, solver, lit.node_idx());
        Var::new(var).lit(!lit.is_complemented())
    }

    /// The solver literals of the bits of `bv`, least significant first.
    pub fn bv_lits<B: SatBackend + ?Sized>(&mut self, aig: &Aig, solver: &mut B, bv: &Bv) -> Vec<Lit> {
        bv.bits().iter().map(|&bit| self.lit(aig, solver, bit)).collect()
    }

    /// Adds `lit` as a unit clause; it then holds in every later solve.
    pub fn assert<B: SatBackend + ?Sized>(&mut self, aig: &Aig, solver: &mut B, lit: AigLit) {
        if lit == AigLit::TRUE {
            return;
        }
        let res = self.lit(aig, solver, lit);
        self.add_clause(solver, &[res]);
    }

    /// Adds `guard ⇒ lit`: `lit` holds in the solves that assume `guard`, and is switched off by
    /// assuming `¬guard`. This is how the full-incremental mode adds a path segment once.
    pub fn assert_under<B: SatBackend + ?Sized>(&mut self, aig: &Aig, solver: &mut B, guard: Lit, lit: AigLit) {
        if lit == AigLit::TRUE {
            return;
        }
        let res = self.lit(aig, solver, lit);
        self.add_clause(solver, &[!guard, res]);
    }

    /// Whether the node of `lit` has a variable (constants count as encoded).
    pub fn is_encoded(&self, lit: AigLit) -> bool {
        lit.is_const() || self.vars.get(lit.node_idx()).is_some_and(|&v| v != 0)
    }

    /// The value of `lit` in the model of the last `Sat` answer of `solver`.
    ///
    /// It is evaluated through the `Aig` from the inputs' values in the model, so every literal has
    /// a value; an input that was never encoded, or that the model leaves open, reads as false.
    pub fn value<B: SatBackend + ?Sized>(&self, aig: &Aig, solver: &B, lit: AigLit) -> bool {
        aig.eval(lit, &|input| self.input_value(aig, solver, input))
    }

    /// The values of `lits` in the model of the last `Sat` answer of `solver`, as `value` reads
    /// them, by one walk of their cones (each node once, however many of them share it).
    pub fn values<B: SatBackend + ?Sized>(&self, aig: &Aig, solver: &B, lits: &[AigLit]) -> Vec<bool> {
        aig.eval_many(lits, &|input| self.input_value(aig, solver, input))
    }

    /// The value of `bv` in the model of the last `Sat` answer of `solver`, as `value` reads bits.
    pub fn bv_value<B: SatBackend + ?Sized>(&self, aig: &Aig, solver: &B, bv: &Bv) -> u128 {
        bv.eval(aig, &|input| self.input_value(aig, solver, input))
    }

    /// The value of `input` in the model of the last `Sat` answer; false if it is not encoded.
    pub fn input_value<B: SatBackend + ?Sized>(&self, aig: &Aig, solver: &B, input: AigInput) -> bool {
        match self.vars.get(aig.input_lit(input).node_idx()) {
            Some(&var) if var != 0 => solver.value(Var::new(var).pos()).unwrap_or(false),
            _ => false,
        }
    }

    /// How many variables this encoder created.
    pub fn n_vars(&self) -> u32 {
        self.n_vars
    }

    /// How many clauses this encoder added.
    pub fn n_clauses(&self) -> u64 {
        self.n_clauses
    }

    fn true_lit<B: SatBackend + ?Sized>(&mut self, solver: &mut B) -> Lit {
        if let Some(res) = self.true_lit {
            return res;
        }
        let res = self.new_var(solver).pos();
        self.add_clause(solver, &[res]);
        self.true_lit = Some(res);
        res
    }

    /// The variable of node `root`, encoding the not yet encoded part of its cone, children first.
    fn encode_node<B: SatBackend + ?Sized>(&mut self, aig: &Aig, solver: &mut B, root: usize) -> u32 {
        if let Some(&var) = self.vars.get(root) {
            if var != 0 {
                return var;
            }
        }
        if self.vars.len() < aig.n_nodes() {
            self.vars.resize(aig.n_nodes(), 0);
        }
        let mut stack = std::mem::take(&mut self.stack);
        stack.push(root as u32);
        while let Some(&node_idx) = stack.last() {
            let node_idx = node_idx as usize;
            if self.vars[node_idx] != 0 {
                stack.pop();
                continue;
            }
            match aig.node(AigLit::from_raw((node_idx as u32) << 1)) {
                AigNode::Const => unreachable!("the constant node is never an AND operand"),
                AigNode::Input(_) => {
                    self.vars[node_idx] = self.new_var(solver).index();
                    stack.pop();
                }
                AigNode::And(a, b) => {
                    let gate = ite_pattern(aig, a, b).map_or(Gate::And(a, b), |(c, t, e)| Gate::NotIte(c, t, e));
                    let mut ready = true;
                    for operand in gate.operands() {
                        if self.vars[operand.node_idx()] == 0 {
                            stack.push(operand.node_idx() as u32);
                            ready = false;
                        }
                    }
                    if !ready {
                        continue;
                    }
                    let out = self.new_var(solver);
                    self.vars[node_idx] = out.index();
                    self.add_gate_clauses(solver, out.pos(), gate);
                    stack.pop();
                }
            }
        }
        self.stack = stack;
        self.vars[root]
    }

    /// The solver literal of an operand whose node is encoded.
    #[inline]
    fn encoded(&self, lit: AigLit) -> Lit {
        Var::new(self.vars[lit.node_idx()]).lit(!lit.is_complemented())
    }

    /// The clauses of `out ⇔ gate`.
    fn add_gate_clauses<B: SatBackend + ?Sized>(&mut self, solver: &mut B, out: Lit, gate: Gate) {
        match gate {
            Gate::And(a, b) => {
                let (a, b) = (self.encoded(a), self.encoded(b));
                self.add_clause(solver, &[!out, a]);
                self.add_clause(solver, &[!out, b]);
                self.add_clause(solver, &[out, !a, !b]);
            }
            Gate::NotIte(c, t, e) if t == !e => {
                // out ⇔ c ⊕ t.
                let (c, t) = (self.encoded(c), self.encoded(t));
                self.add_clause(solver, &[!out, c, t]);
                self.add_clause(solver, &[!out, !c, !t]);
                self.add_clause(solver, &[out, !c, t]);
                self.add_clause(solver, &[out, c, !t]);
            }
            Gate::NotIte(c, t, e) => {
                // mux ⇔ ite(c, t, e) with mux = ¬out; the last two clauses are redundant but let
                // propagation see that equal branches fix the result.
                let (c, t, e, mux) = (self.encoded(c), self.encoded(t), self.encoded(e), !out);
                self.add_clause(solver, &[!c, !t, mux]);
                self.add_clause(solver, &[!c, t, !mux]);
                self.add_clause(solver, &[c, !e, mux]);
                self.add_clause(solver, &[c, e, !mux]);
                self.add_clause(solver, &[!t, !e, mux]);
                self.add_clause(solver, &[t, e, !mux]);
            }
        }
    }

    fn new_var<B: SatBackend + ?Sized>(&mut self, solver: &mut B) -> Var {
        self.n_vars += 1;
        solver.new_var()
    }

    fn add_clause<B: SatBackend + ?Sized>(&mut self, solver: &mut B, lits: &[Lit]) {
        self.n_clauses += 1;
        solver.add_clause(lits);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::CheckedBackend;
    use super::super::SatResult;
    use super::*;

    #[test]
    fn constants_share_one_true_literal() {
        let (aig, mut solver, mut enc) = (Aig::default(), CheckedBackend::default(), Encoder::default());
        let t = enc.lit(&aig, &mut solver, AigLit::TRUE);
        assert_eq!(enc.lit(&aig, &mut solver, AigLit::FALSE), !t);
        assert_eq!((enc.n_vars(), enc.n_clauses()), (1, 1));
        assert_eq!(solver.solve(&[]), SatResult::Sat);
        assert_eq!(solver.value(t), Some(true));
        assert_eq!(solver.solve(&[!t]), SatResult::Unsat);
    }

    #[test]
    fn encodes_only_the_cone() {
        let mut aig = Aig::default();
        let (x, y, z) = (aig.new_input(), aig.new_input(), aig.new_input());
        let xy = aig.and(x, y);
        let yz = aig.and(y, !z);
        let top = aig.or(xy, yz);
        let (mut solver, mut enc) = (CheckedBackend::default(), Encoder::default());
        enc.lit(&aig, &mut solver, xy);
        assert_eq!((enc.n_vars(), enc.n_clauses()), (3, 3), "x, y and x∧y");
        assert!(enc.is_encoded(x) && enc.is_encoded(!xy) && !enc.is_encoded(z) && !enc.is_encoded(yz));
        enc.lit(&aig, &mut solver, !top);
        assert_eq!((enc.n_vars(), enc.n_clauses()), (6, 9), "z, y∧¬z and the or; x, y, x∧y reused");
        assert_eq!((solver.n_vars(), solver.n_clauses()), (6, 9));
    }

    #[test]
    fn xor_and_mux_shapes_get_direct_clauses() {
        let mut aig = Aig::default();
        let (c, t, e) = (aig.new_input(), aig.new_input(), aig.new_input());
        let x = aig.xor(c, t);
        let m = aig.ite(c, t, e);
        let (mut solver, mut enc) = (CheckedBackend::default(), Encoder::default());
        let x_lit = enc.lit(&aig, &mut solver, x);
        assert_eq!((enc.n_vars(), enc.n_clauses()), (3, 4), "c, t and the xor");
        let m_lit = enc.lit(&aig, &mut solver, !m);
        assert_eq!((enc.n_vars(), enc.n_clauses()), (5, 10), "e and the mux");
        assert!(!enc.is_encoded(aig.and(c, t)), "inner AND nodes stay out");
        let inputs = [c, t, e].map(|l| enc.lit(&aig, &mut solver, l));
        for bits in 0..8u32 {
            let values = [0, 1, 2].map(|i| bits >> i & 1 == 1);
            let assumptions: Vec<Lit> = inputs.iter().zip(values).map(|(&l, v)| if v { l } else { !l }).collect();
            assert_eq!(solver.solve(&assumptions), SatResult::Sat);
            let [cv, tv, ev] = values;
            assert_eq!(solver.value(x_lit), Some(cv ^ tv));
            assert_eq!(solver.value(m_lit), Some(!(if cv { tv } else { ev })));
        }
    }

    #[test]
    fn model_read_back_covers_unencoded_nodes() {
        let mut aig = Aig::default();
        let x = Bv::input(&mut aig, 8);
        let y = Bv::input(&mut aig, 8);
        let sum = x.add(&mut aig, &y);
        let ten = Bv::constant(10, 8);
        let is_ten = sum.eq(&mut aig, &ten);
        let x_is_3 = x.eq(&mut aig, &Bv::constant(3, 8));
        let (mut solver, mut enc) = (CheckedBackend::default(), Encoder::default());
        enc.assert(&aig, &mut solver, is_ten);
        enc.assert(&aig, &mut solver, x_is_3);
        assert_eq!(solver.solve(&[]), SatResult::Sat);
        assert_eq!(enc.bv_value(&aig, &solver, &y), 7);
        // `sum` itself was encoded through `is_ten`; `y - x` never was, yet it has a value.
        let diff = y.sub(&mut aig, &x);
        assert!(!enc.is_encoded(diff.bit(2)));
        assert_eq!(enc.bv_value(&aig, &solver, &diff), 4);
        assert!(enc.value(&aig, &solver, is_ten));
    }

    #[test]
    fn full_incremental_activation_literals() {
        let mut aig = Aig::default();
        let x = Bv::input(&mut aig, 16);
        let c1 = x.ult(&mut aig, &Bv::constant(100, 16));
        let c2 = x.ugt(&mut aig, &Bv::constant(200, 16));
        let (mut solver, mut enc) = (CheckedBackend::default(), Encoder::default());
        // Segment 1: x < 100, guarded by a1.
        let a1 = solver.new_var().pos();
        enc.assert_under(&aig, &mut solver, a1, c1);
        assert_eq!(solver.solve(&[a1]), SatResult::Sat);
        assert!(enc.bv_value(&aig, &solver, &x) < 100);
        // Segment 2 on the same path: x > 200 contradicts segment 1.
        let a2 = solver.new_var().pos();
        enc.assert_under(&aig, &mut solver, a2, c2);
        assert_eq!(solver.solve(&[a1, a2]), SatResult::Unsat);
        assert!(solver.failed(a2));
        // Backtrack: disable segment 1, keep segment 2.
        assert_eq!(solver.solve(&[!a1, a2]), SatResult::Sat);
        assert!(enc.bv_value(&aig, &solver, &x) > 200);
        assert_eq!(solver.solve(&[a1, !a2]), SatResult::Sat);
        assert!(enc.bv_value(&aig, &solver, &x) < 100);
    }

    #[test]
    fn fresh_solver_reencodes_a_prefix() {
        let mut aig = Aig::default();
        let x = Bv::input(&mut aig, 16);
        let y = Bv::input(&mut aig, 16);
        let prod = x.mul(&mut aig, &y);
        let path = [prod.eq(&mut aig, &Bv::constant(391, 16)), x.ugt(&mut aig, &Bv::constant(1, 16))];
        let extra = x.ult(&mut aig, &y);
        let check = |lits: &[AigLit]| {
            let (mut solver, mut enc) = (CheckedBackend::default(), Encoder::default());
            for &lit in lits {
                enc.assert(&aig, &mut solver, lit);
            }
            assert_eq!(solver.solve(&[]), SatResult::Sat);
            let (xv, yv) = (enc.bv_value(&aig, &solver, &x), enc.bv_value(&aig, &solver, &y));
            assert_eq!(xv * yv % (1 << 16), 391);
            assert!(lits.iter().all(|&l| enc.value(&aig, &solver, l)));
            (xv, yv)
        };
        // 391 = 17 * 23; the second solver re-encodes the prefix and adds a constraint.
        check(&path);
        let (xv, yv) = check(&[path[0], path[1], extra]);
        assert!(xv < yv);
    }
}
