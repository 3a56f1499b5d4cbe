//! The HTML report as a browser builds it: headless Chromium loads the page from a file URL and
//! dumps the DOM; every source line's status cell must carry the JSON report's `line_status`, and
//! every link inside the page must resolve to a file. The tests are ignored where `chromium` could
//! not run when they were built, unless `CI` was set (`.ci/run` installs it): then they fail without
//! it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{json, run_json_to, vcov};

/// The DOM Chromium builds for `page`.
fn dom(page: &Path) -> String {
    chromium_dom(page, &[])
}

/// The DOM headless Chromium builds for `page` with the extra command-line `args`; fails the test
/// when Chromium cannot run.
fn chromium_dom(page: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--allow-file-access-from-files"])
        .args(args)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.canonicalize().unwrap().display()))
        .output()
        .unwrap_or_else(|e| {
            panic!("this test needs chromium, which cannot run here (install the package chromium): {e}")
        });
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The window the layout tests use: a laptop screen (issue #28 looked at the reports in this one).
const WINDOW: &str = "--window-size=1400,2000";

/// Loads `page` in headless Chromium (a 1400 x 2000 window) and runs `script`, the body of a
/// JavaScript function returning a value, at the page's load event (after the page's own scripts);
/// returns that value. The page loaded is a copy beside it with the script appended, so its links,
/// styles and layout are the page's own.
fn measure(page: &Path, script: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(page).unwrap();
    let at = text.rfind("</body>").expect("the page has a body");
    let probe = format!(
        r#"<script>window.addEventListener("load", function () {{ var v = (function () {{ {script} }})(); var p = document.createElement("pre"); p.id = "vcov-measure"; p.textContent = JSON.stringify(v); document.body.appendChild(p); }});</script>"#
    );
    let copy = page.with_file_name(format!("measured-{}", page.file_name().unwrap().to_string_lossy()));
    std::fs::write(&copy, format!("{}{probe}{}", &text[..at], &text[at..])).unwrap();
    let dom = chromium_dom(&copy, &[WINDOW]);
    std::fs::remove_file(&copy).unwrap();
    let found = regex::Regex::new(r#"<pre id="vcov-measure">(.*?)</pre>"#).unwrap();
    let value =
        found.captures(&dom).unwrap_or_else(|| panic!("the measuring script did not run: {dom}"))[1].to_string();
    serde_json::from_str(&html_unescape(&value)).unwrap()
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
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn every_line_shows_the_status_of_the_json_report_in_the_browser() {
    let program = "fixtures/e2e/calls/program.c";
    let (_dir, html, j) = coverage_page(program, "fixtures/e2e/calls/aa.txt", &["--evidence"]);
    let page = html.join("index.html");
    assert!(page.is_file());
    let dom = dom(&page);
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
    let evidence = dom.matches(">Test-Comp test</a>").count() + dom.matches(">counterexample automaton</a>").count();
    assert_eq!(evidence, 2 * j["executions"].as_array().unwrap().len(), "{dom}");
    // Besides the evidence, the page links the reviewer's page (from the note and the navigation).
    assert_eq!(links, evidence + 2, "{dom}");
    // The script ran: the page recorded its load time.
    assert!(dom.contains("data-load-ms="), "no load time recorded");
    // The plots are inline SVG.
    assert!(dom.contains("<svg") && !dom.contains("<img"), "charts are inline");
}

#[test]
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn a_bug_links_its_witness_and_unknown_lines_say_why() {
    let (_dir, html, j) =
        coverage_page("fixtures/c/coverage/error_label.c", "assumption-automata/true.spc", &["--evidence"]);
    assert_eq!(j["bug_found"], true);
    let dom = dom(&html.join("index.html"));
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
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
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
    let dom = dom(&html.join("index.html"));
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
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
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
    let dom = dom(&page);
    let rows = regex::Regex::new(r#"<tr class="(\w*)" data-task="([^"]+)">"#).unwrap();
    let tasks: Vec<(String, String)> = rows.captures_iter(&dom).map(|c| (c[1].to_string(), c[2].to_string())).collect();
    // Every task file of the fixture directory is a row; each expected `true` scores 2, each `false` 1.
    let (mut task_files, mut score) = (0, 0);
    for entry in std::fs::read_dir("fixtures/c/verify").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yml") {
            task_files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            score += if text.contains("expected_verdict: true") { 2 } else { 1 };
        }
    }
    assert_eq!(tasks.len(), task_files, "{tasks:?}");
    assert!(tasks.iter().all(|(class, _)| class.is_empty()), "every answer is correct: {tasks:?}");
    // The quantile plot has one point per solved task, joined by lines, from the first task on.
    let path = regex::Regex::new(r#"<path class="series" data-series="correct answers" d="([^"]+)""#).unwrap();
    let d = path.captures(&dom).expect("the quantile plot")[1].to_string();
    assert_eq!(d.matches('L').count(), task_files - 1, "{d}");
    assert_eq!(dom.matches(r#"<circle class="point""#).count(), task_files);
    // Its x axis counts tasks: whole numbers from 1 (issue #28: not 0.80, 1.60 from 0).
    let ticks: Vec<usize> = regex::Regex::new(r#"<text class="xtick"[^>]*>([^<]*)</text>"#)
        .unwrap()
        .captures_iter(&dom)
        .map(|c| c[1].parse().unwrap_or_else(|_| panic!("a tick that is not a whole number: {}", &c[1])))
        .collect();
    assert_eq!(ticks.first(), Some(&1), "{ticks:?}");
    assert!(ticks.windows(2).all(|w| w[0] < w[1]) && *ticks.last().unwrap() >= task_files, "{ticks:?}");
    assert!(dom.contains(&format!("SV-COMP 2016 score: {score}")), "the summary text is on the page");
    let m = measure(&page, PROBE);
    assert_readable(&m, "summary.html");
    // Each task links its record and logs, which exist.
    assert!(dom.contains(r#"href="tasks/bug_call.json""#) && dom.contains(r#"href="logs/bug_call.err""#), "{dom}");
    check_links(&dom, &out);
}

// Issue #28: the reports as a person sees them, measured in a 1400 x 2000 window.

/// What the layout tests read off a page: the status cells (how many, the narrowest, the colour of
/// each status), the stacked bars' and legends' colours, whether the page scrolls sideways, the
/// summary's extent, the width of the `exact` reason, the headline, the charts (their box, their
/// texts' extent, x ticks and series) and the load time the page recorded.
const PROBE: &str = r#"
var all = function (q, root) { return Array.prototype.slice.call((root || document).querySelectorAll(q)); };
var cells = all("td.st");
var widths = cells.map(function (c) { return c.getBoundingClientRect().width; });
var colours = {};
cells.forEach(function (c) { var s = c.className.replace(/^st st-/, ""); if (!(s in colours)) colours[s] = getComputedStyle(c).backgroundColor; });
var bars = {};
all("rect.part").forEach(function (r) { bars[r.dataset.status] = getComputedStyle(r).fill; });
var legend = {};
all(".legend .sw").forEach(function (s) { legend[s.className.replace(/^sw st-/, "")] = getComputedStyle(s).backgroundColor; });
var summary = document.querySelector("table.summary");
var exact = null;
all("dl.details dt").forEach(function (dt) { if (exact === null && dt.textContent === "exact") exact = dt.nextElementSibling.getBoundingClientRect().width; });
var headline = document.querySelector("p.headline");
// Words broken across lines: of the summary's headers and figures (a configuration's name aside),
// and of every table's headers, numbers and statuses.
var brokenIn = function (cells) {
  var broken = [];
  cells.forEach(function (cell) {
  var walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), node;
  while ((node = walk.nextNode())) {
    // A word: what lies between spaces, hyphens and slashes, where lines may break.
    var word = /[^\s\-\/]+/g, m;
    while ((m = word.exec(node.data))) {
      var r = document.createRange();
      r.setStart(node, m.index);
      r.setEnd(node, m.index + m[0].length);
      if (r.getClientRects().length > 1) broken.push(m[0]);
    }
  }
  });
  return broken;
};
var broken = summary ? brokenIn(all("th, td:not(:first-child)", summary)) : [];
var charts = all("svg.chart").map(function (svg) {
  var box = svg.getBoundingClientRect();
  var texts = all("text", svg).map(function (t) { return t.getBoundingClientRect(); });
  return {
    title: svg.getAttribute("aria-label"), left: box.left, right: box.right,
    text_left: Math.min.apply(null, texts.map(function (r) { return r.left; })),
    text_right: Math.max.apply(null, texts.map(function (r) { return r.right; })),
    xticks: all("text.xtick", svg).map(function (t) { return [t.textContent, Number(t.getAttribute("x"))]; }),
    series: all("path.series", svg).map(function (p) { var b = p.getBBox(); return { name: p.dataset.series, right: b.x + b.width, stroke: getComputedStyle(p).stroke, dash: p.getAttribute("stroke-dasharray") || "" }; })
  };
});
return {
  cells: cells.length, min_cell: cells.length ? Math.min.apply(null, widths) : null,
  colours: colours, bars: bars, legend: legend,
  scroll_width: document.documentElement.scrollWidth, inner_width: window.innerWidth,
  summary_right: summary ? summary.getBoundingClientRect().right : null,
  summary_top: summary ? summary.getBoundingClientRect().top : null,
  summary_cells_right: summary ? Math.max.apply(null, all("th, td", summary).map(function (c) { return c.getBoundingClientRect().right; })) : null,
  exact_width: exact,
  summary_broken_words: broken,
  broken_words: brokenIn(all("th, td.num, td.status")),
  headline: headline ? headline.textContent : null,
  headline_top: headline ? headline.getBoundingClientRect().top : null,
  charts: charts,
  line_links: all("a.line").map(function (a) { return a.getAttribute("href"); }),
  load_ms: Number(document.body.dataset.loadMs)
};
"#;

/// How many lines of `report` have each status.
fn status_counts(report: &serde_json::Value) -> BTreeMap<String, usize> {
    let mut res = BTreeMap::new();
    for s in report["line_status"].as_object().unwrap().values() {
        *res.entry(s.as_str().unwrap().to_string()).or_default() += 1;
    }
    res
}

fn n_source_lines(program: &str) -> usize {
    std::fs::read_to_string(crate::util::root().join(program)).unwrap().lines().count()
}

/// The page's layout in the window: no sideways scrolling, status cells a person can see.
fn assert_readable(m: &serde_json::Value, what: &str) {
    let (scroll, inner) = (m["scroll_width"].as_f64().unwrap(), m["inner_width"].as_f64().unwrap());
    assert!(scroll <= inner, "{what}: the page scrolls sideways ({scroll} px in a {inner} px window)");
    assert_eq!(m["broken_words"], serde_json::json!([]), "{what}: words of tables broken across lines");
    for c in m["charts"].as_array().unwrap() {
        let (l, r) = (c["left"].as_f64().unwrap(), c["right"].as_f64().unwrap());
        let inside = c["text_left"].as_f64().unwrap() >= l - 0.5 && c["text_right"].as_f64().unwrap() <= r + 0.5;
        assert!(inside, "{what}: a label of a chart is cut: {c}");
    }
    if m["cells"].as_u64().unwrap() > 0 {
        let min = m["min_cell"].as_f64().unwrap();
        assert!(min >= 10.0, "{what}: a status cell is {min} px wide");
    }
}

#[test]
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn r28_1_status_cells_stay_visible_beside_a_400_character_line() {
    let program = "fixtures/e2e/longline/program.c";
    let n = n_source_lines(program);
    assert!(std::fs::read_to_string(crate::util::root().join(program)).unwrap().lines().any(|l| l.len() == 400));
    let (_dir, html, _) = coverage_page(program, "assumption-automata/true.spc", &[]);
    let m = measure(&html.join("index.html"), PROBE);
    assert_eq!(m["cells"], n as u64, "one status cell per line");
    assert_readable(&m, "coverage");
    let dir = tempfile::tempdir().unwrap();
    let cmp = dir.path().join("cmp");
    let run = vcov([
        "compare",
        program,
        "--aa",
        "assumption-automata/true.spc",
        "--aa",
        "assumption-automata/false.spc",
        "--html",
        cmp.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = measure(&cmp.join("index.html"), PROBE);
    assert_eq!(m["cells"], 2 * n as u64, "two status cells per line");
    assert_readable(&m, "compare");
}

#[test]
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn r28_2_the_summary_fits_a_1400_px_window_with_its_reasons_readable() {
    // A run the time limit stops: the summary says why it is not exact, in a sentence.
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report");
    let h = html.display().to_string();
    let j = run_json_to(
        &[
            "coverage",
            "fixtures/c/coverage/endless.c",
            "--aa",
            "assumption-automata/true.spc",
            "--timelimit",
            "1",
            "--html",
            &h,
        ],
        &dir.path().join("r.json"),
    );
    assert_eq!(j["exact"], false);
    let m = measure(&html.join("index.html"), PROBE);
    assert_readable(&m, "coverage");
    let inner = m["inner_width"].as_f64().unwrap();
    assert!(m["summary_right"].as_f64().unwrap() <= inner, "{m}");
    assert!(m["summary_cells_right"].as_f64().unwrap() <= inner, "a column of the summary is cut off: {m}");
    assert_eq!(m["summary_broken_words"], serde_json::json!([]), "words of the summary broken across lines");
    // The reason reads as a sentence, not one word a line.
    assert!(m["exact_width"].as_f64().unwrap() >= 400.0, "{m}");
    // Three configurations with long names side by side.
    let cmp = dir.path().join("cmp");
    let run = vcov([
        "compare",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--aa",
        "assumption-automata/false.spc",
        "--aa",
        "assumption-automata/true.spc",
        "--name",
        "predicate-analysis-with-a-long-configuration-name",
        "--name",
        "value-analysis-with-a-long-configuration-name",
        "--name",
        "predicate-analysis-again-with-a-long-configuration-name",
        "--timelimit",
        "2",
        "--html",
        cmp.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = measure(&cmp.join("index.html"), PROBE);
    assert_readable(&m, "compare");
    assert!(m["summary_cells_right"].as_f64().unwrap() <= inner, "a column of the summary is cut off: {m}");
    assert_eq!(m["summary_broken_words"], serde_json::json!([]), "words of the summary broken across lines");
}

#[test]
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn r28_3_the_decided_share_heads_the_summary_and_the_bars_show_every_status() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report");
    let h = html.display().to_string();
    let j = run_json_to(
        &[
            "coverage",
            "fixtures/c/coverage/endless.c",
            "--aa",
            "assumption-automata/true.spc",
            "--timelimit",
            "1",
            "--no-induction",
            "--html",
            &h,
        ],
        &dir.path().join("r.json"),
    );
    let c = status_counts(&j);
    let get = |s: &str| c.get(s).copied().unwrap_or(0);
    let decided = get("covered") + get("not_coverable");
    let undecided = get("unknown") + get("over_only");
    assert!(undecided > 0 && decided > 0, "{c:?}");
    let over = decided + undecided;
    let m = measure(&html.join("index.html"), PROBE);
    let headline = m["headline"].as_str().expect("a headline");
    let want = format!(
        "{decided} of the {over} lines of the over-approximation ({:.1}%) are decided: {} covered, {} proven not coverable; {undecided} ({:.1}%) are undecided",
        100.0 * decided as f64 / over as f64,
        get("covered"),
        get("not_coverable"),
        100.0 * undecided as f64 / over as f64
    );
    assert!(headline.starts_with(&want), "{headline}\nwant: {want}");
    assert!(m["headline_top"].as_f64() < m["summary_top"].as_f64(), "the headline comes first: {m}");
    // The bars split by status: every status of the report has its part, of its number of lines.
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    for (status, n) in &c {
        let part = regex::Regex::new(&format!(r#"<rect class="part" data-status="{status}"[^>]*><title>[^<]*: {n} "#))
            .unwrap();
        assert!(part.is_match(&page), "no {status} part of {n} lines");
    }
}

/// The x value of a chart at `v`, from its x ticks (value, position).
fn x_at(ticks: &[serde_json::Value], v: f64) -> f64 {
    let t: Vec<(f64, f64)> =
        ticks.iter().map(|t| (t[0].as_str().unwrap().parse::<f64>().unwrap(), t[1].as_f64().unwrap())).collect();
    let ((v0, x0), (v1, x1)) = (t[0], t[t.len() - 1]);
    x0 + (x1 - x0) * (v - v0) / (v1 - v0)
}

/// Every chart's texts lie inside it, and "Lines covered against time" runs each series until its
/// search ended (`ends`, seconds, by series name).
fn assert_time_plot(m: &serde_json::Value, ends: &BTreeMap<String, f64>) {
    let charts = m["charts"].as_array().unwrap();
    for c in charts {
        let (l, r) = (c["left"].as_f64().unwrap(), c["right"].as_f64().unwrap());
        assert!(
            c["text_left"].as_f64().unwrap() >= l - 0.5 && c["text_right"].as_f64().unwrap() <= r + 0.5,
            "a label is cut: {c}"
        );
    }
    let time = charts.iter().find(|c| c["title"] == "Lines covered against time").expect("the time plot");
    let ticks = time["xticks"].as_array().unwrap();
    let last: f64 = ticks.last().unwrap()[0].as_str().unwrap().parse().unwrap();
    for s in time["series"].as_array().unwrap() {
        let end = ends[s["name"].as_str().unwrap()];
        assert!(last >= end, "the axis ends at {last} s, before the search ({end} s)");
        let right = s["right"].as_f64().unwrap();
        assert!(right >= x_at(ticks, end) - 1.0, "{s} stops before {end} s (x {})", x_at(ticks, end));
    }
}

#[test]
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn r28_4_lines_against_time_runs_until_the_search_ended() {
    // The last line is found at once; the search goes on until the time limit.
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report");
    let h = html.display().to_string();
    let j = run_json_to(
        &[
            "coverage",
            "fixtures/c/coverage/endless.c",
            "--aa",
            "assumption-automata/true.spc",
            "--timelimit",
            "2",
            "--html",
            &h,
        ],
        &dir.path().join("r.json"),
    );
    let search = j["time_seconds"]["search"].as_f64().unwrap();
    let last_found = j["timeline"].as_array().unwrap().last().unwrap()[0].as_f64().unwrap();
    assert!(search > 1.5 && last_found < 1.0, "{search} {last_found}");
    let m = measure(&html.join("index.html"), PROBE);
    let time = m["charts"].as_array().unwrap().iter().find(|c| c["title"] == "Lines covered against time").unwrap();
    let name = time["series"][0]["name"].as_str().unwrap().to_string();
    assert_time_plot(&m, &BTreeMap::from([(name, search)]));
    // The same in compare, for both configurations.
    let cmp = dir.path().join("cmp");
    let one = dir.path().join("c.json");
    let run = vcov([
        "compare",
        "fixtures/c/coverage/endless.c",
        "--aa",
        "assumption-automata/true.spc",
        "--aa",
        "assumption-automata/true.spc",
        "--name",
        "first",
        "--name",
        "second",
        "--timelimit",
        "2",
        "--html",
        cmp.to_str().unwrap(),
        "--json",
        one.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cj = json(&one);
    let ends: BTreeMap<String, f64> = cj["names"]
        .as_array()
        .unwrap()
        .iter()
        .zip(cj["configurations"].as_array().unwrap())
        .map(|(n, c)| (n.as_str().unwrap().to_string(), c["time_seconds"]["search"].as_f64().unwrap()))
        .collect();
    assert_eq!(ends.len(), 2, "{cj}");
    let m = measure(&cmp.join("index.html"), PROBE);
    assert_time_plot(&m, &ends);
}

#[test]
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn r28_6_a_status_has_one_colour_everywhere() {
    let dir = tempfile::tempdir().unwrap();
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
        "--html",
        cmp.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let m = measure(&cmp.join("index.html"), PROBE);
    assert_readable(&m, "compare");
    let (cells, bars, legend) = (&m["colours"], &m["bars"], &m["legend"]);
    // Lines covered, undecided and unexplored: the same colour in the source, the bars and the legend.
    let present: Vec<&String> = cells.as_object().unwrap().keys().filter(|s| *s != "none").collect();
    assert!(present.len() >= 3, "covered, undecided and unexplored lines: {cells}");
    for status in present {
        assert_eq!(cells[status], bars[status], "{status}: source and bars");
        assert_eq!(cells[status], legend[status], "{status}: source and legend");
    }
    // Five statuses, five colours, none of them the background of a line not to cover.
    let mut seen: Vec<&str> = legend.as_object().unwrap().values().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(seen.len(), 6, "five statuses and 'not a line to cover': {legend}");
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), 6, "{legend}");
    // In the plots, configurations are told apart by their dash, not by a colour of their own: the
    // lines covered are drawn in the colour of covered lines.
    for c in
        m["charts"].as_array().unwrap().iter().filter(|c| c["title"].as_str().unwrap().starts_with("Lines covered"))
    {
        let series = c["series"].as_array().unwrap();
        assert!(series.iter().all(|s| s["stroke"] == cells["covered"]), "{c}");
        let dashes: std::collections::BTreeSet<&str> = series.iter().map(|s| s["dash"].as_str().unwrap()).collect();
        assert_eq!(dashes.len(), series.len(), "{c}");
    }
}

/// A program of `n` functions of 16 lines each, and a `main` calling three of every four under a
/// condition of their own (the fourth is never called, so its lines are unexplored): every function
/// has a loop the search does not finish and a branch on a global.
fn big_program(n: usize) -> String {
    let mut s = String::from("int __VERIFIER_nondet_int(void);\nint g;\n");
    for i in 0..n {
        s.push_str(&format!(
            "int f{i}(int x) {{\n  int s = 0;\n  for (int k = 0; k < x; k++) {{\n    s = s + __VERIFIER_nondet_int();\n  }}\n  \
             if (s == {i}12345 && x < 0) {{\n    s = 0;\n  }}\n  if (x > {i}) {{\n    g = g + 1;\n  }} else {{\n    g = g - 1;\n  \
             }}\n  return s;\n}}\n\n"
        ));
    }
    s.push_str("int main(void) {\n  int c = __VERIFIER_nondet_int();\n");
    for i in (0..n).filter(|i| i % 4 != 3) {
        s.push_str(&format!("  if (c == {i}) {{ f{i}(__VERIFIER_nondet_int()); }}\n"));
    }
    s.push_str("  return 0;\n}\n");
    s
}

/// Sorts the functions table by its `undecided` column, then filters it: functions with undecided
/// lines, then names containing `f12`.
const TABLE_PROBE: &str = r#"
var table = document.getElementById("functions-table");
var body = table.tBodies[0];
var head = table.tHead.rows[table.tHead.rows.length - 1].cells;
var col = -1;
for (var i = 0; i < head.length; i++) if (head[i].textContent === "undecided") col = i;
var value = function (r) { return Number(r.cells[col].textContent); };
var shown = function () { return Array.prototype.filter.call(body.rows, function (r) { return !r.hidden; }); };
var t0 = performance.now();
head[col].click();
var sort_ms = performance.now() - t0;
var sorted = Array.prototype.map.call(body.rows, value);
var form = document.querySelector('form.filter[data-table="functions-table"]');
form.elements.flag.checked = true;
form.elements.flag.dispatchEvent(new Event("change", { bubbles: true }));
var undecided = shown().map(value);
var said = form.querySelector(".shown").textContent;
form.elements.flag.checked = false;
form.elements.q.value = "F12";
form.elements.q.dispatchEvent(new Event("input", { bubbles: true }));
var named = shown().map(function (r) { return r.cells[0].textContent; });
return { rows: body.rows.length, sorted: sorted, undecided: undecided, said: said, named: named, sort_ms: sort_ms,
  load_ms: Number(document.body.dataset.loadMs) };
"#;

/// Pages may not weigh more than this (issue #28: "a few MB").
const MAX_PAGE_BYTES: u64 = 3 << 20;
/// A generous bound on a page's load time (the precise figures are in the benchmark's table).
const MAX_LOAD_MS: f64 = 2000.0;

/// The sizes of the report's pages, and the sources pages' names.
fn page_sizes(html: &Path) -> (BTreeMap<String, u64>, Vec<String>) {
    let mut sizes = BTreeMap::new();
    for e in std::fs::read_dir(html).unwrap() {
        let e = e.unwrap();
        sizes.insert(e.file_name().to_string_lossy().into_owned(), e.metadata().unwrap().len());
    }
    let sources = sizes.keys().filter(|n| n.starts_with("source-")).cloned().collect();
    (sizes, sources)
}

/// Every `a.line` of a measured page links to an existing row of a source page of `html`.
fn assert_line_links(m: &serde_json::Value, html: &Path) {
    let links = m["line_links"].as_array().unwrap();
    assert!(!links.is_empty(), "no line number of a note is a link: {m}");
    for l in links {
        let l = l.as_str().unwrap();
        let (file, anchor) = l.split_once('#').unwrap_or_else(|| panic!("{l}"));
        let page = std::fs::read_to_string(html.join(if file.is_empty() { "index.html" } else { file })).unwrap();
        assert!(page.contains(&format!("id=\"{anchor}\"")), "{l}: no such row");
    }
}

#[test]
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn r28_5_a_16000_line_program_opens_fast_with_tables_to_sort_and_filter() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("big.c");
    let n = 1000;
    std::fs::write(&program, big_program(n)).unwrap();
    let html = dir.path().join("report");
    let (p, h) = (program.display().to_string(), html.display().to_string());
    let j = run_json_to(
        &["coverage", &p, "--aa", "assumption-automata/true.spc", "--timelimit", "6", "--html", &h],
        &dir.path().join("r.json"),
    );
    let n_lines = big_program(n).lines().count();
    assert!(n_lines > 16_000);
    let (sizes, sources) = page_sizes(&html);
    for (page, bytes) in &sizes {
        assert!(*bytes <= MAX_PAGE_BYTES, "{page}: {bytes} bytes");
    }
    assert!(sources.len() >= 8, "the source has pages of its own: {sizes:?}");
    let m = measure(&html.join("index.html"), PROBE);
    assert!(m["load_ms"].as_f64().unwrap() < MAX_LOAD_MS, "index.html: {} ms", m["load_ms"]);
    assert_readable(&m, "index.html");
    assert_line_links(&m, &html);
    // Every source line is on one page, with its status.
    let mut rows = 0;
    for s in &sources {
        let m = measure(&html.join(s), PROBE);
        assert!(m["load_ms"].as_f64().unwrap() < MAX_LOAD_MS, "{s}: {} ms", m["load_ms"]);
        assert_readable(&m, s);
        rows += m["cells"].as_u64().unwrap();
    }
    assert_eq!(rows, n_lines as u64);
    let t = measure(&html.join("index.html"), TABLE_PROBE);
    assert_eq!(t["rows"], n as u64 + 1, "one row per function");
    let sorted: Vec<f64> = t["sorted"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert!(sorted.windows(2).all(|w| w[0] >= w[1]), "most undecided lines first: {sorted:?}");
    let with_undecided = sorted.iter().filter(|&&v| v > 0.0).count();
    // A function never called has no undecided line: the filter hides it.
    assert!(with_undecided > 0 && with_undecided <= n - n / 4 + 1, "{with_undecided}");
    let undecided = t["undecided"].as_array().unwrap();
    assert_eq!(undecided.len(), with_undecided);
    assert!(undecided.iter().all(|v| v.as_f64().unwrap() > 0.0));
    assert_eq!(t["said"], format!("{with_undecided} of {} shown", n + 1));
    let named: Vec<&str> = t["named"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(named.len(), 11, "f12, f120-f129: {named:?}");
    assert!(named.iter().all(|f| f.starts_with("f12")));
    let _ = j;
}

/// A run of the shared corpus (`../shared/corpus/cpachecker/NAME`).
fn corpus_run(name: &str) -> PathBuf {
    let dir = crate::util::corpus().join("cpachecker").join(name);
    assert!(dir.join("program.c").is_file(), "{} is not here", dir.display());
    dir
}

#[test]
#[cfg_attr(not(all(vcov_corpus, any(vcov_chromium, vcov_ci))), ignore = "needs ../shared/corpus and chromium")]
fn r28_a_driver_run_of_the_shared_corpus_reads_well() {
    // ppp_generic: 15,469 lines, one of 337 characters; the predicate analysis CPAchecker
    // interrupted, measured for 10 s.
    let run_dir = corpus_run("ppp_generic.BUG-predicate-10s");
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report");
    let (p, a, h) = (
        run_dir.join("program.c").display().to_string(),
        run_dir.join("AssumptionAutomaton.txt").display().to_string(),
        html.display().to_string(),
    );
    let j = run_json_to(&["coverage", &p, "--aa", &a, "--timelimit", "10", "--html", &h], &dir.path().join("r.json"));
    assert_eq!(j["exact"], false);
    let (sizes, sources) = page_sizes(&html);
    for (page, bytes) in &sizes {
        assert!(*bytes <= MAX_PAGE_BYTES, "{page}: {bytes} bytes");
    }
    let m = measure(&html.join("index.html"), PROBE);
    assert!(m["load_ms"].as_f64().unwrap() < MAX_LOAD_MS, "index.html: {} ms", m["load_ms"]);
    assert_readable(&m, "index.html");
    assert!(m["summary_cells_right"].as_f64().unwrap() <= m["inner_width"].as_f64().unwrap(), "{m}");
    assert_eq!(m["summary_broken_words"], serde_json::json!([]), "words of the summary broken across lines");
    assert!(m["exact_width"].as_f64().unwrap() >= 400.0, "{m}");
    assert_line_links(&m, &html);
    // The page with the longest line: its status cells are there to see.
    let text = std::fs::read_to_string(&p).unwrap();
    let (longest, _) = text.lines().enumerate().max_by_key(|(_, l)| l.len()).unwrap();
    let anchor = format!("id=\"L{}\"", longest + 1);
    let page = sources
        .iter()
        .find(|s| std::fs::read_to_string(html.join(s)).unwrap().contains(&anchor))
        .expect("a page holds the longest line");
    let m = measure(&html.join(page), PROBE);
    assert!(m["load_ms"].as_f64().unwrap() < MAX_LOAD_MS, "{page}: {} ms", m["load_ms"]);
    assert_readable(&m, page);
    for extra in ["branches.html", "review.html"] {
        let m = measure(&html.join(extra), PROBE);
        assert!(m["load_ms"].as_f64().unwrap() < MAX_LOAD_MS, "{extra}: {} ms", m["load_ms"]);
        assert_readable(&m, extra);
    }
}

#[test]
#[cfg_attr(not(any(vcov_chromium, vcov_ci)), ignore = "needs chromium")]
fn r28_the_reviewers_page_prints_to_a_few_a4_pages() {
    let (dir, html, j) = coverage_page("fixtures/e2e/calls/program.c", "fixtures/e2e/calls/aa.txt", &["--evidence"]);
    let review = html.join("review.html");
    // On screen: it fits the window and shows what is claimed, per status.
    let m = measure(&review, PROBE);
    assert_readable(&m, "review.html");
    let page = std::fs::read_to_string(&review).unwrap();
    let claims = regex::Regex::new(r#"<tr class="claim" data-status="(\w+)">.*?<td class="num">(\d+)</td>"#).unwrap();
    let counts = status_counts(&j);
    let shown: BTreeMap<String, usize> =
        claims.captures_iter(&page).map(|c| (c[1].to_string(), c[2].parse().unwrap())).collect();
    assert_eq!(shown.len(), 5, "a claim per status: {shown:?}");
    for (status, n) in &shown {
        assert_eq!(*n, counts.get(status).copied().unwrap_or(0), "{status}");
    }
    // Printed through Chromium: a PDF of a few pages.
    let pdf = dir.path().join("review.pdf");
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-pdf-header-footer"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", review.canonicalize().unwrap().display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF"));
    let text = String::from_utf8_lossy(&bytes);
    let pages = regex::Regex::new(r"/Type\s*/Page[^s]").unwrap().find_iter(&text).count();
    assert!((1..=4).contains(&pages), "{pages} pages");
}
