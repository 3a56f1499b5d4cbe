//! A concrete interpreter over the CFA: runs the program on given input values.
//!
//! It is written independently of the symbolic executor (plain integers and byte maps instead of
//! AIGs and bit-vectors) but follows the same rules, documented in `semantics`, `memory` and `exec`:
//! the same object ids and address layout, the same library models, the same treatment of bytes
//! never written and of unknown pointers. Inputs are consumed the way the executor creates them:
//! results of calls of functions without body in call order (each must come from the edge the
//! interpreter is executing, or the run has diverged from the path that produced the inputs), and
//! bytes read before being written by their (allocation number, offset), 0 when absent.
//!
//! `verify` interprets every counterexample before reporting it; the coverage layer interprets the
//! executions it claims (`confirm`).
//!
//! This file runs a program edge by edge (`interpret`, `interpret_drawing`); its parts are
//! `memory` (the interpreter's own objects of bytes, reads and writes of values), `place` (the
//! places expressions designate, variables and initializers), `expr` (the values of expressions)
//! and `library` (calls of functions without body, and the inputs they consume).
//!
//! Invariant: the interpreter never consults the solver or the AIG.

mod expr;
mod jump;
mod library;
mod math;
mod memory;
mod place;

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::exec::{Property, World};
use super::explore::InputValue;
use super::initializer::Initialize;
use super::memory::{Layout, ObjId};
use super::semantics::UbKind;
use super::state::InputKind;
use super::trace::Trace;
use crate::base::fp::Rounding;
use crate::cfa::{Cfa, EdgeId, EdgeKind, GlobalKind, NodeKind};
use crate::cfront::ir::{FuncId, Init, Program, StrId, VarId};
use crate::cfront::types::{IntRank, TypeId, TypeKind, Types};

use memory::{Kind, Obj};
use place::Place;

/// How a concrete run ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ConcreteEnd {
    /// `main` returned.
    Exit,
    /// The program stopped.
    Halt,
    /// The property was violated.
    Violation,
    /// A `__VERIFIER_assume` (or a branch) had no true condition.
    Blocked,
    /// Undefined behaviour happened.
    Undefined(UbKind),
    /// A construct the interpreter does not model.
    Unsupported(String),
    /// An input does not belong to the call being executed (the run left the inputs' path).
    Diverged,
    /// The step limit was reached.
    StepLimit,
}

/// Edges a run may take in functions the C library calls back (`Cfa::in_model`), at least: they
/// are not on the path (whose length `max_steps` bounds), so they are bounded apart.
const MIN_CALLBACK_STEPS: u64 = 1 << 22;

/// The result of a concrete run.
#[derive(Clone, Debug)]
pub struct ConcreteRun {
    /// How it ended.
    pub end: ConcreteEnd,
    /// The edges it took (with the loop iterations it jumped over, when it accelerated).
    pub trace: Trace,
    /// What each allocation number of the run stands for (indexed by it): how the replay harness
    /// finds the objects whose bytes the inputs name.
    pub allocs: Vec<AllocOrigin>,
}

/// What an allocation number stands for in a concrete run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocOrigin {
    /// The storage of a variable, allocated for the `instance`-th time along the run (from 1: a
    /// local declared in a loop gets a new instance on every pass over its declaration).
    Var {
        /// The variable.
        var: VarId,
        /// How many times it was allocated, this one included.
        instance: u32,
    },
    /// A block of `malloc`, `calloc` or `alloca`.
    Heap,
    /// Fresh memory behind an unknown pointer, pointed to at `Layout::lazy_offset`: the pointer
    /// input at index `input` of the run's inputs chose it (`None`: no input was given, so the
    /// pointer was null and the object is never used).
    Lazy {
        /// The index of the pointer input in the inputs.
        input: Option<usize>,
    },
}

/// A concrete value: an integer of some width (masked), or raw bytes of an aggregate.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Val {
    Int(u128, u32),
    Bytes(Vec<u8>),
}

#[derive(Clone, Debug)]
struct CFrame {
    func: FuncId,
    call_site: Option<crate::cfa::CallSiteId>,
    locals: HashMap<VarId, ObjId>,
}

/// Why execution of an edge stopped the run.
pub(super) enum Stop {
    End(ConcreteEnd),
}

type R<T> = Result<T, Stop>;

