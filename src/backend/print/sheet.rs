//! Sheet geometry: card and paper sizes, how many cards fit a page (in
//! either orientation), where each card and cut mark goes, and where a
//! card's back goes on the backs page for long- or short-edge duplex.  All
//! lengths are in millimetres; PDF points are computed at the edge.

/// Millimetres to PDF points.
pub fn pt(mm: f32) -> f32 {
    mm * 72.0 / 25.4
}

pub use crate::card_size::{card_size, CardSizeError, Size};

/// `a4`, `letter`, `a3`, `legal`, or `WxH` in millimetres (`297x210`,
/// each side within [`PAPER_SIDE_MM`]).
pub fn paper_size(name: &str) -> Result<Size, PaperError> {
    let size = match name.trim().to_ascii_lowercase().as_str() {
        "a4" => Size { w: 210.0, h: 297.0 },
        "letter" => Size { w: 215.9, h: 279.4 },
        "a3" => Size { w: 297.0, h: 420.0 },
        "legal" => Size { w: 215.9, h: 355.6 },
        other => {
            let other = other.strip_suffix("mm").unwrap_or(other);
            let (w, h) = other.split_once('x').ok_or(PaperError::Unknown)?;
            let (Ok(w), Ok(h)) = (w.trim().parse::<f32>(), h.trim().parse::<f32>()) else {
                return Err(PaperError::Unknown);
            };
            if !PAPER_SIDE_MM.contains(&w) || !PAPER_SIDE_MM.contains(&h) {
                return Err(PaperError::OutOfRange { w, h });
            }
            Size { w, h }
        }
    };
    Ok(size)
}

/// The sides a paper may have, in millimetres: from a postcard's short side
/// to past A0's long side.
pub const PAPER_SIDE_MM: std::ops::RangeInclusive<f32> = 80.0..=1200.0;

/// Why a paper size was refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PaperError {
    /// Neither a known name nor `WxH`.
    Unknown,
    /// `WxH` with a side outside [`PAPER_SIDE_MM`] (or not a number).
    OutOfRange { w: f32, h: f32 },
}

/// The margin kept clear at every paper edge by default (most printers
/// cannot print closer), the cut marks' gap from the cards and their
/// longest and shortest lengths.  Nothing, marks included, is drawn in the
/// margin: where a mark of [`MIN_MARK`] does not fit between the cards and
/// the margin, the grid loses a row or column instead.
pub const MARGIN: f32 = 5.0;
pub const MARK_GAP: f32 = 1.0;
pub const MARK_LENGTH: f32 = 5.0;
pub const MIN_MARK: f32 = 2.0;

/// The margins a user may ask for, in millimetres.
pub const MARGIN_MM: std::ops::RangeInclusive<f32> = 0.0..=30.0;

/// How a duplex printer turns the sheet between its two sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Duplex {
    /// Flipped on the long edge (the left edge of a portrait page): what is
    /// on the left of the front is on the right of the back.
    #[default]
    Long,
    /// Flipped on the short edge (the top): what is at the top of the front
    /// is at the bottom of the back.
    Short,
}

impl Duplex {
    /// `long` or `short`.
    pub fn parse(name: &str) -> Option<Duplex> {
        match name.trim().to_ascii_lowercase().as_str() {
            "long" | "long-edge" => Some(Duplex::Long),
            "short" | "short-edge" => Some(Duplex::Short),
            _ => None,
        }
    }

    /// Where a point of the front shows through on the back, as seen looking
    /// at the back (both from the top left of their side, in millimetres).
    pub fn behind(self, paper: Size, (x, y): (f32, f32)) -> (f32, f32) {
        if self.mirrors_x(paper) {
            (paper.w - x, y)
        } else {
            (x, paper.h - y)
        }
    }

    /// Whether turning `paper` this way mirrors its x axis (what is on the
    /// left of the front is on the right of the back) rather than its y
    /// axis: flipping on the long edge of a portrait sheet, or on the short
    /// edge of a sheet wider than it is tall.
    pub fn mirrors_x(self, paper: Size) -> bool {
        (self == Duplex::Long) == (paper.h >= paper.w)
    }
}

/// Which side of the sheets a page is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Front,
    /// A backs page, laid out for the way the printer turns the sheet.
    Back(Duplex),
}

