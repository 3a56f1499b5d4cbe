//! Linux signal numbers and their usual names, for messages ("killed by signal 11 (SIGSEGV)",
//! "stopped by SIGINT"). The numbers are Linux's on x86 and ARM; `driver::signals` checks them
//! against the system's.

/// The number of SIGINT (Ctrl-C).
pub const SIGINT: i32 = 2;
/// The number of SIGTERM.
pub const SIGTERM: i32 = 15;

/// The signals named, with their numbers.
pub const SIGNALS: [(i32, &str); 14] = [
    (1, "SIGHUP"),
    (SIGINT, "SIGINT"),
    (3, "SIGQUIT"),
    (4, "SIGILL"),
    (6, "SIGABRT"),
    (7, "SIGBUS"),
    (8, "SIGFPE"),
    (9, "SIGKILL"),
    (11, "SIGSEGV"),
    (13, "SIGPIPE"),
    (14, "SIGALRM"),
    (SIGTERM, "SIGTERM"),
    (24, "SIGXCPU"),
    (25, "SIGXFSZ"),
];

/// The usual name of the signal `sig`, when it is one of `SIGNALS`.
pub fn signal_name(sig: i32) -> Option<&'static str> {
    SIGNALS.iter().find(|(n, _)| *n == sig).map(|(_, name)| *name)
}
