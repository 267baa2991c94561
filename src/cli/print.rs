//! `cardsmith print [PATH...] [-o DIR]`: printable proxies of a project —
//! PDF sheets, PNG faces, an HTML preview and Tabletop Simulator decks —
//! written atomically to one folder.  Settings come from the command line,
//! then `[print]` in `cardsmith.toml`, then the defaults.

use super::project::{ManifestSource, Project};
use super::{atomic, build, check, output, read};
use cardsmith::backend::print::{self, sheet, templates::Templates, Formats, Options, MIN_TEXT};
use cardsmith::config::PrintSettings;
use cardsmith::diagnostics::{Diagnostic, Severity};
use cardsmith::source::{FileId, Files, Span};
use cardsmith::workspace::Outcome;
use miette::{miette, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The output folder when neither `-o` nor the manifest names one.
pub(super) const DEFAULT_OUT: &str = "print";

/// The folder of a project's own templates, beside `cardsmith.toml`.
const TEMPLATES: &str = "templates";

#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// Files or folders to print (default: the project found from the current folder)
    pub paths: Vec<PathBuf>,
    /// The output folder (default: `[print] out` in cardsmith.toml, else `print`)
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    /// What to write, comma-separated: pdf, png, html, tts, shop (one card a page for a print shop), all (default: pdf, png, html, tts)
    #[arg(long, value_delimiter = ',')]
    pub format: Vec<String>,
    /// Paper of the PDF sheets: a4, letter, a3, legal, or WxH in millimetres such as 297x210 (default: a4)
    #[arg(long)]
    pub paper: Option<String>,
    /// Card size: poker, bridge, tarot, mini, or WxH in millimetres such as 63.5x88.9 (default: poker)
    #[arg(long)]
    pub card: Option<String>,
    /// Bleed around each card on the sheets and the PNGs, in millimetres (default: 0)
    #[arg(long)]
    pub bleed: Option<f32>,
    /// Paper edge where the printer cannot print and nothing is drawn, cut marks included, in millimetres (default: 5)
    #[arg(long)]
    pub margin: Option<f32>,
    /// Add a backs page after every fronts page, laid out for `--duplex` (default: long)
    #[arg(long)]
    pub backs: bool,
    /// How the printer turns the sheet for the backs: long or short edge (implies --backs)
    #[arg(long)]
    pub duplex: Option<String>,
    /// Move every backs page by X,Y millimetres (x right, y down) to make up for the printer; read it off --calibration
    #[arg(long, allow_hyphen_values = true)]
    pub offset: Option<String>,
    /// Start the PDF with a calibration sheet that measures the printer's front/back misalignment
    #[arg(long)]
    pub calibration: bool,
    /// Address where the Tabletop Simulator images will be hosted; the saved object names them after it (default: the file:/// address of the output's tts/ folder)
    #[arg(long)]
    pub base_url: Option<String>,
    /// Pixels across one face on the Tabletop Simulator sheets (default: from --dpi, at most 300 dpi)
    #[arg(long)]
    pub tts_width: Option<u32>,
    /// Print the copies a card's deck holds (×N) on its face, PNG and Tabletop Simulator sheets, instead of on a checklist at the end of the PDF
    #[arg(long)]
    pub copies_on_face: bool,
    /// Show the deck's name on the backs (default: the backs name no deck)
    #[arg(long)]
    pub backs_named: bool,
    /// Print one deck with its copies instead of every card once
    #[arg(long)]
    pub deck: Option<String>,
    /// Resolution of the PNG faces, which include the bleed (default: 300)
    #[arg(long)]
    pub dpi: Option<u32>,
    /// Smallest type size in points before a warning (default: 6)
    #[arg(long)]
    pub min_text: Option<f32>,
    /// How to print diagnostics
    #[arg(long, value_enum, default_value = "human")]
    pub message_format: super::DiagnosticFormat,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let project = Project::for_paths(&args.paths)?;
    let settings = &project.manifest.print;
    let mut options = options(args, settings)?;
    let inputs = build::inputs(&project, &args.paths)?;
    let out = output_folder(args, &project, &inputs)?;
    if options.base_url.is_none() {
        // Tabletop Simulator loads what the saved objects address: without
        // a host, the images where they are written.
        let tts = std::path::absolute(out.join("tts")).map_err(|e| miette!("cannot find the output folder: {e}"))?;
        options.base_url = Some(file_url(&tts));
    }
    let mut outcome = build::load(&project, &inputs)?;
    if outcome.stats.errors > 0 {
        check::print(&outcome, args.message_format.into())?;
        eprintln!("nothing written: fix the errors first");
        return Ok(ExitCode::from(1));
    }
    if let Err(no_cards) = output::require_cards(&outcome, &inputs) {
        check::print(&outcome, args.message_format.into())?;
        return Err(no_cards);
    }
    let job = prepare(&project, &mut outcome, &options)?;
    check::print(&outcome, args.message_format.into())?;
    if outcome.stats.errors > 0 {
        eprintln!("nothing written: fix the errors first");
        return Ok(ExitCode::from(1));
    }
    let progress = progress_bar(print::steps(&job, &options) as u64);
    let rendered = print::render(&job, &options, &|| progress.inc(1));
    progress.finish_and_clear();
    let blobs = match rendered {
        Ok(blobs) => blobs,
        Err(print::RenderError::Faces(diagnostics)) => {
            // What was shown above is not shown again.
            outcome.diagnostics.clear();
            (outcome.stats.errors, outcome.stats.warnings) = (0, 0);
            merge(&mut outcome, diagnostics);
            check::print(&outcome, args.message_format.into())?;
            eprintln!("nothing written: fix the errors first");
            return Ok(ExitCode::from(1));
        }
        Err(print::RenderError::Output(message)) => return Err(miette!("{message}")),
    };
    let files: Vec<(&str, &[u8])> = blobs.iter().map(|b| (b.name.as_str(), b.bytes.as_slice())).collect();
    atomic::replace_folder_bytes(&out, &files)?;
    eprintln!("{}", summary(&job, &blobs, &out));
    if let Some(sheets) = sheets_report(&job, &options) {
        eprintln!("{sheets}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Prepares the faces of a checked project: reads its template overrides,
/// fonts and art, and lays out every card.  The problems found on the way
/// are added to the outcome; the job returned holds none.
fn prepare(project: &Project, outcome: &mut Outcome, options: &Options) -> Result<print::Job> {
    let settings = &project.manifest.print;
    refuse_unknown_size_kinds(options, &outcome.project)?;
    refuse_unknown_back_decks(settings, &outcome.project)?;
    let overrides = match &project.root {
        Some(root) => read_overrides(root, outcome)?,
        None => Vec::new(),
    };
    let folder = project.root.clone().unwrap_or_else(|| project.cwd.clone());
    let names = font_names(project.root.as_deref(), outcome, settings);
    let (fonts, font_problems) = read_fonts(&folder, &names, project.manifest_source.as_ref(), &mut outcome.files);
    merge(outcome, font_problems);
    let back_art = settings.back_art.clone();
    let deck_backs: Vec<(String, String)> =
        settings.deck_backs.iter().map(|(deck, path, _)| (deck.clone(), path.clone())).collect();
    let backs: Vec<&str> = back_art.iter().chain(deck_backs.iter().map(|(_, path)| path)).map(String::as_str).collect();
    let art = print::art::Art::load(read_art(&folder, outcome, &backs));
    let assets = print::Assets { art, fonts, back_art, deck_backs };
    let mut job = match Templates::new(&overrides) {
        Ok(mut templates) => print::prepare_with(&outcome.project, &mut templates, options, &assets),
        Err(message) => print::Job {
            diagnostics: vec![
                Diagnostic::error(&print::codes::TEMPLATE_ERROR, "the templates cannot be used").note(message)
            ],
            ..print::Job::default()
        },
    };
    merge(outcome, std::mem::take(&mut job.diagnostics));
    if options.formats.html {
        problems_on_cards(&mut job, outcome);
    }
    Ok(job)
}

/// Gives each face the diagnostics that point into its card, for the
/// preview to show on it.
fn problems_on_cards(job: &mut print::Job, outcome: &Outcome) {
    for face in &mut job.faces {
        // A card of a spreadsheet: its problems are at its row's cells.
        let extent = outcome.files.origin(face.extent);
        let inside = |span: Span| {
            span.file == extent.file && extent.start <= span.start && span.start <= extent.end.max(extent.start)
        };
        face.problems = outcome
            .diagnostics
            .iter()
            .filter_map(|diagnostic| {
                let span = diagnostic.primary_span().filter(|span| inside(*span))?;
                Some(print::html::Problem {
                    error: diagnostic.severity == Severity::Error,
                    code: diagnostic.code.id.to_string(),
                    message: diagnostic.message.clone(),
                    line: outcome.files.line(span),
                })
            })
            .collect();
    }
}

/// The HTML preview as `print --format html` writes it, in memory, with
/// the other settings of `[print]`.
pub(super) enum Preview {
    Page(Vec<u8>),
    /// The check or the print found errors: the outcome holds them.
    Errors(Box<Outcome>),
}

/// Reads, checks and prints the project's HTML preview without writing it.
pub(super) fn preview(project: &Project, paths: &[PathBuf]) -> Result<Preview> {
    let args = Args { format: vec!["html".into()], ..Args::default() };
    let options = options(&args, &project.manifest.print)?;
    let inputs = build::inputs(project, paths)?;
    let mut outcome = build::load(project, &inputs)?;
    if outcome.stats.errors == 0 {
        output::require_cards(&outcome, &inputs)?;
        let job = prepare(project, &mut outcome, &options)?;
        if outcome.stats.errors == 0 {
            match print::render(&job, &options, &|| ()) {
                Ok(blobs) => {
                    let page = blobs.into_iter().find(|blob| blob.name.ends_with(".html"));
                    return page.map(|blob| Preview::Page(blob.bytes)).ok_or_else(|| miette!("no preview was made"));
                }
                Err(print::RenderError::Faces(diagnostics)) => merge(&mut outcome, diagnostics),
                Err(print::RenderError::Output(message)) => return Err(miette!("{message}")),
            }
        }
    }
    Ok(Preview::Errors(Box::new(outcome)))
}

/// `-o`, else `[print] out`, else `print` in the project (or the current
/// folder); refused when it would touch what the print reads: the cards and
/// the project's template overrides.
/// The output folder: `-o`, else `[print] out`, else `print` in the project;
/// refused when it touches what the run reads (cards and templates).
fn output_folder(args: &Args, project: &Project, inputs: &[PathBuf]) -> Result<PathBuf> {
    let out = match &args.out {
        Some(out) => out.clone(),
        None => project.output_folder(project.manifest.print.out.as_ref(), "[print] out", DEFAULT_OUT)?,
    };
    let mut read = inputs.to_vec();
    read.extend(project.root.as_deref().map(|root| root.join(TEMPLATES)));
    output::refuse_overlap(&out, &read, Some(project.home()))?;
    Ok(out)
}

/// Adds the print's own problems to the check's; one that points into the
/// card text of a spreadsheet is moved to the cell it came from.
fn merge(outcome: &mut Outcome, mut diagnostics: Vec<Diagnostic>) {
    for label in diagnostics.iter_mut().flat_map(|d| d.labels.iter_mut()) {
        label.span = outcome.files.origin(label.span);
    }
    for d in &diagnostics {
        match d.severity {
            Severity::Error => outcome.stats.errors += 1,
            Severity::Warning => outcome.stats.warnings += 1,
        }
    }
    outcome.diagnostics.extend(diagnostics);
    cardsmith::diagnostics::sort(&mut outcome.diagnostics);
}

fn progress_bar(steps: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    // Only long jobs on a terminal get a bar.
    if !std::io::stderr().is_terminal() || steps < 50 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(steps);
    if let Ok(style) = indicatif::ProgressStyle::with_template("printing {bar:40} {pos}/{len} {elapsed}") {
        bar.set_style(style);
    }
    bar
}

fn summary(job: &print::Job, blobs: &[print::Blob], out: &Path) -> String {
    let top: Vec<&str> = blobs.iter().filter(|b| !b.name.contains('/')).map(|b| b.name.as_str()).collect();
    let mut folders: Vec<String> = Vec::new();
    for prefix in ["png/", "tts/"] {
        let n = blobs.iter().filter(|b| b.name.starts_with(prefix)).count();
        if n > 0 {
            folders.push(format!("{prefix} ({n} files)"));
        }
    }
    let shown: Vec<String> = top.iter().map(|s| s.to_string()).chain(folders).collect();
    format!(
        "printed {} card{} ({} cop{}) to {}: {}",
        job.faces.len(),
        if job.faces.len() == 1 { "" } else { "s" },
        job.copies.len(),
        if job.copies.len() == 1 { "y" } else { "ies" },
        out.display(),
        shown.join(", ")
    )
}

/// How the PDF's sheets are laid out, per card size printed:
/// `sheets: 63.5x88.9 mm cards 8 a page (4 × 2, landscape)`.
fn sheets_report(job: &print::Job, options: &Options) -> Option<String> {
    if !options.formats.pdf {
        return None;
    }
    let mut sizes: Vec<sheet::Size> = Vec::new();
    for face in &job.faces {
        if !sizes.contains(&face.size) {
            sizes.push(face.size);
        }
    }
    let layouts: Vec<String> = sizes
        .iter()
        .filter_map(|size| {
            let grid = options.grid_for(*size)?;
            let space = grid.space();
            let orientation = if space.w > space.h { "landscape" } else { "portrait" };
            let (n, columns, rows) = (grid.per_page(), grid.columns, grid.rows);
            Some(format!("{}x{} mm cards {n} a page ({columns} × {rows}, {orientation})", size.w, size.h))
        })
        .collect();
    (!layouts.is_empty()).then(|| format!("sheets: {}", layouts.join("; ")))
}

fn options(args: &Args, settings: &PrintSettings) -> Result<Options> {
    let paper_name = args.paper.clone().or_else(|| settings.paper.clone()).unwrap_or_else(|| "a4".into());
    let paper = paper(&paper_name)?;
    let card_name = args.card.clone().or_else(|| settings.card.clone()).unwrap_or_else(|| "poker".into());
    let card = cardsmith::card_size::card_size(&card_name).map_err(|error| match error {
        cardsmith::card_size::CardSizeError::Unknown => miette!(
            help = "use poker, bridge, tarot, mini, or WxH in millimetres such as 63.5x88.9",
            "unknown card size `{card_name}`"
        ),
        cardsmith::card_size::CardSizeError::OutOfRange { w, h } => miette!(
            help = "write WxH in millimetres, such as 63.5x88.9",
            "a card of {w} x {h} mm cannot be printed: each side must be {} to {} mm",
            cardsmith::card_size::CARD_SIDE_MM.start(),
            cardsmith::card_size::CARD_SIDE_MM.end()
        ),
    })?;
    let bleed = args.bleed.or(settings.bleed.map(|b| b as f32)).unwrap_or(0.0);
    if !(0.0..=10.0).contains(&bleed) {
        return Err(miette!(help = "3 mm is usual", "a bleed of {bleed} mm is out of range (0 to 10)"));
    }
    let dpi = args.dpi.or(settings.dpi).unwrap_or(300);
    if !(36..=1200).contains(&dpi) {
        return Err(miette!(help = "300 is usual", "a resolution of {dpi} dpi is out of range (36 to 1200)"));
    }
    let names =
        if !args.format.is_empty() { args.format.clone() } else { settings.formats.clone().unwrap_or_default() };
    let formats = if names.is_empty() { Formats::ALL } else { parse_formats(&names)? };
    let margin = args.margin.or(settings.margin.map(|m| m as f32)).unwrap_or(sheet::MARGIN);
    if !sheet::MARGIN_MM.contains(&margin) {
        return Err(miette!(
            help = "5 mm suits most printers",
            "a margin of {margin} mm is out of range ({} to {})",
            sheet::MARGIN_MM.start(),
            sheet::MARGIN_MM.end()
        ));
    }
    let mut options = Options { card, paper, bleed, margin, dpi, formats, ..Options::default() };
    options.kind_sizes = settings.sizes.iter().map(|s| (s.kind.clone(), sheet::Size { w: s.w, h: s.h })).collect();
    backs_options(args, settings, &mut options)?;
    tts_options(args, settings, &mut options)?;
    options.deck = args.deck.clone().or_else(|| settings.deck.clone());
    options.copies_on_face = args.copies_on_face;
    options.min_text = args.min_text.or(settings.min_text.map(|m| m as f32)).unwrap_or(MIN_TEXT);
    if !(1.0..=72.0).contains(&options.min_text) {
        return Err(miette!(
            help = "6 pt is usual",
            "a minimum type size of {} pt is out of range (1 to 72)",
            options.min_text
        ));
    }
    if options.grid().is_none() {
        return Err(miette!(
            help = "choose larger paper, a smaller card, less bleed or a smaller margin",
            "a {card_name} card with {bleed} mm bleed and cut marks does not fit inside {paper_name} paper's {margin} mm margins"
        ));
    }
    Ok(options)
}

/// The `file:///` address of a folder: its absolute path with `/` between
/// its parts and every byte but letters, digits and `-._~/:` percent-encoded.
fn file_url(folder: &Path) -> String {
    use std::fmt::Write;
    let bytes = folder.as_os_str().as_encoded_bytes();
    // `C:\cards` is `file:///C:/cards`.
    let mut url = String::from(if bytes.first() == Some(&b'/') { "file://" } else { "file:///" });
    for &byte in bytes {
        match byte {
            b'\\' if cfg!(windows) => url.push('/'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => url.push(byte as char),
            _ => {
                let _ = write!(url, "%{byte:02X}");
            }
        }
    }
    url
}

/// The paper named on the command line or in `[print] paper`.
fn paper(name: &str) -> Result<sheet::Size> {
    sheet::paper_size(name).map_err(|error| match error {
        sheet::PaperError::Unknown => {
            miette!(help = "use a4, letter, a3, legal, or WxH in millimetres such as 297x210", "unknown paper `{name}`")
        }
        sheet::PaperError::OutOfRange { w, h } => miette!(
            help = "write WxH in millimetres, such as 210x297 for A4",
            "paper of {w} x {h} mm cannot be printed on: each side must be {} to {} mm",
            sheet::PAPER_SIDE_MM.start(),
            sheet::PAPER_SIDE_MM.end()
        ),
    })
}

/// A `[print.sizes]` key that names no kind of the printed games would
/// silently do nothing: it is refused, with the kinds there are.
fn refuse_unknown_size_kinds(options: &Options, project: &cardsmith::ir::Project) -> Result<()> {
    let kinds: Vec<&str> = project.games.iter().flat_map(|g| g.ruleset.kinds.iter().map(|k| k.id.as_str())).collect();
    let given = options.kind_sizes.iter().map(|(kind, _)| kind.as_str());
    refuse_unknown_keys("[print.sizes]", "a size", "kind", given, &kinds)
}

/// A `[print.deck-backs]` key that names no deck of the printed games would
/// silently do nothing: it is refused, with the decks there are.
fn refuse_unknown_back_decks(settings: &PrintSettings, project: &cardsmith::ir::Project) -> Result<()> {
    let decks: Vec<&str> = project.games.iter().flat_map(|g| g.decks.iter().map(|d| d.name.as_str())).collect();
    let given = settings.deck_backs.iter().map(|(deck, _, _)| deck.as_str());
    refuse_unknown_keys("[print.deck-backs]", "a picture", "deck", given, &decks)
}

/// The first key of `table` that is none of `known`, refused with a
/// did-you-mean and the names there are.
fn refuse_unknown_keys<'k>(
    table: &str,
    gives: &str,
    what: &str,
    mut given: impl Iterator<Item = &'k str>,
    known: &[&str],
) -> Result<()> {
    let Some(key) = given.find(|key| !known.contains(key)) else { return Ok(()) };
    let suggestion = cardsmith::check::suggest(key, known.iter().copied());
    let hint = suggestion.map_or(String::new(), |s| format!("did you mean `{s}`? "));
    Err(miette!(
        help = format!("{hint}the {what}s are: {}", known.join(", ")),
        "`{table}` gives `{key}` {gives}, but no printed game has a {what} `{key}`"
    ))
}

/// Backs, duplex, the printer's offset and the calibration sheet.
fn backs_options(args: &Args, settings: &PrintSettings, options: &mut Options) -> Result<()> {
    let duplex_name = args.duplex.clone().or_else(|| settings.duplex.clone());
    if let Some(name) = &duplex_name {
        options.duplex =
            sheet::Duplex::parse(name).ok_or_else(|| miette!(help = "use long or short", "unknown duplex `{name}`"))?;
    }
    let offset = match &args.offset {
        Some(text) => parse_offset(text)?,
        None => settings.offset.map_or((0.0, 0.0), |(x, y)| (x as f32, y as f32)),
    };
    if offset.0.abs() > MAX_OFFSET || offset.1.abs() > MAX_OFFSET || !offset.0.is_finite() || !offset.1.is_finite() {
        return Err(miette!(
            help = "print --calibration to measure it; printers are off by a millimetre or two",
            "an offset of {},{} mm is out of range (-{MAX_OFFSET} to {MAX_OFFSET} each)",
            offset.0,
            offset.1
        ));
    }
    options.offset = offset;
    options.backs = args.backs || settings.backs.unwrap_or(false) || duplex_name.is_some();
    options.calibration = args.calibration || settings.calibration.unwrap_or(false);
    options.backs_named = args.backs_named || settings.backs_named.unwrap_or(false);
    Ok(())
}

/// The widest face a Tabletop Simulator sheet may ask for, in pixels.
const MAX_TTS_WIDTH: u32 = 2048;

/// Where the Tabletop Simulator images are hosted and how wide a face is.
fn tts_options(args: &Args, settings: &PrintSettings, options: &mut Options) -> Result<()> {
    options.base_url = args.base_url.clone().or_else(|| settings.base_url.clone());
    if let Some(url) = &options.base_url {
        let known = ["http://", "https://", "file://"].iter().any(|scheme| url.starts_with(scheme));
        if !known || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(miette!(
                help = "write the address the images will be at, such as https://example.org/cards",
                "`{url}` is not an http, https or file address"
            ));
        }
    }
    options.tts_width = args.tts_width.or(settings.tts_width);
    if let Some(width) = options.tts_width.filter(|w| !(64..=MAX_TTS_WIDTH).contains(w)) {
        return Err(miette!(
            help = "Tabletop Simulator sheets are at most 4096 pixels a side; 409 fills a 10 × 7 sheet",
            "a face {width} pixels wide is out of range (64 to {MAX_TTS_WIDTH})"
        ));
    }
    Ok(())
}

/// The largest printer offset taken, in millimetres each way.
const MAX_OFFSET: f32 = 10.0;

/// `X,Y` in millimetres: `0.5,-1`.
fn parse_offset(text: &str) -> Result<(f32, f32)> {
    let parsed = text.split_once(',').and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)));
    parsed.ok_or_else(|| miette!(help = "write X,Y in millimetres, such as 0.5,-1", "`{text}` is not an offset"))
}

