//! The data model of a parsed automaton: states, transitions, triggers, actions and targets.
//!
//! Invariant: every `Target::Goto` holds a valid index into `Automaton::states`.
//! Invariant: states read from the file come first, in file order; synthesized states follow them.

use super::assume::AssumeTruth;
use crate::id_type;

id_type! {
    /// A state of one [`Automaton`]: a dense index into `Automaton::states`, in file order.
    pub struct StateId;
}

/// Name of the state that accepts everything from here on (the verifier explored the rest).
pub const TRUE_STATE: &str = "__TRUE";
/// Name of the state that kills the path (it left the explored part of the state space).
pub const FALSE_STATE: &str = "__FALSE";

/// One automaton of a specification file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Automaton {
    /// The name after `AUTOMATON` (`AnonymousAutomaton<n>` for a top-level `ASSERT`).
    pub name: String,
    /// `OBSERVER` or `CONTROL` (an automaton without either keyword is a control automaton).
    pub kind: AutomatonKind,
    /// The `LOCAL` declarations, in file order, without duplicates (the first one wins, as in CPAchecker).
    pub locals: Vec<LocalVar>,
    /// The state named by `INITIAL STATE`.
    pub initial: StateId,
    /// All states: those of the file in file order, then synthesized ones (`__TRUE`, `__FALSE`).
    pub states: Vec<State>,
}

/// Whether an automaton only observes or may also restrict the analysis.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AutomatonKind {
    /// `OBSERVER AUTOMATON`: CPAchecker forbids `STOP` and `MODIFY` in it.
    Observer,
    /// `CONTROL AUTOMATON`, or just `AUTOMATON`.
    Control,
}

/// A `LOCAL` variable of an automaton.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LocalVar {
    /// The type as written: `int`, `integer` or `set` (CPAchecker compares them case-insensitively).
    pub ty: String,
    /// The element type of a set (`LOCAL set<int> s;`), as written.
    pub elem_ty: Option<String>,
    /// The variable name.
    pub name: String,
    /// The initial value, when one is written.
    pub init: Option<LocalInit>,
}

/// The initial value of a `LOCAL` variable.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LocalInit {
    /// `LOCAL int x = 3;` (CPAchecker's grammar allows only non-negative literals here).
    Int(i64),
    /// `LOCAL set<int> s = [1, 2];`: the unescaped text between the brackets.
    Set(String),
}

/// One state of an automaton.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct State {
    /// The name, e.g. `ARG42`, `ARG2_0_1`, `ARG342M0`, `__TRUE`.
    pub name: String,
    /// How transitions are chosen; CPAchecker's default (no keyword) is `USEALL`.
    pub mode: MatchMode,
    /// Whether the state was declared `TARGET STATE`.
    pub is_target: bool,
    /// The outgoing transitions, in file order.
    pub transitions: Vec<Transition>,
    /// Line of the first token of the state definition; 0 for a synthesized state.
    pub line: u32,
    /// Whether the parser made this state up because the file referenced it without declaring it.
    pub synthetic: bool,
}

/// How a state chooses among transitions whose triggers match.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MatchMode {
    /// `USEFIRST`: only the first matching transition fires.
    UseFirst,
    /// `USEALL` (the default): every matching transition fires.
    UseAll,
}

/// A transition `trigger -> [ASSERT b]* [ASSUME {..}] action* target;`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Transition {
    /// The condition before `->`.
    pub trigger: Trigger,
    /// The `ASSERT` conditions (a violated assertion makes CPAchecker report an error).
    pub assertions: Vec<Trigger>,
    /// The C statements of `ASSUME {a; b}` (or the old `ASSUME "a"`), split at top-level `;`, trimmed,
    /// empty ones dropped. CPAchecker reads an assignment `x = e` here as the condition `x == e`.
    pub assumptions: Vec<String>,
    /// What `assumptions` say on their own (`assume::truth`; a statement that is no C expression,
    /// an old solver formula, is `Open`).
    pub assume: AssumeTruth,
    /// The `DO`, `PRINT`, `PRINTONCE` and `MODIFY` actions, in order.
    pub actions: Vec<Action>,
    /// Where the transition leads.
    pub target: Target,
    /// Line of the first token of the trigger.
    pub line: u32,
    /// Column (in bytes, from 1) of the first token of the trigger.
    pub col: u32,
}

