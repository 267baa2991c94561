//! Finds the bundled content — the games in `cards/`, the face templates in
//! `templates/` and the starter projects in `templates/new/` — and writes
//! the tables that compile it into the binary (`$OUT_DIR/bundled.rs`).
//!
//! The tables are found, not listed, so that no game's name is written in
//! the Rust code: a bundled game is a folder `cards/ID/` holding `ID.rules`,
//! its faces are `templates/ID/*.svg`, its starter `templates/new/ID.cards`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // A folder given here is scanned whole for changes, so a new game or
    // template rebuilds the tables.
    println!("cargo:rerun-if-changed=cards");
    println!("cargo:rerun-if-changed=templates");

    let mut code = String::from("// Written by build.rs from the bundled content; do not edit.\n\n");
    write_rulesets(&root, &mut code);
    write_templates(&root, &mut code);
    write_starters(&root, &mut code);
    std::fs::write(out.join("bundled.rs"), code).expect("OUT_DIR is writable");
}

/// `RULESETS: &[(id, name shown in diagnostics, text)]`, one per folder of
/// `cards/` that holds a ruleset named after it.
fn write_rulesets(root: &Path, code: &mut String) {
    let mut entries = String::new();
    for folder in sorted_entries(&root.join("cards")) {
        let Some(id) = folder.file_name().and_then(|n| n.to_str()) else { continue };
        let rules = folder.join(format!("{id}.rules"));
        if rules.is_file() {
            writeln!(entries, "    ({id:?}, \"<bundled>/{id}.rules\", include_str!({:?})),", path_text(&rules))
                .unwrap();
        }
    }
    writeln!(code, "/// `(id, file name shown in diagnostics, text)`.").unwrap();
    writeln!(code, "pub const RULESETS: &[(&str, &str, &str)] = &[\n{entries}];\n").unwrap();
}

/// `TEMPLATES: &[(name, text)]`: every `.svg` under `templates/`, named by
/// its path below that folder (`common/card.svg`).
fn write_templates(root: &Path, code: &mut String) {
    let templates = root.join("templates");
    let mut entries = String::new();
    for folder in sorted_entries(&templates) {
        for file in sorted_entries(&folder) {
            if file.extension().is_some_and(|e| e == "svg") {
                let name = file.strip_prefix(&templates).expect("below templates/");
                let name = name.to_str().expect("template paths are UTF-8").replace('\\', "/");
                writeln!(entries, "    ({name:?}, include_str!({:?})),", path_text(&file)).unwrap();
            }
        }
    }
    writeln!(code, "/// Every bundled face template, by name.").unwrap();
    writeln!(code, "pub const TEMPLATES: &[(&str, &str)] = &[\n{entries}];\n").unwrap();
}

/// `STARTERS: &[(game, cards)]`: `templates/new/GAME.cards` for each bundled
/// game, and `OWN_GAME: (rules, cards)`, the starter of a game of one's own.
fn write_starters(root: &Path, code: &mut String) {
    let new = root.join("templates/new");
    let mut entries = String::new();
    for file in sorted_entries(&new) {
        let Some(game) = file.file_stem().and_then(|n| n.to_str()) else { continue };
        let is_game = root.join("cards").join(game).join(format!("{game}.rules")).is_file();
        if is_game && file.extension().is_some_and(|e| e == "cards") {
            writeln!(entries, "    ({game:?}, include_str!({:?})),", path_text(&file)).unwrap();
        }
    }
    writeln!(code, "/// Starter cards per bundled game.").unwrap();
    writeln!(code, "pub const STARTERS: &[(&str, &str)] = &[\n{entries}];\n").unwrap();
    let own = |name: &str| format!("include_str!({:?})", path_text(&new.join(name)));
    writeln!(code, "/// A starter game of one's own: its ruleset and its cards.").unwrap();
    writeln!(code, "pub const OWN_GAME: (&str, &str) = ({}, {});", own("ruleset.rules"), own("ruleset.cards")).unwrap();
}

fn sorted_entries(folder: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .collect();
    entries.sort();
    entries
}

fn path_text(path: &Path) -> &str {
    path.to_str().expect("the project's path is UTF-8")
}
