//! Tests of the exploration: the set of paths explored for small programs, eager pruning of
//! infeasible branches, the guide API, state caching, memory and C semantics through whole programs,
//! and the concrete replay.

use std::collections::BTreeSet;

use super::*;
use crate::base::SourceFile;
use crate::cfa::{self, Cfa, EdgeId, NodeId};
use crate::cfront::{self, ir::Program, types::DataModel};

fn build(src: &str, dm: DataModel) -> (Program, Cfa) {
    let (mut prog, _) = cfront::parse_program(SourceFile::new("test.c", src.to_string()), dm).expect("parses");
    let (cfa, _) = cfa::build(&mut prog, &Default::default()).expect("CFA");
    (prog, cfa)
}

/// The source lines of a path's edges, consecutive repeats merged.
fn lines(cfa: &Cfa, path: &PathEdges) -> String {
    let mut res: Vec<u32> = Vec::new();
    for e in path.edges() {
        if let Some((a, _)) = cfa.edge(e).lines {
            if res.last() != Some(&a) {
                res.push(a);
            }
        }
    }
    res.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(" ")
}

fn end_name(end: &PathEnd) -> String {
    match end {
        PathEnd::Cut(r) => format!("Cut({r})"),
        other => format!("{other:?}"),
    }
}

/// Explores `src` and returns one line per outcome (`End: lines`), in the order they ended.
fn paths_with(src: &str, config: ExploreConfig) -> Vec<String> {
    let (prog, cfa) = build(src, DataModel::Ilp32);
    explore(&prog, &cfa, config, Exhaustive)
        .map(|o| format!("{}: {}", end_name(&o.end), lines(&cfa, &o.path)))
        .collect()
}

fn check_paths(src: &str, expect: &str) {
    let got = paths_with(src, ExploreConfig::default()).join("\n");
    assert_eq!(got.trim(), expect.trim(), "\n--- got ---\n{got}\n");
}

/// The verdict `verify` would give: `true`, `false` (replayed), or `unknown`.
fn verdict_with(src: &str, dm: DataModel, config: ExploreConfig) -> &'static str {
    let (prog, cfa) = build(src, dm);
    let property = config.property;
    let mut ex = explore(&prog, &cfa, config, Exhaustive);
    for o in ex.by_ref() {
        if o.end == PathEnd::Violation {
            let inputs = o.inputs.expect("a violation has inputs");
            let r = interpret(&prog, &cfa, property, &inputs, 1_000_000);
            assert_eq!(r.end, ConcreteEnd::Violation, "the counterexample replays");
            assert_eq!(r.trace.to_vec(), o.path.edges(), "the replay takes the same path");
            return if o.approx.violation_is_real() { "false" } else { "unknown" };
        }
    }
    let s = ex.summary();
    if s.exhausted && s.cuts == 0 && s.approx.is_empty() {
        "true"
    } else {
        "unknown"
    }
}

fn verdict(src: &str) -> &'static str {
    verdict_with(src, DataModel::Ilp32, ExploreConfig { self_check: true, ..Default::default() })
}

const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\nextern unsigned int __VERIFIER_nondet_uint(void);\nvoid reach_error(void);\nvoid abort(void);\n";

/// `src` with the usual declarations in front (on one line, so line numbers start at 2).
fn with_prelude(src: &str) -> String {
    format!("{}{src}", PRELUDE.replace('\n', " "))
}

#[test]
fn three_paths() {
    check_paths(
        "int __VERIFIER_nondet_int();
int main() {
  int i = __VERIFIER_nondet_int();
  if (i == 0) {
    i = i - 2;
    return 1;
  } else if (i > 5) {
    i = i + 5;
    return 2;
  }
  return 3;
}
",
        "
Exit: 1 2 3 4 5 6
Exit: 1 2 3 4 7 8 9
Exit: 1 2 3 4 7 11
",
    );
}

#[test]
fn infeasible_branches_are_never_explored() {
    // x > 5 makes x < 3 infeasible: the then-branch of the inner if (line 5) is reported as an
    // infeasible successor and nothing after it is explored.
    let got = paths_with(
        "int __VERIFIER_nondet_int();
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 5) {
    if (x < 3) {
      x = 1;
      x = 2;
    }
    return 0;
  }
  return 1;
}
",
        ExploreConfig::default(),
    );
    assert_eq!(got, vec!["Infeasible: 1 2 3 4 5", "Exit: 1 2 3 4 5 9", "Exit: 1 2 3 4 11"]);
    assert!(got.iter().all(|p| !p.contains(" 6")), "line 6 is never executed");
}

#[test]
fn eager_check_counts() {
    let (prog, cfa) = build(
        "int __VERIFIER_nondet_int();
int main() { int x = __VERIFIER_nondet_int(); if (x > 5) { if (x < 3) { return 2; } } return 0; }
",
        DataModel::Ilp32,
    );
    let mut ex = explore(&prog, &cfa, ExploreConfig::default(), Exhaustive);
    let ends: Vec<PathEnd> = ex.by_ref().map(|o| o.end).collect();
    assert_eq!(ends.iter().filter(|e| **e == PathEnd::Infeasible).count(), 1);
    assert_eq!(ex.stats().infeasible, 1);
    assert_eq!(ex.stats().exits, 2);
}

