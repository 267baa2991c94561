//! The order in which the plays of a turn resolve, from the engine data
//! alone.
//!
//! A play is a side and a card (or a deck that a phase plays as a whole, such
//! as a battlegroup).  The turn's phases come in the ruleset's order.  In a
//! phase that follows the initiative scale, every field of a played card that
//! holds initiative values resolves at each of them (`at 3.0 1.0 { … }`
//! twice); steps come in the scale's order (`X` first, then counting down or
//! up), and within a step a value nearer the start resolves first (`3.4`
//! before `3.2` in step `3` of a scale of whole steps).  In a phase with its
//! own steps, a field that takes the enum of `step_names` first resolves in
//! the step its value names.  In a phase where the sides alternate, each
//! side's first play forms the first round, its second the second, and so
//! on.  Then the ruleset's tie-break
//! list decides, rule by rule, exactly as declared: a `kind` rule puts its
//! kinds first (kinds it does not name after), `higher`/`lower` and
//! `choose` compare a field or computed value, `side` orders the sides as
//! listed.  What the list cannot separate gets its outcome: at the same time,
//! or a roll.

use super::data::{tenths, Body, Card, Deck, Document, Field, Initiative, Phase, Scale, ScaleOrder, TieBreak, Value};
use serde::Serialize;

/// A side plays a card, or a deck that a phase plays as a whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Play {
    /// A player number (`1`) or a side the ruleset declares (`attacker`).
    pub side: String,
    pub card: String,
}

impl Play {
    /// `attacker:Spinal Railcannon` or `1:Kinetic Strike`: the side ends at
    /// the first colon, so a name may hold colons.
    pub fn parse(text: &str) -> Option<Play> {
        let (side, card) = text.split_once(':')?;
        let (side, card) = (side.trim(), card.trim());
        (!side.is_empty() && !card.is_empty()).then(|| Play { side: side.to_string(), card: card.to_string() })
    }
}

#[derive(Debug, Serialize)]
pub struct Timeline {
    pub ruleset: String,
    /// The plays as given, each side named as the timeline names it.
    pub plays: Vec<Play>,
    /// Only the steps at which something resolves, in order.
    pub steps: Vec<Step>,
    /// Tie-break rules this engine does not know.
    pub notes: Vec<String>,
    /// The player who has initiative (for `has-initiative`).
    pub initiative: u32,
    /// Whether the scale counts in whole numbers, so that its values print
    /// without a tenth.
    #[serde(skip)]
    pub whole_numbers: bool,
}

#[derive(Debug, Serialize)]
pub struct Step {
    /// The phase's printed name.
    pub phase: String,
    /// `X`, `2.4`, `3` on a scale of whole steps, a step's printed name, or
    /// empty for a phase without steps; a scale's step as the game prints
    /// it (`Initiative 3`).
    pub step: String,
    /// A scale's step as a value (`3`), when the step is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    pub resolutions: Vec<Resolution>,
}

#[derive(Debug, Serialize)]
pub struct Resolution {
    /// 1-based within the step; tied resolutions share a position.
    pub position: usize,
    /// Tied, and the list's outcome is that they resolve at the same time.
    pub simultaneous: bool,
    /// Tied, and a roll decides their order, as described.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided: Option<String>,
    /// The side as the ruleset names it (`attacker`), else the player number.
    pub side: String,
    pub player: u32,
    /// In a phase where the sides alternate, the round (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<usize>,
    /// The card or deck played.
    pub card: String,
    /// Its kind, or a deck's type.
    pub kind: String,
    /// The initiative value on the card, such as `3.4` within step `3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initiative: Option<String>,
    /// The field that resolves, such as `at` or `ability`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The field's values (its initiatives included).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
    /// For a field whose value depends on how many other cards the side
    /// plays (`by_cards_played`): the value that applies this turn, or
    /// `none`, and why (`4, 1 other card played`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applies: Option<String>,
    /// The values the tie-break list compared, such as `power 3`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compared: Vec<String>,
    /// The rule that put this resolution after the previous position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// This play's side chose to go first (a `choose` rule), and may go
    /// second instead.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chooses: bool,
    /// Tied with other plays of its player, who plays them in the order they
    /// choose (`player-chooses`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub player_orders: bool,
    /// The effects and conditions of the field's block.
    pub body: Body,
}

