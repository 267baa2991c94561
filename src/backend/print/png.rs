//! PNG images with resvg: one per card face, and the Tabletop Simulator
//! sheets that hold many faces.  Faces carry their bleed; a [`Trim`] says
//! how much of it an image shows (all of it for print-shop faces, none on
//! the sheets).

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::Tree;

/// What part of a face's tree is the trimmed card: the bleed as a fraction
/// of the tree's width and height.
#[derive(Clone, Copy, Debug)]
pub struct Trim {
    pub x: f32,
    pub y: f32,
}

impl Trim {
    /// The whole face, bleed included.
    pub const NONE: Trim = Trim { x: 0.0, y: 0.0 };

    pub fn new(card_w: f32, card_h: f32, bleed: f32) -> Trim {
        Trim { x: bleed / (card_w + 2.0 * bleed), y: bleed / (card_h + 2.0 * bleed) }
    }
}

/// A trimmed face rendered to `width` × `height` pixels.
pub fn render(tree: &Tree, trim: Trim, width: u32, height: u32) -> Result<Pixmap, String> {
    let mut pixmap = Pixmap::new(width.max(1), height.max(1)).ok_or("the image is too large")?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    draw(tree, trim, &mut pixmap, 0.0, 0.0, width as f32, height as f32);
    Ok(pixmap)
}

/// A trimmed face rendered to `width` × `height` pixels and encoded as PNG
/// at once.  Each thread draws into one image buffer it keeps, so that
/// rendering a thousand faces does not ask the system for a thousand fresh
/// buffers of several megabytes.
pub fn render_png(tree: &Tree, trim: Trim, width: u32, height: u32, dpi: u32) -> Result<Vec<u8>, String> {
    thread_local! {
        static CANVAS: std::cell::RefCell<Option<Pixmap>> = const { std::cell::RefCell::new(None) };
    }
    CANVAS.with(|canvas| {
        let mut canvas = canvas.borrow_mut();
        let reusable = canvas.as_ref().is_some_and(|p| (p.width(), p.height()) == (width.max(1), height.max(1)));
        if !reusable {
            *canvas = Some(Pixmap::new(width.max(1), height.max(1)).ok_or("the image is too large")?);
        }
        let Some(pixmap) = canvas.as_mut() else { return Err("no image to draw on".to_string()) };
        pixmap.fill(resvg::tiny_skia::Color::WHITE);
        draw(tree, trim, pixmap, 0.0, 0.0, width as f32, height as f32);
        encode(pixmap, dpi)
    })
}

/// Draws a trimmed face into a region of a larger image.
pub fn draw(tree: &Tree, trim: Trim, pixmap: &mut Pixmap, x: f32, y: f32, width: f32, height: f32) {
    let size = tree.size();
    let inner_w = size.width() * (1.0 - 2.0 * trim.x);
    let inner_h = size.height() * (1.0 - 2.0 * trim.y);
    let (sx, sy) = (width / inner_w, height / inner_h);
    let transform =
        Transform::from_row(sx, 0.0, 0.0, sy, x - size.width() * trim.x * sx, y - size.height() * trim.y * sy);
    let mut region = pixmap.as_mut();
    resvg::render(tree, transform, &mut region);
}

/// Encodes an image as PNG with the fastest compression, recording its
/// resolution and that its colours are sRGB (what resvg draws in).  The
/// image is written as RGB without alpha, flattened onto white: a face is a
/// piece of card, and print services and viewers handle opaque images
/// alike, where a transparent pixel may print black.  Each row is filtered
/// against the row above (`Up`) rather than trying every filter: faces are
/// mostly flat colour, where that is as good and far quicker.
pub fn encode(pixmap: &Pixmap, dpi: u32) -> Result<Vec<u8>, String> {
    let rgb = flattened(pixmap.data());
    // Faces compress to a few percent of their pixels; room for that up front.
    let mut bytes = Vec::with_capacity(rgb.len() / 8);
    let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fastest);
    encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    let per_metre = (f64::from(dpi) / 0.0254).round() as u32;
    encoder.set_pixel_dims(Some(png::PixelDimensions { xppu: per_metre, yppu: per_metre, unit: png::Unit::Meter }));
    let failed = |e: png::EncodingError| format!("cannot encode a PNG: {e}");
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(&rgb).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(bytes)
}

/// Premultiplied RGBA as RGB over white: each channel plus the white that
/// shows through what the pixel does not cover.
fn flattened(rgba: &[u8]) -> Vec<u8> {
    let mut rgb = Vec::with_capacity(rgba.len() / 4 * 3);
    for pixel in rgba.chunks_exact(4) {
        let white = 255 - pixel[3];
        rgb.extend_from_slice(&[
            pixel[0].saturating_add(white),
            pixel[1].saturating_add(white),
            pixel[2].saturating_add(white),
        ]);
    }
    rgb
}

/// Pixels for a length in millimetres at `dpi`.
pub fn pixels(mm: f32, dpi: u32) -> u32 {
    (mm / 25.4 * dpi as f32).round().max(1.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transparent_pixels_flatten_onto_white_and_opaque_ones_keep_their_colour() {
        // Opaque red, half-covering black (premultiplied), nothing at all.
        let rgba = [200, 10, 20, 255, 0, 0, 0, 128, 0, 0, 0, 0];
        assert_eq!(flattened(&rgba), [200, 10, 20, 127, 127, 127, 255, 255, 255]);
    }
}
