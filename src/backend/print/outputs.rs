//! The outputs of a prepared job: faces parsed once with usvg, then the PDF
//! sheets, the print-shop PDF, PNG faces, Tabletop Simulator sheets and the
//! HTML preview.

use super::codes;
use super::job::{Blob, DeckCopies, Job, Options};
use super::sheet::{Grid, Size};
use super::{art, calibration, checklist, html, pdf, png, svg, tts};
use crate::diagnostics::Diagnostic;
use crate::parallel::map as parallel;
use resvg::usvg::Tree;
use std::collections::HashMap;
use std::sync::Arc;

/// Why a job's outputs could not be built.
#[derive(Debug)]
pub enum RenderError {
    /// Faces a template drew that are not valid SVG, each at its card.
    Faces(Vec<Diagnostic>),
    /// An output could not be made (an image too large, a PDF that failed).
    Output(String),
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::Faces(diagnostics) => {
                let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
                write!(f, "{}", messages.join("; "))
            }
            RenderError::Output(message) => write!(f, "{message}"),
        }
    }
}

impl From<String> for RenderError {
    fn from(message: String) -> RenderError {
        RenderError::Output(message)
    }
}

/// How many progress steps [`render`] reports.
pub fn steps(job: &Job, options: &Options) -> usize {
    let f = options.formats;
    job.faces.len() * (1 + usize::from(f.png) + usize::from(f.tts)) + usize::from(f.pdf || f.shop) + usize::from(f.html)
}

/// Builds the outputs of a prepared job.  `tick` is called as work is done,
/// [`steps`] times in all.  Cards of each size go on sheets of their own: a
/// PDF section with its own grid, and Tabletop Simulator decks of one face
/// size.
pub fn render(job: &Job, options: &Options, tick: &(dyn Fn() + Sync)) -> Result<Vec<Blob>, RenderError> {
    let groups = group_by_game_and_size(job);
    let mut grids: Vec<(Size, Grid)> = Vec::new();
    for size in groups.iter().map(|g| g.size).chain(job.faces.is_empty().then_some(options.card)) {
        if !grids.iter().any(|(s, _)| *s == size) {
            let grid = options.grid_for(size).ok_or_else(|| {
                format!("a {} x {} mm card does not fit on the paper with its bleed and margins", size.w, size.h)
            })?;
            grids.push((size, grid));
            if options.formats.png {
                refuse_images_too_large(size, options)?;
            }
        }
    }
    let parsed = Parsed::new(job, tick)?;
    let calibration = calibration_sides(options)?;
    let f = options.formats;
    let games = games_in_order(&groups);
    let base_of = |game: &str| if games.len() == 1 { job.title.clone() } else { game.to_string() };
    let drawn = Drawn { job, parsed: &parsed, options, tick };
    std::thread::scope(|scope| {
        // krilla writes one document at a time: the PDFs are written on a
        // thread of their own while the images take every core.
        let sheets =
            (f.pdf || f.shop).then(|| scope.spawn(|| pdf_files(&drawn, &groups, &grids, calibration.as_ref())));
        let mut images = Vec::new();
        for group in &groups {
            if f.png {
                images.extend(face_pngs(&drawn, group.game, &group.faces)?);
            }
            if f.tts {
                let mixed = groups.iter().filter(|g| g.game == group.game).count() > 1;
                let base = sized(base_of(group.game), group.size, mixed);
                let copies = copies_of(job, group);
                let deck = TtsDeck { title: &base, files: &base, faces: &group.faces, copies: &copies };
                images.extend(tts_sheets(&drawn, &deck, tick)?);
                for deck in job.decks.iter().filter(|d| d.game == group.game) {
                    images.extend(deck_sheets(&drawn, deck, group.size)?);
                }
            }
        }
        images.extend(games.iter().filter(|_| f.png).filter_map(|game| copies_list(job, game, options)));
        let mut blobs = match sheets.map(|thread| thread.join()) {
            Some(Ok(sheets)) => sheets?,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => Vec::new(),
        };
        blobs.extend(images);
        if f.html {
            blobs.push(preview(job, &parsed));
            tick();
        }
        Ok(blobs)
    })
}

