//! Text layout before rendering: rich text (runs of regular, bold and italic
//! text, inline icons and initiative badges) is wrapped to a box, shrunk
//! step by step down to a minimum size until it fits, and emitted as SVG
//! with every line and run positioned explicitly.  Widths come from shaping
//! with the bundled fonts, or the project font the box is set in
//! ([`super::fonts`]), so what is measured here is what usvg and a browser
//! draw.

use super::fonts::{self, Style};
use super::svg::{escape, num};

/// One piece of rich text.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Text {
        text: String,
        style: Style,
        colour: Option<String>,
    },
    /// An icon by id, one em wide.
    Icon {
        id: String,
        colour: Option<String>,
    },
    /// A filled pill with short white text (an initiative step); `small` is
    /// drawn smaller after it (a priority digit).
    Badge {
        text: String,
        small: Option<String>,
        fill: String,
    },
}

/// A paragraph: pieces laid out one after another, wrapping at spaces.
pub type Paragraph = Vec<Piece>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Start,
    Middle,
    End,
}

/// Where and how to set the text.
#[derive(Clone, Debug)]
pub struct BoxSpec {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    /// The preferred font size, in the SVG's units.
    pub size: f32,
    /// The smallest size the text may shrink to.
    pub min_size: f32,
    /// Line height as a multiple of the size.
    pub line_height: f32,
    pub align: Align,
    pub valign: Align,
    /// The default text colour.
    pub fill: String,
}

/// The result: SVG markup, the size used, and whether everything fit.
#[derive(Clone, Debug)]
pub struct Laid {
    pub svg: String,
    pub size: f32,
    pub fits: bool,
    pub lines: usize,
    /// Where the text landed (nothing when there is none): what another
    /// text region must not cover and what must stay on the card.
    pub extent: Option<Rect>,
}

/// A rectangle in the SVG's units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    /// Whether the two overlap by more than `slack` in both directions.
    pub fn overlaps(&self, other: &Rect, slack: f32) -> bool {
        let across = self.x.max(other.x) + slack < (self.x + self.w).min(other.x + other.w);
        let down = self.y.max(other.y) + slack < (self.y + self.h).min(other.y + other.h);
        across && down
    }

    /// Whether it lies inside `outer`, give or take `slack`.
    pub fn within(&self, outer: &Rect, slack: f32) -> bool {
        self.x + slack >= outer.x
            && self.y + slack >= outer.y
            && self.x + self.w <= outer.x + outer.w + slack
            && self.y + self.h <= outer.y + outer.h + slack
    }
}

/// How much smaller the size gets at each try.
const STEP: f32 = 0.25;
/// At most this many tries, however far apart the size and the minimum.
const MAX_STEPS: f32 = 64.0;
/// The largest text size honoured, in the SVG's units (a card is about 180
/// wide): anything larger is a slip in a template.
const MAX_SIZE: f32 = 1000.0;
/// The gap between paragraphs, in lines.
const PARAGRAPH_GAP: f32 = 0.35;
/// Icons are drawn this many ems wide.
const ICON_EMS: f32 = 1.0;
/// Badge text size, in ems of the surrounding text.
const BADGE_EMS: f32 = 0.85;
/// The type size, in points, under which badge text does not shrink with
/// its box unless the text around it does: the smallest that prints.
const BADGE_FLOOR: f32 = 6.0;

/// An unbreakable unit: one word, possibly several pieces glued together
/// (`{damage}.` is an icon and a full stop).
#[derive(Clone, Debug)]
struct Word {
    atoms: Vec<Atom>,
    /// Width in ems.
    width: f32,
    /// Whether a space precedes it.
    space_before: bool,
    /// Whether the line may not break before it: an icon after its number
    /// (`3 {damage}`) stays on the number's line.
    keep_with_previous: bool,
    /// A forced line break (a newline in the text), with no atoms.
    newline: bool,
}

#[derive(Clone, Debug)]
struct Atom {
    piece: Piece,
    width: f32,
}

