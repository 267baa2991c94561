//! The manoeuvre dials of `examples/vanguard-aces`: a typed grid of
//! bearings by speeds, each manoeuvre coloured by its difficulty.  Breaking
//! each of its rules — one edit to a copy of the project — gives that rule's
//! diagnostic; the engine data carries the dial; the printed pilot card
//! draws it as a grid whose cells are told apart in black and white.

mod common;

use common::{cardsmith, example_project, stderr};
use std::path::Path;

const RULES: &str = "cards/vanguard-aces.rules";
const PILOTS: &str = "cards/pilots.cards";

/// A copy of the example with `from` replaced by `to` once in `file`.
fn edited(file: &str, from: &str, to: &str) -> tempfile::TempDir {
    common::edited_example("vanguard-aces", file, from, to)
}

fn diagnostics(dir: &Path) -> Vec<String> {
    common::check_messages(dir)
}

/// The dial of Ace Tamsin, a Lancer, written once in the cards.
const TAMSIN: &str = "  cost 16\n  arcs front\n  move 1 straight easy\n  move 2 bank-left easy\n";

#[test]
fn a_manoeuvre_listed_twice_is_refused() {
    let twice = "  cost 16\n  arcs front\n  move 1 straight easy\n  move 1 straight hard\n  move 2 bank-left easy\n";
    let found = diagnostics(edited(PILOTS, TAMSIN, twice).path());
    assert_eq!(
        found,
        ["error[E0319]: `Ace Tamsin` lists the manoeuvre 1 straight of its Manoeuvre Dial twice"],
        "{found:?}"
    );
}

#[test]
fn a_dial_missing_a_speed_is_refused() {
    let found = diagnostics(edited(PILOTS, TAMSIN, "  cost 16\n  arcs front\n  move 2 bank-left easy\n").path());
    assert_eq!(
        found,
        ["error[E0314]: `Ace Tamsin` breaks a rule: a dial has a manoeuvre at each speed from 1 to 4"],
        "{found:?}"
    );
}

#[test]
fn a_dial_that_banks_one_way_only_is_refused() {
    let found = diagnostics(
        edited(
            PILOTS,
            TAMSIN,
            "  cost 16\n  arcs front\n  move 1 straight easy\n  move 2 bank-left easy\n  move 1 bank-left easy\n",
        )
        .path(),
    );
    assert_eq!(
        found,
        ["error[E0314]: `Ace Tamsin` breaks a rule: a dial banks and turns as much to the left as to the right"],
        "{found:?}"
    );
}

#[test]
fn a_dial_of_many_hard_manoeuvres_is_warned() {
    let hard = "  cost 16\n  arcs front\n  move 1 straight hard\n  move 2 bank-left hard\n";
    let edited = edited(PILOTS, TAMSIN, hard);
    let path = edited.path().join(PILOTS);
    let text = std::fs::read_to_string(&path).expect("the copy");
    // Three more hard manoeuvres on Tamsin's dial: five in all.
    let tamsin = text.find("pilot \"Ace Tamsin\"").expect("Tamsin");
    let mut rest = text[tamsin..].to_string();
    for manoeuvre in ["2 straight", "2 bank-right", "3 straight"] {
        rest = rest.replacen(&format!("  move {manoeuvre} easy"), &format!("  move {manoeuvre} hard"), 1);
    }
    std::fs::write(&path, format!("{}{rest}", &text[..tamsin])).expect("edit");
    let found = diagnostics(edited.path());
    assert_eq!(
        found,
        ["warning[W0315]: `Ace Tamsin` breaks a rule: a dial has at most 4 hard manoeuvres"],
        "{found:?}"
    );
}

#[test]
fn a_difficulty_without_a_colour_is_refused() {
    let found = diagnostics(edited(RULES, "  colour hard red\n", "").path());
    assert_eq!(found, ["error[E0134]: dial `manoeuvres` gives no colour to `hard`"], "{found:?}");
}

#[test]
fn a_colour_the_tool_does_not_know_is_refused() {
    let found = diagnostics(edited(RULES, "colour hard red", "colour hard rde").path());
    // One mistake, one message: the difficulty is not also said to have no
    // colour.
    assert_eq!(found, ["error[E0134]: `rde` is not a colour cardsmith knows"], "{found:?}");
}