/// Each game's PDFs: its sheets (`pdf`), then its print-shop file of one
/// card a page (`shop`, `GAME-shop.pdf`).  One progress step in all.
fn pdf_files(
    drawn: &Drawn,
    groups: &[Group],
    grids: &[(Size, Grid)],
    calibration: Option<&[Arc<Tree>; 2]>,
) -> Result<Vec<Blob>, String> {
    let Drawn { job, parsed, options, tick } = *drawn;
    let games = games_in_order(groups);
    let base_of = |game: &str| if games.len() == 1 { job.title.clone() } else { game.to_string() };
    let placed = |group: &Group| -> Vec<pdf::Placed> {
        let copies = copies_of(job, group);
        copies.iter().map(|i| pdf::Placed { front: &parsed.fronts[*i], back: parsed.back_of(*i) }).collect()
    };
    let mut blobs = Vec::new();
    for game in &games {
        let of_game: Vec<&Group> = groups.iter().filter(|g| g.game == *game).collect();
        if options.formats.pdf {
            let mut sections = Vec::new();
            for group in &of_game {
                let grid = grids.iter().find(|(s, _)| *s == group.size).map(|(_, g)| g.clone());
                sections.push(pdf::Section { cards: placed(group), grid: grid.ok_or("a card size has no grid")? });
            }
            let backs = options.backs.then_some(pdf::Backs { duplex: options.duplex, offset: options.offset });
            let calibration = calibration.map(|[front, back]| [&**front, &**back]);
            let checklist = checklist_pages(job, game, &base_of(game), options)?;
            let extra = pdf::Extra { calibration, checklist: checklist.iter().map(|t| &**t).collect() };
            let bytes = pdf::write(&sections, backs, &extra)?;
            blobs.push(Blob { name: format!("{}.pdf", base_of(game)), bytes });
        }
        if options.formats.shop {
            let cards: Vec<(pdf::Placed, Size)> =
                of_game.iter().flat_map(|g| placed(g).into_iter().map(|card| (card, g.size))).collect();
            let bytes = pdf::write_cards(&cards, options.bleed, options.backs)?;
            blobs.push(Blob { name: format!("{}-shop.pdf", base_of(game)), bytes });
        }
    }
    tick();
    Ok(blobs)
}

/// The printed copies of a group's faces, in the job's order.
fn copies_of(job: &Job, group: &Group) -> Vec<usize> {
    job.copies.iter().copied().filter(|i| group.faces.contains(i)).collect()
}

/// A name made distinct by the size of its cards when its game prints more
/// than one size: `dropfleet-70x120`.
fn sized(name: String, size: Size, mixed: bool) -> String {
    if mixed {
        format!("{name}-{}x{}", size.w, size.h)
    } else {
        name
    }
}

/// The calibration sheet's two sides, parsed, when asked for.
fn calibration_sides(options: &Options) -> Result<Option<[Arc<Tree>; 2]>, String> {
    if !(options.calibration && options.formats.pdf) {
        return Ok(None);
    }
    let usvg = svg::options();
    let [front, back] = calibration::sides(options.paper, options.margin, options.duplex, super::fonts::FAMILY);
    Ok(Some([svg::parse(&front, &usvg)?, svg::parse(&back, &usvg)?]))
}

/// The checklist pages of a game's PDF: each of its cards a deck lists,
/// with its copies, unless the faces show them (`copies_on_face`).
fn checklist_pages(job: &Job, game: &str, title: &str, options: &Options) -> Result<Vec<Arc<Tree>>, String> {
    if options.copies_on_face {
        return Ok(Vec::new());
    }
    let entries: Vec<(&str, i64)> =
        job.faces.iter().filter(|f| f.game == game).filter_map(|f| Some((f.name.as_str(), f.copies?))).collect();
    if entries.is_empty() {
        return Ok(Vec::new());
    }
    let usvg = svg::options();
    let pages = checklist::pages(title, &entries, options.paper, options.margin, super::fonts::FAMILY);
    pages.iter().map(|page| svg::parse(page, &usvg)).collect()
}

