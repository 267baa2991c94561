//! The figures a report shows, worked out from a [`Summary`]'s totals.
//! They are derived, never added up: merging reports merges the totals and
//! works the figures out again.  Seats are numbered from 1 here, as a
//! person counts them.

use super::interval::Rate;
use super::summary::Summary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The percentiles of game length a report gives.
pub const PERCENTILES: [u32; 5] = [10, 25, 50, 75, 90];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Figures {
    pub games: u64,
    pub seats: Vec<SeatFigures>,
    /// Draws out of all games.
    pub draws: Rate,
    /// How much more often seat 1 wins than a fair seating would let it.
    pub first_player: Option<FirstPlayer>,
    pub length: Length,
    /// `score_curve[r][s]`: the mean score of seat s + 1 at the end of
    /// round r + 1, over all games; a game that ended earlier counts its
    /// final score for the rounds after its end.
    pub score_curve: Vec<Vec<f64>>,
    /// Decisions per game, all seats.
    pub mean_decisions: Option<f64>,
    /// Per card name, in order of name.
    pub cards: Vec<CardFigures>,
    /// Win rates of decks against each other (matrix runs only).
    pub matrix: Option<Matrix>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SeatFigures {
    /// From 1.
    pub seat: u32,
    /// Its wins out of all games.
    pub wins: Rate,
    pub mean_final_score: Option<f64>,
}

/// Seat 1's share of the decided games (draws left out), against the
/// share of a fair seating, 1 / seats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FirstPlayer {
    /// Seat 1's wins out of the games someone won.
    pub share: Rate,
    /// 1 / seats.
    pub fair: f64,
    /// share − fair.
    pub advantage: Option<f64>,
    /// The 95% interval of the advantage: the share's interval − fair.
    pub interval: Option<[f64; 2]>,
}

/// How long games lasted, in rounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Length {
    /// Each number of rounds some game lasted, with how many did.
    pub histogram: Vec<Bin>,
    pub mean: Option<f64>,
    pub min: Option<u32>,
    pub max: Option<u32>,
    /// Nearest-rank percentiles (10th, 25th, 50th = median, 75th, 90th):
    /// the fewest rounds that at least p% of games lasted at most.
    pub percentiles: Vec<Percentile>,
    pub ended_by_condition: u64,
    pub ended_by_round_limit: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Bin {
    pub rounds: u32,
    pub games: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Percentile {
    pub percent: u32,
    pub rounds: u32,
}

/// What one card did for the seats that had it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CardFigures {
    pub card: String,
    /// Games in which some seat acquired it.
    pub games_acquired: u64,
    /// Games in which some seat played it.
    pub games_played: u64,
    /// Copies a seat acquired, in the seat-games in which it acquired any.
    pub mean_copies_acquired: Option<f64>,
    /// Times a seat played it, in the seat-games in which it played it.
    pub mean_times_played: Option<f64>,
    /// The seat's wins in the seat-games in which it acquired the card …
    pub win_rate_acquired: Rate,
    /// … and in those in which it did not.
    pub win_rate_not_acquired: Rate,
    pub win_rate_played: Rate,
    pub win_rate_not_played: Rate,
}

/// `cells[row][column]`: the row deck's wins against the column deck
/// (`None` on the diagonal and for pairs not played).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Matrix {
    pub decks: Vec<String>,
    pub cells: Vec<Vec<Option<Rate>>>,
}

fn ratio(numerator: u128, denominator: u64) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

fn mean_score(total: i128, games: u64) -> Option<f64> {
    (games > 0).then(|| total as f64 / games as f64)
}

