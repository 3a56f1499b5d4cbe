//! Expressions: typing, implicit conversions (promotions, usual arithmetic conversions, decay),
//! literals.

use lang_c::ast;
use lang_c::span::Node;

use super::{sp, Lowerer, Ordinary, Res};
use crate::base::{fp, Span};
use crate::cfront::consteval::eval_int;
use crate::cfront::ir::*;
use crate::cfront::types::*;

fn mk(kind: ExprKind, ty: TypeId, span: Span) -> Expr {
    Expr { kind, ty, span }
}

impl Lowerer<'_> {
    /// Lowers an expression without lvalue conversion (arrays and functions do not decay).
    pub(super) fn expr(&mut self, e: &Node<ast::Expression>) -> Res<Expr> {
        self.nested_expr(sp(&e.span), |l| l.expr_at_depth(e))
    }

    fn expr_at_depth(&mut self, e: &Node<ast::Expression>) -> Res<Expr> {
        use ast::Expression as E;
        let span = sp(&e.span);
        match &e.node {
            E::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Ordinary::Var(v)) => Ok(mk(ExprKind::Var(v), self.vars[v.idx()].ty, span)),
                Some(Ordinary::Func(f)) => Ok(mk(ExprKind::Func(f), self.funcs[f.idx()].ty, span)),
                Some(Ordinary::EnumConst(v)) => Ok(mk(ExprKind::IntConst(v), self.int(), span)),
                Some(Ordinary::Typedef(_)) => self.err(span, format!("'{}' is a type, not a value", id.node.name)),
                None if matches!(id.node.name.as_str(), "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__") => {
                    let name = self.cur_func.map(|f| self.funcs[f.idx()].name.clone()).unwrap_or_default();
                    Ok(self.string_literal(name.into_bytes(), span))
                }
                None => self.err(span, format!("use of undeclared identifier '{}'", id.node.name)),
            },
            E::Constant(c) => self.constant(&c.node, span),
            E::StringLiteral(s) => {
                let mut bytes = Vec::new();
                for piece in s.node.iter() {
                    bytes.extend(decode_string_piece(piece));
                }
                Ok(self.string_literal(bytes, span))
            }
            E::Member(m) => self.member(m, span),
            E::Call(c) => self.call(c, span),
            E::SizeOfTy(s) => {
                let (ty, _) = self.type_name(&s.node.0)?;
                self.size_expr(ty, span)
            }
            E::SizeOfVal(s) => {
                let inner = self.expr(&s.node.0)?;
                let size = self.size_expr(inner.ty, span)?;
                // The branches CPAchecker hoists out of the operand (see `ExprKind::SizeOfExpr`);
                // an operand with effects is not evaluated, as in C.
                let (branches, effects) = hoisted_parts(&inner);
                match size.kind {
                    ExprKind::SizeOf(v) if branches && !effects => {
                        Ok(mk(ExprKind::SizeOfExpr(v, Box::new(inner)), size.ty, span))
                    }
                    _ => Ok(size),
                }
            }
            E::AlignOf(a) => {
                let (ty, _) = self.type_name(&a.node.0)?;
                let al = self.types.align_of(ty);
                Ok(mk(ExprKind::SizeOf(al), self.size_t, span))
            }
            E::UnaryOperator(u) => self.unary(&u.node.operator.node, &u.node.operand, span),
            E::Cast(c) => {
                let (ty, text) = self.type_name(&c.node.type_name)?;
                let inner = self.expr(&c.node.expression)?;
                let inner = self.rvalue(inner);
                // CIL writes no-op casts of a struct to its own type; other casts to records are invalid.
                if matches!(self.types.kind(ty), TypeKind::Record(_)) && inner.ty != ty {
                    return self.err(span, "cast to a struct or union type");
                }
                Ok(mk(ExprKind::Cast(Box::new(inner), CastOrigin::Explicit(text.into_boxed_str())), ty, span))
            }
            E::BinaryOperator(b) => self.binary(&b.node.operator.node, &b.node.lhs, &b.node.rhs, span),
            E::Conditional(c) => {
                let cond = self.expr(&c.node.condition)?;
                let cond = self.scalar(cond)?;
                let a = self.expr(&c.node.then_expression)?;
                let a = self.rvalue(a);
                let b = self.expr(&c.node.else_expression)?;
                let b = self.rvalue(b);
                let (a, b, ty) = self.conditional_operands(a, b, span)?;
                Ok(mk(ExprKind::Cond(Box::new(cond), Box::new(a), Box::new(b)), ty, span))
            }
            E::Comma(list) => {
                let mut it = list.iter();
                let first = it.next().expect("empty comma expression");
                let mut acc = self.expr(first)?;
                acc = self.rvalue(acc);
                for next in it {
                    let n = self.expr(next)?;
                    let n = self.rvalue(n);
                    let ty = n.ty;
                    let s = acc.span.join(n.span);
                    acc = mk(ExprKind::Comma(Box::new(acc), Box::new(n)), ty, s);
                }
                Ok(acc)
            }
            E::OffsetOf(o) => {
                let (ty, _) = self.type_name(&o.node.type_name)?;
                let off = self.offset_of(ty, &o.node.designator)?;
                Ok(mk(ExprKind::SizeOf(off), self.size_t, span))
            }
            E::CompoundLiteral(_) => Ok(self.unsupported("compound literal", span)),
            E::VaArg(_) => Ok(self.unsupported("va_arg", span)),
            E::Statement(st) => self.statement_expression(st, span),
            E::GenericSelection(_) => Ok(self.unsupported("_Generic selection", span)),
        }
    }

    /// A GNU statement expression: its block, typed by its last statement.
    fn statement_expression(&mut self, st: &Node<ast::Statement>, span: Span) -> Res<Expr> {
        if self.cur_func.is_none() {
            return self.err(span, "statement expression outside a function");
        }
        let block = self.stmt(st)?;
        let StmtKind::Block(items) = &block.kind else {
            return self.err(span, "statement expression without a block");
        };
        let ty = match items.last().map(|s| &s.kind) {
            Some(StmtKind::Expr(e)) => e.ty,
            // gcc gives a labelled last statement its expression's value; CPAchecker's CFA builder
            // has no place for it.
            Some(StmtKind::Label { body, .. } | StmtKind::Case { body, .. } | StmtKind::Default { body })
                if matches!(body.kind, StmtKind::Expr(_)) =>
            {
                return Ok(self.unsupported("statement expression ending in a labelled expression", span));
            }
            _ => self.types.intern(TypeKind::Void),
        };
        Ok(mk(ExprKind::StmtExpr(Box::new(block)), ty, span))
    }

    fn unsupported(&mut self, what: &str, span: Span) -> Expr {
        self.warn(span, format!("{what} is not supported; its value is unknown"));
        mk(ExprKind::Unsupported(what.to_string()), self.int(), span)
    }

    pub(super) fn int(&mut self) -> TypeId {
        self.types.int(IntType::INT)
    }

    fn string_literal(&mut self, mut bytes: Vec<u8>, span: Span) -> Expr {
        bytes.push(0);
        let n = bytes.len() as u64;
        self.strings.push(bytes);
        let id = StrId::from_idx(self.strings.len() - 1);
        let c = self.types.int(IntType::CHAR);
        let ty = self.types.intern(TypeKind::Array(c, Some(n)));
        mk(ExprKind::Str(id), ty, span)
    }

    fn size_expr(&mut self, ty: TypeId, span: Span) -> Res<Expr> {
        let size = match self.types.kind(ty) {
            TypeKind::Void | TypeKind::Func(_) => Some(1), // gcc extension
            _ => self.types.size_of(ty),
        };
        match size {
            Some(s) => Ok(mk(ExprKind::SizeOf(s), self.size_t, span)),
            None => self.err(span, format!("sizeof of incomplete type '{}'", self.types.display(ty))),
        }
    }

    fn offset_of(&mut self, ty: TypeId, d: &Node<ast::OffsetDesignator>) -> Res<u64> {
        let mut cur = ty;
        let mut off = 0u64;
        off += self.offset_step(&mut cur, &d.node.base.node.name, sp(&d.node.base.span))?;
        for m in &d.node.members {
            match &m.node {
                ast::OffsetMember::Member(id) | ast::OffsetMember::IndirectMember(id) => {
                    off += self.offset_step(&mut cur, &id.node.name, sp(&id.span))?
                }
                ast::OffsetMember::Index(e) => {
                    let le = self.expr(e)?;
                    let Some(i) = eval_int(&self.types, &le) else {
                        return self.err(sp(&e.span), "offsetof index is not a constant");
                    };
                    let TypeKind::Array(elem, _) = self.types.kind(cur).clone() else {
                        return self.err(sp(&e.span), "offsetof index on a non-array");
                    };
                    off += i as u64 * self.types.size_of(elem).unwrap_or(0);
                    cur = elem;
                }
            }
        }
        Ok(off)
    }

    /// The offset of member `name` in record type `*cur`; moves `cur` to the member's type.
    fn offset_step(&mut self, cur: &mut TypeId, name: &str, span: Span) -> Res<u64> {
        let TypeKind::Record(r) = self.types.kind(*cur).clone() else {
            return self.err(span, "offsetof on a non-struct");
        };
        let Some((path, fty)) = self.types.find_field(r, name) else {
            return self.err(span, format!("no member '{name}'"));
        };
        let mut off = 0;
        let mut rec = r;
        for i in path {
            let f = &self.types.record(rec).fields.as_ref().expect("complete")[i];
            off += f.offset;
            if let TypeKind::Record(inner) = self.types.kind(f.ty) {
                rec = *inner;
            }
        }
        *cur = fty;
        Ok(off)
    }

    // ----- conversions -----

    /// Lvalue conversion: arrays and functions decay to pointers.
    pub(super) fn rvalue(&mut self, e: Expr) -> Expr {
        match self.types.kind(e.ty).clone() {
            TypeKind::Array(elem, _) => {
                let ty = self.types.pointer(elem);
                let span = e.span;
                mk(ExprKind::Decay(Box::new(e)), ty, span)
            }
            TypeKind::Func(_) => {
                if let ExprKind::Func(f) = e.kind {
                    self.funcs[f.idx()].address_taken = true;
                }
                let ty = self.types.pointer(e.ty);
                let span = e.span;
                mk(ExprKind::Decay(Box::new(e)), ty, span)
            }
            _ => e,
        }
    }

    /// `e` converted to `ty` by an implicit cast (nothing if the types are equal).
    pub(super) fn convert(&mut self, e: Expr, ty: TypeId) -> Expr {
        if e.ty == ty || matches!(self.types.kind(ty), TypeKind::Record(_)) {
            return e;
        }
        let span = e.span;
        mk(ExprKind::Cast(Box::new(e), CastOrigin::Implicit), ty, span)
    }

    fn is_arith(&self, ty: TypeId) -> bool {
        matches!(self.types.kind(ty), TypeKind::Int(_) | TypeKind::Float(_))
    }

    fn is_pointer(&self, ty: TypeId) -> bool {
        matches!(self.types.kind(ty), TypeKind::Pointer(_))
    }

    fn is_null_const(&self, e: &Expr) -> bool {
        self.types.as_int(e.ty).is_some() && eval_int(&self.types, e) == Some(0)
    }

    /// An rvalue usable as a condition.
    pub(super) fn scalar(&mut self, e: Expr) -> Res<Expr> {
        let e = self.rvalue(e);
        if !self.types.is_scalar(e.ty) {
            return self.err(e.span, format!("'{}' used where a scalar is required", self.types.display(e.ty)));
        }
        Ok(e)
    }

    fn conditional_operands(&mut self, a: Expr, b: Expr, span: Span) -> Res<(Expr, Expr, TypeId)> {
        if self.is_arith(a.ty) && self.is_arith(b.ty) {
            let a = self.promote_bitfield(a);
            let b = self.promote_bitfield(b);
            let ty = self.common_type(a.ty, b.ty);
            let a = self.convert(a, ty);
            let b = self.convert(b, ty);
            return Ok((a, b, ty));
        }
        if a.ty == b.ty {
            let ty = a.ty;
            return Ok((a, b, ty));
        }
        let (pa, pb) = (self.is_pointer(a.ty), self.is_pointer(b.ty));
        let ty = if pa && self.is_null_const(&b) {
            a.ty
        } else if pb && self.is_null_const(&a) {
            b.ty
        } else if pa && pb {
            let void = self.types.void();
            if self.types.pointee(a.ty) == Some(void) {
                a.ty
            } else if self.types.pointee(b.ty) == Some(void) {
                b.ty
            } else {
                a.ty
            }
        } else if matches!(self.types.kind(a.ty), TypeKind::Void) || matches!(self.types.kind(b.ty), TypeKind::Void) {
            self.types.void()
        } else if pa || pb {
            self.warn(span, "pointer/integer type mismatch in conditional expression");
            if pa {
                a.ty
            } else {
                b.ty
            }
        } else {
            return self.err(span, "incompatible operand types in conditional expression");
        };
        let a = self.convert(a, ty);
        let b = self.convert(b, ty);
        Ok((a, b, ty))
    }

    // ----- operators -----

    fn unary(&mut self, op: &ast::UnaryOperator, operand: &Node<ast::Expression>, span: Span) -> Res<Expr> {
        use ast::UnaryOperator as U;
        let e = self.expr(operand)?;
        match op {
            U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                let pre = matches!(op, U::PreIncrement | U::PreDecrement);
                let inc = matches!(op, U::PreIncrement | U::PostIncrement);
                let ty = e.ty;
                Ok(mk(ExprKind::IncDec { pre, inc, target: Box::new(e) }, ty, span))
            }
            U::Address => {
                if let ExprKind::Func(f) = e.kind {
                    self.funcs[f.idx()].address_taken = true;
                }
                let ty = self.types.pointer(e.ty);
                Ok(mk(ExprKind::AddrOf(Box::new(e)), ty, span))
            }
            U::Indirection => {
                let e = self.rvalue(e);
                match self.types.pointee(e.ty) {
                    Some(t) => Ok(mk(ExprKind::Deref(Box::new(e)), t, span)),
                    None => self.err(span, format!("dereference of non-pointer type '{}'", self.types.display(e.ty))),
                }
            }
            U::Plus | U::Minus | U::Complement => {
                let e = self.rvalue(e);
                if !self.is_arith(e.ty) {
                    return self.err(span, "arithmetic operator on a non-arithmetic operand");
                }
                let e = self.promote(e);
                let ty = e.ty;
                let op = match op {
                    U::Plus => UnOp::Plus,
                    U::Minus => UnOp::Neg,
                    _ => UnOp::BitNot,
                };
                Ok(mk(ExprKind::Unary(op, Box::new(e)), ty, span))
            }
            U::Negate => {
                let e = self.scalar(e)?;
                let int = self.int();
                Ok(mk(ExprKind::Unary(UnOp::LogNot, Box::new(e)), int, span))
            }
        }
    }

    fn binary(
        &mut self,
        op: &ast::BinaryOperator,
        lhs: &Node<ast::Expression>,
        rhs: &Node<ast::Expression>,
        span: Span,
    ) -> Res<Expr> {
        use ast::BinaryOperator as B;
        let bin = |o: &B| -> Option<BinOp> {
            Some(match o {
                B::Multiply | B::AssignMultiply => BinOp::Mul,
                B::Divide | B::AssignDivide => BinOp::Div,
                B::Modulo | B::AssignModulo => BinOp::Rem,
                B::Plus | B::AssignPlus => BinOp::Add,
                B::Minus | B::AssignMinus => BinOp::Sub,
                B::ShiftLeft | B::AssignShiftLeft => BinOp::Shl,
                B::ShiftRight | B::AssignShiftRight => BinOp::Shr,
                B::Less => BinOp::Lt,
                B::Greater => BinOp::Gt,
                B::LessOrEqual => BinOp::Le,
                B::GreaterOrEqual => BinOp::Ge,
                B::Equals => BinOp::Eq,
                B::NotEquals => BinOp::Ne,
                B::BitwiseAnd | B::AssignBitwiseAnd => BinOp::BitAnd,
                B::BitwiseXor | B::AssignBitwiseXor => BinOp::BitXor,
                B::BitwiseOr | B::AssignBitwiseOr => BinOp::BitOr,
                B::LogicalAnd => BinOp::LogAnd,
                B::LogicalOr => BinOp::LogOr,
                B::Index | B::Assign => return None,
            })
        };
        match op {
            B::Index => {
                let a = self.expr(lhs)?;
                let a = self.rvalue(a);
                let i = self.expr(rhs)?;
                let i = self.rvalue(i);
                let (base, idx) = if self.is_pointer(a.ty) { (a, i) } else { (i, a) };
                let Some(elem) = self.types.pointee(base.ty) else {
                    return self.err(span, "subscript of a non-pointer, non-array value");
                };
                if self.types.as_int(idx.ty).is_none() {
                    return self.err(span, "array subscript is not an integer");
                }
                let idx = self.promote(idx);
                Ok(mk(ExprKind::Index(Box::new(base), Box::new(idx)), elem, span))
            }
            B::Assign => {
                let (l, r) = self.assignment_operands(lhs, rhs, span)?;
                let ty = l.ty;
                let r = self.convert(r, ty);
                Ok(mk(ExprKind::Assign(Box::new(l), Box::new(r)), ty, span))
            }
            B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => {
                let o = bin(op).expect("compound operator");
                let (l, r) = self.assignment_operands(lhs, rhs, span)?;
                let ty = l.ty;
                let (r, comp) = if self.is_pointer(ty) {
                    let r = self.promote(r);
                    (r, ty)
                } else if matches!(o, BinOp::Shl | BinOp::Shr) {
                    let comp = self.promoted_type_of(&l);
                    (self.promote(r), comp)
                } else {
                    let r = self.promote_bitfield(r);
                    let lp = self.promoted_type_of(&l);
                    let comp = self.common_type(lp, r.ty);
                    (self.convert(r, comp), comp)
                };
                Ok(mk(ExprKind::CompoundAssign(o, Box::new(l), Box::new(r), comp), ty, span))
            }
            _ => {
                let o = bin(op).expect("binary operator");
                let a = self.expr(lhs)?;
                let a = self.rvalue(a);
                let b = self.expr(rhs)?;
                let b = self.rvalue(b);
                self.binary_typed(o, a, b, span)
            }
        }
    }

    /// The operands of an assignment (plain or compound): an lvalue, and a value that is not void.
    fn assignment_operands(
        &mut self,
        lhs: &Node<ast::Expression>,
        rhs: &Node<ast::Expression>,
        span: Span,
    ) -> Res<(Expr, Expr)> {
        let l = self.expr(lhs)?;
        if !is_lvalue(&l) {
            return self.err(span, "lvalue required as left operand of assignment");
        }
        let r = self.expr(rhs)?;
        if matches!(self.types.kind(r.ty), TypeKind::Void) {
            return self.err(span, "void value not ignored as it ought to be");
        }
        Ok((l, self.rvalue(r)))
    }

    /// Types `a op b` for rvalue operands.
    pub(super) fn binary_typed(&mut self, o: BinOp, a: Expr, b: Expr, span: Span) -> Res<Expr> {
        let int = self.int();
        let mkb = |o, a, b, ty| mk(ExprKind::Binary(o, Box::new(a), Box::new(b)), ty, span);
        if matches!(o, BinOp::LogAnd | BinOp::LogOr) {
            let a = self.scalar(a)?;
            let b = self.scalar(b)?;
            return Ok(mkb(o, a, b, int));
        }
        let (pa, pb) = (self.is_pointer(a.ty), self.is_pointer(b.ty));
        if pa || pb {
            return match o {
                BinOp::Add if pa && !pb => {
                    let ty = a.ty;
                    let b = self.promote(b);
                    Ok(mkb(o, a, b, ty))
                }
                BinOp::Add if pb && !pa => {
                    let ty = b.ty;
                    let a = self.promote(a);
                    Ok(mkb(o, a, b, ty))
                }
                BinOp::Sub if pa && !pb => {
                    let ty = a.ty;
                    let b = self.promote(b);
                    Ok(mkb(o, a, b, ty))
                }
                BinOp::Sub if pa && pb => {
                    let ty = self.ptrdiff_t;
                    Ok(mkb(o, a, b, ty))
                }
                _ if o.is_relational() => {
                    let (a, b) = if pa {
                        let ty = a.ty;
                        (a, self.convert(b, ty))
                    } else {
                        let ty = b.ty;
                        (self.convert(a, ty), b)
                    };
                    Ok(mkb(o, a, b, int))
                }
                _ => self.err(span, format!("invalid operands to binary '{}' (pointer)", o.symbol())),
            };
        }
        if !self.is_arith(a.ty) || !self.is_arith(b.ty) {
            return self.err(span, format!("invalid operands to binary '{}'", o.symbol()));
        }
        if matches!(o, BinOp::Shl | BinOp::Shr) {
            let a = self.promote(a);
            let b = self.promote(b);
            let ty = a.ty;
            return Ok(mkb(o, a, b, ty));
        }
        let a = self.promote_bitfield(a);
        let b = self.promote_bitfield(b);
        let ty = self.common_type(a.ty, b.ty);
        let a = self.convert(a, ty);
        let b = self.convert(b, ty);
        let res_ty = if o.is_relational() { int } else { ty };
        Ok(mkb(o, a, b, res_ty))
    }

    fn member(&mut self, m: &Node<ast::MemberExpression>, span: Span) -> Res<Expr> {
        let arrow = matches!(m.node.operator.node, ast::MemberOperator::Indirect);
        let base = self.expr(&m.node.expression)?;
        let name = &m.node.identifier.node.name;
        let (base, rec_ty) = if arrow {
            let base = self.rvalue(base);
            match self.types.pointee(base.ty) {
                Some(t) => (base, t),
                None => return self.err(span, format!("'->{name}' on a non-pointer")),
            }
        } else {
            let t = base.ty;
            (base, t)
        };
        let TypeKind::Record(r) = self.types.kind(rec_ty).clone() else {
            return self.err(span, format!("member '{name}' of a non-struct type '{}'", self.types.display(rec_ty)));
        };
        let Some((path, _)) = self.types.find_field(r, name) else {
            return self.err(span, format!("no member named '{name}' in '{}'", self.types.display(rec_ty)));
        };
        let mut cur = base;
        let mut rec = r;
        let n = path.len();
        for (k, i) in path.into_iter().enumerate() {
            let fty = self.types.record(rec).fields.as_ref().expect("complete record")[i].ty;
            let first = k == 0;
            cur = mk(
                ExprKind::Member { base: Box::new(cur), field: i, arrow: arrow && first, anonymous: k + 1 < n },
                fty,
                span,
            );
            if let TypeKind::Record(inner) = self.types.kind(fty) {
                rec = *inner;
            }
        }
        Ok(cur)
    }

    fn call(&mut self, c: &Node<ast::CallExpression>, span: Span) -> Res<Expr> {
        // A call of an undeclared function declares it implicitly as `int f()`.
        let callee = match &c.node.callee.node {
            // gcc declares its builtins itself (glibc's <stdlib.h> calls `__builtin_bswap32`).
            ast::Expression::Identifier(id)
                if self.lookup(&id.node.name).is_none() && self.builtin_type(&id.node.name).is_some() =>
            {
                let ty = self.builtin_type(&id.node.name).expect("checked");
                let f = self.declare_func(&id.node.name, ty, sp(&id.span));
                mk(ExprKind::Func(f), ty, sp(&id.span))
            }
            ast::Expression::Identifier(id) if self.lookup(&id.node.name).is_none() => {
                let int = self.int();
                let ty = self.types.intern(TypeKind::Func(FuncType {
                    ret: int,
                    params: Vec::new(),
                    variadic: false,
                    unprototyped: true,
                }));
                self.warn(sp(&id.span), format!("implicit declaration of function '{}'", id.node.name));
                let f = self.declare_func(&id.node.name, ty, sp(&id.span));
                self.funcs[f.idx()].implicit = true;
                mk(ExprKind::Func(f), ty, sp(&id.span))
            }
            _ => self.expr(&c.node.callee)?,
        };
        let callee = match self.types.kind(callee.ty) {
            TypeKind::Func(_) => callee,
            TypeKind::Pointer(t) if matches!(self.types.kind(*t), TypeKind::Func(_)) => callee,
            _ => {
                let callee = self.rvalue(callee);
                if !matches!(self.types.pointee(callee.ty).map(|t| self.types.kind(t)), Some(TypeKind::Func(_))) {
                    return self.err(span, "called object is not a function");
                }
                callee
            }
        };
        let fty = match self.types.kind(callee.ty) {
            TypeKind::Func(ft) => ft.clone(),
            TypeKind::Pointer(t) => match self.types.kind(*t) {
                TypeKind::Func(ft) => ft.clone(),
                _ => unreachable!("checked above"),
            },
            _ => unreachable!("checked above"),
        };
        let generic = match &callee.kind {
            ExprKind::Func(f) => {
                self.funcs[f.idx()].name.strip_prefix("__builtin_").is_some_and(|b| TYPE_GENERIC.contains(&b))
            }
            _ => false,
        };
        let mut args = Vec::with_capacity(c.node.arguments.len());
        for (i, a) in c.node.arguments.iter().enumerate() {
            let e = self.expr(a)?;
            let e = self.rvalue(e);
            let e = match fty.params.get(i) {
                Some(&pt) if !fty.unprototyped => self.convert(e, pt),
                _ if generic => self.promote(e),
                _ => self.default_promote(e),
            };
            args.push(e);
        }
        if !fty.unprototyped && !fty.variadic && args.len() != fty.params.len() {
            self.warn(span, format!("call with {} arguments, the function takes {}", args.len(), fty.params.len()));
        }
        Ok(mk(ExprKind::Call(Box::new(callee), args), fty.ret, span))
    }

    /// The prototype gcc gives builtin `name`, for the builtins `libmodels` models (and glibc's
    /// headers call without declaring them); other builtins are implicitly declared, so that a call
    /// the executor cannot model is cut, not guessed.
    fn builtin_type(&mut self, name: &str) -> Option<TypeId> {
        let base = name.strip_prefix("__builtin_")?;
        let t = &mut self.types;
        let void = t.intern(TypeKind::Void);
        let int = t.int(IntType::INT);
        let long = t.int(IntType::LONG);
        let ushort = t.int(IntType { rank: IntRank::Short, signed: false });
        let uint = t.int(IntType::UINT);
        let ullong = t.int(IntType::ULLONG);
        let voidp = t.pointer(void);
        let size_t = self.size_t;
        let (ret, params) = match base {
            "bswap16" => (ushort, vec![ushort]),
            "bswap32" => (uint, vec![uint]),
            "bswap64" => (ullong, vec![ullong]),
            "expect" => (long, vec![long, long]),
            "memcpy" | "memmove" => (voidp, vec![voidp, voidp, size_t]),
            "memset" => (voidp, vec![voidp, int, size_t]),
            "malloc" | "alloca" => (voidp, vec![size_t]),
            "calloc" => (voidp, vec![size_t, size_t]),
            "free" => (void, vec![voidp]),
            "abort" | "trap" | "unreachable" => (void, vec![]),
            _ if TYPE_GENERIC.contains(&base) => {
                // Its operands keep their own types (`call` does not promote them).
                return Some(t.intern(TypeKind::Func(FuncType {
                    ret: int,
                    params: vec![],
                    variadic: true,
                    unprototyped: false,
                })));
            }
            _ => return self.math_builtin_type(base),
        };
        Some(self.types.intern(TypeKind::Func(FuncType { ret, params, variadic: false, unprototyped: false })))
    }

    /// The prototype of a `math.h` builtin of `float` (`f` suffix) or `double` (`__builtin_fabsf`,
    /// `__builtin_inff`, `__builtin_nan`, ...), as `<math.h>` declares the function of that name.
    fn math_builtin_type(&mut self, base: &str) -> Option<TypeId> {
        let (stem, kind) = match base.strip_suffix('f') {
            Some(stem) if MATH_BUILTINS.iter().any(|(n, _)| *n == stem) => (stem, FloatKind::Float),
            _ => (base, FloatKind::Double),
        };
        let &(_, shape) = MATH_BUILTINS.iter().find(|(n, _)| *n == stem)?;
        let t = &mut self.types;
        let x = t.intern(TypeKind::Float(kind));
        let (int, long) = (t.int(IntType::INT), t.int(IntType::LONG));
        let char_ = t.int(IntType::CHAR);
        let text = t.intern(TypeKind::Pointer(char_));
        let (ret, params) = match shape {
            MathShape::Constant => (x, vec![]),
            MathShape::Unary => (x, vec![x]),
            MathShape::Binary => (x, vec![x, x]),
            MathShape::Ternary => (x, vec![x, x, x]),
            MathShape::Scale => (x, vec![x, int]),
            MathShape::ToLong => (long, vec![x]),
            MathShape::ToLongLong => (t.int(IntType::LLONG), vec![x]),
            MathShape::FromText => (x, vec![text]),
        };
        Some(t.intern(TypeKind::Func(FuncType { ret, params, variadic: false, unprototyped: false })))
    }

    /// Default argument promotions (integer promotion, `float` to `double`).
    fn default_promote(&mut self, e: Expr) -> Expr {
        if matches!(self.types.kind(e.ty), TypeKind::Float(FloatKind::Float)) {
            let d = self.types.intern(TypeKind::Float(FloatKind::Double));
            return self.convert(e, d);
        }
        self.promote(e)
    }

    // ----- literals -----

    fn constant(&mut self, c: &ast::Constant, span: Span) -> Res<Expr> {
        match c {
            ast::Constant::Integer(i) => {
                let radix = match i.base {
                    ast::IntegerBase::Decimal => 10,
                    ast::IntegerBase::Octal => 8,
                    ast::IntegerBase::Hexadecimal => 16,
                    ast::IntegerBase::Binary => 2,
                };
                let digits = i.number.trim_start_matches("0x").trim_start_matches("0X");
                let Ok(value) = u128::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix) else {
                    return self.err(span, "integer constant is too large");
                };
                let dm = self.types.data_model();
                let decimal = radix == 10;
                let candidates: &[IntType] = match (i.suffix.unsigned, &i.suffix.size) {
                    (false, ast::IntegerSize::Int) if decimal => &[IntType::INT, IntType::LONG, IntType::LLONG],
                    (false, ast::IntegerSize::Int) => {
                        &[IntType::INT, IntType::UINT, IntType::LONG, IntType::ULONG, IntType::LLONG, IntType::ULLONG]
                    }
                    (true, ast::IntegerSize::Int) => &[IntType::UINT, IntType::ULONG, IntType::ULLONG],
                    (false, ast::IntegerSize::Long) if decimal => &[IntType::LONG, IntType::LLONG],
                    (false, ast::IntegerSize::Long) => {
                        &[IntType::LONG, IntType::ULONG, IntType::LLONG, IntType::ULLONG]
                    }
                    (true, ast::IntegerSize::Long) => &[IntType::ULONG, IntType::ULLONG],
                    (false, ast::IntegerSize::LongLong) if decimal => &[IntType::LLONG],
                    (false, ast::IntegerSize::LongLong) => &[IntType::LLONG, IntType::ULLONG],
                    (true, ast::IntegerSize::LongLong) => &[IntType::ULLONG],
                };
                let it = candidates.iter().copied().find(|t| value <= t.max(dm) as u128).unwrap_or(IntType::ULLONG);
                let ty = self.types.int(it);
                Ok(mk(ExprKind::IntConst(it.wrap(value as i128, dm)), ty, span))
            }
            ast::Constant::Float(f) => {
                let digits: String = f.number.chars().filter(|c| *c != '_').collect();
                let text = match f.base {
                    ast::FloatBase::Hexadecimal => format!("0x{digits}"),
                    ast::FloatBase::Decimal => digits,
                };
                let kind = match f.suffix.format {
                    ast::FloatFormat::Float => FloatKind::Float,
                    ast::FloatFormat::LongDouble => FloatKind::LongDouble,
                    _ => FloatKind::Double,
                };
                let parse = |format| fp::parse(format, &text);
                let (Some(double), bits) = (parse(fp::Format::Double), kind.format().map(parse)) else {
                    return self.err(span, format!("`{text}` is no floating constant"));
                };
                let lit = FloatLit { value: f64::from_bits(double as u64), bits: bits.flatten() };
                let ty = self.types.intern(TypeKind::Float(kind));
                Ok(mk(ExprKind::FloatConst(lit), ty, span))
            }
            ast::Constant::Character(s) => {
                let body = s.trim_start_matches(['L', 'u', 'U']);
                let bytes = decode_string_piece(body);
                // A plain character constant has type int and the value of a (signed) char.
                let v = match bytes.as_slice() {
                    [] => 0,
                    [b] => *b as i8 as i128,
                    many => many.iter().fold(0i128, |acc, b| (acc << 8) | *b as i128),
                };
                let int = self.int();
                Ok(mk(ExprKind::IntConst(v), int, span))
            }
        }
    }
}

