//! PDF sheets with krilla: cards at their exact size on a grid computed from
//! paper, card and bleed ([`super::sheet`]), cut marks in the margins, trim
//! and bleed boxes, and (with backs) a backs page after every fronts page
//! with its columns mirrored for long-edge duplex.  A face drawn more than
//! once is converted once, into a PDF form XObject that every copy of it
//! draws: a back shared by a thousand cards is written, and paid for, once.

use super::sheet::{pt, Grid};
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

/// Cut-mark stroke width, in points (a hairline a printer still shows).
const MARK_WIDTH: f32 = 0.5;

pub fn write(cards: &[Placed], grid: &Grid, backs: bool) -> Result<Vec<u8>, String> {
    let mut document = Document::new();
    let per_page = grid.per_page().max(1);
    let chunks: Vec<&[Placed]> = if cards.is_empty() { vec![&[]] } else { cards.chunks(per_page).collect() };
    let mut graphics = Graphics::default();
    let sides = cards.iter().flat_map(|c| std::iter::once(c.front).chain(backs.then_some(c.back)));
    for tree in sides {
        *graphics.uses.entry(std::ptr::from_ref(tree) as usize).or_default() += 1;
    }
    for chunk in chunks {
        page(&mut document, chunk, grid, false, &mut graphics)?;
        if backs {
            page(&mut document, chunk, grid, true, &mut graphics)?;
        }
    }
    document.finish().map_err(|e| format!("cannot write the PDF: {e:?}"))
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
    backs: bool,
    graphics: &mut Graphics,
) -> Result<(), String> {
    let settings = PageSettings::from_wh(pt(grid.paper.w), pt(grid.paper.h))
        .ok_or("the paper has no area")?
        .with_trim_box(rect(grid.trim_box()))
        .with_bleed_box(rect(grid.bleed_box()));
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    let face = Size::from_wh(pt(grid.card.w + 2.0 * grid.bleed), pt(grid.card.h + 2.0 * grid.bleed))
        .ok_or("the card has no area")?;
    for (slot, card) in cards.iter().enumerate() {
        let (x, y) = grid.slot(slot, backs);
        surface.push_transform(&Transform::from_translate(pt(x - grid.bleed), pt(y - grid.bleed)));
        let tree = if backs { card.back } else { card.front };
        let key = std::ptr::from_ref(tree) as usize;
        if graphics.uses.get(&key).is_none_or(|n| *n < 2) {
            surface.draw_svg(tree, face, SvgSettings::default());
        } else {
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
        surface.pop();
    }
    let mut marks = PathBuilder::new();
    for (x1, y1, x2, y2) in grid.cut_marks() {
        marks.move_to(pt(x1), pt(y1));
        marks.line_to(pt(x2), pt(y2));
    }
    if let Some(path) = marks.finish() {
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke { width: MARK_WIDTH, line_cap: LineCap::Butt, ..Stroke::default() }));
        surface.draw_path(&path);
    }
    surface.finish();
    page.finish();
    Ok(())
}
