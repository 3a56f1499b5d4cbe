//! The abstract values of `verify::intervals`: intervals of integers (their mathematical values in
//! their C type) and of IEEE values (the non-NaN values between two bounds, and whether a NaN is
//! possible), with the transfer functions of C's operators and the narrowing a comparison gives.
//!
//! Floating bounds are held as `f64`, which represents every binary32 and binary64 value exactly;
//! every operation is computed by `base::fp` in the program's rounding mode (round to nearest, ties
//! to even, the only mode a transition system has). That is sound because rounding is monotone: the
//! rounded results of an operation over a box lie between the rounded results at the box's extreme
//! exact results, which are at its corners for `+ - * /`.
//! `-0` and `+0` are one point of an interval: comparisons cannot tell them apart, and the one
//! operation whose result depends on the sign of a zero here, a division by a zero, gives the
//! widest result whenever the divisor's interval contains zero.

use crate::base::bits::{mask, max_signed, min_signed, sign_extend, truncate};
use crate::base::fp::{self, Arith, Format, Rounding};
use crate::cfront::ir::BinOp;
use crate::symex::semantics::Repr;

/// The rounding mode of every operation (`verify::ts` refuses programs that change it).
pub const RM: Rounding = Rounding::NearestEven;

/// A three-valued truth value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tri {
    /// False in every state of the interval.
    False,
    /// True in every state.
    True,
    /// Either.
    Maybe,
}

impl Tri {
    /// The truth value of something that may be true (`t`) and may be false (`f`); `None` when
    /// neither (no state at all).
    pub fn of(t: bool, f: bool) -> Option<Tri> {
        match (t, f) {
            (true, true) => Some(Tri::Maybe),
            (true, false) => Some(Tri::True),
            (false, true) => Some(Tri::False),
            (false, false) => None,
        }
    }

    /// The negation.
    pub fn not(self) -> Tri {
        match self {
            Tri::False => Tri::True,
            Tri::True => Tri::False,
            Tri::Maybe => Tri::Maybe,
        }
    }

    /// The integer 0 or 1 C gives it.
    pub fn int(self) -> IItv {
        match self {
            Tri::False => IItv::point(0),
            Tri::True => IItv::point(1),
            Tri::Maybe => IItv { lo: 0, hi: 1 },
        }
    }
}

/// The values of an integer expression: `lo..=hi`, never empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IItv {
    /// The least.
    pub lo: i128,
    /// The greatest.
    pub hi: i128,
}

/// The values of a floating expression: the non-NaN ones in `range` (none when `None`), and
/// whether it may be a NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FItv {
    /// The least and greatest non-NaN value (`lo <= hi`; infinities included).
    pub range: Option<(f64, f64)>,
    /// A NaN is possible.
    pub nan: bool,
}

/// An abstract scalar value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Val {
    /// Of an integer type.
    Int(IItv),
    /// Of a floating type.
    Float(FItv),
}

/// The least and greatest value of an integer type.
pub fn type_range(r: Repr) -> IItv {
    if r.is_bool {
        IItv { lo: 0, hi: 1 }
    } else if r.signed {
        IItv { lo: min_signed(r.bits), hi: max_signed(r.bits) }
    } else {
        IItv { lo: 0, hi: mask(r.bits) as i128 }
    }
}

/// The value of type `r` whose bit pattern is `v`.
pub fn from_pattern(v: u128, r: Repr) -> i128 {
    if r.signed {
        sign_extend(v, r.bits)
    } else {
        truncate(v, r.bits) as i128
    }
}

/// The bit pattern of `v` in `bits` bits.
pub fn pattern(v: i128, bits: u32) -> u128 {
    truncate(v as u128, bits)
}

impl IItv {
    /// The interval of one value.
    pub fn point(v: i128) -> IItv {
        IItv { lo: v, hi: v }
    }

    /// Whether it holds `v`.
    pub fn contains(self, v: i128) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// The values in both, if any.
    pub fn meet(self, o: IItv) -> Option<IItv> {
        let (lo, hi) = (self.lo.max(o.lo), self.hi.min(o.hi));
        (lo <= hi).then_some(IItv { lo, hi })
    }

