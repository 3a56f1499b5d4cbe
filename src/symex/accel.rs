//! Loop acceleration: the iterations of a loop that take one path again and again, each adding
//! the same constants to the variables, jumped over in one step.
//!
//! At a loop head, with the values of the variables there, `jump` walks one iteration: it follows
//! the edges the values choose, computing each value as a linear form over the head's variables
//! (`Lin`), until it is back at the head. It gives up on anything outside that class: memory other
//! than named integer variables, calls without body, operators other than `+`, `-`, `*` by a
//! constant and comparisons, a walk longer than `MAX_WALK` edges (an inner loop whose trip count
//! does not depend on the outer one is walked through, unrolled). When every variable the iteration
//! writes ends as itself plus a constant (`x += 2`, through calls: `x = f(x)` with `f` returning
//! `z + 2`), or as the value it already has (`y = 0; while (y < 10) y++;` leaves `y` at 10), the
//! values in iteration `i` are `v + δ·i`; every intermediate value and every branch condition of
//! the path is then linear in `i`, so it is monotone, and the iterations that take exactly this path
//! with exactly this arithmetic are a prefix `0..n`: the branch conditions hold, and no value leaves
//! its type (no unsigned wrap-around, no signed overflow; the iteration that wraps is left to run
//! as usual). `n` comes from each constraint in closed form; the jump sets the variables to
//! `v + δ·n` and leaves the loop head to the ordinary step, which takes the next iteration (another
//! path: the loop's exit, a second phase) as always.
//!
//! The walk uses no semantics of its own beyond integer arithmetic without wrap-around, the branch
//! the interpreter's order of out edges takes (the first assumption that holds), and the calling
//! convention (arguments into parameters, the returned value into the call's variable); the values
//! at the head come from the run through `HeadValues`.
//!
//! Invariant: a jump stands for exactly the iterations the step-by-step run takes: the same edges,
//! the same values after them (checked by `src/symex/tests.rs`, which runs random loops with and
//! without acceleration, and `tests/it/verify.rs`, which replays accelerated counterexamples with
//! gcc).

use rustc_hash::{FxHashMap, FxHashSet};

use super::exec::World;
use crate::cfa::{CallSiteId, Cfa, EdgeId, EdgeKind, GlobalKind, NodeId, NodeKind};
use crate::cfront::ir::{BinOp, Expr, ExprKind, Init, Program, UnOp, VarId, VarKind};
use crate::cfront::types::IntRank;
use crate::cfront::types::TypeId;

/// The longest iteration walked, in edges.
const MAX_WALK: usize = 4096;

/// The values of the variables at the loop head.
pub(super) trait HeadValues {
    /// The value of the integer variable `v` in the head's frame (or a global), as a number of its
    /// type; `None` when it has no value the walk may use (not allocated, not initialized).
    fn int(&mut self, v: VarId) -> Option<i128>;
}

/// Iterations to jump over: `times` iterations of `body`, after which the variables the loop carries
/// hold the values of `after` and its temporaries (declared in the body) those of `temporaries`;
/// `allocs` are the variables one iteration allocates (its temporaries, the parameters and locals
/// of the functions it calls), in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Jump {
    pub body: Vec<EdgeId>,
    pub times: u64,
    pub after: Vec<(VarId, i128)>,
    pub temporaries: Vec<(VarId, i128)>,
    pub allocs: Vec<VarId>,
}

/// A linear form `c + Σ a·v` over the head's variables (terms sorted, coefficients not zero).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lin {
    c: i128,
    terms: Vec<(VarId, i128)>,
}

impl Lin {
    fn constant(c: i128) -> Lin {
        Lin { c, terms: Vec::new() }
    }

    fn var(v: VarId) -> Lin {
        Lin { c: 0, terms: vec![(v, 1)] }
    }

    /// `self + k·other`, or `None` on overflow of the coefficients.
    fn add_scaled(&self, other: &Lin, k: i128) -> Option<Lin> {
        let mut terms: FxHashMap<VarId, i128> = self.terms.iter().copied().collect();
        for &(v, a) in &other.terms {
            let t = terms.entry(v).or_insert(0);
            *t = t.checked_add(a.checked_mul(k)?)?;
        }
        let mut terms: Vec<(VarId, i128)> = terms.into_iter().filter(|&(_, a)| a != 0).collect();
        terms.sort_unstable();
        Some(Lin { c: self.c.checked_add(other.c.checked_mul(k)?)?, terms })
    }

