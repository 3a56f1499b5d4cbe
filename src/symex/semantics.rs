//! C integer semantics over `sat::Bv`: conversions, arithmetic, comparisons and pointer arithmetic.
//!
//! The IR already made every integer promotion and usual arithmetic conversion explicit (implicit
//! `Cast` nodes, operands of a binary operator converted to their common type), so this module only
//! has to know what each operator does in a given type:
//!
//! - Widths follow the data model: `char` 8, `short` 16, `int` 32, `long` 32 (ILP32) or 64 (LP64),
//!   `long long` 64, pointers 32 or 64; `_Bool` is stored in 8 bits and holds 0 or 1; enums are
//!   their integer type; plain `char` is signed.
//! - Conversions between integer types truncate, or sign-extend (signed source) or zero-extend
//!   (unsigned source); conversion to `_Bool` is `v != 0`. Pointers convert to and from integers as
//!   unsigned integers of the pointer width (see `memory` for what an address is).
//! - `+`, `-`, `*`, unary `-`, `~` wrap modulo 2^width in signed and unsigned types alike (two's
//!   complement; signed overflow is not treated as undefined, as the SV-COMP `unreach-call` tasks
//!   expect). `<<` of a negative value or into the sign bit also just wraps.
//! - `/` truncates toward zero and `%` takes the sign of the dividend. Division or remainder by zero,
//!   and `INT_MIN / -1` and `INT_MIN % -1` in a signed type, are undefined behaviour: the operation
//!   reports a UB condition, the executor continues the path only where the condition is false and
//!   ends the paths where it can be true as cut (so a verdict can be FALSE or UNKNOWN, never TRUE).
//! - A shift by a negative amount or by at least the width of the (promoted) left operand is
//!   undefined behaviour, reported the same way. `>>` of a negative signed value is arithmetic (as
//!   gcc does it).
//! - Comparisons are signed or unsigned by the operands' common type (pointers unsigned); their
//!   result, and that of `!`, is an `int` 0 or 1. `&&`, `||`, `?:` and `,` are evaluated by the
//!   executor with short-circuit guards, so that UB in an operand that is not evaluated is ignored.
//! - `float` and `double` are IEEE 754 binary32 and binary64, each operation rounded to its type
//!   as SSE computes it (`base::fp` fixes the details: NaN propagation, the default NaN); their
//!   circuits are `sat::fp`'s. A conversion of a NaN or of an out-of-range value to an integer is
//!   undefined behaviour (`UbKind::FloatToInt`). `long double` and `_Float128` values are not
//!   modelled: an operation on them is `Unsupported`.
//!
//! Invariant: this module knows C types, `sat::bv` does not; every function here takes and returns
//! bit-vectors of the widths its types say.

use crate::base::bits;
use crate::base::fp::{Arith, Compare, Format, Rounding};
use crate::cfront::ir::{BinOp, UnOp};
use crate::cfront::types::{IntRank, TypeId, TypeKind, Types};
use crate::sat::{fp, Aig, AigLit, Bv};

/// How a scalar type is represented: width, signedness, and whether it is `_Bool` or a pointer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Repr {
    /// Width in bits.
    pub bits: u32,
    /// Two's-complement signed.
    pub signed: bool,
    /// `_Bool` (stored in 8 bits, value 0 or 1).
    pub is_bool: bool,
    /// A pointer (unsigned).
    pub is_ptr: bool,
}

/// A construct the executor does not model; the reason is shown to the user.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Unsupported(pub String);

/// Kinds of undefined behaviour the executor detects; a path on which one can happen is cut.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UbKind {
    /// `/` or `%` by zero.
    DivByZero,
    /// `MIN / -1` or `MIN % -1` in a signed type.
    DivOverflow,
    /// A shift by a negative amount or by at least the width.
    ShiftOutOfRange,
    /// A read or write through a pointer that does not point into a live object (null included),
    /// past its end, or a write into a string literal.
    InvalidAccess,
    /// `free` of a pointer that is not the start of a live heap object.
    InvalidFree,
    /// A call through a pointer that points to no function.
    InvalidCall,
    /// A call through a pointer whose function type is not compatible with the function's
    /// (`CallSite::incompatible_argument`).
    IncompatibleCall,
    /// A conversion of a NaN, or of a floating value whose integer part the integer type cannot
    /// represent, to an integer type.
    FloatToInt,
}

