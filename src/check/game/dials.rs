//! A card's manoeuvre dials (`dial` in the ruleset): each manoeuvre — a
//! speed and a bearing — is one cell of the grid, so a card may list it once.

use super::GameChecker;
use crate::check::codes;
use crate::diagnostics::Diagnostic;
use crate::ir::Body;
use crate::source::Span;
use std::collections::HashMap;

impl GameChecker<'_> {
    /// Refuses a manoeuvre a card's dial lists twice, at the second line.
    pub(super) fn dial_manoeuvres(&mut self, card: &str, body: &Body) {
        for dial in &self.ruleset.dials {
            let mut first: HashMap<(i64, &str), Span> = HashMap::new();
            let mut twice = Vec::new();
            for field in body.fields.iter().filter(|f| f.name == dial.field) {
                let Some((speed, bearing, _)) = field.manoeuvre() else { continue };
                match first.get(&(speed, bearing)) {
                    Some(&earlier) => twice.push((speed, bearing, field.span, earlier)),
                    None => {
                        first.insert((speed, bearing), field.span);
                    }
                }
            }
            for (speed, bearing, span, earlier) in twice {
                self.report(
                    Diagnostic::error(
                        &codes::MANOEUVRE_TWICE,
                        format!("`{card}` lists the manoeuvre {speed} {bearing} of its {} twice", dial.display),
                    )
                    .primary(span, "listed again")
                    .secondary(earlier, "first listed here")
                    .help("a dial has one cell for each speed and bearing: keep one of the two lines"),
                );
            }
        }
    }
}
