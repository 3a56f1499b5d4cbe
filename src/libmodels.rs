//! The one table of C library and environment models: what vcov assumes a function without body
//! does. The symbolic executor (`symex::exec`), the concrete interpreter (`symex::interp`) and the
//! replay harness (`evidence::harness`) all read it, so the three cannot disagree on a function:
//! adding a model is one entry here (and its meaning in each of the three).
//!
//! Invariant: no dependencies; the table is data.

/// vcov's C library: the models written in C (`LibFn::Code`), which the front end links into a
/// program that calls them (`cfront::link_library`).
pub const LIBC: &str = include_str!("libmodels/libc.c");

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
    /// `__vcov_block_size(p)`, the primitive of vcov's C library (`realloc`): the size of the heap
    /// block `p` starts (undefined for anything else).
    BlockSize,
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
    /// A function modelled by C code (`LIBC`): the program calls the model's definition, which the
    /// front end links in (`cfront::link_library`) and every engine runs as code.
    Code,
    /// Any other function without body: the result is an input; it may write through pointers it
    /// receives.
    Unknown,
    /// A function of `math.h` on `float` or `double` values, as glibc computes it on x86.
    Math(Math, Prec),
    /// `fesetround(mode)`: sets the rounding mode of floating-point operations for a valid `FE_*`
    /// value (returns 0), else returns 1 and changes nothing.
    SetRounding,
    /// `fegetround()`: the `FE_*` value of the rounding mode.
    GetRounding,
}

/// The precision of a `math.h` function: its `f` suffix or none.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Prec {
    /// `float` (`fabsf`, `__isnanf`).
    Single,
    /// `double` (`fabs`, `__isnan`).
    Double,
}

/// The `math.h` functions vcov models; every one is exact (IEEE 754 defines its result, or glibc's
/// result is computed as glibc does).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Math {
    /// `fabs(x)`: `x` with the sign bit cleared.
    Fabs,
    /// `copysign(x, y)`: `x` with `y`'s sign bit.
    Copysign,
    /// `sqrt(x)`, correctly rounded in the current mode.
    Sqrt,
    /// `fma(x, y, z)`: `x * y + z` rounded once.
    Fma,
    /// `floor(x)`
    Floor,
    /// `ceil(x)`
    Ceil,
    /// `trunc(x)`
    Trunc,
    /// `round(x)`: to nearest, ties away from zero.
    Round,
    /// `rint(x)`, `nearbyint(x)`: to an integral value in the current rounding mode.
    Rint,
    /// `lround(x)`, `llround(x)`: `round` converted to `long` (`long long`).
    Lround,
    /// `lrint(x)`, `llrint(x)`: `rint` converted to `long` (`long long`).
    Lrint,
    /// `fmin(x, y)`: the smaller, a NaN ignored, `-0` below `+0`.
    Fmin,
    /// `fmax(x, y)`: the larger, a NaN ignored, `+0` above `-0`.
    Fmax,
    /// `fmod(x, y)`: exact remainder of the truncated division.
    Fmod,
    /// `remainder(x, y)`: exact remainder of the division rounded to nearest.
    Remainder,
    /// `ldexp(x, n)`, `scalbn(x, n)`: `x * 2^n`.
    Ldexp,
    /// `nan(s)`: a quiet NaN (payload zero for any `s`).
    Nan,
    /// `__isnan(x)`, `isnan`: 1 for a NaN, else 0.
    IsNan,
    /// `__isinf(x)`: -1 for -inf, 1 for +inf, else 0 (glibc's; `__builtin_isinf_sign` too).
    IsInfSign,
    /// `__finite(x)`, `isfinite`: 1 for a finite value, else 0.
    IsFinite,
    /// `__signbit(x)`: glibc's x86-64 result, the sign in bit 7 (double) or bit 3 (float).
    GlibcSignbit,
    /// `__fpclassify(x)`: `FP_NAN` 0, `FP_INFINITE` 1, `FP_ZERO` 2, `FP_SUBNORMAL` 3, `FP_NORMAL` 4.
    Fpclassify,
    /// `__builtin_fpclassify(nan, inf, normal, subnormal, zero, x)`: the argument for `x`'s class.
    FpclassifyArgs,
    /// `__builtin_isinf(x)`: 1 for an infinity, else 0.
    IsInf,
    /// `__builtin_signbit(x)`: gcc's result at `-O0`, 1 (double) or the sign bit in place (float).
    Signbit,
    /// `__builtin_inf()`, `__builtin_huge_val()`: positive infinity.
    Inf,
    /// `__builtin_isnormal(x)`: 1 for a normal number, else 0.
    IsNormal,
    /// `__builtin_isgreater(x, y)` and the other quiet comparisons: 1 or 0, false with a NaN
    /// (`isunordered`: true exactly with a NaN).
    Quiet(QuietCompare),
}

