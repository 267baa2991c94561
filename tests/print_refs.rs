//! Visual regression: one card per face template, drawn on every named card
//! size and a landscape one, compared with the reference renders in
//! `tests/print-refs/` pixel by pixel within a small budget.  The references
//! are small (36 dpi) and were reviewed by eye; after a change to a template
//! that is meant to show, look at the new faces and bless them:
//!
//! ```sh
//! CARDSMITH_BLESS=1 cargo test --test print_refs
//! ```
//!
//! which rewrites the references and the contact sheet of them all in
//! `docs/images/print-contact-sheet.png`.

mod common;
use common::repo;

use cardsmith::backend::print::templates::Templates;
use cardsmith::backend::print::{self, sheet, svg, Formats, Options};
use cardsmith::workspace::Workspace;
use resvg::tiny_skia::{Color, Pixmap, PixmapPaint, Transform};
use std::path::{Path, PathBuf};

/// One card per face template: (its name, the template it shows).
const SAMPLES: &[(&str, &str)] = &[
    ("Spinal Railcannon", "dreadnaught-2e/offense"),
    ("Reactive Plating", "dreadnaught-2e/defense"),
    ("Armour Holds", "dreadnaught-2e/event"),
    ("Targeting Uplink", "dreadnaught-2e/boost"),
    ("Black Ice", "dreadnaught-2e/terrain"),
    ("Kinetic Battery Control", "dreadnaught-2e/system"),
    ("Bomb-Pumped Grasers", "dreadnaught-1e/offense"),
    ("Cinderhound", "dreadnought-tcg/unit"),
    ("Kagan Stormwright", "dreadnought-tcg/caster"),
    ("Ember Lance", "dreadnought-tcg/code"),
    ("Ashbrand Gauntlet", "dreadnought-tcg/arms"),
    ("Effigy of the Tide", "dreadnought-tcg/idol"),
    ("UCM Madrid", "dropfleet-1.3/ship"),
    ("UCMF Commodore", "common/card"),
];

const SIZES: &[&str] = &["poker", "bridge", "tarot", "mini", "88.9x63.5"];
const DPI: u32 = 36;
/// A pixel differs when a channel moves by more than this.
const CHANNEL_TOLERANCE: u8 = 40;
/// At most this share of a face's pixels may differ: anti-aliasing moves
/// from one renderer version to the next, a moved or missing region does not
/// stay under it.
const PIXEL_BUDGET: f64 = 0.01;

fn references() -> PathBuf {
    repo().join("tests/print-refs")
}

/// Every bundled card, checked as `cardsmith print cards/` reads them.
fn bundled() -> cardsmith::workspace::Outcome {
    let mut workspace = Workspace::new();
    for game in ["dreadnaught-1e", "dreadnaught-2e", "dreadnought-tcg", "dropfleet-1.3"] {
        let mut paths: Vec<_> = std::fs::read_dir(repo().join("cards").join(game))
            .expect("bundled cards")
            .map(|e| e.expect("entry").path())
            .collect();
        paths.sort();
        for path in paths {
            let name = format!("cards/{game}/{}", path.file_name().and_then(|n| n.to_str()).unwrap_or("?"));
            workspace.add_bytes(&name, std::fs::read(&path).expect("readable"));
        }
    }
    workspace.check()
}

/// The sample faces drawn at `size`, by card name.
fn faces(outcome: &cardsmith::workspace::Outcome, size: &str) -> Vec<(String, Pixmap)> {
    let card = sheet::card_size(size).expect("a card size");
    let options = Options {
        card,
        paper: sheet::paper_size("a3").expect("a3"),
        dpi: DPI,
        formats: Formats::ALL,
        // Every template at every size: the size a ruleset gives a kind of
        // its own (Dropfleet's ships) is overridden as a project would.
        kind_sizes: every_kind(outcome).map(|kind| (kind, card)).collect(),
        // The references show the templates' copy count too, which a
        // print leaves off the faces unless asked.
        copies_on_face: true,
        ..Options::default()
    };
    let mut templates = Templates::new(&[]).expect("bundled templates");
    let job = print::prepare(&outcome.project, &mut templates, &options);
    let usvg = svg::options();
    SAMPLES
        .iter()
        .map(|(name, _)| {
            let face = job.faces.iter().find(|f| f.name == *name).unwrap_or_else(|| panic!("`{name}` is bundled"));
            let tree = svg::parse(&face.front, &usvg).expect("a valid face");
            let trim = print::png::Trim::new(card.w, card.h, 0.0);
            let (w, h) = (print::png::pixels(card.w, DPI), print::png::pixels(card.h, DPI));
            (name.to_string(), print::png::render(&tree, trim, w, h).expect("rendered"))
        })
        .collect()
}

/// The id of every kind of the bundled games.
fn every_kind(outcome: &cardsmith::workspace::Outcome) -> impl Iterator<Item = String> + '_ {
    outcome.project.games.iter().flat_map(|game| game.ruleset.kinds.iter().map(|kind| kind.id.clone()))
}

