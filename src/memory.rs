//! Memory budgets for work done on behalf of a file's author, such as
//! drawing a face with a project's own template: code that could otherwise
//! build a string of a terabyte from a few bytes (`{% set s = s ~ s %}`
//! forty times).
//!
//! [`within`] runs a piece of work with a budget of bytes on the calling
//! thread.  The library only counts: the program's allocator reports each
//! allocation and release with [`charge`] and [`credit`], and decides what
//! to do when [`charge`] says the budget is spent (the `cardsmith` binary
//! stops with an error naming the work and its limit).  Without such an
//! allocator the budget is never spent.

use std::cell::Cell;

/// The work being done on this thread and what it may still allocate.
#[derive(Clone, Copy)]
struct Scope {
    /// Bytes allocated by the work, less those it released.
    used: isize,
    limit: usize,
    /// What the work is, for the message; lives as long as the scope.
    what: *const str,
}

thread_local! {
    static SCOPE: Cell<Option<Scope>> = const { Cell::new(None) };
}

/// A budget spent: the work and its limit.
pub struct Overrun {
    pub what: &'static str,
    pub limit: usize,
}

/// Runs `work` with at most `limit` bytes allocated at once on this thread;
/// `what` names it if it goes past (`"drawing a face with R/K.svg"`).
/// Budgets do not nest: an inner one replaces the outer one while it runs.
pub fn within<T>(limit: usize, what: &str, work: impl FnOnce() -> T) -> T {
    let previous = SCOPE.replace(Some(Scope { used: 0, limit, what: what as *const str }));
    let result = work();
    SCOPE.set(previous);
    result
}

/// Counts `bytes` allocated on this thread; says when they spend the budget
/// of the work under way, which is then over (no second report).
pub fn charge(bytes: usize) -> Option<Overrun> {
    // A thread being torn down has no scope left to charge.
    let scope = SCOPE.try_with(Cell::get).ok().flatten()?;
    let used = scope.used.saturating_add(bytes.min(isize::MAX as usize) as isize);
    if used > scope.limit as isize {
        SCOPE.set(None);
        // SAFETY: `what` borrows the argument of the `within` still running
        // on this thread (a scope is removed when its `within` returns), and
        // the overrun is reported before that call can return.
        let what = unsafe { &*scope.what };
        return Some(Overrun { what, limit: scope.limit });
    }
    SCOPE.set(Some(Scope { used, ..scope }));
    None
}

/// Counts `bytes` released on this thread.
pub fn credit(bytes: usize) {
    let _ = SCOPE.try_with(|cell| {
        if let Some(scope) = cell.get() {
            let used = scope.used.saturating_sub(bytes.min(isize::MAX as usize) as isize);
            cell.set(Some(Scope { used, ..scope }));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_counts_what_is_held_at_once() {
        within(100, "test work", || {
            assert!(charge(60).is_none());
            credit(60);
            assert!(charge(60).is_none(), "released bytes are free again");
            let over = charge(41).expect("past the budget");
            assert_eq!((over.what, over.limit), ("test work", 100));
            assert!(charge(1000).is_none(), "an overrun is reported once");
        });
        assert!(charge(usize::MAX).is_none(), "no budget outside `within`");
    }
}
