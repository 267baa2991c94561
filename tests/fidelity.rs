//! Rule fidelity: `docs/fidelity.md` against the bundled rulesets and the
//! rule cases in `tests/fidelity/`.
//!
//! The table lists, per game, every rule ID of the game reference's
//! validation rules with a status:
//!
//! - `enforced`: the rule is checked at the ruleset lines in the "Where"
//!   column, each a declaration with the ID in a comment on that line or in
//!   the comment block right above it; and `tests/fidelity/GAME/` holds at
//!   least one case named `ID` (or `ID.VARIANT`) that breaks exactly that
//!   rule, and a legal twin named `ID.legal` (or `ID.legal-VARIANT`) that
//!   checks clean;
//! - `untested`: checked at the cited lines (tagged as above), with no case
//!   yet, a gap the table shows rather than hides;
//! - `untagged`: checked at the cited lines, which are declarations but do
//!   not name the ID yet (a ruleset this table may not edit);
//! - `by construction`, `out of scope`, `not yet`: no case may exist, and
//!   the last column says why.
//!
//! Every case in `tests/fidelity/GAME/` must belong to an `enforced` row.
//! The cases themselves run through the UI test harness (`tests/common/cases.rs`):
//! `// expect: CODE...` on the first line, the rendered diagnostics in
//! `NAME.stderr` beside it, blessed with `CARDSMITH_BLESS=1`.

#[path = "common/cases.rs"]
mod cases;
mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

/// One row of the table.
struct Row {
    game: String,
    id: String,
    status: String,
    places: Vec<String>,
    note: String,
}

const STATUSES: [&str; 6] = ["enforced", "untested", "untagged", "by construction", "out of scope", "not yet"];

fn table() -> Vec<Row> {
    let path = common::repo().join("docs/fidelity.md");
    let text = std::fs::read_to_string(&path).expect("docs/fidelity.md");
    let mut game = None;
    let mut rows = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            game = heading.split_whitespace().next().map(|g| g.trim_matches('`').to_string());
            continue;
        }
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if !line.starts_with('|') || cells.len() != 4 || !is_rule_id(cells[0]) {
            continue;
        }
        let game = game.clone().unwrap_or_else(|| panic!("docs/fidelity.md: row {} before any `## GAME`", cells[0]));
        rows.push(Row {
            game,
            id: cells[0].to_string(),
            status: cells[1].to_string(),
            places: cells[2]
                .split(',')
                .map(|p| p.trim().trim_matches('`').to_string())
                .filter(|p| p.contains(':'))
                .collect(),
            note: cells[3].to_string(),
        });
    }
    rows
}

/// `DN-V22`, `TCG-V01`, `DFC-F04`: capitals, a dash, a capital and digits.
fn is_rule_id(cell: &str) -> bool {
    let Some((family, number)) = cell.split_once('-') else { return false };
    let mut rest = number.chars();
    !family.is_empty()
        && family.chars().all(|c| c.is_ascii_uppercase())
        && rest.next().is_some_and(|c| c.is_ascii_uppercase())
        && rest.clone().next().is_some()
        && rest.all(|c| c.is_ascii_digit())
}

/// The lines of a game's ruleset file up to `FILE:LINE`, the last being
/// that line, which must be a declaration (not blank, not a comment).
fn declaration(game: &str, place: &str) -> Result<Vec<String>, String> {
    let (file, line) = place.split_once(':').ok_or_else(|| format!("{place}: not FILE:LINE"))?;
    let number: usize = line.parse().map_err(|_| format!("{place}: not FILE:LINE"))?;
    let path = common::repo().join("cards").join(game).join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<String> = text.lines().take(number).map(str::to_string).collect();
    let Some(last) = lines.get(number.wrapping_sub(1)) else {
        return Err(format!("{place}: {file} has fewer lines"));
    };
    if last.trim().is_empty() || last.trim_start().starts_with("//") {
        return Err(format!("{place}: a blank or comment line, not a declaration"));
    }
    Ok(lines)
}

