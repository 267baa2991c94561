//! A ruleset's mistakes are reported where they are written, once, and a rule
//! never silently fails to hold or to fire: one row per mistake, each with
//! the exit status of `cardsmith check` and the one diagnostic it must give
//! (code, file, line and the text it points at).

mod common;

use cardsmith::workspace::Workspace;

/// A small game that is none of the bundled ones; `EXTRA` lines are added to
/// its ship kind, `TAGS` to its tags.
const RULESET: &str = r#"ruleset market {
  title "A deck-building game"
}

symbol trade "Trade"

role gain "Gain" {
  colour yellow
  mark square
  applies-to "you"
}

tag scout "Scout"
tag viper "Viper" TAGS

enum faction { unaligned; blob; star }

kind ship "Ship" {
  border grey
  roles gain
  field cost int
  field faction faction
  field text text
EXTRA}
"#;

struct Row {
    what: &'static str,
    tags: &'static str,
    extra: &'static str,
    cards: &'static str,
    /// (code, file, line, the text the primary label points at)
    expected: (&'static str, &'static str, usize, &'static str),
}

fn rows() -> Vec<Row> {
    let mut rows = filter_rows();
    rows.extend(block_rows());
    rows
}

/// Mistakes in a kind's filters: tags, roles, enum values, names that never hold.
fn filter_rows() -> Vec<Row> {
    vec![
        Row {
            what: "a tag named in a kind's rule reads the card's tags",
            tags: "",
            extra: "  require \"scouts and vipers cost nothing\" all(not (cost and (scout or viper)))\n",
            cards: "game market\nship \"Scout\" scout {\n  cost 1\n}\n",
            expected: ("E0314", "market.cards", 2, "ship \"Scout\" scout"),
        },
        Row {
            what: "a role a kind names that is not declared is reported at its name",
            tags: "",
            extra: "  roles spend\n",
            cards: "",
            expected: ("E0103", "market.rules", 24, "spend"),
        },
        Row {
            what: "a misspelt enum value in a filter is an error of the ruleset, before any card",
            tags: "",
            extra: "  require \"no unaligned ships\" all(faction != unalinged)\n",
            cards: "",
            expected: ("E0424", "market.rules", 24, "unalinged"),
        },
        Row {
            what: "a field of numbers tested for a name is an error of the ruleset, before any card",
            tags: "",
            extra: "  require \"no free ships\" all(cost != free)\n",
            cards: "",
            expected: ("E0424", "market.rules", 24, "free"),
        },
        Row {
            what: "`arg` in a field test outside `each-arg` is an error, not a name that never holds",
            tags: "",
            extra: "  require \"no free ships\" all(cost != arg)\n",
            cards: "",
            expected: ("E0422", "market.rules", 24, "arg"),
        },
        Row {
            what: "a rule with a mistake is reported once, not again on every card",
            tags: "",
            extra: "  require \"scouts cost nothing\" all(not (cost and scuot))\n",
            cards: "game market\nship \"Scout\" scout {\n  cost 1\n}\nship \"Raider\" {\n  cost 2\n}\n",
            expected: ("E0423", "market.rules", 24, "scuot"),
        },
        Row {
            what: "a tag limited to an undeclared kind is reported at that kind's name",
            tags: "{ only base }",
            extra: "",
            cards: "",
            expected: ("E0103", "market.rules", 14, "base"),
        },
        Row {
            what: "a filter compares a field in size",
            tags: "",
            extra: "  require \"a ship costs at most 3\" all(not (cost > 3))\n",
            cards: "game market\nship \"Cheap\" {\n  cost 3\n}\nship \"Dear\" {\n  cost 4\n}\n",
            expected: ("E0314", "market.cards", 5, "ship \"Dear\""),
        },
    ]
}

/// Rules that compare sizes, read blocks, names and effect lines.
fn block_rows() -> Vec<Row> {
    vec![
        Row {
            what: "an empty block is reported",
            tags: "",
            extra: "  field ally { effects }\n",
            cards: "game market\nship \"Allied\" {\n  ally {}\n}\n",
            expected: ("W0316", "market.cards", 3, "{}"),
        },
        Row {
            what: "a quoted name alone is no filter: it is reported at the name",
            tags: "",
            extra: "  require \"eight scouts\" count(\"Scout\") == 8\n",
            cards: "",
            expected: ("E0422", "market.rules", 24, "\"Scout\""),
        },
        Row {
            what: "a card's name in a filter reads the card's name",
            tags: "",
            extra: "  require \"only the Scout costs nothing\" all(name == \"Scout\" or cost)\n",
            cards: "game market\nship \"Scout\" scout\nship \"Viper\" {\n  text \"Free.\"\n}\n",
            expected: ("E0314", "market.cards", 3, "ship \"Viper\""),
        },
        Row {
            what: "a bare filter as a rule says how to write it",
            tags: "",
            extra: "  require \"ships have a cost\" cost\n",
            cards: "",
            expected: ("E0422", "market.rules", 24, "cost"),
        },
        Row {
            what: "effect lines are counted by role, wherever they are",
            tags: "",
            extra: "  body effects\n  field ally { body effects }\n  require \"one gain at most\" effects(role == gain) <= 1\n",
            cards: "game market\nship \"Trader\" {\n  gain trade 1\n  ally { gain trade 2 }\n}\n",
            expected: ("E0314", "market.cards", 2, "ship \"Trader\""),
        },
        Row {
            what: "repeated rows are counted",
            tags: "",
            extra: "  field ability { takes text; many }\n  require \"two abilities at most\" rows(ability) <= 2\n",
            cards: "game market\nship \"Busy\" {\n  ability \"a\"\n  ability \"b\"\n  ability \"c\"\n}\n",
            expected: ("E0314", "market.cards", 2, "ship \"Busy\""),
        },
        Row {
            what: "a rule of a kind cannot count included decks",
            tags: "",
            extra: "  require \"alone\" decks() == 0\n",
            cards: "",
            expected: ("E0426", "market.rules", 24, "decks"),
        },
    ]
}

#[test]
fn each_mistake_gives_its_one_diagnostic() {
    for row in rows() {
        let dir = tempfile::tempdir().expect("temp dir");
        let ruleset = RULESET.replace("TAGS", row.tags).replace("EXTRA", row.extra);
        std::fs::write(dir.path().join("market.rules"), &ruleset).expect("write the ruleset");
        let mut args = vec!["check", "--message-format", "json", "market.rules"];
        if !row.cards.is_empty() {
            std::fs::write(dir.path().join("market.cards"), row.cards).expect("write the cards");
            args.push("market.cards");
        }
        let output = common::cardsmith(&args, dir.path());
        let json = String::from_utf8_lossy(&output.stdout).into_owned();
        let found: Vec<serde_json::Value> =
            json.lines().map(|line| serde_json::from_str(line).expect("one JSON object a line")).collect();
        assert_eq!(found.len(), 1, "{}: expected one diagnostic\n{json}", row.what);
        let (code, file, line, _) = row.expected;
        let status = if code.starts_with('E') { 1 } else { 0 };
        assert_eq!(output.status.code(), Some(status), "{}\n{json}", row.what);
        let d = &found[0];
        let (start, end) = (d["byte_start"].as_u64().expect("start"), d["byte_end"].as_u64().expect("end"));
        let text = if file == "market.rules" { ruleset.as_str() } else { row.cards };
        let at = &text[start as usize..end as usize];
        let found = (d["code"].as_str().unwrap_or(""), d["file"].as_str().unwrap_or(""), d["line"].as_u64(), at);
        assert_eq!(found, (code, file, Some(line as u64), row.expected.3), "{}\n{json}", row.what);
    }
}

#[test]
fn the_bare_filter_help_shows_all() {
    let ruleset = RULESET.replace("TAGS", "").replace("EXTRA", "  require \"ships have a cost\" cost\n");
    let mut workspace = Workspace::new();
    workspace.add_text("market.rules", &ruleset);
    let outcome = workspace.check();
    let help = outcome.diagnostics.first().and_then(|d| d.help.clone()).unwrap_or_default();
    assert!(help.contains("`all(cost)`"), "{help}");
}

#[test]
fn both_spellings_of_an_effect_block_mean_the_same() {
    let extra = "  body effects\n  field ally { effects }\n  field scrap { body effects }\n";
    let ruleset = RULESET.replace("TAGS", "").replace("EXTRA", extra);
    let cards =
        "game market\nship \"Trader\" {\n  gain trade 1\n  ally { gain trade 2 }\n  scrap { gain trade 3 }\n}\n";
    let mut workspace = Workspace::new();
    workspace.add_text("market.rules", &ruleset);
    workspace.add_text("market.cards", cards);
    let outcome = workspace.check();
    let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
    assert!(outcome.diagnostics.is_empty(), "{rendered}");
    let card = &outcome.project.games[0].cards[0];
    assert_eq!(card.body.effects.len(), 1);
    let nested: Vec<usize> = card.body.fields.iter().filter_map(|f| f.body.as_ref()).map(|b| b.effects.len()).collect();
    assert_eq!(nested, [1, 1]);
}

#[test]
fn a_role_may_have_no_colour() {
    let ruleset = RULESET.replace("TAGS", "").replace("EXTRA", "  body effects\n").replace("  colour yellow\n", "");
    let mut workspace = Workspace::new();
    workspace.add_text("market.rules", &ruleset);
    workspace.add_text("market.cards", "game market\nship \"Trader\" {\n  gain trade 1\n}\n");
    let outcome = workspace.check();
    let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
    assert!(outcome.diagnostics.is_empty(), "{rendered}");
    let files = cardsmith::backend::json::build(&outcome.files, &outcome.project).expect("engine data");
    let document = files.iter().find(|f| f.name == "market.json").expect("the game's document");
    let json: serde_json::Value = serde_json::from_str(&document.contents).expect("JSON");
    let role = &json["ruleset"]["roles"][0];
    assert_eq!(role["id"], "gain");
    assert!(role.get("colour").is_none(), "{role}");
}

/// `min` and `max` read the smallest and largest number of a field among
/// the matching cards of a deck; a card without the field is left out.
#[test]
fn min_and_max_read_a_fields_smallest_and_largest_number() {
    let ruleset = RULESET.replace("TAGS", "").replace("EXTRA", "").to_string()
        + "deck-type fleet \"Fleet\" {\n  entry ship\n  \
           require \"the cheapest ship costs at least 2\" min(cost) >= 2\n  \
           require \"the dearest scout costs at most 3\" max(cost, scout) <= 3\n}\n";
    let cards = "game market\nship \"Cheap\" { cost 1 }\nship \"Dear\" scout { cost 5 }\nship \"Free\" scout\n\
                 deck \"Home\" fleet {\n  ship \"Cheap\"\n  ship \"Dear\"\n  ship \"Free\"\n}\n";
    let mut workspace = Workspace::new();
    workspace.add_text("market.rules", &ruleset);
    workspace.add_text("market.cards", cards);
    let outcome = workspace.check();
    let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
    let broken: Vec<&str> = outcome.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        broken,
        [
            "deck `Home` breaks a rule: the cheapest ship costs at least 2",
            "deck `Home` breaks a rule: the dearest scout costs at most 3"
        ],
        "{rendered}"
    );
    assert!(rendered.contains("here the least `cost` is 1"), "{rendered}");
    assert!(rendered.contains("here the most `cost` among cards matching `scout` is 5"), "{rendered}");
}
