//! The paths of one box on intervals: the edges of the transition system's inlined program under
//! the semantics of `verify::ts::encode` (the executor's), each value an interval (`domain`), each
//! condition the intervals do not decide followed both ways with its narrowing.

use std::rc::Rc;

use crate::base::fp::{self, Arith, Format, Rounding};
use crate::cfa::{CallSiteId, EdgeId, EdgeKind, GlobalKind};
use crate::cfront::ir::{BinOp, Expr, ExprKind, FuncId, Init, UnOp, VarId};
use crate::cfront::types::{IntRank, TypeId, TypeKind};
use crate::libmodels::{LibFn, Math};
use crate::symex::semantics::{self, Repr};

use super::domain::{
    float_arith, float_compare, float_convert, float_narrow, float_narrow_false, float_preimage, float_to_int,
    from_pattern, int_binary, int_compare, int_narrow, int_preimage, int_to_float, negate, swap, type_range, FItv,
    IItv, Tri, Val, RM,
};
use super::{bound, InputBox, Kind, Slot, Stop};
use crate::verify::ts::{Target, Ts};

/// A variable's value on a path, and the input it is a copy of (narrowing the one narrows the
/// other).
#[derive(Clone, Copy, Debug)]
struct Cell {
    val: Val,
    origin: Option<u32>,
}

/// A path being explored: where it is, its values and the inputs it drew.
#[derive(Clone)]
struct Path {
    node: u32,
    env: Rc<Vec<Cell>>,
    drawn: Vec<Slot>,
}

/// What taking an edge gave.
enum Next {
    /// The path goes on at an inlined node.
    Moved(u32),
    /// The path ends (halts, returns from `main`, or an assumption blocks it).
    End,
}

type R<T> = Result<T, Stop>;

/// The most paths of a box waiting to be explored: beyond, the conditions the intervals do not
/// decide multiply the paths faster than a box can be explored.
const MAX_PENDING: usize = 4_096;
/// The most inputs one path draws (a loop that reads an input per iteration).
const MAX_INPUTS: usize = 1_024;

fn unsupported<T>(what: impl Into<String>) -> R<T> {
    Err(Stop::Unsupported(what.into()))
}

/// Runs every path of box `b` through at most `limit` edges: `Ok` when none is bad. Returns the
/// edges taken as well.
pub(super) fn explore(ts: &Ts<'_>, b: &InputBox, limit: u64) -> (R<()>, u64) {
    let mut w = Walk { ts, b, ub: false, at: EdgeId::from_idx(0) };
    let mut taken = 0u64;
    let start = ts.vars.iter().map(|v| Cell { val: w.top(v.ty, v.repr, v.float), origin: None }).collect();
    let mut stack = vec![Path { node: 0, env: Rc::new(start), drawn: Vec::new() }];
    while let Some(mut p) = stack.pop() {
        loop {
            taken += 1;
            if taken > limit || stack.len() > MAX_PENDING || p.drawn.len() > MAX_INPUTS {
                return (Err(Stop::Long), taken);
            }
            match w.leave(&mut p, &mut stack) {
                Ok(Some(next)) => p.node = next,
                Ok(None) => break,
                Err(s) => return (Err(s), taken),
            }
        }
    }
    (Ok(()), taken)
}

/// The evaluator of a box's paths.
struct Walk<'w, 'a> {
    ts: &'w Ts<'a>,
    b: &'w InputBox,
    /// The edge being taken may have undefined behaviour.
    ub: bool,
    /// The CFA edge being taken.
    at: EdgeId,
}

impl Walk<'_, '_> {
    /// Every value of a variable's type.
    fn top(&self, _ty: TypeId, repr: Repr, float: Option<Format>) -> Val {
        match float {
            Some(_) => Val::Float(FItv::TOP),
            None => Val::Int(type_range(repr)),
        }
    }

