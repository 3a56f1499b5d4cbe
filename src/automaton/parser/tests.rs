//! Unit tests of the automaton parser: the canonical print of what each form parses to.

use super::*;
use crate::automaton::ast::MatchTrigger;

/// `check(input, expect)`: parses `input` (file `t.spc`) with [`parse_all`] and prints every automaton
/// in canonical syntax followed by the diagnostics, one per line; or prints the error.
fn check(input: &str, expect: &str) {
    let file = SourceFile::new("t.spc", input.to_string());
    let res = match parse_all(&file) {
        Ok((automata, diags)) => {
            let mut out: String = automata.iter().map(|a| a.to_string()).collect();
            for d in diags {
                out.push_str(&format!("{d}\n"));
            }
            out
        }
        Err(e) => format!("{e}\n"),
    };
    assert_eq!(res, expect, "\n--- got ---\n{res}");
}

#[test]
fn assumption_automaton() {
    check(
        r#"OBSERVER AUTOMATON AssumptionAutomaton

INITIAL STATE ARG0;

STATE __TRUE :
    TRUE -> GOTO __TRUE;

STATE __FALSE :
    TRUE -> ASSUME {false} GOTO __FALSE;

STATE USEFIRST ARG0 :
    MATCH "" -> GOTO ARG2_0_1;
    MATCH "[!(i == 0)]" -> ASSUME {true} GOTO ARG342M0;
    TRUE -> GOTO __TRUE;

STATE USEFIRST ARG2_0_1 :
    MATCH "int x = 1;" -> GOTO __FALSE;

STATE USEFIRST ARG342M0 :
    TRUE -> GOTO __TRUE;

END AUTOMATON
"#,
        r#"OBSERVER AUTOMATON AssumptionAutomaton

INITIAL STATE ARG0;

STATE USEALL __TRUE :
    TRUE -> GOTO __TRUE;

STATE USEALL __FALSE :
    TRUE -> ASSUME {false} GOTO __FALSE;

STATE USEFIRST ARG0 :
    MATCH "" -> GOTO ARG2_0_1;
    MATCH "[!(i == 0)]" -> ASSUME {true} GOTO ARG342M0;
    TRUE -> GOTO __TRUE;

STATE USEFIRST ARG2_0_1 :
    MATCH "int x = 1;" -> GOTO __FALSE;

STATE USEFIRST ARG342M0 :
    TRUE -> GOTO __TRUE;

END AUTOMATON
"#,
    );
}

#[test]
fn counterexample_automaton() {
    check(
        r#"CONTROL AUTOMATON ErrorPath8
INITIAL STATE ARG0;
STATE USEFIRST ARG0 :
    MATCH "return 0;" -> ERROR;
    MATCH "x" -> ERROR("unreach-call");
    MATCH "y" -> BREAK;
    TRUE -> STOP;
END AUTOMATON
"#,
        r#"CONTROL AUTOMATON ErrorPath8

INITIAL STATE ARG0;

STATE USEFIRST ARG0 :
    MATCH "return 0;" -> ERROR;
    MATCH "x" -> ERROR("unreach-call");
    MATCH "y" -> BREAK;
    TRUE -> STOP;

END AUTOMATON
"#,
    );
}

#[test]
fn default_mode_is_useall_and_target_states() {
    check(
        "AUTOMATON A\nINITIAL STATE s;\nSTATE s :\nTARGET STATE USEFIRST t :\nTARGET STATE u : TRUE -> GOTO s;\nEND AUTOMATON",
        "CONTROL AUTOMATON A\n\nINITIAL STATE s;\n\nSTATE USEALL s :\n\nTARGET STATE USEFIRST t :\n\n\
         TARGET STATE USEALL u :\n    TRUE -> GOTO s;\n\nEND AUTOMATON\n",
    );
}

