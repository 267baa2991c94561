//! Construction-rule expressions: checked once when the ruleset loads
//! ([`validate`]), then evaluated over the cards of each deck ([`Evaluation`]).
//!
//! Functions count over the deck's pool of cards; their arguments are
//! *filters*: a kind, tag or keyword name (`offense`, `primary`, `rare`), a
//! field test (`tonnage == L`; `symbol != deck` compares with the deck's own
//! symbol; `cost >= 2` compares a card that has the field by its number), or
//! filters joined with `and`, `or` and `not`.  A card matches when
//! any filter argument matches; no filter matches every card.  A field name as
//! a filter matches the cards that have that field.
//!
//! Rules inside a card kind or a block shape are evaluated on one card (or
//! block) at a time; `value(FIELD, N)` reads the N-th number of a field there.

use super::codes;
use super::model::{Ruleset, Type};
use super::names::suggest;
use crate::diagnostics::Diagnostic;
use crate::ir::{Card, Value};
use crate::source::Span;
use crate::syntax::ast::{BinOp, Expr, Name};
use std::collections::BTreeMap;

/// The rule functions, with what their arguments are.
const FUNCTIONS: &[(&str, Args)] = &[
    ("count", Args::Filters),
    ("distinct", Args::Filters),
    ("groups", Args::Filters),
    ("max-copies", Args::Filters),
    ("max-groups", Args::Filters),
    ("all", Args::Filters),
    ("any", Args::Filters),
    ("sum", Args::FieldThenFilters),
    ("sum-rows", Args::FieldThenNames),
    ("subset", Args::TwoFieldsThenFilters),
    ("values", Args::FieldThenFilters),
    ("out-of-range", Args::FieldThenFilters),
    ("decks", Args::DeckTypes),
    ("every", Args::Expression),
    ("value", Args::FieldThenIndex),
];

#[derive(Clone, Copy, PartialEq)]
enum Args {
    Filters,
    FieldThenFilters,
    FieldThenNames,
    TwoFieldsThenFilters,
    DeckTypes,
    Expression,
    FieldThenIndex,
}

/// Checks rule expressions against the names of one ruleset, gathered once
/// for all its rules.
pub(super) struct Validator<'r> {
    /// Every field name the ruleset declares, at any depth.
    fields: Vec<&'r str>,
    /// What a filter may name: kinds, tags, keywords and fields.
    filters: Vec<&'r str>,
    deck_types: Vec<&'r str>,
    /// The names each field may hold, where the ruleset declares them all
    /// (enum values, symbols, arcs…): a field test naming any other value
    /// could never hold.  Fields of free names or numbers are not listed.
    field_values: BTreeMap<&'r str, Vec<&'r str>>,
}

impl<'r> Validator<'r> {
    pub fn new(ruleset: &'r Ruleset) -> Self {
        let fields = field_names(ruleset);
        let filters = ruleset
            .kinds
            .iter()
            .map(|k| k.id.as_str())
            .chain(ruleset.tags.iter().map(|t| t.id.as_str()))
            .chain(ruleset.keywords.iter().map(|k| k.id.as_str()))
            .chain(fields.iter().copied())
            .collect();
        let deck_types = ruleset.deck_types.iter().map(|d| d.id.as_str()).collect();
        Validator { fields, filters, deck_types, field_values: field_values(ruleset) }
    }

    /// Checks an expression: its functions, their arguments and its names.
    /// The recursion is as deep as the expression nests, which the reader
    /// bounds.
    pub fn validate(&self, expr: &Expr, diagnostics: &mut Vec<Diagnostic>) {
        match expr {
            Expr::Int(..) => {}
            Expr::Name(name) => diagnostics.push(
                Diagnostic::error(&codes::BAD_RULESET, format!("`{}` is not a value in a rule", name.text))
                    .primary(name.span, "expected a number or a function such as `count(offense)`")
                    .help(format!(
                        "count the cards it matches with `count({0})`; in a kind's rule, `all({0})` requires it of \
                         the card",
                        name.text
                    )),
            ),
            Expr::Not(inner, _) | Expr::Group(inner, _) => self.validate(inner, diagnostics),
            Expr::Chain { first, rest, .. } => {
                self.validate(first, diagnostics);
                for (_, operand) in rest {
                    self.validate(operand, diagnostics);
                }
            }
            Expr::Call { name, args, .. } => self.call(name, args, diagnostics),
        }
    }

