//! Coverage reports for the batch's tests: whole reports as `vcov coverage --json -` writes them,
//! with the fields a test is about replaced.

use serde_json::{json, Value};

/// A report of a program with lines 1-3 (over 1-2, under 1 by one execution, exact), with the
/// top-level fields of `fields` replacing its own, as the text of the JSON report.
pub(crate) fn report_text(fields: Value) -> String {
    let mut report = json!({
        "schema_version": 1,
        "program": "p.c",
        "automaton": "a.txt",
        "data_model": "ILP32",
        "line_rule": "spanned",
        "lines_to_cover": [1, 2, 3],
        "over_approximation": {"lines": [1, 2]},
        "under_approximation": {"lines": [1], "executions": 1},
        "bug_found": false,
        "property": {"status": "none_in_region", "detail": "no violation inside the explored region"},
        "exact": true,
        "exactness": {"status": "exact", "detail": "exact"},
        "interrupted": false,
        "stopped_by": null,
        "confirmation": {"method": "interpreter", "rejected": 0},
        "generate": "targeted",
        "assumptions": [],
        "line_status": {"1": "covered", "2": "not_coverable", "3": "not_coverable"},
        "not_coverable_by": {"2": "exhaustive search"},
        "undefined_behaviour": {"paths": 0, "places": []},
        "violations_under_assumptions": {"paths": 0, "places": []},
        "covered_by": {"1": 1},
        "branch_coverage": {"total": 2, "over": 2, "under": 1},
        "function_coverage": {"total": 1, "over": 1, "under": 1},
        "automaton_match": {
            "states": 1, "states_reached": 1, "transitions": 1, "transitions_used": 1,
            "generation": "1.x", "generation_source": "detected", "unmatched": [], "unmatched_transitions": []
        },
        "executions": [
            {"id": 1, "origin": "generated", "lines": [1], "terminating": true, "violates_property": false, "inputs": []}
        ],
        "timeline": [[0.0, 1, 1]],
        "time_seconds": {
            "parse": 0.0, "cfa": 0.0, "compose": 0.0, "value_analysis": 0.0, "search": 0.0, "proof": 0.0,
            "confirmation": 0.0, "total": 0.0, "cpu": 0.0
        },
        "provenance": {
            "vcov_version": "0",
            "program": {"path": "p.c", "sha256": "00"},
            "automaton": {"path": "a.txt", "sha256": "00", "producer": null},
            "options": [],
            "recheck": []
        }
    });
    if let (Some(all), Value::Object(new)) = (report.as_object_mut(), fields) {
        all.extend(new);
    }
    report.to_string()
}