/// An operation result together with the condition under which it is undefined (`FALSE` when never).
#[derive(Clone, Debug)]
pub struct Checked {
    /// The value (meaningless where `ub` holds).
    pub value: Bv,
    /// When the operation is undefined.
    pub ub: AigLit,
    /// Which undefined behaviour `ub` stands for.
    pub kind: UbKind,
}

impl Repr {
    /// The `int` type's representation.
    pub const INT: Repr = Repr { bits: 32, signed: true, is_bool: false, is_ptr: false };
}

impl UbKind {
    /// A short description for messages.
    pub fn describe(self) -> &'static str {
        match self {
            UbKind::DivByZero => "division by zero",
            UbKind::DivOverflow => "signed division overflow",
            UbKind::ShiftOutOfRange => "shift out of range",
            UbKind::InvalidAccess => "invalid memory access",
            UbKind::InvalidFree => "invalid free",
            UbKind::InvalidCall => "call through an invalid function pointer",
            UbKind::IncompatibleCall => "call through a pointer of an incompatible function type",
            UbKind::FloatToInt => "conversion of a floating value out of the integer type's range",
        }
    }
}

/// The representation of the scalar type `ty`, or why it has none.
pub fn repr(types: &Types, ty: TypeId) -> Result<Repr, Unsupported> {
    let dm = types.data_model();
    match types.kind(ty) {
        TypeKind::Int(it) => Ok(Repr {
            bits: it.bits(dm),
            signed: it.signed && it.rank != IntRank::Bool,
            is_bool: it.rank == IntRank::Bool,
            is_ptr: false,
        }),
        TypeKind::Pointer(_) => {
            Ok(Repr { bits: dm.pointer_size() as u32 * 8, signed: false, is_bool: false, is_ptr: true })
        }
        TypeKind::Float(_) => Err(Unsupported("floating-point values".into())),
        other => Err(Unsupported(format!("{} used as a scalar", kind_name(other)))),
    }
}

fn kind_name(k: &TypeKind) -> &'static str {
    match k {
        TypeKind::Void => "void",
        TypeKind::Int(_) => "integer",
        TypeKind::Float(_) => "floating type",
        TypeKind::Pointer(_) => "pointer",
        TypeKind::Array(..) => "array",
        TypeKind::Func(_) => "function",
        TypeKind::Record(_) => "struct or union",
    }
}

/// `v`, of representation `from`, converted to `to` (C's conversion rules between integer types and
/// pointers).
pub fn convert(aig: &mut Aig, v: &Bv, from: Repr, to: Repr) -> Bv {
    debug_assert_eq!(v.width(), from.bits, "value width does not match its type");
    if to.is_bool {
        let nz = v.reduce_or(aig);
        return bool_value(nz, to.bits);
    }
    resize(v, to.bits, from.signed)
}

/// The operands of a relational operator brought to one width, each extended by its own signedness
/// (a pointer compared with an integer constant such as null compares in the pointer's width);
/// other operators' operands as they are.
pub fn align_relational(op: BinOp, va: Bv, vb: Bv, ra: Repr, rb: Repr) -> (Bv, Bv) {
    if op.is_relational() && va.width() != vb.width() {
        let w = va.width().max(vb.width());
        (resize(&va, w, ra.signed), resize(&vb, w, rb.signed))
    } else {
        (va, vb)
    }
}

