//! Tests of CFA construction: the edges CPAchecker builds and their raw texts and lines.

use super::*;
use crate::base::SourceFile;
use crate::cfront::parse_program;
use crate::cfront::types::DataModel;

/// The edges of function `func` in a depth-first walk from its entry (leaving edges in order), one per
/// line: `kind "text" lines`.
fn walk(src: &str, func: &str) -> Vec<String> {
    let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
    let f = cfa.func(prog.func_by_name(func).expect("function")).expect("defined");
    let mut res = Vec::new();
    let mut seen = vec![false; cfa.n_nodes()];
    let mut stack = vec![f.entry];
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut seen[n.idx()], true) {
            continue;
        }
        for &e in cfa.out_edges(n).iter().rev() {
            let edge = cfa.edge(e);
            if !matches!(edge.kind, EdgeKind::Call(_)) {
                stack.push(edge.dst);
            }
        }
        for &e in cfa.out_edges(n) {
            let edge = cfa.edge(e);
            let lines = match edge.lines {
                Some((a, b)) if a == b => format!("{a}"),
                Some((a, b)) => format!("{a}-{b}"),
                None => "-".into(),
            };
            res.push(format!("{} {:?} {lines}", kind_name(&edge.kind), edge.text.as_ref()));
        }
    }
    res
}

fn check(src: &str, func: &str, expect: &[&str]) {
    let got = walk(src, func);
    assert_eq!(got, expect, "\n{}", got.join("\n"));
}

#[test]
fn declaration_with_call_is_split_in_two_edges() {
    check(
        "int f(void);\nint main(void) {\n int x = f();\n return x;\n}",
        "main",
        &[
            "init-globals \"\" -",
            "function-declaration \"int f(void);\" 1",
            "function-declaration \"int main(void)\" 2",
            "function-start \"\" -",
            "declaration \"int x = f();\" 3",
            "external-call \"int x = f();\" 3",
            "return-statement \"return x;\" 4",
        ],
    );
}

#[test]
fn conditions_split_and_swap_like_cpachecker() {
    check(
        "int main(void) {\n int x = 1, y = 2;\n if (x && !(y > 3)) {\n  x = 0;\n }\n return 0;\n}",
        "main",
        &[
            "init-globals \"\" -",
            "function-declaration \"int main(void)\" 1",
            "function-start \"\" -",
            "declaration \"int x = 1, y = 2;\" 2",
            "declaration \"int x = 1, y = 2;\" 2",
            // `x` becomes `x == 0` with the branches swapped.
            "assume \"[x == 0]\" 3",
            "assume \"[!(x == 0)]\" 3",
            "return-statement \"return 0;\" 6",
            // `!(y > 3)` swaps the targets of `y > 3`.
            "assume \"[y > 3]\" 3",
            "assume \"[!(y > 3)]\" 3",
            "assignment \"x = 0;\" 4",
            "blank \"\" -",
        ],
    );
}

#[test]
fn calls_in_values_get_temporaries() {
    let edges = walk("int f(int a);\nint main(void) {\n int x;\n x = (long)f(f(1)) + 2;\n return f(x);\n}", "main");
    let texts: Vec<&str> = edges.iter().map(|s| s.as_str()).collect();
    assert_eq!(
        &texts[4..],
        [
            "declaration \"int x;\" 3",
            "declaration \"x = (long)f(f(1)) + 2;\" 4",
            "external-call \"x = (long)f(f(1)) + 2;\" 4",
            "declaration \"x = (long)f(f(1)) + 2;\" 4",
            "external-call \"x = (long)f(f(1)) + 2;\" 4",
            "assignment \"x = (long)f(f(1)) + 2;\" 4",
            "declaration \"return f(x);\" 5",
            "external-call \"return f(x);\" 5",
            "return-statement \"return f(x);\" 5",
        ]
    );
}

#[test]
fn postfix_increment_as_statement_is_three_edges() {
    let edges = walk("int main(void) {\n int i = 0;\n i++;\n ++i;\n return i;\n}", "main");
    assert_eq!(
        &edges[4..8],
        ["declaration \"i++;\" 3", "assignment \"i++;\" 3", "expression \"i++;\" 3", "assignment \"++i;\" 4"]
    );
}

