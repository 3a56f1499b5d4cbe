//! Recursive-descent parser for CPAchecker's automaton language, with one token of look-ahead.
//!
//! The grammar follows CPAchecker's `parser.cup`:
//! ```text
//! file       := (automaton | ASSERT cond ';')*
//! automaton  := [OBSERVER | CONTROL] AUTOMATON name local* INITIAL STATE name ';' state* END AUTOMATON
//! local      := LOCAL type ['<' type '>'] name ['=' (int | '[…]')] ';'
//! state      := [TARGET] STATE [USEFIRST | USEALL] name ':' transition*
//! transition := cond '->' (ASSERT cond)* [ASSUME ('{…}' | "…")] action* target ';'
//! action     := DO name '=' int | DO name '[…]' '=' (TRUE | FALSE) | PRINT arg* | PRINTONCE arg*
//!             | MODIFY '(' name ',' "…" ')' | MODIFY '(' name '(' "…" ')' ')'
//! target     := GOTO name | ERROR ['(' "…" ')'] | STOP | BREAK
//! cond       := cond ('&&' | '||') cond | cond ('==' | '!=') cond | int ('==' | '!=') int | '!' cond
//!             | '(' cond ')' | TRUE | FALSE | MATCH … | CHECK(…) | COVERS_LINES '(' int* ')'
//! int        := int ('+' | '-') int | '(' int ')' | literal | name | EVAL(…)
//! ```
//! Precedence, lowest first: `&&`/`||` (one level, grouping left), `==`/`!=`, `+`/`-`, `!`.
//!
//! Beyond the grammar, and each reported as a warning: `MATCH LABEL name` reads as `MATCH LABEL "name"`,
//! `MATCH CALL f` / `MATCH CALL "f"` as `MATCH FUNCTIONCALL "f"`. `ASSUME "…"` (CPAchecker before 2014)
//! reads like `ASSUME {…}`.
//!
//! Checks after parsing, as CPAchecker does them: state names are unique, the initial state and every
//! `GOTO` target are declared. Two exceptions for assumption automata: `__TRUE` and `__FALSE` are
//! synthesized when referenced but not declared, and an undeclared initial state in an automaton that
//! declares no state but `__TRUE`/`__FALSE` (a finished proof of an old CPAchecker) reads as `__TRUE`.
//!
//! Invariant: the parser never panics and never recurses deeper than `MAX_NESTING` expression levels.

use std::path::PathBuf;

use rustc_hash::FxHashMap;

use crate::base::{Diagnostic, Severity, SourceFile};

use super::assume::AssumeTruth;
use super::ast::{
    Action, Automaton, AutomatonKind, IntExpr, LocalInit, LocalVar, MatchMode, MatchTrigger, PrintArg, State, StateId,
    Target, Transition, Trigger, FALSE_STATE, TRUE_STATE,
};
use super::lexer::{LexError, Lexer, Tok, Token};

/// A file that is not a valid automaton: where and why.
///
/// Displays as `path:line:col: message`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{}:{line}:{col}: {message}", path.display())]
pub struct ParseError {
    /// The file, as given to [`SourceFile::new`].
    pub path: PathBuf,
    /// 1-based line of the offending token.
    pub line: u32,
    /// 1-based column (in bytes) of the offending token.
    pub col: u32,
    /// What was expected and what was found, without trailing period.
    pub message: String,
}

/// Parses a file that holds one automaton (the usual case for assumption and counterexample automata).
///
/// A file with more than one automaton yields the first and a warning; use [`parse_all`] to get all.
/// The diagnostics are notes and warnings about input that was read but is unusual; anything that
/// CPAchecker would reject as syntax is an `Err`.
pub fn parse(file: &SourceFile) -> Result<(Automaton, Vec<Diagnostic>), ParseError> {
    let (automata, mut diags, n_includes) = parse_file(file)?;
    let n_automata = automata.len();
    let Some(first) = automata.into_iter().next() else {
        let why = if n_includes > 0 { " (`#include`d files are not read)" } else { "" };
        return Err(error_at(
            file,
            file.text().len() as u32,
            format!("no automaton in the file{why}: expected `OBSERVER AUTOMATON`, `CONTROL AUTOMATON` or `ASSERT`"),
        ));
    };
    if n_automata > 1 {
        diags.push(Diagnostic::new(
            Severity::Warning,
            file.path(),
            0,
            0,
            format!("the file holds {n_automata} automata; only the first, `{}`, is read", first.name),
        ));
    }
    Ok((first, diags))
}

/// Parses every automaton of a specification file, in file order.
///
/// A top-level `ASSERT cond;` becomes an automaton `AnonymousAutomaton<n>` with one state `OK` whose only
/// transition `TRUE -> ASSERT cond GOTO OK;` loops, as in CPAchecker.
pub fn parse_all(file: &SourceFile) -> Result<(Vec<Automaton>, Vec<Diagnostic>), ParseError> {
    let (automata, diags, _) = parse_file(file)?;
    Ok((automata, diags))
}

/// Parses every automaton of `file`; also returns the number of `#include` lines skipped.
fn parse_file(file: &SourceFile) -> Result<(Vec<Automaton>, Vec<Diagnostic>, usize), ParseError> {
    let mut p = Parser::new(file);
    let automata = p.file()?;
    let includes = std::mem::take(&mut p.lexer.includes);
    let n_includes = includes.len();
    for inc in includes {
        p.diag(
            Severity::Warning,
            inc.pos,
            format!("`#include {}` is skipped: automata in other files are not read", inc.file),
        );
    }
    Ok((automata, p.diags, n_includes))
}

/// Deepest nesting of parentheses and `!` in one expression.
const MAX_NESTING: u32 = 100;
/// Most operators and operands in one expression; keeps trees shallow enough to drop and print recursively.
const MAX_NODES: u32 = 2000;

/// How `Parser::chain` joins two operands with an operator: the value, or the message (from the
/// operator's text) when the operands do not fit it.
type Join = fn(Tok, Value, Value) -> Result<Value, fn(&str) -> String>;

/// A parsed expression before its type is checked: a condition or an integer.
enum Value {
    Bool(Trigger),
    Int(IntExpr),
}

/// A `GOTO name` whose state is looked up once all states are known.
struct PendingGoto {
    state_idx: usize,
    transition_idx: usize,
    name_lo: u32,
    name_hi: u32,
}

/// The states of the automaton being parsed.
struct StateTable<'a> {
    states: Vec<State>,
    /// State names by their text: `FxHashMap`, since SipHash took a quarter of the parse time of
    /// large automata (names come from one file the user chose, so hash flooding is no concern).
    index: FxHashMap<&'a str, StateId>,
    pending: Vec<PendingGoto>,
}

/// The parser of one file: the token stream with one token of look-ahead, and the diagnostics so far.
struct Parser<'a> {
    file: &'a SourceFile,
    src: &'a str,
    lexer: Lexer<'a>,
    /// The look-ahead token; `Tok::Eof` at `lex_error.pos` if the lexer failed there.
    tok: Token,
    /// The lexer's error, reported as soon as the parser looks at the failed token.
    lex_error: Option<LexError>,
    diags: Vec<Diagnostic>,
    /// Kind of the automaton being parsed.
    kind: AutomatonKind,
    n_anonymous: u32,
    nesting: u32,
    nodes: u32,
}

