//! `cardsmith.toml` is read strictly and the same way by every command: a
//! lint level set there decides the exit of `check`, `lint`, `build` and
//! `print` alike, and a mistake in the file stops each of them with a coded
//! diagnostic at its place.

mod common;

use common::{bundled_project, cardsmith, stderr};

const LONELY: &str = "game dreadnaught-2e\n\noffense \"Lonely Lance\" {\n  symbol kinetic\n  at 2.0 {\n    impact damage 1\n  }\n  text \"Deal 1 {damage}.\"\n}\n";

#[test]
fn lint_levels_apply_in_every_command() {
    let project = bundled_project("dreadnaught-2e");
    let dir = project.path();
    std::fs::write(dir.join("cards/lonely.cards"), LONELY).expect("card");
    std::fs::write(dir.join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n[lints]\ncard-in-no-deck = \"deny\"\n")
        .expect("manifest");
    for command in [&["check"][..], &["lint"], &["build", "-o", "out"], &["print", "-o", "print", "--format", "html"]] {
        let output = cardsmith(command, dir);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{command:?} must fail on the denied lint:\n{text}");
        assert!(text.contains("error[L0010]"), "{command:?} reports the lint:\n{text}");
    }
    assert!(!dir.join("out").exists() && !dir.join("print").exists(), "nothing is written");
    std::fs::write(dir.join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    for command in [&["check"][..], &["build", "-o", "out"]] {
        let output = cardsmith(command, dir);
        assert_eq!(output.status.code(), Some(0), "{command:?} passes at the default level:\n{}", stderr(&output));
    }
}

#[test]
fn a_bad_project_file_stops_every_command_with_its_codes() {
    let project = bundled_project("dreadnaught-2e");
    let dir = project.path();
    std::fs::write(dir.join("cardsmith.toml"), "[project]\npaths = \"cards\"\n[biuld]\nout = \"o\"\n")
        .expect("manifest");
    let commands: [&[&str]; 6] =
        [&["check"], &["lint"], &["fmt"], &["build"], &["print"], &["timeline", "--play", "1:Kinetic Strike"]];
    for command in commands {
        let output = cardsmith(command, dir);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{command:?} stops:\n{text}");
        assert!(text.contains("error[E0012]: `project.paths` must be a list of strings"), "{command:?}:\n{text}");
        assert!(text.contains("error[E0011]: unknown table `biuld`"), "{command:?}:\n{text}");
        assert!(text.contains("did you mean `build`?"), "{command:?}:\n{text}");
    }
}
