//! The checklist that ends a game's PDF: every card printed once with the
//! number of copies its deck holds, so that the count is read off a list
//! rather than printed on each face (`--copies-on-face` puts it there
//! instead).  Pages are SVG in millimetres, the size of the paper, with
//! nothing in its margin.

use super::sheet::Size;
use super::svg::{escape, num};
use std::fmt::Write;

/// A column's width and a line's height, in millimetres.
const COLUMN: f32 = 90.0;
const LINE: f32 = 5.5;
/// The room the title takes above the list, in millimetres.
const HEADING: f32 = 14.0;

/// The checklist pages for `entries` (a card's name and its copies, in
/// print order), each page a title and columns of `×N  name` lines.
pub fn pages(title: &str, entries: &[(&str, i64)], paper: Size, margin: f32, font: &str) -> Vec<String> {
    let columns = ((paper.w - 2.0 * margin) / COLUMN).floor().max(1.0) as usize;
    let column_w = (paper.w - 2.0 * margin) / columns as f32;
    let lines = ((paper.h - 2.0 * margin - HEADING) / LINE).floor().max(1.0) as usize;
    let total: i64 = entries.iter().map(|(_, n)| *n).sum();
    entries
        .chunks(columns * lines)
        .enumerate()
        .map(|(number, chunk)| {
            let (w, h) = (num(paper.w), num(paper.h));
            let mut svg = format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\" \
                 font-family=\"{}\" fill=\"#000\">",
                escape(font)
            );
            let heading = format!("{title}: copies of each card ({} cards, {total} copies)", entries.len());
            let page = if number > 0 { format!(", continued ({})", number + 1) } else { String::new() };
            let _ = write!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"5\" font-weight=\"bold\">{}</text>",
                num(margin),
                num(margin + 6.0),
                escape(&format!("{heading}{page}")),
            );
            for (i, (name, copies)) in chunk.iter().enumerate() {
                let (column, line) = (i / lines, i % lines);
                let x = margin + column as f32 * column_w;
                let y = margin + HEADING + (line as f32 + 1.0) * LINE - 1.5;
                // A name longer than its column is cut at the next column.
                let _ = write!(
                    svg,
                    "<svg x=\"{}\" y=\"{}\" width=\"{}\" height=\"{LINE}\" overflow=\"hidden\">\
                     <text x=\"10\" y=\"{}\" font-size=\"3.5\" font-weight=\"bold\" text-anchor=\"end\">×{copies}</text>\
                     <text x=\"13\" y=\"{}\" font-size=\"3.5\">{}</text></svg>",
                    num(x),
                    num(y - LINE + 1.5),
                    num(column_w - 2.0),
                    num(LINE - 1.5),
                    num(LINE - 1.5),
                    escape(name),
                );
            }
            svg.push_str("</svg>");
            svg
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const A4: Size = Size { w: 210.0, h: 297.0 };

    #[test]
    fn every_card_is_listed_once_with_its_copies() {
        let entries = [("Lantern <Bright>", 2), ("Old Map", 1)];
        let pages = pages("my-game", &entries, A4, 5.0, "DejaVu Sans Condensed");
        assert_eq!(pages.len(), 1);
        assert!(pages[0].contains("2 cards, 3 copies"), "{}", pages[0]);
        assert!(pages[0].contains(">×2</text>") && pages[0].contains("Lantern &lt;Bright&gt;"), "{}", pages[0]);
        assert!(pages[0].contains(">×1</text>"));
        let usvg = super::super::svg::options();
        super::super::svg::parse(&pages[0], &usvg).expect("a checklist page is valid SVG");
    }

    #[test]
    fn long_lists_go_on_as_many_pages_as_they_need() {
        let names: Vec<String> = (0..200).map(|i| format!("card {i}")).collect();
        let entries: Vec<(&str, i64)> = names.iter().map(|n| (n.as_str(), 1)).collect();
        // Two columns of 49 lines on A4.
        let pages = pages("g", &entries, A4, 5.0, "f");
        assert_eq!(pages.len(), 3);
        assert!(pages[2].contains("continued (3)") && pages[2].contains("card 199"));
        assert!(!pages[1].contains(">card 199<"));
    }
}
