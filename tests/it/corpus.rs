//! Checks against the shared corpus (`../shared/corpus`): ignored where the tests were built without
//! it, failing when run anyway (`--ignored`).

use std::path::PathBuf;
use std::time::Duration;

use crate::util::{corpus, json, nums, root, vcov, TtyRun};

/// `vcov coverage` of a CPAchecker output folder (`program.c`, `AssumptionAutomaton.txt`) with
/// `flags`, its JSON report written to `out`.
fn coverage_of(run_dir: &std::path::Path, flags: &[&str], out: &std::path::Path) -> crate::util::Run {
    coverage_with(&run_dir.join("program.c"), &run_dir.join("AssumptionAutomaton.txt"), flags, out)
}

/// `vcov coverage` of `program` with `automaton` and `flags`, its JSON report written to `out`.
fn coverage_with(
    program: &std::path::Path,
    automaton: &std::path::Path,
    flags: &[&str],
    out: &std::path::Path,
) -> crate::util::Run {
    let mut args: Vec<std::ffi::OsString> = vec!["coverage".into(), program.into(), "--aa".into(), automaton.into()];
    args.extend(flags.iter().map(Into::into));
    args.extend(["--json".into(), out.into()]);
    vcov(args)
}

/// Every state of every real CPAchecker assumption automaton is reached in the product, and the lines
/// to cover agree with CPAchecker's own `coverage.info` to at least 99%.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn real_automata_fit_their_programs() {
    let corpus = corpus();
    let dir = tempfile::tempdir().unwrap();
    let (mut differ, mut total) = (0usize, 0usize);
    let mut runs: Vec<PathBuf> = std::fs::read_dir(corpus.join("cpachecker"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("AssumptionAutomaton.txt").exists())
        .collect();
    runs.sort();
    assert!(runs.len() >= 27);
    for run_dir in runs {
        let out = dir.path().join("r.json");
        let run = coverage_of(&run_dir, &["--max-executions", "0"], &out);
        assert_eq!(run.code, 0, "{}: {}", run_dir.display(), run.stderr);
        let j = json(&out);
        let m = &j["automaton_match"];
        assert_eq!(m["states_reached"], m["states"], "{}", run_dir.display());
        if let Ok(info) = std::fs::read_to_string(run_dir.join("coverage.info")) {
            let mut da = std::collections::BTreeMap::new();
            for l in info.lines().filter_map(|l| l.strip_prefix("DA:")) {
                let (line, count) = l.split_once(',').unwrap();
                da.insert(line.parse::<u64>().unwrap(), count.parse::<u64>().unwrap());
            }
            let ltc: std::collections::BTreeSet<u64> = nums(&j["lines_to_cover"]).into_iter().collect();
            let cpa: std::collections::BTreeSet<u64> = da.keys().copied().collect();
            differ += ltc.symmetric_difference(&cpa).count();
            total += cpa.len();
            let over: std::collections::BTreeSet<u64> = nums(&j["over_approximation"]["lines"]).into_iter().collect();
            for (line, count) in &da {
                assert!(
                    *count == 0 || over.contains(line),
                    "{}: visited line {line} outside the over-approximation",
                    run_dir.display()
                );
            }
        }
    }
    assert!(differ * 100 <= total, "lines to cover differ on {differ} of {total} lines");
}

/// kbtab's predicate-analysis run: once depth-first search covers nothing new for a while (it keeps
/// extending the LDV main loop below one branch of `usb_fill_int_urb`), paths waiting near the root
/// are mixed in, and the other branch (`dev->speed != 3`, lines 3681-3687) is covered: the result is
/// exact. Plain depth-first search never took that branch within a minute.
/// The search then goes on for violations and ends by itself after a fixed amount of work: 60 to 75
/// s of CPU in a release build, about two minutes in a debug build, so the time limit is only a
/// guard against a search that does not end.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn a_stalled_search_mixes_in_waiting_paths_and_ends_exact_on_kbtab() {
    let corpus = corpus();
    let run_dir = corpus.join("cpachecker/kbtab-predicate-10s");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let run = coverage_of(&run_dir, &["--timelimit", "900"], &out);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let j = json(&out);
    assert_eq!(j["exact"], true, "{}", run.stdout);
    assert_eq!(j["stopped_by"], serde_json::Value::Null);
    for l in 3681..=3687 {
        if l != 3686 {
            assert_eq!(j["line_status"][l.to_string()], "covered", "line {l}");
        }
    }
}

