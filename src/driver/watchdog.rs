//! The limits of a whole run (`--timelimit`, `--memory-limit`), outside the search too.
//!
//! The search stops itself at the deadline and at the memory limit (`symex::Budget`), and its report
//! is still written. Reading the inputs and composing the product cannot stop halfway with anything
//! to report, and a report that takes long to write would stretch the run past its limit. The
//! watchdog is a thread that looks at the clock and at the resident memory every few milliseconds,
//! knows which phase the run is in (`enter`) and ends the process when a limit is passed where no
//! report can come any more:
//! - time: `--timelimit` is CPU time (the process's threads and the children it waited for, as
//!   BenchExec counts it), with the wall clock as a guard (the same limit, from the start). The
//!   watchdog is the one reader of the CPU clock: `RESERVE` before the limit it marks the time
//!   spent (`base::clock::spend`), and every part of the run that has a deadline stops as if it had
//!   passed (`base::clock::past`). Then, in every phase, a second of CPU (`GRACE`) ends the run.
//!   Reading and composing go on past the limit, because once the product exists there is a report
//!   to write (the over-approximation; every phase after composing stops by itself at the limit): a
//!   run whose limit passes while it reads or composes still reports if it gets there within the
//!   grace;
//! - memory, reading or composing: above the memory limit;
//! - memory, searching or reporting: above the memory limit by a quarter (at least 64 MiB) -- below
//!   that the search stops by itself (it also sees `memory_flag`, set as soon as the limit is
//!   passed) and writing the report may need a little more.
//!
//! Ending the process removes every staged output file first (`output::discard_staged`), so a run
//! cut short leaves none; `output::Staged::commit` holds the same lock and marks the run `Done`
//! once the files are in place, after which nothing is cut.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where a run is; the watchdog's rules depend on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Phase {
    /// Reading and parsing the inputs, building the CFA.
    Reading = 0,
    /// Composing the program with the automaton (the over-approximation).
    Composing = 1,
    /// The search (and the replays that check what it found): it stops by itself at a limit.
    Searching = 2,
    /// Building and writing the reports.
    Reporting = 3,
    /// The outputs are in place: nothing is cut any more.
    Done = 4,
}

impl Limit {
    /// The limit's name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Time => "time limit",
            Limit::Memory => "memory limit",
        }
    }
}

impl Phase {
    fn from_u8(v: u8) -> Phase {
        match v {
            0 => Phase::Reading,
            1 => Phase::Composing,
            2 => Phase::Searching,
            3 => Phase::Reporting,
            _ => Phase::Done,
        }
    }

    /// What the run was doing, for messages.
    pub fn doing(self) -> &'static str {
        match self {
            Phase::Reading => "reading the inputs",
            Phase::Composing => "composing the program with the automaton",
            Phase::Searching => "searching",
            Phase::Reporting => "finishing the report",
            Phase::Done => "finishing",
        }
    }
}

/// The phase of this process's run (one command per process).
static PHASE: AtomicU8 = AtomicU8::new(Phase::Reading as u8);

/// Set when the resident memory passed the limit; the search's budget stops on it.
static MEMORY_FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Records that the run entered `phase` (`Done` is final).
pub fn enter(phase: Phase) {
    let _ = PHASE.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |p| (p != Phase::Done as u8).then_some(phase as u8));
}

/// Marks the run `Done` once no limit can cut it short in the middle of what it prints next (the
/// watchdog holds the same lock while it ends a run).
pub fn finish() {
    let _staged = super::output::lock_staged();
    enter(Phase::Done);
}

/// The phase the run is in.
pub fn phase() -> Phase {
    Phase::from_u8(PHASE.load(Ordering::SeqCst))
}

/// The flag the watchdog sets once the memory limit is passed (for `symex::Budget::memory_flag`).
pub fn memory_flag() -> Arc<AtomicBool> {
    Arc::clone(MEMORY_FLAG.get_or_init(|| Arc::new(AtomicBool::new(false))))
}

/// Which limit ended a run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Limit {
    /// `--timelimit`.
    Time,
    /// `--memory-limit`.
    Memory,
}

/// What the watchdog enforces.
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    /// The end of `--timelimit` by the clock, counted from the start of the run (`driver::deadline`).
    pub deadline: Option<Instant>,
    /// `--timelimit` as CPU time, counted from the start of the run (`driver::run_cpu_seconds`).
    pub cpu: Option<Duration>,
    /// `--memory-limit`, in bytes.
    pub memory_bytes: u64,
}

