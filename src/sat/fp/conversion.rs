//! Conversions: between the formats, from and to integers, and to an integral value of the same
//! format.

use super::round::{pack, round, round_up};
use super::unpack::{
    constant, exp_width, infinity, normalize, precision, quiet, select, shift_right, unpack, zero, Term,
};
use crate::base::fp::{Format, Rounding};
use crate::sat::{Aig, AigLit, Bv};

/// `a` converted from `from` to another format `to`, rounded by `rm` when narrowing.
pub(super) fn convert(aig: &mut Aig, from: Format, to: Format, rm: Rounding, a: &Bv) -> Bv {
    let x = unpack(aig, from, a);
    let sign = x.term.sign;
    let (from_fb, to_fb) = (from.fraction_bits(), to.fraction_bits());
    // A NaN keeps its sign and the top bits of its payload.
    let payload = if to_fb > from_fb {
        a.extract(from_fb - 1, 0).concat(&Bv::zero(to_fb - from_fb))
    } else {
        a.extract(from_fb - 1, from_fb - to_fb)
    };
    let nan = quiet(to, &Bv::from_bool(sign).concat(&Bv::ones(to.exponent_bits())).concat(&payload));
    let finite = if to.bits() > from.bits() {
        // Widening is exact, and every value of the narrower format is normal in the wider one.
        let sig = x.term.sig.concat(&Bv::zero(to_fb - from_fb)).zext(to_fb + 2);
        Bv::from_bool(sign).concat(&pack(aig, to, &x.term.exp.sext(exp_width(to)), &sig))
    } else {
        let term = Term { sign, exp: x.term.exp.sext(exp_width(from).max(exp_width(to))), sig: x.term.sig };
        round(aig, to, rm, &term)
    };
    select(aig, &[(x.nan, nan), (x.inf, infinity(to, sign)), (x.zero, zero(to, sign))], finite)
}

/// The integer `v`, two's complement if `signed`, converted to `to` and rounded by `rm`.
pub(super) fn from_int(aig: &mut Aig, to: Format, rm: Rounding, v: &Bv, signed: bool) -> Bv {
    let sign = if signed { v.msb() } else { AigLit::FALSE };
    let negated = v.neg(aig);
    let magnitude = Bv::ite(aig, sign, &negated, v);
    let ew = exp_width(to);
    let (sig, shift) = normalize(aig, &magnitude, ew);
    let exp = constant(v.width() as i64 - 1, ew).sub(aig, &shift);
    let rounded = round(aig, to, rm, &Term { sign, exp, sig });
    let is_zero = v.is_zero(aig);
    Bv::ite(aig, is_zero, &zero(to, AigLit::FALSE), &rounded)
}

/// `a` truncated toward zero to an integer of `bits` bits, and whether it is a NaN or out of
/// range.
pub(super) fn to_int(aig: &mut Aig, from: Format, a: &Bv, bits: u32, signed: bool) -> (Bv, AigLit) {
    let x = unpack(aig, from, a);
    let (sign, exp) = (x.term.sign, &x.term.exp);
    let (p, ew) = (precision(from), exp.width());
    // From 2^bits on no value fits; below, the integer part fits `bits` bits unsigned.
    let huge = constant(bits as i64 - 1, ew).slt(aig, exp);
    // The significand's point moves right by exp - (p - 1) places, or left by the opposite.
    let width = bits.max(p);
    let sig = x.term.sig.zext(width);
    let left_amount = exp.sub(aig, &constant(p as i64 - 1, ew));
    let is_left = !left_amount.msb();
    let right_amount = left_amount.neg(aig);
    // The width is at least the precision, which is wider than the exponents.
    let left = sig.shl(aig, &left_amount.zext(width));
    let right = shift_right(aig, &sig, &right_amount, false);
    let magnitude = Bv::ite(aig, is_left, &left, &right).trunc(bits);
    let misfit = if signed {
        // Up to 2^(bits - 1) - 1, or exactly -2^(bits - 1).
        let top = magnitude.msb();
        let min = Bv::constant(1 << (bits - 1), bits);
        let is_min = magnitude.eq(aig, &min);
        let is_min = aig.and(sign, is_min);
        aig.and(top, !is_min)
    } else {
        // A negative value fits only if it truncates to 0.
        let nonzero = magnitude.reduce_or(aig);
        aig.and(sign, nonzero)
    };
    let misfit = aig.or_all([x.nan, x.inf, huge, misfit]);
    let negated = magnitude.neg(aig);
    (Bv::ite(aig, sign, &negated, &magnitude), misfit)
}

/// `a` rounded by `rm` to an integral value of its format.
pub(super) fn round_to_integral(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv) -> Bv {
    let x = unpack(aig, format, a);
    let (sign, exp) = (x.term.sign, &x.term.exp);
    let p = precision(format);
    let ew = exp.width();
    // From 2^(p - 1) on every value is integral (infinities and NaNs have the greatest exponent).
    let integral = constant(p as i64 - 2, ew).slt(aig, exp);
    // The `fraction` low bits of the significand are below the point, all of them when exp < 0.
    let fraction = constant(p as i64 - 1, ew).sub(aig, exp);
    let shifted = shift_right(aig, &x.term.sig.concat(&Bv::zero(2)), &fraction, true);
    let int = shifted.extract(p + 1, 2);
    let up = round_up(aig, rm, sign, int.bit(0), shifted.bit(1), shifted.bit(0));
    let int = int.zext(p + 1).add(aig, &Bv::from_bool(up).zext(p + 1));
    // From 1 on, the integer moved back in place keeps the exponent (`pack` carries a rounding up
    // to the next power of two into it); below 1 the result is 0 or 1, whose exponent is 0.
    let in_place = int.shl(aig, &fraction.zext(p + 1));
    let below_one = exp.msb();
    let res_sig = Bv::ite(aig, below_one, &Bv::constant(1 << (p - 1), p + 1), &in_place);
    let res_exp = Bv::ite(aig, below_one, &Bv::zero(ew), exp);
    let rounded = Bv::from_bool(sign).concat(&pack(aig, format, &res_exp, &res_sig));
    let vanished = int.is_zero(aig);
    let cases = [(x.nan, quiet(format, a)), (integral, a.clone()), (vanished, zero(format, sign))];
    select(aig, &cases, rounded)
}
