//! The template candidates: at every loop head, the one-variable templates (`0 <= v`, parities,
//! `v <= c`, `c <= v`), the two-variable ones (`v == w`, `v <= w`, `v < w`) and the sums
//! (`v + w == u`), less those a sampled state breaks, capped taking the cut points in turn.

use crate::base::bits::mask;
use crate::verify::ts::StateVar;

use super::candidates::{holds_constant, sample_holds, Candidate, Template};
use super::Engine;

/// Variables in scope at a loop head up to which `a + b == s` templates are tried.
pub(super) const MAX_SUM_SCOPE: usize = 12;

impl Engine<'_, '_> {
    /// The constants of the bound templates `v <= c` and `c <= v`: 0 and the (at most 6) constants
    /// of the program's conditions smallest in magnitude.
    fn template_consts(&self) -> Vec<i128> {
        let mut consts = self.consts.clone();
        consts.retain(|&c| c != 0);
        consts.sort_by_key(|c| (c.unsigned_abs(), *c));
        consts.truncate(6);
        consts.insert(0, 0);
        consts
    }

    /// The template candidates at every loop head.
    pub(super) fn templates(&self) -> Vec<Candidate> {
        let ts = &self.ts;
        let mut res = Vec::new();
        let consts = self.template_consts();
        for cut in 1..ts.cuts.len() as u32 {
            let scope = self.scope(cut);
            for &a in &scope {
                let r = ts.vars[a].repr;
                if r.signed {
                    res.push(Candidate { cut, kind: Template::NonNeg(a), signed: false });
                }
                res.push(Candidate { cut, kind: Template::Parity(a, false), signed: false });
                res.push(Candidate { cut, kind: Template::Parity(a, true), signed: false });
                for &c in &consts {
                    // Only constants the variable's type holds.
                    if holds_constant(r, c) {
                        res.push(Candidate { cut, kind: Template::AtMost(a, c), signed: false });
                        // `0 <= v` holds of every unsigned value.
                        if r.signed || c != 0 {
                            res.push(Candidate { cut, kind: Template::AtLeast(a, c), signed: false });
                        }
                    }
                }
            }
            for (x, &a) in scope.iter().enumerate() {
                for &b in &scope[x + 1..] {
                    let (ra, rb) = (ts.vars[a].repr, ts.vars[b].repr);
                    if ra.bits != rb.bits {
                        continue;
                    }
                    res.push(Candidate { cut, kind: Template::Eq(a, b), signed: false });
                    if ra.signed == rb.signed {
                        for (p, q) in [(a, b), (b, a)] {
                            res.push(Candidate { cut, kind: Template::Le(p, q, ra.signed), signed: false });
                            res.push(Candidate { cut, kind: Template::Lt(p, q, ra.signed), signed: false });
                        }
                    }
                }
            }
            if scope.len() <= MAX_SUM_SCOPE {
                for &s in &scope {
                    for (x, &a) in scope.iter().enumerate() {
                        for &b in &scope[x + 1..] {
                            let w = ts.vars[s].repr.bits;
                            if a != s && b != s && ts.vars[a].repr.bits == w && ts.vars[b].repr.bits == w {
                                res.push(Candidate { cut, kind: Template::Sum(a, b, s), signed: false });
                            }
                        }
                    }
                }
            }
        }
        for c in &mut res {
            c.signed = c.kind.first().is_some_and(|a| ts.vars[a].repr.signed);
        }
        // A template a state of the simulated runs breaks is no invariant (that state is
        // reachable): left out, it costs Houdini no model and the cap no place.
        res.retain(|c| {
            self.samples.get(c.cut as usize).is_none_or(|at| at.iter().all(|s| template_holds(c, s, &ts.vars)))
        });
        // The cap takes the cut points in turn, each's templates in the order above (one variable's
        // first): a cut point left without candidates would let its states be anything, and every
        // candidate after it would fall.
        let mut rank = vec![0u32; ts.cuts.len()];
        let mut keyed: Vec<(u32, u32, Candidate)> = res
            .into_iter()
            .map(|c| {
                rank[c.cut as usize] += 1;
                (rank[c.cut as usize], c.cut, c)
            })
            .collect();
        if keyed.len() > self.config.max_candidates {
            keyed.sort_by_key(|&(r, cut, _)| (r, cut));
            keyed.truncate(self.config.max_candidates);
            keyed.sort_by_key(|&(r, cut, _)| (cut, r));
        }
        keyed.into_iter().map(|(_, _, c)| c).collect()
    }
}

/// Whether a sampled state (values signed as each variable's type) satisfies a template of
/// `Engine::templates`, two-variable ones included (compared as the circuit compares them: `Eq`
/// and `Sum` by their bits); anything else counts as satisfied.
fn template_holds(c: &Candidate, s: &[i128], vars: &[StateVar]) -> bool {
    let bits = |v: usize| mask(vars[v].repr.bits);
    match c.kind {
        Template::NonNeg(v) => s[v] >= 0,
        Template::Eq(a, b) => (s[a] - s[b]) as u128 & bits(a) == 0,
        // Generated only for variables of one signedness, in which the samples are read.
        Template::Le(a, b, _) => s[a] <= s[b],
        Template::Lt(a, b, _) => s[a] < s[b],
        Template::Sum(a, b, v) => (s[a] + s[b] - s[v]) as u128 & bits(v) == 0,
        _ => sample_holds(c, s),
    }
}
