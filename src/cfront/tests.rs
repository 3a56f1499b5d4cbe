//! Tests of parsing and lowering.

use super::ir::*;
use super::types::*;
use super::*;
use crate::base::SourceFile;

fn lower(src: &str) -> Program {
    let (p, _) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("lowers");
    p
}

fn lower_err(src: &str) -> String {
    parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect_err("fails").to_string()
}

fn var_ty(p: &Program, name: &str) -> String {
    let v = p.vars.iter().find(|v| v.name == name).expect("var");
    p.types.display(v.ty)
}

#[test]
fn declarator_shapes() {
    let p = lower("int *a[2][3]; int **(*f)(int); int (*q)[3]; char s[] = \"abc\"; int t[] = {1, 2, [5] = 3};");
    assert_eq!(var_ty(&p, "a"), "int * [3] [2]");
    assert_eq!(var_ty(&p, "f"), "int * * (int) *");
    assert_eq!(var_ty(&p, "q"), "int [3] *");
    assert_eq!(var_ty(&p, "s"), "char [4]");
    assert_eq!(var_ty(&p, "t"), "int [6]");
}

#[test]
fn integer_literal_types() {
    let p = lower(
        "int a = 2147483647; long long b = 2147483648; unsigned c = 0xffffffff; long d = 5L; int e = 'a' + '\\xff';",
    );
    let ty_of_init = |name: &str| {
        let g = p.globals.iter().find_map(|g| match g {
            GlobalDecl::Var { var, init: Some(Init::Expr(e)), .. } if p.var(*var).name == name => Some(e.clone()),
            _ => None,
        });
        let e = g.expect("init");
        (p.types.display(e.strip_implicit().ty), eval_int(&p.types, &e))
    };
    assert_eq!(ty_of_init("a"), ("int".into(), Some(2147483647)));
    assert_eq!(ty_of_init("b"), ("long long".into(), Some(2147483648)));
    assert_eq!(ty_of_init("c"), ("unsigned int".into(), Some(0xffffffff)));
    assert_eq!(ty_of_init("d"), ("long".into(), Some(5)));
    assert_eq!(ty_of_init("e"), ("int".into(), Some(97 - 1)));
}

#[test]
fn usual_arithmetic_conversions() {
    let p = lower("unsigned u; int i; char c; long long ll; int f(void) { return u + i < c; } long long g(void) { return ll * u; }");
    let body = |name: &str| p.func(p.func_by_name(name).unwrap()).body.clone().unwrap();
    let StmtKind::Block(items) = body("f").kind else { panic!() };
    let StmtKind::Return(Some(e)) = &items[0].kind else { panic!() };
    let ExprKind::Binary(BinOp::Lt, l, r) = &e.kind else { panic!("{e:?}") };
    assert_eq!(p.types.display(l.ty), "unsigned int");
    assert_eq!(p.types.display(r.ty), "unsigned int");
    assert_eq!(p.types.display(e.ty), "int");
    let StmtKind::Block(items) = body("g").kind else { panic!() };
    let StmtKind::Return(Some(e)) = &items[0].kind else { panic!() };
    assert_eq!(p.types.display(e.ty), "long long");
}

#[test]
fn narrow_bitfields_promote_to_int() {
    // C11 6.3.1.1p2, as gcc: a bit-field all of whose values `int` holds promotes to `int` (also
    // through a comma), one of 32 unsigned bits stays `unsigned int`.
    let p = lower(
        "struct s { unsigned f : 17; unsigned g : 32; } v; int n;
        int a(void) { return v.f > n; } int b(void) { return v.g > n; } int c(void) { return (n, v.f) > n; }",
    );
    let ret = |name: &str| {
        let StmtKind::Block(items) = p.func(p.func_by_name(name).unwrap()).body.clone().unwrap().kind else { panic!() };
        let StmtKind::Return(Some(e)) = &items[0].kind else { panic!() };
        e.clone()
    };
    for (f, ty) in [("a", "int"), ("b", "unsigned int"), ("c", "int")] {
        let e = ret(f);
        let ExprKind::Binary(BinOp::Gt, l, r) = &e.kind else { panic!("{e:?}") };
        assert_eq!((p.types.display(l.ty), p.types.display(r.ty)), (ty.to_string(), ty.to_string()), "{f}");
    }
}

#[test]
fn shadowed_locals_get_cpachecker_names() {
    let p = lower("int x; void f(int a) { int x; { int x; int a2; } static int s; }");
    let names: Vec<&str> = p.vars.iter().map(|v| v.cpa_name.as_str()).collect();
    assert_eq!(names, ["x", "a", "x", "x__1", "a2", "static__f__s"]);
    assert_eq!(p.late_globals.len(), 1);
}

