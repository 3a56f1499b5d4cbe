//! `base::fp` against the host's SSE arithmetic (round to nearest), and the other modes against
//! their definitions.

use super::*;
use proptest::prelude::*;

/// Bit patterns biased toward the values where IEEE arithmetic has its corner cases.
fn single() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        prop::sample::select(vec![
            0,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xffc0_0000,
            0x7f80_0001,
            0x7fa0_0000,
            0x4b00_0000,
            0x3f00_0000,
        ]),
        (any::<bool>(), 100u32..160, any::<u32>())
            .prop_map(|(s, e, f)| ((s as u32) << 31) | (e << 23) | (f & 0x7f_ffff)),
    ]
}

fn double() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        prop::sample::select(vec![
            0,
            0x8000_0000_0000_0000,
            1,
            0x000f_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0x7fef_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
            0x7ff0_0000_0000_0001,
            0x4330_0000_0000_0000,
        ]),
        (any::<bool>(), 990u64..1060, any::<u64>())
            .prop_map(|(s, e, f)| ((s as u64) << 63) | (e << 52) | (f & 0xf_ffff_ffff_ffff)),
    ]
}

const NE: Rounding = Rounding::NearestEven;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn single_arithmetic_is_the_hosts(a in single(), b in single()) {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        let f = Format::Single;
        prop_assert_eq!(arith(f, NE, Arith::Add, a as u128, b as u128), (x + y).to_bits() as u128);
        prop_assert_eq!(arith(f, NE, Arith::Sub, a as u128, b as u128), (x - y).to_bits() as u128);
        prop_assert_eq!(arith(f, NE, Arith::Mul, a as u128, b as u128), (x * y).to_bits() as u128);
        prop_assert_eq!(arith(f, NE, Arith::Div, a as u128, b as u128), (x / y).to_bits() as u128);
        prop_assert_eq!(compare(f, Compare::Eq, a as u128, b as u128), x == y);
        prop_assert_eq!(compare(f, Compare::Lt, a as u128, b as u128), x < y);
        prop_assert_eq!(compare(f, Compare::Le, a as u128, b as u128), x <= y);
        prop_assert_eq!(sqrt(f, NE, a as u128), x.sqrt().to_bits() as u128);
        prop_assert_eq!(convert(f, Format::Double, NE, a as u128), (x as f64).to_bits() as u128);
        prop_assert_eq!(parse(f, &hex_literal(f, a as u128)).filter(|_| !x.is_nan()).unwrap_or(a as u128) & !f.sign_mask(),
            a as u128 & !f.sign_mask());
    }

    #[test]
    fn double_arithmetic_is_the_hosts(a in double(), b in double()) {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let f = Format::Double;
        prop_assert_eq!(arith(f, NE, Arith::Add, a as u128, b as u128), (x + y).to_bits() as u128);
        prop_assert_eq!(arith(f, NE, Arith::Sub, a as u128, b as u128), (x - y).to_bits() as u128);
        prop_assert_eq!(arith(f, NE, Arith::Mul, a as u128, b as u128), (x * y).to_bits() as u128);
        prop_assert_eq!(arith(f, NE, Arith::Div, a as u128, b as u128), (x / y).to_bits() as u128);
        prop_assert_eq!(compare(f, Compare::Lt, a as u128, b as u128), x < y);
        prop_assert_eq!(sqrt(f, NE, a as u128), x.sqrt().to_bits() as u128);
        prop_assert_eq!(convert(f, Format::Single, NE, a as u128), (x as f32).to_bits() as u128);
        // glibc's floor and ceil quiet a signalling NaN (`roundsd`, or `x + x`); Rust's may not.
        let host = |r: f64| if r.is_nan() { f.quiet(r.to_bits() as u128) } else { r.to_bits() as u128 };
        prop_assert_eq!(round_to_integral(f, Rounding::Down, a as u128), host(x.floor()));
        prop_assert_eq!(round_to_integral(f, Rounding::Up, a as u128), host(x.ceil()));
        prop_assert_eq!(round_to_integral(f, Rounding::TowardZero, a as u128), host(x.trunc()));
        prop_assert_eq!(round_to_integral(f, Rounding::NearestAway, a as u128), host(x.round()));
    }

    #[test]
    fn fma_and_remainders_are_libms(a in double(), b in double(), c in double()) {
        let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        let f = Format::Double;
        let want = x.mul_add(y, z);
        let got = fma(f, NE, a as u128, b as u128, c as u128);
        // libm may pick another NaN operand than SSE's rule; the value must still be a NaN then.
        if want.is_nan() { prop_assert!(f.is_nan(got)); } else { prop_assert_eq!(got, want.to_bits() as u128); }
        let r = fmod(f, a as u128, b as u128);
        let w = x % y;
        if w.is_nan() { prop_assert!(f.is_nan(r)); } else { prop_assert_eq!(r, w.to_bits() as u128); }
    }

    #[test]
    fn conversions_to_and_from_integers_are_cs(a in double(), i in any::<i64>(), u in any::<u32>()) {
        let f = Format::Double;
        let x = f64::from_bits(a);
        let fits = !x.is_nan() && x.trunc() >= -2147483648.0 && x.trunc() <= 2147483647.0;
        prop_assert_eq!(to_int(f, a as u128, 32, true), fits.then_some((x as i32) as u32 as u128));
        let fits = !x.is_nan() && x.trunc() >= 0.0 && x.trunc() <= 4294967295.0;
        prop_assert_eq!(to_int(f, a as u128, 32, false), fits.then_some((x as u32) as u128));
        prop_assert_eq!(from_int(f, NE, i as u64 as u128, 64, true), (i as f64).to_bits() as u128);
        prop_assert_eq!(from_int(Format::Single, NE, i as u64 as u128, 64, true), (i as f32).to_bits() as u128);
        prop_assert_eq!(from_int(Format::Single, NE, u as u128, 32, false), (u as f32).to_bits() as u128);
    }

    #[test]
    fn directed_rounding_brackets_the_exact_result(a in double(), b in double()) {
        // Down ≤ nearest ≤ Up, TowardZero is one of Down/Up, and Up is Down or its successor.
        let f = Format::Double;
        for op in [Arith::Add, Arith::Mul, Arith::Div] {
            let d = f64::from_bits(arith(f, Rounding::Down, op, a as u128, b as u128) as u64);
            let n = f64::from_bits(arith(f, NE, op, a as u128, b as u128) as u64);
            let u = f64::from_bits(arith(f, Rounding::Up, op, a as u128, b as u128) as u64);
            let z = f64::from_bits(arith(f, Rounding::TowardZero, op, a as u128, b as u128) as u64);
            if n.is_nan() { prop_assert!(d.is_nan() && u.is_nan()); continue; }
            prop_assert!(d <= n && n <= u, "{:?}: {} {} {}", op, d, n, u);
            prop_assert!(z == d || z == u);
            prop_assert!(d == u || u == d.next_up() || d.is_infinite() || u.is_infinite());
        }
        let (d, u) = (sqrt(f, Rounding::Down, a as u128), sqrt(f, Rounding::Up, a as u128));
        let (d, u) = (f64::from_bits(d as u64), f64::from_bits(u as u64));
        if !d.is_nan() {
            prop_assert!(d == u || u == d.next_up());
            prop_assert!(d * d <= f64::from_bits(a) || (d * d).is_infinite());
        }
    }
}