#[derive(Debug, PartialEq, Eq)]
pub enum TimelineError {
    /// The ruleset declares neither phases nor an initiative scale.
    NoTiming(String),
    UnknownSide {
        name: String,
        closest: Option<String>,
        sides: Vec<String>,
    },
    UnknownCard {
        name: String,
        closest: Option<String>,
    },
    UnknownDeck {
        name: String,
        closest: Option<String>,
    },
    /// A card or deck that resolves in no phase of the turn.
    Untimed {
        card: String,
        side: String,
    },
    /// The timeline would repeat more values and effects than [`MAX_SIZE`]:
    /// each resolution holds its field's values and block.
    TooLarge {
        size: usize,
    },
}

/// The most values, fields, effects and conditions a timeline holds, all
/// resolutions together: far beyond any turn of any game, and small enough
/// that a document giving one card a million initiatives is refused rather
/// than copied a million times.
pub const MAX_SIZE: usize = 1_000_000;

impl std::fmt::Display for TimelineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimelineError::NoTiming(id) => write!(f, "ruleset `{id}` declares no phases and no initiative scale"),
            TimelineError::UnknownSide { name, .. } => write!(f, "no side is named `{name}`"),
            TimelineError::UnknownCard { name, .. } => write!(f, "no card is named `{name}`"),
            TimelineError::UnknownDeck { name, .. } => write!(f, "no deck is named `{name}`"),
            TimelineError::Untimed { card, side } => write!(f, "`{card}` ({side}) resolves in no phase of the turn"),
            TimelineError::TooLarge { size } => {
                write!(f, "the timeline would hold {size} values and effects or more; at most {MAX_SIZE}")
            }
        }
    }
}

/// What a side plays: a card, or a deck played as a whole.
#[derive(Clone, Copy)]
enum Played<'d> {
    Card(&'d Card),
    Deck(&'d Deck),
}

impl<'d> Played<'d> {
    fn name(self) -> &'d str {
        match self {
            Played::Card(card) => &card.name,
            Played::Deck(deck) => &deck.name,
        }
    }

    fn kind(self) -> &'d str {
        match self {
            Played::Card(card) => &card.kind,
            Played::Deck(deck) => &deck.deck_type,
        }
    }

    /// A field's first value, or a deck's computed value, scaled by 1000.
    fn number(self, field: &str) -> Option<i128> {
        match self {
            Played::Card(card) => number(card, field),
            Played::Deck(deck) => deck.computed.get(field)?.as_i64().map(|n| i128::from(n) * 1000),
        }
    }

    /// `power 3`, as the value is written.
    fn shown(self, field: &str) -> String {
        let value = match self {
            Played::Card(card) => card.field(field).and_then(|f| f.values.first()).map(Value::written),
            Played::Deck(deck) => deck.computed.get(field).map(|v| v.to_string()),
        };
        match value {
            Some(value) => format!("{field} {value}"),
            None => format!("no {field}"),
        }
    }
}

/// When in its phase an event resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum When {
    At(Initiative),
    Step(usize),
    Whole,
}

/// One field of one play (or a whole deck) at one point of the turn.
struct Event<'d> {
    side: String,
    player: u32,
    played: Played<'d>,
    field: Option<&'d Field>,
    phase: usize,
    when: When,
    round: usize,
    key: Vec<i128>,
}

/// The timeline of the plays of this turn, in the order given (for each
/// side, the order given is the order it plays: its strategy deck, say),
/// player 1 having initiative.
pub fn timeline(doc: &Document, plays: &[Play]) -> Result<Timeline, TimelineError> {
    timeline_with_initiative(doc, plays, 1)
}

