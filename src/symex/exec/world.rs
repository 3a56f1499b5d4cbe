//! What every state of one exploration shares (`World`: the program, its CFA, the address layout,
//! the property and the options that change the model) and the initial state.

use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;

use super::R;
use crate::base::bits;
use crate::base::fp::Rounding;
use crate::cfa::{Cfa, EdgeKind};
use crate::cfront;
use crate::cfront::ir::{Expr, ExprKind, FuncId, Program, StrId, VarId, VarKind};
use crate::cfront::types::{TypeKind, Types};
use crate::libmodels::LibFn;
use crate::sat::Aig;
use crate::symex::memory::{Byte, Layout, Memory, ObjId, ObjKind, Object};
use crate::symex::semantics::Unsupported;
use crate::symex::state::{Approx, Frame, List, SymState};

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

impl Property {
    /// Whether reaching a label named `ERROR` (in any case) violates this property.
    pub fn labels_violate(self) -> bool {
        matches!(self, Property::ErrorLabel | Property::Any)
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
            cfront::ObjectSize::Unknown { all_ones: true } => bits::mask(bits),
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
            jumps: List::new(),
            inputs: List::new(),
            n_allocs: 0,
            approx: if self.havoc.is_empty() { Approx::NONE } else { Approx::ABSTRACT },
            pc_inputs: Default::default(),
            pc_lits: Default::default(),
            facts: Default::default(),
            rounding: Rounding::NearestEven,
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
pub(super) fn alloc_var(w: &World, st: &mut SymState, v: VarId, fill: Byte) -> R<ObjId> {
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