/// Decodes one quoted string or character literal (`"a\n"`, `'\x41'`) to bytes.
pub(super) fn decode_string_piece(piece: &str) -> Vec<u8> {
    let piece = piece.trim_start_matches(['L', 'u', 'U', '8']);
    let inner = piece.get(1..piece.len().saturating_sub(1)).unwrap_or("");
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = b[i];
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'e' => out.push(27),
            b'x' => {
                let mut v: u32 = 0;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                out.push(v as u8);
            }
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `e` holds a construct CPAchecker's AST converter turns into branches (`?:`, `&&`, `||`,
/// a comma), and whether it holds one with an effect (a call, an assignment, `++`, a statement
/// expression).
fn hoisted_parts(e: &Expr) -> (bool, bool) {
    let mut branches = false;
    let mut effects = false;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            // (What an effect holds is not looked into.)
            ExprKind::Call(..)
            | ExprKind::Assign(..)
            | ExprKind::CompoundAssign(..)
            | ExprKind::IncDec { .. }
            | ExprKind::StmtExpr(_)
            | ExprKind::Unsupported(_) => {
                effects = true;
                continue;
            }
            ExprKind::Cond(..) | ExprKind::Comma(..) => branches = true,
            ExprKind::Binary(op, _, _) => branches |= matches!(op, BinOp::LogAnd | BinOp::LogOr),
            _ => {}
        }
        e.for_each_child(|x| stack.push(x));
    }
    (branches, effects)
}

