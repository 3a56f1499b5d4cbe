//! The executions of each configuration (`index.html`): inputs, the lines each added, links to the
//! evidence.

use super::*;

#[derive(Serialize)]
pub(super) struct ExecutionsView {
    pub(super) name: String,
    pub(super) anchor: String,
    pub(super) witness: Option<String>,
    pub(super) execs: Vec<Exec>,
}

#[derive(Serialize)]
pub(super) struct Exec {
    pub(super) id: usize,
    pub(super) origin: String,
    pub(super) inputs: String,
    pub(super) added: String,
    pub(super) test: Option<String>,
    pub(super) cex: Option<String>,
}

pub(super) fn executions_view(input: &HtmlInput, i: usize, r: &CoverageResult) -> ExecutionsView {
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    let execs = r
        .executions
        .iter()
        .map(|e| {
            let added: Vec<u32> = e.lines.iter().copied().filter(|l| seen.insert(*l)).collect();
            let link = input.links.get(i).and_then(|m| m.get(&e.id));
            let mut inputs: Vec<String> = e
                .inputs
                .iter()
                .take(MAX_INPUTS_SHOWN)
                .map(|v| format!("{}() -> ({}) {}", v.function, v.c_type, v.value))
                .collect();
            if e.inputs.len() > MAX_INPUTS_SHOWN {
                inputs.push(format!("... {} more", e.inputs.len() - MAX_INPUTS_SHOWN));
            }
            Exec {
                id: e.id,
                origin: words::origin(&e.origin),
                inputs: inputs.join("; "),
                added: format!("{}: {}", added.len(), ranges(&added)),
                test: link.map(|l| l.0.clone()),
                cex: link.map(|l| l.1.clone()),
            }
        })
        .collect();
    ExecutionsView {
        name: r.instance.clone(),
        anchor: format!("c{i}"),
        witness: input.witness.get(i).cloned().flatten(),
        execs,
    }
}
