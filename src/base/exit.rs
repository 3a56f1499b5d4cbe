//! The exit status of a `vcov` process: what `main` returns and what `vcov batch` reads back from
//! its children, so that the codes have one owner.

use super::signal::SIGINT;

/// The process exit status.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ExitStatus {
    /// Everything worked.
    Success = 0,
    /// A check failed: `vcov replay` could not confirm a claim.
    CheckFailed = 1,
    /// The input was bad.
    Error = 2,
    /// vcov failed (a bug): an internal error was caught and reported.
    InternalError = 3,
    /// `--timelimit` or `--memory-limit` ended the run before it had a report (it had no product a
    /// second of CPU past the time limit, or the report took longer): nothing was written.
    LimitReached = 4,
    /// SIGINT stopped the run; its report was written (128 + 2, as shells report it).
    Interrupted = 130,
    /// SIGTERM stopped the run; its report was written (128 + 15).
    Terminated = 143,
}

impl ExitStatus {
    /// Every status, in the order of their codes.
    pub const ALL: [ExitStatus; 7] = [
        ExitStatus::Success,
        ExitStatus::CheckFailed,
        ExitStatus::Error,
        ExitStatus::InternalError,
        ExitStatus::LimitReached,
        ExitStatus::Interrupted,
        ExitStatus::Terminated,
    ];

    /// The status whose code is `code`, if vcov exits with it.
    pub fn from_code(code: i32) -> Option<ExitStatus> {
        ExitStatus::ALL.into_iter().find(|s| *s as i32 == code)
    }

    /// The status of a run that wrote its report: stopped by `signal` (SIGINT, SIGTERM), if one did.
    pub fn after(signal: Option<i32>) -> ExitStatus {
        match signal {
            None => ExitStatus::Success,
            Some(SIGINT) => ExitStatus::Interrupted,
            Some(_) => ExitStatus::Terminated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::signal::SIGTERM;

    #[test]
    fn codes_read_back_and_signals_are_128_plus() {
        for s in ExitStatus::ALL {
            assert_eq!(ExitStatus::from_code(s as i32), Some(s));
        }
        assert_eq!(ExitStatus::from_code(5), None);
        assert_eq!(ExitStatus::from_code(-1), None);
        assert_eq!(ExitStatus::after(Some(SIGINT)) as i32, 128 + SIGINT);
        assert_eq!(ExitStatus::after(Some(SIGTERM)) as i32, 128 + SIGTERM);
        assert_eq!(ExitStatus::after(None), ExitStatus::Success);
    }
}
