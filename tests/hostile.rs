//! Hostile input, one row a case, through the real binary as a person meets
//! it: each row sets up a folder, runs one command, and names the exit code
//! and what the output must say (a diagnostic code, or the words of an
//! application error).  No row may crash (a panic exits 101, a stack
//! overflow aborts) or take more than two seconds.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

/// What one row expects of its run.
struct Case {
    name: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    args: Vec<String>,
    exit: i32,
    /// Each must appear in what the run printed (stderr and stdout).
    says: Vec<String>,
    /// None of these may appear.
    never: Vec<String>,
}

fn case(name: &'static str) -> Case {
    Case { name, files: Vec::new(), args: Vec::new(), exit: 0, says: Vec::new(), never: Vec::new() }
}

impl Case {
    fn file(mut self, path: &'static str, bytes: impl Into<Vec<u8>>) -> Case {
        self.files.push((path, bytes.into()));
        self
    }

    fn run(mut self, args: &[&str]) -> Case {
        self.args = args.iter().map(|a| a.to_string()).collect();
        self
    }

    fn exits(mut self, code: i32) -> Case {
        self.exit = code;
        self
    }

    fn says(mut self, text: impl Into<String>) -> Case {
        self.says.push(text.into());
        self
    }

    fn never(mut self, text: impl Into<String>) -> Case {
        self.never.push(text.into());
        self
    }
}

/// The longest any row may take.
const PROMPTLY: Duration = Duration::from_secs(2);

const GAME: &str = "game dreadnaught-2e\n\n";

/// A clean Dreadnaught 2e Offense Card named `name`, with `extra` lines.
fn offense(name: &str, extra: &str) -> String {
    format!(
        "offense \"{name}\" {{\n  symbol kinetic\n  arc standard\n  at 3.5 {{\n    impact damage 3\n  }}\n{extra}  text \"Deal 3 {{damage}}.\"\n}}\n"
    )
}

fn cards(body: &str) -> Vec<u8> {
    format!("{GAME}{body}").into_bytes()
}

const MANIFEST: &str = "cardsmith.toml";

/// A ruleset of one kind and one deck type whose one rule is `rule`.
fn chains(rule: &str) -> String {
    format!(
        "ruleset chains {{\n  title \"Chains\"\n}}\n\nkind token \"Token\" {{\n  field worth int\n}}\n\n\
         deck-type pile \"Pile\" {{\n  require \"the long rule\" {rule}\n}}\n"
    )
}

/// A deck of the `chains` ruleset holding one card.
const PILE: &str = "game chains\n\ntoken \"One\" {\n  worth 1\n}\n\ndeck \"P\" pile {\n  card \"One\"\n}\n";

fn cases() -> Vec<Case> {
    [issue_cases(), input_cases(), command_cases(), output_and_rule_cases()].into_iter().flatten().collect()
}

/// Mistakes that once crashed, cascaded or were misreported.
fn issue_cases() -> Vec<Case> {
    vec![
        // The card keeps its other lines, so the deck that lists it is
        // counted against its rules as any deck is (three cards are too few).
        case("a syntax error is reported once, without cascades")
            .file(
                "a.cards",
                cards(&format!(
                    "{}{}deck \"D\" offense {{\n  symbol kinetic\n  card \"Broken\" x2\n  card \"Fine\"\n}}\n",
                    offense("Broken", "  at 2.0 { impact damage 3 ==== }\n"),
                    offense("Fine", "").replace("Deal 3", "After *Broken*, deal 3")
                )),
            )
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0001]")
            .never("no card is named")
            .never("error[E0303]")
            .never("is missing its"),
        case("control characters in a name are escaped, never sent to the terminal")
            .file(
                "a.cards",
                cards(&format!("{}{}", offense("Red\u{1b}[31m\u{202e}", ""), offense("Red\u{1b}[31m\u{202e}", ""))),
            )
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0211]: two cards are named `Red\\u{1b}[31m\\u{202e}`")
            .never("\u{1b}")
            .never("\u{202e}"),
        case("ten thousand copies of one mistake print fifty and a count")
            .file("a.cards", cards(&offense("A", &"  at 6.2 { impact damage 3 }\n".repeat(10_000))))
            .run(&["check", "a.cards", "--message-format", "short"])
            .exits(1)
            .says("… and 9950 more error[E0304] in a.cards (the first 50 are shown)")
            .says("10000 errors"),
        case("an unknown key in cardsmith.toml is E0011 with a did-you-mean")
            .file(MANIFEST, "[project]\npathz = [\"cards\"]\n")
            .run(&["check"])
            .exits(2)
            .says("error[E0011]: unknown key `project.pathz`")
            .says("did you mean `paths`?"),
        case("paths as a string in cardsmith.toml is E0012")
            .file(MANIFEST, "[project]\npaths = \"cards\"\n")
            .run(&["build"])
            .exits(2)
            .says("error[E0012]: `project.paths` must be a list of strings"),
        case("an unknown lint in cardsmith.toml is E0013 in every command")
            .file(MANIFEST, "[lints]\nnear-duplicate-name = \"warn\"\n")
            .file("a.cards", cards(&offense("A", "")))
            .run(&["print", "--format", "html"])
            .exits(2)
            .says("error[E0013]: no lint is named `near-duplicate-name`")
            .says("did you mean `near-duplicate-names`?"),
        case("a card of 0x0 mm says it is too small, not unknown")
            .file("a.cards", cards(&offense("A", "")))
            .run(&["print", "a.cards", "--card", "0x0"])
            .exits(2)
            .says("a card of 0 x 0 mm cannot be printed: each side must be 20 to 400 mm"),
        case("new writes valid TOML for a name with a quote")
            .run(&["new", "the \"best\" \\ deck", "--game", "dropfleet-1.3"])
            .exits(0)
            .says("created"),
    ]
}

