//! `cardsmith print`: the PDF's structure read with `lopdf` (pages, page
//! size, trim and bleed boxes, embedded fonts) and, where poppler is
//! installed, the rendered page measured (card size and cut marks, cards per
//! page, mirrored backs); every bundled card drawn without overflow, the
//! overflow diagnostic, escaping of card text, and deterministic output.

mod common;
use common::{cardsmith, example_project, outside_program, repo, stderr};

use cardsmith::backend::print::{self, sheet, templates::Templates, Formats, Options};
use lopdf::{Dictionary, Object, ObjectId};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// How to get poppler's tools, for the tests that render with them.
const POPPLER: &str = "apt-get install poppler-utils";

/// Runs a poppler tool; the test fails with the install line when it is missing.
fn poppler(tool: &str, args: &[&str]) -> Output {
    let output = outside_program(Command::new(tool).args(args), POPPLER);
    assert!(output.status.success(), "{tool} failed: {}", String::from_utf8_lossy(&output.stderr));
    output
}

/// Prints the bundled Dreadnaught 2e cards as a PDF into `dir/out` with the
/// extra `options`; returns the PDF's path.
fn print_pdf(dir: &Path, options: &[&str]) -> PathBuf {
    let out = dir.join("out");
    let args = ["print", "cards/dreadnaught-2e", "-o", out.to_str().expect("utf-8 path"), "--format", "pdf"];
    let output = cardsmith(&[&args[..], options].concat(), repo());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    out.join("dreadnaught-2e.pdf")
}

/// A PDF read with `lopdf`: an independent reading of its structure.
struct Pdf(lopdf::Document);

impl Pdf {
    fn open(path: &Path) -> Pdf {
        Pdf(lopdf::Document::load(path).unwrap_or_else(|e| panic!("{} is not a readable PDF: {e}", path.display())))
    }

    /// The pages, in order.
    fn pages(&self) -> Vec<ObjectId> {
        self.0.get_pages().into_values().collect()
    }

    /// The object `object` is or refers to.
    fn resolve<'a>(&'a self, object: &'a Object) -> &'a Object {
        self.0.dereference(object).map(|(_, o)| o).unwrap_or_else(|e| panic!("a dangling reference: {e}"))
    }

    /// A page's `MediaBox`, `TrimBox` or `BleedBox` in points: `[x0, y0, x1,
    /// y1]`.  Only the media box is inherited from the page tree.
    fn page_box(&self, page: ObjectId, name: &str) -> Option<[f64; 4]> {
        let mut node = self.0.get_dictionary(page).expect("a page dictionary");
        let found = loop {
            match node.get(name.as_bytes()) {
                Ok(found) => break found,
                Err(_) if name != "MediaBox" => return None,
                Err(_) => node = self.resolve(node.get(b"Parent").ok()?).as_dict().expect("the parent page node"),
            }
        };
        let numbers: Vec<f64> = self
            .resolve(found)
            .as_array()
            .expect("a box is an array")
            .iter()
            .map(|n| f64::from(self.resolve(n).as_float().expect("a box holds numbers")))
            .collect();
        Some(numbers.try_into().unwrap_or_else(|n| panic!("a box of four numbers, not {n:?}")))
    }

    /// Every font a page draws with: those of its resources and of the
    /// forms (XObjects) it draws, however deeply nested.
    fn fonts(&self, page: ObjectId) -> Vec<&Dictionary> {
        let (own, inherited) = self.0.get_page_resources(page).expect("page resources");
        let mut pending: Vec<&Dictionary> = own.into_iter().collect();
        pending.extend(inherited.into_iter().map(|id| self.0.get_dictionary(id).expect("resources")));
        let (mut fonts, mut seen) = (Vec::new(), BTreeSet::new());
        while let Some(resources) = pending.pop() {
            for (kind, object) in self.resource_entries(resources) {
                let (id, object) = self.0.dereference(object).expect("a resource");
                if id.is_some_and(|id| !seen.insert(id)) {
                    continue;
                }
                match (kind, object) {
                    ("Font", Object::Dictionary(font)) => fonts.push(font),
                    ("XObject", Object::Stream(form)) => {
                        pending.extend(form.dict.get(b"Resources").ok().and_then(|r| self.resolve(r).as_dict().ok()))
                    }
                    _ => {}
                }
            }
        }
        fonts
    }

    /// The fonts and XObjects a resource dictionary names.
    fn resource_entries<'a>(&'a self, resources: &'a Dictionary) -> Vec<(&'static str, &'a Object)> {
        let mut entries = Vec::new();
        for kind in ["Font", "XObject"] {
            if let Some(named) = resources.get(kind.as_bytes()).ok().and_then(|d| self.resolve(d).as_dict().ok()) {
                entries.extend(named.iter().map(|(_, object)| (kind, object)));
            }
        }
        entries
    }

    /// Whether the font's glyphs are in the file: a font program in its
    /// descriptor (or its descendant's, for a composite font), or glyphs
    /// drawn by the file's own content streams (Type 3).
    fn embedded(&self, font: &Dictionary) -> bool {
        let name = |key: &[u8]| font.get(key).ok().and_then(|n| self.resolve(n).as_name().ok());
        match name(b"Subtype") {
            Some(b"Type3") => true,
            Some(b"Type0") => {
                font.get(b"DescendantFonts").ok().and_then(|d| self.resolve(d).as_array().ok()).is_some_and(|d| {
                    !d.is_empty() && d.iter().all(|f| self.resolve(f).as_dict().is_ok_and(|f| self.embedded(f)))
                })
            }
            _ => {
                font.get(b"FontDescriptor").ok().and_then(|d| self.resolve(d).as_dict().ok()).is_some_and(|d| {
                    [&b"FontFile"[..], b"FontFile2", b"FontFile3"].iter().any(|key| d.get(key).is_ok())
                })
            }
        }
    }

    /// The `BaseFont` of a font, for messages.
    fn font_name(&self, font: &Dictionary) -> String {
        font.get(b"BaseFont")
            .ok()
            .and_then(|n| self.resolve(n).as_name().ok())
            .map_or_else(|| "a font without a name".into(), |n| String::from_utf8_lossy(n).into_owned())
    }
}

/// Millimetres from PDF points.
fn points_to_mm(points: f64) -> f64 {
    points * 25.4 / 72.0
}

/// A grey page rendered by pdftoppm: width, height and one byte a pixel.
struct Gray {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Gray {
    fn render(pdf: &Path, page: usize, dpi: usize, dir: &Path) -> Gray {
        let prefix = dir.join(format!("page-{page}"));
        let (page_text, dpi_text) = (page.to_string(), dpi.to_string());
        let pdf_text = pdf.to_string_lossy();
        let prefix_text = prefix.to_string_lossy();
        poppler(
            "pdftoppm",
            &["-r", &dpi_text, "-gray", "-f", &page_text, "-l", &page_text, "-singlefile", &pdf_text, &prefix_text],
        );
        let bytes = std::fs::read(prefix.with_extension("pgm")).expect("pdftoppm wrote a PGM");
        // "P5\n<w> <h>\n255\n" then the pixels.
        let mut fields = Vec::new();
        let mut at = 0;
        while fields.len() < 4 {
            while bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            let start = at;
            while !bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
        }
        assert_eq!(fields[0], "P5");
        let (width, height): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
        let pixels = bytes[at + 1..].to_vec();
        assert_eq!(pixels.len(), width * height);
        Gray { width, height, pixels }
    }

    fn dark(&self, x: usize, y: usize) -> bool {
        self.pixels[y * self.width + x] < 128
    }

    /// Columns with dark pixels in rows `y0..y1`, merged into runs: the x
    /// positions of vertical lines there.
    fn vertical_lines(&self, y0: usize, y1: usize) -> Vec<f64> {
        let hits: Vec<usize> = (0..self.width).filter(|&x| (y0..y1).any(|y| self.dark(x, y))).collect();
        runs(&hits)
    }

    fn horizontal_lines(&self, x0: usize, x1: usize) -> Vec<f64> {
        let hits: Vec<usize> = (0..self.height).filter(|&y| (x0..x1).any(|x| self.dark(x, y))).collect();
        runs(&hits)
    }

    /// Whether the rectangle (in pixels) holds anything but white.
    fn inked(&self, x: usize, y: usize, w: usize, h: usize) -> bool {
        (y..y + h).step_by(3).any(|yy| (x..x + w).step_by(3).any(|xx| self.pixels[yy * self.width + xx] < 200))
    }
}

/// What `pdfinfo -box` says of a PDF.
struct PdfInfo(String);

impl PdfInfo {
    fn of(pdf: &Path) -> PdfInfo {
        PdfInfo(String::from_utf8_lossy(&poppler("pdfinfo", &["-box", &pdf.to_string_lossy()]).stdout).into_owned())
    }

    /// The numbers on the line that starts with `name` (`"TrimBox:"`).
    fn field(&self, name: &str) -> Vec<f64> {
        let line = self.0.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} in {}", self.0));
        line[name.len()..].split_whitespace().filter_map(|w| w.parse().ok()).collect()
    }
}

impl std::fmt::Display for PdfInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn runs(hits: &[usize]) -> Vec<f64> {
    let mut lines: Vec<Vec<usize>> = Vec::new();
    for &h in hits {
        match lines.last_mut() {
            Some(run) if run.last().is_some_and(|&l| h <= l + 1) => run.push(h),
            _ => lines.push(vec![h]),
        }
    }
    lines.iter().map(|r| r.iter().sum::<usize>() as f64 / r.len() as f64).collect()
}

fn pixels_to_mm(pixels: f64, dpi: usize) -> f64 {
    pixels / dpi as f64 * 25.4
}

