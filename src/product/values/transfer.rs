//! The transfer functions of CFA edges: the state after an edge (an assignment, a declaration, a
//! call or a return, a condition), or that no execution takes it (a condition no value satisfies, a
//! call that is undefined behaviour, an access through a pointer that can only be null).

use std::collections::{BTreeMap, HashMap};

use super::domain::{Env, Val, MAX_VALUES};
use super::tracked::edge_exprs;
use crate::cfa::{CallSiteId, Cfa, EdgeId, EdgeKind, GlobalKind};
use crate::cfront::ir::{Expr, ExprKind, FuncId, Init, InitStep, Program, VarId, VarKind};
use crate::cfront::types::{IntType, TypeKind};
use crate::libmodels::LibFn;

/// The result of an edge on a state.
pub(super) enum Out {
    Same,
    New(Env),
}

pub(super) struct Analyser<'a> {
    pub(super) cfa: &'a Cfa,
    pub(super) prog: &'a Program,
    /// For every variable, its integer type (pointers: unsigned long) if it is tracked.
    pub(super) tracked: &'a [Option<IntType>],
    /// For every variable, its elements' integer type if it is a summarized array
    /// (`summarized_arrays`): its `Env` entry holds what any of its elements may hold.
    pub(super) arrays: &'a [Option<IntType>],
    /// Globals that never change (`constant_globals`), with their initializers.
    pub(super) constants: &'a HashMap<VarId, Option<&'a Init>>,
    /// Each function's component of the call graph (`call_components`).
    pub(super) components: &'a [usize],
    /// For every call site, whether its call is undefined behaviour and no execution takes it.
    pub(super) undefined: &'a [bool],
    /// Whether an edge that accesses memory through a pointer that can only be null is taken by no
    /// execution (`Undefined::null_access`).
    pub(super) null_access: bool,
    /// Whether that rule ended a way.
    pub(super) cut_at_null: std::cell::Cell<bool>,
}