#[test]
fn calls_and_recursion_are_inlined() {
    let src = with_prelude(
        "int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 5) return 0;
  if (fact(n) == 24 && n != 4) reach_error();
  if (fact(n) == 120) { if (n == 5) reach_error(); }
  return 0;
}
",
    );
    assert_eq!(verdict(&src), "false");
    let safe = with_prelude(
        "int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 5) return 0;
  if (fact(n) == 24 && n != 4) reach_error();
  return 0;
}
",
    );
    assert_eq!(verdict(&safe), "true");
}

#[test]
fn modes_and_strategies_agree() {
    let programs = [
        (
            "int main() { unsigned x = __VERIFIER_nondet_uint(); unsigned y = 0; while (x > 0 && y < 5) { x--; y++; } if (y == 5 && x == 0) reach_error(); return 0; }",
            "false",
        ),
        (
            "int main() { int a = __VERIFIER_nondet_int(); int s = 0; for (int i = 0; i < 4; i++) { if (a & (1 << i)) s++; } if (s > 4) reach_error(); return 0; }",
            "true",
        ),
        ("int main() { int x = __VERIFIER_nondet_int(); if (x * x == 49 && x != 7 && x != -7) reach_error(); return 0; }", "false"),
    ];
    for (src, expect) in programs {
        let src = with_prelude(src);
        for strategy in [Strategy::Dfs, Strategy::Bfs] {
            for mode in [Mode::Full, Mode::Partial] {
                for state_caching in [true, false] {
                    let config =
                        ExploreConfig { strategy, mode, state_caching, self_check: true, ..Default::default() };
                    assert_eq!(verdict_with(&src, DataModel::Ilp32, config), expect, "{strategy:?} {mode:?} {src}");
                }
            }
        }
    }
}

#[test]
fn unwinding_bound_cuts_and_prevents_true() {
    let src = with_prelude(
        "int main() { int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) { i++; } if (i < 0) reach_error(); return 0; }",
    );
    let config = ExploreConfig { unwind: Some(3), ..Default::default() };
    assert_eq!(verdict_with(&src, DataModel::Ilp32, config), "unknown");
    let (prog, cfa) = build(&src, DataModel::Ilp32);
    let mut ex = explore(&prog, &cfa, ExploreConfig { unwind: Some(3), ..Default::default() }, Exhaustive);
    let cuts = ex.by_ref().filter(|o| matches!(o.end, PathEnd::Cut(CutReason::Unwind(_)))).count();
    assert_eq!(cuts, 1);
    assert!(ex.summary().exhausted && ex.summary().cuts == 1);
}

#[test]
fn state_caching_proves_finite_state_loops() {
    // A scheduler-like `while (1)` over a two-state machine with nondeterministic choices.
    let src = with_prelude(
        "int st = 0; int done = 0;
void step(void) { int c = __VERIFIER_nondet_int(); if (c) { st = 1 - st; } }
int main() { while (1) { step(); if (st != 0 && st != 1) reach_error(); } return 0; }",
    );
    assert_eq!(verdict(&src), "true");
    let off = ExploreConfig {
        state_caching: false,
        budget: Budget::with_time_limit(std::time::Duration::from_millis(300)),
        ..Default::default()
    };
    assert_eq!(verdict_with(&src, DataModel::Ilp32, off), "unknown", "without caching the loop never ends");
    // A bug behind the loop is still found.
    let bug = with_prelude(
        "int st = 0;
int main() { int k = 0; while (1) { int c = __VERIFIER_nondet_int(); if (c) st = (st + 1) % 4; if (st == 3) reach_error(); } return 0; }",
    );
    assert_eq!(verdict(&bug), "false");
}

#[test]
fn a_state_being_explored_is_waited_for_not_explored_again() {
    // Both arms of each choice lead to the same state at the loop head: depth-first search prunes
    // the second arm by the first one's explored entry. Breadth-first search meets the second arm
    // while the first one's entry is still being explored; exploring it beside would double the
    // paths at every iteration (2^12 of them), waiting for it keeps them linear.
    let src = with_prelude(
        "int main() { int x = 0; for (int i = 0; i < 12; i++) { if (__VERIFIER_nondet_int()) x = 1; else x = 1; } \
         if (x != 1) reach_error(); return 0; }",
    );
    let (prog, cfa) = build(&src, DataModel::Ilp32);
    for strategy in [Strategy::Dfs, Strategy::Bfs] {
        let mut ex = explore(&prog, &cfa, ExploreConfig { strategy, ..Default::default() }, Exhaustive);
        let paths = ex.by_ref().count();
        let s = ex.summary();
        assert!(s.exhausted && s.cuts == 0, "{strategy:?}: the exploration ends");
        assert!(paths < 100, "{strategy:?}: {paths} paths");
        assert!(ex.stats().cache.hits >= 11, "{strategy:?}: the second arms are pruned as covered");
    }
    assert_eq!(verdict(&src), "true");
}

#[test]
fn state_caching_keeps_constrained_inputs_apart() {
    // x stays symbolic; the loop's exits depend on its range, so the states at the head differ in
    // their relevant constraints and must not be merged wrongly.
    let src = with_prelude(
        "int main() { int x = __VERIFIER_nondet_int(); int phase = 0;
  while (1) {
    if (phase == 0) { if (x > 10) phase = 1; else phase = 2; }
    else if (phase == 1) { if (x < 5) reach_error(); phase = 3; }
    else if (phase == 2) { if (x == 7) reach_error(); phase = 3; }
    else break;
  }
  return 0; }",
    );
    assert_eq!(verdict(&src), "false");
}

