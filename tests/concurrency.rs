//! Two `build` or `print` runs into one folder at once.  The second waits for
//! the first to finish writing, so the folder always ends up whole, and no
//! run's clean-up removes the temporary folder of a run still writing.

mod common;
use common::{bundled_project, cardsmith, output_contents, paused_before_the_swap, stderr};

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A small print with many files (a PNG per card, the decks for Tabletop
/// Simulator), so that a run that lost some would show it.
const PRINT: &[&str] = &["print", "--format", "png,tts,html", "--dpi", "36"];
const BUILD: &[&str] = &["build"];

fn start(args: &[&str], dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cardsmith starts")
}

/// What `child` prints on stderr until it prints `note` (or `limit` passes);
/// the rest stays in its pipe.
fn said_before(child: &mut Child, note: &str, limit: Duration) -> String {
    use std::io::BufRead;
    let pipe = child.stderr.take().expect("stderr piped");
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(pipe).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut said = String::new();
    while let Ok(line) = receiver.recv_timeout(limit) {
        said.push_str(&line);
        said.push('\n');
        if line.contains(note) {
            break;
        }
    }
    said
}

/// The output of one run alone, to compare the racing runs' with.
fn reference(args: &[&str], out: &str) -> BTreeMap<String, Vec<u8>> {
    let dir = bundled_project("dreadnaught-2e");
    let output = cardsmith(args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    output_contents(&dir.path().join(out))
}

/// Starts two runs of `args` in one project, the second `delay` after the
/// first, again and again; after each pair the output folder must be whole,
/// and nothing temporary may be left beside it.
fn race(args: &[&str], out: &str, delays_ms: &[u64]) {
    let expected = reference(args, out);
    assert!(expected.len() > 2, "{:?}", expected.keys());
    let dir = bundled_project("dreadnaught-2e");
    for &delay in delays_ms {
        let first = start(args, dir.path());
        std::thread::sleep(Duration::from_millis(delay));
        let second = start(args, dir.path());
        let outputs = [first.wait_with_output().expect("first ends"), second.wait_with_output().expect("second ends")];
        for (which, output) in ["first", "second"].iter().zip(&outputs) {
            // The second waits for the first rather than failing.
            assert_eq!(output.status.code(), Some(0), "{delay} ms apart, the {which} run: {}", stderr(output));
        }
        let written = output_contents(&dir.path().join(out));
        let missing: Vec<&String> = expected.keys().filter(|name| !written.contains_key(*name)).collect();
        assert!(missing.is_empty(), "{delay} ms apart, both runs succeeded but {missing:?} are missing");
        assert!(written == expected, "{delay} ms apart, the output differs from a single run's");
        assert_eq!(leftovers(dir.path(), out), Vec::<String>::new(), "{delay} ms apart");
    }
}

/// Temporary folders beside the output folder `out`.
fn leftovers(dir: &Path, out: &str) -> Vec<String> {
    let prefixes = [format!(".{out}.tmp-"), format!(".{out}.old-")];
    std::fs::read_dir(dir)
        .expect("project")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| prefixes.iter().any(|p| name.starts_with(p.as_str())))
        .collect()
}

#[test]
fn two_prints_into_one_folder_at_once_leave_it_whole() {
    race(PRINT, "print", &[0, 0, 10, 20, 40, 60, 100, 150]);
}

#[test]
fn two_builds_into_one_folder_at_once_leave_it_whole() {
    race(BUILD, "out", &[0, 0, 0, 2, 5, 10, 15, 20, 30, 40, 60, 80]);
}

/// The first run is held just before it swaps its output in; a second run
/// started then must wait for it, and must not remove its temporary folder.
fn second_run_waits(args: &[&str], out: &str) {
    let expected = reference(args, out);
    let dir = bundled_project("dreadnaught-2e");
    // The first run is held before its swap until the second says it waits.
    let hold = tempfile::tempdir().expect("temp dir");
    let release = hold.path().join("release");
    let (first, temp) = paused_before_the_swap(args, dir.path(), out, Duration::from_secs(120), Some(&release));
    let mut second = start(args, dir.path());
    let folder = dir.path().canonicalize().expect("project folder");
    let note = format!("waiting for another cardsmith run writing in {}", folder.display());
    let said = said_before(&mut second, &note, Duration::from_secs(90));
    assert!(temp.join(".cardsmith-output").is_file(), "the second run removed the first's temporary folder");
    std::fs::write(&release, "").expect("release the first run");
    let first = first.wait_with_output().expect("first ends");
    let second = second.wait_with_output().expect("second ends");
    assert_eq!(first.status.code(), Some(0), "the held run: {}", stderr(&first));
    assert_eq!(second.status.code(), Some(0), "the waiting run: {said}{}", stderr(&second));
    assert!(said.contains(&note), "{said}");
    assert!(output_contents(&dir.path().join(out)) == expected, "the output differs from a single run's");
    assert_eq!(leftovers(dir.path(), out), Vec::<String>::new());
}

#[test]
fn a_print_waits_for_another_print_into_the_same_folder() {
    second_run_waits(PRINT, "print");
}

#[test]
fn a_build_waits_for_another_build_into_the_same_folder() {
    second_run_waits(BUILD, "out");
}
