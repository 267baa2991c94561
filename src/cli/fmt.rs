//! `cardsmith fmt [--check] [PATH...]`.
//!
//! Files are independent, so they are read, parsed and formatted (and, with
//! `--check`, diffed) on every core; what each file came to is then reported
//! and written one file after another in the sorted order of the paths, so
//! the output does not depend on the number of cores.  Before that, the
//! files are checked once, so that names written as a rulebook prints them
//! (`Close Action`, `Alt-1`) are written as their ruleset spells them.

use super::check;
use super::{atomic, project, read};
use cardsmith::diagnostics::render;
use cardsmith::fmt::{format_keeping_errors, spelling, FormatError};
use cardsmith::lint::{apply_fixes, Fix};
use cardsmith::source::{FileId, Files};
use miette::{miette, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What formatting one file came to.
struct Formatted {
    /// The file's syntax errors, rendered, when it has any: the items that
    /// hold them are kept as written.
    broken: Option<String>,
    /// The file would change: its diff with `--check`, else the new text
    /// (with the byte order mark it had).
    changed: Option<String>,
}

pub fn run(paths: &[PathBuf], check_only: bool) -> Result<ExitCode> {
    let project = project::Project::for_paths(paths)?;
    let paths_given = paths;
    let listed = project.files(&project.paths(paths)?)?;
    let mut manifest = Files::new();
    let warnings = project.exclude_warnings(&listed, &mut manifest);
    if !warnings.is_empty() {
        eprint!("{}", render::human_string(&manifest, &warnings));
    }
    let files = listed.files;
    // Checking the project costs more than formatting it: it is done only
    // when some file may write a name as a rulebook prints it.
    let sources = cardsmith::parallel::map(&files, |path| read::source(path));
    let printed = sources
        .iter()
        .any(|bytes| bytes.as_ref().is_ok_and(|bytes| spelling::may_be_printed(&String::from_utf8_lossy(bytes))));
    let spellings = if printed { spellings(&project, paths_given) } else { BTreeMap::new() };
    let read: Vec<(&PathBuf, Result<Vec<u8>>)> = files.iter().zip(sources).collect();
    let results = cardsmith::parallel::map(&read, |(path, bytes)| match bytes {
        Ok(bytes) => {
            format_one(path, bytes, check_only, spellings.get(&project::display_name(path)).map_or(&[], Vec::as_slice))
        }
        Err(_) => Ok(Formatted { broken: None, changed: None }),
    });
    let (mut unformatted, mut broken, mut left) = (0, 0, 0);
    for ((path, bytes), result) in read.into_iter().zip(results) {
        // A file that could not be read stops the run here, in order.
        let bytes = bytes?;
        let Formatted { broken: problems, changed } = result?;
        if let Some(rendered) = problems {
            eprint!("{rendered}");
            broken += 1;
        }
        if let Some(output) = changed {
            unformatted += 1;
            if check_only {
                super::stdout(&output)?;
            } else if let Some(warning) =
                atomic::replace_file(path, &bytes, &output)?.warning(&project::display_name(path), "formatted", "fmt")
            {
                eprintln!("{warning}");
                left += 1;
            }
        }
    }
    let total = files.len();
    let verb = if check_only { "would reformat" } else { "reformatted" };
    eprintln!(
        "{verb} {unformatted} of {total} file{}; {broken} with syntax errors, whose broken items are kept as written",
        if total == 1 { "" } else { "s" }
    );
    Ok(if broken > 0 || left > 0 || (check_only && unformatted > 0) { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The names each file writes as a rulebook prints them (`Close Action`,
/// `Alt-1`), to be written as their ruleset spells them, by the file's name:
/// only the checker can tell what such words name.  The edits are kept only
/// when the edited files check exactly as the files do; when the files cannot
/// be read or checked, there are none, and formatting reports why.
fn spellings(project: &project::Project, paths: &[PathBuf]) -> BTreeMap<String, Vec<Fix>> {
    let Ok(outcome) = check::check_paths(project, paths) else { return BTreeMap::new() };
    let mut by_file: BTreeMap<FileId, Vec<Fix>> = BTreeMap::new();
    for fix in spelling::spellings(&outcome.files, &outcome.project) {
        by_file.entry(fix.span.file).or_default().push(fix);
    }
    if by_file.is_empty() {
        return BTreeMap::new();
    }
    let edited: BTreeMap<String, String> = by_file
        .iter()
        .map(|(file, fixes)| {
            let file = outcome.files.get(*file);
            (file.name.clone(), apply_fixes(&file.text, fixes))
        })
        .collect();
    let by_name: BTreeMap<String, Vec<Fix>> =
        by_file.into_iter().map(|(file, fixes)| (outcome.files.get(file).name.clone(), fixes)).collect();
    let Ok(again) = check::check_paths_with(project, paths, &edited) else { return BTreeMap::new() };
    let said = |outcome: &cardsmith::workspace::Outcome| -> Vec<(String, String)> {
        outcome.diagnostics.iter().map(|d| (d.code.id.to_string(), d.message.clone())).collect()
    };
    if said(&again) != said(&outcome) {
        return BTreeMap::new();
    }
    by_name
}

/// Parses and formats one file read, in a table of its own so that files
/// can be done on several threads at once.  Items with syntax errors are
/// kept as written and the rest formatted around them.  `spellings` are
/// applied first, to a file without syntax errors.
fn format_one(path: &Path, bytes: &[u8], check_only: bool, spellings: &[Fix]) -> Result<Formatted> {
    let name = project::display_name(path);
    let mut files = Files::new();
    let mut problems = Vec::new();
    let Some(id) = cardsmith::syntax::load(&mut files, &name, bytes.to_vec(), &mut problems) else {
        return Ok(Formatted { broken: Some(render::human_string(&files, &problems)), changed: None });
    };
    let source = files.get(id);
    let mut respelled = Files::new();
    let (files, id) = if !spellings.is_empty() && parses(&files, id) {
        let id = respelled.add(name.as_str(), apply_fixes(&source.text, spellings));
        (&respelled, id)
    } else {
        (&files, id)
    };
    let (formatted, problems) = match format_keeping_errors(files, id) {
        Ok(formatted) => formatted,
        Err(FormatError::Syntax(diagnostics)) => {
            return Ok(Formatted { broken: Some(render::human_string(files, &diagnostics)), changed: None })
        }
        Err(FormatError::Unsafe(why)) => {
            return Err(miette!("{name}: not formatted, to keep it safe: {why}; please report this"));
        }
    };
    let broken = (!problems.is_empty()).then(|| render::human_string(files, &problems));
    if formatted == source.text {
        return Ok(Formatted { broken, changed: None });
    }
    if check_only {
        return Ok(Formatted { broken, changed: Some(diff(&name, &source.text, &formatted)) });
    }
    let mut text = formatted;
    if source.had_bom {
        text.insert(0, '\u{feff}');
    }
    Ok(Formatted { broken, changed: Some(text) })
}

/// Whether a file has no syntax error.
fn parses(files: &Files, id: FileId) -> bool {
    let mut problems = Vec::new();
    cardsmith::syntax::parse(files, id, &mut problems);
    problems.is_empty()
}

/// How long the diff of one file may look for the smallest diff.  Finding
/// it takes time that grows with the square of the lines when most lines
/// change (a 2.7 MB file reformatted throughout); past this, the diff is
/// finished at once, still exact but with larger hunks.
const DIFF_DEADLINE: std::time::Duration = std::time::Duration::from_millis(500);

/// The unified diff of a file and its formatted text, by lines, as a
/// terminal may show it: control and bidi characters escaped.
fn diff(name: &str, old: &str, new: &str) -> String {
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Patience)
        .deadline(std::time::Instant::now() + DIFF_DEADLINE)
        .diff_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(name, &format!("{name} (formatted)"))
        .to_string();
    cardsmith::diagnostics::render::escape_controls(&diff).into_owned()
}