/// `v` truncated or extended (sign-extended if `signed`) to `bits`.
pub fn resize(v: &Bv, bits: u32, signed: bool) -> Bv {
    match v.width().cmp(&bits) {
        std::cmp::Ordering::Equal => v.clone(),
        std::cmp::Ordering::Greater => v.trunc(bits),
        std::cmp::Ordering::Less if signed => v.sext(bits),
        std::cmp::Ordering::Less => v.zext(bits),
    }
}

/// The integer 0 or 1 of `bits` bits for the truth value `lit`.
pub fn bool_value(lit: AigLit, bits: u32) -> Bv {
    Bv::from_bool(lit).zext(bits)
}

/// Whether the scalar `v` is non-zero (C's truth value).
pub fn truth(aig: &mut Aig, v: &Bv) -> AigLit {
    v.reduce_or(aig)
}

/// A unary operator on an operand of representation `r` (already promoted); the result has the
/// operand's representation, except `!`, which gives an `int`.
pub fn unary(aig: &mut Aig, op: UnOp, v: &Bv, r: Repr) -> Bv {
    match op {
        UnOp::Neg => v.neg(aig),
        UnOp::BitNot => v.not(),
        UnOp::Plus => v.clone(),
        UnOp::LogNot => {
            let _ = r;
            let z = v.is_zero(aig);
            bool_value(z, Repr::INT.bits)
        }
    }
}

/// An arithmetic, bitwise or relational operator on integer operands already converted to their
/// common type `r` (for shifts: the promoted left operand's type `r` and the promoted right operand's
/// `rb`). Relational results are `int` 0 or 1.
pub fn binary(aig: &mut Aig, op: BinOp, a: &Bv, b: &Bv, r: Repr, rb: Repr) -> Checked {
    let ok = |value| Checked { value, ub: AigLit::FALSE, kind: UbKind::DivByZero };
    match op {
        BinOp::Add => ok(a.add(aig, b)),
        BinOp::Sub => ok(a.sub(aig, b)),
        BinOp::Mul => ok(a.mul(aig, b)),
        BinOp::BitAnd => ok(a.and(aig, b)),
        BinOp::BitOr => ok(a.or(aig, b)),
        BinOp::BitXor => ok(a.xor(aig, b)),
        BinOp::Div | BinOp::Rem => {
            let zero = b.is_zero(aig);
            let (value, overflow) = if r.signed {
                let min = Bv::constant(bits::sign_bit(r.bits), r.bits);
                let is_min = a.eq(aig, &min);
                let is_m1 = b.eq(aig, &Bv::ones(r.bits));
                let ovf = aig.and(is_min, is_m1);
                let v = if op == BinOp::Div { a.sdiv(aig, b) } else { a.srem(aig, b) };
                (v, ovf)
            } else {
                let v = if op == BinOp::Div { a.udiv(aig, b) } else { a.urem(aig, b) };
                (v, AigLit::FALSE)
            };
            // Report the more common cause when both are possible; either cuts the path.
            if zero == AigLit::FALSE && overflow != AigLit::FALSE {
                Checked { value, ub: overflow, kind: UbKind::DivOverflow }
            } else {
                let ub = aig.or(zero, overflow);
                Checked { value, ub, kind: UbKind::DivByZero }
            }
        }
        BinOp::Shl | BinOp::Shr => {
            // Undefined unless 0 <= b < width(a), judged in b's own type.
            let width = Bv::constant(r.bits as u128, rb.bits);
            let too_big =
                if rb.bits <= 7 && (1u128 << rb.bits) <= r.bits as u128 { AigLit::FALSE } else { b.uge(aig, &width) };
            let negative = if rb.signed { b.msb() } else { AigLit::FALSE };
            let ub = aig.or(too_big, negative);
            let amount = resize(b, r.bits, false);
            let value = match (op, r.signed) {
                (BinOp::Shl, _) => a.shl(aig, &amount),
                (_, true) => a.ashr(aig, &amount),
                (_, false) => a.lshr(aig, &amount),
            };
            Checked { value, ub, kind: UbKind::ShiftOutOfRange }
        }
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
            let lit = compare(aig, op, a, b, r.signed);
            ok(bool_value(lit, Repr::INT.bits))
        }
        BinOp::LogAnd | BinOp::LogOr => {
            let (x, y) = (truth(aig, a), truth(aig, b));
            let lit = if op == BinOp::LogAnd { aig.and(x, y) } else { aig.or(x, y) };
            ok(bool_value(lit, Repr::INT.bits))
        }
    }
}