fn parse_formats(names: &[String]) -> Result<Formats> {
    let mut formats = Formats::NONE;
    for name in names {
        match name.trim().to_ascii_lowercase().as_str() {
            "pdf" => formats.pdf = true,
            "png" => formats.png = true,
            "html" => formats.html = true,
            "tts" => formats.tts = true,
            "shop" => formats.shop = true,
            "all" => formats = Formats { shop: formats.shop, ..Formats::ALL },
            other => return Err(miette!(help = "use pdf, png, html, tts, shop or all", "unknown format `{other}`")),
        }
    }
    Ok(formats)
}

/// Reads each image the cards name, and the backs' pictures, confined to
/// the project `folder`.
fn read_art(folder: &Path, outcome: &Outcome, backs: &[&str]) -> Vec<(String, print::art::Source)> {
    let mut names = print::art::wanted(&outcome.project);
    for back in backs {
        if !names.iter().any(|name| name == back) {
            names.push(back.to_string());
        }
    }
    names.into_iter().map(|name| (name.clone(), read_inside(folder, &name, &read::IMAGE))).collect()
}

/// The fonts of a print, by their paths in the project, each with where the
/// manifest names it: those `[print] fonts` names, then the font files in
/// `templates/<game>/` of each game printed (a game's own fonts, which no
/// line names).
fn font_names(root: Option<&Path>, outcome: &Outcome, settings: &PrintSettings) -> Vec<(String, Option<Span>)> {
    let mut names: Vec<(String, Option<Span>)> =
        settings.fonts.iter().flatten().map(|(name, span)| (name.clone(), Some(*span))).collect();
    let Some(root) = root else { return names };
    for game in &outcome.project.games {
        let folder = format!("{TEMPLATES}/{}", game.ruleset.id);
        let Ok(entries) = std::fs::read_dir(root.join(&folder)) else { continue };
        let mut files: Vec<String> = entries
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.to_ascii_lowercase().ends_with(".ttf") || n.to_ascii_lowercase().ends_with(".otf"))
            .collect();
        files.sort();
        names.extend(files.into_iter().map(|file| (format!("{folder}/{file}"), None)));
    }
    names
}

