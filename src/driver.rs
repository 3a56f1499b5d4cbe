//! Runs the pipeline: reads the inputs, runs each stage, collects diagnostics and writes the outputs.
//!
//! Invariant: this is the only library module that touches the file system.

pub mod evidence;
pub mod replay;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::automaton::{self, Automaton};
use crate::base::{Diagnostic, Severity, SourceFile};
use crate::cfa::{self, Cfa, LineRule};
use crate::cfront::ir::Program;
use crate::cfront::types::DataModel;
use crate::coverage::result::{CoverageResult, ExecutionRecord, FunctionInfo, Times};
use crate::coverage::{path_of_counterexample, Analysis, Execution};
use crate::report::{self, LineSet};

pub use evidence::{suite_metadata, write_counterexample, write_test_suite};
pub use replay::{replay, ReplayConfig, ReplayOutcome};

/// How the coverage report goes to standard output.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Format {
    /// The summary table. [default]
    #[default]
    Text,
    /// The JSON report.
    Json,
}

/// Options of `vcov coverage`.
#[derive(Clone, Debug)]
pub struct CoverageConfig {
    /// The C program.
    pub program: PathBuf,
    /// The assumption automaton.
    pub automaton: PathBuf,
    /// Integer and pointer widths. [default: ILP32, CPAchecker's default machine model]
    pub data_model: DataModel,
    /// A directory of counterexample automata (`*.spc`) describing executions to measure.
    pub executions_from: Option<PathBuf>,
    /// Measure at most this many executions. [default: no limit]
    pub max_executions: Option<usize>,
    /// Which lines an edge counts for. [default: spanned]
    pub line_rule: LineRule,
    /// Where to write the JSON report, if anywhere.
    pub json: Option<PathBuf>,
    /// Prefix of the lcov tracefiles (`PREFIX.under.info`, `PREFIX.over.info`), if any.
    pub lcov: Option<PathBuf>,
    /// What goes to standard output.
    pub format: Format,
    /// Append a row with the paper's columns to this CSV file.
    pub csv: Option<PathBuf>,
    /// The row's name in tables. [default: the program's file name]
    pub instance: Option<String>,
}

