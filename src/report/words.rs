//! The words of every claim of a coverage result: each typed value of `coverage::result` is said
//! here once, and every format (text, JSON, CSV, HTML, the reviewer's page) takes its words from
//! these functions, so that no two pages say one claim differently.

use std::collections::BTreeMap;
use std::fmt;

use crate::coverage::result::{
    BlockedAt, CoverageResult, Exactness, InexactReason, NoViolationBy, NotCoverableBy, Origin, PropertyStatus,
    Refusal, StoppedBy, UndecidedLines,
};
use crate::coverage::undecided::Obstacle;

/// How the proof pass names its abstraction of what functions without body write.
pub const EXTERN_WRITES_ABSTRACTED: &str = "what functions without body write";
/// Blocking edges `undecided_summary` names; the JSON report has them all.
const BLOCKED_NAMED: usize = 3;
/// Undecided lines some path got to.
const REACHED: &str = "reached by paths none of which returned from main";
/// Undecided lines neither reached nor behind a blocking edge.
const ELSEWHERE: &str = "where no path came near";
/// Characters of an edge's text quoted in summaries.
const EDGE_TEXT_SHOWN: usize = 60;

/// A result's exactness in words: `answer` for a table cell (`yes`, `yes, assuming fresh-pointers`,
/// `no`), `headline` to open a sentence (`exact`, `exact assuming fresh-pointers`, `not exact`) and
/// `why` to end it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactnessWords {
    /// The short answer.
    pub answer: String,
    /// What the result is.
    pub headline: String,
    /// Why.
    pub why: String,
}

impl ExactnessWords {
    /// `headline: why`.
    pub fn sentence(&self) -> String {
        format!("{}: {}", self.headline, self.why)
    }

    /// `answer: why`, for a term-and-definition list.
    pub fn definition(&self) -> String {
        format!("{}: {}", self.answer, self.why)
    }
}

/// The floating-point semantics vcov models and `vcov replay` builds with.
pub const FLOAT_MODEL: &str = "IEEE 754 binary32 (float) and binary64 (double), every operation rounded to its \
     type in the rounding mode the program sets, as SSE computes them (gcc -msse2 -mfpmath=sse under ILP32, \
     -frounding-math); long double is not modelled";

/// The words of `e`.
pub fn exactness(e: &Exactness) -> ExactnessWords {
    const DECIDED: &str = "every line of the over-approximation is covered or proven not coverable";
    match e {
        Exactness::Exact => ExactnessWords { answer: "yes".into(), headline: "exact".into(), why: DECIDED.into() },
        Exactness::ExactAssuming(assumed) => {
            let names = assumed.assumption_names().join(", ");
            ExactnessWords {
                answer: format!("yes, assuming {names}"),
                headline: format!("exact assuming {names}"),
                why: format!("{DECIDED}, relying on these assumptions"),
            }
        }
        Exactness::Inexact(why) => {
            ExactnessWords { answer: "no".into(), headline: "not exact".into(), why: inexact(why) }
        }
    }
}

/// Where an execution came from, as reports and test suites label it: `generated`, `found for
/// NAME`, the counterexample automaton's file name, or `bug`.
pub fn origin(o: &Origin) -> String {
    match o {
        Origin::Generated => "generated".into(),
        Origin::FoundFor(name) => format!("found for {name}"),
        Origin::File(name) => name.clone(),
        Origin::Bug => "bug".into(),
    }
}

/// Why a result is not exact, in words.
pub fn inexact(why: &InexactReason) -> String {
    Inexact(why).to_string()
}

/// What the run says about the property, in a sentence.
pub fn property(p: &PropertyStatus) -> String {
    Property(p).to_string()
}

/// What the run says about the property, for a table cell.
pub fn property_answer(p: &PropertyStatus) -> &'static str {
    match p {
        PropertyStatus::FoundInRegion => "violated in the region",
        PropertyStatus::FoundOutsideRegion => "violated outside the region",
        PropertyStatus::NoneInRegion { .. } => "none in the region",
        PropertyStatus::NotDecided(_) => "not decided",
    }
}

/// Why a line is not coverable, in words.
pub fn not_coverable_by(by: &NotCoverableBy) -> String {
    NotCoverable(by).to_string()
}

