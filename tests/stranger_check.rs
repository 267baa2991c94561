//! `check` on a project from a stranger: decks that include one another in a
//! circle are an error at the lines that close it, and a deck that would
//! hold more lines than a deck may, its included decks added in, is refused
//! before it is built, however small its file.

mod common;
use common::{cardsmith, stderr};

use std::path::Path;
use std::time::{Duration, Instant};

const RULESET: &str = "ruleset chains {\n  title \"Chains\"\n}\n\nkind token \"Token\" {\n  field worth int\n}\n\n\
                       deck-type pile \"Pile\" {\n  includes pile\n}\n";

const BEAD: &str = "game chains\n\ntoken \"Bead\" {\n  worth 1\n}\n";

fn project(dir: &Path, decks: &str) {
    std::fs::write(dir.join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    std::fs::create_dir_all(dir.join("cards")).expect("cards");
    std::fs::write(dir.join("cards/chains.rules"), RULESET).expect("ruleset");
    std::fs::write(dir.join("cards/decks.cards"), format!("{BEAD}{decks}")).expect("cards");
}

/// Runs `args` promptly, giving the exit code and what it said.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let started = Instant::now();
    let output = cardsmith(args, dir);
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    (output.status.code(), stderr(&output))
}

#[test]
fn decks_that_include_each_other_are_an_error_at_each_line_that_closes_the_circle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let decks = "\ndeck \"Ring\" pile {\n  card \"Bead\" x2\n  deck \"Loop\"\n}\n\n\
                 deck \"Loop\" pile {\n  card \"Bead\"\n  deck \"Ring\"\n}\n";
    project(dir.path(), decks);
    let (code, said) = run(dir.path(), &["build"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("error[E0408]: deck `Ring` includes itself"), "{said}");
    assert!(said.contains("this inclusion leads back to the deck: `Ring` → `Loop` → `Ring`"), "{said}");
    assert!(said.contains("error[E0408]: deck `Loop` includes itself"), "{said}");
    assert!(said.contains("2 errors, 0 warnings"), "one error a deck, nothing else: {said}");
    assert!(!dir.path().join("out").exists(), "nothing is written");
}

#[test]
fn a_deck_that_includes_itself_is_an_error_at_that_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path(), "\ndeck \"Knot\" pile {\n  card \"Bead\"\n  deck \"Knot\"\n}\n");
    let (code, said) = run(dir.path(), &["check"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("error[E0408]: deck `Knot` includes itself"), "{said}");
    assert!(said.contains("decks.cards:9:8"), "{said}");
}

/// Decks `D0` (one card) to `Dn`, each listing the one before ten times.
fn tenfold(levels: usize) -> String {
    let mut decks = String::from("\ndeck \"D0\" pile {\n  card \"Bead\"\n}\n");
    for level in 1..=levels {
        let lines = format!("  deck \"D{}\"\n", level - 1).repeat(10);
        decks.push_str(&format!("\ndeck \"D{level}\" pile {{\n{lines}}}\n"));
    }
    decks
}

#[test]
fn a_deck_of_a_hundred_million_lines_from_a_kilobyte_is_refused_before_it_is_built() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path(), &tenfold(8));
    let (code, said) = run(dir.path(), &["build"]);
    assert_eq!(code, Some(1), "{said}");
    // Dk holds 10 × (1 + what D(k-1) holds): each include line counts.
    let d8 = "error[E0409]: deck `D8` holds 211111110 lines once its included decks are added in";
    assert!(said.contains(d8), "{said}");
    assert!(said.contains("a deck holds at most 100000 lines"), "{said}");
    // D5 to D8 are past the limit; D4 holds 21,110.
    assert!(said.contains("4 errors, 0 warnings"), "{said}");
}

#[test]
fn a_deck_that_lists_another_several_times_is_counted_in_full() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path(), &tenfold(2));
    let (code, said) = run(dir.path(), &["build"]);
    assert_eq!(code, Some(0), "{said}");
    let data = std::fs::read_to_string(dir.path().join("out/chains.json")).expect("engine data");
    let data: serde_json::Value = serde_json::from_str(&data).expect("json");
    let d2 = data["decks"].as_array().and_then(|d| d.iter().find(|d| d["name"] == "D2")).expect("D2");
    assert_eq!(d2["cards"][0]["count"], 100, "{d2}");
}

/// A project of the chains ruleset with `defs` added and one deck rule.
fn rules_project(dir: &Path, defs: &str, rule: &str) {
    project(dir, "\ndeck \"Single\" pile {\n  card \"Bead\"\n}\n");
    let ruleset = RULESET.replace(
        "deck-type pile \"Pile\" {\n",
        &format!("{defs}\ndeck-type pile \"Pile\" {{\n  require \"the rule\" {rule}\n"),
    );
    std::fs::write(dir.join("cards/chains.rules"), ruleset).expect("ruleset");
}

#[test]
fn a_rule_whose_definitions_double_at_every_level_is_refused_before_it_is_built() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 2^30 nodes if it were built.
    let rule = format!("{}1{} > 0", "f(".repeat(30), ")".repeat(30));
    rules_project(dir.path(), "def f(n) n + n\n", &rule);
    let (code, said) = run(dir.path(), &["check"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("error[E0425]: the rule expands to more than 100000 nodes of expression"), "{said}");
    assert!(said.contains("1 error, 0 warnings"), "{said}");
}

#[test]
fn a_rule_of_definitions_within_the_limits_holds() {
    let dir = tempfile::tempdir().expect("temp dir");
    rules_project(dir.path(), "def f(n) n + n\n", "f(f(f(count()))) == 8");
    let (code, said) = run(dir.path(), &["check"]);
    assert_eq!(code, Some(0), "{said}");
}

#[test]
fn many_definitions_are_read_in_time_in_line_with_their_number() {
    let dir = tempfile::tempdir().expect("temp dir");
    let defs: String = (0..20_000).map(|i| format!("def d{i}(n) n + {i}\n")).collect();
    rules_project(dir.path(), &defs, "d19999(count()) > 0");
    let (code, said) = run(dir.path(), &["check"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("19999 warnings"), "every other definition is unused: {said}");
}

#[test]
fn decks_that_each_list_all_the_others_many_times_are_walked_within_the_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Circles everywhere: every path of eight decks that repeats none
    // would be walked, 9 × 10 lines at each step.
    let mut decks = String::new();
    for deck in 0..10 {
        let lines: String = (0..10).filter(|d| *d != deck).map(|d| format!("  deck \"D{d}\"\n").repeat(10)).collect();
        decks.push_str(&format!("\ndeck \"D{deck}\" pile {{\n  card \"Bead\"\n{lines}}}\n"));
    }
    project(dir.path(), &decks);
    let (code, said) = run(dir.path(), &["check"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("error[E0409]: deck `D0` holds"), "{said}");
    assert!(said.contains("10 errors, 0 warnings"), "one error a deck: {said}");
}
