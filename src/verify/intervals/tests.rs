//! Tests of interval analysis: the transfer functions against `base::fp` and C's integers on
//! random values, the engine on small programs, and the engine against the concrete interpreter on
//! random programs.

use super::domain::*;
use super::*;
use crate::base::fp::{self, Arith, Compare};
use crate::cfa::{Cfa, CfaConfig};
use crate::cfront::ir::{BinOp, Program};
use crate::cfront::types::DataModel;
use crate::symex::Property;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A bit pattern of format `f`: often a special value, a small number or a neighbour of one.
fn pattern_of(rng: &mut Rng, f: Format) -> u128 {
    let special = [
        0u128,
        f.sign_mask(),
        f.infinity(),
        f.infinity() | f.sign_mask(),
        1,
        f.default_nan(),
        bits_of(f, 1.0),
        bits_of(f, -1.0),
        bits_of(f, 0.1),
        bits_of(f, 3.0),
        f.infinity() - 1,
    ];
    match rng.below(4) {
        0 => special[rng.below(special.len() as u64) as usize],
        1 => bits_of(f, (rng.below(2001) as f64 - 1000.0) / 8.0),
        2 => {
            // Near 1.0 in magnitude: products and quotients stay finite.
            let base = bits_of(f, 1.0) as i128 + (rng.below(1 << 24) as i128 - (1 << 23));
            let sign = if rng.below(2) == 0 { 0 } else { f.sign_mask() };
            base as u128 | sign
        }
        _ => u128::from(rng.next()) & ((1u128 << f.bits()) - 1),
    }
}

/// An interval of format `f` and some of its values (its bounds, values between them, a NaN if it
/// holds one).
fn interval(rng: &mut Rng, f: Format) -> (FItv, Vec<u128>) {
    let (a, b) = (pattern_of(rng, f), pattern_of(rng, f));
    let (x, y) = (FItv::point(f, a), FItv::point(f, b));
    let mut itv = x.join(y);
    if rng.below(5) == 0 {
        itv.nan = true;
    }
    let mut pts = Vec::new();
    if itv.nan {
        pts.push(f.default_nan());
    }
    if let Some((l, h)) = itv.range {
        pts.push(bits_of(f, l));
        pts.push(bits_of(f, h));
        let (ol, oh) = (ordinal(f, l), ordinal(f, h));
        for _ in 0..6 {
            let span = (oh - ol) as u128;
            let off = if span == 0 { 0 } else { (u128::from(rng.next()) << 64 | u128::from(rng.next())) % (span + 1) };
            pts.push(bits_of(f, from_ordinal(f, ol + off as i128)));
        }
    }
    (itv, pts)
}

/// Whether the value with bit pattern `v` lies in `itv`.
fn holds(f: Format, itv: FItv, v: u128) -> bool {
    if f.is_nan(v) {
        return itv.nan;
    }
    let x = float_of(f, v);
    itv.range.is_some_and(|(l, h)| l <= x && x <= h)
}

