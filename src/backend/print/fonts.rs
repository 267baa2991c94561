//! The bundled fonts: DejaVu Sans Condensed in three faces, compiled into the
//! binary so every machine lays out and renders text the same way and no
//! system font is consulted.  A project may add fonts of its own (files in
//! the project, `[print] fonts`), which the command line reads and hands in
//! as [`ProjectFont`]s: usvg lays out and renders the text that names their
//! family, the PDF embeds them subset, and the preview embeds them whole.

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
/// the text is rendered.
pub fn width(text: &str, style: Style) -> f32 {
    thread_local! {
        /// Widths this thread has measured, per style: card text repeats its
        /// words, and each shaping call builds its plan anew.
        static MEASURED: std::cell::RefCell<[std::collections::HashMap<String, f32>; 3]> = Default::default();
    }
    /// Past this many words a style's table starts again, bounding memory.
    const KEEP: usize = 50_000;
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

fn shape_width(text: &str, style: Style) -> f32 {
    let Some(face) = &shapers().faces[style as usize] else { return fallback_width(text) };
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

/// A font file of the project, with the family its templates name it by.
#[derive(Clone, Debug)]
pub struct ProjectFont {
    pub family: String,
    pub data: Arc<Vec<u8>>,
}

impl ProjectFont {
    /// Reads a TrueType or OpenType font (the first face of a collection);
    /// `Err` says why the bytes are not one.
    pub fn new(data: Vec<u8>) -> Result<ProjectFont, String> {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(data.clone());
        let family = db
            .faces()
            .next()
            .and_then(|face| face.families.first().map(|(name, _)| name.clone()))
            .ok_or("it is not a TrueType or OpenType font")?;
        Ok(ProjectFont { family, data: Arc::new(data) })
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
