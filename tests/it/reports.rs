//! What the text reports, `vcov batch` and the error messages tell a person (issue #28): text that
//! wraps, reasons for every "not exact", options passed to a batch's tasks, links to their files, and
//! errors that say what went wrong with the input.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::util::{json, root, vcov};

/// The text summaries' width (`report::TEXT_WIDTH`).
const TEXT_WIDTH: usize = 100;

fn assert_wrapped(text: &str) {
    for line in text.lines() {
        assert!(line.chars().count() <= TEXT_WIDTH, "{} columns: {line}\n{text}", line.chars().count());
    }
}

#[test]
fn r28_7_text_summaries_wrap_and_the_html_report_says_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report");
    let h = html.display().to_string();
    let args =
        ["coverage", "fixtures/c/coverage/endless.c", "--aa", "assumption-automata/true.spc", "--timelimit", "1"];
    let run = vcov(args.iter().copied().chain(["--no-progress", "--html", &h]));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("stopped by the time limit"), "{}", run.stdout);
    // The post-mortem's figure, right below the table (issue #28, 3).
    assert!(run.stdout.lines().nth(3).is_some_and(|l| l.starts_with("  decided: ")), "{}", run.stdout);
    assert_wrapped(&run.stdout);
    assert!(
        run.stderr.contains(&format!("HTML report written to {}", html.join("index.html").display())),
        "{}",
        run.stderr
    );
    let cmp = dir.path().join("cmp");
    let run = vcov([
        "compare",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--aa",
        "assumption-automata/false.spc",
        "--timelimit",
        "1",
        "--no-progress",
        "--html",
        cmp.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_wrapped(&run.stdout);
    assert!(run.stderr.contains(&format!("HTML report written to {}", cmp.join("index.html").display())));
}

#[test]
fn r28_8_compare_says_why_a_result_is_not_exact() {
    let run = vcov([
        "compare",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--aa",
        "assumption-automata/false.spc",
        "--name",
        "all",
        "--name",
        "nothing",
        "--timelimit",
        "1",
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("not exact under all: the search was stopped before it ended (time limit)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("decided under all: "), "{}", run.stdout);
}

/// A CPAchecker-like output folder `dir/name` holding `program` and `automaton`.
fn task_folder(dir: &Path, name: &str, program: &str, automaton: &str) {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(root().join(program), d.join("program.c")).unwrap();
    std::fs::copy(root().join(automaton), d.join("AssumptionAutomaton.txt")).unwrap();
}

#[test]
fn r28_8_a_batch_says_why_passes_options_and_links_each_tasks_files() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = dir.path().join("tasks");
    task_folder(&tasks, "endless", "fixtures/c/coverage/endless.c", "assumption-automata/true.spc");
    task_folder(&tasks, "calls", "fixtures/e2e/calls/program.c", "fixtures/e2e/calls/aa.txt");
    let out = dir.path().join("out");
    let run = vcov([
        "batch",
        tasks.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--timelimit",
        "1",
        "--html",
        "--evidence",
        "--no-progress",
        "--",
        "--assume",
        "fresh-pointers",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let why = "the search was stopped before it ended (time limit)";
    // The text, the table and the page say why the result is not exact.
    assert!(run.stdout.contains(&format!("not exact: {why}")), "{}", run.stdout);
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let row = csv.lines().find(|l| l.starts_with("endless,")).unwrap();
    assert!(row.contains(&format!(",{why},")), "{csv}");
    let page = std::fs::read_to_string(out.join("summary.html")).unwrap().replace("&#x2f;", "/");
    assert!(page.contains(why), "{page}");
    // The options after `--` reached every task.
    for name in ["endless", "calls"] {
        let rec = json(&out.join("tasks").join(format!("{name}.json")));
        assert!(rec["key"].as_str().unwrap().ends_with("--assume fresh-pointers"), "{rec}");
        // Each task's report, evidence and logs are where the page links them.
        for file in [
            format!("html/{name}/index.html"),
            format!("html/{name}/review.html"),
            format!("tasks/{name}.json"),
            format!("logs/{name}.err"),
        ] {
            assert!(out.join(&file).is_file(), "{file}");
        }
        for file in [format!("html/{name}/index.html"), format!("tasks/{name}.json"), format!("logs/{name}.out")] {
            assert!(page.contains(&format!("href=\"{file}\"")), "{file} is not linked: {page}");
        }
        assert!(out.join("evidence").join(name).join("metadata.xml").is_file(), "{name}: no evidence");
        let review = std::fs::read_to_string(out.join("html").join(name).join("review.html")).unwrap();
        assert!(review.contains("--assume fresh-pointers"), "{name}: the reviewer's page lists the options");
    }
    // An option the batch sets itself, or none of the tasks' command, is refused before any task runs.
    for (extra, says) in [("--json", "--json cannot be passed"), ("--no-such-option", "not options of vcov coverage")] {
        let out = dir.path().join("refused");
        let run = vcov(["batch", tasks.to_str().unwrap(), "--out", out.to_str().unwrap(), "--", extra, "x"]);
        assert_eq!(run.code, 2, "{extra}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{extra}: {}", run.stderr);
        assert!(!out.join("tasks").exists(), "{extra}: a task ran");
    }
}

#[test]
fn r28_9_binary_files_and_folders_get_messages_that_help() {
    let dir = tempfile::tempdir().unwrap();
    // A binary file given as the program.
    let binary = dir.path().join("a.out");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0\0\0\0").unwrap();
    let run = vcov(["coverage", binary.to_str().unwrap(), "--aa", "assumption-automata/true.spc"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("a.out:1:1: binary data (byte 0x7f), not text"), "{}", run.stderr);
    assert!(!run.stderr.contains("''"), "no empty token name: {}", run.stderr);
    // A CPAchecker output folder in place of the program: its program and automaton are measured.
    let folder = dir.path().join("output");
    task_folder(dir.path(), "output", "fixtures/e2e/calls/program.c", "fixtures/e2e/calls/aa.txt");
    let from_files =
        vcov(["coverage", "fixtures/e2e/calls/program.c", "--aa", "fixtures/e2e/calls/aa.txt", "--json", "-"]);
    let from_folder = vcov(["coverage", folder.to_str().unwrap(), "--json", "-"]);
    assert_eq!(from_folder.code, 0, "{}", from_folder.stderr);
    let (a, b): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&from_files.stdout).unwrap(), serde_json::from_str(&from_folder.stdout).unwrap());
    assert_eq!(a["line_status"], b["line_status"]);
    assert!(b["program"].as_str().unwrap().ends_with("output/program.c"), "{b}");
    // A folder that is not one says what would do.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let run = vcov(["coverage", empty.to_str().unwrap(), "--aa", "assumption-automata/true.spc"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("a folder, not a C file, and not a CPAchecker output folder"), "{}", run.stderr);
    assert!(!run.stderr.contains("os error 21"), "{}", run.stderr);
}

#[test]
fn r28_9_the_readme_says_replay_with_32_bits_needs_gcc_multilib() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let at = readme.find("## Executions as evidence").expect("the replay section");
    let section = &readme[at..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    assert!(section.contains("gcc-multilib"), "{section}");
}

fn sha256_hex(path: &Path) -> String {
    Sha256::digest(std::fs::read(path).unwrap()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The files under `dir`, by path relative to it with `/`.
fn files_under(dir: &Path, base: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, base, out);
        } else {
            out.push(p.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn r28_provenance_names_the_inputs_the_evidence_and_commands_that_check_them_again() {
    let dir = tempfile::tempdir().unwrap();
    let (evidence, html, report) = (dir.path().join("evidence"), dir.path().join("report"), dir.path().join("r.json"));
    let (program, automaton) = ("fixtures/e2e/calls/program.c", "fixtures/e2e/calls/aa.txt");
    let run = vcov([
        "coverage",
        program,
        "--aa",
        automaton,
        "--assume",
        "fresh-pointers",
        "--evidence",
        evidence.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
        "--json",
        report.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j = json(&report);
    let p = &j["provenance"];
    assert_eq!(p["program"]["sha256"], sha256_hex(&root().join(program)));
    assert_eq!(p["automaton"]["sha256"], sha256_hex(&root().join(automaton)));
    assert_eq!(p["vcov_version"], env!("CARGO_PKG_VERSION"));
    // Every evidence file, with its digest.
    let mut on_disk = Vec::new();
    files_under(&evidence, &evidence, &mut on_disk);
    on_disk.sort();
    let listed: Vec<String> =
        p["evidence"]["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap().to_string()).collect();
    assert_eq!(listed, on_disk);
    for f in p["evidence"]["files"].as_array().unwrap() {
        assert_eq!(f["sha256"], sha256_hex(&evidence.join(f["file"].as_str().unwrap())), "{f}");
    }
    // The command that measures again gives the same figures.
    let commands: Vec<&str> = p["recheck"].as_array().unwrap().iter().map(|c| c["command"].as_str().unwrap()).collect();
    let again = commands.iter().find(|c| c.starts_with("vcov coverage ")).expect("a command measuring again");
    assert!(again.contains("--assume fresh-pointers"), "{again}");
    let words: Vec<&str> = again.split_whitespace().skip(1).chain(["--json", "-", "--no-progress"]).collect();
    let rerun = vcov(&words);
    assert_eq!(rerun.code, 0, "{again}: {}", rerun.stderr);
    let rj: serde_json::Value = serde_json::from_str(&rerun.stdout).unwrap();
    assert_eq!(rj["line_status"], j["line_status"], "{again}");
    assert!(commands.iter().any(|c| c.starts_with("sha256sum ")), "{commands:?}");
    assert!(
        commands.iter().any(|c| c.starts_with("vcov replay ") && c.contains(evidence.to_str().unwrap())),
        "{commands:?}"
    );
    // The reviewer's page shows the digests and the commands.
    let review = std::fs::read_to_string(html.join("review.html")).unwrap().replace("&#x2f;", "/");
    for digest in [&p["program"]["sha256"], &p["automaton"]["sha256"], &p["evidence"]["files"][0]["sha256"]] {
        assert!(review.contains(digest.as_str().unwrap()), "{digest}");
    }
    assert!(review.contains(&again.replace('\'', "&#x27;")) || review.contains(again), "{again}");
}
