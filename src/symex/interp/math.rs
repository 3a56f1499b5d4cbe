//! The `math.h` models (`libmodels::Math`) on concrete values, by `base::fp`: written apart from the
//! executor's circuits (`symex::math`), which it checks.

use super::{unsupported, Interp, Val, R};
use crate::base::fp::{self, Compare, Format, Rounding};
use crate::cfront::ir::{Expr, FuncId};
use crate::cfront::types::TypeKind;
use crate::libmodels::{Math, QuietCompare};

impl Interp<'_> {
    /// `lhs = f(args)` for the `math.h` function `f` with model `m`.
    pub(super) fn math_call(&mut self, f: FuncId, m: Math, lhs: Option<&Expr>, args: &[Expr]) -> R<()> {
        let ret = match self.types().kind(self.prog.func(f).ty) {
            TypeKind::Func(ft) => ft.ret,
            _ => return unsupported("a call of a math function that is no function"),
        };
        if m == Math::Inf {
            let Some(format) = self.types().float_format(ret) else {
                return unsupported("`__builtin_inf` of a type vcov does not model");
            };
            return self.store_converted(lhs, Val::Int(format.infinity(), format.bits()), Some(ret));
        }
        if m == Math::FpclassifyArgs {
            // `__builtin_fpclassify(nan, infinite, normal, subnormal, zero, x)`.
            let Some(format) = self.types().float_format(args[5].ty) else {
                return unsupported("`__builtin_fpclassify` of a value vcov does not model as floating");
            };
            let x = self.int(&args[5])?;
            let pick = [0, 1, 4, 3, 2][fpclassify(format, x) as usize];
            let v = self.rvalue(&args[pick])?;
            return self.store_converted(lhs, v, Some(args[pick].ty));
        }
        if let Math::Quiet(c) = m {
            let (format, x, y) = self.common_format(&args[0], &args[1])?;
            let lt = |a, b| fp::compare(format, Compare::Lt, a, b);
            let le = |a, b| fp::compare(format, Compare::Le, a, b);
            let v = match c {
                QuietCompare::Greater => lt(y, x),
                QuietCompare::GreaterEqual => le(y, x),
                QuietCompare::Less => lt(x, y),
                QuietCompare::LessEqual => le(x, y),
                QuietCompare::LessGreater => lt(x, y) || lt(y, x),
                QuietCompare::Unordered => format.is_nan(x) || format.is_nan(y),
            };
            let (bits, _, _) = super::scalar(self.types(), ret)?;
            return self.store_converted(lhs, Val::Int(v as u128, bits), Some(ret));
        }
        if m == Math::Nan {
            let Some(format) = self.types().float_format(ret) else {
                return unsupported("`nan` of a type vcov does not model");
            };
            if !self.prog.string_literal(&args[0]).is_some_and(|s| s.iter().all(|&b| b == 0)) {
                return unsupported("`nan` with a payload");
            }
            return self.store_converted(
                lhs,
                Val::Int(format.exponent_mask() | format.quiet_bit(), format.bits()),
                Some(ret),
            );
        }
        // Every other function takes a floating value first; it computes in that value's format.
        let Some(format) = self.types().float_format(args[0].ty) else {
            return unsupported(format!("`{}` of a value vcov does not model as floating", self.prog.func(f).name));
        };
        let x = self.int(&args[0])?;
        let mut operand = |i: usize| -> R<u128> { self.int(&args[i]) };
        let float = |v: u128| Val::Int(v, format.bits());
        let (value, ty) = match m {
            Math::Fabs => (float(x & !format.sign_mask()), args[0].ty),
            Math::Copysign => (float(x & !format.sign_mask() | operand(1)? & format.sign_mask()), args[0].ty),
            Math::Sqrt => (float(fp::sqrt(format, self.rounding, x)), args[0].ty),
            Math::Fma => {
                let (y, z) = (operand(1)?, operand(2)?);
                (float(fp::fma(format, self.rounding, x, y, z)), args[0].ty)
            }
            Math::Floor | Math::Ceil | Math::Trunc | Math::Round | Math::Rint => {
                let rm = match m {
                    Math::Floor => Rounding::Down,
                    Math::Ceil => Rounding::Up,
                    Math::Trunc => Rounding::TowardZero,
                    Math::Round => Rounding::NearestAway,
                    _ => self.rounding,
                };
                (float(fp::round_to_integral(format, rm, x)), args[0].ty)
            }
            Math::Lround | Math::Lrint => {
                let (bits, _, _) = super::scalar(self.types(), ret)?;
                let rm = if m == Math::Lround { Rounding::NearestAway } else { self.rounding };
                match fp::to_int(format, fp::round_to_integral(format, rm, x), bits, true) {
                    Some(v) => (Val::Int(v, bits), ret),
                    None => return unsupported("a rounding to an integer type out of its range (unspecified)"),
                }
            }
            Math::Fmin | Math::Fmax => (float(min_max(format, m == Math::Fmin, x, operand(1)?)), args[0].ty),
            Math::Fmod => (float(fp::fmod(format, x, operand(1)?)), args[0].ty),
            Math::Remainder => (float(fp::remainder(format, x, operand(1)?)), args[0].ty),
            Math::Ldexp => {
                let n = self.int(&args[1])?;
                let Ok((bits, _, _)) = super::scalar(self.types(), args[1].ty) else {
                    return unsupported("`ldexp` with an exponent that is no integer");
                };
                let n = crate::base::bits::sign_extend(n, bits) as i64;
                (float(fp::scale(format, self.rounding, x, n)), args[0].ty)
            }
            _ => (classify(format, m, x), ret),
        };
        let value = match value {
            // A predicate's result in the declared return type's width (`int`).
            Val::Int(v, _) if ty == ret && self.types().float_format(ret).is_none() => {
                let (bits, _, _) = super::scalar(self.types(), ret)?;
                Val::Int(crate::base::bits::truncate(v, bits), bits)
            }
            v => v,
        };
        self.store_converted(lhs, value, Some(ty))
    }

    /// The values of two floating operands converted to the wider of their formats (exactly).
    fn common_format(&mut self, a: &Expr, b: &Expr) -> R<(Format, u128, u128)> {
        let (Some(fa), Some(fb)) = (self.types().float_format(a.ty), self.types().float_format(b.ty)) else {
            return unsupported("a floating comparison of values vcov does not model as floating");
        };
        let (x, y) = (self.int(a)?, self.int(b)?);
        let f = fa.max(fb);
        Ok((f, fp::convert(fa, f, self.rounding, x), fp::convert(fb, f, self.rounding, y)))
    }
}

