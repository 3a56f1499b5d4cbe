//! Source files held in memory with a line index, and byte spans into them.

use std::path::{Path, PathBuf};

/// A half-open byte range `lo..hi` into one source file.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Span {
    /// First byte.
    pub lo: u32,
    /// One past the last byte.
    pub hi: u32,
}

impl Span {
    /// The span `lo..hi`.
    pub fn new(lo: usize, hi: usize) -> Span {
        debug_assert!(lo <= hi, "inverted span {lo}..{hi}");
        Span { lo: lo as u32, hi: hi as u32 }
    }

    /// The smallest span that covers both.
    pub fn join(self, other: Span) -> Span {
        Span { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }

    /// Whether the span holds no byte.
    pub fn is_empty(self) -> bool {
        self.lo >= self.hi
    }
}

/// A 1-based line and column (column counted in bytes).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct LineCol {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub col: u32,
}

/// The text of one input file with the byte offset of every line start.
#[derive(Clone, Debug)]
pub struct SourceFile {
    path: PathBuf,
    text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// Indexes `text`, which was read from `path`.
    pub fn new(path: impl Into<PathBuf>, text: String) -> SourceFile {
        let mut line_starts = vec![0u32];
        line_starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i as u32 + 1));
        SourceFile { path: path.into(), text, line_starts }
    }

    /// The path the file was read from, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text of `span`.
    pub fn slice(&self, span: Span) -> &str {
        &self.text[span.lo as usize..span.hi as usize]
    }

    /// Number of lines (a final line without newline counts).
    pub fn n_lines(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// Line and column of byte offset `pos`.
    pub fn line_col(&self, pos: u32) -> LineCol {
        let line_idx = match self.line_starts.binary_search(&pos) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        LineCol { line: line_idx as u32 + 1, col: pos - self.line_starts[line_idx] + 1 }
    }

    /// The first and the last line a non-empty span touches.
    pub fn lines(&self, span: Span) -> (u32, u32) {
        let first = self.line_col(span.lo).line;
        let last = self.line_col(span.hi.saturating_sub(1).max(span.lo)).line;
        (first, last)
    }

    /// `path:line:col` of byte offset `pos`, for messages.
    pub fn locate(&self, pos: u32) -> String {
        let lc = self.line_col(pos);
        format!("{}:{}:{}", self.path.display(), lc.line, lc.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_lines() {
        let f = SourceFile::new("a.c", "ab\ncd\n\nef".to_string());
        assert_eq!(f.line_col(0), LineCol { line: 1, col: 1 });
        assert_eq!(f.line_col(3), LineCol { line: 2, col: 1 });
        assert_eq!(f.line_col(4), LineCol { line: 2, col: 2 });
        assert_eq!(f.line_col(7), LineCol { line: 4, col: 1 });
        assert_eq!(f.lines(Span::new(0, 5)), (1, 2));
        // A span ending right after a newline does not reach into the next line.
        assert_eq!(f.lines(Span::new(0, 3)), (1, 1));
        assert_eq!(f.n_lines(), 4);
        assert_eq!(f.locate(4), "a.c:2:2");
    }
}
