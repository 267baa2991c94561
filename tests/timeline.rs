//! The timeline, built from the rulebooks' statements (GAMES.md §1.3), with a
//! tie at every level of each edition's chain.  Every timeline here goes
//! through the engine data: cards are checked, serialised to JSON exactly as
//! `cardsmith build` writes them, and read back by the engine's own types.

use cardsmith::engine::data::Document;
use cardsmith::engine::timeline::{timeline, Play, Timeline, TimelineError};
use cardsmith::workspace::{Outcome, Workspace};

mod common;
use common::cardsmith;

/// Cards with one initiative each (unless said otherwise), for ties.
const TIES_2E: &str = r#"game dreadnaught-2e

boost "Power Three" {
  power 3
  at 3.0 { increase damage 1 }
}
boost "Also Power Three" {
  power 3
  at 3.0 { increase damage 1 }
}
boost "Power One" {
  power 1
  at 3.0 { increase damage 1 }
}
terrain "Fast Wreck" {
  place 2; hexes 1
  hp 4
  speed 3
  moves-at 3.0
  chevron forward
}
terrain "Slow Wreck" {
  place 2; hexes 1
  hp 4
  speed 1
  moves-at 3.0
  chevron forward
}
event "Quick Reaction" {
  at 3.0 { impact damage +1 }
}
defense "Brace" {
  symbol armour
  at 3.0 { reduction damage 1 }
}
offense "Cannon" {
  symbol kinetic
  at 3.0 { impact damage 2 }
}
offense "Second Cannon" {
  symbol kinetic
  at 3.0 { impact damage 3 }
}
offense "Opening Salvo" {
  symbol kinetic
  at X 3.0 1.0 { impact damage 1 }
}
offense "Early Gun" {
  symbol kinetic
  at 5.0 { impact damage 1 }
}
"#;

/// The first edition's two-player text taken literally (E1 L199–205): no
/// attacker/defender tier, so cards still tied resolve at the same time.  The
/// bundled first-edition ruleset adds the side tier (a documented decision);
/// this chain, declared as data over the same cards, shows the engine follows
/// whichever chain the ruleset gives.
const WITHOUT_SIDE_TIER: &str = r#"ruleset two-player-first-edition {
  title "Dreadnaught, first edition, ties left simultaneous"
  extends dreadnaught-1e
}
tie-break {
  kind terrain event
  kind defense
  kind offense
  simultaneous
}
"#;

fn engine_document(sources: &[(&str, &str)], game: &str) -> Document {
    let mut workspace = Workspace::new();
    for (name, text) in sources {
        workspace.add_text(name, text);
    }
    document_of(&workspace.check(), game)
}

/// The engine data of one game, as `cardsmith build` writes it, read back by
/// the engine.
fn document_of(outcome: &Outcome, game: &str) -> Document {
    let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
    assert!(outcome.stats.errors == 0, "{rendered}");
    let files = cardsmith::backend::json::build(&outcome.files, &outcome.project).expect("engine data");
    let file = files.iter().find(|f| f.name == format!("{game}.json")).expect("a document for the game");
    Document::from_json(&file.contents).expect("the engine reads its own data")
}

fn plays(attacker: &[&str], defender: &[&str]) -> Vec<Play> {
    let side = |side: &str, cards: &[&str]| -> Vec<Play> {
        cards.iter().map(|c| Play { side: side.to_string(), card: c.to_string() }).collect()
    };
    [side("attacker", attacker), side("defender", defender)].concat()
}

fn second_edition(attacker: &[&str], defender: &[&str]) -> Timeline {
    let doc = engine_document(&[("ties.cards", TIES_2E)], "dreadnaught-2e");
    timeline(&doc, &plays(attacker, defender)).expect("timeline")
}

fn first_edition(attacker: &[&str], defender: &[&str]) -> Timeline {
    let content = format!("game dreadnaught-1e\n{FIRST_EDITION_CARDS}");
    let doc = engine_document(&[("first.cards", &content)], "dreadnaught-1e");
    timeline(&doc, &plays(attacker, defender)).expect("timeline")
}

fn without_side_tier(attacker: &[&str], defender: &[&str]) -> Timeline {
    let content = format!("game two-player-first-edition\n{FIRST_EDITION_CARDS}");
    let doc =
        engine_document(&[("timing.rules", WITHOUT_SIDE_TIER), ("cards.cards", &content)], "two-player-first-edition");
    timeline(&doc, &plays(attacker, defender)).expect("timeline")
}

/// One line per resolution: `3.0 2= defender Brace`.
fn order(timeline: &Timeline) -> Vec<String> {
    let mut lines = Vec::new();
    for step in &timeline.steps {
        for r in &step.resolutions {
            let mark = if r.simultaneous { "=" } else { "" };
            lines.push(format!("{} {}{mark} {} {}", step.step, r.position, r.side, r.card));
        }
    }
    lines
}

