//! Decks: `deck "Name" TYPE { symbol …; card "Name" x2; deck "Other" }`,
//! resolved against the game's cards and checked against the construction
//! rules their deck type declares.

use super::codes;
use super::expr::{self, Pool};
use super::game::GameChecker;
use super::model::DeckType;
use super::names::{article, ident_at, string_at, suggest};
use crate::diagnostics::{Diagnostic, Severity};
use crate::ir::{Card, Deck, DeckEntry, Value};
use crate::source::Span;
use crate::syntax::ast::{Node, ValueKind};
use std::collections::HashMap;

/// A deck as written, before its cards are counted.
pub(super) struct DeckSource<'n> {
    pub node: &'n Node,
    pub name: String,
    pub deck_type: &'n str,
    pub symbol: Option<(String, Span)>,
    pub cards: Vec<(String, i64, Span)>,
    pub includes: Vec<(String, Span)>,
    /// Whether a line of the deck could not be read; its rules are then not
    /// counted, since the counts would be wrong.
    pub broken: bool,
}

impl GameChecker<'_> {
    /// Reads a deck item; reports what is malformed.
    pub fn read_deck<'n>(&mut self, node: &'n Node) -> Option<DeckSource<'n>> {
        let Some(name) = string_at(node, 0) else {
            self.report(
                Diagnostic::error(&codes::MISSING_NAME, "this deck has no name")
                    .primary(node.name.span, "expected a quoted name after this")
                    .help("write `deck \"Deck Name\" TYPE { ... }`"),
            );
            return None;
        };
        let types: Vec<&str> = self.ruleset.deck_types.iter().map(|d| d.id.as_str()).collect();
        let deck_type = match ident_at(node, 1) {
            Some(t) if types.contains(&t) => t,
            found => {
                let at = node.values.get(1).map(|v| v.span).unwrap_or(node.values[0].span);
                let message = match found {
                    Some(t) => format!("unknown deck type `{t}`"),
                    None => format!("deck `{name}` does not say its type"),
                };
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_DECK_TYPE, message)
                        .primary(at, "expected a deck type")
                        .note(format!("the deck types of `{}` are: {}", self.ruleset.id, types.join(", ")))
                        .suggest(found.and_then(|t| suggest(t, types.iter().copied()))),
                );
                return None;
            }
        };
        let mut deck = DeckSource {
            node,
            name: name.to_string(),
            deck_type,
            symbol: None,
            cards: Vec::new(),
            includes: Vec::new(),
            broken: false,
        };
        let problems_before = self.diagnostics.len();
        for line in node.block.iter().flat_map(|b| &b.nodes) {
            match line.name.text.as_str() {
                "symbol" => match ident_at(line, 0) {
                    Some(s) if self.ruleset.deck_symbols.iter().any(|d| d.id == s) => {
                        deck.symbol = Some((s.to_string(), line.values[0].span));
                    }
                    _ => {
                        let symbols: Vec<&str> = self.ruleset.deck_symbols.iter().map(|d| d.id.as_str()).collect();
                        let at = line.values.first().map(|v| v.span).unwrap_or(line.name.span);
                        let found = ident_at(line, 0).unwrap_or("");
                        self.report(
                            Diagnostic::error(&codes::UNKNOWN_VALUE, format!("unknown deck symbol `{found}`"))
                                .primary(at, "not a deck symbol")
                                .note(format!("expected one of: {}", symbols.join(", ")))
                                .suggest(suggest(found, symbols.iter().copied())),
                        );
                    }
                },
                "card" | "deck" => {
                    let Some(target) = string_at(line, 0) else {
                        self.report(
                            Diagnostic::error(
                                &codes::MISSING_NAME,
                                format!("`{}` needs a quoted name", line.name.text),
                            )
                            .primary(line.head_span(), "expected a name")
                            .help(format!("write `{} \"Name\"`", line.name.text)),
                        );
                        continue;
                    };
                    let mut count = 1;
                    for value in &line.values[1..] {
                        match value.kind {
                            ValueKind::Copies(n) if n >= 1 && line.name.text == "card" => count = n,
                            ValueKind::Copies(n) if line.name.text == "card" => self.report(
                                Diagnostic::error(&codes::BAD_COPY_COUNT, format!("a card cannot appear x{n} times"))
                                    .primary(value.span, "must be at least x1")
                                    .help("remove the line to leave the card out"),
                            ),
                            _ => self.report(
                                Diagnostic::error(
                                    &codes::WRONG_VALUE_COUNT,
                                    format!("unexpected value after the {} name", line.name.text),
                                )
                                .primary(value.span, "not expected here")
                                .help("a copy count is written `x2`"),
                            ),
                        }
                    }
                    let span = line.values[0].span;
                    if line.name.text == "card" {
                        deck.cards.push((target.to_string(), count, span));
                    } else {
                        deck.includes.push((target.to_string(), span));
                    }
                }
                other => {
                    let fields = ["symbol", "card", "deck"];
                    self.report(
                        Diagnostic::error(&codes::UNKNOWN_FIELD, format!("a deck has no field `{other}`"))
                            .primary(line.name.span, "unknown field")
                            .note("a deck lists `symbol`, `card \"Name\" x2` and `deck \"Name\"` lines")
                            .suggest(suggest(other, fields)),
                    );
                }
            }
        }
        deck.broken = self.diagnostics.len() > problems_before;
        Some(deck)
    }

    /// Resolves every deck of the game and checks its construction rules.
    pub fn decks(&mut self, sources: &[DeckSource<'_>], cards: &[Card]) -> Vec<Deck> {
        let card_index: HashMap<&str, usize> = cards.iter().enumerate().map(|(i, c)| (c.name.as_str(), i)).collect();
        let mut deck_index: HashMap<&str, usize> = HashMap::new();
        let mut duplicated: Vec<&str> = Vec::new();
        for (i, deck) in sources.iter().enumerate() {
            if let Some(&first) = deck_index.get(deck.name.as_str()) {
                duplicated.push(&deck.name);
                self.report(
                    Diagnostic::error(&codes::DUPLICATE_DECK, format!("two decks are named `{}`", deck.name))
                        .primary(deck.node.values[0].span, "second deck with this name")
                        .secondary(sources[first].node.values[0].span, "first deck with this name"),
                );
            } else {
                deck_index.insert(&deck.name, i);
            }
        }
        let mut decks = Vec::new();
        for deck in sources {
            let Some(deck_type) = self.ruleset.deck_type(deck.deck_type) else { continue };
            let mut pool = Pool::default();
            let problems_before = self.diagnostics.len();
            self.add_cards(deck, deck_type, cards, &card_index, &mut pool);
            let mut includes = Vec::new();
            for (name, span) in &deck.includes {
                let Some(&i) = deck_index.get(name.as_str()) else {
                    self.report(
                        Diagnostic::error(&codes::UNKNOWN_DECK, format!("no deck is named `{name}`"))
                            .primary(*span, "unknown deck")
                            .suggest(suggest(name, sources.iter().map(|d| d.name.as_str()))),
                    );
                    continue;
                };
                let included = &sources[i];
                if !deck_type.includes.iter().any(|t| t == included.deck_type) {
                    self.report(
                        Diagnostic::error(
                            &codes::WRONG_DECK_INCLUDED,
                            format!(
                                "{} {} cannot include {} {} deck",
                                article(&deck_type.display),
                                deck_type.display,
                                article(included.deck_type),
                                included.deck_type
                            ),
                        )
                        .primary(
                            *span,
                            format!("`{name}` is {} {} deck", article(included.deck_type), included.deck_type),
                        )
                        .note(format!(
                            "{} {} includes: {}",
                            article(&deck_type.display),
                            deck_type.display,
                            deck_type.includes.join(", ")
                        )),
                    );
                    continue;
                }
                // The included deck's own problems are reported on that deck.
                let mut quiet = std::mem::take(&mut self.diagnostics);
                let mut inner = Pool::default();
                if let Some(inner_type) = self.ruleset.deck_type(included.deck_type) {
                    self.add_cards(included, inner_type, cards, &card_index, &mut inner);
                }
                std::mem::swap(&mut quiet, &mut self.diagnostics);
                for entry in inner.entries {
                    if !deck_type.set_aside.contains(&cards[entry.card].kind) {
                        pool.entries.push(entry);
                    }
                }
                *pool.decks.entry(included.deck_type.to_string()).or_default() += 1;
                includes.push(name.clone());
            }
            // Counting a deck whose lines did not resolve would only repeat
            // the same mistake as rule failures.
            if self.diagnostics.len() == problems_before && !deck.broken && !duplicated.contains(&deck.name.as_str()) {
                self.rules(deck, deck_type, cards, &pool);
            }
            let mut entries: Vec<DeckEntry> = Vec::new();
            for entry in &pool.entries {
                let name = &cards[entry.card].name;
                match entries.iter_mut().find(|e| &e.card == name) {
                    Some(existing) => existing.count += entry.count,
                    None => entries.push(DeckEntry { card: name.clone(), count: entry.count }),
                }
            }
            decks.push(Deck {
                name: deck.name.clone(),
                deck_type: deck.deck_type.to_string(),
                symbol: deck.symbol.as_ref().map(|(s, _)| s.clone()),
                includes,
                cards: entries,
                span: deck.node.head_span(),
            });
        }
        decks
    }

    fn add_cards(
        &mut self,
        deck: &DeckSource<'_>,
        deck_type: &DeckType,
        cards: &[Card],
        index: &HashMap<&str, usize>,
        pool: &mut Pool,
    ) {
        if deck_type.match_field.is_some() && deck.symbol.is_none() {
            self.report(
                Diagnostic::error(&codes::MISSING_DECK_SYMBOL, format!("deck `{}` does not say its symbol", deck.name))
                    .primary(
                        deck.node.head_span(),
                        format!("{} {} needs a `symbol` line", article(&deck_type.display), deck_type.display),
                    )
                    .help("add `symbol NAME` as the deck's first line"),
            );
        }
        for (name, count, span) in &deck.cards {
            let Some(&i) = index.get(name.as_str()) else {
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_CARD, format!("no card is named `{name}`"))
                        .primary(*span, "unknown card")
                        .suggest(suggest(name, cards.iter().map(|c| c.name.as_str()))),
                );
                continue;
            };
            if let (Some(field), Some((symbol, symbol_span))) = (&deck_type.match_field, &deck.symbol) {
                let carried = cards[i].field(field).and_then(|f| match f.values.first() {
                    Some(Value::Name(s)) => Some(s.as_str()),
                    _ => None,
                });
                if let Some(carried) = carried.filter(|c| c != symbol) {
                    self.report(
                        Diagnostic::error(
                            &codes::SYMBOL_MISMATCH,
                            format!("`{name}` carries the `{carried}` symbol, not this deck's `{symbol}`"),
                        )
                        .primary(*span, format!("{} `{carried}` card", article(carried)))
                        .secondary(*symbol_span, "the deck's symbol")
                        .secondary(cards[i].span, "the card is defined here"),
                    );
                }
            }
            pool.entries.push(expr::PoolEntry { card: i, count: *count, span: *span });
        }
    }

    fn rules(&mut self, deck: &DeckSource<'_>, deck_type: &DeckType, cards: &[Card], pool: &Pool) {
        for rule in &deck_type.rules {
            let mut evaluation = expr::Evaluation::new(cards, pool);
            if evaluation.holds(&rule.expr) {
                continue;
            }
            let code = match rule.severity {
                Severity::Error => &codes::DECK_RULE_BROKEN,
                Severity::Warning => &codes::DECK_RULE_ADVICE,
            };
            let mut diagnostic =
                Diagnostic::new(code, rule.severity, format!("deck `{}` breaks a rule: {}", deck.name, rule.message))
                    .primary(deck.node.values[0].span, evaluation.summary())
                    .secondary(rule.span, "the rule, declared here");
            for span in evaluation.culprits.iter().take(3) {
                diagnostic = diagnostic.secondary(*span, "counted here");
            }
            diagnostic = diagnostic.note(format!("the rule is `{}`", rule.text));
            self.report(diagnostic);
        }
    }
}
