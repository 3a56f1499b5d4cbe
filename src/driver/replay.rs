//! `vcov replay PROGRAM TESTS_DIR`: compiles the program with the generated harness under
//! `gcc --coverage`, runs every test case of the suite, and checks with gcov that the lines vcov
//! claims for each test were executed.
//!
//! Work layout (a temporary directory, or `--work-dir`): `build/` holds the program's copy (with `#`
//! lines blanked, under the program's file name), the harness `vcov_replay_harness.c`, the objects
//! and the executable `program`; `runs/<test>/` holds each test's `inputs.txt`, `status.txt`,
//! `stdout.txt`, `stderr.txt` and `gcov.json`. The program's object has its calls of functions
//! without body renamed to the harness's stubs (`objcopy --redefine-syms=vcov_redefine_syms.txt`). Tests run one after another; the `.gcda` file is
//! removed before each run, so every gcov report belongs to one test.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};

use crate::base::Diagnostic;
use crate::cfront::ir::Program;
use crate::cfront::types::DataModel;
use crate::evidence::harness::{self, Harness, INPUTS_ENV, LINK_FLAGS, STATUS_ENV};
use crate::evidence::replay::{self, RunEnd, RunStatus, TestResult};
use crate::evidence::testcomp::TestInput;
use crate::evidence::{self, Claims, ReadError, TestCase, CLAIMS_FILE, METADATA_FILE};
use crate::symex::{self, InputKind};

/// Options of `vcov replay`.
#[derive(Clone, Debug)]
pub struct ReplayConfig {
    /// The C program the suite was written for.
    pub program: PathBuf,
    /// The Test-Comp suite: `metadata.xml`, test cases, optionally `vcov-claims.json`.
    pub tests_dir: PathBuf,
    /// `-m32` or `-m64`. [default: the architecture in `metadata.xml`]
    pub architecture: Option<DataModel>,
    /// Time limit of one test's run. [default: 10 s]
    pub timeout: Duration,
    /// Where to build and run (kept afterwards). [default: a temporary directory, removed]
    pub work_dir: Option<PathBuf>,
    /// The C compiler. [default: `gcc`]
    pub gcc: String,
    /// gcc's coverage tool, of the same version. [default: `gcov`]
    pub gcov: String,
    /// binutils' `objcopy`, to point the program's calls at the stubs. [default: `objcopy`]
    pub objcopy: String,
    /// List every test's confirmed lines and lines without code. [default: false]
    pub verbose: bool,
    /// No test starts after this, and none runs past it (`vcov coverage --confirm` within its time
    /// limit): the tests not run get no result. [default: none]
    pub deadline: Option<Instant>,
    /// How a program that needs it is preprocessed (`-I`, `-D`). [default: no options]
    pub preprocess: super::Preprocess,
}

impl ReplayConfig {
    /// The configuration with every default.
    pub fn new(program: PathBuf, tests_dir: PathBuf) -> ReplayConfig {
        ReplayConfig {
            program,
            tests_dir,
            architecture: None,
            timeout: Duration::from_secs(10),
            work_dir: None,
            gcc: "gcc".into(),
            gcov: "gcov".into(),
            objcopy: "objcopy".into(),
            verbose: false,
            deadline: None,
            preprocess: Default::default(),
        }
    }
}

/// The outcome of a replay.
pub struct ReplayOutcome {
    /// One result per test case run, in file order (all of them unless `ReplayConfig::deadline`
    /// came first).
    pub results: Vec<TestResult>,
    /// Text for standard output: a line per test, then a summary.
    pub stdout: String,
    /// Problems worth reporting on standard error (from reading the program).
    pub diagnostics: Vec<Diagnostic>,
}

impl ReplayOutcome {
    /// Whether every claim was confirmed.
    pub fn all_confirmed(&self) -> bool {
        self.results.iter().all(TestResult::confirmed)
    }
}

