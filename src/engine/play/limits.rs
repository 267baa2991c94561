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
//! A game reads them over each seat's cards played this turn
//! ([`super::played`]).

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

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.limits.is_empty()
    }

    /// The message of the first limit that does not hold over these cards
    /// (card numbers, in the order played).
    pub(crate) fn broken(&self, played: &[u16]) -> Option<&str> {
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
            Filter::Compare { field, cmp, bound } => self.number(card, field).is_some_and(|n| cmp.holds(n, *bound)),
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
                Value::Initiative(crate::engine::data::Initiative::Step(tenths)) => Some(*tenths / 10),
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
            rest.iter().fold(eval(first, played), |left, (cmp, n)| i64::from(cmp.holds(left, eval(n, played))))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Four cards: a Scout (unit, tag `fast`, `tough`, cost 1, size small),
    /// an Ogre (unit, cost 3, size large), a Bolt (spell, cost 2, with
    /// text) and a Star (spell, cost `*`); sizes weigh 2 and 4.
    fn document() -> Document {
        let int = |n: i64| json!({"type": "int", "value": n});
        let name = |n: &str| json!({"type": "name", "value": n});
        let field = |f: &str, v: serde_json::Value| json!({"name": f, "values": [v]});
        let card = |n: &str, kind: &str, tags: &[&str], fields: Vec<serde_json::Value>| json!({"name": n, "kind": kind, "tags": tags, "body": {"fields": fields}});
        let doc = json!({
            "format": 4,
            "ruleset": {
                "id": "test",
                "kinds": [
                    {"id": "unit", "schema": {"fields": [{"name": "size", "schema": {"takes": [{"ty": {"enum": "size"}}]}}]}},
                    {"id": "spell"}
                ],
                "tags": [{"id": "fast"}],
                "keywords": [{"id": "tough"}],
                "enums": [{"id": "size", "weights": {"small": 2, "large": 4}}]
            },
            "cards": [
                card("Scout", "unit", &["fast"], vec![
                    field("cost", int(1)),
                    field("size", name("small")),
                    field("keywords", json!({"type": "keyword", "value": {"id": "tough", "args": []}})),
                ]),
                card("Ogre", "unit", &[], vec![field("cost", int(3)), field("size", name("large"))]),
                card("Bolt", "spell", &[], vec![field("cost", int(2)), field("text", json!({"type": "text", "value": {"raw": "Zap", "parts": []}}))]),
                card("Star", "spell", &[], vec![field("cost", json!({"type": "special", "value": {"token": "*", "meaning": "see-text"}}))]),
            ]
        });
        Document::from_json(&doc.to_string()).expect("a document")
    }

    fn call(function: serde_json::Value) -> serde_json::Value {
        json!({"op": {"call": {"call": function, "shown": ""}}, "ty": "number"})
    }

    fn kind(k: usize) -> serde_json::Value {
        json!({"vocabulary": {"kind": k, "tag": null, "keyword": null}})
    }

    /// The value of a node over the cards played.
    fn value(node: serde_json::Value, played: &[u16]) -> i64 {
        let doc = document();
        let mut root = read(&json!({ "root": node })).expect("readable");
        bind(&mut root, &Cards { ruleset: &doc.ruleset, cards: &doc.cards }).expect("bound");
        eval(&root, played)
    }

    #[test]
    fn functions_count_the_cards_played() {
        assert_eq!(value(call(json!({"count": []})), &[0, 0, 1]), 3);
        assert_eq!(value(call(json!({"count": [kind(0)]})), &[0, 2]), 1);
        assert_eq!(value(call(json!({"distinct": [kind(0)]})), &[0, 0, 1, 2]), 2);
        assert_eq!(value(call(json!({"max-copies": []})), &[0, 1, 0, 2]), 2);
        assert_eq!(value(call(json!({"max-copies": []})), &[]), 0);
        assert_eq!(value(call(json!({"all": [kind(0)]})), &[0, 1]), 1);
        assert_eq!(value(call(json!({"all": [kind(0)]})), &[0, 2]), 0);
        assert_eq!(value(call(json!({"all": [kind(0)]})), &[]), 1);
        assert_eq!(value(call(json!({"any": [kind(1)]})), &[0, 2]), 1);
        assert_eq!(value(call(json!({"any": [kind(1)]})), &[0, 1]), 0);
    }

    /// Fields are numbers as construction rules read them: an enum value
    /// by its weight, a special value no number.
    #[test]
    fn sums_and_extremes_read_fields() {
        assert_eq!(value(call(json!({"sum": ["cost", []]})), &[0, 1, 2, 3]), 6);
        assert_eq!(value(call(json!({"sum": ["size", []]})), &[0, 1, 1]), 10);
        assert_eq!(value(call(json!({"min": ["cost", [kind(0)]]})), &[1, 0, 2]), 1);
        assert_eq!(value(call(json!({"max": ["cost", []]})), &[0, 3, 2]), 2);
        assert_eq!(value(call(json!({"min": ["cost", []]})), &[3]), 0, "none has a number");
    }

    #[test]
    fn filters_match_by_vocabulary_fields_and_names() {
        let count = |filter: serde_json::Value| value(call(json!({ "count": [filter] })), &[0, 1, 2, 3]);
        assert_eq!(count(json!({"vocabulary": {"kind": null, "tag": 0, "keyword": null}})), 1);
        assert_eq!(count(json!({"vocabulary": {"kind": null, "tag": null, "keyword": 0}})), 1);
        assert_eq!(count(json!({"has-field": "text"})), 1);
        assert_eq!(count(json!({"name": {"name": "Ogre", "equal": true}})), 1);
        assert_eq!(count(json!({"name": {"name": "Ogre", "equal": false}})), 3);
        assert_eq!(count(json!({"holds": {"field": "size", "value": {"name": "large"}, "equal": true}})), 1);
        assert_eq!(count(json!({"holds": {"field": "cost", "value": {"int": 2}, "equal": true}})), 1);
        assert_eq!(count(json!({"compare": {"field": "cost", "cmp": "ge", "bound": 2}})), 2);
        assert_eq!(count(json!({"not": kind(0)})), 2);
        assert_eq!(count(json!({"and": [kind(0), {"compare": {"field": "cost", "cmp": "gt", "bound": 1}}]})), 1);
        assert_eq!(count(json!({"or": [kind(1), {"name": {"name": "Scout", "equal": true}}]})), 3);
    }

    /// Comparisons chain from the left, each truth the left side of the
    /// next; arithmetic stops at the largest number.
    #[test]
    fn operators_read_as_construction_rules_do() {
        let int = |n: i64| json!({"op": {"int": n}, "ty": "number"});
        let compare =
            json!({"op": {"compare": [call(json!({"count": []})), [["le", int(2)], ["eq", int(1)]]]}, "ty": "truth"});
        assert_eq!(value(compare.clone(), &[0, 1]), 1);
        assert_eq!(value(compare, &[0, 1, 2]), 0);
        let sum = json!({"op": {"arithmetic": [int(i64::MAX), [["add", int(1)], ["div", int(0)]]]}, "ty": "number"});
        assert_eq!(value(sum, &[]), 0);
        let both = json!({"op": {"and": [int(1), {"op": {"not": int(0)}, "ty": "truth"}]}, "ty": "truth"});
        assert_eq!(value(both, &[]), 1);
    }

    #[test]
    fn what_play_cannot_read_is_named() {
        let tree = |node: serde_json::Value| json!({ "root": node });
        assert_eq!(unplayable(&tree(call(json!({"groups": []})))), Some("groups".into()));
        assert_eq!(unplayable(&tree(call(json!("choices")))), Some("choices".into()));
        let mentions = json!({"count": [{"mentions": ["text", null]}]});
        assert_eq!(unplayable(&tree(call(mentions))), Some("mentions".into()));
        let own = json!({"count": [{"holds": {"field": "symbol", "value": "deck-own", "equal": true}}]});
        assert_eq!(unplayable(&tree(call(own))), Some("deck".into()));
        let param = json!({"op": {"param": [0, "agreed-points"]}, "ty": "number"});
        assert_eq!(unplayable(&tree(param)), Some("agreed-points".into()));
        assert_eq!(unplayable(&tree(call(json!({"count": []})))), None);
        assert_eq!(unplayable(&json!({"root": 3})), None, "malformed, not unplayable");
    }

    /// A tree nested deeper than play reads is refused, not recursed into.
    #[test]
    fn a_deep_tree_is_refused() {
        let mut node = json!({"op": {"int": 1}, "ty": "truth"});
        for _ in 0..200 {
            node = json!({"op": {"not": node}, "ty": "truth"});
        }
        assert_eq!(read(&json!({ "root": node })).err(), Some(Unread::Malformed));
        let mut filter = kind(0);
        for _ in 0..200 {
            filter = json!({ "not": filter });
        }
        assert_eq!(read(&json!({"root": call(json!({ "count": [filter] }))})).err(), Some(Unread::Malformed));
    }

    #[test]
    fn a_limit_naming_what_the_ruleset_lacks_is_refused() {
        let mut doc = document();
        let tree = json!({"root": call(json!({"count": [kind(7)]}))});
        doc.ruleset.play_limits.push(crate::engine::data::PlayLimit { message: "few".into(), tree: Some(tree) });
        let error = PlayLimits::new(&doc).expect_err("refused");
        assert!(error.0.contains("\"few\" names kind number 7"), "{error}");
        doc.ruleset.play_limits[0].tree = Some(json!({"root": call(json!({"groups": []}))}));
        let error = PlayLimits::new(&doc).expect_err("refused");
        assert_eq!(error.0, unplayable_sentence("few", "groups"));
    }
}
