//! Prints automata back in CPAchecker's syntax, in a canonical layout.
//!
//! Parsing the printed text gives the same automaton again, up to line/column numbers and the
//! `synthetic` flag (a synthesized state is printed like a declared one, marked by a `// synthetic`
//! comment). Conditions get the fewest parentheses that keep their grouping, except that `&&` and `||`
//! are always parenthesized against each other, because readers expect C precedence there.

use std::fmt::{self, Display, Formatter};

use super::ast::{Action, Automaton, IntExpr, LocalInit, MatchTrigger, PrintArg, Trigger};
use super::write::{self, Delim, Quoted};

impl Display for Automaton {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write::header(f, self.kind, &self.name)?;
        for local in &self.locals {
            write!(f, "LOCAL {}", local.ty)?;
            if let Some(elem) = &local.elem_ty {
                write!(f, "<{elem}>")?;
            }
            write!(f, " {}", local.name)?;
            match &local.init {
                None => {}
                Some(LocalInit::Int(v)) => write!(f, " = {v}")?,
                Some(LocalInit::Set(text)) => write!(f, " = {}", Quoted(text, Delim::Square))?,
            }
            writeln!(f, ";")?;
        }
        if !self.locals.is_empty() {
            writeln!(f)?;
        }
        write::initial(f, &self.state(self.initial).name)?;
        for state in &self.states {
            let comment = state.synthetic.then_some("synthetic");
            write::state(f, &state.name, Some(state.mode), state.is_target, comment)?;
            for t in &state.transitions {
                write::transition(f, t, |id| &self.state(id).name)?;
            }
            writeln!(f)?;
        }
        write::end(f)
    }
}

/// Precedence levels, lowest first; `PRIMARY` covers `!` and everything self-delimiting.
const LOGICAL: u8 = 1;
const EQUALITY: u8 = 2;
const ADDITIVE: u8 = 3;
const PRIMARY: u8 = 4;

impl Trigger {
    fn level(&self) -> u8 {
        match self {
            Trigger::And(..) | Trigger::Or(..) => LOGICAL,
            Trigger::BoolEq(..) | Trigger::BoolNe(..) | Trigger::IntEq(..) | Trigger::IntNe(..) => EQUALITY,
            _ => PRIMARY,
        }
    }
}

impl IntExpr {
    fn level(&self) -> u8 {
        match self {
            IntExpr::Plus(..) | IntExpr::Minus(..) => ADDITIVE,
            _ => PRIMARY,
        }
    }
}

/// Writes `child` of an operator of level `level`, in parentheses if they are needed to keep the tree.
fn child(f: &mut Formatter<'_>, child: &impl Display, child_level: u8, level: u8, right: bool) -> fmt::Result {
    if child_level < level || (right && child_level == level) {
        write!(f, "({child})")
    } else {
        write!(f, "{child}")
    }
}

fn bool_op(f: &mut Formatter<'_>, parent: &Trigger, a: &Trigger, op: &str, b: &Trigger) -> fmt::Result {
    let level = parent.level();
    // `a || b && c` is legal but misleading: always parenthesize `&&` inside `||` and the other way round.
    let mixes =
        |t: &Trigger| matches!((parent, t), (Trigger::And(..), Trigger::Or(..)) | (Trigger::Or(..), Trigger::And(..)));
    let a_level = if mixes(a) { 0 } else { a.level() };
    let b_level = if mixes(b) { 0 } else { b.level() };
    child(f, a, a_level, level, false)?;
    write!(f, " {op} ")?;
    child(f, b, b_level, level, true)
}

