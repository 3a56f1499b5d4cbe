//! The single integration-test binary.

mod verify;