/// The comparison of a quiet comparison macro (`isgreater`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum QuietCompare {
    /// `x > y`
    Greater,
    /// `x >= y`
    GreaterEqual,
    /// `x < y`
    Less,
    /// `x <= y`
    LessEqual,
    /// `x < y || x > y`
    LessGreater,
    /// either is a NaN
    Unordered,
}

/// The `math.h` functions by name, each in its `double` and `float` spelling (`l`, `long double`,
/// is not modelled: those names are `Unsupported`).
const MATH: &[(&str, Math)] = &[
    ("fabs", Math::Fabs),
    ("copysign", Math::Copysign),
    ("sqrt", Math::Sqrt),
    ("fma", Math::Fma),
    ("floor", Math::Floor),
    ("ceil", Math::Ceil),
    ("trunc", Math::Trunc),
    ("round", Math::Round),
    ("rint", Math::Rint),
    ("nearbyint", Math::Rint),
    ("lround", Math::Lround),
    ("llround", Math::Lround),
    ("lrint", Math::Lrint),
    ("llrint", Math::Lrint),
    ("fmin", Math::Fmin),
    ("fmax", Math::Fmax),
    ("fmod", Math::Fmod),
    ("remainder", Math::Remainder),
    ("ldexp", Math::Ldexp),
    ("scalbn", Math::Ldexp),
    ("nan", Math::Nan),
    ("__isnan", Math::IsNan),
    ("isnan", Math::IsNan),
    ("__isinf", Math::IsInfSign),
    ("__finite", Math::IsFinite),
    ("finite", Math::IsFinite),
    ("__signbit", Math::GlibcSignbit),
    ("__fpclassify", Math::Fpclassify),
];

/// The `math.h` functions vcov does not model (each also with `f` and `l`): `Unmodelled`, so a
/// result that depends on one is never reported as a counterexample or a proof.
const MATH_UNMODELLED: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log10",
    "log2",
    "log1p",
    "logb",
    "ilogb",
    "pow",
    "cbrt",
    "hypot",
    "erf",
    "erfc",
    "tgamma",
    "lgamma",
    "fdim",
    "nextafter",
    "nexttoward",
    "remquo",
    "scalbln",
];

impl Math {
    /// How many arguments the function takes.
    fn arity(self) -> usize {
        match self {
            Math::Copysign | Math::Fmin | Math::Fmax | Math::Fmod | Math::Remainder | Math::Ldexp => 2,
            Math::Fma => 3,
            Math::Quiet(_) => 2,
            Math::FpclassifyArgs => 6,
            Math::Inf => 0,
            _ => 1,
        }
    }

