//! `vcov batch`: finds the tasks on disk, runs each in a child `vcov` process under a time and memory
//! watch, writes one record per finished task and the results table, and stops cleanly on SIGINT or
//! SIGTERM.
//!
//! Why child processes: a task that panics, aborts, overflows its stack, loops past its time limit or
//! exhausts memory takes only its own process with it; the batch sees an exit status, records the
//! task as failed with the reason, and goes on. Threads would share one address space, one allocator
//! and one abort. A child is also the only thing that can be killed for sure at a hard limit.
//!
//! Invariant: every child runs in a process group of its own (so the batch alone decides when a child
//! is signalled, and a kill reaches the child's own children); the batch kills every group it started
//! before it returns.
//! Invariant: a record (`DIR/tasks/NAME.json`) and `DIR/results.csv` are only ever replaced whole
//! (`write_atomically`); a batch stopped at any moment leaves finished records and a table of them.
//! Invariant: standard error is never locked across the run; the progress bar draws from its own
//! thread and messages go through `ProgressBar::suspend`.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::write_atomically;
use crate::base::signal_name;
use crate::batch::discover::{self, Found};
use crate::batch::record::{self, ChildEnd, Exit, Kill, Resume, Status, TaskRecord};
use crate::batch::{summary, ChildArgs, ChildOptions, Limits, Mode, Task};
use crate::verify::VerdictKind;

/// How long children get to write their partial report after the batch forwarded a signal, before
/// they are killed.
const STOP_GRACE: Duration = Duration::from_secs(10);
/// How often the memory of a running child's process group is measured.
const MEMORY_POLL: Duration = Duration::from_millis(200);

/// The configuration of `vcov batch`.
#[derive(Clone, Debug)]
pub struct BatchConfig {
    /// Folders to walk, CSV tables, task definitions.
    pub inputs: Vec<PathBuf>,
    /// The output folder (`tasks/`, `logs/`, `results.csv`, `summary.txt`).
    pub out: PathBuf,
    /// Coverage or verify [default: coverage].
    pub mode: Mode,
    /// Children at a time, at least 1 [default: the number of cores].
    pub jobs: usize,
    /// Every child's limits.
    pub limits: Limits,
    /// Run finished tasks again.
    pub force: bool,
    /// The `vcov` the children run [default: this executable]; for testing.
    pub vcov_exe: Option<PathBuf>,
    /// Draw the progress bar (on standard error, when it is a terminal).
    pub progress: bool,
    /// Also write the summary as an HTML page with a quantile plot (`OUT/summary.html`), and have
    /// each coverage task write its HTML report (`OUT/html/NAME/`).
    pub html: bool,
    /// Have each coverage task write its evidence (`OUT/evidence/NAME/`).
    pub evidence: bool,
    /// Options of `vcov coverage` or `vcov verify` every child gets (`vcov batch ... -- OPTIONS`).
    pub extra: Vec<String>,
    /// How a child's command is spelled as arguments: `cli::child_args`, the owner of the flags.
    pub child_args: ChildArgs,
}

/// What a batch did.
pub struct BatchOutcome {
    /// The summary of every finished task of the batch (this run's and earlier runs').
    pub summary: String,
    /// The signal (SIGINT, SIGTERM) that stopped the batch, if one did.
    pub signal: Option<i32>,
}

/// Runs a batch.
pub fn batch(config: &BatchConfig) -> Result<BatchOutcome> {
    let exe = child_exe(config)?;
    let tasks = find_tasks(config)?;
    if tasks.is_empty() {
        bail!("no tasks found in {}", inputs_named(config));
    }
    let folders = Folders::create(config)?;
    let children: Vec<Child> = tasks
        .iter()
        .map(|task| {
            let args = (config.child_args)(&task.child_command(&config.limits, &folders.opts));
            Child { key: crate::batch::key(&args), args }
        })
        .collect();
    let (records, to_run) = earlier_records(config, &tasks, &children, &folders.tasks)?;
    let stop = Stop::install()?;
    let mut run = Recorder {
        config,
        tasks: &tasks,
        children: &children,
        folders: &folders,
        records,
        tally: Tally::default(),
        write_error: None,
    };
    run.run(&exe, to_run, &stop)?;
    let finished: Vec<&TaskRecord> = run.records.iter().flatten().collect();
    let signal = stop.signal();
    let summary = write_summary(config, &finished, tasks.len(), signal)?;
    if run.tally.unstarted > 0 && signal.is_none() {
        bail!("{} task(s) could not be started", run.tally.unstarted);
    }
    Ok(BatchOutcome { summary, signal })
}

