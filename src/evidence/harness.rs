//! The C harness of `vcov replay`: definitions of every function the program declares but does not
//! define, fed from the inputs of a test case, plus the bookkeeping that tells how the run ended.
//!
//! The harness is its own translation unit, linked with the program compiled under
//! `gcc --coverage`. Each function without body is classified (`StubKind`):
//! - *fed*: `__VERIFIER_nondet_*` and every other function without body, output and string functions
//!   included. The stub has the program's declared signature (rendered from the IR types; records
//!   get definitions where needed by value) and returns the next input, as vcov's executor treats
//!   the result of such a call as an input, used or not. A `void` function consumes nothing. Pointer
//!   results: input 0 is the null pointer, anything else fresh zeroed memory (the executor models an
//!   unknown pointer as null or fresh memory). Floating-point and record results take the bytes of
//!   the input, as the executor does. When the claims say which fresh memory the input chose
//!   (`memory`), the block is that memory, filled as below.
//! - *violation*: `reach_error`, `__VERIFIER_error`, `__assert_fail`, `__assert_rtn`, `__assert`,
//!   `__assert_perror_fail` record a violation and exit.
//! - *assume*: `__VERIFIER_assume(c)` exits quietly when `c` is false.
//! - *noop*: `__VERIFIER_atomic_begin`, `__VERIFIER_atomic_end`.
//! - *libc*: the functions vcov's executor models exactly (`libmodels`) and the C library has under
//!   that name are taken from it: `malloc`, `calloc`, `free`, `memset`, `memcpy`, `memmove`, `abort`,
//!   `exit`, `_exit`, `_Exit` (plus `syscall`, which the harness itself uses), and the functions
//!   vcov models by C code of its own or as `math.h` (`strlen`, `realloc`, `sqrt`, ...), whose
//!   models agree with glibc's. Inputs a test case holds for them are skipped.
//! - *model*: other modelled functions are implemented by the harness as the model says (`alloca`
//!   and `valloc` allocate, the kernel's `__memcpy` copies, `expect` returns its argument, `trap`
//!   aborts). Every other function (`sprintf`, an unknown function) is fed: the
//!   executor gives its result as an input too.
//! - *builtin*: `__builtin_*`, `__sync_*`, `__atomic_*` are gcc's.
//!
//! Stubs are named `vcov_stub_NAME`, and the program's object file has its references renamed to
//! them (`objcopy --redefine-syms`, `Harness::renames`): a stub of `strlen` or `snprintf` serves the
//! program without replacing the C library's function for libgcov and libc themselves. Variables
//! the program declares `extern` without definition are defined weak, so a definition the program
//! has after all (an `alias` attribute on a declaration, which the IR does not show) wins. Functions only inline assembly calls (`call
//! __put_user_4` in kernel code) get stubs that end the run as unsupported.
//!
//! `exit`, `_exit`, `_Exit` and `abort` are wrapped (`ld --wrap`) to tell an `exit()` from a return
//! of `main` and to write the coverage data before `abort`. The harness does its own IO with raw
//! system calls (through `syscall`), so stubs named like C library functions cannot disturb it.
//!
//! Memory the execution read before writing it (the executor's uninitialized bytes and fresh memory
//! behind unknown pointers, `coverage::result::MemoryFact`) is rebuilt from the file named by
//! `VCOV_REPLAY_MEMORY` (`memory_file`): fresh memory is a block of a static arena, pointed to where
//! the executor points into it (the middle, so `container_of` stays inside), holding the bytes the
//! execution read at the offsets it read them and, for pointers it read, null, further fresh
//! blocks or addresses in the same block (under LP64 possibly plus 2^63, as the executor's
//! `symex::memory::Layout::wild_bit` says); the locals whose bytes were read are filled right
//! after their declaration (the copy of the program calls `vcov_local`, see `replay_copy`), extern
//! variables the harness defines before `main`. Bytes of `malloc`'d blocks are not rebuilt (the C library's `malloc` serves the program):
//! an execution that depends on them does not replay.
//!
//! Protocol: the harness reads the inputs from the file named by `VCOV_REPLAY_INPUTS`, one per line
//! as `FUNCTION HEX` (the function the value was written for, `-` when unknown, `uninitialized-memory`
//! for bytes the memory file places; the value as 32 hex digits of its 128-bit two's complement),
//! and at the end writes the file named by `VCOV_REPLAY_STATUS` (`read_status` reads it).
//!
//! Invariant: the harness source depends only on the program's declarations, not on a test case;
//! a test's memory comes from its files.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

pub use super::copy::{blank_directives, replay_copy, without_always_inline};
use super::testcomp::TestCase;
use crate::cfront::ir::Program;
use crate::cfront::types::{FloatKind, RecordId, RecordKind, TypeId, TypeKind, Types};
use crate::coverage::result::MemoryFact;
use crate::libmodels::LibFn;
use crate::symex::PointerChoice;

/// The environment variable naming the inputs file.
pub const INPUTS_ENV: &str = "VCOV_REPLAY_INPUTS";
/// The environment variable naming the status file the harness writes.
pub const STATUS_ENV: &str = "VCOV_REPLAY_STATUS";
/// The environment variable naming the memory file (`memory_file`).
pub const MEMORY_ENV: &str = "VCOV_REPLAY_MEMORY";

