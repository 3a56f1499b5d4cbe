//! Fuzz target: a program and an automaton (split at the first line `//@@AUTOMATON@@`) through the
//! front end, the CFA builder, the product and the Reach scores, as `vcov scores` runs them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vcov::base::SourceFile;
use vcov::cfa::{self, CfaConfig, LineRule};
use vcov::cfront::{self, types::DataModel};
use vcov::coverage::Analysis;

const SEPARATOR: &str = "\n//@@AUTOMATON@@\n";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Some((program, automaton)) = text.split_once(SEPARATOR) else { return };
    let Ok((aut, _)) = vcov::automaton::parse(&SourceFile::new("fuzz.spc", automaton.to_string())) else { return };
    let Ok((mut prog, _)) = cfront::parse_program(SourceFile::new("fuzz.c", program.to_string()), DataModel::Ilp32)
    else {
        return;
    };
    let Ok((cfa, _)) = cfa::build(&mut prog, &CfaConfig::default()) else { return };
    let names = prog.funcs.iter().map(|f| f.name.clone()).collect();
    let analysis = Analysis::new(&aut, &cfa, names, LineRule::Spanned);
    let _ = analysis.product.nodes.len();
});
