//! The circuit of one step of the transition system (`Ts::encode_step`): from a state's cut point
//! through the loop-free code to the next cut point, the values of joining paths merged with
//! if-then-else (large-block encoding), under the symbolic executor's semantics.

use std::rc::Rc;

use crate::base::fp::Rounding;
use crate::cfa::{CallSiteId, EdgeKind, GlobalKind};
use crate::cfront::ir::{BinOp, Expr, ExprKind, FuncId, Init, Program, UnOp, VarId};
use crate::cfront::types::{IntRank, TypeId, TypeKind};
use crate::libmodels::LibFn;
use crate::sat::{Aig, AigLit, Bv};
use crate::symex::math::{self, MathHost};
use crate::symex::semantics::{self, Repr};

use super::{unsupported, InputKind, StateVar, Step, StepInput, Target, Ts, Unsupported, R};

/// The values of the state variables along a path, shared until written.
type Env = Rc<Vec<Bv>>;

/// The rounding mode of every floating operation: programs that call `fesetround` are unsupported.
const ROUNDING: Rounding = Rounding::NearestEven;

impl Ts<'_> {
    /// The circuit of one step from the state (`pc`, `vars`).
    pub fn encode_step(&self, aig: &mut Aig, pc: &Bv, vars: &[Bv]) -> R<Step> {
        let mut enc = Enc { ts: self, aig, inputs: Vec::new(), ub: Vec::new(), guard: AigLit::TRUE, edge: None };
        enc.step(pc, vars)
    }
}

/// The encoder of one step.
struct Enc<'t, 'a> {
    ts: &'t Ts<'a>,
    aig: &'t mut Aig,
    inputs: Vec<StepInput>,
    /// Conditions of undefined behaviour met by the edge being encoded.
    ub: Vec<AigLit>,
    /// The condition under which the expression being evaluated is evaluated (short circuits).
    guard: AigLit,
    /// The inlined edge being encoded.
    edge: Option<u32>,
}

/// The encoder evaluating the arguments of a `math.h` call (`symex::math`) on a path's values.
struct MathCall<'e, 't, 'a> {
    enc: &'e mut Enc<'t, 'a>,
    env: &'e Env,
    ctx: u32,
}

/// What taking an edge gives.
enum Taken {
    /// The path is at the target where `.0` holds, with the values `.1`.
    Moved(AigLit, Env),
    /// The path violates the property where `.0` holds.
    Violation(AigLit),
    /// The path ends (halts) here.
    End,
}

impl Enc<'_, '_> {
    fn step(&mut self, pc: &Bv, vars: &[Bv]) -> R<Step> {
        let ts = self.ts;
        let n = ts.nodes.len();
        let mut incoming: Vec<Vec<(AigLit, Env)>> = vec![Vec::new(); n];
        let mut into_cuts: Vec<(AigLit, u32, Env)> = Vec::new();
        let mut err = Vec::new();
        let mut ub = Vec::new();
        let mut taken = Vec::new();
        let start: Env = Rc::new(vars.to_vec());
        let order: Vec<u32> = ts.cuts.iter().copied().chain(ts.order.iter().copied()).collect();
        for v in order {
            let (reach, env) = match ts.cut_of(v) {
                Some(c) => {
                    let here = pc.eq(self.aig, &ts.pc_const(c));
                    (here, start.clone())
                }
                None => {
                    let inc = std::mem::take(&mut incoming[v as usize]);
                    if inc.is_empty() {
                        continue;
                    }
                    self.merge(inc)
                }
            };
            if reach == AigLit::FALSE {
                continue;
            }
            for (ie, target, lit, env) in self.leave(v, reach, env, &mut ub)? {
                match target {
                    Target::Node(w) => {
                        taken.push((ie, lit));
                        match ts.cut_of(w) {
                            Some(c) => into_cuts.push((lit, c, env)),
                            None => incoming[w as usize].push((lit, env)),
                        }
                    }
                    Target::Error => {
                        taken.push((ie, lit));
                        err.push(lit);
                    }
                    Target::End => taken.push((ie, lit)),
                }
            }
        }
        let cont = self.aig.or_all(into_cuts.iter().map(|(l, _, _)| *l));
        let mut next_pc = Bv::zero(ts.pc_bits);
        let mut next: Vec<Bv> = vars.to_vec();
        // Merge in reverse so that the first arrival is the outermost choice (any order is right:
        // at most one arrival holds).
        for (lit, c, env) in into_cuts.iter().rev() {
            next_pc = Bv::ite(self.aig, *lit, &ts.pc_const(*c), &next_pc);
            for (i, val) in env.iter().enumerate() {
                if next[i].bits() != val.bits() {
                    next[i] = Bv::ite(self.aig, *lit, val, &next[i]);
                }
            }
        }
        let err = self.aig.or_all(err);
        let ub = self.aig.or_all(ub);
        Ok(Step { next_pc, next, cont, err, ub, taken, inputs: std::mem::take(&mut self.inputs) })
    }

