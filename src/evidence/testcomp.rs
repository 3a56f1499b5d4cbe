//! Test-Comp test suites (the exchange format of sosy-lab's `test-format`, version 1.1): writers for
//! `metadata.xml` and `testN.xml`, and readers for both.
//!
//! A test case lists the values of the nondeterministic calls of one execution in call order, each
//! as `<input variable="FUNCTION" type="C TYPE">VALUE</input>` with the value a C literal of the type.
//!
//! Invariant: `read_testcase(&testcase_xml(inputs, arch, e))` gives back the inputs, values
//! normalized to their type's range.

use super::ReadError;
use crate::base::fp;
use crate::cfront::types::{DataModel, IntRank, IntType};
use crate::coverage::result::InputValue;

/// The name of the metadata file of a suite.
pub const METADATA_FILE: &str = "metadata.xml";

const XML_DECL: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>"#;
const METADATA_DOCTYPE: &str = r#"<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN" "https://sosy-lab.org/test-format/test-metadata-1.1.dtd">"#;
const TESTCASE_DOCTYPE: &str = r#"<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" "https://sosy-lab.org/test-format/testcase-1.1.dtd">"#;

/// The contents of `metadata.xml`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteMetadata {
    /// Who wrote the suite, e.g. `vcov 0.1.0`.
    pub producer: String,
    /// The property or coverage criterion the suite is for, e.g.
    /// `CHECK( init(main()), LTL(G ! call(reach_error())) )`.
    pub specification: String,
    /// The program file, as given to vcov.
    pub program_file: String,
    /// SHA-256 of the program file, lowercase hex.
    pub program_hash: String,
    /// The function executions start in. [default: `main`]
    pub entry_function: String,
    /// `32bit` or `64bit`.
    pub architecture: DataModel,
    /// When the suite was written, ISO 8601 (`2024-05-01T12:00:00Z`).
    pub creation_time: String,
}

/// One test case as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCase {
    /// `coversError="true"`: the test is claimed to reach the property violation.
    pub covers_error: bool,
    /// The inputs in call order.
    pub inputs: Vec<TestInput>,
}

/// One `<input>` of a test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestInput {
    /// The `variable` attribute: for vcov the function whose call consumes the value.
    pub variable: Option<String>,
    /// The `type` attribute: the value's C type.
    pub c_type: Option<String>,
    /// The value.
    pub value: i128,
}

/// `metadata.xml` of a suite.
pub fn metadata_xml(meta: &SuiteMetadata) -> String {
    let mut res = format!("{XML_DECL}\n{METADATA_DOCTYPE}\n<test-metadata>\n");
    // The DTD fixes this order.
    for (tag, value) in [
        ("sourcecodelang", "C"),
        ("producer", &meta.producer),
        ("specification", &meta.specification),
        ("programfile", &meta.program_file),
        ("programhash", &meta.program_hash),
        ("entryfunction", &meta.entry_function),
        ("architecture", meta.architecture.architecture()),
        ("creationtime", &meta.creation_time),
    ] {
        res.push_str(&format!("  <{tag}>{}</{tag}>\n", crate::witness::xml_escape(value)));
    }
    res.push_str("</test-metadata>\n");
    res
}

/// `testN.xml` for an execution that consumed `inputs`; `covers_error` marks an execution that
/// violates the property.
pub fn testcase_xml(inputs: &[InputValue], arch: DataModel, covers_error: bool) -> String {
    let mut res = format!("{XML_DECL}\n{TESTCASE_DOCTYPE}\n");
    res.push_str(if covers_error { "<testcase coversError=\"true\">\n" } else { "<testcase>\n" });
    for inp in inputs {
        res.push_str(&format!(
            "  <input variable=\"{}\" type=\"{}\">{}</input>\n",
            crate::witness::xml_escape(&inp.function),
            crate::witness::xml_escape(&inp.c_type),
            c_literal(inp.value, &inp.c_type, arch)
        ));
    }
    res.push_str("</testcase>\n");
    res
}

/// The file name of the test case of execution `id`: `test{id}.xml`.
pub fn test_file_name(id: usize) -> String {
    format!("test{id}.xml")
}

/// The Test-Comp specification of a suite of coverage tests.
pub const COVERAGE_SPEC: &str = "COVER( init(main()), FQL(COVER EDGES(@BASICBLOCKENTRY)) )";
/// The Test-Comp specification of a suite that shows a call of `reach_error`.
pub const BUG_SPEC: &str = "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )";

