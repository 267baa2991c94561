//! Checks the cards of one game against its ruleset.
//!
//! Two passes: the first collects every card's name and the keywords System
//! Cards declare for their deck, so that the second can resolve references in
//! any order and across files.

mod dials;
mod effects;
pub(super) mod printed;

use super::codes;
use super::rules::{Evaluation, Pool, PoolEntry};
use crate::diagnostics::Diagnostic;
use crate::ir::{self, Body, Card, Field, Spanned, Value};
use crate::ruleset::model::{Kind, Ruleset, Schema, Type};
use crate::ruleset::names::{article, string_at, suggest};
use crate::source::{Files, Span};
use crate::syntax::ast::{Node, ValueKind};
use std::collections::HashMap;

/// What the checker knows about the card it is in.
pub(super) struct CardContext {
    pub name: String,
    pub kind: ir::KindId,
    /// The card's deck symbol, which scopes deck keywords.
    pub symbol: Option<String>,
    /// The card's tags, which the kind's rules may name.
    pub tags: Vec<String>,
}

#[derive(Clone)]
pub(super) struct DeckKeyword {
    pub id: String,
    pub symbol: Option<String>,
    /// The name the declaring card prints for it (`"Running Engagement"`).
    pub display: Option<String>,
}

pub(super) struct GameChecker<'a> {
    pub files: &'a Files,
    pub ruleset: &'a Ruleset,
    /// Each kind of the ruleset as cards hold it, made once and shared.
    kind_ids: Vec<ir::KindId>,
    pub diagnostics: Vec<Diagnostic>,
    /// Each keyword declared for a deck, with its deck's symbol, once.
    pub deck_keywords: Vec<DeckKeyword>,
    /// The symbols each deck keyword is declared for, to look one up by name.
    deck_keyword_symbols: HashMap<String, Vec<Option<String>>>,
    /// `allow`/`warn`/`deny` lines met while checking the current card.
    pub lint_levels: Vec<ir::LintLevel>,
    /// Names of items that did not parse: references to them raise no
    /// follow-on errors, the syntax error being their one report.
    pub lost_names: std::collections::HashSet<String>,
    /// For each card of the game, in order, whether it has an error: the
    /// rules of a deck holding it are not judged on what is left of it.
    pub broken_cards: Vec<bool>,
    /// Set for the next block checked when it is the block of a `when`: what
    /// it adds under the condition, to a card or block that holds the
    /// required fields itself.
    pub(super) under_condition: bool,
    /// While a card with an error has its rules applied: the fields its
    /// mistakes touch.  Only the rules that read none of them, and read
    /// nothing but fields, are judged.
    touched: Option<Vec<String>>,
    /// The keywords by the names a rulebook prints, shared by the forks.
    pub(super) printed_names: std::sync::Arc<printed::Names<'a>>,
}

impl<'a> GameChecker<'a> {
    pub fn new(files: &'a Files, ruleset: &'a Ruleset) -> Self {
        GameChecker {
            files,
            ruleset,
            kind_ids: ruleset.kinds.iter().enumerate().map(|(i, k)| ir::KindId::new(i, &k.id)).collect(),
            diagnostics: Vec::new(),
            deck_keywords: Vec::new(),
            deck_keyword_symbols: HashMap::new(),
            lint_levels: Vec::new(),
            lost_names: Default::default(),
            broken_cards: Vec::new(),
            under_condition: false,
            touched: None,
            printed_names: std::sync::Arc::new(printed::Names::of(ruleset)),
        }
    }

    /// A checker for another share of the same game's cards: the deck
    /// keywords found so far, no problems yet.
    pub fn fork(&self) -> Self {
        GameChecker {
            files: self.files,
            ruleset: self.ruleset,
            kind_ids: self.kind_ids.clone(),
            diagnostics: Vec::new(),
            deck_keywords: self.deck_keywords.clone(),
            deck_keyword_symbols: self.deck_keyword_symbols.clone(),
            lint_levels: Vec::new(),
            // Only decks look names up, and they are checked by the first.
            lost_names: Default::default(),
            broken_cards: Vec::new(),
            under_condition: false,
            touched: None,
            printed_names: self.printed_names.clone(),
        }
    }

