//! Statements.

use lang_c::ast;
use lang_c::span::Node;

use super::{sp, Lowerer, Res, SwitchLabels};
use crate::base::Span;
use crate::cfront::consteval::eval_int;
use crate::cfront::ir::*;

impl Lowerer<'_> {
    pub(super) fn stmt(&mut self, s: &Node<ast::Statement>) -> Res<Stmt> {
        self.nested_stmt(sp(&s.span), |l| l.stmt_at_depth(s))
    }

    fn stmt_at_depth(&mut self, s: &Node<ast::Statement>) -> Res<Stmt> {
        use ast::Statement as S;
        let span = sp(&s.span);
        let kind = match &s.node {
            S::Labeled(l) => self.labeled(l, span)?,
            S::Compound(items) => self.compound(items)?,
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
            S::Switch(sw) => self.switch(sw)?,
            S::While(w) => {
                let cond = self.expr(&w.node.expression)?;
                let cond = self.scalar(cond)?;
                let body = Box::new(self.loop_body(&w.node.statement)?);
                StmtKind::While { cond, body }
            }
            S::DoWhile(d) => {
                let body = Box::new(self.loop_body(&d.node.statement)?);
                let cond = self.expr(&d.node.expression)?;
                let cond = self.scalar(cond)?;
                StmtKind::DoWhile { body, cond }
            }
            S::For(f) => self.for_loop(f)?,
            S::Goto(id) => {
                // Whether the label exists is known at the end of the function.
                self.jumps.gotos.push((id.node.name.clone(), sp(&id.span)));
                StmtKind::Goto(id.node.name.clone())
            }
            S::Continue if self.jumps.n_loops == 0 => {
                return self.err(span, "'continue' statement not in loop statement");
            }
            S::Continue => StmtKind::Continue,
            S::Break if self.jumps.n_loops == 0 && self.jumps.switches.is_empty() => {
                return self.err(span, "'break' statement not in loop or switch statement");
            }
            S::Break => StmtKind::Break,
            S::Return(e) => self.return_stmt(e.as_deref())?,
            S::Asm(_) => StmtKind::Asm,
        };
        Ok(Stmt { kind, span })
    }

    /// A labeled statement (at `span`): a name, `case`, a `case` range or `default`.
    fn labeled(&mut self, l: &Node<ast::LabeledStatement>, span: Span) -> Res<StmtKind> {
        // The label is checked before its statement, so that errors come in source order.
        let label = match &l.node.label.node {
            ast::Label::Identifier(id) => {
                let name = id.node.name.clone();
                if self.jumps.labels.insert(name.clone(), sp(&id.span)).is_some() {
                    return self.err(sp(&id.span), format!("redefinition of label '{name}'"));
                }
                Label::Name(name)
            }
            ast::Label::Case(e) => {
                let lo = self.expr(e)?;
                let lo = self.rvalue(lo);
                self.case_label(span, &lo, None)?;
                Label::Case(lo, None)
            }
            ast::Label::CaseRange(r) => {
                let lo = self.expr(&r.node.low)?;
                let lo = self.rvalue(lo);
                let hi = self.expr(&r.node.high)?;
                let hi = self.rvalue(hi);
                self.case_label(span, &lo, Some(&hi))?;
                Label::Case(lo, Some(hi))
            }
            ast::Label::Default => {
                let Some(sw) = self.jumps.switches.last_mut() else {
                    return self.err(span, "'default' statement not in switch statement");
                };
                if std::mem::replace(&mut sw.has_default, true) {
                    return self.err(span, "multiple default labels in one switch");
                }
                Label::Default
            }
        };
        let body = Box::new(self.stmt(&l.node.statement)?);
        Ok(match label {
            Label::Name(name) => StmtKind::Label { name, body },
            Label::Case(lo, hi) => StmtKind::Case { lo, hi, body },
            Label::Default => StmtKind::Default { body },
        })
    }

    /// A block, its own scope.
    fn compound(&mut self, items: &[Node<ast::BlockItem>]) -> Res<StmtKind> {
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
        Ok(StmtKind::Block(out))
    }

    /// A `switch`: its controlling expression promoted, its body with the case labels it collects.
    fn switch(&mut self, sw: &Node<ast::SwitchStatement>) -> Res<StmtKind> {
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
        let ty = self.types.as_int(cond.ty).expect("promoted integer");
        self.jumps.switches.push(SwitchLabels { ty, cases: Vec::new(), has_default: false });
        let body = Box::new(self.stmt(&sw.node.statement)?);
        self.jumps.switches.pop();
        Ok(StmtKind::Switch { cond, body })
    }

    /// A `for` loop, its own scope (for a declaration in its first clause).
    fn for_loop(&mut self, f: &Node<ast::ForStatement>) -> Res<StmtKind> {
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
        let body = Box::new(self.loop_body(&f.node.statement)?);
        self.pop_scope();
        Ok(StmtKind::For { init, cond, step, body })
    }

    /// `return e;` or `return;`, the value converted to the function's return type.
    fn return_stmt(&mut self, e: Option<&Node<ast::Expression>>) -> Res<StmtKind> {
        let ret_ty = self.cur_func.and_then(|f| match self.types.kind(self.funcs[f.idx()].ty) {
            crate::cfront::types::TypeKind::Func(ft) => Some(ft.ret),
            _ => None,
        });
        Ok(match e {
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
        })
    }

    /// The body of a loop, in which `break` and `continue` refer to the loop.
    fn loop_body(&mut self, s: &Node<ast::Statement>) -> Res<Stmt> {
        self.jumps.n_loops += 1;
        let res = self.stmt(s);
        self.jumps.n_loops -= 1;
        res
    }

    /// Checks a `case` label of the innermost `switch`: it exists, the values are integer constants,
    /// and no value (converted to the promoted type of the controlling expression) appears twice.
    fn case_label(&mut self, span: Span, lo: &Expr, hi: Option<&Expr>) -> Res<()> {
        let Some(ty) = self.jumps.switches.last().map(|sw| sw.ty) else {
            return self.err(span, "'case' statement not in switch statement");
        };
        let dm = self.types.data_model();
        let value = |e: &Expr| match (self.types.as_int(e.ty), eval_int(&self.types, e)) {
            (Some(_), Some(v)) => Ok(ty.wrap(v, dm)),
            _ => self.err(e.span, "case label is not an integer constant expression"),
        };
        let lo_v = value(lo)?;
        let hi_v = match hi {
            Some(hi) => value(hi)?,
            None => lo_v,
        };
        let sw = self.jumps.switches.last_mut().expect("checked above");
        // An empty range (`case 3 ... 1:`) matches nothing (gcc warns).
        if lo_v <= hi_v {
            if let Some(&(a, _)) = sw.cases.iter().find(|&&(a, b)| a <= hi_v && lo_v <= b) {
                return self.err(lo.span, format!("duplicate case value '{}'", a.max(lo_v)));
            }
            sw.cases.push((lo_v, hi_v));
        }
        Ok(())
    }
}

/// A statement label, lowered before the statement it labels.
enum Label {
    Name(String),
    Case(Expr, Option<Expr>),
    Default,
}
