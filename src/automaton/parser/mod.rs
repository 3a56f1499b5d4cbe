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
//! Conditions and integer expressions are parsed in `expr.rs`.
//!
//! Invariant: the parser never panics and never recurses deeper than `MAX_NESTING` expression levels.

mod expr;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

use rustc_hash::FxHashMap;

use crate::base::{Diagnostic, Severity, SourceFile};

use super::assume::AssumeTruth;
use super::ast::{
    Action, Automaton, AutomatonKind, LocalInit, LocalVar, MatchMode, PrintArg, State, StateId, Target, Transition,
    Trigger, FALSE_STATE, TRUE_STATE,
};
use super::lexer::{LexError, Lexer, Tok, Token};
use expr::{starts_expr, Value};

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
}

/// The error `message` at byte offset `pos` of `file`.
fn error_at(file: &SourceFile, pos: u32, message: String) -> ParseError {
    let lc = file.line_col(pos);
    ParseError { path: file.path().to_path_buf(), line: lc.line, col: lc.col, message }
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
