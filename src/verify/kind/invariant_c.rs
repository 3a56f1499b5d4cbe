//! Proven invariants as C expressions at the loop heads of the CFA (`Invariant`), for the witnesses:
//! free of side effects and of undefined behaviour, and equivalent to the proven template on the
//! variables' values in their declared types.

use std::collections::{BTreeMap, BTreeSet};

use crate::base::bits;
use crate::cfa::NodeId;
use crate::cfront::ir::VarId;
use crate::verify::poly::PolyEq;
use crate::verify::sample::Linear;

use super::candidates::{Candidate, Template};
use super::{Engine, Invariant};

impl Engine<'_, '_> {
    /// The proven invariants `proven` as C expressions at CFA loop heads, in proof order: those that
    /// have a C form and hold at every cut point of their loop head (one per context its function is
    /// inlined in); an invariant of one context alone is not one of the loop in the C program.
    pub(super) fn describe_all(&self, proven: &[Candidate]) -> Vec<Invariant> {
        let mut n_cuts: BTreeMap<NodeId, usize> = BTreeMap::new();
        for &v in &self.ts.cuts[1..] {
            *n_cuts.entry(self.ts.nodes[v as usize].cfa).or_default() += 1;
        }
        let described: Vec<(u32, Invariant)> =
            proven.iter().filter_map(|c| self.describe(c).map(|inv| (c.cut, inv))).collect();
        // Keyed by the variables too: one name may stand for a global in one context and for a
        // caller's local in another.
        type Key<'i> = (NodeId, &'i str, &'i [VarId]);
        let mut cuts_of: BTreeMap<Key, BTreeSet<u32>> = BTreeMap::new();
        for (cut, inv) in &described {
            cuts_of.entry((inv.node, inv.expr.as_str(), inv.vars.as_slice())).or_default().insert(*cut);
        }
        let mut seen = BTreeSet::new();
        let mut res = Vec::new();
        for (_, inv) in &described {
            let key = (inv.node, inv.expr.as_str(), inv.vars.as_slice());
            if cuts_of[&key].len() == n_cuts[&inv.node] && seen.insert(key) {
                res.push(inv.clone());
            }
        }
        res
    }

    /// The invariant `c` as a C expression (`Invariant::expr`), or `None` when its variables are of a
    /// width C has no standard integer type for, or one of them is floating.
    fn describe(&self, c: &Candidate) -> Option<Invariant> {
        let (expr, vars) = match c.kind {
            Template::Or(i) => return self.describe_or(i),
            Template::Poly(i) => match self.poly_as_template(&self.polys[i]) {
                Some(kind) => return self.describe(&Candidate { cut: c.cut, kind, signed: false }),
                None => self.poly_c(&self.polys[i])?,
            },
            Template::Linear(i) => self.linear_c(&self.linear[i]),
            kind => self.template_c(kind)?,
        };
        // The expressions read their variables as integers: never a floating one (`Engine::scope`
        // keeps them out of every candidate; this keeps them out of the witness whatever happens).
        if vars.iter().any(|&i| !self.ts.vars[i].is_integer()) {
            return None;
        }
        let node = self.ts.nodes[self.ts.cuts[c.cut as usize] as usize];
        let vars = vars.into_iter().map(|i| self.ts.vars[i].var).collect();
        Some(Invariant { node: node.cfa, func: self.ts.ctxs[node.ctx as usize].func, expr, vars })
    }

    /// The name of state variable `i` in the program.
    fn name(&self, i: usize) -> String {
        self.prog.var(self.ts.vars[i].var).name.clone()
    }

