//! The command line: flags (`args`), their translation into the library's configurations, and the
//! dispatch of subcommands. The library never sees clap.

pub mod args;
pub mod child;
pub mod verify;

use std::io::Write;

use anyhow::{Context, Result};

use crate::cfa::LineRule;
use crate::cfront::types::DataModel;
use crate::coverage::search::Generate;
use crate::driver::{self, CoverageConfig, Dest, Format};
use crate::symex::{Approx, Property};
use args::{AssumeArg, Cli, Command, FormatArg, GenerateArg, LineRuleArg, ModelArgs};

pub use crate::base::ExitStatus;

/// Runs one command; diagnostics go to `err`, results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitStatus> {
    match cli.command {
        Command::Verify(a) => verify::run(a, out, err),
        Command::Batch(a) => batch(a, out),
        Command::Cfa(a) => {
            let (prog, cfa, diags) = driver::load_cfa(&a.program, data_model(a.model), &preprocess(a.preprocess))?;
            print_diagnostics(err, &diags);
            let text = if a.dot { crate::cfa::to_dot(&cfa, &prog) } else { crate::cfa::to_text(&cfa, &prog) };
            out.write_all(text.as_bytes())?;
            Ok(ExitStatus::Success)
        }
        Command::Scores(a) => {
            let (csv, diags) = driver::scores_csv(&a.program, &a.aa, data_model(a.model), &preprocess(a.preprocess))?;
            print_diagnostics(err, &diags);
            match &a.output {
                Some(p) => crate::driver::write_atomically(p, csv.as_bytes())
                    .with_context(|| format!("{}: cannot write the scores", p.display()))?,
                None => out.write_all(csv.as_bytes())?,
            }
            Ok(ExitStatus::Success)
        }
        Command::Replay(a) => {
            let mut config = driver::ReplayConfig::new(a.program, a.tests_dir);
            config.architecture = match (a.m32, a.m64) {
                (true, _) => Some(DataModel::Ilp32),
                (_, true) => Some(DataModel::Lp64),
                _ => None,
            };
            config.timeout = std::time::Duration::from_secs(a.timeout.max(1));
            config.work_dir = a.work_dir;
            config.verbose = a.verbose;
            config.preprocess = preprocess(a.preprocess);
            let outcome = driver::replay(&config)?;
            print_diagnostics(err, &outcome.diagnostics);
            out.write_all(outcome.stdout.as_bytes())?;
            Ok(if outcome.all_confirmed() { ExitStatus::Success } else { ExitStatus::CheckFailed })
        }
        Command::Compare(a) => compare(a, out, err),
        Command::Coverage(a) => {
            let (program, automaton) = driver::resolve_inputs(&a.program, a.aa.as_deref())?;
            let config = coverage_config(program, automaton, a.opts)?;
            let outcome = driver::coverage(&config)?;
            print_diagnostics(err, &outcome.diagnostics);
            if let Some(stats) = &outcome.stats {
                write!(err, "{stats}")?;
            }
            if let Some(summary) = &outcome.summary_on_stderr {
                err.write_all(summary.as_bytes())?;
            }
            out.write_all(outcome.stdout.as_bytes())?;
            if let Some(page) = &outcome.html {
                writeln!(err, "HTML report written to {}", page.display())?;
            }
            Ok(ExitStatus::after(outcome.signal))
        }
    }
}

/// `vcov batch`: the summary on `out`; 130/143 when a signal stopped the batch.
fn batch(a: args::BatchArgs, out: &mut dyn Write) -> Result<ExitStatus> {
    let config = driver::BatchConfig {
        inputs: a.paths,
        out: a.out,
        mode: match a.mode {
            args::BatchModeArg::Coverage => crate::batch::Mode::Coverage,
            args::BatchModeArg::Verify => crate::batch::Mode::Verify,
        },
        jobs: a.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), |j| j as usize),
        limits: crate::batch::Limits {
            time_limit: a.timelimit.map(|t| t.as_secs_f64()),
            memory_limit_mb: a.memory_limit.unwrap_or(crate::batch::DEFAULT_MEMORY_LIMIT_MB),
        },
        force: a.force,
        vcov_exe: a.vcov_exe,
        progress: !a.no_progress,
        html: a.html,
        evidence: a.evidence,
        extra: a.extra,
        child_args: child::child_args,
    };
    check_batch_options(&config)?;
    let outcome = driver::batch(&config)?;
    out.write_all(outcome.summary.as_bytes())?;
    Ok(ExitStatus::after(outcome.signal))
}

