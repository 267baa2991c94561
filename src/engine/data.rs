//! The engine data as the engine reads it: only the parts it needs, with
//! defaults for what a document may leave out, and a catch-all for value and
//! tie-break types this engine does not know, so a newer document of the same
//! format version still loads.

use super::semantics;
use serde::{Deserialize, Serialize};

/// The format versions this engine reads.
pub const FORMATS: &[u32] = &[1, 2, 3, 4, 5, 6];

#[derive(Debug, Deserialize)]
pub struct Document {
    pub format: u32,
    pub ruleset: Ruleset,
    #[serde(default)]
    pub cards: Vec<Card>,
    #[serde(default)]
    pub decks: Vec<Deck>,
}

/// A document that cannot be read.
#[derive(Debug)]
pub enum ReadError {
    Json(serde_json::Error),
    Format(u32),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Json(e) => write!(f, "not engine data: {e}"),
            ReadError::Format(v) => write!(f, "engine data format {v} is not one this engine reads ({FORMATS:?})"),
        }
    }
}

impl Document {
    /// Reads a document, refusing format versions this engine does not know.
    pub fn from_json(text: &str) -> Result<Document, ReadError> {
        // The version is read on its own first, so a document of another
        // version is refused for its version and not for its shape.
        #[derive(Deserialize)]
        struct Version {
            format: u32,
        }
        let version: Version = serde_json::from_str(text).map_err(ReadError::Json)?;
        if !FORMATS.contains(&version.format) {
            return Err(ReadError::Format(version.format));
        }
        serde_json::from_str(text).map_err(ReadError::Json)
    }

    pub fn card(&self, name: &str) -> Option<&Card> {
        self.cards.iter().find(|c| c.name == name)
    }

    /// A deck that is played as a whole in one of the turn's phases.
    pub fn playable_deck(&self, name: &str) -> Option<&Deck> {
        let played = |d: &&Deck| self.ruleset.phases.iter().any(|p| p.plays.contains(&d.deck_type));
        self.decks.iter().filter(played).find(|d| d.name == name)
    }

    /// Whether `name` is a card, or a deck played in a phase.
    pub fn has_play(&self, name: &str) -> bool {
        self.card(name).is_some() || self.playable_deck(name).is_some()
    }
}

#[derive(Debug, Deserialize)]
pub struct Ruleset {
    pub id: String,
    #[serde(default)]
    pub initiative: Option<Scale>,
    #[serde(default)]
    pub tie_break: Vec<TieBreak>,
    #[serde(default)]
    pub sides: Vec<Side>,
    #[serde(default)]
    pub phases: Vec<Phase>,
    /// The enum whose values name steps on cards.
    #[serde(default)]
    pub step_names: Option<String>,
    /// What each kind's fields take, to find the fields that name steps.
    #[serde(default)]
    pub kinds: Vec<KindSchema>,
    #[serde(default)]
    pub shapes: Vec<KindSchema>,
    /// Effect symbols, with what each role does with them.
    #[serde(default)]
    pub symbols: Vec<Symbol>,
    /// Conditions and quantities of the game state, with their meaning.
    #[serde(default)]
    pub conditions: Vec<StateDef>,
    #[serde(default)]
    pub quantities: Vec<StateDef>,
    #[serde(default)]
    pub setup: Option<Setup>,
    /// The end of the game and the winner, when the ruleset declares play.
    #[serde(default)]
    pub play: Option<semantics::Play>,
    /// Strategies for the greedy bot.
    #[serde(default)]
    pub bots: Vec<semantics::Bot>,
    /// The table the game is played on, when the ruleset declares one.
    #[serde(default)]
    pub table: Option<Table>,
    /// Bounds on the cards one player plays in a turn.
    #[serde(default)]
    pub play_limits: Vec<PlayLimit>,
    /// Tags and keywords in the ruleset's order: a constraint's tree names
    /// them by index.
    #[serde(default)]
    pub tags: Vec<Named>,
    #[serde(default)]
    pub keywords: Vec<Named>,
    /// Named value lists, with a number for each value when declared.
    #[serde(default)]
    pub enums: Vec<EnumDef>,
}