/// Whether the ruleset line `FILE:LINE` of a game is a declaration tagged
/// with the ID, on the line or in the comment block right above it.
fn tagged(game: &str, place: &str, id: &str) -> Result<(), String> {
    let lines = declaration(game, place)?;
    let (line, above) = lines.split_last().expect("at least the declaration");
    let comments = above.iter().rev().take_while(|l| l.trim_start().starts_with("//"));
    if line.contains(id) || comments.into_iter().any(|l| l.contains(id)) {
        Ok(())
    } else {
        Err(format!("{place}: no comment names {id} on this line or right above it:\n    {line}"))
    }
}

/// The cases of one game's folder, by the rule ID their name starts with.
fn cases_by_rule(game: &str) -> BTreeMap<String, Vec<(String, bool)>> {
    let mut by_rule: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
    let folder = folder(game);
    if !folder.path.exists() {
        return by_rule;
    }
    for case in cases::cases(&folder).0 {
        let (id, variant) = case.name.split_once('.').unwrap_or((case.name.as_str(), ""));
        let legal = variant == "legal" || variant.starts_with("legal-");
        // The harness holds a case to the codes it lists; here a legal twin
        // must list none and a case that breaks a rule at least one.
        let expects_some = case
            .inputs
            .iter()
            .any(|(name, bytes)| cases::expected_codes(name, bytes).is_ok_and(|codes| !codes.is_empty()));
        assert!(
            legal != expects_some,
            "tests/fidelity/{game}/{}: a legal twin expects no code, and any other case at least one",
            case.name
        );
        by_rule.entry(id.to_string()).or_default().push((case.name.clone(), legal));
    }
    by_rule
}

fn folder(game: &str) -> cases::Folder {
    let path: PathBuf = common::repo().join("tests/fidelity").join(game);
    cases::Folder { path, shown: format!("tests/fidelity/{game}") }
}

/// What is wrong with one row, given the cases of its game.
fn row_problems(row: &Row, cases: &BTreeMap<String, Vec<(String, bool)>>) -> Vec<String> {
    let at = format!("{} {}", row.game, row.id);
    if !STATUSES.contains(&row.status.as_str()) {
        return vec![format!("{at}: status `{}` is none of {STATUSES:?}", row.status)];
    }
    let mut problems = Vec::new();
    let checked = ["enforced", "untested", "untagged"].contains(&row.status.as_str());
    if checked && row.places.is_empty() {
        problems.push(format!("{at}: {} but no ruleset FILE:LINE is given", row.status));
    }
    if row.status == "untagged" {
        problems.extend(row.places.iter().filter_map(|place| declaration(&row.game, place).err()));
    } else if checked {
        problems.extend(row.places.iter().filter_map(|place| tagged(&row.game, place, &row.id).err()));
    } else if row.note.is_empty() || row.note == "—" {
        problems.push(format!("{at}: {} without a reason", row.status));
    }
    let own = cases.get(&row.id).map(Vec::as_slice).unwrap_or_default();
    if row.status == "enforced" {
        if !own.iter().any(|(_, legal)| !legal) {
            problems.push(format!(
                "{at}: enforced, but tests/fidelity/{}/ has no case `{}` that breaks it",
                row.game, row.id
            ));
        }
        if !own.iter().any(|(_, legal)| *legal) {
            problems
                .push(format!("{at}: enforced, but tests/fidelity/{}/ has no legal twin `{}.legal`", row.game, row.id));
        }
        for (name, _) in own {
            if !row.note.contains(name.as_str()) {
                problems.push(format!("{at}: the case `{name}` is not listed in the row"));
            }
        }
    } else if !own.is_empty() {
        problems.push(format!("{at}: {} in the table, but it has cases", row.status));
    }
    problems
}

