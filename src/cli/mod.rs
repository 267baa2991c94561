//! The command line: argument parsing, reading files, printing results.
//! It is part of the `cardsmith` binary, not of the library: this is the
//! only place that does I/O, looks at the terminal or sets the exit status.

mod atomic;
mod budget;
mod build;
mod check;
pub mod console;
mod engine_data;
mod explain;
mod fmt;
mod lint;
mod lsp;
mod new;
mod output;
mod play;
mod print;
mod project;
mod read;
mod rules;
mod serve;
mod simulate;
mod spreadsheet;
mod templates;
mod timeline;
mod watch;

use cardsmith::diagnostics::render::MessageFormat;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  cardsmith check                          check the project around the current folder
  cardsmith check cards/dreadnaught-2e     check one folder (and any files in it)
  cardsmith check --message-format short   one line per problem
  cardsmith watch                          check, then check again on every save, printing what changed
  cardsmith watch --serve --port 8000      also serve the HTML preview, reloaded on every save
  cardsmith lint --fix                     apply the certain fixes (casing, terminology)
  cardsmith fmt --check                    show what the formatter would change
  cardsmith build -o out                   write the engine data (JSON + schema) to out/
  cardsmith print cards/dreadnaught-2e --backs
                                           PDF sheets with duplex backs, PNGs, an HTML preview, TTS decks
  cardsmith templates dreadnaught-2e       copy a game's face templates into templates/ to make them your own
  cardsmith timeline --play \"1:Kinetic Strike\" --play \"2:Flak Batteries\"
                                           the order in which a turn's effects resolve
  cardsmith simulate --games 1000 --seed 7 --bot 2=greedy
                                           bots play the game: win rates, game length, cards (text, JSON, HTML)
  cardsmith play --seat 2=search           a game in the terminal against the bots
  cardsmith rules dreadnaught-2e           a bundled ruleset, numbered as its diagnostics cite it
  cardsmith explain E0304                  what a diagnostic code means
  cardsmith new my-ship --game dreadnaught-2e
  cardsmith new my-game --ruleset          a game of your own: a ruleset, cards and a deck to grow";

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
    Check(Checked),
    /// Check, then watch the project's folders and check again on every save, printing only what changed
    #[command(
        after_help = "Prints the check as `check` does, then, after each save of a card, ruleset or cardsmith.toml, the diagnostics that are new, a `fixed:` line for each one gone, and the summary. Output folders, hidden folders and editors' temporary files are not watched. Its formats are human and short (JSON is `check`'s). --serve also serves the HTML preview of `print --format html` at http://127.0.0.1:PORT/, made again after every save; an open page reloads itself. Ctrl-C stops it (exit status 0); it exits 2 when the project cannot be read at the start."
    )]
    Watch(watch::Args),
    /// Check, with the card-text lints, and optionally apply their certain fixes
    Lint {
        /// Files or folders to lint (default: the project found from the current folder)
        paths: Vec<std::path::PathBuf>,
        /// Apply the fixes that are certain (keyword casing, terminology), writing files atomically
        #[arg(long)]
        fix: bool,
        /// List every lint with its code and default level
        #[arg(long)]
        list: bool,
        /// How to print diagnostics
        #[arg(long, value_enum, default_value = "human")]
        message_format: DiagnosticFormat,
    },
    /// Format rulesets and cards in the one canonical layout
    #[command(
        after_help = "Exit status: 0 when done (or, with --check, when nothing would change), 1 when a file would change or does not parse, 2 on usage or I/O problems."
    )]
    Fmt {
        /// Files or folders to format (default: the project found from the current folder)
        paths: Vec<std::path::PathBuf>,
        /// Change nothing; show a diff of each file that is not formatted
        #[arg(long)]
        check: bool,
    },
    /// Check, then write the engine data: one JSON document per ruleset and schema.json
    #[command(
        after_help = "The output folder is replaced as a whole, atomically; nothing is written when the input has errors or holds no cards, or when the output folder is, holds or lies inside an input. A second run into the same folder waits for the first.\nExit status: 0 when written, 1 when the input has errors, 2 on usage or I/O problems."
    )]
    Build(Output),
    /// Check, then write printable proxies: PDF sheets, PNG faces, an HTML preview, Tabletop Simulator decks
    #[command(
        after_help = "The output folder is replaced as a whole, atomically; nothing is written when the input has errors or holds no cards, or when the output folder is, holds or lies inside an input. A second run into the same folder waits for the first.\nDefaults come from `[print]` in cardsmith.toml.\nExit status: 0 when written (warnings allowed), 1 when the input has errors, 2 on usage or I/O problems."
    )]
    Print(print::Args),
    /// Write a game's face templates and icons into the project, to edit: print then uses them
    #[command(
        after_help = "Writes the game's bundled templates (or, for a game without any, the generic face and back) and its icons.svg to templates/GAME/ beside cardsmith.toml, where print reads a project's own templates. An existing file is never replaced: when one is there, nothing is written.\nExit status: 0 when written, 2 when the game is unknown, a file exists, or on I/O problems."
    )]
    Templates(templates::Args),
    /// Check, then write each card kind's cards as a spreadsheet table (CSV): a row per card, a column per field
    #[command(
        after_help = "Writes GAME-KIND.csv for every kind that has cards; the output folder is replaced as a whole, atomically. `cardsmith import` reads such a table back.\nExit status: 0 when written, 1 when the input has errors, 2 on usage or I/O problems."
    )]
    Export {
        /// Write CSV tables (the one format so far)
        #[arg(long, required = true)]
        csv: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Write a card file from a spreadsheet table (CSV or XLSX) of one card kind, each problem shown at its cell
    #[command(
        after_help = "The header row names the columns: `name`, `tags`, the kind's fields, `effects` and `lints` (case, spaces and underscores do not matter; --map renames others). A cell holds what follows the field's name on a card's line; text fields hold the text itself.\nNothing is written when a cell has an error, and an existing file is replaced only with --update, which merges the table's cards into it by name (the other cards and the comments stay).\nExit status: 0 when written, 1 when a cell has an error, 2 on usage or I/O problems."
    )]
    Import {
        /// The table to read
        table: std::path::PathBuf,
        /// The game the cards are for
        #[arg(long)]
        game: String,
        /// The kind of every card in the table
        #[arg(long)]
        kind: String,
        /// A column whose header is not a field's name: `--map "Card Name=name"` (repeatable)
        #[arg(long, value_name = "HEADER=FIELD")]
        map: Vec<String>,
        /// The card file to write (default: the table's name with `.cards`)
        #[arg(short = 'o', long = "out")]
        out: Option<std::path::PathBuf>,
        /// Merge the table's cards into the existing card file by name: each replaces the card of its name, the rest and the comments stay
        #[arg(long)]
        update: bool,
        /// The worksheet of an XLSX workbook to read (default: the first)
        #[arg(long)]
        worksheet: Option<String>,
    },
    /// Print the JSON Schema of the engine data (the schema.json that build writes)
    Schema,
    /// Print the order in which the effects of a turn's cards resolve
    Timeline(timeline::Args),
    /// Play many games with bots and report win rates, first-player advantage, game length, score curves and cards
    Simulate(simulate::Args),
    /// Play one game in the terminal, against bots or between them
    Play(play::Args),
    /// Print a bundled ruleset with the line numbers its diagnostics cite, or write it to a new file
    #[command(
        after_help = "Without ID, lists the bundled rulesets.  A diagnostic pointing at `<bundled>/ID.rules:LINE` points at that line of `cardsmith rules ID`.\n--out writes the ruleset exactly as bundled, a start for a ruleset of your own; an existing file is never replaced."
    )]
    Rules {
        /// The bundled ruleset to print
        #[arg(value_parser = bundled_games())]
        id: Option<String>,
        /// Write it to this new file instead, without line numbers
        #[arg(short = 'o', long = "out", requires = "id")]
        out: Option<std::path::PathBuf>,
    },
    /// Explain a diagnostic code, such as E0304
    Explain {
        /// The code (E0304) or its name (initiative-off-scale); `--list` lists them all
        code: Option<String>,
        /// List every code
        #[arg(long)]
        list: bool,
    },
    /// Run the language server, speaking the Language Server Protocol over standard input and output
    #[command(
        after_help = "Editors start it; it checks the project around the folder they open, with unsaved buffers in place of their files, and offers diagnostics, quick fixes, formatting, an outline, hover, go to definition, references, completion and highlighting.  See docs/lsp.md."
    )]
    Lsp,
    /// Create a new project that checks clean
    New {
        /// The folder to create
        name: std::path::PathBuf,
        /// The bundled game the project's cards are for
        #[arg(long, required_unless_present = "ruleset", value_parser = bundled_games())]
        game: Option<String>,
        /// Start a game of your own instead: a small ruleset, cards and a deck to grow
        #[arg(long, conflicts_with = "game")]
        ruleset: bool,
    },
}

