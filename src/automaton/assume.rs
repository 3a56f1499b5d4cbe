//! The statements of `ASSUME {…}`, read as C expressions: what they say on their own.
//!
//! CPAchecker has written three forms: the solver formula's own text (until 2022: `true`, `false`,
//! `(= |main::x| 1)`), C expressions printed from the formula (since 2022-02:
//! `( ( x == 1 ) && ( y < 2 ) )`, `0` for false), and in counterexample automata the concrete values
//! of a path as assignments turned comparisons (`x == (1);`). This module parses the C forms with
//! C's precedence and folds what is constant: an assumption that is constantly false blocks the path,
//! one that is constantly true restricts nothing, and one that depends on the program's variables is
//! not used (vcov treats it as CPAchecker 1.5's formulas always were: the path goes on).
//!
//! Invariant: parsing never panics and nests at most `MAX_DEPTH` levels.

use crate::base::c_tokens;

/// Deeper nesting is rejected (the parser recurses once per level).
const MAX_DEPTH: usize = 200;

/// What a list of `ASSUME` statements says on its own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AssumeTruth {
    /// No statement, or every one constantly true: the path goes on.
    True,
    /// One of them is constantly false: the path ends (`ASSUME {false}`, `ASSUME {0}`).
    False,
    /// One depends on the program's state (and none is constantly false): vcov does not use it.
    Open,
}

/// What `statements` (the split body of `ASSUME {…}`) say on their own; `Err` names the first
/// statement that is neither a C expression nor `true`/`false` (a solver formula), with why.
pub fn truth(statements: &[String]) -> Result<AssumeTruth, (String, String)> {
    let mut res = AssumeTruth::True;
    for s in statements {
        match value(s) {
            Ok(Some(0)) => return Ok(AssumeTruth::False),
            Ok(Some(_)) => {}
            Ok(None) => res = AssumeTruth::Open,
            Err(why) => return Err((s.clone(), why)),
        }
    }
    Ok(res)
}

/// The constant value of one C expression (`None` when it depends on variables), or why it is not one.
/// `true` and `false` are 1 and 0; an assignment `x = e` is read as the comparison `x == e`, as
/// CPAchecker does in assumptions.
fn value(text: &str) -> Result<Option<i128>, String> {
    let toks = c_tokens(text);
    if toks.is_empty() {
        return Err("empty expression".into());
    }
    let mut p = Parser { toks: &toks, pos: 0, depth: 0 };
    let v = p.expr()?;
    match p.toks.get(p.pos) {
        None => Ok(v),
        Some(t) => Err(format!("unexpected `{t}`")),
    }
}

struct Parser<'a> {
    toks: &'a [&'a str],
    pos: usize,
    depth: usize,
}

