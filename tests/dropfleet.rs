//! Dropfleet Commander 1.3.1 (`cards/dropfleet-1.3`): the content checks
//! clean through the library, the UCM Lysander's checked IR is the rulebook's
//! stat line field for field, and every battlegroup's computed strategy
//! rating is the sum of its ships' Tonnage Values from the rulebook's table.

use cardsmith::ir::{Card, Decimal, Deck, Game, Value};
mod common;

use cardsmith::workspace::Outcome;
use common::check_folder;

const FOLDER: &str = "cards/dropfleet-1.3";

fn game(outcome: &Outcome) -> &Game {
    outcome.project.games.iter().find(|g| g.ruleset.id == "dropfleet-1.3").expect("game present")
}

fn card<'g>(game: &'g Game, name: &str) -> &'g Card {
    game.cards.iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no card `{name}`"))
}

fn deck<'g>(game: &'g Game, name: &str) -> &'g Deck {
    game.decks.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("no deck `{name}`"))
}

/// The values of a field given exactly once on the card.
fn once(card: &Card, name: &str) -> Vec<Value> {
    let fields: Vec<_> = card.body.fields.iter().filter(|f| f.name == name).collect();
    assert_eq!(fields.len(), 1, "`{}` gives `{name}` once", card.name);
    fields[0].each_value().cloned().collect()
}

fn keyword(id: &str) -> Value {
    Value::Keyword { id: id.into(), args: Vec::new() }
}

/// Whole inches: the distances of the ship cards are all whole.
fn distance(inches: i64) -> Value {
    Value::Distance(Decimal { units: inches, scale: 0 })
}

fn plain(n: i64) -> Value {
    // A plain number written where dice are expected.
    Value::Dice { count: 0, sides: 0, modifier: n }
}

/// The Strategy Rating table of the rulebook (§3.1.1), copied here rather
/// than read from the ruleset, so the test checks the ruleset's weights too.
fn tonnage_value(tonnage: &str) -> i64 {
    match tonnage {
        "L" => 1,
        "L2" => 2,
        "M" => 5,
        "H" => 10,
        "S" => 15,
        "S2" => 30,
        other => panic!("tonnage `{other}` has no value in the rulebook's table"),
    }
}

#[test]
fn dropfleet_content_checks_clean() {
    let outcome = check_folder(FOLDER);
    let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
    assert!(outcome.diagnostics.is_empty(), "{rendered}");
    let game = game(&outcome);
    let ships = game.cards.iter().filter(|c| c.kind == "ship").count();
    assert!(ships >= 16, "the Lysander and at least 15 more ships, found {ships}");
    for fleet in ["Lantern Patrol", "Red Tide", "Avalon Battle Group"] {
        deck(game, fleet);
    }
}

/// Items are checked in chunks spread over the cores; a battlegroup defined
/// inside a fleet must still be found as that fleet's, wherever its chunk
/// falls.  Two hundred copies of the sample fleets (six hundred fleets, more
/// than one chunk can hold) check as clean as one.
#[test]
fn battlegroups_stay_with_their_fleet_across_chunks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FOLDER);
    let mut workspace = cardsmith::workspace::Workspace::new();
    for entry in std::fs::read_dir(&dir).expect("folder") {
        let path = entry.expect("entry").path();
        let name = format!("{FOLDER}/{}", path.file_name().and_then(|n| n.to_str()).unwrap_or("?"));
        workspace.add_bytes(&name, std::fs::read(&path).expect("readable"));
    }
    let fleets = std::fs::read_to_string(dir.join("fleets.cards")).expect("fleets");
    for copy in 0..200 {
        let renamed =
            ["Lantern Patrol", "Red Tide", "Avalon Battle Group"].iter().fold(fleets.clone(), |text, fleet| {
                text.replace(&format!("fleet \"{fleet}\""), &format!("fleet \"{fleet} {copy}\""))
            });
        workspace.add_text(&format!("copies/{copy}.cards"), &renamed);
    }
    let outcome = workspace.check();
    let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
    assert!(outcome.diagnostics.is_empty(), "{rendered}");
    assert_eq!(game(&outcome).decks.iter().filter(|d| d.deck_type == "battle").count(), 201);
}

