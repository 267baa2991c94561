//! Play limits (`play-limit "MESSAGE" RULE`): bounds on the cards one player
//! plays in a turn, read from the constraint trees of the engine data.
//!
//! A limit is read in two steps.  [`read`] turns the tree into nodes,
//! refusing a function or filter that play cannot read over the cards
//! played in a turn (a deck's lines, its included decks or parameters, card
//! text); the checker asks the same of a ruleset ([`unplayable`]), so that
//! `check` warns of what `play` would refuse.  [`PlayLimits::new`] then
//! binds each call to the cards of the document once: every filter becomes
//! the set of cards it matches and every field the number each card has,
//! so that reading a limit in a game is counting.
//!
//! A game keeps each seat's cards played this turn (taken by an action that
//! `counts played`), cleared when the round ends; an action that would play
//! a card is offered only while every limit holds with the card added.

use super::state::Game;
use super::{PlayError, MAX_DEPTH};
use crate::engine::data::{Card, Document, Ruleset, Value};
use crate::engine::semantics::{ArithOp, CmpOp};
use serde_json::Value as Json;

/// The limits of a document, bound to its cards.
#[derive(Debug, Default)]
pub(crate) struct PlayLimits {
    limits: Vec<Limit>,
}

#[derive(Debug)]
struct Limit {
    message: String,
    root: Node,
}

/// A limit's tree as play reads it.
#[derive(Debug)]
enum Node {
    Int(i64),
    Not(Box<Node>),
    And(Vec<Node>),
    Or(Vec<Node>),
    Arith(Box<Node>, Vec<(ArithOp, Node)>),
    /// From the left: each comparison's truth is the left side of the next.
    Compare(Box<Node>, Vec<(CmpOp, Node)>),
    Call(Box<Call>),
}