/// Reads the fonts named, confined to the project `folder`.  A font that
/// cannot be read, lies outside the project or is not a font is an E0714
/// error at the manifest's entry, or at the file itself for a game's own
/// font; `files` gains the file the error points into.
fn read_fonts(
    folder: &Path,
    names: &[(String, Option<Span>)],
    manifest_source: Option<&ManifestSource>,
    files: &mut Files,
) -> (Vec<print::fonts::ProjectFont>, Vec<Diagnostic>) {
    use print::art::Source;
    let mut fonts = Vec::new();
    let mut problems = Vec::new();
    // The manifest's spans point into a table of its own: it joins the
    // run's files once, the first time a font it names is refused.
    let mut manifest: Option<FileId> = None;
    for (name, named_at) in names {
        let why = match read_inside(folder, name, &read::FONT) {
            Source::Bytes(bytes) => match print::fonts::ProjectFont::new(bytes) {
                Ok(font) => {
                    fonts.push(font);
                    continue;
                }
                Err(why) => why.to_string(),
            },
            Source::Missing(why) | Source::Unreadable(why) | Source::Outside(why) | Source::TooLarge(why) => why,
        };
        let span = match named_at {
            Some(span) => {
                // The text the settings were read from, not the file again:
                // it may have changed since, and the span with it.
                let id = *manifest.get_or_insert_with(|| match manifest_source {
                    Some(source) => files.add(&source.name, source.text.as_str()),
                    None => files.add(cardsmith::config::FILE_NAME, ""),
                });
                Span::new(id, span.start as usize, span.end as usize)
            }
            None => Span::new(files.add(super::project::display_name(&folder.join(name)), ""), 0, 0),
        };
        problems.push(
            Diagnostic::error(&print::codes::FONT_UNUSABLE, format!("cannot use the font `{name}`"))
                .primary(span, why)
                .help("fonts are TrueType or OpenType files inside the project, named in [print] fonts or put in templates/<game>/"),
        );
    }
    (fonts, problems)
}

