//! Integer evaluation over typed expressions, with C's conversion rules: of constant expressions,
//! and of expressions over integer variables whose values a caller supplies.

use super::ir::{BinOp, Expr, ExprKind, UnOp};
use super::types::{IntType, TypeKind, Types};

/// The value of `e` if it is an integer constant expression (casts, arithmetic, `sizeof`, `?:`).
///
/// Returns `None` for anything that needs run-time values, for division by zero and for overflowing
/// shifts (which are not constant expressions).
pub fn eval_int(types: &Types, e: &Expr) -> Option<i128> {
    eval_int_with(types, e, &mut |_| None)
}

/// The value of `e` when every integer variable it reads, and every integer member (`v.f`, `v.f.g`)
/// or array element (`a[i]`) it reads, holds `read(x)` for that expression `x` (a value of its type;
/// `None`: unknown). Like `eval_int` otherwise: `None` for other memory, calls, floating point and undefined
/// results. `&&`, `||` and `?:` read only the operands C evaluates.
pub fn eval_int_with(types: &Types, e: &Expr, read: &mut dyn FnMut(&Expr) -> Option<i128>) -> Option<i128> {
    let dm = types.data_model();
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Member { arrow: false, .. } | ExprKind::Index(..) => {
            types.as_int(e.ty)?;
            read(e)
        }
        ExprKind::IntConst(v) => Some(*v),
        ExprKind::SizeOf(v) | ExprKind::SizeOfExpr(v, _) => Some(*v as i128),
        ExprKind::Cast(inner, _) => {
            let v = eval_int_with(types, inner, read)?;
            match types.kind(e.ty) {
                TypeKind::Int(it) => Some(it.wrap(v, dm)),
                TypeKind::Pointer(_) => Some(IntType::ULONG.wrap(v, dm)),
                _ => None,
            }
        }
        ExprKind::Unary(op, inner) => {
            let v = eval_int_with(types, inner, read)?;
            let it = types.as_int(e.ty)?;
            Some(match op {
                UnOp::Neg => it.wrap(-v, dm),
                UnOp::BitNot => it.wrap(!v, dm),
                UnOp::Plus => v,
                UnOp::LogNot => (v == 0) as i128,
            })
        }
        ExprKind::Binary(op, a, b) => {
            let x = eval_int_with(types, a, read)?;
            if *op == BinOp::LogAnd && x == 0 {
                return Some(0);
            }
            if *op == BinOp::LogOr && x != 0 {
                return Some(1);
            }
            let y = eval_int_with(types, b, read)?;
            let operand_ty = types.as_int(a.ty)?;
            let res_ty = types.as_int(e.ty)?;
            fold_binary(*op, x, y, operand_ty, res_ty, types)
        }
        ExprKind::Cond(c, a, b) => {
            let c = eval_int_with(types, c, read)?;
            eval_int_with(types, if c != 0 { a } else { b }, read)
        }
        ExprKind::Comma(_, b) => eval_int_with(types, b, read),
        ExprKind::AddrOf(lv) => eval_address(types, lv, read),
        _ => None,
    }
}

/// The address of an lvalue built on a constant pointer, as in the `offsetof` idiom
/// `&((struct s *)0)->field`.
fn eval_address(types: &Types, lv: &Expr, read: &mut dyn FnMut(&Expr) -> Option<i128>) -> Option<i128> {
    match &lv.kind {
        ExprKind::Deref(p) => eval_int_with(types, p, read),
        ExprKind::Member { base, field, arrow, .. } => {
            let (base_addr, rec_ty) = if *arrow {
                (eval_int_with(types, base, read)?, types.pointee(base.ty)?)
            } else {
                (eval_address(types, base, read)?, base.ty)
            };
            let TypeKind::Record(r) = types.kind(rec_ty) else { return None };
            let f = types.record(*r).fields.as_ref()?.get(*field)?;
            Some(base_addr + f.offset as i128)
        }
        ExprKind::Index(base, idx) => {
            let elem = types.size_of(types.pointee(base.ty)?)? as i128;
            Some(eval_int_with(types, base, read)? + eval_int_with(types, idx, read)? * elem)
        }
        _ => None,
    }
}

/// What gcc at `-O0` makes of `__builtin_object_size(ptr, kind)`: it folds the size left in the
/// object (kind 0 and 2) or in the closest enclosing member (kind 1 and 3) where `ptr` is written as
/// the address of a declared object, a member or a string literal with constant indices and
/// offsets; for every other pointer (a pointer variable, a variable index: anything it would have to
/// track) it gives `(size_t)-1` for kinds 0 and 1 and 0 for kinds 2 and 3. `None` for a kind other
/// than 0 to 3, or an address whose object has no known size.
pub fn object_size(types: &Types, strings: &[Vec<u8>], ptr: &Expr, kind: i128) -> Option<ObjectSize> {
    if !(0..=3).contains(&kind) {
        return None;
    }
    let unknown =
        if kind < 2 { ObjectSize::Unknown { all_ones: true } } else { ObjectSize::Unknown { all_ones: false } };
    let Some(place) = address_place(types, strings, ptr) else { return Some(unknown) };
    let place = place?;
    let (size, offset) = if kind % 2 == 0 { (place.whole, place.offset) } else { (place.sub, place.sub_offset) };
    Some(ObjectSize::Known(if offset < 0 { 0 } else { size.saturating_sub(offset as u64) }))
}

