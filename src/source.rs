//! Source files and spans.
//!
//! Every piece of text cardsmith reads lives once in a [`Files`] table; the
//! syntax tree and the IR refer to it through [`Span`]s, small `Copy` values of
//! a file id and a byte range.  Lines and columns are computed only when a
//! diagnostic is rendered, from line-start tables built once per file.

use serde::Serialize;

/// Index of a file in [`Files`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FileId(pub u32);

/// A byte range in one source file.
///
/// Offsets are into the text as stored, which has any UTF-8 byte-order mark
/// removed; [`Files::file_offset`] converts back to offsets in the file on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start: start as u32, end: end as u32 }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The smallest span covering both, when both are in the same file.
    pub fn to(self, other: Span) -> Option<Span> {
        (self.file == other.file).then(|| Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        })
    }
}

/// One loaded source file.
#[derive(Debug)]
pub struct SourceFile {
    /// The name shown to the user (a path relative to where cardsmith runs).
    pub name: String,
    /// The text, without a leading byte-order mark.
    pub text: String,
    /// Whether the file on disk started with a UTF-8 byte-order mark.
    pub had_bom: bool,
    line_starts: Vec<usize>,
    /// For a file holding a spreadsheet table, its cells.
    sheet: Option<Box<SheetCells>>,
    /// For a file made from another (the cards of a spreadsheet), where
    /// each piece of its text came from.
    derived: Option<Box<Derived>>,
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        let (text, had_bom) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (rest.to_string(), true),
            None => (text, false),
        };
        let line_starts = line_starts(&text);
        SourceFile { name, text, had_bom, line_starts, sheet: None, derived: None }
    }

    /// Zero-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte offset where a zero-based line starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts.get(line).copied().unwrap_or(self.text.len())
    }

    /// One-based line and column (in characters; a tab counts as one) of a
    /// byte offset.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        (line + 1, column)
    }

    pub fn line_starts(&self) -> &[usize] {
        &self.line_starts
    }
}

/// Lines end at `\n`, `\r\n` or a lone `\r`, exactly as the grammar reads them.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => starts.push(i + 1),
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
            _ => {}
        }
        i += 1;
    }
    starts
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The table of every file in one run.
#[derive(Debug, Default)]
pub struct Files {
    files: Vec<SourceFile>,
}

impl Files {
    pub fn new() -> Files {
        Files::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(name.into(), text.into()));
        id
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn ids(&self) -> impl Iterator<Item = FileId> {
        (0..self.files.len() as u32).map(FileId)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The text a span covers.
    pub fn text(&self, span: Span) -> &str {
        self.get(span.file).text.get(span.range()).unwrap_or("")
    }

    /// A stored offset as an offset into the file on disk.
    pub fn file_offset(&self, file: FileId, offset: usize) -> usize {
        offset + if self.get(file).had_bom { 3 } else { 0 }
    }

    /// Marks a file as a spreadsheet table with these cells.
    pub fn set_sheet(&mut self, file: FileId, cells: SheetCells) {
        self.files[file.0 as usize].sheet = Some(Box::new(cells));
    }

    /// Marks a file as made from another, piece by piece.
    pub fn set_derived(&mut self, file: FileId, derived: Derived) {
        self.files[file.0 as usize].derived = Some(Box::new(derived));
    }

    /// Whether a file was made from another ([`Files::origin`] leads there).
    pub fn is_derived(&self, file: FileId) -> bool {
        self.get(file).derived.is_some()
    }

    /// Where the text a span covers was written: for a file made from
    /// another, the span of that file it came from; else the span itself.
    pub fn origin(&self, span: Span) -> Span {
        match &self.get(span.file).derived {
            Some(derived) => derived.origin(span),
            None => span,
        }
    }

    /// The cell of a spreadsheet table a span starts in, if its file holds one.
    pub fn cell(&self, span: Span) -> Option<CellRef<'_>> {
        self.get(span.file).sheet.as_ref()?.at(span.start)
    }

