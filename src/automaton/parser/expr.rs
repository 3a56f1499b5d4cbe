//! Conditions and integer expressions of the automaton language: precedence climbing over `&&`/`||`,
//! `==`/`!=`, `+`/`-` and `!`, the typing of each operand (condition or integer), and the primary
//! forms (`MATCH …`, `CHECK(…)`, `EVAL(…)`, `COVERS_LINES(…)`, literals, names).
//!
//! Invariant: no expression nests deeper than `MAX_NESTING` levels or has more than `MAX_NODES`
//! operators and operands.

use super::{ParseError, Parser};
use crate::automaton::ast::{IntExpr, MatchTrigger, Trigger};
use crate::automaton::lexer::{Tok, Token};
use crate::base::Severity;

/// Deepest nesting of parentheses and `!` in one expression.
const MAX_NESTING: u32 = 100;
/// Most operators and operands in one expression; keeps trees shallow enough to drop and print recursively.
const MAX_NODES: u32 = 2000;

/// How `Parser::chain` joins two operands with an operator: the value, or the message (from the
/// operator's text) when the operands do not fit it.
type Join = fn(Tok, Value, Value) -> Result<Value, fn(&str) -> String>;

/// A parsed expression before its type is checked: a condition or an integer.
pub(super) enum Value {
    Bool(Trigger),
    Int(IntExpr),
}

impl Parser<'_> {
    /// A whole condition: an expression that must be boolean.
    pub(super) fn condition(&mut self, what: &str) -> Result<Trigger, ParseError> {
        let start = self.tok.lo;
        self.nodes = 0;
        match self.expr()? {
            Value::Bool(b) => Ok(b),
            Value::Int(_) => Err(self.error_at(start, format!("expected {what}, found an integer expression"))),
        }
    }

    /// A whole integer expression (after `DO x =`): `+`/`-` over operands, no comparison.
    pub(super) fn int_expr(&mut self) -> Result<IntExpr, ParseError> {
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
    pub(super) fn expr(&mut self) -> Result<Value, ParseError> {
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

/// Whether a token of kind `kind` can start a condition or an integer expression.
pub(super) fn starts_expr(kind: Tok) -> bool {
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
