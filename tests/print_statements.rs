//! Everything a card states reaches its face: the generic face prints each
//! construct of a block (effects written in the card's own block, choices,
//! conditions holding choices and steps, `then` steps after them), enum
//! values by their labels, a shape's values typed by the shape; and an
//! effect a template leaves out is warning W0718 at the effect.  What would
//! print but not be read is a warning too: two undrawn icons alike in their
//! letters (W0719, and they print letters of their own), a character the
//! fonts lack (W0720).

mod common;

use common::{cardsmith, repo, stderr};
use std::path::Path;

/// A project of the game in `tests/statements/`, none of the bundled ones.
fn own_game(dir: &Path) {
    std::fs::write(dir.join("cardsmith.toml"), "[project]\nname = \"own\"\npaths = [\"cards\"]\n").unwrap();
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    for file in ["own.rules", "own.cards"] {
        std::fs::copy(repo().join("tests/statements").join(file), dir.join("cards").join(file)).unwrap();
    }
}

#[test]
fn the_generic_face_prints_every_construct_of_a_block_in_order() {
    let dir = tempfile::tempdir().unwrap();
    own_game(dir.path());
    let printed = cardsmith(&["print", "--format", "html", "--message-format", "short"], dir.path());
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "{err}");
    assert!(!err.contains("W0718"), "{err}");
    let html = std::fs::read_to_string(dir.path().join("print/preview.html")).expect("preview");
    // Enum values print their labels, else their ids made readable, in a
    // field and in a shared shape alike.
    for shown in ["Star Empire", "Trade federation", "On Play", "First install"] {
        assert!(html.contains(shown), "`{shown}` is not on a face");
    }
    for id in [">trade-federation<", ">first-install<", ">on-play<"] {
        assert!(!html.contains(id), "`{id}` printed as its id");
    }
    // A role with neither colour nor mark prints its name before its effect.
    assert!(html.contains(">Steal</text>"), "the colourless, markless role is not named");
    // A condition prints what it holds: the choice in brackets, then its step.
    assert!(html.contains("Ally Trade federation:<"), "the condition is not printed");
    // The Broker's choice, then its condition, then its step, in that order.
    let broker = &html[html.find("Ally Star Empire:").expect("the Broker's condition")..];
    assert!(broker.contains("Then:"), "the step does not follow the condition");
}

#[test]
fn an_effect_a_template_leaves_out_is_a_warning_at_the_effect() {
    let dir = tempfile::tempdir().unwrap();
    own_game(dir.path());
    std::fs::create_dir_all(dir.path().join("templates/own")).unwrap();
    // A face that prints the fields and nothing of the card's own block.
    let face = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{{ page.width_mm }}mm\" \
                height=\"{{ page.height_mm }}mm\" viewBox=\"{{ page.viewbox }}\">\n\
                {{ text_box(paras=card.lines, x=10, y=10, w=page.w - 20, h=page.h - 20, size=8, min=6, what=\"text\") }}\n\
                </svg>\n";
    std::fs::write(dir.path().join("templates/own/card.svg"), face).unwrap();
    let printed = cardsmith(&["print", "--format", "png", "--message-format", "short"], dir.path());
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "a warning does not stop the print: {err}");
    assert!(
        err.contains("cards/own.cards:6:3: warning[W0718]: an effect of `Freighter` is not printed on its face"),
        "{err}"
    );
    // Every effect of the card's own block, its condition's and steps' too.
    assert_eq!(err.matches("W0718]: an effect of `Freighter`").count(), 4, "{err}");
    assert_eq!(err.matches("W0718]: an effect of `Broker`").count(), 5, "{err}");
}

#[test]
fn the_starter_of_a_new_game_prints_every_effect() {
    let dir = tempfile::tempdir().unwrap();
    let made = cardsmith(&["new", "--ruleset", "game"], dir.path());
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let project = dir.path().join("game");
    let printed = cardsmith(&["print", "--format", "html", "--message-format", "short"], &project);
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "{err}");
    assert!(err.contains("0 errors, 0 warnings") && !err.contains("warning["), "{err}");
}

#[test]
fn undrawn_icons_alike_are_a_warning_at_the_ruleset_and_print_apart() {
    let dir = tempfile::tempdir().unwrap();
    own_game(dir.path());
    let printed = cardsmith(&["print", "--format", "html", "--message-format", "short"], dir.path());
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "cards/own.rules:8:1: warning[W0719]: the icons `bank-left` and `bank-right` have no drawing, \
             and both start with `Ba`"
        ),
        "{err}"
    );
    assert_eq!(err.matches("W0719").count(), 1, "{err}");
    let html = std::fs::read_to_string(dir.path().join("print/preview.html")).expect("preview");
    assert!(html.contains(">BL</text>") && html.contains(">BR</text>"), "the icons print alike");
    assert!(!html.contains(">Ba</text>"), "an icon still prints `Ba`");
}

#[test]
fn a_glyph_the_fonts_lack_is_a_warning_at_the_text() {
    let dir = tempfile::tempdir().unwrap();
    own_game(dir.path());
    let cards = dir.path().join("cards/own.cards");
    let text = std::fs::read_to_string(&cards).unwrap();
    std::fs::write(&cards, text.replace("Bank {bank-left}", "Bank ★ 龍 {bank-left}")).unwrap();
    let printed = cardsmith(&["print", "--format", "png", "--message-format", "short"], dir.path());
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "{err}");
    // The star is in DejaVu Sans; the CJK character is not.
    assert!(
        err.contains(
            "cards/own.cards:15:8: warning[W0720]: the text of `Freighter` holds `龍` (U+9F8D), \
             which the fonts have no glyph for"
        ),
        "{err}"
    );
    assert_eq!(err.matches("W0720").count(), 1, "{err}");
}

#[test]
fn a_field_a_template_leaves_out_is_a_warning_at_the_field() {
    let dir = tempfile::tempdir().unwrap();
    own_game(dir.path());
    std::fs::create_dir_all(dir.path().join("templates/own")).unwrap();
    // A face that prints the card's effects and its cost, and no other field.
    let face = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{{ page.width_mm }}mm\" \
                height=\"{{ page.height_mm }}mm\" viewBox=\"{{ page.viewbox }}\">\n\
                {{ text_box(paras=card.fields.cost.0.labelled | concat(with=card.paras), x=10, y=10, \
                w=page.w - 20, h=page.h - 20, size=8, min=6, what=\"text\") }}\n\
                </svg>\n";
    std::fs::write(dir.path().join("templates/own/card.svg"), face).unwrap();
    let printed = cardsmith(&["print", "--format", "png", "--message-format", "short"], dir.path());
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "{err}");
    let unprinted: Vec<&str> = err.lines().filter(|l| l.contains("W0718")).collect();
    // A field shows when its words are on the face: each card's faction is,
    // in its condition (`Ally Star Empire:`), so only the abilities and the
    // text are missing.
    let expected = [
        "cards/own.cards:14:3: warning[W0718]: the ability of `Freighter` is not printed on its face",
        "cards/own.cards:15:3: warning[W0718]: the text of `Freighter` is not printed on its face",
        "cards/own.cards:27:3: warning[W0718]: the ability of `Broker` is not printed on its face",
    ];
    assert_eq!(unprinted, expected, "{err}");
}