/// The names of the bundled fonts (`assets/fonts/*.ttf`), which are their
/// PostScript names.
fn bundled_fonts() -> BTreeSet<String> {
    let folder = repo().join("assets/fonts");
    let files = std::fs::read_dir(&folder).expect("assets/fonts").map(|e| e.expect("entry").path());
    let names: BTreeSet<String> = files
        .filter(|p| p.extension().is_some_and(|e| e == "ttf"))
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .collect();
    assert!(!names.is_empty(), "no fonts in {}", folder.display());
    names
}

/// Asserts that a box is `expected` to within `tolerance` points.
fn assert_box(found: [f64; 4], expected: [f64; 4], tolerance: f64, what: &str) {
    let close = found.iter().zip(expected).all(|(f, e)| (f - e).abs() < tolerance);
    assert!(close, "{what}: {found:?}, not {expected:?}");
}

#[test]
fn a4_pdf_has_a4_pages_a_trim_box_of_nine_poker_cards_and_embedded_fonts() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = Pdf::open(&print_pdf(dir.path(), &["--backs"]));
    let pages = pdf.pages();
    // 26 cards: three pages of fronts, each followed by its backs, then the
    // checklist of copies, a page with no cards to trim.
    assert_eq!(pages.len(), 7);
    assert_eq!(pdf.page_box(pages[6], "TrimBox"), None, "the checklist");
    let a4 = [0.0, 0.0, 595.28, 841.89];
    let bundled = bundled_fonts();
    for (number, &page) in pages[..6].iter().enumerate() {
        let what = |name: &str| format!("page {}: {name}", number + 1);
        let media = pdf.page_box(page, "MediaBox").expect("a media box");
        assert_box(media, a4, 0.01, &what("A4 media box"));
        // The trim box holds 3 × 3 poker cards exactly, 190.5 × 266.7 mm,
        // centred on the page; without bleed the bleed box is the trim box.
        let trim = pdf.page_box(page, "TrimBox").expect("a trim box");
        let (width, height) = (points_to_mm(trim[2] - trim[0]), points_to_mm(trim[3] - trim[1]));
        assert!((width - 190.5).abs() < 0.05 && (height - 266.7).abs() < 0.05, "trim box {width} × {height} mm");
        let centred = [trim[0], trim[1], a4[2] - trim[0], a4[3] - trim[1]];
        assert_box(trim, centred, 0.01, &what("centred trim box"));
        assert_box(pdf.page_box(page, "BleedBox").expect("a bleed box"), trim, 0.01, &what("bleed box"));
        // Every page has card text, in bundled fonts whose glyphs travel
        // with the file (a subset: `ABCDEF+` before the font's name).
        let fonts = pdf.fonts(page);
        assert!(!fonts.is_empty(), "{}", what("no fonts"));
        for font in fonts {
            let name = pdf.font_name(font);
            assert!(pdf.embedded(font), "{}", what(&format!("{name} is not embedded")));
            let family = name.split_once('+').map_or(name.as_str(), |(_, family)| family);
            assert!(bundled.contains(family), "{}", what(&format!("{name} is not a bundled font: {bundled:?}")));
        }
    }
}

#[test]
#[ignore = "needs poppler: apt-get install poppler-utils"]
fn poppler_renders_nine_cards_a_page_with_cut_marks_and_mirrored_backs() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = print_pdf(dir.path(), &["--backs"]);
    // poppler reads the pages lopdf reads.
    let info = PdfInfo::of(&pdf);
    let size = info.field("Page size:");
    assert!((size[0] - 595.28).abs() < 0.01 && (size[1] - 841.89).abs() < 0.01, "{info}");
    // Three pages of fronts, each with its backs, and the checklist.
    assert_eq!(info.field("Pages:"), vec![7.0], "{info}");

    let dpi = 150;
    let page = Gray::render(&pdf, 1, dpi, dir.path());
    // Cut marks in the top margin, above the cards (which start 15.15 mm down).
    let top = (14.0 / 25.4 * dpi as f64) as usize;
    let xs = page.vertical_lines(0, top);
    assert_eq!(xs.len(), 4, "four vertical cut marks above the cards: {xs:?}");
    for pair in xs.windows(2) {
        let width = pixels_to_mm(pair[1] - pair[0], dpi);
        assert!((width - 63.5).abs() < 0.3, "card width {width} mm from the cut marks {xs:?}");
    }
    let left = (8.5 / 25.4 * dpi as f64) as usize;
    let ys = page.horizontal_lines(0, left);
    assert_eq!(ys.len(), 4, "four horizontal cut marks left of the cards: {ys:?}");
    for pair in ys.windows(2) {
        let height = pixels_to_mm(pair[1] - pair[0], dpi);
        assert!((height - 88.9).abs() < 0.3, "card height {height} mm from the cut marks {ys:?}");
    }
    // Every cell of the first page holds a card.
    let cell = |page: &Gray, row: usize, column: usize| {
        let (x0, y0) = (xs[column] as usize, ys[row] as usize);
        let (w, h) = ((xs[column + 1] - xs[column]) as usize, (ys[row + 1] - ys[row]) as usize);
        page.inked(x0 + w / 4, y0 + h / 4, w / 2, h / 2)
    };
    let occupancy = |page: &Gray| -> Vec<bool> { (0..9).map(|slot| cell(page, slot / 3, slot % 3)).collect() };
    assert_eq!(occupancy(&page).iter().filter(|c| **c).count(), 9);
    // The last fronts page holds 8 cards; its backs page mirrors them.
    let fronts = occupancy(&Gray::render(&pdf, 5, dpi, dir.path()));
    let backs = occupancy(&Gray::render(&pdf, 6, dpi, dir.path()));
    assert_eq!(fronts.iter().filter(|c| **c).count(), 8, "{fronts:?}");
    let mirrored: Vec<bool> = (0..9).map(|slot| fronts[(slot / 3) * 3 + 2 - slot % 3]).collect();
    assert_eq!(backs, mirrored, "backs must mirror fronts for long-edge duplex");
    assert_ne!(backs, fronts);
}

#[test]
#[ignore = "needs poppler: apt-get install poppler-utils"]
fn poppler_shows_landscape_sheets_turned_with_their_backs_mirrored_across_the_long_edge() {
    let dir = tempfile::tempdir().unwrap();
    // A4 with 3 mm of bleed: 4 × 2 cards across the sheet; the fourth
    // fronts page (page 7) holds the last 2 of the 26 cards.
    let pdf = print_pdf(dir.path(), &["--bleed", "3", "--backs"]);
    let a4 = sheet::paper_size("a4").unwrap();
    let grid = sheet::Grid::new(a4, sheet::card_size("poker").unwrap(), 3.0, sheet::MARGIN).unwrap();
    assert!(grid.turned);
    let dpi = 40;
    let px = |mm: f32| (f64::from(mm) / 25.4 * dpi as f64) as usize;
    // Which of a page's 8 slots hold a card, looking at the middle of each
    // card's place on the paper.
    let occupied = |page: usize, side: sheet::Side| -> Vec<bool> {
        let gray = Gray::render(&pdf, page, dpi, dir.path());
        (0..8)
            .map(|slot| {
                let (x, y) = grid.slot(slot, side);
                let (px0, py0, w, h) = grid.page_rect((x, y, grid.card.w, grid.card.h));
                gray.inked(px(px0 + w / 4.0), px(py0 + h / 4.0), px(w / 2.0), px(h / 2.0))
            })
            .collect()
    };
    let full = vec![true; 8];
    assert_eq!(occupied(1, sheet::Side::Front), full);
    let last: Vec<bool> = (0..8).map(|slot| slot < 2).collect();
    assert_eq!(occupied(7, sheet::Side::Front), last, "the last two cards");
    let back = sheet::Side::Back(sheet::Duplex::Long);
    assert_eq!(occupied(8, back), last, "their backs where the long-edge turn puts them");
    // Drawn turned: the first card's top along the paper's right edge, its
    // back at the left, behind it.
    let centre = |side| {
        let (x, y) = grid.slot(0, side);
        let (x, y, w, h) = grid.page_rect((x, y, grid.card.w, grid.card.h));
        (x + w / 2.0, y + h / 2.0)
    };
    let (front, behind) = (centre(sheet::Side::Front), centre(back));
    assert!(front.0 > 105.0 && behind.0 < 105.0 && (front.1 - behind.1).abs() < 0.01, "{front:?} {behind:?}");
}

#[test]
fn duplex_offset_and_calibration_add_their_pages_and_refuse_bad_values() {
    let dir = tempfile::tempdir().unwrap();
    // The calibration sheet's two sides, then 3 × (fronts, backs), then the
    // checklist.
    let pdf = Pdf::open(&print_pdf(dir.path(), &["--duplex", "short", "--offset", "2,-1.5", "--calibration"]));
    assert_eq!(pdf.pages().len(), 9);
    assert_eq!(Pdf::open(&print_pdf(dir.path(), &["--calibration"])).pages().len(), 6);
    for (flag, value, expected) in [
        ("--duplex", "diagonal", "unknown duplex `diagonal`"),
        ("--offset", "20,0", "out of range"),
        ("--offset", "1;2", "is not an offset"),
        ("--margin", "40", "out of range"),
    ] {
        let output = cardsmith(&["print", "cards/dreadnaught-2e", "--format", "pdf", flag, value], repo());
        assert_eq!(output.status.code(), Some(2), "{flag} {value}");
        assert!(stderr(&output).contains(expected), "{flag} {value}: {}", stderr(&output));
    }
}

