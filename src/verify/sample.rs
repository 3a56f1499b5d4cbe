//! Candidate invariants from runs: the transition system of `verify::ts` simulated on concrete
//! inputs, and the affine equalities every state it visits at a loop head satisfies.
//!
//! This is the dynamic half of dynamic invariant generation (as in Daikon or DIG): what holds of
//! every sampled state is only a *candidate*. `verify::kind` proves candidates inductive (Houdini)
//! over the bit-precise transition system before it uses one; a candidate the runs made up (too
//! few samples, inputs that missed a branch) is dropped there. So nothing here needs to be sound,
//! only cheap and deterministic.
//!
//! The simulation evaluates the circuit of one step (`Ts::encode_step`) for 64 runs at once, one
//! bit of a machine word per run. A run starts at the entry with small values, draws the inputs of
//! each step (mostly small numbers: the constants of loop programs are; sometimes one of the
//! constants of the program's conditions or a neighbour, for the bounds the program sets), and
//! starts again when its step is blocked (an assumption fails, the program ended), may be bad, or
//! it took its share of steps. States past a cut point's share are kept only when they widen the
//! range of a variable there (the extremes are rare draws). The simulation ends after `MAX_ROUNDS`
//! steps, or sooner when the circuit is large (`MAX_WORK`) or the runs stopped finding new states.
//!
//! Invariant: the same program and limits give the same candidates (a fixed seed, no clock).

use rustc_hash::FxHashSet;

use crate::base::bits;
use crate::cfront::ir::{Expr, ExprKind, UnOp};
use crate::sat::{Aig, AigLit, AigNode, Bv};

use super::poly::PolyEq;
use super::ts::{InputKind, Step, Ts, Unsupported};

/// Runs simulated at once (the bits of a word).
const LANES: usize = 64;
/// Distinct states kept per cut point.
const MAX_SAMPLES: usize = 2_048;
/// States kept per cut point beyond `MAX_SAMPLES`, each with a value beyond all the others'.
const MAX_EXTREME_SAMPLES: usize = 256;
/// Circuit nodes evaluated in all, over every step (a bound on the simulation's time).
const MAX_WORK: usize = 40_000_000;
/// Steps of the 64 runs at most.
const MAX_ROUNDS: usize = 2_000;
/// Steps without a new state at any loop head after which the simulation ends.
const MAX_STALE_ROUNDS: usize = 64;
/// Steps of one run before it starts again from the entry.
const RUN_STEPS: u32 = 400;
/// Blocked steps in a row after which a run starts again.
const MAX_BLOCKED: u32 = 8;
/// Equalities kept per cut point.
const MAX_EQUALITIES: usize = 8;
/// Equalities modulo `2^bits` kept per cut point and width (`modular_equalities`).
const MAX_MODULAR_EQUALITIES: usize = 64;
/// Samples a cut point needs before its equalities are worth a proof.
const MIN_SAMPLES: usize = 3;

/// `Σ coeffs[i] · vars[i] + constant = 0` (or `≤ 0`) over state variables (indices into
/// `Ts::vars`), each variable taken at its value as a mathematical integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linear {
    /// The cut point it holds at.
    pub cut: u32,
    /// Variables and their (non-zero) coefficients, by variable.
    pub terms: Vec<(usize, i128)>,
    /// The constant term.
    pub constant: i128,
    /// `≤ 0` rather than `= 0`.
    pub at_most: bool,
}