/// Sets `paragraphs` in the box, shrinking as needed.
pub fn lay_out(paragraphs: &[Paragraph], spec: &BoxSpec) -> Laid {
    let words: Vec<Vec<Word>> = paragraphs.iter().map(words).filter(|w| !w.is_empty()).collect();
    // Sizes come from templates, which a project may write: one that is not a
    // number, or absurdly large, must not stall the shrinking below.
    let sane = |v: f32, fallback: f32| if v.is_finite() { v.clamp(0.5, MAX_SIZE) } else { fallback };
    let mut size = sane(spec.size, 10.0);
    let min = sane(spec.min_size, 0.5).min(size);
    let step = STEP.max((size - min) / MAX_STEPS);
    loop {
        let lines = wrap(&words, spec.w / size);
        let height = block_height(&lines, size, spec.line_height);
        let too_wide = lines.iter().any(|l| l.width * size > spec.w + 0.01);
        if (height <= spec.h + 0.01 && !too_wide) || size <= min {
            let fits = height <= spec.h + 0.01 && !too_wide;
            let lines = if fits { lines } else { truncate(lines, size, spec) };
            let count = lines.len();
            let svg = emit(&lines, size, spec);
            let extent = extent(&lines, size, spec);
            return Laid { svg, size, fits, lines: count, extent };
        }
        size = (size - step).max(min);
    }
}

#[derive(Clone, Debug, Default)]
struct Line {
    words: Vec<Word>,
    width: f32,
    /// The first line of a paragraph after the first.
    gap_before: bool,
}

fn words(paragraph: &Paragraph) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    let mut current: Option<Word> = None;
    let mut pending_space = false;
    let finish = |current: &mut Option<Word>, words: &mut Vec<Word>| {
        if let Some(word) = current.take() {
            words.push(word);
        }
    };
    for piece in paragraph {
        match piece {
            Piece::Text { text, style, colour } => {
                let mut rest = text.as_str();
                while !rest.is_empty() {
                    if rest.starts_with(char::is_whitespace) {
                        finish(&mut current, &mut words);
                        let end = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
                        if rest[..end].contains('\n') {
                            words.push(Word {
                                atoms: Vec::new(),
                                width: 0.0,
                                space_before: false,
                                keep_with_previous: false,
                                newline: true,
                            });
                            pending_space = false;
                        } else {
                            pending_space = true;
                        }
                        rest = &rest[end..];
                        continue;
                    }
                    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                    let (chunk, tail) = rest.split_at(end);
                    let atom = Atom {
                        piece: Piece::Text { text: chunk.to_string(), style: *style, colour: colour.clone() },
                        width: fonts::width(chunk, *style),
                    };
                    push_atom(&mut current, &mut words, atom, &mut pending_space);
                    rest = tail;
                }
            }
            Piece::Icon { .. } => {
                let atom = Atom { piece: piece.clone(), width: ICON_EMS };
                push_atom(&mut current, &mut words, atom, &mut pending_space);
            }
            Piece::Badge { text, small, .. } => {
                let mut width = fonts::width(text, Style::Bold) * BADGE_EMS + 0.5;
                if let Some(small) = small {
                    width += fonts::width(small, Style::Bold) * BADGE_EMS * 0.7 + 0.1;
                }
                let atom = Atom { piece: piece.clone(), width };
                // A badge stands apart from what follows.
                finish(&mut current, &mut words);
                push_atom(&mut current, &mut words, atom, &mut pending_space);
                finish(&mut current, &mut words);
                pending_space = true;
            }
        }
    }
    finish(&mut current, &mut words);
    words
}

fn push_atom(current: &mut Option<Word>, words: &mut Vec<Word>, atom: Atom, pending_space: &mut bool) {
    if let (Some(word), false) = (current.as_mut(), *pending_space) {
        word.width += atom.width;
        word.atoms.push(atom);
        return;
    }
    if let Some(word) = current.take() {
        words.push(word);
    }
    let space_before = *pending_space && !words.is_empty();
    let keep_with_previous =
        matches!(atom.piece, Piece::Icon { .. }) && space_before && words.last().is_some_and(ends_with_number);
    *current = Some(Word { width: atom.width, atoms: vec![atom], space_before, keep_with_previous, newline: false });
    *pending_space = false;
}

/// Whether a word is a number, as an amount before its icon is: `3`, `+2`,
/// `-1`, `3+`, `X`.
fn ends_with_number(word: &Word) -> bool {
    match word.atoms.last().map(|a| &a.piece) {
        Some(Piece::Text { text, .. }) => {
            let core = text.trim_matches(|c| matches!(c, '+' | '-' | '(' | ')'));
            !core.is_empty() && (core.bytes().all(|b| b.is_ascii_digit()) || core == "X")
        }
        _ => false,
    }
}

