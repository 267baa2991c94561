//! A print job: which cards to print, and their faces drawn as SVG.

use super::art::{Art, Images};
use super::fonts::{self, ProjectFont};
use super::functions::{self, Frame};
use super::rich::Table;
use super::sheet::{pt, Duplex, Grid, Size};
use super::templates::Templates;
use super::view::Viewer;
use super::{codes, icons, svg};
use crate::diagnostics::Diagnostic;
use crate::ir::{Card, Game, Project};
use crate::parallel::map as parallel;
use crate::source::Span;
use serde::Serialize;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// What to print and how.
#[derive(Clone, Debug)]
pub struct Options {
    pub card: Size,
    pub paper: Size,
    /// Millimetres of artwork beyond the cut line on each side, on the PDF
    /// sheets and around every PNG face.
    pub bleed: f32,
    /// Millimetres at every paper edge where nothing is drawn, cut marks
    /// included.
    pub margin: f32,
    /// A backs page after every fronts page, laid out for `duplex`.
    pub backs: bool,
    /// How the printer turns the sheet between fronts and backs.
    pub duplex: Duplex,
    /// Millimetres every backs page is moved (x right, y down as seen on
    /// the back) to make up for the printer's misalignment.
    pub offset: (f32, f32),
    /// A calibration sheet before the cards in the PDF.
    pub calibration: bool,
    /// Resolution of the PNG faces.
    pub dpi: u32,
    pub formats: Formats,
    /// Where the Tabletop Simulator images will be hosted: the saved
    /// object's addresses are this followed by the file names.
    pub base_url: Option<String>,
    /// Pixels across one face on the Tabletop Simulator sheets (else from
    /// `dpi`, at most 300 dpi); the sheets' 4096-pixel limit still holds.
    pub tts_width: Option<u32>,
    /// Print one deck, with its copies, instead of every card once.
    pub deck: Option<String>,
    /// The smallest type size, in points, that text may shrink to without a
    /// warning.
    pub min_text: f32,
    /// Kinds the project prints at a size of their own (`[print.sizes]`),
    /// by the kind's id.
    pub kind_sizes: Vec<(String, Size)>,
    /// Templates see the copies a card's deck holds (`card.copies`) and
    /// print `×N` on the face; without it the PDF ends with a checklist of
    /// them instead.
    pub copies_on_face: bool,
    /// Backs show the deck's name (`backs_named` in templates); without
    /// it the bundled backs name no deck.
    pub backs_named: bool,
}

/// The minimum type size unless a project says otherwise, in points.
pub const MIN_TEXT: f32 = 6.0;

impl Default for Options {
    /// Poker cards on A4, no bleed, no backs, 300 dpi, every format.
    fn default() -> Options {
        Options {
            card: Size { w: 63.5, h: 88.9 },
            paper: Size { w: 210.0, h: 297.0 },
            bleed: 0.0,
            margin: super::sheet::MARGIN,
            backs: false,
            duplex: Duplex::Long,
            offset: (0.0, 0.0),
            calibration: false,
            dpi: 300,
            formats: Formats::ALL,
            base_url: None,
            tts_width: None,
            deck: None,
            min_text: MIN_TEXT,
            kind_sizes: Vec::new(),
            copies_on_face: false,
            backs_named: false,
        }
    }
}

impl Options {
    /// Where the cards go on the sheets; `None` when not one card fits.
    pub fn grid(&self) -> Option<Grid> {
        self.grid_for(self.card)
    }

    /// Where cards of one size go on the sheets; `None` when not one fits.
    pub fn grid_for(&self, card: Size) -> Option<Grid> {
        Grid::new(self.paper, card, self.bleed, self.margin)
    }

