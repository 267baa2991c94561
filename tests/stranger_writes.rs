//! What cardsmith writes is safe from a project it did not make and from
//! edits made while it runs: `fmt` and `lint --fix` never overwrite an edit
//! saved meanwhile nor split hard links, exported tables never hold a
//! formula, outputs named by the manifest stay inside the project, and only
//! folders a run made are removed.

mod common;
use common::{bundled_project, cardsmith, contents, stderr};

use std::path::Path;
use std::time::{Duration, Instant};

/// A card that `fmt` changes (the spaces before `{`) and `lint --fix` changes
/// (the casing of `UNSTOPPABLE`, `burn` for Resource Burn).
const UNTIDY: &str = "game dreadnaught-2e\n\noffense \"Burner\"   {\n  symbol kinetic\n  arc standard\n  at 3.5 { impact burn 1; impact damage 2 }\n  text \"Inflict 1 burn and 3 {damage}. UNSTOPPABLE.\"\n}\n";

/// The two commands that rewrite input files, each with the words of its
/// warning for a file it leaves as it is.
const REWRITERS: [(&[&str], &str); 2] = [(&["fmt"], "formatted"), (&["lint", "--fix"], "fixed")];

/// Files whose name marks them as a rewrite's temporary files.
fn temporary_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".cardsmith-"))
        .collect()
}