/// C library functions taken from libc rather than fed from the test: those the C library has under
/// the name `libmodels` models (plus `syscall`, which the harness itself uses).
pub const LIBC_KEPT: &[&str] =
    &["malloc", "calloc", "free", "memset", "memcpy", "memmove", "abort", "exit", "_exit", "_Exit", "syscall"];

/// Global variables the C library defines; extern declarations of them are not defined again.
const LIBC_VARS: &[&str] = &[
    "stdin",
    "stdout",
    "stderr",
    "environ",
    "__environ",
    "optarg",
    "optind",
    "opterr",
    "optopt",
    "signgam",
    "timezone",
    "daylight",
    "tzname",
];

/// The flags `ld` needs for the harness's wrappers.
pub const LINK_FLAGS: &[&str] = &["-Wl,--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=abort"];

/// What the harness does for a function the program declares without a body.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StubKind {
    /// Returns the next input.
    Fed,
    /// Records a property violation and exits.
    Violation,
    /// `__VERIFIER_assume`: exits quietly when its argument is false.
    Assume,
    /// Does nothing.
    Noop,
    /// Taken from the C library.
    Libc,
    /// A gcc builtin.
    Builtin,
    /// Implemented by the harness as `libmodels` says (`alloca`, `valloc`, the kernel's `__memcpy`,
    /// `expect`, `trap`): a function the C library does not have under that name.
    Model(LibFn),
}

/// A generated harness.
#[derive(Clone, Debug)]
pub struct Harness {
    /// The C source.
    pub source: String,
    /// Every function without body, by name, with what the harness does for it.
    pub functions: BTreeMap<String, StubKind>,
    /// Extern variables the harness defines (zero-initialized).
    pub variables: Vec<String>,
    /// Functions only inline assembly calls (`call NAME` in an `asm` string); their stubs end the
    /// run as unsupported.
    pub asm_targets: Vec<String>,
    /// The program's symbols to rename in its object file (`objcopy --redefine-syms`), each to the
    /// harness's stub: (name in the program, stub symbol).
    pub renames: Vec<(String, String)>,
}

impl Harness {
    /// The `--redefine-syms` file for `objcopy`: one `OLD NEW` line per stubbed function.
    pub fn redefine_syms(&self) -> String {
        self.renames.iter().map(|(old, new)| format!("{old} {new}\n")).collect()
    }
}

impl Harness {
    /// The names of the functions of kind `kind`, sorted.
    pub fn names(&self, kind: StubKind) -> Vec<&str> {
        self.functions.iter().filter(|(_, k)| **k == kind).map(|(n, _)| n.as_str()).collect()
    }
}

/// How a function without body is handled: as its model in `libmodels` says, which the executor
/// and the interpreter apply too.
pub fn classify(name: &str) -> StubKind {
    if name.starts_with("__builtin_") || name.starts_with("__sync_") || name.starts_with("__atomic_") {
        return StubKind::Builtin;
    }
    if name == "syscall" {
        return StubKind::Libc;
    }
    match LibFn::of(name) {
        LibFn::ReachError | LibFn::AssertFail => StubKind::Violation,
        LibFn::Assume => StubKind::Assume,
        LibFn::Noop => StubKind::Noop,
        _ if LIBC_KEPT.contains(&name) => StubKind::Libc,
        m @ (LibFn::Halt
        | LibFn::Malloc
        | LibFn::Calloc
        | LibFn::Free
        | LibFn::Memset
        | LibFn::Memcpy
        | LibFn::Expect
        | LibFn::Bswap) => StubKind::Model(m),
        LibFn::Nondet | LibFn::Output | LibFn::Unmodelled | LibFn::Unknown => StubKind::Fed,
        // libm's own (the harness links `-lm`), and glibc's for the models in C, which agree with it.
        LibFn::Math(..) | LibFn::SetRounding | LibFn::GetRounding | LibFn::Code => StubKind::Libc,
        // Builtins only (`libmodels::BUILTINS`): gcc's own, caught above.
        LibFn::ObjectSize | LibFn::Unsupported => StubKind::Builtin,
        // vcov's own primitive, called by its C library only, whose models glibc's functions
        // replace: nothing the harness serves (a program of its own that calls it does not link).
        LibFn::BlockSize => StubKind::Builtin,
    }
}