    /// A fingerprint of what checking a card reads besides the card: the
    /// rulesets (`rules`) and the deck keywords the game's cards declare.
    pub fn context_fingerprint(&self, rules: u64) -> u64 {
        let keywords: Vec<(&str, Option<&str>, Option<&str>)> =
            self.deck_keywords.iter().map(|k| (k.id.as_str(), k.symbol.as_deref(), k.display.as_deref())).collect();
        crate::cache::fingerprint(&[(rules, keywords)])
    }

    pub fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// First pass over a card: the keywords it declares for its deck.  A
    /// card whose kind is not known (misspelt, or its head did not read)
    /// declares what a field of that name declares in any kind, for every
    /// deck: its one error is not followed by one at each card using them.
    pub fn collect_deck_keywords(&mut self, node: &Node, kind: Option<&Kind>) {
        let Some(block) = &node.block else { return };
        let symbol = kind.and_then(|kind| deck_symbol(self.files, self.ruleset, node, &kind.schema));
        let kinds = match kind {
            Some(kind) => std::slice::from_ref(kind),
            None => self.ruleset.kinds.as_slice(),
        };
        for field in &block.nodes {
            let declares = kinds
                .iter()
                .filter_map(|kind| kind.schema.field(&field.name.text))
                .any(|f| f.schema.takes.first().is_some_and(|t| t.ty == Type::NewKeyword));
            if let (true, Some(ValueKind::Ident(id))) = (declares, field.values.first().map(|v| &v.kind)) {
                let symbols = self.deck_keyword_symbols.entry(id.clone()).or_default();
                if !symbols.contains(&symbol) {
                    symbols.push(symbol.clone());
                    let display = string_at(field, 1).map(str::to_string);
                    self.deck_keywords.push(DeckKeyword { id: id.clone(), symbol: symbol.clone(), display });
                }
            }
        }
    }

    pub fn deck_keyword_visible(&self, id: &str, card: &CardContext) -> bool {
        let symbols = self.deck_keyword_symbols.get(id).map(Vec::as_slice).unwrap_or_default();
        symbols.iter().any(|symbol| symbol.is_none() || *symbol == card.symbol)
    }

    pub fn deck_keyword_names(&self, card: &CardContext) -> Vec<&str> {
        self.deck_keywords
            .iter()
            .filter(|k| k.symbol.is_none() || k.symbol == card.symbol)
            .map(|k| k.id.as_str())
            .collect()
    }

    /// Checks one card item: `kind "Name" tags… { fields }`, of the kind
    /// at `index` of the ruleset.
    pub fn card(&mut self, node: &Node, index: usize) -> Option<Card> {
        let ruleset = self.ruleset;
        let (kind, kind_id) = (ruleset.kinds.get(index)?, self.kind_ids.get(index)?.clone());
        let Some(name) = string_at(node, 0) else {
            self.report(
                Diagnostic::error(&codes::MISSING_NAME, format!("this {} card has no name", kind.id))
                    .primary(node.name.span, "expected a quoted name after this")
                    .help(format!("write `{} \"Card Name\" {{ ... }}`", kind.id)),
            );
            return None;
        };
        let owner = format!("{} `{name}`", kind.display);
        let mut tags = Vec::new();
        for value in &node.values[1..] {
            match &value.kind {
                ValueKind::Ident(tag) => match self.ruleset.tag(tag) {
                    Some(def) if !def.only.is_empty() && !def.only.contains(&kind.id) => self.report(
                        Diagnostic::error(
                            &codes::NOT_ALLOWED_ON_KIND,
                            format!("tag `{tag}` cannot appear on {} {} card", article(&kind.id), kind.id),
                        )
                        .primary(value.span, format!("only on: {}", def.only.join(", "))),
                    ),
                    Some(_) => tags.push(tag.clone()),
                    None => {
                        let names = self.ruleset.tags.iter().map(|t| t.id.as_str());
                        self.report(
                            Diagnostic::error(&codes::UNKNOWN_TAG, format!("unknown tag `{tag}`"))
                                .primary(value.span, format!("not a tag of `{}`", self.ruleset.id))
                                .suggest(suggest(tag, names)),
                        );
                    }
                },
                _ => self.wrong_type(&Type::Tag, value),
            }
        }
        let context = CardContext {
            name: name.to_string(),
            kind: kind_id.clone(),
            symbol: deck_symbol(self.files, ruleset, node, &kind.schema),
            tags,
        };
        let reported = self.diagnostics.len();
        let body = match &node.block {
            Some(block) => self.body(&kind.schema, &block.nodes, node.head_span(), &context, &owner),
            None => {
                self.body(&kind.schema, &[], node.head_span(), &context, &owner);
                Body::default()
            }
        };
        // A card with an error has lost the lines that hold it: its rules
        // would judge what is left, and say it breaks them when it may not.
        // Those that read only fields the mistakes leave alone are judged,
        // so that independent faults show at once.
        let broken = node.block.as_ref().is_some_and(|b| b.broken);
        let clean = !self.diagnostics[reported..].iter().any(Diagnostic::is_error);
        self.touched = (!clean).then(|| self.touched_fields(node, &kind.schema, &body, reported));
        let body = if broken { body } else { self.apply_rules(&kind.schema, &context, body, None, node.head_span()) };
        self.touched = None;
        self.dial_manoeuvres(name, &body);
        let lint_levels = std::mem::take(&mut self.lint_levels);
        Some(Card {
            name: name.to_string(),
            kind: kind_id,
            tags: context.tags,
            body,
            span: node.head_span(),
            extent: node.span,
            lint_levels,
        })
    }

