//! `cardsmith lint`: the check with its lints, the lint catalogue, and
//! `--fix` for the fixes that are certain.

use super::{atomic, check};
use cardsmith::diagnostics::render::MessageFormat;
use cardsmith::lint::{apply_fixes, Fix, LINTS};
use miette::Result;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], fix: bool, list: bool, format: MessageFormat) -> Result<ExitCode> {
    if list {
        let mut table = format!("{:<28} {:<6} {:<6} fix\n", "lint", "code", "level");
        for lint in LINTS {
            let fix = if lint.fixable { "yes" } else { "" };
            table += &format!("{:<28} {:<6} {:<6} {fix}\n", lint.name, lint.code.id, lint.default.word());
        }
        return super::stdout(&table).map(|()| ExitCode::SUCCESS);
    }
    let project = super::project::Project::find()?;
    let mut outcome = check::check_paths(&project, paths)?;
    if fix && !outcome.fixes.is_empty() {
        let fixed = write_fixes(&outcome.files, &outcome.fixes)?;
        eprintln!(
            "fixed {} problem{} in {} file{}",
            outcome.fixes.len(),
            plural(outcome.fixes.len()),
            fixed,
            plural(fixed)
        );
        outcome = check::check_paths(&project, paths)?;
    }
    check::print(&outcome, format)?;
    let status = if outcome.stats.errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS };
    super::leave_for_exit(outcome);
    Ok(status)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Applies the fixes file by file, each file replaced atomically; a file the
/// fixes would leave as it is is not written.  Returns the files written.
fn write_fixes(files: &cardsmith::source::Files, fixes: &[Fix]) -> Result<usize> {
    let mut by_file: BTreeMap<cardsmith::source::FileId, Vec<Fix>> = BTreeMap::new();
    for fix in fixes {
        by_file.entry(fix.span.file).or_default().push(fix.clone());
    }
    let mut written = 0;
    for (file, fixes) in &by_file {
        let source = files.get(*file);
        let mut text = apply_fixes(&source.text, fixes);
        if text == source.text {
            continue;
        }
        if source.had_bom {
            text.insert(0, '\u{feff}');
        }
        atomic::replace_file(&PathBuf::from(&source.name), &text)?;
        written += 1;
    }
    Ok(written)
}
