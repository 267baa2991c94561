//! A short run of the coverage-guided fuzzer over every target in
//! `fuzz/fuzz_targets/` (cargo-fuzz with libFuzzer, `--sanitizer none` on
//! the stable toolchain), seeded with the bundled cards.  Any crash, hang or
//! panic fails the test with the input libFuzzer saved.  Ignored unless asked
//! for (`cargo test -- --ignored`), as it needs cargo-fuzz and takes minutes;
//! `.ci/run` runs it as a step of its own.  `docs/robustness.md` gives the
//! longer run.
//!
//! `CARDSMITH_FUZZ_SECONDS` sets the time per target (default 10).

mod common;

use common::outside_program;
use std::path::Path;
use std::process::Command;

/// How to get cargo-fuzz, for the test that needs it.
const CARGO_FUZZ: &str = "cargo install cargo-fuzz --locked";

/// The cargo that runs this test, so cargo-fuzz is asked of the same toolchain.
fn cargo() -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.current_dir(common::repo());
    // Flags the test harness gives this process are not for the fuzz build.
    command.env_remove("RUSTFLAGS").env_remove("CARGO_TARGET_DIR");
    command
}

/// The fuzz targets: one file each in `fuzz/fuzz_targets/`, each of which
/// cargo-fuzz must know too (a file without its `[[bin]]` in
/// `fuzz/Cargo.toml` would silently never run).
fn targets() -> Vec<String> {
    let folder = common::repo().join("fuzz/fuzz_targets");
    let mut files: Vec<String> = std::fs::read_dir(&folder)
        .expect("fuzz/fuzz_targets")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fuzz targets in {}", folder.display());
    let listed = outside_program(cargo().args(["fuzz", "list"]), CARGO_FUZZ);
    let stderr = String::from_utf8_lossy(&listed.stderr);
    assert!(
        listed.status.success(),
        "cargo-fuzz is not installed ({CARGO_FUZZ}) or cannot list the targets:\n{stderr}"
    );
    let mut known: Vec<String> = String::from_utf8_lossy(&listed.stdout).lines().map(str::to_string).collect();
    known.sort();
    assert_eq!(files, known, "every file in fuzz/fuzz_targets/ needs its [[bin]] in fuzz/Cargo.toml");
    files
}

/// The folder a target's seed corpus comes from: the bundled templates for
/// the target that takes a template, tables and a workbook for the one
/// that takes a spreadsheet, sample project files for the one that takes a
/// project file, the bundled cards for the others.
fn seeds(target: &str) -> &'static str {
    match target {
        "template" => "templates",
        "sheet" => "fuzz/seeds/sheet",
        "project" => "fuzz/seeds/project",
        _ => "cards",
    }
}

/// Runs one target for `seconds`; `Err` with the end of libFuzzer's report
/// when it found a crash or did not run.
fn run(target: &str, seconds: u32, corpus: &Path) -> Result<String, String> {
    std::fs::create_dir(corpus).expect("corpus folder");
    let output = cargo()
        .args(["fuzz", "run", "--dev", "--sanitizer", "none", target])
        .arg(corpus)
        .arg(common::repo().join(seeds(target)))
        .arg("--")
        .args([format!("-max_total_time={seconds}"), "-timeout=10".into(), "-rss_limit_mb=2048".into()])
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo ({e})"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let tail: Vec<&str> = stderr.lines().rev().take(40).collect::<Vec<_>>().into_iter().rev().collect();
    let runs = stderr.lines().rev().find(|l| l.starts_with("Done ")).unwrap_or("");
    match (output.status.success(), runs.is_empty()) {
        (true, false) => Ok(runs.to_string()),
        (true, true) => Err(format!("`{target}` did not report its runs:\n{}", tail.join("\n"))),
        (false, _) => Err(format!("fuzz target `{target}` failed:\n{}", tail.join("\n"))),
    }
}

#[test]
#[ignore = "needs cargo-fuzz: cargo install cargo-fuzz --locked"]
fn every_fuzz_target_survives_a_short_run() {
    let seconds: u32 = std::env::var("CARDSMITH_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let corpora = tempfile::tempdir().expect("temp dir");
    // Every target runs, so one crash does not hide another's.
    let mut failures = Vec::new();
    for target in targets() {
        match run(&target, seconds, &corpora.path().join(&target)) {
            Ok(runs) => eprintln!("fuzz {target}: {runs}"),
            Err(failure) => failures.push(failure),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
