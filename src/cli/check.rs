//! `cardsmith check`.

use super::project;
use cardsmith::diagnostics::render::{self, MessageFormat};
use cardsmith::diagnostics::Diagnostic;
use cardsmith::workspace::Outcome;
use miette::Result;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], format: MessageFormat) -> Result<ExitCode> {
    let outcome = check_paths(&project::Project::for_paths(paths)?, paths)?;
    print(&outcome, format)?;
    let status = if outcome.stats.errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS };
    super::leave_for_exit(outcome);
    Ok(status)
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
    let (listed, sheets) = project.sources(paths)?;
    for path in &listed.files {
        let name = project::display_name(path);
        let bytes = match replaced.get(&name) {
            Some(text) => text.clone().into_bytes(),
            None => super::read::source(path)?,
        };
        workspace.add_bytes(&name, bytes);
    }
    for sheet in sheets {
        workspace.add_sheet(sheet.sheet, &sheet.bytes);
    }
    let mut outcome = workspace.check();
    project.add_exclude_warnings(&listed, &mut outcome);
    project.add_missing_art(&mut outcome);
    Ok(outcome)
}

/// What one check keeps for the next of the same project: each file's
/// parse, by name, and what checking and linting each card gave.
#[derive(Default)]
pub struct Kept {
    parses: std::collections::HashMap<String, cardsmith::workspace::Parsed>,
    cache: cardsmith::workspace::Cache,
}

/// Like [`check_paths`], reusing what the check before kept for every file
/// and card unchanged since, and keeping this check's for the next: how
/// `watch` checks again after a save.
pub fn check_paths_reusing(project: &project::Project, paths: &[PathBuf], kept: &mut Kept) -> Result<Outcome> {
    let mut workspace = project.workspace();
    workspace.reuse(std::mem::take(&mut kept.cache));
    let (listed, sheets) = project.sources(paths)?;
    for path in &listed.files {
        let name = project::display_name(path);
        match String::from_utf8(super::read::source(path)?) {
            Ok(text) => workspace.add_parsed(&name, &text, kept.parses.remove(&name)),
            Err(not_utf8) => workspace.add_bytes(&name, not_utf8.into_bytes()),
        }
    }
    for sheet in sheets {
        workspace.add_sheet(sheet.sheet, &sheet.bytes);
    }
    let (mut outcome, parses, cache) = workspace.check_keeping_parses();
    kept.parses = parses.into_iter().map(|p| (outcome.files.get(p.file()).name.clone(), p)).collect();
    kept.cache = cache;
    project.add_exclude_warnings(&listed, &mut outcome);
    project.add_missing_art(&mut outcome);
    Ok(outcome)
}

/// Prints the diagnostics, at most [`render::MOST_OF_ONE_CODE`] of one code
/// per file in the formats people read (JSON, for tools, has them all), and
/// the summary line.  JSON goes to standard output, the rest to standard error.
pub fn print(outcome: &Outcome, format: MessageFormat) -> Result<()> {
    let text = rendered(outcome, &outcome.diagnostics, format, std::io::stderr().is_terminal());
    if format == MessageFormat::Json {
        super::stdout(&text)?;
    } else {
        eprint!("{text}");
    }
    eprintln!("{}", summary(outcome));
    Ok(())
}

/// Some of an outcome's diagnostics as `format` shows them, in colour when
/// they go to a terminal (see [`colour`]).
pub fn rendered(outcome: &Outcome, diagnostics: &[Diagnostic], format: MessageFormat, terminal: bool) -> String {
    let options = render::Options { colour: colour(format, terminal), ..render::Options::plain(format) };
    render::render(&outcome.files, diagnostics, &options)
}

/// Colour for the rich format when the output is a terminal, unless the
/// environment asks for none (`NO_COLOR`, `TERM=dumb`).
fn colour(format: MessageFormat, terminal: bool) -> bool {
    let asked_for_none = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
        || std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    format == MessageFormat::Human && terminal && !asked_for_none
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