/// The truth value of the comparison `a op b` in a signed or unsigned type.
pub fn compare(aig: &mut Aig, op: BinOp, a: &Bv, b: &Bv, signed: bool) -> AigLit {
    match (op, signed) {
        (BinOp::Eq, _) => a.eq(aig, b),
        (BinOp::Ne, _) => a.ne(aig, b),
        (BinOp::Lt, true) => a.slt(aig, b),
        (BinOp::Lt, false) => a.ult(aig, b),
        (BinOp::Gt, true) => a.sgt(aig, b),
        (BinOp::Gt, false) => a.ugt(aig, b),
        (BinOp::Le, true) => a.sle(aig, b),
        (BinOp::Le, false) => a.ule(aig, b),
        (BinOp::Ge, true) => a.sge(aig, b),
        (BinOp::Ge, false) => a.uge(aig, b),
        _ => panic!("compare called with the non-relational operator {op:?}"),
    }
}

/// Whether the scalar `v` of type `ty` is non-zero: C's truth value (`v != 0.0` for a floating
/// value, so that `-0.0` is false and a NaN true).
pub fn scalar_truth(aig: &mut Aig, types: &Types, ty: TypeId, v: &Bv) -> AigLit {
    match types.float_format(ty) {
        Some(f) => !fp::is_zero(aig, f, v),
        None => truth(aig, v),
    }
}

/// A unary operator on an operand of the floating format `f`: `-` flips the sign bit (of NaNs
/// too, as SSE's `xorps` does), `!` gives an integer 0 or 1 of `bits` bits, `+` and `~` (which C
/// does not allow on floating operands) the operand.
pub fn float_unary(aig: &mut Aig, f: Format, op: UnOp, v: &Bv, bits: u32) -> Bv {
    match op {
        UnOp::Neg => v.xor(aig, &Bv::constant(f.sign_mask(), f.bits())),
        UnOp::LogNot => {
            let zero = fp::is_zero(aig, f, v);
            bool_value(zero, bits)
        }
        UnOp::Plus | UnOp::BitNot => v.clone(),
    }
}

/// `x op y` with both operands of the floating format `f` (their common type), rounded by `rm`:
/// the arithmetic operators give a value of the format, the comparisons (IEEE's: false of a NaN
/// but for `!=`, `-0.0 == +0.0`) an integer 0 or 1 of `bits` bits; `None` for an operator that has
/// no floating meaning.
pub fn float_binary(aig: &mut Aig, f: Format, rm: Rounding, op: BinOp, x: &Bv, y: &Bv, bits: u32) -> Option<Bv> {
    let lit = match op {
        BinOp::Add => return Some(fp::arith(aig, f, rm, Arith::Add, x, y)),
        BinOp::Sub => return Some(fp::arith(aig, f, rm, Arith::Sub, x, y)),
        BinOp::Mul => return Some(fp::arith(aig, f, rm, Arith::Mul, x, y)),
        BinOp::Div => return Some(fp::arith(aig, f, rm, Arith::Div, x, y)),
        BinOp::Eq => fp::compare(aig, f, Compare::Eq, x, y),
        BinOp::Ne => !fp::compare(aig, f, Compare::Eq, x, y),
        BinOp::Lt => fp::compare(aig, f, Compare::Lt, x, y),
        BinOp::Le => fp::compare(aig, f, Compare::Le, x, y),
        BinOp::Gt => fp::compare(aig, f, Compare::Lt, y, x),
        BinOp::Ge => fp::compare(aig, f, Compare::Le, y, x),
        _ => return None,
    };
    Some(bool_value(lit, bits))
}