/// Broken, huge and strange files.
fn input_cases() -> Vec<Case> {
    vec![
        case("an empty card file says it has no cards")
            .file("a.cards", "")
            .run(&["check", "a.cards"])
            .exits(1)
            .says("has no cards"),
        case("text that is not UTF-8 is E0008")
            .file("a.cards", b"game dreadnaught-2e\n\xff\xfe\x00garbage".to_vec())
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0008]"),
        case("a file of NUL bytes is a syntax error, not a crash")
            .file("a.cards", vec![0u8; 4096])
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0"),
        case("a byte-order mark alone is an empty file")
            .file("a.cards", "\u{feff}")
            .run(&["check", "a.cards"])
            .exits(1)
            .says("has no cards"),
        case("a file over 8 MiB is E0009, unread")
            .file("a.cards", {
                let mut big = cards("").to_vec();
                big.resize(9 << 20, b'\n');
                big
            })
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0009]"),
        case("a stray closing brace is E0004")
            .file("a.cards", cards(&format!("{}}}\n", offense("A", ""))))
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0004]"),
        case("blocks nested forty deep are E0005")
            .file("a.cards", cards(&format!("offense \"A\" {}{}\n", "{\n".repeat(40), "}\n".repeat(40))))
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0005]"),
        case("an unterminated string is E0002")
            .file("a.cards", cards("offense \"A {\n}\n"))
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0002]"),
        case("an unknown game is named with a did-you-mean")
            .file("a.cards", "game dreadnaught-3e\n")
            .run(&["check", "a.cards"])
            .exits(1)
            .says("unknown game `dreadnaught-3e`"),
        case("two cards of one name are E0211")
            .file("a.cards", cards(&format!("{}{}", offense("A", ""), offense("A", ""))))
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0211]"),
    ]
}

/// Strange arguments and project files.
fn command_cases() -> Vec<Case> {
    vec![
        case("two megabytes of open parentheses in a text end in a diagnostic")
            .file("a.cards", cards(&format!("offense \"A\" {{\n  text {}\n}}\n", "(".repeat(2 << 20))))
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0"),
        case("a million nested parentheses in a rule end in a diagnostic")
            .file(
                "a.rules",
                format!(
                    "ruleset deep {{\n  title \"Deep\"\n}}\n\nrequire \"deep\" {}1{} > 0\n",
                    "(".repeat(1 << 20),
                    ")".repeat(1 << 20)
                ),
            )
            .run(&["check", "a.rules"])
            .exits(1)
            .says("error[E0"),
        case("random bytes are E0008")
            .file("a.cards", (0..=255u8).cycle().take(65_536).collect::<Vec<u8>>())
            .run(&["check", "a.cards"])
            .exits(1)
            .says("error[E0008]"),
        case("five thousand icons in one text check and lint")
            .file("a.cards", cards(&offense("A", "").replace("Deal 3 {damage}.", &"Deal 3 {damage}. ".repeat(5000))))
            .run(&["check", "a.cards"])
            .exits(0),
        case("a card name of a hundred thousand characters prints")
            .file("a.cards", cards(&offense(&"N".repeat(100_000), "")))
            .run(&["print", "a.cards", "--format", "html", "-o", "out"])
            .exits(0)
            .says("printed 1 card"),
        case("a path that does not exist is a usage error")
            .run(&["check", "missing.cards"])
            .exits(2)
            .says("cannot read missing.cards"),
        case("an unknown code has no explanation").run(&["explain", "E9999"]).exits(2),
        case("a resolution of 0 dpi is refused")
            .file("a.cards", cards(&offense("A", "")))
            .run(&["print", "a.cards", "--dpi", "0"])
            .exits(2)
            .says("out of range"),
        case("a bleed of 11 mm is refused")
            .file("a.cards", cards(&offense("A", "")))
            .run(&["print", "a.cards", "--bleed", "11"])
            .exits(2)
            .says("out of range"),
        case("an unknown paper is refused")
            .file("a.cards", cards(&offense("A", "")))
            .run(&["print", "a.cards", "--paper", "napkin"])
            .exits(2)
            .says("unknown paper `napkin`"),
        case("an unknown output format is refused")
            .file("a.cards", cards(&offense("A", "")))
            .run(&["print", "a.cards", "--format", "docx"])
            .exits(2)
            .says("unknown format `docx`"),
        case("a timeline of a card that does not exist says so")
            .file("a.cards", cards(&offense("A", "")))
            .run(&["timeline", "a.cards", "--play", "1:Nobody"])
            .exits(2)
            .says("no card is named `Nobody`"),
        case("broken TOML in cardsmith.toml is E0010")
            .file(MANIFEST, "[project\n")
            .run(&["check"])
            .exits(2)
            .says("error[E0010]"),
        case("a level that is no level is E0013 with a did-you-mean")
            .file(MANIFEST, "[lints]\nterminology-drift = \"wran\"\n")
            .run(&["lint"])
            .exits(2)
            .says("did you mean `warn`?"),
        case("a name with quotes, braces and stars survives a round trip through fmt")
            .file("a.cards", cards(&offense("Say \\\"{hi}\\\" *now*", "")))
            .run(&["fmt", "--check", "a.cards"])
            .exits(0),
    ]
}

