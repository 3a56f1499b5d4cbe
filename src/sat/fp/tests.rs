//! The circuits against `base::fp`: each is built once over fresh inputs and evaluated, 64 input
//! assignments at a time, on corner values, values close to each other and random bit patterns, in
//! every rounding mode; constants fold to `base::fp`'s values; and two queries go through the SAT
//! solver, with models checked against all clauses (`CheckedBackend`).

use super::unpack::{bias, precision};
use super::*;
use crate::base::bits::mask;
use crate::sat::test_util::CheckedBackend;
use crate::sat::{AigInput, AigNode, Encoder, SatBackend, SatResult};

const MODES: [Rounding; 5] =
    [Rounding::NearestEven, Rounding::Up, Rounding::Down, Rounding::TowardZero, Rounding::NearestAway];
const FORMATS: [Format; 2] = [Format::Single, Format::Double];

/// A seeded xorshift64* generator, so that every run checks the same values.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn wide(&mut self) -> u128 {
        (self.next() as u128) << 64 | self.next() as u128
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// Interesting encodings of `format`: zeros, the extremes of the subnormals and normals, one, the
/// greatest value, infinities, quiet and signalling NaNs with payloads, and values next to ties.
fn corners(format: Format) -> Vec<u128> {
    let fb = format.fraction_bits();
    let one = (bias(format) as u128) << fb;
    let least_normal = 1 << fb;
    let frac = format.fraction_mask();
    let exp = |e: i64| ((e + bias(format)) as u128) << fb;
    let magnitudes = [
        0,
        1,
        2,
        3,
        frac,
        frac - 1,
        least_normal,
        least_normal + 1,
        one,
        one + 1,
        one - 1,
        one | format.quiet_bit(),
        exp(-1),
        exp(-1) + 1,
        exp(1) | format.quiet_bit(),
        exp(precision(format) as i64 - 1),
        exp(precision(format) as i64 - 2) | 1,
        exp(precision(format) as i64) - 1,
        format.infinity() - 1,
        format.infinity(),
        format.infinity() | format.quiet_bit(),
        format.infinity() | 1,
        format.infinity() | format.quiet_bit() | 0x15,
        format.infinity() | frac,
    ];
    magnitudes.iter().flat_map(|&m| [m, m | format.sign_mask()]).collect()
}

/// A random encoding: a corner, uniform bits, or a sign, an exponent near an interesting one and a
/// fraction with many, few or trailing zero bits.
fn value(rng: &mut Rng, format: Format) -> u128 {
    let (fb, eb) = (format.fraction_bits(), format.exponent_bits());
    let max_field = (1u64 << eb) - 1;
    match rng.below(8) {
        0 => rng.pick(&corners(format)),
        1 | 2 => rng.wide() & mask(format.bits()),
        _ => {
            let anywhere = rng.below(max_field + 1);
            let centre = rng.pick(&[0, 1, bias(format) as u64, max_field - 1, anywhere]);
            let field = (centre + rng.below(2 * fb as u64 + 8)).saturating_sub(fb as u64 + 4).min(max_field);
            let frac = match rng.below(4) {
                0 => rng.wide(),
                1 => rng.wide() & rng.wide() & rng.wide(),
                2 => rng.wide() << rng.below(fb as u64 + 1),
                _ => !(rng.wide() & rng.wide()),
            } & format.fraction_mask();
            (rng.below(2) as u128) << (format.bits() - 1) | (field as u128) << fb | frac
        }
    }
}

/// A value close to `a`: a few units of the last place away, negated, its exponent moved a
/// little, or an independent one.
fn near(rng: &mut Rng, format: Format, a: u128) -> u128 {
    let m = mask(format.bits());
    let fb = format.fraction_bits();
    let ulps = rng.below(5) as u128;
    match rng.below(6) {
        0 => a.wrapping_add(ulps) & m,
        1 => a.wrapping_sub(ulps) & m,
        2 => (a ^ format.sign_mask()).wrapping_add(ulps) & m,
        3 => {
            let shift = (rng.below(2 * fb as u64 + 10) as u128) << fb;
            let moved = if rng.below(2) == 0 { a.wrapping_add(shift) } else { a.wrapping_sub(shift) };
            (moved ^ rng.below(16) as u128) & m
        }
        _ => value(rng, format),
    }
}

