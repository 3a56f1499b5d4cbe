//! The candidates from simulated runs (`verify::sample`): what every state the runs visited at a
//! loop head satisfies there.

use crate::verify::poly;
use crate::verify::sample;

use super::candidates::{value_range, Candidate, Template};
use super::templates::MAX_SUM_SCOPE;
use super::Engine;

impl Engine<'_, '_> {
    /// Candidates from simulated runs (`verify::sample`): at every loop head, the affine equalities
    /// over the variables in scope (of at most 64 bits) and the bounds over those of at most 32
    /// bits that every sampled state there satisfies; and, apart, the polynomial equalities.
    pub(super) fn sampled_candidates(&mut self) -> (Vec<Candidate>, Vec<Candidate>) {
        let budget = &self.config.budget;
        let Ok(samples) = sample::simulate(&self.ts, &self.consts, &|| budget.exhausted().is_some()) else {
            return (Vec::new(), Vec::new());
        };
        self.samples = samples;
        let mut res = Vec::new();
        let mut polys = Vec::new();
        for cut in 1..self.ts.cuts.len() as u32 {
            let at = cut as usize;
            let scope: Vec<usize> = self.scope(cut).into_iter().filter(|&i| self.ts.vars[i].repr.bits <= 64).collect();
            let mut widths: Vec<u32> = scope.iter().map(|&v| self.ts.vars[v].repr.bits).collect();
            widths.sort_unstable();
            widths.dedup();
            for &bits in &widths {
                // Narrower variables join the widest polynomials extended (`poly::EXT_BITS`).
                let fits = |b: u32| b == bits || bits == poly::EXT_BITS && b < bits;
                let vars: Vec<usize> = scope.iter().copied().filter(|&v| fits(self.ts.vars[v].repr.bits)).collect();
                for eq in sample::poly_equalities(cut, &self.samples[at], &vars, bits) {
                    polys.push(self.poly_candidate(cut, eq));
                }
            }
            for bits in widths {
                let vars: Vec<usize> = scope.iter().copied().filter(|&v| self.ts.vars[v].repr.bits == bits).collect();
                for eq in sample::modular_equalities(cut, &self.samples[at], &vars, bits) {
                    res.push(self.poly_candidate(cut, eq));
                }
            }
            for eq in sample::equalities(cut, &self.samples[at], &scope) {
                if !self.new_equality(&eq, &scope) {
                    continue;
                }
                res.push(self.linear_candidate(cut, eq));
            }
            let width = |v: usize| self.ts.vars[v].repr.bits;
            for (v, t, low) in sample::low_bits(&self.samples[at], &scope, &width) {
                res.push(Candidate { cut, kind: Template::LowBits(v, t, low), signed: false });
            }
            // Bounds over variables of at most 32 bits: with coefficients of at most 3, exact in 64.
            let narrow = self.narrow(&scope);
            let range = |v: usize| value_range(self.ts.vars[v].repr);
            for b in sample::bounds(cut, &self.samples[at], &narrow, &range) {
                res.push(self.linear_candidate(cut, b));
            }
        }
        (res, polys)
    }

    /// Whether the equality `eq` of the simulated runs over `scope` is worth a candidate: not a sum
    /// the templates have, and with coefficients a C constant of 64 bits writes as they are.
    fn new_equality(&self, eq: &sample::Linear, scope: &[usize]) -> bool {
        // `a + b == s` of one width: the templates have it already (`templates`). A variable
        // constant and two variables equal are templates too, but may need an equality of this
        // phase to be proven (`x == 0` where `x` is computed as `d - 2*p` and `d == 2*p` holds
        // modulo 2^32), so they are asked again here.
        let width = |v: usize| self.ts.vars[v].repr.bits;
        let plain = match eq.terms.as_slice() {
            &[(a, ka), (b, kb), (c, kc)] => {
                eq.constant == 0
                    && [ka, kb, kc].iter().all(|k| k.abs() == 1)
                    && ka + kb + kc != 3 * ka.signum()
                    && width(a) == width(b)
                    && width(b) == width(c)
                    && scope.len() <= MAX_SUM_SCOPE
            }
            _ => false,
        };
        // Coefficients a C constant of 64 bits writes as they are (`describe`).
        let big = |k: i128| k.unsigned_abs() >= 1 << 62;
        !(plain || big(eq.constant) || eq.terms.iter().any(|&(_, k)| big(k)))
    }
}
