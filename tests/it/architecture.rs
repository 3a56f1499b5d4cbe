//! The code map of ARCHITECTURE.md checks itself: every `crate::` path of the library must be one its
//! layer table allows, and the table must say exactly what each module uses.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::util::root;

/// One row of the layer table.
#[derive(Debug)]
struct Row {
    layer: u32,
    /// What the module's non-test code may use.
    uses: BTreeSet<String>,
    /// What its tests may use besides.
    tests_use: BTreeSet<String>,
}

/// The words between backticks in `cell`.
fn ticked(cell: &str) -> BTreeSet<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The layer table of ARCHITECTURE.md: the table whose header starts `| L | module |`.
fn layer_table(text: &str) -> BTreeMap<String, Row> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with("| L | module |"));
    assert!(lines.next().is_some(), "ARCHITECTURE.md has no layer table (`| L | module | ...`)");
    let mut res = BTreeMap::new();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 5, "a layer table row has five cells: {line}");
        let layer = cells[0].parse().unwrap_or_else(|_| panic!("a layer number: {line}"));
        let module = ticked(cells[1]).into_iter().next().unwrap_or_else(|| panic!("a module name: {line}"));
        let row = Row { layer, uses: ticked(cells[3]), tests_use: ticked(cells[4]) };
        assert!(res.insert(module.clone(), row).is_none(), "`{module}` has two rows");
    }
    res
}

/// The top-level modules `src/lib.rs` declares.
fn modules() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    lib.lines().filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';')).map(str::to_string).collect()
}

/// `text` without its `//` comments (doc comments included), keeping string literals.
fn code_only(text: &str) -> String {
    let mut res = String::new();
    for line in text.lines() {
        let (mut in_str, mut prev) = (false, ' ');
        let mut end = line.len();
        for (i, c) in line.char_indices() {
            match c {
                '"' if prev != '\\' => in_str = !in_str,
                '/' if !in_str && prev == '/' => {
                    end = i - 1;
                    break;
                }
                _ => {}
            }
            prev = if prev == '\\' && c == '\\' { ' ' } else { c };
        }
        res.push_str(&line[..end]);
        res.push('\n');
    }
    res
}

/// The names `crate::NAME` paths of `code` start with (`use crate::{a::x, b}` gives `a` and `b`).
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut res = BTreeSet::new();
    let word = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    for (at, _) in code.match_indices("crate::") {
        if code[..at].ends_with('$') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find(';').unwrap_or(group.len())];
            for part in group.split(',') {
                let name = word(part.trim_start_matches(|c: char| c.is_whitespace() || c == '{'));
                if !name.is_empty() {
                    res.insert(name);
                }
            }
        } else {
            res.insert(word(rest));
        }
    }
    res
}

/// For a module's folder (or file), the code of each of its files split into the non-test part and
/// the test part: files a `#[cfg(test)] mod NAME;` declares, and each file from its
/// `#[cfg(test)]` `mod tests {` on.
fn module_code(module: &str) -> (String, String) {
    let src = root().join("src");
    let mut files = Vec::new();
    let dir = src.join(module);
    if dir.is_dir() {
        collect_rs(&dir, &mut files);
    }
    let file = src.join(format!("{module}.rs"));
    if file.is_file() {
        files.push(file.clone());
    }
    let texts: BTreeMap<_, _> = files.iter().map(|f| (f.clone(), std::fs::read_to_string(f).unwrap())).collect();
    // Files that only tests compile.
    let mut test_files = BTreeSet::new();
    for (f, text) in &texts {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for w in lines.windows(2) {
            if let (true, Some(name)) =
                (w[0] == "#[cfg(test)]", w[1].strip_prefix("mod ").and_then(|r| r.strip_suffix(';')))
            {
                // `a/mod.rs` and `a.rs` declare `a/NAME.rs`; `a/b.rs` declares `a/b/NAME.rs`.
                let base = match f.file_name().is_some_and(|n| n == "mod.rs") {
                    true => f.parent().unwrap().to_path_buf(),
                    false => f.with_extension(""),
                };
                test_files.insert(base.join(format!("{name}.rs")));
                test_files.insert(base.join(name).join("mod.rs"));
            }
        }
    }
    let (mut code, mut tests) = (String::new(), String::new());
    for (f, text) in &texts {
        if test_files.contains(f) {
            tests.push_str(text);
            continue;
        }
        match text.find("#[cfg(test)]\nmod tests {") {
            Some(at) => {
                code.push_str(&text[..at]);
                tests.push_str(&text[at..]);
            }
            None => code.push_str(text),
        }
    }
    (code_only(&code), code_only(&tests))
}

/// Adds every `.rs` file under `dir` to `files`.
fn collect_rs(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    files.extend(crate::util::files_under(dir).into_iter().filter(|p| p.extension().is_some_and(|x| x == "rs")));
}

