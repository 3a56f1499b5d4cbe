//! The one table of C library and environment models: what vcov assumes a function without body
//! does. The symbolic executor (`symex::exec`), the concrete interpreter (`symex::replay`) and the
//! replay harness (`evidence::harness`) all read it, so the three cannot disagree on a function:
//! adding a model is one entry here (and its meaning in each of the three).
//!
//! Invariant: no dependencies; the table is data.

/// The model of a function without body.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LibFn {
    /// Returns an input (`__VERIFIER_nondet_*`, `nondet_*`).
    Nondet,
    /// `reach_error`: a violation of unreach-call.
    ReachError,
    /// A failed assertion (`__assert_fail`): a violation.
    AssertFail,
    /// Ends the execution abnormally (`abort`, `exit`): not a terminating execution.
    Halt,
    /// `__VERIFIER_assume(c)`: the execution goes on only where `c` holds.
    Assume,
    /// Fresh uninitialized memory of the argument's size (`malloc`, `alloca`, `valloc`).
    Malloc,
    /// Fresh zeroed memory (`calloc`).
    Calloc,
    /// Frees a block (`free`).
    Free,
    /// `memset(p, c, n)`, returns `p`.
    Memset,
    /// `memcpy(d, s, n)` (and `memmove`, the kernel's `__memcpy`), returns `d`.
    Memcpy,
    /// `expect(v, e)` (`__builtin_expect`): returns `v`.
    Expect,
    /// `__builtin_object_size(p, k)`: what gcc folds at `-O0` from how `p` is written
    /// (`cfront::object_size`), not from its value.
    ObjectSize,
    /// A builtin vcov does not model and that is no input either (`__builtin_va_start`, ...): a
    /// path that calls it is cut as unsupported.
    Unsupported,
    /// `bswap16`/`bswap32`/`bswap64` (`__builtin_bswap32`, which glibc's headers call): the
    /// argument with its bytes in reverse order.
    Bswap,
    /// No effect (`__VERIFIER_atomic_begin`).
    Noop,
    /// Output (`printf`, `printk`): no effect on memory; the result is an input.
    Output,
    /// A library function vcov does not model: the result is an input and the result is marked
    /// approximated.
    Unmodelled,
    /// Any other function without body: the result is an input; it may write through pointers it
    /// receives.
    Unknown,
}