    fn scale(&self, k: i128) -> Option<Lin> {
        Lin::constant(0).add_scaled(self, k)
    }

    fn as_constant(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.c)
    }

    fn coef(&self, v: VarId) -> i128 {
        self.terms.iter().find(|&&(u, _)| u == v).map_or(0, |&(_, a)| a)
    }
}

/// A relation of a form to 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Rel {
    fn negate(self) -> Rel {
        match self {
            Rel::Lt => Rel::Ge,
            Rel::Le => Rel::Gt,
            Rel::Gt => Rel::Le,
            Rel::Ge => Rel::Lt,
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
        }
    }

    fn holds(self, d: i128) -> bool {
        match self {
            Rel::Lt => d < 0,
            Rel::Le => d <= 0,
            Rel::Gt => d > 0,
            Rel::Ge => d >= 0,
            Rel::Eq => d == 0,
            Rel::Ne => d != 0,
        }
    }

    /// The first `i ≥ 0` at which `b + a·i rel 0` fails, given that it holds at 0 (`None`: never).
    fn first_failure(self, b: i128, a: i128) -> Option<i128> {
        if a == 0 {
            return None;
        }
        // Normalize to an increasing form: `b + a·i` with `a > 0`.
        let (rel, b, a) = if a > 0 { (self, b, a) } else { (self.mirror(), -b, -a) };
        match rel {
            // Holds while `b + a·i < 0`: fails from `ceil(-b / a)`.
            Rel::Lt => Some(ceil_div(-b, a)),
            Rel::Le => Some((-b).div_euclid(a) + 1),
            Rel::Gt | Rel::Ge => None,
            Rel::Eq => Some(1),
            Rel::Ne => ((-b) % a == 0 && -b > 0).then(|| -b / a),
        }
    }

    /// The relation of the negated form: `d rel 0` iff `-d rel.mirror() 0`.
    fn mirror(self) -> Rel {
        match self {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            other => other,
        }
    }
}

fn ceil_div(n: i128, d: i128) -> i128 {
    -((-n).div_euclid(d))
}

/// Where a variable lives during the walk: the frame depth (0: the head's), or globals.
type Key = (u32, VarId);

const GLOBAL: u32 = u32::MAX;

struct Walk<'a, 'v> {
    prog: &'a Program,
    cfa: &'a Cfa,
    w: &'a World<'a>,
    values: &'v mut dyn HeadValues,
    /// The values at the head, read once each.
    head: FxHashMap<VarId, i128>,
    /// What the iteration assigned so far (`None`: declared without a value).
    env: FxHashMap<Key, Option<Lin>>,
    /// The call sites of the frames the walk entered.
    calls: Vec<CallSiteId>,
    /// Forms that must stay within `[lo, hi]`.
    ranges: Vec<(Lin, i128, i128)>,
    /// Branch conditions that must hold.
    guards: Vec<(Lin, Rel)>,
    body: Vec<EdgeId>,
    allocs: Vec<VarId>,
    /// Variables of the head's frame the iteration declares, and those it reads at their value at
    /// the head: one declared before it is read is the iteration's own (a temporary).
    declared: FxHashSet<VarId>,
    read_at_head: FxHashSet<VarId>,
}

/// The iterations of the loop at `head` that can be jumped over from the values `values` gives,
/// in the frame entered by `call_site`; `None` when the next iteration is not in the class above or
/// fewer than two iterations would be jumped.
pub(super) fn jump(
    w: &World<'_>,
    head: NodeId,
    call_site: Option<CallSiteId>,
    values: &mut dyn HeadValues,
) -> Option<Jump> {
    let mut walk = Walk {
        prog: w.prog,
        cfa: w.cfa,
        w,
        values,
        head: FxHashMap::default(),
        env: FxHashMap::default(),
        calls: Vec::new(),
        ranges: Vec::new(),
        guards: Vec::new(),
        body: Vec::new(),
        allocs: Vec::new(),
        declared: FxHashSet::default(),
        read_at_head: FxHashSet::default(),
    };
    walk.iteration(head, call_site)?;
    walk.solve()
}

impl Walk<'_, '_> {
    fn depth(&self) -> u32 {
        self.calls.len() as u32
    }

