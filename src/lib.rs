//! vcov: verification coverage of C programs from interrupted software-verifier runs.
//!
//! The pipeline and the layering of the modules are described in `ARCHITECTURE.md`.
#![warn(missing_docs)]

pub mod automaton;
pub mod base;
pub mod cfa;
pub mod cfront;
pub mod sat;
pub mod symex;
pub mod verify;
pub mod witness;
