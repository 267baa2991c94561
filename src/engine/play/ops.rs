//! The interpreter of procedures and effect blocks.  Nothing here recurses
//! over the ruleset's trees: a running procedure is a stack of frames (a list
//! of operations or of block steps, and where in it), so the game can stop
//! in the middle of a card's effects for a decision and go on from there
//! after [`Game::apply`](super::Game::apply).

use super::stack::{Frame, FrameKind};
use super::state::{seat_suffix, Env, Game, Pending};
use super::table::{BStep, COp, Ex, Marking, MoveOp, TargetOp, Val};
use crate::engine::semantics::{Pick, Whose};

/// The most times a `repeat` runs.
pub const MAX_REPEAT: i64 = 10_000;
/// The most reactions one window takes: past it the window closes.
pub const MAX_REACTIONS: u32 = 256;
/// The most steps one run of procedures may take before a decision or the
/// next phase: past it the running procedures stop (a ruleset could nest
/// `repeat`s into more work than any game needs).
pub const MAX_STEPS: u32 = 1_000_000;
/// The deepest the continuation stack grows (each frame is a nested block
/// or procedure, which the table bounds already).
const MAX_FRAMES: usize = 1_024;

impl Frame {
    fn env(&self) -> Env<'static> {
        Env { you: self.you as usize, this: self.this, tested: None, amount: self.amount, params: &[] }
    }
}

/// What a step of a frame asks the loop to do next.
enum Next {
    Go,
    Pop,
}