    /// The size a card is printed at: the project's size for its kind
    /// (`[print.sizes]`), else the ruleset's (`card-size`), else the job's
    /// `card`, which sizes every kind without one of its own.
    pub fn size_of(&self, game: &Game, card: &Card) -> Size {
        if let Some((_, size)) = self.kind_sizes.iter().find(|(kind, _)| card.kind == kind.as_str()) {
            return *size;
        }
        let kind = game.ruleset.kind_of(&card.kind);
        match kind.and_then(|k| k.card_size) {
            Some((w, h)) => Size { w, h },
            None => self.card,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formats {
    pub pdf: bool,
    pub png: bool,
    pub html: bool,
    pub tts: bool,
    /// One card a page at its size with its bleed, for a print shop.
    pub shop: bool,
}

impl Formats {
    /// What a print writes unless told: the sheets, the PNG faces, the
    /// preview and the Tabletop Simulator decks (not the print-shop PDF).
    pub const ALL: Formats = Formats { pdf: true, png: true, html: true, tts: true, shop: false };
    pub const NONE: Formats = Formats { pdf: false, png: false, html: false, tts: false, shop: false };
}

/// A file of the output: a path relative to the output folder, and bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blob {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// One distinct card, drawn.
#[derive(Clone, Debug)]
pub struct Face {
    pub game: String,
    pub name: String,
    /// `007-spinal-railcannon`: unique in its game, safe as a file name.
    pub slug: String,
    /// The card's kind, as the ruleset names it.
    pub kind: String,
    /// The trimmed size the face is drawn at: its kind's own, else the
    /// job's.
    pub size: Size,
    /// The decks that list the card.
    pub decks: Vec<String>,
    /// The copies its deck holds, when every card is printed once and a
    /// deck lists it.
    pub copies: Option<i64>,
    pub front: String,
    pub back: String,
    pub span: Span,
    /// The whole card in the source: the diagnostics inside it are the
    /// card's.
    pub extent: Span,
    /// Each field with a value, by its name in the source, and its values
    /// as printed.
    pub fields: Vec<(String, String)>,
    /// The diagnostics of the card, for the preview; the command line fills
    /// them in, as the job does not see the check's.
    pub problems: Vec<super::html::Problem>,
}

/// The faces of a job and the order in which copies are printed.
#[derive(Debug, Default)]
pub struct Job {
    pub faces: Vec<Face>,
    /// Indexes into `faces`, one per printed copy, grouped by game.
    pub copies: Vec<usize>,
    /// The name of the outputs: the deck's, else the game's.
    pub title: String,
    /// Each deck of the printed games with its copies (indexes into
    /// `faces`), when every card is printed; empty with `--deck`.
    pub decks: Vec<DeckCopies>,
    /// The project's fonts, for drawing the faces and the preview.
    pub fonts: Vec<ProjectFont>,
    /// The images the faces draw.
    pub art: Images,
    pub diagnostics: Vec<Diagnostic>,
}

/// A deck of a game and the faces of its copies.
#[derive(Clone, Debug, Default)]
pub struct DeckCopies {
    pub game: String,
    pub name: String,
    pub copies: Vec<usize>,
}

#[derive(Serialize)]
struct PageView {
    w: f64,
    h: f64,
    bleed: f64,
    width_mm: f64,
    height_mm: f64,
    viewbox: String,
}

#[derive(Serialize)]
struct GameView<'a> {
    id: &'a str,
    title: &'a str,
}

/// What the command line read for a print besides the cards: the images
/// they name and the project's fonts.
#[derive(Debug, Default)]
pub struct Assets {
    pub art: Art,
    pub fonts: Vec<ProjectFont>,
    /// The path of a picture for the backs (`[print] back-art`), read with
    /// the cards' art.
    pub back_art: Option<String>,
    /// A picture for the backs of one deck's cards, by the deck's name
    /// (`[print.deck-backs]`), in place of `back_art`.
    pub deck_backs: Vec<(String, String)>,
}

/// Draws every card to print as SVG faces, with no images.
pub fn prepare(project: &Project, templates: &mut Templates, options: &Options) -> Job {
    prepare_with(project, templates, options, &Assets::default())
}

/// Draws every card to print as SVG faces.  Problems (text that does not
/// fit, a template that fails, an unknown deck, an image that cannot be
/// drawn) come back as diagnostics.
pub fn prepare_with(project: &Project, templates: &mut Templates, options: &Options, assets: &Assets) -> Job {
    let mut job = Job { fonts: assets.fonts.clone(), art: assets.art.images(), ..Job::default() };
    let families: Vec<&str> = assets.fonts.iter().map(|f| f.family.as_str()).collect();
    let (back_art, deck_backs) = match back_pictures(assets) {
        Ok(pictures) => pictures,
        Err(diagnostic) => {
            job.diagnostics.push(*diagnostic);
            return job;
        }
    };
    let selection = match select(project, options.deck.as_deref()) {
        Ok(selection) => selection,
        Err(diagnostic) => {
            job.diagnostics.push(*diagnostic);
            return job;
        }
    };
    let icons = game_icons(project, templates, &mut job.diagnostics);
    let templates: &Templates = templates;
    let viewers: HashMap<String, Viewer> =
        project.games.iter().map(|g| (g.ruleset.id.clone(), Viewer::new(g))).collect();
    let mut work: Vec<(usize, &Game, &Card, Option<i64>)> = Vec::new();
    for (game, cards) in &selection.games {
        for (card, copies) in cards {
            work.push((work.len(), game, card, *copies));
        }
    }
    let project_fonts: Arc<[ProjectFont]> = Arc::from(assets.fonts.clone());
    let drawn = parallel(&work, |(number, game, card, copies)| {
        let shown = copies.filter(|_| options.copies_on_face);
        let view = viewers.get(&game.ruleset.id).map(|v| v.card(card, shown, number + 1));
        let Some((view, rich)) = view else { return Err(format!("no game `{}`", game.ruleset.id)) };
        let fields = printed_fields(&view);
        let stated = super::stated::fields(card, &view, &game.ruleset);
        let (art, art_problems) = assets.art.for_card(game, card);
        let size = options.size_of(game, card);
        let frame = Frame { w: pt(size.w), h: pt(size.h), min_text: options.min_text };
        let mut context = tera::Context::new();
        context.insert("card", &view);
        context.insert("art", &art);
        context.insert("page", &page_view(size, options.bleed));
        context.insert("font", super::fonts::FAMILY);
        context.insert("fonts", &families);
        insert_game_and_deck(&mut context, game, card, options, (&back_art, &deck_backs));
        let icons = icons.get(&game.ruleset.id).cloned().unwrap_or_default();
        icons::with_icons(icons, || {
            let rich = Rc::new(rich);
            fonts::with_project_fonts(project_fonts.clone(), || {
                render_sides(templates, &context, rich, game, (card, &stated), frame)
            })
        })
        .map(|(faces, found)| (faces, found, art_problems, size, fields))
    });
    for ((number, game, card, copies), result) in work.iter().zip(drawn) {
        match result {
            Ok((mut faces, found, art_problems, size, fields)) => {
                job.diagnostics.extend(found);
                let back = faces.pop().unwrap_or_default();
                let front = faces.pop().unwrap_or_default();
                job.diagnostics.extend(art_problems.into_iter().chain(assets.art.low_resolution(&front, card)));
                let mut face = face(*number, game, card, size, [front, back]);
                face.fields = fields;
                face.copies = *copies;
                job.faces.push(face);
            }
            Err(message) => job.diagnostics.push(
                Diagnostic::error(&codes::TEMPLATE_ERROR, format!("cannot draw `{}`", card.name))
                    .primary(card.span, "while drawing this card")
                    .note(message),
            ),
        }
    }
    if job.faces.len() == work.len() {
        job.copies = selection.copies;
        if options.deck.is_none() {
            job.decks = deck_copies(&selection.games);
        }
    }
    job.title = selection.title;
    job
}

/// A card's front and back drawn through their templates, with the text
/// that did not fit.
fn render_sides(
    templates: &Templates,
    context: &tera::Context,
    rich: Rc<Table>,
    game: &Game,
    (card, stated): (&Card, &[super::stated::Stated]),
    frame: Frame,
) -> Result<(Vec<String>, Vec<Diagnostic>), String> {
    let mut faces = Vec::new();
    let mut overflows = Vec::new();
    let mut printed = Vec::new();
    let mut text = String::new();
    let mut front = String::new();
    for back in [false, true] {
        let Some(name) = templates.face(&game.ruleset.id, card.kind.id(), back) else {
            return Err(format!("no template for `{}` cards", card.kind));
        };
        let (svg, drawn) = functions::collect_overflows(frame, rich.clone(), || templates.render(&name, context));
        faces.push(svg.map_err(|e| format!("{name}: {e}"))?);
        overflows.extend(drawn.overflows);
        printed.extend(drawn.printed);
        text.push_str(&drawn.text);
        if !back {
            front = name;
        }
    }
    // A card's effects may print on either side (a reverse on the back).
    let mut found = functions::diagnostics(&card.name, card.span, &overflows);
    found.extend(super::stated::unprinted(card, &front, &printed));
    found.extend(super::stated::unshown(card, stated, &front, &text));
    Ok((faces, found))
}

/// The `number`th card drawn, with its sides.
fn face(number: usize, game: &Game, card: &Card, size: Size, [front, back]: [String; 2]) -> Face {
    Face {
        game: game.ruleset.id.clone(),
        name: card.name.clone(),
        slug: format!("{:03}-{}", number + 1, slug(&card.name)),
        kind: card.kind.to_string(),
        size,
        decks: game
            .decks
            .iter()
            .filter(|d| d.cards.iter().any(|e| e.card == card.name))
            .map(|d| d.name.clone())
            .collect(),
        copies: None,
        front,
        back,
        span: card.span,
        extent: card.extent,
        fields: Vec::new(),
        problems: Vec::new(),
    }
}

/// The fields a card gives a value, each with its values as printed.
fn printed_fields(view: &super::view::CardView) -> Vec<(String, String)> {
    let given = view.fields.iter().flat_map(|(name, views)| views.iter().map(move |v| (name, v)));
    given.filter(|(_, v)| !v.text.is_empty()).map(|(name, v)| (name.clone(), v.text.clone())).collect()
}

/// A card to draw with the copy count its face shows.
type Counted<'a> = (&'a Card, Option<i64>);

struct Selection<'a> {
    games: Vec<(&'a Game, Vec<Counted<'a>>)>,
    /// Per printed copy, the index of its card in the order of `games`.
    copies: Vec<usize>,
    title: String,
}

