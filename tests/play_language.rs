//! The language of play, from a ruleset to played games: a game written in
//! a ruleset file, checked, built and played by `cardsmith simulate`, its
//! log read for what the lines say.

mod common;

use common::{cardsmith, repo, stderr};

/// Markers written in a ruleset: each attack exhausts its unit, which the
/// filter `ready` then refuses until the next round's start clears it.
#[test]
fn markers_written_in_a_ruleset_exhaust_and_ready_units() {
    let game = repo().join("tests/play/skirmish");
    let game = game.to_str().expect("utf-8");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut args = vec!["simulate", game, "--games", "50", "--seed", "4", "--log", "1", "--format", "json"];
    args.extend(["-o", "r.json", "--bot", "1=greedy", "--bot", "2=greedy"]);
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let log = std::fs::read_to_string(dir.path().join("simulate-log.txt")).expect("the log");
    let round_one = log.split("== round 2 ==").next().expect("round 1");
    let attacks = round_one.matches(": attack ").count();
    assert_eq!(attacks, 6, "each of the 3 units of each player attacks once in a round:\n{round_one}");
    assert_eq!(round_one.matches("exhausted 0 → 1").count(), 6, "{round_one}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).expect("report")).expect("json");
    assert_eq!(report["summary"]["games"], 50);
}

/// An action that puts its card back where it took it from is told so: the
/// zone's limit would refuse the move and the action would never be open.
#[test]
fn an_action_that_puts_a_card_back_where_it_was_is_a_warning() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = repo().join("tests/play/skirmish/cards");
    std::fs::create_dir(dir.path().join("cards")).expect("folder");
    for file in ["skirmish.rules", "units.cards"] {
        let text = std::fs::read_to_string(source.join(file)).expect("source");
        let text = text.replace("    resolve attack\n", "    to field\n    resolve attack\n");
        std::fs::write(dir.path().join("cards").join(file), text).expect("written");
    }
    let output = cardsmith(&["check", "cards"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("takes a card from `field` and puts it back there"), "{}", stderr(&output));
}

/// The logs of twenty games of `tests/play/duel`, played by `simulate`.
fn duel_log(seed: &str) -> String {
    let game = repo().join("tests/play/duel");
    let dir = tempfile::tempdir().expect("temp dir");
    let args = ["simulate", game.to_str().expect("utf-8"), "--games", "20", "--seed", seed, "--log", "20"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    std::fs::read_to_string(dir.path().join("simulate-log.txt")).expect("the log")
}

/// `order-by` reorders the players once the phase's `start` is done, and
/// `place` reads where a player stands: after a round in which player 2's
/// herald was the faster, player 2 acts first and player 1, second, draws
/// the extra card.
#[test]
fn order_by_sets_who_acts_first_and_place_reads_it() {
    let log = duel_log("1");
    let (_, after) = log.split_once("  order: player 2, player 1").expect("player 2 goes first once");
    let muster = after.split("-- Muster --").nth(1).expect("the muster after it");
    let first = muster.lines().find(|l| l.starts_with("player ")).expect("a decision");
    assert!(first.starts_with("player 2:"), "player 2 acts first: {first}");
    let dusk = after.split("-- Dusk --").nth(1).expect("the dusk").split("end of round").next().expect("dusk");
    let hand = |seat: &str| dusk.matches(&format!("Deck → Hand ({seat})")).count();
    assert_eq!((hand("player 2"), hand("player 1")), (1, 2), "the second to act draws twice:\n{dusk}");
}

/// `target` asks for one of the opponent's cards and runs its block on it;
/// `pay MARKER N from ZONE` taps that many mana cards; `needs` stops an
/// effect whose cost is not met; `resolve FIELD VALUE` offers only cards
/// with that field; `deal FIELD of ZONE` deals the captain's life;
/// `fallback` takes life when the deck is empty; `run` does a named
/// effect (a soldier falls) and `raise` fires the triggers it fulfils (the
/// fallen soldier's Walls avenge it, each choosing a target).
#[test]
fn targets_marked_costs_needs_and_fallback_play_as_written() {
    let log = duel_log("1");
    let targets: Vec<&str> = log.lines().filter(|l| l.contains(": target ")).collect();
    assert!(!targets.is_empty(), "{log}");
    for line in &targets {
        let chooser = &line[..8];
        let other = if chooser == "player 1" { "player 2" } else { "player 1" };
        assert!(line.ends_with(&format!("(Front, {other})")), "a target is the opponent's: {line}");
    }
    let recruit = log.lines().position(|l| l.contains(": recruit Pikeman (2 tapped)")).expect("a Pikeman recruited");
    let lines: Vec<&str> = log.lines().collect();
    assert!(lines[recruit + 1].starts_with("  tapped 0 → 1") && lines[recruit + 2].starts_with("  tapped 0 → 1"));
    let stopped = lines.iter().position(|l| l.contains(": use Scout [tapped 1]")).expect("a tapped Scout used");
    assert_eq!(lines[stopped + 1], "  not met: the rest is skipped");
    assert!(!log.contains("use Wall"), "Wall has no quick move");
    assert!(log.contains("end of round 1: scores [3, 3]"), "each captain deals 3 life");
    assert!(log.contains("  Deck is empty: a card of Life is taken instead"), "{log}");
    let avenged = lines.iter().position(|l| *l == "  Wall triggers").expect("a Wall avenges");
    let next = lines[avenged + 1..].iter().find(|l| !l.starts_with("  ")).expect("a decision");
    assert!(next.contains(": target "), "the avenging Wall's owner chooses its target: {next}");
}

/// `simulate --players N` seats that many, and the set-up's steps for that
/// number are the ones played; `--supply` names the market every game uses
/// where the set-up would draw one at random.
#[test]
fn simulate_seats_the_players_asked_for_with_the_supply_named() {
    let game = repo().join("tests/play/bazaar");
    let game = game.to_str().expect("utf-8");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut args = vec!["simulate", game, "--games", "40", "--seed", "2", "--players", "3"];
    args.extend(["--supply", "Pearl Coast", "--format", "json", "-o", "r.json"]);
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).expect("report")).expect("json");
    assert_eq!(report["settings"]["bots"].as_array().map(Vec::len), Some(3));
    assert_eq!(report["settings"]["supply"], serde_json::json!(["Pearl Coast"]));
    let cards = report["summary"]["cards"].as_object().expect("cards");
    assert!(cards["Gold"]["games_acquired"].as_u64() > Some(0), "{cards:?}");
    assert!(cards.get("Silk").is_none(), "the market not named is not played: {cards:?}");
    // Every card of the decks in play has its row, bought or not.
    let names: Vec<&str> = cards.keys().map(String::as_str).collect();
    assert_eq!(names, ["Amber", "Copper", "Gold", "Pearl", "Spice"], "{cards:?}");
    let text = cardsmith(&args[..args.len() - 4], dir.path());
    assert!(String::from_utf8_lossy(&text.stdout).contains("\nsupply: Pearl Coast\n"), "{}", stderr(&text));

    for (extra, message) in [
        (&["--players", "5"][..], "is played by 2 to 4 players, not 5"),
        (&["--players", "2", "--bot", "3=random"], "--bot or --deck names seat 3, and --players is 2"),
        (&["--supply", "Trader's Purse"], "the set-up deals a shared zone decks of type market"),
        (&["--supply", "Pearl Cost"], "did you mean `Pearl Coast`?"),
    ] {
        let mut args = vec!["simulate", game, "--games", "2", "--seed", "1"];
        args.extend(extra);
        let output = cardsmith(&args, dir.path());
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&output).contains(message), "{extra:?}: {}", stderr(&output));
    }
}