    /// Joins the paths arriving at a node: where each holds, and the values (if-then-else where
    /// they differ; at most one arrival holds).
    fn merge(&mut self, inc: Vec<(AigLit, Env)>) -> (AigLit, Env) {
        let reach = self.aig.or_all(inc.iter().map(|(l, _)| *l));
        if inc.len() == 1 {
            return (reach, inc.into_iter().next().expect("one arrival").1);
        }
        let first_env = &inc[0].1;
        let mut vals: Vec<Bv> = (**first_env).clone();
        for (lit, env) in &inc[1..] {
            if Rc::ptr_eq(env, first_env) {
                continue;
            }
            for (i, v) in env.iter().enumerate() {
                if vals[i].bits() != v.bits() {
                    vals[i] = Bv::ite(self.aig, *lit, v, &vals[i]);
                }
            }
        }
        (reach, Rc::new(vals))
    }

    /// The edges leaving `v`, reached where `reach` holds with values `env`: per edge taken, where
    /// it leads, when, and with which values. Undefined behaviour on the way goes to `ub`.
    #[allow(clippy::type_complexity)]
    fn leave(&mut self, v: u32, reach: AigLit, env: Env, ub: &mut Vec<AigLit>) -> R<Vec<(u32, Target, AigLit, Env)>> {
        let ts = self.ts;
        let cfa = ts.cfa;
        let node = ts.nodes[v as usize];
        let outs = ts.out_edges(v);
        let mut res = Vec::new();
        if outs.is_empty() {
            return Ok(res);
        }
        let first = ts.edges[outs[0] as usize];
        if outs.len() == 1 && !matches!(cfa.edge(first.edge).kind, EdgeKind::Assume { .. }) {
            self.ub.clear();
            let t = self.edge(outs[0], node.ctx, reach, env)?;
            let u = self.take_ub(reach);
            ub.push(u);
            match t {
                Taken::Moved(lit, env) => {
                    let lit = self.aig.and(lit, !u);
                    res.push((outs[0], first.dst, lit, env));
                }
                Taken::Violation(lit) => {
                    let lit = self.aig.and(lit, !u);
                    res.push((outs[0], Target::Error, lit, Rc::new(Vec::new())))
                }
                Taken::End => res.push((outs[0], Target::End, AigLit::FALSE, Rc::new(Vec::new()))),
            }
            return Ok(res);
        }
        // A branch: every condition is evaluated on the node's values first.
        self.ub.clear();
        let mut lits = Vec::with_capacity(outs.len());
        for &ie in outs {
            let EdgeKind::Assume { cond, truth } = &cfa.edge(ts.edges[ie as usize].edge).kind else {
                return unsupported("a branch with an edge that is no condition");
            };
            let c = self.condition(cond, &env, node.ctx)?;
            lits.push(if *truth { c } else { !c });
        }
        let u = self.take_ub(reach);
        ub.push(u);
        let reach = self.aig.and(reach, !u);
        // Conditions that may overlap (not one and its negation) take a choice input.
        let exclusive = lits.len() == 1 || lits.len() == 2 && lits[0] == !lits[1];
        let choice = if exclusive {
            None
        } else {
            let bits = (usize::BITS - (lits.len() - 1).leading_zeros()).max(1);
            let bv = Bv::input(self.aig, bits);
            self.inputs.push(StepInput { bv: bv.clone(), kind: InputKind::Choice, edge: None });
            Some(bv)
        };
        for (k, (&ie, &lit)) in outs.iter().zip(&lits).enumerate() {
            if ts.blocked.get(ie as usize) == Some(&true) {
                continue;
            }
            let mut g = self.aig.and(reach, lit);
            if let Some(sel) = &choice {
                let is_k = sel.eq(self.aig, &Bv::constant(k as u128, sel.width()));
                g = self.aig.and(g, is_k);
            }
            let dst = ts.edges[ie as usize].dst;
            res.push((ie, dst, g, env.clone()));
        }
        Ok(res)
    }

