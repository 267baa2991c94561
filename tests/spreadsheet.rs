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
fn a_bad_cell_is_reported_at_its_cell_with_its_text_and_nothing_is_written() {
    let dir = empty_project();
    let table = "Name,symbol,arc,at,text\n\
                 Good Shot,kinetic,narrow,3.5 { impact damage 3 },Deal 3 {damage}.\n\
                 Bad Shot,kinetic,sideways,3.5 { impact damage 3 },Deal 3 {damage}.\n";
    std::fs::write(dir.path().join("offense.csv"), table).expect("table");
    let args = ["import", "offense.csv", "--game", "dreadnaught-2e", "--kind", "offense", "-o", "cards/o.cards"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("error[E0208]: unknown firing arc `sideways`"), "{text}");
    assert!(text.contains("┌─ offense.csv:3:"), "the snippet is the row as written: {text}");
    assert!(text.contains("in cell offense.csv!C3 (column `arc`): sideways"), "{text}");
    assert!(!dir.path().join("cards/o.cards").exists(), "nothing is written");
}

#[test]
fn rows_are_numbered_as_the_sheet_numbers_them_whatever_its_line_ends() {
    // Excel writes CRLF; a cell holding a line break is still one row.
    let dir = empty_project();
    let table = "name,symbol,arc,at,text\r\n\
                 Good Shot,kinetic,narrow,\"3.5 { impact damage 3 }\r\n2.0 { impact damage 1 }\",Deal 3.\r\n\
                 Bad Shot,kinetic,sideways,3.5 { impact damage 3 },Deal 3.\r\n";
    std::fs::write(dir.path().join("offense.csv"), table).expect("table");
    let args = ["import", "offense.csv", "--game", "dreadnaught-2e", "--kind", "offense", "-o", "cards/o.cards"];
    let output = cardsmith(&args, dir.path());
    let text = stderr(&output);
    assert!(text.contains("in cell offense.csv!C3 (column `arc`): sideways"), "{text}");
    assert!(!text.contains("!C2") && !text.contains("!C4"), "{text}");
}

