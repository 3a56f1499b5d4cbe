//! Source files held in memory with a line index, and byte spans into them.
//!
//! A file vcov preprocessed (`gcc -E`) is held as the preprocessor's output, with a map from its
//! lines to the lines they come from (read from its `# N "file"` line markers): edge texts and spans
//! are those of the output, as CPAchecker's are, and lines shown to the user are the user's file's
//! (`SourceFile::user_lines`). Lines that come from headers belong to no line of the user's file.

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
    /// For a preprocessed text: where each of its lines comes from.
    origin: Option<Box<Origin>>,
}

/// Where the lines of a preprocessor's output come from.
#[derive(Clone, Debug)]
struct Origin {
    /// The files the line markers name; the first is the user's file.
    files: Vec<String>,
    /// Per line of the output (0-based): the index into `files` and the line there, or `None` for
    /// the lines before the first marker.
    lines: Vec<Option<(u32, u32)>>,
}

impl SourceFile {
    /// Indexes `text`, which was read from `path`.
    pub fn new(path: impl Into<PathBuf>, text: String) -> SourceFile {
        let mut line_starts = vec![0u32];
        line_starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i as u32 + 1));
        SourceFile { path: path.into(), text, line_starts, origin: None }
    }

    /// Indexes `text`, the preprocessor's output for the file at `path`, and maps its lines to the
    /// files and lines its line markers (`# N "file" flags`, `#line N "file"`) name. The user's file
    /// is the one the first marker names (gcc names its input first).
    pub fn preprocessed(path: impl Into<PathBuf>, text: String) -> SourceFile {
        let mut file = SourceFile::new(path, text);
        let mut files: Vec<String> = Vec::new();
        let mut lines = Vec::with_capacity(file.line_starts.len());
        // The file index and line of the next line.
        let mut next: Option<(u32, u32)> = None;
        for k in 0..file.line_starts.len() {
            let lo = file.line_starts[k] as usize;
            let hi = file.line_starts.get(k + 1).map_or(file.text.len(), |&h| h as usize);
            let line = &file.text[lo..hi];
            match line_marker(line) {
                Some((n, name)) => {
                    lines.push(None);
                    let idx = match name {
                        Some(name) => match files.iter().position(|f| *f == name) {
                            Some(i) => i as u32,
                            None => {
                                files.push(name);
                                files.len() as u32 - 1
                            }
                        },
                        None => next.map_or(0, |(i, _)| i),
                    };
                    if files.is_empty() {
                        files.push(String::new());
                    }
                    next = Some((idx, n));
                }
                None => {
                    lines.push(next);
                    next = next.map(|(i, n)| (i, n + 1));
                }
            }
        }
        file.origin = Some(Box::new(Origin { files, lines }));
        file
    }

    /// Whether the text is a preprocessor's output whose lines map to the user's file.
    pub fn is_preprocessed(&self) -> bool {
        self.origin.is_some()
    }

    /// The lines of the user's file a non-empty span covers: its physical lines, or for a
    /// preprocessed text the lines of the user's file they come from; `None` when the span starts
    /// or ends in a line from another file (a header), as CPAchecker gives such a node no location
    /// in the user's file.
    pub fn user_lines(&self, span: Span) -> Option<(u32, u32)> {
        let (a, b) = self.lines(span);
        let Some(origin) = &self.origin else { return Some((a, b)) };
        match (origin.lines.get(a as usize - 1).copied().flatten(), origin.lines.get(b as usize - 1).copied().flatten())
        {
            (Some((0, la)), Some((0, lb))) => Some((la.min(lb), la.max(lb))),
            _ => None,
        }
    }

    /// The file, line and column that byte offset `pos` stands for: its own for a plain file; for a
    /// preprocessed text the file and line its line markers name (the column is the output's).
    pub fn position(&self, pos: u32) -> (&Path, LineCol) {
        let lc = self.line_col(pos);
        let Some(origin) = &self.origin else { return (&self.path, lc) };
        match origin.lines.get(lc.line as usize - 1).copied().flatten() {
            Some((0, line)) => (&self.path, LineCol { line, col: lc.col }),
            Some((i, line)) => (Path::new(&origin.files[i as usize]), LineCol { line, col: lc.col }),
            None => (&self.path, LineCol { line: 0, col: 0 }),
        }
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

    /// `path:line:col` of byte offset `pos`, for messages (`SourceFile::position`).
    pub fn locate(&self, pos: u32) -> String {
        let (path, lc) = self.position(pos);
        format!("{}:{}:{}", path.display(), lc.line, lc.col)
    }
}

/// The line number and file name of a line marker (`# 12 "a.c" 1 3`, `#line 12 "a.c"`, `# 12`), or
/// `None` if `line` is no marker.
fn line_marker(line: &str) -> Option<(u32, Option<String>)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = match rest.strip_prefix("line") {
        Some(r) if r.starts_with([' ', '\t']) => r.trim_start(),
        _ => rest,
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let n: u32 = rest[..digits].parse().ok()?;
    let rest = rest[digits..].trim_start();
    let Some(quoted) = rest.strip_prefix('"') else { return Some((n, None)) };
    // The name as the preprocessor escaped it (`\\` and `\"`).
    let mut name = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some((n, Some(name))),
            '\\' => name.extend(chars.next()),
            c => name.push(c),
        }
    }
    Some((n, None))
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
        assert_eq!(f.user_lines(Span::new(0, 5)), Some((1, 2)));
    }

    #[test]
    fn preprocessed_lines_map_to_the_user_file() {
        let text = "# 0 \"a.c\"\n# 1 \"/usr/include/x.h\" 1 3 4\ntypedef int t;\n\n# 2 \"a.c\" 2\nint x;\nint y\n# 3 \"a.c\" 3 4\n  = 1;\n#line 10\nint z;\n";
        let f = SourceFile::preprocessed("dir/a.c", text.to_string());
        assert!(f.is_preprocessed());
        let at = |s: &str| text.find(s).unwrap();
        let span = |s: &str| Span::new(at(s), at(s) + s.len());
        // A header's line belongs to no line of the user's file; its messages name the header.
        assert_eq!(f.user_lines(span("typedef int t;")), None);
        assert_eq!(f.locate(at("typedef") as u32), "/usr/include/x.h:1:1");
        assert_eq!(f.user_lines(span("int x;")), Some((2, 2)));
        assert_eq!(f.locate(at("int x") as u32 + 4), "dir/a.c:2:5");
        // A statement over a marker keeps its lines; `#line N` without a name stays in the file.
        let whole = Span::new(at("int y"), at("= 1;") + 4);
        assert_eq!(f.user_lines(whole), Some((3, 3)));
        assert_eq!(f.user_lines(span("int z;")), Some((10, 10)));
        // Plain files map to themselves.
        assert!(!SourceFile::new("b.c", "int x;".into()).is_preprocessed());
        assert_eq!(line_marker("# 12 \"a\\\"b.c\" 2"), Some((12, Some("a\"b.c".into()))));
        assert_eq!(line_marker("#pragma pack(1)"), None);
        assert_eq!(line_marker("#line 7"), Some((7, None)));
    }
}
