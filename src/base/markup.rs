//! Escaping text for XML and HTML, one function for every writer of markup.

/// How an apostrophe is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Apostrophe {
    /// `&apos;`, XML's entity (GraphML witnesses, Test-Comp files).
    Named,
    /// `&#39;`, which every HTML version reads (the HTML report and its SVG charts).
    Numeric,
}

/// `s` with `&`, `<`, `>`, `"` and `'` escaped, fit for element content and quoted attributes.
pub fn escape(s: &str, apostrophe: Apostrophe) -> String {
    let mut res = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => res.push_str("&amp;"),
            '<' => res.push_str("&lt;"),
            '>' => res.push_str("&gt;"),
            '"' => res.push_str("&quot;"),
            '\'' if apostrophe == Apostrophe::Named => res.push_str("&apos;"),
            '\'' => res.push_str("&#39;"),
            c => res.push(c),
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_special_character_is_escaped_and_apostrophes_as_asked() {
        let s = r#"a<b & "c" > 'd'"#;
        assert_eq!(escape(s, Apostrophe::Named), "a&lt;b &amp; &quot;c&quot; &gt; &apos;d&apos;");
        assert_eq!(escape(s, Apostrophe::Numeric), "a&lt;b &amp; &quot;c&quot; &gt; &#39;d&#39;");
        assert_eq!(escape("plain ü", Apostrophe::Named), "plain ü");
    }
}
