//! `cardsmith import --update`: the cards of a table merged into an
//! existing card file by name.  A card of the table replaces the card of
//! the same name where it stands; a card the table does not hold, the
//! decks, and every comment outside a replaced card stay as they are; a
//! card of the table that the file lacks is added at its end.  A card whose
//! lines mean what the table's row means is left as written, comments and
//! layout included, so a table exported and imported again changes
//! nothing.

use super::cell_from_string;
use crate::source::Files;
use crate::syntax::ast::{Node, SourceTree, ValueKind};
use std::ops::Range;

/// A card file with a table's cards merged in.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// The file as it is to be written.
    pub text: String,
    /// The file without any card the table holds: what is checked with
    /// the table, before the merged file is written.
    pub kept: String,
    /// Cards replaced, left as they were (they meant the same), added.
    pub replaced: usize,
    pub unchanged: usize,
    pub added: usize,
}

/// Merges the cards of `generated` (a card file made from a table) into
/// `existing`.  `Err` says why they cannot be: a file of another game, or a
/// file that does not parse (its cards could not be told apart).
pub fn merge(existing: &str, generated: &str) -> Result<Merged, String> {
    let mut files = Files::new();
    let (old_id, new_id) = (files.add("existing", existing), files.add("generated", generated));
    let mut problems = Vec::new();
    let old = crate::syntax::parse(&files, old_id, &mut problems);
    if problems.iter().any(|d| d.is_error()) {
        return Err("the card file has syntax errors: fix them first (`cardsmith check` shows them)".to_string());
    }
    let new = crate::syntax::parse(&files, new_id, &mut problems);
    let (old_text, new_text) = (&files.get(old_id).text, &files.get(new_id).text);
    let game = |tree: &SourceTree, text: &str| {
        tree.nodes.first().filter(|n| n.name.text == "game").map(|n| text[n.span.range()].to_string())
    };
    if let (Some(old_game), Some(new_game)) = (game(&old, old_text), game(&new, new_text)) {
        if old_game != new_game {
            return Err(format!("the card file says `{old_game}`, and the table's cards are `{new_game}`"));
        }
    }
    let mut merged = Merged::default();
    // (range of the old text, what replaces it) in order of the text.
    let mut edits: Vec<(Range<usize>, Option<&str>)> = Vec::new();
    let mut added = Vec::new();
    for card in new.nodes.iter().filter(|n| name_of(n, new_text).is_some()) {
        let card_text = &new_text[card.span.range()];
        let found = old.nodes.iter().find(|n| name_of(n, old_text) == name_of(card, new_text));
        match found {
            Some(old_card) if shape(old_card, old_text) == shape(card, new_text) => {
                merged.unchanged += 1;
                edits.push((old_card.span.range(), None));
            }
            Some(old_card) => {
                merged.replaced += 1;
                edits.push((old_card.span.range(), Some(card_text)));
            }
            None => added.push(card_text),
        }
    }
    edits.sort_by_key(|(range, _)| range.start);
    edits.dedup_by_key(|(range, _)| range.start);
    let (mut at, mut text, mut kept) = (0, String::new(), String::new());
    for (range, replacement) in &edits {
        text.push_str(&old_text[at..range.start]);
        kept.push_str(&old_text[at..range.start]);
        text.push_str(replacement.unwrap_or(&old_text[range.clone()]));
        at = range.end;
    }
    text.push_str(&old_text[at..]);
    kept.push_str(&old_text[at..]);
    for card in &added {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
        text.push_str(card);
        text.push('\n');
    }
    merged.added = added.len();
    let bom = if files.get(old_id).had_bom { "\u{feff}" } else { "" };
    merged.text = format!("{bom}{text}");
    merged.kept = format!("{bom}{kept}");
    Ok(merged)
}

/// The name a card gives itself, as its text: its first value, a string.
fn name_of(node: &Node, text: &str) -> Option<String> {
    if node.name.text == "game" || node.name.text == "deck" {
        return None;
    }
    let value = node.values.first().filter(|v| matches!(v.kind, ValueKind::String(_)))?;
    let written = &text[value.span.range()];
    Some(cell_from_string(written.strip_prefix('"').and_then(|w| w.strip_suffix('"')).unwrap_or(written)))
}

/// What a card means, without where it is written or its comments.
fn shape(node: &Node, text: &str) -> String {
    SourceTree { nodes: vec![node.clone()], ..SourceTree::default() }.shape(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "game g\n\n// The old guard.\noffense \"A\" {\n  // keep me\n  arc narrow\n}\n\n\
                       offense \"B\" {\n  arc wide\n}\n\ndeck \"D\" draw {\n  card \"A\" x2\n}\n";

    #[test]
    fn cards_of_the_table_replace_those_of_their_name_and_the_rest_stays() {
        let generated = "game g\n\noffense \"B\" {\n  arc narrow\n}\n\noffense \"C\" {\n  arc wide\n}\n";
        let merged = merge(OLD, generated).expect("merges");
        assert_eq!((merged.replaced, merged.unchanged, merged.added), (1, 0, 1));
        let expected = "game g\n\n// The old guard.\noffense \"A\" {\n  // keep me\n  arc narrow\n}\n\n\
                        offense \"B\" {\n  arc narrow\n}\n\ndeck \"D\" draw {\n  card \"A\" x2\n}\n\n\
                        offense \"C\" {\n  arc wide\n}\n";
        assert_eq!(merged.text, expected);
        assert!(!merged.kept.contains("\"B\"") && merged.kept.contains("\"A\""));
    }

    #[test]
    fn a_card_that_means_the_same_keeps_its_comments() {
        let generated = "game g\n\noffense \"A\" {\n  arc narrow\n}\n";
        let merged = merge(OLD, generated).expect("merges");
        assert_eq!((merged.replaced, merged.unchanged, merged.added), (0, 1, 0));
        assert_eq!(merged.text, OLD);
    }

    #[test]
    fn a_file_of_another_game_is_refused() {
        assert!(merge(OLD, "game h\n\noffense \"A\" {\n  arc narrow\n}\n").is_err());
    }
}
