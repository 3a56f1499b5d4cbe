//! Tests of BMC and k-induction (`run`) and of `unreachable`, on small programs: what the engine
//! establishes, with the invariants of its proofs as C expressions.

#[cfg(target_os = "linux")]
use super::priority::YIELD_NICE;
use super::*;
use crate::cfa::CfaConfig;
use crate::cfront::types::DataModel;

/// Runs BMC and k-induction on `src` (with a generous limit, interval analysis off) and renders
/// what they established: `true by bmc`, `true by k-induction at k with N invariants`, `false after
/// N steps: inputs`, or `unknown: why`. With interval analysis first (the default), the answer
/// must be the same where both answer.
fn check(src: &str, expect: &str) {
    let got = render(result_with(src, false));
    assert_eq!(got, expect, "{src}");
    let with = render(result_with(src, true));
    let class = |s: &str| s.split(' ').next().unwrap_or_default().trim_end_matches(':').to_string();
    assert!(class(&with) == class(&got) || class(&with) == "unknown" || class(&got) == "unknown", "{src}: {with}");
}

/// What the engine established, in words.
fn render(res: KindResult) -> String {
    match res {
        KindResult::Proof(Proof { by: ProofKind::Bmc, .. }) => "true by bmc".to_string(),
        KindResult::Proof(Proof { by: ProofKind::Intervals, .. }) => "true by intervals".to_string(),
        KindResult::Proof(Proof { by: ProofKind::KInduction, k, invariants }) => {
            let inv: Vec<_> = invariants.iter().map(|i| i.expr.clone()).collect();
            format!("true by k-induction at {k} with [{}]", inv.join(", "))
        }
        KindResult::Counterexample { depth, inputs, .. } => {
            let v: Vec<_> = inputs.iter().map(|i| i.signed().to_string()).collect();
            format!("false after {depth} steps: {}", v.join(" "))
        }
        KindResult::Unknown(why) => format!("unknown: {why}"),
    }
}

/// The program `src` and its CFA.
fn compile(src: &str) -> (Program, Cfa) {
    let file = crate::base::SourceFile::new("t.c", src.to_string());
    let (mut prog, _) = crate::cfront::parse_program(file, DataModel::Ilp32).expect("parses");
    let (cfa, _) = crate::cfa::build(&mut prog, &CfaConfig::default()).expect("builds");
    (prog, cfa)
}

/// What the engine establishes on `src` within a generous limit.
fn result(src: &str) -> KindResult {
    result_with(src, true)
}

/// What the engine establishes on `src` within a generous limit, with or without interval analysis.
fn result_with(src: &str, intervals: bool) -> KindResult {
    let (prog, cfa) = compile(src);
    let config = KindConfig {
        budget: Budget::with_time_limit(std::time::Duration::from_secs(60)),
        max_k: 300,
        intervals,
        ..KindConfig::default()
    };
    run(&prog, &cfa, Property::UnreachCall, &config).0
}

const HEAD: &str =
    "void reach_error(void);\nunsigned int __VERIFIER_nondet_uint(void);\nint __VERIFIER_nondet_int(void);\n";

/// What `unreachable` shows of each of `lines` of `src` (with or without invariants).
fn unreached(src: &str, lines: &[u32], invariants: bool) -> Vec<Option<Unreached>> {
    let (prog, cfa) = compile(src);
    let config = KindConfig {
        budget: Budget::with_time_limit(std::time::Duration::from_secs(60)),
        max_k: 10,
        invariants,
        conflicts: Some(20_000),
        ..KindConfig::default()
    };
    let targets = cfa.edges_counting_for(lines, crate::cfa::LineRule::Spanned);
    assert!(targets.iter().all(|t| !t.is_empty()), "every line has an edge");
    unreachable(&prog, &cfa, Property::UnreachCall, &targets, &config, &mut |_| {}).0.proven
}