#[test]
fn the_table_and_the_rulesets_agree() {
    let rows = table();
    assert!(rows.len() > 50, "docs/fidelity.md: only {} rule rows were read", rows.len());
    let mut problems = Vec::new();
    let mut seen = BTreeMap::new();
    for row in &rows {
        if seen.insert((row.game.clone(), row.id.clone()), ()).is_some() {
            problems.push(format!("{} {}: listed twice", row.game, row.id));
        }
    }
    let games: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.game.as_str()).collect();
    for game in games {
        let cases = cases_by_rule(game);
        for row in rows.iter().filter(|r| r.game == game) {
            problems.extend(row_problems(row, &cases));
        }
        for (id, names) in &cases {
            if !rows.iter().any(|r| r.game == game && &r.id == id) {
                problems.push(format!("tests/fidelity/{game}/: cases {names:?} name {id}, which is not in the table"));
            }
        }
    }
    assert!(problems.is_empty(), "docs/fidelity.md disagrees with the files:\n  {}", problems.join("\n  "));
}

/// The summary's counts are those of the rows, game by game and status by
/// status, in the order of `STATUSES`.
#[test]
fn the_summary_counts_the_rows() {
    let rows = table();
    let text = std::fs::read_to_string(common::repo().join("docs/fidelity.md")).expect("docs/fidelity.md");
    let summary = text.split("## Summary").nth(1).expect("docs/fidelity.md has a `## Summary`");
    let mut games = 0;
    for line in summary.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| game") && !l.starts_with("| ---")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let (game, counts) = cells.split_first().expect("a game and its counts");
        let counted: Vec<String> = STATUSES
            .iter()
            .map(|status| rows.iter().filter(|r| r.game == *game && r.status == *status).count().to_string())
            .collect();
        assert_eq!(counts, counted.as_slice(), "docs/fidelity.md: the summary of {game} ({STATUSES:?})");
        games += 1;
    }
    let all: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.game.as_str()).collect();
    assert_eq!(games, all.len(), "docs/fidelity.md: the summary has a line for each game");
}

#[test]
fn every_rule_case_gives_its_expected_diagnostics() {
    let root = common::repo().join("tests/fidelity");
    let mut failures = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir(&root).expect("tests/fidelity") {
        let game = entry.expect("entry").file_name().to_string_lossy().to_string();
        let (more, n) = cases::run(&folder(&game));
        failures.extend(more);
        count += n;
    }
    assert!(count > 0, "no cases in tests/fidelity");
    cases::assert_all_pass(&failures, count);
}

/// The fenced examples of a game guide that are card files: those whose
/// first line is `game ID`.
fn guide_examples(text: &str) -> Vec<String> {
    let mut examples = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.starts_with("```")) {
            (None, true) => current = Some(String::new()),
            (Some(block), true) => {
                if block.starts_with("game ") {
                    examples.push(std::mem::take(block));
                }
                current = None;
            }
            (Some(block), false) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, false) => {}
        }
    }
    examples
}

#[test]
fn every_game_guide_example_checks_clean() {
    let folder = common::repo().join("docs/games");
    let mut guides = 0;
    for entry in std::fs::read_dir(&folder).expect("docs/games") {
        let path = entry.expect("entry").path();
        let game = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        let text = std::fs::read_to_string(&path).expect("a UTF-8 guide");
        let examples = guide_examples(&text);
        assert!(!examples.is_empty(), "docs/games/{game}.md shows no card file");
        // The examples of one guide are checked together: a deck may list
        // the cards an earlier example defines.
        let mut workspace = cardsmith::workspace::Workspace::new();
        for (n, example) in examples.iter().enumerate() {
            assert!(
                example.starts_with(&format!("game {game}\n")),
                "docs/games/{game}.md: example {n} is not of {game}"
            );
            workspace.add_bytes(&format!("docs/games/{game}.md#{n}"), example.clone().into_bytes());
        }
        let outcome = workspace.check();
        let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
        assert!(outcome.diagnostics.is_empty(), "docs/games/{game}.md:\n{rendered}");
        guides += 1;
    }
    assert!(guides >= 3, "only {guides} game guides in docs/games");
}
