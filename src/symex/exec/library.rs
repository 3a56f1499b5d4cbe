//! Calls of functions without body (library functions), by the model of each (`libmodels::LibFn`).
//!
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

use std::rc::Rc;

use super::{Effect, EndKind, Exec, Value, R};
use crate::base::fp::Rounding;
use crate::cfa::{CallSiteId, EdgeId};
use crate::cfront::ir::{Expr, ExprKind, FuncId, Program};
use crate::cfront::types::{IntRank, TypeId, TypeKind, Types};
use crate::libmodels::LibFn;
use crate::sat::{Aig, AigLit, Bv, MAX_WIDTH};
use crate::symex::math::MathHost;
use crate::symex::memory::{bv_to_bytes, bytes_to_bv, Byte, Escape, ObjId, ObjKind, Object};
use crate::symex::semantics::{self, UbKind, Unsupported};
use crate::symex::state::{Approx, InputKind, SymInput};

/// Why the rest of a path whose `malloc` of a symbolic size may be larger than an object can be is
/// cut.
const LARGE_ALLOCATION: &str = "an allocation larger than the address layout holds";

/// Why a path that calls through a function pointer read from fresh memory is cut: a function the
/// environment provides, which vcov does not model (the pointer is not null, so the call is not
/// undefined; calling the fresh data object it stands for would be).
const ENVIRONMENT_FUNCTION: &str = "a call through a function pointer the environment provides";

