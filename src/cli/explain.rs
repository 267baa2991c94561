//! `cardsmith explain CODE`.

use cardsmith::codes;
use miette::{miette, Result};
use std::process::ExitCode;

pub fn run(code: Option<&str>, list: bool) -> Result<ExitCode> {
    if list || code.is_none() {
        let list: String = codes::all().iter().map(|code| format!("{}  {}\n", code.id, code.name)).collect();
        return super::stdout(&list).map(|()| ExitCode::SUCCESS);
    }
    let query = code.unwrap_or_default();
    match codes::find(query) {
        Some(code) => {
            super::stdout(&format!("{} ({})\n\n{}\n", code.id, code.name, code.explanation))?;
            Ok(ExitCode::SUCCESS)
        }
        None => Err(miette!(help = "`cardsmith explain --list` lists every code", "no diagnostic code `{query}`")),
    }
}
