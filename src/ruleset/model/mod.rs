//! The meaning of a ruleset: what `*.rules` files declare, resolved and
//! indexed.  Content is checked against this; nothing here is specific to a
//! game.

pub mod play;
pub mod rule;
pub mod setup;
pub mod special;

use crate::source::Span;
use crate::syntax::ast::Expr;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Ruleset {
    pub id: String,
    pub title: String,
    /// What the game is, as the ruleset says (`doc "…"` in its header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// The ruleset this one extends with house rules, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    #[serde(skip)]
    pub span: Span,
    pub symbols: Vec<Named>,
    pub icons: Vec<Named>,
    pub roles: Vec<Role>,
    pub initiative: Option<Scale>,
    pub tie_break: Vec<TieBreak>,
    /// The named sides of the table, each one player (`side north "North"
    /// player 1`); players `1`, `2` … need no declaration.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<Side>,
    /// A turn's phases, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<Phase>,
    /// The enum whose values name steps on cards (`step-names timing`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_names: Option<String>,
    pub ranges: Vec<Band>,
    /// The dice the game rolls, by their sides (`dice D3 D6`); empty when
    /// the ruleset does not say, and any die is read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<i64>,
    pub arcs: Vec<Named>,
    pub enums: Vec<EnumDef>,
    pub deck_symbols: Vec<DeckSymbol>,
    pub keywords: Vec<KeywordDef>,
    pub tags: Vec<TagDef>,
    #[serde(skip)]
    pub shapes: Vec<(String, Schema)>,
    pub kinds: Vec<Kind>,
    pub deck_types: Vec<DeckType>,
    pub play_limits: Vec<Constraint>,
    /// The most a cost of a symbol can be (`cost-limit cost damage 24 "…"`).
    pub cost_limits: Vec<CostLimit>,
    /// Tokens a card may write in place of a value (`-`, `*`): the built-in
    /// ones and those the ruleset declares.
    pub specials: Vec<special::Special>,
    /// How a game is set up (`setup { … }`), when the ruleset says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<setup::Setup>,
    /// Conditions effect blocks may depend on (`when target-has burn { … }`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<StateDef>,
    /// Numbers of the game state an effect's amount may count (`draw card 1
    /// per bases`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quantities: Vec<StateDef>,
    /// The forms an effect's amount may take (`amount 3+ "…"`), with what
    /// each means in this game; none declared: every form.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub amount_forms: Vec<AmountForm>,
    /// Named expressions rules call (`def at-most(n) count() <= n`), for
    /// engines reading a rule's text.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub definitions: Vec<Definition>,
    /// The card names its rules test (`name == "Scout"`), and where, for
    /// the checker to find those no card of the game has.
    #[serde(skip)]
    #[schemars(skip)]
    pub tested_names: Vec<(String, Span)>,
    /// The end of the game and the winner (`play { … }`): present when the
    /// ruleset declares how its game is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<play::Play>,
    /// Priorities for the greedy bot (`bot ID "NAME" { prefer … }`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<play::Bot>,
    /// The table the game is played on (`table "Table" { size 48 x 48 }`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<Table>,
    /// Manoeuvre dials: grids of bearing by speed (`dial manoeuvres { … }`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dials: Vec<Dial>,
}

/// `dial manoeuvres "Manoeuvre Dial" { field move; bearings bearing;
/// difficulties difficulty; colour easy blue }`: the lines of a repeated
/// field are the manoeuvres of a card's dial, each a cell of a grid of
/// bearings by speeds, coloured by its difficulty.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Dial {
    pub id: String,
    pub display: String,
    /// The repeated field whose lines are the manoeuvres, each its speed,
    /// its bearing and its difficulty, in that order (`move 2 bank-left
    /// normal`).
    pub field: String,
    /// The enum of the bearings: the grid's columns, in its order.
    pub bearings: String,
    /// The enum of the difficulties.
    pub difficulties: String,
    /// The lowest and highest speed: the grid's rows, from the field's
    /// range of speeds.
    pub speeds: [i64; 2],
    /// The colour each difficulty prints in, `#rrggbb`.
    pub colours: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Where each line naming something is, for the checks once the
    /// ruleset is read: `field`, `bearings`, `difficulties`, and each
    /// colour's difficulty.
    #[serde(skip)]
    pub(crate) spans: DialSpans,
    #[serde(skip)]
    pub span: Span,
}