#[test]
fn lysander_is_the_rulebook_stat_line() {
    let outcome = check_folder(FOLDER);
    let game = game(&outcome);
    let lysander = card(game, "UCM Lysander");
    assert_eq!(lysander.kind, "ship");
    assert!(lysander.tags.is_empty());

    let names: Vec<&str> = lysander.body.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "class", "role", "faction", "points", "scan", "sig", "thrust", "hull", "armour", "pd", "group", "tonnage",
            "special", "weapon", "launch", "unique"
        ]
    );

    // Header: faction, class and role line.
    assert_eq!(once(lysander, "class"), [Value::String("Lysander".into())]);
    assert_eq!(once(lysander, "role"), [Value::String("Stealth Lighter".into())]);
    assert_eq!(once(lysander, "faction"), [Value::Name("ucm".into())]);
    // Points Cost (D): lost in the source; 15 is the ruleset's decision (§5.16).
    assert_eq!(once(lysander, "points"), [Value::Int(15)]);

    // Stats Bar: 6" 0" 12" 2 6+ 2 1-3 L.
    assert_eq!(once(lysander, "scan"), [distance(6)]);
    assert_eq!(once(lysander, "sig"), [distance(0)]);
    assert_eq!(once(lysander, "thrust"), [distance(12)]);
    assert_eq!(once(lysander, "hull"), [Value::Int(2)]);
    assert_eq!(once(lysander, "armour"), [Value::Save { save: 6, passive: None }]);
    assert_eq!(once(lysander, "pd"), [Value::Int(2)]);
    assert_eq!(once(lysander, "group"), [Value::Range { low: 1, high: Some(3) }]);
    assert_eq!(once(lysander, "tonnage"), [Value::Name("L".into())]);
    // Special: Atmospheric, Full Cloak, Launch, Open, Rare.
    assert_eq!(
        once(lysander, "special"),
        [keyword("atmospheric"), keyword("full-cloak"), keyword("launch"), keyword("open"), keyword("rare")]
    );

    // Weapon Systems: Barracuda Missile Bay | 4+ | 2 | 1 | F/S/R | Close Action.
    assert_eq!(once(lysander, "weapon"), [Value::String("Barracuda Missile Bay".into())]);
    let weapon = lysander.field("weapon").and_then(|f| f.body.as_ref()).expect("weapon profile");
    let profile: Vec<(&str, Vec<Value>)> =
        weapon.fields.iter().map(|f| (f.name.as_str(), f.each_value().cloned().collect())).collect();
    assert_eq!(
        profile,
        [
            ("lock", vec![Value::Save { save: 4, passive: None }]),
            ("attack", vec![plain(2)]),
            ("damage", vec![plain(1)]),
            ("arc", vec![Value::Set(vec!["F".into(), "S".into(), "R".into()])]),
            ("special", vec![keyword("close-action")]),
        ]
    );

    // Launch Capacity: Dropships | 1 | -.
    assert_eq!(once(lysander, "launch"), [Value::Set(vec!["dropships".into()]), Value::Int(1)]);
    assert!(lysander.field("launch").and_then(|f| f.body.as_ref()).is_none());

    // Unique rule (E): Stealth Observation.
    assert_eq!(once(lysander, "unique"), [Value::String("Stealth Observation".into())]);
    let unique = lysander.field("unique").and_then(|f| f.body.as_ref()).expect("unique rule text");
    assert_eq!(unique.fields.len(), 1);
    assert_eq!(unique.fields[0].name, "text");
    match unique.fields[0].each_value().collect::<Vec<_>>().as_slice() {
        [Value::Text(text)] => {
            assert_eq!(text.raw, "This ship can Survey a Cluster regardless of its Battlegroup Tonnage value.")
        }
        other => panic!("expected the rule's text, found {other:?}"),
    }
}

