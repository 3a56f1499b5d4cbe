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

fn collect_rs(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect_rs(&p, files);
        } else if p.extension().is_some_and(|x| x == "rs") {
            files.push(p);
        }
    }
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
