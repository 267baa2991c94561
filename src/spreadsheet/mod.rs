//! Cards in spreadsheets: one table per card kind, a row per card, a
//! column per field.  [`export`] writes the tables of checked cards as CSV;
//! [`sheet`] reads a CSV or XLSX table as a source of cards, checked with
//! the project's card files: [`table`] finds its cells, and [`import`]
//! writes the card text it stands for, each piece traced to its cell, so a
//! problem is shown at the cell (`units.csv!C7`).
//!
//! The shape of a table comes from the kind's schema in the ruleset, never
//! from a game's name: the columns `name` and `tags`, one column per field
//! the kind declares (in its order), then `effects` when the kind holds
//! effect lines, and `lints` for `allow`/`warn`/`deny` lines.
//!
//! A cell holds what follows the field's name on its line, as written (`2 4
//! 3.0`, `3.5 { impact damage 4 }`), one line per occurrence of a repeated
//! field, a block on one line with `;` between its lines.  A field that takes
//! only text (and the card's name) holds the text itself, without quotes: a
//! `"` in the cell is a quote in the text, and `\{`, `\}`, `\*`, `\n`, `\t`
//! and `\\` keep their meaning in card text.
//!
//! A cell a spreadsheet would run as a formula (text starting with `=`,
//! `+`, `-`, `@`, a tab or a carriage return) is written with a `'` before
//! it, read back without it, and, found without it on import, imported as
//! text with a warning ([`FORMULA_CELL`]).

pub mod export;
pub mod import;
pub mod merge;
pub mod sheet;
pub mod table;
pub mod xlsx;

use crate::diagnostics::codes;
use crate::ruleset::model::{FieldDef, Kind, Repeat, Type};

