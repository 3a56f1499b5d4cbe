//! Correctness witnesses: the invariants of a proof at the loops of the C program, in the GraphML
//! exchange format 1.0 (`witness-type` `correctness_witness`) and in the YAML format 2.0 of SV-COMP
//! (one `invariant_set` entry of `loop_invariant`s).
//!
//! An invariant is placed at a `while` or `for` loop (`cfa::Node::loop_stmt`), where it holds each
//! time the loop's condition is about to be evaluated. One is written only when every variable it
//! reads is visible at the loop statement under its own name (a parameter, a local declared before
//! the loop in an enclosing block and not hidden by an inner one, or a global declared before the
//! loop and hidden by no local); invariants over other variables (the locals of callers, temporaries
//! vcov introduced, variables declared inside the loop) are left out, which only weakens the
//! witness.
//!
//! Without invariants (a TRUE of the explicit search, or of BMC) the witness is the trivial one: the
//! GraphML automaton has its entry node alone, and the YAML set holds the invariant `1` at the first
//! loop, or at `main`'s first statement in a program without loops.
//!
//! Invariant: the output is a function of its inputs (no clock read here; the caller passes the
//! creation time, and the YAML entry's UUID is derived from the rest of the witness).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::base::Span;
use crate::cfa::{Cfa, NodeId};
use crate::cfront::ir::{FuncId, LocalEntry, Program, Stmt, StmtKind, VarId, VarKind};

use super::{sha256_hex, xml_escape, WitnessInfo};

/// A proven invariant at a loop head (`verify::kind::Invariant`, seen from here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    /// The CFA node of the loop head.
    pub node: NodeId,
    /// The C expression.
    pub expr: String,
    /// The variables it reads.
    pub vars: Vec<VarId>,
}

/// The invariants that can be written at one loop of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedLoop {
    /// The loop head.
    pub node: NodeId,
    /// The function.
    pub func: String,
    /// The line of the loop's keyword in the user's file.
    pub line: u32,
    /// Its column, starting at 1.
    pub column: u32,
    /// The invariants, in the order given.
    pub invariants: Vec<String>,
}

/// The loops of the program with the invariants of `invariants` that can be written there, in
/// source order; loops without any are left out.
pub fn place(prog: &Program, cfa: &Cfa, invariants: &[LoopInvariant]) -> Vec<PlacedLoop> {
    let mut by_node: BTreeMap<NodeId, Vec<&LoopInvariant>> = BTreeMap::new();
    for inv in invariants {
        by_node.entry(inv.node).or_default().push(inv);
    }
    let mut res = Vec::new();
    for (node, invs) in by_node {
        let Some((func, span, line, column)) = loop_location(prog, cfa, node) else { continue };
        let visible = visible_at(prog, func, span);
        let exprs: Vec<String> =
            invs.iter().filter(|i| i.vars.iter().all(|v| visible.contains(v))).map(|i| i.expr.clone()).collect();
        if !exprs.is_empty() {
            res.push(PlacedLoop { node, func: prog.func(func).name.clone(), line, column, invariants: exprs });
        }
    }
    res.sort_by_key(|l| (l.line, l.column));
    res
}

/// The GraphML correctness witness with the invariants `loops` (from `place`).
///
/// The automaton has an entry node and one node per loop carrying the loop's invariants (their
/// conjunction, `invariant.scope` naming the function). Every other node has a transition into each
/// loop's node on an edge of the loop's line that enters a loop head (`enterLoopHead`), and each
/// loop's node leaves for the entry node on any step, so that an invariant is claimed at its loop
/// head only.
/// A loop whose line has another loop's head is left out (the source-code guard could not tell them
/// apart).
pub fn correctness_graphml(info: &WitnessInfo, cfa: &Cfa, loops: &[PlacedLoop]) -> String {
    let loops: Vec<&PlacedLoop> =
        loops.iter().filter(|l| enters_on(cfa, l.node, l.line) && heads_entered_on(cfa, l.line) == 1).collect();
    let mut out = super::graphml_start(info, "correctness_witness", &KEYS);
    for (k, l) in loops.iter().enumerate() {
        let conj: Vec<String> = l.invariants.iter().map(|e| format!("({e})")).collect();
        let _ = writeln!(
            out,
            "  <node id=\"N{}\">\n   <data key=\"invariant\">{}</data>\n   <data key=\"invariant.scope\">{}</data>\n  </node>",
            k + 1,
            xml_escape(&conj.join(" && ")),
            xml_escape(&l.func)
        );
    }
    for from in 0..=loops.len() {
        // No self-loop (witnesslint warns about them): a loop's node is left on the first step of
        // the loop's body and entered again from the entry node.
        for (k, l) in loops.iter().enumerate().filter(|&(k, _)| k + 1 != from) {
            let _ = writeln!(
                out,
                "  <edge source=\"N{from}\" target=\"N{}\">\n   <data key=\"startline\">{}</data>\n   <data key=\"enterLoopHead\">true</data>\n  </edge>",
                k + 1,
                l.line
            );
        }
        if from > 0 {
            let _ = writeln!(out, "  <edge source=\"N{from}\" target=\"N0\"/>");
        }
    }
    out.push_str(" </graph>\n</graphml>\n");
    out
}