#[test]
#[ignore = "needs poppler: apt-get install poppler-utils"]
fn poppler_shows_short_edge_backs_moved_by_the_offset_and_the_calibration_rulers() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = print_pdf(dir.path(), &["--duplex", "short", "--offset", "2,-1.5", "--calibration"]);
    let dpi = 150;
    let mm = |v: f64| (v / 25.4 * dpi as f64) as usize;
    // The front's cross at the centre of A4; behind it the rulers, moved by
    // the offset: one vertical line each between the ticks 7 and 8 mm below.
    let front = Gray::render(&pdf, 1, dpi, dir.path());
    let back = Gray::render(&pdf, 2, dpi, dir.path());
    let line_near = |page: &Gray, y: f64, x: f64| -> Vec<f64> {
        page.vertical_lines(mm(y), mm(y) + 1).into_iter().filter(|l| (pixels_to_mm(*l, dpi) - x).abs() < 15.0).collect()
    };
    let cross = line_near(&front, 148.5 + 7.5, 105.0);
    let ruler = line_near(&back, 147.0 + 7.5, 107.0);
    assert_eq!((cross.len(), ruler.len()), (1, 1), "{cross:?} {ruler:?}");
    assert!((pixels_to_mm(ruler[0] - cross[0], dpi) - 2.0).abs() < 0.3, "{cross:?} {ruler:?}");
    // The cut marks of a backs page are those of its fronts, 2 mm right.
    let fronts = Gray::render(&pdf, 3, dpi, dir.path());
    let backs = Gray::render(&pdf, 4, dpi, dir.path());
    let (xf, xb) = (fronts.vertical_lines(0, mm(12.0)), backs.vertical_lines(0, mm(12.0)));
    assert_eq!((xf.len(), xb.len()), (4, 4), "{xf:?} {xb:?}");
    for (f, b) in xf.iter().zip(&xb) {
        assert!((pixels_to_mm(b - f, dpi) - 2.0).abs() < 0.3, "{xf:?} {xb:?}");
    }
    // The last fronts page holds 8 cards; short-edge backs mirror the rows.
    let ys = fronts.horizontal_lines(0, mm(8.5));
    assert_eq!(ys.len(), 4, "{ys:?}");
    let occupancy = |page: &Gray| -> Vec<bool> {
        (0..9)
            .map(|slot| {
                let (row, column) = (slot / 3, slot % 3);
                let (x0, y0) = (xf[column] as usize, ys[row] as usize);
                let (w, h) = ((xf[column + 1] - xf[column]) as usize, (ys[row + 1] - ys[row]) as usize);
                page.inked(x0 + w / 4, y0 + h / 4, w / 2, h / 2)
            })
            .collect()
    };
    let last = occupancy(&Gray::render(&pdf, 7, dpi, dir.path()));
    let last_backs = occupancy(&Gray::render(&pdf, 8, dpi, dir.path()));
    assert_eq!(last.iter().filter(|c| **c).count(), 8, "{last:?}");
    let mirrored: Vec<bool> = (0..9).map(|slot| last[(2 - slot / 3) * 3 + slot % 3]).collect();
    assert_eq!(last_backs, mirrored, "short-edge backs mirror the rows");
}

#[test]
fn letter_and_tarot_sheets_have_their_grids() {
    let grid = |paper: &str, card: &str, margin: f32| {
        let (paper, card) = (sheet::paper_size(paper).unwrap(), sheet::card_size(card).expect("known size"));
        let g = sheet::Grid::new(paper, card, 0.0, margin).unwrap();
        (g.columns, g.rows, g.turned)
    };
    // Three rows of poker cards leave Letter no room for cut marks outside
    // a 5 mm margin: turned, it holds 4 × 2; a printer that prints to 3 mm
    // gets 3 × 3 upright.
    assert_eq!(grid("letter", "poker", 5.0), (4, 2, true));
    assert_eq!(grid("letter", "poker", 3.0), (3, 3, false));
    assert_eq!(grid("a4", "tarot", 5.0), (2, 2, false));
    let dir = tempfile::tempdir().unwrap();
    let pdf = Pdf::open(&print_pdf(dir.path(), &["--paper", "letter", "--margin", "3"]));
    let pages = pdf.pages();
    assert_eq!(pages.len(), 4, "26 cards, nine a page, and the checklist");
    for page in pages {
        assert_box(pdf.page_box(page, "MediaBox").expect("a media box"), [0.0, 0.0, 612.0, 792.0], 0.01, "letter");
    }
    let pages = Pdf::open(&print_pdf(dir.path(), &["--paper", "letter"])).pages().len();
    assert_eq!(pages, 5, "26 cards, eight a page, and the checklist");
}

#[test]
fn sheets_turn_to_hold_more_cards_and_say_how_many_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let print = |options: &[&str]| {
        let out = dir.path().join("out");
        let args = ["print", "cards/dreadnaught-2e", "-o", out.to_str().expect("utf-8 path"), "--format", "pdf"];
        let output = cardsmith(&[&args[..], options].concat(), repo());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        (Pdf::open(&out.join("dreadnaught-2e.pdf")), stderr(&output))
    };
    let (_, said) = print(&[]);
    assert!(said.contains("sheets: 63.5x88.9 mm cards 9 a page (3 × 3, portrait)"), "{said}");
    let (_, said) = print(&["--paper", "letter"]);
    assert!(said.contains("sheets: 63.5x88.9 mm cards 8 a page (4 × 2, landscape)"), "{said}");
    // With 3 mm of bleed, A4 holds 4 × 2 cards across the sheet: 26 cards
    // take 4 pages of fronts, each followed by its backs, still on A4
    // portrait paper, the trim box standing across it; the checklist ends
    // the sheets.
    let (pdf, said) = print(&["--bleed", "3", "--backs"]);
    assert!(said.contains("cards 8 a page (4 × 2, landscape)"), "{said}");
    let pages = pdf.pages();
    assert_eq!(pages.len(), 9);
    for page in pages.into_iter().take(8) {
        assert_box(pdf.page_box(page, "MediaBox").expect("a media box"), [0.0, 0.0, 595.28, 841.89], 0.01, "A4");
        let trim = pdf.page_box(page, "TrimBox").expect("a trim box");
        let (width, height) = (points_to_mm(trim[2] - trim[0]), points_to_mm(trim[3] - trim[1]));
        // Two rows of 88.9 mm with 6 mm between, four columns of 63.5 mm.
        assert!((width - 183.8).abs() < 0.05 && (height - 272.0).abs() < 0.05, "trim box {width} × {height} mm");
    }
    // Paper of one's own, in millimetres: landscape A4 holds poker cards
    // upright on it 4 × 2 with 3 mm bleed.
    let (pdf, said) = print(&["--paper", "297x210", "--bleed", "3"]);
    assert!(said.contains("cards 8 a page (4 × 2, landscape)"), "{said}");
    let media = pdf.page_box(pdf.pages()[0], "MediaBox").expect("a media box");
    assert_box(media, [0.0, 0.0, 841.89, 595.28], 0.01, "landscape A4");
    for (paper, expected) in [
        ("a5", "unknown paper `a5`"),
        ("297x", "unknown paper `297x`"),
        ("50x297", "paper of 50 x 297 mm cannot be printed on: each side must be 80 to 1200 mm"),
        ("297x2000", "each side must be 80 to 1200 mm"),
    ] {
        let output = cardsmith(&["print", "cards/dreadnaught-2e", "--format", "pdf", "--paper", paper], repo());
        assert_eq!(output.status.code(), Some(2), "{paper}");
        assert!(stderr(&output).contains(expected), "{paper}: {}", stderr(&output));
    }
}

#[test]
fn copies_are_on_a_checklist_unless_asked_for_on_the_faces() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let print = |pdf: &str, options: &[&str]| {
        let args = ["print", "cards/dreadnaught-2e", "-o", out.to_str().expect("utf-8 path"), "--dpi", "50"];
        let output = cardsmith(&[&args[..], options].concat(), repo());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        Pdf::open(&out.join(pdf)).pages().len()
    };
    let face = || std::fs::read(out.join("png/dreadnaught-2e/002-reactive-plating.png")).expect("a face");
    // By default the faces carry no count: the PDF ends with the checklist.
    assert_eq!(print("dreadnaught-2e.pdf", &["--format", "pdf,png"]), 4, "three pages of cards and the checklist");
    let listed = face();
    // Beside the PNG faces, their quantities for a print service.
    let csv = std::fs::read_to_string(out.join("png/dreadnaught-2e/copies.csv")).expect("the list of copies");
    assert!(csv.starts_with("file,card,copies\n"), "{csv}");
    assert!(csv.contains("\n002-reactive-plating.png,\"Reactive Plating\",2\n"), "{csv}");
    assert_eq!(csv.lines().count(), 24, "a line for each of the 23 cards a deck lists: {csv}");
    assert_eq!(print("dreadnaught-2e.pdf", &["--format", "pdf,png", "--copies-on-face"]), 3, "no checklist");
    assert!(!out.join("png/dreadnaught-2e/copies.csv").exists(), "the faces say it");
    // Reactive Plating's deck holds two: `×2` is drawn on it only when asked.
    assert_ne!(listed, face());
    // A deck printed with its copies lists them too: what to check the cut
    // cards against.
    let deck = print("kinetic.pdf", &["--format", "pdf", "--deck", "Kinetic"]);
    assert_eq!(deck, print("kinetic.pdf", &["--format", "pdf", "--deck", "Kinetic", "--copies-on-face"]) + 1);
}