impl<'a> Parser<'a> {
    fn new(file: &'a SourceFile) -> Parser<'a> {
        let src = file.text();
        let eof = Token { kind: Tok::Eof, lo: 0, hi: 0, escaped: false };
        let mut p = Parser {
            file,
            src,
            lexer: Lexer::new(src),
            tok: eof,
            lex_error: None,
            diags: Vec::new(),
            kind: AutomatonKind::Control,
            n_anonymous: 0,
            nesting: 0,
            nodes: 0,
        };
        p.advance();
        p
    }

    // ---- Token handling -------------------------------------------------------------------------

    /// Reads the next token into `self.tok`; a lexical error is kept until the parser looks at it.
    fn advance(&mut self) {
        if self.lex_error.is_some() {
            return;
        }
        match self.lexer.next_token() {
            Ok(tok) => self.tok = tok,
            Err(e) => {
                self.tok = Token { kind: Tok::Eof, lo: e.pos, hi: e.pos, escaped: false };
                self.lex_error = Some(e);
            }
        }
    }

    /// Consumes the look-ahead token and returns it.
    fn bump(&mut self) -> Token {
        let tok = self.tok;
        self.advance();
        tok
    }

    fn at(&self, kind: Tok) -> bool {
        self.tok.kind == kind && self.lex_error.is_none()
    }

    /// Consumes the look-ahead token if it is `kind`.
    fn eat(&mut self, kind: Tok) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes a token of kind `kind`, or fails saying `expected`.
    fn expect(&mut self, kind: Tok, expected: &str) -> Result<Token, ParseError> {
        if self.at(kind) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(expected))
        }
    }

    /// Consumes a token of kind `kind` and returns its text, or fails saying `expected`.
    fn expect_text(&mut self, kind: Tok, expected: &str) -> Result<&'a str, ParseError> {
        let tok = self.expect(kind, expected)?;
        Ok(self.text(tok))
    }

    /// The error "expected …, found <look-ahead>" (or the lexer's error if it failed there).
    fn unexpected(&self, expected: &str) -> ParseError {
        if let Some(e) = &self.lex_error {
            return self.error_at(e.pos, e.message.clone());
        }
        self.error_at(self.tok.lo, format!("expected {expected}, found {}", self.tok.describe(self.src)))
    }

    fn error_at(&self, pos: u32, message: String) -> ParseError {
        error_at(self.file, pos, message)
    }

    fn diag(&mut self, severity: Severity, pos: u32, message: String) {
        let lc = self.file.line_col(pos);
        self.diags.push(Diagnostic::new(severity, self.file.path(), lc.line, lc.col, message));
    }

    fn text(&self, tok: Token) -> &'a str {
        tok.text(self.src)
    }

    /// The value of an integer literal token.
    fn int_value(&self, tok: Token) -> Result<i64, ParseError> {
        let text = self.text(tok);
        text.parse().map_err(|_| self.error_at(tok.lo, format!("integer literal `{text}` is too large")))
    }

    // ---- File and automaton ---------------------------------------------------------------------

    fn file(&mut self) -> Result<Vec<Automaton>, ParseError> {
        let mut res = Vec::new();
        loop {
            let kind = match self.tok.kind {
                Tok::Eof if self.lex_error.is_none() => break,
                Tok::Observer => {
                    self.bump();
                    AutomatonKind::Observer
                }
                Tok::Control => {
                    self.bump();
                    AutomatonKind::Control
                }
                Tok::Automaton => AutomatonKind::Control,
                Tok::Assert => {
                    res.push(self.top_level_assertion()?);
                    continue;
                }
                _ => return Err(self.unexpected("`OBSERVER AUTOMATON`, `CONTROL AUTOMATON` or `ASSERT`")),
            };
            res.push(self.automaton(kind)?);
        }
        Ok(res)
    }

    fn automaton(&mut self, kind: AutomatonKind) -> Result<Automaton, ParseError> {
        self.kind = kind;
        self.expect(Tok::Automaton, "`AUTOMATON`")?;
        let name = self.expect_text(Tok::Ident, "the automaton's name")?.to_string();
        let mut locals = Vec::new();
        while self.at(Tok::Local) {
            self.local(&mut locals)?;
        }
        self.expect(Tok::Initial, "`LOCAL` or `INITIAL STATE`")?;
        self.expect(Tok::State, "`STATE` after `INITIAL`")?;
        let initial_tok = self.expect(Tok::Ident, "the name of the initial state")?;
        self.expect(Tok::Semi, "`;` after the initial state")?;

        let mut table = StateTable { states: Vec::new(), index: FxHashMap::default(), pending: Vec::new() };
        while self.at(Tok::State) || self.at(Tok::Target) {
            self.state(&mut table)?;
        }
        self.expect(Tok::End, "`STATE` or `END AUTOMATON`")?;
        self.expect(Tok::Automaton, "`AUTOMATON` after `END`")?;

        let initial = self.resolve_initial(&mut table, initial_tok)?;
        self.resolve_gotos(&mut table)?;
        Ok(Automaton { name, kind, locals, initial, states: table.states })
    }

    /// `LOCAL type [<elem>] name [= init];`
    fn local(&mut self, locals: &mut Vec<LocalVar>) -> Result<(), ParseError> {
        let start = self.bump().lo;
        let ty = self.expect_text(Tok::Ident, "a type after `LOCAL`")?.to_string();
        let elem_ty = if self.eat(Tok::Lt) {
            let elem = self.expect_text(Tok::Ident, "an element type after `<`")?.to_string();
            self.expect(Tok::Gt, "`>` after the element type")?;
            Some(elem)
        } else {
            None
        };
        let name = self.expect_text(Tok::Ident, "the variable's name")?.to_string();
        let init = if self.eat(Tok::Eq) {
            if elem_ty.is_some() {
                let tok = self.expect(Tok::Square, "`[…]` with the set's initial elements")?;
                Some(LocalInit::Set(tok.value(self.src)))
            } else {
                let tok = self.expect(Tok::Int, "an integer literal")?;
                Some(LocalInit::Int(self.int_value(tok)?))
            }
        } else {
            None
        };
        self.expect(Tok::Semi, "`;` at the end of the `LOCAL` declaration")?;

        let known = match elem_ty.as_deref() {
            None => ty.eq_ignore_ascii_case("int") || ty.eq_ignore_ascii_case("integer"),
            Some(elem) => {
                ty.eq_ignore_ascii_case("set")
                    && (elem.eq_ignore_ascii_case("int") || elem.eq_ignore_ascii_case("string"))
            }
        };
        if !known {
            self.diag(
                Severity::Warning,
                start,
                format!(
                    "unknown type of LOCAL `{name}`: CPAchecker knows `int`, `integer`, `set<int>` and `set<string>`"
                ),
            );
        }
        if locals.iter().any(|l| l.name == name) {
            self.diag(
                Severity::Warning,
                start,
                format!("LOCAL `{name}` is declared twice; the first declaration is kept, as in CPAchecker"),
            );
        } else {
            locals.push(LocalVar { ty, elem_ty, name, init });
        }
        Ok(())
    }

    /// `[TARGET] STATE [USEFIRST|USEALL] name : transition*`
    fn state(&mut self, table: &mut StateTable<'a>) -> Result<(), ParseError> {
        let start = self.tok.lo;
        let is_target = self.eat(Tok::Target);
        self.expect(Tok::State, "`STATE` after `TARGET`")?;
        let mode = if self.eat(Tok::UseFirst) {
            MatchMode::UseFirst
        } else {
            // USEALL is also CPAchecker's default.
            self.eat(Tok::UseAll);
            MatchMode::UseAll
        };
        let name_tok = self.expect(Tok::Ident, "the state's name")?;
        self.expect(Tok::Colon, "`:` after the state's name")?;
        let name = self.text(name_tok);
        let state_idx = table.states.len();
        if let Some(&prev) = table.index.get(name) {
            let prev_line = table.states[prev.idx()].line;
            return Err(self.error_at(
                name_tok.lo,
                format!("duplicate state `{name}`: a state of this name is already declared on line {prev_line}"),
            ));
        }
        table.index.insert(name, StateId::from_idx(state_idx));

        let mut transitions = Vec::new();
        loop {
            match self.tok.kind {
                Tok::State | Tok::Target | Tok::End if self.lex_error.is_none() => break,
                kind if self.lex_error.is_none() && starts_expr(kind) => {
                    let t = self.transition(table, state_idx, transitions.len())?;
                    transitions.push(t);
                }
                _ => return Err(self.unexpected("a transition, `STATE` or `END AUTOMATON`")),
            }
        }
        let line = self.file.line_col(start).line;
        table.states.push(State { name: name.to_string(), mode, is_target, transitions, line, synthetic: false });
        Ok(())
    }

    /// `cond -> (ASSERT cond)* [ASSUME {…}] action* target ;`
    fn transition(
        &mut self,
        table: &mut StateTable<'a>,
        state_idx: usize,
        transition_idx: usize,
    ) -> Result<Transition, ParseError> {
        let start = self.tok.lo;
        let trigger = self.condition("a transition trigger")?;
        self.expect(Tok::Arrow, "`->` or an operator")?;

        let mut assertions = Vec::new();
        while self.eat(Tok::Assert) {
            assertions.push(self.condition("a condition after `ASSERT`")?);
        }

        let mut assumptions = Vec::new();
        let mut assume = AssumeTruth::True;
        if self.eat(Tok::Assume) {
            if self.at(Tok::Curly) || self.at(Tok::Str) {
                let tok = self.bump();
                assumptions = split_statements(&tok.value(self.src));
                assume = match super::assume::truth(&assumptions) {
                    Ok(t) => t,
                    Err((stmt, why)) => {
                        // A solver formula of CPAchecker before 2022 (`(= |main::x| 1)`): not used.
                        let lc = self.file.line_col(tok.lo);
                        self.diags.push(Diagnostic::new(
                            Severity::Warning,
                            self.file.path(),
                            lc.line,
                            lc.col,
                            format!("ASSUME `{stmt}` is not a C expression ({why}); vcov does not use it"),
                        ));
                        AssumeTruth::Open
                    }
                };
            } else {
                return Err(self.unexpected("`{…}` with C expressions after `ASSUME`"));
            }
        }

        let mut actions = Vec::new();
        loop {
            let action = match self.tok.kind {
                _ if self.lex_error.is_some() => break,
                Tok::Do => self.do_action()?,
                Tok::Print | Tok::PrintOnce => {
                    let once = self.bump().kind == Tok::PrintOnce;
                    let mut args = Vec::new();
                    while self.lex_error.is_none() && (self.at(Tok::Str) || starts_expr(self.tok.kind)) {
                        args.push(self.print_arg()?);
                    }
                    if once {
                        Action::PrintOnce(args)
                    } else {
                        Action::Print(args)
                    }
                }
                Tok::Modify => {
                    let pos = self.bump().lo;
                    let (cpa, query) = self.cpa_query("MODIFY")?;
                    if self.kind == AutomatonKind::Observer {
                        self.diag(
                            Severity::Warning,
                            pos,
                            "`MODIFY` in an OBSERVER automaton (CPAchecker rejects this)".to_string(),
                        );
                    }
                    Action::Modify { cpa, query }
                }
                _ => break,
            };
            actions.push(action);
        }

        let target = match self.tok.kind {
            _ if self.lex_error.is_some() => return Err(self.unexpected("")),
            Tok::Goto => {
                self.bump();
                let name = self.expect(Tok::Ident, "the name of the target state")?;
                table.pending.push(PendingGoto { state_idx, transition_idx, name_lo: name.lo, name_hi: name.hi });
                // Replaced by the real id once every state is known.
                Target::Goto(StateId(u32::MAX))
            }
            Tok::Error => {
                self.bump();
                if self.eat(Tok::LParen) {
                    let msg = self.expect(Tok::Str, "a string with the violated property")?.value(self.src);
                    self.expect(Tok::RParen, "`)` after the property")?;
                    Target::Error(Some(msg))
                } else {
                    Target::Error(None)
                }
            }
            Tok::Stop => {
                let pos = self.bump().lo;
                if self.kind == AutomatonKind::Observer {
                    self.diag(
                        Severity::Warning,
                        pos,
                        "`STOP` in an OBSERVER automaton (CPAchecker rejects this)".to_string(),
                    );
                }
                Target::Stop
            }
            Tok::Break => {
                self.bump();
                Target::Break
            }
            _ => return Err(self.unexpected("an action or a target (`GOTO`, `ERROR`, `STOP` or `BREAK`)")),
        };
        self.expect(Tok::Semi, "`;` at the end of the transition")?;
        let lc = self.file.line_col(start);
        Ok(Transition { trigger, assertions, assumptions, assume, actions, target, line: lc.line, col: lc.col })
    }

    /// `DO var = int` or `DO var[key] = TRUE|FALSE`
    fn do_action(&mut self) -> Result<Action, ParseError> {
        self.bump();
        let var = self.expect_text(Tok::Ident, "a variable after `DO`")?.to_string();
        if self.at(Tok::Square) {
            let key = self.bump().value(self.src);
            self.expect(Tok::Eq, "`=` after the set element")?;
            let value = if self.eat(Tok::True) {
                true
            } else if self.eat(Tok::False) {
                false
            } else {
                return Err(self.unexpected("`TRUE` or `FALSE`"));
            };
            return Ok(Action::DoSet { var, key, value });
        }
        self.expect(Tok::Eq, "`=` or `[…]` after the variable")?;
        let value = self.int_expr()?;
        Ok(Action::Do { var, value })
    }

    fn print_arg(&mut self) -> Result<PrintArg, ParseError> {
        if self.at(Tok::Str) {
            return Ok(PrintArg::Str(self.bump().value(self.src)));
        }
        self.nodes = 0;
        Ok(match self.expr()? {
            Value::Bool(b) => PrintArg::Bool(b),
            Value::Int(i) => PrintArg::Int(i),
        })
    }

    /// After `CHECK`, `EVAL` or `MODIFY`: `(cpa, "query")` or the deprecated `(cpa("query"))`.
    fn cpa_query(&mut self, keyword: &str) -> Result<(String, String), ParseError> {
        self.expect(Tok::LParen, &format!("`(` after `{keyword}`"))?;
        let cpa = self.expect_text(Tok::Ident, "the name of a CPA")?.to_string();
        self.cpa_query_rest(cpa)
    }

    /// The part of `(cpa, "query")` or `(cpa("query"))` after `cpa`.
    fn cpa_query_rest(&mut self, cpa: String) -> Result<(String, String), ParseError> {
        let deprecated = if self.eat(Tok::Comma) {
            false
        } else if self.eat(Tok::LParen) {
            true
        } else {
            return Err(self.unexpected("`,` after the CPA's name"));
        };
        let query = self.expect(Tok::Str, "a string with the query")?.value(self.src);
        self.expect(Tok::RParen, "`)` after the query")?;
        if deprecated {
            self.expect(Tok::RParen, "`)`")?;
        }
        Ok((cpa, query))
    }

    /// `ASSERT cond ;` at the top level of a file.
    fn top_level_assertion(&mut self) -> Result<Automaton, ParseError> {
        self.kind = AutomatonKind::Control;
        let start = self.bump().lo;
        let cond = self.condition("a condition after `ASSERT`")?;
        self.expect(Tok::Semi, "`;` after the assertion")?;
        let lc = self.file.line_col(start);
        let name = format!("AnonymousAutomaton{}", self.n_anonymous);
        self.n_anonymous += 1;
        let transition = Transition {
            trigger: Trigger::True,
            assertions: vec![cond],
            assumptions: Vec::new(),
            assume: AssumeTruth::True,
            actions: Vec::new(),
            target: Target::Goto(StateId(0)),
            line: lc.line,
            col: lc.col,
        };
        let state = State {
            name: "OK".to_string(),
            mode: MatchMode::UseFirst,
            is_target: false,
            transitions: vec![transition],
            line: lc.line,
            synthetic: false,
        };
        Ok(Automaton {
            name,
            kind: AutomatonKind::Control,
            locals: Vec::new(),
            initial: StateId(0),
            states: vec![state],
        })
    }

    // ---- Name resolution ------------------------------------------------------------------------

    fn resolve_initial(&mut self, table: &mut StateTable<'a>, tok: Token) -> Result<StateId, ParseError> {
        let name = self.text(tok);
        if let Some(&id) = table.index.get(name) {
            return Ok(id);
        }
        if let Some(special) = special_state(name) {
            return Ok(synthesize(table, special));
        }
        if table.states.iter().all(|s| s.name == TRUE_STATE || s.name == FALSE_STATE) {
            self.diag(
                Severity::Note,
                tok.lo,
                format!(
                    "initial state `{name}` is not declared and no state but `__TRUE`/`__FALSE` is: \
                     the verifier left no open path, so the automaton starts in `__TRUE`"
                ),
            );
            return Ok(match table.index.get(TRUE_STATE) {
                Some(&id) => id,
                None => synthesize(table, TRUE_STATE),
            });
        }
        Err(self.error_at(tok.lo, format!("initial state `{name}` is not declared")))
    }

    fn resolve_gotos(&mut self, table: &mut StateTable<'a>) -> Result<(), ParseError> {
        let pending = std::mem::take(&mut table.pending);
        for p in pending {
            let name = &self.src[p.name_lo as usize..p.name_hi as usize];
            let id = match (table.index.get(name), special_state(name)) {
                (Some(&id), _) => id,
                (None, Some(special)) => synthesize(table, special),
                (None, None) => {
                    return Err(self.error_at(p.name_lo, format!("GOTO target `{name}` is not a declared state")))
                }
            };
            table.states[p.state_idx].transitions[p.transition_idx].target = Target::Goto(id);
        }
        Ok(())
    }

    // ---- Expressions ----------------------------------------------------------------------------

    /// A whole condition: an expression that must be boolean.
    fn condition(&mut self, what: &str) -> Result<Trigger, ParseError> {
        let start = self.tok.lo;
        self.nodes = 0;
        match self.expr()? {
            Value::Bool(b) => Ok(b),
            Value::Int(_) => Err(self.error_at(start, format!("expected {what}, found an integer expression"))),
        }
    }

    /// A whole integer expression (after `DO x =`): `+`/`-` over operands, no comparison.
    fn int_expr(&mut self) -> Result<IntExpr, ParseError> {
        let start = self.tok.lo;
        self.nodes = 0;
        match self.additive()? {
            Value::Int(i) => Ok(i),
            Value::Bool(_) => {
                Err(self.error_at(start, "expected an integer expression, found a condition".to_string()))
            }
        }
    }

    /// Counts one node of the expression being parsed; fails when the expression gets too large.
    fn count_node(&mut self) -> Result<(), ParseError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(self.error_at(self.tok.lo, format!("expression too large (more than {MAX_NODES} operands)")));
        }
        Ok(())
    }

    /// Lowest level: `&&` and `||`, one precedence level, grouping to the left.
    fn expr(&mut self) -> Result<Value, ParseError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(
                self.error_at(self.tok.lo, format!("expression nested too deeply (more than {MAX_NESTING} levels)"))
            );
        }
        let res = self.logical();
        self.nesting -= 1;
        res
    }

    fn logical(&mut self) -> Result<Value, ParseError> {
        self.chain([Tok::AndAnd, Tok::OrOr], Self::equality, |op, lhs, rhs| match (lhs, rhs) {
            (Value::Bool(a), Value::Bool(b)) if op == Tok::AndAnd => {
                Ok(Value::Bool(Trigger::And(Box::new(a), Box::new(b))))
            }
            (Value::Bool(a), Value::Bool(b)) => Ok(Value::Bool(Trigger::Or(Box::new(a), Box::new(b)))),
            _ => Err(|op| format!("both operands of `{op}` must be conditions")),
        })
    }

    fn equality(&mut self) -> Result<Value, ParseError> {
        self.chain([Tok::EqEq, Tok::NotEq], Self::additive, |op, lhs, rhs| {
            let eq = op == Tok::EqEq;
            Ok(Value::Bool(match (lhs, rhs) {
                (Value::Bool(a), Value::Bool(b)) if eq => Trigger::BoolEq(Box::new(a), Box::new(b)),
                (Value::Bool(a), Value::Bool(b)) => Trigger::BoolNe(Box::new(a), Box::new(b)),
                (Value::Int(a), Value::Int(b)) if eq => Trigger::IntEq(a, b),
                (Value::Int(a), Value::Int(b)) => Trigger::IntNe(a, b),
                _ => return Err(|op| format!("`{op}` compares a condition with an integer")),
            }))
        })
    }

    fn additive(&mut self) -> Result<Value, ParseError> {
        self.chain([Tok::Plus, Tok::Minus], Self::unary, |op, lhs, rhs| match (lhs, rhs) {
            (Value::Int(a), Value::Int(b)) if op == Tok::Plus => {
                Ok(Value::Int(IntExpr::Plus(Box::new(a), Box::new(b))))
            }
            (Value::Int(a), Value::Int(b)) => Ok(Value::Int(IntExpr::Minus(Box::new(a), Box::new(b)))),
            _ => Err(|op| format!("both operands of `{op}` must be integers")),
        })
    }

    /// A left-associative chain `operand (op operand)*` with `op` one of `ops`; `join` builds each
    /// step, or gives the message (from the operator's text) when the operands do not fit.
    fn chain(
        &mut self,
        ops: [Tok; 2],
        operand: fn(&mut Self) -> Result<Value, ParseError>,
        join: Join,
    ) -> Result<Value, ParseError> {
        let mut lhs = operand(self)?;
        while ops.iter().any(|&t| self.at(t)) {
            let op = self.bump();
            let rhs = operand(self)?;
            self.count_node()?;
            lhs = match join(op.kind, lhs, rhs) {
                Ok(v) => v,
                Err(message) => {
                    let text = message(self.text(op));
                    return Err(self.error_at(op.lo, text));
                }
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Value, ParseError> {
        if !self.at(Tok::Not) {
            return self.primary();
        }
        let op = self.bump();
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.error_at(op.lo, format!("expression nested too deeply (more than {MAX_NESTING} levels)")));
        }
        let operand = self.unary();
        self.nesting -= 1;
        self.count_node()?;
        match operand? {
            Value::Bool(b) => Ok(Value::Bool(Trigger::Not(Box::new(b)))),
            Value::Int(_) => Err(self.error_at(op.lo, "the operand of `!` must be a condition".to_string())),
        }
    }

    fn primary(&mut self) -> Result<Value, ParseError> {
        self.count_node()?;
        let tok = self.tok;
        if self.lex_error.is_some() {
            return Err(self.unexpected(""));
        }
        let value = match tok.kind {
            Tok::True => {
                self.bump();
                Value::Bool(Trigger::True)
            }
            Tok::False => {
                self.bump();
                Value::Bool(Trigger::False)
            }
            Tok::Match => {
                self.bump();
                Value::Bool(Trigger::Match(self.match_trigger()?))
            }
            Tok::Check => {
                self.bump();
                Value::Bool(self.check()?)
            }
            Tok::CoversLines => {
                self.bump();
                self.expect(Tok::LParen, "`(` after `COVERS_LINES`")?;
                let mut lines = Vec::new();
                while self.at(Tok::Int) {
                    let tok = self.bump();
                    let text = self.text(tok);
                    let line = text
                        .parse::<u32>()
                        .map_err(|_| self.error_at(tok.lo, format!("line number `{text}` is too large")))?;
                    lines.push(line);
                }
                self.expect(Tok::RParen, "a line number or `)`")?;
                lines.sort_unstable();
                lines.dedup();
                Value::Bool(Trigger::CoversLines(lines))
            }
            Tok::Int => {
                self.bump();
                Value::Int(IntExpr::Const(self.int_value(tok)?))
            }
            Tok::Ident => {
                self.bump();
                Value::Int(IntExpr::Var(self.text(tok).to_string()))
            }
            Tok::Eval => {
                self.bump();
                let (cpa, query) = self.cpa_query("EVAL")?;
                Value::Int(IntExpr::Eval { cpa, query })
            }
            Tok::LParen => {
                self.bump();
                let value = self.expr()?;
                self.expect(Tok::RParen, "`)` or an operator")?;
                value
            }
            _ => return Err(self.unexpected("a condition or an integer expression")),
        };
        Ok(value)
    }

    /// The regular expression of a `[...]` token, checked: CPAchecker rejects an automaton whose
    /// pattern does not compile. Java constructs the `regex` crate lacks (look-around,
    /// backreferences) and patterns too large to compile are warnings: the transition never fires.
    fn regex(&mut self, tok: Token) -> Result<String, ParseError> {
        let value = tok.value(self.src);
        match regex::Regex::new(&value) {
            Ok(_) => {}
            Err(regex::Error::Syntax(msg)) if !msg.contains("not supported") => {
                let reason = msg.lines().last().unwrap_or_default().trim().trim_start_matches("error: ");
                return Err(self.error_at(tok.lo, format!("invalid regular expression `[{value}]`: {reason}")));
            }
            Err(e) => {
                let reason = e.to_string().lines().last().unwrap_or_default().trim().to_string();
                let reason = reason.trim_start_matches("error: ").to_string();
                self.diag(
                    Severity::Warning,
                    tok.lo,
                    format!("vcov cannot evaluate the regular expression `[{value}]` ({reason}); it never matches"),
                );
            }
        }
        Ok(value)
    }

    /// The part after `MATCH`.
    fn match_trigger(&mut self) -> Result<MatchTrigger, ParseError> {
        let tok = self.tok;
        if self.lex_error.is_some() {
            return Err(self.unexpected(""));
        }
        let res = match tok.kind {
            Tok::Str => MatchTrigger::Exact(tok.value(self.src)),
            Tok::Curly => MatchTrigger::Pattern(tok.value(self.src)),
            Tok::Square => MatchTrigger::Regex(self.regex(tok)?),
            Tok::Exit => MatchTrigger::Exit,
            Tok::Entry => MatchTrigger::Entry,
            Tok::Assert => MatchTrigger::Assert,
            Tok::Label => {
                self.bump();
                let arg = self.tok;
                let res = match arg.kind {
                    _ if self.lex_error.is_some() => return Err(self.unexpected("")),
                    Tok::Str => MatchTrigger::Label(arg.value(self.src)),
                    Tok::Square => MatchTrigger::LabelRegex(self.regex(arg)?),
                    Tok::Ident => {
                        let name = self.text(arg);
                        self.diag(
                            Severity::Warning,
                            arg.lo,
                            format!("`MATCH LABEL {name}` is not CPAchecker syntax; read as `MATCH LABEL \"{name}\"`"),
                        );
                        MatchTrigger::Label(name.to_string())
                    }
                    _ => return Err(self.unexpected("a string or `[regex]` after `MATCH LABEL`")),
                };
                self.bump();
                return Ok(res);
            }
            Tok::FunctionCall => {
                self.bump();
                let name = self.expect(Tok::Str, "a string with the function's name after `MATCH FUNCTIONCALL`")?;
                return Ok(MatchTrigger::Call(name.value(self.src)));
            }
            Tok::Ident if self.text(tok) == "CALL" => {
                self.bump();
                let arg = self.tok;
                let name = match arg.kind {
                    _ if self.lex_error.is_some() => return Err(self.unexpected("")),
                    Tok::Str => arg.value(self.src),
                    Tok::Ident => self.text(arg).to_string(),
                    _ => return Err(self.unexpected("the function's name after `MATCH CALL`")),
                };
                self.bump();
                self.diag(
                    Severity::Warning,
                    tok.lo,
                    format!("`MATCH CALL` is not CPAchecker syntax; read as `MATCH FUNCTIONCALL \"{name}\"`"),
                );
                return Ok(MatchTrigger::Call(name));
            }
            _ => return Err(self.unexpected(
                "a string, `{pattern}`, `[regex]`, `LABEL`, `FUNCTIONCALL`, `EXIT`, `ENTRY` or `ASSERT` after `MATCH`",
            )),
        };
        self.bump();
        Ok(res)
    }

    /// The part after `CHECK`.
    fn check(&mut self) -> Result<Trigger, ParseError> {
        self.expect(Tok::LParen, "`(` after `CHECK`")?;
        if self.eat(Tok::IsTargetState) {
            self.expect(Tok::RParen, "`)` after `IS_TARGET_STATE`")?;
            return Ok(Trigger::CheckTargetState);
        }
        if self.at(Tok::Str) {
            let query = self.bump().value(self.src);
            self.expect(Tok::RParen, "`)` after the query")?;
            return Ok(Trigger::Check { cpa: None, query });
        }
        if self.at(Tok::Ident) {
            let tok = self.bump();
            let cpa = self.text(tok).to_string();
            let (cpa, query) = self.cpa_query_rest(cpa)?;
            return Ok(Trigger::Check { cpa: Some(cpa), query });
        }
        Err(self.unexpected("the name of a CPA, a string or `IS_TARGET_STATE` after `CHECK(`"))
    }
}

