//! Builds one function's automaton from its statements, following CPAchecker's `CFAFunctionBuilder`:
//! which edges exist, their raw texts, their locations, and which code counts as dead.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::effects::{Ctx, SideItem, SimpleStmt};
use super::graph::Graph;
use super::print::{expr_text, operand_text};
use super::{BlankKind, EdgeId, EdgeKind, NodeId, NodeKind};
use crate::base::Span;
use crate::cfront::ir::{BinOp, Expr, ExprKind, FuncId, LocalEntry, Program, Stmt, StmtKind};
use crate::cfront::types::IntType;

struct SwitchCtx {
    /// The controlling expression, without side effects.
    expr: Expr,
    /// The node from which the next case test starts.
    case_root: NodeId,
    /// The `default:` node, once seen.
    default: Option<(NodeId, Option<(u32, u32)>)>,
}

/// A forward goto waiting for its label: label, source node, goto location.
type PendingGoto = (String, NodeId, Option<(u32, u32)>);

/// Builds the body of one function into the shared graph.
pub(super) struct FnBuilder<'a> {
    pub prog: &'a mut Program,
    pub g: &'a mut Graph,
    pub func: FuncId,
    pub exit: NodeId,
    cur: NodeId,
    /// Variable names used in the function (for `__CPAchecker_TMP_<n>` numbering).
    pub names_in_use: HashSet<String>,
    loop_start: Vec<NodeId>,
    loop_next: Vec<NodeId>,
    switches: Vec<SwitchCtx>,
    labels: HashMap<String, NodeId>,
    /// Forward gotos waiting for their label: label, source node, goto location.
    goto_needed: Vec<PendingGoto>,
}

impl<'a> FnBuilder<'a> {
    /// A builder positioned after the function's start edge at `start`.
    /// A builder of `func`'s body from `start` to `exit`; `names_in_use` holds the CPAchecker names of
    /// the function's locals and parameters (`locals_by_function`), which temporaries must avoid.
    pub fn new(
        prog: &'a mut Program,
        g: &'a mut Graph,
        func: FuncId,
        (start, exit): (NodeId, NodeId),
        names_in_use: HashSet<String>,
    ) -> Self {
        FnBuilder {
            prog,
            g,
            func,
            exit,
            cur: start,
            names_in_use,
            loop_start: Vec::new(),
            loop_next: Vec::new(),
            switches: Vec::new(),
            labels: HashMap::default(),
            goto_needed: Vec::new(),
        }
    }

    /// The CPAchecker names of each function's locals and parameters, by function index: one pass
    /// over the variables for all functions.
    pub fn locals_by_function(prog: &Program) -> Vec<HashSet<String>> {
        let mut names = vec![HashSet::default(); prog.funcs.len()];
        for v in &prog.vars {
            if let crate::cfront::ir::VarKind::Local(f) | crate::cfront::ir::VarKind::Param(f, _) = v.kind {
                names[f.idx()].insert(v.cpa_name.clone());
            }
        }
        names
    }

    /// Builds `body` and the default return; returns the label nodes (for dead-label removal).
    pub fn build_body(mut self, body: &Stmt) -> Vec<NodeId> {
        self.stmt(body);
        let last = self.cur;
        self.g.blank(last, self.exit, BlankKind::DefaultReturn, None);
        // cfront rejects gotos to labels the function does not define.
        debug_assert!(self.goto_needed.is_empty(), "goto without label: {:?}", self.goto_needed);
        self.labels.into_values().collect()
    }

    pub(super) fn new_node(&mut self) -> NodeId {
        self.g.new_node(self.func, NodeKind::Normal)
    }

    /// All lines of `span` (in the user's file: none for code from a header).
    pub(super) fn lines(&self, span: Span) -> Option<(u32, u32)> {
        (!span.is_empty() && !self.prog.in_library(span)).then(|| self.prog.file.user_lines(span)).flatten()
    }

    /// The first line of `span` only.
    fn first_line(&self, span: Span) -> Option<(u32, u32)> {
        self.lines(span).map(|(a, _)| (a, a))
    }

