//! Blanks out comments and preprocessor line markers while keeping every byte offset, line and column.
//!
//! `lang_c::driver::parse_preprocessed` rejects comments and `#` lines; replacing each of their bytes
//! (except newlines) by a space keeps spans valid for the original text.

/// The text with `/* */` and `//` comments and `#`-directive lines replaced by spaces.
///
/// String and character literals are left alone; an unterminated comment or literal runs to the end.
pub fn blank_comments(src: &str) -> String {
    blank_comments_and_list_directives(src, &mut Vec::new())
}

/// `blank_comments`, also listing the byte ranges of the `#` directives it blanked (in order).
pub(super) fn blank_comments_and_list_directives(src: &str, directives: &mut Vec<(usize, usize)>) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' | b'\'' => {
                i += 1;
                while i < b.len() && b[i] != c && b[i] != b'\n' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
                line_start = false;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(b.len());
                blank(&mut out, start, i);
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let start = i;
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                blank(&mut out, start, i);
            }
            b'#' if line_start => {
                let start = i;
                while i < b.len() && b[i] != b'\n' {
                    // A directive continues over backslash-newline.
                    if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    i += 1;
                }
                directives.push((start, i));
                blank(&mut out, start, i);
            }
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => i += 1,
            _ => {
                line_start = false;
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, so the result is valid UTF-8 again.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The first directive of `src` that vcov does not process itself, as its byte offset and name
/// (`include`, `define`, `if`, ...): such a file must be preprocessed. vcov processes line markers
/// (`# 12 "a.c"`, `#line 12`), `#pragma` (`pack` sets layouts, gcc ignores the rest the same way),
/// `#ident` and the null directive `#`, which gcc's output may hold.
pub fn unprocessed_directive(src: &str) -> Option<(usize, String)> {
    let mut directives = Vec::new();
    blank_comments_and_list_directives(src, &mut directives);
    directives.into_iter().find_map(|(lo, hi)| {
        let rest = src[lo + 1..hi].trim_start_matches([' ', '\t']);
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let processed = name.is_empty()
            || name.starts_with(|c: char| c.is_ascii_digit())
            || matches!(name.as_str(), "line" | "pragma" | "ident");
        (!processed).then_some((lo, name))
    })
}

fn blank(out: &mut [u8], from: usize, to: usize) {
    for byte in &mut out[from..to] {
        if *byte != b'\n' {
            *byte = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::blank_comments;

    fn check(input: &str, expect: &str) {
        let res = blank_comments(input);
        assert_eq!(res, expect);
        assert_eq!(res.len(), input.len());
    }

    #[test]
    fn blanks_comments_keeping_positions() {
        check("a /* x\ny */ b", "a     \n     b");
        check("a // c\nb", "a     \nb");
        check("s = \"/* no */\"; // yes", "s = \"/* no */\";       ");
        check("c = '/'; /**/", "c = '/';     ");
        check("# 1 \"f.c\"\nint x;", "         \nint x;");
        check("x = a # b;", "x = a # b;");
        check("L: /* CIL Label */ ;", "L:                 ;");
    }

    #[test]
    fn directives_that_need_a_preprocessor() {
        use super::unprocessed_directive as first;
        assert_eq!(first("# 1 \"a.c\"\n#pragma pack(1)\n#line 3\n#\n#ident \"x\"\nint x;"), None);
        assert_eq!(first("int x;\n  #  include <assert.h>\n#define N 1\n"), Some((9, "include".into())));
        assert_eq!(first("/* #define N */ int x; // #if 0\n\"#if\";"), None);
        assert_eq!(first("#if 0\n#endif\n"), Some((0, "if".into())));
    }

    #[test]
    fn keeps_utf8_in_comments_valid() {
        let res = blank_comments("/* é */x");
        assert!(res.ends_with('x'));
    }
}
