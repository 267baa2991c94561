//! The peak memory of a child process, for the benchmarks that run the
//! `cardsmith` binary.

/// `struct rusage` of Linux on 64-bit targets: two `timeval`s (user and
/// system time, two words each), then fourteen `long`s, the first of which
/// is `ru_maxrss` in KiB.
#[repr(C)]
struct Rusage {
    times: [i64; 4],
    max_resident_kb: i64,
    rest: [i64; 13],
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, usage: *mut Rusage) -> i32;
}

/// Waits for the child `pid` and returns its wait status and the peak
/// resident memory of that process alone (not of its parent or siblings).
/// `std::process::Child::wait` does not give the resource usage.
pub fn wait_with_peak(pid: u32) -> Result<(i32, i64), String> {
    let pid = i32::try_from(pid).map_err(|_| "a process id out of range".to_string())?;
    let mut status = 0;
    let mut usage = Rusage { times: [0; 4], max_resident_kb: 0, rest: [0; 13] };
    // SAFETY: both pointers are to live, writable values of the layout
    // wait4(2) expects; the child is ours and not waited for elsewhere.
    let waited = unsafe { wait4(pid, &mut status, 0, &mut usage) };
    if waited != pid {
        return Err(format!("wait4 failed: {}", std::io::Error::last_os_error()));
    }
    Ok((status, usage.max_resident_kb))
}
