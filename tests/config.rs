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

/// A project in `dir/proj` whose `[lints]` deny a card in no deck, with
/// such a card, and `notes/`, outside its `paths`, holding a file that
/// would not parse: read, it would be an error of its own.
fn strict_project(dir: &std::path::Path) -> std::path::PathBuf {
    let proj = dir.join("proj");
    std::fs::create_dir_all(proj.join("cards")).expect("cards");
    std::fs::create_dir_all(proj.join("notes")).expect("notes");
    for entry in std::fs::read_dir(common::repo().join("cards/dreadnaught-2e")).expect("bundled cards") {
        let path = entry.expect("entry").path();
        std::fs::copy(&path, proj.join("cards").join(path.file_name().expect("name"))).expect("copy");
    }
    std::fs::write(proj.join("cards/lonely.cards"), LONELY).expect("card");
    std::fs::write(proj.join("notes/half.cards"), "game dreadnaught-2e\noffense \"Half\" {\n").expect("note");
    std::fs::write(
        proj.join("cardsmith.toml"),
        "[project]\npaths = [\"cards\"]\n[lints]\ncard-in-no-deck = \"deny\"\n",
    )
    .expect("manifest");
    proj
}

#[test]
fn a_project_named_from_another_folder_is_read_with_its_own_settings() {
    let dir = tempfile::tempdir().expect("temp dir");
    strict_project(dir.path());
    let commands: [&[&str]; 5] = [
        &["check", "proj"],
        &["lint", "proj"],
        &["build", "proj", "-o", "out"],
        &["print", "proj", "-o", "print", "--format", "html"],
        &["timeline", "proj", "--play", "1:Lonely Lance"],
    ];
    for command in commands {
        let output = cardsmith(command, dir.path());
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{command:?} fails on the project's denied lint:\n{text}");
        assert!(text.contains("error[L0010]"), "{command:?} reports the lint:\n{text}");
        assert!(!text.contains("notes/half.cards"), "{command:?} reads only the project's paths:\n{text}");
    }
    // A folder inside the project, and a file, are read with its settings too.
    for path in ["proj/cards", "proj/cards/lonely.cards", "proj/cards/../cards"] {
        let output = cardsmith(&["check", path], dir.path());
        assert!(stderr(&output).contains("error[L0010]"), "check {path}:\n{}", stderr(&output));
    }
    let formatted = cardsmith(&["fmt", "--check", "proj"], dir.path());
    assert_eq!(formatted.status.code(), Some(0), "fmt reads the project's paths:\n{}", stderr(&formatted));

    // Its outputs go where the project's settings say: inside the project.
    std::fs::write(dir.path().join("proj/cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    let built = cardsmith(&["build", "proj"], dir.path());
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    assert!(dir.path().join("proj/out/schema.json").is_file() && !dir.path().join("out").exists());
}

#[test]
fn paths_of_two_projects_are_refused_and_a_loose_file_joins_the_project() {
    let dir = tempfile::tempdir().expect("temp dir");
    strict_project(dir.path());
    std::fs::create_dir_all(dir.path().join("other/cards")).expect("other");
    std::fs::write(dir.path().join("other/cardsmith.toml"), "[project]\n").expect("manifest");
    std::fs::write(dir.path().join("other/cards/lonely.cards"), LONELY).expect("card");
    for command in [&["check", "proj", "other/cards"][..], &["build", "proj/cards", "other"], &["fmt", "proj", "other"]]
    {
        let output = cardsmith(command, dir.path());
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{command:?}:\n{text}");
        assert!(
            text.contains("the paths given lie in two projects: `")
                && text.contains("proj/cardsmith.toml")
                && text.contains("other/cardsmith.toml"),
            "{command:?}:\n{text}"
        );
        assert!(text.contains("run cardsmith once for each project"), "{text}");
    }
    // A file in no project is read with the settings of the project named
    // beside it.
    std::fs::create_dir(dir.path().join("loose")).expect("loose");
    std::fs::write(dir.path().join("loose/extra.cards"), LONELY.replace("Lonely", "Stray")).expect("card");
    let output = cardsmith(&["check", "--message-format", "short", "proj", "loose/extra.cards"], dir.path());
    let text = stderr(&output);
    assert!(text.contains("loose/extra.cards:3:1: error[L0010]"), "{text}");
}

#[test]
fn exclude_leaves_files_out_and_warns_of_a_pattern_that_matches_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let proj = strict_project(dir.path());
    std::fs::create_dir_all(proj.join("cards/backup/2024")).expect("backup");
    std::fs::write(proj.join("cards/backup/2024/old.cards"), "game dreadnaught-2e\nofense \"Old\" {}\n").expect("old");
    std::fs::write(proj.join("cards/next.draft.cards"), "game dreadnaught-2e\nofense \"Next\" {}\n").expect("draft");
    let manifest =
        "[project]\npaths = [\"cards\"]\nexclude = [\"cards/backup/**\", \"cards/*.draft.cards\", \"backup/**\"]\n";
    std::fs::write(proj.join("cardsmith.toml"), manifest).expect("manifest");
    for (cwd, command) in [(&proj, &["check"][..]), (&dir.path().to_path_buf(), &["check", "proj"])] {
        let output = cardsmith(command, cwd);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(0), "{command:?}: excluded files are not read:\n{text}");
        assert!(text.contains("warning[E0020]: the pattern `backup/**` leaves out nothing"), "{text}");
        assert!(text.contains("cardsmith.toml:3:54"), "at the pattern:\n{text}");
        assert!(text.contains("checked 6 files:") && text.contains("0 errors, 2 warnings"), "{text}");
    }
    let json = cardsmith(&["check", "--message-format", "json"], &proj);
    let objects: Vec<serde_json::Value> =
        String::from_utf8_lossy(&json.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let warning = objects.iter().find(|o| o["code"] == "E0020").expect("the warning in JSON");
    assert_eq!((warning["file"].as_str(), warning["line"].as_u64()), (Some("cardsmith.toml"), Some(3)));

    // What is named is read as named: a file, whatever `exclude` says; a
    // folder whose every file is left out is refused rather than read as
    // nothing.
    let named = cardsmith(&["check", "proj/cards/next.draft.cards"], dir.path());
    assert!(stderr(&named).contains("error[E0201]: unknown card kind `ofense`"), "{}", stderr(&named));
    let folder = cardsmith(&["check", "proj/cards/backup"], dir.path());
    assert_eq!(folder.status.code(), Some(2));
    assert!(
        stderr(&folder).contains(
            "`exclude` in proj/cardsmith.toml leaves out every card and ruleset file under proj/cards/backup"
        ),
        "{}",
        stderr(&folder)
    );
    // The folder of the project's `paths` is all the project reads: named,
    // its excluded files are left out, and a pattern that left out nothing is
    // told of.  Of a part of the project, nothing can be said.
    let cards = cardsmith(&["check", "proj/cards"], dir.path());
    assert_eq!(cards.status.code(), Some(0), "{}", stderr(&cards));
    assert!(stderr(&cards).contains("warning[E0020]"), "{}", stderr(&cards));
    let part = cardsmith(&["check", "proj/cards/lonely.cards"], dir.path());
    assert_eq!(part.status.code(), Some(0), "{}", stderr(&part));
    assert!(!stderr(&part).contains("E0020"), "{}", stderr(&part));
}

#[test]
fn an_exclude_pattern_that_cannot_be_one_is_an_error_at_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let proj = strict_project(dir.path());
    std::fs::write(
        proj.join("cardsmith.toml"),
        "[project]\nexclude = [\"/tmp/**\", \"../x/*\", \"cards/[a-\", \"\", 3]\n",
    )
    .expect("manifest");
    let output = cardsmith(&["check"], &proj);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(text.contains("error[E0012]: `project.exclude` must be a list of strings"), "{text}");
    std::fs::write(
        proj.join("cardsmith.toml"),
        "[project]\nexclude = [\"/tmp/**\", \"../x/*\", \"cards/[a-\", \"\"]\n",
    )
    .expect("manifest");
    let output = cardsmith(&["check", "--message-format", "short"], &proj);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    for (column, why) in [
        (12, "this one is absolute"),
        (23, "`..` leads out of it"),
        (33, "unclosed character class"),
        (46, "an empty pattern matches nothing"),
    ] {
        let place = format!("cardsmith.toml:2:{column}");
        assert!(text.contains(&place) && text.contains(why), "{place}: {why}\n{text}");
    }
    assert_eq!(text.matches("error[E0013]").count(), 4, "{text}");
}