/// The `vcov` the children run: `--vcov-exe`, or this executable.
fn child_exe(config: &BatchConfig) -> Result<PathBuf> {
    let exe = match &config.vcov_exe {
        Some(p) => p.clone(),
        None => std::env::current_exe().context("cannot find the vcov executable")?,
    };
    if !exe.is_file() {
        bail!("{}: not an executable file", exe.display());
    }
    Ok(exe)
}

fn inputs_named(config: &BatchConfig) -> String {
    config.inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// The folders of the output (created), and what every child gets besides its inputs.
struct Folders {
    /// `OUT/tasks`, the records.
    tasks: PathBuf,
    /// `OUT/logs`, the children's standard output and error.
    logs: PathBuf,
    /// `OUT/results.csv`.
    results_csv: PathBuf,
    /// The options passed through, and the evidence and HTML folders of coverage tasks.
    opts: ChildOptions,
}

impl Folders {
    fn create(config: &BatchConfig) -> Result<Folders> {
        let coverage = config.mode == Mode::Coverage;
        let res = Folders {
            tasks: config.out.join("tasks"),
            logs: config.out.join("logs"),
            results_csv: config.out.join("results.csv"),
            opts: ChildOptions {
                extra: config.extra.clone(),
                evidence: (config.evidence && coverage).then(|| config.out.join("evidence")),
                html: (config.html && coverage).then(|| config.out.join("html")),
            },
        };
        let opts = &res.opts;
        for d in [Some(&config.out), Some(&res.tasks), Some(&res.logs), opts.evidence.as_ref(), opts.html.as_ref()]
            .into_iter()
            .flatten()
        {
            std::fs::create_dir_all(d).with_context(|| format!("{}: cannot create the directory", d.display()))?;
        }
        Ok(res)
    }
}

/// A task's child: its arguments and their key (`batch::key`).
struct Child {
    args: Vec<OsString>,
    key: String,
}

/// What an earlier run finished (each task's record, if it is kept) and the tasks to run, in order.
fn earlier_records(
    config: &BatchConfig,
    tasks: &[Task],
    children: &[Child],
    tasks_dir: &Path,
) -> Result<(Vec<Option<TaskRecord>>, VecDeque<usize>)> {
    let mut records: Vec<Option<TaskRecord>> = vec![None; tasks.len()];
    let mut to_run = VecDeque::new();
    let (mut n_skipped, mut n_stale) = (0, 0);
    for (i, task) in tasks.iter().enumerate() {
        let path = record_path(tasks_dir, task);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("{}: cannot read the record", path.display())),
        };
        match record::resume(task, &children[i].key, text.as_deref(), config.force) {
            Resume::Skip(rec) => {
                records[i] = Some(*rec);
                n_skipped += 1;
            }
            Resume::Stale => {
                n_stale += 1;
                to_run.push_back(i);
            }
            Resume::Run => to_run.push_back(i),
        }
    }
    if n_skipped > 0 {
        eprintln!("skipped {n_skipped} finished task(s) of {} (--force runs them again)", tasks.len());
    }
    if n_stale > 0 {
        eprintln!("{n_stale} task(s) run again: their record was made with other inputs or limits");
    }
    Ok((records, to_run))
}

/// How the tasks of this run ended.
#[derive(Default)]
struct Tally {
    done: usize,
    failed: usize,
    unfinished: usize,
    unstarted: usize,
}

/// The batch as it runs: the children's ends become records, written as they come.
struct Recorder<'a> {
    config: &'a BatchConfig,
    tasks: &'a [Task],
    children: &'a [Child],
    folders: &'a Folders,
    /// Each task's record, once it has one (this run's or an earlier run's).
    records: Vec<Option<TaskRecord>>,
    tally: Tally,
    /// The first record or table that could not be written.
    write_error: Option<anyhow::Error>,
}