/// The timeline of the plays of this turn, `initiative` being the player who
/// has it (for a `has-initiative` rule).
pub fn timeline_with_initiative(doc: &Document, plays: &[Play], initiative: u32) -> Result<Timeline, TimelineError> {
    let implicit;
    let phases: Vec<&Phase> = if doc.ruleset.phases.is_empty() {
        if doc.ruleset.initiative.is_none() {
            return Err(TimelineError::NoTiming(doc.ruleset.id.clone()));
        }
        implicit = whole_turn_by_initiative();
        vec![&implicit]
    } else {
        doc.ruleset.phases.iter().collect()
    };
    let mut notes = Vec::new();
    let chains = std::iter::once(&doc.ruleset.tie_break).chain(phases.iter().map(|p| &p.tie_break));
    if chains.flatten().any(|t| matches!(t, TieBreak::Unknown)) {
        notes.push(format!("a tie-break rule of `{}` is not known to this engine and breaks no tie", doc.ruleset.id));
    }
    let mut events = Vec::new();
    let mut seated = Vec::new();
    let mut size = 0usize;
    for play in plays {
        let (side, player) = seat(doc, &play.side)?;
        seated.push(Play { side: side.clone(), card: play.card.clone() });
        let played = played(doc, &play.card)?;
        // A phase that is one side's own turn, or a step of one side, times
        // only that side's plays.
        let mut found = events_of(doc, &phases, played);
        let ours = |side: Option<&String>| side.is_none_or(|s| player_of(doc, s).ok() == Some(player));
        found.retain(|(phase, when, _)| {
            let step_side = match when {
                When::Step(step) => phases[*phase].steps.get(*step).and_then(|s| s.side.as_ref()),
                _ => None,
            };
            ours(phases[*phase].side.as_ref()) && ours(step_side)
        });
        if found.is_empty() {
            return Err(TimelineError::Untimed { card: played.name().to_string(), side });
        }
        for (phase, when, field) in found {
            size = size.saturating_add(field.map_or(1, field_size));
            if size > MAX_SIZE {
                return Err(TimelineError::TooLarge { size });
            }
            let key = chain_key(doc, chain_of(doc, phases[phase]), played, (player, initiative));
            events.push(Event { side: side.clone(), player, played, field, phase, when, round: 0, key });
        }
    }
    number_rounds(doc, &phases, &mut events);
    let ascending: Vec<bool> = phases.iter().map(|p| ascending(doc, p)).collect();
    // Stable: what nothing separates keeps the order it was played in.
    events.sort_by(|a, b| {
        (a.phase, when_order(a.when, ascending[a.phase]), a.round, &a.key).cmp(&(
            b.phase,
            when_order(b.when, ascending[b.phase]),
            b.round,
            &b.key,
        ))
    });
    let steps = steps(doc, &phases, &events);
    let whole_numbers = doc.ruleset.initiative.as_ref().is_some_and(Scale::whole);
    Ok(Timeline { ruleset: doc.ruleset.id.clone(), plays: seated, steps, notes, initiative, whole_numbers })
}

/// Whether a phase follows the scale from its lowest value up: in its own
/// order, else the scale's.
fn ascending(doc: &Document, phase: &Phase) -> bool {
    match phase.order {
        Some(order) => order == ScaleOrder::LowestFirst,
        None => doc.ruleset.initiative.as_ref().is_some_and(|s| s.from_tenths < s.to_tenths),
    }
}

/// The tie-break list of a phase: its own, else the ruleset's.
fn chain_of<'d>(doc: &'d Document, phase: &'d Phase) -> &'d [TieBreak] {
    if phase.tie_break.is_empty() {
        &doc.ruleset.tie_break
    } else {
        &phase.tie_break
    }
}

/// A document of a ruleset that declares a scale but no phases: the whole
/// turn follows the scale.
fn whole_turn_by_initiative() -> Phase {
    Phase {
        id: String::new(),
        display: String::new(),
        steps: Vec::new(),
        initiative: true,
        order: None,
        tie_break: Vec::new(),
        alternate: false,
        plays: Vec::new(),
        side: None,
        play: Default::default(),
    }
}

/// Where a card's play falls among the plays of an initiative phase, for
/// sorting (smaller first): its initiative value in the phase's order (a
/// card without one after every value), then the phase's tie-break key for
/// the card played by `player`, player 1 having initiative.  What this
/// leaves equal resolves at the same time, in seat order.
pub(crate) fn initiative_key(
    doc: &Document,
    phase: &Phase,
    card: &Card,
    player: u32,
    at: Option<Initiative>,
) -> Vec<i128> {
    let (tier, value) = match at {
        Some(at) => when_order(When::At(at), ascending(doc, phase)),
        None => (2, 0),
    };
    let mut key = vec![i128::from(tier), value];
    key.extend(chain_key(doc, chain_of(doc, phase), Played::Card(card), (player, 1)));
    key
}