/// Rows of `arity` operands: every combination of the first `n_corners` corner values, then
/// `n_random` random rows whose later operands are often close to earlier ones.
fn cases(format: Format, arity: usize, n_corners: usize, n_random: usize, seed: u64) -> Vec<Vec<u128>> {
    let corners = corners(format);
    let corners = &corners[..n_corners.min(corners.len())];
    let mut res: Vec<Vec<u128>> = vec![vec![]];
    for _ in 0..arity {
        res = res.iter().flat_map(|row| corners.iter().map(move |&c| [row.clone(), vec![c]].concat())).collect();
    }
    let mut rng = Rng(seed);
    for _ in 0..n_random {
        let mut row = vec![value(&mut rng, format)];
        while row.len() < arity {
            let earlier = rng.pick(&row);
            row.push(near(&mut rng, format, earlier));
        }
        res.push(row);
    }
    res
}

/// The values of `outputs` under each row of `rows` (the values of `inputs`, in order), 64 rows
/// per walk over the nodes: bit `l` of a node's word is its value under row `l` of the batch.
fn simulate(aig: &Aig, inputs: &[Bv], outputs: &[Bv], rows: &[Vec<u128>]) -> Vec<Vec<u128>> {
    let mut res = Vec::with_capacity(rows.len());
    let mut words = vec![0u64; aig.n_nodes()];
    let word = |words: &[u64], lit: AigLit| words[lit.node_idx()] ^ if lit.is_complemented() { !0 } else { 0 };
    for batch in rows.chunks(64) {
        for (idx, input) in inputs.iter().enumerate() {
            for (bit_idx, bit) in input.bits().iter().enumerate() {
                let lanes = batch.iter().enumerate().map(|(l, row)| ((row[idx] >> bit_idx & 1) as u64) << l);
                words[bit.node_idx()] = lanes.fold(0, |acc, w| acc | w);
            }
        }
        for idx in 1..words.len() {
            if let AigNode::And(l, r) = aig.node(AigLit::from_raw((idx as u32) << 1)) {
                words[idx] = word(&words, l) & word(&words, r);
            }
        }
        for lane in 0..batch.len() {
            let value = |bv: &Bv| {
                bv.bits()
                    .iter()
                    .enumerate()
                    .fold(0u128, |acc, (i, &b)| acc | ((word(&words, b) >> lane & 1) as u128) << i)
            };
            res.push(outputs.iter().map(value).collect());
        }
    }
    res
}

/// A circuit's outputs over the inputs in a rounding mode.
type Build<'a> = &'a dyn Fn(&mut Aig, Rounding, &[Bv]) -> Vec<Bv>;

/// The expected outputs on a row of input values in a rounding mode.
type Expect<'a> = &'a dyn Fn(Rounding, &[u128]) -> Vec<u128>;

/// Builds `build` once per mode of `modes` over fresh inputs (`widths`), evaluates it on every row
/// of `rows` and compares each output with `expect`; returns the number of comparisons.
fn check(name: &str, widths: &[u32], modes: &[Rounding], rows: &[Vec<u128>], build: Build, expect: Expect) -> usize {
    let mut aig = Aig::default();
    let inputs: Vec<Bv> = widths.iter().map(|&w| Bv::input(&mut aig, w)).collect();
    let per_mode: Vec<Vec<Bv>> = modes.iter().map(|&rm| build(&mut aig, rm, &inputs)).collect();
    let outputs: Vec<Bv> = per_mode.concat();
    let got = simulate(&aig, &inputs, &outputs, rows);
    for (row, got) in rows.iter().zip(&got) {
        for (mode_idx, &rm) in modes.iter().enumerate() {
            let n = per_mode[mode_idx].len();
            let got = &got[mode_idx * n..(mode_idx + 1) * n];
            let want = expect(rm, row);
            assert_eq!(got, &want[..], "{name} {rm:?} on {row:#x?}: got {got:#x?}, want {want:#x?}");
        }
    }
    rows.len() * modes.len()
}