    /// The least interval holding both.
    pub fn join(self, o: IItv) -> IItv {
        IItv { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi) }
    }

    /// The exact values `lo..=hi` (as computed in `i128`) as values of type `r`, which wraps around
    /// as the executor does: the image when it is an interval, otherwise the whole type.
    pub fn wrap(lo: Option<i128>, hi: Option<i128>, r: Repr) -> IItv {
        let full = type_range(r);
        let (Some(lo), Some(hi)) = (lo, hi) else { return full };
        if full.contains(lo) && full.contains(hi) {
            return IItv { lo, hi };
        }
        if r.is_bool || r.bits >= 127 || hi.checked_sub(lo).is_none_or(|d| d >= 1i128 << r.bits) {
            return full;
        }
        let (a, b) = (from_pattern(pattern(lo, r.bits), r), from_pattern(pattern(hi, r.bits), r));
        if a <= b {
            IItv { lo: a, hi: b }
        } else {
            full
        }
    }

    /// The interval converted to type `r` (C's conversions between integer types).
    pub fn convert(self, r: Repr) -> IItv {
        if r.is_bool {
            let t = Tri::of(self.lo != 0 || self.hi != 0, self.contains(0)).expect("an interval is not empty");
            return t.int();
        }
        IItv::wrap(Some(self.lo), Some(self.hi), r)
    }

    /// The truth value (`!= 0`).
    pub fn truth(self) -> Tri {
        Tri::of(self.lo != 0 || self.hi != 0, self.contains(0)).expect("an interval is not empty")
    }
}

/// What an operation on intervals gives: the value, and whether it may be undefined.
pub struct Eval<V> {
    /// The values.
    pub val: V,
    /// Some state of the operands makes the operation undefined.
    pub ub: bool,
}

fn defined<V>(val: V) -> Eval<V> {
    Eval { val, ub: false }
}

/// The least and greatest of some values.
fn hull(vals: impl IntoIterator<Item = Option<i128>>) -> (Option<i128>, Option<i128>) {
    let mut lo: Option<i128> = None;
    let mut hi: Option<i128> = None;
    for v in vals {
        let Some(v) = v else { return (None, None) };
        lo = Some(lo.map_or(v, |l| l.min(v)));
        hi = Some(hi.map_or(v, |h| h.max(v)));
    }
    (lo, hi)
}

/// `a op b` on integers of the common type `r` (for shifts, `a` of type `r`): the executor's
/// semantics, undefined for a division by zero, `INT_MIN / -1` and a shift out of range.
pub fn int_binary(op: BinOp, a: IItv, b: IItv, r: Repr) -> Eval<IItv> {
    let corners = |f: fn(i128, i128) -> Option<i128>| {
        let (lo, hi) = hull([f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)]);
        IItv::wrap(lo, hi, r)
    };
    match op {
        BinOp::Add => defined(IItv::wrap(a.lo.checked_add(b.lo), a.hi.checked_add(b.hi), r)),
        BinOp::Sub => defined(IItv::wrap(a.lo.checked_sub(b.hi), a.hi.checked_sub(b.lo), r)),
        BinOp::Mul => defined(corners(i128::checked_mul)),
        BinOp::Div | BinOp::Rem => {
            let overflow = r.signed && a.contains(min_signed(r.bits)) && b.contains(-1);
            if b.contains(0) {
                // Where the divisor is not zero the result is still bounded, but the state is bad.
                return Eval { val: type_range(r), ub: true };
            }
            let val = if op == BinOp::Div {
                // Truncating division is monotone in each operand where the divisor keeps its sign.
                corners(i128::checked_div)
            } else {
                let m = b.lo.unsigned_abs().max(b.hi.unsigned_abs()) as i128 - 1;
                if a.lo == a.hi && b.lo == b.hi {
                    IItv::point(a.lo % b.lo)
                } else {
                    let lo = if a.lo < 0 { a.lo.max(-m) } else { 0 };
                    let hi = if a.hi > 0 { a.hi.min(m) } else { 0 };
                    IItv { lo, hi }
                }
            };
            Eval { val: if overflow { type_range(r) } else { val }, ub: overflow }
        }
        BinOp::Shl | BinOp::Shr => {
            let in_range = b.lo >= 0 && b.hi < i128::from(r.bits);
            let ub = !in_range;
            if b.lo != b.hi || !in_range {
                return Eval { val: type_range(r), ub };
            }
            let k = b.lo as u32;
            let val = if op == BinOp::Shr {
                // Arithmetic (signed) or logical (unsigned) shift: floor division, monotone.
                IItv { lo: a.lo >> k, hi: a.hi >> k }
            } else {
                IItv::wrap(a.lo.checked_mul(1i128 << k), a.hi.checked_mul(1i128 << k), r)
            };
            Eval { val, ub }
        }
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => defined(bitwise(op, a, b, r)),
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => defined(int_compare(op, a, b).int()),
        BinOp::LogAnd | BinOp::LogOr => {
            let (x, y) = (a.truth(), b.truth());
            let t = if op == BinOp::LogAnd { and(x, y) } else { and(x.not(), y.not()).not() };
            defined(t.int())
        }
    }
}