#[test]
fn a_line_the_invariants_rule_out_is_never_reached_and_a_reachable_one_stays_open() {
    // Line 11 needs `x != y`: one step that avoids it keeps `x == y` (1-inductive, before any
    // invariant is proven); line 13 is reached.
    let src = format!("{HEAD}int main(void) {{\n  unsigned int x = __VERIFIER_nondet_uint();\n  unsigned int y = x;\n  while (__VERIFIER_nondet_int()) {{\n    x++;\n    y++;\n    if (x != y)\n      x = 0;\n  }}\n  x = 1;\n  return 0;\n}}\n");
    assert_eq!(unreached(&src, &[11, 13], true), [Some(Unreached::Induction { k: 1, invariants: false }), None]);
    assert_eq!(unreached(&src, &[11], false), [Some(Unreached::Induction { k: 1, invariants: false })]);
}

#[test]
fn a_line_after_a_loop_needs_the_loops_invariant() {
    // From a loop-head state with `x != y`, any number of iterations lead to line 10: no `k`
    // proves it alone.
    let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 0, y = 0;\n  while (__VERIFIER_nondet_int()) {{\n    x++;\n    y++;\n  }}\n  if (x != y)\n    x = 0;\n  return 0;\n}}\n");
    assert_eq!(unreached(&src, &[11], true), [Some(Unreached::Induction { k: 0, invariants: true })]);
    assert_eq!(unreached(&src, &[11], false), [None]);
}

#[test]
fn a_line_behind_a_contradiction_is_never_reached_by_bmc_when_every_path_ends() {
    let src = format!("{HEAD}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  if (x > 5)\n    if (x < 3)\n      x = 0;\n  return x;\n}}\n");
    assert_eq!(unreached(&src, &[8], false), [Some(Unreached::Bmc { steps: 1 })]);
}

#[test]
fn a_line_two_steps_from_any_state_apart_needs_k_induction_without_invariants() {
    // From any state, `y` is 1 after two iterations: 2-inductive.
    let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 0, y = 0;\n  while (__VERIFIER_nondet_int()) {{\n    if (y == 2)\n      x = 5;\n    y = x;\n    x = 1;\n  }}\n  return 0;\n}}\n");
    assert_eq!(unreached(&src, &[8], false), [Some(Unreached::Induction { k: 2, invariants: false })]);
    // Up to k = 2 comes before the invariants: what needs none is proven without them.
    assert_eq!(unreached(&src, &[8], true), [Some(Unreached::Induction { k: 2, invariants: false })]);
    // Three steps: past the steps tried before the invariants, without any.
    let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 0, y = 0, z = 0;\n  while (__VERIFIER_nondet_int()) {{\n    if (z == 2)\n      x = 5;\n    z = y;\n    y = x;\n    x = 1;\n  }}\n  return 0;\n}}\n");
    assert_eq!(unreached(&src, &[8], false), [Some(Unreached::Induction { k: 3, invariants: false })]);
}

#[test]
fn a_loop_free_program_is_decided_by_bmc() {
    check(&format!("{HEAD}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  int y = x > 0 ? x : 1;\n  if (y <= 0) reach_error();\n  return 0;\n}}\n"), "true by bmc");
    check(&format!("{HEAD}int main(void) {{\n  int x = __VERIFIER_nondet_int();\n  if (x == 42) reach_error();\n  return 0;\n}}\n"), "false after 0 steps: 42");
}

#[test]
fn an_invariant_of_two_counters_proves_the_loop() {
    let src = format!("{HEAD}int main(void) {{\n  unsigned int x = __VERIFIER_nondet_uint();\n  unsigned int y = x;\n  while (x < 1024) {{\n    x++;\n    y++;\n  }}\n  if (x != y) reach_error();\n  return 0;\n}}\n");
    check(&src, "true by k-induction at 0 with [x == y]");
}

#[test]
fn a_sum_invariant_proves_count_up_down() {
    let src = format!("{HEAD}int main(void) {{\n  unsigned int n = __VERIFIER_nondet_uint();\n  unsigned int x = n, y = 0;\n  while (x > 0) {{\n    x--;\n    y++;\n  }}\n  if (y != n) reach_error();\n  return 0;\n}}\n");
    check(&src, "true by k-induction at 0 with [x + y == n]");
}