/// `vcov compare` of kbtab's value and predicate runs: the predicate search takes the value search's
/// executions at its first exchange point and ends exact at once (alone it needs seconds to find the
/// branch of lines 3681-3687, see above); the exchange happens at points of each search's own
/// progress, so the report is the same on every run and thread count.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn compared_searches_share_executions_while_they_run_and_stay_deterministic() {
    let corpus = corpus();
    let dir = tempfile::tempdir().unwrap();
    let program = corpus.join("cpachecker/kbtab-value-10s/program.c");
    let reports: Vec<String> = ["1", "2", "1"]
        .iter()
        .enumerate()
        .map(|(i, threads)| {
            let out = dir.path().join(format!("c{i}.json"));
            let res = std::process::Command::new(env!("CARGO_BIN_EXE_vcov"))
                .arg("compare")
                .arg(&program)
                .args(["--no-progress", "--reproducible", "--timelimit", "120", "--json"])
                .arg(&out)
                .arg("--aa")
                .arg(corpus.join("cpachecker/kbtab-value-10s/AssumptionAutomaton.txt"))
                .arg("--aa")
                .arg(corpus.join("cpachecker/kbtab-predicate-10s/AssumptionAutomaton.txt"))
                .env("RAYON_NUM_THREADS", threads)
                .output()
                .unwrap();
            assert!(res.status.success(), "{}", String::from_utf8_lossy(&res.stderr));
            std::fs::read_to_string(out).unwrap()
        })
        .collect();
    assert_eq!(reports[0], reports[1], "one thread against two");
    assert_eq!(reports[0], reports[2], "two runs");
    let c: serde_json::Value = serde_json::from_str(&reports[0]).unwrap();
    assert_eq!(c["names"], serde_json::json!(["kbtab-value-10s", "kbtab-predicate-10s"]));
    let predicate = &c["configurations"][1];
    assert_eq!(predicate["exact"], true);
    let executions = predicate["executions"].as_array().unwrap();
    for l in [3681u64, 3682, 3683, 3684, 3685, 3687] {
        let id = predicate["covered_by"][l.to_string()].as_u64().unwrap_or_else(|| panic!("line {l} covered"));
        let e = executions.iter().find(|e| e["id"] == id).unwrap();
        assert_eq!(e["origin"], "found for kbtab-value-10s", "line {l}");
    }
}