#[test]
fn locals_and_actions() {
    check(
        r#"OBSERVER AUTOMATON A
LOCAL int x = 0;
LOCAL integer y;
LOCAL set<string> s = [a, b];
LOCAL set<int> t;
INITIAL STATE q;
STATE q :
  x == 2 || x != y -> DO x = x + 1 DO y = EVAL(V, "v") - 3 PRINT "x=" x (x == 1) PRINTONCE GOTO q;
  TRUE -> DO s["k\]"] = TRUE DO s[k] = false PRINT GOTO q;
  TRUE -> MODIFY(ValueAnalysis, "setvalue(x:=1)") MODIFY(V("old")) GOTO q;
END AUTOMATON"#,
        r#"OBSERVER AUTOMATON A

LOCAL int x = 0;
LOCAL integer y;
LOCAL set<string> s = [a, b];
LOCAL set<int> t;

INITIAL STATE q;

STATE USEALL q :
    x == 2 || x != y -> DO x = x + 1 DO y = EVAL(V, "v") - 3 PRINT "x=" x (x == 1) PRINTONCE GOTO q;
    TRUE -> DO s["k\]"] = TRUE DO s[k] = FALSE PRINT GOTO q;
    TRUE -> MODIFY(ValueAnalysis, "setvalue(x:=1)") MODIFY(V, "old") GOTO q;

END AUTOMATON
t.spc:10:11: warning: `MODIFY` in an OBSERVER automaton (CPAchecker rejects this)
t.spc:10:51: warning: `MODIFY` in an OBSERVER automaton (CPAchecker rejects this)
"#,
    );
}

#[test]
fn local_warnings() {
    check(
        "AUTOMATON A LOCAL float f; LOCAL int x = 1; LOCAL int x = 2; INITIAL STATE q; STATE q : END AUTOMATON",
        "CONTROL AUTOMATON A\n\nLOCAL float f;\nLOCAL int x = 1;\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n\n\
         END AUTOMATON\n\
         t.spc:1:13: warning: unknown type of LOCAL `f`: CPAchecker knows `int`, `integer`, `set<int>` and `set<string>`\n\
         t.spc:1:45: warning: LOCAL `x` is declared twice; the first declaration is kept, as in CPAchecker\n",
    );
}

#[test]
fn every_match_form() {
    check(
        r#"AUTOMATON A INITIAL STATE q; STATE USEFIRST q :
MATCH "a\"b\\c\n" -> GOTO q;
MATCH {__VERIFIER_error($?)} -> GOTO q;
MATCH [.*foo\].*] -> GOTO q;
MATCH EXIT -> GOTO q;
MATCH ENTRY -> GOTO q;
MATCH ASSERT -> GOTO q;
MATCH LABEL "ERROR" -> GOTO q;
MATCH LABEL [ERR.*] -> GOTO q;
MATCH FUNCTIONCALL "reach_error" -> GOTO q;
END AUTOMATON"#,
        r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEFIRST q :
    MATCH "a\"b\\c\n" -> GOTO q;
    MATCH {__VERIFIER_error($?)} -> GOTO q;
    MATCH [.*foo\].*] -> GOTO q;
    MATCH EXIT -> GOTO q;
    MATCH ENTRY -> GOTO q;
    MATCH ASSERT -> GOTO q;
    MATCH LABEL "ERROR" -> GOTO q;
    MATCH LABEL [ERR.*] -> GOTO q;
    MATCH FUNCTIONCALL "reach_error" -> GOTO q;

END AUTOMATON
"#,
    );
}

#[test]
fn match_extensions_warn() {
    check(
        "AUTOMATON A INITIAL STATE q; STATE q :\nMATCH LABEL ERROR_LBL -> GOTO q;\nMATCH CALL f -> GOTO q;\n\
         MATCH CALL \"g\" -> GOTO q; END AUTOMATON",
        "CONTROL AUTOMATON A\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n    MATCH LABEL \"ERROR_LBL\" -> GOTO q;\n    \
         MATCH FUNCTIONCALL \"f\" -> GOTO q;\n    MATCH FUNCTIONCALL \"g\" -> GOTO q;\n\nEND AUTOMATON\n\
         t.spc:2:13: warning: `MATCH LABEL ERROR_LBL` is not CPAchecker syntax; read as `MATCH LABEL \"ERROR_LBL\"`\n\
         t.spc:3:7: warning: `MATCH CALL` is not CPAchecker syntax; read as `MATCH FUNCTIONCALL \"f\"`\n\
         t.spc:4:7: warning: `MATCH CALL` is not CPAchecker syntax; read as `MATCH FUNCTIONCALL \"g\"`\n",
    );
}

