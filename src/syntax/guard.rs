//! The depth guard: finds blocks nested too deeply before the grammar sees
//! them.
//!
//! The grammar reads a block inside a block by recursion, so a run of a
//! million `{` would exhaust the stack.  This one linear pass over the bytes
//! counts brace depth (skipping strings and comments as the grammar does) and
//! gives the regions to refuse: from the start of the top-level item that goes
//! deeper than [`MAX_DEPTH`] to the next line that starts in the first column
//! with a letter, which is where the grammar would begin a new item.  It
//! reports nothing itself and tells nothing else apart: everything else is
//! the grammar's.

use std::ops::Range;

/// Blocks may nest this deep; deeper input is refused before parsing.
pub const MAX_DEPTH: usize = 32;

/// A region of a file refused for nesting too deeply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// From the start of the item's first line to the next top-level line.
    pub range: Range<usize>,
    /// The first `{` deeper than the limit.
    pub brace: usize,
}

/// The regions of `text` whose blocks nest deeper than [`MAX_DEPTH`].
pub fn too_deep(text: &str) -> Vec<Refused> {
    let bytes = text.as_bytes();
    let mut refused = Vec::new();
    let (mut depth, mut item_start, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        let line_start = i == 0 || matches!(bytes[i - 1], b'\n' | b'\r');
        if line_start && (depth == 0 || bytes[i].is_ascii_alphabetic()) {
            // An item starts here, or a letter in the first column closes the
            // blocks still open, as the grammar's `missing_close` does.
            depth = 0;
            item_start = i;
        }
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = line_end(bytes, i),
            b'"' if i == 0 || !bytes[i - 1].is_ascii_digit() => i = string_end(bytes, i),
            b'{' if depth == MAX_DEPTH => {
                let end = next_top_level_line(bytes, i);
                refused.push(Refused { range: item_start..end, brace: i });
                (depth, item_start, i) = (0, end, end);
            }
            b'{' => {
                depth += 1;
                i += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => i += 1,
        }
    }
    refused
}

fn line_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
        i += 1;
    }
    i
}

/// Past the string starting at `start`, or at the end of its line.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return i + 1,
            b'\\' if i + 1 < bytes.len() && bytes[i + 1] != b'\n' && bytes[i + 1] != b'\r' => i += 2,
            b'\n' | b'\r' => return i,
            _ => i += 1,
        }
    }
    i
}

/// The start of the next line that begins with a letter in the first column,
/// or the end of the text.
pub fn next_top_level_line(bytes: &[u8], mut i: usize) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_to_the_limit_is_accepted() {
        let text = format!("a {}{}\n", "{".repeat(MAX_DEPTH), "}".repeat(MAX_DEPTH));
        assert_eq!(too_deep(&text), vec![]);
    }

    #[test]
    fn a_deeper_item_is_refused_to_the_next_top_level_line() {
        let text = format!("a 1\nb {}\n  c\nd 2\n", "{".repeat(100_000));
        let refused = too_deep(&text);
        assert_eq!(refused, vec![Refused { range: 4..text.len() - 4, brace: 6 + MAX_DEPTH }]);
    }

    #[test]
    fn braces_in_strings_and_comments_do_not_count() {
        let text = format!("a \"{}\" // {}\n", "{".repeat(50), "{".repeat(50));
        assert_eq!(too_deep(&text), vec![]);
    }
}