/// Where a dial's lines name things.
#[derive(Clone, Debug, Default)]
pub(crate) struct DialSpans {
    pub(crate) field: Option<Span>,
    pub(crate) bearings: Option<Span>,
    pub(crate) difficulties: Option<Span>,
    pub(crate) colours: Vec<(String, Span)>,
}

/// The table a game is played on, in the game's unit of distance: its size,
/// its deployment zones and the fields that give a piece its size.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Table {
    pub display: String,
    pub width: i64,
    pub depth: i64,
    /// Fields whose value is a piece's radius: the first a card has.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub radius: Vec<String>,
    /// Fields whose value is a piece's diameter (or longest dimension),
    /// read when it has none of the `radius` fields.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diameter: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deployments: Vec<Deployment>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Where the fields are named, for a name that is no field.
    #[serde(skip)]
    #[schemars(skip)]
    pub field_spans: Vec<(String, Span)>,
    #[serde(skip)]
    pub span: Span,
}

impl Table {
    /// Whether a position lies on the table, its edges included.
    pub fn holds(&self, [x, y]: [i64; 2]) -> bool {
        (0..=self.width).contains(&x) && (0..=self.depth).contains(&y)
    }
}

/// A deployment zone: a rectangle of the table between two corners, for
/// one side (or every side).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Deployment {
    pub id: String,
    pub display: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    pub from: [i64; 2],
    pub to: [i64; 2],
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    #[schemars(skip)]
    pub side_span: Option<Span>,
}

/// A form of effect amount a ruleset allows: a plain number, a number with
/// `+` after it, or one with `+` before it, and what that means in the game.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct AmountForm {
    pub form: Plus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
}

impl AmountForm {
    /// How the form is written, with 3 for the number.
    pub fn example(form: Plus) -> &'static str {
        match form {
            Plus::None => "3",
            Plus::After => "3+",
            Plus::Before => "+3",
        }
    }
}

/// Something of the game state the ruleset declares for effects to name: a
/// condition, a test that cards write as `when ID ARGS… { effects }` (a
/// token on the target, the firing arc, a card's tag); or a quantity, a
/// number an amount counts (`1 per bases`: the bases a player has).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct StateDef {
    pub id: String,
    /// What faces print: a condition before the effects it guards, a
    /// quantity after the amount; `{param}` stands for the printed value of
    /// that parameter.
    pub display: String,
    /// What the card writes after the id, in order.
    pub params: Vec<Param>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// What it is in play: a truth for a condition, a number for a
    /// quantity (`means count(lit)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub means: Option<play::Expression>,
    #[serde(skip)]
    pub span: Span,
}

/// A definition as written: its name, its parameters and its expression.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Definition {
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    pub text: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CostLimit {
    pub role: String,
    pub symbol: String,
    pub max: i64,
    pub reason: String,
}

/// Something declared with an id, a printed name and optional documentation.
/// The angles of an arc, in degrees clockwise from straight ahead: it
/// covers `from` round to `to`, measured from the base's centre or edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ArcAngles {
    pub from: i64,
    pub to: i64,
    pub origin: ArcOrigin,
}

/// Where an arc's angles are measured from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArcOrigin {
    Centre,
    Edge,
}

impl ArcAngles {
    /// How many degrees the arc covers, 1 to 360.
    pub fn width(&self) -> i64 {
        self.to - self.from
    }

