//! Whole-program CFA construction, in CPAchecker's order: function bodies, dead-label removal, the
//! simplifier, function-pointer resolution, blank-loop termination, the global prefix of `main`, and
//! the second pass that turns calls of defined functions into call/summary/return edges.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::build::FnBuilder;
use super::graph::Graph;
use super::javaset::hash_set_order;
use super::{
    BlankKind, CallSite, CallSiteId, Cfa, CfaConfig, CfaError, EdgeId, EdgeKind, FuncCfa, GlobalKind, NodeId, NodeKind,
};
use crate::base::{Diagnostic, Severity, Span};
use crate::cfront::ir::{BinOp, CastOrigin, Expr, ExprKind, FuncId, GlobalDecl, Init, Program, Var, VarId, VarKind};
use crate::cfront::types::{IntType, TypeKind};
use crate::libmodels::LibFn;

pub(super) fn build_program(prog: &mut Program, config: &CfaConfig) -> Result<(Cfa, Vec<Diagnostic>), CfaError> {
    let main = prog.func_by_name(&config.entry).filter(|&f| prog.func(f).body.is_some()).ok_or_else(|| {
        CfaError::NoEntry { path: prog.file.path().display().to_string(), name: config.entry.clone() }
    })?;
    let mut diags = Vec::new();
    let mut g = Graph::new();

    // Function bodies, in definition order.
    let defined: Vec<FuncId> = prog
        .globals
        .iter()
        .filter_map(|d| match d {
            GlobalDecl::FuncDef { func } => Some(*func),
            _ => None,
        })
        .collect();
    let mut marks: Vec<bool> = Vec::new();
    let mut funcs = Vec::new();
    for (fc, labels) in build_bodies(prog, &mut g, &defined, false) {
        // Labels not reachable from the entry are removed with the code hanging off them.
        if !labels.is_empty() {
            marks.resize(g.nodes.len(), false);
            let reached = g.reachable_in_function(fc.entry, &mut marks);
            for l in labels {
                if !marks[l.idx()] {
                    for e in g.inc[l.idx()].clone() {
                        g.remove_edge(e);
                    }
                    g.remove_chain(l);
                }
            }
            for n in reached {
                marks[n.idx()] = false;
            }
        }
        funcs.push(fc);
    }

    let mut by_name: Vec<&FuncCfa> = funcs.iter().collect();
    by_name.sort_by(|a, b| prog.func(a.func).name.cmp(&prog.func(b.func).name));
    let entries_by_name: Vec<NodeId> = by_name.iter().map(|f| f.entry).collect();
    let exits: HashMap<FuncId, (NodeId, NodeId)> = funcs.iter().map(|f| (f.func, (f.entry, f.exit))).collect();

    for fc in &funcs {
        simplify_function(&mut g, fc.entry);
    }
    let globals = global_entries(prog);
    resolve_function_pointers(prog, &mut g, &entries_by_name, &exits, &globals, &mut diags);
    terminate_blank_loops(&mut g, &entries_by_name);
    insert_globals(&mut g, exits[&main].0, globals);
    let mut call_sites = second_pass(prog, &mut g, &entries_by_name, &exits, &mut diags);
    let library_init = super::library::link(prog, &mut g, &mut funcs, &mut call_sites);

    let mut keep = vec![false; g.nodes.len()];
    for fc in &funcs {
        g.reachable_in_function(fc.entry, &mut keep);
    }
    // The exits stay even when no return reaches them.
    for fc in &funcs {
        keep[fc.exit.idx()] = true;
    }
    for n in library_init {
        keep[n.idx()] = true;
    }
    let mut cfa = g.freeze(&keep, funcs, call_sites, main, prog.funcs.len());
    cfa.index_library_calls();
    assign_postorder(&mut cfa);
    Ok((cfa, diags))
}