    fn call(&self, name: &Name, args: &[Expr], diagnostics: &mut Vec<Diagnostic>) {
        let Some((_, shape)) = FUNCTIONS.iter().find(|(f, _)| *f == name.text) else {
            let names = FUNCTIONS.iter().map(|(f, _)| *f);
            diagnostics.push(
                Diagnostic::error(&codes::BAD_RULESET, format!("`{}` is not a rule function", name.text))
                    .primary(name.span, "unknown function")
                    .note(format!(
                        "rule functions: {}",
                        FUNCTIONS.iter().map(|(f, _)| *f).collect::<Vec<_>>().join(", ")
                    ))
                    .suggest(suggest(&name.text, names)),
            );
            return;
        };
        let fields = field_count(*shape);
        if args.len() < fields || (*shape == Args::Expression && args.len() != 1) {
            diagnostics.push(
                Diagnostic::error(&codes::BAD_RULESET, format!("`{}` is missing its arguments", name.text))
                    .primary(name.span, "expected more arguments"),
            );
            return;
        }
        for (i, arg) in args.iter().enumerate() {
            match (*shape, i < fields) {
                (Args::Expression, _) => self.validate(arg, diagnostics),
                (_, true) => expect_name(arg, &self.fields, "a field", diagnostics),
                (Args::DeckTypes, _) => expect_name(arg, &self.deck_types, "a deck type", diagnostics),
                (Args::FieldThenNames, _) => expect_name(arg, &[], "a name", diagnostics),
                (Args::FieldThenIndex, _) => {
                    if !matches!(arg.unparen(), Expr::Int(n, _) if *n >= 1) {
                        diagnostics.push(
                            Diagnostic::error(&codes::BAD_RULESET, "`value` takes a field and a position from 1")
                                .primary(arg.span(), "expected a position such as `1`"),
                        );
                    }
                }
                _ => self.filter(arg, diagnostics),
            }
        }
    }

    /// A filter: a name, a field test, or filters joined by `and`, `or`
    /// and `not`.
    fn filter(&self, arg: &Expr, diagnostics: &mut Vec<Diagnostic>) {
        match arg {
            Expr::Name(_) => expect_name(arg, &self.filters, "a kind, tag, keyword or field", diagnostics),
            Expr::Not(inner, _) | Expr::Group(inner, _) => self.filter(inner, diagnostics),
            Expr::Chain { first, rest, .. } if rest.iter().all(|(op, _)| matches!(op, BinOp::And | BinOp::Or)) => {
                self.filter(first, diagnostics);
                for (_, operand) in rest {
                    self.filter(operand, diagnostics);
                }
            }
            Expr::Chain { first, rest, span } => match rest.as_slice() {
                [(BinOp::Eq | BinOp::Ne, value)] => {
                    expect_name(first, &self.fields, "a field", diagnostics);
                    match value.unparen() {
                        Expr::Name(name) => self.field_value(first, name, diagnostics),
                        Expr::Int(..) => {}
                        _ => diagnostics.push(
                            Diagnostic::error(&codes::BAD_RULESET, "a field test compares with a name or a number")
                                .primary(value.span(), "expected a name or a number"),
                        ),
                    }
                }
                [(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, value)] => {
                    expect_name(first, &self.fields, "a field", diagnostics);
                    if !matches!(value.unparen(), Expr::Int(..)) {
                        diagnostics.push(
                            Diagnostic::error(&codes::BAD_RULESET, "a field is compared in size with a number")
                                .primary(value.span(), "expected a number")
                                .help("`count(cost >= 2)` counts the cards whose cost is 2 or more"),
                        );
                    }
                }
                _ if rest.iter().all(|(op, _)| op.precedence() == BinOp::Eq.precedence()) => diagnostics.push(
                    Diagnostic::error(&codes::BAD_RULESET, "a field test compares one field with one value")
                        .primary(*span, "more than one comparison")
                        .help("join field tests with `and` or `or`: `a == x and b >= 2`"),
                ),
                _ => not_a_filter(arg, diagnostics),
            },
            _ => not_a_filter(arg, diagnostics),
        }
    }
}

impl Validator<'_> {
    /// `field == name`: the name must be one the field can hold, when the
    /// ruleset declares them all; `deck` stands for the deck's own symbol.
    fn field_value(&self, field: &Expr, value: &Name, diagnostics: &mut Vec<Diagnostic>) {
        let Expr::Name(field) = field.unparen() else { return };
        let Some(allowed) = self.field_values.get(field.text.as_str()) else { return };
        if value.text == "deck" || allowed.contains(&value.text.as_str()) {
            return;
        }
        diagnostics.push(
            Diagnostic::error(
                &codes::BAD_RULESET,
                format!("`{}` is not a value `{}` can hold, so this test never holds", value.text, field.text),
            )
            .primary(value.span, format!("`{}` holds one of: {}", field.text, allowed.join(", ")))
            .suggest(suggest(&value.text, allowed.iter().copied())),
        );
    }
}

