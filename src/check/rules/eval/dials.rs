//! The rule functions over the one card's manoeuvre dial (`dial` in the
//! ruleset): `speeds` and `manoeuvres`.

use super::{Evaluation, Pool};
use std::collections::BTreeSet;

impl Evaluation<'_> {
    /// The manoeuvres of the one card's dial, as `(speed, bearing,
    /// difficulty)`, from the lines of the dial's field.
    fn dial_of<'c>(&'c self, field: &'c str, pool: &Pool) -> impl Iterator<Item = (i64, &'c str, &'c str)> + 'c {
        let card = pool.entries.first().map(|e| self.cards[e.card]);
        let lines = card.into_iter().flat_map(|c| &c.body.fields).filter(move |f| f.name == field);
        lines.filter_map(crate::ir::Field::manoeuvre)
    }

    /// `speeds(F)`: how many different speeds the dial's manoeuvres have.
    pub(super) fn speeds(&self, field: &str, pool: &Pool) -> i64 {
        self.dial_of(field, pool).map(|(speed, ..)| speed).collect::<BTreeSet<_>>().len() as i64
    }

    /// `manoeuvres(F, NAME…)`: the dial's manoeuvres whose bearing or
    /// difficulty is one of the names; all of them without a name.
    pub(super) fn manoeuvres(&self, field: &str, names: &[Box<str>], pool: &Pool) -> i64 {
        let named = |value: &str| names.iter().any(|n| **n == *value);
        self.dial_of(field, pool).filter(|(_, b, d)| names.is_empty() || named(b) || named(d)).count() as i64
    }
}