/// A `play-limit`: its message and, when compiled, its tree (`{root}`),
/// read node by node by the play engine (`play::limits`).
#[derive(Debug, Deserialize)]
pub struct PlayLimit {
    pub message: String,
    #[serde(default)]
    pub tree: Option<serde_json::Value>,
}

/// A declaration read only for its id.
#[derive(Debug, Deserialize)]
pub struct Named {
    pub id: String,
}

/// A named value list, with each value's number when declared.
#[derive(Debug, Deserialize)]
pub struct EnumDef {
    pub id: String,
    #[serde(default)]
    pub weights: std::collections::BTreeMap<String, i64>,
}

/// An effect symbol and what roles do with it.
#[derive(Debug, Deserialize)]
pub struct Symbol {
    pub id: String,
    #[serde(default)]
    pub display: String,
    #[serde(default)]
    pub does: Vec<semantics::Meaning>,
}

/// A condition or quantity of the game state: its parameters and, when
/// declared, its meaning.
#[derive(Debug, Deserialize)]
pub struct StateDef {
    pub id: String,
    #[serde(default)]
    pub params: Vec<StateParam>,
    #[serde(default)]
    pub means: Option<semantics::Expression>,
}

#[derive(Debug, Deserialize)]
pub struct StateParam {
    pub name: String,
}

/// How a game is set up, as play needs it.
#[derive(Debug, Deserialize)]
pub struct Setup {
    pub players: Players,
    #[serde(default)]
    pub counters: Vec<semantics::Counter>,
    #[serde(default)]
    pub zones: Vec<semantics::Zone>,
    /// Numbers kept on each card; none when absent.
    #[serde(default)]
    pub markers: Vec<semantics::Marker>,
    #[serde(default)]
    pub steps: Vec<SetupStepAt>,
    /// Zone limits for some numbers of players, in place of the zone's.
    #[serde(default)]
    pub limits: Vec<ZoneLimit>,
}

/// The most cards `zone` holds when a number of players within `players`
/// play.
#[derive(Debug, Deserialize)]
pub struct ZoneLimit {
    pub zone: String,
    pub limit: i64,
    pub players: Players,
}

/// A set-up step and the numbers of players it is done for: every number
/// when `players` is absent.
#[derive(Debug, Deserialize)]
pub struct SetupStepAt {
    #[serde(flatten)]
    pub step: SetupStep,
    #[serde(default)]
    pub players: Option<Players>,
    /// The side whose player alone does the step; every player, when absent.
    #[serde(default)]
    pub side: Option<String>,
}

impl SetupStepAt {
    /// Whether the step is done when `seats` play.
    pub fn done_for(&self, seats: usize) -> bool {
        self.players.is_none_or(|p| (p.min..=p.max).contains(&(seats as i64)))
    }
}

#[derive(Clone, Copy, Debug, Deserialize)]
pub struct Players {
    pub min: i64,
    pub max: i64,
}

/// One step of the set-up; a step on zones each player owns is done for
/// every player, on shared zones once.
#[derive(Debug, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum SetupStep {
    /// The seat's decks of these types (the shared ones: the game's) go
    /// into the zone.
    /// With `random`, a deck of each type not named for the game is drawn
    /// at random among the document's decks of the type, for each game.
    Decks {
        deck_types: Vec<String>,
        to: String,
        #[serde(default)]
        set_aside: Option<String>,
        #[serde(default)]
        random: bool,
    },
    Place {
        kinds: Vec<String>,
        from: String,
        to: String,
    },
    Shuffle {
        zone: String,
    },
    /// `count` is a number, or `{field, each_in}`.
    Deal {
        count: serde_json::Value,
        from: String,
        to: String,
    },
    Add {
        field: String,
        counter: String,
        from: String,
    },
    Mulligan {
        zone: String,
    },
    #[serde(other)]
    Unknown,
}

