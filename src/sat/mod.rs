//! Solver layer: solver-level literals, the narrow `SatBackend` trait, the CaDiCaL backend,
//! an and-inverter graph (`Aig`), fixed-width bit-vector circuits (`Bv`), IEEE 754 floating-point
//! circuits over them (`fp`) and the lazy CNF `Encoder`.
//!
//! The symbolic executor keeps every value as an `AigLit` in one `Aig`, independent of any solver.
//! Constant operands fold while the graph is built, so concrete computation creates no nodes, and
//! structural hashing makes identical terms identical literals.
//! An `Encoder` turns the cone of influence of the literals a query needs into CNF for one solver.
//! A fresh `Encoder` with a fresh solver can re-encode any part of the same `Aig`, which is what the
//! partial-incremental mode needs on backtrack.
//! The full-incremental mode keeps one solver and guards path segments with activation literals
//! (`Encoder::assert_under`), enabled or disabled through the assumptions of `SatBackend::solve`.
//!
//! Invariant: `cadical.rs` is the only file that names a `cadical` type; no `cadical` type appears in
//! a `pub` signature.
//! Invariant: `bv` knows only fixed-width two's-complement circuits with SMT-LIB semantics for the
//! corner cases (division by zero, shifts by at least the width); C semantics live in `symex`.
//! Invariant: `fp` agrees bit for bit with `base::fp` (x86 SSE semantics, NaNs included) in every
//! rounding mode.
//! Invariant: nodes of an `Aig` are never removed, so an `AigLit` stays valid as long as its `Aig`.
//! Invariant: a solver-level `Var`/`Lit` is only meaningful for the solver that created it.

mod aig;
mod bv;
mod cadical;
mod encode;
pub mod fp;
#[cfg(test)]
mod test_util;

use std::fmt;
use std::ops::Not;

pub use aig::{Aig, AigInput, AigLit, AigNode};
pub use bv::{Bv, MAX_WIDTH};
pub use cadical::{CadicalBackend, Interrupt, MovableDeadline};
pub use encode::Encoder;

/// A solver variable, numbered from 1 as in DIMACS.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Var(u32);

/// A solver literal: a variable or its negation, stored as a non-zero DIMACS integer.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Lit(i32);

/// The answer of one `SatBackend::solve` call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SatResult {
    /// The clauses and the assumptions have a model; read it with `SatBackend::value`.
    Sat,
    /// The clauses and the assumptions have no model; `SatBackend::failed` names the culprits.
    Unsat,
    /// The solver stopped without an answer (interrupt, deadline or resource limit).
    Unknown,
}

/// Errors of the solver layer.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SolverError {
    /// The backend does not know the named configuration.
    #[error("unknown solver configuration `{0}`")]
    UnknownConfig(String),
}

/// An incremental SAT solver in the IPASIR style: clauses are only added, and path constraints are
/// switched on and off through the assumptions of each `solve` call.
pub trait SatBackend {
    /// A fresh variable, numbered one above the previous one.
    fn new_var(&mut self) -> Var;
    /// Adds a clause (a disjunction); the empty clause makes the formula unsatisfiable for good.
    fn add_clause(&mut self, lits: &[Lit]);
    /// Solves the clauses under the given assumptions, which hold for this call only.
    fn solve(&mut self, assumptions: &[Lit]) -> SatResult;
    /// The value of `lit` in the model of the last `solve`; `None` unless it answered `Sat` and no
    /// clause was added since, or when the model leaves the literal open.
    fn value(&self, lit: Lit) -> Option<bool>;
    /// Whether the assumption `lit` was used to prove the last `Unsat` answer; false otherwise.
    fn failed(&self, lit: Lit) -> bool;
    /// How many variables `new_var` handed out.
    fn n_vars(&self) -> u32;
    /// How many clauses `add_clause` received.
    fn n_clauses(&self) -> u64;
}

impl Var {
    /// The variable with the 1-based DIMACS number `index`.
    ///
    /// Panics if `index` is 0 or above `i32::MAX`.
    #[inline]
    pub fn new(index: u32) -> Var {
        assert!(index >= 1 && index <= i32::MAX as u32, "variable index {index} out of range");
        Var(index)
    }

    /// The 1-based DIMACS number of the variable.
    #[inline]
    pub fn index(self) -> u32 {
        self.0
    }

    /// The positive literal of the variable.
    #[inline]
    pub fn pos(self) -> Lit {
        Lit(self.0 as i32)
    }

    /// The literal of the variable with the given polarity (`true` = positive).
    #[inline]
    pub fn lit(self, positive: bool) -> Lit {
        if positive {
            self.pos()
        } else {
            self.pos().neg()
        }
    }
}

impl Lit {
    /// The literal with the non-zero DIMACS number `dimacs`.
    ///
    /// Panics if `dimacs` is 0 or `i32::MIN`.
    #[inline]
    pub fn from_dimacs(dimacs: i32) -> Lit {
        assert!(dimacs != 0 && dimacs != i32::MIN, "invalid DIMACS literal {dimacs}");
        Lit(dimacs)
    }

    /// The DIMACS number of the literal: the variable's number, negated for a negative literal.
    #[inline]
    pub fn to_dimacs(self) -> i32 {
        self.0
    }

    /// The negation of the literal.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Lit {
        Lit(-self.0)
    }

    /// The variable of the literal.
    #[inline]
    pub fn var(self) -> Var {
        Var(self.0.unsigned_abs())
    }

    /// Whether the literal is the positive one of its variable.
    #[inline]
    pub fn is_positive(self) -> bool {
        self.0 > 0
    }
}

impl Not for Lit {
    type Output = Lit;

    #[inline]
    fn not(self) -> Lit {
        self.neg()
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl SatResult {
    /// Whether the answer is `Sat`.
    #[inline]
    pub fn is_sat(self) -> bool {
        self == SatResult::Sat
    }

    /// Whether the answer is `Unsat`.
    #[inline]
    pub fn is_unsat(self) -> bool {
        self == SatResult::Unsat
    }
}

impl SolverError {
    /// Whether the caller can go on (for example with the default configuration).
    pub fn is_recoverable(&self) -> bool {
        match self {
            SolverError::UnknownConfig(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lit_roundtrip() {
        let v = Var::new(7);
        assert_eq!(v.pos().to_dimacs(), 7);
        assert_eq!(v.pos().neg().to_dimacs(), -7);
        assert_eq!((!v.pos()).var(), v);
        assert!(v.lit(true).is_positive());
        assert!(!v.lit(false).is_positive());
        assert_eq!(Lit::from_dimacs(-3).var().index(), 3);
        assert_eq!(Lit::from_dimacs(-3).neg(), Lit::from_dimacs(3));
        assert_eq!(format!("{}", Lit::from_dimacs(-3)), "-3");
    }

    #[test]
    fn solver_types_can_move_between_threads() {
        fn assert_send<T: Send>() {}
        assert_send::<CadicalBackend>();
        assert_send::<Aig>();
        assert_send::<Encoder>();
        assert_send::<Bv>();
    }
}