fn decided_by(timeline: &Timeline) -> Vec<Option<&str>> {
    timeline.steps.iter().flat_map(|s| &s.resolutions).map(|r| r.decided_by.as_deref()).collect()
}

#[test]
fn second_edition_boost_terrain_event_defense_offense() {
    // E2 L212–218; the sides alternate so the side tier cannot explain it.
    let t = second_edition(&["Cannon", "Quick Reaction", "Power One"], &["Brace", "Slow Wreck", "Power Three"]);
    assert_eq!(
        order(&t),
        [
            "5.0 1 defender Slow Wreck",
            "3.0 1 defender Power Three",
            "3.0 2 attacker Power One",
            "3.0 3 defender Slow Wreck",
            "3.0 4 attacker Quick Reaction",
            "3.0 5 defender Brace",
            "3.0 6 attacker Cannon",
        ]
    );
    assert_eq!(
        decided_by(&t),
        [
            None,
            None,
            Some("kind boost by power highest"),
            Some("kind boost"),
            Some("kind terrain"),
            Some("kind event"),
            Some("kind defense"),
        ]
    );
}

#[test]
fn second_edition_equal_power_is_at_the_same_time_the_attacker_first_where_needed() {
    // Listed defender first: the order played does not matter, the chain does.
    let t = second_edition(&["Also Power Three"], &["Power Three"]);
    let t_reversed = timeline(
        &engine_document(&[("ties.cards", TIES_2E)], "dreadnaught-2e"),
        &[
            Play { side: "defender".into(), card: "Power Three".into() },
            Play { side: "attacker".into(), card: "Also Power Three".into() },
        ],
    )
    .expect("timeline");
    for t in [t, t_reversed] {
        assert_eq!(order(&t), ["3.0 1= attacker Also Power Three", "3.0 1= defender Power Three"]);
        assert_eq!(decided_by(&t)[1], Some("side attacker defender, where an effect needs an order"));
    }
}

#[test]
fn second_edition_faster_terrain_first_whoever_plays_it() {
    let t = second_edition(&["Slow Wreck"], &["Fast Wreck"]);
    assert_eq!(
        order(&t),
        [
            "5.0 1 defender Fast Wreck",
            "5.0 2 attacker Slow Wreck",
            "3.0 1 defender Fast Wreck",
            "3.0 2 attacker Slow Wreck"
        ]
    );
    assert_eq!(decided_by(&t)[1], Some("kind terrain by speed highest"));
    assert_eq!(t.steps[0].resolutions[0].compared, ["speed 3"]);
}

#[test]
fn second_edition_attacker_before_defender_as_the_ultimate_tiebreaker() {
    // E2 L218-220: still tied, they "resolve at the same time"; "if an effect
    // needs an ultimate tiebreaker, then the Attacker's effect is resolved
    // immediately before the Defender's": listed first, and marked tied.
    let t = second_edition(&["Second Cannon"], &["Cannon"]);
    assert_eq!(order(&t), ["3.0 1= attacker Second Cannon", "3.0 1= defender Cannon"]);
    let t = second_edition(&["Cannon"], &["Second Cannon"]);
    assert_eq!(order(&t), ["3.0 1= attacker Cannon", "3.0 1= defender Second Cannon"]);
}

#[test]
fn second_edition_still_tied_is_simultaneous() {
    // Same step, same tier, same side: nothing in the chain separates them.
    let t = second_edition(&["Cannon", "Second Cannon"], &["Cannon"]);
    assert_eq!(order(&t), ["3.0 1= attacker Cannon", "3.0 1= attacker Second Cannon", "3.0 1= defender Cannon"]);
    assert_eq!(decided_by(&t), [None, None, Some("side attacker defender, where an effect needs an order")]);
}

#[test]
fn second_edition_steps_in_scale_order_and_a_card_at_each_of_its_steps() {
    // E2 L204: X first, then 5.9 down to 0.0; a card resolves at every step it lists.
    let t = second_edition(&["Opening Salvo", "Power Three"], &["Early Gun"]);
    assert_eq!(
        order(&t),
        [
            "X 1 attacker Opening Salvo",
            "5.0 1 defender Early Gun",
            "3.0 1 attacker Power Three",
            "3.0 2 attacker Opening Salvo",
            "1.0 1 attacker Opening Salvo",
        ]
    );
}

/// The engine data of a bundled game, built from its folder.
fn bundled_document(id: &str) -> Document {
    document_of(&common::check_folder(&format!("cards/{id}")), id)
}

