//! Every lint has a UI case that fires it and a near miss that does not
//! (`tests/ui/lint-*`); `--fix` applies only certain fixes; docs/lints.md is
//! generated.

mod common;

use cardsmith::lint::{Config, Level, LINTS};
use cardsmith::workspace::{Outcome, Workspace};

fn check_with(text: &str, config: Config) -> Outcome {
    let mut workspace = Workspace::new();
    workspace.set_lint_config(config);
    workspace.add_text("lint.cards", text);
    workspace.check()
}

fn all_on() -> Config {
    let mut config = Config::default();
    for lint in LINTS {
        config.levels.insert(lint.name.to_string(), Level::Warn);
    }
    config
}

fn card(name: &str, body: &str) -> String {
    format!("offense \"{name}\" {{\n  symbol kinetic\n  arc standard\n{body}}}\n")
}

const HEAD: &str = "game dreadnaught-2e\n\n";

/// The path (below `tests/ui/`) and first line (`// expect: CODES`) of
/// every input there.
fn ui_expectations() -> Vec<(String, String)> {
    common::contents(&common::repo().join("tests/ui"))
        .into_iter()
        .filter(|(path, _)| path.ends_with(".cards") || path.ends_with(".rules"))
        .map(|(path, bytes)| (path, String::from_utf8_lossy(&bytes).lines().next().unwrap_or("").to_string()))
        .collect()
}

/// Each lint's case and near miss are UI tests (`tests/ui/lint-*`): the
/// input that fires it, with its rendered warning, and one that does not.
#[test]
fn every_lint_has_a_ui_case_that_fires_it_and_a_near_miss() {
    let expectations = ui_expectations();
    for lint in LINTS {
        let fires = expectations.iter().any(|(_, first)| first.split_whitespace().any(|code| code == lint.code.id));
        assert!(fires, "no case in tests/ui fires {} ({})", lint.name, lint.code.id);
        let near_miss = format!("lint-{}-near-miss.cards", lint.name);
        let has_near_miss = expectations.iter().any(|(path, _)| path.ends_with(&near_miss));
        // A lint about a ruleset's declarations has no card to miss with.
        assert!(has_near_miss || lint.name == "rule-is-warning", "no tests/ui/{near_miss}");
    }
}

#[test]
fn text_lints_point_at_the_text_itself() {
    // The unresolved reference: the name inside the text.
    let text = HEAD.to_string() + &card("Strike", "  at 3.5 { impact damage 3 }\n  text \"See *Strik*.\"\n");
    let outcome = check_with(&text, all_on());
    let found = outcome.diagnostics.iter().find(|d| d.code.id == "L0003").expect("unresolved-card-reference");
    let label = found.labels.iter().find(|l| l.primary).expect("a primary label");
    assert_eq!(outcome.files.text(label.span), "*Strik*");
    // Text too long for the card: the text value, not the field's line.
    let long = "Deal 3 {damage}. ".repeat(30);
    let text = HEAD.to_string() + &card("Strike", &format!("  at 3.5 {{ impact damage 3 }}\n  text \"{long}\"\n"));
    let outcome = check_with(&text, all_on());
    let found = outcome.diagnostics.iter().find(|d| d.message.contains("characters")).expect("text-too-long");
    let label = found.labels.iter().find(|l| l.primary).expect("a primary label");
    assert_eq!(outcome.files.text(label.span), format!("\"{long}\""), "the text value, quotes and all");
}

#[test]
fn fixes_are_only_the_certain_ones() {
    let text = HEAD.to_string()
        + &card(
            "Burner",
            "  at 3.5 { impact burn 1; impact damage 2 }\n  text \"Inflict 1 burn and 3 {damage}. UNSTOPPABLE.\"\n",
        );
    let outcome = check_with(&text, all_on());
    let fixed = cardsmith::lint::apply_fixes(&outcome.files.get(cardsmith::source::FileId(0)).text, &outcome.fixes);
    assert!(fixed.contains("text \"Inflict 1 Resource Burn and 3 {damage}. Unstoppable.\""), "{fixed}");
    assert_eq!(outcome.fixes.len(), 2, "the damage mismatch has no certain fix");
}

#[test]
fn lints_md_is_generated_from_the_definitions() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lints.md");
    let expected = cardsmith::lint::docs_markdown();
    if std::env::var_os("CARDSMITH_WRITE_DOCS").is_some() {
        std::fs::write(&path, &expected).expect("write docs/lints.md");
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(actual == expected, "docs/lints.md is stale: run `CARDSMITH_WRITE_DOCS=1 cargo test --test lints`");
}