#[test]
fn floating_operations_contain_every_result_of_their_operands() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for f in [Format::Single, Format::Double] {
        for _ in 0..4000 {
            let (a, pa) = interval(&mut rng, f);
            let (b, pb) = interval(&mut rng, f);
            for op in [Arith::Add, Arith::Sub, Arith::Mul, Arith::Div] {
                let r = float_arith(f, op, a, b);
                for &x in &pa {
                    for &y in &pb {
                        let z = fp::arith(f, RM, op, x, y);
                        assert!(holds(f, r, z), "{op:?} {a:?} {b:?}: {x:#x} {y:#x} gives {z:#x} outside {r:?}");
                    }
                }
            }
            for op in [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::Eq, BinOp::Ne] {
                let t = float_compare(op, a, b);
                for &x in &pa {
                    for &y in &pb {
                        let c = match op {
                            BinOp::Lt => fp::compare(f, Compare::Lt, x, y),
                            BinOp::Le => fp::compare(f, Compare::Le, x, y),
                            BinOp::Gt => fp::compare(f, Compare::Lt, y, x),
                            BinOp::Ge => fp::compare(f, Compare::Le, y, x),
                            BinOp::Eq => fp::compare(f, Compare::Eq, x, y),
                            _ => !fp::compare(f, Compare::Eq, x, y),
                        };
                        assert!(t == Tri::Maybe || (t == Tri::True) == c, "{op:?} {a:?} {b:?} at {x:#x} {y:#x}");
                        // The narrowing keeps every value that can take the branch.
                        let n = if c { float_narrow(f, op, a, b) } else { float_narrow_false(f, op, a, b) };
                        assert!(n.is_some_and(|n| holds(f, n, x)), "{op:?} {c} {a:?} {b:?}: {x:#x} lost by {n:?}");
                    }
                }
            }
            let other = if f == Format::Single { Format::Double } else { Format::Single };
            let c = float_convert(f, other, a);
            for &x in &pa {
                assert!(holds(other, c, fp::convert(f, other, RM, x)), "{a:?} to {other:?} at {x:#x}");
            }
            let r = Repr { bits: 32, signed: true, is_bool: false, is_ptr: false };
            let out = float_to_int(f, a, r);
            for &x in &pa {
                match fp::to_int(f, x, 32, true) {
                    Some(v) => assert!(out.val.contains(from_pattern(v, r)) || out.ub, "{a:?} at {x:#x}"),
                    None => assert!(out.ub, "{a:?} to int at {x:#x} is undefined"),
                }
            }
        }
    }
}

#[test]
fn a_conversion_from_double_narrows_back_to_exactly_the_floats_it_holds() {
    let d = FItv { range: Some((0.1, 0.5)), nan: false };
    let pre = float_preimage(Format::Double, Format::Single, d).expect("floats between");
    let (l, h) = pre.range.expect("a range");
    assert!(l >= 0.1 && f64::from(next_down(Format::Single, l) as f32) < 0.1);
    assert!(h == 0.5);
    let none = FItv { range: Some((0.1, 0.1)), nan: false };
    assert_eq!(float_preimage(Format::Double, Format::Single, none), None, "0.1 is no float");
}