#[test]
fn struct_members_and_enums() {
    let p = lower(
        "enum e { A, B = 5, C }; struct s { int a; struct { char b; }; union { int c; short d; } u; };
        int f(struct s *p) { return p->b + p->u.d + C; }",
    );
    let f = p.func(p.func_by_name("f").unwrap());
    let StmtKind::Block(items) = &f.body.as_ref().unwrap().kind else { panic!() };
    let StmtKind::Return(Some(e)) = &items[0].kind else { panic!() };
    assert_eq!(p.types.display(e.ty), "int");
    let ExprKind::Binary(BinOp::Add, _, c) = &e.kind else { panic!() };
    assert_eq!(eval_int(&p.types, c), Some(6));
}

#[test]
fn function_headers_and_globals_in_order() {
    let p = lower("void error(void) { }\nint m  ;\nstruct t { int x; } v;\ntypedef int I;\nint\nmain() { return 0; }");
    let kinds: Vec<String> = p
        .globals
        .iter()
        .map(|g| match g {
            GlobalDecl::Var { var, .. } => format!("var {}", p.var(*var).name),
            GlobalDecl::Type { .. } => "type".into(),
            GlobalDecl::FuncProto { func, .. } => format!("proto {}", p.func(*func).name),
            GlobalDecl::FuncDef { func } => format!("def {}", p.func(*func).header_text.clone().unwrap()),
        })
        .collect();
    assert_eq!(kinds, ["def void error(void)", "var m", "type", "var v", "type", "def int main()"]);
}

#[test]
fn cil_output_parses() {
    let src = "typedef unsigned long size_t;
struct list_head { struct list_head *next ; } __attribute__((__packed__)) ;
extern void *memcpy(void * , void const   * , size_t  ) ;
long __builtin_expect(long  , long  ) ;
void f(void)
{ int tmp ;
  struct list_head *p ;
  {
  tmp = (int )__builtin_expect((long )(p == 0), 0L);
  __asm__  volatile   (\"\": : : \"memory\");
  while_0_continue: /* CIL Label */ ;
  __extension__ ({ 1; });
  }
}";
    let (p, diags) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Lp64).unwrap();
    assert!(diags.is_empty(), "{diags:?}");
    // The statement expression is lowered with its value's type.
    let f = p.func_by_name("f").expect("f");
    let StmtKind::Block(outer) = &p.func(f).body.as_ref().unwrap().kind else { panic!() };
    let StmtKind::Block(inner) = &outer.last().unwrap().kind else { panic!() };
    let StmtKind::Expr(e) = &inner.last().unwrap().kind else { panic!() };
    assert!(matches!(e.kind, ExprKind::StmtExpr(_)), "{e:?}");
    assert_eq!(p.types.display(e.ty), "int");
}

#[test]
fn statement_expressions_have_the_type_of_their_last_statement() {
    let src = "int g(void);\nvoid f(int x) {\n  int a = ({ int t = x; t + 1; });\n  ({ if (x) g(); });\n  long s = sizeof ((x) ? 1 : 0);\n  long u = sizeof (g());\n}";
    let (p, diags) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).unwrap();
    assert!(diags.is_empty(), "{diags:?}");
    let f = p.func_by_name("f").expect("f");
    let StmtKind::Block(items) = &p.func(f).body.as_ref().unwrap().kind else { panic!() };
    let init = |i: usize| match &items[i].kind {
        StmtKind::Decl(entries) => match &entries[0] {
            LocalEntry::Var(LocalDecl { init: Some(Init::Expr(e)), .. }) => e.strip_implicit().clone(),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    assert!(matches!(init(0).kind, ExprKind::StmtExpr(_)));
    assert_eq!(p.types.display(init(0).ty), "int");
    let StmtKind::Expr(e) = &items[1].kind else { panic!() };
    assert_eq!(p.types.display(e.ty), "void");
    // sizeof keeps an operand with branches (CPAchecker hoists them), not one with a call.
    assert!(matches!(init(2).kind, ExprKind::SizeOfExpr(4, _)), "{:?}", init(2));
    assert!(matches!(init(3).kind, ExprKind::SizeOf(4)), "{:?}", init(3));
    // Outside a function a statement expression means nothing.
    assert_eq!(lower_err("int x = ({ 1; });"), "t.c:1:9: statement expression outside a function");
}

#[test]
fn gcc_float128_is_float128() {
    // <stddef.h>'s `max_align_t` under -m32.
    let src = "typedef struct { long long a; __float128 f __attribute__((__aligned__(__alignof(__float128)))); } m;\nm v;\nchar *s = \"__float128\";";
    let (p, diags) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).unwrap();
    assert!(diags.is_empty(), "{diags:?}");
    let v = p.vars.iter().find(|v| v.name == "v").unwrap();
    assert_eq!((p.types.size_of(v.ty), p.types.align_of(v.ty)), (Some(32), 16));
    assert_eq!(p.strings.iter().find(|s| s.starts_with(b"__")).map(Vec::len), Some(11), "literals stay");
}

