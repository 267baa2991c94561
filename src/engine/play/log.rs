//! A game shown as text: what one seat may see of the table.  (The log of
//! what happens is written as the game goes, by [`Game::with_log`].)

use super::state::Game;
use crate::engine::semantics::Visibility;

/// The counters and zones as `seat` sees them: every counter; the cards of
/// public zones and of its own private zones, each with the markers it has
/// (`Ogre [damage 2]`); only how many cards the
/// others' private zones and every hidden zone hold, and the zones where
/// the others' plays go while seats choose them in secret.
pub fn view(game: &Game, seat: usize) -> String {
    let t = game.table();
    let mut out = String::new();
    for (c, def) in t.counters.iter().enumerate() {
        if let Some(owner) = def.seat.filter(|_| !def.shared) {
            out.push_str(&format!("{}: {} {}\n", def.display, t.seat_names[owner], game.counter(c, owner)));
        } else if def.shared {
            out.push_str(&format!("{}: {}\n", def.display, game.counter(c, 0)));
        } else {
            let values: Vec<String> =
                (0..t.seats).map(|s| format!("{} {}", t.seat_names[s], game.counter(c, s))).collect();
            out.push_str(&format!("{}: {}\n", def.display, values.join(", ")));
        }
    }
    for (z, def) in t.zones.iter().enumerate() {
        let owners: Vec<Option<usize>> = if def.shared { vec![def.seat] } else { (0..t.seats).map(Some).collect() };
        for owner in owners {
            let seen = !game.secret(z, owner, seat)
                && match def.visibility {
                    Visibility::Public => true,
                    Visibility::Private => owner == Some(seat),
                    Visibility::Hidden | Visibility::Other => false,
                };
            let who = owner.map_or_else(String::new, |s| format!(" ({})", t.seat_names[s]));
            let len = game.zone_len(z, owner.unwrap_or(0));
            if seen && len > 0 {
                let slot = t.zone_slot(z as u16, owner.unwrap_or(0));
                let cards: Vec<String> = game.slot(slot).iter().map(|&c| game.card_shown(c)).collect();
                out.push_str(&format!("{}{who}: {}\n", def.display, cards.join(", ")));
            } else {
                out.push_str(&format!("{}{who}: {len} cards\n", def.display));
            }
        }
    }
    out
}
