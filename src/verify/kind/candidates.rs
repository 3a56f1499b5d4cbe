//! Candidate invariants: templates over the state variables at a cut point, their circuits, and
//! whether a sampled state satisfies them.
//!
//! What generates them is elsewhere (`templates`, `sampled`, `disjunctive`); what proves them is
//! Houdini (`houdini`) or algebra (`polys`).

use std::collections::BTreeSet;

use crate::base::bits::{self, mask};
use crate::sat::{Aig, AigLit, Bv};
use crate::symex::semantics::Repr;
use crate::verify::poly::PolyEq;
use crate::verify::sample::Linear;
use crate::verify::ts::StateVar;

use super::Engine;

/// A candidate invariant: a template instance at a cut point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Candidate {
    /// The cut point it holds at.
    pub(super) cut: u32,
    pub(super) kind: Template,
    /// Whether the template's first variable is signed (for the bounds).
    pub(super) signed: bool,
}

/// Templates over state variables (indices into `Ts::vars`), compared in their own type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Template {
    /// A signed variable is not negative.
    NonNeg(usize),
    /// The lowest bit of a variable is 1 (odd) or 0 (even).
    Parity(usize, bool),
    /// The `t` lowest bits of a variable are those of a constant (`x ≡ c (mod 2^t)`).
    LowBits(usize, u32, u64),
    /// A variable is at most a constant, in its signedness.
    AtMost(usize, i128),
    /// A variable is at least a constant, in its signedness.
    AtLeast(usize, i128),
    /// Two variables of one width are equal.
    Eq(usize, usize),
    /// `a <= b`, signed or not as both variables.
    Le(usize, usize, bool),
    /// `a < b`, signed or not as both variables.
    Lt(usize, usize, bool),
    /// `a + b == s`, modulo the common width.
    Sum(usize, usize, usize),
    /// The linear constraint `Engine::linear[i]` in 64 bits (each variable sign- or zero-extended as
    /// its type): an equality modulo 2^64, a bound `≤ 0` signed (of variables of at most 32 bits and
    /// small coefficients: exact).
    Linear(usize),
    /// The polynomial equality `Engine::polys[i]`, modulo 2^bits of its variables (proven by
    /// `verify::poly`, not by Houdini).
    Poly(usize),
    /// The disjunction `Engine::disjunctions[i]` of two one-variable templates.
    Or(usize),
}

/// What candidates' circuits refer to besides the state.
struct Tables<'e> {
    linear: &'e [Linear],
    polys: &'e [PolyEq],
    mul_order: &'e BTreeSet<(usize, usize)>,
    disjunctions: &'e [(Candidate, Candidate)],
}

impl Template {
    /// The template's first variable (`None` for an affine equality, whose variables are elsewhere).
    pub(super) fn first(self) -> Option<usize> {
        Some(match self {
            Template::NonNeg(a)
            | Template::Parity(a, _)
            | Template::LowBits(a, _, _)
            | Template::AtMost(a, _)
            | Template::AtLeast(a, _)
            | Template::Eq(a, _)
            | Template::Le(a, _, _)
            | Template::Lt(a, _, _)
            | Template::Sum(a, _, _) => a,
            Template::Linear(_) | Template::Poly(_) | Template::Or(_) => return None,
        })
    }
}