    /// The disjunction of the undefined-behaviour conditions collected, where `reach` holds.
    fn take_ub(&mut self, reach: AigLit) -> AigLit {
        let ubs = std::mem::take(&mut self.ub);
        let any = self.aig.or_all(ubs);
        self.aig.and(reach, any)
    }

    /// The state variable of `v` named in context `ctx`; a variable that is none is unsupported.
    fn var(&self, v: VarId, ctx: u32) -> R<u32> {
        self.ts.var_of(v, ctx).ok_or_else(|| self.unsupported_var(v))
    }

    /// Why the variable `v`, which is no state variable, cannot be encoded: its type.
    fn unsupported_var(&self, v: VarId) -> Unsupported {
        let var = self.ts.prog.var(v);
        Unsupported(format!("the variable '{}' of type {}", var.name, self.ts.prog.types.display(var.ty)))
    }

    fn repr(&self, ty: TypeId) -> R<Repr> {
        let r = semantics::repr(&self.ts.prog.types, ty)?;
        if r.is_ptr {
            return unsupported("pointer values");
        }
        Ok(r)
    }

    /// A fresh value of `bits` bits.
    fn input(&mut self, bits: u32, kind: InputKind) -> Bv {
        let bv = Bv::input(self.aig, bits);
        self.inputs.push(StepInput { bv: bv.clone(), kind, edge: self.edge });
        bv
    }

    /// Takes the non-branching inlined edge `ie` from context `ctx`.
    fn edge(&mut self, ie: u32, ctx: u32, reach: AigLit, env: Env) -> R<Taken> {
        let ts = self.ts;
        let iedge = ts.edges[ie as usize];
        let edge = ts.cfa.edge(iedge.edge);
        self.edge = Some(ie);
        if iedge.dst == Target::Error {
            // A call of a violating function ends there, before its arguments; an edge into an
            // error label is taken first (below).
            let violating_call = match &edge.kind {
                EdgeKind::Call(_) => true,
                EdgeKind::ExternCall { callee, .. } => ts.calls_violation(callee),
                _ => false,
            };
            if violating_call {
                return Ok(Taken::Violation(reach));
            }
        }
        let mut env = env;
        let mut lit = reach;
        match &edge.kind {
            EdgeKind::Blank(_) | EdgeKind::TypeDecl | EdgeKind::Summary(_) => {}
            EdgeKind::Global(GlobalKind::Type | GlobalKind::Function(_)) => {}
            EdgeKind::Global(GlobalKind::Var { var, init }) => {
                self.declare(*var, init.as_ref(), true, &mut env, ctx)?
            }
            EdgeKind::Decl { var, init } => self.declare(*var, init.as_ref(), false, &mut env, ctx)?,
            EdgeKind::Assign { lhs, rhs } => {
                let i = self.lvalue(lhs, ctx)?;
                let v = self.expr(rhs, &env, ctx)?;
                Rc::make_mut(&mut env)[i as usize] = v;
            }
            EdgeKind::Eval(x) => {
                self.expr(x, &env, ctx)?;
            }
            EdgeKind::Assume { .. } => unreachable!("assume edges are branches"),
            EdgeKind::ExternCall { lhs, callee, args } => {
                if !self.extern_call(lhs.as_ref(), callee, args, &mut lit, &mut env, ctx)? {
                    return Ok(Taken::End);
                }
            }
            EdgeKind::Call(cs) => self.call(ie, *cs, &mut env, ctx)?,
            EdgeKind::Return(cs) => self.ret(ie, *cs, &mut env, ctx)?,
            EdgeKind::ReturnStmt(value) => self.return_stmt(value.as_ref(), &mut env, ctx)?,
        }
        if iedge.dst == Target::Error {
            return Ok(Taken::Violation(lit));
        }
        if iedge.dst == Target::End {
            return Ok(Taken::End);
        }
        Ok(Taken::Moved(lit, env))
    }

