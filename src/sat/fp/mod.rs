//! Bit-precise IEEE 754 circuits: binary32 and binary64 arithmetic, square root, fused
//! multiply-add, comparisons, classification and conversions over `Bv`s, in every rounding mode.
//!
//! A floating-point value is its IEEE bit pattern, a `Bv` of 32 or 64 bits. The rounding mode is a
//! constant of the circuit, not a symbolic value. The conventions are those of x86 SSE, which
//! `base::fp` fixes:
//!
//! - an operation with a NaN operand returns the first NaN operand (left to right) made quiet (the
//!   top fraction bit set);
//! - an invalid operation without NaN operand (`0/0`, `inf - inf`, `0 * inf`, the square root of a
//!   negative non-zero value, an invalid `fma`) returns the default NaN: sign set, quiet, payload 0;
//! - a conversion between the formats keeps a NaN's sign and the top bits of its payload, quiet;
//! - subnormal operands and results are kept (no flush to zero), and zeros are signed as IEEE says
//!   (`x + (-x)` is +0, or -0 when rounding down; the square root of -0 is -0).
//!
//! The circuits are those of SymFPU and CBMC's `float_bv`: each operand is unpacked once into
//! sign, an unbiased exponent wide enough for every intermediate value and a significand with its
//! hidden bit, subnormals normalised by a leading-zero shift (`unpack.rs`); the operation is
//! computed exactly on the significands with guard bits and a sticky bit (`add_mul.rs`,
//! `div_sqrt.rs`, `conversion.rs`); one shared routine rounds and packs (`round.rs`), and a final
//! multiplexer picks the special cases (NaN propagation, infinities, zeros). When every input is a
//! constant the result is computed by `base::fp` directly, so concrete values make no node.
//!
//! AND nodes of each binary64 circuit over fresh inputs, rounding to nearest even (the other modes
//! differ by a few percent; `tests.rs` keeps the figures current):
//!
//! | circuit | AND nodes | made of |
//! |---|---|---|
//! | `arith` add, sub | 6 512 | alignment shifter, adder, leading-zero shifter, rounding |
//! | `arith` mul | 26 499 | a 53x53 array multiplier (21 889) |
//! | `arith` div | 33 778 | 55 steps of restoring division |
//! | `fma` | 35 018 | the multiplier and a 110-bit aligned adder |
//! | `sqrt` | 17 738 | 54 steps of digit-by-digit square root |
//! | `compare` (`Le`) | 788 | |
//! | `convert` to binary32 | 1 885 | |
//! | `from_int` (i64) | 1 801 | |
//! | `to_int` (i64) | 3 474 | |
//! | `round_to_integral` | 3 827 | |
//!
//! A constant operand folds: `x * 2.0` takes 2 832 nodes, `x * 10.0` 3 405 and `x + 1.0` 4 979.
//!
//! Invariant: every circuit agrees bit for bit with the function of the same name in `base::fp`,
//! for every input and every rounding mode, NaNs included (checked by `tests.rs`).
//! Invariant: every function asserts that its floating-point operands have the width of their
//! format.

mod add_mul;
mod conversion;
mod div_sqrt;
mod round;
mod unpack;

use crate::base::fp::{self as concrete, Arith, Compare, Format, Rounding};
use crate::sat::{Aig, AigLit, Bv};

/// `a op b` rounded by `rm`.
pub fn arith(aig: &mut Aig, format: Format, rm: Rounding, op: Arith, a: &Bv, b: &Bv) -> Bv {
    check_width(format, a);
    check_width(format, b);
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return Bv::constant(concrete::arith(format, rm, op, x, y), format.bits());
    }
    match op {
        Arith::Add => add_mul::add(aig, format, rm, a, b, false),
        Arith::Sub => add_mul::add(aig, format, rm, a, b, true),
        Arith::Mul => add_mul::mul(aig, format, rm, a, b),
        Arith::Div => div_sqrt::div(aig, format, rm, a, b),
    }
}

/// `a * b + c` with one rounding by `rm` (C's `fma`).
pub fn fma(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv, b: &Bv, c: &Bv) -> Bv {
    for operand in [a, b, c] {
        check_width(format, operand);
    }
    if let (Some(x), Some(y), Some(z)) = (a.as_const(), b.as_const(), c.as_const()) {
        return Bv::constant(concrete::fma(format, rm, x, y, z), format.bits());
    }
    add_mul::fma(aig, format, rm, a, b, c)
}

/// The square root of `a` rounded by `rm`.
pub fn sqrt(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv) -> Bv {
    check_width(format, a);
    if let Some(x) = a.as_const() {
        return Bv::constant(concrete::sqrt(format, rm, x), format.bits());
    }
    div_sqrt::sqrt(aig, format, rm, a)
}

