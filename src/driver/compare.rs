//! `vcov compare`: one program, several automata (verifier configurations, or snapshots of one run).
//! The program is read and its CFA built once; each automaton is measured as `vcov coverage` would
//! (`coverage::measure`), all in parallel; the report sets the configurations side by side.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rayon::prelude::*;

use super::coverage::{measure, CoverageConfig, Share};
use super::output::{self, Dest, Staged};
use super::{load_automaton, load_program};
use crate::base::Diagnostic;
use crate::cfa;
use crate::coverage::assemble;
use crate::coverage::exchange::Exchange;
use crate::coverage::result::{CoverageResult, Origin, Times};
use crate::coverage::{Analysis, Execution};
use crate::report::{self, Compared, LineSet};

/// The stack of each configuration's thread: as deep as the main thread that `vcov coverage` measures
/// on may grow by default (8 MiB), and more (a thread's default is 2 MiB); reserved, not used.
const THREAD_STACK: usize = 64 << 20;

/// Options of `vcov compare`.
#[derive(Clone, Debug)]
pub struct CompareConfig {
    /// The options every configuration is measured with (`automaton` and the outputs are ignored).
    pub base: CoverageConfig,
    /// The automata, with their names.
    pub automata: Vec<(String, PathBuf)>,
    /// Read the automata as snapshots of one run, in order: report coverage over time and warn where
    /// a snapshot's over-approximation does not contain the previous one's. [default: false]
    pub over_time: bool,
}

/// The outcome of `vcov compare`.
pub struct CompareOutcome {
    /// Text for standard output.
    pub stdout: String,
    /// Warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// The signal that stopped a search, if one did.
    pub signal: Option<i32>,
    /// The HTML report's first page, when one was written.
    pub html: Option<PathBuf>,
}

/// The default name of an automaton: its folder's name for CPAchecker's `AssumptionAutomaton.txt`,
/// its file stem otherwise.
pub fn default_name(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    match path.parent().and_then(|d| d.file_name()) {
        Some(dir) if stem == "AssumptionAutomaton" => dir.to_string_lossy().into_owned(),
        _ => stem,
    }
}

