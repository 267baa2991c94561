//! Players that are programs, and a whole game between them.
//!
//! - [`BotKind::Random`]: a uniformly random legal decision.
//! - [`BotKind::Greedy`]: a ruleset's `bot`: for each of its `prefer` lines
//!   in order, the legal decisions of that action whose card matches the
//!   line's filter, when the line's test holds; the one with the highest
//!   rank (the rank read with the card as "this"), the first of equals.
//!   When no line matches, it passes: the bot does only what its lines say.
//!   Choices inside effects, and the cards of a `chosen` move, it takes at
//!   random.
//! - [`BotKind::Search`]: flat Monte Carlo.  For each legal decision, an
//!   equal share of the playouts, each from a copy of the game played on by
//!   random players with fresh random numbers; the decision with the best
//!   mean result for the seat (a win 2, a draw 1, a loss 0; the first of
//!   equals).  The copies hold every card where it is, so the search sees
//!   the hidden cards (the others' hands, the order of the decks) though
//!   not the shuffles to come: it is a strong opponent, not a fair one.

use super::decide::{Decision, DecisionKind};
use super::rng::Rng;
use super::state::{Env, Game, Pending};
use super::table::Table;
use super::PlayError;
use crate::engine::record::GameRecord;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    Random,
    /// The ruleset's bot of this number (see [`Table::bot`]).
    Greedy(usize),
    Search {
        playouts: u32,
    },
}

/// The search bot's playouts a decision when a name does not say.
pub const DEFAULT_PLAYOUTS: u32 = 200;

impl BotKind {
    /// A bot by name: `random`, `greedy` (the ruleset's first bot),
    /// `greedy:ID`, `search` ([`DEFAULT_PLAYOUTS`]) or `search:PLAYOUTS`.
    pub fn parse(table: &Table, text: &str) -> Result<BotKind, PlayError> {
        let (name, detail) = match text.split_once(':') {
            Some((name, detail)) => (name, Some(detail)),
            None => (text, None),
        };
        let bots = || table.bots.iter().map(|b| b.id.as_str()).collect::<Vec<_>>().join(", ");
        match (name, detail) {
            ("random", None) => Ok(BotKind::Random),
            ("greedy", None) if !table.bots.is_empty() => Ok(BotKind::Greedy(0)),
            ("greedy", None) => Err(PlayError("the ruleset declares no `bot` for a greedy player".into())),
            ("greedy", Some(id)) => table
                .bot(id)
                .map(BotKind::Greedy)
                .ok_or_else(|| PlayError(format!("the ruleset declares no bot `{id}` (its bots: {})", bots()))),
            ("search", None) => Ok(BotKind::Search { playouts: DEFAULT_PLAYOUTS }),
            ("search", Some(n)) => match n.parse::<u32>() {
                Ok(playouts) if playouts > 0 => Ok(BotKind::Search { playouts }),
                _ => Err(PlayError(format!("`{n}` is not a number of playouts"))),
            },
            _ => Err(PlayError(format!(
                "`{text}` is not a kind of player (random, greedy, greedy:ID, search or search:PLAYOUTS)"
            ))),
        }
    }
}

/// A bot's own random numbers: apart from the game's, so a game replays
/// from its decisions alone.
pub fn bot_rng(seed: u64) -> Rng {
    Rng::new(seed ^ 0x6A09_E667_F3BC_C908)
}

/// The bot's decision now (the game must be waiting for one).
pub fn choose(kind: BotKind, game: &Game, rng: &mut Rng) -> Option<Decision> {
    let decisions = game.decisions();
    if decisions.is_empty() {
        return None;
    }
    let decision = match kind {
        BotKind::Random => decisions[rng.below(decisions.len())],
        BotKind::Greedy(bot) => greedy(game, bot, &decisions, rng),
        BotKind::Search { playouts } => search(game, playouts, &decisions, rng),
    };
    Some(decision)
}