fn check_arith(format: Format, op: Arith) -> usize {
    let rows = cases(format, 2, 48, 50_000, 0x5eed ^ op as u64 ^ format.bits() as u64);
    let build = |aig: &mut Aig, rm, x: &[Bv]| vec![arith(aig, format, rm, op, &x[0], &x[1])];
    let expect = |rm, v: &[u128]| vec![concrete::arith(format, rm, op, v[0], v[1])];
    check(&format!("{format:?} {op:?}"), &[format.bits(); 2], &MODES, &rows, &build, &expect)
}

#[test]
fn add_agrees_with_base() {
    for format in FORMATS {
        check_arith(format, Arith::Add);
    }
}

#[test]
fn sub_agrees_with_base() {
    for format in FORMATS {
        check_arith(format, Arith::Sub);
    }
}

#[test]
fn mul_agrees_with_base() {
    for format in FORMATS {
        check_arith(format, Arith::Mul);
    }
}

#[test]
fn div_agrees_with_base() {
    for format in FORMATS {
        check_arith(format, Arith::Div);
    }
}

#[test]
fn fma_agrees_with_base() {
    for format in FORMATS {
        let mut rows = cases(format, 3, 24, 40_000, 0xf4a ^ format.bits() as u64);
        // Addends that cancel the product, or nearly: -(a * b) rounded, a few units away.
        let mut rng = Rng(0xca9ce1 ^ format.bits() as u64);
        for _ in 0..40_000 {
            let (a, b) = (value(&mut rng, format), value(&mut rng, format));
            let prod = concrete::arith(format, rng.pick(&MODES), Arith::Mul, a, b) ^ format.sign_mask();
            rows.push(vec![a, b, near(&mut rng, format, prod)]);
        }
        let build = |aig: &mut Aig, rm, x: &[Bv]| vec![fma(aig, format, rm, &x[0], &x[1], &x[2])];
        let expect = |rm, v: &[u128]| vec![concrete::fma(format, rm, v[0], v[1], v[2])];
        check(&format!("{format:?} fma"), &[format.bits(); 3], &MODES, &rows, &build, &expect);
    }
}

#[test]
fn sqrt_agrees_with_base() {
    for format in FORMATS {
        let rows = cases(format, 1, 48, 40_000, 0x5747 ^ format.bits() as u64);
        let build = |aig: &mut Aig, rm, x: &[Bv]| vec![sqrt(aig, format, rm, &x[0])];
        let expect = |rm, v: &[u128]| vec![concrete::sqrt(format, rm, v[0])];
        check(&format!("{format:?} sqrt"), &[format.bits()], &MODES, &rows, &build, &expect);
    }
}

#[test]
fn compare_and_classify_agree_with_base() {
    for format in FORMATS {
        let rows = cases(format, 2, 48, 20_000, 0xc0 ^ format.bits() as u64);
        let ops = [Compare::Eq, Compare::Lt, Compare::Le];
        let build = |aig: &mut Aig, _rm, x: &[Bv]| {
            let mut res: Vec<Bv> =
                ops.iter().map(|&op| Bv::from_bool(compare(aig, format, op, &x[0], &x[1]))).collect();
            let classes = [is_nan(aig, format, &x[0]), is_infinite(aig, format, &x[0]), is_zero(aig, format, &x[0])];
            res.extend(classes.into_iter().chain([is_subnormal(aig, format, &x[0])]).map(Bv::from_bool));
            res
        };
        let expect = |_rm, v: &[u128]| {
            let mut res: Vec<u128> = ops.iter().map(|&op| concrete::compare(format, op, v[0], v[1]) as u128).collect();
            let classes =
                [format.is_nan(v[0]), format.is_infinite(v[0]), format.is_zero(v[0]), format.is_subnormal(v[0])];
            res.extend(classes.map(|c| c as u128));
            res
        };
        check(&format!("{format:?} compare"), &[format.bits(); 2], &MODES[..1], &rows, &build, &expect);
    }
}

