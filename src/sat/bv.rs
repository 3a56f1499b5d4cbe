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
//! Invariant: `bv` knows nothing of C types or promotions.

use super::aig::{Aig, AigInput, AigLit};

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

    fn add_circuit(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        Bv { bits: add_bits(aig, &self.bits, &rhs.bits, AigLit::FALSE, false).0 }
    }

    fn sub_circuit(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        Bv { bits: add_bits(aig, &self.bits, &rhs.bits, AigLit::TRUE, true).0 }
    }

    /// Shift-add array multiplier: row `i` adds `self << i`, masked by bit `i` of `rhs`, into the
    /// bits `i..width` of the accumulator.
    fn mul_circuit(&self, aig: &mut Aig, rhs: &Bv) -> Bv {
        let width = self.bits.len();
        let mut acc = vec![AigLit::FALSE; width];
        for (i, &factor_bit) in rhs.bits.iter().enumerate() {
            if factor_bit == AigLit::FALSE {
                continue;
            }
            let mut carry = AigLit::FALSE;
            for (acc_bit, &bit) in acc[i..].iter_mut().zip(&self.bits) {
                let partial = aig.and(bit, factor_bit);
                let (sum, carry_out) = full_add(aig, *acc_bit, partial, carry);
                *acc_bit = sum;
                carry = carry_out;
            }
        }
        Bv { bits: acc }
    }

    /// The product with the constant `factor`, as a sum of `±(self << k)` over the digits of the
    /// non-adjacent form of `factor`.
    fn mul_const(&self, aig: &mut Aig, factor: u128) -> Bv {
        let width = self.width();
        let mut acc: Option<Bv> = None;
        let mut rest = factor & mask(width);
        for k in 0..width {
            if rest & 1 == 1 {
                // Digit -1 when the two low bits are 11, so that a run of ones costs two terms.
                let negative = rest & 2 != 0;
                rest = if negative { rest.wrapping_add(1) } else { rest - 1 };
                let term = self.shift_const(k, Shift::Left);
                acc = Some(match (acc, negative) {
                    (None, false) => term,
                    (None, true) => term.neg(aig),
                    (Some(acc), false) => acc.add_circuit(aig, &term),
                    (Some(acc), true) => acc.sub_circuit(aig, &term),
                });
            }
            rest >>= 1;
        }
        acc.unwrap_or_else(|| Bv::zero(width))
    }

    /// Restoring division. Before step `t` the partial remainder is below `2^t` and below the
    /// divisor, so step `t` works on `t + 1` bits only: the shifted remainder is at least the
    /// divisor iff the divisor's bits above `t` are 0 and the low `t + 1` bits compare so.
    fn udivrem_circuit(&self, aig: &mut Aig, rhs: &Bv) -> (Bv, Bv) {
        let width = self.bits.len();
        // high_zero[t]: the divisor's bits above t are all 0.
        let mut high_zero = vec![AigLit::TRUE; width];
        for t in (0..width - 1).rev() {
            high_zero[t] = aig.and(high_zero[t + 1], !rhs.bits[t + 1]);
        }
        let mut quot = vec![AigLit::FALSE; width];
        let mut rem: Vec<AigLit> = Vec::with_capacity(width);
        let mut diff = Vec::with_capacity(width);
        for t in 0..width {
            // Shift the next dividend bit (from the top) into the remainder.
            rem.insert(0, self.bits[width - 1 - t]);
            diff.clear();
            let mut carry = AigLit::TRUE;
            for (&r, &d) in rem.iter().zip(&rhs.bits) {
                let (bit, carry_out) = full_add(aig, r, !d, carry);
                diff.push(bit);
                carry = carry_out;
            }
            let ge = aig.and(high_zero[t], carry);
            quot[width - 1 - t] = ge;
            for (r, &d) in rem.iter_mut().zip(&diff) {
                *r = aig.ite(ge, d, *r);
            }
        }
        (Bv { bits: quot }, Bv { bits: rem })
    }

    /// Signed division through the unsigned divider on the magnitudes.
    fn sdivrem_circuit(&self, aig: &mut Aig, rhs: &Bv) -> (Bv, Bv) {
        let (sign_l, sign_r) = (self.msb(), rhs.msb());
        let neg_l = self.neg(aig);
        let neg_r = rhs.neg(aig);
        let abs_l = Bv::ite(aig, sign_l, &neg_l, self);
        let abs_r = Bv::ite(aig, sign_r, &neg_r, rhs);
        let (quot, rem) = abs_l.udivrem(aig, &abs_r);
        let quot_negative = aig.xor(sign_l, sign_r);
        let neg_quot = quot.neg(aig);
        let neg_rem = rem.neg(aig);
        (Bv::ite(aig, quot_negative, &neg_quot, &quot), Bv::ite(aig, sign_l, &neg_rem, &rem))
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

    /// Barrel shifter: stage `k` shifts by `2^k` if bit `k` of the amount is set, for `2^k < width`;
    /// any higher amount bit shifts everything out.
    fn shift_circuit(&self, aig: &mut Aig, amount: &Bv, kind: Shift) -> Bv {
        let width = self.width();
        let fill = if kind == Shift::ArithRight { self.msb() } else { AigLit::FALSE };
        let mut cur = self.clone();
        let mut k = 0;
        while k < width && (1u128 << k) < width as u128 {
            let shifted = cur.shift_const(1 << k, kind);
            cur = Bv::ite(aig, amount.bits[k as usize], &shifted, &cur);
            k += 1;
        }
        let too_far = aig.or_all(amount.bits[k as usize..].iter().copied());
        Bv { bits: cur.bits.iter().map(|&b| aig.ite(too_far, fill, b)).collect() }
    }
}

/// `a + b + carry_in` bit by bit, `b` complemented first if `negate_b`; also the carry out.
fn add_bits(aig: &mut Aig, a: &[AigLit], b: &[AigLit], carry_in: AigLit, negate_b: bool) -> (Vec<AigLit>, AigLit) {
    let mut carry = carry_in;
    let sum = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let (s, c) = full_add(aig, x, y.xor_complement(negate_b), carry);
            carry = c;
            s
        })
        .collect();
    (sum, carry)
}

/// Sum and carry of three bits; 7 AND nodes, since the carry reuses the ANDs of both XORs.
#[inline]
fn full_add(aig: &mut Aig, x: AigLit, y: AigLit, carry: AigLit) -> (AigLit, AigLit) {
    let half = aig.xor(x, y);
    let sum = aig.xor(half, carry);
    let both = aig.and(x, y);
    let through = aig.and(half, carry);
    (sum, aig.or(both, through))
}

/// Whether `a >= b`, unsigned, or signed if `signed`: the carry out of `a + !b + 1`, computed as a
/// majority chain (4 AND nodes per bit). Signed order is unsigned order with the sign bits flipped.
fn uge_bits(aig: &mut Aig, a: &[AigLit], b: &[AigLit], signed: bool) -> AigLit {
    let last = a.len() - 1;
    let mut carry = AigLit::TRUE;
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        let flip = signed && i == last;
        let (x, y) = (x.xor_complement(flip), !y.xor_complement(flip));
        let both = aig.and(x, y);
        let either = aig.or(x, y);
        let through = aig.and(carry, either);
        carry = aig.or(both, through);
    }
    carry
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
mod tests;
