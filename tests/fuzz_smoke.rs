//! A short run of the coverage-guided fuzzer over every target in `fuzz/`
//! (cargo-fuzz with libFuzzer, `--sanitizer none` on the stable toolchain),
//! seeded with the bundled cards.  Any crash, hang or panic fails the test
//! with the input libFuzzer saved.  `docs/robustness.md` gives the longer run.
//!
//! `CARDSMITH_FUZZ_SECONDS` sets the time per target (default 10).

mod common;

use std::process::Command;

const TARGETS: &[&str] = &["parse", "check", "fmt", "layout", "print"];

#[test]
fn every_fuzz_target_survives_a_short_run() {
    let seconds: u32 = std::env::var("CARDSMITH_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let repo = common::repo();
    let corpora = tempfile::tempdir().expect("temp dir");
    for target in TARGETS {
        let corpus = corpora.path().join(target);
        std::fs::create_dir(&corpus).expect("corpus folder");
        let output = Command::new(&cargo)
            .current_dir(repo)
            .args(["fuzz", "run", "--dev", "--sanitizer", "none", target])
            .arg(&corpus)
            .arg(repo.join("cards"))
            .arg("--")
            .args([format!("-max_total_time={seconds}"), "-timeout=10".into(), "-rss_limit_mb=2048".into()])
            // Flags the test harness gives this process are not for the fuzz build.
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap_or_else(|e| panic!("cannot run cargo ({e})"));
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("no such command: `fuzz`") {
            panic!("cargo-fuzz is not installed: `cargo install cargo-fuzz --locked` (.ci/run does)");
        }
        let tail: Vec<&str> = stderr.lines().rev().take(40).collect::<Vec<_>>().into_iter().rev().collect();
        assert!(output.status.success(), "fuzz target `{target}` failed:\n{}", tail.join("\n"));
        let runs = stderr.lines().rev().find(|l| l.starts_with("Done ")).unwrap_or("");
        assert!(runs.starts_with("Done "), "`{target}` did not report its runs:\n{}", tail.join("\n"));
        eprintln!("fuzz {target}: {runs}");
    }
}
