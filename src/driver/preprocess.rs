//! Reading a C program as vcov parses it: a `.c` file with preprocessor directives vcov does not
//! process itself (`#include`, `#define`, `#if`, ...) is run through the system's C preprocessor
//! (`gcc -E -m32|-m64`), as CPAchecker runs `cpp -m32|-m64` with `parser.usePreprocessor`; the
//! output keeps its line markers, so that lines refer to the user's file (`SourceFile::preprocessed`).
//!
//! A `.i` file is never preprocessed (it is the output of a preprocessor): a directive vcov does not
//! process in it is an error at its position, never skipped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::base::SourceFile;
use crate::cfront::types::DataModel;

/// How vcov preprocesses a C file that needs it.
#[derive(Clone, Debug)]
pub struct Preprocess {
    /// `-I DIR` options for the preprocessor, in order. [default: none]
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]` options for the preprocessor, in order. [default: none]
    pub defines: Vec<String>,
    /// The C compiler whose preprocessor is run (`gcc -E`). [default: `gcc`]
    pub gcc: String,
}

impl Default for Preprocess {
    fn default() -> Self {
        Preprocess { include_dirs: Vec::new(), defines: Vec::new(), gcc: "gcc".into() }
    }
}

impl Preprocess {
    /// Whether the user gave preprocessor options: then a `.c` file is preprocessed even without
    /// directives (a `-D` may define a name the program uses).
    fn has_options(&self) -> bool {
        !self.include_dirs.is_empty() || !self.defines.is_empty()
    }

    /// The preprocessor's arguments for `path` under data model `dm`.
    fn args(&self, path: &Path, dm: DataModel) -> Vec<String> {
        let mut args = vec!["-E".to_string(), dm.gcc_flag().to_string()];
        args.extend(self.include_dirs.iter().map(|d| format!("-I{}", d.display())));
        args.extend(self.defines.iter().map(|d| format!("-D{d}")));
        args.push(path.display().to_string());
        args
    }
}

/// Reads the program at `path` for data model `dm`: as written, or preprocessed when it needs it.
pub fn read_program(path: &Path, dm: DataModel, pp: &Preprocess) -> Result<SourceFile> {
    let text = super::read_text(path)?;
    let directive = crate::cfront::unprocessed_directive(&text);
    if path.extension().is_some_and(|e| e == "i") {
        if let Some((pos, name)) = directive {
            let at = SourceFile::new(path, text).locate(pos as u32);
            bail!(
                "{at}: #{name} in a preprocessed file: vcov does not run the preprocessor on .i files (name the \
                 file .c to have it preprocessed)"
            );
        }
        return Ok(SourceFile::new(path, text));
    }
    if directive.is_none() && !pp.has_options() {
        return Ok(SourceFile::new(path, text));
    }
    let why = match &directive {
        Some((pos, name)) => {
            let at = SourceFile::new(path, text.clone()).locate(*pos as u32);
            format!("it has preprocessor directives (#{name} at {at})")
        }
        None => "-I or -D was given".to_string(),
    };
    let output = run_preprocessor(path, dm, pp, &why)?;
    Ok(SourceFile::preprocessed(path, output))
}

/// Runs `gcc -E` on `path`; its output, or an error that says why it failed.
fn run_preprocessor(path: &Path, dm: DataModel, pp: &Preprocess, why: &str) -> Result<String> {
    let args = pp.args(path, dm);
    let shown = format!("{} {}", pp.gcc, args.join(" "));
    let out = match Command::new(&pp.gcc).args(&args).env("LC_ALL", "C").stdin(Stdio::null()).output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "{}: vcov preprocesses this file with `{shown}` because {why}, but {} was not found: install gcc, \
             or preprocess the file yourself and pass the .i file",
            path.display(),
            pp.gcc
        ),
        Err(e) => return Err(e).with_context(|| format!("{}: cannot run `{shown}`", path.display())),
    };
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    // gcc's first error names the file, line and column itself.
    let first = stderr
        .lines()
        .find(|l| l.contains(": error: ") || l.contains(": fatal error: "))
        .or_else(|| stderr.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("the preprocessor failed")
        .trim()
        .to_string();
    // A message without a position (`gcc: error: ...`) names the program.
    let located = first.split(':').nth(1).is_some_and(|n| n.trim().parse::<u32>().is_ok());
    let first = if located { first } else { format!("{}: {first}", path.display()) };
    if dm == DataModel::Ilp32 && runs_with(pp, path, DataModel::Lp64) {
        bail!(
            "{first}\n`{shown}` failed, but the same with -m64 works: the 32-bit C headers are missing (Debian, \
             Ubuntu: apt-get install gcc-multilib), or verify the program as LP64 (--64)"
        );
    }
    bail!("{first}\n(`{shown}` failed; vcov preprocesses this file because {why})")
}

/// Whether the preprocessor succeeds on `path` under data model `dm`.
fn runs_with(pp: &Preprocess, path: &Path, dm: DataModel) -> bool {
    Command::new(&pp.gcc)
        .args(pp.args(path, dm))
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_follow_the_options() {
        let pp = Preprocess {
            include_dirs: vec!["inc".into()],
            defines: vec!["N=3".into(), "DEBUG".into()],
            ..Default::default()
        };
        assert_eq!(pp.args(Path::new("a.c"), DataModel::Lp64), ["-E", "-m64", "-Iinc", "-DN=3", "-DDEBUG", "a.c"]);
        assert!(pp.has_options());
        assert!(!Preprocess::default().has_options());
    }
}
