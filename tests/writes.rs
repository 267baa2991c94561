//! What cardsmith writes keeps what was there: `build` and `print` never
//! write onto, into or around their inputs, and keep the previous output when
//! they find no cards; `fmt` and `lint --fix` write through links, keep each
//! file's permissions, and leave alone a file they would not change.

mod common;
use common::{bundled_project, cardsmith, contents, stderr};

use std::path::Path;

/// The two commands that write an output folder, each as a quick run.
const WRITERS: [&[&str]; 2] = [&["build"], &["print", "--format", "html"]];

/// Runs `command ARGS` in `dir`: it must be refused with exit 2, saying
/// `message`, and leave the project exactly as it was.
fn refused(command: &[&str], args: &[&str], dir: &Path, message: &str) {
    let before = contents(dir);
    let output = cardsmith(&[command, args].concat(), dir);
    assert_eq!(output.status.code(), Some(2), "{command:?} {args:?}: {}", stderr(&output));
    assert!(stderr(&output).contains(message), "{command:?} {args:?}: {}", stderr(&output));
    assert!(contents(dir) == before, "{command:?} {args:?} changed the project");
}

#[test]
fn an_output_onto_into_or_around_the_cards_is_refused() {
    let dir = bundled_project("dreadnaught-2e");
    let project = dir.path().file_name().and_then(|n| n.to_str()).expect("name").to_string();
    for command in WRITERS {
        refused(command, &["cards", "-o", "cards"], dir.path(), "the output folder cards is the input cards");
        refused(
            command,
            &["cards", "-o", "cards/out"],
            dir.path(),
            "the output folder cards/out lies inside the input cards",
        );
        let around = format!("../{project}");
        refused(command, &["cards", "-o", &around], dir.path(), "holds the input cards: nothing written");
        // From the project's own `paths`, with the output named in the manifest.
        std::fs::write(
            dir.path().join("cardsmith.toml"),
            "[project]\npaths = [\"cards\"]\n[build]\nout = \"cards/engine\"\n[print]\nout = \"cards/print\"\n",
        )
        .expect("manifest");
        refused(command, &[], dir.path(), "lies inside the input cards");
        std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    }
}

#[cfg(unix)]
#[test]
fn an_output_through_a_link_to_the_cards_is_refused() {
    let dir = bundled_project("dreadnaught-2e");
    std::os::unix::fs::symlink("cards", dir.path().join("link")).expect("link");
    for command in WRITERS {
        refused(command, &["-o", "link"], dir.path(), "the output folder link is the input cards");
        refused(
            command,
            &["-o", "link/new/out"],
            dir.path(),
            "the output folder link/new/out lies inside the input cards",
        );
    }
}

#[test]
fn a_print_into_the_template_overrides_is_refused() {
    let dir = bundled_project("dreadnaught-2e");
    std::fs::create_dir_all(dir.path().join("templates/common")).expect("folder");
    refused(&["print"], &["-o", "templates/common/print"], dir.path(), "lies inside the input templates");
}

#[test]
fn a_project_without_paths_writes_its_outputs_inside_itself() {
    let dir = bundled_project("dreadnaught-2e");
    // The project folder is then the input, and it holds the outputs by default.
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\nname = \"fleet\"\n").expect("manifest");
    for (command, out) in WRITERS.iter().zip(["out", "print"]) {
        let output = cardsmith(command, dir.path());
        assert_eq!(output.status.code(), Some(0), "{command:?}: {}", stderr(&output));
        assert!(dir.path().join(out).join(".cardsmith-output").is_file(), "{command:?}");
    }
    // A second run reads the same cards: the outputs are not read as input.
    let output = cardsmith(&["build"], dir.path());
    assert!(stderr(&output).contains("checked 5 files: 26 cards"), "{}", stderr(&output));
}

#[test]
fn a_run_that_finds_no_cards_keeps_the_previous_output() {
    let dir = bundled_project("dreadnaught-2e");
    std::fs::create_dir(dir.path().join("empty")).expect("folder");
    std::fs::create_dir(dir.path().join("rules-only")).expect("folder");
    std::fs::copy(dir.path().join("cards/dreadnaught-2e.rules"), dir.path().join("rules-only/game.rules"))
        .expect("copy");
    for (command, out) in WRITERS.iter().zip(["out", "print"]) {
        let output = cardsmith(command, dir.path());
        assert_eq!(output.status.code(), Some(0), "{command:?}: {}", stderr(&output));
        for input in ["empty", "rules-only"] {
            let message = format!("no cards in {input}: nothing written, the previous output is kept");
            refused(command, &[input, "-o", out], dir.path(), &message);
        }
    }
}

