//! The rulesets bundled with cardsmith, compiled into the binary so a
//! project can name a game without copying its ruleset.

pub use crate::bundled::RULESETS;

pub fn ids() -> impl Iterator<Item = &'static str> {
    RULESETS.iter().map(|(id, _, _)| *id)
}

pub fn find(id: &str) -> Option<(&'static str, &'static str)> {
    RULESETS.iter().find(|(i, _, _)| *i == id).map(|(_, name, text)| (*name, *text))
}
