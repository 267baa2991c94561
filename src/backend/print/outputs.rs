//! The outputs of a prepared job: faces parsed once with usvg, then the PDF
//! sheets, PNG faces, Tabletop Simulator sheets and the HTML preview.

use super::job::{parallel, Blob, Job, Options};
use super::sheet::Grid;
use super::{html, pdf, png, svg, tts};
use resvg::usvg::Tree;
use std::collections::HashMap;
use std::sync::Arc;

/// How many progress steps [`render`] reports.
pub fn steps(job: &Job, options: &Options) -> usize {
    let f = options.formats;
    job.faces.len() * (1 + usize::from(f.png) + usize::from(f.tts)) + usize::from(f.pdf) + usize::from(f.html)
}

/// Builds the outputs of a prepared job.  `tick` is called as work is done,
/// [`steps`] times in all.
pub fn render(job: &Job, options: &Options, tick: &(dyn Fn() + Sync)) -> Result<Vec<Blob>, String> {
    let grid = Grid::new(options.paper, options.card, options.bleed)
        .ok_or("the card does not fit on the paper with its bleed")?;
    let usvg = svg::options();
    // Parse every distinct face once.
    let mut backs: Vec<&str> = Vec::new();
    let mut back_of: Vec<usize> = Vec::new();
    let mut back_index: HashMap<&str, usize> = HashMap::new();
    for face in &job.faces {
        let index = *back_index.entry(face.back.as_str()).or_insert_with(|| {
            backs.push(face.back.as_str());
            backs.len() - 1
        });
        back_of.push(index);
    }
    let parse = |text: &&str| svg::parse(text, &usvg);
    let fronts: Vec<Arc<Tree>> = collect_trees(
        job,
        parallel(&job.faces.iter().map(|f| f.front.as_str()).collect::<Vec<_>>(), |t| {
            let tree = parse(t);
            tick();
            tree
        }),
    )?;
    let back_trees: Vec<Arc<Tree>> = collect_trees(job, parallel(&backs, parse))?;
    let trim = png::Trim::new(options.card.w, options.card.h, options.bleed);
    let mut blobs = Vec::new();
    let f = options.formats;
    let by_game = group_by_game(job);
    let drawn = Drawn { job, fronts: &fronts, backs: &back_trees, back_of: &back_of, trim, options, tick };
    for (game, indexes) in &by_game {
        let base = if by_game.len() == 1 { job.title.clone() } else { game.to_string() };
        let copies: Vec<usize> = job.copies.iter().copied().filter(|i| job.faces[*i].game == *game).collect();
        if f.pdf {
            let placed: Vec<pdf::Placed> =
                copies.iter().map(|i| pdf::Placed { front: &fronts[*i], back: &back_trees[back_of[*i]] }).collect();
            blobs.push(Blob { name: format!("{base}.pdf"), bytes: pdf::write(&placed, &grid, options.backs)? });
        }
        if f.png {
            blobs.extend(face_pngs(&drawn, game, indexes)?);
        }
        if f.tts {
            blobs.extend(tts_sheets(&drawn, &base, indexes, &copies)?);
        }
    }
    if f.pdf {
        tick();
    }
    if f.html {
        blobs.push(preview(job, &back_of, options));
        tick();
    }
    Ok(blobs)
}

fn collect_trees(job: &Job, parsed: Vec<Result<Arc<Tree>, String>>) -> Result<Vec<Arc<Tree>>, String> {
    parsed
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.map_err(|e| {
                format!(
                    "a face of `{}` is not valid SVG: {e}",
                    job.faces.get(i).map(|f| f.name.as_str()).unwrap_or("?")
                )
            })
        })
        .collect()
}

/// Games in order of first appearance, with the indexes of their faces.
fn group_by_game(job: &Job) -> Vec<(&str, Vec<usize>)> {
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    for (index, face) in job.faces.iter().enumerate() {
        match groups.iter_mut().find(|(g, _)| *g == face.game) {
            Some((_, list)) => list.push(index),
            None => groups.push((&face.game, vec![index])),
        }
    }
    groups
}

/// The parsed faces of a job, shared by the image outputs.
struct Drawn<'a> {
    job: &'a Job,
    fronts: &'a [Arc<Tree>],
    backs: &'a [Arc<Tree>],
    /// For each face, the index of its back in `backs`.
    back_of: &'a [usize],
    trim: png::Trim,
    options: &'a Options,
    tick: &'a (dyn Fn() + Sync),
}