    /// Takes the edges leaving `p`'s node: the node the path goes on at, if it does; the other
    /// feasible branches go to `stack`.
    fn leave(&mut self, p: &mut Path, stack: &mut Vec<Path>) -> R<Option<u32>> {
        let ts = self.ts;
        let outs = ts.out_edges(p.node);
        let Some(&first) = outs.first() else { return Ok(None) };
        let assume = |ie: u32| matches!(ts.cfa.edge(ts.edges[ie as usize].edge).kind, EdgeKind::Assume { .. });
        if outs.len() == 1 && !assume(first) {
            self.ub = false;
            let next = self.edge(first, p)?;
            if self.ub {
                return Err(Stop::Bad(p.drawn.clone()));
            }
            return Ok(match next {
                Next::Moved(n) => Some(n),
                Next::End => None,
            });
        }
        let mut feasible = Vec::new();
        for &ie in outs {
            let EdgeKind::Assume { cond, truth } = &ts.cfa.edge(ts.edges[ie as usize].edge).kind else {
                return unsupported("a branch with an edge that is no condition");
            };
            let mut q = p.clone();
            self.ub = false;
            let ok = self.assume(cond, *truth, &mut q)?;
            if self.ub {
                return Err(Stop::Bad(q.drawn));
            }
            if !ok {
                continue;
            }
            match ts.edges[ie as usize].dst {
                Target::Node(n) => {
                    q.node = n;
                    feasible.push(q);
                }
                Target::Error => return Err(Stop::Bad(q.drawn)),
                Target::End => {}
            }
        }
        let mut feasible = feasible.into_iter();
        let Some(next) = feasible.next() else { return Ok(None) };
        stack.extend(feasible.rev());
        *p = next;
        Ok(Some(p.node))
    }

    /// The context of the node `p` is at.
    fn ctx(&self, p: &Path) -> u32 {
        self.ts.nodes[p.node as usize].ctx
    }

    /// Takes the non-branching inlined edge `ie`.
    fn edge(&mut self, ie: u32, p: &mut Path) -> R<Next> {
        let ts = self.ts;
        let iedge = ts.edges[ie as usize];
        let edge = ts.cfa.edge(iedge.edge);
        let ctx = self.ctx(p);
        self.at = iedge.edge;
        if iedge.dst == Target::Error {
            let violating_call = match &edge.kind {
                EdgeKind::Call(_) => true,
                EdgeKind::ExternCall { callee, .. } => ts.calls_violation(callee),
                _ => false,
            };
            if violating_call {
                return Err(Stop::Bad(p.drawn.clone()));
            }
        }
        match &edge.kind {
            EdgeKind::Blank(_) | EdgeKind::TypeDecl | EdgeKind::Summary(_) => {}
            EdgeKind::Global(GlobalKind::Type | GlobalKind::Function(_)) => {}
            EdgeKind::Global(GlobalKind::Var { var, init }) => self.declare(*var, init.as_ref(), true, p, ctx)?,
            EdgeKind::Decl { var, init } => self.declare(*var, init.as_ref(), false, p, ctx)?,
            EdgeKind::Assign { lhs, rhs } => {
                let i = self.lvalue(lhs, ctx)?;
                let cell = self.cell(rhs, p, ctx)?;
                Rc::make_mut(&mut p.env)[i] = cell;
            }
            EdgeKind::Eval(x) => {
                self.expr(x, p, ctx)?;
            }
            EdgeKind::Assume { .. } => unreachable!("assume edges are branches"),
            EdgeKind::ExternCall { lhs, callee, args } => {
                if !self.extern_call(lhs.as_ref(), callee, args, p, ctx)? {
                    return Ok(Next::End);
                }
            }
            EdgeKind::Call(cs) => self.call(ie, *cs, p, ctx)?,
            EdgeKind::Return(cs) => self.ret(ie, *cs, p, ctx)?,
            EdgeKind::ReturnStmt(value) => self.return_stmt(value.as_ref(), p, ctx)?,
        }
        match iedge.dst {
            Target::Error => Err(Stop::Bad(p.drawn.clone())),
            Target::End => Ok(Next::End),
            Target::Node(n) => Ok(Next::Moved(n)),
        }
    }

    /// The state variable of `v` in context `ctx`.
    fn var(&self, v: VarId, ctx: u32) -> R<usize> {
        match self.ts.var_of(v, ctx) {
            Some(i) => Ok(i as usize),
            None => {
                let var = self.ts.prog.var(v);
                unsupported(format!("the variable '{}' of type {}", var.name, self.ts.prog.types.display(var.ty)))
            }
        }
    }