#[test]
fn memory_structs_unions_arrays_pointers() {
    let src = with_prelude(
        "struct s { char c; int i; short h; };
union u { unsigned int w; unsigned char b[4]; };
int g[5] = {1, 2, 3};
int main() {
  struct s a; a.c = 1; a.i = 300; a.h = -2;
  struct s b = a;
  if (b.i != 300 || b.h != -2 || sizeof(struct s) != 12) reach_error();
  union u x; x.w = 0x11223344u;
  if (x.b[0] != 0x44 || x.b[3] != 0x11) reach_error();
  int *p = &g[1];
  p = p + 2;
  if (*p != 0 || p - g != 3 || g[2] != 3) reach_error();
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < 3) { g[i] = 10; if (g[0] + g[1] + g[2] != 10 + 6 - (i + 1)) reach_error(); }
  struct s *q = &a; q->i += 1; if (a.i != 301) reach_error();
  return 0;
}",
    );
    assert_eq!(verdict(&src), "true");
}

#[test]
fn memory_heap_and_library_functions() {
    let src = with_prelude(
        "void *malloc(unsigned long); void *calloc(unsigned long, unsigned long); void free(void *);
void *memcpy(void *, const void *, unsigned long); void *memset(void *, int, unsigned long);
int main() {
  int *a = malloc(4 * sizeof(int));
  int *z = calloc(2, sizeof(int));
  if (z[0] != 0 || z[1] != 0) reach_error();
  memset(a, 0xff, 4 * sizeof(int));
  if (a[3] != -1) reach_error();
  int src[2] = {7, 8};
  memcpy(a + 1, src, sizeof(src));
  if (a[0] != -1 || a[1] != 7 || a[2] != 8) reach_error();
  free(a); free(z); free(0);
  return 0;
}",
    );
    assert_eq!(verdict_with(&src, DataModel::Lp64, ExploreConfig::default()), "true");
}

#[test]
fn invalid_accesses_are_cut_not_proved() {
    // A possible out-of-bounds write makes the result unknown; where it cannot happen, TRUE.
    let oob = with_prelude(
        "int a[4]; int main() { int i = __VERIFIER_nondet_int(); if (i >= 0 && i <= 4) a[i] = 1; return 0; }",
    );
    assert_eq!(verdict(&oob), "unknown");
    let ok = with_prelude(
        "int a[4]; int main() { int i = __VERIFIER_nondet_int(); if (i >= 0 && i < 4) a[i] = 1; return 0; }",
    );
    assert_eq!(verdict(&ok), "true");
    let null = with_prelude("int main() { int *p = 0; int c = __VERIFIER_nondet_int(); if (c) p = &c; return *p; }");
    assert_eq!(verdict(&null), "unknown");
    let div = with_prelude("int main() { int d = __VERIFIER_nondet_int(); return 10 / d; }");
    assert_eq!(verdict(&div), "unknown");
    let div_ok = with_prelude("int main() { int d = __VERIFIER_nondet_int(); if (d > 0) return 10 / d; return 0; }");
    assert_eq!(verdict(&div_ok), "true");
}

#[test]
fn a_block_of_a_symbolic_size_is_in_bounds_exactly_below_that_size() {
    let program = |fill_to: &str, check: &str| {
        with_prelude(&format!(
            "void *malloc(unsigned long);
int main() {{
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 6) return 0;
  int *x = malloc(n * sizeof(int));
  for (int i = 0; i {fill_to}; i++) x[i] = i;
  for (int i = 0; i < n; i++) if ({check}) reach_error();
  return 0;
}}"
        ))
    };
    // Every access below `n` elements: proved, with no approximation (before, the block was fresh
    // memory of the largest size, and TRUE out of reach).
    for dm in [DataModel::Ilp32, DataModel::Lp64] {
        let ok = program("< n", "x[i] != i");
        assert_eq!(verdict_with(&ok, dm, ExploreConfig { self_check: true, ..Default::default() }), "true");
    }
    // One element past the end for every `n`: undefined behaviour, never TRUE.
    assert_eq!(verdict(&program("<= n", "x[i] != i")), "unknown");
    // A violation behind the block, which the interpreter replays with a block of that size.
    assert_eq!(verdict(&program("< n", "x[i] == 5")), "false");
    // A size the address layout cannot hold is cut, not explored in a smaller block.
    let huge = with_prelude(
        "void *malloc(unsigned long);
int main() { unsigned n = __VERIFIER_nondet_uint(); char *p = malloc(n); if (n > 4) p[4] = 1; return 0; }",
    );
    assert_eq!(verdict(&huge), "unknown");
    // `calloc` of a symbolic count: the size is a 128-bit product.
    let zeroed = with_prelude(
        "void *calloc(unsigned long, unsigned long);
int main() { unsigned n = __VERIFIER_nondet_uint(); if (n < 1 || n > 9) return 0;
  int *p = calloc(n, sizeof(int)); p[0] = 3; if (n > 2 && p[2] == 0) reach_error(); return 0; }",
    );
    assert_eq!(verdict(&zeroed), "false");
    // The size is part of the state: at the loop head the two blocks hold the same bytes, and only
    // the one of `n - 1` elements can be too small for `x[1]` (whichever branch is explored first).
    for sizes in ["c ? n : n - 1", "c ? n - 1 : n"] {
        let src = with_prelude(&format!(
            "void *malloc(unsigned long);
int main() {{
  int c = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  if (n < 2 || n > 3) return 0;
  int *x = malloc(({sizes}) * sizeof(int));
  for (int r = 0; r < 2; r++) x[1] = r;
  return 0;
}}"
        ));
        assert_eq!(verdict(&src), "unknown", "{sizes}");
    }
}