#[test]
fn integer_operations_contain_every_result_of_their_operands() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for r in [
        Repr { bits: 32, signed: true, is_bool: false, is_ptr: false },
        Repr { bits: 8, signed: false, is_bool: false, is_ptr: false },
        Repr { bits: 16, signed: true, is_bool: false, is_ptr: false },
    ] {
        let full = type_range(r);
        let pick = |rng: &mut Rng| -> i128 {
            match rng.below(3) {
                0 => [full.lo, full.hi, 0, 1, -1, 2].map(|v| v.clamp(full.lo, full.hi))[rng.below(6) as usize],
                1 => (rng.below(41) as i128 - 20).clamp(full.lo, full.hi),
                _ => from_pattern(u128::from(rng.next()), r),
            }
        };
        for _ in 0..20_000 {
            let (a1, a2, b1, b2) = (pick(&mut rng), pick(&mut rng), pick(&mut rng), pick(&mut rng));
            let a = IItv { lo: a1.min(a2), hi: a1.max(a2) };
            let b = IItv { lo: b1.min(b2), hi: b1.max(b2) };
            let (x, y) = (pick(&mut rng).clamp(a.lo, a.hi), pick(&mut rng).clamp(b.lo, b.hi));
            for op in [
                BinOp::Add,
                BinOp::Sub,
                BinOp::Mul,
                BinOp::Div,
                BinOp::Rem,
                BinOp::Shl,
                BinOp::Shr,
                BinOp::BitAnd,
                BinOp::BitOr,
                BinOp::BitXor,
                BinOp::Lt,
                BinOp::Eq,
            ] {
                let out = int_binary(op, a, b, r);
                let w = |v: i128| from_pattern(pattern(v, r.bits), r);
                let concrete = match op {
                    BinOp::Add => Some(w(x + y)),
                    BinOp::Sub => Some(w(x - y)),
                    BinOp::Mul => Some(w(x.wrapping_mul(y))),
                    BinOp::Div | BinOp::Rem if y == 0 => None,
                    BinOp::Div | BinOp::Rem if r.signed && x == full.lo && y == -1 => None,
                    BinOp::Div => Some(x / y),
                    BinOp::Rem => Some(x % y),
                    BinOp::Shl | BinOp::Shr if !(0..i128::from(r.bits)).contains(&y) => None,
                    BinOp::Shl => Some(w(x << y)),
                    BinOp::Shr => Some(x >> y),
                    BinOp::BitAnd => Some(w(x & y)),
                    BinOp::BitOr => Some(w(x | y)),
                    BinOp::BitXor => Some(w(x ^ y)),
                    BinOp::Lt => Some(i128::from(x < y)),
                    _ => Some(i128::from(x == y)),
                };
                match concrete {
                    Some(v) => assert!(
                        out.val.contains(v) || out.ub,
                        "{op:?} {a:?} {b:?} {r:?}: {x} {y} gives {v}, not in {:?}",
                        out.val
                    ),
                    None => assert!(out.ub, "{op:?} {a:?} {b:?}: {x} {y} is undefined"),
                }
            }
            for op in [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::Eq, BinOp::Ne] {
                let c = match op {
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    BinOp::Ge => x >= y,
                    BinOp::Eq => x == y,
                    _ => x != y,
                };
                let n = int_narrow(if c { op } else { negate(op) }, a, b);
                assert!(n.is_some_and(|n| n.contains(x)), "{op:?} {c} {a:?} {b:?}: {x} lost");
            }
        }
    }
}

fn compile(src: &str) -> (Program, Cfa) {
    let file = crate::base::SourceFile::new("t.c", src.to_string());
    let (mut prog, _) = crate::cfront::parse_program(file, DataModel::Ilp32).expect("parses");
    let (cfa, _) = crate::cfa::build(&mut prog, &CfaConfig::default()).expect("builds");
    (prog, cfa)
}

/// What the engine establishes on `src`: `proven`, `counterexample` (checked to replay) or
/// `unknown: why`.
fn outcome(src: &str) -> String {
    let (prog, cfa) = compile(src);
    let ts = Ts::build(&prog, &cfa, Property::UnreachCall).expect("a transition system");
    match prove(&ts, Limits::default(), &Budget::default()) {
        Outcome::Proven { .. } => "proven".into(),
        Outcome::Counterexample { inputs, .. } => {
            let run = symex::interpret(&prog, &cfa, Property::UnreachCall, &inputs, 1_000_000);
            assert_eq!(run.end, ConcreteEnd::Violation, "the counterexample replays");
            "counterexample".into()
        }
        Outcome::Unknown(why) => format!("unknown: {why}"),
    }
}

/// A polynomial of a float input in a range, and a bound on it.
fn polynomial(bound: &str) -> String {
    format!(
        "extern void abort(void);\nvoid reach_error(void);\nextern float __VERIFIER_nondet_float(void);\n\
         int main(void) {{\n  float x = __VERIFIER_nondet_float();\n  if (!(x >= -2.0f && x <= 2.0f)) abort();\n\
         float y = 1.0f + x * x / 2.0f - x * x * x * x / 24.0f;\n  if (!(y {bound})) reach_error();\n  return 0;\n}}\n"
    )
}

#[test]
fn a_bound_on_a_polynomial_is_proven_where_it_holds_and_refuted_where_it_does_not() {
    // On [-2, 2] the polynomial's greatest value is 2.5 (at x² = 6 it would be, but x² <= 4 gives
    // 1 + 2 - 16/24 = 2.333...), its least 1.
    assert_eq!(outcome(&polynomial("<= 2.34f && y >= 1.0f")), "proven");
    assert_eq!(outcome(&polynomial("< 2.33f")), "counterexample");
    assert_eq!(outcome(&polynomial("> 1.0f")), "counterexample", "x = 0 gives exactly 1");
}

