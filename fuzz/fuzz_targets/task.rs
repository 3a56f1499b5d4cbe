//! Fuzz target: the readers of `vcov verify` (task definitions `.yml`, property files `.prp`); the first
//! byte picks the reader (`P`: property, anything else: task).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    if kind == b'P' {
        let _ = vcov::verify::task::parse_property(text);
        let _ = vcov::verify::check_property(text);
    } else {
        let _ = vcov::verify::task::parse_task(Path::new("dir/task.yml"), text);
    }
});