/// What stopped a search, as a phrase (`the time limit`, ...).
pub fn stopped_by(by: StoppedBy) -> &'static str {
    match by {
        StoppedBy::TimeLimit => "the time limit",
        StoppedBy::MemoryLimit => "the memory limit",
        StoppedBy::Signal => "a signal",
        StoppedBy::MaxExecutions => "the limit on executions (--max-executions)",
        StoppedBy::Solver => "the SAT solver giving up",
    }
}

/// Why the interpreter refused executions, in words with how many: most frequent first, ties in
/// the order of their words.
pub fn refusals(list: &[(usize, Refusal)]) -> Vec<(usize, String)> {
    let mut v: Vec<(usize, String)> = list.iter().map(|(n, r)| (*n, refusal(r))).collect();
    v.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    v
}

/// Why the interpreter refused an execution.
pub fn refusal(r: &Refusal) -> String {
    match r {
        Refusal::NoModel => "the solver gave no values for the inputs".into(),
        Refusal::LeftPath { line, edge } => format!("the concrete run left the path at line {line} (`{edge}`)"),
        Refusal::Ended(end) => format!("the concrete run ended before the path did: {end}"),
    }
}

/// What the proof pass abstracted away: the variables, and what functions without body write
/// (`None` if it proved nothing).
pub fn abstraction(res: &CoverageResult) -> Option<String> {
    let mut what = res.abstracted.clone();
    if res.abstracted_extern_writes {
        what.push(EXTERN_WRITES_ABSTRACTED.to_string());
    }
    (res.proven_by_abstraction > 0 && !what.is_empty()).then(|| what.join(", "))
}

/// What stopped the paths at a blocking edge, given how often it was tried and paths were cut on it.
pub fn obstacle(o: Obstacle, tried: u64, cut: u64) -> String {
    match o {
        Obstacle::Infeasible => format!("tried {tried} time(s), infeasible each time"),
        Obstacle::Undefined => format!("{cut} path(s) cut there at possible undefined behaviour"),
        Obstacle::Unsupported => format!("{cut} path(s) cut there at a construct vcov does not model"),
        Obstacle::Unfinished => format!("tried {tried} time(s), no path went on past it"),
        Obstacle::NotTried => "never tried".to_string(),
    }
}

/// The edge, where it is and what stopped the paths there: ``line 10614 in f (`[!(a != b)]`: tried
/// 10 time(s), infeasible each time)``.
pub fn blocked_edge(b: &BlockedAt) -> String {
    // The first line of the edge's text (a block's text spans many), shortened.
    let first = b.edge.lines().next().unwrap_or_default().trim();
    let text = match first.char_indices().nth(EDGE_TEXT_SHOWN) {
        Some((cut, _)) => format!("{}…", &first[..cut]),
        None if first.len() < b.edge.trim().len() => format!("{first} …"),
        None => first.to_string(),
    };
    let obstacle = obstacle(b.obstacle, b.tried, b.cut);
    // An edge without a line (the start of a function) is named by its function alone, so that
    // every `line N` a report shows is a line of the program.
    let place = match b.line {
        0 => format!("the start of {}", b.function),
        line => format!("line {line} in {}", b.function),
    };
    if text.is_empty() {
        format!("{place} ({obstacle})")
    } else {
        format!("{place} (`{text}`: {obstacle})")
    }
}

/// Where the undecided lines are, in one sentence: the edges with most lines behind them first.
pub fn undecided_summary(u: &UndecidedLines) -> String {
    let mut parts: Vec<String> =
        u.blocked.iter().take(BLOCKED_NAMED).map(|b| format!("{} behind {}", b.lines.len(), blocked_edge(b))).collect();
    let more = &u.blocked[u.blocked.len().min(BLOCKED_NAMED)..];
    if !more.is_empty() {
        let n: usize = more.iter().map(|b| b.lines.len()).sum();
        parts.push(format!("{n} behind {} other edge(s) no path got past", more.len()));
    }
    if !u.reached.is_empty() {
        parts.push(format!("{} {REACHED}", u.reached.len()));
    }
    if !u.elsewhere.is_empty() {
        parts.push(format!("{} {ELSEWHERE}", u.elsewhere.len()));
    }
    format!("{} line(s) undecided: {}", u.len(), parts.join(", "))
}

