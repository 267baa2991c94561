//! Decks: `deck "Name" TYPE { symbol …; card "Name" x2; deck "Other" }`,
//! resolved against the game's cards and checked against the construction
//! rules their deck type declares.  A deck type may rename its words (a
//! Dropfleet `fleet` of `battlegroup`s listing `group`s), and a deck may
//! define the decks it includes inline.

use super::codes;
use super::game::GameChecker;
use super::includes::{self, Expansion, GraphDeck};
use super::rules::{self, Included, Pool};
use crate::diagnostics::{Diagnostic, Severity};
use crate::ir::{Card, Deck, DeckEntry, Value};
use crate::ruleset::model::{DeckParam, DeckType, Type};
use crate::ruleset::names::{article, ident_at, string_at, suggest, thousands, Suggester};
use crate::source::Span;
use crate::syntax::ast::{Node, ValueKind};
use std::cell::RefCell;
use std::collections::HashMap;

/// A line listing a card: `group "UCM Avalon" x1 flagship`.
pub(super) struct EntryLine {
    pub name: String,
    pub count: i64,
    pub span: Span,
    /// The tags the line gives the card in this deck, by index among the
    /// ruleset's tags, with where each is written.
    pub tags: Vec<(usize, Span)>,
    /// Where the line places its copies on the table (`at 12,20`).
    pub positions: Vec<[i64; 2]>,
}

/// A deck as written, before its cards are counted.
pub(super) struct DeckSource<'n> {
    pub node: &'n Node,
    pub name: String,
    pub deck_type: crate::ir::DeckTypeId,
    pub symbol: Option<(String, Span)>,
    /// Whether the deck writes its match field's line, even one whose
    /// value could not be read (reported there, not as missing).
    pub symbol_written: bool,
    pub cards: Vec<EntryLine>,
    /// The decks it includes: by name, and, for a deck defined inside this
    /// one, that deck's index among the game's decks.
    pub includes: Vec<(String, Span, Option<usize>)>,
    /// The deck this one is defined inside, by index: its name is scoped to
    /// it, so two fleets may each have a battlegroup "Vanguard 1".
    pub within: Option<usize>,
    /// The value each parameter of the deck type is set to, if it is, and
    /// where.
    pub params: Vec<Option<(i64, Span)>>,
    /// Whether a line of the deck could not be read; its rules are then not
    /// counted, since the counts would be wrong.
    pub broken: bool,
    pub lint_levels: Vec<crate::ir::LintLevel>,
}