    /// Builds `items` from `root` like the function's other statements (the block of a statement
    /// expression, which CPAchecker visits in place); returns the node after them.
    pub(super) fn statements_from(&mut self, root: NodeId, items: &[Stmt]) -> NodeId {
        let saved = std::mem::replace(&mut self.cur, root);
        for item in items {
            self.stmt(item);
        }
        std::mem::replace(&mut self.cur, saved)
    }

    fn raw(&self, span: Span) -> String {
        self.prog.text(span).to_string()
    }

    /// The raw text of an expression (or of a statement that may end in `}`) as CDT gives it:
    /// `lang_c` counts the white space and comments after an operand to it (`if (x )`), CDT does not.
    pub(super) fn expr_raw(&self, span: Span) -> String {
        cdt_raw(self.prog.text(span)).to_string()
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(items) => {
                for item in items {
                    self.stmt(item);
                }
            }
            StmtKind::NoEdgeDecl | StmtKind::Empty => {}
            StmtKind::Decl(entries) => {
                let raw = super::link::without_extension(self.prog.text(s.span)).to_string();
                let lines = self.lines(s.span);
                let prev = self.cur;
                self.cur = self.declaration(prev, entries, &raw, lines);
            }
            StmtKind::Expr(e) => self.expression_statement(e, s.span),
            StmtKind::If { cond, then_, else_ } => {
                let prev = self.cur;
                let post = self.new_node();
                let then_n = self.new_node();
                let else_n = if else_.is_some() { self.new_node() } else { post };
                self.condition(cond, s.span, prev, then_n, else_n);
                self.cur = then_n;
                self.stmt(then_);
                if let Some(else_) = else_ {
                    let end = self.cur;
                    self.g.blank(end, post, BlankKind::Plain, None);
                    self.cur = else_n;
                    self.stmt(else_);
                }
                self.leave_if(post);
                self.cur = post;
            }
            StmtKind::While { cond, body } => {
                let prev = self.cur;
                let (head, first, post) = self.create_loop(cond, s.span);
                self.g.nodes[head.idx()].loop_stmt = Some(s.span).filter(|&sp| !self.prog.in_library(sp));
                self.g.blank(prev, head, BlankKind::LoopEntry, self.first_line(s.span));
                self.cur = first;
                self.stmt(body);
                self.leave_loop(head, post);
            }
            StmtKind::DoWhile { body, cond } => {
                let prev = self.cur;
                let (head, first, post) = self.create_loop(cond, s.span);
                // CPAchecker ≥ 2.3 lets the condition reach the body over a blank edge of its own
                // (none when the condition is constant false); older versions lack it.
                let body_start = self.new_node();
                self.g.blank(first, body_start, BlankKind::DoBody, self.first_line(s.span));
                let first = body_start;
                self.g.blank(prev, first, BlankKind::LoopEntry, self.first_line(s.span));
                self.cur = first;
                self.stmt(body);
                self.leave_loop(head, post);
            }
            StmtKind::For { init, cond, step, body } => {
                self.for_loop(s.span, init.as_deref(), cond.as_ref(), step.as_ref(), body)
            }
            StmtKind::Switch { cond, body } => self.switch(s.span, cond, body),
            StmtKind::Case { lo, hi, body } => {
                self.case(s.span, lo, hi.as_ref());
                self.stmt(body);
            }
            StmtKind::Default { body } => {
                self.default(s.span);
                self.stmt(body);
            }
            StmtKind::Label { name, body } => {
                self.label(name, s.span);
                self.stmt(body);
            }
            StmtKind::Goto(name) => self.goto(name, s.span),
            StmtKind::Break => {
                let target = *self.loop_next.last().expect("cfront rejects break outside a loop or switch");
                self.jump(target, s.span);
            }
            StmtKind::Continue => {
                let target = *self.loop_start.last().expect("cfront rejects continue outside a loop");
                self.jump(target, s.span);
            }
            StmtKind::Return(e) => {
                let raw = self.raw(s.span);
                let lines = self.lines(s.span);
                let mut pre = Vec::new();
                let value = e.as_ref().map(|e| self.without_se(e, &mut pre));
                let prev = self.emit_side_effects(self.cur, pre, &raw, lines, true);
                let exit = self.exit;
                self.g.add(prev, exit, EdgeKind::ReturnStmt(value), &raw, lines);
                self.cur = self.new_node();
            }
            StmtKind::Asm => {
                let raw = self.raw(s.span);
                let lines = self.lines(s.span);
                let next = self.new_node();
                self.g.add(self.cur, next, EdgeKind::Blank(BlankKind::Asm), &raw, lines);
                self.cur = next;
            }
        }
    }

    /// Declaration edges (CPAchecker's `createEdgeForDeclaration`): side effects of all declarators
    /// first, then one edge per declared entity, then the calls of `int x = f();`.
    pub(super) fn declaration(
        &mut self,
        prev: NodeId,
        entries: &[LocalEntry],
        raw: &str,
        lines: Option<(u32, u32)>,
    ) -> NodeId {
        let mut pre = Vec::new();
        let mut post = Vec::new();
        let mut kinds = Vec::new();
        let mut nested_done = false;
        for entry in entries {
            match entry {
                LocalEntry::Type => {
                    if !std::mem::replace(&mut nested_done, true) {
                        // Structs and unions defined inside this one are declared first, as globals are.
                        kinds.extend((0..super::link::nested_record_definitions(raw)).map(|_| EdgeKind::TypeDecl));
                    }
                    kinds.push(EdgeKind::TypeDecl)
                }
                LocalEntry::Var(d) => {
                    let init = d.init.as_ref().and_then(|i| self.convert_init(d.var, i, &mut pre, &mut post));
                    self.names_in_use.insert(self.prog.var(d.var).cpa_name.clone());
                    kinds.push(EdgeKind::Decl { var: d.var, init });
                }
            }
        }
        let mut prev = self.emit_side_effects(prev, pre, raw, lines, true);
        for kind in kinds {
            let next = self.new_node();
            self.g.add(prev, next, kind, raw, lines);
            prev = next;
        }
        self.emit_side_effects(prev, post, raw, lines, true)
    }

    fn expression_statement(&mut self, e: &Expr, span: Span) {
        let raw = self.raw(span);
        let lines = self.lines(span);
        let mut operands = Vec::new();
        if e.span.lo == span.lo {
            top_comma(e, &mut operands);
        } else {
            // A parenthesized comma is no list of statements but one expression (glibc's `assert`).
            operands.push(e);
        }
        for op in operands {
            let prev = self.cur;
            self.cur = self.statement_edges(prev, op, Ctx::Plain, &raw, lines, None);
        }
    }

    /// The edges of one expression used as a statement (CPAchecker's
    /// `createIASTExpressionStatementEdges`); the last edge ends in `last` if given.
    fn statement_edges(
        &mut self,
        prev: NodeId,
        e: &Expr,
        ctx: Ctx,
        raw: &str,
        lines: Option<(u32, u32)>,
        last: Option<NodeId>,
    ) -> NodeId {
        let mut pre = Vec::new();
        let s = self.as_statement(e, ctx, &mut pre);
        // `c ? f() : g();` and `a && b;` need no temporary: the value is not used.
        let conds: Vec<_> = pre.iter().filter(|i| matches!(i, SideItem::Cond(..))).collect();
        let result_is_used = !(conds.len() == 1
            && matches!((&s, conds[0]), (SimpleStmt::Eval(x), SideItem::Cond(_, tmp)) if is_var(x, *tmp)));
        let prev = self.emit_side_effects(prev, pre, raw, lines, result_is_used);
        if !result_is_used {
            return prev;
        }
        let next = last.unwrap_or_else(|| self.new_node());
        self.emit_stmt_to(prev, next, s, raw, lines);
        next
    }

    /// CPAchecker's `leave(IASTIfStatement)`: blank edges with empty description into the branch end
    /// are re-pointed to the join node (their text becomes `""`), then a `""` edge joins the rest.
    fn leave_if(&mut self, post: NodeId) {
        let end = self.cur;
        if !self.g.is_reachable(end) {
            return;
        }
        let moved: Vec<EdgeId> = self.g.inc[end.idx()]
            .iter()
            .copied()
            .filter(|&e| matches!(&self.g.edge(e).kind, EdgeKind::Blank(kind) if kind.has_empty_description()))
            .collect();
        let ends: Vec<_> = moved.iter().map(|&e| (self.g.edge(e).src, self.g.edge(e).lines)).collect();
        // At once, then re-added in the same order: the same graph as one by one, without
        // filtering `end`'s entering edges once per edge.
        self.g.remove_edges(&moved);
        for (src, lines) in ends {
            self.g.add(src, post, EdgeKind::Blank(BlankKind::Plain), "", lines);
        }
        if !self.g.inc[end.idx()].is_empty() {
            self.g.blank(end, post, BlankKind::Plain, None);
        }
    }

    fn create_loop(&mut self, cond: &Expr, stmt_span: Span) -> (NodeId, NodeId, NodeId) {
        let head = self.new_node();
        self.g.nodes[head.idx()].loop_head = true;
        let first = self.new_node();
        let post = self.new_node();
        self.loop_start.push(head);
        self.loop_next.push(post);
        self.condition(cond, stmt_span, head, first, post);
        (head, first, post)
    }

    fn leave_loop(&mut self, head: NodeId, post: NodeId) {
        let end = self.cur;
        self.g.blank(end, head, BlankKind::Plain, None);
        self.loop_start.pop();
        self.loop_next.pop();
        self.cur = post;
    }

    fn for_loop(&mut self, span: Span, init: Option<&Stmt>, cond: Option<&Expr>, step: Option<&Expr>, body: &Stmt) {
        let loc = self.first_line(span);
        let prev = self.cur;
        let loop_init = self.new_node();
        self.g.blank(prev, loop_init, BlankKind::LoopEntry, loc);
        let head = match init.map(|s| &s.kind) {
            Some(StmtKind::Decl(entries)) => {
                let raw = self.raw(init.expect("init").span);
                self.declaration(loop_init, entries, &raw, loc)
            }
            Some(StmtKind::Expr(e)) => {
                let raw = self.expr_raw(e.span);
                self.statement_edges(loop_init, e, Ctx::Plain, &raw, loc, None)
            }
            _ => loop_init,
        };
        self.g.nodes[head.idx()].loop_head = true;
        self.g.nodes[head.idx()].loop_stmt = Some(span).filter(|&sp| !self.prog.in_library(sp));
        let loop_end = if step.is_some() { self.new_node() } else { head };
        self.loop_start.push(loop_end);
        let first = self.new_node();
        let post = self.new_node();
        self.loop_next.push(post);
        match cond {
            None => {
                self.g.blank(head, first, BlankKind::Plain, loc);
            }
            Some(c) => self.condition(c, span, head, first, post),
        }
        self.cur = first;
        self.stmt(body);
        let last = self.cur;
        self.loop_start.pop();
        self.loop_next.pop();
        self.g.blank(last, loop_end, BlankKind::Plain, None);
        if let Some(step) = step {
            let raw = self.expr_raw(step.span);
            self.statement_edges(loop_end, step, Ctx::ForIteration, &raw, loc, Some(head));
        }
        self.cur = post;
    }

    fn switch(&mut self, span: Span, cond: &Expr, body: &Stmt) {
        let mut pre = Vec::new();
        let expr = self.without_se(cond, &mut pre);
        // The whole statement ends at its `}`: `lang_c` counts the white space after it.
        let whole = self.expr_raw(span);
        let cond_lines = self.lines(cond.span);
        let prev = self.emit_side_effects(self.cur, pre, &whole, cond_lines, true);
        let first = self.new_node();
        let text = format!("switch ({})", self.expr_raw(cond.span));
        self.g.add(prev, first, EdgeKind::Blank(BlankKind::Switch), &text, self.first_line(span));
        self.switches.push(SwitchCtx { expr, case_root: first, default: None });
        let post = self.new_node();
        self.loop_next.push(post);
        self.cur = self.new_node();
        self.stmt(body);
        let last = self.cur;
        let ctx = self.switches.pop().expect("switch context");
        self.loop_next.pop();
        match ctx.default {
            None => {
                self.g.blank(ctx.case_root, post, BlankKind::Plain, None);
            }
            Some((default, lines)) => {
                self.g.add(ctx.case_root, default, EdgeKind::Blank(BlankKind::SwitchDefault), &whole, lines);
            }
        }
        self.g.blank(last, post, BlankKind::Plain, None);
        self.cur = post;
    }

    fn case(&mut self, span: Span, lo: &Expr, hi: Option<&Expr>) {
        let loc = self.first_line(span);
        let ctx = self.switches.last().expect("cfront rejects case outside a switch");
        let (root, switch_expr) = (ctx.case_root, ctx.expr.clone());
        let case_node = self.new_node();
        let not_case = self.new_node();
        let next_root = match hi {
            None => {
                let test = self.relation(BinOp::Eq, switch_expr, lo.clone());
                match self.constant_value(&test) {
                    Some(0) => root,
                    Some(_) => {
                        self.g.add(root, case_node, EdgeKind::Blank(BlankKind::CaseTrue), "", loc);
                        not_case
                    }
                    None => {
                        self.assume_pair(&test, root, case_node, not_case, loc);
                        not_case
                    }
                }
            }
            Some(hi) => {
                let first = self.relation(BinOp::Le, lo.clone(), switch_expr.clone());
                let second = self.relation(BinOp::Le, switch_expr, hi.clone());
                match (self.constant_value(&first), self.constant_value(&second)) {
                    (Some(0), _) | (_, Some(0)) => root,
                    (Some(_), Some(_)) => {
                        self.g.add(root, case_node, EdgeKind::Blank(BlankKind::CaseTrue), "", loc);
                        not_case
                    }
                    _ => {
                        let mid = self.new_node();
                        self.assume_pair(&first, root, mid, not_case, loc);
                        self.assume_pair(&second, mid, case_node, not_case, loc);
                        not_case
                    }
                }
            }
        };
        let old = self.cur;
        if !self.g.inc[old.idx()].is_empty() || self.g.nodes[old.idx()].label.is_some() {
            self.g.add(old, case_node, EdgeKind::Blank(BlankKind::FallThrough), "", loc);
        }
        self.switches.last_mut().expect("cfront rejects case outside a switch").case_root = next_root;
        self.cur = case_node;
    }

    fn default(&mut self, span: Span) {
        let loc = self.first_line(span);
        // Like CPAchecker, a label node marks the default case as reachable while building.
        let node = self.new_node();
        self.g.nodes[node.idx()].label = Some("__switch__default__".into());
        self.switches.last_mut().expect("cfront rejects default outside a switch").default = Some((node, loc));
        let old = self.cur;
        if !self.g.inc[old.idx()].is_empty() {
            self.g.add(old, node, EdgeKind::Blank(BlankKind::FallThrough), "", loc);
        }
        self.cur = node;
    }

    fn label(&mut self, name: &str, span: Span) {
        // The whole labelled statement; `lang_c` counts the white space after a `}` to it.
        let raw = self.expr_raw(span);
        let loc = self.first_line(span);
        let prev = self.cur;
        let node = self.new_node();
        self.g.nodes[node.idx()].label = Some(name.into());
        self.labels.insert(name.to_string(), node);
        let prev_reachable = self.g.is_reachable(prev);
        let kind = EdgeKind::Blank(BlankKind::Label(name.into()));
        if prev_reachable {
            self.g.add(prev, node, kind.clone(), &raw, loc);
        }
        let mut i = 0;
        while i < self.goto_needed.len() {
            if self.goto_needed[i].0 == name {
                let (_, src, lines) = self.goto_needed.remove(i);
                let text = format!("Goto: {name}");
                self.g.add(src, node, EdgeKind::Blank(BlankKind::Goto(name.into())), &text, lines);
            } else {
                i += 1;
            }
        }
        self.cur = node;
        if !prev_reachable {
            // Nothing falls into the label: the label edge leaves the label node.
            let next = self.new_node();
            self.g.add(node, next, kind, &raw, loc);
            self.cur = next;
        }
    }

    fn goto(&mut self, name: &str, span: Span) {
        let loc = self.lines(span);
        let prev = self.cur;
        match self.labels.get(name).copied() {
            Some(target) => {
                let raw = self.raw(span);
                if !self.g.nodes[target.idx()].loop_head && self.path_exists(target, prev) {
                    self.g.nodes[target.idx()].loop_head = true;
                }
                self.g.add(prev, target, EdgeKind::Blank(BlankKind::Goto(name.into())), &raw, loc);
            }
            None => self.goto_needed.push((name.to_string(), prev, loc)),
        }
        self.cur = self.new_node();
    }

    fn jump(&mut self, target: NodeId, span: Span) {
        let raw = self.raw(span);
        let loc = self.lines(span);
        self.g.add(self.cur, target, EdgeKind::Blank(BlankKind::Jump), &raw, loc);
        self.cur = self.new_node();
    }

    fn path_exists(&self, from: NodeId, to: NodeId) -> bool {
        let mut seen = HashSet::default();
        let mut stack = vec![from];
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            if seen.insert(n) {
                stack.extend(self.g.out[n.idx()].iter().map(|&e| self.g.edge(e).dst));
            }
        }
        false
    }

    /// CPAchecker's `createConditionEdges`: the edges of condition `cond` (of the statement at
    /// `stmt_span`) from `root`, to `then_n` where it holds and to `else_n` where not.
    ///
    /// Every edge gets both generations' texts: 1.x prints each leaf on its own (`[x == 0]`), ≥ 2.0
    /// writes the whole condition as CDT reads it from the source, on every edge the condition
    /// produces (`[x]`, `[!(x)]`).
    pub(super) fn condition(&mut self, cond: &Expr, stmt_span: Span, root: NodeId, then_n: NodeId, else_n: NodeId) {
        let whole = cdt_raw(self.prog.text(cond.span)).to_string();
        self.condition_tree(cond, stmt_span, (&whole, false), root, then_n, else_n);
    }

    /// CPAchecker's `buildConditionTree`: `!` swaps the targets, `&&`/`||` chain through inner nodes,
    /// each leaf gets an assume pair (or one blank edge if it is constant). `whole` is the raw text of
    /// the whole condition and whether the targets were swapped an odd number of times on the way
    /// to this node (what ≥ 2.0 texts depend on).
    fn condition_tree(
        &mut self,
        cond: &Expr,
        stmt_span: Span,
        whole: (&str, bool),
        root: NodeId,
        then_n: NodeId,
        else_n: NodeId,
    ) {
        let c = cond.strip_implicit();
        let (raw2, flipped) = whole;
        match &c.kind {
            ExprKind::Unary(crate::cfront::ir::UnOp::LogNot, x) => {
                self.condition_tree(x, stmt_span, (raw2, !flipped), root, else_n, then_n)
            }
            ExprKind::Binary(BinOp::LogAnd, a, b) => {
                let inner = self.new_node();
                self.condition_tree(a, stmt_span, whole, root, inner, else_n);
                self.condition_tree(b, stmt_span, whole, inner, then_n, else_n);
            }
            ExprKind::Binary(BinOp::LogOr, a, b) => {
                let inner = self.new_node();
                self.condition_tree(a, stmt_span, whole, root, then_n, inner);
                self.condition_tree(b, stmt_span, whole, inner, then_n, else_n);
            }
            _ => {
                let raw = self.expr_raw(c.span);
                let stmt_loc = self.lines(stmt_span);
                // The location is the leaf's, but it starts where the statement starts (CPAchecker
                // gives hoisted calls the whole statement; only its first line can be claimed).
                let leaf = self.lines(c.span);
                let loc = match (stmt_loc, leaf) {
                    (Some((s, _)), Some((a, b))) => Some((s.min(a), b.max(s))),
                    (_, l) => l,
                };
                let mut pre = Vec::new();
                let exp = self.without_se(c, &mut pre);
                let first_new = self.g.edges.len();
                let root = self.emit_side_effects(root, pre, &raw, loc, true);
                // What the leaf hoists carries the leaf's text in 1.x and the whole condition's in ≥ 2.0;
                // the edges of a nested `?:`, `&&` or comma list keep their own texts.
                for i in first_new..self.g.edges.len() {
                    let e = EdgeId::from_idx(i);
                    let hoisted = self.g.edges[i].as_ref().is_some_and(|edge| {
                        *edge.text == *raw
                            && matches!(
                                edge.kind,
                                EdgeKind::Decl { .. }
                                    | EdgeKind::Assign { .. }
                                    | EdgeKind::ExternCall { .. }
                                    | EdgeKind::Eval(_)
                            )
                    });
                    if hoisted {
                        self.g.set_text2(Some(e), raw2);
                    }
                }
                if let Some(v) = self.constant_value(&exp) {
                    let target = if v == 0 { else_n } else { then_n };
                    let loc = stmt_loc.map(|(a, _)| (a, a));
                    let e = self.g.add(root, target, EdgeKind::Blank(BlankKind::ConstCondition), &raw, loc);
                    self.g.set_text2(e, raw2);
                    return;
                }
                if is_relational(&exp) {
                    let (pass, fail) = self.assume_pair(&exp, root, then_n, else_n, loc);
                    let (t, f) = assume_texts2(raw2, flipped);
                    self.g.set_text2(pass, &t);
                    self.g.set_text2(fail, &f);
                } else {
                    // `x` becomes `x == 0` with the targets swapped.
                    let text = format!("{} == 0", operand_text(self.prog, &exp));
                    let positive = EdgeKind::Assume { cond: exp.clone(), truth: false };
                    let negative = EdgeKind::Assume { cond: exp, truth: true };
                    let pass = self.g.add(root, else_n, positive, &format!("[{text}]"), loc);
                    let fail = self.g.add(root, then_n, negative, &format!("[!({text})]"), loc);
                    let (t, f) = assume_texts2(raw2, !flipped);
                    self.g.set_text2(pass, &t);
                    self.g.set_text2(fail, &f);
                }
            }
        }
    }

    /// `[e]` to `then_n` and `[!(e)]` to `else_n`; the two edges, if their source is reachable.
    pub(super) fn assume_pair(
        &mut self,
        e: &Expr,
        root: NodeId,
        then_n: NodeId,
        else_n: NodeId,
        lines: Option<(u32, u32)>,
    ) -> (Option<EdgeId>, Option<EdgeId>) {
        let text = expr_text(self.prog, e);
        let pass =
            self.g.add(root, then_n, EdgeKind::Assume { cond: e.clone(), truth: true }, &format!("[{text}]"), lines);
        let fail = self.g.add(
            root,
            else_n,
            EdgeKind::Assume { cond: e.clone(), truth: false },
            &format!("[!({text})]"),
            lines,
        );
        (pass, fail)
    }

    /// `a op b` for a comparison, with `b` converted to `a`'s type (both are integers or pointers).
    pub(super) fn relation(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let span = a.span;
        let (a, b) = if self.prog.types.as_int(a.ty).is_some() && self.prog.types.as_int(b.ty).is_some() {
            let ta = self.promoted(a.ty);
            let tb = self.promoted(b.ty);
            // The usual arithmetic conversions of two promoted integer types pick the higher rank,
            // or the unsigned one at equal rank.
            let (ia, ib) = (self.prog.types.as_int(ta).expect("int"), self.prog.types.as_int(tb).expect("int"));
            let common = if ia.rank > ib.rank || (ia.rank == ib.rank && !ia.signed) { ta } else { tb };
            (self.convert_to(a, common), self.convert_to(b, common))
        } else {
            let ty = a.ty;
            (a, self.convert_to(b, ty))
        };
        let int = self.prog.types.int(IntType::INT);
        Expr { kind: ExprKind::Binary(op, Box::new(a), Box::new(b)), ty: int, span }
    }
}