impl RunLimits {
    /// The limits of this process's run: `--timelimit` (none: no deadline) counted from its start
    /// (`driver::deadline`), and `--memory-limit` in MiB (none: `symex::DEFAULT_MEMORY_MB`).
    pub fn of_run(time_limit: Option<Duration>, memory_mb: Option<u64>) -> RunLimits {
        RunLimits {
            deadline: super::deadline(time_limit),
            cpu: time_limit,
            memory_bytes: memory_mb.unwrap_or(crate::symex::DEFAULT_MEMORY_MB) << 20,
        }
    }
}

/// How long before its CPU time limit a run is told to stop: the time its engines take to see it
/// and the report takes to be written (a tenth of the limit for limits under 5 s).
pub const RESERVE: Duration = Duration::from_millis(500);

/// The CPU time of `limit` after which the run is told to stop (`RESERVE`).
pub fn stop_at(limit: Duration) -> Duration {
    limit.saturating_sub(RESERVE.min(limit / 10))
}

/// How much CPU time a run may use once told to stop, to reach its report: with `RESERVE`, a run
/// ends at most half a second of CPU after its limit. The CPU of every thread counts (a second
/// engine of a portfolio stopping beside the report uses it too), and not the clock, so that a
/// run starved by other processes is not thrown away just before its end.
pub const GRACE: Duration = Duration::from_secs(1);

/// How long a run may go on past the deadline by the clock, whatever it uses: a run that is stuck
/// (waiting, or starved) still ends.
pub const WALL_GRACE: Duration = Duration::from_secs(10);

/// How often the watchdog looks.
const TICK: Duration = Duration::from_millis(10);

/// How far a run is past the moment it was told to stop (its CPU time spent, or its deadline by the
/// clock passed): by the clock, and in CPU time used since.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Late {
    /// Wall-clock time since then.
    pub wall: Duration,
    /// CPU time the run used since then.
    pub cpu: Duration,
}

/// The rule: which limit, if any, ends the run now, in `phase`, `late` by that much (`None`: not
/// told to stop, or no time limit), with `resident` bytes in use.
pub fn verdict(phase: Phase, late: Option<Late>, resident: u64, memory_bytes: u64) -> Option<Limit> {
    let out_of_grace = late.is_some_and(|l| l.cpu >= GRACE || l.wall >= WALL_GRACE);
    let ceiling = memory_bytes.saturating_add((memory_bytes / 4).max(64 << 20));
    match phase {
        Phase::Done => None,
        _ if out_of_grace => Some(Limit::Time),
        Phase::Reading | Phase::Composing if resident > memory_bytes => Some(Limit::Memory),
        Phase::Searching | Phase::Reporting if resident > ceiling => Some(Limit::Memory),
        _ => None,
    }
}

/// What a command prints when a limit ends it, and its exit code.
pub type GiveUp = Box<dyn Fn(Limit, Phase) -> i32 + Send>;

/// The running watchdog; dropping it stops the thread (the run then ends normally).
pub struct Watchdog {
    quit: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Starts watching. When a limit ends the run, `give_up(limit, phase)` prints what the command
    /// prints then and returns the exit code; staged outputs are removed before it runs.
    pub fn start(limits: RunLimits, give_up: GiveUp) -> Watchdog {
        PHASE.store(Phase::Reading as u8, Ordering::SeqCst);
        crate::base::clock::spend(false);
        let quit = Arc::new(AtomicBool::new(false));
        let flag = memory_flag();
        let q = Arc::clone(&quit);
        let thread = std::thread::Builder::new()
            .name("vcov-watchdog".into())
            .spawn(move || {
                // When the run was told to stop (the first look after): by the clock, and its CPU.
                let mut stopped: Option<(Instant, f64)> = None;
                while !q.load(Ordering::Relaxed) {
                    let resident = crate::symex::resident_bytes().unwrap_or(0);
                    if resident > limits.memory_bytes {
                        flag.store(true, Ordering::Relaxed);
                    }
                    let late = limits.cpu.map(|limit| {
                        let cpu = super::run_cpu_seconds();
                        if stopped.is_none() {
                            let spent = cpu >= stop_at(limit).as_secs_f64();
                            if spent || limits.deadline.is_some_and(|d| Instant::now() >= d) {
                                crate::base::clock::spend(spent);
                                stopped = Some((Instant::now(), cpu));
                            }
                        }
                        stopped.map(|(at, cpu_then)| Late {
                            wall: at.elapsed(),
                            cpu: Duration::from_secs_f64((cpu - cpu_then).max(0.0)),
                        })
                    });
                    if let Some(limit) = verdict(phase(), late.flatten(), resident, limits.memory_bytes) {
                        end_run(limit, &give_up);
                    }
                    // Parked, not asleep: dropping the watchdog wakes it, so that a short run does
                    // not wait out a tick before it exits.
                    std::thread::park_timeout(TICK);
                }
            })
            .ok();
        Watchdog { quit, thread }
    }
}