impl GameChecker<'_> {
    /// Whether a top-level word starts a deck in this game.
    pub fn is_deck_word(&self, word: &str) -> bool {
        self.ruleset.deck_types.iter().any(|d| d.word == word)
    }

    /// The name of a deck item whose type is not one of its word's (it is
    /// reported when the deck is read; decks including it are not told again).
    pub fn deck_of_unknown_type<'n>(&self, node: &'n Node) -> Option<&'n str> {
        let word = node.name.text.as_str();
        let known =
            ident_at(node, 1).is_some_and(|t| self.ruleset.deck_types.iter().any(|d| d.word == word && d.id == t));
        (!known).then(|| string_at(node, 0)).flatten()
    }

    /// Reads a deck item, and any deck it defines inline, into `out`.
    pub fn read_deck<'n>(&mut self, node: &'n Node, out: &mut Vec<DeckSource<'n>>) -> Option<String> {
        let word = node.name.text.as_str();
        let Some(name) = string_at(node, 0) else {
            self.report(
                Diagnostic::error(&codes::MISSING_NAME, format!("this {word} has no name"))
                    .primary(node.name.span, "expected a quoted name after this")
                    .help(format!("write `{word} \"Name\" TYPE {{ ... }}`")),
            );
            return None;
        };
        let ruleset = self.ruleset;
        let types: Vec<&str> = ruleset.deck_types.iter().filter(|d| d.word == word).map(|d| d.id.as_str()).collect();
        let deck_type = match ident_at(node, 1) {
            Some(t) if types.contains(&t) => ruleset.deck_type(t)?,
            found => {
                let at = node.values.get(1).map(|v| v.span).unwrap_or(node.values[0].span);
                let message = match found {
                    Some(t) => format!("unknown {word} type `{t}`"),
                    None => format!("{word} `{name}` does not say its type"),
                };
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_DECK_TYPE, message)
                        .primary(at, format!("expected a {word} type"))
                        .note(format!("the {word} types of `{}` are: {}", ruleset.id, types.join(", ")))
                        .suggest(found.and_then(|t| suggest(t, types.iter().copied()))),
                );
                return None;
            }
        };
        let problems_before = self.diagnostics.len();
        let mut deck = DeckSource {
            node,
            name: name.to_string(),
            deck_type: ruleset.deck_type_id(&deck_type.id)?,
            symbol: None,
            symbol_written: false,
            cards: Vec::new(),
            includes: Vec::new(),
            within: None,
            params: vec![None; deck_type.params.len()],
            // A line lost to a syntax error would be missed by the counts.
            broken: node.block.as_ref().is_some_and(|b| b.broken),
            lint_levels: Vec::new(),
        };
        for line in node.block.iter().flat_map(|b| &b.nodes) {
            let word = line.name.text.as_str();
            if let Some(levels) = super::game::lint_level_line(line) {
                deck.lint_levels.extend(levels);
            } else if deck_type.match_field.as_deref() == Some(word) {
                deck.symbol = self.deck_symbol_line(line);
                deck.symbol_written = true;
            } else if deck_type.entry.iter().any(|e| e == word) {
                match self.entry_line(line, deck_type) {
                    Some(entry) => deck.cards.push(entry),
                    None => deck.broken = true,
                }
            } else if self.is_deck_word(word) {
                if line.block.is_some() || line.values.len() > 1 {
                    // Defined here and included.
                    if let Some(inner) = self.read_deck(line, out) {
                        // `read_deck` pushes the deck last, after those inside it.
                        deck.includes.push((inner, line.values[0].span, Some(out.len() - 1)));
                    }
                } else if let Some(target) = string_at(line, 0) {
                    deck.includes.push((target.to_string(), line.values[0].span, None));
                } else {
                    self.missing_name(line);
                }
            } else if let Some(i) = deck_type.params.iter().position(|p| p.name == word) {
                self.param_line(line, &deck_type.params[i], &mut deck.params[i]);
            } else {
                self.unknown_deck_line(line, deck_type);
            }
        }
        self.missing_params(&deck, deck_type);
        deck.broken |= self.diagnostics.len() > problems_before;
        let own = out.len();
        for inner in deck.includes.iter().filter_map(|(_, _, at)| *at) {
            out[inner].within = Some(own);
        }
        out.push(deck);
        Some(name.to_string())
    }

    /// A line of a deck that is none of the lines its type has.
    fn unknown_deck_line(&mut self, line: &Node, deck_type: &DeckType) {
        let word = line.name.text.as_str();
        let mut fields: Vec<&str> = deck_type.entry.iter().map(String::as_str).collect();
        fields.extend(deck_type.match_field.as_deref());
        fields.extend(deck_type.params.iter().map(|p| p.name.as_str()));
        let ruleset = self.ruleset;
        fields.extend(deck_type.includes.iter().filter_map(|t| ruleset.deck_type(t)).map(|t| t.word.as_str()));
        self.report(
            Diagnostic::error(
                &codes::UNKNOWN_FIELD,
                format!("{} {} has no line `{word}`", article(&deck_type.display), deck_type.display),
            )
            .primary(line.name.span, "unknown line")
            .expected(&fields, "the deck type takes no lines besides its cards")
            .suggest(suggest(word, fields.iter().copied())),
        );
    }

    fn missing_name(&mut self, line: &Node) {
        self.report(
            Diagnostic::error(&codes::MISSING_NAME, format!("`{}` needs a quoted name", line.name.text))
                .primary(line.head_span(), "expected a name")
                .help(format!("write `{} \"Name\"`", line.name.text)),
        );
    }

    /// The deck's value of its match field (`symbol missiles`, `faction
    /// ucm`): a deck symbol of the ruleset, or a value of the enum the
    /// cards' field holds.
    fn deck_symbol_line(&mut self, line: &Node) -> Option<(String, Span)> {
        let field = line.name.text.as_str();
        let symbols = self.match_values(field);
        // As printed (`faction UCM`), as cards may write it.
        // The whole line, in words or with `&`: `symbol Close Action`.
        let printed = || {
            let span = line.values.first()?.span.to(line.values.last()?.span)?;
            let ty = self.match_type(field)?;
            super::game::printed::printed_name_of_run(self.ruleset, &ty, self.files.text(span)).map(|v| (v, span))
        };
        match ident_at(line, 0) {
            Some(s) if symbols.is_empty() || symbols.contains(&s) => Some((s.to_string(), line.values[0].span)),
            found => {
                if let Some(printed) = printed() {
                    return Some(printed);
                }
                let at = line.values.first().map(|v| v.span).unwrap_or(line.name.span);
                let found = found.unwrap_or("");
                let (what, label) = if self.ruleset.deck_symbols.is_empty() {
                    (format!("`{field}` value"), format!("not a {field} of this game"))
                } else {
                    ("deck symbol".to_string(), "not a deck symbol".to_string())
                };
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_VALUE, format!("unknown {what} `{found}`"))
                        .primary(at, label)
                        .expected(&symbols, "the ruleset declares none")
                        .suggest(suggest(found, symbols.iter().copied())),
                );
                None
            }
        }
    }

    /// The type of a match field: deck symbols, or the enum its cards hold.
    fn match_type(&self, field: &str) -> Option<Type> {
        if !self.ruleset.deck_symbols.is_empty() {
            return Some(Type::DeckSymbol);
        }
        self.ruleset.kinds.iter().find_map(|kind| {
            let ty = &kind.schema.field(field)?.schema.takes.first()?.ty;
            matches!(ty, Type::Enum(_)).then(|| ty.clone())
        })
    }

    /// The values a deck may give its match field: the ruleset's deck
    /// symbols, or else the values of the enum that field holds on cards;
    /// none when neither says (any value is taken).
    fn match_values(&self, field: &str) -> Vec<&str> {
        let ruleset = self.ruleset;
        if !ruleset.deck_symbols.is_empty() {
            return ruleset.deck_symbols.iter().map(|d| d.id.as_str()).collect();
        }
        let mut values: Vec<&str> = Vec::new();
        for kind in &ruleset.kinds {
            let Some(def) = kind.schema.field(field) else { continue };
            let Some(Type::Enum(name)) = def.schema.takes.first().map(|spec| &spec.ty) else { continue };
            for value in ruleset.enum_values(name).unwrap_or_default() {
                if !values.contains(&value.as_str()) {
                    values.push(value);
                }
            }
        }
        values
    }

    /// `card "Name" x2`, and any tags the deck type lets its lines give
    /// (`flagship`).
    fn entry_line(&mut self, line: &Node, deck_type: &DeckType) -> Option<EntryLine> {
        let Some(target) = string_at(line, 0) else {
            self.missing_name(line);
            return None;
        };
        let mut entry = EntryLine {
            name: target.to_string(),
            count: 1,
            span: line.values[0].span,
            tags: Vec::new(),
            positions: Vec::new(),
        };
        let mut values = line.values[1..].iter();
        while let Some(value) = values.next() {
            match &value.kind {
                ValueKind::Ident(word) if word == "at" => {
                    if let Some(at) = self.position(value, values.next()) {
                        entry.positions.push(at);
                    }
                }
                ValueKind::Copies(n) if *n >= 1 => entry.count = *n,
                // Already reported by the parser.
                ValueKind::Invalid => return None,
                ValueKind::Copies(n) => self.report(
                    Diagnostic::error(&codes::BAD_COPY_COUNT, format!("a card cannot appear x{n} times"))
                        .primary(value.span, "must be at least x1")
                        .help("remove the line to leave the card out"),
                ),
                ValueKind::Ident(tag) if deck_type.entry_tags.contains(tag) => {
                    let Some(i) = self.ruleset.tags.iter().position(|t| t.id == *tag) else { continue };
                    match entry.tags.iter().find(|(have, _)| *have == i) {
                        Some((_, first)) => self.report(
                            Diagnostic::error(&codes::DUPLICATE_FIELD, format!("tag `{tag}` is given twice"))
                                .primary(value.span, "given again here")
                                .secondary(*first, "first given here")
                                .help("remove one of them"),
                        ),
                        None => entry.tags.push((i, value.span)),
                    }
                }
                _ => self.unexpected_entry_value(line, value.span, deck_type),
            }
        }
        if entry.positions.len() as i64 > entry.count {
            self.report(
                Diagnostic::error(
                    &codes::WRONG_VALUE_COUNT,
                    format!(
                        "{} positions for {} cop{}",
                        entry.positions.len(),
                        entry.count,
                        if entry.count == 1 { "y" } else { "ies" }
                    ),
                )
                .primary(line.head_span(), "one position a copy")
                .help(format!("write `x{}` to place that many copies, or give fewer positions", entry.positions.len())),
            );
        }
        Some(entry)
    }

    /// `at 12,20` on a deck's line: a position on the game's table.
    fn position(
        &mut self,
        at: &crate::syntax::ast::Value,
        value: Option<&crate::syntax::ast::Value>,
    ) -> Option<[i64; 2]> {
        let Some(table) = &self.ruleset.table else {
            self.report(
                Diagnostic::error(&codes::WRONG_VALUE_COUNT, "a position on a table this game does not declare")
                    .primary(at.span, "this game has no `table`")
                    .help("declare the table in the ruleset (`table \"Table\" { size 48 x 48 }`), or leave `at` out"),
            );
            return None;
        };
        let Some((x, y, span)) = value.and_then(|v| match v.kind {
            ValueKind::Coord(x, y) => Some((x, y, v.span)),
            _ => None,
        }) else {
            self.report(
                Diagnostic::error(&codes::WRONG_VALUE_COUNT, "`at` is followed by a position")
                    .primary(at.span, "no position after it")
                    .help("write `at 12,20`: across, then deep, from the table's corner 0,0"),
            );
            return None;
        };
        if !table.holds([x, y]) {
            self.report(
                Diagnostic::error(&codes::WRONG_VALUE_COUNT, format!("{x},{y} is off the table"))
                    .primary(span, "not on the table")
                    .note(format!("the table runs from 0,0 to {},{}", table.width, table.depth))
                    .help("give a position within the table's size"),
            );
            return None;
        }
        Some([x, y])
    }

    /// A value after a card's name that is neither a copy count nor a tag
    /// the deck type's lines may carry.
    fn unexpected_entry_value(&mut self, line: &Node, at: Span, deck_type: &DeckType) {
        let tags = &deck_type.entry_tags;
        let help = if tags.is_empty() {
            "a copy count is written `x2`".to_string()
        } else {
            format!(
                "a copy count is written `x2`; the lines of {} {} may be tagged {}",
                article(&deck_type.display),
                deck_type.display,
                tags.join(", ")
            )
        };
        let found = match &line.values.iter().find(|v| v.span == at).map(|v| &v.kind) {
            Some(ValueKind::Ident(word)) => suggest(word, tags.iter().map(String::as_str)),
            _ => None,
        };
        self.report(
            Diagnostic::error(&codes::WRONG_VALUE_COUNT, format!("unexpected value after the {} name", line.name.text))
                .primary(at, "not expected here")
                .help(help)
                .suggest(found),
        );
    }

    /// Resolves every deck of the game and checks its construction rules.
    pub fn decks(&mut self, sources: &[DeckSource<'_>], cards: &[std::sync::Arc<Card>]) -> Vec<Deck> {
        let cards: Vec<&Card> = cards.iter().map(|card| &**card).collect();
        let cards = cards.as_slice();
        let card_index: HashMap<&str, usize> = cards.iter().enumerate().map(|(i, c)| (c.name.as_str(), i)).collect();
        let duplicated = self.duplicate_decks(sources);
        let deck_index = deck_index(sources);
        let graph = self.graph_decks(sources, &deck_index);
        let index = Index {
            sources,
            cards: &card_index,
            decks: &deck_index,
            expansion: self.include_graph(&graph),
            budget_reported: RefCell::new(false),
            card_names: RefCell::new(None),
            deck_names: RefCell::new(None),
            originals: RefCell::new(None),
            all_cards: cards,
        };
        let mut decks = Vec::new();
        for (at, deck) in sources.iter().enumerate() {
            let Some(deck_type) = self.ruleset.deck_type_of(&deck.deck_type) else { continue };
            let problems_before = self.diagnostics.len();
            let params = param_values(deck, deck_type);
            let mut pool = Pool { own: deck.symbol.as_ref().map(|(s, _)| s.clone()), ..Pool::default() };
            let lost = self.expand(at, &index, cards, &mut pool, true);
            pool.original = self.original_pool(deck, deck_type, &index, cards);
            pool.sources = self.source_pools(deck, deck_type, &index, cards, &pool);
            let clean = self.diagnostics.len() == problems_before
                && !lost
                && !deck.broken
                && !duplicated.contains(&(deck.within, deck.name.as_str()))
                && !holds_broken(&pool, &self.broken_cards);
            // Counting a deck whose lines did not resolve, that names an
            // item lost to a syntax error or holds a card with an error,
            // would only repeat that mistake as rule failures.
            if clean {
                self.rules(deck, deck_type, cards, &pool, &params);
            }
            let mut computed = std::collections::BTreeMap::new();
            for value in &deck_type.computed {
                let Some(rule) = &value.compiled else { continue };
                let mut evaluation = rules::Evaluation::new(self.ruleset, cards).with_params(&params);
                computed.insert(value.message.clone(), evaluation.value(rule, &pool));
            }
            let entries = self.deck_entries(&pool, cards);
            decks.push(Deck {
                name: deck.name.clone(),
                deck_type: deck.deck_type.clone(),
                symbol: deck.symbol.as_ref().map(|(s, _)| s.clone()),
                includes: deck.includes.iter().map(|(n, _, _)| n.clone()).collect(),
                within: deck.within.map(|parent| sources[parent].name.clone()),
                cards: entries,
                computed,
                params: deck_type.params.iter().map(|p| p.name.clone()).zip(params).collect(),
                span: deck.node.head_span(),
                lint_levels: deck.lint_levels.clone(),
            });
        }
        decks
    }

    /// Reports two decks of one name in the same scope: the game's own
    /// decks, or the decks defined inside one deck.  Returns the scopes and
    /// names reported.
    fn duplicate_decks<'s>(&mut self, sources: &'s [DeckSource<'_>]) -> Vec<(Option<usize>, &'s str)> {
        let mut first: HashMap<(Option<usize>, &str), usize> = HashMap::new();
        let mut duplicated = Vec::new();
        for (i, deck) in sources.iter().enumerate() {
            let key = (deck.within, deck.name.as_str());
            let Some(&earlier) = first.get(&key) else {
                first.insert(key, i);
                continue;
            };
            duplicated.push(key);
            let message = match deck.within.map(|parent| &sources[parent]) {
                Some(parent) => format!(
                    "{} `{}` has two {}s named `{}`",
                    parent.node.name.text, parent.name, deck.node.name.text, deck.name
                ),
                None => format!("two decks are named `{}`", deck.name),
            };
            let word = &deck.node.name.text;
            self.report(
                Diagnostic::error(&codes::DUPLICATE_DECK, message)
                    .primary(deck.node.values[0].span, format!("second {word} with this name"))
                    .secondary(sources[earlier].node.values[0].span, format!("first {word} with this name")),
            );
        }
        duplicated
    }

    /// A deck's cards with their copies, each card once, or once for each
    /// set of tags its lines give it.
    fn deck_entries(&self, pool: &Pool, cards: &[&Card]) -> Vec<DeckEntry> {
        let mut entries: Vec<DeckEntry> = Vec::new();
        // Untagged lines by card; tagged ones, which are few, by card and tags.
        let mut untagged: HashMap<usize, usize> = HashMap::new();
        let mut tagged: Vec<(usize, &[usize], usize)> = Vec::new();
        for entry in &pool.entries {
            let found = if entry.tags.is_empty() {
                untagged.get(&entry.card).copied()
            } else {
                tagged.iter().find(|(card, tags, _)| *card == entry.card && **tags == *entry.tags).map(|(.., at)| *at)
            };
            match found {
                Some(at) => {
                    entries[at].count = entries[at].count.saturating_add(entry.count);
                    entries[at].positions.extend(entry.positions.iter().copied());
                }
                None => {
                    if entry.tags.is_empty() {
                        untagged.insert(entry.card, entries.len());
                    } else {
                        tagged.push((entry.card, &entry.tags, entries.len()));
                    }
                    let tags = entry.tags.iter().map(|t| self.ruleset.tags[*t].id.clone()).collect();
                    entries.push(DeckEntry {
                        card: cards[entry.card].name.clone(),
                        count: entry.count,
                        tags,
                        positions: entry.positions.to_vec(),
                    });
                }
            }
        }
        entries
    }

    /// The cards of the deck a deck is based on (`based-on offense`): the
    /// deck of that type with the same match value (`symbol missiles`), or
    /// of several the one listing most of its cards, if the project has one.
    fn original_pool(
        &mut self,
        deck: &DeckSource<'_>,
        deck_type: &DeckType,
        index: &Index<'_, '_>,
        cards: &[&Card],
    ) -> Option<Box<Pool>> {
        let (base, (symbol, _)) = (deck_type.based_on.as_deref()?, deck.symbol.as_ref()?);
        let (at, mut original) = self.pool_of_type_and_value(deck, base, symbol, index, cards)?;
        original.name = Some(index.sources[at].name.as_str().into());
        Some(Box::new(original))
    }

    /// For `beyond-source`: each card's own deck, the deck of the
    /// `based-on` type whose match value is the card's, by that value.
    fn source_pools(
        &mut self,
        deck: &DeckSource<'_>,
        deck_type: &DeckType,
        index: &Index<'_, '_>,
        cards: &[&Card],
        pool: &Pool,
    ) -> Option<rules::Sources> {
        let base = deck_type.based_on.as_deref()?;
        let field = self.ruleset.deck_type(base)?.match_field.clone()?;
        let mut values: Vec<String> = pool
            .entries
            .iter()
            .filter_map(|e| match &cards[e.card].field(&field)?.values.first()?.value {
                Value::Name(value) => Some(value.clone()),
                _ => None,
            })
            .collect();
        values.sort_unstable();
        values.dedup();
        let decks = values
            .into_iter()
            .filter_map(|value| {
                let (_, source) = self.pool_of_type_and_value(deck, base, &value, index, cards)?;
                Some((value, source))
            })
            .collect();
        Some(rules::Sources { field: field.into(), decks })
    }

    /// The cards of the project's deck of type `base` and match value
    /// `value` that `deck` is measured against, and where that deck is; none
    /// when the project has no such deck, or when it has a mistake (reported
    /// there: its counts would hold the other to nothing).
    fn pool_of_type_and_value(
        &mut self,
        deck: &DeckSource<'_>,
        base: &str,
        value: &str,
        index: &Index<'_, '_>,
        cards: &[&Card],
    ) -> Option<(usize, Pool)> {
        let at = {
            let mut originals = index.originals.borrow_mut();
            let originals = originals.get_or_insert_with(|| Originals::of(index.sources, self.ruleset));
            originals.of_deck(index.sources, deck, base, value)?
        };
        let mut pool = Pool { own: Some(value.to_string()), ..Pool::default() };
        let lost = self.expand(at, index, cards, &mut pool, false);
        (!lost && !index.sources[at].broken).then_some((at, pool))
    }

    /// Where each deck's include lines lead, as the include graph sees
    /// them: the lines `fill` follows.
    fn graph_decks<'s>(&self, sources: &'s [DeckSource<'_>], decks: &HashMap<&str, usize>) -> Vec<GraphDeck<'s>> {
        let graph_deck = |deck: &'s DeckSource<'_>| {
            let deck_type = self.ruleset.deck_type_of(&deck.deck_type);
            let includes = deck
                .includes
                .iter()
                .filter_map(|(name, span, inside)| {
                    let to = include_target(decks, name, *inside)?;
                    deck_type.is_some_and(|t| may_include(t, &sources[to])).then_some((to, *span))
                })
                .collect();
            let own = deck.cards.iter().fold(0i64, |sum, line| sum.saturating_add(line.count));
            GraphDeck { name: &deck.name, own, span: deck.node.values[0].span, includes }
        };
        sources.iter().map(graph_deck).collect()
    }

    /// Puts deck `at`'s cards, and those of the decks it includes, in
    /// `pool`, if the game's budget has room for them (reported once, at
    /// the deck that goes past it).  Returns whether the deck could not be
    /// counted whole: it names an item that did not parse, includes a deck
    /// that is refused, or does not fit the budget.
    fn expand(&mut self, at: usize, index: &Index<'_, '_>, cards: &[&Card], pool: &mut Pool, report: bool) -> bool {
        let expansion = &index.expansion;
        // A refused deck's own lines are still read, for their mistakes.
        let size = if expansion.refused[at] { 0 } else { expansion.cards[at] };
        if !expansion.spend(size) {
            if !std::mem::replace(&mut *index.budget_reported.borrow_mut(), true) {
                let deck = &index.sources[at];
                self.report(
                    Diagnostic::error(
                        &codes::DECK_TOO_LARGE,
                        format!(
                            "the decks of this game hold more than {} cards in all; `{}` and the decks after it are not checked",
                            thousands(includes::MAX_GAME_CARDS),
                            deck.name
                        ),
                    )
                    .primary(deck.node.values[0].span, format!("this deck would bring {} more", thousands(size)))
                    .note("each deck counts with the decks it includes, and with the deck it is measured against")
                    .help("split the decks into several projects, or include large decks fewer times"),
                );
            }
            return true;
        }
        self.fill(&index.sources[at], at, index, cards, pool, report)
    }

    /// Puts a deck's cards, and those of the decks it includes, in `pool`.
    /// Problems are reported only for the outermost deck (`report`); an
    /// included deck reports its own when it is checked itself.  Returns
    /// whether the deck, or one it includes, names an item that did not
    /// parse or is refused by the include graph.
    fn fill<'s>(
        &mut self,
        deck: &DeckSource<'_>,
        at: usize,
        index: &Index<'s, '_>,
        cards: &[&Card],
        pool: &mut Pool,
        report: bool,
    ) -> bool {
        let Some(deck_type) = self.ruleset.deck_type_of(&deck.deck_type) else { return false };
        let saved = (!report).then(|| std::mem::take(&mut self.diagnostics));
        let mut lost = self.add_cards(deck, deck_type, cards, index, pool);
        if let Some(saved) = saved {
            // A deck read again for another (included, or an original) whose
            // lines do not resolve is reported where it is written; its
            // counts would only repeat that mistake in the other.
            lost |= self.diagnostics.iter().any(Diagnostic::is_error);
            self.diagnostics = saved;
        }
        for (name, span, inside) in &deck.includes {
            let Some(i) = include_target(index.decks, name, *inside) else {
                if self.lost_names.contains(name) {
                    lost = true;
                } else if report {
                    self.report(
                        Diagnostic::error(&codes::UNKNOWN_DECK, format!("no deck is named `{name}`"))
                            .primary(*span, "unknown deck")
                            .suggest(index.deck_like(name)),
                    );
                }
                continue;
            };
            let included = &index.sources[i];
            if !may_include(deck_type, included) {
                if report {
                    self.report(
                        Diagnostic::error(
                            &codes::WRONG_DECK_INCLUDED,
                            format!(
                                "{} {} cannot include {} {} deck",
                                article(&deck_type.display),
                                deck_type.display,
                                article(included.deck_type.id()),
                                included.deck_type
                            ),
                        )
                        .primary(
                            *span,
                            format!("`{name}` is {} {} deck", article(included.deck_type.id()), included.deck_type),
                        )
                        .note(format!(
                            "{} {} includes: {}",
                            article(&deck_type.display),
                            deck_type.display,
                            deck_type.includes.join(", ")
                        )),
                    );
                }
                continue;
            }
            // A cycle, or a deck past a limit, is reported by the include
            // graph; a deck the graph refuses is never expanded, so
            // neither recursion nor copying can run away.
            if index.expansion.refused[at] || index.expansion.refused[i] {
                lost = true;
                continue;
            }
            let mut inner = Pool { own: included.symbol.as_ref().map(|(s, _)| s.clone()), ..Pool::default() };
            // An included deck with a mistake is reported once, there: the
            // counts here would only repeat it.
            lost |= included.broken;
            lost |= self.fill(included, i, index, cards, &mut inner, false);
            for entry in &inner.entries {
                if !deck_type.set_aside.iter().any(|kind| cards[entry.card].kind == kind.as_str()) {
                    pool.entries.push(entry.clone());
                }
            }
            pool.included.push(Included { deck_type: included.deck_type.clone(), span: *span, pool: inner });
        }
        lost
    }

    fn add_cards(
        &mut self,
        deck: &DeckSource<'_>,
        deck_type: &DeckType,
        cards: &[&Card],
        index: &Index<'_, '_>,
        pool: &mut Pool,
    ) -> bool {
        let mut lost = false;
        if let (Some(field), None, false) = (deck_type.match_field.as_deref(), &deck.symbol, deck.symbol_written) {
            self.report(
                Diagnostic::error(
                    &codes::MISSING_DECK_SYMBOL,
                    format!("deck `{}` does not say its {field}", deck.name),
                )
                .primary(
                    deck.node.head_span(),
                    format!("{} {} needs a `{field}` line", article(&deck_type.display), deck_type.display),
                )
                .help(format!("add `{field} NAME` as the deck's first line")),
            );
        }
        for EntryLine { name, count, span, tags, positions } in &deck.cards {
            let Some(&i) = index.cards.get(name.as_str()) else {
                // The syntax error that lost the card is its one report.
                if self.lost_names.contains(name) {
                    lost = true;
                    continue;
                }
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_CARD, format!("no card is named `{name}`"))
                        .primary(*span, "unknown card")
                        .suggest(index.card_like(name)),
                );
                continue;
            };
            if let (Some(field), Some((symbol, symbol_span))) = (&deck_type.match_field, &deck.symbol) {
                let carried = cards[i].field(field).and_then(|f| match f.first_value() {
                    Some(Value::Name(s)) => Some(s.as_str()),
                    _ => None,
                });
                if let Some(carried) = carried.filter(|c| c != symbol) {
                    self.report(
                        Diagnostic::error(
                            &codes::SYMBOL_MISMATCH,
                            format!("`{name}` carries the `{carried}` {field}, not this deck's `{symbol}`"),
                        )
                        .primary(*span, format!("{} `{carried}` card", article(carried)))
                        .secondary(*symbol_span, format!("the deck's {field}"))
                        .secondary(cards[i].span, "the card is defined here"),
                    );
                }
            }
            self.side_fits(deck, deck_type, *span, cards[i]);
            self.entry_tags_fit(tags, cards[i]);
            // In one order, so that lines giving the same tags merge.
            let mut tags: Box<[usize]> = tags.iter().map(|(tag, _)| *tag).collect();
            tags.sort_unstable();
            let positions = positions.clone().into_boxed_slice();
            pool.entries.push(rules::PoolEntry { card: i, count: *count, span: *span, tags, positions });
        }
        lost
    }

    fn rules(&mut self, deck: &DeckSource<'_>, deck_type: &DeckType, cards: &[&Card], pool: &Pool, params: &[i64]) {
        for rule in &deck_type.rules {
            let Some(compiled) = &rule.compiled else { continue };
            let mut evaluation = rules::Evaluation::new(self.ruleset, cards).with_params(params);
            if evaluation.holds(compiled, pool) || evaluation.read_special.get() {
                continue;
            }
            let code = match rule.severity {
                Severity::Error => &codes::DECK_RULE_BROKEN,
                Severity::Warning => &codes::DECK_RULE_ADVICE,
            };
            let message = format!("{} `{}` breaks a rule: {}", deck.node.name.text, deck.name, rule.message);
            if !evaluation.members.is_empty() {
                self.report_members(deck, rule, code, &message, &evaluation.members);
                continue;
            }
            let mut diagnostic = Diagnostic::new(code, rule.severity, message)
                .primary(deck.node.values[0].span, evaluation.summary())
                .secondary(rule.span, "the rule, declared here");
            for span in evaluation.culprits.iter().take(3) {
                diagnostic = diagnostic.secondary(*span, "counted here");
            }
            if let Some((what, names)) = &evaluation.named {
                diagnostic = diagnostic.note(format!("{what}: {}", names_listed(names)));
            }
            self.report(diagnostic);
        }
    }
}

