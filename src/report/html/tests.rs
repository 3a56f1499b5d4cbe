//! Unit tests of the HTML report.

use super::*;

#[test]
fn line_ranges() {
    assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
    assert_eq!(ranges(&[]), "");
}

#[test]
fn every_line_number_of_a_note_is_a_link() {
    let href = |l: u32| format!("source-1.html#L{l}");
    let out = linkify(
        "3 line(s) undecided: 2 behind line 10614 in f (`[a < b]`), first at line 7: x; lines 3-5, 9 & more",
        &href,
    );
    assert_eq!(
        out,
        "3 line(s) undecided: 2 behind line <a class=\"line\" href=\"source-1.html#L10614\">10614</a> in f \
         (`[a &lt; b]`), first at line <a class=\"line\" href=\"source-1.html#L7\">7</a>: x; lines <a \
         class=\"line\" href=\"source-1.html#L3\">3</a>-<a class=\"line\" href=\"source-1.html#L5\">5</a>, <a \
         class=\"line\" href=\"source-1.html#L9\">9</a> &amp; more"
    );
}

#[test]
fn source_pages_split_before_functions() {
    use crate::coverage::result::FunctionInfo;
    let f = |name: &str, first, last| FunctionInfo { name: name.into(), first_line: first, last_line: last };
    let small = Layout::new(SOURCE_PAGE_LINES, &[]);
    assert!(small.inline && small.pages == [(1, SOURCE_PAGE_LINES as u32)]);
    assert_eq!(small.href(7), "#L7");
    let functions = [f("a", 1, 750), f("b", 751, 2000), f("c", 2001, 2050)];
    let big = Layout::new(2250, &functions);
    // `b` starts in the second half of the first page: the page ends before it; `b` itself is
    // longer than a page and is cut; the rest fits one page.
    assert_eq!(SOURCE_PAGE_LINES, 1000);
    assert_eq!(big.pages, [(1, 750), (751, 1750), (1751, 2250)]);
    assert_eq!(big.href(1800), "source-3.html#L1800");
    assert_eq!(big.href(750), "source-1.html#L750");
    assert_eq!(big.page_of(2250), 2);
    assert_eq!(shell_word("a b"), "'a b'");
    assert_eq!(shell_word("dir/program.c"), "dir/program.c");
}
