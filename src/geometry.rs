//! The geometry of a game's table: where pieces stand and how far apart they
//! are.  Shared by the checker (a deck's placement rules, `gap`) and the
//! engine (positions and distance in play), so both measure alike.  The
//! hex grids printed on cards (`coord` values) are measured in [`hex`].

/// A piece on the table: its centre and radius, in the game's unit of
/// distance (a piece without a size has radius 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    pub x: f64,
    pub y: f64,
    pub radius: f64,
}

/// A table `width` wide and `depth` deep, its corner at `0,0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Table {
    pub width: f64,
    pub depth: f64,
}

/// A rectangle of the table between two corners (a deployment zone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    pub from: (f64, f64),
    pub to: (f64, f64),
}

impl Piece {
    /// A piece's radius from its card: its radius, else half its diameter
    /// (or longest dimension), else 0.
    pub fn radius_of(radius: Option<f64>, diameter: Option<f64>) -> f64 {
        radius.or_else(|| diameter.map(|d| d / 2.0)).unwrap_or(0.0)
    }

    /// The distance between the centres of two pieces.
    pub fn distance(&self, other: &Piece) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// The distance from this piece's edge to the other's, as a ruler
    /// measures it: 0 when they touch or overlap.
    pub fn gap(&self, other: &Piece) -> f64 {
        (self.distance(other) - self.radius - other.radius).max(0.0)
    }
}

impl Table {
    /// Whether a point lies on the table, its edges included.
    pub fn holds(&self, x: f64, y: f64) -> bool {
        (0.0..=self.width).contains(&x) && (0.0..=self.depth).contains(&y)
    }

    /// The distance from a piece's edge to the nearest table edge: 0 when it
    /// reaches over an edge.
    pub fn edge_gap(&self, piece: &Piece) -> f64 {
        let nearest = piece.x.min(self.width - piece.x).min(piece.y).min(self.depth - piece.y);
        (nearest - piece.radius).max(0.0)
    }

    /// The quarter of the table a point lies in: 0 and 1 along the near
    /// edge (left, right), 2 and 3 along the far one.
    pub fn quarter(&self, x: f64, y: f64) -> usize {
        usize::from(x >= self.width / 2.0) + 2 * usize::from(y >= self.depth / 2.0)
    }

    /// Whether an area lies wholly on the table.
    pub fn holds_area(&self, area: &Area) -> bool {
        self.holds(area.from.0, area.from.1) && self.holds(area.to.0, area.to.1)
    }
}

impl Area {
    /// The area between two opposite corners, in whole units.
    pub fn between(from: [i64; 2], to: [i64; 2]) -> Area {
        let point = |[x, y]: [i64; 2]| (x as f64, y as f64);
        Area { from: point(from), to: point(to) }
    }

    /// Whether a point lies in the area, its edges included.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        let (low_x, high_x) = (self.from.0.min(self.to.0), self.from.0.max(self.to.0));
        let (low_y, high_y) = (self.from.1.min(self.to.1), self.from.1.max(self.to.1));
        (low_x..=high_x).contains(&x) && (low_y..=high_y).contains(&y)
    }
}

/// Hex positions as cards list them: axial coordinates `q,r` from the
/// card's centre `0,0`, negative `r` towards its front (`docs/language.md`).
pub mod hex {
    use std::collections::HashSet;

    /// A hex: `[q, r]`.
    pub type Hex = [i64; 2];

    /// The centre of a card's grid, where the piece it moves stands.
    pub const CENTRE: Hex = [0, 0];

    /// The six hexes sharing an edge with a hex.
    pub fn neighbours([q, r]: Hex) -> [Hex; 6] {
        [[q, r - 1], [q + 1, r - 1], [q + 1, r], [q, r + 1], [q - 1, r + 1], [q - 1, r]]
    }

    /// The hexes among `hexes` that a path from `start` reaches, moving hex
    /// to hex through `hexes` only (`start` itself is not counted unless
    /// listed).  A walk over a set, so as long as the list and no deeper.
    pub fn reached(start: Hex, hexes: impl IntoIterator<Item = Hex>) -> HashSet<Hex> {
        let open: HashSet<Hex> = hexes.into_iter().collect();
        let mut reached = HashSet::new();
        let mut frontier = vec![start];
        while let Some(hex) = frontier.pop() {
            for next in neighbours(hex) {
                if open.contains(&next) && reached.insert(next) {
                    frontier.push(next);
                }
            }
        }
        reached
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_measured_edge_to_edge() {
        let a = Piece { x: 0.0, y: 0.0, radius: 1.0 };
        let b = Piece { x: 6.0, y: 8.0, radius: 2.0 };
        assert_eq!(a.distance(&b), 10.0);
        assert_eq!(a.gap(&b), 7.0);
        assert_eq!(a.gap(&Piece { x: 1.0, y: 0.0, radius: 1.0 }), 0.0);
    }

    #[test]
    fn a_table_measures_edges_and_quarters() {
        let table = Table { width: 48.0, depth: 48.0 };
        assert_eq!(table.edge_gap(&Piece { x: 10.0, y: 30.0, radius: 2.0 }), 8.0);
        assert_eq!(table.edge_gap(&Piece { x: 1.0, y: 30.0, radius: 2.0 }), 0.0);
        assert_eq!(table.quarter(10.0, 10.0), 0);
        assert_eq!(table.quarter(30.0, 10.0), 1);
        assert_eq!(table.quarter(10.0, 30.0), 2);
        assert!(!table.holds(49.0, 2.0));
        let zone = Area { from: (0.0, 0.0), to: (48.0, 6.0) };
        assert!(zone.contains(20.0, 6.0) && !zone.contains(20.0, 7.0));
        assert!(table.holds_area(&zone));
    }

    #[test]
    fn hexes_are_reached_edge_to_edge_from_the_centre() {
        // A straight run ahead and one hex beside its end are reached; a
        // hex two columns off, touching none of them, is not.
        let listed = [[0, -1], [0, -2], [1, -3], [0, -3], [3, -3]];
        let reached = hex::reached(hex::CENTRE, listed);
        assert!(listed[..4].iter().all(|h| reached.contains(h)));
        assert!(!reached.contains(&[3, -3]));
        // Each neighbour's neighbours include the hex itself.
        for n in hex::neighbours([2, -1]) {
            assert!(hex::neighbours(n).contains(&[2, -1]));
        }
    }
}