/// The player a side names: a declared side, or a player number.
pub fn player_of(doc: &Document, side: &str) -> Result<u32, TimelineError> {
    seat(doc, side).map(|(_, player)| player)
}

/// What a side plays when it plays a whole deck: each card it lists (and
/// those of the decks it includes), each copy once, in the deck's order.
pub fn deck_plays(doc: &Document, side: &str, name: &str) -> Result<Vec<Play>, TimelineError> {
    let Some(deck) = doc.decks.iter().find(|d| d.name == name) else {
        let closest = closest(name, doc.decks.iter().map(|d| d.name.as_str()));
        return Err(TimelineError::UnknownDeck { name: name.to_string(), closest });
    };
    let (mut plays, mut pending, mut seen) = (Vec::new(), vec![deck], vec![name]);
    while let Some(deck) = pending.pop() {
        for line in &deck.cards {
            if plays.len().saturating_add(line.count as usize) > MAX_SIZE {
                return Err(TimelineError::TooLarge { size: plays.len().saturating_add(line.count as usize) });
            }
            let play = Play { side: side.to_string(), card: line.card.clone() };
            plays.extend(std::iter::repeat_n(play, line.count as usize));
        }
        // Each deck once, so that includes that come back end.
        for included in deck.includes.iter().rev() {
            if let Some(found) = doc.decks.iter().find(|d| &d.name == included && !seen.contains(&d.name.as_str())) {
                seen.push(&found.name);
                pending.push(found);
            }
        }
    }
    Ok(plays)
}

/// The side's label and player: a declared side, or a player number (from 1
/// to the highest player a side names, and at least 2).
fn seat(doc: &Document, name: &str) -> Result<(String, u32), TimelineError> {
    let sides = &doc.ruleset.sides;
    if let Some(side) = sides.iter().find(|s| s.id == name) {
        return Ok((side.id.clone(), side.player));
    }
    let players = sides.iter().map(|s| s.player).max().unwrap_or(2).max(2);
    match name.parse::<u32>() {
        Ok(player) if (1..=players).contains(&player) => {
            let label = sides.iter().find(|s| s.player == player).map(|s| s.id.clone());
            Ok((label.unwrap_or_else(|| player.to_string()), player))
        }
        _ => {
            // The numbers listed are capped: a document may declare player 4294967295.
            let mut known: Vec<String> =
                (1..=players.min(8)).chain((players > 8).then_some(players)).map(|p| p.to_string()).collect();
            known.extend(sides.iter().map(|s| s.id.clone()));
            let closest = closest(name, known.iter().map(String::as_str));
            Err(TimelineError::UnknownSide { name: name.to_string(), closest, sides: known })
        }
    }
}

fn played<'d>(doc: &'d Document, name: &str) -> Result<Played<'d>, TimelineError> {
    if let Some(card) = doc.card(name) {
        return Ok(Played::Card(card));
    }
    if let Some(deck) = doc.playable_deck(name) {
        return Ok(Played::Deck(deck));
    }
    let decks = doc.decks.iter().filter(|d| doc.playable_deck(&d.name).is_some()).map(|d| d.name.as_str());
    let closest = closest(name, doc.cards.iter().map(|c| c.name.as_str()).chain(decks));
    Err(TimelineError::UnknownCard { name: name.to_string(), closest })
}

fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    candidates
        .map(|c| (strsim::normalized_damerau_levenshtein(&c.to_lowercase(), &name.to_lowercase()), c))
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c.to_string())
}

/// Where in the turn a play resolves: each phase, and when in it.
fn events_of<'d>(doc: &'d Document, phases: &[&Phase], played: Played<'d>) -> Vec<(usize, When, Option<&'d Field>)> {
    let mut found = Vec::new();
    for (index, phase) in phases.iter().enumerate() {
        let card = match played {
            Played::Deck(deck) => {
                if phase.plays.contains(&deck.deck_type) {
                    found.push((index, When::Whole, None));
                }
                continue;
            }
            Played::Card(card) => card,
        };
        if phase.initiative && doc.ruleset.initiative.is_some() {
            if let Some(tenths) = doc.ruleset.enters_at(&card.kind) {
                found.push((index, When::At(Initiative::Step(tenths)), None));
            }
            for field in fields_where(&card.body.fields, &|f| f.values.iter().any(is_initiative)) {
                for value in &field.values {
                    if let Value::Initiative(at) = value {
                        found.push((index, When::At(*at), Some(field)));
                    }
                }
            }
        }
        let step_fields = doc.ruleset.step_fields(&card.kind);
        if !step_fields.is_empty() {
            for (step, declared) in phase.steps.iter().enumerate() {
                let names_step = |f: &Field| {
                    step_fields.contains(&f.name.as_str())
                        && matches!(f.values.first(), Some(Value::Name(n)) if *n == declared.id)
                };
                for field in fields_where(&card.body.fields, &names_step) {
                    found.push((index, When::Step(step), Some(field)));
                }
            }
        }
    }
    found
}