/// The states the simulation visited at each cut point (values of every state variable, signed
/// as the variable's type), at most `MAX_SAMPLES` each, and up to `MAX_EXTREME_SAMPLES` more that
/// widen the range of some variable.
pub fn simulate(ts: &Ts, consts: &[i128], give_up: &dyn Fn() -> bool) -> Result<Vec<Vec<Vec<i128>>>, Unsupported> {
    let mut aig = Aig::default();
    let (pc, vars) = ts.fresh_state(&mut aig);
    let step = ts.encode_step(&mut aig, &pc, &vars)?;
    let n_nodes = aig.n_nodes();
    let source = input_sources(&aig, &pc, &vars, &step);
    let signed_input: Vec<bool> = step
        .inputs
        .iter()
        .map(|i| match i.kind {
            InputKind::Call { ty, .. } => ts.prog.types.as_int(ty).is_some_and(|t| t.signed),
            _ => false,
        })
        .collect();
    let mut rng = SplitMix(0x5eed_1e55_c0ff_ee00);
    let mut lanes: Vec<Lane> = (0..LANES).map(|_| Lane::start(ts, &mut rng, consts)).collect();
    let mut kept = Kept::new(ts);
    let mut val = vec![0u64; n_nodes];
    let mut input_words = vec![0u64; aig.n_inputs()];
    let mut drawn = vec![vec![0u128; step.inputs.len()]; LANES];
    let steps = (MAX_WORK / n_nodes.max(1)).min(MAX_ROUNDS);
    let mut stale = 0;
    for round in 0..steps {
        if (round % 16 == 0 && give_up()) || stale > MAX_STALE_ROUNDS {
            break;
        }
        stale += 1;
        for d in drawn.iter_mut() {
            for (k, x) in d.iter_mut().enumerate() {
                *x = rng.draw(step.inputs[k].bv.width(), signed_input[k], consts);
            }
        }
        for (i, w) in input_words.iter_mut().enumerate() {
            *w = 0;
            for (lane, l) in lanes.iter().enumerate() {
                let bit = match source[i] {
                    Some(Source::Pc(j)) => l.pc >> j & 1 == 1,
                    Some(Source::Var(v, j)) => l.vars[v] >> j & 1 == 1,
                    Some(Source::Drawn(k, j)) => drawn[lane][k] >> j & 1 == 1,
                    None => rng.next() & 1 == 1,
                };
                *w |= (bit as u64) << lane;
            }
        }
        eval_words(&aig, &input_words, &mut val);
        let (cont, bad) = (word(&val, step.cont), word(&val, step.err) | word(&val, step.ub));
        for (lane, l) in lanes.iter_mut().enumerate() {
            let bit = |lit: AigLit| word(&val, lit) >> lane & 1 == 1;
            if bad >> lane & 1 == 1 || l.steps >= RUN_STEPS || l.blocked >= MAX_BLOCKED {
                *l = Lane::start(ts, &mut rng, consts);
                continue;
            }
            l.steps += 1;
            if cont >> lane & 1 == 0 {
                l.blocked += 1;
                continue;
            }
            l.blocked = 0;
            l.pc = step.next_pc.bits().iter().enumerate().fold(0, |acc, (j, &b)| acc | (bit(b) as u32) << j);
            for (v, bv) in step.next.iter().enumerate() {
                l.vars[v] = bv.bits().iter().enumerate().fold(0u128, |acc, (j, &b)| acc | (bit(b) as u128) << j);
            }
            if kept.keep(ts, l) {
                stale = 0;
            }
        }
    }
    Ok(kept
        .samples
        .into_iter()
        .map(|s| {
            let mut v: Vec<Vec<i128>> = s.into_iter().collect();
            v.sort_unstable();
            v
        })
        .collect())
}

/// Where an input of the step's circuit gets its value in a simulated run.
#[derive(Clone, Copy)]
enum Source {
    /// A bit of the cut point.
    Pc(u32),
    /// A bit of a state variable.
    Var(usize, u32),
    /// A bit of a nondeterministic input of the step (`Step::inputs`), drawn.
    Drawn(usize, u32),
}

/// Per input of `aig`, where it gets its value: a bit of the state (`pc`, `vars`) or of an input of
/// `step`; `None` for the others (drawn at random).
fn input_sources(aig: &Aig, pc: &Bv, vars: &[Bv], step: &Step) -> Vec<Option<Source>> {
    let mut source = vec![None; aig.n_inputs()];
    let mut bind = |lit: AigLit, s: Source| {
        if let Some(i) = aig.input_of(lit) {
            source[i.idx()] = Some(s);
        }
    };
    for (j, &b) in pc.bits().iter().enumerate() {
        bind(b, Source::Pc(j as u32));
    }
    for (v, bv) in vars.iter().enumerate() {
        for (j, &b) in bv.bits().iter().enumerate() {
            bind(b, Source::Var(v, j as u32));
        }
    }
    for (k, input) in step.inputs.iter().enumerate() {
        for (j, &b) in input.bv.bits().iter().enumerate() {
            bind(b, Source::Drawn(k, j as u32));
        }
    }
    source
}

/// Evaluates every node of `aig` for the 64 runs at once (a bit of a word each), the inputs'
/// values given by `input_words`, into `val` (a word per node).
fn eval_words(aig: &Aig, input_words: &[u64], val: &mut [u64]) {
    for i in 1..val.len() {
        val[i] = match aig.node(AigLit::from_raw((i as u32) << 1)) {
            AigNode::Const => 0,
            AigNode::Input(inp) => input_words[inp.idx()],
            AigNode::And(a, b) => word(val, a) & word(val, b),
        };
    }
}

/// The value of the literal `l` for the 64 runs, the nodes' values being `val`.
fn word(val: &[u64], l: AigLit) -> u64 {
    val[l.node_idx()] ^ if l.is_complemented() { u64::MAX } else { 0 }
}

/// The states kept at each cut point, and the least and greatest value of each variable over them.
struct Kept {
    samples: Vec<FxHashSet<Vec<i128>>>,
    ranges: Vec<Vec<(i128, i128)>>,
}

impl Kept {
    fn new(ts: &Ts) -> Kept {
        Kept {
            samples: vec![FxHashSet::default(); ts.cuts.len()],
            ranges: vec![vec![(i128::MAX, i128::MIN); ts.vars.len()]; ts.cuts.len()],
        }
    }

    /// Keeps the state of run `l` at a loop head if it is new and there is room for it: past
    /// `MAX_SAMPLES`, only a state with a value beyond every kept one's (the program's extremes are
    /// rare draws, and the bounds need them). Returns whether it was kept.
    fn keep(&mut self, ts: &Ts, l: &Lane) -> bool {
        let Some(seen) = self.samples.get_mut(l.pc as usize) else { return false };
        if l.pc == 0 || seen.len() >= MAX_SAMPLES + MAX_EXTREME_SAMPLES {
            return false;
        }
        let state: Vec<i128> =
            ts.vars.iter().zip(&l.vars).map(|(sv, &x)| as_int(x, sv.repr.bits, sv.repr.signed)).collect();
        let range = &mut self.ranges[l.pc as usize];
        let extreme = state.iter().zip(range.iter()).any(|(x, (lo, hi))| x < lo || x > hi);
        if (seen.len() < MAX_SAMPLES || extreme) && !seen.contains(&state) {
            for (x, (lo, hi)) in state.iter().zip(range.iter_mut()) {
                *lo = (*lo).min(*x);
                *hi = (*hi).max(*x);
            }
            seen.insert(state);
            return true;
        }
        false
    }
}