impl Candidate {
    fn eval(&self, aig: &mut Aig, vars: &[Bv], tables: &Tables, state: &[StateVar]) -> AigLit {
        let linear = tables.linear;
        match self.kind {
            Template::Or(i) => {
                let (a, b) = tables.disjunctions[i];
                let a = a.eval(aig, vars, tables, state);
                let b = b.eval(aig, vars, tables, state);
                aig.or(a, b)
            }
            Template::Poly(i) => {
                // `Σ_{k>0} k·m == Σ_{k<0} -k·m` modulo 2^bits, each product of two variables in the
                // order the program multiplies them (the same circuit as the program's, shared).
                let eq = &tables.polys[i];
                let w = eq.bits;
                let (mut pos, mut neg) = (Bv::zero(w), Bv::zero(w));
                for (m, k) in &eq.terms {
                    let mut ops = m.clone();
                    if let [a, b] = ops[..] {
                        if tables.mul_order.contains(&(b, a)) && !tables.mul_order.contains(&(a, b)) {
                            ops = vec![b, a];
                        }
                    }
                    let scale = Bv::constant(k.unsigned_abs() & mask(w), w);
                    let term = match ops.split_first() {
                        None => scale,
                        Some((&first, rest)) => {
                            let ext = |v: usize| {
                                let r = state[v].repr;
                                match (r.bits < w, r.signed) {
                                    (false, _) => vars[v].clone(),
                                    (true, true) => vars[v].sext(w),
                                    (true, false) => vars[v].zext(w),
                                }
                            };
                            let t = rest.iter().fold(ext(first), |t, &v| t.mul(aig, &ext(v)));
                            if k.unsigned_abs() == 1 {
                                t
                            } else {
                                t.mul(aig, &scale)
                            }
                        }
                    };
                    if *k > 0 {
                        pos = pos.add(aig, &term);
                    } else {
                        neg = neg.add(aig, &term);
                    }
                }
                pos.eq(aig, &neg)
            }
            Template::Linear(i) => {
                let eq = &linear[i];
                // In 64 bits, or fewer when the sum of the terms' magnitudes fits: the same
                // constraint, a smaller circuit.
                let w = linear_width(eq, state);
                let mut sum = Bv::constant(eq.constant as u128 & mask(w), w);
                for &(v, k) in &eq.terms {
                    let x = if state[v].repr.signed { vars[v].sext(w) } else { vars[v].zext(w) };
                    let term = x.mul(aig, &Bv::constant(k as u128 & mask(w), w));
                    sum = sum.add(aig, &term);
                }
                if eq.at_most {
                    sum.sle(aig, &Bv::zero(w))
                } else {
                    sum.is_zero(aig)
                }
            }
            Template::NonNeg(a) => !vars[a].bit(vars[a].width() - 1),
            Template::Parity(a, odd) => vars[a].bit(0).xor_complement(!odd),
            Template::LowBits(a, t, low) => vars[a].trunc(t).eq(aig, &Bv::constant(low as u128, t)),
            Template::AtMost(a, c) | Template::AtLeast(a, c) => {
                let v = &vars[a];
                let k = Bv::constant(c as u128 & mask(v.width()), v.width());
                let signed = self.signed;
                match (matches!(self.kind, Template::AtMost(..)), signed) {
                    (true, true) => v.sle(aig, &k),
                    (true, false) => v.ule(aig, &k),
                    (false, true) => k.sle(aig, v),
                    (false, false) => k.ule(aig, v),
                }
            }
            Template::Eq(a, b) => vars[a].eq(aig, &vars[b]),
            Template::Le(a, b, signed) if signed => vars[a].sle(aig, &vars[b]),
            Template::Le(a, b, _) => vars[a].ule(aig, &vars[b]),
            Template::Lt(a, b, signed) if signed => vars[a].slt(aig, &vars[b]),
            Template::Lt(a, b, _) => vars[a].ult(aig, &vars[b]),
            Template::Sum(a, b, s) => {
                let sum = vars[a].add(aig, &vars[b]);
                sum.eq(aig, &vars[s])
            }
        }
    }
}

impl Engine<'_, '_> {
    /// The conjunction of the invariants for a state (`pc`, `vars`).
    pub(super) fn holds(&mut self, invariants: &[Candidate], pc: &Bv, vars: &[Bv]) -> AigLit {
        let mut res = AigLit::TRUE;
        for c in invariants {
            let l = self.candidate_holds(c, pc, vars);
            res = self.aig.and(res, l);
        }
        res
    }

    /// `pc` at the candidate's cut point implies the candidate.
    pub(super) fn candidate_holds(&mut self, c: &Candidate, pc: &Bv, vars: &[Bv]) -> AigLit {
        let at = pc.eq(&mut self.aig, &self.ts.pc_const(c.cut));
        let tables = Tables {
            linear: &self.linear,
            polys: &self.polys,
            mul_order: &self.mul_order,
            disjunctions: &self.disjunctions,
        };
        let v = c.eval(&mut self.aig, vars, &tables, &self.ts.vars);
        self.aig.implies(at, v)
    }

    /// The state variables (indices into `Ts::vars`) in scope at cut point `cut`, but for 1-bit
    /// ones and floating ones: the globals and the variables of its context and of its callers.
    ///
    /// Every candidate (templates, simulated runs' equalities, bounds and polynomials,
    /// disjunctions) is built over these only: a floating variable's value is an IEEE bit pattern,
    /// over which an integer relation would be a different claim than its C text says (`x <= y`
    /// of two patterns is not `x <= y` of the values). Left out, it is unconstrained in the step
    /// case, which is sound.
    pub(super) fn scope(&self, cut: u32) -> Vec<usize> {
        let ts = &self.ts;
        let ctx = ts.nodes[ts.cuts[cut as usize] as usize].ctx;
        let mut chain = vec![ctx];
        let mut c = ts.ctxs[ctx as usize].parent;
        while let Some(p) = c {
            chain.push(p);
            c = ts.ctxs[p as usize].parent;
        }
        (0..ts.vars.len())
            .filter(|&i| ts.vars[i].ctx.is_none_or(|c| chain.contains(&c)))
            .filter(|&i| ts.vars[i].repr.bits > 1 && ts.vars[i].is_integer())
            .collect()
    }