/// The YAML correctness witness (format 2.0) with the invariants `loops` (from `place`) of a program
/// whose file name is `info.program_file` and whose data model is `data_model` (`ILP32`, `LP64`).
pub fn correctness_yaml(
    info: &WitnessInfo,
    prog: &Program,
    cfa: &Cfa,
    data_model: &str,
    loops: &[PlacedLoop],
) -> String {
    // (function, line, column, expression)
    let mut content: Vec<(&str, String, u32, u32, String)> = Vec::new();
    for l in loops {
        for e in &l.invariants {
            content.push(("loop_invariant", l.func.clone(), l.line, l.column, e.clone()));
        }
    }
    if content.is_empty() {
        if let Some((kind, func, line, column)) = trivial_location(prog, cfa) {
            content.push((kind, func, line, column, "1".to_string()));
        }
    }
    let file = yaml_str(&info.program_file);
    let mut body = String::new();
    for (kind, func, line, column, expr) in &content {
        let _ = write!(
            body,
            "    - invariant:\n        type: {kind}\n        location:\n          file_name: {file}\n          line: {line}\n          column: {column}\n          function: {}\n        value: {}\n        format: c_expression\n",
            yaml_str(func),
            yaml_str(expr)
        );
    }
    let uuid = uuid_of(&format!("{}\n{}\n{}\n{body}", info.program_hash, info.producer, info.creation_time));
    let (name, version) = info.producer.split_once(' ').unwrap_or((info.producer.as_str(), ""));
    let spec = info.specification.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let _ = write!(
        out,
        "- entry_type: invariant_set\n  metadata:\n    format_version: \"2.0\"\n    uuid: {uuid}\n    creation_time: {}\n    producer:\n      name: {}\n      version: {}\n    task:\n      input_files:\n        - {file}\n      input_file_hashes:\n        {file}: {}\n      specification: {}\n      data_model: {data_model}\n      language: C\n  content:\n",
        yaml_str(&info.creation_time),
        yaml_str(name),
        yaml_str(version),
        info.program_hash,
        yaml_str(&spec),
    );
    if body.is_empty() {
        out.push_str("    []\n");
    } else {
        out.push_str(&body);
    }
    out
}

/// The YAML text of a string: double-quoted, with `"` and `\` escaped (and control characters,
/// which never occur in what is written here, as escapes).
fn yaml_str(s: &str) -> String {
    let mut res = String::with_capacity(s.len() + 2);
    res.push('"');
    for c in s.chars() {
        match c {
            '"' => res.push_str("\\\""),
            '\\' => res.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(res, "\\x{:02x}", c as u32);
            }
            c => res.push(c),
        }
    }
    res.push('"');
    res
}

/// A UUID (RFC 4122 layout, version 4 bits) made from the SHA-256 of `seed`.
fn uuid_of(seed: &str) -> String {
    let h = sha256_hex(seed.as_bytes());
    let b = h.as_bytes();
    let hex = |r: std::ops::Range<usize>| std::str::from_utf8(&b[r]).unwrap_or("0").to_string();
    let variant = ['8', '9', 'a', 'b'][usize::from(b[16] % 4)];
    format!("{}-{}-4{}-{variant}{}-{}", hex(0..8), hex(8..12), hex(13..16), hex(17..20), hex(20..32))
}

/// The function, the statement span, the line and the column of a `while`/`for` loop head, in the
/// user's file (`None` when it lies in a header).
fn loop_location(prog: &Program, cfa: &Cfa, node: NodeId) -> Option<(FuncId, Span, u32, u32)> {
    let n = cfa.node(node);
    let span = n.loop_stmt?;
    let (line, column) = user_position(prog, span)?;
    Some((n.func, span, line, column))
}

/// The line and column (from 1) of `span`'s first byte in the user's file.
fn user_position(prog: &Program, span: Span) -> Option<(u32, u32)> {
    let (path, lc) = prog.file.position(span.lo);
    (path == prog.file.path() && lc.line > 0).then_some((lc.line, lc.col))
}

/// Whether an edge starting on `line` enters `node` (the loop statement's own edge into its head:
/// `while`'s blank edge, or `for`'s initialization and step).
fn enters_on(cfa: &Cfa, node: NodeId, line: u32) -> bool {
    cfa.in_edges(node).iter().any(|&e| cfa.edge(e).lines.is_some_and(|(a, _)| a == line))
}