#[test]
fn an_affine_equality_of_simulated_runs_proves_the_loop() {
    // `x - y == i - j` over four variables: no template has it; the runs show it.
    let src = format!("{HEAD}int main(void) {{\n  int i = __VERIFIER_nondet_int();\n  int j = __VERIFIER_nondet_int();\n  if (!(i >= 0 && j >= 0)) return 0;\n  int x = i;\n  int y = j;\n  while (x != 0) {{\n    x--;\n    y--;\n  }}\n  if (i == j && y != 0) reach_error();\n  return 0;\n}}\n");
    check(
            &src,
            "true by k-induction at 0 with [0 <= i, 0 <= j, 0 <= x, (unsigned long long)i - (unsigned long long)j - (unsigned long long)x + (unsigned long long)y == 0ULL]",
        );
}

#[test]
fn an_equality_modulo_the_width_proves_what_a_constant_needs_in_a_later_phase() {
    // `d == 2*p` holds modulo 2^32 only (`(a + b) + (a - b)` wraps around), so the integers'
    // equalities miss it; `z == 0` needs it, and is a template of the first phase, asked again
    // with the equalities (SV-COMP's SystemC pipeline has both, at seven loop heads). The `q`s
    // make the scope too large for the sum templates and the polynomials, as the pipeline's is.
    let src = format!(
        "{HEAD}int p, d, p_t, d_t, up, z, q0, q1, q2, q3, q4, q5, q6, q7;
int main(void) {{
  while (__VERIFIER_nondet_int()) {{
    q0 = q1 + 1; q1 = q2 + 1; q2 = q3 + 1; q3 = q4 + 1; q4 = q5 + 1; q5 = q6 + 1; q6 = q7 + 1;
    q7 = __VERIFIER_nondet_int();
    if (__VERIFIER_nondet_int()) {{
      int a = __VERIFIER_nondet_int();
      int b = __VERIFIER_nondet_int();
      p_t = a;
      d_t = (a + b) + (a - b);
      up = 1;
    }}
    if (up == 1) {{
      p = p_t;
      d = d_t;
      up = 0;
    }}
    if (__VERIFIER_nondet_int()) z = d - p - p;
  }}
  if (z != 0) reach_error();
  return 0;
}}
"
    );
    check(
            &src,
            "true by k-induction at 0 with [d % 2 == 0, d_t % 2 == 0, 0 <= up, up % 2 == 0, up <= 0, up <= 1, z % 2 == 0, (unsigned int)p * 2U - (unsigned int)d == 0U, p == p_t, (unsigned int)p * 2U - (unsigned int)d_t == 0U, (unsigned long long)z == 0ULL]",
        );
}

#[test]
fn a_bound_of_simulated_runs_proves_the_loop_when_the_templates_do_not() {
    // `2*i - x <= 0` (the runs' bound): `x` grows by 2 or 3, `i` by 1; the step case needs it.
    let src = format!("{HEAD}int main(void) {{\n  int n = __VERIFIER_nondet_int();\n  if (!(0 < n && n < 1000)) return 0;\n  int i = 0;\n  int x = 0;\n  while (i < n) {{\n    if (__VERIFIER_nondet_int()) x = x + 2; else x = x + 3;\n    i++;\n  }}\n  if (x < 2 * n) reach_error();\n  return 0;\n}}\n");
    check(
            &src,
            "true by k-induction at 0 with [0 <= n, n <= 1000, 0 <= i, i <= 1000, i <= n, (long long)n - 999LL <= 0LL, -(long long)n + 1LL <= 0LL, (long long)i * 2LL - (long long)x <= 0LL, -(long long)i * 3LL + (long long)x <= 0LL]",
        );
}

#[test]
fn the_low_bits_simulated_runs_share_prove_the_loop() {
    // `x ≡ 5 (mod 8)`: no parity, bound or equality says it (sv-benchmarks' bin-suffix-5).
    let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 5;\n  while (__VERIFIER_nondet_int()) x += 8;\n  if ((x & 5) != 5) reach_error();\n  return 0;\n}}\n");
    check(&src, "true by k-induction at 0 with [x % 2 != 0, ((unsigned int)x & 7U) == 5U]");
}

