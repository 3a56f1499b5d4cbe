//! Side effects inside expressions, hoisted the way CPAchecker's AST converter does it: calls in values
//! become `__CPAchecker_TMP_<n>` temporaries, assignments and `x++` used as values become statements
//! before the main edge, and `?:`, `&&`/`||` used as values and comma lists become branches.
//!
//! GNU statement expressions `({ ...; e; })` are CPAchecker's too (`handleCompoundStatementExpression`):
//! their statements become edges in place; one with a value gets a temporary, set last by an edge
//! whose text is the printed assignment (`__CPAchecker_TMP_0 = e;`). CPAchecker 1.5 gives a `void`
//! statement expression a temporary as well and then rejects one that does not end in an expression
//! statement (glibc's `assert` ends in an `if`); current CPAchecker gives it none and builds its last
//! statement like the others, which vcov does (1.5 never wrote an automaton for such programs).

use super::build::FnBuilder;
use super::print::{expr_text, operand_text};
use super::{BlankKind, EdgeKind, Era, NodeId};
use crate::base::Span;
use crate::cfront::ir::{BinOp, CastOrigin, Expr, ExprKind, Init, InitLeaf, StmtKind, VarId, VarKind};
use crate::cfront::types::{IntType, TypeKind};

/// The right-hand side of an assignment statement.
#[derive(Clone, Debug)]
pub(super) enum Rhs {
    Expr(Expr),
    Call(CallParts),
}

/// A function call with converted (side-effect-free) parts.
#[derive(Clone, Debug)]
pub(super) struct CallParts {
    pub callee: Expr,
    pub args: Vec<Expr>,
    /// The call's own type (the callee's return type).
    pub ty: crate::cfront::types::TypeId,
}

/// A converted expression that may still be a call or an assignment at the top.
#[derive(Clone, Debug)]
pub(super) enum Conv {
    Expr(Expr),
    Call(CallParts),
    Assign(Expr, Rhs),
}

/// A statement CPAchecker puts on a statement edge.
#[derive(Clone, Debug)]
pub(super) enum SimpleStmt {
    Assign(Expr, Rhs),
    Call(CallParts),
    Eval(Expr),
}

/// Something that must happen before the main edge of a statement.
#[derive(Clone, Debug)]
pub(super) enum SideItem {
    /// A temporary comes into existence (initialised by the expression, if any).
    Decl(VarId, Option<Expr>),
    /// The temporary CPAchecker before 2.3 declares for a cast of `p->f`, initialised by the cast.
    CastTmp(VarId, Expr),
    /// A statement edge.
    Stmt(SimpleStmt),
    /// A branching construct that assigns the temporary (if any).
    Cond(CondItem, Option<VarId>),
}

/// A value-producing branching construct.
#[derive(Clone, Debug)]
pub(super) enum CondItem {
    Ternary(Expr),
    ShortCircuit(Expr),
    List(Vec<Expr>),
    /// A statement expression (`ExprKind::StmtExpr`).
    Block(Expr),
}

impl CondItem {
    /// The span of the construct (of its first operand for a comma list).
    fn span(&self) -> Span {
        match self {
            CondItem::Ternary(e) | CondItem::ShortCircuit(e) | CondItem::Block(e) => e.span,
            CondItem::List(items) => items.first().map(|e| e.span).unwrap_or_default(),
        }
    }
}

/// Where a conversion happens, for CPAchecker's special cases.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    Plain,
    /// The right-hand side of a simple assignment (the `(T *)malloc(..)` special case).
    AssignRhs,
    /// The iteration expression of a `for` (`i++` needs no temporary).
    ForIteration,
}

