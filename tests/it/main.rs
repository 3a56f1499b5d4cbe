//! The single integration-test binary: runs the built `vcov` on the project's fixtures.

mod cli_coverage;
mod corpus;
mod generate;
mod replay;
mod semantics;
mod util;
mod verify;
