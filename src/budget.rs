//! Budgets for work done on behalf of a file's author, such as drawing a
//! face with a project's own template: code that could otherwise build a
//! string of a terabyte from a few bytes (`{% set s = s ~ s %}` forty
//! times) or loop for hours without writing a byte.
//!
//! [`within`] runs a piece of work with a budget of memory, counted on the
//! calling thread, and of time.  The library only counts: the program's
//! allocator reports each allocation and release with [`charge`] and
//! [`credit`], a watchdog of the program asks [`overdue`] now and then, and
//! the program decides what to do with a budget spent (the `cardsmith`
//! binary stops with an error naming the work and its limit).  Without them
//! a budget is never spent.

use std::cell::Cell;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The work being done on this thread and what it may still allocate.
#[derive(Clone, Copy)]
struct Scope {
    /// Bytes allocated by the work, less those it released.
    used: isize,
    limit: usize,
    /// What the work is, for the message: copied in, since the allocator
    /// that reports an overrun may allocate nothing.
    what: Name,
}

/// A short text kept without allocating: the first [`Name::BYTES`] bytes of
/// a name, cut at a character boundary.
#[derive(Clone, Copy)]
pub struct Name {
    bytes: [u8; Name::BYTES],
    len: usize,
}

impl Name {
    const BYTES: usize = 160;

    fn of(text: &str) -> Name {
        let mut len = text.len().min(Name::BYTES);
        while !text.is_char_boundary(len) {
            len -= 1;
        }
        let mut bytes = [0; Name::BYTES];
        bytes[..len].copy_from_slice(&text.as_bytes()[..len]);
        Name { bytes, len }
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

thread_local! {
    static SCOPE: Cell<Option<Scope>> = const { Cell::new(None) };
}

/// A budget spent: the work, and the limit it went past.
pub struct Overrun {
    pub what: Name,
    pub limit: Limit,
}

/// What a piece of work may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// Bytes held at once on its thread.
    Memory(usize),
    /// Time from its start.
    Time(Duration),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Memory(bytes) => write!(f, "more than {} MiB of memory", bytes >> 20),
            Limit::Time(time) => write!(f, "longer than {} s", time.as_secs()),
        }
    }
}

/// The work under way on every thread, each with its deadline, for
/// [`overdue`].
static RUNNING: Mutex<Vec<(u64, Instant, Duration, String)>> = Mutex::new(Vec::new());

/// Runs `work` with at most `memory` bytes allocated at once on this
/// thread, for at most `time`; `what` names it if it goes past (`"drawing a
/// face with R/K.svg"`).  Memory budgets do not nest: an inner one replaces
/// the outer one while it runs.
pub fn within<T>(memory: usize, time: Duration, what: &str, work: impl FnOnce() -> T) -> T {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    running().push((id, Instant::now() + time, time, what.to_string()));
    let previous = SCOPE.replace(Some(Scope { used: 0, limit: memory, what: Name::of(what) }));
    let result = work();
    SCOPE.set(previous);
    running().retain(|(running, ..)| *running != id);
    result
}

fn running() -> std::sync::MutexGuard<'static, Vec<(u64, Instant, Duration, String)>> {
    RUNNING.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The work that has run past its time by `grace` or more, if any: what it
/// is and its limit.
pub fn overdue(grace: Duration) -> Option<(String, Limit)> {
    let now = Instant::now();
    let running = running();
    let late = running.iter().find(|(_, deadline, ..)| now > *deadline + grace)?;
    Some((late.3.clone(), Limit::Time(late.2)))
}

/// Counts `bytes` allocated on this thread; says when they spend the budget
/// of the work under way, which is then over (no second report).
pub fn charge(bytes: usize) -> Option<Overrun> {
    // A thread being torn down has no scope left to charge.
    let scope = SCOPE.try_with(Cell::get).ok().flatten()?;
    let used = scope.used.saturating_add(bytes.min(isize::MAX as usize) as isize);
    if used > scope.limit as isize {
        SCOPE.set(None);
        return Some(Overrun { what: scope.what, limit: Limit::Memory(scope.limit) });
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
        within(100, Duration::from_secs(60), "test work", || {
            assert!(charge(60).is_none());
            credit(60);
            assert!(charge(60).is_none(), "released bytes are free again");
            let over = charge(41).expect("past the budget");
            assert_eq!((over.what.as_str(), over.limit), ("test work", Limit::Memory(100)));
            assert!(charge(1000).is_none(), "an overrun is reported once");
        });
        assert!(charge(usize::MAX).is_none(), "no budget outside `within`");
    }
}

#[cfg(test)]
mod time_tests {
    use super::*;

    #[test]
    fn work_past_its_time_is_overdue_until_it_ends() {
        let what = "slow test work";
        let is_late = || overdue(Duration::ZERO).is_some_and(|(late, _)| late == what);
        within(0, Duration::ZERO, what, || {
            std::thread::sleep(Duration::from_millis(5));
            assert!(is_late());
        });
        assert!(!is_late(), "ended work is not overdue");
    }
}
