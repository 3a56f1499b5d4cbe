//! Tidy checks of `src/`, as rust-analyzer's `tidy` tests: files and functions stay short, a long
//! function says why at its head, and every external crate is used only by the top-level modules the
//! table of ARCHITECTURE.md's `## External crates` names.
//!
//! Files and functions over the limits today are listed below while they are being split: the test
//! fails on one that is not listed, and on a listed one that is no longer over its limit, so the
//! lists only shrink.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::util::root;

/// A file of `src/` (tests aside) may have this many lines.
const MAX_FILE_LINES: usize = 1000;
/// A function may have this many lines, from its `fn` to its closing brace.
const MAX_FN_LINES: usize = 150;
/// A function longer than this says why in a comment at its head.
const EXPLAINED_FN_LINES: usize = 120;

/// Files over `MAX_FILE_LINES` lines, being split (none today; the list only shrinks).
const LONG_FILES: &[&str] = &[];

/// Functions over `MAX_FN_LINES` lines, or over `EXPLAINED_FN_LINES` without a comment at their
/// head, being split: (file, function).
const LONG_FUNCTIONS: &[(&str, &str)] = &[];

/// The files of `src/` that only tests compile, to which the file limit does not apply.
fn is_test_file(rel: &str) -> bool {
    rel.ends_with("/tests.rs") || rel.ends_with("/test_util.rs") || rel.split('/').any(|c| c == "tests")
}

/// `text` without its comments, and with the contents of its string, raw-string and character
/// literals taken out (`""`, `''`), line breaks kept: line `n` of the result is line `n` of `text`.
/// Lifetimes and labels (`'a`) stay.
fn blank(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut res = String::with_capacity(text.len());
    // The line breaks of `c[from..to]`, which a literal or a comment takes out.
    let breaks =
        |from: usize, to: usize| "\n".repeat(c[from..to.min(c.len())].iter().filter(|&&ch| ch == '\n').count());
    let mut i = 0;
    while i < c.len() {
        let (ch, next) = (c[i], at(i + 1));
        let after_ident = i > 0 && ident(c[i - 1]);
        if ch == '/' && next == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if ch == '/' && next == '*' {
            let (start, mut depth) = (i, 0);
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            res.push_str(&breaks(start, i));
            continue;
        }
        // Raw strings: `r"…"`, `r#"…"#`, `br"…"`, `cr"…"`.
        if !after_ident && (ch == 'r' || (matches!(ch, 'b' | 'c') && next == 'r')) {
            let hashes_from = if ch == 'r' { i + 1 } else { i + 2 };
            let mut quote = hashes_from;
            while at(quote) == '#' {
                quote += 1;
            }
            if at(quote) == '"' {
                let hashes = quote - hashes_from;
                let mut end = quote + 1;
                while end < c.len() && !(c[end] == '"' && (1..=hashes).all(|h| at(end + h) == '#')) {
                    end += 1;
                }
                let end = (end + 1 + hashes).min(c.len());
                res.push_str("\"\"");
                res.push_str(&breaks(i, end));
                i = end;
                continue;
            }
        }
        // Strings: `"…"`, `b"…"`, `c"…"`.
        if ch == '"' || (!after_ident && matches!(ch, 'b' | 'c') && next == '"') {
            let mut end = if ch == '"' { i + 1 } else { i + 2 };
            while end < c.len() && c[end] != '"' {
                end += if c[end] == '\\' { 2 } else { 1 };
            }
            let end = (end + 1).min(c.len());
            res.push_str("\"\"");
            res.push_str(&breaks(i, end));
            i = end;
            continue;
        }
        // Character literals (`'x'`, `'\n'`, `'\u{1F600}'`, the `'x'` of `b'x'`), not lifetimes.
        if ch == '\'' {
            if next == '\\' {
                let mut end = i + 3;
                while end < c.len() && c[end] != '\'' && c[end] != '\n' {
                    end += 1;
                }
                res.push_str("''");
                i = end + 1;
                continue;
            }
            if next != '\'' && next != '\n' && at(i + 2) == '\'' {
                res.push_str("''");
                i += 3;
                continue;
            }
        }
        res.push(ch);
        i += 1;
    }
    res
}

