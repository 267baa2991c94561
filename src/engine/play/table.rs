//! The document indexed for play: cards, kinds, tags, fields, zones and
//! counters become numbers, card fields are read once into numbers and
//! names, and every expression, procedure and effect block is compiled into
//! trees of indices.  A [`Table`] is built once and shared by every game
//! played on it.

use super::{PlayError, Seating, MAX_DEPTH};
use crate::engine::data::{self, Condition, Document, Initiative, SetupStep, Value};
use crate::engine::semantics::{self as sem, ArithOp, CmpOp, Counts, Owner, Pick, Visibility, Whose};
use std::collections::HashMap;

/// A value of an expression: a number, a name (interned), or nothing (a
/// card without the field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    None,
    Num(i64),
    Name(u32),
}

/// A compiled expression.
#[derive(Debug)]
pub(crate) enum Ex {
    Int(i64),
    Name(u32),
    Counter(u16, Whose),
    Count {
        zone: u16,
        of: Whose,
        filter: Option<Box<Ex>>,
    },
    /// The cards the player played this turn that match.
    Played(Option<Box<Ex>>),
    Sum {
        zone: u16,
        of: Whose,
        field: u16,
        filter: Option<Box<Ex>>,
    },
    Amount,
    Last,
    Round,
    Place,
    Quantity(u16),
    Condition(u16, Vec<(u32, Ex)>),
    Param(u32),
    Field(u16),
    Kind(u16),
    Tag(u16),
    This,
    Marker(u16),
    Not(Box<Ex>),
    And(Vec<Ex>),
    Or(Vec<Ex>),
    Arith(Box<Ex>, Vec<(ArithOp, Ex)>),
    Compare(Box<Ex>, Vec<(CmpOp, Ex)>),
    /// `if(test, then, otherwise)`.
    If(Box<[Ex; 3]>),
}

#[derive(Debug)]
pub(crate) struct MoveOp {
    pub count: Ex,
    pub from: u16,
    pub from_of: Whose,
    pub to: u16,
    pub to_of: Whose,
    pub pick: Pick,
    pub filter: Option<Ex>,
    pub bottom: bool,
}

/// A compiled operation; procedures are lists in [`Table::ops`].
#[derive(Debug)]
pub(crate) enum COp {
    Add {
        counter: u16,
        amount: Ex,
        of: Whose,
    },
    Remove {
        counter: u16,
        amount: Ex,
        of: Whose,
    },
    Set {
        counter: u16,
        amount: Ex,
        of: Whose,
    },
    /// A window for the phase's reactions, opened for you or your opponent.
    Respond(Whose),
    Reveal {
        count: Ex,
        zone: u16,
        of: Whose,
    },
    /// A decision whether to do the operations.
    May(u32),
    Pay {
        counter: u16,
        amount: Ex,
    },
    /// Pays by marking cards of the seat's zones whose marker is 0.
    PayMarks(Box<Marking>),
    Move(Box<MoveOp>),
    ThisTo {
        zone: u16,
    },
    Shuffle {
        zone: u16,
        of: Whose,
    },
    Mark {
        marker: u16,
        amount: Ex,
    },
    Clear {
        marker: u16,
    },
    Repeat {
        times: Ex,
        ops: u32,
    },
    If {
        test: Ex,
        then: u32,
        otherwise: u32,
    },
    ForEach {
        zone: u16,
        of: Whose,
        filter: Option<Ex>,
        ops: u32,
    },
    Target(Box<TargetOp>),
    Needs(Ex),
    /// The operations of a symbol's meaning, with an amount of their own.
    Run {
        ops: u32,
        amount: Option<Ex>,
    },
    /// A trigger: [`Table::raised`]`[raise]` holds each card's block.
    Raise {
        raise: u16,
        zones: Vec<u16>,
        of: Whose,
    },
}

/// `pay MARKER AMOUNT from ZONE…`.
#[derive(Debug)]
pub(crate) struct Marking {
    pub marker: u16,
    pub amount: Ex,
    pub zones: Vec<u16>,
}

/// `target [FILTER] from ZONE… [opponent] [with AMOUNT] { … }`.
#[derive(Debug)]
pub(crate) struct TargetOp {
    pub zones: Vec<u16>,
    pub of: Whose,
    pub filter: Option<Ex>,
    pub with: Option<Ex>,
    pub ops: u32,
}

/// One step of a compiled effect block, in the order they resolve.
#[derive(Debug)]
pub(crate) enum BStep {
    /// Runs the symbol's procedure for the role (`ops`) with `amount`, times
    /// the quantity (with the card's arguments) when there is one.
    Effect {
        ops: u32,
        amount: i64,
        per: Option<(u16, Vec<(u32, Val)>)>,
    },
    /// The resolving player chooses one of [`Table::choices`]`[n]`.
    Choose(u32),
    /// A declared condition with the card's arguments, and its block.
    When {
        condition: u16,
        args: Vec<(u32, Val)>,
        body: u32,
    },
    Then(u32),
}

pub struct CounterDef {
    pub id: String,
    pub display: String,
    pub(crate) start: i64,
    pub(crate) min: i64,
    pub(crate) max: Option<i64>,
    /// One for the table.
    pub shared: bool,
    /// The seat whose alone it is, for a side's counter: the other seats
    /// have none (it reads 0 for them, and changes to it do nothing).
    pub seat: Option<usize>,
    pub(crate) reset: bool,
    pub(crate) base: usize,
}

pub struct ZoneDef {
    pub id: String,
    pub display: String,
    /// One for the table, or for one side's player (`seat`).
    pub shared: bool,
    /// The seat whose own it is, for a side's zone (one slot).
    pub seat: Option<usize>,
    pub visibility: Visibility,
    pub(crate) limit: Option<usize>,
    pub(crate) holds: Vec<u16>,
    pub(crate) reshuffle: Option<u16>,
    pub(crate) restock: Option<u16>,
    pub(crate) fallback: Option<u16>,
    pub(crate) base: usize,
}

/// A number every card keeps: `Game::marks[card * markers + marker]`.
pub struct MarkerDef {
    pub id: String,
    pub display: String,
}

pub struct CardDef {
    pub name: String,
    pub(crate) kind: u16,
    pub(crate) tags: Vec<u16>,
}

/// An action's price: from a counter, or by marking cards.
pub(crate) enum CostDef {
    Counter(u16, Ex),
    Marks(Marking),
}

