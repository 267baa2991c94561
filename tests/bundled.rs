//! The bundled cards: they check clean, their decks have the composition the
//! ruleset demands, and their IR holds what the card text says.

use cardsmith::ir::{Game, Initiative, Plus, Value};
mod common;

use cardsmith::workspace::Outcome;
use common::check_folder;

fn game<'a>(outcome: &'a Outcome, id: &str) -> &'a Game {
    outcome.project.games.iter().find(|g| g.ruleset.id == id).expect("game present")
}

#[test]
fn dreadnaught_2e_decks_have_their_composition() {
    let outcome = check_folder("cards/dreadnaught-2e");
    let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
    assert!(outcome.diagnostics.is_empty(), "{rendered}");
    let game = game(&outcome, "dreadnaught-2e");
    let size = |name: &str| -> i64 {
        game.decks.iter().find(|d| d.name == name).expect("deck").cards.iter().map(|e| e.count).sum()
    };
    assert_eq!(size("Kinetic"), 27);
    assert_eq!(size("Armour"), 11);
    assert_eq!(size("Kinetic and Armour"), 40);
    let draw = game.decks.iter().find(|d| d.name == "Kinetic and Armour").expect("draw deck");
    assert!(draw.cards.iter().all(|e| e.card != "Kinetic Battery Control"), "System Cards are set aside");
}

#[test]
fn spinal_railcannon_is_typed_as_printed() {
    let outcome = check_folder("cards/dreadnaught-2e");
    let game = game(&outcome, "dreadnaught-2e");
    let card = game.cards.iter().find(|c| c.name == "Spinal Railcannon").expect("card");
    assert_eq!(card.kind, "offense");
    // The kind is resolved into the ruleset: no lookup by name later.
    assert_eq!(game.ruleset.kind_of(&card.kind).map(|k| k.id.as_str()), Some("offense"));
    assert_eq!(card.tags, vec!["primary", "secondary-weapon"]);
    let arc = card.field("arc").expect("arc");
    assert_eq!(arc.each_value().collect::<Vec<_>>(), vec![&Value::Name("narrow".into())]);
    // Every value keeps where it is written.
    assert_eq!(outcome.files.text(arc.values[0].span), "narrow");
    let at = card.field("at").expect("at");
    assert_eq!(at.each_value().collect::<Vec<_>>(), vec![&Value::Initiative(Initiative::Step(24))]);
    assert_eq!(outcome.files.text(at.values[0].span), "2.4");
    let body = at.body.as_ref().expect("effects");
    let effects: Vec<(&str, &str, i64, Plus)> =
        body.effects.iter().map(|e| (e.role.as_str(), e.symbol.as_str(), e.amount, e.plus)).collect();
    assert_eq!(effects, vec![("impact", "damage", 8, Plus::After), ("cost", "damage", 2, Plus::None)]);
    let bonus = &body.conditions[0];
    assert_eq!(bonus.body.effects[0].plus, Plus::Before);
    let keywords = card.field("keywords").expect("keywords");
    let [keyword] = keywords.values.as_slice() else { panic!("one keyword: {:?}", keywords.values) };
    let Value::Keyword { id, args } = &keyword.value else { panic!("a keyword: {keyword:?}") };
    assert_eq!(id, "unstoppable");
    assert_eq!(args.iter().map(|a| &a.value).collect::<Vec<_>>(), vec![&Value::Name("damage".into())]);
    assert_eq!(outcome.files.text(keyword.span), "unstoppable(damage)");
    assert_eq!(outcome.files.text(args[0].span), "damage");
}
