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
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        let (text, had_bom) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (rest.to_string(), true),
            None => (text, false),
        };
        let line_starts = line_starts(&text);
        SourceFile { name, text, had_bom, line_starts }
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
}
