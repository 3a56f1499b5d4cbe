//! The transfer function: what one CFA edge does to a symbolic state.
//!
//! `Exec::edge` evaluates the edge's expressions over the state's memory (`memory`) with the integer
//! rules of `semantics`, performs its effect (assignment, declaration, call, return, library model),
//! and moves the state to the edge's target. Conditions of assume edges are returned to the explorer,
//! which decides feasibility; undefined behaviour found on the way is collected as conditions
//! (`Exec::ub`) for the explorer to split on. A construct the executor cannot model is an
//! `Unsupported` error: the explorer cuts the path with that reason.
//!
//! Library functions (calls of functions without body) with a model, by name:
//! - `__VERIFIER_nondet_T` for every `T` (and any other function without body): a fresh value of the
//!   return type; `_Bool` results are 0 or 1; pointer results are null or fresh memory (see below).
//! - `reach_error`, `__VERIFIER_error` (property `unreach-call`), `__assert_fail`, `__assert_rtn`,
//!   `__assert` (always): a property violation.
//! - `abort`, `exit`, `_exit`, `_Exit`, `__builtin_trap`, `__builtin_unreachable`: the path ends.
//! - `__VERIFIER_assume(c)` (when the CFA did not already turn it into assume edges): continue only
//!   if `c`.
//! - `malloc`, `alloca`, `__builtin_alloca`, `calloc`, `free`, `memset`, `memcpy`, `memmove` (and
//!   their `__builtin_` forms): exact for concrete sizes; `malloc` never fails; a symbolic size gives
//!   a block of the largest size whose accesses are in bounds only below that size
//!   (`memory::Object::limit`), and a size larger than an object can be cuts the path.
//! - `__builtin_expect(e, c)`: `e`. `__VERIFIER_atomic_begin`/`_end`: nothing.
//! - Output functions (`printf`, `puts`, `putchar`, `fprintf`, `printk`, ...): no effect; a used
//!   result is arbitrary (an approximation).
//! - Other C library functions whose meaning is fixed (`strcmp`, `strlen`, `memcmp`, `atoi`, ...):
//!   not modelled; the result is arbitrary and the path is an approximation (no verdict from it).
//! - Any other function without body: the result is arbitrary; if it receives a pointer it might
//!   write through it, which is not modelled, so the exploration can no longer prove the program.
//!
//! An unknown pointer (the result of `__VERIFIER_nondet_pointer` or of a function without body, or
//! a pointer read from memory never written) is modelled as either null or the address of fresh
//! memory of its own (a `Lazy` object), chosen by a one-bit input. This cannot express aliasing
//! with other objects, so such paths give neither TRUE nor FALSE on their own.

use crate::libmodels::LibFn;
use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;

use super::initializer::{self, Initialize};
use super::memory::{bv_to_bytes, bytes_to_bv, Byte, Escape, Layout, MemCtx, Memory, ObjId, ObjKind, Object};
use super::semantics::{self, Repr, UbKind, Unsupported};
use super::state::{Approx, Conjunct, Facts, Frame, InputKind, List, SymInput, SymState};
use crate::cfa::{Cfa, EdgeId, EdgeKind, GlobalKind};
use crate::cfront;
use crate::cfront::ir::{BinOp, Expr, ExprKind, FuncId, Init, InitStep, Program, StrId, UnOp, VarId, VarKind};
use crate::cfront::types::{bitfield_bytes, IntRank, TypeId, TypeKind, Types};
use crate::sat::{Aig, AigLit, Bv, MAX_WIDTH};

/// Which property the exploration checks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Property {
    /// `reach_error()` (or `__VERIFIER_error()`) is never called (SV-COMP `unreach-call`).
    #[default]
    UnreachCall,
    /// No label named `ERROR` (in any case) is reached (CPAchecker's ErrorLabel specification).
    ErrorLabel,
    /// Both: violating calls and `ERROR` labels (the default of `vcov coverage`, which meets programs
    /// written for either specification).
    Any,
}

impl Property {
    /// Whether reaching a label named `ERROR` (in any case) violates this property.
    pub fn labels_violate(self) -> bool {
        matches!(self, Property::ErrorLabel | Property::Any)
    }
}

/// Facts about the program that every state shares.
pub struct World<'a> {
    /// The program.
    pub prog: &'a Program,
    /// Its CFA.
    pub cfa: &'a Cfa,
    /// Address layout.
    pub layout: Layout,
    /// The property checked.
    pub property: Property,
    /// Variables abstracted away (`ExploreConfig::havoc`).
    pub havoc: HashSet<VarId>,
    /// Whether functions without body write arbitrary values (`ExploreConfig::havoc_extern_writes`).
    pub havoc_extern_writes: bool,
    /// Whether links read from fresh memory may point back into it (`ExploreConfig::alias_links`).
    pub alias_links: bool,
    lib: Vec<LibFn>,
}

/// What an edge did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Effect {
    /// The state is at the edge's target.
    Moved,
    /// The state is at the edge's target if `lit` holds (an assume edge, or `__VERIFIER_assume`).
    Assume(AigLit),
    /// The path ends with this edge.
    End(EndKind),
}

/// How a path ends on an edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndKind {
    /// The program terminated: `main` returned.
    Exit,
    /// The program stopped: `abort()`, `exit()`, or a location that ends paths.
    Halt,
    /// The property is violated.
    Violation,
}

/// The explorer's side of the executor: values of a bit-vector under the current path condition.
pub(crate) trait Oracle {
    /// The values `bv` can take under the path condition `pc`, if there are at most `max`.
    fn possible_values(&mut self, aig: &mut Aig, pc: &List<Conjunct>, bv: &Bv, max: usize) -> Option<Vec<u128>>;
    /// A value `bv` takes where the path condition `pc` and `lit` hold (`None`: nowhere, or the
    /// solver gave up).
    fn a_value(&mut self, aig: &mut Aig, pc: &List<Conjunct>, bv: &Bv, lit: AigLit) -> Option<u128>;
}

/// A value: a scalar's bits, or the bytes of an aggregate (or of a float).
#[derive(Clone, Debug)]
pub(crate) enum Value {
    Scalar(Bv),
    Bytes(Vec<Byte>),
}

/// An lvalue: address, type and bit-field position.
#[derive(Clone, Debug)]
pub(super) struct Place {
    addr: Bv,
    ty: TypeId,
    bitfield: Option<(u32, u32)>,
}

/// Executes edges on one state.
pub(crate) struct Exec<'w, 'a> {
    pub w: &'w World<'a>,
    pub aig: &'w mut Aig,
    pub st: &'w mut SymState,
    pub oracle: &'w mut dyn Oracle,
    /// Conditions of undefined behaviour met so far, with their kinds.
    pub ub: Vec<(AigLit, UbKind)>,
    /// Conditions the step assumed to go on (`pinned`, `pointer_call`), each with what the rest is:
    /// the path continues where they all hold, the rest of it is cut as unsupported.
    pub narrowed: Vec<(AigLit, &'static str)>,
    /// The condition under which the expression being evaluated is evaluated (short circuits).
    guard: AigLit,
    /// While `per_pin` runs an access once per object it may reach: the fresh object of the unknown
    /// pointer that access reads, once one pin made it. The pins are alternatives (a concrete run
    /// takes one), so they share the one object and its allocation number, as the interpreter,
    /// which makes the read once, numbers it.
    pin_lazy: Option<Option<ObjId>>,
}

type R<T> = Result<T, Unsupported>;

/// Whether `ty` points to a list link: a struct or union all of whose members point to its own type
/// (`list_head`) or to such a pointer (`hlist_node::pprev`). Only such pointers read from fresh
/// memory may alias it (`Exec::unknown_pointer`): where a list ends is where a link points back into
/// the memory that holds it. Offering the alias to every pointer would make every access through an
/// unknown pointer one at an arbitrary offset, and even records with a member of their own type
/// (a device and its parent) are too many: kbtab-predicate, exact in a second without the alias,
/// did not end in 60 s with it.
pub(super) fn points_to_linked_record(types: &Types, ty: TypeId) -> bool {
    let Some(TypeKind::Record(r)) = types.pointee(ty).map(|t| types.kind(t)) else { return false };
    let fields = types.record(*r).fields.as_deref().unwrap_or(&[]);
    // A link to the record itself, or (`hlist_node::pprev`) to such a link.
    let link = |t: TypeId| {
        let to = types.pointee(t);
        let to = to.and_then(|p| types.pointee(p).filter(|_| matches!(types.kind(p), TypeKind::Pointer(_)))).or(to);
        matches!(to.map(|t| types.kind(t)), Some(TypeKind::Record(q)) if q == r)
    };
    !fields.is_empty() && fields.iter().all(|f| link(f.ty))
}

/// `a` where `c` holds, else `b`: two reads of the same place (a scalar against bytes as bytes).
fn merge_values(aig: &mut Aig, c: AigLit, a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) if x.width() == y.width() => Value::Scalar(Bv::ite(aig, c, &x, &y)),
        (a, b) => {
            let bytes = |v: Value| match v {
                Value::Scalar(x) => bv_to_bytes(&x),
                Value::Bytes(b) => b,
            };
            Value::Bytes(merge_bytes(aig, c, bytes(a), bytes(b)))
        }
    }
}