#[test]
fn statement_expressions_build_their_statements_in_place() {
    // glibc 2.36's `assert(x != 42)` after `gcc -E`: the branches of the `?:` under `sizeof` are
    // hoisted (as CPAchecker 4.0's counterexample automata show), the value-less statement expression
    // gets no temporary and its `if` is built like any other.
    check(
        "extern void __assert_fail(const char *, const char *, unsigned int, const char *);\nint g(int a);\nint main(int x) {\n ((void) sizeof ((x != 42) ? 1 : 0), __extension__ ({ if (x != 42) ; else __assert_fail (\"x != 42\", \"a.c\", 4, __extension__ __PRETTY_FUNCTION__); }));\n int y = ({ int t = x; g(t); });\n return ({ x = 3; }) + y;\n}",
        "main",
        &[
            "init-globals \"\" -",
            "function-declaration \"extern void __assert_fail(const char *, const char *, unsigned int, const char *);\" 1",
            "function-declaration \"int g(int a);\" 2",
            "function-declaration \"int main(int x)\" 3",
            "function-start \"\" -",
            "declaration \"(void) sizeof ((x != 42) ? 1 : 0)\" 4",
            "assume \"[x != 42]\" 4",
            "assume \"[!(x != 42)]\" 4",
            "assignment \"1\" 4",
            "expression \"(void) sizeof ((x != 42) ? 1 : 0)\" 4",
            "assume \"[x != 42]\" 4",
            "assume \"[!(x != 42)]\" 4",
            "blank \"\" -",
            "declaration \"int y = ({ int t = x; g(t); });\" 5",
            "declaration \"int t = x;\" 5",
            "external-call \"__CPAchecker_TMP_2 = g(t);\" 5",
            "declaration \"int y = ({ int t = x; g(t); });\" 5",
            "declaration \"return ({ x = 3; }) + y;\" 6",
            "assignment \"x = 3;\" 6",
            "assignment \"__CPAchecker_TMP_3 = x;\" 6",
            "return-statement \"return ({ x = 3; }) + y;\" 6",
            "external-call \"__assert_fail (\\\"x != 42\\\", \\\"a.c\\\", 4, __extension__ __PRETTY_FUNCTION__);\" 4",
            "blank \"\" -",
            "assignment \"0\" 4",
        ],
    );
}

#[test]
fn forward_and_backward_gotos_and_label_direction() {
    let src =
        "int main(void) {\n int x = 0;\n goto L;\n x = 1;\n L: x = 2;\n M: x = 3;\n if (x) goto M;\n return 0;\n}";
    let edges = walk(src, "main");
    // The forward goto has the synthetic text; nothing falls into `L`, so its label edge leaves it.
    assert!(edges.contains(&"goto \"Goto: L\" 3".to_string()), "{edges:?}");
    assert!(edges.contains(&"label \"L: x = 2;\" 5".to_string()));
    assert!(edges.contains(&"goto \"goto M;\" 7".to_string()));
    // Dead code after the goto has no edge.
    assert!(!edges.iter().any(|e| e.contains("x = 1;")));
}

#[test]
fn while_one_and_break() {
    check(
        "int main(void) {\n int i = 0;\n while (1) {\n  if (i > 2) {\n   break;\n  }\n  i = i + 1;\n }\n return i;\n}",
        "main",
        &[
            "init-globals \"\" -",
            "function-declaration \"int main(void)\" 1",
            "function-start \"\" -",
            "declaration \"int i = 0;\" 2",
            "loop-entry \"\" 3",
            "const-condition \"1\" 3",
            "assume \"[i > 2]\" 4",
            "assume \"[!(i > 2)]\" 4",
            "jump \"break;\" 5",
            "return-statement \"return i;\" 9",
            "assignment \"i = i + 1;\" 7",
            "blank \"\" -",
        ],
    );
}