    /// Where a span is, as people read it: `cards/a.cards:3:5`, or for a
    /// spreadsheet, the cell: `units.csv!C7`.
    pub fn place(&self, span: Span) -> String {
        let file = self.get(span.file);
        match self.cell(span) {
            Some(cell) => format!("{}!{}", file.name, cell.reference()),
            None => {
                let (line, column) = file.line_column(span.start as usize);
                format!("{}:{line}:{column}", file.name)
            }
        }
    }

    /// The 1-based line a span starts on, or for a spreadsheet its row.
    pub fn line(&self, span: Span) -> usize {
        match self.cell(span) {
            Some(cell) => cell.row as usize,
            None => self.get(span.file).line_column(span.start as usize).0,
        }
    }
}

/// The cells of a spreadsheet table held as text: each cell's place in the
/// text, its row and column, and the headers of the columns.
#[derive(Debug, Default)]
pub struct SheetCells {
    /// In order of `start`.
    cells: Vec<CellPlace>,
    headers: Vec<String>,
}

/// One cell of a table: its bytes in the text, its row (1-based, as a
/// spreadsheet numbers them) and column (0-based: A is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellPlace {
    pub start: u32,
    pub end: u32,
    pub row: u32,
    pub column: u32,
}

/// A cell as diagnostics name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRef<'a> {
    pub row: u32,
    pub column: u32,
    /// The header of its column, when the table has one there.
    pub header: Option<&'a str>,
    /// Its bytes in the file's text.
    pub start: u32,
    pub end: u32,
}

impl CellRef<'_> {
    /// The cell's reference as spreadsheets write it: `C7`.
    pub fn reference(&self) -> String {
        format!("{}{}", column_letters(self.column), self.row)
    }
}

