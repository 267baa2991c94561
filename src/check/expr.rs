//! Construction-rule expressions: checked once when the ruleset loads
//! ([`validate`]), then evaluated over the cards of each deck ([`Evaluation`]).
//!
//! Functions count over the deck's pool of cards; their arguments are
//! *filters*: a kind, tag or keyword name (`offense`, `primary`, `rare`), a
//! field test (`tonnage == L`; `symbol != deck` compares with the deck's own
//! symbol), or filters joined with `and`, `or` and `not`.  A card matches when
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

/// Checks an expression against the ruleset's names.
pub fn validate(expr: &Expr, ruleset: &Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    match expr {
        Expr::Int(..) => {}
        Expr::Name(name) => diagnostics.push(
            Diagnostic::error(&codes::BAD_RULESET, format!("`{}` is not a value in a rule", name.text))
                .primary(name.span, "expected a number or a function such as `count(offense)`"),
        ),
        Expr::Not(inner, _) => validate(inner, ruleset, diagnostics),
        Expr::Binary { lhs, rhs, .. } => {
            validate(lhs, ruleset, diagnostics);
            validate(rhs, ruleset, diagnostics);
        }
        Expr::Call { name, args, .. } => {
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
                    (Args::Expression, _) => validate(arg, ruleset, diagnostics),
                    (_, true) => expect_name(arg, &field_names(ruleset), "a field", diagnostics),
                    (Args::DeckTypes, _) => {
                        let types: Vec<&str> = ruleset.deck_types.iter().map(|d| d.id.as_str()).collect();
                        expect_name(arg, &types, "a deck type", diagnostics);
                    }
                    (Args::FieldThenNames, _) => expect_name(arg, &[], "a name", diagnostics),
                    (Args::FieldThenIndex, _) => {
                        if !matches!(arg, Expr::Int(n, _) if *n >= 1) {
                            diagnostics.push(
                                Diagnostic::error(&codes::BAD_RULESET, "`value` takes a field and a position from 1")
                                    .primary(arg.span(), "expected a position such as `1`"),
                            );
                        }
                    }
                    _ => validate_filter(arg, ruleset, diagnostics),
                }
            }
        }
    }
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