    /// Whether `self` lies within `outer`: measured from the same place,
    /// and every angle it covers is one `outer` covers.
    pub fn within(&self, outer: &ArcAngles) -> bool {
        if self.origin != outer.origin {
            return false;
        }
        if outer.width() >= 360 {
            return true;
        }
        let start = (self.from - outer.from).rem_euclid(360);
        start + self.width() <= outer.width()
    }
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Named {
    pub id: String,
    pub display: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// What each role's effects do with this symbol in play (`does gain {
    /// add coin amount }`); symbols only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub does: Vec<play::Meaning>,
    /// The angles an arc covers (`angles -40 40 from centre`); arcs only,
    /// and only where the rules state them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angles: Option<ArcAngles>,
    /// The arc this one lies within, as the ruleset says (`within front`):
    /// checked against both arcs' angles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    #[serde(skip)]
    #[schemars(skip)]
    pub within_span: Option<Span>,
    /// Where it is declared, for the warnings about how it prints.
    #[serde(skip)]
    #[schemars(skip)]
    pub span: Option<Span>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Role {
    pub id: String,
    pub display: String,
    /// The colour its effects print in; a game that prints no colours
    /// leaves it out, and its effects print in the text's colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// Where the colour is named, for the warnings about how it prints.
    #[serde(skip)]
    #[schemars(skip)]
    pub colour_span: Option<Span>,
    pub applies_to: String,
    /// The shape printed beside the role's effects (an icon id), so that
    /// they can be told apart without colour: in black and white, or by a
    /// colour-blind player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<String>,
    /// Where the mark is named, for a print that has no drawing of it.
    #[serde(skip)]
    #[schemars(skip)]
    pub mark_span: Option<Span>,
}

/// An initiative scale: optionally `X` first, then numbers from `from` to
/// `to` in steps of `step`, all in tenths: counting down when `from` is the
/// larger, up when it is the smaller.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Scale {
    pub has_x: bool,
    /// Whether a whole number (`3`) is accepted as the step `3.0`.
    pub whole_steps: bool,
    /// On a scale of whole numbers, whether a value may carry a tenth, its
    /// priority within the step (`3.4` is in step 3, before `3.2`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub priority_digit: bool,
    pub from_tenths: i64,
    pub to_tenths: i64,
    pub step_tenths: i64,
    /// How the game prints a step, `{}` standing for its value
    /// (`Initiative {}`); none: the value alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub printed: Option<String>,
}

impl Scale {
    /// Whether a value lies within a step of a scale stepping by whole
    /// numbers: `3.4` is in step `3`, before `3.2` when counting down.
    pub fn within_step(&self, tenths: i64) -> bool {
        self.priority_digit && self.whole() && self.contains(tenths - tenths.rem_euclid(10))
    }

    /// Whether the scale counts in whole numbers (`from 1 to 6 by 1`).
    pub fn whole(&self) -> bool {
        self.step_tenths > 0 && self.step_tenths % 10 == 0 && self.from_tenths % 10 == 0
    }

    /// A value as the game prints it: `4` on a scale of whole numbers,
    /// `3.4` with a tenth.
    pub fn show(&self, tenths: i64) -> String {
        if self.whole() && tenths % 10 == 0 {
            (tenths / 10).to_string()
        } else {
            self::tenths(tenths)
        }
    }

    pub fn contains(&self, tenths: i64) -> bool {
        let (low, high) = (self.from_tenths.min(self.to_tenths), self.from_tenths.max(self.to_tenths));
        tenths <= high && tenths >= low && self.step_tenths > 0 && (self.from_tenths - tenths) % self.step_tenths == 0
    }

    /// Whether the scale counts up (`from 1 to 5`) rather than down.
    pub fn ascending(&self) -> bool {
        self.from_tenths < self.to_tenths
    }

    pub fn describe(&self) -> String {
        let x = if self.has_x { "X, " } else { "" };
        let direction = if self.ascending() { "up" } else { "down" };
        if self.whole() {
            let whole = |t: i64| (t / 10).to_string();
            let priority = if self.priority_digit { ", a tenth within a step (`3.4`) ordering it" } else { "" };
            return format!(
                "{x}{} {direction} to {} in steps of {}{priority}",
                whole(self.from_tenths),
                whole(self.to_tenths),
                whole(self.step_tenths)
            );
        }
        format!(
            "{x}{} {direction} to {} in steps of {}",
            tenths(self.from_tenths),
            tenths(self.to_tenths),
            tenths(self.step_tenths)
        )
    }
}

pub fn tenths(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    format!("{sign}{}.{}", value.abs() / 10, value.abs() % 10)
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum TieBreak {
    /// Cards of these kinds go first (one tier); among them, a higher (or
    /// lower) value of the field wins, and a card without the value goes
    /// after those with it, or before them when `missing_first`.
    Kind {
        kinds: Vec<String>,
        field: Option<String>,
        highest: bool,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        missing_first: bool,
    },
    /// The first side named goes first: a side the ruleset declares, or a
    /// player number.  With `if_needed`, plays still tied resolve at the
    /// same time, and this order applies only where an effect needs one.
    Side {
        order: Vec<String>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        if_needed: bool,
    },
    /// Any card: a higher (or lower) value of the field goes first
    /// (`higher power`).
    Value { field: String, highest: bool },
    /// The side whose play has the higher (or lower) value of the field
    /// chooses who goes first (`choose lower strategy-rating`).
    Choice { field: String, highest: bool },
    /// The player who has initiative goes first (who has it is decided in
    /// play, or given to `timeline`).
    HasInitiative,
    /// Outcome: plays still tied are one player's, who plays them in the
    /// order they choose.
    PlayerChooses,
    /// Outcome: plays still tied resolve at the same time.
    Simultaneous,
    /// Outcome: plays still tied are ordered by a roll, as described.
    Roll { text: String },
}

impl TieBreak {
    /// Whether the rule ends the list: it decides every tie left.
    pub fn is_outcome(&self) -> bool {
        matches!(self, TieBreak::Simultaneous | TieBreak::Roll { .. } | TieBreak::PlayerChooses)
    }
}

/// A named side of the table, played by one player.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Side {
    pub id: String,
    pub display: String,
    pub player: u32,
}

/// A phase of the turn, with the steps that cards can name.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Phase {
    pub id: String,
    pub display: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// Whether the phase's steps are the initiative scale's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub initiative: bool,
    /// The order the phase follows the scale in, when not the scale's own
    /// (`initiative lowest-first`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<ScaleOrder>,
    /// The phase's own tie-break list; empty: the ruleset's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tie_break: Vec<TieBreak>,
    /// Whether the sides take turns: each side's next play, one round after
    /// another, the tie-break list ordering each round.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub alternate: bool,
    /// The deck types played in this phase as a whole (a battlegroup).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub plays: Vec<String>,
    /// The side whose player alone plays the phase (`side corp`): that
    /// side's own turn; every player, when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// What players do in the phase, when the ruleset declares play.
    #[serde(flatten)]
    pub play: play::PhasePlay,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

/// The order a phase follows the initiative scale in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ScaleOrder {
    LowestFirst,
    HighestFirst,
}