    fn key(&self, v: VarId) -> Key {
        match self.prog.var(v).kind {
            VarKind::Global | VarKind::StaticLocal(_) => (GLOBAL, v),
            VarKind::Local(_) | VarKind::Param(..) => (self.depth(), v),
        }
    }

    /// The range of an integer type the walk computes in (`_Bool` excluded: its conversion is not
    /// arithmetic).
    fn range(&self, ty: TypeId) -> Option<(i128, i128)> {
        let it = self.prog.types.as_int(ty)?;
        if it.rank == IntRank::Bool {
            return None;
        }
        let bits = it.bits(self.prog.types.data_model());
        Some(if it.signed {
            (crate::base::bits::min_signed(bits), crate::base::bits::max_signed(bits))
        } else {
            (0, crate::base::bits::mask(bits) as i128)
        })
    }

    fn head_value(&mut self, v: VarId) -> Option<i128> {
        if let Some(&x) = self.head.get(&v) {
            return Some(x);
        }
        let x = self.values.int(v)?;
        self.head.insert(v, x);
        Some(x)
    }

    /// The form's value at the head.
    fn at_head(&mut self, l: &Lin) -> Option<i128> {
        let mut s = l.c;
        for &(v, a) in &l.terms {
            s = s.checked_add(a.checked_mul(self.head_value(v)?)?)?;
        }
        Some(s)
    }

    fn read(&mut self, v: VarId) -> Option<Lin> {
        self.range(self.prog.var(v).ty)?;
        let key = self.key(v);
        if let Some(l) = self.env.get(&key) {
            return l.clone();
        }
        if key.0 != GLOBAL && key.0 != 0 {
            return None;
        }
        self.head_value(v)?;
        self.read_at_head.insert(v);
        Some(Lin::var(v))
    }

    fn assign(&mut self, v: VarId, l: Lin) -> Option<()> {
        let (lo, hi) = self.range(self.prog.var(v).ty)?;
        self.ranges.push((l.clone(), lo, hi));
        let key = self.key(v);
        self.env.insert(key, Some(l));
        Some(())
    }

