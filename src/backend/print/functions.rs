//! The drawing functions templates call: `text_box` (rich text laid out in a
//! box, shrunk to fit), `measure` (the height text takes), `icon`, `arc` (a firing-arc diagram from sectors in
//! degrees, or from the angles of a field's arcs), `hexes` (a movement grid), `dial` (a manoeuvre dial, in
//! [`super::dial`]) and `art_panel` (a card's artwork).  They return SVG markup that
//! tera inserts unescaped; every piece of card text in it is escaped here.
//!
//! A card's own text reaches them typed: templates pass its handles
//! (`{"rich": N}`, see [`super::rich`]) and the functions read the runs
//! from the table of the card being drawn, with where each is written, so
//! that a box that does not fit is reported at the text it holds.

use super::codes;
use super::icons;
use super::layout::{self, Align, BoxSpec, Paragraph, Piece, Rect};
use super::rich::{self, Table};
use super::svg::{escape, num};
use super::view::colour;
use crate::backend::print::fonts::{self, Style};
use crate::diagnostics::Diagnostic;
use crate::ir::{Body, Field, Value as IrValue};
use crate::source::Span;
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use tera::{Function, Result, Tera, Value};

/// A text region that will not print well, reported against the card being
/// rendered.
#[derive(Clone, Debug, PartialEq)]
pub struct Overflow {
    /// What the template called the box (`what="rules text"`).
    pub what: String,
    pub problem: Problem,
    /// Where the box's text is written, when it all comes from one value
    /// or one field of the card.
    pub span: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// It does not fit even at the template's smallest size.
    DoesNotFit { min_size: f32 },
    /// It fits only at a size below the minimum type size.
    TooSmall { size: f32, min_text: f32 },
    /// It runs off the card.
    OffCard,
    /// It covers the text of another region.
    Covers { other: String },
    /// It holds characters the fonts have no glyph for.
    NoGlyph { chars: Vec<char> },
}

/// The face being drawn: its size in the SVG's units (points) and the
/// smallest type size that prints legibly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub w: f32,
    pub h: f32,
    pub min_text: f32,
}

/// How far two regions may overlap, or one run past the card, in points:
/// the rounding of a glyph's side bearing, not a visible collision.
const SLACK: f32 = 0.5;

#[derive(Default)]
struct Drawing {
    frame: Option<Frame>,
    /// The rich text of the card being drawn, which its handles name.
    rich: Rc<Table>,
    regions: Vec<(String, Rect)>,
    overflows: Vec<Overflow>,
    /// Where the card text each `text_box` printed is written.
    printed: Vec<Span>,
    /// The text every `text_box` set, a line a box, and the ids of the
    /// icons and the names of the arcs drawn, for [`Drawn::text`].
    text: String,
}

/// What drawing one face found: every region that will not print well,
/// where the card text its boxes printed is written, and the text it set.
#[derive(Debug, Default)]
pub struct Drawn {
    pub overflows: Vec<Overflow>,
    pub printed: Vec<Span>,
    /// The words the face shows: every box's text, with each icon's id.
    pub text: String,
}

thread_local! {
    static DRAWING: RefCell<Drawing> = RefCell::new(Drawing::default());
}

/// Runs `f` drawing one face of `frame` for the card whose rich text is
/// `rich`, returning what it returned and what the drawing found.
pub fn collect_overflows<R>(frame: Frame, rich: Rc<Table>, f: impl FnOnce() -> R) -> (R, Drawn) {
    DRAWING.with(|d| *d.borrow_mut() = Drawing { frame: Some(frame), rich, ..Drawing::default() });
    let result = f();
    let drawing = DRAWING.with(|d| std::mem::take(&mut *d.borrow_mut()));
    (result, Drawn { overflows: drawing.overflows, printed: drawing.printed, text: drawing.text })
}

/// Notes words a face shows outside its text boxes (an icon's id, a dial's
/// labels).
fn shown(words: &str) {
    DRAWING.with(|d| {
        let mut drawing = d.borrow_mut();
        drawing.text.push_str(words);
        drawing.text.push('\n');
    });
}

/// The rich text of the card being drawn.
fn card_text() -> Rc<Table> {
    DRAWING.with(|d| d.borrow().rich.clone())
}

/// Checks a laid-out region against the face and the regions before it;
/// `span` is where its text is written.
fn record(what: &str, spec: &BoxSpec, laid: &layout::Laid, span: Option<Span>) {
    DRAWING.with(|d| {
        let mut drawing = d.borrow_mut();
        let mut found = Vec::new();
        if !laid.fits {
            found.push(Problem::DoesNotFit { min_size: spec.min_size });
        }
        if let (Some(frame), Some(extent)) = (drawing.frame, laid.extent) {
            if laid.size + 0.01 < frame.min_text {
                found.push(Problem::TooSmall { size: laid.size, min_text: frame.min_text });
            }
            if !extent.within(&Rect { x: 0.0, y: 0.0, w: frame.w, h: frame.h }, SLACK) {
                found.push(Problem::OffCard);
            }
            let covered = drawing.regions.iter().find(|(_, r)| r.overlaps(&extent, SLACK)).map(|(w, _)| w.clone());
            if let Some(other) = covered {
                found.push(Problem::Covers { other });
            }
            drawing.regions.push((what.to_string(), extent));
        }
        drawing.overflows.extend(found.into_iter().map(|problem| Overflow { what: what.to_string(), problem, span }));
    });
}

