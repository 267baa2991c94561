//! A buffer's text under a client's range edits.  Each edit's range is in
//! lines and characters of the text as the edits before it left it, so the
//! text is kept as its lines, split in two where the last edit was: the
//! lines before it in order, the lines after it in reverse.  An edit moves
//! the split to its first line (one line at a time, without copying text)
//! and rebuilds only the lines it touches, so a change of k edits costs the
//! text once, each edit's own text and lines, and the lines between one
//! edit and the next: linear for edits in document order, either way.
//!
//! Lines end as the grammar reads them (`\n`, `\r\n` or a lone `\r`, see
//! [`cardsmith::source`]), and a position is read as
//! [`convert::offset`](super::convert::offset) reads it: past a line's end
//! it is the line's end, past the last line the text's end, inside a
//! character that character's start, and a byte-order mark at the start of
//! the text counts as characters of the first line and is never edited.

use super::convert::Encoding;
use lsp_types as lsp;

const BOM: char = '\u{feff}';

pub struct EditedText {
    /// The lines before the split, in order.
    before: Vec<String>,
    /// The lines from the split on, last first.  Never empty after an edit
    /// is placed: every text has a line, the last one without a line end.
    after: Vec<String>,
}

impl EditedText {
    pub fn new(text: String) -> EditedText {
        let mut after = split_lines(&text);
        after.reverse();
        EditedText { before: Vec::new(), after }
    }

    /// Replaces `range` with `new`.
    pub fn replace(&mut self, range: lsp::Range, new: &str, encoding: Encoding) {
        let last = self.before.len() + self.after.len() - 1;
        self.move_split((range.start.line as usize).min(last));
        let start = self.place(range.start, encoding);
        let end = self.place(range.end, encoding).max(start);
        // A line ending in a lone `\r` joins a `\n` that comes to follow it.
        let joined = match self.before.last() {
            Some(line) if line.ends_with('\r') => self.before.pop(),
            _ => None,
        };
        let mut text = joined.unwrap_or_default();
        let first = self.take_line();
        text.push_str(&first[..start.1]);
        text.push_str(new);
        let mut last_taken = first;
        for _ in start.0..end.0 {
            last_taken = self.take_line();
        }
        text.push_str(&last_taken[end.1..]);
        let mut lines = split_lines(&text);
        if !self.after.is_empty() {
            // `text` ends with a line end: what follows it is the next line.
            lines.pop();
        }
        self.before.extend(lines);
    }

    pub fn into_text(self) -> String {
        let mut text = self.before.concat();
        for line in self.after.into_iter().rev() {
            text.push_str(&line);
        }
        text
    }

    /// Moves lines across the split until `line` is the first after it.
    fn move_split(&mut self, line: usize) {
        while self.before.len() > line {
            let Some(moved) = self.before.pop() else { break };
            self.after.push(moved);
        }
        while self.before.len() < line {
            let Some(moved) = self.after.pop() else { break };
            self.before.push(moved);
        }
    }

    /// The first line after the split, taken out.
    fn take_line(&mut self) -> String {
        self.after.pop().unwrap_or_default()
    }

    /// A position after the split as its line and a byte offset in it.
    fn place(&self, position: lsp::Position, encoding: Encoding) -> (usize, usize) {
        let split = self.before.len();
        let line = position.line as usize;
        let Some(text) =
            line.checked_sub(split).and_then(|i| self.after.len().checked_sub(i + 1)).map(|i| &self.after[i])
        else {
            // Past the last line: the text's end.
            let last = split + self.after.len() - 1;
            return (last, self.after.first().map_or(0, String::len));
        };
        (line, byte_offset(text, line == 0, position.character as usize, encoding))
    }
}

/// The byte offset in a line of its `character`th unit, as
/// [`convert::offset`](super::convert::offset) finds it.
fn byte_offset(line: &str, first: bool, character: usize, encoding: Encoding) -> usize {
    let content = line.trim_end_matches(['\r', '\n']);
    let (skipped, wanted) = match content.strip_prefix(BOM).filter(|_| first) {
        Some(_) => (BOM.len_utf8(), character.saturating_sub(units(BOM, encoding))),
        None => (0, character),
    };
    let mut counted = 0;
    for (i, c) in content[skipped..].char_indices() {
        let width = units(c, encoding);
        if counted + width > wanted {
            return skipped + i;
        }
        counted += width;
    }
    content.len()
}

fn units(c: char, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => c.len_utf8(),
        Encoding::Utf16 => c.len_utf16(),
    }
}

/// A text's lines, each with its line end; the last has none (and is empty
/// when the text ends with a line end).
fn split_lines(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, &byte) in bytes.iter().enumerate() {
        let ends = byte == b'\n' || (byte == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends {
            lines.push(text[start..=i].to_string());
            start = i + 1;
        }
    }
    lines.push(text[start..].to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::lsp::convert;

    /// An edit applied as a whole new text, each position found in a table
    /// of the text's lines made anew.
    fn naive(text: String, range: lsp::Range, new: &str, encoding: Encoding) -> String {
        let mut files = cardsmith::source::Files::new();
        let file = files.add("", text);
        let source = files.get(file);
        let start = convert::offset(source, range.start, encoding);
        let end = convert::offset(source, range.end, encoding).max(start);
        let bom = if source.had_bom { "\u{feff}" } else { "" };
        format!("{bom}{}{}{}", &source.text[..start], new, &source.text[end..])
    }

    /// A small generator of numbers, the same on every run.
    struct Numbers(u64);

    impl Numbers {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 33) as usize) % n
        }

        fn position(&mut self) -> lsp::Position {
            lsp::Position { line: self.below(8) as u32, character: self.below(7) as u32 }
        }

        fn text(&mut self) -> String {
            const PIECES: [&str; 9] = ["a", "bc", "\n", "\r", "\r\n", "é", "𝔠", "\u{feff}", ""];
            (0..self.below(5)).map(|_| PIECES[self.below(PIECES.len())]).collect()
        }
    }

    #[test]
    fn edits_give_what_each_applied_to_the_whole_text_gives() {
        let mut numbers = Numbers(7);
        for round in 0..3000 {
            let encoding = if round % 2 == 0 { Encoding::Utf16 } else { Encoding::Utf8 };
            let start = if round % 5 == 0 { format!("\u{feff}{}", numbers.text()) } else { numbers.text() };
            let mut edited = EditedText::new(start.clone());
            let mut expected = start.clone();
            let mut applied = Vec::new();
            for _ in 0..numbers.below(6) + 1 {
                let (a, b) = (numbers.position(), numbers.position());
                let range = lsp::Range { start: a.min(b), end: a.max(b) };
                let new = numbers.text();
                expected = naive(expected, range, &new, encoding);
                edited.replace(range, &new, encoding);
                applied.push((range, new));
            }
            assert_eq!(edited.into_text(), expected, "{start:?} under {applied:?} ({encoding:?})");
        }
    }
}
