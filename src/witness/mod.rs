//! Violation witnesses in the GraphML exchange format 1.0 of SV-COMP (sv-witnesses).
//!
//! A witness is a chain of automaton states from an entry node to a violation node, one transition
//! per CFA edge of the counterexample that a validator needs to follow it: every branch (with its
//! source lines and `control` = `condition-true`/`condition-false`), every call and return of a
//! function with a body (`enterFunction` / `returnFromFunction`), and every call of a function
//! without body whose result is an input (`assumption` `\result == v;` with
//! `assumption.resultfunction`). Other edges are left out: a witness transition that matches no
//! edge lets the validator move on. `endline` is written only for an edge spanning several lines.
//! A block of transitions repeated back to back (a loop's iterations that branch the same way and
//! read the same inputs) is written once, as a cycle: the witness still contains the path, and its
//! size grows with what the path does differently rather than with how long it runs. The
//! iterations a run jumped over (`symex::Trace`'s repeats: 2^27 of them, say) are written the same
//! way, as a cycle of the loop body, and the transition that leaves the loop assumes the values the
//! iterations left (`x == 268435456U;`), so that a validator need not count them.
//!
//! It also holds the metadata exchange formats share (Test-Comp's `metadata.xml` too): the program's
//! SHA-256 and the ISO 8601 creation time.
//!
//! Invariant: the output is a function of its inputs (no clock read here; the caller passes the
//! creation time).

pub mod correctness;

use std::collections::HashMap;
use std::fmt::Write;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::base::fp;
use crate::base::markup::{self, Apostrophe};
use crate::cfa::{Cfa, EdgeId, EdgeKind};
use crate::cfront::ir::{ExprKind, Program, VarId};
use crate::cfront::types::TypeKind;
use crate::symex::{InputKind, InputValue, Trace};

/// The graph data of a witness.
#[derive(Clone, Debug)]
pub struct WitnessInfo {
    /// The tool, e.g. `vcov 0.1.0`.
    pub producer: String,
    /// The specification text (the property file's contents).
    pub specification: String,
    /// The program path as given to the verifier.
    pub program_file: String,
    /// SHA-256 of the program file, lowercase hexadecimal.
    pub program_hash: String,
    /// `32bit` or `64bit`.
    pub architecture: String,
    /// ISO 8601 creation time.
    pub creation_time: String,
}