/// The outcome of a coverage run.
pub struct CoverageOutcome {
    /// The measured coverage.
    pub result: CoverageResult,
    /// Text for standard output.
    pub stdout: String,
    /// Problems worth reporting on standard error.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and parses a C program.
pub fn load_program(path: &Path, dm: DataModel) -> Result<(Program, Vec<Diagnostic>)> {
    let text = read_text(path)?;
    let (prog, diags) = crate::cfront::parse_program(SourceFile::new(path, text), dm)?;
    Ok((prog, diags))
}

/// Reads a program and builds its CFA.
pub fn load_cfa(path: &Path, dm: DataModel) -> Result<(Program, Cfa, Vec<Diagnostic>)> {
    let (mut prog, mut diags) = load_program(path, dm)?;
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

/// `vcov coverage`: over- and under-approximation of verification coverage.
pub fn coverage(config: &CoverageConfig) -> Result<CoverageOutcome> {
    let start = Instant::now();
    let (mut prog, mut diags) = load_program(&config.program, config.data_model)?;
    let (aut, aut_diags) = load_automaton(&config.automaton)?;
    diags.extend(aut_diags);
    let t_parse = start.elapsed().as_secs_f64();

    let (cfa, cfa_diags) = cfa::build(&mut prog, &cfa::CfaConfig::default())?;
    diags.extend(cfa_diags);
    let names: Vec<String> = prog.funcs.iter().map(|f| f.name.clone()).collect();
    let analysis = Analysis::new(&aut, &cfa, names.clone(), config.line_rule);
    let t_compose = start.elapsed().as_secs_f64() - t_parse;

    let mut executions = Vec::new();
    let mut under_edges: Vec<crate::cfa::EdgeId> = Vec::new();
    if let Some(dir) = &config.executions_from {
        let limit = config.max_executions.unwrap_or(usize::MAX);
        for (i, file) in counterexample_files(dir)?.into_iter().take(limit).enumerate() {
            let (cex, d) = load_automaton(&file)?;
            diags.extend(d);
            let path = path_of_counterexample(&cex, &cfa, names.clone())
                .with_context(|| format!("{}: the execution does not fit the program", file.display()))?;
            let main_exit = cfa.func(cfa.main).expect("main").exit;
            let terminating = path.last().is_some_and(|&e| cfa.edge(e).dst == main_exit);
            let exec = Execution { origin: file_name(&file), edges: path, terminating };
            let cov = analysis.measure(&exec);
            under_edges.extend(&cov.edges);
            executions.push(ExecutionRecord {
                id: i + 1,
                origin: exec.origin,
                lines: cov.lines,
                terminating,
                violates_property: false,
                inputs: Vec::new(),
            });
        }
    }
    let mut under: Vec<u32> = executions.iter().flat_map(|e| e.lines.iter().copied()).collect();
    under.sort_unstable();
    under.dedup();

    let matching = analysis.match_stats();
    if !matching.unreached.is_empty() {
        let shown: Vec<String> = matching.unreached.iter().take(10).map(|(s, l)| format!("{s} (line {l})")).collect();
        diags.push(Diagnostic::new(
            Severity::Warning,
            &config.automaton,
            0,
            0,
            format!(
                "{} of {} automaton states are not reached in the program: {}{}",
                matching.unreached.len(),
                matching.states,
                shown.join(", "),
                if matching.unreached.len() > 10 { ", ..." } else { "" }
            ),
        ));
    }
    if !matching.unused_transitions.is_empty() {
        let shown: Vec<String> =
            matching.unused_transitions.iter().take(10).map(|(s, l)| format!("{s} (line {l})")).collect();
        diags.push(Diagnostic::new(
            Severity::Warning,
            &config.automaton,
            0,
            0,
            format!(
                "{} MATCH transitions of reached states never fire: {}{}",
                matching.unused_transitions.len(),
                shown.join(", "),
                if matching.unused_transitions.len() > 10 { ", ..." } else { "" }
            ),
        ));
    }
    let functions = cfa
        .funcs
        .iter()
        .map(|f| {
            let func = prog.func(f.func);
            let (first_line, last_line) = prog.file.lines(func.span);
            FunctionInfo { name: func.name.clone(), first_line, last_line }
        })
        .collect::<Vec<_>>();
    let mut functions = functions;
    functions.sort_by_key(|f| (f.first_line, f.name.clone()));

    under_edges.sort_unstable();
    under_edges.dedup();
    let branches = branch_info(&cfa, &analysis.reach.over_edges, &under_edges);

    let result = CoverageResult {
        program: config.program.clone(),
        automaton: config.automaton.clone(),
        data_model: config.data_model.name(),
        line_rule: match config.line_rule {
            LineRule::Spanned => "spanned",
            LineRule::FirstLine => "first-line",
        },
        lines_to_cover: analysis.lines_to_cover(),
        over_lines: analysis.reach.over_lines.clone(),
        under_lines: under,
        executions,
        matching,
        functions,
        branches,
        bug_found: false,
        exact: false,
        interrupted: false,
        instance: config.instance.clone().unwrap_or_else(|| file_name(&config.program)),
        times: Times { parse: t_parse, compose: t_compose, total: start.elapsed().as_secs_f64(), cpu: cpu_seconds() },
    };
    write_outputs(config, &result)?;
    let stdout = match config.format {
        Format::Text => report::coverage_summary(&result),
        Format::Json => report::coverage_json(&result),
    };
    Ok(CoverageOutcome { result, stdout, diagnostics: diags })
}

/// Which arms of each branching point the over-approximation and the covering executions take.
fn branch_info(
    cfa: &Cfa,
    over: &[crate::cfa::EdgeId],
    under: &[crate::cfa::EdgeId],
) -> Vec<crate::coverage::result::BranchInfo> {
    let mut res: Vec<_> = cfa
        .branches()
        .into_iter()
        .map(|arms| crate::coverage::result::BranchInfo {
            line: cfa.edge(arms[0]).lines.map_or(0, |l| l.0),
            arms: arms.iter().map(|e| (over.binary_search(e).is_ok(), under.binary_search(e).is_ok())).collect(),
        })
        .collect();
    res.sort_by_key(|b| b.line);
    res
}

fn write_outputs(config: &CoverageConfig, result: &CoverageResult) -> Result<()> {
    if let Some(path) = &config.json {
        report::write_atomically(path, report::coverage_json(result).as_bytes())
            .with_context(|| format!("{}: cannot write the JSON report", path.display()))?;
    }
    if let Some(path) = &config.csv {
        let existing = match std::fs::read(path) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("{}: cannot read the CSV file", path.display())),
        };
        let contents = report::append_csv_row(existing.as_deref(), result)
            .with_context(|| format!("{}: cannot append to the CSV file", path.display()))?;
        report::write_atomically(path, &contents)
            .with_context(|| format!("{}: cannot write the CSV file", path.display()))?;
    }
    if let Some(prefix) = &config.lcov {
        for (which, suffix) in [(LineSet::Under, "under"), (LineSet::Over, "over")] {
            let path = PathBuf::from(format!("{}.{suffix}.info", prefix.display()));
            report::write_atomically(&path, report::lcov_tracefile(result, which).as_bytes())
                .with_context(|| format!("{}: cannot write the lcov tracefile", path.display()))?;
        }
    }
    Ok(())
}

/// The `*.spc` files of `dir`, ordered by the number in their names (`Counterexample.2.spc` before
/// `Counterexample.10.spc`), then by name.
fn counterexample_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("{}: cannot read the directory", dir.display()))?;
    let mut files = Vec::new();
    for e in entries {
        let p = e.with_context(|| format!("{}: cannot read the directory", dir.display()))?.path();
        if p.extension().is_some_and(|x| x == "spc") {
            files.push(p);
        }
    }
    if files.is_empty() {
        bail!("{}: no counterexample automata (*.spc) in this directory", dir.display());
    }
    let number = |p: &Path| -> u64 {
        let name = file_name(p);
        name.split(|c: char| !c.is_ascii_digit())
            .find(|s| !s.is_empty())
            .and_then(|s| s.parse().ok())
            .unwrap_or(u64::MAX)
    };
    files.sort_by(|a, b| number(a).cmp(&number(b)).then(a.cmp(b)));
    Ok(files)
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// CPU time of this process so far, in seconds.
pub fn cpu_seconds() -> f64 {
    cpu_time::ProcessTime::try_now().map(|t| t.as_duration().as_secs_f64()).unwrap_or(0.0)
}

/// `vcov scores`: the Reach score of every automaton state, as CSV.
pub fn scores_csv(program: &Path, automaton: &Path, dm: DataModel) -> Result<(String, Vec<Diagnostic>)> {
    let (prog, cfa, mut diags) = load_cfa(program, dm)?;
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
