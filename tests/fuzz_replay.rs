//! The fuzz targets' own code (`fuzz/src/lib.rs`) run on their seed corpus,
//! the bundled cards (and for `project`, the project files of the
//! repository), and on every input a fuzzer ever found a crash with
//! (`fuzz/regressions/TARGET/`), so a fixed crash stays fixed without a
//! fuzzer on the machine.  `fuzz_smoke.rs` runs the fuzzer itself.

#[path = "../fuzz/src/lib.rs"]
mod targets;

mod common;

use std::path::{Path, PathBuf};

/// What a fuzz target does with one input.
type Target = fn(&[u8]);

const TARGETS: &[(&str, Target)] = &[
    ("parse", targets::parse),
    ("check", targets::check),
    ("ruleset", targets::ruleset),
    ("fmt", targets::fmt),
    ("layout", targets::layout),
    ("print", targets::print),
    ("template", targets::template),
    ("decks", targets::decks),
    ("sheet", targets::sheet),
    ("project", targets::project),
];

fn files_under(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, found);
        } else {
            found.push(path);
        }
    }
}

#[test]
fn every_target_takes_every_bundled_file() {
    let mut seeds = Vec::new();
    files_under(&common::repo().join("cards"), &mut seeds);
    assert!(seeds.len() >= 20, "the seed corpus is the bundled cards: {} files", seeds.len());
    for seed in &seeds {
        let bytes = std::fs::read(seed).expect("readable");
        for (_, target) in TARGETS {
            target(&bytes);
        }
    }
}

#[test]
fn the_template_target_takes_every_bundled_template() {
    let mut seeds = Vec::new();
    files_under(&common::repo().join("templates"), &mut seeds);
    assert!(seeds.len() >= 20, "the template target's seeds are the bundled templates: {}", seeds.len());
    for seed in &seeds {
        targets::template(&std::fs::read(seed).expect("readable"));
    }
}

#[test]
fn the_sheet_target_takes_its_seeds_the_sheet_example_and_a_workbook() {
    let mut seeds = Vec::new();
    files_under(&common::repo().join("fuzz/seeds/sheet"), &mut seeds);
    assert!(seeds.iter().any(|s| s.extension().is_some_and(|e| e == "xlsx")), "a workbook among the seeds");
    files_under(&common::repo().join("examples/lantern-market-sheet/sheets"), &mut seeds);
    for seed in &seeds {
        targets::sheet(&std::fs::read(seed).expect("readable"));
    }
    let table = std::fs::read_to_string(common::repo().join("examples/lantern-market-sheet/sheets/wares.csv"))
        .expect("a table");
    targets::sheet(&common::xlsx(&[("Wares", common::rows_of_csv(&table))]));
}

#[test]
fn the_project_target_takes_every_project_file_of_the_repository() {
    let mut seeds = Vec::new();
    files_under(&common::repo().join("fuzz/seeds/project"), &mut seeds);
    for folder in ["examples", "tests/ui"] {
        let mut found = Vec::new();
        files_under(&common::repo().join(folder), &mut found);
        seeds.extend(found.into_iter().filter(|p| p.ends_with("cardsmith.toml")));
    }
    seeds.push(common::repo().join("cardsmith.toml"));
    assert!(seeds.len() >= 8, "the project target's seeds are project files: {}", seeds.len());
    for seed in &seeds {
        targets::project(&std::fs::read(seed).expect("readable"));
    }
}

#[test]
fn every_saved_crash_is_fixed() {
    let mut replayed = 0;
    for (name, target) in TARGETS {
        let mut inputs = Vec::new();
        files_under(&common::repo().join("fuzz/regressions").join(name), &mut inputs);
        for input in inputs {
            let bytes = std::fs::read(&input).expect("readable");
            target(&bytes);
            replayed += 1;
        }
    }
    assert!(replayed > 0, "fuzz/regressions holds the inputs of crashes found and fixed");
}
