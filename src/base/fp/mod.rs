//! IEEE 754 binary32 and binary64 values as their bit patterns, and the concrete operations on them
//! in every rounding mode, as an x86-64 processor computes them with SSE (which is also what gcc
//! `-m32 -msse2 -mfpmath=sse` computes).
//!
//! The arithmetic is `rustc_apfloat`'s (the Rust compiler's port of LLVM's `APFloat`: exact
//! software IEEE arithmetic in all five rounding modes), so it is independent both of the host's
//! floating-point unit and of the circuits of `sat::fp`, which are checked against it. On top of it
//! this module fixes what IEEE 754 leaves to the processor, as SSE does it:
//!
//! - an operation with a NaN operand returns the first NaN operand (left to right), made quiet;
//! - an invalid operation without NaN operand (`0/0`, `inf - inf`, `sqrt(-1)`, ...) returns the
//!   *default NaN*: sign set, quiet bit set, payload zero (`0xffc00000`, `0xfff8000000000000`);
//! - conversions between the formats keep a NaN's sign and the top bits of its payload and make
//!   it quiet;
//! - subnormal inputs and results are kept (no flush to zero).
//!
//! A conversion to an integer that is NaN or out of the integer type's range is undefined in C;
//! `to_int` returns `None` for it and the caller decides.
//!
//! Invariant: depends on `std` and `rustc_apfloat` only; values are bit patterns in the low bits
//! of a `u128`, never host `f32`/`f64` arithmetic.

use rustc_apfloat::ieee::{Double, Quad, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

/// An IEEE 754 binary interchange format vcov models.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Format {
    /// binary32 (`float`).
    Single,
    /// binary64 (`double`).
    Double,
}

impl Format {
    /// The C type of the format's values: `float` or `double`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Single => "float",
            Format::Double => "double",
        }
    }

    /// The width of the encoding in bits.
    pub fn bits(self) -> u32 {
        match self {
            Format::Single => 32,
            Format::Double => 64,
        }
    }

    /// The width of the exponent field.
    pub fn exponent_bits(self) -> u32 {
        match self {
            Format::Single => 8,
            Format::Double => 11,
        }
    }

    /// The width of the stored significand (without the hidden bit).
    pub fn fraction_bits(self) -> u32 {
        self.bits() - self.exponent_bits() - 1
    }

    /// The sign bit.
    pub fn sign_mask(self) -> u128 {
        1u128 << (self.bits() - 1)
    }

    /// The quiet bit of a NaN (the top bit of the fraction).
    pub fn quiet_bit(self) -> u128 {
        1u128 << (self.fraction_bits() - 1)
    }

    /// All ones in the exponent field.
    pub fn exponent_mask(self) -> u128 {
        ((1u128 << self.exponent_bits()) - 1) << self.fraction_bits()
    }

    /// The fraction field.
    pub fn fraction_mask(self) -> u128 {
        (1u128 << self.fraction_bits()) - 1
    }

    /// The NaN an invalid operation returns: negative, quiet, payload zero.
    pub fn default_nan(self) -> u128 {
        self.sign_mask() | self.exponent_mask() | self.quiet_bit()
    }

    /// The encoding of positive infinity.
    pub fn infinity(self) -> u128 {
        self.exponent_mask()
    }

    /// Whether `v` encodes a NaN.
    pub fn is_nan(self, v: u128) -> bool {
        v & self.exponent_mask() == self.exponent_mask() && v & self.fraction_mask() != 0
    }

    /// Whether `v` encodes an infinity.
    pub fn is_infinite(self, v: u128) -> bool {
        v & !self.sign_mask() == self.exponent_mask()
    }

    /// Whether `v` encodes +0 or -0.
    pub fn is_zero(self, v: u128) -> bool {
        v & !self.sign_mask() == 0
    }

    /// Whether `v` encodes a subnormal number.
    pub fn is_subnormal(self, v: u128) -> bool {
        v & self.exponent_mask() == 0 && v & self.fraction_mask() != 0
    }

    /// Whether the sign bit of `v` is set (NaNs and zeros included).
    pub fn is_negative(self, v: u128) -> bool {
        v & self.sign_mask() != 0
    }

    /// `v` with the quiet bit set.
    pub fn quiet(self, v: u128) -> u128 {
        v | self.quiet_bit()
    }
}