/// The body of a `StubKind::Model` stub with parameters `p0..p{n_params-1}` returning `ret`
/// (`None` for `void`); `None` when the declaration does not fit the model (the executor then treats
/// the call as an unknown function, and so does the harness: it feeds it).
fn model_body(model: LibFn, n_params: usize, ret: Option<&str>) -> Option<String> {
    let give = |v: &str| ret.map_or(format!("  (void)({v});\n"), |t| format!("  return ({t})({v});\n"));
    if !model.arity().fits(n_params) {
        return None;
    }
    Some(match model {
        LibFn::Halt => "  __wrap_abort();\n".to_string(),
        LibFn::Malloc => give("__builtin_malloc(p0)"),
        LibFn::Calloc => give("__builtin_calloc(p0, p1)"),
        LibFn::Free => "  __builtin_free(p0);\n".to_string(),
        LibFn::Memset => give("__builtin_memset(p0, p1, p2)"),
        LibFn::Memcpy => give("__builtin_memmove(p0, p1, p2)"),
        LibFn::Expect => give("p0"),
        LibFn::Bswap => format!(
            "  unsigned char *b = (unsigned char *)&p0, t;\n  unsigned long k;\n  for (k = 0; k < sizeof p0 / 2; k++) {{\n    \
             t = b[k];\n    b[k] = b[sizeof p0 - 1 - k];\n    b[sizeof p0 - 1 - k] = t;\n  }}\n{}",
            give("p0")
        ),
        // Not implemented by a stub of the harness's own (`classify`).
        LibFn::Nondet
        | LibFn::ReachError
        | LibFn::AssertFail
        | LibFn::Assume
        | LibFn::ObjectSize
        | LibFn::BlockSize
        | LibFn::Unsupported
        | LibFn::Noop
        | LibFn::Output
        | LibFn::Unmodelled
        | LibFn::Code
        | LibFn::Unknown
        | LibFn::Math(..)
        | LibFn::SetRounding
        | LibFn::GetRounding => return None,
    })
}

/// The harness for `prog`.
pub fn harness(prog: &Program) -> Harness {
    let mut records = BTreeSet::new();
    for f in &prog.funcs {
        collect_records(&prog.types, f.ty, &mut records);
    }
    for v in &prog.vars {
        collect_records(&prog.types, v.ty, &mut records);
    }
    let mut r = Render::new(&prog.types, &records);
    let mut functions = BTreeMap::new();
    let mut renames = Vec::new();
    let mut stubs = String::new();
    // The models of vcov's C library are not the program's: glibc serves their names.
    for f in prog.funcs.iter().filter(|f| !f.library) {
        if f.body.is_some()
            || functions.contains_key(&f.name)
            || prog.funcs.iter().any(|g| g.name == f.name && g.body.is_some() && !g.library)
        {
            continue;
        }
        let mut kind = classify(&f.name);
        let TypeKind::Func(ft) = prog.types.kind(f.ty).clone() else { continue };
        let void = matches!(prog.types.kind(ft.ret), TypeKind::Void);
        let model = match kind {
            StubKind::Model(m) => {
                let ret = (!void).then(|| r.decl(ft.ret, "", true).trim_end().to_string());
                let body = model_body(m, ft.params.len(), ret.as_deref());
                if body.is_none() {
                    kind = StubKind::Fed;
                }
                body
            }
            _ => None,
        };
        functions.insert(f.name.clone(), kind);
        if matches!(kind, StubKind::Libc | StubKind::Builtin) {
            continue;
        }
        let mut params: Vec<String> =
            ft.params.iter().enumerate().map(|(i, &p)| r.decl(p, &format!("p{i}"), true)).collect();
        if kind == StubKind::Assume && params.is_empty() {
            // `void __VERIFIER_assume();` without a prototype: the argument is an int after promotion.
            params.push("int p0".into());
        }
        let params = if params.is_empty() {
            if ft.unprototyped {
                String::new()
            } else {
                "void".into()
            }
        } else if ft.variadic {
            format!("{}, ...", params.join(", "))
        } else {
            params.join(", ")
        };
        let symbol = stub_symbol(&f.name);
        // The program's object calls the declaration's assembler name (glibc's `scanf` is
        // `__isoc99_scanf`).
        renames.push((f.asm_label.clone().unwrap_or_else(|| f.name.clone()), symbol.clone()));
        let header = r.decl(ft.ret, &format!("{symbol}({params})"), true);
        let ret = ft.ret;
        let name = c_string(&f.name);
        let body = match kind {
            StubKind::Model(_) => model.unwrap_or_default(),
            StubKind::Violation => {
                format!("  vcov_end(\"violation {}\");\n  __real_exit(0);\n", &name[1..name.len() - 1])
            }
            StubKind::Assume => "  if (!p0) {\n    vcov_end(\"assume\");\n    __real_exit(0);\n  }\n".into(),
            _ if matches!(prog.types.kind(ret), TypeKind::Void) => String::new(),
            StubKind::Noop => format!("  return ({})0;\n", r.decl(ret, "", true).trim_end()),
            _ => match prog.types.kind(ret) {
                TypeKind::Int(_) => format!("  return ({})vcov_int({name});\n", r.decl(ret, "", true).trim_end()),
                TypeKind::Pointer(_) => format!("  return ({})vcov_ptr({name});\n", r.decl(ret, "", true).trim_end()),
                _ => {
                    format!("  {};\n  vcov_bytes(&res, sizeof res, {name});\n  return res;\n", r.decl(ret, "res", true))
                }
            },
        };
        let _ = write!(stubs, "__attribute__((weak)) {header} {{\n{body}}}\n\n");
    }

    let (var_defs, global_fills, variables) = extern_variables(prog);

    // Inline assembly may call helpers the C code never declares (the kernel's `call __put_user_4`).
    let mut asm_defs = String::new();
    let mut asm_targets = Vec::new();
    for name in asm_call_targets(prog.file.text()) {
        if functions.contains_key(&name) || prog.funcs.iter().any(|f| f.name == name) || asm_targets.contains(&name) {
            continue;
        }
        let _ = write!(
            asm_defs,
            "__attribute__((weak)) void {name}(void) {{\n  vcov_end(\"unsupported {name}\");\n  __wrap_abort();\n}}\n\n"
        );
        asm_targets.push(name);
    }

    let parts = Parts { var_defs: &var_defs, global_fills: &global_fills, stubs: &stubs, asm_defs: &asm_defs };
    let source = harness_source(prog, &r, &functions, &parts);
    Harness { source, functions, variables, asm_targets, renames }
}

