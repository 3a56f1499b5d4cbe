//! The command line of `vcov batch`'s children: a `batch::ChildCommand` spelled in the flags of
//! `cli::args` (`child_args`, which the driver gets as a `batch::ChildArgs`), and the flags a batch
//! sets itself, which its user may not pass through to the children (`check_extra_options`).
//!
//! Invariant: every flag a child gets is spelled here, next to the clap flags it must parse as; the
//! tests parse the arguments back with clap.

use std::ffi::OsString;

use crate::batch::{ChildCommand, ChildRun};

/// Flags a child gets from the batch itself, which the options passed through must not repeat, with
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

/// The arguments of the child `vcov` (after the executable) that runs `cmd`: the command and its
/// inputs, the limits, the output folders, then the options passed through.
pub fn child_args(cmd: &ChildCommand) -> Vec<OsString> {
    let mut args: Vec<OsString> = Vec::new();
    match &cmd.run {
        ChildRun::Coverage { program, automaton, instance, .. } => {
            args.extend(["coverage".into(), program.into(), "--aa".into(), automaton.into()]);
            args.extend(["--json".into(), "-".into(), "--no-progress".into()]);
            args.extend(["--instance".into(), instance.into()]);
        }
        ChildRun::Verify { program, task_file, data_model } => {
            args.push("verify".into());
            args.extend(program.iter().map(OsString::from));
            if let Some(t) = task_file {
                args.extend(["--task".into(), t.into()]);
            }
            args.extend(data_model.map(|dm| dm.flag().into()));
        }
    }
    if let Some(t) = cmd.time_limit {
        args.extend(["--timelimit".into(), t.to_string().into()]);
    }
    args.extend(["--memory-limit".into(), cmd.memory_limit_mb.to_string().into()]);
    if let ChildRun::Coverage { evidence, html, .. } = &cmd.run {
        if let Some(dir) = evidence {
            args.extend(["--evidence".into(), dir.into()]);
        }
        if let Some(dir) = html {
            args.extend(["--html".into(), dir.into()]);
        }
    }
    args.extend(cmd.extra.iter().map(OsString::from));
    args
}

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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use clap::{CommandFactory, Parser};

    use super::*;
    use crate::cfront::types::DataModel;
    use crate::cli::args::{Cli, Command};

    fn coverage(evidence: Option<&str>, html: Option<&str>, extra: &[&str]) -> ChildCommand {
        ChildCommand {
            run: ChildRun::Coverage {
                program: "d/program.c".into(),
                automaton: "d/aa.txt".into(),
                instance: "calls".into(),
                evidence: evidence.map(PathBuf::from),
                html: html.map(PathBuf::from),
            },
            time_limit: Some(2.5),
            memory_limit_mb: 100,
            extra: extra.iter().map(|w| w.to_string()).collect(),
        }
    }

    fn verify(task_file: Option<&str>, data_model: Option<DataModel>, extra: &[&str]) -> ChildCommand {
        ChildCommand {
            run: ChildRun::Verify { program: Some("x.c".into()), task_file: task_file.map(PathBuf::from), data_model },
            time_limit: None,
            memory_limit_mb: 6144,
            extra: extra.iter().map(|w| w.to_string()).collect(),
        }
    }

    fn parse(cmd: &ChildCommand) -> Command {
        let mut argv: Vec<OsString> = vec!["vcov".into()];
        argv.extend(child_args(cmd));
        Cli::try_parse_from(&argv).unwrap_or_else(|e| panic!("{argv:?}: {e}")).command
    }

    #[test]
    fn child_arguments_are_the_ones_records_were_keyed_with() {
        // The keys of the records of earlier runs: a change here makes every task run again.
        let key = |cmd: &ChildCommand| crate::batch::key(&child_args(cmd));
        assert_eq!(
            key(&coverage(None, None, &[])),
            "coverage d/program.c --aa d/aa.txt --json - --no-progress --instance calls --timelimit 2.5 --memory-limit 100"
        );
        assert_eq!(
            key(&coverage(Some("out/evidence/calls"), Some("out/html/calls"), &["--assume", "fresh-pointers"])),
            "coverage d/program.c --aa d/aa.txt --json - --no-progress --instance calls --timelimit 2.5 \
             --memory-limit 100 --evidence out/evidence/calls --html out/html/calls --assume fresh-pointers"
        );
        assert_eq!(key(&verify(None, Some(DataModel::Lp64), &[])), "verify x.c --64 --memory-limit 6144");
        assert_eq!(
            key(&verify(Some("x.yml"), None, &["--assume", "fresh-pointers"])),
            "verify x.c --task x.yml --memory-limit 6144 --assume fresh-pointers"
        );
    }

    #[test]
    fn child_arguments_parse_back_to_the_command() {
        let cmd = coverage(Some("out/evidence/calls"), Some("out/html/calls"), &["--assume", "fresh-pointers"]);
        let Command::Coverage(a) = parse(&cmd) else { panic!("coverage") };
        assert_eq!(
            (a.program.to_str(), a.aa.as_deref().and_then(|p| p.to_str())),
            (Some("d/program.c"), Some("d/aa.txt"))
        );
        let o = &a.opts;
        assert_eq!(o.json.as_deref().and_then(|p| p.to_str()), Some("-"));
        assert!(o.no_progress);
        assert_eq!(o.instance.as_deref(), Some("calls"));
        assert_eq!((o.timelimit, o.memory_limit), (Some(Duration::from_secs_f64(2.5)), Some(100)));
        assert_eq!(o.evidence.as_deref().and_then(|p| p.to_str()), Some("out/evidence/calls"));
        assert_eq!(o.html.as_deref().and_then(|p| p.to_str()), Some("out/html/calls"));
        assert_eq!(o.assume.len(), 1);
        let Command::Coverage(a) = parse(&coverage(None, None, &[])) else { panic!("coverage") };
        assert_eq!((a.opts.evidence, a.opts.html), (None, None));

        for (task_file, data_model) in
            [(None, Some(DataModel::Lp64)), (None, Some(DataModel::Ilp32)), (Some("x.yml"), None)]
        {
            let cmd = verify(task_file, data_model, &[]);
            let Command::Verify(a) = parse(&cmd) else { panic!("verify") };
            assert_eq!(a.program.as_deref().and_then(|p| p.to_str()), Some("x.c"));
            assert_eq!(a.task.as_deref().and_then(|p| p.to_str()), task_file);
            assert_eq!((a.ilp32, a.lp64), (data_model == Some(DataModel::Ilp32), data_model == Some(DataModel::Lp64)));
            assert_eq!((a.timelimit, a.memory_limit), (None, Some(6144)));
        }
    }

    #[test]
    fn the_batch_keeps_its_own_flags() {
        assert_eq!(check_extra_options(&["--assume".into(), "fresh-pointers".into()]), Ok(()));
        assert!(check_extra_options(&["--json=x".into()]).unwrap_err().starts_with("--json cannot be passed"));
        // Each flag of the table is a flag of vcov coverage or vcov verify.
        let cli = Cli::command();
        let longs: Vec<String> = ["coverage", "verify"]
            .iter()
            .flat_map(|c| cli.find_subcommand(c).expect("a subcommand").get_arguments())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        for (flag, _) in BATCH_OWN_OPTIONS {
            assert!(longs.iter().any(|l| l == flag), "{flag} is no flag of vcov coverage or vcov verify");
        }
    }
}