#[test]
fn second_edition_mixed_hand_of_the_bundled_decks() {
    let doc = bundled_document("dreadnaught-2e");
    let hand = plays(
        &["Spinal Railcannon", "Follow-Through", "Flak Batteries", "Auxiliary Reactor"],
        &["Reactive Plating", "Spaced Armour", "Deflector Array", "Flak Batteries", "Drifting Hulk"],
    );
    let t = timeline(&doc, &hand).expect("timeline");
    insta::assert_snapshot!("mixed-hand-2e.txt", cardsmith::engine::text::render(&t));
    insta::assert_snapshot!("mixed-hand-2e.json", serde_json::to_string_pretty(&t).expect("json"));
}

#[test]
fn first_edition_mixed_hand_of_the_bundled_decks() {
    let doc = bundled_document("dreadnaught-1e");
    let hand = plays(
        &["Heavy Torpedo", "Torpedo Run", "Streak Missiles", "Deflector Array"],
        &["Forward Shields", "Shield Reflection", "Capacitor Surge", "Drifting Hulk"],
    );
    let t = timeline(&doc, &hand).expect("timeline");
    insta::assert_snapshot!("mixed-hand-1e.txt", cardsmith::engine::text::render(&t));
}

const FIRST_EDITION_CARDS: &str = r#"
terrain "Wreck" {
  place 2; hexes 1
  hp 4
  speed 1
  moves-at 3.0
  chevron forward
}
terrain "Fast Wreck" {
  place 2; hexes 1
  hp 4
  speed 3
  moves-at 3.0
  chevron forward
}
event "Sudden Storm" {
  at 3.0 { impact damage 1 }
}
defense "Brace" {
  symbol armour
  at 3.0 { reduction damage 1 }
}
offense "Heavy Gun" {
  symbol kinetic
  at 3.2 { impact damage 4 }
}
offense "Light Gun" {
  symbol kinetic
  at 3.4 { impact damage 1 }
}
offense "Broadside" {
  symbol kinetic
  at 3 { impact damage 2 }
}
boost "Spare Capacitor" {
  at 3.0 { increase damage 1 }
}
"#;

#[test]
fn first_edition_priority_digit_orders_a_step() {
    // E1 L195: "an 3.4 card would resolve before an 3.2 card".
    let t = first_edition(&["Heavy Gun"], &["Light Gun"]);
    assert_eq!(order(&t), ["3 1 defender Light Gun", "3 2 attacker Heavy Gun"]);
}

#[test]
fn first_edition_terrain_and_event_share_a_tier_then_defense_then_offense() {
    // E1 L199–205: terrain and event are one tier, with no speed order; cards
    // still tied resolve at the same time, the Attacker's listed first (the
    // bundled ruleset's decision on §5.4).
    // `at 3` is the whole step 3.0.
    let t = first_edition(&["Broadside", "Wreck"], &["Brace", "Sudden Storm", "Fast Wreck"]);
    assert_eq!(
        order(&t),
        [
            "5 1= attacker Wreck",
            "5 1= defender Fast Wreck",
            "3 1= attacker Wreck",
            "3 1= defender Sudden Storm",
            "3 1= defender Fast Wreck",
            "3 2 defender Brace",
            "3 3 attacker Broadside",
        ]
    );
    assert_eq!(
        decided_by(&t),
        [
            None,
            Some("side attacker defender, where an effect needs an order"),
            None,
            Some("side attacker defender, where an effect needs an order"),
            None,
            Some("kind terrain event"),
            Some("kind defense")
        ]
    );
}

#[test]
fn first_edition_boost_cards_meet_no_tier_and_come_last() {
    let t = first_edition(&["Spare Capacitor"], &["Broadside"]);
    assert_eq!(order(&t), ["3 1 defender Broadside", "3 2 attacker Spare Capacitor"]);
    assert_eq!(decided_by(&t)[1], Some("kind offense"));
}

#[test]
fn a_chain_without_a_side_tier_leaves_the_sides_simultaneous() {
    // E1's two-player text: "they resolve at the same time and cannot affect
    // each other in any way".
    let t = without_side_tier(&["Broadside", "Wreck"], &["Broadside", "Sudden Storm"]);
    assert_eq!(
        order(&t),
        [
            "5 1 attacker Wreck",
            "3 1= attacker Wreck",
            "3 1= defender Sudden Storm",
            "3 2= attacker Broadside",
            "3 2= defender Broadside",
        ]
    );
}