#[test]
fn the_default_nan_and_the_propagated_nan_are_sses() {
    let f = Format::Single;
    assert_eq!(arith(f, NE, Arith::Div, 0, 0), 0xffc0_0000);
    assert_eq!(arith(f, NE, Arith::Add, 0x7fa0_0001, 0xffc0_0002), 0x7fe0_0001);
    assert_eq!(arith(f, NE, Arith::Add, 0x3f80_0000, 0xffa0_0002), 0xffe0_0002);
    assert_eq!(sqrt(f, NE, 0xbf80_0000), 0xffc0_0000);
    assert_eq!(sqrt(f, NE, 0x8000_0000), 0x8000_0000);
    assert_eq!(convert(f, Format::Double, NE, 0x7fa0_0001), 0x7ffc_0000_2000_0000);
}

#[test]
fn literals_are_written_and_read_exactly() {
    let f = Format::Single;
    assert_eq!(hex_literal(f, 0x3fc0_0000), "0x1.8p+0");
    assert_eq!(hex_literal(f, 0x0000_0001), "0x0.000002p-126");
    assert_eq!(hex_literal(f, 0x8000_0000), "-0x0p+0");
    assert_eq!(hex_literal(Format::Double, 0x3fb9_9999_9999_999a), "0x1.999999999999ap-4");
    assert_eq!(parse(f, "0.1"), Some(0.1f32.to_bits() as u128));
    assert_eq!(parse(Format::Double, "0x1.8p1"), Some(3.0f64.to_bits() as u128));
    assert_eq!(parse(f, "0x0.000002p-126"), Some(1));
    // Rounded once, to float, not through double.
    assert_eq!(parse(f, "1.00000005960464477539062500001"), Some(0x3f80_0001));
    assert_eq!(Rounding::from_fe(0xc00), Some(Rounding::TowardZero));
}
