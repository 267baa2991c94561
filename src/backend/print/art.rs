//! Artwork: the images cards name in fields of the `image` type, checked and
//! handed to templates.
//!
//! The library reads no file: [`wanted`] lists the paths the cards name, the
//! command line reads them (confined to the project) and gives back each
//! one's bytes or why it could not, and [`Art::load`] checks that each is
//! an image it can draw (PNG, JPEG or SVG, not too large).  A template draws
//! a card's art with `<image href="{{ art.FIELD }}" …
//! preserveAspectRatio="xMidYMid slice"/>` (crop to fill) or `"xMidYMid
//! meet"` (fit inside).  The address is a short name (`art:3`) that
//! [`Images`] resolves when faces are parsed: however many faces show an
//! image, its bytes are held once and shared by every tree, so the PDF
//! writer embeds it once; only the HTML preview writes it out as a `data:`
//! address, once per use.

use super::codes;
use super::svg::{Unusable, MAX_PIXELS, MAX_SIDE};
use crate::diagnostics::Diagnostic;
use crate::ir::{Card, Game, Project, Value};
use crate::ruleset::model::Type;
use base64::Engine;
use resvg::usvg::ImageKind;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// What the command line found at a path a card names.
#[derive(Clone, Debug)]
pub enum Source {
    Bytes(Vec<u8>),
    /// No file has that path in the project: the reason.  Cards draw a
    /// placeholder in its place (`check` has warned about it).
    Missing(String),
    /// It could not be read: the reason.
    Unreadable(String),
    /// The path leaves the project (absolute, `..`, or a link out).
    Outside(String),
    /// Larger than the reader's limit.
    TooLarge(String),
}

/// Every image path the cards of `project` name, each once, in order.
pub fn wanted(project: &Project) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    for game in &project.games {
        for card in &game.cards {
            for (_, path) in card_images(game, card) {
                if !paths.contains(&path) {
                    paths.push(path);
                }
            }
        }
    }
    paths
}

/// The card's fields of the `image` type with the path each names.
fn card_images(game: &Game, card: &Card) -> Vec<(String, String)> {
    let Some(kind) = game.ruleset.kind_of(&card.kind) else { return Vec::new() };
    let mut found = Vec::new();
    for field in &card.body.fields {
        let Some(def) = kind.schema.field(&field.name) else { continue };
        if !def.schema.takes.iter().any(|t| t.ty == Type::Image) {
            continue;
        }
        if let Some(Value::String(path)) = field.first_value() {
            found.push((field.name.clone(), path.clone()));
        }
    }
    found
}

/// The images of a print, by path: the name templates draw it by, or the
/// diagnostic to give at each card that names it.
#[derive(Debug, Default)]
pub struct Art {
    images: HashMap<String, Result<String, Problem>>,
    drawn: Images,
}

/// The images faces draw, by the name templates write in `href`.
#[derive(Clone, Default)]
pub struct Images {
    by_href: Arc<HashMap<String, Image>>,
}

#[derive(Clone)]
struct Image {
    kind: ImageKind,
    /// Its width and height in pixels; none for an SVG picture.
    pixels: Option<(u32, u32)>,
    /// The path the cards name it by.
    path: Arc<str>,
    /// The `data:` address, for the HTML preview.
    address: Arc<str>,
}

impl std::fmt::Debug for Images {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.by_href.keys()).finish()
    }
}

impl Images {
    /// The image a face names, for usvg.
    pub fn resolve(&self, href: &str) -> Option<ImageKind> {
        self.by_href.get(href).map(|image| image.kind.clone())
    }

    /// A face's SVG with each image name replaced by its `data:` address,
    /// for a page that must hold everything itself.
    pub fn inline<'a>(&self, svg: &'a str) -> std::borrow::Cow<'a, str> {
        let mut out = std::borrow::Cow::Borrowed(svg);
        for (href, image) in self.by_href.iter() {
            let quoted = format!("\"{href}\"");
            if out.contains(&quoted) {
                out = std::borrow::Cow::Owned(out.replace(&quoted, &format!("\"{}\"", image.address)));
            }
        }
        out
    }
}