struct Interp<'a> {
    prog: &'a Program,
    cfa: &'a Cfa,
    w: World<'a>,
    layout: Layout,
    objs: Vec<Option<Obj>>,
    first_free: usize,
    n_allocs: u32,
    frames: Vec<CFrame>,
    globals: HashMap<VarId, ObjId>,
    calls: VecDeque<(usize, &'a InputValue)>,
    /// Where the results of calls come from once `calls` is used up (`interpret_drawing`), and the
    /// inputs drawn so far.
    draw: Option<Draw<'a>>,
    drawn: Vec<InputValue>,
    uninit: HashMap<(u32, u64), (usize, &'a InputValue)>,
    allocs: Vec<AllocOrigin>,
    instances: HashMap<VarId, u32>,
    edge: EdgeId,
    /// The rounding mode of floating-point operations (`fesetround`).
    rounding: Rounding,
    /// Where the run goes after the edge being executed when not to its target: the entry of the
    /// C library model a library call enters.
    jump: Option<crate::cfa::NodeId>,
    /// Whether the run jumps over loop iterations (`accel`), and when it tries again at each loop
    /// head after a failed try (`backoff`, in random testing's runs).
    accelerate: bool,
    with_backoff: bool,
    backoff: HashMap<crate::cfa::NodeId, (u32, u32)>,
}

/// Draws the result of a call of a function without body for a run that has no input for it
/// (`interpret_drawing`): given the call's edge, the function called, and the result's width and
/// signedness, its bits, or `None` to end the run (`ConcreteEnd::Unsupported`).
pub type Draw<'d> = &'d mut dyn FnMut(EdgeId, Option<FuncId>, u32, bool) -> Option<u128>;

/// Runs `prog` from its entry with the input values `inputs`, for at most `max_steps` edges of the
/// program (the C library's models run in between, `cfa::library`).
pub fn interpret(prog: &Program, cfa: &Cfa, property: Property, inputs: &[InputValue], max_steps: u64) -> ConcreteRun {
    run_with(prog, cfa, property, inputs, None, max_steps, false).0
}

/// `interpret`, jumping over the iterations of loops that repeat one path with constant increments
/// (`accel`) wherever it can, as the explorer does: its trace folds them, and `max_steps` bounds
/// the edges it holds (each jump counts its body once).
pub fn interpret_accelerated(
    prog: &Program,
    cfa: &Cfa,
    property: Property,
    inputs: &[InputValue],
    max_steps: u64,
) -> ConcreteRun {
    run_with(prog, cfa, property, inputs, None, max_steps, true).0
}

/// Runs `prog` from its entry for at most `max_steps` edges, the result of every call of a function
/// without body of integer type drawn by `draw` (a call that returns a pointer or an aggregate ends
/// the run as unsupported: how such a value was chosen is the executor's business), bytes read
/// before being written 0. Returns the run and the inputs drawn, in the order `interpret` reads
/// them: interpreting the program with them (`interpret_accelerated`) takes the same run. Loops
/// are accelerated as `interpret_accelerated` does.
pub fn interpret_drawing(
    prog: &Program,
    cfa: &Cfa,
    property: Property,
    draw: Draw<'_>,
    max_steps: u64,
) -> (ConcreteRun, Vec<InputValue>) {
    run_with(prog, cfa, property, &[], Some(draw), max_steps, true)
}

fn run_with<'a>(
    prog: &'a Program,
    cfa: &'a Cfa,
    property: Property,
    inputs: &'a [InputValue],
    draw: Option<Draw<'a>>,
    max_steps: u64,
    accelerate: bool,
) -> (ConcreteRun, Vec<InputValue>) {
    let w = World::new(prog, cfa, property);
    let layout = w.layout;
    let draw_given = draw.is_some();
    let mut calls = VecDeque::new();
    let mut uninit = HashMap::new();
    for (i, inp) in inputs.iter().enumerate() {
        match inp.kind {
            InputKind::Call { .. } => calls.push_back((i, inp)),
            InputKind::Uninit { alloc, offset } => {
                uninit.insert((alloc, offset), (i, inp));
            }
        }
    }
    let mut it = Interp {
        prog,
        cfa,
        layout,
        objs: Vec::new(),
        first_free: 0,
        n_allocs: 0,
        frames: Vec::new(),
        globals: HashMap::new(),
        calls,
        draw,
        drawn: Vec::new(),
        uninit,
        allocs: Vec::new(),
        instances: HashMap::new(),
        edge: EdgeId(0),
        rounding: Rounding::NearestEven,
        jump: None,
        accelerate,
        with_backoff: draw_given,
        backoff: HashMap::new(),
        w,
    };
    let mut trace = Trace::new();
    let end = match it.run(max_steps, &mut trace) {
        Ok(end) | Err(Stop::End(end)) => end,
    };
    (ConcreteRun { end, trace, allocs: it.allocs }, it.drawn)
}

fn unsupported<T>(what: impl Into<String>) -> R<T> {
    Err(Stop::End(ConcreteEnd::Unsupported(what.into())))
}

fn ub<T>(k: UbKind) -> R<T> {
    Err(Stop::End(ConcreteEnd::Undefined(k)))
}

