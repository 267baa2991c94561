//! A file's outline (its cards and decks, or its ruleset's declarations),
//! the search over every card, and highlighting from the lossless tree.

use super::{parse, Analysis};
use crate::source::{FileId, Span};
use crate::syntax::cst::{Kind, LiteralForm};

/// An entry of an outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// A card's kind, a deck's type, a declaration's line name.
    pub detail: String,
    pub kind: SymbolKind,
    /// The whole item.
    pub span: Span,
    /// Its name.
    pub selection: Span,
    pub children: Vec<Symbol>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Card,
    Deck,
    /// A declaration of a ruleset.
    Declaration,
    /// A field of a kind, or an enum's value.
    Member,
}

/// What a token is, for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A top-level line's name: a card's kind, `deck`, `keyword`.
    Item,
    /// The name of a line inside a block.
    Property,
    /// A call's name.
    Function,
    /// `require`, `recommend` and their kin.
    Keyword,
    String,
    Number,
    /// A name written as a value.
    Name,
    Comment,
    /// A rule's expression.
    Expression,
}

/// How many cards a workspace search returns at most.
const MAX_FOUND: usize = 256;

impl Analysis {
    /// The items of a file, for an outline.
    pub fn symbols(&self, file: FileId) -> Vec<Symbol> {
        let (_, tree) = parse(&self.files, file);
        if crate::check::is_ruleset(&tree) {
            return self.declaration_symbols(file);
        }
        let words = self.deck_words(&tree);
        let mut out = Vec::new();
        for node in &tree.nodes {
            let Some(name_value) = node.values.first() else { continue };
            let crate::syntax::ast::ValueKind::String(name) = &name_value.kind else { continue };
            let deck = words.starts_deck(&node.name.text);
            let detail = match (deck, node.values.get(1)) {
                (true, Some(ty)) => format!("deck {}", self.files.text(ty.span)),
                _ => node.name.text.clone(),
            };
            out.push(Symbol {
                name: name.clone(),
                detail,
                kind: if deck { SymbolKind::Deck } else { SymbolKind::Card },
                span: node.span,
                selection: name_value.span,
                children: Vec::new(),
            });
        }
        out
    }

    fn declaration_symbols(&self, file: FileId) -> Vec<Symbol> {
        let Some(ruleset) = self.rulesets().iter().find(|r| r.file == Some(file)) else { return Vec::new() };
        let mut out: Vec<Symbol> = Vec::new();
        for decl in &ruleset.decls {
            let symbol = Symbol {
                name: decl.id.clone(),
                detail: decl.what.clone(),
                kind: if decl.parent.is_some() { SymbolKind::Member } else { SymbolKind::Declaration },
                span: if decl.enum_value { decl.span } else { decl.node },
                selection: decl.span,
                children: Vec::new(),
            };
            // Members follow the declaration they belong to.
            match (&decl.parent, out.last_mut()) {
                (Some(parent), Some(last)) if last.name == *parent => last.children.push(symbol),
                _ => out.push(symbol),
            }
        }
        out
    }

    /// The cards and decks whose names hold `query`, in any case.
    pub fn workspace_symbols(&self, query: &str) -> Vec<Symbol> {
        let query = query.to_lowercase();
        let mut out = Vec::new();
        for game in &self.project.games {
            for card in &game.cards {
                if out.len() < MAX_FOUND && card.name.to_lowercase().contains(&query) {
                    let kind = game.ruleset.kind_of(&card.kind).map(|k| k.display.clone()).unwrap_or_default();
                    out.push(found(&card.name, kind, SymbolKind::Card, card.extent, card.span));
                }
            }
            for deck in &game.decks {
                if out.len() < MAX_FOUND && deck.name.to_lowercase().contains(&query) {
                    out.push(found(&deck.name, game.ruleset.id.clone(), SymbolKind::Deck, deck.span, deck.span));
                }
            }
        }
        out
    }

    /// The tokens to highlight, in source order, none over a line end.
    pub fn highlights(&self, file: FileId) -> Vec<(std::ops::Range<usize>, TokenKind)> {
        let (cst, _) = parse(&self.files, file);
        let text = &self.files.get(file).text;
        let mut out = Vec::new();
        collect(cst.root(), 0, None, &mut out);
        out.retain(|(range, _)| !text.get(range.clone()).unwrap_or("\n").contains(['\n', '\r']));
        out
    }
}

fn found(name: &str, detail: String, kind: SymbolKind, span: Span, selection: Span) -> Symbol {
    Symbol { name: name.to_string(), detail, kind, span, selection, children: Vec::new() }
}

/// The highlighted tokens under an element; `depth` counts the nodes
/// (`name value* { … }`) it is in, `parent` is the kind of its parent.
fn collect(
    element: crate::syntax::cst::Element<'_>,
    depth: usize,
    parent: Option<Kind>,
    out: &mut Vec<(std::ops::Range<usize>, TokenKind)>,
) {
    for child in element.children() {
        let kind = child.kind();
        let token = match kind {
            Kind::Name if parent == Some(Kind::Call) => Some(TokenKind::Function),
            Kind::Name if depth <= 1 => Some(TokenKind::Item),
            Kind::Name => Some(TokenKind::Property),
            Kind::Keyword => Some(TokenKind::Keyword),
            Kind::String | Kind::Unterminated => Some(TokenKind::String),
            Kind::Literal(LiteralForm::Ident | LiteralForm::Word | LiteralForm::Bracketed | LiteralForm::SlashList) => {
                Some(TokenKind::Name)
            }
            Kind::Literal(_) => Some(TokenKind::Number),
            Kind::Comment => Some(TokenKind::Comment),
            Kind::Expr => Some(TokenKind::Expression),
            _ => None,
        };
        if let Some(token) = token {
            out.push((child.range(), token));
        }
        if kind.is_node() && kind != Kind::Expr {
            let deeper = if matches!(kind, Kind::Node | Kind::Rule) { depth + 1 } else { depth };
            collect(child, deeper, Some(kind), out);
        }
    }
}
