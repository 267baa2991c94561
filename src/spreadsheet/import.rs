//! Cards from a table: the card text a sheet of one kind stands for, each
//! piece of it traced back to the cell it came from ([`Derived`]), so a
//! problem the checker finds in the cards is shown at its cell.
//!
//! A problem of the table itself (a column that is no field, a row without
//! a name, a cell whose braces do not balance) is reported here, once: a
//! row with such a problem makes no card, and the name it gives is kept
//! ([`Generated::lost_names`]) so that nothing else reports that card
//! again; a column that is no field makes no card of the table at all,
//! since every row would lack what the column holds.

use super::table::{cell_text, text_start, Table};
use super::{
    columns, header_key, is_formula, is_text_field, string_from_cell, unguarded, FORMULA_CELL, NAME, SHEET_CELL,
    SHEET_COLUMN, SHEET_HEADER, SHEET_ROW, SHEET_UNREADABLE, TAGS,
};
use crate::diagnostics::Diagnostic;
use crate::ruleset::model::Kind;
use crate::ruleset::names::suggest;
use crate::source::{CellPlace, Derived, FileId, Files, Span};

/// The card text a table stands for.
#[derive(Debug)]
pub struct Generated {
    pub text: String,
    pub cards: usize,
    /// Where each piece of the text came from in the table.
    pub derived: Derived,
    /// The table's own problems, at its cells.
    pub diagnostics: Vec<Diagnostic>,
    /// The names of the cards of rows that made none.
    pub lost_names: Vec<String>,
}

/// What the cards are: their game, their kind, and the columns renamed.
pub struct Target<'a> {
    pub game: &'a str,
    pub kind: &'a Kind,
    /// `(header, field)` pairs: a column read as another field.
    pub mapping: &'a [(String, String)],
}

/// The cards of the table held in `file`, read as [`Table::read`] reads it.
pub fn cards_from_table(files: &Files, file: FileId, table: &Table, target: &Target<'_>) -> Generated {
    let text = files.get(file).text.as_str();
    let mut out = Writer {
        text,
        file,
        generated: Generated {
            text: String::new(),
            cards: 0,
            derived: Derived::new(file),
            diagnostics: Vec::new(),
            lost_names: Vec::new(),
        },
    };
    out.push(&format!("game {}", target.game), 0..0, false);
    out.generated.text.push('\n');
    let mut rows = table.rows();
    let Some(header) = rows.next() else {
        out.generated.diagnostics.push(
            Diagnostic::error(&SHEET_HEADER, "the table is empty: it has no header row")
                .primary(Span::new(file, 0, 0), "no header row")
                .help(format!("the first row names the columns: {}", columns(target.kind).join(", "))),
        );
        return out.generated;
    };
    let fields = out.header(header, target);
    for row in rows {
        out.row(row, &fields, target);
    }
    out.generated
}

struct Writer<'t> {
    text: &'t str,
    file: FileId,
    generated: Generated,
}

/// The field each column fills, by column; `None` for a column with no
/// header.  `Err` when the table can make no card: a column that is no
/// field, a field given twice, no `name` column.
type Fields = Result<Vec<Option<String>>, Option<u32>>;