/// Whether `ty` points to a list link: a struct or union all of whose members point to its own type
/// (`list_head`) or to such a pointer (`hlist_node::pprev`). Only such pointers read from fresh
/// memory may alias it (`Exec::unknown_pointer`): where a list ends is where a link points back into
/// the memory that holds it. Offering the alias to every pointer would make every access through an
/// unknown pointer one at an arbitrary offset, and even records with a member of their own type
/// (a device and its parent) are too many: kbtab-predicate, exact in a second without the alias,
/// did not end in 60 s with it.
pub(in crate::symex) fn points_to_linked_record(types: &Types, ty: TypeId) -> bool {
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

impl MathHost for Exec<'_, '_> {
    fn aig(&mut self) -> &mut Aig {
        self.aig
    }

    fn prog(&self) -> &Program {
        self.w.prog
    }

    fn scalar(&mut self, e: &Expr) -> R<Bv> {
        Exec::scalar(self, e)
    }

    fn rounding(&self) -> Rounding {
        self.st.rounding
    }

    fn narrow(&mut self, lit: AigLit, why: &'static str) {
        self.narrowed.push((lit, why));
    }
}

impl Exec<'_, '_> {
    pub(super) fn extern_call(&mut self, e: EdgeId, lhs: Option<&Expr>, callee: &Expr, args: &[Expr]) -> R<Effect> {
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

    /// The call site of the callback that pointer-call edge `e` of a model makes, if the pointer's
    /// value is fixed and names a function of the program the model may call there
    /// (`Cfa::callback`).
    pub(super) fn callback(&mut self, e: EdgeId) -> R<Option<CallSiteId>> {
        let cfa = self.w.cfa;
        let Some(fp_expr) = cfa.callback_pointer(self.types(), e) else { return Ok(None) };
        let fp = self.scalar(fp_expr)?;
        let Some(addr) = self.fixed(&fp) else { return Ok(None) };
        let (obj, off) = self.w.layout.split_const(addr);
        Ok(self.w.obj_func(obj).filter(|_| off == 0).and_then(|f| cfa.callback(e, f)))
    }

    /// A call through a function pointer that the CFA could not resolve to a function with body.
    fn pointer_call(&mut self, e: EdgeId, lhs: Option<&Expr>, callee: &Expr, args: &[Expr]) -> R<Effect> {
        let fp_expr = crate::cfa::called_pointer(self.types(), callee).unwrap_or(callee);
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
            LibFn::BlockSize => self.block_size(lhs, &args[0]),
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
            LibFn::Math(m, _) => {
                let (v, ty) = crate::symex::math::call(self, f, m, args)?;
                self.store_result(lhs, Value::Scalar(v), Some(ty))?;
                Ok(Effect::Moved)
            }
            LibFn::SetRounding | LibFn::GetRounding => self.rounding_call(f, lib, lhs, args),
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
            // A model in C that this call does not enter (`Cfa::library_call`: through a pointer,
            // or a declaration that does not fit the model's): not modelled here.
            LibFn::Code => self.unknown_call(e, Some(f), lhs, args, LibFn::Unmodelled),
        }
    }

    /// `fesetround(mode)` (0 and the new mode for a valid constant `FE_*` value, 1 otherwise) and
    /// `fegetround()`.
    fn rounding_call(&mut self, f: FuncId, lib: LibFn, lhs: Option<&Expr>, args: &[Expr]) -> R<Effect> {
        if lib == LibFn::SetRounding {
            let mode = self.scalar(&args[0])?;
            let Some(v) = mode.as_const() else {
                return Err(Unsupported("`fesetround` of a mode that is not a constant".into()));
            };
            let r = semantics::repr(self.types(), args[0].ty)?;
            let result = match Rounding::from_fe(v) {
                Some(rm) if Rounding::DYNAMIC.contains(&rm) => {
                    self.st.rounding = rm;
                    0
                }
                _ => 1,
            };
            self.store_result(lhs, Value::Scalar(Bv::constant(result, r.bits)), Some(args[0].ty))?;
            return Ok(Effect::Moved);
        }
        let mode = self.st.rounding.fe_value().expect("a dynamic mode");
        let TypeKind::Func(ft) = self.types().kind(self.w.prog.func(f).ty) else {
            return Err(Unsupported("`fegetround` that is no function".into()));
        };
        let ret = ft.ret;
        let r = semantics::repr(self.types(), ret)?;
        self.store_result(lhs, Value::Scalar(Bv::constant(mode, r.bits)), Some(ret))?;
        Ok(Effect::Moved)
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
            TypeKind::Float(k) if k.format().is_some() => Value::Scalar(v),
            _ => Value::Bytes(bv_to_bytes(&v)),
        };
        self.store_result(lhs, value, Some(ret))
    }

    /// An unknown pointer: null or the address of fresh memory of its own, chosen by a new one-bit
    /// input; read from fresh memory `container`, also an address in that memory (a list head of
    /// an empty list points to itself), chosen by a second bit, at an offset of new input bits, and
    /// under LP64 possibly wild (`Layout::wild_bit`), by a third bit (see `SymInput`).
    pub(super) fn unknown_pointer(&mut self, kind: InputKind, ty: TypeId, container: Option<ObjId>) -> R<Bv> {
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
    pub(super) fn store_result(&mut self, lhs: Option<&Expr>, v: Value, from: Option<TypeId>) -> R<()> {
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

    /// Stores into `lhs` the size of the heap block `ptr` starts (its symbolic size where `malloc`
    /// got one); undefined behaviour (as a `free` of it would be) for any other pointer.
    fn block_size(&mut self, lhs: Option<&Expr>, ptr: &Expr) -> R<Effect> {
        let p = self.scalar(ptr)?;
        let layout = self.w.layout;
        let bits = layout.ptr_bits;
        let Some(addr) = self.fixed(&p) else {
            return Err(Unsupported("the block size of a pointer that is not a constant".into()));
        };
        let (obj, off) = layout.split_const(addr);
        let n = match self.st.mem.get(obj) {
            Some(o) if off == 0 && o.kind == ObjKind::Heap => match &o.limit {
                Some(limit) => semantics::resize(limit, bits, false),
                None => Bv::constant(u128::from(o.size), bits),
            },
            Some(o) if o.kind == ObjKind::Lazy => return Err(Unsupported(ENVIRONMENT_FUNCTION.into())),
            _ => {
                self.ub.push((self.guard, UbKind::InvalidFree));
                Bv::zero(bits)
            }
        };
        self.store_result(lhs, Value::Scalar(n), None)?;
        Ok(Effect::Moved)
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
}