/// Builds the automata of the definitions `defs` (entries and exits first, then the bodies, in that
/// order); returns each with the label nodes of its body (for dead-label removal). `library`: they
/// are models of vcov's C library (`library.rs`).
pub(super) fn build_bodies(
    prog: &mut Program,
    g: &mut Graph,
    defs: &[FuncId],
    library: bool,
) -> Vec<(FuncCfa, Vec<NodeId>)> {
    let mut funcs = Vec::new();
    for &f in defs {
        let entry = g.new_node(f, NodeKind::Entry);
        let exit = g.new_node(f, NodeKind::Exit);
        let ret_var = return_var(prog, f);
        funcs.push(FuncCfa { func: f, entry, exit, ret_var, library });
    }
    let mut names = FnBuilder::locals_by_function(prog);
    funcs
        .into_iter()
        .map(|fc| {
            let start = g.new_node(fc.func, NodeKind::Normal);
            g.add_unchecked(fc.entry, start, EdgeKind::Blank(BlankKind::FunctionStart), "", None);
            let body = prog.func(fc.func).body.clone().expect("defined function has a body");
            let in_use = std::mem::take(&mut names[fc.func.idx()]);
            let labels = FnBuilder::new(prog, g, fc.func, (start, fc.exit), in_use).build_body(&body);
            (fc, labels)
        })
        .collect()
}

/// The variable that carries a function's result from its return statements to its callers.
fn return_var(prog: &mut Program, f: FuncId) -> Option<VarId> {
    let TypeKind::Func(ft) = prog.types.kind(prog.func(f).ty).clone() else { return None };
    if matches!(prog.types.kind(ft.ret), TypeKind::Void) {
        return None;
    }
    prog.vars.push(Var {
        name: "__retval__".into(),
        cpa_name: "__retval__".into(),
        ty: ft.ret,
        kind: VarKind::Local(f),
        span: prog.func(f).span,
        is_extern: false,
    });
    Some(VarId::from_idx(prog.vars.len() - 1))
}

/// Leaving edges of the nodes of each function, in CPAchecker's depth-first traversal order.
fn dfs_edges(g: &Graph, entries: &[NodeId]) -> Vec<EdgeId> {
    let mut res = Vec::new();
    let mut seen = vec![false; g.nodes.len()];
    for &entry in entries {
        let mut stack = vec![entry];
        seen[entry.idx()] = true;
        while let Some(n) = stack.pop() {
            for &e in &g.out[n.idx()] {
                let edge = g.edge(e);
                if matches!(edge.kind, EdgeKind::Call(_)) {
                    continue;
                }
                res.push(e);
                if !seen[edge.dst.idx()] {
                    seen[edge.dst.idx()] = true;
                    stack.push(edge.dst);
                }
            }
        }
    }
    res
}

// ----- CFASimplifier -----

fn simplify_function(g: &mut Graph, root: NodeId) {
    // Branching points in an order where each comes after its predecessors; nodes in or after a loop
    // are never reached by this order (as in CPAchecker).
    let mut points = Vec::new();
    let mut visited = HashSet::default();
    let mut waitlist = vec![root];
    while let Some(cur) = waitlist.pop() {
        if visited.contains(&cur) {
            continue;
        }
        if g.inc[cur.idx()].iter().all(|&e| visited.contains(&g.edge(e).src)) {
            visited.insert(cur);
            if g.out[cur.idx()].len() > 1 {
                points.push(cur);
            }
            waitlist.extend(g.out[cur.idx()].iter().map(|&e| g.edge(e).dst));
        }
    }
    while let Some(bp) = points.pop() {
        if g.out[bp.idx()].len() != 2 {
            continue;
        }
        let (left, right) = (g.out[bp.idx()][0], g.out[bp.idx()][1]);
        let l_end = end_of_blank_chain(g, g.edge(left).dst);
        let r_end = end_of_blank_chain(g, g.edge(right).dst);
        if l_end != r_end {
            continue;
        }
        let mut removed = Vec::new();
        for e in [left, right] {
            let (dst, lines) = (g.edge(e).dst, g.edge(e).lines);
            removed.push(lines);
            g.remove_edge(e);
            remove_blank_chain(g, dst, l_end, &mut removed);
        }
        let end2 = end_of_blank_chain(g, l_end);
        remove_blank_chain(g, l_end, end2, &mut removed);
        // Only the `if` line counts: the removed edges did nothing and their lines are gone.
        let merged = removed.into_iter().flatten().reduce(|(a, b), (c, d)| (a.min(c), b.max(d))).map(|(a, _)| (a, a));
        g.add_unchecked(bp, end2, EdgeKind::Blank(BlankKind::Skipped), "skipped unnecessary edges", merged);
    }
}