/// The module each exported macro (`#[macro_export] macro_rules! NAME`) is defined in: a
/// `crate::NAME` path to it is a use of that module.
fn macro_homes(modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut res = BTreeMap::new();
    for m in modules {
        let (code, _) = module_code(m);
        let mut rest = code.as_str();
        while let Some(at) = rest.find("#[macro_export]") {
            rest = &rest[at..];
            if let Some(name) = rest.split("macro_rules!").nth(1) {
                let name: String = name.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                res.insert(name, m.clone());
            }
            rest = &rest["#[macro_export]".len()..];
        }
    }
    res
}

#[test]
fn every_crate_path_is_one_the_layer_table_allows() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let table = layer_table(&text);
    let modules = modules();
    let listed: BTreeSet<String> = table.keys().cloned().collect();
    assert_eq!(listed, modules, "the layer table lists exactly the modules of src/lib.rs");
    let macros = macro_homes(&modules);
    let mut wrong = Vec::new();
    for (m, row) in &table {
        for dep in row.uses.iter().chain(&row.tests_use) {
            match table.get(dep) {
                Some(d) if d.layer < row.layer => {}
                Some(d) => wrong.push(format!("`{m}` (layer {}) may not use `{dep}` (layer {})", row.layer, d.layer)),
                None => wrong.push(format!("`{m}` names `{dep}`, which is no module")),
            }
        }
        let (code, tests) = module_code(m);
        let resolve = |names: BTreeSet<String>| -> BTreeSet<String> {
            names
                .into_iter()
                .filter_map(|n| if modules.contains(&n) { Some(n) } else { macros.get(&n).cloned() })
                .filter(|n| n != m)
                .collect()
        };
        let used = resolve(crate_paths(&code));
        let tests_used = resolve(crate_paths(&tests));
        for dep in used.difference(&row.uses) {
            wrong.push(format!("`{m}` uses `crate::{dep}`, which the layer table does not allow"));
        }
        for dep in row.uses.difference(&used) {
            wrong.push(format!("the layer table says `{m}` uses `{dep}`, but it does not (drop it from the row)"));
        }
        for dep in tests_used.difference(&row.uses).filter(|d| !row.tests_use.contains(*d)) {
            wrong.push(format!("the tests of `{m}` use `crate::{dep}`, which the layer table does not allow"));
        }
        for dep in row.tests_use.iter().filter(|d| !tests_used.contains(*d) || row.uses.contains(*d)) {
            wrong.push(format!("the layer table says the tests of `{m}` also use `{dep}`, but they do not"));
        }
    }
    assert!(wrong.is_empty(), "ARCHITECTURE.md's layer table and the code disagree:\n{}", wrong.join("\n"));
}

#[test]
fn the_layer_checks_see_what_they_must() {
    let code = code_only("use crate::a::X; // crate::b\nlet s = \"// not a comment\"; crate::c::f();\n");
    assert_eq!(crate_paths(&code), ["a", "c"].map(String::from).into());
    assert_eq!(crate_paths("use crate::{d::Y, e};\n"), ["d", "e"].map(String::from).into());
    assert!(crate_paths("$crate::base::x").is_empty());
    let table = layer_table(
        "| L | module | job | may use | tests also use |\n|---|---|---|---|---|\n| 1 | `x` | j | `y`, `z` | `w` |\n",
    );
    assert_eq!(table["x"].layer, 1);
    assert_eq!(table["x"].uses, ["y", "z"].map(String::from).into());
    assert_eq!(table["x"].tests_use, ["w"].map(String::from).into());
}

/// Every Rust file of `src/` and `tests/` (relative to the repository, `/`-separated), every folder on
/// the way, and the templates and C runtime of `src/`.
fn source_paths() -> Vec<String> {
    let mut files = Vec::new();
    collect_rs(&root().join("src"), &mut files);
    collect_rs(&root().join("tests"), &mut files);
    let mut res = BTreeSet::new();
    for f in files {
        let rel = f.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
        let mut dir = rel.as_str();
        while let Some((parent, _)) = dir.rsplit_once('/') {
            res.insert(format!("{parent}/"));
            dir = parent;
        }
        res.insert(rel);
    }
    for dir in ["src/report/html", "src/evidence/runtime"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            res.insert(format!("{dir}/{}", e.unwrap().file_name().to_string_lossy()));
        }
    }
    res.into_iter().collect()
}

