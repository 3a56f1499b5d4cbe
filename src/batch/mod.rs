//! `vcov batch`: the pure logic of running many coverage or verification tasks, each in a child
//! process — what a task is and which arguments its child gets (here), finding tasks in listings and
//! CSV tables (`discover`), how a child's end becomes a result record and whether a record lets a
//! rerun skip its task (`record`), and the summary tables with the SV-COMP score (`summary`).
//!
//! Invariant: no IO here. `driver::batch` walks directories, reads files, runs and watches the
//! children and writes the records; it hands this module texts, listings and `ChildEnd`s.
//! Invariant: a task stopped by a signal (the batch's or anyone's) yields no record, so a rerun runs
//! it again; every other end (a result, a failure, a limit) yields exactly one record.

pub mod discover;
pub mod record;
pub mod summary;

use std::ffi::OsString;
use std::path::PathBuf;

use crate::cfront::types::DataModel;

/// What the tasks of a batch measure.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// `vcov coverage` of an assumption automaton on a program.
    Coverage,
    /// `vcov verify` of an SV-COMP task.
    Verify,
}

impl Mode {
    /// `coverage` or `verify`, as on the command line and in the records.
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

/// Options a child gets from the batch itself, which `ChildOptions::extra` must not repeat, with
/// what to use instead.
pub const BATCH_OWN_OPTIONS: [(&str, &str); 13] = [
    ("--json", "the batch reads each task's JSON report itself"),
    ("--csv", "the batch writes OUT/results.csv"),
    ("--lcov", "the batch writes no lcov tracefiles"),
    ("--format", "the batch reads each task's JSON report itself"),
    ("--instance", "tasks are named by the batch"),
    ("--html", "give vcov batch --html: each coverage task writes OUT/html/NAME/index.html"),
    ("--evidence", "give vcov batch --evidence: each coverage task writes OUT/evidence/NAME"),
    ("--witness", "a batch writes no witnesses"),
    ("--timelimit", "give vcov batch --timelimit"),
    ("--memory-limit", "give vcov batch --memory-limit"),
    ("--no-progress", "children never draw progress"),
    ("--aa", "each task has its own automaton"),
    ("--task", "each task has its own task definition"),
];

/// Checks that `extra` holds no option the batch gives its children itself; the message says what
/// to do instead.
pub fn check_extra_options(extra: &[String]) -> Result<(), String> {
    for word in extra {
        let name = word.split('=').next().unwrap_or(word);
        if let Some((flag, instead)) = BATCH_OWN_OPTIONS.iter().find(|(f, _)| *f == name) {
            return Err(format!("{flag} cannot be passed to the tasks of vcov batch: {instead}"));
        }
    }
    Ok(())
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
    /// The arguments of the child `vcov` (after the executable).
    pub fn child_args(&self, limits: &Limits, opts: &ChildOptions) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        match &self.inputs {
            Inputs::Coverage { program, automaton } => {
                args.extend(["coverage".into(), program.into(), "--aa".into(), automaton.into()]);
                args.extend(["--json".into(), "-".into(), "--no-progress".into()]);
                args.extend(["--instance".into(), self.name.clone().into()]);
            }
            Inputs::Verify { task_file, program, data_model, .. } => {
                args.push("verify".into());
                if let Some(p) = program {
                    args.push(p.into());
                }
                if let Some(t) = task_file {
                    args.extend(["--task".into(), t.into()]);
                } else if let Some(dm) = data_model {
                    args.push(dm.flag().into());
                }
            }
        }
        if let Some(t) = limits.time_limit {
            args.extend(["--timelimit".into(), t.to_string().into()]);
        }
        args.extend(["--memory-limit".into(), limits.memory_limit_mb.to_string().into()]);
        if let Inputs::Coverage { .. } = self.inputs {
            if let Some(dir) = &opts.evidence {
                args.extend(["--evidence".into(), dir.join(&self.name).into()]);
            }
            if let Some(dir) = &opts.html {
                args.extend(["--html".into(), dir.join(&self.name).into()]);
            }
        }
        args.extend(opts.extra.iter().map(OsString::from));
        args
    }

    /// What a record must have been made with for a rerun to skip the task: the mode, the inputs, the
    /// limits and the options. A record with another key is stale and the task runs again.
    pub fn key(&self, limits: &Limits, opts: &ChildOptions) -> String {
        let args = self.child_args(limits, opts);
        args.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ")
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
    fn child_arguments_carry_the_limits() {
        let t = Task {
            name: "calls".into(),
            inputs: Inputs::Coverage { program: "d/program.c".into(), automaton: "d/aa.txt".into() },
        };
        let limits = Limits { time_limit: Some(2.5), memory_limit_mb: 100 };
        assert_eq!(
            t.key(&limits, &ChildOptions::default()),
            "coverage d/program.c --aa d/aa.txt --json - --no-progress --instance calls --timelimit 2.5 --memory-limit 100"
        );
        assert_eq!(limits.hard_time_limit(), Some(7.75));
        assert_eq!(limits.hard_memory_limit_mb(), 356);
        let v = Task {
            name: "x".into(),
            inputs: Inputs::Verify {
                task_file: None,
                program: Some("x.c".into()),
                data_model: Some(DataModel::Lp64),
                expected: Some(true),
            },
        };
        assert_eq!(v.key(&Limits::default(), &ChildOptions::default()), "verify x.c --64 --memory-limit 6144");
        // Options passed through come last; evidence and HTML folders are per task, for coverage.
        let opts = ChildOptions {
            extra: vec!["--assume".into(), "fresh-pointers".into()],
            evidence: Some("out/evidence".into()),
            html: Some("out/html".into()),
        };
        assert_eq!(
            t.key(&limits, &opts),
            "coverage d/program.c --aa d/aa.txt --json - --no-progress --instance calls --timelimit 2.5 \
             --memory-limit 100 --evidence out/evidence/calls --html out/html/calls --assume fresh-pointers"
        );
        assert_eq!(v.key(&Limits::default(), &opts), "verify x.c --64 --memory-limit 6144 --assume fresh-pointers");
        assert_eq!(check_extra_options(&opts.extra), Ok(()));
        assert!(check_extra_options(&["--json=x".into()]).unwrap_err().starts_with("--json cannot be passed"));
        assert_eq!(Limits::default().hard_time_limit(), None);
    }
}