#[test]
fn an_access_a_path_went_past_in_bounds_is_not_checked_again() {
    // The second loop reads only what the first wrote, each path past a write that was in bounds:
    // only the writes of the one path that goes on filling need the solver, not the reads of the
    // paths that leave it at each `n` (before: every read, one solver call each).
    let src = with_prelude(
        "void *malloc(unsigned long);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 40) return 0;
  int *x = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) x[i] = 0;
  for (int i = 0; i < n; i++) if (x[i] != 0) reach_error();
  return 0;
}",
    );
    let (prog, cfa) = build(&src, DataModel::Ilp32);
    let mut ex = explore(&prog, &cfa, ExploreConfig::default(), Exhaustive);
    assert!(ex.by_ref().all(|o| o.end != PathEnd::Violation));
    let s = ex.summary();
    assert!(s.exhausted && s.cuts == 0 && s.approx.is_empty());
    assert!(ex.stats().ub_checks <= 40, "{} checks", ex.stats().ub_checks);
}

#[test]
fn c_integer_rules_in_programs() {
    let src = with_prelude(
        "int main() {
  if ((unsigned char)300 != 44) reach_error();
  if (-1 < 1u) reach_error();
  int m = 2147483647; m = m + 1; if (m != -2147483647 - 1) reach_error();
  if (-7 % 2 != -1 || 7 % -2 != 1 || -7 / 2 != -3) reach_error();
  if ((-8 >> 1) != -4 || (1u << 31) != 2147483648u) reach_error();
  signed char c = 200; if (c != -56) reach_error();
  _Bool b = 256; if (b != 1) reach_error();
  unsigned short us = 65535; us++; if (us != 0) reach_error();
  long long ll = 1LL << 40; if ((int)ll != 0) reach_error();
  return 0;
}",
    );
    assert_eq!(verdict(&src), "true");
    // Symbolic versions of the same rules.
    let sym = with_prelude(
        "int main() { int x = __VERIFIER_nondet_int(); unsigned char c = x; if (x == 300 && c != 44) reach_error();
  unsigned u = x; if (x == -1 && u < 1u) reach_error(); return 0; }",
    );
    assert_eq!(verdict(&sym), "true");
}

#[test]
fn function_pointers_are_resolved() {
    let src = with_prelude(
        "int inc(int x) { return x + 1; } int dec(int x) { return x - 1; }
int main() { int (*f)(int) = __VERIFIER_nondet_int() ? inc : dec; if (f(5) == 4 && f != dec) reach_error(); if (f(1) == 2) reach_error(); return 0; }",
    );
    assert_eq!(verdict(&src), "false");
}

#[test]
fn unknown_functions_block_true_but_not_false() {
    let writes =
        with_prelude("void init(int *p); int main() { int x = 0; init(&x); if (x != 0) reach_error(); return 0; }");
    assert_eq!(verdict(&writes), "unknown");
    let pure = with_prelude("int get(void); int main() { int x = get(); if (x == 42) reach_error(); return 0; }");
    assert_eq!(verdict(&pure), "false");
    let safe = with_prelude("int get(void); int main() { int x = get(); if (x != x) reach_error(); return 0; }");
    assert_eq!(verdict(&safe), "true");
}

#[test]
fn error_labels() {
    let src = "int __VERIFIER_nondet_int(); int main() { int x = __VERIFIER_nondet_int(); if (x == 3) { ERROR: return 1; } return 0; }";
    let config = ExploreConfig { property: Property::ErrorLabel, ..Default::default() };
    assert_eq!(verdict_with(src, DataModel::Ilp32, config), "false");
    assert_eq!(verdict(src), "true", "labels are no violation for unreach-call");
}

#[test]
fn assume_and_abort_end_paths() {
    let src = with_prelude(
        "void __VERIFIER_assume(int); int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 0); if (x == 0) reach_error(); if (x == 5) abort(); if (x == 5) reach_error(); return 0; }",
    );
    assert_eq!(verdict(&src), "true");
}

/// A guide that records the tags it sees, prunes the then-branch at line 4, and orders the
/// else-branch first elsewhere.
struct Recorder {
    pruned_line: u32,
    calls: usize,
}

impl Guide for Recorder {
    type Tag = u32;

    fn initial_tag(&mut self) -> u32 {
        0
    }

    fn on_edge(&mut self, cfa: &Cfa, tag: &mut u32, edge: EdgeId) -> Step {
        self.calls += 1;
        *tag += 1;
        let e = cfa.edge(edge);
        if e.lines.map(|l| l.0) == Some(self.pruned_line)
            && matches!(e.kind, crate::cfa::EdgeKind::Assume { truth: true, .. })
        {
            return Step::Prune;
        }
        Step::Continue
    }

