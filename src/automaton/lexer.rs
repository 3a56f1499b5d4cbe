//! Hand-written lexer over the bytes of an automaton file, following CPAchecker's automaton scanner.
//!
//! Tokens carry byte offsets only; the parser slices (and unescapes) their text when it needs it,
//! so lexing allocates nothing.
//!
//! What the scanner accepts, as in CPAchecker:
//! - `"…"` strings undo `\n`, `\t`, `\r`, `\"` and `\\`; any other escape and a raw line feed are errors.
//! - `{…}` ends at the first unescaped `}` (no nesting, quotes are not special); it may span lines and
//!   undoes `\n`, `\t`, `\r`, `\}` and `\\`.
//! - `[…]` ends at the first unescaped `]` on the same line and undoes `\n`, `\t`, `\r`, `\]` and `\\`.
//! - Keywords are whole words: `STATE1` is an identifier. `true`/`false` are keywords like `TRUE`/`FALSE`.
//! - An integer literal is `0` or a digit run without leading zero (`012` is `0` then `12`).
//!
//! Where this lexer is more lenient than CPAchecker's: a raw carriage return inside `"…"` is kept
//! (old CPAchecker versions wrote CR unescaped), `/** … */` is a comment, and a `//` comment may end
//! at the end of the file. `#include file` lines are recorded and skipped: the library does no file IO.
//!
//! Invariant: `next_token` never panics and always advances on success (except at end of file).

/// The kind of a token.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Tok {
    /// A name: `[A-Za-z_$][A-Za-z0-9_$]*` (plus non-ASCII letters) that is not a keyword.
    Ident,
    /// A decimal integer literal.
    Int,
    /// A `"…"` string literal (span includes the quotes).
    Str,
    /// A `{…}` block (span includes the braces).
    Curly,
    /// A `[…]` block (span includes the brackets).
    Square,
    Semi,
    Colon,
    LParen,
    RParen,
    Lt,
    Gt,
    Arrow,
    Comma,
    Not,
    EqEq,
    NotEq,
    Eq,
    AndAnd,
    OrOr,
    Plus,
    Minus,
    // Keywords.
    Automaton,
    End,
    Observer,
    Control,
    Local,
    Initial,
    State,
    Error,
    Stop,
    Break,
    Exit,
    Entry,
    FunctionCall,
    Assume,
    Assert,
    Match,
    Label,
    Eval,
    Check,
    Modify,
    Do,
    Goto,
    True,
    False,
    Print,
    PrintOnce,
    UseFirst,
    UseAll,
    Target,
    IsTargetState,
    CoversLines,
    Eof,
}

/// A token: its kind and its byte span `lo..hi` in the file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Token {
    pub(crate) kind: Tok,
    pub(crate) lo: u32,
    pub(crate) hi: u32,
    /// For `Str`, `Curly` and `Square`: whether the body holds a backslash escape to undo.
    pub(crate) escaped: bool,
}

/// A lexical error at byte offset `pos`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct LexError {
    pub(crate) pos: u32,
    pub(crate) message: String,
}

/// An `#include` line the lexer skipped: byte offset of `#` and the file name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Include {
    pub(crate) pos: u32,
    pub(crate) file: String,
}

/// Splits an automaton file into tokens on demand.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// The `#include` lines skipped so far.
    pub(crate) includes: Vec<Include>,
}