    /// The form of an integer expression, each result kept within its type.
    fn value(&mut self, e: &Expr) -> Option<Lin> {
        let (lo, hi) = self.range(e.ty)?;
        let l = match &e.kind {
            ExprKind::IntConst(c) => return Some(Lin::constant(*c)),
            ExprKind::Var(v) => return self.read(*v),
            ExprKind::Cast(inner, _) => self.value(inner)?,
            ExprKind::Unary(UnOp::Plus, a) => return self.value(a),
            ExprKind::Unary(UnOp::Neg, a) => self.value(a)?.scale(-1)?,
            ExprKind::Binary(BinOp::Add, a, b) => self.value(a)?.add_scaled(&self.value(b)?, 1)?,
            ExprKind::Binary(BinOp::Sub, a, b) => self.value(a)?.add_scaled(&self.value(b)?, -1)?,
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let (x, y) = (self.value(a)?, self.value(b)?);
                match (x.as_constant(), y.as_constant()) {
                    (Some(k), _) => y.scale(k)?,
                    (_, Some(k)) => x.scale(k)?,
                    _ => return None,
                }
            }
            _ => return None,
        };
        self.ranges.push((l.clone(), lo, hi));
        Some(l)
    }

    /// A branch condition as `form rel 0`.
    fn condition(&mut self, e: &Expr) -> Option<(Lin, Rel)> {
        let rel = match &e.kind {
            ExprKind::Unary(UnOp::LogNot, a) => return self.condition(a).map(|(l, r)| (l, r.negate())),
            ExprKind::Binary(op, a, b) => match op {
                BinOp::Lt => Some((Rel::Lt, a, b)),
                BinOp::Le => Some((Rel::Le, a, b)),
                BinOp::Gt => Some((Rel::Gt, a, b)),
                BinOp::Ge => Some((Rel::Ge, a, b)),
                BinOp::Eq => Some((Rel::Eq, a, b)),
                BinOp::Ne => Some((Rel::Ne, a, b)),
                _ => None,
            },
            _ => None,
        };
        match rel {
            Some((rel, a, b)) => Some((self.value(a)?.add_scaled(&self.value(b)?, -1)?, rel)),
            None => Some((self.value(e)?, Rel::Ne)),
        }
    }

    /// Walks from `head` back to it, choosing each branch by the head's values.
    fn iteration(&mut self, head: NodeId, call_site: Option<CallSiteId>) -> Option<()> {
        let cfa = self.cfa;
        let mut node = head;
        loop {
            let n = cfa.node(node);
            if n.kind == NodeKind::Termination || n.label.as_deref().is_some_and(|l| self.w.is_error_label(l)) {
                return None;
            }
            let site = self.calls.last().copied().or(call_site);
            let out = cfa.frame_out_edges(node, site);
            let e = match out.as_slice() {
                [e] if !matches!(cfa.edge(*e).kind, EdgeKind::Assume { .. }) => *e,
                _ => self.branch(&out)?,
            };
            if self.body.len() >= MAX_WALK || cfa.is_library_edge(e) || cfa.library_call(e).is_some() {
                return None;
            }
            self.body.push(e);
            self.step(e)?;
            node = cfa.edge(e).dst;
            if node == head && self.calls.is_empty() {
                return Some(());
            }
        }
    }

    /// The first out edge whose assumption holds at the head's values; the assumptions before it
    /// fail on every iteration jumped over, and its own holds.
    fn branch(&mut self, out: &[EdgeId]) -> Option<EdgeId> {
        for &e in out {
            let EdgeKind::Assume { cond, truth } = &self.cfa.edge(e).kind else { return None };
            let (l, rel) = self.condition(cond)?;
            let rel = if *truth { rel } else { rel.negate() };
            let holds = rel.holds(self.at_head(&l)?);
            self.guards.push((l, if holds { rel } else { rel.negate() }));
            if holds {
                return Some(e);
            }
        }
        None
    }

    fn step(&mut self, e: EdgeId) -> Option<()> {
        let cfa = self.cfa;
        match &cfa.edge(e).kind {
            EdgeKind::Blank(_) | EdgeKind::TypeDecl | EdgeKind::Summary(_) => {}
            EdgeKind::Global(GlobalKind::Type | GlobalKind::Function(_)) => {}
            EdgeKind::Assume { .. } => {}
            EdgeKind::Assign { lhs, rhs } => {
                let ExprKind::Var(v) = lhs.kind else { return None };
                let l = self.value(rhs)?;
                self.assign(v, l)?;
            }
            EdgeKind::Decl { var, init } => {
                // A local of the loop's own function declared in the body (CPAchecker's temporary of
                // `y++`) is renewed on every pass: it must get a value there.
                if self.calls.is_empty() {
                    if !matches!(init, Some(Init::Expr(_))) {
                        return None;
                    }
                    self.declared.insert(*var);
                }
                self.allocs.push(*var);
                match init {
                    None => {
                        let key = self.key(*var);
                        self.env.insert(key, None);
                    }
                    Some(Init::Expr(x)) => {
                        let l = self.value(x)?;
                        self.assign(*var, l)?;
                    }
                    Some(Init::List(_)) => return None,
                }
            }
            EdgeKind::Call(cs) => {
                let site = cfa.call_site(*cs);
                if self.w.is_violation_call(site.callee) || site.incompatible_argument(self.prog).is_some() {
                    return None;
                }
                let args: Vec<Lin> = site.args.iter().map(|a| self.value(a)).collect::<Option<_>>()?;
                self.calls.push(*cs);
                let params = &self.prog.func(site.callee).params;
                if params.len() != args.len() {
                    return None;
                }
                for (&p, l) in params.iter().zip(args) {
                    self.allocs.push(p);
                    self.assign(p, l)?;
                }
                if let Some(rv) = cfa.func(site.callee).and_then(|f| f.ret_var) {
                    self.allocs.push(rv);
                    let key = self.key(rv);
                    self.env.insert(key, None);
                }
            }
            EdgeKind::ReturnStmt(value) => {
                if let Some(x) = value {
                    let f = cfa.node(cfa.edge(e).src).func;
                    let rv = cfa.func(f).and_then(|fc| fc.ret_var)?;
                    let l = self.value(x)?;
                    self.assign(rv, l)?;
                }
            }
            EdgeKind::Return(cs) => {
                let site = cfa.call_site(*cs);
                let result = match &site.lhs {
                    Some(_) => {
                        let rv = cfa.func(site.callee).and_then(|f| f.ret_var)?;
                        Some(self.read(rv)?)
                    }
                    None => None,
                };
                let depth = self.depth();
                self.env.retain(|k, _| k.0 == GLOBAL || k.0 < depth);
                self.calls.pop()?;
                if let (Some(l), Some(lhs)) = (result, &site.lhs) {
                    let ExprKind::Var(v) = lhs.kind else { return None };
                    self.assign(v, l)?;
                }
            }
            // An expression statement without effect (the rest of CPAchecker's `y++`).
            EdgeKind::Eval(x) => {
                self.value(x)?;
            }
            EdgeKind::ExternCall { .. } | EdgeKind::Global(GlobalKind::Var { .. }) => return None,
        }
        Some(())
    }

    /// The constant each head variable changes by per iteration, and the number of iterations.
    fn solve(mut self) -> Option<Jump> {
        let mut written: Vec<(VarId, Lin)> = self
            .env
            .iter()
            .filter(|(k, _)| k.0 == 0 || k.0 == GLOBAL)
            .map(|(k, l)| Some((k.1, l.clone()?)))
            .collect::<Option<_>>()?;
        written.sort_unstable_by_key(|(v, _)| *v);
        // The iteration's own temporaries change with it but carry nothing into the next one: they
        // get the value of the last iteration.
        let (temporaries, written): (Vec<_>, Vec<_>) =
            written.into_iter().partition(|(v, _)| self.declared.contains(v) && !self.read_at_head.contains(v));
        let mut delta: FxHashMap<VarId, i128> = FxHashMap::default();
        let is_written = |v: VarId| written.iter().any(|(u, _)| *u == v);
        // A variable's change is known once every other variable its new value reads changes by 0.
        loop {
            let mut progress = false;
            for (v, f) in &written {
                if delta.contains_key(v) {
                    continue;
                }
                let others_fixed = f.terms.iter().all(|&(u, _)| u == *v || !is_written(u) || delta.get(&u) == Some(&0));
                if !others_fixed {
                    continue;
                }
                let rest = f.add_scaled(&Lin::var(*v), -f.coef(*v))?;
                let moved = self.at_head(&rest)?;
                let d = match f.coef(*v) {
                    1 => moved,
                    0 if moved == self.head_value(*v)? => 0,
                    _ => return None,
                };
                delta.insert(*v, d);
                progress = true;
            }
            if !progress {
                break;
            }
        }
        if delta.len() != written.len() || delta.values().all(|&d| d == 0) {
            return None;
        }
        // Each constraint, linear in the iteration `i`, holds on a prefix of the iterations.
        let mut times: Option<i128> = None;
        let mut bound = |first: Option<i128>| {
            if let Some(f) = first {
                times = Some(times.map_or(f, |t: i128| t.min(f)));
            }
        };
        let slope = |l: &Lin| -> Option<i128> {
            l.terms.iter().try_fold(0i128, |s, &(u, a)| s.checked_add(a.checked_mul(*delta.get(&u).unwrap_or(&0))?))
        };
        let mut rows: Vec<(i128, i128, Rel)> = Vec::new();
        for (l, lo, hi) in std::mem::take(&mut self.ranges) {
            let b = self.at_head(&l)?;
            let a = slope(&l)?;
            rows.push((b.checked_sub(hi)?, a, Rel::Le));
            rows.push((b.checked_sub(lo)?, a, Rel::Ge));
        }
        for (l, rel) in std::mem::take(&mut self.guards) {
            rows.push((self.at_head(&l)?, slope(&l)?, rel));
        }
        for (b, a, rel) in rows {
            if !rel.holds(b) {
                return None;
            }
            bound(rel.first_failure(b, a));
        }
        let times = times?;
        if times < 2 {
            return None;
        }
        let times = u64::try_from(times).ok()?;
        let mut after: Vec<(VarId, i128)> = Vec::new();
        for (v, _) in &written {
            let d = delta[v];
            if d != 0 {
                let x = self.head_value(*v)?.checked_add(d.checked_mul(i128::from(times))?)?;
                after.push((*v, x));
            }
        }
        let mut last_values = Vec::new();
        for (v, f) in &temporaries {
            let last = self.at_head(f)?.checked_add(slope(f)?.checked_mul(i128::from(times) - 1)?)?;
            last_values.push((*v, last));
        }
        after.sort_unstable();
        Some(Jump { body: self.body, times, after, temporaries: last_values, allocs: self.allocs })
    }
}

#[cfg(test)]
mod tests;