    fn order(&mut self, _cfa: &Cfa, _node: NodeId, succs: &mut [Succ<u32>]) {
        succs.reverse();
    }
}

#[test]
fn guide_tags_prunes_and_orders() {
    let src = "int __VERIFIER_nondet_int();
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 0) { x = 1; }
  if (x < -5) { x = 2; }
  return x;
}
";
    let (prog, cfa) = build(src, DataModel::Ilp32);
    let mut ex = explore(&prog, &cfa, ExploreConfig::default(), Recorder { pruned_line: 4, calls: 0 });
    let outcomes: Vec<_> = ex.by_ref().collect();
    let got: Vec<String> = outcomes
        .iter()
        .map(|o| {
            let last = cfa.edge(o.path.last().expect("edge"));
            format!("{:?} {} {}", o.end, lines(&cfa, &o.path), last.text)
        })
        .collect();
    // Line 4's then-branch is pruned; line 5's successors come in reverse CFA order (else first).
    assert_eq!(got, vec!["Pruned 1 2 3 4 [x > 0]", "Exit 1 2 3 4 5 6 return x;", "Exit 1 2 3 4 5 6 return x;"]);
    let second: Vec<String> = outcomes[1..]
        .iter()
        .map(|o| {
            let e = o.path.edges().into_iter().find(|&e| cfa.edge(e).text.contains("-5")).expect("branch at line 5");
            cfa.edge(e).text.to_string()
        })
        .collect();
    assert_eq!(second, vec!["[!(x < -5)]", "[x < -5]"]);
    assert!(ex.guide().calls > 0);
    let s = ex.summary();
    assert!(s.exhausted && s.pruned == 1, "a pruned path makes the exploration incomplete: {s:?}");
    // Each edge a path took (or was refused) updated its own copy of the tag once.
    for o in &outcomes {
        assert_eq!(o.tag as usize, o.path.len(), "{:?}", o.end);
    }
}

/// A guide that asks for completion only at the first branch.
struct Completer;

impl Guide for Completer {
    type Tag = bool;

    fn initial_tag(&mut self) -> bool {
        false
    }

    fn on_edge(&mut self, cfa: &Cfa, tag: &mut bool, edge: EdgeId) -> Step {
        if !*tag && matches!(cfa.edge(edge).kind, crate::cfa::EdgeKind::Assume { .. }) {
            *tag = true;
            return Step::CompletionOnly;
        }
        Step::Continue
    }
}

#[test]
fn completion_only_keeps_one_continuation() {
    let src = "int __VERIFIER_nondet_int();
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 0) { x = 1; } else { x = 2; }
  if (__VERIFIER_nondet_int()) { x = 3; }
  return x;
}
";
    let (prog, cfa) = build(src, DataModel::Ilp32);
    let ends_with = |accept: bool| {
        let mut ex = explore(&prog, &cfa, ExploreConfig::default(), Completer);
        let mut ends = Vec::new();
        while let Some(o) = ex.next() {
            if accept {
                ex.accept_completion(&o);
            }
            ends.push(o.end);
        }
        ends
    };
    // Both successors of the first branch start their own completion group: one accepted exit
    // each, the rest of each group dropped.
    let ends = ends_with(true);
    assert_eq!(ends.iter().filter(|e| **e == PathEnd::Exit).count(), 2, "{ends:?}");
    assert_eq!(ends.iter().filter(|e| **e == PathEnd::Dropped).count(), 2, "{ends:?}");
    // A caller that accepts no completion (its replay disagreed, say) gets every continuation.
    let ends = ends_with(false);
    assert_eq!(ends.iter().filter(|e| **e == PathEnd::Exit).count(), 4, "{ends:?}");
    assert!(!ends.contains(&PathEnd::Dropped), "{ends:?}");
}

#[test]
fn outcomes_carry_typed_inputs_in_call_order() {
    let src = with_prelude(
        "extern unsigned char __VERIFIER_nondet_uchar(void); extern _Bool __VERIFIER_nondet_bool(void);
int main() { int a = __VERIFIER_nondet_int(); unsigned char b = __VERIFIER_nondet_uchar(); _Bool c = __VERIFIER_nondet_bool();
  if (a == -3 && b == 200 && c) reach_error(); return 0; }",
    );
    let (prog, cfa) = build(&src, DataModel::Ilp32);
    let o = explore(&prog, &cfa, ExploreConfig::default(), Exhaustive)
        .find(|o| o.end == PathEnd::Violation)
        .expect("violation");
    let inputs = o.inputs.expect("inputs");
    let vals: Vec<(u32, i128)> = inputs.iter().map(|i| (i.bits, i.signed())).collect();
    assert_eq!(vals, vec![(32, -3), (8, -56), (8, 1)]);
    let types: Vec<String> = inputs.iter().map(|i| prog.types.display(i.ty.expect("typed"))).collect();
    assert_eq!(types, vec!["int", "unsigned char", "_Bool"]);
}

