//! The order of `examples/vanguard-aces`, a miniatures skirmish that is none
//! of the bundled games: two phases follow one initiative scale in opposite
//! directions, each with its own ties, one of them decided by the player who
//! has initiative.  Breaking each of its order rules — one edit to a copy of
//! the project — gives that rule's diagnostic, and the timeline of a round
//! of two whole squadrons is the one its ruleset describes.

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

#[test]
fn the_example_checks_clean() {
    let dir = example_project("vanguard-aces");
    let check = cardsmith(&["check"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(stderr(&check).contains("0 errors, 0 warnings"), "{}", stderr(&check));
}

#[test]
fn a_whole_number_initiative_refuses_a_tenth() {
    let dir = edited(PILOTS, "initiative 5\n", "initiative 5.4\n");
    let found = diagnostics(dir.path());
    assert_eq!(found, ["error[E0304]: initiative `5.4` is not on the scale"], "{found:?}");
    let check = cardsmith(&["check"], dir.path());
    assert!(stderr(&check).contains("this game's initiative is a whole number: write `5`"), "{}", stderr(&check));
}

#[test]
fn an_initiative_off_the_scale_is_refused() {
    let found = diagnostics(edited(PILOTS, "initiative 6\n", "initiative 7\n").path());
    assert_eq!(found, ["error[E0304]: initiative `7` is not on the scale"], "{found:?}");
}

#[test]
fn a_phase_in_no_order_of_the_scale_is_refused() {
    let found = diagnostics(edited(RULES, "initiative highest-first", "initiative high-first").path());
    assert_eq!(found, ["error[E0120]: a phase follows the scale `lowest-first` or `highest-first`"], "{found:?}");
}

#[test]
fn a_player_choice_with_players_still_tied_is_refused() {
    let found = diagnostics(edited(RULES, "    has-initiative\n", "").path());
    assert_eq!(
        found,
        ["error[E0122]: `player-chooses` leaves plays of two players tied with no one to order them"],
        "{found:?}"
    );
}

#[test]
fn a_phase_list_without_an_outcome_is_refused() {
    let found = diagnostics(edited(RULES, "    player-chooses\n", "").path());
    assert_eq!(found, ["error[E0122]: the tie-break list does not say what happens to a tie left"], "{found:?}");
}

#[test]
fn a_printed_step_without_its_value_is_refused() {
    let found = diagnostics(edited(RULES, "printed \"Initiative {}\"", "printed \"Initiative\"").path());
    assert_eq!(found, ["error[E0120]: a printed form holds `{}` once, where the value goes"], "{found:?}");
}

#[test]
fn a_squadron_over_its_points_is_refused() {
    let found = diagnostics(edited(PILOTS, "  cost 16\n", "  cost 36\n").path());
    assert_eq!(
        found,
        ["error[E0401]: deck `Blue Wing` breaks a rule: a squadron costs at most its points"],
        "{found:?}"
    );
}

#[test]
fn a_squadron_of_one_ship_is_refused() {
    let dir = edited(PILOTS, "  card \"Wing Second Vell\"\n  card \"Captain Iseld\"\n", "");
    let found = diagnostics(dir.path());
    assert_eq!(found, ["error[E0401]: deck `Red Wing` breaks a rule: a squadron flies 2 to 6 ships"], "{found:?}");
}

#[test]
fn a_pilot_twice_in_a_squadron_is_warned() {
    let dir = edited(PILOTS, "  card \"Captain Iseld\"\n", "  card \"Captain Iseld\"\n  card \"Cadet Orrin\"\n");
    let found = diagnostics(dir.path());
    assert_eq!(
        found,
        ["warning[W0402]: deck `Red Wing` breaks a rule: a pilot flies at most once in a squadron"],
        "{found:?}"
    );
}

/// A round of the two squadrons, Blue having initiative: ships move from
/// initiative 1 up, Blue's first and in the order Blue chooses; they fire
/// from 6 down, ships of one initiative at the same time.
#[test]
fn the_timeline_of_two_squadrons_is_a_whole_round() {
    let dir = example_project("vanguard-aces");
    let args = ["timeline", "--deck", "red:Red Wing", "--deck", "blue:Blue Wing", "--initiative", "blue"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let expected = "\
vanguard-aces: red plays Cadet Orrin, Wing Second Vell, Captain Iseld; blue plays Gunner Maro, Ace Tamsin, Warden Kel

Activation, Initiative 1
   1  red       Cadet Orrin (pilot)
        initiative 1

Activation, Initiative 3
   1~ blue      Gunner Maro (pilot)
        initiative 3
   1~ blue      Warden Kel (pilot)
        initiative 3
   2  red       Wing Second Vell (pilot)  [tie-break: has-initiative]
        initiative 3

Activation, Initiative 5
   1  red       Captain Iseld (pilot)
        initiative 5

Activation, Initiative 6
   1  blue      Ace Tamsin (pilot)
        initiative 6

Engagement, Initiative 6
   1  blue      Ace Tamsin (pilot)
        initiative 6

Engagement, Initiative 5
   1  red       Captain Iseld (pilot)
        initiative 5

Engagement, Initiative 3
   1= red       Wing Second Vell (pilot)
        initiative 3
   1= blue      Gunner Maro (pilot)
        initiative 3
   1= blue      Warden Kel (pilot)
        initiative 3

Engagement, Initiative 1
   1  red       Cadet Orrin (pilot)
        initiative 1

= resolve at the same time and cannot affect each other

~ tied: their player plays them in the order they choose
";
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}

/// Red having initiative moves its ship at 3 first; player 1 has it unless
/// the command says.
#[test]
fn the_player_with_initiative_moves_first() {
    let dir = example_project("vanguard-aces");
    let args = ["timeline", "--deck", "red:Red Wing", "--deck", "blue:Blue Wing", "--format", "json"];
    let output = cardsmith(&args, dir.path());
    let timeline: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let step = &timeline["steps"][1];
    assert_eq!(step["step"], "Initiative 3");
    let order: Vec<(&str, bool)> = step["resolutions"]
        .as_array()
        .expect("resolutions")
        .iter()
        .map(|r| (r["card"].as_str().unwrap_or_default(), r["player_orders"].as_bool().unwrap_or(false)))
        .collect();
    assert_eq!(order, [("Wing Second Vell", false), ("Gunner Maro", true), ("Warden Kel", true)]);
}

#[test]
fn a_deck_that_is_not_there_is_named_with_the_closest() {
    let dir = example_project("vanguard-aces");
    let output = cardsmith(&["timeline", "--deck", "red:Red Wig"], dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("no deck is named `Red Wig`"), "{}", stderr(&output));
    assert!(stderr(&output).contains("did you mean `Red Wing`?"), "{}", stderr(&output));
}

/// A rule reads an initiative as the card prints it: `6`, not 60 tenths.
#[test]
fn a_rule_reads_an_initiative_as_printed() {
    let arcs = "  field arcs arc+ required { doc \"The arcs its primary weapon fires in.\" }\n";
    let rule = format!("{arcs}  require \"an initiative of at most 5\" value(initiative, 1) <= 5\n");
    let dir = edited(RULES, arcs, &rule);
    let found = diagnostics(dir.path());
    assert_eq!(found, ["error[E0314]: `Ace Tamsin` breaks a rule: an initiative of at most 5"], "{found:?}");
}
