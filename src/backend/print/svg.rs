//! Small helpers for writing SVG by hand, and the usvg options every face is
//! parsed with.

use std::sync::Arc;

pub use crate::markup::escape;

/// A coordinate with at most two decimals, so output is short and stable.
pub fn num(value: f32) -> String {
    if !value.is_finite() {
        return "0".into();
    }
    let rounded = (value * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

/// usvg options with the bundled fonts and nothing read from disk.
pub fn options() -> resvg::usvg::Options<'static> {
    options_with(super::fonts::database())
}

/// usvg options with the fonts of `fontdb` and nothing read from disk.
pub fn options_with(fontdb: Arc<resvg::usvg::fontdb::Database>) -> resvg::usvg::Options<'static> {
    let mut options = resvg::usvg::Options {
        font_family: super::fonts::FAMILY.to_string(),
        fontdb,
        ..resvg::usvg::Options::default()
    };
    // Faces never load external files or images (a card's art comes in
    // through `art::with_art`).
    options.resources_dir = None;
    options.image_href_resolver =
        resvg::usvg::ImageHrefResolver { resolve_data: embedded_images(), resolve_string: Box::new(|_, _| None) };
    options
}

/// The most pixels an image may have on a side, and in all, whether a
/// card's art or an image a face embeds: a decoded image of 8192 × 8192
/// takes 256 MiB, and nothing on a card needs more.
pub const MAX_SIDE: u32 = 8192;
pub const MAX_PIXELS: u64 = 40_000_000;

/// The deepest an SVG may embed another as a `data:` image: a picture
/// holding a picture holding a picture.
pub const MOST_EMBEDDED_DEPTH: usize = 3;

thread_local! {
    /// How deep the SVG being parsed on this thread is embedded, and the
    /// first image it embeds that was refused.
    static EMBEDDED: std::cell::RefCell<(usize, Option<String>)> = const { std::cell::RefCell::new((0, None)) };
}

/// usvg's resolver of `data:` images, refusing (and noting why) a raster
/// past the pixels an image may have, an SVG embedded deeper than
/// [`MOST_EMBEDDED_DEPTH`] and a compressed SVG (whose size is unknown until
/// it is inflated): the raster would be decoded whole when drawn, however
/// small its file.
fn embedded_images() -> resvg::usvg::ImageHrefDataResolverFn<'static> {
    let default = resvg::usvg::ImageHrefResolver::default_data_resolver();
    Box::new(move |mime, data, options| {
        let refuse = |why: String| {
            EMBEDDED.with_borrow_mut(|(_, refused)| {
                refused.get_or_insert(why);
            });
            None
        };
        if let Ok(size) = imagesize::blob_size(&data) {
            let (w, h) = (size.width as u64, size.height as u64);
            let (side, all) = (u64::from(MAX_SIDE), MAX_PIXELS);
            if w > side || h > side || w * h > all {
                return refuse(format!(
                    "it embeds an image of {w} × {h} pixels; at most {side} a side and {all} in all are drawn"
                ));
            }
            return default(mime, data, options);
        }
        if data.starts_with(&[0x1f, 0x8b]) {
            return refuse("it embeds a compressed SVG (svgz): embed it uncompressed".to_string());
        }
        let depth = EMBEDDED.with_borrow(|(depth, _)| *depth);
        if depth >= MOST_EMBEDDED_DEPTH {
            return refuse(format!("it embeds SVG images more than {MOST_EMBEDDED_DEPTH} deep"));
        }
        EMBEDDED.with_borrow_mut(|(depth, _)| *depth += 1);
        let kind = default(mime, data, options);
        EMBEDDED.with_borrow_mut(|(depth, _)| *depth -= 1);
        kind
    })
}

/// Why an SVG cannot be drawn.
pub enum Unusable {
    /// It does not parse.
    Broken(String),
    /// It embeds an image past the limits (see [`embedded_images`]).
    Embeds(String),
}

/// Parses a face's SVG.
pub fn parse(svg: &str, options: &resvg::usvg::Options) -> Result<Arc<resvg::usvg::Tree>, String> {
    parse_image(svg, options).map_err(|(Unusable::Broken(why) | Unusable::Embeds(why))| why)
}

/// Parses an SVG; an image it embeds that is refused makes the whole SVG
/// refused, rather than drawn without it.
pub fn parse_image(svg: &str, options: &resvg::usvg::Options) -> Result<Arc<resvg::usvg::Tree>, Unusable> {
    let outer = EMBEDDED.replace((0, None));
    let tree = resvg::usvg::Tree::from_str(svg, options).map(Arc::new);
    let (_, refused) = EMBEDDED.replace(outer);
    match (refused, tree) {
        (Some(why), _) => Err(Unusable::Embeds(why)),
        (None, tree) => tree.map_err(|e| Unusable::Broken(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(f32::NAN), "0");
        assert_eq!(num(12.5), "12.5");
    }
}