/// Checks the options a batch passes to its tasks before any task runs: none the batch sets itself,
/// and all of them options of the tasks' command (as clap reads them, values included).
fn check_batch_options(config: &driver::BatchConfig) -> Result<()> {
    child::check_extra_options(&config.extra).map_err(anyhow::Error::msg)?;
    if config.evidence && config.mode == crate::batch::Mode::Verify {
        anyhow::bail!("--evidence is for coverage tasks (vcov verify writes no evidence)");
    }
    let mut argv: Vec<String> = match config.mode {
        crate::batch::Mode::Coverage => ["vcov", "coverage", "p.c", "--aa", "a.txt"].map(String::from).to_vec(),
        crate::batch::Mode::Verify => ["vcov", "verify", "p.c"].map(String::from).to_vec(),
    };
    argv.extend(config.extra.iter().cloned());
    if let Err(e) = <Cli as clap::Parser>::try_parse_from(&argv) {
        let first = e.to_string().lines().next().unwrap_or_default().trim_start_matches("error: ").to_string();
        anyhow::bail!("the options after -- are not options of vcov {}: {first}", config.mode.name());
    }
    Ok(())
}

/// The configuration of `vcov coverage` (and the base of `vcov compare`'s).
fn coverage_config(
    program: std::path::PathBuf,
    automaton: std::path::PathBuf,
    a: args::CoverageOpts,
) -> Result<CoverageConfig> {
    let (property, property_text) = coverage_property(a.spec.as_deref(), a.prop.as_deref())?;
    Ok(CoverageConfig {
        program,
        automaton,
        data_model: data_model(a.model),
        preprocess: preprocess(a.preprocess),
        executions_from: a.executions_from,
        generate: match a.generate {
            GenerateArg::Blind => Generate::Blind,
            GenerateArg::Guided => Generate::Guided,
            GenerateArg::Targeted => Generate::Targeted,
        },
        max_executions: a.max_executions,
        time_limit: a.timelimit,
        memory_limit_mb: a.memory_limit,
        allow_mismatch: a.allow_mismatch,
        texts: match a.cpachecker_texts {
            args::CpacheckerTextsArg::Auto => None,
            args::CpacheckerTextsArg::V1 => Some(crate::cfa::Generation::V1),
            args::CpacheckerTextsArg::V2 => Some(crate::cfa::Generation::V2),
        },
        confirm: a.confirm,
        reproducible: a.reproducible,
        proof_after: a.proof_after,
        induction: !a.no_induction,
        assume: assumptions(&a.assume),
        alias_links: !a.no_alias_links,
        property,
        property_text,
        continue_after_bug: a.continue_after_bug,
        evidence: a.evidence,
        witness: a.witness,
        progress: !a.no_progress,
        stats: a.stats,
        line_rule: match a.line_rule {
            LineRuleArg::Spanned => LineRule::Spanned,
            LineRuleArg::FirstLine => LineRule::FirstLine,
        },
        json: a.json.as_deref().map(Dest::from_arg),
        html: a.html,
        lcov: a.lcov.as_deref().map(Dest::from_arg),
        csv: a.csv.as_deref().map(Dest::from_arg),
        instance: a.instance,
        format: match a.format {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
        },
    })
}

/// The preprocessor options of the flags.
pub(crate) fn preprocess(a: args::PreprocessArgs) -> driver::Preprocess {
    driver::Preprocess { include_dirs: a.include, defines: a.define, ..Default::default() }
}

