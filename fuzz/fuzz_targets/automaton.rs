//! Fuzz target: the automaton parser (`automaton::parse_all`) on arbitrary text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vcov::base::SourceFile;

fuzz_target!(|data: &[u8]| {
    // The driver reads files leniently (invalid UTF-8 becomes U+FFFD), so the parser sees any text.
    let text = String::from_utf8_lossy(data).into_owned();
    let _ = vcov::automaton::parse_all(&SourceFile::new("fuzz.spc", text));
});