#[test]
fn the_command_reads_a_built_document_and_builds_in_memory_alike() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let built = cardsmith(&["build", "cards/dreadnaught-2e", "-o", out.to_str().expect("utf-8")], repo);
    assert_eq!(built.status.code(), Some(0), "{}", String::from_utf8_lossy(&built.stderr));
    let document = out.join("dreadnaught-2e.json");
    let hand =
        ["--play", "attacker:Spinal Railcannon", "--play", "1:Follow-Through", "--play", "defender:Spaced Armour"];
    for format in ["text", "json"] {
        let from_data = cardsmith(
            &[&["timeline", "--data", document.to_str().expect("utf-8")], &hand[..], &["--format", format]].concat(),
            repo,
        );
        let in_memory =
            cardsmith(&[&["timeline", "cards/dreadnaught-2e"], &hand[..], &["--format", format]].concat(), repo);
        assert_eq!(from_data.status.code(), Some(0), "{}", String::from_utf8_lossy(&from_data.stderr));
        assert_eq!(in_memory.status.code(), Some(0), "{}", String::from_utf8_lossy(&in_memory.stderr));
        assert_eq!(from_data.stdout, in_memory.stdout, "{format}: the built document and the in-memory build differ");
    }
    let text =
        String::from_utf8_lossy(&cardsmith(&[&["timeline", "cards/dreadnaught-2e"], &hand[..]].concat(), repo).stdout)
            .into_owned();
    assert!(text.contains("\nResolve, 2.4\n   1  attacker  Follow-Through (event)\n"), "{text}");
    assert!(text.contains("   2  attacker  Spinal Railcannon (offense)  [tie-break: kind event]\n"), "{text}");
}

#[test]
fn the_command_refuses_what_it_cannot_order() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();

    let typo = cardsmith(&["timeline", "cards/dreadnaught-2e", "--play", "attacker:Spinal Railcanon"], repo);
    assert_eq!(typo.status.code(), Some(2));
    assert!(stderr(&typo).contains("did you mean `Spinal Railcannon`?"), "{}", stderr(&typo));

    let nothing_played = cardsmith(&["timeline", "cards/dreadnaught-2e"], repo);
    assert_eq!(nothing_played.status.code(), Some(2));

    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("bad.cards"), "game dreadnaught-2e\nofense \"X\" {}\n").expect("write");
    let broken = cardsmith(&["timeline", "bad.cards", "--play", "1:X"], dir.path());
    assert_eq!(broken.status.code(), Some(1));
    assert!(stderr(&broken).contains("E0201"), "{}", stderr(&broken));

    std::fs::write(
        dir.path().join("untimed.rules"),
        "ruleset untimed {\n  title \"No initiative\"\n}\nkind card \"Card\" {\n  field text text\n}\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("untimed.cards"),
        "game untimed\ncard \"Plain\" {\n  text \"Nothing happens.\"\n}\n",
    )
    .expect("write");
    let untimed = cardsmith(&["timeline", "untimed.rules", "untimed.cards", "--play", "1:Plain"], dir.path());
    assert_eq!(untimed.status.code(), Some(2), "{}", stderr(&untimed));
    assert!(stderr(&untimed).contains("declares no phases and no initiative scale"), "{}", stderr(&untimed));

    std::fs::write(dir.path().join("future.json"), "{\"format\": 7}").expect("write");
    let future = cardsmith(&["timeline", "--data", "future.json", "--play", "1:Plain"], dir.path());
    assert_eq!(future.status.code(), Some(2));
    assert!(stderr(&future).contains("format 7"), "{}", stderr(&future));
}

#[test]
fn hostile_engine_data_gives_a_timeline_not_a_panic() {
    let text = r#"{
      "format": 1,
      "ruleset": {
        "id": "odd",
        "sides": [{"id": "attacker", "player": 1}, {"id": "defender", "player": 4294967295}],
        "initiative": {"has_x": false, "whole_steps": false, "from_tenths": -5, "to_tenths": 9223372036854775807, "step_tenths": 0},
        "tie_break": [
          {"by": "priority", "digits": 1},
          {"by": "kind", "kinds": ["a"], "field": "power", "highest": false},
          {"by": "side", "order": []}
        ]
      },
      "cards": [
        {"name": "Low", "kind": "a", "body": {"fields": [
          {"name": "power", "values": [{"type": "decimal", "value": "99999999999999999999999999999999999999999.5"}]},
          {"name": "at", "values": [{"type": "initiative", "value": {"step": -9223372036854775808}}, {"type": "mystery"}]}
        ]}},
        {"name": "High", "kind": "a", "body": {"fields": [
          {"name": "power", "values": [{"type": "signed", "value": -9223372036854775808}]},
          {"name": "nested", "body": {"fields": [
            {"name": "at", "values": [{"type": "initiative", "value": {"step": 9223372036854775807}}, {"type": "initiative", "value": "x"}]}
          ]}}
        ]}}
      ]
    }"#;
    let doc = Document::from_json(text).expect("a document of format 1");
    let t = timeline(&doc, &plays(&["Low", "High"], &["High"])).expect("timeline");
    assert_eq!(order(&t).first().map(String::as_str), Some("X 1= attacker High"));
    assert_eq!(t.steps.iter().map(|s| s.resolutions.len()).sum::<usize>(), 5);
    assert!(t.notes.iter().any(|n| n.contains("not known")), "{:?}", t.notes);
    let text = cardsmith::engine::text::render(&t);
    assert!(text.contains("Low"), "{text}");
    let far = timeline(&doc, &[Play { side: "4294967295".into(), card: "Low".into() }]).expect("the last player");
    assert_eq!(order(&far).first().map(String::as_str), Some("-922337203685477580.8 1 defender Low"));
    let unknown = timeline(&doc, &[Play { side: "0".into(), card: "Low".into() }]).expect_err("no player 0");
    assert!(matches!(&unknown, TimelineError::UnknownSide { sides, .. } if sides.len() == 11), "{unknown:?}");
}