#[test]
fn switch_cases_and_default() {
    let src = "int main(void) {\n int v = 1;\n switch (v) {\n case 1:\n  v = 2;\n  break;\n default:\n  v = 3;\n }\n return v;\n}";
    let edges = walk(src, "main");
    assert!(edges.contains(&"switch \"switch (v)\" 3".to_string()), "{edges:?}");
    assert!(edges.contains(&"assume \"[v == 1]\" 4".to_string()));
    assert!(edges.contains(&"assume \"[!(v == 1)]\" 4".to_string()));
    // The edge to the default case carries the whole switch statement and the `default:` line.
    assert!(edges.iter().any(|e| e.starts_with("switch-default \"switch (v) {") && e.ends_with(" 7")), "{edges:?}");
}

#[test]
fn if_with_blank_branches_is_simplified() {
    let edges = walk("int main(void) {\n int x = 1;\n if (x) {\n } else {\n }\n return 0;\n}", "main");
    assert!(edges.contains(&"skipped \"skipped unnecessary edges\" 3".to_string()), "{edges:?}");
    assert!(!edges.iter().any(|e| e.starts_with("assume")));
}

#[test]
fn non_returning_callee_cuts_the_code_after_the_call() {
    let src = "void error(void) { ERROR: goto ERROR; }\nint main(void) {\n int x = 0;\n if (x) {\n  error();\n  x = 5;\n }\n return x;\n}";
    let edges = walk(src, "main");
    assert!(edges.contains(&"call \"error();\" 5".to_string()), "{edges:?}");
    assert!(!edges.iter().any(|e| e.contains("x = 5;")), "{edges:?}");
    let err = walk(src, "error");
    // The blank self-loop ends in a termination node.
    assert_eq!(err, ["function-start \"\" -", "label \"ERROR: goto ERROR;\" 1", "goto \"goto ERROR;\" 1"]);
}

#[test]
fn function_pointer_calls_are_resolved_to_candidates() {
    let src = "int a(int x) { return x; }\nint b(int x) { return -x; }\nint c(int x, int y) { return y; }\nint main(void) {\n int (*fp)(int) = &a;\n if (fp == 0) fp = b;\n return fp(3);\n}";
    let edges = walk(src, "main");
    let assumes: Vec<&String> = edges.iter().filter(|e| e.contains("== (&")).collect();
    // `c` has another parameter count; `a` and `b` are tried, then the unresolved call.
    assert_eq!(assumes.len(), 4, "{edges:?}");
    assert!(edges.iter().any(|e| e.starts_with("call \"pointer call(a) return fp(3);\"")), "{edges:?}");
    assert!(edges.iter().any(|e| e.starts_with("skip \"skip\"")));
    assert!(edges.iter().any(|e| e.starts_with("external-call \"return fp(3);\"")));
}

#[test]
fn a_call_site_is_undefined_only_where_an_argument_points_to_a_record_of_another_tag() {
    // For every call site: callee, and the argument that makes the call undefined.
    let sites = |src: &str| -> Vec<(String, Option<usize>)> {
        let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
        let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
        let mut res: Vec<_> = cfa
            .call_sites
            .iter()
            .map(|cs| (prog.func(cs.callee).name.clone(), cs.incompatible_argument(&prog)))
            .collect();
        res.sort();
        res
    };
    let defs = "struct a { int x; };\nstruct b { int y; };\n\
                int on_a(struct a *p) { return p->x; }\nint on_b(struct b *p) { return p->y; }\n\
                int on_void(void *p) { return p != 0; }\n";
    // Through a pointer to `int (struct a *)`: `on_b` is a candidate of the same sizes, undefined;
    // `on_void` takes `void *`, not judged; the direct call converts its argument.
    let src = format!(
        "{defs}int main(void) {{\n struct a v = {{ 1 }};\n int (*fp)(struct a *) = &on_a;\n \
         int (*other)(struct b *) = &on_b;\n int (*any)(void *) = &on_void;\n return fp(&v) + on_a(&v);\n}}"
    );
    assert_eq!(
        sites(&src),
        [("on_a".into(), None), ("on_a".into(), None), ("on_b".into(), Some(0)), ("on_void".into(), None)]
    );
    // A tag first seen in a prototype's scope is another type in C; vcov does not judge it.
    let src = "int use(struct s *p);\nstruct s { int v; };\nint use(struct s *p) { return p->v; }\n\
               int main(void) { struct s x = { 2 }; return use(&x); }";
    assert_eq!(sites(src), [("use".into(), None)]);
}

