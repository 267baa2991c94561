//! What each fuzz target does with its input, in one place: the targets in
//! `fuzz_targets/` call these, and `tests/fuzz_replay.rs` replays the seed
//! corpus (the bundled cards) and every saved crash through the same code.
//!
//! Beyond "does not panic", each target checks a property a person relies on:
//! every diagnostic (and every setting of a project file) points inside the
//! file at character boundaries and renders;
//! formatting is idempotent; laid-out text stays in its box or says it does not
//! fit; a printed face is SVG that usvg reads.

use cardsmith::backend::print::{
    self,
    fonts::Style,
    layout::{self, Align, BoxSpec, Piece},
    sheet,
    templates::Templates,
    Formats, Options,
};
use cardsmith::diagnostics::{render, Diagnostic};
use cardsmith::source::Files;
use cardsmith::workspace::Workspace;

/// Parsing alone: pest, the lossless tree and the typed tree.  The lossless
/// tree holds every byte of the file in order, and formatting around syntax
/// errors does not fail.
pub fn parse(data: &[u8]) {
    let mut files = Files::new();
    let mut diagnostics = Vec::new();
    if let Some(id) = cardsmith::syntax::load(&mut files, "fuzz.cards", data.to_vec(), &mut diagnostics) {
        let (cst, _) = cardsmith::syntax::parse_lossless(&files, id, &mut diagnostics);
        assert!(cst.text(&files.get(id).text) == files.get(id).text, "the lossless tree lost or moved a byte");
        if let Err(cardsmith::fmt::FormatError::Syntax(_)) = cardsmith::fmt::format_keeping_errors(&files, id) {
            panic!("formatting around syntax errors refused the file");
        }
    }
    diagnostics_are_sound(&files, &diagnostics);
}

/// The whole check of one file (a ruleset or cards of a bundled game):
/// parsing, checking, the lints, and rendering every diagnostic.
pub fn check(data: &[u8]) {
    check_together(&[("fuzz.cards", data.to_vec())]);
}

/// A small card file of a bundled game, with a deck of its own cards: the
/// `ruleset` target checks it against the ruleset it is given.
const DECK_FILE: &str = include_str!("../../cards/dreadnaught-2e/armour.cards");

/// A ruleset (`.rules`): checked alone, then with a card file whose `game`
/// line names it, so that its construction rules are evaluated on a deck.
/// The properties are those of [`check`].
pub fn ruleset(data: &[u8]) {
    check_together(&[("fuzz.rules", data.to_vec())]);
    let Some(id) = ruleset_id(data) else { return };
    let cards = DECK_FILE.split_once('\n').map_or("", |(_, rest)| rest);
    check_together(&[("fuzz.rules", data.to_vec()), ("deck.cards", format!("game {id}\n{cards}").into_bytes())]);
}

/// The id a ruleset declares in its header, if it parses that far.
fn ruleset_id(data: &[u8]) -> Option<String> {
    let mut files = Files::new();
    let mut diagnostics = Vec::new();
    let id = cardsmith::syntax::load(&mut files, "fuzz.rules", data.to_vec(), &mut diagnostics)?;
    let tree = cardsmith::syntax::parse(&files, id, &mut diagnostics);
    cardsmith::check::ruleset_id(&tree).map(str::to_string)
}

/// Checks files together: every diagnostic is sound, every fix lies in its
/// file.
fn check_together(sources: &[(&str, Vec<u8>)]) {
    let mut workspace = Workspace::new();
    for (name, bytes) in sources {
        workspace.add_bytes(name, bytes.clone());
    }
    let outcome = workspace.check();
    diagnostics_are_sound(&outcome.files, &outcome.diagnostics);
    for fix in &outcome.fixes {
        let text = &outcome.files.get(fix.span.file).text;
        assert!(text.get(fix.span.range()).is_some(), "a fix outside the text: {fix:?}");
    }
}

