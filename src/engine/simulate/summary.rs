//! The running totals of a simulation: whole numbers only, added up one
//! game at a time, so that their memory does not grow with the number of
//! games and two summaries add up to exactly the summary of all their games
//! ([`Summary::merge`] is associative and commutative).  Every figure a
//! report shows is worked out from these totals at the end
//! ([`super::figures`]).

use crate::engine::record::{Ended, GameRecord};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The totals of a set of games.  Seats are 0-based here.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    /// Games added.
    pub games: u64,
    /// Wins of each seat.
    pub wins: Vec<u64>,
    /// Games that ended in a draw.
    pub draws: u64,
    /// Games that ended because the ruleset's `ends-when` held.
    pub ended_by_condition: u64,
    /// Games that ended at the round limit.
    pub ended_by_round_limit: u64,
    /// How many games lasted each number of rounds.
    pub rounds: BTreeMap<u32, u64>,
    /// Decisions taken, all games and seats.
    pub decisions: u64,
    /// Seats over all games (a game of two seats counts 2): the trials of
    /// the per-card win rates.
    pub seat_games: u64,
    /// The sum over games of each seat's final score.
    pub final_scores: Vec<i128>,
    /// `curve[r][seat]`: the sum over games of the seat's score at the end
    /// of round r + 1.  A game that ended before that round counts its
    /// final score (it is carried forward), so every row sums every game.
    pub curve: Vec<Vec<i128>>,
    /// Per card name.
    pub cards: BTreeMap<String, CardTally>,
    /// `matchups[row][column]`: the games of the row deck against the
    /// column deck (matrix runs only).
    pub matchups: BTreeMap<String, BTreeMap<String, Matchup>>,
}

/// What the seats did with one card, over all games.  A "seat-game" is
/// one seat in one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CardTally {
    /// Games in which some seat acquired it.
    pub games_acquired: u64,
    /// Games in which some seat played it.
    pub games_played: u64,
    /// Seat-games in which the seat acquired it at least once.
    pub seats_acquired: u64,
    /// Of those, the seat-games the seat won.
    pub wins_acquired: u64,
    /// Copies acquired, over all seat-games.
    pub copies_acquired: u64,
    /// Seat-games in which the seat played it at least once.
    pub seats_played: u64,
    /// Of those, the seat-games the seat won.
    pub wins_played: u64,
    /// Times played, over all seat-games.
    pub copies_played: u64,
    /// For a card of one side's kind: the seat-games of that side's seat,
    /// the only ones that could hold it.  0 (left out) for a card any seat
    /// could hold.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seats_could: u64,
    /// Of those, the seat-games won.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wins_could: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The games of one deck against another.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Matchup {
    pub games: u64,
    /// Games the row deck won.
    pub wins: u64,
    pub draws: u64,
}

/// Which deck sat where in a game of a matrix: `(deck, seat)` of the two.
pub type Pairing<'a> = [(&'a str, usize); 2];

/// More seats than any game has: a winner numbered beyond is not counted.
const MAX_SEATS: usize = 1 << 16;

fn add(total: &mut u64, more: u64) {
    *total = total.saturating_add(more);
}

impl Summary {
    /// Adds one game.  With a pairing, the game also counts in the matrix,
    /// for each deck against the other.
    pub fn add(&mut self, record: &GameRecord, pairing: Option<Pairing>) {
        self.merge(&Summary::of(record, pairing));
    }

    /// The summary of one game.
    pub fn of(record: &GameRecord, pairing: Option<Pairing>) -> Summary {
        let seats = seats_of(record);
        let mut summary = Summary {
            games: 1,
            wins: vec![0; seats],
            draws: u64::from(record.winner.is_none()),
            ended_by_condition: u64::from(record.ended == Ended::Condition),
            ended_by_round_limit: u64::from(record.ended == Ended::RoundLimit),
            rounds: BTreeMap::from([(record.rounds, 1)]),
            decisions: u64::from(record.decisions),
            seat_games: seats as u64,
            final_scores: (0..seats).map(|s| i128::from(record.scores.get(s).copied().unwrap_or(0))).collect(),
            ..Summary::default()
        };
        if let Some(won) = record.winner.and_then(|w| summary.wins.get_mut(w)) {
            *won = 1;
        }
        summary.curve = record
            .curve
            .iter()
            .map(|row| (0..seats).map(|s| i128::from(row.get(s).copied().unwrap_or(0))).collect())
            .collect();
        summary.add_cards(record);
        if let Some(pairing) = pairing {
            for (me, other) in [(pairing[0], pairing[1]), (pairing[1], pairing[0])] {
                let cell =
                    summary.matchups.entry(me.0.to_string()).or_default().entry(other.0.to_string()).or_default();
                *cell = Matchup {
                    games: 1,
                    wins: u64::from(record.winner == Some(me.1)),
                    draws: u64::from(record.winner.is_none()),
                };
            }
        }
        summary
    }