/// A kind (or shared shape) and its schema.
#[derive(Debug, Deserialize)]
pub struct KindSchema {
    pub id: String,
    #[serde(default)]
    pub schema: Schema,
    /// The step, in tenths, at which a card of the kind enters play.
    #[serde(default)]
    pub enters_at: Option<i64>,
    /// The side whose cards the kind's are, when one side's.
    #[serde(default)]
    pub side: Option<String>,
}

/// The parts of a schema the engine reads: the types a field takes, its
/// nested fields and the shared shape it uses.
#[derive(Debug, Default, Deserialize)]
pub struct Schema {
    #[serde(default)]
    pub takes: Vec<TypeSpec>,
    #[serde(default)]
    pub fields: Vec<FieldSchema>,
    #[serde(default)]
    pub shape: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct FieldSchema {
    pub name: String,
    #[serde(default)]
    pub schema: Schema,
    /// Which value applies by how many other cards a side plays.
    #[serde(default)]
    pub by_cards_played: Vec<CardsPlayed>,
}

/// When a side plays `played` other cards, the field's value number
/// `value` (from 1) applies, or none.
#[derive(Debug, Deserialize)]
pub struct CardsPlayed {
    pub played: u32,
    #[serde(default)]
    pub value: Option<u32>,
}

/// A value type: a built-in name, or `{"enum": id}`.
#[derive(Debug, Deserialize)]
pub struct TypeSpec {
    pub ty: serde_json::Value,
}

impl Ruleset {
    /// A kind's own field of this name.
    pub fn kind_field(&self, kind: &str, field: &str) -> Option<&FieldSchema> {
        self.kinds.iter().find(|k| k.id == kind)?.schema.fields.iter().find(|f| f.name == field)
    }

    /// The step, in tenths, at which a card of the kind enters play, if the
    /// ruleset gives one.
    pub fn enters_at(&self, kind: &str) -> Option<i64> {
        self.kinds.iter().find(|k| k.id == kind).and_then(|k| k.enters_at)
    }

    /// The fields of a kind, at any depth, whose first value is of the enum
    /// that names steps: the fields by which its cards name a step.
    pub fn step_fields(&self, kind: &str) -> Vec<&str> {
        let Some(names) = &self.step_names else { return Vec::new() };
        let Some(kind) = self.kinds.iter().find(|k| k.id == kind) else { return Vec::new() };
        let names_step = |schema: &Schema| {
            schema.takes.first().and_then(|t| t.ty.get("enum")).and_then(|e| e.as_str()) == Some(names.as_str())
        };
        let mut found = Vec::new();
        let mut shapes_seen: Vec<&str> = Vec::new();
        let mut stack = vec![&kind.schema];
        // A shape may name itself through a field: each shape is opened once.
        while let Some(schema) = stack.pop() {
            for field in &schema.fields {
                if names_step(&field.schema) || self.shape_names_step(&field.schema, &names_step) {
                    found.push(field.name.as_str());
                }
                stack.push(&field.schema);
            }
            if let Some(shape) = schema.shape.as_deref().filter(|s| !shapes_seen.contains(s)) {
                shapes_seen.push(shape);
                stack.extend(self.shapes.iter().filter(|s| s.id == shape).map(|s| &s.schema));
            }
        }
        found
    }

