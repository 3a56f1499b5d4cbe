//! `vcov verify`: SV-COMP-style verification of a reachability property with the symbolic executor.
//!
//! `decide` runs an exhaustive exploration (`symex::Exhaustive`) of a program and turns its outcome
//! into a verdict (`driver::verify` reads the files and writes the witness):
//! - FALSE when a violating path was found whose inputs, replayed by the concrete interpreter, take
//!   exactly the same path to the violation, and whose model made no approximation that could make
//!   the violation spurious; a GraphML violation witness is written for it.
//! - TRUE only when the exploration ran out of paths with no path cut (unwinding bound, unsupported
//!   construct, possible undefined behaviour), no approximation, and no violation found.
//! - UNKNOWN with the reason otherwise (time limit, cuts, approximations, a counterexample that did
//!   not replay).
//!
//! `task` reads task definitions and property files from their text; `check_property` is the one
//! check of a property file that both `vcov verify` and `vcov coverage --prop` apply.
//!
//! Invariant: `verify` does no file IO and uses no `anyhow`: `driver` does both.

pub mod task;
pub mod ts;

use std::fmt;
use std::path::PathBuf;

use crate::base::Diagnostic;
use crate::cfa::{Cfa, EdgeId};
use crate::cfront::{self, ir::Program, types::DataModel};
use crate::symex::{self, Exhaustive, ExploreConfig, InputValue, PathEnd, Stats};

/// The answer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The property holds.
    True,
    /// The property is violated (a replayed counterexample exists).
    False,
    /// No answer, with the reason.
    Unknown(String),
}

/// What `run` found.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// The verdict.
    pub verdict: Verdict,
    /// Exploration counters.
    pub stats: Stats,
    /// The GraphML violation witness, when the verdict is FALSE.
    pub witness: Option<String>,
    /// Diagnostics of the front end and the CFA builder.
    pub diagnostics: Vec<Diagnostic>,
    /// The expected verdict of the task, if it gives one.
    pub expected: Option<bool>,
    /// The program file (from the command line or the task).
    pub program: PathBuf,
    /// The data model used (the task's, the command line's, or ILP32).
    pub data_model: DataModel,
    /// When the verdict is FALSE: the program and the inputs of the counterexample (for confirming
    /// it outside, `vcov verify --confirm`).
    pub counterexample: Option<(cfront::ir::Program, Vec<InputValue>)>,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::True => write!(f, "TRUE"),
            Verdict::False => write!(f, "FALSE(unreach-call)"),
            Verdict::Unknown(why) => write!(f, "UNKNOWN ({why})"),
        }
    }
}

/// The default text of the ErrorLabel specification for witnesses.
/// The text of CPAchecker's ErrorLabel specification in witnesses.
pub const ERROR_LABEL_SPEC: &str = "CHECK( init(main()), LTL(G ! label(ERROR)) )";

/// The text of the unreach-call property for `reach_error` when no property file is given.
pub const UNREACH_CALL_SPEC: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";

/// Why a property file is not one vcov checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyError {
    /// Not a `CHECK( init(f()), LTL(G ! call(g())) )` property.
    Unsupported,
    /// The entry function is not `main`.
    Entry(String),
    /// A forbidden call other than `reach_error` and `__VERIFIER_error`.
    Call(String),
}

impl fmt::Display for PropertyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PropertyError::Unsupported => {
                f.write_str("unsupported property (vcov checks `G ! call(reach_error())` from main)")
            }
            PropertyError::Entry(e) => write!(f, "the entry function must be main, not '{e}'"),
            PropertyError::Call(c) => {
                write!(f, "vcov checks calls of reach_error or __VERIFIER_error only, not of '{c}'")
            }
        }
    }
}

/// The one check of a property file's `text`: an unreach-call property from `main` whose forbidden
/// calls are `reach_error` or `__VERIFIER_error`. Returns the property's text for witnesses.
pub fn check_property(text: &str) -> Result<String, PropertyError> {
    let (init, forbidden) = task::parse_property(text).ok_or(PropertyError::Unsupported)?;
    if init != "main" {
        return Err(PropertyError::Entry(init));
    }
    if let Some(other) = forbidden.iter().find(|f| *f != "reach_error" && *f != "__VERIFIER_error") {
        return Err(PropertyError::Call(other.clone()));
    }
    Ok(text.trim().to_string())
}

/// What the exploration decided.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The verdict.
    pub verdict: Verdict,
    /// Exploration counters.
    pub stats: Stats,
    /// When the verdict is FALSE: the counterexample's edges and inputs.
    pub counterexample: Option<(Vec<EdgeId>, Vec<InputValue>)>,
}

/// Explores `prog` exhaustively under `explore` and decides: FALSE with the first counterexample the
/// path acceptance rule (`symex::confirm`) accepts; otherwise UNKNOWN if a counterexample was refused
/// or the exploration is inconclusive (`Summary::inconclusive`); otherwise TRUE.
pub fn decide(prog: &Program, cfa: &Cfa, explore: ExploreConfig) -> Decision {
    let property = explore.property;
    let mut explorer = symex::explore(prog, cfa, explore, Exhaustive);
    let mut rejected: Option<symex::Rejected> = None;
    let mut found = None;
    while let Some(outcome) = explorer.next() {
        if outcome.end != PathEnd::Violation {
            continue;
        }
        match symex::confirm(prog, cfa, property, &outcome, symex::Approx::NONE) {
            Ok(c) => {
                found = Some((c.edges, c.inputs));
                explorer.stop();
                break;
            }
            Err(r) => {
                rejected.get_or_insert(r);
            }
        }
    }
    let summary = explorer.summary();
    let stats = explorer.stats();
    let verdict = if found.is_some() {
        Verdict::False
    } else if let Some(r) = rejected {
        Verdict::Unknown(r.to_string())
    } else {
        match summary.inconclusive() {
            None => Verdict::True,
            Some(why) => Verdict::Unknown(why.to_string()),
        }
    };
    Decision { verdict, stats, counterexample: found }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unreach_call_properties_from_main_are_checked() {
        let ok = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";
        assert_eq!(check_property(ok).unwrap(), ok.trim());
        assert!(check_property("CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )").is_ok());
        assert_eq!(
            check_property("CHECK( init(start()), LTL(G ! call(reach_error())) )"),
            Err(PropertyError::Entry("start".into()))
        );
        assert_eq!(
            check_property("CHECK( init(main()), LTL(G ! call(abort())) )"),
            Err(PropertyError::Call("abort".into()))
        );
        assert_eq!(check_property("CHECK( init(main()), LTL(G valid-free) )"), Err(PropertyError::Unsupported));
        assert_eq!(check_property(""), Err(PropertyError::Unsupported));
    }
}
