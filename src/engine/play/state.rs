//! A game in progress: counters, zones and the cards' markers as flat
//! arrays of numbers, where
//! the rounds and phases stand, and the interpreter's continuation stack.
//! Cloning a game copies a few small vectors, so a search can play on from
//! any point.

use super::rng::Rng;
use super::stack::{Frame, Stage};
use super::table::{Table, Val};
use crate::engine::record::{CardUse, Ended, GameRecord};

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// A seat chooses an action of the phase, or passes.
    Action { seat: u8 },
    /// A seat chooses an option of a `choose` block.
    Option { seat: u8, choice: u32 },
    /// A seat chooses the next card of a `chosen` move.
    Card { seat: u8 },
    /// A seat chooses whether a `may` block's operations are done
    /// (option 1) or not (option 2).
    May { seat: u8, ops: u32 },
}

/// A play of an initiative phase waiting for its turn to resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Queued {
    pub rank: u32,
    pub seat: u8,
    pub card: u16,
    pub action: u16,
}

/// A game on a [`Table`].
#[derive(Clone)]
pub struct Game<'t> {
    pub(crate) t: &'t Table,
    pub(crate) seed: u64,
    pub(crate) rng: Rng,
    pub(crate) counters: Vec<i64>,
    /// Zone slot `s` holds `cards[s * cap .. s * cap + lens[s]]`, bottom first.
    pub(crate) cards: Vec<u16>,
    pub(crate) lens: Vec<u16>,
    pub(crate) cap: usize,
    /// The slot each card is in.
    pub(crate) loc: Vec<u16>,
    /// `marks[card * markers + marker]`: each card's markers, 0 until
    /// marked and again whenever the card moves to another zone.
    pub(crate) marks: Vec<u32>,
    pub(crate) round: u32,
    /// The seats in the order they act, first first (seat order until a
    /// phase's `order-by` says otherwise).
    pub(crate) order: Vec<u8>,
    pub(crate) phase: usize,
    pub(crate) stage: Stage,
    pub(crate) frames: Vec<Frame>,
    pub(crate) last: i64,
    pub(crate) pending: Option<Pending>,
    /// `taken[seat * actions + action]`: times taken this phase.
    pub(crate) taken: Vec<u16>,
    pub(crate) queue: Vec<Queued>,
    /// `uses[seat * cards + card]`: acquired, played.
    pub(crate) uses: Vec<[u32; 2]>,
    /// The cards played this turn, `(seat, card in play)`.
    pub(crate) played: Vec<(u8, u16)>,
    pub(crate) decisions: u32,
    /// Each seat's score at the end of each round, round after round.
    pub(crate) curve: Vec<i64>,
    pub(crate) ended: Option<Ended>,
    pub(crate) log: Option<Vec<String>>,
    /// What happens while seats choose in secret, logged once the plays
    /// are revealed.
    pub(crate) held: Vec<String>,
    /// Whether the continuous effects (`refresh`) are to be set anew
    /// before the game goes on, and whether they are being set.
    pub(crate) stale: bool,
    pub(crate) refreshing: bool,
    /// The markers and counters before the continuous effects were set
    /// anew, when logging: the log shows what changed, not each step.
    pub(crate) before_refresh: Option<Box<(Vec<u32>, Vec<i64>)>>,
}

/// Who and what an expression or operation is read for.
#[derive(Clone, Copy)]
pub(crate) struct Env<'p> {
    pub you: usize,
    pub this: Option<u16>,
    pub tested: Option<u16>,
    pub amount: i64,
    pub params: &'p [(u32, Val)],
}

impl Env<'static> {
    pub(crate) fn of(you: usize, this: Option<u16>) -> Env<'static> {
        Env { you, this, tested: None, amount: 0, params: &[] }
    }
}