/// Whether `e` designates an object (C11 6.3.2.1): a variable, `*p`, `a[i]`, a member of an lvalue
/// or through a pointer, or a string literal; casts, calls, constants and assignments do not.
fn is_lvalue(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Index(..) | ExprKind::Str(_) => true,
        ExprKind::Member { base, arrow, .. } => *arrow || is_lvalue(base),
        ExprKind::Unsupported(_) => true,
        _ => false,
    }
}

/// gcc's type-generic builtins (`__builtin_isnan`, ...): each operand keeps its type, `float`
/// included, and the result is an `int`.
const TYPE_GENERIC: &[&str] = &[
    "isnan",
    "isinf",
    "isinf_sign",
    "isfinite",
    "isnormal",
    "signbit",
    "fpclassify",
    "isgreater",
    "isgreaterequal",
    "isless",
    "islessequal",
    "islessgreater",
    "isunordered",
];

/// The shape of a `math.h` function's prototype, `x` being its `double` or `float`.
#[derive(Clone, Copy)]
enum MathShape {
    /// `x f(void)`
    Constant,
    /// `x f(x)`
    Unary,
    /// `x f(x, x)`
    Binary,
    /// `x f(x, x, x)`
    Ternary,
    /// `x f(x, int)`
    Scale,
    /// `long f(x)`
    ToLong,
    /// `long long f(x)`
    ToLongLong,
    /// `x f(const char *)`
    FromText,
}

/// The `math.h` builtins by their `double` name; the `float` one adds `f`.
const MATH_BUILTINS: &[(&str, MathShape)] = &[
    ("inf", MathShape::Constant),
    ("huge_val", MathShape::Constant),
    ("nan", MathShape::FromText),
    ("fabs", MathShape::Unary),
    ("sqrt", MathShape::Unary),
    ("floor", MathShape::Unary),
    ("ceil", MathShape::Unary),
    ("trunc", MathShape::Unary),
    ("round", MathShape::Unary),
    ("rint", MathShape::Unary),
    ("nearbyint", MathShape::Unary),
    ("lround", MathShape::ToLong),
    ("lrint", MathShape::ToLong),
    ("llround", MathShape::ToLongLong),
    ("llrint", MathShape::ToLongLong),
    ("copysign", MathShape::Binary),
    ("fmin", MathShape::Binary),
    ("fmax", MathShape::Binary),
    ("fmod", MathShape::Binary),
    ("remainder", MathShape::Binary),
    ("fma", MathShape::Ternary),
    ("ldexp", MathShape::Scale),
    ("scalbn", MathShape::Scale),
];