    fn add_cards(&mut self, record: &GameRecord) {
        // Every card the game was played with has a row, though no seat
        // acquired or played it: never bought is a finding too.
        for card in &record.in_play {
            self.cards.entry(card.clone()).or_default();
        }
        let mut in_game: BTreeMap<&str, (bool, bool)> = BTreeMap::new();
        for (seat, uses) in record.cards.iter().enumerate() {
            // A card listed twice for a seat counts once, with both counts.
            let mut per_card: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
            for card in uses {
                let entry = per_card.entry(card.card.as_str()).or_default();
                add(&mut entry.0, u64::from(card.acquired));
                add(&mut entry.1, u64::from(card.played));
            }
            let won = u64::from(record.winner == Some(seat));
            for (card, (acquired, played)) in per_card {
                let tally = self.cards.entry(card.to_string()).or_default();
                let seen = in_game.entry(card).or_default();
                if acquired > 0 {
                    tally.seats_acquired += 1;
                    tally.wins_acquired += won;
                    add(&mut tally.copies_acquired, acquired);
                    seen.0 = true;
                }
                if played > 0 {
                    tally.seats_played += 1;
                    tally.wins_played += won;
                    add(&mut tally.copies_played, played);
                    seen.1 = true;
                }
            }
        }
        for (card, (acquired, played)) in in_game {
            let tally = self.cards.entry(card.to_string()).or_default();
            tally.games_acquired = u64::from(acquired);
            tally.games_played = u64::from(played);
        }
        for (card, seat) in &record.sided {
            let tally = self.cards.entry(card.clone()).or_default();
            tally.seats_could += 1;
            tally.wins_could += u64::from(record.winner == Some(*seat));
        }
    }

    /// Adds the games of `other`: the result is the summary of both sets of
    /// games, whatever the order or grouping in which summaries are merged.
    pub fn merge(&mut self, other: &Summary) {
        let seats = self.seats().max(other.seats());
        let rows = self.curve.len().max(other.curve.len());
        let curve = (0..rows)
            .map(|r| (0..seats).map(|s| self.curve_at(r, s).saturating_add(other.curve_at(r, s))).collect())
            .collect();
        self.curve = curve;
        add(&mut self.games, other.games);
        add(&mut self.draws, other.draws);
        add(&mut self.ended_by_condition, other.ended_by_condition);
        add(&mut self.ended_by_round_limit, other.ended_by_round_limit);
        add(&mut self.decisions, other.decisions);
        add(&mut self.seat_games, other.seat_games);
        self.wins.resize(seats, 0);
        for (total, more) in self.wins.iter_mut().zip(&other.wins) {
            add(total, *more);
        }
        self.final_scores.resize(seats, 0);
        for (total, more) in self.final_scores.iter_mut().zip(&other.final_scores) {
            *total = total.saturating_add(*more);
        }
        for (rounds, games) in &other.rounds {
            add(self.rounds.entry(*rounds).or_default(), *games);
        }
        for (card, more) in &other.cards {
            let tally = self.cards.entry(card.clone()).or_default();
            for (total, more) in tally.fields_mut().into_iter().zip(more.fields()) {
                add(total, more);
            }
        }
        for (row, columns) in &other.matchups {
            let totals = self.matchups.entry(row.clone()).or_default();
            for (column, more) in columns {
                let cell = totals.entry(column.clone()).or_default();
                add(&mut cell.games, more.games);
                add(&mut cell.wins, more.wins);
                add(&mut cell.draws, more.draws);
            }
        }
    }

    /// The number of seats: the most any game had.
    pub fn seats(&self) -> usize {
        let rows = self.curve.iter().map(Vec::len).max().unwrap_or(0);
        self.wins.len().max(self.final_scores.len()).max(rows)
    }

    /// The score curve's cells once merged: rounds × seats.
    pub fn curve_cells(&self) -> u64 {
        (self.curve.len() as u64).saturating_mul(self.seats() as u64)
    }

    /// The sum of the seat's scores at the end of round `r + 1` (0-based
    /// `r`), every game that ended before counting its final score.
    pub fn curve_at(&self, r: usize, seat: usize) -> i128 {
        match self.curve.get(r) {
            Some(row) => row.get(seat).copied().unwrap_or(0),
            None => self.final_scores.get(seat).copied().unwrap_or(0),
        }
    }
}

impl CardTally {
    fn fields(&self) -> [u64; 10] {
        [
            self.seats_could,
            self.wins_could,
            self.games_acquired,
            self.games_played,
            self.seats_acquired,
            self.wins_acquired,
            self.copies_acquired,
            self.seats_played,
            self.wins_played,
            self.copies_played,
        ]
    }

    fn fields_mut(&mut self) -> [&mut u64; 10] {
        [
            &mut self.seats_could,
            &mut self.wins_could,
            &mut self.games_acquired,
            &mut self.games_played,
            &mut self.seats_acquired,
            &mut self.wins_acquired,
            &mut self.copies_acquired,
            &mut self.seats_played,
            &mut self.wins_played,
            &mut self.copies_played,
        ]
    }
}

/// The seats of a game: as many as any part of its record names.
fn seats_of(record: &GameRecord) -> usize {
    let rows = record.curve.iter().map(Vec::len).max().unwrap_or(0);
    // A seat number beyond any table is the record's mistake, not a seat.
    let winner = record.winner.filter(|w| *w < MAX_SEATS).map_or(0, |w| w + 1);
    record.scores.len().max(record.cards.len()).max(rows).max(winner)
}