/// Greedy wrapping to `width` ems.
fn wrap(paragraphs: &[Vec<Word>], width: f32) -> Vec<Line> {
    let mut lines = Vec::new();
    for (index, words) in paragraphs.iter().enumerate() {
        let mut line = Line { gap_before: index > 0, ..Line::default() };
        for word in words {
            if word.newline {
                if !line.words.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                continue;
            }
            let space = if line.words.is_empty() { 0.0 } else { space_width(word) };
            if !line.words.is_empty() && line.width + space + word.width > width {
                // An icon carries its number with it to the next line.
                let carried = (word.keep_with_previous && line.words.len() > 1).then(|| line.words.pop()).flatten();
                if let Some(number) = &carried {
                    line.width -= number.width + space_width(number);
                }
                lines.push(std::mem::take(&mut line));
                if let Some(number) = carried {
                    line.width = number.width + space_width(word);
                    line.words.push(number);
                }
                line.width += word.width;
                line.words.push(word.clone());
            } else {
                line.width += space + word.width;
                line.words.push(word.clone());
            }
        }
        if !line.words.is_empty() {
            lines.push(line);
        }
    }
    lines
}

fn space_width(word: &Word) -> f32 {
    let style = match word.atoms.first().map(|a| &a.piece) {
        Some(Piece::Text { style, .. }) => *style,
        _ => Style::Regular,
    };
    fonts::width(" ", style)
}

fn block_height(lines: &[Line], size: f32, line_height: f32) -> f32 {
    let gaps = lines.iter().filter(|l| l.gap_before).count() as f32;
    if lines.is_empty() {
        return 0.0;
    }
    // The last line needs only its ascent and descent, not a full leading.
    (lines.len() as f32 - 1.0 + gaps * PARAGRAPH_GAP) * size * line_height + size * 1.2
}

/// Keeps the lines that fit and ends the last with an ellipsis.
/// Cuts a word's text to at most `width` ems, keeping its first atoms.
fn clip(word: &mut Word, width: f32) {
    if word.width <= width {
        return;
    }
    let mut kept = 0.0;
    let mut atoms = Vec::new();
    for mut atom in std::mem::take(&mut word.atoms) {
        if kept + atom.width <= width {
            kept += atom.width;
            atoms.push(atom);
            continue;
        }
        if let Piece::Text { text, style, .. } = &mut atom.piece {
            // Proportionally first, then a character at a time.
            let share = ((width - kept) / atom.width).clamp(0.0, 1.0);
            let mut end = text.char_indices().nth((text.chars().count() as f32 * share) as usize).map_or(0, |(i, _)| i);
            while end > 0 && fonts::width(&text[..end], *style) > width - kept {
                end = text[..end].char_indices().next_back().map_or(0, |(i, _)| i);
            }
            text.truncate(end);
            atom.width = fonts::width(text, *style);
            kept += atom.width;
            atoms.push(atom);
        }
        break;
    }
    word.atoms = atoms;
    word.width = kept;
}

fn truncate(mut lines: Vec<Line>, size: f32, spec: &BoxSpec) -> Vec<Line> {
    while lines.len() > 1 && block_height(&lines, size, spec.line_height) > spec.h + 0.01 {
        lines.pop();
    }
    if let Some(last) = lines.last_mut() {
        let ellipsis = Atom {
            piece: Piece::Text { text: "…".into(), style: Style::Regular, colour: None },
            width: fonts::width("…", Style::Regular),
        };
        while last.words.len() > 1 && (last.width + ellipsis.width) * size > spec.w {
            if let Some(word) = last.words.pop() {
                last.width -= word.width + if word.space_before { fonts::width(" ", Style::Regular) } else { 0.0 };
            }
        }
        // One word wider than the box (a name of thousands of letters) is cut
        // to the box, so no face carries more text than it can show.
        if let [word] = last.words.as_mut_slice() {
            clip(word, (spec.w / size - ellipsis.width).max(0.0));
            last.width = word.width;
        }
        last.width += ellipsis.width;
        last.words.push(Word {
            width: ellipsis.width,
            atoms: vec![ellipsis],
            space_before: false,
            keep_with_previous: false,
            newline: false,
        });
    }
    lines
}

/// The top of the text block, as the box's vertical alignment places it.
fn block_top(height: f32, spec: &BoxSpec) -> f32 {
    match spec.valign {
        Align::Start => spec.y,
        Align::Middle => spec.y + (spec.h - height) / 2.0,
        Align::End => spec.y + spec.h - height,
    }
}

/// Where a line of `width` starts, as the box's alignment places it.
fn line_start(width: f32, spec: &BoxSpec) -> f32 {
    match spec.align {
        Align::Start => spec.x,
        Align::Middle => spec.x + (spec.w - width) / 2.0,
        Align::End => spec.x + spec.w - width,
    }
}

