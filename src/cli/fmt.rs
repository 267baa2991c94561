//! `cardsmith fmt [--check] [PATH...]`.
//!
//! Files are independent, so they are read, parsed and formatted (and, with
//! `--check`, diffed) on every core; what each file came to is then reported
//! and written one file after another in the sorted order of the paths, so
//! the output does not depend on the number of cores.

use super::{atomic, project, read};
use cardsmith::diagnostics::render;
use cardsmith::fmt::{format_keeping_errors, FormatError};
use cardsmith::source::Files;
use miette::{miette, Result};
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
    let paths = project::Project::find()?.paths(paths)?;
    let files = project::collect(&paths)?;
    let results = cardsmith::parallel::map(&files, |path| format_one(path, check_only));
    let (mut unformatted, mut broken) = (0, 0);
    for (path, result) in files.iter().zip(results) {
        let Formatted { broken: problems, changed } = result?;
        if let Some(rendered) = problems {
            eprint!("{rendered}");
            broken += 1;
        }
        if let Some(output) = changed {
            unformatted += 1;
            if check_only {
                super::stdout(&output)?;
            } else {
                atomic::replace_file(path, &output)?;
            }
        }
    }
    let total = files.len();
    let verb = if check_only { "would reformat" } else { "reformatted" };
    eprintln!(
        "{verb} {unformatted} of {total} file{}; {broken} with syntax errors, whose broken items are kept as written",
        if total == 1 { "" } else { "s" }
    );
    super::leave_for_exit(files);
    Ok(if broken > 0 || (check_only && unformatted > 0) { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Reads, parses and formats one file, in a table of its own so that files
/// can be done on several threads at once.  Items with syntax errors are
/// kept as written and the rest formatted around them.
fn format_one(path: &Path, check_only: bool) -> Result<Formatted> {
    let name = project::display_name(path);
    let mut files = Files::new();
    let mut problems = Vec::new();
    let Some(id) = cardsmith::syntax::load(&mut files, &name, read::source(path)?, &mut problems) else {
        return Ok(Formatted { broken: Some(render::human_string(&files, &problems)), changed: None });
    };
    let source = files.get(id);
    let (formatted, problems) = match format_keeping_errors(&files, id) {
        Ok(formatted) => formatted,
        Err(FormatError::Syntax(diagnostics)) => {
            return Ok(Formatted { broken: Some(render::human_string(&files, &diagnostics)), changed: None })
        }
        Err(FormatError::Unsafe(why)) => {
            return Err(miette!("{name}: not formatted, to keep it safe: {why}; please report this"));
        }
    };
    let broken = (!problems.is_empty()).then(|| render::human_string(&files, &problems));
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

fn diff(name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(name, &format!("{name} (formatted)"))
        .to_string()
}
