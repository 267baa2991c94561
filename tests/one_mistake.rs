//! One mistake, one message.  Each kind of mistake a designer makes is
//! injected, one at a time, into every bundled game and the example game,
//! and the check must report it — and nothing else: at most one error.
//!
//! A mutation finds the first place in a game's files where it applies
//! (a card's head, a field line, a deck's card line, a ruleset's kind…) and
//! changes it there.  A mistake that still floods is listed in
//! [`KNOWN_FLOODS`] with what it gives, so the test fails both when a flood
//! grows and when one is fixed (take it out of the list then).

use cardsmith::diagnostics::Severity;
use cardsmith::workspace::Workspace;
use std::path::Path;

mod common;

/// The games: each folder's `.rules` and `.cards` files are checked together.
const GAMES: &[&str] = &[
    "cards/dreadnaught-1e",
    "cards/dreadnaught-2e",
    "cards/dreadnought-tcg",
    "cards/dropfleet-1.3",
    "examples/lantern-market/cards",
];

/// Mistakes that still give more than one error, as (mutation, game
/// folder, errors given).
const KNOWN_FLOODS: &[(&str, &str, usize)] = &[];

/// A file of a game: its name and text.
type File = (String, String);

/// A kind of mistake: its name, which files it applies to, and the change,
/// `None` where it does not apply.
struct Mutation {
    name: &'static str,
    rules: bool,
    apply: fn(&str) -> Option<String>,
}

/// The lines of `text`, with the index of the first that `pick` accepts
/// changed by `change` (or removed, when `change` gives `None`).
fn at_first_line(text: &str, pick: impl Fn(&str) -> bool, change: impl Fn(&str) -> Option<String>) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at = lines.iter().position(|line| pick(line.trim_end()))?;
    let mut out: String = lines[..at].concat();
    if let Some(changed) = change(lines[at].trim_end_matches(['\n', '\r'])) {
        out.push_str(&changed);
        out.push('\n');
    }
    out.push_str(&lines[at + 1..].concat());
    Some(out)
}

/// A card's head line: a kind, a quoted name, an opening brace.
fn is_card_head(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let kind = words.next().unwrap_or_default();
    !line.starts_with(' ')
        && kind.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && !["game", "deck", "ruleset"].contains(&kind)
        && line.contains('"')
        && line.ends_with('{')
}

/// A field line of a card: indented, a name and at least one plain value.
fn is_field_line(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let starts = line.starts_with("  ") && !line.starts_with("   ");
    let name = words.next().unwrap_or_default();
    let value = words.next().unwrap_or_default();
    starts
        && !line.contains('{')
        && !line.contains('}')
        && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        && !["card", "deck", "text", "require", "recommend", "allow", "warn", "deny"].contains(&name)
        && value.chars().next().is_some_and(|c| c.is_ascii_lowercase())
}

/// The first word of a line changed into a near miss.
fn misspell_first_word(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start().len();
    let word_end = line[indent..].find([' ', '(']).map_or(line.len(), |e| indent + e);
    Some(format!("{}{}q{}", &line[..indent], &line[indent..word_end], &line[word_end..]))
}

/// The second word of a line changed into a near miss.
fn misspell_second_word(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start().len();
    let first_end = indent + line[indent..].find(' ')?;
    let second = first_end + 1;
    let second_end = line[second..].find([' ', '(', ',']).map_or(line.len(), |e| second + e);
    (second_end > second).then(|| format!("{}q{}", &line[..second_end], &line[second_end..]))
}