    /// Checks the lines of a block against a schema.
    pub(super) fn body(
        &mut self,
        schema: &Schema,
        nodes: &[Node],
        owner: Span,
        card: &CardContext,
        owner_name: &str,
    ) -> Body {
        let shape = schema.shape.as_deref().and_then(|s| self.ruleset.shape(s));
        let schema = shape.unwrap_or(schema);
        let under_condition = std::mem::take(&mut self.under_condition);
        let mut body = Body::default();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        let mut order = effects::Order::default();
        // The fields that unknown lines were taken to mean: a field misspelt
        // is one mistake, not also a missing field.
        let mut meant: Vec<String> = Vec::new();
        for node in nodes {
            let name = node.name.text.as_str();
            if schema.effects && self.effect_construct(node, schema, card, owner_name, &mut body, &mut order) {
                continue;
            }
            let Some(field) = schema.field(name) else {
                if let Some(levels) = lint_level_line(node) {
                    self.lint_levels.extend(levels);
                    continue;
                }
                meant.extend(self.unknown_field(node, schema, owner_name));
                continue;
            };
            if let Some(first) = seen.get(name) {
                if !field.many {
                    self.report(
                        Diagnostic::error(&codes::DUPLICATE_FIELD, format!("`{name}` is given twice"))
                            .primary(node.name.span, "given again here")
                            .secondary(*first, "first given here")
                            .help(match field.schema.fields.is_empty() && field.schema.shape.is_none() {
                                true => "remove one of them".to_string(),
                                // `cost check` and `cost log 1` are one cost.
                                false => self.joined_help(name, *first, node),
                            }),
                    );
                    continue;
                }
            } else {
                seen.insert(name, node.name.span);
            }
            if let Some(line) = self.field_line(field, node, card) {
                body.fields.push(line);
            }
        }
        if !under_condition {
            let given = |name: &str| seen.contains_key(name) || meant.iter().any(|m| m == name);
            self.missing_fields(schema, given, owner, owner_name);
        }
        for group in &schema.together {
            let present: Vec<&str> =
                group.iter().filter(|f| seen.contains_key(f.as_str())).map(String::as_str).collect();
            if !present.is_empty() && present.len() < group.len() {
                let missing: Vec<&str> = group.iter().map(String::as_str).filter(|f| !present.contains(f)).collect();
                let first = seen[present[0]];
                self.report(
                    Diagnostic::error(
                        &codes::FIELDS_TOGETHER,
                        format!("`{}` needs `{}` as well", present.join("`, `"), missing.join("`, `")),
                    )
                    .primary(first, format!("given without `{}`", missing.join("`, `")))
                    .note(format!("these go together: {}", group.join(", "))),
                );
            }
        }
        // The IR of 100,000 cards holds millions of these lists.
        body.fields.shrink_to_fit();
        body.effects.shrink_to_fit();
        body.conditions.shrink_to_fit();
        body.choices.shrink_to_fit();
        body.then.shrink_to_fit();
        body
    }

