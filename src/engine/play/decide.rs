//! The legal decisions at a point of a game, and applying one.  A decision
//! is a seat and what it chooses; it is identified by indices of the table
//! (an action, a card in play, an option), stable for a table and a seed,
//! so a recorded game replays decision by decision.

use super::stack::{Frame, FrameKind};
use super::state::{Env, Game, Pending, Queued};
use super::table::{COp, CostDef};
use super::turn::MAX_ACTIONS_PER_PHASE;
use crate::engine::semantics::Counts;

/// A seat's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    pub seat: usize,
    pub kind: DecisionKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// No (more) actions in this phase.
    Pass,
    /// An action that takes a card (`card` is a card in play).
    Take { action: u16, card: u16 },
    /// An action that takes no card.
    Act { action: u16 },
    /// An option of a `choose` block, from 0.
    Option { index: u16 },
    /// The next card of a `chosen` move.
    Card { card: u16 },
}

/// Why a decision was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

impl Decision {
    /// Whether it is an action (not a pass, a choice or a card of a move).
    pub fn is_action(&self) -> bool {
        matches!(self.kind, DecisionKind::Take { .. } | DecisionKind::Act { .. })
    }
}

impl<'t> Game<'t> {
    /// The legal decisions now, in a fixed order: the phase's actions in
    /// order (each card of an action's zone in the zone's order, one per
    /// card name and markers, when the action is open, under its limit, its
    /// cost can be paid and its destination takes the card), then pass; or
    /// a choice's options; or the cards a `chosen` move may take (one per
    /// card name and markers).
    /// Empty once the game is over.
    pub fn decisions(&self) -> Vec<Decision> {
        let mut out = Vec::new();
        self.decisions_into(&mut out);
        out
    }

    /// As [`Game::decisions`], into a vector that is cleared first.
    pub fn decisions_into(&self, out: &mut Vec<Decision>) {
        out.clear();
        let Some(pending) = self.pending else { return };
        match pending {
            Pending::Action { seat } => {
                let seat = seat as usize;
                self.each_action(seat, &mut |kind| {
                    out.push(Decision { seat, kind });
                    false
                });
                out.push(Decision { seat, kind: DecisionKind::Pass });
            }
            Pending::Option { seat, choice } => {
                let n = self.t.choices[choice as usize].len();
                out.extend(
                    (0..n).map(|i| Decision { seat: seat as usize, kind: DecisionKind::Option { index: i as u16 } }),
                );
            }
            Pending::May { seat, .. } => {
                out.extend((0..2).map(|i| Decision { seat: seat as usize, kind: DecisionKind::Option { index: i } }));
            }
            Pending::Card { seat } => {
                for card in self.chosen_now() {
                    out.push(Decision { seat: seat as usize, kind: DecisionKind::Card { card } });
                }
            }
        }
    }

    /// The cards the pending `chosen` move may take.
    fn chosen_now(&self) -> Vec<u16> {
        let Some(frame) = self.frames.last() else { return Vec::new() };
        let t = self.t;
        let env = Env::of(frame.you as usize, frame.this);
        match frame.kind {
            FrameKind::Chosen { ops, at, .. } => {
                let COp::Move(mv) = &t.ops[ops as usize][at as usize] else { return Vec::new() };
                let (from, to) = self.move_slots(mv, &env);
                self.choosable(mv, &env, from, to)
            }
            FrameKind::Target { ops, at } => {
                let COp::Target(target) = &t.ops[ops as usize][at as usize] else { return Vec::new() };
                self.targets(target, &env)
            }
            _ => Vec::new(),
        }
    }

    pub(crate) fn any_action(&self, seat: usize) -> bool {
        let mut any = false;
        self.each_action(seat, &mut |_| {
            any = true;
            true
        });
        any
    }

    /// Calls `found` with each legal action of the seat until it returns
    /// true.
    fn each_action(&self, seat: usize, found: &mut dyn FnMut(DecisionKind) -> bool) {
        let t = self.t;
        let Some(phase) = t.phases.get(self.phase) else { return };
        let nactions = t.actions.len();
        let window = self.in_window();
        for a in phase.actions.clone() {
            let action = &t.actions[a];
            if action.reaction != window {
                continue;
            }
            let taken = self.taken[seat * nactions + a];
            if taken >= MAX_ACTIONS_PER_PHASE || action.limit.is_some_and(|l| u32::from(taken) >= l) {
                continue;
            }
            let env = Env::of(seat, None);
            if action.only_if.as_ref().is_some_and(|e| !self.truth(e, &env)) {
                continue;
            }
            let Some(from) = action.from else {
                if self.affordable(a, seat, None) && found(DecisionKind::Act { action: a as u16 }) {
                    return;
                }
                continue;
            };
            let slot = t.zone_slot(from, seat);
            let cards = self.slot(slot);
            for (i, &card) in cards.iter().enumerate() {
                if cards[..i].iter().any(|&c| self.alike(c, card)) {
                    continue;
                }
                // An action that resolves a field takes only cards that have it.
                if !action.resolve.is_empty() && action.resolve[t.card_of(card) as usize].is_none() {
                    continue;
                }
                let env = Env { tested: Some(card), this: Some(card), ..env };
                if action.filter.as_ref().is_some_and(|f| !self.truth(f, &env)) || !self.affordable(a, seat, Some(card))
                {
                    continue;
                }
                if action.to.is_some_and(|z| !self.accepts(t.zone_slot(z, seat), card)) {
                    continue;
                }
                if action.counts == Some(Counts::Played) && self.broken_limit(seat, card).is_some() {
                    continue;
                }
                if found(DecisionKind::Take { action: a as u16, card }) {
                    return;
                }
            }
        }
    }