/// A rounding mode (C's `FE_*` and `round`'s ties away from zero).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Rounding {
    /// `FE_TONEAREST`: to nearest, ties to even (the default).
    NearestEven,
    /// `FE_UPWARD`: toward positive infinity.
    Up,
    /// `FE_DOWNWARD`: toward negative infinity.
    Down,
    /// `FE_TOWARDZERO`.
    TowardZero,
    /// To nearest, ties away from zero (`round`, `lround`); no C rounding mode.
    NearestAway,
}

impl Rounding {
    /// The four modes `fesetround` can set, in the order of x86's `FE_*` values.
    pub const DYNAMIC: [Rounding; 4] = [Rounding::NearestEven, Rounding::Down, Rounding::Up, Rounding::TowardZero];

    /// The mode of glibc's `FE_*` value on x86 (`0`, `0x400`, `0x800`, `0xc00`).
    pub fn from_fe(value: u128) -> Option<Rounding> {
        match value {
            0 => Some(Rounding::NearestEven),
            0x400 => Some(Rounding::Down),
            0x800 => Some(Rounding::Up),
            0xc00 => Some(Rounding::TowardZero),
            _ => None,
        }
    }

    /// glibc's `FE_*` value of the mode on x86 (`fegetround`); `None` for `NearestAway`.
    pub fn fe_value(self) -> Option<u128> {
        match self {
            Rounding::NearestEven => Some(0),
            Rounding::Down => Some(0x400),
            Rounding::Up => Some(0x800),
            Rounding::TowardZero => Some(0xc00),
            Rounding::NearestAway => None,
        }
    }

    fn apfloat(self) -> Round {
        match self {
            Rounding::NearestEven => Round::NearestTiesToEven,
            Rounding::Up => Round::TowardPositive,
            Rounding::Down => Round::TowardNegative,
            Rounding::TowardZero => Round::TowardZero,
            Rounding::NearestAway => Round::NearestTiesToAway,
        }
    }
}

/// A binary arithmetic operation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Arith {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

/// A comparison.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Compare {
    /// `==` (false with a NaN; `-0 == +0`).
    Eq,
    /// `<`
    Lt,
    /// `<=`
    Le,
}

/// Runs `f` on the values of `format` that `a` and `b` encode, with apfloat's type for it.
macro_rules! with_format {
    ($format:expr, |$t:ident| $body:expr) => {
        match $format {
            Format::Single => {
                type $t = Single;
                $body
            }
            Format::Double => {
                type $t = Double;
                $body
            }
        }
    };
}

/// The first NaN operand made quiet, or `None` when no operand is a NaN.
fn propagate(format: Format, operands: &[u128]) -> Option<u128> {
    operands.iter().find(|&&v| format.is_nan(v)).map(|&v| format.quiet(v))
}

/// The result of an operation as SSE gives it: a NaN from the operands, the default NaN for an
/// invalid operation, or apfloat's value.
fn settle(format: Format, operands: &[u128], result: u128) -> u128 {
    if let Some(nan) = propagate(format, operands) {
        return nan;
    }
    if format.is_nan(result) {
        return format.default_nan();
    }
    result
}

/// `a op b` rounded by `rm`.
pub fn arith(format: Format, rm: Rounding, op: Arith, a: u128, b: u128) -> u128 {
    let r = with_format!(format, |F| {
        let (x, y) = (F::from_bits(a), F::from_bits(b));
        let rd = rm.apfloat();
        let v = match op {
            Arith::Add => x.add_r(y, rd),
            Arith::Sub => x.sub_r(y, rd),
            Arith::Mul => x.mul_r(y, rd),
            Arith::Div => x.div_r(y, rd),
        };
        v.value.to_bits()
    });
    settle(format, &[a, b], r)
}

/// `a * b + c` with one rounding (`fma`).
pub fn fma(format: Format, rm: Rounding, a: u128, b: u128, c: u128) -> u128 {
    let r = with_format!(format, |F| F::from_bits(a)
        .mul_add_r(F::from_bits(b), F::from_bits(c), rm.apfloat())
        .value
        .to_bits());
    settle(format, &[a, b, c], r)
}

