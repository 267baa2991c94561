//! A card's rich text, typed from the IR to the drawing functions.
//!
//! [`super::view`] builds each paragraph a template may print (a value, a
//! field with its effects, a `Label: value` line) as [`Run`]s and keeps it
//! in the card's [`Table`], where it also notes the source it came from.
//! Templates see only a [`Handle`] in its place: a piece `{"rich": N}` that
//! they move around, concatenate and restyle like any other piece, and that
//! `text_box` and `measure` ([`super::functions`]) look up in the table of
//! the card being drawn.  The text itself is never written out as template
//! data and read back.  The blocks of the card's fields are kept the same
//! way, for the functions that draw a block (`hexes`).

use super::fonts::Style;
use super::layout::Piece;
use crate::ir::Body;
use crate::source::Span;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// One run of rich text, before a box gives it its style.
#[derive(Clone, Debug, PartialEq)]
pub enum Run {
    /// Text in its own style, or (`None`) in the style of the box.
    Text { text: String, style: Option<Style>, colour: Option<String> },
    /// An icon by id, one em wide.
    Icon { id: String, colour: Option<String> },
    /// A filled pill with short white text: an initiative step, a printed tag.
    Badge { text: String, fill: String },
}

impl Run {
    /// Text in the style of the box it is printed in.
    pub fn plain(text: impl Into<String>) -> Run {
        Run::Text { text: text.into(), style: None, colour: None }
    }

    pub fn styled(text: impl Into<String>, style: Style) -> Run {
        Run::Text { text: text.into(), style: Some(style), colour: None }
    }
}

/// One paragraph of runs.
pub type Line = Vec<Run>;

/// The runs as layout pieces: text without a style of its own takes
/// `default`, and `restyle` (a template's `bold` or `italic`) overrides
/// every text run's style.
pub fn pieces(runs: &[Run], default: Style, restyle: Option<Style>) -> Vec<Piece> {
    runs.iter()
        .map(|run| match run {
            Run::Text { text, style, colour } => {
                Piece::Text { text: text.clone(), style: restyle.or(*style).unwrap_or(default), colour: colour.clone() }
            }
            Run::Icon { id, colour } => Piece::Icon { id: id.clone(), colour: colour.clone() },
            Run::Badge { text, fill } => Piece::Badge { text: text.clone(), small: None, fill: fill.clone() },
        })
        .collect()
}

/// The rich text of one card: every paragraph its view hands out.
#[derive(Debug, Default)]
pub struct Table {
    entries: Vec<Entry>,
    blocks: Vec<Body>,
}

#[derive(Debug)]
struct Entry {
    runs: Line,
    /// Where the text is written, when it comes from one place of the source.
    span: Option<Span>,
    /// Where the effect lines it prints are written, when they are not
    /// inside `span` (a field's line with its block's effects).
    covers: Vec<Span>,
}

impl Table {
    /// Keeps `runs` and returns the handle templates see in its place.
    pub fn add(&mut self, runs: Line, span: Option<Span>) -> Handle {
        self.add_covering(runs, span, Vec::new())
    }

    /// [`Table::add`] for text that prints the effect lines written at
    /// `covers`, so that a face printing it is known to print them.
    pub fn add_covering(&mut self, runs: Line, span: Option<Span>, covers: Vec<Span>) -> Handle {
        let empty = runs.is_empty();
        self.entries.push(Entry { runs, span, covers });
        Handle { index: self.entries.len() - 1, empty }
    }

    /// Where the effect lines a handle's text prints are written.
    pub fn covers(&self, handle: Handle) -> &[Span] {
        self.entries.get(handle.index).map_or(&[], |e| &e.covers)
    }

    /// The runs behind a handle.
    pub fn runs(&self, handle: Handle) -> &[Run] {
        self.entries.get(handle.index).map_or(&[], |e| &e.runs)
    }

    /// Keeps a field's block and returns the number templates name it by.
    pub fn add_block(&mut self, block: &Body) -> usize {
        self.blocks.push(block.clone());
        self.blocks.len() - 1
    }

    /// The block a template's number names.
    pub fn block(&self, index: usize) -> Option<&Body> {
        self.blocks.get(index)
    }

    /// The runs and source of the entry a template's `{"rich": N}` names.
    pub fn get(&self, index: usize) -> Option<(&[Run], Option<Span>)> {
        self.entries.get(index).map(|e| (e.runs.as_slice(), e.span))
    }

    /// Where the effect lines the entry a template's `{"rich": N}` names
    /// prints are written.
    pub fn covered(&self, index: usize) -> &[Span] {
        self.entries.get(index).map_or(&[], |e| &e.covers)
    }
}

/// A paragraph of a card's [`Table`], as templates see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle {
    index: usize,
    /// An empty paragraph is an empty list, as templates have always seen
    /// it: `text_box` prints no line for it.
    empty: bool,
}

/// The key of a handle's piece, `{"rich": N}`.
pub const KEY: &str = "rich";

impl Serialize for Handle {
    /// A paragraph of one piece standing for the text, so that a template
    /// can splice it into a paragraph of its own or list it as one.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.empty {
            return serializer.serialize_seq(Some(0))?.end();
        }
        let mut paragraph = serializer.serialize_seq(Some(1))?;
        paragraph.serialize_element(&HandlePiece(self.index))?;
        paragraph.end()
    }
}

struct HandlePiece(usize);

impl Serialize for HandlePiece {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(KEY, &self.0)?;
        map.end()
    }
}

/// The one span among `spans` that holds all the others: where a box's
/// text is written when it all comes from one value or one field.
pub fn enclosing(spans: &[Span]) -> Option<Span> {
    spans.iter().copied().find(|outer| {
        spans.iter().all(|inner| inner.file == outer.file && inner.start >= outer.start && inner.end <= outer.end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handle_is_a_paragraph_of_one_piece_and_an_empty_one_is_empty() {
        let mut table = Table::default();
        let empty = table.add(Vec::new(), None);
        let text = table.add(vec![Run::plain("Deal 2")], None);
        assert_eq!(serde_json::to_string(&empty).unwrap(), "[]");
        assert_eq!(serde_json::to_string(&text).unwrap(), r#"[{"rich":1}]"#);
        assert_eq!(table.runs(text), &[Run::plain("Deal 2")]);
    }

    #[test]
    fn text_takes_the_box_style_unless_it_has_its_own_or_is_restyled() {
        let runs = vec![Run::plain("a"), Run::styled("b", Style::Bold), Run::Icon { id: "x".into(), colour: None }];
        let styles = |pieces: Vec<Piece>| {
            pieces
                .into_iter()
                .filter_map(|p| match p {
                    Piece::Text { style, .. } => Some(style),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(styles(pieces(&runs, Style::Italic, None)), [Style::Italic, Style::Bold]);
        assert_eq!(styles(pieces(&runs, Style::Regular, Some(Style::Italic))), [Style::Italic, Style::Italic]);
        assert_eq!(pieces(&runs, Style::Regular, None).len(), 3);
    }

    #[test]
    fn the_enclosing_span_holds_every_other() {
        let file = crate::source::FileId(0);
        let field = Span::new(file, 10, 40);
        let value = Span::new(file, 20, 30);
        assert_eq!(enclosing(&[value, field]), Some(field));
        assert_eq!(enclosing(&[value, Span::new(file, 35, 50)]), None);
        assert_eq!(enclosing(&[]), None);
    }
}
