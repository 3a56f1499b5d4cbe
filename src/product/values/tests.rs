//! Unit tests of the value analysis over the product.

use std::collections::HashMap;

use super::domain::{Env, Val};
use super::tracked::{call_components, summarized_arrays, tracked_vars, VarUses};
use super::transfer::{Analyser, Out};
use super::*;
use crate::automaton::parse;
use crate::base::SourceFile;
use crate::cfa::{build, CfaConfig, EdgeKind};
use crate::cfront::ir::VarId;
use crate::cfront::parse_program;
use crate::cfront::types::DataModel;
use crate::product::ReachInfo;

/// An automaton that sends the edge with text `to_true` to `__TRUE` and stays in its state on
/// every other edge, as CPAchecker's automata do with the branches their analysis ruled out.
fn aa(to_true: &str) -> String {
    format!(
        "OBSERVER AUTOMATON AssumptionAutomaton\nINITIAL STATE ARG0;\nSTATE __TRUE :\n    TRUE -> GOTO __TRUE;\n\
         STATE USEFIRST ARG0 :\n    MATCH \"{to_true}\" -> GOTO __TRUE;\n    TRUE -> GOTO ARG0;\nEND AUTOMATON\n"
    )
}

/// The over-approximation's lines and those of them the value analysis rules out.
fn lines(src: &str, automaton: &str) -> (Vec<u32>, Vec<u32>) {
    let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
    let (aut, _) = parse(&SourceFile::new("aa.txt", automaton.to_string())).expect("automaton parses");
    let names = prog.funcs.iter().map(|f| f.name.clone()).collect();
    let product = Product::build(&aut, &cfa, names, crate::cfa::Generation::V1);
    let reach = ReachInfo::compute(&product, &aut, &cfa, LineRule::Spanned);
    let kept = analyse(&product, &cfa, &prog, Undefined::ALL, &|| false).expect("small").lines(
        &product,
        &cfa,
        LineRule::Spanned,
    );
    let ruled_out = reach.over_lines.iter().copied().filter(|l| kept.binary_search(l).is_err()).collect();
    (reach.over_lines, ruled_out)
}

/// For each `(edge, line, ruled_out)`: with an automaton that sends `edge` to `__TRUE`, `line`
/// is in the over-approximation, and the value analysis rules it out exactly when `ruled_out`.
fn assert_ruled_out(src: &str, cases: &[(&str, u32, bool)]) {
    for &(edge, line, ruled_out) in cases {
        let (over, out) = lines(src, &aa(edge));
        assert!(over.contains(&line), "{edge}: {over:?}");
        assert_eq!(out.contains(&line), ruled_out, "{edge}: {out:?}");
    }
}

const MODE: &str = include_str!("../../../fixtures/c/coverage/mode_guard.c");

#[test]
fn a_branch_the_values_rule_out_does_not_bring_in_what_the_cfa_reaches_behind_it() {
    let (over, out) = lines(MODE, &aa("[state == 1]"));
    // Behind `[state == 1]` the automaton reaches `__TRUE`: the handler counts in the
    // over-approximation, but `state` is 0 there.
    for l in [4, 5, 11] {
        assert!(over.contains(&l), "line {l} in {over:?}");
    }
    assert_eq!(out, vec![4, 5, 11]);
}

