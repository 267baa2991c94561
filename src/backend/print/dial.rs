//! What the `dial` template function draws: a card's manoeuvre dial (a
//! `DialView`, `card.dials.0`) as a grid of bearings across by speeds down, each
//! manoeuvre's cell filled with its difficulty's colour and marked with its
//! difficulty's letter, so that it reads in black and white too; a legend
//! under the grid names each mark.

use super::svg::{escape, num};
use crate::ruleset::palette;
use serde_json::Value as Json;

/// Where the grid is drawn, in the face's units.
#[derive(Clone, Copy)]
pub struct Area {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

/// The grid as SVG, and every label it writes (the words the face shows).
pub fn grid_svg(grid: &Json, area: Area, legend: bool) -> (String, Vec<String>) {
    let mut words = Vec::new();
    let svg = draw(grid, area, legend, &mut words);
    (svg, words)
}

/// The most rows and columns drawn: a dial beyond is cut, not shrunk to
/// nothing.
const MOST: usize = 24;

fn draw(grid: &Json, area: Area, legend: bool, words: &mut Vec<String>) -> String {
    let list = |name: &str| grid.get(name).and_then(Json::as_array).map(Vec::as_slice).unwrap_or_default();
    let (bearings, speeds, cells) = (list("bearings"), list("speeds"), list("cells"));
    let (columns, rows) = (bearings.len().min(MOST), speeds.len().min(MOST));
    if columns == 0 || rows == 0 {
        return String::new();
    }
    // A header row, a row per speed and, with a legend, a row for it; a
    // column of speeds, a column per bearing.
    let cell_w = area.w / (columns as f32 + 0.7);
    let cell_h = area.h / (rows as f32 + 1.0 + if legend { 0.9 } else { 0.0 });
    let left = area.x + cell_w * 0.7;
    let top = area.y + cell_h;
    let mut out = String::from("<g>");
    for (column, bearing) in bearings.iter().take(columns).enumerate() {
        let label = bearing.get("display").and_then(Json::as_str).unwrap_or("");
        let cx = left + cell_w * (column as f32 + 0.5);
        out.push_str(&heading(words, label, cx, area.y + cell_h * 0.5, cell_w * 0.96, cell_h * 0.9));
    }
    for (row, speed) in speeds.iter().take(rows).enumerate() {
        let y = top + cell_h * row as f32;
        let speed = speed.as_i64().map(|s| s.to_string()).unwrap_or_default();
        out.push_str(&label_text(
            words,
            &speed,
            area.x + cell_w * 0.35,
            y + cell_h * 0.5,
            cell_w * 0.6,
            cell_h * 0.8,
            "#1b1b1b",
        ));
        let row_cells = cells.get(row).and_then(Json::as_array).map(Vec::as_slice).unwrap_or_default();
        for column in 0..columns {
            let cell = row_cells.get(column).filter(|c| c.is_object());
            out.push_str(&cell_svg(words, cell, left + cell_w * column as f32, y, cell_w, cell_h));
        }
    }
    if legend {
        out.push_str(&legend_svg(
            words,
            list("difficulties"),
            area.x,
            top + cell_h * rows as f32,
            area.w,
            cell_h * 0.9,
        ));
    }
    out.push_str("</g>");
    out
}

/// One cell: a manoeuvre's colour and mark, or an empty grey square.
fn cell_svg(words: &mut Vec<String>, cell: Option<&Json>, x: f32, y: f32, w: f32, h: f32) -> String {
    let inset = (w.min(h) * 0.06).max(0.2);
    let (fill, mark) = match cell {
        Some(cell) => (
            cell.get("colour").and_then(Json::as_str).unwrap_or("#ffffff"),
            cell.get("mark").and_then(Json::as_str).unwrap_or(""),
        ),
        None => ("#eeeeee", ""),
    };
    let stroke = if cell.is_some() { "#1b1b1b" } else { "#cccccc" };
    let mut out = format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
        num(x + inset),
        num(y + inset),
        num(w - 2.0 * inset),
        num(h - 2.0 * inset),
        num(inset * 1.5),
        escape(fill),
        num(inset * 0.8)
    );
    if !mark.is_empty() {
        out.push_str(&label_text(words, mark, x + w / 2.0, y + h / 2.0, w * 0.8, h * 0.7, ink_on(fill)));
    }
    out
}

/// The legend: each difficulty's colour and mark, and its name.
fn legend_svg(words: &mut Vec<String>, difficulties: &[Json], x: f32, y: f32, w: f32, h: f32) -> String {
    let count = difficulties.len().min(MOST);
    if count == 0 {
        return String::new();
    }
    let slot = w / count as f32;
    let mut out = String::new();
    for (i, difficulty) in difficulties.iter().take(count).enumerate() {
        let sx = x + slot * i as f32;
        let side = (h * 0.8).min(slot * 0.3);
        out.push_str(&cell_svg(words, Some(difficulty), sx, y + (h - side) / 2.0, side, side));
        let name = difficulty.get("display").and_then(Json::as_str).unwrap_or("");
        let text_w = slot - side * 1.5;
        out.push_str(&label_text(
            words,
            name,
            sx + side * 1.25 + text_w / 2.0,
            y + h / 2.0,
            text_w,
            h * 0.5,
            "#1b1b1b",
        ));
    }
    out
}

/// A column's heading centred on `(cx, cy)`: on two lines when that prints
/// it larger (`Bank` over `right`).
fn heading(words: &mut Vec<String>, text: &str, cx: f32, cy: f32, w: f32, h: f32) -> String {
    let one_line = h.min(w / (text.chars().count().max(1) as f32 * 0.68));
    let split = text.char_indices().filter(|(_, c)| *c == ' ').min_by_key(|(i, _)| i.abs_diff(text.len() / 2));
    let Some((at, _)) = split else { return label_text(words, text, cx, cy, w, h, "#1b1b1b") };
    let (first, second) = (&text[..at], &text[at + 1..]);
    let longest = first.chars().count().max(second.chars().count()) as f32;
    let two_lines = (h / 2.2).min(w / (longest * 0.68));
    if two_lines <= one_line {
        return label_text(words, text, cx, cy, w, h, "#1b1b1b");
    }
    let half = h / 2.0;
    let top = label_text(words, first, cx, cy - half / 2.0, w, two_lines, "#1b1b1b");
    top + &label_text(words, second, cx, cy + half / 2.0, w, two_lines, "#1b1b1b")
}

/// A short label centred on `(cx, cy)`, in a size that fits `w` by `h`;
/// its words count as shown on the face.
fn label_text(words: &mut Vec<String>, text: &str, cx: f32, cy: f32, w: f32, h: f32, fill: &str) -> String {
    words.push(text.to_string());
    let chars = text.chars().count().max(1) as f32;
    // Bold capitals and digits are about 0.68 of the size wide.
    let size = h.min(w / (chars * 0.68)).max(0.5);
    // The baseline a little under the middle: capitals sit centred.
    format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
        num(cx),
        num(cy + size * 0.35),
        num(size),
        escape(fill),
        escape(text)
    )
}

/// Black on a light colour, white on a dark one.
fn ink_on(fill: &str) -> &'static str {
    match palette::luminance(fill) {
        Some(l) if l < 0.35 => "#ffffff",
        _ => "#1b1b1b",
    }
}
