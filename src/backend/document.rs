//! The engine data document: the types of one ruleset's document, which
//! wrap the IR and ruleset model by reference, so that what is written is
//! exactly what the checker produced.  [`super::json`] serialises them and
//! [`super::schema`] derives the JSON Schema from them, so the two cannot
//! drift.  The format is described field by field in
//! `docs/engine-data.md`; [`FORMAT`] is its version.

use crate::ir::{Card, Deck, Game};
use crate::ruleset::model::{Ruleset, Schema};
use crate::source::{Files, Span};
use schemars::JsonSchema;
use serde::Serialize;

/// The version of the engine data format.  It changes whenever a document
/// that an existing consumer reads would change meaning or stop validating;
/// see the versioning policy in `docs/engine-data.md`.
pub const FORMAT: u32 = 6;

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
/// relative path) and the 1-based line, or for a card of a spreadsheet,
/// the sheet and the card's row.
#[derive(Serialize, JsonSchema)]
pub struct Source {
    pub file: String,
    pub line: usize,
}

/// The document of one game.
pub fn document<'a>(files: &Files, game: &'a Game) -> Document<'a> {
    // A card of a spreadsheet is where its row is.
    let source = |span: Span| {
        let span = files.origin(span);
        Source { file: files.get(span.file).name.clone(), line: files.line(span) }
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
