//! Rounds and phases: where the game stands between decisions, and how it
//! moves on until the next decision or the end.
//!
//! Each round runs the phases in order; a phase of one side is played by
//! that side's seat alone.  A phase runs its `start`
//! procedure for each seat in the round's order (seat order until a
//! phase's `order-by` changes it, once its `start` is done), then its
//! actions, then its `end` procedure for each seat.  Actions: in an `alternate` phase the seats
//! take one action at a time in turn (the first seat first), a seat that
//! passes is out, and the phase ends when all are out; in an `initiative`
//! phase each seat in turn chooses all its plays, and then every play
//! resolves in initiative order; otherwise each seat in turn takes actions
//! until it passes.  A seat whose only legal decision is to pass passes
//! without being asked.  After the last phase, counters that reset each
//! round reset, each seat's score is recorded, and the game ends when
//! `ends-when` holds or the round limit is reached.

use super::stack::Stage;
use super::state::{Env, Game, Pending};
use super::table::{PhaseKind, SetupOp};
use crate::engine::record::Ended;

/// The most actions a seat may take in one phase, whatever the limits:
/// past it, a seat can only pass (a phase with an unlimited action ends).
pub const MAX_ACTIONS_PER_PHASE: u16 = 1_000;

impl Game<'_> {
    pub(crate) fn set_up(&mut self) {
        let t = self.t;
        for step in &t.setup {
            match step {
                SetupOp::Put { slot, cards } => {
                    for &card in cards {
                        self.push_card(*slot, card);
                    }
                }
                SetupOp::PutOneOf { slot, options } => {
                    for &card in &options[self.rng.below(options.len())] {
                        self.push_card(*slot, card);
                    }
                }
                SetupOp::Shuffle { slot } => self.shuffle_slot(*slot),
                SetupOp::Deal { count, by, from, to } => {
                    let count = match by {
                        Some((field, slot)) => {
                            usize::try_from(self.field_sum(*field, *slot)).unwrap_or(0).min(self.cap)
                        }
                        None => *count,
                    };
                    for _ in 0..count {
                        if self.lens[*from] == 0 {
                            self.refill(*from);
                        }
                        let Some(&card) = self.slot(*from).last() else { break };
                        if !self.accepts(*to, card) {
                            break;
                        }
                        self.remove_at(*from, self.lens[*from] as usize - 1);
                        self.push_card(*to, card);
                    }
                }
                SetupOp::AddField { field, counter, slot, seat } => {
                    let n = self.field_sum(*field, *slot);
                    let at = t.counter_slot(*counter, *seat);
                    let def = &t.counters[*counter as usize];
                    let to = self.counters[at].saturating_add(n);
                    self.counters[at] = def.max.map_or(to, |m| to.min(m));
                }
                SetupOp::Place { kinds, from, to } => {
                    let cards: Vec<u16> = self.slot(*from).to_vec();
                    for card in cards {
                        if kinds.contains(&t.cards[t.card_of(card) as usize].kind) && self.accepts(*to, card) {
                            self.relocate(card, *to);
                        }
                    }
                }
            }
        }
        // Zones that restock fill up once the set-up is done (not between
        // its steps: a market row would fill before its deck is shuffled).
        self.restock();
    }

    /// The sum of a number field over the cards of a slot (a card without
    /// a number there counts 0).
    fn field_sum(&self, field: u16, slot: usize) -> i64 {
        let t = self.t;
        let values = self.slot(slot).iter().map(|&c| match t.field(t.card_of(c), field) {
            super::table::Val::Num(n) => n,
            _ => 0,
        });
        values.fold(0i64, i64::saturating_add)
    }

    /// Runs on until a decision is pending or the game is over.  Once the
    /// procedures a decision or a phase set off are all done, the
    /// continuous effects are set anew before the game goes on.
    pub(crate) fn settle(&mut self) {
        while self.pending.is_none() && self.stage != Stage::Over {
            if !self.frames.is_empty() {
                self.run();
                if self.frames.is_empty() {
                    self.stale |= !self.refreshing;
                    if self.refreshing {
                        self.refreshing = false;
                        self.note_refreshed();
                    }
                }
            } else if self.stale {
                self.stale = false;
                self.refresh();
            } else {
                self.flow();
            }
        }
    }

    /// Starts the continuous effects' procedure for each seat, the first
    /// seat's on top so that it runs first.
    fn refresh(&mut self) {
        if self.t.ops[self.t.refresh as usize].is_empty() {
            return;
        }
        if self.log.is_some() {
            self.before_refresh = Some(Box::new((self.marks.clone(), self.counters.clone())));
        }
        self.refreshing = true;
        for seat in (0..self.t.seats).rev() {
            self.push_proc(self.t.refresh, seat, None);
        }
    }

    /// Logs what setting the continuous effects anew changed.
    fn note_refreshed(&mut self) {
        let Some(before) = self.before_refresh.take() else { return };
        let (marks, counters) = *before;
        let t = self.t;
        let nmarkers = t.markers.len().max(1);
        let mut lines = Vec::new();
        for (at, (&was, &now)) in marks.iter().zip(&self.marks).enumerate().filter(|(_, (a, b))| a != b) {
            let (card, marker) = (at / nmarkers, at % nmarkers);
            lines.push(t.marker_change(card as u16, marker, i64::from(was), i64::from(now)));
        }
        for (slot, (&was, &now)) in counters.iter().zip(&self.counters).enumerate().filter(|(_, (a, b))| a != b) {
            lines.push(self.counter_change(slot, was, now));
        }
        for line in lines {
            self.note(|| line);
        }
    }

    fn seats(&self) -> u8 {
        self.t.seats as u8
    }

    /// One step of the rounds and phases, with no procedure running.
    fn flow(&mut self) {
        let t = self.t;
        let Some(phase) = t.phases.get(self.phase) else {
            self.end_round();
            return;
        };
        match self.stage {
            Stage::Begin => {
                self.note(|| format!("-- {} --", phase.name));
                self.taken.iter_mut().for_each(|n| *n = 0);
                self.queue.clear();
                self.stage = Stage::Start(0);
            }
            Stage::Start(at) if at < self.seats() => {
                if self.plays_phase(self.seat_at(at)) {
                    self.push_proc(phase.start, self.seat_at(at), None);
                }
                self.stage = Stage::Start(at + 1);
            }
            Stage::Start(_) => {
                self.reorder();
                self.stage = match phase.kind {
                    _ if phase.actions.is_empty() => Stage::End(0),
                    PhaseKind::Alternate => Stage::Alternate { turn: 0, out: self.sitting_out() },
                    PhaseKind::Initiative => Stage::Choose(0),
                    PhaseKind::Turns => Stage::Turn(0),
                }
            }
            Stage::Turn(at) | Stage::Choose(at) if at < self.seats() && !self.plays_phase(self.seat_at(at)) => {
                self.stage = match self.stage {
                    Stage::Turn(_) => Stage::Turn(at + 1),
                    _ => Stage::Choose(at + 1),
                }
            }
            Stage::Turn(at) | Stage::Choose(at) if at < self.seats() => self.offer(self.seat_at(at) as u8),
            Stage::Turn(_) => self.stage = Stage::End(0),
            Stage::Choose(_) => {
                self.queue.sort_by_key(|q| q.rank);
                self.stage = Stage::Resolve(0);
                if let Some(log) = &mut self.log {
                    log.append(&mut self.held);
                }
            }
            Stage::Alternate { turn, out } => {
                let all = if self.seats() >= 64 { u64::MAX } else { (1u64 << self.seats()) - 1 };
                if out & all == all {
                    self.stage = Stage::End(0);
                } else if out & (1 << turn) != 0 {
                    self.stage = Stage::Alternate { turn: (turn + 1) % self.seats(), out };
                } else {
                    self.offer(self.seat_at(turn) as u8);
                }
            }
            Stage::Resolve(i) => match self.queue.get(i as usize).copied() {
                Some(play) => {
                    let action = &t.actions[play.action as usize];
                    let body = action.resolve.get(t.card_of(play.card) as usize).copied().flatten();
                    if let Some(body) = body {
                        self.note(|| {
                            format!("{} resolves {}", t.seat_names[play.seat as usize], t.card_name(play.card))
                        });
                        self.push_body(body, play.seat as usize, Some(play.card));
                    }
                    self.stage = Stage::Resolve(i + 1);
                }
                None => self.stage = Stage::End(0),
            },
            Stage::End(at) if at < self.seats() => {
                if self.plays_phase(self.seat_at(at)) {
                    self.push_proc(phase.end, self.seat_at(at), None);
                }
                self.stage = Stage::End(at + 1);
            }
            Stage::End(_) => {
                self.phase += 1;
                self.stage = Stage::Begin;
            }
            Stage::Over => {}
        }
    }

    /// Asks the seat for an action, or passes for it when passing is all
    /// it can do.
    fn offer(&mut self, seat: u8) {
        if self.any_action(seat as usize) {
            self.pending = Some(Pending::Action { seat });
        } else {
            let t = self.t;
            self.note(|| format!("{} passes (nothing to do)", t.seat_names[seat as usize]));
            self.passed(seat);
        }
    }

    /// What a pass does to the phase.
    pub(crate) fn passed(&mut self, seat: u8) {
        self.stage = match self.stage {
            Stage::Turn(s) => Stage::Turn(s + 1),
            Stage::Choose(s) => Stage::Choose(s + 1),
            Stage::Alternate { out, .. } => {
                let at = self.place_of(seat);
                Stage::Alternate { turn: (at + 1) % self.seats(), out: out | (1 << at) }
            }
            other => other,
        };
    }

    /// After an action: in an alternate phase, the next seat's turn.
    pub(crate) fn acted(&mut self, seat: u8) {
        if let Stage::Alternate { out, .. } = self.stage {
            self.stage = Stage::Alternate { turn: (self.place_of(seat) + 1) % self.seats(), out };
        }
    }

    /// Whether a seat plays the phase: every seat, unless the phase is one
    /// side's own turn.
    fn plays_phase(&self, seat: usize) -> bool {
        self.t.phases.get(self.phase).and_then(|p| p.seat).is_none_or(|s| s == seat)
    }

    /// The places in this round's order of the seats that do not play the
    /// phase, as an alternate phase's mask of seats that are out.
    fn sitting_out(&self) -> u64 {
        (0..self.seats()).filter(|&at| !self.plays_phase(self.seat_at(at))).fold(0, |out, at| out | (1 << at))
    }

    /// The seat that acts `at`-th in this round's order (from 0).
    fn seat_at(&self, at: u8) -> usize {
        self.order.get(at as usize).map_or(at as usize, |&s| s as usize)
    }

    /// Where a seat stands in this round's order (from 0).
    fn place_of(&self, seat: u8) -> u8 {
        self.order.iter().position(|&s| s == seat).map_or(seat, |p| p as u8)
    }

    /// After a phase's `start`: its `order-by`, read for each seat, sets the
    /// order seats act in from now on, highest first; equal values keep
    /// their order.
    fn reorder(&mut self) {
        let t = self.t;
        let Some(order_by) = t.phases.get(self.phase).and_then(|p| p.order_by.as_ref()) else { return };
        let values: Vec<i64> = (0..t.seats).map(|seat| self.num(order_by, &Env::of(seat, None))).collect();
        let before = self.order.clone();
        self.order.sort_by_key(|&seat| std::cmp::Reverse(values[seat as usize]));
        if self.order != before {
            let names: Vec<&str> = self.order.iter().map(|&s| t.seat_names[s as usize].as_str()).collect();
            self.note(|| format!("  order: {}", names.join(", ")));
        }
    }

    /// Whether the seats are choosing the plays of an initiative phase,
    /// which each makes without seeing the others'.
    pub fn choosing_in_secret(&self) -> bool {
        matches!(self.stage, Stage::Choose(_))
    }

    /// Whether `viewer` may not see the cards of a seat's zone now: the
    /// zone where another seat's secret plays go while seats choose.
    pub fn secret(&self, zone: usize, owner: Option<usize>, viewer: usize) -> bool {
        let Some(phase) = self.t.phases.get(self.phase) else { return false };
        self.choosing_in_secret()
            && owner.is_some_and(|o| o != viewer)
            && self.t.actions[phase.actions.clone()].iter().any(|a| a.to.is_some_and(|z| z as usize == zone))
    }

    pub(crate) fn in_initiative_phase(&self) -> bool {
        self.t.phases.get(self.phase).is_some_and(|p| p.kind == PhaseKind::Initiative)
    }

    fn end_round(&mut self) {
        let t = self.t;
        self.played.clear();
        for def in t.counters.iter().filter(|c| c.reset) {
            let width = if def.shared { 1 } else { t.seats };
            for slot in def.base..def.base + width {
                self.counters[slot] = t.counter_start(slot);
            }
        }
        let scores = self.scores();
        let round = self.round;
        self.note(|| format!("end of round {round}: scores {scores:?}"));
        self.curve.extend_from_slice(&scores);
        // `ends-when` holds for the game when it holds for any player: read
        // with each player as "you" (`hp == 0`: some player's life is 0).
        let ends = (0..t.seats).any(|seat| self.truth(&t.ends_when, &Env::of(seat, None)));
        let ended = if ends {
            Some(Ended::Condition)
        } else if self.round >= t.round_limit {
            Some(Ended::RoundLimit)
        } else {
            None
        };
        match ended {
            Some(ended) => {
                self.ended = Some(ended);
                self.stage = Stage::Over;
                self.note(|| {
                    format!(
                        "game over: {}",
                        if ended == Ended::Condition { "the end condition holds" } else { "round limit" }
                    )
                });
            }
            None => {
                self.round += 1;
                self.phase = 0;
                self.stage = Stage::Begin;
                let round = self.round;
                self.note(|| format!("== round {round} =="));
            }
        }
    }
}