/// A ruleset whose one deck type includes itself, for [`decks`].
const CHAINS: &str = "ruleset chains {\n  title \"Chains\"\n}\n\nkind token \"Token\" {\n  field worth int\n}\n\n\
                      deck-type pile \"Pile\" {\n  includes pile\n  require \"a pile holds a card\" count() >= 1\n}\n";

/// Decks that include one another in any graph: the first byte says how
/// many decks (1 to 12), and each following pair of bytes (512 at most)
/// gives a deck the next line: a card with its copies, or another deck listed up to 15
/// times.  Circles, self-inclusion and decks that multiply past the limit
/// all come up; checking is bounded (no deck is built past its limit) and
/// every diagnostic points inside its file.
pub fn decks(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    // At most 512 lines: the limits, not the input's length, are the test.
    let rest = &rest[..rest.len().min(1024)];
    let count = usize::from(first % 12) + 1;
    let mut bodies = vec![String::new(); count];
    for (line, pair) in rest.chunks_exact(2).enumerate() {
        let body = &mut bodies[line % count];
        match pair[0] % 4 {
            0 => body.push_str(&format!("  card \"Bead\" x{}\n", pair[1] % 9 + 1)),
            _ => body
                .push_str(&format!("  deck \"D{}\"\n", usize::from(pair[1]) % count).repeat(usize::from(pair[0] % 16))),
        }
    }
    let mut cards = String::from("game chains\n\ntoken \"Bead\" {\n  worth 1\n}\n");
    for (i, body) in bodies.iter().enumerate() {
        cards.push_str(&format!("\ndeck \"D{i}\" pile {{\n{body}}}\n"));
    }
    let mut workspace = Workspace::new();
    workspace.add_bytes("chains.rules", CHAINS.as_bytes().to_vec());
    workspace.add_bytes("decks.cards", cards.into_bytes());
    let outcome = workspace.check();
    diagnostics_are_sound(&outcome.files, &outcome.diagnostics);
    for game in &outcome.project.games {
        for deck in &game.decks {
            let copies: i64 = deck.cards.iter().map(|entry| entry.count.max(0)).fold(0, i64::saturating_add);
            assert!(copies <= cardsmith::check::MAX_DECK_CARDS, "deck `{}` holds {copies} copies", deck.name);
        }
    }
}

/// The relative paths of a small project, as the command line's walk meets
/// them (folders before what they hold), for the `project` target.
const TREE: &[&str] = &[
    "cards",
    "cards/ships.cards",
    "cards/decks.cards",
    "cards/drafts",
    "cards/drafts/next.cards",
    "cards/game.rules",
    "backup",
    "backup/2024",
    "backup/2024/ships.cards",
    "templates/g/ship.svg",
    "a b/[x].cards",
    "ünï/çødé.rules",
];

/// A project file, `cardsmith.toml`, as the command line reads it: every
/// problem is a diagnostic inside the file, and the settings it gives point
/// into it; its `exclude` is then applied to a small project, the tree
/// above and its own `paths`, as the command line's walk applies it, and a
/// pattern that left out nothing is a warning inside the file.
pub fn project(data: &[u8]) {
    // The command line refuses a project file that is not UTF-8 before
    // reading it (`cli/read.rs`).
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut files = Files::new();
    let id = files.add(cardsmith::config::FILE_NAME, text);
    let (manifest, mut diagnostics) = cardsmith::config::parse(&files, id);
    let exclude = &manifest.exclude;
    let mut spans: Vec<cardsmith::source::Span> = exclude.patterns.iter().map(|(_, span)| *span).collect();
    spans.extend(manifest.paths.iter().flatten().map(|(_, span)| *span));
    spans.extend(manifest.build_out.iter().chain(&manifest.print.out).map(|(_, span)| *span));
    spans.extend(manifest.print.fonts.iter().flatten().map(|(_, span)| *span));
    spans.extend(manifest.print.sizes.iter().map(|size| size.span));
    spans.extend(manifest.print.deck_backs.iter().map(|(_, _, span)| *span));
    for span in spans {
        assert!(
            span.file == id && text.get(span.range()).is_some(),
            "a setting points at {:?} outside the file",
            span.range()
        );
    }
    let mut used = vec![false; exclude.patterns.len()];
    let listed = manifest.paths.iter().flatten().map(|(path, _)| path.as_str());
    for path in TREE.iter().copied().chain(listed) {
        let excluded = exclude.excludes(std::path::Path::new(path), &mut used);
        assert!(!excluded || !exclude.is_empty(), "`{path}` excluded with no pattern");
    }
    diagnostics.extend(exclude.unused(&used, id));
    diagnostics_are_sound(&files, &diagnostics);
}