/// Binary operators by precedence level, loosest first (assignment reads as `==`).
const LEVELS: [&[&str]; 10] = [
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!=", "="],
    &["<", "<=", ">", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.pos).copied()
    }

    fn expect(&mut self, t: &str) -> Result<(), String> {
        match self.peek() {
            Some(x) if x == t => {
                self.pos += 1;
                Ok(())
            }
            Some(x) => Err(format!("expected `{t}`, found `{x}`")),
            None => Err(format!("expected `{t}` at the end")),
        }
    }

    /// A conditional expression (`c ? a : b` on top of the binary levels).
    fn expr(&mut self) -> Result<Option<i128>, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nested more than {MAX_DEPTH} levels deep"));
        }
        let c = self.binary(0)?;
        let res = if self.peek() == Some("?") {
            self.pos += 1;
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            match c {
                Some(0) => b,
                Some(_) => a,
                None if a.is_some() && a == b => a,
                None => None,
            }
        } else {
            c
        };
        self.depth -= 1;
        Ok(res)
    }

    fn binary(&mut self, level: usize) -> Result<Option<i128>, String> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self.peek().filter(|t| LEVELS[level].contains(t)) {
            self.pos += 1;
            let rhs = self.binary(level + 1)?;
            lhs = fold(op, lhs, rhs);
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Option<i128>, String> {
        match self.peek() {
            Some(op @ ("!" | "-" | "+" | "~")) => {
                self.pos += 1;
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(format!("nested more than {MAX_DEPTH} levels deep"));
                }
                let v = self.unary()?;
                self.depth -= 1;
                Ok(v.map(|v| match op {
                    "!" => i128::from(v == 0),
                    "-" => v.wrapping_neg(),
                    "~" => !v,
                    _ => v,
                }))
            }
            Some("*" | "&") => {
                self.pos += 1;
                self.unary().map(|_| None)
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> Result<Option<i128>, String> {
        let mut v = self.primary()?;
        loop {
            match self.peek() {
                Some("[") => {
                    self.pos += 1;
                    self.expr()?;
                    self.expect("]")?;
                    v = None;
                }
                Some("(") => {
                    self.pos += 1;
                    if self.peek() != Some(")") {
                        self.expr()?;
                        while self.peek() == Some(",") {
                            self.pos += 1;
                            self.expr()?;
                        }
                    }
                    self.expect(")")?;
                    v = None;
                }
                Some("." | "->") => {
                    self.pos += 1;
                    match self.peek() {
                        Some(t) if is_identifier(t) => self.pos += 1,
                        _ => return Err("expected a member name".into()),
                    }
                    v = None;
                }
                _ => return Ok(v),
            }
        }
    }

    fn primary(&mut self) -> Result<Option<i128>, String> {
        let Some(t) = self.peek() else { return Err("expected an operand at the end".into()) };
        self.pos += 1;
        if t == "(" {
            let v = self.expr()?;
            self.expect(")")?;
            return Ok(v);
        }
        if t == "true" {
            return Ok(Some(1));
        }
        if t == "false" {
            return Ok(Some(0));
        }
        if is_identifier(t) {
            return Ok(None);
        }
        if t.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            return Ok(integer(t));
        }
        if t.starts_with('\'') && t.len() >= 3 {
            let inner = &t[1..t.len() - 1];
            let mut chars = inner.chars();
            return Ok(match (chars.next(), chars.next()) {
                (Some(c), None) if c != '\\' => Some(c as i128),
                _ => None,
            });
        }
        if t.starts_with('"') {
            // A string's address is not null.
            return Ok(Some(1));
        }
        Err(format!("unexpected `{t}`"))
    }
}

fn is_identifier(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// The value of an integer literal (decimal, hex or octal, with any suffix); `None` for a float.
fn integer(t: &str) -> Option<i128> {
    let digits = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()
    } else if digits.len() > 1 && digits.starts_with('0') {
        i128::from_str_radix(&digits[1..], 8).ok()
    } else {
        digits.parse().ok()
    }
}

/// `a op b` where known; `&&` and `||` are decided by one known side when it settles them.
fn fold(op: &str, a: Option<i128>, b: Option<i128>) -> Option<i128> {
    match (op, a, b) {
        ("&&", Some(0), _) | ("&&", _, Some(0)) => Some(0),
        ("||", Some(x), _) | ("||", _, Some(x)) if x != 0 => Some(1),
        (_, Some(a), Some(b)) => match op {
            "&&" => Some(i128::from(a != 0 && b != 0)),
            "||" => Some(i128::from(a != 0 || b != 0)),
            "|" => Some(a | b),
            "^" => Some(a ^ b),
            "&" => Some(a & b),
            "==" | "=" => Some(i128::from(a == b)),
            "!=" => Some(i128::from(a != b)),
            "<" => Some(i128::from(a < b)),
            "<=" => Some(i128::from(a <= b)),
            ">" => Some(i128::from(a > b)),
            ">=" => Some(i128::from(a >= b)),
            "<<" => u32::try_from(b).ok().and_then(|s| a.checked_shl(s)),
            ">>" => u32::try_from(b).ok().and_then(|s| a.checked_shr(s)),
            "+" => a.checked_add(b),
            "-" => a.checked_sub(b),
            "*" => a.checked_mul(b),
            "/" => a.checked_div(b),
            "%" => a.checked_rem(b),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check(body, expect)`: the truth of the `;`-separated statements, or the error.
    fn check(body: &str, expect: &str) {
        let stmts: Vec<String> = body.split(';').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
        let res = match truth(&stmts) {
            Ok(t) => format!("{t:?}"),
            Err((s, why)) => format!("error in `{s}`: {why}"),
        };
        assert_eq!(res, expect, "{body}");
    }

    #[test]
    fn solver_constants_of_cpachecker_1() {
        check("true", "True");
        check("false", "False");
        check("", "True");
    }

    #[test]
    fn c_expressions_of_cpachecker_2022() {
        // FormulaToCVisitor's output: operators with spaces, every application in parentheses.
        check("0", "False");
        check("1", "True");
        check("( ( x == 1 ) && ( y < 2 ) )", "Open");
        check("( ( x == 1 ) && ( 0 ) )", "False");
        check("( ( x == 1 ) || ( 1 == 1 ) )", "True");
        check("( ! ( 0 <= x ) )", "Open");
        check("( ( ( 2147483647 ) - 1 ) < 0 )", "False");
        check("( x ? 1 : 1 )", "True");
    }

    #[test]
    fn counterexample_values() {
        check("x == (1);", "Open");
        check("msw == (4293918720U); y = 2", "Open");
        check("p->next == (0); a[2] == f(3)", "Open");
        check("0x10 == 16; 'a' == 97; 010 == 8", "True");
        check("x == 1; 2 < 1", "False");
    }

    #[test]
    fn what_is_not_c_is_named() {
        check("(= |main::x| 1)", "error in `(= |main::x| 1)`: unexpected `=`");
        check("x ==", "error in `x ==`: expected an operand at the end");
        check("(x", "error in `(x`: expected `)` at the end");
        check(&"(".repeat(500), &format!("error in `{}`: nested more than 200 levels deep", "(".repeat(500)));
    }
}