/// Where cards go on a page.
///
/// The grid is laid out on the page as the cards stand on it: the paper
/// itself, or the paper turned a quarter (`turned`, landscape on a portrait
/// sheet) when that holds more cards.  Positions, boxes and marks are given
/// in that layout; [`Grid::page_rect`] and [`Grid::offset_in_layout`] turn
/// them into the paper's own coordinates, where the PDF draws them through
/// a quarter turn (the layout's top edge along the paper's right edge).
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The paper as it goes through the printer.
    pub paper: Size,
    pub card: Size,
    pub bleed: f32,
    /// The band at every paper edge where nothing is drawn.
    pub margin: f32,
    pub columns: usize,
    pub rows: usize,
    /// The top-left corner of the first card's trimmed face, in the layout.
    pub left: f32,
    pub top: f32,
    /// The cards stand across the paper (landscape).
    pub turned: bool,
}

impl Grid {
    /// As many cards as fit inside the margins with room for cut marks
    /// beside them, each card with its bleed around it, centred on the page,
    /// in whichever orientation holds more (upright when both hold as
    /// many); `None` when not even one fits.
    pub fn new(paper: Size, card: Size, bleed: f32, margin: f32) -> Option<Grid> {
        let upright = Grid::laid_out(paper, card, bleed, margin, false);
        let turned = Grid::laid_out(paper, card, bleed, margin, true);
        match (upright, turned) {
            (Some(upright), Some(turned)) if turned.per_page() > upright.per_page() => Some(turned),
            (None, turned) => turned,
            (upright, _) => upright,
        }
    }

    /// The grid on the paper upright or turned a quarter.
    fn laid_out(paper: Size, card: Size, bleed: f32, margin: f32, turned: bool) -> Option<Grid> {
        let space = if turned { Size { w: paper.h, h: paper.w } } else { paper };
        let pitch = (card.w + 2.0 * bleed, card.h + 2.0 * bleed);
        let reserved = 2.0 * (margin + MARK_GAP + MIN_MARK);
        let columns = ((space.w - reserved) / pitch.0).floor().max(0.0) as usize;
        let rows = ((space.h - reserved) / pitch.1).floor().max(0.0) as usize;
        if columns == 0 || rows == 0 {
            return None;
        }
        let block = (columns as f32 * pitch.0, rows as f32 * pitch.1);
        let left = (space.w - block.0) / 2.0 + bleed;
        let top = (space.h - block.1) / 2.0 + bleed;
        Some(Grid { paper, card, bleed, margin, columns, rows, left, top, turned })
    }

    pub fn per_page(&self) -> usize {
        self.columns * self.rows
    }

    /// The page as the cards stand on it: the paper, turned when the grid is.
    pub fn space(&self) -> Size {
        if self.turned {
            Size { w: self.paper.h, h: self.paper.w }
        } else {
            self.paper
        }
    }

    /// A rectangle of the layout (x, y, w, h) on the paper: a turned
    /// layout's point (x, y) is the paper's (paper width − y, x).
    pub fn page_rect(&self, (x, y, w, h): (f32, f32, f32, f32)) -> (f32, f32, f32, f32) {
        if self.turned {
            (self.paper.w - y - h, x, h, w)
        } else {
            (x, y, w, h)
        }
    }

    /// A move on the paper (x right, y down: a printer's offset) as a move
    /// in the layout.
    pub fn offset_in_layout(&self, (x, y): (f32, f32)) -> (f32, f32) {
        if self.turned {
            (y, -x)
        } else {
            (x, y)
        }
    }

    /// The trimmed face of the card in `slot` (reading order) in the layout:
    /// x, y.  On a backs page the columns or the rows are mirrored, so each
    /// back lands behind its front: the paper's axis the duplex turn mirrors
    /// ([`Duplex::mirrors_x`]) is the layout's rows when the grid is turned.
    /// The grid is centred, so that is [`Duplex::behind`] of the slot.
    pub fn slot(&self, slot: usize, side: Side) -> (f32, f32) {
        let (mut row, mut column) = (slot / self.columns, slot % self.columns);
        if let Side::Back(duplex) = side {
            if duplex.mirrors_x(self.paper) != self.turned {
                column = self.columns - 1 - column;
            } else {
                row = self.rows - 1 - row;
            }
        }
        let pitch = (self.card.w + 2.0 * self.bleed, self.card.h + 2.0 * self.bleed);
        (self.left + column as f32 * pitch.0, self.top + row as f32 * pitch.1)
    }

    /// The rectangle holding every trimmed card: x, y, w, h.
    pub fn trim_box(&self) -> (f32, f32, f32, f32) {
        let pitch = (self.card.w + 2.0 * self.bleed, self.card.h + 2.0 * self.bleed);
        (
            self.left,
            self.top,
            (self.columns - 1) as f32 * pitch.0 + self.card.w,
            (self.rows - 1) as f32 * pitch.1 + self.card.h,
        )
    }

