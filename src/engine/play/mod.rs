//! Playing a game from its engine data alone: the set-up, the rounds and
//! phases, the actions players choose, what the cards' effects do, the end
//! of the game and its winner, all read from a document's play semantics
//! ([`super::semantics`]).  Nothing here names a game.
//!
//! - [`table`]: the document indexed for play (cards, zones and counters as
//!   numbers, expressions and procedures compiled) — built once, shared;
//! - [`state`]: a [`Game`], cheap to clone, and its zones and counters;
//! - [`expr`]: reading an expression in a game;
//! - [`ops`]: the interpreter of procedures and effect blocks, with an
//!   explicit continuation stack so that it can stop for a decision;
//! - [`turn`]: rounds and phases;
//! - [`decide`]: the legal decisions at a point, and applying one;
//! - [`limits`]: the ruleset's play-limits, read over a list of cards;
//! - [`played`]: each seat's cards played this turn, held to the limits;
//! - [`bots`]: random, greedy (a ruleset's `bot`) and search players, and
//!   [`play_game`];
//! - [`log`]: what a game did, as text;
//! - [`rng`]: the game's own random numbers.

pub mod bots;
pub mod decide;
mod expr;
pub mod limits;
pub mod log;
mod ops;
mod played;
pub mod rng;
mod stack;
pub mod state;
pub mod table;
mod turn;

pub use bots::{play_game, BotKind};
pub use decide::{Decision, DecisionKind, Refusal};
pub use state::Game;
pub use table::Table;

/// The deepest an expression, a procedure or an effect block may nest, and
/// the most conditions and quantities an evaluation may go through one
/// inside another.
pub const MAX_DEPTH: usize = 48;

/// Why a document cannot be played, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError(pub String);

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlayError {}

/// Who sits at the table: how many seats, the decks each seat brings (by
/// deck name) to the set-up's `decks` steps on zones every player has, and
/// the decks the table uses for its steps on shared zones (the supply).
/// A deck not named is the document's first of the step's type, or, for a
/// step that takes one `random`ly, one of the type drawn for each game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seating {
    /// Seats; 0 means the fewest players the set-up allows.
    pub seats: usize,
    /// `decks[seat]`: deck names.
    pub decks: Vec<Vec<String>>,
    /// Deck names for the steps on shared zones.
    pub supply: Vec<String>,
}

impl Seating {
    /// `seats` players, each with the default decks.
    pub fn new(seats: usize) -> Seating {
        Seating { seats, decks: Vec::new(), supply: Vec::new() }
    }
}
