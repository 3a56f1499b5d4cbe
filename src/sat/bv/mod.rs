//! Fixed-width two's-complement bit-vector circuits over an `Aig`, with SMT-LIB semantics.
//!
//! A `Bv` is a least-significant-bit-first vector of `AigLit`s of width `1..=MAX_WIDTH`.
//! Every operation asserts that its operands have equal widths.
//! When all operands are constants the result is computed directly, so concrete computation creates
//! no AND node; partly constant operands fold while the circuit is built.
//!
//! Corner cases follow SMT-LIB, not C (the `symex` layer guards what C leaves undefined):
//! `x udiv 0` is all ones, `x urem 0` is `x`, `x sdiv 0` is 1 for negative `x` and all ones
//! otherwise, `x srem 0` is `x`, `MIN sdiv -1` is `MIN`, `MIN srem -1` is 0, and a shift by at least
//! the width gives 0 (`shl`, `lshr`) or all sign bits (`ashr`).
//!
//! This file holds the operations and their constant folding; `circuit.rs` holds the gate-level
//! circuits (adders, comparators, multipliers, dividers, the barrel shifter) they build otherwise.
//!
//! Invariant: `bv` knows nothing of C types or promotions.

mod circuit;

use super::aig::{Aig, AigInput, AigLit};
use circuit::uge_bits;

/// The largest supported width, so that a 64-bit product or sum can be computed exactly.
pub const MAX_WIDTH: u32 = 128;

/// A fixed-width bit-vector of `Aig` literals, least significant bit first.
///
/// Equal `Bv`s denote equal values (structural hashing makes identical terms identical literals);
/// the converse does not hold.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Bv {
    bits: Vec<AigLit>,
}

/// Which way a shift moves bits and what it shifts in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shift {
    Left,
    LogicalRight,
    ArithRight,
}

impl Bv {
    /// The constant `value` truncated to `width` bits.
    pub fn constant(value: u128, width: u32) -> Bv {
        check_width(width);
        Bv { bits: (0..width).map(|i| AigLit::constant(value >> i & 1 == 1)).collect() }
    }

    /// The constant 0 of `width` bits.
    pub fn zero(width: u32) -> Bv {
        Bv::constant(0, width)
    }

    /// The constant with all `width` bits set (-1 when signed).
    pub fn ones(width: u32) -> Bv {
        Bv::constant(u128::MAX, width)
    }

    /// A vector of `width` fresh inputs.
    pub fn input(aig: &mut Aig, width: u32) -> Bv {
        check_width(width);
        Bv { bits: (0..width).map(|_| aig.new_input()).collect() }
    }

    /// The vector of the given bits, least significant first.
    pub fn from_bits(bits: Vec<AigLit>) -> Bv {
        check_width(bits.len() as u32);
        Bv { bits }
    }

    /// The 1-bit vector of `bit`.
    pub fn from_bool(bit: AigLit) -> Bv {
        Bv { bits: vec![bit] }
    }

    /// The number of bits.
    #[inline]
    pub fn width(&self) -> u32 {
        self.bits.len() as u32
    }

    /// The bits, least significant first.
    #[inline]
    pub fn bits(&self) -> &[AigLit] {
        &self.bits
    }

    /// Bit `idx`, counted from the least significant bit 0.
    #[inline]
    pub fn bit(&self, idx: u32) -> AigLit {
        self.bits[idx as usize]
    }

    /// The most significant bit, the sign of a signed value.
    #[inline]
    pub fn msb(&self) -> AigLit {
        self.bits[self.bits.len() - 1]
    }

    /// The value if every bit is constant.
    pub fn as_const(&self) -> Option<u128> {
        let mut value = 0u128;
        for (i, bit) in self.bits.iter().enumerate() {
            value |= (bit.as_const()? as u128) << i;
        }
        Some(value)
    }

    /// The value read as two's complement if every bit is constant.
    pub fn as_signed_const(&self) -> Option<i128> {
        self.as_const().map(|value| sign_extend(value, self.width()))
    }

    /// Whether every bit is constant.
    pub fn is_const(&self) -> bool {
        self.bits.iter().all(|b| b.is_const())
    }

    /// The value when each input has the value `input_value(input)`.
    pub fn eval(&self, aig: &Aig, input_value: &dyn Fn(AigInput) -> bool) -> u128 {
        from_bools(&aig.eval_many(&self.bits, input_value))
    }

    /// Bitwise not; free, since complements are part of the literals.
    pub fn not(&self) -> Bv {
        Bv { bits: self.bits.iter().map(|&b| !b).collect() }
    }

