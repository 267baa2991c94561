//! The play engine on engine data written by hand: a small game with exact
//! odds, and a deck-building game for two, played by every kind of bot.

use cardsmith::engine::data::Document;
use cardsmith::engine::play::{play_game, BotKind, Game, Seating, Table};

fn document(name: &str) -> Document {
    let path = format!("{}/tests/play/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the fixture");
    Document::from_json(&text).expect("engine data")
}

#[test]
fn smoke() {
    let doc = document("lantern-market");
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    let mut log = Vec::new();
    let record = play_game(&table, &[BotKind::Random, BotKind::Greedy(0)], 1, Some(&mut log)).expect("a game");
    println!("{}", String::from_utf8_lossy(&log));
    println!("{record:?}");
    let _ = Game::new(&table, 3);
}