/// `vcov replay`.
pub fn replay(config: &ReplayConfig) -> Result<ReplayOutcome> {
    let suite = read_suite(config)?;
    let arch = suite.arch;
    let (prog, diagnostics) = super::load_program(&config.program, arch, &config.preprocess)?;
    let harness = harness::harness(&prog);
    let (_temp, work) = work_dir(config)?;
    let build = work.join("build");
    std::fs::create_dir_all(&build).with_context(|| format!("{}: cannot create the directory", build.display()))?;
    let program_name = file_name(&config.program);
    let Some(binary) = build_copy(config, &prog, &harness, suite.claims.as_ref(), &build, &program_name)? else {
        let n = suite.cases.len();
        let stdout = format!("replay: the time limit came before gcc built the program; {n} tests not run\n");
        return Ok(ReplayOutcome { results: Vec::new(), stdout, diagnostics });
    };
    let hints = line_hints(prog)?;
    let lazy_offset = crate::symex::memory::Layout::for_model(arch).lazy_offset();

    let mut results = Vec::new();
    let mut stdout = String::new();
    for (file, case) in &suite.cases {
        if crate::base::clock::past(config.deadline) {
            break;
        }
        let stem = file.strip_suffix(".xml").unwrap_or(file);
        let run_dir = work.join("runs").join(stem);
        std::fs::create_dir_all(&run_dir)
            .with_context(|| format!("{}: cannot create the directory", run_dir.display()))?;
        let claim = suite.claims.as_ref().and_then(|c| c.tests.iter().find(|t| &t.file == file));
        // vcov's own record of every input (the Test-Comp file holds only the `__VERIFIER_nondet_*`
        // answers); a test from elsewhere is fed from its Test-Comp file.
        let fed = match claim.and_then(|c| c.inputs.as_ref()) {
            Some(inputs) => TestCase { covers_error: case.covers_error, inputs: inputs.clone() },
            None => case.clone(),
        };
        let memory = claim.map_or(&[][..], |c| c.memory.as_slice());
        let memory = harness::memory_file(&fed, memory, lazy_offset);
        let (status, counts) = run_test(config, &binary, &build, &run_dir, &program_name, &fed, &memory)?;
        if crate::base::clock::past(config.deadline) {
            // Cut short by the deadline, not by its own timeout: not run.
            break;
        }
        let v = replay::test_result(file, claim, &status, counts.as_ref(), &hints);
        stdout.push_str(&v.render(config.verbose));
        results.push(v);
    }
    let n_ok = results.iter().filter(|v| v.confirmed()).count();
    stdout.push_str(&match &suite.claims {
        Some(_) => format!(
            "replay: {} tests, {n_ok} confirmed, {} not confirmed ({}, gcc {})\n",
            results.len(),
            results.len() - n_ok,
            arch.architecture(),
            arch.gcc_flag()
        ),
        None => format!("replay: {} tests run; no {CLAIMS_FILE}, so there was nothing to confirm\n", results.len()),
    });
    Ok(ReplayOutcome { results, stdout, diagnostics })
}

/// A test suite as read and checked against the program.
struct Suite {
    /// The data model to build with: the command line's, else the suite's.
    arch: DataModel,
    /// vcov's claims about the tests, when the suite has them.
    claims: Option<Claims>,
    /// The test cases, by file name, in order.
    cases: Vec<(String, TestCase)>,
}

/// Reads the suite of `config` and checks that it was written for its program.
fn read_suite(config: &ReplayConfig) -> Result<Suite> {
    let dir = &config.tests_dir;
    if !dir.is_dir() {
        bail!("{}: not a directory of test cases", dir.display());
    }
    let meta_path = dir.join(METADATA_FILE);
    let meta = evidence::read_metadata(&super::read_text(&meta_path)?).map_err(|e| located(&meta_path, e))?;
    let arch = config.architecture.unwrap_or(meta.architecture);
    let program_bytes = std::fs::read(&config.program)
        .with_context(|| format!("{}: cannot read the file", config.program.display()))?;
    let hash = crate::witness::sha256_hex(&program_bytes);
    if !meta.program_hash.is_empty() && !meta.program_hash.eq_ignore_ascii_case(&hash) {
        bail!(
            "{}: programhash {} is not the SHA-256 of {} ({hash}): the suite was written for another program",
            meta_path.display(),
            meta.program_hash,
            config.program.display()
        );
    }
    let claims_path = dir.join(CLAIMS_FILE);
    let claims: Option<Claims> = if claims_path.exists() {
        Some(evidence::read_claims(&super::read_text(&claims_path)?).map_err(|e| located(&claims_path, e))?)
    } else {
        None
    };
    let tests = test_files(dir)?;
    if let Some(c) = &claims {
        let n_lines = String::from_utf8_lossy(&program_bytes).lines().count() as u32;
        check_claims(config, &claims_path, c, &tests, n_lines)?;
    }
    let mut cases: Vec<(String, TestCase)> = Vec::new();
    for p in &tests {
        let case = evidence::read_testcase(&super::read_text(p)?).map_err(|e| located(p, e))?;
        cases.push((file_name(p), case));
    }
    Ok(Suite { arch, claims, cases })
}

