//! `cardsmith print` killed with SIGKILL while it writes: the previous
//! output stays whole, never half old and half new, and the next print
//! cleans up and replaces it.

mod common;
use common::{bundled_project, cardsmith, contents, kill_before_the_swap, stderr};

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn edit_a_card(dir: &std::path::Path) {
    let path = dir.join("cards/kinetic.cards");
    let text = std::fs::read_to_string(&path).expect("cards");
    let edited = text.replace("impact damage 8+", "impact damage 9+");
    assert_ne!(text, edited, "the edit changes the card");
    std::fs::write(&path, edited).expect("edit");
}

#[test]
fn a_print_killed_before_it_swaps_its_output_in_leaves_the_previous_output() {
    let dir = bundled_project("dreadnaught-2e");
    let output = cardsmith(&["print", "--format", "pdf,png"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let before = contents(&dir.path().join("print"));
    assert!(before.contains_key("dreadnaught-2e.pdf"), "{:?}", before.keys());
    edit_a_card(dir.path());

    let temp = kill_before_the_swap(&["print", "--format", "pdf,png"], dir.path(), "print");
    assert_eq!(contents(&dir.path().join("print")), before, "the previous output changed");
    let written = contents(&temp);
    assert_ne!(written["dreadnaught-2e.pdf"], before["dreadnaught-2e.pdf"], "the killed print had new sheets");

    let output = cardsmith(&["print", "--format", "pdf,png"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!temp.exists(), "the leftover temporary folder was not removed");
    assert_eq!(contents(&dir.path().join("print")), written);
}

#[test]
fn a_print_killed_at_any_moment_leaves_either_the_old_output_or_the_new() {
    let dir = bundled_project("dreadnaught-2e");
    let started = Instant::now();
    let output = cardsmith(&["print"], dir.path());
    let whole_run = started.elapsed();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let before = contents(&dir.path().join("print"));
    edit_a_card(dir.path());

    // Kills spread over the length of a whole run, so that some land while
    // cards are drawn, some while files are written and some near the swap.
    let mut seen = Vec::new();
    for tenth in [1, 3, 5, 7, 8, 9, 10, 12] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
            .arg("print")
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("cardsmith starts");
        std::thread::sleep(whole_run.mul_f64(f64::from(tenth) / 10.0).max(Duration::from_millis(5)));
        let _ = child.kill();
        child.wait().expect("reaped");
        seen.push(contents(&dir.path().join("print")));
    }
    let output = cardsmith(&["print"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let after = contents(&dir.path().join("print"));
    assert_ne!(before, after);
    for (i, output) in seen.iter().enumerate() {
        assert!(*output == before || *output == after, "kill {i} left an output that is neither the old nor the new");
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("project")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".print.tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "a finished print removes what killed ones left");
}