/// `v` converted from type `from` to type `to`, at least one of them floating, rounded by `rm`.
/// A conversion to an integer type of a NaN or of a value whose integer part the type cannot
/// represent is undefined (`UbKind::FloatToInt`, in the result's `ub`); to `_Bool` it is
/// `v != 0.0`. Conversions from or to a floating type vcov does not model (`long double`) and to
/// pointers are unsupported.
pub fn convert_float(
    aig: &mut Aig,
    types: &Types,
    rm: Rounding,
    v: &Bv,
    from: TypeId,
    to: TypeId,
) -> Result<Checked, Unsupported> {
    let ok = |value| Checked { value, ub: AigLit::FALSE, kind: UbKind::FloatToInt };
    let floating = |t: TypeId| matches!(types.kind(t), TypeKind::Float(_));
    match (types.float_format(from), types.float_format(to)) {
        (Some(ff), Some(tf)) => Ok(ok(fp::convert(aig, ff, tf, rm, v))),
        (None, Some(tf)) if !floating(from) => {
            let fr = repr(types, from)?;
            Ok(ok(fp::from_int(aig, tf, rm, v, fr.signed)))
        }
        (Some(ff), None) if !floating(to) => {
            let tr = repr(types, to)?;
            if tr.is_bool {
                let zero = fp::is_zero(aig, ff, v);
                return Ok(ok(bool_value(!zero, tr.bits)));
            }
            if tr.is_ptr {
                return Err(Unsupported("a conversion of a floating value to a pointer".into()));
            }
            let (value, invalid) = fp::to_int(aig, ff, v, tr.bits, tr.signed);
            Ok(Checked { value, ub: invalid, kind: UbKind::FloatToInt })
        }
        _ => Err(Unsupported(format!("a conversion from {} to {}", types.display(from), types.display(to)))),
    }
}

/// `p + i` (or `p - i` when `subtract`) for a pointer `p` to elements of `elem` bytes and an integer
/// `i` of representation `ri`.
pub fn pointer_offset(aig: &mut Aig, p: &Bv, i: &Bv, ri: Repr, elem: u64, subtract: bool) -> Bv {
    let wide = resize(i, p.width(), ri.signed);
    let scaled = wide.mul(aig, &Bv::constant(elem as u128, p.width()));
    if subtract {
        p.sub(aig, &scaled)
    } else {
        p.add(aig, &scaled)
    }
}

