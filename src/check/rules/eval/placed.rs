//! The rule functions over the pieces a deck places on the game's table
//! (`card "Asteroid" at 12,20`): `gap`, `edge-gap`, `quarter-spread` and
//! `inside`, measured with [`crate::geometry`], and `unplaced`, the copies
//! a deck leaves without a place.

use super::{Evaluation, Pool, PoolEntry};
use crate::geometry::{Area, Piece, Table};
use crate::ir::{Card, Value};
use crate::ruleset::model::rule::Filter;
use crate::source::Span;

/// What a rule measuring placed pieces reads when the deck places none: a
/// distance beyond any table, so that a `>=` rule holds.
const NOTHING_PLACED: i64 = i64::MAX / 4;

impl Evaluation<'_> {
    /// The table, when the game declares one.
    fn table(&self) -> Option<Table> {
        let table = self.ruleset.table.as_ref()?;
        Some(Table { width: table.width as f64, depth: table.depth as f64 })
    }

    /// Each placed copy of the matching cards, with its deck line and what
    /// tells it from every other copy (its line's entry and its place).
    fn placed(&self, filters: &[Filter], pool: &Pool) -> Vec<(Piece, Span, (usize, usize))> {
        let mut pieces = Vec::new();
        for entry in self.matching(filters, pool) {
            let radius = self.radius(self.cards[entry.card]);
            let id = std::ptr::from_ref(entry) as usize;
            pieces.extend(
                piece_positions(entry).enumerate().map(|(i, (x, y))| (Piece { x, y, radius }, entry.span, (id, i))),
            );
        }
        pieces
    }

    /// A card's radius: its first `radius` field of the table, else half its
    /// first `diameter` field; 0 without either.
    fn radius(&self, card: &Card) -> f64 {
        let Some(table) = &self.ruleset.table else { return 0.0 };
        let first = |fields: &[String]| {
            fields.iter().find_map(|f| card.field(f).and_then(|f| f.first_value()).and_then(length))
        };
        Piece::radius_of(first(&table.radius), first(&table.diameter))
    }

    /// `gap(A, B)`: the least distance, edge to edge, between a placed piece
    /// matching A and another matching B, in whole units (rounded down);
    /// the two lines are the culprits.
    pub(super) fn gap(&mut self, first: &[Filter], second: &[Filter], pool: &Pool) -> i64 {
        let (these, those) = (self.placed(first, pool), self.placed(second, pool));
        let mut least: Option<(f64, Span, Span)> = None;
        for (a, a_line, a_id) in &these {
            for (b, b_line, b_id) in &those {
                // A piece is not measured from itself.
                if a_id == b_id {
                    continue;
                }
                let gap = a.gap(b);
                if least.is_none_or(|(l, ..)| gap < l) {
                    least = Some((gap, *a_line, *b_line));
                }
            }
        }
        let Some((gap, a, b)) = least else { return NOTHING_PLACED };
        self.culprits = if a == b { vec![a] } else { vec![a, b] };
        gap.floor() as i64
    }

    /// `edge-gap(A)`: the least distance from a placed matching piece's edge
    /// to the table's edge, in whole units (rounded down).
    pub(super) fn edge_gap(&mut self, filters: &[Filter], pool: &Pool) -> i64 {
        let Some(table) = self.table() else { return NOTHING_PLACED };
        let nearest = self
            .placed(filters, pool)
            .into_iter()
            .map(|(piece, line, _)| (table.edge_gap(&piece), line))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let Some((gap, line)) = nearest else { return NOTHING_PLACED };
        self.culprits = vec![line];
        gap.floor() as i64
    }

    /// `quarter-spread(A)`: how many more placed matching pieces the
    /// fullest table quarter holds than the emptiest.
    pub(super) fn quarter_spread(&mut self, filters: &[Filter], pool: &Pool) -> i64 {
        let Some(table) = self.table() else { return 0 };
        let mut quarters = [0i64; 4];
        for (piece, ..) in self.placed(filters, pool) {
            quarters[table.quarter(piece.x, piece.y)] += 1;
        }
        quarters.iter().max().copied().unwrap_or(0) - quarters.iter().min().copied().unwrap_or(0)
    }

    /// `inside(ZONE, A)`: placed matching pieces whose centre lies in the
    /// deployment zone; their lines are the culprits.
    pub(super) fn inside(&mut self, zone: usize, filters: &[Filter], pool: &Pool) -> i64 {
        let Some(zone) = self.ruleset.table.as_ref().and_then(|t| t.deployments.get(zone)) else { return 0 };
        let area = Area::between(zone.from, zone.to);
        let mut inside: Vec<Span> = self
            .placed(filters, pool)
            .into_iter()
            .filter(|(p, ..)| area.contains(p.x, p.y))
            .map(|(_, l, _)| l)
            .collect();
        let n = inside.len() as i64;
        inside.dedup();
        if n > 0 {
            self.culprits = inside;
        }
        n
    }

    /// `unplaced(A)`: copies of the matching cards the deck gives no
    /// position; their lines are the culprits.
    pub(super) fn unplaced(&mut self, filters: &[Filter], pool: &Pool) -> i64 {
        let mut lines = Vec::new();
        let mut n = 0i64;
        for entry in self.matching(filters, pool) {
            let missing = entry.count.saturating_sub(entry.positions.len() as i64).max(0);
            if missing > 0 {
                n = n.saturating_add(missing);
                lines.push(entry.span);
            }
        }
        if n > 0 {
            self.culprits = lines;
        }
        n
    }
}

/// The positions a deck line gives its copies, as points.
fn piece_positions(entry: &PoolEntry) -> impl Iterator<Item = (f64, f64)> + '_ {
    entry.positions.iter().map(|[x, y]| (*x as f64, *y as f64))
}

/// A length a field gives: a distance (`6"`), a decimal or a whole number.
fn length(value: &Value) -> Option<f64> {
    match value {
        Value::Int(n) => Some(*n as f64),
        Value::Distance(d) | Value::Decimal(d) => d.to_string().trim_end_matches('"').parse().ok(),
        _ => None,
    }
}