/// The pieces of the harness made from the program's declarations.
struct Parts<'a> {
    var_defs: &'a str,
    global_fills: &'a str,
    stubs: &'a str,
    asm_defs: &'a str,
}

/// The harness's C source: the runtime, the program's types the stubs need, the pieces, and the
/// functions the copy calls at violations.
fn harness_source(prog: &Program, r: &Render, functions: &BTreeMap<String, StubKind>, parts: &Parts) -> String {
    let fed: Vec<&str> = functions.iter().filter(|(_, k)| **k == StubKind::Fed).map(|(n, _)| n.as_str()).collect();
    let mut source = String::from(RUNTIME);
    source.push_str("\n/* The functions the program declares without body and the harness feeds. */\n");
    source.push_str("static const char *const vcov_fed[] = {");
    for n in &fed {
        let _ = write!(source, "{}, ", c_string(n));
    }
    source.push_str("0};\n\n");
    let _ = writeln!(source, "#define VCOV_N_VARS {}", prog.vars.len().max(1));
    source.push_str(RUNTIME_INPUTS);
    source.push_str("\n/* Types of the program the stubs need. */\n");
    source.push_str(&r.forward);
    source.push_str(&r.definitions);
    source.push_str("\n/* Extern variables the program declares without definition. */\n");
    source.push_str(parts.var_defs);
    source.push_str(
        "\n/* Their bytes the execution read before writing them (the executor's uninitialized memory). */\n\
         __attribute__((constructor)) static void vcov_fill_globals(void) {\n",
    );
    source.push_str(parts.global_fills);
    source.push_str("}\n");
    source.push_str("\n/* Functions the program declares without body. */\n");
    source.push_str(parts.stubs);
    source.push_str(
        "\n/* Reached where a label ERROR marks a statement (the copy calls it when labels are violations). */\n\
         void vcov_error_label(void) {\n  vcov_end(\"violation label ERROR\");\n  __real_exit(0);\n}\n\n\
         /* Called first in a violation function the program defines itself (its body does not run). */\n\
         void vcov_violation_call(const char *name) {\n  char what[200] = \"violation \";\n  \
         vcov_append(what, sizeof what, name);\n  vcov_end(what);\n  __real_exit(0);\n}\n\n",
    );
    if !parts.asm_defs.is_empty() {
        source.push_str("/* Functions inline assembly calls: the harness cannot run them. */\n");
        source.push_str(parts.asm_defs);
    }
    source
}

/// The definitions of the extern variables the program declares without one (weak, so that a
/// definition the program links wins), the calls that fill the bytes a test read of them, and their
/// names.
fn extern_variables(prog: &Program) -> (String, String, Vec<String>) {
    let mut variables = Vec::new();
    let mut var_defs = String::new();
    let mut global_fills = String::new();
    let mut seen = BTreeSet::new();
    for v in &prog.vars {
        if !v.is_extern
            || LIBC_VARS.contains(&v.name.as_str())
            || !seen.insert(v.name.clone())
            || prog
                .vars
                .iter()
                .any(|w| w.name == v.name && !w.is_extern && matches!(w.kind, crate::cfront::ir::VarKind::Global))
        {
            continue;
        }
        if !matches!(v.kind, crate::cfront::ir::VarKind::Global) {
            continue;
        }
        // The linker only needs the size and alignment; the type may be incomplete here.
        let size = prog.types.size_of(v.ty).filter(|&s| s > 0).unwrap_or(4096);
        let align = prog.types.align_of(v.ty).max(1);
        let _ = writeln!(var_defs, "unsigned char {}[{size}] __attribute__((weak, aligned({align})));", v.name);
        let idx = prog.vars.iter().position(|w| std::ptr::eq(w, v)).unwrap_or(usize::MAX);
        let _ = writeln!(global_fills, "  vcov_local({0}, sizeof {0}, {idx});", v.name);
        variables.push(v.name.clone());
    }
    (var_defs, global_fills, variables)
}

/// The inputs file for one test case (see the protocol in the module header).
pub fn inputs_file(case: &TestCase) -> String {
    let mut res = String::new();
    for inp in &case.inputs {
        let name = match &inp.variable {
            // Bytes of uninitialized memory: no stub consumes them (the harness skips the line).
            Some(v) if v == super::testcomp::UNINITIALIZED => "uninitialized-memory",
            Some(v) if !v.is_empty() && !v.contains(char::is_whitespace) => v.as_str(),
            _ => "-",
        };
        let _ = writeln!(res, "{name} {:032x}", inp.value as u128);
    }
    res
}

