//! The lexical pre-pass: cuts a file into top-level items and finds the
//! mistakes that would otherwise derail a whole file.
//!
//! It runs in one linear pass before the grammar.  It tracks strings, comments
//! and braces, so it can report an unterminated string, an unclosed `{` or a
//! stray `}` exactly, and it bounds nesting depth before any recursive code
//! sees the text.  An item ends at the end of a line where every brace is
//! closed.  A line that starts in the first column with a letter while a brace
//! is still open begins a new item too: the item before it is reported as
//! unclosed, and the items after it are still checked.

use super::codes;
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Span};

/// Blocks may nest this deep; deeper input is refused before parsing.
pub const MAX_DEPTH: usize = 32;

/// A byte range of the file holding one or more whole top-level items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub start: usize,
    pub end: usize,
    /// Whether the scanner already reported a problem inside this chunk; the
    /// grammar is then not run on it, to avoid a second report of one mistake.
    pub broken: bool,
}

pub fn scan(file: FileId, text: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<Chunk> {
    let bytes = text.as_bytes();
    let mut chunks = Vec::new();
    let mut open_braces: Vec<usize> = Vec::new();
    let mut chunk_start = 0;
    let mut broken = false;
    let mut i = 0;
    let mut line_start = true;

    while i < bytes.len() {
        let byte = bytes[i];
        if line_start {
            line_start = false;
            if !open_braces.is_empty() && byte.is_ascii_alphabetic() && i > chunk_start {
                let open = *open_braces.last().unwrap_or(&chunk_start);
                diagnostics.push(unclosed_brace(file, open, i, text));
                push(&mut chunks, chunk_start, i, true);
                open_braces.clear();
                chunk_start = i;
                broken = false;
            }
        }
        match byte {
            b'\n' | b'\r' => {
                i += 1;
                if byte == b'\r' && bytes.get(i) == Some(&b'\n') {
                    i += 1;
                }
                line_start = true;
                if open_braces.is_empty() {
                    push(&mut chunks, chunk_start, i, broken);
                    chunk_start = i;
                    broken = false;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = line_end(bytes, i);
                continue;
            }
            b'"' if i == 0 || !bytes[i - 1].is_ascii_digit() => {
                match string_end(bytes, i) {
                    Ok(end) => i = end,
                    Err(end) => {
                        diagnostics.push(
                            Diagnostic::error(&codes::UNTERMINATED_STRING, "unterminated string")
                                .primary(Span::new(file, i, end), "this string has no closing `\"`")
                                .help(
                                    "close the string with `\"` on the same line; write `\\\"` for a quote inside it",
                                ),
                        );
                        broken = true;
                        i = end;
                    }
                }
                continue;
            }
            b'{' => {
                open_braces.push(i);
                if open_braces.len() > MAX_DEPTH {
                    diagnostics.push(
                        Diagnostic::error(&codes::TOO_DEEP, format!("blocks nested more than {MAX_DEPTH} deep"))
                            .primary(Span::new(file, i, i + 1), "this `{` is too deep")
                            .help("no game needs this much nesting; check for a run of stray `{`"),
                    );
                    // Nothing after this point in the item can be trusted.
                    let end = next_top_level_line(bytes, i);
                    push(&mut chunks, chunk_start, end, true);
                    open_braces.clear();
                    chunk_start = end;
                    broken = false;
                    i = end;
                    line_start = true;
                    continue;
                }
            }
            b'}' if open_braces.pop().is_none() => {
                diagnostics.push(
                    Diagnostic::error(&codes::UNEXPECTED_CLOSE, "unexpected `}`")
                        .primary(Span::new(file, i, i + 1), "nothing is open here")
                        .help("remove this `}`, or add the `{` it was meant to close"),
                );
                broken = true;
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(&open) = open_braces.last() {
        diagnostics.push(unclosed_brace(file, open, text.len(), text));
        broken = true;
    }
    push(&mut chunks, chunk_start, text.len(), broken);
    chunks
}

fn push(chunks: &mut Vec<Chunk>, start: usize, end: usize, broken: bool) {
    if end > start {
        chunks.push(Chunk { start, end, broken });
    }
}

fn unclosed_brace(file: FileId, open: usize, item_end: usize, text: &str) -> Diagnostic {
    let trimmed_end = text[..item_end].trim_end().len().max(open + 1);
    let end_point = Span::new(file, trimmed_end, trimmed_end);
    Diagnostic::error(&codes::UNCLOSED_BRACE, "unclosed `{`")
        .primary(Span::new(file, open, open + 1), "this `{` is never closed")
        .secondary(end_point, "expected a closing `}` by here")
        .help("add `}` at the end of the block; lines inside a block are indented, and a line starting in the first column begins a new item")
}

fn line_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
        i += 1;
    }
    i
}

/// The end of the string starting at `start`, or `Err(end of line)`.
fn string_end(bytes: &[u8], start: usize) -> Result<usize, usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Ok(i + 1),
            b'\\' if i + 1 < bytes.len() && bytes[i + 1] != b'\n' && bytes[i + 1] != b'\r' => i += 2,
            b'\n' | b'\r' => return Err(i),
            _ => i += 1,
        }
    }
    Err(i)
}

