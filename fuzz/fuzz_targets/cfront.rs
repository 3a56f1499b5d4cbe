//! Fuzz target: the C front end and the CFA builder on arbitrary text (both data models).
#![no_main]

use libfuzzer_sys::fuzz_target;
use vcov::base::SourceFile;
use vcov::cfa::{self, CfaConfig};
use vcov::cfront::{self, types::DataModel};

fuzz_target!(|data: &[u8]| {
    let dm = if data.first().is_some_and(|b| b & 1 == 1) { DataModel::Lp64 } else { DataModel::Ilp32 };
    let text = String::from_utf8_lossy(data).into_owned();
    if let Ok((mut prog, _)) = cfront::parse_program(SourceFile::new("fuzz.c", text), dm) {
        let _ = cfa::build(&mut prog, &CfaConfig::default());
    }
});
