//! The command line as a user runs it: exit codes, summary, formats,
//! `explain` and `new`.

mod common;

use common::{cardsmith, repo, stderr};

#[test]
fn bundled_dreadnaught_cards_check_clean() {
    let output = cardsmith(&["check", "cards/dreadnaught-2e"], repo());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let summary = err.lines().last().unwrap_or("");
    assert!(summary.starts_with("checked ") && summary.ends_with("0 errors, 0 warnings"), "{summary}");
    assert!(!summary.contains(" 0 cards"), "{summary}");
}

#[test]
fn errors_exit_1_and_usage_problems_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.cards"), "game dreadnaught-2e\nofense \"X\" {}\n").unwrap();
    let output = cardsmith(&["check", "bad.cards"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error[E0201]: unknown card kind `ofense`"), "{}", stderr(&output));
    assert!(stderr(&output).contains("1 error"));

    assert_eq!(cardsmith(&["check", "no-such-file.cards"], dir.path()).status.code(), Some(2));
    assert_eq!(cardsmith(&["check", "--message-format", "fancy"], dir.path()).status.code(), Some(2));
    // No path and no project around: a clear message, exit 2.
    let lost = cardsmith(&["check"], dir.path());
    assert_eq!(lost.status.code(), Some(2));
    assert!(stderr(&lost).contains("cardsmith.toml"), "{}", stderr(&lost));
}

#[test]
fn json_format_prints_one_object_per_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.cards"), "game dreadnaught-2e\nofense \"X\" {}\noffense \"Y\" { arc narow }\n")
        .unwrap();
    let output = cardsmith(&["check", "--message-format", "json", "bad.cards"], dir.path());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let objects: Vec<serde_json::Value> =
        stdout.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect();
    let codes: Vec<&str> = objects.iter().map(|o| o["code"].as_str().unwrap_or("")).collect();
    assert_eq!(codes, vec!["E0201", "E0302", "E0208"]);
    assert_eq!(objects[0]["file"], "bad.cards");
    assert_eq!((objects[0]["line"].as_u64(), objects[0]["column"].as_u64()), (Some(2), Some(1)));
    assert_eq!((objects[0]["byte_start"].as_u64(), objects[0]["byte_end"].as_u64()), (Some(20), Some(26)));
}

#[test]
fn explain_prints_the_long_description() {
    let output = cardsmith(&["explain", "E0304"], repo());
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("E0304 (initiative-off-scale)"), "{text}");
    assert!(text.contains("5.9"));
    assert_eq!(cardsmith(&["explain", "unknown-keyword"], repo()).status.code(), Some(0));
    assert_eq!(cardsmith(&["explain", "E9999"], repo()).status.code(), Some(2));
}

#[test]
fn a_new_project_checks_clean_from_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    let created = cardsmith(&["new", "iron-tide", "--game", "dreadnaught-2e"], dir.path());
    assert_eq!(created.status.code(), Some(0), "{}", stderr(&created));
    let project = dir.path().join("iron-tide");
    let nested = project.join("cards");
    let output = cardsmith(&["check"], &nested);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("checked 1 file: 2 cards, 0 decks; 0 errors, 0 warnings"), "{}", stderr(&output));
    // A second `new` into the same folder refuses rather than overwrite.
    assert_eq!(cardsmith(&["new", "iron-tide", "--game", "dreadnaught-2e"], dir.path()).status.code(), Some(2));
}

#[test]
fn new_makes_a_clean_project_for_every_bundled_game_whatever_its_name() {
    let dir = tempfile::tempdir().unwrap();
    for game in cardsmith::check::builtin::ids() {
        // Quotes, a backslash, braces and stars: each must survive TOML and
        // the card file's strings.
        let name = format!("q\"uo\\te {{br}}*st* {game}");
        let created = cardsmith(&["new", &name, "--game", game], dir.path());
        assert_eq!(created.status.code(), Some(0), "{game}: {}", stderr(&created));
        let output = cardsmith(&["check"], &dir.path().join(&name));
        assert_eq!(output.status.code(), Some(0), "{game}: {}", stderr(&output));
        assert!(stderr(&output).contains("0 errors, 0 warnings"), "{game}: {}", stderr(&output));
        let output = cardsmith(&["build"], &dir.path().join(&name));
        let json = std::fs::read_to_string(dir.path().join(&name).join("out").join(format!("{game}.json")));
        assert!(json.expect("engine data").contains("Q\\\"uo\\\\te {br}*st*"), "{game}: {}", stderr(&output));
    }
}

