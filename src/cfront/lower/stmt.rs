//! Statements.

use lang_c::ast;
use lang_c::span::Node;

use super::{sp, Lowerer, Res};
use crate::cfront::ir::*;

impl Lowerer<'_> {
    pub(super) fn stmt(&mut self, s: &Node<ast::Statement>) -> Res<Stmt> {
        use ast::Statement as S;
        let span = sp(&s.span);
        let kind = match &s.node {
            S::Labeled(l) => {
                let body = Box::new(self.stmt(&l.node.statement)?);
                match &l.node.label.node {
                    ast::Label::Identifier(id) => StmtKind::Label { name: id.node.name.clone(), body },
                    ast::Label::Case(e) => {
                        let lo = self.expr(e)?;
                        let lo = self.rvalue(lo);
                        StmtKind::Case { lo, hi: None, body }
                    }
                    ast::Label::CaseRange(r) => {
                        let lo = self.expr(&r.node.low)?;
                        let lo = self.rvalue(lo);
                        let hi = self.expr(&r.node.high)?;
                        let hi = self.rvalue(hi);
                        StmtKind::Case { lo, hi: Some(hi), body }
                    }
                    ast::Label::Default => StmtKind::Default { body },
                }
            }
            S::Compound(items) => {
                self.push_scope();
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    match &item.node {
                        ast::BlockItem::Declaration(d) => out.push(self.local_declaration(d)?),
                        ast::BlockItem::Statement(st) => out.push(self.stmt(st)?),
                        ast::BlockItem::StaticAssert(_) => {}
                    }
                }
                self.pop_scope();
                StmtKind::Block(out)
            }
            S::Expression(None) => StmtKind::Empty,
            S::Expression(Some(e)) => {
                let e = self.expr(e)?;
                StmtKind::Expr(self.rvalue(e))
            }
            S::If(i) => {
                let cond = self.expr(&i.node.condition)?;
                let cond = self.scalar(cond)?;
                let then_ = Box::new(self.stmt(&i.node.then_statement)?);
                let else_ = match &i.node.else_statement {
                    Some(e) => Some(Box::new(self.stmt(e)?)),
                    None => None,
                };
                StmtKind::If { cond, then_, else_ }
            }
            S::Switch(sw) => {
                let cond = self.expr(&sw.node.expression)?;
                let cond = self.rvalue(cond);
                if self.types.as_int(cond.ty).is_none() {
                    return self.err(cond.span, "switch on a non-integer value");
                }
                let cond = {
                    let ty = cond.ty;
                    let promoted = match self.types.as_int(ty) {
                        Some(it) if it.rank < crate::cfront::types::IntRank::Int => self.int(),
                        _ => ty,
                    };
                    self.convert(cond, promoted)
                };
                let body = Box::new(self.stmt(&sw.node.statement)?);
                StmtKind::Switch { cond, body }
            }
            S::While(w) => {
                let cond = self.expr(&w.node.expression)?;
                let cond = self.scalar(cond)?;
                let body = Box::new(self.stmt(&w.node.statement)?);
                StmtKind::While { cond, body }
            }
            S::DoWhile(d) => {
                let body = Box::new(self.stmt(&d.node.statement)?);
                let cond = self.expr(&d.node.expression)?;
                let cond = self.scalar(cond)?;
                StmtKind::DoWhile { body, cond }
            }
            S::For(f) => {
                self.push_scope();
                let init = match &f.node.initializer.node {
                    ast::ForInitializer::Empty | ast::ForInitializer::StaticAssert(_) => None,
                    ast::ForInitializer::Expression(e) => {
                        let le = self.expr(e)?;
                        let le = self.rvalue(le);
                        Some(Box::new(Stmt { span: le.span, kind: StmtKind::Expr(le) }))
                    }
                    ast::ForInitializer::Declaration(d) => Some(Box::new(self.local_declaration(d)?)),
                };
                let cond = match &f.node.condition {
                    Some(c) => {
                        let c = self.expr(c)?;
                        Some(self.scalar(c)?)
                    }
                    None => None,
                };
                let step = match &f.node.step {
                    Some(e) => {
                        let e = self.expr(e)?;
                        Some(self.rvalue(e))
                    }
                    None => None,
                };
                let body = Box::new(self.stmt(&f.node.statement)?);
                self.pop_scope();
                StmtKind::For { init, cond, step, body }
            }
            S::Goto(id) => StmtKind::Goto(id.node.name.clone()),
            S::Continue => StmtKind::Continue,
            S::Break => StmtKind::Break,
            S::Return(e) => {
                let ret_ty = self.cur_func.and_then(|f| match self.types.kind(self.funcs[f.idx()].ty) {
                    crate::cfront::types::TypeKind::Func(ft) => Some(ft.ret),
                    _ => None,
                });
                match e {
                    Some(e) => {
                        let v = self.expr(e)?;
                        let v = self.rvalue(v);
                        let v = match ret_ty {
                            Some(t) if !matches!(self.types.kind(t), crate::cfront::types::TypeKind::Void) => {
                                self.convert(v, t)
                            }
                            _ => v,
                        };
                        StmtKind::Return(Some(v))
                    }
                    None => StmtKind::Return(None),
                }
            }
            S::Asm(_) => StmtKind::Asm,
        };
        Ok(Stmt { kind, span })
    }
}
