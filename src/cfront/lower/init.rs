//! Initializers: single expressions and brace lists flattened to scalar leaves (designators and brace
//! elision included).

use lang_c::ast;
use lang_c::span::Node;

use super::{sp, Lowerer, Res};
use crate::cfront::consteval::eval_int;
use crate::cfront::ir::*;
use crate::cfront::types::*;

impl Lowerer<'_> {
    /// Lowers the initializer of `var`, completing the size of an array declared with `[]`.
    pub(super) fn initializer_for_var(&mut self, var: VarId, init: &Node<ast::Initializer>) -> Res<Init> {
        let ty = self.vars[var.idx()].ty;
        let (res, len) = self.initializer(ty, init)?;
        if let (TypeKind::Array(elem, None), Some(n)) = (self.types.kind(ty).clone(), len) {
            self.vars[var.idx()].ty = self.types.intern(TypeKind::Array(elem, Some(n)));
        }
        Ok(res)
    }

    /// The initializer for an object of type `ty`, and the array length it implies for `[]` arrays.
    fn initializer(&mut self, ty: TypeId, init: &Node<ast::Initializer>) -> Res<(Init, Option<u64>)> {
        match &init.node {
            ast::Initializer::Expression(e) => {
                let le = self.expr(e)?;
                if let (TypeKind::Array(elem, _), ExprKind::Str(s)) = (self.types.kind(ty).clone(), &le.kind) {
                    if self.types.as_int(elem).is_some_and(|it| it.rank == IntRank::Char) {
                        let n = self.strings[s.idx()].len() as u64;
                        return Ok((Init::Expr(le), Some(n)));
                    }
                }
                if matches!(self.types.kind(le.ty), TypeKind::Void) {
                    return self.err(le.span, "void value not ignored as it ought to be");
                }
                let v = self.rvalue(le);
                let v = self.convert(v, ty);
                Ok((Init::Expr(v), None))
            }
            ast::Initializer::List(items) => {
                let mut leaves = Vec::new();
                let max = self.init_list(ty, items, &mut leaves)?;
                Ok((Init::List(leaves), Some(max)))
            }
        }
    }

    /// Flattens a brace list for an object of type `ty`; returns one past the largest top-level index.
    fn init_list(
        &mut self,
        ty: TypeId,
        items: &[Node<ast::InitializerListItem>],
        leaves: &mut Vec<InitLeaf>,
    ) -> Res<u64> {
        // The cursor: a stack of (aggregate type, index of the next sub-object) from the top object down.
        let mut frames: Vec<(TypeId, u64)> = vec![(ty, 0)];
        let mut top_max = 0u64;
        if !self.is_aggregate(ty) {
            // `int x = { 5 };`
            if let Some(item) = items.first() {
                let (init, _) = self.initializer(ty, &item.node.initializer)?;
                match init {
                    Init::Expr(value) => leaves.push(InitLeaf { path: Vec::new(), value }),
                    Init::List(ls) => leaves.extend(ls),
                }
            }
            return Ok(1);
        }
        for item in items {
            if !item.node.designation.is_empty() {
                self.designate(&mut frames, &item.node.designation)?;
            } else {
                self.leave_finished(&mut frames);
            }
            let (agg, i) = *frames.last().expect("frame");
            if frames.len() == 1 && i >= self.n_subobjects(agg) {
                self.warn(sp(&item.span), "excess elements in initializer are ignored");
                continue;
            }
            let sub = match self.subobject_type(agg, i) {
                Some(t) => t,
                None => return self.err(sp(&item.span), "initializer outside the object"),
            };
            self.init_item(&mut frames, sub, item, leaves)?;
            // Advance; a union takes only one member.
            let top = frames.last_mut().expect("frame");
            let (agg, _) = *top;
            if matches!(self.types.kind(agg), TypeKind::Record(r) if self.types.record(*r).kind == RecordKind::Union) {
                top.1 = u64::MAX;
            } else {
                top.1 += 1;
            }
            if frames.len() == 1 {
                top_max = top_max.max(frames[0].1.min(u64::MAX - 1));
            } else {
                top_max = top_max.max(frames[0].1 + 1);
            }
        }
        Ok(top_max)
    }

    /// Moves the cursor `frames` to the sub-object a designation (`[2].x = …`) names.
    fn designate(&mut self, frames: &mut Vec<(TypeId, u64)>, designation: &[Node<ast::Designator>]) -> Res<()> {
        frames.truncate(1);
        frames[0].1 = 0;
        let n = designation.len();
        for (k, d) in designation.iter().enumerate() {
            let (agg, _) = *frames.last().expect("frame");
            let idx = match &d.node {
                ast::Designator::Index(e) => {
                    let le = self.expr(e)?;
                    match eval_int(&self.types, &le) {
                        Some(v) if v >= 0 => v as u64,
                        _ => return self.err(sp(&e.span), "array designator is not a constant"),
                    }
                }
                ast::Designator::Member(id) => {
                    let TypeKind::Record(r) = self.types.kind(agg).clone() else {
                        return self.err(sp(&id.span), "member designator for a non-struct");
                    };
                    match self.direct_field(r, &id.node.name) {
                        Some(i) => i as u64,
                        None => return self.err(sp(&id.span), format!("no member '{}'", id.node.name)),
                    }
                }
                ast::Designator::Range(r) => {
                    return self.err(sp(&r.span), "range designators are not supported");
                }
            };
            frames.last_mut().expect("frame").1 = idx;
            if k + 1 < n {
                let sub = self
                    .subobject_type(agg, idx)
                    .ok_or(())
                    .or_else(|_| self.err(sp(&d.span), "designator outside the object"))?;
                frames.push((sub, 0));
            }
        }
        Ok(())
    }

    /// Moves the cursor `frames` out of the aggregates whose sub-objects are all initialized.
    fn leave_finished(&self, frames: &mut Vec<(TypeId, u64)>) {
        while frames.len() > 1 {
            let (agg, i) = *frames.last().expect("frame");
            if i < self.n_subobjects(agg) {
                break;
            }
            frames.pop();
            frames.last_mut().expect("frame").1 += 1;
        }
    }

    /// Adds the leaves of `item`, which initializes the sub-object of type `sub` at the cursor
    /// `frames`: a nested brace list, or a value that, with braces elided, initializes the first
    /// scalar (or string, or record of its type) inside it, the cursor moving down to it.
    fn init_item(
        &mut self,
        frames: &mut Vec<(TypeId, u64)>,
        mut sub: TypeId,
        item: &Node<ast::InitializerListItem>,
        leaves: &mut Vec<InitLeaf>,
    ) -> Res<()> {
        match &item.node.initializer.node {
            ast::Initializer::List(inner) => {
                let path = self.frame_path(frames);
                let mut sub_leaves = Vec::new();
                self.init_list(sub, inner, &mut sub_leaves)?;
                for mut leaf in sub_leaves {
                    let mut p = path.clone();
                    p.append(&mut leaf.path);
                    leaves.push(InitLeaf { path: p, value: leaf.value });
                }
            }
            ast::Initializer::Expression(e) => {
                let le = self.expr(e)?;
                let is_str = matches!(le.kind, ExprKind::Str(_));
                let value = self.rvalue(le);
                // Brace elision: descend until the value fits the sub-object.
                loop {
                    let fits = !self.is_aggregate(sub)
                        || (is_str && self.is_char_array(sub))
                        || (matches!(self.types.kind(sub), TypeKind::Record(_)) && value.ty == sub);
                    if fits {
                        break;
                    }
                    frames.push((sub, 0));
                    sub = match self.subobject_type(sub, 0) {
                        Some(t) => t,
                        None => return self.err(sp(&item.span), "cannot initialize an empty aggregate"),
                    };
                }
                let path = self.frame_path(frames);
                let value = if is_str && self.is_char_array(sub) {
                    match value.kind {
                        ExprKind::Decay(inner) => *inner,
                        _ => value,
                    }
                } else {
                    self.convert(value, sub)
                };
                leaves.push(InitLeaf { path, value });
            }
        }
        Ok(())
    }

    fn frame_path(&self, frames: &[(TypeId, u64)]) -> Vec<InitStep> {
        frames
            .iter()
            .map(|&(agg, i)| match self.types.kind(agg) {
                TypeKind::Record(_) => InitStep::Field(i as usize),
                _ => InitStep::Index(i),
            })
            .collect()
    }

    fn is_aggregate(&self, ty: TypeId) -> bool {
        matches!(self.types.kind(ty), TypeKind::Array(..) | TypeKind::Record(_))
    }

    fn is_char_array(&self, ty: TypeId) -> bool {
        match self.types.kind(ty) {
            TypeKind::Array(elem, _) => self.types.as_int(*elem).is_some_and(|it| it.rank == IntRank::Char),
            _ => false,
        }
    }

    fn n_subobjects(&self, ty: TypeId) -> u64 {
        match self.types.kind(ty) {
            TypeKind::Array(_, Some(n)) => *n,
            TypeKind::Array(_, None) => u64::MAX,
            TypeKind::Record(r) => {
                // Unnamed bit-fields are not initialized.
                self.types.record(*r).fields.as_ref().map_or(0, |f| f.len() as u64)
            }
            _ => 0,
        }
    }

    fn subobject_type(&self, ty: TypeId, i: u64) -> Option<TypeId> {
        match self.types.kind(ty) {
            TypeKind::Array(elem, n) => (n.is_none_or(|n| i < n)).then_some(*elem),
            TypeKind::Record(r) => self.types.record(*r).fields.as_ref()?.get(i as usize).map(|f| f.ty),
            _ => None,
        }
    }

    fn direct_field(&self, r: RecordId, name: &str) -> Option<usize> {
        self.types.record(r).fields.as_ref()?.iter().position(|f| f.name.as_deref() == Some(name))
    }
}