#[test]
fn a_nan_or_an_infinity_from_the_input_is_not_forgotten() {
    // Without the range check every float is possible, NaN included: `y > 0` fails for a NaN.
    let src = "void reach_error(void);\nextern float __VERIFIER_nondet_float(void);\n\
               int main(void) {\n  float x = __VERIFIER_nondet_float();\n  float y = x * x + 1.0f;\n\
               if (!(y > 0.0f)) reach_error();\n  return 0;\n}\n";
    assert_eq!(outcome(src), "counterexample");
    let src = src.replace("float y = x * x", "if (x != x || x > 1e30f || x < -1e30f) return 0;\n  float y = x * x");
    assert_eq!(outcome(&src), "proven");
}

#[test]
fn loops_that_the_intervals_do_not_bound_give_up() {
    let src = "void reach_error(void);\nextern double __VERIFIER_nondet_double(void);\n\
               int main(void) {\n  double x = __VERIFIER_nondet_double();\n  while (x > 1.0) x = x / 2.0;\n\
               if (x > 1.0) reach_error();\n  return 0;\n}\n";
    assert!(outcome(src).starts_with("unknown"), "{}", outcome(src));
    let counted = "void reach_error(void);\nextern float __VERIFIER_nondet_float(void);\n\
                   int main(void) {\n  float x = __VERIFIER_nondet_float();\n  if (!(x >= 0.0f && x <= 1.0f)) return 0;\n\
                   for (int i = 0; i < 10; i++) x = x * 0.5f + 0.25f;\n  if (!(x >= 0.0f && x <= 1.0f)) reach_error();\n  return 0;\n}\n";
    assert_eq!(outcome(counted), "proven");
}

#[test]
fn unsupported_programs_are_refused() {
    let src = "void reach_error(void);\nextern float __VERIFIER_nondet_float(void);\n\
               int main(void) {\n  float a[2];\n  a[0] = __VERIFIER_nondet_float();\n\
               if (a[0] > 1.0f) reach_error();\n  return 0;\n}\n";
    assert!(outcome(src).starts_with("unknown: intervals: unsupported: "), "{}", outcome(src));
    let int_division = "void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nextern float __VERIFIER_nondet_float(void);\n\
                        int main(void) {\n  int n = __VERIFIER_nondet_int();\n  float x = __VERIFIER_nondet_float();\n\
                        if (!(n >= -3 && n <= 3)) return 0;\n  int q = 12 / n;\n  if (x > 1.0f) return q;\n  return 0;\n}\n";
    // A division by zero is possible (n = 0): never proven, whatever the splitting.
    assert!(!outcome(int_division).starts_with("proven"), "{}", outcome(int_division));
}

/// A random expression over the float `x`.
enum E {
    X,
    C(f32),
    Add(Box<E>, Box<E>),
    Sub(Box<E>, Box<E>),
    Mul(Box<E>, Box<E>),
    /// `a / (b * b + 1)`, whose divisor is never zero.
    Div(Box<E>, Box<E>),
}

impl E {
    fn random(rng: &mut Rng, depth: u32) -> E {
        if depth == 0 || rng.below(4) == 0 {
            return match rng.below(3) {
                0 => E::X,
                _ => E::C((rng.below(4001) as f32 - 2000.0) / 1000.0),
            };
        }
        let a = Box::new(E::random(rng, depth - 1));
        let b = Box::new(E::random(rng, depth - 1));
        match rng.below(5) {
            0 => E::Add(a, b),
            1 => E::Sub(a, b),
            2 | 3 => E::Mul(a, b),
            _ => E::Div(a, b),
        }
    }

