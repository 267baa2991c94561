//! `cardsmith templates GAME [-o DIR]`: writes the face templates and icons
//! a game prints with into the project, where `print` reads a project's
//! own templates (`templates/GAME/`), as a start for faces of its own.
//! A file already there is never replaced: it may hold the user's edits.

use super::project::Project;
use super::{atomic, build};
use cardsmith::backend::print::templates::BUNDLED;
use miette::{miette, IntoDiagnostic, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The folder of a project's own templates, beside `cardsmith.toml`.
const TEMPLATES: &str = "templates";

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game whose templates to write: a bundled game, or a game of the project's own ruleset
    pub game: String,
    /// The templates folder to write into, as DIR/GAME/NAME.svg (default: the project's templates/, where print reads them)
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let project = Project::find()?;
    let game = args.game.as_str();
    if !is_bundled(game) && !is_the_projects(&project, game)? {
        let bundled: Vec<&str> = cardsmith::check::builtin::ids().collect();
        return Err(miette!(
            help = format!(
                "the bundled games are {}; a game of your own is the id of the project's ruleset",
                bundled.join(", ")
            ),
            "no game `{game}` is bundled or in the project"
        ));
    }
    let folder = match (&args.out, &project.root) {
        (Some(out), _) => project.cwd.join(out),
        (None, Some(root)) => root.join(TEMPLATES),
        (None, None) => {
            return Err(miette!(
                help = "run it inside a project (`cardsmith new NAME` makes one), or name a folder with -o",
                "no cardsmith.toml in {} or any folder above it: print reads a project's templates from the templates/ folder beside it",
                project.cwd.display()
            ))
        }
    };
    let dir = folder.join(game);
    let files = files_of(game);
    let taken: Vec<String> = files
        .iter()
        .filter(|(name, _)| dir.join(name).symlink_metadata().is_ok())
        .map(|(name, _)| name.clone())
        .collect();
    if !taken.is_empty() {
        return Err(miette!(
            help = "they may hold your edits, so they are never replaced: move them aside (or remove them) and run it again",
            "{} already holds {}; nothing written",
            dir.display(),
            taken.join(", ")
        ));
    }
    std::fs::create_dir_all(&dir)
        .into_diagnostic()
        .map_err(|e| e.wrap_err(format!("cannot create {}", dir.display())))?;
    for (name, text) in &files {
        atomic::create_file(&dir.join(name), text)?;
    }
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    eprintln!("wrote {} files to {}: {}", files.len(), shown(&dir, &project), names.join(", "));
    eprintln!("edit them, then `cardsmith print`: a project's templates replace the bundled ones of the same name");
    Ok(ExitCode::SUCCESS)
}

/// Whether cardsmith holds templates or a ruleset for the game.
fn is_bundled(game: &str) -> bool {
    cardsmith::check::builtin::find(game).is_some() || BUNDLED.iter().any(|(name, _)| in_folder(name, game).is_some())
}

/// Whether the project declares the game in a ruleset of its own.
fn is_the_projects(project: &Project, game: &str) -> Result<bool> {
    if project.root.is_none() {
        return Ok(false);
    }
    let inputs = build::inputs(project, &[])?;
    let outcome = build::load(project, &inputs)?;
    let found = outcome.project.games.iter().any(|g| g.ruleset.id == game);
    super::leave_for_exit(outcome);
    Ok(found)
}

/// A bundled template's name within a game's folder.
fn in_folder<'a>(name: &'a str, game: &str) -> Option<&'a str> {
    name.strip_prefix(game)?.strip_prefix('/')
}

/// The files a game prints with, by their name in its folder: its bundled
/// templates and icons, and the generic face, back and icons for what it has
/// none of its own.
fn files_of(game: &str) -> Vec<(String, &'static str)> {
    let mut files: Vec<(String, &'static str)> =
        BUNDLED.iter().filter_map(|(name, text)| Some((in_folder(name, game)?.to_string(), *text))).collect();
    let is_front = |name: &str| name != "icons.svg" && !name.starts_with('_') && !name.ends_with("back.svg");
    let fronts = files.iter().any(|(name, _)| is_front(name));
    for (generic, wanted) in [("card.svg", !fronts), ("back.svg", true), ("icons.svg", true)] {
        if !wanted || files.iter().any(|(name, _)| name == generic) {
            continue;
        }
        if let Some((_, text)) = BUNDLED.iter().find(|(name, _)| in_folder(name, "common") == Some(generic)) {
            files.push((generic.to_string(), text));
        }
    }
    files.sort();
    files
}

/// A folder as the user knows it: from the current folder when inside it.
fn shown(dir: &Path, project: &Project) -> String {
    dir.strip_prefix(&project.cwd).map_or_else(|_| dir.display().to_string(), |p| p.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_without_templates_gets_the_generic_face_back_and_icons() {
        let files = files_of("a-game-of-my-own");
        let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["back.svg", "card.svg", "icons.svg"]);
    }
}