/// The formatter: what it accepts it formats once and for all.
pub fn fmt(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(once) = cardsmith::fmt::format_text("fuzz.cards", text) else { return };
    match cardsmith::fmt::format_text("fuzz.cards", &once) {
        Ok(twice) => assert_eq!(once, twice, "formatting is not idempotent"),
        Err(e) => panic!("the formatter's output does not format again: {e:?}\n{once}"),
    }
}

/// Text layout on its own: the first bytes choose the box, the rest is rich
/// text (`{icon}`, `[badge]`, `*italic*`, `**bold**`, blank lines between
/// paragraphs).
pub fn layout(data: &[u8]) {
    let (spec, text) = box_spec(data);
    // A card's text is far shorter; longer inputs only slow the search.
    let text = &text[..text.len().min(MAX_TEXT)];
    let paragraphs: Vec<layout::Paragraph> = String::from_utf8_lossy(text).split("\n\n").map(rich_text).collect();
    let laid = layout::lay_out(&paragraphs, &spec);
    assert!(laid.size.is_finite() && laid.size > 0.0, "text set at size {}", laid.size);
    if spec.size.is_finite() && spec.size >= 0.5 {
        assert!(laid.size <= spec.size + 1e-3, "text grew: {} > {}", laid.size, spec.size);
    }
    let svg = format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">{}</svg>"#, laid.svg);
    if let Err(e) = print::svg::parse(&svg, &print::svg::options()) {
        panic!("laid-out text is not SVG ({e}):\n{svg}");
    }
}

/// A card through the whole of printing short of rasterising: checked, drawn
/// through its kind's template with its text laid out, and read back by usvg.
pub fn print(data: &[u8]) {
    let mut workspace = Workspace::new();
    workspace.add_bytes("fuzz.cards", data.to_vec());
    let outcome = workspace.check();
    if outcome.stats.errors > 0 || outcome.project.games.iter().all(|g| g.cards.is_empty()) {
        return;
    }
    thread_local! {
        static TEMPLATES: std::cell::RefCell<Option<Templates>> = const { std::cell::RefCell::new(None) };
    }
    let options = faces_only();
    let job = TEMPLATES.with(|templates| {
        let mut templates = templates.borrow_mut();
        let templates = templates.get_or_insert_with(|| match Templates::new(&[]) {
            Ok(templates) => templates,
            Err(e) => panic!("the bundled templates do not load: {e}"),
        });
        print::prepare(&outcome.project, templates, &options)
    });
    let usvg = print::svg::options();
    for face in &job.faces {
        for svg in [&face.front, &face.back] {
            if let Err(e) = print::svg::parse(svg, &usvg) {
                panic!("the face of `{}` is not SVG ({e}):\n{svg}", face.name);
            }
        }
    }
}

/// Faces drawn, and nothing else made of them.
fn faces_only() -> Options {
    Options {
        card: sheet::card_size("poker").unwrap_or_else(|_| panic!("poker size")),
        paper: sheet::paper_size("a4").unwrap_or_else(|_| panic!("a4 size")),
        bleed: 0.0,
        backs: true,
        dpi: 30,
        formats: Formats::NONE,
        deck: None,
        ..Options::default()
    }
}