#[test]
fn a_disjunction_of_the_programs_comparisons_proves_a_loop_with_phases() {
    // `x <= 65519 || x is even` (sv-benchmarks' phases_1-1): neither side alone is inductive.
    let src = format!("{HEAD}int main(void) {{\n  unsigned int x = 0;\n  while (x < 0x0fffffff) {{\n    if (x < 0xfff0) x++;\n    else x += 2;\n  }}\n  if (x % 2) reach_error();\n  return 0;\n}}\n");
    check(
            &src,
            "true by k-induction at 0 with [(x % 2 == 0) || (__CPAchecker_TMP_0 % 2 == 0), (x <= 65519U) || (x % 2 == 0), (x <= 65519U) || (__CPAchecker_TMP_0 % 2 != 0), (x <= 268435454U) || (x % 2 == 0), (x <= 268435454U) || (__CPAchecker_TMP_0 % 2 != 0), (x <= 0U) || (-(long long)x + (long long)__CPAchecker_TMP_0 + 1LL <= 0LL)]",
        );
}

#[test]
fn a_relation_of_the_samples_a_sign_splits_off_proves_the_loop() {
    // `n <= 0 || i - n <= 1` (sv-benchmarks' half_2): `i <= n + 1` after the first loop unless
    // `n` was negative; the second loop needs it.
    let src = format!("{HEAD}int main(void) {{\n  int n = __VERIFIER_nondet_int();\n  if (!(n <= 1000000)) return 0;\n  int k = n, i = 0;\n  while (i < n) {{\n    k--;\n    i = i + 2;\n  }}\n  int j = 0;\n  while (j < n / 2) {{\n    if (k <= 0) reach_error();\n    k--;\n    j++;\n  }}\n  return 0;\n}}\n");
    let res = result(&src);
    let KindResult::Proof(Proof { by: ProofKind::KInduction, invariants, .. }) = res else {
        panic!("no proof: {res:?}")
    };
    let exprs: Vec<&str> = invariants.iter().map(|i| i.expr.as_str()).collect();
    assert!(exprs.contains(&"(n <= 0) || (-(long long)n + (long long)i - 1LL <= 0LL)"), "{exprs:?}");
}

/// The invariants of a k-induction proof of `src`; panics when there is none.
fn proof_invariants(src: &str) -> Vec<String> {
    match result(src) {
        KindResult::Proof(Proof { by: ProofKind::KInduction, invariants, .. }) => {
            invariants.into_iter().map(|i| i.expr).collect()
        }
        res => panic!("no proof by k-induction: {res:?}"),
    }
}

#[test]
fn a_variable_zero_at_a_loop_head_is_a_candidate_without_a_zero_in_the_program() {
    // `k <= 0` in the first loop (no condition compares with 0), so `i == k` in the second
    // (sv-benchmarks' fragtest_simple).
    let src = format!(
        "{HEAD}int main(void) {{
  int i = 0, k = 0;
  while (__VERIFIER_nondet_int() && i <= 1000000) i = i + 1;
  i = 0;
  while (__VERIFIER_nondet_int() && i <= 1000000) {{
    i = i + 1;
    k = k + 1;
  }}
  if (k != i) reach_error();
  return 0;
}}
"
    );
    let inv = proof_invariants(&src);
    assert!(inv.iter().any(|e| e == "k <= 0"), "{inv:?}");
    assert!(inv.iter().any(|e| e == "i == k"), "{inv:?}");
}

#[test]
fn a_relation_bounded_by_the_programs_constants_keeps_a_counter_from_wrapping() {
    // `l - k <= 999998`: the simulated runs draw the program's constants (`l = 999999`), and
    // with `k <= 1000000` it keeps `l + 1` from wrapping around, so `1 <= l` is inductive
    // (nest-if3). Its proof is too hard for one joint query; one candidate at a time it is not.
    let src = format!(
        "{HEAD}int main(void) {{
  int n = __VERIFIER_nondet_int();
  int l = __VERIFIER_nondet_int();
  if (!(l > 0 && l < 1000000 && n < 1000000)) return 0;
  for (int k = 1; k < n; k++) {{
    for (int i = l; i < n; i++) {{
      if (i < 1) reach_error();
    }}
    if (__VERIFIER_nondet_int()) l = l + 1;
  }}
  return 0;
}}
"
    );
    let inv = proof_invariants(&src);
    assert!(inv.iter().any(|e| e == "(long long)l - (long long)k - 999998LL <= 0LL"), "{inv:?}");
}