pub(crate) struct ActionDef {
    pub from: Option<u16>,
    pub filter: Option<Ex>,
    pub cost: Option<CostDef>,
    pub to: Option<u16>,
    /// The block that resolves, by card.
    pub resolve: Vec<Option<u32>>,
    /// The place among an initiative phase's plays, by `card * seats + seat`.
    pub rank: Vec<u32>,
    pub limit: Option<u32>,
    pub only_if: Option<Ex>,
    pub ops: u32,
    pub counts: Option<Counts>,
    /// Offered only in a window a `respond` opens.
    pub reaction: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PhaseKind {
    Alternate,
    Initiative,
    Turns,
}

pub(crate) struct PhaseDef {
    pub name: String,
    pub kind: PhaseKind,
    pub actions: std::ops::Range<usize>,
    pub start: u32,
    pub end: u32,
    pub order_by: Option<Ex>,
    /// The seat whose own turn the phase is; every seat plays it when
    /// `None`.
    pub seat: Option<usize>,
}

pub(crate) struct PrefDef {
    pub action: Option<u16>,
    pub filter: Option<Ex>,
    pub test: Option<Ex>,
    pub rank: Option<Ex>,
}

pub struct BotDef {
    pub id: String,
    pub display: String,
    pub(crate) prefer: Vec<PrefDef>,
}

pub(crate) struct StateDef {
    pub means: Option<Ex>,
}

/// A set-up step with its zones resolved to slots.
pub(crate) enum SetupOp {
    Put {
        slot: usize,
        cards: Vec<u16>,
    },
    /// Puts one of these lists of cards, drawn at random for the game.
    PutOneOf {
        slot: usize,
        options: Vec<Vec<u16>>,
    },
    Shuffle {
        slot: usize,
    },
    /// `count` cards, or with `by` the sum of a field (by index) over the
    /// cards of a slot when the step is played.
    Deal {
        count: usize,
        by: Option<(u16, usize)>,
        from: usize,
        to: usize,
    },
    Place {
        kinds: Vec<u16>,
        from: usize,
        to: usize,
    },
    /// Adds the sum of a field (by index) over the cards of a zone slot to
    /// a counter of the slot's seat (or the table's).
    AddField {
        field: u16,
        counter: u16,
        slot: usize,
        seat: usize,
    },
}

/// A document indexed for play.
pub struct Table {
    pub seats: usize,
    pub seat_names: Vec<String>,
    pub counters: Vec<CounterDef>,
    pub zones: Vec<ZoneDef>,
    pub markers: Vec<MarkerDef>,
    pub cards: Vec<CardDef>,
    pub bots: Vec<BotDef>,
    pub(crate) counter_slots: usize,
    pub(crate) zone_slots: usize,
    /// The card of each card in play (an instance), by instance.
    pub(crate) instances: Vec<u16>,
    /// The cards of one side's kinds, by name, each with the one seat that
    /// could hold it, for each game's record.
    pub(crate) sided: Vec<(String, usize)>,
    pub(crate) nfields: usize,
    /// `fields[card * nfields + field]`: the field's first value.
    pub(crate) fields: Vec<Val>,
    pub(crate) conditions: Vec<StateDef>,
    pub(crate) quantities: Vec<StateDef>,
    pub(crate) ops: Vec<Vec<COp>>,
    pub(crate) bodies: Vec<Vec<BStep>>,
    pub(crate) choices: Vec<Vec<u32>>,
    /// What each option of each choice does, as text.
    pub(crate) choice_labels: Vec<Vec<String>>,
    pub(crate) actions: Vec<ActionDef>,
    pub(crate) action_names: Vec<String>,
    pub(crate) phases: Vec<PhaseDef>,
    pub(crate) setup: Vec<SetupOp>,
    pub(crate) ends_when: Ex,
    pub(crate) round_limit: u32,
    pub(crate) score: Ex,
    /// The procedure of continuous effects, done for each seat.
    pub(crate) refresh: u32,
    /// The zone and seat of each zone slot.
    pub(crate) slot_owner: Vec<(usize, Option<usize>)>,
    /// The zones that restock, as `(zone, source)`.
    pub(crate) restocking: Vec<(u16, u16)>,
    /// For each field and value a `raise` names, each card's block that
    /// resolves (by card).
    pub(crate) raised: Vec<Vec<Option<u32>>>,
    /// The ruleset's play-limits, bound to the cards.
    pub(crate) limits: super::limits::PlayLimits,
}

impl Table {
    pub fn new(doc: &Document, seating: &Seating) -> Result<Table, PlayError> {
        Builder::new(doc, seating)?.build(seating)
    }

    /// The slot of a zone for a seat (its only slot when shared).
    pub(crate) fn zone_slot(&self, zone: u16, seat: usize) -> usize {
        let def = &self.zones[zone as usize];
        if def.shared {
            def.base
        } else {
            def.base + seat
        }
    }

    /// A marker's change on a card, as the log shows it: `damage 0 → 2
    /// (Ogre)`.
    pub(crate) fn marker_change(&self, card: u16, marker: usize, was: i64, now: i64) -> String {
        format!("  {} {was} → {now} ({})", self.markers[marker].id, self.card_name(card))
    }

    /// Whether a seat has a counter: every seat, unless it is one side's.
    pub(crate) fn holds_counter(&self, counter: u16, seat: usize) -> bool {
        self.counters[counter as usize].seat.is_none_or(|s| s == seat)
    }

    /// A counter's starting value in a slot: its start, or 0 in the slot of
    /// a seat that has none.
    pub(crate) fn counter_start(&self, slot: usize) -> i64 {
        let Some((c, def)) = self.counters.iter().enumerate().rev().find(|(_, c)| c.base <= slot) else { return 0 };
        match def.shared || self.holds_counter(c as u16, slot - def.base) {
            true => def.start,
            false => 0,
        }
    }

    pub(crate) fn counter_slot(&self, counter: u16, seat: usize) -> usize {
        let def = &self.counters[counter as usize];
        if def.shared {
            def.base
        } else {
            def.base + seat
        }
    }

    /// The zone and seat of a slot (the seat is `None` for a shared zone).
    pub fn slot_zone(&self, slot: usize) -> (usize, Option<usize>) {
        self.slot_owner.get(slot).copied().unwrap_or((0, None))
    }

    pub(crate) fn field(&self, card: u16, field: u16) -> Val {
        self.fields.get(card as usize * self.nfields + field as usize).copied().unwrap_or(Val::None)
    }

    pub(crate) fn card_of(&self, instance: u16) -> u16 {
        self.instances[instance as usize]
    }

    pub fn card_name(&self, instance: u16) -> &str {
        &self.cards[self.card_of(instance) as usize].name
    }

    /// The number of cards in play.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// A bot of the ruleset by id.
    pub fn bot(&self, id: &str) -> Option<usize> {
        self.bots.iter().position(|b| b.id == id)
    }
}

/// Names, kinds, tags and fields interned while compiling.
#[derive(Default)]
struct Interner {
    map: HashMap<String, u32>,
    list: Vec<String>,
}

impl Interner {
    fn get(&mut self, text: &str) -> u32 {
        if let Some(&i) = self.map.get(text) {
            return i;
        }
        let i = self.list.len() as u32;
        self.map.insert(text.to_string(), i);
        self.list.push(text.to_string());
        i
    }
}

fn small(i: u32) -> Result<u16, PlayError> {
    u16::try_from(i).map_err(|_| PlayError("the document has more than 65,535 of one kind of thing".into()))
}

struct Builder<'d> {
    doc: &'d Document,
    setup: &'d data::Setup,
    play: &'d sem::Play,
    seats: usize,
    names: Interner,
    fields: Interner,
    kinds: Interner,
    tags: Interner,
    counters: Vec<CounterDef>,
    zones: Vec<ZoneDef>,
    markers: Vec<MarkerDef>,
    conditions: HashMap<&'d str, u16>,
    quantities: HashMap<&'d str, u16>,
    ops: Vec<Vec<COp>>,
    bodies: Vec<Vec<BStep>>,
    choices: Vec<Vec<u32>>,
    choice_labels: Vec<Vec<String>>,
    meanings: HashMap<(&'d str, &'d str), u32>,
    /// Compiled card blocks by (card, field).
    card_bodies: HashMap<(usize, &'d str, Option<&'d str>), Option<u32>>,
    /// The fields and values `raise` names, in the order met: compiled once
    /// every procedure is (a trigger's block may raise another).
    raises: Vec<(&'d str, &'d str)>,
    /// The seat of the side whose set-up step is being built, if it is
    /// one side's (`when side runner { … }`).
    step_seat: Option<usize>,
}