/// A project's own template: the input is the template of an Event Card of
/// Dreadnaught 2e, drawn for one card.  It is refused whole (with tera's
/// reason, or the sandbox's: a macro that reaches itself, tags nested too
/// deep), or each card is drawn or refused with a diagnostic at the card:
/// never a panic or an overflowed stack, and a face drawn is SVG or an error
/// of its own.
///
/// Inputs that `set` variables, `replace` text or nest three loops are
/// passed over: the budgets that stop them (memory, and time without a
/// write) are held by the `cardsmith` program's allocator and watchdog,
/// which a fuzzer's process does not have (`tests/stranger_print.rs`
/// checks them through the program).
pub fn template(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.contains("set") || text.contains("replace") || text.matches("for").count() > 2 {
        return;
    }
    let overrides = [("dreadnaught-2e/event.svg".to_string(), text.to_string())];
    let Ok(mut templates) = Templates::new(&overrides) else { return };
    let mut workspace = Workspace::new();
    let card = "game dreadnaught-2e\n\nevent \"Quick Repairs\" {\n  at 3.0 { increase damage 1 }\n  text \"Repair 1 {damage}.\"\n}\n";
    workspace.add_bytes("fuzz.cards", card.as_bytes().to_vec());
    let outcome = workspace.check();
    assert_eq!(outcome.stats.errors, 0, "the card of the template target checks clean");
    let job = print::prepare(&outcome.project, &mut templates, &faces_only());
    assert!(job.faces.len() == 1 || job.diagnostics.iter().any(|d| d.is_error()), "a card not drawn says why");
    let usvg = print::svg::options();
    for face in &job.faces {
        for svg in [&face.front, &face.back] {
            let _ = print::svg::parse(svg, &usvg);
        }
    }
}

/// Every label of every diagnostic lies in its file at character boundaries,
/// and every diagnostic renders in each format.
fn diagnostics_are_sound(files: &Files, diagnostics: &[Diagnostic]) {
    for diagnostic in diagnostics {
        for label in &diagnostic.labels {
            let text = &files.get(label.span.file).text;
            let range = label.span.range();
            assert!(
                range.start <= range.end && text.get(range.clone()).is_some(),
                "{} points at {range:?} in a text of {} bytes: {}",
                diagnostic.code.id,
                text.len(),
                diagnostic.message
            );
        }
        std::hint::black_box(render::short(files, diagnostic));
        std::hint::black_box(render::json(files, diagnostic));
    }
    std::hint::black_box(render::human_string(files, diagnostics));
}

/// The most text the layout target sets, in bytes.
const MAX_TEXT: usize = 4096;

/// The box: from the first byte on, small whole numbers scaled to sensible
/// ranges; when the first byte is odd, raw floats (zero, negative, huge,
/// infinite, not a number) instead.
fn box_spec(data: &[u8]) -> (BoxSpec, &[u8]) {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let raw = |i: usize| {
        let bytes = [byte(i), byte(i + 1), byte(i + 2), byte(i + 3)];
        f32::from_le_bytes(bytes)
    };
    let aligns = [Align::Start, Align::Middle, Align::End];
    let (values, used) = if byte(0) % 2 == 1 {
        ([raw(1), raw(5), raw(9), raw(13), raw(17)], 21)
    } else {
        let scaled = |i: usize, scale: f32| f32::from(byte(i)) * scale;
        ([scaled(1, 1.0), scaled(2, 1.0), scaled(3, 0.125), scaled(4, 0.0625), scaled(5, 1.0 / 64.0)], 6)
    };
    let spec = BoxSpec {
        x: 10.0,
        y: 10.0,
        w: values[0],
        h: values[1],
        size: values[2],
        min_size: values[3],
        line_height: values[4],
        align: aligns[usize::from(byte(0) / 2) % 3],
        valign: aligns[usize::from(byte(0) / 6) % 3],
        fill: "#000".to_string(),
    };
    (spec, data.get(used..).unwrap_or(&[]))
}