/// How many loop heads an edge starting on `line` enters.
fn heads_entered_on(cfa: &Cfa, line: u32) -> usize {
    (0..cfa.n_nodes()).map(NodeId::from_idx).filter(|&n| cfa.node(n).loop_head && enters_on(cfa, n, line)).count()
}

/// Where the invariant `1` of a witness without invariants goes: the first `while`/`for` loop in
/// the user's file, else the first statement of `main`'s body.
fn trivial_location(prog: &Program, cfa: &Cfa) -> Option<(&'static str, String, u32, u32)> {
    let first_loop = (0..cfa.n_nodes())
        .map(NodeId::from_idx)
        .filter_map(|n| loop_location(prog, cfa, n))
        .min_by_key(|&(_, _, line, column)| (line, column));
    if let Some((func, _, line, column)) = first_loop {
        return Some(("loop_invariant", prog.func(func).name.clone(), line, column));
    }
    let main = prog.func(cfa.main);
    let Some(Stmt { kind: StmtKind::Block(items), .. }) = &main.body else { return None };
    let first = items.iter().find(|s| !matches!(s.kind, StmtKind::NoEdgeDecl))?;
    let (line, column) = user_position(prog, first.span)?;
    Some(("location_invariant", main.name.clone(), line, column))
}

/// The variables visible under their own names at the statement whose span is `at` in function
/// `func`.
fn visible_at(prog: &Program, func: FuncId, at: Span) -> Vec<VarId> {
    let f = prog.func(func);
    // Names to variables, innermost scope last.
    let mut scopes: Vec<Vec<(String, VarId)>> = Vec::new();
    let mut outer = Vec::new();
    for (i, v) in prog.vars.iter().enumerate() {
        if matches!(v.kind, VarKind::Global) && v.span.lo < at.lo {
            outer.push((v.name.clone(), VarId::from_idx(i)));
        }
    }
    scopes.push(outer);
    scopes.push(f.params.iter().map(|&p| (prog.var(p).name.clone(), p)).collect());
    let Some(body) = &f.body else { return Vec::new() };
    let mut found = None;
    walk(prog, body, at, &mut scopes, &mut found);
    let Some(scopes) = found else { return Vec::new() };
    // The innermost declaration of each name wins.
    let mut by_name: BTreeMap<&str, VarId> = BTreeMap::new();
    for scope in &scopes {
        for (name, v) in scope {
            by_name.insert(name, *v);
        }
    }
    by_name.into_values().collect()
}

/// Walks `s` looking for the statement spanning `at`; when found, stores the scopes open there.
fn walk(
    prog: &Program,
    s: &Stmt,
    at: Span,
    scopes: &mut Vec<Vec<(String, VarId)>>,
    found: &mut Option<Vec<Vec<(String, VarId)>>>,
) {
    if found.is_some() {
        return;
    }
    if s.span == at && matches!(s.kind, StmtKind::While { .. } | StmtKind::For { .. }) {
        *found = Some(scopes.clone());
        return;
    }
    match &s.kind {
        StmtKind::Block(items) => {
            scopes.push(Vec::new());
            for item in items {
                walk(prog, item, at, scopes, found);
                if let StmtKind::Decl(entries) = &item.kind {
                    for e in entries {
                        if let LocalEntry::Var(d) = e {
                            let v = prog.var(d.var);
                            if matches!(v.kind, VarKind::Local(_) | VarKind::StaticLocal(_)) {
                                scopes.last_mut().expect("pushed").push((v.name.clone(), d.var));
                            }
                        }
                    }
                }
            }
            scopes.pop();
        }
        StmtKind::If { then_, else_, .. } => {
            walk(prog, then_, at, scopes, found);
            if let Some(e) = else_ {
                walk(prog, e, at, scopes, found);
            }
        }
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Switch { body, .. } => {
            walk(prog, body, at, scopes, found)
        }
        StmtKind::For { init, body, .. } => {
            // A declaration in the loop's head is visible in its body only.
            scopes.push(Vec::new());
            if let Some(StmtKind::Decl(entries)) = init.as_deref().map(|i| &i.kind) {
                for e in entries {
                    if let LocalEntry::Var(d) = e {
                        scopes.last_mut().expect("pushed").push((prog.var(d.var).name.clone(), d.var));
                    }
                }
            }
            walk(prog, body, at, scopes, found);
            scopes.pop();
        }
        StmtKind::Case { body, .. } | StmtKind::Default { body } | StmtKind::Label { body, .. } => {
            walk(prog, body, at, scopes, found)
        }
        _ => {}
    }
}

/// The keys of a correctness witness besides `super::GRAPH_KEYS`.
const KEYS: [super::GraphmlKey; 4] = [
    ("invariant", "string", "node", "invariant", None),
    ("invariant.scope", "string", "node", "invariant.scope", None),
    ("startline", "int", "edge", "startline", None),
    ("enterLoopHead", "boolean", "edge", "enterLoopHead", Some("false")),
];