/// Checks that the claims `c` (read from `claims_path`) were written for this program (of `n_lines`
/// lines) and this suite (`tests`).
fn check_claims(config: &ReplayConfig, claims_path: &Path, c: &Claims, tests: &[PathBuf], n_lines: u32) -> Result<()> {
    // A claim beyond the program's last line was written for another program.
    for t in &c.tests {
        if let Some(line) = t.lines.iter().find(|&&l| l == 0 || l > n_lines) {
            bail!(
                "{}: {} claims line {line}, but {} has {n_lines} lines: the claims were written for another program",
                claims_path.display(),
                t.file,
                config.program.display()
            );
        }
    }
    for t in &c.tests {
        if !tests.iter().any(|p| file_name(p) == t.file) {
            bail!("{}: claims about {}, which is not in {}", claims_path.display(), t.file, config.tests_dir.display());
        }
    }
    Ok(())
}

/// The folder the replay works in: `--work-dir`, or a temporary one (kept alive by the first value).
fn work_dir(config: &ReplayConfig) -> Result<(Option<tempfile::TempDir>, PathBuf)> {
    let (temp, work) = match &config.work_dir {
        Some(w) => {
            std::fs::create_dir_all(w).with_context(|| format!("{}: cannot create the directory", w.display()))?;
            (None, w.clone())
        }
        None => {
            let temp = tempfile::Builder::new()
                .prefix("vcov-replay")
                .tempdir()
                .context("cannot create a temporary directory")?;
            let path = temp.path().to_path_buf();
            (Some(temp), path)
        }
    };
    let work = std::fs::canonicalize(&work).with_context(|| format!("{}: cannot resolve the path", work.display()))?;
    Ok((temp, work))
}

/// Writes the harness and the program's copy into `build` and builds them with gcc; `None` when the
/// time limit came first.
fn build_copy(
    config: &ReplayConfig,
    prog: &crate::cfront::ir::Program,
    harness: &harness::Harness,
    claims: Option<&Claims>,
    build: &Path,
    program_name: &str,
) -> Result<Option<PathBuf>> {
    let arch = prog.data_model();
    // The text vcov parsed: a preprocessed program keeps its line markers, so that gcc and gcov
    // count the lines of the user's file.
    let text = prog.file.text();
    let error_label = claims.is_some_and(|c| c.error_label);
    // The locals whose uninitialized bytes some test read: the copy fills them after their declaration.
    let fill: std::collections::BTreeSet<u32> = claims
        .iter()
        .flat_map(|c| &c.tests)
        .flat_map(|t| &t.memory)
        .filter_map(|f| match f {
            crate::coverage::result::MemoryFact::Var { var, .. } => Some(*var),
            _ => None,
        })
        .collect();
    let copy = harness::replay_copy(prog, text, error_label, &fill);
    write(&build.join("vcov_replay_harness.c"), harness.source.as_bytes())?;
    // Without `always_inline` where gcc accepts it (a function left without an external definition
    // may not link): gcov counts the bodies of functions gcc inlines unreliably.
    write(&build.join(program_name), harness::without_always_inline(&copy).as_bytes())?;
    let built = match build_program(config, harness, arch, build, program_name) {
        Err(e) if !e.is::<DeadlinePassed>() => {
            write(&build.join(program_name), copy.as_bytes())?;
            build_program(config, harness, arch, build, program_name)
        }
        built => built,
    };
    match built {
        Err(e) if e.is::<DeadlinePassed>() => Ok(None),
        built => built.map(Some),
    }
}