    /// The fields a card's mistakes touch: the lines an error points into
    /// (a misspelt one as the field it was meant to be), and the required
    /// fields missing from what was read.
    fn touched_fields(&self, node: &Node, schema: &Schema, body: &Body, reported: usize) -> Vec<String> {
        let errors: Vec<Span> =
            self.diagnostics[reported..].iter().filter(|d| d.is_error()).filter_map(Diagnostic::primary_span).collect();
        let names: Vec<&str> = schema.fields.iter().map(|f| f.name.as_str()).collect();
        let lines = node.block.as_ref().map(|b| b.nodes.as_slice()).unwrap_or_default();
        let mut touched: Vec<String> = Vec::new();
        for line in lines.iter().filter(|l| errors.iter().any(|e| l.span.start <= e.start && e.end <= l.span.end)) {
            touched.push(line.name.text.clone());
            touched.extend(suggest(&line.name.text, names.iter().copied()).map(str::to_string));
        }
        let given = |name: &str| body.fields.iter().any(|f| f.name == name);
        touched.extend(schema.fields.iter().filter(|f| f.required && !given(&f.name)).map(|f| f.name.clone()));
        touched
    }

    /// Reports each required field of `schema` not `given` (a misspelt line
    /// counts as the field it was meant to be).
    fn missing_fields(&mut self, schema: &Schema, given: impl Fn(&str) -> bool, owner: Span, owner_name: &str) {
        for field in schema.fields.iter().filter(|f| f.required && !given(&f.name)) {
            let example = field.schema.takes.iter().map(|t| t.ty.describe()).collect::<Vec<_>>().join(", ");
            let help = if example.is_empty() {
                format!("add `{}`", field.name)
            } else {
                format!("add `{}` followed by {example}", field.name)
            };
            self.report(
                Diagnostic::error(&codes::MISSING_FIELD, format!("{owner_name} is missing its `{}`", field.name))
                    .primary(owner, format!("`{}` is required here", field.name))
                    .help(help),
            );
        }
    }

    /// Checks the rules a kind or block declares (`require "…" EXPR`) on one
    /// card or block.  A block sees its own fields and, under the name `this`,
    /// the values written before it (`ability trigger { … }`).
    /// A block's rules, unless the line has an error since `from` (a value
    /// refused would only show again as a broken rule).
    fn rules_unless_broken(
        &mut self,
        from: usize,
        schema: &Schema,
        card: &CardContext,
        body: Body,
        own: &[Spanned<Value>],
        at: Span,
    ) -> Body {
        if self.diagnostics[from..].iter().any(Diagnostic::is_error) {
            return body;
        }
        self.apply_rules(schema, card, body, Some(own), at)
    }

    fn apply_rules(
        &mut self,
        schema: &Schema,
        card: &CardContext,
        mut body: Body,
        own: Option<&[Spanned<Value>]>,
        at: Span,
    ) -> Body {
        if schema.rules.is_empty() {
            return body;
        }
        // The body is lent to the one-card pool, not copied, and handed back.
        if let Some(values) = own {
            body.fields.push(Field { name: "this".to_string(), values: values.to_vec(), body: None, span: at });
        }
        let subject = [Card {
            name: card.name.clone(),
            kind: card.kind.clone(),
            tags: card.tags.clone(),
            body,
            span: at,
            extent: at,
            lint_levels: Vec::new(),
        }];
        let pool = Pool {
            entries: vec![PoolEntry { card: 0, count: 1, span: at, tags: Box::default(), positions: Box::default() }],
            ..Pool::default()
        };
        let subjects = [&subject[0]];
        for rule in &schema.rules {
            let Some(compiled) = &rule.compiled else { continue };
            if let Some(touched) = &self.touched {
                let reads = compiled.fields_read();
                if reads.is_none_or(|fields| fields.iter().any(|f| touched.iter().any(|t| t == f))) {
                    continue;
                }
            }
            let mut evaluation = Evaluation::new(self.ruleset, &subjects);
            if evaluation.holds(compiled, &pool) || evaluation.read_special.get() {
                continue;
            }
            let diagnostic = broken_card_rule(rule, &card.name, &evaluation, &subject[0].body, at);
            self.report(diagnostic.secondary(rule.span, "the rule, declared here"));
        }
        let [Card { mut body, .. }] = subject;
        if own.is_some() {
            body.fields.pop();
        }
        body
    }

