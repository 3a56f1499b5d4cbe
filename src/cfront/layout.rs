//! Record-layout directives `lang_c` does not see, read from the text before parsing: `#pragma pack`
//! lines (blanked with the other directives) and `_Pragma("pack(..)")` operators (blanked here, as
//! every `_Pragma`), and attributes between `struct`/`union` and the tag or
//! body (`struct __attribute__((packed)) S {..}`, which `lang_c` rejects; they are blanked here).
//!
//! Invariant: blanking replaces ASCII bytes by spaces, so every byte offset stays valid.

use rustc_hash::FxHashMap as HashMap;

use crate::base::Span;

/// `#pragma pack` states by position and the attributes blanked after `struct`/`union` keywords.
#[derive(Debug, Default)]
pub(super) struct LayoutHints {
    /// `(offset of a pack directive, maximum member alignment from there on)`, in source order.
    pack: Vec<(u32, Option<u64>)>,
    /// Attributes written between a `struct`/`union` keyword and its tag or body, by the keyword's
    /// offset.
    after_keyword: HashMap<u32, KeywordAttrs>,
    /// Directives and attributes that were not understood (ignored, as gcc ignores unknown pragmas).
    pub warnings: Vec<(Span, String)>,
}

/// `packed` and `aligned(n)` as written in one attribute list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct KeywordAttrs {
    pub packed: bool,
    pub aligned: Option<u64>,
}

impl LayoutHints {
    /// The maximum member alignment `#pragma pack` sets at byte `offset` (`None`: natural layout).
    pub(super) fn pack_at(&self, offset: u32) -> Option<u64> {
        let n = self.pack.partition_point(|&(at, _)| at < offset);
        n.checked_sub(1).and_then(|i| self.pack[i].1)
    }

    /// The attributes blanked after the `struct`/`union` keyword at `offset`.
    pub(super) fn after_keyword(&self, offset: u32) -> KeywordAttrs {
        self.after_keyword.get(&offset).copied().unwrap_or_default()
    }
}

/// Reads the pack directives among `directives` (byte ranges in `src`) and blanks the attributes
/// after `struct`/`union` keywords in `blanked` (the text with comments and directives blanked).
/// `_Pragma("...")` operators are read as the `#pragma` lines they stand for, in order with the
/// directives, and blanked too.
pub(super) fn extract(src: &str, blanked: String, directives: &[(usize, usize)]) -> (String, LayoutHints) {
    let mut hints = LayoutHints::default();
    let mut current: Option<u64> = None;
    let mut stack: Vec<(Option<String>, Option<u64>)> = Vec::new();
    let mut out = blanked.into_bytes();
    let mut all: Vec<(usize, usize, String)> =
        directives.iter().map(|&(lo, hi)| (lo, hi, src[lo..hi].replace("\\\n", " "))).collect();
    all.extend(blank_pragma_operators(&mut out));
    all.sort_by_key(|d| d.0);
    for (lo, hi, text) in &all {
        let Some(args) = pack_arguments(text) else { continue };
        let span = Span::new(*lo, *hi);
        match pack_step(&args, &mut current, &mut stack) {
            Ok(()) => hints.pack.push((*lo as u32, current)),
            Err(msg) => hints.warnings.push((span, msg)),
        }
    }
    blank_keyword_attributes(&mut out, &mut hints);
    // Only ASCII bytes were replaced by ASCII spaces.
    let text = String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (text, hints)
}

/// The arguments of `#pragma pack(ARGS)`, split at commas and trimmed; `None` for other directives.
fn pack_arguments(directive: &str) -> Option<Vec<String>> {
    let rest = directive.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("pragma")?;
    if !rest.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let rest = rest.trim_start().strip_prefix("pack")?.trim_start();
    let inner = rest.strip_prefix('(')?;
    let inner = &inner[..inner.find(')')?];
    if inner.trim().is_empty() {
        return Some(vec![]);
    }
    Some(inner.split(',').map(|a| a.trim().to_string()).collect())
}

