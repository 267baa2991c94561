//! What a card states that its faces leave unprinted.  Every effect line a
//! card holds — in its own block, a field's block, a condition, a choice or
//! a `then` step — must reach a face through some text the template lays
//! out; a template that prints only some fields (or the generic face of an
//! older cardsmith) would otherwise drop a rule of the card with no word.
//! The text boxes of a face say where the text they print is written, and
//! an effect written nowhere inside them is reported (W0718).

use super::codes;
use crate::diagnostics::Diagnostic;
use crate::ir::{Body, Card};
use crate::source::Span;

/// Where each effect line of `card` is written, in the order written.
pub fn effects(card: &Card) -> Vec<Span> {
    effects_in(&card.body)
}

/// Where each effect line of a block is written, its nested blocks'
/// included, in the order written.
pub fn effects_in(body: &Body) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut blocks: Vec<&Body> = vec![body];
    while let Some(body) = blocks.pop() {
        spans.extend(body.effects.iter().map(|e| e.span));
        blocks.extend(body.fields.iter().filter_map(|f| f.body.as_deref()));
        blocks.extend(body.conditions.iter().map(|c| &c.body));
        blocks.extend(body.choices.iter().flat_map(|c| &c.options));
        blocks.extend(&body.then);
    }
    spans.sort_by_key(|s| s.start);
    spans
}

/// The effects of `card` that no text of its faces holds, `printed` being
/// where the text each face laid out is written, as a warning each.
pub fn unprinted(card: &Card, template: &str, printed: &[Span]) -> Vec<Diagnostic> {
    let inside = |s: &Span| printed.iter().any(|p| p.file == s.file && p.start <= s.start && s.end <= p.end);
    effects(card)
        .into_iter()
        .filter(|s| !inside(s))
        .map(|span| {
            Diagnostic::warning(&codes::UNPRINTED, format!("an effect of `{}` is not printed on its face", card.name))
                .primary(span, "no text of the face holds this effect")
                .note(format!("the face is drawn by `{template}`"))
                .help("print the block that holds it (`card.paras`, or the field's `paras`), or remove the effect")
        })
        .collect()
}