#[test]
fn the_interpreter_rejects_wrong_inputs() {
    let src = with_prelude("int main() { int x = __VERIFIER_nondet_int(); if (x == 12345) reach_error(); return 0; }");
    let (prog, cfa) = build(&src, DataModel::Ilp32);
    let o = explore(&prog, &cfa, ExploreConfig::default(), Exhaustive)
        .find(|o| o.end == PathEnd::Violation)
        .expect("violation");
    let mut inputs = o.inputs.clone().expect("inputs");
    let good = interpret(&prog, &cfa, Property::UnreachCall, &inputs, 1000);
    assert_eq!(good.end, ConcreteEnd::Violation);
    assert_eq!(good.trace.to_vec(), o.path.edges());
    // A wrong value takes the other branch: the self-check fails.
    inputs[0].value = 7;
    let bad = interpret(&prog, &cfa, Property::UnreachCall, &inputs, 1000);
    assert_eq!(bad.end, ConcreteEnd::Exit);
    assert_ne!(bad.trace.to_vec(), o.path.edges());
    // Missing inputs, or inputs of another call, make the run diverge.
    assert_eq!(interpret(&prog, &cfa, Property::UnreachCall, &[], 1000).end, ConcreteEnd::Diverged);
}

#[test]
fn the_acceptance_rule_counts_only_paths_the_interpreter_takes_the_same_way() {
    let src = with_prelude(
        "int *get(void); int main() { int x = __VERIFIER_nondet_int(); if (x == 12345) reach_error(); \
         int *p = get(); if (p && x == 7) reach_error(); return 0; }",
    );
    let (prog, cfa) = build(&src, DataModel::Ilp32);
    let outcomes: Vec<_> = explore(&prog, &cfa, ExploreConfig::default(), Exhaustive).collect();
    let exit = outcomes.iter().find(|o| o.end == PathEnd::Exit).expect("an exit");
    let c = confirm(&prog, &cfa, Property::UnreachCall, exit, Approx::NONE).expect("a real execution is confirmed");
    assert_eq!(c.edges, exit.path.edges());
    // The first violation relies on nothing: confirmed.
    let real = outcomes.iter().find(|o| o.end == PathEnd::Violation && o.approx.is_empty()).expect("violation");
    assert!(confirm(&prog, &cfa, Property::UnreachCall, real, Approx::NONE).is_ok());
    // The second needs `get` to return fresh memory: one possible behaviour of the model only.
    let lazy = outcomes.iter().find(|o| o.end == PathEnd::Violation && !o.approx.is_empty()).expect("violation");
    let r = confirm(&prog, &cfa, Property::UnreachCall, lazy, Approx::NONE).unwrap_err();
    assert_eq!(r.why, Rejection::Approximated(lazy.approx));
    // Unless the user accepts fresh pointers: then it is a violation of the model, and says so.
    let c = confirm(&prog, &cfa, Property::UnreachCall, lazy, Approx::LAZY_MEMORY).expect("a violation of the model");
    assert_eq!(c.assumed, Approx::LAZY_MEMORY);
    let c = confirm(&prog, &cfa, Property::UnreachCall, real, Approx::LAZY_MEMORY).unwrap();
    assert!(c.assumed.is_empty(), "a real violation relies on nothing");
    // Wrong inputs take another path; no inputs, no confirmation.
    let mut wrong = real.clone();
    wrong.inputs.as_mut().unwrap()[0].value = 7;
    let r = confirm(&prog, &cfa, Property::UnreachCall, &wrong, Approx::NONE).unwrap_err();
    assert!(r.violation && matches!(r.why, Rejection::Diverged(_)), "{r}");
    let mut none = exit.clone();
    none.inputs = None;
    assert_eq!(confirm(&prog, &cfa, Property::UnreachCall, &none, Approx::NONE).unwrap_err().why, Rejection::NoModel);
}

#[test]
fn the_interpreter_reads_uninitialised_memory_as_inputs() {
    let src = with_prelude("int main() { int x; int y = x + 1; if (y == 8) reach_error(); return 0; }");
    assert_eq!(verdict(&src), "false");
}

#[test]
fn deterministic_outcomes() {
    let src = with_prelude(
        "int main() { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); if (a < b) { if (a + 1 == b) return 1; } else if (a == b) return 2; return 0; }",
    );
    let run = || {
        let (prog, cfa) = build(&src, DataModel::Ilp32);
        explore(&prog, &cfa, ExploreConfig::default(), Exhaustive)
            .map(|o| (o.end, o.path.edges(), o.inputs.map(|i| i.iter().map(|v| v.value).collect::<Vec<_>>())))
            .collect::<Vec<_>>()
    };
    let one = run();
    assert_eq!(one, run());
    let distinct: BTreeSet<&Vec<EdgeId>> = one.iter().map(|(_, e, _)| e).collect();
    assert_eq!(distinct.len(), one.len(), "every path is explored once");
}

#[test]
fn bit_fields() {
    let src = with_prelude(
        "struct flags { unsigned a : 3; int b : 5; unsigned c : 30; };
int main() {
  struct flags f = {0};
  f.a = 9; f.b = -3; f.c = 123456;
  if (f.a != 1 || f.b != -3 || f.c != 123456) reach_error();
  f.b = 15; f.b++; if (f.b != -16) reach_error();
  unsigned x = __VERIFIER_nondet_uint(); f.a = x; if (f.a > 7) reach_error();
  return 0;
}",
    );
    assert_eq!(verdict(&src), "true");
}