impl GameChecker<'_> {
    /// A tag a line gives its card must be one the card's kind may carry
    /// (the tag's `only`).
    /// A deck of a side's deck type holds no card of a kind of another side.
    fn side_fits(&mut self, deck: &DeckSource<'_>, deck_type: &DeckType, span: Span, card: &Card) {
        let Some(side) = &deck_type.side else { return };
        let theirs = self.ruleset.kind(card.kind.id()).and_then(|k| k.side.as_ref());
        let Some(theirs) = theirs.filter(|theirs| *theirs != side) else { return };
        let kind = card.kind.id();
        self.report(
            Diagnostic::error(
                &codes::WRONG_SIDE,
                format!("deck `{}` of side `{side}` holds `{}`, a card of side `{theirs}`", deck.name, card.name),
            )
            .primary(span, format!("{} {kind} belongs to side `{theirs}`", article(kind)))
            .secondary(
                deck.node.head_span(),
                format!("{} {} belongs to side `{side}`", article(&deck_type.display), deck_type.display),
            )
            .secondary(card.span, "the card is defined here")
            .help(format!("list it in a deck of side `{theirs}`, or leave it out")),
        );
    }

    fn entry_tags_fit(&mut self, tags: &[(usize, Span)], card: &Card) {
        for (tag, at) in tags {
            let def = &self.ruleset.tags[*tag];
            if def.only.is_empty() || def.only.iter().any(|kind| *kind == card.kind.id()) {
                continue;
            }
            self.report(
                Diagnostic::error(
                    &codes::NOT_ALLOWED_ON_KIND,
                    format!("tag `{}` cannot appear on {} {} card", def.id, article(card.kind.id()), card.kind.id()),
                )
                .primary(*at, format!("only on: {}", def.only.join(", ")))
                .secondary(card.span, "the card is defined here"),
            );
        }
    }

    /// A rule that must hold in each included deck (`every`), broken by
    /// some: one report for each, at the line that includes it, with what
    /// was counted there.
    fn report_members(
        &mut self,
        deck: &DeckSource<'_>,
        rule: &crate::ruleset::model::Constraint,
        code: &'static crate::diagnostics::Code,
        message: &str,
        members: &[(Span, crate::ir::DeckTypeId, String)],
    ) {
        for (span, deck_type, counted) in members {
            let word = self.ruleset.deck_type_of(deck_type).map_or("deck", |t| t.word.as_str());
            let label = if counted.is_empty() { format!("this {word}") } else { format!("this {word}: {counted}") };
            self.report(
                Diagnostic::new(code, rule.severity, message.to_string())
                    .primary(*span, label)
                    .secondary(deck.node.values[0].span, format!("in this {}", deck.node.name.text))
                    .secondary(rule.span, "the rule, declared here"),
            );
        }
    }

    /// `agreed-points 1500`: a deck sets a parameter of its type, once, to
    /// a whole number within the parameter's bounds.
    fn param_line(&mut self, line: &Node, param: &DeckParam, slot: &mut Option<(i64, Span)>) {
        if let Some((_, first)) = slot {
            self.report(
                Diagnostic::error(&codes::DUPLICATE_FIELD, format!("`{}` is set twice", param.name))
                    .primary(line.name.span, "set again here")
                    .secondary(*first, "first set here"),
            );
            return;
        }
        let value = match line.values.as_slice() {
            [value] => value,
            _ => {
                self.report(
                    Diagnostic::error(&codes::WRONG_VALUE_COUNT, format!("`{}` takes one number", param.name))
                        .primary(line.head_span(), "expected one whole number")
                        .help(format!("write `{} 1000`", param.name)),
                );
                return;
            }
        };
        match value.kind {
            ValueKind::Int(n) if within(n, param.bounds) => *slot = Some((n, line.name.span)),
            ValueKind::Int(n) => self.report(
                Diagnostic::error(
                    &codes::OUT_OF_BOUNDS,
                    format!("`{}` cannot be {n}: it is {}", param.name, bounds_text(param.bounds)),
                )
                .primary(value.span, format!("expected {}", bounds_text(param.bounds)))
                .secondary(param.span, "the parameter, declared here"),
            ),
            // Already reported by the parser.
            ValueKind::Invalid => {}
            _ => self.report(
                Diagnostic::error(&codes::WRONG_TYPE, format!("`{}` is a whole number", param.name))
                    .primary(value.span, "expected a whole number such as `1000`")
                    .secondary(param.span, "the parameter, declared here"),
            ),
        }
    }

    /// Every parameter without a default must be set by the deck.
    fn missing_params(&mut self, deck: &DeckSource<'_>, deck_type: &DeckType) {
        let written = |name: &str| deck.node.block.iter().flat_map(|b| &b.nodes).any(|line| line.name.text == name);
        for (param, set) in deck_type.params.iter().zip(&deck.params) {
            // A line that sets it wrongly is reported as such.
            if set.is_none() && param.default.is_none() && !written(&param.name) {
                self.report(
                    Diagnostic::error(
                        &codes::MISSING_FIELD,
                        format!("{} `{}` does not set `{}`", deck.node.name.text, deck.name, param.name),
                    )
                    .primary(deck.node.head_span(), format!("expected a `{}` line", param.name))
                    .secondary(param.span, "the parameter has no default")
                    .help(format!("add `{} N` inside the {}", param.name, deck.node.name.text)),
                );
            }
        }
    }
}

