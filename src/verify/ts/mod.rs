//! The program as a transition system between cut points, for BMC and k-induction (`verify::kind`).
//!
//! Calls are inlined (a context per chain of call sites, so recursion is unsupported), giving one
//! graph of *inlined nodes* (CFA node, context). Its *cut points* are the program's entry and the
//! targets of the back edges of a depth-first search from it (every loop head, whatever `goto`s made
//! of the loops), so the graph without the edges into cut points is acyclic. A *state* is a cut
//! point (`pc`, a bit-vector numbering the cut points) and the value of every *state variable*: each
//! integer or floating (`float`, `double`: its IEEE bit pattern) variable of the program, a local
//! once per context. One *step* runs from the state's cut
//! point through loop-free code to the next cut point; `Ts::encode_step` builds it as a circuit
//! (merging the values of joining paths with if-then-else, large-block encoding), with its
//! outputs: the next state, whether the step reaches a cut point at all (`cont`; paths that end,
//! halt or are blocked by an assumption have no next state), whether it reaches a violation
//! (`err`) or possible undefined behaviour (`ub`).
//!
//! The semantics is the symbolic executor's (`symex::exec`, `symex::semantics`, `libmodels`),
//! restricted to what needs no memory model: integer and floating variables whose address the
//! reachable code never takes, integer and IEEE arithmetic, comparisons and conversions (the same
//! functions of `symex::semantics`), the `math.h` models the executor computes on circuits
//! (`symex::math`, through `MathHost`), assumptions, calls of functions with body,
//! `__VERIFIER_nondet_*` and other functions without body that take no argument (their result is an
//! input: any bit pattern for a floating one, NaNs included), output functions whose result is
//! unused, `abort`/`exit`, and the violations. Anything else on a reachable edge makes the program
//! unsupported (`Unsupported`, with the construct), so a verdict from this model is never drawn for
//! a program it does not describe: `long double`, and `fesetround` (every operation rounds to
//! nearest, ties to even, the executor's initial mode, so `fegetround` is a constant).
//! Undefined behaviour is the executor's: a step goes on only where no operation is undefined, and
//! `ub` says where one may be (the executor cuts such paths, so no TRUE may be drawn then): a
//! division by zero, a shift out of range, a floating value converted to an integer type that
//! cannot hold it (`UbKind::FloatToInt`), and where the executor narrows a path (an `lround` out of
//! range), the rest of which it cuts.
//! A floating state variable's value is a bit pattern: the invariant engines (`verify::kind`,
//! `verify::poly`) relate integer state variables only (`StateVar::is_integer`).
//!
//! This file is the transition system (`Ts`): its types, the inlining of the program, its cut points
//! and state variables. `encode` translates the CFA edges of a step into its circuit.
//!
//! Invariant: the encoding of a step depends only on the transition system and the literals it is
//! given (no hash-map order), so the same program gives the same circuits.
//! Invariant: `encode_step` creates a fresh input for every nondeterministic value it needs and
//! lists it in `Step::inputs`, in creation order.

mod encode;

use std::collections::BTreeMap;

use crate::base::fp::Format;
use crate::cfa::{CallSiteId, Cfa, EdgeId, EdgeKind, GlobalKind, NodeId, NodeKind};
use crate::cfront::ir::{Expr, ExprKind, FuncId, Init, Program, VarId, VarKind};
use crate::cfront::types::TypeId;
use crate::sat::{Aig, AigLit, Bv};
use crate::symex::semantics::{self, Repr};
use crate::symex::{Property, World};

/// The most inlined nodes a transition system may have.
const MAX_NODES: usize = 200_000;
/// The most state variables.
const MAX_VARS: usize = 20_000;

/// Why a program has no transition system: the construct, for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// A location of the inlined program: a CFA node in a context (a chain of call sites).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct INode {
    /// The CFA node.
    pub cfa: NodeId,
    /// The context (`Ts::ctxs`).
    pub ctx: u32,
}

/// Where an inlined edge leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// An inlined node.
    Node(u32),
    /// A violation of the property (the edge calls a violating function or enters an error label).
    Error,
    /// The execution ends: `main` returns, `abort` or `exit` is called, or a location that ends
    /// paths is entered.
    End,
}

/// An edge of the inlined program.
#[derive(Clone, Copy, Debug)]
pub struct IEdge {
    /// The inlined node it leaves.
    pub src: u32,
    /// The CFA edge.
    pub edge: EdgeId,
    /// Where it leads.
    pub dst: Target,
}

