//! The depth guard: finds blocks and brackets nested too deeply before the
//! grammar sees them.
//!
//! The grammar reads a block inside a block, and a call or bracket inside
//! another, by recursion, so a run of a million `{` or `(` would exhaust the
//! stack.  This one linear pass over the bytes counts brace depth and bracket
//! depth (skipping strings and comments as the grammar does) and gives the
//! regions to refuse: from the start of the top-level item that goes deeper
//! than [`MAX_DEPTH`] blocks or [`MAX_BRACKET_DEPTH`] brackets to the next
//! line that starts in the first column with a letter, which is where the
//! grammar would begin a new item.  The parser relies on this bound: it
//! does not probe the stack itself.  It
//! reports nothing itself and tells nothing else apart: everything else is
//! the grammar's.

use std::ops::Range;

/// Blocks may nest this deep; deeper input is refused before parsing.
pub const MAX_DEPTH: usize = 32;

/// Brackets (`(`, `[`) may nest this deep inside an item; deeper input is
/// refused before parsing.  Twice the depth an expression may reach
/// (`E0014`), so that a call 33 deep is still read and told apart.
pub const MAX_BRACKET_DEPTH: usize = 64;

/// A region of a file refused for nesting too deeply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// From the start of the item's first line to the next top-level line.
    pub range: Range<usize>,
    /// The first `{`, `(` or `[` deeper than its limit.
    pub brace: usize,
}

/// The bytes [`too_deep`] looks at: line and node ends, comments, strings,
/// blocks and brackets.
const SIGNIFICANT: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = *b"\n\r;/\"{}()[]";
    let mut k = 0;
    while k < bytes.len() {
        table[bytes[k] as usize] = true;
        k += 1;
    }
    table
};