/// `play --players N` seats that many, with the decks and supply named;
/// a seat or deck the game cannot take is refused before any play.
#[test]
fn play_seats_the_players_asked_for() {
    let game = repo().join("tests/play/bazaar");
    let game = game.to_str().expect("utf-8");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut args = vec!["play", game, "--seed", "5", "--players", "3", "--supply", "Pearl Coast"];
    args.extend(["--seat", "1=random", "--seat", "2=random", "--seat", "3=random"]);
    let output = cardsmith(&args, dir.path());
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(text.contains("player 3") && !text.contains("player 4"), "{text}");
    assert!(text.contains("restocks Market Row") && !text.contains("Silk"), "{text}");

    for (extra, message) in [
        (&["--players", "5"][..], "played by 2 to 4 players"),
        (&["--deck", "3=Trader's Purse"], "--deck names seat 3, and 2 play"),
        (&["--deck", "1=Pearl Coast"], "the set-up deals a seat decks of type purse"),
        (&["--supply", "Silk Road"], "no deck is named `Silk Road`"),
    ] {
        let mut args = vec!["play", game, "--seed", "1"];
        args.extend(extra);
        let output = cardsmith(&args, dir.path());
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&output).contains(message), "{extra:?}: {}", stderr(&output));
    }
}

/// A play-limit that play cannot read over the cards played in a turn
/// (`groups` counts a deck's lines) is a warning of `check` (W0504), which
/// says what `simulate` then refuses the game for, in the same words.
#[test]
fn a_play_limit_play_cannot_read_is_warned_of_and_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = repo().join("tests/play/duel/cards");
    std::fs::create_dir(dir.path().join("cards")).expect("folder");
    for file in ["duel.rules", "soldiers.cards"] {
        let mut text = std::fs::read_to_string(source.join(file)).expect("source");
        if file == "duel.rules" {
            text.push_str("play-limit \"one line of soldiers a turn\" groups(soldier) <= 1\n");
        }
        std::fs::write(dir.path().join("cards").join(file), text).expect("written");
    }
    let sentence = "the play-limit \"one line of soldiers a turn\" uses `groups`, which play cannot read over the \
                    cards played in a turn";
    let output = cardsmith(&["check", "cards"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("warning[W0504]: {sentence}")), "{}", stderr(&output));
    let output = cardsmith(&["simulate", "cards", "--games", "2", "--seed", "1"], dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("`duel` cannot be played: {sentence}")), "{}", stderr(&output));
}