impl Writer<'_> {
    fn raw(&self, cell: &CellPlace) -> &str {
        &self.text[cell.start as usize..cell.end as usize]
    }

    fn span(&self, cell: &CellPlace) -> Span {
        Span::new(self.file, cell.start as usize, cell.end as usize)
    }

    fn push(&mut self, text: &str, from: std::ops::Range<usize>, copied: bool) {
        let start = self.generated.text.len();
        self.generated.text.push_str(text);
        self.generated.derived.push(start..self.generated.text.len(), from, copied);
    }

    /// Reads the header row: which field each column fills.
    fn header(&mut self, header: &[CellPlace], target: &Target<'_>) -> Fields {
        let known = columns(target.kind);
        let mut fields: Vec<Option<String>> = Vec::new();
        let mut refused = false;
        for cell in header {
            let written = cell_text(self.raw(cell)).trim().to_string();
            let mapped = target.mapping.iter().find(|(from, _)| header_key(from) == header_key(&written));
            let wanted = header_key(mapped.map_or(written.as_str(), |(_, to)| to.as_str()));
            fields.resize(cell.column as usize + 1, None);
            if fields.contains(&Some(wanted.clone())) {
                refused = true;
                self.generated.diagnostics.push(
                    Diagnostic::error(&SHEET_COLUMN, format!("the column of `{wanted}` is given twice"))
                        .primary(self.span(cell), "a second column of this field")
                        .help("keep one column per field: join the two, or remove one"),
                );
            } else if known.contains(&wanted.as_str()) {
                fields[cell.column as usize] = Some(wanted);
            } else {
                refused = true;
                self.generated.diagnostics.push(unknown_column(self.span(cell), &written, &wanted, target.kind));
            }
        }
        let name_column = fields.iter().position(|f| f.as_deref() == Some(NAME));
        if name_column.is_none() && !refused {
            let span = header.first().map_or(Span::new(self.file, 0, 0), |c| self.span(c));
            self.generated.diagnostics.push(
                Diagnostic::error(&SHEET_HEADER, "the table has no `name` column")
                    .primary(span, "the header row names no column `name`")
                    .help(
                        "name the column of card names `name`, or say which it is: --map \"Card Name=name\" on \
                         import, map = { \"Card Name\" = \"name\" } in its [[sheet]]",
                    ),
            );
        }
        match (refused, name_column) {
            (false, Some(_)) => Ok(fields),
            (_, name) => Err(name.map(|n| n as u32)),
        }
    }

    /// Appends one row's card, or reports why it makes none.
    fn row(&mut self, row: &[CellPlace], fields: &Fields, target: &Target<'_>) {
        let name_cell = |column: u32| row.iter().find(|c| c.column == column);
        let fields = match fields {
            Ok(fields) => fields,
            Err(name_column) => {
                // The table makes no card; its names are still known.
                if let Some(cell) = name_column.and_then(name_cell) {
                    let name = cell_text(self.raw(cell)).trim().to_string();
                    self.generated.lost_names.push(name);
                }
                return;
            }
        };
        // A row of cells holding only spaces is as blank as an empty one.
        if row.iter().all(|c| cell_text(self.raw(c)).trim().is_empty()) {
            return;
        }
        let name_column = fields.iter().position(|f| f.as_deref() == Some(NAME)).unwrap_or_default() as u32;
        let name = name_cell(name_column).map(|c| unguarded(&cell_text(self.raw(c))).trim().to_string());
        let before = self.generated.diagnostics.len();
        for cell in row {
            self.cell_problems(cell, fields, target.kind);
        }
        let Some(name) = name.filter(|n| !n.is_empty()) else {
            self.generated.diagnostics.push(
                Diagnostic::error(&SHEET_ROW, format!("row {} holds cells but no name", row[0].row))
                    .primary(self.span(&row[0]), "a row without a card name")
                    .help("every row that holds a card needs its name; remove the rest of a row that holds none"),
            );
            return;
        };
        let errors = self.generated.diagnostics[before..].iter().any(Diagnostic::is_error);
        if !errors && self.generated.text.len() > crate::syntax::MAX_FILE_SIZE {
            self.too_large(&row[0]);
        }
        if errors || self.generated.text.len() > crate::syntax::MAX_FILE_SIZE {
            self.generated.lost_names.push(name);
            return;
        }
        self.card(row, fields, target, &name, name_column);
    }

    /// Reports, once, that the cards have grown past what a file may hold.
    fn too_large(&mut self, first: &CellPlace) {
        if self.generated.diagnostics.iter().any(|d| d.code.id == SHEET_UNREADABLE.id) {
            return;
        }
        let most = crate::syntax::MAX_FILE_SIZE;
        self.generated.diagnostics.push(
            Diagnostic::error(
                &SHEET_UNREADABLE,
                format!("the cards of this table pass {most} bytes (8 MiB) of card text here"),
            )
            .primary(self.span(first), "no card is made from this row on")
            .help("split the table into several, each listed as a sheet of its own"),
        );
    }

    /// A cell's own problems: no column, a formula, braces that do not balance.
    fn cell_problems(&mut self, cell: &CellPlace, fields: &[Option<String>], kind: &Kind) {
        let text = cell_text(self.raw(cell)).into_owned();
        let field = fields.get(cell.column as usize).cloned().flatten();
        let Some(field) = field else {
            if !text.trim().is_empty() {
                self.generated.diagnostics.push(
                    Diagnostic::error(&SHEET_CELL, "this cell is in a column with no header")
                        .primary(self.span(cell), "no field is named for this column")
                        .help("name the column's field in the header row, or empty the cell"),
                );
            }
            return;
        };
        if is_formula(&text) {
            self.generated.diagnostics.push(formula_warning(self.span(cell), &text));
        }
        let text = unguarded(&text);
        let lines = !matches!(field.as_str(), NAME | TAGS) && !kind.schema.field(&field).is_some_and(is_text_field);
        if lines && text.lines().any(|line| !braces_balance(line)) {
            self.generated.diagnostics.push(
                Diagnostic::error(&SHEET_CELL, "the braces in this cell do not balance")
                    .primary(self.span(cell), "a `{` or `}` without its pair")
                    .help("each `{` of a block closes with `}` on the same line of the cell"),
            );
        }
    }

    /// Appends a card: its kind and name (traced to the name cell), its
    /// tags, and a line for each cell that holds something.
    fn card(&mut self, row: &[CellPlace], fields: &[Option<String>], target: &Target<'_>, name: &str, at: u32) {
        let Some(name_cell) = row.iter().find(|c| c.column == at).copied() else { return };
        let whole = name_cell.start as usize..name_cell.end as usize;
        self.generated.text.push('\n');
        self.push(&target.kind.id, whole.clone(), false);
        self.generated.text.push(' ');
        self.push(&string_from_cell(name), whole, false);
        let mut lines = Vec::new();
        for cell in row {
            match fields.get(cell.column as usize).cloned().flatten() {
                Some(field) if field == TAGS => self.tags(cell),
                Some(field) if field != NAME => lines.push((cell, field)),
                _ => {}
            }
        }
        let mut open = false;
        for (cell, field) in lines {
            self.lines(cell, &field, target.kind, &mut open);
        }
        if open {
            self.generated.text.push('}');
        }
        self.generated.text.push('\n');
        self.generated.cards += 1;
    }

    fn tags(&mut self, cell: &CellPlace) {
        let raw = self.raw(cell).to_string();
        let text = cell_text(&raw).into_owned();
        let copied = text_start(&raw, cell.start as usize);
        for tag in text.split_whitespace() {
            self.generated.text.push(' ');
            let from = copied.map(|at| at + offset_in(&text, tag));
            self.traced(tag, cell, from);
        }
    }

    /// Appends a piece of a cell's text: byte for byte from `from` when
    /// the table holds it as it is, else from the whole cell.
    fn traced(&mut self, text: &str, cell: &CellPlace, from: Option<usize>) {
        match from {
            Some(at) => self.push(text, at..at + text.len(), true),
            None => self.push(text, cell.start as usize..cell.end as usize, false),
        }
    }

    /// Appends the lines of one cell of a field, `effects` or `lints`.
    fn lines(&mut self, cell: &CellPlace, field: &str, kind: &Kind, open: &mut bool) {
        let raw = self.raw(cell).to_string();
        let written = cell_text(&raw).into_owned();
        let text = unguarded(&written);
        let copied = text_start(&raw, cell.start as usize).map(|at| at + offset_in(&written, text));
        let whole = cell.start as usize..cell.end as usize;
        let mut begin = |out: &mut Writer<'_>| {
            out.generated.text.push_str(if *open { "  " } else { " {\n  " });
            *open = true;
        };
        match kind.schema.field(field) {
            Some(def) if is_text_field(def) => {
                if !text.trim().is_empty() {
                    begin(self);
                    self.push(&format!("{field} {}", string_from_cell(text)), whole, false);
                    self.generated.text.push('\n');
                }
            }
            def => {
                for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    begin(self);
                    if def.is_some() {
                        self.push(&format!("{field} "), whole.clone(), false);
                    }
                    self.traced(line, cell, copied.map(|at| at + offset_in(text, line)));
                    self.generated.text.push('\n');
                }
            }
        }
    }
}

