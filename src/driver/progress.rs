//! The progress lines of a coverage search and of `vcov verify`, drawn on standard error when it is a
//! terminal.
//!
//! The search only stores counters (`SearchProgress`, relaxed atomics); indicatif's own tick thread
//! reads them and draws the line ten times a second. Nothing the search does waits for the terminal,
//! and the drawing thread takes no lock the rest of the program holds (`main` locks standard error
//! only for the duration of one write).

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::coverage::search::{SearchOutcome, SearchProgress};
use crate::verify::{Engines, Progress};

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// The progress line of one search; `None` inside when standard error is not a terminal or progress
/// is turned off.
pub(crate) struct ProgressLine {
    bar: Option<ProgressBar>,
    counters: Arc<SearchProgress>,
    over: usize,
}

impl ProgressLine {
    /// Starts drawing (when `enabled` and standard error is a terminal) the progress of a search whose
    /// over-approximation has `over` lines.
    pub(crate) fn start(enabled: bool, over: usize) -> ProgressLine {
        let counters = Arc::new(SearchProgress::default());
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let c = Arc::clone(&counters);
            let style = ProgressStyle::with_template("{spinner} {elapsed_precise} {search}")
                .expect("valid progress template")
                .with_key("search", move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&status_text(&c, over, state.elapsed()));
                });
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style);
            bar.enable_steady_tick(TICK);
            bar
        });
        ProgressLine { bar, counters, over }
    }

    /// The counters the search updates.
    pub(crate) fn counters(&self) -> &SearchProgress {
        &self.counters
    }

    /// Replaces the live line with a final one saying how the search ended, `search_end` seconds
    /// after the run started (the figure the summary gives too).
    pub(crate) fn finish(self, outcome: &SearchOutcome, search_end: f64) {
        let Some(bar) = self.bar else { return };
        let elapsed = bar.elapsed();
        let mut line = format!("search {}: {}", ended(outcome), status_text(&self.counters, self.over, elapsed));
        let _ = write!(line, " in {search_end:.1} s");
        // The live line goes, and the final one is an ordinary line of standard error, ended by a
        // newline, so what follows on the terminal starts on a line of its own.
        bar.finish_and_clear();
        eprintln!("{line}");
    }
}

/// The progress line of `vcov verify`: the engines' counters (`verify::Progress`), cleared when the
/// verdict is printed.
pub(crate) struct VerifyProgressLine {
    bar: Option<ProgressBar>,
    counters: Arc<Progress>,
}

impl VerifyProgressLine {
    /// Starts drawing (when `enabled` and standard error is a terminal) the progress of `engines`.
    pub(crate) fn start(enabled: bool, engines: Engines) -> VerifyProgressLine {
        let counters = Arc::new(Progress::default());
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let c = Arc::clone(&counters);
            let style = ProgressStyle::with_template("{spinner} {elapsed_precise} {verify}")
                .expect("valid progress template")
                .with_key("verify", move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&verify_status_text(&c, engines, state.elapsed()));
                });
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style);
            bar.enable_steady_tick(TICK);
            bar
        });
        VerifyProgressLine { bar, counters }
    }

    /// The counters the engines update.
    pub(crate) fn counters(&self) -> &Arc<Progress> {
        &self.counters
    }

    /// Removes the line (the verdict follows on standard output).
    pub(crate) fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `explicit search: 20411 paths (1700/s) | k-induction: k = 12`: what each engine of `engines` is
/// at.
fn verify_status_text(c: &Progress, engines: Engines, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = |n: u64| if secs > 0.0 { n as f64 / secs } else { 0.0 };
    let paths = c.paths.load(Ordering::Relaxed);
    let explicit = format!("explicit search: {paths} paths ({:.0}/s)", rate(paths));
    let bfs = c.bfs_paths.load(Ordering::Relaxed);
    let kind = match c.kind_phase.load(Ordering::Relaxed) {
        0 => "k-induction: starting".to_string(),
        1 => "k-induction: proving invariants".to_string(),
        2 => format!("k-induction: k = {}", c.k.load(Ordering::Relaxed)),
        _ if bfs > 0 => format!("breadth-first: {bfs} paths"),
        _ => "k-induction: done".to_string(),
    };
    let random = match c.random_runs.load(Ordering::Relaxed) {
        0 => String::new(),
        n => format!(" | random: {n} runs"),
    };
    match engines {
        Engines::Explicit => explicit,
        Engines::KInduction => kind,
        Engines::Portfolio => format!("{explicit} | {kind}{random}"),
    }
}

/// `812/1024 lines decided (79.3%), 14 executions, 20411 paths (1700/s)`: short enough for an
/// 80-column terminal.
fn status_text(c: &SearchProgress, over: usize, elapsed: Duration) -> String {
    let decided = c.decided.load(Ordering::Relaxed);
    let executions = c.executions.load(Ordering::Relaxed);
    let paths = c.paths.load(Ordering::Relaxed);
    let pct = if over == 0 { 100.0 } else { 100.0 * decided as f64 / over as f64 };
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { paths as f64 / secs } else { 0.0 };
    format!(
        "{decided}/{over} lines decided ({pct:.1}%), {executions} execution{}, {paths} paths ({rate:.0}/s)",
        if executions == 1 { "" } else { "s" }
    )
}

fn ended(outcome: &SearchOutcome) -> String {
    match outcome.end.stopped_by() {
        Some(by) => format!("stopped by {}", crate::report::words::stopped_by(by)),
        None => "ended".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_line_counts() {
        let c = SearchProgress::default();
        c.decided.store(3, Ordering::Relaxed);
        c.executions.store(1, Ordering::Relaxed);
        c.paths.store(20, Ordering::Relaxed);
        assert_eq!(
            status_text(&c, 4, Duration::from_secs(2)),
            "3/4 lines decided (75.0%), 1 execution, 20 paths (10/s)"
        );
        assert!(status_text(&c, 0, Duration::ZERO).contains("(100.0%)"));
    }

    #[test]
    fn verify_status_line() {
        let c = Progress::default();
        c.paths.store(30, Ordering::Relaxed);
        let at = |e| verify_status_text(&c, e, Duration::from_secs(3));
        assert_eq!(at(Engines::Explicit), "explicit search: 30 paths (10/s)");
        assert_eq!(at(Engines::KInduction), "k-induction: starting");
        c.kind_phase.store(2, Ordering::Relaxed);
        c.k.store(7, Ordering::Relaxed);
        assert_eq!(at(Engines::Portfolio), "explicit search: 30 paths (10/s) | k-induction: k = 7");
        c.kind_phase.store(3, Ordering::Relaxed);
        c.bfs_paths.store(4, Ordering::Relaxed);
        assert_eq!(at(Engines::Portfolio), "explicit search: 30 paths (10/s) | breadth-first: 4 paths");
    }
}
