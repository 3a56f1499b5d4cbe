//! Random testing: the program run by the concrete interpreter (`symex::interpret_drawing`) on
//! inputs drawn at random, for violations no bounded unrolling reaches.
//!
//! A bug behind a loop that runs a number of times an input chooses (`for (i = 0; i <= n; i++)`
//! with the violation only when `n * (n + 1)` wraps around, at `n ≥ 65,536`) is out of reach of a
//! path-by-path search and of BMC, but a single run with the right `n` shows it. The inputs drawn
//! favour the values such bugs need: 0, small numbers, the program's constants and their
//! neighbours, powers of two and their neighbours, the extremes of the type; now and then any
//! value. Each run draws its inputs with its own mix (how often 0 comes: the loops
//! `while (__VERIFIER_nondet_int())` run short or long).
//!
//! Runs jump over the iterations of loops that repeat one path with constant increments
//! (`symex::interpret_drawing` accelerates), so a bug behind 2^27 iterations of `x += 2` is one
//! short run; a program that draws nothing has one run, made once with the long limit.
//!
//! Only the results of `__VERIFIER_nondet_*` calls of integer type are drawn; a run that needs any
//! other input (an unknown function's result, a pointer) ends there, and so does one that calls a
//! function whose effect is not modelled (it may write what it is given). Bytes read before being
//! written read 0, as in the counterexamples of the other engines.
//!
//! Invariant: a violation is reported only when the interpreter reached it; the inputs drawn replay
//! it (`symex::interpret`). Nothing here proves anything: a search that finds nothing says nothing.
//! Invariant: the same program and limits draw the same inputs (a fixed seed per run, no clock);
//! only a limit of the whole run (time, signal, another engine deciding) stops it sooner.

use crate::base::bits;
use crate::cfa::{Cfa, EdgeId, EdgeKind};
use crate::cfront::ir::Program;
use crate::symex::{self, Budget, ConcreteEnd, InputValue, Property, Trace};

use super::sample::SplitMix;

/// How much random testing to do.
#[derive(Clone, Copy, Debug)]
pub struct FuzzLimits {
    /// Runs at most.
    pub runs: u32,
    /// Edges one run takes at most (every eighth run: eight times as many).
    pub run_steps: u64,
    /// Edges all runs take together at most.
    pub total_steps: u64,
}

impl Default for FuzzLimits {
    fn default() -> FuzzLimits {
        FuzzLimits { runs: 20_000, run_steps: 300_000, total_steps: 6_000_000 }
    }
}

/// What random testing did.
#[derive(Clone, Copy, Debug, Default)]
pub struct FuzzStats {
    /// Runs made.
    pub runs: u32,
    /// Edges taken by all runs.
    pub steps: u64,
}

/// A violation found: the run's edges and the inputs that replay it.
pub type Found = (Trace, Vec<InputValue>);