/// Every distinct face parsed once by usvg: each card's front, and each
/// back once however many cards share it.
struct Parsed {
    fronts: Vec<Arc<Tree>>,
    backs: Vec<Arc<Tree>>,
    /// For each face of the job, the index of its back in `backs`.
    back_index: Vec<usize>,
    /// For each back, how many faces show it.
    back_users: Vec<usize>,
}

impl Parsed {
    fn new(job: &Job, tick: &(dyn Fn() + Sync)) -> Result<Parsed, RenderError> {
        let usvg = art::with_art(svg::options_with(super::fonts::database_with(&job.fonts)), &job.art);
        let mut distinct: Vec<(&str, usize)> = Vec::new();
        let mut index_of: HashMap<&str, usize> = HashMap::new();
        let mut back_index = Vec::with_capacity(job.faces.len());
        for (i, face) in job.faces.iter().enumerate() {
            let index = *index_of.entry(face.back.as_str()).or_insert_with(|| {
                distinct.push((face.back.as_str(), i));
                distinct.len() - 1
            });
            back_index.push(index);
        }
        let mut back_users = vec![0; distinct.len()];
        for b in &back_index {
            back_users[*b] += 1;
        }
        let fronts = parallel(&job.faces, |face| {
            let tree = svg::parse(&face.front, &usvg);
            tick();
            tree
        });
        let backs = parallel(&distinct, |(text, _)| svg::parse(text, &usvg));
        let mut problems = Vec::new();
        let fronts = keep_valid(job, fronts.into_iter().enumerate(), "front", &mut problems);
        let backs = keep_valid(
            job,
            backs.into_iter().zip(distinct.iter().map(|(_, first)| *first)).map(|(r, i)| (i, r)),
            "back",
            &mut problems,
        );
        if !problems.is_empty() {
            return Err(RenderError::Faces(problems));
        }
        Ok(Parsed { fronts, backs, back_index, back_users })
    }

    fn back_of(&self, face: usize) -> &Tree {
        &self.backs[self.back_index[face]]
    }

    /// Whether the face has a back no other face shows (a System Card's
    /// reverse) rather than its game's common back.
    fn own_back(&self, face: usize) -> bool {
        self.back_users[self.back_index[face]] == 1
    }
}

/// The trees that parsed; a diagnostic at the card for each that did not.
/// `parsed` pairs each result with the index of the face it was drawn for.
fn keep_valid(
    job: &Job,
    parsed: impl Iterator<Item = (usize, Result<Arc<Tree>, String>)>,
    side: &str,
    problems: &mut Vec<Diagnostic>,
) -> Vec<Arc<Tree>> {
    let mut trees = Vec::new();
    for (i, result) in parsed {
        match result {
            Ok(tree) => trees.push(tree),
            Err(message) => {
                let face = &job.faces[i];
                problems.push(
                    Diagnostic::error(
                        &codes::BAD_FACE,
                        format!("the {side} drawn for `{}` is not valid SVG", face.name),
                    )
                    .primary(face.span, "while drawing this card")
                    .note(message)
                    .help("the template that draws this kind of card writes broken SVG: fix or remove it"),
                );
            }
        }
    }
    trees
}

/// The faces of one game printed at one size.
struct Group<'a> {
    game: &'a str,
    size: Size,
    faces: Vec<usize>,
}

/// Games in order of first appearance, each split by card size in order of
/// first appearance, with the indexes of their faces.
fn group_by_game_and_size(job: &Job) -> Vec<Group<'_>> {
    let mut groups: Vec<Group> = Vec::new();
    for (index, face) in job.faces.iter().enumerate() {
        match groups.iter_mut().find(|g| g.game == face.game && g.size == face.size) {
            Some(group) => group.faces.push(index),
            None => groups.push(Group { game: &face.game, size: face.size, faces: vec![index] }),
        }
    }
    // A game's groups sit together, in the order its first face was drawn.
    let games = games_in_order(&groups);
    groups.sort_by_key(|g| games.iter().position(|game| *game == g.game));
    groups
}

