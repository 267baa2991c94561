//! `cardsmith new NAME --game GAME`: a project that checks clean.

use super::project::MANIFEST;
use cardsmith::check::builtin;
use miette::{miette, IntoDiagnostic, Result, WrapErr};
use std::path::Path;
use std::process::ExitCode;

/// Starter cards per bundled game; a test holds this list to the bundled
/// rulesets, and each starter to checking clean.
pub const STARTERS: &[(&str, &str)] = &[
    ("dreadnaught-1e", include_str!("../../templates/new/dreadnaught-1e.cards")),
    ("dreadnaught-2e", include_str!("../../templates/new/dreadnaught-2e.cards")),
    ("dreadnought-tcg", include_str!("../../templates/new/dreadnought-tcg.cards")),
    ("dropfleet-1.3", include_str!("../../templates/new/dropfleet-1.3.cards")),
];

pub fn run(folder: &Path, game: &str) -> Result<ExitCode> {
    let Some((_, starter)) = STARTERS.iter().find(|(g, _)| *g == game) else {
        let games: Vec<&str> = builtin::ids().collect();
        return Err(miette!(
            help = format!("bundled games: {}", games.join(", ")),
            "no starter project for game `{game}`"
        ));
    };
    if folder.exists() {
        return Err(miette!(help = "choose a new folder name", "{} already exists", folder.display()));
    }
    let name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("my-cards").to_string();
    let title = title_case(&name);
    let cards = folder.join("cards");
    std::fs::create_dir_all(&cards).into_diagnostic().wrap_err_with(|| format!("cannot create {}", cards.display()))?;
    let manifest = format!(
        "[project]\nname = {}\ngame = {}\n# What `cardsmith check` reads when given no paths.\npaths = [\"cards\"]\n",
        toml_string(&name),
        toml_string(game)
    );
    write(&folder.join(MANIFEST), &manifest)?;
    write(&cards.join(format!("{name}.cards")), &starter.replace("{{name}}", &card_string_text(&title)))?;
    super::stdout(&format!(
        "created {} for {game}; next: cd {} && cardsmith check\n",
        folder.display(),
        folder.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).into_diagnostic().wrap_err_with(|| format!("cannot write {}", path.display()))
}

/// A TOML basic string holding `text` exactly.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text to stand inside a card file's string naming a card: quotes and
/// backslashes escaped, so the name is read back exactly as it is (braces
/// and stars mean nothing in a name).
fn card_string_text(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `my-ship` → `My Ship`; characters a name cannot hold on one line (control
/// characters) are dropped.
fn title_case(name: &str) -> String {
    name.split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars().filter(|c| !c.is_control());
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