/// Two plays of each bundled game, by sides `1` and `2`, through the command
/// (text and JSON): player 2's play resolves first in each, so the order
/// printed is the games' and not the order given.
#[test]
fn the_command_orders_two_plays_of_every_bundled_game() {
    let repo = common::repo();
    let games = [
        ("dreadnaught-1e", "Heavy Torpedo", "Capacitor Surge", "Resolve, 5", "reduction burn 2, reduction damage 1"),
        ("dreadnaught-2e", "Spinal Railcannon", "Spaced Armour", "Resolve, 3.0", "reduction damage 6+, cost burn 2"),
        ("dreadnought-tcg", "Ashwing Drake", "Tailwind", "Speed Phase, Speed", "apply to-a 2"),
        (
            "dropfleet-1.3",
            "Lantern Hammer",
            "Red Tide Hunters",
            "Activation",
            "(pathfinder, strategy-rating 6, round 1)",
        ),
    ];
    for (game, first, second, heading, shown) in games {
        let folder = format!("cards/{game}");
        let plays = ["--play", &format!("1:{first}"), "--play", &format!("2:{second}")].map(str::to_string);
        let args = |format: &str| {
            let mut args = vec!["timeline".to_string(), folder.clone()];
            args.extend(plays.iter().cloned());
            args.extend(["--format".to_string(), format.to_string()]);
            args
        };
        let text = cardsmith(&args("text").iter().map(String::as_str).collect::<Vec<_>>(), repo);
        assert_eq!(text.status.code(), Some(0), "{game}: {}", common::stderr(&text));
        let text = String::from_utf8_lossy(&text.stdout).into_owned();
        let (at_second, at_first) = (text.find(second), text.rfind(first));
        assert!(at_second.is_some() && at_first.is_some() && at_second < at_first, "{game}:\n{text}");
        assert!(text.contains(&format!("\n{heading}\n")), "{game}:\n{text}");
        assert!(text.contains(shown), "{game}:\n{text}");
        let json = cardsmith(&args("json").iter().map(String::as_str).collect::<Vec<_>>(), repo);
        assert_eq!(json.status.code(), Some(0), "{game}: {}", common::stderr(&json));
        let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
        let order: Vec<(u64, &str)> = json["steps"]
            .as_array()
            .expect("steps")
            .iter()
            .flat_map(|s| s["resolutions"].as_array().expect("resolutions"))
            .map(|r| (r["player"].as_u64().expect("player"), r["card"].as_str().expect("card")))
            .collect();
        assert_eq!(order, [(2, second), (1, first)], "{game}");
    }
}

/// A game that is none of the four: two named sides, a phase with steps that
/// cards name, a phase on an initiative scale that counts up, and the
/// tie-break list and alternation given.
fn invented_game(tie_break: &str, alternate: &str) -> String {
    format!(
        r#"ruleset sparks {{
  title "Sparks"
}}
enum timing opening main
enum mood main calm
step-names timing
side north "North" player 1
side south "South" player 2
phase upkeep "Upkeep"
phase play "Play" {{
  {alternate}
  step opening "Opening"
  step main "Main"
}}
phase duel "Duel" {{
  initiative
}}
initiative from 1 to 9 by 1
kind spell "Spell" {{
  field priority int
  field power int
  field cast timing
  field strike initiative
  field mood mood
}}
tie-break {{
  {tie_break}
}}
"#
    )
}

const INVENTED_CARDS: &str = r#"game sparks
spell "Spark" {
  priority 2
  power 1
  cast main
}
spell "Flare" {
  priority 2
  power 3
  cast main
}
spell "Twin Flare" {
  priority 2
  power 3
  cast main
}
spell "Ember" {
  priority 1
  power 5
  cast main
}
spell "Dawn" {
  cast opening
}
spell "Slow" {
  strike 5
}
spell "Quick" {
  strike 2
}
spell "Moody" {
  mood main
}
"#;

fn invented(tie_break: &str, alternate: &str, plays: &[(&str, &str)]) -> Timeline {
    let rules = invented_game(tie_break, alternate);
    let doc = engine_document(&[("sparks.rules", &rules), ("sparks.cards", INVENTED_CARDS)], "sparks");
    let plays: Vec<Play> =
        plays.iter().map(|(side, card)| Play { side: side.to_string(), card: card.to_string() }).collect();
    timeline(&doc, &plays).expect("timeline")
}

