//! Rules are data: a ruleset written here, with no Rust change, gives a
//! bundled game a kind whose enum values print with the ruleset's labels.
//! How new keywords, kinds and house rules are checked is shown by the UI
//! cases `tests/ui/house-rule*/` and `tests/ui/enum-value-with-two-labels.rules`.

use std::process::Command;

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
    // The label, not the id; a value without one prints as its id made
    // readable (`raw` as "Raw").
    assert!(preview.contains(">Mirror Gloss<"), "no label on the face");
    assert!(!preview.contains(">gloss<"), "the raw id printed");
    assert!(preview.contains(">Raw<"), "a value without a label went missing");
}
