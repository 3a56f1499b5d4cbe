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
//! Invariant: the interpreter never consults the solver or the AIG.

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::exec::{Property, World};
use super::explore::InputValue;
use super::initializer::{self, Initialize};
use super::memory::{Layout, ObjId};
use super::semantics::UbKind;
use super::state::{InputKind, PointerChoice};
use crate::cfa::{Cfa, EdgeId, EdgeKind, GlobalKind, NodeKind};
use crate::cfront::ir::{BinOp, Expr, ExprKind, FuncId, Init, InitStep, Program, StrId, UnOp, VarId, VarKind};
use crate::cfront::types::{bitfield_bytes, IntRank, TypeId, TypeKind, Types};
use crate::libmodels::LibFn;

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

/// The result of a concrete run.
#[derive(Clone, Debug)]
pub struct ConcreteRun {
    /// How it ended.
    pub end: ConcreteEnd,
    /// The edges it took.
    pub edges: Vec<EdgeId>,
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

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Func,
    Str,
    Var,
    Heap,
    Lazy,
}

#[derive(Clone, Debug)]
struct Obj {
    size: u64,
    kind: Kind,
    alloc: u32,
    default: Option<u8>,
    bytes: BTreeMap<u64, u8>,
}

#[derive(Clone, Debug)]
struct CFrame {
    func: FuncId,
    call_site: Option<crate::cfa::CallSiteId>,
    locals: HashMap<VarId, ObjId>,
}

#[derive(Clone, Debug)]
pub(super) struct Place {
    addr: u128,
    ty: TypeId,
    bitfield: Option<(u32, u32)>,
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
}

/// Draws the result of a call of a function without body for a run that has no input for it
/// (`interpret_drawing`): given the call's edge, the function called, and the result's width and
/// signedness, its bits, or `None` to end the run (`ConcreteEnd::Unsupported`).
pub type Draw<'d> = &'d mut dyn FnMut(EdgeId, Option<FuncId>, u32, bool) -> Option<u128>;

/// Runs `prog` from its entry with the input values `inputs`, for at most `max_steps` edges.
pub fn interpret(prog: &Program, cfa: &Cfa, property: Property, inputs: &[InputValue], max_steps: u64) -> ConcreteRun {
    run_with(prog, cfa, property, inputs, None, max_steps).0
}

/// Runs `prog` from its entry for at most `max_steps` edges, the result of every call of a function
/// without body of integer type drawn by `draw` (a call that returns a pointer or an aggregate ends
/// the run as unsupported: how such a value was chosen is the executor's business), bytes read
/// before being written 0. Returns the run and the inputs drawn, in the order `interpret` reads
/// them: interpreting the program with them takes the same run.
pub fn interpret_drawing(
    prog: &Program,
    cfa: &Cfa,
    property: Property,
    draw: Draw<'_>,
    max_steps: u64,
) -> (ConcreteRun, Vec<InputValue>) {
    run_with(prog, cfa, property, &[], Some(draw), max_steps)
}

fn run_with<'a>(
    prog: &'a Program,
    cfa: &'a Cfa,
    property: Property,
    inputs: &'a [InputValue],
    draw: Option<Draw<'a>>,
    max_steps: u64,
) -> (ConcreteRun, Vec<InputValue>) {
    let w = World::new(prog, cfa, property);
    let layout = w.layout;
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
        w,
    };
    let mut edges = Vec::new();
    let end = match it.run(max_steps, &mut edges) {
        Ok(end) | Err(Stop::End(end)) => end,
    };
    (ConcreteRun { end, edges, allocs: it.allocs }, it.drawn)
}

fn mask(v: u128, bits: u32) -> u128 {
    if bits >= 128 {
        v
    } else {
        v & ((1u128 << bits) - 1)
    }
}

fn sext(v: u128, bits: u32) -> i128 {
    if bits >= 128 {
        return v as i128;
    }
    let v = mask(v, bits);
    if v >> (bits - 1) & 1 == 1 {
        v as i128 - (1i128 << bits)
    } else {
        v as i128
    }
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
        TypeKind::Float(_) => unsupported("floating-point values"),
        _ => unsupported(format!("{} used as a scalar", types.display(ty))),
    }
}