    fn lvalue(&self, lhs: &Expr, ctx: u32) -> R<usize> {
        match &lhs.kind {
            ExprKind::Var(v) => self.var(*v, ctx),
            _ => unsupported("an assignment to memory other than a scalar variable"),
        }
    }

    fn repr(&self, ty: TypeId) -> R<Repr> {
        match semantics::repr(&self.ts.prog.types, ty) {
            Ok(r) if !r.is_ptr => Ok(r),
            Ok(_) => unsupported("pointer values"),
            Err(u) => unsupported(u.0),
        }
    }

    /// The type of an input of type `ty`.
    fn kind(&self, ty: TypeId) -> R<Kind> {
        match self.ts.prog.types.float_format(ty) {
            Some(f) => Ok(Kind::Float(f)),
            None => Ok(Kind::Int(self.repr(ty)?)),
        }
    }

    /// A fresh input of type `ty`: its bound in the box, numbered in the path's order.
    fn input(&self, ty: TypeId, p: &mut Path) -> R<Cell> {
        let kind = self.kind(ty)?;
        let k = p.drawn.len();
        let val = bound(self.b, k, kind);
        p.drawn.push(Slot { kind, val, used: false, call: None });
        Ok(Cell { val, origin: Some(k as u32) })
    }

    fn declare(&mut self, var: VarId, init: Option<&Init>, global: bool, p: &mut Path, ctx: u32) -> R<()> {
        let ts = self.ts;
        let Some(i) = ts.var_of(var, ctx) else {
            if !global && init.is_some() {
                self.var(var, ctx)?;
            }
            return Ok(());
        };
        let sv = ts.vars[i as usize];
        let cell = match init {
            Some(Init::Expr(x)) => self.cell(x, p, ctx)?,
            Some(Init::List(leaves)) => match &leaves[..] {
                [] => Cell { val: self.zero(sv.ty)?, origin: None },
                [leaf] if leaf.path.is_empty() => self.cell(&leaf.value, p, ctx)?,
                _ => return unsupported("an initializer list of a scalar"),
            },
            None if global && !ts.prog.var(var).is_extern => Cell { val: self.zero(sv.ty)?, origin: None },
            None => self.input(sv.ty, p)?,
        };
        Rc::make_mut(&mut p.env)[i as usize] = cell;
        Ok(())
    }

    fn zero(&self, ty: TypeId) -> R<Val> {
        Ok(match self.kind(ty)? {
            Kind::Int(_) => Val::Int(IItv::point(0)),
            Kind::Float(_) => Val::Float(FItv { range: Some((0.0, 0.0)), nan: false }),
        })
    }

    /// The value of `e` for a store: a copy of a variable keeps what it is a copy of.
    fn cell(&mut self, e: &Expr, p: &mut Path, ctx: u32) -> R<Cell> {
        if let ExprKind::Var(v) = &e.kind {
            let i = self.var(*v, ctx)?;
            return Ok(p.env[i]);
        }
        Ok(Cell { val: self.expr(e, p, ctx)?, origin: None })
    }

    /// Calls the function without body `callee` as `libmodels` says (the transition system's
    /// subset). Returns whether the path goes on.
    fn extern_call(&mut self, lhs: Option<&Expr>, callee: &Expr, args: &[Expr], p: &mut Path, ctx: u32) -> R<bool> {
        let ts = self.ts;
        let ExprKind::Func(f) = &callee.strip_implicit().kind else {
            return unsupported("a call through a function pointer");
        };
        if let Some(reason) = ts.world().undeclared_call(*f) {
            return Err(Stop::Unsupported(reason));
        }
        match ts.world().lib(*f).for_call(args.len()) {
            LibFn::Halt => return Ok(false),
            LibFn::Assume => return self.assume(&args[0], true, p),
            LibFn::Noop => {}
            LibFn::Expect => {
                let v = self.expr(&args[0], p, ctx)?;
                self.store(lhs, v, args[0].ty, p, ctx)?;
            }
            LibFn::GetRounding => {
                let ret = self.return_type(*f)?;
                let mode = Rounding::NearestEven.fe_value().expect("a dynamic mode");
                let v = from_pattern(mode, self.repr(ret)?);
                self.store(lhs, Val::Int(IItv::point(v)), ret, p, ctx)?;
            }
            LibFn::Math(m, _) => {
                let (v, ty) = self.math(*f, m, args, p, ctx)?;
                self.store(lhs, v, ty, p, ctx)?;
            }
            LibFn::Output if lhs.is_none() => {
                for a in args {
                    if !matches!(&a.strip_implicit().kind, ExprKind::Decay(s) if matches!(s.kind, ExprKind::Str(_))) {
                        self.expr(a, p, ctx)?;
                    }
                }
            }
            LibFn::Nondet | LibFn::Unknown | LibFn::ReachError | LibFn::AssertFail if args.is_empty() => {
                self.result(*f, lhs, p, ctx)?
            }
            _ => return unsupported(format!("a call of '{}'", ts.prog.func(*f).name)),
        }
        Ok(true)
    }

