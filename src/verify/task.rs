//! SV-COMP task definitions (YAML, formats 1.0 and 2.0, read as BenchExec reads them) and property
//! files.
//!
//! BenchExec (`benchexec.model.load_task_definition_file`) accepts `format_version` 0.1, 1.0, 2.0 and
//! 2.1, allows `options` only from 2.0 on and `additional_information` only in 2.1. A task of a
//! version before 2.0 has no `options`, so it names no data model: such tasks were written for
//! SV-COMP's ILP32 machine model, and vcov reads them as ILP32 (which wins over `--64`, as a 2.0
//! task's `data_model` does). A file without `format_version` is read as 2.0 (BenchExec refuses it;
//! vcov has always accepted it).
//!
//! The task files are read by a small parser for the block-style YAML subset they use (mappings,
//! sequences of scalars or of mappings, plain or quoted scalars, `#` comments, flow sequences of
//! scalars), rather than a YAML crate: `serde_yaml` is unmaintained, `serde_yml` is a fork of doubtful
//! quality, and a full YAML 1.2 parser (`yaml-rust2`) brings several dependencies for five keys.
//! Anything outside the subset is an error with its line and column, never a guess.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::cfront::types::DataModel;

/// What vcov needs from a task definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The program, relative to the task file's directory resolved.
    pub input_file: PathBuf,
    /// The reachability property file, resolved, if the task has one.
    pub property_file: Option<PathBuf>,
    /// Its expected verdict, if given.
    pub expected_verdict: Option<bool>,
    /// `options.data_model`, if given.
    pub data_model: Option<DataModel>,
}

/// A problem with a task file: position and message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}:{col}: {message}", path.display())]
pub struct TaskError {
    /// The task file.
    pub path: PathBuf,
    /// 1-based line (0 for the whole file).
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

/// A parsed YAML node with the position of its start.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Yaml {
    Scalar(String, u32, u32),
    List(Vec<Yaml>, u32, u32),
    /// Entries: key, value, and the key's line and column.
    Map(Vec<(String, Yaml, (u32, u32))>, u32, u32),
}

/// One non-blank line: number, indentation, content without comment and trailing blanks.
struct Line<'a> {
    no: u32,
    indent: usize,
    text: &'a str,
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
}

type Res<T> = Result<T, (u32, u32, String)>;

impl Yaml {
    fn at(&self) -> (u32, u32) {
        match self {
            Yaml::Scalar(_, l, c) | Yaml::List(_, l, c) | Yaml::Map(_, l, c) => (*l, *c),
        }
    }

    fn get(&self, key: &str) -> Option<&Yaml> {
        match self {
            Yaml::Map(entries, ..) => entries.iter().find(|(k, ..)| k == key).map(|(_, v, _)| v),
            _ => None,
        }
    }
}

impl fmt::Display for Yaml {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Yaml::Scalar(s, ..) => write!(f, "'{s}'"),
            Yaml::List(..) => write!(f, "a list"),
            Yaml::Map(..) => write!(f, "a mapping"),
        }
    }
}

/// The text of `line` without a `#` comment (outside quotes).
fn strip_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'#' if !single && !double && (i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'\t') => {
                return &line[..i];
            }
            _ => {}
        }
    }
    line
}

