//! Addition, subtraction, multiplication and the fused multiply-add: an exact sum of two aligned
//! terms (three guard bits, the rest jammed into a sticky bit) and an exact product, each rounded
//! once.

use super::round::round;
use super::unpack::{
    default_nan, infinity, normalize, propagate_nan, select, shift_right, shl_const, unpack, unpack_raw, zero,
    zero_sum_sign, Term, Unpacked,
};
use crate::base::fp::{Format, Rounding};
use crate::sat::{Aig, AigLit, Bv};

/// An exact sum: its `Term` (the significand normalised unless the sum is zero) and whether it is
/// zero.
struct Sum {
    term: Term,
    zero: AigLit,
}

/// `a + b`, or `a - b` when `subtract`, rounded by `rm`.
pub(super) fn add(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv, b: &Bv, subtract: bool) -> Bv {
    let x = unpack_raw(aig, format, a);
    let mut y = unpack_raw(aig, format, b);
    // The subtrahend with its sign flipped, except that a NaN is returned with its own sign.
    y.term.sign = y.term.sign.xor_complement(subtract);
    let b_added = Bv::from_bool(y.term.sign).concat(&b.extract(format.bits() - 2, 0));
    let sum = add_terms(aig, &x.term, &y.term);
    let rounded = round(aig, format, rm, &sum.term);
    let finite = Bv::ite(aig, sum.zero, &zero(format, AigLit::constant(rm == Rounding::Down)), &rounded);
    let (nan, nan_value) = propagate_nan(aig, format, &[(a, x.nan), (b, y.nan)]);
    let both_inf = aig.and(x.inf, y.inf);
    let opposite = aig.xor(x.term.sign, y.term.sign);
    let invalid = aig.and(both_inf, opposite);
    let both_zero = aig.and(x.zero, y.zero);
    let zero_sign = zero_sum_sign(aig, rm == Rounding::Down, x.term.sign, y.term.sign);
    let cases = [
        (nan, nan_value),
        (invalid, default_nan(format)),
        (x.inf, a.clone()),
        (y.inf, b_added.clone()),
        (both_zero, zero(format, zero_sign)),
        (x.zero, b_added),
        (y.zero, a.clone()),
    ];
    select(aig, &cases, finite)
}

/// `a * b` rounded by `rm`.
pub(super) fn mul(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv, b: &Bv) -> Bv {
    let (x, y) = (unpack(aig, format, a), unpack(aig, format, b));
    let prod = product(aig, &x.term, &y.term);
    let finite = round(aig, format, rm, &prod);
    let (nan, nan_value) = propagate_nan(aig, format, &[(a, x.nan), (b, y.nan)]);
    let invalid = inf_times_zero(aig, &x, &y);
    let inf = aig.or(x.inf, y.inf);
    let zero_factor = aig.or(x.zero, y.zero);
    let cases = [
        (nan, nan_value),
        (invalid, default_nan(format)),
        (inf, infinity(format, prod.sign)),
        (zero_factor, zero(format, prod.sign)),
    ];
    select(aig, &cases, finite)
}

/// `a * b + c` rounded once by `rm`.
pub(super) fn fma(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv, b: &Bv, c: &Bv) -> Bv {
    let (x, y, z) = (unpack(aig, format, a), unpack(aig, format, b), unpack(aig, format, c));
    let prod = product(aig, &x.term, &y.term);
    // The addend on the product's scale; a zero addend takes the product's exponent, so that it is
    // the smaller term and the sum is the product.
    let p = z.term.sig.width();
    let addend = Term {
        sign: z.term.sign,
        exp: Bv::ite(aig, z.zero, &prod.exp, &z.term.exp),
        sig: z.term.sig.concat(&Bv::zero(p)),
    };
    let sum = add_terms(aig, &prod, &addend);
    let rounded = round(aig, format, rm, &sum.term);
    let finite = Bv::ite(aig, sum.zero, &zero(format, AigLit::constant(rm == Rounding::Down)), &rounded);
    let (nan, nan_value) = propagate_nan(aig, format, &[(a, x.nan), (b, y.nan), (c, z.nan)]);
    let prod_inf = aig.or(x.inf, y.inf);
    let prod_zero = aig.or(x.zero, y.zero);
    let opposite = aig.xor(prod.sign, z.term.sign);
    let inf_diff = aig.and(prod_inf, z.inf);
    let inf_diff = aig.and(inf_diff, opposite);
    let invalid = inf_times_zero(aig, &x, &y);
    let invalid = aig.or(invalid, inf_diff);
    let both_zero = aig.and(prod_zero, z.zero);
    let zero_sign = zero_sum_sign(aig, rm == Rounding::Down, prod.sign, z.term.sign);
    let cases = [
        (nan, nan_value),
        (invalid, default_nan(format)),
        (prod_inf, infinity(format, prod.sign)),
        (z.inf, c.clone()),
        (both_zero, zero(format, zero_sign)),
        (prod_zero, c.clone()),
    ];
    select(aig, &cases, finite)
}

