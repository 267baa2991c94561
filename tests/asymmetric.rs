//! `examples/vault-run`: an asymmetric game whose two sides each have their
//! own kinds, deck, counter, zones, turn and set-up.  Breaking each of its
//! rules — one edit to a copy of the project — gives that rule's diagnostic;
//! the engine data says which side owns what; play deals each side its own
//! hand and gives each its own turn.

mod common;

use cardsmith::engine::data::Document;
use cardsmith::engine::play::bots::{bot_rng, choose};
use cardsmith::engine::play::{BotKind, Game, Seating, Table};
use common::{built_json, example_project};
use std::path::Path;

const RULES: &str = "cards/vault-run.rules";
const CARDS: &str = "cards/vault-run.cards";

/// A copy of the example with `from` replaced by `to` once in `file`.
fn edited(file: &str, from: &str, to: &str) -> tempfile::TempDir {
    common::edited_example("vault-run", file, from, to)
}

fn diagnostics(dir: &Path) -> Vec<String> {
    common::check_messages(dir)
}

fn document() -> Document {
    Document::from_json(&built_json("examples/vault-run/cards", "vault-run")).expect("engine data")
}

#[test]
fn the_example_checks_clean() {
    assert_eq!(diagnostics(example_project("vault-run").path()), Vec::<String>::new());
}

#[test]
fn a_deck_of_one_side_holding_the_other_sides_card_is_refused() {
    let found =
        diagnostics(edited(CARDS, "  card \"Lockpick\" x3", "  card \"Lockpick\" x2\n  card \"Dog Handler\"").path());
    assert_eq!(
        found,
        ["error[E0410]: deck `Old Hands` of side `crew` holds `Dog Handler`, a card of side `house`"],
        "{found:?}"
    );
}

#[test]
fn a_side_deck_of_the_wrong_size_is_refused() {
    let found = diagnostics(edited(CARDS, "  card \"Inside Man\" x3", "  card \"Inside Man\" x2").path());
    assert_eq!(found, ["error[E0401]: deck `Old Hands` breaks a rule: a Crew deck holds 12 tools"], "{found:?}");
}

#[test]
fn a_guard_watching_less_than_its_cost_is_warned() {
    let found = diagnostics(edited(CARDS, "  cost 5\n  watch 5", "  cost 5\n  watch 3").path());
    assert_eq!(
        found,
        ["warning[W0315]: `Head of Security` breaks a rule: a guard's watch is worth its cost"],
        "{found:?}"
    );
}

#[test]
fn a_turn_of_a_side_that_is_not_declared_is_refused() {
    let found = diagnostics(
        edited(RULES, "phase crew-turn \"Crew Turn\" {\n  side crew", "phase crew-turn \"Crew Turn\" {\n  side crw")
            .path(),
    );
    assert_eq!(found, ["error[E0103]: phase `crew-turn` belongs to side `crw`, which is not declared"], "{found:?}");
}

#[test]
fn a_counter_of_one_side_shared_by_the_table_is_refused() {
    let found = diagnostics(edited(RULES, "{ side crew; doc", "{ side crew; owner shared; doc").path());
    assert_eq!(found, ["error[E0132]: counter `loot` is shared by the table and belongs to one side"], "{found:?}");
}

#[test]
fn a_zone_of_a_side_that_is_not_declared_is_refused() {
    let found = diagnostics(edited(RULES, "zone rig \"Rig\" { side crew;", "zone rig \"Rig\" { side crews;").path());
    assert_eq!(found, ["error[E0103]: zone `rig` belongs to side `crews`, which is not declared"], "{found:?}");
}

#[test]
fn set_up_steps_of_a_side_that_is_not_declared_are_refused() {
    let found = diagnostics(edited(RULES, "when side crew {", "when side crow {").path());
    assert_eq!(
        found,
        ["error[E0103]: a set-up's `when side` block belongs to side `crow`, which is not declared"],
        "{found:?}"
    );
}

#[test]
fn a_zone_limit_by_side_is_refused() {
    let found = diagnostics(edited(RULES, "when side crew {", "when side crew { limit hand 4;").path());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("a zone's limit stands in `when players`, not in `when side`"), "{found:?}");
}