#[test]
fn deeply_nested_statements_build_on_any_callers_stack() {
    // 4,000 nested `if`s (the front end allows 5,000 levels): the builder recurses per level and
    // moves every empty branch's edge to each enclosing join; it has its own stack, so a caller
    // with a small one (a fuzzer's thread) does not overflow.
    let depth = 4000;
    let src = format!("int main(void) {{\n int x = 0;\n {} x = 2;\n return x;\n}}\n", "if (x) ".repeat(depth));
    let (mut prog, _) = parse_program(SourceFile::new("t.c", src), DataModel::Ilp32).expect("parses");
    let cfa = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || build(&mut prog, &CfaConfig::default()).expect("builds").0)
        .expect("spawn")
        .join()
        .expect("no overflow");
    let assumes = cfa.edges().filter(|(_, e)| matches!(e.kind, EdgeKind::Assume { .. })).count();
    assert_eq!(assumes, 2 * depth);
}

#[test]
fn verifier_assume_becomes_two_assume_edges() {
    let edges = walk(
        "void __VERIFIER_assume(int);\nint main(void) {\n int x = 3;\n __VERIFIER_assume(x > 2);\n return x;\n}",
        "main",
    );
    assert_eq!(
        edges.iter().filter(|e| e.as_str() == "assume \"[__VERIFIER_assume(x > 2);]\" 4").count(),
        2,
        "{edges:?}"
    );
}

#[test]
fn globals_are_deduplicated_like_cpachecker() {
    let src = "struct s;\nstruct s { int a; };\nstruct s;\ntypedef int I;\ntypedef int I;\nextern int g;\nint g = 1;\nint f(int a);\nint f(int a) { return a; }\nint main(void) { return f(g); }";
    let edges = walk(src, "main");
    let globals: Vec<&String> =
        edges.iter().filter(|e| e.starts_with("global") || e.starts_with("function-decl")).collect();
    assert_eq!(
        globals,
        [
            "global-type \"struct s;\" 1",
            "global-type \"struct s { int a; };\" 2",
            "global-type \"typedef int I;\" 4",
            "global-var \"extern int g;\" 6",
            "global-var \"int g = 1;\" 7",
            "function-declaration \"int f(int a);\" 8",
            "function-declaration \"int main(void)\" 10",
        ]
    );
}

#[test]
fn postorder_puts_the_exit_first() {
    let (mut prog, _) = parse_program(
        SourceFile::new("t.c", "int main(void) { int x = 0; if (x) { x = 1; } return x; }".into()),
        DataModel::Ilp32,
    )
    .unwrap();
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).unwrap();
    let f = cfa.func(cfa.main).unwrap();
    assert_eq!(cfa.node(f.exit).postorder, 0);
    let max = (0..cfa.n_nodes()).map(|i| cfa.node(NodeId::from_idx(i)).postorder).max().unwrap();
    assert_eq!(cfa.node(f.entry).postorder, max);
}

#[test]
fn exit_distances_count_a_call_as_the_shortest_way_through_the_callee() {
    let src = "int nondet(void);
void slow(void) { int a = 1; a = 2; a = 3; a = 4; a = 5; }
void stuck(void) { while (1) { } }
int main(void) {
  int x = nondet();
  if (x) { slow(); } else { x = 2; }
  if (x == 7) { stuck(); }
  return x;
}
";
    let (mut prog, _) = parse_program(SourceFile::new("t.c", src.into()), DataModel::Ilp32).unwrap();
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).unwrap();
    let dist = exit_distances(&cfa);
    let target = |text: &str| {
        let (_, e) = cfa.edges().find(|(_, e)| &*e.text == text).unwrap_or_else(|| panic!("no edge {text}"));
        dist[e.dst.idx()]
    };
    let slow = cfa.func(prog.func_by_name("slow").unwrap()).unwrap();
    let through_slow = dist[slow.entry.idx()];
    assert!(through_slow >= 5, "five assignments in slow: {through_slow}");
    // The then-branch calls `slow` (one edge plus the way through it); the else-branch assigns.
    let (then, els) = (target("[!(x == 0)]"), target("[x == 0]"));
    assert!(then > through_slow && then >= els + through_slow - 1, "then {then}, else {els}, slow {through_slow}");
    // `stuck` never returns: no way to the exit from its call, nor from inside it.
    let stuck = cfa.func(prog.func_by_name("stuck").unwrap()).unwrap();
    assert_eq!(dist[stuck.entry.idx()], u32::MAX);
    assert_eq!(target("[x == 7]"), u32::MAX);
    assert_eq!(dist[cfa.func(cfa.main).unwrap().exit.idx()], 0);
}

