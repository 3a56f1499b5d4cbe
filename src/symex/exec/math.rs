//! The `math.h` models (`libmodels::Math`) as circuits (`sat::fp`). The concrete interpreter
//! computes the same functions by `base::fp` (`symex::interp::math`); the two are written apart.
//!
//! `fmod`, `remainder` and `ldexp` have no circuit: they are computed when their operands are
//! constants (and `ldexp` as a multiplication by a power of two the format holds), and cut the path
//! as unsupported otherwise.

use super::{Exec, Value, R};
use crate::base::fp::{self as concrete, Arith, Compare, Format, Rounding};
use crate::cfront::ir::{Expr, FuncId};
use crate::cfront::types::{TypeId, TypeKind};
use crate::libmodels::{Math, QuietCompare};
use crate::sat::{fp, AigLit, Bv};
use crate::symex::semantics::{self, Unsupported};

impl Exec<'_, '_> {
    /// `lhs = f(args)` for the `math.h` function `f` with model `m`.
    pub(super) fn math_call(&mut self, f: FuncId, m: Math, lhs: Option<&Expr>, args: &[Expr]) -> R<()> {
        let name = self.w.prog.func(f).name.clone();
        let ret = match self.types().kind(self.w.prog.func(f).ty) {
            TypeKind::Func(ft) => ft.ret,
            _ => return Err(Unsupported(format!("a call of '{name}', which is no function"))),
        };
        let format_of = |ex: &Self, t: TypeId| {
            ex.types()
                .float_format(t)
                .ok_or_else(|| Unsupported(format!("'{name}' of a type vcov does not model as floating")))
        };
        match m {
            Math::Inf => {
                let format = format_of(self, ret)?;
                return self.store_result(
                    lhs,
                    Value::Scalar(Bv::constant(format.infinity(), format.bits())),
                    Some(ret),
                );
            }
            Math::Nan => {
                let format = format_of(self, ret)?;
                if !self.w.prog.string_literal(&args[0]).is_some_and(|s| s.iter().all(|&b| b == 0)) {
                    return Err(Unsupported(format!("'{name}' with a payload")));
                }
                let nan = Bv::constant(format.exponent_mask() | format.quiet_bit(), format.bits());
                return self.store_result(lhs, Value::Scalar(nan), Some(ret));
            }
            Math::Quiet(c) => {
                let (format, x, y) = self.common_format(&name, &args[0], &args[1])?;
                let lt = |ex: &mut Self, a, b| fp::compare(ex.aig, format, Compare::Lt, a, b);
                let v = match c {
                    QuietCompare::Greater => lt(self, &y, &x),
                    QuietCompare::GreaterEqual => fp::compare(self.aig, format, Compare::Le, &y, &x),
                    QuietCompare::Less => lt(self, &x, &y),
                    QuietCompare::LessEqual => fp::compare(self.aig, format, Compare::Le, &x, &y),
                    QuietCompare::LessGreater => {
                        let (a, b) = (lt(self, &x, &y), lt(self, &y, &x));
                        self.aig.or(a, b)
                    }
                    QuietCompare::Unordered => {
                        let (a, b) = (fp::is_nan(self.aig, format, &x), fp::is_nan(self.aig, format, &y));
                        self.aig.or(a, b)
                    }
                };
                let r = semantics::repr(self.types(), ret)?;
                return self.store_result(lhs, Value::Scalar(semantics::bool_value(v, r.bits)), Some(ret));
            }
            Math::FpclassifyArgs => {
                // `__builtin_fpclassify(nan, infinite, normal, subnormal, zero, x)`.
                let format = format_of(self, args[5].ty)?;
                let x = self.scalar(&args[5])?;
                let r = semantics::repr(self.types(), ret)?;
                let mut picks = Vec::new();
                for a in &args[..5] {
                    let v = self.scalar(a)?;
                    let ar = semantics::repr(self.types(), a.ty)?;
                    picks.push(semantics::convert(self.aig, &v, ar, r));
                }
                let v = self.classified(format, &x, [&picks[0], &picks[1], &picks[2], &picks[3], &picks[4]]);
                return self.store_result(lhs, Value::Scalar(v), Some(ret));
            }
            _ => {}
        }
        // Every other function takes a floating value first and computes in its format.
        let format = format_of(self, args[0].ty)?;
        let ty = args[0].ty;
        let x = self.scalar(&args[0])?;
        let rm = self.rounding();
        let sign = Bv::constant(format.sign_mask(), format.bits());
        let value = match m {
            Math::Fabs => x.and(self.aig, &sign.not()),
            Math::Copysign => {
                let y = self.scalar(&args[1])?;
                let magnitude = x.and(self.aig, &sign.not());
                let s = y.and(self.aig, &sign);
                magnitude.or(self.aig, &s)
            }
            Math::Sqrt => fp::sqrt(self.aig, format, rm, &x),
            Math::Fma => {
                let (y, z) = (self.scalar(&args[1])?, self.scalar(&args[2])?);
                fp::fma(self.aig, format, rm, &x, &y, &z)
            }
            Math::Floor => fp::round_to_integral(self.aig, format, Rounding::Down, &x),
            Math::Ceil => fp::round_to_integral(self.aig, format, Rounding::Up, &x),
            Math::Trunc => fp::round_to_integral(self.aig, format, Rounding::TowardZero, &x),
            Math::Round => fp::round_to_integral(self.aig, format, Rounding::NearestAway, &x),
            Math::Rint => fp::round_to_integral(self.aig, format, rm, &x),
            Math::Lround | Math::Lrint => {
                let r = semantics::repr(self.types(), ret)?;
                let mode = if m == Math::Lround { Rounding::NearestAway } else { rm };
                let rounded = fp::round_to_integral(self.aig, format, mode, &x);
                let (v, invalid) = fp::to_int(self.aig, format, &rounded, r.bits, true);
                if invalid != AigLit::FALSE {
                    self.narrowed.push((!invalid, "a rounding to an integer type out of its range (unspecified)"));
                }
                return self.store_result(lhs, Value::Scalar(v), Some(ret));
            }
            Math::Fmin | Math::Fmax => {
                let y = self.scalar(&args[1])?;
                self.min_max(format, m == Math::Fmin, &x, &y)
            }
            Math::Fmod | Math::Remainder => {
                let y = self.scalar(&args[1])?;
                match (x.as_const(), y.as_const()) {
                    (Some(a), Some(b)) if m == Math::Fmod => Bv::constant(concrete::fmod(format, a, b), format.bits()),
                    (Some(a), Some(b)) => Bv::constant(concrete::remainder(format, a, b), format.bits()),
                    _ => return Err(Unsupported(format!("'{name}' of values that are not constants"))),
                }
            }
            Math::Ldexp => self.ldexp(format, &name, &x, &args[1])?,
            _ => {
                let r = semantics::repr(self.types(), ret)?;
                let v = self.predicate(format, m, &x, r.bits);
                return self.store_result(lhs, Value::Scalar(v), Some(ret));
            }
        };
        self.store_result(lhs, Value::Scalar(value), Some(ty))
    }

