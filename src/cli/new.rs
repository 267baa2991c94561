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
    let name = project_name(folder)?;
    let title = title_case(&name);
    write_project(
        folder,
        &[
            (MANIFEST.to_string(), manifest(&name, Some(game))),
            (format!("cards/{name}.cards"), starter.replace("{{name}}", &card_string_text(&title))),
        ],
    )?;
    super::stdout(&format!(
        "created {} for {game}; next: cd {} && cardsmith check\n",
        folder.display(),
        folder.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The name of a project to create in `folder`, which must not exist yet.
fn project_name(folder: &Path) -> Result<String> {
    if folder.exists() {
        return Err(miette!(help = "choose a new folder name", "{} already exists", folder.display()));
    }
    Ok(folder.file_name().and_then(|n| n.to_str()).unwrap_or("my-cards").to_string())
}

/// The project's manifest.
fn manifest(name: &str, game: Option<&str>) -> String {
    let game = game.map(|g| format!("game = {}\n", toml_string(g))).unwrap_or_default();
    format!(
        "[project]\nname = {}\n{game}# What cardsmith reads of the project, from here or named by its folder;\n\
         # `exclude = [\"cards/drafts/**\"]` would leave a folder out.\npaths = [\"cards\"]\n",
        toml_string(name),
    )
}

/// Creates the project folder holding `files` (by their paths inside it),
/// all or nothing: they are written into a temporary folder beside it,
/// which is then renamed into place, so that a run that fails midway (a
/// full disk) leaves nothing that would stop the next.
fn write_project(folder: &Path, files: &[(String, String)]) -> Result<()> {
    let parent = folder.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    std::fs::create_dir_all(parent)
        .into_diagnostic()
        .wrap_err_with(|| format!("cannot create {}", parent.display()))?;
    let temp = parent.join(format!(".{name}.new-{}", std::process::id()));
    std::fs::create_dir(&temp).into_diagnostic().wrap_err_with(|| format!("cannot create {}", temp.display()))?;
    let written = files
        .iter()
        .try_for_each(|(path, text)| {
            let path = temp.join(path);
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder)
                    .into_diagnostic()
                    .wrap_err_with(|| format!("cannot create {}", folder.display()))?;
            }
            super::atomic::create_file(&path, text)
        })
        .and_then(|()| super::atomic::move_new_folder(&temp, folder));
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&temp);
    }
    written
}

/// `new NAME --ruleset`: the starter game, its id made from the folder's name.
fn own_game(folder: &Path) -> Result<ExitCode> {
    let name = project_name(folder)?;
    let id = game_id(&name);
    let title = card_string_text(&title_case(&name));
    let fill =
        |template: &str| template.replace("{{id}}", &id).replace("{{title}}", &title).replace("{{name}}", &title);
    let (ruleset, starter) = OWN_GAME;
    write_project(
        folder,
        &[
            (MANIFEST.to_string(), manifest(&name, None)),
            (format!("cards/{id}.rules"), fill(ruleset)),
            (format!("cards/{id}.cards"), fill(starter)),
        ],
    )?;
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
