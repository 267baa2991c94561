//! What a card states that its faces leave unprinted (W0718).  Every effect
//! line a card holds — in its own block, a field's block, a condition, a
//! choice or a `then` step — must reach a face through some text the
//! template lays out: the text boxes of a face say where the effect lines
//! their text prints are written, and one written nowhere among them is
//! reported.  Every field with values must show too: its words (a value's
//! printed text, or the id of the icon standing for it) are looked for
//! among the words the faces set, so a template that prints a field as
//! `card.fields.cost.0.text` counts as much as one printing its rich text.

use super::codes;
use super::view::CardView;
use crate::diagnostics::Diagnostic;
use crate::ir::Card;
use crate::ruleset::model::{Ruleset, Type};
use crate::source::Span;

/// Each effect line of `card` with the card text written beside it in
/// the same block (an ability's `text`), which states it in words: the
/// `text-structure-mismatch` lint keeps the two in agreement.
fn effects_with_prose(card: &Card) -> Vec<(Span, Vec<Span>)> {
    let mut found = Vec::new();
    let mut blocks: Vec<&crate::ir::Body> = vec![&card.body];
    while let Some(body) = blocks.pop() {
        let prose: Vec<Span> = body
            .fields
            .iter()
            .flat_map(|f| &f.values)
            .filter(|v| matches!(v.value, crate::ir::Value::Text(_)))
            .map(|v| v.span)
            .collect();
        found.extend(body.effects.iter().map(|e| (e.span, prose.clone())));
        blocks.extend(body.fields.iter().filter_map(|f| f.body.as_deref()));
        blocks.extend(body.conditions.iter().map(|c| &c.body));
        blocks.extend(body.choices.iter().flat_map(|c| &c.options));
        blocks.extend(&body.then);
    }
    found.sort_by_key(|(s, _)| s.start);
    found
}

/// The effects of `card` that no text of its faces holds, `printed` being
/// where the text each face laid out is written, as a warning each.  An
/// effect whose block's card text is printed is stated by that text.
pub fn unprinted(card: &Card, template: &str, printed: &[Span]) -> Vec<Diagnostic> {
    let inside = |s: &Span| printed.iter().any(|p| p.file == s.file && p.start <= s.start && s.end <= p.end);
    effects_with_prose(card)
        .into_iter()
        .filter(|(s, prose)| !inside(s) && !prose.iter().any(inside))
        .map(|(s, _)| s)
        .map(|span| {
            Diagnostic::warning(&codes::UNPRINTED, format!("an effect of `{}` is not printed on its face", card.name))
                .primary(span, "no text of the face holds this effect")
                .note(format!("the face is drawn by `{template}`"))
                .help("print the block that holds it (`card.paras`, or the field's `paras`), or remove the effect")
        })
        .collect()
}

/// A field a card gives, as its face should show it: where it is written,
/// its name, and for each value the words that show it (its printed text,
/// or the id of the icon that stands for it).
#[derive(Clone, Debug)]
pub struct Stated {
    pub span: Span,
    pub name: String,
    pub values: Vec<Vec<String>>,
}

/// The fields of the card's own block a face should show: every one with
/// values, but its pictures, which a face draws rather than writes.
pub fn fields(card: &Card, view: &CardView, ruleset: &Ruleset) -> Vec<Stated> {
    let schema = ruleset.kind_of(&card.kind).map(|k| &k.schema);
    let mut seen: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut stated = Vec::new();
    for field in &card.body.fields {
        let index = seen.entry(field.name.as_str()).or_default();
        let Some(shown) = view.fields.get(&field.name).and_then(|v| v.get(*index)) else { continue };
        *index += 1;
        let def = schema.and_then(|s| s.field(&field.name));
        if def.is_some_and(|d| d.schema.takes.iter().any(|t| t.ty == Type::Image)) {
            continue;
        }
        let values: Vec<Vec<String>> = shown
            .values
            .iter()
            .map(|v| {
                let words = if v.ty == "text" { first_word(&v.text) } else { Some(v.text.clone()) };
                words.into_iter().chain(v.id.clone()).filter(|w| !w.is_empty()).collect::<Vec<_>>()
            })
            .filter(|w: &Vec<String>| !w.is_empty())
            .collect();
        if !values.is_empty() {
            stated.push(Stated { span: field.span, name: field.name.clone(), values });
        }
    }
    stated
}

/// The first word of card text that prints as written: letters only, not
/// an icon, tag or card name.
fn first_word(text: &str) -> Option<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .find(|w| w.len() > 1 && w.chars().all(char::is_alphabetic))
        .map(str::to_string)
}

/// The fields of `stated` whose values no face of the card shows, `text`
/// being the words its faces set, as a warning each.
pub fn unshown(card: &Card, stated: &[Stated], template: &str, text: &str) -> Vec<Diagnostic> {
    let face: std::collections::HashSet<String> = words(text).collect();
    // A value shows when every word of one of its forms is on the face, in
    // any case, whatever stands between (an icon, a bracket, a line end).
    let shows = |form: &String| words(form).all(|w| face.contains(&w));
    stated
        .iter()
        .filter(|field| !field.values.iter().all(|forms| forms.iter().any(shows)))
        .map(|field| {
            Diagnostic::warning(
                &codes::UNPRINTED,
                format!("the {} of `{}` is not printed on its face", field.name, card.name),
            )
            .primary(field.span, "no text of the face shows this")
            .note(format!("the face is drawn by `{template}`"))
            .help(format!("print the field (`card.fields.{}`), or remove it", field.name))
        })
        .collect()
}

/// The words of a text, lower case: its runs of letters and digits, a
/// decimal (`1.5`) one word, so that a field of `1.5` is not taken as shown
/// by a `1` and a `5` elsewhere on the face.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    let decimal = |w: &str| w.split_once('.').is_some_and(|(a, b)| is_number(a) && is_number(b));
    text.split(|c: char| !(c.is_alphanumeric() || c == '.'))
        .map(|w| w.trim_matches('.'))
        .flat_map(move |w| if decimal(w) { vec![w] } else { w.split('.').collect() })
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_decimal_is_one_word_and_a_sentence_ends_its_last() {
        let words: Vec<String> = super::words("Radius 1.5, speeds 1 and 5. Range 4. e.g. x").collect();
        assert_eq!(words, ["radius", "1.5", "speeds", "1", "and", "5", "range", "4", "e", "g", "x"]);
    }
}
