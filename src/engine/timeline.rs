//! The order in which the effects of a turn resolve, from the engine data
//! alone.
//!
//! Every field of a played card that holds initiative values resolves at each
//! of them (`at 3.0 1.0 { … }` twice, `moves-at 1.0` once).  Steps come in the
//! order of the ruleset's scale: `X` first, then from the highest number down.
//! Within a step, a higher value resolves first (a first-edition priority
//! digit: `3.4` before `3.2`, both in step `3`), then the ruleset's tie-break
//! chain decides, tier by tier, exactly as declared: a `kind` tier puts its
//! kinds first and, if it names a field, orders them by that field; a `side`
//! tier orders the sides as listed.  Kinds named by no tier come after every
//! kind that is.  Resolutions the chain cannot separate are simultaneous.

use super::data::{Body, Card, Document, Field, Initiative, Scale, TieBreak, Value};
use serde::Serialize;

/// A card a side plays this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Play {
    pub side: String,
    pub card: String,
}

#[derive(Debug, Serialize)]
pub struct Timeline {
    pub ruleset: String,
    pub plays: Vec<Play>,
    /// Only the steps at which something resolves, in order.
    pub steps: Vec<Step>,
    /// Played cards that resolve at no step; tie-break tiers this engine does
    /// not know.
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct Step {
    /// `X`, `2.4`, or `3` on a scale of whole steps.
    pub initiative: String,
    pub resolutions: Vec<Resolution>,
}

#[derive(Debug, Serialize)]
pub struct Resolution {
    /// 1-based within the step; simultaneous resolutions share a position.
    pub position: usize,
    pub simultaneous: bool,
    pub side: String,
    pub card: String,
    pub kind: String,
    /// The value on the card, such as `3.4` within step `3`.
    pub initiative: String,
    /// The field that carries the initiative, such as `at` or `moves-at`.
    pub field: String,
    /// The field's values (its initiatives included).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
    /// The values the tie-break chain compared, such as `power 3`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compared: Vec<String>,
    /// The criterion that put this resolution after the previous position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// The effects and conditions of the field's block.
    pub body: Body,
}

#[derive(Debug, PartialEq, Eq)]
pub enum TimelineError {
    /// The ruleset declares no initiative scale.
    NoScale(String),
    UnknownCard {
        name: String,
        closest: Option<String>,
    },
}

impl std::fmt::Display for TimelineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimelineError::NoScale(id) => write!(f, "ruleset `{id}` has no initiative scale"),
            TimelineError::UnknownCard { name, .. } => write!(f, "no card is named `{name}`"),
        }
    }
}

/// One field of one played card at one of its initiative values.
struct Event<'d> {
    side: &'d str,
    card: &'d Card,
    field: &'d Field,
    at: Initiative,
    key: Vec<i128>,
}