/// What the CFA tells about lines for [`replay::check_lines`]: the statements (edges counted for
/// coverage) that span more than one line, and each label's line with the first lines of the
/// statements after it.
fn line_hints(mut prog: crate::cfront::ir::Program) -> Result<replay::LineHints> {
    use crate::cfa::{BlankKind, EdgeKind, LineRule};
    let (cfa, _) = crate::cfa::build(&mut prog, &crate::cfa::CfaConfig::default())?;
    let mut hints = replay::LineHints::default();
    for (e, edge) in cfa.edges() {
        let Some((a, b)) = cfa.counted_lines(e, LineRule::Spanned) else { continue };
        if a < b {
            hints.statements.push((a, b));
        }
        if matches!(edge.kind, EdgeKind::Blank(BlankKind::Label(_))) {
            let next = hints.labels.entry(a).or_default();
            next.extend(
                cfa.out_edges(edge.dst).iter().filter_map(|&n| cfa.counted_lines(n, LineRule::Spanned)).map(|l| l.0),
            );
        }
    }
    hints.statements.sort_unstable();
    hints.statements.dedup();
    Ok(hints)
}

/// `vcov verify --confirm`: runs the counterexample `inputs` (of a violation vcov found in `prog`,
/// read from `program`) under gcc with the harness of `vcov replay`. `Ok(Ok(function))` names the
/// violation function the run called; `Ok(Err(reason))` says how the run ended otherwise; `Err` when
/// gcc cannot build the program.
pub fn confirm_violation(
    program: &Path,
    prog: &Program,
    arch: DataModel,
    inputs: &[symex::InputValue],
) -> Result<std::result::Result<String, String>> {
    let config = ReplayConfig::new(program.to_path_buf(), PathBuf::new());
    // The harness feeds the results of calls only; bytes never written are whatever gcc's run has.
    let case = TestCase {
        covers_error: true,
        inputs: inputs
            .iter()
            .filter(|v| matches!(v.kind, InputKind::Call { func: Some(_), .. }))
            .map(|v| {
                let shown = crate::coverage::assemble::input_value(prog, v);
                TestInput { variable: Some(shown.function), c_type: Some(shown.c_type), value: shown.value }
            })
            .collect(),
    };
    let harness = harness::harness(prog);
    let temp =
        tempfile::Builder::new().prefix("vcov-confirm").tempdir().context("cannot create a temporary directory")?;
    let build = temp.path().join("build");
    let run_dir = temp.path().join("run");
    for d in [&build, &run_dir] {
        std::fs::create_dir_all(d).with_context(|| format!("{}: cannot create the directory", d.display()))?;
    }
    let program_name = file_name(program);
    write(
        &build.join(&program_name),
        harness::replay_copy(prog, prog.file.text(), false, &Default::default()).as_bytes(),
    )?;
    write(&build.join("vcov_replay_harness.c"), harness.source.as_bytes())?;
    let binary = build_program(&config, &harness, arch, &build, &program_name)?;
    let (status, _) = run_test(&config, &binary, &build, &run_dir, &program_name, &case, "")?;
    Ok(replay::violation_confirmed(&status))
}