/// A prime near 2^61, the field the equalities are solved in.
pub(super) const P: u64 = (1 << 61) - 1;

/// The affine equalities over the variables `scope` (indices into a sample) that every sample
/// satisfies, at most `MAX_EQUALITIES`, each with coprime integer coefficients, the first positive;
/// none when there are fewer than `MIN_SAMPLES` samples.
///
/// The samples' null space is computed modulo the prime `P` (no overflow, however large the
/// values), its coefficients brought back to small fractions (rational reconstruction), and each
/// equality kept only if it holds of every sample in the integers.
pub fn equalities(cut: u32, samples: &[Vec<i128>], scope: &[usize]) -> Vec<Linear> {
    if samples.len() < MIN_SAMPLES || scope.is_empty() {
        return Vec::new();
    }
    // A variable with one value in every sample is an equality of its own, outside the cap: as a
    // column of the null space it would take a place among the first `MAX_EQUALITIES`.
    let (constant, scope): (Vec<usize>, Vec<usize>) =
        scope.iter().partition(|&&v| samples.iter().all(|s| s[v] == samples[0][v]));
    let mut res: Vec<Linear> = constant
        .iter()
        .map(|&v| Linear { cut, terms: vec![(v, 1)], constant: -samples[0][v], at_most: false })
        .collect();
    let n = scope.len() + 1;
    let rows = samples.iter().map(|s| std::iter::once(1).chain(scope.iter().map(|&v| modp(s[v]))).collect());
    let mut relations = 0;
    for coeffs in null_space(rows, n) {
        let terms: Vec<(usize, i128)> =
            scope.iter().zip(&coeffs[1..]).filter(|(_, &c)| c != 0).map(|(&v, &c)| (v, c)).collect();
        let eq = Linear { cut, terms, constant: coeffs[0], at_most: false };
        if !eq.terms.is_empty() && samples.iter().all(|s| eq.holds(s)) {
            res.push(eq);
            relations += 1;
        }
        if relations == MAX_EQUALITIES {
            break;
        }
    }
    res
}

/// The affine equalities `Σ cᵢ·vᵢ + c ≡ 0 (mod 2^bits)` over the variables `vars` (of `bits` bits,
/// at most 64) that every sample satisfies, as polynomials of degree one, at most
/// `MAX_MODULAR_EQUALITIES`; none when there are fewer than `MIN_SAMPLES` samples.
///
/// Arithmetic that wraps around keeps such an equality (`d = (a + b) + (a - b)` gives `d ≡ 2·a`)
/// where the integers lose it, so `equalities` misses it. It is found as `poly_equalities` finds
/// its equalities: among the samples whose values did not wrap, then checked modulo `2^bits` on
/// every sample. Variables with one value in every sample are left out (`equalities` has them).
pub fn modular_equalities(cut: u32, samples: &[Vec<i128>], vars: &[usize], bits: u32) -> Vec<PolyEq> {
    if samples.len() < MIN_SAMPLES || bits > 64 {
        return Vec::new();
    }
    let vars: Vec<usize> = vars.iter().copied().filter(|&v| samples.iter().any(|s| s[v] != samples[0][v])).collect();
    if vars.len() < 2 {
        return Vec::new();
    }
    let small = |s: &&Vec<i128>| vars.iter().all(|&v| s[v].unsigned_abs() < 1u128 << (bits - bits / 4));
    let found: Vec<&Vec<i128>> = samples.iter().filter(small).collect();
    if found.len() < MIN_SAMPLES {
        return Vec::new();
    }
    let row = |s: &Vec<i128>, vars: &[usize]| std::iter::once(1).chain(vars.iter().map(|&v| modp(s[v]))).collect();
    // The equalities of two variables first, then a basis of all (which finds those of more). A
    // basis alone would not do: Houdini drops each basis vector that is no invariant, and with it
    // the invariants that were only combinations of it (`p == p_t`, `2p == d_t` at one loop head,
    // where only `2p_t == d_t` is inductive).
    let mut found_sets: Vec<(Vec<usize>, Vec<i128>)> = Vec::new();
    for (x, &a) in vars.iter().enumerate() {
        for &b in &vars[x + 1..] {
            for coeffs in null_space(found.iter().map(|s| row(s, &[a, b])), 3) {
                found_sets.push((vec![a, b], coeffs));
            }
        }
    }
    found_sets
        .extend(null_space(found.iter().map(|s| row(s, &vars)), vars.len() + 1).into_iter().map(|c| (vars.clone(), c)));
    let mut res: Vec<PolyEq> = Vec::new();
    for (vars, coeffs) in found_sets {
        let mut terms: Vec<(Vec<usize>, i128)> =
            vars.iter().zip(&coeffs[1..]).filter(|(_, &c)| c != 0).map(|(&v, &c)| (vec![v], c)).collect();
        if terms.len() < 2 {
            continue;
        }
        if coeffs[0] != 0 {
            terms.insert(0, (Vec::new(), coeffs[0]));
        }
        let eq = PolyEq { cut, bits, terms };
        if !res.contains(&eq) && samples.iter().all(|s| eq.holds_wrapping(s)) {
            res.push(eq);
            if res.len() == MAX_MODULAR_EQUALITIES {
                break;
            }
        }
    }
    res
}