impl Recorder<'_> {
    /// Runs the tasks `to_run`, `config.jobs` children at a time, until they are done or `stop`
    /// counts a signal; the main thread writes every record as its task ends, so a batch stopped at
    /// any moment keeps what is finished.
    fn run(&mut self, exe: &Path, to_run: VecDeque<usize>, stop: &Stop) -> Result<()> {
        let n_run = to_run.len();
        let bar = progress_bar(self.config.progress, n_run as u64);
        let queue = Mutex::new(to_run);
        let (tx, rx) = mpsc::channel::<(usize, Result<ChildEnd>)>();
        std::thread::scope(|scope| {
            for _ in 0..self.config.jobs.max(1).min(n_run.max(1)) {
                let tx = tx.clone();
                let (queue, tasks, children) = (&queue, self.tasks, self.children);
                let (limits, logs_dir) = (&self.config.limits, &self.folders.logs);
                scope.spawn(move || loop {
                    if stop.count() > 0 {
                        break;
                    }
                    let Some(i) = queue.lock().expect("queue lock").pop_front() else { break };
                    let end = run_child(exe, &tasks[i], &children[i].args, limits, logs_dir, stop);
                    if tx.send((i, end)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            for (i, end) in rx {
                self.take(i, end, &bar);
                let t = &self.tally;
                let remaining = n_run - t.done - t.failed - t.unfinished - t.unstarted;
                bar.set_message(format!("{} done, {} failed, {remaining} remaining", t.done, t.failed));
                if t.done + t.failed == 1 {
                    // Now there is a task's time to estimate the rest from.
                    bar.set_style(progress_style(true));
                }
                bar.inc(1);
            }
        });
        bar.finish_and_clear();
        self.write_error.take().map_or(Ok(()), Err)
    }

    /// Takes the end of task `i`'s child: its record, written with the table of every finished task.
    fn take(&mut self, i: usize, end: Result<ChildEnd>, bar: &ProgressBar) {
        let task = &self.tasks[i];
        let end = match end {
            Ok(end) => end,
            Err(e) => {
                self.tally.unstarted += 1;
                bar.suspend(|| eprintln!("{}: cannot run: {e:#}", task.name));
                return;
            }
        };
        let Some(rec) = record::classify(task, &self.children[i].key, &self.config.limits, &end) else {
            self.tally.unfinished += 1;
            return;
        };
        if rec.status == Status::Failed {
            self.tally.failed += 1;
            let why = rec.reason.as_deref().unwrap_or("");
            bar.suspend(|| eprintln!("{}: failed: {why}", task.name));
        } else {
            self.tally.done += 1;
        }
        let json = serde_json::to_string_pretty(&rec.to_json()).expect("JSON") + "\n";
        let path = record_path(&self.folders.tasks, task);
        if let Err(e) = write_atomically(&path, json.as_bytes()) {
            self.write_error
                .get_or_insert(anyhow::Error::new(e).context(format!("{}: cannot write the record", path.display())));
        }
        self.records[i] = Some(rec);
        let finished: Vec<&TaskRecord> = self.records.iter().flatten().collect();
        let results_csv = &self.folders.results_csv;
        if let Err(e) = write_atomically(results_csv, &record::results_csv(self.config.mode, &finished)) {
            self.write_error.get_or_insert(
                anyhow::Error::new(e).context(format!("{}: cannot write the table", results_csv.display())),
            );
        }
    }
}

/// Writes the table, the summary and (with `--html`) its page, of the `finished` tasks of a batch of
/// `n_tasks`, stopped by `signal` if one did; returns the summary.
fn write_summary(
    config: &BatchConfig,
    finished: &[&TaskRecord],
    n_tasks: usize,
    signal: Option<i32>,
) -> Result<String> {
    // The table is rewritten even when nothing ran, so it always lists the finished tasks.
    let results_csv = config.out.join("results.csv");
    write_atomically(&results_csv, &record::results_csv(config.mode, finished))
        .with_context(|| format!("{}: cannot write the table", results_csv.display()))?;
    let mut text = summary::summary(config.mode, finished, n_tasks);
    if let Some(sig) = signal {
        text.push_str(&format!(
            "stopped by {}: {} task(s) not finished; run the same command again to finish them\n",
            signal_name(sig).map_or_else(|| format!("signal {sig}"), str::to_string),
            n_tasks - finished.len()
        ));
    }
    let summary_txt = config.out.join("summary.txt");
    write_atomically(&summary_txt, text.as_bytes())
        .with_context(|| format!("{}: cannot write the summary", summary_txt.display()))?;
    if config.html {
        let page = config.out.join("summary.html");
        let views: Vec<_> = finished.iter().map(|r| task_view(r, &config.out)).collect();
        let html = crate::report::batch_html(&inputs_named(config), &text, config.mode == Mode::Verify, &views);
        write_atomically(&page, html.as_bytes())
            .with_context(|| format!("{}: cannot write the HTML summary", page.display()))?;
    }
    Ok(text)
}

/// A finished task as a row of the HTML summary (in `out`), with links to its files that exist.
fn task_view(r: &TaskRecord, out: &Path) -> crate::report::BatchTaskView {
    let links = [
        ("HTML report", format!("html/{}/index.html", r.name)),
        ("JSON record", format!("tasks/{}.json", r.name)),
        ("stdout", format!("logs/{}.out", r.name)),
        ("stderr", format!("logs/{}.err", r.name)),
    ]
    .into_iter()
    .filter(|(_, href)| out.join(href).is_file())
    .map(|(what, href)| (what.to_string(), href))
    .collect();
    let failed = r.status == record::Status::Failed;
    let (result, class, solved) = match (&r.coverage, r.answer) {
        (Some(c), _) => (
            format!(
                "{} lines, over {}, under {}, {} execution(s){}{}",
                c.lines,
                c.over,
                c.under,
                c.executions,
                if c.exact { ", exact" } else { "" },
                if c.bug { ", bug" } else { "" }
            ),
            "",
            !failed,
        ),
        (None, Some(a)) => {
            let correctness = r.correctness();
            let class = match correctness {
                Some("wrong") => "wrong",
                _ if a == VerdictKind::Unknown => "unknown",
                _ => "",
            };
            let shown = match correctness {
                Some(c) => format!("{} ({c})", record::answer_name(a)),
                None => record::answer_name(a).to_string(),
            };
            (shown, class, correctness == Some("correct"))
        }
        (None, None) => (String::new(), "", false),
    };
    crate::report::BatchTaskView {
        name: r.name.clone(),
        status: if failed { "failed".into() } else { "done".into() },
        result,
        class: if failed { "failed" } else { class },
        cpu_seconds: r.cpu_seconds,
        wall_seconds: r.wall_seconds,
        reason: r.reason.clone().unwrap_or_default(),
        solved,
        links,
    }
}

fn record_path(tasks_dir: &Path, task: &Task) -> PathBuf {
    tasks_dir.join(format!("{}.json", task.name))
}

fn progress_bar(enabled: bool, len: u64) -> ProgressBar {
    if !(enabled && std::io::stderr().is_terminal()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr()).with_style(progress_style(false));
    bar.set_message(format!("0 done, 0 failed, {len} remaining"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The progress bar's style: with an ETA only once a task of this run has finished (before, there is
/// nothing to estimate it from, and indicatif would say `0s`).
fn progress_style(with_eta: bool) -> ProgressStyle {
    ProgressStyle::with_template(progress_template(with_eta)).expect("valid progress template")
}

fn progress_template(with_eta: bool) -> &'static str {
    if with_eta {
        "{bar:30} {pos}/{len} tasks: {msg}, ETA {eta} ({elapsed})"
    } else {
        "{bar:30} {pos}/{len} tasks: {msg} ({elapsed})"
    }
}

/// The tasks named by the command line's paths, in order, named uniquely.
fn find_tasks(config: &BatchConfig) -> Result<Vec<Task>> {
    let out_dir = std::fs::canonicalize(&config.out).ok();
    let mut found = Vec::new();
    for input in &config.inputs {
        let meta = std::fs::metadata(input).with_context(|| format!("{}: cannot read", input.display()))?;
        let ext = input.extension().and_then(|e| e.to_str()).unwrap_or("");
        if meta.is_dir() {
            walk(input, config.mode, out_dir.as_deref(), 0, &mut found)?;
        } else if ext == "csv" {
            let text = super::read_text(input)?;
            found.extend(discover::tasks_from_csv(input, &text, config.mode).map_err(anyhow::Error::msg)?);
        } else if config.mode == Mode::Verify && (ext == "yml" || ext == "yaml") {
            let text = super::read_text(input)?;
            found.push(discover::verify_task_from_yml(input, &text).map_err(anyhow::Error::msg)?);
        } else if config.mode == Mode::Coverage && input.file_name().is_some_and(|n| n == discover::AUTOMATON_FILE) {
            let dir = input.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let files = super::folder_files(dir)?;
            found.extend(discover::coverage_task_in_dir(dir, &files).map_err(anyhow::Error::msg)?);
        } else {
            bail!(
                "{}: not a folder, a CSV table{}",
                input.display(),
                match config.mode {
                    Mode::Coverage => " or an AssumptionAutomaton.txt",
                    Mode::Verify => " or a task definition (.yml)",
                }
            );
        }
    }
    discover::name_tasks(found).map_err(anyhow::Error::msg)
}

/// Walks `dir` in name order (hidden folders and the output folder aside): CPAchecker output folders
/// for coverage, task definitions for verify.
fn walk(dir: &Path, mode: Mode, out_dir: Option<&Path>, depth: usize, found: &mut Vec<Found>) -> Result<()> {
    if depth > 64 || out_dir.is_some_and(|o| std::fs::canonicalize(dir).is_ok_and(|d| d == o)) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot read the folder", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("{}: cannot read the folder", dir.display()))?;
    entries.sort();
    let files: Vec<String> = entries
        .iter()
        .filter(|p| p.is_file())
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    match mode {
        Mode::Coverage => found.extend(discover::coverage_task_in_dir(dir, &files).map_err(anyhow::Error::msg)?),
        Mode::Verify => {
            for f in files.iter().filter(|f| f.ends_with(".yml") || f.ends_with(".yaml")) {
                let path = dir.join(f);
                let text = super::read_text(&path)?;
                match discover::verify_task_from_yml(&path, &text) {
                    Ok(t) => found.push(t),
                    Err(e) => eprintln!("warning: skipping {}: not a task definition vcov reads: {e}", path.display()),
                }
            }
        }
    }
    for sub in entries.iter().filter(|p| p.is_dir()) {
        if sub.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
            continue;
        }
        walk(sub, mode, out_dir, depth + 1, found)?;
    }
    Ok(())
}

/// The batch's signal state: SIGINT and SIGTERM are counted, not obeyed, so the batch can stop its
/// children and write what is done; the handlers are removed when it is dropped.
struct Stop {
    count: Arc<AtomicUsize>,
    last: Arc<AtomicI32>,
    ids: Vec<signal_hook::SigId>,
}

impl Stop {
    fn install() -> Result<Stop> {
        let count = Arc::new(AtomicUsize::new(0));
        let last = Arc::new(AtomicI32::new(0));
        let mut ids = Vec::new();
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            let (count, last) = (Arc::clone(&count), Arc::clone(&last));
            // SAFETY: the handler only stores to atomics, which is async-signal-safe.
            let id = unsafe {
                signal_hook::low_level::register(sig, move || {
                    last.store(sig, Ordering::SeqCst);
                    count.fetch_add(1, Ordering::SeqCst);
                })
            }
            .context("cannot install a signal handler")?;
            ids.push(id);
        }
        Ok(Stop { count, last, ids })
    }

    fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    fn signal(&self) -> Option<i32> {
        (self.count() > 0).then(|| self.last.load(Ordering::SeqCst))
    }
}

impl Drop for Stop {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// Runs `task`'s child in a process group of its own, with standard output and error in
/// `logs/NAME.out` and `logs/NAME.err`, and watches it: killed (the whole group) past the hard time
/// or memory limit; on the batch's first signal, the same signal is forwarded to the group and the
/// child gets `STOP_GRACE` to write its partial report; a second signal kills it at once.
fn run_child(
    exe: &Path,
    task: &Task,
    args: &[OsString],
    limits: &Limits,
    logs_dir: &Path,
    stop: &Stop,
) -> Result<ChildEnd> {
    let out_path = logs_dir.join(format!("{}.out", task.name));
    let err_path = logs_dir.join(format!("{}.err", task.name));
    let out = std::fs::File::create(&out_path).with_context(|| format!("{}: cannot create", out_path.display()))?;
    let err = std::fs::File::create(&err_path).with_context(|| format!("{}: cannot create", err_path.display()))?;
    let start = Instant::now();
    let child = std::process::Command::new(exe)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .with_context(|| format!("{}: cannot start", exe.display()))?;
    let pid = child.id() as libc::pid_t;
    // The child is reaped with wait4 below (for its resource usage), never through `child`.
    drop(child);
    let hard_time = limits.hard_time_limit().map(Duration::from_secs_f64);
    let hard_memory_kib = limits.hard_memory_limit_mb() * 1024;
    let mut killed_for = None;
    let mut forwarded_at: Option<Instant> = None;
    let mut last_memory_poll = Instant::now();
    let mut nap = Duration::from_millis(2);
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: plain system call on our own child's pid with valid pointers.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break (status, usage);
        }
        if r < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            kill_group(pid, libc::SIGKILL);
            bail!("cannot wait for the child: {e}");
        }
        let elapsed = start.elapsed();
        if killed_for.is_none() {
            if stop.count() >= 2 || forwarded_at.is_some_and(|t| t.elapsed() > STOP_GRACE) {
                killed_for = Some(Kill::Stop);
                kill_group(pid, libc::SIGKILL);
            } else if stop.count() == 1 && forwarded_at.is_none() {
                forwarded_at = Some(Instant::now());
                kill_group(pid, stop.last.load(Ordering::SeqCst));
            } else if hard_time.is_some_and(|h| elapsed > h) {
                killed_for = Some(Kill::TimeLimit { after: elapsed.as_secs_f64() });
                kill_group(pid, libc::SIGKILL);
            } else if last_memory_poll.elapsed() >= MEMORY_POLL {
                last_memory_poll = Instant::now();
                let used = group_rss_kib(pid);
                if used > hard_memory_kib {
                    killed_for = Some(Kill::MemoryLimit { used_mb: used / 1024 });
                    kill_group(pid, libc::SIGKILL);
                }
            }
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(50));
    };
    // Whatever the child left running in its group goes with it.
    kill_group(pid, libc::SIGKILL);
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok(ChildEnd {
        exit,
        killed_for,
        stdout: read_lossy(&out_path),
        stderr: read_lossy(&err_path),
        wall_seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: secs(usage.ru_utime) + secs(usage.ru_stime),
    })
}

fn read_lossy(path: &Path) -> String {
    std::fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
}

fn kill_group(pgid: libc::pid_t, sig: i32) {
    // SAFETY: a plain system call; an empty group (ESRCH) is fine.
    unsafe {
        libc::kill(-pgid, sig);
    }
}

/// The resident memory (KiB) of the processes of the group `pgid`, from `/proc/PID/stat`.
fn group_rss_kib(pgid: libc::pid_t) -> u64 {
    // SAFETY: sysconf has no preconditions.
    let page_kib = (unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).max(4096) as u64 / 1024;
    let Ok(dir) = std::fs::read_dir("/proc") else { return 0 };
    let mut total = 0;
    for e in dir.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // The command name is in parentheses and may hold spaces; the fields after it are numbers:
        // state, ppid, pgrp, ... with rss the 22nd after the name.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2).and_then(|f| f.parse::<i64>().ok()) != Some(i64::from(pgid)) {
            continue;
        }
        total += fields.get(21).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0) * page_kib;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_eta_before_a_task_finished() {
        assert!(!progress_template(false).contains("eta"));
        assert!(progress_template(true).contains("ETA {eta}"));
    }
}
