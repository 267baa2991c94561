//! Checking large projects: for 1,000, 10,000 and 100,000 cards of a bundled
//! game (made by `examples/gen-corpus`), the time and throughput of a check
//! (parse, check, lint), its peak memory, the time to build the engine data
//! and to format every file, and `serde_json` reading the same cards' engine
//! data into the engine's own types — the baseline check is compared with.
//! A benchmark prints figures; it asserts nothing.
//!
//!     cargo bench --bench check
//!     cargo bench --bench check -- --game dropfleet-1.3 --sizes 1000,10000
//!
//! Each size runs in a process of its own, so its peak memory (VmHWM, reset
//! once the corpus is in memory) is its own.  Times are the median of
//! several runs (fewer for larger sizes).

#[path = "../examples/gen-corpus/corpus.rs"]
mod corpus;

use cardsmith::workspace::{Outcome, Workspace};
use std::process::Command;
use std::time::Instant;

const DEFAULT_GAME: &str = "dreadnaught-2e";
const DEFAULT_SIZES: &[usize] = &[1_000, 10_000, 100_000];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let game = option("--game").unwrap_or_else(|| DEFAULT_GAME.to_string());
    if let Some(size) = option("--child") {
        match size.parse() {
            Ok(size) => child(&game, size),
            Err(_) => eprintln!("--child takes a number of cards"),
        }
        return;
    }
    let sizes: Vec<usize> = match option("--sizes") {
        Some(list) => list.split(',').filter_map(|s| s.trim().replace('_', "").parse().ok()).collect(),
        None => DEFAULT_SIZES.to_vec(),
    };
    println!("cardsmith check benchmark: {game}, {}", machine());
    println!();
    for size in sizes {
        let Ok(exe) = std::env::current_exe() else { return eprintln!("cannot find the benchmark binary") };
        let output = Command::new(exe).args(["--child", &size.to_string(), "--game", &game]).output();
        match output {
            Ok(output) if output.status.success() => print!("{}", String::from_utf8_lossy(&output.stdout)),
            Ok(output) => eprintln!("{size} cards failed:\n{}", String::from_utf8_lossy(&output.stderr)),
            Err(e) => eprintln!("{size} cards: cannot run: {e}"),
        }
    }
}

/// One size, in its own process.
fn child(game: &str, size: usize) {
    let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let samples = match corpus::sample_files(repository, game) {
        Ok(samples) => samples,
        Err(e) => return eprintln!("cannot read the sample cards of {game}: {e}"),
    };
    let template = match corpus::Template::new(game, samples) {
        Ok(template) => template,
        Err(e) => return eprintln!("{e}"),
    };
    let project = template.project(size, 4);
    let (expected_cards, expected_decks) = (project.cards, project.decks);
    let sources: Vec<(String, Vec<u8>)> = project
        .files
        .iter()
        .filter(|f| f.path.ends_with(".cards"))
        .map(|f| (f.path.clone(), f.text.clone().into_bytes()))
        .collect();
    drop(project.files);
    let bytes: usize = sources.iter().map(|(_, b)| b.len()).sum();
    let runs = match size {
        0..=2_000 => 9,
        2_001..=20_000 => 5,
        _ => 3,
    };

    // The first check is the one whose peak memory is measured.
    reset_peak_memory();
    let before = resident_mb();
    let (first, outcome) = timed(|| check(&sources));
    let peak = peak_memory_mb();
    if outcome.stats.errors + outcome.stats.warnings > 0 {
        return eprintln!("the generated cards do not check clean: {} problems", outcome.diagnostics.len());
    }
    if (outcome.stats.cards, outcome.stats.decks) != (expected_cards, expected_decks) {
        return eprintln!("the check counted {} cards, not {expected_cards}", outcome.stats.cards);
    }
    drop(outcome);
    let mut times = vec![first];
    for _ in 1..runs {
        times.push(timed(|| check(&sources)).0);
    }
    let check_s = median(&mut times);

    let parse_s = median(&mut (0..runs).map(|_| timed(|| parse(&sources)).0).collect::<Vec<_>>());

    let outcome = check(&sources);
    let (build_s, documents) = timed(|| cardsmith::backend::json::build(&outcome.files, &outcome.project));
    let Ok(documents) = documents else { return eprintln!("the engine data could not be built") };
    let Some(document) = documents.iter().find(|d| d.name == format!("{game}.json")) else {
        return eprintln!("no engine data for {game}");
    };
    let json = &document.contents;

    let fmt_s = timed(|| {
        for id in outcome.files.ids().filter(|id| outcome.files.get(*id).name.ends_with(".cards")) {
            std::hint::black_box(cardsmith::fmt::format_file(&outcome.files, id).is_ok());
        }
    })
    .0;

    // The baseline: what an engine does to load the same cards.
    let mut serde_times: Vec<f64> = (0..runs)
        .map(|_| {
            timed(|| match cardsmith::engine::data::Document::from_json(json) {
                Ok(document) => assert_eq!(document.cards.len(), expected_cards),
                Err(e) => panic!("the engine cannot read its data: {e}"),
            })
            .0
        })
        .collect();
    let serde_s = median(&mut serde_times);

    let mb = bytes as f64 / 1e6;
    let json_mb = json.len() as f64 / 1e6;
    let cards = outcome.stats.cards;
    println!("{cards} cards in {} files ({mb:.1} MB of source, {} decks)", sources.len(), outcome.stats.decks);
    println!(
        "  check     {:>8.3} s  {:>7.1} MB/s  {:>9.0} cards/s  (parse alone {:.3} s; median of {runs})",
        check_s,
        mb / check_s,
        cards as f64 / check_s,
        parse_s
    );
    println!("  memory    {peak:>8.0} MB peak while checking ({before:.0} MB before: the corpus and the program)");
    println!("  build     {build_s:>8.3} s  engine data, {json_mb:.1} MB of JSON");
    println!("  fmt       {fmt_s:>8.3} s  every file");
    println!("  baseline  {serde_s:>8.3} s  serde_json reading the engine data ({:.0} MB/s)", json_mb / serde_s);
    println!("  ratio     {:>8.2}   check time / baseline time", check_s / serde_s);
    println!();
}

fn check(sources: &[(String, Vec<u8>)]) -> Outcome {
    let mut workspace = Workspace::new();
    for (name, bytes) in sources {
        workspace.add_bytes(name, bytes.clone());
    }
    workspace.check()
}

fn parse(sources: &[(String, Vec<u8>)]) -> usize {
    let mut files = cardsmith::source::Files::new();
    let ids: Vec<_> =
        sources.iter().map(|(name, bytes)| files.add(name.as_str(), String::from_utf8_lossy(bytes))).collect();
    cardsmith::syntax::parse_many(&files, &ids).iter().map(|(tree, _)| tree.nodes.len()).sum()
}

fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let start = Instant::now();
    let value = f();
    (start.elapsed().as_secs_f64(), value)
}

fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}

/// A field of /proc/self/status, in MB.
fn status_mb(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.trim().trim_end_matches(" kB").trim().parse::<f64>().ok())
        .unwrap_or(f64::NAN);
    kb * 1024.0 / 1e6
}

fn resident_mb() -> f64 {
    status_mb("VmRSS:")
}

fn peak_memory_mb() -> f64 {
    status_mb("VmHWM:")
}

/// Resets VmHWM to the current resident size (Linux 4.0 and later).
fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
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
    format!("{cores} cores of {model}, {memory}")
}