/// Every edge of `main` whose texts differ between generations, in id order: `line 1.x-text => 2.x-text`
/// (`=` where both generations agree, shown for assume edges only).
fn texts_of_generations(src: &str) -> Vec<String> {
    let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
    let main = prog.func_by_name("main").expect("main");
    let mut res = Vec::new();
    for (_, e) in cfa.edges() {
        if cfa.node(e.src).func != main || !(e.text2.is_some() || matches!(e.kind, EdgeKind::Assume { .. })) {
            continue;
        }
        let line = e.lines.map_or(0, |(a, _)| a);
        let two = e.text2.as_deref().map_or("=".to_string(), |t| format!("{t:?}"));
        res.push(format!("{line} {:?} => {two}", e.text));
    }
    res
}

/// The condition shapes of `fixtures/c/generations/shapes.c`: since 2.0 an assume edge carries the
/// whole condition as written, on every edge it produces, negated by `!(...)` or, where CPAchecker
/// swapped the branches, by dropping a leading `!(` and the last character.
#[test]
fn conditions_carry_their_whole_source_text_since_2_0() {
    let got = texts_of_generations(include_str!("../../fixtures/c/generations/shapes.c"));
    let expect = [
        // `!(x > 3)`: the negation of a comparison reads the same in both generations.
        r#"12 "[x > 3]" => ="#,
        r#"12 "[!(x > 3)]" => ="#,
        // `!(flag)`: `flag == 0` holds on the then-branch.
        r#"13 "[flag == 0]" => "[!(flag)]""#,
        r#"13 "[!(flag == 0)]" => "[!(!(flag))]""#,
        r#"14 "[flag == 0]" => "[!(flag)]""#,
        r#"14 "[!(flag == 0)]" => "[flag]""#,
        // Three leaves, one text.
        r#"15 "[x < 0]" => "[x < 0 || x > 9 || flag]""#,
        r#"15 "[!(x < 0)]" => "[!(x < 0 || x > 9 || flag)]""#,
        r#"15 "[x > 9]" => "[x < 0 || x > 9 || flag]""#,
        r#"15 "[!(x > 9)]" => "[!(x < 0 || x > 9 || flag)]""#,
        r#"15 "[flag == 0]" => "[!(x < 0 || x > 9 || flag)]""#,
        r#"15 "[!(flag == 0)]" => "[x < 0 || x > 9 || flag]""#,
        // Literals and casts as written.
        r#"16 "[x == 23]" => "[x == 0x17]""#,
        r#"16 "[!(x == 23)]" => "[!(x == 0x17)]""#,
        r#"17 "[c == '\\x7']" => "[c == '\\a']""#,
        r#"17 "[!(c == '\\x7')]" => "[!(c == '\\a')]""#,
        r#"18 "[c != 0U]" => "[c != (unsigned char)0]""#,
        r#"18 "[!(c != 0U)]" => "[!(c != (unsigned char)0)]""#,
        r#"19 "[p == ((void *)0)]" => "[p == (void *)0x0]""#,
        r#"19 "[!(p == ((void *)0))]" => "[!(p == (void *)0x0)]""#,
        // `(flag)` swapped under a text that starts with `!(`: its first two and last characters go.
        r#"20 "[x == 0]" => "[!(x) && (flag)]""#,
        r#"20 "[!(x == 0)]" => "[!(!(x) && (flag))]""#,
        r#"20 "[flag == 0]" => "[x) && (flag]""#,
        r#"20 "[!(flag == 0)]" => "[!(x) && (flag)]""#,
        // Parentheses as written.
        r#"21 "[x == 0]" => "[!((x))]""#,
        r#"21 "[!(x == 0)]" => "[(x)]""#,
        // What a leaf hoists carries the whole condition too.
        r#"22 "f(x)" => "f(x) && flag""#,
        r#"22 "[__CPAchecker_TMP_1 == 0]" => "[!(f(x) && flag)]""#,
        r#"22 "[!(__CPAchecker_TMP_1 == 0)]" => "[f(x) && flag]""#,
        r#"22 "[flag == 0]" => "[!(f(x) && flag)]""#,
        r#"22 "[!(flag == 0)]" => "[f(x) && flag]""#,
        // A constant leaf: one blank edge.
        r#"23 "0" => "0 && x""#,
        // A comma expression as the condition keeps its commas.
        r#"24 "[__CPAchecker_TMP_2 == 0]" => "[!(i = i + 1, i < 3)]""#,
        r#"24 "[!(__CPAchecker_TMP_2 == 0)]" => "[i = i + 1, i < 3]""#,
        // `&&` outside a condition: each operand of the outermost `&&` is a condition of its own,
        // and `&&` groups to the left.
        r#"25 "[x >= 0]" => "[x >= 0 && x < 2048 && a == 0]""#,
        r#"25 "[!(x >= 0)]" => "[!(x >= 0 && x < 2048 && a == 0)]""#,
        r#"25 "[x < 2048]" => "[x >= 0 && x < 2048 && a == 0]""#,
        r#"25 "[!(x < 2048)]" => "[!(x >= 0 && x < 2048 && a == 0)]""#,
        r#"25 "[a == 0]" => "[x >= 0 && x < 2048 && a == 0]""#,
        r#"25 "[!(a == 0)]" => "[!(x >= 0 && x < 2048 && a == 0)]""#,
        r#"25 "[b == 0]" => ="#,
        r#"25 "[!(b == 0)]" => ="#,
        r#"26 "[flag == 0]" => "[!(flag)]""#,
        r#"26 "[!(flag == 0)]" => "[flag]""#,
        r#"27 "[x > 1]" => ="#,
        r#"27 "[!(x > 1)]" => ="#,
        r#"27 "[flag == 0]" => "[!(flag)]""#,
        r#"27 "[!(flag == 0)]" => "[flag]""#,
        r#"28 "[i > 0]" => ="#,
        r#"28 "[!(i > 0)]" => ="#,
        // A condition over two lines keeps its line break.
        r#"31 "[x > 1]" => "[x > 1 &&\n      flag]""#,
        r#"31 "[!(x > 1)]" => "[!(x > 1 &&\n      flag)]""#,
        r#"31 "[flag == 0]" => "[!(x > 1 &&\n      flag)]""#,
        r#"31 "[!(flag == 0)]" => "[x > 1 &&\n      flag]""#,
        // Made by the second pass: the summary and call edges of the call `f(x)` keep its texts,
        // and `__VERIFIER_assume` reads the same in both generations.
        r#"22 "f(x)" => "f(x) && flag""#,
        r#"22 "f(x)" => "f(x) && flag""#,
        r#"25 "[__VERIFIER_assume(x >= 0 && x < 2048 && a == 0 && b == 0);]" => ="#,
        r#"25 "[__VERIFIER_assume(x >= 0 && x < 2048 && a == 0 && b == 0);]" => ="#,
    ];
    assert_eq!(got, expect, "\n{}", got.join("\n"));
}