fn and(x: Tri, y: Tri) -> Tri {
    match (x, y) {
        (Tri::False, _) | (_, Tri::False) => Tri::False,
        (Tri::True, Tri::True) => Tri::True,
        _ => Tri::Maybe,
    }
}

/// `&`, `|`, `^`: exact on single values, bounded on non-negative ones, the whole type otherwise.
fn bitwise(op: BinOp, a: IItv, b: IItv, r: Repr) -> IItv {
    if a.lo == a.hi && b.lo == b.hi {
        let (x, y) = (pattern(a.lo, r.bits), pattern(b.lo, r.bits));
        let v = match op {
            BinOp::BitAnd => x & y,
            BinOp::BitOr => x | y,
            _ => x ^ y,
        };
        return IItv::point(from_pattern(v, r));
    }
    if a.lo < 0 || b.lo < 0 {
        return type_range(r);
    }
    // Below the next power of two of the larger operand.
    let top = |h: i128| if h == 0 { 0 } else { (1i128 << (128 - h.leading_zeros())) - 1 };
    match op {
        BinOp::BitAnd => IItv { lo: 0, hi: a.hi.min(b.hi) },
        BinOp::BitOr => IItv { lo: a.lo.max(b.lo), hi: top(a.hi.max(b.hi)) },
        _ => IItv { lo: 0, hi: top(a.hi.max(b.hi)) },
    }
}

/// The truth value of the comparison `a op b` of integers.
pub fn int_compare(op: BinOp, a: IItv, b: IItv) -> Tri {
    let (t, f) = match op {
        BinOp::Lt => (a.lo < b.hi, a.hi >= b.lo),
        BinOp::Le => (a.lo <= b.hi, a.hi > b.lo),
        BinOp::Gt => (a.hi > b.lo, a.lo <= b.hi),
        BinOp::Ge => (a.hi >= b.lo, a.lo < b.hi),
        BinOp::Eq => (a.meet(b).is_some(), !(a.lo == a.hi && a == b)),
        BinOp::Ne => (!(a.lo == a.hi && a == b), a.meet(b).is_some()),
        _ => panic!("int_compare called with the non-relational operator {op:?}"),
    };
    Tri::of(t, f).expect("intervals are not empty")
}

/// The values of `x` that may satisfy `x op y` for some `y` in `b` (`x` in `a`), `None` when none
/// can. The operator is C's on integers.
pub fn int_narrow(op: BinOp, a: IItv, b: IItv) -> Option<IItv> {
    match op {
        BinOp::Lt => a.meet(IItv { lo: i128::MIN, hi: b.hi.checked_sub(1)? }),
        BinOp::Le => a.meet(IItv { lo: i128::MIN, hi: b.hi }),
        BinOp::Gt => a.meet(IItv { lo: b.lo.checked_add(1)?, hi: i128::MAX }),
        BinOp::Ge => a.meet(IItv { lo: b.lo, hi: i128::MAX }),
        BinOp::Eq => a.meet(b),
        BinOp::Ne if b.lo == b.hi => {
            if a.lo == a.hi && a.lo == b.lo {
                None
            } else if a.lo == b.lo {
                Some(IItv { lo: a.lo + 1, hi: a.hi })
            } else if a.hi == b.lo {
                Some(IItv { lo: a.lo, hi: a.hi - 1 })
            } else {
                Some(a)
            }
        }
        BinOp::Ne => Some(a),
        _ => panic!("int_narrow called with the non-relational operator {op:?}"),
    }
}