impl ScaleOrder {
    /// The words a phase's `initiative` line takes, and what each means.
    pub const WORDS: [(&'static str, ScaleOrder); 2] =
        [("lowest-first", ScaleOrder::LowestFirst), ("highest-first", ScaleOrder::HighestFirst)];
}

/// A step of a phase.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Step {
    pub id: String,
    pub display: String,
    /// The side whose step it is (`step mulligan "Mulligan" side runner`):
    /// only that side's cards are timed in it; every side's, when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Band {
    pub id: String,
    pub display: String,
    pub low: i64,
    pub high: Option<i64>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct EnumDef {
    pub id: String,
    pub values: Vec<String>,
    /// A number per value, for rules that add values up (tonnage → 1, 5, 10).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub weights: BTreeMap<String, i64>,
    /// What a printed face shows for a value (`ucm` → `UCM`), when the value
    /// made readable would not do.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Other spellings a rulebook prints for a value (`S(L)` for
    /// `S(Left)`), each read as the value.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub printed: BTreeMap<String, String>,
}

impl EnumDef {
    pub fn weight(&self, value: &str) -> Option<i64> {
        self.weights.get(value).copied()
    }

    pub fn label(&self, value: &str) -> Option<&str> {
        self.labels.get(value).map(String::as_str)
    }
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DeckSymbol {
    pub id: String,
    pub display: String,
    pub deck_type: Option<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct KeywordDef {
    pub id: String,
    pub display: String,
    pub params: Vec<Param>,
    pub only: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Other names a rulebook prints it by (`L` for Limited, as in
    /// `L (2)`), read as the keyword where a keyword is written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub printed: Vec<String>,
    /// What the keyword does, as effect lines over its parameters
    /// (`effect impact damage heat`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<KeywordEffect>,
}

/// One effect line of a keyword's declaration.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct KeywordEffect {
    pub role: String,
    pub symbol: String,
    pub amount: KeywordAmount,
    pub plus: Plus,
    /// Where the role, the symbol and the amount are written.
    #[serde(skip)]
    pub spans: [Span; 3],
    /// The condition it applies under, when written in a `when` block of
    /// the keyword.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<KeywordCondition>,
}

/// `when ID ARGS… { effect … }` in a keyword: a declared condition, each of
/// its values a name or number written there or one of the keyword's
/// parameters.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct KeywordCondition {
    pub id: String,
    pub args: Vec<KeywordArg>,
    /// Where the condition's id and each value are written.
    #[serde(skip)]
    pub spans: Vec<Span>,
}

/// A value of a keyword's condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KeywordArg {
    /// The value a card gives this parameter of the keyword.
    Param(String),
    /// A declared name (an enum value, an arc, a tag…).
    Name(String),
    Int(i64),
}

/// A keyword effect's amount: a number, or the value the card gives one of
/// the keyword's parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KeywordAmount {
    Fixed(i64),
    Param(String),
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Param {
    pub name: String,
    pub ty: TypeSpec,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TagDef {
    pub id: String,
    pub display: String,
    pub only: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Kind {
    pub id: String,
    pub display: String,
    pub border: Option<String>,
    /// Where the border colour is named.
    #[serde(skip)]
    #[schemars(skip)]
    pub border_span: Option<Span>,
    pub roles: Vec<String>,
    /// Roles allowed but unusual on this kind (the `unusual-role` lint).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rare_roles: Vec<String>,
    /// How many characters of text the kind's layout holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_limit: Option<i64>,
    /// The kind's own printed size in millimetres (width, height), from a
    /// `card-size` line; it wins over the size the print command is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card_size: Option<(f32, f32)>,
    /// The step of the initiative scale, in tenths, at which a card of this
    /// kind enters play when it is played (`enters-at 5.0`), and where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enters_at: Option<i64>,
    #[serde(skip)]
    pub enters_at_span: Option<crate::source::Span>,
    /// The side whose cards these are (`side runner`): only its decks
    /// hold them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    pub schema: Schema,
}

/// What a node may hold: positional values, then a block of fields and/or
/// effect lines.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct Schema {
    pub takes: Vec<TypeSpec>,
    pub fields: Vec<FieldDef>,
    /// Fields that must appear together or not at all.
    pub together: Vec<Vec<String>>,
    /// Whether effect lines (`impact damage 3`) and conditions are allowed.
    pub effects: bool,
    /// A shared shape whose takes and fields this schema uses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// Rules every card (or block) of this shape must follow, such as "red
    /// arrows move the target into blue hexes".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Constraint>,
}

impl Schema {
    pub fn field(&self, name: &str) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.name == name)
    }
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FieldDef {
    pub name: String,
    pub required: bool,
    pub many: bool,
    /// What the field's node takes and holds.
    pub schema: Schema,
    /// Whether a block is expected after the values.
    pub has_block: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// What a printed face calls the field (`Admiral Value`), when its name
    /// made readable (`Av`) would not do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Which of the field's values applies in a turn, by how many other
    /// cards the side plays (`by-cards-played`): a basic move that power
    /// management shortens.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_cards_played: Vec<CardsPlayed>,
}

/// One line of a field's `by-cards-played` block: when a side plays
/// `played` other cards, the field's value number `value` (from 1) applies,
/// or none of them.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct CardsPlayed {
    pub played: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
}

/// A value type with how often it repeats and optional bounds.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct TypeSpec {
    pub ty: Type,
    pub repeat: Repeat,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<(i64, Option<i64>)>,
    /// Special values written in place of one of this type (`int or "*"`):
    /// tokens of the ruleset's `specials`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub specials: Vec<String>,
}