/// Every card once (with the count its deck gives it), or one deck's cards
/// with their copies.
fn select<'a>(project: &'a Project, deck: Option<&str>) -> Result<Selection<'a>, Box<Diagnostic>> {
    let Some(wanted) = deck else {
        let mut games = Vec::new();
        let mut copies = Vec::new();
        for game in &project.games {
            let mut cards = Vec::new();
            for card in game.cards.iter().map(|card| &**card) {
                copies.push(copies.len());
                cards.push((card, deck_count(game, &card.name)));
            }
            if !cards.is_empty() {
                games.push((game, cards));
            }
        }
        let title = match games.as_slice() {
            [(game, _)] => game.ruleset.id.clone(),
            _ => "cards".to_string(),
        };
        return Ok(Selection { games, copies, title });
    };
    let found = project.games.iter().find_map(|g| g.decks.iter().find(|d| d.name == wanted).map(|d| (g, d)));
    let Some((game, deck)) = found else {
        let names: Vec<String> =
            project.games.iter().flat_map(|g| g.decks.iter().map(|d| format!("\"{}\"", d.name))).collect();
        let listed = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        return Err(Box::new(
            Diagnostic::error(&codes::UNKNOWN_DECK, format!("no deck is named \"{wanted}\""))
                .note(format!("the decks are: {listed}")),
        ));
    };
    let mut cards = Vec::new();
    let mut copies = Vec::new();
    for entry in &deck.cards {
        let Some(card) = game.cards.iter().map(|c| &**c).find(|c| c.name == entry.card) else { continue };
        let index = cards.len();
        cards.push((card, Some(entry.count)));
        copies.extend(std::iter::repeat_n(index, entry.count.clamp(0, 1000) as usize));
    }
    Ok(Selection { games: vec![(game, cards)], copies, title: slug(&deck.name) })
}

