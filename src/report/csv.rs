//! One CSV row per run with the columns of the paper's tables, appended to a table file; the same
//! row for `vcov coverage --csv` and each task of `vcov batch` (`csv_row`, from the JSON report's
//! types).

use super::json::CoverageReport;
use crate::coverage::result::CoverageResult;

/// The columns: the paper's (instance, # lines, Over A., Under A., # exec, Bug?, CPU time), `exact`,
/// whether the search was stopped (`interrupted`) and by what (`stopped_by`, empty when it ended by
/// itself), the property's status inside the explored region (`property`: `found_in_region`,
/// `found_outside_region`, `none_in_region` or `not_decided`), and the accepted assumptions an exact
/// result relies on (`exact_assuming`, separated by `;`; empty when it relies on none or is not exact).
pub const CSV_HEADER: [&str; 12] = [
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
    "exact_assuming",
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
    w.write_record(csv_row(Some(&CoverageReport::of(res)), &res.instance, res.times.cpu))?;
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

/// The row of a run named `instance` whose JSON report is `report` (`None`: the run gave none, and
/// only its name and CPU time are filled), with `cpu_seconds` of CPU time.
pub fn csv_row(report: Option<&CoverageReport>, instance: &str, cpu_seconds: f64) -> Vec<String> {
    let cpu = format!("{cpu_seconds:.2}");
    let Some(r) = report else {
        let mut row = vec![instance.to_string()];
        row.extend(std::iter::repeat_n(String::new(), 5));
        row.push(cpu);
        row.extend(std::iter::repeat_n(String::new(), CSV_HEADER.len() - row.len()));
        return row;
    };
    vec![
        instance.to_string(),
        r.lines_to_cover.len().to_string(),
        r.over_approximation.lines.len().to_string(),
        r.under_approximation.lines.len().to_string(),
        r.under_approximation.executions.to_string(),
        if r.bug_found { "yes" } else { "no" }.to_string(),
        cpu,
        r.exact.to_string(),
        r.interrupted.to_string(),
        r.stopped_by.clone().unwrap_or_default(),
        r.property.status.clone(),
        r.exactness.assuming.join(";"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_with_other_columns_are_refused() {
        assert!(check_csv_table(b"").is_ok());
        let row = "x,1,1,1,1,no,0.1,true,false,,none_in_region,";
        assert!(check_csv_table(format!("{}\n{row}\n", CSV_HEADER.join(",")).as_bytes()).is_ok());
        let old = b"instance,lines,over,under,executions,bug,cpu_seconds,exact\n";
        assert!(check_csv_table(old).unwrap_err().starts_with("line 1:1:"));
    }
}