/// What a resolution of the field copies: its values, and every field,
/// effect and condition of its block.  (The depth is bounded by the JSON
/// reader's nesting limit.)
fn field_size(field: &Field) -> usize {
    1 + field.values.len() + field.body.as_ref().map_or(0, body_size)
}

fn body_size(body: &Body) -> usize {
    let fields: usize = body.fields.iter().map(field_size).sum();
    let conditions: usize = body.conditions.iter().map(|c| 1 + body_size(&c.body)).sum();
    fields + body.effects.len() + conditions
}

fn is_initiative(value: &Value) -> bool {
    matches!(value, Value::Initiative(_))
}

/// Fields that resolve, at any depth, in the order written; a field that
/// resolves takes its own block with it, which is not searched further.
/// (The depth is bounded by the JSON reader's nesting limit.)
fn fields_where<'d>(fields: &'d [Field], resolves: &dyn Fn(&Field) -> bool) -> Vec<&'d Field> {
    let mut found = Vec::new();
    for field in fields {
        if resolves(field) {
            found.push(field);
        } else if let Some(body) = &field.body {
            found.extend(fields_where(&body.fields, resolves));
        }
    }
    found
}

/// In a phase where the sides alternate, a side's n-th play at a point of
/// the phase is in round n.
fn number_rounds(doc: &Document, phases: &[&Phase], events: &mut [Event]) {
    // Counted in a map: a document may give one card a million initiatives.
    let mut played: std::collections::HashMap<(usize, String, u32), usize> = std::collections::HashMap::new();
    for event in events.iter_mut() {
        if !phases[event.phase].alternate {
            continue;
        }
        let count = played.entry((event.phase, label(doc, phases, event), event.player)).or_default();
        *count += 1;
        event.round = *count;
    }
}

/// `X` first; then the scale's order (down, or up); a phase's steps in order.
fn when_order(when: When, ascending: bool) -> (u8, i128) {
    match when {
        When::At(Initiative::X) => (0, 0),
        When::At(Initiative::Step(t)) if ascending => (1, i128::from(t)),
        When::At(Initiative::Step(t)) => (1, -i128::from(t)),
        When::Step(step) => (1, step as i128),
        When::Whole => (1, 0),
    }
}

/// The point of the phase an event falls at, as printed.
fn label(doc: &Document, phases: &[&Phase], event: &Event) -> String {
    match (event.when, &doc.ruleset.initiative) {
        (When::At(at), Some(scale)) => scale.printed(&step_label(at, scale)),
        (When::At(at), None) => initiative_text(at),
        (When::Step(step), _) => {
            let step = &phases[event.phase].steps[step];
            if step.display.is_empty() {
                step.id.clone()
            } else {
                step.display.clone()
            }
        }
        (When::Whole, _) => String::new(),
    }
}