impl Game<'_> {
    /// Starts a procedure for a seat; `last` starts at 0.
    pub(crate) fn push_proc(&mut self, ops: u32, you: usize, this: Option<u16>) {
        if !self.t.ops[ops as usize].is_empty() {
            self.last = 0;
            self.push(Frame::new(FrameKind::Proc { ops, at: 0 }, you, this, 0));
        }
    }

    /// Starts resolving a card's block for a seat.
    pub(crate) fn push_body(&mut self, body: u32, you: usize, this: Option<u16>) {
        self.last = 0;
        self.push(Frame::new(FrameKind::Body { body, at: 0 }, you, this, 0));
    }

    fn push(&mut self, frame: Frame) {
        if self.frames.len() < MAX_FRAMES {
            self.frames.push(frame);
        }
    }

    /// Runs frames until the stack is empty or a decision is pending.
    pub(crate) fn run(&mut self) {
        let mut steps = 0u32;
        while self.pending.is_none() {
            steps += 1;
            if steps > MAX_STEPS && !self.frames.is_empty() {
                self.note(|| format!("  stopped after {MAX_STEPS} steps"));
                self.frames.clear();
            }
            let Some(top) = self.frames.last_mut() else { return };
            let next = match &mut top.kind {
                FrameKind::Proc { ops, at } | FrameKind::Ops { ops, at } => list_next(self.t, *ops, at),
                FrameKind::Repeat { ops, at, left } => match list_next(self.t, *ops, at) {
                    Some(op) => Some(op),
                    None if *left > 0 => {
                        *left -= 1;
                        *at = 0;
                        continue;
                    }
                    None => None,
                },
                FrameKind::ForEach { ops, at, cards, next } => match list_next(self.t, *ops, at) {
                    Some(op) => Some(op),
                    None if (*next as usize) < cards.len() => {
                        top.this = Some(cards[*next as usize]);
                        *next += 1;
                        *at = 0;
                        continue;
                    }
                    None => None,
                },
                FrameKind::Body { body, at } => {
                    let (body, step) = (*body, *at);
                    *at += 1;
                    match self.body_step(body, step as usize) {
                        Next::Go => continue,
                        Next::Pop => None,
                    }
                }
                // Waits for its card (a decision); once chosen, it is gone.
                FrameKind::Target { .. } => {
                    self.pending = Some(Pending::Card { seat: top.you });
                    return;
                }
                FrameKind::Chosen { .. } => {
                    if self.chosen_step() {
                        continue;
                    }
                    None
                }
                FrameKind::Window { .. } => {
                    if self.window_step() {
                        return;
                    }
                    None
                }
            };
            match next {
                Some((ops, at)) => self.exec(ops, at),
                None => {
                    self.frames.pop();
                }
            }
            self.restock();
        }
    }

    /// One step of a block: an effect, a choice, a condition or a `then`.
    fn body_step(&mut self, body: u32, step: usize) -> Next {
        let t = self.t;
        let Some(step) = t.bodies[body as usize].get(step) else { return Next::Pop };
        let Some(frame) = self.frames.last() else { return Next::Pop };
        let (you, this, env) = (frame.you as usize, frame.this, frame.env());
        match step {
            BStep::Effect { ops, amount, per } => {
                let times = match per {
                    Some((q, args)) => {
                        match self.state_value(t.quantities[*q as usize].means.as_ref(), &env, args, 0) {
                            Val::Num(n) => n,
                            _ => 0,
                        }
                    }
                    None => 1,
                };
                let amount = amount.saturating_mul(times);
                self.push(Frame::new(FrameKind::Ops { ops: *ops, at: 0 }, you, this, amount));
            }
            BStep::Choose(choice) => {
                self.pending = Some(Pending::Option { seat: you as u8, choice: *choice });
            }
            BStep::When { condition, args, body } => {
                let means = t.conditions[*condition as usize].means.as_ref();
                if matches!(self.state_value(means, &env, args, 0), Val::Num(n) if n != 0) {
                    self.push(Frame::new(FrameKind::Body { body: *body, at: 0 }, you, this, 0));
                }
            }
            BStep::Then(body) => self.push(Frame::new(FrameKind::Body { body: *body, at: 0 }, you, this, 0)),
        }
        Next::Go
    }

    /// A window for reactions: asks the seat whose turn it is to answer
    /// (true), passes for a seat that has no reaction to take, or ends
    /// (false) once every seat has passed in a row.
    fn window_step(&mut self) -> bool {
        let seats = self.t.seats;
        loop {
            let Some(FrameKind::Window { first, turn, quiet, taken }) = self.frames.last().map(|f| &f.kind) else {
                return false;
            };
            if usize::from(*quiet) >= seats || *taken >= MAX_REACTIONS {
                return false;
            }
            let seat = (usize::from(*first) + *turn as usize) % seats;
            if self.any_action(seat) {
                self.pending = Some(Pending::Action { seat: seat as u8 });
                return true;
            }
            let t = self.t;
            self.note(|| format!("  {} has nothing to answer with", t.seat_names[seat]));
            self.window_passed();
        }
    }

    /// Whether the game is in a window for reactions.
    pub(crate) fn in_window(&self) -> bool {
        matches!(self.frames.last().map(|f| &f.kind), Some(FrameKind::Window { .. }))
    }

    /// A seat passes in a window: the next seat's turn to answer.
    pub(crate) fn window_passed(&mut self) {
        if let Some(FrameKind::Window { turn, quiet, .. }) = self.frames.last_mut().map(|f| &mut f.kind) {
            *turn += 1;
            *quiet = quiet.saturating_add(1);
        }
    }

    /// A seat takes a reaction in a window: once it has resolved, the next
    /// seat's turn to answer, and every seat may answer again.
    pub(crate) fn window_acted(&mut self) {
        if let Some(FrameKind::Window { turn, quiet, taken, .. }) = self.frames.last_mut().map(|f| &mut f.kind) {
            *turn += 1;
            *quiet = 0;
            *taken += 1;
        }
    }

    /// A `chosen` move: asks for the next card, or ends (false) when it has
    /// moved its count, the destination is full or no card fits.
    fn chosen_step(&mut self) -> bool {
        let Some(frame) = self.frames.last() else { return false };
        let FrameKind::Chosen { ops, at, left, moved } = frame.kind else { return false };
        let t = self.t;
        let COp::Move(mv) = &t.ops[ops as usize][at as usize] else { return false };
        let env = frame.env();
        if left == 0 || self.chosen_cards(mv, &env).is_empty() {
            self.last = moved;
            return false;
        }
        self.pending = Some(Pending::Card { seat: env.you as u8 });
        true
    }

    /// The cards a `chosen` move may take next, one per card name and
    /// markers, in the zone's order (refilling an empty zone first).
    pub(crate) fn chosen_cards(&mut self, mv: &MoveOp, env: &Env) -> Vec<u16> {
        let (from, to) = self.move_slots(mv, env);
        if self.lens[from] == 0 {
            self.refill(from);
        }
        self.choosable(mv, env, from, to)
    }

    pub(crate) fn choosable(&self, mv: &MoveOp, env: &Env, from: usize, to: usize) -> Vec<u16> {
        let mut found: Vec<u16> = Vec::new();
        if self.full(to) {
            return found;
        }
        for &card in self.slot(from) {
            if self.accepts(to, card)
                && self.passes(mv.filter.as_ref(), card, env)
                && !found.iter().any(|&f| self.alike(f, card))
            {
                found.push(card);
            }
        }
        found
    }

    pub(crate) fn move_slots(&self, mv: &MoveOp, env: &Env) -> (usize, usize) {
        let from = self.t.zone_slot(mv.from, self.whose(env.you, mv.from_of));
        let to = self.t.zone_slot(mv.to, self.whose(env.you, mv.to_of));
        (from, to)
    }

    /// A card of a `chosen` move, once the seat has chosen it.
    pub(crate) fn take_chosen(&mut self, card: u16) {
        let Some(frame) = self.frames.last_mut() else { return };
        let FrameKind::Chosen { ops, at, left, moved } = &mut frame.kind else { return };
        *left = left.saturating_sub(1);
        *moved += 1;
        let (ops, at) = (*ops, *at);
        let env = frame.env();
        let t = self.t;
        let COp::Move(mv) = &t.ops[ops as usize][at as usize] else { return };
        let (_, to) = self.move_slots(mv, &env);
        let from = self.loc[card as usize] as usize;
        self.relocate(card, to);
        if mv.bottom {
            let (start, len) = (to * self.cap, self.lens[to] as usize);
            self.cards[start..start + len].rotate_right(1);
        }
        self.note_move(&[card], from, to);
        self.restock();
    }

    /// Runs one operation of a list.
    fn exec(&mut self, ops: u32, at: u32) {
        let t = self.t;
        let Some(frame) = self.frames.last() else { return };
        let env = frame.env();
        let op = &t.ops[ops as usize][at as usize];
        match op {
            COp::Add { .. } | COp::Remove { .. } | COp::Set { .. } => self.exec_counter(op, &env),
            COp::Reveal { count, zone, of } => self.reveal(count, *zone, *of, &env),
            COp::May(ops) => self.pending = Some(Pending::May { seat: env.you as u8, ops: *ops }),
            COp::Respond(of) => {
                let first = self.whose(env.you, *of) as u8;
                self.note(|| format!("  {} may respond", t.seat_names[first as usize]));
                let kind = FrameKind::Window { first, turn: 0, quiet: 0, taken: 0 };
                self.push(Frame::new(kind, env.you, env.this, env.amount));
            }
            COp::Pay { .. } | COp::PayMarks(_) | COp::Needs(_) => self.exec_guard(op, &env),
            COp::Raise { raise, zones, of } => self.raise(*raise, zones, *of, &env),
            COp::Run { ops: run, amount } => {
                let amount = amount.as_ref().map_or(env.amount, |a| self.num(a, &env));
                self.push(Frame::new(FrameKind::Ops { ops: *run, at: 0 }, env.you, env.this, amount));
            }
            COp::Target(target) => {
                let amount = target.with.as_ref().map_or(env.amount, |with| self.num(with, &env));
                if self.targets(target, &env).is_empty() {
                    self.last = 0;
                } else {
                    let kind = FrameKind::Target { ops, at };
                    self.push(Frame::new(kind, env.you, env.this, amount));
                    self.pending = Some(Pending::Card { seat: env.you as u8 });
                }
            }
            COp::Move(mv) if mv.pick == Pick::Chosen => {
                // Each card is a decision: at most as many as there are cards.
                let left = self.num(&mv.count, &env).clamp(0, self.cap as i64) as u32;
                let kind = FrameKind::Chosen { ops, at, left, moved: 0 };
                self.push(Frame::new(kind, env.you, env.this, env.amount));
            }
            COp::Move(mv) => self.last = self.do_move(mv, &env),
            COp::ThisTo { zone } => self.last = self.this_to(*zone, &env),
            COp::Shuffle { zone, of } => {
                let slot = t.zone_slot(*zone, self.whose(env.you, *of));
                self.shuffle_slot(slot);
            }
            COp::Mark { marker, amount } => self.last = self.mark(*marker, Some(amount), &env),
            COp::Clear { marker } => self.last = self.mark(*marker, None, &env),
            COp::Repeat { times, ops } => {
                let left = self.num(times, &env).clamp(0, MAX_REPEAT) as u32;
                let kind = FrameKind::Repeat { ops: *ops, at: u32::MAX, left };
                self.push(Frame::new(kind, env.you, env.this, env.amount));
            }
            COp::If { test, then, otherwise } => {
                let ops = if self.truth(test, &env) { *then } else { *otherwise };
                self.push(Frame::new(FrameKind::Ops { ops, at: 0 }, env.you, env.this, env.amount));
            }
            COp::ForEach { zone, of, filter, ops } => {
                let slot = t.zone_slot(*zone, self.whose(env.you, *of));
                let cards: Vec<u16> =
                    self.slot(slot).iter().copied().filter(|&c| self.passes(filter.as_ref(), c, &env)).collect();
                let kind = FrameKind::ForEach { ops: *ops, at: u32::MAX, cards, next: 0 };
                self.push(Frame::new(kind, env.you, env.this, env.amount));
            }
        }
    }

    /// `add`, `remove` and `set`: a counter's new value, within its bounds.
    fn exec_counter(&mut self, op: &COp, env: &Env) {
        let t = self.t;
        let (COp::Add { counter, amount, of } | COp::Remove { counter, amount, of } | COp::Set { counter, amount, of }) =
            op
        else {
            return;
        };
        let n = self.num(amount, env);
        let seat = self.whose(env.you, *of);
        if !t.holds_counter(*counter, seat) {
            return;
        }
        let slot = t.counter_slot(*counter, seat);
        let def = &t.counters[*counter as usize];
        let now = self.counters[slot];
        let to = match op {
            COp::Add { .. } if n > 0 => {
                def.max.map_or(now.saturating_add(n), |m| now.saturating_add(n).min(m).max(now))
            }
            COp::Remove { .. } if n > 0 => now.saturating_sub(n).max(def.min).min(now),
            COp::Set { .. } => def.max.map_or(n.max(def.min), |m| n.max(def.min).min(m)),
            _ => now,
        };
        self.set_counter(slot, to);
        self.last = match op {
            COp::Add { .. } => to.saturating_sub(now),
            COp::Remove { .. } => now.saturating_sub(to),
            _ => to,
        };
    }

    /// `reveal`: the player sees the top cards of a zone, in the log.
    fn reveal(&mut self, count: &Ex, zone: u16, of: Whose, env: &Env) {
        let t = self.t;
        let slot = t.zone_slot(zone, self.whose(env.you, of));
        let n = self.num(count, env).clamp(0, self.cap as i64) as usize;
        self.last = n.min(self.lens[slot] as usize) as i64;
        // Nothing changes: the cards are named only in a game's log.
        if self.log.is_some() {
            let names: Vec<&str> = self.slot(slot).iter().rev().take(n).map(|&c| t.card_name(c)).collect();
            let names = if names.is_empty() { "nothing".to_string() } else { names.join(", ") };
            let whose = seat_suffix(t, t.slot_zone(slot).1);
            let line = format!("  {} sees {}{whose}: {names}", t.seat_names[env.you], t.zones[zone as usize].display);
            self.note(|| line);
        }
    }

    /// A trigger: each card of the zones (the card at hand when none is
    /// named) with a block for it resolves that block, as its owner, in
    /// the zones' order.
    fn raise(&mut self, raise: u16, zones: &[u16], of: Whose, env: &Env) {
        let t = self.t;
        let Some(blocks) = t.raised.get(raise as usize) else { return };
        let cards: Vec<u16> = if zones.is_empty() {
            env.this.into_iter().collect()
        } else {
            let seat = self.whose(env.you, of);
            zones.iter().flat_map(|&z| self.slot(t.zone_slot(z, seat)).to_vec()).collect()
        };
        let found: Vec<(u16, u32)> =
            cards.into_iter().filter_map(|c| blocks[t.card_of(c) as usize].map(|body| (c, body))).collect();
        for &(card, _) in &found {
            self.note(|| format!("  {} triggers", t.card_name(card)));
        }
        for &(card, body) in found.iter().rev() {
            let owner = t.slot_zone(self.loc[card as usize] as usize).1.unwrap_or(env.you);
            self.push(Frame::new(FrameKind::Body { body, at: 0 }, owner, Some(card), 0));
        }
    }

    /// Whether `seat` can pay `amount` from a counter: it has the counter
    /// (or pays nothing), and paying leaves it at its `min` or above.
    pub(crate) fn can_pay(&self, counter: u16, seat: usize, amount: i64) -> bool {
        let t = self.t;
        let now = self.counters[t.counter_slot(counter, seat)];
        (t.holds_counter(counter, seat) || amount == 0)
            && now.saturating_sub(amount) >= t.counters[counter as usize].min
    }

    /// The operations that end the procedure they stand in when they cannot
    /// be met: `pay` from a counter or by marking cards, and `needs`.
    fn exec_guard(&mut self, op: &COp, env: &Env) {
        let t = self.t;
        match op {
            COp::Pay { counter, amount } => {
                let n = self.num(amount, env).max(0);
                if self.can_pay(*counter, env.you, n) {
                    let slot = t.counter_slot(*counter, env.you);
                    self.set_counter(slot, self.counters[slot].saturating_sub(n));
                    self.last = n;
                } else {
                    self.note(|| format!("  cannot pay {n} {}: the rest is skipped", t.counters[*counter as usize].id));
                    self.last = 0;
                    self.unwind();
                }
            }
            COp::PayMarks(marking) => {
                let n = self.num(&marking.amount, env).max(0);
                if self.pay_marks(marking, env.you, n) {
                    self.last = n;
                } else {
                    let marker = &t.markers[marking.marker as usize].id;
                    self.note(|| format!("  cannot pay {n} {marker}: the rest is skipped"));
                    self.last = 0;
                    self.unwind();
                }
            }
            COp::Needs(test) if !self.truth(test, env) => {
                self.note(|| "  not met: the rest is skipped".to_string());
                self.unwind();
            }
            _ => {}
        }
    }

    /// The seat's cards of the marking's zones whose marker is 0, zone
    /// after zone, bottom first.
    pub(crate) fn markable(&self, marking: &Marking, seat: usize) -> Vec<u16> {
        let t = self.t;
        let marker = marking.marker as usize;
        let slots = marking.zones.iter().map(|&z| t.zone_slot(z, seat));
        slots.flat_map(|slot| self.slot(slot).iter().copied()).filter(|&c| self.marker(c, marker) == 0).collect()
    }

    /// Marks `amount` markable cards, or none (false) when there are fewer.
    pub(crate) fn pay_marks(&mut self, marking: &Marking, seat: usize, amount: i64) -> bool {
        let cards = self.markable(marking, seat);
        if (cards.len() as i64) < amount {
            return false;
        }
        let t = self.t;
        let marker = marking.marker as usize;
        for &card in cards.iter().take(amount.max(0) as usize) {
            self.marks[card as usize * t.markers.len() + marker] = 1;
            self.note(|| t.marker_change(card, marker, 0, 1));
        }
        true
    }

    /// The cards a `target` may choose, one per card name and markers, in
    /// the zones' order.
    pub(crate) fn targets(&self, target: &TargetOp, env: &Env) -> Vec<u16> {
        let t = self.t;
        let seat = self.whose(env.you, target.of);
        let mut found: Vec<u16> = Vec::new();
        for &zone in &target.zones {
            for &card in self.slot(t.zone_slot(zone, seat)) {
                if self.passes(target.filter.as_ref(), card, env) && !found.iter().any(|&c| self.alike(c, card)) {
                    found.push(card);
                }
            }
        }
        found
    }

    /// The card a pending `target` chose: its block runs with the card at
    /// hand.
    pub(crate) fn take_target(&mut self, card: u16) {
        let Some(frame) = self.frames.pop() else { return };
        let FrameKind::Target { ops, at } = frame.kind else { return };
        let COp::Target(target) = &self.t.ops[ops as usize][at as usize] else { return };
        self.last = 1;
        self.push(Frame::new(FrameKind::Ops { ops: target.ops, at: 0 }, frame.you as usize, Some(card), frame.amount));
    }

    fn set_counter(&mut self, slot: usize, to: i64) {
        let now = self.counters[slot];
        if now != to {
            self.counters[slot] = to;
            if self.log.is_some() {
                let line = self.counter_change(slot, now, to);
                self.note(|| line);
            }
        }
    }

    /// A counter's change, as the log shows it: `coin 2 → 5 (player 1)`.
    pub(crate) fn counter_change(&self, slot: usize, was: i64, now: i64) -> String {
        let t = self.t;
        let Some(def) = t.counters.iter().rev().find(|c| c.base <= slot) else { return String::new() };
        let seat = if def.shared { None } else { Some(slot - def.base) };
        format!("  {} {was} → {now}{}", def.id, seat_suffix(t, seat))
    }

    /// Moves the card at hand to a zone of its owner; the cards moved.
    fn this_to(&mut self, zone: u16, env: &Env) -> i64 {
        let Some(card) = env.this else { return 0 };
        let t = self.t;
        let from = self.loc[card as usize] as usize;
        let to = t.zone_slot(zone, t.slot_zone(from).1.unwrap_or(env.you));
        if from == to || !self.accepts(to, card) {
            return 0;
        }
        self.relocate(card, to);
        self.note_move(&[card], from, to);
        1
    }

    /// `mark` (with an amount) or `clear` (without) a marker of the card at
    /// hand, noting a change (`  damage 0 → 2 (Ogre)`); what `last` becomes:
    /// the change made, or what a cleared marker was.  Nothing without a
    /// card at hand.
    fn mark(&mut self, marker: u16, amount: Option<&Ex>, env: &Env) -> i64 {
        let Some(card) = env.this else { return 0 };
        let t = self.t;
        let now = self.marker(card, marker as usize);
        let to = match amount {
            Some(amount) => now.saturating_add(self.num(amount, env)).clamp(0, i64::from(u32::MAX)),
            None => 0,
        };
        if now != to {
            self.marks[card as usize * t.markers.len() + marker as usize] = to as u32;
            self.note(|| t.marker_change(card, marker as usize, now, to));
        }
        if amount.is_some() {
            to - now
        } else {
            now
        }
    }

    /// A `pay` that failed: the lists it stands in end, and so does the
    /// block or procedure that holds them.
    fn unwind(&mut self) {
        while let Some(top) = self.frames.last() {
            match top.kind {
                FrameKind::Ops { .. }
                | FrameKind::Repeat { .. }
                | FrameKind::ForEach { .. }
                | FrameKind::Target { .. }
                | FrameKind::Chosen { .. } => {
                    self.frames.pop();
                }
                FrameKind::Body { .. } | FrameKind::Proc { .. } => {
                    self.frames.pop();
                    return;
                }
                // A window ends with no `pay` of its own: it is not unwound.
                FrameKind::Window { .. } => return,
            }
        }
    }

    /// A move from the top, at random, or of every matching card.
    fn do_move(&mut self, mv: &MoveOp, env: &Env) -> i64 {
        let (from, to) = self.move_slots(mv, env);
        let count =
            if mv.pick == Pick::All { usize::MAX } else { self.num(&mv.count, env).clamp(0, self.cap as i64) as usize };
        let mut moved: Vec<u16> = Vec::new();
        if mv.pick == Pick::All {
            let cards: Vec<u16> = self.slot(from).to_vec();
            for card in cards {
                if self.passes(mv.filter.as_ref(), card, env) && self.accepts(to, card) {
                    self.relocate(card, to);
                    moved.push(card);
                }
            }
        } else {
            while moved.len() < count && !self.full(to) {
                if self.lens[from] == 0 {
                    self.refill(from);
                }
                let fits = |g: &Self, c: u16| g.passes(mv.filter.as_ref(), c, env) && g.accepts(to, c);
                let index = if mv.pick == Pick::Random {
                    let candidates: Vec<usize> =
                        (0..self.lens[from] as usize).filter(|&i| fits(self, self.slot(from)[i])).collect();
                    (!candidates.is_empty()).then(|| candidates[self.rng.below(candidates.len())])
                } else {
                    (0..self.lens[from] as usize).rev().find(|&i| fits(self, self.slot(from)[i]))
                };
                let Some(index) = index else { break };
                let card = self.remove_at(from, index);
                self.push_card(to, card);
                moved.push(card);
            }
        }
        if mv.bottom {
            let (start, len) = (to * self.cap, self.lens[to] as usize);
            self.cards[start..start + len].rotate_right(moved.len().min(len));
        }
        self.note_move(&moved, from, to);
        moved.len() as i64
    }

    pub(crate) fn note_move(&mut self, cards: &[u16], from: usize, to: usize) {
        if cards.is_empty() || self.log.is_none() {
            return;
        }
        let t = self.t;
        let names: Vec<&str> = cards.iter().map(|&c| t.card_name(c)).collect();
        let (fz, fs) = t.slot_zone(from);
        let (tz, ts) = t.slot_zone(to);
        let line = format!(
            "  {} → {}{}: {}",
            t.zones[fz].display,
            t.zones[tz].display,
            seat_suffix(t, ts.or(fs)),
            names.join(", ")
        );
        self.note(|| line);
    }
}

