//! Work spread over the machine's cores, for the phases whose items are
//! independent (parsing files, checking cards, linting cards).  Results come
//! back in the order of the input, so the output of a phase does not depend
//! on the number of cores or on which thread finished first.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Every worker thread gets this much stack, so that how deep an input may
/// nest before pest's stack guard stops it does not depend on the thread.
const STACK: usize = 8 * 1024 * 1024;

/// `items.iter().map(f).collect()`, with the items shared out among the cores.
/// Each thread takes the next item when it is done with one, so a large item
/// does not hold up the ones behind it.  Even a single item is done on a
/// worker thread, so that every item runs with the same stack.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { return done };
            done.push((i, f(item)));
        }
    };
    let mut results = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..cores.min(items.len()))
            .filter_map(|_| std::thread::Builder::new().stack_size(STACK).spawn_scoped(scope, work).ok())
            .collect();
        let mut results = Vec::with_capacity(items.len());
        for thread in threads {
            match thread.join() {
                Ok(done) => results.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        // Items no thread could be started for.
        results.extend(work());
        results
    });
    results.sort_unstable_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Splits `items` into slices small enough to share out evenly among the
/// cores, and large enough that handing one out costs little.
pub fn chunks<T>(items: &[T]) -> Vec<&[T]> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let size = items.len().div_ceil(cores * 8).max(256);
    items.chunks(size).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<usize> = (0..1000).collect();
        let squares = super::map(&items, |n| n * n);
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
        let chunks = super::chunks(&items);
        assert_eq!(chunks.concat(), items);
    }
}
