//! The timeline, built from the rulebooks' statements (GAMES.md §1.3), with a
//! tie at every level of each edition's chain.  Every timeline here goes
//! through the engine data: cards are checked, serialised to JSON exactly as
//! `cardsmith build` writes them, and read back by the engine's own types.

use cardsmith::engine::data::Document;
use cardsmith::engine::timeline::{timeline, Play, Timeline};
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
  place 2
  hp 4
  speed 3
  moves-at 3.0
  chevron forward
}
terrain "Slow Wreck" {
  place 2
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
            lines.push(format!("{} {}{mark} {} {}", step.initiative, r.position, r.side, r.card));
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
            Some("kind boost by power highest"),
            Some("kind boost"),
            Some("kind terrain"),
            Some("kind event"),
            Some("kind defense"),
        ]
    );
}

#[test]
fn second_edition_equal_power_falls_through_to_the_attacker() {
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
        assert_eq!(order(&t), ["3.0 1 attacker Also Power Three", "3.0 2 defender Power Three"]);
        assert_eq!(decided_by(&t)[1], Some("side attacker defender"));
    }
}

#[test]
fn second_edition_faster_terrain_first_whoever_plays_it() {
    let t = second_edition(&["Slow Wreck"], &["Fast Wreck"]);
    assert_eq!(order(&t), ["3.0 1 defender Fast Wreck", "3.0 2 attacker Slow Wreck"]);
    assert_eq!(decided_by(&t)[1], Some("kind terrain by speed highest"));
    assert_eq!(t.steps[0].resolutions[0].compared, ["speed 3"]);
}

#[test]
fn second_edition_attacker_before_defender_as_the_ultimate_tiebreaker() {
    // E2 L220: "the Attacker's effect is resolved immediately before the Defender's".
    let t = second_edition(&["Second Cannon"], &["Cannon"]);
    assert_eq!(order(&t), ["3.0 1 attacker Second Cannon", "3.0 2 defender Cannon"]);
    let t = second_edition(&["Cannon"], &["Second Cannon"]);
    assert_eq!(order(&t), ["3.0 1 attacker Cannon", "3.0 2 defender Second Cannon"]);
}

#[test]
fn second_edition_still_tied_is_simultaneous() {
    // Same step, same tier, same side: nothing in the chain separates them.
    let t = second_edition(&["Cannon", "Second Cannon"], &["Cannon"]);
    assert_eq!(order(&t), ["3.0 1= attacker Cannon", "3.0 1= attacker Second Cannon", "3.0 2 defender Cannon"]);
    assert_eq!(decided_by(&t), [None, None, Some("side attacker defender")]);
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
        &["Reactive Plating", "Spaced Armour", "Deflector Array", "Flak Batteries", "Drifting Hulk", "Black Ice"],
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
  place 2
  hp 4
  speed 1
  moves-at 3.0
  chevron forward
}
terrain "Fast Wreck" {
  place 2
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
    assert_eq!(order(&t), ["3.4 1 defender Light Gun", "3.2 1 attacker Heavy Gun"]);
}

#[test]
fn first_edition_terrain_and_event_share_a_tier_then_defense_then_offense() {
    // E1 L199–205: terrain and event are one tier, with no speed order; the
    // bundled ruleset then puts the attacker first (its decision on §5.4).
    // `at 3` is the whole step 3.0.
    let t = first_edition(&["Broadside", "Wreck"], &["Brace", "Sudden Storm", "Fast Wreck"]);
    assert_eq!(
        order(&t),
        [
            "3.0 1 attacker Wreck",
            "3.0 2= defender Sudden Storm",
            "3.0 2= defender Fast Wreck",
            "3.0 3 defender Brace",
            "3.0 4 attacker Broadside",
        ]
    );
    assert_eq!(
        decided_by(&t),
        [None, Some("side attacker defender"), None, Some("kind terrain event"), Some("kind defense")]
    );
}

#[test]
fn first_edition_boost_cards_meet_no_tier_and_come_last() {
    let t = first_edition(&["Spare Capacitor"], &["Broadside"]);
    assert_eq!(order(&t), ["3.0 1 defender Broadside", "3.0 2 attacker Spare Capacitor"]);
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
            "3.0 1= attacker Wreck",
            "3.0 1= defender Sudden Storm",
            "3.0 2= attacker Broadside",
            "3.0 2= defender Broadside",
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
    let hand = ["--attacker", "Spinal Railcannon", "--attacker", "Follow-Through", "--defender", "Spaced Armour"];
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
    assert!(text.contains("\n2.4\n   1  attacker  Follow-Through (event)\n"), "{text}");
    assert!(text.contains("   2  attacker  Spinal Railcannon (offense)  [tie-break: kind event]\n"), "{text}");
}

#[test]
fn the_command_refuses_what_it_cannot_order() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();

    let typo = cardsmith(&["timeline", "cards/dreadnaught-2e", "--attacker", "Spinal Railcanon"], repo);
    assert_eq!(typo.status.code(), Some(2));
    assert!(stderr(&typo).contains("did you mean `Spinal Railcannon`?"), "{}", stderr(&typo));

    let nothing_played = cardsmith(&["timeline", "cards/dreadnaught-2e"], repo);
    assert_eq!(nothing_played.status.code(), Some(2));

    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("bad.cards"), "game dreadnaught-2e\nofense \"X\" {}\n").expect("write");
    let broken = cardsmith(&["timeline", "bad.cards", "--attacker", "X"], dir.path());
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
    let untimed = cardsmith(&["timeline", "untimed.rules", "untimed.cards", "--attacker", "Plain"], dir.path());
    assert_eq!(untimed.status.code(), Some(2), "{}", stderr(&untimed));
    assert!(stderr(&untimed).contains("has no initiative scale"), "{}", stderr(&untimed));

    std::fs::write(dir.path().join("future.json"), "{\"format\": 3}").expect("write");
    let future = cardsmith(&["timeline", "--data", "future.json", "--attacker", "Plain"], dir.path());
    assert_eq!(future.status.code(), Some(2));
    assert!(stderr(&future).contains("format 3"), "{}", stderr(&future));
}

#[test]
fn hostile_engine_data_gives_a_timeline_not_a_panic() {
    let text = r#"{
      "format": 1,
      "ruleset": {
        "id": "odd",
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
}
