//! `vcov verify` end to end: verdict lines, exit codes, witnesses, statistics.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sha2::{Digest, Sha256};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/c/verify").join(name)
}

fn vcov(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vcov")).arg("verify").args(args).env_clear().output().expect("vcov runs")
}

/// The verdict line and the exit code of `vcov verify ARGS`.
fn verdict(args: &[&str]) -> (String, i32) {
    let out = vcov(args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("Verification result:")).unwrap_or("").to_string();
    (line, out.status.code().unwrap_or(-1))
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

#[test]
fn verdicts_of_the_fixtures() {
    let cases: &[(&str, &[&str], &str)] = &[
        ("safe_loop.c", &[], "Verification result: TRUE"),
        ("bug_call.c", &[], "Verification result: FALSE(unreach-call)"),
        ("heap_list.c", &["--64"], "Verification result: TRUE"),
        ("scheduler_label.c", &["--spec", "errorlabel"], "Verification result: TRUE"),
        ("scheduler_label_bug.c", &["--spec", "errorlabel"], "Verification result: FALSE(unreach-call)"),
        // Counters whose values never repeat: their differences do (state caching by differences).
        ("counters_in_step.c", &[], "Verification result: TRUE"),
        ("counters_drift.c", &["--bfs"], "Verification result: FALSE(unreach-call)"),
        // Compared with a constant, a counter's value matters: no keying by differences.
        ("counter_limit.c", &[], "Verification result: FALSE(unreach-call)"),
    ];
    for (file, flags, expect) in cases {
        let p = fixture(file);
        let mut args = vec![path(&p)];
        args.extend_from_slice(flags);
        assert_eq!(verdict(&args), (expect.to_string(), 0), "{file}");
    }
    // An external function that receives a pointer may write through it: no proof, and no
    // counterexample that needs it not to (random testing's included).
    for file in ["unknown_extern.c", "unknown_sorter.c"] {
        let p = fixture(file);
        let (line, code) = verdict(&[path(&p)]);
        assert_eq!(code, 0);
        assert!(line.starts_with("Verification result: UNKNOWN (") && line.contains("pointer"), "{file}: {line}");
    }
}

#[test]
fn search_orders_and_modes_agree() {
    for (file, flags) in
        [("safe_loop.c", vec![]), ("bug_call.c", vec![]), ("scheduler_label_bug.c", vec!["--spec", "errorlabel"])]
    {
        let p = fixture(file);
        let mut base = vec![path(&p)];
        base.extend(flags);
        let reference = verdict(&base);
        for extra in [vec!["--bfs"], vec!["--partial-incremental"], vec!["--bfs", "--partial-incremental"]] {
            let mut args = base.clone();
            args.extend(extra.iter().copied());
            assert_eq!(verdict(&args), reference, "{file} {extra:?}");
        }
    }
}

/// The portfolio: k-induction proves what the explicit search cannot finish, BMC finds a bug the
/// replay confirms, and `--stats` names the engine that decided; the explicit search alone, within
/// a limit, does not decide the endless counter.
#[test]
fn the_portfolio_decides_loops_the_explicit_search_cannot() {
    let p = fixture("endless_counter.c");
    let out = vcov(&[path(&p), "--stats", "--timelimit", "30"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Verification result: TRUE\n"), "{stdout}");
    assert!(stdout.contains("Decided by: k-induction"), "{stdout}");
    let (line, _) = verdict(&[path(&p), "--dfs", "--timelimit", "1"]);
    assert_eq!(line, "Verification result: UNKNOWN (time limit reached)");
    let (line, _) = verdict(&[path(&p), "--kinduction"]);
    assert_eq!(line, "Verification result: TRUE");
    let p = fixture("counters_drift.c");
    let out = vcov(&[path(&p), "--kinduction", "--stats"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with(
            "Verification result: FALSE(unreach-call)\nCounterexample confirmed by: internal interpreter\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("Decided by: bmc"), "{stdout}");
    // A program with pointers is not for k-induction: the reason is given, the answer is UNKNOWN.
    let p = fixture("heap_list.c");
    let out = vcov(&[path(&p), "--64", "--kinduction"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Verification result: UNKNOWN (k-induction: unsupported: "), "{stdout}");
}

#[test]
fn unwinding_bound_gives_unknown() {
    let p = fixture("safe_loop.c");
    let (line, code) = verdict(&[path(&p), "--unwind", "3"]);
    assert_eq!(code, 0);
    assert!(line.starts_with("Verification result: UNKNOWN (") && line.contains("unwinding"), "{line}");
}

/// Checks that `text` is a well-formed XML element tree (tags balanced and properly nested).
fn assert_well_formed(text: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("tag closes") + start;
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "closing tag {name}");
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().expect("tag name").to_string());
        }
    }
    assert!(stack.is_empty(), "unclosed tags {stack:?}");
}

#[test]
fn task_file_and_witness() {
    let dir = tempfile::tempdir().expect("temp dir");
    let witness = dir.path().join("witness.graphml");
    let task = fixture("bug_call.yml");
    let (line, code) = verdict(&["--task", path(&task), "--witness", path(&witness)]);
    assert_eq!((line.as_str(), code), ("Verification result: FALSE(unreach-call)", 0));
    let text = std::fs::read_to_string(&witness).expect("witness written");
    assert_well_formed(&text);
    assert!(text.contains("<data key=\"witness-type\">violation_witness</data>"));
    assert!(text.contains("<data key=\"architecture\">32bit</data>"));
    assert!(text.contains("<data key=\"specification\">CHECK( init(main()), LTL(G ! call(reach_error())) )</data>"));
    let hash: String = Sha256::digest(std::fs::read(fixture("bug_call.c")).expect("program"))
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(text.contains(&format!("<data key=\"programhash\">{hash}</data>")), "SHA-256 of the program");
    // One entry node, one violation node, a chain of edges between them.
    assert_eq!(text.matches("<data key=\"entry\">true</data>").count(), 1);
    assert_eq!(text.matches("<data key=\"violation\">true</data>").count(), 1);
    let n_nodes = text.matches("<node id=").count();
    let n_edges = text.matches("<edge source=").count();
    assert_eq!(n_edges + 1, n_nodes);
    for k in 0..n_edges {
        assert!(text.contains(&format!("<edge source=\"N{k}\" target=\"N{}\"", k + 1)), "edge {k}");
    }
    // The nondeterministic values that lead to the error: a == 9, b == 20.
    assert!(text.contains("\\result == 9;") && text.contains("\\result == 20;"), "{text}");
    assert!(text.contains("<data key=\"enterFunction\">check</data>"));
    // The exchange format declares returnFromFunction with the id `returnFrom`.
    assert!(
        text.contains("<key attr.name=\"returnFromFunction\" attr.type=\"string\" for=\"edge\" id=\"returnFrom\"/>")
    );
    assert!(text.contains("<data key=\"returnFrom\">check</data>"), "{text}");
    assert!(text.contains("<data key=\"control\">condition-true</data>"));
    // Written atomically: no temporary file is left next to it.
    let names: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("witness.graphml")]);
}

#[test]
fn task_format_1_0_is_ilp32() {
    // `long` wraps to 0 only with 32 bits: FALSE under the 1.0 task (ILP32) even with `--64`, TRUE
    // for the program alone under `--64`.
    let task = fixture("long_size_1_0.yml");
    assert_eq!(verdict(&["--task", path(&task), "--64"]), ("Verification result: FALSE(unreach-call)".into(), 0));
    let p = fixture("long_size.c");
    assert_eq!(verdict(&[path(&p), "--64"]), ("Verification result: TRUE".into(), 0));
    assert_eq!(verdict(&[path(&p), "--32"]), ("Verification result: FALSE(unreach-call)".into(), 0));
}

/// Runs witnesslint (sv-witnesses' linter) on `witness` for `program` and asserts that it passes
/// without warnings.
fn witnesslint(witness: &Path, program: &Path) {
    let (python, lint) = crate::util::witnesslint();
    let out =
        Command::new(&python).arg(&lint).arg("--witness").arg(witness).arg(program).output().expect("python runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "witnesslint rejects {}:\n{text}", witness.display());
    assert!(!text.contains("WARNING") && !text.contains("ERROR"), "witnesslint warns:\n{text}");
}

/// witnesslint accepts the correctness witnesses of k-induction and of the explicit search, and a
/// violation witness. No package registry has it, so CI does not install it: without it this test
/// is ignored, under CI too.
#[test]
#[cfg_attr(
    not(vcov_witnesslint),
    ignore = "needs witnesslint (VCOV_WITNESSLINT: witnesslinter.py, VCOV_WITNESSLINT_PYTHON: a Python with lxml)"
)]
fn witnesses_pass_witnesslint() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, (file, flags, verdict)) in [
        ("invariant_scopes.c", "--kinduction", "TRUE"),
        ("safe_loop.c", "--dfs", "TRUE"),
        ("bug_call.c", "--dfs", "FALSE(unreach-call)"),
        // A counterexample through 44 million iterations jumped over: cycles and assumptions.
        ("deep_phases.c", "--64", "FALSE(unreach-call)"),
    ]
    .into_iter()
    .enumerate()
    {
        let (p, w) = (fixture(file), dir.path().join(format!("w{i}.graphml")));
        let out = vcov(&[path(&p), flags, "--witness", path(&w)]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.starts_with(&format!("Verification result: {verdict}\n")), "{file}: {stdout}");
        witnesslint(&w, &p);
    }
}