/// The memory file for one test (see the protocol in the module header), from the claims' memory
/// facts; `lazy_offset` is where the executor points into fresh memory (`symex`'s layout).
pub fn memory_file(case: &TestCase, facts: &[MemoryFact], lazy_offset: u64) -> String {
    let mut res = format!("l {lazy_offset}\n");
    let fresh = |input: usize| {
        facts.iter().find_map(|f| match f {
            MemoryFact::Fresh { input: i, alloc } if *i == input => Some(*alloc as i64),
            _ => None,
        })
    };
    let at: BTreeSet<usize> = facts
        .iter()
        .filter_map(|f| match f {
            MemoryFact::At { input, .. } => Some(*input),
            _ => None,
        })
        .collect();
    for f in facts {
        match f {
            MemoryFact::At { input, alloc, offset, pointer: false } => {
                let byte = case.inputs.get(*input).map_or(0, |i| i.value as u8);
                let _ = writeln!(res, "b {alloc} {offset} {byte}");
            }
            MemoryFact::At { input, alloc, offset, pointer: true } => {
                let value = case.inputs.get(*input).map_or(0, |i| i.value as u128);
                if let PointerChoice::Alias { offset: at, wild } = PointerChoice::of(value) {
                    let _ = writeln!(res, "{} {alloc} {offset} {at}", if wild { 'w' } else { 'a' });
                } else {
                    let _ = writeln!(res, "p {alloc} {offset} {}", fresh(*input).unwrap_or(-1));
                }
            }
            MemoryFact::Fresh { input, alloc } if !at.contains(input) => {
                let _ = writeln!(res, "c {} {alloc}", input + 1);
            }
            MemoryFact::Fresh { .. } => {}
            MemoryFact::Var { alloc, var, instance, .. } => {
                let _ = writeln!(res, "v {var} {instance} {alloc}");
            }
        }
    }
    res
}

/// Renders IR types as C declarations for the harness's translation unit.
struct Render<'a> {
    types: &'a Types,
    /// `struct x;` lines for every record named.
    forward: String,
    /// Record definitions, dependencies first.
    definitions: String,
    named: BTreeSet<RecordId>,
    defined: BTreeSet<RecordId>,
    tag_uses: BTreeMap<String, usize>,
}