#[test]
fn checks_and_covers_lines() {
    check(
        r#"AUTOMATON A INITIAL STATE q; STATE q :
CHECK(AssumptionAutomaton, "state == __FALSE") -> GOTO q;
CHECK(ValueAnalysis("x==1")) -> GOTO q;
CHECK("query") -> GOTO q;
CHECK(IS_TARGET_STATE) -> GOTO q;
COVERS_LINES(5 3 4 3) -> GOTO q;
COVERS_LINES() -> GOTO q;
END AUTOMATON"#,
        r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEALL q :
    CHECK(AssumptionAutomaton, "state == __FALSE") -> GOTO q;
    CHECK(ValueAnalysis, "x==1") -> GOTO q;
    CHECK("query") -> GOTO q;
    CHECK(IS_TARGET_STATE) -> GOTO q;
    COVERS_LINES(3 4 5) -> GOTO q;
    COVERS_LINES() -> GOTO q;

END AUTOMATON
"#,
    );
}

#[test]
fn boolean_combinations_group_like_cpachecker() {
    // `&&` and `||` share one level and group left; `!` binds tightest; `==` binds tighter than `&&`.
    check(
        r#"AUTOMATON A INITIAL STATE q; STATE q :
MATCH "a" || MATCH "b" && !MATCH "c" -> GOTO q;
!(TRUE && FALSE) == true != false -> GOTO q;
(x + 1) - 2 == EVAL(c, "q") && !!TRUE -> GOTO q;
END AUTOMATON"#,
        r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEALL q :
    (MATCH "a" || MATCH "b") && !MATCH "c" -> GOTO q;
    !(TRUE && FALSE) == TRUE != FALSE -> GOTO q;
    x + 1 - 2 == EVAL(c, "q") && !!TRUE -> GOTO q;

END AUTOMATON
"#,
    );
}

#[test]
fn assertions_and_assumptions() {
    check(
        r#"AUTOMATON A INITIAL STATE q; STATE q :
TRUE -> ASSERT x == 1 ASSERT TRUE ASSUME {a == 1; f(";", ')'); ; s[i] == '\}'} GOTO q;
TRUE -> ASSUME "x > 0" GOTO q;
TRUE -> ASSUME {} GOTO q;
END AUTOMATON
ASSERT MATCH "x";
ASSERT TRUE;"#,
        r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEALL q :
    TRUE -> ASSERT x == 1 ASSERT TRUE ASSUME {a == 1; f(";", ')'); s[i] == '\}'} GOTO q;
    TRUE -> ASSUME {x > 0} GOTO q;
    TRUE -> GOTO q;

END AUTOMATON
CONTROL AUTOMATON AnonymousAutomaton0

INITIAL STATE OK;

STATE USEFIRST OK :
    TRUE -> ASSERT MATCH "x" GOTO OK;

END AUTOMATON
CONTROL AUTOMATON AnonymousAutomaton1

INITIAL STATE OK;

STATE USEFIRST OK :
    TRUE -> ASSERT TRUE GOTO OK;

END AUTOMATON
"#,
    );
}

#[test]
fn undeclared_true_and_false_are_synthesized() {
    check(
        "OBSERVER AUTOMATON A\nINITIAL STATE ARG0;\nSTATE USEFIRST ARG0 :\n  MATCH \"a\" -> GOTO __FALSE;\n  \
         TRUE -> GOTO __TRUE;\nEND AUTOMATON\n",
        "OBSERVER AUTOMATON A\n\nINITIAL STATE ARG0;\n\nSTATE USEFIRST ARG0 :\n    MATCH \"a\" -> GOTO __FALSE;\n    \
         TRUE -> GOTO __TRUE;\n\nSTATE USEALL __FALSE : // synthetic\n    TRUE -> ASSUME {false} GOTO __FALSE;\n\n\
         STATE USEALL __TRUE : // synthetic\n    TRUE -> GOTO __TRUE;\n\nEND AUTOMATON\n",
    );
    check(
        "AUTOMATON A INITIAL STATE __TRUE; END AUTOMATON",
        "CONTROL AUTOMATON A\n\nINITIAL STATE __TRUE;\n\nSTATE USEALL __TRUE : // synthetic\n    \
         TRUE -> GOTO __TRUE;\n\nEND AUTOMATON\n",
    );
}

