//! The limits, through the command line as a person meets them: a huge file
//! and a flood of brackets are refused with a diagnostic in seconds, links
//! cannot lead `check` out of the folder it reads or round in a loop, a
//! project's paths stay inside the project, and pipes, devices and oversized
//! engine data, manifests and templates are refused at once, unread.

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
    // The depth guard refuses the card at the 65th bracket, before parsing.
    assert!(shown.contains("error[E0005]: brackets nested more than 64 deep"), "{shown}");
    assert!(shown.contains("parens.cards:3:72"), "the diagnostic points at the bracket: {shown}");
    // The two-megabyte line is not printed whole.
    assert!(shown.len() < 4000, "{} bytes of output", shown.len());
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

/// Runs `cardsmith ARGS` in `dir`: it must fail with exit 2 within a second
/// (a read that never ends would time out instead).  Returns its stderr.
fn refused_at_once(args: &[&str], dir: &std::path::Path) -> String {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cardsmith starts");
    let started = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > Duration::from_secs(1) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cardsmith {args:?} was still running after a second");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let output = child.wait_with_output().expect("output");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    stderr(&output)
}

#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn timeline_refuses_a_device_as_engine_data_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let message = refused_at_once(&["timeline", "--data", "/dev/zero", "--play", "1:Kinetic Strike"], dir.path());
    assert!(message.contains("/dev/zero is a device, not a regular file"), "{message}");
}

#[test]
fn timeline_refuses_engine_data_over_its_limit_unread() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("huge.json");
    // Sparse: 300 MiB of nothing, never read.
    std::fs::File::create(&data).and_then(|f| f.set_len(300 << 20)).expect("sparse file");
    let message = refused_at_once(&["timeline", "--data", "huge.json", "--play", "1:Kinetic Strike"], dir.path());
    assert!(
        message.contains("huge.json is larger than 83886080 bytes (80 MiB), the most an engine data document may hold"),
        "{message}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_named_as_a_card_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    mkfifo(&dir.path().join("pipe.cards"));
    for command in ["check", "fmt", "build"] {
        let message = refused_at_once(&[command, "pipe.cards"], dir.path());
        assert!(message.contains("pipe.cards is a named pipe (FIFO), not a regular file"), "{command}: {message}");
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_among_the_cards_of_a_folder_is_refused_at_once() {
    let project = common::bundled_project("dreadnaught-2e");
    mkfifo(&project.path().join("cards/pipe.cards"));
    let message = refused_at_once(&["build"], project.path());
    assert!(message.contains("pipe.cards is a named pipe (FIFO), not a regular file"), "{message}");
    assert!(!project.path().join("out").exists(), "nothing is written");
}

#[test]
fn a_manifest_over_its_limit_is_refused_unread() {
    let project = common::bundled_project("dreadnaught-2e");
    let manifest = std::fs::OpenOptions::new().append(true).open(project.path().join("cardsmith.toml")).expect("open");
    manifest.set_len(2 << 20).expect("sparse tail");
    let message = refused_at_once(&["check"], project.path());
    assert!(
        message.contains("is larger than 1048576 bytes (1 MiB), the most a project manifest may hold"),
        "{message}"
    );
}

#[test]
fn a_template_override_over_its_limit_is_refused_unread() {
    let project = common::bundled_project("dreadnaught-2e");
    let templates = project.path().join("templates/dreadnaught-2e");
    std::fs::create_dir_all(&templates).expect("folder");
    std::fs::File::create(templates.join("offense.svg")).and_then(|f| f.set_len(9 << 20)).expect("sparse file");
    let output = cardsmith(&["print", "--format", "html"], project.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(
        message.contains("offense.svg is larger than 8388608 bytes (8 MiB), the most a template may hold"),
        "{message}"
    );
    assert!(!project.path().join("print").exists(), "nothing is written");
}
