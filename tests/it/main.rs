//! The single integration-test binary: runs the built `vcov` on the project's fixtures.

mod architecture;
mod bad_input;
mod batch;
mod claims;
mod cli_coverage;
mod compare;
mod corpus;
mod determinism;
mod floats;
mod generate;
mod generations;
mod html;
mod libc;
mod outputs;
mod preprocess;
mod readme;
mod region;
mod replay;
mod reports;
mod semantics;
mod snapshots;
mod terminal;
mod tidy;
mod util;
mod verify;
