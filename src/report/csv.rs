//! One CSV row per run with the columns of the paper's tables, appended to a table file.

use crate::coverage::result::CoverageResult;

/// The columns: the paper's (instance, # lines, Over A., Under A., # exec, Bug?, CPU time) and `exact`.
pub const CSV_HEADER: [&str; 8] = ["instance", "lines", "over", "under", "executions", "bug", "cpu_seconds", "exact"];

/// `existing` (a CSV table, or nothing) with the row of `res` appended; the header is written first
/// when the table is new or empty.
pub fn append_csv_row(existing: Option<&[u8]>, res: &CoverageResult) -> Result<Vec<u8>, csv::Error> {
    let mut out = existing.map(<[u8]>::to_vec).unwrap_or_default();
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let new_table = out.is_empty();
    let mut w = csv::Writer::from_writer(out);
    if new_table {
        w.write_record(CSV_HEADER)?;
    }
    w.write_record([
        res.instance.clone(),
        res.lines_to_cover.len().to_string(),
        res.over_lines.len().to_string(),
        res.under_lines.len().to_string(),
        res.n_terminating().to_string(),
        if res.bug_found { "yes" } else { "no" }.to_string(),
        format!("{:.2}", res.times.cpu),
        res.exact.to_string(),
    ])?;
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}