/// Outputs that would touch inputs, and rules long or deep.
fn output_and_rule_cases() -> Vec<Case> {
    vec![
        case("a build onto its own input folder is refused")
            .file("cards/a.cards", cards(&offense("A", "")))
            .run(&["build", "cards", "-o", "cards"])
            .exits(2)
            .says("nothing written"),
        case("outside a project, a build of the current folder writes ./out")
            .file("a.cards", cards(&offense("A", "")))
            .run(&["build", "."])
            .exits(0)
            .says("wrote dreadnaught-2e.json"),
        case("a print into a folder inside its input is refused")
            .file("cards/a.cards", cards(&offense("A", "")))
            .run(&["print", "cards", "-o", "cards/print"])
            .exits(2)
            .says("nothing written"),
        case("a build of a folder with no cards is an error that keeps the old output")
            .file("empty/.keep", "")
            .file("out/old.json", "{}")
            .run(&["build", "empty", "-o", "out"])
            .exits(2)
            .says("no cards in"),
        case("a timeline of /dev/zero ends at once")
            .run(&["timeline", "--data", "/dev/zero", "--play", "1:A"])
            .exits(2)
            .says("not a regular file"),
        case("a device given as a card file is refused")
            .run(&["check", "/dev/null"])
            .exits(2)
            .says("not a regular file"),
        case("a rule summing 16,000 ones checks, no stack overflow")
            .file("chains.rules", chains(&format!("count() == {}", vec!["1"; 16_000].join("+"))))
            .file("pile.cards", PILE)
            .run(&["check", "."])
            .exits(1)
            .says("error[E0401]"),
        case("a rule of 20,000 terms joined by `and` checks, no stack overflow")
            .file("chains.rules", chains(&vec!["count() == 1"; 20_000].join(" and ")))
            .file("pile.cards", PILE)
            .run(&["check", "."])
            .exits(0),
        case("brackets nested past the limit are E0014")
            .file("chains.rules", chains(&format!("{}1{} == 1", "(".repeat(40), ")".repeat(40))))
            .run(&["check", "chains.rules"])
            .exits(1)
            .says("error[E0014]"),
    ]
}

#[test]
fn hostile_input_never_crashes_and_says_what_is_wrong() {
    let rows = cases();
    assert!(rows.len() >= 35, "{} rows", rows.len());
    let mut failures = Vec::new();
    for row in rows {
        if let Err(why) = run(&row) {
            failures.push(format!("- {}: {why}", row.name));
        }
    }
    assert!(failures.is_empty(), "{} rows failed:\n{}", failures.len(), failures.join("\n"));
}

fn run(row: &Case) -> Result<(), String> {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, bytes) in &row.files {
        write(dir.path(), path, bytes);
    }
    let args: Vec<&str> = row.args.iter().map(String::as_str).collect();
    let started = Instant::now();
    let output = common::cardsmith(&args, dir.path());
    let took = started.elapsed();
    let printed = format!("{}{}", common::stderr(&output), String::from_utf8_lossy(&output.stdout));
    let shown = || printed.chars().take(3000).collect::<String>();
    if took > PROMPTLY {
        return Err(format!("took {took:?}"));
    }
    if output.status.code() != Some(row.exit) {
        return Err(format!("exit {:?}, expected {}:\n{}", output.status.code(), row.exit, shown()));
    }
    if let Some(missing) = row.says.iter().find(|s| !printed.contains(s.as_str())) {
        return Err(format!("does not say {missing:?}:\n{}", shown()));
    }
    if let Some(found) = row.never.iter().find(|s| printed.contains(s.as_str())) {
        return Err(format!("says {found:?}:\n{}", shown()));
    }
    Ok(())
}

fn write(dir: &Path, path: &str, bytes: &[u8]) {
    let path = dir.join(path);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(path, bytes).expect("write");
}
