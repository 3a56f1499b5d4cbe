//! The gate-level circuits of the bit-vector operations: ripple-carry adders, majority-chain
//! comparators, a shift-add array multiplier and multiplication by a constant along its non-adjacent
//! form, a restoring divider, and a barrel shifter.

use super::{Bv, Shift};
use crate::base::bits::mask;
use crate::sat::aig::{Aig, AigLit};

impl Bv {
    pub(super) fn add_circuit(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        Bv { bits: add_bits(aig, &self.bits, &rhs.bits, AigLit::FALSE, false).0 }
    }

    pub(super) fn sub_circuit(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        Bv { bits: add_bits(aig, &self.bits, &rhs.bits, AigLit::TRUE, true).0 }
    }

    /// Shift-add array multiplier: row `i` adds `self << i`, masked by bit `i` of `rhs`, into the
    /// bits `i..width` of the accumulator.
    pub(super) fn mul_circuit(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        let width = self.bits.len();
        let mut acc = vec![AigLit::FALSE; width];
        for (i, &factor_bit) in rhs.bits.iter().enumerate() {
            if factor_bit == AigLit::FALSE {
                continue;
            }
            let mut carry = AigLit::FALSE;
            for (acc_bit, &bit) in acc[i..].iter_mut().zip(&self.bits) {
                let partial = aig.and(bit, factor_bit);
                let (sum, carry_out) = full_add(aig, *acc_bit, partial, carry);
                *acc_bit = sum;
                carry = carry_out;
            }
        }
        Bv { bits: acc }
    }

    /// The product with the constant `factor`, as a sum of `±(self << k)` over the digits of the
    /// non-adjacent form of `factor`.
    pub(super) fn mul_const(&self, aig: &mut Aig, factor: u128) -> Bv {
        let width = self.width();
        let mut acc: Option<Bv> = None;
        let mut rest = factor & mask(width);
        for k in 0..width {
            if rest & 1 == 1 {
                // Digit -1 when the two low bits are 11, so that a run of ones costs two terms.
                let negative = rest & 2 != 0;
                rest = if negative { rest.wrapping_add(1) } else { rest - 1 };
                let term = self.shift_const(k, Shift::Left);
                acc = Some(match (acc, negative) {
                    (None, false) => term,
                    (None, true) => term.neg(aig),
                    (Some(acc), false) => acc.add_circuit(aig, &term),
                    (Some(acc), true) => acc.sub_circuit(aig, &term),
                });
            }
            rest >>= 1;
        }
        acc.unwrap_or_else(|| Bv::zero(width))
    }

    /// Restoring division. Before step `t` the partial remainder is below `2^t` and below the
    /// divisor, so step `t` works on `t + 1` bits only: the shifted remainder is at least the
    /// divisor iff the divisor's bits above `t` are 0 and the low `t + 1` bits compare so.
    pub(super) fn udivrem_circuit(&self, aig: &mut Aig, rhs: &Bv) -> (Bv, Bv) {
        let width = self.bits.len();
        // high_zero[t]: the divisor's bits above t are all 0.
        let mut high_zero = vec![AigLit::TRUE; width];
        for t in (0..width - 1).rev() {
            high_zero[t] = aig.and(high_zero[t + 1], !rhs.bits[t + 1]);
        }
        let mut quot = vec![AigLit::FALSE; width];
        let mut rem: Vec<AigLit> = Vec::with_capacity(width);
        let mut diff = Vec::with_capacity(width);
        for t in 0..width {
            // Shift the next dividend bit (from the top) into the remainder.
            rem.insert(0, self.bits[width - 1 - t]);
            diff.clear();
            let mut carry = AigLit::TRUE;
            for (&r, &d) in rem.iter().zip(&rhs.bits) {
                let (bit, carry_out) = full_add(aig, r, !d, carry);
                diff.push(bit);
                carry = carry_out;
            }
            let ge = aig.and(high_zero[t], carry);
            quot[width - 1 - t] = ge;
            for (r, &d) in rem.iter_mut().zip(&diff) {
                *r = aig.ite(ge, d, *r);
            }
        }
        (Bv { bits: quot }, Bv { bits: rem })
    }

    /// Signed division through the unsigned divider on the magnitudes.
    pub(super) fn sdivrem_circuit(&self, aig: &mut Aig, rhs: &Bv) -> (Bv, Bv) {
        let (sign_l, sign_r) = (self.msb(), rhs.msb());
        let neg_l = self.neg(aig);
        let neg_r = rhs.neg(aig);
        let abs_l = Bv::ite(aig, sign_l, &neg_l, self);
        let abs_r = Bv::ite(aig, sign_r, &neg_r, rhs);
        let (quot, rem) = abs_l.udivrem(aig, &abs_r);
        let quot_negative = aig.xor(sign_l, sign_r);
        let neg_quot = quot.neg(aig);
        let neg_rem = rem.neg(aig);
        (Bv::ite(aig, quot_negative, &neg_quot, &quot), Bv::ite(aig, sign_l, &neg_rem, &rem))
    }

    /// Barrel shifter: stage `k` shifts by `2^k` if bit `k` of the amount is set, for `2^k < width`;
    /// any higher amount bit shifts everything out.
    pub(super) fn shift_circuit(&self, aig: &mut Aig, amount: &Bv, kind: Shift) -> Bv {
        let width = self.width();
        let fill = if kind == Shift::ArithRight { self.msb() } else { AigLit::FALSE };
        let mut cur = self.clone();
        let mut k = 0;
        while k < width && (1u128 << k) < width as u128 {
            let shifted = cur.shift_const(1 << k, kind);
            cur = Bv::ite(aig, amount.bits[k as usize], &shifted, &cur);
            k += 1;
        }
        let too_far = aig.or_all(amount.bits[k as usize..].iter().copied());
        Bv { bits: cur.bits.iter().map(|&b| aig.ite(too_far, fill, b)).collect() }
    }
}

/// `a + b + carry_in` bit by bit, `b` complemented first if `negate_b`; also the carry out.
fn add_bits(aig: &mut Aig, a: &[AigLit], b: &[AigLit], carry_in: AigLit, negate_b: bool) -> (Vec<AigLit>, AigLit) {
    let mut carry = carry_in;
    let sum = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let (s, c) = full_add(aig, x, y.xor_complement(negate_b), carry);
            carry = c;
            s
        })
        .collect();
    (sum, carry)
}

/// Sum and carry of three bits; 7 AND nodes, since the carry reuses the ANDs of both XORs.
#[inline]
fn full_add(aig: &mut Aig, x: AigLit, y: AigLit, carry: AigLit) -> (AigLit, AigLit) {
    let half = aig.xor(x, y);
    let sum = aig.xor(half, carry);
    let both = aig.and(x, y);
    let through = aig.and(half, carry);
    (sum, aig.or(both, through))
}

/// Whether `a >= b`, unsigned, or signed if `signed`: the carry out of `a + !b + 1`, computed as a
/// majority chain (4 AND nodes per bit). Signed order is unsigned order with the sign bits flipped.
pub(super) fn uge_bits(aig: &mut Aig, a: &[AigLit], b: &[AigLit], signed: bool) -> AigLit {
    let last = a.len() - 1;
    let mut carry = AigLit::TRUE;
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        let flip = signed && i == last;
        let (x, y) = (x.xor_complement(flip), !y.xor_complement(flip));
        let both = aig.and(x, y);
        let either = aig.or(x, y);
        let through = aig.and(carry, either);
        carry = aig.or(both, through);
    }
    carry
}