/// The timeline of the cards played this turn, in the order given.
pub fn timeline(doc: &Document, plays: &[Play]) -> Result<Timeline, TimelineError> {
    let scale = doc.ruleset.initiative.as_ref().ok_or_else(|| TimelineError::NoScale(doc.ruleset.id.clone()))?;
    let chain = &doc.ruleset.tie_break;
    let mut notes = Vec::new();
    if chain.iter().any(|t| matches!(t, TieBreak::Unknown)) {
        notes.push(format!("a tie-break tier of `{}` is not known to this engine and breaks no tie", doc.ruleset.id));
    }
    let mut events = Vec::new();
    for play in plays {
        let card = doc.card(&play.card).ok_or_else(|| unknown_card(doc, &play.card))?;
        let before = events.len();
        for field in timed_fields(&card.body.fields) {
            for value in &field.values {
                if let Value::Initiative(at) = value {
                    let key = chain_key(chain, card, &play.side);
                    events.push(Event { side: &play.side, card, field, at: *at, key });
                }
            }
        }
        if events.len() == before {
            notes.push(format!("`{}` ({}) resolves at no initiative step", card.name, play.side));
        }
    }
    // Stable: resolutions nothing separates keep the order they were played in.
    events.sort_by(|a, b| at_order(a.at).cmp(&at_order(b.at)).then_with(|| a.key.cmp(&b.key)));
    let criteria = criteria(chain);
    let mut steps: Vec<Step> = Vec::new();
    for (i, event) in events.iter().enumerate() {
        let label = step_label(event.at, scale);
        if steps.last().is_none_or(|s| s.initiative != label) {
            steps.push(Step { initiative: label.clone(), resolutions: Vec::new() });
        }
        let previous = i.checked_sub(1).map(|p| &events[p]).filter(|p| step_label(p.at, scale) == label);
        let tied = |other: &Event| other.at == event.at && other.key == event.key;
        let with_previous = previous.is_some_and(tied);
        let with_next = events.get(i + 1).is_some_and(tied);
        let decided_by = match previous {
            Some(p) if !with_previous => Some(decided_by(p, event, &criteria)),
            _ => None,
        };
        let Some(step) = steps.last_mut() else { continue };
        let position = match step.resolutions.last() {
            Some(last) if with_previous => last.position,
            Some(last) => last.position + 1,
            None => 1,
        };
        step.resolutions.push(Resolution {
            position,
            simultaneous: with_previous || with_next,
            side: event.side.to_string(),
            card: event.card.name.clone(),
            kind: event.card.kind.clone(),
            initiative: initiative_text(event.at),
            field: event.field.name.clone(),
            values: event.field.values.clone(),
            compared: compared(chain, event.card),
            decided_by,
            body: event.field.body.clone().unwrap_or_default(),
        });
    }
    Ok(Timeline { ruleset: doc.ruleset.id.clone(), plays: plays.to_vec(), steps, notes })
}

/// Fields holding initiative values, at any depth, in the order written; a
/// timed field's own block resolves with it and is not searched further.
fn timed_fields(fields: &[Field]) -> Vec<&Field> {
    let mut found = Vec::new();
    for field in fields {
        if field.values.iter().any(|v| matches!(v, Value::Initiative(_))) {
            found.push(field);
        } else if let Some(body) = &field.body {
            found.extend(timed_fields(&body.fields));
        }
    }
    found
}

fn unknown_card(doc: &Document, name: &str) -> TimelineError {
    let closest = doc
        .cards
        .iter()
        .map(|c| (strsim::normalized_damerau_levenshtein(&c.name.to_lowercase(), &name.to_lowercase()), &c.name))
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n.clone());
    TimelineError::UnknownCard { name: name.to_string(), closest }
}

/// `X` before every number; higher numbers first.
fn at_order(at: Initiative) -> (u8, std::cmp::Reverse<i64>) {
    match at {
        Initiative::X => (0, std::cmp::Reverse(0)),
        Initiative::Step(t) => (1, std::cmp::Reverse(t)),
    }
}

/// The scale step a value falls in: itself on a scale of tenths; the whole
/// number below it on a scale of whole steps (where the tenth is a priority).
fn step_label(at: Initiative, scale: &Scale) -> String {
    let Initiative::Step(t) = at else { return "X".to_string() };
    // In i128, so no document can make the arithmetic overflow.
    let (t, to, step) = (i128::from(t), i128::from(scale.to_tenths), i128::from(scale.step_tenths.max(1)));
    let start = to + (t - to).div_euclid(step) * step;
    if step % 10 == 0 {
        (start / 10).to_string()
    } else {
        tenths(start)
    }
}

fn initiative_text(at: Initiative) -> String {
    match at {
        Initiative::X => "X".to_string(),
        Initiative::Step(t) => tenths(t),
    }
}

pub(crate) fn tenths(value: impl Into<i128>) -> String {
    let value: i128 = value.into();
    let sign = if value < 0 { "-" } else { "" };
    format!("{sign}{}.{}", value.unsigned_abs() / 10, value.unsigned_abs() % 10)
}

/// The card's place in the chain: for each tier in order, a number where
/// smaller goes first.
fn chain_key(chain: &[TieBreak], card: &Card, side: &str) -> Vec<i128> {
    let mut key = Vec::new();
    for tier in chain {
        match tier {
            TieBreak::Kind { kinds, field, highest } => {
                let member = kinds.contains(&card.kind);
                key.push(if member { 0 } else { 1 });
                if let Some(field) = field {
                    // A card of the tier without the field goes after those with it.
                    let value = member.then(|| number(card, field)).flatten();
                    key.push(match value {
                        Some(v) if *highest => -v,
                        Some(v) => v,
                        None => i128::MAX,
                    });
                }
            }
            TieBreak::Side { order } => {
                key.push(order.iter().position(|s| s == side).unwrap_or(order.len()) as i128);
            }
            TieBreak::Unknown => {}
        }
    }
    key
}

