//! Small helpers for reading node values, suggesting names and writing
//! counts in messages.

use crate::syntax::ast::{Node, ValueKind};
use std::collections::HashMap;

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

/// How many candidates one [`Suggester`] may screen in all.  Enough for
/// hundreds of unknown names among 100,000 cards; past it, unknown names are
/// still reported, without a suggestion.
const SUGGESTION_EFFORT: usize = 5_000_000;

/// [`suggest`] over a long list of names, such as every card of a game,
/// without making a check quadratic when many names are unknown: candidates
/// are indexed by length and screened by a letter count before the edit
/// distance is computed, each answer is remembered, and the total effort is
/// bounded.  Within the bound the answers are exactly those of [`suggest`].
pub struct Suggester<'a> {
    names: Vec<&'a str>,
    lower: Vec<String>,
    letters: Vec<Letters>,
    /// Candidates by the length of their lower-case name, in list order.
    by_length: HashMap<usize, Vec<usize>>,
    memo: HashMap<String, Option<usize>>,
    effort: usize,
}

/// Letter counts folded into 32 buckets: how many letters must change to turn
/// one into the other is a lower bound of the edit distance.
type Letters = [u8; 32];

fn letters(lower: &str) -> Letters {
    let mut counts = [0u8; 32];
    for c in lower.chars() {
        let bucket = &mut counts[c as usize % 32];
        *bucket = bucket.saturating_add(1);
    }
    counts
}

fn letters_apart(a: &Letters, b: &Letters) -> usize {
    let (mut more, mut fewer) = (0, 0);
    for (x, y) in a.iter().zip(b) {
        if x > y {
            more += usize::from(x - y);
        } else {
            fewer += usize::from(y - x);
        }
    }
    more.max(fewer)
}

impl<'a> Suggester<'a> {
    pub fn new(names: impl IntoIterator<Item = &'a str>) -> Suggester<'a> {
        let names: Vec<&'a str> = names.into_iter().collect();
        let lower: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        let letters = lower.iter().map(|l| letters(l)).collect();
        let mut by_length: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, l) in lower.iter().enumerate() {
            by_length.entry(l.chars().count()).or_default().push(i);
        }
        Suggester { names, lower, letters, by_length, memo: HashMap::new(), effort: 0 }
    }

    /// The candidate closest to `name`, as [`suggest`] would choose it.
    pub fn suggest(&mut self, name: &str) -> Option<&'a str> {
        if let Some(found) = self.memo.get(name) {
            return found.map(|i| self.names[i]);
        }
        let limit = (name.chars().count() / 3).clamp(1, 4);
        let lower = name.to_lowercase();
        let length = lower.chars().count();
        let wanted = letters(&lower);
        let candidates: Vec<usize> = (length.saturating_sub(limit)..=length + limit)
            .filter_map(|l| self.by_length.get(&l))
            .flatten()
            .copied()
            .collect();
        if self.effort + candidates.len() > SUGGESTION_EFFORT {
            return None;
        }
        self.effort += candidates.len();
        let mut best: Option<(usize, usize)> = None;
        for i in candidates {
            if self.names[i] == name || letters_apart(&wanted, &self.letters[i]) > limit {
                continue;
            }
            let distance = if self.lower[i] == lower { 0 } else { strsim::damerau_levenshtein(&lower, &self.lower[i]) };
            if distance <= limit && best.is_none_or(|b| (distance, i) < b) {
                best = Some((distance, i));
            }
        }
        let found = best.map(|(_, i)| i);
        self.memo.insert(name.to_string(), found);
        found.map(|i| self.names[i])
    }
}

/// A count as messages write it: `1,000,000`.
pub fn thousands(count: i64) -> String {
    let digits = count.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if count < 0 {
        grouped.insert(0, '-');
    }
    grouped
}

/// A name in one spelling: lower case, words single-spaced, no space inside
/// or before brackets nor before a comma.
pub(crate) fn spelling(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        let joins = word.starts_with(['(', ')', ',']) || out.ends_with('(') || out.is_empty();
        if !joins {
            out.push(' ');
        }
        out.extend(word.chars().map(|c| c.to_ascii_lowercase()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{suggest, thousands, Suggester};

    #[test]
    fn suggests_close_names_only() {
        let names = ["unstoppable", "unbreakable", "movement"];
        assert_eq!(suggest("unstopable", names), Some("unstoppable"));
        assert_eq!(suggest("Movement", names), Some("movement"));
        assert_eq!(suggest("zzz", names), None);
    }

    #[test]
    fn the_suggester_answers_as_suggest_does() {
        let names = [
            "Spinal Railcannon",
            "Spinal Railcanon",
            "spinal railcannon",
            "Kinetic Strike",
            "Kinetic Strikes",
            "Flak",
            "Flag",
            "Black Ice",
            "İce Field",
        ];
        let mut suggester = Suggester::new(names);
        for query in [
            "Spinal Railcannon",
            "spinal railcanon",
            "Spinal Rail",
            "Kinetic Strik",
            "kinetic strikes",
            "Flax",
            "Flak",
            "Blak Ice",
            "ice field",
            "Nothing Like It",
            "",
        ] {
            assert_eq!(suggester.suggest(query), suggest(query, names), "{query}");
            assert_eq!(suggester.suggest(query), suggest(query, names), "{query}, remembered");
        }
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(-1_234_567), "-1,234,567");
    }
}
