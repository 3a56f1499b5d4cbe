//! Unit tests of the bit-vector circuits: every operation against Rust's integer arithmetic on
//! small widths (property tests), with models checked against all clauses (`CheckedBackend`).

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
    let outs = [apply_cmp(op, &mut aig, &a, &b), apply_cmp(op, &mut aig, &cx, &b), apply_cmp(op, &mut aig, &a, &cy)]
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