/// `options` with the images of `art` drawn where a face names them.
pub fn with_art(mut options: resvg::usvg::Options<'static>, art: &Images) -> resvg::usvg::Options<'static> {
    let art = art.clone();
    options.image_href_resolver.resolve_string = Box::new(move |href, _| art.resolve(href));
    options
}

#[derive(Clone, Debug)]
struct Problem {
    code: &'static crate::diagnostics::Code,
    message: String,
    help: &'static str,
    /// The file is not there: a card draws the placeholder instead.
    placeholder: bool,
}

/// The name templates draw the placeholder by, in place of a card's
/// picture that is not in the project.
pub const PLACEHOLDER: &str = "art:missing";

/// The placeholder as a picture, for a template that draws `art.FIELD`
/// with an `<image>` of its own: a grey field crossed through.
const PLACEHOLDER_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" \
     viewBox=\"0 0 100 100\"><rect width=\"100\" height=\"100\" fill=\"#eef0f2\"/>\
     <path d=\"M0 0L100 100M100 0L0 100\" stroke=\"#9aa3ab\" stroke-width=\"2\"/></svg>";

/// The resolution, in pixels an inch at the printed size, under which a
/// picture is reported (`W0717`).
pub const MIN_PPI: f32 = 200.0;

/// The resolution the help asks for: what print shops want.
const GOOD_PPI: f32 = 300.0;

impl Art {
    /// Checks each image the command line read.
    pub fn load(sources: Vec<(String, Source)>) -> Art {
        let loaded = crate::parallel::map(&sources, |(path, source)| check(path, source));
        let mut images = HashMap::new();
        let mut by_href = HashMap::new();
        if loaded.iter().any(|r| r.as_ref().is_err_and(|p| p.placeholder)) {
            if let Ok(tree) = super::svg::parse_image(PLACEHOLDER_SVG, &super::svg::options()) {
                let address = format!(
                    "data:image/svg+xml;base64,{}",
                    base64::engine::general_purpose::STANDARD.encode(PLACEHOLDER_SVG)
                );
                let image = Image {
                    kind: ImageKind::SVG((*tree).clone()),
                    pixels: None,
                    path: "".into(),
                    address: address.into(),
                };
                by_href.insert(PLACEHOLDER.to_string(), image);
            }
        }
        for (number, ((path, _), result)) in sources.iter().zip(loaded).enumerate() {
            let href = format!("art:{number}");
            images.insert(
                path.clone(),
                result.map(|image| {
                    by_href.insert(href.clone(), image);
                    href
                }),
            );
        }
        Art { images, drawn: Images { by_href: Arc::new(by_href) } }
    }

    /// The name templates draw the image at `path` by (read with the
    /// others), or a diagnostic saying why it cannot be drawn.
    pub fn href(&self, path: &str, what: &str) -> Result<String, Box<Diagnostic>> {
        match self.images.get(path) {
            Some(Ok(href)) => Ok(href.clone()),
            Some(Err(problem)) => Err(Box::new(
                Diagnostic::error(problem.code, format!("the {what} `{path}` cannot be drawn"))
                    .note(problem.message.clone())
                    .help(problem.help),
            )),
            None => Err(Box::new(
                Diagnostic::error(&codes::IMAGE_UNREADABLE, format!("the {what} `{path}` was not read"))
                    .help("images are read when printing a project from the command line"),
            )),
        }
    }

    /// The images, for parsing the faces that draw them.
    pub fn images(&self) -> Images {
        self.drawn.clone()
    }

    /// The card's art for its template (field name → `data:` address) and
    /// a diagnostic at the card for each image that cannot be drawn.
    pub fn for_card(&self, game: &Game, card: &Card) -> (BTreeMap<String, String>, Vec<Diagnostic>) {
        let mut art = BTreeMap::new();
        let mut problems = Vec::new();
        for (field, path) in card_images(game, card) {
            match self.images.get(&path) {
                Some(Ok(href)) => {
                    art.insert(field, href.clone());
                }
                // `check` warned at the path (W0716): the card prints.
                Some(Err(problem)) if problem.placeholder => {
                    art.insert(field, PLACEHOLDER.to_string());
                }
                Some(Err(problem)) => problems.push(
                    Diagnostic::error(problem.code, format!("the {field} of `{}` cannot be drawn", card.name))
                        .primary(card.span, format!("names `{path}`"))
                        .note(problem.message.clone())
                        .help(problem.help),
                ),
                None => problems.push(
                    Diagnostic::error(&codes::IMAGE_UNREADABLE, format!("the {field} of `{}` was not read", card.name))
                        .primary(card.span, format!("names `{path}`"))
                        .help("images are read when printing a project from the command line"),
                ),
            }
        }
        (art, problems)
    }
}

/// A warning at each card's picture that is not in the project: `exists`
/// says whether a path (relative to the project folder) names a file.  A
/// path that leaves the project is left to `print`, which refuses it.
pub fn missing(project: &Project, exists: impl Fn(&str) -> bool) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for game in &project.games {
        for card in &game.cards {
            let Some(kind) = game.ruleset.kind_of(&card.kind) else { continue };
            for field in &card.body.fields {
                let is_image =
                    kind.schema.field(&field.name).is_some_and(|d| d.schema.takes.iter().any(|t| t.ty == Type::Image));
                let Some(value) = field.values.first().filter(|_| is_image) else { continue };
                let Value::String(path) = &value.value else { continue };
                let leaves = std::path::Path::new(path)
                    .components()
                    .any(|c| !matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir));
                if leaves || path.is_empty() || exists(path) {
                    continue;
                }
                found.push(
                    Diagnostic::warning(
                        &codes::ART_MISSING,
                        format!("the {} of `{}` is not in the project", field.name, card.name),
                    )
                    .primary(value.span, format!("no file `{path}`"))
                    .note("`print` draws a placeholder in its place")
                    .help("check the path: it is relative to the project folder, the one holding cardsmith.toml"),
                );
            }
        }
    }
    found
}