#[test]
fn a_relation_all_samples_satisfy_joins_a_split_when_alone_it_is_not_inductive() {
    // `flag <= 0 || j - i - 1 <= 0` and `flag <= 0 || a - b <= 0` (ddlm2013): both hold of every
    // sample, but only where `flag > 0` are they inductive.
    let src = format!(
        "{HEAD}int main(void) {{
  unsigned int i, j = 1, a = 0, b = 0;
  int flag = __VERIFIER_nondet_int();
  if (flag) i = 0; else i = 1;
  while (__VERIFIER_nondet_int()) {{
    a++;
    b += j - i;
    i += 2;
    if (i % 2 == 0) j += 2; else j++;
  }}
  if (flag && a != b) reach_error();
  return 0;
}}
"
    );
    let inv = proof_invariants(&src);
    assert!(inv.iter().any(|e| e.starts_with("(flag <= 0) || ") || e.starts_with("(0 <= flag) || ")), "{inv:?}");
}

#[test]
fn a_polynomial_equality_of_simulated_runs_is_proven_by_algebra() {
    // `y*y + y == 2*x` over `long long`, with the bound an `int` (nla-digbench's ps2): SAT alone
    // cannot show it inductive through the multipliers; substituting the loop's updates does.
    let src = format!("{HEAD}int main(void) {{\n  int k = __VERIFIER_nondet_int();\n  long long y = 0, x = 0, c = 0;\n  while (c < k) {{\n    c = c + 1;\n    y = y + 1;\n    x = y + x;\n  }}\n  if (y * y - 2 * x + y != 0) reach_error();\n  return 0;\n}}\n");
    check(
            &src,
            "true by k-induction at 0 with [0 <= c, 0LL <= c, y == c, y <= c, c <= y, (unsigned long long)y - (unsigned long long)x * 2ULL + (unsigned long long)y * (unsigned long long)y == 0ULL]",
        );
    // A product over a narrower variable, extended as C does (geo1): `x*z - x - y + 1 == 0`.
    // (geo1 itself computes `z - 1` in `int`, which may wrap around before it is extended.)
    let src = format!("{HEAD}int main(void) {{\n  int z = __VERIFIER_nondet_int();\n  int k = __VERIFIER_nondet_int();\n  if (!(z >= 1 && k >= 1)) return 0;\n  long long x = 1, y = z, c = 1;\n  while (c < k) {{\n    c = c + 1;\n    x = x * z + 1;\n    y = y * z;\n  }}\n  x = x * ((long long)z - 1);\n  if (1 + x - y != 0) reach_error();\n  return 0;\n}}\n");
    check(
            &src,
            "true by k-induction at 0 with [0 <= z, 1 <= z, 0 <= k, 1 <= k, 0 <= c, 0LL <= c, 1LL <= c, -1ULL + (unsigned long long)x + (unsigned long long)y - (unsigned long long)z * (unsigned long long)x == 0ULL]",
        );
}

#[test]
fn a_polynomial_equality_may_need_what_the_path_compared() {
    // `y1*x2 + y2 + y3 == x1` (nla-digbench's mannadiv): on the branch `y2 + 1 == x2`, the
    // update is a multiple of the invariant only given that equality.
    let src = format!("{HEAD}int main(void) {{\n  int x1 = __VERIFIER_nondet_int();\n  int x2 = __VERIFIER_nondet_int();\n  if (!(x1 >= 0 && x1 < 1000 && x2 > 0 && x2 < 1000)) return 0;\n  int y1 = 0, y2 = 0, y3 = x1;\n  while (y3 != 0) {{\n    if (y2 + 1 == x2) {{\n      y1 = y1 + 1;\n      y2 = 0;\n    }} else {{\n      y2 = y2 + 1;\n    }}\n    y3 = y3 - 1;\n  }}\n  if (y1 * x2 + y2 != x1) reach_error();\n  return 0;\n}}\n");
    check(
            &src,
            "true by k-induction at 0 with [0 <= x1, x1 <= 1000, 0 <= x2, 1 <= x2, x2 <= 1000, 0 <= y3, y3 <= 1000, y3 <= x1, y2 <= x2, y2 < x2, (long long)x1 - 999LL <= 0LL, (long long)x2 - 999LL <= 0LL, -(long long)y1 <= 0LL, -(long long)y2 <= 0LL, (long long)y1 + (long long)y3 - 999LL <= 0LL, (long long)y2 + (long long)y3 - 999LL <= 0LL, (unsigned int)x1 - (unsigned int)y2 - (unsigned int)y3 - (unsigned int)x2 * (unsigned int)y1 == 0U]",
        );
}