    /// One line of a block, for a field of its schema: its values and, for a
    /// block field, its block (or its fields written on the same line).
    fn field_line(
        &mut self,
        field: &crate::ruleset::model::FieldDef,
        node: &Node,
        card: &CardContext,
    ) -> Option<Field> {
        let name = node.name.text.as_str();
        let problems_before = self.diagnostics.len();
        let field_shape = field.schema.shape.as_deref().and_then(|s| self.ruleset.shape(s));
        let takes = if field.schema.takes.is_empty() {
            field_shape.map(|s| s.takes.as_slice()).unwrap_or(&[])
        } else {
            field.schema.takes.as_slice()
        };
        // A block field may be written on one line, its fields following
        // its values: `weapon "Rail Battery" lock 4+ attack 3 damage 1`.
        let inner_schema = field_shape.unwrap_or(&field.schema);
        if field.has_block && node.block.is_none() {
            if let Some((head, inline)) = split_inline(node, takes, inner_schema) {
                let values = self.values(takes, &head, card);
                let owner = format!("`{name}`");
                let inner = self.body(&field.schema, &inline, node.head_span(), card, &owner);
                let inner =
                    self.rules_unless_broken(problems_before, inner_schema, card, inner, &values, node.head_span());
                return Some(Field {
                    name: name.to_string(),
                    values,
                    body: Some(Box::new(inner)),
                    span: node.head_span(),
                });
            }
            // `play gain coin 1`: an effect line written where its block was
            // meant, said so once.
            if inner_schema.effects && self.effect_line_without_block(node, takes.len()) {
                return None;
            }
            // `cost check` where the row has no field `check`: say so,
            // rather than that `cost` takes no values.
            if let Some(word) = unknown_inline_field(node, takes, inner_schema) {
                self.unknown_field(&word, inner_schema, &format!("`{name}`"));
                return None;
            }
        }
        let values = self.values(takes, node, card);
        let inner = match (&node.block, field.has_block) {
            (Some(block), true) => {
                let inner = self.body(&field.schema, &block.nodes, node.head_span(), card, &format!("`{name}`"));
                if block.nodes.is_empty() {
                    self.report(
                        Diagnostic::warning(&codes::EMPTY_BLOCK, format!("`{name}` has an empty block"))
                            .primary(block.span, "nothing in this block")
                            .help("write what it holds, such as an effect line, or remove the line"),
                    );
                }
                Some(inner)
            }
            (None, true) => {
                self.report(
                    Diagnostic::error(&codes::BLOCK_MISMATCH, format!("`{name}` needs a block"))
                        .primary(node.head_span(), "expected `{` after this")
                        .help(format!("write `{} {{ ... }}`", self.files.text(node.head_span()))),
                );
                None
            }
            (Some(block), false) => {
                self.report(
                    Diagnostic::error(&codes::BLOCK_MISMATCH, format!("`{name}` does not take a block"))
                        .primary(block.span, "remove this block"),
                );
                None
            }
            (None, false) => None,
        };
        let inner = inner.map(|inner| {
            self.rules_unless_broken(problems_before, inner_schema, card, inner, &values, node.head_span())
        });
        Some(Field { name: name.to_string(), values, body: inner.map(Box::new), span: node.head_span() })
    }

    /// How to write a block field given twice as one line: `cost check
    /// log 1` for `cost check` and `cost log 1`.
    fn joined_help(&self, name: &str, first: Span, again: &Node) -> String {
        // What follows a line's name, up to the end of its line or block.
        let parts = |name: Span| {
            let text = &self.files.get(name.file).text;
            let rest = text.get(name.end as usize..).unwrap_or("");
            rest.split(['\n', '\r', ';', '{', '}']).next().unwrap_or("").trim()
        };
        let (before, after) = (parts(first), parts(again.name.span));
        let plain = |p: &str| !p.contains(['"', '/']) && !p.is_empty();
        if again.block.is_some() || !plain(before) || !plain(after) {
            return "give its parts together, on one line or in one block".to_string();
        }
        format!("give its parts together, on one line (`{name} {before} {after}`) or in one block")
    }

