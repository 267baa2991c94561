//! What may be written at an offset: the fields of the card's kind, the
//! values a field takes, card names in decks and references, icons in text.
//! The line being typed rarely parses, so the context is read from the text
//! before the offset and from the items around it.

use super::decls::enclosing;
use super::{parse, Analysis};
use crate::ruleset::model::{FieldDef, Ruleset, Schema, Type};
use crate::source::FileId;
use crate::syntax::ast::Node;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    /// A short description: a field's type, a kind's name.
    pub detail: Option<String>,
    pub kind: CompletionKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Field,
    Kind,
    /// A keyword, symbol, arc, tag or other name the ruleset declares.
    Name,
    EnumValue,
    Card,
    Icon,
    /// A line of the ruleset language (`kind`, `field`, `require`).
    Keyword,
}

impl Analysis {
    /// The completions at an offset of a file.
    pub fn completions(&self, file: FileId, offset: usize) -> Vec<Completion> {
        let text = &self.files.get(file).text;
        let offset = floor_boundary(text, offset);
        let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let prefix = &text[line_start..offset];
        let (_, tree) = parse(&self.files, file);
        if crate::check::is_ruleset(&tree) || (tree.nodes.is_empty() && self.files.get(file).name.ends_with(".rules")) {
            // Only a line's first word is a line of the language.
            let typing_name = !prefix.trim_start().contains(char::is_whitespace);
            let lines = if typing_name { super::language::lines_at(&tree, line_start) } else { Vec::new() };
            return lines.into_iter().map(language_line).collect();
        }
        if first_word(prefix) == Some("game") && tree.nodes.first().is_none_or(|n| n.span.end as usize >= offset) {
            return self.games();
        }
        let Some(game) = crate::check::game_of(&tree) else { return Vec::new() };
        let Some(ruleset) = self.game(game).map(|g| &g.ruleset) else { return Vec::new() };
        let path = enclosing(&tree.nodes, line_start);
        let vocab = self.deck_words(&tree);
        let in_deck = path.first().is_some_and(|n| vocab.starts_deck(&n.name.text));
        if let Some(inner) = open_string(prefix) {
            let line = first_word(prefix).unwrap_or("");
            if in_deck && vocab.starts_deck(line) {
                return self.deck_names(game);
            }
            return self.in_text(game, ruleset, inner, in_deck && vocab.lists_card(line));
        }
        let words: Vec<&str> = prefix.split_whitespace().collect();
        let typing_name = words.is_empty() || (words.len() == 1 && !prefix.ends_with(char::is_whitespace));
        match (typing_name, path.first()) {
            (true, None) => ruleset.kinds.iter().map(|k| item(&k.id, Some(&k.display), CompletionKind::Kind)).collect(),
            (true, Some(_)) if in_deck => {
                vocab.entries.iter().chain(&vocab.decks).map(|w| item(w, None, CompletionKind::Name)).collect()
            }
            (true, Some(top)) => fields(ruleset, schema_at(ruleset, top, &path[1..])),
            (false, None) => head_values(ruleset, &vocab, &words),
            (false, Some(top)) => {
                let line = words[0];
                let field =
                    schema_at(ruleset, top, &path[1..]).and_then(|s| all_fields(ruleset, s).find(|f| f.name == line));
                let types: Vec<&Type> =
                    field.map(|f| f.schema.takes.iter().map(|t| &t.ty).collect()).unwrap_or_default();
                values(ruleset, &types)
            }
        }
    }

    /// The decks of a game, by name.
    fn deck_names(&self, game: &str) -> Vec<Completion> {
        let decks = self.game(game).map(|g| g.decks.as_slice()).unwrap_or_default();
        decks.iter().map(|d| item(&d.name, None, CompletionKind::Name)).collect()
    }

    /// The games a file may name: the bundled ones and the workspace's.
    fn games(&self) -> Vec<Completion> {
        let mut ids: Vec<&str> = crate::check::builtin::ids().collect();
        ids.extend(self.rulesets().iter().map(|r| r.id.as_str()));
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter().map(|id| item(id, None, CompletionKind::Name)).collect()
    }

    /// Inside a string: an icon after an open `{`, a card's name after an
    /// open `*` or on a deck's `card` line.
    fn in_text(&self, game: &str, ruleset: &Ruleset, inner: &str, card_line: bool) -> Vec<Completion> {
        let open = |c: char| inner.rfind(c).filter(|i| !inner[i + 1..].contains(if c == '{' { '}' } else { c }));
        if open('{').is_some() {
            return ruleset.icon_names().map(|n| item(n, None, CompletionKind::Icon)).collect();
        }
        let stars = inner.matches('*').count();
        if card_line || stars % 2 == 1 {
            let Some(game) = self.game(game) else { return Vec::new() };
            return game
                .cards
                .iter()
                .map(|c| {
                    let kind = game.ruleset.kind_of(&c.kind).map(|k| k.display.as_str());
                    item(&c.name, kind, CompletionKind::Card)
                })
                .collect();
        }
        Vec::new()
    }
}