/// `a - b` for two pointers to elements of `elem` bytes, as an integer of `bits` bits (`ptrdiff_t`).
pub fn pointer_diff(aig: &mut Aig, a: &Bv, b: &Bv, elem: u64, bits: u32) -> Bv {
    let bytes = a.sub(aig, b);
    let quot = if elem == 1 {
        bytes
    } else if elem.is_power_of_two() {
        bytes.ashr(aig, &Bv::constant(elem.trailing_zeros() as u128, a.width()))
    } else {
        bytes.sdiv(aig, &Bv::constant(elem as u128, a.width()))
    };
    resize(&quot, bits, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfront::types::{DataModel, IntType};

    const fn int(bits: u32, signed: bool) -> Repr {
        Repr { bits, signed, is_bool: false, is_ptr: false }
    }
    const I32: Repr = int(32, true);
    const U32: Repr = int(32, false);
    const I8: Repr = int(8, true);
    const U8: Repr = int(8, false);
    const BOOL: Repr = Repr { bits: 8, signed: false, is_bool: true, is_ptr: false };

    fn c(v: i128, r: Repr) -> Bv {
        Bv::constant(v as u128, r.bits)
    }

    /// Evaluates `a op b` on constants of type `r` (shift amounts of type `rb`), returning the signed
    /// or unsigned value and whether it is undefined.
    fn check(op: BinOp, a: i128, b: i128, r: Repr, rb: Repr) -> (i128, bool) {
        let mut aig = Aig::default();
        let res = binary(&mut aig, op, &c(a, r), &c(b, rb), r, rb);
        let ub = res.ub.as_const().expect("constant operands give constant results");
        let v = if r.signed && !op.is_relational() {
            res.value.as_signed_const().unwrap()
        } else {
            res.value.as_const().unwrap() as i128
        };
        assert_eq!(aig.n_ands(), 0, "concrete computation creates no node");
        (v, ub)
    }

    #[test]
    fn conversions() {
        let mut aig = Aig::default();
        // (unsigned char)300 == 44, (signed char)200 == -56, (int)(signed char)-1 == -1,
        // (unsigned)(signed char)-1 == 0xffffffff, (_Bool)256 == 1.
        assert_eq!(convert(&mut aig, &c(300, I32), I32, U8).as_const(), Some(44));
        assert_eq!(convert(&mut aig, &c(200, I32), I32, I8).as_signed_const(), Some(-56));
        assert_eq!(convert(&mut aig, &c(-1, I8), I8, I32).as_signed_const(), Some(-1));
        assert_eq!(convert(&mut aig, &c(-1, I8), I8, U32).as_const(), Some(0xffff_ffff));
        assert_eq!(convert(&mut aig, &c(255, U8), U8, I32).as_const(), Some(255));
        assert_eq!(convert(&mut aig, &c(256, I32), I32, BOOL).as_const(), Some(1));
        assert_eq!(convert(&mut aig, &c(0, I32), I32, BOOL).as_const(), Some(0));
        let i64r = int(64, true);
        assert_eq!(convert(&mut aig, &c(-5, I32), I32, i64r).as_signed_const(), Some(-5));
        assert_eq!(convert(&mut aig, &c(0x1_0000_0005, i64r), i64r, I32).as_const(), Some(5));
    }

    #[test]
    fn arithmetic_wraps() {
        // INT_MAX + 1 wraps to INT_MIN; UINT_MAX + 1 is 0; -INT_MIN is INT_MIN.
        assert_eq!(check(BinOp::Add, i32::MAX as i128, 1, I32, I32), (i32::MIN as i128, false));
        assert_eq!(check(BinOp::Add, u32::MAX as i128, 1, U32, U32), (0, false));
        assert_eq!(check(BinOp::Mul, 65536, 65536, I32, I32), (0, false));
        assert_eq!(check(BinOp::Sub, 0, 1, U32, U32), (u32::MAX as i128, false));
        let mut aig = Aig::default();
        let min = c(i32::MIN as i128, I32);
        assert_eq!(unary(&mut aig, UnOp::Neg, &min, I32).as_signed_const(), Some(i32::MIN as i128));
        assert_eq!(unary(&mut aig, UnOp::BitNot, &c(0, I32), I32).as_signed_const(), Some(-1));
        assert_eq!(unary(&mut aig, UnOp::LogNot, &c(7, I32), I32).as_const(), Some(0));
        assert_eq!(unary(&mut aig, UnOp::LogNot, &c(0, I32), I32).as_const(), Some(1));
    }

    #[test]
    fn comparisons_follow_the_common_type() {
        // -1 < 1u is false: both are converted to unsigned int first (the IR makes that explicit).
        let mut aig = Aig::default();
        let m1 = convert(&mut aig, &c(-1, I32), I32, U32);
        let r = binary(&mut aig, BinOp::Lt, &m1, &c(1, U32), U32, U32);
        assert_eq!(r.value.as_const(), Some(0));
        assert_eq!(check(BinOp::Lt, -1, 1, I32, I32), (1, false));
        assert_eq!(check(BinOp::Ge, 5, 5, U32, U32), (1, false));
        assert_eq!(check(BinOp::Ne, 5, 5, I32, I32), (0, false));
        assert_eq!(check(BinOp::Gt, 0x8000_0000, 1, U32, U32), (1, false));
        assert_eq!(check(BinOp::Gt, 0x8000_0000, 1, I32, I32), (0, false));
    }

    #[test]
    fn division_and_remainder_signs() {
        assert_eq!(check(BinOp::Div, -7, 2, I32, I32), (-3, false));
        assert_eq!(check(BinOp::Rem, -7, 2, I32, I32), (-1, false));
        assert_eq!(check(BinOp::Rem, 7, -2, I32, I32), (1, false));
        assert_eq!(check(BinOp::Div, 7, -2, I32, I32), (-3, false));
        assert_eq!(check(BinOp::Div, 0xffff_fff9, 2, U32, U32), (0x7fff_fffc, false));
        // Undefined cases.
        assert!(check(BinOp::Div, 1, 0, I32, I32).1);
        assert!(check(BinOp::Rem, 1, 0, U32, U32).1);
        assert!(check(BinOp::Div, i32::MIN as i128, -1, I32, I32).1);
        assert!(check(BinOp::Rem, i32::MIN as i128, -1, I32, I32).1);
        assert!(!check(BinOp::Div, i32::MIN as i128, 1, I32, I32).1);
        assert!(!check(BinOp::Div, 0x8000_0000, 0xffff_ffff, U32, U32).1);
    }

    #[test]
    fn shifts() {
        assert_eq!(check(BinOp::Shl, 1, 31, I32, I32), (i32::MIN as i128, false));
        assert_eq!(check(BinOp::Shr, -8, 1, I32, I32), (-4, false));
        assert_eq!(check(BinOp::Shr, 0xffff_fff8, 1, U32, U32), (0x7fff_fffc, false));
        assert!(check(BinOp::Shl, 1, 32, I32, I32).1);
        assert!(check(BinOp::Shl, 1, -1, I32, I32).1);
        assert!(check(BinOp::Shr, 1, 40, U32, U32).1);
        // The amount's own type decides: a 64-bit amount of 32 is out of range for an int.
        assert!(check(BinOp::Shl, 1, 32, I32, int(64, true)).1);
        assert!(!check(BinOp::Shl, 1, 3, I32, int(64, false)).1);
    }

    #[test]
    fn symbolic_shift_ub_condition() {
        let mut aig = Aig::default();
        let b = Bv::input(&mut aig, 32);
        let r = binary(&mut aig, BinOp::Shl, &c(1, I32), &b, I32, I32);
        // ub holds for b = 32 and b = -1, not for b = 3.
        for (v, expect) in [(32u128, true), (0xffff_ffff, true), (3, false), (31, false)] {
            let got = aig.eval(r.ub, &|inp| (v >> inp.idx()) & 1 == 1);
            assert_eq!(got, expect, "b = {v}");
        }
    }

    #[test]
    fn pointers() {
        let mut aig = Aig::default();
        let p = Bv::constant(0x1000, 32);
        let q = pointer_offset(&mut aig, &p, &c(-2, I32), I32, 4, false);
        assert_eq!(q.as_const(), Some(0x1000 - 8));
        let r = pointer_offset(&mut aig, &p, &c(3, U32), U32, 12, true);
        assert_eq!(r.as_const(), Some(0x1000 - 36));
        assert_eq!(pointer_diff(&mut aig, &p, &q, 4, 32).as_signed_const(), Some(2));
        assert_eq!(pointer_diff(&mut aig, &q, &p, 4, 32).as_signed_const(), Some(-2));
        assert_eq!(pointer_diff(&mut aig, &r, &p, 12, 64).as_signed_const(), Some(-3));
    }

    #[test]
    fn representations() {
        let mut t = Types::new(DataModel::Lp64);
        let l = t.int(IntType::LONG);
        let b = t.int(IntType::BOOL);
        let p = t.pointer(l);
        assert_eq!(repr(&t, l).unwrap(), int(64, true));
        assert!(repr(&t, b).unwrap().is_bool);
        assert_eq!(repr(&t, p).unwrap().bits, 64);
        let v = t.void();
        assert!(repr(&t, v).is_err());
    }
}