/// The names each field may hold, for the fields whose every declaration
/// takes only declared names (see [`Validator::field_values`]).
fn field_values(ruleset: &Ruleset) -> BTreeMap<&str, Vec<&str>> {
    let mut declared: BTreeMap<&str, Option<Vec<&str>>> = BTreeMap::new();
    let mut schemas: Vec<&super::model::Schema> = ruleset.kinds.iter().map(|k| &k.schema).collect();
    schemas.extend(ruleset.shapes.iter().map(|(_, s)| s));
    while let Some(schema) = schemas.pop() {
        for field in &schema.fields {
            schemas.push(&field.schema);
            let shape = field.schema.shape.as_deref().and_then(|s| ruleset.shape(s)).unwrap_or(&field.schema);
            let names = shape.takes.iter().map(|t| declared_names(ruleset, &t.ty)).collect::<Option<Vec<_>>>();
            let names = names.map(|lists| lists.concat()).filter(|n| !n.is_empty());
            let entry = declared.entry(field.name.as_str()).or_insert_with(|| Some(Vec::new()));
            match (entry.as_mut(), names) {
                (Some(all), Some(names)) => all.extend(names),
                _ => *entry = None,
            }
        }
    }
    declared
        .into_iter()
        .filter_map(|(field, names)| {
            let mut names = names?;
            names.sort_unstable();
            names.dedup();
            Some((field, names))
        })
        .collect()
}

/// Every name a value of this type can be, when the ruleset declares them
/// all; `None` for numbers, text and names the ruleset does not list.
fn declared_names<'r>(ruleset: &'r Ruleset, ty: &Type) -> Option<Vec<&'r str>> {
    let ids = |named: &'r [super::model::Named]| Some(named.iter().map(|n| n.id.as_str()).collect());
    match ty {
        Type::Enum(id) | Type::Set(id) => {
            ruleset.enums.iter().find(|e| &e.id == id).map(|e| e.values.iter().map(String::as_str).collect())
        }
        Type::Symbol => ids(&ruleset.symbols),
        Type::Arc => ids(&ruleset.arcs),
        Type::RangeBand => Some(ruleset.ranges.iter().map(|b| b.id.as_str()).collect()),
        Type::DeckSymbol => Some(ruleset.deck_symbols.iter().map(|d| d.id.as_str()).collect()),
        Type::Kind => Some(ruleset.kinds.iter().map(|k| k.id.as_str()).collect()),
        Type::Tag => Some(ruleset.tags.iter().map(|t| t.id.as_str()).collect()),
        _ => None,
    }
}

fn not_a_filter(arg: &Expr, diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.push(
        Diagnostic::error(&codes::BAD_RULESET, "expected a filter: a kind, tag or keyword, or `field == value`")
            .primary(arg.span(), "not a filter"),
    );
}

fn field_count(shape: Args) -> usize {
    match shape {
        Args::FieldThenFilters | Args::FieldThenNames | Args::FieldThenIndex => 1,
        Args::TwoFieldsThenFilters => 2,
        _ => 0,
    }
}

/// Every field name the ruleset declares, at any depth.
fn field_names(ruleset: &Ruleset) -> Vec<&str> {
    // `this`: a block's own values, in rules declared inside the block.
    let mut names: Vec<&str> = vec!["this"];
    let mut schemas: Vec<&super::model::Schema> = ruleset.kinds.iter().map(|k| &k.schema).collect();
    schemas.extend(ruleset.shapes.iter().map(|(_, s)| s));
    while let Some(schema) = schemas.pop() {
        for field in &schema.fields {
            names.push(&field.name);
            schemas.push(&field.schema);
        }
    }
    names.sort();
    names.dedup();
    names
}