    fn shape_names_step(&self, schema: &Schema, names_step: &dyn Fn(&Schema) -> bool) -> bool {
        let shape = schema.shape.as_deref();
        schema.takes.is_empty() && self.shapes.iter().any(|s| Some(s.id.as_str()) == shape && names_step(&s.schema))
    }
}

/// A named side of the table, played by one player.
#[derive(Debug, Deserialize)]
pub struct Side {
    pub id: String,
    pub player: u32,
}

/// A phase of the turn: its own steps, the initiative scale's, or none.
#[derive(Debug, Deserialize)]
pub struct Phase {
    pub id: String,
    #[serde(default)]
    pub display: String,
    #[serde(default)]
    pub steps: Vec<Step>,
    #[serde(default)]
    pub initiative: bool,
    /// The order the phase follows the scale in; none: the scale's.
    #[serde(default)]
    pub order: Option<ScaleOrder>,
    /// The phase's own tie-break list; empty: the ruleset's.
    #[serde(default)]
    pub tie_break: Vec<TieBreak>,
    #[serde(default)]
    pub alternate: bool,
    /// Deck types played as a whole in this phase.
    #[serde(default)]
    pub plays: Vec<String>,
    /// The side whose own turn the phase is (`ruleset.sides[].id`): only
    /// its player plays in it; every player, when absent.
    #[serde(default)]
    pub side: Option<String>,
    /// What players do in the phase, when the ruleset declares play.
    #[serde(flatten)]
    pub play: semantics::PhasePlay,
}

#[derive(Debug, Deserialize)]
pub struct Step {
    pub id: String,
    #[serde(default)]
    pub display: String,
    /// The side whose step it is: only its plays are timed in it.
    #[serde(default)]
    pub side: Option<String>,
}

/// `X` (optionally) first, then from `from_tenths` down to `to_tenths` in
/// steps of `step_tenths`.
#[derive(Debug, Deserialize)]
pub struct Scale {
    pub has_x: bool,
    pub from_tenths: i64,
    pub to_tenths: i64,
    pub step_tenths: i64,
    /// A tenth orders values within a whole step (`3.4` before `3.2`).
    #[serde(default)]
    pub priority_digit: bool,
    /// How the game prints a step, `{}` for its value (`Initiative {}`).
    #[serde(default)]
    pub printed: Option<String>,
}

impl Scale {
    /// Whether the scale counts in whole numbers.
    pub fn whole(&self) -> bool {
        self.step_tenths > 0 && self.step_tenths % 10 == 0 && self.from_tenths % 10 == 0
    }

    /// A value as the game prints it: `4` on a scale of whole numbers.
    pub fn show(&self, at: Initiative) -> String {
        match at {
            Initiative::X => "X".to_string(),
            Initiative::Step(t) if self.whole() && t % 10 == 0 => (t / 10).to_string(),
            Initiative::Step(t) => tenths(t),
        }
    }

