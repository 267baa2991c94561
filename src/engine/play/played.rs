//! The cards each seat has played this turn, for the play-limits
//! ([`super::limits`]) and the expression `played(…)`: a card taken by an
//! action that `counts played` is kept until the round ends, and an action
//! that would play a card is offered only while every limit holds with the
//! card added.

use super::decide::{Decision, DecisionKind};
use super::state::Game;
use crate::engine::semantics::Counts;

impl<'t> Game<'t> {
    /// The limit the seat would break by playing this card (a card in play)
    /// now, if any.  Asked of every card an action could play: without
    /// limits, it costs a test.
    #[inline]
    pub(crate) fn broken_limit(&self, seat: usize, card: u16) -> Option<&'t str> {
        if self.t.limits.is_empty() {
            return None;
        }
        self.limit_broken_with(seat, card)
    }

    /// As [`Game::broken_limit`], reading each limit over the seat's cards
    /// played this turn and this one.
    fn limit_broken_with(&self, seat: usize, card: u16) -> Option<&'t str> {
        let t = self.t;
        let mine = self.played.iter().filter(|(s, _)| *s as usize == seat);
        let mut played: Vec<u16> = mine.map(|&(_, c)| t.card_of(c)).collect();
        played.push(t.card_of(card));
        t.limits.broken(&played)
    }

    /// Keeps a card (in play) the seat played, for the limits of the turn
    /// and `played(…)`.
    pub(crate) fn note_played(&mut self, seat: usize, card: u16) {
        self.played.push((seat as u8, card));
    }

    /// The limit a decision would break, if it plays a card from where its
    /// action takes it and breaks one.
    pub(crate) fn limit_broken_by(&self, decision: &Decision) -> Option<&'t str> {
        let t = self.t;
        let DecisionKind::Take { action, card } = decision.kind else { return None };
        let action = t.actions.get(action as usize)?;
        let from = t.zone_slot(action.from?, decision.seat);
        let at = self.loc.get(card as usize).copied();
        if action.counts != Some(Counts::Played) || at != Some(from as u16) {
            return None;
        }
        self.broken_limit(decision.seat, card)
    }
}
