//! vcov's C library in the CFA: the models of `libmodels::LIBC` that a program calls get automata
//! of their own, after every automaton of the program, and each call of one becomes a *library call
//! site*.
//!
//! The program's CFA stays CPAchecker's: a call of `strlen` is still the `ExternCall` edge
//! CPAchecker builds for a function without body (so automata match it), and no edge of the program
//! leads into a model. The call site (`Cfa::library_call`) tells the executor and the interpreter to
//! run the model at that edge: they enter the model's entry as for a call of a function with body,
//! and its `Return` edge (from the model's exit to the call edge's target) brings them back. Models
//! calling models use the same kind of call site; a model that calls through a function pointer
//! (`qsort`, `bsearch`) has a call site into each function of the program it may call back
//! (`callback_sites`). The models' nodes and edges have no lines
//! (`Program::in_library`), so no line of theirs counts for coverage, and they are `library`
//! automata (`FuncCfa::library`), which the engines keep out of what they report.
//!
//! Invariant: linking adds nodes, edges and call sites after the program's and changes none of the
//! program's.

use super::graph::Graph;
use super::link::build_bodies;
use super::{CallSite, CallSiteId, EdgeKind, FuncCfa, GlobalKind, NodeId, NodeKind};
use crate::cfront::ir::{CastOrigin, Expr, ExprKind, FuncId, Program};
use crate::cfront::types::TypeKind;
use crate::libmodels::LibFn;

/// Links the models the program's calls need: when some `ExternCall` edge of `g` calls a function
/// the program declares without body and `libmodels` models in C, lowers the library into `prog`
/// (`cfront::link_library`), builds an automaton for each of its definitions (appended to `funcs`)
/// and a call site for every call of a model, in the program or in the models (appended to `sites`),
/// and the chain of edges that gives the library's variables their storage (`Cfa::library_init`),
/// whose nodes it returns (no entry reaches them).
pub(super) fn link(
    prog: &mut Program,
    g: &mut Graph,
    funcs: &mut Vec<FuncCfa>,
    sites: &mut Vec<CallSite>,
) -> Vec<NodeId> {
    let wanted = |prog: &Program, f: FuncId| {
        let func = prog.func(f);
        !func.library && func.body.is_none() && LibFn::of(&func.name) == LibFn::Code
    };
    if !extern_calls(g).any(|(_, f)| wanted(prog, f)) {
        return Vec::new();
    }
    cfront_link(prog);
    let defs: Vec<FuncId> = (0..prog.funcs.len())
        .map(FuncId::from_idx)
        .filter(|&f| prog.func(f).library && prog.func(f).body.is_some())
        .collect();
    funcs.extend(build_bodies(prog, g, &defs, true).into_iter().map(|(fc, _)| fc));
    let chain = init_chain(prog, g, defs[0]);
    let calls: Vec<_> = extern_calls(g).collect();
    for (e, f) in calls {
        let target = if prog.func(f).library { Some(f).filter(|&f| prog.func(f).body.is_some()) } else { None };
        let target = match target {
            Some(t) => t,
            None if wanted(prog, f) => match prog.library_def(&prog.func(f).name) {
                Some(t) => t,
                None => continue,
            },
            None => continue,
        };
        let edge = g.edge(e).clone();
        let EdgeKind::ExternCall { lhs, args, .. } = &edge.kind else { unreachable!("an extern call") };
        let Some(args) = converted_args(prog, target, args) else { continue };
        let fc = funcs.iter().find(|fc| fc.func == target).expect("an automaton per definition");
        let cs = CallSiteId::from_idx(sites.len());
        let return_edge = g.add_unchecked(fc.exit, edge.dst, EdgeKind::Return(cs), "", None);
        sites.push(CallSite {
            caller: g.nodes[edge.src.idx()].func,
            callee: target,
            lhs: lhs.clone(),
            args,
            call_edge: e,
            return_edge: Some(return_edge),
            return_node: Some(edge.dst),
        });
    }
    callback_sites(prog, g, funcs, sites);
    chain
}

