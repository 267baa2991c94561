//! Lints about names: card references in text, near-duplicate card names,
//! cards that no deck lists.

use super::catalogue::{CARD_IN_NO_DECK, NEAR_DUPLICATE_NAMES, UNRESOLVED_CARD_REFERENCE};
use super::{lint, Context, Found};
use crate::check::suggest;
use crate::diagnostics::Diagnostic;
use crate::ir::{Body, Card, TextPart, Value};
use crate::source::Span;
use std::collections::{HashMap, HashSet};

pub(super) fn run<'a>(context: &Context<'a>, found: &mut Vec<Found<'a>>) {
    references(context, found);
    near_duplicates(context, found);
    unlisted(context, found);
}

fn references<'a>(context: &Context<'a>, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(UNRESOLVED_CARD_REFERENCE.name) else { return };
    let names: HashSet<&str> = context.card_names().collect();
    for card in context.clean_cards() {
        let mut fields = Vec::new();
        collect(&card.body, &mut fields);
        for (span, name) in fields {
            if names.contains(name.as_str()) {
                continue;
            }
            let at = reference_span(context, span, &name);
            let diagnostic = Diagnostic::error(lint.code, format!("no card is named `{name}`"))
                .primary(at, "this card reference does not resolve")
                .suggest(suggest(&name, context.card_names()));
            found.push(context.finding(lint, diagnostic, Some(card)));
        }
    }
}

/// `(field span, referenced name)` for every `*Name*` in the body's text.
fn collect(body: &Body, out: &mut Vec<(Span, String)>) {
    for field in &body.fields {
        for value in &field.values {
            if let Value::Text(text) = value {
                for part in &text.parts {
                    if let TextPart::CardRef(name) = part {
                        out.push((field.span, name.clone()));
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

/// The exact `*Name*` inside a field's line, or the line itself.
fn reference_span(context: &Context<'_>, field: Span, name: &str) -> Span {
    let line = context.files.text(field);
    match line.find(&format!("*{name}*")) {
        Some(at) => Span::new(field.file, field.start as usize + at, field.start as usize + at + name.len() + 2),
        None => field,
    }
}

/// Names one or two edits apart.  Candidate pairs come from shared
/// one-deletion variants, so the pass is linear in the number of cards.
fn near_duplicates<'a>(context: &Context<'a>, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(NEAR_DUPLICATE_NAMES.name) else { return };
    let cards = &context.game.cards;
    let mut variants: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, card) in cards.iter().enumerate() {
        let name: Vec<char> = card.name.to_lowercase().chars().collect();
        if name.len() < 5 {
            continue;
        }
        let mut own: Vec<String> = (0..name.len())
            .map(|skip| name.iter().enumerate().filter(|(j, _)| *j != skip).map(|(_, c)| *c).collect())
            .collect();
        own.push(name.iter().collect());
        own.sort();
        own.dedup();
        for variant in own {
            variants.entry(variant).or_default().push(i);
        }
    }
    let mut pairs: Vec<(usize, usize)> = variants
        .values()
        .filter(|group| group.len() > 1 && group.len() <= 8)
        .flat_map(|group| group.iter().flat_map(move |a| group.iter().filter(move |b| a < *b).map(move |b| (*a, *b))))
        .collect();
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
