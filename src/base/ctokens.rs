//! A small tokenizer of C text, for comparing raw texts and reading declarations without a parser.

/// A small C tokenizer: identifiers/numbers, string and character literals, and punctuation
/// (multi-character operators kept together); comments are dropped.
pub fn c_tokens(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let mut res = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = s[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 2);
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = s[i..].find('\n').map_or(b.len(), |p| i + p);
        } else if c.is_ascii_alphanumeric()
            || c == b'_'
            || c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())
        {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            res.push(&s[start..i]);
        } else if c == b'"' || c == b'\'' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != c {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            res.push(&s[start..i]);
        } else {
            let start = i;
            let three = s.get(i..i + 3);
            let two = s.get(i..i + 2);
            i += if matches!(three, Some("<<=" | ">>=" | "...")) {
                3
            } else if matches!(
                two,
                Some(
                    "->" | "++"
                        | "--"
                        | "<<"
                        | ">>"
                        | "<="
                        | ">="
                        | "=="
                        | "!="
                        | "&&"
                        | "||"
                        | "+="
                        | "-="
                        | "*="
                        | "/="
                        | "%="
                        | "&="
                        | "|="
                        | "^="
                )
            ) {
                2
            } else {
                s[i..].chars().next().map_or(1, char::len_utf8)
            };
            res.push(&s[start..i]);
        }
    }
    res
}
