//! The play engine on engine data written by hand: a small game whose odds
//! are known exactly, and a deck-building game for two played by every kind
//! of bot.  (Once the ruleset reader writes play semantics, the same games
//! come from `.rules` files.)

mod common;

use cardsmith::engine::data::Document;
use cardsmith::engine::play::bots::{bot_rng, choose};
use cardsmith::engine::play::{log, play_game, BotKind, Decision, DecisionKind, Game, Seating, Table};
use cardsmith::engine::record::GameRecord;
use common::{bot_game, built_json};

fn text(name: &str) -> String {
    let path = format!("{}/tests/play/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).expect("the fixture")
}

fn document(name: &str) -> Document {
    Document::from_json(&text(name)).expect("engine data")
}

fn table(doc: &Document) -> Table {
    Table::new(doc, &Seating::default()).expect("playable")
}

/// ln C(n, k), exactly enough for the sizes here.
fn choose_count(n: u64, k: u64) -> f64 {
    (0..k).map(|i| (n - i) as f64 / (i + 1) as f64).product()
}

/// The chance that a 5-card opening hand from a shuffled deck of 10 with 3
/// copies of a card holds at least one: 1 - C(7,5)/C(10,5).  Estimated over
/// many seeded set-ups, it falls within the 99.9% interval of the exact
/// value.
#[test]
fn an_opening_hand_holds_a_card_as_often_as_the_odds_say() {
    let doc = document("opening-hand");
    let table = table(&doc);
    let exact = 1.0 - choose_count(7, 5) / choose_count(10, 5);
    assert!((exact - 231.0 / 252.0).abs() < 1e-12);
    let games = 20_000u64;
    let hits = (0..games)
        .filter(|&seed| {
            let game = Game::new(&table, seed);
            assert!(game.is_over(), "the game has no decisions");
            game.scores()[0] >= 1
        })
        .count();
    let estimate = hits as f64 / games as f64;
    let margin = 3.29 * (exact * (1.0 - exact) / games as f64).sqrt();
    assert!((estimate - exact).abs() < margin, "estimated {estimate}, exactly {exact} ± {margin}");
    // The mean number of copies in hand is 5 × 3/10.
    let total: i64 = (0..2_000).map(|seed| Game::new(&table, seed).scores()[0]).sum();
    let mean = total as f64 / 2_000.0;
    assert!((mean - 1.5).abs() < 0.06, "mean {mean}");
}

/// Each of the 3! orders of three shuffled cards is as likely: a
/// chi-square test with 5 degrees of freedom at the 0.1% level.
#[test]
fn a_shuffle_gives_every_order_alike() {
    let doc = document("opening-hand");
    let seating = Seating { seats: 1, decks: vec![vec!["Three".to_string()]], supply: Vec::new() };
    let table = Table::new(&doc, &seating).expect("playable");
    let hand = table.zones.iter().position(|z| z.id == "hand").expect("a hand");
    let orders = [
        "Left Middle Right",
        "Left Right Middle",
        "Middle Left Right",
        "Middle Right Left",
        "Right Left Middle",
        "Right Middle Left",
    ];
    let mut seen = [0u32; 6];
    let games = 12_000u64;
    for seed in 0..games {
        let game = Game::new(&table, seed);
        let order = game.zone_cards(hand, 0).join(" ");
        let at = orders.iter().position(|o| *o == order).unwrap_or_else(|| panic!("an order of three: {order}"));
        seen[at] += 1;
    }
    let expected = games as f64 / 6.0;
    let chi2: f64 = seen.iter().map(|&n| (n as f64 - expected).powi(2) / expected).sum();
    assert!(chi2 < 20.515, "chi-square {chi2} over {seen:?}");
}

/// Every decision of bot games replays through a fresh game of the same
/// seed, each accepted, to the same record; `play_game` gives it too.
#[test]
fn bot_games_replay_decision_by_decision() {
    let doc = document("lantern-market");
    let table = table(&doc);
    let lineups = [
        [BotKind::Random, BotKind::Random],
        [BotKind::Greedy(0), BotKind::Random],
        [BotKind::Greedy(0), BotKind::Greedy(0)],
        [BotKind::Search { playouts: 20 }, BotKind::Greedy(0)],
    ];
    for (i, bots) in lineups.iter().enumerate() {
        for seed in 0..if i == 3 { 2 } else { 20 } {
            let (taken, record) = bot_game(&table, bots, seed);
            assert!(record.rounds >= 1 && record.decisions as usize == taken.len());
            let mut replay = Game::new(&table, seed);
            for decision in &taken {
                replay.apply(decision).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
            assert!(replay.is_over());
            assert_eq!(replay.record(), record);
            assert_eq!(play_game(&table, bots, seed, None).expect("a game"), record);
        }
    }
}

/// What a seat sees, what it may decide and what the game leaves: equal
/// when the state is.
fn snapshot(game: &Game) -> (String, String, Vec<Decision>, GameRecord, Option<usize>) {
    (log::view(game, 0), log::view(game, 1), game.decisions(), game.record(), game.to_act())
}

#[test]
fn an_illegal_decision_is_refused_and_changes_nothing() {
    let doc = document("lantern-market");
    let table = table(&doc);
    let mut game = Game::new(&table, 5);
    let mut rng = bot_rng(5);
    // On to a point where the first seat may buy.
    while game.decisions().iter().all(|d| !d.is_action()) || game.to_act() != Some(0) {
        let decision = choose(BotKind::Random, &game, &mut rng).expect("a decision");
        game.apply(&decision).expect("legal");
    }
    let before = snapshot(&game);
    let seat = game.to_act().expect("a seat");
    let legal = game.decisions();
    let taken = legal.iter().find_map(|d| match d.kind {
        DecisionKind::Take { action, .. } => Some(action),
        _ => None,
    });
    let action = taken.expect("an action that takes a card");
    let elsewhere = (0..table.instance_count() as u16)
        .map(|card| Decision { seat, kind: DecisionKind::Take { action, card } })
        .find(|d| !legal.contains(d))
        .expect("a card that cannot be taken");
    let illegal = [
        elsewhere,
        Decision { seat: 1 - seat, kind: DecisionKind::Pass },
        Decision { seat, kind: DecisionKind::Option { index: 0 } },
        Decision { seat, kind: DecisionKind::Act { action: 999 } },
        Decision { seat, kind: DecisionKind::Card { card: 9_999 } },
    ];
    for decision in illegal {
        let refusal = game.apply(&decision).expect_err("refused");
        assert!(!refusal.0.is_empty());
        assert_eq!(snapshot(&game), before, "{decision:?} changed the game");
    }
    let refusal = game.apply(&Decision { seat: 1 - seat, kind: DecisionKind::Pass }).expect_err("refused");
    assert!(refusal.0.contains("decision"), "{refusal}");
}

/// The same seed gives the same game, log and all; another seed another.
#[test]
fn a_seed_gives_one_game() {
    let doc = document("lantern-market");
    let table = table(&doc);
    let bots = [BotKind::Greedy(0), BotKind::Random];
    let play = |seed| {
        let mut log = Vec::new();
        let record = play_game(&table, &bots, seed, Some(&mut log)).expect("a game");
        (record, String::from_utf8(log).expect("text"))
    };
    let (record, log) = play(11);
    assert_eq!(play(11), (record.clone(), log.clone()));
    assert!(log.contains("== round 1 ==") && log.contains("-- Market --") && log.contains("buy "), "{log}");
    assert_ne!(play(12).1, log);
    assert_eq!(record.curve.len() as u32, record.rounds);
    assert_eq!(record.curve.last(), Some(&record.scores));
}

/// Removes every key of these names, at any depth.
fn strip(value: &mut serde_json::Value, keys: &[&str]) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::Object(map) => {
                map.retain(|k, _| !keys.contains(&k.as_str()));
                stack.extend(map.values_mut());
            }
            serde_json::Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// The engine plays from the play semantics alone: without the
/// expressions' source text, display names, card text, kinds' schemas and
/// sides, the same games come out.
#[test]
fn a_document_without_what_play_does_not_read_plays_the_same() {
    let full = document("lantern-market");
    let mut bare: serde_json::Value = serde_json::from_str(&text("lantern-market")).expect("JSON");
    strip(&mut bare, &["source", "display", "kinds", "sides", "visibility"]);
    if let Some(cards) = bare["cards"].as_array_mut() {
        for card in cards {
            if let Some(fields) = card["body"]["fields"].as_array_mut() {
                fields.retain(|f| f["name"] != "text");
            }
        }
    }
    let stripped = serde_json::to_string(&bare).expect("JSON");
    assert!(!stripped.contains("\"source\"") && !stripped.contains("Gain 1"));
    let bare: Document = serde_json::from_str(&stripped).expect("still engine data");
    let (full, bare) = (table(&full), table(&bare));
    for seed in 0..10 {
        let bots = [BotKind::Greedy(0), BotKind::Random];
        let a = play_game(&full, &bots, seed, None).expect("a game");
        let b = play_game(&bare, &bots, seed, None).expect("a game");
        assert_eq!(a, b);
    }
}

/// What the engine refuses to play, it says in a sentence.
#[test]
fn what_cannot_be_played_is_named() {
    let mut value: serde_json::Value = serde_json::from_str(&text("lantern-market")).expect("JSON");
    value["ruleset"].as_object_mut().expect("a ruleset").remove("play");
    let doc: Document = serde_json::from_value(value).expect("engine data");
    let error = Table::new(&doc, &Seating::default()).err().expect("refused");
    assert!(error.0.contains("no `play`"), "{error}");

    let mut value: serde_json::Value = serde_json::from_str(&text("lantern-market")).expect("JSON");
    value["ruleset"]["symbols"][0]["does"].as_array_mut().expect("meanings").pop();
    let doc: Document = serde_json::from_value(value).expect("engine data");
    let error = Table::new(&doc, &Seating::default()).err().expect("refused");
    assert!(error.0.contains("no meaning for the role `spend`"), "{error}");

    let mut value: serde_json::Value = serde_json::from_str(&text("lantern-market")).expect("JSON");
    value["ruleset"]["setup"]["zones"].as_array_mut().expect("zones").retain(|z| z["id"] != "scrap");
    let doc: Document = serde_json::from_value(value).expect("engine data");
    let error = Table::new(&doc, &Seating::default()).err().expect("refused");
    assert!(error.0.contains("zone `scrap`"), "{error}");

    let mut value: serde_json::Value = serde_json::from_str(&text("lantern-market")).expect("JSON");
    let awning = &mut value["cards"][3]["body"]["fields"][2]["body"]["conditions"][0]["condition"];
    *awning = serde_json::json!({"type": "range", "from": "short"});
    let doc: Document = serde_json::from_value(value).expect("engine data");
    let error = Table::new(&doc, &Seating::default()).err().expect("refused");
    assert!(error.0.contains("Silk Awning") && error.0.contains("cannot read in play"), "{error}");

    let doc = document("lantern-market");
    let error = Table::new(&doc, &Seating::new(3)).err().expect("refused");
    assert!(error.0.contains("2 to 2 players"), "{error}");
}

/// The search bot, with few playouts, beats random play.
#[test]
fn the_search_bot_beats_random_play() {
    let doc = document("lantern-market");
    let table = table(&doc);
    let bots = [BotKind::Random, BotKind::Search { playouts: 24 }];
    let wins = (0..10).filter(|&seed| play_game(&table, &bots, seed, None).expect("a game").winner == Some(1)).count();
    assert!(wins >= 7, "{wins} wins of 10");
}

/// The greedy bot beats random play more often than not.
#[test]
fn the_greedy_bot_beats_random_play() {
    let doc = document("lantern-market");
    let table = table(&doc);
    let wins = (0..100)
        .filter(|&seed| {
            let record = play_game(&table, &[BotKind::Greedy(0), BotKind::Random], seed, None).expect("a game");
            record.winner == Some(0)
        })
        .count();
    assert!(wins > 55, "{wins} wins of 100");
}

/// `cardsmith play` with the given arguments and standard input.
fn play_command(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let data = format!("{}/tests/play/lantern-market.json", env!("CARGO_MANIFEST_DIR"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .args(["play", "--data", &data])
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cardsmith runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input written");
    child.wait_with_output().expect("cardsmith ends")
}

#[test]
fn the_play_command_plays_bots_and_people() {
    let bots = play_command(&["--seed", "4", "--seat", "1=random", "--seat", "2=greedy:lamplighter"], "");
    let text = String::from_utf8_lossy(&bots.stdout);
    assert!(bots.status.success(), "{}", String::from_utf8_lossy(&bots.stderr));
    assert!(text.starts_with("seed 4\n") && text.contains("rounds: "), "{text}");
    assert_eq!(play_command(&["--seed", "4", "--seat", "1=random", "--seat", "2=greedy"], "").stdout, bots.stdout);

    // A person sees its own hand, not the other's, and picks by number;
    // input that ends before the game does is an error, not a game played.
    let person = play_command(&["--seed", "4"], "x\n1\n");
    let text = String::from_utf8_lossy(&person.stdout);
    let errors = String::from_utf8_lossy(&person.stderr);
    assert_eq!(person.status.code(), Some(2), "{errors}");
    assert!(text.contains("your decision:\n  1. ") && text.contains("a number from 1 to"), "{text}");
    assert!(text.contains("Hand (second): 5 cards") && text.contains("Hand (first): "), "{text}");
    assert!(!text.contains("rounds: "), "{text}");
    assert!(errors.contains("the input ended in round 1 before the game did: first had a decision"), "{errors}");

    // Plays chosen in secret stay secret until every seat has chosen.
    let second = play_command(&["--seed", "3", "--seat", "1=greedy", "--seat", "2=human"], "");
    let text = String::from_utf8_lossy(&second.stdout);
    let (before, _) = text.split_once("your decision").expect("a decision");
    assert!(before.contains("Revealed (first): 3 cards") && !before.contains("first: reveal"), "{text}");

    let wrong = play_command(&["--seat", "2=clever"], "");
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("not a kind of player"));
}

/// A ruleset that names a condition inside itself, or nests repeats of a
/// million, still gives a game that ends, in bounded time.
#[test]
fn a_hostile_ruleset_still_ends() {
    let mut value: serde_json::Value = serde_json::from_str(&text("lantern-market")).expect("JSON");
    let itself = serde_json::json!({"source": "has-oil", "tree": {"op": "condition", "id": "has-oil", "args": []}});
    value["ruleset"]["conditions"][1]["means"] = itself;
    let million = serde_json::json!({"source": "1000000", "tree": {"op": "int", "value": 1_000_000}});
    let add = value["ruleset"]["symbols"][0]["does"][0]["ops"][0].clone();
    let inner = serde_json::json!({"do": "repeat", "times": million, "ops": [add]});
    let outer = serde_json::json!({"do": "repeat", "times": million, "ops": [inner]});
    value["ruleset"]["symbols"][0]["does"][0]["ops"] = serde_json::json!([outer]);
    value["ruleset"]["play"]["round_limit"] = serde_json::json!(2);
    let doc: Document = serde_json::from_value(value).expect("engine data");
    let table = table(&doc);
    let start = std::time::Instant::now();
    let record = play_game(&table, &[BotKind::Random, BotKind::Random], 3, None).expect("a game");
    assert_eq!(record.rounds, 2);
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
}

/// Every number of the document set to an extreme in turn: the document is
/// refused, or a game is played to its end; never a panic.
#[test]
fn extreme_numbers_give_a_game_or_a_refusal() {
    let original: serde_json::Value = serde_json::from_str(&text("lantern-market")).expect("JSON");
    let mut paths = Vec::new();
    let mut stack = vec![(original.clone(), Vec::<serde_json::Value>::new())];
    while let Some((value, path)) = stack.pop() {
        match value {
            serde_json::Value::Object(map) => {
                stack.extend(map.into_iter().map(|(k, v)| (v, [path.clone(), vec![k.into()]].concat())))
            }
            serde_json::Value::Array(items) => {
                stack.extend(items.into_iter().enumerate().map(|(i, v)| (v, [path.clone(), vec![i.into()]].concat())))
            }
            serde_json::Value::Number(_) => paths.push(path),
            _ => {}
        }
    }
    assert!(paths.len() > 50, "{} numbers", paths.len());
    let mut played = 0;
    for (n, path) in paths.iter().enumerate() {
        let extreme = if n % 2 == 0 { i64::MAX } else { i64::MIN };
        let mut value = original.clone();
        let mut at = &mut value;
        for step in path {
            at = match step {
                serde_json::Value::String(key) => &mut at[key.as_str()],
                step => &mut at[step.as_u64().expect("an index") as usize],
            };
        }
        *at = extreme.into();
        if let Some(limit) = value["ruleset"]["play"]["round_limit"].as_u64() {
            value["ruleset"]["play"]["round_limit"] = limit.min(6).into();
        }
        let Ok(doc) = serde_json::from_value::<Document>(value) else { continue };
        let Ok(table) = Table::new(&doc, &Seating::default()) else { continue };
        let record = play_game(&table, &[BotKind::Random, BotKind::Greedy(0)], n as u64, None).expect("a game");
        assert!(record.rounds >= 1, "{path:?}");
        played += 1;
    }
    assert!(played > paths.len() / 2, "{played} games of {} documents", paths.len());
}

/// A game of whole turns: actions without a card, gated and limited; a
/// counter of the table and one that resets each round; an opponent's
/// counter; `place`, random moves, a phase's start and end for each seat.
#[test]
fn a_game_of_whole_turns_plays_by_its_rules() {
    let doc = document("tug");
    let table = table(&doc);
    let pile = table.zones.iter().position(|z| z.id == "pile").expect("a pile");
    let start = Game::new(&table, 1);
    assert_eq!(start.zone_cards(pile, 0), ["Idol", "Idol"], "each seat's relic placed on the shared pile");
    let energy = table.counters.iter().position(|c| c.id == "energy").expect("energy");
    for seed in 0..30 {
        let (taken, record) = bot_game(&table, &[BotKind::Random, BotKind::Random], seed);
        // The shared pot gains 1 for each seat at the end of each round.
        assert_eq!((record.rounds, record.ended), (3, cardsmith::engine::record::Ended::Condition));
        let mut game = Game::new(&table, seed);
        let mut spent = [0i64; 2];
        for decision in &taken {
            let label = game.label(decision);
            let before = game.counter(energy, decision.seat);
            let round = game.round();
            game.apply(decision).expect("legal");
            if game.round() == round {
                spent[decision.seat] += before - game.counter(energy, decision.seat);
            }
            assert!(!label.starts_with("steal") || before >= 2, "steal is open only with 2 energy: {label}");
        }
        assert!(spent.iter().all(|&s| s >= 0));
        assert_eq!(game.counter(energy, 0), 3, "energy is back to its start after each round");
        assert_eq!(game.record(), record);
    }
    // Only one steal per seat per phase, even with the energy for two.
    let mut game = Game::new(&table, 2);
    let steals = |game: &Game| game.decisions().iter().filter(|d| game.label(d) == "steal").count();
    assert_eq!(steals(&game), 1);
    let steal = game.decisions().into_iter().find(|d| game.label(d) == "steal").expect("a steal");
    game.apply(&steal).expect("legal");
    assert_eq!(steals(&game), 0);
}

/// The example game's engine data, built in memory from its `.rules` and
/// `.cards` files.
fn example_document() -> Document {
    built_document("examples/lantern-market/cards", "lantern-market")
}

/// The engine data of the game `name` whose sources are in `folder`,
/// built in memory.
fn built_document(folder: &str, name: &str) -> Document {
    Document::from_json(&built_json(folder, name)).expect("engine data")
}

/// The cards of `zone` of each seat when the first decision is asked for.
fn dealt(table: &Table, zone: &str, seed: u64) -> Vec<usize> {
    let game = Game::new(table, seed);
    let z = table.zones.iter().position(|d| d.id == zone).expect("the zone");
    (0..table.seats).map(|seat| game.zone_len(z, seat)).collect()
}

/// The market a game of Bazaar drew: the name of the deck whose cards
/// restocked the row.
fn market_drawn(table: &Table, seed: u64) -> &'static str {
    let mut game = Game::with_log(table, seed);
    let log = game.take_log();
    let row: Vec<&str> = log.iter().filter_map(|line| line.trim().strip_suffix(" restocks Market Row")).collect();
    let pearl = row.iter().filter(|card| ["Gold", "Pearl", "Amber"].contains(card)).count();
    match pearl {
        3 => "Pearl Coast",
        0 => "Spice Road",
        _ => panic!("a row of both markets: {row:?}"),
    }
}

/// A set-up step in `when players …` is done only when that many play:
/// Bazaar deals five cards to each of two players, three to each of three
/// or four, and its market row holds four cards for four players, three
/// otherwise.
#[test]
fn a_set_up_deals_by_the_number_of_players() {
    let doc = built_document("tests/play/bazaar/cards", "bazaar");
    for (players, hand) in [(2, 5), (3, 3), (4, 3)] {
        let table = Table::new(&doc, &Seating::new(players)).expect("playable");
        assert_eq!(table.seats, players);
        for seed in 0..5 {
            // The first seat to act may already have used a card.
            let hands = dealt(&table, "hand", seed);
            assert!(hands[1..].iter().all(|&n| n == hand), "{players} players: {hands:?}");
            assert!(hands[0] == hand || hands[0] == hand - 1, "{players} players: {hands:?}");
            let row = if players == 4 { 4 } else { 3 };
            assert_eq!(dealt(&table, "market-row", seed), vec![row; players], "{players} players");
        }
    }
    let refused = Table::new(&doc, &Seating::new(5)).err().expect("five players refused");
    assert!(refused.0.contains("played by 2 to 4 players"), "{refused}");
}

/// `decks market to market-deck random` draws one market deck for each
/// game, each about as often; a supply named for the game is always used.
#[test]
fn a_supply_is_drawn_at_random_or_named() {
    let doc = built_document("tests/play/bazaar/cards", "bazaar");
    let table = Table::new(&doc, &Seating::new(2)).expect("playable");
    let pearl = (0..200).filter(|&seed| market_drawn(&table, seed) == "Pearl Coast").count();
    assert!((70..=130).contains(&pearl), "Pearl Coast drawn in {pearl} of 200 games");
    for named in ["Pearl Coast", "Spice Road"] {
        let seating = Seating { seats: 3, decks: Vec::new(), supply: vec![named.to_string()] };
        let table = Table::new(&doc, &seating).expect("playable");
        assert!((0..30).all(|seed| market_drawn(&table, seed) == named), "{named}");
    }
    let purse = Seating { seats: 2, decks: Vec::new(), supply: vec!["Trader's Purse".to_string()] };
    let refused = Table::new(&doc, &purse).err().expect("a purse is no supply");
    assert!(refused.0.contains("the set-up deals a shared zone decks of type market"), "{refused}");
}

/// The example game, from its rules as the compiler reads them, plays
/// exactly as the document written by hand for these tests.
#[test]
fn the_example_built_from_its_rules_plays_as_the_hand_written_document() {
    let built = example_document();
    let (built, written) = (table(&built), table(&document("lantern-market")));
    for seed in 0..20 {
        let bots = [BotKind::Random, BotKind::Greedy(0)];
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let record = play_game(&built, &bots, seed, Some(&mut a)).expect("a game");
        assert_eq!(record, play_game(&written, &bots, seed, Some(&mut b)).expect("a game"));
        assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
    }
}

#[test]
fn bots_are_named_by_kind() {
    let doc = document("lantern-market");
    let table = table(&doc);
    assert_eq!(BotKind::parse(&table, "random"), Ok(BotKind::Random));
    assert_eq!(BotKind::parse(&table, "greedy"), Ok(BotKind::Greedy(0)));
    assert_eq!(BotKind::parse(&table, "greedy:lamplighter"), Ok(BotKind::Greedy(0)));
    assert_eq!(BotKind::parse(&table, "search"), Ok(BotKind::Search { playouts: 200 }));
    assert_eq!(BotKind::parse(&table, "search:50"), Ok(BotKind::Search { playouts: 50 }));
    for wrong in ["greedy:nobody", "search:0", "search:many", "clever", ""] {
        assert!(BotKind::parse(&table, wrong).is_err(), "{wrong}");
    }
    let tug = document("tug");
    assert!(BotKind::parse(&self::table(&tug), "greedy").expect_err("no bot").0.contains("no `bot`"));
}

/// Markers: a card's `for-each` marks every card in play exhausted, and an
/// action that takes only fresh cards (`marker exhausted == 0`) then takes
/// none, until a rally (open when `count(in-play, marker exhausted == 0)`
/// is 0) clears them; damage never goes below 0; a card that leaves play
/// loses its markers; `last` is the change a mark made and what a clear
/// took away.
#[test]
fn markers_change_what_an_action_may_take_and_clear_when_a_card_moves() {
    let doc = document("markers");
    let table = table(&doc);
    let counter = |id: &str| table.counters.iter().position(|c| c.id == id).expect("a counter");
    let marker = |id: &str| table.markers.iter().position(|m| m.id == id).expect("a marker");
    let (exhausted, damage) = (marker("exhausted"), marker("damage"));
    let copies = |name: &str| (0..table.instance_count() as u16).filter(|&c| table.card_name(c) == name).collect();
    let ogres: Vec<u16> = copies("Ogre");
    let labels = |game: &Game| game.decisions().iter().map(|d| game.label(d)).collect::<Vec<_>>();
    let take = |game: &mut Game, label: &str| {
        let decision = game.decisions().into_iter().find(|d| game.label(d) == label);
        let decision = decision.unwrap_or_else(|| panic!("`{label}` is not among {:?}", labels(game)));
        game.apply(&decision).expect("legal");
    };
    let using = |game: &Game| labels(game).into_iter().filter(|l| l.starts_with("use ")).collect::<Vec<_>>();

    let mut game = Game::with_log(&table, 1);
    // The phase's start marks with no card at hand: nothing changes, and
    // `last` is 0 after it (the 1 added before it is not added again).
    assert_eq!(game.counter(counter("stray"), 0), 1);
    assert!((0..table.instance_count() as u16).all(|c| game.markers(c).iter().all(|&v| v == 0)));
    // Two fresh Ogres are one choice.
    assert_eq!(using(&game), ["use Horn", "use Ogre", "use Medic"]);
    game.take_log();

    take(&mut game, "use Ogre");
    let log = game.take_log().join("\n");
    assert!(log.contains("  exhausted 0 → 1 (Ogre)") && log.contains("  damage 0 → 2 (Ogre)"), "{log}");
    assert_eq!((game.marker(ogres[0], damage), game.counter(counter("wounds"), 0)), (2, 2));
    // The other Ogre is fresh, and still taken: Ogres with other markers are
    // other choices.
    assert_eq!(using(&game), ["use Horn", "use Ogre", "use Medic"]);
    assert!(labels(&game).contains(&"bench Ogre [exhausted 1, damage 2]".to_string()), "{:?}", labels(&game));

    // Healing 5 takes the damage of 2 to 0 and no further: `last` is -2.
    take(&mut game, "use Medic");
    assert_eq!((game.marker(ogres[0], damage), game.counter(counter("healed"), 0)), (0, 2));

    // The Horn exhausts every card in play (itself once more), 1 each.
    take(&mut game, "use Horn");
    assert_eq!(game.counter(counter("marked"), 0), 4);
    assert!(using(&game).is_empty(), "{:?}", labels(&game));
    assert!(labels(&game).contains(&"rally".to_string()));
    let view = log::view(&game, 0);
    let shown = "In play (player 1): Horn [exhausted 2], Ogre [exhausted 2], Ogre [exhausted 1], Medic [exhausted 2]";
    assert!(view.contains(shown), "{view}");

    // Out of play and back: fresh again.
    take(&mut game, "bench Ogre [exhausted 2]");
    assert_eq!(game.markers(ogres[0]), [0, 0]);
    assert!(log::view(&game, 0).contains("Reserve (player 1): Ogre\n"));
    take(&mut game, "field Ogre");
    assert_eq!(using(&game), ["use Ogre"]);
    assert!(!labels(&game).contains(&"rally".to_string()));
    take(&mut game, "use Ogre");

    // A clear's `last` is what the marker was: 2 + 1 + 2 + 1.
    take(&mut game, "rally");
    assert_eq!(game.counter(counter("cleared"), 0), 6);
    assert_eq!((game.marker(ogres[0], exhausted), game.marker(ogres[0], damage)), (0, 2));
    assert!(log::view(&game, 0).contains("In play (player 1): Horn, Ogre, Medic, Ogre [damage 2]\n"));
    assert_eq!(using(&game), ["use Horn", "use Ogre", "use Medic", "use Ogre [damage 2]"]);
    take(&mut game, "bench Ogre [damage 2]");
    assert_eq!(game.marker(ogres[0], damage), 0);

    // A marker the set-up does not declare is named.
    let mut value: serde_json::Value = serde_json::from_str(&text("markers")).expect("JSON");
    value["ruleset"]["setup"]["markers"].as_array_mut().expect("markers").pop();
    let doc: Document = serde_json::from_value(value).expect("engine data");
    let error = Table::new(&doc, &Seating::default()).err().expect("refused");
    assert!(error.0.contains("marker `damage`"), "{error}");
}

/// Bots play the game with markers to its end, and replay it.
#[test]
fn bots_play_a_game_with_markers() {
    let doc = document("markers");
    let table = table(&doc);
    for seed in 0..10 {
        let (taken, record) = bot_game(&table, &[BotKind::Random], seed);
        assert_eq!(record.rounds, 3);
        let mut replay = Game::new(&table, seed);
        for decision in &taken {
            replay.apply(decision).expect("legal");
        }
        assert_eq!(replay.record(), record);
    }
}

/// The bundled Dreadnought TCG plays from its rules: every bot's decision
/// is legal when replayed, a seed gives one game, and games end by the
/// game's own end (a player's casters without HP), not the round limit.
#[test]
fn the_bundled_tcg_plays_to_its_end_with_every_bot() {
    let doc = built_document("cards/dreadnought-tcg", "dreadnought-tcg");
    let table = table(&doc);
    let lineups = [
        [BotKind::Random, BotKind::Random],
        [BotKind::Greedy(0), BotKind::Random],
        [BotKind::Search { playouts: 4 }, BotKind::Greedy(0)],
    ];
    for (i, bots) in lineups.iter().enumerate() {
        for seed in 0..if i == 2 { 1 } else { 10 } {
            let (taken, record) = bot_game(&table, bots, seed);
            let mut replay = Game::new(&table, seed);
            for decision in &taken {
                replay.apply(decision).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
            assert_eq!(replay.record(), record);
            assert_eq!(record.ended, cardsmith::engine::record::Ended::Condition, "seed {seed}: {record:?}");
        }
    }
}

/// Duel's engine data, and the same without its play-limits.
fn duel_with_and_without_limits() -> (Document, Document) {
    let json = built_json("tests/play/duel/cards", "duel");
    let mut bare: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let limits = bare["ruleset"]["play_limits"].as_array_mut().expect("the play-limits");
    assert_eq!(limits.len(), 2, "Duel declares two play-limits");
    limits.clear();
    let bare = Document::from_json(&bare.to_string()).expect("engine data");
    (Document::from_json(&json).expect("engine data"), bare)
}

/// The most soldiers, and the most Pikemen, one seat recruits in one round
/// of a game, read from its log.
fn most_recruited_in_a_round(log: &[String]) -> (usize, usize) {
    let mut most = (0, 0);
    let mut round: Vec<&str> = Vec::new();
    for line in log.iter().map(String::as_str).chain(["== round end =="]) {
        if line.starts_with("== round ") {
            for seat in ["player 1: recruit ", "player 2: recruit "] {
                let soldiers = round.iter().filter(|l| l.starts_with(seat)).count();
                let pikemen = round.iter().filter(|l| l.starts_with(&format!("{seat}Pikeman"))).count();
                most = (most.0.max(soldiers), most.1.max(pikemen));
            }
            round.clear();
        }
        round.push(line);
    }
    most
}

/// A logged game by bots: its decisions, its log and its record.
fn logged_bot_game(table: &Table, bots: &[BotKind], seed: u64) -> (Vec<Decision>, Vec<String>, GameRecord) {
    let mut game = Game::with_log(table, seed);
    let mut rng = bot_rng(seed);
    let (mut taken, mut log) = (Vec::new(), game.take_log());
    while let Some(seat) = game.to_act() {
        let decision = choose(bots[seat], &game, &mut rng).expect("a decision");
        game.apply(&decision).expect("a bot's decision is legal");
        taken.push(decision);
        log.extend(game.take_log());
    }
    (taken, log, game.record())
}

/// Duel's play-limits hold in every game bots play: no seat recruits more
/// than 2 soldiers, nor more than 1 Pikeman, in a round, and every game
/// replays decision by decision through `Game::apply`, which refuses what
/// breaks a limit.  The same games without the limits break them, so the
/// limits are what holds.
#[test]
fn play_limits_are_never_broken_in_played_games() {
    let (limited, bare) = duel_with_and_without_limits();
    let (limited, bare) = (table(&limited), table(&bare));
    let lineups = [[BotKind::Random, BotKind::Random], [BotKind::Greedy(0), BotKind::Random]];
    let mut unlimited_most = (0, 0);
    for bots in &lineups {
        for seed in 0..60 {
            let (taken, log, record) = logged_bot_game(&limited, bots, seed);
            let (soldiers, pikemen) = most_recruited_in_a_round(&log);
            assert!(soldiers <= 2 && pikemen <= 1, "seed {seed}: {soldiers} soldiers, {pikemen} Pikemen in a round");
            let mut replay = Game::new(&limited, seed);
            for decision in &taken {
                replay.apply(decision).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
            assert_eq!(replay.record(), record);
            let (_, log, _) = logged_bot_game(&bare, bots, seed);
            let most = most_recruited_in_a_round(&log);
            unlimited_most = (unlimited_most.0.max(most.0), unlimited_most.1.max(most.1));
        }
    }
    assert!(unlimited_most.0 > 2 && unlimited_most.1 > 1, "without the limits: {unlimited_most:?}");
}

/// A seat that recruited a Pikeman this round is refused a second one, the
/// refusal naming the limit, with the game unchanged; the limit holds for
/// the round only.
#[test]
fn a_play_that_breaks_a_limit_is_refused_naming_it() {
    let (limited, _) = duel_with_and_without_limits();
    let table = table(&limited);
    let recruit = limited.ruleset.phases.iter().flat_map(|p| &p.play.actions).position(|a| a.id == "recruit");
    let recruit = recruit.expect("the recruit action") as u16;
    let pikemen: Vec<u16> = (0..table.instance_count() as u16).filter(|&c| table.card_name(c) == "Pikeman").collect();
    let (mut refused, mut later) = (0, 0);
    for seed in 0..40 {
        let mut game = Game::new(&table, seed);
        let mut rng = bot_rng(seed);
        // The round of each seat's last Pikeman.
        let mut last = [None; 2];
        while let Some(seat) = game.to_act() {
            let this_round = last[seat] == Some(game.round());
            for &card in &pikemen {
                let second = Decision { seat, kind: DecisionKind::Take { action: recruit, card } };
                let mut probe = game.clone();
                match probe.apply(&second) {
                    Err(e) if e.0.contains("it would break \"at most 1 Pikeman a turn\"") => {
                        assert!(this_round, "seed {seed}: {e}");
                        assert!(snapshot(&probe) == snapshot(&game), "a refusal changes nothing");
                        refused += 1;
                    }
                    Err(_) => {}
                    Ok(()) => {
                        assert!(!this_round, "seed {seed}: a second Pikeman in round {}", game.round());
                        later += usize::from(last[seat].is_some());
                    }
                }
            }
            let decision = choose(BotKind::Random, &game, &mut rng).expect("a decision");
            if game.label(&decision).starts_with("recruit Pikeman") {
                last[seat] = Some(game.round());
            }
            game.apply(&decision).expect("a bot's decision is legal");
        }
    }
    assert!(refused > 0, "no second Pikeman was ever tried");
    assert!(later > 0, "a Pikeman is recruited again in a later round");
}
