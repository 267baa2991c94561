//! Effects as data: the conditions, and the other effect constructs, a
//! ruleset declares, seen through every stage: the check, the engine data
//! (validated against `schema.json`), the printed face and the text lints.
//! The fixture is a small game none of the bundled ones is,
//! `tests/ui/declared-conditions`, whose diagnostics the UI tests hold.

mod common;

use cardsmith::backend::print::rich::Run;
use cardsmith::backend::print::view::Viewer;
use common::{cardsmith, check_folder, objections, repo, stderr, validator};
use serde_json::{json, Value};

const GAME: &str = "tests/ui/declared-conditions";

/// The engine data of the fixture, with the schema the same build wrote.
fn built() -> (Value, jsonschema::Validator) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let output = cardsmith(&["build", GAME, "-o", out.to_str().expect("utf-8 path")], repo());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let document =
        serde_json::from_slice(&std::fs::read(out.join("ember-duel.json")).expect("document")).expect("json");
    (document, validator(&out.join("schema.json")))
}

#[test]
fn declared_conditions_are_structured_in_the_engine_data() {
    let (document, validator) = built();
    assert_eq!(objections(&validator, &document), vec![], "the document matches schema.json");
    let declared: Vec<&str> = document["ruleset"]["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert_eq!(declared, ["target-has", "in-arc", "this-is", "target-is"]);
    let cast = &document["cards"][0]["body"]["fields"][0]["body"];
    assert_eq!(
        cast["conditions"][0]["condition"],
        json!({"type": "declared", "id": "target-has", "args": [{"param": "token", "value": {"type": "name", "value": "burn"}}]})
    );
    assert_eq!(cast["conditions"][0]["body"]["effects"][0]["amount"], 2);
    let blaze = &document["ruleset"]["keywords"][0];
    assert_eq!(
        blaze["effects"],
        json!([
            {"role": "strike", "symbol": "damage", "amount": {"param": "heat"}, "plus": "none"},
            {"role": "strike", "symbol": "damage", "amount": {"fixed": 2}, "plus": "before",
                "when": {"id": "target-has", "args": [{"name": "burn"}]}}
        ])
    );
    // A choice exports its options in order, each a body.
    let fork = &document["cards"][2]["body"]["fields"][0]["body"];
    let options = fork["choices"][0]["options"].as_array().expect("options");
    let effects_of = |option: &Value| {
        option["effects"].as_array().expect("effects").iter().map(|e| e["amount"].clone()).collect::<Vec<_>>()
    };
    assert_eq!(options.iter().map(effects_of).collect::<Vec<_>>(), [vec![json!(3)], vec![json!(2), json!(1)]]);
    // An amount that depends on the game: the number, and the quantity it
    // is counted per, with the quantity's values.
    let stoke = &document["cards"][3]["body"]["fields"][0]["body"]["effects"];
    assert_eq!(
        stoke[0],
        json!({"role": "strike", "symbol": "damage", "amount": 1, "plus": "none", "per": {"quantity": "tokens-on-target",
            "args": [{"param": "token", "value": {"type": "name", "value": "burn"}}]}})
    );
    assert_eq!(stoke[1]["per"], json!({"quantity": "that-many"}));
    assert_eq!(stoke[1]["amount"], 1);
    // Steps in order: the block's own effects, then each `then` in turn.
    let cinders = &document["cards"][4]["body"]["fields"][0]["body"];
    assert_eq!(cinders["effects"][0]["symbol"], "damage");
    let steps: Vec<&Value> =
        cinders["then"].as_array().expect("steps").iter().map(|s| &s["effects"][0]["symbol"]).collect();
    assert_eq!(steps, ["card", "heal"]);
    // A condition over keyword presence names the keyword as a value.
    let pierce = &document["cards"][5]["body"]["fields"][0]["body"]["conditions"][0]["condition"];
    assert_eq!(pierce["args"][0]["value"], json!({"type": "keyword", "value": {"id": "warded", "args": []}}));
    // A keyword's condition may take the keyword's own parameter.
    let searing = &document["ruleset"]["keywords"][2]["effects"][0]["when"];
    assert_eq!(searing, &json!({"id": "target-has", "args": [{"param": "token"}]}));
    // The built-in range condition is exported as before.
    assert_eq!(cast["conditions"][3]["condition"], json!({"type": "range", "from": "far", "to": null, "open": true}));
}

#[test]
fn a_face_prints_a_declared_condition_with_its_values_in_place() {
    let outcome = check_folder(GAME);
    assert_eq!(outcome.stats.errors, 0);
    let game = &outcome.project.games[0];
    let (view, _) = Viewer::new(game).card(&game.cards[0], None, 1);
    let cast = &view.fields["cast"][0];
    let texts: Vec<&str> = cast.body.as_ref().expect("a block").conditions.iter().map(|c| c.text.as_str()).collect();
    // The enum value prints its label, the arc and the tag their names.
    assert_eq!(texts, ["if the target has a Burn token", "in the Fore arc", "if this card is Primary", "Far+"]);
    // A keyword prints its name.
    let (view, _) = Viewer::new(game).card(&game.cards[5], None, 1);
    let conditions = &view.fields["cast"][0].body.as_ref().expect("a block").conditions;
    assert_eq!(conditions[0].text, "if the target is Warded");
}

/// The printed words of a rich line, icons as `{id}`.
fn words(runs: &[Run]) -> String {
    runs.iter()
        .map(|run| match run {
            Run::Text { text, .. } | Run::Badge { text, .. } => text.clone(),
            Run::Icon { id, .. } => format!("{{{id}}}"),
        })
        .collect()
}

#[test]
fn a_face_prints_an_amount_that_depends_on_the_game_with_its_quantity() {
    let outcome = check_folder(GAME);
    let game = &outcome.project.games[0];
    let (view, table) = Viewer::new(game).card(&game.cards[3], None, 1);
    let effects = &view.fields["cast"][0].body.as_ref().expect("a block").effects;
    let printed: Vec<String> = effects.iter().map(|e| words(table.runs(*e))).collect();
    assert_eq!(printed, ["Strike 1{damage} for each Burn token on the target", "Draw that many {card}"]);
}

#[test]
fn a_face_prints_each_then_step_after_the_effects_it_follows() {
    let outcome = check_folder(GAME);
    let game = &outcome.project.games[0];
    let (view, table) = Viewer::new(game).card(&game.cards[4], None, 1);
    let cast = &view.fields["cast"][0];
    let paras: Vec<String> = cast.paras.iter().map(|p| words(table.runs(*p))).collect();
    assert_eq!(paras, ["Strike 2{damage}", "Then: Draw 1{card}", "Then: Mend 1{heal}"]);
}

#[test]
fn a_face_prints_a_choice_as_its_options_joined_by_or() {
    let outcome = check_folder(GAME);
    let game = &outcome.project.games[0];
    let (view, table) = Viewer::new(game).card(&game.cards[2], None, 1);
    let cast = &view.fields["cast"][0];
    let choices = &cast.body.as_ref().expect("a block").choices;
    assert_eq!(choices.len(), 1);
    assert_eq!(words(table.runs(choices[0])), "Strike 3{damage} or (Mend 2{heal}, Strike 1{damage})");
    // The field's paragraphs, which generic faces print, end with it.
    assert_eq!(cast.paras.last().map(|p| words(table.runs(*p))), Some(words(table.runs(choices[0]))));
}

/// The text states the base amount plus a conditional bonus: with the
/// condition declared, the card checks without a text/structure warning;
/// a text that states an amount no effect gives still gets one.
#[test]
fn text_lints_read_declared_conditions_without_false_alarms() {
    let outcome = check_folder(GAME);
    let mismatches = outcome.diagnostics.iter().filter(|d| d.code.id == "L0001").count();
    assert_eq!(mismatches, 0, "{:?}", outcome.diagnostics);
    let cards = std::fs::read_to_string(repo().join(GAME).join("spells.cards")).expect("cards");
    let rules = std::fs::read_to_string(repo().join(GAME).join("ember-duel.rules")).expect("rules");
    let mut workspace = cardsmith::workspace::Workspace::new();
    workspace.add_text("ember-duel.rules", &rules);
    workspace.add_text("spells.cards", &cards.replace("or 4 {damage}", "or 5 {damage}"));
    let outcome = workspace.check();
    let mismatch = outcome.diagnostics.iter().find(|d| d.code.id == "L0001").expect("the wrong amount is reported");
    assert!(mismatch.message.contains("5 damage"), "{}", mismatch.message);
}

/// A custom keyword's text states what its declared effect deals: no
/// warning.  Without the declared effect, or with another argument, the
/// stated amount is one no effect of the card gives.
#[test]
fn text_lints_read_what_a_custom_keyword_declares_it_does() {
    let cards = std::fs::read_to_string(repo().join(GAME).join("spells.cards")).expect("cards");
    let rules = std::fs::read_to_string(repo().join(GAME).join("ember-duel.rules")).expect("rules");
    let mismatches = |rules: &str, cards: &str| {
        let mut workspace = cardsmith::workspace::Workspace::new();
        workspace.add_text("ember-duel.rules", rules);
        workspace.add_text("spells.cards", cards);
        let outcome = workspace.check();
        assert_eq!(outcome.stats.errors, 0, "{:?}", outcome.diagnostics);
        outcome.diagnostics.iter().filter(|d| d.code.id == "L0001").map(|d| d.message.clone()).collect::<Vec<_>>()
    };
    assert_eq!(mismatches(&rules, &cards), Vec::<String>::new());
    let said = |n: i64| format!("the text of `Flare` says `{n} {{damage}}` but no effect of the card is {n} damage");
    let undeclared = rules.replace("  effect strike damage heat\n", "");
    assert_eq!(mismatches(&undeclared, &cards), [said(3), said(5)], "the bonus alone is 2");
    let other_heat = cards.replace("blaze(3)", "blaze(2)");
    assert_eq!(mismatches(&rules, &other_heat), [said(3), said(5)], "2, and 4 with the bonus");
    let unconditional = rules.replace("  when target-has burn { effect strike damage +2 }\n", "");
    assert_eq!(mismatches(&unconditional, &cards), [said(5)]);
}

/// A word a declared condition or quantity uses is a term of the game: the
/// terminology lint does not take it for the short form of a symbol's name
/// (`burn` for "Resource Burn") and offers no fix that would rewrite it.
#[test]
fn words_of_declared_conditions_are_no_short_forms_of_symbols() {
    let rules = |extra: &str| {
        format!(
            "ruleset embers {{ title \"Embers\" }}\nsymbol fire \"Resource Burn\"\nrole strike \"Strike\"\n{extra}\n\
             kind spell \"Spell\" {{\n  roles strike\n  field cast effects\n  field text text\n}}\n"
        )
    };
    let cards = "game embers\n\nspell \"Scald\" {\n  cast { strike fire 1 }\n  text \"Deal 1 {fire} to a target with a burn token.\"\n}\n";
    let drifts = |rules: &str| {
        let mut workspace = cardsmith::workspace::Workspace::new();
        workspace.add_text("embers.rules", rules);
        workspace.add_text("spells.cards", cards);
        let outcome = workspace.check();
        assert_eq!(outcome.stats.errors, 0, "{:?}", outcome.diagnostics);
        outcome.diagnostics.iter().filter(|d| d.code.id == "L0005").count()
    };
    assert_eq!(drifts(&rules("")), 1, "without the condition, `burn` reads as a short form");
    assert_eq!(drifts(&rules("condition burning \"if the target has a burn token\"")), 0);
    assert_eq!(drifts(&rules("quantity burns \"for each burn token\"")), 0);
}

/// A field an effect block declares keeps its name when the name is also
/// a construct's word (`choose`, `then`): rulesets written before the
/// constructs check as they did.
#[test]
fn a_declared_field_named_like_a_construct_stays_a_field() {
    let rules = "ruleset picks { title \"Picks\" }\nsymbol coin \"Coin\"\nrole gain \"Gain\"\n\
                 kind deal \"Deal\" {\n  roles gain\n  field offer {\n    body effects\n    field choose text\n  }\n}\n";
    let cards = "game picks\n\ndeal \"Bargain\" {\n  offer {\n    gain coin 2\n    choose \"one of the two\"\n  }\n}\n";
    let mut workspace = cardsmith::workspace::Workspace::new();
    workspace.add_text("picks.rules", rules);
    workspace.add_text("deals.cards", cards);
    let outcome = workspace.check();
    assert_eq!(outcome.stats.errors, 0, "{:?}", outcome.diagnostics);
    let offer = outcome.project.games[0].cards[0].field("offer").and_then(|f| f.body.as_ref()).expect("a block");
    assert_eq!(offer.fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["choose"]);
    assert!(offer.choices.is_empty());
}