#[test]
fn the_print_shop_file_is_one_card_a_page_at_trim_and_bleed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let print = |options: &[&str]| {
        let args = ["print", "cards/dreadnaught-2e", "-o", out.to_str().expect("utf-8 path"), "--format", "shop"];
        let output = cardsmith(&[&args[..], options].concat(), repo());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let files = common::contents(&out);
        let names: Vec<&String> = files.keys().filter(|n| !n.starts_with('.')).collect();
        assert_eq!(names, ["dreadnaught-2e-shop.pdf"], "only the print-shop file");
        Pdf::open(&out.join("dreadnaught-2e-shop.pdf"))
    };
    // 26 cards with 3 mm of bleed, each front followed by its back: 52
    // pages of 69.5 × 94.9 mm, the card trimmed 3 mm in from every edge.
    let pdf = print(&["--bleed", "3", "--backs"]);
    let pages = pdf.pages();
    assert_eq!(pages.len(), 52);
    let (w, h) = (69.5 * 72.0 / 25.4, 94.9 * 72.0 / 25.4);
    let bleed = 3.0 * 72.0 / 25.4;
    for page in pages {
        assert_box(pdf.page_box(page, "MediaBox").expect("a media box"), [0.0, 0.0, w, h], 0.01, "page");
        assert_box(pdf.page_box(page, "BleedBox").expect("a bleed box"), [0.0, 0.0, w, h], 0.01, "bleed box");
        let trim = [bleed, bleed, w - bleed, h - bleed];
        assert_box(pdf.page_box(page, "TrimBox").expect("a trim box"), trim, 0.01, "trim box");
    }
    // Without backs, the fronts alone; a deck, every copy of it.
    assert_eq!(print(&[]).pages().len(), 26);
    let deck = cardsmith(
        &["print", "cards/dreadnaught-2e", "-o", out.to_str().unwrap(), "--format", "shop", "--deck", "Armour"],
        repo(),
    );
    assert_eq!(deck.status.code(), Some(0), "{}", stderr(&deck));
    assert_eq!(Pdf::open(&out.join("armour-shop.pdf")).pages().len(), 11, "the Armour deck's 11 cards");
    assert!(!out.join("armour.pdf").exists(), "the sheets only when asked for too");
    let wrong = cardsmith(&["print", "cards/dreadnaught-2e", "--format", "shops"], repo());
    assert_eq!(wrong.status.code(), Some(2));
    assert!(stderr(&wrong).contains("unknown format `shops`"), "{}", stderr(&wrong));
}

/// The width, height and pixels (RGBA) of a PNG file.
fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).expect("a PNG")));
    let mut reader = decoder.read_info().expect("a valid PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("pixels");
    pixels.truncate(info.buffer_size());
    // Faces are RGB; the tests read them as RGBA.
    if info.color_type == png::ColorType::Rgb {
        pixels = pixels.chunks(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect();
    }
    (info.width, info.height, pixels)
}

#[test]
fn png_faces_are_opaque_rgb_in_srgb() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let args = ["print", "cards/dreadnaught-2e", "-o", out.to_str().expect("utf-8"), "--format", "png,tts"];
    let output = cardsmith(&[&args[..], &["--dpi", "60"]].concat(), repo());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut read = 0;
    for folder in ["png/dreadnaught-2e", "tts"] {
        for (name, bytes) in common::contents(&out.join(folder)) {
            if !name.ends_with(".png") {
                continue;
            }
            let reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().expect("a valid PNG");
            let info = reader.info();
            assert_eq!(info.color_type, png::ColorType::Rgb, "{folder}/{name} has an alpha channel");
            assert_eq!(info.bit_depth, png::BitDepth::Eight, "{folder}/{name}");
            assert_eq!(info.srgb, Some(png::SrgbRenderingIntent::Perceptual), "{folder}/{name} has no sRGB chunk");
            assert!(info.pixel_dims.is_some(), "{folder}/{name} has no resolution");
            read += 1;
        }
    }
    assert!(read > 10, "only {read} images");
}

#[test]
fn png_faces_carry_the_bleed_at_the_chosen_resolution() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let print = |extra: &[&str]| {
        let args = ["print", "cards/dreadnaught-2e", "-o", out.to_str().expect("utf-8"), "--format", "png"];
        let output = cardsmith(&[&args[..], extra].concat(), repo());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        decode_png(&out.join("png/dreadnaught-2e/back.png"))
    };
    // 63.5 × 88.9 mm at 100 dpi, then with 3 mm of bleed each side.
    let (w, h, trimmed) = print(&["--dpi", "100"]);
    assert_eq!((w, h), (250, 350));
    let (w, h, bled) = print(&["--dpi", "100", "--bleed", "3"]);
    assert_eq!((w, h), (274, 374));
    // The back's dark background runs into the bleed: the corner pixel is
    // the colour a few pixels inside the trimmed card shows at its corner.
    let pixel = |pixels: &[u8], width: u32, x: u32, y: u32| {
        let at = ((y * width + x) * 4) as usize;
        pixels[at..at + 3].to_vec()
    };
    assert_eq!(pixel(&bled, 274, 0, 0), pixel(&trimmed, 250, 3, 3));
    assert!(pixel(&bled, 274, 0, 0).iter().all(|c| *c < 100), "the bleed is not the background");
    let (w, _, _) = print(&["--dpi", "600", "--bleed", "3"]);
    assert_eq!(w, 1642);
}

fn options(formats: Formats) -> Options {
    Options {
        card: sheet::card_size("poker").expect("poker"),
        paper: sheet::paper_size("a4").unwrap(),
        bleed: 0.0,
        backs: false,
        dpi: 300,
        formats,
        deck: None,
        ..Options::default()
    }
}

#[test]
fn every_bundled_card_is_drawn_without_overflow() {
    for folder in ["cards/dreadnaught-2e", "cards/dreadnaught-1e", "cards/dreadnought-tcg", "cards/dropfleet-1.3"] {
        let outcome = common::check_folder(folder);
        let mut templates = Templates::new(&[]).expect("bundled templates parse");
        let job = print::prepare(&outcome.project, &mut templates, &options(Formats::ALL));
        let rendered = cardsmith::diagnostics::render::human_string(&outcome.files, &job.diagnostics);
        assert!(job.diagnostics.is_empty(), "{folder}:\n{rendered}");
        assert_eq!(job.faces.len(), outcome.stats.cards, "{folder}");
        let usvg = print::svg::options();
        for face in &job.faces {
            for svg in [&face.front, &face.back] {
                let tree = print::svg::parse(svg, &usvg).unwrap_or_else(|e| panic!("{}: {e}", face.name));
                assert!(tree.root().has_children(), "{} draws nothing", face.name);
            }
            assert!(face.front.contains("<text"), "{} has no text", face.name);
        }
        if folder == "cards/dreadnaught-2e" {
            // A keyword a System Card declares prints with the name it gives.
            let flak = job.faces.iter().find(|f| f.name == "Flak Batteries").expect("Flak Batteries");
            assert!(flak.front.contains("Screen") && !flak.front.contains("screen"), "{}", flak.front);
            // The System Card's back is its reverse.
            let system = job.faces.iter().find(|f| f.name == "Kinetic Battery Control").expect("System Card");
            assert!(system.back.contains("Deploy"), "{}", system.back);
        }
    }
}

fn project(dir: &Path, cards: &str) {
    std::fs::write(dir.join("cardsmith.toml"), "[project]\nname = \"t\"\npaths = [\"cards\"]\n").unwrap();
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    std::fs::write(dir.join("cards/test.cards"), cards).unwrap();
}

#[test]
fn text_that_cannot_fit_gets_a_diagnostic_at_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let long = "Deal 3 {damage} to every ship in range, then draw a card. ".repeat(40);
    project(
        dir.path(),
        &format!("game dreadnaught-2e\n\nevent \"Endless Orders\" {{\n  allow text-too-long\n  at 3.0 {{ impact damage 3 }}\n  text \"{long}\"\n}}\n"),
    );
    let output = cardsmith(&["print", "--format", "html"], dir.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "overflow is a warning: {err}");
    assert!(err.contains("warning[E0701]: the rules text of `Endless Orders` does not fit on the card"), "{err}");
    // The box holds the text field's value alone: the diagnostic points at it.
    assert!(err.contains("cards/test.cards:6:8: this text is cut off when printed"), "{err}");
    assert!(dir.path().join("print/preview.html").is_file());

    let json = cardsmith(&["print", "--format", "html", "--message-format", "json"], dir.path());
    let stdout = String::from_utf8_lossy(&json.stdout);
    let object: serde_json::Value =
        serde_json::from_str(stdout.lines().next().unwrap_or("")).expect("one JSON diagnostic");
    assert_eq!(object["code"], "E0701");
    assert_eq!(object["line"], 6);
}

