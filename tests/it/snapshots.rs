//! Snapshots of the text, JSON, CSV and lcov reports of a few fixtures (`tests/it/snapshots/`), so
//! that a change of any report shows as a diff of its `.snap` file. Every run is `--reproducible`
//! and bounded by executions, not time. Review changes with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test --test it snapshots`, then read the diff).

use crate::util::vcov;

/// One fixture run: its name and the arguments of `vcov coverage` (or `vcov compare`).
const RUNS: &[(&str, &[&str])] = &[
    ("calls", &["coverage", "fixtures/e2e/calls/program.c", "--aa", "fixtures/e2e/calls/aa.txt"]),
    ("mode_guard", &["coverage", "fixtures/c/coverage/mode_guard.c", "--aa", "fixtures/automata/mode_guard_aa.txt"]),
    ("error_label", &["coverage", "fixtures/c/coverage/error_label.c", "--aa", "assumption-automata/true.spc"]),
    ("extern_write", &["coverage", "fixtures/c/coverage/extern_write.c", "--aa", "assumption-automata/true.spc"]),
    (
        "uninitialized_heap",
        &["coverage", "fixtures/c/coverage/uninitialized_heap.c", "--aa", "assumption-automata/true.spc"],
    ),
    (
        "paths_blind",
        &[
            "coverage",
            "fixtures/c/coverage/paths.c",
            "--aa",
            "assumption-automata/true.spc",
            "--generate",
            "blind",
            "--max-executions",
            "3",
        ],
    ),
    (
        "compare_calls",
        &[
            "compare",
            "fixtures/e2e/calls/program.c",
            "--aa",
            "fixtures/e2e/calls/aa.txt",
            "--aa",
            "assumption-automata/true.spc",
            "--name",
            "calls",
            "--name",
            "true",
        ],
    ),
];

/// The reports of one run, each as text: `(suffix, text)`.
fn reports(args: &[&str]) -> Vec<(&'static str, String)> {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).display().to_string();
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(["--reproducible", "--no-progress", "--json", &out("r.json"), "--csv", &out("r.csv")].map(String::from));
    all.extend(["--lcov".to_string(), out("lcov")]);
    let run = vcov(&all);
    assert_eq!(run.code, 0, "vcov {}: {}", all.join(" "), run.stderr);
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    // Pretty, so that a change shows on its own line (keys sorted); without vcov's version, so that
    // a release does not change every snapshot.
    let mut json: serde_json::Value = serde_json::from_str(&read("r.json")).unwrap();
    hide_version(&mut json);
    let json = serde_json::to_string_pretty(&json).unwrap();
    let mut res = vec![("text", run.stdout), ("json", json), ("csv", read("r.csv"))];
    let mut lcov: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("lcov.") && n.ends_with(".info"))
        .collect();
    lcov.sort();
    let tracefiles: String = lcov.iter().map(|n| format!("=== {}\n{}", n, read(n))).collect();
    res.push(("lcov", tracefiles));
    res
}

/// Replaces every `vcov_version` in `v` by `[version]`.
fn hide_version(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match k == "vcov_version" {
                    true => *x = "[version]".into(),
                    false => hide_version(x),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(hide_version),
        _ => {}
    }
}

#[test]
fn reports_of_the_fixtures_are_as_recorded() {
    for (name, args) in RUNS {
        for (suffix, text) in reports(args) {
            insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false, description => args.join(" ") }, {
                insta::assert_snapshot!(format!("{name}.{suffix}"), text);
            });
        }
    }
}

/// Snapshots of `text` named `name` in `tests/it/snapshots/`, described by the command `args`.
fn assert_snapshot(name: &str, args: &[&str], text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false, description => args.join(" ") }, {
        insta::assert_snapshot!(name.to_string(), text);
    });
}

/// `text` with every match of each `(pattern, replacement)` replaced: the figures that vary from
/// run to run (insta's own filters need a feature this crate does not enable).
fn filtered(text: &str, filters: &[(&str, &str)]) -> String {
    let mut res = text.to_string();
    for (pattern, by) in filters {
        res = regex::Regex::new(pattern).unwrap().replace_all(&res, *by).into_owned();
    }
    res
}

/// The timings and the memory of `--stats`.
const STATS_FILTERS: &[(&str, &str)] = &[
    (r"(?m)^(  time [^:]*:\s+).*$", "${1}[time]"),
    (r"(?m)^(run time:\s+).*$", "${1}[time]"),
    (r"(?m)^(  memory grown:\s+).*$", "${1}[memory]"),
];