/// `a` where `c` holds, else `b`, byte by byte (of equal length).
fn merge_bytes(aig: &mut Aig, c: AigLit, a: Vec<Byte>, b: Vec<Byte>) -> Vec<Byte> {
    debug_assert_eq!(a.len(), b.len(), "merging reads of different sizes");
    a.iter().zip(&b).map(|(&x, &y)| Byte::ite(aig, c, x, y)).collect()
}

/// Why the rest of a path whose `malloc` of a symbolic size may be larger than an object can be is
/// cut.
pub(super) const LARGE_ALLOCATION: &str = "an allocation larger than the address layout holds";

/// Why the rest of a path whose access was pinned to one address (`Exec::pinned`) is cut.
pub(super) const PINNED: &str = "an access at a symbolic offset in a large object, explored at one offset";

/// Why a path that calls through a function pointer read from fresh memory is cut: a function the
/// environment provides, which vcov does not model (the pointer is not null, so the call is not
/// undefined; calling the fresh data object it stands for would be).
pub(super) const ENVIRONMENT_FUNCTION: &str = "a call through a function pointer the environment provides";

/// How far from where fresh memory is pointed to (`Layout::lazy_offset`) a pinned access
/// (`Exec::pinned`) is placed if it can be, nearest first.
const CONCRETE_WINDOWS: [u64; 2] = [1 << 12, 1 << 20];

/// The `MemCtx` of one state: fresh bytes become its inputs.
struct Ctx<'x> {
    aig: &'x mut Aig,
    inputs: &'x mut List<SymInput>,
    pc: &'x List<Conjunct>,
    facts: &'x Facts,
    approx: &'x mut Approx,
    havoc_extern_writes: bool,
    oracle: &'x mut dyn Oracle,
}

impl MemCtx for Ctx<'_> {
    fn aig(&mut self) -> &mut Aig {
        self.aig
    }

    fn fresh_byte(&mut self, alloc: u32, offset: u64) -> Byte {
        let bv = Bv::input(self.aig, 8);
        let b = Byte::of(&bv, 0);
        self.inputs.push(SymInput { kind: InputKind::Uninit { alloc, offset }, ty: None, pointer_choice: false, bv });
        b
    }

    fn possible_values(&mut self, bv: &Bv, max: usize) -> Option<Vec<u128>> {
        self.oracle.possible_values(self.aig, self.pc, bv, max)
    }

    fn fixed(&mut self, bv: &Bv) -> Option<u128> {
        self.facts.value_of(self.aig, bv)
    }

    fn fixed_assuming(&mut self, bv: &Bv, assume: AigLit) -> Option<u128> {
        let mut facts = self.facts.clone();
        facts.learn(self.aig, assume);
        facts.value_of(self.aig, bv)
    }

    /// The path reads what a function without body may have written: in the over-approximating
    /// exploration an arbitrary value, otherwise an approximation of the path.
    fn read_stale(&mut self) -> bool {
        let a = if self.havoc_extern_writes { Approx::ABSTRACT } else { Approx::EXTERN_WRITE };
        *self.approx = self.approx.union(a);
        self.havoc_extern_writes
    }
}

impl<'a> World<'a> {
    /// The shared facts of `prog` and `cfa` for checking `property`.
    pub fn new(prog: &'a Program, cfa: &'a Cfa, property: Property) -> World<'a> {
        let lib = prog.funcs.iter().map(|f| LibFn::of(&f.name)).collect();
        World {
            prog,
            cfa,
            layout: Layout::for_model(prog.data_model()),
            property,
            havoc: HashSet::new(),
            havoc_extern_writes: false,
            alias_links: false,
            lib,
        }
    }

    /// The object id of function `f`.
    pub fn func_obj(&self, f: FuncId) -> ObjId {
        1 + f.0
    }

    /// The object id of string literal `s`.
    pub fn str_obj(&self, s: StrId) -> ObjId {
        1 + self.prog.funcs.len() as u32 + s.0
    }

    /// The first id not reserved for functions and strings.
    pub fn first_dynamic(&self) -> ObjId {
        1 + (self.prog.funcs.len() + self.prog.strings.len()) as u32
    }

    /// The function whose object is `id`, if any.
    pub fn obj_func(&self, id: ObjId) -> Option<FuncId> {
        (id >= 1 && (id as usize) <= self.prog.funcs.len()).then(|| FuncId(id - 1))
    }

    pub(crate) fn lib(&self, f: FuncId) -> LibFn {
        self.lib[f.idx()]
    }

    /// Why a call of `f` is not modelled, when the program calls `f` without ever declaring it and
    /// no model knows the name: nothing says what it does (a call of `assert` whose header was not
    /// included would hide every failed assertion), so the executor and the interpreter cut the path
    /// there rather than guess.
    pub(crate) fn undeclared_call(&self, f: FuncId) -> Option<String> {
        let func = self.prog.func(f);
        (func.implicit && func.body.is_none() && self.lib(f) == LibFn::Unknown)
            .then(|| format!("a call of '{}', which the program never declares (is an #include missing?)", func.name))
    }

    /// Whether calling `f` (with or without body) violates the property.
    pub fn is_violation_call(&self, f: FuncId) -> bool {
        match self.lib(f) {
            LibFn::ReachError => matches!(self.property, Property::UnreachCall | Property::Any),
            LibFn::AssertFail => true,
            _ => false,
        }
    }

    /// The value gcc at `-O0` gives `__builtin_object_size(ptr, kind)` (`cfront::object_size`), as a
    /// `size_t` of the data model; unsupported where gcc's folding is not known.
    pub(crate) fn object_size(&self, ptr: &Expr, kind: &Expr) -> R<u128> {
        let bits = self.layout.ptr_bits;
        let size = cfront::eval_int(&self.prog.types, kind)
            .and_then(|k| cfront::object_size(&self.prog.types, &self.prog.strings, ptr, k))
            .ok_or_else(|| Unsupported("__builtin_object_size of an object of unknown size or kind".into()))?;
        Ok(match size {
            cfront::ObjectSize::Known(n) => n as u128,
            cfront::ObjectSize::Unknown { all_ones: true } => (1u128 << bits) - 1,
            cfront::ObjectSize::Unknown { all_ones: false } => 0,
        })
    }

    /// Whether reaching a location with this label violates the property.
    pub fn is_error_label(&self, label: &str) -> bool {
        self.property.labels_violate() && label.eq_ignore_ascii_case("error")
    }

    /// For every CFA edge (by index), whether a path that takes it may end there at a violation of
    /// the property: the edge enters a location with an error label, calls a function whose call
    /// violates it, or calls through a function pointer in a program that has such a function. A
    /// path that takes no such edge never violates the property (the executor ends a path at a
    /// violation only on these edges).
    pub fn violating_edges(&self) -> Vec<bool> {
        let cfa = self.cfa;
        let violating_fn = (0..self.prog.funcs.len()).any(|i| self.is_violation_call(FuncId::from_idx(i)));
        let mut out = vec![false; cfa.n_edges()];
        for (id, e) in cfa.edges() {
            let to_error = cfa.node(e.dst).label.as_deref().is_some_and(|l| self.is_error_label(l));
            let calls = match &e.kind {
                EdgeKind::Call(cs) => self.is_violation_call(cfa.call_site(*cs).callee),
                EdgeKind::ExternCall { callee, .. } => match &callee.strip_implicit().kind {
                    ExprKind::Func(f) => self.is_violation_call(*f),
                    _ => violating_fn,
                },
                _ => false,
            };
            out[id.idx()] = to_error || calls;
        }
        out
    }

    /// The types of the program.
    pub fn types(&self) -> &Types {
        &self.prog.types
    }

    /// The initial state: at the program's entry, with memory for functions and string literals and
    /// `main`'s frame (parameters and return variable allocated, never written).
    pub fn initial_state(&self, aig: &mut Aig) -> R<SymState> {
        let _ = aig;
        let mut mem = Memory::new(self.layout, self.first_dynamic());
        for (i, _) in self.prog.funcs.iter().enumerate() {
            let f = FuncId::from_idx(i);
            mem.place(self.func_obj(f), Object::new(0, ObjKind::Func(f), 0, Byte::constant(0)));
        }
        for (i, s) in self.prog.strings.iter().enumerate() {
            let mut obj = Object::new(s.len() as u64, ObjKind::Str, 0, Byte::constant(0));
            for (k, &b) in s.iter().enumerate() {
                if b != 0 {
                    obj.set_byte(k as u64, Byte::constant(b));
                }
            }
            mem.place(self.str_obj(StrId::from_idx(i)), obj);
        }
        let main = self.cfa.main;
        let mut st = SymState {
            node: self.cfa.entry(),
            frames: vec![Frame { func: main, call_site: None, locals: vec![], loop_counts: vec![] }],
            globals: Rc::new(BTreeMap::new()),
            mem,
            pc: List::new(),
            path: List::new(),
            inputs: List::new(),
            n_allocs: 0,
            approx: if self.havoc.is_empty() { Approx::NONE } else { Approx::ABSTRACT },
            pc_inputs: Default::default(),
            pc_lits: Default::default(),
            facts: Default::default(),
        };
        let mut locals: Vec<VarId> = self.prog.func(main).params.clone();
        if let Some(rv) = self.cfa.func(main).and_then(|f| f.ret_var) {
            locals.push(rv);
        }
        for v in locals {
            alloc_var(self, &mut st, v, Byte::uninit())?;
        }
        Ok(st)
    }
}