/// Whether a value is the answer of a `__VERIFIER_nondet_*` call: the only inputs a Test-Comp test
/// holds (a Test-Comp harness hands the values, in order, to those calls).
pub fn is_testcomp_input(function: &str) -> bool {
    function.starts_with("__VERIFIER_nondet_")
}

pub use crate::coverage::result::UNINITIALIZED;

/// `value` as a C literal of `c_type`: wrapped into the type's range when vcov knows the type
/// (`-1` of `unsigned int` is `4294967295`, pointers are unsigned integers), in decimal.
/// A `float` or `double` value (its bits) is written exactly, as a hexadecimal floating constant
/// (`0x1.8p+1`; `NAN`, `-INFINITY` for the special values).
pub fn c_literal(value: i128, c_type: &str, arch: DataModel) -> String {
    if let Some(f) = float_format_of(c_type) {
        return fp::hex_literal(f, value as u128 & ((1u128 << f.bits()) - 1));
    }
    match int_type_of(c_type, arch) {
        Some(it) => it.wrap(value, arch).to_string(),
        None => value.to_string(),
    }
}

/// The IEEE format of a Test-Comp `type` attribute that names `float` or `double`.
pub(crate) fn float_format_of(c_type: &str) -> Option<fp::Format> {
    let words: Vec<&str> = c_type.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile")).collect();
    match words.as_slice() {
        ["float"] => Some(fp::Format::Single),
        ["double"] => Some(fp::Format::Double),
        _ => None,
    }
}

/// Reads a floating value of format `f` as test cases write it: a decimal or hexadecimal constant
/// with an optional sign and `f`/`F` suffix, or `NAN`, `INFINITY`, `INF` in either case with a sign
/// (a NaN is the quiet one with payload zero); its bits.
pub fn parse_float_literal(text: &str, f: fp::Format) -> Option<i128> {
    let s = text.trim();
    let (sign, body) = match s.strip_prefix('-') {
        Some(rest) => (f.sign_mask(), rest.trim_start()),
        None => (0, s.strip_prefix('+').unwrap_or(s).trim_start()),
    };
    let special = match body.to_ascii_lowercase().as_str() {
        "nan" => Some(f.exponent_mask() | f.quiet_bit()),
        "inf" | "infinity" => Some(f.infinity()),
        _ => None,
    };
    let magnitude = match special {
        Some(v) => v,
        None => {
            // An `f` ends a decimal constant or the exponent of a hexadecimal one (`0x1.fp+3f`).
            let hex = body.starts_with("0x") || body.starts_with("0X");
            let suffixed = !hex || body.contains(['p', 'P']);
            let digits = body.strip_suffix(['f', 'F']).filter(|_| suffixed).unwrap_or(body);
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit() || ".xXpP+-".contains(c)) {
                return None;
            }
            fp::parse(f, digits)?
        }
    };
    Some((sign | magnitude) as i128)
}

/// The integer type a Test-Comp `type` attribute names: C's integer types in any spelling, `_Bool`,
/// pointers (as unsigned integers of pointer width), and the common typedefs (`size_t`, `u32`,
/// `int64_t`, ...). `None` for anything else (floats, records, unknown typedefs).
pub(crate) fn int_type_of(c_type: &str, dm: DataModel) -> Option<IntType> {
    let ptr = IntType { rank: if dm == DataModel::Lp64 { IntRank::Long } else { IntRank::Int }, signed: false };
    if c_type.contains('*') {
        return Some(ptr);
    }
    let words: Vec<&str> =
        c_type.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile" | "restrict")).collect();
    let it = |rank, signed| Some(IntType { rank, signed });
    match words.as_slice() {
        ["_Bool" | "bool"] => Some(IntType::BOOL),
        ["size_t" | "uintptr_t" | "__kernel_size_t"] => Some(ptr),
        ["ssize_t" | "ptrdiff_t" | "intptr_t" | "__kernel_ssize_t"] => Some(IntType { signed: true, ..ptr }),
        ["u8" | "__u8" | "uint8_t" | "uchar"] => it(IntRank::Char, false),
        ["s8" | "__s8" | "int8_t"] => it(IntRank::Char, true),
        ["u16" | "__u16" | "uint16_t" | "ushort"] => it(IntRank::Short, false),
        ["s16" | "__s16" | "int16_t"] => it(IntRank::Short, true),
        ["u32" | "__u32" | "uint32_t" | "uint"] => it(IntRank::Int, false),
        ["s32" | "__s32" | "int32_t"] => it(IntRank::Int, true),
        ["u64" | "__u64" | "uint64_t" | "ulonglong"] => it(IntRank::LongLong, false),
        ["s64" | "__s64" | "int64_t" | "loff_t"] => it(IntRank::LongLong, true),
        ["ulong"] => it(IntRank::Long, false),
        _ => {
            // Keyword spellings in any order: `unsigned long int`, `long unsigned`, `signed char`.
            let mut signed = None;
            let (mut longs, mut short, mut char_, mut int) = (0, false, false, false);
            for w in &words {
                match *w {
                    "unsigned" => signed = Some(false),
                    "signed" | "__signed__" => signed = Some(true),
                    "long" => longs += 1,
                    "short" => short = true,
                    "char" => char_ = true,
                    "int" => int = true,
                    _ => return None,
                }
            }
            let rank = match (char_, short, longs) {
                (true, false, 0) if !int => IntRank::Char,
                (false, true, 0) => IntRank::Short,
                (false, false, 0) if int || signed.is_some() => IntRank::Int,
                (false, false, 1) => IntRank::Long,
                (false, false, 2) => IntRank::LongLong,
                _ => return None,
            };
            it(rank, signed.unwrap_or(true))
        }
    }
}