/// A boolean condition of the automaton language (the trigger of a transition or an `ASSERT`).
///
/// `&&` and `||` have the same precedence and group to the left, as in CPAchecker's grammar:
/// `a || b && c` is `(a || b) && c`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Trigger {
    /// `TRUE` (or `true`).
    True,
    /// `FALSE` (or `false`).
    False,
    /// One of the `MATCH` forms.
    Match(MatchTrigger),
    /// `CHECK(cpa, "query")`, the deprecated `CHECK(cpa("query"))`, or `CHECK("query")` (asks all CPAs).
    Check {
        /// The CPA (or automaton) asked; `None` asks every CPA.
        cpa: Option<String>,
        /// The query text, unescaped.
        query: String,
    },
    /// `CHECK(IS_TARGET_STATE)`: whether any CPA is in a target state.
    CheckTargetState,
    /// `COVERS_LINES(3 4 5)`: the line numbers, sorted and without duplicates (the grammar builds a set).
    CoversLines(Vec<u32>),
    /// `!b`.
    Not(Box<Trigger>),
    /// `a && b`.
    And(Box<Trigger>, Box<Trigger>),
    /// `a || b`.
    Or(Box<Trigger>, Box<Trigger>),
    /// `a == b` on two conditions.
    BoolEq(Box<Trigger>, Box<Trigger>),
    /// `a != b` on two conditions.
    BoolNe(Box<Trigger>, Box<Trigger>),
    /// `a == b` on two integer expressions.
    IntEq(IntExpr, IntExpr),
    /// `a != b` on two integer expressions.
    IntNe(IntExpr, IntExpr),
}

/// The forms of `MATCH`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MatchTrigger {
    /// `MATCH "text"`: the edge's raw statement equals the (unescaped) text.
    Exact(String),
    /// `MATCH {pattern}`: a C AST pattern with `$?`/`$1` wildcards, unescaped text.
    Pattern(String),
    /// `MATCH [regex]`: a Java regex that must match the whole raw statement, unescaped text.
    Regex(String),
    /// `MATCH EXIT`: the edge leaves the program (`main` returns or `exit` is called).
    Exit,
    /// `MATCH ENTRY`: the edge leaves the program's entry node.
    Entry,
    /// `MATCH ASSERT`: a Java `assert` (only for Java programs).
    Assert,
    /// `MATCH LABEL "name"`: the edge is the label `name`.
    Label(String),
    /// `MATCH LABEL [regex]`: the edge is a label whose name matches the regex.
    LabelRegex(String),
    /// `MATCH FUNCTIONCALL "f"`: the edge calls the function `f`.
    Call(String),
}

/// An integer expression over automaton variables.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IntExpr {
    /// A non-negative decimal literal.
    Const(i64),
    /// A `LOCAL` variable (or another name the automaton evaluates at run time).
    Var(String),
    /// `a + b`.
    Plus(Box<IntExpr>, Box<IntExpr>),
    /// `a - b`.
    Minus(Box<IntExpr>, Box<IntExpr>),
    /// `EVAL(cpa, "query")` or the deprecated `EVAL(cpa("query"))`.
    Eval {
        /// The CPA asked.
        cpa: String,
        /// The query text, unescaped.
        query: String,
    },
}

/// An action executed when a transition fires.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    /// `DO var = expr`.
    Do {
        /// The assigned variable.
        var: String,
        /// The new value.
        value: IntExpr,
    },
    /// `DO var[key] = TRUE|FALSE`: adds `key` to (or removes it from) the set variable `var`.
    DoSet {
        /// The set variable.
        var: String,
        /// The unescaped text between the brackets.
        key: String,
        /// `true` adds the element, `false` removes it.
        value: bool,
    },
    /// `PRINT arg*`.
    Print(Vec<PrintArg>),
    /// `PRINTONCE arg*`: like `PRINT`, but only the first time.
    PrintOnce(Vec<PrintArg>),
    /// `MODIFY(cpa, "query")` or the deprecated `MODIFY(cpa("query"))`: changes the state of another CPA.
    Modify {
        /// The CPA changed.
        cpa: String,
        /// The modification text, unescaped.
        query: String,
    },
}

/// One argument of `PRINT`/`PRINTONCE`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PrintArg {
    /// A string literal, unescaped.
    Str(String),
    /// An integer expression (including `EVAL(..)`).
    Int(IntExpr),
    /// A condition.
    Bool(Trigger),
}