impl TypeSpec {
    /// One value of a type, unbounded, with no special values.
    pub fn one(ty: Type) -> TypeSpec {
        TypeSpec { ty, repeat: Repeat::One, bounds: None, specials: Vec::new() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Repeat {
    One,
    OneOrMore,
    ZeroOrMore,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Type {
    Int,
    Signed,
    Decimal,
    Initiative,
    Distance,
    Save,
    Dice,
    Range,
    Coord,
    Text,
    String,
    Ident,
    Symbol,
    Arc,
    RangeBand,
    DeckSymbol,
    Keyword,
    Kind,
    Tag,
    /// Declares a keyword that cards sharing this card's deck symbol may use.
    NewKeyword,
    /// A letter grade with optional `+` marks (`B++`).
    Grade,
    /// A quoted path to an image file of the project (PNG, JPEG or SVG),
    /// which `print` reads and templates draw.
    Image,
    Enum(String),
    /// A `/`-separated set of values of an enum (`F/S(R)`).
    Set(String),
}

impl Type {
    /// The built-in type names a ruleset may use, besides its own enums.
    pub const BUILT_IN: &'static [(&'static str, Type)] = &[
        ("int", Type::Int),
        ("signed", Type::Signed),
        ("decimal", Type::Decimal),
        ("initiative", Type::Initiative),
        ("distance", Type::Distance),
        ("save", Type::Save),
        ("dice", Type::Dice),
        ("range", Type::Range),
        ("coord", Type::Coord),
        ("text", Type::Text),
        ("string", Type::String),
        ("ident", Type::Ident),
        ("symbol", Type::Symbol),
        ("arc", Type::Arc),
        ("range-band", Type::RangeBand),
        ("deck-symbol", Type::DeckSymbol),
        ("keyword", Type::Keyword),
        ("kind", Type::Kind),
        ("tag", Type::Tag),
        ("new-keyword", Type::NewKeyword),
        ("grade", Type::Grade),
        ("image", Type::Image),
    ];

    /// The built-in type another language's name for it means: `integer`
    /// is `int` here.
    pub fn synonym(name: &str) -> Option<&'static str> {
        const SYNONYMS: &[(&str, &str)] = &[
            ("integer", "int"),
            ("number", "int"),
            ("num", "int"),
            ("float", "decimal"),
            ("real", "decimal"),
            ("str", "text"),
            ("image-path", "image"),
            ("picture", "image"),
        ];
        SYNONYMS.iter().find(|(other, _)| other.eq_ignore_ascii_case(name)).map(|(_, ours)| *ours)
    }

    /// How the type is written in a ruleset.
    pub fn name(&self) -> &str {
        if let Type::Enum(name) | Type::Set(name) = self {
            return name;
        }
        Type::BUILT_IN.iter().find(|(_, t)| t == self).map(|(n, _)| *n).unwrap_or("value")
    }

    /// How a designer would describe a value of this type, with an example.
    pub fn describe(&self) -> String {
        match self {
            Type::Int => "a whole number like `3`".into(),
            Type::Signed => "a signed number like `+2`".into(),
            Type::Decimal => "a decimal number like `1.5`".into(),
            Type::Initiative => "an initiative like `3.5`".into(),
            Type::Distance => "a distance like `6\"`".into(),
            Type::Save => "a save like `4+`".into(),
            Type::Dice => "dice like `D6` or `2D6+1`".into(),
            Type::Range => "a range like `1-3`".into(),
            Type::Coord => "a hex offset like `0,-1`".into(),
            Type::Text | Type::String => "a quoted string".into(),
            Type::Ident => "a name like `flak-screen`".into(),
            Type::Symbol => "an effect symbol".into(),
            Type::Arc => "a firing arc".into(),
            Type::RangeBand => "a range band".into(),
            Type::DeckSymbol => "a deck symbol".into(),
            Type::Keyword => "a keyword".into(),
            Type::Kind => "a card kind".into(),
            Type::Tag => "a tag".into(),
            Type::NewKeyword => "a new keyword's id like `flak-screen`".into(),
            Type::Grade => "a grade like `B+`".into(),
            Type::Image => "a quoted path to an image in the project like `\"art/ship.png\"`".into(),
            Type::Enum(name) => format!("one of the `{name}` values"),
            Type::Set(name) => format!("a set of `{name}` values like `F/S`"),
        }
    }
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DeckType {
    pub id: String,
    pub display: String,
    /// Cards must carry the deck's value of this field (a deck symbol).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_field: Option<String>,
    /// Deck types whose decks this one is built from.
    pub includes: Vec<String>,
    /// Kinds of card left out when an included deck is added.
    pub set_aside: Vec<String>,
    /// The side whose decks these are (`side runner`): they hold only
    /// cards of its kinds and of kinds of no side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    pub rules: Vec<Constraint>,
    /// Values derived from each deck of this type (`compute "name" expr`).
    pub computed: Vec<Constraint>,
    /// The word that starts such a deck in content (`deck`, `fleet` …).
    pub word: String,
    /// The words of lines that list a card (`card`, or `group` and `admiral` …).
    pub entry: Vec<String>,
    /// Tags a line of the deck may give the card it lists, for this deck
    /// only (`group "UCM Avalon" x1 flagship`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entry_tags: Vec<String>,
    /// The deck type of the decks this one is built from by changing
    /// cards (`based-on offense`): the deck of that type with this deck's
    /// match value is its original, which `removed(…)` compares it with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub based_on: Option<String>,
    /// Values each deck of the type may set, which its rules use by name
    /// (`param agreed-points int 1000..1999 1999`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<DeckParam>,
}

/// A parameter of a deck type: a whole number a deck may set on a line of
/// its own (`agreed-points 1500`), within its bounds, and its default.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DeckParam {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<(i64, Option<i64>)>,
    /// The value of a deck that does not set it; without one, every deck
    /// must.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<i64>,
    #[serde(skip)]
    pub span: Span,
}

/// A construction rule: a message and an expression that must hold.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Constraint {
    pub message: String,
    pub severity: crate::diagnostics::Severity,
    /// The expression as written, for engines and documentation.
    pub text: String,
    #[serde(skip)]
    pub expr: Arc<Expr>,
    /// The typed rule, compiled once the whole ruleset is read; a rule that
    /// does not compile is reported and dropped, so every rule a checker
    /// sees has it.  The engine data holds it as `tree`.
    #[serde(rename = "tree", skip_serializing_if = "Option::is_none")]
    pub compiled: Option<Arc<rule::Compiled>>,
    #[serde(skip)]
    pub span: Span,
}