/// `vcov compare`.
pub fn compare(config: &CompareConfig) -> Result<CompareOutcome> {
    // The run's start, which its time limit counts from as the watchdog's does (`driver::deadline`).
    let start = super::started();
    let base = &config.base;
    let _watchdog = super::watchdog::for_report(base.time_limit, base.memory_limit_mb);
    if config.automata.len() < 2 {
        bail!("vcov compare needs at least two automata (--aa A --aa B)");
    }
    for (i, (name, _)) in config.automata.iter().enumerate() {
        if config.automata[..i].iter().any(|(n, _)| n == name) {
            bail!("two configurations are named {name}: name them with --name");
        }
    }
    check_outputs(base, config)?;
    let (mut prog, mut diags) = load_program(&base.program, base.data_model, &base.preprocess)?;
    let automata: Vec<_> = config.automata.par_iter().map(|(_, p)| load_automaton(p)).collect();
    let t_parse = start.elapsed().as_secs_f64();
    let (cfa, cfa_diags) = cfa::build(&mut prog, &cfa::CfaConfig::default())?;
    diags.extend(cfa_diags);
    let read = Times { parse: t_parse, cfa: start.elapsed().as_secs_f64() - t_parse, ..Times::default() };
    let mut loaded = Vec::new();
    for a in automata {
        let (aut, d) = a?;
        diags.extend(d);
        loaded.push(aut);
    }
    let measured = measure_each(config, &prog, &cfa, &loaded, start, read);
    let mut results = Vec::new();
    let mut paths = Vec::new();
    let mut signal = None;
    for m in measured {
        let m = m?;
        diags.extend(m.diagnostics);
        signal = signal.or(m.signal);
        results.push(m.result);
        paths.push(m.paths);
    }
    super::watchdog::enter(super::watchdog::Phase::Reporting);
    // Sharing composes every automaton with the CFA again (as long as composing took at first):
    // past the time limit, or too close to it, the report goes without (an execution not shared
    // only leaves lines another configuration covered unclaimed here).
    let composing = results.iter().map(|r| r.times.compose).fold(0.0, f64::max);
    // What is left of the limit: by the clock, and in CPU time (`--timelimit` is CPU time).
    let left = base.time_limit.map(|l| {
        let l = l.as_secs_f64();
        (l - start.elapsed().as_secs_f64()).min(l - super::run_cpu_seconds())
    });
    match left {
        Some(left) if left < 2.0 * composing + 0.5 => diags.push(Diagnostic::new(
            crate::base::Severity::Warning,
            &base.program,
            0,
            0,
            "executions were not shared between the configurations after their searches: the time limit leaves no time for it",
        )),
        _ => share_executions(base, &prog, &cfa, &loaded, &paths, &mut results, &mut diags),
    }
    for (r, (_, path)) in results.iter_mut().zip(&config.automata) {
        r.provenance = super::coverage::provenance(base, path)?;
    }
    let taken_at = match config.over_time {
        true => config.automata.iter().map(|(_, path)| super::region::taken_at_of_file(path)).collect(),
        false => Vec::new(),
    };
    let compared = Compared::new(&results, config.over_time, taken_at);
    for w in &compared.not_monotone {
        diags.push(Diagnostic::new(
            crate::base::Severity::Warning,
            &config.automata[w.later].1,
            0,
            0,
            format!(
                "the over-approximation of {} does not contain that of {} (lines {}): not snapshots of one run?",
                results[w.later].instance,
                results[w.later - 1].instance,
                w.lines.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
            ),
        ));
    }

    let to_stdout = write_outputs(base, &results, &compared)?;
    let stdout = to_stdout.unwrap_or_else(|| report::compare_summary(&compared));
    let html = base.html.as_ref().map(|d| d.join("index.html"));
    Ok(CompareOutcome { stdout, diagnostics: diags, signal, html })
}