/// CPAchecker ≥ 2.3 reaches a `do` loop's body from its condition over a blank edge of its own, which
/// the loop entry enters too; older generations lack it. A constant false condition (`do .. while
/// (0)`) leaves the body without one.
#[test]
fn do_loops_get_a_body_edge_that_only_2_3_has() {
    check(
        "int main(void) {\n int i = 3;\n do {\n  i--;\n } while (i > 0);\n do { i++; } while (0);\n return i;\n}",
        "main",
        &[
            "init-globals \"\" -",
            "function-declaration \"int main(void)\" 1",
            "function-start \"\" -",
            "declaration \"int i = 3;\" 2",
            "loop-entry \"\" 3",
            "declaration \"i--;\" 4",
            "assignment \"i--;\" 4",
            "expression \"i--;\" 4",
            "blank \"\" -",
            "assume \"[i > 0]\" 3-5",
            "assume \"[!(i > 0)]\" 3-5",
            "do-body \"\" 3",
            "loop-entry \"\" 6",
            "declaration \"i++;\" 6",
            "assignment \"i++;\" 6",
            "expression \"i++;\" 6",
            "blank \"\" -",
            "const-condition \"0\" 6",
            "return-statement \"return i;\" 7",
        ],
    );
    let (mut prog, _) = parse_program(
        SourceFile::new("t.c", "int main(void) {\n int i = 3;\n do i--; while (i > 0);\n return i;\n}".into()),
        DataModel::Ilp32,
    )
    .expect("parses");
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
    let (_, body) = cfa.edges().find(|(_, e)| matches!(e.kind, EdgeKind::Blank(BlankKind::DoBody))).expect("body edge");
    assert!(body.exists_in(Generation::V23));
    assert!(!body.exists_in(Generation::V2));
    assert!(!body.exists_in(Generation::V1));
}

