//! The `math.h` models (`libmodels::Math`) as circuits (`sat::fp`), shared by the executor
//! (`exec`) and the transition system of `verify::ts` through `MathHost`, which evaluates the
//! arguments and says what a narrowed path is. The concrete interpreter computes the same
//! functions by `base::fp` (`symex::interp::math`); the two are written apart.
//!
//! `fmod`, `remainder` and `ldexp` have no circuit: they are computed when their operands are
//! constants (and `ldexp` as a multiplication by a power of two the format holds), and are
//! unsupported otherwise.

use crate::base::fp::{self as concrete, Arith, Compare, Format, Rounding};
use crate::cfront::ir::{Expr, FuncId, Program};
use crate::cfront::types::{TypeId, TypeKind, Types};
use crate::libmodels::{Math, QuietCompare};
use crate::sat::{fp, Aig, AigLit, Bv};
use crate::symex::semantics::{self, Unsupported};

type R<T> = Result<T, Unsupported>;

/// What a `math.h` model needs of the engine that evaluates a call.
pub trait MathHost {
    /// The circuits.
    fn aig(&mut self) -> &mut Aig;
    /// The program.
    fn prog(&self) -> &Program;
    /// The value of the scalar argument `e`.
    fn scalar(&mut self, e: &Expr) -> R<Bv>;
    /// The rounding mode of the call.
    fn rounding(&self) -> Rounding;
    /// The call goes on where `lit` holds; where it does not, the rest of the path is cut (`why`
    /// says why), so that no conclusion is drawn from it.
    fn narrow(&mut self, lit: AigLit, why: &'static str);
}

/// The result of `f(args)` for the `math.h` function `f` with model `m`, and its type (the
/// function's return type, or that of the first argument for the functions that compute in it).
pub fn call<H: MathHost>(h: &mut H, f: FuncId, m: Math, args: &[Expr]) -> R<(Bv, TypeId)> {
    let prog = h.prog();
    let types: &Types = &prog.types;
    let name = prog.func(f).name.clone();
    let ret = match types.kind(prog.func(f).ty) {
        TypeKind::Func(ft) => ft.ret,
        _ => return Err(Unsupported(format!("a call of '{name}', which is no function"))),
    };
    let format_of = |h: &H, t: TypeId| {
        h.prog()
            .types
            .float_format(t)
            .ok_or_else(|| Unsupported(format!("'{name}' of a type vcov does not model as floating")))
    };
    match m {
        Math::Inf => {
            let format = format_of(h, ret)?;
            return Ok((Bv::constant(format.infinity(), format.bits()), ret));
        }
        Math::Nan => {
            let format = format_of(h, ret)?;
            if !h.prog().string_literal(&args[0]).is_some_and(|s| s.iter().all(|&b| b == 0)) {
                return Err(Unsupported(format!("'{name}' with a payload")));
            }
            return Ok((Bv::constant(format.exponent_mask() | format.quiet_bit(), format.bits()), ret));
        }
        Math::Quiet(c) => {
            let (format, x, y) = common_format(h, &name, &args[0], &args[1])?;
            let aig = h.aig();
            let v = match c {
                QuietCompare::Greater => fp::compare(aig, format, Compare::Lt, &y, &x),
                QuietCompare::GreaterEqual => fp::compare(aig, format, Compare::Le, &y, &x),
                QuietCompare::Less => fp::compare(aig, format, Compare::Lt, &x, &y),
                QuietCompare::LessEqual => fp::compare(aig, format, Compare::Le, &x, &y),
                QuietCompare::LessGreater => {
                    let (a, b) =
                        (fp::compare(aig, format, Compare::Lt, &x, &y), fp::compare(aig, format, Compare::Lt, &y, &x));
                    aig.or(a, b)
                }
                QuietCompare::Unordered => {
                    let (a, b) = (fp::is_nan(aig, format, &x), fp::is_nan(aig, format, &y));
                    aig.or(a, b)
                }
            };
            let r = semantics::repr(&h.prog().types, ret)?;
            return Ok((semantics::bool_value(v, r.bits), ret));
        }
        Math::FpclassifyArgs => {
            // `__builtin_fpclassify(nan, infinite, normal, subnormal, zero, x)`.
            let format = format_of(h, args[5].ty)?;
            let x = h.scalar(&args[5])?;
            let r = semantics::repr(&h.prog().types, ret)?;
            let mut picks = Vec::new();
            for a in &args[..5] {
                let v = h.scalar(a)?;
                let ar = semantics::repr(&h.prog().types, a.ty)?;
                picks.push(semantics::convert(h.aig(), &v, ar, r));
            }
            let v = classified(h.aig(), format, &x, [&picks[0], &picks[1], &picks[2], &picks[3], &picks[4]]);
            return Ok((v, ret));
        }
        _ => {}
    }
    // Every other function takes a floating value first and computes in its format.
    let format = format_of(h, args[0].ty)?;
    let ty = args[0].ty;
    let x = h.scalar(&args[0])?;
    let rm = h.rounding();
    let sign = Bv::constant(format.sign_mask(), format.bits());
    let value = match m {
        Math::Fabs => x.and(h.aig(), &sign.not()),
        Math::Copysign => {
            let y = h.scalar(&args[1])?;
            let aig = h.aig();
            let magnitude = x.and(aig, &sign.not());
            let s = y.and(aig, &sign);
            magnitude.or(aig, &s)
        }
        Math::Sqrt => fp::sqrt(h.aig(), format, rm, &x),
        Math::Fma => {
            let (y, z) = (h.scalar(&args[1])?, h.scalar(&args[2])?);
            fp::fma(h.aig(), format, rm, &x, &y, &z)
        }
        Math::Floor => fp::round_to_integral(h.aig(), format, Rounding::Down, &x),
        Math::Ceil => fp::round_to_integral(h.aig(), format, Rounding::Up, &x),
        Math::Trunc => fp::round_to_integral(h.aig(), format, Rounding::TowardZero, &x),
        Math::Round => fp::round_to_integral(h.aig(), format, Rounding::NearestAway, &x),
        Math::Rint => fp::round_to_integral(h.aig(), format, rm, &x),
        Math::Lround | Math::Lrint => {
            let r = semantics::repr(&h.prog().types, ret)?;
            let mode = if m == Math::Lround { Rounding::NearestAway } else { rm };
            let rounded = fp::round_to_integral(h.aig(), format, mode, &x);
            let (v, invalid) = fp::to_int(h.aig(), format, &rounded, r.bits, true);
            if invalid != AigLit::FALSE {
                h.narrow(!invalid, "a rounding to an integer type out of its range (unspecified)");
            }
            return Ok((v, ret));
        }
        Math::Fmin | Math::Fmax => {
            let y = h.scalar(&args[1])?;
            min_max(h.aig(), format, m == Math::Fmin, &x, &y)
        }
        Math::Fmod | Math::Remainder => {
            let y = h.scalar(&args[1])?;
            match (x.as_const(), y.as_const()) {
                (Some(a), Some(b)) if m == Math::Fmod => Bv::constant(concrete::fmod(format, a, b), format.bits()),
                (Some(a), Some(b)) => Bv::constant(concrete::remainder(format, a, b), format.bits()),
                _ => return Err(Unsupported(format!("'{name}' of values that are not constants"))),
            }
        }
        Math::Ldexp => ldexp(h, format, &name, &x, &args[1])?,
        _ => {
            let r = semantics::repr(&h.prog().types, ret)?;
            let v = predicate(h.aig(), format, m, &x, r.bits);
            return Ok((v, ret));
        }
    };
    Ok((value, ty))
}

/// `ldexp(x, n)`: with a constant `n` whose power of two the format holds, the multiplication by
/// it (one rounding, as `ldexp`'s); with both constant, `base::fp`'s.
fn ldexp<H: MathHost>(h: &mut H, format: Format, name: &str, x: &Bv, n: &Expr) -> R<Bv> {
    let nv = h.scalar(n)?;
    let nr = semantics::repr(&h.prog().types, n.ty)?;
    let Some(k) = nv.as_const().map(|v| crate::base::bits::sign_extend(v, nr.bits) as i64) else {
        return Err(Unsupported(format!("'{name}' with an exponent that is not a constant")));
    };
    if let Some(a) = x.as_const() {
        return Ok(Bv::constant(concrete::scale(format, h.rounding(), a, k), format.bits()));
    }
    let bias = (1i64 << (format.exponent_bits() - 1)) - 1;
    if k < 1 - bias || k > bias {
        return Err(Unsupported(format!("'{name}' by a power of two out of the format's normal range")));
    }
    let power = ((k + bias) as u128) << format.fraction_bits();
    let rm = h.rounding();
    Ok(fp::arith(h.aig(), format, rm, Arith::Mul, x, &Bv::constant(power, format.bits())))
}

/// `fmin` or `fmax` as glibc computes them: a NaN operand ignored (two NaNs give the first,
/// quiet), `-0` below `+0`.
fn min_max(aig: &mut Aig, format: Format, min: bool, x: &Bv, y: &Bv) -> Bv {
    let w = format.bits();
    let (xn, yn) = (fp::is_nan(aig, format, x), fp::is_nan(aig, format, y));
    let both_zero = {
        let (xz, yz) = (fp::is_zero(aig, format, x), fp::is_zero(aig, format, y));
        aig.and(xz, yz)
    };
    let sign = Bv::constant(format.sign_mask(), w);
    let zero = if min {
        let s = x.or(aig, y);
        s.and(aig, &sign)
    } else {
        let s = x.and(aig, y);
        s.and(aig, &sign)
    };
    let x_first =
        if min { fp::compare(aig, format, Compare::Lt, x, y) } else { fp::compare(aig, format, Compare::Lt, y, x) };
    let ordered = Bv::ite(aig, x_first, x, y);
    let ordered = Bv::ite(aig, both_zero, &zero, &ordered);
    let quiet_x = x.or(aig, &Bv::constant(format.quiet_bit(), w));
    let y_nan = Bv::ite(aig, xn, &quiet_x, x);
    let x_nan = Bv::ite(aig, yn, &quiet_x, y);
    let v = Bv::ite(aig, yn, &y_nan, &ordered);
    Bv::ite(aig, xn, &x_nan, &v)
}

/// The integer result, of `bits` bits, of a classification function.
fn predicate(aig: &mut Aig, format: Format, m: Math, x: &Bv, bits: u32) -> Bv {
    let c = |v: i128| Bv::constant(v as u128, bits);
    let (zero, one) = (c(0), c(1));
    let nan = fp::is_nan(aig, format, x);
    let inf = fp::is_infinite(aig, format, x);
    let neg = x.msb();
    match m {
        Math::IsNan => semantics::bool_value(nan, bits),
        Math::IsInf => semantics::bool_value(inf, bits),
        Math::IsInfSign => {
            let signed = Bv::ite(aig, neg, &c(-1), &one);
            Bv::ite(aig, inf, &signed, &zero)
        }
        Math::IsFinite => {
            let special = aig.or(nan, inf);
            semantics::bool_value(!special, bits)
        }
        Math::IsNormal => {
            let zero = fp::is_zero(aig, format, x);
            let sub = fp::is_subnormal(aig, format, x);
            let special = aig.or(nan, inf);
            let small = aig.or(zero, sub);
            let not_normal = aig.or(special, small);
            semantics::bool_value(!not_normal, bits)
        }
        Math::GlibcSignbit => {
            let at = if format == Format::Double { 7 } else { 3 };
            Bv::ite(aig, neg, &c(1 << at), &zero)
        }
        Math::Signbit => {
            let at = if format == Format::Double { 0 } else { 31 };
            Bv::ite(aig, neg, &c(1 << at), &zero)
        }
        _ => {
            let classes = [&c(0), &c(1), &c(4), &c(3), &c(2)];
            classified(aig, format, x, classes)
        }
    }
}

/// The values of two floating operands converted to the wider of their formats (exactly).
fn common_format<H: MathHost>(h: &mut H, name: &str, a: &Expr, b: &Expr) -> R<(Format, Bv, Bv)> {
    let types = &h.prog().types;
    let (Some(fa), Some(fb)) = (types.float_format(a.ty), types.float_format(b.ty)) else {
        return Err(Unsupported(format!("'{name}' of values vcov does not model as floating")));
    };
    let (x, y) = (h.scalar(a)?, h.scalar(b)?);
    let f = fa.max(fb);
    let rm = h.rounding();
    let x = fp::convert(h.aig(), fa, f, rm, &x);
    let y = fp::convert(h.aig(), fb, f, rm, &y);
    Ok((f, x, y))
}

/// One of five values by the class of `x`: NaN, infinite, normal, subnormal, zero.
fn classified(aig: &mut Aig, format: Format, x: &Bv, [nan, inf, normal, subnormal, zero]: [&Bv; 5]) -> Bv {
    let is_nan = fp::is_nan(aig, format, x);
    let is_inf = fp::is_infinite(aig, format, x);
    let is_zero = fp::is_zero(aig, format, x);
    let is_sub = fp::is_subnormal(aig, format, x);
    let v = Bv::ite(aig, is_sub, subnormal, normal);
    let v = Bv::ite(aig, is_zero, zero, &v);
    let v = Bv::ite(aig, is_inf, inf, &v);
    Bv::ite(aig, is_nan, nan, &v)
}