#[test]
fn convert_agrees_with_base() {
    for (from, to) in
        [(Format::Single, Format::Double), (Format::Double, Format::Single), (Format::Double, Format::Double)]
    {
        let mut rows = cases(from, 1, 48, 20_000, 0xc0de ^ from.bits() as u64);
        // Doubles around the single range: its least subnormal, least normal and greatest value.
        let mut rng = Rng(0xed9e);
        for e in [-151i64, -150, -149, -127, -126, -125, 127, 128] {
            for _ in 0..1000 {
                let field = ((e + bias(from)) as u128) << from.fraction_bits();
                let frac = rng.wide() >> rng.below(64) & from.fraction_mask();
                rows.push(vec![(rng.below(2) as u128) << (from.bits() - 1) | field | frac]);
            }
        }
        let build = |aig: &mut Aig, rm, x: &[Bv]| vec![convert(aig, from, to, rm, &x[0])];
        let expect = |rm, v: &[u128]| vec![concrete::convert(from, to, rm, v[0])];
        check(&format!("{from:?} to {to:?}"), &[from.bits()], &MODES, &rows, &build, &expect);
    }
}

#[test]
fn round_to_integral_agrees_with_base() {
    for format in FORMATS {
        let mut rows = cases(format, 1, 48, 20_000, 0x1e7 ^ format.bits() as u64);
        // Halves and their neighbours, from 0.5 up to where every value is integral.
        let mut rng = Rng(0x4a1f);
        for _ in 0..10_000 {
            let half =
                concrete::from_int(format, Rounding::NearestEven, rng.wide() << 1 | 1, rng.below(60) as u32 + 1, false);
            let scaled = half - (1 << format.fraction_bits());
            rows.push(vec![near(&mut rng, format, scaled)]);
        }
        let build = |aig: &mut Aig, rm, x: &[Bv]| vec![round_to_integral(aig, format, rm, &x[0])];
        let expect = |rm, v: &[u128]| vec![concrete::round_to_integral(format, rm, v[0])];
        check(&format!("{format:?} round_to_integral"), &[format.bits()], &MODES, &rows, &build, &expect);
    }
}

#[test]
fn from_int_agrees_with_base() {
    let mut rng = Rng(0x1f7);
    for format in FORMATS {
        for bits in [1, 2, 7, 8, 16, 24, 25, 31, 32, 53, 54, 63, 64, 65, 100, 127, 128] {
            for signed in [false, true] {
                let m = mask(bits);
                let mut rows: Vec<Vec<u128>> = [0, 1, 2, 3, m, m - 1, m >> 1, (m >> 1) + 1, (m >> 1).wrapping_sub(1)]
                    .iter()
                    .map(|&v| vec![v & m])
                    .collect();
                for _ in 0..2000 {
                    // Random bits, few bits, or a run of ones: exact, ties and carries.
                    let v = match rng.below(3) {
                        0 => rng.wide(),
                        1 => rng.wide() & rng.wide() & rng.wide(),
                        _ => (rng.wide() | rng.wide()) >> rng.below(128),
                    };
                    rows.push(vec![v & m]);
                }
                let build = |aig: &mut Aig, rm, x: &[Bv]| vec![from_int(aig, format, rm, &x[0], signed)];
                let expect = |rm, v: &[u128]| vec![concrete::from_int(format, rm, v[0], bits, signed)];
                check(&format!("{format:?} from_int {bits} {signed}"), &[bits], &MODES, &rows, &build, &expect);
            }
        }
    }
}