/// The events, in order, grouped by step and numbered.
fn steps(doc: &Document, phases: &[&Phase], events: &[Event]) -> Vec<Step> {
    let cards_played = cards_played(events);
    let ties: Vec<Ties> = phases.iter().map(|phase| Ties::of(chain_of(doc, phase))).collect();
    let mut steps: Vec<Step> = Vec::new();
    for (i, event) in events.iter().enumerate() {
        let phase = phases[event.phase];
        let chain = chain_of(doc, phase);
        let Ties { criteria, flags, undecided, player_orders } = &ties[event.phase];
        let phase_name = if phase.display.is_empty() { phase.id.clone() } else { phase.display.clone() };
        let point = label(doc, phases, event);
        let same_point = |other: &Event| other.phase == event.phase && label(doc, phases, other) == point;
        if steps.last().is_none_or(|s| s.phase != phase_name || s.step != point) {
            let at = match (event.when, &doc.ruleset.initiative) {
                (When::At(at), Some(scale)) => Some(step_label(at, scale)),
                _ => None,
            };
            steps.push(Step { phase: phase_name, step: point.clone(), at, resolutions: Vec::new() });
        }
        let previous = i.checked_sub(1).map(|p| &events[p]).filter(|p| same_point(p));
        // Plays ordered only by an `if-needed` rule stay tied.
        let same_key = |a: &[i128], b: &[i128]| {
            a.len() == b.len() && a.iter().zip(b).enumerate().all(|(i, (x, y))| x == y || flags.get(i) == Some(&true))
        };
        let tied =
            |other: &Event| other.when == event.when && other.round == event.round && same_key(&other.key, &event.key);
        let with_previous = previous.is_some_and(&tied);
        let with_next = events.get(i + 1).is_some_and(|n| same_point(n) && tied(n));
        let decided = match previous {
            Some(p) if !with_previous => Some(decided_by(p, event, criteria)),
            Some(p) if p.key != event.key => {
                Some((format!("{}, where an effect needs an order", decided_by(p, event, criteria).0), false))
            }
            _ => None,
        };
        let Some(step) = steps.last_mut() else { continue };
        if let (Some((_, true)), Some(last)) = (&decided, step.resolutions.last_mut()) {
            last.chooses = true;
        }
        let position = match step.resolutions.last() {
            Some(last) if with_previous => last.position,
            Some(last) => last.position + 1,
            None => 1,
        };
        let tie = with_previous || with_next;
        step.resolutions.push(Resolution {
            position,
            simultaneous: tie && undecided.is_none() && !player_orders,
            undecided: undecided.clone().filter(|_| tie),
            side: event.side.clone(),
            player: event.player,
            round: phase.alternate.then_some(event.round),
            card: event.played.name().to_string(),
            kind: event.played.kind().to_string(),
            initiative: match (event.when, &doc.ruleset.initiative) {
                (When::At(at), Some(scale)) => Some(scale.show(at)),
                (When::At(at), None) => Some(initiative_text(at)),
                _ => None,
            },
            field: event.field.map(|f| f.name.clone()).or_else(|| entering(event).then(|| ENTERS.to_string())),
            values: match (event.field, event.when) {
                (Some(field), _) => field.values.clone(),
                (None, When::At(at)) if entering(event) => vec![Value::Initiative(at)],
                _ => Vec::new(),
            },
            applies: applies(doc, event, &cards_played),
            compared: compared(chain, event.played),
            decided_by: decided.map(|(text, _)| text),
            chooses: false,
            player_orders: tie && *player_orders,
            body: event.field.and_then(|f| f.body.clone()).unwrap_or_default(),
        });
    }
    steps
}

/// What a phase's tie-break list says of the plays it orders: how each
/// element of a key is described ([`criteria`]), which only order plays that
/// stay tied ([`if_needed`]), and what happens to plays it leaves tied.
struct Ties {
    criteria: Vec<(String, bool)>,
    flags: Vec<bool>,
    /// A roll decides them, as described.
    undecided: Option<String>,
    /// Their player orders them (`player-chooses`).
    player_orders: bool,
}

impl Ties {
    fn of(chain: &[TieBreak]) -> Ties {
        Ties {
            criteria: criteria(chain),
            flags: if_needed(chain),
            undecided: match chain.last() {
                Some(TieBreak::Roll { text }) => Some(text.clone()),
                _ => None,
            },
            player_orders: matches!(chain.last(), Some(TieBreak::PlayerChooses)),
        }
    }
}

/// The cards each player plays, by name: a card with several events counts
/// once.
type CardsPlayed<'d> = std::collections::BTreeMap<u32, std::collections::BTreeSet<&'d str>>;

fn cards_played<'d>(events: &[Event<'d>]) -> CardsPlayed<'d> {
    let mut played = CardsPlayed::new();
    for event in events.iter().filter(|e| matches!(e.played, Played::Card(_))) {
        played.entry(event.player).or_default().insert(event.played.name());
    }
    played
}