/// The rectangle the laid lines cover.
fn extent(lines: &[Line], size: f32, spec: &BoxSpec) -> Option<Rect> {
    let widest =
        lines.iter().map(|l| l.width * size).fold(None, |m: Option<f32>, w| Some(m.map_or(w, |m| m.max(w))))?;
    let height = block_height(lines, size, spec.line_height);
    let left = lines.iter().map(|l| line_start(l.width * size, spec)).fold(f32::MAX, f32::min);
    Some(Rect { x: left, y: block_top(height, spec), w: widest, h: height })
}

fn emit(lines: &[Line], size: f32, spec: &BoxSpec) -> String {
    let height = block_height(lines, size, spec.line_height);
    let top = block_top(height, spec);
    let mut out = String::new();
    let mut baseline = top + size * 0.93;
    for (index, line) in lines.iter().enumerate() {
        if index > 0 {
            baseline += size * spec.line_height * if line.gap_before { 1.0 + PARAGRAPH_GAP } else { 1.0 };
        }
        let mut x = line_start(line.width * size, spec);
        let mut run = Run::default();
        for (position, word) in line.words.iter().enumerate() {
            let space = if position == 0 { 0.0 } else { space_width(word) * size };
            for (atom_index, atom) in word.atoms.iter().enumerate() {
                let glue = if atom_index == 0 && position > 0 { Some(space) } else { None };
                match &atom.piece {
                    Piece::Text { text, style, colour } => {
                        let colour = colour.as_deref().unwrap_or(&spec.fill);
                        if !run.continues(*style, colour) {
                            run.flush(&mut out, size, baseline);
                            x += glue.unwrap_or(0.0);
                            run.start(x, *style, colour);
                        } else if glue.is_some() {
                            run.text.push(' ');
                            x += glue.unwrap_or(0.0);
                        }
                        run.text.push_str(text);
                    }
                    other => {
                        run.flush(&mut out, size, baseline);
                        x += glue.unwrap_or(0.0);
                        draw_inline(other, x, baseline, size, &spec.fill, &mut out);
                    }
                }
                x += atom.width * size;
            }
        }
        run.flush(&mut out, size, baseline);
    }
    out
}

/// Consecutive text of one face and colour, drawn as one `<text>`.
#[derive(Default)]
struct Run {
    x: f32,
    style: Option<Style>,
    colour: String,
    text: String,
}

impl Run {
    fn continues(&self, style: Style, colour: &str) -> bool {
        self.style == Some(style) && self.colour == colour && !self.text.is_empty()
    }

    fn start(&mut self, x: f32, style: Style, colour: &str) {
        self.x = x;
        self.style = Some(style);
        self.colour = colour.to_string();
        self.text.clear();
    }

    fn flush(&mut self, out: &mut String, size: f32, baseline: f32) {
        let Some(style) = self.style.take() else { return };
        if self.text.is_empty() {
            return;
        }
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\"{} fill=\"{}\">{}</text>",
            num(self.x),
            num(baseline),
            num(size),
            style.svg_attributes(),
            escape(&self.colour),
            escape(&self.text)
        ));
        self.text.clear();
    }
}

fn draw_inline(piece: &Piece, x: f32, baseline: f32, size: f32, fill: &str, out: &mut String) {
    match piece {
        Piece::Icon { id, colour } => {
            let colour = colour.as_deref().unwrap_or(fill);
            let top = baseline - size * 0.82;
            out.push_str(&super::icons::draw(id, x + size * 0.04, top, size * 0.92, colour));
        }
        Piece::Badge { text, small, fill: badge } => {
            // Never under the 6 pt floor while the text around it is not:
            // a badge in 6 pt text has its text at 6 pt, filling the pill a
            // little more (its measured width keeps a tenth of an em spare).
            let floor = size.min(BADGE_FLOOR);
            let text_size = (size * BADGE_EMS).max(floor);
            let main = fonts::width(text, Style::Bold) * text_size;
            let extra = small.as_ref().map(|s| fonts::width(s, Style::Bold) * text_size * 0.7 + size * 0.1);
            let width = main + extra.unwrap_or(0.0) + size * 0.4;
            let top = baseline - size * 0.9;
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\"/>",
                num(x),
                num(top),
                num(width),
                num(size * 1.12),
                num(size * 0.3),
                escape(badge)
            ));
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"#fff\">{}</text>",
                num(x + size * 0.2),
                num(baseline - size * 0.04),
                num(text_size),
                escape(text)
            ));
            if let Some(small) = small {
                out.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"#fff\">{}</text>",
                    num(x + size * 0.3 + main),
                    num(baseline - size * 0.04),
                    num((text_size * 0.7).max(floor)),
                    escape(small)
                ));
            }
        }
        Piece::Text { .. } => {}
    }
}

#[cfg(test)]
mod tests;