#[test]
fn missing_initial_state_of_a_proof_reads_as_true() {
    check(
        "OBSERVER AUTOMATON AssumptionAutomaton\n\nINITIAL STATE ARG0;\n\nSTATE __TRUE :\n    TRUE -> GOTO __TRUE;\n\n\
         END AUTOMATON\n",
        "OBSERVER AUTOMATON AssumptionAutomaton\n\nINITIAL STATE __TRUE;\n\nSTATE USEALL __TRUE :\n    \
         TRUE -> GOTO __TRUE;\n\nEND AUTOMATON\n\
         t.spc:3:15: note: initial state `ARG0` is not declared and no state but `__TRUE`/`__FALSE` is: \
         the verifier left no open path, so the automaton starts in `__TRUE`\n",
    );
}

#[test]
fn observer_stop_warns() {
    check(
        "OBSERVER AUTOMATON A INITIAL STATE q; STATE q : TRUE -> STOP; END AUTOMATON",
        "OBSERVER AUTOMATON A\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n    TRUE -> STOP;\n\nEND AUTOMATON\n\
         t.spc:1:57: warning: `STOP` in an OBSERVER automaton (CPAchecker rejects this)\n",
    );
}

#[test]
fn includes_are_skipped_with_a_warning() {
    check(
        "#include other.spc\nAUTOMATON A INITIAL STATE q; STATE q : END AUTOMATON",
        "CONTROL AUTOMATON A\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n\nEND AUTOMATON\n\
         t.spc:1:1: warning: `#include other.spc` is skipped: automata in other files are not read\n",
    );
}

#[test]
fn name_errors() {
    check(
        "AUTOMATON A\nINITIAL STATE q;\nSTATE q : TRUE -> GOTO q;\nSTATE USEFIRST q : TRUE -> GOTO q;\nEND AUTOMATON",
        "t.spc:4:16: duplicate state `q`: a state of this name is already declared on line 3\n",
    );
    check(
        "AUTOMATON A\nINITIAL STATE q;\nSTATE q :\n  TRUE -> GOTO r;\n  TRUE -> GOTO s;\nEND AUTOMATON",
        "t.spc:4:16: GOTO target `r` is not a declared state\n",
    );
    check(
        "AUTOMATON A\nINITIAL STATE p;\nSTATE q : TRUE -> GOTO q;\nEND AUTOMATON",
        "t.spc:2:15: initial state `p` is not declared\n",
    );
}

#[test]
fn syntax_errors_name_the_token() {
    check("", "");
    check("STATE", "t.spc:1:1: expected `OBSERVER AUTOMATON`, `CONTROL AUTOMATON` or `ASSERT`, found `STATE`\n");
    check("OBSERVER A", "t.spc:1:10: expected `AUTOMATON`, found identifier `A`\n");
    check("AUTOMATON A STATE", "t.spc:1:13: expected `LOCAL` or `INITIAL STATE`, found `STATE`\n");
    check("AUTOMATON A INITIAL STATE q\nSTATE", "t.spc:2:1: expected `;` after the initial state, found `STATE`\n");
    check(
        "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"x\" GOTO q;",
        "t.spc:2:13: expected `->` or an operator, found `GOTO`\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"x\" -> GOTO q\nEND AUTOMATON",
        "t.spc:3:1: expected `;` at the end of the transition, found `END`\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"x\" -> q;",
        "t.spc:2:16: expected an action or a target (`GOTO`, `ERROR`, `STOP` or `BREAK`), found identifier `q`\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q :\n  -> GOTO q;",
        "t.spc:2:3: expected a transition, `STATE` or `END AUTOMATON`, found `->`\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : TRUE -> GOTO q;",
        "t.spc:1:55: expected a transition, `STATE` or `END AUTOMATON`, found end of file\n",
    );
    check("AUTOMATON A INITIAL STATE q; STATE q : MATCH 5 -> STOP;", "t.spc:1:46: expected a string, `{pattern}`, `[regex]`, `LABEL`, `FUNCTIONCALL`, `EXIT`, `ENTRY` or `ASSERT` after `MATCH`, found integer `5`\n");
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : x -> STOP;",
        "t.spc:1:40: expected a transition trigger, found an integer expression\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : x == TRUE -> STOP;",
        "t.spc:1:42: `==` compares a condition with an integer\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : TRUE && 1 -> STOP;",
        "t.spc:1:45: both operands of `&&` must be conditions\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : !x == 1 -> STOP;",
        "t.spc:1:40: the operand of `!` must be a condition\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : TRUE -> DO x = TRUE STOP;",
        "t.spc:1:55: expected an integer expression, found a condition\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : TRUE -> ASSUME x GOTO q;",
        "t.spc:1:55: expected `{…}` with C expressions after `ASSUME`, found identifier `x`\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : COVERS_LINES(1 x) -> STOP;",
        "t.spc:1:55: expected a line number or `)`, found identifier `x`\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : (TRUE -> STOP;",
        "t.spc:1:46: expected `)` or an operator, found `->`\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : END",
        "t.spc:1:43: expected `AUTOMATON` after `END`, found end of file\n",
    );
}