impl Display for Trigger {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Trigger::True => write!(f, "TRUE"),
            Trigger::False => write!(f, "FALSE"),
            Trigger::Match(m) => write!(f, "{m}"),
            Trigger::Check { cpa: Some(cpa), query } => write!(f, "CHECK({cpa}, {})", Quoted(query, Delim::Str)),
            Trigger::Check { cpa: None, query } => write!(f, "CHECK({})", Quoted(query, Delim::Str)),
            Trigger::CheckTargetState => write!(f, "CHECK(IS_TARGET_STATE)"),
            Trigger::CoversLines(lines) => {
                write!(f, "COVERS_LINES(")?;
                for (i, line) in lines.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{line}")?;
                }
                write!(f, ")")
            }
            Trigger::Not(a) => {
                write!(f, "!")?;
                child(f, a.as_ref(), a.level(), PRIMARY, false)
            }
            Trigger::And(a, b) => bool_op(f, self, a, "&&", b),
            Trigger::Or(a, b) => bool_op(f, self, a, "||", b),
            Trigger::BoolEq(a, b) => bool_op(f, self, a, "==", b),
            Trigger::BoolNe(a, b) => bool_op(f, self, a, "!=", b),
            Trigger::IntEq(a, b) | Trigger::IntNe(a, b) => {
                let op = if matches!(self, Trigger::IntEq(..)) { "==" } else { "!=" };
                child(f, a, a.level(), EQUALITY, false)?;
                write!(f, " {op} ")?;
                child(f, b, b.level(), EQUALITY, true)
            }
        }
    }
}

impl Display for MatchTrigger {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            MatchTrigger::Exact(s) => write!(f, "MATCH {}", Quoted(s, Delim::Str)),
            MatchTrigger::Pattern(s) => write!(f, "MATCH {}", Quoted(s, Delim::Curly)),
            MatchTrigger::Regex(s) => write!(f, "MATCH {}", Quoted(s, Delim::Square)),
            MatchTrigger::Exit => write!(f, "MATCH EXIT"),
            MatchTrigger::Entry => write!(f, "MATCH ENTRY"),
            MatchTrigger::Assert => write!(f, "MATCH ASSERT"),
            MatchTrigger::Label(s) => write!(f, "MATCH LABEL {}", Quoted(s, Delim::Str)),
            MatchTrigger::LabelRegex(s) => write!(f, "MATCH LABEL {}", Quoted(s, Delim::Square)),
            MatchTrigger::Call(s) => write!(f, "MATCH FUNCTIONCALL {}", Quoted(s, Delim::Str)),
        }
    }
}

impl Display for IntExpr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            IntExpr::Const(v) => write!(f, "{v}"),
            IntExpr::Var(name) => write!(f, "{name}"),
            IntExpr::Plus(a, b) | IntExpr::Minus(a, b) => {
                let op = if matches!(self, IntExpr::Plus(..)) { "+" } else { "-" };
                child(f, a.as_ref(), a.level(), ADDITIVE, false)?;
                write!(f, " {op} ")?;
                child(f, b.as_ref(), b.level(), ADDITIVE, true)
            }
            IntExpr::Eval { cpa, query } => write!(f, "EVAL({cpa}, {})", Quoted(query, Delim::Str)),
        }
    }
}

impl Display for Action {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Action::Do { var, value } => write!(f, "DO {var} = {value}"),
            Action::DoSet { var, key, value } => {
                let value = if *value { "TRUE" } else { "FALSE" };
                write!(f, "DO {var}{} = {value}", Quoted(key, Delim::Square))
            }
            Action::Print(args) | Action::PrintOnce(args) => {
                write!(f, "{}", if matches!(self, Action::Print(_)) { "PRINT" } else { "PRINTONCE" })?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                Ok(())
            }
            Action::Modify { cpa, query } => write!(f, "MODIFY({cpa}, {})", Quoted(query, Delim::Str)),
        }
    }
}

