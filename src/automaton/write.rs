//! The one writer of CPAchecker's automaton language: the delimited texts with the escapes the
//! scanner undoes, the automaton and state headers, and transitions.
//!
//! The printer of a parsed automaton (`print.rs`), the counterexample automata
//! (`evidence::cexaut`) and the explored region (`verify::region`) write through these pieces, so
//! a text is escaped by one rule wherever it is written.
//!
//! Invariant: every text written between delimiters is escaped as `lexer.rs` undoes it: `\\`, line
//! feed, carriage return, tab and the closing delimiter (`"`, `}` or `]`); parsing it gives the text
//! back.

use std::fmt::{self, Display, Formatter, Write};

use super::ast::{AutomatonKind, MatchMode, StateId, Target, Transition};

/// The three kinds of delimited text of the automaton language.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Delim {
    /// `"…"`: string literals (`MATCH "…"`, `ERROR("…")`).
    Str,
    /// `{…}`: `ASSUME` bodies and patterns.
    Curly,
    /// `[…]`: regular expressions and set literals.
    Square,
}

/// Text written between delimiters with the escapes the scanner undoes.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str, pub Delim);

/// `text` as a string literal `"…"`.
pub fn string(text: &str) -> Quoted<'_> {
    Quoted(text, Delim::Str)
}

impl Display for Quoted<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (open, close) = match self.1 {
            Delim::Str => ('"', '"'),
            Delim::Curly => ('{', '}'),
            Delim::Square => ('[', ']'),
        };
        f.write_char(open)?;
        for c in self.0.chars() {
            match c {
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\\' => f.write_str("\\\\")?,
                c if c == close => {
                    f.write_char('\\')?;
                    f.write_char(c)?;
                }
                c => f.write_char(c)?,
            }
        }
        f.write_char(close)
    }
}

/// Where a transition leads, its state named by the writer (`GOTO name`, `ERROR`, `ERROR("msg")`,
/// `STOP`, `BREAK`).
#[derive(Clone, Copy, Debug)]
pub enum To<'a, N> {
    /// `GOTO name`.
    Goto(N),
    /// `ERROR`, or `ERROR("msg")`.
    Error(Option<&'a str>),
    /// `STOP`.
    Stop,
    /// `BREAK`.
    Break,
}

/// `{kind} AUTOMATON name` and an empty line.
pub fn header<W: Write + ?Sized>(out: &mut W, kind: AutomatonKind, name: &str) -> fmt::Result {
    let kind = match kind {
        AutomatonKind::Observer => "OBSERVER",
        AutomatonKind::Control => "CONTROL",
    };
    writeln!(out, "{kind} AUTOMATON {name}\n")
}

/// `INITIAL STATE name;` and an empty line.
pub fn initial<W: Write + ?Sized>(out: &mut W, name: &str) -> fmt::Result {
    writeln!(out, "INITIAL STATE {name};\n")
}

/// The line that opens a state: `[TARGET ]STATE [USEFIRST |USEALL ]name :`, with `// comment` after
/// it when there is one.
pub fn state<W: Write + ?Sized>(
    out: &mut W,
    name: &str,
    mode: Option<MatchMode>,
    is_target: bool,
    comment: Option<&str>,
) -> fmt::Result {
    if is_target {
        out.write_str("TARGET ")?;
    }
    out.write_str("STATE ")?;
    match mode {
        Some(MatchMode::UseFirst) => out.write_str("USEFIRST ")?,
        Some(MatchMode::UseAll) => out.write_str("USEALL ")?,
        None => {}
    }
    write!(out, "{name} :")?;
    if let Some(comment) = comment {
        write!(out, " // {comment}")?;
    }
    out.write_char('\n')
}

/// `END AUTOMATON` and its line break.
pub fn end<W: Write + ?Sized>(out: &mut W) -> fmt::Result {
    out.write_str("END AUTOMATON\n")
}

/// One transition of a state, indented, with its line break: `trigger -> [ASSUME {assume}] to;`.
/// The trigger is written as it displays (`TRUE`, or `MATCH "…"` from [`string`]).
pub fn transition_line<W: Write + ?Sized>(
    out: &mut W,
    trigger: impl Display,
    assume: Option<&str>,
    to: To<'_, impl Display>,
) -> fmt::Result {
    write!(out, "    {trigger} ->")?;
    if let Some(assume) = assume {
        write!(out, " ASSUME {}", Quoted(assume, Delim::Curly))?;
    }
    write_to(out, to)?;
    out.write_char('\n')
}