#[test]
fn the_preview_shows_each_cards_problems_and_what_the_filters_read() {
    let dir = tempfile::tempdir().unwrap();
    project(
        dir.path(),
        "game dreadnaught-2e\n\nevent \"Quiet <b>\" {\n  at 3.0 { impact damage 1 }\n  text \"Draw a card.\"\n}\n\n\
         event \"Loud\" {\n  at 2.5 { impact damage 2 }\n  text \"Deal 2 {damage}.\"\n}\n",
    );
    let output = cardsmith(&["print", "--format", "html"], dir.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "a lint warning does not stop the print: {err}");
    assert!(err.contains("warning[L0001]"), "{err}");
    let html = std::fs::read_to_string(dir.path().join("print/preview.html")).unwrap();
    let figures: Vec<&str> = html.split("<figure ").skip(1).map(|f| &f[..f.find("</figure>").unwrap()]).collect();
    let [quiet, loud] = figures.as_slice() else { panic!("two cards: {html}") };

    // The card with the lint carries it: a class, counts, a badge and the
    // list, each with a mark beside the colour; the name stays escaped.
    assert!(quiet.starts_with("class=\"card warning\""), "{quiet}");
    assert!(quiet.contains("data-errors=\"0\" data-warnings=\"1\""), "{quiet}");
    assert!(quiet.contains("<figcaption>Quiet &lt;b&gt; <span class=\"badge warning\""), "{quiet}");
    assert!(quiet.contains("<span class=\"mark\" aria-hidden=\"true\">!</span>1 warning</span>"), "{quiet}");
    assert!(
        quiet.contains(
            "<strong>warning L0001</strong> line 4: `Quiet &lt;b&gt;` has a damage effect its text never mentions"
        ),
        "{quiet}"
    );
    // The other card has none, and shows none.
    assert!(loud.starts_with("class=\"card\""), "{loud}");
    assert!(loud.contains("data-errors=\"0\" data-warnings=\"0\""), "{loud}");
    assert!(!loud.contains("class=\"problems\"") && !loud.contains("badge"), "{loud}");

    // What the filters read: the game, kind, decks and fields as printed.
    assert!(loud.contains("data-game=\"dreadnaught-2e\" data-name=\"Loud\" data-kind=\"event\" data-decks=\"[]\""));
    assert!(
        loud.contains(
            "data-fields=\"[[&quot;at&quot;,&quot;2.5&quot;],[&quot;text&quot;,&quot;Deal 2 {damage}.&quot;]]\""
        ),
        "{loud}"
    );
    // The toolbar: search, a menu each, the field value, the toggle, the count.
    for control in [
        "<input type=\"search\" id=\"search\"",
        "<select id=\"game\"",
        "<select id=\"deck\"",
        "<select id=\"kind\"",
        "<select id=\"field\"",
        "<option value=\"text\">text</option>",
        "<input type=\"search\" id=\"value\"",
        "<input type=\"checkbox\" id=\"problems\">",
        "<span id=\"shown\"",
        "' with warnings'",
    ] {
        assert!(html.contains(control), "{control}");
    }
}

#[test]
fn card_text_is_escaped_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    project(
        dir.path(),
        "game dreadnaught-2e\n\nevent \"<script>alert(1)</script>\" {\n  at 3.0 { impact damage 1 }\n  text \"Say \\\"</svg><b>&amp;\\\" then {damage}.\"\n}\n",
    );
    let output = cardsmith(&["print", "--format", "html,png,pdf,tts"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let html = std::fs::read_to_string(dir.path().join("print/preview.html")).unwrap();
    assert!(!html.contains("<script>alert") && !html.contains("<b>"), "markup from card text reached the page");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("&lt;/svg&gt;&lt;b&gt;&amp;amp;"));
    let pngs: Vec<_> = std::fs::read_dir(dir.path().join("print/png/dreadnaught-2e")).unwrap().collect();
    assert_eq!(pngs.len(), 2, "the face and the shared back");
    let tts = std::fs::read_to_string(dir.path().join("print/tts/dreadnaught-2e.json")).unwrap();
    let object: serde_json::Value = serde_json::from_str(&tts).unwrap();
    assert_eq!(object["ObjectStates"][0]["ContainedObjects"][0]["Nickname"], "<script>alert(1)</script>");
}

#[test]
fn output_is_deterministic_and_a_failing_print_leaves_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    // What a folder holds, the saved objects' addresses of the images in
    // the folder they are in made relative.
    let written = |out: &Path| {
        let tts = std::fs::read_to_string(out.join("tts/armour.json")).expect("the deck");
        let here = format!("file://{}/tts/", out.display());
        assert!(tts.contains(&here), "the deck addresses its images elsewhere than {here}");
        common::output_contents(out)
    };
    let run = |name: &str| {
        let out = dir.path().join(name);
        let output = cardsmith(
            &["print", "cards/dreadnaught-2e", "-o", out.to_str().unwrap(), "--deck", "Armour", "--backs"],
            repo(),
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        written(&out)
    };
    let first = run("a");
    assert_eq!(first, run("b"), "two prints of the same input differ but for where they are");
    let names: Vec<&str> = first.keys().map(String::as_str).collect();
    for expected in [
        "armour.pdf",
        "preview.html",
        "tts/armour.json",
        "tts/armour-1.png",
        "tts/armour-back.png",
        ".cardsmith-output",
    ] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    let tts: serde_json::Value = serde_json::from_slice(&first["tts/armour.json"]).unwrap();
    assert_eq!(tts["ObjectStates"][0]["DeckIDs"].as_array().map(Vec::len), Some(11), "the Armour deck has 11 cards");

    // An unknown deck is an input error: nothing is written, the old output stays.
    let out = dir.path().join("a");
    let output = cardsmith(&["print", "cards/dreadnaught-2e", "-o", out.to_str().unwrap(), "--deck", "Nope"], repo());
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error[E0703]: no deck is named \"Nope\""), "{}", stderr(&output));
    assert_eq!(written(&out), first, "the old output stays");
    // A paper too small for the card is a usage error.
    let output =
        cardsmith(&["print", "cards/dreadnaught-2e", "-o", out.to_str().unwrap(), "--card", "300x400"], repo());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

#[test]
fn print_settings_come_from_the_manifest_and_the_command_line_wins() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path(), "game dreadnaught-2e\n\nevent \"Quick Repairs\" {\n  at 3.0 { increase damage 1 }\n}\n");
    let manifest = dir.path().join("cardsmith.toml");
    let base = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{base}\n[print]\nout = \"proxies\"\nformat = [\"html\"]\ncard = \"tarot\"\n"))
        .unwrap();
    let output = cardsmith(&["print"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let html = std::fs::read_to_string(dir.path().join("proxies/preview.html")).unwrap();
    assert!(html.contains("width=\"70mm\" height=\"120mm\""), "tarot faces");
    assert!(!dir.path().join("proxies/dreadnaught-2e.pdf").exists());

    let output = cardsmith(&["print", "--format", "pdf", "--card", "poker"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(dir.path().join("proxies/dreadnaught-2e.pdf").is_file());
    assert!(!dir.path().join("proxies/preview.html").exists(), "the folder is replaced as a whole");

    std::fs::write(&manifest, format!("{base}\n[print]\npaper = \"a5\"\n")).unwrap();
    let output = cardsmith(&["print"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown paper `a5`"), "{}", stderr(&output));
}

#[test]
fn hostile_card_text_prints_without_panicking() {
    let long_word = "Unbreakable".repeat(40);
    let source = format!(
        "game dreadnaught-2e\n\n\
         event \"\u{202E}desrever\u{202C} 🚀🚀 \\t tab\" {{\n  at X {{ impact damage 1 }}\n  text \"{long_word}\"\n}}\n\n\
         event \"{}\" {{\n  at 0.0 {{ impact damage 1 }}\n  text \"\\n\\n\\n&amp; &#x41; ]]> <!-- {{damage}}{{damage}}{{damage}}\"\n}}\n",
        "W".repeat(300)
    );
    let mut workspace = cardsmith::workspace::Workspace::new();
    workspace.add_text("hostile.cards", &source);
    let outcome = workspace.check();
    let errors: Vec<_> = outcome.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let mut templates = Templates::new(&[]).expect("templates");
    let job = print::prepare(&outcome.project, &mut templates, &options(Formats::ALL));
    assert_eq!(job.faces.len(), 2);
    // Layout warnings, and W0720 for the rockets, which the fonts lack (the
    // direction marks take no glyph).
    let layout = ["E0701", "E0705", "E0706", "W0720"];
    assert!(job.diagnostics.iter().all(|d| layout.contains(&d.code.id) && !d.is_error()), "only layout warnings");
    let glyphs: Vec<&str> =
        job.diagnostics.iter().filter(|d| d.code.id == "W0720").map(|d| d.message.as_str()).collect();
    assert!(
        !glyphs.is_empty() && glyphs.iter().all(|m| m.contains("`🚀` (U+1F680)") && !m.contains("202E")),
        "{glyphs:?}"
    );
    assert!(!job.diagnostics.is_empty(), "a 440-letter word cannot fit");
    let blobs = print::render(&job, &options(Formats::ALL), &|| {}).expect("renders");
    let html = &blobs.iter().find(|b| b.name == "preview.html").expect("preview").bytes;
    let html = String::from_utf8_lossy(html);
    assert!(html.contains("]]&gt; &lt;!--"), "card text stays text");
}

#[test]
fn bleed_reaches_beyond_the_trim_box_and_custom_card_sizes_print() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = Pdf::open(&print_pdf(dir.path(), &["--bleed", "3", "--card", "70x100mm"]));
    let pages = pdf.pages();
    // Two 70 mm cards with 3 mm of bleed each side fit across A4, and two
    // 100 mm ones down it: four a page, so 26 cards take 7 pages, before
    // the checklist.
    assert_eq!(pages.len(), 8);
    for page in pages.into_iter().take(7) {
        let trim = pdf.page_box(page, "TrimBox").expect("a trim box");
        let bleed = pdf.page_box(page, "BleedBox").expect("a bleed box");
        for (side, outward) in [(0, -1.0), (1, -1.0), (2, 1.0), (3, 1.0)] {
            let reach = points_to_mm(bleed[side] - trim[side]) * outward;
            assert!(
                (reach - 3.0).abs() < 0.05,
                "side {side} of the bleed box {bleed:?} reaches {reach} mm past {trim:?}"
            );
        }
    }
}

/// The part of Tabletop Simulator's saved-object format a custom deck is
/// loaded from: what the game reads and the types it expects.
fn tts_saved_object_schema() -> serde_json::Value {
    let url = serde_json::json!({"type": "string", "minLength": 1});
    let custom_deck = serde_json::json!({
        "type": "object",
        "minProperties": 1,
        "patternProperties": {"^[1-9][0-9]*$": {
            "type": "object",
            "required": ["FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"],
            "properties": {
                "FaceURL": url, "BackURL": url,
                "NumWidth": {"type": "integer", "minimum": 1, "maximum": 10},
                "NumHeight": {"type": "integer", "minimum": 1, "maximum": 7},
                "BackIsHidden": {"type": "boolean"}, "UniqueBack": {"type": "boolean"},
                "Type": {"type": "integer"}
            }
        }},
        "additionalProperties": false
    });
    let transform = serde_json::json!({"type": "object", "required": ["posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"]});
    serde_json::json!({
        "type": "object",
        "required": ["ObjectStates"],
        "properties": {"ObjectStates": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["Name", "Transform", "DeckIDs", "CustomDeck", "ContainedObjects"],
            "properties": {
                "Name": {"const": "DeckCustom"},
                "Nickname": {"type": "string"},
                "Transform": transform,
                "DeckIDs": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 100}},
                "CustomDeck": custom_deck,
                "ContainedObjects": {"type": "array", "items": {
                    "type": "object",
                    "required": ["Name", "Nickname", "CardID", "Transform", "CustomDeck"],
                    "properties": {
                        "Name": {"const": "Card"}, "Nickname": {"type": "string"},
                        "CardID": {"type": "integer", "minimum": 100}, "Transform": transform,
                        "CustomDeck": custom_deck
                    }
                }}
            }
        }}}
    })
}

