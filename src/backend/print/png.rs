//! PNG images with resvg: one per card face, and the Tabletop Simulator
//! sheets that hold many faces.  Faces carry their bleed; images show the
//! trimmed card only.

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

/// Encodes an opaque image (faces are drawn on white) as 8-bit RGB with
/// fast compression, recording its resolution: several times quicker than
/// tiny-skia's RGBA encoder, which dominated the time to print.
pub fn encode(pixmap: &Pixmap, dpi: u32) -> Result<Vec<u8>, String> {
    let rgb: Vec<u8> = pixmap.data().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let per_metre = (f64::from(dpi) / 0.0254).round() as u32;
    encoder.set_pixel_dims(Some(png::PixelDimensions { xppu: per_metre, yppu: per_metre, unit: png::Unit::Meter }));
    let failed = |e: png::EncodingError| format!("cannot encode a PNG: {e}");
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(&rgb).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(bytes)
}

/// Pixels for a length in millimetres at `dpi`.
pub fn pixels(mm: f32, dpi: u32) -> u32 {
    (mm / 25.4 * dpi as f32).round().max(1.0) as u32
}
