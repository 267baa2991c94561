//! Lints about names: card references in text, near-duplicate card names,
//! cards that no deck lists.

use super::catalogue::{CARD_IN_NO_DECK, NEAR_DUPLICATE_NAMES, UNRESOLVED_CARD_REFERENCE};
use super::{lint, Context, Found};
use crate::check::Suggester;
use crate::diagnostics::Diagnostic;
use crate::ir::{Body, Card, TextPart, Value};
use crate::source::Span;
use std::collections::HashSet;

pub(super) fn run<'a>(context: &Context<'a>, found: &mut Vec<Found<'a>>) {
    references(context, found);
    near_duplicates(context, found);
    unlisted(context, found);
}

fn references<'a>(context: &Context<'a>, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(UNRESOLVED_CARD_REFERENCE.name) else { return };
    let names: HashSet<&str> = context.card_names().collect();
    let mut suggester: Option<Suggester<'_>> = None;
    for card in context.clean_cards() {
        let mut fields = Vec::new();
        collect(&card.body, &mut fields);
        for (span, name) in fields {
            if names.contains(name.as_str()) || context.lost_names.contains(&name) {
                continue;
            }
            let at = reference_span(context, span, &name);
            let diagnostic = Diagnostic::error(lint.code, format!("no card is named `{name}`"))
                .primary(at, "this card reference does not resolve")
                .suggest(suggester.get_or_insert_with(|| Suggester::new(context.card_names())).suggest(&name));
            found.push(context.finding(lint, diagnostic, Some(card)));
        }
    }
}

/// `(text span, referenced name)` for every `*Name*` in the body's text.
fn collect(body: &Body, out: &mut Vec<(Span, String)>) {
    for field in &body.fields {
        for value in &field.values {
            if let Value::Text(text) = &value.value {
                for part in &text.parts {
                    if let TextPart::CardRef(name) = part {
                        out.push((value.span, name.clone()));
                    }
                }
            }
        }
        if let Some(inner) = &field.body {
            collect(inner, out);
        }
    }
    for conditional in &body.conditions {
        collect(&conditional.body, out);
    }
}

/// The exact `*Name*` inside the text, or the whole text.
fn reference_span(context: &Context<'_>, text: Span, name: &str) -> Span {
    let written = context.files.text(text);
    match written.find(&format!("*{name}*")) {
        Some(at) => Span::new(text.file, text.start as usize + at, text.start as usize + at + name.len() + 2),
        None => text,
    }
}

/// Names one or two edits apart.  Candidate pairs come from shared
/// one-deletion variants, so the pass is linear in the number of cards.
/// Variants are compared by a hash of their characters rather than as
/// strings, which keeps the pass small at 100,000 cards; a collision only
/// adds a candidate that the edit distance below then rules out.
fn near_duplicates<'a>(context: &Context<'a>, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(NEAR_DUPLICATE_NAMES.name) else { return };
    let cards = &context.game.cards;
    let mut variants: Vec<(u64, usize)> = Vec::new();
    let mut own: Vec<u64> = Vec::new();
    for (i, card) in cards.iter().enumerate() {
        let name: Vec<char> = card.name.to_lowercase().chars().collect();
        if name.len() < 5 {
            continue;
        }
        own.clear();
        deletion_hashes(&name, &mut own);
        own.sort_unstable();
        own.dedup();
        variants.extend(own.iter().map(|h| (*h, i)));
    }
    variants.sort_unstable();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for group in variants.chunk_by(|a, b| a.0 == b.0) {
        if group.len() > 1 && group.len() <= 8 {
            for (n, (_, a)) in group.iter().enumerate() {
                pairs.extend(group[n + 1..].iter().map(|(_, b)| (*a.min(b), *a.max(b))));
            }
        }
    }
    pairs.sort();
    pairs.dedup();
    for (a, b) in pairs {
        let (first, second) = (&cards[a], &cards[b]);
        let without_digits = |s: &str| s.chars().filter(|c| !c.is_ascii_digit()).collect::<String>();
        // Numbered variants (`Wing 1`, `Wing 2`) are meant to differ.
        let numbered = without_digits(&first.name) == without_digits(&second.name);
        if first.name == second.name || numbered || strsim::damerau_levenshtein(&first.name, &second.name) > 2 {
            continue;
        }
        let diagnostic =
            Diagnostic::warning(lint.code, format!("`{}` and `{}` differ by a letter or two", first.name, second.name))
                .primary(second.span, "this card")
                .secondary(first.span, "looks like this one")
                .help("if both are meant, add `allow near-duplicate-names` to one of them");
        found.push(context.finding(lint, diagnostic, Some(second)));
    }
}

/// A hash of the name itself and of each name made by deleting one of its
/// characters, in O(length): polynomial hashes of every prefix and suffix.
fn deletion_hashes(name: &[char], out: &mut Vec<u64>) {
    const BASE: u64 = 0x100_0000_01b3;
    let n = name.len();
    let mut prefix = vec![0u64; n + 1];
    for (i, c) in name.iter().enumerate() {
        prefix[i + 1] = prefix[i].wrapping_mul(BASE).wrapping_add(*c as u64 + 1);
    }
    // suffix[i] hashes name[i..]; power[k] is BASE^k.
    let mut suffix = vec![0u64; n + 1];
    let mut power = vec![1u64; n + 1];
    for i in (0..n).rev() {
        power[n - i] = power[n - i - 1].wrapping_mul(BASE);
        suffix[i] = (name[i] as u64 + 1).wrapping_mul(power[n - i - 1]).wrapping_add(suffix[i + 1]);
    }
    // Each hash is mixed with the length of the string it hashes.
    out.push(prefix[n] ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    for skip in 0..n {
        let variant = prefix[skip].wrapping_mul(power[n - skip - 1]).wrapping_add(suffix[skip + 1]);
        out.push(variant ^ ((n - 1) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    }
}

fn unlisted<'a>(context: &Context<'a>, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(CARD_IN_NO_DECK.name) else { return };
    let listed: HashSet<&str> = context.game.decks.iter().flat_map(|d| &d.cards).map(|e| e.card.as_str()).collect();
    for card in &context.game.cards {
        if listed.contains(card.name.as_str()) {
            continue;
        }
        let diagnostic: Diagnostic = Diagnostic::warning(lint.code, format!("no deck lists `{}`", card.name))
            .primary(card.span, "defined here, used nowhere")
            .help("list it in a deck, or remove it");
        found.push(context.finding(lint, diagnostic, Some(card as &Card)));
    }
}