    /// The model of `name` (after `__builtin_`), when it names a `math.h` function of `float` or
    /// `double`; `Some(None)` for its `long double` spelling.
    fn of(name: &str) -> Option<Option<(Math, Prec)>> {
        for &(n, m) in MATH {
            let Some(rest) = name.strip_prefix(n) else { continue };
            match rest {
                "" => return Some(Some((m, Prec::Double))),
                "f" => return Some(Some((m, Prec::Single))),
                "l" => return Some(None),
                _ => {}
            }
        }
        None
    }
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
    ("strcmp", LibFn::Code),
    ("strncmp", LibFn::Code),
    ("strlen", LibFn::Code),
    ("strnlen", LibFn::Code),
    ("strcpy", LibFn::Code),
    ("strncpy", LibFn::Code),
    ("strcat", LibFn::Code),
    ("strncat", LibFn::Code),
    ("strchr", LibFn::Code),
    ("strrchr", LibFn::Code),
    ("strstr", LibFn::Code),
    ("strdup", LibFn::Code),
    ("memcmp", LibFn::Code),
    ("strspn", LibFn::Code),
    ("strcspn", LibFn::Code),
    ("strpbrk", LibFn::Code),
    ("strndup", LibFn::Code),
    ("llabs", LibFn::Code),
    ("isupper", LibFn::Code),
    ("islower", LibFn::Code),
    ("isalnum", LibFn::Code),
    ("isxdigit", LibFn::Code),
    ("isblank", LibFn::Code),
    ("iscntrl", LibFn::Code),
    ("isprint", LibFn::Code),
    ("isgraph", LibFn::Code),
    ("ispunct", LibFn::Code),
    ("memchr", LibFn::Code),
    ("atoi", LibFn::Code),
    ("atol", LibFn::Code),
    ("strtol", LibFn::Code),
    ("strtoul", LibFn::Code),
    ("sprintf", LibFn::Unmodelled),
    ("snprintf", LibFn::Unmodelled),
    ("sscanf", LibFn::Unmodelled),
    ("scanf", LibFn::Unmodelled),
    ("realloc", LibFn::Code),
    ("__vcov_block_size", LibFn::BlockSize),
    ("qsort", LibFn::Code),
    ("bsearch", LibFn::Code),
    ("abs", LibFn::Code),
    ("modf", LibFn::Code),
    ("modff", LibFn::Code),
    ("modfl", LibFn::Unmodelled),
    ("frexp", LibFn::Code),
    ("frexpf", LibFn::Code),
    ("frexpl", LibFn::Unmodelled),
    ("labs", LibFn::Code),
    ("toupper", LibFn::Code),
    ("__ctype_b_loc", LibFn::Code),
    ("__ctype_toupper_loc", LibFn::Code),
    ("__ctype_tolower_loc", LibFn::Code),
    ("tolower", LibFn::Code),
    ("isdigit", LibFn::Code),
    ("isalpha", LibFn::Code),
    ("isspace", LibFn::Code),
    ("rand", LibFn::Unmodelled),
    ("fesetround", LibFn::SetRounding),
    ("fegetround", LibFn::GetRounding),
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
    ("isinf", LibFn::Math(Math::IsInf, Prec::Double)),
    ("isinf_sign", LibFn::Math(Math::IsInfSign, Prec::Double)),
    ("isfinite", LibFn::Math(Math::IsFinite, Prec::Double)),
    ("isnormal", LibFn::Math(Math::IsNormal, Prec::Double)),
    ("isgreater", LibFn::Math(Math::Quiet(QuietCompare::Greater), Prec::Double)),
    ("isgreaterequal", LibFn::Math(Math::Quiet(QuietCompare::GreaterEqual), Prec::Double)),
    ("isless", LibFn::Math(Math::Quiet(QuietCompare::Less), Prec::Double)),
    ("islessequal", LibFn::Math(Math::Quiet(QuietCompare::LessEqual), Prec::Double)),
    ("islessgreater", LibFn::Math(Math::Quiet(QuietCompare::LessGreater), Prec::Double)),
    ("isunordered", LibFn::Math(Math::Quiet(QuietCompare::Unordered), Prec::Double)),
    ("signbit", LibFn::Math(Math::Signbit, Prec::Double)),
    ("signbitf", LibFn::Math(Math::Signbit, Prec::Single)),
    ("signbitl", LibFn::Unsupported),
    ("fpclassify", LibFn::Math(Math::FpclassifyArgs, Prec::Double)),
    ("inf", LibFn::Math(Math::Inf, Prec::Double)),
    ("inff", LibFn::Math(Math::Inf, Prec::Single)),
    ("infl", LibFn::Unsupported),
    ("huge_val", LibFn::Math(Math::Inf, Prec::Double)),
    ("huge_valf", LibFn::Math(Math::Inf, Prec::Single)),
    ("huge_vall", LibFn::Unsupported),
];