const MUTATIONS: &[Mutation] = &[
    Mutation {
        name: "a card's `{` is missing",
        rules: false,
        apply: |text| at_first_line(text, is_card_head, |line| Some(line.trim_end_matches('{').trim_end().to_string())),
    },
    Mutation {
        name: "a card's kind is misspelt",
        rules: false,
        apply: |text| at_first_line(text, is_card_head, misspell_first_word),
    },
    Mutation {
        name: "a card's name has no closing quote",
        rules: false,
        apply: |text| {
            at_first_line(text, is_card_head, |line| {
                let close = line.rfind('"')?;
                Some(format!("{}{}", &line[..close], &line[close + 1..]))
            })
        },
    },
    Mutation {
        name: "a field's name is misspelt",
        rules: false,
        apply: |text| at_first_line(text, is_field_line, misspell_first_word),
    },
    Mutation {
        name: "a field's value is misspelt",
        rules: false,
        apply: |text| at_first_line(text, is_field_line, misspell_second_word),
    },
    Mutation {
        name: "a field's value is a number where a name is wanted",
        rules: false,
        apply: |text| {
            at_first_line(text, is_field_line, |line| {
                let mut words: Vec<&str> = line.split(' ').collect();
                let at = words.iter().position(|w| !w.is_empty())? + 1;
                *words.get_mut(at)? = "7";
                Some(words.join(" "))
            })
        },
    },
    Mutation {
        name: "a field's line is given twice",
        rules: false,
        apply: |text| at_first_line(text, is_field_line, |line| Some(format!("{line}\n{line}"))),
    },
    Mutation {
        name: "a card's closing `}` is missing",
        rules: false,
        apply: |text| {
            let head = text.lines().position(is_card_head)?;
            let lines: Vec<&str> = text.lines().collect();
            let close = head + lines[head..].iter().position(|l| *l == "}")?;
            let kept: Vec<&str> = lines.iter().enumerate().filter(|(i, _)| *i != close).map(|(_, l)| *l).collect();
            Some(kept.join("\n") + "\n")
        },
    },
    Mutation {
        name: "a stray `}` after a card",
        rules: false,
        apply: |text| {
            let head = text.lines().position(is_card_head)?;
            let lines: Vec<&str> = text.lines().collect();
            let close = head + lines[head..].iter().position(|l| *l == "}")?;
            let mut out: Vec<&str> = lines.clone();
            out.insert(close + 1, "}");
            Some(out.join("\n") + "\n")
        },
    },
    Mutation {
        name: "the game's name is misspelt",
        rules: false,
        apply: |text| at_first_line(text, |l| l.starts_with("game "), |line| Some(format!("{line}q"))),
    },
    Mutation {
        name: "a deck names a card that does not exist",
        rules: false,
        apply: |text| {
            at_first_line(
                text,
                |l| l.trim_start().starts_with("card \""),
                |line| {
                    let open = line.find('"')?;
                    Some(format!("{}\"Q{}", &line[..open], &line[open + 1..]))
                },
            )
        },
    },
    Mutation {
        name: "an icon in a card's text is misspelt",
        rules: false,
        apply: |text| {
            at_first_line(
                text,
                |l| l.trim_start().starts_with("text \"") && l.contains('{'),
                |line| {
                    let open = line.find('{')?;
                    Some(format!("{}{{q{}", &line[..open], &line[open + 1..]))
                },
            )
        },
    },
    Mutation {
        name: "a deck's type is misspelt",
        rules: false,
        apply: |text| {
            at_first_line(
                text,
                |l| l.starts_with("deck \"") && l.ends_with('{'),
                |line| {
                    let close = line.rfind('"')?;
                    let rest = line[close + 1..].trim_end_matches('{').trim();
                    let word = rest.split_whitespace().next()?;
                    Some(line.replacen(&format!(" {word}"), &format!(" {word}q"), 1))
                },
            )
        },
    },
    Mutation {
        name: "a deck lists a card zero times",
        rules: false,
        apply: |text| {
            at_first_line(
                text,
                |l| l.trim_start().starts_with("card \""),
                |line| {
                    let close = line.rfind('"')?;
                    Some(format!("{} x0", &line[..=close]))
                },
            )
        },
    },
    Mutation {
        name: "a deck's line is misspelt",
        rules: false,
        apply: |text| at_first_line(text, |l| l.trim_start().starts_with("card \""), misspell_first_word),
    },
    Mutation {
        name: "a card is given twice",
        rules: false,
        apply: |text| {
            let lines: Vec<&str> = text.lines().collect();
            let head = lines.iter().position(|l| is_card_head(l))?;
            let close = head + lines[head..].iter().position(|l| *l == "}")?;
            let card = lines[head..=close].join("\n");
            Some(format!("{text}\n{card}\n"))
        },
    },
    Mutation {
        name: "a keyword on a card is misspelt",
        rules: false,
        apply: |text| at_first_line(text, |l| l.trim_start().starts_with("keywords "), misspell_second_word),
    },
    Mutation {
        name: "a card's text names a card that does not exist",
        rules: false,
        apply: |text| {
            at_first_line(
                text,
                |l| l.trim_start().starts_with("text \""),
                |line| {
                    let close = line.rfind('"')?;
                    Some(format!("{} See *Qwerty Zxcv*.{}", &line[..close], &line[close..]))
                },
            )
        },
    },
    Mutation {
        name: "a field's value is a text in quotes where a name is wanted",
        rules: false,
        apply: |text| {
            at_first_line(text, is_field_line, |line| {
                let indent = line.len() - line.trim_start().len();
                let name_end = indent + line[indent..].find(' ')?;
                Some(format!("{} \"quoted\"", &line[..name_end]))
            })
        },
    },
    Mutation {
        name: "a line inside a card's nested block is misspelt",
        rules: false,
        apply: |text| {
            at_first_line(
                text,
                |l| {
                    l.starts_with("    ")
                        && !l.starts_with("     ")
                        && l.trim_start().starts_with(|c: char| c.is_ascii_lowercase())
                },
                misspell_first_word,
            )
        },
    },
    Mutation {
        name: "a ruleset's deck type includes a deck type that does not exist",
        rules: true,
        apply: |text| at_first_line(text, |l| l.trim_start().starts_with("includes "), misspell_second_word),
    },
    Mutation {
        name: "a rule names a field that does not exist",
        rules: true,
        apply: |text| {
            at_first_line(
                text,
                |l| l.trim_start().starts_with("require \"") && l.contains("count("),
                |line| Some(line.replacen("count(", "count(qwerty and ", 1)),
            )
        },
    },
    Mutation {
        name: "a ruleset's enum lists a value twice",
        rules: true,
        apply: |text| {
            at_first_line(
                text,
                |l| l.starts_with("enum ") && !l.ends_with('{') && l.split_whitespace().count() >= 3,
                |line| {
                    let last = line.split_whitespace().last()?;
                    Some(format!("{line} {last}"))
                },
            )
        },
    },
    Mutation {
        name: "a ruleset's role has no colour name",
        rules: true,
        apply: |text| {
            at_first_line(
                text,
                |l| l.trim_start().starts_with("colour "),
                |line| {
                    let indent = line.len() - line.trim_start().len();
                    Some(format!("{}colour", &line[..indent]))
                },
            )
        },
    },
    Mutation {
        name: "a ruleset's kind has no `{`",
        rules: true,
        apply: |text| {
            at_first_line(
                text,
                |l| l.starts_with("kind ") && l.ends_with('{'),
                |line| Some(line.trim_end_matches('{').trim_end().to_string()),
            )
        },
    },
    Mutation {
        name: "a ruleset's field type is written `integer`",
        rules: true,
        apply: |text| {
            at_first_line(
                text,
                |l| l.trim_start().starts_with("field ") && l.contains(" int"),
                |line| Some(line.replacen(" int", " integer", 1)),
            )
        },
    },
    Mutation {
        name: "a ruleset's field type is misspelt",
        rules: true,
        apply: |text| {
            let is_text_field = |l: &str| {
                let words: Vec<&str> = l.split_whitespace().collect();
                words.len() >= 3 && words[0] == "field" && words[2] == "text"
            };
            at_first_line(text, is_text_field, |line| {
                let at = line.find(" text")?;
                let at = line[at + 1..].find(" text").map_or(at, |second| at + 1 + second);
                Some(format!("{} txet{}", &line[..at], &line[at + 5..]))
            })
        },
    },
    Mutation {
        name: "a ruleset's `only` names a kind that does not exist",
        rules: true,
        apply: |text| at_first_line(text, |l| l.trim_start().starts_with("only "), misspell_second_word),
    },
    Mutation {
        name: "a ruleset declares a symbol twice",
        rules: true,
        // A line that opens no block, so that the copy is whole.
        apply: |text| {
            let one_line = |l: &str| l.starts_with("symbol ") && !l.trim_end().ends_with('{');
            at_first_line(text, one_line, |line| Some(format!("{line}\n{line}")))
        },
    },
    Mutation {
        name: "a ruleset's declaration keyword is misspelt",
        rules: true,
        apply: |text| at_first_line(text, |l| l.starts_with("symbol "), misspell_first_word),
    },
    Mutation {
        name: "a ruleset's block line is misspelt",
        rules: true,
        apply: |text| at_first_line(text, |l| l.trim_start().starts_with("doc \""), misspell_first_word),
    },
    Mutation {
        name: "a rule calls a function that does not exist",
        rules: true,
        apply: |text| {
            at_first_line(
                text,
                |l| l.trim_start().starts_with("require \"") && l.contains("count("),
                |line| Some(line.replacen("count(", "cuont(", 1)),
            )
        },
    },
];