/// The loop invariants of a YAML correctness witness: (line, column, function, value).
fn yaml_invariants(text: &str) -> Vec<(u32, u32, String, String)> {
    let field = |l: &str, key: &str| l.trim().strip_prefix(key).map(|v| v.trim().trim_matches('"').to_string());
    let mut res = Vec::new();
    let (mut line, mut column, mut function) = (0, 0, String::new());
    for l in text.lines() {
        if let Some(v) = field(l, "line:") {
            line = v.parse().expect("a line number");
        } else if let Some(v) = field(l, "column:") {
            column = v.parse().expect("a column");
        } else if let Some(v) = field(l, "function:") {
            function = v;
        } else if let Some(v) = field(l, "value:") {
            res.push((line, column, function.clone(), v));
        }
    }
    res
}

#[test]
fn witnesses_are_written_when_the_reader_closes_the_pipe_after_the_verdict() {
    // `vcov verify ... | head -1`: stdout closes after the first line; both witnesses are still there.
    let dir = tempfile::tempdir().expect("temp dir");
    let (graphml, yml) = (dir.path().join("w.graphml"), dir.path().join("w.yml"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_vcov"))
        .args(["verify", path(&fixture("invariant_scopes.c")), "--kinduction", "--no-progress"])
        .args(["--witness", path(&graphml), "--witness", path(&yml)])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("vcov runs");
    let mut first = String::new();
    {
        use std::io::BufRead;
        let stdout = child.stdout.take().expect("piped");
        std::io::BufReader::new(stdout).read_line(&mut first).expect("a line");
        // Dropping the reader closes the pipe.
    }
    child.wait().expect("vcov ends");
    assert_eq!(first, "Verification result: TRUE\n");
    assert!(std::fs::read_to_string(&graphml).expect("GraphML witness written").contains("<graphml"));
    assert!(std::fs::read_to_string(&yml).expect("YAML witness written").contains("invariant_set"));
}

#[test]
fn correctness_witnesses_hold_the_visible_invariants_of_the_proof() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (graphml, yml) = (dir.path().join("w.graphml"), dir.path().join("w.yml"));
    let p = fixture("invariant_scopes.c");
    let out = vcov(&[path(&p), "--kinduction", "--witness", path(&graphml), "--witness", path(&yml)]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Verification result: TRUE\n"), "{stdout}");
    let source = std::fs::read_to_string(&p).unwrap();
    let yaml = std::fs::read_to_string(&yml).expect("YAML witness written");
    assert!(yaml.starts_with("- entry_type: invariant_set\n  metadata:\n    format_version: \"2.0\"\n"), "{yaml}");
    assert!(yaml.contains("data_model: ILP32") && yaml.contains("language: C"), "{yaml}");
    let invariants = yaml_invariants(&yaml);
    // Every location is the first character of a loop's keyword.
    for (line, column, _, value) in &invariants {
        let text = &source.lines().nth(*line as usize - 1).unwrap()[*column as usize - 1..];
        assert!(text.starts_with("while"), "{value} at {line}:{column}: {text}");
    }
    let at = |f: &str, v: &str| invariants.iter().any(|(_, _, func, value)| func == f && value == v);
    assert!(at("main", "x == y"), "{invariants:?}");
    // `s == 2*i` modulo 2^32, an equality of the simulated runs over the helper's locals.
    assert!(at("add_twice", "(unsigned int)i * 2U - (unsigned int)s == 0U"), "{invariants:?}");
    assert!(at("add_twice", "s % 2 == 0"), "{invariants:?}");
    // `total` at the helper's loop is the global (0, then 6): main's local `total` (always 0) is no
    // variable there, and the variable declared in main's loop is in no invariant.
    assert!(!at("add_twice", "total <= 0U"), "{invariants:?}");
    assert!(at("add_twice", "total % 2 == 0"), "{invariants:?}");
    assert!(invariants.iter().all(|(_, _, _, v)| !v.contains("step")), "{invariants:?}");
    assert!(invariants.iter().all(|(_, _, f, v)| f != "add_twice" || !(v.contains('x') || v.contains('y'))));
    let text = std::fs::read_to_string(&graphml).expect("GraphML witness written");
    assert!(text.contains("<data key=\"witness-type\">correctness_witness</data>"), "{text}");
    assert!(text.contains("<data key=\"invariant.scope\">main</data>"), "{text}");
    assert!(text.contains("&amp;&amp; (x == y)</data>"), "{text}");
    assert!(!text.contains("violation"), "{text}");
}

#[test]
fn a_true_of_the_explicit_search_has_a_trivial_correctness_witness() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (graphml, yml) = (dir.path().join("w.graphml"), dir.path().join("w.yaml"));
    let p = fixture("safe_loop.c");
    let out = vcov(&[path(&p), "--dfs", "--witness", path(&graphml), "--witness", path(&yml)]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Verification result: TRUE\n"));
    let yaml = std::fs::read_to_string(&yml).expect("YAML witness written");
    // The invariant `1` at the loop (`while (i < n)` on line 11).
    assert_eq!(yaml_invariants(&yaml), vec![(11, 3, "main".to_string(), "1".to_string())], "{yaml}");
    let text = std::fs::read_to_string(&graphml).expect("GraphML witness written");
    assert!(text.contains("correctness_witness") && !text.contains("<data key=\"invariant\">"), "{text}");
    assert!(!text.contains("<edge"), "the entry node alone: {text}");
    // A FALSE answer has no YAML witness (only the GraphML one).
    let (graphml, yml) = (dir.path().join("f.graphml"), dir.path().join("f.yml"));
    let p = fixture("bug_call.c");
    let out = vcov(&[path(&p), "--witness", path(&graphml), "--witness", path(&yml)]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Verification result: FALSE"));
    assert!(graphml.exists() && !yml.exists());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no YAML violation witness"));
}

#[test]
fn no_progress_line_when_standard_error_is_no_terminal() {
    let p = fixture("safe_loop.c");
    let out = vcov(&[path(&p)]);
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bad_input_exits_with_2() {
    let p = fixture("syntax_error.c");
    let out = vcov(&[path(&p)]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("syntax_error.c:2:11:"), "{stderr}");
    assert!(out.stdout.is_empty());
    let out = vcov(&["/nonexistent/program.c"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/program.c"));
    // A task file with an error names its line and column.
    let dir = tempfile::tempdir().expect("temp dir");
    let yml = dir.path().join("t.yml");
    std::fs::write(&yml, "input_files: 'a.c'\noptions:\n  data_model: ILP64\n").expect("write");
    let out = vcov(&["--task", path(&yml)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("t.yml:3:15: unknown data_model"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn statistics() {
    let p = fixture("scheduler_label.c");
    let out = vcov(&[path(&p), "--spec", "errorlabel", "--stats"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    for key in [
        "paths explored:",
        "branch checks:",
        "infeasible branches pruned:",
        "solver calls:",
        "state cache hits:",
        "best-first copies:",
        "time in solver:",
        "time in encoding:",
        "time in the rest:",
    ] {
        assert!(stdout.contains(key), "missing {key} in\n{stdout}");
    }
}

/// The SystemC programs of the shared corpus, when present: a correct and a buggy one.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn corpus_smoke() {
    let systemc = crate::util::corpus().join("fse12/systemc");
    for (file, expect) in [("token_ring.01.c", "TRUE"), ("token_ring.01.BUG.c", "FALSE(unreach-call)")] {
        let p = systemc.join(file);
        let (line, code) = verdict(&[path(&p), "--spec", "errorlabel", "--32", "--timelimit", "60"]);
        assert_eq!((line, code), (format!("Verification result: {expect}"), 0), "{file}");
    }
}

/// `vcov verify ARGS` with `PATH` kept (gcc needs it to find its tools).
fn vcov_with_path(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vcov"))
        .arg("verify")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .expect("vcov runs")
}

/// `--confirm` runs the counterexample's inputs in the program gcc builds for the data model `model`.
fn confirm_runs_the_counterexample_under_gcc(model: &str) {
    let p = fixture("bug_nondet.c");
    let out = vcov_with_path(&[path(&p), model, "--confirm"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let flag = model.replace("--", "-m");
    assert_eq!(
        stdout,
        format!(
            "Verification result: FALSE(unreach-call)\nCounterexample confirmed by: internal interpreter and gcc {flag}\n"
        ),
        "{model}"
    );
}

#[test]
fn confirm_runs_the_counterexample_under_gcc_under_lp64() {
    confirm_runs_the_counterexample_under_gcc("--64");
    // Without `--confirm`, the interpreter alone.
    let out = vcov(&[path(&fixture("bug_nondet.c"))]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Verification result: FALSE(unreach-call)\nCounterexample confirmed by: internal interpreter\n"
    );
}

#[test]
#[cfg_attr(not(any(vcov_gcc32, vcov_ci)), ignore = "needs gcc -m32 (gcc-multilib)")]
fn confirm_runs_the_counterexample_under_gcc_under_ilp32() {
    crate::util::require_gcc32();
    confirm_runs_the_counterexample_under_gcc("--32");
}

/// A bug behind 44,739,407 iterations of a loop in two phases (a call in one, an inner loop of four
/// in each): the concrete run jumps over them, gcc confirms the counterexample, and the witness
/// writes each jumped-over loop as a cycle whose exit assumes the values it left.
#[test]
fn a_bug_behind_tens_of_millions_of_iterations_is_found_by_jumping_over_them() {
    let p = fixture("deep_phases.c");
    let dir = tempfile::tempdir().expect("temp dir");
    let w = dir.path().join("w.graphml");
    let out = vcov_with_path(&[path(&p), "--64", "--confirm", "--timelimit", "60", "--witness", path(&w)]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "Verification result: FALSE(unreach-call)\nCounterexample confirmed by: internal interpreter and gcc -m64\n\
             Witness written to {}\n",
            w.display()
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&w).expect("witness");
    assert!(text.contains("<data key=\"assumption\">n == 268435440U; k == 178957628U;</data>"), "{text}");
    assert!(text.lines().filter(|l| l.starts_with("  <edge")).count() < 80, "the loops are cycles:\n{text}");
}

/// A bug behind 33,554,430 iterations on one input value: the explicit search jumps over the
/// iterations and the solver finds the value (`n == x + steps + 12345` after the loop), which gcc
/// confirms; the witness assumes the loop's values and the input.
#[test]
fn the_explicit_search_jumps_over_a_deep_loop_and_solves_for_the_input_behind_it() {
    let p = fixture("deep_input.c");
    let dir = tempfile::tempdir().expect("temp dir");
    let w = dir.path().join("w.graphml");
    let out = vcov_with_path(&[path(&p), "--64", "--dfs", "--confirm", "--timelimit", "60", "--witness", path(&w)]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with(
            "Verification result: FALSE(unreach-call)\nCounterexample confirmed by: internal interpreter and gcc -m64\n"
        ),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&w).expect("witness");
    assert!(text.contains("<data key=\"assumption\">\\result == 302002215U;</data>"), "{text}");
    assert!(text.contains("<data key=\"assumption\">x == 268435440U; steps == 33554430U;</data>"), "{text}");
}

/// A `reach_error` with a body (SV-COMP's tasks define it to call `abort` or `__assert_fail`): gcc's
/// run records the call before the body runs, so the counterexample is confirmed.
#[test]
fn confirm_counts_the_call_of_a_reach_error_the_program_defines() {
    let p = fixture("reach_error_body.c");
    let out = vcov_with_path(&[path(&p), "--64", "--confirm"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Verification result: FALSE(unreach-call)\nCounterexample confirmed by: internal interpreter and gcc -m64\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn confirm_turns_a_counterexample_gcc_does_not_reach_into_unknown() {
    let p = fixture("uninit_bug.c");
    assert_eq!(verdict(&[path(&p), "--64"]), ("Verification result: FALSE(unreach-call)".to_string(), 0));
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("w.graphml");
    let out = vcov_with_path(&[path(&p), "--64", "--confirm", "--witness", path(&w)]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        "Verification result: UNKNOWN (counterexample not confirmed by gcc -m64: main returned 0)\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!w.exists(), "no witness for an unconfirmed counterexample");
}

#[test]
fn a_loop_run_the_same_way_is_one_cycle_in_the_witness() {
    let dir = tempfile::tempdir().expect("temp dir");
    let witness = dir.path().join("witness.graphml");
    let program = fixture("loop_then_bug.c");
    let (line, code) = verdict(&[path(&program), "--witness", path(&witness)]);
    assert_eq!((line.as_str(), code), ("Verification result: FALSE(unreach-call)", 0));
    let text = std::fs::read_to_string(&witness).expect("witness written");
    assert_well_formed(&text);
    // Each transition: source, target, and its (startline, control).
    let edge = regex::Regex::new(r#"(?s)<edge source="N(\d+)" target="N(\d+)"(?:/>|>(.*?)</edge>)"#).unwrap();
    let datum = |body: &str, key: &str| {
        let re = regex::Regex::new(&format!(r#"<data key="{key}">([^<]*)</data>"#)).unwrap();
        re.captures(body).map(|c| c[1].to_string()).unwrap_or_default()
    };
    let edges: Vec<(usize, usize, String, String)> = edge
        .captures_iter(&text)
        .map(|c| {
            let body = c.get(3).map_or("", |m| m.as_str());
            (c[1].parse().unwrap(), c[2].parse().unwrap(), datum(body, "startline"), datum(body, "control"))
        })
        .collect();
    assert!(edges.len() < 10, "300 iterations are not written out: {} transitions", edges.len());
    assert!(edges.iter().any(|(s, t, _, _)| t < s), "a cycle goes back: {edges:?}");
    assert!(edges.iter().all(|(s, t, _, _)| s != t), "no self-loop (witnesslint warns on them)");
    // The path itself is in the witness: 300 times into the loop, out of it, into the `if`, then the
    // call of reach_error, walked as the validator does (a set of witness states).
    let violation: usize = regex::Regex::new(r#"<node id="N(\d+)">\s*<data key="violation">true</data>"#)
        .unwrap()
        .captures(&text)
        .expect("a violation node")[1]
        .parse()
        .unwrap();
    let mut path: Vec<(&str, &str)> = vec![("7", "condition-true"); 300];
    path.extend([("7", "condition-false"), ("10", "condition-true"), ("11", "")]);
    let mut states = std::collections::BTreeSet::from([0usize]);
    for (line, control) in path {
        states = edges
            .iter()
            .filter(|(s, _, l, c)| states.contains(s) && l == line && c == control)
            .map(|(_, t, _, _)| *t)
            .collect();
        assert!(!states.is_empty(), "the witness follows the path at line {line} {control}");
    }
    assert!(states.contains(&violation), "the path ends in the violation node");
}

/// Random testing finds the bug that needs one long run (65,537 iterations) with the right input;
/// its counterexample replays under gcc, its witness is well formed, and `--stats` names it.
#[test]
fn random_testing_finds_a_bug_behind_many_iterations() {
    let p = fixture("wrapping_sum.c");
    let dir = tempfile::tempdir().expect("temp dir");
    let w = dir.path().join("w.graphml");
    let out = vcov_with_path(&[path(&p), "--64", "--confirm", "--stats", "--witness", path(&w), "--timelimit", "60"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with(
            "Verification result: FALSE(unreach-call)\nCounterexample confirmed by: internal interpreter and gcc -m64\n"
        ),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("random testing:\n  runs:"), "{stdout}");
    assert!(stdout.ends_with("Decided by: random-testing\n"), "{stdout}");
    let text = std::fs::read_to_string(&w).expect("witness written");
    assert_well_formed(&text);
    // The input is in the witness: a value of n past 65,536.
    let n: u64 =
        regex::Regex::new(r"\\result == (\d+)U?;").unwrap().captures(&text).expect("an assumption on the input")[1]
            .parse()
            .unwrap();
    assert!(n > 65_536, "{n}");
}