#[test]
fn help_shows_examples() {
    let output = cardsmith(&["--help"], repo());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Examples:") && text.contains("cardsmith check"), "{text}");
}

/// A file's escape and bidi characters never reach the terminal raw: the
/// diff `fmt --check` prints writes them as escapes.
#[test]
fn fmt_check_escapes_control_characters_in_its_diff() {
    let dir = tempfile::tempdir().unwrap();
    let card = "game dreadnaught-2e\n\noffense \"Burner\x1b[2J\u{202e}\"   {\n  symbol kinetic\n}\n";
    std::fs::write(dir.path().join("a.cards"), card).unwrap();
    let check = cardsmith(&["fmt", "--check", "a.cards"], dir.path());
    assert_eq!(check.status.code(), Some(1));
    let diff = String::from_utf8_lossy(&check.stdout);
    assert!(!diff.contains('\x1b') && !diff.contains('\u{202e}'), "{diff:?}");
    assert!(diff.contains("Burner\\u{1b}[2J\\u{202e}"), "{diff}");
}

#[test]
fn lint_fix_applies_only_certain_fixes_and_fmt_check_shows_a_diff() {
    let dir = tempfile::tempdir().unwrap();
    let card = "game dreadnaught-2e\n\noffense \"Burner\"   {\n  symbol kinetic\n  arc standard\n  at 3.5 { impact burn 1; impact damage 2 }\n  text \"Inflict 1 burn and 3 {damage}. UNSTOPPABLE.\" // note\n}\n";
    std::fs::write(dir.path().join("a.cards"), card).unwrap();

    let check = cardsmith(&["fmt", "--check", "a.cards"], dir.path());
    assert_eq!(check.status.code(), Some(1));
    let diff = String::from_utf8_lossy(&check.stdout);
    assert!(diff.contains("-offense \"Burner\"   {") && diff.contains("+offense \"Burner\" {"), "{diff}");
    assert_eq!(std::fs::read_to_string(dir.path().join("a.cards")).unwrap(), card, "--check changes nothing");

    let fixed = cardsmith(&["lint", "--fix", "a.cards"], dir.path());
    assert_eq!(fixed.status.code(), Some(0), "{}", stderr(&fixed));
    let text = std::fs::read_to_string(dir.path().join("a.cards")).unwrap();
    assert!(text.contains("\"Inflict 1 Resource Burn and 3 {damage}. Unstoppable.\" // note"), "{text}");
    assert!(stderr(&fixed).contains("L0001"), "the text/effect mismatch remains, unfixed: {}", stderr(&fixed));

    assert_eq!(cardsmith(&["fmt", "a.cards"], dir.path()).status.code(), Some(0));
    assert_eq!(cardsmith(&["fmt", "--check", "a.cards"], dir.path()).status.code(), Some(0));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 1, "no temporary files are left: {leftovers:?}");
}

#[test]
fn application_errors_read_as_sentences() {
    let dir = tempfile::tempdir().unwrap();
    let output = cardsmith(&["check", "missing.cards"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.starts_with("error: cannot read missing.cards\n  caused by: "), "{err}");
    assert!(!err.contains("Diagnostic {"), "{err}");
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // Ten thousand problems as JSON: far more than a pipe holds, so the run
    // is still writing when the reader goes away.
    let dir = tempfile::tempdir().unwrap();
    let card = "offense \"A\" {\n  symbol kinetic\n  arc standard\n  at 6.2 { impact damage 3 }\n}\n";
    std::fs::write(dir.path().join("a.cards"), format!("game dreadnaught-2e\n{}", card.repeat(10_000))).unwrap();
    let cases: [(&[&str], i32); 4] = [
        (&["check", "a.cards", "--message-format", "json"], 1),
        (&["schema"], 0),
        (&["explain", "--list"], 0),
        (&["lint", "--list"], 0),
    ];
    for (args, exit) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
            .args(args)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cardsmith runs");
        let mut first = [0u8; 8];
        child.stdout.take().expect("stdout").read_exact(&mut first).expect("some output");
        // The pipe is closed here, as `| head -c 8` would.
        let output = child.wait_with_output().expect("ends");
        assert_eq!(output.status.code(), Some(exit), "{args:?}: {}", stderr(&output));
        assert!(!stderr(&output).contains("panicked") && !stderr(&output).contains("error:"), "{}", stderr(&output));
    }
}

