//! Where a command's outputs go: every destination is checked before any work starts, and all files
//! are written together at the end (each to a temporary file beside its destination, then renamed),
//! so a run that fails leaves none of them behind.
//!
//! Invariant: files are created with mode 0666 less the umask, like any file a program creates; the
//! temporary files' names never reach an error message.

use std::collections::BTreeSet;
use std::fs::Permissions;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use anyhow::{bail, Context, Result};

use super::watchdog::{self, Phase};

/// The temporary files and directories of outputs not yet in place. The watchdog removes them when
/// a limit ends the run; committing holds the lock, so no output is half in place.
static STAGED: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// The staged temporaries, locked.
pub(super) fn lock_staged() -> MutexGuard<'static, BTreeSet<PathBuf>> {
    STAGED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every staged temporary (the run ends without its outputs).
pub(super) fn discard_staged(mut staged: MutexGuard<'static, BTreeSet<PathBuf>>) {
    for p in std::mem::take(&mut *staged) {
        if p.is_dir() {
            let _ = std::fs::remove_dir_all(&p);
        } else {
            let _ = std::fs::remove_file(&p);
        }
    }
}

/// One output: standard output (`-` on the command line) or a file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Dest {
    /// Standard output.
    Stdout,
    /// A file, replaced atomically.
    File(PathBuf),
}

impl Dest {
    /// `-` is standard output; anything else a file.
    pub fn from_arg(arg: &Path) -> Dest {
        if arg.as_os_str() == "-" {
            Dest::Stdout
        } else {
            Dest::File(arg.to_path_buf())
        }
    }

    /// The file, if this is one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Dest::Stdout => None,
            Dest::File(p) => Some(p),
        }
    }
}

/// Checks that a file can be written at `path` (by `what`, for the message): it is not a directory
/// and its directory exists and takes new files.
pub fn check_file(path: &Path, what: &str) -> Result<()> {
    if path.is_dir() {
        bail!("{}: cannot write the {what}: it is a directory", path.display());
    }
    let dir = parent_dir(path);
    if !dir.is_dir() {
        bail!("{}: cannot write the {what}: the directory {} does not exist", path.display(), dir.display());
    }
    probe_dir(dir).with_context(|| format!("{}: cannot write the {what}", path.display()))
}

/// Checks that `dir` can receive files: it is a writable directory, or it does not exist and its
/// parent is a writable directory (it is created at the end).
pub fn check_dir(dir: &Path, what: &str) -> Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            bail!("{}: cannot write the {what}: it is not a directory", dir.display());
        }
        return probe_dir(dir).with_context(|| format!("{}: cannot write the {what}", dir.display()));
    }
    let parent = parent_dir(dir);
    if !parent.is_dir() {
        bail!("{}: cannot write the {what}: the directory {} does not exist", dir.display(), parent.display());
    }
    probe_dir(parent).with_context(|| format!("{}: cannot create the {what}", dir.display()))
}