/// The games `new --game` offers: the bundled ones, found in the binary.
fn bundled_games() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(cardsmith::check::builtin::ids())
}

/// `--message-format`: the library's [`MessageFormat`] as a command-line value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DiagnosticFormat {
    /// Source snippets with labels, like rustc.
    #[default]
    Human,
    /// One line per diagnostic: `file:line:column: severity[code]: message`.
    Short,
    /// One JSON object per line, for editors and CI.
    Json,
}

impl From<DiagnosticFormat> for MessageFormat {
    fn from(format: DiagnosticFormat) -> MessageFormat {
        match format {
            DiagnosticFormat::Human => MessageFormat::Human,
            DiagnosticFormat::Short => MessageFormat::Short,
            DiagnosticFormat::Json => MessageFormat::Json,
        }
    }
}

/// What a command that only checks is told.
#[derive(clap::Args)]
struct Checked {
    /// Files or folders to check (default: the project found from the current folder)
    paths: Vec<std::path::PathBuf>,
    /// How to print diagnostics
    #[arg(long, value_enum, default_value = "human")]
    message_format: DiagnosticFormat,
}

/// What a command that checks and then writes a folder is told.
#[derive(clap::Args)]
struct Output {
    /// Files or folders to read (default: the project found from the current folder)
    paths: Vec<std::path::PathBuf>,
    /// The output folder (default: `[build] out` in cardsmith.toml, else `out`, for build; `csv` for export)
    #[arg(short = 'o', long = "out")]
    out: Option<std::path::PathBuf>,
    /// How to print diagnostics
    #[arg(long, value_enum, default_value = "human")]
    message_format: DiagnosticFormat,
}

