//! `vcov-claims.json`: the lines vcov claims each test of a suite executes (schema version 1).
//!
//! ```json
//! {"program": "program.c", "schema_version": 1,
//!  "tests": [{"file": "test1.xml", "id": 1, "lines": [3, 4, 13], "origin": "generated",
//!             "terminating": true, "violates_property": false}]}
//! ```
//! - `error_label` (optional, top level): reaching a label `ERROR` violates the property too.
//! - `file`: the test case in the same directory; `lines`: the claimed lines, ascending (physical
//!   lines of the program file); `id`: the execution's number in vcov's report.
//! - Optional: `origin` (where the execution came from), `terminating` (the execution returns from
//!   `main`), `violates_property` (it calls `reach_error` or fails an assertion). `vcov replay`
//!   checks these two when they are present.
//! - Optional: `inputs`, every value the execution consumed in order, as
//!   `{"function": F, "type": T, "value": "decimal"}`: the answers of `__VERIFIER_nondet_*` calls (also
//!   in the Test-Comp file), and those of other functions without body and the bytes of
//!   uninitialized memory (`<uninitialized memory>`), which the Test-Comp format has no place for.
//!   `vcov replay` feeds these when present. `uninitialized_memory: true` marks an execution whose
//!   path depends on such bytes: no Test-Comp harness can set them.
//! - Optional: `memory`, what the replay harness needs to rebuild the memory the execution read
//!   (allocations numbered from 0 along the execution): `{"input": I, "alloc": A, "offset": O,
//!   "pointer": B}` (input I, counted from 1, is the byte, or pointer, at offset O of allocation A,
//!   read before anything was written there), `{"input": I, "fresh": A}` (pointer input I chose fresh
//!   memory, allocation A), `{"alloc": A, "var": V, "variable": NAME, "instance": K}` (allocation A
//!   is the K-th storage of the program's variable number V).
//!
//! Keys are written in alphabetical order. Written with `serde_json::Value` rather than derives: `report` stays the only module with serde
//! derives, and the schema is small.
//!
//! Invariant: `read_claims(&claims_json(c)) == c` (with lines sorted and deduplicated).

use serde_json::{json, Map, Value};

use super::testcomp::TestInput;
use super::ReadError;
use crate::coverage::result::MemoryFact;

/// The name of the claims file in a suite directory.
pub const CLAIMS_FILE: &str = "vcov-claims.json";

/// Version of the claims file's schema; later versions only add fields.
pub const SCHEMA_VERSION: u64 = 1;

/// What vcov claims about the tests of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claims {
    /// The program, as given to vcov.
    pub program: String,
    /// Whether reaching a label named `ERROR` (in any case) violates the property, as calls of
    /// `reach_error` do (`error_label` in the file; absent: no).
    pub error_label: bool,
    /// One entry per test case.
    pub tests: Vec<TestClaim>,
}

/// What vcov claims about one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestClaim {
    /// The test case's file name (`test1.xml`).
    pub file: String,
    /// The execution's number.
    pub id: usize,
    /// Where the execution came from.
    pub origin: Option<String>,
    /// Lines the execution covers, ascending.
    pub lines: Vec<u32>,
    /// Whether the execution returns from `main`.
    pub terminating: Option<bool>,
    /// Whether the execution violates the property.
    pub violates_property: Option<bool>,
    /// Every value the execution consumed, in order, when vcov wrote the test.
    pub inputs: Option<Vec<TestInput>>,
    /// Whether the execution read bytes of uninitialized memory (values no Test-Comp harness sets).
    pub uninitialized_memory: Option<bool>,
    /// Where the execution's inputs of uninitialized memory lie (`memory` in the file; empty when
    /// absent).
    pub memory: Vec<MemoryFact>,
}

