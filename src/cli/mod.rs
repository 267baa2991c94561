//! The command line: argument parsing, reading files, printing results.
//! This is the only place that does I/O.

mod check;
mod explain;
mod new;
mod project;

use crate::diagnostics::render::MessageFormat;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  cardsmith check                          check the project around the current folder
  cardsmith check cards/dreadnaught-2e     check one folder (and any files in it)
  cardsmith check --message-format short   one line per problem
  cardsmith explain E0304                  what a diagnostic code means
  cardsmith new my-ship --game dreadnaught-2e";

#[derive(Parser)]
#[command(name = "cardsmith", version, about = "A compiler for tabletop card games", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check rulesets and cards, and report every problem
    #[command(
        after_help = "Exit status: 0 when clean (warnings allowed), 1 when the input has errors, 2 on usage or I/O problems."
    )]
    Check {
        /// Files or folders to check (default: the project found from the current folder)
        paths: Vec<std::path::PathBuf>,
        /// How to print diagnostics
        #[arg(long, value_enum, default_value = "human")]
        message_format: MessageFormat,
    },
    /// Explain a diagnostic code, such as E0304
    Explain {
        /// The code (E0304) or its name (initiative-off-scale); `--list` lists them all
        code: Option<String>,
        /// List every code
        #[arg(long)]
        list: bool,
    },
    /// Create a new project that checks clean
    New {
        /// The folder to create
        name: std::path::PathBuf,
        /// The game the project's cards are for
        #[arg(long, default_value = "dreadnaught-2e")]
        game: String,
    },
}

/// Exit status for problems with the command or the file system.
const USAGE_OR_IO: u8 = 2;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { paths, message_format } => check::run(&paths, message_format),
        Command::Explain { code, list } => explain::run(code.as_deref(), list),
        Command::New { name, game } => new::run(&name, &game),
    };
    match result {
        Ok(code) => code,
        Err(report) => {
            eprintln!("{report:?}");
            ExitCode::from(USAGE_OR_IO)
        }
    }
}
