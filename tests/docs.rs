//! The designer's guide keeps up with the bundled cards: every construct a
//! bundled card file uses is documented in docs/language.md.  Dreadnaught 2e
//! is the guide's running example, so all of its vocabulary must appear; for
//! the other games, the vocabulary their rulesets declare (their kinds and
//! fields) is documented by the ruleset itself, and only the language's own
//! constructs must appear in the guide.

use cardsmith::ruleset::model::{Ruleset, Schema};
use cardsmith::syntax::{self, ast::Node};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn node_names(nodes: &[Node], names: &mut BTreeSet<String>) {
    for node in nodes {
        names.insert(node.name.text.clone());
        if let Some(block) = &node.block {
            node_names(&block.nodes, names);
        }
    }
}

fn files_with(dir: &Path, extension: &str, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("cards folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files_with(&path, extension, found);
        } else if path.extension().is_some_and(|e| e == extension) {
            found.push(path);
        }
    }
}

fn schema_words(schema: &Schema, ruleset: &Ruleset, words: &mut BTreeSet<String>) {
    for field in &schema.fields {
        words.insert(field.name.clone());
        schema_words(&field.schema, ruleset, words);
    }
    if let Some(shape) = schema.shape.as_deref().and_then(|s| ruleset.shape(s)) {
        schema_words(shape, ruleset, words);
    }
}

/// The words a ruleset itself declares for its cards and decks.
fn vocabulary(ruleset: &Ruleset) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for kind in &ruleset.kinds {
        words.insert(kind.id.clone());
        schema_words(&kind.schema, ruleset, &mut words);
    }
    for (_, shape) in &ruleset.shapes {
        schema_words(shape, ruleset, &mut words);
    }
    for deck in &ruleset.deck_types {
        words.insert(deck.word.clone());
        words.extend(deck.entry.iter().cloned());
        words.extend(deck.match_field.iter().cloned());
    }
    words.extend(ruleset.roles.iter().map(|r| r.id.clone()));
    words
}

#[test]
fn language_guide_covers_every_construct_used_in_cards() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/language.md")).expect("docs/language.md exists");
    let mut workspace = cardsmith::workspace::Workspace::new();
    let mut rules = Vec::new();
    files_with(&root.join("cards"), "rules", &mut rules);
    for path in &rules {
        workspace.add_bytes(&path.display().to_string(), std::fs::read(path).expect("readable"));
    }
    let outcome = workspace.check();
    let mut files = Vec::new();
    files_with(&root.join("cards"), "cards", &mut files);
    assert!(!files.is_empty());
    let mut missing = BTreeSet::new();
    for path in files {
        let mut table = cardsmith::source::Files::new();
        let id = table.add(path.display().to_string(), std::fs::read_to_string(&path).expect("readable"));
        let mut diagnostics = Vec::new();
        let tree = syntax::parse(&table, id, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{} does not parse", path.display());
        let game = cardsmith::check::game_of(&tree).unwrap_or("").to_string();
        let exempt = match outcome.project.games.iter().find(|g| g.ruleset.id == game) {
            Some(g) if game != "dreadnaught-2e" => vocabulary(&g.ruleset),
            _ => BTreeSet::new(),
        };
        let mut names = BTreeSet::new();
        node_names(&tree.nodes, &mut names);
        missing.extend(names.into_iter().filter(|n| !exempt.contains(n) && !guide.contains(&format!("`{n}"))));
    }
    assert!(missing.is_empty(), "docs/language.md never shows these constructs: {missing:?}");
}

/// Every diagnostic code the documentation names exists, so a reader who
/// runs `cardsmith explain CODE` on it gets an answer.
#[test]
fn every_code_named_in_the_docs_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    files_with(&root.join("docs"), "md", &mut pages);
    let mut named = 0;
    for page in pages {
        let text = std::fs::read_to_string(&page).expect("readable page");
        for (at, _) in text.match_indices(['E', 'W', 'L']) {
            let Some(code) = text.get(at..at + 5) else { continue };
            let boundary_before = text[..at].chars().next_back().is_none_or(|c| !c.is_ascii_alphanumeric());
            let boundary_after = text[at + code.len()..].chars().next().is_none_or(|c| !c.is_ascii_alphanumeric());
            if code.len() == 5 && code[1..].bytes().all(|b| b.is_ascii_digit()) && boundary_before && boundary_after {
                named += 1;
                assert!(
                    cardsmith::codes::find(code).is_some(),
                    "{} names {code}, which is no diagnostic code",
                    page.display()
                );
            }
        }
    }
    assert!(named > 20, "the docs name diagnostic codes ({named} found)");
}