/// `fmt` on the changed file leaves it as written, or writes a file that
/// reads as the same tree: it never moves lines around a mistake.
fn formatting_keeps_the_mistake(changed: &[File], original: &[File], mistake: &str) -> Option<String> {
    let (name, text) = changed.iter().zip(original).find(|(now, before)| now.1 != before.1).map(|(now, _)| now)?;
    let Ok(formatted) = cardsmith::fmt::format_text(name, text) else { return None };
    if formatted == *text || shape(name, &formatted) == shape(name, text) {
        return None;
    }
    Some(format!("{name}: `fmt` changes the tree of a file with {mistake}"))
}

/// A file's tree, without its spans.
fn shape(name: &str, text: &str) -> String {
    let mut files = cardsmith::source::Files::new();
    let id = files.add(name, text.to_string());
    cardsmith::syntax::parse(&files, id, &mut Vec::new()).shape(text)
}

fn read_game(folder: &str) -> Vec<File> {
    let dir = common::repo().join(folder);
    let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("a game folder").flatten().map(|e| e.path()).collect();
    paths.sort();
    paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cards" || e == "rules"))
        .map(|p| (format!("{folder}/{}", name_of(p)), std::fs::read_to_string(p).expect("readable")))
        .collect()
}

fn name_of(path: &Path) -> String {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string()
}

