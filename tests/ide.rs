//! The editor analysis (`cardsmith::ide`) over a bundled game whose decks
//! have words of their own: Dropfleet's fleets list battlegroups, which list
//! ships on `group` lines.

use cardsmith::ide::{Analysis, SymbolKind};
use cardsmith::workspace::Workspace;

fn dropfleet() -> Analysis {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/dropfleet-1.3");
    let mut paths: Vec<_> =
        std::fs::read_dir(&folder).expect("the game's folder").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    let mut workspace = Workspace::new();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "cards" || e == "rules")) {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        workspace.add_bytes(name, std::fs::read(path).expect("readable"));
    }
    Analysis::new(workspace.check())
}

#[test]
fn fleet_words_lead_to_cards_and_decks() {
    let analysis = dropfleet();
    let fleets = analysis.file_named("fleets.cards").expect("the fleets");
    let text = analysis.files.get(fleets).text.clone();
    let at = |needle: &str| text.find(needle).expect("in the fleets") + 2;

    // A ship on a `group` line goes to its card.
    let ship = analysis.definition(fleets, at("\"UCM Toulon\" x3"));
    assert_eq!(ship.len(), 1);
    assert_eq!(analysis.files.get(ship[0].file).name, "ucm.cards");
    assert_eq!(analysis.files.text(ship[0]), "\"UCM Toulon\"");

    // A fleet's name hovers with its type and size.
    let fleet = analysis.hover(fleets, at("\"Lantern Patrol\"")).expect("a hover");
    assert!(fleet.markdown.starts_with("**Lantern Patrol** — "), "{}", fleet.markdown);
    assert!(fleet.markdown.ends_with(" cards"), "{}", fleet.markdown);

    // Uses of a ship: its card and every group line naming it.
    let uses = analysis.references(fleets, at("\"UCM Toulon\" x3"));
    let lines = text.matches("\"UCM Toulon\"").count();
    assert_eq!(uses.len(), lines + 1, "{uses:?}");

    // The outline lists the fleets as decks.
    let symbols = analysis.symbols(fleets);
    assert!(symbols.iter().any(|s| s.name == "Lantern Patrol" && s.kind == SymbolKind::Deck), "{symbols:?}");
    assert!(symbols.iter().all(|s| s.kind == SymbolKind::Deck));
}

/// Every question at every offset of files with mistakes of every kind,
/// cut short at every line: answers may be empty, but nothing panics.
#[test]
fn every_offset_of_broken_files_is_answered() {
    let text = "game dreadnaught-2e\n\noffense \"Spinal “Lance”\" primary {\n  symbol kinetic\n  arc narow\n  at 2.4 {\n    impact damage 8+\n    when range long.. { impact damage +2 }\n  }\n  keywords unstoppable(damage, 𝔠)\n  text \"Deal {damage} to *Spinal “Lance”* and {unclosed\n  ) stray\n  grid { arrows green\n}\n\ndeck \"D\" draw {\n  card \"Spinal “Lance”\" x2\n  deck \"D\"\n  card \"\n}\n";
    let cut_points: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
    for end in cut_points {
        let mut workspace = Workspace::new();
        workspace.add_text("a.cards", &text[..end]);
        let analysis = Analysis::new(workspace.check());
        let file = analysis.file_named("a.cards").expect("loaded");
        for offset in 0..=end + 2 {
            let _ = analysis.hover(file, offset);
            let _ = analysis.definition(file, offset);
            let _ = analysis.completions(file, offset);
            let _ = analysis.actions(file, offset, offset + 3);
            if offset % 5 == 0 {
                let _ = analysis.references(file, offset);
            }
        }
        let _ = analysis.symbols(file);
        let _ = analysis.highlights(file);
        let _ = analysis.workspace_symbols("“");
    }
}
