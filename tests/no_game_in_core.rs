//! No game in the core: what a game means is in its `.rules` file, so the
//! Rust code under `src/` names no bundled game and none of the kinds,
//! roles, deck types, keywords, symbols, tags or sides the bundled rulesets
//! declare.  Comments, doc strings, prose (a help or explanation text, with
//! spaces in it) and unit tests may use them as examples; code may not.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top-level declarations whose names are a game's own terms.
const TERM_DECLARATIONS: &[&str] = &["kind", "role", "deck-type", "keyword", "symbol", "deck-symbol", "tag"];
/// Lines, at any depth, all of whose names are a game's terms: its sides.
const TERM_LISTS: &[&str] = &["side", "sides"];

/// Names a game declares that are also words of cardsmith's own language or
/// output, with where cardsmith uses them.
const LANGUAGE_WORDS: &[(&str, &str)] = &[
    ("deck", "the `deck` item of a card file, and `symbol != deck` in rules"),
    ("flag", "the `flag` field type"),
    ("code", "the `code` column of `lint --list`"),
    ("link", "a symbolic link, in the output checks"),
    ("first", "`missing first` in a tie-break rule"),
    ("last", "`missing last` in a tie-break rule"),
    ("if-needed", "the word after a tie-break `side` rule's sides that makes it the ultimate tiebreaker"),
];

#[test]
fn the_core_names_no_game_and_no_game_term() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (games, terms) = bundled_terms(root);
    assert!(terms.len() > 40, "the bundled rulesets declare too few terms to test: {terms:?}");
    let mut found = Vec::new();
    for file in rust_files(&root.join("src")) {
        let text = std::fs::read_to_string(&file).expect("readable source");
        // Unit tests sit in a `#[cfg(test)]` module at the end of a file.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
        for token in tokens(code) {
            let hit = match &token {
                Token::Literal(text, line) => terms.contains(text.as_str()).then_some((text, line)),
                Token::Ident(word, line) => {
                    games.iter().any(|g| word.to_lowercase().contains(g)).then_some((word, line))
                }
            };
            if let Some((word, line)) = hit {
                found.push(format!("{shown}:{line}: `{word}`"));
            }
        }
    }
    assert!(found.is_empty(), "game terms in the core; say them in a ruleset instead:\n{}", found.join("\n"));
}

/// The bundled games' names (each word of their ids, such as `dropfleet`)
/// and the terms their rulesets declare, less cardsmith's own words.
fn bundled_terms(root: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut games = BTreeSet::new();
    let mut terms = BTreeSet::new();
    for entry in std::fs::read_dir(root.join("cards")).expect("cards/") {
        let folder = entry.expect("entry").path();
        let id = folder.file_name().and_then(|n| n.to_str()).expect("a UTF-8 name").to_string();
        let Ok(rules) = std::fs::read_to_string(folder.join(format!("{id}.rules"))) else { continue };
        games.extend(id.split('-').filter(|w| w.len() > 3).map(str::to_string));
        terms.insert(id);
        for line in rules.lines() {
            let line = line.split("//").next().unwrap_or_default();
            let top_level = !line.starts_with(char::is_whitespace);
            let mut words = line.split_whitespace();
            let Some(first) = words.next() else { continue };
            let names = words.take_while(|w| w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
            if TERM_LISTS.contains(&first) {
                terms.extend(names.map(str::to_string));
            } else if top_level && TERM_DECLARATIONS.contains(&first) {
                terms.extend(names.take(1).map(str::to_string));
            }
        }
    }
    for (word, _) in LANGUAGE_WORDS {
        terms.remove(*word);
    }
    (games, terms)
}

fn rust_files(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![folder.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[derive(Debug)]
enum Token {
    /// A string literal without white space (prose is allowed), and its line.
    Literal(String, usize),
    /// An identifier in code, and its line.
    Ident(String, usize),
}

/// The identifiers and short string literals of Rust code, comments and doc
/// comments left out.
fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let end = find(&chars, i + 2, &['*', '/']).unwrap_or(chars.len());
            line += chars[i..end].iter().filter(|&&c| c == '\n').count();
            i = end + 2;
        } else if c == 'r' && matches!(chars.get(i + 1), Some('#') | Some('"')) {
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            let start = i + 2 + hashes;
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let end = find(&chars, start, &close).unwrap_or(chars.len());
            literal(&chars[start.min(end)..end], line, &mut tokens);
            line += chars[i..end].iter().filter(|&&c| c == '\n').count();
            i = end + close.len();
        } else if c == '"' {
            let mut end = i + 1;
            while end < chars.len() && chars[end] != '"' {
                end += if chars[end] == '\\' { 2 } else { 1 };
            }
            let end = end.min(chars.len());
            literal(&chars[i + 1..end], line, &mut tokens);
            line += chars[i..end].iter().filter(|&&c| c == '\n').count();
            i = end + 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Ident(chars[start..i].iter().collect(), line));
        } else {
            i += 1;
        }
    }
    tokens
}

fn literal(text: &[char], line: usize, tokens: &mut Vec<Token>) {
    if !text.iter().any(|c| c.is_whitespace()) {
        tokens.push(Token::Literal(text.iter().collect(), line));
    }
}

fn find(chars: &[char], from: usize, needle: &[char]) -> Option<usize> {
    (from..chars.len().saturating_sub(needle.len() - 1)).find(|&at| chars[at..at + needle.len()] == *needle)
}

#[test]
fn the_reader_finds_literals_and_identifiers_but_not_comments() {
    let code = "// offense\nlet x = \"offense\"; /* boost */ let y = r#\"event\"#;\nfn dropfleet_x() { \"a b\" }";
    let found: Vec<String> = tokens(code)
        .into_iter()
        .map(|t| match t {
            Token::Literal(text, line) => format!("L{line}:{text}"),
            Token::Ident(word, line) => format!("I{line}:{word}"),
        })
        .collect();
    assert_eq!(found, ["I2:let", "I2:x", "L2:offense", "I2:let", "I2:y", "L2:event", "I3:fn", "I3:dropfleet_x"]);
}