    /// Declares `var` (a global one where `global`) in context `ctx` with `init`. Its state
    /// variable takes the initial value; without one, an input (a local, or an `extern` global) or
    /// 0 (a global). A local that is no state variable may not be initialized: an aggregate or a
    /// pointer is fine as long as nothing uses it (any use is refused), but not initialized here.
    fn declare(&mut self, var: VarId, init: Option<&Init>, global: bool, env: &mut Env, ctx: u32) -> R<()> {
        let ts = self.ts;
        if let Some(i) = ts.var_of(var, ctx) {
            let sv = ts.vars[i as usize];
            let value = match init {
                Some(init) => self.init_value(init, sv, env, ctx)?,
                None if global && !ts.prog.var(var).is_extern => Bv::zero(sv.repr.bits),
                None => self.input(sv.repr.bits, InputKind::Uninit),
            };
            Rc::make_mut(env)[i as usize] = value;
        } else if !global && init.is_some() {
            return Err(self.unsupported_var(var));
        }
        Ok(())
    }

    /// Calls the function without body `callee` (with `args`, its result into `lhs`) as the
    /// library model of `libmodels` says: an assumption strengthens `lit`. Returns whether the
    /// path goes on (not after `abort` or `exit`).
    fn extern_call(
        &mut self,
        lhs: Option<&Expr>,
        callee: &Expr,
        args: &[Expr],
        lit: &mut AigLit,
        env: &mut Env,
        ctx: u32,
    ) -> R<bool> {
        let ts = self.ts;
        let ExprKind::Func(f) = &callee.strip_implicit().kind else {
            return unsupported("a call through a function pointer");
        };
        if let Some(reason) = ts.world.undeclared_call(*f) {
            return Err(Unsupported(reason));
        }
        let lib = ts.world.lib(*f).for_call(args.len());
        match lib {
            LibFn::Halt => return Ok(false),
            LibFn::Assume => {
                let c = self.condition(&args[0], env, ctx)?;
                *lit = self.aig.and(*lit, c);
            }
            LibFn::Noop => {}
            LibFn::Expect => {
                let v = self.expr(&args[0], env, ctx)?;
                self.store(lhs, v, args[0].ty, env, ctx)?;
            }
            LibFn::Bswap => {
                let v = self.expr(&args[0], env, ctx)?;
                self.repr(args[0].ty)?;
                let bits: Vec<_> = v.bits().chunks(8).rev().flatten().copied().collect();
                self.store(lhs, Bv::from_bits(bits), args[0].ty, env, ctx)?;
            }
            LibFn::GetRounding => {
                // The mode is always round-to-nearest-even: `fesetround` is not modelled (below).
                let ret = self.return_type(*f)?;
                let mode = Rounding::NearestEven.fe_value().expect("a dynamic mode");
                let r = self.repr(ret)?;
                self.store(lhs, Bv::constant(mode, r.bits), ret, env, ctx)?;
            }
            LibFn::Math(m, _) => {
                let mut host = MathCall { enc: self, env, ctx };
                let (v, ty) = math::call(&mut host, *f, m, args)?;
                self.store(lhs, v, ty, env, ctx)?;
            }
            LibFn::SetRounding => {
                return unsupported(format!(
                    "a call of '{}': the transition system computes in round-to-nearest-even only",
                    ts.prog.func(*f).name
                ))
            }
            LibFn::Output if lhs.is_none() => {
                for a in args {
                    if !matches!(&a.strip_implicit().kind, ExprKind::Decay(s) if matches!(s.kind, ExprKind::Str(_))) {
                        self.expr(a, env, ctx)?;
                    }
                }
                self.result(*f, None, env, ctx)?;
            }
            LibFn::Nondet | LibFn::Unknown if args.is_empty() => self.result(*f, lhs, env, ctx)?,
            LibFn::ReachError | LibFn::AssertFail if args.is_empty() => {
                // Not a violation of this property: a function without body.
                self.result(*f, lhs, env, ctx)?
            }
            LibFn::Output
            | LibFn::Nondet
            | LibFn::Unknown
            | LibFn::ReachError
            | LibFn::AssertFail
            | LibFn::Malloc
            | LibFn::Calloc
            | LibFn::Free
            | LibFn::Memset
            | LibFn::Memcpy
            | LibFn::ObjectSize
            | LibFn::BlockSize
            | LibFn::Unsupported
            | LibFn::Unmodelled
            | LibFn::Code => {
                return unsupported(format!(
                    "a call of '{}', which the transition system does not model",
                    ts.prog.func(*f).name
                ))
            }
        }
        Ok(true)
    }