/// The value of each parameter for a deck: as set, else the default.  A
/// parameter without either is reported and the deck's rules not counted.
fn param_values(deck: &DeckSource<'_>, deck_type: &DeckType) -> Vec<i64> {
    let set = deck.params.iter().map(|set| set.map(|(n, _)| n));
    deck_type.params.iter().zip(set).map(|(param, set)| set.or(param.default).unwrap_or(0)).collect()
}

fn within(n: i64, bounds: Option<(i64, Option<i64>)>) -> bool {
    bounds.is_none_or(|(low, high)| n >= low && high.is_none_or(|h| n <= h))
}

fn bounds_text(bounds: Option<(i64, Option<i64>)>) -> String {
    match bounds {
        Some((low, Some(high))) => format!("a number from {low} to {high}"),
        Some((low, None)) => format!("a number of at least {low}"),
        None => "a whole number".to_string(),
    }
}

/// Name lookups shared while resolving the decks of one game.
/// The decks a line may include by name alone: the game's own decks, and a
/// deck defined inside another when no other deck has its name.
fn deck_index<'s>(sources: &'s [DeckSource<'_>]) -> HashMap<&'s str, usize> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, deck) in sources.iter().enumerate().filter(|(_, d)| d.within.is_none()) {
        index.entry(deck.name.as_str()).or_insert(i);
    }
    let mut inner: HashMap<&str, Option<usize>> = HashMap::new();
    for (i, deck) in sources.iter().enumerate().filter(|(_, d)| d.within.is_some()) {
        inner.entry(deck.name.as_str()).and_modify(|seen| *seen = None).or_insert(Some(i));
    }
    for (name, only) in inner {
        if let Some(i) = only {
            index.entry(name).or_insert(i);
        }
    }
    index
}