#[test]
fn higher_priority_then_higher_power_then_at_the_same_time() {
    let t = invented(
        "higher priority\n  higher power\n  simultaneous",
        "",
        &[("north", "Spark"), ("2", "Flare"), ("1", "Ember"), ("south", "Twin Flare"), ("2", "Dawn")],
    );
    assert_eq!(
        order(&t),
        [
            "Opening 1 south Dawn",
            "Main 1= south Flare",
            "Main 1= south Twin Flare",
            "Main 2 north Spark",
            "Main 3 north Ember",
        ]
    );
    assert_eq!(decided_by(&t), [None, None, None, Some("higher power"), Some("higher priority")]);
    assert_eq!(t.steps[1].phase, "Play");
    let text = cardsmith::engine::text::render(&t);
    assert!(text.contains("= resolve at the same time"), "{text}");
}

#[test]
fn the_sides_tie_break_before_the_outcome_and_a_scale_counts_up() {
    let t = invented(
        "higher priority\n  side south north\n  simultaneous",
        "",
        &[("north", "Flare"), ("north", "Slow"), ("south", "Twin Flare"), ("south", "Quick")],
    );
    assert_eq!(order(&t), ["Main 1 south Twin Flare", "Main 2 north Flare", "2 1 south Quick", "5 1 north Slow"]);
    assert_eq!(decided_by(&t)[1], Some("side south north"));
    assert_eq!(t.steps[2].phase, "Duel");
}

#[test]
fn a_roll_decides_what_the_list_leaves_tied() {
    let t = invented("roll \"each side rolls a D6, the higher first\"", "", &[("1", "Flare"), ("2", "Spark")]);
    assert_eq!(order(&t), ["Main 1 north Flare", "Main 1 south Spark"]);
    let undecided: Vec<Option<&str>> = t.steps[0].resolutions.iter().map(|r| r.undecided.as_deref()).collect();
    assert_eq!(undecided, [Some("each side rolls a D6, the higher first"); 2]);
    assert!(t.steps[0].resolutions.iter().all(|r| !r.simultaneous));
    let text = cardsmith::engine::text::render(&t);
    assert!(text.contains("   1? north     Flare"), "{text}");
    assert!(text.contains("decided by a roll (each side rolls a D6, the higher first)"), "{text}");
}

#[test]
fn sides_alternate_round_by_round_and_the_lower_value_chooses() {
    // Each side's plays in the order given, like a stack of cards: round 1
    // is Spark against Ember, round 2 Flare against Twin Flare.
    let t = invented(
        "choose lower power\n  roll \"a D6 each\"",
        "alternate",
        &[("1", "Spark"), ("1", "Flare"), ("2", "Ember"), ("2", "Twin Flare")],
    );
    assert_eq!(
        order(&t),
        ["Main 1 north Spark", "Main 2 south Ember", "Main 3 north Flare", "Main 3 south Twin Flare"]
    );
    let resolutions = &t.steps[0].resolutions;
    assert_eq!(resolutions.iter().map(|r| r.round).collect::<Vec<_>>(), [Some(1), Some(1), Some(2), Some(2)]);
    assert!(resolutions[0].chooses && !resolutions[1].chooses);
    assert_eq!(decided_by(&t), [None, Some("choose lower power"), Some("alternation"), None]);
    assert_eq!(resolutions[3].undecided.as_deref(), Some("a D6 each"));
}

#[test]
fn the_command_refuses_an_unknown_side_and_a_card_that_resolves_nowhere() {
    let repo = common::repo();
    let side = cardsmith(&["timeline", "cards/dreadnaught-2e", "--play", "atacker:Spinal Railcannon"], repo);
    assert_eq!(side.status.code(), Some(2));
    assert!(common::stderr(&side).contains("no side is named `atacker`"), "{}", common::stderr(&side));
    assert!(common::stderr(&side).contains("did you mean `attacker`?"), "{}", common::stderr(&side));
    let far = cardsmith(&["timeline", "cards/dropfleet-1.3", "--play", "7:Lantern Hammer"], repo);
    assert_eq!(far.status.code(), Some(2));
    assert!(common::stderr(&far).contains("sides of `dropfleet-1.3`: 1, 2"), "{}", common::stderr(&far));
    // A [Trigger] ability belongs to no phase of the TCG's turn.
    let nowhere = cardsmith(&["timeline", "cards/dreadnought-tcg", "--play", "1:Cinderhound"], repo);
    assert_eq!(nowhere.status.code(), Some(2));
    assert!(common::stderr(&nowhere).contains("resolves in no phase"), "{}", common::stderr(&nowhere));
    let battlegroup = cardsmith(&["timeline", "cards/dropfleet-1.3", "--play", "2:Lantern Hamer"], repo);
    assert!(
        common::stderr(&battlegroup).contains("did you mean `Lantern Hammer`?"),
        "{}",
        common::stderr(&battlegroup)
    );
    let no_side = cardsmith(&["timeline", "cards/dreadnaught-2e", "--play", "Spinal Railcannon"], repo);
    assert_eq!(no_side.status.code(), Some(2));
    assert!(common::stderr(&no_side).contains("does not say which side plays"), "{}", common::stderr(&no_side));
}