/// Where a transition leads.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Target {
    /// `GOTO name`.
    Goto(StateId),
    /// `ERROR` (`None`) or `ERROR("property")`: a target state, the specification is violated.
    Error(Option<String>),
    /// `STOP`: the path ends here (bottom), it is not a violation.
    Stop,
    /// `BREAK`: halts the analysis without being a target.
    Break,
}

impl Automaton {
    /// The state called `name` (a linear scan: build a map when looking up many names).
    pub fn state_by_name(&self, name: &str) -> Option<StateId> {
        self.states.iter().position(|s| s.name == name).map(StateId::from_idx)
    }

    /// The state `__TRUE`, if the automaton has one (declared or synthesized).
    pub fn true_state(&self) -> Option<StateId> {
        self.state_by_name(TRUE_STATE)
    }

    /// The state `__FALSE`, if the automaton has one (declared or synthesized).
    pub fn false_state(&self) -> Option<StateId> {
        self.state_by_name(FALSE_STATE)
    }

    /// The state with id `id`.
    pub fn state(&self, id: StateId) -> &State {
        &self.states[id.idx()]
    }

    /// Total number of transitions over all states.
    pub fn n_transitions(&self) -> usize {
        self.states.iter().map(|s| s.transitions.len()).sum()
    }

    /// Ids of all states, in id order.
    pub fn state_ids(&self) -> impl Iterator<Item = StateId> + '_ {
        (0..self.states.len()).map(StateId::from_idx)
    }
}

impl Trigger {
    /// Visits every `MATCH` in the condition, left to right.
    pub fn for_each_match(&self, f: &mut impl FnMut(&MatchTrigger)) {
        match self {
            Trigger::Match(m) => f(m),
            Trigger::Not(a) => a.for_each_match(f),
            Trigger::And(a, b) | Trigger::Or(a, b) | Trigger::BoolEq(a, b) | Trigger::BoolNe(a, b) => {
                a.for_each_match(f);
                b.for_each_match(f);
            }
            Trigger::True
            | Trigger::False
            | Trigger::Check { .. }
            | Trigger::CheckTargetState
            | Trigger::CoversLines(_)
            | Trigger::IntEq(..)
            | Trigger::IntNe(..) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(name: &str) -> State {
        State {
            name: name.to_string(),
            mode: MatchMode::UseFirst,
            is_target: false,
            transitions: vec![Transition {
                trigger: Trigger::True,
                assertions: vec![],
                assumptions: vec![],
                assume: AssumeTruth::True,
                actions: vec![],
                target: Target::Stop,
                line: 1,
                col: 1,
            }],
            line: 1,
            synthetic: false,
        }
    }

    /// `check(names, expect)`: builds an automaton with states `names` and prints the lookups.
    fn check(names: &[&str], expect: &str) {
        let aut = Automaton {
            name: "A".to_string(),
            kind: AutomatonKind::Control,
            locals: vec![],
            initial: StateId(0),
            states: names.iter().map(|n| state(n)).collect(),
        };
        let res = format!(
            "true={:?} false={:?} ARG1={:?} n_transitions={}",
            aut.true_state(),
            aut.false_state(),
            aut.state_by_name("ARG1"),
            aut.n_transitions()
        );
        assert_eq!(res, expect);
    }

    #[test]
    fn lookups() {
        check(&["ARG0", "__TRUE"], "true=Some(StateId(1)) false=None ARG1=None n_transitions=2");
        check(
            &["__FALSE", "ARG1", "__TRUE"],
            "true=Some(StateId(2)) false=Some(StateId(0)) ARG1=Some(StateId(1)) n_transitions=3",
        );
    }

    #[test]
    fn for_each_match_visits_left_to_right() {
        let t = Trigger::Or(
            Box::new(Trigger::Not(Box::new(Trigger::Match(MatchTrigger::Exact("a".into()))))),
            Box::new(Trigger::And(Box::new(Trigger::Match(MatchTrigger::Exit)), Box::new(Trigger::True))),
        );
        let mut seen = vec![];
        t.for_each_match(&mut |m| seen.push(m.clone()));
        assert_eq!(seen, vec![MatchTrigger::Exact("a".into()), MatchTrigger::Exit]);
    }
}