fn end_of_blank_chain(g: &Graph, mut cur: NodeId) -> NodeId {
    let mut seen = HashSet::default();
    while g.out[cur.idx()].len() == 1 && matches!(g.edge(g.out[cur.idx()][0]).kind, EdgeKind::Blank(_)) {
        if !seen.insert(cur) {
            return cur;
        }
        cur = g.edge(g.out[cur.idx()][0]).dst;
    }
    cur
}

fn remove_blank_chain(g: &mut Graph, start: NodeId, end: NodeId, removed: &mut Vec<Option<(u32, u32)>>) {
    let mut cur = start;
    while cur != end {
        if !g.inc[cur.idx()].is_empty() || g.out[cur.idx()].len() != 1 {
            return;
        }
        let e = g.out[cur.idx()][0];
        let (dst, lines) = (g.edge(e).dst, g.edge(e).lines);
        removed.push(lines);
        g.remove_edge(e);
        cur = dst;
    }
}

// ----- global declarations -----

/// One edge of `main`'s global prefix: its meaning, raw text and line.
type GlobalEntry = (EdgeKind, String, Option<(u32, u32)>);

/// `main`'s global prefix: one entry per file-scope declaration that CPAchecker keeps after its
/// de-duplication (by printed form; redundant typedefs and late forward declarations dropped).
fn global_entries(prog: &Program) -> Vec<GlobalEntry> {
    let mut res = Vec::new();
    let mut seen = HashSet::default();
    let mut records = HashSet::default();
    let mut initialized = HashSet::default();
    let first_line = |span: Span| prog.file.user_lines(span).map(|(l, _)| (l, l));
    // Declarations whose nested struct and union definitions got their entries.
    let mut nested_done = HashSet::default();
    // How many typedef entries (and other entries without a tag) each declaration has.
    let mut typedefs_per_span: HashMap<Span, usize> = HashMap::default();
    for d in prog.globals.iter().chain(&prog.late_globals) {
        if let GlobalDecl::Type { span, tag: None } = d {
            *typedefs_per_span.entry(*span).or_default() += 1;
        }
    }
    for d in prog.globals.iter().chain(&prog.late_globals) {
        match d {
            GlobalDecl::Type { span, tag } => {
                if nested_done.insert(*span) {
                    // CPAchecker declares each struct or union defined inside another one first, with
                    // the text of the whole declaration.
                    for _ in 0..nested_record_definitions(prog.text(*span)) {
                        res.push((EdgeKind::Global(GlobalKind::Type), decl_text(prog, *span), first_line(*span)));
                    }
                }
                if let Some((t, defines)) = tag {
                    if !defines && records.contains(t) {
                        continue;
                    }
                    records.insert(*t);
                } else {
                    // A typedef of a name already declared is dropped whatever its spelling
                    // (`typedef unsigned long ulong;` after glibc's `typedef unsigned long int
                    // ulong;`): CPAchecker's global scope registers typedefs by name.
                    let single = typedefs_per_span.get(span).copied() == Some(1);
                    let key = match typedef_name(prog.text(*span)) {
                        Some(name) if single => format!("typedef {name}"),
                        _ => format!("type {}", normalize(prog.text(*span))),
                    };
                    if !seen.insert(key) {
                        continue;
                    }
                }
                res.push((EdgeKind::Global(GlobalKind::Type), decl_text(prog, *span), first_line(*span)));
            }
            GlobalDecl::Var { var, init, span } => {
                let v = prog.var(*var);
                let init_text = match init {
                    Some(Init::Expr(e)) => normalize(prog.text(e.span)),
                    Some(Init::List(_)) => "{..}".to_string(),
                    None => String::new(),
                };
                if init.is_none() && initialized.contains(var) {
                    continue;
                }
                let key = format!("var {} {} {} = {init_text}", v.is_extern, prog.types.display(v.ty), v.cpa_name);
                if !seen.insert(key) {
                    continue;
                }
                if init.is_some() {
                    initialized.insert(*var);
                }
                let kind = EdgeKind::Global(GlobalKind::Var { var: *var, init: init.clone() });
                // A block-scope static shows the declaration it came from.
                let text = decl_text(prog, *span);
                res.push((kind, text, first_line(*span)));
            }
            GlobalDecl::FuncProto { func, span, params } => {
                let key = function_key(prog, *func, params.iter().map(|p| p.clone().unwrap_or_default()));
                if !seen.insert(key) {
                    continue;
                }
                res.push((EdgeKind::Global(GlobalKind::Function(*func)), decl_text(prog, *span), first_line(*span)));
            }
            GlobalDecl::FuncDef { func } => {
                let f = prog.func(*func);
                let key = function_key(prog, *func, f.params.iter().map(|p| prog.var(*p).name.clone()));
                if !seen.insert(key) {
                    continue;
                }
                let text = f.header_text.as_deref().map(without_extension).unwrap_or_default().to_string();
                res.push((EdgeKind::Global(GlobalKind::Function(*func)), text, first_line(f.span)));
            }
        }
    }
    res
}