/// The error `message` at byte offset `pos` of `file`.
fn error_at(file: &SourceFile, pos: u32, message: String) -> ParseError {
    let lc = file.line_col(pos);
    ParseError { path: file.path().to_path_buf(), line: lc.line, col: lc.col, message }
}

/// Whether a token of kind `kind` can start a condition or an integer expression.
fn starts_expr(kind: Tok) -> bool {
    matches!(
        kind,
        Tok::True
            | Tok::False
            | Tok::Match
            | Tok::Check
            | Tok::CoversLines
            | Tok::Int
            | Tok::Ident
            | Tok::Eval
            | Tok::LParen
            | Tok::Not
    )
}

/// `__TRUE` or `__FALSE` as a static string if `name` is one of them.
fn special_state(name: &str) -> Option<&'static str> {
    [TRUE_STATE, FALSE_STATE].into_iter().find(|&s| s == name)
}

/// Adds the state `name` (`__TRUE` or `__FALSE`) that the file references without declaring it.
///
/// `__TRUE` loops on `TRUE`; `__FALSE` loops on `TRUE` with `ASSUME {false}`, as CPAchecker writes them.
fn synthesize(table: &mut StateTable<'_>, name: &'static str) -> StateId {
    let id = StateId::from_idx(table.states.len());
    let (assumptions, assume) = if name == FALSE_STATE {
        (vec!["false".to_string()], AssumeTruth::False)
    } else {
        (Vec::new(), AssumeTruth::True)
    };
    let transition = Transition {
        trigger: Trigger::True,
        assertions: Vec::new(),
        assumptions,
        assume,
        actions: Vec::new(),
        target: Target::Goto(id),
        line: 0,
        col: 0,
    };
    table.states.push(State {
        name: name.to_string(),
        mode: MatchMode::UseAll,
        is_target: false,
        transitions: vec![transition],
        line: 0,
        synthetic: true,
    });
    table.index.insert(name, id);
    id
}