/// How each element of a chain key is described, in the ruleset's own words.
fn criteria(chain: &[TieBreak]) -> Vec<String> {
    let mut described = Vec::new();
    for tier in chain {
        match tier {
            TieBreak::Kind { kinds, field, highest } => {
                described.push(format!("kind {}", kinds.join(" ")));
                if let Some(field) = field {
                    let order = if *highest { "highest" } else { "lowest" };
                    described.push(format!("kind {} by {field} {order}", kinds.join(" ")));
                }
            }
            TieBreak::Side { order } => described.push(format!("side {}", order.join(" "))),
            TieBreak::Unknown => {}
        }
    }
    described
}

fn decided_by(previous: &Event, event: &Event, criteria: &[String]) -> String {
    if previous.at != event.at {
        return "priority".to_string();
    }
    let index = previous.key.iter().zip(&event.key).position(|(a, b)| a != b);
    index.and_then(|i| criteria.get(i)).cloned().unwrap_or_else(|| "order played".to_string())
}

/// `power 3` for each field-ordered tier the card belongs to.
fn compared(chain: &[TieBreak], card: &Card) -> Vec<String> {
    let mut shown = Vec::new();
    for tier in chain {
        if let TieBreak::Kind { kinds, field: Some(field), .. } = tier {
            if kinds.contains(&card.kind) {
                match card.field(field).and_then(|f| f.values.first()) {
                    Some(value) => shown.push(format!("{field} {}", super::text::value(value))),
                    None => shown.push(format!("no {field}")),
                }
            }
        }
    }
    shown
}

/// A field's first value as a number scaled by 1000, for comparing.
fn number(card: &Card, field: &str) -> Option<i128> {
    match card.field(field)?.values.first()? {
        Value::Int(n) | Value::Signed(n) => Some(i128::from(*n) * 1000),
        Value::Initiative(Initiative::Step(t)) => Some(i128::from(*t) * 100),
        Value::Decimal(text) | Value::Distance(text) => decimal(text),
        _ => None,
    }
}

/// `-1.25` → -1250; at most three decimals are kept.
fn decimal(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let whole: i128 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let mut scaled = whole.checked_mul(1000)?;
    for (i, digit) in fraction.chars().take(3).enumerate() {
        scaled = scaled.checked_add(i128::from(digit.to_digit(10)?) * [100, 10, 1][i])?;
    }
    Some(if negative { -scaled } else { scaled })
}

#[cfg(test)]
mod tests {
    use super::{decimal, step_label, Initiative, Scale};

    #[test]
    fn a_value_falls_in_its_scale_step() {
        let tenths = Scale { has_x: true, from_tenths: 59, to_tenths: 0, step_tenths: 1 };
        let whole = Scale { has_x: true, from_tenths: 50, to_tenths: 0, step_tenths: 10 };
        assert_eq!(step_label(Initiative::Step(34), &tenths), "3.4");
        assert_eq!(step_label(Initiative::Step(34), &whole), "3");
        assert_eq!(step_label(Initiative::Step(30), &whole), "3");
        assert_eq!(step_label(Initiative::X, &whole), "X");
        let hostile = Scale { has_x: false, from_tenths: i64::MAX, to_tenths: i64::MIN, step_tenths: i64::MIN };
        assert_eq!(step_label(Initiative::Step(i64::MIN), &hostile), "-922337203685477580.8");
        assert_eq!(step_label(Initiative::Step(i64::MAX), &hostile), "922337203685477580.7");
    }

    #[test]
    fn decimals_compare_as_numbers() {
        assert_eq!(decimal("1.5"), Some(1500));
        assert_eq!(decimal("-0.25"), Some(-250));
        assert_eq!(decimal("12"), Some(12000));
        assert_eq!(decimal("x"), None);
        assert_eq!(decimal("170141183460469231731687303715884105.999"), None);
    }
}