/// A function over the cards played, with the cards its filters match
/// (`matches[card]`, every card when there is no filter) and, for `sum`,
/// `min` and `max`, each card's number of the field.
#[derive(Debug)]
struct Call {
    function: Function,
    filters: Vec<Filter>,
    field: Option<String>,
    matches: Vec<bool>,
    numbers: Vec<Option<i64>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Function {
    Count,
    Distinct,
    MaxCopies,
    All,
    Any,
    Sum,
    Min,
    Max,
}

/// Which cards a filter matches; kinds, tags and keywords by their index in
/// the ruleset's lists.
#[derive(Debug)]
enum Filter {
    Vocabulary { kind: Option<usize>, tag: Option<usize>, keyword: Option<usize> },
    HasField(String),
    Name { name: String, equal: bool },
    Holds { field: String, value: Wanted, equal: bool },
    Compare { field: String, cmp: CmpOp, bound: i64 },
    Not(Box<Filter>),
    And(Vec<Filter>),
    Or(Vec<Filter>),
}

#[derive(Debug)]
enum Wanted {
    Name(String),
    Int(i64),
}

/// Why a tree cannot be read for play.
#[derive(Debug, PartialEq, Eq)]
enum Unread {
    /// A function, filter or value play cannot read over the cards played
    /// in a turn, as the rule language names it (`groups`, `mentions`).
    Unplayable(String),
    /// Not a tree of the format, or one nested deeper than [`MAX_DEPTH`].
    Malformed,
}

/// The refusal of a limit play cannot read, in a sentence: what `play`
/// says and what `check` warns of.
pub fn unplayable_sentence(message: &str, function: &str) -> String {
    format!("the play-limit \"{message}\" uses `{function}`, which play cannot read over the cards played in a turn")
}

/// The first function or filter of a limit's tree (`{root}`) that play
/// cannot read, if any.
pub fn unplayable(tree: &Json) -> Option<String> {
    match read(tree) {
        Err(Unread::Unplayable(function)) => Some(function),
        _ => None,
    }
}

/// Reads a limit's tree (`{root}`).
fn read(tree: &Json) -> Result<Node, Unread> {
    node(&tree["root"], 0)
}

fn node(json: &Json, depth: usize) -> Result<Node, Unread> {
    if depth > MAX_DEPTH {
        return Err(Unread::Malformed);
    }
    let d = depth + 1;
    let (name, arg) = tagged(&json["op"])?;
    Ok(match name {
        "int" => Node::Int(arg.as_i64().ok_or(Unread::Malformed)?),
        "not" => Node::Not(Box::new(node(arg, d)?)),
        "and" => Node::And(list(arg)?.iter().map(|n| node(n, d)).collect::<Result<_, _>>()?),
        "or" => Node::Or(list(arg)?.iter().map(|n| node(n, d)).collect::<Result<_, _>>()?),
        "arithmetic" => {
            let (first, rest) = chain(arg, d)?;
            Node::Arith(first, rest)
        }
        "compare" => {
            let (first, rest) = chain(arg, d)?;
            Node::Compare(first, rest)
        }
        "call" => Node::Call(Box::new(call(&arg["call"], d)?)),
        "param" => return Err(Unread::Unplayable(arg[1].as_str().unwrap_or("param").to_string())),
        other => return Err(Unread::Unplayable(other.to_string())),
    })
}

/// A first node and the operators and nodes after it.
type Chain<T> = (Box<Node>, Vec<(T, Node)>);

/// `[first, [[op, node]…]]`, with the operators of `T`.
fn chain<T: serde::de::DeserializeOwned>(json: &Json, depth: usize) -> Result<Chain<T>, Unread> {
    let first = Box::new(node(&json[0], depth)?);
    let mut rest = Vec::new();
    for pair in list(&json[1])? {
        let op = serde_json::from_value(pair[0].clone()).map_err(|_| Unread::Malformed)?;
        rest.push((op, node(&pair[1], depth)?));
    }
    Ok((first, rest))
}

fn call(json: &Json, depth: usize) -> Result<Call, Unread> {
    let (name, arg) = tagged(json)?;
    let function = match name {
        "count" => Function::Count,
        "distinct" => Function::Distinct,
        "max-copies" => Function::MaxCopies,
        "all" => Function::All,
        "any" => Function::Any,
        "sum" => Function::Sum,
        "min" => Function::Min,
        "max" => Function::Max,
        other => return Err(Unread::Unplayable(other.to_string())),
    };
    let (field, filters) = match function {
        Function::Sum | Function::Min | Function::Max => (Some(text(&arg[0])?), &arg[1]),
        _ => (None, arg),
    };
    let filters = list(filters)?.iter().map(|f| filter(f, depth)).collect::<Result<_, _>>()?;
    Ok(Call { function, filters, field, matches: Vec::new(), numbers: Vec::new() })
}

fn filter(json: &Json, depth: usize) -> Result<Filter, Unread> {
    if depth > MAX_DEPTH {
        return Err(Unread::Malformed);
    }
    let d = depth + 1;
    let (name, arg) = tagged(json)?;
    let index = |key: &str| arg[key].as_u64().and_then(|i| usize::try_from(i).ok());
    let equal = || arg["equal"].as_bool().ok_or(Unread::Malformed);
    Ok(match name {
        "vocabulary" => Filter::Vocabulary { kind: index("kind"), tag: index("tag"), keyword: index("keyword") },
        "has-field" => Filter::HasField(text(arg)?),
        "name" => Filter::Name { name: text(&arg["name"])?, equal: equal()? },
        "holds" => {
            let value = match tagged(&arg["value"])? {
                ("name", name) => Wanted::Name(text(name)?),
                ("int", n) => Wanted::Int(n.as_i64().ok_or(Unread::Malformed)?),
                // `deck`: the deck's own symbol; `arg`: a keyword's argument.
                ("deck-own", _) => return Err(Unread::Unplayable("deck".into())),
                (other, _) => return Err(Unread::Unplayable(other.to_string())),
            };
            Filter::Holds { field: text(&arg["field"])?, value, equal: equal()? }
        }
        "compare" => Filter::Compare {
            field: text(&arg["field"])?,
            cmp: serde_json::from_value(arg["cmp"].clone()).map_err(|_| Unread::Malformed)?,
            bound: arg["bound"].as_i64().ok_or(Unread::Malformed)?,
        },
        "not" => Filter::Not(Box::new(filter(arg, d)?)),
        "and" => Filter::And(list(arg)?.iter().map(|f| filter(f, d)).collect::<Result<_, _>>()?),
        "or" => Filter::Or(list(arg)?.iter().map(|f| filter(f, d)).collect::<Result<_, _>>()?),
        other => return Err(Unread::Unplayable(other.to_string())),
    })
}

/// An externally tagged value: `{"name": argument}`, or `"name"` alone.
fn tagged(json: &Json) -> Result<(&str, &Json), Unread> {
    match json {
        Json::String(name) => Ok((name, &Json::Null)),
        Json::Object(map) if map.len() == 1 => map.iter().next().map(|(k, v)| (k.as_str(), v)).ok_or(Unread::Malformed),
        _ => Err(Unread::Malformed),
    }
}

fn list(json: &Json) -> Result<&[Json], Unread> {
    json.as_array().map(Vec::as_slice).ok_or(Unread::Malformed)
}

fn text(json: &Json) -> Result<String, Unread> {
    json.as_str().map(str::to_string).ok_or(Unread::Malformed)
}

impl PlayLimits {
    /// The document's limits, read and bound to its cards; a limit play
    /// cannot read is refused, naming it and what it uses.
    pub(crate) fn new(doc: &Document) -> Result<PlayLimits, PlayError> {
        let mut limits = Vec::new();
        for limit in &doc.ruleset.play_limits {
            let message = &limit.message;
            let Some(tree) = &limit.tree else {
                return Err(PlayError(format!(
                    "the play-limit \"{message}\" has no compiled tree (engine data of format 3 or later has it)"
                )));
            };
            let mut root = match read(tree) {
                Ok(root) => root,
                Err(Unread::Unplayable(function)) => return Err(PlayError(unplayable_sentence(message, &function))),
                Err(Unread::Malformed) => {
                    return Err(PlayError(format!(
                        "the play-limit \"{message}\" is not a tree this engine reads, or nests deeper than \
                         {MAX_DEPTH}"
                    )))
                }
            };
            bind(&mut root, &Cards { ruleset: &doc.ruleset, cards: &doc.cards })
                .map_err(|what| PlayError(format!("the play-limit \"{message}\" names {what}")))?;
            limits.push(Limit { message: message.clone(), root });
        }
        Ok(PlayLimits { limits })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.limits.is_empty()
    }