#[test]
fn no_node_starts_with_extension() {
    // CDT's empty macro: `<stdlib.h>`'s `lldiv_t` has CPAchecker's text without it.
    let src = "__extension__ typedef struct\n  {\n    long long int quot;\n  } lldiv_t;\nint f(void) { return __extension__ ({ 1; }) + __extension__ 2; }\nchar *s = \"__extension__\";";
    let (p, diags) = parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Lp64).unwrap();
    assert!(diags.is_empty(), "{diags:?}");
    let GlobalDecl::Type { span, .. } = &p.globals[0] else { panic!("{:?}", p.globals[0]) };
    assert_eq!(p.text(*span), "typedef struct\n  {\n    long long int quot;\n  } lldiv_t;");
    let f = p.func_by_name("f").unwrap();
    let StmtKind::Block(items) = &p.func(f).body.as_ref().unwrap().kind else { panic!() };
    assert_eq!(p.text(items[0].span), "return __extension__ ({ 1; }) + __extension__ 2;", "inner ones stay");
    assert_eq!(p.strings.iter().find(|s| s.starts_with(b"__")).map(Vec::len), Some(14), "literals stay");
}

#[test]
fn errors_name_the_place() {
    assert_eq!(lower_err("int x;\nint f() { return y; }"), "t.c:2:18: use of undeclared identifier 'y'");
    assert!(lower_err("int x;\nint y = ;").starts_with("t.c:2:9: syntax error"), "{}", lower_err("int x;\nint y = ;"));
}

#[test]
fn attribute_between_struct_and_tag_packs_the_record() {
    let src = "struct __attribute__((packed)) p { char a; int b; };\n#pragma pack(2)\nstruct q { char a; int b; };";
    for dm in [DataModel::Ilp32, DataModel::Lp64] {
        let (p, _) = parse_program(SourceFile::new("t.c", src.to_string()), dm).unwrap();
        let sizes: Vec<u64> = (0..2).map(|r| p.types.record(RecordId::from_idx(r)).size).collect();
        assert_eq!(sizes, [5, 6], "{dm:?}");
    }
}

#[test]
fn jumps_without_their_construct_are_errors() {
    for (src, msg) in [
        ("int main(void){ break; }", "t.c:1:17: 'break' statement not in loop or switch statement"),
        ("int main(void){ continue; }", "t.c:1:17: 'continue' statement not in loop statement"),
        ("int main(int x){ switch(x){ case 1: continue; } }", "t.c:1:37: 'continue' statement not in loop statement"),
        ("int main(void){\n case 1: return 0; }", "t.c:2:2: 'case' statement not in switch statement"),
        ("int main(void){ default: return 0; }", "t.c:1:17: 'default' statement not in switch statement"),
        ("int main(void){ goto L; return 0; }", "t.c:1:22: use of undeclared label 'L'"),
        ("int main(void){ L: ; L: ; return 0; }", "t.c:1:22: redefinition of label 'L'"),
        ("int main(void){ L: ; } int f(void){ goto L; }", "t.c:1:42: use of undeclared label 'L'"),
    ] {
        assert_eq!(lower_err(src), msg, "{src}");
    }
}

#[test]
fn jumps_inside_their_construct_lower() {
    // A continue in a switch in a loop, Duff's device (cases inside a loop inside the switch), nested
    // switches with equal values, a backward and a forward goto.
    lower("int main(int x){ while(x){ switch(x){ case 1: continue; case 2: break; default: x--; } } L: if (x) goto L; goto E; E: return 0; }");
    lower("int main(int n){ switch(n % 4){ case 0: do { n++; case 1: n++; } while(n < 9); } return n; }");
    lower("int main(int x){ switch(x){ case 1: switch(x){ case 1: default: break; } default: break; } return 0; }");
}

