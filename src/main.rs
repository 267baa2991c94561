//! The `cardsmith` command: the command line over the library.

#![warn(clippy::too_many_lines)]

/// `eprintln!` as the standard library has it, except that a failed write
/// (standard error on a full disk, or closed) never panics: it is noted, and
/// the run exits with status 2 (see `cli::console`).  Declared before the
/// modules, it stands in for the standard one in all of them.
macro_rules! eprintln {
    () => {
        $crate::cli::console::to_stderr(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::console::to_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!` that never panics, like [`eprintln!`].
macro_rules! eprint {
    ($($arg:tt)*) => {
        $crate::cli::console::to_stderr(format_args!($($arg)*))
    };
}

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