impl Ruleset {
    /// Leaves out the rules declared at `spans` (rules with a mistake,
    /// already reported), wherever they are declared.
    pub fn drop_rules(&mut self, spans: &[Span]) {
        let keep = |rule: &Constraint| !spans.contains(&rule.span);
        for deck in &mut self.deck_types {
            deck.rules.retain(keep);
            deck.computed.retain(keep);
        }
        self.play_limits.retain(keep);
        let mut schemas: Vec<&mut Schema> = self.kinds.iter_mut().map(|k| &mut k.schema).collect();
        schemas.extend(self.shapes.iter_mut().map(|(_, s)| s));
        while let Some(schema) = schemas.pop() {
            schema.rules.retain(keep);
            schemas.extend(schema.fields.iter_mut().map(|f| &mut f.schema));
        }
    }

    /// Calls `f` on every rule, wherever it is declared.
    pub fn each_rule_mut(&mut self, mut f: impl FnMut(&mut Constraint)) {
        for deck in &mut self.deck_types {
            deck.rules.iter_mut().chain(deck.computed.iter_mut()).for_each(&mut f);
        }
        self.play_limits.iter_mut().for_each(&mut f);
        let mut schemas: Vec<&mut Schema> = self.kinds.iter_mut().map(|k| &mut k.schema).collect();
        schemas.extend(self.shapes.iter_mut().map(|(_, s)| s));
        while let Some(schema) = schemas.pop() {
            schema.rules.iter_mut().for_each(&mut f);
            schemas.extend(schema.fields.iter_mut().map(|f| &mut f.schema));
        }
    }

