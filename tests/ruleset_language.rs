//! The ruleset language is declared once (`src/ruleset/language.rs`): the
//! bundled rulesets use only lines it declares, its examples read as the
//! lines they show, and the reference in docs/rulesets.md is the one it
//! writes.

mod common;

use cardsmith::ruleset::language::{self, Body, Vocabulary};
use cardsmith::source::Files;
use cardsmith::syntax::{self, ast::Node};

const BEGIN: &str = "<!-- reference: begin -->\n";
const END: &str = "<!-- reference: end -->\n";

/// Every line of `nodes`, read as standing in `place`, is one it declares;
/// the lines of a data block (an enum's values) are not the language's.
fn undeclared(nodes: &[Node], place: &'static dyn Vocabulary, path: &str, out: &mut Vec<String>) {
    for node in nodes {
        let name = node.name.text.as_str();
        let Some(about) = place.lines().into_iter().find(|a| a.name == name) else {
            out.push(format!("{path}/{name}"));
            continue;
        };
        if let (Body::Lines(inner), Some(block)) = (&about.body, &node.block) {
            undeclared(&block.nodes, *inner, &format!("{path}/{name}"), out);
        }
    }
}

#[test]
fn every_line_of_the_bundled_rulesets_is_declared() {
    let mut read = 0;
    let mut missing = Vec::new();
    for game in std::fs::read_dir(common::repo().join("cards")).expect("cards").flatten() {
        for file in std::fs::read_dir(game.path()).expect("a game").flatten().map(|e| e.path()) {
            if file.extension().is_none_or(|e| e != "rules") {
                continue;
            }
            let mut files = Files::new();
            let id = files.add(file.display().to_string(), std::fs::read_to_string(&file).expect("readable"));
            let tree = syntax::parse(&files, id, &mut Vec::new());
            let (header, rest) = tree.nodes.split_first().expect("a ruleset line");
            assert_eq!(header.name.text, language::HEADER.name);
            let header_lines = header.block.as_ref().map(|b| b.nodes.as_slice()).unwrap_or_default();
            undeclared(header_lines, &language::HEADER_LINES, "ruleset", &mut missing);
            undeclared(rest, &language::FILE, &file.display().to_string(), &mut missing);
            read += rest.len();
        }
    }
    assert!(read > 250, "the bundled rulesets were not found ({read} declarations)");
    assert!(missing.is_empty(), "lines the language does not declare: {missing:?}");
}

/// Each example parses as one line of the name it documents.
#[test]
fn every_example_is_a_line_of_its_name() {
    let mut places: Vec<&'static dyn Vocabulary> = vec![&language::HEADER_LINES, &language::FILE];
    let mut next = 0;
    let mut seen = 0;
    while let Some(&place) = places.get(next) {
        next += 1;
        for about in place.lines() {
            seen += 1;
            let mut files = Files::new();
            let id = files.add("example.rules", about.example.to_string());
            let mut diagnostics = Vec::new();
            let tree = syntax::parse(&files, id, &mut diagnostics);
            assert!(diagnostics.is_empty(), "`{}` does not parse: {:?}", about.example, diagnostics[0].message);
            assert_eq!(tree.nodes.len(), 1, "`{}` is one line", about.example);
            assert_eq!(tree.nodes[0].name.text, about.name, "the example of `{}`", about.name);
            if let Body::Lines(inner) = about.body {
                if !places.iter().any(|p| p.place() == inner.place()) {
                    places.push(inner);
                }
            }
        }
    }
    assert!(seen > 80, "{seen} lines");
}

#[test]
fn the_reference_in_the_docs_is_the_one_the_language_writes() {
    let path = common::repo().join("docs/rulesets.md");
    let text = std::fs::read_to_string(&path).expect("docs/rulesets.md");
    let (Some(begin), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        panic!("docs/rulesets.md has no `{}` … `{}` section", BEGIN.trim(), END.trim());
    };
    let generated = language::reference();
    if std::env::var_os("CARDSMITH_BLESS").is_some() {
        let updated = format!("{}{BEGIN}{generated}{}", &text[..begin], &text[end..]);
        std::fs::write(&path, updated).expect("write docs/rulesets.md");
        return;
    }
    assert!(
        text[begin + BEGIN.len()..end] == generated,
        "the reference in docs/rulesets.md is out of date: rewrite it with CARDSMITH_BLESS=1 cargo test --test \
         ruleset_language"
    );
}