impl<'t> Game<'t> {
    /// A game set up from the seed, run up to its first decision.
    pub fn new(t: &'t Table, seed: u64) -> Game<'t> {
        Game::start(t, seed, false)
    }

    /// As [`Game::new`], keeping a log of what happens ([`Game::take_log`]).
    pub fn with_log(t: &'t Table, seed: u64) -> Game<'t> {
        Game::start(t, seed, true)
    }

    fn start(t: &'t Table, seed: u64, logging: bool) -> Game<'t> {
        let cap = t.instances.len();
        let counters = (0..t.counter_slots).map(|slot| t.counter_start(slot)).collect();
        let mut game = Game {
            t,
            seed,
            rng: Rng::new(seed),
            counters,
            cards: vec![0; t.zone_slots * cap],
            lens: vec![0; t.zone_slots],
            cap,
            loc: vec![0; cap],
            marks: vec![0; cap * t.markers.len()],
            round: 1,
            order: (0..t.seats as u8).collect(),
            phase: 0,
            stage: Stage::Begin,
            frames: Vec::new(),
            last: 0,
            pending: None,
            taken: vec![0; t.seats * t.actions.len()],
            queue: Vec::new(),
            uses: vec![[0; 2]; t.seats * t.cards.len()],
            played: Vec::new(),
            decisions: 0,
            curve: Vec::new(),
            ended: None,
            log: logging.then(Vec::new),
            held: Vec::new(),
            stale: true,
            refreshing: false,
            before_refresh: None,
        };
        game.set_up();
        game.note(|| format!("== round {} ==", 1));
        game.settle();
        game
    }

    /// Plays on from a clone with other random numbers (a search's playout
    /// should not know the shuffles to come).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    pub fn table(&self) -> &'t Table {
        self.t
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// The seat whose decision is pending; `None` once the game is over.
    pub fn to_act(&self) -> Option<usize> {
        match self.pending? {
            Pending::Action { seat }
            | Pending::Option { seat, .. }
            | Pending::Card { seat }
            | Pending::May { seat, .. } => Some(seat as usize),
        }
    }

    /// What happened since the last call, one line each (empty unless the
    /// game keeps a log).  The plays seats choose in secret are told once
    /// every seat has chosen.
    pub fn take_log(&mut self) -> Vec<String> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub(crate) fn note(&mut self, line: impl FnOnce() -> String) {
        if self.refreshing {
            return;
        }
        let secret = self.choosing_in_secret();
        if let Some(log) = &mut self.log {
            if secret {
                self.held.push(line());
            } else {
                log.push(line());
            }
        }
    }

    /// The cards of a zone slot, bottom first.
    pub(crate) fn slot(&self, slot: usize) -> &[u16] {
        let start = slot * self.cap;
        &self.cards[start..start + self.lens[slot] as usize]
    }

    /// A zone of a seat (the table's when shared): card names, bottom first.
    pub fn zone_cards(&self, zone: usize, seat: usize) -> Vec<&'t str> {
        let slot = self.t.zone_slot(zone as u16, seat);
        self.slot(slot).iter().map(|&c| self.t.card_name(c)).collect()
    }

    pub fn zone_len(&self, zone: usize, seat: usize) -> usize {
        self.lens[self.t.zone_slot(zone as u16, seat)] as usize
    }

    pub fn counter(&self, counter: usize, seat: usize) -> i64 {
        self.counters[self.t.counter_slot(counter as u16, seat)]
    }

    pub(crate) fn whose(&self, you: usize, of: crate::engine::semantics::Whose) -> usize {
        match of {
            crate::engine::semantics::Whose::You => you,
            crate::engine::semantics::Whose::Opponent => (you + 1) % self.t.seats,
        }
    }

    /// A card's value of a marker.
    pub fn marker(&self, card: u16, marker: usize) -> i64 {
        i64::from(self.marks[card as usize * self.t.markers.len() + marker])
    }

    /// A card's markers, in the order the set-up declares them.
    pub fn markers(&self, card: u16) -> &[u32] {
        let n = self.t.markers.len();
        &self.marks[card as usize * n..card as usize * n + n]
    }

    /// A card's name with the markers it has (`Ogre [damage 2]`).
    pub fn card_shown(&self, card: u16) -> String {
        let name = self.t.card_name(card);
        let marked: Vec<String> = (self.t.markers.iter().zip(self.markers(card)))
            .filter(|(_, &value)| value != 0)
            .map(|(def, value)| format!("{} {value}", def.id))
            .collect();
        if marked.is_empty() {
            name.to_string()
        } else {
            format!("{name} [{}]", marked.join(", "))
        }
    }

    /// Whether two cards are the same card with the same markers: one
    /// choice between them is as good as the other.
    pub(crate) fn alike(&self, a: u16, b: u16) -> bool {
        // Without markers, no slices compared: this is on the path of
        // every list of decisions.
        self.t.card_of(a) == self.t.card_of(b) && (self.t.markers.is_empty() || self.markers(a) == self.markers(b))
    }

    /// Puts a card on top of a slot: every move between zones ends here,
    /// and a card that comes from another slot loses its markers.
    pub(crate) fn push_card(&mut self, slot: usize, card: u16) {
        let len = self.lens[slot] as usize;
        self.cards[slot * self.cap + len] = card;
        self.lens[slot] += 1;
        let n = self.t.markers.len();
        if n != 0 && self.loc[card as usize] as usize != slot {
            self.marks[card as usize * n..card as usize * n + n].fill(0);
        }
        self.loc[card as usize] = slot as u16;
    }

    pub(crate) fn remove_at(&mut self, slot: usize, index: usize) -> u16 {
        let start = slot * self.cap;
        let len = self.lens[slot] as usize;
        let card = self.cards[start + index];
        self.cards.copy_within(start + index + 1..start + len, start + index);
        self.lens[slot] -= 1;
        card
    }

    /// Whether the slot takes this card: room under its limit, and of a
    /// kind it holds.
    pub(crate) fn accepts(&self, slot: usize, card: u16) -> bool {
        let (zone, _) = self.t.slot_zone(slot);
        let def = &self.t.zones[zone];
        if def.limit.is_some_and(|l| self.lens[slot] as usize >= l) {
            return false;
        }
        def.holds.is_empty() || def.holds.contains(&self.t.cards[self.t.card_of(card) as usize].kind)
    }

    pub(crate) fn full(&self, slot: usize) -> bool {
        let (zone, _) = self.t.slot_zone(slot);
        self.t.zones[zone].limit.is_some_and(|l| self.lens[slot] as usize >= l)
    }

    /// Moves a card to a slot wherever it is.
    pub(crate) fn relocate(&mut self, card: u16, to: usize) {
        let from = self.loc[card as usize] as usize;
        if let Some(index) = self.slot(from).iter().position(|&c| c == card) {
            self.remove_at(from, index);
        }
        self.push_card(to, card);
    }

    pub(crate) fn shuffle_slot(&mut self, slot: usize) {
        let start = slot * self.cap;
        let len = self.lens[slot] as usize;
        self.rng.shuffle(&mut self.cards[start..start + len]);
    }

    /// An empty slot that must give a card takes in its `reshuffle` zone
    /// (the same seat's), shuffled, or else the top card of its `fallback`
    /// zone.
    pub(crate) fn refill(&mut self, slot: usize) {
        let (zone, seat) = self.t.slot_zone(slot);
        let Some(source) = self.t.zones[zone].reshuffle else {
            self.fall_back(slot);
            return;
        };
        let from = self.t.zone_slot(source, seat.unwrap_or(0));
        if from == slot || self.lens[from] == 0 {
            return;
        }
        let moved = self.lens[from];
        while self.lens[from] > 0 {
            let card = self.remove_at(from, self.lens[from] as usize - 1);
            self.push_card(slot, card);
        }
        self.shuffle_slot(slot);
        let t = self.t;
        self.note(|| {
            let (z, s) = (&t.zones[zone].display, &t.zones[source as usize].display);
            format!("  {moved} cards of {s} shuffled into {z}{}", seat_suffix(t, seat))
        });
    }

    /// An empty slot with a `fallback` zone takes that zone's top card, so
    /// the move that wanted one goes on with it.
    fn fall_back(&mut self, slot: usize) {
        let t = self.t;
        let (zone, seat) = t.slot_zone(slot);
        let Some(source) = t.zones[zone].fallback else { return };
        let from = t.zone_slot(source, seat.unwrap_or(0));
        if from == slot || self.lens[from] == 0 {
            return;
        }
        let card = self.remove_at(from, self.lens[from] as usize - 1);
        self.push_card(slot, card);
        self.note(|| {
            let (z, s) = (&t.zones[zone].display, &t.zones[source as usize].display);
            format!("  {z} is empty: a card of {s} is taken instead{}", seat_suffix(t, seat))
        });
    }

    /// Tops up every zone that restocks to its limit from the top of its
    /// source.
    pub(crate) fn restock(&mut self) {
        let t = self.t;
        for &(zone, source) in &t.restocking {
            let Some(limit) = t.zones[zone as usize].limit else { continue };
            let width = if t.zones[zone as usize].shared { 1 } else { t.seats };
            for seat in 0..width {
                let (to, from) = (t.zone_slot(zone, seat), t.zone_slot(source, seat));
                while (self.lens[to] as usize) < limit {
                    if self.lens[from] == 0 {
                        self.refill(from);
                    }
                    let Some(&card) = self.slot(from).last() else { break };
                    if !self.accepts(to, card) {
                        break;
                    }
                    self.remove_at(from, self.lens[from] as usize - 1);
                    self.push_card(to, card);
                    self.note(|| format!("  {} restocks {}", t.card_name(card), t.zones[zone as usize].display));
                }
            }
        }
    }

    /// Each seat's score now.
    pub fn scores(&self) -> Vec<i64> {
        (0..self.t.seats).map(|s| self.num(&self.t.score, &Env::of(s, None))).collect()
    }

    /// What the game leaves for the statistics (so far, while it runs).
    pub fn record(&self) -> GameRecord {
        let scores = self.scores();
        let best = scores.iter().copied().max();
        let top: Vec<usize> = (0..scores.len()).filter(|&s| Some(scores[s]) == best).collect();
        let ncards = self.t.cards.len();
        let cards = (0..self.t.seats)
            .map(|seat| {
                let mut used: Vec<CardUse> = (0..ncards)
                    .filter_map(|c| {
                        let [acquired, played] = self.uses[seat * ncards + c];
                        (acquired + played > 0).then(|| CardUse {
                            card: self.t.cards[c].name.clone(),
                            acquired,
                            played,
                        })
                    })
                    .collect();
                used.sort_by(|a, b| a.card.cmp(&b.card));
                used
            })
            .collect();
        let mut present = vec![false; ncards];
        for slot in 0..self.t.zone_slots {
            for &card in self.slot(slot) {
                present[self.t.card_of(card) as usize] = true;
            }
        }
        let mut in_play: Vec<String> =
            (0..ncards).filter(|&c| present[c]).map(|c| self.t.cards[c].name.clone()).collect();
        in_play.sort();
        in_play.dedup();
        GameRecord {
            in_play,
            sided: self.t.sided.clone(),
            seed: self.seed,
            winner: if top.len() == 1 { Some(top[0]) } else { None },
            rounds: (self.curve.len() / self.t.seats.max(1)) as u32,
            ended: self.ended.unwrap_or(Ended::RoundLimit),
            scores,
            curve: self.curve.chunks(self.t.seats.max(1)).map(<[i64]>::to_vec).collect(),
            cards,
            decisions: self.decisions,
        }
    }
}

/// ` (player 2)` for a seat's zone, nothing for the table's.
pub(crate) fn seat_suffix(t: &Table, seat: Option<usize>) -> String {
    match seat {
        Some(s) => format!(" ({})", t.seat_names[s]),
        None => String::new(),
    }
}
