//! Prints expressions the way CPAchecker's `toASTString` does, for the texts of assume edges.
//!
//! Rules: implicit conversions are invisible; an operand is parenthesized unless it is an identifier or a
//! literal; integer literals print in decimal with the suffix of their type (`U`, `L`, `LL`); a
//! literal operation on literals is folded; `!e` becomes `0 == e` (or the negated comparison).

use crate::cfront::fold_binary;
use crate::cfront::ir::{BinOp, CastOrigin, Expr, ExprKind, Program, UnOp};
use crate::cfront::types::{IntRank, IntType, TypeKind};

/// CPAchecker's text of `e`.
pub fn expr_text(prog: &Program, e: &Expr) -> String {
    let mut out = String::new();
    Printer { prog }.print(e, &mut out);
    out
}

/// CPAchecker's text of `e` as an operand: parenthesized unless an identifier or a literal.
pub fn operand_text(prog: &Program, e: &Expr) -> String {
    let mut out = String::new();
    Printer { prog }.wrapped(e, &mut out);
    out
}

/// The value and type of `e` if CPAchecker folds it to an integer literal.
pub fn fold_literal(prog: &Program, e: &Expr) -> Option<(i128, IntType)> {
    Printer { prog }.literal(e).map(|l| (l.value, l.ty))
}

struct Printer<'a> {
    prog: &'a Program,
}

/// A folded integer literal: value and type.
#[derive(Clone, Copy)]
struct Lit {
    value: i128,
    ty: IntType,
}