impl Tok {
    /// How the token kind reads in a message.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Tok::Ident => "identifier",
            Tok::Int => "integer",
            Tok::Str => "string literal",
            Tok::Curly => "`{…}` block",
            Tok::Square => "`[…]` block",
            Tok::Semi => "`;`",
            Tok::Colon => "`:`",
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::Lt => "`<`",
            Tok::Gt => "`>`",
            Tok::Arrow => "`->`",
            Tok::Comma => "`,`",
            Tok::Not => "`!`",
            Tok::EqEq => "`==`",
            Tok::NotEq => "`!=`",
            Tok::Eq => "`=`",
            Tok::AndAnd => "`&&`",
            Tok::OrOr => "`||`",
            Tok::Plus => "`+`",
            Tok::Minus => "`-`",
            Tok::Automaton => "`AUTOMATON`",
            Tok::End => "`END`",
            Tok::Observer => "`OBSERVER`",
            Tok::Control => "`CONTROL`",
            Tok::Local => "`LOCAL`",
            Tok::Initial => "`INITIAL`",
            Tok::State => "`STATE`",
            Tok::Error => "`ERROR`",
            Tok::Stop => "`STOP`",
            Tok::Break => "`BREAK`",
            Tok::Exit => "`EXIT`",
            Tok::Entry => "`ENTRY`",
            Tok::FunctionCall => "`FUNCTIONCALL`",
            Tok::Assume => "`ASSUME`",
            Tok::Assert => "`ASSERT`",
            Tok::Match => "`MATCH`",
            Tok::Label => "`LABEL`",
            Tok::Eval => "`EVAL`",
            Tok::Check => "`CHECK`",
            Tok::Modify => "`MODIFY`",
            Tok::Do => "`DO`",
            Tok::Goto => "`GOTO`",
            Tok::True => "`TRUE`",
            Tok::False => "`FALSE`",
            Tok::Print => "`PRINT`",
            Tok::PrintOnce => "`PRINTONCE`",
            Tok::UseFirst => "`USEFIRST`",
            Tok::UseAll => "`USEALL`",
            Tok::Target => "`TARGET`",
            Tok::IsTargetState => "`IS_TARGET_STATE`",
            Tok::CoversLines => "`COVERS_LINES`",
            Tok::Eof => "end of file",
        }
    }
}

impl Token {
    /// The token's text, delimiters included.
    pub(crate) fn text(self, src: &str) -> &str {
        &src[self.lo as usize..self.hi as usize]
    }

    /// The body of a `Str`, `Curly` or `Square` token: its text without the delimiters, still escaped.
    pub(crate) fn body(self, src: &str) -> &str {
        &src[self.lo as usize + 1..self.hi as usize - 1]
    }

    /// The unescaped body of a `Str`, `Curly` or `Square` token.
    pub(crate) fn value(self, src: &str) -> String {
        let body = self.body(src);
        if self.escaped {
            unescape(body)
        } else {
            body.to_string()
        }
    }

    /// How the token reads in a message, e.g. "identifier `ARG1`" or "`GOTO`".
    pub(crate) fn describe(self, src: &str) -> String {
        match self.kind {
            Tok::Ident | Tok::Int => format!("{} `{}`", self.kind.name(), self.text(src)),
            Tok::Str => {
                let body = self.body(src);
                match body.char_indices().nth(30) {
                    Some((cut, _)) => format!("string literal \"{}…\"", &body[..cut]),
                    None => format!("string literal \"{body}\""),
                }
            }
            kind => kind.name().to_string(),
        }
    }
}

/// Undoes the escapes of a body the lexer accepted: `\n`, `\t`, `\r` become the control characters,
/// a backslash before any other character (`"`, `}`, `]`, `\`) yields that character.
pub(crate) fn unescape(body: &str) -> String {
    let mut res = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(i) = rest.find('\\') {
        res.push_str(&rest[..i]);
        let mut tail = rest[i + 1..].chars();
        match tail.next() {
            Some('n') => res.push('\n'),
            Some('t') => res.push('\t'),
            Some('r') => res.push('\r'),
            Some(c) => res.push(c),
            None => {}
        }
        rest = tail.as_str();
    }
    res.push_str(rest);
    res
}

/// `c` as it reads in a message: itself, or an escape for control and white-space characters.
fn show_char(c: char) -> String {
    if c.is_control() || (c.is_whitespace() && c != ' ') {
        c.escape_debug().to_string()
    } else {
        c.to_string()
    }
}

/// Whether `b` can start an identifier (ASCII part).
fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

