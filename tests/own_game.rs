//! A game that is none of the four: `examples/lantern-market`, a small
//! deck-building game written as a ruleset with no change to cardsmith.  It
//! uses deck parameters, a condition of its own, phases with simultaneous
//! resolution, rules over several decks, comparisons, a choose-one block, an
//! amount that depends on the game, set-up data and colourless roles.
//!
//! The example checks and lints clean, its engine data validates against the
//! schema, its timeline resolves ties as its ruleset says, and breaking each
//! of its rules — one edit to a copy of the project — gives exactly that
//! rule's diagnostic.

mod common;

use common::{cardsmith, objections, repo, stderr, validator};
use serde_json::Value;
use std::path::Path;

const EXAMPLE: &str = "examples/lantern-market";

/// A copy of the example, with each `(file, from, to)` edit made once.
fn edited_copy(edits: &[Edit]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = repo().join(EXAMPLE);
    std::fs::create_dir(dir.path().join("cards")).expect("cards folder");
    for file in ["cardsmith.toml", "cards/lantern-market.rules", "cards/market.cards"] {
        std::fs::copy(source.join(file), dir.path().join(file)).expect("copy the example");
    }
    for (file, from, to) in edits {
        let path = dir.path().join("cards").join(file);
        let text = std::fs::read_to_string(&path).expect("read the copy");
        assert_eq!(text.matches(from).count(), 1, "`{from}` must occur once in {file}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("edit the copy");
    }
    dir
}

/// `(severity[code], message)` of every diagnostic `check` gives in `dir`.
fn diagnostics(dir: &Path) -> Vec<(String, String)> {
    let output = cardsmith(&["check", "--message-format", "short"], dir);
    stderr(&output)
        .lines()
        .filter_map(|line| {
            // `file:line:column: severity[code]: message`
            let (_, rest) = line.split_once(": ")?;
            let (code, message) = rest.split_once(": ")?;
            Some((code.to_string(), message.to_string()))
        })
        .collect()
}

#[test]
fn the_example_checks_and_lints_clean() {
    let dir = edited_copy(&[]);
    let check = cardsmith(&["check"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(stderr(&check).contains("0 errors, 0 warnings"), "{}", stderr(&check));
    let lint = cardsmith(&["lint"], dir.path());
    assert_eq!(lint.status.code(), Some(0), "{}", stderr(&lint));
    assert!(!stderr(&lint).contains("warning["), "{}", stderr(&lint));
}

/// `(file, from, to)`: one edit to a copy of the example.
type Edit = (&'static str, &'static str, &'static str);
/// `(severity[code], a part of the message)`: one diagnostic expected.
type Expected = (&'static str, &'static str);

/// One edit per rule of the ruleset (and per parameter check), each giving
/// exactly the diagnostics of the rules it breaks: what it breaks, the
/// edits, and each diagnostic's `severity[code]` and a part of its message.
const BREAKS: &[(&str, &[Edit], &[Expected])] = &[
    (
        "a starter with a cost",
        &[("market.cards", "ware \"Copper Lamp\" starter {\n  cost 0", "ware \"Copper Lamp\" starter {\n  cost 1")],
        &[("error[E0314]", "a starter costs nothing")],
    ),
    (
        "a ware that spends twice",
        &[(
            "market.cards",
            "    spend coin 2\n    gain card that-many",
            "    spend coin 2\n    spend oil 1\n    gain card that-many",
        )],
        &[("error[E0314]", "a ware spends at most one thing")],
    ),
    (
        "a dear ware without renown",
        &[(
            "market.cards",
            "gain renown 1 per lanterns }\n  text \"Gain 1 {renown}",
            "gain coin 1 per lanterns }\n  text \"Gain 1 {coin}",
        )],
        &[("warning[W0315]", "a ware costing 6 or more gains renown")],
    ),
    (
        "a ware with two choices",
        &[("market.cards", "      option { gain card 1; gain renown 1 }\n    }\n", "      option { gain card 1; gain renown 1 }\n    }\n    choose { gain coin 3; gain renown 1 }\n")],
        &[("warning[W0315]", "a ware offers one choice at most")],
    ),
    (
        "a ware that spends in a then step too",
        &[("market.cards", "    spend coin 2\n    gain card that-many", "    spend coin 2\n    gain card that-many\n    then { spend oil 1 }")],
        &[("error[E0314]", "a ware spends at most one thing")],
    ),
    (
        "a starter lantern",
        &[(
            "market.cards",
            "// ---------------------------------------------------------------- decks",
            "lantern \"Spare Wick\" starter {\n  cost 1\n  guild unaligned\n  glow 1\n  reveal 1 { gain renown 1 }\n}\n",
        )],
        &[("error[E0314]", "a lantern is never a starter")],
    ),
    (
        "a starting deck short of its size",
        &[("market.cards", "card \"Copper Lamp\" x7", "card \"Copper Lamp\" x6")],
        &[("error[E0401]", "a starting deck holds as many cards as its size")],
    ),
    (
        "a starting deck that sets a size it does not hold",
        &[(
            "market.cards",
            "deck \"Merchant's Start\" starting {\n",
            "deck \"Merchant's Start\" starting {\n  size 9\n",
        )],
        &[("error[E0401]", "a starting deck holds as many cards as its size")],
    ),
    (
        "a starting deck size out of bounds",
        &[(
            "market.cards",
            "deck \"Merchant's Start\" starting {\n",
            "deck \"Merchant's Start\" starting {\n  size 20\n",
        )],
        &[("error[E0305]", "")],
    ),
    (
        "a market deck row out of bounds",
        &[("market.cards", "deck \"Night Market\" market {\n", "deck \"Night Market\" market {\n  row 9\n")],
        &[("error[E0305]", "")],
    ),
    (
        "a market too small for its row",
        &[("market.cards", "deck \"Night Market\" market {\n", "deck \"Night Market\" market {\n  row 6\n")],
        &[("error[E0401]", "the market holds at least four cards for each card of its row")],
    ),
    (
        "too many dear cards in the market",
        &[("market.cards", "ware \"Glassblower's Stall\" {\n  cost 3", "ware \"Glassblower's Stall\" {\n  cost 5")],
        &[("error[E0401]", "at most a third of the market costs 5 or more")],
    ),
    (
        "four copies in the market",
        &[("market.cards", "card \"Oil Merchant\" x3", "card \"Oil Merchant\" x4")],
        &[("warning[W0402]", "a card appears at most 3 times in the market")],
    ),
    (
        "a game box without its market",
        &[("market.cards", "  deck \"Night Market\"\n}", "}")],
        // Without its market, the box also holds too few market cards.
        &[
            ("error[E0401]", "a game box holds one starting deck and one market"),
            ("error[E0401]", "the market holds at least twice as many cards as the starting deck"),
        ],
    ),
    (
        "a starting deck too large for the market",
        &[(
            "market.cards",
            "deck \"Merchant's Start\" starting {\n  card \"Copper Lamp\" x7",
            "deck \"Merchant's Start\" starting {\n  size 12\n  card \"Copper Lamp\" x9",
        )],
        &[("error[E0401]", "the market holds at least twice as many cards as the starting deck")],
    ),
    // The game's own vocabulary is checked as the bundled games' is.
    (
        "a condition the game does not declare",
        &[("market.cards", "when guild-ally weavers", "when guild-friend weavers")],
        &[("error[E0312]", "")],
    ),
    ("a quantity the game does not declare", &[("market.cards", "per lanterns", "per lantern")], &[("error[E0331]", "")]),
    (
        "a choice with one option",
        &[("market.cards", "      option { gain card 1; gain renown 1 }\n", "")],
        &[("error[E0330]", "")],
    ),
];

#[test]
fn breaking_each_rule_gives_its_diagnostic() {
    let mut failures = Vec::new();
    for (what, edits, expected) in BREAKS {
        let dir = edited_copy(edits);
        let found = diagnostics(dir.path());
        let matched = found.len() == expected.len()
            && found
                .iter()
                .zip(expected.iter())
                .all(|((code, message), (want, part))| code == want && message.contains(part));
        if !matched {
            failures.push(format!("{what}: expected {expected:?}, found {found:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The engine data, validated against the schema written beside it.
fn engine_data() -> Value {
    let dir = edited_copy(&[]);
    let output = cardsmith(&["build", "-o", "out"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = dir.path().join("out");
    let document: Value =
        serde_json::from_slice(&std::fs::read(out.join("lantern-market.json")).expect("document")).expect("json");
    assert_eq!(objections(&validator(&out.join("schema.json")), &document), vec![], "matches schema.json");
    document
}

#[test]
fn the_engine_data_holds_the_game_and_matches_its_schema() {
    let document = engine_data();
    let ruleset = &document["ruleset"];
    // Colourless roles, set-up with a shared market row, two phases.
    assert!(
        ruleset["roles"].as_array().expect("roles").iter().all(|r| r.get("colour").is_none()),
        "{}",
        ruleset["roles"]
    );
    let zones = ruleset["setup"]["zones"].as_array().expect("zones");
    let row = zones.iter().find(|z| z["id"] == "market-row").expect("the market row");
    assert_eq!(
        (row["owner"].as_str(), row["visibility"].as_str(), row["limit"].as_u64()),
        (Some("shared"), Some("public"), Some(5))
    );
    let phases: Vec<&str> =
        ruleset["phases"].as_array().expect("phases").iter().filter_map(|p| p["id"].as_str()).collect();
    assert_eq!(phases, ["market", "reveal", "dusk"]);
    let last = ruleset["tie_break"].as_array().expect("tie-break").last().cloned().unwrap_or_default();
    assert_eq!(last["by"], "simultaneous");
    // The cards' constructs: a choice, a declared condition, a game-dependent
    // amount and an ordered step.
    let card = |name: &str| {
        document["cards"].as_array().expect("cards").iter().find(|c| c["name"] == name).cloned().expect(name)
    };
    let text = |name: &str| serde_json::to_string(&card(name)).expect("json");
    assert!(text("Glassblower's Stall").contains("\"choices\""), "{}", text("Glassblower's Stall"));
    let awning = &card("Silk Awning")["body"]["fields"][2]["body"]["conditions"][0]["condition"];
    assert_eq!((awning["type"].as_str(), awning["id"].as_str()), (Some("declared"), Some("guild-ally")), "{awning}");
    assert!(
        text("Lamplighters' Hall").contains("\"per\":{\"quantity\":\"lanterns\""),
        "{}",
        text("Lamplighters' Hall")
    );
    assert!(text("Night Crier").contains("\"then\""), "{}", text("Night Crier"));
}

#[test]
fn the_timeline_resolves_ties_as_the_ruleset_says() {
    let dir = edited_copy(&[]);
    // The same speed: the dearer card first.
    let dearer = cardsmith(&["timeline", "--play", "1:Tallow Candle", "--play", "2:Oil Merchant"], dir.path());
    let text = String::from_utf8_lossy(&dearer.stdout).to_string();
    assert_eq!(dearer.status.code(), Some(0), "{}", stderr(&dearer));
    // The first line names every play; the order is in the lines after it.
    let order = text.split_once('\n').map_or("", |(_, rest)| rest);
    let (oil, tallow) = (order.find("Oil Merchant").expect("played"), order.find("Tallow Candle").expect("played"));
    assert!(oil < tallow, "the dearer card resolves first:\n{text}");
    // The same speed and cost: at the same time.
    let same = cardsmith(&["timeline", "--play", "first:Silk Awning", "--play", "second:Silk Awning"], dir.path());
    let text = String::from_utf8_lossy(&same.stdout).to_string();
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(text.contains('='), "ties resolve at the same time:\n{text}");
    // The game's own constructs, as the card writes them.
    let plays = ["1:Night Crier", "2:Silk Awning", "1:Glassblower's Stall", "2:Lamplighters' Hall"];
    let args: Vec<&str> = std::iter::once("timeline").chain(plays.iter().flat_map(|p| ["--play", p])).collect();
    let shown = cardsmith(&args, dir.path());
    let text = String::from_utf8_lossy(&shown.stdout).to_string();
    for line in
        ["then: spend card 1", "when guild-ally weavers: gain renown 1", "choose one: gain coin 3", "or: gain card 1"]
    {
        assert!(text.contains(line), "`{line}` missing:\n{text}");
    }
    assert!(text.contains("gain renown 1 per lanterns"), "{text}");
}