/// Whether the file or folder a backticked `path` of ARCHITECTURE.md names exists: from the
/// repository's root when it starts with a top folder of it, else as the end of a path under `src/`
/// (`confirm.rs`, `result/rules.rs`, `html/*`, `runtime/*.c`, `claims.rs`).
fn path_exists(path: &str, sources: &[String]) -> bool {
    if path.split('/').next().is_some_and(|top| root().join(top).exists() && top != "src") || path.starts_with("src/") {
        let trimmed = path.trim_end_matches("*").trim_end_matches('/');
        return root().join(trimmed).exists();
    }
    let (stem, ext) = match path.split_once('*') {
        Some((stem, rest)) => (stem, rest),
        None => (path, ""),
    };
    sources.iter().any(|s| {
        let tail = format!("/{stem}");
        let at = s.find(&tail);
        at.is_some_and(|at| s[at + tail.len()..].ends_with(ext) && (path.contains('*') || s.ends_with(&tail)))
    })
}

/// The names a Rust text defines: items, enum variants and fields, modules (declared or
/// re-exported).
fn defined_names(code: &str) -> BTreeSet<String> {
    let patterns = [
        r"\b(?:fn|struct|enum|union|trait|type|const|static|mod)\s+([A-Za-z_][A-Za-z0-9_]*)",
        r"macro_rules!\s*([A-Za-z_][A-Za-z0-9_]*)",
        // Variants and fields: `Name,`, `Name(`, `Name {`, `name:` at the start of a line.
        r"(?m)^\s*(?:pub(?:\([a-z]+\))?\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:,|\(|\{|:[^:])",
        // Re-exports: `pub use a::b;`, `pub use a::{b, c};`, `as name`.
        r"\bas\s+([A-Za-z_][A-Za-z0-9_]*)",
        r"(?m)^\s*pub(?:\([a-z]+\))?\s+use\s+[^;]*?([A-Za-z_][A-Za-z0-9_]*)\s*;",
    ];
    let mut res = BTreeSet::new();
    for p in patterns {
        res.extend(regex::Regex::new(p).unwrap().captures_iter(code).map(|c| c[1].to_string()));
    }
    let group = regex::Regex::new(r"(?m)^\s*pub(?:\([a-z]+\))?\s+use\s+[^;{]*\{([^}]*)\}").unwrap();
    for c in group.captures_iter(code) {
        res.extend(c[1].split(',').filter_map(|n| n.rsplit("::").next()).map(|n| n.trim().to_string()));
    }
    res
}

/// The Rust code of the module at `src/DIR` (its folder and `DIR.rs`), tests included.
fn code_under(dir: &str) -> Option<String> {
    let (folder, file) = (root().join("src").join(dir), root().join("src").join(format!("{dir}.rs")));
    let mut files = Vec::new();
    if folder.is_dir() {
        collect_rs(&folder, &mut files);
    }
    if file.is_file() {
        files.push(file);
    }
    (!files.is_empty()).then(|| files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect())
}

/// Whether the item a backticked Rust path of ARCHITECTURE.md names exists: the longest prefix of
/// modules (from `src/`, or a module of that name anywhere under it: `lower::MAX_EXPR_NESTING`)
/// and then each further segment defined in that module (`driver::coverage::measure`); a path that
/// starts with no module (`SearchEnd::stopped_by`) has each segment defined somewhere in `src/`.
fn item_exists(path: &str, sources: &[String]) -> bool {
    let segments: Vec<&str> = path.split("::").collect();
    let everything = code_under("").unwrap_or_default();
    let homes: Vec<String> = sources
        .iter()
        .filter_map(|s| {
            let s = s.strip_prefix("src/")?;
            let s = s.strip_prefix("lib.rs").map_or(s, |_| "");
            let s = s.trim_end_matches('/').trim_end_matches(".rs").trim_end_matches("/mod");
            (s.rsplit('/').next() == Some(segments[0])).then(|| s.to_string())
        })
        .collect();
    let resolve_in = |home: &str| -> bool {
        let mut dir = home.to_string();
        let mut rest = &segments[1..];
        while let Some(next) = rest.first().filter(|n| code_under(&format!("{dir}/{n}")).is_some()) {
            dir = format!("{dir}/{next}");
            rest = &rest[1..];
        }
        let names = defined_names(&code_under(&dir).unwrap());
        rest.iter().all(|s| names.contains(*s))
    };
    if homes.is_empty() {
        let names = defined_names(&everything);
        return segments.iter().all(|s| names.contains(*s));
    }
    homes.iter().any(|h| resolve_in(h))
}

/// The backticked words of ARCHITECTURE.md that name a file, a folder or a Rust item.
fn named_places(text: &str) -> (Vec<String>, Vec<String>) {
    let file =
        regex::Regex::new(r"^[A-Za-z0-9_.*-]*(?:/[A-Za-z0-9_.*-]*)*(?:/|\.(?:rs|md|c|py|html|toml|sh|spc))$").unwrap();
    let item = regex::Regex::new(r"^[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+$").unwrap();
    let (mut files, mut items) = (Vec::new(), Vec::new());
    let in_code_block = |line: &str| line.starts_with("```") || line.starts_with(' ');
    for line in text.lines().filter(|l| !in_code_block(l)) {
        for word in line.split('`').skip(1).step_by(2) {
            if item.is_match(word) {
                items.push(word.to_string());
            } else if (word.contains('/') || word.ends_with(".rs")) && file.is_match(word) {
                files.push(word.to_string());
            }
        }
    }
    (files, items)
}