/// The warnings of one card's regions, at the text of each when it comes
/// from one place, else at the card (`span`).
pub fn diagnostics(card: &str, span: Span, overflows: &[Overflow]) -> Vec<Diagnostic> {
    overflows
        .iter()
        .map(|overflow| {
            let what = &overflow.what;
            let whose = if overflow.span.is_some() { "this text" } else { "this card's text" };
            let span = overflow.span.unwrap_or(span);
            match &overflow.problem {
                Problem::DoesNotFit { min_size } => {
                    Diagnostic::warning(&codes::TEXT_OVERFLOW, format!("the {what} of `{card}` does not fit on the card"))
                        .primary(span, format!("{whose} is cut off when printed"))
                        .note(format!("it does not fit even at the smallest size, {}pt", num(*min_size)))
                        .help("shorten the text, or give it more room in the template")
                }
                Problem::TooSmall { size, min_text } => Diagnostic::warning(
                    &codes::TEXT_TOO_SMALL,
                    format!("the {what} of `{card}` prints at {}pt, below the {}pt minimum", num(*size), num(*min_text)),
                )
                .primary(span, format!("{whose} is too small to read when printed"))
                .help("shorten the text, print on a larger card (`--card`), or lower `[print] min-text`"),
                Problem::OffCard => {
                    Diagnostic::warning(&codes::TEXT_COLLISION, format!("the {what} of `{card}` runs off the card"))
                        .primary(span, format!("part of {whose} is cut away when printed"))
                        .help("the template places this text outside the card at this size: give it room, or print on another size")
                }
                Problem::Covers { other } => Diagnostic::warning(
                    &codes::TEXT_COLLISION,
                    format!("the {what} of `{card}` is printed over its {other}"),
                )
                .primary(span, format!("{whose} overlaps another text of the card when printed"))
                .help("shorten the text, or give the two regions room apart in the template"),
                Problem::NoGlyph { chars } => {
                    let shown: Vec<String> = chars.iter().map(|c| format!("`{c}` (U+{:04X})", u32::from(*c))).collect();
                    Diagnostic::warning(
                        &codes::GLYPH_MISSING,
                        format!("the {what} of `{card}` holds {}, which the fonts have no glyph for", shown.join(", ")),
                    )
                    .primary(span, format!("{whose} prints an empty box in its place"))
                    .note("the bundled fonts are DejaVu Sans Condensed; a project's own come from `[print] fonts`")
                    .help("write the character another way, or add a font that has it to `[print] fonts`")
                }
            }
        })
        .collect()
}

pub fn register(tera: &mut Tera) {
    tera.register_function("text_box", TextBox);
    tera.register_function("shows", Shows);
    tera.register_function("measure", Measure);
    tera.register_function("icon", IconFn);
    tera.register_function("arc", ArcFn);
    tera.register_function("hexes", HexesFn);
    tera.register_function("dial", DialFn);
    tera.register_function("art_panel", ArtPanel);
    tera.register_filter("bold", |v: &Value, _: &HashMap<String, Value>| Ok(styled(v, "b")));
    tera.register_filter("italic", |v: &Value, _: &HashMap<String, Value>| Ok(styled(v, "i")));
    tera.register_filter("badge", |v: &Value, _: &HashMap<String, Value>| Ok(badge(v)));
}

/// `"Flak Screen" | bold`: text or rich text in one face, for `text_box`.
fn styled(value: &Json, style: &str) -> Json {
    match value {
        Json::String(text) => serde_json::json!({"t": text, "s": style}),
        Json::Number(n) => serde_json::json!({"t": n.to_string(), "s": style}),
        Json::Array(items) => Json::Array(items.iter().map(|i| styled(i, style)).collect()),
        Json::Object(map) if map.contains_key("t") || map.contains_key(rich::KEY) => {
            let mut map = map.clone();
            map.insert("s".into(), Json::String(style.into()));
            Json::Object(map)
        }
        other => other.clone(),
    }
}

/// `"Auto" | badge`: a printed tag as `text_box` draws it, a filled pill.
fn badge(value: &Json) -> Json {
    let text = match value {
        Json::String(text) => text.clone(),
        Json::Number(n) => n.to_string(),
        _ => String::new(),
    };
    serde_json::json!({"b": text, "c": super::view::TAG_FILL})
}

fn number(args: &HashMap<String, Value>, name: &str, default: f32) -> f32 {
    args.get(name).and_then(Value::as_f64).map(|v| v as f32).filter(|v| v.is_finite()).unwrap_or(default)
}

fn string<'a>(args: &'a HashMap<String, Value>, name: &str, default: &'a str) -> &'a str {
    args.get(name).and_then(Value::as_str).unwrap_or(default)
}

fn align(word: &str) -> Align {
    match word {
        "middle" | "center" | "centre" => Align::Middle,
        "end" | "right" | "bottom" => Align::End,
        _ => Align::Start,
    }
}

