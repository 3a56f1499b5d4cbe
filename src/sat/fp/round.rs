//! The one rounding every circuit of `fp` ends with: an exact value, given as a `Term` whose
//! significand may end in a sticky bit, rounded to a format in a rounding mode and packed, with
//! overflow to infinity or the greatest finite value and gradual underflow to subnormals and zero.

use super::unpack::{bias, constant, precision, shift_right, Term};
use crate::base::fp::{Format, Rounding};
use crate::sat::{Aig, AigLit, Bv};

/// Whether rounding by `rm` goes one unit up in magnitude from a kept significand whose lowest bit
/// is `lsb`, followed by the `guard` bit and the `sticky` or of everything below.
pub(super) fn round_up(
    aig: &mut Aig,
    rm: Rounding,
    sign: AigLit,
    lsb: AigLit,
    guard: AigLit,
    sticky: AigLit,
) -> AigLit {
    match rm {
        Rounding::NearestEven => {
            let odd_or_above = aig.or(lsb, sticky);
            aig.and(guard, odd_or_above)
        }
        Rounding::NearestAway => guard,
        Rounding::Up | Rounding::Down => {
            let inexact = aig.or(guard, sticky);
            let away = if rm == Rounding::Up { !sign } else { sign };
            aig.and(away, inexact)
        }
        Rounding::TowardZero => AigLit::FALSE,
    }
}

/// The encoding of `term` rounded to `format` by `rm`.
///
/// The significand of `term` must be normalised (not zero) and may end in a sticky bit; any width
/// will do. The exponent may lie anywhere its width allows.
pub(super) fn round(aig: &mut Aig, format: Format, rm: Rounding, term: &Term) -> Bv {
    let p = precision(format);
    let ew = term.exp.width();
    let sign = term.sign;
    let sig = compress(aig, &term.sig, p + 2);
    // Below the least normal exponent the value is subnormal: shift it to that exponent, which
    // may leave nothing but the sticky bit.
    let emin = constant(1 - bias(format), ew);
    let tiny = term.exp.slt(aig, &emin);
    let below = emin.sub(aig, &term.exp);
    let amount = Bv::ite(aig, tiny, &below, &Bv::zero(ew));
    let sig = shift_right(aig, &sig, &amount, true);
    let exp = Bv::ite(aig, tiny, &emin, &term.exp);
    let kept = sig.extract(p + 1, 2);
    let up = round_up(aig, rm, sign, kept.bit(0), sig.bit(1), sig.bit(0));
    let rounded = kept.zext(p + 1).add(aig, &Bv::from_bool(up).zext(p + 1));
    let magnitude = pack(aig, format, &exp, &rounded);
    // Overflow: an exponent above the greatest, or a rounding up into the exponent of infinity.
    let emax = constant(bias(format), ew);
    let huge = emax.slt(aig, &exp);
    let fb = format.fraction_bits();
    let carried = magnitude.extract(format.bits() - 2, fb).reduce_and(aig);
    let overflow = aig.or(huge, carried);
    let to_infinity = match rm {
        Rounding::NearestEven | Rounding::NearestAway => AigLit::TRUE,
        Rounding::Up => !sign,
        Rounding::Down => sign,
        Rounding::TowardZero => AigLit::FALSE,
    };
    let width = format.bits() - 1;
    let (inf, greatest) = (Bv::constant(format.infinity(), width), Bv::constant(format.infinity() - 1, width));
    let overflowed = Bv::ite(aig, to_infinity, &inf, &greatest);
    Bv::from_bool(sign).concat(&Bv::ite(aig, overflow, &overflowed, &magnitude))
}

/// The magnitude (the encoding without its sign bit) of `sig * 2^(exp - (p - 1))`, for `exp` from
/// the least to the greatest exponent of `format` and `sig` of `p + 1` bits, at most `2^p`.
///
/// The biased exponent less one and the significand are added, not concatenated: the hidden bit
/// adds the one back, a significand without it at the least exponent is a subnormal, and one of
/// `2^p` (a rounding that carried out) moves to the next exponent.
pub(super) fn pack(aig: &mut Aig, format: Format, exp: &Bv, sig: &Bv) -> Bv {
    let (eb, fb) = (format.exponent_bits(), format.fraction_bits());
    let field = exp.trunc(eb).add(aig, &constant(bias(format) - 1, eb));
    let width = format.bits() - 1;
    field.concat(&Bv::zero(fb)).add(aig, &sig.zext(width))
}

/// `sig` as `width` bits: its top `width - 1` bits and the or of the rest as a sticky bit, or
/// padded with zeros when it is narrower.
fn compress(aig: &mut Aig, sig: &Bv, width: u32) -> Bv {
    let n = sig.width();
    if n <= width {
        return if n == width { sig.clone() } else { sig.concat(&Bv::zero(width - n)) };
    }
    let sticky = sig.extract(n - width, 0).reduce_or(aig);
    sig.extract(n - 1, n - width + 1).concat(&Bv::from_bool(sticky))
}
