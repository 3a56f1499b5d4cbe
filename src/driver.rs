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
mod proofs;
pub mod region;
pub mod replay;
pub mod signals;
mod verify;
pub mod watchdog;

use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

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
pub use verify::{read_property, verify, EngineReport, VerifyConfig, VerifyNote, VerifyOutcome};

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

/// The text of the file at `path` (bytes that are not UTF-8 replaced). A folder, or a file holding
/// binary data (a NUL or another control character no text has), is an error that says so, at the
/// position of the first such byte.
fn read_text(path: &Path) -> Result<String> {
    if path.is_dir() {
        anyhow::bail!(
            "{}: a folder, not a file (vcov coverage and vcov compare also take a CPAchecker output folder, \
             with program.c or one .c/.i file and AssumptionAutomaton.txt, in place of the program)",
            path.display()
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read the file", path.display()))?;
    if let Some((line, col, byte)) = binary_byte(&bytes) {
        anyhow::bail!(
            "{}:{line}:{col}: binary data (byte 0x{byte:02x}), not text: is this the file you meant? vcov reads C \
             source (.c, .i) and CPAchecker's automata as text",
            path.display()
        );
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => Ok(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

/// The line, column (in bytes) and value of the first byte of `bytes` no text file holds: a control
/// character other than tab, line feed, vertical tab, form feed and carriage return.
fn binary_byte(bytes: &[u8]) -> Option<(usize, usize, u8)> {
    let at =
        bytes.iter().position(|&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r')) || b == 0x7f)?;
    let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    Some((line, at - line_start + 1, bytes[at]))
}

pub(crate) fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// When the process started (`mark_start`): by the clock, and its CPU time then (its own, and its
/// children's).
struct Start {
    at: Instant,
    cpu: f64,
    children: f64,
}

impl Start {
    fn now() -> Start {
        Start { at: Instant::now(), cpu: process_cpu_seconds(), children: children_cpu_seconds() }
    }
}

/// The start of this process's run (one command per process).
static START: OnceLock<Start> = OnceLock::new();

/// The process's CPU time, whatever ran in it: the kernel keeps it across `exec`, so under `cargo
/// run` it starts with what cargo's child used before it became vcov.
fn process_cpu_seconds() -> f64 {
    cpu_time::ProcessTime::try_now().map(|t| t.as_duration().as_secs_f64()).unwrap_or(0.0)
}

/// The CPU time of the children the process waited for (gcc, the programs it built), as
/// `getrusage` counts it.
fn children_cpu_seconds() -> f64 {
    // SAFETY: `getrusage` writes only the struct it is given, which is zeroed and ours.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// Marks the start of the run: the clock its time limit counts from (`started`, `deadline`) and the
/// start of vcov's own CPU time (`cpu_seconds`); the first call counts.
pub fn mark_start() {
    START.get_or_init(Start::now);
}

/// When the run started (`mark_start`; the first call of either when `mark_start` never ran).
pub fn started() -> Instant {
    START.get_or_init(Start::now).at
}

/// The one deadline of a run with `time_limit` (`--timelimit`): that long after `started`, the whole
/// run reading its inputs included. The watchdog and the search's budget both take it from here.
/// A limit too far ahead for the clock is none.
pub fn deadline(time_limit: Option<Duration>) -> Option<Instant> {
    time_limit.and_then(|t| started().checked_add(t))
}

/// CPU time vcov used so far (since `mark_start`), in seconds.
pub fn cpu_seconds() -> f64 {
    (process_cpu_seconds() - START.get().map_or(0.0, |s| s.cpu)).max(0.0)
}

/// CPU time the run used so far (since `mark_start`), in seconds: vcov's and that of the children it
/// waited for, as BenchExec counts a run's CPU time (what `--timelimit` bounds).
pub fn run_cpu_seconds() -> f64 {
    cpu_seconds() + (children_cpu_seconds() - START.get().map_or(0.0, |s| s.children)).max(0.0)
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

/// The program and automaton of `vcov coverage PROGRAM [--aa AA]`: `PROGRAM` may be a CPAchecker
/// output folder (`program.c`, or its one `.c`/`.i` file, and `AssumptionAutomaton.txt`), whose
/// automaton is taken unless `--aa` names another; an `--aa` that is a folder stands for its
/// `AssumptionAutomaton.txt`.
pub fn resolve_inputs(program: &Path, automaton: Option<&Path>) -> Result<(std::path::PathBuf, std::path::PathBuf)> {
    let automaton = automaton.map(resolve_automaton);
    if !program.is_dir() {
        return match automaton {
            Some(aa) => Ok((program.to_path_buf(), aa)),
            None => anyhow::bail!(
                "{}: no automaton: give it with --aa AA, or give a CPAchecker output folder (program.c and \
                 AssumptionAutomaton.txt) in place of the program",
                program.display()
            ),
        };
    }
    let files = folder_files(program)?;
    match crate::batch::discover::coverage_task_in_dir(program, &files).map_err(anyhow::Error::msg)? {
        Some(found) => match found.inputs {
            crate::batch::Inputs::Coverage { program, automaton: own } => Ok((program, automaton.unwrap_or(own))),
            crate::batch::Inputs::Verify { .. } => unreachable!("a coverage folder"),
        },
        None => {
            // No automaton in the folder: its one program will do when --aa names the automaton.
            let sources: Vec<&String> = files.iter().filter(|f| f.ends_with(".c") || f.ends_with(".i")).collect();
            match (automaton, sources.as_slice()) {
                (Some(aa), [one]) => Ok((program.join(one), aa)),
                _ => anyhow::bail!(
                    "{}: a folder, not a C file, and not a CPAchecker output folder (it has no {}{}): give the \
                     program's file, or the folder CPAchecker wrote",
                    program.display(),
                    crate::batch::discover::AUTOMATON_FILE,
                    if sources.len() > 1 { ", and several programs" } else { "" }
                ),
            }
        }
    }
}

/// `path`, or the `AssumptionAutomaton.txt` in it when it is a folder.
pub fn resolve_automaton(path: &Path) -> std::path::PathBuf {
    if path.is_dir() {
        path.join(crate::batch::discover::AUTOMATON_FILE)
    } else {
        path.to_path_buf()
    }
}

/// The names of the files of the folder `dir`, sorted.
fn folder_files(dir: &Path) -> Result<Vec<String>> {
    let mut res = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("{}: cannot read the folder", dir.display()))? {
        let e = e.with_context(|| format!("{}: cannot read the folder", dir.display()))?;
        if e.path().is_file() {
            res.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    res.sort();
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_bytes_are_found_with_their_position() {
        assert_eq!(binary_byte(b"int main(void) {\n    return\0 0;\n}\n"), Some((2, 11, 0)));
        assert_eq!(binary_byte(b"\x7fELF\x02"), Some((1, 1, 0x7f)));
        assert_eq!(binary_byte(b"a\tb\r\n\x0c\x0bc\xe9\n"), None, "text, Latin-1 included");
    }
}