impl Figures {
    /// The figures of `summary`; `decks` orders the matrix (empty: none).
    pub fn of(summary: &Summary, decks: &[String]) -> Figures {
        let seats = summary.seats();
        let games = summary.games;
        let wins = |s: usize| summary.wins.get(s).copied().unwrap_or(0);
        let seat_figures = (0..seats)
            .map(|s| SeatFigures {
                seat: u32::try_from(s + 1).unwrap_or(u32::MAX),
                wins: Rate::new(wins(s), games),
                mean_final_score: mean_score(summary.final_scores.get(s).copied().unwrap_or(0), games),
            })
            .collect();
        let score_curve = (0..summary.curve.len())
            .map(|r| (0..seats).map(|s| mean_score(summary.curve_at(r, s), games).unwrap_or(0.0)).collect())
            .collect();
        Figures {
            games,
            seats: seat_figures,
            draws: Rate::new(summary.draws, games),
            first_player: first_player(summary, seats),
            length: length(summary),
            score_curve,
            mean_decisions: ratio(u128::from(summary.decisions), games),
            cards: cards(summary),
            matrix: (!decks.is_empty()).then(|| matrix(summary, decks)),
        }
    }
}

fn first_player(summary: &Summary, seats: usize) -> Option<FirstPlayer> {
    if seats < 2 {
        return None;
    }
    let decided = summary.games.saturating_sub(summary.draws);
    let share = Rate::new(summary.wins.first().copied().unwrap_or(0), decided);
    let fair = 1.0 / seats as f64;
    Some(FirstPlayer {
        advantage: share.rate.map(|r| r - fair),
        interval: share.interval.map(|[low, high]| [low - fair, high - fair]),
        share,
        fair,
    })
}

fn length(summary: &Summary) -> Length {
    let counted: u64 = summary.rounds.values().fold(0, |a, b| a.saturating_add(*b));
    let total: u128 = summary.rounds.iter().map(|(r, n)| u128::from(*r) * u128::from(*n)).sum();
    let percentiles = PERCENTILES
        .iter()
        .filter_map(|&percent| {
            // Nearest rank: the ⌈p·n/100⌉-th shortest game.
            let rank = (u128::from(percent) * u128::from(counted)).div_ceil(100).max(1);
            let mut seen = 0u128;
            let rounds = summary.rounds.iter().find_map(|(rounds, games)| {
                seen += u128::from(*games);
                (seen >= rank).then_some(*rounds)
            })?;
            Some(Percentile { percent, rounds })
        })
        .collect();
    Length {
        histogram: summary.rounds.iter().map(|(rounds, games)| Bin { rounds: *rounds, games: *games }).collect(),
        mean: ratio(total, counted),
        min: summary.rounds.keys().next().copied(),
        max: summary.rounds.keys().next_back().copied(),
        percentiles,
        ended_by_condition: summary.ended_by_condition,
        ended_by_round_limit: summary.ended_by_round_limit,
    }
}

fn cards(summary: &Summary) -> Vec<CardFigures> {
    let seat_wins: u64 = summary.wins.iter().fold(0, |a, b| a.saturating_add(*b));
    let all = summary.seat_games;
    // Without the card: the seat-games that could have held it but did not
    // (every seat-game, for a card any seat could hold).
    let not = |t: &super::summary::CardTally, seats: u64, wins: u64| match t.seats_could {
        0 => Rate::new(seat_wins.saturating_sub(wins), all.saturating_sub(seats)),
        could => Rate::new(t.wins_could.saturating_sub(wins), could.saturating_sub(seats)),
    };
    summary
        .cards
        .iter()
        .map(|(card, t)| CardFigures {
            card: card.clone(),
            games_acquired: t.games_acquired,
            games_played: t.games_played,
            mean_copies_acquired: ratio(u128::from(t.copies_acquired), t.seats_acquired),
            mean_times_played: ratio(u128::from(t.copies_played), t.seats_played),
            win_rate_acquired: Rate::new(t.wins_acquired, t.seats_acquired),
            win_rate_not_acquired: not(t, t.seats_acquired, t.wins_acquired),
            win_rate_played: Rate::new(t.wins_played, t.seats_played),
            win_rate_not_played: not(t, t.seats_played, t.wins_played),
        })
        .collect()
}

fn matrix(summary: &Summary, decks: &[String]) -> Matrix {
    let cells = decks
        .iter()
        .map(|row| {
            decks
                .iter()
                .map(|column| {
                    let cell = summary.matchups.get(row)?.get(column)?;
                    (row != column).then(|| Rate::new(cell.wins, cell.games))
                })
                .collect()
        })
        .collect();
    Matrix { decks: decks.to_vec(), cells }
}
