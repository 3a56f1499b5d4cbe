//! The disjunctive candidates, the last phase: disjunctions `a || b` that every sampled state at
//! a loop head satisfies, `a` a comparison of a variable with a constant, a sign or a parity, and
//! `b` another such, or what the samples where `a` is false share (`x <= 65519 || x % 2 == 0`,
//! `n <= 0 || i - n <= 1`).

use std::collections::BTreeSet;

use crate::cfa::{Cfa, EdgeId, EdgeKind};
use crate::cfront::ir::{BinOp, Expr, ExprKind, VarId};
use crate::verify::sample::{self, Linear};
use crate::verify::ts;

use super::candidates::{holds_constant, sample_holds, value_range, Candidate, Template};
use super::Engine;

/// Disjunctions tried per loop head at most.
const MAX_DISJUNCTIONS: usize = 48;
/// Disjunctions with a bound per split of the samples at most (`Engine::disjunctive_candidates`).
const MAX_SPLIT_BOUNDS: usize = 12;

/// A disjunction `a || b` of two candidates.
type Pair = (Candidate, Candidate);

impl Engine<'_, '_> {
    /// Disjunctions `a || b` at each loop head that every state the simulated runs visited there
    /// satisfies, `a` a one-variable template: the comparisons of a variable with a constant the
    /// program makes (`x < 65520`, `y > 0`, either way round), signs (`n <= 0`) and parities.
    /// - `b` one of those too (not a sign): pairs neither of whose sides holds of every sample first.
    /// - `b` what the samples where `a` is false share and the others do not (the samples split by
    ///   `a`, not a parity): a parity, or a relation `±v ± w <= c` with `|c| <= 16`
    ///   (`n <= 0 || i - n <= 1`: after `for (i = 0; i < n; i += 2)`, unless `n` was negative).
    ///
    /// Left out: a pair one of whose sides is proven already (`known`), pairs over the same variable
    /// that say no more than one side, and cut points with fewer than three samples; at most
    /// `MAX_DISJUNCTIONS` of each kind per cut point.
    pub(super) fn disjunctive_candidates(&mut self, known: &[Candidate]) -> Vec<Candidate> {
        let comparisons = self.comparisons();
        let mut res = Vec::new();
        for cut in 1..self.ts.cuts.len() as u32 {
            let Some(samples) = self.samples.get(cut as usize).filter(|s| s.len() >= 3) else { continue };
            let scope = self.scope(cut);
            let atoms = self.atoms(&scope, &comparisons);
            let (strict, loose) = self.atom_pairs(cut, samples, &atoms, known);
            let (split_parities, split_bounds) = self.split_disjunctions(cut, samples, &scope, &atoms, known);
            for (a, b) in strict.into_iter().chain(split_parities).chain(loose).take(MAX_DISJUNCTIONS) {
                res.push(self.or_candidate(cut, a, b));
            }
            for (a, bound) in split_bounds.into_iter().take(MAX_DISJUNCTIONS) {
                let b = self.linear_candidate(cut, bound);
                res.push(self.or_candidate(cut, a, b));
            }
        }
        res
    }

    /// The comparisons `v op c` of a variable with an integer constant on the system's edges
    /// (`c op v` turned round), in order, without repeats.
    fn comparisons(&self) -> Vec<(VarId, BinOp, i128)> {
        let mut comparisons = Vec::new();
        for ie in &self.ts.edges {
            for_each_expr(self.cfa, ie.edge, &mut |e| var_const_comparisons(e, &mut comparisons));
        }
        comparisons.sort_unstable_by_key(|&(v, op, c)| (v, op as u8, c));
        comparisons.dedup();
        comparisons
    }

    /// The sides of the disjunctions at a loop head with the state variables `scope`: per variable,
    /// the program's comparisons of it with a constant and their negations, as `v <= k` and
    /// `k <= v` (of constants its type holds), and its parities.
    fn atoms(&self, scope: &[usize], comparisons: &[(VarId, BinOp, i128)]) -> Vec<Template> {
        let mut atoms: Vec<Template> = Vec::new();
        for &v in scope {
            let r = self.ts.vars[v].repr;
            for &(_, op, c) in comparisons.iter().filter(|&&(var, _, _)| var == self.ts.vars[v].var) {
                // The comparison and its negation, as `v <= k` and `k <= v`.
                let (at_most, at_least) = match op {
                    BinOp::Lt | BinOp::Ge => (c - 1, c),
                    BinOp::Le | BinOp::Gt => (c, c + 1),
                    _ => continue,
                };
                for t in [Template::AtMost(v, at_most), Template::AtLeast(v, at_least)] {
                    let k = match t {
                        Template::AtMost(_, k) | Template::AtLeast(_, k) => k,
                        _ => unreachable!(),
                    };
                    if holds_constant(r, k) && !atoms.contains(&t) {
                        atoms.push(t);
                    }
                }
            }
            atoms.push(Template::Parity(v, false));
            atoms.push(Template::Parity(v, true));
        }
        atoms
    }