/// A basis of the vectors `x` (of `n` integers, coprime, the first non-zero one after `x[0]`
/// positive) with `row · x = 0` modulo `P` for every row: one per column not a pivot of the rows'
/// reduced echelon form (that column 1, the others free 0), brought back from `P` to small
/// fractions (rational reconstruction); those without one are left out. Empty when the rows have
/// full rank.
fn null_space(rows: impl Iterator<Item = Vec<u64>>, n: usize) -> Vec<Vec<i128>> {
    // Reduced row echelon form, modulo P: rows with their pivot column (entry 1, zero in every
    // other row).
    let mut basis: Vec<(usize, Vec<u64>)> = Vec::new();
    for row in rows {
        let Some((p, row)) = reduced(&basis, row) else { continue };
        for (_, b) in basis.iter_mut() {
            let f = b[p];
            if f != 0 {
                sub_scaled(b, &row, f);
            }
        }
        basis.push((p, row));
        if basis.len() == n {
            return Vec::new();
        }
    }
    let mut res = Vec::new();
    for free in (0..n).filter(|c| basis.iter().all(|(p, _)| p != c)) {
        // x_free = 1, other free columns 0: each pivot column is minus the row's entry at `free`.
        let mut fracs = vec![(0i128, 1i128); n];
        fracs[free] = (1, 1);
        let mut ok = true;
        for (p, r) in &basis {
            match reconstruct((P - r[free]) % P) {
                Some(f) => fracs[*p] = f,
                None => ok = false,
            }
        }
        let Some(scale) = fracs.iter().try_fold(1i128, |l, &(_, d)| lcm(l, d)).filter(|_| ok) else { continue };
        let Some(coeffs) = fracs.iter().map(|&(a, d)| a.checked_mul(scale / d)).collect::<Option<Vec<i128>>>() else {
            continue;
        };
        let g = coeffs.iter().fold(0, |g, &c| gcd(g, c.abs()));
        let sign = if coeffs[1..].iter().find(|&&c| c != 0).is_some_and(|&c| c < 0) { -1 } else { 1 };
        res.push(coeffs.iter().map(|&c| sign * c / g).collect());
    }
    res
}

/// `row` less its multiples of the echelon rows `basis` (each with its pivot column, entry 1 there),
/// scaled to 1 at its first non-zero column, with that column; `None` if nothing is left.
fn reduced(basis: &[(usize, Vec<u64>)], mut row: Vec<u64>) -> Option<(usize, Vec<u64>)> {
    for (p, b) in basis {
        let f = row[*p];
        if f != 0 {
            sub_scaled(&mut row, b, f);
        }
    }
    let p = row.iter().position(|&x| x != 0)?;
    let inv = inverse(row[p]);
    row.iter_mut().for_each(|x| *x = mulmod(*x, inv));
    Some((p, row))
}

/// The most monomials `poly_equalities` takes as columns (the degree is the highest that keeps
/// their number below this).
const MAX_MONOMIALS: usize = 70;
/// The highest degree `poly_equalities` tries.
const MAX_POLY_DEGREE: usize = 4;
/// The samples `poly_equalities` solves over.
const POLY_ROWS: usize = 4 * MAX_MONOMIALS;
/// The most polynomial equalities per cut point and width.
const MAX_POLY_EQUALITIES: usize = 16;