#[test]
fn every_place_the_map_names_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let sources = source_paths();
    let (files, items) = named_places(&text);
    assert!(files.len() > 20 && items.len() > 20, "the map names places: {files:?} {items:?}");
    let mut missing: Vec<String> = files.iter().filter(|f| !path_exists(f, &sources)).cloned().collect();
    missing.extend(items.iter().filter(|i| !item_exists(i, &sources)).cloned());
    assert!(missing.is_empty(), "ARCHITECTURE.md names places that do not exist: {missing:?}");
}

#[test]
fn the_place_checks_see_what_they_must() {
    let sources = source_paths();
    assert!(path_exists("src/symex/confirm.rs", &sources) && path_exists("confirm.rs", &sources));
    assert!(path_exists("result/rules.rs", &sources) && path_exists("search/", &sources));
    assert!(path_exists("runtime/*.c", &sources) && path_exists("tests/it/claims.rs", &sources));
    assert!(!path_exists("src/symex/affirm.rs", &sources) && !path_exists("affirm.rs", &sources));
    assert!(!path_exists("tests/it/nothing.rs", &sources) && !path_exists("runtime/*.java", &sources));
    assert!(item_exists("driver::verify", &sources) && item_exists("coverage::result::Exactness::of", &sources));
    assert!(item_exists("lower::MAX_EXPR_NESTING", &sources) && item_exists("SearchEnd::stopped_by", &sources));
    assert!(item_exists("verify::settle", &sources) && item_exists("cfront::types::DataModel", &sources));
    assert!(!item_exists("verify::decide_everything", &sources) && !item_exists("coverage::result::Nope", &sources));
    assert!(!item_exists("lower::NO_SUCH_LIMIT", &sources) && !item_exists("SearchEnd::rewound", &sources));
    let (files, items) = named_places("`a/b.rs` and `x::y`, `plain`, `f(x)`\n```\n `c/d.rs`\n```\n");
    assert_eq!((files, items), (vec!["a/b.rs".to_string()], vec!["x::y".to_string()]));
}

/// The invariants of ARCHITECTURE.md: its `- Invariant:` lines and the items of `## Invariants
/// across modules`.
fn invariants(text: &str) -> Vec<&str> {
    let mut res: Vec<&str> = text.lines().filter(|l| l.starts_with("- Invariant:")).collect();
    let across = text.lines().skip_while(|l| *l != "## Invariants across modules").skip(1);
    res.extend(across.take_while(|l| !l.starts_with("## ")).filter(|l| l.starts_with("- ")));
    res
}

#[test]
fn every_invariant_names_the_test_that_checks_it() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let sources = source_paths();
    let found = invariants(&text);
    assert!(found.len() >= 15, "ARCHITECTURE.md states its invariants: {found:?}");
    let mut wrong = Vec::new();
    for inv in found {
        let Some((_, checked)) = inv.rsplit_once("(checked by ") else {
            wrong.push(format!("no `(checked by ...)`: {inv}"));
            continue;
        };
        let cited: Vec<&str> = checked.split('`').skip(1).step_by(2).collect();
        if cited.is_empty() || cited.iter().any(|c| !path_exists(c, &sources)) {
            wrong.push(format!("cites no test that exists: {inv}"));
        }
    }
    assert!(wrong.is_empty(), "ARCHITECTURE.md's invariants:\n{}", wrong.join("\n"));
}

#[test]
fn the_result_model_holds_no_words() {
    let (code, _) = module_code("coverage/result");
    assert!(code.contains("pub enum LineStatus"), "the result model is in src/coverage/result");
    for words in ["impl fmt::Display", "impl std::fmt::Display", "Display for", "format!", "write!", "writeln!"] {
        assert!(!code.contains(words), "src/coverage/result has `{words}`: its claims are worded in report::words");
    }
}

#[test]
fn files_are_read_and_written_by_the_driver() {
    let allowed = ["driver", "main"];
    let mut wrong = Vec::new();
    for m in modules().iter().filter(|m| !allowed.contains(&m.as_str())) {
        let (code, _) = module_code(m);
        for (n, line) in code.lines().enumerate() {
            // `symex::budget` reads the process's own memory use.
            let io =
                ["std::fs", "fs::", "File::open", "File::create", "OpenOptions"].iter().any(|io| line.contains(io));
            if io && !line.contains("\"/proc/self/statm\"") {
                wrong.push(format!("`{m}` (line {} of its code): {}", n + 1, line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "file IO outside driver:\n{}", wrong.join("\n"));
}
