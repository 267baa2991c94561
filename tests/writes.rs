//! What cardsmith writes keeps what was there: `build` and `print` never
//! write onto, into or around their inputs, and keep the previous output when
//! they find no cards.

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