/// CDT's node of a declaration starts after `__extension__`, and a struct or union defined inside
/// another one is declared on its own first, with the whole declaration's text.
#[test]
fn declarations_read_as_cdt_reads_them() {
    check(
        "__extension__ typedef struct { __extension__ long long q; struct { int lo, hi; } w; } t;\n\
         int main(void) {\n struct s { union { int a; char b; } u; } v;\n return 0;\n}",
        "main",
        &[
            "init-globals \"\" -",
            "global-type \"typedef struct { __extension__ long long q; struct { int lo, hi; } w; } t;\" 1",
            "global-type \"typedef struct { __extension__ long long q; struct { int lo, hi; } w; } t;\" 1",
            "global-type \"typedef struct { __extension__ long long q; struct { int lo, hi; } w; } t;\" 1",
            "function-declaration \"int main(void)\" 2",
            "function-start \"\" -",
            "type-declaration \"struct s { union { int a; char b; } u; } v;\" 3",
            "type-declaration \"struct s { union { int a; char b; } u; } v;\" 3",
            "declaration \"struct s { union { int a; char b; } u; } v;\" 3",
            "return-statement \"return 0;\" 4",
        ],
    );
}

#[test]
fn linking_the_library_adds_automata_after_the_programs_and_changes_none_of_it() {
    let head = "unsigned long strlen(const char *s);\nint isdigit(int c);\n";
    let src = format!("{head}int main(void) {{\n  char s[4] = \"ab\";\n  int n = strlen(s);\n  return n;\n}}\n");
    // The same program calling a function vcov does not model: no library.
    let plain = src.replace("strlen", "strlenx");
    let build_of = |src: &str| {
        let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
        let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
        (prog, cfa)
    };
    let (prog, cfa) = build_of(&src);
    let (plain_prog, plain_cfa) = build_of(&plain);
    assert!(prog.library.is_some() && plain_prog.library.is_none());
    // The program's nodes and edges come first, the same as without the library.
    let user_edges = plain_cfa.n_edges();
    for i in 0..user_edges {
        let (e, p) = (cfa.edge(EdgeId::from_idx(i)), plain_cfa.edge(EdgeId::from_idx(i)));
        assert_eq!((e.src, e.dst, e.lines), (p.src, p.dst, p.lines), "edge {i}");
        assert_eq!(e.text.replace("strlen", "strlenx"), p.text.as_ref(), "edge {i}");
        assert!(!cfa.is_library_edge(EdgeId::from_idx(i)));
    }
    assert_eq!(to_text(&cfa, &prog).replace("strlen", "strlenx"), to_text(&plain_cfa, &plain_prog));
    // The rest is the library's: no lines; the call of strlen is a library call site into the
    // model, returning to the call edge's target.
    assert!(cfa.n_edges() > user_edges);
    for i in user_edges..cfa.n_edges() {
        assert!(cfa.is_library_edge(EdgeId::from_idx(i)) && cfa.edge(EdgeId::from_idx(i)).lines.is_none(), "{i}");
    }
    let (call, _) = cfa
        .edges()
        .find(|(_, e)| e.text.contains("strlen(s)") && matches!(e.kind, EdgeKind::ExternCall { .. }))
        .expect("the call");
    let site = cfa.call_site(cfa.library_call(call).expect("a library call site"));
    assert_eq!(prog.func(site.callee).name, "strlen");
    assert!(prog.func(site.callee).library);
    assert_eq!(site.return_node, Some(cfa.edge(call).dst));
    // isdigit is declared but not called: its model is linked with the others, never entered.
    assert!(cfa.edges().filter(|(_, e)| e.text.contains("isdigit")).all(|(e, _)| cfa.library_call(e).is_none()));
}

