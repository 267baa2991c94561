//! The budgets of [`cardsmith::budget`] held: the program's allocator is the
//! system's, counting what each thread holds, and a watchdog thread looks
//! for work past its time.  Work that spends its budget stops the program
//! with an error naming the work and its limit; nothing has been written by
//! then (outputs are swapped into place only once whole), so nothing is
//! lost.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::time::Duration;

struct Budgeted;

#[global_allocator]
static ALLOCATOR: Budgeted = Budgeted;

// SAFETY: every call is passed on to the system allocator unchanged; the
// counting around it neither allocates nor touches the memory.
unsafe impl GlobalAlloc for Budgeted {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        charge(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        charge(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        cardsmith::budget::credit(layout.size());
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match new_size.checked_sub(layout.size()) {
            Some(grown) => charge(grown),
            None => cardsmith::budget::credit(layout.size() - new_size),
        }
        System.realloc(ptr, layout, new_size)
    }
}

/// Counts an allocation; one past the budget of the work under way ends
/// the program.  The message is written without allocating (the budget is
/// already off, so a second report cannot come).
fn charge(bytes: usize) {
    if let Some(over) = cardsmith::budget::charge(bytes) {
        stop(over.what.as_str(), over.limit);
    }
}

/// How long work may run past its time before the watchdog stops it: work
/// that checks its own time (a face at its next write) stops itself first,
/// with a diagnostic, and carries on with the next.
const GRACE: Duration = Duration::from_secs(10);

/// Starts the watchdog, which ends the program when work runs past its
/// time by [`GRACE`] without stopping itself.
pub fn start_watchdog() {
    let watchdog = std::thread::Builder::new().name("watchdog".into()).spawn(|| loop {
        std::thread::sleep(Duration::from_millis(250));
        if let Some((what, limit)) = cardsmith::budget::overdue(GRACE) {
            stop(&what, limit);
        }
    });
    // Without a thread of its own the program runs unwatched, as a library
    // user's does.
    drop(watchdog);
}

/// Ends the program (exit status 1) over work that spent its budget.
fn stop(what: &str, limit: cardsmith::budget::Limit) -> ! {
    let _ = writeln!(
        std::io::stderr().lock(),
        "error[E0702]: {what} took {limit}\n  help: a template must not build ever larger values (such as `{{% set s = s ~ s %}}` over and over) nor loop without end\nnothing written"
    );
    std::process::exit(1);
}