/// The square root of `a` rounded by `rm`: IEEE 754 requires it correctly rounded.
///
/// apfloat has no square root, so it is found exactly: the root `r` is the value of the format with
/// `r² ≤ a < next(r)²` (squares computed exactly in binary128, which holds the product of two
/// binary64 significands), then rounded up when the mode and the remainder say so.
pub fn sqrt(format: Format, rm: Rounding, a: u128) -> u128 {
    if format.is_nan(a) {
        return format.quiet(a);
    }
    if format.is_zero(a) {
        return a;
    }
    if format.is_negative(a) {
        return format.default_nan();
    }
    if format.is_infinite(a) {
        return a;
    }
    with_format!(format, |F| {
        let x: Quad = widen::<F>(F::from_bits(a));
        // Bisection over the encodings of non-negative values, which are ordered as integers.
        let (mut lo, mut hi) = (0u128, format.infinity());
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let m: Quad = widen::<F>(F::from_bits(mid));
            if m.mul_r(m, Round::NearestTiesToEven).value <= x {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // lo² ≤ x < hi², hi = next(lo).
        let low: Quad = widen::<F>(F::from_bits(lo));
        if low.mul_r(low, Round::NearestTiesToEven).value == x {
            return lo;
        }
        let up = match rm {
            Rounding::Down | Rounding::TowardZero => false,
            Rounding::Up => true,
            Rounding::NearestEven | Rounding::NearestAway => {
                // Round up when x > ((lo + hi) / 2)², the midpoint computed exactly in binary128.
                let high: Quad = widen::<F>(F::from_bits(hi));
                let mid = low.add_r(high, Round::NearestTiesToEven).value.scalbn(-1);
                x > mid.mul_r(mid, Round::NearestTiesToEven).value
            }
        };
        if up {
            hi
        } else {
            lo
        }
    })
}

fn widen<F: Float + FloatConvert<Quad>>(v: F) -> Quad {
    let mut lost = false;
    v.convert(&mut lost).value
}

/// The comparison `a op b` (false when either is a NaN).
pub fn compare(format: Format, op: Compare, a: u128, b: u128) -> bool {
    if format.is_nan(a) || format.is_nan(b) {
        return false;
    }
    with_format!(format, |F| {
        let (x, y) = (F::from_bits(a), F::from_bits(b));
        match op {
            Compare::Eq => x == y,
            Compare::Lt => x < y,
            Compare::Le => x <= y,
        }
    })
}

/// `a` converted to `to`, rounded by `rm` when narrowing.
pub fn convert(from: Format, to: Format, rm: Rounding, a: u128) -> u128 {
    if from == to {
        return a;
    }
    if from.is_nan(a) {
        let sign = if from.is_negative(a) { to.sign_mask() } else { 0 };
        let payload = a & from.fraction_mask();
        let payload = if to.fraction_bits() > from.fraction_bits() {
            payload << (to.fraction_bits() - from.fraction_bits())
        } else {
            payload >> (from.fraction_bits() - to.fraction_bits())
        };
        return to.quiet(sign | to.exponent_mask() | payload);
    }
    let mut lost = false;
    match (from, to) {
        (Format::Single, Format::Double) => {
            let v: Double = Single::from_bits(a).convert_r(rm.apfloat(), &mut lost).value;
            v.to_bits()
        }
        (Format::Double, Format::Single) => {
            let v: Single = Double::from_bits(a).convert_r(rm.apfloat(), &mut lost).value;
            v.to_bits()
        }
        _ => a,
    }
}

/// The integer `v` (of `bits` bits, `signed` or not) converted to `to`, rounded by `rm`.
pub fn from_int(to: Format, rm: Rounding, v: u128, bits: u32, signed: bool) -> u128 {
    let v = crate::base::bits::truncate(v, bits);
    with_format!(to, |F| {
        if signed {
            F::from_i128_r(crate::base::bits::sign_extend(v, bits), rm.apfloat()).value.to_bits()
        } else {
            F::from_u128_r(v, rm.apfloat()).value.to_bits()
        }
    })
}

/// `a` converted to an integer of `bits` bits by C's rule (truncation toward zero), or `None` when
/// `a` is a NaN or its integer part does not fit (undefined behaviour in C).
pub fn to_int(from: Format, a: u128, bits: u32, signed: bool) -> Option<u128> {
    use crate::base::bits::{mask, max_signed, min_signed, truncate};
    if from.is_nan(a) {
        return None;
    }
    // Truncated in 128 bits (the widest integer), then checked against the type's range.
    let mut exact = false;
    let invalid = |status: rustc_apfloat::Status| status.contains(rustc_apfloat::Status::INVALID_OP);
    with_format!(from, |F| {
        let x = F::from_bits(a);
        if signed {
            let r = x.to_i128_r(128, Round::TowardZero, &mut exact);
            let fits = !invalid(r.status) && (min_signed(bits)..=max_signed(bits)).contains(&r.value);
            fits.then(|| truncate(r.value as u128, bits))
        } else {
            let r = x.to_u128_r(128, Round::TowardZero, &mut exact);
            (!invalid(r.status) && r.value <= mask(bits)).then_some(r.value)
        }
    })
}

/// `a` rounded to an integral value of the same format by `rm` (`floor`, `ceil`, `trunc`, `round`,
/// `rint`).
pub fn round_to_integral(format: Format, rm: Rounding, a: u128) -> u128 {
    if format.is_nan(a) {
        return format.quiet(a);
    }
    with_format!(format, |F| F::from_bits(a).round_to_integral(rm.apfloat()).value.to_bits())
}

/// C's `fmod(a, b)` (exact: the remainder of the division truncated toward zero, the sign of `a`).
pub fn fmod(format: Format, a: u128, b: u128) -> u128 {
    let r = with_format!(format, |F| F::from_bits(a).c_fmod(F::from_bits(b)).value.to_bits());
    settle(format, &[a, b], r)
}

/// IEEE 754's `remainder(a, b)` (exact: `a - n*b` with `n` the nearest integer to `a/b`, ties even).
pub fn remainder(format: Format, a: u128, b: u128) -> u128 {
    let r = with_format!(format, |F| F::from_bits(a).ieee_rem(F::from_bits(b)).value.to_bits());
    settle(format, &[a, b], r)
}

/// `a * 2^n` rounded by `rm` (`ldexp`, `scalbn`).
pub fn scale(format: Format, rm: Rounding, a: u128, n: i64) -> u128 {
    if format.is_nan(a) {
        return format.quiet(a);
    }
    let n = n.clamp(-100_000, 100_000) as i32;
    with_format!(format, |F| F::from_bits(a).scalbn_r(n, rm.apfloat()).to_bits())
}

/// The value of a C floating constant (`1.5`, `.5e-3`, `0x1.8p1`, without suffix) in `format`,
/// rounded to nearest as C requires of constants; `None` when it is no number.
pub fn parse(format: Format, text: &str) -> Option<u128> {
    let text = text.trim();
    with_format!(format, |F| F::from_str_r(text, Round::NearestTiesToEven).ok().map(|r| r.value.to_bits()))
}

/// The exact value as a C99 hexadecimal floating constant (`0x1.8p+1`, `-0x0p+0`), or `NAN`,
/// `-NAN`, `INFINITY`, `-INFINITY`; a subnormal is written with a leading `0x0.`. `strtod` and
/// `strtof` read every finite result back to the same bits.
pub fn hex_literal(format: Format, v: u128) -> String {
    let sign = if format.is_negative(v) { "-" } else { "" };
    if format.is_nan(v) {
        return format!("{sign}NAN");
    }
    if format.is_infinite(v) {
        return format!("{sign}INFINITY");
    }
    let fb = format.fraction_bits();
    let exp_field = ((v & format.exponent_mask()) >> fb) as i64;
    let frac = v & format.fraction_mask();
    let bias = (1i64 << (format.exponent_bits() - 1)) - 1;
    if exp_field == 0 && frac == 0 {
        return format!("{sign}0x0p+0");
    }
    let (lead, exp) = if exp_field == 0 { (0, 1 - bias) } else { (1, exp_field - bias) };
    // The fraction in whole hex digits: pad to a multiple of 4 bits, then drop trailing zeros.
    let pad = (4 - fb % 4) % 4;
    let digits = (fb + pad) / 4;
    let mut hex = format!("{:0width$x}", frac << pad, width = digits as usize);
    while hex.ends_with('0') {
        hex.pop();
    }
    let dot = if hex.is_empty() { String::new() } else { format!(".{hex}") };
    let esign = if exp < 0 { "-" } else { "+" };
    format!("{sign}0x{lead}{dot}p{esign}{}", exp.abs())
}

#[cfg(test)]
mod tests;