impl Analyser<'_> {
    pub(super) fn int_of(&self, v: VarId) -> Option<IntType> {
        self.tracked.get(v.idx()).copied().flatten()
    }

    /// Whether `v` is a local variable or parameter of `f` (its return value included).
    fn local_of(&self, v: VarId, f: FuncId) -> bool {
        matches!(self.prog.var(v).kind, VarKind::Local(g) | VarKind::Param(g, _) if g == f)
    }

    /// The state after `edge`, `None` if no execution in `env` takes it.
    pub(super) fn transfer(&self, env: &Env, edge: EdgeId) -> Option<Out> {
        let e = self.cfa.edge(edge);
        if self.null_access && self.accesses_null(env, &e.kind) {
            self.cut_at_null.set(true);
            return None;
        }
        Some(match &e.kind {
            EdgeKind::Assign { lhs, rhs } => self.assign(env, lhs, rhs),
            EdgeKind::ExternCall { lhs: Some(lhs), callee, args } => self.extern_call(env, lhs, callee, args),
            EdgeKind::Decl { var, init } if self.int_of(*var).is_some() => {
                let val = init.as_ref().and_then(|init| self.init_value(env, init));
                set(env, *var, val)
            }
            EdgeKind::Decl { var, init } if self.element_type(*var).is_some() => {
                // An automatic array without initializer holds anything; with one, what it lists and
                // zero for the elements it leaves out.
                let val = init.as_ref().and_then(|init| self.elements_value(env, *var, init));
                set(env, *var, val)
            }
            EdgeKind::Global(GlobalKind::Var { var, init })
                if self.int_of(*var).is_some() || self.element_type(*var).is_some() =>
            {
                set(env, *var, self.global_value(env, *var, init.as_ref()))
            }
            EdgeKind::Assume { cond, truth } => return self.assume(env, cond, *truth),
            EdgeKind::Call(cs) if self.undefined[cs.idx()] => return None,
            EdgeKind::Call(cs) => self.call(env, *cs),
            EdgeKind::Return(cs) => self.return_to_caller(env, *cs),
            EdgeKind::ReturnStmt(Some(x)) => self.return_value(env, self.cfa.node(e.src).func, x),
            _ => Out::Same,
        })
    }

    /// The state after `lhs = rhs`.
    fn assign(&self, env: &Env, lhs: &Expr, rhs: &Expr) -> Out {
        match (self.tracked_lvalue(lhs), self.element_of(lhs)) {
            (Some(v), _) => set(env, v, self.value(env, rhs)),
            (None, Some(a)) => {
                let mut next = env.clone();
                let val = self.int_like(rhs.ty).and_then(|from| Some((self.value(env, rhs)?, from)));
                self.join_element(&mut next, a, val);
                Out::New(next)
            }
            (None, None) => Out::Same,
        }
    }

    /// The state after `lhs = callee(args)`, a call of a function without body.
    fn extern_call(&self, env: &Env, lhs: &Expr, callee: &Expr, args: &[Expr]) -> Out {
        match self.tracked_lvalue(lhs) {
            // `__builtin_expect(e, c)` is `e`; other functions without body return anything.
            Some(v) => {
                let val = match (&callee.kind, args.first()) {
                    (ExprKind::Func(f), Some(arg)) if LibFn::of(&self.prog.func(*f).name) == LibFn::Expect => {
                        self.value(env, arg).and_then(|val| self.convert(val, self.int_like(arg.ty)?, self.int_of(v)?))
                    }
                    _ => None,
                };
                set(env, v, val)
            }
            // An element it writes may now hold anything, and so may the array's elements.
            None => match self.element_of(lhs) {
                Some(a) => set(env, a, None),
                None => Out::Same,
            },
        }
    }

    /// What tracked global `var` holds after its definition with initializer `init`: zero without
    /// one, unless it is only declared here (`extern`).
    fn global_value(&self, env: &Env, var: VarId, init: Option<&Init>) -> Option<Val> {
        match init {
            Some(init) if self.element_type(var).is_some() => self.elements_value(env, var, init),
            Some(init) => self.init_value(env, init),
            None if self.prog.var(var).is_extern => None,
            None => Some(Val::Is(vec![0].into())),
        }
    }

    /// The state after the call edge of call site `cs` into its callee, with the parameters bound to
    /// the arguments.
    fn call(&self, env: &Env, cs: CallSiteId) -> Out {
        let site = self.cfa.call_site(cs);
        let params = &self.prog.func(site.callee).params;
        // A call starts with fresh locals (and return value): nothing of an earlier call of
        // the same function is left in them.
        let mut next = env.clone();
        let locals: Vec<VarId> = env.iter().map(|(v, _)| v).filter(|&v| self.local_of(v, site.callee)).collect();
        for v in &locals {
            next.remove(v);
        }
        for (p, arg) in params.iter().zip(&site.args) {
            if self.int_of(*p).is_some() {
                match self.value(env, arg) {
                    Some(val) => next.insert(*p, val),
                    None => next.remove(p),
                };
            }
        }
        Out::New(next)
    }

    /// The state after the return edge of call site `cs` back into its caller, with the returned
    /// value stored.
    fn return_to_caller(&self, env: &Env, cs: CallSiteId) -> Out {
        let site = self.cfa.call_site(cs);
        // A callee that may have re-entered the caller (recursion) may have changed the
        // variables the caller's activation sees, which share their names with the inner
        // activation's: those are any value again.
        let reentered = self.components[site.caller.idx()] == self.components[site.callee.idx()];
        let ret = self.cfa.func(site.callee).and_then(|f| f.ret_var);
        let lhs = site.lhs.as_ref().and_then(|l| self.tracked_lvalue(l));
        let element = site.lhs.as_ref().and_then(|l| self.element_of(l));
        if lhs.is_none() && element.is_none() && !reentered {
            return Out::Same;
        }
        let mut next = env.clone();
        if reentered {
            let locals: Vec<VarId> = env.iter().map(|(v, _)| v).filter(|&v| self.local_of(v, site.caller)).collect();
            for v in &locals {
                next.remove(v);
            }
        }
        if let Some(v) = lhs {
            match ret.and_then(|r| self.converted(env, r, v)) {
                Some(val) => next.insert(v, val),
                None => next.remove(&v),
            };
        }
        if let Some(a) = element {
            let val = ret.and_then(|r| Some((env.get(&r)?.clone(), self.int_of(r)?)));
            self.join_element(&mut next, a, val);
        }
        Out::New(next)
    }

    /// The state after `return x;` in function `f`: its return value holds `x`.
    fn return_value(&self, env: &Env, f: FuncId, x: &Expr) -> Out {
        match self.cfa.func(f).and_then(|fc| fc.ret_var).filter(|&r| self.int_of(r).is_some()) {
            Some(r) => {
                let to = self.int_of(r).expect("tracked");
                let val = self.value(env, x).and_then(|val| self.convert(val, self.int_like(x.ty)?, to));
                set(env, r, val)
            }
            None => Out::Same,
        }
    }

    /// Whether every execution that takes an edge of `kind` in `env` accesses memory through a
    /// null pointer. A call's left-hand side is not looked at: the callee may end the program before
    /// it is written.
    fn accesses_null(&self, env: &Env, kind: &EdgeKind) -> bool {
        let mut hit = false;
        let mut check = |x: &Expr| hit = hit || self.null_access_in(env, x);
        match kind {
            EdgeKind::ExternCall { callee, args, .. } => {
                check(callee);
                args.iter().for_each(check);
            }
            EdgeKind::Call(cs) => self.cfa.call_site(*cs).args.iter().for_each(check),
            EdgeKind::Return(_) => {}
            _ => edge_exprs(self.cfa, kind, check),
        }
        hit
    }

    /// Whether evaluating `e` in `env` certainly reads, writes or calls through a pointer that can
    /// only be null: `*p`, `p->f`, `p[i]`, in operands C always evaluates (not the right of `&&`,
    /// `||`, the branches of `?:`), not under `&` or an array's decay (which compute an address).
    fn null_access_in(&self, env: &Env, e: &Expr) -> bool {
        use crate::cfront::ir::BinOp;
        let null = |p: &Expr| {
            matches!(self.prog.types.kind(p.ty), TypeKind::Pointer(_))
                && matches!(self.value(env, p), Some(Val::Is(s)) if *s == [0])
        };
        match &e.kind {
            ExprKind::AddrOf(_) | ExprKind::Decay(_) => false,
            ExprKind::Deref(p) | ExprKind::Member { base: p, arrow: true, .. } => {
                null(p) || self.null_access_in(env, p)
            }
            ExprKind::Index(p, i) => null(p) || self.null_access_in(env, p) || self.null_access_in(env, i),
            ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, a, _) | ExprKind::Cond(a, _, _) => {
                self.null_access_in(env, a)
            }
            _ => {
                let mut hit = false;
                e.for_each_child(|x| hit = hit || self.null_access_in(env, x));
                hit
            }
        }
    }

    /// Joins `val` (of the given type; `None`: any value) into what the elements of summarized array
    /// `a` may hold: one element changed, the others kept their values.
    fn join_element(&self, env: &mut Env, a: VarId, val: Option<(Val, IntType)>) {
        let elem = self.element_type(a).expect("a summarized array");
        let joined = match (env.get(&a), val.and_then(|(val, from)| self.convert(val, from, elem))) {
            (None, _) => return,
            (Some(old), Some(new)) if old.includes(&new) => return,
            (Some(old), Some(new)) => old.join(&new),
            (Some(_), None) => None,
        };
        match joined {
            Some(u) => env.insert(a, u),
            None => env.remove(&a),
        }
    }

    /// What the elements of an array with initializer `init` may hold: the values it lists, and
    /// zero (for those it leaves out).
    fn elements_value(&self, env: &Env, a: VarId, init: &Init) -> Option<Val> {
        let Init::List(leaves) = init else { return None };
        let to = self.element_type(a)?;
        let mut acc = Val::Is(vec![0].into());
        for leaf in leaves {
            if !matches!(leaf.path.as_slice(), [InitStep::Index(_)]) {
                return None;
            }
            let val = self.value(env, &leaf.value)?;
            acc = acc.join(&self.convert(val, self.int_like(leaf.value.ty)?, to)?)?;
        }
        Some(acc)
    }

    /// The tracked variable `lhs` names, if it is one.
    fn tracked_lvalue(&self, lhs: &Expr) -> Option<VarId> {
        match lhs.kind {
            ExprKind::Var(v) if self.int_of(v).is_some() => Some(v),
            _ => None,
        }
    }

    fn init_value(&self, env: &Env, init: &Init) -> Option<Val> {
        match init {
            Init::Expr(e) => self.value(env, e),
            Init::List(leaves) => match leaves.as_slice() {
                [leaf] if leaf.path.is_empty() => self.value(env, &leaf.value),
                // `int x = {};`: the rest of the object is zero.
                [] => Some(Val::Is(vec![0].into())),
                _ => None,
            },
        }
    }

    /// The state after assuming `cond` is `truth`, `None` if no value in `env` allows it: the values
    /// of each variable the condition reads are narrowed to those some combination satisfying it
    /// (or not decided) uses, and a comparison with a constant pins or excludes a value.
    fn assume(&self, env: &Env, cond: &Expr, truth: bool) -> Option<Out> {
        let mut kept: BTreeMap<VarId, Vec<i128>> = BTreeMap::new();
        let mut any = false;
        let complete = self.for_each_combination(env, cond, |assignment, value| {
            if value.is_none_or(|c| (c != 0) == truth) {
                any = true;
                for &(v, x) in assignment {
                    kept.entry(v).or_default().push(x);
                }
            }
            true
        });
        if complete && !any {
            return None;
        }
        // What the bits known of the values decide (a combination with an unknown value counts
        // as satisfying above).
        let (known, ones) = self.known_bits(env, cond);
        let decided = if ones != 0 { Some(true) } else { (known == u128::MAX).then_some(false) };
        if decided.is_some_and(|d| d != truth) {
            return None;
        }
        let mut next: Option<Env> = None;
        if complete {
            for (v, mut vals) in kept {
                vals.sort_unstable();
                vals.dedup();
                if matches!(env.get(&v), Some(Val::Is(old)) if old.len() != vals.len()) {
                    next.get_or_insert_with(|| env.clone()).insert(v, Val::Is(vals.into()));
                }
            }
        }
        if let Some((v, eq, c)) = self.atom(env, cond, truth) {
            let ty = self.int_of(v).expect("tracked");
            let dm = self.prog.data_model();
            let cur = next.as_ref().unwrap_or(env).get(&v).cloned();
            let refined = match (eq, cur) {
                (true, _) if ty.wrap(c, dm) != c => return None,
                (true, Some(val)) if !val.admits(c) => return None,
                (true, _) => Some(Val::Is(vec![c].into())),
                (false, Some(Val::Is(s))) => {
                    let rest: Vec<i128> = s.iter().filter(|&&x| x != c).copied().collect();
                    if rest.is_empty() {
                        return None;
                    }
                    Some(Val::Is(rest.into()))
                }
                (false, Some(Val::Not(x))) if !x.contains(&c) && x.len() < MAX_VALUES => {
                    let mut x = x.to_vec();
                    x.push(c);
                    x.sort_unstable();
                    Some(Val::Not(x.into()))
                }
                (false, Some(not @ Val::Not(_))) => Some(not),
                (false, Some(bits @ Val::Bits(_))) => Some(bits),
                (false, None) if ty.wrap(c, dm) == c => Some(Val::Not(vec![c].into())),
                (false, None) => None,
            };
            if let Some(val) = refined {
                if env.get(&v) != Some(&val) {
                    next.get_or_insert_with(|| env.clone()).insert(v, val);
                }
            }
        }
        Some(next.map_or(Out::Same, Out::New))
    }
}

/// `env` with `v` holding `val` (`None`: any value).
fn set(env: &Env, v: VarId, val: Option<Val>) -> Out {
    let mut next = env.clone();
    match val {
        Some(val) => next.insert(v, val),
        None => next.remove(&v),
    };
    Out::New(next)
}