/// A relative link (with `/`) from a page in folder `from` to `to`, both as given by the user (the
/// folder need not exist yet); absolute when they share no ancestor.
pub fn relative_link(from: &Path, to: &Path) -> String {
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (from, to) = (abs(from), abs(to));
    let f: Vec<_> = from.components().collect();
    let t: Vec<_> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return to.display().to_string();
    }
    let mut parts: Vec<String> = vec!["..".to_string(); f.len() - common];
    parts.extend(t[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// Files to write together: each is written to a temporary file in its destination's directory when
/// added, and all are renamed into place by `commit`. Dropped without `commit`, nothing is left.
#[derive(Default)]
pub struct Staged {
    files: Vec<(tempfile::NamedTempFile, PathBuf)>,
    /// Temporary directories holding the files of destination directories that do not exist yet,
    /// with the directory each stands for.
    new_dirs: Vec<(tempfile::TempDir, PathBuf)>,
    /// The SHA-256 of every staged file's contents, by destination.
    digests: Vec<(PathBuf, String)>,
}

impl Staged {
    /// Stages `contents` for `path`.
    pub fn add(&mut self, path: &Path, contents: &[u8]) -> Result<()> {
        let dir = parent_dir(path).to_path_buf();
        let stage_in = if dir.is_dir() {
            dir
        } else {
            match self.new_dirs.iter().position(|(_, d)| *d == dir) {
                Some(i) => self.new_dirs[i].0.path().to_path_buf(),
                None => {
                    let tmp = tempfile::Builder::new()
                        .prefix(".vcov-")
                        .tempdir_in(parent_dir(&dir))
                        .map_err(plain_io)
                        .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
                    let res = tmp.path().to_path_buf();
                    lock_staged().insert(res.clone());
                    self.new_dirs.push((tmp, dir));
                    res
                }
            }
        };
        let tmp =
            write_temp(&stage_in, contents).with_context(|| format!("{}: cannot write the file", path.display()))?;
        self.files.push((tmp, path.to_path_buf()));
        self.digests.push((path.to_path_buf(), crate::witness::sha256_hex(contents)));
        Ok(())
    }

    /// The files staged below `dir`, by path relative to it (with `/`), sorted, each with the SHA-256
    /// of its contents.
    pub fn digests_under(&self, dir: &Path) -> Vec<(String, String)> {
        let mut res: Vec<(String, String)> = self
            .digests
            .iter()
            .filter_map(|(p, d)| {
                let rel = p.strip_prefix(dir).ok()?;
                let name = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                Some((name, d.clone()))
            })
            .collect();
        res.sort();
        res
    }

    /// Renames every staged file into place, creating the directories that did not exist.
    pub fn commit(self) -> Result<()> {
        let mut staged = lock_staged();
        self.commit_locked(&mut staged)
    }

    /// `commit` for the outputs of the run: once they are in place, no limit cuts the run any more
    /// (`watchdog::Phase::Done`).
    pub fn commit_outputs(self) -> Result<()> {
        let mut staged = lock_staged();
        self.commit_locked(&mut staged)?;
        watchdog::enter(Phase::Done);
        Ok(())
    }

    fn commit_locked(self, staged: &mut BTreeSet<PathBuf>) -> Result<()> {
        for (_, dir) in &self.new_dirs {
            std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the directory", dir.display()))?;
        }
        for (tmp, path) in self.files {
            staged.remove(tmp.path());
            tmp.persist(&path)
                .map_err(|e| plain_io(e.error))
                .with_context(|| format!("{}: cannot write the file", path.display()))?;
        }
        for (tmp, _) in &self.new_dirs {
            staged.remove(tmp.path());
        }
        Ok(())
    }
}

/// Writes `contents` to `path` atomically (a temporary file in the same directory, then a rename).
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let tmp = write_temp(parent_dir(path), contents)?;
    let mut staged = lock_staged();
    staged.remove(tmp.path());
    tmp.persist(path).map_err(|e| plain_io(e.error))?;
    Ok(())
}

fn write_temp(dir: &Path, contents: &[u8]) -> std::io::Result<tempfile::NamedTempFile> {
    let mut tmp = tempfile::Builder::new()
        .prefix(".vcov-")
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(plain_io)?;
    lock_staged().insert(tmp.path().to_path_buf());
    tmp.write_all(contents).map_err(plain_io)?;
    tmp.as_file().sync_all().map_err(plain_io)?;
    Ok(tmp)
}

fn probe_dir(dir: &Path) -> Result<()> {
    tempfile::Builder::new().prefix(".vcov-").tempfile_in(dir).map(drop).map_err(|e| anyhow::Error::new(plain_io(e)))
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The error without the temporary path tempfile adds to its messages: the user named another file.
fn plain_io(e: std::io::Error) -> std::io::Error {
    let inner = e.get_ref().and_then(|r| r.source()).and_then(|s| s.downcast_ref::<std::io::Error>());
    match inner {
        Some(inner) => std::io::Error::new(e.kind(), inner.to_string()),
        None if e.get_ref().is_some() => std::io::Error::from(e.kind()),
        None => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn atomic_write_replaces_the_file_with_a_normal_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        write_atomically(&p, b"one").unwrap();
        write_atomically(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left behind");
        // The test process's umask decides; group and others can read under the usual 022 or 002.
        assert_eq!(mode(&p) & 0o600, 0o600);
        assert_ne!(mode(&p), 0o600, "not the private mode of temporary files");
    }

    #[test]
    fn checks_name_the_path_and_never_a_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing/r.json");
        let e = format!("{:#}", check_file(&missing, "JSON report").unwrap_err());
        assert!(e.starts_with(&missing.display().to_string()) && e.contains("does not exist"), "{e}");
        let e = format!("{:#}", check_file(dir.path(), "JSON report").unwrap_err());
        assert!(e.contains("is a directory"), "{e}");
        let e = format!("{:#}", check_file(Path::new("/proc/r.json"), "JSON report").unwrap_err());
        assert!(
            e.starts_with("/proc/r.json: cannot write the JSON report") && !e.contains(".tmp") && !e.contains(".vcov-"),
            "{e}"
        );
        assert!(check_dir(&dir.path().join("new"), "evidence").is_ok());
        assert!(check_dir(&missing, "evidence").is_err());
    }

    #[test]
    fn staged_files_appear_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.json");
        let b = dir.path().join("sub/b.xml");
        let mut s = Staged::default();
        s.add(&a, b"a").unwrap();
        s.add(&b, b"b").unwrap();
        assert!(!a.exists() && !b.exists());
        s.commit().unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), b"a");
        assert_eq!(std::fs::read(&b).unwrap(), b"b");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");

        let mut s = Staged::default();
        s.add(&dir.path().join("c.json"), b"c").unwrap();
        s.add(&dir.path().join("new/d.xml"), b"d").unwrap();
        drop(s);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "a dropped stage leaves nothing");
    }
}
