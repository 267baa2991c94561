//! The engine data a command that reads it works from (`timeline`,
//! `play`, `simulate`): a document written by `cardsmith build` (`--data`,
//! under its limits of bytes and of values), or the same JSON built in
//! memory from the project's files.

use super::{build, check, read, DiagnosticFormat};
use cardsmith::engine::data::Document;
use miette::{miette, Result};
use std::path::{Path, PathBuf};

/// The engine data documents, each with its name: from `data` when given,
/// else built from `paths`.  `None` when the build had errors, which are
/// printed.
pub(super) fn documents(
    paths: &[PathBuf],
    data: Option<&Path>,
    format: DiagnosticFormat,
) -> Result<Option<Vec<(String, String)>>> {
    if let Some(path) = data {
        return Ok(Some(vec![(path.display().to_string(), read_document(path)?)]));
    }
    let project = super::project::Project::for_paths(paths)?;
    let outcome = build::load(&project, &build::inputs(&project, paths)?)?;
    if outcome.stats.errors > 0 {
        check::print(&outcome, format.into())?;
        return Ok(None);
    }
    let files = build::in_memory(&outcome)?;
    Ok(Some(
        files
            .into_iter()
            .filter(|f| f.name != cardsmith::backend::json::SCHEMA_FILE)
            .map(|f| (f.name, f.contents))
            .collect(),
    ))
}

/// The documents read by the engine's own types.
pub(super) fn parsed(documents: &[(String, String)]) -> Result<Vec<Document>> {
    documents.iter().map(|(name, text)| Document::from_json(text).map_err(|e| miette!("{name}: {e}"))).collect()
}

/// The games of the documents, for a message: `a, b`.
fn ids(documents: &[Document]) -> String {
    documents.iter().map(|d| d.ruleset.id.as_str()).collect::<Vec<_>>().join(", ")
}

/// The document of the game `--game` names.
pub(super) fn named<'d>(documents: &'d [Document], game: &str) -> Result<&'d Document> {
    Ok(&documents[position(documents, game)?])
}

/// Where the game `--game` names is among the documents.
fn position(documents: &[Document], game: &str) -> Result<usize> {
    documents
        .iter()
        .position(|d| d.ruleset.id == game)
        .ok_or_else(|| miette!(help = format!("games here: {}", ids(documents)), "no game `{game}` in the engine data"))
}

/// Which document a command that plays works on: the game `--game` names,
/// else the one game that declares play, else the only game; refused when
/// it declares no play.
pub(super) fn playable(documents: &[Document], game: Option<&str>) -> Result<usize> {
    let at = match game {
        Some(game) => Some(position(documents, game)?),
        None => {
            let playable: Vec<usize> = (0..documents.len()).filter(|&i| documents[i].ruleset.play.is_some()).collect();
            match (playable.as_slice(), documents) {
                ([one], _) => Some(*one),
                ([], [_]) => Some(0),
                ([], _) => None,
                _ => {
                    return Err(miette!(
                        help = format!("games here: {}; pick one with --game", ids(documents)),
                        "several games here can be played"
                    ))
                }
            }
        }
    };
    let Some(at) = at.filter(|&at| documents[at].ruleset.play.is_some()) else {
        let game = at.map_or_else(|| ids(documents), |at| documents[at].ruleset.id.clone());
        return Err(miette!(
            help = "a game is played when its ruleset says how it ends and how it is scored: a `play { ends-when …; \
                    round-limit …; score-by … }` block (docs/play.md)",
            "`{game}` declares no play: the engine cannot play it"
        ));
    };
    Ok(at)
}

/// An engine data document, under its limits of bytes and of values.
fn read_document(path: &Path) -> Result<String> {
    let text = read::text(path, &read::ENGINE_DATA)?;
    if !read::json_values_at_most(text.as_bytes(), read::ENGINE_DATA_VALUES) {
        return Err(miette!(
            help = "build in memory by naming the card folders instead (`cardsmith timeline cards --play …`)",
            "{} holds more than {} JSON values (objects, arrays and their items), the most an engine data \
             document may hold (the engine data of about 20,000 cards)",
            path.display(),
            read::ENGINE_DATA_VALUES
        ));
    }
    Ok(text)
}