/// A scalar's value: quotes removed (with `''` and simple backslash escapes), blanks trimmed.
fn scalar(text: &str, line: u32, col: u32) -> Res<String> {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('\'') {
        let Some(inner) = inner.strip_suffix('\'') else {
            return Err((line, col, "unterminated single-quoted string".into()));
        };
        return Ok(inner.replace("''", "'"));
    }
    if let Some(inner) = t.strip_prefix('"') {
        let Some(inner) = inner.strip_suffix('"') else {
            return Err((line, col, "unterminated double-quoted string".into()));
        };
        return Ok(inner.replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    if t.starts_with(['{', '&', '*', '!', '|', '>']) {
        return Err((line, col, format!("unsupported YAML construct '{t}'")));
    }
    Ok(t.to_string())
}

/// A value written on the same line as its key or dash: a scalar or a flow sequence of scalars.
fn inline_value(text: &str, line: u32, col: u32) -> Res<Yaml> {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('[') {
        let Some(inner) = inner.strip_suffix(']') else {
            return Err((line, col, "unterminated flow sequence".into()));
        };
        let items = inner
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| scalar(s, line, col).map(|v| Yaml::Scalar(v, line, col)))
            .collect::<Res<Vec<_>>>()?;
        return Ok(Yaml::List(items, line, col));
    }
    Ok(Yaml::Scalar(scalar(t, line, col)?, line, col))
}

/// Splits `key: rest` (the colon followed by a blank or the end); `None` if there is no such colon.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    let (mut single, mut double) = (false, false);
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b':' if !single && !double && (i + 1 == bytes.len() || bytes[i + 1] == b' ') => {
                return Some((&text[..i], &text[i + 1..]));
            }
            _ => {}
        }
    }
    None
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Res<Parser<'a>> {
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let no = i as u32 + 1;
            if raw.contains('\t')
                && raw.trim_start().len() != raw.len()
                && raw[..raw.len() - raw.trim_start().len()].contains('\t')
            {
                return Err((no, 1, "tabs in indentation".into()));
            }
            let t = strip_comment(raw).trim_end();
            if t.trim().is_empty() || t.trim() == "---" {
                continue;
            }
            let indent = t.len() - t.trim_start().len();
            lines.push(Line { no, indent, text: t.trim_start() });
        }
        Ok(Parser { lines, pos: 0 })
    }

    /// The block starting at the current line, whose lines are indented by `indent`.
    fn block(&mut self, indent: usize) -> Res<Yaml> {
        let first = &self.lines[self.pos];
        let (no, col) = (first.no, indent as u32 + 1);
        if first.text == "-" || first.text.starts_with("- ") {
            let mut items = Vec::new();
            while self.pos < self.lines.len() && self.lines[self.pos].indent == indent {
                let line = &self.lines[self.pos];
                if !(line.text == "-" || line.text.starts_with("- ")) {
                    // A list nested at its key's indentation ends at the next key.
                    break;
                }
                let rest = line.text[1..].trim_start();
                let rest_indent = indent + (line.text.len() - rest.len());
                if rest.is_empty() {
                    self.pos += 1;
                    items.push(self.nested(indent)?);
                } else if split_key(rest).is_some() {
                    // A mapping that starts on the dash's line.
                    items.push(self.map(rest_indent, Some(rest))?);
                } else {
                    items.push(inline_value(rest, line.no, rest_indent as u32 + 1)?);
                    self.pos += 1;
                }
            }
            return Ok(Yaml::List(items, no, col));
        }
        if split_key(first.text).is_some() {
            return self.map(indent, None);
        }
        let v = inline_value(first.text, no, col)?;
        self.pos += 1;
        Ok(v)
    }

    /// The block nested under a line of indentation `parent` (more indented, or a list at the same
    /// indentation); an empty scalar if there is none.
    fn nested(&mut self, parent: usize) -> Res<Yaml> {
        match self.lines.get(self.pos) {
            Some(l) if l.indent > parent => {
                let i = l.indent;
                self.block(i)
            }
            Some(l) if l.indent == parent && (l.text == "-" || l.text.starts_with("- ")) => self.block(parent),
            _ => Ok(Yaml::Scalar(String::new(), self.lines.get(self.pos.saturating_sub(1)).map_or(0, |l| l.no), 1)),
        }
    }

    /// A mapping whose keys are indented by `indent`; `first` is its first entry's text when it
    /// starts after a list dash on the current line.
    fn map(&mut self, indent: usize, mut first: Option<&'a str>) -> Res<Yaml> {
        let (no, col) = (self.lines[self.pos].no, indent as u32 + 1);
        let mut entries: Vec<(String, Yaml, (u32, u32))> = Vec::new();
        loop {
            let text = match first.take() {
                Some(t) => t,
                None => match self.lines.get(self.pos) {
                    Some(l) if l.indent == indent && !(l.text == "-" || l.text.starts_with("- ")) => l.text,
                    Some(l) if l.indent > indent => {
                        return Err((l.no, l.indent as u32 + 1, "unexpected indentation".into()))
                    }
                    _ => break,
                },
            };
            let line_no = self.lines[self.pos].no;
            let Some((key, rest)) = split_key(text) else {
                return Err((line_no, indent as u32 + 1, format!("expected 'key: value', found '{text}'")));
            };
            let key = scalar(key, line_no, indent as u32 + 1)?;
            if entries.iter().any(|(k, ..)| *k == key) {
                return Err((line_no, indent as u32 + 1, format!("duplicate key '{key}'")));
            }
            let value_col = (indent + text.len() - rest.trim_start().len()) as u32 + 1;
            self.pos += 1;
            let value =
                if rest.trim().is_empty() { self.nested(indent)? } else { inline_value(rest, line_no, value_col)? };
            entries.push((key, value, (line_no, indent as u32 + 1)));
        }
        Ok(Yaml::Map(entries, no, col))
    }
}

fn parse_yaml(text: &str) -> Res<Yaml> {
    let mut p = Parser::new(text)?;
    if p.lines.is_empty() {
        return Ok(Yaml::Map(vec![], 1, 1));
    }
    let indent = p.lines[0].indent;
    let v = p.block(indent)?;
    if let Some(l) = p.lines.get(p.pos) {
        return Err((l.no, l.indent as u32 + 1, "unexpected content after the document".into()));
    }
    Ok(v)
}

