//! XLSX workbooks as tables of cards, read with `calamine`.
//!
//! A workbook has no text to point into, so a worksheet becomes the CSV
//! text of its cells, row by row (row 7 is line 7 when no cell holds a line
//! break; the cell a problem is in is named all the same, `units.xlsx!C7`),
//! and is read from there as a CSV table is.
//!
//! A workbook is a zip archive, and a small one can unpack to gigabytes: before
//! `calamine` reads anything, every member is unpacked here and counted,
//! and a workbook that unpacks to more than [`MOST_UNPACKED`] bytes, holds
//! more than [`MOST_MEMBERS`] members, or announces more shared strings
//! than its part could hold is refused.

use super::table::MAX_COLUMNS;
use calamine::{DataRef, Reader, Xlsx};
use std::io::{Cursor, Read};

/// The most bytes the members of a workbook may unpack to, together.
pub const MOST_UNPACKED: u64 = 32 << 20;

/// The most members a workbook may hold.
pub const MOST_MEMBERS: usize = 4096;

/// Where a problem is (always the table's start) and what it is.
type Problem = (usize, String);

/// The CSV text of a worksheet's cells (the first worksheet when none is
/// named): each cell's value as the workbook holds it.
pub fn table_text(bytes: &[u8], worksheet: Option<&str>) -> Result<String, Problem> {
    let damaged = |e: &dyn std::fmt::Display| (0, format!("this workbook cannot be read as XLSX: {e}"));
    measure(bytes)?;
    let mut workbook: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(|e| damaged(&e))?;
    let names = workbook.sheet_names();
    let name = match worksheet {
        Some(wanted) => names.iter().find(|n| *n == wanted).cloned().ok_or_else(|| {
            (0, format!("this workbook has no worksheet `{wanted}`; its worksheets: {}", names.join(", ")))
        })?,
        None => names.first().cloned().ok_or_else(|| (0, "this workbook has no worksheet".to_string()))?,
    };
    let mut reader = workbook.worksheet_cells_reader(&name).map_err(|e| damaged(&e))?;
    let mut cells: Vec<(u32, u32, String)> = Vec::new();
    let mut size = 0usize;
    while let Some(cell) = reader.next_cell().map_err(|e| damaged(&e))? {
        let (row, column) = cell.get_position();
        let Some(text) = value(cell.get_value()).filter(|_| column <= MAX_COLUMNS) else { continue };
        size += text.len() + 1;
        if size > crate::syntax::MAX_FILE_SIZE {
            return Err((0, format!("the worksheet `{name}` holds more than 8 MiB of text, the most a sheet may")));
        }
        cells.push((row, column, text));
    }
    cells.sort_by_key(|(row, column, _)| (*row, *column));
    csv_text(&cells).ok_or_else(|| {
        (0, format!("the worksheet `{name}` comes to more than 8 MiB of text, the most a sheet may hold"))
    })
}

/// A cell's value as text, as a spreadsheet shows it unformatted; `None`
/// for an empty cell.
fn value(data: &DataRef<'_>) -> Option<String> {
    let text = match data {
        DataRef::Empty => return None,
        DataRef::String(s) => s.clone(),
        DataRef::SharedString(s) => s.to_string(),
        DataRef::Int(n) => n.to_string(),
        DataRef::Float(f) => f.to_string(),
        DataRef::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        DataRef::DateTime(d) => d.as_f64().to_string(),
        DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.clone(),
        DataRef::Error(e) => format!("#{e:?}"),
    };
    (!text.is_empty()).then_some(text)
}

/// The cells as CSV text: a line per row from the first, blank rows
/// included, so that row numbers stay what they are in the workbook;
/// `None` past [`crate::syntax::MAX_FILE_SIZE`] bytes (a cell far down or
/// far right makes many empty rows or cells before it).
fn csv_text(cells: &[(u32, u32, String)]) -> Option<String> {
    let most = crate::syntax::MAX_FILE_SIZE;
    let mut out = String::new();
    let (mut row, mut column) = (0u32, 0u32);
    for (at_row, at_column, text) in cells {
        let (rows, columns) = (at_row.saturating_sub(row) as usize, at_column.saturating_sub(column) as usize);
        if out.len() + rows + columns + text.len() > most {
            return None;
        }
        if rows > 0 {
            out.push_str(&"\n".repeat(rows));
            (row, column) = (*at_row, 0);
        }
        let columns = at_column.saturating_sub(column) as usize;
        out.push_str(&",".repeat(columns));
        column = column.max(*at_column);
        if text.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&text.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(text);
        }
    }
    out.push('\n');
    (out.len() <= most + 1).then_some(out)
}

/// Unpacks every member of the archive, counting, and refuses one that
/// unpacks to too much or announces more shared strings than it holds.
fn measure(bytes: &[u8]) -> Result<(), Problem> {
    let damaged = |e: &dyn std::fmt::Display| (0, format!("this workbook cannot be read as XLSX: {e}"));
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| damaged(&e))?;
    if archive.len() > MOST_MEMBERS {
        return Err((0, format!("this workbook holds more than {MOST_MEMBERS} parts")));
    }
    let too_large = || (0, format!("this workbook unpacks to more than {MOST_UNPACKED} bytes (32 MiB)"));
    let mut left = MOST_UNPACKED;
    for i in 0..archive.len() {
        let mut member = archive.by_index(i).map_err(|e| damaged(&e))?;
        let strings = member.name().map_err(|e| damaged(&e))?.to_ascii_lowercase().ends_with("sharedstrings.xml");
        let mut start = Vec::new();
        let mut counted = 0u64;
        let mut buffer = [0u8; 16 * 1024];
        loop {
            let n = member.read(&mut buffer).map_err(|e| damaged(&e))?;
            if n == 0 {
                break;
            }
            counted += n as u64;
            left = left.checked_sub(n as u64).ok_or_else(too_large)?;
            if strings && start.len() < 4096 {
                start.extend_from_slice(&buffer[..n.min(4096 - start.len())]);
            }
        }
        if strings && announced_strings(&start).is_some_and(|n| n > counted) {
            return Err((0, "this workbook announces more shared strings than it holds".to_string()));
        }
    }
    Ok(())
}

/// The `uniqueCount` a shared-strings part announces at its start.
fn announced_strings(start: &[u8]) -> Option<u64> {
    let text = String::from_utf8_lossy(start);
    let at = text.find("uniqueCount=")? + "uniqueCount=".len();
    let digits: String = text[at..].chars().skip(1).take_while(|c| !matches!(c, '"' | '\'')).collect();
    Some(digits.trim().parse::<u64>().unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_become_csv_rows_at_their_rows() {
        let cells = vec![
            (0, 0, "name".to_string()),
            (0, 2, "text".to_string()),
            (2, 0, "A, B".to_string()),
            (2, 2, "say \"hi\"".to_string()),
        ];
        assert_eq!(csv_text(&cells).as_deref(), Some("name,,text\n\n\"A, B\",,\"say \"\"hi\"\"\"\n"));
        assert_eq!(csv_text(&[(u32::MAX, 0, "far down".to_string())]), None);
    }

    #[test]
    fn what_is_not_a_workbook_is_refused_without_a_panic() {
        assert!(table_text(b"name,arc\n", None).is_err());
        assert!(table_text(b"PK\x03\x04garbage", None).is_err());
        assert_eq!(announced_strings(b"<sst count=\"3\" uniqueCount=\"2\">"), Some(2));
        assert_eq!(announced_strings(b"<sst uniqueCount='99999999999999999999999'>"), Some(u64::MAX));
    }
}