    /// Whether the values of `node` from position `from` are an effect line
    /// (a role, then its symbol and amount) written without the braces of
    /// the block that holds it; if so, that one mistake is reported.
    pub(super) fn effect_line_without_block(&mut self, node: &Node, from: usize) -> bool {
        let Some(first) = node.values.get(from) else { return false };
        let ValueKind::Ident(role) = &first.kind else { return false };
        if self.ruleset.role(role).is_none() {
            return false;
        }
        let span = node.values.last().and_then(|last| first.span.to(last.span)).unwrap_or(first.span);
        let line = self.files.text(span);
        let written = node.values[..from].iter().map(|v| self.files.text(v.span));
        let head: Vec<&str> = std::iter::once(node.name.text.as_str()).chain(written).collect();
        self.report(
            Diagnostic::error(&codes::BLOCK_MISMATCH, format!("`{line}` is an effect line: it goes in a block"))
                .primary(span, "written without braces")
                .help(format!("write `{} {{ {line} }}`", head.join(" "))),
        );
        true
    }

    /// Reports a line that is no field of the block; gives the field it was
    /// probably meant to be, if any.
    fn unknown_field(&mut self, node: &Node, schema: &Schema, owner_name: &str) -> Option<String> {
        let name = &node.name.text;
        let mut candidates: Vec<&str> = schema.fields.iter().map(|f| f.name.as_str()).collect();
        if schema.effects {
            candidates.extend(self.ruleset.roles.iter().map(|r| r.id.as_str()));
            candidates.extend(effects::CONSTRUCTS);
        }
        // In a block of effects, a line starts with a role as often as a field.
        let (message, label) = match schema.effects {
            true => (format!("`{name}` is no effect role or field of {owner_name}"), "unknown role or field"),
            false => (format!("{owner_name} has no field `{name}`"), "unknown field"),
        };
        let meant = suggest(name, candidates.iter().copied()).map(str::to_string);
        let diagnostic = Diagnostic::error(&codes::UNKNOWN_FIELD, message)
            .primary(node.name.span, label)
            .expected(&candidates, "its kind declares no field: add `field` lines to the kind in the ruleset")
            .suggest(meant.as_deref());
        self.report(diagnostic);
        meant
    }
}

/// The lines of a card's own fields whose names a rule's text reads
/// (`tonnage` in `all(tonnage != H2)`), in the card's order; a field given
/// on several lines (rows) is left out, as the rule may be about any one.
fn named_lines<'b>(rule: &'b str, body: &'b Body) -> impl Iterator<Item = Span> + 'b {
    let words: Vec<&str> = rule.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).collect();
    let once = |name: &str| body.fields.iter().filter(|f| f.name == name).count() == 1;
    body.fields
        .iter()
        .filter(move |f| f.name != "this" && words.contains(&f.name.as_str()) && once(&f.name))
        .map(|f| f.span)
}

/// The value of the first deck-symbol field of a card node, if written.
pub(super) fn deck_symbol(files: &Files, ruleset: &Ruleset, node: &Node, schema: &Schema) -> Option<String> {
    let block = node.block.as_ref()?;
    block.nodes.iter().find_map(|field| {
        let def = schema.field(&field.name.text)?;
        if def.schema.takes.first()?.ty != Type::DeckSymbol {
            return None;
        }
        // By its id, the common case, or as printed, in words or with `&`:
        // `Close Action`, `Missiles & Torpedoes`.
        if let [ast_value] = field.values.as_slice() {
            if let ValueKind::Ident(id) = &ast_value.kind {
                if ruleset.deck_symbols.iter().any(|d| d.id == *id) {
                    return Some(id.clone());
                }
            }
        }
        // A symbol the ruleset does not declare is reported at the card; the
        // card then belongs to no deck symbol in particular.
        let span = field.values.first()?.span.to(field.values.last()?.span)?;
        printed::printed_name_of_run(ruleset, &Type::DeckSymbol, files.text(span))
    })
}