impl<'a> Render<'a> {
    /// A renderer for declarations that mention the records `records` (for telling apart records
    /// that share a tag, declared in different scopes).
    fn new(types: &'a Types, records: &BTreeSet<RecordId>) -> Render<'a> {
        let mut tag_uses = BTreeMap::new();
        for &r in records {
            if let Some(t) = &types.record(r).tag {
                *tag_uses.entry(t.clone()).or_insert(0) += 1;
            }
        }
        Render {
            types,
            forward: String::new(),
            definitions: String::new(),
            named: BTreeSet::new(),
            defined: BTreeSet::new(),
            tag_uses,
        }
    }

    /// `ty` declaring `inner` (an identifier, or empty for an abstract declarator); `complete`: the
    /// type must be complete here (a value, not behind a pointer).
    fn decl(&mut self, ty: TypeId, inner: &str, complete: bool) -> String {
        let sep = |inner: &str| if inner.is_empty() { String::new() } else { format!(" {inner}") };
        match self.types.kind(ty).clone() {
            TypeKind::Void => format!("void{}", sep(inner)),
            TypeKind::Int(it) => format!("{}{}", it.c_name(), sep(inner)),
            TypeKind::Float(k) => {
                let n = match k {
                    FloatKind::Float => "float",
                    FloatKind::Double => "double",
                    FloatKind::LongDouble => "long double",
                    FloatKind::Float128 => "_Float128",
                };
                format!("{n}{}", sep(inner))
            }
            TypeKind::Pointer(t) => {
                let inner = if matches!(self.types.kind(t), TypeKind::Array(..) | TypeKind::Func(_)) {
                    format!("(*{inner})")
                } else {
                    format!("*{inner}")
                };
                self.decl(t, &inner, false)
            }
            TypeKind::Array(t, n) => {
                let len = n.map(|n| n.to_string()).unwrap_or_default();
                self.decl(t, &format!("{inner}[{len}]"), true)
            }
            TypeKind::Func(ft) => {
                let mut ps: Vec<String> = ft.params.iter().map(|&p| self.decl(p, "", true)).collect();
                if ft.variadic {
                    ps.push("...".into());
                }
                let ps = if ps.is_empty() && !ft.unprototyped { "void".to_string() } else { ps.join(", ") };
                self.decl(ft.ret, &format!("{inner}({ps})"), true)
            }
            TypeKind::Record(r) => {
                let name = self.record_name(r);
                if complete {
                    self.define(r);
                }
                format!("{name}{}", sep(inner))
            }
        }
    }

    /// `struct tag` (or a harness name for records without tag or with a tag used twice), declared
    /// forward on first use.
    fn record_name(&mut self, r: RecordId) -> String {
        let rec = self.types.record(r);
        let kw = if rec.kind == RecordKind::Struct { "struct" } else { "union" };
        let name = match &rec.tag {
            Some(t) if self.tag_uses.get(t) == Some(&1) => format!("{kw} {t}"),
            _ => format!("{kw} vcov_record_{}", r.0),
        };
        if self.named.insert(r) {
            let _ = writeln!(self.forward, "{name};");
        }
        name
    }

    fn define(&mut self, r: RecordId) {
        if !self.defined.insert(r) {
            return;
        }
        let name = self.record_name(r);
        let Some(body) = self.body(r) else { return };
        let _ = writeln!(self.definitions, "{name} {body};");
    }

    /// `{ fields } attributes` of a complete record; `None` while incomplete.
    fn body(&mut self, r: RecordId) -> Option<String> {
        let rec = self.types.record(r).clone();
        let fields = rec.fields?;
        let mut res = String::from("{\n");
        let mut max_align = 1;
        for f in &fields {
            max_align = max_align.max(self.types.align_of(f.ty));
            let line = match (&f.name, f.bitfield) {
                (Some(n), None) => self.decl(f.ty, n, true),
                (n, Some((_, width))) => self.decl(f.ty, &format!("{} : {width}", n.as_deref().unwrap_or("")), true),
                (None, None) => match self.types.kind(f.ty).clone() {
                    // An anonymous member: its fields are the record's.
                    TypeKind::Record(inner) => {
                        let kw = if self.types.record(inner).kind == RecordKind::Struct { "struct" } else { "union" };
                        format!("{kw} {}", self.body(inner).unwrap_or_else(|| "{ }".into()))
                    }
                    _ => continue,
                },
            };
            let _ = writeln!(res, "  {line};");
        }
        res.push('}');
        if rec.align < max_align {
            res.push_str(" __attribute__((packed))");
        } else if rec.align > max_align {
            let _ = write!(res, " __attribute__((aligned({})))", rec.align);
        }
        Some(res)
    }
}

/// The symbol of the stub for the program's function `name`.
pub fn stub_symbol(name: &str) -> String {
    format!("vcov_stub_{name}")
}

/// The identifiers after `call` or `jmp` in the string literals of `text` (inline assembly).
fn asm_call_targets(text: &str) -> Vec<String> {
    let re =
        regex::Regex::new(r#""[^"\n]*(?:\b|\\[nt])(?:call|jmp)[lq]?\s+([A-Za-z_][A-Za-z0-9_]*)"#).expect("valid regex");
    let mut res: Vec<String> = re.captures_iter(text).map(|c| c[1].to_string()).collect();
    res.sort();
    res.dedup();
    res
}

/// Adds every record `ty` mentions, through pointers, arrays, function types and fields.
fn collect_records(types: &Types, ty: TypeId, out: &mut BTreeSet<RecordId>) {
    match types.kind(ty) {
        TypeKind::Pointer(t) | TypeKind::Array(t, _) => collect_records(types, *t, out),
        TypeKind::Func(ft) => {
            collect_records(types, ft.ret, out);
            for &p in &ft.params {
                collect_records(types, p, out);
            }
        }
        TypeKind::Record(r) => {
            if out.insert(*r) {
                for f in types.record(*r).fields.iter().flatten() {
                    collect_records(types, f.ty, out);
                }
            }
        }
        TypeKind::Void | TypeKind::Int(_) | TypeKind::Float(_) => {}
    }
}

fn c_string(s: &str) -> String {
    let mut res = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                res.push('\\');
                res.push(c);
            }
            _ => res.push(c),
        }
    }
    res.push('"');
    res
}

/// The fixed part of the harness: system calls, the status file, the wrappers.
const RUNTIME: &str = include_str!("runtime/status.c");

/// Reading the inputs file.
const RUNTIME_INPUTS: &str = include_str!("runtime/inputs.c");

#[cfg(test)]
mod tests {
    use super::*;

    /// Every model of the table is what the harness does: a violation ends the run as one, the C
    /// library serves a modelled function only under the name it has there (with the behaviour the
    /// model describes), the harness implements the others, and every function whose result the
    /// executor treats as an input is fed from the test.
    #[test]
    fn the_harness_follows_the_model_table() {
        for &(name, model) in crate::libmodels::TABLE {
            let kind = classify(name);
            let expected = match model {
                LibFn::ReachError | LibFn::AssertFail => StubKind::Violation,
                LibFn::Assume => StubKind::Assume,
                LibFn::Noop => StubKind::Noop,
                LibFn::Nondet | LibFn::Output | LibFn::Unmodelled | LibFn::Unknown => StubKind::Fed,
                // libm's own (the harness links `-lm`), glibc's for the models in C.
                LibFn::Math(..) | LibFn::SetRounding | LibFn::GetRounding | LibFn::Code => StubKind::Libc,
                _ if LIBC_KEPT.contains(&name) => StubKind::Libc,
                LibFn::BlockSize => StubKind::Builtin,
                m => StubKind::Model(m),
            };
            assert_eq!(kind, expected, "{name} ({model:?})");
            // The builtin of the same name is gcc's, with the same meaning.
            assert_eq!(classify(&format!("__builtin_{name}")), StubKind::Builtin);
        }
        for name in LIBC_KEPT.iter().filter(|n| **n != "syscall") {
            let m = LibFn::of(name);
            assert!(
                matches!(m, LibFn::Halt | LibFn::Malloc | LibFn::Calloc | LibFn::Free | LibFn::Memset | LibFn::Memcpy),
                "{name} is taken from libc, so the executor must model it exactly, not as {m:?}"
            );
        }
        // Functions the harness implements get a body, for any declaration that fits the model.
        let h = check(
            "void *alloca(unsigned long);\nvoid *__memcpy(void *, const void *, unsigned long);\n\
             long expect(long, long);\nvoid trap(void);\nvoid *get_buffer(void *, unsigned long);\n\
             int main(void) { char *p = alloca(4); __memcpy(p, \"abc\", 4); if (expect(p[0], 0)) trap(); \
             p = get_buffer(p, 8); return 0; }",
            DataModel::Lp64,
            &[
                "void *vcov_stub_alloca(unsigned long p0) {\n  return (void *)(__builtin_malloc(p0));\n}",
                "return (void *)(__builtin_memmove(p0, p1, p2));",
                "long vcov_stub_expect(long p0, long p1) {\n  return (long)(p0);\n}",
                "void vcov_stub_trap(void) {\n  __wrap_abort();\n}",
                "return (void *)vcov_ptr(\"get_buffer\");",
            ],
        );
        assert_eq!(h.names(StubKind::Fed), vec!["get_buffer"]);
    }