/// A card that `fmt` changes (the spaces before `{`) and `lint --fix` changes
/// (the casing of `UNSTOPPABLE`, `burn` for Resource Burn).
const UNTIDY: &str = "game dreadnaught-2e\n\noffense \"Burner\"   {\n  symbol kinetic\n  arc standard\n  at 3.5 { impact burn 1; impact damage 2 }\n  text \"Inflict 1 burn and 3 {damage}. UNSTOPPABLE.\"\n}\n";

/// The two commands that rewrite input files, each with a sign of its change.
const REWRITERS: [(&[&str], &str); 2] =
    [(&["fmt"], "offense \"Burner\" {"), (&["lint", "--fix"], "Inflict 1 Resource Burn and 3 {damage}. Unstoppable.")];

/// Temporary files a rewrite left in `dir`.
fn temporary_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".cardsmith-"))
        .collect()
}

#[cfg(unix)]
#[test]
fn a_linked_card_file_stays_a_link_and_its_target_is_rewritten() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (shared, project) = (dir.path().join("shared"), dir.path().join("project"));
    std::fs::create_dir(&shared).expect("folder");
    std::fs::create_dir(&project).expect("folder");
    let link = project.join("burner.cards");
    std::os::unix::fs::symlink("../shared/burner.cards", &link).expect("link");
    for (command, changed) in REWRITERS {
        std::fs::write(shared.join("burner.cards"), UNTIDY).expect("write");
        let output = cardsmith(&[command, &["burner.cards"]].concat(), &project);
        assert!(output.status.code().is_some_and(|c| c < 2), "{command:?}: {}", stderr(&output));
        let meta = std::fs::symlink_metadata(&link).expect("link");
        assert!(meta.file_type().is_symlink(), "{command:?} replaced the link with a file");
        assert_eq!(std::fs::read_link(&link).expect("link"), Path::new("../shared/burner.cards"));
        let text = std::fs::read_to_string(shared.join("burner.cards")).expect("target");
        assert!(text.contains(changed), "{command:?} did not rewrite the target: {text}");
        assert_eq!(temporary_files(&shared), Vec::<String>::new(), "{command:?}");
        assert_eq!(temporary_files(&project), Vec::<String>::new(), "{command:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_rewritten_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("burner.cards");
    for (command, changed) in REWRITERS {
        for mode in [0o640, 0o604] {
            std::fs::write(&path, UNTIDY).expect("write");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
            let output = cardsmith(&[command, &["burner.cards"]].concat(), dir.path());
            assert!(output.status.code().is_some_and(|c| c < 2), "{command:?}: {}", stderr(&output));
            assert!(std::fs::read_to_string(&path).expect("read").contains(changed), "{command:?}");
            let kept = std::fs::metadata(&path).expect("metadata").permissions().mode() & 0o7777;
            assert_eq!(kept, mode, "{command:?} changed the mode {mode:o} to {kept:o}");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_file_that_would_not_change_is_not_written() {
    use std::os::unix::fs::MetadataExt;
    let dir = bundled_project("dreadnaught-2e");
    let files: Vec<std::path::PathBuf> =
        std::fs::read_dir(dir.path().join("cards")).expect("cards").map(|e| e.expect("entry").path()).collect();
    // An hour ago, so that any write would show.
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for path in &files {
        std::fs::File::options().write(true).open(path).and_then(|f| f.set_modified(past)).expect("set mtime");
    }
    let identity = |path: &Path| {
        let meta = std::fs::metadata(path).expect("metadata");
        (meta.ino(), meta.mtime(), meta.mtime_nsec())
    };
    let before: Vec<_> = files.iter().map(|p| identity(p)).collect();
    for command in [&["fmt"][..], &["lint", "--fix"]] {
        let output = cardsmith(command, dir.path());
        assert_eq!(output.status.code(), Some(0), "{command:?}: {}", stderr(&output));
        let after: Vec<_> = files.iter().map(|p| identity(p)).collect();
        assert_eq!(after, before, "{command:?} wrote a file it did not change");
    }
}