/// One `#pragma pack` as gcc reads it: `pack(n)`, `pack()`, `pack(push[, id][, n])`,
/// `pack(pop[, id][, n])`.
fn pack_step(
    args: &[String],
    current: &mut Option<u64>,
    stack: &mut Vec<(Option<String>, Option<u64>)>,
) -> Result<(), String> {
    let value = |a: &str| -> Result<u64, String> {
        match parse_int(a) {
            Some(n @ (1 | 2 | 4 | 8 | 16)) => Ok(n),
            _ => Err(format!("#pragma pack: alignment must be 1, 2, 4, 8 or 16, not '{a}'; ignored")),
        }
    };
    match args.first().map(String::as_str) {
        None => *current = None,
        Some("push") => {
            let (id, n) = match &args[1..] {
                [] => (None, None),
                [a] if parse_int(a).is_some() => (None, Some(value(a)?)),
                [id] => (Some(id.clone()), None),
                [id, a] => (Some(id.clone()), Some(value(a)?)),
                _ => return Err("#pragma pack(push, ...): too many arguments; ignored".into()),
            };
            stack.push((id, *current));
            if let Some(n) = n {
                *current = Some(n);
            }
        }
        Some("pop") => {
            let (id, n) = match &args[1..] {
                [] => (None, None),
                [a] if parse_int(a).is_some() => (None, Some(value(a)?)),
                [id] => (Some(id.as_str()), None),
                [id, a] => (Some(id.as_str()), Some(value(a)?)),
                _ => return Err("#pragma pack(pop, ...): too many arguments; ignored".into()),
            };
            match id {
                // gcc pops up to and including the entry pushed with that identifier.
                Some(id) if stack.iter().any(|(i, _)| i.as_deref() == Some(id)) => {
                    while let Some((i, v)) = stack.pop() {
                        *current = v;
                        if i.as_deref() == Some(id) {
                            break;
                        }
                    }
                }
                Some(id) => return Err(format!("#pragma pack(pop, {id}): no such push; ignored")),
                None => match stack.pop() {
                    Some((_, v)) => *current = v,
                    None => return Err("#pragma pack(pop) without a push; ignored".into()),
                },
            }
            if let Some(n) = n {
                *current = Some(n);
            }
        }
        Some("show") => {}
        Some(a) if args.len() == 1 => *current = Some(value(a)?),
        Some(_) => return Err("#pragma pack: arguments not understood; ignored".into()),
    }
    Ok(())
}

/// A decimal, octal or hexadecimal integer literal with optional suffixes.
fn parse_int(text: &str) -> Option<u64> {
    let t = text.trim().trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if t.len() > 1 && t.starts_with('0') {
        u64::from_str_radix(&t[1..], 8).ok()
    } else {
        t.parse().ok()
    }
}

/// Blanks every `_Pragma("...")` operator (C99 6.10.9) and returns each as the directive it stands
/// for: its byte range and `#pragma ...` with the string literal destringized.
fn blank_pragma_operators(b: &mut [u8]) -> Vec<(usize, usize, String)> {
    let mut res = Vec::new();
    let mut i = 0;
    while let Some((start, end)) = next_word(b, i) {
        i = end;
        if &b[start..end] != b"_Pragma" {
            continue;
        }
        let open = skip_space(b, i);
        let Some(close) = matching_paren(b, open) else { continue };
        let inner = String::from_utf8_lossy(&b[open + 1..close - 1]).into_owned();
        let inner = inner.trim();
        let Some(literal) = inner.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else { continue };
        let text = format!("#pragma {}", literal.replace("\\\"", "\"").replace("\\\\", "\\"));
        res.push((start, close, text));
        blank(&mut b[start..close]);
        i = close;
    }
    res
}

/// Blanks every `__attribute__((..))` that follows a `struct`/`union` keyword (before the tag or
/// body) and records its `packed`/`aligned` at the keyword.
fn blank_keyword_attributes(b: &mut [u8], hints: &mut LayoutHints) {
    let mut i = 0;
    while let Some((start, end)) = next_word(b, i) {
        i = end;
        if !matches!(&b[start..end], b"struct" | b"union") {
            continue;
        }
        let mut attrs = KeywordAttrs::default();
        let mut found = false;
        let mut j = skip_space(b, end);
        loop {
            let word_end = if j < b.len() && is_ident_start(b[j]) { ident_end(b, j) } else { j };
            if !matches!(&b[j..word_end], b"__attribute__" | b"__attribute") {
                break;
            }
            let open = skip_space(b, word_end);
            let Some(close) = matching_paren(b, open) else { break };
            let list = String::from_utf8_lossy(&b[open..close]).into_owned();
            match read_attribute_list(&list) {
                Ok((packed, aligned)) => {
                    attrs.packed |= packed;
                    attrs.aligned = attrs.aligned.max(aligned);
                }
                Err(msg) => hints.warnings.push((Span::new(j, close), msg)),
            }
            blank(&mut b[j..close]);
            found = true;
            j = skip_space(b, close);
        }
        if found {
            hints.after_keyword.insert(start as u32, attrs);
        }
    }
}

/// `packed` and the largest `aligned(n)` of `((list))` (the text from the first `(` to after the last
/// `)`); other attributes are ignored, as the parser ignores them elsewhere.
fn read_attribute_list(text: &str) -> Result<(bool, Option<u64>), String> {
    let inner = text.trim().strip_prefix("((").and_then(|t| t.strip_suffix("))")).unwrap_or("");
    let (mut packed, mut aligned) = (false, None);
    let mut depth = 0;
    let mut item = String::new();
    let mut items = Vec::new();
    for ch in inner.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(ch);
    }
    items.push(item);
    for item in items {
        let item = item.trim();
        let (name, args) = match item.find('(') {
            Some(p) => (item[..p].trim(), Some(item[p + 1..].trim_end().trim_end_matches(')'))),
            None => (item, None),
        };
        match (name.trim_matches('_'), args) {
            ("packed", _) => packed = true,
            // gcc's largest alignment on x86 (`__BIGGEST_ALIGNMENT__`, without AVX).
            ("aligned", None) => aligned = aligned.max(Some(16)),
            ("aligned", Some(a)) => match parse_int(a) {
                Some(n) if n.is_power_of_two() => aligned = aligned.max(Some(n)),
                _ => return Err(format!("attribute aligned({a}) not understood; ignored")),
            },
            _ => {}
        }
    }
    Ok((packed, aligned))
}