/// `vcov compare`.
fn compare(a: args::CompareArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<ExitStatus> {
    if a.name.len() > a.aa.len() {
        anyhow::bail!("{} names (--name) for {} automata (--aa)", a.name.len(), a.aa.len());
    }
    for flag in [("--evidence", a.opts.evidence.is_some()), ("--witness", a.opts.witness.is_some())] {
        if flag.1 {
            anyhow::bail!("{} is a flag of vcov coverage; vcov compare writes no evidence", flag.0);
        }
    }
    let automata: Vec<(String, std::path::PathBuf)> =
        a.aa.iter()
            .map(|p| driver::resolve_automaton(p))
            .enumerate()
            .map(|(i, p)| (a.name.get(i).cloned().unwrap_or_else(|| driver::default_name(&p)), p))
            .collect();
    let over_time = a.order == args::OrderArg::Time;
    let (program, _) = driver::resolve_inputs(&a.program, Some(&automata[0].1))?;
    let base = coverage_config(program, automata[0].1.clone(), a.opts)?;
    let outcome = driver::compare(&driver::CompareConfig { base, automata, over_time })?;
    print_diagnostics(err, &outcome.diagnostics);
    out.write_all(outcome.stdout.as_bytes())?;
    if let Some(page) = &outcome.html {
        writeln!(err, "HTML report written to {}", page.display())?;
    }
    Ok(ExitStatus::after(outcome.signal))
}

/// The property of `vcov coverage` from `--spec`/`--prop`, with its text for witnesses and tests.
fn coverage_property(spec: Option<&str>, prop: Option<&std::path::Path>) -> Result<(Property, String)> {
    if spec == Some("errorlabel") {
        return Ok((Property::ErrorLabel, crate::verify::ERROR_LABEL_SPEC.to_string()));
    }
    if let Some(p) = prop {
        return Ok((Property::UnreachCall, driver::read_property(p)?));
    }
    if spec == Some("unreach-call") {
        return Ok((Property::UnreachCall, crate::verify::UNREACH_CALL_SPEC.to_string()));
    }
    Ok((Property::Any, crate::driver::DEFAULT_PROPERTY_TEXT.to_string()))
}

/// The approximations `--assume` accepts as part of the environment model.
fn assumptions(accepted: &[AssumeArg]) -> Approx {
    accepted.iter().fold(Approx::NONE, |all, a| {
        all.union(match a {
            AssumeArg::FreshPointers => Approx::LAZY_MEMORY,
            AssumeArg::NoExternWrites => Approx::EXTERN_WRITE,
            AssumeArg::UnmodelledLibrary => Approx::UNMODELLED,
        })
    })
}

fn data_model(m: ModelArgs) -> DataModel {
    if m.lp64 {
        DataModel::Lp64
    } else {
        DataModel::Ilp32
    }
}

pub(crate) fn print_diagnostics(err: &mut dyn Write, diags: &[crate::base::Diagnostic]) {
    for d in diags {
        if d.severity >= crate::base::Severity::Warning {
            let _ = writeln!(err, "{d}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn assume_takes_a_comma_separated_list_of_the_environment_assumptions() {
        let cli = Cli::try_parse_from([
            "vcov",
            "coverage",
            "p.c",
            "--aa",
            "a.txt",
            "--assume",
            "fresh-pointers,no-extern-writes",
        ])
        .expect("parses");
        let Command::Coverage(a) = cli.command else { panic!("coverage") };
        let approx = assumptions(&a.opts.assume);
        assert_eq!(approx.assumption_names(), ["fresh-pointers", "no-extern-writes"]);
        assert!(Cli::try_parse_from(["vcov", "coverage", "p.c", "--aa", "a.txt", "--assume", "aliasing"]).is_err());
        let cli = Cli::try_parse_from(["vcov", "coverage", "p.c", "--aa", "a.txt"]).expect("parses");
        let Command::Coverage(a) = cli.command else { panic!("coverage") };
        assert!(assumptions(&a.opts.assume).is_empty());
    }

    #[test]
    fn property_files_are_checked_once_with_the_file_named() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.prp");
        std::fs::write(&bad, "CHECK( init(main()), LTL(G ! call(abort())) )\n").unwrap();
        let e = coverage_property(None, Some(&bad)).unwrap_err().to_string();
        assert!(e.starts_with(&bad.display().to_string()) && e.contains("'abort'"), "{e}");
        let good = dir.path().join("unreach-call.prp");
        std::fs::write(&good, "CHECK( init(main()), LTL(G ! call(reach_error())) )\n").unwrap();
        let (p, text) = coverage_property(None, Some(&good)).unwrap();
        assert_eq!((p, text.as_str()), (Property::UnreachCall, "CHECK( init(main()), LTL(G ! call(reach_error())) )"));
    }
}
