//! Interval analysis with input subdivision: a proof engine for programs whose property depends on
//! floating-point arithmetic over ranges of inputs, where bit-blasted IEEE circuits are hard for a
//! SAT solver (chains of binary32 multiplications and divisions) and intervals are not.
//!
//! The engine runs every path of the transition system of `verify::ts` (the same inlined program,
//! the same semantics and the same refusals) on intervals (`domain`): path by path, without joins,
//! a branch whose condition the intervals do not decide is followed both ways, each with the values
//! narrowed by its condition. A path is *bad* when it may reach the violation or possible undefined
//! behaviour. The inputs of a path (each `__VERIFIER_nondet_*` result, each value nothing
//! initialized) are numbered in the order the path draws them; a *box* bounds some of them. When
//! the paths of a box have no bad one, no execution whose inputs lie in the box is bad. Otherwise
//! the box is split in two or more boxes that cover it (first off the part of an input's range
//! the bad path's conditions excluded, then by bisection of the input that has the most values on
//! that path), until every box is proven or a limit is met. The first box bounds nothing, so the
//! boxes proven cover every execution: TRUE.
//!
//! The engine proves only: a bad path is no counterexample (intervals over-approximate), and
//! limits (boxes, edges, the budget) end it without an answer.
//!
//! Invariant: a TRUE comes only from boxes that cover every input and whose every path, run on
//! intervals that contain every value the executor's semantics gives, ends without reaching the
//! violation or undefined behaviour.
//! Invariant: the answer and the number of boxes depend only on the program and the limits of
//! `Limits` (no clock, no hash order); the budget only stops the engine.

mod domain;
mod eval;

#[cfg(test)]
mod tests;

use crate::base::fp::Format;
use crate::cfa::EdgeId;
use crate::cfront::ir::FuncId;
use crate::cfront::types::TypeId;
use crate::symex::semantics::Repr;
use crate::symex::{self, Budget, ConcreteEnd, InputValue};

use super::ts::Ts;
use domain::{from_ordinal, next_down, next_up, ordinal, type_range, FItv, IItv, Val};

/// How much work the engine may do before it gives up.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most boxes explored.
    pub boxes: u64,
    /// The most edges taken over all boxes.
    pub edges: u64,
    /// The most edges taken in one box (a loop the intervals do not bound runs out here), and by
    /// one run of the concrete interpreter.
    pub edges_per_box: u64,
    /// The most boxes with a bad path whose inputs are tried on the concrete interpreter.
    pub runs: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { boxes: 200_000, edges: 40_000_000, edges_per_box: 200_000, runs: 1_000 }
    }
}

/// What the engine established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No execution reaches the violation or undefined behaviour: shown for each of `boxes`
    /// boxes that together cover every input.
    Proven {
        /// The boxes explored.
        boxes: u64,
    },
    /// A run of the concrete interpreter on inputs from a box with a bad path reaches the
    /// violation.
    Counterexample {
        /// The edges of the run.
        edges: Vec<EdgeId>,
        /// The inputs that drive it.
        inputs: Vec<InputValue>,
    },
    /// No answer, and why.
    Unknown(String),
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Proven { boxes } => write!(f, "proven in {boxes} boxes of inputs"),
            Outcome::Counterexample { .. } => f.write_str("a counterexample"),
            Outcome::Unknown(why) => f.write_str(why.strip_prefix("intervals: ").unwrap_or(why)),
        }
    }
}

/// The type of an input: what its interval is an interval of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int(Repr),
    Float(Format),
}

impl Kind {
    /// Every value of the type.
    fn top(self) -> Val {
        match self {
            Kind::Int(r) => Val::Int(type_range(r)),
            Kind::Float(_) => Val::Float(FItv::TOP),
        }
    }
}

/// An input drawn by a path: its type and the values it may have there.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    kind: Kind,
    val: Val,
    /// The path read it (a value nothing initialized may be overwritten unread): only such an input
    /// is worth splitting.
    used: bool,
    /// For the result of a call of a function without body: the call's edge, what the concrete
    /// interpreter reads as the input.
    call: Option<(EdgeId, FuncId, TypeId)>,
}

/// Bounds on the inputs of the executions of a box, by their number along the path; an input
/// without a bound of its type (`None`, or a bound of another type) may have any value.
type InputBox = Vec<Option<Slot>>;

/// The bound a box puts on input `k` of type `kind`.
fn bound(b: &InputBox, k: usize, kind: Kind) -> Val {
    match b.get(k) {
        Some(Some(s)) if s.kind == kind => s.val,
        _ => kind.top(),
    }
}

