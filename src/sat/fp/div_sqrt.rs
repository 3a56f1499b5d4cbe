//! Division and square root: restoring, one bit of the result per step, with enough bits for the
//! rounding and a sticky bit from the remainder.

use super::round::round;
use super::unpack::{default_nan, infinity, propagate_nan, quiet, select, shl_const, unpack, zero, Term};
use crate::base::fp::{Format, Rounding};
use crate::sat::{Aig, AigLit, Bv};

/// `a / b` rounded by `rm`.
pub(super) fn div(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv, b: &Bv) -> Bv {
    let (x, y) = (unpack(aig, format, a), unpack(aig, format, b));
    let sign = aig.xor(x.term.sign, y.term.sign);
    let (quot, rest) = divide(aig, &x.term.sig, &y.term.sig);
    // The quotient of two significands in [1, 2) is in (1/2, 2): one bit of normalisation.
    let top = quot.msb();
    let sig = quot.concat(&Bv::from_bool(rest));
    let shifted = shl_const(aig, &sig, 1);
    let sig = Bv::ite(aig, top, &sig, &shifted);
    let exp = x.term.exp.sub(aig, &y.term.exp);
    let exp = exp.sub(aig, &Bv::from_bool(!top).zext(exp.width()));
    let finite = round(aig, format, rm, &Term { sign, exp, sig });
    let (nan, nan_value) = propagate_nan(aig, format, &[(a, x.nan), (b, y.nan)]);
    let zeros = aig.and(x.zero, y.zero);
    let infs = aig.and(x.inf, y.inf);
    let invalid = aig.or(zeros, infs);
    let inf = aig.or(x.inf, y.zero);
    let vanishes = aig.or(x.zero, y.inf);
    let cases = [
        (nan, nan_value),
        (invalid, default_nan(format)),
        (inf, infinity(format, sign)),
        (vanishes, zero(format, sign)),
    ];
    select(aig, &cases, finite)
}

/// The square root of `a` rounded by `rm`.
pub(super) fn sqrt(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv) -> Bv {
    let x = unpack(aig, format, a);
    let p = x.term.sig.width();
    // An odd exponent moves one place into the significand, so that the exponent halves exactly;
    // the significand is then in [1, 4) and its root in [1, 2).
    let odd = x.term.exp.bit(0);
    let sig = x.term.sig.zext(p + 1);
    let doubled = shl_const(aig, &sig, 1);
    let sig = Bv::ite(aig, odd, &doubled, &sig);
    let exp = x.term.exp.ashr(aig, &Bv::constant(1, x.term.exp.width()));
    // Scaled by 2^(2p) the root has p + 1 bits: the precision and a guard bit.
    let (root, rest) = isqrt(aig, &sig.concat(&Bv::zero(p + 1)));
    let finite = round(aig, format, rm, &Term { sign: AigLit::FALSE, exp, sig: root.concat(&Bv::from_bool(rest)) });
    let negative = aig.and(x.term.sign, !x.zero);
    let cases = [(x.nan, quiet(format, a)), (negative, default_nan(format)), (x.zero, a.clone()), (x.inf, a.clone())];
    select(aig, &cases, finite)
}

/// Restoring division of the normalised `p`-bit significands `x` by `y`: the `p + 2` bits of the
/// quotient from its units bit down, and whether a remainder is left.
///
/// The partial remainder stays below `2 * y < 2^(p + 1)`, so `p + 2` bits hold its difference with
/// `y`, sign included.
fn divide(aig: &mut Aig, x: &Bv, y: &Bv) -> (Bv, AigLit) {
    let width = x.width() + 2;
    let divisor = y.zext(width);
    let mut rem = x.zext(width);
    let mut quot = vec![AigLit::FALSE; width as usize];
    for i in (0..width).rev() {
        let diff = rem.sub(aig, &divisor);
        let fits = !diff.msb();
        quot[i as usize] = fits;
        rem = Bv::ite(aig, fits, &diff, &rem);
        if i > 0 {
            rem = shl_const(aig, &rem, 1);
        }
    }
    (Bv::from_bits(quot), rem.reduce_or(aig))
}

/// The integer square root of `radicand` (of `2k` bits), digit by digit: its `k` bits, and whether
/// a remainder is left.
///
/// Step `j` brings down the next two bits and subtracts `4 * root + 1` when it fits. Before it the
/// root has `j` bits and the remainder, at most twice the root, `j + 1`; so the step works on
/// `j + 3` bits and no wider vector than needed is built.
fn isqrt(aig: &mut Aig, radicand: &Bv) -> (Bv, AigLit) {
    let k = radicand.width() / 2;
    // Both start with one leading zero bit, so that no vector is empty.
    let (mut rem, mut root) = (Bv::zero(1), Bv::zero(1));
    for j in 0..k {
        let pair = radicand.extract(2 * (k - j) - 1, 2 * (k - j) - 2);
        let cur = rem.concat(&pair);
        let trial = root.concat(&Bv::constant(1, 2));
        let diff = cur.zext(j + 4).sub(aig, &trial.zext(j + 4));
        let fits = !diff.msb();
        rem = Bv::ite(aig, fits, &diff.trunc(j + 2), &cur.trunc(j + 2));
        root = root.concat(&Bv::from_bool(fits));
    }
    (root.trunc(k), rem.reduce_or(aig))
}
