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
use crate::base::bits::{mask, sign_extend};
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
mod tests;
