//! A spreadsheet as a source of cards, checked with the card files.
//!
//! A sheet goes into the files table twice.  Its table, as text, is the
//! file diagnostics point into: a CSV file as it is on disk, an XLSX
//! worksheet as the CSV text of its cells ([`super::xlsx`]), in both cases
//! with the place of every cell ([`SheetCells`]), so that a problem is shown
//! at its cell (`units.xlsx!C7`) with the row's text.  The card text it
//! stands for is a second file, made once the rulesets are read (the kind's
//! fields say which cells are text), whose every piece leads back to its
//! cell ([`crate::source::Derived`]); the workspace moves the checker's
//! diagnostics there before anyone sees them.

use super::import::{cards_from_table, Target};
use super::table::{cell_text, Table, MAX_COLUMNS};
use super::{SHEET_KIND, SHEET_UNREADABLE};
use crate::diagnostics::Diagnostic;
use crate::ruleset::model::{Kind, Ruleset};
use crate::source::{FileId, Files, SheetCells, Span};
use crate::syntax::ast::SourceTree;
use std::ops::Range;

/// A spreadsheet of cards of one kind, as the project lists it.
#[derive(Clone, Debug, Default)]
pub struct Sheet {
    /// The name diagnostics show: its path relative to the project.
    pub name: String,
    pub game: String,
    pub kind: String,
    /// The worksheet of an XLSX workbook; the first when not given.
    pub worksheet: Option<String>,
    /// `(header, field)` pairs: a column read as another field.
    pub mapping: Vec<(String, String)>,
    /// Where the project file lists the sheet, for problems of its game or
    /// kind.
    pub listed: Option<Listed>,
}

/// The project file's text and the places in it of a sheet's settings.
#[derive(Clone, Debug, Default)]
pub struct Listed {
    pub file: String,
    pub text: String,
    pub game: Option<Range<usize>>,
    pub kind: Range<usize>,
}

/// Whether a sheet is read as an XLSX workbook: by its name, or by the
/// bytes of a zip archive.
pub fn is_xlsx(name: &str, bytes: &[u8]) -> bool {
    name.to_ascii_lowercase().ends_with(".xlsx") || bytes.starts_with(b"PK\x03\x04")
}

/// A sheet in the files table, its cells read.
#[derive(Debug)]
pub struct Loaded {
    pub sheet: Sheet,
    pub file: FileId,
    pub table: Table,
}

