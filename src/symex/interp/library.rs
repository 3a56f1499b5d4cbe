//! Calls of functions without body, by the same models as the executor's (`libmodels::LibFn`), and
//! the inputs they consume: given in call order, or drawn (`interpret_drawing`).

use super::memory::Kind;
use super::{scalar, ub, unsupported, AllocOrigin, ConcreteEnd, Interp, Stop, Val, R};
use crate::base::bits::truncate;
use crate::base::fp;
use crate::cfa::{CallSiteId, EdgeId};
use crate::cfront::ir::{Expr, ExprKind, FuncId};
use crate::cfront::types::{IntRank, TypeId, TypeKind};
use crate::libmodels::LibFn;
use crate::symex::explore::InputValue;
use crate::symex::semantics::UbKind;
use crate::symex::state::InputKind;

impl<'a> Interp<'a> {
    pub(super) fn extern_call(&mut self, lhs: Option<&Expr>, callee: &Expr, args: &[Expr]) -> R<Option<ConcreteEnd>> {
        let f = match &callee.strip_implicit().kind {
            ExprKind::Func(f) => *f,
            _ => {
                let fp_expr = crate::cfa::called_pointer(self.types(), callee).unwrap_or(callee);
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

    /// The call site of the callback that pointer-call edge `e` of a model makes, if the pointer
    /// names a function of the program the model may call there (`Cfa::callback`).
    pub(super) fn callback(&mut self, e: EdgeId) -> R<Option<CallSiteId>> {
        let cfa = self.cfa;
        let Some(fp_expr) = cfa.callback_pointer(self.types(), e) else { return Ok(None) };
        let (obj, off) = self.layout.split_const(self.int(fp_expr)?);
        Ok(self.w.obj_func(obj).filter(|_| off == 0).and_then(|f| cfa.callback(e, f)))
    }

    fn lib_call(&mut self, f: FuncId, lhs: Option<&Expr>, args: &[Expr]) -> R<Option<ConcreteEnd>> {
        if let Some(reason) = self.w.undeclared_call(f) {
            return unsupported(reason);
        }
        let lib = self.w.lib(f).for_call(args.len());
        // A function whose effect is not modelled (a model in C that this call does not enter,
        // `Cfa::library_call`, included) may write what it is given and what escaped before: the
        // executor takes that as an approximation, which a run on drawn inputs cannot record, so it
        // ends there (its violations are reported as found).
        if self.draw.is_some() && matches!(lib, LibFn::Unmodelled | LibFn::Code | LibFn::Unknown) {
            return unsupported("a function without body whose effect is not modelled, in a run on drawn inputs");
        }
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
                self.allocate(lib == LibFn::Calloc, lhs, args)?;
                Ok(None)
            }
            LibFn::Free => {
                self.free(&args[0])?;
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
                self.store_converted(lhs, v, Some(args[0].ty))?;
                Ok(None)
            }
            LibFn::BlockSize => self.block_size(lhs, &args[0]),
            LibFn::ObjectSize => {
                let n = match self.w.object_size(&args[0], &args[1]) {
                    Ok(n) => n,
                    Err(u) => return unsupported(u.0),
                };
                let from = match self.types().kind(self.prog.func(f).ty) {
                    TypeKind::Func(ft) => Some(ft.ret),
                    _ => None,
                };
                self.store_converted(lhs, Val::Int(n, self.layout.ptr_bits), from)?;
                Ok(None)
            }
            LibFn::Bswap => {
                let Val::Int(v, bits) = self.rvalue(&args[0])? else {
                    return unsupported("an aggregate given to bswap");
                };
                let swapped = (0..bits / 8).fold(0u128, |acc, k| (acc << 8) | ((v >> (8 * k)) & 0xff));
                self.store_converted(lhs, Val::Int(swapped, bits), Some(args[0].ty))?;
                Ok(None)
            }
            LibFn::Unsupported => {
                unsupported(format!("a call of '{}', which vcov does not model", self.prog.func(f).name))
            }
            LibFn::Noop => Ok(None),
            LibFn::Math(m, _) => {
                self.math_call(f, m, lhs, args)?;
                Ok(None)
            }
            LibFn::SetRounding | LibFn::GetRounding => {
                self.rounding_call(f, lib, lhs, args)?;
                Ok(None)
            }
            LibFn::Output => {
                for a in args {
                    self.rvalue(a)?;
                }
                self.unknown_result(Some(f), lhs)?;
                Ok(None)
            }
            // A violation function the property does not name is an unknown function too.
            LibFn::ReachError
            | LibFn::AssertFail
            | LibFn::Nondet
            | LibFn::Unmodelled
            | LibFn::Code
            | LibFn::Unknown => self.unknown_call(Some(f), lhs, args),
        }
    }

    /// `fesetround(mode)` (0 and the new mode for a valid `FE_*` value, 1 otherwise) and
    /// `fegetround()`.
    fn rounding_call(&mut self, f: FuncId, lib: LibFn, lhs: Option<&Expr>, args: &[Expr]) -> R<()> {
        if lib == LibFn::SetRounding {
            let (bits, _, _) = scalar(self.types(), args[0].ty)?;
            let result = match fp::Rounding::from_fe(self.int(&args[0])?) {
                Some(rm) => {
                    self.rounding = rm;
                    0
                }
                None => 1,
            };
            return self.store_converted(lhs, Val::Int(result, bits), Some(args[0].ty));
        }
        let ret = match self.types().kind(self.prog.func(f).ty) {
            TypeKind::Func(ft) => ft.ret,
            _ => return unsupported("`fegetround` that is no function"),
        };
        let (bits, _, _) = scalar(self.types(), ret)?;
        let mode = self.rounding.fe_value().unwrap_or(0);
        self.store_converted(lhs, Val::Int(mode, bits), Some(ret))
    }

    /// `malloc` (`alloca`), or `calloc` with `zeroed`: a new block, its address stored into `lhs`.
    fn allocate(&mut self, zeroed: bool, lhs: Option<&Expr>, args: &[Expr]) -> R<()> {
        let mut size = self.int(&args[0])?;
        if zeroed {
            size = size.wrapping_mul(self.int(&args[1])?);
        }
        let fill = if zeroed { Some(0) } else { None };
        if size > self.layout.max_size() as u128 {
            return unsupported(format!("an allocation of {size} bytes"));
        }
        let id = self.alloc(size as u64, Kind::Heap, fill, AllocOrigin::Heap)?;
        let addr = self.layout.address(id, 0);
        self.store_ptr(lhs, addr)
    }

    /// Stores into `lhs` the size of the heap block `ptr` starts; undefined for anything else.
    fn block_size(&mut self, lhs: Option<&Expr>, ptr: &Expr) -> R<Option<ConcreteEnd>> {
        let p = self.int(ptr)?;
        let (id, off) = self.layout.split_const(p);
        let n = match self.objs.get(id as usize).and_then(|o| o.as_ref()) {
            Some(o) if p != 0 && off == 0 && o.kind == Kind::Heap => o.size,
            Some(o) if o.kind == Kind::Lazy => return unsupported("the block size of memory of the environment"),
            _ => return ub(UbKind::InvalidFree),
        };
        self.store_converted(lhs, Val::Int(u128::from(n), self.layout.ptr_bits), None)?;
        Ok(None)
    }

    /// `free(ptr)`: null does nothing; a heap block or fresh memory, where it begins or where it is
    /// pointed to, is freed; anything else is undefined.
    fn free(&mut self, ptr: &Expr) -> R<()> {
        let p = self.int(ptr)?;
        if p != 0 {
            let (id, off) = self.layout.split_const(p);
            match self.objs.get(id as usize).and_then(|o| o.as_ref()) {
                Some(o) if off == 0 && o.kind == Kind::Heap => self.free_id(id),
                Some(o) if (off == 0 || off == self.layout.lazy_offset()) && o.kind == Kind::Lazy => self.free_id(id),
                _ => return ub(UbKind::InvalidFree),
            }
        }
        Ok(())
    }

    fn unknown_call(&mut self, f: Option<FuncId>, lhs: Option<&Expr>, args: &[Expr]) -> R<Option<ConcreteEnd>> {
        for a in args {
            self.rvalue(a)?;
        }
        self.unknown_result(f, lhs)?;
        Ok(None)
    }

    fn unknown_result(&mut self, f: Option<FuncId>, lhs: Option<&Expr>) -> R<()> {
        let ret = match f.map(|f| self.types().kind(self.prog.func(f).ty)) {
            Some(TypeKind::Func(ft)) => Some(ft.ret),
            _ => lhs.map(|l| l.ty),
        };
        let Some(ret) = ret else { return Ok(()) };
        let v = match self.types().kind(ret) {
            TypeKind::Void => return Ok(()),
            TypeKind::Float(k) if k.format().is_some() => {
                let (bits, _, _) = scalar(self.types(), ret)?;
                let value = self.next_int_input(f, ret, bits, false)?;
                Val::Int(truncate(value, bits), bits)
            }
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
                Val::Int(truncate(value, bits), bits)
            }
            _ => {
                let size = self.types().size_of(ret).unwrap_or(0);
                let inp = self.next_call_input()?;
                Val::Bytes((0..size).map(|k| (inp.value >> (8 * k)) as u8).collect())
            }
        };
        self.store_converted(lhs, v, Some(ret))
    }

    /// Stores `v`, a value of type `from` (`None`: of the place's own type) converted to the type of
    /// `lhs`, into `lhs` if there is one.
    pub(super) fn store_converted(&mut self, lhs: Option<&Expr>, v: Val, from: Option<TypeId>) -> R<()> {
        if let Some(l) = lhs {
            let p = self.place(l)?;
            let v = self.convert(v, from.unwrap_or(p.ty), p.ty)?;
            self.write(&p, v)?;
        }
        Ok(())
    }

    fn store_ptr(&mut self, lhs: Option<&Expr>, addr: u128) -> R<()> {
        if let Some(l) = lhs {
            let p = self.place(l)?;
            let (bits, _, _) = scalar(self.types(), p.ty)?;
            self.write(&p, Val::Int(truncate(addr, bits), bits))?;
        }
        Ok(())
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
        let value = truncate(value, bits);
        let kind = InputKind::Call { edge: self.edge, func: f };
        self.drawn.push(InputValue { kind, ty: Some(ty), pointer_choice: false, bits, value });
        Ok(value)
    }
}
