//! Where `build` and `print` may write, decided before anything is written:
//! never onto their inputs, and never an output without cards in it.
//!
//! Paths are compared as the file system resolves them (links followed), so
//! `-o link-to-cards` is caught like `-o cards`; an output folder that does
//! not exist yet is resolved through its nearest existing ancestor.

use cardsmith::workspace::Outcome;
use miette::{miette, Result};
use std::path::{Component, Path, PathBuf};

/// Refuses an output folder that is an input, holds one, or lies inside an
/// input folder.  `inputs` are the files and folders read; `root`
/// is the project folder (or the current folder outside a project), the one
/// input an output may lie inside, because outputs (`out/`, `print/`) are
/// kept there by default.
pub fn refuse_overlap(out: &Path, inputs: &[PathBuf], root: Option<&Path>) -> Result<()> {
    let real_out = resolve(out);
    let real_root = root.map(resolve);
    for input in inputs {
        let real_input = resolve(input);
        let relation = if real_out == real_input {
            "is"
        } else if real_input.starts_with(&real_out) {
            "holds"
        } else if real_out.starts_with(&real_input) && Some(&real_input) != real_root.as_ref() {
            "lies inside"
        } else {
            continue;
        };
        return Err(miette!(
            help = "choose an output folder apart from what is read, with `-o DIR`",
            "the output folder {} {relation} the input {}: nothing written",
            super::project::display_name(out),
            super::project::display_name(input)
        ));
    }
    Ok(())
}

/// Refuses to write an output for a run that found no cards: the folder of a
/// mistyped path would otherwise replace a good output with an empty one.
pub fn require_cards(outcome: &Outcome, inputs: &[PathBuf]) -> Result<()> {
    if outcome.stats.cards > 0 {
        return Ok(());
    }
    let shown: Vec<String> = inputs.iter().map(|p| super::project::display_name(p)).collect();
    Err(miette!(
        help = "name the files or folders that hold the cards, or set `paths` in cardsmith.toml",
        "no cards in {}: nothing written, the previous output is kept",
        shown.join(", ")
    ))
}

/// `path` as the file system resolves it: its nearest existing ancestor
/// canonicalised, with the rest of the path appended.
pub fn resolve(path: &Path) -> PathBuf {
    let mut existing = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut missing = Vec::new();
    let mut real = loop {
        if let Ok(real) = existing.canonicalize() {
            break real;
        }
        match existing.components().next_back() {
            Some(last) => missing.push(last.as_os_str().to_os_string()),
            None => break PathBuf::new(),
        }
        if !existing.pop() {
            break PathBuf::new();
        }
    };
    // What does not exist yet cannot be a link: it is resolved by its names.
    for name in missing.iter().rev() {
        match Path::new(name).components().next() {
            Some(Component::ParentDir) => {
                real.pop();
            }
            Some(Component::Normal(_)) => real.push(name),
            _ => {}
        }
    }
    real
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_that_does_not_exist_resolves_through_its_nearest_ancestor() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().canonicalize().expect("real");
        assert_eq!(resolve(&dir.path().join("new/deeper")), real.join("new/deeper"));
        assert_eq!(resolve(&dir.path().join("new/../other")), real.join("other"));
        std::fs::create_dir(dir.path().join("cards")).expect("folder");
        assert_eq!(resolve(&dir.path().join("cards/./out")), real.join("cards/out"));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_resolves_to_what_it_links_to() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("cards")).expect("folder");
        std::os::unix::fs::symlink("cards", dir.path().join("link")).expect("link");
        let real = dir.path().canonicalize().expect("real");
        assert_eq!(resolve(&dir.path().join("link/out")), real.join("cards/out"));
        let inputs = [dir.path().join("cards")];
        let refused = refuse_overlap(&dir.path().join("link"), &inputs, None).expect_err("refused");
        assert!(refused.to_string().contains("link is the input"), "{refused}");
    }

    #[test]
    fn an_output_may_lie_inside_the_project_folder_but_not_inside_its_cards() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        let inputs = [root.to_path_buf(), root.join("cards")];
        assert!(refuse_overlap(&root.join("out"), &inputs, Some(root)).is_ok());
        let inside = refuse_overlap(&root.join("cards/out"), &inputs, Some(root)).expect_err("refused");
        assert!(inside.to_string().contains("lies inside the input"), "{inside}");
        let holds = refuse_overlap(root, &inputs[1..], Some(root)).expect_err("refused");
        assert!(holds.to_string().contains("holds the input"), "{holds}");
        let outside = refuse_overlap(&root.join("out"), &inputs[1..], None);
        assert!(outside.is_ok(), "a sibling of the cards is fine");
    }
}
