//! vcov: verification coverage of C programs from interrupted software-verifier runs.
//!
//! The pipeline and the layering of the modules are described in `ARCHITECTURE.md`.
#![warn(missing_docs)]

pub mod base;

pub mod automaton;