#[test]
fn a_dial_whose_field_is_not_a_manoeuvre_is_refused() {
    let found = diagnostics(
        edited(RULES, "field move int 1..5 bearing difficulty", "field move int 1.. bearing difficulty").path(),
    );
    assert_eq!(found, ["error[E0134]: the lines of field `move` are not manoeuvres of dial `manoeuvres`"], "{found:?}");
}

#[test]
fn a_dial_function_on_a_field_of_no_dial_is_refused() {
    let found = diagnostics(edited(RULES, "speeds(move) >= 4", "speeds(cost) >= 4").path());
    assert_eq!(found, ["error[E0424]: `cost` is not the field of a dial"], "{found:?}");
}

#[test]
fn the_engine_data_carries_the_dial() {
    let dir = example_project("vanguard-aces");
    let output = cardsmith(&["build", "--out", "out"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = std::fs::read_to_string(dir.path().join("out/vanguard-aces.json")).expect("engine data");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    let dial = &doc["ruleset"]["dials"][0];
    assert_eq!(dial["id"], "manoeuvres");
    assert_eq!(dial["field"], "move");
    assert_eq!(dial["bearings"], "bearing");
    assert_eq!(dial["difficulties"], "difficulty");
    assert_eq!(dial["speeds"], serde_json::json!([1, 5]));
    assert_eq!(dial["colours"]["hard"], "#c0262d");
}

/// Cadet Orrin's dial printed: one cell for each bearing and speed, its
/// manoeuvres filled with their difficulty's colour and marked with its
/// letter, so that red and blue — alike in grey — read apart.
#[test]
fn a_printed_pilot_draws_its_dial_as_a_grid() {
    let dir = example_project("vanguard-aces");
    let output = cardsmith(&["print", "--format", "html", "--out", "out"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stderr(&output).contains("warning["), "{}", stderr(&output));
    let preview = std::fs::read_to_string(dir.path().join("out/preview.html")).expect("preview");
    let at = preview.find("data-name=\"Cadet Orrin\"").expect("Cadet Orrin");
    let face = &preview[at..at + preview[at..].find("</figure>").expect("its end")];
    let cells = |fill: &str| face.matches(&format!("fill=\"{fill}\" stroke=\"#1b1b1b\"")).count();
    // Each difficulty's cells, and its square in the legend.
    assert_eq!(cells("#1f5fae"), 7 + 1, "easy");
    assert_eq!(cells("#ffffff"), 5 + 1, "normal");
    assert_eq!(cells("#c0262d"), 3 + 1, "hard");
    assert_eq!(face.matches("fill=\"#eeeeee\"").count(), 25 - 15, "empty cells");
    for mark in [">E</text>", ">N</text>", ">H</text>"] {
        assert!(face.contains(mark), "{mark} missing");
    }
    // The arc is shaded from the angles the ruleset gives the front arc.
    assert!(face.contains("<path d=\"M34 76L"), "no arc sector drawn");
}

/// A template that passes the list of dials, or a field of no arcs with
/// angles, is told so at the card rather than drawing nothing.
#[test]
fn a_template_drawing_the_wrong_thing_is_told_so() {
    const TEMPLATE: &str = "templates/vanguard-aces/pilot.svg";
    let cases = [
        ("dial(grid=card.dials.0,", "dial(grid=card.dials,", "`dial` draws one dial"),
        (
            "arc(x=34, y=76, r=22, field=card.fields.arcs,",
            "arc(x=34, y=76, r=22, field=card.fields.hull,",
            "no value of this field is an arc",
        ),
    ];
    for (from, to, said) in cases {
        let dir = common::edited_example("vanguard-aces", TEMPLATE, from, to);
        let output = cardsmith(&["print", "--format", "html", "--out", "out"], dir.path());
        assert_eq!(output.status.code(), Some(1), "{to}: {}", stderr(&output));
        assert!(stderr(&output).contains(said), "{to}: {}", stderr(&output));
    }
}

/// A dial's field declared without `many` is one message at the dial,
/// not one on every card for each manoeuvre after its first.
#[test]
fn a_dial_field_without_many_is_one_message() {
    let found = diagnostics(edited(RULES, "bearing difficulty many required", "bearing difficulty required").path());
    assert_eq!(
        found,
        ["error[E0134]: field `move` is given once a card, and a dial has a manoeuvre a line"],
        "{found:?}"
    );
}