    /// The disjunction `Engine::disjunctions[i]`: its sides in parentheses, the variables of both.
    fn describe_or(&self, i: usize) -> Option<Invariant> {
        let (a, b) = self.disjunctions[i];
        let (a, b) = (self.describe(&a)?, self.describe(&b)?);
        let mut vars = a.vars;
        for v in b.vars {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        let expr = format!("({}) || ({})", a.expr, b.expr);
        Some(Invariant { expr, vars, ..a })
    }

    /// The template `kind` (no `Or`, `Poly` or `Linear`) in C, and the state variables it reads.
    fn template_c(&self, kind: Template) -> Option<(String, Vec<usize>)> {
        let var = |i: usize| &self.ts.vars[i];
        let name = |i: usize| self.name(i);
        // The unsigned type of a variable's width, for comparing bits or adding modulo the width.
        let unsigned = |i: usize| c_int_type(var(i).repr.bits, false);
        Some(match kind {
            Template::NonNeg(a) => (format!("0 <= {}", name(a)), vec![a]),
            Template::Parity(a, true) => (format!("{} % 2 != 0", name(a)), vec![a]),
            Template::Parity(a, false) => (format!("{} % 2 == 0", name(a)), vec![a]),
            Template::LowBits(a, t, low) => {
                let (ty, suffix) = modular_type(var(a).repr.bits)?;
                let m = bits::mask(t);
                (format!("(({ty}){} & {m}{suffix}) == {low}{suffix}", name(a)), vec![a])
            }
            Template::AtMost(a, k) => {
                (format!("{} <= {}", name(a), c_literal(k, var(a).repr.bits, var(a).repr.signed)?), vec![a])
            }
            Template::AtLeast(a, k) => {
                (format!("{} <= {}", c_literal(k, var(a).repr.bits, var(a).repr.signed)?, name(a)), vec![a])
            }
            Template::Eq(a, b) if var(a).repr.signed == var(b).repr.signed => {
                c_int_type(var(a).repr.bits, false)?;
                (format!("{} == {}", name(a), name(b)), vec![a, b])
            }
            Template::Eq(a, b) => {
                let u = unsigned(a)?;
                (format!("({u}){} == ({u}){}", name(a), name(b)), vec![a, b])
            }
            Template::Le(a, b, _) => {
                c_int_type(var(a).repr.bits, false)?;
                (format!("{} <= {}", name(a), name(b)), vec![a, b])
            }
            Template::Lt(a, b, _) => {
                c_int_type(var(a).repr.bits, false)?;
                (format!("{} < {}", name(a), name(b)), vec![a, b])
            }
            Template::Sum(a, b, s) => {
                let u = unsigned(s)?;
                // Unsigned arithmetic of at least `int`'s width is modular in C already; otherwise
                // the sum is taken in the unsigned type (no overflow) and cut to the width.
                let modular = [a, b, s].iter().all(|&i| !var(i).repr.signed && var(i).repr.bits >= 32);
                let expr = if modular {
                    format!("{} + {} == {}", name(a), name(b), name(s))
                } else {
                    format!("({u})(({u}){} + ({u}){}) == ({u}){}", name(a), name(b), name(s))
                };
                (expr, vec![a, b, s])
            }
            Template::Or(_) | Template::Poly(_) | Template::Linear(_) => unreachable!("described apart"),
        })
    }

    /// The template that says what the polynomial equality `eq` says, if one does: `a - b == 0`
    /// and `s - a - b == 0` over variables of the equality's width say what the templates `Eq` and
    /// `Sum` say (equal bits, a sum modulo the width), and written as those read better (`x == y`
    /// rather than `(unsigned int)x - (unsigned int)y == 0U`).
    fn poly_as_template(&self, eq: &PolyEq) -> Option<Template> {
        let plain: Option<Vec<(usize, bool)>> = eq
            .terms
            .iter()
            .map(|(m, k)| match m[..] {
                [v] if k.abs() == 1 && self.ts.vars[v].repr.bits == eq.bits => Some((v, *k > 0)),
                _ => None,
            })
            .collect();
        match plain.as_deref() {
            Some(&[(a, pa), (b, pb)]) if pa != pb => Some(Template::Eq(a, b)),
            Some(&[(a, pa), (b, pb), (d, pd)]) if !(pa == pb && pb == pd) => {
                // The one whose sign differs from the other two's is the sum.
                Some(if pb == pd {
                    Template::Sum(b, d, a)
                } else if pa == pd {
                    Template::Sum(a, d, b)
                } else {
                    Template::Sum(a, b, d)
                })
            }
            _ => None,
        }
    }

    /// The polynomial equality `eq` in C, and the state variables it reads: modular arithmetic in
    /// the unsigned type of the variables' width (of at least `unsigned int`'s, so that nothing is
    /// promoted to `int`), cut to the width.
    fn poly_c(&self, eq: &PolyEq) -> Option<(String, Vec<usize>)> {
        let (ty, suffix) = modular_type(eq.bits)?;
        let mut expr = String::new();
        for (k, (m, coeff)) in eq.terms.iter().enumerate() {
            expr.push_str(term_sign(*coeff < 0, k));
            let factors: Vec<String> = m.iter().map(|&v| format!("({ty}){}", self.name(v))).collect();
            match (factors.is_empty(), coeff.unsigned_abs()) {
                (true, k) => expr.push_str(&format!("{k}{suffix}")),
                (false, 1) => expr.push_str(&factors.join(" * ")),
                (false, k) => expr.push_str(&format!("{} * {k}{suffix}", factors.join(" * "))),
            }
        }
        let expr = match eq.bits {
            32 | 64 => format!("{expr} == 0{suffix}"),
            b => format!("({})({expr}) == 0", c_int_type(b, false)?),
        };
        let mut vars: Vec<usize> = eq.terms.iter().flat_map(|(m, _)| m.iter().copied()).collect();
        vars.sort_unstable();
        vars.dedup();
        Some((expr, vars))
    }

    /// The linear constraint `eq` in C, and the state variables it reads: an equality in
    /// `unsigned long long`, modular as the candidate (a signed variable converts by its value
    /// modulo 2^64, as sign extension does); a bound in `long long` (no overflow: variables of at
    /// most 32 bits, coefficients of at most 3).
    fn linear_c(&self, eq: &Linear) -> (String, Vec<usize>) {
        let (ty, suffix, rel) =
            if eq.at_most { ("long long", "LL", "<=") } else { ("unsigned long long", "ULL", "==") };
        let mut expr = String::new();
        for (k, &(v, coeff)) in eq.terms.iter().enumerate() {
            expr.push_str(term_sign(coeff < 0, k));
            expr.push_str(&format!("({ty}){}", self.name(v)));
            if coeff.abs() != 1 {
                expr.push_str(&format!(" * {}{suffix}", coeff.unsigned_abs()));
            }
        }
        match eq.constant {
            0 => {}
            c if c < 0 => expr.push_str(&format!(" - {}{suffix}", c.unsigned_abs())),
            c => expr.push_str(&format!(" + {c}{suffix}")),
        }
        expr.push_str(&format!(" {rel} 0{suffix}"));
        (expr, eq.terms.iter().map(|&(v, _)| v).collect())
    }
}

/// What comes before the `k`-th term of a sum in C, by its sign: `-` or `+` between spaces, and
/// for the first term a minus alone or nothing.
fn term_sign(negative: bool, k: usize) -> &'static str {
    match (negative, k) {
        (true, 0) => "-",
        (true, _) => " - ",
        (false, 0) => "",
        (false, _) => " + ",
    }
}