/// `base::fp::to_int` as outputs: the value (0 when it does not fit) and whether it does not fit.
fn to_int_outputs(v: Option<u128>) -> Vec<u128> {
    match v {
        Some(v) => vec![v, 0],
        None => vec![0, 1],
    }
}

#[test]
fn to_int_agrees_with_base() {
    let mut rng = Rng(0x7017);
    for format in FORMATS {
        for (bits, signed) in [1, 2, 7, 8, 16, 31, 32, 33, 53, 63, 64, 65, 127, 128]
            .into_iter()
            .flat_map(|bits| [(bits, false), (bits, true)])
        {
            let mut rows = cases(format, 1, 48, 4000, rng.next());
            // Values at the edges of the range: the integers next to 2^(bits-1) and 2^bits, and
            // their neighbours.
            for edge in [bits - 1, bits].map(|e| 1u128.checked_shl(e).unwrap_or(0).wrapping_sub(1)) {
                for rm in MODES {
                    let x = concrete::from_int(format, rm, edge, 128, false);
                    rows.push(vec![near(&mut rng, format, x)]);
                    rows.push(vec![x | format.sign_mask()]);
                    rows.push(vec![near(&mut rng, format, x | format.sign_mask())]);
                }
            }
            let build = |aig: &mut Aig, _rm, x: &[Bv]| {
                let (v, misfit) = to_int(aig, format, &x[0], bits, signed);
                vec![Bv::ite(aig, misfit, &Bv::zero(bits), &v), Bv::from_bool(misfit)]
            };
            let expect = |_rm, v: &[u128]| to_int_outputs(concrete::to_int(format, v[0], bits, signed));
            check(&format!("{format:?} to_int {bits} {signed}"), &[format.bits()], &MODES[..1], &rows, &build, &expect);
        }
    }
}

/// Every public function of the module over the inputs `x` (three values of `format`), its results
/// as vectors.
fn every_function(aig: &mut Aig, format: Format, rm: Rounding, x: &[Bv]) -> Vec<Bv> {
    let other = if format == Format::Single { Format::Double } else { Format::Single };
    let mut res: Vec<Bv> = [Arith::Add, Arith::Sub, Arith::Mul, Arith::Div]
        .iter()
        .map(|&op| arith(aig, format, rm, op, &x[0], &x[1]))
        .collect();
    res.push(fma(aig, format, rm, &x[0], &x[1], &x[2]));
    res.push(sqrt(aig, format, rm, &x[0]));
    res.push(convert(aig, format, other, rm, &x[0]));
    res.push(round_to_integral(aig, format, rm, &x[0]));
    res.push(from_int(aig, format, rm, &x[1], true));
    res.push(from_int(aig, format, rm, &x[2].extract(12, 0), false));
    let (v, misfit) = to_int(aig, format, &x[0], 32, true);
    res.push(Bv::ite(aig, misfit, &Bv::zero(32), &v));
    res.push(Bv::from_bool(misfit));
    let lits = [
        compare(aig, format, Compare::Eq, &x[0], &x[1]),
        compare(aig, format, Compare::Lt, &x[0], &x[1]),
        compare(aig, format, Compare::Le, &x[0], &x[1]),
        is_nan(aig, format, &x[0]),
        is_infinite(aig, format, &x[0]),
        is_zero(aig, format, &x[0]),
        is_subnormal(aig, format, &x[0]),
    ];
    res.extend(lits.map(Bv::from_bool));
    res
}