/// The claims file.
pub fn claims_json(claims: &Claims) -> String {
    let tests: Vec<Value> = claims
        .tests
        .iter()
        .map(|t| {
            let mut lines = t.lines.clone();
            lines.sort_unstable();
            lines.dedup();
            let mut m = Map::new();
            m.insert("file".into(), json!(t.file));
            m.insert("id".into(), json!(t.id));
            if let Some(o) = &t.origin {
                m.insert("origin".into(), json!(o));
            }
            m.insert("lines".into(), json!(lines));
            if let Some(b) = t.terminating {
                m.insert("terminating".into(), json!(b));
            }
            if let Some(b) = t.violates_property {
                m.insert("violates_property".into(), json!(b));
            }
            if let Some(inputs) = &t.inputs {
                let list: Vec<Value> = inputs
                    .iter()
                    .map(|i| {
                        json!({
                            "function": i.variable.clone().unwrap_or_default(),
                            "type": i.c_type.clone().unwrap_or_default(),
                            "value": i.value.to_string(),
                        })
                    })
                    .collect();
                m.insert("inputs".into(), Value::Array(list));
            }
            if let Some(b) = t.uninitialized_memory {
                m.insert("uninitialized_memory".into(), json!(b));
            }
            if !t.memory.is_empty() {
                m.insert("memory".into(), Value::Array(t.memory.iter().map(memory_fact_json).collect()));
            }
            Value::Object(m)
        })
        .collect();
    let mut doc = json!({"schema_version": SCHEMA_VERSION, "program": claims.program, "tests": tests});
    if claims.error_label {
        doc["error_label"] = json!(true);
    }
    let mut res = serde_json::to_string(&doc).expect("JSON values serialize");
    res.push('\n');
    res
}

/// One memory fact: `{"input": 4, "alloc": 7, "offset": 0, "pointer": true}` (input 4, counted
/// from 1, was read at offset 0 of allocation 7), `{"input": 3, "fresh": 9}` (pointer input 3 chose
/// fresh memory, allocation 9), `{"alloc": 7, "var": 12, "variable": "x", "instance": 1}`.
fn memory_fact_json(f: &MemoryFact) -> Value {
    match f {
        MemoryFact::At { input, alloc, offset, pointer } => {
            json!({"input": input + 1, "alloc": alloc, "offset": offset, "pointer": pointer})
        }
        MemoryFact::Fresh { input, alloc } => json!({"input": input + 1, "fresh": alloc}),
        MemoryFact::Var { alloc, var, name, instance } => {
            json!({"alloc": alloc, "var": var, "variable": name, "instance": instance})
        }
    }
}

fn read_memory_fact(v: &Value) -> Option<MemoryFact> {
    let num = |key: &str| v.get(key).and_then(Value::as_u64);
    let small = |key: &str| num(key).and_then(|n| u32::try_from(n).ok());
    let input = || num("input").and_then(|n| usize::try_from(n).ok()).filter(|&n| n > 0).map(|n| n - 1);
    if let Some(fresh) = small("fresh") {
        return Some(MemoryFact::Fresh { input: input()?, alloc: fresh });
    }
    if let Some(var) = small("var") {
        let name = v.get("variable").and_then(Value::as_str).unwrap_or_default().to_string();
        return Some(MemoryFact::Var { alloc: small("alloc")?, var, name, instance: small("instance")? });
    }
    let pointer = v.get("pointer").and_then(Value::as_bool).unwrap_or(false);
    Some(MemoryFact::At { input: input()?, alloc: small("alloc")?, offset: num("offset")?, pointer })
}