/// The next operation of a list, advancing its index; `None` at its end.
fn list_next(t: &super::Table, ops: u32, at: &mut u32) -> Option<(u32, u32)> {
    let len = t.ops[ops as usize].len() as u32;
    if *at < len {
        let here = *at;
        *at += 1;
        Some((ops, here))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DecisionKind, Game, Seating, Table};
    use crate::engine::data::Document;

    fn table() -> Table {
        let text = include_str!("../../../tests/play/lantern-market.json");
        let doc = Document::from_json(text).expect("engine data");
        Table::new(&doc, &Seating::default()).expect("playable")
    }

    fn zone(t: &Table, id: &str) -> u16 {
        t.zones.iter().position(|z| z.id == id).expect("a zone") as u16
    }

    fn counter(t: &Table, id: &str) -> u16 {
        t.counters.iter().position(|c| c.id == id).expect("a counter") as u16
    }

    fn instance(t: &Table, name: &str) -> u16 {
        (0..t.instances.len() as u16).find(|&c| t.card_name(c) == name).expect("a card in play")
    }

    /// A game stopped at its first decision, with seat 0's hand emptied
    /// into its discard pile and its counters set.
    fn game<'t>(t: &'t Table, coin: i64) -> Game<'t> {
        let mut game = Game::new(t, 9);
        let (hand, discard) = (t.zone_slot(zone(t, "hand"), 0), t.zone_slot(zone(t, "discard"), 0));
        for card in game.slot(hand).to_vec() {
            game.relocate(card, discard);
        }
        game.counters[t.counter_slot(counter(t, "coin"), 0)] = coin;
        game.frames.clear();
        game.pending = None;
        game
    }

    /// Resolves a card's reveal block for seat 0 up to its first decision.
    fn resolve(game: &mut Game, name: &str) -> u16 {
        let t = game.t;
        let card = instance(t, name);
        let reveal = t.action_names.iter().position(|a| a == "reveal").expect("the reveal action");
        let body = t.actions[reveal].resolve[t.card_of(card) as usize].expect("a reveal block");
        game.push_body(body, 0, Some(card));
        game.run();
        card
    }

    fn count(game: &Game, zone_id: &str) -> usize {
        game.slot(game.t.zone_slot(zone(game.t, zone_id), 0)).len()
    }

    #[test]
    fn a_failed_pay_ends_the_block_and_last_carries_what_was_paid() {
        let t = table();
        let coin = t.counter_slot(counter(&t, "coin"), 0);
        let mut poor = game(&t, 1);
        resolve(&mut poor, "Bargain Hunter");
        assert_eq!((poor.counters[coin], count(&poor, "hand")), (1, 0), "nothing paid, nothing drawn");
        let mut rich = game(&t, 3);
        resolve(&mut rich, "Bargain Hunter");
        assert_eq!((rich.counters[coin], count(&rich, "hand")), (1, 2), "2 paid, that many drawn");
        assert!(rich.frames.is_empty() && rich.pending.is_none());
    }

    #[test]
    fn a_chosen_move_and_a_choice_stop_for_the_seat() {
        let t = table();
        let mut game = game(&t, 0);
        resolve(&mut game, "Night Crier");
        assert_eq!(count(&game, "hand"), 2);
        assert_eq!(game.to_act(), Some(0));
        let decisions = game.decisions();
        assert!(!decisions.is_empty() && decisions.iter().all(|d| matches!(d.kind, DecisionKind::Card { .. })));
        let discarded = count(&game, "discard");
        game.apply(&decisions[0]).expect("legal");
        assert_eq!((count(&game, "hand"), count(&game, "discard")), (1, discarded + 1));
        assert!(game.frames.is_empty());

        let mut game = self::game(&t, 0);
        resolve(&mut game, "Glassblower's Stall");
        let options = game.decisions();
        assert_eq!(options.len(), 2);
        assert!(game.label(&options[1]).contains("gain card 1; gain renown 1"), "{}", game.label(&options[1]));
        game.apply(&options[1]).expect("legal");
        let renown = t.counter_slot(counter(&t, "renown"), 0);
        assert_eq!((game.counters[renown], count(&game, "hand")), (1, 1));
    }

    #[test]
    fn a_declared_condition_reads_the_cards_arguments_and_this() {
        let t = table();
        let renown = t.counter_slot(counter(&t, "renown"), 0);
        let revealed = t.zone_slot(zone(&t, "revealed"), 0);
        let mut alone = game(&t, 0);
        let awning = instance(&t, "Silk Awning");
        alone.relocate(awning, revealed);
        resolve(&mut alone, "Silk Awning");
        assert_eq!(alone.counters[renown], 0, "the card itself is no ally");
        let mut allied = game(&t, 0);
        allied.relocate(awning, revealed);
        allied.relocate(instance(&t, "Paper Lantern"), revealed);
        resolve(&mut allied, "Silk Awning");
        assert_eq!(allied.counters[renown], 1);
    }
}