#[test]
fn only_pointers_to_list_links_are_links() {
    let (prog, _) = build(
        "struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct node { struct node *next; int payload; };
struct device { struct device *parent; int id; };
struct list_head *a; struct hlist_node *b; struct node *c; struct device *d; struct list_head **e; int *f;
int main(void) { return 0; }",
        DataModel::Lp64,
    );
    let linked = |name: &str| {
        let v = prog.vars.iter().find(|v| v.name == name).expect("variable");
        exec::points_to_linked_record(&prog.types, v.ty)
    };
    assert_eq!(["a", "b", "c", "d", "e", "f"].map(linked), [true, true, false, false, false, false]);
}

#[test]
fn unknown_pointers_point_to_fresh_memory_and_links_also_back_into_it() {
    // The `container_of` idiom on a pointer returned by a function without body: the path goes on
    // without cuts where the pointer is not null; the result is only an approximation.
    let src = with_prelude(
        "struct list { struct list *next; }; struct dev { int id; struct list node; };
struct list *get_node(void);
int main() {
  struct list *n = get_node();
  if (!n) return 0;
  struct dev *d = (struct dev *)((char *)n - __builtin_offsetof(struct dev, node));
  d->id = 5;
  if (d->id != 5) reach_error();
  if (d->node.next == n) return 2;
  return 1;
}",
    );
    let (prog, cfa) = build(&src, DataModel::Lp64);
    // Fresh memory aliases nothing: `d->node.next == n` is infeasible (the approximation). With
    // `alias_links` a link read from fresh memory may point back into it (the head of an empty list
    // points to itself), and it is feasible: three exits (null, a link to itself, another).
    for (alias_links, exits) in [(false, 2), (true, 3)] {
        let config = ExploreConfig { self_check: true, alias_links, ..Default::default() };
        let mut ex = explore(&prog, &cfa, config, Exhaustive);
        let ends: Vec<PathEnd> = ex.by_ref().map(|o| o.end).collect();
        assert!(!ends.iter().any(|e| matches!(e, PathEnd::Cut(_) | PathEnd::Violation)), "{ends:?}");
        assert_eq!(ends.iter().filter(|e| **e == PathEnd::Exit).count(), exits, "{alias_links}: {ends:?}");
        let s = ex.summary();
        assert!(s.exhausted && s.approx.contains(Approx::LAZY_MEMORY));
    }
    assert_eq!(verdict_with(&src, DataModel::Lp64, ExploreConfig::default()), "unknown");
}

#[test]
fn a_pointer_member_of_a_null_unknown_pointer_is_undefined() {
    // `intf` is never written: null or fresh memory. Reading the never-written pointer
    // `intf->dev.parent` is undefined where `intf` is null; where it is not, the member is a new
    // unknown pointer. Every execution the executor reports must replay.
    let src = include_str!("../../fixtures/c/coverage/unknown_pointer_member.c");
    let (prog, cfa) = build(src, DataModel::Ilp32);
    let outcomes: Vec<_> = explore(&prog, &cfa, ExploreConfig::default(), Exhaustive).collect();
    let ends: Vec<String> = outcomes.iter().map(|o| end_name(&o.end)).collect();
    assert!(ends.iter().any(|e| e.contains("invalid memory access")), "{ends:?}");
    let exits: Vec<_> = outcomes.iter().filter(|o| o.end == PathEnd::Exit).collect();
    assert_eq!(exits.len(), 2, "{ends:?}");
    for o in exits {
        let inputs = o.inputs.as_ref().expect("an exit has inputs");
        let r = interpret(&prog, &cfa, Property::UnreachCall, inputs, 1000);
        assert_eq!(r.end, ConcreteEnd::Exit, "the execution replays ({inputs:?})");
        assert_eq!(r.trace.to_vec(), o.path.edges(), "the replay takes the same path");
    }
}

/// The loop heads of `main`, in node order.
fn loop_heads(cfa: &Cfa) -> Vec<NodeId> {
    (0..cfa.n_nodes()).map(NodeId::from_idx).filter(|&n| cfa.node(n).loop_head).collect()
}

#[test]
fn counters_are_keyed_by_differences_only_where_every_use_ahead_allows_it() {
    let invariant = "int sent = 0; int acked = 1;
int main() { int copy; while (1) { sent = sent + 1; acked = acked + 1; copy = sent; if (copy != acked) { sent = copy; } } return 0; }";
    let (prog, cfa) = build(invariant, DataModel::Ilp32);
    assert_eq!(counters(&prog, &cfa).len(), 3, "sent, acked and the copy");
    let shift = shift::Shift::analyse(&prog, &cfa).expect("shift-invariant counters");
    assert!(loop_heads(&cfa).iter().all(|&h| shift.applies_at(h)));
    // Comparing a counter with a constant makes its value matter.
    let limit = "int n = 0; int main() { while (1) { n = n + 1; if (n == 300) { return 1; } } return 0; }";
    let (prog, cfa) = build(limit, DataModel::Ilp32);
    let heads = loop_heads(&cfa);
    assert!(shift::Shift::analyse(&prog, &cfa).is_none_or(|s| heads.iter().all(|&h| !s.applies_at(h))));
    // So does a counter whose address is taken, and one narrower than `int`.
    let escaping = "int n = 0; int *p; int main() { p = &n; while (1) { n = n + 1; } return 0; }";
    let (prog, cfa) = build(escaping, DataModel::Ilp32);
    assert!(shift::Shift::analyse(&prog, &cfa).is_none());
    let narrow = "char n = 0; char m = 1; int main() { while (1) { n = n + 1; m = m + 1; if (n == m) { return 1; } } return 0; }";
    let (prog, cfa) = build(narrow, DataModel::Ilp32);
    assert!(shift::Shift::analyse(&prog, &cfa).is_none());
}