    /// The state variables candidate `c` names (with repeats).
    #[cfg(test)]
    pub(super) fn candidate_vars(&self, c: &Candidate) -> Vec<usize> {
        match c.kind {
            Template::NonNeg(a)
            | Template::Parity(a, _)
            | Template::LowBits(a, _, _)
            | Template::AtMost(a, _)
            | Template::AtLeast(a, _) => vec![a],
            Template::Eq(a, b) | Template::Le(a, b, _) | Template::Lt(a, b, _) => vec![a, b],
            Template::Sum(a, b, s) => vec![a, b, s],
            Template::Linear(i) => self.linear[i].terms.iter().map(|&(v, _)| v).collect(),
            Template::Poly(i) => self.polys[i].terms.iter().flat_map(|(m, _)| m.iter().copied()).collect(),
            Template::Or(i) => {
                let (a, b) = self.disjunctions[i];
                let mut res = self.candidate_vars(&a);
                res.extend(self.candidate_vars(&b));
                res
            }
        }
    }

    /// A candidate at `cut` for the linear constraint `eq` (`Template::Linear`).
    pub(super) fn linear_candidate(&mut self, cut: u32, eq: Linear) -> Candidate {
        self.linear.push(eq);
        Candidate { cut, kind: Template::Linear(self.linear.len() - 1), signed: false }
    }

    /// A candidate at `cut` for the polynomial equality `eq` (`Template::Poly`).
    pub(super) fn poly_candidate(&mut self, cut: u32, eq: PolyEq) -> Candidate {
        self.polys.push(eq);
        Candidate { cut, kind: Template::Poly(self.polys.len() - 1), signed: false }
    }

    /// A candidate at `cut` for the disjunction `a || b` (`Template::Or`).
    pub(super) fn or_candidate(&mut self, cut: u32, a: Candidate, b: Candidate) -> Candidate {
        self.disjunctions.push((a, b));
        Candidate { cut, kind: Template::Or(self.disjunctions.len() - 1), signed: false }
    }

    /// The variables of `scope` of at most 32 bits (those of the bounds `p·a + q·b <= c`: with
    /// coefficients of at most 3, exact in 64 bits).
    pub(super) fn narrow(&self, scope: &[usize]) -> Vec<usize> {
        scope.iter().copied().filter(|&i| self.ts.vars[i].repr.bits <= 32).collect()
    }
}

/// The width in which `eq` is evaluated: 64 bits (its meaning, `Template::Linear`), or the fewest
/// signed bits that hold every value its sum can take (the same constraint then, exactly).
fn linear_width(eq: &Linear, state: &[StateVar]) -> u32 {
    let mut most = eq.constant.unsigned_abs();
    for &(v, k) in &eq.terms {
        let r = state[v].repr;
        if r.bits >= 64 {
            return 64;
        }
        let magnitude = if r.signed { bits::sign_bit(r.bits) } else { mask(r.bits) };
        most = most.saturating_add(k.unsigned_abs().saturating_mul(magnitude));
    }
    // `most` and `-most` in two's complement: its bits and a sign bit.
    let bits = 128 - most.leading_zeros() + 1;
    bits.clamp(2, 64)
}

/// Whether a variable of representation `r` can hold `c` (any constant, for 128 bits).
pub(super) fn holds_constant(r: Repr, c: i128) -> bool {
    if r.bits >= 127 {
        return r.signed || c >= 0;
    }
    let (least, greatest) = value_range(r);
    least <= c && c <= greatest
}

/// The least and greatest values of a representation of at most 126 bits.
pub(super) fn value_range(r: Repr) -> (i128, i128) {
    if r.signed {
        (bits::min_signed(r.bits), bits::max_signed(r.bits))
    } else {
        (0, mask(r.bits) as i128)
    }
}

/// Whether a sampled state (values signed as each variable's type) satisfies a one-variable
/// template; anything else counts as satisfied (the proof decides).
pub(super) fn sample_holds(c: &Candidate, s: &[i128]) -> bool {
    match c.kind {
        Template::AtMost(v, k) => s[v] <= k,
        Template::AtLeast(v, k) => k <= s[v],
        Template::Parity(v, odd) => (s[v] & 1 == 1) == odd,
        _ => true,
    }
}

/// The candidates of `cands` still `alive`, in their order.
pub(super) fn alive_only(cands: Vec<Candidate>, alive: &[bool]) -> Vec<Candidate> {
    cands.into_iter().zip(alive).filter(|&(_, &a)| a).map(|(c, _)| c).collect()
}
