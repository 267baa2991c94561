//! Cards to spreadsheets and back: every bundled game's tables, exported,
//! imported into an empty project and exported again, come back byte for
//! byte, and a bad cell is reported by its row and column.

mod common;

use common::{bundled_project, cardsmith, stderr};
use std::path::Path;

fn empty_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    std::fs::create_dir(dir.path().join("cards")).expect("cards");
    dir
}

fn tables(folder: &Path) -> Vec<(String, String)> {
    let mut tables: Vec<(String, String)> = std::fs::read_dir(folder)
        .expect("tables")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).expect("table")))
        .collect();
    tables.sort();
    tables
}

/// Imports every table of `game` into `dir`; a table whose cards name
/// others (a deck keyword its System Card declares) waits for them.
fn import_all(dir: &Path, game: &str, exported: &Path) {
    let mut waiting: Vec<(String, String)> = tables(exported);
    while !waiting.is_empty() {
        let before = waiting.len();
        let mut failures = Vec::new();
        waiting.retain(|(name, _)| {
            let kind = name.trim_end_matches(".csv").strip_prefix(&format!("{game}-")).expect("GAME-KIND.csv");
            let table = exported.join(name);
            let out = format!("cards/{kind}.cards");
            let args = ["import", table.to_str().unwrap(), "--game", game, "--kind", kind, "-o", &out];
            let output = cardsmith(&args, dir);
            failures.push(stderr(&output));
            output.status.code() != Some(0)
        });
        assert!(waiting.len() < before, "{game}: no table imports: {failures:#?}");
    }
}

#[test]
fn every_bundled_table_comes_back_byte_for_byte() {
    for game in ["dreadnaught-1e", "dreadnaught-2e", "dreadnought-tcg", "dropfleet-1.3"] {
        let bundled = bundled_project(game);
        let output = cardsmith(&["export", "--csv"], bundled.path());
        assert_eq!(output.status.code(), Some(0), "{game}: {}", stderr(&output));
        let exported = bundled.path().join("csv");

        let fresh = empty_project();
        import_all(fresh.path(), game, &exported);
        let check = cardsmith(&["check"], fresh.path());
        assert_eq!(check.status.code(), Some(0), "{game}: imported cards check clean: {}", stderr(&check));
        let output = cardsmith(&["export", "--csv"], fresh.path());
        assert_eq!(output.status.code(), Some(0), "{game}: {}", stderr(&output));
        assert_eq!(tables(&fresh.path().join("csv")), tables(&exported), "{game}: the round trip changed a table");
    }
}

#[test]
fn a_bad_cell_is_reported_by_row_and_column_and_nothing_is_written() {
    let dir = empty_project();
    let table = "Name,arc,at,text\n\
                 Good Shot,narrow,3.5 { impact damage 3 },Deal 3 {damage}.\n\
                 Bad Shot,sideways,3.5 { impact damage 3 },Deal 3 {damage}.\n";
    std::fs::write(dir.path().join("offense.csv"), table).expect("table");
    let args = ["import", "offense.csv", "--game", "dreadnaught-2e", "--kind", "offense", "-o", "cards/o.cards"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("offense.csv:3: column `arc`: error[E0"), "{text}");
    assert!(text.contains("sideways"), "{text}");
    assert!(!dir.path().join("cards/o.cards").exists(), "nothing is written");
}

#[test]
fn an_unknown_column_is_named_with_what_it_might_be() {
    let dir = empty_project();
    std::fs::write(dir.path().join("t.csv"), "name,arcs\nShot,narrow\n").expect("table");
    let args = ["import", "t.csv", "--game", "dreadnaught-2e", "--kind", "offense"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("t.csv:1: column `arcs`: column `arcs` is no field of Offense Card"), "{text}");
    assert!(text.contains("did you mean `arc`?"), "{text}");
    // Mapped, the same column reads.
    let args = ["import", "t.csv", "--game", "dreadnaught-2e", "--kind", "offense", "--map", "arcs=arc"];
    let output = cardsmith(&args, dir.path());
    assert!(!stderr(&output).contains("no field"), "{}", stderr(&output));
}

#[test]
fn a_cell_cannot_end_its_card_or_start_another() {
    let dir = empty_project();
    let table = "name,symbol,arc,text\nShot,kinetic,narrow } offense \"Ghost\" {,Deal 3.\n";
    std::fs::write(dir.path().join("t.csv"), table).expect("table");
    let args = ["import", "t.csv", "--game", "dreadnaught-2e", "--kind", "offense"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("t.csv:2: column `arc`: the braces in this cell do not balance"),
        "{}",
        stderr(&output)
    );
    assert!(!dir.path().join("t.cards").exists());
}
