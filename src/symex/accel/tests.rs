//! Acceleration against the step-by-step run: the same end, the same edges, the same values.

use super::Rel;
use crate::base::SourceFile;
use crate::cfa::{self, Cfa};
use crate::cfront::{self, ir::Program, types::DataModel};
use crate::symex::{interpret, interpret_accelerated, ConcreteEnd, Property};

fn build(src: &str) -> (Program, Cfa) {
    let (mut prog, _) =
        cfront::parse_program(SourceFile::new("test.c", src.to_string()), DataModel::Ilp32).expect("parses");
    let (cfa, _) = cfa::build(&mut prog, &Default::default()).expect("CFA");
    (prog, cfa)
}

/// The first failure in closed form agrees with counting.
#[test]
fn the_first_failure_is_where_counting_finds_it() {
    let rels = [Rel::Lt, Rel::Le, Rel::Gt, Rel::Ge, Rel::Eq, Rel::Ne];
    for rel in rels {
        for b in -12i128..=12 {
            for a in -5i128..=5 {
                if !rel.holds(b) {
                    continue;
                }
                let counted = (0..200).find(|&i| !rel.holds(b + a * i));
                assert_eq!(rel.first_failure(b, a), counted, "{b} + {a}·i {rel:?} 0");
            }
        }
    }
}

const ASSERT: &str =
    "void reach_error(void);\nvoid __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();} } return; }\n";

#[test]
fn a_counting_loop_of_two_to_the_27_is_jumped_over() {
    let src = format!("{ASSERT}int main(void) {{\n  unsigned int x = 0;\n  while (x < 0x0fffffff) {{\n    x += 2;\n  }}\n  __VERIFIER_assert(x % 2);\n}}\n");
    let (prog, cfa) = build(&src);
    let run = interpret_accelerated(&prog, &cfa, Property::UnreachCall, &[], 10_000);
    assert_eq!(run.end, ConcreteEnd::Violation);
    assert!(run.trace.has_repeats());
    let (_, repeats) = run.trace.parts();
    assert_eq!(repeats[0].times, 0x0800_0000);
}

#[test]
fn an_outer_loop_around_a_constant_inner_loop_is_jumped_over() {
    let src = format!("{ASSERT}int main(void) {{\n  unsigned int x = 0;\n  unsigned int y = 0;\n  while (x < 0x0fffffff) {{\n    y = 0;\n    while (y < 10) {{\n      y++;\n    }}\n    x++;\n  }}\n  __VERIFIER_assert(!(x % 2));\n}}\n");
    let (prog, cfa) = build(&src);
    let run = interpret_accelerated(&prog, &cfa, Property::UnreachCall, &[], 100_000);
    assert_eq!(
        run.end,
        ConcreteEnd::Violation,
        "{:?}",
        run.trace.parts().1.iter().map(|r| (r.body.len(), r.times)).collect::<Vec<_>>()
    );
}

/// A small deterministic generator of loop programs (a linear congruential sequence).
struct Gen(u64);

impl Gen {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }

    fn constant(&mut self) -> i64 {
        [0, 1, 2, 3, 5, 7, 10, 100, 1000, 4999][self.next(10) as usize]
    }

    fn var(&mut self) -> &'static str {
        ["a", "b", "c", "d"][self.next(4) as usize]
    }

    fn relation(&mut self) -> &'static str {
        ["<", "<=", ">", ">=", "!=", "=="][self.next(6) as usize]
    }

    fn statement(&mut self, depth: u32) -> String {
        let v = self.var();
        match self.next(if depth > 0 { 6 } else { 9 }) {
            0 => format!("{v} += {};", self.constant()),
            1 => format!("{v} -= {};", self.constant()),
            2 => format!("{v} = {};", self.constant()),
            3 => format!("{v}++;"),
            4 => format!("{v} = {v} + {} * {};", self.var(), self.constant()),
            5 => format!("{v} = step({v});"),
            6 => {
                let (x, rel, k) = (self.var(), self.relation(), self.constant());
                format!(
                    "if ({x} {rel} {k}) {{ {} }} else {{ {} }}",
                    self.statement(depth + 1),
                    self.statement(depth + 1)
                )
            }
            7 => {
                let w = self.var();
                format!("{w} = 0; while ({w} < {}) {{ {w}++; }}", self.constant() % 20)
            }
            _ => format!("__VERIFIER_assert({v} != {});", self.constant()),
        }
    }

    fn program(&mut self) -> String {
        let ty = |g: &mut Gen| ["unsigned int", "int", "unsigned char", "long long"][g.next(4) as usize];
        let mut src = format!("{ASSERT}int step(int z) {{ return z + {}; }}\n", self.constant() % 8);
        src += "int main(void) {\n";
        for v in ["a", "b", "c", "d"] {
            src += &format!("  {} {v} = {};\n", ty(self), self.constant());
        }
        // Mostly a loop that counts `x` towards a bound, with other statements around the step.
        let x = ["a", "b", "c", "d"][self.next(4) as usize];
        let s = 1 + self.next(4);
        let (cond, step) = match self.next(4) {
            0 => (
                format!("{x} {} {}", ["<", "<=", "!="][self.next(3) as usize], 1000 + self.next(4000)),
                format!("{x} += {s};"),
            ),
            1 => {
                (format!("{x} {} {}", [">", ">=", "!="][self.next(3) as usize], self.next(50)), format!("{x} -= {s};"))
            }
            _ => {
                let (rel, k) = (self.relation(), self.constant());
                (format!("{x} {rel} {k}"), self.statement(0))
            }
        };
        let mut body: Vec<String> = (0..self.next(4)).map(|_| self.statement(0)).collect();
        let at = self.next(body.len() as u64 + 1) as usize;
        body.insert(at, step);
        src += &format!("  while ({cond}) {{\n    {}\n  }}\n", body.join("\n    "));
        for v in ["a", "b", "c", "d"] {
            src += &format!("  if ({v} % 7 == {}) {{ a = 1; }}\n", self.next(7));
        }
        src += &format!("  __VERIFIER_assert(a != {});\n  return 0;\n}}\n", self.constant());
        src
    }
}

/// On random loop programs, the accelerated run takes the same edges and ends the same way as the
/// run that takes every iteration; acceleration happens on a good share of them.
#[test]
fn random_loops_run_the_same_with_and_without_acceleration() {
    let mut g = Gen(0x5eed_acce_1e7a_7e00);
    let (mut compared, mut jumped) = (0, 0);
    for _ in 0..400 {
        let src = g.program();
        let (prog, cfa) = build(&src);
        let slow = interpret(&prog, &cfa, Property::UnreachCall, &[], 300_000);
        if slow.end == ConcreteEnd::StepLimit {
            continue;
        }
        let fast = interpret_accelerated(&prog, &cfa, Property::UnreachCall, &[], 300_000);
        assert_eq!(fast.end, slow.end, "{src}");
        assert!(fast.trace == slow.trace, "{src}");
        compared += 1;
        jumped += usize::from(fast.trace.has_repeats());
    }
    assert!(compared >= 200 && jumped >= 60, "{compared} compared, {jumped} accelerated");
}

#[test]
fn the_explorer_jumps_where_the_interpreter_does() {
    use crate::symex::{explore, Exhaustive, ExploreConfig, PathEnd};
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/c/verify/deep_input.c"))
        .expect("fixture");
    let (prog, cfa) = build(&src);
    let mut ex = explore(&prog, &cfa, ExploreConfig::default(), Exhaustive);
    let o = ex.find(|o| o.end == PathEnd::Violation).expect("a violation");
    assert!(o.path.has_repeats());
}