/// The watchdog of a run that writes a report (`vcov coverage`, `vcov compare`) over `--timelimit`
/// and `--memory-limit`: a run they end before it has its report says so on standard error and
/// exits with `LimitReached`, leaving no output file.
pub fn for_report(time_limit: Option<Duration>, memory_mb: Option<u64>) -> Watchdog {
    let limits = RunLimits::of_run(time_limit, memory_mb);
    let memory_mb = limits.memory_bytes >> 20;
    let seconds = time_limit.map(|t| t.as_secs_f64()).unwrap_or_default();
    Watchdog::start(
        limits,
        Box::new(move |limit, phase| {
            let what = match limit {
                Limit::Time => format!("{seconds} s passed"),
                Limit::Memory => format!("more than {memory_mb} MiB in use"),
            };
            eprintln!("vcov: {}: {what} while {}; nothing written", limit.name(), phase.doing());
            crate::base::ExitStatus::LimitReached as i32
        }),
    )
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.quit.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// Ends the process for `limit`, unless the outputs were committed meanwhile.
fn end_run(limit: Limit, give_up: &GiveUp) {
    let staged = super::output::lock_staged();
    let phase = phase();
    if phase == Phase::Done {
        return;
    }
    super::output::discard_staged(staged);
    let code = give_up(limit, phase);
    std::process::exit(code);
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn reading_and_composing_stop_above_the_memory_limit_itself() {
        for p in [Phase::Reading, Phase::Composing] {
            assert_eq!(verdict(p, None, 10 * MIB, 100 * MIB), None);
            assert_eq!(verdict(p, None, 100 * MIB, 100 * MIB), None);
            assert_eq!(verdict(p, None, 101 * MIB, 100 * MIB), Some(Limit::Memory));
        }
    }

    #[test]
    fn every_phase_gets_a_second_of_cpu_past_the_stop_to_reach_its_report() {
        let ms = Duration::from_millis;
        let late = |wall: u64, cpu: u64| Some(Late { wall: ms(wall), cpu: ms(cpu) });
        for p in [Phase::Reading, Phase::Composing, Phase::Searching, Phase::Reporting] {
            assert_eq!(verdict(p, late(0, 0), 10 * MIB, 100 * MIB), None);
            assert_eq!(verdict(p, late(999, 999), 10 * MIB, 100 * MIB), None);
            assert_eq!(verdict(p, late(1000, 1000), 10 * MIB, 100 * MIB), Some(Limit::Time));
            // Two threads use a second of CPU in half a second.
            assert_eq!(verdict(p, late(500, 1000), 10 * MIB, 100 * MIB), Some(Limit::Time));
            // Starved by other processes: a second of CPU, not of the clock, up to ten seconds.
            assert_eq!(verdict(p, late(5000, 400), 10 * MIB, 100 * MIB), None);
            assert_eq!(verdict(p, late(10_000, 400), 10 * MIB, 100 * MIB), Some(Limit::Time));
        }
        assert_eq!(verdict(Phase::Done, late(60_000, 60_000), 10 * MIB, 100 * MIB), None);
    }

    #[test]
    fn a_run_is_told_to_stop_half_a_second_of_cpu_before_its_limit() {
        assert_eq!(stop_at(Duration::from_secs(30)), Duration::from_millis(29_500));
        assert_eq!(stop_at(Duration::from_secs(2)), Duration::from_millis(1_800));
        assert_eq!(stop_at(Duration::ZERO), Duration::ZERO);
        // Told to stop, then the grace: at most half a second of CPU past the limit.
        let limit = Duration::from_secs(30);
        assert!(stop_at(limit) + GRACE <= limit + Duration::from_millis(500));
    }

    #[test]
    fn the_search_and_the_report_get_a_quarter_more_memory() {
        for p in [Phase::Searching, Phase::Reporting] {
            assert_eq!(verdict(p, None, 164 * MIB, 100 * MIB), None);
            assert_eq!(verdict(p, None, 165 * MIB, 100 * MIB), Some(Limit::Memory));
            assert_eq!(verdict(p, None, 1000 * MIB, 800 * MIB), None);
            assert_eq!(verdict(p, None, 1001 * MIB, 800 * MIB), Some(Limit::Memory));
        }
        assert_eq!(verdict(Phase::Done, None, u64::MAX, MIB), None);
    }
}