/// The games of `groups`, each once, in order of first appearance.
fn games_in_order<'a>(groups: &[Group<'a>]) -> Vec<&'a str> {
    let mut games: Vec<&str> = Vec::new();
    for group in groups {
        if !games.contains(&group.game) {
            games.push(group.game);
        }
    }
    games
}

/// The parsed faces of a job, shared by the image outputs.
struct Drawn<'a> {
    job: &'a Job,
    parsed: &'a Parsed,
    options: &'a Options,
    tick: &'a (dyn Fn() + Sync),
}

/// Refuses, before anything is drawn, a PNG of a face past the pixels an
/// image may have ([`svg::MAX_PIXELS`], as for a card's art): each
/// thread drawing faces holds one such image, four bytes a pixel.
fn refuse_images_too_large(size: Size, options: &Options) -> Result<(), String> {
    let (w, h) = (size.w + 2.0 * options.bleed, size.h + 2.0 * options.bleed);
    let pixels = u64::from(png::pixels(w, options.dpi)) * u64::from(png::pixels(h, options.dpi));
    if pixels <= svg::MAX_PIXELS {
        return Ok(());
    }
    let most_dpi = (options.dpi as f64 * (svg::MAX_PIXELS as f64 / pixels as f64).sqrt()).floor() - 1.0;
    Err(format!(
        "a {w} x {h} mm face at {} dpi is an image of {} million pixels, past the {} million a PNG may have: print PNGs at {most_dpi} dpi or less (`--dpi`), or leave them out (`--format pdf`)",
        options.dpi,
        pixels / 1_000_000,
        svg::MAX_PIXELS / 1_000_000
    ))
}

/// Beside a game's PNG faces, when they do not show the copies their deck
/// holds, the list of them: `png/GAME/copies.csv`, a line per face a deck
/// lists (`file,card,copies`), for a print service that takes a quantity
/// per image.
fn copies_list(job: &Job, game: &str, options: &Options) -> Option<Blob> {
    if options.copies_on_face {
        return None;
    }
    let mut csv = String::from("file,card,copies\n");
    for face in job.faces.iter().filter(|f| f.game == game) {
        if let Some(copies) = face.copies {
            csv.push_str(&format!("{}.png,\"{}\",{copies}\n", face.slug, face.name.replace('"', "\"\"")));
        }
    }
    (csv.lines().count() > 1).then(|| Blob { name: format!("png/{game}/copies.csv"), bytes: csv.into_bytes() })
}

/// One PNG per face at the chosen resolution, with its bleed around it: the
/// files a print-on-demand service takes.  (The Tabletop Simulator sheets
/// and the preview show the trimmed card.)
fn face_pngs(drawn: &Drawn, game: &str, indexes: &[usize]) -> Result<Vec<Blob>, String> {
    let Drawn { job, parsed, options, tick, .. } = *drawn;
    let (bleed, dpi) = (options.bleed, options.dpi);
    // Every face of a group has the group's size.
    let Some(card) = indexes.first().map(|i| job.faces[*i].size) else { return Ok(Vec::new()) };
    let (w, h) = (png::pixels(card.w + 2.0 * bleed, dpi), png::pixels(card.h + 2.0 * bleed, dpi));
    let mut users: HashMap<usize, usize> = HashMap::new();
    for i in indexes {
        *users.entry(parsed.back_index[*i]).or_default() += 1;
    }
    // A back used by one card is named after it; shared backs are numbered.
    let mut shared: Vec<usize> = users.iter().filter(|(_, n)| **n > 1).map(|(b, _)| *b).collect();
    shared.sort_unstable();
    // Each image with whether it is a front (fronts are the progress steps).
    let mut images: Vec<(String, &Tree, bool)> = Vec::new();
    let mut done_backs: Vec<usize> = Vec::new();
    for i in indexes {
        let face = &job.faces[*i];
        images.push((format!("png/{game}/{}.png", face.slug), &parsed.fronts[*i], true));
        let back = parsed.back_index[*i];
        if done_backs.contains(&back) {
            continue;
        }
        done_backs.push(back);
        let name = match shared.iter().position(|b| *b == back) {
            None => format!("png/{game}/{}-back.png", face.slug),
            Some(0) if shared.len() == 1 => format!("png/{game}/back.png"),
            Some(n) => format!("png/{game}/back-{}.png", n + 1),
        };
        images.push((name, &parsed.backs[back], false));
    }
    let rendered = parallel(&images, |(name, tree, front)| {
        let bytes = png::render_png(tree, png::Trim::NONE, w, h, dpi);
        if *front {
            tick();
        }
        bytes.map(|bytes| Blob { name: name.clone(), bytes })
    });
    rendered.into_iter().collect()
}