/// Allocates the object of variable `v` in `st` (a global, or a local of the top frame), filled with
/// `fill`, and binds it. A local already bound gets fresh contents under the same id.
fn alloc_var(w: &World, st: &mut SymState, v: VarId, fill: Byte) -> R<ObjId> {
    let var = w.prog.var(v);
    let size = match w.types().size_of(var.ty) {
        Some(s) => s,
        None if matches!(w.types().kind(var.ty), TypeKind::Array(_, None)) => 0,
        None => return Err(Unsupported(format!("variable '{}' of incomplete type", var.name))),
    };
    let alloc = st.n_allocs;
    st.n_allocs += 1;
    let mut obj = Object::new(size, ObjKind::Var(v), alloc, fill);
    if w.havoc.contains(&v) {
        obj = Object::new(size, ObjKind::Var(v), alloc, Byte::uninit());
        obj.havoc = true;
    }
    let global = matches!(var.kind, VarKind::Global | VarKind::StaticLocal(_));
    let existing = if global { st.globals.get(&v).copied() } else { st.top().local(v) };
    if let Some(id) = existing {
        *st.mem.get_mut(id).expect("bound object is live") = obj;
        return Ok(id);
    }
    let id = st.mem.alloc(obj)?;
    if global {
        Rc::make_mut(&mut st.globals).insert(v, id);
    } else {
        st.top_mut().bind(v, id);
    }
    Ok(id)
}

impl<'w, 'a> Exec<'w, 'a> {
    /// An executor for one step of `st`.
    pub fn new(w: &'w World<'a>, aig: &'w mut Aig, st: &'w mut SymState, oracle: &'w mut dyn Oracle) -> Self {
        Exec { w, aig, st, oracle, ub: Vec::new(), narrowed: Vec::new(), guard: AigLit::TRUE, pin_lazy: None }
    }

