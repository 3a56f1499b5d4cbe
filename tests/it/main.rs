//! The single integration-test binary: runs the built `vcov` on the project's fixtures.

mod bad_input;
mod cli_coverage;
mod corpus;
mod generate;
mod replay;
mod util;
mod verify;
