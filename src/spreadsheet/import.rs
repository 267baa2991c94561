//! `cardsmith import TABLE.csv --game ID --kind KIND`: a card file from a
//! spreadsheet, each line of it traced back to the cell it came from, so a
//! problem the checker finds is reported by row and column.

use super::{
    columns, header_key, is_formula, is_text_field, string_from_cell, unguarded, EFFECTS, FORMULA_CELL, LINTS, NAME,
    TAGS,
};
use crate::ruleset::model::Kind;
use crate::ruleset::names::suggest;
use std::ops::Range;

/// A card file made from a table.
#[derive(Debug)]
pub struct Generated {
    pub text: String,
    pub cards: usize,
    /// Cells imported as they are that a spreadsheet would have run as
    /// formulas ([`FORMULA_CELL`]), one warning each.
    pub warnings: Vec<TableError>,
    origins: Vec<(Range<usize>, Cell)>,
}

/// Where in the table something came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The table's line the row starts on (the header is line 1).
    pub row: u64,
    /// The column's header as written; empty for the row as a whole.
    pub column: String,
}

impl Generated {
    /// The cell a byte of the generated text came from.  (The origins are
    /// recorded in the order of the text, so this is a binary search.)
    pub fn cell_at(&self, offset: usize) -> Option<&Cell> {
        let after = self.origins.partition_point(|(range, _)| range.start <= offset);
        let (range, cell) = self.origins.get(after.checked_sub(1)?)?;
        range.contains(&offset).then_some(cell)
    }
}

/// A table that cannot become cards: a column with no field, a row without
/// a name, text that is not CSV.
#[derive(Debug)]
pub struct TableError {
    pub cell: Option<Cell>,
    pub message: String,
    pub help: Option<String>,
}

/// Which field each column fills: `mapping` pairs (header, field) win over
/// the headers' own names.
fn column_fields(
    headers: &csv::StringRecord,
    kind: &Kind,
    mapping: &[(String, String)],
) -> Result<Vec<String>, TableError> {
    let known = columns(kind);
    let mut fields = Vec::new();
    for header in headers {
        let mapped = mapping.iter().find(|(from, _)| header_key(from) == header_key(header)).map(|(_, to)| to.as_str());
        let wanted = header_key(mapped.unwrap_or(header));
        match known.iter().find(|k| **k == wanted) {
            Some(field) => fields.push(field.to_string()),
            None => {
                return Err(TableError {
                    cell: Some(Cell { row: 1, column: header.to_string() }),
                    message: format!("column `{header}` is no field of {}", kind.display),
                    help: Some(match suggest(&wanted, known.iter().copied()) {
                        Some(near) => format!("did you mean `{near}`? or map it: --map \"{header}=FIELD\""),
                        None => format!("the columns of {}: {}", kind.display, known.join(", ")),
                    }),
                })
            }
        }
    }
    if !fields.iter().any(|f| f == NAME) {
        return Err(TableError {
            cell: None,
            message: "the table has no `name` column".to_string(),
            help: Some("name the column of card names `name`, or map it: --map \"Card Name=name\"".to_string()),
        });
    }
    Ok(fields)
}

/// The card file for a table of cards of one kind of `game`.
pub fn cards_from_table(
    table: &str,
    game: &str,
    kind: &Kind,
    mapping: &[(String, String)],
) -> Result<Generated, TableError> {
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(table.as_bytes());
    let not_csv = |e: csv::Error| TableError {
        cell: e.position().map(|p| Cell { row: p.line(), column: String::new() }),
        message: format!("the table cannot be read as CSV: {e}"),
        help: Some("save the sheet as CSV (comma-separated, UTF-8), one card a row under one header row".to_string()),
    };
    let headers = reader.headers().map_err(not_csv)?.clone();
    let fields = column_fields(&headers, kind, mapping)?;
    let mut out = Generated { text: format!("game {game}\n"), cards: 0, warnings: Vec::new(), origins: Vec::new() };
    for record in reader.records() {
        let record = record.map_err(not_csv)?;
        let row = record.position().map_or(0, |p| p.line());
        let record = cells(&mut out, &headers, &record, row);
        card(&mut out, kind, &headers, &fields, &record, row)?;
        out.cards += 1;
    }
    Ok(out)
}