    /// A step's heading as the game prints it (`Initiative 4`).
    pub fn printed(&self, value: &str) -> String {
        match &self.printed {
            Some(form) => form.replacen("{}", value, 1),
            None => value.to_string(),
        }
    }
}

/// The order a phase follows the scale in, when not the scale's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScaleOrder {
    LowestFirst,
    HighestFirst,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum TieBreak {
    /// Cards of these kinds come first; among them a higher (or lower) value
    /// of `field` comes first.
    Kind {
        kinds: Vec<String>,
        #[serde(default)]
        field: Option<String>,
        #[serde(default = "highest")]
        highest: bool,
        /// A card without the value goes before those with it (else after).
        #[serde(default)]
        missing_first: bool,
    },
    /// Sides in this order: side ids or player numbers; with `if_needed`,
    /// only where an effect needs an order (the plays stay tied).
    Side {
        order: Vec<String>,
        #[serde(default)]
        if_needed: bool,
    },
    /// A higher (or lower) value of the field first, whatever the kind.
    Value {
        field: String,
        #[serde(default = "highest")]
        highest: bool,
    },
    /// The side whose play has the higher (or lower) value chooses who goes
    /// first; listed first, it may go second.
    Choice {
        field: String,
        #[serde(default = "highest")]
        highest: bool,
    },
    /// The player who has initiative first.
    HasInitiative,
    /// Still tied: one player's plays, in the order that player chooses.
    PlayerChooses,
    /// Still tied: at the same time.
    Simultaneous,
    /// Still tied: a roll decides, as described.
    Roll { text: String },
    /// A tier this engine does not know; it breaks no tie.
    #[serde(other)]
    Unknown,
}

fn highest() -> bool {
    true
}

/// A deck, with the values computed for it (`strategy-rating`).
#[derive(Debug, Deserialize)]
pub struct Deck {
    pub name: String,
    pub deck_type: String,
    #[serde(default)]
    pub computed: std::collections::BTreeMap<String, serde_json::Value>,
    /// The cards it lists, with their copies.
    #[serde(default)]
    pub cards: Vec<DeckCard>,
    /// The names of the decks it includes.
    #[serde(default)]
    pub includes: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub struct DeckCard {
    pub card: String,
    pub count: u32,
    /// Where the deck places copies of the card on the table.
    #[serde(default)]
    pub positions: Vec<[i64; 2]>,
}

/// The table a game is played on, in the game's unit of distance.
#[derive(Debug, Deserialize)]
pub struct Table {
    #[serde(default)]
    pub display: String,
    pub width: i64,
    pub depth: i64,
    /// Fields whose value is a piece's radius, the first a card has.
    #[serde(default)]
    pub radius: Vec<String>,
    /// Fields whose value is a piece's diameter, for a card without radius.
    #[serde(default)]
    pub diameter: Vec<String>,
    #[serde(default)]
    pub deployments: Vec<Deployment>,
}

/// A deployment zone: the rectangle between two corners, for one side or
/// every side.
#[derive(Debug, Deserialize)]
pub struct Deployment {
    pub id: String,
    #[serde(default)]
    pub display: String,
    #[serde(default)]
    pub side: Option<String>,
    pub from: [i64; 2],
    pub to: [i64; 2],
}

impl Document {
    /// The pieces a deck places on the table, with their cards: each
    /// position a copy, measured with the game's size fields.
    pub fn placed(&self, deck: &Deck) -> Vec<(&Card, crate::geometry::Piece)> {
        let Some(table) = &self.ruleset.table else { return Vec::new() };
        let mut pieces = Vec::new();
        for line in &deck.cards {
            let Some(card) = self.card(&line.card) else { continue };
            let radius = table.radius_of(card);
            for [x, y] in &line.positions {
                pieces.push((card, crate::geometry::Piece { x: *x as f64, y: *y as f64, radius }));
            }
        }
        pieces
    }
}

impl Table {
    /// The table's geometry, to measure on.
    pub fn geometry(&self) -> crate::geometry::Table {
        crate::geometry::Table { width: self.width as f64, depth: self.depth as f64 }
    }

    /// A deployment zone's area.
    pub fn area(zone: &Deployment) -> crate::geometry::Area {
        crate::geometry::Area::between(zone.from, zone.to)
    }

    /// A card's radius: its first `radius` field, else half its first
    /// `diameter` field; 0 without either.
    pub fn radius_of(&self, card: &Card) -> f64 {
        let first = |fields: &[String]| {
            fields.iter().find_map(|f| card.field(f).and_then(|f| f.values.first()).and_then(Value::length))
        };
        crate::geometry::Piece::radius_of(first(&self.radius), first(&self.diameter))
    }
}

#[derive(Debug, Deserialize)]
pub struct Card {
    pub name: String,
    pub kind: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub body: Body,
}

impl Card {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.body.fields.iter().find(|f| f.name == name)
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Body>,
}

/// What a field's block holds: nested fields, effect lines and conditions.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
pub struct Body {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Conditional>,
    /// `choose { … }` blocks: alternatives, one of which applies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Choice>,
    /// `then { … }` steps, resolved after the rest of the block, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<Body>,
}

/// A `choose` block: its options, each a body, in the order written.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Choice {
    pub options: Vec<Body>,
}

/// The value a card gives one parameter of a declared condition or
/// quantity.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Argument {
    pub param: String,
    pub value: Value,
}

/// `1 per bases`: the quantity of the game state an amount counts.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Per {
    pub quantity: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<Argument>,
}

/// `impact damage 8+`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Effect {
    pub role: String,
    pub symbol: String,
    pub amount: i64,
    /// `none`, `after` (`8+`) or `before` (`+2`).
    pub plus: String,
    /// The amount is for each unit of a quantity of the game state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per: Option<Per>,
}

