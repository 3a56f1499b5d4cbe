//! Report writers: text summary, JSON, lcov tracefiles, CSV rows and the HTML pages, as text
//! (`driver::output` writes them).
//!
//! Invariant: this is the only module with `serde` derives; the JSON structs carry `schema_version`.
//! Invariant: lists are written sorted (ascending lines, executions by id), so the same inputs give
//! byte-identical reports apart from timings.

mod compare;
mod csv;
mod html;
pub mod json;
mod lcov;
mod svg;
mod text;
pub mod words;

pub use self::csv::{append_csv_row, check_csv_table, csv_row, CSV_HEADER};
pub use compare::{compare_json, compare_summary, Compared, NotMonotone};
pub use html::{batch_html, html_report, BatchTaskView, HtmlInput, HtmlPage, SOURCE_PAGE_LINES};
pub use json::{coverage_json, CoverageReport, SCHEMA_VERSION};
pub use lcov::{lcov_tracefile, lcov_tracefile_named, LineSet};
pub use text::{coverage_summary, wrap as wrap_text, TEXT_WIDTH};