/// Why the exploration of a box ended without showing it safe.
enum Stop {
    /// A path may be bad; the inputs it drew, narrowed by its conditions.
    Bad(Vec<Slot>),
    /// The transition system has no such construct.
    Unsupported(String),
    /// A box took more edges than `Limits::edges_per_box`, or its paths too many inputs or
    /// branches.
    Long,
}

/// Proves that no execution of `ts` reaches the violation or undefined behaviour, within `limits`
/// and the `budget`.
pub fn prove(ts: &Ts<'_>, limits: Limits, budget: &Budget) -> Outcome {
    let mut work: Vec<InputBox> = vec![Vec::new()];
    let mut boxes = 0u64;
    let mut edges = 0u64;
    let mut runs = 0u64;
    while let Some(b) = work.pop() {
        if let Some(s) = budget.exhausted() {
            return Outcome::Unknown(format!("intervals: {}", s.describe()));
        }
        if boxes >= limits.boxes || edges >= limits.edges {
            return Outcome::Unknown(format!("intervals: not proven within {boxes} boxes"));
        }
        boxes += 1;
        let per_box = limits.edges_per_box.min(limits.edges - edges);
        let (res, taken) = eval::explore(ts, &b, per_box);
        edges += taken;
        match res {
            Ok(()) => {}
            Err(Stop::Unsupported(why)) => return Outcome::Unknown(format!("intervals: unsupported: {why}")),
            Err(Stop::Long) => {
                return Outcome::Unknown("intervals: the paths of a box are too long or too many".into());
            }
            Err(Stop::Bad(drawn)) => {
                if runs < limits.runs {
                    runs += 1;
                    if let Some((edges, inputs)) = try_inputs(ts, &drawn, limits.edges_per_box) {
                        return Outcome::Counterexample { edges, inputs };
                    }
                }
                match split(&b, &drawn) {
                    Some(parts) => work.extend(parts.into_iter().rev()),
                    None => {
                        return Outcome::Unknown(
                            "intervals: a violation or undefined behaviour may be reachable from one input point"
                                .into(),
                        )
                    }
                }
            }
        }
    }
    Outcome::Proven { boxes }
}

/// Runs the concrete interpreter on inputs a bad path drew (the results of calls of functions
/// without body), each at the middle of its interval, then each at its least and at its greatest
/// value: the first run that reaches the violation, with its inputs.
fn try_inputs(ts: &Ts<'_>, drawn: &[Slot], max_steps: u64) -> Option<(Vec<EdgeId>, Vec<InputValue>)> {
    for pick in [Pick::Middle, Pick::Least, Pick::Greatest] {
        let inputs: Vec<InputValue> = drawn
            .iter()
            .filter_map(|s| {
                let (edge, func, ty) = s.call?;
                let (bits, value) = concrete(s.kind, s.val, pick);
                Some(InputValue {
                    kind: symex::InputKind::Call { edge, func: Some(func) },
                    ty: Some(ty),
                    pointer_choice: false,
                    bits,
                    value,
                })
            })
            .collect();
        let run = symex::interpret(ts.prog, ts.cfa, ts.world().property, &inputs, max_steps);
        if run.end == ConcreteEnd::Violation {
            return Some((run.trace.to_vec(), inputs));
        }
    }
    None
}

/// Which value of an interval to try.
#[derive(Clone, Copy)]
enum Pick {
    Middle,
    Least,
    Greatest,
}

/// A value of input type `kind` in `v`, as the width and bit pattern the interpreter reads (a
/// `_Bool` as one bit, as `verify::ts` draws it).
fn concrete(kind: Kind, v: Val, pick: Pick) -> (u32, u128) {
    match (kind, v) {
        (Kind::Int(r), Val::Int(i)) => {
            let x = match pick {
                Pick::Middle => i.lo + (i.hi - i.lo) / 2,
                Pick::Least => i.lo,
                Pick::Greatest => i.hi,
            };
            let bits = if r.is_bool { 1 } else { r.bits };
            (bits, domain::pattern(x, bits))
        }
        (Kind::Float(f), Val::Float(x)) => match x.range {
            None => (f.bits(), f.default_nan()),
            Some((l, h)) => {
                let v = match pick {
                    Pick::Middle => {
                        let (a, b) = (ordinal(f, l), ordinal(f, h));
                        from_ordinal(f, a + (b - a).div_euclid(2))
                    }
                    Pick::Least => l,
                    Pick::Greatest => h,
                };
                (f.bits(), domain::bits_of(f, v))
            }
        },
        (Kind::Int(r), _) => (if r.is_bool { 1 } else { r.bits }, 0),
        (Kind::Float(f), _) => (f.bits(), 0),
    }
}