impl Printer<'_> {
    fn print(&self, e: &Expr, out: &mut String) {
        let e = e.strip_implicit();
        if let Some(lit) = self.literal(e) {
            self.print_literal(e, lit, out);
            return;
        }
        match &e.kind {
            ExprKind::IntConst(_) | ExprKind::SizeOf(_) | ExprKind::SizeOfExpr(..) => {
                unreachable!("handled as literals")
            }
            ExprKind::FloatConst(f) => out.push_str(&format!("{:?}", f.value)),
            ExprKind::Str(_) | ExprKind::Unsupported(_) | ExprKind::StmtExpr(_) => out.push_str(self.prog.text(e.span)),
            ExprKind::Var(v) => out.push_str(&self.prog.var(*v).cpa_name),
            ExprKind::Func(f) => out.push_str(&self.prog.func(*f).name),
            ExprKind::Decay(inner) => self.print(inner, out),
            ExprKind::Unary(UnOp::LogNot, inner) => {
                // `!a` is `0 == a`, `!(a < b)` is `a >= b`.
                let inner = inner.strip_implicit();
                if let ExprKind::Binary(op, a, b) = &inner.kind {
                    if let Some(neg) = op.negated() {
                        self.binary(neg, a, b, out);
                        return;
                    }
                }
                out.push_str("0 == ");
                self.wrapped(inner, out);
            }
            ExprKind::Unary(op, inner) => {
                out.push_str(match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Plus => "",
                    UnOp::LogNot => unreachable!("handled above"),
                });
                if *op == UnOp::Plus {
                    self.print(inner, out);
                } else {
                    self.wrapped(inner, out);
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, out),
            ExprKind::Cast(inner, CastOrigin::Explicit(text)) => {
                out.push('(');
                out.push_str(text);
                out.push(')');
                self.wrapped(inner, out);
            }
            ExprKind::Cast(_, CastOrigin::Implicit) => unreachable!("stripped"),
            ExprKind::Member { base, field, arrow, .. } => {
                let rec_ty = if *arrow { self.prog.types.pointee(base.ty) } else { Some(base.ty) };
                let name = rec_ty
                    .and_then(|t| match self.prog.types.kind(t) {
                        TypeKind::Record(r) => self.prog.types.record(*r).fields.as_ref()?.get(*field)?.name.clone(),
                        _ => None,
                    })
                    .unwrap_or_default();
                // An anonymous member in between is not printed.
                let base_s = base.strip_implicit();
                if let ExprKind::Member { anonymous: true, base: inner, arrow: inner_arrow, .. } = &base_s.kind {
                    self.owner(inner, out);
                    out.push_str(if *inner_arrow { "->" } else { "." });
                } else {
                    self.owner(base_s, out);
                    out.push_str(if *arrow { "->" } else { "." });
                }
                out.push_str(&name);
            }
            ExprKind::Index(base, idx) => {
                let base = strip_decay(base.strip_implicit());
                if matches!(base.kind, ExprKind::Index(..)) {
                    self.print(base, out);
                } else {
                    self.wrapped(base, out);
                }
                out.push('[');
                self.print(idx, out);
                out.push(']');
            }
            ExprKind::Deref(inner) => {
                out.push('*');
                self.wrapped(inner, out);
            }
            ExprKind::AddrOf(inner) => {
                out.push('&');
                self.wrapped(inner, out);
            }
            ExprKind::Call(callee, args) => {
                let callee = strip_decay(callee.strip_implicit());
                self.wrapped(callee, out);
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.print(a, out);
                }
                out.push(')');
            }
            ExprKind::Cond(..)
            | ExprKind::Comma(..)
            | ExprKind::Assign(..)
            | ExprKind::CompoundAssign(..)
            | ExprKind::IncDec { .. } => out.push_str(self.prog.text(e.span)),
        }
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr, out: &mut String) {
        self.wrapped(a, out);
        out.push(' ');
        out.push_str(op.symbol());
        out.push(' ');
        self.wrapped(b, out);
    }

    /// A field owner: another field reference prints bare, anything else as an operand.
    fn owner(&self, e: &Expr, out: &mut String) {
        let e = e.strip_implicit();
        if matches!(e.kind, ExprKind::Member { .. }) {
            self.print(e, out);
        } else {
            self.wrapped(e, out);
        }
    }

    /// Parenthesized unless an identifier or a literal.
    fn wrapped(&self, e: &Expr, out: &mut String) {
        let e = strip_decay(e.strip_implicit());
        let bare = self.literal(e).is_some() || matches!(e.kind, ExprKind::Var(_) | ExprKind::Func(_));
        if bare {
            self.print(e, out);
        } else {
            out.push('(');
            self.print(e, out);
            out.push(')');
        }
    }

    /// The expression folded to an integer literal, if CPAchecker would fold it.
    fn literal(&self, e: &Expr) -> Option<Lit> {
        let types = &self.prog.types;
        let dm = types.data_model();
        let e = e.strip_implicit();
        let ty = types.as_int(e.ty);
        match &e.kind {
            ExprKind::IntConst(v) => Some(Lit { value: *v, ty: ty? }),
            ExprKind::SizeOf(v) | ExprKind::SizeOfExpr(v, _) => Some(Lit { value: *v as i128, ty: ty? }),
            ExprKind::Cast(inner, CastOrigin::Explicit(text)) => {
                // Only casts to a simple type are folded (not to typedef names).
                let lit = self.literal(inner)?;
                let it = ty?;
                (!text.ends_with(' ')).then_some(Lit { value: it.wrap(lit.value, dm), ty: it })
            }
            ExprKind::Unary(UnOp::Neg, inner) => {
                let lit = self.literal(inner)?;
                let it = ty?;
                Some(Lit { value: it.wrap(-lit.value, dm), ty: it })
            }
            ExprKind::Unary(UnOp::BitNot, inner) => {
                let lit = self.literal(inner)?;
                let it = ty?;
                Some(Lit { value: it.wrap(!lit.value, dm), ty: it })
            }
            ExprKind::Binary(op, a, b) if !matches!(op, BinOp::LogAnd | BinOp::LogOr) => {
                let (x, y) = (self.literal(a)?, self.literal(b)?);
                let operand_ty = types.as_int(a.ty)?;
                let it = ty?;
                let value = fold_binary(*op, x.value, y.value, operand_ty, it, types)?;
                Some(Lit { value, ty: it })
            }
            _ => None,
        }
    }

    fn print_literal(&self, e: &Expr, lit: Lit, out: &mut String) {
        // A character constant from the source prints as a character.
        if matches!(e.kind, ExprKind::IntConst(_)) && self.prog.text(e.span).starts_with('\'') {
            let c = lit.value;
            if (32..128).contains(&c) {
                out.push('\'');
                out.push(c as u8 as char);
                out.push('\'');
            } else {
                out.push_str(&format!("'\\x{:x}'", c.rem_euclid(1 << 32)));
            }
            return;
        }
        out.push_str(&lit.value.to_string());
        if lit.ty.signed && lit.ty.rank <= IntRank::Int {
            return;
        }
        if !lit.ty.signed && lit.ty.rank != IntRank::Bool {
            out.push('U');
        }
        match lit.ty.rank {
            IntRank::Long => out.push('L'),
            IntRank::LongLong => out.push_str("LL"),
            _ => {}
        }
    }
}

fn strip_decay(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Decay(inner) => inner,
        _ => e,
    }
}