/// No line any run proves not coverable is covered by an execution of another run of the same
/// program (issue #13): every driver run of the corpus and the everything-explored automaton on its
/// program, each with its evidence; every run's executions (the counterexample automata of its
/// evidence) are measured under every other automaton of the same program with `--executions-from`,
/// and none may cover a line that automaton's run proved not coverable.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn no_execution_of_any_run_covers_a_line_another_run_proved_not_coverable() {
    let corpus = corpus();
    let cpa = corpus.join("cpachecker");
    let true_aa = cpa.join("coverage-script-tests/true_aa.spc");
    let drivers = [
        "farsync.BUG-predicate-10s",
        "gigaset.BUG-value-10s",
        "iowarrior.BUG-predicate-10s",
        "kbtab-predicate-10s",
        "kbtab-value-10s",
        "keyspan_remote-explicit",
        "keyspan_remote.BUG-value-10s",
        "lirc_imon.BUG-value-10s",
        "mISDN_core.BUG-predicate-10s",
        "mISDN_core.BUG-value-10s",
        "ppp_generic.BUG-predicate-10s",
        "usbcore.BUG-predicate-10s",
        "usbcore.BUG-value-10s",
        "usbmouse.BUG-value-10s",
    ];
    let dir = tempfile::tempdir().unwrap();
    // (program, automaton, evidence directory, JSON report) of every run.
    let mut runs: Vec<(PathBuf, PathBuf, PathBuf, PathBuf)> = Vec::new();
    for d in drivers {
        let program = cpa.join(d).join("program.c");
        for (k, aa) in [cpa.join(d).join("AssumptionAutomaton.txt"), true_aa.clone()].into_iter().enumerate() {
            let base = dir.path().join(format!("{d}.{k}"));
            std::fs::create_dir(&base).unwrap();
            runs.push((program.clone(), aa, base.join("evidence"), base.join("r.json")));
        }
    }
    // Two runs at a time, 5 s each: long enough for proofs and dozens of executions per run.
    for pair in runs.chunks(2) {
        std::thread::scope(|s| {
            for (program, aa, evidence, json_out) in pair {
                s.spawn(move || {
                    let run = vcov([
                        "coverage".as_ref(),
                        program.as_os_str(),
                        "--aa".as_ref(),
                        aa.as_os_str(),
                        "--timelimit".as_ref(),
                        "5".as_ref(),
                        "--evidence".as_ref(),
                        evidence.as_os_str(),
                        "--json".as_ref(),
                        json_out.as_os_str(),
                    ]);
                    assert_eq!(run.code, 0, "{}: {}", program.display(), run.stderr);
                });
            }
        });
    }
    let (mut checked, mut lines) = (0, 0);
    for (a_program, a_aa, _, a_json) in &runs {
        let a = json(a_json);
        let not_coverable: Vec<&String> = a["line_status"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, s)| *s == "not_coverable")
            .map(|(l, _)| l)
            .collect();
        for (b_program, _, b_evidence, _) in &runs {
            let same_program = std::fs::read(a_program).unwrap() == std::fs::read(b_program).unwrap();
            if !same_program || !b_evidence.join("metadata.xml").exists() {
                continue;
            }
            let out = dir.path().join("cross.json");
            let run = vcov([
                "coverage".as_ref(),
                a_program.as_os_str(),
                "--aa".as_ref(),
                a_aa.as_os_str(),
                "--executions-from".as_ref(),
                b_evidence.as_os_str(),
                "--json".as_ref(),
                out.as_os_str(),
            ]);
            if run.code == 2 && run.stderr.contains("no counterexample automata") {
                continue;
            }
            assert_eq!(run.code, 0, "{}", run.stderr);
            let covered = nums(&json(&out)["under_approximation"]["lines"]);
            for l in &not_coverable {
                assert!(
                    !covered.contains(&l.parse::<u64>().unwrap()),
                    "line {l} of {} is proven not coverable under {} ({}), yet an execution of {} covers it",
                    a_program.display(),
                    a_aa.display(),
                    a["not_coverable_by"][l.as_str()],
                    b_evidence.display()
                );
            }
            checked += 1;
            lines += not_coverable.len();
        }
    }
    eprintln!("{checked} pairs of runs checked, {lines} not-coverable lines against the other run's executions");
    // Each run against itself and against the other automata of its program.
    assert!(checked >= runs.len() + 4, "{checked} pairs");
}

/// Every `__builtin_*` function the programs of the shared corpus call has a model in `libmodels`
/// (gcc's meaning, or a cut as unsupported): none is taken as an input.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn every_builtin_of_the_corpus_has_a_model() {
    let corpus = corpus();
    let re = regex::Regex::new(r"__builtin_[A-Za-z0-9_]+").unwrap();
    // Types, not functions.
    let types = ["__builtin_va_list"];
    let mut unknown = std::collections::BTreeMap::<String, String>::new();
    let mut seen = 0;
    let mut stack = vec![corpus];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "c" || x == "i") {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                for m in re.find_iter(&text) {
                    seen += 1;
                    let name = m.as_str();
                    if !types.contains(&name) && vcov::libmodels::LibFn::of(name) == vcov::libmodels::LibFn::Unknown {
                        unknown.entry(name.to_string()).or_insert_with(|| p.display().to_string());
                    }
                }
            }
        }
    }
    assert!(seen > 0, "the corpus calls builtins");
    assert!(unknown.is_empty(), "builtins without a model (and a file that calls each): {unknown:?}");
}