/// Compiles the program's copy with coverage and the harness, links them; returns the executable.
fn build_program(
    config: &ReplayConfig,
    harness: &Harness,
    arch: DataModel,
    build: &Path,
    program_name: &str,
) -> Result<PathBuf> {
    let m = arch.gcc_flag();
    if arch == DataModel::Ilp32 {
        write(&build.join("vcov_probe.c"), b"int main(void) { return 0; }\n")?;
        let probe = gcc(config, build, &[m, "--coverage", "vcov_probe.c", "-o", "vcov_probe"])?;
        if let Err(msg) = probe {
            bail!(
                "gcc cannot build 32-bit programs (-m32) here; install gcc-multilib, or replay with --64\n{}",
                first_lines(&msg, 10)
            );
        }
    }
    // `-x cpp-output`: the copy is not preprocessed again, as vcov does not preprocess it.
    // `-fgnu89-inline`: CIL output and kernel code mean GNU inline semantics (a plain `inline`
    // definition is also an external one). `-fno-pie`/`-no-pie`: kernel inline assembly addresses
    // symbols absolutely.
    let fp = arch.gcc_float_flags();
    let compile = [
        ["-c", "-x", "cpp-output", m].as_slice(),
        fp,
        &[
            "--coverage",
            "-O0",
            "-g",
            "-w",
            "-fno-builtin",
            "-fgnu89-inline",
            "-fno-pie",
            program_name,
            "-o",
            "program.o",
        ],
    ]
    .concat();
    if let Err(msg) = gcc(config, build, &compile)? {
        bail!("{}: gcc cannot compile the program:\n{}", config.program.display(), first_lines(&msg, 40));
    }
    // Calls of functions without body go to the harness's stubs, not to libc's functions of the
    // same name (which libgcov needs).
    write(&build.join("vcov_redefine_syms.txt"), harness.redefine_syms().as_bytes())?;
    let out = Command::new(&config.objcopy)
        .args(["--redefine-syms=vcov_redefine_syms.txt", "program.o"])
        .current_dir(build)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {} (is binutils installed?)", config.objcopy))?;
    if !out.status.success() {
        bail!("objcopy cannot rename the program's calls:\n{}", first_lines(&String::from_utf8_lossy(&out.stderr), 20));
    }
    let harness_args = [
        ["-c", m].as_slice(),
        fp,
        &["-O0", "-g", "-w", "-fno-builtin", "-fno-pie", "vcov_replay_harness.c", "-o", "vcov_replay_harness.o"],
    ]
    .concat();
    if let Err(msg) = gcc(config, build, &harness_args)? {
        bail!(
            "{}: gcc cannot compile the generated harness (replay with --work-dir to keep it):\n{}",
            config.program.display(),
            first_lines(&msg, 40)
        );
    }
    let mut link = vec![m, "--coverage", "-no-pie", "program.o", "vcov_replay_harness.o"];
    link.extend(LINK_FLAGS);
    link.extend(["-o", "program", "-lm"]);
    if let Err(msg) = gcc(config, build, &link)? {
        bail!("{}: gcc cannot link the program with the harness:\n{}", config.program.display(), first_lines(&msg, 40));
    }
    Ok(build.join("program"))
}

/// Runs gcc in `dir`; `Ok(Err(stderr))` when it fails, the error `DeadlinePassed` when
/// `ReplayConfig::deadline` came first (gcc is stopped).
fn gcc(config: &ReplayConfig, dir: &Path, args: &[&str]) -> Result<std::result::Result<(), String>> {
    let mut child = Command::new(&config.gcc)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {} (is gcc installed?)", config.gcc))?;
    // gcc's messages are read on a thread of their own, so that a full pipe never blocks it.
    let mut pipe = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut pipe, &mut text);
        text
    });
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(st) = child.try_wait().context("cannot wait for gcc")? {
            break st;
        }
        if crate::base::clock::past(config.deadline) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(DeadlinePassed.into());
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    let stderr = reader.join().unwrap_or_default();
    if status.success() {
        Ok(Ok(()))
    } else {
        Ok(Err(String::from_utf8_lossy(&stderr).into_owned()))
    }
}

/// `ReplayConfig::deadline` came before the program was built: no test ran.
#[derive(Debug)]
pub struct DeadlinePassed;

impl std::fmt::Display for DeadlinePassed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the time limit came before gcc built the program")
    }
}

impl std::error::Error for DeadlinePassed {}