impl Art {
    /// A warning for each picture a face draws (`svg`, as its template
    /// wrote it) at under [`MIN_PPI`] pixels an inch, at the card's field
    /// that names it.  The size is the `width` and `height` the `<image>` is
    /// given, in points, cropped (`slice`) or fitted as it says.
    pub fn low_resolution(&self, svg: &str, card: &Card) -> Vec<Diagnostic> {
        if !svg.contains("\"art:") {
            return Vec::new();
        }
        let Ok(document) = resvg::usvg::roxmltree::Document::parse(svg) else { return Vec::new() };
        let mut found: Vec<Diagnostic> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for node in document.descendants().filter(|n| n.has_tag_name("image")) {
            let href = node.attribute("href").or_else(|| node.attribute(("http://www.w3.org/1999/xlink", "href")));
            let Some(image) = href.and_then(|h| self.drawn.by_href.get(h)) else { continue };
            let Some((pw, ph)) = image.pixels.filter(|(w, h)| *w > 0 && *h > 0) else { continue };
            let length =
                |name: &str| node.attribute(name).and_then(|v| v.trim().parse::<f32>().ok()).filter(|v| *v > 0.0);
            let (Some(w), Some(h)) = (length("width"), length("height")) else { continue };
            let (across, down) = (w / pw as f32, h / ph as f32);
            let fit = node.attribute("preserveAspectRatio").unwrap_or_default();
            let points_a_pixel =
                if fit.contains("slice") || fit.trim() == "none" { across.max(down) } else { across.min(down) };
            let ppi = 72.0 / points_a_pixel;
            if ppi >= MIN_PPI || seen.contains(&&*image.path) {
                continue;
            }
            seen.push(&image.path);
            let span = card
                .body
                .fields
                .iter()
                .flat_map(|f| f.values.first())
                .find(|v| matches!(&v.value, Value::String(p) if *p == *image.path))
                .map_or(card.span, |v| v.span);
            let mm = |points: f32| points / 72.0 * 25.4;
            let wanted = |points: f32| (points / 72.0 * GOOD_PPI).ceil() as u32;
            found.push(
                Diagnostic::warning(
                    &codes::ART_LOW_RESOLUTION,
                    format!("the art `{}` of `{}` prints at {} ppi", image.path, card.name, ppi.round() as u32),
                )
                .primary(span, format!("{pw} × {ph} pixels, drawn {:.1} × {:.1} mm", mm(w), mm(h)))
                .note(format!("pictures print sharp at {MIN_PPI} pixels an inch or more at their printed size"))
                .help(format!(
                    "use a larger picture: about {} × {} pixels fills this window at {GOOD_PPI} ppi",
                    wanted(w),
                    wanted(h)
                )),
            );
        }
        found
    }
}