/// The automata of CPAchecker 2.3 and 4.0 and of CPAchecker's own tests (`cpachecker-current`, see
/// `docs/cpachecker-edge-texts.md`), as `../shared/tools/corpus-check current` runs them: every
/// assumption automaton is accepted, those of CPAchecker's coverage-script tests give the figures
/// those tests assert, and each counterexample automaton, alone through `--executions-from`, fits its
/// program or not as the artifacts allow.
#[test]
#[cfg_attr(not(any(vcov_corpus_current, vcov_ci)), ignore = "needs ../shared/corpus/cpachecker-current")]
fn automata_of_cpachecker_2_3_and_4_0_fit_their_programs() {
    let corpus = corpus();
    let current = corpus.join("cpachecker-current");
    assert!(current.is_dir(), "this test needs {}", current.display());
    let dir = tempfile::tempdir().unwrap();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&current).unwrap().map(|e| e.unwrap().path()).collect();
    folders.retain(|p| p.is_dir());
    folders.sort();
    let files = |d: &std::path::Path, keep: &dyn Fn(&str) -> bool| -> Vec<PathBuf> {
        let mut res: Vec<PathBuf> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| keep(&p.file_name().unwrap().to_string_lossy()))
            .collect();
        res.sort();
        res
    };
    let true_aa = root().join("assumption-automata/true.spc");
    let (mut n_aa, mut fit, mut total) = (0, std::collections::BTreeMap::new(), std::collections::BTreeMap::new());
    let mut misfits = Vec::new();
    for folder in &folders {
        let name = folder.file_name().unwrap().to_string_lossy().to_string();
        let program = files(folder, &|f| f.ends_with(".i"))
            .into_iter()
            .next()
            .or_else(|| files(folder, &|f| f.ends_with(".c")).into_iter().next());
        let Some(program) = program else { continue };
        for aa in files(folder, &|f| (f.contains("AssumptionAutomaton") && f.ends_with(".txt")) || f.starts_with("aa_"))
        {
            let run = vcov([
                "coverage".as_ref(),
                program.as_os_str(),
                "--aa".as_ref(),
                aa.as_os_str(),
                "--max-executions".as_ref(),
                "0".as_ref(),
                "--no-progress".as_ref(),
            ]);
            assert_eq!(run.code, 0, "{name}/{}: {}", aa.display(), run.stderr);
            n_aa += 1;
        }
        let version = match name.split('-').next() {
            Some("oct23") => "2.3",
            Some("llm40") => "4.0",
            _ => continue,
        };
        for cex in files(folder, &|f| f.starts_with("Counterexample.") && f.ends_with(".spc")) {
            let executions = dir.path().join("executions");
            let _ = std::fs::remove_dir_all(&executions);
            std::fs::create_dir(&executions).unwrap();
            std::fs::copy(&cex, executions.join(cex.file_name().unwrap())).unwrap();
            let run = vcov([
                "coverage".as_ref(),
                program.as_os_str(),
                "--aa".as_ref(),
                true_aa.as_os_str(),
                "--executions-from".as_ref(),
                executions.as_os_str(),
                "--max-executions".as_ref(),
                "1".as_ref(),
                "--no-progress".as_ref(),
            ]);
            *total.entry(version).or_insert(0) += 1;
            if run.code == 0 {
                *fit.entry(version).or_insert(0) += 1;
            } else {
                assert!(run.stderr.contains("the execution does not fit the program"), "{name}: {}", run.stderr);
                misfits.push(format!("{name}/{}", cex.file_name().unwrap().to_string_lossy()));
            }
        }
    }
    eprintln!("{n_aa} assumption automata accepted; counterexample automata that fit: {fit:?} of {total:?}");
    assert!(n_aa >= 10, "{n_aa} assumption automata");
    // CPAchecker's coverage-script tests (test_generate_executions.py, upstream line numbers):
    // `CollectFromExistingExecutions`/`FixPointOnCoveredLines` cover {12, 13, 22} of
    // aa_three_paths_else_return_not_covered and {12, 13, 14, 15, 18} of aa_three_paths_inner_if_both_blocks.
    for (folder, covered) in [
        ("cov17-aa_three_paths_else_return_not_covered", &[12, 13, 22][..]),
        ("cov17-aa_three_paths_inner_if_both_blocks", &[12, 13, 14, 15, 18][..]),
    ] {
        let d = current.join(folder);
        let aa = files(&d, &|f| f.starts_with("aa_")).remove(0);
        let out = dir.path().join("cov17.json");
        let run = vcov([
            "coverage".as_ref(),
            d.join("three_paths.c").as_os_str(),
            "--aa".as_ref(),
            aa.as_os_str(),
            "--no-progress".as_ref(),
            "--json".as_ref(),
            out.as_os_str(),
        ]);
        assert_eq!(run.code, 0, "{folder}: {}", run.stderr);
        let j = json(&out);
        assert_eq!(nums(&j["under_approximation"]["lines"]), covered, "{folder}");
        assert_eq!(nums(&j["lines_to_cover"]), [12, 13, 14, 15, 16, 18, 19, 22, 23, 24], "{folder}");
        assert_eq!(j["automaton_match"]["generation"], "2.x+", "{folder}");
    }
    // CPAchecker 2.3: all fit but the one CPAchecker left in the folder from a run on another
    // program (its Counterexample.13.txt has `main` at lines 18-34: array-simple-no-abs.c of the same
    // repository; docs/cpachecker-edge-texts.md).
    let misfits_2_3: Vec<&String> = misfits.iter().filter(|m| m.starts_with("oct23")).collect();
    assert_eq!(misfits_2_3, ["oct23-array-complex-assume-cexec/Counterexample.13.spc"]);
    assert_eq!(total.get("2.3"), Some(&41));
    // CPAchecker 4.0's paths all end in glibc's `assert`, a GNU statement expression with a `?:` that
    // CPAchecker hoists out of `sizeof` (docs/cpachecker-edge-texts.md): at least 95% fit.
    assert_eq!(total.get("4.0"), Some(&65));
    let fit_4_0 = fit.get("4.0").copied().unwrap_or(0);
    assert!(fit_4_0 * 100 >= 95 * 65, "{fit_4_0} of 65 fit: {misfits:?}");
}

