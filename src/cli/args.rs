//! The command-line flags, mirrored one to one (no IO, no validation beyond clap's value parsers).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Verification coverage of C programs from interrupted software-verifier runs.
#[derive(Parser, Debug)]
#[command(name = "vcov", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Measure the verification coverage of an assumption automaton on a program.
    Coverage(CoverageArgs),
    /// Compare the coverage of several automata (verifier configurations, or snapshots of one run) on
    /// one program.
    Compare(CompareArgs),
    /// Write the Reach score of every automaton state as CSV.
    Scores(ScoresArgs),
    /// Print the control-flow automaton of a program, as CPAchecker builds it.
    Cfa(CfaArgs),
    /// Verify a reachability property (SV-COMP style) with the symbolic executor.
    Verify(super::verify::VerifyArgs),
    /// Replay a Test-Comp test suite with gcc --coverage and check vcov's claimed lines with gcov.
    Replay(ReplayArgs),
    /// Run many coverage or verification tasks, each in a child process, resumably.
    Batch(BatchArgs),
}

/// The data model flags shared by the subcommands.
#[derive(Args, Debug, Clone, Copy)]
pub struct ModelArgs {
    /// 32-bit data model: int, long and pointers are 32 bits (the default, CPAchecker's LINUX32).
    #[arg(long = "32", conflicts_with = "lp64")]
    pub ilp32: bool,
    /// 64-bit data model (LP64): long and pointers are 64 bits.
    #[arg(long = "64")]
    pub lp64: bool,
}

/// The preprocessor flags shared by the subcommands that read a program.
#[derive(Args, Debug, Clone, Default)]
pub struct PreprocessArgs {
    /// Add DIR to the preprocessor's include path (gcc -I). A .c file is preprocessed with gcc -E when
    /// it has directives vcov does not process itself (#include, #define, #if, ...) or -I/-D is given.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a macro for the preprocessor (gcc -D NAME or -D NAME=VALUE).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
}

/// Which lines an edge counts for.
#[derive(ValueEnum, Debug, Clone, Copy, Default)]
pub enum LineRuleArg {
    /// Every line a statement spans (the Verification Coverage scripts, EXPECTED.json).
    #[default]
    Spanned,
    /// Only the first line of each edge (CPAchecker 1.5's coverage.info, the paper's tables).
    FirstLine,
}

/// An environment assumption (`--assume`).
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssumeArg {
    /// Unknown pointers are null or point to fresh memory of their own (list links read from fresh
    /// memory also back into it, unless --no-alias-links); they never alias other objects.
    FreshPointers,
    /// Functions without body do not write through the pointers they receive.
    NoExternWrites,
    /// Library functions vcov does not model only return an arbitrary value.
    UnmodelledLibrary,
}

/// The order of the automata of `vcov compare` (`--order`, whose help says what each means: doc
/// comments on the variants would turn its one line of possible values into a list).
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "lower")]
pub enum OrderArg {
    Given,
    Time,
}

/// How executions are generated.
#[derive(ValueEnum, Debug, Clone, Copy, Default)]
pub enum GenerateArg {
    /// Depth-first over the program in CFA postorder (the paper's baseline).
    Blind,
    /// Postorder, ties broken by the Reach score of the automaton state (the paper's heuristic).
    Guided,
    /// Executions covering something new until nothing is left; then the rest is proven not coverable.
    #[default]
    Targeted,
}

/// Which CPAchecker generation's edge texts `MATCH "..."` compares with.
#[derive(ValueEnum, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CpacheckerTextsArg {
    /// Told from each automaton's MATCH texts.
    #[default]
    Auto,
    /// CPAchecker 1.x: assume edges carry their own condition, re-printed (`[x == 0]`).
    #[value(name = "1")]
    V1,
    /// CPAchecker 2.0 and later: assume edges carry the whole condition as written (`[x]`, `[!(x)]`).
    #[value(name = "2")]
    V2,
}