/// The polynomial equalities over `vars` (state variables of `bits` bits, at most 64) that every
/// sample at `cut` satisfies modulo `2^bits`, of degree 1 up to the highest that keeps the
/// monomials at most `MAX_MONOMIALS`: degree by degree, each equality kept only if it is no
/// combination of those already kept times monomials (`y == c` gives `y*c == c*c` and more; only
/// the first is kept).
pub fn poly_equalities(cut: u32, samples: &[Vec<i128>], vars: &[usize], bits: u32) -> Vec<PolyEq> {
    if samples.len() < MIN_SAMPLES || vars.is_empty() || bits > 64 {
        return Vec::new();
    }
    let count = |d: usize| (1..=d).fold(1usize, |c, k| c * (vars.len() + k) / k);
    let Some(degree) = (2..=MAX_POLY_DEGREE).rev().find(|&d| count(d) <= MAX_MONOMIALS) else { return Vec::new() };
    // Monomials over positions in `vars`, by degree.
    let positions: Vec<u32> = (0..vars.len() as u32).collect();
    let monos: Vec<Vec<usize>> = super::poly::monomials(&positions, degree)
        .into_iter()
        .map(|m| m.into_iter().map(|v| v as usize).collect())
        .collect();
    let value = |s: &[i128], m: &[usize]| m.iter().fold(1u64, |acc, &v| mulmod(acc, modp(s[vars[v]])));
    // The equalities are found among states whose values did not wrap around (a wrapped value is
    // almost always far from 0): one that holds modulo 2^bits only is no equality of the integers.
    let small = |s: &&Vec<i128>| vars.iter().all(|&v| s[v].unsigned_abs() < 1u128 << (bits - bits / 4));
    let found: Vec<&Vec<i128>> = samples.iter().filter(small).collect();
    if found.len() < MIN_SAMPLES {
        return Vec::new();
    }
    // A spread of them is enough to find the equalities (at most `MAX_MONOMIALS` columns); every
    // sample checks them.
    let stride = found.len().div_ceil(POLY_ROWS);
    let found: Vec<&Vec<i128>> = found.into_iter().step_by(stride).collect();
    let mut kept: Vec<Vec<i128>> = Vec::new();
    let mut res = Vec::new();
    for d in 1..=degree {
        let n = monos.iter().take_while(|m| m.len() <= d).count();
        let rows = found.iter().map(|s| monos[..n].iter().map(|m| value(s, m)).collect());
        // What the equalities kept so far give at this degree: each times every monomial that fits.
        let mut span: Vec<(usize, Vec<u64>)> = Vec::new();
        let add = |span: &mut Vec<(usize, Vec<u64>)>, v: Vec<u64>| -> bool {
            let Some(r) = reduced(span, v) else { return false };
            span.push(r);
            true
        };
        for k in &kept {
            let kd = (0..k.len()).filter(|&i| k[i] != 0).map(|i| monos[i].len()).max().unwrap_or(0);
            for m in monos[..n].iter().filter(|m| m.len() + kd <= d) {
                let mut v = vec![0u64; n];
                for (i, &c) in k.iter().enumerate().filter(|(_, &c)| c != 0) {
                    let mut prod: Vec<usize> = monos[i].iter().chain(m).copied().collect();
                    prod.sort_unstable();
                    let j = monos[..n].iter().position(|x| *x == prod).expect("a monomial of degree at most d");
                    v[j] = (v[j] + modp(c)) % P;
                }
                add(&mut span, v);
            }
        }
        for coeffs in null_space(rows, n) {
            if res.len() == MAX_POLY_EQUALITIES {
                return res;
            }
            let v: Vec<u64> = coeffs.iter().map(|&c| modp(c)).collect();
            if !add(&mut span, v) {
                continue;
            }
            let eq = PolyEq {
                cut,
                bits,
                terms: monos[..n]
                    .iter()
                    .zip(&coeffs)
                    .filter(|(_, &c)| c != 0)
                    .map(|(m, &c)| (m.iter().map(|&v| vars[v]).collect(), c))
                    .collect(),
            };
            if samples.iter().all(|s| eq.holds_wrapping(s)) {
                let mut full = coeffs.clone();
                full.resize(monos.len(), 0);
                kept.push(full);
                res.push(eq);
            }
        }
    }
    res
}

/// Coefficients `(p, q)` of the bounds `p·a + q·b ≤ c` tried for two variables.
const PAIR_COEFFS: [(i128, i128); 12] =
    [(1, -1), (-1, 1), (1, 1), (-1, -1), (1, -2), (-2, 1), (2, -1), (-1, 2), (1, -3), (-3, 1), (3, -1), (-1, 3)];
/// Bounds further from zero than this are not tried (a variable with values that large is mostly
/// one nothing bounds).
const MAX_BOUND: i128 = 1 << 24;
/// Bounds kept per cut point.
const MAX_BOUNDS: usize = 256;
/// The most sample values `bounds_of` reads (terms times samples): the pairs of the first
/// variables in scope within it (a loop's dozen variables take 3 million; the 815 of a SystemC
/// ring with thirteen processes would take 16 billion).
const MAX_BOUND_WORK: usize = 10_000_000;

/// The tightest bounds `x ≤ c`, `-x ≤ c` and `p·a + q·b ≤ c` (`PAIR_COEFFS`) over the variables
/// `scope` that every sample satisfies, with `|c| ≤ MAX_BOUND`, at most `MAX_BOUNDS`; none when
/// there are fewer than `MIN_SAMPLES` samples. Left out: a bound every value of the variables'
/// types (`range`: least and greatest) satisfies, and a bound on two variables that their bounds
/// of one each imply (the corner of the samples' box); `a ≤ b` and `a < b` are templates of their
/// own.
pub fn bounds(cut: u32, samples: &[Vec<i128>], scope: &[usize], range: &dyn Fn(usize) -> (i128, i128)) -> Vec<Linear> {
    bounds_of(cut, samples, scope, range, false)
}