/// The value of the event's field that applies this turn, when the field
/// says which by how many other cards its side plays, and why.
fn applies(doc: &Document, event: &Event, cards_played: &CardsPlayed) -> Option<String> {
    let (Played::Card(card), Some(field)) = (event.played, event.field) else { return None };
    let choices = &doc.ruleset.kind_field(&card.kind, &field.name)?.by_cards_played;
    if choices.is_empty() {
        return None;
    }
    let played = cards_played.get(&event.player)?;
    let others = played.len() - usize::from(played.contains(card.name.as_str()));
    let why = format!("{others} other card{} played", if others == 1 { "" } else { "s" });
    let Some(choice) = choices.iter().find(|c| c.played as usize == others) else {
        return Some(format!("not given for {why}"));
    };
    let value = match choice.value {
        // The engine data may come from elsewhere: a number out of the
        // field's values names none of them.
        Some(n) => n
            .checked_sub(1)
            .and_then(|i| field.values.get(i as usize))
            .map_or_else(|| "none".to_string(), Value::written),
        None => "none".to_string(),
    };
    Some(format!("{value}, {why}"))
}

/// What a card entering play at its kind's step (`enters-at`) shows as its
/// field.
const ENTERS: &str = "enters-at";

/// Whether the event is a card entering play, not a field of it resolving.
fn entering(event: &Event) -> bool {
    event.field.is_none() && matches!(event.played, Played::Card(_))
}