/// What goes to standard output.
#[derive(ValueEnum, Debug, Clone, Copy, Default)]
pub enum FormatArg {
    /// A summary table.
    #[default]
    Text,
    /// The JSON report.
    Json,
}

/// `vcov coverage`
#[derive(Args, Debug)]
pub struct CoverageArgs {
    /// The C program (.c or preprocessed .i), or a CPAchecker output folder (program.c, or its one
    /// .c/.i file, and AssumptionAutomaton.txt).
    pub program: PathBuf,
    /// The assumption automaton written by CPAchecker (a folder: its AssumptionAutomaton.txt);
    /// needed unless PROGRAM is a CPAchecker output folder.
    #[arg(long)]
    pub aa: Option<PathBuf>,
    /// How to measure and what to write.
    #[command(flatten)]
    pub opts: CoverageOpts,
}

/// `vcov compare`
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The C program (.c or preprocessed .i), or a CPAchecker output folder holding it.
    pub program: PathBuf,
    /// An assumption automaton (a configuration; a folder: its AssumptionAutomaton.txt); at least two.
    #[arg(long, required = true, value_name = "AA")]
    pub aa: Vec<PathBuf>,
    /// The configurations' names, in the order of --aa (default: the automaton's folder for
    /// CPAchecker's AssumptionAutomaton.txt, its file name otherwise).
    #[arg(long, value_name = "NAME")]
    pub name: Vec<String>,
    /// `time`: the automata are snapshots of one run, in order (coverage over time; a warning where
    /// a snapshot's over-approximation does not contain the previous one's).
    #[arg(long, value_enum, default_value = "given")]
    pub order: OrderArg,
    /// How to measure and what to write (--json, --csv, --lcov PREFIX: one tracefile per configuration).
    #[command(flatten)]
    pub opts: CoverageOpts,
}