/// `arg` must be a name, in brackets or not; from `allowed` unless `allowed`
/// is empty.
fn expect_name(arg: &Expr, allowed: &[&str], what: &str, diagnostics: &mut Vec<Diagnostic>) {
    match arg.unparen() {
        Expr::Name(name) if allowed.is_empty() || allowed.contains(&name.text.as_str()) => {}
        Expr::Name(name) => diagnostics.push(
            Diagnostic::error(&codes::BAD_RULESET, format!("`{}` is not {what} of this ruleset", name.text))
                .primary(name.span, format!("expected {what}"))
                .suggest(suggest(&name.text, allowed.iter().copied())),
        ),
        other => diagnostics.push(
            Diagnostic::error(&codes::BAD_RULESET, format!("expected {what} here")).primary(other.span(), "not a name"),
        ),
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct PoolEntry {
    pub card: usize,
    pub count: i64,
    pub span: Span,
}

/// The cards a rule counts: the deck's entries with copy counts (those of
/// included decks merged in), and each included deck's own pool.
#[derive(Debug, Default)]
pub(super) struct Pool {
    pub entries: Vec<PoolEntry>,
    pub included: Vec<Included>,
    /// The deck's own value of its match field (its symbol), for `deck`.
    pub own: Option<String>,
}

#[derive(Debug)]
pub(super) struct Included {
    pub deck_type: crate::ir::DeckTypeId,
    pub span: Span,
    pub pool: Pool,
}

pub(super) struct Evaluation<'a> {
    ruleset: &'a Ruleset,
    cards: &'a [Card],
    /// Each function call and what it counted, for the diagnostic.
    pub counted: Vec<(&'a Expr, i64)>,
    /// Lines of the deck responsible for a failure, when a function knows.
    pub culprits: Vec<Span>,
}

/// How many counts a summary names; a rule of thousands of calls is summed
/// up by the first ones.
const SUMMARY_PARTS: usize = 8;

impl<'a> Evaluation<'a> {
    pub fn new(ruleset: &'a Ruleset, cards: &'a [Card]) -> Self {
        Evaluation { ruleset, cards, counted: Vec::new(), culprits: Vec::new() }
    }

    pub fn holds(&mut self, expr: &'a Expr, pool: &Pool) -> bool {
        self.eval(expr, pool) != 0
    }

    /// "here count() is 26"-style summary of what was counted, each count
    /// once.
    pub fn summary(&self) -> String {
        let mut seen = std::collections::HashSet::new();
        let mut parts: Vec<String> = Vec::new();
        let mut more = 0usize;
        for (call, n) in &self.counted {
            let part = format!("{call} is {n}");
            if !seen.insert(part.clone()) {
                continue;
            }
            if parts.len() < SUMMARY_PARTS {
                parts.push(part);
            } else {
                more += 1;
            }
        }
        if more > 0 {
            parts.push(format!("and {more} more"));
        }
        if parts.is_empty() {
            "here".to_string()
        } else {
            format!("here {}", parts.join(", "))
        }
    }

    /// The value of an expression over `pool`: truth is 1 or 0, sums and
    /// products stop at the largest number.  The recursion is as deep as the
    /// expression nests, which the reader bounds.
    pub fn eval(&mut self, expr: &'a Expr, pool: &Pool) -> i64 {
        match expr {
            Expr::Int(n, _) => *n,
            Expr::Name(_) => 0,
            Expr::Not(inner, _) => i64::from(self.eval(inner, pool) == 0),
            Expr::Group(inner, _) => self.eval(inner, pool),
            Expr::Chain { first, rest, .. } => {
                let mut value = self.eval(first, pool);
                for (op, operand) in rest {
                    value = match op {
                        // `and`/`or` short-circuit so only the deciding side
                        // is reported.
                        BinOp::And if value == 0 => 0,
                        BinOp::Or if value != 0 => 1,
                        _ => apply(*op, value, self.eval(operand, pool)),
                    };
                }
                value
            }
            Expr::Call { name, args, .. } => {
                let value = self.call(&name.text, args, pool);
                if name.text != "every" {
                    self.counted.push((expr, value));
                }
                value
            }
        }
    }

    fn call(&mut self, function: &str, args: &'a [Expr], pool: &Pool) -> i64 {
        let field = |i: usize| args.get(i).and_then(name_of).unwrap_or("");
        match function {
            "count" => total(self.matching(args, pool).map(|e| e.count)),
            "groups" => self.matching(args, pool).count() as i64,
            "distinct" => self.per_name(args, pool).len() as i64,
            "max-copies" | "max-groups" => {
                let copies = function == "max-copies";
                let per_name = self.per_name(args, pool);
                let size = |(copies_n, spans): &(i64, Vec<Span>)| if copies { *copies_n } else { spans.len() as i64 };
                let max = per_name.values().map(size).max().unwrap_or(0);
                self.culprits =
                    per_name.into_values().filter(|v| size(v) == max && max > 0).flat_map(|(_, spans)| spans).collect();
                max
            }
            "all" => i64::from(self.matching(args, pool).count() == pool.entries.len()),
            "any" => i64::from(self.matching(args, pool).next().is_some()),
            "sum" => {
                let field = field(0);
                total(
                    self.matching(&args[1..], pool)
                        .map(|e| self.field_number(&self.cards[e.card], field).saturating_mul(e.count)),
                )
            }
            "sum-rows" => {
                let field = field(0);
                let wanted: Vec<&str> = args[1..].iter().filter_map(name_of).collect();
                total(
                    pool.entries
                        .iter()
                        .map(|e| self.row_sum(&self.cards[e.card], field, &wanted).saturating_mul(e.count)),
                )
            }
            "subset" => self.subset(field(0), field(1), &args[2..], pool),
            "values" => {
                let field = field(0);
                let mut values: Vec<String> =
                    self.matching(&args[1..], pool).flat_map(|e| names_in(&self.cards[e.card], field)).collect();
                values.sort();
                values.dedup();
                values.len() as i64
            }
            "out-of-range" => {
                let field = field(0);
                let failing: Vec<Span> = self
                    .matching(&args[1..], pool)
                    .filter(|e| {
                        let card = &self.cards[e.card];
                        card.field(field).and_then(|f| f.first_value()).is_some_and(|v| match v {
                            Value::Range { low, high } => e.count < *low || high.is_some_and(|h| e.count > h),
                            _ => false,
                        })
                    })
                    .map(|e| e.span)
                    .collect();
                let n = failing.len() as i64;
                self.culprits = failing;
                n
            }
            "decks" => {
                let types: Vec<&str> = args.iter().filter_map(name_of).collect();
                pool.included.iter().filter(|d| types.is_empty() || types.contains(&d.deck_type.id())).count() as i64
            }
            "value" => {
                let position = match args.get(1).map(Expr::unparen) {
                    Some(Expr::Int(n, _)) => (*n).max(1) as usize - 1,
                    _ => 0,
                };
                let Some(entry) = pool.entries.first() else { return 0 };
                let values = self.cards[entry.card].field(field(0)).map(|f| f.values.as_slice()).unwrap_or_default();
                values.iter().map(|v| &v.value).filter_map(number).nth(position).unwrap_or(0)
            }
            "every" => {
                let Some(inner) = args.first() else { return 1 };
                let mut failing = Vec::new();
                for deck in &pool.included {
                    let mut nested = Evaluation::new(self.ruleset, self.cards);
                    if !nested.holds(inner, &deck.pool) {
                        failing.push(deck.span);
                        self.counted.extend(nested.counted);
                    }
                }
                let holds = failing.is_empty();
                self.culprits = failing;
                i64::from(holds)
            }
            _ => 0,
        }
    }

    fn matching<'p>(&'p self, filters: &'p [Expr], pool: &'p Pool) -> impl Iterator<Item = &'p PoolEntry> + 'p {
        pool.entries
            .iter()
            .filter(move |e| filters.is_empty() || filters.iter().any(|f| self.matches(&self.cards[e.card], f, pool)))
    }

    fn matches(&self, card: &Card, filter: &Expr, pool: &Pool) -> bool {
        match filter {
            Expr::Not(inner, _) => !self.matches(card, inner, pool),
            Expr::Group(inner, _) => self.matches(card, inner, pool),
            Expr::Name(name) => {
                let n = name.text.as_str();
                // A kind, tag or keyword first; a field name only when the
                // name is none of those (a name may be both).
                let vocabulary = self.ruleset.kind(n).is_some()
                    || self.ruleset.tag(n).is_some()
                    || self.ruleset.keyword(n).is_some();
                card.kind == n
                    || card.tags.iter().any(|t| t == n)
                    || card_keywords(card).any(|k| k == n)
                    || (!vocabulary && card.body.fields.iter().any(|f| f.name == n))
            }
            Expr::Chain { first, rest, .. } => match rest.as_slice() {
                [(op @ (BinOp::Eq | BinOp::Ne), value)] => {
                    let found = self.field_has(card, first, value, pool);
                    found == (*op == BinOp::Eq)
                }
                [(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), value)] => {
                    match (first.unparen(), value.unparen()) {
                        (Expr::Name(field), Expr::Int(bound, _)) => {
                            let held = card.body.fields.iter().any(|f| f.name == field.text);
                            held && apply(*op, self.field_number(card, &field.text), *bound) != 0
                        }
                        _ => false,
                    }
                }
                _ => rest.iter().fold(self.matches(card, first, pool), |held, (op, operand)| match op {
                    BinOp::And => held && self.matches(card, operand, pool),
                    BinOp::Or => held || self.matches(card, operand, pool),
                    _ => false,
                }),
            },
            _ => false,
        }
    }

    /// `field == value`: whether the card's field holds the value (`deck`
    /// standing for the deck's own symbol).
    fn field_has(&self, card: &Card, field: &Expr, value: &Expr, pool: &Pool) -> bool {
        let Expr::Name(field) = field.unparen() else { return false };
        let value = value.unparen();
        let want_name = match value {
            Expr::Name(want) if want.text == "deck" => pool.own.as_deref(),
            Expr::Name(want) => Some(want.text.as_str()),
            _ => None,
        };
        card.body.fields.iter().filter(|f| f.name == field.text).flat_map(|f| f.each_value()).any(|v| {
            match (want_name, value, v) {
                (Some(want), _, Value::Name(have)) => want == have,
                (Some(want), _, Value::Keyword { id, .. }) => want == id,
                (Some(want), _, Value::Set(items)) => items.iter().any(|i| i == want),
                (_, Expr::Int(want, _), Value::Int(have)) => want == have,
                _ => false,
            }
        })
    }

    fn per_name<'p>(&'p self, filters: &'p [Expr], pool: &'p Pool) -> BTreeMap<&'a str, (i64, Vec<Span>)> {
        let cards: &'a [Card] = self.cards;
        let mut per_name: BTreeMap<&'a str, (i64, Vec<Span>)> = BTreeMap::new();
        for entry in self.matching(filters, pool) {
            let slot = per_name.entry(cards[entry.card].name.as_str()).or_default();
            slot.0 = slot.0.saturating_add(entry.count);
            slot.1.push(entry.span);
        }
        per_name
    }

    /// A field as a number: integers as written; enum values by their weight.
    fn field_number(&self, card: &Card, field: &str) -> i64 {
        let weights = self.enum_of(card, field);
        card.body
            .fields
            .iter()
            .filter(|f| f.name == field)
            .flat_map(|f| f.each_value())
            .map(|v| match v {
                Value::Int(n) | Value::Signed(n) => *n,
                Value::Name(name) => weights.and_then(|e| e.weight(name)).unwrap_or(0),
                _ => 0,
            })
            .fold(0, i64::saturating_add)
    }

    fn enum_of(&self, card: &Card, field: &str) -> Option<&'a super::model::EnumDef> {
        let ruleset: &'a Ruleset = self.ruleset;
        let def = ruleset.kind_of(&card.kind)?.schema.field(field)?;
        match &def.schema.takes.first()?.ty {
            Type::Enum(id) => ruleset.enums.iter().find(|e| &e.id == id),
            _ => None,
        }
    }

    /// The numbers on the rows of a table field that mention any wanted name.
    fn row_sum(&self, card: &Card, field: &str, wanted: &[&str]) -> i64 {
        let mentions = |v: &Value| match v {
            Value::Name(n) => wanted.contains(&n.as_str()),
            Value::Set(items) => items.iter().any(|i| wanted.contains(&i.as_str())),
            _ => false,
        };
        card.body
            .fields
            .iter()
            .filter(|f| f.name == field && f.each_value().any(mentions))
            .flat_map(|f| f.each_value())
            .map(|v| if let Value::Int(n) = v { *n } else { 0 })
            .fold(0, i64::saturating_add)
    }

    /// Whether every card's `needs` values (with multiplicity) are each found
    /// in the `has` field of at least as many cards matching the filters.
    fn subset(&mut self, needs: &str, has: &str, filters: &[Expr], pool: &Pool) -> i64 {
        let mut providers: BTreeMap<String, i64> = BTreeMap::new();
        for entry in self.matching(filters, pool) {
            let card = &self.cards[entry.card];
            let mut values: Vec<String> = names_in(card, has).collect();
            values.sort();
            values.dedup();
            for value in values {
                *providers.entry(value).or_default() += 1;
            }
        }
        let mut failing = Vec::new();
        for entry in &pool.entries {
            let mut wanted: BTreeMap<String, i64> = BTreeMap::new();
            for value in names_in(&self.cards[entry.card], needs) {
                *wanted.entry(value).or_default() += 1;
            }
            if wanted.iter().any(|(v, n)| providers.get(v).copied().unwrap_or(0) < *n) {
                failing.push(entry.span);
            }
        }
        let holds = failing.is_empty();
        self.culprits = failing;
        i64::from(holds)
    }
}

