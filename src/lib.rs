//! vcov: verification coverage of C programs from interrupted software-verifier runs.
//!
//! The pipeline and the layering of the modules are described in `ARCHITECTURE.md`.
#![warn(missing_docs)]

pub mod automaton;
pub mod base;
pub mod batch;
pub mod cfa;
pub mod cfront;
pub mod cli;
pub mod coverage;
pub mod driver;
pub mod evidence;
pub mod libmodels;
pub mod product;
pub mod report;
pub mod sat;
pub mod symex;
pub mod verify;
pub mod witness;
