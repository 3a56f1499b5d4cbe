//! C front end: parses preprocessed C (GNU C11, CIL output included) with `lang_c` and lowers it to the
//! typed IR of [`ir`].
//!
//! Invariant: this is the only module that names `lang_c` types.
//! Invariant: every byte offset of the original file is kept (comments are blanked, not removed), so
//! spans, lines and columns refer to the file as the user and CPAchecker see it.

mod comments;
mod consteval;
pub mod ir;
mod layout;
mod lower;
pub mod types;

use std::path::PathBuf;

use crate::base::{Diagnostic, SourceFile};

pub use comments::{blank_comments, unprocessed_directive};
pub use consteval::{eval_int, eval_int_with, fold_binary, object_size, ObjectSize};

/// A fatal problem with a C input: it cannot be parsed or has no consistent meaning.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}:{col}: {message}", path.display())]
pub struct FrontError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

/// Parses `file` and lowers it for data model `dm`.
///
/// Unsupported constructs become diagnostics (and `Unsupported` expressions); only unparseable or
/// meaningless input is an error.
pub fn parse_program(file: SourceFile, dm: types::DataModel) -> Result<(ir::Program, Vec<Diagnostic>), FrontError> {
    let mut directives = Vec::new();
    let blanked = comments::blank_comments_and_list_directives(file.text(), &mut directives);
    let (blanked, hints) = layout::extract(file.text(), blanked, &directives);
    let blanked = gcc_keywords(blanked);
    if let Some(pos) = sign_run(&blanked) {
        let (path, lc) = file.position(pos as u32);
        let sign = &blanked[pos..=pos];
        return Err(FrontError {
            path: path.to_path_buf(),
            line: lc.line,
            col: lc.col,
            message: format!("syntax error: more than three '{sign}' in a row"),
        });
    }
    // The PEG parser recurses deeply on long expressions and CIL's nested blocks, and so do the
    // lowering (up to `lower::MAX_NESTING` levels) and dropping the syntax tree: all three get room.
    on_parser_stack(|| parse_and_lower(&file, blanked, dm, hints))
}

/// Runs `f` on a thread with a stack deep enough for the parser, the lowering and dropping a syntax
/// tree (512 MiB reserved, touched only as deep as the input nests).
fn on_parser_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn_scoped(s, f)
            .expect("spawn parser thread")
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// Parses the comment-blanked text of `file` and lowers it (on the parser thread).
fn parse_and_lower(
    file: &SourceFile,
    blanked: String,
    dm: types::DataModel,
    hints: layout::LayoutHints,
) -> Result<(ir::Program, Vec<Diagnostic>), FrontError> {
    let cfg = lang_c::driver::Config::with_gcc();
    let parsed = std::panic::catch_unwind(|| lang_c::driver::parse_preprocessed(&cfg, blanked));
    let parsed = match parsed {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => {
            let (path, lc) = file.position(e.offset as u32);
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort_unstable();
            let shown = expected.iter().take(8).map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", ");
            return Err(FrontError {
                path: path.to_path_buf(),
                line: lc.line,
                col: lc.col,
                message: format!("syntax error: unexpected token, expected one of {shown}"),
            });
        }
        Err(_) => {
            return Err(FrontError {
                path: file.path().to_path_buf(),
                line: 0,
                col: 0,
                message: "the C parser failed on this file".into(),
            })
        }
    };
    lower::lower(file.clone(), dm, &parsed.unit, hints)
}

/// Links vcov's C library (`libmodels::LIBC`) into `prog`: lowers its models into the program's
/// functions (marked `library`) with their text placed after the program's, so that the CFA can give
/// the calls of functions the program declares but does not define the model's body
/// (`cfa::build`). Once per program; the library is vcov's own, so a failure here is a fault of
/// vcov's, not of the input.
pub fn link_library(prog: &mut ir::Program) -> Result<(), FrontError> {
    if prog.library.is_some() {
        return Ok(());
    }
    let base = prog.file.text().len() + 1;
    let text = format!("{}{}", " ".repeat(base), crate::libmodels::LIBC);
    let file = SourceFile::new("<vcov libc>", text);
    let blanked = comments::blank_comments(file.text());
    let cfg = lang_c::driver::Config::with_gcc();
    let unit = on_parser_stack(|| lang_c::driver::parse_preprocessed(&cfg, blanked).map(|p| p.unit));
    let unit = unit.map_err(|e| {
        let lc = file.line_col(e.offset as u32);
        FrontError {
            path: file.path().into(),
            line: lc.line,
            col: lc.col,
            message: "the library does not parse".into(),
        }
    })?;
    lower::lower_library(prog, &file, &unit)?;
    prog.library = Some(file);
    Ok(())
}

/// `text` with two gcc keywords respelled, outside literals, every offset kept:
/// - `__float128` (which `lang_c` does not know; `<stddef.h>` uses it for ILP32's `max_align_t`) as
///   `_Float128 `, its standard name;
/// - `__extension__` blanked: CDT defines it as an empty macro, so no node of CPAchecker's starts
///   with it (`__extension__ typedef struct {..} lldiv_t;` of `<stdlib.h>` has the text
///   `typedef struct {..} lldiv_t;` in CPAchecker 4.0's automata), while texts that hold it inside keep
///   it (they are slices of the file, not of this text).
fn gcc_keywords(text: String) -> String {
    const KEYWORDS: [(&str, &[u8]); 2] = [("__float128", b"_Float128 "), ("__extension__", b"             ")];
    if KEYWORDS.iter().all(|(k, _)| !text.contains(k)) {
        return text;
    }
    let mut bytes = text.into_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => i = past_literal(&bytes, i),
            b'_' if i == 0 || !ident(bytes[i - 1]) => {
                let hit = KEYWORDS.iter().find(|(k, _)| {
                    bytes[i..].starts_with(k.as_bytes()) && bytes.get(i + k.len()).is_none_or(|&b| !ident(b))
                });
                match hit {
                    Some((k, with)) => {
                        bytes[i..i + k.len()].copy_from_slice(with);
                        i += k.len();
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(bytes).expect("ASCII replaced by ASCII")
}

/// The offset just past the string or character literal that opens at `i` (an unterminated one
/// ends at the line's end).
fn past_literal(bytes: &[u8], mut i: usize) -> usize {
    let q = bytes[i];
    i += 1;
    while i < bytes.len() && bytes[i] != q && bytes[i] != b'\n' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// The offset of the first run of four or more `+` (or `-`) outside literals, if any.
///
/// No valid C has one: maximal munch makes `++++`, `a++++b` and `a+++++b` apply `++` to a value that
/// is not an lvalue. `lang_c`'s parser backtracks exponentially on long runs (found by fuzzing: 34 of
/// them take it minutes), so they are rejected before parsing.
fn sign_run(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => i = past_literal(bytes, i),
            c @ (b'+' | b'-') => {
                let run = bytes[i..].iter().take_while(|&&b| b == c).count();
                if run >= 4 {
                    return Some(i);
                }
                i += run;
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests;