/// A column's letters as spreadsheets write them: 0 is `A`, 26 is `AA`.
pub fn column_letters(column: u32) -> String {
    let mut letters = Vec::new();
    let mut n = column as u64 + 1;
    while n > 0 {
        n -= 1;
        letters.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

impl SheetCells {
    /// The cells, in order of where they start, and the header of each
    /// column by its index.
    pub fn new(mut cells: Vec<CellPlace>, headers: Vec<String>) -> SheetCells {
        cells.sort_by_key(|c| c.start);
        SheetCells { cells, headers }
    }

    /// The cell holding `offset`: the last that starts at or before it,
    /// when the offset is inside it or at its end.
    fn at(&self, offset: u32) -> Option<CellRef<'_>> {
        let after = self.cells.partition_point(|c| c.start <= offset);
        let cell = self.cells.get(after.checked_sub(1)?)?;
        (offset <= cell.end).then(|| CellRef {
            row: cell.row,
            column: cell.column,
            header: self.headers.get(cell.column as usize).map(String::as_str),
            start: cell.start,
            end: cell.end,
        })
    }
}

/// Where each piece of a file made from another came from.  A piece copied
/// as it was maps byte for byte; one rewritten (a cell's text put in
/// quotes) maps as a whole to the text it came from.
#[derive(Debug)]
pub struct Derived {
    from: FileId,
    /// In order of `start`, not overlapping.
    pieces: Vec<Piece>,
}

#[derive(Clone, Copy, Debug)]
struct Piece {
    start: u32,
    end: u32,
    from_start: u32,
    from_end: u32,
    copied: bool,
}

impl Derived {
    /// A file made from `from`, with no pieces yet.
    pub fn new(from: FileId) -> Derived {
        Derived { from, pieces: Vec::new() }
    }

    /// Notes that `range` of the made text came from `from` of the other
    /// file: `copied` when byte for byte.  Pieces are given in order.
    pub fn push(&mut self, range: std::ops::Range<usize>, from: std::ops::Range<usize>, copied: bool) {
        let copied = copied && range.len() == from.len();
        let piece = |n: usize| n as u32;
        self.pieces.push(Piece {
            start: piece(range.start),
            end: piece(range.end),
            from_start: piece(from.start),
            from_end: piece(from.end),
            copied,
        });
    }

    fn origin(&self, span: Span) -> Span {
        let start = self.offset(span.start, false);
        let end = self.offset(span.end, true).max(start);
        Span { file: self.from, start, end }
    }

    /// Where an offset of the made text came from: inside a copied piece,
    /// the same byte; inside a rewritten one, its start (or, for the end of
    /// a span, its end); between pieces, the end of the piece before.
    fn offset(&self, offset: u32, is_end: bool) -> u32 {
        let after = self.pieces.partition_point(|p| if is_end { p.start < offset } else { p.start <= offset });
        let Some(piece) = after.checked_sub(1).and_then(|i| self.pieces.get(i)) else {
            return self.pieces.first().map_or(0, |p| p.from_start);
        };
        match (offset <= piece.end, piece.copied) {
            (true, true) => piece.from_start + (offset - piece.start),
            (true, false) if is_end || offset == piece.end => piece.from_end,
            (true, false) => piece.from_start,
            (false, _) => piece.from_end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_and_skip_the_bom() {
        let mut files = Files::new();
        let id = files.add("a.cards", "\u{feff}ab\r\n\tdé x\rz");
        let file = files.get(id);
        assert!(file.had_bom);
        assert_eq!(file.line_column(0), (1, 1));
        assert_eq!(file.line_column(4), (2, 1));
        let x = file.text.find('x').unwrap();
        assert_eq!(file.line_column(x), (2, 5));
        let z = file.text.find('z').unwrap();
        assert_eq!(file.line_column(z), (3, 1));
        assert_eq!(files.file_offset(id, x), x + 3);
    }

    #[test]
    fn column_letters_count_as_spreadsheets_do() {
        let letters: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702].into_iter().map(column_letters).collect();
        assert_eq!(letters, ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]);
    }

    #[test]
    fn a_derived_span_leads_back_to_the_cell_it_came_from() {
        let mut files = Files::new();
        let sheet = files.add("t.csv", "name,arc\nShot,\"narrow\"\n");
        files.set_sheet(
            sheet,
            SheetCells::new(
                vec![
                    CellPlace { start: 9, end: 13, row: 2, column: 0 },
                    CellPlace { start: 14, end: 22, row: 2, column: 1 },
                ],
                vec!["name".into(), "arc".into()],
            ),
        );
        let cards = files.add("<sheet>/t.csv", "offense \"Shot\" {\n  arc narrow\n}\n");
        let mut derived = Derived::new(sheet);
        derived.push(0..7, 9..13, false);
        derived.push(8..14, 9..13, false);
        derived.push(19..23, 14..22, false);
        derived.push(23..29, 15..21, true);
        files.set_derived(cards, derived);
        let at = |start: usize, end: usize| {
            let span = files.origin(Span::new(cards, start, end));
            (files.text(span).to_string(), files.place(span))
        };
        assert_eq!(at(25, 28), ("rro".to_string(), "t.csv!B2".to_string()), "copied bytes map byte for byte");
        assert_eq!(at(19, 23), ("\"narrow\"".to_string(), "t.csv!B2".to_string()));
        assert_eq!(at(23, 29).0, "narrow");
        assert_eq!(at(0, 14), ("Shot".to_string(), "t.csv!A2".to_string()), "rewritten text maps as a whole");
        assert_eq!(files.line(files.origin(Span::new(cards, 0, 7))), 2);
        let cell = files.cell(Span::new(sheet, 15, 16)).expect("a cell");
        assert_eq!((cell.reference(), cell.header), ("B2".to_string(), Some("arc")));
        assert_eq!(files.place(Span::new(sheet, 0, 4)), "t.csv:1:1", "the header row holds no cell here");
    }
}
