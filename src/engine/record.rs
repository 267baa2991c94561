//! What one played game leaves for the statistics: who won, how long it
//! took, each seat's score round by round, and what each seat did with each
//! card.  A simulation aggregates these one at a time, so its memory does
//! not grow with the number of games.

use serde::{Deserialize, Serialize};

/// One game, as a simulation counts it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's own seed (the simulation's seed and the game's number).
    pub seed: u64,
    /// The winning seat (0-based); `None` for a draw.
    pub winner: Option<usize>,
    /// Rounds played.
    pub rounds: u32,
    /// How the game ended.
    pub ended: Ended,
    /// Each seat's final score.
    pub scores: Vec<i64>,
    /// Each seat's score at the end of each round: `curve[round][seat]`.
    pub curve: Vec<Vec<i64>>,
    /// What each seat did with cards: `cards[seat]`, sorted by card name.
    pub cards: Vec<Vec<CardUse>>,
    /// The names of the cards the game was played with (every card in a
    /// zone at its end, whether or not a seat acquired or played it),
    /// sorted, each once.
    #[serde(default)]
    pub in_play: Vec<String>,
    /// Decisions taken in the game (actions and choices), all seats.
    pub decisions: u32,
    /// The cards of one side's kinds, each with the one seat that could
    /// hold it (the others never could), sorted by name.
    #[serde(default)]
    pub sided: Vec<(String, usize)>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ended {
    /// The ruleset's `ends-when` held.
    Condition,
    /// The round limit was reached.
    RoundLimit,
}

/// How often one seat acquired and played one card in one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardUse {
    pub card: String,
    pub acquired: u32,
    pub played: u32,
}
