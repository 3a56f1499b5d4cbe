//! What the analysis tracks, from how the program's edges use its variables: integer and pointer
//! variables whose address is never taken, arrays only ever indexed, globals nothing writes, and
//! which functions may re-enter which (the call graph's components).

use std::collections::HashMap;

use fixedbitset::FixedBitSet;

use crate::cfa::{root_var, Cfa, EdgeKind, GlobalKind};
use crate::cfront::ir::{Expr, ExprKind, FuncId, Init, Program, VarId, VarKind};
use crate::cfront::types::{IntType, TypeKind};

/// The expressions of an edge.
pub(super) fn edge_exprs(cfa: &Cfa, kind: &EdgeKind, mut f: impl FnMut(&Expr)) {
    let init = |i: &Init, f: &mut dyn FnMut(&Expr)| match i {
        Init::Expr(e) => f(e),
        Init::List(leaves) => leaves.iter().for_each(|l| f(&l.value)),
    };
    match kind {
        EdgeKind::Global(GlobalKind::Var { init: Some(i), .. }) | EdgeKind::Decl { init: Some(i), .. } => {
            init(i, &mut f)
        }
        EdgeKind::Assign { lhs, rhs } => {
            f(lhs);
            f(rhs);
        }
        EdgeKind::Eval(x) | EdgeKind::Assume { cond: x, .. } | EdgeKind::ReturnStmt(Some(x)) => f(x),
        EdgeKind::ExternCall { lhs, callee, args } => {
            lhs.iter().for_each(&mut f);
            f(callee);
            args.iter().for_each(&mut f);
        }
        EdgeKind::Call(cs) => {
            let site = cfa.call_site(*cs);
            site.lhs.iter().for_each(&mut f);
            site.args.iter().for_each(&mut f);
        }
        _ => {}
    }
}

/// How the program's edges use its variables.
pub(super) struct VarUses<'c> {
    /// Variables whose address is taken other than to read or write an element `v[i]` of an array
    /// `v` (that decays to a pointer only to be indexed): in an `&`, or an array used as a pointer.
    taken: FixedBitSet,
    /// Variables written, whole or in part: the target of an assignment or of a call's result
    /// (through `.` members and array elements). Expressions on edges have no side effects (the
    /// CFA's invariant: `x++` and assignments used as values are statements of their own).
    written: FixedBitSet,
    /// Every name in the operands of inline assembly (its text outside string literals, which are
    /// the template and the constraints), with the function it is in: it may write the variables it
    /// names (its outputs), and its operands are not in the IR. A block-scope variable can be named
    /// only there.
    in_asm: std::collections::HashSet<(FuncId, &'c str)>,
    /// Every word of inline assembly, templates included: a template may name a global's symbol.
    asm_words: std::collections::HashSet<&'c str>,
}

/// The words of `text` outside its string literals.
fn words_outside_strings(text: &str) -> impl Iterator<Item = &str> {
    let (mut quoted, mut escaped) = (false, false);
    text.split(move |c: char| {
        let outside = !quoted;
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ => {}
        }
        !(outside && !quoted && (c.is_ascii_alphanumeric() || c == '_'))
    })
    .filter(|w| !w.is_empty())
}

/// Adds to `taken` the variables whose address `e` takes other than as the array of an element
/// `v[i]` (see `VarUses::taken`), and to `named` every variable it names.
fn note_uses(e: &Expr, taken: &mut FixedBitSet, named: &mut FixedBitSet) {
    if let ExprKind::Var(v) = e.kind {
        named.insert(v.idx());
    }
    if let ExprKind::Index(base, index) = &e.kind {
        if let ExprKind::Decay(inner) = &base.strip_implicit().kind {
            if let ExprKind::Var(v) = inner.kind {
                named.insert(v.idx());
                return note_uses(index, taken, named);
            }
        }
    }
    if let ExprKind::AddrOf(x) | ExprKind::Decay(x) = &e.kind {
        if let Some(v) = root_var(x) {
            taken.insert(v.idx());
        }
    }
    e.for_each_child(|x| note_uses(x, taken, named));
}