/// One paragraph of marked-up text as pieces.
fn rich_text(text: &str) -> layout::Paragraph {
    let mut pieces = Vec::new();
    let mut style = Style::Regular;
    let mut rest = text;
    let mut plain = String::new();
    let flush = |plain: &mut String, pieces: &mut Vec<Piece>, style: Style| {
        if !plain.is_empty() {
            pieces.push(Piece::Text { text: std::mem::take(plain), style, colour: None });
        }
    };
    while let Some(c) = rest.chars().next() {
        let closing = match c {
            '{' => rest.find('}'),
            '[' => rest.find(']'),
            _ => None,
        };
        if let Some(end) = closing {
            flush(&mut plain, &mut pieces, style);
            let inner = rest[1..end].to_string();
            pieces.push(if c == '{' {
                Piece::Icon { id: inner, colour: Some("#c0392b".to_string()) }
            } else {
                let (text, small) = match inner.split_once('.') {
                    Some((a, b)) => (a.to_string(), Some(b.to_string())),
                    None => (inner, None),
                };
                Piece::Badge { text, small, fill: "#222".to_string() }
            });
            rest = &rest[end + 1..];
        } else if let Some(after) = rest.strip_prefix("**") {
            flush(&mut plain, &mut pieces, style);
            style = if style == Style::Bold { Style::Regular } else { Style::Bold };
            rest = after;
        } else if let Some(after) = rest.strip_prefix('*') {
            flush(&mut plain, &mut pieces, style);
            style = if style == Style::Italic { Style::Regular } else { Style::Italic };
            rest = after;
        } else {
            plain.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    flush(&mut plain, &mut pieces, style);
    pieces
}

/// The game the `sheet` target's tables are cards of: Lantern Market, whose
/// wares have a number, an enum, a block at a speed and a text.
const MARKET: &str = include_str!("../../examples/lantern-market/cards/lantern-market.rules");

/// A spreadsheet of cards: the input read as a CSV table of Lantern Market
/// wares and, when it starts as a zip archive does, as an XLSX workbook,
/// checked as a sheet the project lists.  Besides the properties of
/// [`check`]: no diagnostic is left in a sheet's card text (each is moved
/// to its cell), the cells of a table lie inside it at character
/// boundaries, row after row, and no file made from it passes the limit of
/// a file.
pub fn sheet(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        cells_are_sound(text);
    }
    sheet_as("fuzz.csv", data);
    if data.starts_with(b"PK") {
        sheet_as("fuzz.xlsx", data);
    }
}

fn cells_are_sound(text: &str) {
    let table = cardsmith::spreadsheet::table::Table::read(text);
    let mut last = (0, 0);
    for cell in &table.cells {
        let (start, end) = (cell.start as usize, cell.end as usize);
        assert!(text.get(start..end).is_some_and(|t| !t.is_empty()), "a cell at {start}..{end} of {}", text.len());
        assert!((cell.row, cell.column) > last, "cells out of order: {:?} after {last:?}", (cell.row, cell.column));
        assert!(cell.column < cardsmith::spreadsheet::table::MAX_COLUMNS, "a cell past the last column");
        last = (cell.row, cell.column);
    }
}

fn sheet_as(name: &str, data: &[u8]) {
    let mut workspace = Workspace::new();
    workspace.add_bytes("market.rules", MARKET.as_bytes().to_vec());
    let sheet = cardsmith::spreadsheet::sheet::Sheet {
        name: name.to_string(),
        game: "lantern-market".to_string(),
        kind: "ware".to_string(),
        mapping: vec![("Rules Text".to_string(), "text".to_string())],
        ..Default::default()
    };
    workspace.add_sheet(sheet, data);
    let outcome = workspace.check();
    diagnostics_are_sound(&outcome.files, &outcome.diagnostics);
    for diagnostic in &outcome.diagnostics {
        for label in &diagnostic.labels {
            assert!(!outcome.files.is_derived(label.span.file), "left in a sheet's card text: {}", diagnostic.message);
        }
    }
    for id in outcome.files.ids() {
        let file = outcome.files.get(id);
        // The card text stops at the first row past the limit.
        let most = cardsmith::syntax::MAX_FILE_SIZE * 2;
        assert!(file.text.len() <= most, "`{}` holds {} bytes", file.name, file.text.len());
    }
}
