//! Effects told apart by colour must stay apart without it.  For every
//! bundled game, one effect of each role (same symbol, same amount) is laid
//! out and drawn as the faces draw it, rendered to pixels, turned to gray and
//! passed through a simulation of red-green colour blindness, then reduced to
//! ink and paper: what is left is the shape alone.  Every two roles must
//! still differ there, so a role told apart by colour only fails.

mod common;
use common::check_folder;

use cardsmith::backend::print::fonts::Style;
use cardsmith::backend::print::layout::{lay_out, Align, BoxSpec};
use cardsmith::backend::print::templates::Templates;
use cardsmith::backend::print::view::Viewer;
use cardsmith::backend::print::{icons, rich, svg};
use cardsmith::ir::{Effect, Plus};
use cardsmith::source::Span;
use resvg::tiny_skia::{Pixmap, Transform};

const GAMES: &[&str] = &["dreadnaught-1e", "dreadnaught-2e", "dreadnought-tcg", "dropfleet-1.3"];
/// Pixels of the rendered strip, at 8 pixels a point.
const SCALE: f32 = 8.0;
const WIDTH: f32 = 60.0;
const HEIGHT: f32 = 14.0;

/// Deuteranopia and protanopia (Viénot, Brettel and Mollon, 1999), on
/// linear RGB.
const DEUTERANOPIA: [[f32; 3]; 3] = [[0.29275, 0.70725, 0.0], [0.29275, 0.70725, 0.0], [-0.02234, 0.02234, 1.0]];
const PROTANOPIA: [[f32; 3]; 3] = [[0.11238, 0.88762, 0.0], [0.11238, 0.88762, 0.0], [0.00401, -0.00401, 1.0]];

fn linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Which pixels carry ink once the colours are seen through `matrix` and
/// printed in gray: luminance below the middle of paper and black.
fn ink(pixmap: &Pixmap, matrix: &[[f32; 3]; 3]) -> Vec<bool> {
    pixmap
        .pixels()
        .iter()
        .map(|p| {
            let p = p.demultiply();
            let rgb = [linear(p.red()), linear(p.green()), linear(p.blue())];
            let seen: Vec<f32> = matrix
                .iter()
                .map(|row| (row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2]).clamp(0.0, 1.0))
                .collect();
            let gray = 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2];
            // On white paper a transparent pixel is paper.
            let alpha = p.alpha() as f32 / 255.0;
            gray * alpha + (1.0 - alpha) < 0.5
        })
        .collect()
}

/// One effect of `role` drawn as a face draws it, on white.
fn render_effect(viewer: &Viewer, role: &str, symbol: &str, span: Span) -> Pixmap {
    let effect = Effect { role: role.into(), symbol: symbol.into(), amount: 3, plus: Plus::None, per: None, span };
    let paragraphs = vec![rich::pieces(&viewer.effect(&effect), Style::Regular, None)];
    let spec = BoxSpec {
        x: 1.0,
        y: 1.0,
        w: WIDTH - 2.0,
        h: HEIGHT - 2.0,
        size: 10.0,
        min_size: 10.0,
        line_height: 1.2,
        align: Align::Start,
        valign: Align::Start,
        fill: "#1b1b1b".into(),
    };
    let laid = lay_out(&paragraphs, &spec);
    assert!(laid.fits, "an effect of `{role}` fits its strip");
    let face = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\">\
         <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>{}</svg>",
        laid.svg
    );
    let tree = svg::parse(&face, &svg::options()).expect("the strip is valid SVG");
    let mut pixmap = Pixmap::new((WIDTH * SCALE) as u32, (HEIGHT * SCALE) as u32).expect("pixmap");
    resvg::render(&tree, Transform::from_scale(SCALE, SCALE), &mut pixmap.as_mut());
    pixmap
}

#[test]
fn every_role_mark_survives_gray_and_colour_blindness() {
    let mut templates = Templates::new(&[]).expect("bundled templates");
    let mut compared = 0;
    for game in GAMES {
        let outcome = check_folder(&format!("cards/{game}"));
        for game in &outcome.project.games {
            let ruleset = &game.ruleset;
            let Some(symbol) = ruleset.symbols.first() else { continue };
            let viewer = Viewer::new(game);
            let span = game.cards.first().expect("the game has cards").span;
            let drawn = icons::with_icons(templates.icons(&ruleset.id), || {
                ruleset
                    .roles
                    .iter()
                    .map(|r| (r.id.clone(), render_effect(&viewer, &r.id, &symbol.id, span)))
                    .collect::<Vec<_>>()
            });
            for (name, matrix) in [("deuteranopia", &DEUTERANOPIA), ("protanopia", &PROTANOPIA)] {
                let masks: Vec<(String, Vec<bool>)> = drawn.iter().map(|(r, p)| (r.clone(), ink(p, matrix))).collect();
                for (i, (a, first)) in masks.iter().enumerate() {
                    assert!(first.iter().any(|&p| p), "{}: `{a}` leaves ink", ruleset.id);
                    for (b, second) in &masks[i + 1..] {
                        let differing = first.iter().zip(second).filter(|(x, y)| x != y).count();
                        // A mark is about 5 × 5 points: 40 × 40 pixels, of
                        // which the shapes differ in well over 200.
                        assert!(
                            differing > 200,
                            "{}: roles `{a}` and `{b}` look the same in gray with {name} ({differing} pixels differ)",
                            ruleset.id
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    // Both Dreadnaught editions have four roles, six pairs, and the TCG two
    // roles, one pair: two simulations each.
    assert_eq!(compared, 26, "every bundled game with roles was compared");
}

#[test]
fn every_bundled_role_declares_a_mark_of_its_own() {
    for game in GAMES {
        let outcome = check_folder(&format!("cards/{game}"));
        for game in &outcome.project.games {
            let marks: Vec<&str> = game.ruleset.roles.iter().filter_map(|r| r.mark.as_deref()).collect();
            assert_eq!(marks.len(), game.ruleset.roles.len(), "{}: every role has a mark", game.ruleset.id);
            let mut distinct = marks.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), marks.len(), "{}: no two roles share a mark", game.ruleset.id);
        }
    }
}