impl<'d> Builder<'d> {
    fn new(doc: &'d Document, seating: &Seating) -> Result<Builder<'d>, PlayError> {
        let id = &doc.ruleset.id;
        let play = doc.ruleset.play.as_ref().ok_or_else(|| {
            PlayError(format!("ruleset `{id}` declares no `play` section: how the game ends and who wins"))
        })?;
        let setup = doc
            .ruleset
            .setup
            .as_ref()
            .ok_or_else(|| PlayError(format!("ruleset `{id}` declares no `setup`: its zones and counters")))?;
        let (min, max) = (setup.players.min.max(1), setup.players.max.max(setup.players.min.max(1)));
        let seats = if seating.seats == 0 { min as usize } else { seating.seats };
        if (seats as i64) < min || (seats as i64) > max || seats > 64 {
            return Err(PlayError(format!(
                "`{id}` is played by {min} to {max} players (at most 64 here), not {seats}"
            )));
        }
        let mut builder = Builder {
            doc,
            setup,
            play,
            seats,
            names: Interner::default(),
            fields: Interner::default(),
            kinds: Interner::default(),
            tags: Interner::default(),
            counters: Vec::new(),
            zones: Vec::new(),
            markers: Vec::new(),
            conditions: HashMap::new(),
            quantities: HashMap::new(),
            ops: Vec::new(),
            bodies: Vec::new(),
            choices: Vec::new(),
            choice_labels: Vec::new(),
            meanings: HashMap::new(),
            card_bodies: HashMap::new(),
            raises: Vec::new(),
            step_seat: None,
        };
        builder.declare()?;
        Ok(builder)
    }

    /// Counters, zones, kinds, tags, fields, conditions and quantities.
    fn declare(&mut self) -> Result<(), PlayError> {
        let mut base = 0;
        for counter in &self.setup.counters {
            let seat = self.side_seat(counter.side.as_deref(), &counter.id)?;
            let shared = counter.owner == Owner::Shared;
            self.counters.push(CounterDef {
                id: counter.id.clone(),
                display: shown(&counter.display, &counter.id),
                start: counter.start,
                min: counter.min,
                max: counter.max,
                shared,
                seat,
                reset: counter.reset_each_round,
                base,
            });
            base += if shared { 1 } else { self.seats };
        }
        for card in &self.doc.cards {
            self.kinds.get(&card.kind);
            for tag in &card.tags {
                self.tags.get(tag);
            }
            for field in &card.body.fields {
                self.fields.get(&field.name);
            }
        }
        let mut base = 0;
        for zone in &self.setup.zones {
            let seat = self.side_seat(zone.side.as_deref(), &zone.id)?;
            let shared = zone.owner == Owner::Shared || seat.is_some();
            let holds = zone.holds.iter().map(|k| small(self.kinds.get(k))).collect::<Result<_, _>>()?;
            let limit = zone.limit.map(|l| usize::try_from(l.max(0)).unwrap_or(usize::MAX));
            self.zones.push(ZoneDef {
                id: zone.id.clone(),
                display: shown(&zone.display, &zone.id),
                shared,
                seat,
                visibility: zone.visibility,
                limit,
                holds,
                reshuffle: None,
                restock: None,
                fallback: None,
                base,
            });
            base += if shared { 1 } else { self.seats };
        }
        for limit in &self.setup.limits {
            if (limit.players.min..=limit.players.max).contains(&(self.seats as i64)) {
                let z = self.zone(&limit.zone, "limit")? as usize;
                self.zones[z].limit = Some(usize::try_from(limit.limit.max(0)).unwrap_or(usize::MAX));
            }
        }
        for (i, zone) in self.setup.zones.iter().enumerate() {
            let reshuffle = zone.reshuffle.as_deref().map(|z| self.zone(z, &zone.id)).transpose()?;
            let restock = zone.restock.as_deref().map(|z| self.zone(z, &zone.id)).transpose()?;
            self.zones[i].reshuffle = reshuffle;
            self.zones[i].restock = restock;
            self.zones[i].fallback = zone.fallback.as_deref().map(|z| self.zone(z, &zone.id)).transpose()?;
        }
        for marker in &self.setup.markers {
            small(self.markers.len() as u32)?;
            self.markers.push(MarkerDef { id: marker.id.clone(), display: shown(&marker.display, &marker.id) });
        }
        for (i, def) in self.doc.ruleset.conditions.iter().enumerate() {
            self.conditions.insert(&def.id, small(i as u32)?);
        }
        for (i, def) in self.doc.ruleset.quantities.iter().enumerate() {
            self.quantities.insert(&def.id, small(i as u32)?);
        }
        Ok(())
    }

    fn zone(&self, id: &str, user: &str) -> Result<u16, PlayError> {
        match self.zones.iter().position(|z| z.id == id) {
            Some(i) => small(i as u32),
            None => Err(PlayError(format!("`{user}` names the zone `{id}`, which the set-up does not declare"))),
        }
    }

    fn counter(&self, id: &str, user: &str) -> Result<u16, PlayError> {
        match self.counters.iter().position(|c| c.id == id) {
            Some(i) => small(i as u32),
            None => Err(PlayError(format!("`{user}` names the counter `{id}`, which the set-up does not declare"))),
        }
    }

    fn marker(&self, id: &str, user: &str) -> Result<u16, PlayError> {
        match self.markers.iter().position(|m| m.id == id) {
            Some(i) => small(i as u32),
            None => Err(PlayError(format!("`{user}` names the marker `{id}`, which the set-up does not declare"))),
        }
    }

    fn expression(&mut self, e: &sem::Expression, user: &str) -> Result<Ex, PlayError> {
        self.expr(&e.tree, user, 0)
    }

    /// The conditions' or quantities' `means`, compiled.
    fn state_defs(&mut self, defs: &[data::StateDef]) -> Result<Vec<StateDef>, PlayError> {
        defs.iter().map(|def| Ok(StateDef { means: self.optional(def.means.as_ref(), &def.id)? })).collect()
    }

    fn optional(&mut self, e: Option<&sem::Expression>, user: &str) -> Result<Option<Ex>, PlayError> {
        e.map(|e| self.expression(e, user)).transpose()
    }

    fn expr(&mut self, e: &sem::Expr, user: &str, depth: usize) -> Result<Ex, PlayError> {
        use sem::Expr as E;
        if depth > MAX_DEPTH {
            return Err(PlayError(format!("an expression of `{user}` nests deeper than {MAX_DEPTH}")));
        }
        let d = depth + 1;
        Ok(match e {
            E::Int { value } => Ex::Int(*value),
            E::Name { value } => Ex::Name(self.names.get(value)),
            E::Counter { id, of } => Ex::Counter(self.counter(id, user)?, *of),
            E::Count { zone, of, filter } => {
                let filter = filter.as_deref().map(|f| self.expr(f, user, d).map(Box::new)).transpose()?;
                Ex::Count { zone: self.zone(zone, user)?, of: *of, filter }
            }
            E::Played { filter } => {
                Ex::Played(filter.as_deref().map(|f| self.expr(f, user, d).map(Box::new)).transpose()?)
            }
            E::Sum { zone, of, field, filter } => {
                let filter = filter.as_deref().map(|f| self.expr(f, user, d).map(Box::new)).transpose()?;
                Ex::Sum { zone: self.zone(zone, user)?, of: *of, field: small(self.fields.get(field))?, filter }
            }
            E::Amount => Ex::Amount,
            E::Last => Ex::Last,
            E::Round => Ex::Round,
            E::Place => Ex::Place,
            E::Quantity { id } => match self.quantities.get(id.as_str()) {
                Some(&q) => Ex::Quantity(q),
                None => return Err(PlayError(format!("`{user}` uses the quantity `{id}`, which is not declared"))),
            },
            E::Condition { id, args } => {
                let Some(&c) = self.conditions.get(id.as_str()) else {
                    return Err(PlayError(format!("`{user}` uses the condition `{id}`, which is not declared")));
                };
                let mut bound = Vec::new();
                for arg in args {
                    bound.push((self.names.get(&arg.param), self.expr(&arg.value, user, d)?));
                }
                Ex::Condition(c, bound)
            }
            E::Param { name } => Ex::Param(self.names.get(name)),
            E::Field { name } => Ex::Field(small(self.fields.get(name))?),
            E::Kind { id } => Ex::Kind(small(self.kinds.get(id))?),
            E::Tag { id } => Ex::Tag(small(self.tags.get(id))?),
            E::This => Ex::This,
            E::Marker { id } => Ex::Marker(self.marker(id, user)?),
            E::Not { operand } => Ex::Not(Box::new(self.expr(operand, user, d)?)),
            E::If { test, then, otherwise } => {
                Ex::If(Box::new([self.expr(test, user, d)?, self.expr(then, user, d)?, self.expr(otherwise, user, d)?]))
            }
            E::And { operands } => Ex::And(self.exprs(operands, user, d)?),
            E::Or { operands } => Ex::Or(self.exprs(operands, user, d)?),
            E::Arith { first, rest } => {
                let first = Box::new(self.expr(first, user, d)?);
                let rest = rest.iter().map(|(op, e)| Ok((*op, self.expr(e, user, d)?))).collect::<Result<_, _>>()?;
                Ex::Arith(first, rest)
            }
            E::Compare { first, rest } => {
                let first = Box::new(self.expr(first, user, d)?);
                let rest = rest.iter().map(|(op, e)| Ok((*op, self.expr(e, user, d)?))).collect::<Result<_, _>>()?;
                Ex::Compare(first, rest)
            }
        })
    }

    fn exprs(&mut self, list: &[sem::Expr], user: &str, depth: usize) -> Result<Vec<Ex>, PlayError> {
        list.iter().map(|e| self.expr(e, user, depth)).collect()
    }

    /// Compiles a procedure into [`Table::ops`], returning its number.
    fn procedure(&mut self, ops: &'d [sem::Op], user: &str, depth: usize) -> Result<u32, PlayError> {
        if depth > MAX_DEPTH {
            return Err(PlayError(format!("a procedure of `{user}` nests deeper than {MAX_DEPTH}")));
        }
        let mut compiled = Vec::with_capacity(ops.len());
        for op in ops {
            compiled.push(self.op(op, user, depth)?);
        }
        self.ops.push(compiled);
        Ok(self.ops.len() as u32 - 1)
    }

    fn op(&mut self, op: &'d sem::Op, user: &str, depth: usize) -> Result<COp, PlayError> {
        use sem::Op as O;
        Ok(match op {
            O::Add { counter, amount, of } => {
                COp::Add { counter: self.counter(counter, user)?, amount: self.expression(amount, user)?, of: *of }
            }
            O::Remove { counter, amount, of } => {
                COp::Remove { counter: self.counter(counter, user)?, amount: self.expression(amount, user)?, of: *of }
            }
            O::Set { counter, amount, of } => {
                COp::Set { counter: self.counter(counter, user)?, amount: self.expression(amount, user)?, of: *of }
            }
            O::Respond { of } => COp::Respond(*of),
            O::Pay { counter, amount, marking } if !marking.is_empty() => {
                COp::PayMarks(Box::new(self.marking(counter, amount, marking, user)?))
            }
            O::Pay { counter, amount, .. } => {
                COp::Pay { counter: self.counter(counter, user)?, amount: self.expression(amount, user)? }
            }
            O::Needs { test } => COp::Needs(self.expression(test, user)?),
            O::Run { role, symbol, amount } => {
                COp::Run { ops: self.meaning(symbol, role, user)?, amount: self.optional(amount.as_ref(), user)? }
            }
            O::Raise { field, value, zones, of } => {
                let key = (field.as_str(), value.as_str());
                let raise = match self.raises.iter().position(|r| *r == key) {
                    Some(at) => at,
                    None => {
                        self.raises.push(key);
                        self.raises.len() - 1
                    }
                };
                COp::Raise {
                    raise: small(raise as u32)?,
                    zones: zones.iter().map(|z| self.zone(z, user)).collect::<Result<_, _>>()?,
                    of: *of,
                }
            }
            O::Target { zones, of, filter, with, ops } => COp::Target(Box::new(TargetOp {
                zones: zones.iter().map(|z| self.zone(z, user)).collect::<Result<_, _>>()?,
                of: *of,
                filter: self.optional(filter.as_ref(), user)?,
                with: self.optional(with.as_ref(), user)?,
                ops: self.procedure(ops, user, depth + 1)?,
            })),
            O::Reveal { count, zone, of } => {
                COp::Reveal { count: self.expression(count, user)?, zone: self.zone(zone, user)?, of: *of }
            }
            O::May { ops } => COp::May(self.procedure(ops, user, depth + 1)?),
            O::Move { count, from, from_of, to, to_of, pick, filter, bottom } => COp::Move(Box::new(MoveOp {
                count: self.expression(count, user)?,
                from: self.zone(from, user)?,
                from_of: *from_of,
                to: self.zone(to, user)?,
                to_of: *to_of,
                pick: *pick,
                filter: self.optional(filter.as_ref(), user)?,
                bottom: *bottom,
            })),
            O::ThisTo { zone } => COp::ThisTo { zone: self.zone(zone, user)? },
            O::Shuffle { zone, of } => COp::Shuffle { zone: self.zone(zone, user)?, of: *of },
            O::Mark { marker, amount } => {
                COp::Mark { marker: self.marker(marker, user)?, amount: self.expression(amount, user)? }
            }
            O::Clear { marker } => COp::Clear { marker: self.marker(marker, user)? },
            O::Repeat { times, ops } => {
                COp::Repeat { times: self.expression(times, user)?, ops: self.procedure(ops, user, depth + 1)? }
            }
            O::If { test, then, otherwise } => COp::If {
                test: self.expression(test, user)?,
                then: self.procedure(then, user, depth + 1)?,
                otherwise: self.procedure(otherwise, user, depth + 1)?,
            },
            O::ForEach { zone, of, filter, ops } => COp::ForEach {
                zone: self.zone(zone, user)?,
                of: *of,
                filter: self.optional(filter.as_ref(), user)?,
                ops: self.procedure(ops, user, depth + 1)?,
            },
        })
    }

    fn marking(
        &mut self,
        marker: &str,
        amount: &sem::Expression,
        zones: &[String],
        user: &str,
    ) -> Result<Marking, PlayError> {
        Ok(Marking {
            marker: self.marker(marker, user)?,
            amount: self.expression(amount, user)?,
            zones: zones.iter().map(|z| self.zone(z, user)).collect::<Result<_, _>>()?,
        })
    }

    /// The procedure of a symbol for a role.
    fn meaning(&mut self, symbol: &'d str, role: &'d str, card: &str) -> Result<u32, PlayError> {
        if let Some(&ops) = self.meanings.get(&(symbol, role)) {
            return Ok(ops);
        }
        let doc = self.doc;
        let Some(declared) = doc.ruleset.symbols.iter().find(|s| s.id == symbol) else {
            return Err(PlayError(format!("`{card}` has an effect of the symbol `{symbol}`, which is not declared")));
        };
        let Some(meaning) = declared.does.iter().find(|m| m.role == role) else {
            return Err(PlayError(format!(
                "`{card}` has the effect `{role} {symbol}`, but the symbol `{symbol}` has no meaning for the role \
                 `{role}` (`does {role} {{ … }}`)"
            )));
        };
        // Its number is kept before it is compiled, so a meaning that runs
        // itself (through `run`) compiles once.
        let at = self.ops.len() as u32;
        self.ops.push(Vec::new());
        self.meanings.insert((symbol, role), at);
        let user = format!("{symbol} ({role})");
        let compiled = meaning.ops.iter().map(|op| self.op(op, &user, 0)).collect::<Result<Vec<_>, _>>()?;
        self.ops[at as usize] = compiled;
        Ok(at)
    }

    fn args(&mut self, args: &[data::Argument]) -> Vec<(u32, Val)> {
        args.iter().map(|a| (self.names.get(&a.param), self.value(&a.value))).collect()
    }

    fn value(&mut self, value: &Value) -> Val {
        match value {
            Value::Int(n) | Value::Signed(n) => Val::Num(*n),
            Value::Initiative(Initiative::Step(t)) => Val::Num(*t / 10),
            Value::Decimal(text) => text.parse().map_or(Val::None, Val::Num),
            Value::Grade { letter, plus } => Val::Num(grade_number(letter, *plus)),
            Value::Name(text) | Value::String(text) => Val::Name(self.names.get(text)),
            _ => Val::None,
        }
    }

    /// Compiles a card's effect block into [`Table::bodies`].
    fn body(&mut self, body: &'d data::Body, card: &str, depth: usize) -> Result<u32, PlayError> {
        if depth > MAX_DEPTH {
            return Err(PlayError(format!("the effects of `{card}` nest deeper than {MAX_DEPTH}")));
        }
        let mut steps = Vec::new();
        for effect in &body.effects {
            let ops = self.meaning(&effect.symbol, &effect.role, card)?;
            let per = match &effect.per {
                Some(per) => match self.quantities.get(per.quantity.as_str()) {
                    Some(&q) => Some((q, self.args(&per.args))),
                    None => return Err(PlayError(format!("`{card}` counts `per {}`, not declared", per.quantity))),
                },
                None => None,
            };
            steps.push(BStep::Effect { ops, amount: effect.amount, per });
        }
        for choice in &body.choices {
            let mut options = Vec::new();
            let mut labels = Vec::new();
            for option in &choice.options {
                options.push(self.body(option, card, depth + 1)?);
                labels.push(describe(option));
            }
            self.choices.push(options);
            self.choice_labels.push(labels);
            steps.push(BStep::Choose(self.choices.len() as u32 - 1));
        }
        for conditional in &body.conditions {
            let (id, args) = match &conditional.condition {
                Condition::Declared { id, args } => (id, args),
                Condition::Range { .. } | Condition::Other => {
                    return Err(PlayError(format!(
                        "`{card}` has a condition this engine cannot read in play (only conditions the ruleset \
                         declares with `means` are played)"
                    )))
                }
            };
            let Some(&condition) = self.conditions.get(id.as_str()) else {
                return Err(PlayError(format!("`{card}` uses the condition `{id}`, which is not declared")));
            };
            let args = self.args(args);
            let inner = self.body(&conditional.body, card, depth + 1)?;
            steps.push(BStep::When { condition, args, body: inner });
        }
        for then in &body.then {
            steps.push(BStep::Then(self.body(then, card, depth + 1)?));
        }
        self.bodies.push(steps);
        Ok(self.bodies.len() as u32 - 1)
    }

    /// The block of a card's field, compiled once.
    /// The block of the card's field, compiled once; with a value, of the
    /// card's fields of that name the one whose first value it is.
    fn card_field_body(
        &mut self,
        card: usize,
        field: &'d str,
        value: Option<&'d str>,
    ) -> Result<Option<u32>, PlayError> {
        if let Some(found) = self.card_bodies.get(&(card, field, value)) {
            return Ok(*found);
        }
        let doc = self.doc;
        let declared = &doc.cards[card];
        let picked = declared.body.fields.iter().filter(|f| f.name == field).find(|f| match value {
            None => true,
            Some(value) => f.values.iter().any(|v| matches!(v, Value::Name(n) if n == value)),
        });
        // A block with no effects (an ability written only as text) has
        // nothing to resolve: the card is not offered for it.
        let compiled = match picked.and_then(|f| f.body.as_ref()) {
            Some(body) => Some(self.body(body, &declared.name, 0)?).filter(|&b| !self.bodies[b as usize].is_empty()),
            None => None,
        };
        self.card_bodies.insert((card, field, value), compiled);
        Ok(compiled)
    }

    fn build(mut self, seating: &Seating) -> Result<Table, PlayError> {
        let doc = self.doc;
        let conditions = self.state_defs(&doc.ruleset.conditions)?;
        let quantities = self.state_defs(&doc.ruleset.quantities)?;
        let (phases, actions, action_names) = self.phases()?;
        let bots = self.bots(&action_names)?;
        let (setup, instances) = self.setup_steps(seating)?;
        let ends_when = self.expression(&self.play.ends_when, "ends-when")?;
        let score = self.expression(&self.play.score, "score")?;
        let refresh = self.procedure(&self.play.refresh, "refresh", 0)?;
        let raised = self.raised()?;
        let limits = super::limits::PlayLimits::new(doc)?;
        let (cards, sided) = (self.cards()?, self.sided());
        let (nfields, fields) = self.field_values();
        for (c, def) in conditions.iter().enumerate() {
            let id = &doc.ruleset.conditions[c].id;
            if def.means.is_none() && self.used_condition(c) {
                return Err(PlayError(format!("the condition `{id}` is used in play but has no `means`")));
            }
        }
        let restocking = self.zones.iter().enumerate().filter_map(|(i, z)| z.restock.map(|r| (i as u16, r))).collect();
        let seat_names = (0..self.seats)
            .map(|s| {
                let side = doc.ruleset.sides.iter().find(|d| d.player as usize == s + 1);
                side.map_or_else(|| format!("player {}", s + 1), |d| d.id.clone())
            })
            .collect();
        let counter_slots = self.counters.iter().map(|c| if c.shared { 1 } else { self.seats }).sum();
        let slot_owner = self.slot_owner();
        let zone_slots = slot_owner.len();
        if zone_slots.saturating_mul(instances.len()) > MAX_ZONE_ROOM {
            return Err(PlayError(format!(
                "{} cards in {zone_slots} zones (every seat's counted) is more than a game here holds",
                instances.len()
            )));
        }
        if self.markers.len().saturating_mul(instances.len()) > MAX_ZONE_ROOM {
            return Err(PlayError(format!(
                "{} cards with {} markers each is more than a game here holds",
                instances.len(),
                self.markers.len()
            )));
        }
        Ok(Table {
            sided,
            seats: self.seats,
            seat_names,
            counters: self.counters,
            zones: self.zones,
            markers: self.markers,
            cards,
            bots,
            counter_slots,
            zone_slots,
            instances,
            nfields,
            fields,
            conditions,
            quantities,
            ops: self.ops,
            bodies: self.bodies,
            choices: self.choices,
            choice_labels: self.choice_labels,
            actions,
            action_names,
            phases,
            setup,
            ends_when,
            round_limit: self.play.round_limit.clamp(1, MAX_ROUNDS),
            score,
            refresh,
            slot_owner,
            restocking,
            raised,
            limits,
        })
    }

    /// Each card's block for each field and value a `raise` names; the
    /// list grows while a trigger's block raises another.
    fn raised(&mut self) -> Result<Vec<Vec<Option<u32>>>, PlayError> {
        let mut raised = Vec::new();
        while let Some(&(field, value)) = self.raises.get(raised.len()) {
            let mut by_card = Vec::with_capacity(self.doc.cards.len());
            for card in 0..self.doc.cards.len() {
                by_card.push(self.card_field_body(card, field, Some(value))?);
            }
            raised.push(by_card);
        }
        Ok(raised)
    }

    /// Each card's first value of each field, `[card * nfields + field]`.
    fn field_values(&mut self) -> (usize, Vec<Val>) {
        let doc = self.doc;
        let nfields = self.fields.list.len();
        let mut fields = vec![Val::None; doc.cards.len() * nfields];
        // `name`, when an expression reads it, is the card's printed name
        // unless the card has a field of that name.
        if let Some(f) = self.fields.list.iter().position(|f| f == "name") {
            for (c, card) in doc.cards.iter().enumerate() {
                fields[c * nfields + f] = Val::Name(self.names.get(&card.name));
            }
        }
        for (c, card) in doc.cards.iter().enumerate() {
            for field in &card.body.fields {
                let f = self.fields.get(&field.name) as usize;
                if let Some(value) = field.values.first() {
                    fields[c * nfields + f] = self.value(value);
                }
            }
        }
        (nfields, fields)
    }

    /// The zone and seat of each zone slot, in slot order.
    fn slot_owner(&self) -> Vec<(usize, Option<usize>)> {
        let mut owners = Vec::new();
        for (i, zone) in self.zones.iter().enumerate() {
            if zone.shared {
                owners.push((i, zone.seat));
            } else {
                owners.extend((0..self.seats).map(|s| (i, Some(s))));
            }
        }
        owners
    }

    fn used_condition(&self, condition: usize) -> bool {
        self.bodies.iter().flatten().any(|s| matches!(s, BStep::When { condition: c, .. } if *c as usize == condition))
    }

    fn cards(&mut self) -> Result<Vec<CardDef>, PlayError> {
        let mut cards = Vec::new();
        for card in &self.doc.cards {
            let kind = small(self.kinds.get(&card.kind))?;
            let tags = card.tags.iter().map(|t| small(self.tags.get(t))).collect::<Result<_, _>>()?;
            cards.push(CardDef { name: card.name.clone(), kind, tags });
        }
        Ok(cards)
    }

    /// The cards of one side's kinds, by name, each with the seat of that
    /// side (a side whose player is not seated holds nothing in the game).
    fn sided(&self) -> Vec<(String, usize)> {
        let side_of = |kind: &str| self.doc.ruleset.kinds.iter().find(|k| k.id == kind).and_then(|k| k.side.as_deref());
        let mut sided: Vec<(String, usize)> = (self.doc.cards.iter())
            .filter_map(|c| Some((c.name.clone(), self.side_seat(side_of(&c.kind), &c.name).ok().flatten()?)))
            .collect();
        sided.sort();
        sided.dedup();
        sided
    }

    #[allow(clippy::type_complexity)]
    fn phases(&mut self) -> Result<(Vec<PhaseDef>, Vec<ActionDef>, Vec<String>), PlayError> {
        let doc = self.doc;
        let mut phases = Vec::new();
        let mut actions = Vec::new();
        let mut names = Vec::new();
        for phase in &doc.ruleset.phases {
            let kind = if phase.alternate {
                PhaseKind::Alternate
            } else if phase.initiative {
                PhaseKind::Initiative
            } else {
                PhaseKind::Turns
            };
            let first = actions.len();
            for action in &phase.play.actions {
                actions.push(self.action(action)?);
                names.push(action.id.clone());
            }
            let start = self.procedure(&phase.play.start, &phase.id, 0)?;
            let end = self.procedure(&phase.play.end, &phase.id, 0)?;
            phases.push(PhaseDef {
                name: shown(&phase.display, &phase.id),
                kind,
                actions: first..actions.len(),
                start,
                end,
                order_by: self.optional(phase.play.order_by.as_ref(), &phase.id)?,
                seat: self.side_seat(phase.side.as_deref(), &phase.id)?,
            });
            if kind == PhaseKind::Initiative {
                self.rank(&mut actions[first..], phase)?;
            }
        }
        Ok((phases, actions, names))
    }

    fn action(&mut self, action: &'d sem::Action) -> Result<ActionDef, PlayError> {
        let user = action.id.as_str();
        let from = action.from.as_deref().map(|z| self.zone(z, user)).transpose()?;
        let to = action.to.as_deref().map(|z| self.zone(z, user)).transpose()?;
        let cost = match &action.cost {
            Some(cost) if !cost.marking.is_empty() => {
                Some(CostDef::Marks(self.marking(&cost.counter, &cost.amount, &cost.marking, user)?))
            }
            Some(cost) => {
                Some(CostDef::Counter(self.counter(&cost.counter, user)?, self.expression(&cost.amount, user)?))
            }
            None => None,
        };
        let mut resolve = Vec::new();
        if let Some(field) = action.resolve.as_deref() {
            for card in 0..self.doc.cards.len() {
                resolve.push(self.card_field_body(card, field, action.resolve_value.as_deref())?);
            }
        }
        Ok(ActionDef {
            from,
            filter: self.optional(action.filter.as_ref(), user)?,
            cost,
            to,
            resolve,
            rank: Vec::new(),
            limit: action.limit,
            only_if: self.optional(action.only_if.as_ref(), user)?,
            ops: self.procedure(&action.ops, user, 0)?,
            counts: action.counts_as,
            reaction: action.reaction,
        })
    }

    /// The place of each card played by each seat among an initiative
    /// phase's plays, from the timeline's order.
    fn rank(&self, actions: &mut [ActionDef], phase: &data::Phase) -> Result<(), PlayError> {
        let (doc, declared) = (self.doc, &phase.play.actions);
        let mut keys = Vec::new();
        for (a, action) in declared.iter().enumerate() {
            for (c, card) in doc.cards.iter().enumerate() {
                let at = action.resolve.as_deref().and_then(|f| card.field(f)).and_then(|f| {
                    f.values.iter().find_map(|v| match v {
                        Value::Initiative(at) => Some(*at),
                        _ => None,
                    })
                });
                for seat in 0..self.seats {
                    let key = crate::engine::timeline::initiative_key(doc, phase, card, seat as u32 + 1, at);
                    keys.push((key, a, c * self.seats + seat));
                }
            }
        }
        let mut sorted: Vec<&Vec<i128>> = keys.iter().map(|k| &k.0).collect();
        sorted.sort();
        sorted.dedup();
        for action in actions.iter_mut() {
            action.rank = vec![0; doc.cards.len() * self.seats];
        }
        for (key, a, at) in &keys {
            let rank = sorted.binary_search(&key).unwrap_or(0) as u32;
            actions[*a].rank[*at] = rank;
        }
        Ok(())
    }

    fn bots(&mut self, actions: &[String]) -> Result<Vec<BotDef>, PlayError> {
        let doc = self.doc;
        let mut bots = Vec::new();
        for bot in &doc.ruleset.bots {
            let mut prefer = Vec::new();
            for line in &bot.prefer {
                let action = actions.iter().position(|a| *a == line.action).map(|a| small(a as u32)).transpose()?;
                if action.is_none() {
                    return Err(PlayError(format!(
                        "bot `{}` prefers `{}`, which no phase offers",
                        bot.id, line.action
                    )));
                }
                prefer.push(PrefDef {
                    action,
                    filter: self.optional(line.filter.as_ref(), &bot.id)?,
                    test: self.optional(line.test.as_ref(), &bot.id)?,
                    rank: self.optional(line.rank.as_ref(), &bot.id)?,
                });
            }
            bots.push(BotDef { id: bot.id.clone(), display: shown(&bot.display, &bot.id), prefer });
        }
        Ok(bots)
    }

    /// The slots of a zone a set-up step works on, each with its seat
    /// (`None`: the table's): one per seat, or the zone's only one; only
    /// `step_seat`'s for a step of one side.
    fn slots(&self, zone: &str, user: &str) -> Result<Vec<(Option<usize>, usize)>, PlayError> {
        let z = &self.zones[self.zone(zone, user)? as usize];
        Ok(match (z.shared, self.step_seat) {
            (true, _) => vec![(z.seat, z.base)],
            (false, Some(seat)) => vec![(Some(seat), z.base + seat)],
            (false, None) => (0..self.seats).map(|s| (Some(s), z.base + s)).collect(),
        })
    }

    /// The seat of the player of a side, for what belongs to it (`user`);
    /// `None` without a side.
    fn side_seat(&self, side: Option<&str>, user: &str) -> Result<Option<usize>, PlayError> {
        let Some(side) = side else { return Ok(None) };
        let Some(declared) = self.doc.ruleset.sides.iter().find(|s| s.id == side) else {
            return Err(PlayError(format!("`{user}` belongs to side `{side}`, which the ruleset does not declare")));
        };
        let seat = declared.player as usize - 1;
        if seat >= self.seats {
            return Err(PlayError(format!(
                "`{user}` belongs to side `{side}`, played by player {}, and {} play",
                declared.player, self.seats
            )));
        }
        Ok(Some(seat))
    }

    /// The set-up's steps with their zones resolved, and the cards in play.
    fn setup_steps(&mut self, seating: &Seating) -> Result<(Vec<SetupOp>, Vec<u16>), PlayError> {
        self.seat_decks_dealt(seating)?;
        let mut out = Vec::new();
        let mut instances: Vec<u16> = Vec::new();
        let (setup, seats) = (self.setup, self.seats);
        for step in setup.steps.iter().filter(|s| s.done_for(seats)) {
            self.step_seat = self.side_seat(step.side.as_deref(), "a set-up step")?;
            match &step.step {
                SetupStep::Decks { deck_types, to, random, .. } => {
                    self.decks_step(deck_types, to, *random, seating, &mut instances, &mut out)?;
                }
                SetupStep::Shuffle { zone } => {
                    out.extend(self.slots(zone, "shuffle")?.into_iter().map(|(_, slot)| SetupOp::Shuffle { slot }));
                }
                SetupStep::Deal { count, from, to } => self.deal(count, from, to, &mut out)?,
                SetupStep::Place { kinds, from, to } => {
                    let kinds: Vec<u16> = kinds.iter().map(|k| small(self.kinds.get(k))).collect::<Result<_, _>>()?;
                    self.pairs(from, to, |from, to| SetupOp::Place { kinds: kinds.clone(), from, to }, &mut out)?;
                }
                // A mulligan is a player's option to draw again; play keeps
                // every opening hand.
                SetupStep::Mulligan { .. } => {}
                SetupStep::Add { field, counter, from } => {
                    let (field, counter) = (small(self.fields.get(field))?, self.counter(counter, "add")?);
                    for (seat, slot) in self.slots(from, "add")? {
                        let seat = seat.unwrap_or(0);
                        out.push(SetupOp::AddField { field, counter, slot, seat });
                    }
                }
                SetupStep::Unknown => {
                    return Err(PlayError(
                        "the set-up has a step this engine does not play (only decks, shuffle, deal, place, add \
                         and mulligan)"
                            .into(),
                    ))
                }
            }
        }
        self.step_seat = None;
        Ok((out, instances))
    }

    /// `decks TYPE… to ZONE`: each seat's decks of the types (the supply's,
    /// for a zone of the table) into its slot of the zone.
    fn decks_step(
        &self,
        deck_types: &[String],
        to: &str,
        random: bool,
        seating: &Seating,
        instances: &mut Vec<u16>,
        out: &mut Vec<SetupOp>,
    ) -> Result<(), PlayError> {
        for (seat, slot) in self.slots(to, "decks")? {
            let chosen = match seat {
                Some(seat) => seating.decks.get(seat),
                None => Some(&seating.supply),
            };
            for deck_type in deck_types {
                let mut options = Vec::new();
                for deck in self.decks_of(deck_type, chosen, random, seat.unwrap_or(0))? {
                    let mut cards = Vec::new();
                    for card in self.deck_cards(deck)? {
                        cards.push(u16::try_from(instances.len()).map_err(|_| too_many())?);
                        instances.push(card);
                    }
                    options.push(cards);
                }
                out.push(match options.len() {
                    1 => SetupOp::Put { slot, cards: options.swap_remove(0) },
                    _ => SetupOp::PutOneOf { slot, options },
                });
            }
        }
        Ok(())
    }

    /// `deal N from … to …`, or `deal FIELD of ZONE from … to …`: as many
    /// cards as the field's values over the cards in that zone then.
    fn deal(
        &mut self,
        count: &serde_json::Value,
        from: &str,
        to: &str,
        out: &mut Vec<SetupOp>,
    ) -> Result<(), PlayError> {
        if let Some(count) = count.as_u64() {
            let count = usize::try_from(count).unwrap_or(usize::MAX);
            return self.pairs(from, to, |from, to| SetupOp::Deal { count, by: None, from, to }, out);
        }
        let (Some(field), Some(each_in)) = (count["field"].as_str(), count["each_in"].as_str()) else {
            return Err(PlayError("a `deal` of the set-up counts by neither a number nor a field".into()));
        };
        let field = small(self.fields.get(field))?;
        let each_in = self.slots(each_in, "deal")?;
        let mut seat = 0;
        self.pairs(
            from,
            to,
            |from, to| {
                let slot = each_in.get(seat).or(each_in.first()).map_or(0, |(_, slot)| *slot);
                seat += 1;
                SetupOp::Deal { count: 0, by: Some((field, slot)), from, to }
            },
            out,
        )
    }

    /// A step between two zones, once per seat when either is a player's.
    fn pairs(
        &self,
        from: &str,
        to: &str,
        mut make: impl FnMut(usize, usize) -> SetupOp,
        out: &mut Vec<SetupOp>,
    ) -> Result<(), PlayError> {
        let (from, to) = (self.slots(from, "set-up")?, self.slots(to, "set-up")?);
        let n = from.len().max(to.len());
        for seat in 0..n {
            let f = from.get(seat).or(from.first()).map_or(0, |(_, slot)| *slot);
            let t = to.get(seat).or(to.first()).map_or(0, |(_, slot)| *slot);
            out.push(make(f, t));
        }
        Ok(())
    }

    /// Refuses a deck given to a seat (or the supply) that no set-up step
    /// deals a seat (or a shared zone): one of another type would be left
    /// out without a word.
    fn seat_decks_dealt(&self, seating: &Seating) -> Result<(), PlayError> {
        let (mut dealt, mut supplied): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
        for step in self.setup.steps.iter().filter(|s| s.done_for(self.seats)) {
            if let SetupStep::Decks { deck_types, to, .. } = &step.step {
                let zone = &self.zones[self.zone(to, "decks")? as usize];
                let types = deck_types.iter().map(String::as_str);
                // A zone of one side's player is dealt that player's decks.
                if zone.shared && zone.seat.is_none() {
                    supplied.extend(types)
                } else {
                    dealt.extend(types)
                }
            }
        }
        let given = seating.decks.iter().flatten().map(|n| (n, &dealt, "a seat"));
        for (name, dealt, whom) in given.chain(seating.supply.iter().map(|n| (n, &supplied, "a shared zone"))) {
            let Some(deck) = self.doc.decks.iter().find(|d| &d.name == name) else {
                return Err(PlayError(format!("no deck is named `{name}`")));
            };
            if !dealt.contains(&deck.deck_type.as_str()) {
                let types = if dealt.is_empty() { "none".to_string() } else { dealt.join(", ") };
                return Err(PlayError(format!(
                    "deck `{name}` is of type `{}`, and the set-up deals {whom} decks of type {types}",
                    deck.deck_type
                )));
            }
        }
        Ok(())
    }

    /// The decks a step puts in a zone for one seat (or the table): the one
    /// named of the type, else every deck of the type for a step that draws
    /// one at random, else the one in the seat's place (seat 1 the first,
    /// seat 2 the second, round again when there are fewer; the table the
    /// first).
    fn decks_of(
        &self,
        deck_type: &str,
        chosen: Option<&Vec<String>>,
        random: bool,
        seat: usize,
    ) -> Result<Vec<&'d data::Deck>, PlayError> {
        let doc = self.doc;
        let of_type = |d: &&data::Deck| d.deck_type == deck_type;
        if let Some(named) = chosen.and_then(|names| doc.decks.iter().filter(of_type).find(|d| names.contains(&d.name)))
        {
            return Ok(vec![named]);
        }
        let all: Vec<&data::Deck> = doc.decks.iter().filter(of_type).collect();
        if all.is_empty() {
            return Err(PlayError(format!("the set-up deals decks of type `{deck_type}`, and there is none")));
        }
        Ok(if random { all } else { vec![all[seat % all.len()]] })
    }