/// Reads the file `name` names from the project `folder`, refusing unread
/// an absolute path, a path through `..`, a link leading out of the
/// project and a file past `limit`.
fn read_inside(folder: &Path, name: &str, limit: &read::Limit) -> print::art::Source {
    use print::art::Source;
    let relative = Path::new(name);
    let leaves =
        relative.components().any(|c| !matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir));
    if leaves || name.is_empty() {
        return Source::Outside(format!("`{name}` is not a path inside the project (no absolute paths, no `..`)"));
    }
    let inside = folder.canonicalize().unwrap_or_else(|_| folder.to_path_buf());
    let path = folder.join(relative);
    let real = match path.canonicalize() {
        Ok(real) => real,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Source::Missing(format!("cannot open {}: {e}", path.display()))
        }
        Err(e) => return Source::Unreadable(format!("cannot open {}: {e}", path.display())),
    };
    if !real.starts_with(&inside) {
        return Source::Outside(format!("{} is a link that leads outside the project", path.display()));
    }
    if std::fs::metadata(&real).is_ok_and(|m| m.is_file() && m.len() > limit.bytes) {
        return Source::TooLarge(format!("{} is larger than {} MiB", path.display(), limit.bytes >> 20));
    }
    match read::bytes(&real, limit) {
        Ok(bytes) => Source::Bytes(bytes),
        Err(report) => Source::Unreadable(report.to_string()),
    }
}