/// A context: the frame of a function called from a chain of call sites.
#[derive(Clone, Copy, Debug)]
pub struct CtxInfo {
    /// The caller's context (`None` for `main`'s).
    pub parent: Option<u32>,
    /// The call site that entered it.
    pub call_site: Option<CallSiteId>,
    /// The function.
    pub func: FuncId,
}

/// A state variable: an integer or floating variable of the program (a local in one context).
#[derive(Clone, Copy, Debug)]
pub struct StateVar {
    /// The variable.
    pub var: VarId,
    /// Its context (`None` for globals and static locals).
    pub ctx: Option<u32>,
    /// Its representation: for a floating variable, its width (`signed` false), which is all of
    /// it an integer view may use.
    pub repr: Repr,
    /// Its type.
    pub ty: TypeId,
    /// The IEEE format of a floating variable (`float`, `double`), whose value is its bit pattern:
    /// no integer relation over it means anything, so the invariant engines leave it out
    /// (`StateVar::is_integer`).
    pub float: Option<Format>,
}

/// What a nondeterministic input of a step stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// The result of a function without body, of an integer or floating type (its bit pattern).
    Call {
        /// The function.
        func: FuncId,
        /// The type of its result.
        ty: TypeId,
    },
    /// The value of a variable never written (a declaration without initializer).
    Uninit,
    /// Which of several branches whose conditions may overlap a path takes.
    Choice,
}

/// One nondeterministic input of a step.
#[derive(Clone, Debug)]
pub struct StepInput {
    /// Its bits.
    pub bv: Bv,
    /// What it stands for.
    pub kind: InputKind,
    /// The inlined edge that creates it.
    pub edge: Option<u32>,
}

/// The circuit of one step.
#[derive(Clone, Debug)]
pub struct Step {
    /// The next cut point (meaningful where `cont`).
    pub next_pc: Bv,
    /// The next values of the state variables (meaningful where `cont`).
    pub next: Vec<Bv>,
    /// The step reaches a cut point.
    pub cont: AigLit,
    /// The step reaches a violation.
    pub err: AigLit,
    /// An operation of the step may be undefined.
    pub ub: AigLit,
    /// For every inlined edge the step may take, when it takes it (and gets past it).
    pub taken: Vec<(u32, AigLit)>,
    /// The step's nondeterministic inputs, in creation order.
    pub inputs: Vec<StepInput>,
}

/// The transition system of a program.
pub struct Ts<'a> {
    /// The program.
    pub prog: &'a Program,
    /// Its CFA.
    pub cfa: &'a Cfa,
    world: World<'a>,
    /// The inlined nodes.
    pub nodes: Vec<INode>,
    /// The inlined edges.
    pub edges: Vec<IEdge>,
    out: Vec<Vec<u32>>,
    /// The contexts; 0 is `main`'s.
    pub ctxs: Vec<CtxInfo>,
    /// The cut points (inlined nodes); the first is the entry.
    pub cuts: Vec<u32>,
    cut_index: Vec<u32>,
    /// The inlined nodes that are no cut points, in topological order.
    order: Vec<u32>,
    /// The state variables.
    pub vars: Vec<StateVar>,
    var_index: BTreeMap<(VarId, u32), u32>,
    /// The width of `pc`.
    pub pc_bits: u32,
    /// Per inlined condition edge, whether it is never taken (`block`).
    blocked: Vec<bool>,
}

/// The context key of a global variable in `var_index`.
const GLOBAL: u32 = u32::MAX;

type R<T> = Result<T, Unsupported>;

fn unsupported<T>(what: impl Into<String>) -> R<T> {
    Err(Unsupported(what.into()))
}

impl From<semantics::Unsupported> for Unsupported {
    fn from(u: semantics::Unsupported) -> Unsupported {
        Unsupported(u.0)
    }
}

impl StateVar {
    /// Whether the variable is an integer one, whose value the invariant engines may relate (not a
    /// floating one's bit pattern).
    pub fn is_integer(&self) -> bool {
        self.float.is_none()
    }
}