    /// Bitwise and.
    pub fn and(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        self.zip(rhs, "bvand", |l, r| aig.and(l, r))
    }

    /// Bitwise or.
    pub fn or(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        self.zip(rhs, "bvor", |l, r| aig.or(l, r))
    }

    /// Bitwise exclusive or.
    pub fn xor(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        self.zip(rhs, "bvxor", |l, r| aig.xor(l, r))
    }

    /// Two's-complement negation, modulo 2^width.
    pub fn neg(&self, aig: &mut Aig) -> Bv {
        if let Some(x) = self.as_const() {
            return Bv::constant(x.wrapping_neg(), self.width());
        }
        let zero = Bv::zero(self.width());
        zero.sub_circuit(aig, self)
    }

    /// Sum modulo 2^width.
    pub fn add(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        check_same(self, rhs, "bvadd");
        if let Some((x, y)) = const_pair(self, rhs) {
            return Bv::constant(x.wrapping_add(y), self.width());
        }
        self.add_circuit(aig, rhs)
    }

    /// Difference modulo 2^width.
    pub fn sub(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        check_same(self, rhs, "bvsub");
        if let Some((x, y)) = const_pair(self, rhs) {
            return Bv::constant(x.wrapping_sub(y), self.width());
        }
        self.sub_circuit(aig, rhs)
    }

    /// Product modulo 2^width.
    ///
    /// A constant factor becomes shifts added and subtracted along its non-adjacent form, so a power
    /// of two costs no node and `x * -1` is one negation; otherwise a shift-add array multiplier.
    pub fn mul(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        check_same(self, rhs, "bvmul");
        match (self.as_const(), rhs.as_const()) {
            (Some(x), Some(y)) => Bv::constant(x.wrapping_mul(y), self.width()),
            (Some(x), None) => rhs.mul_const(aig, x),
            (None, Some(y)) => self.mul_const(aig, y),
            (None, None) => self.mul_circuit(aig, rhs),
        }
    }

    /// Unsigned quotient and remainder, with `x / 0 = ones` and `x % 0 = x`.
    ///
    /// A constant power-of-two divisor costs no node; otherwise a restoring divider.
    pub fn udivrem(&self, aig: &mut Aig, rhs: &Bv) -> (Bv, Bv) {
        check_same(self, rhs, "bvudiv");
        let width = self.width();
        match (self.as_const(), rhs.as_const()) {
            (_, Some(0)) => (Bv::ones(width), self.clone()),
            (Some(x), Some(y)) => (Bv::constant(x / y, width), Bv::constant(x % y, width)),
            (None, Some(y)) if y.is_power_of_two() => {
                let shift = y.trailing_zeros();
                let quot = self.shift_const(shift, Shift::LogicalRight);
                let mut rem = self.bits.clone();
                rem[shift as usize..].fill(AigLit::FALSE);
                (quot, Bv { bits: rem })
            }
            _ => self.udivrem_circuit(aig, rhs),
        }
    }

    /// Unsigned quotient, with `x / 0 = ones` (SMT-LIB `bvudiv`).
    pub fn udiv(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        self.udivrem(aig, rhs).0
    }

    /// Unsigned remainder, with `x % 0 = x` (SMT-LIB `bvurem`).
    pub fn urem(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        self.udivrem(aig, rhs).1
    }

    /// Signed quotient truncated toward zero, with the SMT-LIB `bvsdiv` corner cases
    /// (`x / 0` is 1 for negative `x` and -1 otherwise, `MIN / -1 = MIN`).
    pub fn sdiv(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        check_same(self, rhs, "bvsdiv");
        if let Some((x, y)) = const_pair(self, rhs) {
            return Bv::constant(sdiv_value(x, y, self.width()), self.width());
        }
        self.sdivrem_circuit(aig, rhs).0
    }

    /// Signed remainder with the sign of the dividend, with `x % 0 = x` and `MIN % -1 = 0`
    /// (SMT-LIB `bvsrem`).
    pub fn srem(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        check_same(self, rhs, "bvsrem");
        if let Some((x, y)) = const_pair(self, rhs) {
            return Bv::constant(srem_value(x, y, self.width()), self.width());
        }
        self.sdivrem_circuit(aig, rhs).1
    }

    /// Left shift by `amount` (read unsigned); 0 when `amount >= width`.
    pub fn shl(&self, aig: &mut Aig, amount: &Bv) -> Bv {
        self.shift(aig, amount, Shift::Left, "bvshl")
    }

