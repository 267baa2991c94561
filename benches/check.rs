//! Checking large projects, every bundled game in one run.  For 1,000, 10,000
//! and 100,000 cards of each game (projects made by `examples/gen-corpus` and
//! written to a temporary folder), the commands a person runs:
//!
//! - `cardsmith check`: its time, throughput and peak memory;
//! - `cardsmith build`: its time and peak memory;
//! - `cardsmith fmt --check`: its time;
//! - and the baseline: `serde_json` reading the engine data the build wrote
//!   into the engine's own types (`cardsmith::engine::data`), and the ratio
//!   of the check's time to it.
//!
//! Then, inside this process, where the check's time goes: parsing alone,
//! the whole library check (parse, check, lint) and building the engine data.
//! One table per game, then a summary against the targets.  A benchmark
//! prints figures; it asserts nothing.
//!
//!     cargo bench --bench check
//!     cargo bench --bench check -- --games dropfleet-1.3 --sizes 1000,10000
//!
//! Each command runs as a process of its own, so its time is the whole
//! command (reading the files, exiting) and its peak memory, the kernel's
//! maximum resident set size of that process (`wait4`), is its own.  The
//! kernel starts that figure from the memory of the process the command was
//! started from, so the process that starts them stays small: writing the
//! corpus and the in-process timings run in helper processes of this
//! binary.  Times are the median of several runs (fewer for larger sizes),
//! peaks the largest of them.

#[path = "../examples/gen-corpus/corpus.rs"]
mod corpus;
#[path = "shared/peak.rs"]
mod peak;
use peak::wait_with_peak;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const DEFAULT_SIZES: &[usize] = &[1_000, 10_000, 100_000];
/// The targets of the check, for 100,000 cards.
const TARGET_SIZE: usize = 100_000;
const TARGET_CHECK_S: f64 = 2.0;
const TARGET_RATIO: f64 = 2.0;
const TARGET_PEAK_MB: f64 = 1_000.0;
const TARGET_FMT_S: f64 = 2.0;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some(WRITE_CORPUS) => return helper(write_corpus(&args[1..])),
        Some(IN_PROCESS) => return helper(in_process(&args[1..])),
        _ => {}
    }
    let option =
        |names: &[&str]| args.iter().position(|a| names.contains(&a.as_str())).and_then(|i| args.get(i + 1)).cloned();
    let games: Vec<String> = match option(&["--games", "--game"]) {
        Some(list) => list.split(',').map(|g| g.trim().to_string()).filter(|g| !g.is_empty()).collect(),
        None => cardsmith::check::builtin::ids().map(str::to_string).collect(),
    };
    let sizes: Vec<usize> = match option(&["--sizes"]) {
        Some(list) => list.split(',').filter_map(|s| s.trim().replace('_', "").parse().ok()).collect(),
        None => DEFAULT_SIZES.to_vec(),
    };
    println!("cardsmith check benchmark: {}", machine());
    let mut summary = Vec::new();
    for game in &games {
        println!();
        println!("## {game}");
        println!();
        println!("{}", Row::HEADER);
        for &size in &sizes {
            match measure(game, size) {
                Ok(row) => {
                    println!("{}", row.markdown());
                    summary.push((game.clone(), row));
                }
                Err(e) => println!("| {size} | failed: {e} |"),
            }
        }
    }
    println!();
    print_summary(&summary);
    println!();
    println!(
        "The benchmark's own peak memory was {:.0} MB: a command's peak is measured from its start, \
         and may include at most that much of the process that started it.",
        own_peak_mb()
    );
}

/// The helper modes: the work done in a process of the benchmark's own, so
/// that the process that starts the commands stays small (the kernel counts
/// the memory of the process a command was started from in its peak).
const WRITE_CORPUS: &str = "--write-corpus";
const IN_PROCESS: &str = "--in-process";