    /// Takes the call edge `ie` (call site `cs`) from context `ctx`: the callee's parameters take
    /// the arguments' values, its return variable a fresh value.
    fn call(&mut self, ie: u32, cs: CallSiteId, env: &mut Env, ctx: u32) -> R<()> {
        let ts = self.ts;
        let site = ts.cfa.call_site(cs);
        if site.incompatible_argument(ts.prog).is_some() {
            return unsupported("a call through a pointer of an incompatible function type");
        }
        let Target::Node(d) = ts.edges[ie as usize].dst else { unreachable!("a call into a callee") };
        let callee_ctx = ts.nodes[d as usize].ctx;
        let mut values = Vec::with_capacity(site.args.len());
        for a in &site.args {
            values.push(self.expr(a, env, ctx)?);
        }
        let func = ts.prog.func(site.callee);
        let e = Rc::make_mut(env);
        for (k, &p) in func.params.iter().enumerate() {
            let Some(i) = ts.var_of(p, callee_ctx) else {
                if k < values.len() {
                    let var = ts.prog.var(p);
                    return unsupported(format!(
                        "the parameter '{}' of type {}",
                        var.name,
                        ts.prog.types.display(var.ty)
                    ));
                }
                continue;
            };
            let bits = ts.vars[i as usize].repr.bits;
            e[i as usize] = match values.get(k) {
                Some(v) if v.width() == bits => v.clone(),
                Some(_) => return unsupported("an argument of another width than its parameter"),
                None => {
                    let bv = Bv::input(self.aig, bits);
                    self.inputs.push(StepInput { bv: bv.clone(), kind: InputKind::Uninit, edge: Some(ie) });
                    bv
                }
            };
        }
        if let Some(rv) = ts.cfa.func(site.callee).and_then(|f| f.ret_var) {
            if let Some(i) = ts.var_of(rv, callee_ctx) {
                let bits = ts.vars[i as usize].repr.bits;
                let bv = Bv::input(self.aig, bits);
                self.inputs.push(StepInput { bv: bv.clone(), kind: InputKind::Uninit, edge: Some(ie) });
                e[i as usize] = bv;
            }
        }
        Ok(())
    }

