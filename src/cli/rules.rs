//! `cardsmith rules [ID] [--out FILE]`: a bundled ruleset as the diagnostics
//! that point into it cite it (`<bundled>/ID.rules:LINE:COLUMN`).

use cardsmith::check::builtin;
use miette::Result;
use std::path::Path;
use std::process::ExitCode;

/// Lists the bundled rulesets, prints one with its line numbers, or writes
/// it to a new file exactly as bundled.
pub fn run(id: Option<&str>, out: Option<&Path>) -> Result<ExitCode> {
    let Some(id) = id else {
        let list: String = builtin::RULESETS.iter().map(|(id, _, text)| format!("{id}  {}\n", title(text))).collect();
        return super::stdout(&list).map(|()| ExitCode::SUCCESS);
    };
    // The command line accepts only bundled ids, so the ruleset is found.
    let Some((name, text)) = builtin::find(id) else {
        return Err(miette::miette!("no bundled ruleset `{id}`"));
    };
    match out {
        Some(path) if path.symlink_metadata().is_ok() => Err(miette::miette!(
            help =
                "choose another name, or remove the old copy first: it is never replaced, since it may hold your edits",
            "{} already exists",
            path.display()
        )),
        Some(path) => {
            // Refuses, atomically, a file that appears meanwhile.
            super::atomic::create_file(path, text)?;
            eprintln!("wrote {name} to {}", path.display());
            Ok(ExitCode::SUCCESS)
        }
        None => super::stdout(&numbered(text)).map(|()| ExitCode::SUCCESS),
    }
}

/// The `title "…"` a ruleset gives itself, for the list.
fn title(text: &str) -> &str {
    let line = text.lines().find_map(|line| line.trim_start().strip_prefix("title \""));
    line.and_then(|rest| rest.split('"').next()).unwrap_or_default()
}

/// The text with each line's number in a gutter, as diagnostics show it.
fn numbered(text: &str) -> String {
    let width = text.lines().count().max(1).to_string().len();
    text.lines().enumerate().map(|(i, line)| format!("{:>width$} │ {line}\n", i + 1)).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_numbers_are_right_aligned_in_one_gutter() {
        let text: String = (1..=10).map(|n| format!("line {n}\n")).collect();
        let numbered = super::numbered(&text);
        assert!(numbered.starts_with(" 1 │ line 1\n"), "{numbered}");
        assert!(numbered.ends_with("10 │ line 10\n"), "{numbered}");
    }
}
