//! The registry of diagnostic codes: every code, gathered from the stages
//! that emit them, for `cardsmith explain` and the docs.  It stands above
//! every stage (each declares its codes beside the code that emits them);
//! no stage reads it.

use crate::diagnostics::Code;

/// All codes, sorted by id.
pub fn all() -> Vec<&'static Code> {
    let mut codes: Vec<&'static Code> = Vec::new();
    codes.extend_from_slice(crate::syntax::codes::ALL);
    codes.extend_from_slice(crate::config::ALL);
    codes.extend_from_slice(crate::ruleset::codes::ALL);
    codes.extend_from_slice(crate::check::codes::ALL);
    codes.extend_from_slice(crate::lint::CODES);
    codes.extend_from_slice(crate::backend::print::codes::ALL);
    codes.extend_from_slice(crate::spreadsheet::ALL);
    codes.sort_by_key(|c| c.id);
    codes
}

/// Looks a code up by id (`E0203`, case-insensitive) or by name.
pub fn find(query: &str) -> Option<&'static Code> {
    all().into_iter().find(|c| c.id.eq_ignore_ascii_case(query) || c.name == query)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_and_names_are_unique_and_explained() {
        let codes = all();
        let ids: HashSet<_> = codes.iter().map(|c| c.id).collect();
        let names: HashSet<_> = codes.iter().map(|c| c.name).collect();
        assert_eq!(ids.len(), codes.len(), "duplicate code id");
        assert_eq!(names.len(), codes.len(), "duplicate code name");
        for code in codes {
            assert!(code.id.len() == 5, "{} is not of the form E0000", code.id);
            assert!(code.explanation.len() > 80, "{} needs a real explanation", code.id);
            assert!(
                code.explanation.lines().any(|line| line.starts_with("    ") && !line.trim().is_empty()),
                "{} needs an example: a line indented by 4 spaces",
                code.id
            );
        }
    }
}