    /// Logical right shift by `amount` (read unsigned); 0 when `amount >= width`.
    pub fn lshr(&self, aig: &mut Aig, amount: &Bv) -> Bv {
        self.shift(aig, amount, Shift::LogicalRight, "bvlshr")
    }

    /// Arithmetic right shift by `amount` (read unsigned); all sign bits when `amount >= width`.
    pub fn ashr(&self, aig: &mut Aig, amount: &Bv) -> Bv {
        self.shift(aig, amount, Shift::ArithRight, "bvashr")
    }

    /// Whether the two vectors are equal.
    pub fn eq(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        check_same(self, rhs, "bveq");
        let mut res = AigLit::TRUE;
        for (&l, &r) in self.bits.iter().zip(&rhs.bits) {
            let same = aig.xnor(l, r);
            res = aig.and(res, same);
            if res == AigLit::FALSE {
                break;
            }
        }
        res
    }

    /// Whether the two vectors differ.
    pub fn ne(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        !self.eq(aig, rhs)
    }

    /// Unsigned less-than.
    pub fn ult(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        check_same(self, rhs, "bvult");
        !uge_bits(aig, &self.bits, &rhs.bits, false)
    }

    /// Unsigned less-or-equal.
    pub fn ule(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        check_same(self, rhs, "bvule");
        uge_bits(aig, &rhs.bits, &self.bits, false)
    }

    /// Unsigned greater-than.
    pub fn ugt(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        rhs.ult(aig, self)
    }

    /// Unsigned greater-or-equal.
    pub fn uge(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        rhs.ule(aig, self)
    }

    /// Signed less-than.
    pub fn slt(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        check_same(self, rhs, "bvslt");
        !uge_bits(aig, &self.bits, &rhs.bits, true)
    }

    /// Signed less-or-equal.
    pub fn sle(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        check_same(self, rhs, "bvsle");
        uge_bits(aig, &rhs.bits, &self.bits, true)
    }

    /// Signed greater-than.
    pub fn sgt(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        rhs.slt(aig, self)
    }

    /// Signed greater-or-equal.
    pub fn sge(&self, aig: &mut Aig, rhs: &Bv) -> AigLit {
        rhs.sle(aig, self)
    }

    /// If `cond` then `then` else `other`, bit by bit.
    pub fn ite(aig: &mut Aig, cond: AigLit, then: &Bv, other: &Bv) -> Bv {
        check_same(then, other, "bvite");
        match cond.as_const() {
            Some(true) => then.clone(),
            Some(false) => other.clone(),
            None => then.zip(other, "bvite", |t, e| aig.ite(cond, t, e)),
        }
    }

    /// Zero extension to `width` bits (at least the current width).
    pub fn zext(&self, width: u32) -> Bv {
        self.extend(width, AigLit::FALSE, "zext")
    }

    /// Sign extension to `width` bits (at least the current width).
    pub fn sext(&self, width: u32) -> Bv {
        self.extend(width, self.msb(), "sext")
    }

    /// Bits `lo..=hi`, as SMT-LIB `(_ extract hi lo)`.
    pub fn extract(&self, hi: u32, lo: u32) -> Bv {
        assert!(lo <= hi && hi < self.width(), "extract [{hi}:{lo}] out of range for width {}", self.width());
        Bv { bits: self.bits[lo as usize..=hi as usize].to_vec() }
    }

    /// The low `width` bits (at most the current width).
    pub fn trunc(&self, width: u32) -> Bv {
        assert!(width >= 1 && width <= self.width(), "trunc from width {} to {width}", self.width());
        Bv { bits: self.bits[..width as usize].to_vec() }
    }

    /// The concatenation with `self` as the high part and `low` as the low part (SMT-LIB
    /// `(concat self low)`).
    pub fn concat(&self, low: &Bv) -> Bv {
        let mut bits = Vec::with_capacity(self.bits.len() + low.bits.len());
        bits.extend_from_slice(&low.bits);
        bits.extend_from_slice(&self.bits);
        Bv::from_bits(bits)
    }

    /// Whether every bit is 0.
    pub fn is_zero(&self, aig: &mut Aig) -> AigLit {
        !self.reduce_or(aig)
    }

    /// Whether some bit is 1.
    pub fn reduce_or(&self, aig: &mut Aig) -> AigLit {
        aig.or_all(self.bits.iter().copied())
    }

    /// Whether every bit is 1.
    pub fn reduce_and(&self, aig: &mut Aig) -> AigLit {
        aig.and_all(self.bits.iter().copied())
    }

    fn zip(&self, rhs: &Bv, op: &str, mut f: impl FnMut(AigLit, AigLit) -> AigLit) -> Bv {
        check_same(self, rhs, op);
        Bv { bits: self.bits.iter().zip(&rhs.bits).map(|(&l, &r)| f(l, r)).collect() }
    }