/// The project's own templates: `templates/<ruleset>/*.svg` for each game
/// in use, and `templates/common/*.svg`.
fn read_overrides(root: &Path, outcome: &Outcome) -> Result<Vec<(String, String)>> {
    let mut folders: Vec<String> = outcome.project.games.iter().map(|g| g.ruleset.id.clone()).collect();
    folders.push("common".into());
    let mut found = Vec::new();
    for folder in folders {
        let dir = root.join(TEMPLATES).join(&folder);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            // Folders are passed over, and dangling links as when collecting cards.
            if path.extension().and_then(|e| e.to_str()) != Some("svg") || path.is_dir() || !path.exists() {
                continue;
            }
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
            found.push((format!("{folder}/{name}"), read_template(root, &format!("{TEMPLATES}/{folder}/{name}"))?));
        }
    }
    Ok(found)
}

/// A template of the project, confined to it like art and fonts: one that
/// is (or lies in a folder that is) a link leading out is refused unread.
fn read_template(root: &Path, name: &str) -> Result<String> {
    use print::art::Source;
    match read_inside(root, name, &read::TEMPLATE) {
        Source::Bytes(bytes) => read::utf8(Path::new(name), bytes),
        Source::Outside(why) => Err(miette!(
            help = "a project's templates are read from its own templates/ folder: copy the file into the project instead of linking to it",
            "cannot use the template {name}: {why}"
        )),
        Source::TooLarge(_) => Err(read::too_large(&root.join(name), &read::TEMPLATE)),
        Source::Missing(why) | Source::Unreadable(why) => Err(miette!(help = read::TEMPLATE.help, "{why}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_file_addresses_with_odd_bytes_encoded() {
        assert_eq!(file_url(Path::new("/home/me/print/tts")), "file:///home/me/print/tts");
        assert_eq!(file_url(Path::new("/home/me/My Cards/tts")), "file:///home/me/My%20Cards/tts");
        assert_eq!(file_url(Path::new("/tmp/ça#1/tts")), "file:///tmp/%C3%A7a%231/tts");
    }

    /// The manifest is read once, by `Project::find`: a font problem points
    /// into that text even when the file on disk has changed (here: is gone).
    #[test]
    fn a_font_problem_points_into_the_manifest_as_it_was_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let text = "[project]\n[print]\nfonts = [\"missing.ttf\"]\n";
        let source = ManifestSource { name: "cardsmith.toml".into(), text: text.into() };
        let entry = text.find("\"missing").expect("entry");
        let span = Span::new(FileId(0), entry, entry + "\"missing.ttf\"".len());
        let mut files = Files::new();
        let names = [("missing.ttf".to_string(), Some(span))];
        let (fonts, problems) = read_fonts(dir.path(), &names, Some(&source), &mut files);
        assert!(fonts.is_empty());
        let [problem] = problems.as_slice() else { panic!("one problem: {problems:?}") };
        let at = problem.primary_span().expect("a span");
        let file = files.get(at.file);
        assert_eq!(file.name, "cardsmith.toml");
        assert_eq!(&file.text[at.range()], "\"missing.ttf\"");
        assert_eq!(file.line_column(at.start as usize), (3, 10));
    }
}
