//! `cardsmith new NAME --game GAME`: a project that checks clean.

use super::project::MANIFEST;
use crate::check::builtin;
use miette::{miette, IntoDiagnostic, Result, WrapErr};
use std::path::Path;
use std::process::ExitCode;

/// Starter cards per bundled game.
const STARTERS: &[(&str, &str)] = &[("dreadnaught-2e", include_str!("../../templates/new/dreadnaught-2e.cards"))];

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
    let manifest = format!("[project]\nname = \"{name}\"\ngame = \"{game}\"\n# What `cardsmith check` reads when given no paths.\npaths = [\"cards\"]\n");
    write(&folder.join(MANIFEST), &manifest)?;
    write(&cards.join(format!("{name}.cards")), &starter.replace("{{name}}", &title))?;
    println!("created {} for {game}; next: cd {} && cardsmith check", folder.display(), folder.display());
    Ok(ExitCode::SUCCESS)
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).into_diagnostic().wrap_err_with(|| format!("cannot write {}", path.display()))
}

/// `my-ship` → `My Ship`; quotes are dropped so the name is safe in a string.
fn title_case(name: &str) -> String {
    name.split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars().filter(|c| *c != '"' && *c != '\\');
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