    fn extend(&self, width: u32, fill: AigLit, op: &str) -> Bv {
        assert!(width >= self.width(), "{op} from width {} to smaller width {width}", self.width());
        check_width(width);
        let mut bits = self.bits.clone();
        bits.resize(width as usize, fill);
        Bv { bits }
    }
    fn shift(&self, aig: &mut Aig, amount: &Bv, kind: Shift, op: &str) -> Bv {
        check_same(self, amount, op);
        match amount.as_const() {
            Some(k) => self.shift_const(k.min(self.width() as u128) as u32, kind),
            None => self.shift_circuit(aig, amount, kind),
        }
    }

    /// The shift by the constant `k <= width`: a rewiring, no node.
    fn shift_const(&self, k: u32, kind: Shift) -> Bv {
        let width = self.bits.len();
        let k = k as usize;
        let fill = if kind == Shift::ArithRight { self.msb() } else { AigLit::FALSE };
        let bits = (0..width)
            .map(|i| match kind {
                Shift::Left => i.checked_sub(k).map_or(fill, |src| self.bits[src]),
                Shift::LogicalRight | Shift::ArithRight => self.bits.get(i + k).copied().unwrap_or(fill),
            })
            .collect();
        Bv { bits }
    }
}

fn check_width(width: u32) {
    assert!((1..=MAX_WIDTH).contains(&width), "bit-vector width {width} not in 1..={MAX_WIDTH}");
}

fn check_same(a: &Bv, b: &Bv, op: &str) {
    assert_eq!(a.width(), b.width(), "{op} width mismatch");
}

fn const_pair(a: &Bv, b: &Bv) -> Option<(u128, u128)> {
    Some((a.as_const()?, b.as_const()?))
}

fn mask(width: u32) -> u128 {
    u128::MAX >> (128 - width)
}

fn sign_extend(value: u128, width: u32) -> i128 {
    let unused = 128 - width;
    ((value << unused) as i128) >> unused
}

fn from_bools(bits: &[bool]) -> u128 {
    bits.iter().enumerate().fold(0, |acc, (i, &b)| acc | (b as u128) << i)
}

fn sdiv_value(x: u128, y: u128, width: u32) -> u128 {
    let (sx, sy) = (sign_extend(x, width), sign_extend(y, width));
    let res = match sy {
        0 if sx < 0 => 1,
        0 => -1,
        _ => sx.wrapping_div(sy),
    };
    res as u128 & mask(width)
}

fn srem_value(x: u128, y: u128, width: u32) -> u128 {
    let (sx, sy) = (sign_extend(x, width), sign_extend(y, width));
    if sy == 0 {
        return x;
    }
    sx.wrapping_rem(sy) as u128 & mask(width)
}

#[cfg(test)]
mod tests {
    use std::panic::{catch_unwind, AssertUnwindSafe};

    use proptest::prelude::*;

    use super::super::test_util::CheckedBackend;
    use super::super::{Encoder, SatBackend, SatResult};
    use super::*;

    #[derive(Clone, Copy, Debug)]
    enum BinOp {
        And,
        Or,
        Xor,
        Add,
        Sub,
        Mul,
        Udiv,
        Urem,
        Sdiv,
        Srem,
        Shl,
        Lshr,
        Ashr,
    }

    #[derive(Clone, Copy, Debug)]
    enum CmpOp {
        Eq,
        Ne,
        Ult,
        Ule,
        Ugt,
        Uge,
        Slt,
        Sle,
        Sgt,
        Sge,
    }

    const BIN_OPS: [BinOp; 13] = [
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Udiv,
        BinOp::Urem,
        BinOp::Sdiv,
        BinOp::Srem,
        BinOp::Shl,
        BinOp::Lshr,
        BinOp::Ashr,
    ];

