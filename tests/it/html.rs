//! The HTML report as a browser builds it: headless Chromium loads the page from a file URL and
//! dumps the DOM; every source line's status cell must carry the JSON report's `line_status`, and
//! every link inside the page must resolve to a file. Without Chromium the tests say they were
//! skipped, loudly, unless `VCOV_REQUIRE_CHROMIUM=1` (set by `.ci/run`) makes that a failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{json, vcov};

/// The DOM Chromium builds for `page`, or `None` (after saying so) when Chromium is missing.
fn dom(page: &Path) -> Option<String> {
    let profile = tempfile::tempdir().unwrap();
    let run = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--allow-file-access-from-files"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.canonicalize().unwrap().display()))
        .output();
    match run {
        Ok(out) if out.status.success() => Some(String::from_utf8_lossy(&out.stdout).into_owned()),
        Ok(out) => panic!("chromium failed: {}", String::from_utf8_lossy(&out.stderr)),
        Err(e) => {
            assert!(
                std::env::var_os("VCOV_REQUIRE_CHROMIUM").is_none(),
                "VCOV_REQUIRE_CHROMIUM is set but chromium cannot run: {e}"
            );
            eprintln!("SKIPPED: the HTML report was not checked in a browser (chromium not installed: {e})");
            None
        }
    }
}

