//! `cardsmith new NAME --game GAME`: a project that checks clean; `cardsmith
//! new NAME --ruleset`: a project with a game of its own, its ruleset
//! included.

use super::project::MANIFEST;
use cardsmith::check::builtin;
use miette::{miette, IntoDiagnostic, Result, WrapErr};
use std::path::Path;
use std::process::ExitCode;

/// A starter game of one's own: a small ruleset, three cards and a deck,
/// commented with where docs/rulesets.md explains each part.
use cardsmith::bundled::OWN_GAME;
/// Starter cards per bundled game (`templates/new/GAME.cards`); a test
/// holds each starter to checking clean.
pub use cardsmith::bundled::STARTERS;

pub fn run(folder: &Path, game: Option<&str>, own_ruleset: bool) -> Result<ExitCode> {
    let Some(game) = game.filter(|_| !own_ruleset) else {
        return own_game(folder);
    };
    let Some((_, starter)) = STARTERS.iter().find(|(g, _)| *g == game) else {
        let games: Vec<&str> = builtin::ids().collect();
        return Err(miette!(
            help = format!("bundled games: {}", games.join(", ")),
            "no starter project for game `{game}`"
        ));
    };
    let (name, cards) = create(folder, Some(game))?;
    let title = title_case(&name);
    write(&cards.join(format!("{name}.cards")), &starter.replace("{{name}}", &card_string_text(&title)))?;
    super::stdout(&format!(
        "created {} for {game}; next: cd {} && cardsmith check\n",
        folder.display(),
        folder.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The project folder, its manifest and its `cards` folder; returns the
/// project's name and the `cards` folder.
fn create(folder: &Path, game: Option<&str>) -> Result<(String, std::path::PathBuf)> {
    if folder.exists() {
        return Err(miette!(help = "choose a new folder name", "{} already exists", folder.display()));
    }
    let name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("my-cards").to_string();
    let cards = folder.join("cards");
    std::fs::create_dir_all(&cards).into_diagnostic().wrap_err_with(|| format!("cannot create {}", cards.display()))?;
    let game = game.map(|g| format!("game = {}\n", toml_string(g))).unwrap_or_default();
    let manifest = format!(
        "[project]\nname = {}\n{game}# What `cardsmith check` reads when given no paths.\npaths = [\"cards\"]\n",
        toml_string(&name),
    );
    write(&folder.join(MANIFEST), &manifest)?;
    Ok((name, cards))
}

/// `new NAME --ruleset`: the starter game, its id made from the folder's name.
fn own_game(folder: &Path) -> Result<ExitCode> {
    let (name, cards) = create(folder, None)?;
    let id = game_id(&name);
    let title = card_string_text(&title_case(&name));
    let fill =
        |template: &str| template.replace("{{id}}", &id).replace("{{title}}", &title).replace("{{name}}", &title);
    let (ruleset, starter) = OWN_GAME;
    write(&cards.join(format!("{id}.rules")), &fill(ruleset))?;
    write(&cards.join(format!("{id}.cards")), &fill(starter))?;
    super::stdout(&format!(
        "created {} with its own game `{id}` (cards/{id}.rules; docs/rulesets.md explains each line); next: cd {} \
         && cardsmith check\n",
        folder.display(),
        folder.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// A ruleset id from a project's name: lower-case letters, digits and
/// single dashes, starting with a letter (`My Game!` → `my-game`).
fn game_id(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-').trim_start_matches(|c: char| c.is_ascii_digit() || c == '-');
    if id.is_empty() {
        "my-game".to_string()
    } else {
        id.to_string()
    }
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