#[test]
fn lexical_errors_come_at_their_position() {
    check(
        "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"a\\qb\" -> STOP;",
        "t.spc:2:11: unknown escape sequence `\\q` in string literal (only \\n, \\t, \\r, \\\" and \\\\ are allowed)\n",
    );
    check(
        "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"ab\n\" -> STOP;",
        "t.spc:2:9: unterminated string literal: no closing `\"` on this line (write a line break as \\n)\n",
    );
    // The syntax error before the bad token wins.
    check("AUTOMATON A INITIAL q \"open", "t.spc:1:21: expected `STATE` after `INITIAL`, found identifier `q`\n");
}

#[test]
fn big_numbers_and_deep_nesting_are_errors() {
    check(
        "AUTOMATON A INITIAL STATE q; STATE q : COVERS_LINES(4294967296) -> STOP; END AUTOMATON",
        "t.spc:1:53: line number `4294967296` is too large\n",
    );
    check(
        "AUTOMATON A LOCAL int x = 99999999999999999999; INITIAL STATE q; END AUTOMATON",
        "t.spc:1:27: integer literal `99999999999999999999` is too large\n",
    );
    let deep = format!("AUTOMATON A INITIAL STATE q; STATE q : {}TRUE -> STOP; END AUTOMATON", "(".repeat(500));
    let file = SourceFile::new("t.spc", deep);
    let err = parse_all(&file).unwrap_err();
    assert_eq!(err.message, "expression nested too deeply (more than 100 levels)");
    let nots = format!("AUTOMATON A INITIAL STATE q; STATE q : {}TRUE -> STOP; END AUTOMATON", "!".repeat(100_000));
    assert!(parse_all(&SourceFile::new("t.spc", nots)).is_err());
    let long =
        format!("AUTOMATON A INITIAL STATE q; STATE q : TRUE{} -> STOP; END AUTOMATON", " && TRUE".repeat(100_000));
    let err = parse_all(&SourceFile::new("t.spc", long)).unwrap_err();
    assert_eq!(err.message, "expression too large (more than 2000 operands)");
}

#[test]
fn largest_expressions_print_and_drop() {
    // Just under the node limit: a left-deep tree of about 1000 levels must print, walk and drop.
    let cond = format!("TRUE{}", " && TRUE".repeat(999));
    let sum = format!("1{}", " + 1".repeat(999));
    let text = format!("AUTOMATON A INITIAL STATE q; STATE q : {cond} -> DO x = {sum} GOTO q; END AUTOMATON");
    let (aut, _) = parse(&SourceFile::new("t.spc", text)).unwrap();
    let printed = aut.to_string();
    assert!(printed.contains(&cond) && printed.contains(&sum));
    let mut n_matches = 0;
    aut.states[0].transitions[0].trigger.for_each_match(&mut |_| n_matches += 1);
    assert_eq!(n_matches, 0);
}

