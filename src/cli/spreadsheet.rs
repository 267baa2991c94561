//! `cardsmith export --csv` and `cardsmith import`: cards to and from
//! spreadsheets, through [`cardsmith::spreadsheet`].

use super::project::{self, Project};
use super::{atomic, build, check, output, read};
use cardsmith::diagnostics::render::MessageFormat;
use cardsmith::diagnostics::Severity;
use cardsmith::ruleset::model::Ruleset;
use cardsmith::spreadsheet::{self, import::TableError};
use miette::{miette, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The most problems of a table listed; a sheet with a systematic mistake
/// would otherwise print one line per row.
const MOST_SHOWN: usize = 200;

/// The output folder of `export` when `-o` does not name one.
pub(super) const DEFAULT_OUT: &str = "csv";

pub fn export(paths: &[PathBuf], out: Option<&Path>, format: MessageFormat) -> Result<ExitCode> {
    let project = Project::for_paths(paths)?;
    let inputs = build::inputs(&project, paths)?;
    let out = out.map_or_else(|| project.home().join(DEFAULT_OUT), Path::to_path_buf);
    output::refuse_overlap(&out, &inputs, Some(project.home()))?;
    let outcome = build::load(&project, &inputs)?;
    check::print(&outcome, format)?;
    if outcome.stats.errors > 0 {
        eprintln!("nothing written: fix the errors first");
        return Ok(ExitCode::from(1));
    }
    output::require_cards(&outcome, &inputs)?;
    let tables = spreadsheet::export::export(&outcome.files, &outcome.project)
        .map_err(|e| miette!("cannot write a table: {e}"))?;
    atomic::replace_folder(&out, &tables)?;
    let names: Vec<&str> = tables.iter().map(|f| f.name.as_str()).collect();
    eprintln!("wrote {} to {}", names.join(", "), out.display());
    Ok(ExitCode::SUCCESS)
}

/// What `import` is told.
pub struct ImportArgs<'a> {
    pub table: &'a Path,
    pub game: &'a str,
    pub kind: &'a str,
    /// `HEADER=FIELD` pairs.
    pub map: &'a [String],
    pub out: Option<&'a Path>,
}

pub fn import(args: &ImportArgs<'_>) -> Result<ExitCode> {
    let project = Project::find()?;
    let out = args.out.map_or_else(|| args.table.with_extension("cards"), Path::to_path_buf);
    if out.exists() {
        return Err(miette!(help = "name another file with -o, or remove it", "{} already exists", out.display()));
    }
    let table = read::text(args.table, &read::TABLE)?;
    let mapping = mapping(args.map)?;
    // The project's files, read once: its rulesets give the kind's columns,
    // and all of them are checked with the new cards so that the names the
    // cards use resolve as they will.
    let sources = project_sources(&project)?;
    let ruleset = ruleset(&project, &sources, args.game)?;
    let Some(kind) = ruleset.kind(args.kind) else {
        let kinds: Vec<&str> = ruleset.kinds.iter().map(|k| k.id.as_str()).collect();
        return Err(miette!(
            help = format!("its kinds: {}", kinds.join(", ")),
            "`{}` has no kind `{}`",
            args.game,
            args.kind
        ));
    };
    let table_name = project::display_name(args.table);
    let generated = spreadsheet::import::cards_from_table(&table, args.game, kind, &mapping)
        .map_err(|e| miette!(help = e.help.clone().unwrap_or_default(), "{}", located(&table_name, &e)))?;
    let out_name = project::display_name(&out);
    let mut workspace = project.workspace();
    for (name, bytes) in sources {
        workspace.add_bytes(&name, bytes);
    }
    workspace.add_text(&out_name, &generated.text);
    let outcome = workspace.check();
    let (mut errors, mut shown) = (0, 0);
    for warning in &generated.warnings {
        shown += 1;
        if shown <= MOST_SHOWN {
            eprintln!("{}", located(&table_name, warning));
            if let Some(help) = &warning.help {
                eprintln!("  help: {help}");
            }
        }
    }
    for diagnostic in &outcome.diagnostics {
        let Some(span) = diagnostic.primary_span().filter(|s| outcome.files.get(s.file).name == out_name) else {
            continue;
        };
        errors += usize::from(diagnostic.severity == Severity::Error);
        shown += 1;
        if shown > MOST_SHOWN {
            continue;
        }
        let level = if diagnostic.severity == Severity::Error { "error" } else { "warning" };
        let error = TableError {
            cell: generated.cell_at(span.start as usize).cloned(),
            message: format!("{level}[{}]: {}", diagnostic.code.id, diagnostic.message),
            help: None,
        };
        eprintln!("{}", located(&table_name, &error));
        if let Some(help) = &diagnostic.help {
            eprintln!("  help: {help}");
        }
    }
    if shown > MOST_SHOWN {
        eprintln!("… and {} more", shown - MOST_SHOWN);
    }
    if errors > 0 {
        eprintln!("nothing written: {errors} error{} to fix in the table", if errors == 1 { "" } else { "s" });
        return Ok(ExitCode::from(1));
    }
    atomic::create_file(&out, &generated.text)?;
    eprintln!("wrote {} card{} to {}", generated.cards, if generated.cards == 1 { "" } else { "s" }, out.display());
    Ok(ExitCode::SUCCESS)
}

fn located(table: &str, error: &TableError) -> String {
    match &error.cell {
        Some(cell) if cell.column.is_empty() => format!("{table}:{}: {}", cell.row, error.message),
        Some(cell) => format!("{table}:{}: column `{}`: {}", cell.row, cell.column, error.message),
        None => format!("{table}: {}", error.message),
    }
}

fn mapping(pairs: &[String]) -> Result<Vec<(String, String)>> {
    pairs
        .iter()
        .map(|pair| match pair.split_once('=') {
            Some((header, field)) => Ok((header.to_string(), field.trim().to_string())),
            None => Err(miette!(help = "write --map \"Card Name=name\"", "`{pair}` maps no column to a field")),
        })
        .collect()
}

/// The project's own files, by the names the checker gives them.
fn project_sources(project: &Project) -> Result<Vec<(String, Vec<u8>)>> {
    let paths = project::collect(&project.paths(&[])?)?;
    paths.iter().map(|path| Ok((project::display_name(path), read::source(path)?))).collect()
}

/// The ruleset of `game`, as the project sees it: its own rulesets, else the
/// bundled one.
fn ruleset(project: &Project, sources: &[(String, Vec<u8>)], game: &str) -> Result<Ruleset> {
    let mut workspace = project.workspace();
    for (name, bytes) in sources.iter().filter(|(name, _)| name.ends_with(".rules")) {
        workspace.add_bytes(name, bytes.clone());
    }
    workspace.add_text("<import>", &format!("game {game}\n"));
    let outcome = workspace.check();
    outcome.project.games.into_iter().map(|g| g.ruleset).find(|r| r.id == game).ok_or_else(|| {
        let games: Vec<&str> = cardsmith::check::builtin::ids().collect();
        miette!(help = format!("bundled games: {}", games.join(", ")), "no game `{game}` in this project")
    })
}