    /// A deck's cards (its list already holds the decks it includes).
    fn deck_cards(&self, deck: &data::Deck) -> Result<Vec<u16>, PlayError> {
        let doc = self.doc;
        let mut cards = Vec::new();
        for entry in &deck.cards {
            let Some(c) = doc.cards.iter().position(|c| c.name == entry.card) else {
                return Err(PlayError(format!("deck `{}` lists `{}`, which is no card", deck.name, entry.card)));
            };
            if cards.len() + entry.count as usize > usize::from(u16::MAX) {
                return Err(too_many());
            }
            cards.extend(std::iter::repeat_n(small(c as u32)?, entry.count as usize));
        }
        Ok(cards)
    }
}

/// The most room a game keeps for its zones (each zone of each seat has
/// room for every card in play): 32 MiB of card numbers; and the most
/// marker values it keeps (every marker of every card in play).
const MAX_ZONE_ROOM: usize = 1 << 24;

/// The most rounds a game lasts, whatever its round limit.
pub const MAX_ROUNDS: u32 = 100_000;

fn too_many() -> PlayError {
    PlayError("more than 65,535 cards would be in play".into())
}

fn shown(display: &str, id: &str) -> String {
    if display.is_empty() {
        id.to_string()
    } else {
        display.to_string()
    }
}