/// Measures each configuration: a `vcov coverage` run without outputs, on a thread of its own (the
/// searches wait for one another at the exchange's points, so none may wait for a free thread),
/// exchanging executions as they go.
fn measure_each(
    config: &CompareConfig,
    prog: &crate::cfront::ir::Program,
    cfa: &crate::cfa::Cfa,
    loaded: &[crate::automaton::Automaton],
    start: Instant,
    read: Times,
) -> Vec<Result<super::coverage::Measured>> {
    let base = &config.base;
    let names: Vec<String> = config.automata.iter().map(|(n, _)| n.clone()).collect();
    let participants = Exchange::new(names.len()).participants();
    std::thread::scope(|s| {
        let threads: Vec<_> = config
            .automata
            .iter()
            .zip(loaded)
            .zip(participants)
            .map(|(((name, path), aut), participant)| {
                let mut c = base.clone();
                c.automaton = path.clone();
                c.instance = Some(name.clone());
                c.progress = false;
                let names = &names[..];
                std::thread::Builder::new()
                    .stack_size(THREAD_STACK)
                    .spawn_scoped(s, move || {
                        measure(&c, prog, cfa, aut, start, read, Some(Share { participant, names }))
                    })
                    .expect("spawn a configuration's thread")
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

/// Stages and writes the outputs of `vcov compare`; what goes to standard output, if any.
fn write_outputs(base: &CoverageConfig, results: &[CoverageResult], compared: &Compared) -> Result<Option<String>> {
    let mut staged = Staged::default();
    let mut to_stdout = None;
    match &base.json {
        Some(Dest::File(p)) => staged.add(p, report::compare_json(compared).as_bytes())?,
        Some(Dest::Stdout) => to_stdout = Some(report::compare_json(compared)),
        None => {}
    }
    if let Some(dest) = &base.csv {
        let mut table = match dest {
            Dest::File(p) => super::coverage::read_if_exists(p)?,
            Dest::Stdout => None,
        };
        for r in results {
            table = Some(report::append_csv_row(table.as_deref(), r).context("cannot write the CSV rows")?);
        }
        let bytes = table.unwrap_or_default();
        match dest {
            Dest::File(p) => staged.add(p, &bytes)?,
            Dest::Stdout => to_stdout = Some(String::from_utf8(bytes).expect("CSV is UTF-8")),
        }
    }
    if let Some(Dest::File(prefix)) = &base.lcov {
        for r in results {
            for (which, suffix) in [(LineSet::Under, "under"), (LineSet::Over, "over")] {
                let path = PathBuf::from(format!("{}.{}.{suffix}.info", prefix.display(), r.instance));
                staged.add(
                    &path,
                    report::lcov_tracefile_named(r, which, &format!("{}_{suffix}", r.instance)).as_bytes(),
                )?;
            }
        }
    }
    if let Some(dir) = &base.html {
        let source = super::coverage::read_source(&base.program)?;
        let links = results.iter().map(|_| Default::default()).collect();
        let witness = results.iter().map(|_| None).collect();
        let input = report::HtmlInput { source: &source, results, compared: Some(compared), links, witness };
        super::coverage::stage_html(&mut staged, dir, &input)?;
    }
    staged.commit_outputs()?;
    Ok(to_stdout)
}

/// The shared cache of executions: every terminating execution one configuration found (replayed, so
/// a real execution of the program) is measured against every other configuration's automaton, in
/// parallel; where it covers lines another configuration's search did not, that configuration gains
/// it (origin `found for NAME`) and the lines become covered. A line a configuration proved not
/// coverable can never be gained: if one is, the proof was wrong, and a warning says so.
fn share_executions(
    base: &CoverageConfig,
    prog: &crate::cfront::ir::Program,
    cfa: &crate::cfa::Cfa,
    automata: &[crate::automaton::Automaton],
    paths: &[Vec<Vec<crate::cfa::EdgeId>>],
    results: &mut [CoverageResult],
    diags: &mut Vec<Diagnostic>,
) {
    let names: Vec<String> = prog.funcs.iter().map(|f| f.name.clone()).collect();
    let snapshot: &[CoverageResult] = results;
    // For every configuration: (configuration found for, execution index, lines it covers here).
    let gains: Vec<Vec<(usize, usize, Vec<u32>)>> = (0..snapshot.len())
        .into_par_iter()
        .map(|b| {
            let analysis = Analysis::with_generation(&automata[b], cfa, names.clone(), base.line_rule, base.texts);
            let mut have: std::collections::BTreeSet<u32> = snapshot[b].under_lines.iter().copied().collect();
            let mut gained = Vec::new();
            for (a, other) in snapshot.iter().enumerate().filter(|(a, _)| *a != b) {
                for (k, (rec, path)) in other.executions.iter().zip(&paths[a]).enumerate() {
                    // Executions `a` was given by the exchange are shared by the one that found them.
                    if !rec.terminating || matches!(rec.origin, Origin::FoundFor(_)) {
                        continue;
                    }
                    let exec = Execution { origin: String::new(), edges: path.clone(), terminating: true };
                    let lines = analysis.coverage_of(&exec).lines;
                    if lines.iter().any(|l| !have.contains(l)) {
                        have.extend(lines.iter().copied());
                        gained.push((a, k, lines));
                    }
                }
            }
            gained
        })
        .collect();
    for (b, gained) in gains.into_iter().enumerate() {
        for (a, k, lines) in gained {
            let from = results[a].instance.clone();
            let rec = results[a].executions[k].clone();
            let r = &mut results[b];
            for l in assemble::gain_execution(r, rec, &from, lines) {
                diags.push(Diagnostic::new(
                    crate::base::Severity::Warning,
                    &r.automaton,
                    0,
                    0,
                    format!(
                        "line {l} was proven not coverable under {}, yet an execution found for {from} covers it \
                         there: please report this",
                        r.instance
                    ),
                ));
            }
        }
    }
}

fn check_outputs(base: &CoverageConfig, config: &CompareConfig) -> Result<()> {
    if base.json == Some(Dest::Stdout) && base.csv == Some(Dest::Stdout) {
        bail!("--json and --csv cannot both write to standard output (-)");
    }
    if let Some(Dest::File(p)) = &base.json {
        output::check_file(p, "JSON report")?;
    }
    if let Some(Dest::File(p)) = &base.csv {
        output::check_file(p, "CSV table")?;
        if let Some(existing) = super::coverage::read_if_exists(p)? {
            report::check_csv_table(&existing).map_err(|why| anyhow::anyhow!("{}: {why}", p.display()))?;
        }
    }
    match &base.lcov {
        Some(Dest::File(prefix)) => {
            for (name, _) in &config.automata {
                output::check_file(
                    &PathBuf::from(format!("{}.{name}.under.info", prefix.display())),
                    "lcov tracefile",
                )?;
            }
        }
        Some(Dest::Stdout) => bail!("vcov compare writes one lcov tracefile per configuration: give --lcov a PREFIX"),
        None => {}
    }
    if let Some(dir) = &base.html {
        output::check_dir(dir, "HTML report")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(automaton: &str, max_executions: Option<usize>) -> CoverageConfig {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        CoverageConfig {
            program: root.join("fixtures/e2e/branches/program.c"),
            automaton: root.join(automaton),
            data_model: Default::default(),
            preprocess: Default::default(),
            executions_from: None,
            generate: Default::default(),
            max_executions,
            time_limit: None,
            memory_limit_mb: None,
            proof_after: crate::coverage::search::DEFAULT_PROOF_AFTER,
            assume: crate::symex::Approx::NONE,
            alias_links: false,
            property: crate::symex::Property::Any,
            property_text: String::new(),
            continue_after_bug: false,
            evidence: None,
            witness: None,
            line_rule: Default::default(),
            json: None,
            html: None,
            lcov: None,
            format: Default::default(),
            csv: None,
            reproducible: true,
            confirm: false,
            allow_mismatch: false,
            texts: None,
            instance: None,
            progress: false,
            stats: false,
            induction: true,
        }
    }

    #[test]
    fn an_execution_found_for_one_configuration_covers_lines_of_another() {
        // `everything` finds two executions; `then` (only the then branch explored) is given none
        // of its own (`--max-executions 0`): it gains what the others' executions cover inside its
        // explored region, and nothing beyond it.
        let configs = [
            config("assumption-automata/true.spc", Some(2)),
            config("fixtures/e2e/branches/aa_then_explored.txt", Some(0)),
        ];
        let (mut prog, _) = load_program(&configs[0].program, Default::default(), &Default::default()).unwrap();
        let (cfa, _) = cfa::build(&mut prog, &cfa::CfaConfig::default()).unwrap();
        let automata: Vec<_> = configs.iter().map(|c| load_automaton(&c.automaton).unwrap().0).collect();
        let mut results = Vec::new();
        let mut paths = Vec::new();
        for (c, aut) in configs.iter().zip(&automata) {
            let m = measure(c, &prog, &cfa, aut, std::time::Instant::now(), Times::default(), None).unwrap();
            results.push(m.result);
            paths.push(m.paths);
        }
        assert!(results[1].under_lines.is_empty());
        let everything_under = results[0].under_lines.clone();
        let mut diags = Vec::new();
        share_executions(&configs[0], &prog, &cfa, &automata, &paths, &mut results, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        // Nothing to gain for the configuration that explored everything.
        assert_eq!(results[0].under_lines, everything_under);
        let then = &results[1];
        assert!(!then.under_lines.is_empty(), "the then-explored configuration gained lines");
        assert!(then.under_lines.iter().all(|l| then.over_lines.contains(l)), "only lines of its own region");
        assert!(then.executions.iter().all(|e| matches!(e.origin, Origin::FoundFor(_))));
        for l in &then.under_lines {
            assert!(matches!(then.line_status[l], crate::coverage::result::LineStatus::Covered(_)), "line {l}");
        }
        // The else branch (lines 13-15) lies outside its region: never gained.
        assert!(!then.under_lines.contains(&13));
    }
}