/// Reads a claims file.
pub fn read_claims(text: &str) -> Result<Claims, ReadError> {
    let doc: Value = serde_json::from_str(text)
        .map_err(|e| ReadError::at(e.line() as u32, e.column() as u32, format!("not valid JSON: {e}")))?;
    let bad = |what: &str| ReadError::new(format!("{what} (see the schema in the documentation of `vcov replay`)"));
    let obj = doc.as_object().ok_or_else(|| bad("expected a JSON object"))?;
    if let Some(v) = obj.get("schema_version") {
        v.as_u64().ok_or_else(|| bad("`schema_version` must be a number"))?;
    }
    let program = obj.get("program").and_then(Value::as_str).unwrap_or_default().to_string();
    let tests = obj.get("tests").and_then(Value::as_array).ok_or_else(|| bad("`tests` must be an array"))?;
    let mut res = Vec::new();
    for (i, t) in tests.iter().enumerate() {
        let n = i + 1;
        let t = t.as_object().ok_or_else(|| bad(&format!("test {n}: expected an object")))?;
        let file = t
            .get("file")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(&format!("test {n}: `file` must be a string")))?
            .to_string();
        let lines = t
            .get("lines")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(&format!("{file}: `lines` must be an array")))?
            .iter()
            .map(|l| l.as_u64().and_then(|l| u32::try_from(l).ok()))
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(|| bad(&format!("{file}: `lines` must hold line numbers")))?;
        let flag = |key: &str| -> Result<Option<bool>, ReadError> {
            match t.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v.as_bool().map(Some).ok_or_else(|| bad(&format!("{file}: `{key}` must be true or false"))),
            }
        };
        let inputs = match t.get("inputs") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let list = v.as_array().ok_or_else(|| bad(&format!("{file}: `inputs` must be an array")))?;
                let mut inputs = Vec::new();
                for (k, i) in list.iter().enumerate() {
                    let text = |key: &str| i.get(key).and_then(Value::as_str).map(str::to_string);
                    let value = text("value").and_then(|v| v.parse::<i128>().ok()).ok_or_else(|| {
                        bad(&format!("{file}: input {}: `value` must be a decimal integer in a string", k + 1))
                    })?;
                    inputs.push(TestInput { variable: text("function"), c_type: text("type"), value });
                }
                Some(inputs)
            }
        };
        let memory = match t.get("memory") {
            None | Some(Value::Null) => Vec::new(),
            Some(v) => {
                let list = v.as_array().ok_or_else(|| bad(&format!("{file}: `memory` must be an array")))?;
                let mut facts = Vec::new();
                for (k, f) in list.iter().enumerate() {
                    facts.push(read_memory_fact(f).ok_or_else(|| {
                        bad(&format!(
                            "{file}: memory fact {}: expected input/alloc/offset, input/fresh or alloc/var/instance",
                            k + 1
                        ))
                    })?);
                }
                facts
            }
        };
        let mut lines = lines;
        lines.sort_unstable();
        lines.dedup();
        res.push(TestClaim {
            memory,
            id: t.get("id").and_then(Value::as_u64).map_or(n, |v| v as usize),
            origin: t.get("origin").and_then(Value::as_str).map(str::to_string),
            terminating: flag("terminating")?,
            violates_property: flag("violates_property")?,
            uninitialized_memory: flag("uninitialized_memory")?,
            inputs,
            lines,
            file,
        });
    }
    let error_label = match obj.get("error_label") {
        None | Some(Value::Null) => false,
        Some(v) => v.as_bool().ok_or_else(|| bad("`error_label` must be true or false"))?,
    };
    Ok(Claims { program, error_label, tests: res })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_round_trip() {
        let claims = Claims {
            program: "a \"b\".c".into(),
            error_label: true,
            tests: vec![
                TestClaim {
                    file: "test1.xml".into(),
                    id: 1,
                    origin: Some("generated".into()),
                    lines: vec![3, 4, 9],
                    terminating: Some(true),
                    violates_property: Some(false),
                    inputs: Some(vec![
                        TestInput {
                            variable: Some("__VERIFIER_nondet_int".into()),
                            c_type: Some("int".into()),
                            value: -3,
                        },
                        TestInput {
                            variable: Some("<uninitialized memory>".into()),
                            c_type: Some("unsigned char".into()),
                            value: 200,
                        },
                    ]),
                    uninitialized_memory: Some(true),
                    memory: vec![
                        MemoryFact::At { input: 1, alloc: 3, offset: 8, pointer: false },
                        MemoryFact::Fresh { input: 0, alloc: 4 },
                        MemoryFact::Var { alloc: 3, var: 12, name: "buf".into(), instance: 2 },
                    ],
                },
                TestClaim {
                    file: "test2.xml".into(),
                    id: 7,
                    origin: None,
                    lines: vec![],
                    terminating: None,
                    violates_property: None,
                    inputs: None,
                    uninitialized_memory: None,
                    memory: vec![],
                },
            ],
        };
        let text = claims_json(&claims);
        assert!(
            text.starts_with(
                r#"{"error_label":true,"program":"a \"b\".c","schema_version":1,"tests":[{"file":"test1.xml","id":1,"#
            ),
            "{text}"
        );
        assert_eq!(read_claims(&text).unwrap(), claims);
    }

    #[test]
    fn hand_written_claims_need_only_file_and_lines() {
        let c = read_claims(r#"{"tests": [{"file": "t.xml", "lines": [5, 2, 5]}]}"#).unwrap();
        assert_eq!(c.tests[0].lines, vec![2, 5]);
        assert_eq!(c.tests[0].id, 1);
    }

    #[test]
    fn malformed_claims_are_errors() {
        assert!(read_claims("{").unwrap_err().to_string().starts_with("1:1: not valid JSON"));
        let e = read_claims(r#"{"tests": [{"file": "t.xml", "lines": [-1]}]}"#).unwrap_err();
        assert!(e.message.starts_with("t.xml: `lines` must hold line numbers"), "{e}");
        let e = read_claims(r#"{"tests": [{"file": "t.xml", "lines": [], "terminating": 1}]}"#).unwrap_err();
        assert!(e.message.contains("`terminating` must be true or false"), "{e}");
        let e = read_claims(r#"{"tests": [{"file": "t.xml", "lines": [], "inputs": [{"value": 3}]}]}"#).unwrap_err();
        assert!(e.message.contains("input 1: `value` must be a decimal integer"), "{e}");
    }
}