/// Whether `source` is an image that can be drawn, and it ready to draw.
fn check(path: &str, source: &Source) -> Result<Image, Problem> {
    let problem = |code, message: String, help| Problem { code, message, help, placeholder: false };
    let bytes = match source {
        Source::Bytes(bytes) => bytes,
        Source::Missing(why) => {
            let help = "check the path: it is relative to the project folder";
            return Err(Problem { placeholder: true, ..problem(&codes::IMAGE_UNREADABLE, why.clone(), help) });
        }
        Source::Unreadable(why) => {
            return Err(problem(
                &codes::IMAGE_UNREADABLE,
                why.clone(),
                "check the path: it is relative to the project folder",
            ))
        }
        Source::Outside(why) => {
            return Err(problem(
                &codes::IMAGE_OUTSIDE,
                why.clone(),
                "copy the image into the project folder and name it from there",
            ))
        }
        Source::TooLarge(why) => {
            return Err(problem(
                &codes::IMAGE_TOO_LARGE,
                why.clone(),
                "make the image smaller: 300 dpi at the card's size is plenty",
            ))
        }
    };
    let undecodable = |why: String| problem(&codes::IMAGE_UNDECODABLE, why, "save the image again as PNG, JPEG or SVG");
    let refused = |e| match e {
        Refused::TooLarge(why) => problem(&codes::IMAGE_TOO_LARGE, why, "scale the image down"),
        Refused::Broken(why) => undecodable(why),
    };
    let (mime, kind, pixels) = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        let pixels = decode_png(bytes).map_err(refused)?;
        ("image/png", ImageKind::PNG(Arc::new(bytes.clone())), Some(pixels))
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        let pixels = decode_jpeg(bytes).map_err(refused)?;
        ("image/jpeg", ImageKind::JPEG(Arc::new(bytes.clone())), Some(pixels))
    } else if looks_like_svg(bytes) {
        let text = String::from_utf8_lossy(bytes);
        let tree = super::svg::parse_image(&text, &super::svg::options()).map_err(|e| match e {
            Unusable::Embeds(why) => {
                problem(&codes::IMAGE_TOO_LARGE, format!("`{path}`: {why}"), "scale the image down")
            }
            Unusable::Broken(why) => undecodable(format!("`{path}`: {why}")),
        })?;
        ("image/svg+xml", ImageKind::SVG((*tree).clone()), None)
    } else {
        return Err(undecodable(format!("`{path}` is not a PNG, JPEG or SVG file")));
    };
    let address = format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes));
    drawable(&address, path).map_err(undecodable)?;
    Ok(Image { kind, pixels, path: path.into(), address: address.into() })
}

enum Refused {
    TooLarge(String),
    Broken(String),
}

/// Decodes a PNG whole: its size first, refused past the limits, then every
/// pixel, so a truncated or corrupt file is found here and not on paper.
fn decode_png(bytes: &[u8]) -> Result<(u32, u32), Refused> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().map_err(|e| Refused::Broken(format!("the PNG does not decode: {e}")))?;
    let (w, h) = (reader.info().width, reader.info().height);
    if w > MAX_SIDE || h > MAX_SIDE || u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(Refused::TooLarge(format!(
            "the image is {w} × {h} pixels; at most {MAX_SIDE} a side and {MAX_PIXELS} in all are drawn"
        )));
    }
    let size = reader.output_buffer_size().ok_or_else(|| Refused::TooLarge("the image is too large".into()))?;
    let mut pixels = vec![0; size];
    reader.next_frame(&mut pixels).map_err(|e| Refused::Broken(format!("the PNG does not decode: {e}")))?;
    Ok((w, h))
}