/// The versions of the task-definition format, as far as they differ for vcov.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum TaskVersion {
    /// 0.1 and 1.0: no `options`.
    Before2,
    /// 2.0: `options`.
    V2,
    /// 2.1: `additional_information` too.
    V21,
}

/// Where `key` of the mapping `doc` is written.
fn key_position(doc: &Yaml, key: &str) -> Option<(u32, u32)> {
    let Yaml::Map(entries, ..) = doc else { return None };
    entries.iter().find(|(k, ..)| k == key).map(|&(_, _, at)| at)
}

/// Reads the task definition `text` of the file `path` (for positions and relative paths).
pub fn parse_task(path: &Path, text: &str) -> Result<Task, TaskError> {
    let err = |(line, col, message): (u32, u32, String)| TaskError { path: path.to_path_buf(), line, col, message };
    let doc = parse_yaml(text).map_err(err)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let version = match doc.get("format_version") {
        Some(Yaml::Scalar(v, l, c)) => match v.as_str() {
            "0.1" | "1.0" => TaskVersion::Before2,
            "2.0" => TaskVersion::V2,
            "2.1" => TaskVersion::V21,
            _ => {
                return Err(err((
                    *l,
                    *c,
                    format!("unsupported format_version '{v}' (task definitions have 0.1, 1.0, 2.0 or 2.1)"),
                )))
            }
        },
        Some(other) => {
            let (l, c) = other.at();
            return Err(err((l, c, format!("format_version is {other}, expected a version such as '2.0'"))));
        }
        None => TaskVersion::V2,
    };
    for (key, since, needed) in
        [("options", TaskVersion::V2, "2.0"), ("additional_information", TaskVersion::V21, "2.1")]
    {
        if let (Some(v), true) = (doc.get(key), version < since) {
            let (l, c) = key_position(&doc, key).unwrap_or_else(|| v.at());
            return Err(err((l, c, format!("key '{key}' needs format_version {needed} or later"))));
        }
    }
    let input_file = match doc.get("input_files") {
        Some(Yaml::Scalar(s, ..)) => dir.join(s),
        Some(Yaml::List(items, l, c)) => match items.as_slice() {
            [Yaml::Scalar(s, ..)] => dir.join(s),
            _ => return Err(err((*l, *c, "vcov handles tasks with exactly one input file".into()))),
        },
        Some(other) => {
            let (l, c) = other.at();
            return Err(err((l, c, format!("input_files is {other}, expected a file name"))));
        }
        None => return Err(err((1, 1, "the task has no input_files".into()))),
    };
    let mut property_file = None;
    let mut expected_verdict = None;
    if let Some(props) = doc.get("properties") {
        let Yaml::List(items, ..) = props else {
            let (l, c) = props.at();
            return Err(err((l, c, "properties must be a list".into())));
        };
        for item in items {
            let Some(Yaml::Scalar(file, l, c)) = item.get("property_file") else {
                let (l, c) = item.at();
                return Err(err((l, c, "a property without property_file".into())));
            };
            if file.is_empty() {
                return Err(err((*l, *c, "property_file is empty".into())));
            }
            let name = Path::new(file).file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "unreach-call.prp" {
                property_file = Some(dir.join(file));
                expected_verdict = match item.get("expected_verdict") {
                    Some(Yaml::Scalar(v, l, c)) => match v.as_str() {
                        "true" => Some(true),
                        "false" => Some(false),
                        _ => return Err(err((*l, *c, format!("expected_verdict '{v}' is not true or false")))),
                    },
                    _ => None,
                };
            }
        }
    }
    let data_model = match doc.get("options").and_then(|o| o.get("data_model")) {
        Some(Yaml::Scalar(s, l, c)) => match DataModel::from_name(s) {
            Some(dm) => Some(dm),
            None => return Err(err((*l, *c, format!("unknown data_model '{s}' (ILP32 or LP64)")))),
        },
        Some(other) => {
            let (l, c) = other.at();
            return Err(err((l, c, "data_model must be ILP32 or LP64".into())));
        }
        // Before 2.0 a task could not say; SV-COMP's tasks of that time are ILP32.
        None if version == TaskVersion::Before2 => Some(DataModel::Ilp32),
        None => None,
    };
    Ok(Task { input_file, property_file, expected_verdict, data_model })
}