/// Checks a saved object against the schema and what the schema cannot
/// say: each card id is its sheet's number × 100 + its slot, inside the
/// sheet; the ids of the deck are those of its cards; each card carries its
/// own sheet; every image named is in `files` under `tts/` after `base`.
fn check_saved_object(object: &serde_json::Value, files: &std::collections::BTreeMap<String, Vec<u8>>, base: &str) {
    let schema = tts_saved_object_schema();
    let validator = jsonschema::draft202012::new(&schema).expect("the schema compiles");
    let objections: Vec<String> =
        validator.iter_errors(object).map(|e| format!("{}: {e}", e.instance_path())).collect();
    assert!(objections.is_empty(), "{objections:#?}");
    let deck = &object["ObjectStates"][0];
    let custom = deck["CustomDeck"].as_object().expect("sheets");
    let cards = deck["ContainedObjects"].as_array().expect("cards");
    let ids: Vec<&serde_json::Value> = cards.iter().map(|c| &c["CardID"]).collect();
    assert_eq!(deck["DeckIDs"].as_array().expect("ids").iter().collect::<Vec<_>>(), ids);
    for card in cards {
        let id = card["CardID"].as_u64().expect("an id");
        let (sheet, slot) = ((id / 100).to_string(), id % 100);
        let files_of = &custom[&sheet];
        let capacity = files_of["NumWidth"].as_u64().unwrap() * files_of["NumHeight"].as_u64().unwrap();
        assert!(slot < capacity - 1, "slot {slot} of {capacity}: the last slot is the hidden face");
        assert_eq!(&card["CustomDeck"][&sheet], files_of, "a card carries its sheet");
    }
    for sheet in custom.values() {
        for key in ["FaceURL", "BackURL"] {
            let url = sheet[key].as_str().expect("an address");
            let file = url.strip_prefix(base).unwrap_or_else(|| panic!("{url} is not under {base}"));
            assert!(files.contains_key(&format!("tts/{file}")), "{url}: no such image in {:?}", files.keys());
        }
    }
}

