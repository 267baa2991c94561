//! `cardsmith check`.

use super::project;
use crate::diagnostics::render::{self, MessageFormat};
use crate::workspace::Outcome;
use miette::{IntoDiagnostic, Result};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], format: MessageFormat) -> Result<ExitCode> {
    let outcome = check_paths(&project::Project::find()?, paths)?;
    print(&outcome, format)?;
    Ok(if outcome.stats.errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Reads and checks the given paths (or the project's), naming files
/// relative to the current folder.
pub fn check_paths(project: &project::Project, paths: &[PathBuf]) -> Result<Outcome> {
    check_paths_with(project, paths, &std::collections::BTreeMap::new())
}

/// Like [`check_paths`], with the text of some files, by name, taken from
/// `replaced` instead of the disk: how a change is tried before it is written.
pub fn check_paths_with(
    project: &project::Project,
    paths: &[PathBuf],
    replaced: &std::collections::BTreeMap<String, String>,
) -> Result<Outcome> {
    let mut workspace = project.workspace();
    for path in project::collect(&project.paths(paths)?)? {
        let name = project::display_name(&path);
        let bytes = match replaced.get(&name) {
            Some(text) => text.clone().into_bytes(),
            None => super::read::source(&path)?,
        };
        workspace.add_bytes(&name, bytes);
    }
    Ok(workspace.check())
}

/// Prints the diagnostics, at most [`render::MOST_OF_ONE_CODE`] of one code
/// per file in the formats people read (JSON, for tools, has them all), and
/// the summary line.
pub fn print(outcome: &Outcome, format: MessageFormat) -> Result<()> {
    let files = &outcome.files;
    let (shown, left_out) = render::capped(files, &outcome.diagnostics, render::MOST_OF_ONE_CODE);
    match format {
        MessageFormat::Human => {
            let choice = if std::io::stderr().is_terminal() {
                codespan_reporting::term::termcolor::ColorChoice::Auto
            } else {
                codespan_reporting::term::termcolor::ColorChoice::Never
            };
            let mut stderr = codespan_reporting::term::termcolor::StandardStream::stderr(choice);
            render::human(files, shown, &mut stderr).into_diagnostic()?;
        }
        MessageFormat::Short => {
            let mut stderr = std::io::stderr().lock();
            for d in shown {
                writeln!(stderr, "{}", render::short(files, d)).into_diagnostic()?;
            }
        }
        MessageFormat::Json => {
            let lines: String = outcome.diagnostics.iter().map(|d| render::json(files, d) + "\n").collect();
            super::stdout(&lines)?;
        }
    }
    if format != MessageFormat::Json {
        for line in left_out {
            eprintln!("{line}");
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