/// How many arguments a call must pass for the model to apply. A call with another number (a
/// declaration that does not fit the library's) is treated as a call of an unknown function
/// (`LibFn::Unknown`) by the executor, the interpreter and the harness alike.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arity {
    /// Any number.
    Any,
    /// Exactly this many.
    Exactly(usize),
    /// At least this many.
    AtLeast(usize),
}

impl Arity {
    /// Whether a call with `n` arguments fits.
    pub fn fits(self, n: usize) -> bool {
        match self {
            Arity::Any => true,
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
        }
    }
}

impl LibFn {
    /// The model a call passing `n_args` arguments gets: this one if they fit its arity, otherwise
    /// `Unknown` (a declaration that does not fit the model is a function without body). The
    /// executor, the interpreter and the transition system all ask this, so they agree.
    pub fn for_call(self, n_args: usize) -> LibFn {
        if self.arity().fits(n_args) {
            self
        } else {
            LibFn::Unknown
        }
    }

    /// The arguments a call must pass for the model to apply.
    pub fn arity(self) -> Arity {
        match self {
            LibFn::Assume | LibFn::Free | LibFn::Bswap | LibFn::SetRounding | LibFn::BlockSize => Arity::Exactly(1),
            LibFn::GetRounding => Arity::Exactly(0),
            LibFn::Calloc | LibFn::ObjectSize => Arity::Exactly(2),
            LibFn::Memset | LibFn::Memcpy => Arity::Exactly(3),
            LibFn::Malloc | LibFn::Expect => Arity::AtLeast(1),
            LibFn::Math(m, _) => Arity::Exactly(m.arity()),
            LibFn::Nondet
            | LibFn::ReachError
            | LibFn::AssertFail
            | LibFn::Halt
            | LibFn::Unsupported
            | LibFn::Noop
            | LibFn::Output
            | LibFn::Unmodelled
            | LibFn::Code
            | LibFn::Unknown => Arity::Any,
        }
    }

    /// What vcov assumes the function does, in one sentence (the README's table is made from it).
    pub fn meaning(self) -> &'static str {
        match self {
            LibFn::Nondet => "returns an input",
            LibFn::ReachError => "a violation of `unreach-call` (when the property names it)",
            LibFn::AssertFail => "a failed assertion: a violation",
            LibFn::Halt => "ends the execution; it does not terminate normally",
            LibFn::Assume => "the execution goes on only where the argument holds",
            LibFn::Malloc => {
                "fresh uninitialized memory of the argument's size (a symbolic size too: an access at or past it is undefined behaviour)"
            }
            LibFn::Calloc => "fresh zeroed memory of `n * size` bytes",
            LibFn::Free => "frees a block (undefined behaviour for anything but the start of a live heap block)",
            LibFn::Memset => "fills `n` bytes (exact for a concrete size), returns the pointer",
            LibFn::Memcpy => "copies `n` bytes (exact for a concrete size), returns the destination",
            LibFn::Expect => "returns its first argument",
            LibFn::BlockSize => {
                "vcov's C library's own, for realloc: the size of the heap block the argument starts \
                 (undefined behaviour for anything else)"
            }
            LibFn::ObjectSize => {
                "what gcc folds at `-O0`: the size left in an object or member written out with \
                 constant indices, else `(size_t)-1` for kinds 0 and 1 and 0 for kinds 2 and 3"
            }
            LibFn::Unsupported => "not modelled: a path that calls it is cut as unsupported",
            LibFn::Bswap => "the argument with its bytes in reverse order",
            LibFn::Noop => "no effect",
            LibFn::Output => "no effect on memory; a result is an input",
            LibFn::Unmodelled => {
                "a library function vcov does not model: the result is an input, marked approximated; \
                 in the over-approximating proofs it may write through the pointers it receives"
            }
            LibFn::Unknown => "the result is an input; it may write through the pointers it receives",
            LibFn::Code => {
                "C code of vcov's own (`src/libmodels/libc.c`), run as part of the program, its lines not \
                 counted; as glibc computes it on x86, in the C locale (a comparison gives the difference of the \
                 first differing bytes, where C fixes only the sign); `errno` is not set (no ERANGE, no EINVAL)"
            }
            LibFn::SetRounding => {
                "sets the rounding mode of the operations that follow, for glibc's x86 `FE_*` values \
                 (a mode that is not a constant cuts the path); 1 and no change for other values"
            }
            LibFn::GetRounding => "the `FE_*` value of the rounding mode",
            LibFn::Math(..) => {
                "exact IEEE 754 binary32/binary64 (`f` suffix: `float`), in the rounding mode of the \
                 execution, as glibc computes it on x86; NaN and out-of-range arguments included"
            }
        }
    }

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
            None if Math::of(base).is_some() => match Math::of(base).flatten() {
                Some((m, p)) => LibFn::Math(m, p),
                None => LibFn::Unsupported,
            },
            None if MATH_UNMODELLED.iter().any(|m| [*m, &format!("{m}f"), &format!("{m}l")].contains(&base)) => {
                LibFn::Unmodelled
            }
            None if name.starts_with("__VERIFIER_nondet_") || name.starts_with("nondet_") => LibFn::Nondet,
            None => LibFn::Unknown,
        }
    }
}

