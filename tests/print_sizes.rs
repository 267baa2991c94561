//! Every bundled card on every named card size and a landscape one:
//! `cardsmith print cards/ --card S` exits 0, and no text region overflows,
//! prints under the 6 pt minimum, runs off the card or covers another.  The
//! faces are laid out and checked at the SVG stage (the HTML preview), where
//! every text region is measured; no pixels are needed.

mod common;
use common::{bundled_project, cardsmith, repo, stderr};

/// The layout warnings: text cut off, under the minimum size, off the card
/// or over another region.
const LAYOUT: &[&str] = &["warning[E0701]", "warning[E0705]", "warning[E0706]"];

/// Prints every bundled card at `size` and returns the layout warnings.
fn layout_warnings(size: &str) -> Vec<String> {
    let out = tempfile::tempdir().expect("temp dir");
    let target = out.path().join("print");
    let target = target.to_str().expect("utf-8 path");
    let output = cardsmith(&["print", "cards/", "-o", target, "--format", "html", "--card", size], repo());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "--card {size}: {err}");
    assert!(!err.contains("error["), "--card {size}: {err}");
    err.lines().filter(|l| LAYOUT.iter().any(|code| l.starts_with(code))).map(str::to_string).collect()
}

/// Every named size and landscape poker: the templates scale their frame to
/// the card and give the text the room it needs, so not one region of any
/// bundled card is cut off, printed under 6 pt, off the card or over
/// another (Dropfleet's ships print at their own 70 × 120 mm whatever
/// `--card` says).
#[test]
fn every_bundled_card_fits_on_every_named_size_and_landscape() {
    for size in ["poker", "bridge", "tarot", "mini", "70x120", "88.9x63.5"] {
        let warnings = layout_warnings(size);
        assert!(warnings.is_empty(), "--card {size}:\n{}", warnings.join("\n"));
    }
}

#[test]
fn the_minimum_type_size_is_the_projects_to_choose() {
    let dir = bundled_project("dreadnaught-2e");
    let manifest = dir.path().join("cardsmith.toml");
    let base = std::fs::read_to_string(&manifest).expect("manifest");
    // At 9 pt, the rules of the longer cards no longer fit unshrunk.
    std::fs::write(&manifest, format!("{base}[print]\nmin-text = 9\n")).expect("manifest");
    let output = cardsmith(&["print", "--format", "html"], dir.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(err.contains("below the 9pt minimum"), "{err}");
    assert!(err.contains("warning[E0705]: the rules text of `Precision Strike` prints at"), "{err}");
    // The command line wins, and 6 pt is met.
    let output = cardsmith(&["print", "--format", "html", "--min-text", "6"], dir.path());
    assert!(!stderr(&output).contains("E0705"), "{}", stderr(&output));
    let output = cardsmith(&["print", "--format", "html", "--min-text", "0.5"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("a minimum type size of 0.5 pt is out of range (1 to 72)"), "{}", stderr(&output));
}

#[test]
fn a_kind_size_the_print_command_does_not_know_is_a_ruleset_error_at_its_line() {
    let project = bundled_project("dropfleet-1.3");
    let rules = project.path().join("cards/dropfleet-1.3.rules");
    let text = std::fs::read_to_string(&rules).expect("the ruleset");
    assert!(text.contains("card-size \"70x120\""), "the ship kind has its own size");
    std::fs::write(&rules, text.replace("card-size \"70x120\"", "card-size \"5x900\"")).expect("rewrite");
    let output = cardsmith(&["check"], project.path());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("error[E0103]: `card-size` takes one size"), "{err}");
    assert!(err.contains("dropfleet-1.3.rules:"), "{err}");
}

#[test]
fn a_projects_sizes_win_over_the_rulesets_and_name_real_kinds() {
    let project = bundled_project("dropfleet-1.3");
    let manifest = project.path().join("cardsmith.toml");
    let base = std::fs::read_to_string(&manifest).expect("the manifest");
    let sized = |sizes: &str| {
        std::fs::write(&manifest, format!("{base}\n[print.sizes]\n{sizes}\n")).expect("the manifest");
        cardsmith(&["print", "--format", "html", "--card", "bridge"], project.path())
    };
    let output = sized("ship = \"poker\"\ncommand = \"tarot\"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let html = std::fs::read_to_string(project.path().join("print/preview.html")).expect("the preview");
    // 27 ships and 5 command cards at the project's sizes; the scenario and
    // the 3 Space Stations at the ruleset's (70 × 120 mm); the 31 others at
    // `--card`.
    let count = |size: &str| html.matches(&format!("--w: {size}")).count();
    assert_eq!((count("63.5mm; --h: 88.9mm"), count("70mm; --h: 120mm"), count("57.15mm; --h: 88.9mm")), (27, 9, 31));
    let output = sized("shipp = \"tarot\"");
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("gives `shipp` a size, but no printed game has a kind `shipp`"), "{err}");
    assert!(err.contains("did you mean `ship`?"), "{err}");
}