    /// The candidate of the one-variable template `kind` at `cut`.
    fn atom(&self, cut: u32, kind: Template) -> Candidate {
        let signed = kind.first().is_some_and(|a| self.ts.vars[a].repr.signed);
        Candidate { cut, kind, signed }
    }

    /// The disjunctions of two of `atoms` that every sample satisfies (but those over one variable
    /// that say no more than one side, and those with a side in `known`): those neither of whose
    /// sides holds of every sample, and the others.
    fn atom_pairs(
        &self,
        cut: u32,
        samples: &[Vec<i128>],
        atoms: &[Template],
        known: &[Candidate],
    ) -> (Vec<Pair>, Vec<Pair>) {
        let on_samples = |c: &Candidate| samples.iter().map(|s| sample_holds(c, s)).collect::<Vec<bool>>();
        let values: Vec<Vec<bool>> = atoms.iter().map(|&t| on_samples(&self.atom(cut, t))).collect();
        let (mut strict, mut loose) = (Vec::new(), Vec::new());
        for i in 0..atoms.len() {
            for j in i + 1..atoms.len() {
                let (a, b) = (self.atom(cut, atoms[i]), self.atom(cut, atoms[j]));
                if a.kind.first() == b.kind.first() && !complementary(a.kind, b.kind) {
                    continue;
                }
                if known.contains(&a) || known.contains(&b) {
                    continue;
                }
                if !values[i].iter().zip(&values[j]).all(|(&x, &y)| x || y) {
                    continue;
                }
                let alone = values[i].iter().all(|&x| x) || values[j].iter().all(|&y| y);
                if alone { &mut loose } else { &mut strict }.push((a, b));
            }
        }
        (strict, loose)
    }

    /// The disjunctions `a || b` with `a` a comparison of `atoms` or a sign that splits the
    /// samples, and `b` what the samples where `a` is false share: the parities the others do not
    /// share, and the bounds (`sample::bounds`) `±v ± w <= c` with `|c| <= 16`. The bounds of the
    /// splits over a variable no step from the loop head writes first (a mode the loop keeps, as
    /// `flag` or `n`), then of those that tell the samples apart the most (by their bounds the
    /// others break); from each split, its bounds the others break, then the rest, at most
    /// `MAX_SPLIT_BOUNDS`.
    fn split_disjunctions(
        &self,
        cut: u32,
        samples: &[Vec<i128>],
        scope: &[usize],
        atoms: &[Template],
        known: &[Candidate],
    ) -> (Vec<Pair>, Vec<(Candidate, Linear)>) {
        let narrow = self.narrow(scope);
        let range = |v: usize| value_range(self.ts.vars[v].repr);
        // Per split: the bounds some other sample breaks, and those every sample satisfies.
        // With whether the split's variable is a mode (no step from here writes it).
        #[allow(clippy::type_complexity)]
        let mut split_bounds: Vec<(bool, Vec<(Candidate, Linear)>, Vec<(Candidate, Linear)>)> = Vec::new();
        let written = self.written_by_steps(cut);
        let mut split_parities = Vec::new();
        for t in self.splits(scope, atoms) {
            let a = self.atom(cut, t);
            if known.contains(&a) {
                continue;
            }
            let rest: Vec<Vec<i128>> = samples.iter().filter(|s| !sample_holds(&a, s)).cloned().collect();
            if rest.len() < 3 || rest.len() == samples.len() {
                continue;
            }
            // Parities the samples where `a` is false share.
            for &v in scope {
                for odd in [false, true] {
                    let p = self.atom(cut, Template::Parity(v, odd));
                    let holds_rest = rest.iter().all(|s| sample_holds(&p, s));
                    if holds_rest && !samples.iter().all(|s| sample_holds(&p, s)) && !known.contains(&p) {
                        split_parities.push((a, p));
                    }
                }
            }
            // Relations between two variables with a small constant (a bound on one variable
            // of the samples that happen to be drawn says little): those some other sample
            // breaks, and those all satisfy (perhaps inductive only where `a` is false).
            let (mut strict, mut loose) = (Vec::new(), Vec::new());
            for b in sample::bounds_of(cut, &rest, &narrow, &range, true) {
                let unit = b.terms.iter().all(|&(_, k)| k.abs() == 1);
                if b.terms.len() == 2 && unit && b.constant.abs() <= 16 {
                    let everywhere = samples.iter().all(|s| b.holds(s));
                    if everywhere { &mut loose } else { &mut strict }.push((a, b));
                }
            }
            let mode = t.first().is_some_and(|v| !written.contains(&self.ts.vars[v].var));
            split_bounds.push((mode, strict, loose));
        }
        split_bounds.sort_by_key(|(mode, strict, _)| (!mode, std::cmp::Reverse(strict.len())));
        let split_bounds = split_bounds
            .into_iter()
            .flat_map(|(_, strict, loose)| strict.into_iter().chain(loose).take(MAX_SPLIT_BOUNDS))
            .collect();
        (split_parities, split_bounds)
    }