/// `arg` must be a bare name; from `allowed` unless `allowed` is empty.
fn expect_name(arg: &Expr, allowed: &[&str], what: &str, diagnostics: &mut Vec<Diagnostic>) {
    match arg {
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

fn validate_filter(arg: &Expr, ruleset: &Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    let names: Vec<&str> = ruleset
        .kinds
        .iter()
        .map(|k| k.id.as_str())
        .chain(ruleset.tags.iter().map(|t| t.id.as_str()))
        .chain(ruleset.keywords.iter().map(|k| k.id.as_str()))
        .chain(field_names(ruleset))
        .collect();
    match arg {
        Expr::Name(_) => expect_name(arg, &names, "a kind, tag, keyword or field", diagnostics),
        Expr::Binary { op: BinOp::And | BinOp::Or, lhs, rhs, .. } => {
            validate_filter(lhs, ruleset, diagnostics);
            validate_filter(rhs, ruleset, diagnostics);
        }
        Expr::Not(inner, _) => validate_filter(inner, ruleset, diagnostics),
        Expr::Binary { op: BinOp::Eq | BinOp::Ne, lhs, rhs, .. } => {
            expect_name(lhs, &field_names(ruleset), "a field", diagnostics);
            if !matches!(**rhs, Expr::Name(_) | Expr::Int(..)) {
                diagnostics.push(
                    Diagnostic::error(&codes::BAD_RULESET, "a field test compares with a name or a number")
                        .primary(rhs.span(), "expected a name or a number"),
                );
            }
        }
        other => diagnostics.push(
            Diagnostic::error(&codes::BAD_RULESET, "expected a filter: a kind, tag or keyword, or `field == value`")
                .primary(other.span(), "not a filter"),
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
    pub deck_type: String,
    pub span: Span,
    pub pool: Pool,
}

pub(super) struct Evaluation<'a> {
    ruleset: &'a Ruleset,
    cards: &'a [Card],
    /// Each function call and what it counted, for the diagnostic.
    pub counted: Vec<(String, i64)>,
    /// Lines of the deck responsible for a failure, when a function knows.
    pub culprits: Vec<Span>,
}

impl<'a> Evaluation<'a> {
    pub fn new(ruleset: &'a Ruleset, cards: &'a [Card]) -> Self {
        Evaluation { ruleset, cards, counted: Vec::new(), culprits: Vec::new() }
    }

    pub fn holds(&mut self, expr: &Expr, pool: &Pool) -> bool {
        self.eval(expr, pool) != 0
    }

    /// "here count() is 26"-style summary of what was counted.
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (call, n) in &self.counted {
            let part = format!("{call} is {n}");
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        if parts.is_empty() {
            "here".to_string()
        } else {
            format!("here {}", parts.join(", "))
        }
    }

    pub fn eval(&mut self, expr: &Expr, pool: &Pool) -> i64 {
        match expr {
            Expr::Int(n, _) => *n,
            Expr::Name(_) => 0,
            Expr::Not(inner, _) => i64::from(self.eval(inner, pool) == 0),
            Expr::Binary { op, lhs, rhs, .. } => {
                let l = self.eval(lhs, pool);
                // `and`/`or` short-circuit so only the deciding side is reported.
                match op {
                    BinOp::And if l == 0 => return 0,
                    BinOp::Or if l != 0 => return 1,
                    _ => {}
                }
                let r = self.eval(rhs, pool);
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
            Expr::Call { name, args, .. } => {
                let value = self.call(&name.text, args, pool);
                if name.text != "every" {
                    self.counted.push((call_text(name, args), value));
                }
                value
            }
        }
    }

    fn call(&mut self, function: &str, args: &[Expr], pool: &Pool) -> i64 {
        let field = |i: usize| match args.get(i) {
            Some(Expr::Name(name)) => name.text.as_str(),
            _ => "",
        };
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
                        card.field(field).and_then(|f| f.values.first()).is_some_and(|v| match v {
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
                pool.included.iter().filter(|d| types.is_empty() || types.contains(&d.deck_type.as_str())).count()
                    as i64
            }
            "value" => {
                let position = match args.get(1) {
                    Some(Expr::Int(n, _)) => (*n).max(1) as usize - 1,
                    _ => 0,
                };
                let Some(entry) = pool.entries.first() else { return 0 };
                let values = self.cards[entry.card].field(field(0)).map(|f| f.values.as_slice()).unwrap_or_default();
                values.iter().filter_map(number).nth(position).unwrap_or(0)
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
            Expr::Binary { op: BinOp::And, lhs, rhs, .. } => {
                self.matches(card, lhs, pool) && self.matches(card, rhs, pool)
            }
            Expr::Binary { op: BinOp::Or, lhs, rhs, .. } => {
                self.matches(card, lhs, pool) || self.matches(card, rhs, pool)
            }
            Expr::Not(inner, _) => !self.matches(card, inner, pool),
            Expr::Name(name) => {
                let n = name.text.as_str();
                // A kind, tag or keyword first; a field name only when the
                // name is none of those (Dropfleet's `launch` is both).
                let vocabulary = self.ruleset.kind(n).is_some()
                    || self.ruleset.tag(n).is_some()
                    || self.ruleset.keyword(n).is_some();
                card.kind == n
                    || card.tags.iter().any(|t| t == n)
                    || card_keywords(card).any(|k| k == n)
                    || (!vocabulary && card.body.fields.iter().any(|f| f.name == n))
            }
            Expr::Binary { op, lhs, rhs, .. } => {
                let Expr::Name(field) = &**lhs else { return false };
                let want_name = match &**rhs {
                    Expr::Name(want) if want.text == "deck" => pool.own.as_deref(),
                    Expr::Name(want) => Some(want.text.as_str()),
                    _ => None,
                };
                let found = card.body.fields.iter().filter(|f| f.name == field.text).flat_map(|f| &f.values).any(|v| {
                    match (want_name, &**rhs, v) {
                        (Some(want), _, Value::Name(have)) => want == have,
                        (Some(want), _, Value::Keyword { id, .. }) => want == id,
                        (Some(want), _, Value::Set(items)) => items.iter().any(|i| i == want),
                        (_, Expr::Int(want, _), Value::Int(have)) => want == have,
                        _ => false,
                    }
                });
                if *op == BinOp::Ne {
                    !found
                } else {
                    found
                }
            }
            _ => false,
        }
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
            .flat_map(|f| &f.values)
            .map(|v| match v {
                Value::Int(n) | Value::Signed(n) => *n,
                Value::Name(name) => weights.and_then(|e| e.weight(name)).unwrap_or(0),
                _ => 0,
            })
            .fold(0, i64::saturating_add)
    }

    fn enum_of(&self, card: &Card, field: &str) -> Option<&'a super::model::EnumDef> {
        let ruleset: &'a Ruleset = self.ruleset;
        let def = ruleset.kind(&card.kind)?.schema.field(field)?;
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
            .filter(|f| f.name == field && f.values.iter().any(mentions))
            .flat_map(|f| &f.values)
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
    match expr {
        Expr::Name(name) => Some(&name.text),
        _ => None,
    }
}

fn names_in<'c>(card: &'c Card, field: &'c str) -> impl Iterator<Item = String> + 'c {
    card.body.fields.iter().filter(move |f| f.name == field).flat_map(|f| &f.values).flat_map(|v| match v {
        Value::Name(n) => vec![n.clone()],
        Value::Set(items) => items.clone(),
        _ => Vec::new(),
    })
}

fn card_keywords(card: &Card) -> impl Iterator<Item = &str> {
    card.body.fields.iter().flat_map(|f| &f.values).filter_map(|v| match v {
        Value::Keyword { id, .. } => Some(id.as_str()),
        _ => None,
    })
}

fn call_text(name: &Name, args: &[Expr]) -> String {
    let args: Vec<String> = args.iter().map(expr_text).collect();
    format!("{}({})", name.text, args.join(", "))
}

fn expr_text(expr: &Expr) -> String {
    match expr {
        Expr::Int(n, _) => n.to_string(),
        Expr::Name(name) => name.text.clone(),
        Expr::Not(inner, _) => format!("not {}", expr_text(inner)),
        Expr::Binary { op, lhs, rhs, .. } => format!("{} {} {}", expr_text(lhs), op.symbol(), expr_text(rhs)),
        Expr::Call { name, args, .. } => call_text(name, args),
    }
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