impl FnBuilder<'_> {
    /// A fresh `__CPAchecker_TMP_<n>` of type `ty` (arrays become pointers, void becomes int).
    pub(super) fn new_tmp(&mut self, ty: crate::cfront::types::TypeId, span: Span) -> VarId {
        let ty = match self.prog.types.kind(ty).clone() {
            TypeKind::Array(elem, _) => self.prog.types.pointer(elem),
            TypeKind::Void => self.prog.types.int(IntType::INT),
            _ => ty,
        };
        let mut i = 0;
        let name = loop {
            let name = format!("__CPAchecker_TMP_{i}");
            if !self.names_in_use.contains(&name) {
                break name;
            }
            i += 1;
        };
        self.names_in_use.insert(name.clone());
        self.prog.vars.push(crate::cfront::ir::Var {
            name: name.clone(),
            cpa_name: name,
            ty,
            kind: VarKind::Local(self.func),
            span,
            is_extern: false,
        });
        VarId::from_idx(self.prog.vars.len() - 1)
    }

    fn var_expr(&self, v: VarId, span: Span) -> Expr {
        Expr { kind: ExprKind::Var(v), ty: self.prog.var(v).ty, span }
    }

    /// CPAchecker's `convertExpressionWithoutSideEffects`.
    ///
    /// The value of a hoisted call or assignment is converted to `e`'s type: `with_se` returns the
    /// call or assignment from under the implicit conversions its context applies (so that a
    /// statement keeps it at the top), and the temporary keeps the call's type as in CPAchecker, so
    /// `-d()` with `unsigned char d()` is `-(int)TMP` and `m(d())` passes `(short)TMP`. Implicit
    /// conversions are not printed: edge texts do not change.
    pub(super) fn without_se(&mut self, e: &Expr, pre: &mut Vec<SideItem>) -> Expr {
        match self.with_se(e, Ctx::Plain, pre) {
            Conv::Expr(x) => x,
            Conv::Call(c) => {
                let tmp = self.new_tmp(c.ty, e.span);
                pre.push(SideItem::Decl(tmp, None));
                let lhs = self.var_expr(tmp, e.span);
                pre.push(SideItem::Stmt(SimpleStmt::Assign(lhs.clone(), Rhs::Call(c))));
                self.convert_to(lhs, e.ty)
            }
            Conv::Assign(lhs, rhs) => {
                pre.push(SideItem::Stmt(SimpleStmt::Assign(lhs.clone(), rhs)));
                self.convert_to(lhs, e.ty)
            }
        }
    }

    /// `item` (a `?:` or a statement expression of type `ty`) hoisted into `pre`, its value in a
    /// fresh temporary; a value-less one gets none and its user sees the placeholder `0`.
    fn hoist(&mut self, item: CondItem, ty: crate::cfront::types::TypeId, span: Span, pre: &mut Vec<SideItem>) -> Conv {
        if matches!(self.prog.types.kind(ty), TypeKind::Void) {
            pre.push(SideItem::Cond(item, None));
            return Conv::Expr(Expr { kind: ExprKind::IntConst(0), ty: self.prog.types.int(IntType::INT), span });
        }
        let tmp = self.new_tmp(ty, span);
        pre.push(SideItem::Decl(tmp, None));
        pre.push(SideItem::Cond(item, Some(tmp)));
        Conv::Expr(self.var_expr(tmp, span))
    }

    /// CPAchecker's `convertExpressionWithSideEffects`.
    pub(super) fn with_se(&mut self, e: &Expr, ctx: Ctx, pre: &mut Vec<SideItem>) -> Conv {
        let span = e.span;
        let ty = e.ty;
        let mk = |kind| Expr { kind, ty, span };
        match &e.kind {
            ExprKind::Cast(inner, origin) => self.cast_with_se(e, inner, origin, ctx, pre),
            ExprKind::Call(callee, args) => {
                let callee = match &callee.kind {
                    ExprKind::Func(_) => (**callee).clone(),
                    _ => self.without_se(callee, pre),
                };
                let args = args.iter().map(|a| self.without_se(a, pre)).collect();
                Conv::Call(CallParts { callee, args, ty })
            }
            ExprKind::Assign(l, r) => self.assign_with_se(l, r, pre),
            ExprKind::CompoundAssign(op, l, r, comp) => {
                let lhs = self.without_se(l, pre);
                let rhs = self.without_se(r, pre);
                let value = self.arith(*op, lhs.clone(), rhs, *comp, span);
                let value = self.convert_to(value, lhs.ty);
                Conv::Assign(lhs, Rhs::Expr(value))
            }
            ExprKind::IncDec { pre: prefix, inc, target } => {
                self.inc_dec_with_se(target, *prefix, *inc, ctx, span, pre)
            }
            ExprKind::Cond(c, a, b) => match self.constant_value(c) {
                Some(v) => self.with_se(if v != 0 { a } else { b }, ctx, pre),
                None => self.hoist(CondItem::Ternary(e.clone()), ty, span, pre),
            },
            // A value-less one needs no temporary (current CPAchecker), as for a value-less `?:`.
            ExprKind::StmtExpr(_) => self.hoist(CondItem::Block(e.clone()), ty, span, pre),
            ExprKind::SizeOfExpr(v, operand) => {
                // The operand is converted for its branches only (see `ExprKind::SizeOfExpr`).
                let _ = self.without_se(operand, pre);
                Conv::Expr(mk(ExprKind::SizeOf(*v)))
            }
            ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, _, _) => {
                let tmp = self.new_tmp(ty, span);
                pre.push(SideItem::Decl(tmp, None));
                pre.push(SideItem::Cond(CondItem::ShortCircuit(e.clone()), Some(tmp)));
                Conv::Expr(self.var_expr(tmp, span))
            }
            ExprKind::Comma(..) => {
                let mut items = Vec::new();
                flatten_comma(e, &mut items);
                let tmp = self.new_tmp(ty, span);
                pre.push(SideItem::Decl(tmp, None));
                pre.push(SideItem::Cond(CondItem::List(items), Some(tmp)));
                Conv::Expr(self.var_expr(tmp, span))
            }
            _ => Conv::Expr(self.operands_without_se(e, pre)),
        }
    }

    /// `with_se` of the cast `e` of `inner`.
    fn cast_with_se(&mut self, e: &Expr, inner: &Expr, origin: &CastOrigin, ctx: Ctx, pre: &mut Vec<SideItem>) -> Conv {
        let (ty, span) = (e.ty, e.span);
        let mk = |kind| Expr { kind, ty, span };
        let text = match origin {
            // The call or assignment comes out without its conversion: a statement keeps it at the
            // top and converts on the store (assignment, initializer, `?:` branch); `without_se`
            // converts its value to the type of the whole expression.
            CastOrigin::Implicit => {
                return match self.with_se(inner, ctx, pre) {
                    Conv::Expr(x) => Conv::Expr(mk(ExprKind::Cast(Box::new(x), CastOrigin::Implicit))),
                    other => other,
                }
            }
            CastOrigin::Explicit(text) => text,
        };
        if matches!(self.prog.types.kind(ty), TypeKind::Void) {
            return self.with_se(inner, ctx, pre);
        }
        let inner_s = inner.strip_implicit();
        // `p = (struct s *)malloc(n)` keeps the call at the top (the cast is dropped).
        if ctx == Ctx::AssignRhs
            && matches!(inner_s.kind, ExprKind::Call(..))
            && self.is_void_pointer(inner_s.ty)
            && self.prog.types.pointee(ty).is_some()
        {
            return self.with_se(inner_s, Ctx::Plain, pre);
        }
        let x = self.without_se(inner, pre);
        let cast = mk(ExprKind::Cast(Box::new(x), CastOrigin::Explicit(text.clone())));
        if matches!(inner_s.kind, ExprKind::Member { arrow: true, .. }) {
            let tmp = self.new_tmp(ty, span);
            pre.push(SideItem::CastTmp(tmp, cast));
            return Conv::Expr(self.var_expr(tmp, span));
        }
        Conv::Expr(cast)
    }

    /// `with_se` of the assignment `l = r`: a chain `a = b = c` becomes statements from the right.
    fn assign_with_se(&mut self, l: &Expr, r: &Expr, pre: &mut Vec<SideItem>) -> Conv {
        let lhs = self.without_se(l, pre);
        match self.with_se(r, Ctx::AssignRhs, pre) {
            Conv::Expr(x) => Conv::Assign(lhs, Rhs::Expr(x)),
            Conv::Call(c) => Conv::Assign(lhs, Rhs::Call(c)),
            Conv::Assign(l2, r2) => {
                pre.push(SideItem::Stmt(SimpleStmt::Assign(l2.clone(), r2)));
                let conv = self.convert_to(l2, lhs.ty);
                Conv::Assign(lhs, Rhs::Expr(conv))
            }
        }
    }

    /// `with_se` of `++target`/`--target` (`prefix`) or `target++`/`target--` at `span`: a
    /// postfix one used as a value keeps the old value in a temporary.
    fn inc_dec_with_se(
        &mut self,
        target: &Expr,
        prefix: bool,
        inc: bool,
        ctx: Ctx,
        span: Span,
        pre: &mut Vec<SideItem>,
    ) -> Conv {
        let lhs = self.without_se(target, pre);
        let one = Expr { kind: ExprKind::IntConst(1), ty: self.prog.types.int(IntType::INT), span };
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let comp = if self.prog.types.pointee(lhs.ty).is_some() { lhs.ty } else { self.promoted(lhs.ty) };
        let value = self.arith(op, lhs.clone(), one, comp, span);
        let value = self.convert_to(value, lhs.ty);
        if prefix || ctx == Ctx::ForIteration {
            return Conv::Assign(lhs, Rhs::Expr(value));
        }
        let tmp = self.new_tmp(lhs.ty, span);
        pre.push(SideItem::Decl(tmp, Some(lhs.clone())));
        pre.push(SideItem::Stmt(SimpleStmt::Assign(lhs, Rhs::Expr(value))));
        Conv::Expr(self.var_expr(tmp, span))
    }

    /// `e`, which has no side effect at its top (an operator, a member, an index, a dereference,
    /// an address, a decay) or no operand at all, with its operands converted without side effects.
    fn operands_without_se(&mut self, e: &Expr, pre: &mut Vec<SideItem>) -> Expr {
        let mk = |kind| Expr { kind, ty: e.ty, span: e.span };
        match &e.kind {
            ExprKind::Unary(op, x) => {
                let x = self.without_se(x, pre);
                mk(ExprKind::Unary(*op, Box::new(x)))
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.without_se(a, pre);
                let b = self.without_se(b, pre);
                mk(ExprKind::Binary(*op, Box::new(a), Box::new(b)))
            }
            ExprKind::Member { base, field, arrow, anonymous } => {
                let base = self.without_se(base, pre);
                mk(ExprKind::Member { base: Box::new(base), field: *field, arrow: *arrow, anonymous: *anonymous })
            }
            ExprKind::Index(a, i) => {
                let a = self.without_se(a, pre);
                let i = self.without_se(i, pre);
                mk(ExprKind::Index(Box::new(a), Box::new(i)))
            }
            ExprKind::Deref(x) => {
                let x = self.without_se(x, pre);
                mk(ExprKind::Deref(Box::new(x)))
            }
            ExprKind::AddrOf(x) => {
                let x = self.without_se(x, pre);
                mk(ExprKind::AddrOf(Box::new(x)))
            }
            ExprKind::Decay(x) => {
                let x = self.without_se(x, pre);
                mk(ExprKind::Decay(Box::new(x)))
            }
            // A constant, a name, a folded `sizeof`, an unsupported construct: nothing to convert.
            _ => {
                debug_assert!(!e.has_operands(), "`with_se` handles each expression with operands: {:?}", e.kind);
                e.clone()
            }
        }
    }

    /// CPAchecker's `convertExpressionToStatement`.
    pub(super) fn as_statement(&mut self, e: &Expr, ctx: Ctx, pre: &mut Vec<SideItem>) -> SimpleStmt {
        match self.with_se(e, ctx, pre) {
            Conv::Expr(x) => SimpleStmt::Eval(x),
            Conv::Call(c) => SimpleStmt::Call(c),
            Conv::Assign(l, r) => SimpleStmt::Assign(l, r),
        }
    }

    /// Converts an initializer: a call becomes a post-assignment of the variable (`int x = f();`).
    pub(super) fn convert_init(
        &mut self,
        var: VarId,
        init: &Init,
        pre: &mut Vec<SideItem>,
        post: &mut Vec<SideItem>,
    ) -> Option<Init> {
        match init {
            Init::Expr(e) => match self.with_se(e, Ctx::AssignRhs, pre) {
                Conv::Expr(x) => Some(Init::Expr(x)),
                Conv::Call(c) => {
                    let lhs = self.var_expr(var, e.span);
                    post.push(SideItem::Stmt(SimpleStmt::Assign(lhs, Rhs::Call(c))));
                    None
                }
                Conv::Assign(l, r) => {
                    pre.push(SideItem::Stmt(SimpleStmt::Assign(l.clone(), r)));
                    let ty = self.prog.var(var).ty;
                    Some(Init::Expr(self.convert_to(l, ty)))
                }
            },
            Init::List(leaves) => {
                let leaves = leaves
                    .iter()
                    .map(|l| InitLeaf { path: l.path.clone(), value: self.without_se(&l.value, pre) })
                    .collect();
                Some(Init::List(leaves))
            }
        }
    }

    /// CPAchecker's `handleAllSideEffects`: emits the hoisted items from `prev`, returns the last node.
    pub(super) fn emit_side_effects(
        &mut self,
        mut prev: NodeId,
        items: Vec<SideItem>,
        raw: &str,
        lines: Option<(u32, u32)>,
        result_is_used: bool,
    ) -> NodeId {
        if !result_is_used {
            // Only the value-less branching construct matters (`c ? f() : g();`).
            for item in items {
                if let SideItem::Cond(c, _) = item {
                    prev = self.emit_cond(prev, c, None);
                }
            }
            return prev;
        }
        for item in items {
            prev = match item {
                SideItem::Decl(var, init) => {
                    let next = self.new_node();
                    let init = init.map(Init::Expr);
                    self.g.add(prev, next, EdgeKind::Decl { var, init }, raw, lines);
                    next
                }
                SideItem::CastTmp(var, cast) => {
                    let next = self.new_node();
                    let e = self.g.add(prev, next, EdgeKind::Decl { var, init: Some(Init::Expr(cast)) }, raw, lines);
                    self.g.set_era(e, Era::Before23);
                    next
                }
                SideItem::Stmt(s) => self.emit_stmt(prev, s, raw, lines),
                SideItem::Cond(c, tmp) => self.emit_cond(prev, c, tmp),
            };
        }
        prev
    }

    /// A statement edge from `prev` to a new node.
    pub(super) fn emit_stmt(&mut self, prev: NodeId, s: SimpleStmt, raw: &str, lines: Option<(u32, u32)>) -> NodeId {
        let next = self.new_node();
        self.emit_stmt_to(prev, next, s, raw, lines);
        next
    }

    pub(super) fn emit_stmt_to(
        &mut self,
        prev: NodeId,
        next: NodeId,
        s: SimpleStmt,
        raw: &str,
        lines: Option<(u32, u32)>,
    ) {
        let kind = match s {
            SimpleStmt::Assign(lhs, Rhs::Expr(rhs)) => EdgeKind::Assign { lhs, rhs },
            SimpleStmt::Assign(lhs, Rhs::Call(c)) => {
                EdgeKind::ExternCall { lhs: Some(lhs), callee: c.callee, args: c.args }
            }
            SimpleStmt::Call(c) => EdgeKind::ExternCall { lhs: None, callee: c.callee, args: c.args },
            SimpleStmt::Eval(e) => EdgeKind::Eval(e),
        };
        self.g.add(prev, next, kind, raw, lines);
    }

    /// `?:`, `&&`/`||` and comma lists used as values.
    fn emit_cond(&mut self, root: NodeId, c: CondItem, tmp: Option<VarId>) -> NodeId {
        match c {
            CondItem::Ternary(e) => {
                let ExprKind::Cond(cond, a, b) = &e.kind else { unreachable!("ternary item") };
                let lines = self.lines(e.span);
                let then_n = self.new_node();
                let else_n = self.new_node();
                self.condition(cond, e.span, root, then_n, else_n);
                let last = self.new_node();
                self.ternary_branch(a, last, lines, then_n, tmp);
                self.ternary_branch(b, last, lines, else_n, tmp);
                last
            }
            CondItem::ShortCircuit(e) => {
                let ExprKind::Binary(op, a, b) = &e.kind else { unreachable!("short-circuit item") };
                let lines = self.lines(e.span);
                let inter = self.new_node();
                let then_n = self.new_node();
                let else_n = self.new_node();
                if *op == BinOp::LogAnd {
                    self.condition(a, e.span, root, inter, else_n);
                } else {
                    self.condition(a, e.span, root, then_n, inter);
                }
                self.condition(b, e.span, inter, then_n, else_n);
                let last = self.new_node();
                let raw = self.expr_raw(e.span);
                match tmp {
                    Some(t) => {
                        let int = self.prog.types.int(IntType::INT);
                        for (node, v) in [(then_n, 1), (else_n, 0)] {
                            let lhs = self.var_expr(t, e.span);
                            let rhs = Expr { kind: ExprKind::IntConst(v), ty: int, span: e.span };
                            let rhs = self.convert_to(rhs, lhs.ty);
                            self.g.add(node, last, EdgeKind::Assign { lhs, rhs }, &raw, None);
                        }
                    }
                    None => {
                        self.g.blank(then_n, last, BlankKind::Plain, lines);
                        self.g.blank(else_n, last, BlankKind::Plain, lines);
                    }
                }
                last
            }
            CondItem::Block(e) => self.statement_expression(root, &e, tmp),
            CondItem::List(items) => {
                let mut prev = root;
                let (last, init) = items.split_last().expect("non-empty comma list");
                for item in init {
                    let mut pre = Vec::new();
                    let s = self.as_statement(item, Ctx::Plain, &mut pre);
                    let raw = self.expr_raw(item.span);
                    let lines = self.lines(item.span);
                    // A value-less statement expression leaves only its own edges
                    // (`createEdgeForExpression`'s placeholder).
                    if is_block_placeholder(&s, &pre) {
                        prev = self.emit_side_effects(prev, pre, &raw, lines, false);
                        continue;
                    }
                    prev = self.emit_side_effects(prev, pre, &raw, lines, true);
                    prev = self.emit_stmt(prev, s, &raw, lines);
                }
                let mut pre = Vec::new();
                let raw = self.expr_raw(last.span);
                let lines = self.lines(last.span);
                let conv = self.with_se(last, Ctx::AssignRhs, &mut pre);
                if let (Conv::Expr(x), None) = (&conv, tmp) {
                    // The last operand is a value-less statement expression: no edge of its own.
                    if is_block_placeholder(&SimpleStmt::Eval(x.clone()), &pre) {
                        return self.emit_side_effects(prev, pre, &raw, lines, true);
                    }
                }
                // An assignment as the last operand gets its own edge before the temporary's.
                let mut assign = None;
                let s = match conv {
                    Conv::Expr(x) => match tmp {
                        Some(t) => {
                            let lhs = self.var_expr(t, last.span);
                            let x = self.convert_to(x, lhs.ty);
                            SimpleStmt::Assign(lhs, Rhs::Expr(x))
                        }
                        None => SimpleStmt::Eval(x),
                    },
                    Conv::Call(c) => match tmp {
                        Some(t) => SimpleStmt::Assign(self.var_expr(t, last.span), Rhs::Call(c)),
                        None => SimpleStmt::Call(c),
                    },
                    Conv::Assign(l, r) => {
                        assign = Some(SimpleStmt::Assign(l.clone(), r));
                        match tmp {
                            Some(t) => {
                                let lhs = self.var_expr(t, last.span);
                                let l = self.convert_to(l, lhs.ty);
                                SimpleStmt::Assign(lhs, Rhs::Expr(l))
                            }
                            None => SimpleStmt::Eval(l),
                        }
                    }
                };
                prev = self.emit_side_effects(prev, pre, &raw, lines, true);
                // CPAchecker's `handleExpressionList` gives these edges the printed statement, not
                // the source text (`__CPAchecker_TMP_0 = bVar1;` for the operand `bVar1`).
                if let Some(a) = assign {
                    let text = self.stmt_text(&a);
                    prev = self.emit_stmt(prev, a, &text, lines);
                }
                let text = self.stmt_text(&s);
                self.emit_stmt(prev, s, &text, lines)
            }
        }
    }

    /// A statement expression: its statements in place; with a value, the temporary is set from the
    /// last statement's expression.
    fn statement_expression(&mut self, root: NodeId, e: &Expr, tmp: Option<VarId>) -> NodeId {
        let ExprKind::StmtExpr(block) = &e.kind else { unreachable!("statement-expression item") };
        let StmtKind::Block(items) = &block.kind else { unreachable!("cfront gives statement expressions a block") };
        let Some(t) = tmp else { return self.statements_from(root, items) };
        let (last, init) = items.split_last().expect("a statement expression with a value has a last statement");
        let StmtKind::Expr(value) = &last.kind else { unreachable!("typed by its last expression statement") };
        let middle = self.statements_from(root, init);
        // CPAchecker 1.5: the last expression's side effects carry its text and the location of the
        // whole statement expression.
        let raw = self.prog.text(last.span).to_string();
        let lines = self.lines(e.span);
        let mut pre = Vec::new();
        let conv = self.with_se(value, Ctx::Plain, &mut pre);
        let (middle, rhs) = match conv {
            Conv::Expr(x) => (self.emit_side_effects(middle, pre, &raw, lines, true), Rhs::Expr(x)),
            Conv::Call(c) => (self.emit_side_effects(middle, pre, &raw, lines, true), Rhs::Call(c)),
            Conv::Assign(l, r) => {
                // An assignment is made, then its target's value taken (current CPAchecker; 1.5 left
                // the temporary unset).
                let last_lines = self.lines(last.span);
                let m = self.emit_side_effects(middle, pre, &raw, last_lines, true);
                let m = self.emit_stmt(m, SimpleStmt::Assign(l.clone(), r), &raw, last_lines);
                (m, Rhs::Expr(l))
            }
        };
        let lhs = self.var_expr(t, e.span);
        let (text, s) = match rhs {
            Rhs::Expr(x) => {
                let x = self.convert_to(x, lhs.ty);
                let text = format!("{} = {};", expr_text(self.prog, &lhs), expr_text(self.prog, &x));
                (text, SimpleStmt::Assign(lhs, Rhs::Expr(x)))
            }
            Rhs::Call(c) => {
                let call =
                    Expr { kind: ExprKind::Call(Box::new(c.callee.clone()), c.args.clone()), ty: c.ty, span: e.span };
                let text = format!("{} = {};", expr_text(self.prog, &lhs), expr_text(self.prog, &call));
                (text, SimpleStmt::Assign(lhs, Rhs::Call(c)))
            }
        };
        self.emit_stmt(middle, s, &text, lines)
    }

    fn ternary_branch(
        &mut self,
        branch: &Expr,
        last: NodeId,
        lines: Option<(u32, u32)>,
        prev: NodeId,
        tmp: Option<VarId>,
    ) {
        let raw = self.expr_raw(branch.span);
        let mut pre = Vec::new();
        let conv = self.with_se(branch, Ctx::AssignRhs, &mut pre);
        let mut prev = self.emit_side_effects(prev, pre, &raw, lines, true);
        let value = match conv {
            Conv::Expr(x) => Rhs::Expr(x),
            Conv::Call(c) => Rhs::Call(c),
            Conv::Assign(l, r) => {
                prev = self.emit_stmt(prev, SimpleStmt::Assign(l.clone(), r), &raw, lines);
                Rhs::Expr(l)
            }
        };
        let s = match (tmp, value) {
            (Some(t), Rhs::Expr(x)) => {
                let lhs = self.var_expr(t, branch.span);
                let x = self.convert_to(x, lhs.ty);
                SimpleStmt::Assign(lhs, Rhs::Expr(x))
            }
            (Some(t), Rhs::Call(c)) => SimpleStmt::Assign(self.var_expr(t, branch.span), Rhs::Call(c)),
            (None, Rhs::Expr(x)) => SimpleStmt::Eval(x),
            (None, Rhs::Call(c)) => SimpleStmt::Call(c),
        };
        self.emit_stmt_to(prev, last, s, &raw, lines);
    }

    /// CPAchecker's `toASTString` of a statement: `x = e;`, `x = f(a, b);`, `f(a);`, `e;`.
    fn stmt_text(&self, s: &SimpleStmt) -> String {
        let call = |c: &CallParts| {
            let args: Vec<String> = c.args.iter().map(|a| expr_text(self.prog, a)).collect();
            format!("{}({})", operand_text(self.prog, &c.callee), args.join(", "))
        };
        match s {
            SimpleStmt::Assign(l, Rhs::Expr(r)) => {
                format!("{} = {};", expr_text(self.prog, l), expr_text(self.prog, r))
            }
            SimpleStmt::Assign(l, Rhs::Call(c)) => format!("{} = {};", expr_text(self.prog, l), call(c)),
            SimpleStmt::Call(c) => format!("{};", call(c)),
            SimpleStmt::Eval(e) => format!("{};", expr_text(self.prog, e)),
        }
    }

    // ----- typing helpers for synthesized expressions -----

    fn is_void_pointer(&self, ty: crate::cfront::types::TypeId) -> bool {
        self.prog.types.pointee(ty).is_some_and(|t| matches!(self.prog.types.kind(t), TypeKind::Void))
    }

    pub(super) fn promoted(&mut self, ty: crate::cfront::types::TypeId) -> crate::cfront::types::TypeId {
        match self.prog.types.kind(ty) {
            TypeKind::Int(it) if it.rank < crate::cfront::types::IntRank::Int => self.prog.types.int(IntType::INT),
            _ => ty,
        }
    }

    /// `e` converted to `ty` (an implicit cast unless the types are equal).
    pub(super) fn convert_to(&mut self, e: Expr, ty: crate::cfront::types::TypeId) -> Expr {
        if e.ty == ty || matches!(self.prog.types.kind(ty), TypeKind::Record(_)) {
            return e;
        }
        let span = e.span;
        Expr { kind: ExprKind::Cast(Box::new(e), CastOrigin::Implicit), ty, span }
    }

    /// `a op b` computed in type `comp` (pointer arithmetic when `comp` is a pointer type).
    fn arith(&mut self, op: BinOp, a: Expr, b: Expr, comp: crate::cfront::types::TypeId, span: Span) -> Expr {
        if self.prog.types.pointee(comp).is_some() {
            return Expr { kind: ExprKind::Binary(op, Box::new(a), Box::new(b)), ty: comp, span };
        }
        let a = self.convert_to(a, comp);
        let b = if matches!(op, BinOp::Shl | BinOp::Shr) {
            let t = self.promoted(b.ty);
            self.convert_to(b, t)
        } else {
            self.convert_to(b, comp)
        };
        Expr { kind: ExprKind::Binary(op, Box::new(a), Box::new(b)), ty: comp, span }
    }

    /// The value of an integer constant expression, as CPAchecker folds it.
    pub(super) fn constant_value(&self, e: &Expr) -> Option<i128> {
        super::print::fold_literal(self.prog, e).map(|(v, _)| v)
    }
}

/// Whether `s` is the placeholder `0` a value-less statement expression among the `pre` items leaves
/// for the statement that uses it.
fn is_block_placeholder(s: &SimpleStmt, pre: &[SideItem]) -> bool {
    let SimpleStmt::Eval(x) = s else { return false };
    matches!(x.kind, ExprKind::IntConst(0))
        && pre.iter().any(|i| matches!(i, SideItem::Cond(c @ CondItem::Block(_), None) if c.span() == x.span))
}

fn flatten_comma(e: &Expr, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::Comma(a, b) => {
            flatten_comma(a, out);
            flatten_comma(b, out);
        }
        _ => out.push(e.clone()),
    }
}