    /// The message of the first limit that does not hold over these cards
    /// (card numbers, in the order played).
    fn broken(&self, played: &[u16]) -> Option<&str> {
        self.limits.iter().find(|l| eval(&l.root, played) == 0).map(|l| l.message.as_str())
    }
}

/// The cards of a document and the ruleset's lists their filters name.
struct Cards<'d> {
    ruleset: &'d Ruleset,
    cards: &'d [Card],
}

/// Binds every call of a tree to the cards: which match its filters, and
/// each one's number of its field.  The tree is as deep as [`read`] allows.
fn bind(node: &mut Node, cards: &Cards) -> Result<(), String> {
    match node {
        Node::Int(_) => Ok(()),
        Node::Not(inner) => bind(inner, cards),
        Node::And(all) | Node::Or(all) => all.iter_mut().try_for_each(|n| bind(n, cards)),
        Node::Arith(first, rest) => {
            bind(first, cards)?;
            rest.iter_mut().try_for_each(|(_, n)| bind(n, cards))
        }
        Node::Compare(first, rest) => {
            bind(first, cards)?;
            rest.iter_mut().try_for_each(|(_, n)| bind(n, cards))
        }
        Node::Call(call) => {
            let mut matches = Vec::with_capacity(cards.cards.len());
            for card in cards.cards {
                let mut any = call.filters.is_empty();
                for filter in &call.filters {
                    any = any || cards.matches(card, filter)?;
                }
                matches.push(any);
            }
            call.matches = matches;
            if let Some(field) = &call.field {
                call.numbers = cards.cards.iter().map(|card| cards.number(card, field)).collect();
            }
            Ok(())
        }
    }
}