    /// The comparisons of `atoms` and the signs of the variables of `scope` (`v <= 0`, and `0 <= v`
    /// of a signed one), which split the samples.
    fn splits(&self, scope: &[usize], atoms: &[Template]) -> Vec<Template> {
        let mut splits: Vec<Template> = atoms.iter().copied().filter(|t| !matches!(t, Template::Parity(..))).collect();
        for &v in scope {
            for t in [Template::AtMost(v, 0), Template::AtLeast(v, 0)] {
                let unsigned_floor = !self.ts.vars[v].repr.signed && matches!(t, Template::AtLeast(..));
                if !unsigned_floor && !splits.contains(&t) {
                    splits.push(t);
                }
            }
        }
        splits
    }

    /// The program variables a step from cut point `cut` may write (over-approximated: any variable
    /// an assigned lvalue names, declared, or a called function's parameter).
    fn written_by_steps(&self, cut: u32) -> BTreeSet<VarId> {
        fn names(e: &Expr, out: &mut BTreeSet<VarId>) {
            if let ExprKind::Var(v) = e.kind {
                out.insert(v);
            }
            e.for_each_child(|c| names(c, out));
        }
        let ts = &self.ts;
        let mut written = BTreeSet::new();
        let mut seen = vec![false; ts.nodes.len()];
        let mut todo = vec![ts.cuts[cut as usize]];
        while let Some(v) = todo.pop() {
            for &ie in ts.out_edges(v) {
                let edge = ts.edges[ie as usize];
                match &self.cfa.edge(edge.edge).kind {
                    EdgeKind::Assign { lhs, .. } | EdgeKind::ExternCall { lhs: Some(lhs), .. } => {
                        names(lhs, &mut written)
                    }
                    EdgeKind::Decl { var, .. } => {
                        written.insert(*var);
                    }
                    EdgeKind::Return(cs) => {
                        if let Some(lhs) = &self.cfa.call_site(*cs).lhs {
                            names(lhs, &mut written);
                        }
                    }
                    EdgeKind::Call(cs) => written.extend(self.prog.func(self.cfa.call_site(*cs).callee).params.iter()),
                    _ => {}
                }
                if let ts::Target::Node(w) = edge.dst {
                    if ts.cut_of(w).is_none() && !seen[w as usize] {
                        seen[w as usize] = true;
                        todo.push(w);
                    }
                }
            }
        }
        written
    }
}

/// Whether two one-variable templates over the same variable say more together (`a || b`) than
/// either alone: `v <= k` or `l <= v` with a gap between them (`k + 1 < l`), or a bound and a parity.
fn complementary(a: Template, b: Template) -> bool {
    match (a, b) {
        (Template::AtMost(_, k), Template::AtLeast(_, l)) | (Template::AtLeast(_, l), Template::AtMost(_, k)) => {
            k + 1 < l
        }
        (Template::Parity(..), Template::Parity(..)) => false,
        (Template::Parity(..), _) | (_, Template::Parity(..)) => true,
        _ => false,
    }
}

/// Calls `f` on each expression of edge `e` (a call edge: its arguments).
fn for_each_expr(cfa: &Cfa, e: EdgeId, f: &mut dyn FnMut(&Expr)) {
    match &cfa.edge(e).kind {
        EdgeKind::Assign { lhs, rhs } => {
            f(lhs);
            f(rhs);
        }
        EdgeKind::Eval(x) | EdgeKind::Assume { cond: x, .. } | EdgeKind::ReturnStmt(Some(x)) => f(x),
        EdgeKind::ExternCall { lhs, callee, args } => {
            lhs.iter().chain(std::iter::once(callee)).chain(args).for_each(f);
        }
        EdgeKind::Call(cs) => cfa.call_site(*cs).args.iter().for_each(f),
        _ => {}
    }
}

/// The comparisons `v op c` (or `c op v`, turned round) of a variable with an integer constant in
/// `e` and its subexpressions, conversions stripped.
fn var_const_comparisons(e: &Expr, out: &mut Vec<(VarId, BinOp, i128)>) {
    fn strip(mut x: &Expr) -> &Expr {
        while let ExprKind::Cast(inner, _) = &x.kind {
            x = inner;
        }
        x
    }
    if let ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) = &e.kind {
        let turned = |op: BinOp| match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            _ => BinOp::Le,
        };
        match (&strip(a).kind, &strip(b).kind) {
            (ExprKind::Var(v), ExprKind::IntConst(c)) => out.push((*v, *op, *c)),
            (ExprKind::IntConst(c), ExprKind::Var(v)) => out.push((*v, turned(*op), *c)),
            _ => {}
        }
    }
    e.for_each_child(|c| var_const_comparisons(c, out));
}