/// Splits the C code of an `ASSUME` block into statements at `;` outside parentheses, brackets, braces,
/// string and character literals; trims them and drops empty ones.
fn split_statements(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut res = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth <= 0 => {
                res.push(&code[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    res.push(&code[start..]);
    res.into_iter().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check(input, expect)`: parses `input` (file `t.spc`) with [`parse_all`] and prints every automaton
    /// in canonical syntax followed by the diagnostics, one per line; or prints the error.
    fn check(input: &str, expect: &str) {
        let file = SourceFile::new("t.spc", input.to_string());
        let res = match parse_all(&file) {
            Ok((automata, diags)) => {
                let mut out: String = automata.iter().map(|a| a.to_string()).collect();
                for d in diags {
                    out.push_str(&format!("{d}\n"));
                }
                out
            }
            Err(e) => format!("{e}\n"),
        };
        assert_eq!(res, expect, "\n--- got ---\n{res}");
    }

    #[test]
    fn assumption_automaton() {
        check(
            r#"OBSERVER AUTOMATON AssumptionAutomaton

INITIAL STATE ARG0;

STATE __TRUE :
    TRUE -> GOTO __TRUE;

STATE __FALSE :
    TRUE -> ASSUME {false} GOTO __FALSE;

STATE USEFIRST ARG0 :
    MATCH "" -> GOTO ARG2_0_1;
    MATCH "[!(i == 0)]" -> ASSUME {true} GOTO ARG342M0;
    TRUE -> GOTO __TRUE;

STATE USEFIRST ARG2_0_1 :
    MATCH "int x = 1;" -> GOTO __FALSE;

STATE USEFIRST ARG342M0 :
    TRUE -> GOTO __TRUE;

END AUTOMATON
"#,
            r#"OBSERVER AUTOMATON AssumptionAutomaton

INITIAL STATE ARG0;

STATE USEALL __TRUE :
    TRUE -> GOTO __TRUE;

STATE USEALL __FALSE :
    TRUE -> ASSUME {false} GOTO __FALSE;

STATE USEFIRST ARG0 :
    MATCH "" -> GOTO ARG2_0_1;
    MATCH "[!(i == 0)]" -> ASSUME {true} GOTO ARG342M0;
    TRUE -> GOTO __TRUE;

STATE USEFIRST ARG2_0_1 :
    MATCH "int x = 1;" -> GOTO __FALSE;

STATE USEFIRST ARG342M0 :
    TRUE -> GOTO __TRUE;

END AUTOMATON
"#,
        );
    }

    #[test]
    fn counterexample_automaton() {
        check(
            r#"CONTROL AUTOMATON ErrorPath8
INITIAL STATE ARG0;
STATE USEFIRST ARG0 :
    MATCH "return 0;" -> ERROR;
    MATCH "x" -> ERROR("unreach-call");
    MATCH "y" -> BREAK;
    TRUE -> STOP;
END AUTOMATON
"#,
            r#"CONTROL AUTOMATON ErrorPath8

INITIAL STATE ARG0;

STATE USEFIRST ARG0 :
    MATCH "return 0;" -> ERROR;
    MATCH "x" -> ERROR("unreach-call");
    MATCH "y" -> BREAK;
    TRUE -> STOP;

END AUTOMATON
"#,
        );
    }

    #[test]
    fn default_mode_is_useall_and_target_states() {
        check(
            "AUTOMATON A\nINITIAL STATE s;\nSTATE s :\nTARGET STATE USEFIRST t :\nTARGET STATE u : TRUE -> GOTO s;\nEND AUTOMATON",
            "CONTROL AUTOMATON A\n\nINITIAL STATE s;\n\nSTATE USEALL s :\n\nTARGET STATE USEFIRST t :\n\n\
             TARGET STATE USEALL u :\n    TRUE -> GOTO s;\n\nEND AUTOMATON\n",
        );
    }

    #[test]
    fn locals_and_actions() {
        check(
            r#"OBSERVER AUTOMATON A
LOCAL int x = 0;
LOCAL integer y;
LOCAL set<string> s = [a, b];
LOCAL set<int> t;
INITIAL STATE q;
STATE q :
  x == 2 || x != y -> DO x = x + 1 DO y = EVAL(V, "v") - 3 PRINT "x=" x (x == 1) PRINTONCE GOTO q;
  TRUE -> DO s["k\]"] = TRUE DO s[k] = false PRINT GOTO q;
  TRUE -> MODIFY(ValueAnalysis, "setvalue(x:=1)") MODIFY(V("old")) GOTO q;
END AUTOMATON"#,
            r#"OBSERVER AUTOMATON A

LOCAL int x = 0;
LOCAL integer y;
LOCAL set<string> s = [a, b];
LOCAL set<int> t;

INITIAL STATE q;

STATE USEALL q :
    x == 2 || x != y -> DO x = x + 1 DO y = EVAL(V, "v") - 3 PRINT "x=" x (x == 1) PRINTONCE GOTO q;
    TRUE -> DO s["k\]"] = TRUE DO s[k] = FALSE PRINT GOTO q;
    TRUE -> MODIFY(ValueAnalysis, "setvalue(x:=1)") MODIFY(V, "old") GOTO q;

END AUTOMATON
t.spc:10:11: warning: `MODIFY` in an OBSERVER automaton (CPAchecker rejects this)
t.spc:10:51: warning: `MODIFY` in an OBSERVER automaton (CPAchecker rejects this)
"#,
        );
    }

    #[test]
    fn local_warnings() {
        check(
            "AUTOMATON A LOCAL float f; LOCAL int x = 1; LOCAL int x = 2; INITIAL STATE q; STATE q : END AUTOMATON",
            "CONTROL AUTOMATON A\n\nLOCAL float f;\nLOCAL int x = 1;\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n\n\
             END AUTOMATON\n\
             t.spc:1:13: warning: unknown type of LOCAL `f`: CPAchecker knows `int`, `integer`, `set<int>` and `set<string>`\n\
             t.spc:1:45: warning: LOCAL `x` is declared twice; the first declaration is kept, as in CPAchecker\n",
        );
    }

    #[test]
    fn every_match_form() {
        check(
            r#"AUTOMATON A INITIAL STATE q; STATE USEFIRST q :
MATCH "a\"b\\c\n" -> GOTO q;
MATCH {__VERIFIER_error($?)} -> GOTO q;
MATCH [.*foo\].*] -> GOTO q;
MATCH EXIT -> GOTO q;
MATCH ENTRY -> GOTO q;
MATCH ASSERT -> GOTO q;
MATCH LABEL "ERROR" -> GOTO q;
MATCH LABEL [ERR.*] -> GOTO q;
MATCH FUNCTIONCALL "reach_error" -> GOTO q;
END AUTOMATON"#,
            r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEFIRST q :
    MATCH "a\"b\\c\n" -> GOTO q;
    MATCH {__VERIFIER_error($?)} -> GOTO q;
    MATCH [.*foo\].*] -> GOTO q;
    MATCH EXIT -> GOTO q;
    MATCH ENTRY -> GOTO q;
    MATCH ASSERT -> GOTO q;
    MATCH LABEL "ERROR" -> GOTO q;
    MATCH LABEL [ERR.*] -> GOTO q;
    MATCH FUNCTIONCALL "reach_error" -> GOTO q;

END AUTOMATON
"#,
        );
    }

    #[test]
    fn match_extensions_warn() {
        check(
            "AUTOMATON A INITIAL STATE q; STATE q :\nMATCH LABEL ERROR_LBL -> GOTO q;\nMATCH CALL f -> GOTO q;\n\
             MATCH CALL \"g\" -> GOTO q; END AUTOMATON",
            "CONTROL AUTOMATON A\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n    MATCH LABEL \"ERROR_LBL\" -> GOTO q;\n    \
             MATCH FUNCTIONCALL \"f\" -> GOTO q;\n    MATCH FUNCTIONCALL \"g\" -> GOTO q;\n\nEND AUTOMATON\n\
             t.spc:2:13: warning: `MATCH LABEL ERROR_LBL` is not CPAchecker syntax; read as `MATCH LABEL \"ERROR_LBL\"`\n\
             t.spc:3:7: warning: `MATCH CALL` is not CPAchecker syntax; read as `MATCH FUNCTIONCALL \"f\"`\n\
             t.spc:4:7: warning: `MATCH CALL` is not CPAchecker syntax; read as `MATCH FUNCTIONCALL \"g\"`\n",
        );
    }

    #[test]
    fn checks_and_covers_lines() {
        check(
            r#"AUTOMATON A INITIAL STATE q; STATE q :
CHECK(AssumptionAutomaton, "state == __FALSE") -> GOTO q;
CHECK(ValueAnalysis("x==1")) -> GOTO q;
CHECK("query") -> GOTO q;
CHECK(IS_TARGET_STATE) -> GOTO q;
COVERS_LINES(5 3 4 3) -> GOTO q;
COVERS_LINES() -> GOTO q;
END AUTOMATON"#,
            r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEALL q :
    CHECK(AssumptionAutomaton, "state == __FALSE") -> GOTO q;
    CHECK(ValueAnalysis, "x==1") -> GOTO q;
    CHECK("query") -> GOTO q;
    CHECK(IS_TARGET_STATE) -> GOTO q;
    COVERS_LINES(3 4 5) -> GOTO q;
    COVERS_LINES() -> GOTO q;

END AUTOMATON
"#,
        );
    }

    #[test]
    fn boolean_combinations_group_like_cpachecker() {
        // `&&` and `||` share one level and group left; `!` binds tightest; `==` binds tighter than `&&`.
        check(
            r#"AUTOMATON A INITIAL STATE q; STATE q :
MATCH "a" || MATCH "b" && !MATCH "c" -> GOTO q;
!(TRUE && FALSE) == true != false -> GOTO q;
(x + 1) - 2 == EVAL(c, "q") && !!TRUE -> GOTO q;
END AUTOMATON"#,
            r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEALL q :
    (MATCH "a" || MATCH "b") && !MATCH "c" -> GOTO q;
    !(TRUE && FALSE) == TRUE != FALSE -> GOTO q;
    x + 1 - 2 == EVAL(c, "q") && !!TRUE -> GOTO q;

END AUTOMATON
"#,
        );
    }

    #[test]
    fn assertions_and_assumptions() {
        check(
            r#"AUTOMATON A INITIAL STATE q; STATE q :
TRUE -> ASSERT x == 1 ASSERT TRUE ASSUME {a == 1; f(";", ')'); ; s[i] == '\}'} GOTO q;
TRUE -> ASSUME "x > 0" GOTO q;
TRUE -> ASSUME {} GOTO q;
END AUTOMATON
ASSERT MATCH "x";
ASSERT TRUE;"#,
            r#"CONTROL AUTOMATON A

INITIAL STATE q;

STATE USEALL q :
    TRUE -> ASSERT x == 1 ASSERT TRUE ASSUME {a == 1; f(";", ')'); s[i] == '\}'} GOTO q;
    TRUE -> ASSUME {x > 0} GOTO q;
    TRUE -> GOTO q;

END AUTOMATON
CONTROL AUTOMATON AnonymousAutomaton0

INITIAL STATE OK;

STATE USEFIRST OK :
    TRUE -> ASSERT MATCH "x" GOTO OK;

END AUTOMATON
CONTROL AUTOMATON AnonymousAutomaton1

INITIAL STATE OK;

STATE USEFIRST OK :
    TRUE -> ASSERT TRUE GOTO OK;

END AUTOMATON
"#,
        );
    }

    #[test]
    fn undeclared_true_and_false_are_synthesized() {
        check(
            "OBSERVER AUTOMATON A\nINITIAL STATE ARG0;\nSTATE USEFIRST ARG0 :\n  MATCH \"a\" -> GOTO __FALSE;\n  \
             TRUE -> GOTO __TRUE;\nEND AUTOMATON\n",
            "OBSERVER AUTOMATON A\n\nINITIAL STATE ARG0;\n\nSTATE USEFIRST ARG0 :\n    MATCH \"a\" -> GOTO __FALSE;\n    \
             TRUE -> GOTO __TRUE;\n\nSTATE USEALL __FALSE : // synthetic\n    TRUE -> ASSUME {false} GOTO __FALSE;\n\n\
             STATE USEALL __TRUE : // synthetic\n    TRUE -> GOTO __TRUE;\n\nEND AUTOMATON\n",
        );
        check(
            "AUTOMATON A INITIAL STATE __TRUE; END AUTOMATON",
            "CONTROL AUTOMATON A\n\nINITIAL STATE __TRUE;\n\nSTATE USEALL __TRUE : // synthetic\n    \
             TRUE -> GOTO __TRUE;\n\nEND AUTOMATON\n",
        );
    }

    #[test]
    fn missing_initial_state_of_a_proof_reads_as_true() {
        check(
            "OBSERVER AUTOMATON AssumptionAutomaton\n\nINITIAL STATE ARG0;\n\nSTATE __TRUE :\n    TRUE -> GOTO __TRUE;\n\n\
             END AUTOMATON\n",
            "OBSERVER AUTOMATON AssumptionAutomaton\n\nINITIAL STATE __TRUE;\n\nSTATE USEALL __TRUE :\n    \
             TRUE -> GOTO __TRUE;\n\nEND AUTOMATON\n\
             t.spc:3:15: note: initial state `ARG0` is not declared and no state but `__TRUE`/`__FALSE` is: \
             the verifier left no open path, so the automaton starts in `__TRUE`\n",
        );
    }

    #[test]
    fn observer_stop_warns() {
        check(
            "OBSERVER AUTOMATON A INITIAL STATE q; STATE q : TRUE -> STOP; END AUTOMATON",
            "OBSERVER AUTOMATON A\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n    TRUE -> STOP;\n\nEND AUTOMATON\n\
             t.spc:1:57: warning: `STOP` in an OBSERVER automaton (CPAchecker rejects this)\n",
        );
    }

    #[test]
    fn includes_are_skipped_with_a_warning() {
        check(
            "#include other.spc\nAUTOMATON A INITIAL STATE q; STATE q : END AUTOMATON",
            "CONTROL AUTOMATON A\n\nINITIAL STATE q;\n\nSTATE USEALL q :\n\nEND AUTOMATON\n\
             t.spc:1:1: warning: `#include other.spc` is skipped: automata in other files are not read\n",
        );
    }

    #[test]
    fn name_errors() {
        check(
            "AUTOMATON A\nINITIAL STATE q;\nSTATE q : TRUE -> GOTO q;\nSTATE USEFIRST q : TRUE -> GOTO q;\nEND AUTOMATON",
            "t.spc:4:16: duplicate state `q`: a state of this name is already declared on line 3\n",
        );
        check(
            "AUTOMATON A\nINITIAL STATE q;\nSTATE q :\n  TRUE -> GOTO r;\n  TRUE -> GOTO s;\nEND AUTOMATON",
            "t.spc:4:16: GOTO target `r` is not a declared state\n",
        );
        check(
            "AUTOMATON A\nINITIAL STATE p;\nSTATE q : TRUE -> GOTO q;\nEND AUTOMATON",
            "t.spc:2:15: initial state `p` is not declared\n",
        );
    }

    #[test]
    fn syntax_errors_name_the_token() {
        check("", "");
        check("STATE", "t.spc:1:1: expected `OBSERVER AUTOMATON`, `CONTROL AUTOMATON` or `ASSERT`, found `STATE`\n");
        check("OBSERVER A", "t.spc:1:10: expected `AUTOMATON`, found identifier `A`\n");
        check("AUTOMATON A STATE", "t.spc:1:13: expected `LOCAL` or `INITIAL STATE`, found `STATE`\n");
        check("AUTOMATON A INITIAL STATE q\nSTATE", "t.spc:2:1: expected `;` after the initial state, found `STATE`\n");
        check(
            "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"x\" GOTO q;",
            "t.spc:2:13: expected `->` or an operator, found `GOTO`\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"x\" -> GOTO q\nEND AUTOMATON",
            "t.spc:3:1: expected `;` at the end of the transition, found `END`\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"x\" -> q;",
            "t.spc:2:16: expected an action or a target (`GOTO`, `ERROR`, `STOP` or `BREAK`), found identifier `q`\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q :\n  -> GOTO q;",
            "t.spc:2:3: expected a transition, `STATE` or `END AUTOMATON`, found `->`\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : TRUE -> GOTO q;",
            "t.spc:1:55: expected a transition, `STATE` or `END AUTOMATON`, found end of file\n",
        );
        check("AUTOMATON A INITIAL STATE q; STATE q : MATCH 5 -> STOP;", "t.spc:1:46: expected a string, `{pattern}`, `[regex]`, `LABEL`, `FUNCTIONCALL`, `EXIT`, `ENTRY` or `ASSERT` after `MATCH`, found integer `5`\n");
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : x -> STOP;",
            "t.spc:1:40: expected a transition trigger, found an integer expression\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : x == TRUE -> STOP;",
            "t.spc:1:42: `==` compares a condition with an integer\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : TRUE && 1 -> STOP;",
            "t.spc:1:45: both operands of `&&` must be conditions\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : !x == 1 -> STOP;",
            "t.spc:1:40: the operand of `!` must be a condition\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : TRUE -> DO x = TRUE STOP;",
            "t.spc:1:55: expected an integer expression, found a condition\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : TRUE -> ASSUME x GOTO q;",
            "t.spc:1:55: expected `{…}` with C expressions after `ASSUME`, found identifier `x`\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : COVERS_LINES(1 x) -> STOP;",
            "t.spc:1:55: expected a line number or `)`, found identifier `x`\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : (TRUE -> STOP;",
            "t.spc:1:46: expected `)` or an operator, found `->`\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : END",
            "t.spc:1:43: expected `AUTOMATON` after `END`, found end of file\n",
        );
    }

    #[test]
    fn lexical_errors_come_at_their_position() {
        check(
            "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"a\\qb\" -> STOP;",
            "t.spc:2:11: unknown escape sequence `\\q` in string literal (only \\n, \\t, \\r, \\\" and \\\\ are allowed)\n",
        );
        check(
            "AUTOMATON A INITIAL STATE q; STATE q :\n  MATCH \"ab\n\" -> STOP;",
            "t.spc:2:9: unterminated string literal: no closing `\"` on this line (write a line break as \\n)\n",
        );
        // The syntax error before the bad token wins.
        check("AUTOMATON A INITIAL q \"open", "t.spc:1:21: expected `STATE` after `INITIAL`, found identifier `q`\n");
    }

    #[test]
    fn big_numbers_and_deep_nesting_are_errors() {
        check(
            "AUTOMATON A INITIAL STATE q; STATE q : COVERS_LINES(4294967296) -> STOP; END AUTOMATON",
            "t.spc:1:53: line number `4294967296` is too large\n",
        );
        check(
            "AUTOMATON A LOCAL int x = 99999999999999999999; INITIAL STATE q; END AUTOMATON",
            "t.spc:1:27: integer literal `99999999999999999999` is too large\n",
        );
        let deep = format!("AUTOMATON A INITIAL STATE q; STATE q : {}TRUE -> STOP; END AUTOMATON", "(".repeat(500));
        let file = SourceFile::new("t.spc", deep);
        let err = parse_all(&file).unwrap_err();
        assert_eq!(err.message, "expression nested too deeply (more than 100 levels)");
        let nots = format!("AUTOMATON A INITIAL STATE q; STATE q : {}TRUE -> STOP; END AUTOMATON", "!".repeat(100_000));
        assert!(parse_all(&SourceFile::new("t.spc", nots)).is_err());
        let long =
            format!("AUTOMATON A INITIAL STATE q; STATE q : TRUE{} -> STOP; END AUTOMATON", " && TRUE".repeat(100_000));
        let err = parse_all(&SourceFile::new("t.spc", long)).unwrap_err();
        assert_eq!(err.message, "expression too large (more than 2000 operands)");
    }

    #[test]
    fn largest_expressions_print_and_drop() {
        // Just under the node limit: a left-deep tree of about 1000 levels must print, walk and drop.
        let cond = format!("TRUE{}", " && TRUE".repeat(999));
        let sum = format!("1{}", " + 1".repeat(999));
        let text = format!("AUTOMATON A INITIAL STATE q; STATE q : {cond} -> DO x = {sum} GOTO q; END AUTOMATON");
        let (aut, _) = parse(&SourceFile::new("t.spc", text)).unwrap();
        let printed = aut.to_string();
        assert!(printed.contains(&cond) && printed.contains(&sum));
        let mut n_matches = 0;
        aut.states[0].transitions[0].trigger.for_each_match(&mut |_| n_matches += 1);
        assert_eq!(n_matches, 0);
    }

    #[test]
    fn parse_takes_the_first_automaton() {
        let file = SourceFile::new(
            "t.spc",
            "AUTOMATON A INITIAL STATE q; STATE q : END AUTOMATON AUTOMATON B INITIAL STATE r; STATE r : END AUTOMATON"
                .to_string(),
        );
        let (aut, diags) = parse(&file).unwrap();
        assert_eq!(aut.name, "A");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].to_string(), "t.spc: warning: the file holds 2 automata; only the first, `A`, is read");

        let empty = SourceFile::new("e.spc", "// nothing\n".to_string());
        assert_eq!(
            parse(&empty).unwrap_err().to_string(),
            "e.spc:2:1: no automaton in the file: expected `OBSERVER AUTOMATON`, `CONTROL AUTOMATON` or `ASSERT`"
        );
    }

    #[test]
    fn include_only_file_has_no_automaton() {
        let file = SourceFile::new("d.spc", "#include a.spc\n#include b.spc\n".to_string());
        assert_eq!(
            parse(&file).unwrap_err().to_string(),
            "d.spc:3:1: no automaton in the file (`#include`d files are not read): \
             expected `OBSERVER AUTOMATON`, `CONTROL AUTOMATON` or `ASSERT`"
        );
    }

    #[test]
    fn crlf_line_ends() {
        let text = "OBSERVER AUTOMATON A\r\n// c\r\nINITIAL STATE q;\r\nSTATE USEFIRST q :\r\n  MATCH \"a\" -> GOTO q;\r\nEND AUTOMATON\r\n";
        let (aut, diags) = parse(&SourceFile::new("t.spc", text.to_string())).unwrap();
        assert!(diags.is_empty());
        assert_eq!(aut.states[0].line, 4);
        assert_eq!((aut.states[0].transitions[0].line, aut.states[0].transitions[0].col), (5, 3));
        assert_eq!(aut.states[0].transitions[0].trigger, Trigger::Match(MatchTrigger::Exact("a".to_string())));
    }

    #[test]
    fn invalid_regexes_are_errors_unsupported_ones_warnings() {
        check(
            "AUTOMATON A\nINITIAL STATE q;\nSTATE q :\n  MATCH [a(b] -> GOTO q;\nEND AUTOMATON",
            "t.spc:4:9: invalid regular expression `[a(b]`: unclosed group\n",
        );
        check(
            "AUTOMATON A\nINITIAL STATE q;\nSTATE q :\n  MATCH LABEL [x{2,1}] -> GOTO q;\nEND AUTOMATON",
            "t.spc:4:15: invalid regular expression `[x{2,1}]`: invalid repetition count range, the start must be <= the end\n",
        );
        let file = SourceFile::new(
            "t.spc",
            "AUTOMATON A\nINITIAL STATE q;\nSTATE q :\n  MATCH [a(?=b)] -> GOTO q;\nEND AUTOMATON".to_string(),
        );
        let (_, diags) = parse(&file).unwrap();
        assert_eq!(diags.len(), 1);
        assert_eq!(
            diags[0].to_string(),
            "t.spc:4:9: warning: vcov cannot evaluate the regular expression `[a(?=b)]` (look-around, including look-ahead and look-behind, is not supported); it never matches"
        );
    }

    #[test]
    fn parse_error_displays_as_path_line_col_message() {
        let err = ParseError { path: "dir/a.spc".into(), line: 3, col: 7, message: "expected `;`".to_string() };
        assert_eq!(err.to_string(), "dir/a.spc:3:7: expected `;`");
    }

    #[test]
    fn positions_of_states_and_transitions() {
        let file = SourceFile::new(
            "t.spc",
            "AUTOMATON A\nINITIAL STATE q;\n\nTARGET STATE q :\n  TRUE -> GOTO q;\n    MATCH \"x\" -> STOP;\nEND AUTOMATON"
                .to_string(),
        );
        let (aut, _) = parse(&file).unwrap();
        let q = &aut.states[0];
        assert_eq!(q.line, 4);
        let pos: Vec<(u32, u32)> = q.transitions.iter().map(|t| (t.line, t.col)).collect();
        assert_eq!(pos, vec![(5, 3), (6, 5)]);
    }

    #[test]
    fn split_statements_respects_nesting_and_quotes() {
        assert_eq!(split_statements("a; b;;c"), vec!["a", "b", "c"]);
        assert_eq!(split_statements(" f(a;b) ; \"x;\\\"y\" ; ';' "), vec!["f(a;b)", "\"x;\\\"y\"", "';'"]);
        assert_eq!(split_statements("unterminated \"x; y"), vec!["unterminated \"x; y"]);
        assert!(split_statements("  ").is_empty());
    }
}
