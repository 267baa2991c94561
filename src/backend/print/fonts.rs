//! The bundled fonts: DejaVu Sans Condensed in three faces, compiled into the
//! binary so every machine lays out and renders text the same way and no
//! system font is consulted.  A project may add fonts of its own (files in
//! the project, `[print] fonts`), which the command line reads and hands in
//! as [`ProjectFont`]s: usvg lays out and renders the text that names their
//! family, the PDF embeds them subset, and the preview embeds them whole.
//! A text box that names a project family ([`measuring_in`]) is measured
//! with that family's font, so that it wraps where it will be drawn.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The family name the templates write in `font-family` (the condensed
/// faces name their typographic family so).
pub const FAMILY: &str = "DejaVu Sans";

pub const REGULAR: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed.ttf");
pub const BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed-Bold.ttf");
pub const ITALIC: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed-Oblique.ttf");

/// A face of the family, as text runs use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Style {
    Regular,
    Bold,
    Italic,
}

impl Style {
    pub fn data(self) -> &'static [u8] {
        match self {
            Style::Regular => REGULAR,
            Style::Bold => BOLD,
            Style::Italic => ITALIC,
        }
    }

    /// The SVG attributes that select this face.
    pub fn svg_attributes(self) -> &'static str {
        match self {
            Style::Regular => "",
            Style::Bold => " font-weight=\"bold\"",
            Style::Italic => " font-style=\"italic\"",
        }
    }
}

struct Shapers {
    faces: [Option<rustybuzz::Face<'static>>; 3],
}

fn shapers() -> &'static Shapers {
    static SHAPERS: OnceLock<Shapers> = OnceLock::new();
    SHAPERS.get_or_init(|| Shapers {
        faces: [Style::Regular, Style::Bold, Style::Italic].map(|s| rustybuzz::Face::from_slice(s.data(), 0)),
    })
}

/// The advance width of `text` in `style`, in ems (multiply by the font size).
/// Shaped with rustybuzz, so kerning and ligatures count as they will when
/// the text is rendered; in the project font of the family being measured
/// in ([`measuring_in`]), else in the bundled one.
pub fn width(text: &str, style: Style) -> f32 {
    match project_face(style) {
        Some(index) => project_width(index, text, style),
        None => bundled_width(text, style),
    }
}

/// Past this many words a table of measured widths starts again, bounding
/// memory.
const KEEP: usize = 50_000;

fn bundled_width(text: &str, style: Style) -> f32 {
    thread_local! {
        /// Widths this thread has measured, per style: card text repeats its
        /// words, and each shaping call builds its plan anew.
        static MEASURED: RefCell<[HashMap<String, f32>; 3]> = Default::default();
    }
    MEASURED.with(|measured| {
        let mut measured = measured.borrow_mut();
        let known = &mut measured[style as usize];
        if let Some(width) = known.get(text) {
            return *width;
        }
        let width = shape_width(text, style);
        if known.len() >= KEEP {
            known.clear();
        }
        known.insert(text.to_string(), width);
        width
    })
}

thread_local! {
    /// The project's fonts text on this thread may be set in.
    static PROJECT: RefCell<Arc<[ProjectFont]>> = RefCell::new(Arc::from(Vec::new()));
    /// The family of the box being laid out, when it names one.
    static FAMILY_IN_USE: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Widths measured in project fonts, by font (its place in `PROJECT`).
    static PROJECT_MEASURED: RefCell<HashMap<(usize, String), f32>> = RefCell::new(HashMap::new());
}

/// Runs `f` with `fonts` as the project's fonts on this thread.
pub fn with_project_fonts<R>(fonts: Arc<[ProjectFont]>, f: impl FnOnce() -> R) -> R {
    let previous = PROJECT.with(|p| p.replace(fonts));
    PROJECT_MEASURED.with(|m| m.borrow_mut().clear());
    let result = f();
    PROJECT.with(|p| p.replace(previous));
    PROJECT_MEASURED.with(|m| m.borrow_mut().clear());
    result
}

/// Runs `f` measuring text in `family` (a project font's family; any other
/// name, or none, is the bundled font, as it is when drawn).
pub fn measuring_in<R>(family: Option<&str>, f: impl FnOnce() -> R) -> R {
    let previous = FAMILY_IN_USE.with(|c| c.replace(family.map(str::to_string)));
    let result = f();
    FAMILY_IN_USE.with(|c| c.replace(previous));
    result
}

/// The project font that draws `style` in the family in use: the file of
/// that family whose weight and slant match, else its first.
fn project_face(style: Style) -> Option<usize> {
    let family = FAMILY_IN_USE.with(|c| c.borrow().clone())?;
    let (bold, italic) = (style == Style::Bold, style == Style::Italic);
    PROJECT.with(|fonts| {
        fonts
            .borrow()
            .iter()
            .enumerate()
            .filter(|(_, font)| font.family.eq_ignore_ascii_case(&family))
            .min_by_key(|(_, font)| u8::from(font.bold != bold) + u8::from(font.italic != italic))
            .map(|(index, _)| index)
    })
}

