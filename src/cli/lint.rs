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
    let project = super::project::Project::for_paths(paths)?;
    let mut outcome = check::check_paths(&project, paths)?;
    if fix && !outcome.fixes.is_empty() {
        let proposed = fixed_texts(&outcome.files, &outcome.fixes);
        let trial = check::check_paths_with(&project, paths, &proposed)?;
        let introduced = new_problems(&outcome, &trial);
        if !introduced.is_empty() {
            eprintln!("the fixes were not applied: the fixed text would bring new problems");
            for problem in introduced {
                eprintln!("  {problem}");
            }
            check::print(&outcome, format)?;
            return Ok(ExitCode::from(1));
        }
        let left = write_fixes(&outcome.files, &proposed)?;
        let fixed = proposed.len() - left;
        if left == 0 {
            let problems = outcome.fixes.len();
            eprintln!("fixed {problems} problem{} in {fixed} file{}", plural(problems), plural(fixed));
        } else {
            eprintln!(
                "fixed {fixed} file{}; {left} left as {}",
                plural(fixed),
                if left == 1 { "it was" } else { "they were" }
            );
        }
        outcome = check::check_paths(&project, paths)?;
        if left > 0 {
            check::print(&outcome, format)?;
            return Ok(ExitCode::from(1));
        }
    }
    check::print(&outcome, format)?;
    Ok(if outcome.stats.errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Each file's text with its fixes applied, by file name; files the fixes
/// leave as they are are left out.
fn fixed_texts(files: &cardsmith::source::Files, fixes: &[Fix]) -> BTreeMap<String, String> {
    let mut by_file: BTreeMap<cardsmith::source::FileId, Vec<Fix>> = BTreeMap::new();
    for fix in fixes {
        by_file.entry(fix.span.file).or_default().push(fix.clone());
    }
    let mut texts = BTreeMap::new();
    for (file, fixes) in &by_file {
        let source = files.get(*file);
        let mut text = apply_fixes(&source.text, fixes);
        if text == source.text {
            continue;
        }
        if source.had_bom {
            text.insert(0, '\u{feff}');
        }
        texts.insert(source.name.clone(), text);
    }
    texts
}

/// The problems a check of the fixed text reports that the check before did
/// not, compared by code, file and message (positions move with the fixes):
/// a fix is applied only when it brings none.
fn new_problems(before: &cardsmith::workspace::Outcome, after: &cardsmith::workspace::Outcome) -> Vec<String> {
    let key = |outcome: &cardsmith::workspace::Outcome, d: &cardsmith::diagnostics::Diagnostic| {
        let file = d.primary_span().map(|s| outcome.files.get(s.file).name.clone()).unwrap_or_default();
        format!("{file}: {}: {}", d.code.id, d.message)
    };
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for d in &before.diagnostics {
        *seen.entry(key(before, d)).or_default() += 1;
    }
    let mut introduced = Vec::new();
    for d in &after.diagnostics {
        let problem = key(after, d);
        match seen.get_mut(&problem) {
            Some(count) if *count > 0 => *count -= 1,
            _ => introduced.push(problem),
        }
    }
    introduced
}

/// Writes the fixed files, each replaced atomically if it still holds what
/// the check read (`files`), and warns of each left as it is.  Returns how
/// many were left.
fn write_fixes(files: &cardsmith::source::Files, texts: &BTreeMap<String, String>) -> Result<usize> {
    let read: BTreeMap<&str, &cardsmith::source::SourceFile> =
        files.ids().map(|id| files.get(id)).map(|source| (source.name.as_str(), source)).collect();
    let mut left = 0;
    for (name, text) in texts {
        let Some(source) = read.get(name.as_str()) else { continue };
        let bytes = if source.had_bom { format!("\u{feff}{}", source.text) } else { source.text.clone() };
        let replaced = atomic::replace_file(&PathBuf::from(name), bytes.as_bytes(), text)?;
        if let Some(warning) = replaced.warning(name, "fixed", "lint --fix") {
            eprintln!("{warning}");
            left += 1;
        }
    }
    Ok(left)
}
