//! The formatter: bundled files are already canonical, formatting is
//! idempotent, keeps every comment, and does not change what a file means.

use cardsmith::fmt::format_text;
use std::path::{Path, PathBuf};

fn source_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            source_files(&path, found);
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("cards" | "rules")) {
            found.push(path);
        }
    }
}

fn bundled() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    source_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("cards"), &mut paths);
    paths.sort();
    paths.into_iter().map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("readable"))).collect()
}

#[test]
fn bundled_files_are_formatted() {
    for (name, text) in bundled() {
        let formatted = format_text(&name, &text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        if formatted != text {
            let first = text.lines().zip(formatted.lines()).position(|(a, b)| a != b).unwrap_or(0);
            panic!(
                "{name} is not formatted; first difference at line {}:\n  {:?}\n  {:?}",
                first + 1,
                text.lines().nth(first),
                formatted.lines().nth(first)
            );
        }
    }
}

#[test]
fn formatting_is_idempotent_and_keeps_comments_everywhere() {
    let messy = "// file comment\n\n\n// second\ngame   dreadnaught-2e // trailing\n// before card\noffense  \"A\"   primary{ // after brace\n    // first inside\n  symbol kinetic;arc turret\n\n\n  at 3.5 {impact damage 3} // after inline block\n  keywords unstoppable( damage ,push )\n  // last inside\n} // after close\n// between\n\ndeck \"D\" offense {\n  // only a comment\n}\n// at the end";
    let once = format_text("m.cards", messy).expect("formats");
    let twice = format_text("m.cards", &once).expect("formats again");
    assert_eq!(once, twice, "not idempotent:\n{once}");
    for comment in [
        "// file comment",
        "// second",
        "// trailing",
        "// before card",
        "// after brace",
        "// first inside",
        "// after inline block",
        "// last inside",
        "// after close",
        "// between",
        "// only a comment",
        "// at the end",
    ] {
        assert!(once.contains(comment), "{comment} lost:\n{once}");
    }
    insta::assert_snapshot!(once);
}

#[test]
fn comments_survive_in_every_position_of_a_ruleset() {
    let rules = "// head\nruleset r { // after brace\n  // inside header\n  title \"R\" // after title\n} // after close\n\n// before kind\nkind k \"K\" {\n  field f int // after field\n  // before block field\n  field g {\n    // inside nested\n    takes int\n    many // after many\n  } // after nested close\n  // end of kind\n}\ndeck-type d \"D\" {\n  require \"one\" count() == 1 // after rule\n  // after rules\n}\n// last line without newline";
    let once = format_text("r.rules", rules).expect("formats");
    assert_eq!(format_text("r.rules", &once).expect("formats again"), once);
    let comments: Vec<&str> = rules.lines().filter_map(|l| l.find("//").map(|i| &l[i..])).collect();
    let kept: Vec<&str> = once.lines().filter_map(|l| l.find("//").map(|i| &l[i..])).collect();
    assert_eq!(comments, kept, "every comment, in order:\n{once}");
}

/// `format_keeping_errors` of `text`: the text and the codes of its syntax
/// diagnostics.
fn format_around_errors(text: &str) -> (String, Vec<&'static str>) {
    let mut files = cardsmith::source::Files::new();
    let id = files.add("broken.cards", text);
    let (out, diagnostics) = cardsmith::fmt::format_keeping_errors(&files, id).expect("formats");
    (out, diagnostics.iter().map(|d| d.code.id).collect())
}

#[test]
fn items_with_syntax_errors_are_kept_as_written_and_the_rest_is_formatted() {
    let broken = "offense   \"Broken\" {\n    symbol kinetic\n  arc )  standard   // odd\n}\n";
    let unclosed = "offense \"Open\" {\n  text \"no end\n";
    let text = format!(
        "game   dreadnaught-2e\n\n{broken}\n// between\noffense  \"Fine\"   {{\n      symbol kinetic\n}}\n\n{unclosed}deck \"D\"  offense {{ symbol kinetic }}\n"
    );
    let (out, codes) = format_around_errors(&text);
    assert_eq!(codes, ["E0001", "E0002", "E0003"], "{out}");
    assert!(out.contains(broken), "the broken card changed:\n{out}");
    assert!(out.contains(unclosed), "the unclosed card changed:\n{out}");
    assert!(out.starts_with("game dreadnaught-2e\n\noffense   \"Broken\""), "{out}");
    assert!(out.contains("// between\noffense \"Fine\" {\n  symbol kinetic\n}\n\noffense \"Open\""), "{out}");
    assert!(out.ends_with("deck \"D\" offense { symbol kinetic }\n"), "{out}");
    assert_eq!(format_around_errors(&out).0, out, "not idempotent");
}

#[test]
fn a_stray_brace_on_a_blocks_last_line_keeps_the_block_as_written() {
    let text =
        "game dreadnaught-2e\n\noffense   \"A\" {\n  symbol kinetic\n}}\n\noffense  \"B\" {\n  symbol kinetic\n}\n";
    let (out, codes) = format_around_errors(text);
    assert_eq!(codes, ["E0004"], "{out}");
    assert!(
        out.contains("offense   \"A\" {\n  symbol kinetic\n}}\n"),
        "the block sharing the stray brace's line changed:\n{out}"
    );
    assert!(out.ends_with("\n\noffense \"B\" {\n  symbol kinetic\n}\n"), "{out}");
}

#[test]
fn a_blank_line_before_the_comments_at_the_end_is_kept() {
    let text = "game dreadnaught-2e\n\n// a note at the end\n";
    assert_eq!(format_text("end.cards", text).expect("formats"), text);
}

#[test]
fn the_lossless_tree_gives_back_every_byte() {
    let mut texts: Vec<String> = bundled().into_iter().map(|(_, text)| text).collect();
    texts.push("offense \"A\" {\n  arc ) x\r\n  text \"open\n}\n}\n  {{ ;; \"\\\" 6\" // c\noffense".into());
    // The rulebook's notation: spaces before brackets, commas, `&`, `”`.
    texts.push("ship \"S\" {\n  scan 6” sig 4.5”,\n  weapon \"W\" arc F/S (Right) special Burnthrough (4), Flash, Alt-1 ,\n  launch Fighters & Bombers 6 & , x &\n  arc F (N) (S) a( b (c)), ”6\n  ability [Ac] [Re [x]] [] {}\n}\n".into());
    // Random text of the language's characters, so that every error path runs.
    let alphabet: Vec<char> = "ab x\"{}()[]*,.+-/09\n\r\t;#\\é&”".chars().collect();
    let mut state = 11u64;
    for _ in 0..300 {
        let text: String = (0..200)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                alphabet[(state >> 33) as usize % alphabet.len()]
            })
            .collect();
        texts.push(text);
    }
    for text in texts {
        let mut files = cardsmith::source::Files::new();
        let id = files.add("any.cards", text.as_str());
        let (cst, _) = cardsmith::syntax::parse_lossless(&files, id, &mut Vec::new());
        let source = &files.get(id).text;
        assert_eq!(&cst.text(source), source);
        let mut end = 0;
        for token in cst.tokens() {
            assert_eq!(token.range().start, end, "a gap or an overlap before {:?} in {text:?}", token.kind());
            end = token.range().end;
        }
        assert_eq!(end, source.len());
    }
}