/// Exit status for problems with the command or the file system.
const USAGE_OR_IO: u8 = 2;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    budget::start_watchdog();
    let result = match cli.command {
        Command::Check(Checked { paths, message_format }) => check::run(&paths, message_format.into()),
        Command::Watch(args) => watch::run(&args),
        Command::Lint { paths, fix, list, message_format } => lint::run(&paths, fix, list, message_format.into()),
        Command::Fmt { paths, check } => fmt::run(&paths, check),
        Command::Build(Output { paths, out, message_format }) => {
            build::run(&paths, out.as_deref(), message_format.into())
        }
        Command::Print(args) => print::run(&args),
        Command::Templates(args) => templates::run(&args),
        Command::Export { csv: _, output: Output { paths, out, message_format } } => {
            spreadsheet::export(&paths, out.as_deref(), message_format.into())
        }
        Command::Import { table, game, kind, map, out, update, worksheet } => {
            spreadsheet::import(&spreadsheet::ImportArgs {
                table: &table,
                game: &game,
                kind: &kind,
                map: &map,
                out: out.as_deref(),
                update,
                worksheet: worksheet.as_deref(),
            })
        }
        Command::Schema => stdout(&cardsmith::backend::schema::text()).map(|()| ExitCode::SUCCESS),
        Command::Timeline(args) => timeline::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Rules { id, out } => rules::run(id.as_deref(), out.as_deref()),
        Command::Explain { code, list } => explain::run(code.as_deref(), list),
        Command::New { name, game, ruleset } => new::run(&name, game.as_deref(), ruleset),
        Command::Lsp => lsp::run(),
    };
    let code = match result {
        Ok(code) => code,
        Err(report) => {
            eprintln!("{}", describe(&report));
            ExitCode::from(USAGE_OR_IO)
        }
    };
    // What could not be said could not be read: the run did not do its job.
    if console::stderr_lost() {
        return ExitCode::from(USAGE_OR_IO);
    }
    code
}

/// Hands a command's large results (files, trees, IR, diagnostics) to the
/// end of the process without freeing them.  The command has written its
/// output and the process exits next: freeing a hundred thousand cards'
/// allocations one by one would only delay the exit, while the operating
/// system takes the memory back at once.
pub fn leave_for_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Writes to standard output.  A reader that stops early (`cardsmith explain
/// --list | head`) ends the output quietly instead of failing the run.
fn stdout(text: &str) -> miette::Result<()> {
    use miette::IntoDiagnostic;
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.into_diagnostic(),
    }
}

/// An application error as `error: …`, its causes and its help, one per line.
fn describe(report: &miette::Report) -> String {
    let mut out = format!("error: {report}");
    for cause in report.chain().skip(1) {
        out.push_str(&format!("\n  caused by: {cause}"));
    }
    if let Some(help) = report.help() {
        out.push_str(&format!("\n  help: {help}"));
    }
    // Paths and names from the user may hold control characters.
    cardsmith::diagnostics::render::escape_controls(&out).into_owned()
}