/// The functions whose calls a reachability property file forbids (`G ! call(f())`), and the entry
/// function of `init(f())`.
pub fn parse_property(text: &str) -> Option<(String, Vec<String>)> {
    let t: String = text.split_whitespace().collect();
    let init = t.split("init(").nth(1)?.split("()").next()?.to_string();
    let mut forbidden = Vec::new();
    for part in t.split("G!call(").skip(1) {
        forbidden.push(part.split("()").next()?.to_string());
    }
    if forbidden.is_empty() {
        return None;
    }
    Some((init, forbidden))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<Task, TaskError> {
        parse_task(Path::new("dir/t.yml"), text)
    }

    #[test]
    fn svcomp_task() {
        let t = check(
            "format_version: '2.0'\n\n# old file name: x.c\ninput_files: 'sum02-1.c'\n\nproperties:\n  - property_file: ../properties/no-overflow.prp\n    expected_verdict: true\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/coverage-branches.prp\n\noptions:\n  language: C\n  data_model: LP64\n",
        )
        .unwrap();
        assert_eq!(t.input_file, PathBuf::from("dir/sum02-1.c"));
        assert_eq!(t.property_file, Some(PathBuf::from("dir/../properties/unreach-call.prp")));
        assert_eq!(t.expected_verdict, Some(false));
        assert_eq!(t.data_model, Some(DataModel::Lp64));
    }

    #[test]
    fn format_1_0_means_ilp32() {
        // An sv-benchmarks task of 2019, before `options` existed.
        let t = check(
            "format_version: '1.0'\n\n# old file name: count_up_down_true-unreach-call_true-termination.i\ninput_files: 'count_up_down-1.i'\n\nproperties:\n  - property_file: ../properties/termination.prp\n    expected_verdict: true\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n",
        )
        .unwrap();
        assert_eq!(t.input_file, PathBuf::from("dir/count_up_down-1.i"));
        assert_eq!(t.expected_verdict, Some(true));
        assert_eq!(t.data_model, Some(DataModel::Ilp32));
        // Version 2.x without a data model leaves it to the command line; 2.1 reads as 2.0.
        let t = check("format_version: '2.0'\ninput_files: 'a.c'\n").unwrap();
        assert_eq!(t.data_model, None);
        let t = check(
            "format_version: 2.1\ninput_files: 'a.c'\nadditional_information: {}\noptions:\n  data_model: LP64\n",
        );
        assert!(t.is_err(), "flow mappings are outside the subset vcov reads");
        let t = check("format_version: 2.1\ninput_files: 'a.c'\noptions:\n  data_model: LP64\n").unwrap();
        assert_eq!(t.data_model, Some(DataModel::Lp64));
    }

    #[test]
    fn list_forms_and_quotes() {
        let t = check("input_files:\n- \"a b.c\"\nproperties: []\n").unwrap();
        assert_eq!(t.input_file, PathBuf::from("dir/a b.c"));
        assert_eq!((t.property_file, t.data_model), (None, None));
        let t = check("input_files: ['x.i']   # one file\n").unwrap();
        assert_eq!(t.input_file, PathBuf::from("dir/x.i"));
    }

    #[test]
    fn errors_have_positions() {
        let e = check("input_files: 'a.c'\noptions:\n  data_model: ILP64\n").unwrap_err();
        assert_eq!((e.line, e.col), (3, 15));
        assert_eq!(e.to_string(), "dir/t.yml:3:15: unknown data_model 'ILP64' (ILP32 or LP64)");
        let e = check("input_files: ['a.c', 'b.c']\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = check("properties:\n  - property_file: p.prp\n").unwrap_err();
        assert!(e.message.contains("no input_files"), "{e}");
        let e = check("input_files: 'a.c'\n  bad: 1\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = check("input_files: 'a.c\n").unwrap_err();
        assert!(e.message.contains("unterminated"));
        let e = check("format_version: '3.0'\ninput_files: 'a.c'\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "dir/t.yml:1:17: unsupported format_version '3.0' (task definitions have 0.1, 1.0, 2.0 or 2.1)"
        );
        let e = check("format_version: '1.0'\ninput_files: 'a.c'\noptions:\n  data_model: LP64\n").unwrap_err();
        assert_eq!(e.to_string(), "dir/t.yml:3:1: key 'options' needs format_version 2.0 or later");
        let e = check("format_version: '2.0'\ninput_files: 'a.c'\nadditional_information:\n  x: 1\n").unwrap_err();
        assert_eq!(e.to_string(), "dir/t.yml:3:1: key 'additional_information' needs format_version 2.1 or later");
        let e = check("input_files: 'a.c'\nproperties:\n  - property_file: ''\n").unwrap_err();
        assert_eq!(e.to_string(), "dir/t.yml:3:20: property_file is empty");
    }

    #[test]
    fn property_files() {
        let (init, f) = parse_property("CHECK( init(main()), LTL(G ! call(reach_error())) )\n").unwrap();
        assert_eq!((init.as_str(), f), ("main", vec!["reach_error".to_string()]));
        assert!(parse_property("CHECK( init(main()), LTL(G valid-free) )").is_none());
    }
}