/// `fmin` (`min`) or `fmax` as glibc computes them: a NaN operand ignored (two NaNs give the
/// first, quiet), `-0` below `+0`.
fn min_max(format: Format, min: bool, x: u128, y: u128) -> u128 {
    match (format.is_nan(x), format.is_nan(y)) {
        (true, true) => return format.quiet(x),
        (true, false) => return y,
        (false, true) => return x,
        (false, false) => {}
    }
    if format.is_zero(x) && format.is_zero(y) {
        let sign = if min { (x | y) & format.sign_mask() } else { x & y & format.sign_mask() };
        return sign;
    }
    let x_first = if min { fp::compare(format, Compare::Lt, x, y) } else { fp::compare(format, Compare::Lt, y, x) };
    if x_first {
        x
    } else {
        y
    }
}

/// The integer results of the classification functions.
fn classify(format: Format, m: Math, x: u128) -> Val {
    let sign = format.is_negative(x);
    let v: i128 = match m {
        Math::IsNan => format.is_nan(x) as i128,
        Math::IsInf => format.is_infinite(x) as i128,
        Math::IsInfSign if format.is_infinite(x) => {
            if sign {
                -1
            } else {
                1
            }
        }
        Math::IsInfSign => 0,
        Math::IsFinite => !(format.is_nan(x) || format.is_infinite(x)) as i128,
        Math::IsNormal => (fpclassify(format, x) == 4) as i128,
        Math::GlibcSignbit => match format {
            Format::Double => (sign as i128) << 7,
            Format::Single => (sign as i128) << 3,
        },
        Math::Signbit => match format {
            Format::Double => sign as i128,
            Format::Single => (sign as i128) << 31,
        },
        _ => fpclassify(format, x) as i128,
    };
    Val::Int(v as u128, 128)
}

/// glibc's `FP_NAN` 0, `FP_INFINITE` 1, `FP_ZERO` 2, `FP_SUBNORMAL` 3, `FP_NORMAL` 4.
fn fpclassify(format: Format, x: u128) -> u32 {
    if format.is_nan(x) {
        0
    } else if format.is_infinite(x) {
        1
    } else if format.is_zero(x) {
        2
    } else if format.is_subnormal(x) {
        3
    } else {
        4
    }
}
