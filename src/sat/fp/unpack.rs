//! What every circuit of `fp` shares: an encoding taken apart into sign, exponent and normalised
//! significand, shifts that normalise or keep a sticky bit, the special encodings (zeros,
//! infinities, NaNs) and the multiplexer of the special cases.

use crate::base::fp::Format;
use crate::sat::{Aig, AigLit, Bv};

/// A value `(-1)^sign * sig * 2^(exp - (n - 1))`, with `n` the width of `sig`.
#[derive(Clone, Debug)]
pub(super) struct Term {
    pub sign: AigLit,
    /// The exponent, two's complement, wide enough for every value it takes (`exp_width` bits of
    /// the format unless said otherwise).
    pub exp: Bv,
    /// The significand; normalised (top bit set) unless the value is zero, or a subnormal as
    /// `unpack_raw` leaves it.
    pub sig: Bv,
}

/// An encoding taken apart: a `Term` whose significand has `precision` bits (the hidden bit
/// included), and the classification. `unpack` normalises subnormals, so that their exponents go
/// below the format's least exponent. For an infinity or a NaN, `exp` and `sig` are meaningless.
#[derive(Clone, Debug)]
pub(super) struct Unpacked {
    pub term: Term,
    pub nan: AigLit,
    pub inf: AigLit,
    pub zero: AigLit,
}

/// The number of significant bits, the hidden bit included (24 and 53).
pub(super) fn precision(format: Format) -> u32 {
    format.fraction_bits() + 1
}

/// The exponent bias (127 and 1023), which is also the greatest exponent.
pub(super) fn bias(format: Format) -> i64 {
    (1 << (format.exponent_bits() - 1)) - 1
}

/// The width of the exponents inside the circuits: three bits more than the format's field holds
/// every intermediate exponent (the product of two subnormals less the normalisation of a fused
/// sum, the quotient of the least subnormal by the greatest value, a 128-bit integer's).
pub(super) fn exp_width(format: Format) -> u32 {
    format.exponent_bits() + 3
}

/// The constant `value` as a two's-complement vector of `width` bits.
pub(super) fn constant(value: i64, width: u32) -> Bv {
    Bv::constant(value as i128 as u128, width)
}

/// `x` shifted left by the constant `k`: a rewiring, no node.
pub(super) fn shl_const(aig: &mut Aig, x: &Bv, k: u32) -> Bv {
    x.shl(aig, &Bv::constant(k as u128, x.width()))
}

/// Takes the encoding `a` of `format` apart, subnormals normalised.
pub(super) fn unpack(aig: &mut Aig, format: Format, a: &Bv) -> Unpacked {
    let mut res = unpack_raw(aig, format, a);
    let (sig, shift) = normalize(aig, &res.term.sig, res.term.exp.width());
    res.term.exp = res.term.exp.sub(aig, &shift);
    res.term.sig = sig;
    res
}

/// Takes the encoding `a` of `format` apart, but leaves a subnormal's significand as it is, with
/// leading zeros and the least exponent, which is all that an addition needs.
pub(super) fn unpack_raw(aig: &mut Aig, format: Format, a: &Bv) -> Unpacked {
    let (eb, fb) = (format.exponent_bits(), format.fraction_bits());
    let ew = exp_width(format);
    let frac = a.extract(fb - 1, 0);
    let field = a.extract(fb + eb - 1, fb);
    let field_zero = field.is_zero(aig);
    let field_ones = field.reduce_and(aig);
    let frac_zero = frac.is_zero(aig);
    let nan = aig.and(field_ones, !frac_zero);
    let inf = aig.and(field_ones, frac_zero);
    let zero = aig.and(field_zero, frac_zero);
    // A subnormal has the exponent of the least normal value, field 1, and no hidden bit.
    let mut field_bits = field.bits().to_vec();
    field_bits[0] = aig.or(field_bits[0], field_zero);
    let biased = Bv::from_bits(field_bits).zext(ew);
    let exp = biased.sub(aig, &constant(bias(format), ew));
    let sig = Bv::from_bool(!field_zero).concat(&frac);
    Unpacked { term: Term { sign: a.msb(), exp, sig }, nan, inf, zero }
}