#[test]
fn invariants_over_signed_variables_are_exact_in_c() {
    // `x` odd and negative: `x % 2 == 1` would be false in C; a sum of signed variables is
    // written in unsigned arithmetic of their width (a signed overflow would be undefined).
    let src = format!("{HEAD}int main(void) {{\n  signed char n = __VERIFIER_nondet_int();\n  int x = -1;\n  signed char a = n, b = 0;\n  while (__VERIFIER_nondet_int()) {{\n    x = x - 2;\n    if (x < -100) x = -1;\n    a = a - 1;\n    b = b + 1;\n  }}\n  if (x % 2 == 0 || (signed char)(a + b) != n) reach_error();\n  return 0;\n}}\n");
    check(
            &src,
            "true by k-induction at 0 with [x % 2 != 0, x <= 0, x <= 2, -100 <= x, (unsigned char)((unsigned char)a + (unsigned char)b) == (unsigned char)n]",
        );
}

#[cfg(target_os = "linux")]
#[test]
fn past_the_depth_it_was_given_the_engine_yields_the_cpu_of_its_own_thread() {
    // A loop BMC unrolls to its end (`x` counts to 3; no induction without invariants shows
    // `y == 6`): past depth 2 the thread runs at a lower priority; the answer is the same, and
    // without the setting nothing changes.
    let src = format!("{HEAD}int main(void) {{\n  int x = 0, y = 0;\n  while (x < 3) {{ x++; y += 2; }}\n  if (y != 6) reach_error();\n  return 0;\n}}\n");
    let (prog, cfa) = compile(&src);
    let nice_after = |yield_from_k: Option<u32>| {
        let (prog, cfa) = (prog.clone(), cfa.clone());
        std::thread::spawn(move || {
            let config = KindConfig { yield_from_k, invariants: false, ..KindConfig::default() };
            let (res, stats) = run(&prog, &cfa, Property::UnreachCall, &config);
            assert!(matches!(res, KindResult::Proof(Proof { by: ProofKind::Bmc, .. })), "{res:?}");
            assert!(stats.k >= 3, "{stats:?}");
            // SAFETY: reads the calling thread's priority.
            unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
        })
        .join()
        .expect("the engine's thread")
    };
    let before = nice_after(None);
    assert_eq!(nice_after(Some(2)), before.max(YIELD_NICE));
    // The depth is never reached: nothing changes.
    assert_eq!(nice_after(Some(50)), before);
}

#[test]
fn a_deep_bug_is_found_and_replayed() {
    let src = format!("{HEAD}int main(void) {{\n  int i = 0;\n  int x = __VERIFIER_nondet_int();\n  while (i < 50) {{\n    i++;\n  }}\n  if (i == 50 && x == -7) reach_error();\n  return 0;\n}}\n");
    check(&src, "false after 51 steps: -7");
}

#[test]
fn a_bug_is_never_proven_away() {
    // A counter that overflows: i < 0 happens after 2^31 iterations, so neither a proof nor a
    // counterexample within the bound.
    let src = format!("{HEAD}int main(void) {{\n  unsigned int i = 0;\n  while (__VERIFIER_nondet_int()) {{\n    i++;\n    if (i == 0) reach_error();\n  }}\n  return 0;\n}}\n");
    check(&src, "unknown: k-induction: no proof up to k = 300");
}

#[test]
fn undefined_behaviour_and_unsupported_constructs_give_unknown() {
    check(
        &format!("{HEAD}int main(void) {{\n  int d = __VERIFIER_nondet_int();\n  int q = 10 / d;\n  return q;\n}}\n"),
        "unknown: k-induction: possible undefined behaviour after 0 steps",
    );
    check(
        &format!(
            "{HEAD}int main(void) {{\n  int a[2];\n  a[0] = 1;\n  if (a[0] != 1) reach_error();\n  return 0;\n}}\n"
        ),
        "unknown: k-induction: unsupported: arrays",
    );
}