/// `bounds`, `a ≤ b` and `a < b` included when `relations` (a part of the samples may have them
/// where the templates, which speak of every state, do not).
pub fn bounds_of(
    cut: u32,
    samples: &[Vec<i128>],
    scope: &[usize],
    range: &dyn Fn(usize) -> (i128, i128),
    relations: bool,
) -> Vec<Linear> {
    if samples.len() < MIN_SAMPLES {
        return Vec::new();
    }
    let extreme = |v: usize, k: i128, of: &dyn Fn(&mut dyn Iterator<Item = i128>) -> Option<i128>| {
        of(&mut samples.iter().map(|s| k * s[v]))
    };
    // The greatest value of `k·v` over the samples, and over the type.
    let sample_max = |v: usize, k: i128| extreme(v, k, &|it| it.max()).expect("samples");
    let type_max = |v: usize, k: i128| {
        let (lo, hi) = range(v);
        (k * lo).max(k * hi)
    };
    let mut res = Vec::new();
    // Whether `MAX_BOUNDS` are found: the rest would be left out, and on a program with hundreds of
    // variables in scope asking the samples for every pair would take minutes.
    let mut push = |terms: Vec<(usize, i128)>| -> bool {
        if res.len() >= MAX_BOUNDS {
            return true;
        }
        let max = samples.iter().map(|s| terms.iter().map(|&(v, k)| k * s[v]).sum::<i128>()).max().expect("samples");
        let by_type: i128 = terms.iter().map(|&(v, k)| type_max(v, k)).sum();
        let by_box: i128 = terms.iter().map(|&(v, k)| sample_max(v, k)).sum();
        let plain =
            !relations && matches!(terms.as_slice(), [(_, 1), (_, -1)] | [(_, -1), (_, 1)]) && (max == 0 || max == -1);
        let implied = by_type <= max || (terms.len() > 1 && by_box <= max);
        if max.abs() <= MAX_BOUND && !plain && !implied {
            res.push(Linear { cut, terms, constant: -max, at_most: true });
        }
        res.len() >= MAX_BOUNDS
    };
    let singles = scope.iter().flat_map(|&a| [vec![(a, 1)], vec![(a, -1)]]);
    let pairs = scope.iter().enumerate().flat_map(|(i, &a)| {
        scope[i + 1..].iter().flat_map(move |&b| PAIR_COEFFS.iter().map(move |&(p, q)| vec![(a, p), (b, q)]))
    });
    // The work of reading the samples, bounded as `MAX_BOUND_WORK` says.
    let mut work = 0;
    for terms in singles.chain(pairs) {
        work += terms.len() * samples.len();
        if push(terms) || work > MAX_BOUND_WORK {
            break;
        }
    }
    res
}

/// The lowest bits every sample of a variable agrees on: `(v, t, low)` when the `t` lowest bits of
/// every sample of `v` (of `width(v)` bits, two's complement) are those of `low`, with `2 ≤ t <
/// width(v)` (the lowest bit alone is a template of its own, all bits an equality). None when there
/// are fewer than `MIN_SAMPLES` samples. `x ≡ 5 (mod 8)` of a counter that starts at 5 and steps by
/// 8 is `(x, 3, 5)`.
pub fn low_bits(samples: &[Vec<i128>], scope: &[usize], width: &dyn Fn(usize) -> u32) -> Vec<(usize, u32, u64)> {
    if samples.len() < MIN_SAMPLES {
        return Vec::new();
    }
    let mut res = Vec::new();
    for &v in scope {
        let w = width(v);
        if w > 64 {
            continue;
        }
        let low = |s: &Vec<i128>| bits::truncate(s[v] as u128, w) as u64;
        let first = low(&samples[0]);
        let differ = samples.iter().fold(0u64, |acc, s| acc | (low(s) ^ first));
        let t = differ.trailing_zeros();
        if differ != 0 && t >= 2 {
            res.push((v, t, bits::truncate(u128::from(first), t) as u64));
        }
    }
    res
}

impl Linear {
    /// Whether the sample satisfies it (in the integers; not on overflow).
    pub(super) fn holds(&self, sample: &[i128]) -> bool {
        self.terms
            .iter()
            .try_fold(self.constant, |acc, &(v, k)| acc.checked_add(k.checked_mul(sample[v])?))
            .is_some_and(|sum| if self.at_most { sum <= 0 } else { sum == 0 })
    }
}

/// `x` modulo `P`, in `0..P`.
pub(super) fn modp(x: i128) -> u64 {
    x.rem_euclid(P as i128) as u64
}

pub(super) fn mulmod(a: u64, b: u64) -> u64 {
    (a as u128 * b as u128 % P as u128) as u64
}

/// `row -= f * by`, modulo `P`.
pub(super) fn sub_scaled(row: &mut [u64], by: &[u64], f: u64) {
    for (x, &y) in row.iter_mut().zip(by) {
        *x = (*x + P - mulmod(f, y)) % P;
    }
}

/// The inverse of `a` (not 0) modulo `P` (Fermat: a^(P-2)).
pub(super) fn inverse(a: u64) -> u64 {
    let (mut base, mut e, mut acc) = (a, P - 2, 1u64);
    while e > 0 {
        if e & 1 == 1 {
            acc = mulmod(acc, base);
        }
        base = mulmod(base, base);
        e >>= 1;
    }
    acc
}

