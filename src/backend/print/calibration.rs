//! The calibration sheet: two sides that show how far a duplex printer
//! puts the back of a sheet from where it should be.
//!
//! The front has crosses; the back has, behind each cross (wherever the
//! duplex turn puts it), a pair of millimetre rulers whose zero is where the
//! cross should show through.  Held to the light, the front's cross shows
//! through on the rulers at the printer's misalignment, read directly as the
//! `--offset` to add.  Both sides frame the margin, so a printer that clips
//! closer to the edge shows it too, and the front carries a 100 mm scale
//! to check that the sheet was printed at actual size.

use super::sheet::{Duplex, Size};
use super::svg::{escape, num};
use std::fmt::Write;

/// How far the rulers reach either side of zero, in millimetres.
const REACH: i32 = 10;

/// Where the crosses go, as fractions of the paper: a set that both duplex
/// turns map onto itself, so every cross has rulers behind it.
const POINTS: [(f32, f32); 5] = [(0.5, 0.5), (0.25, 0.2), (0.75, 0.2), (0.25, 0.8), (0.75, 0.8)];

/// The front and the back of the calibration sheet, as SVG in millimetres.
pub fn sides(paper: Size, margin: f32, duplex: Duplex, font: &str) -> [String; 2] {
    let points: Vec<(f32, f32)> = POINTS.iter().map(|(x, y)| (x * paper.w, y * paper.h)).collect();
    let mut front = open(paper, margin, font, "front: print this sheet double-sided, then hold it to the light");
    for (x, y) in &points {
        cross(&mut front, *x, *y);
    }
    scale(&mut front, margin);
    let mut back = open(paper, margin, font, "back: the number where the cross shows through is the offset to add");
    for point in &points {
        let (x, y) = duplex.behind(paper, *point);
        rulers(&mut back, x, y);
    }
    let turn = match duplex {
        Duplex::Long => "long-edge duplex (--duplex long)",
        Duplex::Short => "short-edge duplex (--duplex short)",
    };
    let _ = write!(
        back,
        "<text x=\"{}\" y=\"{}\" font-size=\"3\" text-anchor=\"middle\">{}</text>",
        num(paper.w / 2.0),
        num(paper.h * 0.35),
        escape(&format!("printed for {turn}: add the reading to --offset X,Y (mm, x right, y down)")),
    );
    [close(front), close(back)]
}

fn open(paper: Size, margin: f32, font: &str, title: &str) -> String {
    let (w, h) = (num(paper.w), num(paper.h));
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"{}\" fill=\"#000\">",
        escape(font)
    );
    // The margin: nothing of the cards is printed outside this line.
    let _ = write!(
        svg,
        "<rect x=\"{m}\" y=\"{m}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000\" \
         stroke-width=\"0.2\" stroke-dasharray=\"2 1\"/>",
        num(paper.w - 2.0 * margin),
        num(paper.h - 2.0 * margin),
        m = num(margin),
    );
    let _ = write!(
        svg,
        "<text x=\"{}\" y=\"{}\" font-size=\"4\" font-weight=\"bold\" text-anchor=\"middle\">cardsmith \
         calibration</text><text x=\"{}\" y=\"{}\" font-size=\"3\" text-anchor=\"middle\">{}</text>",
        num(paper.w / 2.0),
        num(margin + 12.0),
        num(paper.w / 2.0),
        num(margin + 17.0),
        escape(title),
    );
    svg
}

fn close(mut svg: String) -> String {
    svg.push_str("</svg>");
    svg
}

/// A cross with a circle, 20 mm across.
fn cross(svg: &mut String, x: f32, y: f32) {
    let _ = write!(
        svg,
        "<g stroke=\"#000\" stroke-width=\"0.25\" fill=\"none\"><path d=\"M{} {}H{}M{} {}V{}\"/>\
         <circle cx=\"{}\" cy=\"{}\" r=\"3\"/></g>",
        num(x - 10.0),
        num(y),
        num(x + 10.0),
        num(x),
        num(y - 10.0),
        num(y + 10.0),
        num(x),
        num(y),
    );
}

/// Millimetre rulers across and down through (x, y), numbered every 5 mm
/// from -REACH to REACH: the tick at `n` lies `n` mm right of (or below) the
/// point.
fn rulers(svg: &mut String, x: f32, y: f32) {
    let mut ticks = String::new();
    let mut labels = String::new();
    for n in -REACH..=REACH {
        let long = n % 5 == 0;
        let length = if long { 3.0 } else { 1.5 };
        let at = n as f32;
        let _ = write!(ticks, "M{} {}v{}", num(x + at), num(y - length), num(2.0 * length));
        let _ = write!(ticks, "M{} {}h{}", num(x - length), num(y + at), num(2.0 * length));
        if long && n != 0 {
            let _ = write!(
                labels,
                "<text x=\"{}\" y=\"{}\" font-size=\"2\" text-anchor=\"middle\">{n}</text>\
                 <text x=\"{}\" y=\"{}\" font-size=\"2\">{n}</text>",
                num(x + at),
                num(y - 4.0),
                num(x + 4.0),
                num(y + at + 0.7),
            );
        }
    }
    let _ = write!(
        svg,
        "<path d=\"M{} {}h{}M{} {}v{}{ticks}\" stroke=\"#000\" stroke-width=\"0.15\" fill=\"none\"/>{labels}",
        num(x - REACH as f32),
        num(y),
        num(2.0 * REACH as f32),
        num(x),
        num(y - REACH as f32),
        num(2.0 * REACH as f32),
    );
}

/// A 100 mm scale inside the margin at the top left: measured with a
/// ruler, it shows whether the sheet was printed at actual size.
fn scale(svg: &mut String, margin: f32) {
    let (x, y) = (margin + 10.0, margin + 30.0);
    let mut d = format!("M{} {}h100", num(x), num(y));
    for n in 0..=10 {
        let _ = write!(d, "M{} {}v{}", num(x + 10.0 * n as f32), num(y - 2.0), if n % 5 == 0 { 4 } else { 2 });
    }
    let _ = write!(
        svg,
        "<path d=\"{d}\" stroke=\"#000\" stroke-width=\"0.2\" fill=\"none\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"2.5\">100 mm: measure it to check the sheet printed at actual size</text>",
        num(x),
        num(y + 5.0),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rulers_lie_behind_every_cross_for_both_turns() {
        let paper = Size { w: 210.0, h: 297.0 };
        for duplex in [Duplex::Long, Duplex::Short] {
            let [front, back] = sides(paper, 5.0, duplex, "DejaVu Sans");
            for (fx, fy) in POINTS {
                let (x, y) = duplex.behind(paper, (fx * paper.w, fy * paper.h));
                // The ruler through the point, from -10 to +10 mm.
                assert!(back.contains(&format!("M{} {}h20", num(x - 10.0), num(y))), "{duplex:?} {x},{y}");
                assert!(front.contains(&format!("<circle cx=\"{}\" cy=\"{}\"", num(fx * paper.w), num(fy * paper.h))));
            }
            for side in [&front, &back] {
                let options = crate::backend::print::svg::options();
                assert!(resvg::usvg::Tree::from_str(side, &options).is_ok(), "{side}");
            }
        }
    }
}