/// The parsed transition `t`, indented, with its line break; `name` names the target of a `GOTO`.
pub fn transition<W: Write + ?Sized, N: Display>(
    out: &mut W,
    t: &Transition,
    name: impl Fn(StateId) -> N,
) -> fmt::Result {
    write!(out, "    {} ->", t.trigger)?;
    for a in &t.assertions {
        write!(out, " ASSERT {a}")?;
    }
    if !t.assumptions.is_empty() {
        write!(out, " ASSUME {}", Quoted(&t.assumptions.join("; "), Delim::Curly))?;
    }
    for a in &t.actions {
        write!(out, " {a}")?;
    }
    let to = match &t.target {
        Target::Goto(id) => To::Goto(name(*id)),
        Target::Error(msg) => To::Error(msg.as_deref()),
        Target::Stop => To::Stop,
        Target::Break => To::Break,
    };
    write_to(out, to)?;
    out.write_char('\n')
}

/// ` GOTO name;` and the other targets, with the `;` that ends the transition.
fn write_to<W: Write + ?Sized>(out: &mut W, to: To<'_, impl Display>) -> fmt::Result {
    match to {
        To::Goto(name) => write!(out, " GOTO {name};"),
        To::Error(None) => out.write_str(" ERROR;"),
        To::Error(Some(msg)) => write!(out, " ERROR({});", string(msg)),
        To::Stop => out.write_str(" STOP;"),
        To::Break => out.write_str(" BREAK;"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::ast::MatchTrigger;
    use super::super::{parse, Trigger};
    use super::*;
    use crate::base::SourceFile;

    /// An automaton whose one transition matches `text`, assumes `assume` and ends in `ERROR(msg)`.
    fn automaton(text: &str, assume: &str, msg: &str) -> String {
        let mut res = String::new();
        header(&mut res, AutomatonKind::Observer, "A").unwrap();
        initial(&mut res, "q").unwrap();
        state(&mut res, "q", Some(MatchMode::UseFirst), false, None).unwrap();
        transition_line(&mut res, format_args!("MATCH {}", string(text)), Some(assume), To::<&str>::Error(Some(msg)))
            .unwrap();
        transition_line(&mut res, "TRUE", None, To::Goto("q")).unwrap();
        res.push('\n');
        end(&mut res).unwrap();
        res
    }

    #[test]
    fn escaped_texts_parse_back() {
        for text in ["tab\there", "q\"uote\"", "back\\slash\\", "line\nfeed\r\n", "\t\"\\\n}]", ""] {
            let written = automaton(text, "x\t== 1", text);
            let (aut, diags) = parse(&SourceFile::new("w.spc", written.clone())).unwrap();
            assert!(diags.is_empty(), "{diags:?}\n{written}");
            let t = &aut.states[0].transitions[0];
            assert_eq!(t.trigger, Trigger::Match(MatchTrigger::Exact(text.to_string())), "{written}");
            assert_eq!(t.assumptions, ["x\t== 1"], "{written}");
            assert_eq!(t.target, Target::Error(Some(text.to_string())), "{written}");
        }
    }

    #[test]
    fn writes_the_escapes_of_each_delimiter() {
        let text = "a\t\"b\\c\nd\re}f]";
        assert_eq!(string(text).to_string(), r#""a\t\"b\\c\nd\re}f]""#);
        assert_eq!(Quoted(text, Delim::Curly).to_string(), r#"{a\t"b\\c\nd\re\}f]}"#);
        assert_eq!(Quoted(text, Delim::Square).to_string(), r#"[a\t"b\\c\nd\re}f\]]"#);
    }

    #[test]
    fn headers_and_transitions() {
        let text = automaton("x = 1;", "false", "e");
        assert_eq!(
            text,
            "OBSERVER AUTOMATON A\n\nINITIAL STATE q;\n\nSTATE USEFIRST q :\n    \
             MATCH \"x = 1;\" -> ASSUME {false} ERROR(\"e\");\n    TRUE -> GOTO q;\n\nEND AUTOMATON\n"
        );
        let mut s = String::new();
        state(&mut s, "__TRUE", None, true, Some("synthetic")).unwrap();
        assert_eq!(s, "TARGET STATE __TRUE : // synthetic\n");
    }
}