    const CMP_OPS: [CmpOp; 10] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Ult,
        CmpOp::Ule,
        CmpOp::Ugt,
        CmpOp::Uge,
        CmpOp::Slt,
        CmpOp::Sle,
        CmpOp::Sgt,
        CmpOp::Sge,
    ];

    /// The expected result, from Rust's own arithmetic on `u128`/`i128` truncated to `width`.
    fn reference(op: BinOp, x: u128, y: u128, width: u32) -> u128 {
        let m = mask(width);
        let (sx, sy) = (sign_extend(x, width), sign_extend(y, width));
        let res = match op {
            BinOp::And => x & y,
            BinOp::Or => x | y,
            BinOp::Xor => x ^ y,
            BinOp::Add => x.wrapping_add(y),
            BinOp::Sub => x.wrapping_sub(y),
            BinOp::Mul => x.wrapping_mul(y),
            BinOp::Udiv => x.checked_div(y).unwrap_or(m),
            BinOp::Urem => x.checked_rem(y).unwrap_or(x),
            BinOp::Sdiv => match sx.checked_div(sy) {
                Some(q) => q as u128,
                None if sy == 0 => {
                    if sx < 0 {
                        1
                    } else {
                        m
                    }
                }
                None => x, // MIN / -1 at width 128
            },
            BinOp::Srem => match sx.checked_rem(sy) {
                Some(r) => r as u128,
                None if sy == 0 => x,
                None => 0,
            },
            BinOp::Shl => {
                if y >= width as u128 {
                    0
                } else {
                    x << y
                }
            }
            BinOp::Lshr => {
                if y >= width as u128 {
                    0
                } else {
                    x >> y
                }
            }
            BinOp::Ashr => (sx >> y.min(width as u128 - 1)) as u128,
        };
        res & m
    }

    fn cmp_reference(op: CmpOp, x: u128, y: u128, width: u32) -> bool {
        let (sx, sy) = (sign_extend(x, width), sign_extend(y, width));
        match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Ult => x < y,
            CmpOp::Ule => x <= y,
            CmpOp::Ugt => x > y,
            CmpOp::Uge => x >= y,
            CmpOp::Slt => sx < sy,
            CmpOp::Sle => sx <= sy,
            CmpOp::Sgt => sx > sy,
            CmpOp::Sge => sx >= sy,
        }
    }

    fn apply(op: BinOp, aig: &mut Aig, a: &Bv, b: &Bv) -> Bv {
        match op {
            BinOp::And => a.and(aig, b),
            BinOp::Or => a.or(aig, b),
            BinOp::Xor => a.xor(aig, b),
            BinOp::Add => a.add(aig, b),
            BinOp::Sub => a.sub(aig, b),
            BinOp::Mul => a.mul(aig, b),
            BinOp::Udiv => a.udiv(aig, b),
            BinOp::Urem => a.urem(aig, b),
            BinOp::Sdiv => a.sdiv(aig, b),
            BinOp::Srem => a.srem(aig, b),
            BinOp::Shl => a.shl(aig, b),
            BinOp::Lshr => a.lshr(aig, b),
            BinOp::Ashr => a.ashr(aig, b),
        }
    }

    /// The general circuit behind `apply`, bypassing the constant and special-case short-cuts.
    fn apply_circuit(op: BinOp, aig: &mut Aig, a: &Bv, b: &Bv) -> Bv {
        match op {
            BinOp::Add => a.add_circuit(aig, b),
            BinOp::Sub => a.sub_circuit(aig, b),
            BinOp::Mul => a.mul_circuit(aig, b),
            BinOp::Udiv => a.udivrem_circuit(aig, b).0,
            BinOp::Urem => a.udivrem_circuit(aig, b).1,
            BinOp::Sdiv => a.sdivrem_circuit(aig, b).0,
            BinOp::Srem => a.sdivrem_circuit(aig, b).1,
            BinOp::Shl => a.shift_circuit(aig, b, Shift::Left),
            BinOp::Lshr => a.shift_circuit(aig, b, Shift::LogicalRight),
            BinOp::Ashr => a.shift_circuit(aig, b, Shift::ArithRight),
            BinOp::And | BinOp::Or | BinOp::Xor => apply(op, aig, a, b),
        }
    }

    fn apply_cmp(op: CmpOp, aig: &mut Aig, a: &Bv, b: &Bv) -> AigLit {
        match op {
            CmpOp::Eq => a.eq(aig, b),
            CmpOp::Ne => a.ne(aig, b),
            CmpOp::Ult => a.ult(aig, b),
            CmpOp::Ule => a.ule(aig, b),
            CmpOp::Ugt => a.ugt(aig, b),
            CmpOp::Uge => a.uge(aig, b),
            CmpOp::Slt => a.slt(aig, b),
            CmpOp::Sle => a.sle(aig, b),
            CmpOp::Sgt => a.sgt(aig, b),
            CmpOp::Sge => a.sge(aig, b),
        }
    }

    /// Solves with the inputs `fixed` to their values by assumptions and returns the value of each
    /// of `outs` read from the solver's model of the output literals; checks that the read-back
    /// through the `Aig` agrees.
    fn solve_outputs(aig: &Aig, fixed: &[(&Bv, u128)], outs: &[Bv]) -> Vec<u128> {
        let (mut solver, mut enc) = (CheckedBackend::default(), Encoder::default());
        let out_lits: Vec<Vec<_>> = outs.iter().map(|out| enc.bv_lits(aig, &mut solver, out)).collect();
        let mut assumptions = Vec::new();
        for (bv, value) in fixed {
            for (i, lit) in enc.bv_lits(aig, &mut solver, bv).into_iter().enumerate() {
                assumptions.push(if value >> i & 1 == 1 { lit } else { !lit });
            }
        }
        assert_eq!(solver.solve(&assumptions), SatResult::Sat);
        outs.iter()
            .zip(&out_lits)
            .map(|(out, lits)| {
                let bits: Vec<bool> = lits.iter().map(|&l| solver.value(l).expect("output has a value")).collect();
                let res = from_bools(&bits);
                assert_eq!(enc.bv_value(aig, &solver, out), res, "read-back through the AIG");
                res
            })
            .collect()
    }

    /// Checks `op` on `x`, `y` of `width` bits: constant folding (public and circuit paths, no node
    /// created) and the circuits over inputs (both symbolic, one side constant) through CaDiCaL.
    fn check_binop(op: BinOp, width: u32, x: u128, y: u128) {
        let expect = reference(op, x, y, width);
        let (cx, cy) = (Bv::constant(x, width), Bv::constant(y, width));
        for circuit in [false, true] {
            let mut aig = Aig::default();
            let res = if circuit { apply_circuit(op, &mut aig, &cx, &cy) } else { apply(op, &mut aig, &cx, &cy) };
            assert_eq!(res.as_const(), Some(expect), "{op:?} folded (circuit: {circuit})");
            assert_eq!(aig.n_ands(), 0, "{op:?} on constants made nodes (circuit: {circuit})");
        }
        let mut aig = Aig::default();
        let (a, b) = (Bv::input(&mut aig, width), Bv::input(&mut aig, width));
        let outs = [apply(op, &mut aig, &a, &b), apply(op, &mut aig, &cx, &b), apply(op, &mut aig, &a, &cy)];
        let got = solve_outputs(&aig, &[(&a, x), (&b, y)], &outs);
        assert_eq!(got, [expect; 3], "{op:?}: symbolic, constant lhs, constant rhs");
    }

    fn check_cmp(op: CmpOp, width: u32, x: u128, y: u128) {
        let expect = cmp_reference(op, x, y, width);
        let mut aig = Aig::default();
        let (cx, cy) = (Bv::constant(x, width), Bv::constant(y, width));
        assert_eq!(apply_cmp(op, &mut aig, &cx, &cy), AigLit::constant(expect), "{op:?} folded");
        assert_eq!(aig.n_ands(), 0);
        let (a, b) = (Bv::input(&mut aig, width), Bv::input(&mut aig, width));
        let outs =
            [apply_cmp(op, &mut aig, &a, &b), apply_cmp(op, &mut aig, &cx, &b), apply_cmp(op, &mut aig, &a, &cy)]
                .map(Bv::from_bool);
        let got = solve_outputs(&aig, &[(&a, x), (&b, y)], &outs);
        assert_eq!(got, [expect as u128; 3], "{op:?}: symbolic, constant lhs, constant rhs");
    }

    /// An operand of `width` bits: mostly random, with the corner values and small numbers (shift
    /// amounts) well represented.
    fn operand(width: u32) -> impl Strategy<Value = u128> {
        let m = mask(width);
        let min = 1u128 << (width - 1);
        let corners = vec![0, 1, 2, m, m - 1, min, min.wrapping_sub(1), min + 1];
        prop_oneof![
            4 => any::<u128>(),
            2 => prop::sample::select(corners),
            1 => 0u128..=130,
            1 => (0u32..width).prop_map(|k| 1u128 << k),
        ]
        .prop_map(move |v| v & m)
    }

    fn operands(widths: std::ops::RangeInclusive<u32>) -> impl Strategy<Value = (u32, u128, u128)> {
        widths.prop_flat_map(|w| (Just(w), operand(w), operand(w)))
    }

    macro_rules! prop_binop {
        ($($name:ident: $op:expr, $cases:expr;)*) => {$(
            proptest! {
                #![proptest_config(ProptestConfig::with_cases($cases))]
                #[test]
                fn $name((w, x, y) in operands(1..=64)) {
                    check_binop($op, w, x, y);
                }
            }
        )*};
    }

    prop_binop! {
        prop_and: BinOp::And, 128;
        prop_or: BinOp::Or, 128;
        prop_xor: BinOp::Xor, 128;
        prop_add: BinOp::Add, 256;
        prop_sub: BinOp::Sub, 256;
        prop_mul: BinOp::Mul, 96;
        prop_udiv: BinOp::Udiv, 64;
        prop_urem: BinOp::Urem, 64;
        prop_sdiv: BinOp::Sdiv, 64;
        prop_srem: BinOp::Srem, 64;
        prop_shl: BinOp::Shl, 192;
        prop_lshr: BinOp::Lshr, 192;
        prop_ashr: BinOp::Ashr, 192;
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn prop_cmp((w, x, y) in operands(1..=64), op_idx in 0..CMP_OPS.len()) {
            check_cmp(CMP_OPS[op_idx], w, x, y);
        }

        #[test]
        fn prop_unary((w, x, _y) in operands(1..=64)) {
            let m = mask(w);
            let mut aig = Aig::default();
            let cx = Bv::constant(x, w);
            assert_eq!(cx.not().as_const(), Some(!x & m));
            assert_eq!(cx.neg(&mut aig).as_const(), Some(x.wrapping_neg() & m));
            assert_eq!(cx.is_zero(&mut aig), AigLit::constant(x == 0));
            assert_eq!(cx.reduce_and(&mut aig), AigLit::constant(x == m));
            assert_eq!(cx.as_signed_const(), Some(sign_extend(x, w)));
            assert_eq!(aig.n_ands(), 0);
            let a = Bv::input(&mut aig, w);
            let outs = [
                a.not(),
                a.neg(&mut aig),
                Bv::from_bool(a.is_zero(&mut aig)),
                Bv::from_bool(a.reduce_or(&mut aig)),
                Bv::from_bool(a.reduce_and(&mut aig)),
            ];
            let got = solve_outputs(&aig, &[(&a, x)], &outs);
            assert_eq!(got, [!x & m, x.wrapping_neg() & m, (x == 0) as u128, (x != 0) as u128, (x == m) as u128]);
        }

        #[test]
        fn prop_resize((w, x, y) in operands(1..=64), extra in 0u32..=64, cut in any::<prop::sample::Index>(),
                       c in any::<bool>()) {
            let wide = w + extra;
            let lo = cut.index(w as usize) as u32;
            let hi = lo + cut.index((w - lo) as usize) as u32;
            let expect = [
                x,
                sign_extend(x, w) as u128 & mask(wide),
                x >> lo & mask(hi - lo + 1),
                x & mask(lo.max(1)),
                if w + w <= MAX_WIDTH { y << w | x } else { 0 },
                if c { x } else { y },
            ];
            let build = |aig: &mut Aig, a: &Bv, b: &Bv, cond: AigLit| {
                let cat = if w + w <= MAX_WIDTH { b.concat(a) } else { Bv::zero(1) };
                [a.zext(wide), a.sext(wide), a.extract(hi, lo), a.trunc(lo.max(1)), cat, Bv::ite(aig, cond, a, b)]
            };
            let mut aig = Aig::default();
            let (cx, cy) = (Bv::constant(x, w), Bv::constant(y, w));
            let folded = build(&mut aig, &cx, &cy, AigLit::constant(c));
            assert_eq!(folded.map(|r| r.as_const().unwrap()), expect);
            let (a, b, cond) = (Bv::input(&mut aig, w), Bv::input(&mut aig, w), Bv::input(&mut aig, 1));
            let outs = build(&mut aig, &a, &b, cond.bit(0));
            let got = solve_outputs(&aig, &[(&a, x), (&b, y), (&cond, c as u128)], &outs);
            assert_eq!(got, expect);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// Widths above 64, up to `MAX_WIDTH`, for every operation.
        #[test]
        fn prop_wide((w, x, y) in operands(65..=MAX_WIDTH), op_idx in 0..BIN_OPS.len(), cmp_idx in 0..CMP_OPS.len()) {
            check_binop(BIN_OPS[op_idx], w, x, y);
            check_cmp(CMP_OPS[cmp_idx], w, x, y);
        }
    }

    #[test]
    fn corner_cases_follow_smt_lib() {
        let w = 8;
        for (op, x, y, expect) in [
            (BinOp::Udiv, 77, 0, 0xff),
            (BinOp::Urem, 77, 0, 77),
            (BinOp::Sdiv, 77, 0, 0xff),
            (BinOp::Sdiv, 0x80 | 5, 0, 1),
            (BinOp::Srem, 0x85, 0, 0x85),
            (BinOp::Sdiv, 0x80, 0xff, 0x80),
            (BinOp::Srem, 0x80, 0xff, 0),
            (BinOp::Sdiv, (-7i8) as u8 as u128, 2, (-3i8) as u8 as u128),
            (BinOp::Srem, (-7i8) as u8 as u128, 2, (-1i8) as u8 as u128),
            (BinOp::Srem, 7, (-2i8) as u8 as u128, 1),
            (BinOp::Shl, 1, 8, 0),
            (BinOp::Lshr, 0x80, 200, 0),
            (BinOp::Ashr, 0x80, 9, 0xff),
            (BinOp::Ashr, 0x40, 255, 0),
        ] {
            assert_eq!(reference(op, x, y, w), expect, "{op:?} {x} {y}");
            check_binop(op, w, x, y);
        }
        for op in BIN_OPS {
            for (x, y) in [(0, 0), (1, 1), (u128::MAX, u128::MAX), (0, 1)] {
                check_binop(op, 1, x & 1, y & 1);
            }
        }
    }

    #[test]
    fn constant_short_cuts_make_few_nodes() {
        let mut aig = Aig::default();
        let x = Bv::input(&mut aig, 32);
        let pow2 = Bv::constant(8, 32);
        let prod = x.mul(&mut aig, &pow2);
        let (quot, rem) = x.udivrem(&mut aig, &pow2);
        let shifted = x.shl(&mut aig, &Bv::constant(3, 32));
        assert_eq!(prod, shifted);
        assert_eq!(quot, x.lshr(&mut aig, &Bv::constant(3, 32)));
        assert_eq!(rem, x.extract(2, 0).zext(32));
        assert_eq!(x.mul(&mut aig, &Bv::constant(1, 32)), x);
        assert_eq!(x.mul(&mut aig, &Bv::zero(32)), Bv::zero(32));
        assert_eq!(x.udiv(&mut aig, &Bv::zero(32)), Bv::ones(32));
        assert_eq!(aig.n_ands(), 0);
        // x * -1 is one negation, x * 255 = (x << 8) - x one subtraction.
        let neg = x.neg(&mut aig);
        let before = aig.n_ands();
        assert_eq!(x.mul(&mut aig, &Bv::ones(32)), neg);
        assert_eq!(aig.n_ands(), before);
        x.mul(&mut aig, &Bv::constant(255, 32));
        assert!(aig.n_ands() - before <= 7 * 32, "{} nodes for x * 255", aig.n_ands() - before);
    }

    #[test]
    fn strash_shares_circuits_between_ops() {
        let mut aig = Aig::default();
        let (a, b) = (Bv::input(&mut aig, 16), Bv::input(&mut aig, 16));
        let quot = a.udiv(&mut aig, &b);
        let n_ands = aig.n_ands();
        a.urem(&mut aig, &b);
        assert_eq!(a.udiv(&mut aig, &b), quot);
        assert_eq!(aig.n_ands(), n_ands, "urem and a second udiv reuse the divider");
        a.sdiv(&mut aig, &b);
        let n_signed = aig.n_ands();
        a.srem(&mut aig, &b);
        assert_eq!(aig.n_ands(), n_signed, "srem reuses the divider of sdiv");
    }

    #[test]
    fn circuit_sizes() {
        let size = |f: &dyn Fn(&mut Aig, &Bv, &Bv) -> Bv| {
            let mut aig = Aig::default();
            let (a, b) = (Bv::input(&mut aig, 32), Bv::input(&mut aig, 32));
            f(&mut aig, &a, &b);
            aig.n_ands()
        };
        assert!(size(&|aig, a, b| a.add(aig, b)) <= 7 * 32);
        assert!(size(&|aig, a, b| Bv::from_bool(a.ult(aig, b))) <= 4 * 32);
        assert!(size(&|aig, a, b| a.mul(aig, b)) <= 8 * 32 * 33 / 2);
        assert!(size(&|aig, a, b| a.udiv(aig, b)) <= 11 * 32 * 33 / 2);
    }

    #[test]
    fn width_mismatch_panics_with_the_op_name() {
        let mut aig = Aig::default();
        let (a, b) = (Bv::input(&mut aig, 8), Bv::input(&mut aig, 16));
        let err = catch_unwind(AssertUnwindSafe(|| a.add(&mut aig, &b))).unwrap_err();
        let msg = err.downcast_ref::<String>().unwrap();
        assert!(msg.contains("bvadd width mismatch"), "{msg}");
        let err = catch_unwind(|| Bv::constant(0, 0)).unwrap_err();
        assert!(err.downcast_ref::<String>().unwrap().contains("width 0 not in 1..=128"));
    }
}