#[test]
fn tts_decks_load_from_the_output_folder_and_keep_their_cards_shape() {
    let dir = common::bundled_project("dropfleet-1.3");
    let output = cardsmith(&["print", "--format", "tts", "--card", "88.9x63.5", "--tts-width", "64"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = std::fs::canonicalize(dir.path().join("print")).expect("the output folder");
    let files = common::contents(&out);
    let object = |name: &str| -> serde_json::Value {
        serde_json::from_slice(files.get(name).unwrap_or_else(|| panic!("no {name} in {:?}", files.keys())))
            .expect("JSON")
    };
    // Without `--base-url`, the images' own absolute `file:///` addresses.
    let base = format!("file://{}/tts/", out.display());
    assert!(base.starts_with("file:///"), "{base}");
    // The 70 × 120 mm ships are narrower than the poker-shaped model:
    // scaled across to their own shape; the other cards, given as
    // landscape poker, lie sideways at the model's size.
    for (name, sideways, across) in [("dropfleet-1.3-70x120", false, 0.8167), ("dropfleet-1.3-88.9x63.5", true, 1.0)] {
        let object = object(&format!("tts/{name}.json"));
        check_saved_object(&object, &files, &base);
        let deck = &object["ObjectStates"][0];
        assert_eq!(deck["SidewaysCard"], sideways, "{name}");
        assert_eq!(deck["Transform"]["scaleX"], across, "{name}");
        for card in deck["ContainedObjects"].as_array().expect("cards") {
            assert_eq!((&card["SidewaysCard"], &card["Transform"]), (&deck["SidewaysCard"], &deck["Transform"]));
        }
    }
}

#[test]
fn tts_decks_load_from_hosted_addresses_per_game_and_per_deck() {
    let dir = common::bundled_project("dreadnaught-2e");
    let base = "https://example.org/cards/";
    let output = cardsmith(&["print", "--format", "tts", "--base-url", base, "--tts-width", "200"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let files = common::contents(&dir.path().join("print"));
    let object = |name: &str| -> serde_json::Value {
        serde_json::from_slice(files.get(name).unwrap_or_else(|| panic!("no {name} in {:?}", files.keys())))
            .expect("JSON")
    };
    let game = object("tts/dreadnaught-2e.json");
    check_saved_object(&game, &files, base);
    assert_eq!(game["ObjectStates"][0]["ContainedObjects"].as_array().unwrap().len(), 26, "every card once");
    // Each deck is a deck of its own with its backs and the copies
    // `--deck` prints.
    for (name, deck) in [("Kinetic", "kinetic"), ("Armour", "armour"), ("Kinetic and Armour", "kinetic-and-armour")] {
        let object = object(&format!("tts/decks/{deck}.json"));
        check_saved_object(&object, &files, base);
        assert!(files.contains_key(&format!("tts/decks/{deck}-back.png")), "{deck}");
        let alone = dir.path().join("alone");
        let output = cardsmith(&["print", "--format", "tts", "--deck", name, "-o", "alone"], dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let printed: serde_json::Value =
            serde_json::from_slice(&std::fs::read(alone.join(format!("tts/{deck}.json"))).expect("the deck")).unwrap();
        let nicknames = |o: &serde_json::Value| -> Vec<serde_json::Value> {
            o["ObjectStates"][0]["ContainedObjects"].as_array().unwrap().iter().map(|c| c["Nickname"].clone()).collect()
        };
        assert_eq!(nicknames(&object), nicknames(&printed), "{deck}");
    }
    // The sheets are drawn 200 pixels a face.
    let sheet = dir.path().join("print/tts/dreadnaught-2e-1.png");
    let (width, _, _) = decode_png(&sheet);
    let columns = game["ObjectStates"][0]["CustomDeck"]["1"]["NumWidth"].as_u64().unwrap();
    assert_eq!(u64::from(width), 200 * columns);
    let refused = cardsmith(&["print", "--format", "tts", "--base-url", "cards here"], dir.path());
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
}

/// A copy of the bundled example project `examples/NAME` in a temporary
/// folder.
/// The image XObjects of a PDF: how many, and how many distinct streams.
fn image_objects(pdf: &Pdf) -> (usize, usize) {
    let mut streams = BTreeSet::new();
    let mut count = 0;
    for object in pdf.0.objects.values() {
        if let Object::Stream(stream) = object {
            if stream.dict.get(b"Subtype").ok().and_then(|s| s.as_name().ok()) == Some(b"Image".as_slice()) {
                count += 1;
                streams.insert(stream.content.clone());
            }
        }
    }
    (count, streams.len())
}

#[test]
fn the_art_deck_example_prints_to_every_format_with_each_image_embedded_once() {
    let dir = example_project("art-deck");
    let output = cardsmith(&["print", "--dpi", "100"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let files = common::contents(&dir.path().join("print"));
    for name in
        ["dreadnaught-2e.pdf", "preview.html", "tts/dreadnaught-2e.json", "png/dreadnaught-2e/004-nebula-cover.png"]
    {
        assert!(files.contains_key(name), "no {name} in {:?}", files.keys());
    }
    // Two cards show the PNG, two the SVG: the PDF holds the PNG's pixels
    // once (the SVG is drawn as vectors), and the preview both, inline.
    let pdf = Pdf::open(&dir.path().join("print/dreadnaught-2e.pdf"));
    assert_eq!(image_objects(&pdf), (1, 1), "each image is embedded once");
    // The project's font is embedded, subset (`ABCDEF+DejaVuSerif…`).
    let page = pdf.pages()[0];
    let serif: Vec<String> =
        pdf.fonts(page).into_iter().filter(|f| pdf.embedded(f)).map(|f| pdf.font_name(f)).collect();
    assert!(serif.iter().any(|n| n.contains('+') && n.contains("DejaVuSerif")), "{serif:?}");
    let html = String::from_utf8_lossy(&files["preview.html"]);
    assert_eq!(html.matches("@font-face").count(), 4, "the bundled faces and the project's font");
    assert_eq!(html.matches("data:image/png;base64").count(), 2);
    assert_eq!(html.matches("svg+xml;base64").count(), 2);
    // The art shows: the body of the card with art is not the plain white
    // of the same card without it.
    let (w, _, with_art) = decode_png(&dir.path().join("print/png/dreadnaught-2e/004-nebula-cover.png"));
    // `[print] back-art` shows behind the back's emblem: its corner is not
    // the back's plain navy.
    let (bw, _, back) = decode_png(&dir.path().join("print/png/dreadnaught-2e/back.png"));
    let corner = &back[((4 * bw + 4) * 4) as usize..((4 * bw + 4) * 4 + 3) as usize];
    assert_ne!(corner, [0x1f, 0x2a, 0x36], "no art on the back");
    std::fs::write(
        dir.path().join("cards/railguns.cards"),
        std::fs::read_to_string(dir.path().join("cards/railguns.cards"))
            .unwrap()
            .replace("  art \"art/nebula.png\"\n", ""),
    )
    .unwrap();
    let output = cardsmith(&["print", "--dpi", "100", "--format", "png"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let (_, _, without) = decode_png(&dir.path().join("print/png/dreadnaught-2e/004-nebula-cover.png"));
    let at =
        |pixels: &[u8], x: u32, y: u32| pixels[((y * w + x) * 4) as usize..((y * w + x) * 4 + 3) as usize].to_vec();
    assert_eq!(at(&without, 40, 250), vec![255, 255, 255]);
    assert_ne!(at(&with_art, 40, 250), vec![255, 255, 255], "no art behind the body");
}

#[test]
fn every_bundled_face_template_draws_a_cards_art_and_only_when_it_has_some() {
    // One file per bundled template family: each game's own faces and, for
    // Dropfleet's Command Cards, the generic face.
    let cases = [
        ("dreadnaught-1e", "beams.cards"),
        ("dreadnaught-2e", "kinetic.cards"),
        ("dreadnought-tcg", "casters.cards"),
        ("dropfleet-1.3", "ucm.cards"),
        ("dropfleet-1.3", "command-cards.cards"),
    ];
    let nebula = std::fs::read(repo().join("examples/art-deck/art/nebula.png")).expect("nebula");
    for (game, file) in cases {
        let dir = common::bundled_project(game);
        std::fs::write(dir.path().join("nebula.png"), &nebula).expect("art");
        let path = dir.path().join("cards").join(file);
        let text = std::fs::read_to_string(&path).expect("cards");
        // The art goes into the file's first card, after its opening line.
        let opening = text.find("\" {\n").map(|at| at + 4).expect("a card");
        std::fs::write(&path, format!("{}  art \"nebula.png\"\n{}", &text[..opening], &text[opening..]))
            .expect("cards");
        let output = cardsmith(&["print", "--format", "pdf,html", "cards"], dir.path());
        assert_eq!(output.status.code(), Some(0), "{game}/{file}: {}", stderr(&output));
        let html = std::fs::read_to_string(dir.path().join("print/preview.html")).expect("preview");
        // Exactly one face draws an image, cropped to fill its box.
        assert_eq!(html.matches("<image ").count(), 1, "{game}/{file}: art drawn on one face");
        assert!(html.contains("data:image/png;base64"), "{game}/{file}");
        assert!(html.contains("preserveAspectRatio=\"xMidYMid slice\""), "{game}/{file}");
        let pdf = Pdf::open(&dir.path().join(format!("print/{game}.pdf")));
        assert_eq!(image_objects(&pdf), (1, 1), "{game}/{file}: the art is in the PDF once");
    }
}

/// The CRC-32 a PNG chunk ends with (over its type and data).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[test]
fn an_image_that_cannot_be_drawn_is_a_diagnostic_at_its_card() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.png"), b"\x89PNG\r\n\x1a\n").unwrap();
    let cases: &[(&str, &str)] = &[
        ("missing.png", "W0716"),
        ("../secret.png", "E0711"),
        ("/etc/passwd", "E0711"),
        ("link/secret.png", "E0711"),
        ("notes.png", "E0713"),
        ("cut.png", "E0713"),
        ("huge.png", "E0712"),
    ];
    let mut cards = String::from("game dreadnaught-2e\n");
    for (i, (path, _)) in cases.iter().enumerate() {
        cards.push_str(&format!("\nevent \"Card {i}\" {{\n  at 3.0 {{ impact damage 1 }}\n  art \"{path}\"\n}}\n"));
    }
    project(dir.path(), &cards);
    std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
    std::fs::write(dir.path().join("notes.png"), "not an image").unwrap();
    // A PNG cut short after its header, and one that claims 9000 × 9000.
    let nebula = std::fs::read(repo().join("examples/art-deck/art/nebula.png")).unwrap();
    std::fs::write(dir.path().join("cut.png"), &nebula[..nebula.len() / 2]).unwrap();
    let mut huge = nebula.clone();
    huge[16..24].copy_from_slice(&[0, 0, 0x23, 0x28, 0, 0, 0x23, 0x28]);
    let crc = crc32(&huge[12..29]).to_be_bytes();
    huge[29..33].copy_from_slice(&crc);
    std::fs::write(dir.path().join("huge.png"), huge).unwrap();
    let output = cardsmith(&["print", "--format", "html", "--message-format", "json"], dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let found: Vec<(String, u64)> = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .map(|d| (d["code"].as_str().unwrap_or("").to_string(), d["line"].as_u64().unwrap_or(0)))
        .collect();
    // A missing file is a warning at its path (line 5 of its card), and the
    // card would print with a placeholder; the others are errors at the card.
    let expected: Vec<(String, u64)> = cases
        .iter()
        .enumerate()
        .map(|(i, (_, code))| (code.to_string(), 3 + 5 * i as u64 + if code.starts_with('W') { 2 } else { 0 }))
        .collect();
    assert_eq!(found, expected, "{}", stderr(&output));
    assert!(!dir.path().join("print").exists(), "nothing is written");

    // A font outside the project, missing, or a file that is not a font is
    // an error at the manifest's entry, and nothing is written.
    let fonts =
        [("../font.ttf", "not a path inside the project"), ("nope.ttf", "nope.ttf"), ("notes.png", "not a TrueType")];
    for (font, expected) in fonts {
        let manifest = format!("[project]\npaths = [\"cards\"]\n[print]\nfonts = [\"cards\", \"{font}\"]\n");
        std::fs::write(dir.path().join("cardsmith.toml"), manifest).unwrap();
        let output = cardsmith(&["print", "--format", "html", "--message-format", "json"], dir.path());
        assert_eq!(output.status.code(), Some(1), "{font}: {}", stderr(&output));
        let stdout = String::from_utf8_lossy(&output.stdout);
        let problems: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
            .filter(|d| d["code"] == "E0714")
            .collect();
        // `cards` is a folder, not a font: both entries are reported, each
        // at its own place on line 4.
        assert_eq!(problems.len(), 2, "{font}: {stdout}");
        let last = &problems[1];
        assert_eq!((last["file"].as_str(), last["line"].as_u64()), (Some("cardsmith.toml"), Some(4)), "{last}");
        assert_eq!(last["column"].as_u64(), Some(19), "the entry's opening quote: {last}");
        assert!(last.to_string().contains(expected), "{font}: {last}");
        assert!(!dir.path().join("print").exists(), "nothing is written");
    }
}

#[test]
fn the_generic_back_tells_decks_apart_but_not_kinds() {
    let outcome = common::check_folder("cards/dreadnought-tcg");
    let mut templates = Templates::new(&[]).expect("templates");
    // By default the backs name no deck: every card shares one back.
    let plain = print::prepare(&outcome.project, &mut templates, &options(Formats::ALL));
    assert!(plain.diagnostics.is_empty(), "{:?}", plain.diagnostics);
    let backs: BTreeSet<&str> = plain.faces.iter().map(|f| f.back.as_str()).collect();
    assert_eq!(backs.len(), 1, "the default backs differ");
    assert!(
        outcome.project.games[0].decks.iter().all(|deck| !backs.iter().any(|b| b.contains(&deck.name))),
        "a default back names its deck"
    );
    // With `backs_named`, each deck's cards share a back that names it.
    let job = print::prepare(
        &outcome.project,
        &mut templates,
        &print::Options { backs_named: true, ..options(Formats::ALL) },
    );
    assert!(job.diagnostics.is_empty(), "{:?}", job.diagnostics);
    let game = &outcome.project.games[0];
    let decks: Vec<&str> = game.decks.iter().map(|d| d.name.as_str()).collect();
    assert!(decks.len() >= 2, "{decks:?}");
    let mut backs_of_deck: Vec<BTreeSet<&str>> = Vec::new();
    for deck in &game.decks {
        // The cards this deck lists first, and a back that is not a card's
        // own reverse: the back the deck's cards share.
        let faces: Vec<&print::Face> = job
            .faces
            .iter()
            .filter(|f| f.decks.first().map(String::as_str) == Some(&deck.name))
            .filter(|f| job.faces.iter().filter(|g| g.back == f.back).count() > 1)
            .collect();
        let backs: BTreeSet<&str> = faces.iter().map(|f| f.back.as_str()).collect();
        assert!(backs.len() <= 1, "the cards of {} have {} backs: the back shows the kind", deck.name, backs.len());
        if let Some(back) = backs.iter().next() {
            assert!(back.contains(&deck.name), "the back of {} does not name it", deck.name);
        }
        backs_of_deck.push(backs);
    }
    let shown: Vec<&BTreeSet<&str>> = backs_of_deck.iter().filter(|b| !b.is_empty()).collect();
    assert!(shown.len() >= 2 && shown[0] != shown[1], "two decks, two backs: {decks:?}");
}

#[test]
fn a_game_names_its_fonts_by_putting_them_beside_its_templates() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path(), "game dreadnaught-2e\n\nevent \"Signal\" {\n  at 3.0 { impact damage 1 }\n}\n");
    let fonts = dir.path().join("templates/dreadnaught-2e");
    std::fs::create_dir_all(&fonts).unwrap();
    let serif = repo().join("examples/art-deck/fonts/DejaVuSerifCondensed-Bold.ttf");
    std::fs::copy(serif, fonts.join("Title.TTF")).unwrap();
    let output = cardsmith(&["print", "--format", "html"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let html = std::fs::read_to_string(dir.path().join("print/preview.html")).unwrap();
    assert_eq!(html.matches("@font-face").count(), 4, "the bundled faces and the game's font");
    assert!(html.contains("font-family: \"DejaVu Serif\""), "the font's own family name");
    std::fs::write(fonts.join("broken.otf"), "not a font").unwrap();
    let output = cardsmith(&["print", "--format", "html"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("error[E0714]: cannot use the font `templates/dreadnaught-2e/broken.otf`"), "{err}");
    assert!(err.contains("templates/dreadnaught-2e/broken.otf:1:1"), "{err}");
}

/// The trim box of every page of cards of a PDF (the checklist has none),
/// as its width and height in millimetres rounded to a tenth.
fn trim_sizes(pdf: &Pdf) -> Vec<(f64, f64)> {
    let tenth = |points: f64| (points_to_mm(points) * 10.0).round() / 10.0;
    pdf.pages()
        .into_iter()
        .filter_map(|page| {
            let trim = pdf.page_box(page, "TrimBox")?;
            Some((tenth(trim[2] - trim[0]), tenth(trim[3] - trim[1])))
        })
        .collect()
}

#[test]
fn a_kind_of_its_own_size_prints_on_sheets_of_its_own_in_every_format() {
    // Dropfleet's ruleset gives its 27 ship stat sheets, its scenario and its
    // 3 Space Stations 70 × 120 mm; its 36 other cards take `--card`.
    let dir = common::bundled_project("dropfleet-1.3");
    let output = cardsmith(&["print", "--card", "poker", "--dpi", "100"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = dir.path().join("print");
    // A4 holds 2 × 2 ships (140 × 240 mm) and 3 × 3 poker cards: 8 pages of
    // ships and 4 of the rest, each size in a run of its own.
    let sizes = trim_sizes(&Pdf::open(&out.join("dropfleet-1.3.pdf")));
    let (ships, poker) = ((140.0, 240.0), (190.5, 266.7));
    assert_eq!(sizes.iter().filter(|s| **s == ships).count(), 8, "{sizes:?}");
    assert_eq!(sizes.iter().filter(|s| **s == poker).count(), 4, "{sizes:?}");
    assert_eq!(sizes.len(), 12, "{sizes:?}");
    let runs = sizes.windows(2).filter(|pair| pair[0] != pair[1]).count();
    assert_eq!(runs, 1, "the sizes are not mixed on the sheets: {sizes:?}");
    // PNG fronts at their size: 70 mm is 276 pixels at 100 dpi, 63.5 mm 250.
    let files = common::contents(&out);
    let fronts: Vec<u32> = files
        .keys()
        .filter(|name| name.starts_with("png/") && name.ends_with(".png") && !name.contains("back"))
        .map(|name| decode_png(&out.join(name)).0)
        .collect();
    assert_eq!((fronts.iter().filter(|w| **w == 276).count(), fronts.iter().filter(|w| **w == 250).count()), (31, 36));
    // The preview shows each card at its size.
    let html = String::from_utf8(files["preview.html"].clone()).expect("UTF-8");
    assert_eq!(html.matches("--w: 70mm; --h: 120mm").count(), 31);
    assert_eq!(html.matches("--w: 63.5mm; --h: 88.9mm").count(), 36);
    // Tabletop Simulator takes one face size per deck: a deck per size,
    // whose sheets' faces have that size's shape.
    for (size, count, aspect) in [("70x120", 31, 120.0 / 70.0), ("63.5x88.9", 36, 88.9 / 63.5)] {
        let name = format!("tts/dropfleet-1.3-{size}.json");
        let object: serde_json::Value = serde_json::from_slice(&files[&name]).expect("JSON");
        let here = std::fs::canonicalize(&out).expect("the output folder");
        check_saved_object(&object, &files, &format!("file://{}/tts/", here.display()));
        assert_eq!(object["ObjectStates"][0]["ContainedObjects"].as_array().unwrap().len(), count, "{name}");
        let deck = &object["ObjectStates"][0]["CustomDeck"]["1"];
        let (columns, rows) = (deck["NumWidth"].as_u64().unwrap(), deck["NumHeight"].as_u64().unwrap());
        let (width, height, _) = decode_png(&out.join(format!("tts/dropfleet-1.3-{size}-1.png")));
        let face = (f64::from(width) / columns as f64, f64::from(height) / rows as f64);
        assert!((face.1 / face.0 - aspect).abs() < 0.02, "{name}: faces of {face:?}");
    }
    assert!(!files.keys().any(|name| name == "tts/dropfleet-1.3.json"), "no deck mixes the sizes");
}

/// `[print.deck-backs]` gives one deck's cards a back picture of their own;
/// the other cards keep the game's back, and a key naming no deck is refused.
#[test]
fn a_deck_may_have_a_back_picture_of_its_own() {
    let dir = common::bundled_project("dreadnaught-2e");
    std::fs::create_dir(dir.path().join("art")).expect("art folder");
    std::fs::copy(repo().join("examples/art-deck/art/nebula.png"), dir.path().join("art/nebula.png")).expect("art");
    let manifest = "[project]\npaths = [\"cards\"]\n\n[print.deck-backs]\n\"Kinetic\" = \"art/nebula.png\"\n";
    std::fs::write(dir.path().join("cardsmith.toml"), manifest).expect("manifest");
    let output = cardsmith(&["print", "--format", "png", "--dpi", "60", "-o", "print"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let backs: Vec<String> = common::contents(&dir.path().join("print/png/dreadnaught-2e"))
        .into_keys()
        .filter(|name| name.starts_with("back-"))
        .collect();
    assert_eq!(backs, ["back-1.png", "back-2.png"], "the Kinetic cards' back and everyone else's");
    let navy_corner = |name: &str| {
        let (w, _, pixels) = decode_png(&dir.path().join("print/png/dreadnaught-2e").join(name));
        pixels[((4 * w + 4) * 4) as usize..((4 * w + 4) * 4 + 3) as usize] == [0x1f, 0x2a, 0x36]
    };
    assert_eq!([navy_corner("back-1.png"), navy_corner("back-2.png")].iter().filter(|navy| **navy).count(), 1);

    std::fs::write(dir.path().join("cardsmith.toml"), manifest.replace("\"Kinetic\"", "\"Kinetik\""))
        .expect("manifest");
    let refused = cardsmith(&["print", "--format", "png", "-o", "print"], dir.path());
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("did you mean `Kinetic`?"), "{}", stderr(&refused));
}

/// A PNG of `w` × `h` grey pixels.
fn grey_png(w: u32, h: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("header");
    writer.write_image_data(&vec![120; (w * h * 3) as usize]).expect("pixels");
    writer.finish().expect("written");
    bytes
}

#[test]
fn missing_art_is_a_warning_in_check_and_a_placeholder_in_print() {
    let dir = tempfile::tempdir().unwrap();
    let cards =
        "game dreadnaught-2e\n\nevent \"Lost Picture\" {\n  at 3.0 { impact damage 1 }\n  art \"art/gone.png\"\n}\n";
    project(dir.path(), cards);
    let checked = cardsmith(&["check", "--message-format", "short"], dir.path());
    let err = stderr(&checked);
    assert_eq!(checked.status.code(), Some(0), "{err}");
    assert!(
        err.contains("cards/test.cards:5:7: warning[W0716]: the art of `Lost Picture` is not in the project"),
        "{err}"
    );
    let printed = cardsmith(&["print", "--format", "png,html", "--dpi", "60"], dir.path());
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "{err}");
    assert_eq!(err.matches("W0716").count(), 1, "reported once: {err}");
    let html = std::fs::read_to_string(dir.path().join("print/preview.html")).expect("preview");
    assert!(html.contains("class=\"missing-art\""), "no placeholder on the face");
    assert!(dir.path().join("print/png/dreadnaught-2e/001-lost-picture.png").is_file());
}

#[test]
fn art_under_200_ppi_at_its_printed_size_is_a_warning_with_its_ppi() {
    let dir = tempfile::tempdir().unwrap();
    let card = |name: &str, path: &str| {
        format!("\nevent \"{name}\" {{\n  at 3.0 {{ impact damage 1 }}\n  art \"{path}\"\n}}\n")
    };
    let cards = format!("game dreadnaught-2e\n{}{}", card("Small", "small.png"), card("Large", "large.png"));
    project(dir.path(), &cards);
    std::fs::write(dir.path().join("small.png"), grey_png(60, 80)).unwrap();
    std::fs::write(dir.path().join("large.png"), grey_png(900, 1200)).unwrap();
    let printed = cardsmith(&["print", "--format", "html"], dir.path());
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "{err}");
    // The bundled faces crop the art to fill the body: about 58 × 73 mm,
    // so 80 pixels down is 27 ppi, and 1200 pixels 400.
    assert_eq!(err.matches("W0717").count(), 1, "{err}");
    assert!(err.contains("warning[W0717]: the art `small.png` of `Small` prints at 2"), "{err}");
    assert!(err.contains("60 × 80 pixels, drawn"), "{err}");
    assert!(err.contains("cards/test.cards:5:7"), "at the path: {err}");
}