    /// Takes the return edge `ie` (to call site `cs`) from the callee's context `ctx`: the call's
    /// left-hand side takes the callee's return value.
    fn ret(&mut self, ie: u32, cs: CallSiteId, env: &mut Env, ctx: u32) -> R<()> {
        let ts = self.ts;
        let site = ts.cfa.call_site(cs);
        let ret_var = ts.cfa.func(site.callee).and_then(|f| f.ret_var);
        if let (Some(rv), Some(lhs)) = (ret_var, &site.lhs) {
            let Target::Node(d) = ts.edges[ie as usize].dst else { unreachable!("a return to a caller") };
            let caller_ctx = ts.nodes[d as usize].ctx;
            let i = self.var(rv, ctx)?;
            let v = env[i as usize].clone();
            let j = self.lvalue(lhs, caller_ctx)?;
            let v = self.convert(&v, ts.prog.var(rv).ty, ts.vars[j as usize].ty)?;
            Rc::make_mut(env)[j as usize] = v;
        }
        Ok(())
    }

    /// Takes a `return` statement of context `ctx`: the function's return variable takes `value`.
    fn return_stmt(&mut self, value: Option<&Expr>, env: &mut Env, ctx: u32) -> R<()> {
        let ts = self.ts;
        if let Some(x) = value {
            let v = self.expr(x, env, ctx)?;
            let f = ts.ctxs[ctx as usize].func;
            if let Some(rv) = ts.cfa.func(f).and_then(|fc| fc.ret_var) {
                let i = self.var(rv, ctx)?;
                let v = self.convert(&v, x.ty, ts.vars[i as usize].ty)?;
                Rc::make_mut(env)[i as usize] = v;
            }
        }
        Ok(())
    }

    /// The initial value of state variable `sv` from `init`.
    fn init_value(&mut self, init: &Init, sv: StateVar, env: &Env, ctx: u32) -> R<Bv> {
        match init {
            Init::Expr(x) => {
                let v = self.expr(x, env, ctx)?;
                if v.width() != sv.repr.bits {
                    return unsupported("an initializer of another width than its variable");
                }
                Ok(v)
            }
            Init::List(leaves) => match &leaves[..] {
                [] => Ok(Bv::zero(sv.repr.bits)),
                [leaf] if leaf.path.is_empty() => self.init_value(&Init::Expr(leaf.value.clone()), sv, env, ctx),
                _ => unsupported("an initializer list of an integer"),
            },
        }
    }

    /// Stores `v` (of type `from`) into `lhs`, converted to its type.
    fn store(&mut self, lhs: Option<&Expr>, v: Bv, from: TypeId, env: &mut Env, ctx: u32) -> R<()> {
        let Some(lhs) = lhs else { return Ok(()) };
        let i = self.lvalue(lhs, ctx)?;
        let v = self.convert(&v, from, self.ts.vars[i as usize].ty)?;
        Rc::make_mut(env)[i as usize] = v;
        Ok(())
    }

    /// `v` of type `from` converted to type `to` (the executor's `convert_value` on scalars): C's
    /// conversions between integers, or `semantics::convert_float` where a type is floating, whose
    /// undefined behaviour (a value out of an integer type's range, a NaN) goes to `ub`.
    fn convert(&mut self, v: &Bv, from: TypeId, to: TypeId) -> R<Bv> {
        let types = &self.ts.prog.types;
        if types.float_format(from).is_some() || types.float_format(to).is_some() {
            let res = semantics::convert_float(self.aig, types, ROUNDING, v, from, to)?;
            if res.ub != AigLit::FALSE {
                let g = self.aig.and(self.guard, res.ub);
                self.ub.push(g);
            }
            return Ok(res.value);
        }
        let (fr, tr) = (self.repr(from)?, self.repr(to)?);
        Ok(semantics::convert(self.aig, v, fr, tr))
    }

    /// The return type of function `f`.
    fn return_type(&self, f: FuncId) -> R<TypeId> {
        match self.ts.prog.types.kind(self.ts.prog.func(f).ty) {
            TypeKind::Func(ft) => Ok(ft.ret),
            _ => unsupported("a call of something that is no function"),
        }
    }

