//! Shared vocabulary of every layer: source files and spans, diagnostics, dense ids, a C tokenizer,
//! markup escaping, the process exit status, the names of signals, the run's time limit (`clock`)
//! and fixed-width two's complement (`bits`) and IEEE 754 floating point (`fp`).
//!
//! Invariant: this module depends on `std` only, and `fp` on `rustc_apfloat`.

pub mod bits;
pub mod clock;
mod ctokens;
mod diag;
mod exit;
pub mod fp;
pub mod markup;
mod signal;
mod source;

pub use ctokens::c_tokens;
pub use diag::{Diagnostic, Severity};
pub use exit::ExitStatus;
pub use signal::{signal_name, SIGINT, SIGNALS, SIGTERM};
pub use source::{LineCol, SourceFile, Span};

/// Declares a dense `u32` index newtype with the usual derives and conversions.
///
/// Ids are created by the owner of the table they index and stay valid for the
/// lifetime of that table.
#[macro_export]
macro_rules! id_type {
    ($(#[$meta:meta])* $vis:vis struct $name:ident;) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        $vis struct $name(pub u32);

        impl $name {
            /// The id as an index into its table.
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }

            /// The id of the `idx`-th element of its table.
            #[inline]
            pub fn from_idx(idx: usize) -> Self {
                debug_assert!(idx <= u32::MAX as usize, "id overflow");
                Self(idx as u32)
            }
        }
    };
}