/// Waits for `until` to hold, for at most 10 seconds.
fn wait_for(what: &str, until: impl Fn() -> bool) {
    let started = Instant::now();
    while !until() {
        assert!(started.elapsed() < Duration::from_secs(10), "waited 10 s for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// An edit saved while `fmt` or `lint --fix` has its new text ready is kept:
/// the run, held just before its rename, finds the file changed and leaves it.
#[test]
fn an_edit_saved_while_a_file_is_rewritten_is_kept() {
    for (command, doing) in REWRITERS {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("burner.cards");
        std::fs::write(&path, UNTIDY).expect("write");
        let release = dir.path().join("release");
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_cardsmith"))
            .args(command)
            .arg("burner.cards")
            .current_dir(dir.path())
            .env("CARDSMITH_TEST_HOOK_PAUSE_BEFORE_RENAME_MS", "20000")
            .env("CARDSMITH_TEST_HOOK_RELEASE_FILE", &release)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("cardsmith starts");
        // The new text is written beside the file (and flushed) before the pause.
        wait_for("the new text", || !temporary_files(dir.path()).is_empty());
        std::thread::sleep(Duration::from_millis(100));
        let edit = UNTIDY.replace("Burner", "Scorcher");
        std::fs::write(&path, &edit).expect("the user's edit");
        std::fs::write(&release, "").expect("release");
        let output = child.wait_with_output().expect("cardsmith ends");
        assert_eq!(output.status.code(), Some(1), "{command:?}: {}", stderr(&output));
        let warning = format!(
            "warning: burner.cards changed while it was being {doing}; left as it is — run `cardsmith {}` again",
            command.join(" ")
        );
        assert!(stderr(&output).contains(&warning), "{command:?}: {}", stderr(&output));
        assert_eq!(std::fs::read_to_string(&path).expect("read"), edit, "{command:?} lost the edit");
        assert_eq!(temporary_files(dir.path()), Vec::<String>::new(), "{command:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_file_with_hard_links_is_left_whole_with_a_warning() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (path, other) = (dir.path().join("burner.cards"), dir.path().join("other-name"));
    for (command, _) in REWRITERS {
        let _ = std::fs::remove_file(&other);
        std::fs::write(&path, UNTIDY).expect("write");
        std::fs::hard_link(&path, &other).expect("hard link");
        let output = cardsmith(&[command, &["burner.cards"]].concat(), dir.path());
        assert_eq!(output.status.code(), Some(1), "{command:?}: {}", stderr(&output));
        assert!(
            stderr(&output)
                .contains("warning: burner.cards has 2 hard links; left as it is: replacing it would part it"),
            "{command:?}: {}",
            stderr(&output)
        );
        assert_eq!(std::fs::read_to_string(&path).expect("read"), UNTIDY, "{command:?}");
        // Still one file under two names.
        std::fs::write(&other, "changed").expect("write");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "changed", "{command:?} split the link");
        // With a file of its own, it is rewritten.
        std::fs::remove_file(&other).expect("unlink");
        std::fs::write(&path, UNTIDY).expect("write");
        let output = cardsmith(&[command, &["burner.cards"]].concat(), dir.path());
        assert!(output.status.code().is_some_and(|c| c < 2), "{command:?}: {}", stderr(&output));
        assert_ne!(std::fs::read_to_string(&path).expect("read"), UNTIDY, "{command:?}");
    }
}

/// A card whose name and text a spreadsheet would run as formulas.  (Plain
/// numbers, negative ones too, stay as they are: the byte-for-byte round
/// trip of every bundled game in `tests/spreadsheet.rs` holds them.)
const FORMULAS: &str = "game dreadnaught-2e\n\noffense \"=HYPERLINK(1)\" {\n  symbol kinetic\n  arc standard\n  at 3.5 { impact damage 2 }\n  text \"=cmd|' /C calc'!A0\"\n}\n";

#[test]
fn an_exported_cell_never_starts_a_formula_and_comes_back_as_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    std::fs::create_dir(dir.path().join("cards")).expect("cards");
    std::fs::write(dir.path().join("cards/formulas.cards"), FORMULAS).expect("cards");
    let output = cardsmith(&["export", "--csv"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let table = std::fs::read_to_string(dir.path().join("csv/dreadnaught-2e-offense.csv")).expect("table");
    assert!(table.contains("\n'=HYPERLINK(1),"), "{table}");
    assert!(table.contains(",'=cmd|' /C calc'!A0,"), "{table}");
    let mut reader = csv::Reader::from_reader(table.as_bytes());
    for cell in reader.records().flat_map(|r| r.expect("record").iter().map(str::to_string).collect::<Vec<_>>()) {
        assert!(!cell.starts_with(['=', '+', '-', '@', '\t', '\r']) || cell.parse::<f64>().is_ok(), "{cell:?}");
    }
    // Imported back, the quote is gone and no warning is given.
    std::fs::rename(dir.path().join("cards/formulas.cards"), dir.path().join("formulas.cards.old")).expect("move");
    let args = ["import", "csv/dreadnaught-2e-offense.csv", "--game", "dreadnaught-2e", "--kind", "offense", "-o"];
    let output = cardsmith(&[&args[..], &["cards/back.cards"]].concat(), dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stderr(&output).contains("E0801"), "{}", stderr(&output));
    let back = std::fs::read_to_string(dir.path().join("cards/back.cards")).expect("imported");
    assert!(back.contains("offense \"=HYPERLINK(1)\""), "{back}");
    assert!(back.contains("text \"=cmd|' /C calc'!A0\""), "{back}");
}

#[test]
fn an_imported_cell_that_a_spreadsheet_would_run_is_a_warning_at_its_cell() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    std::fs::create_dir(dir.path().join("cards")).expect("cards");
    let table = "name,symbol,arc,at,text\n\
                 Shot,kinetic,narrow,3.5 { impact damage 3 },\"=HYPERLINK(\"\"http://example.com\"\")\"\n\
                 @Shot,kinetic,narrow,3.5 { impact damage 3 },Deal 3 {damage}.\n";
    std::fs::write(dir.path().join("offense.csv"), table).expect("table");
    let args = ["import", "offense.csv", "--game", "dreadnaught-2e", "--kind", "offense", "-o", "cards/o.cards"];
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(
        text.contains("warning[E0801]: this cell starts with `=`: a spreadsheet would run it as a formula"),
        "{text}"
    );
    assert!(text.contains("in cell offense.csv!E2 (column `text`): \"=HYPERLINK("), "{text}");
    assert!(text.contains("warning[E0801]: this cell starts with `@`"), "{text}");
    assert!(text.contains("in cell offense.csv!A3 (column `name`): @Shot"), "{text}");
    let cards = std::fs::read_to_string(dir.path().join("cards/o.cards")).expect("written");
    assert!(cards.contains("text \"=HYPERLINK(\\\"http://example.com\\\")\""), "{cards}");
}

/// An output folder the manifest names outside the project (`..`, an
/// absolute path, a link that leads out) is refused at its setting, and
/// nothing is written there; `--out` may name it.
#[test]
fn an_output_folder_the_manifest_names_outside_the_project_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let project = dir.path().join("project");
    std::fs::create_dir(&project).expect("project");
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).expect("outside");
    let cards = bundled_project("dreadnaught-2e");
    std::fs::rename(cards.path().join("cards"), project.join("cards")).expect("cards");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, project.join("link")).expect("link");
    let absolute = outside.join("out").to_string_lossy().replace('\\', "/");
    let mut settings = vec!["../outside/out".to_string(), absolute, "..".to_string(), ".".to_string()];
    if cfg!(unix) {
        settings.extend(["link".to_string(), "link/out".to_string()]);
    }
    for (command, table) in [(&["build"][..], "build"), (&["print", "--format", "html"], "print")] {
        for out in &settings {
            let manifest = format!("[project]\npaths = [\"cards\"]\n[{table}]\nout = \"{out}\"\n");
            std::fs::write(project.join("cardsmith.toml"), &manifest).expect("manifest");
            let output = cardsmith(command, &project);
            assert_eq!(output.status.code(), Some(2), "{command:?} {out}: {}", stderr(&output));
            let message =
                format!("error[E0013]: `[{table}] out` must be a folder inside the project, and `{out}` is not");
            assert!(stderr(&output).contains(&message), "{command:?} {out}: {}", stderr(&output));
            assert!(stderr(&output).contains("cardsmith.toml:4:"), "{command:?} {out}: {}", stderr(&output));
            assert!(stderr(&output).contains("`--out DIR` on the command line"), "{}", stderr(&output));
            assert!(contents(&outside).is_empty(), "{command:?} {out} wrote outside");
        }
        // Inside the project it is written; named on the command line, outside too.
        let manifest = format!("[project]\npaths = [\"cards\"]\n[{table}]\nout = \"made\"\n");
        std::fs::write(project.join("cardsmith.toml"), &manifest).expect("manifest");
        let output = cardsmith(command, &project);
        assert_eq!(output.status.code(), Some(0), "{command:?}: {}", stderr(&output));
        assert!(project.join("made/.cardsmith-output").is_file(), "{command:?}");
        let output = cardsmith(&[command, &["-o", "../outside/given"]].concat(), &project);
        assert_eq!(output.status.code(), Some(0), "{command:?}: {}", stderr(&output));
        std::fs::remove_dir_all(outside.join("given")).expect("written outside when asked");
    }
}

/// Standard error that cannot be written (a full disk) never makes a run
/// panic: it goes on and exits 2, not 101, and writes what it would have.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_error_is_no_panic() {
    let dir = bundled_project("dreadnaught-2e");
    for command in
        [&["check"][..], &["build"], &["fmt"], &["fmt", "--check"], &["print", "--format", "html"], &["lint"]]
    {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_cardsmith"))
            .args(command)
            .current_dir(dir.path())
            .stderr(full)
            .output()
            .expect("cardsmith runs");
        assert_eq!(output.status.code(), Some(2), "{command:?}");
    }
    assert!(dir.path().join("out/.cardsmith-output").is_file(), "the build was written all the same");
    assert!(dir.path().join("print/.cardsmith-output").is_file(), "the print was written all the same");
}

