//! The limits, through the command line as a person meets them: a huge file
//! and a flood of brackets are refused with a diagnostic in seconds, links
//! cannot lead `check` out of the folder it reads or round in a loop, and a
//! project's paths stay inside the project.

mod common;
use common::{cardsmith, stderr};

use std::time::{Duration, Instant};

/// Generous: a guard against a hang, not a benchmark (`benches/check.rs`).
const PROMPTLY: Duration = Duration::from_secs(20);

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Checks one file in a fresh folder: it must fail with exit 1, promptly.
/// Returns everything printed.
fn check_refused(name: &str, bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(name), bytes).expect("write");
    let started = Instant::now();
    let output = cardsmith(&["check", name], dir.path());
    assert!(started.elapsed() < PROMPTLY, "took {:?}", started.elapsed());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    stdout(&output) + &stderr(&output)
}

#[test]
fn a_fifty_megabyte_file_is_refused_unread_with_a_diagnostic() {
    let mut text = b"game dreadnaught-2e\n".to_vec();
    text.resize(50 << 20, b' ');
    let shown = check_refused("huge.cards", &text);
    assert!(shown.contains("error[E0009]"), "{shown}");
    assert!(shown.contains("`huge.cards` is larger than 8388608 bytes"), "{shown}");
}

#[test]
fn two_megabytes_of_open_parentheses_are_refused_with_a_diagnostic() {
    let mut text = b"game dreadnaught-2e\noffense \"Parens\" {\n  text ".to_vec();
    text.extend(vec![b'('; 2 << 20]);
    let shown = check_refused("parens.cards", &text);
    assert!(shown.contains("error[E0003]: unclosed `{`"), "{shown}");
    assert!(shown.contains("parens.cards:2:18"), "the diagnostic points at the brace: {shown}");
    // The two-megabyte line is not printed: its label becomes a note.
    assert!(shown.len() < 4000, "{} bytes of output", shown.len());
    assert!(shown.contains("parens.cards:3:"), "{shown}");
}

#[test]
fn a_million_nested_parentheses_in_a_rule_are_refused_with_a_diagnostic() {
    let depth = 1 << 20;
    let mut text = b"ruleset deep {\n  title \"Deep\"\n}\n\nrequire \"deep\" ".to_vec();
    text.extend(vec![b'('; depth]);
    text.push(b'1');
    text.extend(vec![b')'; depth]);
    text.extend(b" > 0\n");
    let shown = check_refused("deep.rules", &text);
    assert!(shown.contains("error[E0"), "{}", &shown[..shown.len().min(2000)]);
    assert!(shown.len() < 4000, "{} bytes of output", shown.len());
}

#[cfg(unix)]
#[test]
fn a_link_back_to_a_parent_folder_is_read_once() {
    let project = common::bundled_project("dreadnaught-2e");
    let cards = project.path().join("cards");
    std::os::unix::fs::symlink(&cards, cards.join("again")).expect("link");
    std::os::unix::fs::symlink("../kinetic.cards", cards.join("again-kinetic.cards")).expect("link");
    let started = Instant::now();
    let output = cardsmith(&["check"], project.path());
    assert!(started.elapsed() < PROMPTLY, "took {:?}", started.elapsed());
    assert_eq!(output.status.code(), Some(0), "{}{}", stdout(&output), stderr(&output));
    let alone = cardsmith(
        &[
            "check",
            "cards/armour.cards",
            "cards/boosts.cards",
            "cards/draw-deck.cards",
            "cards/dreadnaught-2e.rules",
            "cards/kinetic.cards",
        ],
        project.path(),
    );
    let counts = |o: &std::process::Output| stdout(o).lines().last().map(str::to_string);
    assert_eq!(counts(&output), counts(&alone), "the linked cards were read twice");
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_folder_is_refused() {
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("secret.cards"), "game dreadnaught-2e\n").expect("write");
    let project = common::bundled_project("dreadnaught-2e");
    std::os::unix::fs::symlink(outside.path(), project.path().join("cards/elsewhere")).expect("link");
    let output = cardsmith(&["check"], project.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("elsewhere links to") && message.contains("outside"), "{message}");
}

#[test]
fn a_project_path_outside_the_project_is_refused() {
    let parent = tempfile::tempdir().expect("temp dir");
    let project = parent.path().join("project");
    std::fs::create_dir_all(parent.path().join("other")).expect("folder");
    std::fs::create_dir_all(&project).expect("folder");
    std::fs::write(project.join("cardsmith.toml"), "[project]\npaths = [\"../other\"]\n").expect("manifest");
    let output = cardsmith(&["check"], &project);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("the path `../other` leads outside the project folder"), "{}", stderr(&output));
}