/// Where `part`, a slice of `whole`, starts in it.
fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize).min(whole.len())
}

fn unknown_column(span: Span, written: &str, wanted: &str, kind: &Kind) -> Diagnostic {
    let known = columns(kind);
    let near = suggest(wanted, known.iter().copied()).or_else(|| {
        // `Card Name` is the column `name`: a field the header holds as a word.
        let words: Vec<&str> = wanted.split('-').collect();
        known.iter().copied().filter(|k| words.contains(k)).max_by_key(|k| k.len())
    });
    let near = near.unwrap_or(NAME);
    Diagnostic::error(&SHEET_COLUMN, format!("column `{written}` is no field of {}", kind.display))
        .primary(span, "no field has this name")
        .note(format!("the columns of {}: {}", kind.display, known.join(", ")))
        .help(format!(
            "did you mean `{near}`? rename the column, or say which field it is: --map \"{written}={near}\" on \
             import, map = {{ \"{written}\" = \"{near}\" }} in its [[sheet]]"
        ))
}

fn formula_warning(span: Span, text: &str) -> Diagnostic {
    let start = match text.chars().next() {
        Some('\t') => "a tab".to_string(),
        Some('\r') => "a carriage return".to_string(),
        first => format!("`{}`", first.unwrap_or_default()),
    };
    Diagnostic::warning(
        &FORMULA_CELL,
        format!("this cell starts with {start}: a spreadsheet would run it as a formula"),
    )
    .primary(span, "read as the text it holds")
    .help(
        "check that it is the text you meant (`cardsmith export` writes such text with a `'` before it, which \
             spreadsheets read as text)",
    )
}

/// Whether every `{` outside strings closes, and no `}` closes what the line
/// did not open.
fn braces_balance(line: &str) -> bool {
    let mut depth: usize = 0;
    let mut chars = line.chars();
    let (mut in_string, mut after_digit) = (false, false);
    while let Some(c) = chars.next() {
        let digit = c.is_ascii_digit();
        match (c, in_string) {
            ('\\', true) => {
                chars.next();
            }
            // `6"`: a distance in inches, not a string.
            ('"', false) if after_digit => {}
            ('"', _) => in_string = !in_string,
            ('{', false) => depth += 1,
            ('}', false) => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
        after_digit = digit && !in_string;
    }
    depth == 0 && !in_string
}

#[cfg(test)]
mod tests {
    use super::braces_balance;

    #[test]
    fn braces_balance_outside_strings_and_inch_marks() {
        for line in ["at 3.5 { impact damage 3 }", "x \"}{\"", "range 6\" { a }", "a { b { c } }", ""] {
            assert!(braces_balance(line), "{line}");
        }
        for line in ["at 3.5 { impact", "} x {", "narrow }", "\"open"] {
            assert!(!braces_balance(line), "{line}");
        }
    }
}
