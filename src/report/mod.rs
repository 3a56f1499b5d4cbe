//! Report writers: text summary, JSON, lcov tracefiles, CSV rows, and atomic file output.
//!
//! Invariant: this is the only module with `serde` derives; the JSON structs carry `schema_version`.
//! Invariant: lists are written sorted (ascending lines, executions by id), so the same inputs give
//! byte-identical reports apart from timings.

mod csv;
mod json;
mod lcov;
mod text;

use std::io::Write;
use std::path::Path;

pub use self::csv::{append_csv_row, CSV_HEADER};
pub use json::{coverage_json, SCHEMA_VERSION};
pub use lcov::{lcov_tracefile, LineSet};
pub use text::coverage_summary;

/// Writes `contents` to `path` atomically: into a temporary file in the same directory, then renamed,
/// so a reader never sees a partial file.
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        write_atomically(&p, b"one").unwrap();
        write_atomically(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left behind");
    }

    #[test]
    fn atomic_write_to_a_missing_directory_fails_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("missing/r.json");
        assert!(write_atomically(&p, b"x").is_err());
    }
}