/// Why each undecided line is undecided (`undecided_why` of every line at once: each blocking edge
/// is described once, not once per line).
pub fn undecided_whys(u: &UndecidedLines) -> BTreeMap<u32, String> {
    let mut res: BTreeMap<u32, String> = BTreeMap::new();
    for &l in &u.elsewhere {
        res.insert(l, ELSEWHERE.to_string());
    }
    // In the order `undecided_why` tries them: a line reached, then behind the first blocking edge
    // holding it.
    for b in u.blocked.iter().rev() {
        let why = format!("behind {}", blocked_edge(b));
        for &l in &b.lines {
            res.insert(l, why.clone());
        }
    }
    for &l in &u.reached {
        res.insert(l, REACHED.to_string());
    }
    res
}

/// Why `line` is undecided, if it is.
pub fn undecided_why(u: &UndecidedLines, line: u32) -> Option<String> {
    if u.reached.binary_search(&line).is_ok() {
        return Some(REACHED.to_string());
    }
    if let Some(b) = u.blocked.iter().find(|b| b.lines.binary_search(&line).is_ok()) {
        return Some(format!("behind {}", blocked_edge(b)));
    }
    u.elsewhere.binary_search(&line).is_ok().then(|| ELSEWHERE.to_string())
}

struct NotCoverable<'a>(&'a NotCoverableBy);

impl fmt::Display for NotCoverable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let assumed = match self.0 {
            NotCoverableBy::NoExit => return f.write_str("no path to the end of main"),
            NotCoverableBy::Frontier => return f.write_str("only on edges into the unexplored region"),
            NotCoverableBy::PastUndefinedCall => {
                return f.write_str(
                    "value analysis of automaton x CFA, past a call through a pointer of an incompatible function \
                     type (undefined behaviour)",
                )
            }
            NotCoverableBy::PastNullAccess => {
                return f.write_str(
                    "value analysis of automaton x CFA, past an access through a null pointer (undefined behaviour)",
                )
            }
            NotCoverableBy::Values => return f.write_str("value analysis of automaton x CFA"),
            NotCoverableBy::Bmc { steps } => {
                return write!(f, "bounded model checking of the program: every execution ends within {steps} step(s)")
            }
            NotCoverableBy::Induction { k: 0, invariants: n @ 1.. } => {
                return write!(
                    f,
                    "invariants: no step from a state the program's {n} proven invariant(s) allow reaches it"
                )
            }
            NotCoverableBy::Induction { k, invariants: 0 } => {
                return write!(f, "k-induction over the program (k = {k})")
            }
            NotCoverableBy::Induction { k, invariants } => {
                return write!(f, "k-induction over the program (k = {k}, {invariants} invariant(s))")
            }
            NotCoverableBy::Abstraction { counters, extern_writes, assumed } => {
                match (extern_writes, counters) {
                    (false, _) => f.write_str("counter abstraction")?,
                    (true, false) => write!(f, "search with {EXTERN_WRITES_ABSTRACTED} abstracted away")?,
                    (true, true) => write!(f, "counter abstraction, with {EXTERN_WRITES_ABSTRACTED} abstracted away")?,
                }
                assumed
            }
            NotCoverableBy::ExhaustiveSearch { assumed } => {
                f.write_str("exhaustive search")?;
                assumed
            }
        };
        let names = assumed.assumption_names();
        if !names.is_empty() {
            write!(f, ", assuming {}", names.join(", "))?;
        }
        Ok(())
    }
}

struct Inexact<'a>(&'a InexactReason);