/// Adds a sheet's table to the files table and finds its cells.  A sheet
/// that cannot be read is reported and holds no cell.
pub fn load(files: &mut Files, sheet: Sheet, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> Loaded {
    let unreadable = |file: FileId, at: Range<usize>, message: String, help: &str| {
        Diagnostic::error(&SHEET_UNREADABLE, message).primary(Span::new(file, at.start, at.end), "here").help(help)
    };
    let most = crate::syntax::MAX_FILE_SIZE;
    if bytes.len() > most {
        let file = files.add(&sheet.name, "");
        let message = format!("`{}` is larger than {most} bytes (8 MiB), the most a sheet may hold", sheet.name);
        diagnostics.push(unreadable(file, 0..0, message, "split the table into several, each listed as a sheet"));
        return Loaded { sheet, file, table: Table::default() };
    }
    let text = if is_xlsx(&sheet.name, bytes) {
        super::xlsx::table_text(bytes, sheet.worksheet.as_deref())
    } else {
        std::str::from_utf8(bytes).map(str::to_string).map_err(|e| (e.valid_up_to(), not_utf8(e.valid_up_to())))
    };
    let (file, table) = match text {
        Ok(text) => {
            let file = files.add(&sheet.name, text);
            let table = Table::read(&files.get(file).text);
            table_problems(&table, file, diagnostics);
            (file, table)
        }
        Err((at, message)) => {
            let file = files.add(&sheet.name, String::from_utf8_lossy(bytes).into_owned());
            let at = at.min(files.get(file).text.len());
            let help = "save the sheet as CSV UTF-8 or as an Excel workbook (.xlsx)";
            diagnostics.push(unreadable(file, at..at, message, help));
            (file, Table::default())
        }
    };
    let headers = headers(&files.get(file).text, &table);
    files.set_sheet(file, SheetCells::new(table.cells.clone(), headers));
    Loaded { sheet, file, table }
}

fn not_utf8(at: usize) -> String {
    format!("this table is not UTF-8 text: the byte at offset {at} is not")
}

/// The problems of reading a table: a quote never closed, a row too wide.
fn table_problems(table: &Table, file: FileId, diagnostics: &mut Vec<Diagnostic>) {
    if let Some(at) = table.unclosed {
        diagnostics.push(
            Diagnostic::error(&SHEET_UNREADABLE, "this quoted cell is never closed")
                .primary(Span::new(file, at as usize, at as usize + 1), "the cell opens here and runs to the end")
                .help("close the cell's text with `\"`; a `\"` inside a quoted cell is written twice: `\"\"`"),
        );
    }
    if let Some(cell) = table.too_wide {
        diagnostics.push(
            Diagnostic::error(&SHEET_UNREADABLE, format!("this row is wider than {MAX_COLUMNS} columns"))
                .primary(Span::new(file, cell.start as usize, cell.end as usize), "no cell is read from here on")
                .help("a table of cards has a column per field; remove the cells past them"),
        );
    }
}

/// The header of each column: the first row's cells, by column.
fn headers(text: &str, table: &Table) -> Vec<String> {
    let mut headers = Vec::new();
    for cell in table.rows().next().unwrap_or_default() {
        headers.resize(cell.column as usize + 1, String::new());
        headers[cell.column as usize] = cell_text(&text[cell.start as usize..cell.end as usize]).trim().to_string();
    }
    headers
}

/// The card file a loaded sheet stands for, added to the files table
/// (named `<sheet>/NAME`), once the rulesets are among the trees; and the
/// names of the cards its rows with problems did not make.  `None` when
/// its game or kind does not exist (reported).
pub fn cards(
    files: &mut Files,
    trees: &[(FileId, SourceTree)],
    loaded: &Loaded,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(FileId, Vec<String>)> {
    let sheet = &loaded.sheet;
    let kind = match kind_of(files, trees, sheet) {
        Ok(kind) => kind,
        Err(problem) => {
            diagnostics.push(problem.at(files, loaded));
            return None;
        }
    };
    let target = Target { game: &sheet.game, kind: &kind, mapping: &sheet.mapping };
    let generated = cards_from_table(files, loaded.file, &loaded.table, &target);
    diagnostics.extend(generated.diagnostics);
    let file = files.add(format!("<sheet>/{}", sheet.name), generated.text);
    files.set_derived(file, generated.derived);
    Some((file, generated.lost_names))
}

/// A game or kind that does not exist.
struct Unknown {
    message: String,
    label: &'static str,
    help: String,
    /// Whether it is the game, not the kind, that is unknown.
    game: bool,
}

impl Unknown {
    /// The diagnostic, at the setting in the project file when the sheet
    /// was listed there (that file is added to the table for it), else at
    /// the sheet's start.
    fn at(self, files: &mut Files, loaded: &Loaded) -> Diagnostic {
        let span = match &loaded.sheet.listed {
            Some(listed) => {
                let range = if self.game { listed.game.clone() } else { None }.unwrap_or(listed.kind.clone());
                let file = files.add(&listed.file, listed.text.as_str());
                Span::new(file, range.start, range.end)
            }
            None => Span::new(loaded.file, 0, 0),
        };
        Diagnostic::error(&SHEET_KIND, self.message).primary(span, self.label).help(self.help)
    }
}

/// The kind a sheet's cards are of, from its game's ruleset among the trees.
fn kind_of(files: &Files, trees: &[(FileId, SourceTree)], sheet: &Sheet) -> Result<Kind, Unknown> {
    let Some(ruleset) = ruleset(files, trees, &sheet.game) else {
        let known: Vec<&str> = trees.iter().filter_map(|(_, t)| crate::check::ruleset_id(t)).collect();
        let bundled: Vec<&str> = crate::check::builtin::ids().collect();
        let near = crate::ruleset::names::suggest(&sheet.game, known.iter().chain(&bundled).copied());
        return Err(Unknown {
            message: format!("the sheet `{}` is of the unknown game `{}`", sheet.name, sheet.game),
            label: "no ruleset has this id",
            help: match near {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!("the bundled games: {}", bundled.join(", ")),
            },
            game: true,
        });
    };
    match ruleset.kind(&sheet.kind) {
        Some(kind) => Ok(kind.clone()),
        None => {
            let kinds: Vec<&str> = ruleset.kinds.iter().map(|k| k.id.as_str()).collect();
            let near = crate::ruleset::names::suggest(&sheet.kind, kinds.iter().copied());
            Err(Unknown {
                message: format!("`{}` has no kind `{}` for the sheet `{}`", sheet.game, sheet.kind, sheet.name),
                label: "no such kind",
                help: match near {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => format!("its kinds: {}", kinds.join(", ")),
                },
                game: false,
            })
        }
    }
}

/// The ruleset of `game` among the trees, with the rulesets it extends;
/// its problems are the checker's to report.
fn ruleset(files: &Files, trees: &[(FileId, SourceTree)], game: &str) -> Option<Ruleset> {
    let find = |id: &str| trees.iter().find(|(_, t)| crate::check::ruleset_id(t) == Some(id));
    let (file, tree) = find(game)?;
    let mut bases: Vec<&SourceTree> = Vec::new();
    let mut current = crate::ruleset::extends(tree);
    while let Some((id, _)) = current {
        let Some((_, base)) = find(id) else { break };
        if bases.len() >= 8 || bases.iter().any(|b| std::ptr::eq(*b, base)) || std::ptr::eq(base, tree) {
            break;
        }
        bases.insert(0, base);
        current = crate::ruleset::extends(base);
    }
    crate::ruleset::load(files, *file, tree, &bases, &mut Vec::new())
}
