//! Layout: wrapping, shrinking, inline pieces and overflow.

use super::*;

fn spec(w: f32, h: f32, size: f32, min: f32) -> BoxSpec {
    BoxSpec {
        x: 0.0,
        y: 0.0,
        w,
        h,
        size,
        min_size: min,
        line_height: 1.2,
        align: Align::Start,
        valign: Align::Start,
        fill: "#000".into(),
    }
}

fn text(s: &str) -> Piece {
    Piece::Text { text: s.into(), style: Style::Regular, colour: None }
}

const LONG: &str = "Deal 8 damage; your ship suffers 2 damage from the recoil. At Long range or further, +2 damage.";

#[test]
fn short_text_fits_at_full_size_on_one_line() {
    let laid = lay_out(&[vec![text("Kinetic Strike")]], &spec(150.0, 20.0, 10.0, 5.0));
    assert!(laid.fits);
    assert_eq!((laid.size, laid.lines), (10.0, 1));
    assert_eq!(laid.svg.matches("<text").count(), 1);
}

#[test]
fn long_text_wraps_within_the_width() {
    let laid = lay_out(&[vec![text(LONG)]], &spec(100.0, 200.0, 8.0, 5.0));
    assert!(laid.fits && laid.lines > 2, "{laid:?}");
    assert_eq!(laid.size, 8.0);
    for line in laid.svg.split("<text").skip(1) {
        let content = line.split('>').nth(1).unwrap_or("").trim_end_matches("</text");
        assert!(fonts::width(content, Style::Regular) * 8.0 <= 100.01, "{content}");
    }
}

#[test]
fn text_shrinks_before_it_overflows() {
    let laid = lay_out(&[vec![text(LONG)]], &spec(100.0, 30.0, 10.0, 4.0));
    assert!(laid.fits, "{laid:?}");
    assert!(laid.size < 10.0 && laid.size >= 4.0, "{}", laid.size);
}

#[test]
fn text_that_cannot_fit_is_reported_and_cut_with_an_ellipsis() {
    let text_10 = vec![text(&LONG.repeat(10))];
    let laid = lay_out(&[text_10], &spec(100.0, 30.0, 10.0, 6.0));
    assert!(!laid.fits);
    assert_eq!(laid.size, 6.0);
    assert!(laid.svg.contains('…'));
    let height = (laid.lines as f32 - 1.0) * 6.0 * 1.2 + 6.0 * 1.2;
    assert!(height <= 30.01, "{} lines do not fit 30 units", laid.lines);
}

