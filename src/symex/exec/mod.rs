//! The transfer function: what one CFA edge does to a symbolic state.
//!
//! `Exec::edge` evaluates the edge's expressions over the state's memory (`memory`) with the integer
//! rules of `semantics`, performs its effect (assignment, declaration, call, return, library model),
//! and moves the state to the edge's target. Conditions of assume edges are returned to the explorer,
//! which decides feasibility; undefined behaviour found on the way is collected as conditions
//! (`Exec::ub`) for the explorer to split on. A construct the executor cannot model is an
//! `Unsupported` error: the explorer cuts the path with that reason.
//!
//! The executor's parts, each one job:
//! - `mod.rs` (this file): `Exec`, what an edge does (`Exec::edge`) and what it tells the explorer
//!   (`Effect`, `EndKind`, the `Oracle` it asks);
//! - `world`: what every state of one program shares (`World`: the program, its CFA, the address
//!   layout, the property) and the initial state;
//! - `library`: calls of functions without body, by their models (see there);
//! - `expr`: the values of expressions;
//! - `place`: the places (lvalues) expressions designate, variables' places and initializers;
//! - `access`: reads and writes of memory at a place or address, with the undefined behaviour they
//!   report and the pinning of accesses at offsets too wide to expand.

mod access;
mod expr;
mod library;
mod place;
mod world;

use super::initializer::Initialize;
use super::memory::{Byte, ObjId};
use super::semantics::{UbKind, Unsupported};
use super::state::{Conjunct, Frame, List, SymState};
use crate::cfa::{CallSiteId, EdgeId, EdgeKind, GlobalKind};
use crate::cfront::ir::Init;
use crate::cfront::types::Types;
use crate::sat::{Aig, AigLit, Bv};

pub(in crate::symex) use library::points_to_linked_record;
use place::Place;
use world::alloc_var;
pub use world::{Property, World};

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
enum Value {
    Scalar(Bv),
    Bytes(Vec<Byte>),
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
        let library = matches!(edge.kind, EdgeKind::ExternCall { .. }).then(|| cfa.library_call(e)).flatten();
        if let Some(cs) = library.map_or_else(|| self.callback(e), |cs| Ok(Some(cs)))? {
            // A model of the C library, or a function it calls back: run its code, from its entry
            // (`cfa::library`).
            let depth = self.st.frames.len();
            let effect = self.enter(cs)?;
            self.st.node = edge.dst;
            if self.st.frames.len() > depth {
                self.st.node = cfa.func(cfa.call_site(cs).callee).expect("a model has an automaton").entry;
            }
            return Ok(effect);
        }
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
            EdgeKind::Call(cs) => self.enter(*cs)?,
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

    /// Enters the function call site `cs` calls: its arguments in fresh parameters, a new frame.
    fn enter(&mut self, cs: CallSiteId) -> R<Effect> {
        let cfa = self.w.cfa;
        let site = cfa.call_site(cs);
        if self.w.is_violation_call(site.callee) {
            return Ok(Effect::End(EndKind::Violation));
        }
        if site.incompatible_argument(self.w.prog).is_some() {
            self.ub.push((self.guard, UbKind::IncompatibleCall));
            return Ok(Effect::Moved);
        }
        let values: Vec<Value> = site.args.iter().map(|a| self.rvalue(a)).collect::<R<_>>()?;
        self.st.frames.push(Frame { func: site.callee, call_site: Some(cs), locals: vec![], loop_counts: vec![] });
        let func = self.w.prog.func(site.callee);
        for (i, &p) in func.params.iter().enumerate() {
            let id = alloc_var(self.w, self.st, p, Byte::uninit())?;
            if let Some(v) = values.get(i) {
                let place = Place { addr: self.w.layout.address_bv(id, 0), ty: self.w.prog.var(p).ty, bitfield: None };
                self.write(&place, v.clone())?;
            }
        }
        if let Some(rv) = cfa.func(site.callee).and_then(|f| f.ret_var) {
            alloc_var(self.w, self.st, rv, Byte::uninit())?;
        }
        Ok(Effect::Moved)
    }

    /// The value of `bv` if it is constant or the path's fixed inputs determine it.
    fn fixed(&self, bv: &Bv) -> Option<u128> {
        bv.as_const().or_else(|| self.st.facts.value_of(self.aig, bv))
    }
}