    fn types(&self) -> &'a Types {
        &self.w.prog.types
    }

    /// Executes edge `e` from the state's location.
    pub fn edge(&mut self, e: EdgeId) -> R<Effect> {
        let cfa = self.w.cfa;
        let edge = cfa.edge(e);
        let effect = match &edge.kind {
            EdgeKind::Blank(_) | EdgeKind::TypeDecl | EdgeKind::Summary(_) => Effect::Moved,
            EdgeKind::Global(GlobalKind::Type | GlobalKind::Function(_)) => Effect::Moved,
            EdgeKind::Global(GlobalKind::Var { var, init }) => {
                let fill =
                    if self.w.prog.var(*var).is_extern && init.is_none() { Byte::uninit() } else { Byte::constant(0) };
                alloc_var(self.w, self.st, *var, fill)?;
                if let Some(init) = init {
                    self.init_var(*var, init)?;
                }
                Effect::Moved
            }
            EdgeKind::Decl { var, init } => {
                let fill = if matches!(init, Some(Init::List(_))) { Byte::constant(0) } else { Byte::uninit() };
                alloc_var(self.w, self.st, *var, fill)?;
                if let Some(init) = init {
                    self.init_var(*var, init)?;
                }
                Effect::Moved
            }
            EdgeKind::Assign { lhs, rhs } => {
                let place = self.place(lhs)?;
                let v = self.rvalue(rhs)?;
                self.write(&place, v)?;
                Effect::Moved
            }
            EdgeKind::Eval(x) => {
                self.rvalue(x)?;
                Effect::Moved
            }
            EdgeKind::Assume { cond, truth } => {
                let lit = self.condition(cond)?;
                Effect::Assume(if *truth { lit } else { !lit })
            }
            EdgeKind::ExternCall { lhs, callee, args } => self.extern_call(e, lhs.as_ref(), callee, args)?,
            EdgeKind::Call(cs) => {
                let site = cfa.call_site(*cs);
                if self.w.is_violation_call(site.callee) {
                    return Ok(Effect::End(EndKind::Violation));
                }
                if site.incompatible_argument(self.w.prog).is_some() {
                    self.ub.push((self.guard, UbKind::IncompatibleCall));
                    return Ok(Effect::Moved);
                }
                let values: Vec<Value> = site.args.iter().map(|a| self.rvalue(a)).collect::<R<_>>()?;
                self.st.frames.push(Frame {
                    func: site.callee,
                    call_site: Some(*cs),
                    locals: vec![],
                    loop_counts: vec![],
                });
                let func = self.w.prog.func(site.callee);
                for (i, &p) in func.params.iter().enumerate() {
                    let id = alloc_var(self.w, self.st, p, Byte::uninit())?;
                    if let Some(v) = values.get(i) {
                        let place =
                            Place { addr: self.w.layout.address_bv(id, 0), ty: self.w.prog.var(p).ty, bitfield: None };
                        self.write(&place, v.clone())?;
                    }
                }
                if let Some(rv) = cfa.func(site.callee).and_then(|f| f.ret_var) {
                    alloc_var(self.w, self.st, rv, Byte::uninit())?;
                }
                Effect::Moved
            }
            EdgeKind::Return(cs) => {
                let site = cfa.call_site(*cs);
                let ret_var = cfa.func(site.callee).and_then(|f| f.ret_var);
                let result = match (ret_var, &site.lhs) {
                    (Some(rv), Some(_)) => {
                        let place = self.var_place(rv)?;
                        Some((self.read(&place)?, self.w.prog.var(rv).ty))
                    }
                    _ => None,
                };
                let frame = self.st.frames.pop().expect("a return has a frame to pop");
                for (_, id) in frame.locals {
                    self.st.mem.free(id);
                }
                if let (Some((v, from)), Some(lhs)) = (result, &site.lhs) {
                    let place = self.place(lhs)?;
                    let v = self.convert_value(v, from, place.ty)?;
                    self.write(&place, v)?;
                }
                Effect::Moved
            }
            EdgeKind::ReturnStmt(value) => {
                if let Some(x) = value {
                    let v = self.rvalue(x)?;
                    let f = self.st.top().func;
                    if let Some(rv) = cfa.func(f).and_then(|fc| fc.ret_var) {
                        let place = self.var_place(rv)?;
                        let v = self.convert_value(v, x.ty, place.ty)?;
                        self.write(&place, v)?;
                    }
                }
                Effect::Moved
            }
        };
        if !matches!(effect, Effect::End(_)) {
            self.st.node = edge.dst;
        }
        Ok(effect)
    }

    /// The truth value of a scalar condition.
    pub fn condition(&mut self, cond: &Expr) -> R<AigLit> {
        let v = self.scalar(cond)?;
        Ok(semantics::truth(self.aig, &v))
    }

    // ----- library models -----

    fn extern_call(&mut self, e: EdgeId, lhs: Option<&Expr>, callee: &Expr, args: &[Expr]) -> R<Effect> {
        let direct = match &callee.strip_implicit().kind {
            ExprKind::Func(f) => Some(*f),
            _ => None,
        };
        let f = match direct {
            Some(f) => f,
            None => return self.pointer_call(e, lhs, callee, args),
        };
        self.lib_call(e, f, lhs, args)
    }

    /// A call through a function pointer that the CFA could not resolve to a function with body.
    fn pointer_call(&mut self, e: EdgeId, lhs: Option<&Expr>, callee: &Expr, args: &[Expr]) -> R<Effect> {
        let fp_expr = match &callee.strip_implicit().kind {
            ExprKind::Deref(inner) if self.types().pointee(inner.ty).is_some() => inner.as_ref(),
            _ => callee,
        };
        let fp = self.scalar(fp_expr)?;
        if let Some(addr) = self.fixed(&fp) {
            let (obj, off) = self.w.layout.split_const(addr);
            return match self.w.obj_func(obj) {
                Some(f) if off == 0 && self.w.prog.func(f).body.is_none() => self.lib_call(e, f, lhs, args),
                Some(f) if off == 0 => Err(Unsupported(format!(
                    "a call through a pointer to '{}' whose type does not fit the call",
                    self.w.prog.func(f).name
                ))),
                None if self.st.mem.get(obj).is_some_and(|o| o.kind == ObjKind::Lazy) => {
                    Err(Unsupported(ENVIRONMENT_FUNCTION.into()))
                }
                _ => {
                    self.ub.push((self.guard, UbKind::InvalidCall));
                    Ok(Effect::Moved)
                }
            };
        }
        // Null is undefined; fresh memory is a function of the environment (cut); any other value
        // is code we do not know.
        let null = fp.is_zero(self.aig);
        let g = self.aig.and(self.guard, null);
        self.ub.push((g, UbKind::InvalidCall));
        let (mem, mut ctx) = self.mem_ctx();
        if let Ok(t) = mem.targets(&mut ctx, &fp) {
            let mut fresh = AigLit::FALSE;
            for &(id, denotes) in &t.objs {
                if self.st.mem.get(id).is_some_and(|o| o.kind == ObjKind::Lazy) {
                    fresh = self.aig.or(fresh, denotes);
                }
            }
            if fresh != AigLit::FALSE {
                let cut = self.aig.and(self.guard, fresh);
                self.narrowed.push((!cut, ENVIRONMENT_FUNCTION));
            }
        }
        self.unknown_call(e, None, lhs, args, LibFn::Unknown)
    }

    fn lib_call(&mut self, e: EdgeId, f: FuncId, lhs: Option<&Expr>, args: &[Expr]) -> R<Effect> {
        if let Some(reason) = self.w.undeclared_call(f) {
            return Err(Unsupported(reason));
        }
        let lib = self.w.lib(f).for_call(args.len());
        match lib {
            LibFn::ReachError | LibFn::AssertFail if self.w.is_violation_call(f) => Ok(Effect::End(EndKind::Violation)),
            // A violation function the property does not name: an unknown function.
            LibFn::ReachError | LibFn::AssertFail => self.unknown_call(e, Some(f), lhs, args, LibFn::Unknown),
            LibFn::Halt => Ok(Effect::End(EndKind::Halt)),
            LibFn::Assume => {
                let lit = self.condition(&args[0])?;
                Ok(Effect::Assume(lit))
            }
            LibFn::Malloc | LibFn::Calloc => {
                let mut size = self.scalar(&args[0])?;
                if lib == LibFn::Calloc {
                    let n = self.scalar(&args[1])?;
                    let (a, b) = (size.zext(128.min(MAX_WIDTH)), n.zext(128.min(MAX_WIDTH)));
                    size = a.mul(self.aig, &b);
                }
                let fill = if lib == LibFn::Calloc { Byte::constant(0) } else { Byte::uninit() };
                let addr = match size.as_const() {
                    Some(n) if n <= self.w.layout.max_size() as u128 => {
                        let id = self.new_object(n as u64, ObjKind::Heap, fill)?;
                        self.w.layout.address_bv(id, 0)
                    }
                    Some(n) => return Err(Unsupported(format!("an allocation of {n} bytes"))),
                    // A symbolic size: a block of the largest size, in bounds below that size
                    // (`Object::limit`). Where the size can exceed what the address layout holds,
                    // the rest of the path is cut as unsupported, as a constant size that large is.
                    None => {
                        let max = self.w.layout.max_size();
                        let fits = size.ule(self.aig, &Bv::constant(max as u128, size.width()));
                        if fits != AigLit::TRUE {
                            self.narrowed.push((fits, LARGE_ALLOCATION));
                        }
                        let id = self.new_object(max, ObjKind::Heap, fill)?;
                        self.st.mem.get_mut(id).expect("just made").limit = Some(Rc::new(size));
                        self.w.layout.address_bv(id, 0)
                    }
                };
                self.store_result(lhs, Value::Scalar(addr), None)?;
                Ok(Effect::Moved)
            }
            LibFn::Free => {
                let p = self.scalar(&args[0])?;
                self.free(&p)?;
                Ok(Effect::Moved)
            }
            LibFn::Memset => {
                let p = self.scalar(&args[0])?;
                let c = self.scalar(&args[1])?;
                let n = self.concrete_size(&args[2], "memset")?;
                let byte = Byte::of(&c, 0);
                if n > 0 {
                    let bytes = vec![byte; n as usize];
                    self.write_bytes(&p, &bytes)?;
                }
                self.store_result(lhs, Value::Scalar(p), None)?;
                Ok(Effect::Moved)
            }
            LibFn::Memcpy => {
                let d = self.scalar(&args[0])?;
                let s = self.scalar(&args[1])?;
                let n = self.concrete_size(&args[2], "memcpy")?;
                if n > 0 {
                    let bytes = self.read_bytes(&s, n)?;
                    self.write_bytes(&d, &bytes)?;
                }
                self.store_result(lhs, Value::Scalar(d), None)?;
                Ok(Effect::Moved)
            }
            LibFn::Expect => {
                let v = self.rvalue(&args[0])?;
                self.store_result(lhs, v, Some(args[0].ty))?;
                Ok(Effect::Moved)
            }
            LibFn::ObjectSize => {
                let n = self.w.object_size(&args[0], &args[1])?;
                self.store_result(lhs, Value::Scalar(Bv::constant(n, self.w.layout.ptr_bits)), None)?;
                Ok(Effect::Moved)
            }
            LibFn::Unsupported => {
                Err(Unsupported(format!("a call of '{}', which vcov does not model", self.w.prog.func(f).name)))
            }
            LibFn::Bswap => {
                let v = self.scalar(&args[0])?;
                let bits: Vec<_> = v.bits().chunks(8).rev().flatten().copied().collect();
                self.store_result(lhs, Value::Scalar(Bv::from_bits(bits)), Some(args[0].ty))?;
                Ok(Effect::Moved)
            }
            LibFn::Noop => Ok(Effect::Moved),
            LibFn::Output => {
                for a in args {
                    self.rvalue(a)?;
                }
                if lhs.is_some() {
                    self.st.approx = self.st.approx.union(Approx::UNMODELLED);
                }
                self.unknown_result(e, Some(f), lhs)?;
                Ok(Effect::Moved)
            }
            LibFn::Nondet | LibFn::Unmodelled | LibFn::Unknown => self.unknown_call(e, Some(f), lhs, args, lib),
        }
    }

    /// A function whose effect is unknown: evaluates the arguments, records the approximation, and
    /// gives an arbitrary result.
    fn unknown_call(
        &mut self,
        e: EdgeId,
        f: Option<FuncId>,
        lhs: Option<&Expr>,
        args: &[Expr],
        lib: LibFn,
    ) -> R<Effect> {
        let mut passed = Vec::new();
        for a in args {
            match self.rvalue(a)? {
                // A pointer, or an integer that may hold one.
                Value::Scalar(v) if v.width() == self.w.layout.ptr_bits => passed.push(v),
                Value::Scalar(_) => {}
                // An aggregate passed by value: the pointers stored in it are passed too.
                Value::Bytes(b) => {
                    let width = (self.w.layout.ptr_bits / 8) as usize;
                    passed.extend(b.chunks_exact(width).filter(|w| w.iter().all(|b| !b.is_uninit())).map(bytes_to_bv));
                }
            }
        }
        match lib {
            LibFn::Unmodelled => {
                self.st.approx = self.st.approx.union(Approx::UNMODELLED);
                // In the over-approximating exploration it writes like a function without body;
                // one that calls back into the program (`qsort`) is not over-approximated so.
                if self.w.havoc_extern_writes {
                    let callback = args.iter().any(|a| match self.types().kind(a.ty) {
                        TypeKind::Pointer(t) => matches!(self.types().kind(*t), TypeKind::Func(_)),
                        _ => false,
                    });
                    self.escape(&passed, callback);
                }
            }
            LibFn::Unknown => self.escape(&passed, false),
            _ => {}
        }
        self.unknown_result(e, f, lhs)?;
        Ok(Effect::Moved)
    }

    /// A function without body receives the pointer values `passed`: what they reach may be
    /// written from now on (`Memory::escape`; a later read of it is an approximation or, in the
    /// over-approximating exploration, an arbitrary value).
    fn escape(&mut self, passed: &[Bv], callback: bool) {
        let a = match self.st.mem.escape(self.aig, passed) {
            _ if callback => Approx::EXTERN_WRITE,
            Escape::Bounded => Approx::NONE,
            Escape::Unknown => Approx::LAZY_MEMORY,
            Escape::Unbounded => Approx::EXTERN_WRITE,
        };
        self.st.approx = self.st.approx.union(a);
    }

    /// Creates the arbitrary result of a call of `f` on edge `e` (an input, even if unused) and
    /// stores it into `lhs`.
    fn unknown_result(&mut self, e: EdgeId, f: Option<FuncId>, lhs: Option<&Expr>) -> R<()> {
        let ret = match f.map(|f| self.types().kind(self.w.prog.func(f).ty)) {
            Some(TypeKind::Func(ft)) => Some(ft.ret),
            _ => lhs.map(|l| l.ty),
        };
        let Some(ret) = ret else { return Ok(()) };
        let kind = InputKind::Call { edge: e, func: f };
        let v = match self.types().kind(ret) {
            TypeKind::Void => return Ok(()),
            TypeKind::Pointer(_) => self.unknown_pointer(kind, ret, None)?,
            TypeKind::Int(it) if it.rank == IntRank::Bool => {
                let bit = self.aig.new_input();
                let bv = semantics::bool_value(bit, 8);
                self.st.inputs.push(SymInput { kind, ty: Some(ret), pointer_choice: false, bv: bv.clone() });
                bv
            }
            _ => {
                let size = self.types().size_of(ret).unwrap_or(0);
                if size == 0 || size * 8 > MAX_WIDTH as u64 {
                    return Err(Unsupported(format!("an arbitrary value of type {}", self.types().display(ret))));
                }
                let bv = Bv::input(self.aig, size as u32 * 8);
                self.st.inputs.push(SymInput { kind, ty: Some(ret), pointer_choice: false, bv: bv.clone() });
                bv
            }
        };
        let value = match self.types().kind(ret) {
            TypeKind::Int(_) | TypeKind::Pointer(_) => Value::Scalar(v),
            _ => Value::Bytes(bv_to_bytes(&v)),
        };
        self.store_result(lhs, value, Some(ret))
    }

    /// An unknown pointer: null or the address of fresh memory of its own, chosen by a new one-bit
    /// input; read from fresh memory `container`, also an address in that memory (a list head of
    /// an empty list points to itself), chosen by a second bit, at an offset of new input bits, and
    /// under LP64 possibly wild (`Layout::wild_bit`), by a third bit (see `SymInput`).
    fn unknown_pointer(&mut self, kind: InputKind, ty: TypeId, container: Option<ObjId>) -> R<Bv> {
        let layout = self.w.layout;
        let choice = self.aig.new_input();
        let id = match self.pin_lazy {
            Some(Some(id)) => id,
            _ => self.new_object(layout.max_size(), ObjKind::Lazy, Byte::uninit())?,
        };
        if let Some(shared) = &mut self.pin_lazy {
            *shared = Some(id);
        }
        self.st.approx = self.st.approx.union(Approx::LAZY_MEMORY);
        let fresh = layout.address_bv(id, layout.lazy_offset());
        let null = Bv::zero(layout.ptr_bits);
        let (other, bv) = match container {
            Some(c) => {
                let alias = self.aig.new_input();
                let wild = if layout.wild_bit().is_some() { self.aig.new_input() } else { AigLit::FALSE };
                let off = Bv::input(self.aig, layout.off_bits);
                let inside = layout.alias_address_bv(c, &off, wild);
                let other = Bv::ite(self.aig, alias, &inside, &null);
                (other, off.concat(&Bv::from_bits(vec![choice, alias, wild])))
            }
            None => (null, Bv::from_bool(choice)),
        };
        let v = Bv::ite(self.aig, choice, &fresh, &other);
        self.st.inputs.push(SymInput { kind, ty: Some(ty), pointer_choice: true, bv });
        Ok(v)
    }

    /// Stores a call result of type `from` (the value's own type when given) into `lhs`.
    fn store_result(&mut self, lhs: Option<&Expr>, v: Value, from: Option<TypeId>) -> R<()> {
        let Some(lhs) = lhs else { return Ok(()) };
        let place = self.place(lhs)?;
        let v = match (from, &v) {
            (Some(from), _) => self.convert_value(v, from, place.ty)?,
            (None, Value::Scalar(bv)) => {
                // A pointer or size result of a memory function: convert from its width.
                let to = semantics::repr(self.types(), place.ty)?;
                Value::Scalar(semantics::resize(bv, to.bits, false))
            }
            (None, Value::Bytes(_)) => v,
        };
        self.write(&place, v)
    }

    /// The value of `bv` if it is constant or the path's fixed inputs determine it.
    fn fixed(&self, bv: &Bv) -> Option<u128> {
        bv.as_const().or_else(|| self.st.facts.value_of(self.aig, bv))
    }

    fn new_object(&mut self, size: u64, kind: ObjKind, fill: Byte) -> R<ObjId> {
        let alloc = self.st.n_allocs;
        self.st.n_allocs += 1;
        self.st.mem.alloc(Object::new(size, kind, alloc, fill))
    }

    fn concrete_size(&mut self, e: &Expr, what: &str) -> R<u64> {
        let n = self.scalar(e)?;
        match n.as_const() {
            Some(n) if n <= u32::MAX as u128 => Ok(n as u64),
            _ => Err(Unsupported(format!("{what} of a size that is not a small constant"))),
        }
    }

    fn free(&mut self, p: &Bv) -> R<()> {
        let layout = self.w.layout;
        if let Some(addr) = self.fixed(p) {
            if addr == 0 {
                return Ok(());
            }
            let (obj, off) = layout.split_const(addr);
            match self.st.mem.get(obj) {
                Some(o) if off == 0 && o.kind == ObjKind::Heap => self.st.mem.free(obj),
                Some(o) if (off == 0 || off == layout.lazy_offset()) && o.kind == ObjKind::Lazy => {
                    self.st.mem.free(obj)
                }
                _ => self.ub.push((self.guard, UbKind::InvalidFree)),
            }
            return Ok(());
        }
        Err(Unsupported("free of a pointer that is not a constant".into()))
    }

    // ----- variables and initializers -----

    /// The place of variable `v` (allocated on first use if no declaration was executed, e.g. after
    /// a `goto` past it).
    fn var_place(&mut self, v: VarId) -> R<Place> {
        let var = self.w.prog.var(v);
        let global = matches!(var.kind, VarKind::Global | VarKind::StaticLocal(_));
        let bound = if global { self.st.globals.get(&v).copied() } else { self.st.top().local(v) };
        let id = match bound {
            Some(id) => id,
            None => {
                let fill = if global && !var.is_extern { Byte::constant(0) } else { Byte::uninit() };
                alloc_var(self.w, self.st, v, fill)?
            }
        };
        Ok(Place { addr: self.w.layout.address_bv(id, 0), ty: var.ty, bitfield: None })
    }

    fn init_var(&mut self, v: VarId, init: &Init) -> R<()> {
        let place = self.var_place(v)?;
        self.initialize(&place, init)
    }

    fn offset_addr(&mut self, addr: &Bv, off: u64) -> Bv {
        if off == 0 {
            return addr.clone();
        }
        addr.add(self.aig, &Bv::constant(off as u128, addr.width()))
    }

    // ----- expressions -----

    /// The value of a scalar expression.
    fn scalar(&mut self, e: &Expr) -> R<Bv> {
        match self.rvalue(e)? {
            Value::Scalar(v) => Ok(v),
            Value::Bytes(_) => {
                Err(Unsupported(format!("a value of type {} used as a scalar", self.types().display(e.ty))))
            }
        }
    }

    /// The value of `e`.
    pub(crate) fn rvalue(&mut self, e: &Expr) -> R<Value> {
        let types = self.types();
        match &e.kind {
            ExprKind::IntConst(v) => {
                let r = semantics::repr(types, e.ty)?;
                Ok(Value::Scalar(Bv::constant(*v as u128, r.bits)))
            }
            ExprKind::SizeOf(v) | ExprKind::SizeOfExpr(v, _) => {
                let r = semantics::repr(types, e.ty)?;
                Ok(Value::Scalar(Bv::constant(*v as u128, r.bits)))
            }
            ExprKind::FloatConst(_) => Err(Unsupported("floating-point values".into())),
            // The CFA builder turns every statement expression into edges.
            ExprKind::StmtExpr(_) => Err(Unsupported("a statement expression on an edge".into())),
            ExprKind::Unsupported(reason) => Err(Unsupported(reason.clone())),
            ExprKind::Var(_)
            | ExprKind::Member { .. }
            | ExprKind::Index(..)
            | ExprKind::Deref(_)
            | ExprKind::Str(_) => {
                let place = self.place(e)?;
                self.read(&place)
            }
            ExprKind::Func(f) => Ok(Value::Scalar(self.w.layout.address_bv(self.w.func_obj(*f), 0))),
            ExprKind::Decay(inner) | ExprKind::AddrOf(inner) => {
                if let ExprKind::Func(f) = inner.strip_implicit().kind {
                    return Ok(Value::Scalar(self.w.layout.address_bv(self.w.func_obj(f), 0)));
                }
                let place = self.place(inner)?;
                if place.bitfield.is_some() {
                    return Err(Unsupported("address of a bit-field".into()));
                }
                Ok(Value::Scalar(place.addr))
            }
            ExprKind::Unary(op, x) => {
                let r = semantics::repr(types, x.ty)?;
                let v = self.scalar(x)?;
                let res = semantics::unary(self.aig, *op, &v, r);
                let rr = semantics::repr(types, e.ty)?;
                if *op != UnOp::LogNot && rr.bits != res.width() {
                    return Ok(Value::Scalar(semantics::convert(self.aig, &res, r, rr)));
                }
                Ok(Value::Scalar(res))
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b).map(Value::Scalar),
            ExprKind::Cast(x, _) => {
                if matches!(types.kind(e.ty), TypeKind::Void) {
                    self.rvalue(x)?;
                    return Ok(Value::Scalar(Bv::zero(8)));
                }
                let v = self.rvalue(x)?;
                self.convert_value(v, x.ty, e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                let cl = self.condition(c)?;
                let saved = self.guard;
                self.guard = self.aig.and(saved, cl);
                let va = self.rvalue(a);
                self.guard = self.aig.and(saved, !cl);
                let vb = self.rvalue(b);
                self.guard = saved;
                let (va, vb) = (va?, vb?);
                self.ite_value(cl, va, vb)
            }
            ExprKind::Comma(a, b) => {
                self.rvalue(a)?;
                self.rvalue(b)
            }
            ExprKind::Assign(..) | ExprKind::CompoundAssign(..) | ExprKind::IncDec { .. } | ExprKind::Call(..) => {
                Err(Unsupported("a side effect inside an expression".into()))
            }
        }
    }

    fn ite_value(&mut self, c: AigLit, a: Value, b: Value) -> R<Value> {
        match (a, b) {
            (Value::Scalar(x), Value::Scalar(y)) if x.width() == y.width() => {
                Ok(Value::Scalar(Bv::ite(self.aig, c, &x, &y)))
            }
            (Value::Bytes(x), Value::Bytes(y)) if x.len() == y.len() => {
                Ok(Value::Bytes(x.iter().zip(&y).map(|(&p, &q)| Byte::ite(self.aig, c, p, q)).collect()))
            }
            _ => Err(Unsupported("a conditional expression whose branches differ in type".into())),
        }
    }

    /// `v` of type `from` converted to type `to`.
    fn convert_value(&mut self, v: Value, from: TypeId, to: TypeId) -> R<Value> {
        let types = self.types();
        match v {
            Value::Scalar(bv) => {
                let fr = semantics::repr(types, from)?;
                let tr = semantics::repr(types, to)?;
                Ok(Value::Scalar(semantics::convert(self.aig, &bv, fr, tr)))
            }
            Value::Bytes(bytes) => {
                if from == to || types.size_of(from) == types.size_of(to) && !types.is_scalar(to) {
                    Ok(Value::Bytes(bytes))
                } else {
                    Err(Unsupported(format!("a conversion from {} to {}", types.display(from), types.display(to))))
                }
            }
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> R<Bv> {
        let types = self.types();
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            let ca = self.condition(a)?;
            let saved = self.guard;
            self.guard = self.aig.and(saved, if op == BinOp::LogAnd { ca } else { !ca });
            let cb = self.condition(b);
            self.guard = saved;
            let cb = cb?;
            let lit = if op == BinOp::LogAnd { self.aig.and(ca, cb) } else { self.aig.or(ca, cb) };
            let r = semantics::repr(types, e.ty)?;
            return Ok(semantics::bool_value(lit, r.bits));
        }
        let (pa, pb) = (types.pointee(a.ty), types.pointee(b.ty));
        let va = self.scalar(a)?;
        let vb = self.scalar(b)?;
        let elem_size = |t: TypeId| -> R<u64> {
            match types.kind(t) {
                TypeKind::Void | TypeKind::Func(_) => Ok(1),
                _ => types.size_of(t).ok_or_else(|| Unsupported("pointer arithmetic on an incomplete type".into())),
            }
        };
        match (pa, pb) {
            (Some(t), None) if matches!(op, BinOp::Add | BinOp::Sub) => {
                let rb = semantics::repr(types, b.ty)?;
                return Ok(semantics::pointer_offset(self.aig, &va, &vb, rb, elem_size(t)?, op == BinOp::Sub));
            }
            (None, Some(t)) if op == BinOp::Add => {
                let ra = semantics::repr(types, a.ty)?;
                return Ok(semantics::pointer_offset(self.aig, &vb, &va, ra, elem_size(t)?, false));
            }
            (Some(t), Some(_)) if op == BinOp::Sub => {
                let r = semantics::repr(types, e.ty)?;
                return Ok(semantics::pointer_diff(self.aig, &va, &vb, elem_size(t)?, r.bits));
            }
            _ => {}
        }
        let ra = semantics::repr(types, a.ty)?;
        let rb = semantics::repr(types, b.ty)?;
        let (va, vb) = semantics::align_relational(op, va, vb, ra, rb);
        let r = Repr { bits: va.width(), ..ra };
        let res = semantics::binary(self.aig, op, &va, &vb, r, rb);
        if res.ub != AigLit::FALSE {
            let g = self.aig.and(self.guard, res.ub);
            self.ub.push((g, res.kind));
        }
        let rr = semantics::repr(types, e.ty)?;
        if rr.bits != res.value.width() {
            return Ok(semantics::resize(&res.value, rr.bits, r.signed && !op.is_relational()));
        }
        Ok(res.value)
    }

    /// The place `e` designates.
    fn place(&mut self, e: &Expr) -> R<Place> {
        let types = self.types();
        match &e.kind {
            ExprKind::Var(v) => self.var_place(*v),
            ExprKind::Str(s) => {
                Ok(Place { addr: self.w.layout.address_bv(self.w.str_obj(*s), 0), ty: e.ty, bitfield: None })
            }
            ExprKind::Func(f) => {
                Ok(Place { addr: self.w.layout.address_bv(self.w.func_obj(*f), 0), ty: e.ty, bitfield: None })
            }
            ExprKind::Deref(p) => {
                let addr = self.scalar(p)?;
                Ok(Place { addr, ty: e.ty, bitfield: None })
            }
            ExprKind::Index(base, idx) => {
                let p = self.scalar(base)?;
                let i = self.scalar(idx)?;
                let ri = semantics::repr(types, idx.ty)?;
                let size = types.size_of(e.ty).ok_or_else(|| Unsupported("indexing an incomplete type".into()))?;
                let addr = semantics::pointer_offset(self.aig, &p, &i, ri, size, false);
                // A subscript whose offset carries into the object id (an index far past the
                // array: `usb_minors[minor]` with a minor of 2^19 under ILP32) would name another
                // object, where gcc's program reads whatever lies that far past the array: the
                // subscript leaves its object, undefined behaviour.
                let (po, _) = self.w.layout.split(&p);
                let (ao, _) = self.w.layout.split(&addr);
                let same = po.eq(self.aig, &ao);
                let left = self.aig.and(self.guard, !same);
                if left != AigLit::FALSE {
                    self.ub.push((left, UbKind::InvalidAccess));
                }
                Ok(Place { addr, ty: e.ty, bitfield: None })
            }
            ExprKind::Member { base, field, arrow, .. } => {
                let (base_addr, rec_ty) = if *arrow {
                    let p = self.scalar(base)?;
                    let t = types.pointee(base.ty).ok_or_else(|| Unsupported("'->' on a non-pointer".into()))?;
                    (p, t)
                } else {
                    let p = self.place(base)?;
                    (p.addr, base.ty)
                };
                let TypeKind::Record(r) = types.kind(rec_ty) else {
                    return Err(Unsupported("member of a non-record".into()));
                };
                let f = types
                    .record(*r)
                    .fields
                    .as_ref()
                    .and_then(|fs| fs.get(*field))
                    .ok_or_else(|| Unsupported("member of an incomplete struct".into()))?;
                let addr = self.offset_addr(&base_addr, f.offset);
                Ok(Place { addr, ty: f.ty, bitfield: f.bitfield })
            }
            ExprKind::Cast(inner, _) if types.size_of(inner.ty) == types.size_of(e.ty) => {
                // GNU lvalue casts; the bytes are reinterpreted.
                let p = self.place(inner)?;
                Ok(Place { ty: e.ty, ..p })
            }
            _ => Err(Unsupported(format!("an lvalue of this form: {}", self.w.prog.text(e.span)))),
        }
    }

    /// The value stored at `place`.
    fn read(&mut self, place: &Place) -> R<Value> {
        let types = self.types();
        let size = match types.size_of(place.ty) {
            Some(s) => s,
            None if matches!(types.kind(place.ty), TypeKind::Array(..)) => 0,
            None => return Err(Unsupported(format!("reading a value of type {}", types.display(place.ty)))),
        };
        if let Some(pins) = self.pinned(&place.addr, size.max(1)) {
            let none = match semantics::repr(types, place.ty) {
                Ok(r)
                    if place.bitfield.is_some()
                        || matches!(types.kind(place.ty), TypeKind::Int(_) | TypeKind::Pointer(_)) =>
                {
                    Value::Scalar(Bv::zero(r.bits))
                }
                _ => Value::Bytes(vec![Byte::constant(0); size as usize]),
            };
            return self.per_pin(
                &pins,
                |ex, a| ex.read(&Place { addr: a.clone(), ..place.clone() }),
                merge_values,
                none,
            );
        }
        if let Some((bit, width)) = place.bitfield {
            let r = semantics::repr(types, place.ty)?;
            // Only the bytes the field spans: in packed layouts it may cross its type's unit.
            let unit = self.read_bytes(&place.addr, bitfield_bytes(bit, width))?;
            let unit = bytes_to_bv(&unit);
            let field = unit.extract(bit + width - 1, bit);
            return Ok(Value::Scalar(semantics::resize(&field, r.bits, r.signed)));
        }
        match types.kind(place.ty) {
            TypeKind::Int(_) | TypeKind::Pointer(_) => {
                if matches!(types.kind(place.ty), TypeKind::Pointer(_)) {
                    if let Some(v) = self.unknown_pointer_read(place, size)? {
                        return Ok(Value::Scalar(v));
                    }
                }
                let bytes = self.read_bytes(&place.addr, size)?;
                let v = bytes_to_bv(&bytes);
                let r = semantics::repr(types, place.ty)?;
                if r.is_bool {
                    // A _Bool object holds 0 or 1; other bytes (never written) read as true.
                    let nz = v.reduce_or(self.aig);
                    return Ok(Value::Scalar(semantics::bool_value(nz, 8)));
                }
                Ok(Value::Scalar(v))
            }
            _ => Ok(Value::Bytes(self.read_bytes(&place.addr, size)?)),
        }
    }

    /// A pointer read from bytes never written, at an address that denotes one object at a fixed
    /// offset wherever the read is valid: an unknown pointer (null or fresh memory), stored back so
    /// that later reads agree. Where the address denotes no object (say, a null unknown pointer
    /// plus a member offset), the read is undefined behaviour.
    fn unknown_pointer_read(&mut self, place: &Place, size: u64) -> R<Option<Bv>> {
        let (obj, off, invalid) = match self.fixed(&place.addr) {
            Some(addr) => {
                let (obj, off) = self.w.layout.split_const(addr);
                (obj, off, AigLit::FALSE)
            }
            None => {
                // Where the read is valid, does the address denote one object at a fixed offset?
                let (mem, mut ctx) = self.mem_ctx();
                let t = mem.targets(&mut ctx, &place.addr)?;
                match (t.objs.as_slice(), t.off.as_const()) {
                    ([(id, _)], Some(off)) => (*id, off as u64, t.none),
                    _ => return Ok(None),
                }
            }
        };
        if self.w.havoc_extern_writes && self.st.mem.get(obj).is_some_and(|o| o.any_stale(Some((off, size)))) {
            // What a function without body wrote there is an unknown pointer.
            let (mem, mut ctx) = self.mem_ctx();
            mem.check_stale(&mut ctx, obj, Some((off, size)));
        }
        let Some(o) = self.st.mem.get(obj) else { return Ok(None) };
        if obj == 0 || off + size > o.size || !(off..off + size).all(|k| o.byte(k).is_uninit()) {
            return Ok(None);
        }
        if invalid != AigLit::FALSE {
            let g = self.aig.and(self.guard, invalid);
            self.ub.push((g, UbKind::InvalidAccess));
        }
        let linked = self.w.alias_links && points_to_linked_record(self.types(), place.ty);
        let (alloc, container) = (o.alloc, (o.kind == ObjKind::Lazy && linked).then_some(obj));
        let v = self.unknown_pointer(InputKind::Uninit { alloc, offset: off }, place.ty, container)?;
        let bytes = bv_to_bytes(&v);
        let o = self.st.mem.get_mut(obj).expect("live");
        for (k, b) in bytes.into_iter().enumerate() {
            o.set_byte(off + k as u64, b);
        }
        Ok(Some(v))
    }

    /// Stores `v` at `place`.
    fn write(&mut self, place: &Place, v: Value) -> R<()> {
        let size = self.types().size_of(place.ty).unwrap_or(0);
        if let Some(pins) = self.pinned(&place.addr, size.max(1)) {
            let write = |ex: &mut Self, a: &Bv| ex.write(&Place { addr: a.clone(), ..place.clone() }, v.clone());
            return self.per_pin(&pins, write, |_, _, _, _| (), ());
        }
        if let Some((bit, width)) = place.bitfield {
            let Value::Scalar(v) = v else {
                return Err(Unsupported("a non-scalar stored into a bit-field".into()));
            };
            let unit = bytes_to_bv(&self.read_bytes(&place.addr, bitfield_bytes(bit, width))?);
            let field = semantics::resize(&v, width, false);
            let mut bits = unit.bits().to_vec();
            bits[bit as usize..(bit + width) as usize].copy_from_slice(field.bits());
            let unit = Bv::from_bits(bits);
            return self.write_bytes(&place.addr, &bv_to_bytes(&unit));
        }
        let bytes = match v {
            Value::Scalar(bv) => bv_to_bytes(&bv),
            Value::Bytes(b) => b,
        };
        if bytes.is_empty() {
            return Ok(());
        }
        self.write_bytes(&place.addr, &bytes)
    }

    /// The state's memory and the `MemCtx` its accesses need.
    fn mem_ctx(&mut self) -> (&mut Memory, Ctx<'_>) {
        let SymState { mem, inputs, pc, facts, approx, .. } = &mut *self.st;
        let havoc_extern_writes = self.w.havoc_extern_writes;
        (mem, Ctx { aig: &mut *self.aig, inputs, pc, facts, approx, havoc_extern_writes, oracle: &mut *self.oracle })
    }

    /// For an access of `n` bytes at `addr` whose offset is too wide to expand in its objects
    /// (`Memory::offset_too_wide`; an alias of fresh memory at an arbitrary offset, moved by
    /// `container_of`, say): per object the address can denote, the condition that it does and one
    /// constant address it takes there, in bounds and near where fresh memory is pointed to if it
    /// can be (`CONCRETE_WINDOWS`: the replay harness builds fresh memory as one block spanning
    /// the offsets an execution reads). Where an object allows other addresses the path goes on
    /// with the chosen one (`narrowed`) and the rest of it is cut as unsupported, as the whole path
    /// was before. `None`: the access needs no pinning.
    fn pinned(&mut self, addr: &Bv, n: u64) -> Option<Vec<(AigLit, Bv)>> {
        let layout = self.w.layout;
        let objs: Vec<(ObjId, AigLit, u64, bool)> = {
            let (mem, mut ctx) = self.mem_ctx();
            let objs = mem.offset_too_wide(&mut ctx, addr, n)?;
            objs.into_iter()
                .filter(|(_, _, o)| n <= o.size)
                .map(|(id, c, o)| (id, c, o.size - n, o.kind == ObjKind::Lazy))
                .collect()
        };
        let mut pins = Vec::with_capacity(objs.len());
        for (id, c, last, lazy) in objs {
            let here = self.aig.and(self.guard, c);
            let mut value = None;
            for window in CONCRETE_WINDOWS.iter().map(Some).chain([None]) {
                let (lo, hi) = match window {
                    Some(&w) if lazy => {
                        let mid = layout.lazy_offset();
                        (mid.saturating_sub(w), (mid + w).min(last))
                    }
                    Some(_) => continue,
                    None => (0, last),
                };
                let (lo, hi) = (layout.address_bv(id, lo), layout.address_bv(id, hi));
                let (above, below) = (lo.ule(self.aig, addr), addr.ule(self.aig, &hi));
                let inside = self.aig.and(above, below);
                let wanted = self.aig.and(here, inside);
                value = self.oracle.a_value(self.aig, &self.st.pc, addr, wanted);
                if value.is_some() {
                    break;
                }
            }
            // Out of bounds everywhere (undefined behaviour, reported by the access), or not at all.
            let Some(value) = value.or_else(|| self.oracle.a_value(self.aig, &self.st.pc, addr, here)) else {
                continue;
            };
            let c_addr = Bv::constant(value, addr.width());
            let eq = addr.eq(self.aig, &c_addr);
            let other = self.aig.and(here, !eq);
            if self.oracle.a_value(self.aig, &self.st.pc, addr, other).is_some() {
                self.narrowed.push((!other, PINNED));
            }
            pins.push((c, c_addr));
        }
        Some(pins)
    }

    /// Runs `access` once per pin of `pins` (`pinned`), under the guard that the address is that
    /// pin's object, and reports the access as invalid where it denotes none of them.
    fn per_pin<T>(
        &mut self,
        pins: &[(AigLit, Bv)],
        mut access: impl FnMut(&mut Self, &Bv) -> R<T>,
        mut merge: impl FnMut(&mut Aig, AigLit, T, T) -> T,
        none: T,
    ) -> R<T> {
        let outer = self.guard;
        let mut res = None;
        let mut any = AigLit::FALSE;
        let lazy = self.pin_lazy.replace(None);
        for (c, a) in pins.iter().rev() {
            self.guard = self.aig.and(outer, *c);
            let r = access(self, a);
            self.guard = outer;
            let r = r.inspect_err(|_| self.pin_lazy = lazy);
            let r = r?;
            res = Some(match res {
                None => r,
                Some(other) => merge(self.aig, *c, r, other),
            });
            any = self.aig.or(any, *c);
        }
        self.pin_lazy = lazy;
        let res = res.unwrap_or(none);
        let nowhere = self.aig.and(outer, !any);
        if nowhere != AigLit::FALSE {
            self.ub.push((nowhere, UbKind::InvalidAccess));
        }
        Ok(res)
    }

    fn read_bytes(&mut self, addr: &Bv, n: u64) -> R<Vec<Byte>> {
        if n == 0 {
            return Ok(vec![]);
        }
        if let Some(pins) = self.pinned(addr, n) {
            let none = vec![Byte::constant(0); n as usize];
            return self.per_pin(&pins, |ex, a| ex.read_bytes(a, n), merge_bytes, none);
        }
        let (mem, mut ctx) = self.mem_ctx();
        let (bytes, invalid) = mem.read(&mut ctx, addr, n)?;
        if invalid != AigLit::FALSE {
            let g = self.aig.and(self.guard, invalid);
            self.ub.push((g, UbKind::InvalidAccess));
        }
        self.note_in_bounds(addr, n);
        Ok(bytes)
    }

    /// After an access of `n` bytes at `addr`: if it certainly took place there (no guard, a
    /// constant address), the path goes on only where it was in bounds (`Memory::note_in_bounds`).
    fn note_in_bounds(&mut self, addr: &Bv, n: u64) {
        if self.guard != AigLit::TRUE {
            return;
        }
        if let Some(a) = addr.as_const() {
            let (obj, off) = self.w.layout.split_const(a);
            self.st.mem.note_in_bounds(obj, off.saturating_add(n));
        }
    }

    fn write_bytes(&mut self, addr: &Bv, bytes: &[Byte]) -> R<()> {
        if let Some(pins) = self.pinned(addr, bytes.len() as u64) {
            return self.per_pin(&pins, |ex, a| ex.write_bytes(a, bytes), |_, _, _, _| (), ());
        }
        let guard = self.guard;
        let (mem, mut ctx) = self.mem_ctx();
        let invalid = mem.write(&mut ctx, addr, bytes, guard)?;
        if invalid != AigLit::FALSE {
            let g = self.aig.and(self.guard, invalid);
            self.ub.push((g, UbKind::InvalidAccess));
        }
        self.note_in_bounds(addr, bytes.len() as u64);
        Ok(())
    }
}

impl Initialize for Exec<'_, '_> {
    type Place = Place;
    type Error = Unsupported;

    /// The sub-object `step` of the object at `place`.
    fn sub_place(&mut self, place: &Place, step: InitStep) -> R<Place> {
        let sub = initializer::sub_object(self.types(), place.ty, step).map_err(|why| Unsupported(why.into()))?;
        let addr = self.offset_addr(&place.addr, sub.offset);
        Ok(Place { addr, ty: sub.ty, bitfield: sub.bitfield })
    }

    /// Initializes `place` with `x` (a string literal for a character array copies its bytes).
    fn init_place(&mut self, place: &Place, x: &Expr) -> R<()> {
        if let Some(data) = initializer::string_bytes(self.w.prog, place.ty, x) {
            let bytes: Vec<Byte> = data.into_iter().map(Byte::constant).collect();
            if !bytes.is_empty() {
                self.write_bytes(&place.addr, &bytes)?;
            }
            return Ok(());
        }
        let v = self.rvalue(x)?;
        self.write(place, v)
    }
}
