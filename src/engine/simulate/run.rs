//! Playing a run's games on every core and adding them up, with the same
//! result whatever the number of threads: the games are cut into chunks of
//! a fixed size, each chunk is summed on its own, and the chunks' summaries
//! are merged in the order of the chunks (any order would give the same
//! totals: they are whole numbers, and [`Summary::merge`] is exact).
//!
//! The engine is reached through one function the caller passes
//! ([`PlayFn`]), so this module knows nothing of how a game is played.

use super::settings::{BotChoice, GameSetup, Schedule, Settings};
use super::summary::Summary;
use crate::engine::record::GameRecord;
use rayon::prelude::*;
use std::io::Write;

/// Plays one game: its record, or what went wrong.  It writes the game's
/// readable log to the writer when given one.
pub type PlayFn<'a> = dyn Fn(&GameSetup, Option<&mut dyn Write>) -> Result<GameRecord, String> + Sync + 'a;

/// Games summed by one task: small enough to share out evenly, large
/// enough that merging costs nothing beside playing.
const CHUNK: u64 = 64;

/// Chunks played between two merges: bounds the summaries held at once,
/// so the memory of a run does not grow with its games.
const BATCH: u64 = 64;

/// What a run leaves.
#[derive(Debug)]
pub struct Outcome {
    pub summary: Summary,
    /// The logs of the first games asked for, one after another, each
    /// under a line naming the game.
    pub logs: Vec<u8>,
}

/// A game the engine could not play.
#[derive(Debug, PartialEq, Eq)]
pub struct GameFailed {
    pub index: u64,
    pub seed: u64,
    pub message: String,
}

impl std::fmt::Display for GameFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {} (seed {}) could not be played: {}", self.index, self.seed, self.message)
    }
}

/// Plays the games `settings` asks for (its shard's), with `bots` at the
/// seats, through `play`; the first `logged` games keep their logs.
/// `done` is told of each game played, from any thread.  The first game
/// (in order of number) that fails stops the run.
pub fn run(
    settings: &Settings,
    bots: &[BotChoice],
    play: &PlayFn,
    logged: u64,
    done: &(dyn Fn() + Sync),
) -> Result<Outcome, GameFailed> {
    let schedule = settings.schedule();
    let chunks = schedule.count.div_ceil(CHUNK);
    let mut outcome = Outcome { summary: Summary::default(), logs: Vec::new() };
    let mut next = 0;
    while next < chunks {
        let batch = next..chunks.min(next + BATCH);
        next = batch.end;
        let summed: Vec<Result<(Summary, Vec<u8>), GameFailed>> = batch
            .into_par_iter()
            .map(|chunk| {
                let played = chunk * CHUNK..schedule.count.min((chunk + 1) * CHUNK);
                play_chunk(settings, bots, play, schedule, played, logged, done)
            })
            .collect();
        for result in summed {
            let (summary, logs) = result?;
            outcome.summary.merge(&summary);
            outcome.logs.extend(logs);
        }
    }
    Ok(outcome)
}

/// Plays the games the run plays `played`-th (positions from 0).
fn play_chunk(
    settings: &Settings,
    bots: &[BotChoice],
    play: &PlayFn,
    schedule: Schedule,
    played: std::ops::Range<u64>,
    logged: u64,
    done: &(dyn Fn() + Sync),
) -> Result<(Summary, Vec<u8>), GameFailed> {
    let mut summary = Summary::default();
    let mut logs = Vec::new();
    for position in played {
        let index = schedule.game(position);
        let game = settings.game(index, bots);
        let failed = |message: String| GameFailed { index, seed: game.seed, message };
        let record = if position < logged {
            let mut log = Vec::new();
            let record = play(&game, Some(&mut log)).map_err(failed)?;
            logs.extend(format!("=== game {index} (seed {}) ===\n", game.seed).into_bytes());
            logs.extend(log);
            if !logs.ends_with(b"\n") {
                logs.push(b'\n');
            }
            record
        } else {
            play(&game, None).map_err(failed)?
        };
        let pairing = game.pairing.and_then(|[(a, seat_a), (b, seat_b)]| {
            Some([(settings.matrix.get(a)?.as_str(), seat_a), (settings.matrix.get(b)?.as_str(), seat_b)])
        });
        summary.add(&record, pairing);
        done();
    }
    Ok((summary, logs))
}