#[test]
fn a_return_from_a_call_that_may_reenter_the_caller_forgets_the_callers_variables() {
    // `f(1)` runs an inner activation of `f`, whose `x` shares the outer one's name: what the
    // inner `x = 0` left says nothing of the outer `x` (5) after the return. `h()` cannot
    // re-enter `f`: `x` keeps its value over it.
    let src = "int g = 0;
void h(void) { g = g + 1; }
void f(int depth) {
  int x = 0;
  if (depth == 0) {
    x = 5;
    h();
    f(1);
    if (x == 5) {
      g = 1;
    }
  }
}
int main(void) {
  f(0);
  return g;
}
";
    let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
    let uses = VarUses::of(&cfa, &prog);
    let tracked = tracked_vars(&prog, &uses);
    let components = call_components(&cfa, prog.funcs.len());
    let constants = HashMap::new();
    let undefined = vec![false; cfa.call_sites.len()];
    let a = Analyser {
        cfa: &cfa,
        prog: &prog,
        tracked: &tracked,
        arrays: &summarized_arrays(&prog, &uses),
        constants: &constants,
        components: &components,
        undefined: &undefined,
        null_access: true,
        cut_at_null: std::cell::Cell::new(false),
    };
    let x = VarId(prog.vars.iter().position(|v| v.name == "x").expect("x") as u32);
    assert!(tracked[x.idx()].is_some(), "a recursive function's variable is tracked");
    let env: Env = [(x, Val::Is(vec![5].into()))].into_iter().collect();
    let after = |callee: &str| {
        let (e, _) = cfa
            .edges()
            .find(|(_, e)| {
                matches!(e.kind, EdgeKind::Return(cs) if prog.func(cfa.call_site(cs).callee).name == callee
                    && prog.func(cfa.call_site(cs).caller).name == "f")
            })
            .expect("a return edge");
        match a.transfer(&env, e) {
            Some(Out::New(next)) => next.get(&x).cloned(),
            Some(Out::Same) => env.get(&x).cloned(),
            None => panic!("a return is always taken"),
        }
    };
    assert_eq!(after("h"), Some(Val::Is(vec![5].into())));
    assert_eq!(after("f"), None, "any value after the recursive call");
}

#[test]
fn a_variable_whose_address_is_taken_is_not_tracked() {
    // `reset(&state)` may write anything into `state`.
    let src = MODE.replace("int main(void) {\n", "void reset(int *p);\nint main(void) {\n  reset(&state);\n");
    let (over, out) = lines(&src, &aa("[state == 1]"));
    assert!(over.contains(&12), "{over:?}");
    assert_eq!(out, Vec::<u32>::new());
}

#[test]
fn values_flow_through_calls_returns_and_conversions() {
    let src = "extern int __VERIFIER_nondet_int(void);
int twice(int v) {
  return v + v;
}
int main(void) {
  unsigned char c = 255;
  int k;
  c = c + 1;
  k = twice(c);
  if (k == 0) {
    k = 1;
  }
  if (k == 2) {
    k = 3;
  }
  return 0;
}
";
    // `c` wraps to 0: `k == 0` holds (and after it, `k` is 1, so `k == 2` cannot)...
    let (over, out) = lines(src, &aa("[k == 0]"));
    assert!(over.contains(&11) && over.contains(&14), "{over:?}");
    assert_eq!(out, vec![14]);
    // ... and without the automaton's help either.
    let (over, out) = lines(src, &aa("[k == 2]"));
    assert!(over.contains(&14), "{over:?}");
    assert_eq!(out, vec![14]);
}

#[test]
fn a_call_does_not_see_the_locals_or_return_value_of_an_earlier_call() {
    // The second call of `f` falls off its end: its result is indeterminate, not the 1 of the
    // first call (the executor reads a fresh value there).
    let src = "int f(int x) {
  if (x) {
    return 1;
  }
}
int main(void) {
  int a = f(1);
  int b = f(0);
  if (b == 2) {
    return 1;
  }
  return 0;
}
";
    let (over, out) = lines(src, &aa("[b == 2]"));
    assert!(over.contains(&10), "{over:?}");
    assert_eq!(out, Vec::<u32>::new());
}