/// Prints a helper's answer, or its error on stderr with a failing status.
fn helper(result: Result<String, String>) {
    match result {
        Ok(answer) => println!("{answer}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

/// Runs this benchmark's binary in a helper mode and returns its answer.
fn ask_helper(args: &[&str]) -> Result<Vec<String>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the benchmark binary: {e}"))?;
    let output = Command::new(exe).args(args).output().map_err(|e| format!("cannot run {}: {e}", args[0]))?;
    if !output.status.success() {
        return Err(format!("{} failed: {}", args[0], String::from_utf8_lossy(&output.stderr)));
    }
    Ok(String::from_utf8_lossy(&output.stdout).split_whitespace().map(str::to_string).collect())
}

fn number<T: std::str::FromStr>(answer: &[String], index: usize) -> Result<T, String> {
    answer.get(index).and_then(|word| word.parse().ok()).ok_or_else(|| format!("a helper answered {answer:?}"))
}

/// The figures of one game at one size.
struct Row {
    cards: usize,
    files: usize,
    source_mb: f64,
    runs: usize,
    check: Measured,
    build: Measured,
    fmt: Measured,
    serde_s: f64,
    json_mb: f64,
    parse_s: f64,
    library_check_s: f64,
    engine_data_s: f64,
}

impl Row {
    const HEADER: &'static str = "| cards | files | source | check | throughput | check peak | build | build peak | \
        fmt --check | serde_json | check ÷ serde_json | parse alone | library check | engine data |\n\
        | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |";

    fn markdown(&self) -> String {
        format!(
            "| {} | {} | {:.1} MB | {:.3} s | {:.1} MB/s, {} cards/s | {:.0} MB | {:.3} s | {:.0} MB | {:.3} s | \
             {:.3} s ({:.1} MB) | {:.2} | {:.3} s | {:.3} s | {:.3} s |",
            thousands(self.cards),
            thousands(self.files),
            self.source_mb,
            self.check.seconds,
            self.source_mb / self.check.seconds,
            thousands((self.cards as f64 / self.check.seconds) as usize),
            self.check.peak_mb,
            self.build.seconds,
            self.build.peak_mb,
            self.fmt.seconds,
            self.serde_s,
            self.json_mb,
            self.ratio(),
            self.parse_s,
            self.library_check_s,
            self.engine_data_s,
        )
    }

    fn ratio(&self) -> f64 {
        self.check.seconds / self.serde_s
    }
}

/// Writes a project of `size` cards of `game` to a temporary folder and
/// measures every command on it.
fn measure(game: &str, size: usize) -> Result<Row, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary folder: {e}"))?;
    let folder = dir.path().to_str().ok_or("a temporary folder whose path is not UTF-8")?;
    let written = ask_helper(&[WRITE_CORPUS, game, &size.to_string(), folder])?;
    let (cards, decks, files, bytes): (usize, usize, usize, usize) =
        (number(&written, 0)?, number(&written, 1)?, number(&written, 2)?, number(&written, 3)?);
    let runs = match size {
        0..=2_000 => 5,
        _ => 3,
    };

    // The summary `cardsmith check` prints: every card counted, nothing wrong.
    let clean = format!("{cards} cards, {decks} decks; 0 errors, 0 warnings");
    let check = run_command(dir.path(), &["check"], runs, Some(&clean))?;
    let build = run_command(dir.path(), &["build", "-o", "out"], runs, None)?;
    let fmt = run_command(dir.path(), &["fmt", "--check"], runs, None)?;

    let timed = ask_helper(&[IN_PROCESS, game, folder, &runs.to_string(), &cards.to_string()])?;
    Ok(Row {
        cards,
        files,
        source_mb: bytes as f64 / 1e6,
        runs,
        check,
        build,
        fmt,
        serde_s: number(&timed, 0)?,
        json_mb: number(&timed, 1)?,
        parse_s: number(&timed, 2)?,
        library_check_s: number(&timed, 3)?,
        engine_data_s: number(&timed, 4)?,
    })
}

/// `--write-corpus GAME SIZE DIR`: writes the project; answers its cards,
/// decks, card files and bytes of cards.
fn write_corpus(args: &[String]) -> Result<String, String> {
    let [game, size, dir] = args else { return Err(format!("{WRITE_CORPUS} GAME SIZE DIR")) };
    let size: usize = size.parse().map_err(|_| format!("`{size}` is not a number of cards"))?;
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let samples = corpus::sample_files(repository, game).map_err(|e| format!("cannot read the samples: {e}"))?;
    let project = corpus::Template::new(game, samples)?.project(size, 4);
    let (mut files, mut bytes) = (0, 0);
    for file in &project.files {
        let path = Path::new(dir).join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        if file.path.ends_with(".cards") {
            files += 1;
            bytes += file.text.len();
        }
    }
    Ok(format!("{} {} {files} {bytes}", project.cards, project.decks))
}

/// Every `.cards` file below `dir`, by its path relative to `dir`, sorted.
fn card_files(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "cards") {
                let name = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                found.push((name, text));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// `--in-process GAME DIR RUNS CARDS`: the serde_json baseline on the engine
/// data the build wrote, then the phases; answers the baseline's time, the
/// JSON's size in MB, and the three phase times.
fn in_process(args: &[String]) -> Result<String, String> {
    let [game, dir, runs, cards] = args else { return Err(format!("{IN_PROCESS} GAME DIR RUNS CARDS")) };
    let runs: usize = runs.parse().map_err(|_| format!("`{runs}` is not a number of runs"))?;
    let cards: usize = cards.parse().map_err(|_| format!("`{cards}` is not a number of cards"))?;
    let json = std::fs::read_to_string(Path::new(dir).join("out").join(format!("{game}.json")))
        .map_err(|e| format!("the build wrote no engine data for {game}: {e}"))?;
    let serde_s = median_of(runs, || match cardsmith::engine::data::Document::from_json(&json) {
        Ok(document) if document.cards.len() == cards => Ok(()),
        Ok(document) => Err(format!("the engine data holds {} cards, not {cards}", document.cards.len())),
        Err(e) => Err(format!("the engine cannot read its data: {e}")),
    })?;
    let json_mb = json.len() as f64 / 1e6;
    drop(json);
    let files = card_files(Path::new(dir))?;
    let sources: Vec<(&str, &str)> = files.iter().map(|(name, text)| (name.as_str(), text.as_str())).collect();
    let (parse_s, check_s, engine_data_s) = phases(&sources, runs)?;
    Ok(format!("{serde_s} {json_mb} {parse_s} {check_s} {engine_data_s}"))
}

/// Where the check's time goes, measured inside this process through the
/// library: parsing alone, the whole check (parse, check, lint), and
/// building the engine data from the checked project.
fn phases(sources: &[(&str, &str)], runs: usize) -> Result<(f64, f64, f64), String> {
    let parse_s = median_of(runs, || {
        let mut files = cardsmith::source::Files::new();
        let ids: Vec<_> = sources.iter().map(|(name, text)| files.add(*name, *text)).collect();
        std::hint::black_box(cardsmith::syntax::parse_many(&files, &ids));
        Ok(())
    })?;
    let check = || {
        let mut workspace = cardsmith::workspace::Workspace::new();
        for (name, text) in sources {
            workspace.add_text(name, text);
        }
        workspace.check()
    };
    let check_s = median_of(runs, || {
        std::hint::black_box(check());
        Ok(())
    })?;
    let outcome = check();
    let engine_data_s = median_of(runs, || {
        cardsmith::backend::json::build(&outcome.files, &outcome.project)
            .map(|documents| drop(std::hint::black_box(documents)))
            .map_err(|e| format!("the engine data could not be built: {e}"))
    })?;
    Ok((parse_s, check_s, engine_data_s))
}

/// A command's median time and its largest peak memory over the runs.
struct Measured {
    seconds: f64,
    peak_mb: f64,
}

/// Runs `cardsmith ARGS` in `dir` `runs` times.  Each run must succeed and,
/// when `expected` is given, say it on stderr.
fn run_command(dir: &Path, args: &[&str], runs: usize, expected: Option<&str>) -> Result<Measured, String> {
    let mut times = Vec::new();
    let mut peak_mb: f64 = 0.0;
    for _ in 0..runs {
        let (seconds, peak, stderr) = run_once(dir, args)?;
        if let Some(expected) = expected.filter(|e| !stderr.contains(e)) {
            return Err(format!("`cardsmith {}` did not say `{expected}`:\n{stderr}", args.join(" ")));
        }
        times.push(seconds);
        peak_mb = peak_mb.max(peak);
    }
    Ok(Measured { seconds: median(&mut times), peak_mb })
}

/// One run of `cardsmith ARGS`: its wall time, its peak resident memory in
/// MB and its stderr.  Fails unless it exits with 0.
fn run_once(dir: &Path, args: &[&str]) -> Result<(f64, f64, String), String> {
    let stderr_path = dir.join(".bench-stderr");
    let stderr_file = std::fs::File::create(&stderr_path).map_err(|e| format!("cannot capture stderr: {e}"))?;
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(stderr_file)
        .spawn()
        .map_err(|e| format!("cannot run cardsmith: {e}"))?;
    let (status, peak_kb) = wait_with_peak(child.id())?;
    let seconds = start.elapsed().as_secs_f64();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let _ = std::fs::remove_file(&stderr_path);
    if status != 0 {
        return Err(format!("`cardsmith {}` failed (wait status {status}):\n{stderr}", args.join(" ")));
    }
    Ok((seconds, peak_kb as f64 * 1024.0 / 1e6, stderr))
}

fn median_of(runs: usize, mut f: impl FnMut() -> Result<(), String>) -> Result<f64, String> {
    let mut times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        f()?;
        times.push(start.elapsed().as_secs_f64());
    }
    Ok(median(&mut times))
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Each game's figures at the target size against the targets.
fn print_summary(rows: &[(String, Row)]) {
    let at_target: Vec<&(String, Row)> = rows.iter().filter(|(_, row)| row.cards >= TARGET_SIZE).collect();
    if at_target.is_empty() {
        return println!("No size of {} cards or more was measured: no summary against the targets.", TARGET_SIZE);
    }
    println!("## Against the targets (at {} cards)", thousands(TARGET_SIZE));
    println!();
    println!("| game | check < {TARGET_CHECK_S} s | check ≤ {TARGET_RATIO}× serde_json | check peak < {TARGET_PEAK_MB} MB | build peak < {TARGET_PEAK_MB} MB | fmt --check < {TARGET_FMT_S} s |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for (game, row) in at_target {
        let verdict = |met: bool| if met { "met" } else { "**not met**" };
        println!(
            "| {game} | {} ({:.2} s) | {} ({:.2}×) | {} ({:.0} MB) | {} ({:.0} MB) | {} ({:.2} s) |",
            verdict(row.check.seconds < TARGET_CHECK_S),
            row.check.seconds,
            verdict(row.ratio() <= TARGET_RATIO),
            row.ratio(),
            verdict(row.check.peak_mb < TARGET_PEAK_MB),
            row.check.peak_mb,
            verdict(row.build.peak_mb < TARGET_PEAK_MB),
            row.build.peak_mb,
            verdict(row.fmt.seconds < TARGET_FMT_S),
            row.fmt.seconds,
        );
    }
    let runs: Vec<String> = rows.iter().map(|(_, r)| format!("{} at {}", r.runs, thousands(r.cards))).collect();
    println!();
    println!("Runs per figure: {}.", runs.join(", "));
}

/// `100000` as `100,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// This process's peak resident memory so far (`VmHWM`), in MB.
fn own_peak_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:")?.trim().trim_end_matches(" kB").trim().parse::<f64>().ok());
    kb.map_or(f64::NAN, |kb| kb * 1024.0 / 1e6)
}

/// The processor, its cores and the memory, for the report.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name")?.split_once(':').map(|(_, m)| m.trim().to_string()))
        .unwrap_or_else(|| "unknown processor".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:")?.trim().trim_end_matches(" kB").parse::<f64>().ok())
        .map_or("unknown memory".into(), |kb| format!("{:.0} GiB", kb / 1024.0 / 1024.0));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("?");
    format!("{cores} cores of {model}, {memory}; load average {load} at the start")
}
