//! Malformed inputs (`fixtures/bad/cases.txt`): every one is rejected with exit code 2 and a message
//! naming the file (and the line and column where a position is meaningful), without a panic and
//! without leaving an output file behind.

use std::path::{Path, PathBuf};

use crate::util::{root, vcov};

/// One line of the manifest.
struct Case {
    /// The malformed file, relative to `fixtures/bad`.
    file: String,
    /// `line:col` the message must name, or `None` for `-`.
    position: Option<String>,
    /// The vcov arguments, with placeholders.
    args: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(root().join("fixtures/bad/cases.txt")).expect("manifest");
    let mut res = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut words = line.split_whitespace().map(str::to_string);
        let file = words.next().expect("file");
        let position = words.next().expect("position");
        let position = (position != "-").then_some(position);
        res.push(Case { file, position, args: words.collect() });
    }
    res
}

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path, base: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, base, out);
        } else {
            out.push(p.strip_prefix(base).unwrap().to_string_lossy().into_owned());
        }
    }
}

#[test]
fn every_bad_input_is_rejected_cleanly() {
    let cases = cases();
    assert!(cases.len() >= 35, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let rel = format!("fixtures/bad/{}", case.file);
        assert!(root().join(&rel).exists(), "{rel} is in the manifest but does not exist");
        let dir = Path::new(&rel).parent().unwrap().to_string_lossy().into_owned();
        let tmp = tempfile::tempdir().unwrap();
        let out: PathBuf = tmp.path().join("out");
        let args: Vec<String> = case
            .args
            .iter()
            .map(|a| a.replace("{file}", &rel).replace("{dir}", &dir).replace("{out}", &out.to_string_lossy()))
            .collect();
        let run = vcov(&args);
        let mut problems = Vec::new();
        if run.code != 2 {
            problems.push(format!("exit code {} (expected 2)", run.code));
        }
        let named = match &case.position {
            Some(pos) => format!("{rel}:{pos}: "),
            None => rel.to_string(),
        };
        if !run.stderr.contains(&named) {
            problems.push(format!("stderr does not name `{named}`"));
        }
        if run.stderr.contains("panicked") || run.stderr.contains("RUST_BACKTRACE") {
            problems.push("panic".to_string());
        }
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        if !left.is_empty() {
            problems.push(format!("left files behind: {left:?}"));
        }
        if !problems.is_empty() {
            failures.push(format!("vcov {}: {}\n  stderr: {}", args.join(" "), problems.join("; "), run.stderr.trim()));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// The manifest lists every file of `fixtures/bad` (so none is forgotten), except the suite files a
/// replay case needs besides the one at fault.
#[test]
fn the_manifest_lists_every_bad_file() {
    let base = root().join("fixtures/bad");
    let mut files = Vec::new();
    files_under(&base, &base, &mut files);
    let listed: Vec<String> = cases().into_iter().map(|c| c.file).collect();
    let mut missing: Vec<_> =
        files.into_iter().filter(|f| f != "cases.txt" && !f.starts_with("replay/") && !listed.contains(f)).collect();
    missing.sort();
    assert!(missing.is_empty(), "not in fixtures/bad/cases.txt: {missing:?}");
}

/// Control: the companions the manifest pairs with bad files are themselves accepted, so each case
/// fails only because of its bad file.
#[test]
fn companions_of_bad_inputs_are_valid() {
    let run = vcov([
        "coverage",
        "fixtures/e2e/calls/program.c",
        "--aa",
        "fixtures/e2e/calls/aa.txt",
        "--max-executions",
        "0",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run =
        vcov(["verify", "fixtures/c/verify/bug_call.c", "--prop", "fixtures/c/verify/properties/unreach-call.prp"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A Latin-1 byte inside a string literal is not an error (the file is read leniently).
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("latin1.c");
    std::fs::write(&p, b"int main(void) {\n    char *s = \"caf\xe9\";\n    return s[0] == 0;\n}\n").unwrap();
    let run = vcov(["cfa".as_ref(), p.as_os_str()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn nesting_up_to_the_limit_goes_through_every_stage() {
    // 996 additions inside an assignment, and 4,990 `if` one inside the other: just under the limits
    // (1000 levels of expressions, 5000 of statements) that `fixtures/bad/c/nested_*_too_deep.c`
    // exceed.
    let dir = tempfile::tempdir().unwrap();
    let sum = dir.path().join("sum.c");
    let terms = vec!["1"; 996].join("+");
    std::fs::write(&sum, format!("int main(void) {{\n  int x = 0;\n  x = {terms};\n  return x;\n}}\n")).unwrap();
    let nest = dir.path().join("nest.c");
    let ifs = "if (x) ".repeat(4990);
    std::fs::write(
        &nest,
        format!(
            "extern int __VERIFIER_nondet_int(void);\nint main(void) {{\n  int x = __VERIFIER_nondet_int();\n\
             \x20 {ifs}x = 1;\n  return x;\n}}\n"
        ),
    )
    .unwrap();
    for program in [&sum, &nest] {
        let p = program.to_str().unwrap();
        let run = vcov(["coverage", p, "--aa", "assumption-automata/true.spc", "--no-progress"]);
        assert_eq!(run.code, 0, "{p}: {}", run.stderr);
        assert!(run.stdout.contains("exact"), "{p}: {}", run.stdout);
        let run = vcov(["verify", p]);
        assert_eq!(run.code, 0, "{p}: {}", run.stderr);
        assert!(run.stdout.contains("TRUE"), "{p}: {}", run.stdout);
    }
}