    /// The arbitrary result of function `f` without body, stored into `lhs` (created even when
    /// unused, as the executor does).
    fn result(&mut self, f: FuncId, lhs: Option<&Expr>, env: &mut Env, ctx: u32) -> R<()> {
        let types = &self.ts.prog.types;
        let ret = self.return_type(f)?;
        let v = match types.kind(ret) {
            TypeKind::Void => return Ok(()),
            TypeKind::Int(it) if it.rank == IntRank::Bool => {
                let bit = self.input(1, InputKind::Call { func: f, ty: ret });
                semantics::bool_value(bit.bit(0), 8)
            }
            TypeKind::Int(_) => {
                let r = self.repr(ret)?;
                self.input(r.bits, InputKind::Call { func: f, ty: ret })
            }
            // Any bit pattern, NaNs included, as the executor draws it.
            TypeKind::Float(k) if k.format().is_some() => {
                let bits = k.format().expect("a modelled format").bits();
                self.input(bits, InputKind::Call { func: f, ty: ret })
            }
            _ => return unsupported(format!("an arbitrary value of type {}", types.display(ret))),
        };
        self.store(lhs, v, ret, env, ctx)
    }

    /// The state variable `lhs` designates.
    fn lvalue(&mut self, lhs: &Expr, ctx: u32) -> R<u32> {
        match &lhs.kind {
            ExprKind::Var(v) => self.var(*v, ctx),
            ExprKind::Index(..) => unsupported("arrays"),
            ExprKind::Member { .. } => unsupported("structs and unions"),
            ExprKind::Deref(_) => unsupported("pointers"),
            _ => unsupported("an assignment to memory other than an integer variable"),
        }
    }

    /// The truth value of a scalar condition.
    fn condition(&mut self, cond: &Expr, env: &Env, ctx: u32) -> R<AigLit> {
        let v = self.expr(cond, env, ctx)?;
        Ok(semantics::scalar_truth(self.aig, &self.ts.prog.types, cond.ty, &v))
    }