/// Folders beside the output named like a run's temporary folders are
/// removed only when a run made them (they hold its marker, or nothing); a
/// stranger's folder of that name is left whole, with a warning.
#[test]
fn only_folders_a_run_made_are_removed_beside_the_output() {
    let dir = bundled_project("dreadnaught-2e");
    for (command, out) in [(&["build"][..], "out"), (&["print", "--format", "html"], "print")] {
        let strangers = [format!(".{out}.tmp-123"), format!(".{out}.old-456"), format!(".{out}.tmp-x")];
        for stranger in &strangers {
            std::fs::create_dir(dir.path().join(stranger)).expect("folder");
            std::fs::write(dir.path().join(stranger).join("thesis.txt"), "years of work").expect("file");
        }
        let leftover = dir.path().join(format!(".{out}.tmp-999"));
        std::fs::create_dir(&leftover).expect("folder");
        std::fs::write(leftover.join(".cardsmith-output"), "").expect("marker");
        std::fs::write(leftover.join("half-written.json"), "{").expect("file");
        let empty = dir.path().join(format!(".{out}.old-998"));
        std::fs::create_dir(&empty).expect("folder");
        let output = cardsmith(command, dir.path());
        assert_eq!(output.status.code(), Some(0), "{command:?}: {}", stderr(&output));
        for stranger in &strangers {
            let kept = std::fs::read_to_string(dir.path().join(stranger).join("thesis.txt"));
            assert_eq!(kept.ok().as_deref(), Some("years of work"), "{command:?} removed {stranger}");
        }
        let warning = format!(".{out}.tmp-123 as it is: it is named like a folder a killed cardsmith run leaves");
        assert!(stderr(&output).contains(&warning), "{command:?}: {}", stderr(&output));
        assert!(!leftover.exists(), "{command:?} kept a killed run's folder");
        assert!(!empty.exists(), "{command:?} kept an empty leftover");
    }
}