/// The call sites of *callbacks*: a model the program calls (or one such a model calls) that calls
/// through a function pointer (`qsort`'s comparison) gets, for that pointer-call edge, a call site
/// into every function of the program the pointer may name (defined, and of the call's parameter
/// and result sizes, as `link::pointer_target_fits` judges for the program's own pointer calls).
/// The engines take one when the pointer's value is that function (`Cfa::callback`); its return
/// edge leads from the function's exit back into the model. What runs in a callback is the model's
/// doing, not a path of the program's CFA according to CPAchecker: the engines hide it as they
/// hide the model (`Cfa::in_model`).
fn callback_sites(prog: &Program, g: &mut Graph, funcs: &[FuncCfa], sites: &mut Vec<CallSite>) {
    // The models the program calls, and those they call.
    let mut called: Vec<FuncId> = sites
        .iter()
        .filter(|cs| prog.func(cs.callee).library && !prog.func(cs.caller).library)
        .map(|cs| cs.callee)
        .collect();
    let mut i = 0;
    while i < called.len() {
        let caller = called[i];
        for cs in sites.iter().filter(|cs| cs.caller == caller) {
            if !called.contains(&cs.callee) {
                called.push(cs.callee);
            }
        }
        i += 1;
    }
    let pointer_calls: Vec<_> = g
        .edges
        .iter()
        .enumerate()
        .filter_map(|(i, e)| Some((super::EdgeId::from_idx(i), e.as_ref()?)))
        .filter(|(_, e)| called.contains(&g.nodes[e.src.idx()].func))
        .filter_map(|(i, e)| match &e.kind {
            EdgeKind::ExternCall { lhs, callee, args }
                if !matches!(callee.strip_implicit().kind, ExprKind::Func(_)) =>
            {
                Some((i, e.src, e.dst, lhs.clone(), callee.clone(), args.clone()))
            }
            _ => None,
        })
        .collect();
    for (e, src, dst, lhs, callee, args) in pointer_calls {
        for fc in funcs.iter().filter(|fc| !fc.library) {
            if !super::link::pointer_target_fits(prog, fc.func, &callee, &args, lhs.is_some()) {
                continue;
            }
            let Some(args) = converted_args(prog, fc.func, &args) else { continue };
            let cs = CallSiteId::from_idx(sites.len());
            let return_edge = g.add_unchecked(fc.exit, dst, EdgeKind::Return(cs), "", None);
            sites.push(CallSite {
                caller: g.nodes[src.idx()].func,
                callee: fc.func,
                lhs: lhs.clone(),
                args,
                call_edge: e,
                return_edge: Some(return_edge),
                return_node: Some(dst),
            });
        }
    }
}

/// A chain of `Global` edges, one per variable of the library, on nodes of library function `owner`
/// that no entry reaches: the engines take it before the program's entry.
fn init_chain(prog: &Program, g: &mut Graph, owner: FuncId) -> Vec<NodeId> {
    let mut nodes = vec![g.new_node(owner, NodeKind::Normal)];
    for (var, init) in &prog.library_vars {
        let next = g.new_node(owner, NodeKind::Normal);
        let kind = EdgeKind::Global(GlobalKind::Var { var: *var, init: init.clone() });
        g.add_unchecked(*nodes.last().expect("a first node"), next, kind, "", None);
        nodes.push(next);
    }
    nodes
}

/// Lowers the library into `prog`; it is vcov's own text, so a failure is a fault of vcov's.
fn cfront_link(prog: &mut Program) {
    if let Err(e) = crate::cfront::link_library(prog) {
        panic!("vcov's C library does not compile: {e}");
    }
}

/// The `ExternCall` edges of `g` that name their callee, with it.
fn extern_calls(g: &Graph) -> impl Iterator<Item = (super::EdgeId, FuncId)> + '_ {
    g.edges.iter().enumerate().filter_map(|(i, e)| match &e.as_ref()?.kind {
        EdgeKind::ExternCall { callee, .. } => match callee.strip_implicit().kind {
            ExprKind::Func(f) => Some((super::EdgeId::from_idx(i), f)),
            _ => None,
        },
        _ => None,
    })
}

/// The arguments of a call of model `target`, converted to its parameter types: `None` when the
/// call does not fit the model's prototype (another number of arguments, or an argument that is no
/// scalar of the parameter's size), so that the call stays a call of a function without body.
fn converted_args(prog: &Program, target: FuncId, args: &[Expr]) -> Option<Vec<Expr>> {
    let types = &prog.types;
    let TypeKind::Func(ft) = types.kind(prog.func(target).ty) else { return None };
    if ft.params.len() != args.len() || ft.variadic {
        return None;
    }
    let scalar = |t| matches!(types.kind(t), TypeKind::Int(_) | TypeKind::Pointer(_));
    ft.params
        .iter()
        .zip(args)
        .map(|(&p, a)| match a.ty == p {
            true => Some(a.clone()),
            false if scalar(p) && scalar(a.ty) && types.size_of(p) == types.size_of(a.ty) => {
                Some(Expr { kind: ExprKind::Cast(Box::new(a.clone()), CastOrigin::Implicit), ty: p, span: a.span })
            }
            false => None,
        })
        .collect()
}