const FLOAT_HEAD: &str =
    "void reach_error(void);\nfloat __VERIFIER_nondet_float(void);\nint __VERIFIER_nondet_int(void);\n";

/// The floats the counterexample of `src` reads, or what the engine established instead.
fn float_counterexample(src: &str) -> Result<Vec<f32>, KindResult> {
    match result(src) {
        KindResult::Counterexample { inputs, .. } => {
            Ok(inputs.iter().filter(|i| i.bits == 32).map(|i| f32::from_bits(i.value as u32)).collect())
        }
        other => Err(other),
    }
}

#[test]
fn a_float_bug_is_found_by_bmc_and_one_ieee_rules_out_is_proven() {
    // `x * 2` is exact but for an overflow to infinity, so `x > 1` makes it greater than 2: TRUE
    // (every path ends); below 3 it is reached (1 < x < 1.5).
    let src = |bound: &str| {
        format!("{FLOAT_HEAD}int main(void) {{\n  float x = __VERIFIER_nondet_float();\n  if (x > 1.0f && x * 2.0f < {bound}) reach_error();\n  return 0;\n}}\n")
    };
    check(&src("2.0f"), "true by bmc");
    let x = float_counterexample(&src("3.0f")).expect("a counterexample");
    assert!(x.len() == 1 && x[0] > 1.0 && x[0] * 2.0 < 3.0, "{x:?}");
}

#[test]
fn a_float_loop_is_proven_by_k_induction() {
    // `x < 100` makes `x + 1` at most 101 (rounding is monotone), and `x > 101` at the head (a NaN
    // included: the else branch) is reset; the explicit search cannot end this loop.
    let src = format!("{FLOAT_HEAD}int main(void) {{\n  float x = 0.0f;\n  while (__VERIFIER_nondet_int()) {{\n    if (x < 100.0f) x = x + 1.0f; else x = 0.0f;\n  }}\n  if (!(x <= 101.0f)) reach_error();\n  return 0;\n}}\n");
    check(&src, "true by k-induction at 1 with []");
    // Without the reset, `x` may pass 101 only if it did not start at 0: here it starts at 200.
    let bug = src.replace("float x = 0.0f", "float x = 200.0f").replace(" else x = 0.0f;", "");
    assert!(float_counterexample(&bug).is_ok(), "a counterexample");
}

#[test]
fn a_float_to_int_conversion_out_of_range_is_undefined_behaviour() {
    // `x` runs through 2^k - 1 and reaches 2^31 (rounded) after 31 steps: `(int)x` is then undefined
    // (on x86 it gives INT_MIN, so a model that wrapped would reach the error, and one that
    // saturated would prove the program).
    let src = format!("{FLOAT_HEAD}int main(void) {{\n  float x = 0.0f;\n  while (__VERIFIER_nondet_int()) {{\n    x = x * 2.0f + 1.0f;\n    int i = (int)x;\n    if (i < 0) reach_error();\n  }}\n  return 0;\n}}\n");
    check(&src, "unknown: k-induction: possible undefined behaviour after 31 steps");
    // A conversion guarded into the range is defined, and a NaN is ruled out by the guard.
    let guarded = format!("{FLOAT_HEAD}int main(void) {{\n  float x = __VERIFIER_nondet_float();\n  if (x > -100.0f && x < 100.0f) {{\n    int i = (int)x;\n    if (i > 99 || i < -99) reach_error();\n  }}\n  return 0;\n}}\n");
    check(&guarded, "true by bmc");
    // Converted before the guard, the error is as unreachable, but a NaN or a large value is
    // undefined: no TRUE.
    let unguarded = format!("{FLOAT_HEAD}int main(void) {{\n  float x = __VERIFIER_nondet_float();\n  int i = (int)x;\n  if (x > -100.0f && x < 100.0f && (i > 99 || i < -99)) reach_error();\n  return 0;\n}}\n");
    check(&unguarded, "unknown: k-induction: possible undefined behaviour after 0 steps");
}

