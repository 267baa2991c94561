//! Printing 1,000 cards: the time to draw their faces (templates and text
//! layout), to write the PDF sheets and to render one PNG per face at 300
//! dpi, beside `serde_json` reading the same cards' engine data as a
//! baseline.  A benchmark prints figures; it asserts nothing.
//!
//!     cargo bench --bench print

use cardsmith::backend::print::{self, sheet, templates::Templates, Formats, Options};
use cardsmith::workspace::Workspace;
use std::time::Instant;

const CARDS: usize = 1000;

/// 1,000 distinct Offense Cards of varied shape: effects at one or two
/// steps, conditions, keywords, inline icons, card references, some grids.
fn source() -> String {
    let arcs = ["standard", "narrow", "forward", "broadside", "turret", "rear"];
    let mut text = String::from("game dreadnaught-2e\n\n");
    for i in 0..CARDS {
        let arc = arcs[i % arcs.len()];
        let grid = if i % 5 == 0 { "  grid {\n    arrows green\n    green 0,-1 0,-2 1,-2 0,-3\n  }\n" } else { "" };
        let second = if i % 3 == 0 { "  at 1.0 {\n    impact push 1\n  }\n" } else { "" };
        text.push_str(&format!(
            "offense \"Bench Battery {i}\" {{\n  symbol kinetic\n  arc {arc}\n  at {}.{} {{\n    impact damage {}+\n    cost burn 1\n    when range long.. {{\n      impact damage +2\n    }}\n  }}\n{second}{grid}  keywords unstoppable(damage)\n  text \"Deal {} {{damage}} to a ship in your {arc} arc; pay 1 {{burn}}. At Long range or further, +2 {{damage}}. Counts as *Bench Battery {}* for every card that names it.\"\n}}\n\n",
            i % 6,
            i % 10,
            i % 9 + 1,
            i % 9 + 1,
            (i + 1) % CARDS
        ));
    }
    text
}

fn seconds(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}

fn main() {
    let text = source();
    let start = Instant::now();
    let mut workspace = Workspace::new();
    workspace.add_text("bench.cards", &text);
    let outcome = workspace.check();
    let check = seconds(start);
    let errors: Vec<_> = outcome.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "the bench cards must check clean: {}", errors[0].message);

    let json = cardsmith::backend::json::build(&outcome.files, &outcome.project).expect("engine data");
    let document =
        &json.iter().find(|f| f.name.ends_with("dreadnaught-2e.json")).expect("the game's document").contents;
    let start = Instant::now();
    let value: serde_json::Value = serde_json::from_str(document).expect("valid JSON");
    let baseline = seconds(start);
    std::hint::black_box(value);

    let options = |formats| Options {
        card: sheet::card_size("poker").expect("poker"),
        paper: sheet::paper_size("a4").expect("a4"),
        bleed: 0.0,
        backs: true,
        dpi: 300,
        formats,
        deck: None,
        ..Options::default()
    };
    let none = Formats::NONE;
    let start = Instant::now();
    let mut templates = Templates::new(&[]).expect("templates");
    let job = print::prepare(&outcome.project, &mut templates, &options(none));
    let faces = seconds(start);
    assert_eq!(job.faces.len(), CARDS);
    let overflowing = job.diagnostics.len();

    let time = |formats: Formats| {
        let start = Instant::now();
        let blobs = print::render(&job, &options(formats), &|| {}).expect("render");
        (seconds(start), blobs.iter().map(|b| b.bytes.len()).sum::<usize>())
    };
    if std::env::var("SPLIT").is_ok() {
        split_png_time(&job);
        return;
    }
    let (pdf, pdf_bytes) = time(Formats { pdf: true, ..none });
    let (png, png_bytes) = time(Formats { png: true, ..none });
    let (both, _) = time(Formats { pdf: true, png: true, ..none });
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!("print bench: {CARDS} cards on {cores} cores ({overflowing} overflow warnings)");
    println!("  check                  {check:>7.3} s");
    println!("  faces (SVG, layout)    {faces:>7.3} s");
    println!("  PDF, fronts and backs  {pdf:>7.3} s  ({:.1} MB)", pdf_bytes as f64 / 1e6);
    println!("  PNG, 300 dpi           {png:>7.3} s  ({:.1} MB)", png_bytes as f64 / 1e6);
    println!("  PDF and PNG in one run {both:>7.3} s  (faces parsed once)");
    println!("  faces + PDF + PNG      {:>7.3} s  (target: under 5 s)", faces + both);
    println!("  serde_json baseline    {baseline:>7.3} s  (reading the same cards' engine data)");
    println!("  ratio (faces+PDF+PNG) / serde_json: {:.0}×", (faces + both) / baseline.max(1e-9));
}

/// With `SPLIT=1`: where the time of one PNG goes, on one core.
fn split_png_time(job: &print::Job) {
    let usvg = print::svg::options();
    let start = Instant::now();
    let trees: Vec<_> = job.faces.iter().take(100).map(|f| print::svg::parse(&f.front, &usvg).expect("svg")).collect();
    println!("  parse 100: {:.3}", seconds(start));
    let trim = print::png::Trim::new(63.5, 88.9, 0.0);
    let start = Instant::now();
    let pixmaps: Vec<_> = trees.iter().map(|t| print::png::render(t, trim, 750, 1050).expect("render")).collect();
    println!("  raster 100: {:.3}", seconds(start));
    let start = Instant::now();
    for p in &pixmaps {
        std::hint::black_box(print::png::encode(p, 300).expect("encode"));
    }
    println!("  encode 100: {:.3}", seconds(start));
}
