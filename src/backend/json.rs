//! The engine data as files: one JSON document per ruleset in the project
//! ([`super::document`]), holding the resolved ruleset, every card with
//! typed fields and structured effects and its source position, and every
//! deck with its counts; and the schema ([`super::schema`]) beside them.

use super::document::document;
use super::OutputFile;
use crate::ir::{Game, Project};
use crate::source::Files;

/// The file the schema is written to, next to the documents.
pub const SCHEMA_FILE: &str = "schema.json";

/// A build that cannot be written as asked.
#[derive(Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A ruleset id is not usable as a file name, or clashes with the schema.
    FileName(String),
    /// Serialisation failed (never expected: every map key is a string).
    Json(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::FileName(id) => write!(f, "ruleset `{id}` cannot be written as `{id}.json`"),
            BuildError::Json(message) => write!(f, "cannot serialise the engine data: {message}"),
        }
    }
}

/// One file of the engine data, to be written: a game's document or the
/// schema.
pub enum EngineFile<'a> {
    Game(&'a Game),
    Schema,
}

impl EngineFile<'_> {
    pub fn name(&self) -> String {
        match self {
            EngineFile::Game(game) => format!("{}.json", game.ruleset.id),
            EngineFile::Schema => SCHEMA_FILE.to_string(),
        }
    }

    /// Writes the file as it is serialised, so that the text of a large
    /// project is never held whole in memory.
    pub fn write(&self, files: &Files, out: &mut dyn std::io::Write) -> Result<(), BuildError> {
        use std::io::Write;
        let failed = |e: &dyn std::fmt::Display| BuildError::Json(e.to_string());
        match self {
            EngineFile::Game(game) => {
                let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
                serde_json::to_writer_pretty(&mut out, &document(files, game)).map_err(|e| failed(&e))?;
                out.write_all(b"\n").and_then(|()| out.flush()).map_err(|e| failed(&e))
            }
            EngineFile::Schema => out.write_all(super::schema::text().as_bytes()).map_err(|e| failed(&e)),
        }
    }
}

/// The engine data files of a project: `<ruleset-id>.json` per game, sorted
/// by id, then the schema.
pub fn plan(project: &Project) -> Result<Vec<EngineFile<'_>>, BuildError> {
    let mut games: Vec<&Game> = project.games.iter().collect();
    games.sort_by(|a, b| a.ruleset.id.cmp(&b.ruleset.id));
    let mut out = Vec::with_capacity(games.len() + 1);
    for game in games {
        let id = &game.ruleset.id;
        if !is_plain_file_name(id) || format!("{id}.json") == SCHEMA_FILE {
            return Err(BuildError::FileName(id.clone()));
        }
        out.push(EngineFile::Game(game));
    }
    out.push(EngineFile::Schema);
    Ok(out)
}

/// Every engine data file of a project ([`plan`]), in memory.
/// Pretty-printed with a final newline; the same project always gives the
/// same bytes.
pub fn build(files: &Files, project: &Project) -> Result<Vec<OutputFile>, BuildError> {
    plan(project)?
        .iter()
        .map(|file| {
            let mut contents = Vec::new();
            file.write(files, &mut contents)?;
            let contents = String::from_utf8(contents).map_err(|e| BuildError::Json(e.to_string()))?;
            Ok(OutputFile { name: file.name(), contents })
        })
        .collect()
}

/// Ruleset ids are identifiers, but a build must never write outside its
/// folder whatever the id: letters, digits, `-`, `_` and inner dots only.
fn is_plain_file_name(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('.')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}