/// The GraphML text of a violation witness for the path `edges` (ending at the violation) with the
/// input values `inputs` of that path.
pub fn violation_graphml(
    info: &WitnessInfo,
    prog: &Program,
    cfa: &Cfa,
    trace: &Trace,
    inputs: &[InputValue],
) -> String {
    let mut out = graphml_start(info, "violation_witness", &KEYS);
    // Results of external calls, in the order the path made the calls.
    let mut calls = inputs.iter().filter(|i| matches!(i.kind, InputKind::Call { .. })).peekable();
    let (edges, after) = unfold_repeats(trace);
    // The transitions before the violating edge, then the violating edge's own (always one, into
    // the violation node; empty when that edge has no place in the source).
    let mut steps = Vec::new();
    let mut last = Vec::new();
    for (k, &e) in edges.iter().enumerate() {
        let result = calls.next_if(|i| matches!(i.kind, InputKind::Call { edge, .. } if edge == e));
        let mut data = edge_data(prog, cfa, e, result);
        if let (Some(values), EdgeKind::Assume { .. }) = (after.get(&k), &cfa.edge(e).kind) {
            // The loop exit after a jump: the values the iterations left (an assumption changes
            // nothing, so they hold after it).
            if let Some(a) = assumption(prog, values) {
                data.push(("assumption", a));
                data.push(("assumption.scope", prog.func(cfa.node(cfa.edge(e).src).func).name.clone()));
            }
        }
        if k + 1 == edges.len() {
            if data.is_empty() {
                if let Some((a, b)) = cfa.edge(e).lines {
                    push_lines(&mut data, a, b);
                }
            }
            last = data;
        } else if !data.is_empty() {
            steps.push(data);
        }
    }
    // Node `N{n}` is the state after the transitions written so far; a folded block returns to the
    // node it started from.
    let mut n = 0usize;
    let mut next = 0usize;
    let edge = |out: &mut String, from: usize, to: usize, data: &[(&'static str, String)]| {
        if data.is_empty() {
            let _ = writeln!(out, "  <edge source=\"N{from}\" target=\"N{to}\"/>");
            return;
        }
        let _ = writeln!(out, "  <edge source=\"N{from}\" target=\"N{to}\">");
        for (key, value) in data {
            let _ = writeln!(out, "   <data key=\"{key}\">{}</data>", xml_escape(value));
        }
        out.push_str("  </edge>\n");
    };
    for run in fold_repeats(&steps) {
        let block = &steps[run.start..run.start + run.len];
        let head = n;
        for (k, data) in block.iter().enumerate() {
            let to = if run.times > 1 && k + 1 == block.len() {
                head
            } else {
                next += 1;
                let _ = writeln!(out, "  <node id=\"N{next}\"/>");
                next
            };
            edge(&mut out, n, to, data);
            n = to;
        }
    }
    let _ = writeln!(out, "  <node id=\"N{}\">\n   <data key=\"violation\">true</data>\n  </node>", next + 1);
    edge(&mut out, n, next + 1, &last);
    out.push_str(" </graph>\n</graphml>\n");
    out
}

/// How many copies of a jumped-over loop body the witness path gets: enough for `fold_repeats` to
/// write it as a cycle, which a validator may take any number of times.
const BODY_COPIES: u64 = 4;

/// Variables and their values.
type Values<'t> = &'t [(VarId, i128)];

/// The trace's edges with each repeated body written `BODY_COPIES` times at most, and for the edge
/// after each repeat, the values the repeat left.
fn unfold_repeats(trace: &Trace) -> (Vec<EdgeId>, HashMap<usize, Values<'_>>) {
    let (explicit, repeats) = trace.parts();
    let mut edges = Vec::new();
    let mut after = HashMap::new();
    let mut from = 0;
    for r in repeats {
        edges.extend_from_slice(&explicit[from..r.at]);
        for _ in 0..r.times.min(BODY_COPIES) {
            edges.extend_from_slice(&r.body);
        }
        after.insert(edges.len(), r.after.as_slice());
        from = r.at;
    }
    edges.extend_from_slice(&explicit[from..]);
    (edges, after)
}

/// The assumption that the variables hold `values` (`x == 268435456U; y == 10;`), if any.
fn assumption(prog: &Program, values: &[(VarId, i128)]) -> Option<String> {
    let parts: Vec<String> = values
        .iter()
        .map(|&(v, x)| {
            let var = prog.var(v);
            let unsigned = prog.types.as_int(var.ty).is_some_and(|i| !i.signed);
            format!("{} == {x}{};", var.name, if unsigned { "U" } else { "" })
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// A piece of a witness path: the `len` transitions from `start`, taken `times` times in a row
/// (more than once: written as a cycle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    start: usize,
    len: usize,
    times: usize,
}

/// The longest block a repetition is looked for in (a loop body's transitions).
const MAX_BLOCK: usize = 512;

/// `steps` cut into runs, left to right: at each place the repeated block that saves the most
/// transitions (blocks of 2 to `MAX_BLOCK` transitions: a cycle of one would be a self-loop, which
/// witnesslint warns about; a transition repeated alone folds in pairs), else a single transition. Taking a cycle any
/// number of times keeps the path in the witness, so folding only lets a validator try more.
fn fold_repeats<T: PartialEq>(steps: &[T]) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let mut best = Run { start: i, len: 1, times: 1 };
        for len in 2..=MAX_BLOCK.min((steps.len() - i) / 2) {
            if steps[i + len] != steps[i] {
                continue;
            }
            let block = &steps[i..i + len];
            let mut times = 1;
            while i + (times + 1) * len <= steps.len() && steps[i + times * len..i + (times + 1) * len] == *block {
                times += 1;
            }
            if times > 1 && len * (times - 1) > best.len * (best.times - 1) {
                best = Run { start: i, len, times };
            }
        }
        i += best.len * best.times;
        runs.push(best);
    }
    runs
}

/// `startline`, and `endline` where the edge spans more than one line.
fn push_lines(data: &mut Vec<(&'static str, String)>, start: u32, end: u32) {
    data.push(("startline", start.to_string()));
    if end != start {
        data.push(("endline", end.to_string()));
    }
}

/// The keys of every GraphML witness: the graph's metadata and the entry node.
const GRAPH_KEYS: [GraphmlKey; 9] = [
    ("witness-type", "string", "graph", "witness-type", None),
    ("sourcecodelang", "string", "graph", "sourcecodelang", None),
    ("producer", "string", "graph", "producer", None),
    ("specification", "string", "graph", "specification", None),
    ("programFile", "string", "graph", "programfile", None),
    ("programHash", "string", "graph", "programhash", None),
    ("architecture", "string", "graph", "architecture", None),
    ("creationTime", "string", "graph", "creationtime", None),
    ("isEntryNode", "boolean", "node", "entry", Some("false")),
];

/// The keys of a violation witness besides `GRAPH_KEYS`.
const KEYS: [GraphmlKey; 10] = [
    ("isSinkNode", "boolean", "node", "sink", Some("false")),
    ("isViolationNode", "boolean", "node", "violation", Some("false")),
    ("startline", "int", "edge", "startline", None),
    ("endline", "int", "edge", "endline", None),
    ("control", "string", "edge", "control", None),
    ("assumption", "string", "edge", "assumption", None),
    ("assumption.scope", "string", "edge", "assumption.scope", None),
    ("assumption.resultfunction", "string", "edge", "assumption.resultfunction", None),
    ("enterFunction", "string", "edge", "enterFunction", None),
    ("returnFromFunction", "string", "edge", "returnFrom", None),
];

/// The data of the witness transition for edge `e` (whose call produced `result`, if any); empty
/// when the edge needs none.
fn edge_data(prog: &Program, cfa: &Cfa, e: EdgeId, result: Option<&InputValue>) -> Vec<(&'static str, String)> {
    let edge = cfa.edge(e);
    let mut data = Vec::new();
    let lines = |data: &mut Vec<(&'static str, String)>| {
        if let Some((a, b)) = edge.lines {
            push_lines(data, a, b);
        }
    };
    match &edge.kind {
        EdgeKind::Assume { truth, .. } => {
            lines(&mut data);
            data.push(("control", if *truth { "condition-true" } else { "condition-false" }.to_string()));
        }
        EdgeKind::Call(cs) => {
            lines(&mut data);
            data.push(("enterFunction", prog.func(cfa.call_site(*cs).callee).name.clone()));
        }
        EdgeKind::Return(cs) => {
            lines(&mut data);
            data.push(("returnFrom", prog.func(cfa.call_site(*cs).callee).name.clone()));
        }
        EdgeKind::ExternCall { callee, .. } => {
            let ExprKind::Func(f) = callee.strip_implicit().kind else { return data };
            let Some(inp) = result.filter(|i| !i.pointer_choice) else { return data };
            let signed = inp.ty.is_some_and(|t| matches!(prog.types.kind(t), TypeKind::Int(it) if it.signed));
            let float = inp
                .ty
                .filter(|&t| matches!(prog.types.kind(t), TypeKind::Float(_)))
                .map(|t| prog.types.float_format(t));
            let value = match float {
                // A finite value exactly, as a hexadecimal constant of its type; a NaN or an
                // infinity has no constant to compare with: the witness leaves the result open.
                Some(Some(f)) if !f.is_nan(inp.value) && !f.is_infinite(inp.value) => {
                    let suffix = if f == fp::Format::Single { "f" } else { "" };
                    format!("{}{suffix}", fp::hex_literal(f, inp.value))
                }
                Some(_) => {
                    lines(&mut data);
                    return data;
                }
                None if signed => inp.signed().to_string(),
                None => format!("{}U", inp.value),
            };
            lines(&mut data);
            data.push(("assumption", format!("\\result == {value};")));
            data.push(("assumption.resultfunction", prog.func(f).name.clone()));
        }
        _ => {}
    }
    data
}

/// XML text escaping (GraphML witnesses, Test-Comp files).
pub fn xml_escape(s: &str) -> String {
    markup::escape(s, Apostrophe::Named)
}

/// SHA-256 of `bytes`, lowercase hex (`programhash` of witnesses and Test-Comp metadata).
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// `t` in UTC as ISO 8601 with whole seconds, e.g. `2024-05-01T12:00:00Z` (`creationtime`).
pub fn utc_timestamp(t: SystemTime) -> String {
    let t = time::OffsetDateTime::from(t);
    let t = t.replace_nanosecond(0).unwrap_or(t);
    t.format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// The start of a GraphML witness of type `witness_type`: `GRAPH_KEYS` and the `keys` it uses besides, the graph's metadata
/// from `info` and the entry node `N0`.
pub(crate) fn graphml_start(info: &WitnessInfo, witness_type: &str, keys: &[GraphmlKey]) -> String {
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    out.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for &(name, ty, on, id, default) in GRAPH_KEYS.iter().chain(keys) {
        match default {
            Some(d) => {
                let _ = writeln!(
                    out,
                    " <key attr.name=\"{name}\" attr.type=\"{ty}\" for=\"{on}\" id=\"{id}\">\n  <default>{d}</default>\n </key>"
                );
            }
            None => {
                let _ = writeln!(out, " <key attr.name=\"{name}\" attr.type=\"{ty}\" for=\"{on}\" id=\"{id}\"/>");
            }
        }
    }
    out.push_str(" <graph edgedefault=\"directed\">\n");
    for (key, value) in [
        ("witness-type", witness_type),
        ("sourcecodelang", "C"),
        ("producer", info.producer.as_str()),
        ("specification", info.specification.as_str()),
        ("programfile", info.program_file.as_str()),
        ("programhash", info.program_hash.as_str()),
        ("architecture", info.architecture.as_str()),
        ("creationtime", info.creation_time.as_str()),
    ] {
        let _ = writeln!(out, "  <data key=\"{key}\">{}</data>", xml_escape(value));
    }
    out.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n");
    out
}

/// A GraphML key: its name, type, the element it is for, its id and its default value.
pub(crate) type GraphmlKey = (&'static str, &'static str, &'static str, &'static str, Option<&'static str>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_iso_8601() {
        let at = |s: u64| utc_timestamp(std::time::UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_714_564_800 + 3661), "2024-05-01T13:01:01Z");
        let with_nanos = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1500);
        assert_eq!(utc_timestamp(with_nanos), "1970-01-01T00:00:01Z");
    }

    #[test]
    fn repeated_blocks_fold_into_runs() {
        let runs = |s: &str| {
            let steps: Vec<char> = s.chars().collect();
            fold_repeats(&steps).iter().map(|r| (r.start, r.len, r.times)).collect::<Vec<_>>()
        };
        assert_eq!(runs(""), vec![]);
        assert_eq!(runs("abc"), vec![(0, 1, 1), (1, 1, 1), (2, 1, 1)]);
        assert_eq!(runs("aaaaab"), vec![(0, 2, 2), (4, 1, 1), (5, 1, 1)]);
        // The block that saves most wins: `ab` three times, not `a` alone.
        assert_eq!(runs("xababab"), vec![(0, 1, 1), (1, 2, 3)]);
        // A partial repetition after the block is written out.
        assert_eq!(runs("ababa"), vec![(0, 2, 2), (4, 1, 1)]);
        // Every step is in exactly one run, in order.
        let s = "abcabcabcxyxyz";
        let mut at = 0;
        for (start, len, times) in runs(s) {
            assert_eq!(start, at);
            at += len * times;
        }
        assert_eq!(at, s.len());
    }

    #[test]
    fn sha256_of_abc() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
