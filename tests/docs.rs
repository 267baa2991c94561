//! The designer's guide keeps up with the bundled cards: every construct a
//! bundled card file uses is documented.

use cardsmith::syntax::{self, ast::Node};
use std::collections::BTreeSet;
use std::path::Path;

fn node_names(nodes: &[Node], names: &mut BTreeSet<String>) {
    for node in nodes {
        names.insert(node.name.text.clone());
        if let Some(block) = &node.block {
            node_names(&block.nodes, names);
        }
    }
}

fn card_files(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("cards folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            card_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "cards") {
            found.push(path);
        }
    }
}

#[test]
fn language_guide_covers_every_construct_used_in_cards() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/language.md")).expect("docs/language.md exists");
    let mut files = Vec::new();
    card_files(&root.join("cards"), &mut files);
    assert!(!files.is_empty());
    let mut names = BTreeSet::new();
    for path in files {
        let mut table = cardsmith::source::Files::new();
        let id = table.add(path.display().to_string(), std::fs::read_to_string(&path).expect("readable"));
        let mut diagnostics = Vec::new();
        let tree = syntax::parse(&table, id, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{} does not parse", path.display());
        node_names(&tree.nodes, &mut names);
    }
    let missing: Vec<&String> = names.iter().filter(|n| !guide.contains(&format!("`{n}"))).collect();
    assert!(missing.is_empty(), "docs/language.md never shows these constructs: {missing:?}");
}