/// The unsigned C type of arithmetic modulo `2^bits` without promotion to `int` (of `bits`, but at
/// least `unsigned int`'s width), and the suffix of its constants.
fn modular_type(bits: u32) -> Option<(&'static str, &'static str)> {
    let ty = c_int_type(bits.max(32), false)?;
    let suffix = if bits > 32 { "ULL" } else { "U" };
    Some((ty, suffix))
}

/// The C type of `bits`-bit integers of the given signedness (`int` is 32 bits and `long long` 64
/// in both data models), or `None` for other widths.
fn c_int_type(bits: u32, signed: bool) -> Option<&'static str> {
    Some(match (bits, signed) {
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long long",
        (64, false) => "unsigned long long",
        _ => return None,
    })
}

/// `k` as a C constant whose type holds it and compares with a `bits`-bit variable without changing
/// the comparison (`U`, `LL`, `ULL` suffixes; the most negative value as a difference).
fn c_literal(k: i128, bits: u32, signed: bool) -> Option<String> {
    c_int_type(bits, signed)?;
    let suffix = match (bits, signed) {
        (64, true) => "LL",
        (64, false) => "ULL",
        (32, false) => "U",
        _ => "",
    };
    if signed && k == bits::min_signed(bits) {
        return Some(format!("(-{}{suffix} - 1)", bits::max_signed(bits)));
    }
    Some(format!("{k}{suffix}"))
}