impl Display for PrintArg {
    /// Operators are parenthesized so that consecutive arguments read apart.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            PrintArg::Str(s) => write!(f, "{}", Quoted(s, Delim::Str)),
            PrintArg::Int(i) => child(f, i, i.level(), PRIMARY, false),
            PrintArg::Bool(b) => child(f, b, b.level(), PRIMARY, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::assume::AssumeTruth;
    use super::super::ast::{AutomatonKind, LocalVar, MatchMode, State, StateId, Target, Transition};
    use super::super::parse_all;
    use super::*;
    use crate::base::SourceFile;

    /// `check(input, expect)`: parses `input`, prints it, and checks the text and that it parses back
    /// to the same automata.
    fn check(input: &str, expect: &str) {
        let file = SourceFile::new("t.spc", input.to_string());
        let (automata, _) = parse_all(&file).unwrap();
        let res: String = automata.iter().map(|a| a.to_string()).collect();
        assert_eq!(res, expect, "\n--- got ---\n{res}");
        assert_round_trip(&automata);
    }

    /// Prints `automata`, parses the text and compares, ignoring positions and the `synthetic` flag.
    fn assert_round_trip(automata: &[Automaton]) {
        let text: String = automata.iter().map(|a| a.to_string()).collect();
        let file = SourceFile::new("printed.spc", text.clone());
        let (again, _) = parse_all(&file).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(normalize(automata.to_vec()), normalize(again), "\n{text}");
    }

    fn normalize(mut automata: Vec<Automaton>) -> Vec<Automaton> {
        for aut in &mut automata {
            for s in &mut aut.states {
                s.line = 0;
                s.synthetic = false;
                for t in &mut s.transitions {
                    t.line = 0;
                    t.col = 0;
                }
            }
        }
        automata
    }

    #[test]
    fn minimal_parentheses() {
        check(
            r#"AUTOMATON A INITIAL STATE q; STATE q :
(MATCH "a" || MATCH "b") && !MATCH "c" -> GOTO q;
MATCH "a" || (MATCH "b" && MATCH "c") -> GOTO q;
(TRUE && TRUE) && (TRUE && TRUE) -> GOTO q;
!(x == 1) && (a - (b - c)) == (a - b) - c -> GOTO q;
(TRUE == FALSE) == (TRUE != TRUE) -> GOTO q;
TRUE -> PRINT "s" x y + 1 (x == 1) !TRUE DO x = (1 + 2) + (3 - 4) GOTO q;
END AUTOMATON"#,
            r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEALL q :
    (MATCH "a" || MATCH "b") && !MATCH "c" -> GOTO q;
    MATCH "a" || (MATCH "b" && MATCH "c") -> GOTO q;
    TRUE && TRUE && (TRUE && TRUE) -> GOTO q;
    !(x == 1) && a - (b - c) == a - b - c -> GOTO q;
    TRUE == FALSE == (TRUE != TRUE) -> GOTO q;
    TRUE -> PRINT "s" x (y + 1) (x == 1) !TRUE DO x = 1 + 2 + (3 - 4) GOTO q;

END AUTOMATON
"#,
        );
    }

    #[test]
    fn escapes_are_written_back() {
        check(
            "AUTOMATON A LOCAL set<string> s = [x\\]y]; INITIAL STATE q; STATE q :\n\
             MATCH \"tab\there \\\"q\\\" \\\\ \\r\\n\" -> ASSUME {s[\"\\}\"]\\}; b\n} GOTO q;\n\
             MATCH [a\\]\\\\\\\\] -> ERROR(\"p\\\"\");\nEND AUTOMATON",
            "CONTROL AUTOMATON A\n\nLOCAL set<string> s = [x\\]y];\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n    \
             MATCH \"tab\\there \\\"q\\\" \\\\ \\r\\n\" -> ASSUME {s[\"\\}\"]\\}; b} GOTO q;\n    \
             MATCH [a\\]\\\\\\\\] -> ERROR(\"p\\\"\");\n\nEND AUTOMATON\n",
        );
    }

    // ---- Property test: random automata survive printing and parsing --------------------------

    fn ident() -> impl Strategy<Value = String> {
        "[a-z_][a-zA-Z0-9_]{0,6}".prop_filter("keyword", |s| s != "true" && s != "false")
    }

    fn text() -> impl Strategy<Value = String> {
        // Every character class the escapes care about, plus ordinary text and non-ASCII.
        proptest::collection::vec(
            prop_oneof![
                Just("\n".to_string()),
                Just("\t".to_string()),
                Just("\r".to_string()),
                Just("\\".to_string()),
                Just("\"".to_string()),
                Just("}".to_string()),
                Just("]".to_string()),
                Just("{[(".to_string()),
                Just("é".to_string()),
                "[a-z =!;]{1,4}",
            ],
            0..5,
        )
        .prop_map(|parts| parts.concat())
    }

    fn int_expr() -> impl Strategy<Value = IntExpr> {
        let leaf = prop_oneof![
            (0i64..1000).prop_map(IntExpr::Const),
            ident().prop_map(IntExpr::Var),
            (ident(), text()).prop_map(|(cpa, query)| IntExpr::Eval { cpa, query }),
        ];
        leaf.prop_recursive(3, 12, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| IntExpr::Plus(Box::new(a), Box::new(b))),
                (inner.clone(), inner).prop_map(|(a, b)| IntExpr::Minus(Box::new(a), Box::new(b))),
            ]
        })
    }

    fn match_trigger() -> impl Strategy<Value = MatchTrigger> {
        prop_oneof![
            text().prop_map(MatchTrigger::Exact),
            text().prop_map(MatchTrigger::Pattern),
            // The parser rejects invalid regular expressions; `regex::escape` keeps every character.
            text().prop_filter("one line", |s| !s.contains('\n')).prop_map(|s| MatchTrigger::Regex(regex::escape(&s))),
            Just(MatchTrigger::Exit),
            Just(MatchTrigger::Entry),
            Just(MatchTrigger::Assert),
            text().prop_map(MatchTrigger::Label),
            text().prop_map(|s| MatchTrigger::LabelRegex(regex::escape(&s))),
            text().prop_map(MatchTrigger::Call),
        ]
    }

    fn trigger() -> impl Strategy<Value = Trigger> {
        let leaf = prop_oneof![
            Just(Trigger::True),
            Just(Trigger::False),
            match_trigger().prop_map(Trigger::Match),
            (proptest::option::of(ident()), text()).prop_map(|(cpa, query)| Trigger::Check { cpa, query }),
            Just(Trigger::CheckTargetState),
            proptest::collection::btree_set(0u32..100, 0..4)
                .prop_map(|s| Trigger::CoversLines(s.into_iter().collect())),
            (int_expr(), int_expr()).prop_map(|(a, b)| Trigger::IntEq(a, b)),
            (int_expr(), int_expr()).prop_map(|(a, b)| Trigger::IntNe(a, b)),
        ];
        leaf.prop_recursive(4, 16, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(|a| Trigger::Not(Box::new(a))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Trigger::And(Box::new(a), Box::new(b))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Trigger::Or(Box::new(a), Box::new(b))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Trigger::BoolEq(Box::new(a), Box::new(b))),
                (inner.clone(), inner).prop_map(|(a, b)| Trigger::BoolNe(Box::new(a), Box::new(b))),
            ]
        })
    }

    fn action() -> impl Strategy<Value = Action> {
        let arg = prop_oneof![
            text().prop_map(PrintArg::Str),
            int_expr().prop_map(PrintArg::Int),
            trigger().prop_map(PrintArg::Bool),
        ];
        prop_oneof![
            (ident(), int_expr()).prop_map(|(var, value)| Action::Do { var, value }),
            (ident(), text().prop_filter("one line", |s| !s.contains('\n')), any::<bool>())
                .prop_map(|(var, key, value)| Action::DoSet { var, key, value }),
            proptest::collection::vec(arg.clone(), 0..3).prop_map(Action::Print),
            proptest::collection::vec(arg, 0..3).prop_map(Action::PrintOnce),
            (ident(), text()).prop_map(|(cpa, query)| Action::Modify { cpa, query }),
        ]
    }

    /// A target as an index into the automaton's states, resolved once the number of states is known.
    #[derive(Clone, Debug)]
    enum RawTarget {
        Goto(usize),
        Error(Option<String>),
        Stop,
        Break,
    }

    fn transition() -> impl Strategy<Value = (Transition, RawTarget)> {
        let target = prop_oneof![
            (0usize..100).prop_map(RawTarget::Goto),
            proptest::option::of(text()).prop_map(RawTarget::Error),
            Just(RawTarget::Stop),
            Just(RawTarget::Break),
        ];
        // Assumptions are C statements without `;` or braces, so that splitting gives them back.
        let assumption = "[a-z][a-z0-9 =<>!+]{0,8}".prop_map(|s| s.trim().to_string());
        (
            trigger(),
            proptest::collection::vec(trigger(), 0..2),
            proptest::collection::vec(assumption, 0..3),
            proptest::collection::vec(action(), 0..3),
            target,
        )
            .prop_map(|(trigger, assertions, assumptions, actions, target)| {
                let assume = crate::automaton::assume::truth(&assumptions).unwrap_or(AssumeTruth::Open);
                let t = Transition {
                    trigger,
                    assertions,
                    assumptions,
                    assume,
                    actions,
                    target: Target::Stop,
                    line: 0,
                    col: 0,
                };
                (t, target)
            })
    }

    fn automaton() -> impl Strategy<Value = Automaton> {
        let state = (any::<bool>(), any::<bool>(), proptest::collection::vec(transition(), 0..4));
        let local = (
            prop_oneof![Just("int".to_string()), Just("set".to_string())],
            ident(),
            proptest::option::of(0i64..100),
            proptest::option::of("[a-z0-9, ]{0,6}"),
        );
        (
            ident(),
            any::<bool>(),
            proptest::collection::vec(local, 0..3),
            proptest::collection::vec(state, 1..5),
            0usize..100,
        )
            .prop_map(|(name, observer, locals, states, initial)| {
                let n_states = states.len();
                let mut seen = Vec::new();
                let locals = locals
                    .into_iter()
                    .filter(|(_, name, _, _)| {
                        let fresh = !seen.contains(name);
                        seen.push(name.clone());
                        fresh
                    })
                    .map(|(ty, name, int, set)| {
                        if ty == "set" {
                            LocalVar { ty, elem_ty: Some("int".into()), name, init: set.map(LocalInit::Set) }
                        } else {
                            LocalVar { ty, elem_ty: None, name, init: int.map(LocalInit::Int) }
                        }
                    })
                    .collect();
                let states = states
                    .into_iter()
                    .enumerate()
                    .map(|(i, (use_first, is_target, transitions))| State {
                        name: format!("S{i}"),
                        mode: if use_first { MatchMode::UseFirst } else { MatchMode::UseAll },
                        is_target,
                        transitions: transitions
                            .into_iter()
                            .map(|(mut t, target)| {
                                t.target = match target {
                                    RawTarget::Goto(i) => Target::Goto(StateId::from_idx(i % n_states)),
                                    RawTarget::Error(msg) => Target::Error(msg),
                                    RawTarget::Stop => Target::Stop,
                                    RawTarget::Break => Target::Break,
                                };
                                t
                            })
                            .collect(),
                        line: 0,
                        synthetic: false,
                    })
                    .collect();
                Automaton {
                    name,
                    // STOP and MODIFY in an observer only warn, so any kind round-trips.
                    kind: if observer { AutomatonKind::Observer } else { AutomatonKind::Control },
                    locals,
                    initial: StateId::from_idx(initial % n_states),
                    states,
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn printed_automata_parse_back(automata in proptest::collection::vec(automaton(), 1..3)) {
            assert_round_trip(&automata);
        }
    }
}
