//! `cardsmith check`.

use super::project;
use crate::diagnostics::render::{self, MessageFormat};
use crate::workspace::{Outcome, Workspace};
use miette::{IntoDiagnostic, Result};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], format: MessageFormat) -> Result<ExitCode> {
    let outcome = check_paths(paths)?;
    print(&outcome, format)?;
    Ok(if outcome.stats.errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Reads and checks the given paths (or the project's).
pub fn check_paths(paths: &[PathBuf]) -> Result<Outcome> {
    let paths = if paths.is_empty() { project::default_paths()? } else { paths.to_vec() };
    let mut workspace = Workspace::new();
    workspace.set_lint_config(project::lint_config()?);
    for path in project::collect(&paths)? {
        let bytes = super::read::source(&path)?;
        workspace.add_bytes(&project::display_name(&path), bytes);
    }
    Ok(workspace.check())
}

pub fn print(outcome: &Outcome, format: MessageFormat) -> Result<()> {
    let files = &outcome.files;
    match format {
        MessageFormat::Human => {
            let choice = if std::io::stderr().is_terminal() {
                codespan_reporting::term::termcolor::ColorChoice::Auto
            } else {
                codespan_reporting::term::termcolor::ColorChoice::Never
            };
            let mut stderr = codespan_reporting::term::termcolor::StandardStream::stderr(choice);
            render::human(files, &outcome.diagnostics, &mut stderr).into_diagnostic()?;
        }
        MessageFormat::Short => {
            let mut stderr = std::io::stderr().lock();
            for d in &outcome.diagnostics {
                writeln!(stderr, "{}", render::short(files, d)).into_diagnostic()?;
            }
        }
        MessageFormat::Json => {
            let mut stdout = std::io::stdout().lock();
            for d in &outcome.diagnostics {
                writeln!(stdout, "{}", render::json(files, d)).into_diagnostic()?;
            }
        }
    }
    eprintln!("{}", summary(outcome));
    Ok(())
}

pub fn summary(outcome: &Outcome) -> String {
    let s = outcome.stats;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "checked {}: {}, {}; {}, {}",
        plural(s.files, "file"),
        plural(s.cards, "card"),
        plural(s.decks, "deck"),
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
    )
}