/// `vcov verify` answers: TRUE, FALSE, UNKNOWN, task definitions, and the explicit search's
/// statistics (their timings and memory filtered).
#[test]
fn verify_answers_are_as_recorded() {
    let runs: &[(&str, &[&str])] = &[
        ("verify_safe_loop", &["verify", "fixtures/c/verify/safe_loop.c"]),
        ("verify_bug_call", &["verify", "fixtures/c/verify/bug_call.c"]),
        ("verify_unknown_extern", &["verify", "fixtures/c/verify/unknown_extern.c"]),
        ("verify_task_heap_list", &["verify", "--task", "fixtures/c/verify/heap_list.yml"]),
        ("verify_task_bug_call", &["verify", "--task", "fixtures/c/verify/bug_call.yml"]),
        (
            "verify_scheduler_label_stats",
            &["verify", "fixtures/c/verify/scheduler_label.c", "--spec", "errorlabel", "--dfs", "--stats"],
        ),
    ];
    for (name, args) in runs {
        let run = vcov(*args);
        assert_eq!(run.code, 0, "vcov {}: {}", args.join(" "), run.stderr);
        assert_snapshot(name, args, &filtered(&run.stdout, STATS_FILTERS));
    }
}

/// What varies between witnesses of the same answer: the creation time, the UUID derived from it,
/// vcov's version.
const WITNESS_FILTERS: &[(&str, &str)] = &[
    (r#"<data key="creationtime">[^<]*</data>"#, r#"<data key="creationtime">[time]</data>"#),
    (r#"<data key="producer">vcov [^<]*</data>"#, r#"<data key="producer">vcov [version]</data>"#),
    (r"(?m)^(\s+creation_time: ).*$", "${1}[time]"),
    (r"(?m)^(\s+uuid: ).*$", "${1}[uuid]"),
    (r#"(?m)^(\s+version: )"[^"]*"$"#, "${1}[version]"),
];

/// The GraphML violation witness of a FALSE answer, and the GraphML and YAML correctness witnesses
/// of a TRUE one (k-induction's, with invariants).
#[test]
fn witnesses_are_as_recorded() {
    let runs: &[(&str, &[&str], &[&str])] = &[
        ("witness_bug_call", &["verify", "fixtures/c/verify/bug_call.c", "--dfs"], &["violation.graphml"]),
        (
            "witness_invariant_scopes",
            &["verify", "fixtures/c/verify/invariant_scopes.c", "--kinduction"],
            &["correctness.graphml", "correctness.yml"],
        ),
    ];
    for (name, args, files) in runs {
        let dir = tempfile::tempdir().unwrap();
        let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        for f in *files {
            all.extend(["--witness".to_string(), dir.path().join(f).display().to_string()]);
        }
        let run = vcov(&all);
        assert_eq!(run.code, 0, "vcov {}: {}", all.join(" "), run.stderr);
        for f in *files {
            let text = std::fs::read_to_string(dir.path().join(f)).expect("witness written");
            let suffix = f.replace('.', "_");
            assert_snapshot(&format!("{name}.{suffix}"), args, &filtered(&text, WITNESS_FILTERS));
        }
    }
}

/// `vcov cfa`: the CFA as CPAchecker builds it.
#[test]
fn cfas_are_as_recorded() {
    for (name, program) in [
        ("cfa_calls", "fixtures/e2e/calls/program.c"),
        ("cfa_branches", "fixtures/e2e/branches/program.c"),
        ("cfa_safe_loop", "fixtures/c/verify/safe_loop.c"),
    ] {
        let args = ["cfa", program];
        let run = vcov(args);
        assert_eq!(run.code, 0, "vcov cfa {program}: {}", run.stderr);
        assert_snapshot(name, &args, &run.stdout);
    }
}

/// The text a browser shows of an HTML page: without its scripts, styles and comments, one line per
/// block (paragraph, heading, table row, list item, chart label), table cells apart, other tags
/// gone, entities decoded, runs of white space one space.
fn visible_text(html: &str) -> String {
    let hidden = regex::Regex::new(r"(?is)<script\b.*?</script>|<style\b.*?</style>|<!--.*?-->").unwrap();
    let block = regex::Regex::new(
        r"(?i)</?(?:html|head|title|body|main|header|footer|nav|section|div|p|h[1-6]|ul|ol|li|dl|dt|dd|table|caption|thead|tbody|tfoot|tr|pre|br|hr|form|fieldset|legend|details|summary|figure|figcaption|svg|text|g)\b[^>]*>",
    )
    .unwrap();
    let cell = regex::Regex::new(r"(?i)</?(?:td|th)\b[^>]*>").unwrap();
    let tag = regex::Regex::new(r"<[^>]*>").unwrap();
    let space = regex::Regex::new(r"\s+").unwrap();
    let text = hidden.replace_all(html, "");
    let text = space.replace_all(&text, " ");
    let text = block.replace_all(&text, "\n");
    let text = cell.replace_all(&text, " ");
    let text = tag.replace_all(&text, "");
    let text = decode_entities(&text);
    let lines: Vec<String> =
        text.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|l| !l.is_empty()).collect();
    lines.join("\n") + "\n"
}

/// `text` with its HTML character references decoded.
fn decode_entities(text: &str) -> String {
    let entity = regex::Regex::new(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);").unwrap();
    entity
        .replace_all(text, |c: &regex::Captures| {
            let name = &c[1];
            let code = match name.strip_prefix('#') {
                Some(n) => match n.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => n.parse().ok(),
                },
                None => match name {
                    "lt" => Some('<' as u32),
                    "gt" => Some('>' as u32),
                    "amp" => Some('&' as u32),
                    "quot" => Some('"' as u32),
                    "apos" => Some('\'' as u32),
                    "nbsp" => Some(' ' as u32),
                    _ => None,
                },
            };
            code.and_then(char::from_u32).map_or_else(|| c[0].to_string(), String::from)
        })
        .into_owned()
}

/// The visible text of every page of the HTML reports of a coverage run (with its evidence linked)
/// and of a comparison, so that a change of wording on any page shows as a diff.
#[test]
fn html_pages_read_as_recorded() {
    let runs: &[(&str, &[&str])] = &[
        ("html_calls", &["coverage", "fixtures/e2e/calls/program.c", "--aa", "fixtures/e2e/calls/aa.txt"]),
        (
            "html_compare_calls",
            &[
                "compare",
                "fixtures/e2e/calls/program.c",
                "--aa",
                "fixtures/e2e/calls/aa.txt",
                "--aa",
                "assumption-automata/true.spc",
                "--name",
                "calls",
                "--name",
                "true",
            ],
        ),
    ];
    for (name, args) in runs {
        let dir = tempfile::tempdir().unwrap();
        let html = dir.path().join("html");
        let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        all.extend(["--reproducible", "--no-progress", "--html"].map(String::from));
        all.push(html.display().to_string());
        if args[0] == "coverage" {
            all.extend(["--evidence".to_string(), dir.path().join("evidence").display().to_string()]);
        }
        let run = vcov(&all);
        assert_eq!(run.code, 0, "vcov {}: {}", all.join(" "), run.stderr);
        let mut pages: Vec<String> = std::fs::read_dir(&html)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".html"))
            .collect();
        pages.sort();
        assert!(pages.contains(&"index.html".to_string()), "{pages:?}");
        for page in pages {
            let text = visible_text(&std::fs::read_to_string(html.join(&page)).unwrap());
            // Without the temporary folder and vcov's version, which `metadata.xml` holds too.
            let text = text.replace(&dir.path().display().to_string(), "[dir]");
            let text = text.replace(concat!("vcov ", env!("CARGO_PKG_VERSION")), "vcov [version]");
            let text = filtered(&text, &[(r"(?m)^(metadata\.xml) [0-9a-f]{64}$", "$1 [sha256]")]);
            assert_snapshot(&format!("{name}.{}", page.trim_end_matches(".html")), args, &text);
        }
    }
}

#[test]
fn the_html_normaliser_keeps_what_a_reader_sees() {
    let page = "<html><head><title>a &lt;b&gt;</title><style>p { x: 1 }</style></head>\n<body><script>var s = \"<p>\";</script>\
                <h1>Report</h1><!-- hidden --><p>one\n   two&#x2f;three &amp; <b>four</b>s</p><table><tr><td>1</td><td>2</td></tr></table>\
                <svg><text x=\"1\">label</text></svg></body></html>";
    assert_eq!(visible_text(page), "a <b>\nReport\none two/three & fours\n1 2\nlabel\n");
}
