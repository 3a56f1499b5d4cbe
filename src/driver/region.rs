//! The file side of conditions and regions in `vcov verify`: reads the condition's automaton
//! (`--condition`), writes the explored region as an assumption automaton (`--aa-out`), at the end
//! and at intervals (`--snapshot-every`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::automaton::Automaton;
use crate::base::Diagnostic;
use crate::cfa::Cfa;
use crate::cfront::ir::Program;
use crate::product::{Matcher, Product};
use crate::verify::region::{self, Dialect, Region};

/// Where `--aa-out` writes.
#[derive(Clone, Debug)]
pub struct AaOut {
    /// A file, or with `snapshot_every` a folder.
    pub path: PathBuf,
    /// The texts of the automaton. [default: the condition's, or 1.x without one]
    pub dialect: Option<Dialect>,
    /// Write a snapshot this often (into the folder `path`). [default: only at the end]
    pub snapshot_every: Option<Duration>,
}

impl AaOut {
    /// Checks the output path before the run (a file that can be written, or a folder).
    pub fn check(&self) -> Result<()> {
        if self.snapshot_every.is_some() {
            super::output::check_dir(&self.path, "snapshot folder")
        } else {
            super::output::check_file(&self.path, "assumption automaton")
        }
    }

    /// The file of the final automaton.
    pub fn final_file(&self) -> PathBuf {
        if self.snapshot_every.is_some() {
            self.path.join("aa-final.txt")
        } else {
            self.path.clone()
        }
    }

    /// The file of the `index`-th snapshot (from 1), taken `at` after the start.
    pub fn snapshot_file(&self, index: u32, at: Duration) -> PathBuf {
        self.path.join(format!("aa-{index:04}-{:.1}s.txt", at.as_secs_f64()))
    }
}

/// A condition's automaton with its product and matcher, ready for `verify::condition::Condition`.
pub struct LoadedCondition {
    /// The automaton.
    pub aut: Automaton,
    /// Its product with the program.
    pub product: Product,
    /// Warnings of the parser.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the condition `path` (a CPAchecker output folder: its `AssumptionAutomaton.txt`) and
/// composes it with the program; an automaton that does not fit the program is an error.
pub fn load_condition(path: &Path, prog: &Program, cfa: &Cfa) -> Result<LoadedCondition> {
    let file = if path.is_dir() { path.join("AssumptionAutomaton.txt") } else { path.to_path_buf() };
    let (aut, diagnostics) = super::load_automaton(&file)?;
    let names: Vec<String> = prog.funcs.iter().map(|f| f.name.clone()).collect();
    let product = crate::product::detect(&aut, cfa, names, None);
    let stats = product.match_stats(&aut);
    if !stats.fits() {
        let first: Vec<String> = stats.missed.iter().take(5).map(|(s, l)| format!("{s} (line {l})")).collect();
        bail!(
            "{}: the condition does not fit the program: {} of {} states are never reached (first: {})",
            file.display(),
            stats.missed.len(),
            stats.states,
            first.join(", ")
        );
    }
    Ok(LoadedCondition { aut, product, diagnostics })
}

impl LoadedCondition {
    /// The dialect of the condition's texts.
    pub fn dialect(&self) -> Dialect {
        match self.product.generation {
            crate::cfa::Generation::V1 => Dialect::V1,
            _ => Dialect::V2,
        }
    }

    /// The matcher of the product's generation.
    pub fn matcher<'a>(&'a self, prog: &Program, cfa: &'a Cfa) -> Matcher<'a> {
        let names: Vec<String> = prog.funcs.iter().map(|f| f.name.clone()).collect();
        Matcher::new(&self.aut, cfa, names, self.product.generation)
    }
}

/// The header line of an automaton `--aa-out` writes that says when it was taken (`at` after the
/// start of the run); `taken_at` reads it back for `vcov compare --order time`.
pub fn taken_at_line(at: Duration) -> String {
    format!("taken at {:.3} s after the start of the run", at.as_secs_f64())
}

/// When the automaton `text` was taken, in seconds after the start of its run, as its header says
/// (`taken_at_line`); `None` for an automaton without that line (CPAchecker's, a hand-written one).
pub fn taken_at(text: &str) -> Option<f64> {
    text.lines()
        .take_while(|l| in_header(l))
        .find_map(|l| {
            l.trim_start_matches('/').trim().strip_prefix("taken at ")?.strip_suffix(" s after the start of the run")
        })
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|t| t.is_finite() && *t >= 0.0)
}

/// Whether `line` can be part of an automaton's header: a comment or blank.
fn in_header(line: &str) -> bool {
    line.starts_with("//") || line.trim().is_empty()
}

/// `taken_at` of the automaton in `path`, from its header only (`None` when it cannot be read:
/// reading it for the measurement reports that).
pub fn taken_at_of_file(path: &Path) -> Option<f64> {
    use std::io::BufRead;
    let mut header = String::new();
    for line in std::io::BufReader::new(std::fs::File::open(path).ok()?).lines() {
        let line = line.ok()?;
        if !in_header(&line) {
            break;
        }
        header.push_str(&line);
        header.push('\n');
    }
    taken_at(&header)
}

/// The text `--aa-out` writes for `region`, with a header saying what it is.
pub fn region_text(
    region: &Region,
    cfa: &Cfa,
    dialect: Dialect,
    what: &str,
    condition: Option<&Automaton>,
) -> region::AutomatonText {
    let visited = region.visited_lines(cfa);
    let comment = format!(
        "Written by vcov {} verify: the region its explicit-path search explored, in CPAchecker {} texts.\n\
         {what}\n\
         visited lines: {}",
        env!("CARGO_PKG_VERSION"),
        dialect.label(),
        region::line_ranges(&visited)
    );
    region::automaton(region, cfa, dialect, &comment, condition)
}

/// Writes `region` as an automaton to `path` (atomically).
pub fn write_region(
    path: &Path,
    region: &Region,
    cfa: &Cfa,
    dialect: Dialect,
    what: &str,
    condition: Option<&Automaton>,
) -> Result<usize> {
    let res = region_text(region, cfa, dialect, what, condition);
    super::write_atomically(path, res.text.as_bytes())
        .with_context(|| format!("{}: cannot write the assumption automaton", path.display()))?;
    Ok(res.states)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_a_snapshot_was_taken_is_read_back_from_its_header() {
        let at = Duration::from_millis(2_345);
        let text = format!("// Written by vcov\n// snapshot 3\n// {}\nOBSERVER AUTOMATON A\n", taken_at_line(at));
        assert_eq!(taken_at(&text), Some(2.345));
        // Only the header counts, and an automaton without the line has no time.
        assert_eq!(taken_at("OBSERVER AUTOMATON A\n// taken at 1.000 s after the start of the run\n"), None);
        assert_eq!(taken_at("// taken at soon s after the start of the run\n"), None);
    }
}