fn function_key(prog: &Program, f: FuncId, params: impl Iterator<Item = String>) -> String {
    let names: Vec<String> = params.collect();
    format!("fn {} {} ({})", prog.types.display(prog.func(f).ty), prog.func(f).name, names.join(","))
}

/// The name a declaration `typedef … name;` declares, when its declarator is a plain name.
fn typedef_name(text: &str) -> Option<&str> {
    let toks = crate::base::c_tokens(without_extension(text));
    if toks.first() != Some(&"typedef") {
        return None;
    }
    match toks[..] {
        [.., name, ";"] if name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') => Some(name),
        _ => None,
    }
}

/// The raw text of the declaration at `span`, as CDT reads it (`without_extension`).
fn decl_text(prog: &Program, span: Span) -> String {
    without_extension(prog.text(span)).to_string()
}

/// A declaration's text without the GNU `__extension__` keywords before it: CDT's node of a
/// declaration starts after them (glibc's `__extension__ typedef struct { .. } lldiv_t;` is
/// `typedef struct { .. } lldiv_t;` in CPAchecker's automata).
pub(super) fn without_extension(text: &str) -> &str {
    let mut t = text;
    while let Some(rest) = t.strip_prefix("__extension__") {
        if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            break;
        }
        t = rest.trim_start();
    }
    t
}

/// How many struct and union definitions a declaration's text holds inside the braces of another
/// one (`typedef union { struct { int lo, hi; } w; } t;` holds one): CPAchecker's AST converter
/// declares each of them on its own before the declaration (`convertDeclarationInCompositeType`).
pub(super) fn nested_record_definitions(text: &str) -> usize {
    let toks = crate::base::c_tokens(text);
    let mut depth = 0usize;
    let mut count = 0;
    for (i, &t) in toks.iter().enumerate() {
        match t {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            "struct" | "union" if depth > 0 => {
                let mut j = skip_attributes(&toks, i + 1);
                if toks.get(j).is_some_and(|t| t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')) {
                    j = skip_attributes(&toks, j + 1);
                }
                if toks.get(j) == Some(&"{") {
                    count += 1;
                }
            }
            _ => {}
        }
    }
    count
}

