//! `vcov batch`: the pure logic of running many coverage or verification tasks, each in a child
//! process — what a task is and which run its child makes (here), finding tasks in listings and
//! CSV tables (`discover`), how a child's end becomes a result record and whether a record lets a
//! rerun skip its task (`record`), and the summary tables with the SV-COMP score (`summary`).
//!
//! Invariant: no IO here. `driver::batch` walks directories, reads files, runs and watches the
//! children and writes the records; it hands this module texts, listings and `ChildEnd`s.
//! Invariant: the child's command line is spelled by `cli` (`cli::child_args`, handed to the driver as
//! a `ChildArgs`), which owns the flags; the batch says what the child runs as a `ChildCommand`.
//! Invariant: a task stopped by a signal (the batch's or anyone's) yields no record, so a rerun runs
//! it again; every other end (a result, a failure, a limit) yields exactly one record.

pub mod discover;
pub mod record;
pub mod summary;
#[cfg(test)]
mod test_util;

use std::ffi::OsString;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::cfront::types::DataModel;

/// What the tasks of a batch measure.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `vcov coverage` of an assumption automaton on a program.
    Coverage,
    /// `vcov verify` of an SV-COMP task.
    Verify,
}

impl Mode {
    /// `coverage` or `verify`, as on the command line and in the records (its serde name).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Coverage => "coverage",
            Mode::Verify => "verify",
        }
    }
}

/// One task: its unique name in the batch (the file name of its record) and its inputs.
#[derive(Clone, PartialEq, Debug)]
pub struct Task {
    /// Unique in the batch; only `[A-Za-z0-9._+-]`.
    pub name: String,
    /// What the child is given.
    pub inputs: Inputs,
}

/// The inputs of a task.
#[derive(Clone, PartialEq, Debug)]
pub enum Inputs {
    /// A program and an assumption automaton.
    Coverage {
        /// The C program.
        program: PathBuf,
        /// The assumption automaton.
        automaton: PathBuf,
    },
    /// An SV-COMP task definition, or a program with a data model.
    Verify {
        /// The task definition (`.yml`), if there is one (it names the program and the property).
        task_file: Option<PathBuf>,
        /// The program, when there is no task definition.
        program: Option<PathBuf>,
        /// The data model, when there is no task definition (the task's wins).
        data_model: Option<DataModel>,
        /// The expected verdict of `unreach-call` (true: no call is reachable), when known.
        expected: Option<bool>,
    },
}

/// The limits every child runs with.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Limits {
    /// Seconds, passed as `--timelimit` [default: none]; the child is killed at `hard_time_limit`.
    pub time_limit: Option<f64>,
    /// MiB, passed as `--memory-limit` [default: 6144, vcov's own]; the child's process group is
    /// killed above `hard_memory_limit_mb`.
    pub memory_limit_mb: u64,
}

/// What every child gets besides its inputs and limits: options passed through (`vcov batch ... --
/// OPTIONS`), and folders under which each coverage task writes its evidence and HTML report.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct ChildOptions {
    /// Options of `vcov coverage` or `vcov verify` every child gets as given (after its own).
    pub extra: Vec<String>,
    /// `--evidence DIR/NAME` for each coverage task.
    pub evidence: Option<PathBuf>,
    /// `--html DIR/NAME` for each coverage task.
    pub html: Option<PathBuf>,
}

/// A child `vcov` run, as the batch means it. `cli` spells it as arguments (a `ChildArgs`), so that
/// the flags have one owner.
#[derive(Clone, PartialEq, Debug)]
pub struct ChildCommand {
    /// The command and its inputs.
    pub run: ChildRun,
    /// Seconds (`--timelimit`), if any.
    pub time_limit: Option<f64>,
    /// MiB (`--memory-limit`).
    pub memory_limit_mb: u64,
    /// Options of the command given as they are, after all others (`vcov batch ... -- OPTIONS`).
    pub extra: Vec<String>,
}

/// The command of a child and its inputs.
#[derive(Clone, PartialEq, Debug)]
pub enum ChildRun {
    /// `vcov coverage`, writing its JSON report on standard output and no progress.
    Coverage {
        /// The C program.
        program: PathBuf,
        /// The assumption automaton.
        automaton: PathBuf,
        /// The instance name of the report (the task's name).
        instance: String,
        /// The folder of the evidence, if it is written.
        evidence: Option<PathBuf>,
        /// The folder of the HTML report, if it is written.
        html: Option<PathBuf>,
    },
    /// `vcov verify`.
    Verify {
        /// The C program, when there is no task definition (or besides it).
        program: Option<PathBuf>,
        /// The task definition.
        task_file: Option<PathBuf>,
        /// The data model, when there is no task definition.
        data_model: Option<DataModel>,
    },
}