/// For every source line of the DOM, the status of each configuration's cell: line -> config -> status.
fn statuses(dom: &str) -> BTreeMap<u32, BTreeMap<String, String>> {
    let row = regex::Regex::new(r#"<tr id="L(\d+)" data-line="(\d+)">(.*?)</tr>"#).unwrap();
    let cell = regex::Regex::new(r#"<td class="st st-(\w+)" data-config="([^"]*)""#).unwrap();
    let mut out = BTreeMap::new();
    for r in row.captures_iter(dom) {
        let n: u32 = r[1].parse().unwrap();
        assert_eq!(&r[1], &r[2]);
        let cells = cell.captures_iter(&r[3]).map(|c| (html_unescape(&c[2]), c[1].to_string())).collect();
        out.insert(n, cells);
    }
    out
}

fn html_unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// Every `href`/`src` of the DOM that is not an anchor resolves to an existing file from `dir`;
/// returns how many there were.
fn check_links(dom: &str, dir: &Path) -> usize {
    let link = regex::Regex::new(r#"(?:href|src)="([^"]*)""#).unwrap();
    let mut n = 0;
    for c in link.captures_iter(dom) {
        let target = html_unescape(&c[1]);
        if let Some(anchor) = target.strip_prefix('#') {
            assert!(dom.contains(&format!("id=\"{anchor}\"")), "anchor #{anchor} has no element");
            continue;
        }
        assert!(!target.contains("://"), "a link leaves the report: {target}");
        assert!(dir.join(&target).is_file(), "{target} does not resolve from {}", dir.display());
        n += 1;
    }
    n
}

/// The expected status of each source line from a JSON report (`none` for lines not to cover).
fn expected(report: &serde_json::Value, n_lines: usize) -> BTreeMap<u32, String> {
    (1..=n_lines as u32)
        .map(|l| (l, report["line_status"][l.to_string()].as_str().unwrap_or("none").to_string()))
        .collect()
}

fn coverage_page(program: &str, aa: &str, extra: &[&str]) -> (tempfile::TempDir, PathBuf, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report");
    let report = dir.path().join("r.json");
    let mut args = vec!["coverage", program, "--aa", aa, "--no-progress"];
    let (h, r) = (html.display().to_string(), report.display().to_string());
    args.extend(["--html", &h, "--json", &r]);
    let ev = dir.path().join("evidence").display().to_string();
    if extra.contains(&"--evidence") {
        args.extend(["--evidence", &ev]);
    }
    args.extend(extra.iter().filter(|a| **a != "--evidence"));
    let run = vcov(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j = json(&report);
    (dir, html, j)
}

#[test]
fn every_line_shows_the_status_of_the_json_report_in_the_browser() {
    let program = "fixtures/e2e/calls/program.c";
    let (_dir, html, j) = coverage_page(program, "fixtures/e2e/calls/aa.txt", &["--evidence"]);
    let page = html.join("index.html");
    assert!(page.is_file());
    let Some(dom) = dom(&page) else { return };
    let n_lines = std::fs::read_to_string(crate::util::root().join(program)).unwrap().lines().count();
    let got = statuses(&dom);
    assert_eq!(got.len(), n_lines, "one row per source line");
    let want = expected(&j, n_lines);
    for (line, cells) in &got {
        assert_eq!(cells.len(), 1, "line {line}: one configuration");
        let status = cells.values().next().unwrap();
        assert_eq!(status, &want[line], "line {line}");
    }
    assert!(want.values().any(|s| s == "covered") && want.values().any(|s| s == "none"));
    // Each execution links its Test-Comp test and counterexample automaton, which exist.
    let links = check_links(&dom, &html);
    assert_eq!(links, 2 * j["executions"].as_array().unwrap().len(), "{dom}");
    // The script ran: the page recorded its load time.
    assert!(dom.contains("data-load-ms="), "no load time recorded");
    // The plots are inline SVG.
    assert!(dom.contains("<svg") && !dom.contains("<img"), "charts are inline");
}

#[test]
fn a_bug_links_its_witness_and_unknown_lines_say_why() {
    let (_dir, html, j) =
        coverage_page("fixtures/c/coverage/error_label.c", "assumption-automata/true.spc", &["--evidence"]);
    assert_eq!(j["bug_found"], true);
    let Some(dom) = dom(&html.join("index.html")) else { return };
    assert!(dom.contains("witness.graphml"), "the witness is linked");
    check_links(&dom, &html);
    let got = statuses(&dom);
    let n = got.len();
    let want = expected(&j, n);
    for (line, cells) in got {
        assert_eq!(cells.values().next().unwrap(), &want[&line], "line {line}");
    }
}

#[test]
fn compare_shows_one_status_column_per_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("cmp");
    let program = "fixtures/e2e/branches/program.c";
    let automata = ["fixtures/e2e/branches/aa_then_explored.txt", "fixtures/e2e/branches/aa_else_prefix.txt"];
    let run = vcov([
        "compare",
        program,
        "--aa",
        automata[0],
        "--aa",
        automata[1],
        "--name",
        "then<1>",
        "--name",
        "else",
        "--html",
        html.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let Some(dom) = dom(&html.join("index.html")) else { return };
    let n_lines = std::fs::read_to_string(crate::util::root().join(program)).unwrap().lines().count();
    let got = statuses(&dom);
    assert_eq!(got.len(), n_lines);
    for (name, aa) in ["then<1>", "else"].iter().zip(automata) {
        let report = dir.path().join("single.json");
        let single = vcov(["coverage", program, "--aa", aa, "--json", report.to_str().unwrap(), "--no-progress"]);
        assert_eq!(single.code, 0, "{}", single.stderr);
        let want = expected(&json(&report), n_lines);
        for (line, cells) in &got {
            assert_eq!(cells.len(), 2, "line {line}: two configurations");
            assert_eq!(cells[*name], want[line], "{name}, line {line}");
        }
    }
    // The configurations differ somewhere, and the bar chart names both.
    assert!(got.values().any(|c| c["then<1>"] != c["else"]));
    assert!(dom.contains("then&lt;1&gt;") && !dom.contains("then<1>"), "names are escaped");
    check_links(&dom, &html);
}

#[test]
fn the_batch_summary_page_plots_the_solved_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = vcov([
        "batch",
        "fixtures/c/verify",
        "--mode",
        "verify",
        "--out",
        out.to_str().unwrap(),
        "--html",
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let page = out.join("summary.html");
    assert!(page.is_file(), "summary.html written");
    let Some(dom) = dom(&page) else { return };
    let rows = regex::Regex::new(r#"<tr class="(\w*)" data-task="([^"]+)">"#).unwrap();
    let tasks: Vec<(String, String)> = rows.captures_iter(&dom).map(|c| (c[1].to_string(), c[2].to_string())).collect();
    assert_eq!(tasks.len(), 5, "{tasks:?}");
    assert!(tasks.iter().all(|(class, _)| class.is_empty()), "every answer is correct: {tasks:?}");
    // The quantile plot has one step per solved task: a move to the origin, then two lines per point.
    let path = regex::Regex::new(r#"<path class="series" data-series="correct answers" d="([^"]+)""#).unwrap();
    let d = path.captures(&dom).expect("the quantile plot")[1].to_string();
    assert_eq!(d.matches('L').count(), 2 * 5, "{d}");
    assert!(dom.contains("SV-COMP 2016 score: 7"), "the summary text is on the page");
    check_links(&dom, &out);
}
