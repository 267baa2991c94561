//! The engine data: one JSON document per ruleset in the project, holding the
//! resolved ruleset, every card with typed fields and structured effects and
//! its source position, and every deck with its counts.
//!
//! The document types below wrap the IR and ruleset model by reference, so
//! what is written is exactly what the checker produced, and the schema
//! ([`super::schema`]) is derived from these same types.  The format is
//! described field by field in `docs/engine-data.md`; [`FORMAT`] is its
//! version.

use super::OutputFile;
use crate::ir::{Card, Deck, Game, Project};
use crate::ruleset::model::{Ruleset, Schema};
use crate::source::{Files, Span};
use schemars::JsonSchema;
use serde::Serialize;

/// The version of the engine data format.  It changes whenever a document
/// that an existing consumer reads would change meaning or stop validating;
/// see the versioning policy in `docs/engine-data.md`.
pub const FORMAT: u32 = 2;

/// The file the schema is written to, next to the documents.
pub const SCHEMA_FILE: &str = "schema.json";

/// One ruleset's engine data.
#[derive(Serialize, JsonSchema)]
#[schemars(
    title = "cardsmith engine data",
    description = "One ruleset with every card and deck written for it, as checked by cardsmith."
)]
pub struct Document<'a> {
    /// The format version; a consumer refuses a version it does not know.
    #[schemars(extend("const" = FORMAT))]
    pub format: u32,
    pub ruleset: RulesetData<'a>,
    /// Every card, in source order (files sorted by path).
    pub cards: Vec<CardData<'a>>,
    /// Every deck, in source order, with its cards counted.
    pub decks: Vec<DeckData<'a>>,
}

/// The resolved ruleset, with the shared field shapes that kinds refer to by
/// name.
#[derive(Serialize, JsonSchema)]
pub struct RulesetData<'a> {
    #[serde(flatten)]
    pub ruleset: &'a Ruleset,
    /// Shared field shapes, named by the `shape` of a field's schema.
    pub shapes: Vec<Shape<'a>>,
}

#[derive(Serialize, JsonSchema)]
pub struct Shape<'a> {
    pub id: &'a str,
    pub schema: &'a Schema,
}

#[derive(Serialize, JsonSchema)]
pub struct CardData<'a> {
    #[serde(flatten)]
    pub card: &'a Card,
    pub source: Source,
}

#[derive(Serialize, JsonSchema)]
pub struct DeckData<'a> {
    #[serde(flatten)]
    pub deck: &'a Deck,
    pub source: Source,
}

/// Where something was written: the file as named to the workspace (a
/// relative path) and the 1-based line.
#[derive(Serialize, JsonSchema)]
pub struct Source {
    pub file: String,
    pub line: usize,
}

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

/// The document of one game.
pub fn document<'a>(files: &Files, game: &'a Game) -> Document<'a> {
    let source = |span: Span| Source {
        file: files.get(span.file).name.clone(),
        line: files.get(span.file).line_column(span.start as usize).0,
    };
    Document {
        format: FORMAT,
        ruleset: RulesetData {
            ruleset: &game.ruleset,
            shapes: game.ruleset.shapes.iter().map(|(id, schema)| Shape { id, schema }).collect(),
        },
        cards: game.cards.iter().map(|card| CardData { card, source: source(card.span) }).collect(),
        decks: game.decks.iter().map(|deck| DeckData { deck, source: source(deck.span) }).collect(),
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
