//! Card text: inline icons (`{damage}`) and card references in italics
//! (`*Spinal Railcannon*`), each with its own span for diagnostics.

use super::codes;
use super::game::GameChecker;
use crate::diagnostics::Diagnostic;
use crate::ir::{Text, TextPart};
use crate::ruleset::names::suggest;
use crate::source::Span;
use crate::syntax::ast::{self, ValueKind};

impl GameChecker<'_> {
    /// Splits a string value into plain text, icons and card references.  It
    /// reads the raw source so every piece keeps its exact position.
    pub(super) fn text(&mut self, value: &ast::Value) -> Text {
        let raw_value = match &value.kind {
            ValueKind::String(s) => s.clone(),
            _ => String::new(),
        };
        let source = self.files.text(value.span);
        // Skip the opening quote; stop before the closing one.
        let inner = source.get(1..source.len().saturating_sub(1)).unwrap_or("");
        let base = value.span.start as usize + 1;
        let at = |start: usize, end: usize| Span::new(value.span.file, base + start, base + end);

        let mut parts = Vec::new();
        let mut plain = String::new();
        let mut chars = inner.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, 'n')) => plain.push('\n'),
                    Some((_, 't')) => plain.push('\t'),
                    Some((_, other)) => plain.push(other),
                    None => {}
                },
                '{' | '*' => {
                    let close = if c == '{' { '}' } else { '*' };
                    let rest = &inner[i + 1..];
                    let Some(len) = rest.find(close) else {
                        let (code, what) = if c == '{' {
                            (&codes::UNKNOWN_ICON, "icon")
                        } else {
                            (&codes::UNRESOLVED_CARD_REFERENCE, "card reference")
                        };
                        self.report(
                            Diagnostic::error(code, format!("unclosed {what} in text"))
                                .primary(at(i, i + 1), format!("this `{c}` is never closed"))
                                .help(format!("close it with `{close}`, or write `\\{c}` for the character itself")),
                        );
                        plain.push(c);
                        continue;
                    };
                    let name = &rest[..len];
                    let span = at(i, i + 1 + len + 1);
                    // Advance past the name and the closing character.
                    while chars.peek().is_some_and(|(j, _)| *j <= i + len + 1) {
                        chars.next();
                    }
                    if !plain.is_empty() {
                        parts.push(TextPart::Plain(std::mem::take(&mut plain)));
                    }
                    if c == '{' {
                        if !self.ruleset.is_icon(name) {
                            let ruleset = self.ruleset;
                            let icons: Vec<&str> = ruleset.icon_names().collect();
                            self.report(
                                Diagnostic::error(&codes::UNKNOWN_ICON, format!("unknown icon `{{{name}}}`"))
                                    .primary(span, format!("not an icon of `{}`", ruleset.id))
                                    .note(format!("the icons are: {}", icons.join(", ")))
                                    .suggest(suggest(name, icons.iter().copied())),
                            );
                        }
                        parts.push(TextPart::Icon(name.to_string()));
                    } else {
                        // Resolved by the `unresolved-card-reference` lint.
                        parts.push(TextPart::CardRef(name.to_string()));
                    }
                }
                _ => plain.push(c),
            }
        }
        if !plain.is_empty() {
            parts.push(TextPart::Plain(plain));
        }
        self.icons_in_brackets(inner, &at);
        Text { raw: raw_value, parts }
    }

    /// Warns of an icon's name (or a near miss of one) written in square
    /// brackets, as another notation writes icons: `[credti]`.
    fn icons_in_brackets(&mut self, inner: &str, at: &impl Fn(usize, usize) -> Span) {
        let mut from = 0;
        while let Some(open) = inner[from..].find('[').map(|i| from + i) {
            let Some(close) = inner[open..].find(']').map(|i| open + i) else { return };
            from = close + 1;
            let word = &inner[open + 1..close];
            if word.is_empty() || !word.chars().all(|c| c.is_alphanumeric() || c == '-') {
                continue;
            }
            let icons: Vec<&str> = self.ruleset.icon_names().collect();
            let lower = word.to_lowercase();
            let meant =
                icons.iter().copied().find(|icon| *icon == lower).or_else(|| suggest(&lower, icons.iter().copied()));
            let Some(meant) = meant.filter(|_| !self.ruleset.declares_word(word)) else { continue };
            self.report(
                Diagnostic::warning(&codes::ICON_IN_BRACKETS, format!("`[{word}]` looks like the icon `{{{meant}}}`"))
                    .primary(at(open, close + 1), "an icon is written in braces")
                    .help(format!("write `{{{meant}}}`")),
            );
        }
    }
}