#[test]
fn a_card_with_thousands_of_initiatives_is_refused_not_copied_thousands_of_times() {
    // Each resolution holds its field's values: 2,000 initiatives resolve
    // 2,000 times, each with 2,000 values.
    let values: Vec<String> =
        (0..2000).map(|t| format!(r#"{{"type": "initiative", "value": {{"step": {t}}}}}"#)).collect();
    let text = format!(
        r#"{{"format": 1,
          "ruleset": {{"id": "wide", "initiative": {{"has_x": false, "from_tenths": 0, "to_tenths": 5000, "step_tenths": 1}},
                       "tie_break": [{{"by": "simultaneous"}}]}},
          "cards": [{{"name": "Wide", "kind": "a", "body": {{"fields": [{{"name": "at", "values": [{}]}}]}}}}]}}"#,
        values.join(",")
    );
    let doc = Document::from_json(&text).expect("a document of format 1");
    let refused = timeline(&doc, &[Play { side: "1".into(), card: "Wide".into() }]).expect_err("too large");
    assert!(matches!(refused, TimelineError::TooLarge { size } if size > cardsmith::engine::timeline::MAX_SIZE));
    let small: Vec<&str> = values.iter().take(10).map(String::as_str).collect();
    let few = text.replace(&values.join(","), &small.join(","));
    let doc = Document::from_json(&few).expect("a document");
    let t = timeline(&doc, &[Play { side: "1".into(), card: "Wide".into() }]).expect("ten initiatives");
    assert_eq!(t.steps.len(), 10);
}

#[test]
fn only_a_field_of_the_step_enum_names_a_step() {
    // `mood main` holds the word `main`, but of another enum: not the step.
    let rules = invented_game("simultaneous", "");
    let doc = engine_document(&[("sparks.rules", &rules), ("sparks.cards", INVENTED_CARDS)], "sparks");
    let moody = timeline(&doc, &[Play { side: "1".into(), card: "Moody".into() }]).expect_err("no timing");
    assert_eq!(moody, TimelineError::Untimed { card: "Moody".into(), side: "north".into() });
}

/// A `kind … by FIELD` rule says where a card without the value goes:
/// after those with it (`missing last`, also when unsaid), or before them
/// (`missing first`).
#[test]
fn a_card_without_the_value_goes_where_the_tie_break_says() {
    let cards = format!("{INVENTED_CARDS}spell \"Plain\" {{\n  cast main\n}}\n");
    let resolve = |rule: &str| {
        let rules = invented_game(&format!("{rule}\n  simultaneous"), "");
        let doc = engine_document(&[("sparks.rules", &rules), ("sparks.cards", &cards)], "sparks");
        let plays = [("north", "Spark"), ("south", "Plain"), ("north", "Flare")]
            .map(|(side, card)| Play { side: side.to_string(), card: card.to_string() });
        order(&timeline(&doc, &plays).expect("timeline"))
    };
    let last = ["Main 1 north Flare", "Main 2 north Spark", "Main 3 south Plain"];
    assert_eq!(resolve("kind spell by power highest"), last);
    assert_eq!(resolve("kind spell by power highest missing last"), last);
    assert_eq!(
        resolve("kind spell by power highest missing first"),
        ["Main 1 south Plain", "Main 2 north Flare", "Main 3 north Spark"]
    );
}

/// A Terrain Card enters play at initiative 5 (E2 L270), before an Offense
/// Card at 2.4, and moves later at its own step; a kind's `enters-at` off
/// the scale is refused when the ruleset loads.
#[test]
fn a_terrain_card_enters_play_at_initiative_5() {
    let repo = common::repo();
    let hand = ["--play", "1:Spinal Railcannon", "--play", "2:Drifting Hulk"];
    let output = cardsmith(&[&["timeline", "cards/dreadnaught-2e"], &hand[..]].concat(), repo);
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let placed = text.find("Resolve, 5.0\n   1  defender  Drifting Hulk (terrain, speed 2)\n        enters-at 5.0");
    let (fired, moved) = (text.find("Resolve, 2.4"), text.find("moves-at 1.0"));
    assert!(placed.is_some() && placed < fired && fired < moved, "{text}");

    let dir = tempfile::tempdir().expect("temp dir");
    let rules =
        invented_game("higher power", "").replace("kind spell \"Spell\" {", "kind spell \"Spell\" {\n  enters-at 12");
    std::fs::write(dir.path().join("sparks.rules"), rules).expect("ruleset");
    let refused = cardsmith(&["check", "sparks.rules"], dir.path());
    assert_eq!(refused.status.code(), Some(1));
    assert!(common::stderr(&refused)
        .contains("error[E0304]: `spell` enters play at a step that is not on the initiative scale"));
}

