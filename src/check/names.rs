//! Small helpers for reading node values and suggesting names.

use crate::syntax::ast::{Node, ValueKind};

/// The identifier at position `i` of a node's values.
pub fn ident_at(node: &Node, i: usize) -> Option<&str> {
    match &node.values.get(i)?.kind {
        ValueKind::Ident(s) => Some(s),
        _ => None,
    }
}

/// A game or ruleset id at position `i`: a name, or a token such as
/// `dropfleet-1.3` that also holds dots.
pub fn id_at(node: &Node, i: usize) -> Option<&str> {
    match &node.values.get(i)?.kind {
        ValueKind::Ident(s) | ValueKind::Word(s) => Some(s),
        _ => None,
    }
}

/// The string at position `i` of a node's values.
pub fn string_at(node: &Node, i: usize) -> Option<&str> {
    match &node.values.get(i)?.kind {
        ValueKind::String(s) => Some(s),
        _ => None,
    }
}

/// "a" or "an", for the word that follows.
pub fn article(word: &str) -> &'static str {
    match word.trim_start_matches('`').chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// The candidate closest to `name`, if any is close enough to be a likely
/// misspelling.  Linear in the number of candidates.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 4);
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == name {
            continue;
        }
        let distance = if candidate.to_lowercase() == lower {
            0
        } else {
            strsim::damerau_levenshtein(&lower, &candidate.to_lowercase())
        };
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::suggest;

    #[test]
    fn suggests_close_names_only() {
        let names = ["unstoppable", "unbreakable", "movement"];
        assert_eq!(suggest("unstopable", names), Some("unstoppable"));
        assert_eq!(suggest("Movement", names), Some("movement"));
        assert_eq!(suggest("zzz", names), None);
    }
}