/// Reads a C integer literal as test cases write them: decimal, `0x` hex, `0` octal or `0b` binary,
/// with an optional sign and `u`/`l` suffixes, or a character literal (`'a'`, `'\n'`, `'\x41'`).
pub fn parse_c_literal(text: &str) -> Option<i128> {
    let s = text.trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, s.strip_prefix('+').unwrap_or(s).trim_start()),
    };
    let magnitude = if let Some(body) = s.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        char_literal(body)?
    } else {
        let digits = s.trim_end_matches(['u', 'U', 'l', 'L']);
        let (radix, digits) = if let Some(h) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
            (16, h)
        } else if let Some(b) = digits.strip_prefix("0b").or_else(|| digits.strip_prefix("0B")) {
            (2, b)
        } else if digits.len() > 1 && digits.starts_with('0') {
            (8, &digits[1..])
        } else {
            (10, digits)
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        u128::from_str_radix(digits, radix).ok().and_then(|v| i128::try_from(v).ok())?
    };
    Some(if neg { -magnitude } else { magnitude })
}

fn char_literal(body: &str) -> Option<i128> {
    let mut chars = body.chars();
    let c = chars.next()?;
    if c != '\\' {
        return if chars.next().is_none() { Some(c as i128) } else { None };
    }
    let rest: String = chars.collect();
    let simple = match rest.as_str() {
        "n" => Some(10),
        "t" => Some(9),
        "r" => Some(13),
        "0" => Some(0),
        "\\" => Some(92),
        "'" => Some(39),
        "\"" => Some(34),
        "a" => Some(7),
        "b" => Some(8),
        "f" => Some(12),
        "v" => Some(11),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    if let Some(h) = rest.strip_prefix('x') {
        return i128::from_str_radix(h, 16).ok();
    }
    i128::from_str_radix(&rest, 8).ok()
}

/// Reads `metadata.xml`.
pub fn read_metadata(text: &str) -> Result<SuiteMetadata, ReadError> {
    let doc = parse_xml(text)?;
    let root = doc.root_element();
    if root.tag_name().name() != "test-metadata" {
        return Err(at(&doc, root, format!("expected <test-metadata>, found <{}>", root.tag_name().name())));
    }
    let field = |tag: &str| -> Option<String> {
        root.children().find(|n| n.is_element() && n.tag_name().name() == tag).map(|n| text_of(n).trim().to_string())
    };
    let required = |tag: &str| field(tag).ok_or_else(|| at(&doc, root, format!("<{tag}> is missing")));
    let arch_text = required("architecture")?;
    let architecture = DataModel::from_architecture(&arch_text)
        .ok_or_else(|| at(&doc, root, format!("unknown architecture `{arch_text}` (expected `32bit` or `64bit`)")))?;
    Ok(SuiteMetadata {
        producer: field("producer").unwrap_or_default(),
        specification: field("specification").unwrap_or_default(),
        program_file: field("programfile").unwrap_or_default(),
        program_hash: field("programhash").unwrap_or_default(),
        entry_function: field("entryfunction").unwrap_or_else(|| "main".into()),
        architecture,
        creation_time: field("creationtime").unwrap_or_default(),
    })
}

/// Reads a test case (`<testcase>` with `<input>` children).
pub fn read_testcase(text: &str) -> Result<TestCase, ReadError> {
    let doc = parse_xml(text)?;
    let root = doc.root_element();
    if root.tag_name().name() != "testcase" {
        return Err(at(&doc, root, format!("expected <testcase>, found <{}>", root.tag_name().name())));
    }
    let covers_error = match root.attribute("coversError") {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(at(&doc, root, format!("coversError must be true or false, not `{other}`"))),
    };
    let mut inputs = Vec::new();
    for n in root.children().filter(|n| n.is_element()) {
        if n.tag_name().name() != "input" {
            return Err(at(&doc, n, format!("unexpected <{}> in <testcase>", n.tag_name().name())));
        }
        let raw = text_of(n);
        let attr = |name: &str| n.attribute(name).filter(|v| !v.is_empty()).map(str::to_string);
        let value = match attr("type").as_deref().and_then(float_format_of) {
            Some(f) => parse_float_literal(&raw, f)
                .ok_or_else(|| at(&doc, n, format!("`{}` is not a {} literal", raw.trim(), f.name())))?,
            None => parse_c_literal(&raw)
                .ok_or_else(|| at(&doc, n, format!("`{}` is not an integer literal", raw.trim())))?,
        };
        inputs.push(TestInput { variable: attr("variable"), c_type: attr("type"), value });
    }
    Ok(TestCase { covers_error, inputs })
}

fn parse_xml(text: &str) -> Result<roxmltree::Document<'_>, ReadError> {
    // Test-Comp files carry a DOCTYPE with an external DTD; roxmltree refuses DTDs unless allowed
    // (it never fetches the external one).
    let opt = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    roxmltree::Document::parse_with_options(text, opt).map_err(|e| {
        let (row, col) = match e {
            // roxmltree reports these at 1:1; the problem is where the text ends.
            roxmltree::Error::UnexpectedEndOfStream | roxmltree::Error::UnclosedRootNode => end_position(text),
            _ => (e.pos().row, e.pos().col),
        };
        ReadError::at(row, col, format!("not well-formed XML: {e}"))
    })
}