/// The regions of `text` whose blocks nest deeper than [`MAX_DEPTH`] or
/// whose brackets nest deeper than [`MAX_BRACKET_DEPTH`].
pub fn too_deep(text: &str) -> Vec<Refused> {
    let bytes = text.as_bytes();
    let mut refused = Vec::new();
    let (mut depth, mut brackets, mut item_start, mut i) = (0usize, 0usize, 0usize, 0usize);
    // At the start of a line, or after `{` or `;`: where a node may start.
    let mut node_start = true;
    while i < bytes.len() {
        if std::mem::take(&mut node_start) {
            let line_start = i == 0 || matches!(bytes[i - 1], b'\n' | b'\r');
            if line_start && (depth == 0 || bytes[i].is_ascii_alphabetic()) {
                // An item starts here, or a letter in the first column closes
                // the blocks still open, as the grammar's `missing_close` does.
                (depth, brackets, item_start) = (0, 0, i);
            }
            while matches!(bytes.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            if let Some(end) = rule_expression_end(bytes, i) {
                // A rule's expression is read whole by one token, then in
                // Rust with a depth limit of its own: its brackets do not
                // count here.
                i = end;
                continue;
            }
            if i == bytes.len() {
                break;
            }
        }
        // Most bytes are none of the ones below: pass over them in one go.
        while i < bytes.len() && !SIGNIFICANT[usize::from(bytes[i])] {
            i += 1;
        }
        if i == bytes.len() {
            break;
        }
        let too_deep = match bytes[i] {
            b'\n' | b'\r' | b';' => {
                node_start = true;
                false
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = line_end(bytes, i);
                continue;
            }
            b'"' if i == 0 || !bytes[i - 1].is_ascii_digit() => {
                i = string_end(bytes, i);
                continue;
            }
            b'{' => {
                node_start = true;
                deeper(&mut depth, MAX_DEPTH)
            }
            b'(' | b'[' => deeper(&mut brackets, MAX_BRACKET_DEPTH),
            b'}' => shallower(&mut depth),
            b')' | b']' => shallower(&mut brackets),
            _ => false,
        };
        if too_deep {
            let end = next_top_level_line(bytes, i);
            refused.push(Refused { range: item_start..end, brace: i });
            (depth, brackets, item_start, i, node_start) = (0, 0, end, end, true);
        } else {
            i += 1;
        }
    }
    refused
}

/// When a rule with a message starts at `i` (`constraint_kw ~ string ~
/// expr` in the grammar), or an expression of play (`expr_kw ~ expr`),
/// where its expression ends: the grammar reads the
/// expression as the rest of the line, up to a comment, `;` or `}`, in one
/// token.  A definition (`def`) is not skipped: its head is read as a call.
fn rule_expression_end(bytes: &[u8], i: usize) -> Option<usize> {
    let rest = &bytes[i..];
    if !matches!(rest.first(), Some(b'r' | b'p' | b'c' | b'm' | b'e' | b's' | b'o')) {
        return None;
    }
    let word = ["require", "recommend", "play-limit", "compute", "means", "ends-when", "score-by", "order-by"]
        .into_iter()
        .find(|word| {
            rest.starts_with(word.as_bytes())
                && !rest.get(word.len()).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_'))
        })?;
    let mut at = i + word.len();
    while matches!(bytes.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    // An expression of play has no message: it starts here.
    let after = if matches!(word, "means" | "ends-when" | "score-by" | "order-by") {
        at
    } else {
        if bytes.get(at) != Some(&b'"') {
            return None;
        }
        let after = string_end(bytes, at);
        if after <= at + 1 || bytes[after - 1] != b'"' {
            return None;
        }
        after
    };
    let line = &bytes[after..];
    let end = line
        .iter()
        .enumerate()
        .position(|(k, c)| matches!(c, b'\n' | b'\r' | b';' | b'}') || line[k..].starts_with(b"//"))
        .map_or(bytes.len(), |k| after + k);
    Some(end)
}

/// Goes one level deeper, or tells that the limit is reached.
fn deeper(depth: &mut usize, limit: usize) -> bool {
    if *depth == limit {
        return true;
    }
    *depth += 1;
    false
}

fn shallower(depth: &mut usize) -> bool {
    *depth = depth.saturating_sub(1);
    false
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

/// Where the region ends when the item at `start` is a top-level line that
/// lost the `{` of its block: it opens no block, the lines after it are
/// indented (their own blocks closed), and then a `}` stands alone at the
/// start of a line.  That `}` is the region's last byte.
pub fn missing_open(text: &str, start: usize, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let at_line_start = start == 0 || matches!(bytes[start - 1], b'\n' | b'\r');
    if !at_line_start || !bytes[start].is_ascii_alphabetic() {
        return None;
    }
    let mut line = start;
    let head_end = line_end(bytes, line).min(end);
    // A name whose quote is never closed swallows the `{` after it: that is
    // a missing `{` too, reported as the unclosed string.
    if braces(&bytes[line..head_end], b';', true) != Some(0) {
        return None;
    }
    let (mut depth, mut indented) = (0i64, false);
    loop {
        line = next_line(bytes, line).filter(|&next| next < end)?;
        let line_stop = line_end(bytes, line).min(end);
        let content = &bytes[line..line_stop];
        let code = content.trim_ascii_start();
        if code.is_empty() || code.starts_with(b"//") {
            continue;
        }
        if code.len() == content.len() {
            // A line in the first column: the `}` that closes the region.
            let closes = code.starts_with(b"}") && braces(&code[1..], b'}', false) == Some(0);
            return (closes && depth == 0 && indented).then_some(line + 1);
        }
        indented = true;
        depth += braces(content, 0, false)?;
        if depth < 0 {
            return None;
        }
    }
}

/// The `{` less the `}` of a line, strings and comments aside; `None` when
/// the line holds the byte `stop` outside them, closes more than it opens
/// at some point, or leaves a string open (unless `open_string_ends_it`).
fn braces(line: &[u8], stop: u8, open_string_ends_it: bool) -> Option<i64> {
    let (mut depth, mut i, mut low) = (0i64, 0, 0i64);
    while i < line.len() {
        match line[i] {
            b'"' => {
                let after = string_end(line, i);
                if after <= i + 1 || line[after - 1] != b'"' {
                    // A string never closed runs to the end of the line.
                    return open_string_ends_it.then_some(depth);
                }
                i = after;
                continue;
            }
            b'/' if line.get(i + 1) == Some(&b'/') => break,
            b if b == stop && stop != 0 => return None,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                low = low.min(depth);
            }
            _ => {}
        }
        i += 1;
    }
    (stop == 0 || low == 0).then_some(depth)
}

/// The start of the line after the one at `i`.
fn next_line(bytes: &[u8], i: usize) -> Option<usize> {
    let mut next = line_end(bytes, i);
    if next >= bytes.len() {
        return None;
    }
    next += if bytes[next] == b'\r' && bytes.get(next + 1) == Some(&b'\n') { 2 } else { 1 };
    Some(next)
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
    fn brackets_to_their_limit_are_accepted_and_deeper_refused() {
        let at_limit = format!("a x{}{}\n", "([".repeat(MAX_BRACKET_DEPTH / 2), "])".repeat(MAX_BRACKET_DEPTH / 2));
        assert_eq!(too_deep(&at_limit), vec![]);
        let text = format!("a 1\nb {}\nc 2\n", "f(".repeat(100_000));
        let refused = too_deep(&text);
        assert_eq!(refused, vec![Refused { range: 4..text.len() - 4, brace: 6 + 2 * MAX_BRACKET_DEPTH + 1 }]);
    }

    #[test]
    fn brackets_of_a_rule_expression_do_not_count() {
        let deep = format!("{}1{}", "(".repeat(1000), ")".repeat(1000));
        let text = format!("kind k {{\n  require \"x;\" {deep} // ((((\n}}\nk a {{ x 1; compute \"y\" {deep} }}\n");
        assert_eq!(too_deep(&text), vec![]);
        // The grammar ends an expression at a `;`, even one inside quotes.
        let after = format!("kind k {{\n  require \"x\" a == \"b; c {deep}\"\n}}\n");
        assert_eq!(too_deep(&after).len(), 1);
        let value = format!("k b {{\n  x {deep}\n}}\n");
        assert_eq!(too_deep(&value).len(), 1);
    }

    #[test]
    fn braces_in_strings_and_comments_do_not_count() {
        let text = format!("a \"{}\" // {}\n", "{".repeat(50), "{".repeat(50));
        assert_eq!(too_deep(&text), vec![]);
    }
}
