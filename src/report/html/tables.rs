//! The function and branch tables (`index.html`, and `branches.html` when the source is split).

use super::*;

/// A sortable, filterable table: a header row per configuration group, then rows of cells.
#[derive(Serialize)]
pub(super) struct Table {
    /// Names of the configuration groups above the columns (empty for one configuration).
    pub(super) groups: Vec<String>,
    /// How many columns each group has.
    pub(super) group_width: usize,
    /// Columns before the groups.
    pub(super) lead: Vec<Column>,
    /// Every column: the lead, then those of each configuration.
    pub(super) header: Vec<Column>,
    pub(super) rows: Vec<TableRow>,
}

impl Table {
    fn new(groups: Vec<String>, lead: Vec<Column>, per_config: &[Column], rows: Vec<TableRow>) -> Table {
        let mut header = lead.clone();
        for _ in 0..groups.len().max(1) {
            header.extend(per_config.iter().cloned());
        }
        Table { group_width: per_config.len(), groups, lead, header, rows }
    }
}

#[derive(Serialize, Clone)]
pub(super) struct Column {
    pub(super) name: &'static str,
    pub(super) title: &'static str,
    pub(super) num: bool,
}

#[derive(Serialize)]
pub(super) struct TableRow {
    /// Filter attributes: name (lowercase), and whether it has undecided lines / is open.
    pub(super) key: String,
    pub(super) flag: bool,
    pub(super) over: bool,
    pub(super) link: Link,
    /// `(text, numeric)`.
    pub(super) cells: Vec<(String, bool)>,
}

#[derive(Serialize)]
pub(super) struct Link {
    pub(super) text: String,
    pub(super) href: String,
}

pub(super) fn function_table(input: &HtmlInput, layout: &Layout) -> Table {
    let first = &input.results[0];
    let rows = first
        .functions
        .iter()
        .map(|f| {
            // `lines_to_cover` is ascending: the function's lines are one slice of it.
            let lines = &first.lines_to_cover;
            let to_cover = lines.partition_point(|&l| l <= f.last_line) - lines.partition_point(|&l| l < f.first_line);
            let mut cells = vec![(format!("{}–{}", f.first_line, f.last_line), true), (to_cover.to_string(), true)];
            let (mut undecided, mut over) = (0, 0);
            for r in input.results {
                let c = StatusCounts::of(r.line_status.range(f.first_line..=f.last_line).map(|(_, s)| s));
                undecided += c.undecided();
                over += c.over();
                cells.extend([c.over(), c.covered, c.not_coverable, c.undecided()].map(|n| (n.to_string(), true)));
            }
            TableRow {
                key: f.name.to_lowercase(),
                flag: undecided > 0,
                over: over > 0,
                link: Link { text: f.name.clone(), href: layout.href(f.first_line) },
                cells,
            }
        })
        .collect();
    Table::new(
        group_names(input),
        vec![
            Column { name: "function", title: "the function (link to its first line)", num: false },
            Column { name: "lines", title: "its first and last line", num: true },
            Column { name: "to cover", title: "lines to cover in it", num: true },
        ],
        &[
            Column { name: "over", title: "lines of the over-approximation", num: true },
            Column { name: "covered", title: "lines covered", num: true },
            Column { name: "not cov.", title: "lines proven not coverable", num: true },
            Column { name: "undecided", title: "lines undecided (unknown or over-approximation only)", num: true },
        ],
        rows,
    )
}

pub(super) fn group_names(input: &HtmlInput) -> Vec<String> {
    if input.results.len() > 1 {
        input.results.iter().map(|r| r.instance.clone()).collect()
    } else {
        Vec::new()
    }
}

pub(super) fn branch_table(input: &HtmlInput, layout: &Layout) -> Table {
    let first = &input.results[0];
    let function_of = |line: u32| {
        let k = first.functions.partition_point(|f| f.first_line <= line);
        first.functions[..k].iter().rev().find(|f| f.last_line >= line).map(|f| f.name.clone()).unwrap_or_default()
    };
    let rows = first
        .branches
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let mut cells = vec![(function_of(b.line), false), (b.arms.len().to_string(), true)];
            let mut open = false;
            let mut over_any = false;
            for r in input.results {
                let (over, covered) = match r.branches.get(k) {
                    Some(rb) => (rb.arms.iter().filter(|a| a.0).count(), rb.arms.iter().filter(|a| a.1).count()),
                    None => (0, 0),
                };
                open |= over > covered;
                over_any |= over > 0;
                cells.extend([(over.to_string(), true), (covered.to_string(), true)]);
            }
            TableRow {
                key: function_of(b.line).to_lowercase(),
                flag: open,
                over: over_any,
                link: Link { text: b.line.to_string(), href: layout.href(b.line) },
                cells,
            }
        })
        .collect();
    Table::new(
        group_names(input),
        vec![
            Column { name: "line", title: "the branching line (link)", num: true },
            Column { name: "function", title: "the function it is in", num: false },
            Column { name: "arms", title: "how many arms the branch has", num: true },
        ],
        &[
            Column { name: "arms over", title: "arms in the over-approximation", num: true },
            Column { name: "arms covered", title: "arms some execution took", num: true },
        ],
        rows,
    )
}

/// A page holding one table (`branches.html` of a program whose source is split).
#[derive(Serialize)]
pub(super) struct TablePage<'a> {
    pub(super) common: &'a Common,
    pub(super) title: &'static str,
    pub(super) table: &'a Table,
    pub(super) script: &'static str,
}
