//! Special values: tokens a card prints in place of a value, such as `-`
//! (the stat does not apply) or `*` (the card's text says), each with a
//! meaning an engine can act on.
//!
//! A ruleset knows `-` and `*` from the start and may declare more
//! (`special "X" see-text "varies"`) or give these two another description.
//! A field's type accepts a token only when it says so (`int or "*"`), so a
//! stray `-` in a field that needs a number is still an error.  A token is
//! matched against the value's text as written, before the value is typed.

use super::codes;
pub use super::model::special::{built_in, Meaning, Special};
use super::model::{Ruleset, Type};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{Node, ValueKind};

/// Whether a card can write `token` as one bare value that no type reads as
/// a number: no digit, space, quote, brace, `;` or comment, at most 8
/// characters.
fn is_writable(token: &str) -> bool {
    !token.is_empty()
        && token.chars().count() <= 8
        && !token.contains("//")
        && token.chars().all(|c| !c.is_ascii_digit() && !c.is_whitespace() && !"\"{};,()".contains(c))
}

/// Reads `special "TOKEN" MEANING ["what it stands for"]` into the ruleset,
/// replacing an earlier declaration of the same token (a built-in one, or a
/// base game's).  `seen` holds the declarations read so far (what, id,
/// where), so that a token declared twice in one file is reported.
pub(super) fn declare(
    node: &Node,
    ruleset: &mut Ruleset,
    seen: &mut Vec<(String, String, Span)>,
    out: &mut Vec<Diagnostic>,
) {
    let token = match node.values.first().map(|v| &v.kind) {
        Some(ValueKind::String(token)) if is_writable(token) => token.clone(),
        Some(ValueKind::String(token)) => {
            out.push(bad_token(token, node.values[0].span));
            return;
        }
        _ => {
            out.push(
                Diagnostic::error(&codes::BAD_SPECIAL, "a special value needs its token in quotes")
                    .primary(node.head_span(), "no token here")
                    .help("write `special \"-\" not-applicable \"what it stands for\"`"),
            );
            return;
        }
    };
    let meaning = match node.values.get(1).map(|v| &v.kind) {
        Some(ValueKind::Ident(word)) => Meaning::named(word),
        _ => None,
    };
    let Some(meaning) = meaning else {
        let at = node.values.get(1).map(|v| v.span).unwrap_or(node.head_span());
        out.push(
            Diagnostic::error(&codes::BAD_SPECIAL, format!("special value `{token}` needs a meaning"))
                .primary(at, "expected `not-applicable` or `see-text`")
                .help(format!("write `special \"{token}\" see-text` or `special \"{token}\" not-applicable`")),
        );
        return;
    };
    let doc = match node.values.get(2).map(|v| &v.kind) {
        Some(ValueKind::String(doc)) => Some(doc.clone()),
        _ => None,
    };
    if let Some(extra) = node.values.get(if doc.is_some() { 3 } else { 2 }) {
        out.push(
            Diagnostic::error(&codes::BAD_SPECIAL, "too many values for `special`")
                .primary(extra.span, "not expected here")
                .help("a special value is a token, a meaning and a description in quotes"),
        );
    }
    let same_file = seen.iter().find(|(w, t, at)| w == "special" && *t == token && at.file == node.span.file);
    if let Some((_, _, first)) = same_file {
        out.push(
            Diagnostic::error(&codes::DUPLICATE_DECLARATION, format!("`special \"{token}\"` is declared twice"))
                .primary(node.head_span(), "declared again here")
                .secondary(*first, "first declared here"),
        );
        return;
    }
    seen.push(("special".into(), token.clone(), node.head_span()));
    ruleset.specials.retain(|s| s.token != token);
    ruleset.specials.push(Special { token, meaning, doc });
}

/// Checks a token a type accepts (`int or "*"`) once every `special` line
/// is read: it must be declared (or built in), and must not be a value the
/// type reads itself, which it would hide.
pub(super) fn check_accepted(token: &str, ty: &Type, span: Span, ruleset: &Ruleset, out: &mut Vec<Diagnostic>) {
    if !is_writable(token) {
        out.push(bad_token(token, span));
    } else if !ruleset.specials.iter().any(|s| s.token == token) {
        let known: Vec<String> = ruleset.specials.iter().map(|s| format!("\"{}\"", s.token)).collect();
        out.push(
            Diagnostic::error(&codes::BAD_SPECIAL, format!("`\"{token}\"` is not a special value of this ruleset"))
                .primary(span, "not declared")
                .note(format!("declared: {}", known.join(", ")))
                .help(format!("declare it first: `special \"{token}\" see-text \"what it stands for\"`")),
        );
    } else if is_a_value_of(token, ty, ruleset) {
        out.push(
            Diagnostic::error(&codes::BAD_SPECIAL, format!("`{token}` is already a value of type `{}`", ty.name()))
                .primary(span, "a card could no longer write this value")
                .help("pick a token the type does not read, such as `-` or `*`"),
        );
    }
}

/// Whether a value of `ty` can be written as `token`: an enum's value, the
/// initiative scale's `X`, a grade.
fn is_a_value_of(token: &str, ty: &Type, ruleset: &Ruleset) -> bool {
    match ty {
        Type::Enum(id) | Type::Set(id) => {
            ruleset.enum_values(id).is_some_and(|values| values.iter().any(|v| v == token))
        }
        Type::Initiative => token == "X" && ruleset.initiative.as_ref().is_some_and(|scale| scale.has_x),
        Type::Grade => grade(token).is_some(),
        _ => false,
    }
}

/// An `or` after a type with no quoted token after it.
pub(super) fn dangling_or(span: Span) -> Diagnostic {
    Diagnostic::error(&codes::BAD_SPECIAL, "`or` names no special value")
        .primary(span, "expected quoted tokens after this")
        .help("write the tokens the type accepts in quotes: `int or \"*\"`, `tonnage or \"-\"`")
}

fn bad_token(token: &str, span: Span) -> Diagnostic {
    Diagnostic::error(&codes::BAD_SPECIAL, format!("`\"{token}\"` cannot be written as a special value"))
        .primary(span, "not a token a card can write")
        .help("a token is at most 8 characters with no digit, space, quote, brace, comma or `;`, such as `-` or `*`")
}

/// `B`, `A++`: a grade's capital letter and its number of `+` marks.
pub fn grade(text: &str) -> Option<(char, usize)> {
    let mut chars = text.chars();
    let letter = chars.next().filter(char::is_ascii_uppercase)?;
    let rest = chars.as_str();
    rest.chars().all(|c| c == '+').then_some((letter, rest.len()))
}
