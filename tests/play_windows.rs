//! Windows for reactions, continuous effects, `may`, `reveal`, `bottom`,
//! `if(…)` and a card's name, played on a made-up game (tests/play/parley)
//! built from its rules: a strike opens a window in which the other player
//! may parry, a banner inspires the fighters beside it while it stands,
//! a scroll looks at the top of the deck and may put it at the bottom.

mod common;

use cardsmith::engine::data::Document;
use cardsmith::engine::play::{BotKind, Game, Seating, Table};

/// The engine data of the test game, built in memory from its sources.
fn parley() -> Document {
    Document::from_json(&parley_json()).expect("engine data")
}

fn parley_json() -> String {
    common::built_json("tests/play/parley/cards", "parley")
}

fn labels(game: &Game) -> Vec<String> {
    game.decisions().iter().map(|d| game.label(d)).collect()
}

fn take(game: &mut Game, label: &str) {
    let decision = game.decisions().into_iter().find(|d| game.label(d) == label);
    let decision = decision.unwrap_or_else(|| panic!("`{label}` is not among {:?}", labels(game)));
    game.apply(&decision).expect("legal");
}

fn counter(table: &Table, game: &Game, id: &str, seat: usize) -> i64 {
    game.counter(table.counters.iter().position(|c| c.id == id).expect("a counter"), seat)
}

fn zone(table: &Table, game: &Game, id: &str, seat: usize) -> Vec<String> {
    let z = table.zones.iter().position(|d| d.id == id).expect("a zone");
    game.zone_cards(z, seat).iter().map(|c| c.to_string()).collect()
}

#[test]
fn a_strike_waits_for_the_answers_before_it_lands() {
    let doc = parley();
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    let mut game = Game::with_log(&table, 1);
    assert_eq!(game.to_act(), Some(0));
    // Outside a window, reactions are not offered.
    assert!(labels(&game).iter().all(|l| !l.starts_with("parry")), "{:?}", labels(&game));
    take(&mut game, "strike Hero [inspired 1]");
    // The window: the other player first, with reactions and a pass only.
    assert_eq!(game.to_act(), Some(1));
    let open = labels(&game);
    assert!(open.iter().all(|l| l.starts_with("parry") || l == "pass"), "{open:?}");
    assert_eq!(counter(&table, &game, "blow", 0), 4);
    take(&mut game, "parry Guard");
    // The striker may answer the parry; then the window closes once both
    // have passed in a row, and the blow lands, 2 lighter.
    assert_eq!(game.to_act(), Some(0));
    take(&mut game, "pass");
    assert_eq!(game.to_act(), Some(1));
    take(&mut game, "pass");
    assert_eq!(counter(&table, &game, "hp", 1), 8);
    let log = game.take_log().join("\n");
    assert!(log.contains("player 2 may respond") && log.contains("blow 4 → 2"), "{log}");
    // Back in the phase: the other player's turn to act.
    assert_eq!(game.to_act(), Some(1));
    assert!(labels(&game).iter().any(|l| l.starts_with("strike")), "{:?}", labels(&game));
}

#[test]
fn a_banner_inspires_while_it_stands_and_a_hurt_hero_hits_harder() {
    let doc = parley();
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    let inspired = table.markers.iter().position(|m| m.id == "inspired").expect("a marker");
    let standing = |game: &Game| -> Vec<i64> {
        (0..table.instance_count() as u16).map(|c| game.marker(c, inspired)).filter(|&n| n != 0).collect()
    };
    let mut game = Game::with_log(&table, 1);
    // The Standard stands in the first player's ranks from the start: their
    // Hero is inspired, the banner itself is no fighter, and the log says
    // so once, not at each time it is set anew.
    assert_eq!(standing(&game), [1]);
    assert_eq!(game.take_log().join("\n").matches("inspired 0 → 1 (Hero)").count(), 1);
    // 3 power and 1 inspired, with no answer.
    take(&mut game, "strike Hero [inspired 1]");
    take(&mut game, "pass");
    take(&mut game, "pass");
    assert_eq!(counter(&table, &game, "hp", 1), 6);
    // The other Hero is hurt now: it hits with twice its power.
    take(&mut game, "strike Hero");
    take(&mut game, "pass");
    take(&mut game, "pass");
    assert_eq!(counter(&table, &game, "hp", 0), 4);
    // A fighter that joins the banner is inspired once the action is done;
    // the log names only the marker that changed.
    game.take_log();
    take(&mut game, "field Guard");
    assert_eq!(standing(&game), [1, 1]);
    let log = game.take_log().join("\n");
    assert_eq!(log.matches("inspired").count(), 1, "{log}");
    // `played(fighter)`: the Guard is the one fighter fielded this turn.
    assert_eq!(counter(&table, &game, "zeal", 0), 1);
}

#[test]
fn a_scout_may_put_the_top_card_at_the_bottom() {
    let doc = parley();
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    let mut first = Game::with_log(&table, 1);
    let before = zone(&table, &first, "deck", 0);
    assert_eq!(before, ["Squire", "Guard"]);
    let mut second = first.clone();
    take(&mut first, "read Map");
    assert_eq!(labels(&first), ["option 1: yes", "option 2: no"]);
    let log = first.take_log().join("\n");
    assert!(log.contains(&format!("player 1 sees Deck (player 1): {}", before.last().expect("a card"))), "{log}");
    take(&mut first, "option 1: yes");
    let mut moved = before.clone();
    moved.rotate_right(1);
    assert_eq!(zone(&table, &first, "deck", 0), moved);
    take(&mut second, "read Map");
    take(&mut second, "option 2: no");
    assert_eq!(zone(&table, &second, "deck", 0), before);
}

/// Every kind of bot plays the game to its end, and every decision it took
/// replays through a fresh game of the same seed.
#[test]
fn bots_answer_in_windows_and_their_games_replay() {
    let doc = parley();
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    for bots in [[BotKind::Random, BotKind::Random], [BotKind::Search { playouts: 8 }, BotKind::Random]] {
        for seed in 0..10 {
            let (taken, record) = common::bot_game(&table, &bots, seed);
            let mut replay = Game::new(&table, seed);
            for decision in &taken {
                replay.apply(decision).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
            assert_eq!(replay.record(), record);
        }
    }
}

/// The set-up's `add FIELD to COUNTER from ZONE` (a System Card's HP bonus)
/// is played: each seat's counter gains the field's sum over its zone.
#[test]
fn a_set_up_adds_a_field_of_its_cards_to_a_counter() {
    let mut value: serde_json::Value = serde_json::from_str(&parley_json()).expect("JSON");
    let steps = value["ruleset"]["setup"]["steps"].as_array_mut().expect("steps");
    steps.push(serde_json::json!({"do": "add", "field": "power", "counter": "hp", "from": "ranks"}));
    let doc: Document = serde_json::from_value(value).expect("engine data");
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    let game = Game::new(&table, 1);
    // Hero (3) and a Standard, which has no power; Map and Hero (3).
    assert_eq!([counter(&table, &game, "hp", 0), counter(&table, &game, "hp", 1)], [13, 13]);
}