/// The table of models as Markdown (the README's section on functions without body is this text;
/// a test keeps the two equal): one row per model, with the names it applies to.
pub fn markdown() -> String {
    let mut rows: Vec<(LibFn, Vec<String>)> =
        vec![(LibFn::Nondet, vec!["`__VERIFIER_nondet_*`".into(), "`nondet_*`".into()])];
    let named = TABLE.iter().map(|&(n, m)| (format!("`{n}`"), m));
    let math = MATH.iter().map(|&(n, m)| (format!("`{n}`, `{n}f`"), LibFn::Math(m, Prec::Double)));
    let unmodelled = MATH_UNMODELLED.iter().map(|n| (format!("`{n}`"), LibFn::Unmodelled));
    let named = named.chain(math).chain(unmodelled);
    let builtins = BUILTINS.iter().map(|&(n, m)| (format!("`__builtin_{n}`"), m));
    for (name, m) in named.chain(builtins) {
        match rows.iter_mut().find(|(r, _)| *r == m) {
            Some((_, names)) => names.push(name),
            None => rows.push((m, vec![name])),
        }
    }
    rows.push((LibFn::Unknown, vec!["any other function without body".into()]));
    let mut out = String::from("| functions | model |\n|---|---|\n");
    for (m, names) in rows {
        out.push_str(&format!("| {} | {} |\n", names.join(", "), m.meaning()));
    }
    out
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

    #[test]
    fn a_call_fits_a_model_by_its_number_of_arguments() {
        assert!(LibFn::of("calloc").arity().fits(2));
        assert!(!LibFn::of("calloc").arity().fits(1));
        assert!(LibFn::of("malloc").arity().fits(1));
        assert!(!LibFn::of("malloc").arity().fits(0));
        assert!(!LibFn::of("memcpy").arity().fits(4));
        assert!(LibFn::of("__builtin_expect").arity().fits(2));
        assert!(LibFn::of("printf").arity().fits(0) && LibFn::of("printf").arity().fits(7));
    }

    #[test]
    fn the_documentation_names_every_function_of_the_tables_once() {
        let doc = markdown();
        for (n, _) in TABLE {
            assert_eq!(doc.matches(&format!("`{n}`")).count(), 1, "{n}");
        }
        for (n, _) in BUILTINS {
            assert_eq!(doc.matches(&format!("`__builtin_{n}`")).count(), 1, "{n}");
        }
        assert!(doc.lines().skip(2).all(|l| !l.ends_with("|  |")), "every model has a meaning");
    }
}