    /// The `math.h` functions whose result intervals give: monotone ones and the classifications.
    fn math(&mut self, f: FuncId, m: Math, args: &[Expr], p: &mut Path, ctx: u32) -> R<(Val, TypeId)> {
        let ret = self.return_type(f)?;
        let name = &self.ts.prog.func(f).name;
        let Some(x) = args.first() else { return unsupported(format!("a call of '{name}' without argument")) };
        let Some(format) = self.ts.prog.types.float_format(x.ty) else {
            return unsupported(format!("a call of '{name}' on a value of no modelled floating type"));
        };
        let Val::Float(v) = self.expr(x, p, ctx)? else { unreachable!("a floating argument") };
        let round = |rm: Rounding| v.monotone(format, |b| fp::round_to_integral(format, rm, b));
        let class = |t: bool, f: bool| Val::Int(Tri::of(t, f).expect("a value").int());
        let finite = v.range.is_some_and(|(l, h)| l.is_finite() || h.is_finite() || l != h);
        let infinite = v.range.is_some_and(|(l, h)| l.is_infinite() || h.is_infinite());
        let val = match m {
            Math::Fabs => Val::Float(v.abs()),
            Math::Sqrt => Val::Float(sqrt(format, v)),
            Math::Floor => Val::Float(round(Rounding::Down)),
            Math::Ceil => Val::Float(round(Rounding::Up)),
            Math::Trunc => Val::Float(round(Rounding::TowardZero)),
            Math::Round => Val::Float(round(Rounding::NearestAway)),
            Math::IsNan => class(v.nan, v.range.is_some()),
            Math::IsFinite => class(finite, v.nan || infinite),
            Math::IsInf => class(infinite, v.nan || finite),
            _ => return unsupported(format!("a call of '{name}' on intervals")),
        };
        let ty = if matches!(val, Val::Float(_)) { x.ty } else { ret };
        Ok((val, ty))
    }

    /// The arbitrary result of function `f` without body, stored into `lhs`.
    fn result(&mut self, f: FuncId, lhs: Option<&Expr>, p: &mut Path, ctx: u32) -> R<()> {
        let types = &self.ts.prog.types;
        let ret = self.return_type(f)?;
        match types.kind(ret) {
            TypeKind::Void => return Ok(()),
            TypeKind::Int(it) if it.rank == IntRank::Bool => {}
            TypeKind::Int(_) => {}
            TypeKind::Float(k) if k.format().is_some() => {}
            _ => return unsupported(format!("an arbitrary value of type {}", types.display(ret))),
        }
        let cell = self.input(ret, p)?;
        if let Some(k) = cell.origin {
            p.drawn[k as usize].call = Some((self.at, f, ret));
        }
        let Some(lhs) = lhs else { return Ok(()) };
        let i = self.lvalue(lhs, ctx)?;
        let cell = if self.ts.vars[i].ty == ret {
            cell
        } else {
            Cell { val: self.convert(cell.val, ret, self.ts.vars[i].ty)?, origin: None }
        };
        Rc::make_mut(&mut p.env)[i] = cell;
        Ok(())
    }

    fn return_type(&self, f: FuncId) -> R<TypeId> {
        match self.ts.prog.types.kind(self.ts.prog.func(f).ty) {
            TypeKind::Func(ft) => Ok(ft.ret),
            _ => unsupported("a call of something that is no function"),
        }
    }