/// Every deck of the selected games with the faces of its copies; `games`
/// is in the order the faces were drawn.
fn deck_copies(games: &[(&Game, Vec<Counted>)]) -> Vec<DeckCopies> {
    let mut decks = Vec::new();
    let mut first = 0;
    for (game, cards) in games {
        for deck in &game.decks {
            let mut copies = Vec::new();
            for entry in &deck.cards {
                let Some(index) = cards.iter().position(|(card, _)| card.name == entry.card) else { continue };
                copies.extend(std::iter::repeat_n(first + index, entry.count.clamp(0, 1000) as usize));
            }
            if !copies.is_empty() {
                decks.push(DeckCopies { game: game.ruleset.id.clone(), name: deck.name.clone(), copies });
            }
        }
        first += cards.len();
    }
    decks
}

/// The deck a card's back shows: the one printed with `--deck`, else the
/// first deck that lists the card directly (not through an included deck).
/// The backs' picture (`[print] back-art`) and each deck's own, as the
/// names faces draw them by; a picture that cannot be drawn is the error.
type BackPictures = (Option<String>, HashMap<String, String>);

fn back_pictures(assets: &Assets) -> Result<BackPictures, Box<Diagnostic>> {
    let back_art = assets.back_art.as_deref().map(|path| assets.art.href(path, "back art")).transpose()?;
    let mut deck_backs = HashMap::new();
    for (deck, path) in &assets.deck_backs {
        deck_backs.insert(deck.clone(), assets.art.href(path, &format!("back art of `{deck}`"))?);
    }
    Ok((back_art, deck_backs))
}