impl<'a> Interp<'a> {
    fn types(&self) -> &'a Types {
        &self.prog.types
    }

    fn run(&mut self, max_steps: u64, edges: &mut Vec<EdgeId>) -> R<ConcreteEnd> {
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
        let mut node = cfa.entry();
        for _ in 0..max_steps {
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
            edges.push(e);
            self.edge = e;
            if let Some(end) = self.step(e)? {
                return Ok(end);
            }
            node = cfa.edge(e).dst;
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
            EdgeKind::Call(cs) => {
                let site = cfa.call_site(*cs);
                if self.w.is_violation_call(site.callee) {
                    return Ok(Some(ConcreteEnd::Violation));
                }
                if site.incompatible_argument(self.prog).is_some() {
                    return ub(UbKind::IncompatibleCall);
                }
                let values: Vec<Val> = site.args.iter().map(|a| self.rvalue(a)).collect::<R<_>>()?;
                self.frames.push(CFrame { func: site.callee, call_site: Some(*cs), locals: HashMap::new() });
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
            }
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

    // ----- objects -----

    fn alloc(&mut self, size: u64, kind: Kind, fill: Option<u8>, origin: AllocOrigin) -> R<ObjId> {
        if size > self.layout.max_size() {
            return unsupported(format!("an object of {size} bytes"));
        }
        let alloc = self.next_alloc(origin);
        let mut id = self.first_free;
        while id < self.objs.len() && self.objs[id].is_some() {
            id += 1;
        }
        if id as u64 >= self.layout.max_objects() {
            return unsupported("too many live objects");
        }
        if id == self.objs.len() {
            self.objs.push(None);
        }
        self.objs[id] = Some(Obj { size, kind, alloc, default: fill, bytes: BTreeMap::new() });
        self.first_free = id + 1;
        Ok(id as ObjId)
    }

    /// The next allocation number, which stands for `origin`.
    fn next_alloc(&mut self, origin: AllocOrigin) -> u32 {
        let alloc = self.n_allocs;
        self.n_allocs += 1;
        self.allocs.push(origin);
        alloc
    }

    /// The origin of the next allocation of variable `v`.
    fn var_origin(&mut self, v: VarId) -> AllocOrigin {
        let n = self.instances.entry(v).or_insert(0);
        *n += 1;
        AllocOrigin::Var { var: v, instance: *n }
    }

    fn free_id(&mut self, id: ObjId) {
        if let Some(slot) = self.objs.get_mut(id as usize) {
            *slot = None;
            self.first_free = self.first_free.min(id as usize);
        }
    }

    fn is_global(&self, v: VarId) -> bool {
        matches!(self.prog.var(v).kind, VarKind::Global | VarKind::StaticLocal(_))
    }

    /// Allocates (or renews) the object of `v`, like `exec::alloc_var`.
    fn alloc_var(&mut self, v: VarId, fill: Option<u8>) -> R<ObjId> {
        let var = self.prog.var(v);
        let size = match self.types().size_of(var.ty) {
            Some(s) => s,
            None if matches!(self.types().kind(var.ty), TypeKind::Array(_, None)) => 0,
            None => return unsupported(format!("variable '{}' of incomplete type", var.name)),
        };
        let global = self.is_global(v);
        let existing = if global {
            self.globals.get(&v).copied()
        } else {
            self.frames.last().expect("frame").locals.get(&v).copied()
        };
        let origin = self.var_origin(v);
        if let Some(id) = existing {
            let alloc = self.next_alloc(origin);
            self.objs[id as usize] = Some(Obj { size, kind: Kind::Var, alloc, default: fill, bytes: BTreeMap::new() });
            return Ok(id);
        }
        let id = self.alloc(size, Kind::Var, fill, origin)?;
        if global {
            self.globals.insert(v, id);
        } else {
            self.frames.last_mut().expect("frame").locals.insert(v, id);
        }
        Ok(id)
    }

    fn var_place(&mut self, v: VarId) -> R<Place> {
        let global = self.is_global(v);
        let bound = if global {
            self.globals.get(&v).copied()
        } else {
            self.frames.last().expect("frame").locals.get(&v).copied()
        };
        let id = match bound {
            Some(id) => id,
            None => {
                let fill = if global && !self.prog.var(v).is_extern { Some(0) } else { None };
                self.alloc_var(v, fill)?
            }
        };
        Ok(Place { addr: self.layout.address(id, 0), ty: self.prog.var(v).ty, bitfield: None })
    }

    /// The object and offset `n` bytes at `addr` lie in, for reading or writing.
    fn locate(&self, addr: u128, n: u64, write: bool) -> R<(ObjId, u64)> {
        let (id, off) = self.layout.split_const(mask(addr, self.layout.ptr_bits));
        match self.objs.get(id as usize).and_then(|o| o.as_ref()) {
            Some(o)
                if id != 0
                    && o.kind != Kind::Func
                    && !(write && o.kind == Kind::Str)
                    && off.checked_add(n).is_some_and(|end| end <= o.size) =>
            {
                Ok((id, off))
            }
            _ => ub(UbKind::InvalidAccess),
        }
    }

    fn read_bytes(&mut self, addr: u128, n: u64) -> R<Vec<u8>> {
        if n == 0 {
            return Ok(vec![]);
        }
        let (id, off) = self.locate(addr, n, false)?;
        let mut res = Vec::with_capacity(n as usize);
        for k in off..off + n {
            let o = self.objs[id as usize].as_mut().expect("live");
            let b = match o.bytes.get(&k).copied().or(o.default) {
                Some(b) => b,
                None => {
                    let v = self.uninit.get(&(o.alloc, k)).map_or(0, |(_, i)| i.value as u8);
                    o.bytes.insert(k, v);
                    v
                }
            };
            res.push(b);
        }
        Ok(res)
    }

    fn write_bytes(&mut self, addr: u128, bytes: &[u8]) -> R<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let (id, off) = self.locate(addr, bytes.len() as u64, true)?;
        let o = self.objs[id as usize].as_mut().expect("live");
        for (k, &b) in bytes.iter().enumerate() {
            o.bytes.insert(off + k as u64, b);
        }
        Ok(())
    }

    // ----- initializers -----

    fn init_var(&mut self, v: VarId, init: &Init) -> R<()> {
        let place = self.var_place(v)?;
        self.initialize(&place, init)
    }

    // ----- library -----

    fn extern_call(&mut self, lhs: Option<&Expr>, callee: &Expr, args: &[Expr]) -> R<Option<ConcreteEnd>> {
        let f = match &callee.strip_implicit().kind {
            ExprKind::Func(f) => *f,
            _ => {
                let fp_expr = match &callee.strip_implicit().kind {
                    ExprKind::Deref(inner) if self.types().pointee(inner.ty).is_some() => inner.as_ref(),
                    _ => callee,
                };
                let fp = self.int(fp_expr)?;
                if fp == 0 {
                    return ub(UbKind::InvalidCall);
                }
                let (obj, off) = self.layout.split_const(fp);
                return match self.w.obj_func(obj) {
                    Some(f) if off == 0 && self.prog.func(f).body.is_none() => self.lib_call(f, lhs, args),
                    Some(_) if off == 0 => unsupported("a call through a pointer whose type does not fit the call"),
                    Some(_) => ub(UbKind::InvalidCall),
                    None if self.objs.get(obj as usize).is_some_and(|o| o.is_some()) => ub(UbKind::InvalidCall),
                    None => self.unknown_call(None, lhs, args),
                };
            }
        };
        self.lib_call(f, lhs, args)
    }

    fn lib_call(&mut self, f: FuncId, lhs: Option<&Expr>, args: &[Expr]) -> R<Option<ConcreteEnd>> {
        if let Some(reason) = self.w.undeclared_call(f) {
            return unsupported(reason);
        }
        let lib = self.w.lib(f).for_call(args.len());
        match lib {
            LibFn::ReachError | LibFn::AssertFail if self.w.is_violation_call(f) => Ok(Some(ConcreteEnd::Violation)),
            LibFn::Halt => Ok(Some(ConcreteEnd::Halt)),
            LibFn::Assume => {
                if self.truth(&args[0])? {
                    Ok(None)
                } else {
                    Ok(Some(ConcreteEnd::Blocked))
                }
            }
            LibFn::Malloc | LibFn::Calloc => {
                let mut size = self.int(&args[0])?;
                if lib == LibFn::Calloc {
                    size = size.wrapping_mul(self.int(&args[1])?);
                }
                let fill = if lib == LibFn::Calloc { Some(0) } else { None };
                if size > self.layout.max_size() as u128 {
                    return unsupported(format!("an allocation of {size} bytes"));
                }
                let id = self.alloc(size as u64, Kind::Heap, fill, AllocOrigin::Heap)?;
                let addr = self.layout.address(id, 0);
                self.store_ptr(lhs, addr)?;
                Ok(None)
            }
            LibFn::Free => {
                let p = self.int(&args[0])?;
                if p != 0 {
                    let (id, off) = self.layout.split_const(p);
                    match self.objs.get(id as usize).and_then(|o| o.as_ref()) {
                        Some(o) if off == 0 && o.kind == Kind::Heap => self.free_id(id),
                        Some(o) if (off == 0 || off == self.layout.lazy_offset()) && o.kind == Kind::Lazy => {
                            self.free_id(id)
                        }
                        _ => return ub(UbKind::InvalidFree),
                    }
                }
                Ok(None)
            }
            LibFn::Memset => {
                let p = self.int(&args[0])?;
                let c = self.int(&args[1])? as u8;
                let n = self.int(&args[2])?;
                if n > u32::MAX as u128 {
                    return unsupported("memset of a huge size");
                }
                self.write_bytes(p, &vec![c; n as usize])?;
                self.store_ptr(lhs, p)?;
                Ok(None)
            }
            LibFn::Memcpy => {
                let d = self.int(&args[0])?;
                let s = self.int(&args[1])?;
                let n = self.int(&args[2])?;
                if n > u32::MAX as u128 {
                    return unsupported("memcpy of a huge size");
                }
                let bytes = self.read_bytes(s, n as u64)?;
                self.write_bytes(d, &bytes)?;
                self.store_ptr(lhs, d)?;
                Ok(None)
            }
            LibFn::Expect => {
                let v = self.rvalue(&args[0])?;
                if let Some(l) = lhs {
                    let p = self.place(l)?;
                    let v = self.convert(v, args[0].ty, p.ty)?;
                    self.write(&p, v)?;
                }
                Ok(None)
            }
            LibFn::ObjectSize => {
                let n = match self.w.object_size(&args[0], &args[1]) {
                    Ok(n) => n,
                    Err(u) => return unsupported(u.0),
                };
                if let Some(l) = lhs {
                    let p = self.place(l)?;
                    let v = Val::Int(n, self.layout.ptr_bits);
                    let from = match self.types().kind(self.prog.func(f).ty) {
                        TypeKind::Func(ft) => ft.ret,
                        _ => p.ty,
                    };
                    let v = self.convert(v, from, p.ty)?;
                    self.write(&p, v)?;
                }
                Ok(None)
            }
            LibFn::Bswap => {
                let Val::Int(v, bits) = self.rvalue(&args[0])? else {
                    return unsupported("an aggregate given to bswap");
                };
                let swapped = (0..bits / 8).fold(0u128, |acc, k| (acc << 8) | ((v >> (8 * k)) & 0xff));
                if let Some(l) = lhs {
                    let p = self.place(l)?;
                    let v = self.convert(Val::Int(swapped, bits), args[0].ty, p.ty)?;
                    self.write(&p, v)?;
                }
                Ok(None)
            }
            LibFn::Unsupported => {
                unsupported(format!("a call of '{}', which vcov does not model", self.prog.func(f).name))
            }
            LibFn::Noop => Ok(None),
            LibFn::Output => {
                for a in args {
                    self.rvalue(a)?;
                }
                self.unknown_result(Some(f), lhs)?;
                Ok(None)
            }
            // A violation function the property does not name is an unknown function too.
            LibFn::ReachError | LibFn::AssertFail | LibFn::Nondet | LibFn::Unmodelled | LibFn::Unknown => {
                self.unknown_call(Some(f), lhs, args)
            }
        }
    }

    fn unknown_call(&mut self, f: Option<FuncId>, lhs: Option<&Expr>, args: &[Expr]) -> R<Option<ConcreteEnd>> {
        for a in args {
            self.rvalue(a)?;
        }
        self.unknown_result(f, lhs)?;
        Ok(None)
    }

    /// The next call input, which must belong to the edge being executed.
    fn next_call_input(&mut self) -> R<&'a InputValue> {
        match self.calls.pop_front() {
            Some((_, inp)) if matches!(inp.kind, InputKind::Call { edge, .. } if edge == self.edge) => Ok(inp),
            _ => Err(Stop::End(ConcreteEnd::Diverged)),
        }
    }

    /// The bits of the next call input of integer type `ty` (`bits` wide): given, or drawn.
    fn next_int_input(&mut self, f: Option<FuncId>, ty: TypeId, bits: u32, signed: bool) -> R<u128> {
        let Some(draw) = self.draw.as_mut().filter(|_| self.calls.is_empty()) else {
            return Ok(self.next_call_input()?.value);
        };
        let Some(value) = draw(self.edge, f, bits, signed) else {
            let name = f.map_or("a function pointer".to_string(), |f| self.prog.func(f).name.clone());
            return unsupported(format!("no input drawn for the result of {name}"));
        };
        let value = mask(value, bits);
        let kind = InputKind::Call { edge: self.edge, func: f };
        self.drawn.push(InputValue { kind, ty: Some(ty), pointer_choice: false, bits, value });
        Ok(value)
    }

    fn unknown_result(&mut self, f: Option<FuncId>, lhs: Option<&Expr>) -> R<()> {
        let ret = match f.map(|f| self.types().kind(self.prog.func(f).ty)) {
            Some(TypeKind::Func(ft)) => Some(ft.ret),
            _ => lhs.map(|l| l.ty),
        };
        let Some(ret) = ret else { return Ok(()) };
        let v = match self.types().kind(ret) {
            TypeKind::Void => return Ok(()),
            TypeKind::Pointer(_) | TypeKind::Record(_) | TypeKind::Array(..) | TypeKind::Float(_)
                if self.draw.is_some() && self.calls.is_empty() =>
            {
                return unsupported("an input of pointer or aggregate type drawn");
            }
            TypeKind::Pointer(_) => {
                let at = self.calls.front().map(|&(i, _)| i);
                let id = self.alloc(self.layout.max_size(), Kind::Lazy, None, AllocOrigin::Lazy { input: at })?;
                let inp = self.next_call_input()?;
                let addr = self.layout.address(id, self.layout.lazy_offset());
                Val::Int(if inp.value & 1 == 1 { addr } else { 0 }, self.layout.ptr_bits)
            }
            TypeKind::Int(it) if it.rank == IntRank::Bool => {
                let value = self.next_int_input(f, ret, 1, false)?;
                Val::Int((value & 1 != 0) as u128, 8)
            }
            TypeKind::Int(_) => {
                let (bits, signed, _) = scalar(self.types(), ret)?;
                let value = self.next_int_input(f, ret, bits, signed)?;
                Val::Int(mask(value, bits), bits)
            }
            _ => {
                let size = self.types().size_of(ret).unwrap_or(0);
                let inp = self.next_call_input()?;
                Val::Bytes((0..size).map(|k| (inp.value >> (8 * k)) as u8).collect())
            }
        };
        if let Some(l) = lhs {
            let p = self.place(l)?;
            let v = self.convert(v, ret, p.ty)?;
            self.write(&p, v)?;
        }
        Ok(())
    }

    fn store_ptr(&mut self, lhs: Option<&Expr>, addr: u128) -> R<()> {
        if let Some(l) = lhs {
            let p = self.place(l)?;
            let (bits, _, _) = scalar(self.types(), p.ty)?;
            self.write(&p, Val::Int(mask(addr, bits), bits))?;
        }
        Ok(())
    }

    // ----- expressions -----

    fn truth(&mut self, e: &Expr) -> R<bool> {
        Ok(self.int(e)? != 0)
    }

    fn int(&mut self, e: &Expr) -> R<u128> {
        match self.rvalue(e)? {
            Val::Int(v, _) => Ok(v),
            Val::Bytes(_) => unsupported("an aggregate used as a scalar"),
        }
    }

    fn rvalue(&mut self, e: &Expr) -> R<Val> {
        let types = self.types();
        match &e.kind {
            ExprKind::IntConst(v) => {
                let (bits, _, _) = scalar(types, e.ty)?;
                Ok(Val::Int(mask(*v as u128, bits), bits))
            }
            ExprKind::SizeOf(v) | ExprKind::SizeOfExpr(v, _) => {
                let (bits, _, _) = scalar(types, e.ty)?;
                Ok(Val::Int(mask(*v as u128, bits), bits))
            }
            ExprKind::FloatConst(_) => unsupported("floating-point values"),
            ExprKind::StmtExpr(_) => unsupported("a statement expression on an edge"),
            ExprKind::Unsupported(r) => unsupported(r.clone()),
            ExprKind::Var(_)
            | ExprKind::Member { .. }
            | ExprKind::Index(..)
            | ExprKind::Deref(_)
            | ExprKind::Str(_) => {
                let p = self.place(e)?;
                self.read(&p)
            }
            ExprKind::Func(f) => Ok(Val::Int(self.layout.address(self.w.func_obj(*f), 0), self.layout.ptr_bits)),
            ExprKind::Decay(inner) | ExprKind::AddrOf(inner) => {
                if let ExprKind::Func(f) = inner.strip_implicit().kind {
                    return Ok(Val::Int(self.layout.address(self.w.func_obj(f), 0), self.layout.ptr_bits));
                }
                let p = self.place(inner)?;
                if p.bitfield.is_some() {
                    return unsupported("address of a bit-field");
                }
                Ok(Val::Int(mask(p.addr, self.layout.ptr_bits), self.layout.ptr_bits))
            }
            ExprKind::Unary(op, x) => {
                let (bits, _, _) = scalar(types, x.ty)?;
                let v = self.int(x)?;
                Ok(match op {
                    UnOp::Neg => Val::Int(mask(v.wrapping_neg(), bits), bits),
                    UnOp::BitNot => Val::Int(mask(!v, bits), bits),
                    UnOp::Plus => Val::Int(v, bits),
                    UnOp::LogNot => Val::Int((v == 0) as u128, 32),
                })
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            ExprKind::Cast(x, _) => {
                if matches!(types.kind(e.ty), TypeKind::Void) {
                    self.rvalue(x)?;
                    return Ok(Val::Int(0, 8));
                }
                let v = self.rvalue(x)?;
                self.convert(v, x.ty, e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                if self.truth(c)? {
                    self.rvalue(a)
                } else {
                    self.rvalue(b)
                }
            }
            ExprKind::Comma(a, b) => {
                self.rvalue(a)?;
                self.rvalue(b)
            }
            _ => unsupported("a side effect inside an expression"),
        }
    }

    fn convert(&mut self, v: Val, from: TypeId, to: TypeId) -> R<Val> {
        let types = self.types();
        match v {
            Val::Int(x, _) => {
                let (fb, fs, _) = scalar(types, from)?;
                let (tb, _, tbool) = scalar(types, to)?;
                if tbool {
                    return Ok(Val::Int((mask(x, fb) != 0) as u128, 8));
                }
                let wide = if fs { sext(x, fb) as u128 } else { mask(x, fb) };
                Ok(Val::Int(mask(wide, tb), tb))
            }
            Val::Bytes(b) => {
                if from == to || types.size_of(from) == types.size_of(to) && !types.is_scalar(to) {
                    Ok(Val::Bytes(b))
                } else {
                    unsupported("a conversion between aggregate types")
                }
            }
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> R<Val> {
        let types = self.types();
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            let x = self.truth(a)?;
            let res = if op == BinOp::LogAnd { x && self.truth(b)? } else { x || self.truth(b)? };
            let (bits, _, _) = scalar(types, e.ty)?;
            return Ok(Val::Int(res as u128, bits));
        }
        let (pa, pb) = (types.pointee(a.ty), types.pointee(b.ty));
        let x = self.int(a)?;
        let y = self.int(b)?;
        let pbits = self.layout.ptr_bits;
        let elem = |t: TypeId| -> R<u128> {
            match types.kind(t) {
                TypeKind::Void | TypeKind::Func(_) => Ok(1),
                _ => match types.size_of(t) {
                    Some(s) => Ok(s as u128),
                    None => unsupported("pointer arithmetic on an incomplete type"),
                },
            }
        };
        let offset = |p: u128, i: u128, it: &Expr, size: u128, sub: bool| -> R<u128> {
            let (ib, is, _) = scalar(types, it.ty)?;
            let wide = if is { sext(i, ib) as u128 } else { mask(i, ib) };
            let scaled = wide.wrapping_mul(size);
            Ok(mask(if sub { p.wrapping_sub(scaled) } else { p.wrapping_add(scaled) }, pbits))
        };
        match (pa, pb) {
            (Some(t), None) if matches!(op, BinOp::Add | BinOp::Sub) => {
                return Ok(Val::Int(offset(x, y, b, elem(t)?, op == BinOp::Sub)?, pbits));
            }
            (None, Some(t)) if op == BinOp::Add => return Ok(Val::Int(offset(y, x, a, elem(t)?, false)?, pbits)),
            (Some(t), Some(_)) if op == BinOp::Sub => {
                let (bits, _, _) = scalar(types, e.ty)?;
                let d = sext(mask(x.wrapping_sub(y), pbits), pbits);
                let size = elem(t)? as i128;
                // As the executor computes it: an arithmetic shift for powers of two, else division.
                let q = if size.count_ones() == 1 { d.div_euclid(size) } else { d / size };
                return Ok(Val::Int(mask(q as u128, bits), bits));
            }
            _ => {}
        }
        let (ab, asg, _) = scalar(types, a.ty)?;
        let (bb, bsg, _) = scalar(types, b.ty)?;
        let shift = matches!(op, BinOp::Shl | BinOp::Shr);
        // Operands have their common type, except shift amounts and a pointer compared with an
        // integer constant (compared in the wider width).
        let w = if shift { ab } else { ab.max(bb) };
        let (x, y) = if !shift && ab != bb {
            let ext = |v: u128, bits: u32, s: bool| if s { mask(sext(v, bits) as u128, w) } else { mask(v, bits) };
            (ext(x, ab, asg), ext(y, bb, bsg))
        } else {
            (x, y)
        };
        let signed = asg;
        let sx = sext(x, w);
        let sy = if shift { sext(y, bb) } else { sext(y, w) };
        let res = match op {
            BinOp::Add => mask(x.wrapping_add(y), w),
            BinOp::Sub => mask(x.wrapping_sub(y), w),
            BinOp::Mul => mask(x.wrapping_mul(y), w),
            BinOp::BitAnd => x & y,
            BinOp::BitOr => x | y,
            BinOp::BitXor => x ^ y,
            BinOp::Div | BinOp::Rem => {
                if mask(y, w) == 0 {
                    return ub(UbKind::DivByZero);
                }
                if signed {
                    if sx == -(1i128 << (w - 1)) && sy == -1 {
                        return ub(UbKind::DivOverflow);
                    }
                    mask(if op == BinOp::Div { sx / sy } else { sx % sy } as u128, w)
                } else if op == BinOp::Div {
                    x / y
                } else {
                    x % y
                }
            }
            BinOp::Shl | BinOp::Shr => {
                let amount = if bsg { sy } else { mask(y, bb) as i128 };
                if amount < 0 || amount >= w as i128 {
                    return ub(UbKind::ShiftOutOfRange);
                }
                let amount = amount as u32;
                match (op, signed) {
                    (BinOp::Shl, _) => mask(x << amount, w),
                    (_, true) => mask((sx >> amount) as u128, w),
                    _ => x >> amount,
                }
            }
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                let ord = if signed { sx.cmp(&sy) } else { x.cmp(&y) };
                let r = match op {
                    BinOp::Lt => ord.is_lt(),
                    BinOp::Gt => ord.is_gt(),
                    BinOp::Le => ord.is_le(),
                    BinOp::Ge => ord.is_ge(),
                    BinOp::Eq => ord.is_eq(),
                    _ => ord.is_ne(),
                };
                r as u128
            }
            BinOp::LogAnd | BinOp::LogOr => unreachable!("handled above"),
        };
        let (rb, _, _) = scalar(types, e.ty)?;
        Ok(Val::Int(mask(res, rb), rb))
    }

    fn place(&mut self, e: &Expr) -> R<Place> {
        let types = self.types();
        match &e.kind {
            ExprKind::Var(v) => self.var_place(*v),
            ExprKind::Str(s) => {
                Ok(Place { addr: self.layout.address(self.w.str_obj(*s), 0), ty: e.ty, bitfield: None })
            }
            ExprKind::Func(f) => {
                Ok(Place { addr: self.layout.address(self.w.func_obj(*f), 0), ty: e.ty, bitfield: None })
            }
            ExprKind::Deref(p) => Ok(Place { addr: self.int(p)?, ty: e.ty, bitfield: None }),
            ExprKind::Index(base, idx) => {
                let p = self.int(base)?;
                let i = self.int(idx)?;
                let (ib, is, _) = scalar(types, idx.ty)?;
                let Some(size) = types.size_of(e.ty) else { return unsupported("indexing an incomplete type") };
                let wide = if is { sext(i, ib) as u128 } else { mask(i, ib) };
                let addr = mask(p.wrapping_add(wide.wrapping_mul(size as u128)), self.layout.ptr_bits);
                // As the executor: a subscript whose offset carries into the object id leaves its
                // object.
                if self.layout.split_const(p).0 != self.layout.split_const(addr).0 {
                    return ub(UbKind::InvalidAccess);
                }
                Ok(Place { addr, ty: e.ty, bitfield: None })
            }
            ExprKind::Member { base, field, arrow, .. } => {
                let (addr, rec) = if *arrow {
                    let Some(t) = types.pointee(base.ty) else { return unsupported("'->' on a non-pointer") };
                    (self.int(base)?, t)
                } else {
                    (self.place(base)?.addr, base.ty)
                };
                let TypeKind::Record(r) = types.kind(rec) else { return unsupported("member of a non-record") };
                let Some(f) = types.record(*r).fields.as_ref().and_then(|fs| fs.get(*field)) else {
                    return unsupported("member of an incomplete struct");
                };
                let addr = mask(addr.wrapping_add(f.offset as u128), self.layout.ptr_bits);
                Ok(Place { addr, ty: f.ty, bitfield: f.bitfield })
            }
            ExprKind::Cast(inner, _) if types.size_of(inner.ty) == types.size_of(e.ty) => {
                let p = self.place(inner)?;
                Ok(Place { ty: e.ty, ..p })
            }
            _ => unsupported("an lvalue of this form"),
        }
    }

    fn read(&mut self, p: &Place) -> R<Val> {
        let types = self.types();
        let size = match types.size_of(p.ty) {
            Some(s) => s,
            None if matches!(types.kind(p.ty), TypeKind::Array(..)) => 0,
            None => return unsupported("reading a value of incomplete type"),
        };
        if let Some((bit, width)) = p.bitfield {
            let (bits, signed, _) = scalar(types, p.ty)?;
            let unit = self.read_bytes(p.addr, bitfield_bytes(bit, width))?;
            let u = unit.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128);
            let f = mask(u >> bit, width);
            let v = if signed { mask(sext(f, width) as u128, bits) } else { f };
            return Ok(Val::Int(v, bits));
        }
        match types.kind(p.ty) {
            TypeKind::Int(_) | TypeKind::Pointer(_) => {
                if matches!(types.kind(p.ty), TypeKind::Pointer(_)) {
                    if let Some(v) = self.unknown_pointer_read(p.addr, size)? {
                        return Ok(Val::Int(v, self.layout.ptr_bits));
                    }
                }
                let bytes = self.read_bytes(p.addr, size)?;
                let v = bytes.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128);
                let (bits, _, is_bool) = scalar(types, p.ty)?;
                if is_bool {
                    return Ok(Val::Int((v != 0) as u128, 8));
                }
                Ok(Val::Int(v, bits))
            }
            _ => Ok(Val::Bytes(self.read_bytes(p.addr, size)?)),
        }
    }

    /// A pointer read from bytes never written: null, fresh memory or an address in the memory it is
    /// read from, as the input says.
    fn unknown_pointer_read(&mut self, addr: u128, size: u64) -> R<Option<u128>> {
        let (id, off) = self.layout.split_const(addr);
        let Some(Some(o)) = self.objs.get(id as usize) else { return Ok(None) };
        if id == 0 || off + size > o.size || o.default.is_some() || (off..off + size).any(|k| o.bytes.contains_key(&k))
        {
            return Ok(None);
        }
        let (key, kind) = ((o.alloc, off), o.kind);
        if self.uninit.get(&key).is_some_and(|(_, i)| !i.pointer_choice) {
            // The executor read these bytes as bytes (at an address it could not tie to one place,
            // `Exec::unknown_pointer_read`): so does the run, and it makes no fresh memory.
            return Ok(None);
        }
        let input = self.uninit.get(&key).map(|&(i, _)| i);
        let lazy = self.alloc(self.layout.max_size(), Kind::Lazy, None, AllocOrigin::Lazy { input })?;
        let choice = self.uninit.get(&key).map_or(PointerChoice::Null, |(_, i)| PointerChoice::of(i.value));
        let v = match choice {
            PointerChoice::Null => 0,
            PointerChoice::Fresh => self.layout.address(lazy, self.layout.lazy_offset()),
            PointerChoice::Alias { offset, wild } => {
                let id = match self.layout.wild_bit() {
                    Some(bit) if wild => id | 1 << bit,
                    _ => id,
                };
                if kind != Kind::Lazy || offset >= self.layout.max_size() {
                    return unsupported("an alias of memory that is not fresh");
                }
                self.layout.address(id, offset)
            }
        };
        let bytes: Vec<u8> = (0..size).map(|k| (v >> (8 * k)) as u8).collect();
        let o = self.objs[id as usize].as_mut().expect("live");
        for (k, b) in bytes.into_iter().enumerate() {
            o.bytes.insert(off + k as u64, b);
        }
        Ok(Some(v))
    }

    fn write(&mut self, p: &Place, v: Val) -> R<()> {
        if let Some((bit, width)) = p.bitfield {
            let Val::Int(x, _) = v else { return unsupported("a non-scalar stored into a bit-field") };
            let size = bitfield_bytes(bit, width);
            let unit = self.read_bytes(p.addr, size)?;
            let mut u = unit.iter().rev().fold(0u128, |acc, &b| acc << 8 | b as u128);
            let m = mask(u128::MAX, width) << bit;
            u = (u & !m) | ((mask(x, width) << bit) & m);
            let bytes: Vec<u8> = (0..size).map(|k| (u >> (8 * k)) as u8).collect();
            return self.write_bytes(p.addr, &bytes);
        }
        let bytes = match v {
            Val::Int(x, bits) => (0..bits.div_ceil(8)).map(|k| (x >> (8 * k)) as u8).collect(),
            Val::Bytes(b) => b,
        };
        self.write_bytes(p.addr, &bytes)
    }
}

impl Initialize for Interp<'_> {
    type Place = Place;
    type Error = Stop;

    fn sub_place(&mut self, place: &Place, step: InitStep) -> R<Place> {
        match initializer::sub_object(self.types(), place.ty, step) {
            Ok(sub) => Ok(Place { addr: place.addr + sub.offset as u128, ty: sub.ty, bitfield: sub.bitfield }),
            Err(why) => unsupported(why),
        }
    }

    fn init_place(&mut self, place: &Place, x: &Expr) -> R<()> {
        if let Some(bytes) = initializer::string_bytes(self.prog, place.ty, x) {
            return self.write_bytes(place.addr, &bytes);
        }
        let v = self.rvalue(x)?;
        self.write(place, v)
    }
}