/// What goes into one Tabletop Simulator deck: its title, the file name
/// its images start with, its distinct faces and its copies (indexes into
/// the job's faces).
struct TtsDeck<'a> {
    title: &'a str,
    files: &'a str,
    faces: &'a [usize],
    copies: &'a [usize],
}

/// A deck of the project as a Tabletop Simulator deck of its own, in
/// `tts/decks/`.  Its sheets are not progress steps.
/// A deck holding cards of several sizes is one deck per size, its size in
/// its name; the part of a deck at `size` is empty when none of its cards
/// has that size.
fn deck_sheets(drawn: &Drawn, deck: &DeckCopies, size: Size) -> Result<Vec<Blob>, String> {
    let faces_of = &drawn.job.faces;
    let copies: Vec<usize> = deck.copies.iter().copied().filter(|i| faces_of[*i].size == size).collect();
    if copies.is_empty() {
        return Ok(Vec::new());
    }
    let mixed = copies.len() < deck.copies.len();
    let mut faces: Vec<usize> = copies.clone();
    faces.sort_unstable();
    faces.dedup();
    let title = sized(deck.name.clone(), size, mixed);
    let files = sized(format!("decks/{}", super::job::slug(&deck.name)), size, mixed);
    let tts = TtsDeck { title: &title, files: &files, faces: &faces, copies: &copies };
    tts_sheets(drawn, &tts, &|| {})
}