    /// In C.
    fn c(&self) -> String {
        match self {
            E::X => "x".into(),
            E::C(v) => format!("{v:e}f"),
            E::Add(a, b) => format!("({} + {})", a.c(), b.c()),
            E::Sub(a, b) => format!("({} - {})", a.c(), b.c()),
            E::Mul(a, b) => format!("({} * {})", a.c(), b.c()),
            E::Div(a, b) => format!("({} / ({} * {} + 1.0f))", a.c(), b.c(), b.c()),
        }
    }

    /// The value at `x` by the host's binary32 arithmetic (every operation rounded to nearest, as
    /// C's `float` on SSE): for choosing bounds only.
    fn at(&self, x: f32) -> f32 {
        match self {
            E::X => x,
            E::C(v) => *v,
            E::Add(a, b) => a.at(x) + b.at(x),
            E::Sub(a, b) => a.at(x) - b.at(x),
            E::Mul(a, b) => a.at(x) * b.at(x),
            E::Div(a, b) => {
                let d = b.at(x);
                a.at(x) / (d * d + 1.0)
            }
        }
    }
}

/// The program `y = e(x)` for `x` in `[lo, hi]` (an input, or the constant `at`) that fails when
/// `y` breaks `bound`.
fn program(e: &str, lo: f32, hi: f32, bound: &str, at: Option<f32>) -> String {
    let x = match at {
        Some(v) => format!("{v:e}f"),
        None => "__VERIFIER_nondet_float()".into(),
    };
    format!(
        "extern void abort(void);\nvoid reach_error(void);\nextern float __VERIFIER_nondet_float(void);\n\
         int main(void) {{\n  float x = {x};\n  if (!(x >= {lo:e}f && x <= {hi:e}f)) abort();\n\
         float y = {e};\n  if (!(y {bound})) reach_error();\n  return 0;\n}}\n"
    )
}

/// Random programs `y = e(x)` for `x` in a random range, with a bound `y <= c` where `c` is the
/// greatest value on a few inputs: the engine must not prove a bound that an input of the range
/// breaks (checked by the concrete interpreter on many more inputs, each a program of its own with
/// `x` a constant), and a counterexample it gives must replay (checked by `outcome`).
#[test]
fn on_random_programs_no_bound_is_proven_that_an_input_breaks() {
    let mut rng = Rng(0x6a09_e667_f3bc_c909);
    let (mut proven, mut refuted) = (0, 0);
    for round in 0..80 {
        let e = E::random(&mut rng, 3);
        let lo = (rng.below(400) as f32 - 200.0) / 100.0;
        let hi = lo + (1 + rng.below(300)) as f32 / 100.0;
        let best = (0..=8).map(|i| e.at(lo + (hi - lo) * i as f32 / 8.0)).fold(f32::NEG_INFINITY, f32::max);
        if !best.is_finite() {
            continue;
        }
        // Every other round the bound is broken at one of the inputs tried: no proof may come.
        let broken = round % 2 == 1;
        let bound = if broken { format!("< {best:e}f") } else { format!("<= {best:e}f") };
        let got = outcome(&program(&e.c(), lo, hi, &bound, None));
        assert!(
            !(broken && got == "proven"),
            "{} on [{lo}, {hi}] {bound} is proven, but breaks at an input tried",
            e.c()
        );
        match got.as_str() {
            "proven" => {
                proven += 1;
                for i in 0..=200 {
                    let x = lo + (hi - lo) * i as f32 / 200.0;
                    let (prog, cfa) = compile(&program(&e.c(), lo, hi, &bound, Some(x)));
                    let run = symex::interpret(&prog, &cfa, Property::UnreachCall, &[], 1_000_000);
                    assert_ne!(run.end, ConcreteEnd::Violation, "{} on [{lo}, {hi}] {bound}: x = {x} breaks it", e.c());
                }
            }
            "counterexample" => refuted += 1,
            _ => {}
        }
    }
    assert!(
        proven >= 10 && refuted >= 20,
        "the random programs exercise both answers: {proven} proven, {refuted} refuted"
    );
}