#[test]
fn blank_rows_are_passed_over() {
    let dir = empty_project();
    let table = "name,symbol,arc,at,text\r\n\
                 \r\n\
                 Shot,kinetic,narrow,3.5 { impact damage 3 },Deal 3 {damage}.\r\n\
                 ,,,,\r\n\
                 Salvo,kinetic,narrow,2.0 { impact damage 2 },Deal 2 {damage}.\r\n\
                 \r\n";
    std::fs::write(dir.path().join("offense.csv"), table).expect("table");
    let args = ["import", "offense.csv", "--game", "dreadnaught-2e", "--kind", "offense", "-o", "cards/o.cards"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("wrote 2 cards"), "{}", stderr(&output));
    let check = cardsmith(&["check"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
}

#[test]
fn a_bad_enum_cell_lists_the_valid_values() {
    let dir = empty_project();
    let table = "name,symbol,arc,at,text\nShot,kinetic,sideways,3.5 { impact damage 3 },Deal 3 {damage}.\n";
    std::fs::write(dir.path().join("offense.csv"), table).expect("table");
    let args = ["import", "offense.csv", "--game", "dreadnaught-2e", "--kind", "offense"];
    let text = stderr(&cardsmith(&args, dir.path()));
    assert!(text.contains("expected one of: standard, narrow"), "{text}");
}

#[test]
fn an_unknown_column_is_named_with_what_it_might_be() {
    let dir = empty_project();
    std::fs::write(dir.path().join("t.csv"), "name,arcs\nShot,narrow\n").expect("table");
    let args = ["import", "t.csv", "--game", "dreadnaught-2e", "--kind", "offense"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("error[E0803]: column `arcs` is no field of Offense Card"), "{text}");
    assert!(text.contains("in cell t.csv!B1"), "{text}");
    assert!(text.contains("did you mean `arc`?") && text.contains("--map \"arcs=arc\""), "{text}");
    // One mistake, one message: no row is reported missing its `arc`.
    assert!(!text.contains("missing"), "{text}");
    // A header that holds a field's name as a word is taken for it.
    std::fs::write(dir.path().join("u.csv"), "Card Name,arc\nShot,narrow\n").expect("table");
    let args = ["import", "u.csv", "--game", "dreadnaught-2e", "--kind", "offense"];
    let text = stderr(&cardsmith(&args, dir.path()));
    assert!(text.contains("did you mean `name`?") && text.contains("--map \"Card Name=name\""), "{text}");
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
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("error[E0806]: the braces in this cell do not balance"), "{text}");
    assert!(text.contains("in cell t.csv!C2 (column `arc`)"), "{text}");
    // The row makes no card, so it is not also missing its `at`.
    assert_eq!(text.matches("error[").count(), 1, "{text}");
    assert!(!dir.path().join("t.cards").exists());
}

const OFFENSE: &str = "game dreadnaught-2e\n\n// Kinetic offense, kept by hand.\n\n\
                       offense \"Shot\" {\n  // the opener\n  symbol kinetic\n  arc narrow\n  at 3.5 {\n    impact damage 3\n  }\n  text \"Deal 3 {damage}.\"\n}\n\n\
                       // Not in the sheet.\noffense \"Salvo\" {\n  symbol kinetic\n  arc narrow\n  at 2.0 {\n    impact damage 2\n  }\n  text \"Deal 2 {damage}.\"\n}\n";

#[test]
fn import_update_merges_the_sheet_into_its_card_file_by_name() {
    let dir = empty_project();
    std::fs::write(dir.path().join("cards/offense.cards"), OFFENSE).expect("cards");
    let table = "name,symbol,arc,at,text\n\
                 Shot,kinetic,narrow,3.5 { impact damage 4 },Deal 4 {damage}.\n\
                 Volley,kinetic,narrow,2.5 { impact damage 1 },Deal 1 {damage}.\n";
    std::fs::write(dir.path().join("offense.csv"), table).expect("table");
    let args = ["import", "offense.csv", "--game", "dreadnaught-2e", "--kind", "offense", "-o", "cards/offense.cards"];
    // Without --update, the file is not replaced, and the way is shown.
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--update"), "{}", stderr(&output));
    // Imported beside it, every card of the sheet is named twice: the help says how to merge.
    let beside = ["import", "offense.csv", "--game", "dreadnaught-2e", "--kind", "offense", "-o", "cards/new.cards"];
    let text = stderr(&cardsmith(&beside, dir.path()));
    assert!(text.contains("two cards are named `Shot`") && text.contains("--update -o FILE"), "{text}");
    let mut update = args.to_vec();
    update.push("--update");
    let output = cardsmith(&update, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("1 card replaced, 1 added, 0 unchanged"), "{}", stderr(&output));
    let merged = std::fs::read_to_string(dir.path().join("cards/offense.cards")).expect("merged");
    assert!(merged.starts_with("game dreadnaught-2e\n\n// Kinetic offense, kept by hand.\n"), "{merged}");
    assert!(merged.contains("// Not in the sheet.\noffense \"Salvo\""), "{merged}");
    assert!(merged.contains("impact damage 4") && merged.contains("offense \"Volley\""), "{merged}");
    assert!(!merged.contains("impact damage 3"), "{merged}");
    let check = cardsmith(&["check"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
}

#[test]
fn a_sheet_exported_and_imported_again_changes_no_byte_of_its_file() {
    let dir = empty_project();
    std::fs::write(dir.path().join("cards/offense.cards"), OFFENSE).expect("cards");
    let output = cardsmith(&["export", "--csv"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let args = [
        "import",
        "csv/dreadnaught-2e-offense.csv",
        "--game",
        "dreadnaught-2e",
        "--kind",
        "offense",
        "-o",
        "cards/offense.cards",
        "--update",
    ];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("0 cards replaced, 0 added, 2 unchanged"), "{}", stderr(&output));
    let after = std::fs::read_to_string(dir.path().join("cards/offense.cards")).expect("cards");
    assert_eq!(after, OFFENSE, "comments and layout are kept");
}

/// A project whose offense cards are a sheet it lists, beside a card file
/// whose card names them.
fn sheet_project(table: &str) -> tempfile::TempDir {
    let dir = empty_project();
    let manifest = "[project]\npaths = [\"cards\"]\n\n[[sheet]]\npath = \"sheets/offense.csv\"\n\
                    game = \"dreadnaught-2e\"\nkind = \"offense\"\n";
    std::fs::write(dir.path().join("cardsmith.toml"), manifest).expect("manifest");
    std::fs::create_dir(dir.path().join("sheets")).expect("sheets");
    std::fs::write(dir.path().join("sheets/offense.csv"), table).expect("table");
    let boost = "game dreadnaught-2e\n\nboost \"Uplink\" {\n  power 2\n  at 3.5 {\n    impact damage +1\n  }\n  \
                 text \"Add +1 {damage} to *Shot* or *Salvo* resolving at 3.5.\"\n}\n";
    std::fs::write(dir.path().join("cards/boost.cards"), boost).expect("boost");
    dir
}

const SHEET: &str = "name,symbol,arc,at,text\r\n\
                     Shot,kinetic,narrow,3.5 { impact damage 3 },Deal 3 {damage}.\r\n\
                     Salvo,kinetic,narrow,2.0 { impact damage 2 },Deal 2 {damage}.\r\n";

#[test]
fn a_listed_sheet_is_checked_built_and_printed_with_the_card_files() {
    let dir = sheet_project(SHEET);
    let check = cardsmith(&["check"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(stderr(&check).contains("checked 2 files: 3 cards, 0 decks"), "{}", stderr(&check));
    let build = cardsmith(&["build"], dir.path());
    assert_eq!(build.status.code(), Some(0), "{}", stderr(&build));
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/dreadnaught-2e.json")).expect("built"))
            .expect("JSON");
    let sources: Vec<String> =
        data["cards"].as_array().expect("cards").iter().map(|c| c["source"].to_string()).collect();
    assert!(sources.contains(&r#"{"file":"sheets/offense.csv","line":3}"#.to_string()), "{sources:?}");
    assert!(sources.contains(&r#"{"file":"sheets/offense.csv","line":2}"#.to_string()), "a card is at its row");
    let print = cardsmith(&["print", "--format", "html"], dir.path());
    assert_eq!(print.status.code(), Some(0), "{}", stderr(&print));
    assert!(dir.path().join("print/preview.html").exists());
    // The sheet named on the command line is read as the sheet it is.
    let check = cardsmith(&["check", "sheets/offense.csv"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(stderr(&check).contains("checked 1 file: 2 cards"), "{}", stderr(&check));
}

#[test]
fn a_mistake_in_a_listed_sheet_is_one_message_at_its_cell() {
    let table = SHEET.replace("Salvo,kinetic,narrow", "Salvo,kinetic,sideways");
    let dir = sheet_project(&table);
    let check = cardsmith(&["check", "--message-format", "short"], dir.path());
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    let text = stderr(&check);
    assert!(text.contains("sheets/offense.csv!C3: error[E0208]: unknown firing arc `sideways`"), "{text}");
    assert_eq!(text.matches("error[").count(), 1, "{text}");
    // A row whose cell cannot stand in a card makes none, and the card that
    // names it is not reported as well.
    let table = SHEET.replace("2.0 { impact damage 2 }", "2.0 { impact damage 2");
    let dir = sheet_project(&table);
    let check = cardsmith(&["check", "--message-format", "short"], dir.path());
    let text = stderr(&check);
    assert!(text.contains("sheets/offense.csv!D3: error[E0806]"), "{text}");
    assert_eq!(text.matches("error[").count(), 1, "{text}");
    let build = cardsmith(&["build"], dir.path());
    assert_eq!(build.status.code(), Some(1), "{}", stderr(&build));
}

#[test]
fn a_sheet_of_an_unknown_kind_is_reported_at_its_setting() {
    let dir = sheet_project(SHEET);
    let manifest = std::fs::read_to_string(dir.path().join("cardsmith.toml")).expect("manifest");
    std::fs::write(dir.path().join("cardsmith.toml"), manifest.replace("\"offense\"", "\"ofense\"")).expect("manifest");
    let check = cardsmith(&["check"], dir.path());
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    let text = stderr(&check);
    assert!(text.contains("error[E0807]: `dreadnaught-2e` has no kind `ofense`"), "{text}");
    assert!(text.contains("┌─ cardsmith.toml:7:8"), "{text}");
    assert!(text.contains("did you mean `offense`?"), "{text}");
}

#[test]
fn a_listed_workbook_is_read_as_its_worksheet_and_its_problems_are_at_their_cells() {
    let dir = sheet_project(SHEET);
    let rows = common::rows_of_csv(&SHEET.replace("Salvo,kinetic,narrow", "Salvo,kinetic,sideways"));
    let workbook = common::xlsx(&[("Notes", vec![vec!["nothing".to_string()]]), ("Offense", rows)]);
    std::fs::write(dir.path().join("sheets/offense.xlsx"), workbook).expect("workbook");
    std::fs::remove_file(dir.path().join("sheets/offense.csv")).expect("csv");
    let manifest = std::fs::read_to_string(dir.path().join("cardsmith.toml")).expect("manifest");
    let manifest = manifest.replace("offense.csv\"", "offense.xlsx\"\nworksheet = \"Offense\"");
    std::fs::write(dir.path().join("cardsmith.toml"), manifest).expect("manifest");
    let check = cardsmith(&["check"], dir.path());
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    let text = stderr(&check);
    assert!(text.contains("error[E0208]: unknown firing arc `sideways`"), "{text}");
    assert!(text.contains("3 │ Salvo,kinetic,sideways,"), "the row's cells as text: {text}");
    assert!(text.contains("in cell sheets/offense.xlsx!C3 (column `arc`): sideways"), "{text}");
    // Another worksheet, and one that is not there.
    let manifest = std::fs::read_to_string(dir.path().join("cardsmith.toml")).expect("manifest");
    std::fs::write(dir.path().join("cardsmith.toml"), manifest.replace("\"Offense\"", "\"Ofense\"")).expect("toml");
    let text = stderr(&cardsmith(&["check"], dir.path()));
    assert!(text.contains("this workbook has no worksheet `Ofense`; its worksheets: Notes, Offense"), "{text}");
}

#[test]
fn a_workbook_that_unpacks_to_too_much_is_refused_unread() {
    let dir = sheet_project(SHEET);
    let big = "x".repeat(40 << 20);
    let workbook = common::xlsx(&[("Offense", vec![vec!["name".to_string()], vec![big]])]);
    assert!(workbook.len() < 1 << 20, "a small file");
    std::fs::write(dir.path().join("sheets/offense.csv"), workbook).expect("workbook");
    let text = stderr(&cardsmith(&["check"], dir.path()));
    assert!(text.contains("error[E0802]: this workbook unpacks to more than 33554432 bytes"), "{text}");
}

/// The engine data a project builds, each card's and deck's `source` (where
/// it is written, the one thing that differs between twins) taken out.
fn engine_data(dir: &Path) -> serde_json::Value {
    let output = cardsmith(&["build"], dir);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = std::fs::read_to_string(dir.join("out/lantern-market.json")).expect("built");
    let mut data: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    for list in ["cards", "decks"] {
        for item in data[list].as_array_mut().expect("a list") {
            assert!(item.as_object_mut().expect("an object").remove("source").is_some(), "{item}");
        }
    }
    data
}

#[test]
fn the_sheet_example_builds_the_engine_data_of_its_card_file_twin() {
    let twin = common::example_project("lantern-market");
    let sheet = common::example_project("lantern-market-sheet");
    let rules = |dir: &Path| std::fs::read(dir.join("cards/lantern-market.rules")).expect("ruleset");
    assert_eq!(rules(twin.path()), rules(sheet.path()), "the twins share one ruleset");
    let expected = engine_data(twin.path());
    assert_eq!(expected["cards"].as_array().map(Vec::len), Some(11));
    assert_eq!(engine_data(sheet.path()), expected, "the sheets build what the card file builds");
    let check = cardsmith(&["check"], sheet.path());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    let print = cardsmith(&["print", "--format", "html"], sheet.path());
    assert_eq!(print.status.code(), Some(0), "{}", stderr(&print));
    assert!(stderr(&print).contains("printed 11 cards"), "{}", stderr(&print));

    // The same tables as the worksheets of one workbook build it too.
    let table = |name: &str| std::fs::read_to_string(sheet.path().join("sheets").join(name)).expect("table");
    let workbook = common::xlsx(&[
        ("Wares", common::rows_of_csv(&table("wares.csv"))),
        ("Lanterns", common::rows_of_csv(&table("lanterns.csv"))),
    ]);
    std::fs::write(sheet.path().join("sheets/market.xlsx"), workbook).expect("workbook");
    let manifest = std::fs::read_to_string(sheet.path().join("cardsmith.toml")).expect("manifest");
    let manifest = manifest
        .replace("\"sheets/wares.csv\"", "\"sheets/market.xlsx\"\nworksheet = \"Wares\"")
        .replace("\"sheets/lanterns.csv\"", "\"sheets/market.xlsx\"\nworksheet = \"Lanterns\"");
    std::fs::write(sheet.path().join("cardsmith.toml"), manifest).expect("manifest");
    assert_eq!(engine_data(sheet.path()), expected, "the workbook builds what the card file builds");
}