/// The deck an include line names: the one defined inside the deck, or
/// else the deck of that name.
fn include_target(decks: &HashMap<&str, usize>, name: &str, inside: Option<usize>) -> Option<usize> {
    inside.or_else(|| decks.get(name).copied())
}

/// Whether a deck type may include a deck (`includes offense defense`).
fn may_include(deck_type: &DeckType, included: &DeckSource<'_>) -> bool {
    deck_type.includes.iter().any(|t| included.deck_type == t.as_str())
}

struct Index<'s, 'n> {
    sources: &'s [DeckSource<'n>],
    cards: &'s HashMap<&'s str, usize>,
    decks: &'s HashMap<&'s str, usize>,
    /// Each deck's size and whether it may be expanded, from the include
    /// graph, and the game's budget of cards.
    expansion: Expansion,
    /// Whether going past the game's budget has been reported.
    budget_reported: RefCell<bool>,
    all_cards: &'s [&'s Card],
    /// Suggestions for unknown names, built at the first one.
    card_names: RefCell<Option<Suggester<'s>>>,
    deck_names: RefCell<Option<Suggester<'s>>>,
    /// The decks other decks may be based on, built at the first such deck.
    originals: RefCell<Option<Originals<'s>>>,
}

/// The decks of each deck type and match value (`offense`, `missiles`), and
/// the card names each lists, to find the deck another is based on.
#[derive(Default)]
struct Originals<'s> {
    by_value: HashMap<(&'s str, &'s str), Vec<usize>>,
    by_card: HashMap<&'s str, Vec<usize>>,
}