/// A line of the ruleset language, with the values it takes or, when it
/// takes none, what it means.
fn language_line(about: &crate::ruleset::language::About) -> Completion {
    let detail = if about.values.is_empty() { about.doc } else { about.values };
    item(about.name, Some(detail), CompletionKind::Keyword)
}

fn item(label: &str, detail: Option<&str>, kind: CompletionKind) -> Completion {
    Completion { label: label.to_string(), detail: detail.map(str::to_string), kind }
}

/// The fields a schema declares, with their types, its shape's included.
fn fields(ruleset: &Ruleset, schema: Option<&Schema>) -> Vec<Completion> {
    let Some(schema) = schema else { return Vec::new() };
    all_fields(ruleset, schema)
        .map(|f| {
            let types: Vec<&str> = f.schema.takes.iter().map(|t| t.ty.name()).collect();
            item(&f.name, Some(&types.join(" ")), CompletionKind::Field)
        })
        .collect()
}

/// On an item's head after its name: a card's tags, a deck's type.
fn head_values(ruleset: &Ruleset, words: &super::sites::DeckWords, line: &[&str]) -> Vec<Completion> {
    let Some(first) = line.first() else { return Vec::new() };
    if words.starts_deck(first) {
        let types = ruleset.deck_types.iter().filter(|t| t.word == *first);
        return types.map(|t| item(&t.id, Some(&t.display), CompletionKind::Name)).collect();
    }
    if ruleset.kind(first).is_none() {
        return Vec::new();
    }
    let tags = ruleset.tags.iter().filter(|t| t.only.is_empty() || t.only.iter().any(|k| k == first));
    tags.map(|t| item(&t.id, Some(&t.display), CompletionKind::Name)).collect()
}

/// The names of the types a field takes.
fn values(ruleset: &Ruleset, types: &[&Type]) -> Vec<Completion> {
    let mut out = Vec::new();
    for ty in types {
        let named = |id: &str, display: &str| item(id, Some(display), CompletionKind::Name);
        match ty {
            Type::Enum(e) | Type::Set(e) => out.extend(
                ruleset.enum_values(e).unwrap_or_default().iter().map(|v| item(v, Some(e), CompletionKind::EnumValue)),
            ),
            Type::Keyword => out.extend(ruleset.keywords.iter().map(|k| named(&k.id, &k.display))),
            Type::Symbol => out.extend(ruleset.symbols.iter().map(|s| named(&s.id, &s.display))),
            Type::Arc => out.extend(ruleset.arcs.iter().map(|a| named(&a.id, &a.display))),
            Type::RangeBand => out.extend(ruleset.ranges.iter().map(|b| named(&b.id, &b.display))),
            Type::DeckSymbol => out.extend(ruleset.deck_symbols.iter().map(|d| named(&d.id, &d.display))),
            Type::Kind => out.extend(ruleset.kinds.iter().map(|k| named(&k.id, &k.display))),
            Type::Tag => out.extend(ruleset.tags.iter().map(|t| named(&t.id, &t.display))),
            _ => {}
        }
    }
    out.dedup_by(|a, b| a.label == b.label);
    out
}

/// The schema of the block a path of nodes is in: the top item's kind,
/// then each field's own.
fn schema_at<'r>(ruleset: &'r Ruleset, top: &Node, inner: &[&Node]) -> Option<&'r Schema> {
    let mut schema = &ruleset.kind(&top.name.text)?.schema;
    for node in inner {
        schema = &all_fields(ruleset, schema).find(|f| f.name == node.name.text)?.schema;
    }
    Some(schema)
}

/// A schema's fields, then those of the shape its body has.
fn all_fields<'r>(ruleset: &'r Ruleset, schema: &'r Schema) -> impl Iterator<Item = &'r FieldDef> {
    let shape = schema.shape.as_deref().and_then(|s| ruleset.shape(s));
    schema.fields.iter().chain(shape.into_iter().flat_map(|s| s.fields.iter()))
}

/// The text after the opening quote of a string the line leaves open.
fn open_string(prefix: &str) -> Option<&str> {
    let mut open = None;
    let mut escaped = false;
    for (i, c) in prefix.char_indices() {
        match c {
            '\\' if open.is_some() => escaped = !escaped,
            '"' if !escaped => open = if open.is_some() { None } else { Some(i + 1) },
            _ => escaped = false,
        }
        if c != '\\' {
            escaped = false;
        }
    }
    open.map(|i| &prefix[i..])
}

fn first_word(line: &str) -> Option<&str> {
    line.split_whitespace().next()
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}
