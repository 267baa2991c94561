//! What a project from a stranger costs the checker: small inputs that
//! once filled the memory or ran for minutes (decks including decks many
//! times over, definitions calling definitions, long definition tables)
//! are refused or checked promptly, through the real binary, each with the
//! diagnostic that says what is wrong.

mod common;

use std::process::Output;
use std::time::{Duration, Instant};

/// The longest a refused attack may take, generously: once, these ran past
/// 30 s or aborted for want of memory.
const PROMPTLY: Duration = Duration::from_secs(5);

/// A ruleset of one kind and one deck type that includes its own type.
const PILES: &str = "ruleset piles {\n  title \"Piles\"\n}\n\nkind token \"Token\" {\n  field worth int\n}\n\n\
                     deck-type pile \"Pile\" {\n  includes pile\n  require \"small piles\" count() <= 100000\n}\n";

/// Writes `files` into a new folder and runs `args` there, timed.
fn run_in(files: &[(&str, String)], args: &[&str]) -> (Output, Duration, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temporary folder");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("written");
    }
    let started = Instant::now();
    let output = common::cardsmith(args, dir.path());
    (output, started.elapsed(), dir)
}

fn said(output: &Output) -> String {
    format!("{}{}", common::stderr(output), String::from_utf8_lossy(&output.stdout))
}

/// A card file of the `piles` game: one token, then `decks`.
fn piles(decks: &str) -> String {
    format!("game piles\n\ntoken \"T\" {{\n  worth 1\n}}\n\n{decks}")
}

/// Deck `D0` lists the token `base` times; each deck `D1` … up to
/// `levels` lists the one before it `times` times.
fn chain_of_decks(base: usize, levels: usize, times: usize) -> String {
    let mut decks = format!("deck \"D0\" pile {{\n{}}}\n", "  card \"T\"\n".repeat(base));
    for level in 1..=levels {
        decks.push_str(&format!(
            "\ndeck \"D{level}\" pile {{\n{}}}\n",
            format!("  deck \"D{}\"\n", level - 1).repeat(times)
        ));
    }
    piles(&decks)
}

#[test]
fn decks_that_include_each_other_are_an_error_and_nothing_is_built() {
    let decks = "deck \"D\" pile {\n  card \"T\"\n  deck \"E\"\n}\n\ndeck \"E\" pile {\n  deck \"D\"\n}\n";
    let files = [("piles.rules", PILES.to_string()), ("a.cards", piles(decks))];
    let (output, took, dir) = run_in(&files, &["build", "."]);
    let said = said(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("error[E0408]: decks include each other in a cycle: `D` → `E` → `D`"), "{said}");
    assert_eq!(said.matches("error[").count(), 1, "one mistake, one message:\n{said}");
    assert!(!dir.path().join("out").exists(), "engine data was written for a cycle");
    assert!(took < PROMPTLY, "took {took:?}");
}

#[test]
fn a_deck_that_includes_itself_is_the_same_error() {
    let files = [("piles.rules", PILES.to_string()), ("a.cards", piles("deck \"S\" pile {\n  deck \"S\"\n}\n"))];
    let (output, _, _dir) = run_in(&files, &["check", "."]);
    let said = said(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("error[E0408]: deck `S` includes itself"), "{said}");
}

/// 1.2 KB: eight decks, each listing the one before ten times, 10^8 cards
/// in the last.  It once took 6.9 GB and aborted.
#[test]
fn eight_decks_each_listing_the_last_ten_times_are_refused_promptly() {
    let attack = chain_of_decks(10, 7, 10);
    assert!(attack.len() < 1300, "{} bytes", attack.len());
    let files = [("piles.rules", PILES.to_string()), ("a.cards", attack)];
    let (output, took, _dir) = run_in(&files, &["check", "."]);
    let said = said(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("error[E0409]: deck `D4` holds 111,110 cards; a deck holds at most 100,000"), "{said}");
    // The decks including `D4` are too large because of it: one report.
    assert_eq!(said.matches("error[").count(), 1, "{said}");
    assert!(took < PROMPTLY, "took {took:?}");
}

