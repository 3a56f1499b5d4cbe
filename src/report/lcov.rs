//! lcov tracefiles (`--lcov PREFIX` writes `PREFIX.under.info` and `PREFIX.over.info`), in the format
//! `genhtml` reads: `TN`, `SF`, `FN`/`FNDA`/`FNF`/`FNH`, `DA`, `LF`/`LH`, `end_of_record`.

use std::fmt::Write;

use crate::coverage::result::CoverageResult;

/// Which approximation a tracefile shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LineSet {
    /// Lines covered by terminating executions inside the explored region.
    Under,
    /// Lines the product reaches before `__FALSE`.
    Over,
}

/// The tracefile of one approximation: every line to cover gets a `DA` record, with count 1 if it is in
/// the set and 0 otherwise; a function counts as hit if one of its lines is.
pub fn lcov_tracefile(res: &CoverageResult, which: LineSet) -> String {
    let name = match which {
        LineSet::Under => "vcov_under_approximation",
        LineSet::Over => "vcov_over_approximation",
    };
    lcov_tracefile_named(res, which, name)
}

/// `lcov_tracefile` with the test name `name` (`TN:` line; `genhtml` overlays tracefiles by it).
pub fn lcov_tracefile_named(res: &CoverageResult, which: LineSet, name: &str) -> String {
    let hit: &[u32] = match which {
        LineSet::Under => &res.under_lines,
        LineSet::Over => &res.over_lines,
    };
    let is_hit = |l: u32| hit.binary_search(&l).is_ok();
    let mut out = String::new();
    let _ = writeln!(out, "TN:{name}");
    let _ = writeln!(out, "SF:{}", res.program.display());
    let mut fn_hit = 0;
    for f in &res.functions {
        let _ = writeln!(out, "FN:{},{}", f.first_line, f.name);
    }
    for f in &res.functions {
        let h = res.lines_to_cover.iter().any(|&l| l >= f.first_line && l <= f.last_line && is_hit(l));
        fn_hit += h as usize;
        let _ = writeln!(out, "FNDA:{},{}", h as u32, f.name);
    }
    let _ = writeln!(out, "FNF:{}", res.functions.len());
    let _ = writeln!(out, "FNH:{fn_hit}");
    // Branches: `-` when no arm of the point is taken (the point is not reached), else 0 or 1.
    let (mut brf, mut brh) = (0, 0);
    let mut block_of_line: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for b in &res.branches {
        let block = block_of_line.entry(b.line).or_insert(0);
        let taken: Vec<bool> = b.arms.iter().map(|&(o, u)| if which == LineSet::Over { o } else { u }).collect();
        let reached = taken.iter().any(|&t| t);
        for (i, &t) in taken.iter().enumerate() {
            brf += 1;
            brh += t as usize;
            let count = if reached { (t as u32).to_string() } else { "-".to_string() };
            let _ = writeln!(out, "BRDA:{},{},{i},{count}", b.line, block);
        }
        *block += 1;
    }
    let _ = writeln!(out, "BRF:{brf}");
    let _ = writeln!(out, "BRH:{brh}");
    let mut lh = 0;
    for &l in &res.lines_to_cover {
        let h = is_hit(l);
        lh += h as usize;
        let _ = writeln!(out, "DA:{l},{}", h as u32);
    }
    let _ = writeln!(out, "LF:{}", res.lines_to_cover.len());
    let _ = writeln!(out, "LH:{lh}");
    out.push_str("end_of_record\n");
    out
}