/// The models by name (after stripping `__builtin_`); other names are `Nondet` when they start
/// with `__VERIFIER_nondet_` or `nondet_`, `Unknown` otherwise.
pub const TABLE: &[(&str, LibFn)] = &[
    ("reach_error", LibFn::ReachError),
    ("__VERIFIER_error", LibFn::ReachError),
    ("__assert_fail", LibFn::AssertFail),
    ("__assert_rtn", LibFn::AssertFail),
    ("__assert", LibFn::AssertFail),
    ("__assert_perror_fail", LibFn::AssertFail),
    ("abort", LibFn::Halt),
    ("exit", LibFn::Halt),
    ("_exit", LibFn::Halt),
    ("_Exit", LibFn::Halt),
    ("trap", LibFn::Halt),
    ("unreachable", LibFn::Halt),
    ("__VERIFIER_assume", LibFn::Assume),
    ("malloc", LibFn::Malloc),
    ("alloca", LibFn::Malloc),
    ("valloc", LibFn::Malloc),
    ("calloc", LibFn::Calloc),
    ("free", LibFn::Free),
    ("memset", LibFn::Memset),
    ("memcpy", LibFn::Memcpy),
    ("memmove", LibFn::Memcpy),
    ("__memcpy", LibFn::Memcpy),
    ("expect", LibFn::Expect),
    ("bswap16", LibFn::Bswap),
    ("bswap32", LibFn::Bswap),
    ("bswap64", LibFn::Bswap),
    ("__VERIFIER_atomic_begin", LibFn::Noop),
    ("__VERIFIER_atomic_end", LibFn::Noop),
    ("printf", LibFn::Output),
    ("puts", LibFn::Output),
    ("putchar", LibFn::Output),
    ("fprintf", LibFn::Output),
    ("printk", LibFn::Output),
    ("fputs", LibFn::Output),
    ("fputc", LibFn::Output),
    ("putc", LibFn::Output),
    ("perror", LibFn::Output),
    ("vprintf", LibFn::Output),
    ("vfprintf", LibFn::Output),
    ("strcmp", LibFn::Unmodelled),
    ("strncmp", LibFn::Unmodelled),
    ("strlen", LibFn::Unmodelled),
    ("strnlen", LibFn::Unmodelled),
    ("strcpy", LibFn::Unmodelled),
    ("strncpy", LibFn::Unmodelled),
    ("strcat", LibFn::Unmodelled),
    ("strncat", LibFn::Unmodelled),
    ("strchr", LibFn::Unmodelled),
    ("strrchr", LibFn::Unmodelled),
    ("strstr", LibFn::Unmodelled),
    ("strdup", LibFn::Unmodelled),
    ("memcmp", LibFn::Unmodelled),
    ("memchr", LibFn::Unmodelled),
    ("atoi", LibFn::Unmodelled),
    ("atol", LibFn::Unmodelled),
    ("strtol", LibFn::Unmodelled),
    ("strtoul", LibFn::Unmodelled),
    ("sprintf", LibFn::Unmodelled),
    ("snprintf", LibFn::Unmodelled),
    ("sscanf", LibFn::Unmodelled),
    ("scanf", LibFn::Unmodelled),
    ("realloc", LibFn::Unmodelled),
    ("qsort", LibFn::Unmodelled),
    ("bsearch", LibFn::Unmodelled),
    ("abs", LibFn::Unmodelled),
    ("labs", LibFn::Unmodelled),
    ("toupper", LibFn::Unmodelled),
    ("tolower", LibFn::Unmodelled),
    ("isdigit", LibFn::Unmodelled),
    ("isalpha", LibFn::Unmodelled),
    ("isspace", LibFn::Unmodelled),
    ("rand", LibFn::Unmodelled),
    ("time", LibFn::Unmodelled),
];

/// The models of gcc builtins without a library function of the same name, by name after
/// `__builtin_` (matched only with it). Every builtin in the programs of the shared corpus, the
/// csmith and the SV-COMP ones is here or in `TABLE` (a test lists them).
pub const BUILTINS: &[(&str, LibFn)] = &[
    ("object_size", LibFn::ObjectSize),
    ("prefetch", LibFn::Noop),
    ("va_start", LibFn::Unsupported),
    ("va_end", LibFn::Unsupported),
    ("va_copy", LibFn::Unsupported),
    ("va_arg", LibFn::Unsupported),
    ("constant_p", LibFn::Unsupported),
];

impl LibFn {
    /// The model of function `name`.
    pub fn of(name: &str) -> LibFn {
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        if base.len() < name.len() {
            if let Some(&(_, m)) = BUILTINS.iter().find(|(n, _)| *n == base) {
                return m;
            }
        }
        match TABLE.iter().find(|(n, _)| *n == base) {
            Some(&(_, m)) => m,
            None if name.starts_with("__VERIFIER_nondet_") || name.starts_with("nondet_") => LibFn::Nondet,
            None => LibFn::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_builtins_share_the_model() {
        for (i, (n, _)) in TABLE.iter().enumerate() {
            assert!(TABLE[..i].iter().all(|(m, _)| m != n), "{n} twice");
        }
        assert_eq!(LibFn::of("__builtin_memcpy"), LibFn::Memcpy);
        assert_eq!(LibFn::of("__builtin_expect"), LibFn::Expect);
        assert_eq!(LibFn::of("__VERIFIER_nondet_int"), LibFn::Nondet);
        assert_eq!(LibFn::of("usb_register_driver"), LibFn::Unknown);
    }
}