/// The index of the first token at or after `i` that is not part of a GNU attribute.
fn skip_attributes(toks: &[&str], mut i: usize) -> usize {
    while matches!(toks.get(i), Some(&("__attribute__" | "__attribute"))) {
        i += 1;
        let mut depth = 0usize;
        while let Some(&t) = toks.get(i) {
            i += 1;
            match t {
                "(" => depth += 1,
                ")" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    i
}

/// Whitespace-insensitive form of a declaration's text.
fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn insert_globals(g: &mut Graph, entry: NodeId, globals: Vec<GlobalEntry>) {
    let first = g.out[entry.idx()][0];
    let second = g.edge(first).dst;
    let func = g.nodes[entry.idx()].func;
    g.remove_edge(first);
    let mut cur = g.new_node(func, NodeKind::Normal);
    g.add_unchecked(entry, cur, EdgeKind::Blank(BlankKind::InitGlobals), "", None);
    for (kind, text, lines) in globals {
        let next = g.new_node(func, NodeKind::Normal);
        g.add_unchecked(cur, next, kind, &text, lines);
        cur = next;
    }
    g.add_unchecked(cur, second, EdgeKind::Blank(BlankKind::FunctionStart), "", None);
}

// ----- function pointers -----

fn resolve_function_pointers(
    prog: &mut Program,
    g: &mut Graph,
    entries_by_name: &[NodeId],
    exits: &HashMap<FuncId, (NodeId, NodeId)>,
    globals: &[GlobalEntry],
    diags: &mut Vec<Diagnostic>,
) {
    // Functions whose address is used anywhere, in the order CPAchecker's hash set yields them.
    let mut referenced = Vec::new();
    let mut order: Vec<NodeId> = (0..g.nodes.len()).map(NodeId::from_idx).collect();
    order.sort_by(|a, b| {
        let (fa, fb) = (g.nodes[a.idx()].func, g.nodes[b.idx()].func);
        prog.func(fa).name.cmp(&prog.func(fb).name).then(a.cmp(b))
    });
    for n in order {
        for &e in &g.out[n.idx()] {
            collect_edge_functions(prog, &g.edge(e).kind, &mut referenced);
        }
    }
    for (kind, _, _) in globals {
        if let EdgeKind::Global(GlobalKind::Var { init: Some(init), .. }) = kind {
            collect_init_functions(prog, init, &mut referenced);
        }
    }
    let candidates: Vec<FuncId> = hash_set_order(&referenced)
        .iter()
        .filter_map(|name| prog.func_by_name(name))
        .filter(|f| exits.contains_key(f))
        .collect();

    for e in dfs_edges(g, entries_by_name) {
        let Some(edge) = g.edges[e.idx()].as_ref() else { continue };
        let EdgeKind::ExternCall { lhs, callee, args } = &edge.kind else { continue };
        // `(*fp)(..)` is the same as `fp(..)`.
        let Some(fp) = super::called_pointer(&prog.types, callee).cloned() else { continue };
        let (lhs, callee, args) = (lhs.clone(), callee.clone(), args.clone());
        let targets: Vec<FuncId> = candidates
            .iter()
            .copied()
            .filter(|&f| pointer_target_fits(prog, f, &callee, &args, lhs.is_some()))
            .collect();
        if targets.is_empty() {
            let edge = g.edge(e);
            let lc = edge.lines.map(|l| l.0).unwrap_or(0);
            diags.push(Diagnostic::new(
                Severity::Note,
                prog.file.path(),
                lc,
                0,
                "call through a function pointer with no possible target in this program",
            ));
            continue;
        }
        let edge = g.edge(e).clone();
        g.remove_edge(e);
        let func = g.nodes[edge.src.idx()].func;
        let mut root = edge.src;
        for f in targets {
            let then_n = g.new_node(func, NodeKind::Normal);
            let else_n = g.new_node(func, NodeKind::Normal);
            let fty = prog.func(f).ty;
            let fptr_ty = prog.types.pointer(fty);
            let span = fp.span;
            let addr = Expr {
                kind: ExprKind::AddrOf(Box::new(Expr { kind: ExprKind::Func(f), ty: fty, span })),
                ty: fptr_ty,
                span,
            };
            let addr = if addr.ty == fp.ty {
                addr
            } else {
                Expr { kind: ExprKind::Cast(Box::new(addr), CastOrigin::Implicit), ty: fp.ty, span }
            };
            let int = prog.types.int(IntType::INT);
            let cond = Expr { kind: ExprKind::Binary(BinOp::Eq, Box::new(fp.clone()), Box::new(addr)), ty: int, span };
            let text = super::print::expr_text(prog, &cond);
            g.add(root, then_n, EdgeKind::Assume { cond: cond.clone(), truth: true }, &format!("[{text}]"), edge.lines);
            g.add(root, else_n, EdgeKind::Assume { cond, truth: false }, &format!("[!({text})]"), edge.lines);
            let ret = g.new_node(func, NodeKind::Normal);
            let direct = Expr { kind: ExprKind::Func(f), ty: fty, span };
            let text = format!("pointer call({}) {}", prog.func(f).name, edge.text);
            let kind = EdgeKind::ExternCall { lhs: lhs.clone(), callee: direct, args: args.clone() };
            let call = g.add_unchecked(then_n, ret, kind, &text, edge.lines);
            if let Some(text2) = &edge.text2 {
                g.set_text2(Some(call), &format!("pointer call({}) {text2}", prog.func(f).name));
            }
            g.add_unchecked(ret, edge.dst, EdgeKind::Blank(BlankKind::Skip), "skip", edge.lines);
            root = else_n;
        }
        let kind = edge.kind.clone();
        g.add_like(root, edge.dst, kind, &edge);
    }
}

/// CPAchecker's default target filter: same number of parameters (or enough for a variadic
/// function), return and parameter types of the same sizes, no void function for an assignment.
pub(super) fn pointer_target_fits(prog: &Program, f: FuncId, callee: &Expr, args: &[Expr], assigns: bool) -> bool {
    let TypeKind::Func(ft) = prog.types.kind(prog.func(f).ty) else { return false };
    let count_ok = if ft.variadic { ft.params.len() <= args.len() } else { ft.params.len() == args.len() };
    if !count_ok {
        return false;
    }
    let size = |t| match prog.types.kind(t) {
        TypeKind::Void => Some(1),
        _ => prog.types.size_of(t),
    };
    let call_ret = match prog.types.kind(callee.ty) {
        TypeKind::Func(cf) => cf.ret,
        TypeKind::Pointer(p) => match prog.types.kind(*p) {
            TypeKind::Func(cf) => cf.ret,
            _ => return false,
        },
        _ => return false,
    };
    if size(ft.ret) != size(call_ret) {
        return false;
    }
    for (p, a) in ft.params.iter().zip(args) {
        if size(*p) != size(a.strip_implicit().ty) {
            return false;
        }
    }
    !(assigns && matches!(prog.types.kind(ft.ret), TypeKind::Void))
}

fn collect_edge_functions(prog: &Program, kind: &EdgeKind, out: &mut Vec<String>) {
    match kind {
        EdgeKind::Assume { cond, .. } => collect_functions(prog, cond, out),
        EdgeKind::Decl { init: Some(init), .. } => collect_init_functions(prog, init, out),
        EdgeKind::ReturnStmt(Some(e)) | EdgeKind::Eval(e) => collect_functions(prog, e, out),
        EdgeKind::Assign { lhs, rhs } => {
            collect_functions(prog, lhs, out);
            collect_functions(prog, rhs, out);
        }
        EdgeKind::ExternCall { lhs, callee, args } => {
            if let Some(l) = lhs {
                collect_functions(prog, l, out);
            }
            if !matches!(callee.kind, ExprKind::Func(_)) {
                collect_functions(prog, callee, out);
            }
            for a in args {
                collect_functions(prog, a, out);
            }
        }
        _ => {}
    }
}

fn collect_init_functions(prog: &Program, init: &Init, out: &mut Vec<String>) {
    match init {
        Init::Expr(e) => collect_functions(prog, e, out),
        Init::List(leaves) => leaves.iter().for_each(|l| collect_functions(prog, &l.value, out)),
    }
}

fn collect_functions(prog: &Program, e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Func(f) => out.push(prog.func(*f).name.clone()),
        ExprKind::Unary(_, x)
        | ExprKind::Cast(x, _)
        | ExprKind::Decay(x)
        | ExprKind::Deref(x)
        | ExprKind::AddrOf(x)
        | ExprKind::Member { base: x, .. } => collect_functions(prog, x, out),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Assign(a, b) | ExprKind::Comma(a, b) => {
            collect_functions(prog, a, out);
            collect_functions(prog, b, out);
        }
        ExprKind::Call(callee, args) => {
            if !matches!(callee.kind, ExprKind::Func(_)) {
                collect_functions(prog, callee, out);
            }
            args.iter().for_each(|a| collect_functions(prog, a, out));
        }
        _ => {}
    }
}

// ----- dummy loops -----

/// A loop made of blank edges only (`L: goto L;`, `while (1);`) ends in a termination node.
fn terminate_blank_loops(g: &mut Graph, entries_by_name: &[NodeId]) {
    // Each function's nodes in creation order, functions by name.
    let mut by_func: HashMap<FuncId, Vec<NodeId>> = HashMap::default();
    for (i, n) in g.nodes.iter().enumerate() {
        by_func.entry(n.func).or_default().push(NodeId::from_idx(i));
    }
    let mut order: Vec<NodeId> = Vec::new();
    for &entry in entries_by_name {
        order.extend(by_func.remove(&g.nodes[entry.idx()].func).unwrap_or_default());
    }
    for node in order {
        let mut visited: HashSet<NodeId> = [node].into_iter().collect();
        let mut queue = std::collections::VecDeque::from([node]);
        while let Some(cur) = queue.pop_front() {
            let blanks: Vec<EdgeId> =
                g.out[cur.idx()].iter().copied().filter(|&e| matches!(g.edge(e).kind, EdgeKind::Blank(_))).collect();
            for e in blanks {
                let succ = g.edge(e).dst;
                if succ == node && g.inc[node.idx()].len() > 1 {
                    let edge = g.edge(e).clone();
                    g.remove_edge(e);
                    let term = g.new_node(edge_func(g, edge.src), NodeKind::Termination);
                    g.add_like(edge.src, term, edge.kind.clone(), &edge);
                }
                if visited.insert(succ) {
                    queue.push_back(succ);
                }
            }
        }
    }
}

fn edge_func(g: &Graph, n: NodeId) -> FuncId {
    g.nodes[n.idx()].func
}

// ----- second pass: calls -----

fn second_pass(
    prog: &Program,
    g: &mut Graph,
    entries_by_name: &[NodeId],
    funcs: &HashMap<FuncId, (NodeId, NodeId)>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<CallSite> {
    let mut sites = Vec::new();
    for e in dfs_edges(g, entries_by_name) {
        let Some(edge) = g.edges[e.idx()].as_ref() else { continue };
        let EdgeKind::ExternCall { lhs, callee, args } = &edge.kind else { continue };
        if g.inc[edge.src.idx()].is_empty() {
            continue;
        }
        let ExprKind::Func(f) = callee.strip_implicit().kind else { continue };
        let (lhs, args, edge) = (lhs.clone(), args.clone(), edge.clone());
        if let Some(&(entry, exit)) = funcs.get(&f) {
            let TypeKind::Func(ft) = prog.types.kind(prog.func(f).ty) else { continue };
            let count_ok = if ft.variadic { ft.params.len() <= args.len() } else { ft.params.len() == args.len() };
            if !count_ok && !ft.unprototyped {
                let line = edge.lines.map(|l| l.0).unwrap_or(0);
                diags.push(Diagnostic::new(
                    Severity::Warning,
                    prog.file.path(),
                    line,
                    0,
                    format!(
                        "call of '{}' with {} arguments; it takes {}",
                        prog.func(f).name,
                        args.len(),
                        ft.params.len()
                    ),
                ));
            }
            g.remove_edge(e);
            let caller = g.nodes[edge.src.idx()].func;
            let mut succ = edge.dst;
            if g.inc[succ.idx()].iter().any(|&x| matches!(g.edge(x).kind, EdgeKind::Summary(_))) {
                // Two calls merging into one node: CPAchecker puts a dummy node in between.
                let tmp = g.new_node(caller, NodeKind::Normal);
                g.add_unchecked(tmp, succ, EdgeKind::Blank(BlankKind::Plain), "", None);
                succ = tmp;
            }
            let cs = CallSiteId::from_idx(sites.len());
            g.add_like(edge.src, succ, EdgeKind::Summary(cs), &edge);
            let call_edge = g.add_like(edge.src, entry, EdgeKind::Call(cs), &edge);
            let return_edge = if g.inc[exit.idx()].is_empty() {
                // The callee never returns: the code after the call is dead.
                let summary = *g.out[edge.src.idx()]
                    .iter()
                    .find(|&&x| matches!(g.edge(x).kind, EdgeKind::Summary(c) if c == cs))
                    .expect("summary edge");
                g.remove_edge(summary);
                g.remove_chain(succ);
                None
            } else {
                Some(g.add_unchecked(exit, succ, EdgeKind::Return(cs), "", edge.lines))
            };
            let return_node = return_edge.map(|_| succ);
            sites.push(CallSite { caller, callee: f, lhs, args, call_edge, return_edge, return_node });
        } else if LibFn::of(&prog.func(f).name) == LibFn::Assume
            && LibFn::Assume.arity().fits(args.len())
            && lhs.is_none()
        {
            // An undefined `__VERIFIER_assume(c)` becomes two assume edges; the false one ends the path.
            g.remove_edge(e);
            let func = g.nodes[edge.src.idx()].func;
            let term = g.new_node(func, NodeKind::Termination);
            let text = format!("[{}]", edge.text);
            let text2 = edge.text2.as_ref().map(|t| format!("[{t}]"));
            let cond = args[0].clone();
            let pass = g.add_unchecked(
                edge.src,
                edge.dst,
                EdgeKind::Assume { cond: cond.clone(), truth: true },
                &text,
                edge.lines,
            );
            let stop = g.add_unchecked(edge.src, term, EdgeKind::Assume { cond, truth: false }, &text, edge.lines);
            if let Some(text2) = text2 {
                g.set_text2(Some(pass), &text2);
                g.set_text2(Some(stop), &text2);
            }
        }
    }
    sites
}

// ----- postorder -----

/// Numbers each function's nodes in a depth-first postorder from its entry (summary edges stand for
/// calls) that visits the successor closest to the exit first, so the exit and the way to it get the
/// lowest numbers (the paper's "toward the exit"; in a loop the exit branch is lower than the body).
fn assign_postorder(cfa: &mut Cfa) {
    let n = cfa.nodes.len();
    let intra = |e: &super::Edge| !matches!(e.kind, EdgeKind::Call(_) | EdgeKind::Return(_));
    // Distance to the exit of the node's function, by breadth-first search backwards.
    let mut dist = vec![u32::MAX; n];
    for f in &cfa.funcs {
        let mut queue = std::collections::VecDeque::from([f.exit]);
        dist[f.exit.idx()] = 0;
        while let Some(v) = queue.pop_front() {
            for &e in &cfa.inc[v.idx()] {
                let edge = &cfa.edges[e.idx()];
                if intra(edge) && dist[edge.src.idx()] == u32::MAX {
                    dist[edge.src.idx()] = dist[v.idx()] + 1;
                    queue.push_back(edge.src);
                }
            }
        }
    }
    let mut number = vec![u32::MAX; n];
    for fi in 0..cfa.funcs.len() {
        let entry = cfa.funcs[fi].entry;
        let mut next = 0u32;
        let mut visited = vec![false; n];
        let succs = |v: NodeId| -> Vec<NodeId> {
            let mut s: Vec<NodeId> =
                cfa.out[v.idx()].iter().map(|&e| &cfa.edges[e.idx()]).filter(|e| intra(e)).map(|e| e.dst).collect();
            s.sort_by_key(|w| dist[w.idx()]);
            s
        };
        let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = vec![(entry, succs(entry), 0)];
        visited[entry.idx()] = true;
        while let Some((v, children, i)) = stack.last_mut() {
            if *i < children.len() {
                let w = children[*i];
                *i += 1;
                if !visited[w.idx()] {
                    visited[w.idx()] = true;
                    let c = succs(w);
                    stack.push((w, c, 0));
                }
            } else {
                number[v.idx()] = next;
                next += 1;
                stack.pop();
            }
        }
    }
    for (node, num) in cfa.nodes.iter_mut().zip(number) {
        node.postorder = num;
    }
}