/// Tabletop Simulator sheets of fronts; where a sheet holds a card with a
/// back of its own, a sheet of backs in the same layout beside it.
fn tts_sheets(drawn: &Drawn, deck: &TtsDeck, tick: &(dyn Fn() + Sync)) -> Result<Vec<Blob>, String> {
    let Drawn { job, parsed, options, .. } = *drawn;
    let TtsDeck { title, files: base, faces: indexes, copies } = *deck;
    // A deck's faces share one size (Tabletop Simulator takes one face size
    // per sheet).
    let card = indexes.first().map_or(options.card, |i| job.faces[*i].size);
    let trim = png::Trim::new(card.w, card.h, options.bleed);
    let dpi = options.dpi.min(300);
    let max_w = options.tts_width.unwrap_or_else(|| png::pixels(card.w, dpi));
    // The back most cards share.
    let mut counts: HashMap<usize, usize> = HashMap::new();
    for i in indexes {
        *counts.entry(parsed.back_index[*i]).or_default() += 1;
    }
    let common = counts.iter().max_by_key(|(b, n)| (**n, std::cmp::Reverse(**b))).map(|(b, _)| *b).unwrap_or(0);
    let mut blobs = Vec::new();
    let mut sheets = Vec::new();
    let mut slot_of: HashMap<usize, (usize, usize)> = HashMap::new();
    for (sheet_index, part) in indexes.chunks(tts::PER_SHEET).enumerate() {
        let sheet = tts::Sheet::new(part.len(), card.w, card.h, max_w);
        let fronts: Vec<&Tree> = part.iter().map(|i| &*parsed.fronts[*i]).collect();
        let face = format!("{base}-{}.png", sheet_index + 1);
        blobs.push(Blob { name: format!("tts/{face}"), bytes: sheet_image(&fronts, &sheet, trim, dpi, tick)? });
        let back = if part.iter().all(|i| parsed.back_index[*i] == common) {
            None
        } else {
            let backs: Vec<&Tree> = part.iter().map(|i| parsed.back_of(*i)).collect();
            let name = format!("{base}-{}-backs.png", sheet_index + 1);
            blobs.push(Blob { name: format!("tts/{name}"), bytes: sheet_image(&backs, &sheet, trim, dpi, &|| {})? });
            Some(name)
        };
        for (slot, i) in part.iter().enumerate() {
            slot_of.insert(*i, (sheet_index, slot));
        }
        sheets.push(tts::SheetFiles { face, back, sheet });
    }
    if let Some(tree) = parsed.backs.get(common) {
        let (w, h) = sheets.first().map_or((max_w, max_w), |s| (s.sheet.face_w, s.sheet.face_h));
        let back = png::render(tree, trim, w, h)?;
        blobs.push(Blob { name: format!("tts/{base}-back.png"), bytes: png::encode(&back, dpi)? });
    }
    let cards: Vec<tts::DeckCard> = copies
        .iter()
        .filter_map(|i| {
            slot_of.get(i).map(|(sheet, slot)| tts::DeckCard { name: &job.faces[*i].name, sheet: *sheet, slot: *slot })
        })
        .collect();
    let back = format!("{base}-back.png");
    let object = tts::saved_object(title, (&cards, (card.w, card.h)), &sheets, &back, options.base_url.as_deref());
    let mut json = serde_json::to_vec_pretty(&object).map_err(|e| e.to_string())?;
    json.push(b'\n');
    blobs.push(Blob { name: format!("tts/{base}.json"), bytes: json });
    Ok(blobs)
}

/// One sheet image: `trees` drawn in the sheet's slots, row by row.
fn sheet_image(
    trees: &[&Tree],
    sheet: &tts::Sheet,
    trim: png::Trim,
    dpi: u32,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<u8>, String> {
    let cells = parallel(trees, |tree| {
        let cell = png::render(tree, trim, sheet.face_w, sheet.face_h);
        tick();
        cell
    });
    let (w, h) = (sheet.face_w * sheet.columns as u32, sheet.face_h * sheet.rows as u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).ok_or("the sheet is too large")?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    for (slot, cell) in cells.into_iter().enumerate() {
        let cell = cell?;
        let (x, y) = ((slot % sheet.columns) as u32 * sheet.face_w, (slot / sheet.columns) as u32 * sheet.face_h);
        pixmap.draw_pixmap(
            x as i32,
            y as i32,
            cell.as_ref(),
            &resvg::tiny_skia::PixmapPaint::default(),
            resvg::tiny_skia::Transform::identity(),
            None,
        );
    }
    png::encode(&pixmap, dpi)
}

fn preview(job: &Job, parsed: &Parsed) -> Blob {
    // The page holds everything itself: each face with its images inline.
    let inlined: Vec<(std::borrow::Cow<str>, std::borrow::Cow<str>)> =
        job.faces.iter().map(|face| (job.art.inline(&face.front), job.art.inline(&face.back))).collect();
    let entries: Vec<html::Entry> = job
        .faces
        .iter()
        .enumerate()
        .map(|(i, face)| html::Entry {
            name: &face.name,
            game: &face.game,
            kind: &face.kind,
            decks: &face.decks,
            fields: &face.fields,
            problems: &face.problems,
            front: &inlined[i].0,
            back: parsed.own_back(i).then_some(&*inlined[i].1),
            size_mm: (face.size.w, face.size.h),
        })
        .collect();
    let title = format!("{} — cardsmith preview", job.title);
    Blob { name: "preview.html".into(), bytes: html::page(&title, &entries, &job.fonts).into_bytes() }
}