/// The start of the next line that begins with a letter in the first column.
fn next_top_level_line(bytes: &[u8], mut i: usize) -> usize {
    loop {
        i = line_end(bytes, i);
        while i < bytes.len() && (bytes[i] == b'\n' || bytes[i] == b'\r') {
            i += 1;
        }
        if i >= bytes.len() || bytes[i].is_ascii_alphabetic() {
            return i;
        }
    }
}

/// The names items in `text` give themselves: the string after the first
/// word of a line (`offense "Kinetic Strike" {`), unescaped.  Read from text
/// that did not parse, so it guesses generously: a name too many only keeps
/// a follow-on error quiet.  Copy counts (`x2 "Name"`) name no item.
pub fn item_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let word_end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(line.len());
        let word = &line[..word_end];
        let copies = word.len() > 1 && word.starts_with('x') && word[1..].bytes().all(|b| b.is_ascii_digit());
        if word.is_empty() || !word.starts_with(|c: char| c.is_ascii_alphabetic()) || copies {
            continue;
        }
        let Some(rest) = line[word_end..].trim_start().strip_prefix('"') else { continue };
        let mut name = String::new();
        let mut chars = rest.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => {
                    names.push(std::mem::take(&mut name));
                    break;
                }
                '\\' => name.extend(chars.next()),
                c => name.push(c),
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(text: &str) -> (Vec<&str>, Vec<&'static str>) {
        let mut diagnostics = Vec::new();
        let chunks = scan(FileId(0), text, &mut diagnostics);
        let texts = chunks.iter().map(|c| &text[c.start..c.end]).collect();
        (texts, diagnostics.iter().map(|d| d.code.id).collect())
    }

    #[test]
    fn items_end_where_braces_close() {
        let (texts, codes) = chunks("game x\na \"b\" {\n  c 1\n}\n");
        assert_eq!(texts, vec!["game x\n", "a \"b\" {\n  c 1\n}\n"]);
        assert!(codes.is_empty());
    }

    #[test]
    fn an_unclosed_item_ends_at_the_next_first_column_line() {
        let (texts, codes) = chunks("a \"b\" {\n  c 1\nd \"e\" {\n}\n");
        assert_eq!(texts, vec!["a \"b\" {\n  c 1\n", "d \"e\" {\n}\n"]);
        assert_eq!(codes, vec![codes::UNCLOSED_BRACE.id]);
    }

    #[test]
    fn braces_in_strings_and_comments_do_not_count() {
        let (_, codes) = chunks("a \"{\" // {\n");
        assert!(codes.is_empty());
    }

    #[test]
    fn inch_marks_are_not_strings() {
        let (_, codes) = chunks("scan 6\" sig 2\"\n");
        assert!(codes.is_empty());
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = "a ".to_string() + &"{".repeat(100_000);
        let (_, codes) = chunks(&text);
        assert_eq!(codes, vec![codes::TOO_DEEP.id]);
    }
}
