//! Reading a CSV table with the place of every cell: the text stays in the
//! files table as written, and each cell keeps its bytes there, its row and
//! its column, so a problem is shown at the cell.
//!
//! Rows are numbered as a spreadsheet numbers them: a line break inside a
//! quoted cell does not start a row, and a blank line is a row (it holds no
//! cell, and no card).  A line ends at `\n`, `\r\n` or a lone `\r`.  A `"`
//! inside a cell that does not start with one is text, and text after a
//! cell's closing quote is kept, as spreadsheets read them.

use crate::source::CellPlace;
use std::borrow::Cow;

/// The most columns read: far more than any kind has fields.  A table
/// wider than this is reported, and the cells past it are not kept.
pub const MAX_COLUMNS: u32 = 1024;

/// A table's cells that hold something, in the order of the text.
#[derive(Debug, Default)]
pub struct Table {
    pub cells: Vec<CellPlace>,
    /// Where a quoted cell was not closed: the offset of its `"`.
    pub unclosed: Option<u32>,
    /// Whether a row had more than [`MAX_COLUMNS`] columns; the first such
    /// cell's place.
    pub too_wide: Option<CellPlace>,
}

impl Table {
    /// Reads a table.  Its text is at most [`crate::syntax::MAX_FILE_SIZE`]
    /// bytes, so every offset fits in a `u32`.
    pub fn read(text: &str) -> Table {
        let bytes = text.as_bytes();
        let mut table = Table::default();
        let (mut at, mut row, mut column) = (0usize, 1u32, 0u32);
        while at < bytes.len() {
            let start = at;
            at = match bytes[at] {
                b'"' => quoted_end(bytes, at, &mut table),
                _ => bytes[at..].iter().position(|b| matches!(b, b',' | b'\n' | b'\r')).map_or(bytes.len(), |n| at + n),
            };
            // A cell quoted and empty holds nothing, as one not written.
            let empty = at == start || &bytes[start..at] == b"\"\"";
            let cell = CellPlace { start: start as u32, end: at as u32, row, column };
            match (empty, column < MAX_COLUMNS) {
                (true, _) => {}
                (false, true) => table.cells.push(cell),
                (false, false) => drop(table.too_wide.get_or_insert(cell)),
            }
            match bytes.get(at) {
                Some(b',') => column = column.saturating_add(1),
                Some(b'\r') if bytes.get(at + 1) == Some(&b'\n') => {
                    at += 1;
                    (row, column) = (row.saturating_add(1), 0);
                }
                Some(_) => (row, column) = (row.saturating_add(1), 0),
                None => {}
            }
            at += 1;
        }
        table
    }

    /// The cells of each row that holds any, row by row.
    pub fn rows(&self) -> impl Iterator<Item = &[CellPlace]> {
        self.cells.chunk_by(|a, b| a.row == b.row)
    }
}

/// The end of a quoted cell that starts at `at`: past its closing quote
/// and any text after it, up to the next separator or line end.
fn quoted_end(bytes: &[u8], at: usize, table: &mut Table) -> usize {
    let mut i = at + 1;
    loop {
        match bytes.get(i) {
            None => {
                table.unclosed.get_or_insert(at as u32);
                return i;
            }
            Some(b'"') if bytes.get(i + 1) == Some(&b'"') => i += 2,
            Some(b'"') => break,
            Some(_) => i += 1,
        }
    }
    i + 1 + bytes[i + 1..].iter().position(|b| matches!(b, b',' | b'\n' | b'\r')).unwrap_or(bytes.len() - i - 1)
}

/// A cell's text as written in the table: a quoted cell without its
/// quotes, each `""` one `"`, and any text after the closing quote kept.
pub fn cell_text(raw: &str) -> Cow<'_, str> {
    let Some(inner) = raw.strip_prefix('"') else { return Cow::Borrowed(raw) };
    if let Some(plain) = inner.strip_suffix('"').filter(|p| !p.contains('"')) {
        return Cow::Borrowed(plain);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = inner.chars().peekable();
    let mut closed = false;
    while let Some(c) = chars.next() {
        match c {
            '"' if !closed && chars.peek() == Some(&'"') => {
                out.push('"');
                chars.next();
            }
            '"' if !closed => closed = true,
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Where a cell's text lies in the table's text, when it is there byte for
/// byte (a cell not quoted, or quoted without `""` or text after it).
pub fn text_start(raw: &str, start: usize) -> Option<usize> {
    match raw.strip_prefix('"') {
        None => Some(start),
        Some(inner) => inner.strip_suffix('"').filter(|p| !p.contains('"')).map(|_| start + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> Vec<(u32, u32, String)> {
        let table = Table::read(text);
        table
            .cells
            .iter()
            .map(|c| (c.row, c.column, cell_text(&text[c.start as usize..c.end as usize]).into_owned()))
            .collect()
    }

    #[test]
    fn rows_are_counted_as_a_spreadsheet_counts_them() {
        let expected = vec![(1, 0, "a".to_string()), (1, 1, "b".into()), (2, 0, "c".into()), (4, 1, "d".into())];
        assert_eq!(cells("a,b\nc\n\n,d\n"), expected);
        assert_eq!(cells("a,b\r\nc\r\n\r\n,d\r\n"), expected, "CRLF counts as one line end");
        assert_eq!(cells("a,b\rc\r\r,d"), expected, "so does a lone CR");
    }

    #[test]
    fn quoted_cells_hold_separators_line_breaks_and_quotes() {
        let text = "\"a,\r\nb\",\"say \"\"hi\"\"\"\n\"x\"y,\"\"\n";
        assert_eq!(cells(text), vec![(1, 0, "a,\r\nb".to_string()), (1, 1, "say \"hi\"".into()), (2, 0, "xy".into())]);
        assert_eq!(text_start("\"plain\"", 4), Some(5));
        assert_eq!(text_start("\"say \"\"hi\"\"\"", 4), None);
        assert_eq!(text_start("bare", 4), Some(4));
    }

    #[test]
    fn an_unclosed_quote_and_a_table_too_wide_are_noted() {
        let table = Table::read("a,\"b\nc");
        assert_eq!(table.unclosed, Some(2));
        assert_eq!(table.cells.len(), 2);
        let wide = format!("{}x\n", ",".repeat(MAX_COLUMNS as usize));
        let table = Table::read(&wide);
        assert!(table.cells.is_empty());
        assert_eq!(table.too_wide.map(|c| c.column), Some(MAX_COLUMNS));
    }
}