codes! {
FORMULA_CELL "E0801" "formula-cell" "\
A cell of an imported table starts with `=`, `+`, `-`, `@`, a tab or a
carriage return, and is not a plain number: a spreadsheet opening the table
would have read it as a formula, and a formula can fetch addresses or run
programs (`=HYPERLINK(...)`, `=cmd|' /C calc'!A0`).  The cell is imported as
the text it holds; check that it is the text you meant, and open tables from
others with care.

`cardsmith export --csv` writes such text with a `'` before it, which
spreadsheets read as text, and `cardsmith import` takes that `'` away again:

    =Deal 3 damage       # warning: a spreadsheet would run it as a formula
    '=Deal 3 damage      # the text `=Deal 3 damage`, as export writes it";
SHEET_UNREADABLE "E0802" "sheet-unreadable" "\
A spreadsheet listed as a source of cards cannot be read as a table: a CSV
file that is not UTF-8 (save it as \"CSV UTF-8\"), a quoted cell that is never
closed, a row wider than 1024 columns, an XLSX workbook that is damaged,
has no such worksheet, or unpacks to more than a table of cards holds, or
a table whose cards come to more than 8 MiB of card text.  The message says
which; split a large table into several, each listed as a sheet:

    name,arc,text
    Shot,narrow,\"Deal 3 {damage}.     # the quote is never closed";
SHEET_COLUMN "E0803" "sheet-column" "\
A header of a spreadsheet of cards names no column of the kind, or names
one a second time.  The columns are `name`, `tags`, one per field of the
kind, `effects` when the kind has effect lines, and `lints`; case, spaces
and underscores do not matter (`Line of Fire` is `line-of-fire`).  A
column named otherwise can be read as a field:

    cardsmith import ships.csv --game G --kind ship --map \"Ship Name=name\"

    [[sheet]]
    path = \"ships.csv\"
    kind = \"ship\"
    map = { \"Ship Name\" = \"name\" }

No card of the table is made until its header is right: every row would
lack what the column holds.";
SHEET_HEADER "E0804" "sheet-header" "\
A spreadsheet of cards has no header row (it is empty), or its header row
names no `name` column.  The first row that holds anything names the
columns, and one of them holds each card's name:

    name,symbol,arc,at,text
    Shot,kinetic,narrow,3.5 { impact damage 3 },Deal 3 {damage}.";
SHEET_ROW "E0805" "sheet-row" "\
A row of a spreadsheet of cards holds cells but no card name.  Every row
that holds a card needs its name; a row that holds nothing at all is
passed over:

    name,arc
    ,narrow          # a card without a name
    ,                # a blank row: passed over";
SHEET_CELL "E0806" "sheet-cell" "\
A cell of a spreadsheet of cards cannot stand in its card: it lies in a
column with no header, or its braces do not balance (a block written in a
cell closes on the same line of the cell: `3.5 { impact damage 3 }`).  The
row makes no card until the cell is mended; the card's name is kept, so
nothing that names the card is reported as well:

    3.5 { impact damage 3        # wrong: the block is not closed
    3.5 { impact damage 3 }      # right";
SHEET_KIND "E0807" "sheet-kind" "\
A spreadsheet is listed as cards of a game or kind that does not exist.
Each `[[sheet]]` in `cardsmith.toml` names the kind of its cards, and its
game unless `[project] game` gives it:

    [[sheet]]
    path = \"offense.csv\"
    game = \"my-game\"
    kind = \"offense\"";
}

/// The column of a card's name.
pub const NAME: &str = "name";
/// The column of a card's tags, separated by spaces.
pub const TAGS: &str = "tags";
/// The column of effect lines written directly in a card.
pub const EFFECTS: &str = "effects";
/// The column of lint levels set in a card (`allow unusual-role`).
pub const LINTS: &str = "lints";
/// The words that set a lint level in a card.
pub const LINT_WORDS: [&str; 3] = ["allow", "warn", "deny"];

/// A kind's columns, in order.
pub fn columns(kind: &Kind) -> Vec<&str> {
    let mut columns = vec![NAME, TAGS];
    columns.extend(kind.schema.fields.iter().map(|f| f.name.as_str()));
    if kind.schema.effects {
        columns.push(EFFECTS);
    }
    columns.push(LINTS);
    columns
}

/// Whether a field's cell holds its text without quotes: the field takes
/// one piece of text and holds no block.
pub fn is_text_field(field: &FieldDef) -> bool {
    !field.has_block
        && matches!(field.schema.takes.as_slice(), [spec] if spec.repeat == Repeat::One
            && matches!(spec.ty, Type::Text | Type::String))
}

/// The text of a cell from a string as written between its quotes: `\"`
/// becomes `"`; every other escape is kept as written.
pub fn cell_from_string(written: &str) -> String {
    let mut out = String::with_capacity(written.len());
    let mut chars = written.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('"') => out.push('"'),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

/// A quoted string holding a cell's text (the reverse of
/// [`cell_from_string`]): `"` is escaped, escapes the language knows are
/// kept, and any other backslash is one.  Line breaks in a cell become `\n`.
pub fn string_from_cell(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len() + 2);
    out.push('"');
    let mut chars = cell.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => match chars.peek() {
                Some(next @ ('\\' | 'n' | 't' | '{' | '}' | '*')) => {
                    out.push('\\');
                    out.push(*next);
                    chars.next();
                }
                _ => out.push_str("\\\\"),
            },
            '\r' => {}
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The characters that make a spreadsheet read a cell as a formula when it
/// starts with one (OWASP's list for CSV injection).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether a spreadsheet would read a cell as a formula: it starts with one
/// of [`FORMULA_STARTS`] and is not a plain number (`-3`, `+2.5`), which a
/// spreadsheet reads as the number it is.
pub fn is_formula(cell: &str) -> bool {
    cell.starts_with(FORMULA_STARTS) && !is_plain_number(cell)
}

/// A sign, digits and at most one decimal point.
fn is_plain_number(cell: &str) -> bool {
    let digits = cell.strip_prefix(['-', '+']).unwrap_or(cell);
    digits.chars().any(|c| c.is_ascii_digit())
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.matches('.').count() <= 1
}

/// A cell as export writes it: one that a spreadsheet would run as a
/// formula gets a `'` before it, which spreadsheets read as "text follows".
/// So does one that would be taken for such a cell on import (a formula
/// after `'`s), so that [`unguarded`] gives back every cell exactly.
pub fn guarded(cell: String) -> String {
    if is_formula(cell.trim_start_matches('\'')) {
        format!("'{cell}")
    } else {
        cell
    }
}

/// A cell as import reads it: the `'` that [`guarded`] put before a formula
/// is taken away.
pub fn unguarded(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(text) if is_formula(text.trim_start_matches('\'')) => text,
        _ => cell,
    }
}

/// A column's header made comparable: `Line of Fire`, `line_of_fire` and
/// `line-of-fire` are one column.
pub fn header_key(header: &str) -> String {
    header.trim().to_lowercase().replace([' ', '_'], "-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cells_and_strings_are_each_others_reverse() {
        for written in [r#"Deal 4 {damage}."#, r#"He said \"go\"."#, r#"A \{literal\} brace, \*not bold\*."#, r"a\\b"] {
            let cell = cell_from_string(written);
            assert_eq!(string_from_cell(&cell), format!("\"{written}\""), "{written}");
        }
        assert_eq!(cell_from_string(r#"He said \"go\"."#), r#"He said "go"."#);
        assert_eq!(string_from_cell("a \\ b\nc"), r#""a \\ b\nc""#);
    }

    #[test]
    fn formulas_are_quoted_numbers_are_not_and_unquoting_gives_back_every_cell() {
        for (cell, written) in [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+1+1", "'+1+1"),
            ("-1 2", "'-1 2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("'=x", "''=x"),
            ("-3", "-3"),
            ("+2.5", "+2.5"),
            ("-", "'-"),
            ("'-3", "'-3"),
            ("'tis", "'tis"),
            ("Deal 3", "Deal 3"),
        ] {
            assert_eq!(guarded(cell.to_string()), written, "{cell:?}");
            assert_eq!(unguarded(written), cell, "{cell:?}");
        }
        assert!(is_formula("=1") && !is_formula("'=1") && !is_formula("-3.5") && is_formula("-3.5.1"));
    }

    #[test]
    fn headers_compare_without_case_spaces_or_underscores() {
        assert_eq!(header_key(" Line of_Fire "), "line-of-fire");
    }
}
