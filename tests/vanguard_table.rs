//! The table of `examples/vanguard-aces`: a 3' by 3' table with a
//! deployment zone for each side, and a scenario that places obstacles by
//! coordinates.  Breaking each of its placement rules — one edit to a copy
//! of the project — gives that rule's diagnostic, and the engine data
//! carries the table and the positions.

mod common;

use common::{cardsmith, example_project, stderr};
use std::path::Path;

const RULES: &str = "cards/vanguard-aces.rules";
const SCENARIO: &str = "cards/scenario.cards";
const PLACED: &str = "at 10,12 at 26,24";

/// A copy of the example with `from` replaced by `to` once in `file`.
fn edited(file: &str, from: &str, to: &str) -> tempfile::TempDir {
    common::edited_example("vanguard-aces", file, from, to)
}

fn diagnostics(dir: &Path) -> Vec<String> {
    common::check_messages(dir)
}

#[test]
fn an_obstacle_too_near_an_edge_is_refused() {
    let found = diagnostics(edited(SCENARIO, PLACED, "at 5,12 at 26,24").path());
    let rule = "error[E0401]: deck `Asteroid Belt` breaks a rule: obstacles lie more than 4 from a table edge";
    assert_eq!(found, [rule], "{found:?}");
}

#[test]
fn obstacles_within_range_1_of_each_other_are_refused() {
    // The Asteroid (2") at 16,10 and the Debris Cloud (3") at 25,10: 4 apart.
    let found = diagnostics(edited(SCENARIO, PLACED, "at 16,10 at 26,24").path());
    let rule = "error[E0401]: deck `Asteroid Belt` breaks a rule: no obstacle lies within Range 1 of another";
    assert_eq!(found, [rule], "{found:?}");
}

#[test]
fn obstacles_crowded_in_one_quarter_are_warned() {
    let found = diagnostics(edited(SCENARIO, PLACED, "at 7,10 at 15,15").path());
    let rule = "warning[W0402]: deck `Asteroid Belt` breaks a rule: each table quarter holds about as many obstacles";
    assert_eq!(found, [rule], "{found:?}");
}

#[test]
fn an_obstacle_in_a_deployment_zone_is_refused() {
    let found = diagnostics(edited(SCENARIO, PLACED, "at 10,7 at 26,24").path());
    assert_eq!(
        found,
        ["error[E0401]: deck `Asteroid Belt` breaks a rule: no obstacle lies in a deployment zone"],
        "{found:?}"
    );
}

#[test]
fn a_deployment_zone_that_is_not_declared_is_refused() {
    let found = diagnostics(edited(RULES, "inside(blue-edge, obstacle)", "inside(blue-egde, obstacle)").path());
    assert_eq!(found, ["error[E0423]: `blue-egde` is not a deployment zone of this ruleset"], "{found:?}");
}

#[test]
fn an_obstacle_off_the_table_is_refused() {
    let found = diagnostics(edited(SCENARIO, PLACED, "at 10,12 at 26,40").path());
    assert_eq!(found, ["error[E0303]: 26,40 is off the table"], "{found:?}");
}

#[test]
fn more_positions_than_copies_are_refused() {
    let found = diagnostics(edited(SCENARIO, PLACED, "at 10,12 at 26,24 at 18,18").path());
    assert_eq!(found, ["error[E0303]: 3 positions for 2 copies"], "{found:?}");
}

#[test]
fn a_position_without_a_table_is_refused() {
    let dir = edited(RULES, "table \"Table\" {", "table-less \"Table\" {");
    let found = diagnostics(dir.path());
    assert!(found.iter().any(|d| d == "error[E0303]: a position on a table this game does not declare"), "{found:?}");
}

#[test]
fn a_deployment_zone_off_the_table_is_refused() {
    let found = diagnostics(edited(RULES, "side blue 0,28 36,36", "side blue 0,28 36,40").path());
    assert_eq!(found, ["error[E0133]: deployment `blue-edge` reaches off the table"], "{found:?}");
}

#[test]
fn a_deployment_zone_of_no_side_is_refused() {
    let found = diagnostics(edited(RULES, "side blue 0,28", "side bleu 0,28").path());
    assert_eq!(found, ["error[E0133]: no side is named `bleu`"], "{found:?}");
}

#[test]
fn the_engine_data_carries_the_table_and_the_positions() {
    let dir = example_project("vanguard-aces");
    let output = cardsmith(&["build", "-o", "out"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = std::fs::read_to_string(dir.path().join("out/vanguard-aces.json")).expect("engine data");
    let document = cardsmith::engine::data::Document::from_json(&text).expect("reads");
    let table = document.ruleset.table.as_ref().expect("a table");
    assert_eq!((table.width, table.depth), (36, 36));
    let zones: Vec<(&str, Option<&str>)> =
        table.deployments.iter().map(|z| (z.id.as_str(), z.side.as_deref())).collect();
    assert_eq!(zones, [("red-edge", Some("red")), ("blue-edge", Some("blue"))]);
    let belt = document.decks.iter().find(|d| d.name == "Asteroid Belt").expect("the scenario");
    let placed = document.placed(belt);
    let at: Vec<(&str, f64, f64, f64)> = placed.iter().map(|(c, p)| (c.name.as_str(), p.x, p.y, p.radius)).collect();
    assert_eq!(
        at,
        [
            ("Asteroid", 10.0, 12.0, 2.0),
            ("Asteroid", 26.0, 24.0, 2.0),
            ("Debris Cloud", 25.0, 10.0, 3.0),
            ("Debris Cloud", 11.0, 25.0, 3.0)
        ]
    );
    assert!(Table::area(&table.deployments[0]).contains(18.0, 2.0));
}

use cardsmith::engine::data::Table;

#[test]
fn an_arc_outside_the_arc_it_lies_within_is_refused() {
    let found = diagnostics(edited(RULES, "angles -10 10 from edge", "angles 30 50 from edge").path());
    assert_eq!(found, ["error[E0103]: arc `bullseye` does not lie within arc `front`"], "{found:?}");
}

#[test]
fn an_at_without_a_position_is_refused() {
    let found = diagnostics(edited(SCENARIO, PLACED, "at 10,12 at").path());
    assert_eq!(found, ["error[E0303]: `at` is followed by a position"], "{found:?}");
}

#[test]
fn an_obstacle_without_a_position_is_refused() {
    let found = diagnostics(edited(SCENARIO, PLACED, "at 10,12").path());
    assert_eq!(
        found,
        ["error[E0401]: deck `Asteroid Belt` breaks a rule: every obstacle of a scenario has its place on the table"],
        "{found:?}"
    );
}