#[test]
fn parse_takes_the_first_automaton() {
    let file = SourceFile::new(
        "t.spc",
        "AUTOMATON A INITIAL STATE q; STATE q : END AUTOMATON AUTOMATON B INITIAL STATE r; STATE r : END AUTOMATON"
            .to_string(),
    );
    let (aut, diags) = parse(&file).unwrap();
    assert_eq!(aut.name, "A");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].to_string(), "t.spc: warning: the file holds 2 automata; only the first, `A`, is read");

    let empty = SourceFile::new("e.spc", "// nothing\n".to_string());
    assert_eq!(
        parse(&empty).unwrap_err().to_string(),
        "e.spc:2:1: no automaton in the file: expected `OBSERVER AUTOMATON`, `CONTROL AUTOMATON` or `ASSERT`"
    );
}

#[test]
fn include_only_file_has_no_automaton() {
    let file = SourceFile::new("d.spc", "#include a.spc\n#include b.spc\n".to_string());
    assert_eq!(
        parse(&file).unwrap_err().to_string(),
        "d.spc:3:1: no automaton in the file (`#include`d files are not read): \
         expected `OBSERVER AUTOMATON`, `CONTROL AUTOMATON` or `ASSERT`"
    );
}

#[test]
fn crlf_line_ends() {
    let text = "OBSERVER AUTOMATON A\r\n// c\r\nINITIAL STATE q;\r\nSTATE USEFIRST q :\r\n  MATCH \"a\" -> GOTO q;\r\nEND AUTOMATON\r\n";
    let (aut, diags) = parse(&SourceFile::new("t.spc", text.to_string())).unwrap();
    assert!(diags.is_empty());
    assert_eq!(aut.states[0].line, 4);
    assert_eq!((aut.states[0].transitions[0].line, aut.states[0].transitions[0].col), (5, 3));
    assert_eq!(aut.states[0].transitions[0].trigger, Trigger::Match(MatchTrigger::Exact("a".to_string())));
}

#[test]
fn invalid_regexes_are_errors_unsupported_ones_warnings() {
    check(
        "AUTOMATON A\nINITIAL STATE q;\nSTATE q :\n  MATCH [a(b] -> GOTO q;\nEND AUTOMATON",
        "t.spc:4:9: invalid regular expression `[a(b]`: unclosed group\n",
    );
    check(
        "AUTOMATON A\nINITIAL STATE q;\nSTATE q :\n  MATCH LABEL [x{2,1}] -> GOTO q;\nEND AUTOMATON",
        "t.spc:4:15: invalid regular expression `[x{2,1}]`: invalid repetition count range, the start must be <= the end\n",
    );
    let file = SourceFile::new(
        "t.spc",
        "AUTOMATON A\nINITIAL STATE q;\nSTATE q :\n  MATCH [a(?=b)] -> GOTO q;\nEND AUTOMATON".to_string(),
    );
    let (_, diags) = parse(&file).unwrap();
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].to_string(),
        "t.spc:4:9: warning: vcov cannot evaluate the regular expression `[a(?=b)]` (look-around, including look-ahead and look-behind, is not supported); it never matches"
    );
}

#[test]
fn parse_error_displays_as_path_line_col_message() {
    let err = ParseError { path: "dir/a.spc".into(), line: 3, col: 7, message: "expected `;`".to_string() };
    assert_eq!(err.to_string(), "dir/a.spc:3:7: expected `;`");
}

#[test]
fn positions_of_states_and_transitions() {
    let file = SourceFile::new(
        "t.spc",
        "AUTOMATON A\nINITIAL STATE q;\n\nTARGET STATE q :\n  TRUE -> GOTO q;\n    MATCH \"x\" -> STOP;\nEND AUTOMATON"
            .to_string(),
    );
    let (aut, _) = parse(&file).unwrap();
    let q = &aut.states[0];
    assert_eq!(q.line, 4);
    let pos: Vec<(u32, u32)> = q.transitions.iter().map(|t| (t.line, t.col)).collect();
    assert_eq!(pos, vec![(5, 3), (6, 5)]);
}

#[test]
fn split_statements_respects_nesting_and_quotes() {
    assert_eq!(split_statements("a; b;;c"), vec!["a", "b", "c"]);
    assert_eq!(split_statements(" f(a;b) ; \"x;\\\"y\" ; ';' "), vec!["f(a;b)", "\"x;\\\"y\"", "';'"]);
    assert_eq!(split_statements("unterminated \"x; y"), vec!["unterminated \"x; y"]);
    assert!(split_statements("  ").is_empty());
}
