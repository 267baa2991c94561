//! The checked IR: cards and decks with every name resolved and every value
//! typed against the game's ruleset.  Built only from a checked syntax tree;
//! every backend consumes it and none re-validates it.

use crate::ruleset::model::Ruleset;
pub use crate::ruleset::model::{DeckTypeId, KindId, Plus, Resolved};
use crate::source::Span;
use schemars::JsonSchema;
use serde::Serialize;

/// A decimal number kept exactly (`5.9` is 59 units at scale 1), as the
/// syntax reads it; the engine data writes it as its exact decimal text.
pub use crate::syntax::ast::Decimal;

/// Everything a check produced, one entry per game in use.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct Project {
    pub games: Vec<Game>,
    /// Names given by items that did not parse: nothing reports them again.
    #[serde(skip)]
    #[schemars(skip)]
    pub lost_names: std::collections::HashSet<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Game {
    pub ruleset: Ruleset,
    /// Shared, so that a check can keep a card for the next without a copy
    /// ([`crate::cache`]).
    pub cards: Vec<std::sync::Arc<Card>>,
    pub decks: Vec<Deck>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Card {
    pub name: String,
    pub kind: KindId,
    pub tags: Vec<String>,
    pub body: Body,
    #[serde(skip)]
    pub span: Span,
    /// The whole card in the source, block included.
    #[serde(skip)]
    pub extent: Span,
    /// `allow LINT…`, `warn LINT…`, `deny LINT…` lines in the card.
    #[serde(skip)]
    pub lint_levels: Vec<LintLevel>,
}

/// A lint level set in the source for one card or deck.
#[derive(Clone, Debug)]
pub struct LintLevel {
    pub level: Level,
    pub lint: String,
    pub span: Span,
}

/// What a lint's finding is: nothing, a warning or an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

impl Level {
    /// The level a line of the source or the configuration names.
    pub fn parse(word: &str) -> Option<Level> {
        match word {
            "allow" => Some(Level::Allow),
            "warn" => Some(Level::Warn),
            "deny" => Some(Level::Deny),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
}

impl Card {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.body.fields.iter().find(|f| f.name == name)
    }
}

/// What a card or a field's block holds.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct Body {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Conditional>,
    /// `choose { … }` blocks: one of their options applies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Choice>,
    /// `then { … }` blocks: steps that resolve after the rest of the block,
    /// one after the other, in this order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<Body>,
}

/// `choose { trade 3; combat 5 }`: alternatives, of which the player picks
/// one, in the order written.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Choice {
    pub options: Vec<Body>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Field {
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Spanned<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Box<Body>>,
    /// The field's line in the source.
    #[serde(skip)]
    pub span: Span,
}

impl Field {
    /// The values without their spans, for stages that only read them.
    pub fn each_value(&self) -> impl Iterator<Item = &Value> {
        self.values.iter().map(|v| &v.value)
    }

    /// A line of a dial's field as a manoeuvre: its speed, bearing and
    /// difficulty (`move 2 bank-left normal`); `None` when it does not hold
    /// all three.
    pub fn manoeuvre(&self) -> Option<(i64, &str, &str)> {
        match self.values.as_slice() {
            [speed, bearing, difficulty, ..] => match (&speed.value, &bearing.value, &difficulty.value) {
                (Value::Int(s), Value::Name(b), Value::Name(d)) => Some((*s, b.as_str(), d.as_str())),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn first_value(&self) -> Option<&Value> {
        self.values.first().map(|v| &v.value)
    }
}

/// `impact damage 8+`: a coloured effect line.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Effect {
    pub role: String,
    pub symbol: String,
    pub amount: i64,
    pub plus: Plus,
    /// When the amount depends on the game: `amount` for each unit of
    /// this quantity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per: Option<Box<PerQuantity>>,
    #[serde(skip)]
    pub span: Span,
}

/// An amount that depends on the game state: the effect's `amount` for each
/// unit of a quantity the ruleset declares (`draw card 1 per bases`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PerQuantity {
    pub quantity: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<StateArg>,
    /// Written in the amount's place (`gain trade that-many`), the amount
    /// being 1: faces print the quantity's text where the number would be.
    #[serde(skip)]
    pub alone: bool,
}

/// Effects that apply only when a condition holds.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Conditional {
    pub condition: Condition,
    pub body: Body,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Condition {
    /// The range is within these bands, inclusive.
    Range { from: String, to: Option<String>, open: bool },
    /// A condition the ruleset declares (`condition ID …`), with the value
    /// of each of its parameters, in the declaration's order.
    Declared { id: String, args: Vec<StateArg> },
}

/// The value a card gives one parameter of a declared condition or
/// quantity.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct StateArg {
    pub param: String,
    pub value: Spanned<Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Initiative {
    /// Resolves before every numbered step.
    X,
    /// A numbered step, in tenths (`5.9` is 59).
    Step(i64),
}

/// A value with where it is written, so that every later stage (deck
/// rules, lints, print layout) can point at the value itself.  The engine
/// data holds the value alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Spanned<T> {
    pub value: T,
    #[serde(skip)]
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }
}