    /// The action's price for this card: the amount, and the counter it is
    /// paid from or the marking that pays it.
    fn cost(&self, action: usize, seat: usize, card: Option<u16>) -> Option<(&'t CostDef, i64)> {
        let cost = self.t.actions[action].cost.as_ref()?;
        let amount = match cost {
            CostDef::Counter(_, amount) => amount,
            CostDef::Marks(marking) => &marking.amount,
        };
        let env = Env { you: seat, this: card, tested: card, amount: 0, params: &[] };
        Some((cost, self.num(amount, &env).max(0)))
    }

    fn affordable(&self, action: usize, seat: usize, card: Option<u16>) -> bool {
        match self.cost(action, seat, card) {
            None => true,
            Some((CostDef::Counter(counter, _), amount)) => self.can_pay(*counter, seat, amount),
            Some((CostDef::Marks(marking), amount)) => self.markable(marking, seat).len() as i64 >= amount,
        }
    }

    /// Applies a decision if it is legal now; otherwise the game is left
    /// as it was and the refusal says why.
    pub fn apply(&mut self, decision: &Decision) -> Result<(), Refusal> {
        let Some(seat) = self.to_act() else {
            return Err(Refusal("the game is over".into()));
        };
        if decision.seat != seat {
            return Err(Refusal(format!(
                "it is {}'s decision, not {}'s",
                self.t.seat_names[seat],
                self.t.seat_names.get(decision.seat).map_or("an unknown seat", String::as_str)
            )));
        }
        if !self.decisions().contains(decision) {
            let broken = self.limit_broken_by(decision).map(|limit| format!(": it would break \"{limit}\""));
            let label = self.label_any(decision);
            return Err(Refusal(format!("`{label}` is not a legal decision now{}", broken.unwrap_or_default())));
        }
        self.apply_legal(decision);
        Ok(())
    }

    /// Applies a decision taken from [`Game::decisions`] as it stands,
    /// without checking it (the bots' and playouts' way).
    pub(crate) fn apply_legal(&mut self, decision: &Decision) {
        let t = self.t;
        self.decisions = self.decisions.saturating_add(1);
        let seat = decision.seat;
        if self.log.is_some() {
            let line = format!("{}: {}", t.seat_names[seat], self.label(decision));
            self.note(|| line);
        }
        let asked = self.pending.take();
        self.stale |= !self.refreshing;
        match decision.kind {
            DecisionKind::Pass if self.in_window() => self.window_passed(),
            DecisionKind::Pass => self.passed(seat as u8),
            DecisionKind::Take { action, card } => self.take(seat, action as usize, Some(card)),
            DecisionKind::Act { action } => self.take(seat, action as usize, None),
            DecisionKind::Option { index } if matches!(asked, Some(Pending::May { .. })) => {
                if let (Some(Pending::May { ops, .. }), Some(frame), 0) = (asked, self.frames.last(), index) {
                    let (you, this, amount) = (frame.you as usize, frame.this, frame.amount);
                    self.frames.push(Frame::new(FrameKind::Ops { ops, at: 0 }, you, this, amount));
                }
            }
            DecisionKind::Option { index } => {
                let choice = self.last_choice();
                if let (Some(frame), Some(choice)) = (self.frames.last(), choice) {
                    let (you, this) = (frame.you as usize, frame.this);
                    if let Some(&body) = t.choices[choice as usize].get(index as usize) {
                        self.frames.push(Frame::new(FrameKind::Body { body, at: 0 }, you, this, 0));
                    }
                }
            }
            DecisionKind::Card { card } => match self.frames.last().map(|f| &f.kind) {
                Some(FrameKind::Target { .. }) => self.take_target(card),
                _ => self.take_chosen(card),
            },
        }
        self.settle();
    }

    /// The choice the top block stopped at (the step before its index).
    fn last_choice(&self) -> Option<u32> {
        let frame = self.frames.last()?;
        let FrameKind::Body { body, at } = frame.kind else { return None };
        match self.t.bodies[body as usize].get((at as usize).checked_sub(1)?)? {
            super::table::BStep::Choose(c) => Some(*c),
            _ => None,
        }
    }

