//! What a game's cards lack for play, when its ruleset declares how the
//! game is played (`play { … }`): each effect whose symbol says nothing
//! for its role, reported once for every card that writes it (W0503).

use crate::diagnostics::Diagnostic;
use crate::ir::{Body, Card};
use crate::ruleset::codes::MISSING_FOR_PLAY;
use crate::ruleset::model::Ruleset;
use crate::source::Span;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Warns of each `ROLE SYMBOL` effect of the cards that has no meaning in
/// play, at its first line, with how many more lines write it.
pub(super) fn lacks(ruleset: &Ruleset, cards: &[Arc<Card>], diagnostics: &mut Vec<Diagnostic>) {
    if ruleset.play.is_none() {
        return;
    }
    let means = |role: &str, symbol: &str| {
        ruleset.symbols.iter().any(|s| s.id == symbol && s.does.iter().any(|m| m.role.name == role))
    };
    let mut missing: BTreeMap<(&str, &str), (Span, usize)> = BTreeMap::new();
    let mut bodies: Vec<&Body> = cards.iter().map(|card| &card.body).collect();
    while let Some(body) = bodies.pop() {
        for effect in &body.effects {
            if !means(&effect.role, &effect.symbol) {
                let seen = missing.entry((&effect.role, &effect.symbol)).or_insert((effect.span, 0));
                if effect.span.start < seen.0.start && effect.span.file == seen.0.file {
                    seen.0 = effect.span;
                }
                seen.1 += 1;
            }
        }
        bodies.extend(body.fields.iter().filter_map(|f| f.body.as_deref()));
        bodies.extend(body.conditions.iter().map(|c| &c.body));
        bodies.extend(body.choices.iter().flat_map(|c| &c.options));
        bodies.extend(&body.then);
    }
    for ((role, symbol), (span, lines)) in missing {
        let mut warning = Diagnostic::warning(&MISSING_FOR_PLAY, format!("`{role} {symbol}` has no meaning in play"))
            .primary(span, "no `does` of the symbol says what this does")
            .help(format!("in the ruleset, write `symbol {symbol} … {{ does {role} {{ … }} }}`"));
        match lines {
            0 | 1 => {}
            2 => warning = warning.note(format!("1 more effect line writes `{role} {symbol}`")),
            _ => warning = warning.note(format!("{} more effect lines write `{role} {symbol}`", lines - 1)),
        }
        diagnostics.push(warning);
    }
}