/// The card's game, the deck it is printed in and the picture of its
/// back, for its templates.
fn insert_game_and_deck(
    context: &mut tera::Context,
    game: &Game,
    card: &Card,
    options: &Options,
    (back_art, deck_backs): (&Option<String>, &HashMap<String, String>),
) {
    context.insert("game", &GameView { id: &game.ruleset.id, title: &game.ruleset.title });
    let deck = deck_of(game, card, options.deck.as_deref());
    let back = deck.as_ref().and_then(|d| deck_backs.get(d.name)).or(back_art.as_ref());
    context.insert("deck", &deck);
    context.insert("back_art", &back);
    context.insert("backs_named", &options.backs_named);
}

fn deck_of<'a>(game: &'a Game, card: &Card, printed: Option<&str>) -> Option<DeckView<'a>> {
    let lists = |d: &&crate::ir::Deck| d.cards.iter().any(|e| e.card == card.name);
    let deck = match printed {
        Some(name) => game.decks.iter().filter(lists).find(|d| d.name == name),
        None => game.decks.iter().filter(|d| d.includes.is_empty()).find(lists),
    }?;
    Some(DeckView { name: &deck.name, symbol: deck.symbol.as_deref() })
}

#[derive(Serialize)]
struct DeckView<'a> {
    name: &'a str,
    /// The id of the deck's symbol, as `icon` takes it.
    symbol: Option<&'a str>,
}

/// The count of a card in the first deck that lists it directly.
fn deck_count(game: &Game, name: &str) -> Option<i64> {
    game.decks
        .iter()
        .filter(|d| d.includes.is_empty())
        .find_map(|d| d.cards.iter().find(|e| e.card == name).map(|e| e.count))
}

/// The template's `page`: the face's size and bleed in points and
/// millimetres.
fn page_view(card: Size, bleed: f32) -> PageView {
    let (w, h, b) = (pt(card.w), pt(card.h), pt(bleed));
    let r = |v: f32| (f64::from(v) * 1000.0).round() / 1000.0;
    PageView {
        w: r(w),
        h: r(h),
        bleed: r(b),
        width_mm: r(card.w + 2.0 * bleed),
        height_mm: r(card.h + 2.0 * bleed),
        viewbox: format!("{} {} {} {}", svg::num(-b), svg::num(-b), svg::num(w + 2.0 * b), svg::num(h + 2.0 * b)),
    }
}