/// Effects that apply only when the condition holds.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Conditional {
    pub condition: Condition,
    pub body: Body,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Condition {
    /// The range is within these bands: `from` alone, `from..to`, or `from..`
    /// (`open`).
    Range {
        from: String,
        #[serde(default)]
        to: Option<String>,
        #[serde(default)]
        open: bool,
    },
    /// A condition the ruleset declares, with the card's values for its
    /// parameters: `when target-has burn`.
    Declared {
        id: String,
        #[serde(default)]
        args: Vec<Argument>,
    },
    /// A condition this engine does not know.
    #[serde(other)]
    Other,
}

/// A typed value: `{"type": "int", "value": 3}`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "type", content = "value", rename_all = "kebab-case")]
pub enum Value {
    Int(i64),
    Signed(i64),
    Decimal(String),
    Distance(String),
    Initiative(Initiative),
    /// A grade: a letter (`A` best) and its `+` marks.
    Grade {
        letter: String,
        plus: u32,
    },
    String(String),
    Name(String),
    /// Card text, as written (its icons and references left in the text).
    Text(String),
    /// A token printed in place of a value (`-`, `*`): never a number.
    Special {
        token: String,
        meaning: String,
    },
    /// A keyword the card carries (`tough(2)`), by id; its arguments are
    /// not read.
    Keyword(String),
    /// A value type the engine does not read.
    Other,
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            #[serde(rename = "type")]
            ty: String,
            #[serde(default)]
            value: serde_json::Value,
        }
        let Raw { ty, value } = Raw::deserialize(deserializer)?;
        let read = match ty.as_str() {
            "int" => serde_json::from_value(value).map(Value::Int),
            "signed" => serde_json::from_value(value).map(Value::Signed),
            "decimal" => serde_json::from_value(value).map(Value::Decimal),
            "distance" => serde_json::from_value(value).map(Value::Distance),
            "initiative" => serde_json::from_value(value).map(Value::Initiative),
            "grade" => {
                #[derive(Deserialize)]
                struct Grade {
                    letter: String,
                    #[serde(default)]
                    plus: u32,
                }
                serde_json::from_value(value).map(|Grade { letter, plus }| Value::Grade { letter, plus })
            }
            "string" => serde_json::from_value(value).map(Value::String),
            "keyword" => serde_json::from_value::<RawKeyword>(value).map(|k| Value::Keyword(k.id)),
            "name" => serde_json::from_value(value).map(Value::Name),
            "text" => serde_json::from_value::<RawText>(value).map(|t| Value::Text(t.raw)),
            "special" => {
                #[derive(Deserialize)]
                struct Special {
                    token: String,
                    meaning: String,
                }
                serde_json::from_value(value).map(|Special { token, meaning }| Value::Special { token, meaning })
            }
            _ => Ok(Value::Other),
        };
        read.map_err(serde::de::Error::custom)
    }
}

impl Value {
    /// A length the value gives: a distance (`6"`), a decimal or a whole
    /// number.
    pub fn length(&self) -> Option<f64> {
        match self {
            Value::Int(n) => Some(*n as f64),
            Value::Distance(text) | Value::Decimal(text) => text.trim_end_matches('"').parse().ok(),
            _ => None,
        }
    }

    /// The value as it is written on the card.
    pub fn written(&self) -> String {
        match self {
            Value::Int(n) => n.to_string(),
            Value::Signed(n) => format!("{n:+}"),
            Value::Decimal(text) | Value::Name(text) => text.clone(),
            Value::Distance(text) => format!("{text}\""),
            Value::Initiative(Initiative::X) => "X".to_string(),
            Value::Initiative(Initiative::Step(t)) => tenths(*t),
            Value::Grade { letter, plus } => format!("{letter}{}", "+".repeat((*plus).min(8) as usize)),
            Value::String(text) => format!("{text:?}"),
            Value::Text(text) => text.clone(),
            Value::Special { token, .. } => token.clone(),
            // A keyword's arguments are not read: it is shown as unread.
            Value::Keyword(_) | Value::Other => "…".to_string(),
        }
    }
}