/// The ≥ 2.0 texts of the edge where a leaf's condition holds and of the one where it does not
/// (CPAchecker's `addConditionEdges`): the whole condition `raw` and `!(raw)`, or, when the targets
/// were swapped (`swapped`), the other way round, where `!(raw)` of a `raw` that already starts with
/// `!(` drops those two characters and the last one instead (even when they do not enclose the rest:
/// `!(a) && (b)` gives `a) && (b`).
fn assume_texts2(raw: &str, swapped: bool) -> (String, String) {
    let negated = format!("!({raw})");
    if !swapped {
        return (format!("[{raw}]"), format!("[{negated}]"));
    }
    let holds = match raw.strip_prefix("!(") {
        Some(rest) => {
            let mut t = rest.to_string();
            t.pop();
            t
        }
        None => negated,
    };
    (format!("[{holds}]"), format!("[{raw}]"))
}

/// The raw signature CDT gives the expression whose span holds `text`: without the white space,
/// comments and `#` lines `lang_c` counts to the node at either end.
pub(super) fn cdt_raw(text: &str) -> &str {
    let mut t = text;
    loop {
        let before = t.len();
        t = t.trim_matches(|c: char| c.is_ascii_whitespace());
        if let Some(rest) = t.strip_suffix("*/") {
            if let Some(open) = rest.rfind("/*") {
                t = &t[..open];
            }
        }
        if let Some(rest) = t.strip_prefix("/*") {
            if let Some(close) = rest.find("*/") {
                t = &rest[close + 2..];
            }
        }
        // A `#` line (a line marker) as the last line, or a `//` comment on it.
        let last_start = t.rfind('\n').map_or(0, |nl| nl + 1);
        if last_start > 0 && t[last_start..].trim_start().starts_with('#') {
            t = &t[..last_start - 1];
        } else if let Some(c) = line_comment(&t[last_start..]) {
            t = &t[..last_start + c];
        }
        // A `#` line as the first line.
        if t.starts_with('#') {
            t = t.find('\n').map_or("", |nl| &t[nl + 1..]);
        }
        if t.len() == before {
            return t;
        }
    }
}

