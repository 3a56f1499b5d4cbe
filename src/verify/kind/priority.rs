//! The lower scheduling priority of k-induction's thread in a portfolio (`KindConfig::yield_from_k`):
//! it changes how the CPU is shared, never an answer.

/// Lowers the scheduling priority of the calling thread alone (`KindConfig::yield_from_k`); where
/// that cannot be done, nothing changes (it only affects how the CPU is shared, never an answer).
pub(super) fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` and `setpriority` only read their arguments; on Linux, a thread id as the
    // `PRIO_PROCESS` target names that thread only.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, YIELD_NICE);
    }
}

/// The nice value of a thread past `KindConfig::yield_from_k` (CFS gives a nice-0 thread about
/// nine times its share).
#[cfg(target_os = "linux")]
pub(super) const YIELD_NICE: libc::c_int = 10;

/// The state variables above which k-induction yields from the start (`KindConfig::yield_from_k`;
/// a SystemC pipeline has 47, a ring of thirteen processes 815).
pub(super) const YIELD_VARS: usize = 256;