/// The paper's SystemC programs with everything explored (`assumption-automata/true.spc`): the
/// default search reports the bug of every `*BUG*` program as a violation inside the region, and
/// ends exact on every other token_ring and transmitter program (issues #32 and #33: both broke
/// once while the search was tuned for drivers). Figures against older builds: bench/systemc.py.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn the_default_search_finds_every_systemc_bug_and_decides_the_rings() {
    let corpus = corpus();
    let dir = tempfile::tempdir().unwrap();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(corpus.join("fse12/systemc"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    programs.sort();
    let (mut bugs, mut rings) = (0, 0);
    for program in programs {
        let name = program.file_name().unwrap().to_string_lossy().into_owned();
        let bug = name.contains("BUG");
        if !(bug || name.starts_with("token_ring") || name.starts_with("transmitter")) {
            continue;
        }
        let out = dir.path().join("r.json");
        let aa = root().join("assumption-automata/true.spc");
        let run = vcov([
            "coverage".into(),
            program.clone().into_os_string(),
            "--aa".into(),
            aa.into_os_string(),
            "--timelimit".into(),
            "60".into(),
            "--no-progress".into(),
            "--json".into(),
            out.clone().into_os_string(),
        ]);
        let j = json(&out);
        if bug {
            bugs += 1;
            assert_eq!(j["property"]["status"], "found_in_region", "{name}: {}", run.stderr);
        } else {
            rings += 1;
            assert_eq!(run.code, 0, "{name}: {}", run.stderr);
            assert_eq!(j["exact"], true, "{name}");
            assert_eq!(j["property"]["status"], "none_in_region", "{name}");
        }
    }
    assert!(bugs >= 24 && rings >= 8, "{bugs} bug programs, {rings} rings");
}

/// The proofs over the whole program never claim a line an execution covers: on SystemC programs,
/// the lines they prove not coverable after a search cut short (one execution) are not covered by
/// the exhaustive search, which decides every line itself.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn proofs_over_the_program_agree_with_the_exhaustive_search_on_systemc() {
    let corpus = corpus();
    let dir = tempfile::tempdir().unwrap();
    let aa = root().join("assumption-automata/true.spc");
    let mut proven_total = 0;
    for name in ["bist_cell", "kundu"] {
        let program = corpus.join(format!("fse12/systemc/{name}.c"));
        let run = |flags: &[&str], out: &str| {
            let out = dir.path().join(out);
            let r = coverage_with(&program, &aa, flags, &out);
            assert_eq!(r.code, 0, "{name}: {}", r.stderr);
            json(&out)
        };
        let cut = run(&["--max-executions", "1", "--timelimit", "15", "--no-progress"], "cut.json");
        let full = run(&["--no-induction", "--timelimit", "120", "--no-progress"], "full.json");
        assert_eq!(full["exact"], true, "{name}: the search alone decides every line");
        let by = cut["not_coverable_by"].as_object().unwrap();
        let proven: Vec<&String> = by
            .iter()
            .filter(|(_, why)| {
                why.as_str().is_some_and(|w| {
                    w.starts_with("k-induction") || w.starts_with("invariants") || w.starts_with("bounded")
                })
            })
            .map(|(l, _)| l)
            .collect();
        for l in &proven {
            assert_eq!(full["line_status"][l.as_str()], "not_coverable", "{name}: line {l} proven over the program");
        }
        proven_total += proven.len();
    }
    assert!(proven_total > 0, "the proofs decided no line the search left open");
}

