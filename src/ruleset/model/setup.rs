//! A game's set-up as the ruleset declares it (`setup { … }`), read by
//! [`crate::ruleset`]'s set-up reader.

use crate::source::Span;
use schemars::JsonSchema;
use serde::Serialize;

/// A game's set-up: who plays, what each player starts with, and how.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Setup {
    /// What the set-up is for, as the ruleset says (`doc "…"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// How many players the game takes: at least `min`, at most `max`.
    pub players: Players,
    /// Numbers each player tracks, with their starting values.
    pub counters: Vec<Counter>,
    /// Numbers kept on each card in play (`marker damage "Damage"`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<Marker>,
    pub zones: Vec<Zone>,
    /// What is done, in order, before the first turn.
    pub steps: Vec<SetupStep>,
    /// Zone limits that hold for some numbers of players in place of the
    /// zone's own (`when players 2 { limit market-row 4 }`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<ZoneLimit>,
    /// Names the lines use, checked once the ruleset is read.
    #[serde(skip)]
    pub(in crate::ruleset) uses: Vec<NameUse>,
    /// Where each step is written, in the order of `steps`.
    #[serde(skip)]
    pub(in crate::ruleset) step_spans: Vec<Span>,
    /// Where each of `limits` is written.
    #[serde(skip)]
    pub(in crate::ruleset) limit_spans: Vec<Span>,
    /// Each `when players …` block: the players it names and where.
    #[serde(skip)]
    pub(in crate::ruleset) when_spans: Vec<(Players, Span)>,
    #[serde(skip)]
    pub(in crate::ruleset) span: Span,
}

/// A number of players: at least `min`, at most `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Players {
    pub min: i64,
    pub max: i64,
}

impl Players {
    /// Whether `count` players are within.
    pub fn holds(self, count: i64) -> bool {
        (self.min..=self.max).contains(&count)
    }
}

/// `limit ZONE N` in a `when players …` block: the zone holds at most
/// `limit` cards when that many play.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ZoneLimit {
    pub zone: String,
    pub limit: i64,
    pub players: Players,
}

/// One step of the set-up, and the numbers of players it is done for
/// (`when players 3..4 { … }`): every number when `players` is absent.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SetupStep {
    #[serde(flatten)]
    pub step: Step,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Players>,
    /// The side whose player alone does the step (`when side runner { … }`);
    /// every player, when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
}

impl Default for Players {
    fn default() -> Players {
        Players { min: 2, max: 2 }
    }
}

/// `counter hp "HP" 24`: a number every player has, and its starting value.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Counter {
    pub id: String,
    pub display: String,
    pub start: i64,
    /// The lowest value play takes it to (`min`, 0 unless given).
    pub min: i64,
    /// The highest, when there is one (`max 6`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    /// Every player's own (`each`), or one for the table (`shared`).
    pub owner: Owner,
    /// The side whose player alone has it (`side runner`): one counter,
    /// that player's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Whether it goes back to its start at the end of every round.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reset_each_round: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// `marker damage "Damage"`: a number every card has in play, from 0, back
/// to 0 whenever the card moves to another zone.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Marker {
    pub id: String,
    pub display: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// A place cards lie in during play.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Zone {
    pub id: String,
    pub display: String,
    pub owner: Owner,
    /// The side whose player alone has it (`side runner`): one zone, that
    /// player's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    pub visibility: Visibility,
    /// Whether the order of its cards matters (a deck drawn from the top).
    pub ordered: bool,
    /// The most cards it holds (a hand limit, a market row's size).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// The card kinds it may hold; every kind when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub holds: Vec<String>,
    /// In play: the zone shuffled into this one when a card must be taken
    /// from it and it is empty (`reshuffle discard`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reshuffle: Option<super::play::Ref>,
    /// In play: the zone this one is filled from, up to its limit
    /// (`restock market-deck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restock: Option<super::play::Ref>,
    /// In play: the zone a card is taken from instead when one must be
    /// taken from this one and it is empty (`fallback hp-cards`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<super::play::Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Owner {
    /// Every player has one of their own.
    Each,
    /// One for the table.
    Shared,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Face down: nobody sees the cards.
    Hidden,
    /// Only the zone's owner sees the cards (a hand).
    Private,
    /// Face up for everyone.
    Public,
}

/// One step of the set-up.  A step on zones a player owns is done by every
/// player; on shared zones, once.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum Step {
    /// `decks draw to draw-deck set-aside reference`: each player's decks of
    /// these types go into the zone, as the deck lists its cards; the kinds
    /// the deck type sets aside go to `set_aside` when it is given.  With
    /// `random`, a deck of each type that is not named for the game is drawn
    /// at random among the decks of the type (`decks market to supply
    /// random`); without, it is the first.
    Decks {
        deck_types: Vec<String>,
        to: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        set_aside: Option<String>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        random: bool,
    },
    /// `place caster from deck-area to caster-slot`: every card of these
    /// kinds moves from one zone to another.
    Place { kinds: Vec<String>, from: String, to: String },
    /// `shuffle draw-deck`.
    Shuffle { zone: String },
    /// `deal 6 from draw-deck to hand`: cards from the top of one zone to
    /// another.
    Deal { count: Count, from: String, to: String },
    /// `add hp to hp from reference`: each card in the zone adds its value
    /// of a field (a System Card's HP bonus) to a counter.
    Add { field: String, counter: String, from: String },
    /// `mulligan hand`: a player may draw that zone anew once.
    Mulligan { zone: String },
}

/// How many cards a deal moves: a number, or `{field, each_in}`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Count {
    /// This many (`deal 7 …`).
    Cards(i64),
    /// For each card in the zone `each_in`, as many as its value of `field`
    /// (`deal hp of caster-slot …`: HP cards under each caster).
    Field { field: String, each_in: String },
}

/// A name a set-up line uses, and where.
#[derive(Clone, Debug)]
pub(in crate::ruleset) struct NameUse {
    pub(in crate::ruleset) what: Wanted,
    pub(in crate::ruleset) name: String,
    pub(in crate::ruleset) span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::ruleset) enum Wanted {
    Zone,
    Kind,
    DeckType,
    Counter,
    /// A field some card kind declares.
    Field,
}