/// The relational operator with its operands swapped (`a op b` is `b swap(op) a`).
pub fn swap(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Gt => BinOp::Lt,
        BinOp::Le => BinOp::Ge,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// The relational operator of the negated comparison (on values that are no NaN).
pub fn negate(op: BinOp) -> BinOp {
    op.negated().unwrap_or_else(|| panic!("negate called with the non-relational operator {op:?}"))
}

/// The value of format `f` whose bit pattern is `b`.
pub fn float_of(f: Format, b: u128) -> f64 {
    match f {
        Format::Single => f64::from(f32::from_bits(b as u32)),
        Format::Double => f64::from_bits(b as u64),
    }
}

/// The bit pattern in format `f` of `x`, a value of the format.
pub fn bits_of(f: Format, x: f64) -> u128 {
    match f {
        Format::Single => u128::from((x as f32).to_bits()),
        Format::Double => u128::from(x.to_bits()),
    }
}

/// The least value of format `f` above `x` (`x` itself for +inf).
pub fn next_up(f: Format, x: f64) -> f64 {
    if x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return float_of(f, 1);
    }
    let b = bits_of(f, x);
    float_of(f, if x > 0.0 { b + 1 } else { b - 1 })
}

/// The greatest value of format `f` below `x`.
pub fn next_down(f: Format, x: f64) -> f64 {
    -next_up(f, -x)
}

/// A monotone numbering of the non-NaN values of format `f` (both zeros are 0), for bisection.
pub fn ordinal(f: Format, x: f64) -> i128 {
    let b = bits_of(f, x);
    let mag = (b & !f.sign_mask()) as i128;
    if b & f.sign_mask() != 0 {
        -mag
    } else {
        mag
    }
}

/// The value of format `f` numbered `n` by `ordinal`.
pub fn from_ordinal(f: Format, n: i128) -> f64 {
    if n < 0 {
        float_of(f, n.unsigned_abs() | f.sign_mask())
    } else {
        float_of(f, n as u128)
    }
}

impl FItv {
    /// Every value of a format, NaNs included.
    pub const TOP: FItv = FItv { range: Some((f64::NEG_INFINITY, f64::INFINITY)), nan: true };

    /// The interval of the value with bit pattern `b` in format `f`.
    pub fn point(f: Format, b: u128) -> FItv {
        if f.is_nan(b) {
            FItv { range: None, nan: true }
        } else {
            let x = float_of(f, b);
            FItv { range: Some((x, x)), nan: false }
        }
    }

    /// Whether it holds no value.
    pub fn is_empty(self) -> bool {
        self.range.is_none() && !self.nan
    }

    /// The values in both; `None` when none.
    pub fn meet(self, o: FItv) -> Option<FItv> {
        let range = match (self.range, o.range) {
            (Some((a, b)), Some((c, d))) => Some((a.max(c), b.min(d))).filter(|(l, h)| l <= h),
            _ => None,
        };
        let r = FItv { range, nan: self.nan && o.nan };
        (!r.is_empty()).then_some(r)
    }

    /// The least interval holding both.
    pub fn join(self, o: FItv) -> FItv {
        let range = match (self.range, o.range) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (r, None) | (None, r) => r,
        };
        FItv { range, nan: self.nan || o.nan }
    }

    /// Whether a value may be zero.
    fn may_be_zero(self) -> bool {
        self.range.is_some_and(|(l, h)| l <= 0.0 && 0.0 <= h)
    }

    /// Whether a value may be an infinity.
    fn may_be_infinite(self) -> bool {
        self.range.is_some_and(|(l, h)| l.is_infinite() || h.is_infinite())
    }

    /// The truth value (`!= 0.0`: a NaN is true).
    pub fn truth(self) -> Tri {
        let t = self.nan || self.range.is_some_and(|(l, h)| l != 0.0 || h != 0.0);
        let f = self.may_be_zero();
        Tri::of(t, f).expect("an interval is not empty")
    }

    /// `-x`.
    pub fn neg(self) -> FItv {
        FItv { range: self.range.map(|(l, h)| (-h, -l)), nan: self.nan }
    }

    /// `|x|`.
    pub fn abs(self) -> FItv {
        let range = self.range.map(|(l, h)| {
            if l >= 0.0 {
                (l, h)
            } else if h <= 0.0 {
                (-h, -l)
            } else {
                (0.0, h.max(-l))
            }
        });
        FItv { range, nan: self.nan }
    }

    /// The image under a monotone (non-decreasing) function of the format's values, computed on
    /// bit patterns; a NaN stays possible if it was.
    pub fn monotone(self, f: Format, g: impl Fn(u128) -> u128) -> FItv {
        match self.range {
            None => self,
            Some((l, h)) => {
                let (a, b) = (g(bits_of(f, l)), g(bits_of(f, h)));
                if f.is_nan(a) || f.is_nan(b) {
                    return FItv::TOP;
                }
                FItv { range: Some((float_of(f, a), float_of(f, b))), nan: self.nan }
            }
        }
    }
}

