//! The copy of the program `vcov replay` compiles: the program's own text, rewritten in place so
//! that every line keeps its number (preprocessor lines blanked, inline `asm` neutralized, the
//! violation recorded, uninitialized locals filled), for gcc and gcov to count the lines vcov does.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::cfront::ir::{Expr, ExprKind, Init, LocalDecl, LocalEntry, Program, Stmt, StmtKind, VarKind};

/// The copy of the program `vcov replay` compiles: preprocessor lines blanked (`blank_directives`;
/// the line markers of a program vcov preprocessed stay, so that gcc and gcov count the lines of the
/// user's file, as vcov does),
/// inline `asm` statements neutralized (vcov's executor gives them no effect), and, when labels named
/// `ERROR` are violations (`error_label`), a call recording the violation put before the statement
/// each such label marks; otherwise a call recording the violation put first in the body of a
/// violation function the program defines itself (`reach_error`, `__VERIFIER_error`: calling one is
/// the violation, whatever its body does); after each declaration of a local without initializer
/// among `fill` (variable indices: those whose bytes some test read before writing them), a call
/// that gives its bytes the values the execution read (`vcov_local`; not in the first clause of a
/// `for`). Only those: the call puts code on the declaration's line, which gcov then counts. Every
/// edit stays on the lines it replaces, so gcov's line numbers are the original file's.
pub fn replay_copy(prog: &Program, text: &str, error_label: bool, fill: &BTreeSet<u32>) -> String {
    let mut out = blank_directives(text, prog.file.is_preprocessed()).into_bytes();
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut for_inits = BTreeSet::new();
    // The models of vcov's C library have no text in the program's file.
    for f in prog.funcs.iter().filter(|f| !f.library) {
        if let Some(body) = &f.body {
            visit_stmts(body, &mut |st| match &st.kind {
                StmtKind::For { init: Some(init), .. } => {
                    for_inits.insert((init.span.lo, init.span.hi));
                }
                StmtKind::Decl(entries) if !for_inits.contains(&(st.span.lo, st.span.hi)) => {
                    let mut calls = String::new();
                    for e in entries {
                        let LocalEntry::Var(LocalDecl { var, init: None }) = e else { continue };
                        let v = prog.var(*var);
                        if matches!(v.kind, VarKind::Local(_)) && !v.is_extern && fill.contains(&(var.idx() as u32)) {
                            let _ = write!(calls, " vcov_local(&{0}, sizeof {0}, {1});", v.name, var.idx());
                        }
                    }
                    if let (false, Some(at)) = (calls.is_empty(), after_semicolon(&out, st.span.hi as usize)) {
                        inserts
                            .push((at, format!(" {{ extern void vcov_local(void *, unsigned long, long);{calls} }}")));
                    }
                }
                _ => {}
            });
        }
    }
    for f in prog.funcs.iter().filter(|f| !f.library) {
        if let (Some(body), false) = (&f.body, error_label) {
            let call = match f.name.as_str() {
                "reach_error" => Some(REACH_ERROR_CALL),
                "__VERIFIER_error" => Some(VERIFIER_ERROR_CALL),
                _ => None,
            };
            if let Some(call) = call.filter(|_| out.get(body.span.lo as usize) == Some(&b'{')) {
                inserts.push((body.span.lo as usize + 1, call.to_string()));
            }
        }
        if let Some(body) = &f.body {
            visit_stmts(body, &mut |st| match &st.kind {
                StmtKind::Asm => neutralize(&mut out, st.span.lo as usize, st.span.hi as usize),
                StmtKind::Label { name, body } if error_label && name.eq_ignore_ascii_case("ERROR") => {
                    inserts.push((body.span.lo as usize, ERROR_LABEL_CALL.to_string()));
                }
                _ => {}
            });
        }
    }
    inserts.sort_unstable();
    for (at, text) in inserts.into_iter().rev() {
        if at <= out.len() {
            out.splice(at..at, text.bytes());
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` with every `always_inline` and `__always_inline__` attribute blanked (the attribute list
/// stays, possibly empty, which gcc accepts): at `-O0` gcc still inlines such functions, and gcov
/// then counts the lines of their bodies unreliably (a line the run executed can show count 0).
/// Blanking keeps every byte offset and line.
pub fn without_always_inline(text: &str) -> String {
    let mut out = text.as_bytes().to_vec();
    for word in ["__always_inline__", "always_inline"] {
        let mut from = 0;
        while let Some(k) = text[from..].find(word) {
            let at = from + k;
            let end = at + word.len();
            let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            let bytes = text.as_bytes();
            if (at == 0 || !ident(bytes[at - 1])) && (end == bytes.len() || !ident(bytes[end])) {
                out[at..end].fill(b' ');
            }
            from = end;
        }
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// One past the `;` that ends a declaration whose span ends at `hi` (at `hi`, or after blanks).
fn after_semicolon(out: &[u8], hi: usize) -> Option<usize> {
    if hi > 0 && out.get(hi - 1) == Some(&b';') {
        return Some(hi);
    }
    let mut at = hi;
    while at < out.len() && out[at].is_ascii_whitespace() && out[at] != b'\n' {
        at += 1;
    }
    (out.get(at) == Some(&b';')).then_some(at + 1)
}

/// What the copy runs where a label `ERROR` marks a statement: a block, so that it is one statement
/// and needs no declaration elsewhere in the file.
const ERROR_LABEL_CALL: &str = "{ extern void vcov_error_label(void); vcov_error_label(); } ";

/// What the copy runs first in a `reach_error` or `__VERIFIER_error` the program defines.
const REACH_ERROR_CALL: &str =
    " { extern void vcov_violation_call(const char *); vcov_violation_call(\"reach_error\"); }";
const VERIFIER_ERROR_CALL: &str =
    " { extern void vcov_violation_call(const char *); vcov_violation_call(\"__VERIFIER_error\"); }";

/// Replaces an `asm` statement by an empty one of the same lines: a statement ending in `;` by `;`,
/// one without (its `;` follows) by `(void)0`.
fn neutralize(out: &mut [u8], lo: usize, hi: usize) {
    let hi = hi.min(out.len());
    if lo >= hi {
        return;
    }
    let ends_with_semicolon = out[..hi].iter().rev().find(|b| !b.is_ascii_whitespace()) == Some(&b';');
    let replacement: &[u8] = if ends_with_semicolon { b";" } else { b"(void)0" };
    for (k, b) in out[lo..hi].iter_mut().enumerate() {
        if *b != b'\n' {
            *b = replacement.get(k).copied().unwrap_or(b' ');
        }
    }
}

/// Calls `f` on `st` and every statement inside it, those of statement expressions included.
fn visit_stmts(st: &Stmt, f: &mut impl FnMut(&Stmt)) {
    f(st);
    for block in statement_expressions(st) {
        visit_stmts(block, f);
    }
    match &st.kind {
        StmtKind::Block(list) => list.iter().for_each(|s| visit_stmts(s, f)),
        StmtKind::If { then_, else_, .. } => {
            visit_stmts(then_, f);
            if let Some(e) = else_ {
                visit_stmts(e, f);
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. }
        | StmtKind::Case { body, .. }
        | StmtKind::Default { body }
        | StmtKind::Label { body, .. } => visit_stmts(body, f),
        StmtKind::For { init, body, .. } => {
            if let Some(i) = init {
                visit_stmts(i, f);
            }
            visit_stmts(body, f);
        }
        _ => {}
    }
}

/// The blocks of the statement expressions in the expressions of `st` itself (not in the statements
/// it contains).
fn statement_expressions(st: &Stmt) -> Vec<&Stmt> {
    let mut exprs: Vec<&Expr> = Vec::new();
    match &st.kind {
        StmtKind::Decl(entries) => {
            for e in entries {
                match e {
                    LocalEntry::Var(LocalDecl { init: Some(Init::Expr(x)), .. }) => exprs.push(x),
                    LocalEntry::Var(LocalDecl { init: Some(Init::List(leaves)), .. }) => {
                        exprs.extend(leaves.iter().map(|l| &l.value))
                    }
                    _ => {}
                }
            }
        }
        StmtKind::Expr(e)
        | StmtKind::If { cond: e, .. }
        | StmtKind::While { cond: e, .. }
        | StmtKind::DoWhile { cond: e, .. }
        | StmtKind::Switch { cond: e, .. }
        | StmtKind::Return(Some(e)) => exprs.push(e),
        StmtKind::For { cond, step, .. } => exprs.extend(cond.iter().chain(step)),
        _ => {}
    }
    let mut res = Vec::new();
    while let Some(e) = exprs.pop() {
        match &e.kind {
            ExprKind::StmtExpr(block) => res.push(&**block),
            ExprKind::SizeOfExpr(_, x) => exprs.push(x),
            _ => e.for_each_child(|x| exprs.push(x)),
        }
    }
    res
}

/// The program text with every preprocessor line (`#` first on its line, continued over
/// backslash-newline) blanked, every other byte, line and column kept: gcc and gcov then report the
/// physical lines of the given file, as vcov does. `#pragma pack` stays, and so do line markers when
/// `keep_markers` (the text is a preprocessor's output whose lines vcov maps to the user's file).
pub fn blank_directives(text: &str, keep_markers: bool) -> String {
    let mut out = text.as_bytes().to_vec();
    let mut i = 0;
    let mut line_start = true;
    while i < out.len() {
        match out[i] {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\r' | b'\x0c' => {}
            // `#pragma pack` decides layouts that vcov models, so gcc must see it too.
            b'#' if line_start
                && !is_pack_pragma(&text.as_bytes()[i..])
                && !(keep_markers && is_line_marker(&text.as_bytes()[i..])) =>
            {
                while i < out.len() && out[i] != b'\n' {
                    if out[i] == b'\\' && out.get(i + 1) == Some(&b'\n') {
                        out[i] = b' ';
                        i += 1;
                    } else if out[i] != b'\n' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
                continue;
            }
            _ => line_start = false,
        }
        i += 1;
    }
    String::from_utf8(out).expect("only ASCII bytes were replaced")
}

/// Whether `line` (from its `#`) is a line marker (`# 12 "a.c"`, `#line 12`).
fn is_line_marker(line: &[u8]) -> bool {
    let rest: Vec<u8> = line[1..].iter().copied().skip_while(|b| *b == b' ' || *b == b'\t').collect();
    rest.first().is_some_and(u8::is_ascii_digit) || rest.starts_with(b"line ")
}

/// Whether `line` (from its `#`) is a `#pragma pack` directive.
fn is_pack_pragma(line: &[u8]) -> bool {
    let line = String::from_utf8_lossy(&line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())]);
    let words: Vec<&str> = line[1..].split(|c: char| c.is_whitespace() || c == '(').filter(|w| !w.is_empty()).collect();
    words.starts_with(&["pragma", "pack"])
}
