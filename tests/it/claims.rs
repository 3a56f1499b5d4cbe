//! Each claim of a coverage result is one typed value worded in one place: the same run, with and
//! without `--assume`, says the same of its exactness and its property in the text summary, the
//! JSON report, the CSV row, the HTML summary and the reviewer's page.

use crate::util::{json, unwrapped, vcov};

/// What one run says, format by format.
struct Said {
    text: String,
    json: serde_json::Value,
    csv: Vec<(String, String)>,
    index: String,
    review: String,
}

/// `vcov coverage` of a program whose only obstacle is a function without body that may write
/// through the pointer it gets, with `extra` options, every format written.
fn run(extra: &[&str]) -> Said {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).display().to_string();
    let mut args = vec!["coverage", "fixtures/c/coverage/extern_write.c", "--aa", "assumption-automata/true.spc"];
    args.extend(extra);
    let (j, c, h) = (out("r.json"), out("r.csv"), out("html"));
    args.extend(["--reproducible", "--no-progress", "--json", &j, "--csv", &c, "--html", &h]);
    let run = vcov(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let csv_text = std::fs::read_to_string(dir.path().join("r.csv")).unwrap();
    let mut rows = csv_text.lines().map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>());
    let header = rows.next().unwrap();
    let row = rows.next().unwrap();
    assert_eq!(header.len(), row.len(), "{csv_text}");
    let page = |name: &str| std::fs::read_to_string(dir.path().join("html").join(name)).unwrap();
    Said {
        text: unwrapped(&run.stdout),
        json: json(&dir.path().join("r.json")),
        csv: header.into_iter().zip(row).collect(),
        index: page("index.html"),
        review: page("review.html"),
    }
}

fn csv<'a>(said: &'a Said, column: &str) -> &'a str {
    &said.csv.iter().find(|(h, _)| h == column).unwrap_or_else(|| panic!("no column {column}")).1
}

#[test]
fn exactness_reads_the_same_in_every_format_with_and_without_assumptions() {
    let decided = "every line of the over-approximation is covered or proven not coverable";
    let why = "a function without body received pointers and may write through them";

    let sound = run(&[]);
    assert_eq!(sound.json["exact"], false);
    assert_eq!(sound.json["exactness"]["status"], "not_exact");
    assert_eq!(sound.json["exactness"]["detail"], format!("not exact: {why}"));
    assert_eq!(sound.json["inexact_reason"], why);
    assert!(sound.text.contains(&format!("\n  not exact: {why}\n")), "{}", sound.text);
    assert_eq!((csv(&sound, "exact"), csv(&sound, "exact_assuming")), ("false", ""));
    assert!(sound.index.contains(&format!("no: {why}")), "the summary's definition");
    assert!(sound.review.contains(&format!("no: {why}")), "the reviewer's page");

    let assuming = run(&["--assume", "no-extern-writes"]);
    let relying = format!("{decided}, relying on these assumptions");
    assert_eq!(assuming.json["exact"], true);
    assert_eq!(assuming.json["exactness"]["status"], "exact_assuming");
    assert_eq!(assuming.json["exactness"]["assuming"], serde_json::json!(["no-extern-writes"]));
    assert_eq!(assuming.json["exactness"]["detail"], format!("exact assuming no-extern-writes: {relying}"));
    assert!(assuming.json.get("inexact_reason").is_none());
    assert!(assuming.text.contains(&format!("\n  exact assuming no-extern-writes: {relying}\n")), "{}", assuming.text);
    assert_eq!((csv(&assuming, "exact"), csv(&assuming, "exact_assuming")), ("true", "no-extern-writes"));
    for (page, html) in [("index.html", &assuming.index), ("review.html", &assuming.review)] {
        assert!(html.contains(&format!("yes, assuming no-extern-writes: {relying}")), "{page}");
        // Never the plain claim of a result that relies on no assumption.
        assert!(!html.contains(&format!("yes: {decided}")), "{page}");
    }
    // The summary table's cell says the assumptions too.
    assert!(assuming.index.contains(">yes, assuming no-extern-writes<"), "the summary table's cell");
}

#[test]
fn the_property_reads_the_same_in_every_format() {
    for said in [run(&[]), run(&["--assume", "no-extern-writes"])] {
        let detail = said.json["property"]["detail"].as_str().unwrap().to_string();
        assert_eq!(said.json["property"]["status"], "none_in_region");
        assert_eq!(csv(&said, "property"), "none_in_region");
        assert!(said.text.contains(&format!("\n  property: {detail}\n")), "{}", said.text);
        assert!(said.index.contains(&detail), "index.html");
        assert!(said.review.contains(&detail), "review.html");
    }
}
