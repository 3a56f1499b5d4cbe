//! A whole test suite of executions: the Test-Comp files (`testcomp`) and the claims file
//! (`claims`) that say what each test executes. Apart from both, so that neither format knows the
//! other (the claims file only borrows the Test-Comp input type).

use super::claims::{self, TestClaim};
use super::testcomp::{
    is_testcomp_input, metadata_xml, test_file_name, testcase_xml, SuiteMetadata, TestInput, METADATA_FILE,
};
use crate::coverage::result::{ExecutionRecord, InputValue, Origin, UNINITIALIZED};

/// Every file of the suite for `executions`, as (file name, contents): `metadata.xml`, one
/// `test{id}.xml` per execution (the answers of its `__VERIFIER_nondet_*` calls, in order), and the
/// claims file `vcov-claims.json` (the lines, how the run ends, and every input it consumed).
/// `error_label`: reaching a label `ERROR` violates the property (recorded in the claims);
/// `origin` labels where an execution came from (`report::words::origin`, which the reports use).
pub fn test_suite_files(
    meta: &SuiteMetadata,
    executions: &[ExecutionRecord],
    error_label: bool,
    origin: fn(&Origin) -> String,
) -> Vec<(String, String)> {
    let mut res = vec![(METADATA_FILE.to_string(), metadata_xml(meta))];
    let mut tests = Vec::new();
    for e in executions {
        let file = test_file_name(e.id);
        let nondet: Vec<InputValue> = e.inputs.iter().filter(|i| is_testcomp_input(&i.function)).cloned().collect();
        res.push((file.clone(), testcase_xml(&nondet, meta.architecture, e.violates_property)));
        tests.push(TestClaim {
            file,
            id: e.id,
            origin: Some(origin(&e.origin)),
            lines: e.lines.clone(),
            terminating: Some(e.terminating),
            violates_property: Some(e.violates_property),
            inputs: Some(
                e.inputs
                    .iter()
                    .map(|i| TestInput {
                        variable: Some(i.function.clone()),
                        c_type: Some(i.c_type.clone()),
                        value: i.value,
                    })
                    .collect(),
            ),
            uninitialized_memory: Some(e.inputs.iter().any(|i| i.function == UNINITIALIZED)),
            memory: e.memory.clone(),
        });
    }
    let claims = claims::Claims { program: meta.program_file.clone(), error_label, tests };
    res.push((claims::CLAIMS_FILE.to_string(), claims::claims_json(&claims)));
    res
}