/// `Spinal Railcannon!` → `spinal-railcannon`.
/// A role's mark that the icons have no drawing of, where it is named:
/// faces would print a placeholder in its place.
/// The icons each game prints with, its undrawn ones given letters of
/// their own, with the warnings about its marks and undrawn icons.
fn game_icons(
    project: &Project,
    templates: &mut Templates,
    diagnostics: &mut Vec<Diagnostic>,
) -> HashMap<String, Arc<icons::Icons>> {
    let mut all = HashMap::new();
    for game in &project.games {
        let mut icons = (*templates.icons(&game.ruleset.id)).clone();
        let r = &game.ruleset;
        let declared: Vec<(&str, Option<Span>)> = r
            .symbols
            .iter()
            .chain(&r.icons)
            .map(|n| (n.id.as_str(), n.span))
            .chain(r.deck_symbols.iter().map(|d| (d.id.as_str(), None)))
            .collect();
        let alike = icons.name_undrawn(declared.iter().map(|(id, _)| *id));
        let span_of = |id: &str| declared.iter().find(|(i, s)| *i == id && s.is_some()).and_then(|(_, s)| *s);
        diagnostics.extend(
            alike.iter().filter_map(|a| alike_icons(&game.ruleset.id, a, span_of(&a.second), span_of(&a.first))),
        );
        all.insert(game.ruleset.id.clone(), Arc::new(icons));
    }
    for game in &project.games {
        diagnostics.extend(unknown_marks(game, &all));
    }
    all
}

/// W0719 at the second of two undrawn icons alike in their two letters.
fn alike_icons(game: &str, alike: &icons::Alike, at: Option<Span>, other: Option<Span>) -> Option<Diagnostic> {
    let icons::Alike { first, second, letters, printed } = alike;
    let message = format!("the icons `{first}` and `{second}` have no drawing, and both start with `{letters}`");
    let mut diagnostic = Diagnostic::warning(&codes::ICONS_ALIKE, message)
        .primary(at.or(other)?, format!("`{second}` prints as a circle with `{}`", printed.1));
    if let (Some(other), Some(_)) = (other, at) {
        diagnostic = diagnostic.secondary(other, format!("`{first}` prints as a circle with `{}`", printed.0));
    }
    let note = if printed.0 == printed.1 {
        format!("no two letters tell them apart: both print `{}`", printed.0)
    } else {
        format!("they print `{}` and `{}` instead of `{letters}`, which a reader must learn", printed.0, printed.1)
    };
    Some(diagnostic.note(note).help(format!(
        "draw them as `<symbol id=\"…\">` in `templates/{game}/icons.svg` (`cardsmith templates {game}` writes one to edit)"
    )))
}

fn unknown_marks(game: &Game, icons: &HashMap<String, Arc<icons::Icons>>) -> Vec<Diagnostic> {
    let Some(icons) = icons.get(&game.ruleset.id) else { return Vec::new() };
    let marks = game.ruleset.roles.iter().filter_map(|role| Some((role.mark.as_deref()?, role.mark_span?)));
    marks
        .filter(|(mark, _)| !icons.has(mark))
        .map(|(mark, span)| {
            Diagnostic::error(&codes::UNKNOWN_MARK, format!("no icon is named `{mark}`"))
                .primary(span, "no drawing for this mark")
                .suggest(crate::ruleset::names::suggest(mark, icons.ids()))
                .help("a mark is an icon of `templates/common/icons.svg` or `templates/<game>/icons.svg`")
        })
        .collect()
}

pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "card".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_file_names() {
        assert_eq!(slug("Spinal Railcannon"), "spinal-railcannon");
        assert_eq!(slug("<script>alert(1)</script>"), "script-alert-1-script");
        assert_eq!(slug("!!!"), "card");
        assert_eq!(slug("Ünïcode Name"), "n-code-name");
    }
}