/// `a op b` in format `f` for `+ - * /`.
pub fn float_arith(f: Format, op: Arith, a: FItv, b: FItv) -> FItv {
    let nan_in = a.nan || b.nan;
    let (Some((al, ah)), Some((bl, bh))) = (a.range, b.range) else {
        return FItv { range: None, nan: nan_in };
    };
    let c = |x: f64, y: f64| float_of(f, fp::arith(f, RM, op, bits_of(f, x), bits_of(f, y)));
    let (lo, hi, nan) = match op {
        Arith::Add | Arith::Sub => {
            let (lo, hi) = if op == Arith::Add { (c(al, bl), c(ah, bh)) } else { (c(al, bh), c(ah, bl)) };
            // inf - inf: opposite infinities meet.
            let (an, ap) = (al == f64::NEG_INFINITY, ah == f64::INFINITY);
            let (bn, bp) = (bl == f64::NEG_INFINITY, bh == f64::INFINITY);
            let nan = if op == Arith::Add { an && bp || ap && bn } else { an && bn || ap && bp };
            (lo, hi, nan)
        }
        Arith::Mul => {
            if a.may_be_zero() && b.may_be_infinite() || a.may_be_infinite() && b.may_be_zero() {
                return FItv::TOP;
            }
            let p = [c(al, bl), c(al, bh), c(ah, bl), c(ah, bh)];
            (
                p.iter().copied().fold(f64::INFINITY, f64::min),
                p.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                false,
            )
        }
        Arith::Div => {
            if b.may_be_zero() || a.may_be_infinite() && b.may_be_infinite() {
                return FItv::TOP;
            }
            let p = [c(al, bl), c(al, bh), c(ah, bl), c(ah, bh)];
            (
                p.iter().copied().fold(f64::INFINITY, f64::min),
                p.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                false,
            )
        }
    };
    if lo.is_nan() || hi.is_nan() {
        return FItv::TOP;
    }
    FItv { range: Some((lo, hi)), nan: nan_in || nan }
}

/// The truth value of the comparison `a op b` of floating values (IEEE's: false of a NaN but for
/// `!=`).
pub fn float_compare(op: BinOp, a: FItv, b: FItv) -> Tri {
    let nan = a.nan || b.nan;
    let (t, f) = match (a.range, b.range) {
        (Some((al, ah)), Some((bl, bh))) => {
            let overlap = al.max(bl) <= ah.min(bh);
            let same_point = al == ah && bl == bh && al == bl;
            match op {
                BinOp::Lt => (al < bh, ah >= bl),
                BinOp::Le => (al <= bh, ah > bl),
                BinOp::Gt => (ah > bl, al <= bh),
                BinOp::Ge => (ah >= bl, al < bh),
                BinOp::Eq => (overlap, !same_point),
                BinOp::Ne => (!same_point, overlap),
                _ => panic!("float_compare called with the non-relational operator {op:?}"),
            }
        }
        _ => (false, false),
    };
    // A NaN makes every comparison false but `!=`.
    let (t, f) = if op == BinOp::Ne { (t || nan, f) } else { (t, f || nan) };
    Tri::of(t, f).expect("intervals are not empty")
}

/// The values of `x` (in `a`, format `f`) that may satisfy `x op y` for some `y` in `b`; `None`
/// when none can.
pub fn float_narrow(f: Format, op: BinOp, a: FItv, b: FItv) -> Option<FItv> {
    if op == BinOp::Ne {
        // True of a NaN, and of any value unless both are the same single value.
        let same = matches!((a.range, b.range), (Some((al, ah)), Some((bl, bh))) if al == ah && bl == bh && al == bl);
        return (!(same && !a.nan && !b.nan)).then_some(a);
    }
    // Every other comparison is false of a NaN.
    let (Some((_, _)), Some((bl, bh))) = (a.range, b.range) else { return None };
    let bound = match op {
        BinOp::Lt if bh == f64::NEG_INFINITY => return None,
        BinOp::Lt => (f64::NEG_INFINITY, next_down(f, bh)),
        BinOp::Le => (f64::NEG_INFINITY, bh),
        BinOp::Gt if bl == f64::INFINITY => return None,
        BinOp::Gt => (next_up(f, bl), f64::INFINITY),
        BinOp::Ge => (bl, f64::INFINITY),
        BinOp::Eq => (bl, bh),
        _ => panic!("float_narrow called with the non-relational operator {op:?}"),
    };
    FItv { range: a.range, nan: false }.meet(FItv { range: Some(bound), nan: false })
}

