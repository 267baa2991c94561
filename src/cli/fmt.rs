//! `cardsmith fmt [--check] [PATH...]`.

use super::{atomic, project, read};
use cardsmith::diagnostics::render;
use cardsmith::fmt::{format_file, FormatError};
use cardsmith::source::Files;
use miette::{miette, Result};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], check_only: bool) -> Result<ExitCode> {
    let paths = project::Project::find()?.paths(paths)?;
    let mut files = Files::new();
    let mut unformatted = 0;
    let mut broken = 0;
    let mut total = 0;
    for path in project::collect(&paths)? {
        total += 1;
        let name = project::display_name(&path);
        let mut problems = Vec::new();
        let Some(id) = cardsmith::syntax::load(&mut files, &name, read::source(&path)?, &mut problems) else {
            eprint!("{}", render::human_string(&files, &problems));
            broken += 1;
            continue;
        };
        let source = files.get(id);
        let formatted = match format_file(&files, id) {
            Ok(text) => text,
            Err(FormatError::Syntax(diagnostics)) => {
                eprint!("{}", render::human_string(&files, &diagnostics));
                broken += 1;
                continue;
            }
            Err(FormatError::Unsafe(why)) => {
                return Err(miette!("{name}: not formatted, to keep it safe: {why}; please report this"));
            }
        };
        if formatted == source.text {
            continue;
        }
        unformatted += 1;
        if check_only {
            super::stdout(&diff(&name, &source.text, &formatted))?;
        } else {
            let mut text = formatted;
            if source.had_bom {
                text.insert(0, '\u{feff}');
            }
            atomic::replace_file(&path, &text)?;
        }
    }
    let verb = if check_only { "would reformat" } else { "reformatted" };
    eprintln!(
        "{verb} {unformatted} of {total} file{}; {broken} with syntax errors left as they are",
        if total == 1 { "" } else { "s" }
    );
    Ok(if broken > 0 || (check_only && unformatted > 0) { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn diff(name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(name, &format!("{name} (formatted)"))
        .to_string()
}
