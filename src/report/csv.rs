//! One CSV row per run with the columns of the paper's tables, appended to a table file.

use crate::coverage::result::CoverageResult;

/// The columns: the paper's (instance, # lines, Over A., Under A., # exec, Bug?, CPU time), `exact`,
/// whether the search was stopped (`interrupted`) and by what (`stopped_by`, empty when it ended by
/// itself), and the property's status inside the explored region (`property`: `found_in_region`,
/// `found_outside_region`, `none_in_region` or `not_decided`).
pub const CSV_HEADER: [&str; 11] = [
    "instance",
    "lines",
    "over",
    "under",
    "executions",
    "bug",
    "cpu_seconds",
    "exact",
    "interrupted",
    "stopped_by",
    "property",
];

/// Checks that `existing` (a CSV table rows are to be appended to) is empty or has vcov's header.
pub fn check_csv_table(existing: &[u8]) -> Result<(), String> {
    let first = existing.split(|&b| b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first);
    let first = first.trim_end_matches('\r');
    if existing.iter().all(u8::is_ascii_whitespace) || first == CSV_HEADER.join(",") {
        Ok(())
    } else {
        Err(format!("line 1:1: the table's columns are not vcov's ({}); append to a new file", CSV_HEADER.join(",")))
    }
}

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
        res.exact().to_string(),
        res.interrupted.to_string(),
        res.stopped_by.map_or("", |s| s.name()).to_string(),
        res.property.name().to_string(),
    ])?;
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_with_other_columns_are_refused() {
        assert!(check_csv_table(b"").is_ok());
        let row = "x,1,1,1,1,no,0.1,true,false,,none_in_region";
        assert!(check_csv_table(format!("{}\n{row}\n", CSV_HEADER.join(",")).as_bytes()).is_ok());
        let old = b"instance,lines,over,under,executions,bug,cpu_seconds,exact\n";
        assert!(check_csv_table(old).unwrap_err().starts_with("line 1:1:"));
    }
}