impl<'s> Originals<'s> {
    fn of(sources: &'s [DeckSource<'_>], ruleset: &crate::ruleset::model::Ruleset) -> Self {
        let targets: Vec<&str> = ruleset.deck_types.iter().filter_map(|t| t.based_on.as_deref()).collect();
        let mut originals = Originals::default();
        for (at, source) in sources.iter().enumerate() {
            let Some((value, _)) = &source.symbol else { continue };
            if !targets.contains(&source.deck_type.id()) {
                continue;
            }
            originals.by_value.entry((source.deck_type.id(), value.as_str())).or_default().push(at);
        }
        // Cards tell candidates apart only where a type and value has several.
        let several = originals.by_value.values().filter(|decks| decks.len() > 1).flatten();
        let mut several: Vec<usize> = several.copied().collect();
        several.sort_unstable();
        for at in several {
            for line in &sources[at].cards {
                // Each deck once per card, however many lines name it: the
                // decks come in order, so a deck already there is the last.
                let holders = originals.by_card.entry(line.name.as_str()).or_default();
                if holders.last() != Some(&at) {
                    holders.push(at);
                }
            }
        }
        originals
    }

    /// The deck of type `base` and match value `value` that `deck` is based
    /// on: the one such deck, or of several the one listing most of its
    /// different cards.
    fn of_deck(&self, sources: &[DeckSource<'_>], deck: &DeckSource<'_>, base: &str, value: &str) -> Option<usize> {
        let candidates = self.by_value.get(&(base, value))?;
        if let [only] = candidates.as_slice() {
            return Some(*only);
        }
        let mut shared: HashMap<usize, usize> = HashMap::new();
        let mut names: Vec<&str> = deck.cards.iter().map(|line| line.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            for &at in self.by_card.get(name).into_iter().flatten() {
                let source = &sources[at];
                if source.deck_type.id() == base && source.symbol.as_ref().is_some_and(|(v, _)| v == value) {
                    *shared.entry(at).or_default() += 1;
                }
            }
        }
        // Of the decks sharing most cards, the first; with none shared, the
        // first deck of the type and value.
        let best = shared.into_iter().max_by_key(|(at, count)| (*count, std::cmp::Reverse(*at))).map(|(at, _)| at);
        best.or(candidates.first().copied())
    }
}

impl<'s> Index<'s, '_> {
    fn card_like(&self, name: &str) -> Option<&'s str> {
        let cards = self.all_cards;
        let mut names = self.card_names.borrow_mut();
        names.get_or_insert_with(|| Suggester::new(cards.iter().map(|c| c.name.as_str()))).suggest(name)
    }

    fn deck_like(&self, name: &str) -> Option<&'s str> {
        let sources = self.sources;
        let mut names = self.deck_names.borrow_mut();
        names.get_or_insert_with(|| Suggester::new(sources.iter().map(|d| d.name.as_str()))).suggest(name)
    }
}

/// Card names as a list for a note: the first few, then how many more.
fn names_listed(names: &[&str]) -> String {
    const SHOWN: usize = 5;
    let mut listed = names.iter().take(SHOWN).map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ");
    if names.len() > SHOWN {
        listed.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    listed
}

/// Whether a pool, or a pool it includes, holds a card that has an error.
fn holds_broken(pool: &Pool, broken: &[bool]) -> bool {
    pool.entries.iter().any(|entry| broken.get(entry.card).copied().unwrap_or(false))
        || pool.included.iter().any(|included| holds_broken(&included.pool, broken))
}
