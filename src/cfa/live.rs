//! Live-variable analysis of the CFA: which locals of a function may still be read at its loop heads
//! and call return sites before being written. The executor's state cache leaves the others out of
//! its keys (no execution reads them before writing them); `expr_vars`/`init_vars` are the variable
//! reads (and address-taken locals) of an expression, also used by the executor's counter analysis.
//!
//! Invariant: conservative: a local whose address is taken is live everywhere in its function, and
//! every variable an expression names counts as read.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use fixedbitset::FixedBitSet;

use super::{Cfa, EdgeId, EdgeKind, GlobalKind, NodeId};
use crate::cfront::ir::{Expr, ExprKind, FuncId, Init, Program, VarId, VarKind};

/// Locals live at loop heads and call return sites.
#[derive(Clone, Debug, Default)]
pub struct LiveLocals {
    live: HashMap<NodeId, Rc<[VarId]>>,
}

impl LiveLocals {
    /// Live locals at every loop head and call return site of `cfa`.
    pub fn compute(prog: &Program, cfa: &Cfa) -> LiveLocals {
        let mut live = HashMap::default();
        let mut nodes_of: HashMap<FuncId, Vec<NodeId>> = HashMap::default();
        for i in 0..cfa.n_nodes() {
            let n = NodeId::from_idx(i);
            nodes_of.entry(cfa.node(n).func).or_default().push(n);
        }
        let mut wanted: HashSet<NodeId> = HashSet::default();
        for cs in &cfa.call_sites {
            if let Some(r) = cs.return_node {
                wanted.insert(r);
            }
        }
        for fc in &cfa.funcs {
            let nodes = nodes_of.remove(&fc.func).unwrap_or_default();
            for &n in &nodes {
                if cfa.node(n).loop_head {
                    wanted.insert(n);
                }
            }
            if !nodes.iter().any(|n| wanted.contains(n)) {
                continue;
            }
            analyse(prog, cfa, fc.func, fc.ret_var, fc.exit, &nodes, &wanted, &mut live);
        }
        LiveLocals { live }
    }

    /// The live locals at `n` (sorted), if computed there.
    pub fn live_at(&self, n: NodeId) -> Option<&[VarId]> {
        self.live.get(&n).map(|v| &v[..])
    }
}

/// Backward live-variable analysis of one function over its own edges (calls as summary edges).
#[allow(clippy::too_many_arguments)]
fn analyse(
    prog: &Program,
    cfa: &Cfa,
    f: FuncId,
    ret_var: Option<VarId>,
    exit: NodeId,
    nodes: &[NodeId],
    wanted: &HashSet<NodeId>,
    out: &mut HashMap<NodeId, Rc<[VarId]>>,
) {
    let mut locals: Vec<VarId> = (0..prog.vars.len())
        .map(VarId::from_idx)
        .filter(|&v| matches!(prog.var(v).kind, VarKind::Local(g) | VarKind::Param(g, _) if g == f))
        .collect();
    if let Some(rv) = ret_var {
        if !locals.contains(&rv) {
            locals.push(rv);
        }
    }
    locals.sort_unstable();
    let index: HashMap<VarId, usize> = locals.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let nl = locals.len();
    // Per edge: uses and definitions; escaping locals are always live.
    let mut escaping = FixedBitSet::with_capacity(nl);
    let mut effects: HashMap<EdgeId, (FixedBitSet, FixedBitSet)> = HashMap::default();
    let bits = |vars: Vec<VarId>, set: &mut FixedBitSet| {
        for v in vars {
            if let Some(&i) = index.get(&v) {
                set.insert(i);
            }
        }
    };
    for &n in nodes {
        for &e in cfa.out_edges(n) {
            let Some((uses, defs, esc)) = edge_vars(cfa, &cfa.edge(e).kind, ret_var) else { continue };
            let mut u = FixedBitSet::with_capacity(nl);
            let mut d = FixedBitSet::with_capacity(nl);
            bits(uses, &mut u);
            bits(defs, &mut d);
            bits(esc, &mut escaping);
            effects.insert(e, (u, d));
        }
    }
    let at_exit = ret_var.and_then(|rv| index.get(&rv)).copied();
    let live_in = live_in(cfa, nodes, (exit, at_exit), &effects, nl);
    for (i, &n) in nodes.iter().enumerate() {
        if wanted.contains(&n) {
            let mut set = live_in[i].clone();
            set.union_with(&escaping);
            let vars: Vec<VarId> = set.ones().map(|k| locals[k]).collect();
            out.insert(n, vars.into());
        }
    }
}

