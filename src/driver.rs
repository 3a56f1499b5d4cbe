//! Runs the pipeline: reads the inputs, runs each stage, collects diagnostics and writes the outputs.
//!
//! Invariant: this is the only library module that touches the file system.

pub mod batch;
mod compare;
mod coverage;
pub mod evidence;
pub mod output;
mod preprocess;
mod progress;
pub mod replay;
pub mod signals;
mod verify;
pub mod watchdog;

use std::path::Path;

use anyhow::{Context, Result};

use crate::automaton::{self, Automaton};
use crate::base::{Diagnostic, SourceFile};
use crate::cfa::{self, Cfa, LineRule};
use crate::cfront::ir::Program;
use crate::cfront::types::DataModel;
use crate::coverage::Analysis;

pub use batch::{batch, BatchConfig, BatchOutcome};
pub use compare::{compare, default_name, CompareConfig, CompareOutcome};
pub use coverage::{coverage, CoverageConfig, CoverageOutcome, Format, DEFAULT_PROPERTY_TEXT};
pub use evidence::{suite_metadata, write_test_suite};
pub use output::{write_atomically, Dest};
pub use preprocess::{read_program, Preprocess};
pub use replay::{replay, ReplayConfig, ReplayOutcome};
pub use verify::{read_property, verify, VerifyConfig};

/// Reads (preprocessing it if it needs it, `read_program`) and parses a C program.
pub fn load_program(path: &Path, dm: DataModel, pp: &Preprocess) -> Result<(Program, Vec<Diagnostic>)> {
    let file = read_program(path, dm, pp)?;
    let (prog, diags) = crate::cfront::parse_program(file, dm)?;
    Ok((prog, diags))
}

/// Reads a program and builds its CFA.
pub fn load_cfa(path: &Path, dm: DataModel, pp: &Preprocess) -> Result<(Program, Cfa, Vec<Diagnostic>)> {
    let (mut prog, mut diags) = load_program(path, dm, pp)?;
    let (cfa, more) = cfa::build(&mut prog, &cfa::CfaConfig::default())?;
    diags.extend(more);
    Ok((prog, cfa, diags))
}

/// Reads and parses an automaton file.
pub fn load_automaton(path: &Path) -> Result<(Automaton, Vec<Diagnostic>)> {
    let text = read_text(path)?;
    Ok(automaton::parse(&SourceFile::new(path, text))?)
}

fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read the file", path.display()))?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => Ok(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

pub(crate) fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// CPU time of this process so far, in seconds.
pub fn cpu_seconds() -> f64 {
    cpu_time::ProcessTime::try_now().map(|t| t.as_duration().as_secs_f64()).unwrap_or(0.0)
}

/// `vcov scores`: the Reach score of every automaton state, as CSV.
pub fn scores_csv(
    program: &Path,
    automaton: &Path,
    dm: DataModel,
    pp: &Preprocess,
) -> Result<(String, Vec<Diagnostic>)> {
    let (prog, cfa, mut diags) = load_cfa(program, dm, pp)?;
    let (aut, d) = load_automaton(automaton)?;
    diags.extend(d);
    let names = prog.funcs.iter().map(|f| f.name.clone()).collect();
    let analysis = Analysis::new(&aut, &cfa, names, LineRule::Spanned);
    let mut nodes = vec![0usize; aut.states.len()];
    for n in &analysis.product.nodes {
        nodes[n.aut.idx()] += 1;
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["state", "aa_line", "score", "product_nodes"])?;
    for q in aut.state_ids() {
        let st = aut.state(q);
        w.write_record([
            st.name.clone(),
            st.line.to_string(),
            analysis.reach.state_score[q.idx()].to_string(),
            nodes[q.idx()].to_string(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("cannot write CSV: {e}"))?;
    Ok((String::from_utf8(bytes).expect("CSV is UTF-8"), diags))
}