/// The comparison `a op b`: false when either is a NaN, and `-0 == +0`.
pub fn compare(aig: &mut Aig, format: Format, op: Compare, a: &Bv, b: &Bv) -> AigLit {
    check_width(format, a);
    check_width(format, b);
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return AigLit::constant(concrete::compare(format, op, x, y));
    }
    let nan_a = is_nan(aig, format, a);
    let nan_b = is_nan(aig, format, b);
    let ordered = aig.and(!nan_a, !nan_b);
    let zero_a = is_zero(aig, format, a);
    let zero_b = is_zero(aig, format, b);
    let both_zero = aig.and(zero_a, zero_b);
    let same = a.eq(aig, b);
    let eq = aig.or(same, both_zero);
    let eq = aig.and(ordered, eq);
    match op {
        Compare::Eq => eq,
        Compare::Lt => less(aig, format, a, b, ordered, both_zero),
        Compare::Le => {
            let lt = less(aig, format, a, b, ordered, both_zero);
            aig.or(lt, eq)
        }
    }
}
/// Whether `a` is a NaN.
pub fn is_nan(aig: &mut Aig, format: Format, a: &Bv) -> AigLit {
    let (field_ones, frac_zero) = fields(aig, format, a);
    aig.and(field_ones, !frac_zero)
}

/// Whether `a` is an infinity.
pub fn is_infinite(aig: &mut Aig, format: Format, a: &Bv) -> AigLit {
    let (field_ones, frac_zero) = fields(aig, format, a);
    aig.and(field_ones, frac_zero)
}

/// Whether `a` is +0 or -0.
pub fn is_zero(aig: &mut Aig, format: Format, a: &Bv) -> AigLit {
    check_width(format, a);
    a.extract(format.bits() - 2, 0).is_zero(aig)
}

/// Whether `a` is subnormal.
pub fn is_subnormal(aig: &mut Aig, format: Format, a: &Bv) -> AigLit {
    check_width(format, a);
    let fb = format.fraction_bits();
    let field_zero = a.extract(format.bits() - 2, fb).is_zero(aig);
    let frac_zero = a.extract(fb - 1, 0).is_zero(aig);
    aig.and(field_zero, !frac_zero)
}

/// `a` converted from `from` to `to`, rounded by `rm` when narrowing.
pub fn convert(aig: &mut Aig, from: Format, to: Format, rm: Rounding, a: &Bv) -> Bv {
    check_width(from, a);
    if let Some(x) = a.as_const() {
        return Bv::constant(concrete::convert(from, to, rm, x), to.bits());
    }
    if from == to {
        return a.clone();
    }
    conversion::convert(aig, from, to, rm, a)
}

/// The integer `v` (of any width from 1 to 128, two's complement if `signed`) converted to `to`,
/// rounded by `rm`.
pub fn from_int(aig: &mut Aig, to: Format, rm: Rounding, v: &Bv, signed: bool) -> Bv {
    if let Some(x) = v.as_const() {
        return Bv::constant(concrete::from_int(to, rm, x, v.width(), signed), to.bits());
    }
    conversion::from_int(aig, to, rm, v, signed)
}

/// C's conversion of `a` to an integer of `bits` bits (truncation toward zero); the literal is true
/// when `a` is a NaN or its truncated value does not fit (the value is then meaningless), as
/// `base::fp::to_int` returns `None`.
pub fn to_int(aig: &mut Aig, from: Format, a: &Bv, bits: u32, signed: bool) -> (Bv, AigLit) {
    check_width(from, a);
    assert!((1..=128).contains(&bits), "integer width {bits} not in 1..=128");
    if let Some(x) = a.as_const() {
        return match concrete::to_int(from, x, bits, signed) {
            Some(v) => (Bv::constant(v, bits), AigLit::FALSE),
            None => (Bv::zero(bits), AigLit::TRUE),
        };
    }
    conversion::to_int(aig, from, a, bits, signed)
}

/// `a` rounded by `rm` to an integral value of the same format (`floor`, `ceil`, `trunc`, `round`,
/// `rint`).
pub fn round_to_integral(aig: &mut Aig, format: Format, rm: Rounding, a: &Bv) -> Bv {
    check_width(format, a);
    if let Some(x) = a.as_const() {
        return Bv::constant(concrete::round_to_integral(format, rm, x), format.bits());
    }
    conversion::round_to_integral(aig, format, rm, a)
}

fn check_width(format: Format, a: &Bv) {
    assert_eq!(a.width(), format.bits(), "{format:?} operand of width {}", a.width());
}

/// Whether `a < b`, given whether neither is a NaN and whether both are zeros.
fn less(aig: &mut Aig, format: Format, a: &Bv, b: &Bv, ordered: AigLit, both_zero: AigLit) -> AigLit {
    // Apart from zeros and NaNs, magnitudes order as the encodings without the sign bit.
    let top = format.bits() - 2;
    let (mag_a, mag_b) = (a.extract(top, 0), b.extract(top, 0));
    let below = mag_a.ult(aig, &mag_b);
    let above = mag_b.ult(aig, &mag_a);
    let (sign_a, sign_b) = (a.msb(), b.msb());
    let negative_less = aig.ite(sign_b, above, !both_zero);
    let positive_less = aig.and(!sign_b, below);
    let res = aig.ite(sign_a, negative_less, positive_less);
    aig.and(ordered, res)
}

/// Whether the exponent field of `a` is all ones, and whether its fraction is zero.
fn fields(aig: &mut Aig, format: Format, a: &Bv) -> (AigLit, AigLit) {
    check_width(format, a);
    let fb = format.fraction_bits();
    let field_ones = a.extract(format.bits() - 2, fb).reduce_and(aig);
    let frac_zero = a.extract(fb - 1, 0).is_zero(aig);
    (field_ones, frac_zero)
}

#[cfg(test)]
mod tests;