fn face_pngs(drawn: &Drawn, game: &str, indexes: &[usize]) -> Result<Vec<Blob>, String> {
    let Drawn { job, fronts, backs, back_of, trim, options, tick } = *drawn;
    let (w, h) = (png::pixels(options.card.w, options.dpi), png::pixels(options.card.h, options.dpi));
    let mut users: HashMap<usize, usize> = HashMap::new();
    for i in indexes {
        *users.entry(back_of[*i]).or_default() += 1;
    }
    // A back used by one card is named after it; shared backs are numbered.
    let mut shared: Vec<usize> = users.iter().filter(|(_, n)| **n > 1).map(|(b, _)| *b).collect();
    shared.sort_unstable();
    let mut jobs: Vec<(String, &Tree)> = Vec::new();
    let mut done_backs: Vec<usize> = Vec::new();
    for i in indexes {
        let face = &job.faces[*i];
        jobs.push((format!("png/{game}/{}.png", face.slug), &fronts[*i]));
        let back = back_of[*i];
        if done_backs.contains(&back) {
            continue;
        }
        done_backs.push(back);
        let name = match shared.iter().position(|b| *b == back) {
            None => format!("png/{game}/{}-back.png", face.slug),
            Some(0) if shared.len() == 1 => format!("png/{game}/back.png"),
            Some(n) => format!("png/{game}/back-{}.png", n + 1),
        };
        jobs.push((name, &backs[back]));
    }
    let rendered = parallel(&jobs, |(name, tree)| {
        let bytes = png::render(tree, trim, w, h).and_then(|p| png::encode(&p, options.dpi));
        if !name.ends_with("back.png") && !name.contains("/back-") {
            tick();
        }
        bytes.map(|bytes| Blob { name: name.clone(), bytes })
    });
    rendered.into_iter().collect()
}

fn tts_sheets(drawn: &Drawn, base: &str, indexes: &[usize], copies: &[usize]) -> Result<Vec<Blob>, String> {
    let Drawn { job, fronts, backs, back_of, trim, options, tick } = *drawn;
    let max_w = png::pixels(options.card.w, options.dpi.min(300));
    let mut blobs = Vec::new();
    let mut sheets = Vec::new();
    let mut slot_of: HashMap<usize, (usize, usize)> = HashMap::new();
    for (sheet_index, part) in indexes.chunks(tts::PER_SHEET).enumerate() {
        let sheet = tts::Sheet::new(part.len(), options.card.w, options.card.h, max_w);
        let cells = parallel(part, |i| {
            let cell = png::render(&fronts[*i], trim, sheet.face_w, sheet.face_h);
            tick();
            cell
        });
        let mut pixmap =
            resvg::tiny_skia::Pixmap::new(sheet.face_w * sheet.columns as u32, sheet.face_h * sheet.rows as u32)
                .ok_or("the sheet is too large")?;
        pixmap.fill(resvg::tiny_skia::Color::WHITE);
        for (slot, (i, cell)) in part.iter().zip(cells).enumerate() {
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
            slot_of.insert(*i, (sheet_index, slot));
        }
        let name = format!("tts/{base}-{}.png", sheet_index + 1);
        blobs.push(Blob { name: name.clone(), bytes: png::encode(&pixmap, options.dpi.min(300))? });
        sheets.push((name.trim_start_matches("tts/").to_string(), sheet));
    }
    // The back most cards share.
    let mut counts: HashMap<usize, usize> = HashMap::new();
    for i in indexes {
        *counts.entry(back_of[*i]).or_default() += 1;
    }
    let common = counts.iter().max_by_key(|(b, n)| (**n, std::cmp::Reverse(**b))).map(|(b, _)| *b).unwrap_or(0);
    if let Some(tree) = backs.get(common) {
        let (w, h) =
            (sheets.first().map(|s| s.1.face_w).unwrap_or(max_w), sheets.first().map(|s| s.1.face_h).unwrap_or(max_w));
        let back = png::render(tree, trim, w, h)?;
        blobs.push(Blob { name: format!("tts/{base}-back.png"), bytes: png::encode(&back, options.dpi.min(300))? });
    }
    let cards: Vec<tts::DeckCard> = copies
        .iter()
        .filter_map(|i| {
            slot_of.get(i).map(|(sheet, slot)| tts::DeckCard { name: &job.faces[*i].name, sheet: *sheet, slot: *slot })
        })
        .collect();
    let object = tts::saved_object(base, &cards, &sheets, &format!("{base}-back.png"));
    let mut json = serde_json::to_vec_pretty(&object).map_err(|e| e.to_string())?;
    json.push(b'\n');
    blobs.push(Blob { name: format!("tts/{base}.json"), bytes: json });
    Ok(blobs)
}

fn preview(job: &Job, back_of: &[usize], options: &Options) -> Blob {
    let mut counts: HashMap<usize, usize> = HashMap::new();
    for b in back_of {
        *counts.entry(*b).or_default() += 1;
    }
    let entries: Vec<html::Entry> = job
        .faces
        .iter()
        .enumerate()
        .map(|(i, face)| html::Entry {
            name: &face.name,
            game: &face.game,
            front: &face.front,
            back: (counts.get(&back_of[i]) == Some(&1)).then_some(face.back.as_str()),
        })
        .collect();
    let title = format!("{} — cardsmith preview", job.title);
    Blob {
        name: "preview.html".into(),
        bytes: html::page(&title, &entries, options.card.w, options.card.h).into_bytes(),
    }
}
