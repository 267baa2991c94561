//! The names a file uses, each with its span and what it may mean: a card's
//! kind, a field, a name the ruleset declares, a card's name, an icon.

use super::{covers, parse, Analysis};
use crate::source::{FileId, Files, Span};
use crate::syntax::ast::{Node, SourceTree, Value, ValueKind};

/// What a name in a file refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// The kind at the head of a card.
    Kind(String),
    /// A line of a card: one of its kind's fields (or, in an effect block, a
    /// role the ruleset declares).
    Field { kind: String, name: String },
    /// A name written as a value or called: a keyword, symbol, enum value …
    Name(String),
    /// A card, by its name: its own head, a deck's `card` line, or a
    /// `*reference*` in text.
    Card(String),
    /// `{icon}` in text.
    Icon(String),
    /// A lint named on an `allow`, `warn` or `deny` line.
    Lint(String),
    /// A deck, by its name: its own head, or a deck's `deck` line.
    Deck(String),
}

impl Site {
    /// The name, whatever it refers to.
    pub fn text(&self) -> &str {
        match self {
            Site::Kind(s) | Site::Name(s) | Site::Card(s) | Site::Icon(s) | Site::Lint(s) | Site::Deck(s) => s,
            Site::Field { name, .. } => name,
        }
    }
}

/// Lines of a content file that are not cards.
const NOT_CARDS: &[&str] = &["game", "allow", "warn", "deny"];

/// The words a game's content uses for its decks, from its ruleset: what
/// starts a deck (`deck`, or a word a deck type declares) and what lists a
/// card in one (`card`, or the deck types' entry words).
#[derive(Clone, Debug)]
pub(crate) struct DeckWords {
    pub decks: Vec<String>,
    pub entries: Vec<String>,
}

impl DeckWords {
    pub fn of(game: Option<&crate::ir::Game>) -> DeckWords {
        let mut decks = vec!["deck".to_string()];
        let mut entries = vec!["card".to_string()];
        for deck_type in game.map(|g| g.ruleset.deck_types.as_slice()).unwrap_or_default() {
            decks.push(deck_type.word.clone());
            entries.extend(deck_type.entry.iter().cloned());
        }
        DeckWords { decks, entries }
    }

    pub fn starts_deck(&self, word: &str) -> bool {
        self.decks.iter().any(|d| d == word)
    }

    pub fn lists_card(&self, word: &str) -> bool {
        self.entries.iter().any(|e| e == word)
    }
}

/// Every site in a parsed file, in source order.
pub(crate) fn sites(files: &Files, tree: &SourceTree, words: &DeckWords) -> Vec<(Span, Site)> {
    let content = !crate::check::is_ruleset(tree);
    let mut walker = Walker { files, content, words, out: Vec::new() };
    for node in &tree.nodes {
        walker.node(node, &[]);
    }
    walker.out
}

struct Walker<'a> {
    files: &'a Files,
    content: bool,
    words: &'a DeckWords,
    out: Vec<(Span, Site)>,
}

impl Walker<'_> {
    fn node(&mut self, node: &Node, path: &[&Node]) {
        let name = node.name.text.as_str();
        let top = path.first().copied().unwrap_or(node);
        let in_deck = self.content && self.words.starts_deck(&top.name.text);
        let is_card = self.content && !in_deck && !NOT_CARDS.contains(&top.name.text.as_str());
        if is_card && path.is_empty() {
            self.out.push((node.name.span, Site::Kind(name.to_string())));
        } else if is_card {
            self.out.push((node.name.span, Site::Field { kind: top.name.text.clone(), name: name.to_string() }));
        }
        // What the item's first string names: a card, a deck, or nothing.
        let named: Option<fn(String) -> Site> = match (in_deck, path.is_empty()) {
            (true, true) => Some(Site::Deck),
            (true, false) if self.words.starts_deck(name) => Some(Site::Deck),
            (true, false) if self.words.lists_card(name) => Some(Site::Card),
            (false, true) if is_card => Some(Site::Card),
            _ => None,
        };
        if self.content && crate::ir::Level::parse(name).is_some() {
            for value in &node.values {
                if let ValueKind::Ident(lint) = &value.kind {
                    self.out.push((value.span, Site::Lint(lint.clone())));
                }
            }
            return;
        }
        for (i, value) in node.values.iter().enumerate() {
            self.value(value, named.filter(|_| i == 0));
        }
        if let Some(block) = &node.block {
            let mut inner = path.to_vec();
            inner.push(node);
            for child in &block.nodes {
                self.node(child, &inner);
            }
        }
    }

    fn value(&mut self, value: &Value, named: Option<fn(String) -> Site>) {
        match &value.kind {
            ValueKind::Ident(s) | ValueKind::Word(s) => self.out.push((value.span, Site::Name(s.clone()))),
            ValueKind::Call { name, args } => {
                self.out.push((name.span, Site::Name(name.text.clone())));
                for arg in args {
                    self.value(arg, None);
                }
            }
            ValueKind::String(s) if named.is_some() => {
                if let Some(site) = named {
                    self.out.push((value.span, site(s.clone())));
                }
            }
            ValueKind::String(_) if self.content => self.text(value.span),
            _ => {}
        }
    }

    /// `{icon}` and `*Card*` in a text, read from the source as the checker
    /// reads them.
    fn text(&mut self, span: Span) {
        let source = self.files.text(span);
        let Some(inner) = source.strip_prefix('"') else { return };
        let base = span.start as usize + 1;
        let mut chars = inner.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                '{' | '*' => {
                    let close = if c == '{' { '}' } else { '*' };
                    let rest = &inner[i + 1..];
                    let Some(len) = rest.find(close) else { continue };
                    let name = &rest[..len];
                    if name.contains('"') {
                        continue;
                    }
                    let at = Span::new(span.file, base + i, base + i + len + 2);
                    let site = if c == '{' { Site::Icon(name.to_string()) } else { Site::Card(name.to_string()) };
                    self.out.push((at, site));
                    for _ in 0..name.chars().count() + 1 {
                        chars.next();
                    }
                }
                _ => {}
            }
        }
    }
}

impl Analysis {
    /// The deck words of the game a file is for.
    pub(crate) fn deck_words(&self, tree: &SourceTree) -> DeckWords {
        DeckWords::of(crate::check::game_of(tree).and_then(|g| self.game(g)))
    }

    /// The site at an offset of a file, with its span.
    pub fn site_at(&self, file: FileId, offset: usize) -> Option<(Span, Site)> {
        let (_, tree) = parse(&self.files, file);
        let found = sites(&self.files, &tree, &self.deck_words(&tree));
        // The innermost: an icon in a text is found after nothing else
        // covers it, but a name written just before another's start is on
        // both: the one that starts at the offset wins.
        let mut hits = found.into_iter().filter(|(span, _)| covers(*span, offset));
        let first = hits.next()?;
        Some(hits.find(|(span, _)| span.start as usize == offset).unwrap_or(first))
    }
}
