//! The program's allocator: the system's, counting what each thread holds
//! for the memory budgets of [`cardsmith::memory`].  Work that spends its
//! budget stops the program with an error naming the work and its limit;
//! nothing has been written by then (outputs are swapped into place only
//! once whole), so nothing is lost.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

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
        cardsmith::memory::credit(layout.size());
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match new_size.checked_sub(layout.size()) {
            Some(grown) => charge(grown),
            None => cardsmith::memory::credit(layout.size() - new_size),
        }
        System.realloc(ptr, layout, new_size)
    }
}

/// Counts an allocation; one past the budget of the work under way ends
/// the program with exit status 1.  The message is written without
/// allocating (the budget is already off, so a second report cannot come).
fn charge(bytes: usize) {
    if let Some(over) = cardsmith::memory::charge(bytes) {
        let mut stderr = std::io::stderr().lock();
        let _ = writeln!(
            stderr,
            "error[E0702]: {} took more than {} MiB of memory\n  help: a template must not build ever larger values (such as `{{% set s = s ~ s %}}` over and over)\nnothing written",
            over.what,
            over.limit >> 20
        );
        std::process::exit(1);
    }
}