impl fmt::Display for Inexact<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            InexactReason::Cut { count, first, line } => {
                write!(f, "{count} path(s) cut; first")?;
                if let Some(l) = line {
                    write!(f, " at line {l}")?;
                }
                f.write_str(": ")?;
                first.as_ref().map_or(Ok(()), |c| write!(f, "{c}"))
            }
            InexactReason::Approximated(a) => f.write_str(&a.describe().join("; ")),
            InexactReason::Rejected(r) => write!(f, "{r}"),
            InexactReason::PrunedAsCovered(hits) => write!(
                f,
                "{hits} path(s) were pruned as covered by explored states, so not every execution was \
                 enumerated (--generate targeted proves lines not coverable)"
            ),
            InexactReason::Stopped(stop) => write!(f, "the search was stopped before it ended ({})", stop.describe()),
            InexactReason::MaxExecutions(n) => write!(f, "the search stopped at {n} execution(s) (--max-executions)"),
            InexactReason::StoppedAtBug => {
                f.write_str("the search stopped at the first bug (--continue-after-bug goes on)")
            }
            InexactReason::EndedEarly => f.write_str("the search ended before exhausting the program"),
            InexactReason::FromFiles => f.write_str("the executions come from files; no search was made"),
            InexactReason::Unreproducible(n) => write!(
                f,
                "{n} execution(s) read bytes of malloc'd memory never written, which vcov replay cannot \
                 reproduce; they do not count"
            ),
            InexactReason::RejectedByGcc(n) => {
                write!(f, "{n} execution(s) did not replay under gcc (--confirm) and do not count")
            }
            InexactReason::AssumedViolation(n) => {
                write!(f, "{n} path(s) violate the property relying on the accepted assumptions")
            }
            InexactReason::ConfirmationPending(n) => write!(
                f,
                "{n} execution(s) were not replayed under gcc before the time limit (--confirm) and do not count"
            ),
            InexactReason::ProofContradicted(line) => write!(
                f,
                "line {line} was proven not coverable, yet an execution another configuration found covers it"
            ),
            InexactReason::ViolationsGivenUp(n) => write!(
                f,
                "every line was decided; the search for violations went on for {n} more edge(s), as many as \
                 deciding the lines took (at least 100,000), and was given up"
            ),
        }
    }
}

struct Property<'a>(&'a PropertyStatus);