/// The values of `x` (in `a`) that may make `x op y` false for some `y` in `b`; `None` when none
/// can.
pub fn float_narrow_false(f: Format, op: BinOp, a: FItv, b: FItv) -> Option<FItv> {
    if op == BinOp::Ne {
        return float_narrow(f, BinOp::Eq, a, b);
    }
    // False of a NaN on either side, otherwise where the negation holds.
    if b.nan {
        return Some(a);
    }
    let nan_x = a.nan.then_some(FItv { range: None, nan: true });
    match (float_narrow(f, negate(op), a, b), nan_x) {
        (Some(x), Some(n)) => Some(x.join(n)),
        (x, n) => x.or(n),
    }
}

/// `x` of format `from` converted to format `to` (rounded, monotone).
pub fn float_convert(from: Format, to: Format, x: FItv) -> FItv {
    if from == to {
        return x;
    }
    let range = x.range.map(|(l, h)| {
        let c = |v: f64| float_of(to, fp::convert(from, to, RM, bits_of(from, v)));
        (c(l), c(h))
    });
    FItv { range, nan: x.nan }
}

/// The values of format `narrow` that `x` of the wider format `wide` (exactly representable
/// conversions, `float` to `double`) may have come from.
pub fn float_preimage(wide: Format, narrow: Format, x: FItv) -> Option<FItv> {
    let range = match x.range {
        None => None,
        Some((l, h)) => {
            let lo = float_of(narrow, fp::convert(wide, narrow, Rounding::Up, bits_of(wide, l)));
            let hi = float_of(narrow, fp::convert(wide, narrow, Rounding::Down, bits_of(wide, h)));
            (lo <= hi).then_some((lo, hi))
        }
    };
    let r = FItv { range, nan: x.nan };
    (!r.is_empty()).then_some(r)
}

/// An integer interval of type `r` converted to format `to` (rounded, monotone).
pub fn int_to_float(x: IItv, r: Repr, to: Format) -> FItv {
    let c = |v: i128| float_of(to, fp::from_int(to, RM, pattern(v, r.bits), r.bits, r.signed));
    FItv { range: Some((c(x.lo), c(x.hi))), nan: false }
}

/// A floating interval converted to the integer type `r` (truncation, monotone); undefined where a
/// value is a NaN or its integer part out of the type's range.
pub fn float_to_int(from: Format, x: FItv, r: Repr) -> Eval<IItv> {
    if r.is_bool {
        return defined(x.truth().int());
    }
    let Some((l, h)) = x.range else { return Eval { val: type_range(r), ub: true } };
    let c = |v: f64| fp::to_int(from, bits_of(from, v), r.bits, r.signed).map(|p| from_pattern(p, r));
    match (c(l), c(h)) {
        (Some(lo), Some(hi)) => Eval { val: IItv { lo, hi }, ub: x.nan },
        _ => Eval { val: type_range(r), ub: true },
    }
}

/// The values of the integer `x` (type `r`, in `a`) whose conversion to format `f` lies in `y`,
/// when the conversion is exact on `a` (every value of `a` representable).
pub fn int_preimage(a: IItv, f: Format, y: FItv) -> Option<Option<IItv>> {
    let exact = 1i128 << (f.fraction_bits() + 1);
    if a.lo < -exact || a.hi > exact {
        return None;
    }
    let Some((l, h)) = y.range else { return Some(None) };
    let lo = if l == f64::NEG_INFINITY { a.lo } else { l.ceil().max(a.lo as f64) as i128 };
    let hi = if h == f64::INFINITY { a.hi } else { h.floor().min(a.hi as f64) as i128 };
    Some(a.meet(IItv { lo, hi }))
}
