//! Executions as evidence: Test-Comp test suites, CPAchecker counterexample automata, and the pieces
//! of `vcov replay` that do no IO (the C harness, the claims file, gcov's JSON, the test results).
//!
//! Every execution vcov measures can be written as a Test-Comp test case (its inputs in call order)
//! and as a counterexample automaton (its CFA path). `vcov replay` compiles the program with a
//! generated harness under `gcc --coverage`, runs each test, and checks with gcov that every line
//! vcov claims for the execution was executed.
//!
//! Invariant: nothing here touches the file system or runs a process; `driver` does (and writes the
//! files with `driver::output::Staged`).
//! Invariant: the writers and readers round-trip: `read_testcase(testcase_xml(..))`,
//! `read_claims(claims_json(..))`, and a path written by `counterexample_automaton` is followed back
//! to itself by `coverage::path_of_counterexample`.

pub mod cexaut;
pub mod claims;
pub mod copy;
pub mod harness;
pub mod replay;
pub mod suite;
pub mod testcomp;

pub use cexaut::counterexample_automaton;
pub use claims::{claims_json, read_claims, Claims, TestClaim, CLAIMS_FILE};
pub use suite::test_suite_files;
pub use testcomp::{
    c_literal, metadata_xml, parse_c_literal, read_metadata, read_testcase, test_file_name, testcase_xml,
    SuiteMetadata, TestCase, TestInput, METADATA_FILE,
};

/// A file vcov reads back (a test case, `metadata.xml`, the claims file, gcov's JSON) is malformed.
/// It displays as `line:col: message` (just `message` when the position is unknown).
#[derive(Debug, PartialEq, Eq)]
pub struct ReadError {
    /// 1-based line of the problem (0 when unknown).
    pub line: u32,
    /// 1-based column of the problem (0 when unknown).
    pub col: u32,
    /// What is wrong, without a trailing period.
    pub message: String,
}

impl ReadError {
    /// An error without a position.
    pub fn new(message: impl Into<String>) -> ReadError {
        ReadError { line: 0, col: 0, message: message.into() }
    }

    /// An error at `line:col`.
    pub fn at(line: u32, col: u32, message: impl Into<String>) -> ReadError {
        ReadError { line, col, message: message.into() }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}:{}: {}", self.line, self.col, self.message)
        }
    }
}

impl std::error::Error for ReadError {}