#[test]
fn case_values_are_distinct_constants() {
    for (src, msg) in [
        ("int main(int x){ switch(x){ case 1: case 1: break; } }", "t.c:1:42: duplicate case value '1'"),
        ("int main(int x){ switch(x){ case 1 ... 5: case 5: break; } }", "t.c:1:48: duplicate case value '5'"),
        ("int main(int x){ switch(x){ case 4: case 2 ... 7: break; } }", "t.c:1:42: duplicate case value '4'"),
        (
            "int main(unsigned x){ switch(x){ case -1: case 4294967295U: ; } }",
            "t.c:1:48: duplicate case value '4294967295'",
        ),
        ("int main(int x){ switch(x){ default: ; default: ; } }", "t.c:1:40: multiple default labels in one switch"),
        (
            "int main(int x){ int y = 1; switch(x){ case y: ; } }",
            "t.c:1:45: case label is not an integer constant expression",
        ),
    ] {
        assert_eq!(lower_err(src), msg, "{src}");
    }
    // Values are compared after conversion to the promoted type: 1 and 257 differ in an `int`.
    lower("int main(unsigned char x){ switch(x){ case 1: case 257: case 3 ... 1: case 2: break; } return 0; }");
}

#[test]
fn bad_members_and_redefinitions_are_errors() {
    for (src, msg) in [
        ("struct s { int a : -1; };", "t.c:1:20: bit-field 'a' has negative width (-1)"),
        ("struct s { int a : 0; };", "t.c:1:20: bit-field 'a' has zero width"),
        ("struct s { int *p : 3; };", "t.c:1:21: bit-field 'p' has non-integer type 'int *'"),
        ("struct s { struct s x; };", "t.c:1:21: field 'x' has incomplete type 'struct s'"),
        ("struct s { void v; };", "t.c:1:17: field 'v' has incomplete type 'void'"),
        ("int f(void){ return 0; }\nint f(void){ return 1; }", "t.c:2:5: redefinition of 'f'"),
    ] {
        assert_eq!(lower_err(src), msg, "{src}");
    }
    // A bit-field wider than its type is cut to the type's width, with a warning.
    let (p, diags) =
        parse_program(SourceFile::new("t.c", "struct s { int a : 40; } v;".to_string()), DataModel::Ilp32).unwrap();
    let TypeKind::Record(r) = p.types.kind(p.var(VarId::from_idx(0)).ty) else { panic!("not a record") };
    assert_eq!(p.types.record(*r).fields.as_ref().unwrap()[0].bitfield, Some((0, 32)));
    assert_eq!(diags.len(), 1);
    assert!(
        diags[0].to_string().contains("t.c:1:20: warning: width of bit-field 'a' (40 bits) exceeds"),
        "{}",
        diags[0]
    );
    // An unnamed zero-width bit-field only aligns the next one; a flexible array member is fine.
    lower("struct s { int a : 3; int : 0; int b : 32; char c[]; } v; int f(void); int f(void) { return 0; }");
}

#[test]
fn long_runs_of_signs_are_syntax_errors_without_backtracking() {
    // Found by fuzzing (the `cfront` target): lang_c's parser needs minutes for 34 `+`.
    let src = format!("int i(){{a/{}", "+".repeat(40));
    assert_eq!(lower_err(&src), "t.c:1:11: syntax error: more than three '+' in a row");
    assert_eq!(
        lower_err("int main(void) { int a = 1;\n return a----a; }"),
        "t.c:2:10: syntax error: more than three '-' in a row"
    );
    // Three in a row are C (`a++ + b`, `a-- - b`), and literals and comments may hold any number.
    lower("int main(void) { int a = 1, b = 2; char *s = \"++++\"; char c = '-'; /* ---- */ return a+++b + a---b + (s[0] == c); }");
}

#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn corpus_programs_lower() {
    let dir = std::path::Path::new(env!("VCOV_CORPUS_DIR"));
    assert!(dir.is_dir(), "this test needs the shared corpus, which is not at {}", dir.display());
    let mut files = Vec::new();
    for sub in ["fse12/systemc", "fse12/drivers64", "cpachecker", "svcomp/c"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            } else {
                files.push(p);
            }
        }
    }
    files.retain(|f| f.extension().is_some_and(|x| x == "c" || x == "i"));
    assert!(files.len() > 100);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for dm in [DataModel::Ilp32, DataModel::Lp64] {
            if let Err(e) = parse_program(SourceFile::new(&f, text.clone()), dm) {
                panic!("{e}");
            }
        }
    }
}
