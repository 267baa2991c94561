//! What a game's cards lack for play, when its ruleset declares how the
//! game is played (`play { … }`): each effect whose symbol says nothing
//! for its role, reported once for every card that writes it (W0503), and
//! each play-limit the play engine cannot read (W0504).

use super::codes::PLAY_LIMIT_NOT_PLAYED;
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
    limits_not_played(ruleset, diagnostics);
    let means = |role: &str, symbol: &str| {
        ruleset.symbols.iter().any(|s| s.id == symbol && s.does.iter().any(|m| m.role.name == role))
    };
    let mut missing: BTreeMap<(&str, &str), (Span, usize)> = BTreeMap::new();
    let mut ranged: Option<Span> = None;
    let mut bodies: Vec<(&Body, Span)> = cards.iter().map(|card| (&card.body, card.span)).collect();
    while let Some((body, card)) = bodies.pop() {
        for effect in &body.effects {
            if !means(&effect.role, &effect.symbol) {
                let seen = missing.entry((&effect.role, &effect.symbol)).or_insert((effect.span, 0));
                if effect.span.start < seen.0.start && effect.span.file == seen.0.file {
                    seen.0 = effect.span;
                }
                seen.1 += 1;
            }
        }
        bodies.extend(body.fields.iter().filter_map(|f| f.body.as_deref()).map(|b| (b, card)));
        for conditional in &body.conditions {
            if let crate::ir::Condition::Range { .. } = &conditional.condition {
                ranged.get_or_insert(card);
            }
            bodies.push((&conditional.body, card));
        }
        bodies.extend(body.choices.iter().flat_map(|c| &c.options).map(|b| (b, card)));
        bodies.extend(body.then.iter().map(|b| (b, card)));
    }
    if let Some(span) = ranged {
        diagnostics.push(
            Diagnostic::warning(&MISSING_FOR_PLAY, "a card under a range condition cannot be played yet")
                .primary(span, "play has no positions nor distances to read the range from")
                .note("see docs/play.md, \"Games played on a map\""),
        );
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

/// Warns of each play-limit that play refuses, in the words of its refusal:
/// the engine is asked of the limit's tree as the engine data holds it.
fn limits_not_played(ruleset: &Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    for limit in &ruleset.play_limits {
        let Some(tree) = limit.compiled.as_deref().and_then(|tree| serde_json::to_value(tree).ok()) else { continue };
        let Some(function) = crate::engine::play::limits::unplayable(&tree) else { continue };
        let sentence = crate::engine::play::limits::unplayable_sentence(&limit.message, &function);
        diagnostics.push(
            Diagnostic::warning(&PLAY_LIMIT_NOT_PLAYED, sentence)
                .primary(limit.span, format!("`cardsmith play` and `simulate` refuse the game for `{function}`"))
                .help("write the limit with `count`, `distinct`, `max-copies`, `all`, `any`, `sum`, `min` or `max`")
                .note("see docs/play.md, \"Play limits\""),
        );
    }
}
