//! `cardsmith export --csv` and `cardsmith import`: cards to and from
//! spreadsheets, through [`cardsmith::spreadsheet`].

use super::project::{self, Project};
use super::{atomic, build, check, output, read};
use cardsmith::backend::OutputFile;
use cardsmith::diagnostics::render::MessageFormat;
use cardsmith::diagnostics::Diagnostic;
use cardsmith::diagnostics::Severity;
use cardsmith::ruleset::model::Ruleset;
use cardsmith::spreadsheet::{self, merge, sheet::Sheet};
use cardsmith::workspace::Outcome;
use miette::{miette, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    let tables: Vec<OutputFile> = spreadsheet::export::export(&outcome.files, &outcome.project)
        .map_err(|e| miette!("cannot write a table: {e}"))?
        .into_iter()
        .map(|(name, contents)| OutputFile { name, contents })
        .collect();
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
    /// Merge the table's cards into the existing file `out`, by name.
    pub update: bool,
    /// The worksheet of an XLSX workbook.
    pub worksheet: Option<&'a str>,
}

pub fn import(args: &ImportArgs<'_>) -> Result<ExitCode> {
    let project = Project::find()?;
    let out = args.out.map_or_else(|| args.table.with_extension("cards"), Path::to_path_buf);
    let existing = existing(&out, args.update)?;
    let bytes = read::bytes(args.table, &read::TABLE)?;
    let sheet = Sheet {
        name: project::display_name(args.table),
        game: args.game.to_string(),
        kind: args.kind.to_string(),
        worksheet: args.worksheet.map(str::to_string),
        mapping: mapping(args.map)?,
        listed: None,
    };
    // The project's files, read once: its rulesets give the kind's columns,
    // and all of them are checked with the new cards so that the names the
    // cards use resolve as they will.
    let mut sources = project_sources(&project)?;
    let ruleset = ruleset(&project, &sources, args.game)?;
    if ruleset.kind(args.kind).is_none() {
        let kinds: Vec<&str> = ruleset.kinds.iter().map(|k| k.id.as_str()).collect();
        return Err(miette!(
            help = format!("its kinds: {}", kinds.join(", ")),
            "`{}` has no kind `{}`",
            args.game,
            args.kind
        ));
    }
    let generated = generated(&project, &sources, &sheet, &bytes);
    let out_name = project::display_name(&out);
    let merged = match &existing {
        Some(read) => Some(
            merge::merge(read, &generated)
                .map_err(|e| miette!(help = "name another file with -o", "cannot update {}: {e}", out.display()))?,
        ),
        None => None,
    };
    // Checked: the project with the table as a source of cards, and the
    // file updated without the cards the table holds.
    sources.retain(|(name, _)| *name != out_name);
    if let Some(merged) = &merged {
        sources.push((out_name.clone(), merged.kept.clone().into_bytes()));
    }
    let mut workspace = project.workspace();
    for (name, bytes) in sources {
        workspace.add_bytes(&name, bytes);
    }
    for other in other_sheets(&project, args.table)? {
        workspace.add_sheet(other.sheet, &other.bytes);
    }
    workspace.add_sheet(sheet.clone(), &bytes);
    let outcome = workspace.check();
    let errors = report(&outcome, &sheet.name, &out_name);
    let from_table = format!("<sheet>/{}", sheet.name);
    let cards = outcome.project.games.iter().flat_map(|g| &g.cards);
    let made = cards.filter(|c| outcome.files.get(c.span.file).name == from_table).count();
    if errors > 0 {
        eprintln!("nothing written: {errors} error{} to fix in the table", if errors == 1 { "" } else { "s" });
        return Ok(ExitCode::from(1));
    }
    write(&out, existing.as_deref(), merged, &generated, made)
}

/// The text of the file `out` when the table updates it; an error when it
/// exists and is not to be updated.
fn existing(out: &Path, update: bool) -> Result<Option<String>> {
    match (out.exists(), update) {
        (true, false) => Err(miette!(
            help = "merge the table's cards into it with --update, or name another file with -o",
            "{} already exists",
            out.display()
        )),
        (true, true) => Ok(Some(read::text(out, &read::TABLE)?)),
        (false, _) => Ok(None),
    }
}

/// The card text the table stands for, made with the project's rulesets.
fn generated(project: &Project, sources: &[(String, Vec<u8>)], sheet: &Sheet, bytes: &[u8]) -> String {
    let mut workspace = project.workspace();
    for (name, bytes) in sources.iter().filter(|(name, _)| name.ends_with(".rules")) {
        workspace.add_bytes(name, bytes.clone());
    }
    workspace.add_sheet(sheet.clone(), bytes);
    let outcome = workspace.check();
    let cards = format!("<sheet>/{}", sheet.name);
    let file = outcome.files.ids().find(|id| outcome.files.get(*id).name == cards);
    file.map(|id| outcome.files.get(id).text.clone()).unwrap_or_default()
}

/// Prints the problems found in the table, and a hint when its cards are
/// already in the project; gives the number of errors.
fn report(outcome: &Outcome, table: &str, out_name: &str) -> usize {
    let in_table: Vec<Diagnostic> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.primary_span().is_some_and(|s| outcome.files.get(s.file).name == table))
        .cloned()
        .collect();
    let terminal = std::io::stderr().is_terminal();
    eprint!("{}", check::rendered(outcome, &in_table, MessageFormat::Human, terminal));
    let twice = in_table.iter().any(|d| d.code.id == cardsmith::check::codes::DUPLICATE_CARD.id);
    if twice {
        eprintln!(
            "help: to replace the project's cards with the table's, merge it into their file: `cardsmith import \
             {table} --update -o FILE` (this run would write {out_name})"
        );
    }
    in_table.iter().filter(|d| d.severity == Severity::Error).count()
}

/// Writes the new card file, or the merged one over the file read.
fn write(
    out: &Path,
    existing: Option<&str>,
    merged: Option<merge::Merged>,
    generated: &str,
    made: usize,
) -> Result<ExitCode> {
    let cards = |n: usize| format!("{n} card{}", if n == 1 { "" } else { "s" });
    match (existing, merged) {
        (Some(read), Some(merged)) => {
            let replaced = atomic::replace_file(out, read.as_bytes(), &merged.text)?;
            if let Some(warning) = replaced.warning(&project::display_name(out), "updated", "import --update") {
                eprintln!("{warning}");
                return Ok(ExitCode::from(1));
            }
            eprintln!(
                "updated {}: {} replaced, {} added, {} unchanged",
                out.display(),
                cards(merged.replaced),
                merged.added,
                merged.unchanged
            );
        }
        _ => {
            atomic::create_file(out, generated)?;
            eprintln!("wrote {} to {}", cards(made), out.display());
        }
    }
    Ok(ExitCode::SUCCESS)
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
    let (listed, _) = project.sources(&[])?;
    listed.files.iter().map(|path| Ok((project::display_name(path), read::source(path)?))).collect()
}

/// The spreadsheets the project lists, but the table being imported.
fn other_sheets(project: &Project, table: &Path) -> Result<Vec<project::SheetFile>> {
    let real = |path: &Path| path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let (_, sheets) = project.sources(&[])?;
    Ok(sheets.into_iter().filter(|sheet| real(&sheet.path) != real(table)).collect())
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