/// The 1-based line and column just after the last character of `text`.
fn end_position(text: &str) -> (u32, u32) {
    let last_line = text.rsplit('\n').next().unwrap_or_default();
    (text.matches('\n').count() as u32 + 1, last_line.chars().count() as u32 + 1)
}

fn text_of(n: roxmltree::Node) -> String {
    n.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect()
}

fn at(doc: &roxmltree::Document, n: roxmltree::Node, message: String) -> ReadError {
    let pos = doc.text_pos_at(n.range().start);
    ReadError::at(pos.row, pos.col, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_xml_is_reported_where_it_ends() {
        let e = read_testcase("<?xml version=\"1.0\"?>\n<testcase>\n  <input>1</input>\n  <inp").unwrap_err();
        assert_eq!((e.line, e.col), (4, 7), "{e}");
        let e = read_testcase("<?xml version=\"1.0\"?>\n<testcase>\n  <input>1</input>\n").unwrap_err();
        assert_eq!(
            (e.line, e.col, e.message.as_str()),
            (4, 1, "not well-formed XML: the root node was opened but never closed")
        );
    }

    fn input(function: &str, c_type: &str, value: i128) -> InputValue {
        InputValue { function: function.into(), c_type: c_type.into(), value }
    }

    fn meta() -> SuiteMetadata {
        SuiteMetadata {
            producer: "vcov 0.1.0".into(),
            specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )".into(),
            program_file: "dir/a&b.c".into(),
            program_hash: crate::witness::sha256_hex(b"abc"),
            entry_function: "main".into(),
            architecture: DataModel::Lp64,
            creation_time: "2024-05-01T12:00:00Z".into(),
        }
    }

    #[test]
    fn testcase_is_written_as_the_format_specifies() {
        let xml = testcase_xml(
            &[input("__VERIFIER_nondet_int", "int", -5), input("__VERIFIER_nondet_uint", "unsigned int", -1)],
            DataModel::Ilp32,
            false,
        );
        assert_eq!(
            xml,
            r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" "https://sosy-lab.org/test-format/testcase-1.1.dtd">
<testcase>
  <input variable="__VERIFIER_nondet_int" type="int">-5</input>
  <input variable="__VERIFIER_nondet_uint" type="unsigned int">4294967295</input>
</testcase>
"#
        );
    }

    #[test]
    fn testcase_round_trips() {
        let inputs = vec![
            input("__VERIFIER_nondet_char", "char", 200),
            input("__VERIFIER_nondet_ulong", "unsigned long", -1),
            input("__VERIFIER_nondet_pointer", "void *", 1),
            input("get<T>", "struct s", 7),
            input("__VERIFIER_nondet_bool", "_Bool", 5),
            input("f", "long long", i64::MIN as i128),
        ];
        let back = read_testcase(&testcase_xml(&inputs, DataModel::Ilp32, true)).unwrap();
        assert!(back.covers_error);
        let values: Vec<i128> = back.inputs.iter().map(|i| i.value).collect();
        assert_eq!(values, vec![-56, 4294967295, 1, 7, 1, i64::MIN as i128]);
        assert_eq!(back.inputs[3].variable.as_deref(), Some("get<T>"));
        assert_eq!(back.inputs[1].c_type.as_deref(), Some("unsigned long"));
    }

    #[test]
    fn metadata_round_trips_in_dtd_order() {
        let xml = metadata_xml(&meta());
        let order: Vec<usize> = ["<sourcecodelang>", "<producer>", "<specification>", "<programfile>", "<programhash>"]
            .iter()
            .chain(&["<entryfunction>", "<architecture>", "<creationtime>"])
            .map(|t| xml.find(t).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{xml}");
        assert!(xml.contains("<programfile>dir/a&amp;b.c</programfile>"));
        assert_eq!(read_metadata(&xml).unwrap(), meta());
    }

    #[test]
    fn readers_accept_other_tools_suites() {
        let tc = read_testcase(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE testcase SYSTEM \"testcase.dtd\">\n<testcase>\n<input>0x1F</input>\n\
             <!-- c --><input type=\"char\">'a'</input><input> -3U </input></testcase>",
        )
        .unwrap();
        let values: Vec<i128> = tc.inputs.iter().map(|i| i.value).collect();
        assert_eq!(values, vec![31, 97, -3]);
        assert_eq!(tc.inputs[0].variable, None);
    }

    #[test]
    fn readers_report_positions() {
        let err = read_testcase("<testcase>\n  <input>x1</input>\n</testcase>").unwrap_err();
        assert_eq!(err.to_string(), "2:3: `x1` is not an integer literal");
        let err = read_testcase("<testcase>\n<input>1</testcase>").unwrap_err();
        assert!(err.to_string().starts_with("2:"), "{err}");
        let err = read_metadata("<test-metadata><architecture>16bit</architecture></test-metadata>").unwrap_err();
        assert!(err.message.contains("16bit"), "{err}");
    }

    #[test]
    fn literals() {
        for (text, v) in [
            ("42", 42),
            ("-2147483648", -2147483648),
            ("18446744073709551615ULL", 18446744073709551615),
            ("0x10", 16),
            ("010", 8),
            ("0", 0),
            ("'\\n'", 10),
            ("'\\x41'", 65),
            ("'\\0'", 0),
        ] {
            assert_eq!(parse_c_literal(text), Some(v), "{text}");
        }
        for bad in ["", "-", "1.5", "abc", "0x", "'ab'"] {
            assert_eq!(parse_c_literal(bad), None, "{bad}");
        }
    }

    #[test]
    fn c_types_are_recognized() {
        let dm = DataModel::Ilp32;
        let bits = |t: &str| int_type_of(t, dm).map(|it| (it.bits(dm), it.signed));
        assert_eq!(bits("unsigned long int"), Some((32, false)));
        assert_eq!(bits("long unsigned"), Some((32, false)));
        assert_eq!(bits("const signed char"), Some((8, true)));
        assert_eq!(bits("unsigned"), Some((32, false)));
        assert_eq!(bits("long long"), Some((64, true)));
        assert_eq!(bits("struct s *"), Some((32, false)));
        assert_eq!(bits("u64"), Some((64, false)));
        assert_eq!(bits("double"), None);
        assert_eq!(bits("struct s"), None);
        assert_eq!(c_literal(-1, "unsigned long", DataModel::Lp64), "18446744073709551615");
        assert_eq!(c_literal(-1, "my_typedef", DataModel::Lp64), "-1");
        assert_eq!(c_literal(2, "bool", DataModel::Lp64), "1");
    }
}