/// SIGINT while the run waits for the proofs over the program (the search ended early) stops them:
/// the report is written at once, with what they had proven, and the run ends as one stopped by
/// the signal.
#[test]
#[cfg_attr(not(any(vcov_corpus, vcov_ci)), ignore = "needs ../shared/corpus")]
fn sigint_while_the_proofs_run_ends_the_run_with_its_report() {
    let corpus = corpus();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    // kundu's proofs take about 13 s after the search's one execution; the progress line's last
    // words, drawn when the search ends, say that they run.
    let (p, o) = (corpus.join("fse12/systemc/kundu.c"), out.display().to_string());
    let mut run = TtyRun::start(&[
        "coverage",
        p.to_str().unwrap(),
        "--aa",
        "assumption-automata/true.spc",
        "--max-executions",
        "1",
        "--timelimit",
        "60",
        "--json",
        &o,
    ]);
    run.wait_for(&["search ended: ", "search stopped by "], Duration::from_secs(60));
    let t = std::time::Instant::now();
    run.signal(libc::SIGINT);
    let (code, _, screen) = run.finish(Duration::from_secs(60));
    assert!(t.elapsed().as_secs_f64() < 5.0, "the run ends soon after the signal: {screen}");
    assert_eq!(code, Some(130), "128 + SIGINT, after the report: {screen}");
    let j = json(&out);
    assert_eq!(j["stopped_by"], "max_executions");
    assert_eq!(j["under_approximation"]["executions"], 1);
}
