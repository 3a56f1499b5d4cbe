//! What the text reports, `vcov batch` and the error messages tell a person (issue #28): text that
//! wraps, reasons for every "not exact", options passed to a batch's tasks, links to their files, and
//! errors that say what went wrong with the input.

use std::path::Path;

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