/// `sig` shifted left until its top bit is set, and the shift as a vector of `width` bits (zero
/// and a meaningless shift for a zero `sig`).
///
/// A binary search on the leading zeros: stage `k`, from the highest, shifts by `2^k` when the
/// top `2^k` bits are zero; the stages add up to at least `width - 1`.
pub(super) fn normalize(aig: &mut Aig, sig: &Bv, width: u32) -> (Bv, Bv) {
    let n = sig.width();
    let n_stages = u32::BITS - (n - 1).leading_zeros();
    assert!(n_stages <= width, "a shift of up to {} does not fit {width} bits", n - 1);
    let mut cur = sig.clone();
    let mut shift = vec![AigLit::FALSE; width as usize];
    for k in (0..n_stages).rev() {
        let step = 1 << k;
        let top_zero = cur.extract(n - 1, n - step).is_zero(aig);
        let shifted = shl_const(aig, &cur, step);
        cur = Bv::ite(aig, top_zero, &shifted, &cur);
        shift[k as usize] = top_zero;
    }
    (cur, Bv::from_bits(shift))
}

/// `x` shifted right by the unsigned `amount`, of any width. With `sticky`, the bits shifted out
/// are or-ed into the lowest bit (jammed), so that rounding still sees that something was lost:
/// the lowest bit stays below every bit a rounding of the result looks at.
pub(super) fn shift_right(aig: &mut Aig, x: &Bv, amount: &Bv, sticky: bool) -> Bv {
    let n = x.width();
    let mut cur = x.clone();
    let mut lost = AigLit::FALSE;
    for k in 0..amount.width() {
        // Once a stage would shift by the width or more, this and the higher bits of the amount
        // shift everything out.
        let all_out = k >= 31 || 1 << k >= n;
        let (bit, dropped) = if all_out {
            (aig.or_all(amount.bits()[k as usize..].iter().copied()), cur.clone())
        } else {
            (amount.bit(k), cur.extract((1 << k) - 1, 0))
        };
        if sticky {
            let any = dropped.reduce_or(aig);
            let now_lost = aig.and(bit, any);
            lost = aig.or(lost, now_lost);
        }
        let shifted = if all_out { Bv::zero(n) } else { cur.lshr(aig, &Bv::constant(1 << k, n)) };
        cur = Bv::ite(aig, bit, &shifted, &cur);
        if all_out {
            break;
        }
    }
    let mut bits = cur.bits().to_vec();
    bits[0] = aig.or(bits[0], lost);
    Bv::from_bits(bits)
}

/// The encoding of sign `sign` and magnitude (all other bits) `magnitude`.
pub(super) fn with_sign(format: Format, sign: AigLit, magnitude: u128) -> Bv {
    Bv::from_bool(sign).concat(&Bv::constant(magnitude, format.bits() - 1))
}

/// The zero of sign `sign`.
pub(super) fn zero(format: Format, sign: AigLit) -> Bv {
    with_sign(format, sign, 0)
}

/// The infinity of sign `sign`.
pub(super) fn infinity(format: Format, sign: AigLit) -> Bv {
    with_sign(format, sign, format.infinity())
}

/// The NaN an invalid operation returns.
pub(super) fn default_nan(format: Format) -> Bv {
    Bv::constant(format.default_nan(), format.bits())
}

/// `a` with the quiet bit set.
pub(super) fn quiet(format: Format, a: &Bv) -> Bv {
    let mut bits = a.bits().to_vec();
    bits[format.fraction_bits() as usize - 1] = AigLit::TRUE;
    Bv::from_bits(bits)
}

/// Whether one of `operands` (each with its NaN literal) is a NaN, and the first NaN made quiet.
pub(super) fn propagate_nan(aig: &mut Aig, format: Format, operands: &[(&Bv, AigLit)]) -> (AigLit, Bv) {
    let (last, others) = operands.split_last().expect("an operand");
    let mut res = quiet(format, last.0);
    for &(a, nan) in others.iter().rev() {
        res = Bv::ite(aig, nan, &quiet(format, a), &res);
    }
    let any = aig.or_all(operands.iter().map(|&(_, nan)| nan));
    (any, res)
}

/// The value of the first case whose condition holds, else `default`.
pub(super) fn select(aig: &mut Aig, cases: &[(AigLit, Bv)], default: Bv) -> Bv {
    cases.iter().rev().fold(default, |res, (cond, value)| Bv::ite(aig, *cond, value, &res))
}

/// The sign of the sum of two zeros of signs `x` and `y`: theirs if they agree, else +0, or -0
/// when rounding down.
pub(super) fn zero_sum_sign(aig: &mut Aig, round_down: bool, x: AigLit, y: AigLit) -> AigLit {
    if round_down {
        aig.or(x, y)
    } else {
        aig.and(x, y)
    }
}