fn name_of(expr: &Expr) -> Option<&str> {
    match expr.unparen() {
        Expr::Name(name) => Some(&name.text),
        _ => None,
    }
}

/// `l op r`; `and` and `or` come here only when `l` did not decide.
fn apply(op: BinOp, l: i64, r: i64) -> i64 {
    match op {
        BinOp::Or | BinOp::And => i64::from(r != 0),
        BinOp::Eq => i64::from(l == r),
        BinOp::Ne => i64::from(l != r),
        BinOp::Le => i64::from(l <= r),
        BinOp::Ge => i64::from(l >= r),
        BinOp::Lt => i64::from(l < r),
        BinOp::Gt => i64::from(l > r),
        BinOp::Add => l.saturating_add(r),
        BinOp::Sub => l.saturating_sub(r),
        BinOp::Mul => l.saturating_mul(r),
        BinOp::Div => l.checked_div(r).unwrap_or(0),
    }
}

fn names_in<'c>(card: &'c Card, field: &'c str) -> impl Iterator<Item = String> + 'c {
    card.body.fields.iter().filter(move |f| f.name == field).flat_map(|f| f.each_value()).flat_map(|v| match v {
        Value::Name(n) => vec![n.clone()],
        Value::Set(items) => items.clone(),
        _ => Vec::new(),
    })
}

