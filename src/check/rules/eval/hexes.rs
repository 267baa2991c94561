//! The rule functions over the hex positions one card lists (`coord`
//! fields, axial `q,r` from the card's centre `0,0`): `hex-repeats` and
//! `hex-unreached`, measured with [`crate::geometry::hex`].

use super::{Evaluation, Pool};
use crate::geometry::hex;
use crate::ir::Value;
use crate::source::Span;
use std::collections::HashMap;

impl Evaluation<'_> {
    /// The hexes the fields of the one card list, in the order written,
    /// each with where it is written.
    fn hexes(&self, fields: &[Box<str>], pool: &Pool) -> Vec<(hex::Hex, Span)> {
        let values = fields.iter().flat_map(|field| self.first_card_values(field, pool));
        values
            .filter_map(|v| match v.value {
                Value::Coord { q, r } => Some(([q, r], v.span)),
                _ => None,
            })
            .collect()
    }

    /// `hex-repeats(F…)`: hexes listed again after their first mention;
    /// each repeat is at fault, and where it was first listed is shown.
    pub(super) fn hex_repeats(&mut self, fields: &[Box<str>], pool: &Pool) -> i64 {
        let mut first: HashMap<hex::Hex, Span> = HashMap::new();
        let mut n = 0;
        for (hex, span) in self.hexes(fields, pool) {
            match first.get(&hex) {
                Some(&earlier) => {
                    n += 1;
                    let [q, r] = hex;
                    self.positions.push((span, format!("{q},{r} listed again")));
                    self.positions.push((earlier, "first listed here".to_string()));
                }
                None => {
                    first.insert(hex, span);
                }
            }
        }
        n
    }

    /// `hex-unreached(F…)`: hexes no path reaches from the centre, moving
    /// hex to hex through the listed hexes; each is at fault.
    pub(super) fn hex_unreached(&mut self, fields: &[Box<str>], pool: &Pool) -> i64 {
        let hexes = self.hexes(fields, pool);
        let reached = hex::reached(hex::CENTRE, hexes.iter().map(|(h, _)| *h));
        let stray = hexes.into_iter().filter(|(h, _)| !reached.contains(h));
        let label = "no path of listed hexes reaches this one from 0,0";
        let before = self.positions.len();
        self.positions.extend(stray.map(|(_, span)| (span, label.to_string())));
        (self.positions.len() - before) as i64
    }
}