    /// Takes an action: pays its cost, moves the card, runs its procedure,
    /// and resolves the card's block (now, or in initiative order).
    fn take(&mut self, seat: usize, a: usize, card: Option<u16>) {
        let t = self.t;
        let action = &t.actions[a];
        let window = self.in_window();
        if window {
            self.window_acted();
        }
        self.taken[seat * t.actions.len() + a] += 1;
        match self.cost(a, seat, card) {
            Some((CostDef::Counter(counter, _), amount)) => {
                let slot = t.counter_slot(*counter, seat);
                let now = self.counters[slot];
                self.counters[slot] = now.saturating_sub(amount);
                if amount != 0 {
                    self.note(|| {
                        format!("  {} {now} → {}", t.counters[*counter as usize].id, now.saturating_sub(amount))
                    });
                }
            }
            Some((CostDef::Marks(marking), amount)) => {
                self.pay_marks(marking, seat, amount);
            }
            None => {}
        }
        if let (Some(card), Some(counts)) = (card, action.counts) {
            let index = seat * t.cards.len() + t.card_of(card) as usize;
            self.uses[index][usize::from(counts == Counts::Played)] += 1;
            if counts == Counts::Played {
                self.note_played(seat, card);
            }
        }
        if let (Some(card), Some(to)) = (card, action.to) {
            let from = self.loc[card as usize] as usize;
            let to = t.zone_slot(to, seat);
            self.relocate(card, to);
            self.note_move(&[card], from, to);
        }
        self.restock();
        let body = card.and_then(|c| action.resolve.get(t.card_of(c) as usize).copied().flatten());
        if let (Some(card), true) = (card, !window && self.in_initiative_phase()) {
            let rank = action.rank.get(t.card_of(card) as usize * t.seats + seat).copied().unwrap_or(u32::MAX);
            self.queue.push(Queued { rank, seat: seat as u8, card, action: a as u16 });
        } else if let Some(body) = body {
            self.push_body(body, seat, card);
        }
        self.push_proc(action.ops, seat, card);
        if !window {
            self.acted(seat as u8);
        }
    }

    /// A readable label: `buy Silk Awning (4 coin)`, `pass`, `option 2:
    /// gain card 1; gain renown 1`, `Tallow Candle → Discard Pile`.
    pub fn label(&self, decision: &Decision) -> String {
        let t = self.t;
        match decision.kind {
            DecisionKind::Pass => "pass".into(),
            DecisionKind::Take { action, card } => {
                let name = self.card_shown(card);
                let paid = match self.cost(action as usize, decision.seat, Some(card)) {
                    Some((CostDef::Counter(counter, _), n)) => Some((n, &t.counters[*counter as usize].id)),
                    Some((CostDef::Marks(marking), n)) => Some((n, &t.markers[marking.marker as usize].id)),
                    None => None,
                };
                match paid {
                    Some((n, what)) => format!("{} {name} ({n} {what})", t.action_names[action as usize]),
                    None => format!("{} {name}", t.action_names[action as usize]),
                }
            }
            DecisionKind::Act { action } => t.action_names[action as usize].clone(),
            DecisionKind::Option { index } if matches!(self.pending, Some(Pending::May { .. })) => {
                format!("option {}: {}", index + 1, if index == 0 { "yes" } else { "no" })
            }
            DecisionKind::Option { index } => {
                let text = match self.pending {
                    Some(Pending::Option { choice, .. }) => {
                        t.choice_labels[choice as usize].get(index as usize).cloned().unwrap_or_default()
                    }
                    _ => self
                        .last_choice()
                        .and_then(|c| t.choice_labels[c as usize].get(index as usize).cloned())
                        .unwrap_or_default(),
                };
                format!("option {}: {text}", index + 1)
            }
            DecisionKind::Card { card } => match self.chosen_destination() {
                Some(zone) => format!("{} → {}", self.card_shown(card), t.zones[zone].display),
                None if matches!(self.frames.last().map(|f| &f.kind), Some(FrameKind::Target { .. })) => {
                    let (zone, seat) = t.slot_zone(self.loc[card as usize] as usize);
                    let owner = seat.map(|s| format!(", {}", t.seat_names[s])).unwrap_or_default();
                    format!("target {} ({}{owner})", self.card_shown(card), t.zones[zone].display)
                }
                None => self.card_shown(card),
            },
        }
    }

    /// The zone the pending `chosen` move takes cards to.
    fn chosen_destination(&self) -> Option<usize> {
        let frame = self.frames.last()?;
        let FrameKind::Chosen { ops, at, .. } = frame.kind else { return None };
        let COp::Move(mv) = &self.t.ops[ops as usize][at as usize] else { return None };
        Some(mv.to as usize)
    }

    /// A label for any decision, legal or not (for a refusal).
    fn label_any(&self, decision: &Decision) -> String {
        let t = self.t;
        let known = match decision.kind {
            DecisionKind::Take { action, card } => {
                (action as usize) < t.actions.len() && (card as usize) < t.instances.len()
            }
            DecisionKind::Act { action } => (action as usize) < t.actions.len(),
            DecisionKind::Card { card } => (card as usize) < t.instances.len(),
            DecisionKind::Option { .. } => {
                self.last_choice().is_some()
                    || matches!(self.pending, Some(Pending::Option { .. } | Pending::May { .. }))
            }
            DecisionKind::Pass => true,
        };
        if known {
            self.label(decision)
        } else {
            format!("{:?}", decision.kind)
        }
    }
}