/// Runs `prog` on random inputs within `limits` and `budget` (checked between runs), calling
/// `between` with the counters after each run (it may wait); the first run that reaches a violation
/// of `property`, if any.
pub fn run(
    prog: &Program,
    cfa: &Cfa,
    property: Property,
    limits: FuzzLimits,
    budget: &Budget,
    between: &dyn Fn(&FuzzStats),
) -> (Option<Found>, FuzzStats) {
    let mut stats = FuzzStats::default();
    let consts = super::sample::condition_constants(cfa.edges().filter_map(|(_, e)| match &e.kind {
        EdgeKind::Assume { cond, .. } => Some(cond),
        _ => None,
    }));
    let nondet: Vec<bool> = prog.funcs.iter().map(|f| is_input(&f.name)).collect();
    // A run that drew nothing is the program's only run: it is made once, long.
    let mut only_long = false;
    while stats.runs < limits.runs && stats.steps < limits.total_steps && budget.exhausted().is_none() {
        let mut rng = SplitMix(0xf022_5eed_0000_0000 ^ u64::from(stats.runs).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        // How often a draw is 0, for this run: loops on a nondeterministic condition run short or long.
        let zero = [40, 15, 4, 1][stats.runs as usize % 4];
        let mut draw = |_edge: EdgeId, f: Option<crate::cfront::ir::FuncId>, bits: u32, signed: bool| {
            let f = f?;
            nondet[f.0 as usize].then(|| draw_value(&mut rng, &consts, zero, bits, signed))
        };
        let long = if stats.runs % 8 == 7 || only_long { 8 } else { 1 };
        let steps = (limits.run_steps * long).min(limits.total_steps - stats.steps);
        let (run, inputs) = symex::interpret_drawing(prog, cfa, property, &mut draw, steps);
        stats.runs += 1;
        stats.steps += run.trace.stored();
        between(&stats);
        if run.end == ConcreteEnd::Violation {
            return (Some((run.trace, inputs)), stats);
        }
        if inputs.is_empty() {
            if long == 8 || run.end != ConcreteEnd::StepLimit {
                break;
            }
            only_long = true;
        }
    }
    (None, stats)
}

/// Whether random testing draws the results of the function `name`: `__VERIFIER_nondet_*`.
pub fn is_input(name: &str) -> bool {
    name.starts_with("__VERIFIER_nondet_")
}

/// A value of `bits` bits for a run whose draws are 0 in `zero` of 100 cases.
fn draw_value(rng: &mut SplitMix, consts: &[i128], zero: u64, bits: u32, signed: bool) -> u128 {
    let r = rng.next() % 100;
    let x: i128 = if r < zero {
        0
    } else if r < 60 {
        let v = (rng.next() % 17) as i128;
        if signed && rng.next().is_multiple_of(3) {
            -v
        } else {
            v
        }
    } else if r < 75 && !consts.is_empty() {
        consts[(rng.next() % consts.len() as u64) as usize] + (rng.next() % 3) as i128 - 1
    } else if r < 92 {
        // A power of two or a neighbour (the type's extremes among them), negated now and then;
        // half of them near the square root of the type's range, where products wrap around.
        let k = if rng.next().is_multiple_of(2) {
            (rng.next() % u64::from(bits.min(127))) as u32
        } else {
            (bits / 2 + (rng.next() % 5) as u32).saturating_sub(2).min(126)
        };
        let v = (1i128 << k) + (rng.next() % 3) as i128 - 1;
        if signed && rng.next().is_multiple_of(4) {
            -v
        } else {
            v
        }
    } else {
        (u128::from(rng.next()) << 64 | u128::from(rng.next())) as i128
    };
    bits::truncate(x as u128, bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfa::CfaConfig;
    use crate::cfront::types::DataModel;

    fn fuzz(src: &str) -> (Option<Vec<i128>>, FuzzStats) {
        let file = crate::base::SourceFile::new("t.c", src.to_string());
        let (mut prog, _) = crate::cfront::parse_program(file, DataModel::Ilp32).expect("parses");
        let (cfa, _) = crate::cfa::build(&mut prog, &CfaConfig::default()).expect("builds");
        let (found, stats) =
            run(&prog, &cfa, Property::UnreachCall, FuzzLimits::default(), &Budget::default(), &|_| {});
        let found = found.map(|(edges, inputs)| {
            // The inputs replay the violation.
            let again = symex::interpret_accelerated(&prog, &cfa, Property::UnreachCall, &inputs, 10_000_000);
            assert_eq!(again.end, ConcreteEnd::Violation);
            assert_eq!(again.trace, edges);
            inputs.iter().map(|i| i.signed()).collect()
        });
        (found, stats)
    }

    const HEAD: &str = "void reach_error(void);\nunsigned int __VERIFIER_nondet_uint(void);\nint __VERIFIER_nondet_int(void);\nint ext(void);\n";

    #[test]
    fn a_violation_behind_many_iterations_is_found() {
        // sv-benchmarks' sum02: the sum of 0..n differs from `n*(n+1)/2` once `n*(n+1)` wraps.
        let src = format!("{HEAD}int main(void) {{\n  unsigned int i, n = __VERIFIER_nondet_uint(), sn = 0;\n  for (i = 0; i <= n; i++) sn = sn + i;\n  if (!(sn == (n * (n + 1)) / 2 || sn == 0)) reach_error();\n  return 0;\n}}\n");
        let (found, _) = fuzz(&src);
        let n = found.expect("found")[0];
        assert!(n >= 65_536, "{n}");
    }

    #[test]
    fn nothing_is_found_where_nothing_is_and_other_inputs_are_not_drawn() {
        let src = format!("{HEAD}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  if (x > 5 && x < 3) reach_error();\n  return 0;\n}}\n");
        let limits = FuzzLimits { runs: 500, ..FuzzLimits::default() };
        let file = crate::base::SourceFile::new("t.c", src);
        let (mut prog, _) = crate::cfront::parse_program(file, DataModel::Ilp32).expect("parses");
        let (cfa, _) = crate::cfa::build(&mut prog, &CfaConfig::default()).expect("builds");
        let (found, stats) = run(&prog, &cfa, Property::UnreachCall, limits, &Budget::default(), &|_| {});
        assert!(found.is_none());
        assert_eq!(stats.runs, 500);
        // `ext` is not a `__VERIFIER_nondet_` function: its result is never drawn.
        let (found, _) = fuzz(&format!("{HEAD}int main(void) {{\n  if (ext() == 0) reach_error();\n  return 0;\n}}\n"));
        assert!(found.is_none());
        // The same program gives the same inputs.
        let src = format!("{HEAD}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  if (x == 1024) reach_error();\n  return 0;\n}}\n");
        assert_eq!(fuzz(&src).0, fuzz(&src).0);
        assert_eq!(fuzz(&src).0, Some(vec![1024]));
    }
}