impl Cards<'_> {
    /// Whether a card matches a filter; `Err` names an index the ruleset
    /// does not list.  Filters are as deep as [`read`] allows.
    fn matches(&self, card: &Card, filter: &Filter) -> Result<bool, String> {
        let r = self.ruleset;
        Ok(match filter {
            Filter::Vocabulary { kind, tag, keyword } => {
                let kind = kind.map(|k| listed(r.kinds.iter().map(|d| d.id.as_str()), k, "kind")).transpose()?;
                let tag = tag.map(|t| listed(r.tags.iter().map(|d| d.id.as_str()), t, "tag")).transpose()?;
                let keyword =
                    keyword.map(|k| listed(r.keywords.iter().map(|d| d.id.as_str()), k, "keyword")).transpose()?;
                let carries = |k: &str| {
                    card.body.fields.iter().flat_map(|f| &f.values).any(|v| matches!(v, Value::Keyword(id) if id == k))
                };
                kind.is_some_and(|k| card.kind == k)
                    || tag.is_some_and(|t| card.tags.iter().any(|have| have == t))
                    || keyword.is_some_and(carries)
            }
            Filter::HasField(field) => card.body.fields.iter().any(|f| f.name == *field),
            Filter::Name { name, equal } => (card.name == *name) == *equal,
            Filter::Holds { field, value, equal } => {
                let holds = values(card, field).any(|v| match (value, v) {
                    (Wanted::Name(want), Value::Name(have) | Value::Keyword(have)) => want == have,
                    (Wanted::Int(want), Value::Int(have) | Value::Signed(have)) => want == have,
                    _ => false,
                });
                holds == *equal
            }
            Filter::Compare { field, cmp, bound } => self.number(card, field).is_some_and(|n| compare(n, *cmp, *bound)),
            Filter::Not(inner) => !self.matches(card, inner)?,
            Filter::And(all) => {
                let mut every = true;
                for f in all {
                    every = every && self.matches(card, f)?;
                }
                every
            }
            Filter::Or(any) => {
                let mut some = false;
                for f in any {
                    some = some || self.matches(card, f)?;
                }
                some
            }
        })
    }

    /// A card's number of a field, as construction rules read it: the sum
    /// of its numbers over every line of the field (a decimal by its whole
    /// part, a value of an enum by its declared number); `None` when it
    /// holds none (a special value such as `*` is no number).
    fn number(&self, card: &Card, field: &str) -> Option<i64> {
        let weights = self.ruleset.kind_field(&card.kind, field).and_then(|f| {
            let id = f.schema.takes.first()?.ty.get("enum")?.as_str()?;
            self.ruleset.enums.iter().find(|e| e.id == id).map(|e| &e.weights)
        });
        let mut found = None;
        for value in values(card, field) {
            let n = match value {
                Value::Int(n) | Value::Signed(n) => Some(*n),
                Value::Decimal(text) | Value::Distance(text) => whole_part(text),
                Value::Initiative(crate::engine::data::Initiative::Step(tenths)) => Some(*tenths),
                Value::Name(name) => weights.and_then(|w| w.get(name).copied()),
                _ => None,
            };
            if let Some(n) = n {
                found = Some(found.unwrap_or(0i64).saturating_add(n));
            }
        }
        found
    }
}

/// The id at an index of one of the ruleset's lists, or what is missing.
fn listed<'a>(mut ids: impl Iterator<Item = &'a str>, index: usize, what: &str) -> Result<&'a str, String> {
    ids.nth(index).ok_or_else(|| format!("{what} number {index}, which the ruleset does not list"))
}

/// The values of every line of a card's field.
fn values<'c>(card: &'c Card, field: &'c str) -> impl Iterator<Item = &'c Value> {
    card.body.fields.iter().filter(move |f| f.name == field).flat_map(|f| &f.values)
}