    /// The value of the integer or floating expression `e` (the executor's `rvalue` on scalars).
    fn expr(&mut self, e: &Expr, env: &Env, ctx: u32) -> R<Bv> {
        match &e.kind {
            ExprKind::IntConst(v) => {
                let r = self.repr(e.ty)?;
                Ok(Bv::constant(*v as u128, r.bits))
            }
            ExprKind::SizeOf(v) | ExprKind::SizeOfExpr(v, _) => {
                let r = self.repr(e.ty)?;
                Ok(Bv::constant(*v as u128, r.bits))
            }
            ExprKind::Var(v) => {
                let i = self.var(*v, ctx)?;
                Ok(env[i as usize].clone())
            }
            ExprKind::Unary(op, x) => {
                if let Some(f) = self.ts.prog.types.float_format(x.ty) {
                    let v = self.expr(x, env, ctx)?;
                    let bits = if *op == UnOp::LogNot { self.repr(e.ty)?.bits } else { f.bits() };
                    return Ok(semantics::float_unary(self.aig, f, *op, &v, bits));
                }
                let r = self.repr(x.ty)?;
                let v = self.expr(x, env, ctx)?;
                let res = semantics::unary(self.aig, *op, &v, r);
                let rr = self.repr(e.ty)?;
                if *op != UnOp::LogNot && rr.bits != res.width() {
                    return Ok(semantics::convert(self.aig, &res, r, rr));
                }
                Ok(res)
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b, env, ctx),
            ExprKind::Cast(x, _) => {
                if matches!(self.ts.prog.types.kind(e.ty), TypeKind::Void) {
                    self.expr(x, env, ctx)?;
                    return Ok(Bv::zero(8));
                }
                let v = self.expr(x, env, ctx)?;
                self.convert(&v, x.ty, e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                let cl = self.condition(c, env, ctx)?;
                let saved = self.guard;
                self.guard = self.aig.and(saved, cl);
                let va = self.expr(a, env, ctx);
                self.guard = self.aig.and(saved, !cl);
                let vb = self.expr(b, env, ctx);
                self.guard = saved;
                let (va, vb) = (va?, vb?);
                if va.width() != vb.width() {
                    return unsupported("a conditional expression whose branches differ in type");
                }
                Ok(Bv::ite(self.aig, cl, &va, &vb))
            }
            ExprKind::Comma(a, b) => {
                self.expr(a, env, ctx)?;
                self.expr(b, env, ctx)
            }
            ExprKind::FloatConst(lit) => {
                let types = &self.ts.prog.types;
                match (lit.bits, types.float_format(e.ty)) {
                    (Some(v), Some(f)) => Ok(Bv::constant(v, f.bits())),
                    _ => unsupported(format!("{} values", types.display(e.ty))),
                }
            }
            ExprKind::Unsupported(reason) => unsupported(reason.clone()),
            ExprKind::Member { .. } => unsupported("structs and unions"),
            ExprKind::Index(..) => unsupported("arrays"),
            ExprKind::Deref(_) | ExprKind::AddrOf(_) | ExprKind::Decay(_) | ExprKind::Str(_) | ExprKind::Func(_) => {
                unsupported("pointers")
            }
            ExprKind::StmtExpr(_)
            | ExprKind::Assign(..)
            | ExprKind::CompoundAssign(..)
            | ExprKind::IncDec { .. }
            | ExprKind::Call(..) => unsupported("a side effect inside an expression"),
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr, env: &Env, ctx: u32) -> R<Bv> {
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            let ca = self.condition(a, env, ctx)?;
            let saved = self.guard;
            self.guard = self.aig.and(saved, if op == BinOp::LogAnd { ca } else { !ca });
            let cb = self.condition(b, env, ctx);
            self.guard = saved;
            let cb = cb?;
            let lit = if op == BinOp::LogAnd { self.aig.and(ca, cb) } else { self.aig.or(ca, cb) };
            let r = self.repr(e.ty)?;
            return Ok(semantics::bool_value(lit, r.bits));
        }
        if let Some(f) = self.ts.prog.types.float_format(a.ty) {
            let va = self.expr(a, env, ctx)?;
            let vb = self.expr(b, env, ctx)?;
            let bits = if op.is_relational() { self.repr(e.ty)?.bits } else { f.bits() };
            return semantics::float_binary(self.aig, f, ROUNDING, op, &va, &vb, bits).ok_or_else(|| {
                Unsupported(format!("`{}` on {} operands", op.symbol(), self.ts.prog.types.display(e.ty)))
            });
        }
        let ra = self.repr(a.ty)?;
        let rb = self.repr(b.ty)?;
        let va = self.expr(a, env, ctx)?;
        let vb = self.expr(b, env, ctx)?;
        let (va, vb) = semantics::align_relational(op, va, vb, ra, rb);
        let r = Repr { bits: va.width(), ..ra };
        if !matches!(op, BinOp::Shl | BinOp::Shr) && va.width() != vb.width() {
            return unsupported("operands of different widths");
        }
        let res = semantics::binary(self.aig, op, &va, &vb, r, rb);
        if res.ub != AigLit::FALSE {
            let g = self.aig.and(self.guard, res.ub);
            self.ub.push(g);
        }
        let rr = self.repr(e.ty)?;
        if rr.bits != res.value.width() {
            return Ok(semantics::resize(&res.value, rr.bits, r.signed && !op.is_relational()));
        }
        Ok(res.value)
    }
}

impl MathHost for MathCall<'_, '_, '_> {
    fn aig(&mut self) -> &mut Aig {
        self.enc.aig
    }

    fn prog(&self) -> &Program {
        self.enc.ts.prog
    }

    fn scalar(&mut self, e: &Expr) -> Result<Bv, semantics::Unsupported> {
        self.enc.expr(e, self.env, self.ctx).map_err(|u| semantics::Unsupported(u.0))
    }

    fn rounding(&self) -> Rounding {
        ROUNDING
    }

    /// Where the executor cuts the rest of a path (a value it does not model), the step may not go
    /// on and no TRUE may be drawn: as undefined behaviour (`ub`).
    fn narrow(&mut self, lit: AigLit, _why: &'static str) {
        let g = self.enc.aig.and(self.enc.guard, !lit);
        self.enc.ub.push(g);
    }
}