/// The schema of the value alone, under the value's own name: the engine
/// data's schema does not know spans.
impl<T: JsonSchema> JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "type", content = "value", rename_all = "kebab-case")]
pub enum Value {
    Int(i64),
    Signed(i64),
    /// Exact decimal text, such as `1.5`.
    Decimal(Decimal),
    Initiative(Initiative),
    /// Inches, as exact decimal text.
    Distance(Decimal),
    /// `4+`, with an optional second (passive) save.
    Save {
        save: i64,
        passive: Option<i64>,
    },
    Dice {
        count: i64,
        sides: i64,
        modifier: i64,
    },
    Range {
        low: i64,
        high: Option<i64>,
    },
    Coord {
        q: i64,
        r: i64,
    },
    Text(Text),
    String(String),
    /// A resolved name: an enum value, arc, symbol, deck symbol, kind or tag.
    Name(String),
    /// A token written in place of a value (`-`, `*`) and what it means:
    /// not a number, and never read as one.
    Special {
        token: String,
        meaning: crate::ruleset::model::special::Meaning,
    },
    Keyword {
        id: String,
        args: Vec<Spanned<Value>>,
    },
    /// A set of enum values written `F/S(R)`.
    Set(Vec<String>),
    /// A letter grade and its number of `+` marks.
    Grade {
        letter: String,
        plus: i64,
    },
}

/// Card text with its inline icons and card references resolved.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Text {
    pub raw: String,
    pub parts: Vec<TextPart>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "type", content = "value", rename_all = "kebab-case")]
pub enum TextPart {
    Plain(String),
    Icon(String),
    CardRef(String),
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Deck {
    pub name: String,
    pub deck_type: DeckTypeId,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// The decks this one is built from.  A deck defined inside this one
    /// has this deck's name as its `within`; look for it there first.
    pub includes: Vec<String>,
    /// The deck this one is defined inside: its name is that deck's own, so
    /// two fleets may each hold a battlegroup of one name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// Every card in the deck with its count, included decks expanded.
    pub cards: Vec<DeckEntry>,
    /// Values the deck type derives, such as a strategy rating.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub computed: std::collections::BTreeMap<String, i64>,
    /// The values of the deck type's parameters for this deck: set by the
    /// deck, or the ruleset's defaults.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub params: std::collections::BTreeMap<String, i64>,
    #[serde(skip)]
    pub lint_levels: Vec<LintLevel>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DeckEntry {
    pub card: String,
    pub count: i64,
    /// Tags the deck's line gives the card in this deck (`flagship`);
    /// copies with other tags are an entry of their own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Where the deck places copies of the card on the game's table
    /// (`card "Asteroid" at 12,20`), one position a copy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<[i64; 2]>,
}

/// The engine data writes a decimal as its exact text (`"1.5"`), as it was
/// before decimals were numbers: readers parse it without rounding.
impl Serialize for Decimal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl JsonSchema for Decimal {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Decimal".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}