impl<'a> Ts<'a> {
    /// The transition system of `prog` for `property`, or why it has none.
    pub fn build(prog: &'a Program, cfa: &'a Cfa, property: Property) -> R<Ts<'a>> {
        let world = World::new(prog, cfa, property);
        let mut ts = Ts {
            prog,
            cfa,
            world,
            nodes: Vec::new(),
            edges: Vec::new(),
            out: Vec::new(),
            ctxs: vec![CtxInfo { parent: None, call_site: None, func: cfa.main }],
            cuts: Vec::new(),
            cut_index: Vec::new(),
            order: Vec::new(),
            vars: Vec::new(),
            var_index: BTreeMap::new(),
            pc_bits: 1,
            blocked: Vec::new(),
        };
        ts.inline()?;
        ts.find_cuts();
        ts.collect_vars()?;
        ts.pc_bits = (usize::BITS - (ts.cuts.len().max(2) - 1).leading_zeros()).max(1);
        Ok(ts)
    }

    /// Makes steps never take the inlined condition edges `edges`: for conditions shown false in
    /// every state the invariants the steps are taken from allow (`verify::poly::refuted`), so that
    /// only steps from such states may be encoded afterwards.
    pub fn block(&mut self, edges: &[u32]) {
        self.blocked.resize(self.edges.len(), false);
        for &ie in edges {
            self.blocked[ie as usize] = true;
        }
    }

    /// The symbolic executor's facts about the program.
    pub fn world(&self) -> &World<'a> {
        &self.world
    }

    /// Inlines every call from `main`'s entry on: the inlined nodes and edges.
    fn inline(&mut self) -> R<()> {
        let cfa = self.cfa;
        let mut index: BTreeMap<(NodeId, u32), u32> = BTreeMap::new();
        let mut child: BTreeMap<(u32, CallSiteId), u32> = BTreeMap::new();
        let entry = cfa.entry();
        index.insert((entry, 0), 0);
        self.nodes.push(INode { cfa: entry, ctx: 0 });
        self.out.push(Vec::new());
        let mut work = vec![0u32];
        let labels_violate = self.world.property.labels_violate();
        while let Some(i) = work.pop() {
            let INode { cfa: node, ctx } = self.nodes[i as usize];
            let n = cfa.node(node);
            let info = self.ctxs[ctx as usize];
            if n.kind == NodeKind::Termination {
                continue;
            }
            let at_exit = n.kind == NodeKind::Exit && cfa.func(info.func).is_some_and(|f| f.exit == node);
            if at_exit && info.parent.is_none() {
                continue;
            }
            let out = cfa.frame_out_edges(node, info.call_site);
            if out.len() > 1 && out.iter().any(|&e| !matches!(cfa.edge(e).kind, EdgeKind::Assume { .. })) {
                return unsupported("a location with several leaving edges that are not branches");
            }
            for e in out {
                let edge = cfa.edge(e);
                let (dst_node, dst_ctx) = match &edge.kind {
                    EdgeKind::Call(cs) => {
                        let site = cfa.call_site(*cs);
                        if self.world.is_violation_call(site.callee) {
                            self.push_edge(i, e, Target::Error);
                            continue;
                        }
                        // A recursive call: the callee is already on the chain.
                        let mut c = Some(ctx);
                        while let Some(k) = c {
                            if self.ctxs[k as usize].func == site.callee {
                                return unsupported(format!(
                                    "a recursive call of '{}'",
                                    self.prog.func(site.callee).name
                                ));
                            }
                            c = self.ctxs[k as usize].parent;
                        }
                        let Some(fc) = cfa.func(site.callee) else {
                            return unsupported("a call of a function without automaton");
                        };
                        let k = *child.entry((ctx, *cs)).or_insert_with(|| {
                            self.ctxs.push(CtxInfo { parent: Some(ctx), call_site: Some(*cs), func: site.callee });
                            (self.ctxs.len() - 1) as u32
                        });
                        (fc.entry, k)
                    }
                    EdgeKind::Return(_) => (edge.dst, info.parent.expect("a return edge leaves a callee")),
                    EdgeKind::ExternCall { callee, .. } => {
                        if self.calls_violation(callee) {
                            self.push_edge(i, e, Target::Error);
                            continue;
                        }
                        (edge.dst, ctx)
                    }
                    _ => (edge.dst, ctx),
                };
                let dst = cfa.node(dst_node);
                let target = if labels_violate && dst.label.as_deref().is_some_and(|l| self.world.is_error_label(l)) {
                    Target::Error
                } else if dst.kind == NodeKind::Termination {
                    Target::End
                } else {
                    let len = self.nodes.len();
                    let j = *index.entry((dst_node, dst_ctx)).or_insert(len as u32);
                    if j as usize == len {
                        if len >= MAX_NODES {
                            return unsupported(format!("more than {MAX_NODES} locations once calls are inlined"));
                        }
                        self.nodes.push(INode { cfa: dst_node, ctx: dst_ctx });
                        self.out.push(Vec::new());
                        work.push(j);
                    }
                    Target::Node(j)
                };
                self.push_edge(i, e, target);
            }
        }
        Ok(())
    }

    fn push_edge(&mut self, src: u32, edge: EdgeId, dst: Target) {
        self.out[src as usize].push(self.edges.len() as u32);
        self.edges.push(IEdge { src, edge, dst });
    }

    /// The cut points (the entry and the targets of back edges of a depth-first search) and the
    /// topological order of the other nodes.
    fn find_cuts(&mut self) {
        let n = self.nodes.len();
        // Iterative depth-first search: 0 unvisited, 1 on the stack, 2 done.
        let mut state = vec![0u8; n];
        let mut is_cut = vec![false; n];
        is_cut[0] = true;
        let mut post = Vec::with_capacity(n);
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        state[0] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            let outs = &self.out[v as usize];
            if *k < outs.len() {
                let e = self.edges[outs[*k] as usize];
                *k += 1;
                if let Target::Node(w) = e.dst {
                    match state[w as usize] {
                        0 => {
                            state[w as usize] = 1;
                            stack.push((w, 0));
                        }
                        1 => is_cut[w as usize] = true,
                        _ => {}
                    }
                }
            } else {
                state[v as usize] = 2;
                post.push(v);
                stack.pop();
            }
        }
        // Cut points in the order of their nodes (the entry first), the rest in reverse postorder
        // (a topological order once the edges into cut points are removed).
        self.cut_index = vec![u32::MAX; n];
        for (v, &c) in is_cut.iter().enumerate() {
            if c {
                self.cut_index[v] = self.cuts.len() as u32;
                self.cuts.push(v as u32);
            }
        }
        self.order = post.into_iter().rev().filter(|&v| !is_cut[v as usize]).collect();
    }

    /// The index of the cut point at inlined node `v`, if it is one.
    pub fn cut_of(&self, v: u32) -> Option<u32> {
        Some(self.cut_index[v as usize]).filter(|&c| c != u32::MAX)
    }

    /// Whether a call of `callee` (a function's name, or a pointer) violates the property.
    pub(crate) fn calls_violation(&self, callee: &Expr) -> bool {
        matches!(&callee.strip_implicit().kind, ExprKind::Func(f) if self.world.is_violation_call(*f))
    }

    /// The edges leaving inlined node `v`.
    pub fn out_edges(&self, v: u32) -> &[u32] {
        &self.out[v as usize]
    }

    /// Every integer variable an inlined edge names, in the context it names it in.
    fn collect_vars(&mut self) -> R<()> {
        let cfa = self.cfa;
        let mut found: Vec<(VarId, u32)> = Vec::new();
        for ie in &self.edges {
            let ctx = self.nodes[ie.src as usize].ctx;
            let edge = cfa.edge(ie.edge);
            let mut named = Vec::new();
            match &edge.kind {
                EdgeKind::Global(GlobalKind::Var { var, init }) | EdgeKind::Decl { var, init } => {
                    named.push(*var);
                    if let Some(init) = init {
                        init_vars(init, &mut named);
                    }
                }
                EdgeKind::Assign { lhs, rhs } => {
                    expr_vars(lhs, &mut named);
                    expr_vars(rhs, &mut named);
                }
                EdgeKind::Eval(x) | EdgeKind::ReturnStmt(Some(x)) | EdgeKind::Assume { cond: x, .. } => {
                    expr_vars(x, &mut named)
                }
                EdgeKind::ExternCall { lhs, args, .. } => {
                    for a in args.iter().chain(lhs) {
                        expr_vars(a, &mut named);
                    }
                }
                EdgeKind::Call(cs) => {
                    let site = cfa.call_site(*cs);
                    for a in &site.args {
                        expr_vars(a, &mut named);
                    }
                    if let Target::Node(d) = ie.dst {
                        let callee_ctx = self.nodes[d as usize].ctx;
                        let callee = self.prog.func(site.callee);
                        for &p in &callee.params {
                            found.push((p, callee_ctx));
                        }
                        if let Some(rv) = cfa.func(site.callee).and_then(|f| f.ret_var) {
                            found.push((rv, callee_ctx));
                        }
                    }
                }
                EdgeKind::Return(cs) => {
                    let site = cfa.call_site(*cs);
                    if let Some(rv) = cfa.func(site.callee).and_then(|f| f.ret_var) {
                        found.push((rv, ctx));
                    }
                    if let (Some(lhs), Target::Node(d)) = (&site.lhs, ie.dst) {
                        let caller_ctx = self.nodes[d as usize].ctx;
                        let mut l = Vec::new();
                        expr_vars(lhs, &mut l);
                        found.extend(l.into_iter().map(|v| (v, caller_ctx)));
                    }
                }
                EdgeKind::ReturnStmt(None)
                | EdgeKind::Blank(_)
                | EdgeKind::TypeDecl
                | EdgeKind::Global(_)
                | EdgeKind::Summary(_) => {}
            }
            if let EdgeKind::ReturnStmt(Some(_)) = &edge.kind {
                if let Some(rv) = cfa.func(self.ctxs[ctx as usize].func).and_then(|f| f.ret_var) {
                    found.push((rv, ctx));
                }
            }
            found.extend(named.into_iter().map(|v| (v, ctx)));
        }
        for (v, ctx) in found {
            let var = self.prog.var(v);
            let key_ctx = match var.kind {
                VarKind::Global | VarKind::StaticLocal(_) => GLOBAL,
                VarKind::Local(_) | VarKind::Param(..) => ctx,
            };
            if self.var_index.contains_key(&(v, key_ctx)) {
                continue;
            }
            // Only integer and floating variables are state; naming another kind in an expression
            // the encoder evaluates makes the program unsupported there.
            let float = self.prog.types.float_format(var.ty);
            let repr = match float {
                Some(f) => Repr { bits: f.bits(), signed: false, is_bool: false, is_ptr: false },
                None => match semantics::repr(&self.prog.types, var.ty) {
                    Ok(r) if !r.is_ptr => r,
                    _ => continue,
                },
            };
            if self.vars.len() >= MAX_VARS {
                return unsupported(format!("more than {MAX_VARS} variables once calls are inlined"));
            }
            self.var_index.insert((v, key_ctx), self.vars.len() as u32);
            self.vars.push(StateVar { var: v, ctx: (key_ctx != GLOBAL).then_some(key_ctx), repr, ty: var.ty, float });
        }
        Ok(())
    }

    /// The state variable of `v` named in context `ctx`, if `v` is one.
    pub fn var_of(&self, v: VarId, ctx: u32) -> Option<u32> {
        let key = match self.prog.var(v).kind {
            VarKind::Global | VarKind::StaticLocal(_) => GLOBAL,
            _ => ctx,
        };
        self.var_index.get(&(v, key)).copied()
    }

    /// Fresh inputs for a state: a cut point and values of every state variable.
    pub fn fresh_state(&self, aig: &mut Aig) -> (Bv, Vec<Bv>) {
        let pc = Bv::input(aig, self.pc_bits);
        let vars = self.vars.iter().map(|v| Bv::input(aig, v.repr.bits)).collect();
        (pc, vars)
    }

    /// The condition that `pc` names a cut point.
    pub fn pc_valid(&self, aig: &mut Aig, pc: &Bv) -> AigLit {
        let n = Bv::constant(self.cuts.len() as u128, self.pc_bits + 1);
        pc.zext(self.pc_bits + 1).ult(aig, &n)
    }

    /// The constant `pc` of cut point `c`.
    pub fn pc_const(&self, c: u32) -> Bv {
        Bv::constant(c as u128, self.pc_bits)
    }
}