/// The scale step a value falls in: itself on a scale of tenths; the whole
/// step it starts from on a scale of whole steps (where the tenth orders
/// values within the step).
fn step_label(at: Initiative, scale: &Scale) -> String {
    let Initiative::Step(t) = at else { return "X".to_string() };
    // In i128, so no document can make the arithmetic overflow.
    let low = scale.to_tenths.min(scale.from_tenths);
    let (t, low, step) = (i128::from(t), i128::from(low), i128::from(scale.step_tenths.max(1)));
    let start = low + (t - low).div_euclid(step) * step;
    if step % 10 == 0 && start % 10 == 0 {
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

/// The play's place in the list: for each rule in order, a number where
/// smaller goes first.
fn chain_key(doc: &Document, chain: &[TieBreak], played: Played, (player, initiative): (u32, u32)) -> Vec<i128> {
    let by_value = |field: &str, highest: bool, missing_first: bool| match played.number(field) {
        Some(v) if highest => -v,
        Some(v) => v,
        // A play without the value goes where the ruleset says.
        None if missing_first => i128::MIN,
        None => i128::MAX,
    };
    let mut key = Vec::new();
    for rule in chain {
        match rule {
            TieBreak::Kind { kinds, field, highest, missing_first } => {
                let member = kinds.iter().any(|k| k == played.kind());
                key.push(if member { 0 } else { 1 });
                if let Some(field) = field {
                    key.push(if member { by_value(field, *highest, *missing_first) } else { i128::MAX });
                }
            }
            TieBreak::Side { order, .. } => {
                let players = order.iter().map(|side| side_player(doc, side));
                key.push(players.clone().position(|p| p == Some(player)).unwrap_or(order.len()) as i128);
            }
            TieBreak::Value { field, highest } | TieBreak::Choice { field, highest } => {
                key.push(by_value(field, *highest, false))
            }
            TieBreak::HasInitiative => key.push(i128::from(player != initiative)),
            TieBreak::Simultaneous | TieBreak::Roll { .. } | TieBreak::PlayerChooses | TieBreak::Unknown => {}
        }
    }
    key
}

/// The player of a side named in a `side` rule: a declared side or a number.
fn side_player(doc: &Document, side: &str) -> Option<u32> {
    match doc.ruleset.sides.iter().find(|s| s.id == side) {
        Some(declared) => Some(declared.player),
        None => side.parse().ok(),
    }
}

/// How each element of a list key is described, in the ruleset's own words,
/// and whether it is a `choose` rule.
fn criteria(chain: &[TieBreak]) -> Vec<(String, bool)> {
    let order = |highest: bool| if highest { "higher" } else { "lower" };
    let mut described = Vec::new();
    for rule in chain {
        match rule {
            TieBreak::Kind { kinds, field, highest, .. } => {
                described.push((format!("kind {}", kinds.join(" ")), false));
                if let Some(field) = field {
                    let order = if *highest { "highest" } else { "lowest" };
                    described.push((format!("kind {} by {field} {order}", kinds.join(" ")), false));
                }
            }
            TieBreak::Side { order, .. } => described.push((format!("side {}", order.join(" ")), false)),
            TieBreak::Value { field, highest } => described.push((format!("{} {field}", order(*highest)), false)),
            TieBreak::Choice { field, highest } => {
                described.push((format!("choose {} {field}", order(*highest)), true));
            }
            TieBreak::HasInitiative => described.push(("has-initiative".to_string(), false)),
            TieBreak::Simultaneous | TieBreak::Roll { .. } | TieBreak::PlayerChooses | TieBreak::Unknown => {}
        }
    }
    described
}

/// For each element of a list key, whether it only orders plays that stay
/// tied (`side … if-needed`), in the order of [`criteria`].
fn if_needed(chain: &[TieBreak]) -> Vec<bool> {
    let mut flags = Vec::new();
    for rule in chain {
        match rule {
            TieBreak::Kind { field, .. } => flags.extend(std::iter::repeat_n(false, 1 + usize::from(field.is_some()))),
            TieBreak::Side { if_needed, .. } => flags.push(*if_needed),
            TieBreak::Value { .. } | TieBreak::Choice { .. } | TieBreak::HasInitiative => flags.push(false),
            TieBreak::Simultaneous | TieBreak::Roll { .. } | TieBreak::PlayerChooses | TieBreak::Unknown => {}
        }
    }
    flags
}

fn decided_by(previous: &Event, event: &Event, criteria: &[(String, bool)]) -> (String, bool) {
    if previous.when != event.when {
        return ("initiative value".to_string(), false);
    }
    if previous.round != event.round {
        return ("alternation".to_string(), false);
    }
    let index = previous.key.iter().zip(&event.key).position(|(a, b)| a != b);
    index.and_then(|i| criteria.get(i)).cloned().unwrap_or_else(|| ("order played".to_string(), false))
}

/// `power 3` for each value a rule compares for this play.
fn compared(chain: &[TieBreak], played: Played) -> Vec<String> {
    let mut shown = Vec::new();
    for rule in chain {
        match rule {
            TieBreak::Kind { kinds, field: Some(field), .. } if kinds.iter().any(|k| k == played.kind()) => {
                shown.push(played.shown(field));
            }
            TieBreak::Value { field, .. } | TieBreak::Choice { field, .. } => shown.push(played.shown(field)),
            _ => {}
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
    use super::{decimal, step_label, Initiative, Play, Scale};

    #[test]
    fn a_value_falls_in_its_scale_step() {
        let tenths =
            Scale { has_x: true, from_tenths: 59, to_tenths: 0, step_tenths: 1, priority_digit: false, printed: None };
        let whole =
            Scale { has_x: true, from_tenths: 50, to_tenths: 0, step_tenths: 10, priority_digit: true, printed: None };
        assert_eq!(step_label(Initiative::Step(34), &tenths), "3.4");
        assert_eq!(step_label(Initiative::Step(34), &whole), "3");
        assert_eq!(step_label(Initiative::Step(30), &whole), "3");
        assert_eq!(step_label(Initiative::X, &whole), "X");
        let ascending = Scale {
            has_x: false,
            from_tenths: 10,
            to_tenths: 60,
            step_tenths: 10,
            priority_digit: true,
            printed: None,
        };
        assert_eq!(step_label(Initiative::Step(34), &ascending), "3");
        let hostile = Scale {
            has_x: false,
            from_tenths: i64::MAX,
            to_tenths: i64::MIN,
            step_tenths: i64::MIN,
            priority_digit: false,
            printed: None,
        };
        assert_eq!(step_label(Initiative::Step(i64::MIN), &hostile), "-922337203685477580.8");
        assert_eq!(step_label(Initiative::Step(i64::MAX), &hostile), "922337203685477580.7");
    }

    #[test]
    fn a_play_is_a_side_then_a_name() {
        let play = Play::parse("attacker: Spinal Railcannon").expect("a play");
        assert_eq!((play.side.as_str(), play.card.as_str()), ("attacker", "Spinal Railcannon"));
        let play = Play::parse("1:Card: The Sequel").expect("a play");
        assert_eq!((play.side.as_str(), play.card.as_str()), ("1", "Card: The Sequel"));
        assert_eq!(Play::parse("Spinal Railcannon"), None);
        assert_eq!(Play::parse(":Spinal Railcannon"), None);
        assert_eq!(Play::parse("1:"), None);
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