    /// The trim box grown by the bleed.
    pub fn bleed_box(&self) -> (f32, f32, f32, f32) {
        let (x, y, w, h) = self.trim_box();
        (x - self.bleed, y - self.bleed, w + 2.0 * self.bleed, h + 2.0 * self.bleed)
    }

    /// Cut marks: line segments (x1, y1, x2, y2) between the cards (with
    /// their bleed) and the paper's margin, on the line of every card edge.
    pub fn cut_marks(&self) -> Vec<(f32, f32, f32, f32)> {
        let (bx, by, bw, bh) = self.bleed_box();
        let mut xs: Vec<f32> = Vec::new();
        let mut ys: Vec<f32> = Vec::new();
        for column in 0..self.columns {
            let (x, _) = self.slot(column, Side::Front);
            xs.extend([x, x + self.card.w]);
        }
        for row in 0..self.rows {
            let (_, y) = self.slot(row * self.columns, Side::Front);
            ys.extend([y, y + self.card.h]);
        }
        dedup(&mut xs);
        dedup(&mut ys);
        // The grid leaves at least MIN_MARK between the gap and the margin.
        let top_room = (by - self.margin - MARK_GAP).min(MARK_LENGTH);
        let side_room = (bx - self.margin - MARK_GAP).min(MARK_LENGTH);
        let mut marks = Vec::new();
        if top_room >= MIN_MARK - 0.01 {
            for x in &xs {
                marks.push((*x, by - MARK_GAP - top_room, *x, by - MARK_GAP));
                marks.push((*x, by + bh + MARK_GAP, *x, by + bh + MARK_GAP + top_room));
            }
        }
        if side_room >= MIN_MARK - 0.01 {
            for y in &ys {
                marks.push((bx - MARK_GAP - side_room, *y, bx - MARK_GAP, *y));
                marks.push((bx + bw + MARK_GAP, *y, bx + bw + MARK_GAP + side_room, *y));
            }
        }
        marks
    }

    /// The cut marks of a page moved by `offset` (a backs page; in the
    /// layout, see [`Grid::offset_in_layout`]), cut back where the move
    /// takes them into the margin; a mark left shorter than half of
    /// [`MIN_MARK`] is dropped.
    pub fn cut_marks_moved(&self, offset: (f32, f32)) -> Vec<(f32, f32, f32, f32)> {
        let space = self.space();
        let (low, high) = ((self.margin, self.margin), (space.w - self.margin, space.h - self.margin));
        let clip = |v: f32, axis: usize| if axis == 0 { v.clamp(low.0, high.0) } else { v.clamp(low.1, high.1) };
        self.cut_marks()
            .into_iter()
            .map(|(x1, y1, x2, y2)| {
                let (x1, x2) = (clip(x1 + offset.0, 0), clip(x2 + offset.0, 0));
                let (y1, y2) = (clip(y1 + offset.1, 1), clip(y2 + offset.1, 1));
                (x1, y1, x2, y2)
            })
            .filter(|(x1, y1, x2, y2)| (x2 - x1).abs() + (y2 - y1).abs() >= MIN_MARK / 2.0)
            .collect()
    }
}