/// Boxes that cover `b` and separate what made a path of `b` bad: the part of an input's bound
/// the bad path's conditions kept from the rest (the first input where they differ), otherwise
/// the halves of the input whose narrowed interval has the most values. `None` when every input
/// the path drew is a single value.
fn split(b: &InputBox, drawn: &[Slot]) -> Option<Vec<InputBox>> {
    let with = |k: usize, kind: Kind, pieces: Vec<Val>| -> Vec<InputBox> {
        pieces
            .into_iter()
            .map(|val| {
                let mut nb = b.clone();
                if nb.len() <= k {
                    nb.resize(k + 1, None);
                }
                nb[k] = Some(Slot { kind, val, used: true, call: None });
                nb
            })
            .collect()
    };
    for (k, s) in drawn.iter().enumerate().filter(|(_, s)| s.used) {
        let cur = bound(b, k, s.kind);
        if cur != s.val {
            let mut pieces = complement(s.kind, cur, s.val);
            if !pieces.is_empty() {
                pieces.push(s.val);
                return Some(with(k, s.kind, pieces));
            }
        }
    }
    let (k, s) = drawn
        .iter()
        .enumerate()
        .filter(|(_, s)| s.used && width(s.val) > 0)
        .max_by_key(|(k, s)| (width(s.val), std::cmp::Reverse(*k)))?;
    Some(with(k, s.kind, bisect(s.kind, s.val)))
}

/// How many values (other than a NaN) an interval holds, less one, saturated; a NaN beside other
/// values counts as one more.
fn width(v: Val) -> u128 {
    match v {
        Val::Int(i) => i.hi.abs_diff(i.lo),
        Val::Float(f) => match f.range {
            None => 0,
            Some((l, h)) => {
                // Ordinals of one format: the difference of two numbers below 2^64.
                let d = (ordinal(Format::Double, h) - ordinal(Format::Double, l)) as u128;
                d + u128::from(f.nan)
            }
        },
    }
}

/// The parts of `cur` outside `part` (a subset of it), as intervals of an input of type `kind`.
fn complement(kind: Kind, cur: Val, part: Val) -> Vec<Val> {
    match (cur, part) {
        (Val::Int(c), Val::Int(p)) => {
            let mut out = Vec::new();
            if p.lo > c.lo {
                out.push(Val::Int(IItv { lo: c.lo, hi: p.lo - 1 }));
            }
            if p.hi < c.hi {
                out.push(Val::Int(IItv { lo: p.hi + 1, hi: c.hi }));
            }
            out
        }
        (Val::Float(c), Val::Float(p)) => {
            let mut out = Vec::new();
            if c.nan && !p.nan {
                out.push(Val::Float(FItv { range: None, nan: true }));
            }
            match (c.range, p.range) {
                (Some(cr), None) => out.push(Val::Float(FItv { range: Some(cr), nan: false })),
                (Some((cl, ch)), Some((pl, ph))) => {
                    let Kind::Float(f) = kind else { return Vec::new() };
                    if pl > cl {
                        out.push(Val::Float(FItv { range: Some((cl, next_down(f, pl))), nan: false }));
                    }
                    if ph < ch {
                        out.push(Val::Float(FItv { range: Some((next_up(f, ph), ch)), nan: false }));
                    }
                }
                _ => {}
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Two or more intervals that cover `v` (of an input of type `kind`), each with fewer values.
fn bisect(kind: Kind, v: Val) -> Vec<Val> {
    match v {
        Val::Int(i) => {
            let mid = i.lo + (i.hi - i.lo) / 2;
            vec![Val::Int(IItv { lo: i.lo, hi: mid }), Val::Int(IItv { lo: mid + 1, hi: i.hi })]
        }
        Val::Float(f) => {
            let Some((l, h)) = f.range else { return vec![v] };
            if f.nan {
                return vec![
                    Val::Float(FItv { range: None, nan: true }),
                    Val::Float(FItv { range: Some((l, h)), nan: false }),
                ];
            }
            let format = match kind {
                Kind::Float(format) => format,
                Kind::Int(_) => Format::Double,
            };
            let (a, b) = (ordinal(format, l), ordinal(format, h));
            let mid = a + (b - a).div_euclid(2);
            vec![
                Val::Float(FItv { range: Some((l, from_ordinal(format, mid))), nan: false }),
                Val::Float(FItv { range: Some((from_ordinal(format, mid + 1), h)), nan: false }),
            ]
        }
    }
}