/// What `every_function` computes, by `base::fp`.
fn every_function_expected(format: Format, rm: Rounding, v: &[u128]) -> Vec<u128> {
    let other = if format == Format::Single { Format::Double } else { Format::Single };
    let mut res: Vec<u128> = [Arith::Add, Arith::Sub, Arith::Mul, Arith::Div]
        .iter()
        .map(|&op| concrete::arith(format, rm, op, v[0], v[1]))
        .collect();
    res.push(concrete::fma(format, rm, v[0], v[1], v[2]));
    res.push(concrete::sqrt(format, rm, v[0]));
    res.push(concrete::convert(format, other, rm, v[0]));
    res.push(concrete::round_to_integral(format, rm, v[0]));
    res.push(concrete::from_int(format, rm, v[1], format.bits(), true));
    res.push(concrete::from_int(format, rm, v[2] & 0x1fff, 13, false));
    res.extend(to_int_outputs(concrete::to_int(format, v[0], 32, true)));
    res.extend([
        concrete::compare(format, Compare::Eq, v[0], v[1]) as u128,
        concrete::compare(format, Compare::Lt, v[0], v[1]) as u128,
        concrete::compare(format, Compare::Le, v[0], v[1]) as u128,
        format.is_nan(v[0]) as u128,
        format.is_infinite(v[0]) as u128,
        format.is_zero(v[0]) as u128,
        format.is_subnormal(v[0]) as u128,
    ]);
    res
}

#[test]
fn constants_fold_to_base() {
    for format in FORMATS {
        for row in cases(format, 3, 12, 300, 0xc0c0 ^ format.bits() as u64) {
            for rm in MODES {
                let mut aig = Aig::default();
                let x: Vec<Bv> = row.iter().map(|&v| Bv::constant(v, format.bits())).collect();
                let got: Vec<Option<u128>> =
                    every_function(&mut aig, format, rm, &x).iter().map(Bv::as_const).collect();
                let want: Vec<Option<u128>> = every_function_expected(format, rm, &row).into_iter().map(Some).collect();
                assert_eq!(got, want, "{format:?} {rm:?} on {row:#x?}");
                assert_eq!(aig.n_ands(), 0, "constants made nodes");
            }
        }
    }
}

/// The simulator of these tests reads the circuits as `Bv::eval` does.
#[test]
fn simulation_agrees_with_eval() {
    for format in FORMATS {
        let rows = cases(format, 3, 4, 60, 0x5e ^ format.bits() as u64);
        let mut aig = Aig::default();
        let inputs: Vec<Bv> = (0..3).map(|_| Bv::input(&mut aig, format.bits())).collect();
        let outputs = every_function(&mut aig, format, Rounding::Down, &inputs);
        for (row, got) in rows.iter().zip(simulate(&aig, &inputs, &outputs, &rows)) {
            let value = |input: AigInput| {
                let (idx, bit) = (input.idx() / format.bits() as usize, input.idx() % format.bits() as usize);
                row[idx] >> bit & 1 == 1
            };
            let bits: Vec<AigLit> = outputs.iter().flat_map(|out| out.bits().iter().copied()).collect();
            let mut values = aig.eval_many(&bits, &value).into_iter();
            let evaluated: Vec<u128> = outputs
                .iter()
                .map(|out| (0..out.width()).fold(0, |acc, i| acc | (values.next().unwrap() as u128) << i))
                .collect();
            assert_eq!(got, evaluated, "{format:?} on {row:#x?}");
            assert_eq!(got, every_function_expected(format, Rounding::Down, row), "{format:?} on {row:#x?}");
        }
    }
}