/// The fraction `a / d` (`d > 0`, both below 2^30 in magnitude) that is `u` modulo `P`, if there
/// is one (rational reconstruction by the extended Euclidean algorithm).
pub(super) fn reconstruct(u: u64) -> Option<(i128, i128)> {
    const BOUND: i128 = 1 << 30;
    let (mut r0, mut r1) = (P as i128, u as i128);
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 >= BOUND {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    let (a, d) = if t1 < 0 { (-r1, -t1) } else { (r1, t1) };
    (d != 0 && d < BOUND && gcd(a.abs(), d) == 1).then_some((a, d))
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: i128, b: i128) -> Option<i128> {
    (a / gcd(a, b)).checked_mul(b)
}

/// The `bits`-bit pattern `x` as an integer of its signedness.
fn as_int(x: u128, width: u32, signed: bool) -> i128 {
    if signed {
        bits::sign_extend(x, width)
    } else {
        bits::truncate(x, width) as i128
    }
}

/// The integer constants of the conditions `conds` (`-1000000` as the negative number), sorted,
/// without repeats.
pub(super) fn condition_constants<'e>(conds: impl IntoIterator<Item = &'e Expr>) -> Vec<i128> {
    fn walk(e: &Expr, out: &mut Vec<i128>) {
        match &e.kind {
            ExprKind::IntConst(v) => out.push(*v),
            ExprKind::Unary(UnOp::Neg, a) if matches!(a.strip_implicit().kind, ExprKind::IntConst(_)) => {
                if let ExprKind::IntConst(v) = a.strip_implicit().kind {
                    out.push(-v);
                }
            }
            _ => e.for_each_child(&mut |c| walk(c, out)),
        }
    }
    let mut res = Vec::new();
    for c in conds {
        walk(c, &mut res);
    }
    res.sort_unstable();
    res.dedup();
    res
}

/// One simulated run.
struct Lane {
    pc: u32,
    vars: Vec<u128>,
    steps: u32,
    blocked: u32,
}

impl Lane {
    /// A run at the entry; variables small (the entry's step sets what the program initializes).
    fn start(ts: &Ts, rng: &mut SplitMix, consts: &[i128]) -> Lane {
        let vars = ts.vars.iter().map(|v| rng.draw(v.repr.bits, v.repr.signed, consts)).collect();
        Lane { pc: 0, vars, steps: 0, blocked: 0 }
    }
}

/// A small deterministic generator (SplitMix64).
pub(super) struct SplitMix(pub(super) u64);