/// The options of `vcov coverage` (and of each configuration of `vcov compare`).
#[derive(Args, Debug)]
pub struct CoverageOpts {
    /// Measure the executions described by the counterexample automata (*.spc) in this directory.
    #[arg(long, value_name = "DIR")]
    pub executions_from: Option<PathBuf>,
    /// How executions are generated (ignored with --executions-from).
    #[arg(long, value_enum, default_value_t)]
    pub generate: GenerateArg,
    /// Measure (or generate) at most this many terminating executions.
    #[arg(long, value_name = "N")]
    pub max_executions: Option<usize>,
    /// Stop generating after S seconds of CPU time (every thread, and gcc's runs; the same
    /// seconds by the clock at most) and report what was found (marked interrupted)
    /// [default: no limit].
    #[arg(long, value_name = "S", value_parser = positive_seconds)]
    pub timelimit: Option<Duration>,
    /// Specification: `errorlabel` makes only labels named ERROR violations.
    #[arg(long, value_parser = ["errorlabel", "unreach-call"], conflicts_with = "prop")]
    pub spec: Option<String>,
    /// Property file (SV-COMP unreach-call.prp): calls of reach_error/__VERIFIER_error (and failed
    /// assertions, `__assert_fail`) violate it; ERROR labels do not.
    #[arg(long, value_name = "FILE")]
    pub prop: Option<PathBuf>,
    /// Stop generating when the process uses more than this much memory, in MiB [default: 6144].
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit: Option<u64>,
    /// Environment assumptions to accept (comma-separated): a search whose only approximations are
    /// these ends exact relative to them, and the report names them. Undefined behaviour always ends
    /// an execution (it is reported, not covered).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "ASSUMPTION")]
    pub assume: Vec<AssumeArg>,
    /// Targeted mode: after the search has executed this many edges without ending, try to prove
    /// the lines it has not covered not coverable, with counters abstracted away (0: at once).
    #[arg(long, value_name = "EDGES", default_value_t = crate::coverage::search::DEFAULT_PROOF_AFTER)]
    pub proof_after: u64,
    /// Do not try to prove the lines the search leaves undecided not coverable by bounded model
    /// checking and k-induction over the whole program (with invariants it proves at the loop
    /// heads), which runs beside the search for programs of integer variables.
    #[arg(long)]
    pub no_induction: bool,
    /// Keep every link read from fresh memory null or fresh. By default a link (a pointer to a list
    /// head: a struct whose members all point to its own type) may also point back into the memory
    /// that holds it, as an empty list's head does, so that walks of the environment's lists end.
    #[arg(long)]
    pub no_alias_links: bool,
    /// Write zero timings and a fixed creation time (1970-01-01T00:00:00Z), so that the same inputs
    /// give byte-identical reports and evidence.
    #[arg(long)]
    pub reproducible: bool,
    /// Count only executions that the program compiled by gcc replays (with gcov confirming their
    /// lines), as `vcov replay` checks a suite; the others are dropped and reported.
    #[arg(long)]
    pub confirm: bool,
    /// Keep generating executions after one violates the property.
    #[arg(long)]
    pub continue_after_bug: bool,
    /// Write every execution as a Test-Comp test (with vcov-claims.json for `vcov replay`) and a
    /// counterexample automaton into DIR, and the violation witness of a bug.
    #[arg(long, value_name = "DIR")]
    pub evidence: Option<PathBuf>,
    /// Write the GraphML violation witness of a bug to FILE.
    #[arg(long, value_name = "FILE")]
    pub witness: Option<PathBuf>,
    /// Do not show progress on standard error.
    #[arg(long)]
    pub no_progress: bool,
    /// Print the symbolic executor's statistics on standard error after the search.
    #[arg(long)]
    pub stats: bool,
    /// Write the JSON report to this file (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the HTML report into this folder (`DIR/index.html`; created if missing, self-contained:
    /// open it from the file system in any browser).
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
    /// Append one row with the paper's columns (and `exact`, `interrupted`, `stopped_by`) to this CSV
    /// file (`-`: the header and the row on standard output).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Name of the row in the CSV table (default: the program's folder and file name,
    /// `kbtab-value-10s/program.c`).
    #[arg(long, value_name = "NAME")]
    pub instance: Option<String>,
    /// Write lcov tracefiles PREFIX.under.info and PREFIX.over.info (`-`: both on standard output,
    /// named by their `TN:` lines).
    #[arg(long, value_name = "PREFIX")]
    pub lcov: Option<PathBuf>,
    /// What to print on standard output.
    #[arg(long, value_enum, default_value_t)]
    pub format: FormatArg,
    /// Which lines an edge counts for.
    #[arg(long, value_enum, default_value_t)]
    pub line_rule: LineRuleArg,
    /// Measure an automaton even when some of its states are not reached in the program (it was
    /// probably written for another program); without it, that is an error (exit code 2).
    #[arg(long)]
    pub allow_mismatch: bool,
    /// Which CPAchecker generation wrote the automata (the assumption automaton and the
    /// counterexample automata): their MATCH texts are compared with that generation's edge texts.
    #[arg(long, value_enum, default_value_t, value_name = "GENERATION")]
    pub cpachecker_texts: CpacheckerTextsArg,
    /// Data model.
    #[command(flatten)]
    pub model: ModelArgs,
    /// Preprocessor options.
    #[command(flatten)]
    pub preprocess: PreprocessArgs,
}

/// `vcov scores`
#[derive(Args, Debug)]
pub struct ScoresArgs {
    /// The C program.
    pub program: PathBuf,
    /// The assumption automaton.
    #[arg(long)]
    pub aa: PathBuf,
    /// Write the CSV to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Data model.
    #[command(flatten)]
    pub model: ModelArgs,
    /// Preprocessor options.
    #[command(flatten)]
    pub preprocess: PreprocessArgs,
}