/// How a `ChildCommand` is spelled as the arguments of `vcov` (after the executable): `cli::child_args`.
pub type ChildArgs = fn(&ChildCommand) -> Vec<OsString>;

/// What a record must have been made with for a rerun to skip its task: the child's arguments (the
/// mode, the inputs, the limits and the options), joined by spaces. A record with another key is
/// stale and the task runs again.
pub fn key(child_args: &[OsString]) -> String {
    child_args.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ")
}

/// vcov's default `--memory-limit`.
pub const DEFAULT_MEMORY_LIMIT_MB: u64 = 6144;

impl Default for Limits {
    fn default() -> Self {
        Limits { time_limit: None, memory_limit_mb: DEFAULT_MEMORY_LIMIT_MB }
    }
}

impl Limits {
    /// When the child is killed: the time limit plus a grace for parsing before the search starts and
    /// for writing the report after it stops (5 s + 10%).
    pub fn hard_time_limit(&self) -> Option<f64> {
        self.time_limit.map(|t| t + 5.0 + t / 10.0)
    }

    /// Resident memory (MiB, the child's whole process group) above which the child is killed: the
    /// limit plus a quarter (at least 256 MiB), because vcov checks its own limit between steps and
    /// may overshoot a little before it stops by itself.
    pub fn hard_memory_limit_mb(&self) -> u64 {
        self.memory_limit_mb + (self.memory_limit_mb / 4).max(256)
    }
}

impl Task {
    /// The child run of the task: its inputs, `limits` and `opts` (a verification task's own task
    /// definition wins over its data model).
    pub fn child_command(&self, limits: &Limits, opts: &ChildOptions) -> ChildCommand {
        let run = match &self.inputs {
            Inputs::Coverage { program, automaton } => ChildRun::Coverage {
                program: program.clone(),
                automaton: automaton.clone(),
                instance: self.name.clone(),
                evidence: opts.evidence.as_ref().map(|dir| dir.join(&self.name)),
                html: opts.html.as_ref().map(|dir| dir.join(&self.name)),
            },
            Inputs::Verify { task_file, program, data_model, .. } => ChildRun::Verify {
                program: program.clone(),
                task_file: task_file.clone(),
                data_model: if task_file.is_some() { None } else { *data_model },
            },
        };
        ChildCommand {
            run,
            time_limit: limits.time_limit,
            memory_limit_mb: limits.memory_limit_mb,
            extra: opts.extra.clone(),
        }
    }

    /// The mode of the task.
    pub fn mode(&self) -> Mode {
        match self.inputs {
            Inputs::Coverage { .. } => Mode::Coverage,
            Inputs::Verify { .. } => Mode::Verify,
        }
    }

    /// The expected verdict, for a verification task that knows it.
    pub fn expected(&self) -> Option<bool> {
        match self.inputs {
            Inputs::Verify { expected, .. } => expected,
            Inputs::Coverage { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_commands_carry_the_limits_and_the_options() {
        let t = Task {
            name: "calls".into(),
            inputs: Inputs::Coverage { program: "d/program.c".into(), automaton: "d/aa.txt".into() },
        };
        let limits = Limits { time_limit: Some(2.5), memory_limit_mb: 100 };
        assert_eq!(limits.hard_time_limit(), Some(7.75));
        assert_eq!(limits.hard_memory_limit_mb(), 356);
        assert_eq!(Limits::default().hard_time_limit(), None);
        // Evidence and HTML folders are per task, for coverage.
        let opts = ChildOptions {
            extra: vec!["--assume".into(), "fresh-pointers".into()],
            evidence: Some("out/evidence".into()),
            html: Some("out/html".into()),
        };
        assert_eq!(
            t.child_command(&limits, &opts),
            ChildCommand {
                run: ChildRun::Coverage {
                    program: "d/program.c".into(),
                    automaton: "d/aa.txt".into(),
                    instance: "calls".into(),
                    evidence: Some("out/evidence/calls".into()),
                    html: Some("out/html/calls".into()),
                },
                time_limit: Some(2.5),
                memory_limit_mb: 100,
                extra: opts.extra.clone(),
            }
        );
        // A task definition's data model wins over the batch's.
        let verify = |task_file: Option<&str>| Task {
            name: "x".into(),
            inputs: Inputs::Verify {
                task_file: task_file.map(PathBuf::from),
                program: Some("x.c".into()),
                data_model: Some(DataModel::Lp64),
                expected: Some(true),
            },
        };
        let run = |t: Task| t.child_command(&Limits::default(), &opts).run;
        let with_task = run(verify(Some("x.yml")));
        assert_eq!(
            with_task,
            ChildRun::Verify { program: Some("x.c".into()), task_file: Some("x.yml".into()), data_model: None }
        );
        let ChildRun::Verify { data_model, .. } = run(verify(None)) else { panic!("verify") };
        assert_eq!(data_model, Some(DataModel::Lp64));
    }
}