#[test]
fn the_engine_data_says_which_side_owns_what() {
    let doc: serde_json::Value = serde_json::from_str(&built_json("examples/vault-run/cards", "vault-run")).unwrap();
    let ruleset = &doc["ruleset"];
    let side_of = |list: &serde_json::Value, id: &str| {
        list.as_array().unwrap().iter().find(|x| x["id"] == id).map(|x| x["side"].clone()).unwrap()
    };
    assert_eq!(side_of(&ruleset["kinds"], "guard"), "house");
    assert_eq!(side_of(&ruleset["deck_types"], "crew-deck"), "crew");
    assert_eq!(side_of(&ruleset["phases"], "house-turn"), "house");
    assert_eq!(side_of(&ruleset["phases"], "crew-turn"), "crew");
    let setup = &ruleset["setup"];
    assert_eq!(side_of(&setup["counters"], "loot"), "crew");
    assert_eq!(side_of(&setup["counters"], "credits"), serde_json::Value::Null);
    assert_eq!(side_of(&setup["zones"], "posts"), "house");
    let dealt: Vec<(&str, i64)> = setup["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["do"] == "deal")
        .map(|s| (s["side"].as_str().unwrap(), s["count"].as_i64().unwrap()))
        .collect();
    assert_eq!(dealt, [("house", 5), ("crew", 4)]);
}

/// The House (player 1) is dealt five cards from its own deck, the Crew
/// four from theirs; each side has one deck, and only its own counter.
#[test]
fn each_side_is_set_up_from_its_own_deck() {
    let doc = document();
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    let zone = |id: &str| table.zones.iter().position(|z| z.id == id).expect("a zone");
    let counter = |id: &str| table.counters.iter().position(|c| c.id == id).expect("a counter");
    for seed in 0..20 {
        let game = Game::new(&table, seed);
        // The House's turn has begun: it drew one card more.
        assert_eq!(game.to_act(), Some(0));
        assert_eq!(game.zone_len(zone("hand"), 0), 6);
        assert_eq!(game.zone_len(zone("hand"), 1), 4);
        assert!(game
            .zone_cards(zone("hand"), 1)
            .iter()
            .all(|c| doc.cards.iter().any(|d| d.name == *c && d.kind == "tool")));
        assert_eq!(game.zone_len(zone("vault-deck"), 0), 6);
        assert_eq!(game.zone_len(zone("stash"), 1), 8);
        assert_eq!(game.counter(counter("credits"), 0), 6);
        assert_eq!(game.counter(counter("credits"), 1), 3);
    }
}

/// Over whole games between bots, the House acts only in its turn and the
/// Crew only in theirs, and neither ever has the other's counter.
#[test]
fn each_side_plays_only_its_own_turn() {
    let doc = document();
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    let counter = |id: &str| table.counters.iter().position(|c| c.id == id).expect("a counter");
    let (alert, loot) = (counter("alert"), counter("loot"));
    let mut acted = [0usize; 2];
    for seed in 0..40 {
        let mut game = Game::with_log(&table, seed);
        let mut rng = bot_rng(seed);
        let mut phase = String::new();
        let mut follow = |game: &mut Game| {
            for line in game.take_log() {
                if let Some(name) = line.strip_prefix("-- ").and_then(|l| l.strip_suffix(" --")) {
                    phase = name.to_string();
                }
            }
            phase.clone()
        };
        let mut now = follow(&mut game);
        while let Some(seat) = game.to_act() {
            let own = if seat == 0 { "House Turn" } else { "Crew Turn" };
            assert_eq!(now, own, "seat {seat} is asked to act in {now}");
            let decision = choose(BotKind::Random, &game, &mut rng).expect("a decision");
            game.apply(&decision).expect("legal");
            now = follow(&mut game);
            acted[seat] += usize::from(decision.is_action());
            assert_eq!(game.counter(alert, 1), 0, "the Crew has no alert");
            assert_eq!(game.counter(loot, 0), 0, "the House has no loot");
        }
        assert!(game.is_over());
    }
    assert!(acted.iter().all(|&n| n > 0), "{acted:?}");
}

#[test]
fn a_deal_from_one_sides_deck_to_every_hand_is_refused() {
    let found = diagnostics(
        edited(RULES, "when side house { deal 5 from vault-deck to hand }", "deal 5 from vault-deck to hand").path(),
    );
    assert_eq!(
        found,
        ["error[E0132]: every player would take the cards of `vault-deck`, the zone of side `house`"],
        "{found:?}"
    );
}

#[test]
fn a_step_of_one_side_on_the_other_sides_zone_is_refused() {
    let found = diagnostics(edited(RULES, "deal 4 from stash to hand", "deal 4 from vault-deck to hand").path());
    assert_eq!(found, ["error[E0132]: a step of side `crew` uses a zone of side `house`"], "{found:?}");
}

#[test]
fn one_sides_decks_in_the_other_sides_zone_are_refused() {
    let found = diagnostics(edited(RULES, "decks crew-deck to stash", "decks crew-deck to vault-deck").path());
    assert_eq!(
        found,
        ["error[E0132]: decks of `crew-deck`, a deck type of side `crew`, go into `vault-deck`, the zone of side `house`"],
        "{found:?}"
    );
}

#[test]
fn a_turn_changing_the_other_sides_counter_as_its_own_is_warned() {
    let found = diagnostics(edited(RULES, "if on-watch { add alert 1 }", "if on-watch { remove loot 1 }").path());
    assert_eq!(found, ["warning[W0505]: `loot` is side `crew`'s, and this is side `house`'s turn"], "{found:?}");
    // With `opponent`, the House takes loot from the Crew: no warning.
    let found =
        diagnostics(edited(RULES, "if on-watch { add alert 1 }", "if on-watch { remove loot 1 opponent }").path());
    assert_eq!(found, Vec::<String>::new());
}

/// A card of one side is compared, in the simulation's card rows, with
/// that side's seat-games without it: the other side's never could hold it.
#[test]
fn a_sides_card_is_compared_within_its_sides_seat_games() {
    use cardsmith::engine::simulate::{figures::Figures, Summary};
    let doc = document();
    let table = Table::new(&doc, &Seating::default()).expect("playable");
    let mut summary = Summary::default();
    let games = 60;
    for seed in 0..games {
        let (_, record) = common::bot_game(&table, &[BotKind::Random, BotKind::Random], seed);
        summary.add(&record, None);
    }
    let figures = Figures::of(&summary, &[]);
    for card in ["Head of Security", "Inside Man"] {
        let row = figures.cards.iter().find(|c| c.card == card).expect("a row");
        assert_eq!(row.win_rate_played.trials + row.win_rate_not_played.trials, games, "{card}");
    }
}