    /// `ldexp(x, n)`: with a constant `n` whose power of two the format holds, the multiplication by
    /// it (one rounding, as `ldexp`'s); with both constant, `base::fp`'s.
    fn ldexp(&mut self, format: Format, name: &str, x: &Bv, n: &Expr) -> R<Bv> {
        let nv = self.scalar(n)?;
        let nr = semantics::repr(self.types(), n.ty)?;
        let Some(k) = nv.as_const().map(|v| crate::base::bits::sign_extend(v, nr.bits) as i64) else {
            return Err(Unsupported(format!("'{name}' with an exponent that is not a constant")));
        };
        if let Some(a) = x.as_const() {
            return Ok(Bv::constant(concrete::scale(format, self.rounding(), a, k), format.bits()));
        }
        let bias = (1i64 << (format.exponent_bits() - 1)) - 1;
        if k < 1 - bias || k > bias {
            return Err(Unsupported(format!("'{name}' by a power of two out of the format's normal range")));
        }
        let power = ((k + bias) as u128) << format.fraction_bits();
        Ok(fp::arith(self.aig, format, self.rounding(), Arith::Mul, x, &Bv::constant(power, format.bits())))
    }

    /// `fmin` or `fmax` as glibc computes them: a NaN operand ignored (two NaNs give the first,
    /// quiet), `-0` below `+0`.
    fn min_max(&mut self, format: Format, min: bool, x: &Bv, y: &Bv) -> Bv {
        let w = format.bits();
        let (xn, yn) = (fp::is_nan(self.aig, format, x), fp::is_nan(self.aig, format, y));
        let both_zero = {
            let (xz, yz) = (fp::is_zero(self.aig, format, x), fp::is_zero(self.aig, format, y));
            self.aig.and(xz, yz)
        };
        let sign = Bv::constant(format.sign_mask(), w);
        let zero = if min {
            let s = x.or(self.aig, y);
            s.and(self.aig, &sign)
        } else {
            let s = x.and(self.aig, y);
            s.and(self.aig, &sign)
        };
        let x_first = if min {
            fp::compare(self.aig, format, Compare::Lt, x, y)
        } else {
            fp::compare(self.aig, format, Compare::Lt, y, x)
        };
        let ordered = Bv::ite(self.aig, x_first, x, y);
        let ordered = Bv::ite(self.aig, both_zero, &zero, &ordered);
        let quiet_x = x.or(self.aig, &Bv::constant(format.quiet_bit(), w));
        let y_nan = Bv::ite(self.aig, xn, &quiet_x, x);
        let x_nan = Bv::ite(self.aig, yn, &quiet_x, y);
        let v = Bv::ite(self.aig, yn, &y_nan, &ordered);
        Bv::ite(self.aig, xn, &x_nan, &v)
    }