/// Whether `b` can continue an identifier (ASCII part).
fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The keyword spelled `word`, if any.
fn keyword(word: &[u8]) -> Option<Tok> {
    Some(match word {
        b"AUTOMATON" => Tok::Automaton,
        b"END" => Tok::End,
        b"OBSERVER" => Tok::Observer,
        b"CONTROL" => Tok::Control,
        b"LOCAL" => Tok::Local,
        b"INITIAL" => Tok::Initial,
        b"STATE" => Tok::State,
        b"ERROR" => Tok::Error,
        b"STOP" => Tok::Stop,
        b"BREAK" => Tok::Break,
        b"EXIT" => Tok::Exit,
        b"ENTRY" => Tok::Entry,
        b"FUNCTIONCALL" => Tok::FunctionCall,
        b"ASSUME" => Tok::Assume,
        b"ASSERT" => Tok::Assert,
        b"MATCH" => Tok::Match,
        b"LABEL" => Tok::Label,
        b"EVAL" => Tok::Eval,
        b"CHECK" => Tok::Check,
        b"MODIFY" => Tok::Modify,
        b"DO" => Tok::Do,
        b"GOTO" => Tok::Goto,
        b"TRUE" | b"true" => Tok::True,
        b"FALSE" | b"false" => Tok::False,
        b"PRINT" => Tok::Print,
        b"PRINTONCE" => Tok::PrintOnce,
        b"USEFIRST" => Tok::UseFirst,
        b"USEALL" => Tok::UseAll,
        b"TARGET" => Tok::Target,
        b"IS_TARGET_STATE" => Tok::IsTargetState,
        b"COVERS_LINES" => Tok::CoversLines,
        _ => return None,
    })
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub(crate) fn new(src: &'a str) -> Lexer<'a> {
        Lexer { src, bytes: src.as_bytes(), pos: 0, includes: Vec::new() }
    }

    /// The next token; `Tok::Eof` (with an empty span at the end) once the input is used up.
    pub(crate) fn next_token(&mut self) -> Result<Token, LexError> {
        self.skip_trivia()?;
        let start = self.pos;
        let Some(&b) = self.bytes.get(start) else {
            return Ok(self.token(Tok::Eof, start, start));
        };
        let next = self.bytes.get(start + 1).copied();
        let (kind, len) = match b {
            b';' => (Tok::Semi, 1),
            b':' => (Tok::Colon, 1),
            b'(' => (Tok::LParen, 1),
            b')' => (Tok::RParen, 1),
            b'<' => (Tok::Lt, 1),
            b'>' => (Tok::Gt, 1),
            b',' => (Tok::Comma, 1),
            b'+' => (Tok::Plus, 1),
            b'-' if next == Some(b'>') => (Tok::Arrow, 2),
            b'-' => (Tok::Minus, 1),
            b'!' if next == Some(b'=') => (Tok::NotEq, 2),
            b'!' => (Tok::Not, 1),
            b'=' if next == Some(b'=') => (Tok::EqEq, 2),
            b'=' => (Tok::Eq, 1),
            b'&' if next == Some(b'&') => (Tok::AndAnd, 2),
            b'|' if next == Some(b'|') => (Tok::OrOr, 2),
            b'"' => return self.delimited(Tok::Str),
            b'{' => return self.delimited(Tok::Curly),
            b'[' => return self.delimited(Tok::Square),
            b'0' => (Tok::Int, 1),
            b'1'..=b'9' => {
                let len = self.bytes[start..].iter().take_while(|b| b.is_ascii_digit()).count();
                (Tok::Int, len)
            }
            _ if is_ident_start(b) || b >= 0x80 => return self.ident(),
            _ => return Err(self.unexpected(start)),
        };
        self.pos = start + len;
        Ok(self.token(kind, start, self.pos))
    }

    fn token(&self, kind: Tok, lo: usize, hi: usize) -> Token {
        Token { kind, lo: lo as u32, hi: hi as u32, escaped: false }
    }

    fn error(&self, pos: usize, message: String) -> LexError {
        LexError { pos: pos as u32, message }
    }

    /// The error for a character that starts no token.
    fn unexpected(&self, pos: usize) -> LexError {
        let c = self.src[pos..].chars().next().unwrap_or('\u{fffd}');
        let hint = match c {
            '&' => " (did you mean `&&`?)",
            '|' => " (did you mean `||`?)",
            _ => "",
        };
        self.error(pos, format!("unexpected character `{}`{hint}", show_char(c)))
    }

    /// Skips white space, comments and `#include` lines.
    fn skip_trivia(&mut self) -> Result<(), LexError> {
        loop {
            let Some(&b) = self.bytes.get(self.pos) else { return Ok(()) };
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c' => self.pos += 1,
                b'/' if self.bytes.get(self.pos + 1) == Some(&b'/') => {
                    self.pos = self.line_end(self.pos);
                }
                b'/' if self.bytes.get(self.pos + 1) == Some(&b'*') => {
                    let body = self.pos + 2;
                    match self.src[body..].find("*/") {
                        Some(i) => self.pos = body + i + 2,
                        None => return Err(self.error(self.pos, "unterminated `/*` comment".to_string())),
                    }
                }
                b'#' if self.src[self.pos..].starts_with("#include") && self.pos + 8 < self.line_end(self.pos) => {
                    let end = self.line_end(self.pos);
                    let file = self.src[self.pos + 8..end].trim().to_string();
                    self.includes.push(Include { pos: self.pos as u32, file });
                    self.pos = end;
                }
                _ => return Ok(()),
            }
        }
    }

    /// Offset of the line feed or carriage return that ends the line holding `pos` (or of the end of file).
    fn line_end(&self, pos: usize) -> usize {
        self.bytes[pos..].iter().position(|&b| b == b'\n' || b == b'\r').map_or(self.bytes.len(), |i| pos + i)
    }

    /// An identifier or keyword starting at `self.pos`.
    fn ident(&mut self) -> Result<Token, LexError> {
        let start = self.pos;
        let mut i = start;
        loop {
            match self.bytes.get(i) {
                Some(&b) if is_ident_continue(b) => i += 1,
                Some(&b) if b >= 0x80 => {
                    // `i` is on a char boundary: every byte we stepped over so far was ASCII or a whole char.
                    let c = self.src[i..].chars().next().unwrap_or('\u{fffd}');
                    let ok = if i == start { c.is_alphabetic() } else { c.is_alphanumeric() };
                    if !ok {
                        break;
                    }
                    i += c.len_utf8();
                }
                _ => break,
            }
        }
        if i == start {
            return Err(self.unexpected(start));
        }
        self.pos = i;
        let kind = keyword(&self.bytes[start..i]).unwrap_or(Tok::Ident);
        Ok(self.token(kind, start, i))
    }

    /// A `"…"`, `{…}` or `[…]` token starting at `self.pos`.
    fn delimited(&mut self, kind: Tok) -> Result<Token, LexError> {
        let start = self.pos;
        let (close, what, multi_line) = match kind {
            Tok::Str => (b'"', "string literal", false),
            Tok::Curly => (b'}', "`{` block", true),
            _ => (b']', "`[` block", false),
        };
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            let Some(&b) = self.bytes.get(i) else {
                let close = close as char;
                return Err(
                    self.error(start, format!("unterminated {what}: no closing `{close}` before the end of file"))
                );
            };
            if b == close {
                break;
            }
            match b {
                b'\\' => {
                    match self.bytes.get(i + 1) {
                        Some(&(b'n' | b't' | b'r' | b'\\')) => {}
                        Some(&c) if c == close => {}
                        Some(_) => {
                            let c = self.src[i + 1..].chars().next().unwrap_or('\u{fffd}');
                            let close = close as char;
                            return Err(self.error(
                                i,
                                format!(
                                    "unknown escape sequence `\\{}` in {what} (only \\n, \\t, \\r, \\{close} and \\\\ are allowed)",
                                    show_char(c)
                                ),
                            ));
                        }
                        None => {
                            return Err(self.error(start, format!("unterminated {what}: the file ends after a `\\`")))
                        }
                    }
                    escaped = true;
                    i += 2;
                }
                b'\n' if !multi_line => {
                    let close = close as char;
                    return Err(self.error(
                        start,
                        format!("unterminated {what}: no closing `{close}` on this line (write a line break as \\n)"),
                    ));
                }
                b'\r' if kind == Tok::Square => {
                    return Err(self.error(start, format!("unterminated {what}: no closing `]` on this line")));
                }
                _ => i += 1,
            }
        }
        self.pos = i + 1;
        Ok(Token { kind, lo: start as u32, hi: self.pos as u32, escaped })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check(input, expect)`: lexes `input` and prints one token per word (`Kind` or `Kind(value)`),
    /// then `include(file)` for skipped includes, or `error@pos: message`.
    fn check(input: &str, expect: &str) {
        let mut lexer = Lexer::new(input);
        let mut words = Vec::new();
        loop {
            match lexer.next_token() {
                Ok(tok) if tok.kind == Tok::Eof => break,
                Ok(tok) => words.push(match tok.kind {
                    Tok::Ident | Tok::Int => format!("{:?}({})", tok.kind, tok.text(input)),
                    Tok::Str | Tok::Curly | Tok::Square => format!("{:?}({:?})", tok.kind, tok.value(input)),
                    kind => format!("{kind:?}"),
                }),
                Err(e) => {
                    words.push(format!("error@{}: {}", e.pos, e.message));
                    break;
                }
            }
        }
        words.extend(lexer.includes.iter().map(|i| format!("include({})", i.file)));
        assert_eq!(words.join(" "), expect);
    }

    #[test]
    fn punctuation_and_operators() {
        check(
            "; : ( ) < > -> , ! == != = && || + -",
            "Semi Colon LParen RParen Lt Gt Arrow Comma Not EqEq NotEq Eq AndAnd OrOr Plus Minus",
        );
        check("a->b-c!=d", "Ident(a) Arrow Ident(b) Minus Ident(c) NotEq Ident(d)");
    }

    #[test]
    fn keywords_are_whole_words() {
        check(
            "STATE STATE1 true TRUE True GOTO_ USEFIRST",
            "State Ident(STATE1) True True Ident(True) Ident(GOTO_) UseFirst",
        );
        check("ARG2_0_1 ARG342M0 __TRUE $x é1", "Ident(ARG2_0_1) Ident(ARG342M0) Ident(__TRUE) Ident($x) Ident(é1)");
    }

    #[test]
    fn integers_follow_the_scanner() {
        check("0 12 007", "Int(0) Int(12) Int(0) Int(0) Int(7)");
    }

    #[test]
    fn string_escapes() {
        check(r#""a\nb\tc\rd\"e\\f""#, r#"Str("a\nb\tc\rd\"e\\f")"#);
        check(r#""""#, r#"Str("")"#);
        check("\"tab\there\"", r#"Str("tab\there")"#);
        check("\"cr\rkept\"", r#"Str("cr\rkept")"#);
        check(r#""[!(i == 0)]""#, r#"Str("[!(i == 0)]")"#);
        check(
            r#""x\q""#,
            r#"error@2: unknown escape sequence `\q` in string literal (only \n, \t, \r, \" and \\ are allowed)"#,
        );
        check(
            r#""x\}""#,
            r#"error@2: unknown escape sequence `\}` in string literal (only \n, \t, \r, \" and \\ are allowed)"#,
        );
    }

    #[test]
    fn curly_and_square_bodies() {
        check(r"{x = 1; y\}} [a\]b\\]", r#"Curly("x = 1; y}") Square("a]b\\")"#);
        check("{a\nb}", r#"Curly("a\nb")"#);
        // No nesting and no quoting: the first unescaped closer ends the block, as in CPAchecker.
        check(
            r#"{f("}")}"#,
            r#"Curly("f(\"") error@5: unterminated string literal: no closing `"` before the end of file"#,
        );
        check("[a[b]]", r#"Square("a[b") error@5: unexpected character `]`"#);
        check(
            r#"{\"}"#,
            r#"error@1: unknown escape sequence `\"` in `{` block (only \n, \t, \r, \} and \\ are allowed)"#,
        );
    }

    #[test]
    fn unterminated_bodies() {
        check(
            "\"abc\nd\"",
            r#"error@0: unterminated string literal: no closing `"` on this line (write a line break as \n)"#,
        );
        check("x \"abc", "Ident(x) error@2: unterminated string literal: no closing `\"` before the end of file");
        check("{abc", "error@0: unterminated `{` block: no closing `}` before the end of file");
        check("[a\n]", r"error@0: unterminated `[` block: no closing `]` on this line (write a line break as \n)");
        check("\"a\\", r"error@0: unterminated string literal: the file ends after a `\`");
    }

    #[test]
    fn comments_and_includes() {
        check("a // c1 \"\n/* c2\n */ b /**/ c /** d */ e // end", "Ident(a) Ident(b) Ident(c) Ident(e)");
        check("a /* open", "Ident(a) error@2: unterminated `/*` comment");
        check("#include other.spc\nSTATE", "State include(other.spc)");
        check("#", "error@0: unexpected character `#`");
    }

    #[test]
    fn unexpected_characters() {
        check("a & b", "Ident(a) error@2: unexpected character `&` (did you mean `&&`?)");
        check("a @", "Ident(a) error@2: unexpected character `@`");
        check("\u{2028}", "error@0: unexpected character `\\u{2028}`");
    }

    #[test]
    fn unescape_handles_every_escape() {
        assert_eq!(unescape(r#"a\\n\n\"\}\]"#), "a\\n\n\"}]");
        assert_eq!(unescape(r"no escapes"), "no escapes");
    }
}