/// The whole part of a decimal's text: `4.5` is 4, `-0.5` is 0.
fn whole_part(text: &str) -> Option<i64> {
    text.split('.').next()?.parse().ok()
}

fn compare(left: i64, cmp: CmpOp, right: i64) -> bool {
    match cmp {
        CmpOp::Eq => left == right,
        CmpOp::Ne => left != right,
        CmpOp::Lt => left < right,
        CmpOp::Le => left <= right,
        CmpOp::Gt => left > right,
        CmpOp::Ge => left >= right,
    }
}

/// A limit's value over the cards played: truth is 1 or 0, sums stop at the
/// largest number.  The tree is as deep as [`read`] allows.
fn eval(node: &Node, played: &[u16]) -> i64 {
    match node {
        Node::Int(n) => *n,
        Node::Not(inner) => i64::from(eval(inner, played) == 0),
        Node::And(all) => i64::from(all.iter().all(|n| eval(n, played) != 0)),
        Node::Or(any) => i64::from(any.iter().any(|n| eval(n, played) != 0)),
        Node::Arith(first, rest) => rest.iter().fold(eval(first, played), |acc, (op, n)| {
            let n = eval(n, played);
            match op {
                ArithOp::Add => acc.saturating_add(n),
                ArithOp::Sub => acc.saturating_sub(n),
                ArithOp::Mul => acc.saturating_mul(n),
                ArithOp::Div => acc.checked_div(n).unwrap_or(0),
            }
        }),
        Node::Compare(first, rest) => {
            rest.iter().fold(eval(first, played), |left, (cmp, n)| i64::from(compare(left, *cmp, eval(n, played))))
        }
        Node::Call(call) => call.over(played),
    }
}

impl Call {
    /// The function over the cards played.
    fn over(&self, played: &[u16]) -> i64 {
        let mut matching: Vec<u16> =
            played.iter().copied().filter(|&c| self.matches.get(c as usize).copied().unwrap_or(false)).collect();
        let numbers = || matching.iter().filter_map(|&c| self.numbers.get(c as usize).copied().flatten());
        match self.function {
            Function::Count => matching.len() as i64,
            Function::All => i64::from(matching.len() == played.len()),
            Function::Any => i64::from(!matching.is_empty()),
            Function::Sum => numbers().fold(0, i64::saturating_add),
            Function::Min => numbers().min().unwrap_or(0),
            Function::Max => numbers().max().unwrap_or(0),
            Function::Distinct | Function::MaxCopies => {
                matching.sort_unstable();
                let runs = matching.chunk_by(|a, b| a == b);
                if self.function == Function::Distinct {
                    runs.count() as i64
                } else {
                    runs.map(|run| run.len() as i64).max().unwrap_or(0)
                }
            }
        }
    }
}

impl<'t> Game<'t> {
    /// The limit the seat would break by playing this card (a card in play)
    /// now, if any.
    pub(crate) fn broken_limit(&self, seat: usize, card: u16) -> Option<&'t str> {
        let t = self.t;
        if t.limits.is_empty() {
            return None;
        }
        let mut played: Vec<u16> = self.played.iter().filter(|(s, _)| *s as usize == seat).map(|&(_, c)| c).collect();
        played.push(t.card_of(card));
        t.limits.broken(&played)
    }

    /// Keeps a card the seat played, for the limits of the turn.
    pub(crate) fn note_played(&mut self, seat: usize, card: u16) {
        if !self.t.limits.is_empty() {
            self.played.push((seat as u8, self.t.card_of(card)));
        }
    }

    /// The limit a decision would break, if it plays a card and breaks one.
    pub(crate) fn limit_broken_by(&self, decision: &super::Decision) -> Option<&'t str> {
        let t = self.t;
        let super::DecisionKind::Take { action, card } = decision.kind else { return None };
        let counts = t.actions.get(action as usize)?.counts;
        if counts != Some(crate::engine::semantics::Counts::Played) || card as usize >= t.instances.len() {
            return None;
        }
        self.broken_limit(decision.seat, card)
    }
}