    /// Stores `v` of type `from` into `lhs`, converted to its type.
    fn store(&mut self, lhs: Option<&Expr>, v: Val, from: TypeId, p: &mut Path, ctx: u32) -> R<()> {
        let Some(lhs) = lhs else { return Ok(()) };
        let i = self.lvalue(lhs, ctx)?;
        let val = self.convert(v, from, self.ts.vars[i].ty)?;
        Rc::make_mut(&mut p.env)[i] = Cell { val, origin: None };
        Ok(())
    }

    /// The call edge `ie`: the callee's parameters take the arguments, its return variable any value.
    fn call(&mut self, ie: u32, cs: CallSiteId, p: &mut Path, ctx: u32) -> R<()> {
        let ts = self.ts;
        let site = ts.cfa.call_site(cs);
        if site.incompatible_argument(ts.prog).is_some() {
            return unsupported("a call through a pointer of an incompatible function type");
        }
        let Target::Node(d) = ts.edges[ie as usize].dst else { unreachable!("a call into a callee") };
        let callee_ctx = ts.nodes[d as usize].ctx;
        let mut values = Vec::with_capacity(site.args.len());
        for a in &site.args {
            values.push(self.cell(a, p, ctx)?);
        }
        let func = ts.prog.func(site.callee);
        for (k, &param) in func.params.iter().enumerate() {
            let Some(i) = ts.var_of(param, callee_ctx) else {
                if k < values.len() {
                    self.var(param, callee_ctx)?;
                }
                continue;
            };
            let sv = ts.vars[i as usize];
            let cell = match values.get(k) {
                Some(c) => *c,
                None => Cell { val: self.top(sv.ty, sv.repr, sv.float), origin: None },
            };
            Rc::make_mut(&mut p.env)[i as usize] = cell;
        }
        if let Some(rv) = ts.cfa.func(site.callee).and_then(|f| f.ret_var) {
            if let Some(i) = ts.var_of(rv, callee_ctx) {
                let sv = ts.vars[i as usize];
                Rc::make_mut(&mut p.env)[i as usize] = Cell { val: self.top(sv.ty, sv.repr, sv.float), origin: None };
            }
        }
        Ok(())
    }

    /// The return edge `ie` to call site `cs`: the call's left-hand side takes the return value.
    fn ret(&mut self, ie: u32, cs: CallSiteId, p: &mut Path, ctx: u32) -> R<()> {
        let ts = self.ts;
        let site = ts.cfa.call_site(cs);
        let ret_var = ts.cfa.func(site.callee).and_then(|f| f.ret_var);
        if let (Some(rv), Some(lhs)) = (ret_var, &site.lhs) {
            let Target::Node(d) = ts.edges[ie as usize].dst else { unreachable!("a return to a caller") };
            let caller_ctx = ts.nodes[d as usize].ctx;
            let i = self.var(rv, ctx)?;
            let cell = p.env[i];
            let j = self.lvalue(lhs, caller_ctx)?;
            let (from, to) = (ts.prog.var(rv).ty, ts.vars[j].ty);
            let cell = if from == to { cell } else { Cell { val: self.convert(cell.val, from, to)?, origin: None } };
            Rc::make_mut(&mut p.env)[j] = cell;
        }
        Ok(())
    }

    fn return_stmt(&mut self, value: Option<&Expr>, p: &mut Path, ctx: u32) -> R<()> {
        let ts = self.ts;
        let Some(x) = value else { return Ok(()) };
        let cell = self.cell(x, p, ctx)?;
        let f = ts.ctxs[ctx as usize].func;
        if let Some(rv) = ts.cfa.func(f).and_then(|fc| fc.ret_var) {
            let i = self.var(rv, ctx)?;
            let to = ts.vars[i].ty;
            let cell = if x.ty == to { cell } else { Cell { val: self.convert(cell.val, x.ty, to)?, origin: None } };
            Rc::make_mut(&mut p.env)[i] = cell;
        }
        Ok(())
    }