/// A row's cells as its card reads them: the `'` that export puts before a
/// formula is taken away, and a formula without it is taken as the text it
/// holds, with a warning at its cell.
fn cells(out: &mut Generated, headers: &csv::StringRecord, record: &csv::StringRecord, row: u64) -> csv::StringRecord {
    let mut cells = csv::StringRecord::new();
    for (i, cell) in record.iter().enumerate() {
        if is_formula(cell) {
            let start = match cell.chars().next() {
                Some('\t') => "a tab".to_string(),
                Some('\r') => "a carriage return".to_string(),
                first => format!("`{}`", first.unwrap_or_default()),
            };
            out.warnings.push(TableError {
                cell: Some(Cell { row, column: headers.get(i).unwrap_or_default().to_string() }),
                message: format!(
                    "warning[{}]: this cell starts with {start}: a spreadsheet would run it as a formula",
                    FORMULA_CELL.id
                ),
                help: Some(
                    "it is imported as the text it holds: check that it is the text you meant (`cardsmith export` \
                     writes such text with a `'` before it)"
                        .to_string(),
                ),
            });
        }
        cells.push_field(unguarded(cell));
    }
    cells
}

/// Appends one row's card.
fn card(
    out: &mut Generated,
    kind: &Kind,
    headers: &csv::StringRecord,
    fields: &[String],
    record: &csv::StringRecord,
    row: u64,
) -> Result<(), TableError> {
    let cell_of = |i: usize| Cell { row, column: headers.get(i).unwrap_or_default().to_string() };
    let column = |name: &str| fields.iter().position(|f| f == name);
    let name_at = column(NAME).unwrap_or(0);
    let name = record.get(name_at).unwrap_or_default().trim();
    if name.is_empty() {
        return Err(TableError {
            cell: Some(cell_of(name_at)),
            message: "this row's card has no name".to_string(),
            help: Some("every row needs a name; remove rows that hold no card".to_string()),
        });
    }
    out.text.push('\n');
    // The card's own problems (a missing field) point at its kind: the row.
    push_traced(out, &kind.id, Cell { row, column: String::new() });
    out.text.push(' ');
    push_traced(out, &string_from_cell(name), cell_of(name_at));
    if let Some(i) = column(TAGS) {
        for tag in record.get(i).unwrap_or_default().split_whitespace() {
            out.text.push(' ');
            push_traced(out, tag, cell_of(i));
        }
    }
    let mut lines = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let cell = record.get(i).unwrap_or_default();
        if matches!(field.as_str(), NAME | TAGS) || cell.trim().is_empty() {
            continue;
        }
        match kind.schema.field(field) {
            Some(def) if is_text_field(def) => lines.push((format!("{field} {}", string_from_cell(cell)), i)),
            Some(_) => lines.extend(cell_lines(cell).map(|line| (format!("{field} {line}"), i))),
            None if matches!(field.as_str(), EFFECTS | LINTS) => {
                lines.extend(cell_lines(cell).map(|line| (line.to_string(), i)))
            }
            None => {}
        }
    }
    // A cell's line stays inside its card: its braces must close what they
    // open, or it would end the card early or swallow the next.
    if let Some((_, i)) = lines.iter().find(|(line, _)| !braces_balance(line)) {
        return Err(TableError {
            cell: Some(cell_of(*i)),
            message: "the braces in this cell do not balance".to_string(),
            help: Some("each `{` of a block closes with `}` on the same line of the cell".to_string()),
        });
    }
    if !lines.is_empty() {
        out.text.push_str(" {\n");
        for (line, i) in lines {
            out.text.push_str("  ");
            push_traced(out, &line, cell_of(i));
            out.text.push('\n');
        }
        out.text.push('}');
    }
    out.text.push('\n');
    Ok(())
}

fn cell_lines(cell: &str) -> impl Iterator<Item = &str> {
    cell.lines().map(str::trim).filter(|l| !l.is_empty())
}

fn push_traced(out: &mut Generated, text: &str, cell: Cell) {
    let start = out.text.len();
    out.text.push_str(text);
    out.origins.push((start..out.text.len(), cell));
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
