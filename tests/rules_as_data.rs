//! Rules are data: a ruleset written here, with no Rust change, adds a keyword
//! and a card kind to a bundled game, and cardsmith checks both.

use std::process::Command;

const HOUSE_RULES: &str = r#"
ruleset dreadnaught-2e-ramming {
  title "Dreadnaught 2e with ramming and hull packages"
  extends dreadnaught-2e
}

// A new keyword with a parameter.
keyword ramming "Ramming" {
  param damage int 1..
  only offense
  doc "Moving into the target's hex deals this much damage to both ships."
}

// A new card kind.
kind hull-package "Hull Package" {
  border grey
  roles increase cost
  field theme text required
  field bonus { takes initiative; body effects; many }
  field once-per-game text
}

// A house rule replacing the base game's range table.
range extreme "Extreme" 12..
"#;

const CARDS: &str = r#"game dreadnaught-2e-ramming

offense "Ram Prow" {
  symbol kinetic
  arc forward
  at 2.0 { impact damage 4 }
  keywords ramming(3)
}

hull-package "Reinforced Bow" {
  theme "Built to close the distance."
  bonus 5.0 { increase damage 2 }
}
"#;

const BROKEN: &str = r#"game dreadnaught-2e-ramming

offense "Bad Prow" {
  symbol kinetic
  arc forward
  at 2.0 { impact damage 4 }
  keywords ramming(heavy) raming(2)
}

hull-package "No Theme" {
  bonus 5.0 { impact damage 2 }
}
"#;

fn run(files: &[(&str, &str)]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let output = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .args(["check", "--message-format", "short", "."])
        .current_dir(dir.path())
        .output()
        .expect("runs");
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_new_keyword_and_kind_check_clean_when_used_right() {
    let (code, err) = run(&[("house.rules", HOUSE_RULES), ("ram.cards", CARDS)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("2 cards"), "{err}");
}

#[test]
fn a_new_keyword_and_kind_are_checked_like_built_in_ones() {
    let (code, err) = run(&[("house.rules", HOUSE_RULES), ("ram.cards", BROKEN)]);
    assert_eq!(code, Some(1), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("error[")).collect();
    assert_eq!(
        lines,
        vec![
            "./ram.cards:7:20: error[E0307]: argument `damage` of `ramming`: expected a whole number like `3`, found a name `heavy`",
            "./ram.cards:7:27: error[E0203]: unknown keyword `raming`",
            "./ram.cards:10:1: error[E0302]: Hull Package `No Theme` is missing its `theme`",
            "./ram.cards:11:15: error[E0306]: a Hull Package cannot have impact (black) effects",
        ],
        "{err}"
    );
}

#[test]
fn a_house_rule_replaces_the_base_declaration() {
    let cards = "game dreadnaught-2e-ramming\n\noffense \"Long Shot\" {\n  symbol kinetic\n  arc narrow\n  at 1.0 {\n    impact damage 1\n    when range extreme { impact damage +1 }\n  }\n}\n";
    let (code, err) = run(&[("house.rules", HOUSE_RULES), ("long.cards", cards)]);
    assert_eq!(code, Some(0), "replacing `range extreme` is not a duplicate: {err}");
}

/// A ruleset's enum with printed labels, on a kind of its own.
const LABELLED: &str = r#"
ruleset dreadnaught-2e-finish {
  title "Dreadnaught 2e with hull finishes"
  extends dreadnaught-2e
}

enum finish {
  matte "Matte Black"
  gloss 2 "Mirror Gloss"
  raw
}

kind hull-package "Hull Package" {
  border grey
  field finish finish required
}
"#;

#[test]
fn enum_values_print_their_ruleset_labels() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\".\"]\n").expect("manifest");
    std::fs::write(dir.path().join("finish.rules"), LABELLED).expect("rules");
    let cards = "game dreadnaught-2e-finish\n\nhull-package \"Bright Hull\" {\n  finish gloss\n}\n\n\
                 hull-package \"Bare Hull\" {\n  finish raw\n}\n";
    std::fs::write(dir.path().join("hulls.cards"), cards).expect("cards");
    let output = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .args(["print", "--format", "html"])
        .current_dir(dir.path())
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let preview = std::fs::read_to_string(dir.path().join("print/preview.html")).expect("preview");
    // The label, not the id; a value without one prints as written.
    assert!(preview.contains(">Mirror Gloss<"), "no label on the face");
    assert!(!preview.contains(">gloss<"), "the raw id printed");
    assert!(preview.contains(">raw<"), "a value without a label went missing");

    // A value takes one weight and one label.
    let broken = LABELLED.replace("gloss 2 \"Mirror Gloss\"", "gloss 2 \"Mirror Gloss\" \"Shiny\"");
    let (code, err) = run(&[("finish.rules", &broken), ("hulls.cards", cards)]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("./finish.rules:9:26: error[E0103]"), "{err}");
    assert!(err.contains("enum value `gloss` takes a weight and a label at most"), "{err}");
}
