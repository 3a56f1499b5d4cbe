//! Writing executions as evidence: Test-Comp suites (with the claims file) and counterexample
//! automata, staged with the run's other outputs (`output::Staged`).

use std::path::Path;
use std::time::SystemTime;

use anyhow::{Context, Result};

use super::output::Staged;
use crate::cfa::{Cfa, EdgeId};
use crate::cfront::types::DataModel;
use crate::coverage::result::ExecutionRecord;
use crate::evidence::{self, SuiteMetadata};

/// The metadata of a suite for `program`: its SHA-256, `producer` vcov and its version, the
/// creation time now.
pub fn suite_metadata(program: &Path, specification: &str, architecture: DataModel) -> Result<SuiteMetadata> {
    let bytes = std::fs::read(program).with_context(|| format!("{}: cannot read the file", program.display()))?;
    Ok(SuiteMetadata {
        producer: format!("vcov {}", env!("CARGO_PKG_VERSION")),
        specification: specification.to_string(),
        program_file: program.display().to_string(),
        program_hash: crate::witness::sha256_hex(&bytes),
        entry_function: "main".into(),
        architecture,
        creation_time: crate::witness::utc_timestamp(SystemTime::now()),
    })
}

/// Writes the Test-Comp suite of `executions` into `dir` (created if missing): `metadata.xml`,
/// `test{id}.xml` per execution, and `vcov-claims.json`.
/// Labels `ERROR` are not violations in such a suite.
pub fn write_test_suite(dir: &Path, meta: &SuiteMetadata, executions: &[ExecutionRecord]) -> Result<()> {
    let mut staged = Staged::default();
    stage_test_suite(&mut staged, dir, meta, executions, false)?;
    staged.commit()
}

/// Stages the files of `write_test_suite`.
pub(crate) fn stage_test_suite(
    staged: &mut Staged,
    dir: &Path,
    meta: &SuiteMetadata,
    executions: &[ExecutionRecord],
    error_label: bool,
) -> Result<()> {
    for (name, contents) in evidence::test_suite_files(meta, executions, error_label, crate::report::words::origin) {
        staged.add(&dir.join(name), contents.as_bytes())?;
    }
    Ok(())
}

/// Stages the counterexample automaton of `path` (a path of `cfa` from its entry) for `file`; the
/// automaton is named after the file's first number (`Counterexample.3.spc`: `ErrorPath3`).
pub(crate) fn stage_counterexample(staged: &mut Staged, file: &Path, cfa: &Cfa, path: &[EdgeId]) -> Result<()> {
    let stem = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let number: String = stem.split(|c: char| !c.is_ascii_digit()).find(|s| !s.is_empty()).unwrap_or("1").to_string();
    let text = evidence::counterexample_automaton(cfa, path, &format!("ErrorPath{number}"))
        .with_context(|| format!("{}: an empty path has no counterexample automaton", file.display()))?;
    staged.add(file, text.as_bytes())
}