    #[test]
    fn memory_file_lists_bytes_pointers_calls_and_variables() {
        let input = |v: i128| TestInput { variable: None, c_type: None, value: v };
        let case = TestCase { covers_error: false, inputs: vec![input(1), input(1), input(200), input(0)] };
        let facts = vec![
            MemoryFact::Fresh { input: 0, alloc: 5 },
            MemoryFact::At { input: 1, alloc: 2, offset: 0, pointer: true },
            MemoryFact::Fresh { input: 1, alloc: 6 },
            MemoryFact::At { input: 2, alloc: 6, offset: 524290, pointer: false },
            MemoryFact::At { input: 3, alloc: 2, offset: 4, pointer: true },
            MemoryFact::Var { alloc: 2, var: 17, name: "w".into(), instance: 1 },
        ];
        assert_eq!(
            memory_file(&case, &facts, 524288),
            "l 524288\nc 1 5\np 2 0 6\nb 6 524290 200\np 2 4 -1\nv 17 1 2\n"
        );
    }

    #[test]
    fn replay_copy_fills_the_locals_named() {
        let src = "int main(void) {\n  int a, b; int c = 1;\n  for (int i; 0;) {}\n  return a + b + c;\n}\n";
        let (prog, _) = crate::cfront::parse_program(SourceFile::new("p.c", src.to_string()), DataModel::Lp64).unwrap();
        let idx = |name: &str| prog.vars.iter().position(|v| v.name == name).unwrap() as u32;
        let copy = replay_copy(&prog, src, false, &[idx("b"), idx("i")].into());
        assert_eq!(copy.lines().count(), src.lines().count());
        let line2 = copy.lines().nth(1).unwrap();
        let b = idx("b");
        assert_eq!(
            line2,
            format!("  int a, b; {{ extern void vcov_local(void *, unsigned long, long); vcov_local(&b, sizeof b, {b}); }} int c = 1;")
        );
        assert!(!copy.lines().nth(2).unwrap().contains("vcov_local"), "not in a for clause: {copy}");
    }

    #[test]
    fn always_inline_is_blanked_in_place() {
        let src = "static __inline __attribute__((__always_inline__, unused)) int f(void) { return 1; }\n\
                   char *s = \"x\"; int always_inlined;";
        let out = without_always_inline(src);
        assert_eq!(out.len(), src.len());
        let blank = " ".repeat("__always_inline__".len());
        assert!(out.starts_with(&format!("static __inline __attribute__(({blank}, unused)) int f")), "{out}");
        assert!(out.ends_with("int always_inlined;"), "{out}");
    }

    use crate::base::SourceFile;
    use crate::cfront::types::DataModel;
    use crate::evidence::testcomp::TestInput;

    fn check(program: &str, dm: DataModel, expect: &[&str]) -> Harness {
        let (prog, _) = crate::cfront::parse_program(SourceFile::new("p.c", program.to_string()), dm).unwrap();
        let h = harness(&prog);
        for e in expect {
            assert!(h.source.contains(e), "missing `{e}` in\n{}", h.source);
        }
        h
    }