/// `new` on a full disk leaves nothing behind (no empty `cardsmith.toml`
/// that would stop the next run), and runs again once there is room.  The
/// full disk is a file size limit of 0 bytes, with the signal it raises
/// ignored so that each write fails as on a full disk.
#[cfg(unix)]
#[test]
fn new_on_a_full_disk_leaves_nothing_and_runs_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cardsmith_bin = env!("CARGO_BIN_EXE_cardsmith");
    for args in [&["new", "fleet", "--game", "dreadnaught-2e"][..], &["new", "fleet", "--ruleset"]] {
        let script = format!("trap '' XFSZ; ulimit -f 0; exec '{cardsmith_bin}' {}", args.join(" "));
        let output =
            std::process::Command::new("sh").args(["-c", &script]).current_dir(dir.path()).output().expect("sh runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("cannot write"), "{args:?}: {}", stderr(&output));
        assert_eq!(std::fs::read_dir(dir.path()).expect("folder").count(), 0, "{args:?}: something was left");
        let output = cardsmith(args, dir.path());
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", stderr(&output));
        let manifest = std::fs::read_to_string(dir.path().join("fleet/cardsmith.toml")).expect("manifest");
        assert!(manifest.contains("name = \"fleet\""), "{manifest}");
        let check = cardsmith(&["check"], &dir.path().join("fleet"));
        assert_eq!(check.status.code(), Some(0), "{args:?}: {}", stderr(&check));
        std::fs::remove_dir_all(dir.path().join("fleet")).expect("clean");
    }
}

/// `fmt --check` on a file whose every line changes takes time in line with
/// its size: finding the smallest diff took time in the square of the lines
/// (300 KB: 26 s in a debug build, 2.7 MB: over ten minutes), and the diff
/// is now cut short after half a second.  The bound is generous: a hang.
#[test]
fn the_diff_of_a_file_changed_on_every_line_is_quick() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut text = String::from("game dreadnaught-2e\n");
    for i in 0..3000 {
        text += &format!(
            "\n   offense \"Burner {i}\"   {{\n     symbol kinetic   \n     arc standard\n     at 3.5 {{ impact damage 2 }}\n   }}\n"
        );
    }
    std::fs::write(dir.path().join("big.cards"), &text).expect("write");
    let started = Instant::now();
    let output = cardsmith(&["fmt", "--check", "big.cards"], dir.path());
    let took = started.elapsed();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let diff = String::from_utf8_lossy(&output.stdout);
    assert!(diff.starts_with("--- big.cards\n+++ big.cards (formatted)\n@@ "), "{}", &diff[..200]);
    assert!(diff.contains("\n-   offense \"Burner 2999\"   {\n") && diff.contains("\n+offense \"Burner 2999\" {\n"));
    assert!(took < Duration::from_secs(5), "fmt --check took {took:?}");
}

/// Folders nested 1,000 deep are walked in time in line with their number:
/// resolving every folder's whole path anew took time in the cube of the
/// depth (a debug build's `check` of 1,500: 33 s, now 0.34 s).  The bound is
/// generous: a hang.
#[test]
fn folders_nested_deep_are_walked_quickly() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    let deepest = dir.path().join("cards").join(["d"; 1000].join("/"));
    std::fs::create_dir_all(&deepest).expect("nested folders");
    std::fs::write(deepest.join("burner.cards"), UNTIDY.replace("   {", " {")).expect("card");
    let started = Instant::now();
    let output = cardsmith(&["check"], dir.path());
    let took = started.elapsed();
    assert!(stderr(&output).contains("checked 1 file: 1 card"), "{}", stderr(&output));
    assert!(took < Duration::from_secs(5), "check took {took:?}");
}
