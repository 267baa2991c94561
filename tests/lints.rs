//! Every lint fires on the case made for it and stays quiet on its near miss;
//! `--fix` applies only certain fixes; docs/lints.md is generated.

use cardsmith::lint::{Config, Level, LINTS};
use cardsmith::workspace::{Outcome, Workspace};

fn check_with(text: &str, config: Config) -> Outcome {
    let mut workspace = Workspace::new();
    workspace.set_lint_config(config);
    workspace.add_text("lint.cards", text);
    workspace.check()
}

fn codes(text: &str, config: Config) -> Vec<&'static str> {
    check_with(text, config).diagnostics.iter().map(|d| d.code.id).collect()
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

/// (lint code, input that fires it, near miss that does not)
fn cases() -> Vec<(&'static str, String, String)> {
    let strike = |text: &str| card("Strike", &format!("  at 3.5 {{ impact damage 3 }}\n  text \"{text}\"\n"));
    vec![
        ("L0001", HEAD.to_string() + &strike("Deal 4 {damage}."), HEAD.to_string() + &strike("Deal 3 {damage}.")),
        (
            "L0001",
            HEAD.to_string()
                + &card("Burner", "  at 3.5 { impact damage 3; impact burn 1 }\n  text \"Deal 3 {damage}.\"\n"),
            HEAD.to_string()
                + &card(
                    "Burner",
                    "  at 3.5 { impact damage 3; impact burn 1 }\n  text \"Deal 3 {damage} and 1 {burn}.\"\n",
                ),
        ),
        (
            "L0002",
            HEAD.to_string() + &strike("Deal 3 {damage}. remains in play."),
            HEAD.to_string() + &strike("Deal 3 {damage}. Remains in Play."),
        ),
        (
            "L0003",
            HEAD.to_string() + &strike("Deal 3 {damage}. See *Strik*."),
            HEAD.to_string() + &strike("Deal 3 {damage}. See *Strike*."),
        ),
        (
            "L0004",
            HEAD.to_string() + &strike("Deal 3 {damage}.") + &card("Strikes", "  at 3.5 { impact damage 3 }\n"),
            HEAD.to_string()
                + &strike("Deal 3 {damage}.")
                + &card("Strikes", "  allow near-duplicate-names\n  at 3.5 { impact damage 3 }\n"),
        ),
        (
            "L0005",
            HEAD.to_string() + &card("Burner", "  at 3.5 { impact burn 1 }\n  text \"Inflict 1 burn.\"\n"),
            HEAD.to_string() + &card("Burner", "  at 3.5 { impact burn 1 }\n  text \"Inflict 1 Resource Burn.\"\n"),
        ),
        (
            "L0006",
            HEAD.to_string() + &card("Loader", "  overload { cost damage 1; impact damage +1 }\n"),
            HEAD.to_string()
                + &card("Loader", "  at 1.0 { impact damage 1 }\n  overload { cost damage 1; impact damage +1 }\n"),
        ),
        (
            "L0007",
            HEAD.to_string() + &card("Flak", "  at 3.5 { reduction damage 2 }\n"),
            HEAD.to_string() + &card("Flak", "  allow unusual-role\n  at 3.5 { reduction damage 2 }\n"),
        ),
        (
            "L0008",
            HEAD.to_string() + &card("Suicide Run", "  at 3.5 { impact damage 9; cost damage 30 }\n"),
            HEAD.to_string() + &card("Suicide Run", "  at 3.5 { impact damage 9; cost damage 3 }\n"),
        ),
        (
            "L0009",
            HEAD.to_string() + &strike(&format!("Deal 3 {{damage}}. {}", "Then more words. ".repeat(20))),
            HEAD.to_string() + &strike("Deal 3 {damage}."),
        ),
        (
            "L0010",
            HEAD.to_string() + &card("Loner", "  at 3.5 { impact damage 3 }\n"),
            HEAD.to_string() + &card("Loner", "  allow card-in-no-deck\n  at 3.5 { impact damage 3 }\n"),
        ),
        (
            "L0000",
            HEAD.to_string() + &card("Typo", "  allow near-duplicate-name\n  at 3.5 { impact damage 3 }\n"),
            HEAD.to_string() + &card("Typo", "  allow near-duplicate-names\n  at 3.5 { impact damage 3 }\n"),
        ),
    ]
}

#[test]
fn every_lint_fires_on_its_case_and_not_on_its_near_miss() {
    let mut covered: Vec<&str> = Vec::new();
    for (code, fires, quiet) in cases() {
        let fired = codes(&fires, all_on());
        assert!(fired.contains(&code), "{code} did not fire on:\n{fires}\ngot {fired:?}");
        let quiet_codes = codes(&quiet, all_on());
        assert!(!quiet_codes.contains(&code), "{code} fired on its near miss:\n{quiet}\ngot {quiet_codes:?}");
        covered.push(code);
    }
    // The ruleset-level lint: recommendations in the bundled ruleset.
    let ruleset = codes(HEAD, all_on());
    assert!(ruleset.contains(&"L0011"), "{ruleset:?}");
    assert!(!codes(HEAD, Config::default()).contains(&"L0011"), "rule-is-warning is allowed by default");
    covered.push("L0011");
    for lint in LINTS {
        assert!(covered.contains(&lint.code.id), "no test fires {}", lint.name);
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
fn levels_come_from_defaults_config_and_source() {
    let loner = HEAD.to_string() + &card("Loner", "  at 3.5 { impact damage 3 }\n");
    assert!(!codes(&loner, Config::default()).contains(&"L0010"), "card-in-no-deck is allowed by default");
    let mut deny = Config::default();
    deny.levels.insert("card-in-no-deck".into(), Level::Deny);
    let outcome = check_with(&loner, deny.clone());
    assert_eq!(outcome.stats.errors, 1, "deny makes it an error");
    let allowed = HEAD.to_string() + &card("Loner", "  allow card-in-no-deck\n  at 3.5 { impact damage 3 }\n");
    assert_eq!(check_with(&allowed, deny).stats.errors, 0, "the card's own line wins over the config");
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