    /// Drops a declaration, so an extending ruleset can replace it.
    pub fn forget(&mut self, what: &str, id: &str) {
        match what {
            "symbol" => self.symbols.retain(|x| x.id != id),
            "icon" => self.icons.retain(|x| x.id != id),
            "arc" => self.arcs.retain(|x| x.id != id),
            "role" => self.roles.retain(|x| x.id != id),
            "range" => self.ranges.retain(|x| x.id != id),
            "enum" => self.enums.retain(|x| x.id != id),
            "deck-symbol" => self.deck_symbols.retain(|x| x.id != id),
            "keyword" => self.keywords.retain(|x| x.id != id),
            "tag" => self.tags.retain(|x| x.id != id),
            "shape" => self.shapes.retain(|(x, _)| x != id),
            "kind" => self.kinds.retain(|x| x.id != id),
            "deck-type" => self.deck_types.retain(|x| x.id != id),
            "side" => self.sides.retain(|x| x.id != id),
            "dial" => self.dials.retain(|x| x.id != id),
            "phase" => self.phases.retain(|x| x.id != id),
            "condition" => self.conditions.retain(|x| x.id != id),
            "quantity" => self.quantities.retain(|x| x.id != id),
            _ => {}
        }
    }

    pub fn kind(&self, id: &str) -> Option<&Kind> {
        self.kinds.iter().find(|k| k.id == id)
    }
    pub fn keyword(&self, id: &str) -> Option<&KeywordDef> {
        self.keywords.iter().find(|k| k.id == id)
    }
    pub fn tag(&self, id: &str) -> Option<&TagDef> {
        self.tags.iter().find(|k| k.id == id)
    }
    pub fn role(&self, id: &str) -> Option<&Role> {
        self.roles.iter().find(|k| k.id == id)
    }
    pub fn condition(&self, id: &str) -> Option<&StateDef> {
        self.conditions.iter().find(|c| c.id == id)
    }
    /// Whether an effect's amount may take `form`.
    pub fn allows_amount(&self, form: Plus) -> bool {
        self.amount_forms.is_empty() || self.amount_forms.iter().any(|f| f.form == form)
    }