/// What a `text_box` or `measure` call sets: its paragraphs; where their
/// card text is written; where the effect lines it prints are; and the
/// plain text of each piece of card text, with where it is written.
type Called = (Vec<Paragraph>, Vec<Span>, Vec<Span>, Vec<(Option<Span>, String)>);

/// The text of `paragraphs` as words: each text and badge, and each
/// icon's id.
fn plain_text(paragraphs: &[Paragraph]) -> String {
    let mut text = String::new();
    for piece in paragraphs.iter().flat_map(|p| p.iter().map(Some).chain([None])) {
        let Some(piece) = piece else {
            text.push('\n');
            continue;
        };
        match piece {
            Piece::Text { text: t, .. } | Piece::Badge { text: t, .. } => text.push_str(t),
            Piece::Icon { id, .. } => {
                text.push(' ');
                text.push_str(id);
                text.push(' ');
            }
        }
    }
    text
}

/// The characters of `paragraphs` no font has a glyph for, each once.
fn missing_glyphs(paragraphs: &[Paragraph]) -> Vec<char> {
    let mut missing = Vec::new();
    for piece in paragraphs.iter().flatten() {
        let (text, style) = match piece {
            Piece::Text { text, style, .. } => (text.as_str(), *style),
            Piece::Badge { text, .. } => (text.as_str(), Style::Bold),
            Piece::Icon { .. } => continue,
        };
        for c in fonts::missing_glyphs(text, style) {
            if !missing.contains(&c) {
                missing.push(c);
            }
        }
    }
    missing
}

/// The paragraphs a `text_box` or `measure` call sets, in its `style`, and
/// where their text is written when it all comes from one place.
fn call_paragraphs(args: &HashMap<String, Value>, function: &str) -> Result<Called> {
    let style = match string(args, "style", "") {
        "b" | "bold" => Style::Bold,
        "i" | "italic" => Style::Italic,
        _ => Style::Regular,
    };
    let Some(value) = args.get("paras").or_else(|| args.get("text")) else {
        return Err(format!("{function} needs `paras` (or `text`)").into());
    };
    let table = card_text();
    let mut reader = Reader { table: &table, spans: Vec::new(), covered: Vec::new(), texts: Vec::new() };
    let paragraphs = reader.paragraphs(value, style);
    Ok((paragraphs, reader.spans, reader.covered, reader.texts))
}

/// `measure(paras, w, size, lh, font)`: the height text takes set at `size` in a
/// box `w` wide, so that a template can size a region (a table row) to
/// what it holds.  Nothing is drawn or reported.
struct Measure;