/// A function with a body, by the lines of its file (1-based).
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    /// The line of `fn`.
    line: usize,
    /// The line of the body's opening brace.
    body_line: usize,
    /// From `fn` to the closing brace.
    n_lines: usize,
}

/// The functions with a body of `blanked` (a text `blank` made), nested ones included.
fn functions(blanked: &str) -> Vec<Function> {
    let c: Vec<char> = blanked.chars().collect();
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut line_of = Vec::with_capacity(c.len());
    let mut line = 1;
    for &ch in &c {
        line_of.push(line);
        if ch == '\n' {
            line += 1;
        }
    }
    let mut res = Vec::new();
    for i in 0..c.len().saturating_sub(2) {
        if !(c[i] == 'f' && c[i + 1] == 'n' && c[i + 2].is_whitespace()) || (i > 0 && ident(c[i - 1])) {
            continue;
        }
        let mut j = i + 2;
        while j < c.len() && c[j].is_whitespace() {
            j += 1;
        }
        let name: String = c[j..].iter().take_while(|&&ch| ident(ch)).collect();
        if name.is_empty() || name.starts_with(|ch: char| ch.is_ascii_digit()) {
            continue;
        }
        // The body's brace: the first `{` outside parentheses and brackets (`[u8; 4]`), unless a
        // `;` ends a declaration without body first.
        let mut depth = 0i32;
        let mut open = None;
        for (k, &ch) in c.iter().enumerate().skip(j + name.chars().count()) {
            match ch {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                '{' if depth == 0 => {
                    open = Some(k);
                    break;
                }
                ';' if depth == 0 => break,
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut depth = 0;
        let mut close = c.len() - 1;
        for (k, &ch) in c.iter().enumerate().skip(open) {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        res.push(Function {
            name,
            line: line_of[i],
            body_line: line_of[open],
            n_lines: line_of[close] - line_of[i] + 1,
        });
    }
    res
}

/// Whether a `//` or `///` line is right above the function (above its attributes) or is the first
/// line of its body.
fn has_head_comment(lines: &[&str], f: &Function) -> bool {
    let is_comment = |l: &str| l.trim_start().starts_with("//");
    let above = lines[..f.line - 1].iter().rev().find(|l| !l.trim_start().starts_with("#["));
    above.is_some_and(|l| is_comment(l)) || lines.get(f.body_line).is_some_and(|l| is_comment(l))
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    crate::util::files_under(dir).into_iter().filter(|p| p.extension().is_some_and(|x| x == "rs")).collect()
}

/// `src/…` of a file of the crate.
fn rel(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/")
}

#[test]
fn no_file_or_function_of_src_is_too_long() {
    let (mut long_files, mut long_functions) = (BTreeMap::new(), BTreeMap::new());
    for path in rust_files(&root().join("src")) {
        let (rel, text) = (rel(&path), std::fs::read_to_string(&path).unwrap());
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > MAX_FILE_LINES && !is_test_file(&rel) {
            long_files.insert(rel.clone(), format!("{rel}: {} lines", lines.len()));
        }
        for f in functions(&blank(&text)) {
            let why = if f.n_lines > MAX_FN_LINES {
                format!("over {MAX_FN_LINES}")
            } else if f.n_lines > EXPLAINED_FN_LINES && !has_head_comment(&lines, &f) {
                format!("over {EXPLAINED_FN_LINES}, and no comment at its head says why")
            } else {
                continue;
            };
            let said = format!("{rel}:{} fn {}: {} lines ({why})", f.line, f.name, f.n_lines);
            long_functions.entry((rel.clone(), f.name)).or_insert(said);
        }
    }
    let mut wrong = Vec::new();
    let listed_files: BTreeSet<String> = LONG_FILES.iter().map(|f| f.to_string()).collect();
    for (file, said) in &long_files {
        if !listed_files.contains(file) {
            wrong.push(format!("{said}: more than {MAX_FILE_LINES}; split it"));
        }
    }
    for file in listed_files.iter().filter(|f| !long_files.contains_key(*f)) {
        wrong.push(format!("{file} is in LONG_FILES but no longer over {MAX_FILE_LINES} lines: drop it from the list"));
    }
    let listed: BTreeSet<(String, String)> =
        LONG_FUNCTIONS.iter().map(|(file, name)| (file.to_string(), name.to_string())).collect();
    for (key, said) in &long_functions {
        if !listed.contains(key) {
            wrong.push(format!("{said}: split it, or say at its head why it is long"));
        }
    }
    for (file, name) in listed.iter().filter(|k| !long_functions.contains_key(*k)) {
        wrong.push(format!("{file}: fn {name} is in LONG_FUNCTIONS but no longer too long: drop it from the list"));
    }
    assert!(wrong.is_empty(), "tidy:\n{}", wrong.join("\n"));
}

#[test]
fn the_tidy_scan_sees_what_it_must() {
    // Comments, strings, raw strings and character literals go; line breaks and lifetimes stay.
    let text = "fn a<'x>(s: &'x str) -> char { // fn b() {\n    let r = r#\"fn c() { \"}\"#; let q = '{';\n    \
                /* fn d() { /* nested */ } */ let e = b'}'; let f = \"\\\"{\\\\\"; 'l: loop { break 'l; }\n    '\\u{7b}'\n}\n";
    let blanked = blank(text);
    assert_eq!(
        blanked,
        "fn a<'x>(s: &'x str) -> char { \n    let r = \"\"; let q = '';\n     let e = b''; let f = \"\"; 'l: loop { break 'l; }\n    ''\n}\n"
    );
    assert_eq!(functions(&blanked), vec![Function { name: "a".into(), line: 1, body_line: 1, n_lines: 5 }]);
    // A multi-line string keeps its lines; a declaration without body is no function; `[u8; 4]`
    // does not end a signature; `fn(u8)` is a type.
    let text =
        "trait T {\n    fn decl(&self) -> [u8; 4];\n}\nfn g(x: [u8; 4], h: fn(u8)) {\n    let s = \"a\nb\";\n}\n";
    let fns = functions(&blank(text));
    assert_eq!(fns, vec![Function { name: "g".into(), line: 4, body_line: 4, n_lines: 4 }]);
    // The comment at the head: above the attributes, or the body's first line.
    let lines = ["/// Why.", "#[inline]", "fn f() {", "}", "fn g() {", "    // Why.", "}", "", "fn h() {", "}"];
    let fns = functions(&blank(&lines.join("\n")));
    let heads: Vec<bool> = fns.iter().map(|f| has_head_comment(&lines, f)).collect();
    assert_eq!(heads, [true, true, false]);
    assert!(is_test_file("src/cfa/tests.rs") && is_test_file("src/sat/test_util.rs"));
    assert!(is_test_file("src/symex/tests/paths.rs") && !is_test_file("src/symex/explore.rs"));
}

/// The header of ARCHITECTURE.md's table of external crates.
const CRATE_TABLE_HEADER: &str = "| crate | what for | used only by |";

/// ARCHITECTURE.md's table of external crates: crate (its Rust name) -> modules.
fn crate_table(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let ticked = |cell: &str| -> BTreeSet<String> { cell.split('`').skip(1).step_by(2).map(str::to_string).collect() };
    let mut lines = text.lines().skip_while(|l| !l.starts_with(CRATE_TABLE_HEADER));
    assert!(lines.next().is_some(), "ARCHITECTURE.md has no table of external crates (`{CRATE_TABLE_HEADER}`)");
    let mut res = BTreeMap::new();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 3, "a row of the table of external crates has three cells: {line}");
        assert!(!cells[1].is_empty(), "a row of the table of external crates says what the crate is for: {line}");
        let krate = ticked(cells[0]).into_iter().next().unwrap_or_else(|| panic!("a crate name: {line}"));
        assert!(res.insert(krate.clone(), ticked(cells[2])).is_none(), "`{krate}` has two rows");
    }
    res
}

/// The Rust names of the crates of `Cargo.toml`'s `[dependencies]` (`-` becomes `_`).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let section = manifest.lines().skip_while(|l| l.trim() != "[dependencies]").skip(1);
    section
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter_map(|l| l.split_once('=').map(|(name, _)| name.trim().replace('-', "_")))
        .filter(|name| !name.is_empty() && !name.starts_with('#'))
        .collect()
}