    /// `v` of type `from` converted to type `to`.
    fn convert(&mut self, v: Val, from: TypeId, to: TypeId) -> R<Val> {
        let types = &self.ts.prog.types;
        let floating = |t: TypeId| matches!(types.kind(t), TypeKind::Float(_));
        if (floating(from) && types.float_format(from).is_none()) || (floating(to) && types.float_format(to).is_none())
        {
            return unsupported(format!("a conversion from {} to {}", types.display(from), types.display(to)));
        }
        Ok(match (v, types.float_format(to)) {
            (Val::Float(x), Some(tf)) => {
                Val::Float(float_convert(types.float_format(from).expect("a floating value"), tf, x))
            }
            (Val::Int(i), Some(tf)) => Val::Float(int_to_float(i, self.repr(from)?, tf)),
            (Val::Float(x), None) => {
                let out = float_to_int(types.float_format(from).expect("a floating value"), x, self.repr(to)?);
                self.ub |= out.ub;
                Val::Int(out.val)
            }
            (Val::Int(i), None) => Val::Int(i.convert(self.repr(to)?)),
        })
    }

    /// The value of the scalar expression `e`; possible undefined behaviour sets `ub`.
    fn expr(&mut self, e: &Expr, p: &mut Path, ctx: u32) -> R<Val> {
        match &e.kind {
            ExprKind::IntConst(v) => {
                let r = self.repr(e.ty)?;
                Ok(Val::Int(IItv::point(from_pattern(*v as u128, r))))
            }
            ExprKind::SizeOf(v) | ExprKind::SizeOfExpr(v, _) => {
                let r = self.repr(e.ty)?;
                Ok(Val::Int(IItv::point(from_pattern(u128::from(*v), r))))
            }
            ExprKind::Var(v) => {
                let i = self.var(*v, ctx)?;
                if let Some(k) = p.env[i].origin {
                    p.drawn[k as usize].used = true;
                }
                Ok(p.env[i].val)
            }
            ExprKind::Unary(op, x) => {
                let v = self.expr(x, p, ctx)?;
                match (v, op) {
                    (_, UnOp::LogNot) => Ok(Val::Int(truth(v).not().int())),
                    (Val::Float(f), UnOp::Neg) => Ok(Val::Float(f.neg())),
                    (Val::Float(_), _) => Ok(v),
                    (Val::Int(i), _) => {
                        let r = self.repr(x.ty)?;
                        let res = match op {
                            UnOp::Neg => IItv::wrap(i.hi.checked_neg(), i.lo.checked_neg(), r),
                            UnOp::BitNot if r.signed => IItv::wrap(Some(-i.hi - 1), Some(-i.lo - 1), r),
                            UnOp::BitNot => {
                                let max = type_range(r).hi;
                                IItv { lo: max - i.hi, hi: max - i.lo }
                            }
                            _ => i,
                        };
                        Ok(Val::Int(res.convert(self.repr(e.ty)?)))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b, p, ctx),
            ExprKind::Cast(x, _) => {
                let v = self.expr(x, p, ctx)?;
                if matches!(self.ts.prog.types.kind(e.ty), TypeKind::Void) {
                    return Ok(Val::Int(IItv::point(0)));
                }
                self.convert(v, x.ty, e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                let t = truth(self.expr(c, p, ctx)?);
                match t {
                    Tri::True => self.expr(a, p, ctx),
                    Tri::False => self.expr(b, p, ctx),
                    Tri::Maybe => {
                        let (va, vb) = (self.expr(a, p, ctx)?, self.expr(b, p, ctx)?);
                        match (va, vb) {
                            (Val::Int(x), Val::Int(y)) => Ok(Val::Int(x.join(y))),
                            (Val::Float(x), Val::Float(y)) => Ok(Val::Float(x.join(y))),
                            _ => unsupported("a conditional expression whose branches differ in type"),
                        }
                    }
                }
            }
            ExprKind::Comma(a, b) => {
                self.expr(a, p, ctx)?;
                self.expr(b, p, ctx)
            }
            ExprKind::FloatConst(lit) => match (lit.bits, self.ts.prog.types.float_format(e.ty)) {
                (Some(v), Some(f)) => Ok(Val::Float(FItv::point(f, v))),
                _ => unsupported(format!("{} values", self.ts.prog.types.display(e.ty))),
            },
            ExprKind::Unsupported(reason) => unsupported(reason.clone()),
            _ => unsupported("memory, pointers or side effects inside an expression"),
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr, p: &mut Path, ctx: u32) -> R<Val> {
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            let ta = truth(self.expr(a, p, ctx)?);
            let short = if op == BinOp::LogAnd { Tri::False } else { Tri::True };
            if ta == short {
                return Ok(Val::Int(short.int()));
            }
            let tb = truth(self.expr(b, p, ctx)?);
            let t = match (ta, tb) {
                (_, t) if t == short => short,
                (Tri::Maybe, _) | (_, Tri::Maybe) => Tri::Maybe,
                _ => short.not(),
            };
            return Ok(Val::Int(t.int()));
        }
        let va = self.expr(a, p, ctx)?;
        let vb = self.expr(b, p, ctx)?;
        match (va, vb) {
            (Val::Float(x), Val::Float(y)) => {
                let f = self.ts.prog.types.float_format(a.ty).expect("a floating operand");
                let arith = |o| Ok(Val::Float(float_arith(f, o, x, y)));
                match op {
                    BinOp::Add => arith(Arith::Add),
                    BinOp::Sub => arith(Arith::Sub),
                    BinOp::Mul => arith(Arith::Mul),
                    BinOp::Div => arith(Arith::Div),
                    _ if op.is_relational() => Ok(Val::Int(float_compare(op, x, y).int())),
                    _ => unsupported(format!("`{}` on floating operands", op.symbol())),
                }
            }
            (Val::Int(x), Val::Int(y)) => {
                if op.is_relational() {
                    return Ok(Val::Int(int_compare(op, x, y).int()));
                }
                let r = self.repr(a.ty)?;
                let out = int_binary(op, x, y, r);
                self.ub |= out.ub;
                let rr = self.repr(e.ty)?;
                Ok(Val::Int(if rr == r { out.val } else { out.val.convert(rr) }))
            }
            _ => unsupported("operands of different kinds"),
        }
    }

    /// Narrows path `p` by the condition `cond` having truth value `truth`: whether the path can
    /// go on.
    fn assume(&mut self, cond: &Expr, truth_wanted: bool, p: &mut Path) -> R<bool> {
        let ctx = self.ctx(p);
        let t = truth(self.expr(cond, p, ctx)?);
        let t = if truth_wanted { t } else { t.not() };
        match t {
            Tri::False => Ok(false),
            Tri::True => Ok(true),
            Tri::Maybe => self.narrow_cond(cond, truth_wanted, p),
        }
    }

    fn narrow_cond(&mut self, cond: &Expr, want: bool, p: &mut Path) -> R<bool> {
        let ctx = self.ctx(p);
        match &cond.kind {
            ExprKind::Unary(UnOp::LogNot, x) => self.assume(x, !want, p),
            ExprKind::Binary(BinOp::LogAnd, a, b) if want => Ok(self.assume(a, true, p)? && self.assume(b, true, p)?),
            ExprKind::Binary(BinOp::LogOr, a, b) if !want => Ok(self.assume(a, false, p)? && self.assume(b, false, p)?),
            ExprKind::Binary(op, a, b) if op.is_relational() => {
                let va = self.expr(a, p, ctx)?;
                let vb = self.expr(b, p, ctx)?;
                let (na, nb) = match (va, vb) {
                    (Val::Float(x), Val::Float(y)) => {
                        let f = self.ts.prog.types.float_format(a.ty).expect("a floating operand");
                        let n = if want { float_narrow } else { float_narrow_false };
                        (n(f, *op, x, y).map(Val::Float), n(f, swap(*op), y, x).map(Val::Float))
                    }
                    (Val::Int(x), Val::Int(y)) => {
                        let o = if want { *op } else { negate(*op) };
                        (int_narrow(o, x, y).map(Val::Int), int_narrow(swap(o), y, x).map(Val::Int))
                    }
                    _ => return Ok(true),
                };
                let (Some(na), Some(nb)) = (na, nb) else { return Ok(false) };
                Ok(self.narrow(a, na, p)? && self.narrow(b, nb, p)?)
            }
            _ => {
                // A scalar's truth: `!= 0`.
                let to = match self.expr(cond, p, ctx)? {
                    Val::Int(i) => {
                        int_narrow(if want { BinOp::Ne } else { BinOp::Eq }, i, IItv::point(0)).map(Val::Int)
                    }
                    Val::Float(x) => {
                        let zero = FItv { range: Some((0.0, 0.0)), nan: false };
                        let f = self.ts.prog.types.float_format(cond.ty).expect("a floating condition");
                        let n = if want {
                            float_narrow(f, BinOp::Ne, x, zero)
                        } else {
                            float_narrow(f, BinOp::Eq, x, zero)
                        };
                        n.map(Val::Float)
                    }
                };
                match to {
                    Some(to) => self.narrow(cond, to, p),
                    None => Ok(false),
                }
            }
        }
    }

    /// Narrows what `e` designates to the values `to`: a variable (and every copy of the same
    /// input), through conversions that keep values. Whether values are left.
    fn narrow(&mut self, e: &Expr, to: Val, p: &mut Path) -> R<bool> {
        let ctx = self.ctx(p);
        match &e.kind {
            ExprKind::Var(v) => {
                let i = self.var(*v, ctx)?;
                let cell = p.env[i];
                let Some(val) = meet(cell.val, to) else { return Ok(false) };
                Rc::make_mut(&mut p.env)[i].val = val;
                if let Some(k) = cell.origin {
                    let slot = &mut p.drawn[k as usize];
                    let Some(sv) = meet(slot.val, val) else { return Ok(false) };
                    slot.val = sv;
                    let env = Rc::make_mut(&mut p.env);
                    for c in env.iter_mut().filter(|c| c.origin == Some(k)) {
                        match meet(c.val, sv) {
                            Some(v) => c.val = v,
                            None => return Ok(false),
                        }
                    }
                }
                Ok(true)
            }
            ExprKind::Cast(x, _) => {
                let types = &self.ts.prog.types;
                let (from, into) = (types.float_format(x.ty), types.float_format(e.ty));
                match (from, into, to) {
                    (Some(Format::Single), Some(Format::Double), Val::Float(y)) => {
                        match float_preimage(Format::Double, Format::Single, y) {
                            Some(pre) => self.narrow(x, Val::Float(pre), p),
                            None => Ok(false),
                        }
                    }
                    (None, Some(f), Val::Float(y)) if !matches!(types.kind(x.ty), TypeKind::Float(_)) => {
                        let Val::Int(vx) = self.expr(x, p, ctx)? else { return Ok(true) };
                        match int_preimage(vx, f, y) {
                            Some(Some(pre)) => self.narrow(x, Val::Int(pre), p),
                            Some(None) => Ok(false),
                            None => Ok(true),
                        }
                    }
                    (None, None, Val::Int(y)) => {
                        let Ok(re) = self.repr(e.ty) else { return Ok(true) };
                        let Val::Int(vx) = self.expr(x, p, ctx)? else { return Ok(true) };
                        // Only where the conversion keeps every value of `x`.
                        if !re.is_bool && type_range(re).meet(vx) == Some(vx) {
                            self.narrow(x, Val::Int(y), p)
                        } else {
                            Ok(true)
                        }
                    }
                    _ => Ok(true),
                }
            }
            _ => Ok(true),
        }
    }
}

/// The values in both, if any (of one kind).
fn meet(a: Val, b: Val) -> Option<Val> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => x.meet(y).map(Val::Int),
        (Val::Float(x), Val::Float(y)) => x.meet(y).map(Val::Float),
        _ => Some(a),
    }
}

/// C's truth value of a scalar.
fn truth(v: Val) -> Tri {
    match v {
        Val::Int(i) => i.truth(),
        Val::Float(f) => f.truth(),
    }
}

/// `sqrt` on an interval: a NaN for the negative values.
fn sqrt(f: Format, v: FItv) -> FItv {
    match v.range {
        None => v,
        Some((_, h)) if h < 0.0 => FItv { range: None, nan: true },
        Some((l, h)) => {
            let pos = FItv { range: Some((l.max(0.0), h)), nan: v.nan || l < 0.0 };
            pos.monotone(f, |b| fp::sqrt(f, RM, b))
        }
    }
}