fn greedy(game: &Game, bot: usize, decisions: &[Decision], rng: &mut Rng) -> Decision {
    if !matches!(game.pending, Some(Pending::Action { .. })) {
        return decisions[rng.below(decisions.len())];
    }
    let pass = decisions[decisions.len() - 1];
    let Some(bot) = game.t.bots.get(bot) else { return pass };
    for line in &bot.prefer {
        let mut best: Option<(i64, Decision)> = None;
        for decision in decisions {
            let (action, card) = match decision.kind {
                DecisionKind::Take { action, card } => (action, Some(card)),
                DecisionKind::Act { action } => (action, None),
                _ => continue,
            };
            if line.action != Some(action) {
                continue;
            }
            let env = Env { you: decision.seat, this: card, tested: card, amount: 0, params: &[] };
            if line.filter.as_ref().is_some_and(|f| !game.truth(f, &env))
                || line.test.as_ref().is_some_and(|f| !game.truth(f, &env))
            {
                continue;
            }
            let rank = line.rank.as_ref().map_or(0, |r| game.num(r, &env));
            if best.is_none_or(|(b, _)| rank > b) {
                best = Some((rank, *decision));
            }
        }
        if let Some((_, decision)) = best {
            return decision;
        }
    }
    pass
}

fn search(game: &Game, playouts: u32, decisions: &[Decision], rng: &mut Rng) -> Decision {
    if decisions.len() == 1 {
        return decisions[0];
    }
    let Some(seat) = game.to_act() else { return decisions[0] };
    let each = (playouts as usize / decisions.len()).max(1);
    let mut best = (i64::MIN, decisions[0]);
    let mut buffer = Vec::new();
    for decision in decisions {
        let mut total = 0i64;
        for _ in 0..each {
            let mut copy = game.clone();
            copy.log = None;
            copy.reseed(rng.next_u64());
            copy.apply_legal(decision);
            playout(&mut copy, rng, &mut buffer);
            total += result(&copy, seat);
        }
        if total > best.0 {
            best = (total, *decision);
        }
    }
    best.1
}

/// Plays a game to its end with random decisions.
pub fn playout(game: &mut Game, rng: &mut Rng, buffer: &mut Vec<Decision>) {
    while game.to_act().is_some() {
        game.decisions_into(buffer);
        if buffer.is_empty() {
            break;
        }
        let decision = buffer[rng.below(buffer.len())];
        game.apply_legal(&decision);
    }
}

/// 2 for a win, 1 for a draw, 0 for a loss.
fn result(game: &Game, seat: usize) -> i64 {
    let scores = game.scores();
    let best = scores.iter().copied().max().unwrap_or(0);
    let top = scores.iter().filter(|&&s| s == best).count();
    match scores.get(seat) {
        Some(&s) if s == best && top == 1 => 2,
        Some(&s) if s == best => 1,
        _ => 0,
    }
}

/// Plays one game between bots, one for each seat, and writes what happens
/// to `log` when given.
pub fn play_game(
    table: &Table,
    bots: &[BotKind],
    seed: u64,
    mut log: Option<&mut dyn std::io::Write>,
) -> Result<GameRecord, PlayError> {
    if bots.len() != table.seats {
        return Err(PlayError(format!("{} bots for {} seats", bots.len(), table.seats)));
    }
    if let Some(BotKind::Greedy(bot)) = bots.iter().find(|b| matches!(b, BotKind::Greedy(i) if *i >= table.bots.len()))
    {
        return Err(PlayError(format!("the ruleset declares {} bots; there is no bot {bot}", table.bots.len())));
    }
    let mut game = if log.is_some() { Game::with_log(table, seed) } else { Game::new(table, seed) };
    let mut rng = bot_rng(seed);
    write_log(&mut game, &mut log)?;
    while let Some(seat) = game.to_act() {
        let Some(decision) = choose(bots[seat], &game, &mut rng) else { break };
        game.apply_legal(&decision);
        write_log(&mut game, &mut log)?;
    }
    Ok(game.record())
}

fn write_log(game: &mut Game, log: &mut Option<&mut dyn std::io::Write>) -> Result<(), PlayError> {
    if let Some(out) = log {
        for line in game.take_log() {
            writeln!(out, "{line}").map_err(|e| PlayError(format!("the log could not be written: {e}")))?;
        }
    }
    Ok(())
}
