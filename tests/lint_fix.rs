//! `lint --fix` changes only what it flagged, and only when the fixed text
//! checks with no new problem: on every bundled game, and on a ruleset whose
//! multi-word symbol names share words with kinds, fields and each other.

mod common;

use common::{bundled_project, cardsmith, contents};
use std::collections::BTreeMap;
use std::path::Path;

/// A deck-building game whose symbol names are phrases (`Scrap a card from
/// your hand`), share their last word (`Resource Burn`, `Fire Burn`), or end
/// with a field's name (`Combat Power`); only `Market Row` has a certain
/// short form.
const RULESET: &str = r#"ruleset market {
  title "A deck-building game"
}

symbol trade "Trade"
symbol scrap "Scrap a card from your hand"
symbol destroy "Destroy target base"
symbol burn "Resource Burn"
symbol fire "Fire Burn"
symbol hand-size "Hand Size"
symbol combat "Combat Power"
symbol row "Market Row"

role gain "Gain" {
  colour yellow
  mark square
  applies-to "you"
}

kind ship "Ship" {
  border grey
  roles gain
  text-limit TEXT_LIMIT
  field cost int required
  field text text
}

kind base "Base" {
  border grey
  roles gain
  field cost int required
  field power int
  field text text
}
"#;

const CARDS: &str = r#"game market

ship "Scout" {
  cost 1
  text "Scrap a card in your hand or discard pile. Destroy target base. Gain 1 power."
}

base "Power Station" {
  cost 4
  text "Gain 2 trade. Your next combat costs 1 less; draw from the row."
}

ship "Burner" {
  cost 2
  text "Deal 1 burn; then 1 Fire Burn. Raise your Hand Size or row."
}
"#;

fn crafted_project(text_limit: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    std::fs::create_dir(dir.path().join("cards")).expect("cards");
    let ruleset = RULESET.replace("TEXT_LIMIT", &text_limit.to_string());
    std::fs::write(dir.path().join("cards/market.rules"), ruleset).expect("ruleset");
    std::fs::write(dir.path().join("cards/cards.cards"), CARDS).expect("cards");
    dir
}

/// A diagnostic of `--message-format json`, as far as these tests need it.
struct Reported {
    code: String,
    file: String,
    message: String,
    bytes: (usize, usize),
}

fn lint_json(dir: &Path) -> Vec<Reported> {
    let output = cardsmith(&["lint", "--message-format", "json"], dir);
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let json: serde_json::Value = serde_json::from_str(line).expect("one JSON diagnostic per line");
            let text = |key: &str| json[key].as_str().unwrap_or_default().to_string();
            let byte = |key: &str| json[key].as_u64().unwrap_or_default() as usize;
            Reported {
                code: text("code"),
                file: text("file"),
                message: text("message"),
                bytes: (byte("byte_start"), byte("byte_end")),
            }
        })
        .collect()
}

/// Runs `lint --fix` in `dir` and holds it to its promise: every byte that
/// changed lies in a span a fixable lint flagged, and a check of the result
/// reports no problem it did not report before.  Returns how many files
/// changed.
fn fix_and_verify(dir: &Path) -> usize {
    let fixable: Vec<&str> = cardsmith::lint::LINTS.iter().filter(|l| l.fixable).map(|l| l.code.id).collect();
    let before = lint_json(dir);
    let files_before = contents(dir);
    let output = cardsmith(&["lint", "--fix"], dir);
    assert!(output.status.code().is_some(), "lint --fix ended by a signal");
    let files_after = contents(dir);
    let mut changed = 0;
    for (name, old) in &files_before {
        let new = &files_after[name];
        if old == new {
            continue;
        }
        changed += 1;
        let flagged: Vec<(usize, usize)> = before
            .iter()
            .filter(|d| fixable.contains(&d.code.as_str()) && d.file.ends_with(name.as_str()))
            .map(|d| d.bytes)
            .collect();
        let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
        for op in similar::TextDiff::from_chars(old.as_ref(), new.as_ref()).ops() {
            if op.tag() == similar::DiffTag::Equal {
                continue;
            }
            let range = op.old_range();
            assert!(
                flagged.iter().any(|(start, end)| *start <= range.start && range.end <= *end),
                "{name}: bytes {range:?} changed outside every flagged span {flagged:?}\n{new}"
            );
        }
    }
    let mut reported: BTreeMap<String, usize> = BTreeMap::new();
    for d in &before {
        *reported.entry(format!("{} {} {}", d.file, d.code, d.message)).or_default() += 1;
    }
    for d in lint_json(dir) {
        let key = format!("{} {} {}", d.file, d.code, d.message);
        match reported.get_mut(&key) {
            Some(count) if *count > 0 => *count -= 1,
            _ => panic!("the fix brought a new problem: {key}"),
        }
    }
    changed
}