#[test]
fn markup_in_text_is_escaped() {
    let laid = lay_out(&[vec![text("<script>alert(1)</script>")]], &spec(400.0, 20.0, 10.0, 5.0));
    assert!(laid.svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{}", laid.svg);
    assert!(!laid.svg.contains("<script"));
}

#[test]
fn icons_and_badges_sit_inline_and_take_room() {
    let pieces = vec![
        Piece::Badge { text: "2.4".into(), small: None, fill: "#222".into() },
        Piece::Text { text: "8+".into(), style: Style::Bold, colour: Some("#c00".into()) },
        Piece::Icon { id: "damage".into(), colour: Some("#c00".into()) },
        text(". Then more."),
    ];
    let laid = lay_out(&[pieces], &spec(200.0, 20.0, 10.0, 5.0));
    assert!(laid.fits && laid.lines == 1, "{laid:?}");
    assert!(laid.svg.contains("<rect") && laid.svg.contains("font-weight=\"bold\" fill=\"#c00\">8+</text>"));
    assert!(laid.svg.contains("<g transform=\"translate("), "{}", laid.svg);
    // The full stop after the icon is glued to it, not set apart.
    let icon_words = words(&vec![Piece::Icon { id: "damage".into(), colour: None }, text(".")]);
    assert_eq!(icon_words.len(), 1);
}

#[test]
fn paragraphs_start_new_lines_and_centre_alignment_centres() {
    let mut centred = spec(200.0, 60.0, 10.0, 5.0);
    centred.align = Align::Middle;
    let laid = lay_out(&[vec![text("one")], vec![text("two")]], &centred);
    assert_eq!(laid.lines, 2);
    let x: f32 = laid.svg.split("x=\"").nth(1).and_then(|s| s.split('"').next()).and_then(|s| s.parse().ok()).unwrap();
    assert!(x > 80.0 && x < 100.0, "{x}");
}

#[test]
fn newlines_in_text_break_lines() {
    let laid = lay_out(&[vec![text("first\nsecond")]], &spec(400.0, 60.0, 10.0, 5.0));
    assert_eq!(laid.lines, 2, "{}", laid.svg);
}

#[test]
fn empty_text_draws_nothing() {
    let laid = lay_out(&[], &spec(100.0, 10.0, 8.0, 5.0));
    assert!(laid.fits && laid.svg.is_empty());
}

#[test]
fn a_number_and_its_icon_never_part_at_a_line_break() {
    let icon = Piece::Icon { id: "damage".into(), colour: None };
    let paragraph = vec![text("Deal then 3 "), icon, text(" to the target.")];
    let words = words(&paragraph);
    let before_icon: f32 = words.iter().take(3).map(|w| w.width).sum::<f32>() + 2.0 * fonts::width(" ", Style::Regular);
    // Wide enough for "Deal then 3" but not for the icon after it.
    for width in [before_icon + 0.01, before_icon + 0.5] {
        let lines = wrap(std::slice::from_ref(&words), width);
        let with_icon = lines
            .iter()
            .find(|l| l.words.iter().any(|w| w.atoms.iter().any(|a| matches!(a.piece, Piece::Icon { .. }))))
            .expect("a line holds the icon");
        let first = &with_icon.words[0].atoms[0].piece;
        assert!(matches!(first, Piece::Text { text, .. } if text == "3"), "width {width}: {lines:?}");
        for line in &lines {
            let sum: f32 = line.words.iter().map(|w| w.width).sum::<f32>()
                + line.words.iter().skip(1).map(space_width).sum::<f32>();
            assert!((sum - line.width).abs() < 1e-4, "the width of a line is its words and spaces: {line:?}");
        }
    }
}

#[test]
fn a_word_wider_than_the_box_is_cut_to_it() {
    let laid = lay_out(&[vec![text(&"N".repeat(100_000))]], &spec(60.0, 12.0, 10.0, 6.0));
    assert!(!laid.fits);
    let shown: usize = laid.svg.matches('N').count();
    assert!(shown > 3 && shown < 40, "{shown} letters kept");
    assert!(laid.svg.contains('…'), "{}", laid.svg);
}

/// A wide face: bold serif, against the bundled condensed sans.
const WIDE: &[u8] = include_bytes!("../../../../examples/art-deck/fonts/DejaVuSerifCondensed-Bold.ttf");

#[test]
fn a_box_in_a_project_font_is_measured_in_it() {
    let wide = fonts::ProjectFont::new(WIDE.to_vec()).expect("a font");
    let family = wide.family.clone();
    let fonts: std::sync::Arc<[fonts::ProjectFont]> = std::sync::Arc::from(vec![wide]);
    let paragraph = [vec![text(LONG)]];
    let box_spec = spec(100.0, 200.0, 8.0, 8.0);
    let bundled = lay_out(&paragraph, &box_spec);
    let (in_family, elsewhere) = fonts::with_project_fonts(fonts, || {
        let in_family = fonts::measuring_in(Some(&family), || lay_out(&paragraph, &box_spec));
        // Each line fits by the project font's own widths.
        for line in in_family.svg.split("<text").skip(1) {
            let content = line.split('>').nth(1).unwrap_or("").trim_end_matches("</text");
            let width = fonts::measuring_in(Some(&family), || fonts::width(content, Style::Regular));
            assert!(width * 8.0 <= 100.01, "{content}");
        }
        (in_family, fonts::measuring_in(Some("No Such Family"), || lay_out(&paragraph, &box_spec)))
    });
    assert!(in_family.lines > bundled.lines, "{} lines in {family}, {} in DejaVu", in_family.lines, bundled.lines);
    assert_ne!(in_family.svg, bundled.svg);
    // A family no project font has is drawn, and so measured, in the bundled font.
    assert_eq!(elsewhere.svg, bundled.svg);
    // Outside the project's fonts the family is unknown again.
    assert_eq!(fonts::measuring_in(Some(&family), || lay_out(&paragraph, &box_spec)).svg, bundled.svg);
}