/// Where a `//` comment starts in `line`, outside string and character literals.
fn line_comment(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether CPAchecker treats `e` as a boolean expression (a comparison).
fn is_relational(e: &Expr) -> bool {
    matches!(&e.strip_implicit().kind, ExprKind::Binary(op, ..) if op.is_relational())
}

fn is_var(e: &Expr, v: Option<crate::cfront::ir::VarId>) -> bool {
    matches!((&e.strip_implicit().kind, v), (ExprKind::Var(x), Some(y)) if *x == y)
        || (v.is_none() && matches!(e.kind, ExprKind::IntConst(0)))
}

/// The operands of a comma expression at the top of a statement (CDT's expression list): a comma
/// in parentheses is one operand (`a, (b, c)`; commas group to the left, so only a left operand that
/// starts where its list starts is unparenthesized).
fn top_comma<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Comma(a, b) => {
            if matches!(a.kind, ExprKind::Comma(..)) && a.span.lo != e.span.lo {
                out.push(a);
            } else {
                top_comma(a, out);
            }
            out.push(b);
        }
        _ => out.push(e),
    }
}

impl BlankKind {
    /// Whether CPAchecker gives this blank edge an empty description (these are re-pointed when an
    /// `if` is left).
    pub fn has_empty_description(&self) -> bool {
        matches!(self, BlankKind::Plain | BlankKind::ConstCondition)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdt_raw_drops_what_lang_c_counts_around_an_expression() {
        assert_eq!(cdt_raw("x "), "x");
        assert_eq!(cdt_raw("x > 0 /* why */ "), "x > 0");
        assert_eq!(cdt_raw("x > 0 // why\n  "), "x > 0");
        assert_eq!(cdt_raw("s == \"//\" "), "s == \"//\"");
        assert_eq!(cdt_raw("0 && \"a\"\n# 50 \"f.c\" 3 4\n  "), "0 && \"a\"");
        assert_eq!(cdt_raw("# 50 \"f.c\"\n  0 && \"a\"\n# 50 \"f.c\" 3 4\n"), "0 && \"a\"");
        // Line markers inside stay, as in CDT's raw signature.
        assert_eq!(
            cdt_raw("(\n# 50 \"f.c\"\n  0\n# 50 \"f.c\" 3 4\n  )"),
            "(\n# 50 \"f.c\"\n  0\n# 50 \"f.c\" 3 4\n  )"
        );
    }

    #[test]
    fn texts_of_2_0_negate_or_strip() {
        assert_eq!(assume_texts2("a < b", false), ("[a < b]".to_string(), "[!(a < b)]".to_string()));
        assert_eq!(assume_texts2("flag", true), ("[!(flag)]".to_string(), "[flag]".to_string()));
        assert_eq!(assume_texts2("!(a < b)", true), ("[a < b]".to_string(), "[!(a < b)]".to_string()));
        assert_eq!(assume_texts2("!(a) && (b)", true), ("[a) && (b]".to_string(), "[!(a) && (b)]".to_string()));
        assert_eq!(assume_texts2("!(é)", true), ("[é]".to_string(), "[!(é)]".to_string()));
    }
}