#[test]
fn fixes_on_the_bundled_games_change_only_flagged_text() {
    for game in ["dreadnaught-1e", "dreadnaught-2e", "dreadnought-tcg", "dropfleet-1.3"] {
        let dir = bundled_project(game);
        fix_and_verify(dir.path());
    }
}

#[test]
fn only_certain_short_forms_are_fixed() {
    let dir = crafted_project(240);
    let before = lint_json(dir.path());
    let drift: Vec<&str> = before.iter().filter(|d| d.code == "L0005").map(|d| d.message.as_str()).collect();
    assert_eq!(drift, ["`row` is called `Market Row` in this game"; 2], "only `row` is a certain short form");
    assert_eq!(fix_and_verify(dir.path()), 1);
    let cards = std::fs::read_to_string(dir.path().join("cards/cards.cards")).expect("cards");
    assert!(cards.contains("text \"Scrap a card in your hand or discard pile. Destroy target base. Gain 1 power.\""));
    assert!(cards.contains("draw from the Market Row.\""), "{cards}");
    assert!(cards.contains("text \"Deal 1 burn; then 1 Fire Burn. Raise your Hand Size or Market Row.\""), "{cards}");
}

#[test]
fn a_fix_that_would_bring_a_new_problem_is_not_applied() {
    // 60 characters hold the Burner's text as written, not once `row` is
    // written `Market Row`.
    let dir = crafted_project(60);
    let before = contents(dir.path());
    let output = cardsmith(&["lint", "--fix"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(contents(dir.path()), before, "no file is written");
    let stderr = common::stderr(&output);
    assert!(stderr.contains("the fixes were not applied"), "{stderr}");
    assert!(stderr.contains("L0009"), "the new problem is named: {stderr}");
}

/// Each fix of `lint --fix`, before and after, on a Dreadnaught card's text:
/// the fixes that make the text read as the game prints it, and the words a
/// fix must leave alone, numbers followed by words among them.
#[test]
fn each_fix_before_and_after() {
    const ROWS: &[(&str, &str, &str)] = &[
        (
            "a short form after its number is the term",
            "the target suffers 1 burn.",
            "the target suffers 1 Resource Burn.",
        ),
        ("a short form followed by a number is a verb, left alone", "must burn 1 card.", "must burn 1 card."),
        (
            "a verb left, a noun fixed, in one text",
            "burn 2 cards, then suffer 2 burn.",
            "burn 2 cards, then suffer 2 Resource Burn.",
        ),
        ("the full term is already right", "suffers 2 Resource Burn.", "suffers 2 Resource Burn."),
        ("numbers followed by other words are no term", "Deal 2 damage to 1 ship.", "Deal 2 damage to 1 ship."),
        ("a keyword in other casing", "This card remains In Play.", "This card Remains in Play."),
        ("a keyword written as its id", "This card is remains-in-play.", "This card is Remains in Play."),
        ("a one-word keyword in lower case is prose", "it is unstoppable.", "it is unstoppable."),
    ];
    for (what, before, after) in ROWS {
        let dir = tempfile::tempdir().expect("temp dir");
        let card = |text: &str| {
            format!(
                "game dreadnaught-2e\n\noffense \"Test Gun\" {{\n  symbol kinetic\n  arc standard\n  at 3.0 {{ impact damage 2 }}\n  text \"{text}\"\n}}\n"
            )
        };
        std::fs::write(dir.path().join("gun.cards"), card(before)).expect("write the card");
        cardsmith(&["lint", "--fix", "gun.cards"], dir.path());
        let fixed = std::fs::read_to_string(dir.path().join("gun.cards")).expect("read the card");
        assert_eq!(fixed, card(after), "{what}");
    }
}