/// `Completer` that orders branches away from the exit (a loop's body before its exit), and deems
/// every completion worth a best-first copy if `worthy`.
struct Diver {
    worthy: bool,
}

impl Guide for Diver {
    type Tag = bool;

    fn initial_tag(&mut self) -> bool {
        false
    }

    fn on_edge(&mut self, cfa: &Cfa, tag: &mut bool, edge: EdgeId) -> Step {
        Completer.on_edge(cfa, tag, edge)
    }

    fn order(&mut self, cfa: &Cfa, _node: NodeId, succs: &mut [Succ<bool>]) {
        succs.sort_by_key(|s| std::cmp::Reverse(cfa.node(cfa.edge(s.edge).dst).postorder));
    }

    fn completion_worth(&self, _tag: &bool) -> u32 {
        self.worthy as u32
    }
}

#[test]
fn a_best_first_copy_finds_the_way_out_where_depth_first_search_dives() {
    // Depth-first search dives into the loop (body first; the counter keeps every state new) and
    // backtracks through the deep iterations first, where the way out ends in an endless loop; the
    // terminating way out is a branch away from the loop's first iteration.
    let src = "int __VERIFIER_nondet_int();
int main() {
  int i = 0;
  if (__VERIFIER_nondet_int()) { i = 1; }
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int()) { i = i + 2; } else { i = i + 3; }
  }
  if (i > 4) { while (1) { } }
  return i;
}
";
    let (prog, cfa) = build(src, DataModel::Ilp32);
    // The first completion among the first 5 000 ended paths: (found by a copy, its length, edges
    // the depth-first search had executed).
    fn first_exit<G: Guide>(mut ex: Explorer<'_, G>) -> Option<(bool, usize, u64)> {
        for _ in 0..5_000 {
            let o = ex.next()?;
            if o.end == PathEnd::Exit {
                return Some((o.best_first, o.path.len(), ex.edges_executed()));
            }
        }
        None
    }
    let plain = first_exit(explore(&prog, &cfa, ExploreConfig::default(), Diver { worthy: false }));
    let (best_first, len, edges) =
        first_exit(explore(&prog, &cfa, ExploreConfig::default(), Diver { worthy: true })).expect("a completion");
    assert!(best_first, "found by the copy: {plain:?} vs {:?}", (best_first, len, edges));
    assert!(len < 30, "the short way out: {len} edges");
    // Depth-first search alone finds it later, if at all.
    if let Some((_, _, plain_edges)) = plain {
        assert!(plain_edges > edges, "depth-first alone: {plain_edges} edges, with the copy {edges}");
    }
}

#[test]
fn memory_the_executor_read_as_bytes_is_read_as_bytes_by_the_interpreter() {
    // Where the executor cannot tie a pointer read to one place it reads the bytes as bytes (byte
    // inputs, no fresh memory); the interpreter, which always has a concrete address, must do the
    // same when the inputs say so, or it makes fresh memory the executor did not and numbers every
    // later allocation one higher (usbmouse: 5 of 20 executions refused).
    let src = with_prelude(
        "struct node { struct node *next; int key; }; struct node *get(void);
int main() { struct node *p = get(); if (p == 0) return 0; if (p->next == 0) return 1; return 2; }",
    );
    let (prog, cfa) = build(&src, DataModel::Ilp32);
    let o = explore(&prog, &cfa, ExploreConfig::default(), Exhaustive)
        .find(|o| o.end == PathEnd::Exit && o.inputs.as_ref().is_some_and(|i| i.len() == 2 && i[1].value & 1 == 0))
        .expect("a path where p->next is null");
    let inputs = o.inputs.clone().expect("inputs");
    let as_pointer = interpret(&prog, &cfa, Property::UnreachCall, &inputs, 1000);
    let InputKind::Uninit { alloc, offset } = inputs[1].kind else { panic!("p->next is read from fresh memory") };
    let mut as_bytes = vec![inputs[0].clone()];
    as_bytes.extend((0..4).map(|k| InputValue {
        kind: InputKind::Uninit { alloc, offset: offset + k },
        ty: None,
        pointer_choice: false,
        bits: 8,
        value: 0,
    }));
    let run = interpret(&prog, &cfa, Property::UnreachCall, &as_bytes, 1000);
    assert_eq!(run.end, ConcreteEnd::Exit);
    assert_eq!(run.trace, as_pointer.trace, "both take `p->next == 0`");
    let lazies = |allocs: &[AllocOrigin]| allocs.iter().filter(|a| matches!(a, AllocOrigin::Lazy { .. })).count();
    assert_eq!(lazies(&run.allocs) + 1, lazies(&as_pointer.allocs), "no fresh memory for bytes read as bytes");
}
