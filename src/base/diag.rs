//! Diagnostics: problems in the input that do not stop the run.

use std::fmt;
use std::path::PathBuf;

/// How serious a diagnostic is.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Severity {
    /// Worth knowing; results are unaffected.
    Note,
    /// Results may be less precise (for example an unsupported construct made a value unknown).
    Warning,
    /// The input is wrong; the stage could not finish.
    Error,
}

/// A message tied to a place in an input file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// The file the message is about.
    pub file: PathBuf,
    /// 1-based line, 0 when the message is about the whole file.
    pub line: u32,
    /// 1-based column, 0 when unknown.
    pub col: u32,
    /// What is wrong, without trailing period.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at `file:line:col`.
    pub fn new(severity: Severity, file: impl Into<PathBuf>, line: u32, col: u32, message: impl Into<String>) -> Self {
        Diagnostic { severity, file: file.into(), line, col, message: message.into() }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.col > 0 {
                write!(f, ":{}", self.col)?;
            }
        }
        write!(f, ": {sev}: {}", self.message)
    }
}