    /// The amount forms effects may take, as written (`3`, `3+`, `+3`).
    pub fn amount_examples(&self) -> Vec<&'static str> {
        let all = [Plus::None, Plus::After, Plus::Before];
        all.into_iter().filter(|f| self.allows_amount(*f)).map(AmountForm::example).collect()
    }
    pub fn quantity(&self, id: &str) -> Option<&StateDef> {
        self.quantities.iter().find(|c| c.id == id)
    }
    pub fn band(&self, id: &str) -> Option<&Band> {
        self.ranges.iter().find(|k| k.id == id)
    }
    pub fn deck_type(&self, id: &str) -> Option<&DeckType> {
        self.deck_types.iter().find(|k| k.id == id)
    }

    /// The index and id of the kind called `id`, as cards hold it.
    pub fn kind_id(&self, id: &str) -> Option<KindId> {
        self.kinds.iter().position(|k| k.id == id).map(|i| KindId::new(i, id))
    }

    /// The kind a checked card has.
    pub fn kind_of(&self, kind: &KindId) -> Option<&Kind> {
        self.kinds.get(kind.index())
    }

    /// The index and id of the deck type called `id`, as decks hold it.
    pub fn deck_type_id(&self, id: &str) -> Option<DeckTypeId> {
        self.deck_types.iter().position(|d| d.id == id).map(|i| DeckTypeId::new(i, id))
    }

    /// The type a checked deck has.
    pub fn deck_type_of(&self, deck_type: &DeckTypeId) -> Option<&DeckType> {
        self.deck_types.get(deck_type.index())
    }
    pub fn shape(&self, id: &str) -> Option<&Schema> {
        self.shapes.iter().find(|(n, _)| n == id).map(|(_, s)| s)
    }
    pub fn enum_values(&self, id: &str) -> Option<&[String]> {
        self.enum_def(id).map(|e| e.values.as_slice())
    }
    pub fn enum_def(&self, id: &str) -> Option<&EnumDef> {
        self.enums.iter().find(|e| e.id == id)
    }
    pub fn is_icon(&self, id: &str) -> bool {
        self.icons.iter().chain(&self.symbols).any(|i| i.id == id)
    }
    /// Whether a word names, in any letter case, something the ruleset
    /// declares other than an icon: a keyword, tag, enum value or label, as
    /// a rulebook prints it in square brackets (`[Ac]`, `[Strengthen]`).
    pub fn declares_word(&self, word: &str) -> bool {
        let same = |name: &str| name.eq_ignore_ascii_case(word);
        self.keywords.iter().any(|k| same(&k.id) || same(&k.display) || k.printed.iter().any(|p| same(p)))
            || self.tags.iter().any(|t| same(&t.id) || same(&t.display))
            || self.enums.iter().any(|e| {
                e.values.iter().any(|v| same(v))
                    || e.labels.values().any(|l| same(l))
                    || e.printed.keys().any(|p| same(p))
            })
    }

    pub fn icon_names(&self) -> impl Iterator<Item = &str> {
        self.icons.iter().chain(&self.symbols).map(|i| i.id.as_str())
    }
}

/// Where a `+` was written next to an effect's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Plus {
    None,
    /// `8+`: another effect on the card can increase the value.
    After,
    /// `+2`: added to the current value of your card.
    Before,
}

/// A declaration of the game's ruleset that the checker resolved a name to:
/// its place in the ruleset's list, so later stages reach it without looking
/// the name up again, and its id, which the engine data writes (as the plain
/// id it always was) and messages show.
pub struct Resolved<T> {
    index: usize,
    id: std::sync::Arc<str>,
    declaration: std::marker::PhantomData<fn() -> T>,
}

/// A card's kind: an entry of `Ruleset::kinds`.
pub type KindId = Resolved<Kind>;
/// A deck's type: an entry of `Ruleset::deck_types`.
pub type DeckTypeId = Resolved<DeckType>;

impl<T> Resolved<T> {
    /// The declaration at `index` of its list, whose id is `id`.
    pub fn new(index: usize, id: &str) -> Resolved<T> {
        Resolved { index, id: id.into(), declaration: std::marker::PhantomData }
    }

    pub fn index(&self) -> usize {
        self.index
    }

    pub fn id(&self) -> &str {
        &self.id
    }
}

impl<T> Clone for Resolved<T> {
    fn clone(&self) -> Self {
        Resolved { index: self.index, id: self.id.clone(), declaration: std::marker::PhantomData }
    }
}

impl<T> std::fmt::Debug for Resolved<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}#{}", self.id, self.index)
    }
}

impl<T> std::fmt::Display for Resolved<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.id)
    }
}

impl<T> PartialEq for Resolved<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl<T> Eq for Resolved<T> {}

/// Whether it is the declaration with this id.
impl<T> PartialEq<&str> for Resolved<T> {
    fn eq(&self, id: &&str) -> bool {
        &*self.id == *id
    }
}

impl<T> Serialize for Resolved<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.id)
    }
}

impl<T> JsonSchema for Resolved<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Id".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}