/// Decodes a JPEG whole, as `decode_png` does a PNG: its size first, then
/// every pixel, so a truncated or corrupt file is found here.
fn decode_jpeg(bytes: &[u8]) -> Result<(u32, u32), Refused> {
    let broken = |e: zune_jpeg::errors::DecodeErrors| Refused::Broken(format!("the JPEG does not decode: {e}"));
    let mut decoder = zune_jpeg::JpegDecoder::new(std::io::Cursor::new(bytes));
    decoder.decode_headers().map_err(broken)?;
    let (w, h) = decoder.dimensions().map(|(w, h)| (w as u32, h as u32)).unwrap_or((0, 0));
    if w > MAX_SIDE || h > MAX_SIDE || u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(Refused::TooLarge(format!(
            "the image is {w} × {h} pixels; at most {MAX_SIDE} a side and {MAX_PIXELS} in all are drawn"
        )));
    }
    decoder.decode().map(|_| (w, h)).map_err(broken)
}

fn looks_like_svg(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    let head = head.trim_start_matches('\u{feff}').trim_start();
    head.starts_with('<') && head.contains("<svg")
}

/// Whether usvg takes the image: it reads a JPEG's header and parses an SVG
/// whole (with no access to other files), and drops an image it cannot use.
fn drawable(address: &str, path: &str) -> Result<(), String> {
    let probe = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><image href=\"{address}\" width=\"10\" height=\"10\"/></svg>"
    );
    let tree = super::svg::parse(&probe, &super::svg::options()).map_err(|e| format!("`{path}`: {e}"))?;
    if tree.root().has_children() {
        Ok(())
    } else {
        Err(format!("`{path}` cannot be read as an image"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"><rect width=\"4\" height=\"4\"/></svg>";

    #[test]
    fn images_are_checked_and_named_once() {
        let art = Art::load(vec![
            ("a.svg".into(), Source::Bytes(SVG.as_bytes().to_vec())),
            ("b.png".into(), Source::Bytes(b"plain text".to_vec())),
            ("c.png".into(), Source::Outside("out".into())),
            ("d.png".into(), Source::Bytes(b"\x89PNG\r\n\x1a\ncut".to_vec())),
        ]);
        assert_eq!(art.href("a.svg", "art").ok().as_deref(), Some("art:0"));
        let code = |path: &str| art.href(path, "art").err().map(|d| d.code.id);
        assert_eq!(
            [code("b.png"), code("c.png"), code("d.png"), code("e.png")].map(Option::unwrap_or_default),
            ["E0713", "E0711", "E0713", "E0710"]
        );
        let images = art.images();
        assert!(matches!(images.resolve("art:0"), Some(ImageKind::SVG(_))));
        assert!(images.resolve("art:1").is_none());
        let face = "<image href=\"art:0\"/><image href=\"art:01\"/>";
        let inlined = images.inline(face);
        assert!(inlined.starts_with("<image href=\"data:image/svg+xml;base64,"), "{inlined}");
        assert!(inlined.ends_with("<image href=\"art:01\"/>"), "only the exact name is replaced: {inlined}");
    }

    /// A JPEG is decoded whole: one cut short after its header, which a look
    /// at the header alone would take, is refused.
    #[test]
    fn a_jpeg_cut_short_is_refused() {
        let whole = include_bytes!("../../../tests/art/gradient.jpg").to_vec();
        let cut = whole[..200].to_vec();
        let art = Art::load(vec![("whole.jpg".into(), Source::Bytes(whole)), ("cut.jpg".into(), Source::Bytes(cut))]);
        assert!(art.href("whole.jpg", "art").is_ok());
        let refused = art.href("cut.jpg", "art").expect_err("cut short");
        assert_eq!(refused.code.id, "E0713");
    }
}
