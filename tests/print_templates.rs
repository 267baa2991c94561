//! A project's own face templates: one put in `templates/<game>/` under the
//! name of a bundled one replaces it, one that writes broken SVG is an error
//! at the card it drew, and Tabletop Simulator decks keep a card's own back.

mod common;
use common::{bundled_project, cardsmith, contents, stderr};

use std::path::Path;

fn project(dir: &Path, cards: &str) {
    std::fs::write(dir.join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    std::fs::create_dir_all(dir.join("cards")).expect("cards");
    std::fs::write(dir.join("cards/test.cards"), cards).expect("cards");
}

const EVENT: &str = "game dreadnaught-2e\n\nevent \"Quick Repairs\" {\n  at 3.0 { increase damage 1 }\n}\n";

fn template(dir: &Path, name: &str, text: &str) {
    let folder = dir.join("templates/dreadnaught-2e");
    std::fs::create_dir_all(&folder).expect("templates");
    std::fs::write(folder.join(name), text).expect("template");
}

#[test]
fn a_project_template_replaces_the_bundled_one_of_the_same_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let boost = "\nboost \"Targeting Uplink\" {\n  power 2\n  at 3.5 { impact damage +1 }\n}\n";
    project(dir.path(), &format!("{EVENT}{boost}"));
    template(
        dir.path(),
        "event.svg",
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{{ page.viewbox }}"><text x="10" y="20">House frame: {{ card.name }}</text></svg>"#,
    );
    let output = cardsmith(&["print", "--format", "html"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let preview = std::fs::read_to_string(dir.path().join("print/preview.html")).expect("preview");
    assert!(preview.contains("House frame: Quick Repairs"), "the override was not used");
    // Only the template of that name changed: the Boost Card is drawn as ever.
    assert_eq!(preview.matches("House frame").count(), 1, "{preview}");
    assert!(preview.contains(">Targeting Uplink</text>"), "the bundled boost template went missing");
}

#[test]
fn a_template_that_writes_broken_svg_is_an_error_at_the_card() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path(), EVENT);
    template(dir.path(), "event.svg", r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="3"></svg>"#);
    let output = cardsmith(&["print", "--format", "pdf"], dir.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("error[E0704]: the front drawn for `Quick Repairs` is not valid SVG"), "{err}");
    assert!(err.contains("cards/test.cards:3:1"), "the diagnostic points at the card: {err}");
    assert!(err.contains("nothing written"), "{err}");
    assert!(!dir.path().join("print").exists(), "nothing is written");
}

#[test]
fn a_card_with_its_own_back_gets_a_sheet_of_backs_in_tabletop_simulator() {
    // The System Card's reverse is a back no other card shows.
    let dir = bundled_project("dreadnaught-2e");
    let output = cardsmith(&["print", "--format", "tts", "--deck", "Kinetic"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let files = contents(&dir.path().join("print"));
    let object: serde_json::Value = serde_json::from_slice(&files["tts/kinetic.json"]).expect("saved object");
    let sheet = &object["ObjectStates"][0]["CustomDeck"]["1"];
    assert_eq!(sheet["UniqueBack"], true, "{sheet}");
    let back = sheet["BackURL"].as_str().expect("an address");
    assert!(back.starts_with("file:///") && back.ends_with("/print/tts/kinetic-1-backs.png"), "{back}");
    assert!(files.contains_key("tts/kinetic-1-backs.png"), "{:?}", files.keys());
    assert!(files.contains_key("tts/kinetic-back.png"), "the common back is still there");
}

#[test]
fn a_text_box_in_a_project_font_wraps_by_that_fonts_widths() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path(), EVENT);
    let serif = common::repo().join("examples/art-deck/fonts/DejaVuSerifCondensed-Bold.ttf");
    std::fs::copy(serif, dir.path().join("serif.ttf")).expect("font");
    let manifest = "[project]\npaths = [\"cards\"]\n\n[print]\nfonts = [\"serif.ttf\"]\n";
    std::fs::write(dir.path().join("cardsmith.toml"), manifest).expect("manifest");
    let lines = |font: &str| {
        let call = format!(
            "{{{{ text_box(paras=[card.name ~ \" restores one hull point to every ship\"], x=10, y=10, w=120, h=200, \
             size=9, min=9{font}) }}}}"
        );
        template(
            dir.path(),
            "event.svg",
            &format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{{{{ page.viewbox }}}}">{call}</svg>"#),
        );
        let output = cardsmith(&["print", "--format", "html"], dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let preview = std::fs::read_to_string(dir.path().join("print/preview.html")).expect("preview");
        let face = &preview[preview.find("viewBox").expect("a face")..];
        (face[..face.find("</svg>").expect("its end")].matches("<text").count(), preview)
    };
    let (bundled, _) = lines("");
    let (serif, preview) = lines(", font=fonts | first");
    assert!(serif > bundled, "{serif} lines in the project font, {bundled} in the bundled one");
    assert!(preview.contains("<g font-family=\"DejaVu Serif\">"), "drawn in the font it was measured in");
}

/// A role's mark that the icons do not draw is an error at the mark, before
/// anything is written: faces would print a placeholder in its place.
#[test]
fn a_mark_with_no_icon_is_an_error_at_the_ruleset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rules = "ruleset marked {\n  title \"Marked\"\n}\n\nsymbol coin \"Coin\"\n\
                 role gain \"Gain\" { colour gold; mark squre }\n\n\
                 kind ware \"Ware\" {\n  roles gain\n  field play effects\n}\n";
    project(dir.path(), "game marked\n\nware \"Lamp\" {\n  play { gain coin 1 }\n}\n");
    std::fs::write(dir.path().join("cards/marked.rules"), rules).expect("rules");
    let output = cardsmith(&["print", "--format", "html"], dir.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("error[E0715]: no icon is named `squre`"), "{err}");
    assert!(err.contains("cards/marked.rules:6:38"), "the diagnostic points at the mark: {err}");
    assert!(!dir.path().join("print").exists(), "nothing is written");
}

/// The colour of the pixel at `(x, y)` of a PNG, as `[r, g, b]`.
fn pixel(png_bytes: &[u8], x: u32, y: u32) -> [u8; 3] {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
    let frame = reader.next_frame(&mut buffer).expect("a frame");
    let channels = frame.color_type.samples();
    let at = (y as usize * frame.width as usize + x as usize) * channels;
    [buffer[at], buffer[at + 1], buffer[at + 2]]
}

#[test]
fn templates_written_into_the_project_are_what_print_draws_once_edited() {
    let dir = tempfile::tempdir().expect("temp dir");
    let made = cardsmith(&["new", "own", "--ruleset"], dir.path());
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let project = dir.path().join("own");
    let written = cardsmith(&["templates", "own"], &project);
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    let folder = project.join("templates/own");
    for name in ["card.svg", "back.svg", "icons.svg"] {
        assert!(folder.join(name).is_file(), "{name} was not written: {}", stderr(&written));
    }
    // The generic face, copied: the card's white body becomes yellow.
    let face = std::fs::read_to_string(folder.join("card.svg")).expect("the face");
    let body = r##"rx="6" fill="#ffffff"/>"##;
    assert_eq!(face.matches(body).count(), 1, "{face}");
    std::fs::write(folder.join("card.svg"), face.replace(body, r##"rx="6" fill="#ffe08a"/>"##)).expect("edited");
    let printed = cardsmith(&["print", "--format", "png", "--dpi", "100"], &project);
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    let faces = contents(&project.join("print/png/own"));
    let (name, bytes) =
        faces.iter().find(|(name, _)| !name.contains("back") && name.ends_with(".png")).expect("a face");
    assert_eq!(pixel(bytes, 125, 200), [0xff, 0xe0, 0x8a], "{name} is not drawn by the edited template");
    // A second export would replace the edit: it is refused, naming the files.
    let again = cardsmith(&["templates", "own"], &project);
    let err = stderr(&again);
    assert_eq!(again.status.code(), Some(2), "{err}");
    assert!(err.contains("already holds back.svg, card.svg, icons.svg; nothing written"), "{err}");
    assert!(
        std::fs::read_to_string(folder.join("card.svg")).expect("the face").contains("#ffe08a"),
        "the edit was lost"
    );
}

#[test]
fn templates_of_a_game_that_is_neither_bundled_nor_the_projects_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path(), EVENT);
    let output = cardsmith(&["templates", "no-such-game"], dir.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("no game `no-such-game` is bundled or in the project"), "{err}");
    assert!(!dir.path().join("templates").exists());
    let bundled = cardsmith(&["templates", "dreadnaught-2e", "-o", "faces"], dir.path());
    assert_eq!(bundled.status.code(), Some(0), "{}", stderr(&bundled));
    assert!(dir.path().join("faces/dreadnaught-2e/_frame.svg").is_file());
    assert!(dir.path().join("faces/dreadnaught-2e/icons.svg").is_file());
}

#[test]
fn the_generic_back_names_the_deck_only_when_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let made = cardsmith(&["new", "own", "--ruleset"], dir.path());
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let project = dir.path().join("own");
    let back = |extra: &[&str], out: &str| {
        let args = [&["print", "--format", "png", "--dpi", "60", "-o", out][..], extra].concat();
        let printed = cardsmith(&args, &project);
        assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
        std::fs::read(project.join(out).join("png/own/back.png")).expect("the back")
    };
    let (plain, named) = (back(&[], "a"), back(&["--backs-named"], "b"));
    // Renaming the deck changes the back only where the back names it.
    let cards = project.join("cards/own.cards");
    let text = std::fs::read_to_string(&cards).expect("cards");
    assert!(text.contains("deck \"Own Starting Deck\""), "{text}");
    std::fs::write(&cards, text.replace("deck \"Own Starting Deck\"", "deck \"Zebra Crossing\"")).expect("renamed");
    assert_eq!(back(&[], "c"), plain, "the default back shows the deck's name");
    assert_ne!(back(&["--backs-named"], "d"), named, "--backs-named does not show the deck's name");
    // The same from cardsmith.toml.
    let manifest = project.join("cardsmith.toml");
    let settings = std::fs::read_to_string(&manifest).expect("manifest");
    std::fs::write(&manifest, format!("{settings}\n[print]\nbacks-named = true\n")).expect("manifest");
    assert_eq!(back(&[], "e"), back(&["--backs-named"], "f"));
}
