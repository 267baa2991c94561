//! The one spelling of the names a checked card writes as printed.
//!
//! The checker reads a keyword by the name its ruleset displays, in any
//! letter case and spacing (`Close Action (Beam)`, `Burnthrough (4)`, `Alt-1`)
//! and a set's items in any letter case (`Fighters/Bombers`); only the
//! ruleset tells what such words name, so the formatter, which reads the
//! syntax alone, cannot.  [`spellings`] gives, from a checked project, the
//! edits that write each of them as its id (`close-action-beam`,
//! `burnthrough(4)`, `alt(1)`, `fighters/bombers`), and an enum's value
//! written in other case or in brackets as printed (`[Ac]`) as its ruleset's
//! (`ac`); `cardsmith fmt` applies
//! them before it formats, once a check of the edited files has said they
//! mean the same.

use crate::ir::{Body, Project, Spanned, Value};
use crate::lint::Fix;
use crate::source::Files;

/// Whether a file may write a name as a rulebook prints it, read from its
/// text alone, strings and comments left out: a word of a capital then a
/// small letter (`Close`, `Alt-1`, `Fighters`), a name in square brackets
/// (`[Ac]`).  A false alarm only costs a check; a file this says no to has
/// nothing [`spellings`] would change, since every ruleset id is in small
/// letters and a set's items (`F/S(Left)`) start a word with a capital and
/// no small letter after it.
pub fn may_be_printed(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut word_start = true;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = end_of_string(bytes, i + 1),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'[' => return true,
            c if word_start && c.is_ascii_uppercase() && bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase) => {
                return true
            }
            _ => {}
        }
        word_start = i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b',' | b'{' | b';');
        i += 1;
    }
    false
}

/// The index after the string that starts before `from` (past its closing
/// quote; a backslash escapes the next byte), or the end of its line.
fn end_of_string(bytes: &[u8], mut from: usize) -> usize {
    while from < bytes.len() && !matches!(bytes[from], b'"' | b'\n') {
        from += if bytes[from] == b'\\' { 2 } else { 1 };
    }
    from
}

/// The edits that write each keyword and set value of every card as its
/// ruleset spells it, where the card spells it otherwise.
pub fn spellings(files: &Files, project: &Project) -> Vec<Fix> {
    let mut fixes = Vec::new();
    for game in &project.games {
        for card in &game.cards {
            body(files, &card.body, &mut fixes);
        }
    }
    fixes
}

fn body(files: &Files, body: &Body, fixes: &mut Vec<Fix>) {
    for field in &body.fields {
        for value in &field.values {
            let Some(canonical) = canonical(files, value) else { continue };
            if files.text(value.span) != canonical {
                fixes.push(Fix { span: value.span, replacement: canonical });
            }
        }
        if let Some(inner) = &field.body {
            self::body(files, inner, fixes);
        }
    }
    for conditional in &body.conditions {
        self::body(files, &conditional.body, fixes);
    }
    for choice in &body.choices {
        for option in &choice.options {
            self::body(files, option, fixes);
        }
    }
    for step in &body.then {
        self::body(files, step, fixes);
    }
}

/// A keyword, a set or a name as its ruleset spells it: `burnthrough(4)`,
/// `F/S(Right)`, `ac`; `None` for any other value, which is kept as written.
fn canonical(files: &Files, value: &Spanned<Value>) -> Option<String> {
    match &value.value {
        Value::Keyword { id, args } if args.is_empty() => Some(id.clone()),
        Value::Keyword { id, args } => {
            let args: Vec<String> =
                args.iter().map(|a| canonical(files, a).unwrap_or_else(|| files.text(a.span).to_string())).collect();
            Some(format!("{id}({})", args.join(", ")))
        }
        Value::Set(items) => Some(items.join("/")),
        // An enum's value in other letter case or in brackets: `[Ac]`.
        Value::Name(name) => Some(name.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::may_be_printed;

    #[test]
    fn printed_names_are_told_from_canonical_text() {
        for printed in [
            "special Close Action",
            "launch Fighters & Bombers 6",
            "special alt(1) Alt-2",
            "ability [Ac] {",
            "special Burnthrough (4), Flash",
        ] {
            assert!(may_be_printed(printed), "{printed}");
        }
        for canonical in [
            "weapon \"Barracuda Missile Bay\" lock 4+ arc F/S(Left)/R special close-action",
            "text \"Deal 8 {damage}. Close Action.\" // Close Action [Ac]",
            "tonnage L2 speed A++ attack D6+4 at X",
        ] {
            assert!(!may_be_printed(canonical), "{canonical}");
        }
    }

    /// The bundled games write every name in its canonical spelling, so
    /// formatting them never needs a check.
    #[test]
    fn no_bundled_file_writes_a_printed_name() {
        let cards = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cards");
        for game in std::fs::read_dir(cards).expect("cards/") {
            for file in std::fs::read_dir(game.expect("game").path()).expect("a game folder") {
                let path = file.expect("file").path();
                let text = std::fs::read_to_string(&path).expect("text");
                assert!(!may_be_printed(&text), "{}", path.display());
            }
        }
    }
}
