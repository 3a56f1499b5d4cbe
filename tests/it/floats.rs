//! IEEE floating point end to end (issue #50): `vcov verify` decides programs over nondeterministic
//! `float`s and `double`s, `vcov coverage` with everything explored decides every line, its tests
//! write the values exactly (hexadecimal constants) and replay under gcc, and violation witnesses
//! state a finite float result exactly; BMC and k-induction decide float programs too.

use crate::util::{fixture, vcov};

fn verdict(name: &str, model: &str) -> String {
    let run = vcov(["verify".as_ref(), fixture(&format!("c/floats/{name}")).as_os_str(), model.as_ref()]);
    run.stdout.lines().find(|l| l.starts_with("Verification result:")).unwrap_or_default().to_string()
}

#[test]
fn verdicts_over_nondeterministic_floats_are_decided_in_both_data_models() {
    for model in ["--32", "--64"] {
        assert_eq!(verdict("doubled_stays_bigger.c", model), "Verification result: TRUE", "{model}");
        assert_eq!(verdict("doubled_without_range.c", model), "Verification result: FALSE(unreach-call)", "{model}");
        assert_eq!(verdict("division_round_trip.c", model), "Verification result: FALSE(unreach-call)", "{model}");
    }
}

#[test]
fn k_induction_decides_a_float_loop_the_explicit_search_cannot_end_in_both_data_models() {
    let program = fixture("c/floats/bounded_by_reset.c");
    for model in ["--32", "--64"] {
        let run = vcov(["verify".as_ref(), program.as_os_str(), model.as_ref(), "--stats".as_ref()]);
        assert!(run.stdout.starts_with("Verification result: TRUE\n"), "{model}: {}", run.stdout);
        assert!(run.stdout.contains("Decided by: k-induction"), "{model}: {}", run.stdout);
        assert!(run.stdout.contains("TRUE at k = 1"), "{model}: {}", run.stdout);
        // The explicit search alone, within a limit, does not end the loop.
        let run = vcov(
            ["verify", "--dfs", "--timelimit", "1", model]
                .map(std::ffi::OsStr::new)
                .into_iter()
                .chain([program.as_os_str()]),
        );
        assert!(run.stdout.starts_with("Verification result: UNKNOWN"), "{model}: {}", run.stdout);
    }
}

#[test]
fn a_float_program_with_everything_explored_is_decided_and_its_tests_replay_under_gcc() {
    let dir = tempfile::tempdir().unwrap();
    let program = fixture("c/floats/division_round_trip.c");
    let suite = dir.path().join("suite");
    let aa = fixture("../assumption-automata/true.spc");
    let run = vcov([
        "coverage".as_ref(),
        program.as_os_str(),
        "--aa".as_ref(),
        aa.as_os_str(),
        "--64".as_ref(),
        "--evidence".as_ref(),
        suite.as_os_str(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("exact: every line of the over-approximation is covered"), "{}", run.stdout);
    // The inputs are hexadecimal constants of type double.
    let tests: Vec<String> = (1..)
        .map(|i| suite.join(format!("test{i}.xml")))
        .take_while(|p| p.exists())
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(tests.len() >= 2, "{} tests", tests.len());
    let inputs: Vec<&str> = tests.iter().flat_map(|t| t.lines()).filter(|l| l.contains("<input")).collect();
    assert!(inputs.iter().all(|l| l.contains("type=\"double\"")), "{inputs:?}");
    assert!(inputs.iter().any(|l| l.contains(">0x1.") || l.contains(">0x0.")), "{inputs:?}");
    let replay = vcov(["replay".as_ref(), program.as_os_str(), suite.as_os_str()]);
    assert_eq!(replay.code, 0, "{}{}", replay.stdout, replay.stderr);
    let n = tests.len();
    assert!(replay.stdout.contains(&format!("replay: {n} tests, {n} confirmed, 0 not confirmed")), "{}", replay.stdout);
}

#[test]
fn a_violation_witness_states_the_float_it_read_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let witness = dir.path().join("witness.graphml");
    let program = fixture("c/floats/division_round_trip.c");
    let run =
        vcov(["verify".as_ref(), program.as_os_str(), "--64".as_ref(), "--witness".as_ref(), witness.as_os_str()]);
    assert!(run.stdout.contains("FALSE(unreach-call)"), "{}", run.stdout);
    let text = std::fs::read_to_string(&witness).unwrap();
    let assumption = text.lines().find(|l| l.contains("\\result ==")).expect("an assumption on the input");
    let value = assumption.split("\\result == ").nth(1).unwrap().split(';').next().unwrap();
    // Which counterexample is found depends on the engine that wins (a subnormal is one too).
    assert!((value.starts_with("0x1.") || value.starts_with("0x0.")) && value.contains('p'), "{assumption}");
    // The value is the double the counterexample needs: in (0, 10) and (x / 3) * 3 != x.
    let bits = vcov::base::fp::parse(vcov::base::fp::Format::Double, value).expect("a hexadecimal constant");
    let x = f64::from_bits(bits as u64);
    assert!(x > 0.0 && x < 10.0 && (x / 3.0) * 3.0 != x, "{x}");
}