impl Function for Measure {
    fn call(&self, args: &HashMap<String, Value>) -> Result<Value> {
        let (paragraphs, ..) = call_paragraphs(args, "measure")?;
        let size = number(args, "size", 8.0);
        let spec = BoxSpec {
            x: 0.0,
            y: 0.0,
            w: number(args, "w", 100.0).max(1.0),
            h: f32::MAX,
            size,
            min_size: size,
            line_height: number(args, "lh", 1.18),
            align: Align::Start,
            valign: Align::Start,
            fill: String::new(),
        };
        let font = args.get("font").and_then(Json::as_str);
        let height = fonts::measuring_in(font, || layout::lay_out(&paragraphs, &spec)).extent.map_or(0.0, |e| e.h);
        Ok(Value::from((f64::from(height) * 100.0).round() / 100.0))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// `text_box(paras, x, y, w, h, size, min, lh, align, valign, fill, style,
/// font, what)`: rich text laid out in the box, shrunk to fit, measured and
/// drawn in the project font family `font` when it names one.
struct TextBox;

impl Function for TextBox {
    fn call(&self, args: &HashMap<String, Value>) -> Result<Value> {
        let (paragraphs, spans, covered, texts) = call_paragraphs(args, "text_box")?;
        let written = rich::enclosing(&spans);
        DRAWING.with(|d| d.borrow_mut().printed.extend(covered));
        shown(&plain_text(&paragraphs));
        let size = number(args, "size", 8.0);
        let spec = BoxSpec {
            x: number(args, "x", 0.0),
            y: number(args, "y", 0.0),
            w: number(args, "w", 100.0).max(1.0),
            h: number(args, "h", 20.0).max(1.0),
            size,
            min_size: number(args, "min", size * 0.6),
            line_height: number(args, "lh", 1.18),
            align: align(string(args, "align", "start")),
            valign: align(string(args, "valign", "start")),
            fill: string(args, "fill", "#1b1b1b").to_string(),
        };
        // A box in a project font is measured in it and drawn in it.
        let font = args.get("font").and_then(Json::as_str);
        let laid = fonts::measuring_in(font, || layout::lay_out(&paragraphs, &spec));
        let what = string(args, "what", "text");
        record(what, &spec, &laid, written);
        let missing = fonts::measuring_in(font, || missing_glyphs(&paragraphs));
        if !missing.is_empty() {
            // At the card's text that holds them when one piece does.
            let at = texts.iter().find(|(_, t)| missing.iter().all(|c| t.contains(*c))).map_or(written, |(s, _)| *s);
            let overflow = Overflow { what: what.to_string(), problem: Problem::NoGlyph { chars: missing }, span: at };
            DRAWING.with(|d| d.borrow_mut().overflows.push(overflow));
        }
        Ok(Value::String(match font {
            Some(family) => format!("<g font-family=\"{}\">{}</g>", escape(family), laid.svg),
            None => laid.svg,
        }))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// `shows(field)`: draws nothing, and says that the face shows a field's
/// values (of one line, or of every line given as a list) by a drawing of
/// its own (marks, a diagram) rather than in text, so that the field is not
/// reported unprinted (W0718).
struct Shows;

impl Function for Shows {
    fn call(&self, args: &HashMap<String, Value>) -> Result<Value> {
        for value in field_values(args) {
            for key in ["text", "id"] {
                if let Some(words) = value.get(key).and_then(Json::as_str) {
                    shown(words);
                }
            }
        }
        Ok(Value::String(String::new()))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// Reads paragraphs from a template value: a string, a list of pieces, or a
/// list whose items are strings, pieces, lists of pieces or null.  Pieces
/// that do not name a style (`"s"`) take `style`; a handle (`{"rich": N}`)
/// stands for the runs of the card's rich text in `table`.
pub fn paragraphs(value: &Json, style: Style, table: &Table) -> Vec<Paragraph> {
    Reader { table, spans: Vec::new(), covered: Vec::new(), texts: Vec::new() }.paragraphs(value, style)
}

/// Reads template values, noting where the card text they name is written.
struct Reader<'t> {
    table: &'t Table,
    spans: Vec<Span>,
    /// Where the effect lines the text names are written.
    covered: Vec<Span>,
    /// The plain text of each piece of card text, with where it is written.
    texts: Vec<(Option<Span>, String)>,
}

impl Reader<'_> {
    fn paragraphs(&mut self, value: &Json, style: Style) -> Vec<Paragraph> {
        match value {
            Json::String(s) => vec![vec![text_piece(s, style, None)]],
            Json::Array(items) if items.iter().any(|i| i.is_object()) => vec![self.pieces(value, style)],
            Json::Array(items) => items.iter().flat_map(|i| self.paragraphs(i, style)).collect(),
            Json::Object(_) => vec![self.pieces(value, style)],
            Json::Number(n) => vec![vec![text_piece(&n.to_string(), style, None)]],
            _ => Vec::new(),
        }
    }

    fn pieces(&mut self, value: &Json, default: Style) -> Paragraph {
        match value {
            Json::Array(items) => items.iter().flat_map(|i| self.pieces(i, default)).collect(),
            Json::String(s) => vec![text_piece(s, default, None)],
            Json::Object(map) => {
                let style = map.get("s").and_then(Json::as_str).map(|s| match s {
                    "b" => Style::Bold,
                    "i" => Style::Italic,
                    _ => Style::Regular,
                });
                if let Some(index) = map.get(rich::KEY).and_then(Json::as_u64) {
                    return self.card_text(index, default, style);
                }
                let colour = map.get("c").and_then(Json::as_str).map(colour);
                if let Some(id) = map.get("i").and_then(Json::as_str) {
                    return vec![Piece::Icon { id: id.to_string(), colour }];
                }
                if let Some(text) = map.get("b").and_then(Json::as_str) {
                    let small = map.get("p").and_then(Json::as_str).map(str::to_string);
                    return vec![Piece::Badge {
                        text: text.to_string(),
                        small,
                        fill: colour.unwrap_or_else(|| "#222".into()),
                    }];
                }
                let text = match map.get("t") {
                    Some(Json::String(s)) => s.clone(),
                    Some(Json::Number(n)) => n.to_string(),
                    _ => return Vec::new(),
                };
                vec![text_piece(&text, style.unwrap_or(default), colour)]
            }
            Json::Number(n) => vec![text_piece(&n.to_string(), default, None)],
            _ => Vec::new(),
        }
    }

    /// The runs a handle names, restyled when a filter set its style.
    fn card_text(&mut self, index: u64, default: Style, restyle: Option<Style>) -> Paragraph {
        let entry = usize::try_from(index).ok().and_then(|i| self.table.get(i));
        let Some((runs, span)) = entry else { return Vec::new() };
        self.spans.extend(span);
        self.covered.extend(span);
        self.covered.extend(usize::try_from(index).map_or(&[][..], |i| self.table.covered(i)));
        let plain = runs.iter().filter_map(|r| match r {
            rich::Run::Text { text, .. } | rich::Run::Badge { text, .. } => Some(text.as_str()),
            rich::Run::Icon { .. } => None,
        });
        self.texts.push((span, plain.collect()));
        rich::pieces(runs, default, restyle)
    }
}

fn text_piece(text: &str, style: Style, colour: Option<String>) -> Piece {
    Piece::Text { text: text.to_string(), style, colour }
}

struct IconFn;

impl Function for IconFn {
    fn call(&self, args: &HashMap<String, Value>) -> Result<Value> {
        let id = string(args, "id", "");
        shown(id);
        let size = number(args, "size", 10.0);
        let fill = colour(string(args, "fill", "#1b1b1b"));
        Ok(Value::String(icons::draw(id, number(args, "x", 0.0), number(args, "y", 0.0), size, &fill)))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// `art_panel(art=art, x, y, w, h, rx=0, opacity=0.3)`: the card's artwork
/// (its first image field, by field name) cropped to fill the box (with
/// corners rounded by `rx`, to sit inside a rounded frame), faded so that
/// text drawn over it stays readable; nothing when the card has none, so a
/// face without art renders exactly as before.
struct ArtPanel;

impl Function for ArtPanel {
    fn call(&self, args: &HashMap<String, Value>) -> Result<Value> {
        let href = match args.get("art") {
            Some(Json::Object(fields)) => fields.values().find_map(Json::as_str),
            _ => None,
        };
        let Some(href) = href else { return Ok(Value::String(String::new())) };
        let (x, y) = (num(number(args, "x", 0.0)), num(number(args, "y", 0.0)));
        let (w, h) = (num(number(args, "w", 0.0).max(0.0)), num(number(args, "h", 0.0).max(0.0)));
        let rx = num(number(args, "rx", 0.0).max(0.0));
        if href == super::art::PLACEHOLDER {
            return Ok(Value::String(missing_art(number(args, "x", 0.0), number(args, "y", 0.0), (&w, &h, &rx))));
        }
        let opacity = num(number(args, "opacity", 0.3).clamp(0.0, 1.0));
        // The clip's id names its box: faces inlined side by side in the
        // preview share ids only when their boxes are the same.
        let id: String = format!("art-{x}-{y}-{w}-{h}-{rx}").chars().map(|c| if c == '.' { '_' } else { c }).collect();
        Ok(Value::String(format!(
            "<clipPath id=\"{id}\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"{rx}\"/></clipPath>\
             <image href=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" \
             preserveAspectRatio=\"xMidYMid slice\" clip-path=\"url(#{id})\" opacity=\"{opacity}\"/>",
            escape(href)
        )))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// Where a card's picture is not in the project: its window framed in
/// dashes and crossed through, so that the proof shows what is missing.
fn missing_art(x0: f32, y0: f32, (w, h, rx): (&str, &str, &str)) -> String {
    let (wf, hf) = (w.parse::<f32>().unwrap_or(0.0), h.parse::<f32>().unwrap_or(0.0));
    let (x, y, x1, y1) = (num(x0), num(y0), num(x0 + wf), num(y0 + hf));
    format!(
        "<g class=\"missing-art\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"{rx}\" fill=\"#eef0f2\" \
         stroke=\"#9aa3ab\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\
         <path d=\"M{x} {y}L{x1} {y1}M{x1} {y}L{x} {y1}\" stroke=\"#c9ced6\" stroke-width=\"0.8\"/></g>"
    )
}

/// The values of the `field` a function is given: of one line of a field
/// (`card.fields.arcs.0`), or of every line (`card.fields.arcs`).
fn field_values(args: &HashMap<String, Value>) -> Vec<&Json> {
    let lines = match args.get("field") {
        Some(Json::Array(lines)) => lines.iter().collect(),
        Some(line) => vec![line],
        None => Vec::new(),
    };
    lines.into_iter().filter_map(|line| line.get("values").and_then(Json::as_array)).flatten().collect()
}

/// The sectors `arc` shades: `sectors`, and the angles of the values of
/// `field` (a field's views, or one), with how many values `field` holds.
fn sectors(args: &HashMap<String, Value>) -> (Vec<[f32; 2]>, usize) {
    let written = string(args, "sectors", "").split(';').filter_map(|sector| {
        let bounds: Vec<f32> = sector.split_whitespace().filter_map(|n| n.parse().ok()).collect();
        match bounds[..] {
            [from, to] => Some([from, to]),
            _ => None,
        }
    });
    let values = field_values(args);
    let angles = values.iter().filter_map(|v| v.get("angles").and_then(Json::as_array)).filter_map(|a| {
        let at = |i: usize| a.get(i).and_then(Json::as_f64).map(|n| n as f32);
        Some([at(0)?, at(1)?])
    });
    (written.chain(angles).take(64).collect(), values.len())
}

/// `arc(x, y, r, sectors="-45 45; 135 225")`: a disc with the sectors
/// shaded; 0° is the ship's front (up), angles grow clockwise.  With
/// `field=fields.arcs` in place of `sectors`, the sectors are the angles the
/// ruleset gives the field's arcs.
struct ArcFn;

impl Function for ArcFn {
    fn call(&self, args: &HashMap<String, Value>) -> Result<Value> {
        let (cx, cy, r) = (number(args, "x", 0.0), number(args, "y", 0.0), number(args, "r", 10.0).max(0.5));
        let fill = colour(string(args, "fill", "#c0262d"));
        let stroke = colour(string(args, "stroke", "#1b1b1b"));
        let mut out = format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#fff\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            num(cx),
            num(cy),
            num(r),
            num(r * 0.06)
        );
        let (sectors, values) = sectors(args);
        if values > 0 && sectors.is_empty() {
            return Err("`arc(field=…)` shades the angles of a field's arcs, and no value of this field is an arc \
                        the ruleset gives angles (`angles -40 40 from edge`)"
                .into());
        }
        for [from, to] in sectors {
            if (to - from).abs() >= 359.9 {
                out.push_str(&format!(
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\"/>",
                    num(cx),
                    num(cy),
                    num(r * 0.94)
                ));
                continue;
            }
            let point = |deg: f32| {
                let rad = deg.to_radians();
                (cx + r * 0.94 * rad.sin(), cy - r * 0.94 * rad.cos())
            };
            let (x1, y1) = point(from);
            let (x2, y2) = point(to);
            let large = if (to - from).rem_euclid(360.0) > 180.0 { 1 } else { 0 };
            out.push_str(&format!(
                "<path d=\"M{} {}L{} {}A{} {} 0 {large} 1 {} {}Z\" fill=\"{fill}\"/>",
                num(cx),
                num(cy),
                num(x1),
                num(y1),
                num(r * 0.94),
                num(r * 0.94),
                num(x2),
                num(y2)
            ));
        }
        // The ship, pointing at the front.
        out.push_str(&format!(
            "<path d=\"M{} {}L{} {}L{} {}Z\" fill=\"{stroke}\"/>",
            num(cx),
            num(cy - r * 0.3),
            num(cx + r * 0.18),
            num(cy + r * 0.22),
            num(cx - r * 0.18),
            num(cy + r * 0.22)
        ));
        Ok(Value::String(out))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// `hexes(grid=card.fields.grid.0, x, y, w, h, arrows="arrows",
/// turn="rotate")`: a movement grid.  Every field of the grid's block whose
/// values are hex offsets is drawn in the colour its name gives (`green
/// 0,-1 0,-2`); the ship sits at `0,0` facing up; arrows run from the ship
/// to each hex, in the colour the field named by `arrows` gives; the flag
/// field named by `turn` adds a turning arrow.  The template names those
/// fields: they are the game's words.
struct HexesFn;

impl Function for HexesFn {
    fn call(&self, args: &HashMap<String, Value>) -> Result<Value> {
        let block = args.get("grid").and_then(|g| g.get("block")).and_then(Json::as_u64);
        let table = card_text();
        // A field without a block is a grid without hexes: the ship alone.
        let empty = Body::default();
        let grid = block.and_then(|b| usize::try_from(b).ok()).and_then(|b| table.block(b)).unwrap_or(&empty);
        let names = GridNames { arrows: string(args, "arrows", ""), turn: string(args, "turn", "") };
        let (x, y, w, h) =
            (number(args, "x", 0.0), number(args, "y", 0.0), number(args, "w", 60.0), number(args, "h", 60.0));
        Ok(Value::String(hex_grid(grid, &names, x, y, w, h)))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// `dial(grid=card.dials.0, x, y, w, h, legend=true)`: a manoeuvre dial as
/// a grid (see [`super::dial`]); the labels it writes count as shown.
struct DialFn;

impl Function for DialFn {
    fn call(&self, args: &HashMap<String, Value>) -> Result<Value> {
        let area = super::dial::Area {
            x: number(args, "x", 0.0),
            y: number(args, "y", 0.0),
            w: number(args, "w", 60.0),
            h: number(args, "h", 60.0),
        };
        let legend = args.get("legend").and_then(Value::as_bool).unwrap_or(true);
        let grid = match args.get("grid") {
            Some(grid) if grid.is_object() => grid,
            // A card without a dial draws none.
            None | Some(Json::Null) => return Ok(Value::String(String::new())),
            Some(_) => return Err("`dial` draws one dial: `grid=card.dials.0`, not the list `card.dials`".into()),
        };
        let (svg, words) = super::dial::grid_svg(grid, area, legend);
        words.iter().for_each(|w| shown(w));
        Ok(Value::String(svg))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

/// The fields of a grid that are not hexes of a colour.
struct GridNames<'a> {
    /// The field whose value is the arrows' colour.
    arrows: &'a str,
    /// The flag field that adds a turning arrow.
    turn: &'a str,
}

/// A grid's coloured hexes (axial offsets, clamped, each with its colour's
/// field), the arrows' colour and whether a turning arrow is drawn.
fn grid_hexes(grid: &Body, names: &GridNames<'_>) -> (Vec<(i64, i64, String)>, String, bool) {
    // Colours in the order of their names, each in the order written.
    let mut fields: Vec<&Field> = grid.fields.iter().collect();
    fields.sort_by(|a, b| a.name.cmp(&b.name));
    let mut hexes: Vec<(i64, i64, String)> = Vec::new();
    let mut arrows = "#1b1b1b".to_string();
    let mut rotate = false;
    for field in fields {
        if field.name == names.arrows {
            if let Some(IrValue::Name(id)) = field.first_value() {
                arrows = colour(id);
            }
        } else if field.name == names.turn {
            rotate = true;
        }
        for value in field.each_value() {
            if let IrValue::Coord { q, r } = value {
                hexes.push(((*q).clamp(-20, 20), (*r).clamp(-20, 20), field.name.clone()));
            }
        }
    }
    (hexes, arrows, rotate)
}

/// A hex's centre in units of the hex size (flat-topped hexes, axial
/// offsets).
fn hex_centre(q: i64, r: i64) -> (f32, f32) {
    (1.5 * q as f32, 3f32.sqrt() * (r as f32 + q as f32 / 2.0))
}

fn hex_grid(grid: &Body, names: &GridNames<'_>, x: f32, y: f32, w: f32, h: f32) -> String {
    let (hexes, arrows, rotate) = grid_hexes(grid, names);
    let mut points: Vec<(f32, f32)> = hexes.iter().map(|(q, r, _)| hex_centre(*q, *r)).collect();
    points.push((0.0, 0.0));
    let (min_x, max_x) = points.iter().fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (min_y, max_y) = points.iter().fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let span_x = max_x - min_x + 2.0;
    let span_y = max_y - min_y + 3f32.sqrt();
    let size = (w / span_x).min(h / span_y).min(w / 4.0);
    let ox = x + w / 2.0 - (min_x + max_x) / 2.0 * size;
    let oy = y + h / 2.0 - (min_y + max_y) / 2.0 * size;
    let at = |(q, r): (i64, i64)| {
        let p = hex_centre(q, r);
        (ox + p.0 * size, oy + p.1 * size)
    };
    let mut out = String::from("<g>");
    for (q, r, name) in &hexes {
        out.push_str(&hexagon(at((*q, *r)), size, &colour(name), "#ffffff"));
    }
    let ship = at((0, 0));
    out.push_str(&hexagon(ship, size, "#d5d8db", "#ffffff"));
    out.push_str(&format!(
        "<path d=\"M{} {}L{} {}L{} {}Z\" fill=\"#1b1b1b\"/>",
        num(ship.0),
        num(ship.1 - size * 0.6),
        num(ship.0 + size * 0.38),
        num(ship.1 + size * 0.45),
        num(ship.0 - size * 0.38),
        num(ship.1 + size * 0.45)
    ));
    for (q, r, _) in &hexes {
        out.push_str(&move_arrow(ship, at((*q, *r)), size, &arrows));
    }
    if rotate {
        let r = size * 0.75;
        out.push_str(&format!(
            "<path d=\"M{} {}A{} {} 0 1 1 {} {}\" stroke=\"{arrows}\" stroke-width=\"{}\" fill=\"none\"/>",
            num(ship.0 - r),
            num(ship.1 + size * 0.1),
            num(r),
            num(r),
            num(ship.0 + r * 0.7),
            num(ship.1 + r * 0.75),
            num(size * 0.1)
        ));
    }
    let named: Vec<((f32, f32), &str)> = hexes.iter().map(|(q, r, name)| (at((*q, *r)), name.as_str())).collect();
    out.push_str(&hex_initials(&named, ship, size));
    out.push_str("</g>");
    out
}

/// A hexagon of `size` centred on `c`.
fn hexagon(c: (f32, f32), size: f32, fill: &str, stroke: &str) -> String {
    let corners: Vec<String> = (0..6)
        .map(|i| {
            let a = (60.0 * i as f32).to_radians();
            format!("{} {}", num(c.0 + size * 0.96 * a.cos()), num(c.1 + size * 0.96 * a.sin()))
        })
        .collect();
    format!(
        "<path d=\"M{}Z\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
        corners.join("L"),
        escape(fill),
        escape(stroke),
        num(size * 0.08)
    )
}

/// The arrow from the ship to the hex centred on `end`, over a white halo
/// that keeps it visible on a hex of its own colour; nothing for the
/// ship's own hex.
fn move_arrow(ship: (f32, f32), end: (f32, f32), size: f32, arrows: &str) -> String {
    let (dx, dy) = (end.0 - ship.0, end.1 - ship.1);
    let length = (dx * dx + dy * dy).sqrt();
    if length < 0.01 {
        return String::new();
    }
    let (ux, uy) = (dx / length, dy / length);
    let start = (ship.0 + ux * size * 0.7, ship.1 + uy * size * 0.7);
    let tip = (end.0 - ux * size * 0.35, end.1 - uy * size * 0.35);
    let head = size * 0.35;
    let left = (tip.0 - ux * head - uy * head * 0.6, tip.1 - uy * head + ux * head * 0.6);
    let right = (tip.0 - ux * head + uy * head * 0.6, tip.1 - uy * head - ux * head * 0.6);
    let mut out = String::new();
    for (colour, width, halo) in [("#ffffff", size * 0.26, size * 0.08), (arrows, size * 0.12, 0.0)] {
        out.push_str(&format!(
            "<path d=\"M{} {}L{} {}\" stroke=\"{colour}\" stroke-width=\"{}\" fill=\"none\"/>\
             <path d=\"M{} {}L{} {}L{} {}Z\" fill=\"{colour}\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
            num(start.0),
            num(start.1),
            num(tip.0 - ux * head * 0.5),
            num(tip.1 - uy * head * 0.5),
            num(width),
            num(tip.0),
            num(tip.1),
            num(left.0),
            num(left.1),
            num(right.0),
            num(right.1),
            num(halo)
        ));
    }
    out
}

/// Each coloured hex also carries its colour's initial (`G`, `R`), on the
/// side away from the ship where no arrow runs, so that hexes told apart by
/// colour are told apart printed in black and white too.
fn hex_initials(hexes: &[((f32, f32), &str)], ship: (f32, f32), size: f32) -> String {
    // Never under the smallest type size the print allows: on a small grid
    // the letter keeps its size and moves to the hex's middle, where it has
    // the most room, rather than shrink with the hex.
    let min_text = DRAWING.with(|d| d.borrow().frame.map_or(6.0, |f| f.min_text));
    let font = (size * 0.62).max(min_text);
    let outward = if font > size * 0.62 { 0.0 } else { size * 0.38 };
    let mut out = String::new();
    for ((x, y), name) in hexes {
        let Some(initial) = name.chars().next().map(|c| c.to_uppercase().to_string()) else { continue };
        let (dx, dy) = (x - ship.0, y - ship.1);
        let length = (dx * dx + dy * dy).sqrt().max(0.01);
        let (cx, cy) = (x + dx / length * outward, y + dy / length * outward);
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" text-anchor=\"middle\" \
             fill=\"#1b1b1b\" stroke=\"#ffffff\" stroke-width=\"{}\" paint-order=\"stroke\">{}</text>",
            num(cx),
            num(cy + font * 0.36),
            num(font),
            num(font * 0.22),
            escape(&initial)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_paragraphs_in_every_shape() {
        let r = Style::Regular;
        let none = Table::default();
        assert_eq!(paragraphs(&json!("plain"), r, &none).len(), 1);
        assert_eq!(paragraphs(&json!([{"t": "a"}, {"i": "damage"}]), r, &none).len(), 1);
        assert_eq!(paragraphs(&json!(["one", [{"t": "two", "s": "b"}], null]), r, &none).len(), 2);
        let bold = paragraphs(&json!(["name"]), Style::Bold, &none);
        assert!(matches!(&bold[0][0], Piece::Text { style: Style::Bold, .. }));
        let badge = paragraphs(&json!([{"b": "5", "p": "9", "c": "black"}]), r, &none);
        assert!(matches!(&badge[0][0], Piece::Badge { small: Some(p), .. } if p == "9"));
    }

    #[test]
    fn handles_read_the_card_text_and_where_it_is_written() {
        use super::rich::Run;
        let mut table = Table::default();
        let span = Span::new(crate::source::FileId(0), 4, 9);
        let text = table.add(vec![Run::plain("Deal"), Run::Icon { id: "damage".into(), colour: None }], Some(span));
        let handle = serde_json::to_value(text).expect("a handle");
        // A handle spliced after a template's own piece is one paragraph;
        // listed beside another paragraph, it is a paragraph of its own.
        let spliced = json!([{"t": "Text: ", "s": "b"}, handle[0]]);
        let mut reader = Reader { table: &table, spans: Vec::new(), covered: Vec::new(), texts: Vec::new() };
        let read = reader.paragraphs(&spliced, Style::Regular);
        assert_eq!(read.len(), 1, "{read:?}");
        assert_eq!(read[0].len(), 3);
        assert_eq!(reader.spans, [span]);
        let listed = json!([[{"t": "Title"}], handle]);
        assert_eq!(paragraphs(&listed, Style::Regular, &table).len(), 2);
        let italic = styled(&handle, "i");
        let read = paragraphs(&italic, Style::Regular, &table);
        assert!(matches!(&read[0][0], Piece::Text { style: Style::Italic, text, .. } if text == "Deal"));
        // A handle to nothing reads as nothing, not as a crash.
        assert_eq!(paragraphs(&json!([{"rich": 99}]), Style::Regular, &table), [Vec::<Piece>::new()]);
    }

    #[test]
    fn the_grid_draws_one_hexagon_per_offset_and_the_ship() {
        let at = Span::new(crate::source::FileId(0), 0, 0);
        let field = |name: &str, values: Vec<IrValue>| Field {
            name: name.into(),
            values: values.into_iter().map(|v| crate::ir::Spanned::new(v, at)).collect(),
            body: None,
            span: at,
        };
        let hex = |q, r| IrValue::Coord { q, r };
        let grid = Body {
            fields: vec![
                field("red", vec![hex(0, -4)]),
                field("arrows", vec![IrValue::Name("green".into())]),
                field("green", vec![hex(0, -1), hex(1, -2)]),
                field("rotate", Vec::new()),
            ],
            ..Body::default()
        };
        let names = GridNames { arrows: "arrows", turn: "rotate" };
        let svg = hex_grid(&grid, &names, 0.0, 0.0, 60.0, 60.0);
        // Green hexes come before red ones, whatever order they are written in.
        let (green, red) = (svg.find("fill=\"#2f8a3b\" stroke"), svg.find("fill=\"#c0262d\" stroke"));
        assert!(matches!((green, red), (Some(g), Some(r)) if g < r), "{svg}");
        assert!(svg.contains("stroke=\"#2f8a3b\" stroke-width"), "green arrows: {svg}");
        assert_eq!(svg.matches("fill=\"#2f8a3b\" stroke=\"#ffffff\"").count(), 2, "{svg}");
        assert_eq!(svg.matches("fill=\"#c0262d\" stroke").count(), 1);
        assert!(svg.contains("#d5d8db") && svg.contains(" 0 1 1 "), "{svg}");
        // Each coloured hex is labelled with its colour's initial.
        assert_eq!(svg.matches(">G</text>").count(), 2, "{svg}");
        assert_eq!(svg.matches(">R</text>").count(), 1, "{svg}");
        // Without the template naming them, no field is the arrows or the turn.
        let plain = hex_grid(&grid, &GridNames { arrows: "", turn: "" }, 0.0, 0.0, 60.0, 60.0);
        assert!(!plain.contains(" 0 1 1 ") && !plain.contains("stroke=\"#2f8a3b\" stroke-width"), "{plain}");
    }
}