/// What an option of a choice does: `gain coin 3; gain card 1`.
fn describe(body: &data::Body) -> String {
    let mut parts: Vec<String> = body.effects.iter().map(|e| format!("{} {} {}", e.role, e.symbol, e.amount)).collect();
    if !body.choices.is_empty() {
        parts.push("a choice".into());
    }
    for c in &body.conditions {
        if let Condition::Declared { id, .. } = &c.condition {
            parts.push(format!("when {id}: {}", describe_flat(&c.body)));
        }
    }
    if !body.then.is_empty() {
        parts.push("then more".into());
    }
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join("; ")
    }
}

fn describe_flat(body: &data::Body) -> String {
    body.effects.iter().map(|e| format!("{} {} {}", e.role, e.symbol, e.amount)).collect::<Vec<_>>().join(", ")
}

/// A grade as a number that orders as grades do: `A` is 2600, `A+` 2601,
/// `B` 2500 (a letter nearer `A` is better; more `+` is better).
pub(crate) fn grade_number(letter: &str, plus: u32) -> i64 {
    let rank = letter.chars().next().filter(char::is_ascii_uppercase).map_or(0, |c| i64::from(b'Z' - c as u8) + 1);
    rank * 100 + i64::from(plus.min(99))
}

#[cfg(test)]
mod tests {
    use super::grade_number;

    #[test]
    fn grades_order_as_the_game_reads_them() {
        let order = [("A", 2), ("A", 1), ("A", 0), ("B", 9), ("B", 0), ("Z", 0)];
        let numbers: Vec<i64> = order.iter().map(|(l, p)| grade_number(l, *p)).collect();
        assert!(numbers.windows(2).all(|w| w[0] > w[1]), "{numbers:?}");
        assert_eq!(grade_number("A", 1), 2601);
        assert_eq!(grade_number("a", 0), 0, "not a grade letter");
    }
}
