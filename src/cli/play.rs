//! `cardsmith play`: one game in the terminal, for any game whose ruleset
//! declares play, from its engine data alone (built in memory, or read from
//! `--data`).  Each seat is a person at this terminal or a bot; a person's
//! decisions are numbered and read as numbers from standard input; input
//! that ends before the game does is an error (exit code 2).

use super::engine_data;

use cardsmith::engine::play::bots::{bot_rng, choose};
use cardsmith::engine::play::{log, BotKind, Game, Seating, Table};
use miette::{miette, Result};
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(
    after_help = "KIND is human, random, greedy (the ruleset's first bot), greedy:ID (its bot ID) or search[:PLAYOUTS] \
                  (flat Monte Carlo, 200 playouts a decision unless given; it sees hidden cards).\nBy default seat 1 is \
                  human and the others are the ruleset's first bot, else random.\n\nExamples:\n  \
                  cardsmith play cards/my-game\n  \
                  cardsmith play --data out/my-game.json --seed 7 --seat 1=greedy --seat 2=search:500"
)]
pub struct Args {
    /// Files or folders to build the engine data from in memory (default: the project)
    paths: Vec<PathBuf>,
    /// Read this engine data document (written by `cardsmith build`) instead of building
    #[arg(long, value_name = "FILE", conflicts_with = "paths")]
    data: Option<PathBuf>,
    /// The game to play when the paths hold several
    #[arg(long, value_name = "RULESET")]
    game: Option<String>,
    /// The game's seed: the same seed and decisions give the same game (default: from the clock)
    #[arg(long)]
    seed: Option<u64>,
    /// Who plays a seat: `--seat 2=search:500` (repeatable; seats from 1)
    #[arg(long = "seat", value_name = "N=KIND")]
    seats: Vec<String>,
    /// How many play (default: the fewest players the game takes)
    #[arg(long, value_name = "N")]
    players: Option<usize>,
    /// A seat's deck, by name: `--deck 2=Blue` (repeatable; seats from 1)
    #[arg(long = "deck", value_name = "SEAT=DECK")]
    decks: Vec<String>,
    /// A deck for the set-up's steps on shared zones (a market, a supply), by name (repeatable)
    #[arg(long = "supply", value_name = "DECK")]
    supply: Vec<String>,
    /// How to print diagnostics when building
    #[arg(long, value_enum, default_value = "human")]
    message_format: super::DiagnosticFormat,
}

/// Who plays a seat.
#[derive(Clone, Copy)]
enum Player {
    Human,
    Bot(BotKind),
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let Some(documents) = engine_data::documents(&args.paths, args.data.as_deref(), args.message_format)? else {
        return Ok(ExitCode::from(1));
    };
    let parsed = engine_data::parsed(&documents)?;
    let document = &parsed[engine_data::playable(&parsed, args.game.as_deref())?];
    let seating = seating(args)?;
    let table = Table::new(document, &seating)
        .map_err(|e| miette!(help = "see the `play`, `does` and `means` declarations of docs/rulesets.md", "{e}"))?;
    if seating.decks.len() > table.seats {
        return Err(miette!("--deck names seat {}, and {} play", seating.decks.len(), table.seats));
    }
    let players = players(&table, &args.seats)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    play(&table, &players, seed)
}