/// Splits `weapon "Name" lock 4+ attack 2` into the head (`weapon "Name"`) and
/// one node per inline field, when every value after the head starts or
/// continues a field of `schema`.
fn split_inline(node: &Node, takes: &[crate::ruleset::model::TypeSpec], schema: &Schema) -> Option<(Node, Vec<Node>)> {
    if takes.iter().any(|t| t.repeat != crate::ruleset::model::Repeat::One) || node.values.len() <= takes.len() {
        return None;
    }
    let is_field = |v: &crate::syntax::ast::Value| matches!(&v.kind, ValueKind::Ident(n) if schema.field(n).is_some());
    let rest = &node.values[takes.len()..];
    if !is_field(&rest[0]) {
        return None;
    }
    let mut inline: Vec<Node> = Vec::new();
    for value in rest {
        match (&value.kind, is_field(value)) {
            (ValueKind::Ident(field), true) => inline.push(Node {
                name: crate::syntax::ast::Name { text: field.clone(), span: value.span },
                values: Vec::new(),
                block: None,
                expr: None,
                span: value.span,
            }),
            _ => {
                let last = inline.last_mut()?;
                last.values.push(value.clone());
                last.span = last.span.to(value.span).unwrap_or(last.span);
            }
        }
    }
    let head = Node { values: node.values[..takes.len()].to_vec(), block: None, ..node.clone() };
    Some((head, inline))
}

/// The first word after a block field's values, written on one line, when
/// it names no field of the block (`cost check` where a cost has no `check`),
/// as a node of its own for the report.
fn unknown_inline_field(node: &Node, takes: &[crate::ruleset::model::TypeSpec], schema: &Schema) -> Option<Node> {
    let word = node.values.get(takes.len())?;
    let ValueKind::Ident(name) = &word.kind else { return None };
    if schema.field(name).is_some() || takes.iter().any(|t| t.repeat != crate::ruleset::model::Repeat::One) {
        return None;
    }
    let name = crate::syntax::ast::Name { text: name.clone(), span: word.span };
    Some(Node { name, values: node.values[takes.len() + 1..].to_vec(), block: None, expr: None, span: word.span })
}

/// `allow LINT…`, `warn LINT…` or `deny LINT…`: lint levels for one card or
/// deck.  The lint names are checked by the lint pass.
pub(super) fn lint_level_line(node: &Node) -> Option<Vec<ir::LintLevel>> {
    let level = ir::Level::parse(&node.name.text)?;
    Some(
        node.values
            .iter()
            .filter_map(|v| match &v.kind {
                ValueKind::Ident(lint) => Some(ir::LintLevel { level, lint: lint.clone(), span: v.span }),
                _ => None,
            })
            .collect(),
    )
}

/// The diagnostic of a card rule that does not hold on a card at `at`:
/// at the hexes at fault (a hex function's), else at the lines an
/// `each-row` found not to match, else at the card with what was counted,
/// and the lines of the fields the rule reads.
fn broken_card_rule(
    rule: &crate::ruleset::model::Constraint,
    card: &str,
    evaluation: &Evaluation,
    body: &Body,
    at: Span,
) -> Diagnostic {
    let code = match rule.severity {
        crate::diagnostics::Severity::Error => &codes::CARD_RULE_BROKEN,
        crate::diagnostics::Severity::Warning => &codes::CARD_RULE_ADVICE,
    };
    let diagnostic = Diagnostic::new(code, rule.severity, format!("`{card}` breaks a rule: {}", rule.message));
    let on_card = |d: Diagnostic| d.secondary(at, "on this card");
    let at_positions = evaluation.positions.split_first().map(|((head, label), rest)| {
        let d = diagnostic.clone().primary(*head, label.as_str());
        on_card(rest.iter().take(5).fold(d, |d, (span, label)| d.secondary(*span, label.as_str())))
    });
    let at_rows = || {
        evaluation.failing_rows.split_first().map(|(head, rest)| {
            let d = diagnostic.clone().primary(*head, "this line");
            on_card(rest.iter().take(3).fold(d, |d, s| d.secondary(*s, "and this line")))
        })
    };
    at_positions.or_else(at_rows).unwrap_or_else(|| {
        named_lines(&rule.text, body)
            .take(3)
            .fold(diagnostic.primary(at, evaluation.summary()), |d, line| d.secondary(line, "this line"))
    })
}
