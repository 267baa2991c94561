//! PDF sheets with krilla: cards at their exact size on a grid computed from
//! paper, card and bleed ([`super::sheet`]), upright or turned a quarter on
//! the paper (whichever holds more), one section of sheets per card size,
//! cut marks in the margins, trim
//! and bleed boxes, and (with backs) a backs page after every fronts page
//! laid out for long- or short-edge duplex and moved by the printer's
//! offset, optionally after a calibration sheet.  A face drawn more than
//! once is converted once, into a PDF form XObject that every copy of it
//! draws: a back shared by a thousand cards is written, and paid for, once.

use super::sheet::{pt, Duplex, Grid, Side};
use krilla::geom::{PathBuilder, Rect, Size, Transform};
use krilla::graphic::Graphic;
use krilla::page::PageSettings;
use krilla::paint::{LineCap, Stroke};
use krilla::Document;
use krilla_svg::{SurfaceExt, SvgSettings};
use resvg::usvg::Tree;
use std::collections::HashMap;

/// One card on the sheets: its front and back trees, which include the
/// bleed around the trimmed face.
pub struct Placed<'a> {
    pub front: &'a Tree,
    pub back: &'a Tree,
}

/// Cards of one size and the grid they are laid out on: a document's
/// sections each start on a page of their own.
pub struct Section<'a> {
    pub cards: Vec<Placed<'a>>,
    pub grid: Grid,
}

/// Cut-mark stroke width, in points (a hairline a printer still shows).
const MARK_WIDTH: f32 = 0.5;

/// How the backs are printed: the way the printer turns the sheet, and how
/// far (x right, y down, in millimetres, as seen on the back) every backs
/// page is moved to make up for the printer's misalignment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Backs {
    pub duplex: Duplex,
    pub offset: (f32, f32),
}

/// Pages the size of the paper drawn whole, before and after the cards:
/// the calibration sheet's two sides, and the checklist.
#[derive(Default)]
pub struct Extra<'a> {
    pub calibration: Option<[&'a Tree; 2]>,
    pub checklist: Vec<&'a Tree>,
}

/// The sheets of each section in turn: fronts pages, each followed by its
/// backs page when `backs` is given, after the calibration sheet's two
/// sides and before the checklist pages when given.  Every section is on
/// paper of the same size.
pub fn write(sections: &[Section], backs: Option<Backs>, extra: &Extra) -> Result<Vec<u8>, String> {
    let mut document = Document::new();
    let paper = sections.first().map(|s| s.grid.paper);
    if let (Some([front, back]), Some(paper)) = (extra.calibration, paper) {
        full_page(&mut document, paper, front, (0.0, 0.0))?;
        full_page(&mut document, paper, back, backs.unwrap_or_default().offset)?;
    }
    let mut graphics = Graphics::default();
    let cards = sections.iter().flat_map(|s| &s.cards);
    let sides = cards.flat_map(|c| std::iter::once(c.front).chain(backs.map(|_| c.back)));
    for tree in sides {
        *graphics.uses.entry(std::ptr::from_ref(tree) as usize).or_default() += 1;
    }
    for Section { cards, grid } in sections {
        let per_page = grid.per_page().max(1);
        let chunks: Vec<&[Placed]> = if cards.is_empty() { vec![&[]] } else { cards.chunks(per_page).collect() };
        for chunk in chunks {
            page(&mut document, chunk, grid, (Side::Front, (0.0, 0.0)), &mut graphics)?;
            if let Some(backs) = backs {
                page(&mut document, chunk, grid, (Side::Back(backs.duplex), backs.offset), &mut graphics)?;
            }
        }
    }
    if let Some(paper) = paper {
        for tree in &extra.checklist {
            full_page(&mut document, paper, tree, (0.0, 0.0))?;
        }
    }
    document.finish().map_err(|e| format!("cannot write the PDF: {e:?}"))
}

/// One card a page, for a print shop: each page the card with its bleed
/// around it, the card its TrimBox and the whole page its BleedBox; with
/// `backs`, each front followed by its back.  Cards are `(card, size)`.
pub fn write_cards<'a>(cards: &[(Placed<'a>, super::sheet::Size)], bleed: f32, backs: bool) -> Result<Vec<u8>, String> {
    let mut document = Document::new();
    let mut graphics = Graphics::default();
    let sides = |card: &Placed<'a>| std::iter::once(card.front).chain(backs.then_some(card.back));
    for (card, _) in cards {
        for tree in sides(card) {
            *graphics.uses.entry(std::ptr::from_ref(tree) as usize).or_default() += 1;
        }
    }
    for (card, size) in cards {
        let (w, h) = (size.w + 2.0 * bleed, size.h + 2.0 * bleed);
        let face = Size::from_wh(pt(w), pt(h)).ok_or("the card has no area")?;
        for tree in sides(card) {
            let settings = PageSettings::from_wh(pt(w), pt(h))
                .ok_or("the card has no area")?
                .with_trim_box(rect((bleed, bleed, size.w, size.h)))
                .with_bleed_box(rect((0.0, 0.0, w, h)));
            let mut page = document.start_page_with(settings);
            let mut surface = page.surface();
            draw_face(&mut surface, tree, face, &mut graphics);
            surface.finish();
            page.finish();
        }
    }
    document.finish().map_err(|e| format!("cannot write the PDF: {e:?}"))
}