/// Power Management (E2 L236-244, E1 L223-229): the System Card's basic
/// move is the larger with one other card played, the smaller with two,
/// none with three, at the step the card shows.
#[test]
fn the_basic_move_follows_the_number_of_cards_played() {
    for game in ["dreadnaught-2e", "dreadnaught-1e"] {
        let doc = document_of(&common::check_folder(&format!("cards/{game}")), game);
        let system = doc.cards.iter().find(|c| c.kind == "system" && c.field("move").is_some()).expect("a system card");
        let moves: Vec<String> =
            system.field("move").expect("move").values.iter().map(cardsmith::engine::data::Value::written).collect();
        let offense: Vec<&str> = doc.cards.iter().filter(|c| c.kind == "offense").map(|c| c.name.as_str()).collect();
        for (played, applies) in [(1, &moves[1]), (2, &moves[0]), (3, &"none".to_string())] {
            let cards: Vec<&str> =
                std::iter::once(system.name.as_str()).chain(offense.iter().copied().take(played)).collect();
            let turn = timeline(&doc, &plays(&cards, &[])).expect("timeline");
            let shown: Vec<&str> = turn
                .steps
                .iter()
                .flat_map(|s| &s.resolutions)
                .filter(|r| r.card == system.name)
                .filter_map(|r| r.applies.as_deref())
                .collect();
            let others =
                if played == 1 { "1 other card played".to_string() } else { format!("{played} other cards played") };
            assert_eq!(shown, [format!("{applies}, {others}")], "{game}, {played} played");
        }
    }
}

/// A game of asymmetric sides: the runner's turn times only the runner's
/// plays, the corporation's only the corporation's, though both turns
/// follow the initiative scale.
#[test]
fn each_sides_turn_times_only_that_sides_cards() {
    let rules = r#"ruleset turns { title "Turns" }
initiative from 1 to 6 by 1
side corp "Corporation" player 1
side runner "Runner" player 2
phase corp-turn "Corporation Turn" { side corp; initiative }
phase runner-turn "Runner Turn" { side runner; initiative }
kind program "Program" { field at initiative required }
"#;
    let cards = r#"game turns
program "Sniffer" { at 2 }
program "Icebreaker" { at 5 }
"#;
    let doc = engine_document(&[("turns.rules", rules), ("cards.cards", cards)], "turns");
    let play = |side: &str, card: &str| Play { side: side.to_string(), card: card.to_string() };
    let turn = timeline(&doc, &[play("runner", "Icebreaker"), play("corp", "Sniffer")]).expect("timeline");
    let by_phase: Vec<(String, String, String)> = turn
        .steps
        .iter()
        .flat_map(|s| s.resolutions.iter().map(move |r| (s.phase.clone(), r.side.clone(), r.card.clone())))
        .collect();
    let row = |phase: &str, side: &str, card: &str| (phase.to_string(), side.to_string(), card.to_string());
    assert_eq!(
        by_phase,
        [row("Corporation Turn", "corp", "Sniffer"), row("Runner Turn", "runner", "Icebreaker")],
        "{turn:?}"
    );
}

/// A step of one side times only that side's plays: the runner's mulligan
/// step takes the runner's card, and the same card played by the
/// corporation resolves in no step of the turn.
#[test]
fn a_step_of_one_side_times_only_that_sides_cards() {
    let rules = r#"ruleset steps { title "Steps" }
side corp "Corporation" player 1
side runner "Runner" player 2
enum moment mulligan install
step-names moment
phase opening "Opening" {
  step mulligan "Mulligan" side runner
  step install "Install"
}
kind program "Program" { field when moment required }
"#;
    let cards = "game steps\nprogram \"Sniffer\" { when mulligan }\nprogram \"Rig\" { when install }\n";
    let doc = engine_document(&[("steps.rules", rules), ("cards.cards", cards)], "steps");
    let play = |side: &str, card: &str| Play { side: side.to_string(), card: card.to_string() };
    let turn = timeline(&doc, &[play("runner", "Sniffer"), play("corp", "Rig")]).expect("timeline");
    let steps: Vec<(String, String)> =
        turn.steps.iter().flat_map(|s| s.resolutions.iter().map(move |r| (s.step.clone(), r.card.clone()))).collect();
    assert_eq!(steps.len(), 2, "{steps:?}");
    let refused = timeline(&doc, &[play("corp", "Sniffer")]).expect_err("the corporation has no mulligan step");
    assert!(refused.to_string().contains("resolves in no phase"), "{refused}");
}