fn card_keywords(card: &Card) -> impl Iterator<Item = &str> {
    card.body.fields.iter().flat_map(|f| f.each_value()).filter_map(|v| match v {
        Value::Keyword { id, .. } => Some(id.as_str()),
        _ => None,
    })
}

/// A value as a number, for `value(FIELD, N)`.
fn number(value: &Value) -> Option<i64> {
    match value {
        Value::Int(n) | Value::Signed(n) => Some(*n),
        Value::Initiative(crate::ir::Initiative::Step(tenths)) => Some(*tenths),
        Value::Save { save, .. } => Some(*save),
        _ => None,
    }
}

/// A sum that stops at the largest number rather than overflowing: card
/// values and copy counts are the user's, and may be absurd.
fn total(numbers: impl Iterator<Item = i64>) -> i64 {
    numbers.fold(0, i64::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Body;
    use crate::source::Files;
    use crate::syntax::ast::MAX_EXPR_DEPTH;

    /// A ruleset of one kind of card and the given lines, read and checked.
    fn ruleset(lines: &str) -> (Ruleset, Vec<Diagnostic>) {
        let mut files = Files::new();
        let text = format!(
            "ruleset chains {{\n  title \"Chains\"\n}}\n\nkind token \"Token\" {{\n  field worth int\n}}\n\n{lines}\n"
        );
        let id = files.add("chains.rules", text);
        let mut diagnostics = Vec::new();
        let tree = crate::syntax::parse(&files, id, &mut diagnostics);
        let ruleset = super::super::ruleset::load(&files, id, &tree, &[], &mut diagnostics);
        (ruleset.unwrap_or_else(|| panic!("no ruleset: {diagnostics:?}")), diagnostics)
    }

    fn token() -> Card {
        let span = Span::new(crate::source::FileId(0), 0, 0);
        Card {
            name: "A".to_string(),
            kind: crate::ir::KindId::new(0, "token"),
            tags: Vec::new(),
            body: Body::default(),
            span,
            extent: span,
            lint_levels: Vec::new(),
        }
    }

    /// The value of `rule` over a pool of one card, and the evaluation's
    /// summary.
    fn evaluate(rule: &str) -> (i64, String) {
        let (ruleset, diagnostics) = ruleset(&format!("play-limit \"rule\" {rule}"));
        assert!(diagnostics.is_empty(), "{:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
        let cards = [token()];
        let pool = Pool {
            entries: vec![PoolEntry { card: 0, count: 1, span: Span::new(crate::source::FileId(0), 0, 0) }],
            ..Pool::default()
        };
        let mut evaluation = Evaluation::new(&ruleset, &cards);
        let value = evaluation.eval(&ruleset.play_limits[0].expr, &pool);
        (value, evaluation.summary())
    }

    fn joined(term: &str, op: &str, n: usize) -> String {
        vec![term; n].join(op)
    }

    #[test]
    fn long_chains_fold_from_the_left() {
        assert_eq!(evaluate(&joined("1", " + ", 100_000)).0, 100_000);
        assert_eq!(evaluate(&format!("200000 - {}", joined("1", " - ", 100_000))).0, 100_000);
        assert_eq!(evaluate(&format!("{} * 2", joined("1", " * ", 100_000))).0, 2);
        assert_eq!(evaluate(&joined("1", " and ", 100_000)).0, 1);
        assert_eq!(evaluate(&format!("{} and 0", joined("1", " and ", 100_000))).0, 0);
        assert_eq!(evaluate(&format!("{} or 7", joined("0", " or ", 100_000))).0, 1);
        assert_eq!(evaluate(&joined("0", " or ", 100_000)).0, 0);
        // Each term is 1 and binds tighter than `==`: 1 == 1 == … holds.
        assert_eq!(evaluate(&joined("2 * 3 - 10 / 2", " == ", 100_000)).0, 1);
        // (2 == 1) is 0, and 0 == 1 is 0 again, all the way.
        assert_eq!(evaluate(&format!("2 == {}", joined("2 * 3 - 10 / 2", " == ", 100_000))).0, 0);
        assert_eq!(evaluate("7 - 2 - 1 == 4 != 0 < 2").0, 1);
    }

    #[test]
    fn sums_stop_at_the_largest_number() {
        let max = i64::MAX.to_string();
        assert_eq!(evaluate(&joined(&max, " + ", 100_000)).0, i64::MAX);
        assert_eq!(evaluate(&format!("0 - {}", joined(&max, " - ", 1_000))).0, i64::MIN);
        assert_eq!(evaluate(&joined(&max, " * ", 1_000)).0, i64::MAX);
        assert_eq!(evaluate("7 / 0").0, 0);
    }

    #[test]
    fn filters_join_and_nest() {
        assert_eq!(evaluate("count(token and not (worth or token))").0, 0);
        assert_eq!(evaluate("count(not (token and worth))").0, 1);
        assert_eq!(evaluate(&format!("count({})", joined("worth", " or ", 10_000) + " or token")).0, 1);
        assert_eq!(evaluate(&format!("count({})", joined("token", " and ", 10_000) + " and worth")).0, 0);
        let (value, summary) = evaluate("all(not (token and not worth))");
        assert_eq!(value, 0);
        // Brackets are kept: without them the rule would say another thing.
        assert_eq!(summary, "here all(not (token and not worth)) is 0");
    }

    #[test]
    fn and_and_or_stop_at_the_deciding_side() {
        assert_eq!(evaluate("count(worth) == 1 and count() == 1").1, "here count(worth) is 0");
        assert_eq!(evaluate("count() == 1 or count(worth) == 1").1, "here count() is 1");
    }

    #[test]
    fn a_summary_names_the_first_counts() {
        let calls: Vec<String> = (1..=20).map(|i| format!("value(worth, {i})")).collect();
        let (_, summary) = evaluate(&calls.join(" + "));
        assert!(summary.starts_with("here value(worth, 1) is 0, value(worth, 2) is 0"), "{summary}");
        assert!(summary.ends_with("value(worth, 8) is 0, and 12 more"), "{summary}");
        let (_, summary) = evaluate(&joined("count()", " + ", 100_000));
        assert_eq!(summary, "here count() is 1");
    }

    #[test]
    fn the_deepest_rules_check_on_a_small_stack() {
        // Every level of nesting holds a run of each precedence.
        let depth = MAX_EXPR_DEPTH;
        let rule = format!("{}1{}", "1 or 1 and 1 == 1 + 1 * (".repeat(depth), ")".repeat(depth));
        let filter = format!("count({}token{})", "token and (worth or ".repeat(depth - 1), ")".repeat(depth - 1));
        // A quarter of the stack a worker thread gets by default.
        let small = std::thread::Builder::new().stack_size(512 * 1024);
        let values = small
            .spawn(move || (evaluate(&rule).0, evaluate(&filter).0))
            .and_then(|thread| thread.join().map_err(|_| std::io::Error::other("overflow")));
        assert_eq!(values.ok(), Some((1, 1)));
    }

    #[test]
    fn mistakes_in_long_rules_are_each_reported() {
        let (_, diagnostics) = ruleset(&format!("play-limit \"rule\" {}", joined("x", " + ", 1_000)));
        assert_eq!(diagnostics.len(), 1_000);
        assert!(diagnostics.iter().all(|d| d.message == "`x` is not a value in a rule"));
        let (_, diagnostics) = ruleset("play-limit \"rule\" count(worth == 1 == 2)");
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].message, "a field test compares one field with one value");
    }
}