/// A page the size of the paper drawn from one tree (a calibration side, a
/// checklist page), moved by `offset` millimetres.
fn full_page(
    document: &mut Document,
    paper: super::sheet::Size,
    tree: &Tree,
    offset: (f32, f32),
) -> Result<(), String> {
    let settings = PageSettings::from_wh(pt(paper.w), pt(paper.h)).ok_or("the paper has no area")?;
    let size = Size::from_wh(pt(paper.w), pt(paper.h)).ok_or("the paper has no area")?;
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    surface.push_transform(&Transform::from_translate(pt(offset.0), pt(offset.1)));
    surface.draw_svg(tree, size, SvgSettings::default());
    surface.pop();
    surface.finish();
    page.finish();
    Ok(())
}

fn rect(b: (f32, f32, f32, f32)) -> Option<Rect> {
    Rect::from_xywh(pt(b.0), pt(b.1), pt(b.2), pt(b.3))
}

/// Faces drawn more than once, converted once: by the address of their tree
/// (the same tree is the same face), how often each is drawn and, once
/// converted, its XObject.  A face drawn once is drawn directly, as an XObject
/// of its own would only add to the file.
#[derive(Default)]
struct Graphics {
    uses: HashMap<usize, usize>,
    converted: HashMap<usize, Graphic>,
}

fn page(
    document: &mut Document,
    cards: &[Placed],
    grid: &Grid,
    (side, offset): (Side, (f32, f32)),
    graphics: &mut Graphics,
) -> Result<(), String> {
    let settings = PageSettings::from_wh(pt(grid.paper.w), pt(grid.paper.h))
        .ok_or("the paper has no area")?
        .with_trim_box(rect(grid.page_rect(grid.trim_box())))
        .with_bleed_box(rect(grid.page_rect(grid.bleed_box())));
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    // Everything is drawn in the grid's layout: a turned grid through a
    // quarter turn, its top edge along the paper's right edge.
    if grid.turned {
        surface.push_transform(&Transform::from_row(0.0, 1.0, -1.0, 0.0, pt(grid.paper.w), 0.0));
    }
    let offset = grid.offset_in_layout(offset);
    // The printer's offset moves everything on a backs page.
    surface.push_transform(&Transform::from_translate(pt(offset.0), pt(offset.1)));
    let face = Size::from_wh(pt(grid.card.w + 2.0 * grid.bleed), pt(grid.card.h + 2.0 * grid.bleed))
        .ok_or("the card has no area")?;
    for (slot, card) in cards.iter().enumerate() {
        let (x, y) = grid.slot(slot, side);
        surface.push_transform(&Transform::from_translate(pt(x - grid.bleed), pt(y - grid.bleed)));
        let tree = if side == Side::Front { card.front } else { card.back };
        draw_face(&mut surface, tree, face, graphics);
        surface.pop();
    }
    // Marks are placed moved already, cut back at the margin.
    surface.pop();
    let mut marks = PathBuilder::new();
    for (x1, y1, x2, y2) in grid.cut_marks_moved(offset) {
        marks.move_to(pt(x1), pt(y1));
        marks.line_to(pt(x2), pt(y2));
    }
    if let Some(path) = marks.finish() {
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke { width: MARK_WIDTH, line_cap: LineCap::Butt, ..Stroke::default() }));
        surface.draw_path(&path);
    }
    if grid.turned {
        surface.pop();
    }
    surface.finish();
    page.finish();
    Ok(())
}

/// One face at the surface's origin: directly when it is drawn once, else
/// through the XObject every copy of it shares.
fn draw_face(surface: &mut krilla::surface::Surface, tree: &Tree, face: Size, graphics: &mut Graphics) {
    let key = std::ptr::from_ref(tree) as usize;
    if graphics.uses.get(&key).is_none_or(|n| *n < 2) {
        surface.draw_svg(tree, face, SvgSettings::default());
        return;
    }
    let graphic = match graphics.converted.get(&key) {
        Some(graphic) => graphic.clone(),
        None => {
            let mut builder = surface.stream_builder();
            let mut drawing = builder.surface();
            drawing.draw_svg(tree, face, SvgSettings::default());
            drawing.finish();
            let graphic = Graphic::new(builder.finish(), false);
            graphics.converted.insert(key, graphic.clone());
            graphic
        }
    };
    surface.draw_graphic(graphic);
}
