//! Test helpers shared by the `sat` unit tests: a backend that checks every model against its
//! clauses.

use super::{CadicalBackend, Lit, SatBackend, SatResult, Var};

/// CaDiCaL with a copy of every clause; each `Sat` answer is checked to satisfy all clauses and
/// assumptions, so an encoder or backend bug cannot hide behind a wrong model.
#[derive(Default)]
pub(crate) struct CheckedBackend {
    inner: CadicalBackend,
    /// The literals of all clauses, one after the other; `ends[i]` is where clause `i` ends.
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl SatBackend for CheckedBackend {
    fn new_var(&mut self) -> Var {
        self.inner.new_var()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.lits.extend_from_slice(lits);
        self.ends.push(self.lits.len());
        self.inner.add_clause(lits);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SatResult {
        let res = self.inner.solve(assumptions);
        if res == SatResult::Sat {
            // A variable the model leaves open may take either value; count it as satisfying.
            let holds = |l: &Lit| self.inner.value(*l).unwrap_or(true);
            let mut start = 0;
            for &end in &self.ends {
                let clause = &self.lits[start..end];
                assert!(clause.iter().any(holds), "model falsifies clause {clause:?}");
                start = end;
            }
            assert!(assumptions.iter().all(holds), "model falsifies an assumption");
        }
        res
    }

    fn value(&self, lit: Lit) -> Option<bool> {
        self.inner.value(lit)
    }

    fn failed(&self, lit: Lit) -> bool {
        self.inner.failed(lit)
    }

    fn n_vars(&self) -> u32 {
        self.inner.n_vars()
    }

    fn n_clauses(&self) -> u64 {
        self.inner.n_clauses()
    }
}