#[test]
fn tonnage_weights_are_the_rulebook_table() {
    let outcome = check_folder(FOLDER);
    let game = game(&outcome);
    let tonnage = game.ruleset.enums.iter().find(|e| e.id == "tonnage").expect("tonnage enum");
    assert_eq!(tonnage.values, ["L", "L2", "M", "H", "S", "S2", "H2"]);
    for value in ["L", "L2", "M", "H", "S", "S2"] {
        assert_eq!(tonnage.weight(value), Some(tonnage_value(value)), "{value}");
    }
    // §5.15: H2 is named by the rulebook but has no Tonnage Value.
    assert_eq!(tonnage.weight("H2"), None);
}

/// A fleet's name, game size and points, and its battlegroups with their
/// strategy ratings.
type Roster = (&'static str, &'static str, i64, &'static [(&'static str, i64)]);

#[test]
fn strategy_ratings_are_the_sum_of_tonnage_values() {
    let outcome = check_folder(FOLDER);
    let game = game(&outcome);
    // Every battlegroup of every fleet, with the rating worked out by hand
    // from the fleet file, and the fleet's points.
    let fleets: [Roster; 3] = [
        ("Lantern Patrol", "skirmish", 690, &[("Lantern Scouts", 5), ("Lantern Anvil", 7), ("Lantern Hammer", 12)]),
        (
            "Red Tide",
            "clash",
            1325,
            &[("Red Tide Hunters", 6), ("Red Tide Claws", 12), ("Red Tide Lances", 12), ("Red Tide Maw", 17)],
        ),
        (
            "Avalon Battle Group",
            "battle",
            2650,
            &[
                ("Avalon Pickets", 9),
                ("Avalon Anvil", 13),
                ("Avalon Lances", 20),
                ("Avalon Bulwark", 24),
                ("Avalon Crown", 17),
                ("Avalon", 30),
            ],
        ),
    ];
    for (fleet_name, size, points, battlegroups) in fleets {
        let fleet = deck(game, fleet_name);
        assert_eq!(fleet.deck_type, size);
        assert_eq!(fleet.computed.get("points"), Some(&points), "{fleet_name} points");
        let included: Vec<&str> = fleet.includes.iter().map(String::as_str).collect();
        let expected: Vec<&str> = battlegroups.iter().map(|(name, _)| *name).collect();
        assert_eq!(included, expected, "{fleet_name} battlegroups");
        for (name, rating) in battlegroups {
            let battlegroup = deck(game, name);
            // The rating from the ships' tonnage and the rulebook's table.
            let from_ships: i64 = battlegroup
                .cards
                .iter()
                .map(|entry| {
                    let ship = card(game, &entry.card);
                    let tonnage = match once(ship, "tonnage").as_slice() {
                        [Value::Name(t)] => t.clone(),
                        other => panic!("{}: tonnage {other:?}", ship.name),
                    };
                    entry.count * tonnage_value(&tonnage)
                })
                .sum();
            assert_eq!(from_ships, *rating, "{name}: worked out by hand");
            assert_eq!(battlegroup.computed.get("strategy-rating"), Some(rating), "{name}: computed");
        }
    }
}

/// A fleet's agreed points are the ones it sets, else its roster's band top.
#[test]
fn each_fleet_has_its_agreed_points() {
    let outcome = check_folder(FOLDER);
    let game = game(&outcome);
    for (fleet_name, agreed) in [("Lantern Patrol", 999), ("Red Tide", 1500), ("Avalon Battle Group", 3000)] {
        let fleet = deck(game, fleet_name);
        assert_eq!(fleet.params.get("agreed-points"), Some(&agreed), "{fleet_name}");
    }
}