/// The variables edge `kind` of a function with return variable `ret_var` reads, writes and takes
/// the address of (uses, definitions, escaping); `None` for a call or return edge, which leave the
/// function (its calls count as their summary edges).
fn edge_vars(cfa: &Cfa, kind: &EdgeKind, ret_var: Option<VarId>) -> Option<(Vec<VarId>, Vec<VarId>, Vec<VarId>)> {
    let mut uses = Vec::new();
    let mut defs = Vec::new();
    let mut esc = Vec::new();
    match kind {
        EdgeKind::Call(_) | EdgeKind::Return(_) => return None,
        EdgeKind::Decl { var, init } => {
            defs.push(*var);
            if let Some(i) = init {
                init_vars(i, &mut uses, &mut esc);
            }
        }
        EdgeKind::Global(GlobalKind::Var { init: Some(i), .. }) => init_vars(i, &mut uses, &mut esc),
        EdgeKind::Assign { lhs, rhs } => {
            lhs_vars(lhs, &mut uses, &mut defs, &mut esc);
            expr_vars(rhs, &mut uses, &mut esc);
        }
        EdgeKind::Eval(x) | EdgeKind::Assume { cond: x, .. } | EdgeKind::ReturnStmt(Some(x)) => {
            expr_vars(x, &mut uses, &mut esc);
            if matches!(kind, EdgeKind::ReturnStmt(_)) {
                defs.extend(ret_var);
            }
        }
        EdgeKind::ReturnStmt(None) => {}
        EdgeKind::ExternCall { lhs, callee, args } => {
            if let Some(l) = lhs {
                lhs_vars(l, &mut uses, &mut defs, &mut esc);
            }
            expr_vars(callee, &mut uses, &mut esc);
            for a in args {
                expr_vars(a, &mut uses, &mut esc);
            }
        }
        EdgeKind::Summary(cs) => {
            let site = cfa.call_site(*cs);
            if let Some(l) = &site.lhs {
                lhs_vars(l, &mut uses, &mut defs, &mut esc);
            }
            for a in &site.args {
                expr_vars(a, &mut uses, &mut esc);
            }
        }
        EdgeKind::Blank(_) | EdgeKind::TypeDecl | EdgeKind::Global(_) => {}
    }
    Some((uses, defs, esc))
}

/// The fixpoint: for each of `nodes`, the locals (by index, `nl` of them) live on entry, given
/// the uses and definitions of each of the function's edges; at `exit`, the return variable (its
/// index, if it has one) is live.
fn live_in(
    cfa: &Cfa,
    nodes: &[NodeId],
    (exit, at_exit): (NodeId, Option<usize>),
    effects: &HashMap<EdgeId, (FixedBitSet, FixedBitSet)>,
    nl: usize,
) -> Vec<FixedBitSet> {
    let node_index: HashMap<NodeId, usize> = nodes.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let mut live_in: Vec<FixedBitSet> = vec![FixedBitSet::with_capacity(nl); nodes.len()];
    let mut work: Vec<usize> = (0..nodes.len()).collect();
    let mut queued = vec![true; nodes.len()];
    while let Some(i) = work.pop() {
        queued[i] = false;
        let n = nodes[i];
        let mut new = FixedBitSet::with_capacity(nl);
        if n == exit {
            if let Some(ri) = at_exit {
                new.insert(ri);
            }
        }
        for &e in cfa.out_edges(n) {
            let Some((u, d)) = effects.get(&e) else { continue };
            let Some(&j) = node_index.get(&cfa.edge(e).dst) else { continue };
            let mut through = live_in[j].clone();
            through.difference_with(d);
            through.union_with(u);
            new.union_with(&through);
        }
        if new != live_in[i] {
            live_in[i] = new;
            for &e in cfa.in_edges(n) {
                if !effects.contains_key(&e) {
                    continue;
                }
                if let Some(&p) = node_index.get(&cfa.edge(e).src) {
                    if !queued[p] {
                        queued[p] = true;
                        work.push(p);
                    }
                }
            }
        }
    }
    live_in
}

