//! The command line: flags (`args`), their translation into the library's configurations, and the
//! dispatch of subcommands. The library never sees clap.

pub mod args;
pub mod verify;

use std::io::Write;

use anyhow::{Context, Result};

use crate::cfa::LineRule;
use crate::cfront::types::DataModel;
use crate::driver::{self, CoverageConfig, Format};
use crate::evidence::Architecture;
use args::{Cli, Command, FormatArg, LineRuleArg, ModelArgs};

/// The process exit status.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ExitStatus {
    /// Everything worked.
    Success = 0,
    /// A check failed: `vcov replay` could not confirm a claim.
    CheckFailed = 1,
    /// The input was bad or a check asked for by a flag failed.
    Error = 2,
}

/// Runs one command; diagnostics go to `err`, results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitStatus> {
    match cli.command {
        Command::Verify(a) => verify::run(a, out),
        Command::Cfa(a) => {
            let (prog, cfa, diags) = driver::load_cfa(&a.program, data_model(a.model))?;
            print_diagnostics(err, &diags);
            let text = if a.dot { crate::cfa::to_dot(&cfa, &prog) } else { crate::cfa::to_text(&cfa, &prog) };
            out.write_all(text.as_bytes())?;
            Ok(ExitStatus::Success)
        }
        Command::Scores(a) => {
            let (csv, diags) = driver::scores_csv(&a.program, &a.aa, data_model(a.model))?;
            print_diagnostics(err, &diags);
            match &a.output {
                Some(p) => crate::report::write_atomically(p, csv.as_bytes())
                    .with_context(|| format!("{}: cannot write the scores", p.display()))?,
                None => out.write_all(csv.as_bytes())?,
            }
            Ok(ExitStatus::Success)
        }
        Command::Replay(a) => {
            let mut config = driver::ReplayConfig::new(a.program, a.tests_dir);
            config.architecture = match (a.m32, a.m64) {
                (true, _) => Some(Architecture::Bits32),
                (_, true) => Some(Architecture::Bits64),
                _ => None,
            };
            config.timeout = std::time::Duration::from_secs(a.timeout.max(1));
            config.work_dir = a.work_dir;
            let outcome = driver::replay(&config)?;
            print_diagnostics(err, &outcome.diagnostics);
            out.write_all(outcome.stdout.as_bytes())?;
            Ok(if outcome.all_confirmed() { ExitStatus::Success } else { ExitStatus::CheckFailed })
        }
        Command::Coverage(a) => {
            let config = CoverageConfig {
                program: a.program,
                automaton: a.aa,
                data_model: data_model(a.model),
                executions_from: a.executions_from,
                max_executions: a.max_executions,
                line_rule: match a.line_rule {
                    LineRuleArg::Spanned => LineRule::Spanned,
                    LineRuleArg::FirstLine => LineRule::FirstLine,
                },
                json: a.json,
                lcov: a.lcov,
                csv: a.csv,
                instance: a.instance,
                format: match a.format {
                    FormatArg::Text => Format::Text,
                    FormatArg::Json => Format::Json,
                },
            };
            let outcome = driver::coverage(&config)?;
            print_diagnostics(err, &outcome.diagnostics);
            out.write_all(outcome.stdout.as_bytes())?;
            if a.strict && !outcome.result.matching.unreached.is_empty() {
                writeln!(err, "vcov: --strict: the automaton does not fit the program")?;
                return Ok(ExitStatus::Error);
            }
            Ok(ExitStatus::Success)
        }
    }
}

fn data_model(m: ModelArgs) -> DataModel {
    if m.lp64 {
        DataModel::Lp64
    } else {
        DataModel::Ilp32
    }
}

fn print_diagnostics(err: &mut dyn Write, diags: &[crate::base::Diagnostic]) {
    for d in diags {
        if d.severity >= crate::base::Severity::Warning {
            let _ = writeln!(err, "{d}");
        }
    }
}
