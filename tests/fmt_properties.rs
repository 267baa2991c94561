//! Property tests of the formatter over generated inputs: every bundled game
//! folder, rewritten many times with random (meaning-preserving) spacing,
//! blank lines and comments.  For each variant x:
//! format(format(x)) == format(x), format(x) reads to the same syntax tree
//! as x up to spans, and checking format(x) gives the same IR and the same
//! diagnostics as checking x.

use cardsmith::fmt::format_text;
use cardsmith::workspace::Workspace;
use std::path::Path;

/// A small deterministic generator, so a failure reproduces from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % below.max(1)
    }
}

/// Rewrites text without changing its meaning: wider spacing between tokens,
/// extra blank lines, comments at line ends and on their own lines.
fn perturb(text: &str, rng: &mut Rng) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if rng.next(6) == 0 {
            out.push('\n');
        }
        if rng.next(8) == 0 {
            let indent = line.len() - line.trim_start().len();
            out.push_str(&" ".repeat(indent));
            out.push_str("// an inserted note\n");
        }
        let mut in_string = false;
        let mut escaped = false;
        let mut in_comment = false;
        let chars: Vec<char> = line.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            let leading = chars[..i].iter().all(|c| *c == ' ');
            if !in_string && !in_comment && *c == ' ' && !leading && rng.next(4) == 0 {
                out.push_str(if rng.next(2) == 0 { "  " } else { " \t" });
            }
            out.push(*c);
            if in_string {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '"') => in_string = false,
                    _ => {}
                }
            } else if *c == '"' && !(i > 0 && chars[i - 1].is_ascii_digit()) {
                in_string = true;
            } else if *c == '/' && chars.get(i + 1) == Some(&'/') {
                in_comment = true;
            }
        }
        if !line.trim().is_empty() && rng.next(7) == 0 {
            out.push_str(if in_comment { " and more" } else { " // trailing note" });
        }
        out.push('\n');
    }
    out
}

struct Checked {
    ir: String,
    diagnostics: Vec<String>,
}

fn check(files: &[(String, String)]) -> Checked {
    let mut workspace = Workspace::new();
    for (name, text) in files {
        workspace.add_text(name, text);
    }
    let outcome = workspace.check();
    Checked {
        ir: serde_json::to_string(&outcome.project).expect("IR serialises"),
        diagnostics: outcome.diagnostics.iter().map(|d| format!("{} {}", d.code.id, d.message)).collect(),
    }
}

/// The syntax tree of `text` without its spans.
fn shape(text: &str) -> String {
    let mut files = cardsmith::source::Files::new();
    let id = files.add("shape.cards", text);
    let mut diagnostics = Vec::new();
    let tree = cardsmith::syntax::parse(&files, id, &mut diagnostics);
    assert!(diagnostics.is_empty(), "a generated file does not parse");
    tree.shape(&files.get(id).text)
}

fn folder(name: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards").join(name);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("cards" | "rules")))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("readable")))
        .collect();
    files.sort();
    files
}

#[test]
fn formatting_generated_variants_is_idempotent_and_keeps_meaning() {
    let mut cases = 0;
    for game in ["dreadnaught-2e", "dreadnaught-1e", "dreadnought-tcg", "dropfleet-1.3"] {
        let original = folder(game);
        for seed in 0..6u64 {
            let mut rng = Rng(seed * 7919 + game.len() as u64);
            let variant: Vec<(String, String)> =
                original.iter().map(|(name, text)| (name.clone(), perturb(text, &mut rng))).collect();
            let mut formatted = Vec::new();
            for (name, text) in &variant {
                let once = format_text(name, text).unwrap_or_else(|e| panic!("{name} (seed {seed}): {e:?}"));
                let twice = format_text(name, &once).unwrap_or_else(|e| panic!("{name} (seed {seed}): {e:?}"));
                assert_eq!(once, twice, "{name} (seed {seed}): formatting twice differs from once");
                assert_eq!(shape(text), shape(&once), "{name} (seed {seed}): the tree differs after formatting");
                let (before, after) = (text.matches("//").count(), once.matches("//").count());
                assert_eq!(before, after, "{name} (seed {seed}): a comment was lost");
                formatted.push((name.clone(), once));
                cases += 1;
            }
            let (x, fx) = (check(&variant), check(&formatted));
            assert_eq!(x.diagnostics, fx.diagnostics, "{game} (seed {seed}): diagnostics differ after formatting");
            assert!(x.ir == fx.ir, "{game} (seed {seed}): the IR differs after formatting");
        }
    }
    assert!(cases > 100, "only {cases} cases");
}

#[test]
fn the_generator_really_changes_the_text() {
    let mut rng = Rng(1);
    let text =
        "game dreadnaught-2e\n\noffense \"A\" {\n  symbol kinetic\n  arc turret\n  at 3.5 { impact damage 3 }\n}\n";
    let changed = (0..10).filter(|_| perturb(text, &mut rng) != text).count();
    assert!(changed >= 8, "the generator left the text alone {} times in 10", 10 - changed);
}
