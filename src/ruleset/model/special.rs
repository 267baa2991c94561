//! Special values: tokens a card prints in place of a value, each with a
//! meaning an engine can act on (read by [`crate::ruleset::special`]).

use schemars::JsonSchema;
use serde::Serialize;

/// A token a card may write in place of a value, and what it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Special {
    /// The token exactly as a card writes it and a face prints it.
    pub token: String,
    pub meaning: Meaning,
    /// What the ruleset says the token stands for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// What a special value means to an engine.  Neither is a number: rules that
/// add or compare numbers do not read one as 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Meaning {
    /// The stat does not exist for this card (a station's tonnage).
    NotApplicable,
    /// The card's text gives the value or says how it is affected instead.
    SeeText,
}

impl Meaning {
    const ALL: [(&'static str, Meaning); 2] =
        [("not-applicable", Meaning::NotApplicable), ("see-text", Meaning::SeeText)];

    pub(in crate::ruleset) fn named(word: &str) -> Option<Meaning> {
        Meaning::ALL.iter().find(|(name, _)| *name == word).map(|(_, m)| *m)
    }
}

/// The tokens every ruleset knows before it declares any.
pub fn built_in() -> Vec<Special> {
    vec![
        Special {
            token: "-".into(),
            meaning: Meaning::NotApplicable,
            doc: Some("Not applicable: the card has no such value.".into()),
        },
        Special { token: "*".into(), meaning: Meaning::SeeText, doc: Some("See the card's text.".into()) },
    ]
}