    #[test]
    fn stubs_have_the_declared_signatures() {
        let h = check(
            r#"struct dev { int id; char name[8]; };
struct pair { long a; long b; };
typedef int (*handler_t)(int);
int __VERIFIER_nondet_int(void);
int sensor_read(struct dev *d, int channel);
struct pair make_pair(int x);
handler_t handler_of(int kind);
int log_msg(const char *fmt, ...);
double sensor_level(double);
double sqrt(double);
void reset();
int main(void) { return __VERIFIER_nondet_int(); }
"#,
            DataModel::Ilp32,
            &[
                "int vcov_stub___VERIFIER_nondet_int(void) {\n  return (int)vcov_int(\"__VERIFIER_nondet_int\");\n}",
                "int vcov_stub_sensor_read(struct dev *p0, int p1) {",
                "struct pair vcov_stub_make_pair(int p0) {\n  struct pair res;\n  vcov_bytes(&res, sizeof res, \"make_pair\");",
                "struct pair {\n  long a;\n  long b;\n};",
                "int (*vcov_stub_handler_of(int p0))(int) {\n  return (int (*)(int))vcov_ptr(\"handler_of\");",
                "int vcov_stub_log_msg(char *p0, ...) {",
                "double vcov_stub_sensor_level(double p0) {",
                "void vcov_stub_reset() {\n}",
                "static const char *const vcov_fed[] = {\"__VERIFIER_nondet_int\", \"handler_of\", \"log_msg\", ",
            ],
        );
        assert!(!h.source.contains("struct dev {"), "a record behind a pointer needs no definition");
        assert_eq!(h.functions["make_pair"], StubKind::Fed);
        // libm's own: linked, not stubbed.
        assert_eq!(h.functions["sqrt"], StubKind::Libc);
        assert!(!h.source.contains("vcov_stub_sqrt"));
    }

    #[test]
    fn special_functions() {
        let h = check(
            r#"void reach_error(void);
void __assert_fail(const char *a, const char *f, unsigned int l, const char *fn);
void __VERIFIER_assume(int);
void *malloc(unsigned long);
void abort(void);
long __builtin_expect(long, long);
void __VERIFIER_atomic_begin(void);
extern int jiffies;
extern struct module __this_module;
extern int stdout_like;
int stdout_like = 3;
int main(void) { return 0; }
"#,
            DataModel::Lp64,
            &[
                "void vcov_stub_reach_error(void) {\n  vcov_end(\"violation reach_error\");\n  __real_exit(0);\n}",
                "void vcov_stub___assert_fail(char *p0, char *p1, unsigned int p2, char *p3) {\n  vcov_end(\"violation __assert_fail\");",
                "void vcov_stub___VERIFIER_assume(int p0) {\n  if (!p0) {\n    vcov_end(\"assume\");",
                "void vcov_stub___VERIFIER_atomic_begin(void) {\n}",
                "unsigned char jiffies[4] __attribute__((weak, aligned(4)));",
                "unsigned char __this_module[4096] __attribute__((weak, aligned(1)));",
            ],
        );
        assert!(!h.source.contains("malloc("));
        assert!(!h.source.contains("__builtin_expect("));
        assert!(!h.source.contains("stdout_like["), "a defined variable is not defined again");
        assert_eq!(h.names(StubKind::Libc), vec!["abort", "malloc"]);
        assert_eq!(h.names(StubKind::Builtin), vec!["__builtin_expect"]);
    }

    #[test]
    fn records_by_value_are_defined_with_their_layout() {
        check(
            r#"struct inner { char c; };
struct s { struct inner in; int bits : 3; unsigned : 2; union { int i; float f; }; struct s *next; };
struct p { char c; int i; } __attribute__((packed));
struct s get(void);
struct p getp(struct s x);
int main(void) { return 0; }
"#,
            DataModel::Lp64,
            &[
                "struct inner {\n  char c;\n};\nstruct s {\n  struct inner in;\n  int bits : 3;\n  unsigned int  : 2;\n  union {\n  int i;\n  float f;\n};\n  struct s *next;\n};",
                "struct p {\n  char c;\n  int i;\n} __attribute__((packed));",
            ],
        );
    }

    #[test]
    fn inline_assembly_call_targets_get_stubs() {
        let h = check(
            r#"int f(unsigned long w) { unsigned long res; __asm__ ("661:\n\tcall __sw_hweight64\n662:" : "=a" (res) : "D" (w)); __asm__ ("call __put_user_4" : : ); return 0; }
int printk(const char *fmt, ...);
int main(void) { return printk("call me"); }
"#,
            DataModel::Lp64,
            &["__attribute__((weak)) void __sw_hweight64(void) {\n  vcov_end(\"unsupported __sw_hweight64\");"],
        );
        assert_eq!(h.asm_targets, vec!["__put_user_4", "__sw_hweight64", "me"]);
        assert_eq!(h.redefine_syms(), "printk vcov_stub_printk\n");
    }

    #[test]
    fn inputs_file_holds_names_and_hex_values() {
        let case = TestCase {
            covers_error: false,
            inputs: vec![
                TestInput { variable: Some("f".into()), c_type: None, value: -1 },
                TestInput { variable: None, c_type: None, value: 255 },
            ],
        };
        assert_eq!(inputs_file(&case), format!("f {}\n- {:032x}\n", "f".repeat(32), 255));
    }

    #[test]
    fn directives_are_blanked_in_place() {
        let src = "# 1 \"a.c\"\nint x;\n  #define A \\\n  1\nint y = 1; // # not a directive\n#pragma pack(1)\n";
        let out = blank_directives(src, false);
        assert_eq!(out.len(), src.len());
        assert_eq!(out, "         \nint x;\n             \n   \nint y = 1; // # not a directive\n#pragma pack(1)\n");
        // The markers of vcov's own preprocessing stay; other directives go.
        let src = "# 1 \"a.c\"\n#line 4\n#ident \"x\"\nint x;\n";
        assert_eq!(blank_directives(src, true), "# 1 \"a.c\"\n#line 4\n          \nint x;\n");
    }
}