/// The errors a check of `files` gives, rendered.
fn errors(files: &[File]) -> Vec<String> {
    let mut workspace = Workspace::new();
    for (name, text) in files {
        workspace.add_bytes(name, text.as_bytes().to_vec());
    }
    let outcome = workspace.check();
    let errors: Vec<_> = outcome.diagnostics.iter().filter(|d| d.severity == Severity::Error).cloned().collect();
    errors
        .iter()
        .map(|d| cardsmith::diagnostics::render::human_string(&outcome.files, std::slice::from_ref(d)))
        .collect()
}

/// The game's files with `mutation` applied to the first file it fits.
fn mutated(files: &[File], mutation: &Mutation) -> Option<Vec<File>> {
    let mut files = files.to_vec();
    for (name, text) in files.iter_mut() {
        if name.ends_with(".rules") != mutation.rules {
            continue;
        }
        if let Some(changed) = (mutation.apply)(text) {
            *text = changed;
            return Some(files);
        }
    }
    None
}

#[test]
fn each_mistake_gives_one_error() {
    let mut tried = 0;
    let mut problems = Vec::new();
    let mut floods = Vec::new();
    for folder in GAMES {
        let files = read_game(folder);
        assert!(errors(&files).is_empty(), "{folder} checks clean before any mistake");
        for mutation in MUTATIONS {
            let Some(changed) = mutated(&files, mutation) else { continue };
            tried += 1;
            let found = errors(&changed);
            problems.extend(formatting_keeps_the_mistake(&changed, &files, mutation.name));
            let known = KNOWN_FLOODS.iter().find(|(name, game, _)| *name == mutation.name && game == folder);
            match (found.len(), known) {
                (0, _) => problems.push(format!("{folder}: {} is not reported", mutation.name)),
                (1, None) => {}
                (n, Some((_, _, given))) if n == *given => floods.push(()),
                (n, Some((_, _, given))) => {
                    problems.push(format!("{folder}: {} gives {n} errors, listed as {given}", mutation.name))
                }
                (n, None) => problems.push(format!(
                    "{folder}: {} gives {n} errors:\n{}",
                    mutation.name,
                    found.iter().take(4).cloned().collect::<String>()
                )),
            }
        }
    }
    assert!(tried >= 60, "only {tried} mistakes could be made");
    assert!(MUTATIONS.len() >= 30, "{} kinds of mistake", MUTATIONS.len());
    assert_eq!(floods.len(), KNOWN_FLOODS.len(), "a listed flood no longer applies: update KNOWN_FLOODS");
    assert!(problems.is_empty(), "{} of {tried} mistakes:\n\n{}", problems.len(), problems.join("\n\n"));
}
