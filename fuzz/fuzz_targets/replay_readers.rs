//! Fuzz target: the readers of `vcov replay` (Test-Comp `metadata.xml`, test cases, `vcov-claims.json`);
//! the first byte picks the reader (`M`, `T`, anything else: claims).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else { return };
    // `vcov replay` reads these files with `read_to_string`: they are UTF-8 or rejected before parsing.
    let Ok(text) = std::str::from_utf8(rest) else { return };
    match kind {
        b'M' => drop(vcov::evidence::read_metadata(text)),
        b'T' => drop(vcov::evidence::read_testcase(text)),
        _ => drop(vcov::evidence::read_claims(text)),
    }
});