#[test]
fn new_with_a_ruleset_starts_a_game_of_ones_own() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["Star Realms", "q\"uo\\te {br}*st* 2!", "42"] {
        let created = cardsmith(&["new", name, "--ruleset"], dir.path());
        assert_eq!(created.status.code(), Some(0), "{name}: {}", stderr(&created));
        let project = dir.path().join(name);
        for command in [&["lint"][..], &["fmt", "--check"], &["build"]] {
            let output = cardsmith(command, &project);
            assert_eq!(output.status.code(), Some(0), "{name}: {command:?}: {}", stderr(&output));
        }
        let output = cardsmith(&["check"], &project);
        assert!(stderr(&output).contains("3 cards, 1 deck; 0 errors, 0 warnings"), "{name}: {}", stderr(&output));
        let manifest = std::fs::read_to_string(project.join("cardsmith.toml")).expect("manifest");
        assert!(!manifest.contains("game ="), "the game is the project's own: {manifest}");
    }
    let star_realms = dir.path().join("Star Realms/cards/star-realms.rules");
    assert!(std::fs::read_to_string(star_realms).expect("ruleset").contains("ruleset star-realms {"));
}

#[test]
fn fmt_formats_around_a_syntax_error_and_keeps_the_broken_item() {
    let dir = tempfile::tempdir().unwrap();
    let broken = "offense   \"A\" {\n  symbol kinetic\n  arc  standard ) \n}\n";
    let text = format!("game dreadnaught-2e\n\n{broken}\noffense    \"B\" {{\n  symbol kinetic\n}}\n");
    std::fs::write(dir.path().join("a.cards"), &text).unwrap();
    let output = cardsmith(&["fmt", "a.cards"], dir.path());
    assert_eq!(output.status.code(), Some(1), "a syntax error fails the run: {}", stderr(&output));
    assert!(stderr(&output).contains("error[E0001]"), "{}", stderr(&output));
    let after = std::fs::read_to_string(dir.path().join("a.cards")).unwrap();
    assert!(after.contains(broken), "the broken item is kept as written:\n{after}");
    assert!(after.contains("\noffense \"B\" {\n"), "the clean item is formatted:\n{after}");
}

/// `cardsmith rules ID` shows a bundled ruleset with the line numbers that
/// diagnostics pointing into it cite; `--out` writes it as bundled, once.
#[test]
fn rules_shows_the_line_a_diagnostic_cites_and_writes_a_copy_once() {
    let repo = repo();
    let case = "tests/fidelity/dreadnaught-2e/DN-V33.cards";
    let check = cardsmith(&["check", case], repo);
    let shown = stderr(&check);
    // `┌─ <bundled>/dreadnaught-2e.rules:LINE:COLUMN`, then `LINE │ the rule`.
    let (_, after) = shown.split_once("<bundled>/dreadnaught-2e.rules:").expect("a label in the bundled ruleset");
    let line: usize = after.split(':').next().and_then(|n| n.parse().ok()).expect("a line number");
    let rules = cardsmith(&["rules", "dreadnaught-2e"], repo);
    assert_eq!(rules.status.code(), Some(0), "{}", stderr(&rules));
    let listing = String::from_utf8_lossy(&rules.stdout).into_owned();
    let numbered = listing.lines().find(|l| l.trim_start().starts_with(&format!("{line} │"))).expect("the cited line");
    assert!(numbered.contains("an Indestructible card's tokens have its HP"), "{numbered}");

    let list = cardsmith(&["rules"], repo);
    let list = String::from_utf8_lossy(&list.stdout).into_owned();
    assert!(list.contains("dreadnaught-2e  Dreadnaught (Epic Naval Duel), second edition"), "{list}");

    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("mine.rules");
    let written = cardsmith(&["rules", "dropfleet-1.3", "--out", "mine.rules"], dir.path());
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    let bundled = std::fs::read_to_string(repo.join("cards/dropfleet-1.3/dropfleet-1.3.rules")).expect("bundled");
    assert_eq!(std::fs::read_to_string(&copy).expect("the copy"), bundled);
    std::fs::write(&copy, "// my edits\n").expect("edit the copy");
    let again = cardsmith(&["rules", "dropfleet-1.3", "--out", "mine.rules"], dir.path());
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("already exists"), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&copy).expect("the copy"), "// my edits\n", "an existing file is kept");
}