/// The value of `__builtin_object_size` as gcc folds it (`object_size`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ObjectSize {
    /// This many bytes.
    Known(u64),
    /// gcc does not know the object: all bits set (`(size_t)-1`), or 0.
    Unknown {
        /// `(size_t)-1` rather than 0.
        all_ones: bool,
    },
}

/// Where a constant address lies: the object's size and the offset in it, the closest enclosing
/// member's (or the object's) size and the offset in that.
#[derive(Clone, Copy, Debug)]
struct Place {
    whole: u64,
    offset: i128,
    sub: u64,
    sub_offset: i128,
}

/// The place `ptr` (a pointer expression) denotes when gcc can fold it: `None` when it cannot (a
/// pointer value, a variable index), `Some(None)` when it can but the size is unknown (an incomplete
/// type).
fn address_place(types: &Types, strings: &[Vec<u8>], ptr: &Expr) -> Option<Option<Place>> {
    match &ptr.kind {
        ExprKind::Cast(inner, _) if types.pointee(inner.ty).is_some() || matches!(inner.kind, ExprKind::Decay(_)) => {
            address_place(types, strings, inner)
        }
        ExprKind::Decay(lv) | ExprKind::AddrOf(lv) => lvalue_place(types, strings, lv),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) if types.pointee(a.ty).is_some() => {
            let k = eval_int(types, b)?;
            let k = if *op == BinOp::Sub { -k } else { k };
            let scale = types.size_of(types.pointee(a.ty)?).unwrap_or(1).max(1) as i128;
            Some(address_place(types, strings, a)?.map(|p| Place {
                offset: p.offset + k * scale,
                sub_offset: p.sub_offset + k * scale,
                ..p
            }))
        }
        _ => None,
    }
}

/// The place of lvalue `lv` (see `address_place`).
fn lvalue_place(types: &Types, strings: &[Vec<u8>], lv: &Expr) -> Option<Option<Place>> {
    match &lv.kind {
        ExprKind::Var(_) => Some(types.size_of(lv.ty).map(|n| Place { whole: n, offset: 0, sub: n, sub_offset: 0 })),
        ExprKind::Str(s) => {
            // (Stored with its NUL.)
            let n = strings.get(s.idx())?.len() as u64;
            Some(Some(Place { whole: n, offset: 0, sub: n, sub_offset: 0 }))
        }
        ExprKind::Member { base, field, arrow: false, .. } => {
            let TypeKind::Record(r) = types.kind(base.ty) else { return None };
            let f = types.record(*r).fields.as_ref()?.get(*field)?;
            let p = lvalue_place(types, strings, base)?;
            Some(p.and_then(|p| {
                let sub = types.size_of(f.ty)?;
                Some(Place { whole: p.whole, offset: p.offset + f.offset as i128, sub, sub_offset: 0 })
            }))
        }
        // An element: the array stays the enclosing member.
        ExprKind::Index(base, idx) => {
            let k = eval_int(types, idx)?;
            let scale = types.size_of(types.pointee(base.ty)?).unwrap_or(1).max(1) as i128;
            Some(address_place(types, strings, base)?.map(|p| Place {
                offset: p.offset + k * scale,
                sub_offset: p.sub_offset + k * scale,
                ..p
            }))
        }
        ExprKind::Deref(p) => address_place(types, strings, p),
        _ => None,
    }
}

/// `x op y` for operands of integer type `operand_ty` (already converted) giving `res_ty`.
/// Shifts take `operand_ty` from the left operand. `None` when C leaves the result undefined
/// (division by zero, `INT_MIN / -1`, shift out of range).
pub fn fold_binary(op: BinOp, x: i128, y: i128, operand_ty: IntType, res_ty: IntType, types: &Types) -> Option<i128> {
    let dm = types.data_model();
    let bits = operand_ty.bits(dm) as i128;
    let w = |v: i128| res_ty.wrap(v, dm);
    let (ux, uy) = (operand_ty.wrap(x, dm), operand_ty.wrap(y, dm));
    Some(match op {
        BinOp::Mul => w(ux.wrapping_mul(uy)),
        BinOp::Div | BinOp::Rem => {
            if uy == 0 || (operand_ty.signed && ux == operand_ty.min(dm) && uy == -1) {
                return None;
            }
            if op == BinOp::Div {
                w(ux / uy)
            } else {
                w(ux % uy)
            }
        }
        BinOp::Add => w(ux + uy),
        BinOp::Sub => w(ux - uy),
        BinOp::Shl => {
            if !(0..bits).contains(&y) {
                return None;
            }
            w(ux << y)
        }
        BinOp::Shr => {
            if !(0..bits).contains(&y) {
                return None;
            }
            w(ux >> y)
        }
        BinOp::Lt => (ux < uy) as i128,
        BinOp::Gt => (ux > uy) as i128,
        BinOp::Le => (ux <= uy) as i128,
        BinOp::Ge => (ux >= uy) as i128,
        BinOp::Eq => (ux == uy) as i128,
        BinOp::Ne => (ux != uy) as i128,
        BinOp::BitAnd => w(ux & uy),
        BinOp::BitXor => w(ux ^ uy),
        BinOp::BitOr => w(ux | uy),
        BinOp::LogAnd => (x != 0 && y != 0) as i128,
        BinOp::LogOr => (x != 0 || y != 0) as i128,
    })
}