#[test]
fn a_model_that_calls_through_a_pointer_may_call_back_each_function_that_fits() {
    let src = "void qsort(void *b, unsigned long n, unsigned long s, int (*c)(const void *, const void *));\n\
               int up(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\n\
               int down(const void *a, const void *b) { return up(b, a); }\n\
               int one(const void *a) { return 1; }\n\
               int main(void) {\n  int v[2] = {2, 1};\n  qsort(v, 2, sizeof v[0], down);\n  return one(v);\n}\n";
    let (mut prog, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
    let func = |name: &str| prog.funcs.iter().position(|f| f.name == name && !f.library).map(FuncId::from_idx).unwrap();
    // The comparison's call in the model: a callback site into each two-pointer function, none into
    // `one` or `main`, returning into the model.
    let calls: Vec<EdgeId> = cfa
        .edges()
        .filter(|(e, edge)| {
            cfa.is_library_edge(*e)
                && matches!(&edge.kind, EdgeKind::ExternCall { callee, .. }
                    if !matches!(callee.strip_implicit().kind, crate::cfront::ir::ExprKind::Func(_)))
        })
        .map(|(e, _)| e)
        .collect();
    // (bsearch's, which the program does not call, has none.)
    let calls: Vec<EdgeId> = calls.into_iter().filter(|&e| cfa.callback(e, func("down")).is_some()).collect();
    assert!(!calls.is_empty());
    assert!(cfa.has_callbacks());
    for &e in &calls {
        for name in ["up", "down"] {
            let site = cfa.call_site(cfa.callback(e, func(name)).expect("a callback site"));
            assert!(cfa.in_library(site.return_node.unwrap()));
            assert!(cfa.is_library_edge(site.return_edge.unwrap()), "the return into the model is the model's");
            assert!(cfa.library_call(e).is_none());
        }
        assert!(cfa.callback(e, func("one")).is_none() && cfa.callback(e, func("main")).is_none());
    }
    // The program's own calls are untouched: `down` calls `up` by an ordinary call edge.
    assert!(cfa.call_sites.iter().any(|cs| cs.caller == func("down")
        && cs.callee == func("up")
        && matches!(cfa.edge(cs.call_edge).kind, EdgeKind::Call(_))));
    // `vcov cfa` shows none of it: no return edge from a comparison into the model.
    let text = to_text(&cfa, &prog);
    let back = cfa.call_site(cfa.callback(calls[0], func("up")).unwrap()).return_edge.unwrap();
    assert!(!text.contains(&format!("E{:<5} ", back.0)), "{text}");
    let shown = cfa.edges().filter(|&(e, _)| !cfa.is_library_edge(e)).count();
    assert_eq!(text.lines().filter(|l| l.starts_with("  E")).count(), shown, "{text}");
    assert_eq!(text.matches("function ").count(), 4, "{text}");
    // A program that calls no model calling back has no callback site.
    let plain = src.replace("qsort(v, 2, sizeof v[0], down);", "down(v, v);");
    let (mut prog, _) = parse_program(SourceFile::new("t.c", plain), DataModel::Ilp32).expect("parses");
    let (cfa, _) = build(&mut prog, &CfaConfig::default()).expect("builds");
    assert!(!cfa.has_callbacks());
}