    /// The integer result, of `bits` bits, of a classification function.
    fn predicate(&mut self, format: Format, m: Math, x: &Bv, bits: u32) -> Bv {
        let c = |v: i128| Bv::constant(v as u128, bits);
        let (zero, one) = (c(0), c(1));
        let nan = fp::is_nan(self.aig, format, x);
        let inf = fp::is_infinite(self.aig, format, x);
        let neg = x.msb();
        match m {
            Math::IsNan => semantics::bool_value(nan, bits),
            Math::IsInf => semantics::bool_value(inf, bits),
            Math::IsInfSign => {
                let signed = Bv::ite(self.aig, neg, &c(-1), &one);
                Bv::ite(self.aig, inf, &signed, &zero)
            }
            Math::IsFinite => {
                let special = self.aig.or(nan, inf);
                semantics::bool_value(!special, bits)
            }
            Math::IsNormal => {
                let zero = fp::is_zero(self.aig, format, x);
                let sub = fp::is_subnormal(self.aig, format, x);
                let special = self.aig.or(nan, inf);
                let small = self.aig.or(zero, sub);
                let not_normal = self.aig.or(special, small);
                semantics::bool_value(!not_normal, bits)
            }
            Math::GlibcSignbit => {
                let at = if format == Format::Double { 7 } else { 3 };
                Bv::ite(self.aig, neg, &c(1 << at), &zero)
            }
            Math::Signbit => {
                let at = if format == Format::Double { 0 } else { 31 };
                Bv::ite(self.aig, neg, &c(1 << at), &zero)
            }
            _ => {
                let classes = [&c(0), &c(1), &c(4), &c(3), &c(2)];
                self.classified(format, x, classes)
            }
        }
    }

    /// The values of two floating operands converted to the wider of their formats (exactly).
    fn common_format(&mut self, name: &str, a: &Expr, b: &Expr) -> R<(Format, Bv, Bv)> {
        let types = self.types();
        let (Some(fa), Some(fb)) = (types.float_format(a.ty), types.float_format(b.ty)) else {
            return Err(Unsupported(format!("'{name}' of values vcov does not model as floating")));
        };
        let (x, y) = (self.scalar(a)?, self.scalar(b)?);
        let f = fa.max(fb);
        let rm = self.rounding();
        Ok((f, fp::convert(self.aig, fa, f, rm, &x), fp::convert(self.aig, fb, f, rm, &y)))
    }

    /// One of five values by the class of `x`: NaN, infinite, normal, subnormal, zero.
    fn classified(&mut self, format: Format, x: &Bv, [nan, inf, normal, subnormal, zero]: [&Bv; 5]) -> Bv {
        let is_nan = fp::is_nan(self.aig, format, x);
        let is_inf = fp::is_infinite(self.aig, format, x);
        let is_zero = fp::is_zero(self.aig, format, x);
        let is_sub = fp::is_subnormal(self.aig, format, x);
        let v = Bv::ite(self.aig, is_sub, subnormal, normal);
        let v = Bv::ite(self.aig, is_zero, zero, &v);
        let v = Bv::ite(self.aig, is_inf, inf, &v);
        Bv::ite(self.aig, is_nan, nan, &v)
    }
}
