//! The examples of README.md, run as written: every `$ vcov ...` line of a `console` block runs in a
//! scratch directory that sees the project's fixtures, must succeed, and must print what the README
//! shows after it (timings aside). A command followed directly by another only has to succeed.

use std::path::Path;
use std::process::Command;

use crate::util::root;

/// One command of a `console` block and the output the README shows for it (`None`: not shown).
struct Example {
    line: usize,
    args: Vec<String>,
    expected: Option<Vec<String>>,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut res: Vec<Example> = Vec::new();
    let mut in_console = false;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            let mut words = cmd.split_whitespace().map(str::to_string);
            assert_eq!(words.next().as_deref(), Some("vcov"), "README.md:{}: a console example runs vcov", i + 1);
            res.push(Example { line: i + 1, args: words.collect(), expected: None });
        } else if let Some(last) = res.last_mut() {
            last.expected.get_or_insert_with(Vec::new).push(line.to_string());
        }
    }
    res
}

/// Timings vary: `0.12s` and `3.0 s` become `<time>`; runs of spaces become one.
fn normalize(lines: &[String]) -> Vec<String> {
    let time = regex::Regex::new(r"\d+\.\d+ ?s\b").unwrap();
    lines
        .iter()
        .map(|l| time.replace_all(l, "<time>").split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// A scratch directory that sees the project's fixtures, as the README's examples expect.
fn scratch() -> tempfile::TempDir {
    let scratch = tempfile::tempdir().unwrap();
    for dir in ["fixtures", "assumption-automata"] {
        std::os::unix::fs::symlink(root().join(dir), scratch.path().join(dir)).unwrap();
    }
    scratch
}

/// Runs `ex` in `dir`: it must succeed and print what the README shows.
fn run(ex: &Example, dir: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_vcov")).args(&ex.args).current_dir(dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "README.md:{}: vcov {} failed:\n{stdout}{stderr}", ex.line, ex.args.join(" "));
    if let Some(expected) = &ex.expected {
        let actual: Vec<String> = stdout.lines().map(str::to_string).collect();
        assert_eq!(
            normalize(&actual),
            normalize(expected),
            "README.md:{}: the output of vcov {} differs from the README",
            ex.line,
            ex.args.join(" ")
        );
    }
}

/// Every example but `vcov replay`'s, in order.
#[test]
fn readme_examples_run_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() >= 4, "the README's console examples were found: {}", examples.len());
    let scratch = scratch();
    for ex in examples.iter().filter(|ex| ex.args[0] != "replay") {
        run(ex, scratch.path());
    }
}

/// `vcov replay` builds with `gcc -m32`: each replay example, after the one before it (which writes
/// the suite it replays).
#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn readme_replay_examples_run_as_written() {
    crate::util::require_gcc32();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let examples = examples(&readme);
    let mut n = 0;
    for (i, ex) in examples.iter().enumerate().filter(|(_, ex)| ex.args[0] == "replay") {
        let scratch = scratch();
        if let Some(before) = i.checked_sub(1).map(|b| &examples[b]) {
            run(before, scratch.path());
        }
        run(ex, scratch.path());
        n += 1;
    }
    assert_eq!(n, 1, "the README's replay examples");
}

#[test]
fn the_readme_installs_before_it_says_vcov() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let install = readme.find("cargo install --path .").expect("an install step");
    let command = regex::Regex::new(r"(?m)^(\$ )?vcov (coverage|verify|replay|scores|cfa) ").unwrap();
    let first_vcov = command.find(&readme).expect("vcov examples").start();
    assert!(install < first_vcov, "the install step comes before the first `vcov` example");
    let first_line = readme.lines().find(|l| l.starts_with("cargo ")).unwrap();
    assert!(first_line.starts_with("cargo run --release -- coverage "), "{first_line}");
}

/// The README's table of functions without body is `libmodels::markdown()`; `VCOV_UPDATE_DOCS=1`
/// writes it anew.
#[test]
fn the_table_of_functions_without_body_is_the_one_the_code_applies() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- libmodels:begin -->\n", "<!-- libmodels:end -->");
    let start = readme.find(begin).expect("README.md has the libmodels markers") + begin.len();
    let stop = readme[start..].find(end).expect("README.md closes the libmodels markers") + start;
    let table = vcov::libmodels::markdown();
    if std::env::var_os("VCOV_UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{table}{}", &readme[..start], &readme[stop..])).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..stop],
        table,
        "README.md's table of functions without body is out of date: run `VCOV_UPDATE_DOCS=1 cargo test --test it readme`"
    );
}