fn dedup(values: &mut Vec<f32>) {
    values.sort_by(f32::total_cmp);
    values.dedup_by(|a, b| (*a - *b).abs() < 0.01);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(paper: &str, card: &str, bleed: f32) -> Grid {
        Grid::new(paper_size(paper).expect("known paper"), card_size(card).expect("known size"), bleed, MARGIN).unwrap()
    }

    #[test]
    fn rows_and_columns_follow_paper_card_and_bleed() {
        // Columns, rows and whether the cards stand across the paper.
        let shape = |g: Grid| (g.columns, g.rows, g.turned);
        assert_eq!(shape(grid("a4", "poker", 0.0)), (3, 3, false));
        // Letter leaves 6.35 mm above and below three poker cards: no room
        // for marks outside a 5 mm margin, so upright it holds 3 × 2 and
        // turned 4 × 2; a 3 mm margin gives 3 × 3 upright.
        assert_eq!(shape(grid("letter", "poker", 0.0)), (4, 2, true));
        let letter = |margin| Grid::new(paper_size("letter").unwrap(), card_size("poker").unwrap(), 0.0, margin);
        assert_eq!(letter(3.0).map(shape), Some((3, 3, false)));
        // As many either way: upright.
        assert_eq!(shape(grid("a4", "tarot", 0.0)), (2, 2, false));
        assert_eq!(shape(grid("letter", "tarot", 0.0)), (2, 2, false));
        assert_eq!(shape(grid("a4", "bridge", 0.0)), (3, 3, false));
        assert_eq!(shape(grid("a4", "poker", 3.0)), (4, 2, true));
        assert_eq!(shape(grid("a4", "poker", 2.0)), (4, 2, true));
        assert_eq!(shape(grid("a4", "mini", 0.0)), (4, 4, false));
        // Paper given landscape turns the other way.
        assert_eq!(shape(grid("297x210", "poker", 0.0)), (3, 3, true));
        assert_eq!(shape(grid("297x210", "poker", 3.0)), (4, 2, false));
        assert!(Grid::new(paper_size("a4").unwrap(), card_size("300x400").expect("in range"), 0.0, MARGIN).is_none());
    }

    #[test]
    fn cards_per_page_are_the_most_either_orientation_holds() {
        assert_eq!(grid("a4", "poker", 0.0).per_page(), 9);
        assert_eq!(grid("letter", "poker", 0.0).per_page(), 8);
        assert_eq!(grid("a4", "poker", 3.0).per_page(), 8);
        assert_eq!(grid("a3", "poker", 0.0).per_page(), 18);
        assert_eq!(grid("a4", "tarot", 3.0).per_page(), 4);
    }

    #[test]
    fn custom_paper_is_millimetres_within_bounds() {
        assert_eq!(paper_size("297x210"), Ok(Size { w: 297.0, h: 210.0 }));
        assert_eq!(paper_size(" 100 x 150mm "), Ok(Size { w: 100.0, h: 150.0 }));
        assert_eq!(paper_size("A4"), Ok(Size { w: 210.0, h: 297.0 }));
        assert_eq!(paper_size("a5"), Err(PaperError::Unknown));
        assert_eq!(paper_size("297x"), Err(PaperError::Unknown));
        assert_eq!(paper_size("10x210"), Err(PaperError::OutOfRange { w: 10.0, h: 210.0 }));
        assert_eq!(paper_size("297x5000"), Err(PaperError::OutOfRange { w: 297.0, h: 5000.0 }));
        assert!(matches!(paper_size("nanx210"), Err(PaperError::OutOfRange { .. })));
    }

    /// The centre of a slot's card on the paper itself.
    fn centre_on_paper(g: &Grid, slot: usize, side: Side) -> (f32, f32) {
        let (x, y) = g.slot(slot, side);
        let (px, py, pw, ph) = g.page_rect((x, y, g.card.w, g.card.h));
        (px + pw / 2.0, py + ph / 2.0)
    }

    #[test]
    fn cards_are_centred_and_backs_land_behind_fronts() {
        let g = grid("a4", "poker", 0.0);
        assert!((g.left - (210.0 - 190.5) / 2.0).abs() < 1e-3);
        assert!((g.top - (297.0 - 266.7) / 2.0).abs() < 1e-3);
        let sheets = [("a4", "poker", 0.0), ("letter", "bridge", 3.0), ("a3", "88.9x63.5", 2.0), ("a4", "poker", 3.0)];
        for (paper, card, bleed) in sheets.into_iter().chain([("letter", "poker", 0.0), ("297x210", "poker", 0.0)]) {
            let g = grid(paper, card, bleed);
            for slot in 0..g.per_page() {
                let front = centre_on_paper(&g, slot, Side::Front);
                for duplex in [Duplex::Long, Duplex::Short] {
                    let back = centre_on_paper(&g, slot, Side::Back(duplex));
                    let expected = duplex.behind(g.paper, front);
                    let close = (back.0 - expected.0).abs() < 1e-3 && (back.1 - expected.1).abs() < 1e-3;
                    assert!(close, "{paper} {card} slot {slot} {duplex:?}: back at {back:?}, not {expected:?}");
                }
            }
        }
        // Long-edge keeps the rows, short-edge the columns.
        assert_eq!(g.slot(0, Side::Back(Duplex::Long)), g.slot(2, Side::Front));
        assert_eq!(g.slot(0, Side::Back(Duplex::Short)), g.slot(6, Side::Front));
    }

    #[test]
    fn turned_grids_mirror_their_rows_for_the_long_edge() {
        // A4 with 3 mm bleed: 4 × 2 cards across a portrait sheet.
        let g = grid("a4", "poker", 3.0);
        assert!(g.turned && (g.columns, g.rows) == (4, 2));
        // The sheet turns about its long edge, which runs along the layout's
        // rows: the first row's backs are the second row's fronts.
        assert_eq!(g.slot(0, Side::Back(Duplex::Long)), g.slot(4, Side::Front));
        assert_eq!(g.slot(3, Side::Back(Duplex::Long)), g.slot(7, Side::Front));
        assert_eq!(g.slot(0, Side::Back(Duplex::Short)), g.slot(3, Side::Front));
        assert_eq!(g.slot(5, Side::Back(Duplex::Short)), g.slot(6, Side::Front));
        // The layout's top left is the paper's top right, the layout's
        // rectangles stand across the paper, and the block stays centred.
        let (x, y, w, h) = g.page_rect(g.bleed_box());
        assert!((w - 2.0 * 94.9).abs() < 1e-3 && (h - 4.0 * 69.5).abs() < 1e-3, "{w} x {h}");
        assert!((x + w / 2.0 - 105.0).abs() < 1e-3 && (y + h / 2.0 - 148.5).abs() < 1e-3, "{x},{y}");
        let (px, py, _, _) = g.page_rect((g.left, g.top, g.card.w, g.card.h));
        assert!(px > 105.0 && py < 148.5, "the first card is at the paper's top right: {px},{py}");
        // A printer's offset to the right on the paper is a move up the layout.
        assert_eq!(g.offset_in_layout((2.0, 0.0)), (0.0, -2.0));
        assert_eq!(g.offset_in_layout((0.0, 1.5)), (1.5, 0.0));
    }

    #[test]
    fn cut_marks_stay_outside_the_cards_and_the_margin() {
        let papers = ["a4", "letter", "a3", "legal"];
        let cards = ["poker", "bridge", "tarot", "mini", "88.9x63.5"];
        for (paper, card, bleed) in
            papers.iter().flat_map(|p| cards.iter().flat_map(move |c| [(p, c, 0.0), (p, c, 3.0)]))
        {
            let g = grid(paper, card, bleed);
            let (bx, by, bw, bh) = g.bleed_box();
            let marks = g.cut_marks();
            // Every cut line is marked at both ends; without bleed,
            // neighbours share their lines.
            let lines = if bleed > 0.0 { 2 * (g.columns + g.rows) } else { g.columns + g.rows + 2 };
            assert_eq!(marks.len(), 2 * lines, "{paper} {card} {bleed}");
            for (x1, y1, x2, y2) in marks {
                assert!((x2 - x1).abs() + (y2 - y1).abs() >= MIN_MARK - 0.01, "{paper} {card}: a mark too short");
                for (x, y) in [(x1, y1), (x2, y2)] {
                    let space = g.space();
                    let (m, w, h) = (g.margin - 0.001, space.w + 0.001, space.h + 0.001);
                    assert!(
                        (m..=w - m).contains(&x) && (m..=h - m).contains(&y),
                        "{paper} {card}: {x},{y} in the margin"
                    );
                    let inside = x > bx + 0.01 && x < bx + bw - 0.01 && y > by + 0.01 && y < by + bh - 0.01;
                    assert!(!inside, "a mark at {x},{y} is on a card");
                }
            }
        }
        // 4 column edges and 4 row edges, marked at both ends.
        assert_eq!(grid("a4", "poker", 0.0).cut_marks().len(), 16);
        // With bleed every card has lines of its own: 8 column edges and 4
        // row edges of a turned 4 × 2 grid, marked at both ends.
        assert_eq!(grid("a4", "poker", 3.0).cut_marks().len(), 24);
    }

    #[test]
    fn moved_marks_are_cut_back_at_the_margin() {
        let g = grid("a4", "poker", 0.0);
        assert_eq!(g.cut_marks_moved((0.0, 0.0)), g.cut_marks());
        for offset in [(3.0, 0.0), (-3.0, 2.0), (0.0, -10.0)] {
            let marks = g.cut_marks_moved(offset);
            assert!(marks.len() >= g.cut_marks().len() / 2, "{offset:?}: {marks:?}");
            for (x1, y1, x2, y2) in marks {
                for (x, y) in [(x1, y1), (x2, y2)] {
                    assert!((5.0..=205.0).contains(&x) && (5.0..=292.0).contains(&y), "{offset:?}: {x},{y}");
                }
            }
        }
    }

    #[test]
    fn points_are_millimetres_at_72_per_inch() {
        assert!((pt(210.0) - 595.28).abs() < 0.01 && (pt(297.0) - 841.89).abs() < 0.01);
    }
}