impl fmt::Display for Property<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            PropertyStatus::FoundInRegion => f.write_str("violated inside the explored region"),
            PropertyStatus::FoundOutsideRegion => f.write_str(
                "violated outside the explored region (a bug the verifier's run never reached; nothing is said \
                 about the region)",
            ),
            PropertyStatus::NoneInRegion { by, assumed } => {
                f.write_str("no violation inside the explored region (")?;
                f.write_str(match by {
                    NoViolationBy::NoErrorLocation => "no path of automaton x CFA reaches an error location",
                    NoViolationBy::ExhaustiveSearch => "every path there toward an error location was explored",
                    NoViolationBy::Abstraction => "an over-approximation of the program was explored in full",
                })?;
                let names = assumed.assumption_names();
                if !names.is_empty() {
                    write!(f, ", assuming {}", names.join(", "))?;
                }
                f.write_str(")")
            }
            PropertyStatus::NotDecided(why) => write!(f, "not decided inside the explored region: {}", Inexact(why)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symex::Approx;

    /// An edge of `f` at `line` no path tried, with `lines` behind it.
    fn blocked(line: u32, edge: &str, lines: &[u32]) -> BlockedAt {
        BlockedAt {
            line,
            function: "f".into(),
            edge: edge.into(),
            state: "ARG1".into(),
            obstacle: Obstacle::NotTried,
            tried: 0,
            cut: 0,
            lines: lines.to_vec(),
        }
    }

    #[test]
    fn origins_have_their_labels() {
        let names: Vec<String> =
            [Origin::Generated, Origin::FoundFor("value".into()), Origin::File("c.spc".into()), Origin::Bug]
                .iter()
                .map(origin)
                .collect();
        assert_eq!(names, ["generated", "found for value", "c.spc", "bug"]);
    }

    #[test]
    fn every_undecided_line_has_one_why() {
        let at = |lines: &[u32], edge: &str| blocked(9, edge, lines);
        let u = UndecidedLines {
            reached: vec![1, 3],
            blocked: vec![at(&[2, 3, 4], "a;"), at(&[4, 5], "b;")],
            elsewhere: vec![6],
        };
        let whys = undecided_whys(&u);
        for line in 0..8 {
            assert_eq!(whys.get(&line).cloned(), undecided_why(&u, line), "line {line}");
        }
    }

    #[test]
    fn a_blocking_edge_without_a_line_is_named_by_its_function() {
        let at = |line: u32, edge: &str| blocked(line, edge, &[3]);
        assert_eq!(blocked_edge(&at(0, "")), "the start of f (never tried)");
        assert_eq!(blocked_edge(&at(7, "x = 1;")), "line 7 in f (`x = 1;`: never tried)");
    }

    #[test]
    fn inexact_reasons_read_as_the_reports_say_them() {
        use crate::symex::semantics::UbKind;
        use crate::symex::{CutReason, StopReason};
        let cut = InexactReason::Cut { count: 2, first: Some(CutReason::Unwind(crate::cfa::NodeId(4))), line: Some(7) };
        assert!(inexact(&cut).starts_with("2 path(s) cut; first at line 7: "), "{cut:?}");
        let cut = InexactReason::Cut { count: 1, first: Some(CutReason::Undefined(UbKind::DivByZero)), line: None };
        assert_eq!(inexact(&cut), "1 path(s) cut; first: possible undefined behaviour: division by zero");
        assert_eq!(
            inexact(&InexactReason::Stopped(StopReason::Time)),
            "the search was stopped before it ended (time limit)"
        );
        assert_eq!(
            inexact(&InexactReason::Approximated(Approx::LAZY_MEMORY)),
            "an unknown pointer was taken to point to fresh memory"
        );
        assert_eq!(
            inexact(&InexactReason::MaxExecutions(3)),
            "the search stopped at 3 execution(s) (--max-executions)"
        );
        assert_eq!(
            inexact(&InexactReason::RejectedByGcc(2)),
            "2 execution(s) did not replay under gcc (--confirm) and do not count"
        );
    }

    #[test]
    fn each_argument_reads_as_the_reports_say_it() {
        let cases = [
            (NotCoverableBy::NoExit, "no path to the end of main"),
            (NotCoverableBy::Frontier, "only on edges into the unexplored region"),
            (NotCoverableBy::Values, "value analysis of automaton x CFA"),
            (
                NotCoverableBy::PastNullAccess,
                "value analysis of automaton x CFA, past an access through a null pointer (undefined behaviour)",
            ),
            (
                NotCoverableBy::ExhaustiveSearch { assumed: Approx::LAZY_MEMORY },
                "exhaustive search, assuming fresh-pointers",
            ),
            (
                NotCoverableBy::Abstraction { counters: true, extern_writes: false, assumed: Approx::NONE },
                "counter abstraction",
            ),
            (
                NotCoverableBy::Abstraction { counters: false, extern_writes: true, assumed: Approx::NONE },
                "search with what functions without body write abstracted away",
            ),
            (
                NotCoverableBy::Abstraction { counters: true, extern_writes: true, assumed: Approx::NONE },
                "counter abstraction, with what functions without body write abstracted away",
            ),
            (
                NotCoverableBy::Induction { k: 0, invariants: 2 },
                "invariants: no step from a state the program's 2 proven invariant(s) allow reaches it",
            ),
            (NotCoverableBy::Induction { k: 3, invariants: 0 }, "k-induction over the program (k = 3)"),
            (NotCoverableBy::Induction { k: 2, invariants: 5 }, "k-induction over the program (k = 2, 5 invariant(s))"),
            (
                NotCoverableBy::Bmc { steps: 7 },
                "bounded model checking of the program: every execution ends within 7 step(s)",
            ),
        ];
        for (by, words) in cases {
            assert_eq!(not_coverable_by(&by), words, "{by:?}");
        }
    }

    #[test]
    fn exactness_is_worded_from_its_one_value() {
        let exact = exactness(&Exactness::Exact);
        assert_eq!(
            (exact.answer.as_str(), exact.sentence()),
            ("yes", "exact: every line of the over-approximation is covered or proven not coverable".to_string())
        );
        let assuming = exactness(&Exactness::ExactAssuming(Approx::LAZY_MEMORY));
        assert_eq!(assuming.answer, "yes, assuming fresh-pointers");
        assert_eq!(
            assuming.definition(),
            "yes, assuming fresh-pointers: every line of the over-approximation is covered or proven not coverable, \
             relying on these assumptions"
        );
        let not = exactness(&Exactness::Inexact(InexactReason::MaxExecutions(3)));
        assert_eq!(not.sentence(), "not exact: the search stopped at 3 execution(s) (--max-executions)");
        assert_eq!(not.definition(), "no: the search stopped at 3 execution(s) (--max-executions)");
    }

    #[test]
    fn the_property_reads_the_same_in_a_cell_and_a_sentence() {
        let none = PropertyStatus::NoneInRegion { by: NoViolationBy::ExhaustiveSearch, assumed: Approx::LAZY_MEMORY };
        assert_eq!(property_answer(&none), "none in the region");
        assert_eq!(
            property(&none),
            "no violation inside the explored region (every path there toward an error location was explored, \
             assuming fresh-pointers)"
        );
        let open = PropertyStatus::NotDecided(InexactReason::StoppedAtBug);
        assert_eq!(property_answer(&open), "not decided");
        assert_eq!(
            property(&open),
            "not decided inside the explored region: the search stopped at the first bug (--continue-after-bug goes on)"
        );
    }
}