/// Whether `blanked` (a text `blank` made) names the crate `krate`: a path `krate::…` (not
/// `…::krate::…`), `use krate` or `extern crate krate`.
fn names_crate(blanked: &str, krate: &str) -> bool {
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    blanked.match_indices(krate).any(|(at, _)| {
        let (before, after) = (&blanked[..at], &blanked[at + krate.len()..]);
        if before.ends_with(ident) || after.starts_with(ident) {
            return false;
        }
        let before = before.trim_end();
        (after.starts_with("::") && !before.ends_with("::"))
            || before.ends_with("use")
            || before.ends_with("extern crate")
    })
}

/// The top-level module of a file of `src/`: `src/cfa/build.rs` and `src/cfa.rs` are `cfa`,
/// `src/main.rs` is `main`.
fn top_module(rel: &str) -> String {
    let first = rel.trim_start_matches("src/").split('/').next().unwrap();
    first.trim_end_matches(".rs").to_string()
}

#[test]
fn each_external_crate_is_used_only_by_the_modules_the_table_names() {
    let table = crate_table(&std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap());
    let deps = dependencies(&std::fs::read_to_string(root().join("Cargo.toml")).unwrap());
    let rows: BTreeSet<String> = table.keys().cloned().collect();
    assert_eq!(rows, deps, "ARCHITECTURE.md's table of external crates has one row for each dependency of Cargo.toml");
    let mut used: BTreeMap<&str, BTreeSet<String>> = table.keys().map(|k| (k.as_str(), BTreeSet::new())).collect();
    for path in rust_files(&root().join("src")) {
        let blanked = blank(&std::fs::read_to_string(&path).unwrap());
        for (krate, modules) in used.iter_mut() {
            if names_crate(&blanked, krate) {
                modules.insert(top_module(&rel(&path)));
            }
        }
    }
    let mut wrong = Vec::new();
    for (krate, allowed) in &table {
        let users = &used[krate.as_str()];
        for m in users.difference(allowed) {
            wrong.push(format!("`{m}` uses `{krate}`, which the table gives only to {allowed:?}"));
        }
        for m in allowed.difference(users) {
            wrong.push(format!("the table says `{m}` uses `{krate}`, but it does not (drop it from the row)"));
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's table of external crates and the code disagree:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_crate_checks_see_what_they_must() {
    let code = blank("use regex::Regex;\nlet s = \"petgraph::Graph\"; // libc::kill\nself::csv::write(); serde_json::json!({});\nextern crate cadical;\n");
    for (krate, named) in [
        ("regex", true),
        ("petgraph", false),
        ("libc", false),
        ("csv", false),
        ("serde_json", true),
        ("serde", false),
        ("cadical", true),
    ] {
        assert_eq!(names_crate(&code, krate), named, "{krate}");
    }
    assert_eq!(top_module("src/cfa/build.rs"), "cfa");
    assert_eq!(top_module("src/libmodels.rs"), "libmodels");
    assert_eq!(top_module("src/main.rs"), "main");
    let table = crate_table(&format!(
        "{CRATE_TABLE_HEADER}\n|---|---|---|\n| `lang_c` | C | `cfront` |\n| `csv` | tables | `batch`, `report` |\n"
    ));
    assert_eq!(table["csv"], ["batch", "report"].map(String::from).into());
    let manifest = "[package]\nname = \"x\"\n[dependencies]\nlang-c = \"0.15\"\nserde = { version = \"1\" }\n\n[dev-dependencies]\ninsta = \"1\"\n";
    assert_eq!(dependencies(manifest), ["lang_c", "serde"].map(String::from).into());
}