/// The seats, their decks and the supply the options ask for.
fn seating(args: &Args) -> Result<Seating> {
    let mut seating = Seating { seats: args.players.unwrap_or(0), decks: Vec::new(), supply: args.supply.clone() };
    for text in &args.decks {
        let parsed = text.split_once('=').and_then(|(seat, deck)| Some((seat.trim().parse::<usize>().ok()?, deck)));
        let Some((seat, deck)) = parsed.filter(|(seat, deck)| *seat >= 1 && !deck.is_empty()) else {
            return Err(miette!(help = "write `--deck 2=NAME`, seats numbered from 1", "`{text}` names no seat"));
        };
        if seating.decks.len() < seat {
            seating.decks.resize(seat, Vec::new());
        }
        seating.decks[seat - 1] = vec![deck.to_string()];
    }
    Ok(seating)
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// Each seat's player: `--seat N=KIND`, else seat 1 human and the others
/// the first bot of the ruleset (random without one).
fn players(table: &Table, given: &[String]) -> Result<Vec<Player>> {
    let default_bot = if table.bots.is_empty() { BotKind::Random } else { BotKind::Greedy(0) };
    let mut players: Vec<Player> =
        (0..table.seats).map(|s| if s == 0 { Player::Human } else { Player::Bot(default_bot) }).collect();
    for text in given {
        let (seat, kind) = text
            .split_once('=')
            .ok_or_else(|| miette!(help = "write `--seat 2=random`", "`{text}` does not say which seat"))?;
        let seat: usize = seat
            .trim()
            .parse()
            .ok()
            .filter(|s| (1..=table.seats).contains(s))
            .ok_or_else(|| miette!("`{seat}` is not a seat: this game has seats 1 to {}", table.seats))?;
        players[seat - 1] = player(table, kind.trim())?;
    }
    Ok(players)
}

fn player(table: &Table, kind: &str) -> Result<Player> {
    if kind == "human" {
        return Ok(Player::Human);
    }
    BotKind::parse(table, kind)
        .map(Player::Bot)
        .map_err(|e| miette!(help = "human, or a bot: random, greedy, greedy:ID, search or search:PLAYOUTS", "{e}"))
}

fn play(table: &Table, players: &[Player], seed: u64) -> Result<ExitCode> {
    let mut game = Game::with_log(table, seed);
    let mut rng = bot_rng(seed);
    let mut input = std::io::stdin().lock();
    let mut out = format!("seed {seed}\n");
    flush_log(&mut game, &mut out)?;
    while let Some(seat) = game.to_act() {
        let decision = match players[seat] {
            Player::Bot(kind) => choose(kind, &game, &mut rng),
            Player::Human => {
                let Some(decision) = ask(&game, seat, &mut input)? else {
                    super::stdout("\n")?;
                    return Err(input_ended(&game, seat));
                };
                Some(decision)
            }
        };
        let Some(decision) = decision else { break };
        game.apply(&decision).map_err(|e| miette!("{e}"))?;
        flush_log(&mut game, &mut out)?;
    }
    let record = game.record();
    let winner = match record.winner {
        Some(seat) => format!("{} wins", table.seat_names[seat]),
        None => "a draw".to_string(),
    };
    let scores: Vec<String> =
        record.scores.iter().enumerate().map(|(s, n)| format!("{} {n}", table.seat_names[s])).collect();
    super::stdout(&format!("\nafter {} rounds: {} ({})\n", record.rounds, winner, scores.join(", ")))?;
    Ok(ExitCode::SUCCESS)
}

/// The end of the input while a person was still to decide: the game was
/// not played to its end, which a script feeding `play` must not take for
/// a finished game.
fn input_ended(game: &Game, seat: usize) -> miette::Report {
    let table = game.table();
    miette!(
        help = "give one number a line for each decision, up to the end of the game",
        "the input ended in round {} before the game did: {} had a decision to make",
        game.round(),
        table.seat_names[seat]
    )
}

/// Prints what happened (the seats' secret plays once they are revealed).
fn flush_log(game: &mut Game, out: &mut String) -> Result<()> {
    for line in game.take_log() {
        out.push_str(&line);
        out.push('\n');
    }
    super::stdout(out)?;
    out.clear();
    Ok(())
}

/// Shows the seat what it may see and its decisions, and reads a number;
/// `None` at the end of the input.
fn ask(game: &Game, seat: usize, input: &mut impl BufRead) -> Result<Option<cardsmith::engine::play::Decision>> {
    let decisions = game.decisions();
    let mut text = format!("\n{}\n{}, your decision:\n", log::view(game, seat), game.table().seat_names[seat]);
    for (i, decision) in decisions.iter().enumerate() {
        text.push_str(&format!("  {}. {}\n", i + 1, game.label(decision)));
    }
    super::stdout(&text)?;
    loop {
        super::stdout("> ")?;
        let mut line = String::new();
        if input.read_line(&mut line).map_err(|e| miette!("standard input: {e}"))? == 0 {
            return Ok(None);
        }
        match line.trim().parse::<usize>() {
            Ok(n) if (1..=decisions.len()).contains(&n) => return Ok(Some(decisions[n - 1])),
            _ => super::stdout(&format!("a number from 1 to {}, please\n", decisions.len()))?,
        }
    }
}