impl SplitMix {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value of `bits` bits: mostly small (0 to 8, then to 100, negative ones when signed),
    /// sometimes larger or one of `consts` (the program's) or a neighbour, now and then any pattern.
    fn draw(&mut self, bits: u32, signed: bool, consts: &[i128]) -> u128 {
        let r = self.next();
        let small = |n: u64| (r >> 8) % n;
        let x: i128 = match r % 16 {
            0..=5 => small(9) as i128,
            6..=7 if signed => -(small(8) as i128) - 1,
            6..=9 => small(101) as i128,
            10..=11 if signed => -(small(100) as i128) - 1,
            10..=12 => small(10_001) as i128,
            13 => 1,
            14 if !consts.is_empty() => {
                consts[(self.next() % consts.len() as u64) as usize] + (self.next() % 3) as i128 - 1
            }
            _ => ((self.next() as u128) << 64 | self.next() as u128) as i128,
        };
        bits::truncate(x as u128, bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eqs(samples: &[&[i128]]) -> Vec<(Vec<(usize, i128)>, i128)> {
        let samples: Vec<Vec<i128>> = samples.iter().map(|s| s.to_vec()).collect();
        let scope: Vec<usize> = (0..samples[0].len()).collect();
        equalities(1, &samples, &scope).into_iter().map(|e| (e.terms, e.constant)).collect()
    }

    #[test]
    fn the_equalities_of_the_samples_are_found_with_coprime_coefficients() {
        // x - y = 3 and 2x + z = 10 on every sample.
        let found = eqs(&[&[3, 0, 4], &[4, 1, 2], &[7, 4, -4], &[10, 7, -10]]);
        assert_eq!(found.len(), 2, "{found:?}");
        for (terms, c) in &found {
            for s in [[3i128, 0, 4], [4, 1, 2], [7, 4, -4]] {
                let v: i128 = terms.iter().map(|&(i, k)| k * s[i]).sum::<i128>() + c;
                assert_eq!(v, 0, "{terms:?} {c}");
            }
            let g = terms.iter().fold(c.abs(), |g, &(_, k)| gcd(g, k.abs()));
            assert_eq!(g, 1);
        }
    }

    #[test]
    fn variables_constant_in_every_sample_are_equalities_outside_the_cap() {
        // Twelve constants (more than `MAX_EQUALITIES`) and `x - y = 3` after them.
        let samples: Vec<Vec<i128>> = (0..5).map(|k| (0..12).map(|c| c * 10).chain([k + 3, k]).collect()).collect();
        let found = eqs(&samples.iter().map(|s| s.as_slice()).collect::<Vec<_>>());
        for c in 0..12 {
            assert!(found.contains(&(vec![(c, 1)], -(c as i128) * 10)), "{found:?}");
        }
        assert!(found.contains(&(vec![(12, 1), (13, -1)], -3)), "{found:?}");
        assert_eq!(found.len(), 13);
    }

    #[test]
    fn equalities_modulo_the_width_are_found_where_the_integers_lose_them() {
        // `p`, `p_t` equal, `d` and `d_t` twice them in 32-bit arithmetic (which wraps at 2^30).
        let wrap = |x: i128| as_int(x as u128 & 0xffff_ffff, 32, true);
        let samples: Vec<Vec<i128>> =
            [1i128, 5, -7, 12_345, 1 << 30, 3 << 29].iter().map(|&p| vec![p, p, wrap(2 * p), wrap(2 * p), 9]).collect();
        let scope = [0, 1, 2, 3, 4];
        // In the integers, `p == p_t` and `d == d_t` only.
        let ints = equalities(1, &samples, &scope);
        let relates =
            |e: &Linear| e.terms.iter().any(|&(v, _)| v < 2) && e.terms.iter().any(|&(v, _)| v == 2 || v == 3);
        assert!(!ints.iter().any(relates), "{ints:?}");
        let found = modular_equalities(1, &samples, &scope, 32);
        let has = |a: usize, ka: i128, b: usize, kb: i128| {
            found
                .iter()
                .any(|e| e.terms == [(vec![a], ka), (vec![b], kb)] || e.terms == [(vec![a], -ka), (vec![b], -kb)])
        };
        assert!(has(0, 1, 1, -1) && has(0, 2, 2, -1) && has(2, 1, 3, -1), "{found:?}");
        // A basis alone would give `2*p_t == d_t` only as a combination of the others, which fall
        // where `p == p_t` does not hold.
        assert!(has(1, 2, 3, -1), "{found:?}");
        // The constant `9` is left to `equalities`.
        assert!(found.iter().all(|e| e.terms.iter().all(|(m, _)| m != &vec![4])), "{found:?}");
        assert!(found.iter().all(|e| samples.iter().all(|s| e.holds_wrapping(s))));
    }

    #[test]
    fn independent_samples_give_no_equality_and_too_few_give_none() {
        assert!(eqs(&[&[0, 0], &[1, 0], &[0, 1], &[5, 7]]).is_empty());
        assert!(eqs(&[&[0, 0], &[1, 1]]).is_empty());
    }

    #[test]
    fn bounds_are_the_tightest_the_samples_allow() {
        let samples: Vec<Vec<i128>> = vec![vec![0, 0], vec![1, 3], vec![2, 6], vec![3, 7]];
        // `a` a signed int, `b` an unsigned one.
        let range = |v: usize| if v == 0 { (-(1 << 31), (1 << 31) - 1) } else { (0, (1 << 32) - 1) };
        let found = bounds(2, &samples, &[0, 1], &range);
        let has = |terms: &[(usize, i128)], c: i128| found.iter().any(|b| b.terms == terms && b.constant == c);
        assert!(has(&[(0, 1)], -3) && has(&[(0, -1)], 0) && has(&[(1, 1)], -7));
        // `-b <= 0` holds of every unsigned value.
        assert!(!found.iter().any(|b| b.terms == [(1, -1)]));
        // 3a - b <= 2 (at a = 3), b - 3a <= 0; a + b <= 10 is what a <= 3 and b <= 7 give.
        assert!(has(&[(0, 3), (1, -1)], -2) && has(&[(0, -3), (1, 1)], 0));
        assert!(!found.iter().any(|b| b.terms == [(0, 1), (1, 1)]));
        assert!(found.iter().all(|b| samples.iter().all(|s| b.holds(s))));
    }

    #[test]
    fn a_scope_of_hundreds_of_variables_gets_its_own_bounds_and_stops_at_the_cap() {
        // 800 variables (a SystemC ring's inlined contexts), each between 0 and its index + 1.
        let n = 800;
        let samples: Vec<Vec<i128>> = (0..MAX_SAMPLES as i128).map(|k| (0..n).map(|v| k % (v + 2)).collect()).collect();
        let scope: Vec<usize> = (0..n as usize).collect();
        let range = |_: usize| (bits::min_signed(32), bits::max_signed(32));
        let found = bounds(1, &samples, &scope, &range);
        // The single-variable bounds come first and fill the list (the pairs are never read).
        assert_eq!(found.len(), MAX_BOUNDS);
        assert!(found.iter().all(|b| b.terms.len() == 1));
        assert!(found.iter().any(|b| b.terms == [(0, 1)] && b.constant == -1));
        assert!(found.iter().all(|b| samples.iter().all(|s| b.holds(s))));
    }

    #[test]
    fn the_low_bits_all_samples_share_are_found() {
        // `a` steps by 8 from 5; `b` is a multiple of 4, negative ones too; `c` varies in its
        // lowest bit; `d` is constant.
        let samples: Vec<Vec<i128>> = vec![vec![5, 0, 1, 7], vec![13, -4, 2, 7], vec![21, 12, 3, 7]];
        let found = low_bits(&samples, &[0, 1, 2, 3], &|_| 32);
        assert_eq!(found, vec![(0, 3, 5), (1, 2, 0)]);
        assert!(low_bits(&samples[..2], &[0], &|_| 32).is_empty());
    }

    #[test]
    fn values_are_read_in_their_signedness() {
        assert_eq!(as_int(0xff, 8, true), -1);
        assert_eq!(as_int(0xff, 8, false), 255);
        assert_eq!(as_int(0x1_0000_0005, 32, false), 5);
    }
}