/// Runs one test: how it ended, and gcov's line counts (`None` without coverage data).
fn run_test(
    config: &ReplayConfig,
    binary: &Path,
    build: &Path,
    run_dir: &Path,
    program_name: &str,
    case: &TestCase,
    memory: &str,
) -> Result<(RunStatus, Option<std::collections::BTreeMap<u32, u64>>)> {
    let inputs = run_dir.join("inputs.txt");
    let status_file = run_dir.join("status.txt");
    let memory_path = run_dir.join("memory.txt");
    write(&inputs, harness::inputs_file(case).as_bytes())?;
    write(&memory_path, memory.as_bytes())?;
    for stale in [build.join("program.gcda"), status_file.clone()] {
        match std::fs::remove_file(&stale) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("{}: cannot remove the file", stale.display()))
            }
            _ => {}
        }
    }
    let create = |name: &str| -> Result<std::fs::File> {
        let p = run_dir.join(name);
        std::fs::File::create(&p).with_context(|| format!("{}: cannot create the file", p.display()))
    };
    let mut child = Command::new(binary)
        .current_dir(run_dir)
        .env(INPUTS_ENV, &inputs)
        .env(STATUS_ENV, &status_file)
        .env(harness::MEMORY_ENV, &memory_path)
        .env_remove("GCOV_PREFIX")
        .env_remove("GCOV_PREFIX_STRIP")
        .stdin(Stdio::null())
        .stdout(create("stdout.txt")?)
        .stderr(create("stderr.txt")?)
        .spawn()
        .with_context(|| format!("{}: cannot run the program", binary.display()))?;
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    let exit = loop {
        if let Some(st) = child.try_wait().context("cannot wait for the program")? {
            break Some(st);
        }
        if start.elapsed() >= config.timeout || crate::base::clock::past(config.deadline) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    };
    let code = exit.and_then(|st| st.code());
    let mut status = match std::fs::read_to_string(&status_file) {
        Ok(text) => replay::read_status(&text, code),
        Err(_) => RunStatus { end: Some(RunEnd::Unknown(code)), ..Default::default() },
    };
    match exit {
        None => status.end = Some(RunEnd::Timeout),
        Some(st) => {
            if let Some(sig) = signal_of(st) {
                if !matches!(status.end, Some(RunEnd::Abort | RunEnd::Unsupported(_))) {
                    status.end = Some(RunEnd::Signal(sig));
                }
            }
        }
    }

    if !build.join("program.gcda").exists() {
        return Ok((status, None));
    }
    let out = Command::new(&config.gcov)
        .args(["--stdout", "--json-format", "program.gcda"])
        .current_dir(build)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {} (is gcov installed?)", config.gcov))?;
    if !out.status.success() {
        bail!("gcov failed on {}:\n{}", build.display(), first_lines(&String::from_utf8_lossy(&out.stderr), 20));
    }
    let json = String::from_utf8_lossy(&out.stdout).into_owned();
    let json_path = run_dir.join("gcov.json");
    write(&json_path, json.as_bytes())?;
    let counts = replay::read_gcov_json(&json, program_name).map_err(|e| located(&json_path, e))?;
    Ok((status, Some(counts)))
}

#[cfg(unix)]
fn signal_of(st: std::process::ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&st)
}

#[cfg(not(unix))]
fn signal_of(_: std::process::ExitStatus) -> Option<i32> {
    None
}

/// The test cases of `dir`: every `*.xml` except `metadata.xml`, by the first number in the name
/// (`test2.xml` before `test10.xml`), then by name.
fn test_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("{}: cannot read the directory", dir.display()))?;
    let mut files = Vec::new();
    for e in entries {
        let p = e.with_context(|| format!("{}: cannot read the directory", dir.display()))?.path();
        if p.extension().is_some_and(|x| x == "xml") && file_name(&p) != METADATA_FILE {
            files.push(p);
        }
    }
    let number = |p: &Path| -> u64 {
        file_name(p)
            .split(|c: char| !c.is_ascii_digit())
            .find(|s| !s.is_empty())
            .and_then(|s| s.parse().ok())
            .unwrap_or(u64::MAX)
    };
    files.sort_by(|a, b| number(a).cmp(&number(b)).then(a.cmp(b)));
    Ok(files)
}

fn located(path: &Path, e: ReadError) -> anyhow::Error {
    if e.line == 0 {
        anyhow!("{}: {}", path.display(), e.message)
    } else {
        anyhow!("{}:{e}", path.display())
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("{}: cannot write the file", path.display()))
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

fn first_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let mut res = lines.iter().take(n).copied().collect::<Vec<_>>().join("\n");
    if lines.len() > n {
        res.push_str(&format!("\n... ({} more lines)", lines.len() - n));
    }
    res
}
