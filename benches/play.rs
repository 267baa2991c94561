//! Playing games from engine data: how many whole games a second with
//! random and with greedy players, on one core and on every core, and how
//! many random playouts a second the search bot gets, for each playable
//! game of the repository (`examples/lantern-market`, the bundled
//! Dreadnought TCG and `examples/vault-run`, whose sides take turns of their
//! own), its engine data built in memory as `cardsmith build`
//! would write it.  `--data` reads another document instead.  A benchmark
//! prints figures; it asserts nothing.
//!
//!     cargo bench --bench play
//!     cargo bench --bench play -- --data out/my-game.json --games 50000

use cardsmith::engine::data::Document;
use cardsmith::engine::play::bots::{bot_rng, playout};
use cardsmith::engine::play::{play_game, BotKind, Game, Seating, Table};
use std::time::Instant;

/// The games played, each with its target for random players on every
/// core, if it has one.
const GAMES: &[(&str, Option<f64>)] = &[
    ("examples/lantern-market/cards", Some(5_000.0)),
    ("cards/dreadnought-tcg", None),
    ("examples/vault-run/cards", None),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let games: u64 = option("--games").and_then(|g| g.parse().ok()).unwrap_or(20_000);
    match option("--data") {
        Some(path) => measure(&path, &read(&path), games, None),
        None => {
            for (folder, target) in GAMES {
                let (source, doc) = built(folder);
                measure(&source, &doc, games, *target);
            }
        }
    }
}

fn measure(source: &str, doc: &Document, games: u64, target: Option<f64>) {
    let table = Table::new(doc, &Seating::default()).unwrap_or_else(|e| panic!("{source}: {e}"));
    println!("from {source}");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{} ({} seats, {} cards in play), {games} games a row, {cores} cores",
        doc.ruleset.id,
        table.seats,
        table.instance_count()
    );
    println!("{:<28} {:>12} {:>12} {:>14}", "players", "games/s 1", "games/s all", "decisions/game");
    let random = vec![BotKind::Random; table.seats];
    let mut all_random = 0.0;
    let greedy = if table.bots.is_empty() { None } else { Some(vec![BotKind::Greedy(0); table.seats]) };
    for (name, bots) in [("random", Some(random)), ("greedy (first bot)", greedy)] {
        let Some(bots) = bots else { continue };
        let (one, decisions) = rate(&table, &bots, games, 1);
        let (all, _) = rate(&table, &bots, games, cores);
        if name == "random" {
            all_random = all;
        }
        println!("{name:<28} {one:>12.0} {all:>12.0} {decisions:>14.1}");
    }
    if let Some(target) = target {
        let verdict = if all_random >= target { "met" } else { "missed" };
        println!("target: {target:.0} random games/s on every core: {verdict}");
    }
    playouts(&table);
    search_game(&table);
    println!();
}

fn read(path: &str) -> Document {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Document::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The engine data of the game whose sources are in a folder of the
/// repository, built in memory.
fn built(folder: &str) -> (String, Document) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let folder = root.join(folder);
    let mut workspace = cardsmith::workspace::Workspace::new();
    let mut entries: Vec<_> =
        std::fs::read_dir(&folder).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    entries.sort();
    for path in entries {
        if let Ok(text) = std::fs::read_to_string(&path) {
            workspace.add_text(&path.display().to_string(), &text);
        }
    }
    let outcome = workspace.check();
    let built = cardsmith::backend::json::build(&outcome.files, &outcome.project).ok().into_iter().flatten();
    for file in built.filter(|f| f.name.ends_with(".json") && f.name != cardsmith::backend::json::SCHEMA_FILE) {
        if let Ok(doc) = Document::from_json(&file.contents) {
            if Table::new(&doc, &Seating::default()).is_ok() {
                return (format!("{} (built in memory)", folder.display()), doc);
            }
        }
    }
    panic!("{}: no playable game is built from it", folder.display())
}

/// Games a second over `threads` threads, and the mean decisions a game.
fn rate(table: &Table, bots: &[BotKind], games: u64, threads: usize) -> (f64, f64) {
    let start = Instant::now();
    let decisions: u64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads as u64)
            .map(|t| {
                scope.spawn(move || {
                    (t..games)
                        .step_by(threads)
                        .map(|seed| u64::from(play_game(table, bots, seed, None).expect("a game").decisions))
                        .sum::<u64>()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a worker")).sum()
    });
    (games as f64 / start.elapsed().as_secs_f64(), decisions as f64 / games as f64)
}

/// Random playouts from the start of a game, each from a copy, as the
/// search bot plays them.
fn playouts(table: &Table) {
    let game = Game::new(table, 1);
    let mut rng = bot_rng(1);
    let mut buffer = Vec::new();
    let n = 20_000u64;
    let start = Instant::now();
    for seed in 0..n {
        let mut copy = game.clone();
        copy.reseed(seed);
        playout(&mut copy, &mut rng, &mut buffer);
    }
    println!("search playouts from the start, one core: {:.0}/s", n as f64 / start.elapsed().as_secs_f64());
}

/// One game of the search bot (200 playouts a decision) against random.
fn search_game(table: &Table) {
    let mut bots = vec![BotKind::Random; table.seats];
    bots[0] = BotKind::Search { playouts: 200 };
    let start = Instant::now();
    let record = play_game(table, &bots, 1, None).expect("a game");
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "a search (200 playouts) game against random: {seconds:.2} s, {} decisions, winner {:?}",
        record.decisions, record.winner
    );
}