fn file_name(size: &str, template: &str) -> String {
    format!("{}-{}.png", template.replace('/', "-"), size.replace('.', "_"))
}

/// Reads a reference as RGBA.
fn read_png(path: &Path) -> Option<(u32, u32, Vec<u8>)> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).ok()?));
    let mut reader = decoder.read_info().ok()?;
    let mut buffer = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buffer).ok()?;
    let rgb = &buffer[..info.buffer_size()];
    let rgba = match info.color_type {
        png::ColorType::Rgb => rgb.chunks(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::Rgba => rgb.to_vec(),
        _ => return None,
    };
    Some((info.width, info.height, rgba))
}

/// Writes an opaque image as a small RGB PNG.
fn write_png(path: &Path, pixmap: &Pixmap) {
    let rgb: Vec<u8> = pixmap.data().chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let file = std::fs::File::create(path).expect("writable reference");
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    encoder.write_header().expect("header").write_image_data(&rgb).expect("pixels");
}

/// How many pixels differ by more than the tolerance.
fn differing(pixmap: &Pixmap, reference: &[u8]) -> usize {
    pixmap
        .data()
        .chunks(4)
        .zip(reference.chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).take(3).any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE))
        .count()
}

/// Every reference on one sheet: a row per size, a column per template.
fn contact_sheet(rendered: &[(&str, Vec<(String, Pixmap)>)]) -> Pixmap {
    let gap = 6;
    let cell_w = rendered.iter().flat_map(|(_, f)| f.iter().map(|(_, p)| p.width())).max().unwrap_or(1);
    let row_h: Vec<u32> = rendered.iter().map(|(_, f)| f.iter().map(|(_, p)| p.height()).max().unwrap_or(1)).collect();
    let width = gap + SAMPLES.len() as u32 * (cell_w + gap);
    let height = gap + row_h.iter().map(|h| h + gap).sum::<u32>();
    let mut sheet = Pixmap::new(width, height).expect("a contact sheet");
    sheet.fill(Color::from_rgba8(0xe4, 0xe6, 0xe9, 0xff));
    let mut y = gap;
    for ((_, faces), h) in rendered.iter().zip(&row_h) {
        for (column, (_, face)) in faces.iter().enumerate() {
            let x = gap + column as u32 * (cell_w + gap) + (cell_w - face.width()) / 2;
            sheet.draw_pixmap(x as i32, y as i32, face.as_ref(), &PixmapPaint::default(), Transform::identity(), None);
        }
        y += h + gap;
    }
    sheet
}

#[test]
fn every_template_matches_its_reference_at_every_size() {
    let bless = std::env::var_os("CARDSMITH_BLESS").is_some();
    let outcome = bundled();
    let rendered: Vec<(&str, Vec<(String, Pixmap)>)> =
        SIZES.iter().map(|size| (*size, faces(&outcome, size))).collect();
    let mut failures = Vec::new();
    for (size, faces) in &rendered {
        for ((_, pixmap), (name, template)) in faces.iter().zip(SAMPLES) {
            let path = references().join(file_name(size, template));
            if bless {
                std::fs::create_dir_all(references()).expect("references folder");
                write_png(&path, pixmap);
                continue;
            }
            let Some((w, h, reference)) = read_png(&path) else {
                failures.push(format!("{}: no reference (bless with CARDSMITH_BLESS=1)", path.display()));
                continue;
            };
            if (w, h) != (pixmap.width(), pixmap.height()) {
                failures.push(format!(
                    "{template} ({name}) at {size}: {w}×{h} in the reference, now {}×{}",
                    pixmap.width(),
                    pixmap.height()
                ));
                continue;
            }
            let count = differing(pixmap, &reference);
            let budget = (f64::from(w * h) * PIXEL_BUDGET).ceil() as usize;
            if count > budget {
                failures.push(format!("{template} ({name}) at {size}: {count} pixels differ, budget {budget}"));
            }
        }
    }
    if bless {
        write_png(&repo().join("docs/images/print-contact-sheet.png"), &contact_sheet(&rendered));
    }
    assert!(failures.is_empty(), "faces changed; look at them and bless if meant:\n{}", failures.join("\n"));
}

#[test]
fn a_changed_face_is_caught() {
    // The comparison itself: a face with a box drawn over it exceeds the budget.
    let outcome = bundled();
    let (_, mut face) = faces(&outcome, "poker").swap_remove(0);
    let reference = face.data().to_vec();
    assert_eq!(differing(&face, &reference), 0);
    let (w, h) = (face.width() as f32, face.height() as f32);
    let rect = resvg::tiny_skia::Rect::from_xywh(w * 0.2, h * 0.4, w * 0.3, h * 0.1).expect("a rect");
    let mut paint = resvg::tiny_skia::Paint::default();
    paint.set_color_rgba8(0, 0, 0, 255);
    face.fill_rect(rect, &paint, Transform::identity(), None);
    let budget = (f64::from(face.width() * face.height()) * PIXEL_BUDGET).ceil() as usize;
    assert!(differing(&face, &reference) > budget, "a moved region must not pass");
}