/// Sat: a finite binary32 `x` with `x + 1 == x`; the model is checked against `base::fp`.
#[test]
fn solver_finds_an_absorbing_addend() {
    let format = Format::Single;
    let one = Bv::constant(0x3f80_0000, 32);
    let mut aig = Aig::default();
    let x = Bv::input(&mut aig, 32);
    let sum = arith(&mut aig, format, Rounding::NearestEven, Arith::Add, &x, &one);
    let same = sum.eq(&mut aig, &x);
    let nan = is_nan(&mut aig, format, &x);
    let inf = is_infinite(&mut aig, format, &x);
    let finite = aig.and(!nan, !inf);
    let goal = aig.and(same, finite);
    let (mut solver, mut enc) = (CheckedBackend::default(), Encoder::default());
    enc.assert(&aig, &mut solver, goal);
    assert_eq!(solver.solve(&[]), SatResult::Sat);
    let model = enc.bv_value(&aig, &solver, &x);
    assert!(!format.is_nan(model) && !format.is_infinite(model), "{model:#x}");
    assert_eq!(concrete::arith(format, Rounding::NearestEven, Arith::Add, model, 0x3f80_0000), model, "{model:#x}");
}

/// Unsat: no binary32 `x` but a NaN has `x * 1 != x` (bit for bit).
#[test]
fn solver_proves_one_is_neutral() {
    let format = Format::Single;
    let one = Bv::constant(0x3f80_0000, 32);
    let mut aig = Aig::default();
    let x = Bv::input(&mut aig, 32);
    let prod = arith(&mut aig, format, Rounding::NearestEven, Arith::Mul, &x, &one);
    let differs = prod.ne(&mut aig, &x);
    let nan = is_nan(&mut aig, format, &x);
    let goal = aig.and(differs, !nan);
    let (mut solver, mut enc) = (CheckedBackend::default(), Encoder::default());
    enc.assert(&aig, &mut solver, goal);
    assert_eq!(solver.solve(&[]), SatResult::Unsat);
}

/// The binary64 circuits stay within 5% of the sizes the module's documentation gives, in every
/// rounding mode.
#[test]
fn circuit_sizes() {
    let format = Format::Double;
    let size = |n_inputs: usize, f: &dyn Fn(&mut Aig, &[Bv]) -> Bv| {
        let mut aig = Aig::default();
        let x: Vec<Bv> = (0..n_inputs).map(|_| Bv::input(&mut aig, 64)).collect();
        f(&mut aig, &x);
        aig.n_ands()
    };
    for rm in MODES {
        let sizes = [
            ("add", 6512, size(2, &|aig, x| arith(aig, format, rm, Arith::Add, &x[0], &x[1]))),
            ("mul", 26499, size(2, &|aig, x| arith(aig, format, rm, Arith::Mul, &x[0], &x[1]))),
            ("div", 33778, size(2, &|aig, x| arith(aig, format, rm, Arith::Div, &x[0], &x[1]))),
            ("fma", 35018, size(3, &|aig, x| fma(aig, format, rm, &x[0], &x[1], &x[2]))),
            ("sqrt", 17738, size(1, &|aig, x| sqrt(aig, format, rm, &x[0]))),
            ("compare", 788, size(2, &|aig, x| Bv::from_bool(compare(aig, format, Compare::Le, &x[0], &x[1])))),
            ("convert", 1885, size(1, &|aig, x| convert(aig, format, Format::Single, rm, &x[0]))),
            ("from_int", 1801, size(1, &|aig, x| from_int(aig, format, rm, &x[0], true))),
            ("to_int", 3474, size(1, &|aig, x| to_int(aig, format, &x[0], 64, true).0)),
            ("round_to_integral", 3827, size(1, &|aig, x| round_to_integral(aig, format, rm, &x[0]))),
        ];
        for (name, documented, n_ands) in sizes {
            assert!(n_ands * 100 <= documented * 105, "{name} in {rm:?}: {n_ands} AND nodes, documented {documented}");
        }
    }
}

#[test]
fn widths_are_checked() {
    let mut aig = Aig::default();
    let (a, b) = (Bv::input(&mut aig, 32), Bv::input(&mut aig, 64));
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        arith(&mut aig, Format::Double, Rounding::NearestEven, Arith::Add, &a, &b)
    }))
    .unwrap_err();
    let msg = err.downcast_ref::<String>().unwrap();
    assert!(msg.contains("Double operand of width 32"), "{msg}");
}
