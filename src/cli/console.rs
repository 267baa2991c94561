//! Standard error that never panics.  The standard `eprintln!` panics when
//! standard error cannot be written (`cardsmith check 2>/dev/full`); the
//! command line's own `eprintln!` and `eprint!`, declared in `main.rs` and
//! in scope in every module here, write through [`to_stderr`] instead, which
//! notes the failure and goes on.  A run that lost some of what it had to
//! say exits with status 2.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a write to standard error failed.
static LOST: AtomicBool = AtomicBool::new(false);

/// Writes to standard error; a failure is noted, not raised.
pub fn to_stderr(text: std::fmt::Arguments) {
    use std::io::Write;
    if std::io::stderr().lock().write_fmt(text).is_err() {
        LOST.store(true, Ordering::Relaxed);
    }
}

/// Whether some of what the run wrote to standard error was lost.
pub fn stderr_lost() -> bool {
    LOST.load(Ordering::Relaxed)
}