fn project_width(index: usize, text: &str, style: Style) -> f32 {
    let key = (index, text.to_string());
    if let Some(width) = PROJECT_MEASURED.with(|m| m.borrow().get(&key).copied()) {
        return width;
    }
    let data = PROJECT.with(|fonts| fonts.borrow().get(index).map(|font| font.data.clone()));
    // A project font parsed when it was read; should it not, the bundled
    // widths stand in rather than none.
    let width = match data.as_deref().and_then(|data| rustybuzz::Face::from_slice(data, 0)) {
        Some(face) => face_width(&face, text),
        None => bundled_width(text, style),
    };
    PROJECT_MEASURED.with(|m| {
        let mut measured = m.borrow_mut();
        if measured.len() >= KEEP {
            measured.clear();
        }
        measured.insert(key, width);
    });
    width
}

/// The characters of `text` that neither the font of the family being
/// measured in ([`measuring_in`]) nor the bundled one has a glyph for, each
/// once: they would print as an empty box, or not at all.  Spaces and
/// controls take no glyph.
pub fn missing_glyphs(text: &str, style: Style) -> Vec<char> {
    let project =
        project_face(style).and_then(|index| PROJECT.with(|fonts| fonts.borrow().get(index).map(|f| f.data.clone())));
    let project = project.as_deref().and_then(|data| rustybuzz::ttf_parser::Face::parse(data, 0).ok());
    let bundled = shapers().faces[style as usize].as_ref();
    let mut missing = Vec::new();
    for c in text.chars() {
        if c.is_whitespace() || c.is_control() || is_format(c) || missing.contains(&c) {
            continue;
        }
        let in_project = project.as_ref().is_some_and(|face| face.glyph_index(c).is_some());
        let in_bundled = bundled.is_none_or(|face| face.glyph_index(c).is_some());
        if !in_project && !in_bundled {
            missing.push(c);
        }
    }
    missing
}

/// An invisible character that steers text rather than shows (a soft
/// hyphen, zero-width joiners and spaces, direction marks and isolates, the
/// byte-order mark): it takes no glyph.
fn is_format(c: char) -> bool {
    matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

fn shape_width(text: &str, style: Style) -> f32 {
    match &shapers().faces[style as usize] {
        Some(face) => face_width(face, text),
        None => fallback_width(text),
    }
}

fn face_width(face: &rustybuzz::Face, text: &str) -> f32 {
    let mut buffer = rustybuzz::UnicodeBuffer::new();
    buffer.push_str(text);
    let shaped = rustybuzz::shape(face, &[], buffer);
    let units: i64 = shaped.glyph_positions().iter().map(|p| i64::from(p.x_advance)).sum();
    units as f32 / face.units_per_em().max(1) as f32
}

/// Only reached if a bundled font failed to parse, which a test rules out.
fn fallback_width(text: &str) -> f32 {
    text.chars().count() as f32 * 0.55
}

/// A font file of the project, with the family its templates name it by and
/// the face of that family it is.
#[derive(Clone, Debug)]
pub struct ProjectFont {
    pub family: String,
    pub bold: bool,
    pub italic: bool,
    pub data: Arc<Vec<u8>>,
}

impl ProjectFont {
    /// Reads a TrueType or OpenType font (the first face of a collection);
    /// `Err` says why the bytes are not one.
    pub fn new(data: Vec<u8>) -> Result<ProjectFont, String> {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(data.clone());
        let face = db.faces().next().ok_or("it is not a TrueType or OpenType font")?;
        let family = face.families.first().map(|(name, _)| name.clone()).ok_or("the font names no family")?;
        let bold = face.weight.0 >= 600;
        let italic = face.style != resvg::usvg::fontdb::Style::Normal;
        Ok(ProjectFont { family, bold, italic, data: Arc::new(data) })
    }
}

/// The bundled faces and `extra` as a font database for usvg; the bundled
/// one alone when there is nothing extra.
pub fn database_with(extra: &[ProjectFont]) -> Arc<resvg::usvg::fontdb::Database> {
    if extra.is_empty() {
        return database();
    }
    let mut db = (*database()).clone();
    for font in extra {
        db.load_font_source(resvg::usvg::fontdb::Source::Binary(font.data.clone()));
    }
    Arc::new(db)
}

/// The bundled faces as a font database for usvg, built once.
pub fn database() -> Arc<resvg::usvg::fontdb::Database> {
    static DATABASE: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DATABASE
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            for style in [Style::Regular, Style::Bold, Style::Italic] {
                db.load_font_data(style.data().to_vec());
            }
            db.set_sans_serif_family(FAMILY);
            db.set_serif_family(FAMILY);
            db.set_monospace_family(FAMILY);
            db.set_cursive_family(FAMILY);
            db.set_fantasy_family(FAMILY);
            Arc::new(db)
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_parses_and_measures() {
        for style in [Style::Regular, Style::Bold, Style::Italic] {
            assert!(shapers().faces[style as usize].is_some(), "{style:?} does not parse");
            let w = width("Spinal Railcannon", style);
            assert!(w > 5.0 && w < 12.0, "{style:?}: {w}");
        }
        assert!(width("WWW", Style::Bold) > width("WWW", Style::Regular));
    }

    #[test]
    fn project_fonts_join_the_database() {
        let font = ProjectFont::new(REGULAR.to_vec()).expect("a font");
        assert_eq!(font.family, FAMILY);
        assert_eq!(database_with(std::slice::from_ref(&font)).len(), 4);
        assert!(ProjectFont::new(b"not a font".to_vec()).is_err());
    }

    #[test]
    fn the_database_knows_the_family() {
        let db = database();
        let families: Vec<String> = db.faces().flat_map(|f| f.families.iter().map(|(n, _)| n.clone())).collect();
        assert!(families.iter().any(|f| f == FAMILY), "{families:?}");
        assert_eq!(db.len(), 3);
    }
}