#[test]
fn nan_and_signed_zeros_follow_ieee_not_their_bit_patterns() {
    // `x != x` is a NaN (bit patterns equal to themselves would say it never holds).
    let nan = format!("{FLOAT_HEAD}int main(void) {{\n  float x = __VERIFIER_nondet_float();\n  if (x != x) reach_error();\n  return 0;\n}}\n");
    let x = float_counterexample(&nan).expect("a NaN reaches the error");
    assert!(x.len() == 1 && x[0].is_nan(), "{x:?}");
    // `-0.0 == 0.0` though their patterns differ; and neither `x < 1` nor `x >= 1` of a NaN.
    let zero = format!("{FLOAT_HEAD}int main(void) {{\n  float x = __VERIFIER_nondet_float();\n  float z = -x;\n  if (x == 0.0f && z != 0.0f) reach_error();\n  return 0;\n}}\n");
    check(&zero, "true by bmc");
    let unordered = format!("{FLOAT_HEAD}int main(void) {{\n  float x = __VERIFIER_nondet_float();\n  if (!(x < 1.0f) && !(x >= 1.0f)) reach_error();\n  return 0;\n}}\n");
    assert!(float_counterexample(&unordered).is_ok_and(|x| x[0].is_nan()));
}

#[test]
fn invariants_never_relate_floating_variables() {
    // `i <= 10` proves the loop; `x` (which also stays at most 5 here) is in no candidate.
    let src = format!("{FLOAT_HEAD}int main(void) {{\n  int i = 0;\n  float x = 0.0f;\n  while (__VERIFIER_nondet_int()) {{\n    if (i < 10) {{\n      i++;\n      x = x + 0.5f;\n    }}\n  }}\n  if (i > 10) reach_error();\n  return 0;\n}}\n");
    let KindResult::Proof(Proof { by: ProofKind::KInduction, invariants, .. }) = result(&src) else {
        panic!("a k-induction proof of {src}")
    };
    assert!(!invariants.is_empty() && invariants.iter().all(|i| !i.expr.contains('x')), "{invariants:?}");
    // No candidate of any phase names `x`.
    let (prog, cfa) = compile(&src);
    let config = KindConfig::default();
    let mut engine = Engine::new(&prog, &cfa, Property::UnreachCall, &config).ok().expect("supported");
    let x = engine.ts.vars.iter().position(|v| prog.var(v.var).name == "x").expect("a state variable");
    assert!(engine.ts.vars[x].float.is_some());
    let (sampled, polys) = engine.sampled_candidates();
    let disjunctions = engine.disjunctive_candidates(&[]);
    let all: Vec<Candidate> = engine.templates().into_iter().chain(sampled).chain(polys).chain(disjunctions).collect();
    assert!(!all.is_empty());
    for c in &all {
        assert!(!engine.candidate_vars(c).contains(&x), "{c:?} names the float");
    }
}

#[test]
fn fesetround_and_long_double_stay_unsupported_and_math_h_is_modelled() {
    check(
        &format!("{FLOAT_HEAD}int fesetround(int);\nint main(void) {{\n  fesetround(0x800);\n  float x = 1.0f / 3.0f;\n  if (x * 3.0f > 1.0f) reach_error();\n  return 0;\n}}\n"),
        "unknown: k-induction: unsupported: a call of 'fesetround': the transition system computes in round-to-nearest-even only",
    );
    check(
        &format!("{FLOAT_HEAD}int main(void) {{\n  long double x = __VERIFIER_nondet_float();\n  if (x > 1.0L) reach_error();\n  return 0;\n}}\n"),
        "unknown: k-induction: unsupported: the variable 'x' of type long double",
    );
    // `fabs` and `isnan` by the executor's circuits (`symex::math`): a non-NaN's absolute value is
    // not negative, and `sqrt` of it neither.
    let src = format!("{FLOAT_HEAD}float fabsf(float);\nfloat sqrtf(float);\nint isnan(double);\nint main(void) {{\n  float x = __VERIFIER_nondet_float();\n  if (isnan(x)) return 0;\n  float y = sqrtf(fabsf(x));\n  if (y < 0.0f || isnan(y)) reach_error();\n  return 0;\n}}\n");
    check(&src, "true by bmc");
    let bug = src.replace("fabsf(x)", "x");
    let x = float_counterexample(&bug).expect("sqrt of a negative is a NaN");
    assert!(x[0] < 0.0, "{x:?}");
}