/// Width, signedness, `_Bool`-ness of a scalar type.
fn scalar(types: &Types, ty: TypeId) -> R<(u32, bool, bool)> {
    match types.kind(ty) {
        TypeKind::Int(it) => {
            let b = it.rank == IntRank::Bool;
            Ok((it.bits(types.data_model()), it.signed && !b, b))
        }
        TypeKind::Pointer(_) => Ok((types.data_model().pointer_size() as u32 * 8, false, false)),
        TypeKind::Float(k) => match k.format() {
            Some(f) => Ok((f.bits(), false, false)),
            None => unsupported(format!("{} values", types.display(ty))),
        },
        _ => unsupported(format!("{} used as a scalar", types.display(ty))),
    }
}

impl<'a> Interp<'a> {
    fn types(&self) -> &'a Types {
        &self.prog.types
    }

    fn run(&mut self, max_steps: u64, trace: &mut Trace) -> R<ConcreteEnd> {
        let cfa = self.cfa;
        let n_funcs = self.prog.funcs.len();
        let first_dynamic = 1 + n_funcs + self.prog.strings.len();
        self.objs = vec![None; first_dynamic];
        for i in 0..n_funcs {
            self.objs[1 + i] =
                Some(Obj { size: 0, kind: Kind::Func, alloc: 0, default: Some(0), bytes: BTreeMap::new() });
        }
        for (i, s) in self.prog.strings.iter().enumerate() {
            let bytes = s.iter().enumerate().map(|(k, &b)| (k as u64, b)).collect();
            self.objs[self.w.str_obj(StrId::from_idx(i)) as usize] =
                Some(Obj { size: s.len() as u64, kind: Kind::Str, alloc: 0, default: Some(0), bytes });
        }
        self.first_free = first_dynamic;
        let main = cfa.main;
        self.frames.push(CFrame { func: main, call_site: None, locals: HashMap::new() });
        let mut locals = self.prog.func(main).params.clone();
        locals.extend(cfa.func(main).and_then(|f| f.ret_var));
        for v in locals {
            self.alloc_var(v, None)?;
        }
        for &e in cfa.library_init() {
            self.edge = e;
            self.step(e)?;
        }
        let mut node = cfa.entry();
        // Edges of the C library's models do not count toward `max_steps` (they are not the
        // program's: a path's length does not include them); every model's loops end. Those of a
        // function a model calls back (`Cfa::in_model`) are hidden too, but the program's loops
        // may not end: they have a limit of their own.
        let callback_limit = max_steps.max(MIN_CALLBACK_STEPS);
        let mut callback_steps = 0u64;
        while trace.stored() < max_steps && callback_steps < callback_limit {
            let n = cfa.node(node);
            if n.kind == NodeKind::Termination {
                return Ok(ConcreteEnd::Halt);
            }
            let top = self.frames.last().expect("frame");
            let at_exit = n.kind == NodeKind::Exit && cfa.func(top.func).is_some_and(|f| f.exit == node);
            if at_exit && self.frames.len() == 1 {
                return Ok(ConcreteEnd::Exit);
            }
            let call_site = top.call_site;
            if self.accelerate && n.loop_head && !cfa.in_model(self.frames.iter().map(|f| f.func)) {
                if let Some(j) = self.try_jump(node, call_site)? {
                    trace.push_repeat(j.body, j.times, j.after);
                    continue;
                }
            }
            let out = cfa.frame_out_edges(node, call_site);
            let e = match out.as_slice() {
                [] => return Ok(ConcreteEnd::Halt),
                [e] if !matches!(cfa.edge(*e).kind, EdgeKind::Assume { .. }) => *e,
                _ => {
                    let mut chosen = None;
                    for &e in &out {
                        if let EdgeKind::Assume { cond, truth } = &cfa.edge(e).kind {
                            self.edge = e;
                            let v = self.truth(cond)?;
                            if v == *truth {
                                chosen = Some(e);
                                break;
                            }
                        }
                    }
                    match chosen {
                        Some(e) => e,
                        None => return Ok(ConcreteEnd::Blocked),
                    }
                }
            };
            // The edges of the C library's models are not the program's (`cfa::library`).
            if !cfa.is_library_edge(e) {
                if cfa.in_model(self.frames.iter().map(|f| f.func)) {
                    callback_steps += 1;
                } else {
                    trace.push(e);
                }
            }
            self.edge = e;
            if let Some(end) = self.step(e)? {
                return Ok(end);
            }
            node = self.jump.take().unwrap_or(cfa.edge(e).dst);
            if let Some(label) = &cfa.node(node).label {
                if self.w.is_error_label(label) {
                    return Ok(ConcreteEnd::Violation);
                }
            }
        }
        Ok(ConcreteEnd::StepLimit)
    }

    /// Executes edge `e`; `Some(end)` if the run ends on it.
    fn step(&mut self, e: EdgeId) -> R<Option<ConcreteEnd>> {
        let cfa = self.cfa;
        let library = matches!(cfa.edge(e).kind, EdgeKind::ExternCall { .. }).then(|| cfa.library_call(e)).flatten();
        if let Some(cs) = library.map_or_else(|| self.callback(e), |cs| Ok(Some(cs)))? {
            // A model of the C library, or a function it calls back: run its code, from its entry
            // (`cfa::library`).
            let depth = self.frames.len();
            let end = self.enter(cs)?;
            if self.frames.len() > depth {
                self.jump = cfa.func(cfa.call_site(cs).callee).map(|f| f.entry);
            }
            return Ok(end);
        }
        match &cfa.edge(e).kind {
            EdgeKind::Blank(_) | EdgeKind::TypeDecl | EdgeKind::Summary(_) => {}
            EdgeKind::Global(GlobalKind::Type | GlobalKind::Function(_)) => {}
            EdgeKind::Global(GlobalKind::Var { var, init }) => {
                let fill = if self.prog.var(*var).is_extern && init.is_none() { None } else { Some(0) };
                self.alloc_var(*var, fill)?;
                if let Some(i) = init {
                    self.init_var(*var, i)?;
                }
            }
            EdgeKind::Decl { var, init } => {
                let fill = if matches!(init, Some(Init::List(_))) { Some(0) } else { None };
                self.alloc_var(*var, fill)?;
                if let Some(i) = init {
                    self.init_var(*var, i)?;
                }
            }
            EdgeKind::Assign { lhs, rhs } => {
                let p = self.place(lhs)?;
                let v = self.rvalue(rhs)?;
                self.write(&p, v)?;
            }
            EdgeKind::Eval(x) => {
                self.rvalue(x)?;
            }
            EdgeKind::Assume { cond, truth } => {
                if self.truth(cond)? != *truth {
                    return Ok(Some(ConcreteEnd::Blocked));
                }
            }
            EdgeKind::ExternCall { lhs, callee, args } => return self.extern_call(lhs.as_ref(), callee, args),
            EdgeKind::Call(cs) => return self.enter(*cs),
            EdgeKind::Return(cs) => {
                let site = cfa.call_site(*cs);
                let ret_var = cfa.func(site.callee).and_then(|f| f.ret_var);
                let result = match (ret_var, &site.lhs) {
                    (Some(rv), Some(_)) => {
                        let p = self.var_place(rv)?;
                        Some((self.read(&p)?, self.prog.var(rv).ty))
                    }
                    _ => None,
                };
                let frame = self.frames.pop().expect("frame");
                let mut ids: Vec<ObjId> = frame.locals.values().copied().collect();
                ids.sort_unstable();
                for id in ids {
                    self.free_id(id);
                }
                if let (Some((v, from)), Some(lhs)) = (result, &site.lhs) {
                    let p = self.place(lhs)?;
                    let v = self.convert(v, from, p.ty)?;
                    self.write(&p, v)?;
                }
            }
            EdgeKind::ReturnStmt(value) => {
                if let Some(x) = value {
                    let v = self.rvalue(x)?;
                    let f = self.frames.last().expect("frame").func;
                    if let Some(rv) = cfa.func(f).and_then(|fc| fc.ret_var) {
                        let p = self.var_place(rv)?;
                        let v = self.convert(v, x.ty, p.ty)?;
                        self.write(&p, v)?;
                    }
                }
            }
        }
        Ok(None)
    }

    /// Enters the function call site `cs` calls: its arguments in fresh parameters, a new frame.
    fn enter(&mut self, cs: crate::cfa::CallSiteId) -> R<Option<ConcreteEnd>> {
        let cfa = self.cfa;
        let site = cfa.call_site(cs);
        if self.w.is_violation_call(site.callee) {
            return Ok(Some(ConcreteEnd::Violation));
        }
        if site.incompatible_argument(self.prog).is_some() {
            return ub(UbKind::IncompatibleCall);
        }
        let values: Vec<Val> = site.args.iter().map(|a| self.rvalue(a)).collect::<R<_>>()?;
        self.frames.push(CFrame { func: site.callee, call_site: Some(cs), locals: HashMap::new() });
        let params = self.prog.func(site.callee).params.clone();
        for (i, p) in params.into_iter().enumerate() {
            let id = self.alloc_var(p, None)?;
            if let Some(v) = values.get(i) {
                let place = Place { addr: self.layout.address(id, 0), ty: self.prog.var(p).ty, bitfield: None };
                self.write(&place, v.clone())?;
            }
        }
        if let Some(rv) = cfa.func(site.callee).and_then(|f| f.ret_var) {
            self.alloc_var(rv, None)?;
        }
        Ok(None)
    }
}