/// The variables `e` names.
fn expr_vars(e: &Expr, out: &mut Vec<VarId>) {
    match &e.kind {
        ExprKind::Var(v) => out.push(*v),
        _ => e.for_each_child(|a| expr_vars(a, out)),
    }
}

fn init_vars(init: &Init, out: &mut Vec<VarId>) {
    match init {
        Init::Expr(e) => expr_vars(e, out),
        Init::List(leaves) => leaves.iter().for_each(|l| expr_vars(&l.value, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfa::CfaConfig;
    use crate::cfront::types::DataModel;

    fn program(src: &str) -> (Program, Cfa) {
        let file = crate::base::SourceFile::new("t.c", src.to_string());
        let (mut prog, _) = crate::cfront::parse_program(file, DataModel::Ilp32).expect("parses");
        let (cfa, _) = crate::cfa::build(&mut prog, &CfaConfig::default()).expect("builds");
        (prog, cfa)
    }

    /// Runs the transition system from its initial state with the nondeterministic inputs all
    /// zero, for at most `steps` steps: the cut points visited and how the run ended.
    fn run(src: &str, steps: usize) -> (Vec<u32>, &'static str) {
        let (prog, cfa) = program(src);
        let ts = Ts::build(&prog, &cfa, Property::UnreachCall).expect("supported");
        let mut aig = Aig::default();
        let (pc, vars) = ts.fresh_state(&mut aig);
        let step = ts.encode_step(&mut aig, &pc, &vars).expect("encodes");
        let mut state: Vec<u128> = vec![0; vars.len()];
        let mut at = 0u128;
        let mut visited = vec![0];
        for _ in 0..steps {
            let mut values: BTreeMap<usize, bool> = BTreeMap::new();
            for (bit, &l) in pc.bits().iter().enumerate() {
                values.insert(aig.input_of(l).unwrap().idx(), (at >> bit) & 1 == 1);
            }
            for (v, bv) in vars.iter().enumerate() {
                for (bit, &l) in bv.bits().iter().enumerate() {
                    values.insert(aig.input_of(l).unwrap().idx(), (state[v] >> bit) & 1 == 1);
                }
            }
            let val = |i: crate::sat::AigInput| values.get(&i.idx()).copied().unwrap_or(false);
            if aig.eval(step.err, &val) {
                return (visited, "error");
            }
            if aig.eval(step.ub, &val) {
                return (visited, "ub");
            }
            if !aig.eval(step.cont, &val) {
                return (visited, "end");
            }
            at = step.next_pc.eval(&aig, &val);
            state = step.next.iter().map(|b| b.eval(&aig, &val)).collect();
            visited.push(at as u32);
        }
        (visited, "running")
    }

    #[test]
    fn a_counting_loop_is_one_cut_point_visited_once_per_iteration() {
        let src = "void reach_error(void);\nint main(void) {\n  int i = 0;\n  while (i < 3) {\n    i++;\n  }\n  if (i != 3) reach_error();\n  return 0;\n}\n";
        let (visited, end) = run(src, 10);
        assert_eq!(visited, vec![0, 1, 1, 1, 1]);
        assert_eq!(end, "end");
        let src_bug = src.replace("i != 3", "i == 3");
        let (_, end) = run(&src_bug, 10);
        assert_eq!(end, "error");
    }

    #[test]
    fn calls_are_inlined_per_call_site() {
        let src = "void reach_error(void);\nint inc(int x) { return x + 1; }\nint main(void) {\n  int a = inc(1);\n  int b = inc(a);\n  if (b != 3) reach_error();\n  return 0;\n}\n";
        let (prog, cfa) = program(src);
        let ts = Ts::build(&prog, &cfa, Property::UnreachCall).unwrap();
        assert_eq!(ts.ctxs.len(), 3, "main and two contexts of inc");
        assert_eq!(ts.cuts.len(), 1, "no loop: the entry is the only cut point");
        assert_eq!(run(src, 3).1, "end");
        assert_eq!(run(&src.replace("b != 3", "b == 3"), 3).1, "error");
    }

    #[test]
    fn division_by_zero_is_undefined_behaviour() {
        let src = "int main(void) {\n  int d = 0;\n  int q = 10 / d;\n  return q;\n}\n";
        assert_eq!(run(src, 3).1, "ub");
    }

    #[test]
    fn arrays_pointers_and_recursion_are_unsupported() {
        let cases = [
            ("int main(void) { int a[2]; a[0] = 1; return a[0]; }", "arrays"),
            ("int main(void) { int x = 0; int *p = &x; *p = 1; return x; }", "of type int *"),
            ("int f(int n) { return n ? f(n - 1) : 0; }\nint main(void) { return f(3); }", "a recursive call of 'f'"),
        ];
        for (src, why) in cases {
            let (prog, cfa) = program(src);
            let err = match Ts::build(&prog, &cfa, Property::UnreachCall) {
                Err(e) => e,
                Ok(ts) => {
                    let mut aig = Aig::default();
                    let (pc, vars) = ts.fresh_state(&mut aig);
                    ts.encode_step(&mut aig, &pc, &vars).map(|_| ()).unwrap_err()
                }
            };
            assert!(err.0.contains(why), "{src}: {}", err.0);
        }
    }
}