/// The variables an initializer reads, and those whose address it takes.
pub fn init_vars(init: &Init, uses: &mut Vec<VarId>, esc: &mut Vec<VarId>) {
    match init {
        Init::Expr(e) => expr_vars(e, uses, esc),
        Init::List(leaves) => leaves.iter().for_each(|l| expr_vars(&l.value, uses, esc)),
    }
}

/// The variables an assignment to `lhs` defines (a whole variable) or uses (anything else in it).
fn lhs_vars(lhs: &Expr, uses: &mut Vec<VarId>, defs: &mut Vec<VarId>, esc: &mut Vec<VarId>) {
    match &lhs.strip_implicit().kind {
        ExprKind::Var(v) => defs.push(*v),
        _ => expr_vars(lhs, uses, esc),
    }
}

/// The variables `e` reads (conservatively: every variable named), and those whose address it takes.
pub fn expr_vars(e: &Expr, uses: &mut Vec<VarId>, esc: &mut Vec<VarId>) {
    match &e.kind {
        ExprKind::Var(v) => uses.push(*v),
        ExprKind::AddrOf(x) | ExprKind::Decay(x) => {
            if let Some(v) = root_var(x) {
                esc.push(v);
            }
            expr_vars(x, uses, esc);
        }
        _ => e.for_each_child(|x| expr_vars(x, uses, esc)),
    }
}

/// The variable an lvalue lives in, if it is (part of) a variable.
pub fn root_var(e: &Expr) -> Option<VarId> {
    match &e.strip_implicit().kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Member { base, arrow: false, .. } => root_var(base),
        ExprKind::Index(base, _) => match &base.strip_implicit().kind {
            ExprKind::Decay(inner) => root_var(inner),
            _ => None,
        },
        ExprKind::Cast(x, _) => root_var(x),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::SourceFile;
    use crate::cfront::{self, types::DataModel};

    fn names(prog: &Program, vars: &[VarId]) -> Vec<String> {
        vars.iter().map(|&v| prog.var(v).name.clone()).collect()
    }

    #[test]
    fn locals_written_before_read_are_dead_at_the_loop_head() {
        let src = "int g(void); int main(void) { int i = 0, t = 0, s = 0, a = 0; int *p = &a; \
                   while (i < 10) { t = g(); s = s + t; i++; } return s + *p; }";
        let (mut prog, _) =
            cfront::parse_program(SourceFile::new("t.c", src.to_string()), DataModel::Ilp32).expect("parses");
        let (cfa, _) = crate::cfa::build(&mut prog, &Default::default()).expect("CFA");
        let live = LiveLocals::compute(&prog, &cfa);
        let head = (0..cfa.n_nodes()).map(NodeId::from_idx).find(|&n| cfa.node(n).loop_head).expect("a loop head");
        let at = names(&prog, live.live_at(head).expect("computed at loop heads"));
        // `t` is written before it is read in every iteration; `a` has its address taken.
        assert!(at.contains(&"i".to_string()) && at.contains(&"s".to_string()), "{at:?}");
        assert!(at.contains(&"a".to_string()) && at.contains(&"p".to_string()), "{at:?}");
        assert!(!at.contains(&"t".to_string()), "{at:?}");
    }
}
