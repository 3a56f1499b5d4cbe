//! Text and Graphviz renderings of a CFA (`vcov cfa`).

use std::fmt::Write;

use super::{BlankKind, Cfa, EdgeKind, Era, GlobalKind, NodeKind};
use crate::cfront::ir::Program;

/// One line per edge, grouped by function: `N3 -> N4  [lines 7-8]  kind  "raw text"`. The models of
/// vcov's C library are not the program's and are left out, here and in `to_dot`.
pub fn to_text(cfa: &Cfa, prog: &Program) -> String {
    let mut out = String::new();
    // Each function's edges in id order, grouped in one pass.
    let mut by_func: std::collections::HashMap<_, Vec<_>> = std::collections::HashMap::new();
    for (id, e) in cfa.edges().filter(|&(id, _)| !cfa.is_library_edge(id)) {
        by_func.entry(cfa.node(e.src).func).or_default().push((id, e));
    }
    for f in cfa.funcs.iter().filter(|f| !f.library) {
        let _ = writeln!(out, "function {} (entry N{}, exit N{})", prog.func(f.func).name, f.entry.0, f.exit.0);
        for &(id, e) in by_func.get(&f.func).map(Vec::as_slice).unwrap_or_default() {
            let lines = match e.lines {
                Some((a, b)) if a == b => format!("line {a}"),
                Some((a, b)) => format!("lines {a}-{b}"),
                None => "-".into(),
            };
            // CPAchecker ≥ 2.0's text follows where it differs, and the versions that build the edge
            // where not all do.
            let mut text2 = e.text2.as_ref().map(|t| format!("  2.x+: {t:?}")).unwrap_or_default();
            match e.era {
                Era::All => {}
                Era::Since23 => text2.push_str("  (2.3+ only)"),
                Era::Before23 => text2.push_str("  (before 2.3 only)"),
            }
            let _ = writeln!(
                out,
                "  E{:<5} N{} -> N{}{}  [{lines}]  {}  {:?}{text2}",
                id.0,
                e.src.0,
                e.dst.0,
                node_suffix(cfa, e.dst),
                kind_name(&e.kind),
                e.text.as_ref()
            );
        }
    }
    out
}

/// A Graphviz digraph with one cluster per function.
pub fn to_dot(cfa: &Cfa, prog: &Program) -> String {
    let mut out = String::from("digraph cfa {\n  node [shape=circle fontsize=10];\n");
    let mut by_func: std::collections::HashMap<_, Vec<_>> = std::collections::HashMap::new();
    for n in 0..cfa.n_nodes() {
        by_func.entry(cfa.node(super::NodeId::from_idx(n)).func).or_default().push(n);
    }
    for (i, f) in cfa.funcs.iter().enumerate().filter(|(_, f)| !f.library) {
        let _ = writeln!(out, "  subgraph cluster_{i} {{\n    label={:?};", prog.func(f.func).name);
        for &n in by_func.get(&f.func).map(Vec::as_slice).unwrap_or_default() {
            let node = cfa.node(super::NodeId::from_idx(n));
            let shape = match node.kind {
                NodeKind::Entry => "doublecircle",
                NodeKind::Exit => "doubleoctagon",
                NodeKind::Termination => "box",
                NodeKind::Normal if node.loop_head => "diamond",
                NodeKind::Normal => "circle",
            };
            let _ = writeln!(out, "    N{n} [shape={shape} label=\"N{n}\"];");
        }
        out.push_str("  }\n");
    }
    for (_, e) in cfa.edges().filter(|&(id, _)| !cfa.is_library_edge(id)) {
        let style = match e.kind {
            EdgeKind::Summary(_) => " style=dotted",
            EdgeKind::Call(_) | EdgeKind::Return(_) => " style=dashed",
            _ => "",
        };
        let _ = writeln!(out, "  N{} -> N{} [label={:?}{style}];", e.src.0, e.dst.0, truncate(&e.text, 60));
    }
    out.push_str("}\n");
    out
}

fn node_suffix(cfa: &Cfa, n: super::NodeId) -> &'static str {
    match cfa.node(n).kind {
        NodeKind::Exit => " (exit)",
        NodeKind::Termination => " (end)",
        _ => "",
    }
}

/// A short name of an edge kind (`assume`, `label`, `call`, ...).
pub fn kind_name(k: &EdgeKind) -> &'static str {
    match k {
        EdgeKind::Blank(b) => match b {
            BlankKind::Plain => "blank",
            BlankKind::InitGlobals => "init-globals",
            BlankKind::FunctionStart => "function-start",
            BlankKind::DefaultReturn => "default-return",
            BlankKind::LoopEntry => "loop-entry",
            BlankKind::FallThrough => "fall-through",
            BlankKind::CaseTrue => "case-true",
            BlankKind::Skipped => "skipped",
            BlankKind::Label(_) => "label",
            BlankKind::Goto(_) => "goto",
            BlankKind::ConstCondition => "const-condition",
            BlankKind::Switch => "switch",
            BlankKind::Jump => "jump",
            BlankKind::SwitchDefault => "switch-default",
            BlankKind::Asm => "asm",
            BlankKind::Skip => "skip",
            BlankKind::DoBody => "do-body",
        },
        EdgeKind::Global(GlobalKind::Var { .. }) => "global-var",
        EdgeKind::Global(GlobalKind::Type) => "global-type",
        EdgeKind::Global(GlobalKind::Function(_)) => "function-declaration",
        EdgeKind::Decl { .. } => "declaration",
        EdgeKind::TypeDecl => "type-declaration",
        EdgeKind::Assign { .. } => "assignment",
        EdgeKind::Eval(_) => "expression",
        EdgeKind::ExternCall { .. } => "external-call",
        EdgeKind::Assume { .. } => "assume",
        EdgeKind::Call(_) => "call",
        EdgeKind::Return(_) => "return",
        EdgeKind::Summary(_) => "summary",
        EdgeKind::ReturnStmt(_) => "return-statement",
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}