/// Whether one factor is infinite and the other zero.
fn inf_times_zero(aig: &mut Aig, x: &Unpacked, y: &Unpacked) -> AigLit {
    let left = aig.and(x.inf, y.zero);
    let right = aig.and(x.zero, y.inf);
    aig.or(left, right)
}

/// The exact product of two finite terms of `p`-bit significands, normalised to `2p` bits.
fn product(aig: &mut Aig, x: &Term, y: &Term) -> Term {
    let width = 2 * x.sig.width();
    let sig = x.sig.zext(width).mul(aig, &y.sig.zext(width));
    let exp = x.exp.add(aig, &y.exp);
    // Two significands in [1, 2) multiply to one in [1, 4): one bit of normalisation.
    let top = sig.msb();
    let shifted = shl_const(aig, &sig, 1);
    let sig = Bv::ite(aig, top, &sig, &shifted);
    let exp = exp.add(aig, &Bv::from_bool(top).zext(exp.width()));
    Term { sign: aig.xor(x.sign, y.sign), exp, sig }
}

/// The exact sum of two terms with significands of equal width `n`: its significand has `n + 4`
/// bits, normalised unless the sum is zero, and ends in a sticky bit.
///
/// Each term is normalised, or zero with the other's exponent, or a subnormal at the least
/// exponent as `unpack_raw` leaves it, whose partner is then normalised with an exponent at least
/// as great, or another such subnormal; either way exponents, then significands, order the terms
/// by magnitude. The larger comes first; the smaller is aligned to it with three bits below the
/// significand, the rest jammed into the lowest one. That is exact enough for one rounding: when
/// something was jammed the terms are more than three binary places apart and the larger is
/// normalised, so a difference loses at most one leading bit and the jammed bit stays below the
/// rounding's guard bit.
fn add_terms(aig: &mut Aig, x: &Term, y: &Term) -> Sum {
    let n = x.sig.width();
    let exp_above = y.exp.slt(aig, &x.exp);
    let exp_same = x.exp.eq(aig, &y.exp);
    let sig_at_least = y.sig.ule(aig, &x.sig);
    let same_and_at_least = aig.and(exp_same, sig_at_least);
    let x_first = aig.or(exp_above, same_and_at_least);
    let (big, small) = (ite_term(aig, x_first, x, y), ite_term(aig, x_first, y, x));
    let distance = big.exp.sub(aig, &small.exp);
    let big_sig = big.sig.concat(&Bv::zero(3)).zext(n + 4);
    let small_sig = shift_right(aig, &small.sig.concat(&Bv::zero(3)), &distance, true).zext(n + 4);
    // big ± small in one adder: big + (small xor subtract) + subtract, with the carry in as an extra
    // low bit (1 on the left, `subtract` on the right), dropped afterwards.
    let subtract = aig.xor(big.sign, small.sign);
    let flips = Bv::from_bits(vec![subtract; (n + 4) as usize]);
    let lhs = big_sig.concat(&Bv::ones(1));
    let rhs = small_sig.xor(aig, &flips).concat(&Bv::from_bool(subtract));
    let sum = lhs.add(aig, &rhs).extract(n + 4, 1);
    let zero = sum.is_zero(aig);
    let ew = big.exp.width();
    let (sig, shift) = normalize(aig, &sum, ew);
    // The sum's top bit stands one place above the larger term's leading bit.
    let exp = big.exp.add(aig, &Bv::constant(1, ew)).sub(aig, &shift);
    Sum { term: Term { sign: big.sign, exp, sig }, zero }
}

fn ite_term(aig: &mut Aig, cond: AigLit, then: &Term, other: &Term) -> Term {
    Term {
        sign: aig.ite(cond, then.sign, other.sign),
        exp: Bv::ite(aig, cond, &then.exp, &other.exp),
        sig: Bv::ite(aig, cond, &then.sig, &other.sig),
    }
}