/// The same shape within the limit: 80,000 cards and 11,110 inclusions in
/// the largest deck.
#[test]
fn a_deck_of_eighty_thousand_cards_through_includes_checks_clean() {
    let files = [("piles.rules", PILES.to_string()), ("a.cards", chain_of_decks(8, 4, 10))];
    let (output, took, dir) = run_in(&files, &["build", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", said(&output));
    let data = std::fs::read_to_string(dir.path().join("out/piles.json")).expect("engine data");
    assert!(data.contains("\"count\": 80000"), "the largest deck holds every copy");
    assert!(took < PROMPTLY, "took {took:?}");
}

/// A ruleset of one kind whose one deck type's rule is `rule`, after `defs`.
fn rules_with(defs: &str, rule: &str) -> String {
    format!(
        "ruleset piles {{\n  title \"Piles\"\n}}\n\nkind token \"Token\" {{\n  field worth int\n}}\n\n{defs}\n\
         deck-type pile \"Pile\" {{\n  require \"the rule\" {rule}\n}}\n"
    )
}

fn check_rules(defs: &str, rule: &str) -> (Output, Duration) {
    let files = [("piles.rules", rules_with(defs, rule)), ("a.cards", piles("deck \"P\" pile {\n  card \"T\"\n}\n"))];
    let (output, took, _dir) = run_in(&files, &["check", "."]);
    (output, took)
}

/// `f(f(…f(1)…))` thirty deep, `def f(n) n + n`: thirty calls, but a
/// tree of 2^30 ones.  It once ran past 30 s.
#[test]
fn definitions_nested_in_arguments_thirty_deep_are_refused_promptly() {
    let rule = format!("count() <= {}1{}", "f(".repeat(30), ")".repeat(30));
    let (output, took) = check_rules("def f(n) n + n\n", &rule);
    let said = said(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("error[E0428]: the rule grows past 100,000 parts"), "{said}");
    assert!(said.contains("1 error, 0 warnings"), "one mistake, one message: {said}");
    assert!(took < PROMPTLY, "took {took:?}");
}

/// Definitions that each call the one before twice, thirty of them: too
/// deep, said once, and none of them called unused.
#[test]
fn a_chain_of_thirty_definitions_is_one_error() {
    let mut defs = String::from("def f0(n) n + n\n");
    for level in 1..30 {
        defs.push_str(&format!("def f{level}(n) f{0}(n) + f{0}(n)\n", level - 1));
    }
    let (output, took) = check_rules(&defs, "count() <= f29(1)");
    let said = said(&output);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("error[E0425]: definitions use definitions more than 8 deep"), "{said}");
    assert!(said.contains("1 error, 0 warnings"), "{said}");
    assert!(took < PROMPTLY, "took {took:?}");
}

/// Twelve levels of the same doubling stay within the limit, and hold.
#[test]
fn definitions_nested_twelve_deep_check_clean() {
    let rule = format!("count() <= {}1{}", "f(".repeat(12), ")".repeat(12));
    let (output, _) = check_rules("def f(n) n + n\n", &rule);
    assert_eq!(output.status.code(), Some(0), "{}", said(&output));
}

/// 20,000 definitions, each found by name: once each was looked for among
/// all those before it.
#[test]
fn twenty_thousand_definitions_check_in_time_in_line_with_their_number() {
    let defs: String = (0..20_000).map(|i| format!("def d{i}(n) count() >= n\n")).collect();
    let (output, took) = check_rules(&defs, "d19999(1)");
    let said = said(&output);
    assert_eq!(output.status.code(), Some(0), "{said}");
    assert!(said.contains("19999 warnings"), "every other definition is unused: {said}");
    assert!(took < PROMPTLY, "took {took:?}");
}

/// A deck listing another several times holds its cards as often.
#[test]
fn a_deck_that_lists_another_several_times_is_counted_in_full() {
    let files = [("piles.rules", PILES.to_string()), ("a.cards", chain_of_decks(1, 2, 10))];
    let (output, _, dir) = run_in(&files, &["build", "."]);
    assert_eq!(output.status.code(), Some(0), "{}", said(&output));
    let data = std::fs::read_to_string(dir.path().join("out/piles.json")).expect("engine data");
    let data: serde_json::Value = serde_json::from_str(&data).expect("json");
    let d2 = data["decks"].as_array().and_then(|d| d.iter().find(|d| d["name"] == "D2")).expect("D2");
    assert_eq!(d2["cards"][0]["count"], 100, "{d2}");
}

/// A definition called inside its own argument, within the limits, holds.
#[test]
fn a_rule_of_definitions_within_the_limits_holds() {
    let (output, _) = check_rules("def f(n) n + n\n", "f(f(f(count()))) == 8");
    assert_eq!(output.status.code(), Some(0), "{}", said(&output));
}