impl<'c> VarUses<'c> {
    pub(super) fn of(cfa: &'c Cfa, prog: &Program) -> VarUses<'c> {
        let n_vars = prog.vars.len();
        let mut taken = FixedBitSet::with_capacity(n_vars);
        let mut written = FixedBitSet::with_capacity(n_vars);
        let mut in_asm = std::collections::HashSet::new();
        let mut asm_words = std::collections::HashSet::new();
        // What the initializer of each global takes the address of counts only if the program uses
        // that global (names it outside its declaration, or in the initializer of one it uses):
        // otherwise no address stored there flows anywhere (a module parameter's `&debug` in a
        // descriptor nothing reads).
        let mut used = FixedBitSet::with_capacity(n_vars);
        let mut initializers: Vec<(VarId, &'c Init)> = Vec::new();
        for (_, e) in cfa.edges() {
            if let EdgeKind::Global(GlobalKind::Var { var, init: Some(init) }) = &e.kind {
                initializers.push((*var, init));
                continue;
            }
            edge_exprs(cfa, &e.kind, |x| note_uses(x, &mut taken, &mut used));
            if let EdgeKind::Assign { lhs, .. } | EdgeKind::ExternCall { lhs: Some(lhs), .. } = &e.kind {
                root_var(lhs).iter().for_each(|v| written.insert(v.idx()));
            }
            if matches!(e.kind, EdgeKind::Blank(crate::cfa::BlankKind::Asm)) {
                let f = cfa.node(e.src).func;
                in_asm.extend(words_outside_strings(&e.text).map(|w| (f, w)));
                asm_words
                    .extend(e.text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()));
            }
        }
        for v in cfa.call_sites.iter().filter_map(|cs| cs.lhs.as_ref().and_then(root_var)) {
            written.insert(v.idx());
        }
        let mut uses = VarUses { taken, written, in_asm, asm_words };
        let mut done = vec![false; initializers.len()];
        loop {
            let mut grew = false;
            for (k, (var, init)) in initializers.iter().enumerate() {
                if done[k] || !(used.contains(var.idx()) || uses.in_asm(prog.var(*var))) {
                    continue;
                }
                done[k] = true;
                grew = true;
                match init {
                    Init::Expr(x) => note_uses(x, &mut uses.taken, &mut used),
                    Init::List(leaves) => leaves.iter().for_each(|l| note_uses(&l.value, &mut uses.taken, &mut used)),
                }
            }
            if !grew {
                return uses;
            }
        }
    }

    /// Whether inline assembly may name `v`: in an operand of its function, or anywhere for a
    /// global.
    fn in_asm(&self, v: &crate::cfront::ir::Var) -> bool {
        let named =
            |f: FuncId| self.in_asm.contains(&(f, v.name.as_str())) || self.in_asm.contains(&(f, v.cpa_name.as_str()));
        match v.kind {
            VarKind::Local(f) | VarKind::Param(f, _) | VarKind::StaticLocal(f) => named(f),
            VarKind::Global => self.asm_words.contains(v.name.as_str()) || self.asm_words.contains(v.cpa_name.as_str()),
        }
    }
}

/// Globals whose value never changes, with their initializers (`None`: zero): defined here (not
/// `extern`), never written, their address never taken, not named by inline assembly. Nothing but
/// their initialization can change them, so a read of one of their members has the initializer's
/// value.
pub(super) fn constant_globals<'c>(cfa: &'c Cfa, prog: &Program, uses: &VarUses) -> HashMap<VarId, Option<&'c Init>> {
    cfa.edges()
        .filter_map(|(_, e)| match &e.kind {
            EdgeKind::Global(GlobalKind::Var { var, init }) => Some((*var, init.as_ref())),
            _ => None,
        })
        .filter(|(v, _)| {
            let var = prog.var(*v);
            matches!(var.kind, VarKind::Global)
                && !var.is_extern
                && !uses.taken.contains(v.idx())
                && !uses.written.contains(v.idx())
                && !uses.in_asm(var)
        })
        .collect()
}

/// For every variable, its integer type (pointers: unsigned long) if the analysis tracks it: an
/// integer or pointer variable whose address the program never takes (`VarUses::taken`), not named
/// by inline assembly.
pub(super) fn tracked_vars(prog: &Program, uses: &VarUses) -> Vec<Option<IntType>> {
    prog.vars
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let excluded = uses.taken.contains(i) || uses.in_asm(v);
            if excluded {
                return None;
            }
            match prog.types.kind(v.ty) {
                TypeKind::Int(it) => Some(*it),
                TypeKind::Pointer(_) => Some(IntType::ULONG),
                _ => None,
            }
        })
        .collect()
}

/// For every variable, its elements' integer type (pointers: unsigned long) if the analysis keeps
/// one set of values for all its elements: an array of integers or pointers whose elements the
/// program reads and writes only as `a[i]` (`VarUses::taken`: no pointer into it exists), not
/// named by inline assembly. Only assignments to `a[i]` change it (an access out of another
/// object's bounds is undefined behaviour), so the join of what they store and of its initial
/// values is what any element may hold. A read is that set; a write joins into it, and a condition
/// on one element does not narrow it.
pub(super) fn summarized_arrays(prog: &Program, uses: &VarUses) -> Vec<Option<IntType>> {
    prog.vars
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if uses.taken.contains(i) || uses.in_asm(v) {
                return None;
            }
            let TypeKind::Array(elem, _) = prog.types.kind(v.ty) else { return None };
            match prog.types.kind(*elem) {
                TypeKind::Int(it) => Some(*it),
                TypeKind::Pointer(_) => Some(IntType::ULONG),
                _ => None,
            }
        })
        .collect()
}

/// Functions on a cycle of the call graph (calls of functions with a body).
pub(super) fn recursive_functions(cfa: &Cfa, n_funcs: usize) -> Vec<bool> {
    let components = call_components(cfa, n_funcs);
    let mut size = vec![0usize; n_funcs];
    for &c in &components {
        size[c] += 1;
    }
    let mut out: Vec<bool> = components.iter().map(|&c| size[c] > 1).collect();
    for site in &cfa.call_sites {
        if site.caller == site.callee {
            out[site.caller.idx()] = true;
        }
    }
    out
}

/// For every function, the number of its strongly connected component of the call graph (calls
/// of functions with a body): a call from `f` to `g` may re-enter `f` before it returns exactly
/// when both are in the same component.
pub(super) fn call_components(cfa: &Cfa, n_funcs: usize) -> Vec<usize> {
    let mut g = petgraph::graph::DiGraph::<(), ()>::with_capacity(n_funcs, cfa.call_sites.len());
    for _ in 0..n_funcs {
        g.add_node(());
    }
    for site in &cfa.call_sites {
        g.add_edge(site.caller.0.into(), site.callee.0.into(), ());
    }
    let mut out = vec![0; n_funcs];
    for (k, scc) in petgraph::algo::kosaraju_scc(&g).into_iter().enumerate() {
        for f in scc {
            out[f.index()] = k;
        }
    }
    out
}