#[test]
fn a_variable_inline_assembly_names_is_not_tracked() {
    let src = "int main(void) {
  int r = 0;
  __asm__ volatile (\"movl $1, %0\" : \"=r\" (r));
  if (r == 1) {
    return 1;
  }
  return 0;
}
";
    let (over, out) = lines(src, &aa("[r == 1]"));
    assert!(over.contains(&5), "{over:?}");
    assert_eq!(out, Vec::<u32>::new());
    // The operands name variables of their own function only; a template may name a global.
    // `f`'s `r` and `a` (a constraint's letter) are tracked, `g` is not.
    let src = "int g = 0;
int f(void) {
  int r = 0;
  int a = 0;
  if (r == 1) {
    return 1;
  }
  if (a == 2) {
    return 2;
  }
  return 0;
}
int main(void) {
  int r = 0;
  __asm__ volatile (\"movl $1, %0; movl $1, g\" : \"=r\" (r) : \"a\" (0));
  if (g == 1) {
    return 3;
  }
  return f();
}
";
    assert_ruled_out(src, &[("[r == 1]", 6, true), ("[a == 2]", 9, true), ("[g == 1]", 17, false)]);
}

#[test]
fn an_array_only_indexed_holds_what_its_elements_were_given() {
    // `tab` and `ptab` are only read and written as `a[i]`: `tab`'s elements are 0 or 5,
    // `ptab`'s null. `esc`'s address escapes through `&esc[1]` (any value), `loc` is an automatic
    // array without initializer (anything), `init` holds 3, 4 and zero.
    let src = "extern int nondet_int(void);
static int tab[4];
static int *ptab[4];
static int esc[4];
int *where(void) { return &esc[1]; }
int main(void) {
  int i = nondet_int();
  int loc[2];
  int init[3] = {3, 4};
  tab[i] = 5;
  ptab[i] = (int *)0;
  int c = tab[i + 1];
  int *p = ptab[i];
  int d = esc[i];
  int l = loc[i];
  int k = init[i];
  if (c == 7) {
    return 1;
  }
  if (c == 5) {
    return 2;
  }
  if (p != (int *)0) {
    return 3;
  }
  if (d == 7) {
    return 4;
  }
  if (l == 7) {
    return 5;
  }
  if (k == 7) {
    return 6;
  }
  if (k == 4) {
    return 7;
  }
  return 0;
}
";
    assert_ruled_out(
        src,
        &[
            ("[c == 7]", 18, true),
            ("[c == 5]", 21, false),
            ("[p != (int *)0]", 24, true),
            ("[d == 7]", 27, false),
            ("[l == 7]", 30, false),
            ("[k == 7]", 33, true),
            ("[k == 4]", 36, false),
        ],
    );
}

#[test]
fn no_execution_goes_past_an_access_through_a_pointer_that_can_only_be_null() {
    // `debug` is set only by `init`, which nothing calls: reading `*debug` is undefined
    // behaviour on every way there, so nothing behind it is taken. `maybe` may point to `g`:
    // the way past `*maybe` stays; `&debug[1]` computes an address and reads nothing.
    let src = "extern int nondet_int(void);
static int *debug;
int g;
void init(int *d) { debug = d; }
int main(void) {
  int x = nondet_int();
  int *maybe = (int *)0;
  if (nondet_int()) {
    maybe = &g;
  }
  if (x == 1) {
    x = *debug;
    g = 2;
  }
  if (x == 3) {
    x = *maybe;
    g = 4;
  }
  if (x == 5) {
    int *p = &debug[1];
    g = 6;
  }
  return 0;
}
";
    assert_ruled_out(src, &[("[x == 1]", 13, true), ("[x == 3]", 17, false), ("[x == 5]", 21, false)]);
}

#[test]
fn a_line_from_which_every_way_ends_before_the_end_of_main_is_taken_by_no_terminating_execution() {
    // In `poll` every way reads `*debug`, null: `g = 1` is reached, but no execution that
    // covers it terminates. In `ioctl` the way with `cmd == 1` returns first: the lines before
    // the branch stay.
    let src = "extern int nondet_int(void);
static int *debug;
int g;
void poll(void) {
  g = 1;
  g = *debug;
}
void ioctl(int cmd) {
  g = 2;
  if (cmd == 1) {
    return;
  }
  g = *debug;
}
int main(void) {
  int c = nondet_int();
  if (c == 2) {
    poll();
  }
  ioctl(c);
  return 0;
}
";
    let (over, out) = lines(src, &aa("[c == 2]"));
    for l in [5, 13, 18] {
        assert!(over.contains(&l) && out.contains(&l), "line {l}: {over:?} {out:?}");
    }
    for l in [9, 10, 11, 20, 21] {
        assert!(over.contains(&l) && !out.contains(&l), "line {l}: {over:?} {out:?}");
    }
}

#[test]
fn a_comparison_the_known_bits_keep_apart_is_decided() {
    // A 32-bit value converted to 64 bits is below 2^60 - 4096, whatever it is (the kernel's
    // `IS_ERR` in a 32-bit program compiled for 64-bit constants); a value masked to 8 bits is
    // not negative; nothing is known of `x > 5`.
    let src = "extern unsigned int nondet_uint(void);
extern int nondet_int(void);
int main(void) {
  unsigned int x = nondet_uint();
  int y = nondet_int() & 255;
  int err = (unsigned long long)x > 1152921504606842880ULL;
  if (err) {
    return 1;
  }
  if (y < 0) {
    return 2;
  }
  if (x > 5U) {
    return 3;
  }
  return 0;
}
";
    assert_ruled_out(src, &[("[err]", 8, true), ("[y < 0]", 11, true), ("[x > 5U]", 14, false)]);
}

#[test]
fn an_address_only_an_unused_initializer_takes_flows_nowhere() {
    // `param_debug` is never named outside its declaration (a module parameter's descriptor):
    // `debug` stays tracked. `param_level` is read in `get`, so `&level` flows there.
    let src = "struct param { void *arg; };
static int debug = 0;
static int level = 0;
static struct param const param_debug = { (void *)&debug };
static struct param const param_level = { (void *)&level };
void *get(void) { return param_level.arg; }
int main(void) {
  if (debug) {
    return 1;
  }
  if (level) {
    return 2;
  }
  return 0;
}
";
    assert_ruled_out(src, &[("[debug]", 9, true), ("[level]", 12, false)]);
}

#[test]
fn a_member_of_a_global_nothing_writes_has_its_initial_value() {
    // `desc` is only read: `desc.enabled` is 0 and `desc.level` (left out) is 0 as well; the
    // same reads of `live`, which the program writes, may be anything.
    let src = "struct d { const char *name; unsigned int line : 24; char enabled; int level; };
static struct d desc = {\"mod\", 12U, (char)0};
static struct d live = {\"mod\", 12U, (char)0};
void enable(void) { live.enabled = 1; }
int main(void) {
  int t = desc.enabled;
  int u = desc.level;
  int w = live.enabled;
  if (t) {
    return 1;
  }
  if (u == 3) {
    return 2;
  }
  if (w) {
    return 3;
  }
  return 0;
}
";
    assert_ruled_out(src, &[("[t]", 10, true), ("[u == 3]", 13, true), ("[w]", 16, false)]);
    // A member whose address is taken, a union and a bit-field are not followed.
    let src = "struct d { int on; unsigned int bits : 4; };
union u { int a; char b; };
static struct d desc = {0, 0U};
static struct d shared = {0, 0U};
static union u un = {0};
int *where(void) { return &shared.on; }
int main(void) {
  int t = shared.on;
  int b = desc.bits;
  int c = un.b;
  if (t) {
    return 1;
  }
  if (b) {
    return 2;
  }
  if (c) {
    return 3;
  }
  return 0;
}
";
    assert_ruled_out(src, &[("[t]", 12, false), ("[b]", 15, false), ("[c]", 18, false)]);
}

#[test]
fn bits_that_bitwise_operations_set_stay_known_through_conversions_and_joins() {
    // usbmouse's `usb_maxpacket(dev, pipe, !(pipe & 128))` with `pipe = x | 128`.
    let src = "extern unsigned int get(void);
extern int flag(void);
int main(void) {
  unsigned int u = get();
  int pipe = (int)(u | 128U);
  int is_out = !(pipe & 128);
  signed char c = (signed char)(u | 128U);
  int x = c;
  unsigned char b = (unsigned char)(u | 128U);
  int y = b;
  int v;
  if (is_out) {
    return 1;
  }
  if ((x & 256) == 0) {
    return 2;
  }
  if ((y & 256) != 0) {
    return 3;
  }
  if ((y & 64) != 0) {
    return 4;
  }
  if (flag()) {
    v = 3;
  } else {
    v = (int)(u | 1U);
  }
  if ((v & 1) == 0) {
    return 5;
  }
  if ((v & 2) == 0) {
    return 6;
  }
  return 0;
}
";
    // Bit 7 set: `is_out` is 0; a signed char with bit 7 set is negative (bit 8 of the int is
    // set), an unsigned char is not (bit 8 clear); bit 6 is unknown; `v` is 3 or odd; bit 1 of
    // `v` is unknown.
    assert_ruled_out(
        src,
        &[
            ("[is_out]", 13, true),
            ("[(x & 256) == 0]", 16, true),
            ("[(y & 256) != 0]", 19, true),
            ("[(y & 64) != 0]", 22, false),
            ("[(v & 1) == 0]", 30, true),
            ("[(v & 2) == 0]", 33, false),
        ],
    );
}

#[test]
fn a_pointer_tested_not_null_stays_not_null_where_it_is_copied() {
    let src = "extern void *get(void);
int main(void) {
  int *q = get();
  int *r;
  if (q == 0) {
    return 1;
  }
  r = q;
  if (r == 0) {
    return 2;
  }
  return 0;
}
";
    let (over, out) = lines(src, &aa("[r == 0]"));
    assert!(over.contains(&10), "{over:?}");
    assert_eq!(out, vec![10]);
}

#[test]
fn an_address_is_not_null_and_builtin_expect_is_its_first_argument() {
    let src = "long __builtin_expect(long e, long c);
int g;
int main(void) {
  int *p = &g;
  long t;
  t = __builtin_expect((long)(p == 0), 0L);
  if (t != 0L) {
    return 1;
  }
  return 0;
}
";
    let (over, out) = lines(src, &aa("[t != 0L]"));
    assert!(over.contains(&8), "{over:?}");
    assert_eq!(out, vec![8]);
}

#[test]
fn a_counter_with_more_values_than_the_analysis_keeps_may_hold_anything() {
    let src = "int main(void) {
  int i = 0;
  while (i < 20) {
    i++;
  }
  if (i == 20) {
    i = 0;
  }
  if (i == 30) {
    i = 1;
  }
  return 0;
}
";
    // Sound, not precise: past `MAX_VALUES` values `i` may be anything, so neither branch is
    // ruled out (the first is taken by every execution).
    for target in ["[i == 20]", "[i == 30]"] {
        let (over, out) = lines(src, &aa(target));
        assert!(over.contains(&7) && over.contains(&10), "{over:?}");
        assert_eq!(out, Vec::<u32>::new(), "{target}");
    }
}

#[test]
fn joins_keep_value_sets_and_excluded_values_apart() {
    let is = |v: &[i128]| Val::Is(v.into());
    let not = |v: &[i128]| Val::Not(v.into());
    assert_eq!(is(&[1, 3]).join(&is(&[2])), Some(is(&[1, 2, 3])));
    assert_eq!(is(&[0, 1, 2, 3, 4, 5, 6]).join(&is(&[7, 8])), None);
    assert_eq!(not(&[0]).join(&is(&[5])), Some(not(&[0])));
    assert_eq!(not(&[0]).join(&is(&[0])), None);
    assert_eq!(not(&[0, 1]).join(&not(&[1, 2])), Some(not(&[1])));
    assert!(not(&[0]).admits(7) && !not(&[0]).admits(0) && !is(&[1]).admits(0));
}