/// The byte range of the first whole identifier at or after `i` outside string and character
/// literals (`i` at a literal's quote or at the start of a word).
fn next_word(b: &[u8], mut i: usize) -> Option<(usize, usize)> {
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i = skip_literal(b, i);
        } else if !is_ident_start(c) {
            i += 1;
        } else {
            let start = i;
            i = ident_end(b, i);
            if start == 0 || !is_ident_char(b[start - 1]) {
                return Some((start, i));
            }
        }
    }
    None
}

/// Blanks `b` but its line ends, so that every offset keeps its line and column.
fn blank(b: &mut [u8]) {
    for byte in b.iter_mut().filter(|c| **c != b'\n') {
        *byte = b' ';
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ident_char(b[i]) {
        i += 1;
    }
    i
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn skip_literal(b: &[u8], mut i: usize) -> usize {
    let q = b[i];
    i += 1;
    while i < b.len() && b[i] != q && b[i] != b'\n' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    i + 1
}

/// One past the `)` that closes the `(` at `open`.
fn matching_paren(b: &[u8], open: usize) -> Option<usize> {
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let mut depth = 0;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' | b'\'' => {
                i = skip_literal(b, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_pack(src: &str, at: &[(&str, Option<u64>)]) {
        let mut directives = Vec::new();
        let blanked = super::super::comments::blank_comments_and_list_directives(src, &mut directives);
        let (_, hints) = extract(src, blanked, &directives);
        for &(marker, expect) in at {
            let offset = src.find(marker).unwrap() as u32;
            assert_eq!(hints.pack_at(offset), expect, "at {marker}");
        }
    }

    #[test]
    fn pack_directives_follow_gccs_stack() {
        let src = "struct A;\n#pragma pack(push, 2)\nstruct B;\n#pragma pack(push)\n#pragma pack(1)\nstruct C;\n\
                   #pragma pack(pop)\nstruct D;\n#pragma  pack ( pop )\nstruct E;\n#pragma pack(4)\nstruct F;\n\
                   #pragma pack()\nstruct G;\n/*\n#pragma pack(1)\n*/ struct H;\n#pragma pack(push, r, 8)\n\
                   #pragma pack(push, 1)\nstruct I;\n#pragma pack(pop, r)\nstruct J;\n#pragma pack(3)\nstruct K;\n";
        check_pack(
            src,
            &[
                ("struct A", None),
                ("struct B", Some(2)),
                ("struct C", Some(1)),
                ("struct D", Some(2)),
                ("struct E", None),
                ("struct F", Some(4)),
                ("struct G", None),
                ("struct H", None),
                ("struct I", Some(1)),
                ("struct J", None),
                ("struct K", None),
            ],
        );
    }

    #[test]
    fn pragma_operators_are_directives_in_order() {
        let src = "struct A;\n_Pragma(\"pack(push, 1)\") struct B;\n#pragma pack(2)\nstruct C;\n\
                   _Pragma ( \"pack(pop)\" )\nstruct D;\n_Pragma(\"GCC diagnostic push\")\nchar *s = \"_Pragma(\\\"pack(1)\\\")\";\n\
                   struct E;\n";
        check_pack(
            src,
            &[("struct A", None), ("struct B", Some(1)), ("struct C", Some(2)), ("struct D", None), ("struct E", None)],
        );
        let mut directives = Vec::new();
        let blanked = super::super::comments::blank_comments_and_list_directives(src, &mut directives);
        let (text, _) = extract(src, blanked, &directives);
        assert_eq!(text.len(), src.len());
        assert!(!text.contains("_Pragma(\"pack") && !text.contains("GCC diagnostic"), "{text}");
        assert!(text.contains("char *s = \"_Pragma(\\\"pack(1)\\\")\";"), "a string literal stays: {text}");
    }

    #[test]
    fn attributes_after_the_keyword_are_blanked_and_kept() {
        let src = "struct __attribute__((packed)) S { char c; };\nunion __attribute((aligned(8), unused)) \
                   __attribute__((__packed__)) { int i; } u;\nchar *s = \"struct __attribute__((packed))\";";
        let (text, hints) = extract(src, src.to_string(), &[]);
        assert_eq!(text.len(), src.len());
        assert!(text.starts_with("struct ") && text[7..].trim_start().starts_with("S { char c; };"), "{text}");
        let u = src.find("union").unwrap();
        assert!(text[u + 5..].trim_start().starts_with("{ int i; } u;"), "{text}");
        assert!(text.ends_with("\"struct __attribute__((packed))\";"));
        assert_eq!(hints.after_keyword(0), KeywordAttrs { packed: true, aligned: None });
        assert_eq!(hints.after_keyword(u as u32), KeywordAttrs { packed: true, aligned: Some(8) });
    }
}