/// The part of a text value the engine reads.
#[derive(Deserialize)]
struct RawText {
    raw: String,
}

/// The part of a keyword value the engine reads.
#[derive(Deserialize)]
struct RawKeyword {
    id: String,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Initiative {
    X,
    /// In tenths.
    Step(i64),
}

/// A number of tenths as written: `3.4`, `-0.5`.
pub(crate) fn tenths(value: impl Into<i128>) -> String {
    let value: i128 = value.into();
    let sign = if value < 0 { "-" } else { "" };
    format!("{sign}{}.{}", value.unsigned_abs() / 10, value.unsigned_abs() % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_value_condition_and_tier_types_still_load() {
        let value: Vec<Value> =
            serde_json::from_str(r#"[{"type":"int","value":3},{"type":"colour","value":"red"}]"#).expect("values");
        assert_eq!(value, vec![Value::Int(3), Value::Other]);
        let grade: Value = serde_json::from_str(r#"{"type":"grade","value":{"letter":"B","plus":2}}"#).expect("grade");
        assert_eq!(grade.written(), "B++");
        let text: Value = serde_json::from_str(r#"{"type":"text","value":{"raw":"Deal 1 {damage}.","parts":[]}}"#)
            .expect("a text value");
        assert_eq!(text, Value::Text("Deal 1 {damage}.".into()));
        let condition: Condition = serde_json::from_str(r#"{"type":"phase","name":"draw"}"#).expect("condition");
        assert_eq!(condition, Condition::Other);
        let tier: TieBreak = serde_json::from_str(r#"{"by":"priority","digits":1}"#).expect("tier");
        assert!(matches!(tier, TieBreak::Unknown));
    }

    /// A special value is read with its token and meaning, and shown as
    /// printed: never as a number, never as an unknown value.
    #[test]
    fn a_special_value_is_read_as_its_token() {
        let value: Value =
            serde_json::from_str(r#"{"type":"special","value":{"token":"*","meaning":"see-text"}}"#).expect("value");
        assert_eq!(value, Value::Special { token: "*".into(), meaning: "see-text".into() });
        assert_eq!(value.written(), "*");
    }

    #[test]
    fn a_deck_places_its_pieces_on_the_table_with_their_size() {
        let document = Document::from_json(
            r#"{"format": 6, "ruleset": {"id": "g", "title": "G", "table": {"width": 36, "depth": 36,
                "radius": ["radius"], "deployments": [{"id": "near", "from": [0, 0], "to": [36, 4]}]}},
              "cards": [{"name": "Rock", "kind": "obstacle",
                "body": {"fields": [{"name": "radius", "values": [{"type": "distance", "value": "2\""}]}]}}],
              "decks": [{"name": "Belt", "deck_type": "scenario",
                "cards": [{"card": "Rock", "count": 2, "positions": [[10, 12], [16, 20]]}]}]}"#,
        )
        .expect("engine data");
        let pieces = document.placed(&document.decks[0]);
        assert_eq!(pieces.len(), 2);
        let (first, second) = (pieces[0].1, pieces[1].1);
        assert_eq!(first.radius, 2.0);
        assert_eq!(first.distance(&second), 10.0);
        assert_eq!(first.gap(&second), 6.0);
        let table = document.ruleset.table.as_ref().expect("table");
        assert_eq!(table.geometry().edge_gap(&first), 8.0);
        assert!(Table::area(&table.deployments[0]).contains(20.0, 3.0));
    }

    #[test]
    fn a_document_of_another_format_is_refused_for_its_version() {
        let error = Document::from_json(r#"{"format": 7, "whatever": true}"#).expect_err("refused");
        assert!(matches!(error, ReadError::Format(7)), "{error}");
    }
}