/// `vcov cfa`
#[derive(Args, Debug)]
pub struct CfaArgs {
    /// The C program.
    pub program: PathBuf,
    /// Print Graphviz DOT instead of text.
    #[arg(long)]
    pub dot: bool,
    /// Data model.
    #[command(flatten)]
    pub model: ModelArgs,
    /// Preprocessor options.
    #[command(flatten)]
    pub preprocess: PreprocessArgs,
}

/// `vcov replay`
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The C program the suite was written for.
    pub program: PathBuf,
    /// The Test-Comp suite: metadata.xml, test cases, and vcov-claims.json with the claimed lines.
    pub tests_dir: PathBuf,
    /// Build and run with gcc -m32 (default: the architecture in metadata.xml).
    #[arg(long = "32", conflicts_with = "m64")]
    pub m32: bool,
    /// Build and run with gcc -m64 (default: the architecture in metadata.xml).
    #[arg(long = "64")]
    pub m64: bool,
    /// Time limit of one test's run, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    pub timeout: u64,
    /// Build and run in this directory and keep it (default: a temporary directory).
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// List the lines of every test: confirmed, and those gcc generates no code for.
    #[arg(long, short)]
    pub verbose: bool,
    /// Preprocessor options (the same as when the suite was written).
    #[command(flatten)]
    pub preprocess: PreprocessArgs,
}

/// What the tasks of `vcov batch` measure.
#[derive(ValueEnum, Debug, Clone, Copy, Default)]
pub enum BatchModeArg {
    /// `vcov coverage` of CPAchecker output folders (or a `program,automaton[,name]` table).
    #[default]
    Coverage,
    /// `vcov verify` of SV-COMP task definitions (or a `task,program,expected_verdict,data_model` table).
    Verify,
}

/// `vcov batch`
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// Folders to walk (CPAchecker output folders with AssumptionAutomaton.txt; task definitions
    /// *.yml for verify), CSV tables of tasks, or task definitions.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The output folder: tasks/NAME.json, logs/, results.csv, summary.txt.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// What the tasks measure.
    #[arg(long, value_enum, default_value_t)]
    pub mode: BatchModeArg,
    /// Tasks run at a time [default: the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    /// Every task's --timelimit, in seconds; a task still running 5 s + 10% later is killed
    /// [default: no limit].
    #[arg(long, value_name = "S", value_parser = positive_seconds)]
    pub timelimit: Option<Duration>,
    /// Every task's --memory-limit, in MiB; a task whose processes use a quarter more (at least
    /// 256 MiB more) is killed [default: 6144].
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit: Option<u64>,
    /// Run the tasks an earlier run of the same batch finished again.
    #[arg(long)]
    pub force: bool,
    /// Do not show the progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Also write the summary as an HTML page, OUT/summary.html, with a quantile plot of the CPU time
    /// of the solved tasks and links to each task's files; each coverage task writes its HTML report
    /// into OUT/html/NAME/.
    #[arg(long)]
    pub html: bool,
    /// Each coverage task writes its executions as evidence (vcov coverage --evidence) into
    /// OUT/evidence/NAME/.
    #[arg(long)]
    pub evidence: bool,
    /// Options every task's vcov coverage (or vcov verify) gets, after `--`: `vcov batch DIR --out OUT
    /// -- --assume fresh-pointers --confirm`.
    #[arg(last = true, value_name = "OPTIONS")]
    pub extra: Vec<String>,
    /// For testing: the executable the tasks run instead of this vcov.
    #[arg(long, value_name = "PATH", hide = true)]
    pub vcov_exe: Option<PathBuf>,
}

/// The value parser of every flag that takes seconds (`--timelimit`, `--snapshot-every`): a
/// positive, finite number of seconds that a `Duration` holds. clap names the flag in its error
/// (exit code 2).
pub fn positive_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|e: std::num::ParseFloatError| e.to_string())?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err("must be a positive number of seconds".into());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| "too many seconds".into())
}
