//! `cardsmith simulate`: the report's schema is the one in the docs and
//! every report validates against it, `simulate merge` adds shards up into
//! exactly the report of the whole run (and refuses reports of other
//! runs), the command checks its arguments against the engine data, and
//! the HTML page draws its charts in a real browser.
//!
//! The reports here are made from synthetic game records through the
//! library, so their statistics are known.

mod common;
use common::{cardsmith, outside_program, repo, stderr};

use cardsmith::engine::record::{CardUse, Ended, GameRecord};
use cardsmith::engine::simulate::report::{self, Report};
use cardsmith::engine::simulate::settings::{Settings, Shards};
use cardsmith::engine::simulate::{html, text, Summary};
use std::path::Path;

/// Game `i`: seat 1 wins when i % 5 < 3, else seat 2; i % 7 + 3 rounds;
/// the winner acquires one "Beacon"; a "Lamp" is in every game, and no
/// seat ever acquires or plays it.
fn record(i: u64) -> GameRecord {
    let winner = if i % 5 < 3 { 0 } else { 1 };
    let rounds = (i % 7) as u32 + 3;
    let curve: Vec<Vec<i64>> =
        (1..=i64::from(rounds)).map(|r| if winner == 0 { vec![2 * r, r] } else { vec![r, 2 * r] }).collect();
    let beacon = |n| vec![CardUse { card: "Beacon".into(), acquired: n, played: n }];
    GameRecord {
        seed: i,
        winner: Some(winner),
        rounds,
        ended: Ended::Condition,
        scores: curve.last().cloned().unwrap_or_default(),
        curve,
        cards: if winner == 0 { vec![beacon(1), beacon(0)] } else { vec![beacon(0), beacon(1)] },
        in_play: vec!["Beacon".into(), "Lamp".into()],
        decisions: 12,
        sided: Vec::new(),
    }
}

fn settings(shard: Option<Shards>) -> Settings {
    Settings {
        game: "tiny".into(),
        data: "fnv1a64:0123456789abcdef".into(),
        games: 60,
        seed: 9,
        bots: vec!["random".into(), "search:100".into()],
        decks: vec![None, None],
        matrix: Vec::new(),
        supply: Vec::new(),
        shard,
    }
}

/// The report of the games of shard `k` of `n` (all games with `None`).
fn report(shard: Option<(u64, u64)>) -> Report {
    let mut summary = Summary::default();
    let (k, n) = shard.unwrap_or((1, 1));
    for i in (k - 1..60).step_by(n as usize) {
        summary.add(&record(i), None);
    }
    Report::new(settings(shard.map(|(k, n)| Shards { count: n, parts: vec![k] })), summary)
}

#[test]
fn the_schema_in_the_docs_is_the_reports_and_every_report_fits_it() {
    let stored = std::fs::read_to_string(repo().join("docs/simulate.schema.json")).expect("docs/simulate.schema.json");
    assert!(
        stored == report::schema(),
        "docs/simulate.schema.json is out of date: cargo run -- simulate --schema > docs/simulate.schema.json"
    );
    let printed = cardsmith(&["simulate", "--schema"], repo());
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
    assert_eq!(String::from_utf8_lossy(&printed.stdout), stored);
    let validator = common::validator(&repo().join("docs/simulate.schema.json"));
    for report in [report(None), report(Some((2, 3)))] {
        let value: serde_json::Value = serde_json::from_str(&report.to_json()).expect("JSON");
        assert_eq!(common::objections(&validator, &value), []);
        assert_eq!(value["format"], report::FORMAT);
    }
}

/// A card in every game that no seat acquired or played has its row, in
/// every form of the report: zero counts, and no rate with the card.
#[test]
fn a_card_never_acquired_nor_played_has_a_row_of_zeros() {
    let report = report(None);
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("json");
    let lamp = json["figures"]["cards"].as_array().expect("cards").iter().find(|c| c["card"] == "Lamp");
    let lamp = lamp.expect("a row for Lamp");
    assert_eq!((&lamp["games_acquired"], &lamp["games_played"]), (&0.into(), &0.into()));
    assert_eq!(
        (&lamp["mean_copies_acquired"], &lamp["win_rate_acquired"]["trials"]),
        (&serde_json::Value::Null, &0.into())
    );
    assert_eq!(lamp["win_rate_acquired"]["rate"], serde_json::Value::Null);
    assert_eq!(lamp["win_rate_not_acquired"]["trials"], 120, "every seat-game is one without it");
    assert_eq!(json["summary"]["cards"]["Lamp"]["games_acquired"], 0);

    let text = text::render(&report);
    let row = text.lines().find(|l| l.trim_start().starts_with("Lamp")).expect("a text row for Lamp");
    assert!(row.contains("0 games"), "{row}");
    let page = html::page(&report);
    assert!(page.contains("<td>Lamp</td><td>0</td>"), "{page}");
}

#[test]
fn merge_adds_shards_up_into_the_whole_run_byte_for_byte() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for k in [3, 1, 2] {
        let path = dir.path().join(format!("part{k}.json"));
        std::fs::write(&path, report(Some((k, 3))).to_json()).expect("written");
        files.push(path.display().to_string());
    }
    let whole = report(None);
    for (format, expected) in [
        ("json", whole.to_json()),
        ("text", cardsmith::engine::simulate::text::render(&whole)),
        ("html", cardsmith::engine::simulate::html::page(&whole)),
    ] {
        let mut args = vec!["simulate", "merge"];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--format", format]);
        let merged = cardsmith(&args, dir.path());
        assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
        assert!(String::from_utf8_lossy(&merged.stdout) == expected, "merged {format} differs from the whole run's");
    }
    // Written atomically to a file, twice over.
    let out = dir.path().join("merged.json");
    for _ in 0..2 {
        let mut args = vec!["simulate", "merge"];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--format", "json", "-o", out.to_str().expect("UTF-8")]);
        let merged = cardsmith(&args, dir.path());
        assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
        assert_eq!(std::fs::read_to_string(&out).expect("written"), whole.to_json());
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into())
        .collect();
    assert_eq!(names.len(), 4, "no temporary file is left: {names:?}");
    // Figures: seat 1 wins 36 of 60.
    let value: serde_json::Value = serde_json::from_str(&whole.to_json()).expect("JSON");
    assert_eq!(value["figures"]["seats"][0]["wins"]["successes"], 36);
    assert_eq!(value["figures"]["seats"][0]["wins"]["trials"], 60);
}

#[test]
fn merge_refuses_other_runs_and_the_same_shard_twice() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, report: &Report| {
        let path = dir.path().join(name);
        std::fs::write(&path, report.to_json()).expect("written");
        path.display().to_string()
    };
    let one = write("one.json", &report(Some((1, 2))));
    let mut reseeded = report(Some((2, 2)));
    reseeded.settings.seed = 10;
    let other = write("other.json", &reseeded);
    let refused = cardsmith(&["simulate", "merge", &one, &other], dir.path());
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused)
            .contains("cannot merge: report 2 is not a shard of the same run as report 1: its seed differs"),
        "{}",
        stderr(&refused)
    );
    let twice = cardsmith(&["simulate", "merge", &one, &one], dir.path());
    assert!(stderr(&twice).contains("holds shard 1/2 again"), "{}", stderr(&twice));
    let not_json = write("not.json", &report(None));
    std::fs::write(&not_json, "{\"format\": 1}").expect("written");
    let broken = cardsmith(&["simulate", "merge", &not_json], dir.path());
    assert_eq!(broken.status.code(), Some(2));
    assert!(stderr(&broken).contains("not a simulate report"), "{}", stderr(&broken));
}

/// Engine data of a made-up game that declares play: two to four players,
/// one bot, two decks.
const TINY: &str = r#"{"format": 3, "ruleset": {"id": "tiny", "setup": {"players": {"min": 2, "max": 4}},
 "play": {"ends_when": {"source": "round >= 3", "tree": {"op": "compare", "first": {"op": "round"},
   "rest": [["ge", {"op": "int", "value": 3}]]}},
   "round_limit": 10, "score": {"source": "1", "tree": {"op": "int", "value": 1}}},
 "bots": [{"id": "first", "prefer": []}]},
 "decks": [{"name": "Red", "deck_type": "pile"}, {"name": "Blue", "deck_type": "pile"}]}"#;

fn simulate_tiny(dir: &Path, more: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["simulate", "--data", "tiny.json", "--games", "10", "--seed", "1"];
    args.extend(more);
    let output = cardsmith(&args, dir);
    (output.status.code(), stderr(&output))
}

#[test]
fn the_command_checks_bots_decks_seats_and_shards_against_the_data() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("tiny.json"), TINY).expect("written");
    for (args, said) in [
        (&["--bot", "2=greedy:nope"][..], "no bot `nope` in `tiny`"),
        (&["--bot", "2=clever"], "`clever` is not a bot"),
        (&["--bot", "0=random"], "`0=random` names no seat"),
        (&["--bot", "5=random"], "`tiny` is played by 2 to 4 players, not 5"),
        (&["--deck", "1=Green"], "no deck `Green` in `tiny`"),
        (&["--matrix", "Red"], "--matrix needs two decks or more"),
        (&["--matrix", "Red", "Blue", "--bot", "3=random"], "a matrix plays two seats"),
        (&["--shard", "3/2"], "`3/2` is not a shard"),
        (&["--out", "tiny.json"], "refusing to write over the engine data read"),
    ] {
        let (code, stderr) = simulate_tiny(dir.path(), args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
    // A bundled game declares no play yet.
    let bundled = cardsmith(&["simulate", "cards/dreadnaught-2e", "--games", "3", "--seed", "1"], repo());
    assert_eq!(bundled.status.code(), Some(2));
    assert!(stderr(&bundled).contains("`dreadnaught-2e` declares no play"), "{}", stderr(&bundled));
}

/// A shard that holds no game (four shards of two games) is played
/// without the engine: the whole path from the data to the written report
/// and log.
#[test]
fn a_shard_without_games_writes_an_empty_report_and_log() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("tiny.json"), TINY).expect("written");
    let mut args = vec!["simulate", "--data", "tiny.json", "--games", "2", "--seed", "5", "--shard", "3/4"];
    args.extend(["--bot", "2=greedy", "--bot", "3=search", "--deck", "1=Red", "--log", "3", "--format", "json"]);
    args.extend(["-o", "part3.json"]);
    let output = cardsmith(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read(dir.path().join("simulate-log.txt")).expect("the log"), b"");
    let report = Report::from_json(&std::fs::read_to_string(dir.path().join("part3.json")).expect("the report"))
        .expect("a report");
    let expected = Settings {
        game: "tiny".into(),
        data: cardsmith::engine::simulate::settings::fingerprint(TINY.as_bytes()),
        games: 2,
        seed: 5,
        bots: vec!["random".into(), "greedy:first".into(), "search:100".into()],
        decks: vec![Some("Red".into()), None, None],
        matrix: Vec::new(),
        supply: Vec::new(),
        shard: Some(Shards { count: 4, parts: vec![3] }),
    };
    assert_eq!(report.settings, expected);
    assert_eq!(report.summary, Summary::default());
    for format in ["text", "html"] {
        let shown = cardsmith(&["simulate", "merge", "part3.json", "--format", format], dir.path());
        assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
        let shown = String::from_utf8_lossy(&shown.stdout);
        assert!(shown.contains("shards: 3/4 (not the whole run)") || shown.contains("shards 3/4 only"), "{shown}");
    }
    let none = cardsmith(&["simulate", "--data", "tiny.json", "--games", "0", "--seed", "1"], dir.path());
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("--games 0 plays nothing"), "{}", stderr(&none));
}

/// The example game played by bots: the same command twice gives the same
/// bytes, and its JSON report fits the schema.
#[test]
fn the_example_game_simulates_the_same_twice_and_its_report_fits_the_schema() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = repo().join("examples/lantern-market");
    let game = game.to_str().expect("utf-8");
    let run = |out: &str| {
        let args =
            ["simulate", game, "--games", "300", "--seed", "7", "--bot", "1=greedy", "--format", "json", "-o", out];
        let output = cardsmith(&args, dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        std::fs::read_to_string(dir.path().join(out)).expect("the report")
    };
    let (first, second) = (run("a.json"), run("b.json"));
    assert_eq!(first, second, "the same seed and data give the same report");
    let value: serde_json::Value = serde_json::from_str(&first).expect("json");
    let validator = common::validator(&repo().join("docs/simulate.schema.json"));
    assert_eq!(common::objections(&validator, &value), Vec::<(String, String)>::new());
    let report = Report::from_json(&first).expect("a report");
    assert_eq!(report.summary.games, 300);
    let decided: u64 = report.summary.wins.iter().sum();
    assert_eq!(decided + report.summary.draws, 300, "every game is won or drawn");
}

/// A simulation from engine data with every source text and position
/// removed, and every member the engine does not read: the same report as
/// from the project itself.
#[test]
fn a_simulation_from_engine_data_without_its_sources_plays_the_same_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = repo().join("examples/lantern-market");
    let game = game.to_str().expect("utf-8");
    let built = cardsmith(&["build", game, "-o", "out"], dir.path());
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let text = std::fs::read_to_string(dir.path().join("out/lantern-market.json")).expect("the engine data");
    let mut data: serde_json::Value = serde_json::from_str(&text).expect("json");
    strip(&mut data);
    assert!(!serde_json::to_string(&data).expect("json").contains("\"source\""));
    std::fs::write(dir.path().join("bare.json"), serde_json::to_vec(&data).expect("json")).expect("written");
    let simulate = |from: &[&str]| {
        let mut args = from.to_vec();
        args.extend(["--games", "200", "--seed", "3", "--bot", "2=greedy", "--log", "1"]);
        let output = cardsmith(&[&["simulate"][..], &args].concat(), dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let log = std::fs::read_to_string(dir.path().join("simulate-log.txt")).expect("the log");
        (String::from_utf8_lossy(&output.stdout).into_owned(), log)
    };
    let (from_project, project_log) = simulate(&[game]);
    let (from_data, data_log) = simulate(&["--data", "bare.json"]);
    assert_eq!(from_project.lines().skip(1).collect::<Vec<_>>(), from_data.lines().skip(1).collect::<Vec<_>>());
    assert_eq!(project_log, data_log);
    assert!(!project_log.is_empty(), "the first game is logged");
}

/// Removes the members of engine data an engine needs no more than a
/// reader does: every `source`, `doc`, rule text and card text.
fn strip(value: &mut serde_json::Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::Object(map) => {
                for key in ["source", "doc", "shown", "text"] {
                    map.remove(key);
                }
                if map.get("name").and_then(|n| n.as_str()) == Some("text") {
                    map.remove("values");
                }
                stack.extend(map.values_mut());
            }
            serde_json::Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

#[cfg(unix)]
#[test]
fn devices_and_oversized_reports_are_refused_unread() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = cardsmith(&["simulate", "--data", "/dev/zero", "--games", "1", "--seed", "1"], dir.path());
    assert_eq!(data.status.code(), Some(2));
    assert!(stderr(&data).contains("/dev/zero is a device, not a regular file"), "{}", stderr(&data));
    let merged = cardsmith(&["simulate", "merge", "/dev/zero"], dir.path());
    assert_eq!(merged.status.code(), Some(2));
    assert!(stderr(&merged).contains("/dev/zero is a device, not a regular file"), "{}", stderr(&merged));
    // Sparse: 100 MiB of nothing, never read.
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge).and_then(|f| f.set_len(100 << 20)).expect("sparse file");
    let refused = cardsmith(&["simulate", "merge", "huge.json"], dir.path());
    assert!(stderr(&refused).contains("the most a simulate report may hold"), "{}", stderr(&refused));
    // Small, but millions of values.
    std::fs::write(dir.path().join("many.json"), format!("[{}0]", "0,".repeat(2_100_000))).expect("written");
    let many = cardsmith(&["simulate", "merge", "many.json"], dir.path());
    assert!(stderr(&many).contains("more than 2000000 JSON values"), "{}", stderr(&many));
}

/// Measures each chart once the page is laid out: how many of its marks
/// have a size on screen, and any error.
const PROBE: &str = "<script>window.__errors=[];\
window.addEventListener('error',e=>window.__errors.push(String(e.message||e.type)),true);\
window.addEventListener('load',()=>{\
const drawn=s=>[...document.querySelectorAll(s)].filter(e=>{const r=e.getBoundingClientRect();return r.width>0||r.height>0;}).length;\
const charts=[...document.querySelectorAll('svg.chart')].map(s=>{const r=s.getBoundingClientRect();\
return {chart:s.getAttribute('class'),width:Math.round(r.width),height:Math.round(r.height)};});\
document.body.setAttribute('data-result',JSON.stringify({charts,\
bars:drawn('svg.wins rect.bar'),intervals:drawn('svg.wins path.interval'),bins:drawn('svg.length rect.bin'),\
lines:drawn('svg.curve polyline.seat'),cells:drawn('svg.matrix rect.cell'),rows:document.querySelectorAll('table.cards tr').length,\
errors:window.__errors}));});</script>";

#[test]
#[ignore = "needs chromium: apt-get install chromium"]
fn the_page_draws_its_charts_in_headless_chromium() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut settings = settings(None);
    settings.matrix = vec!["Red".into(), "Blue".into()];
    let mut summary = Summary::default();
    for i in 0..60 {
        let decks = if i % 2 == 0 { [("Red", 0), ("Blue", 1)] } else { [("Blue", 0), ("Red", 1)] };
        summary.add(&record(i), Some(decks));
    }
    let page = cardsmith::engine::simulate::html::page(&Report::new(settings, summary));
    assert_eq!(page.matches("http://").count(), page.matches("http://www.w3.org/2000/svg").count(), "offline");
    let path = dir.path().join("report.html");
    std::fs::write(&path, page.replacen("</body>", &format!("{PROBE}</body>"), 1)).expect("written");
    let profile = format!("--user-data-dir={}", dir.path().join("profile").display());
    let dumped = outside_program(
        std::process::Command::new("chromium").args(common::CHROMIUM_FLAGS).arg(profile).args([
            "--virtual-time-budget=5000",
            "--dump-dom",
            &format!("file://{}", path.display()),
        ]),
        "apt-get install chromium",
    );
    let dom = String::from_utf8_lossy(&dumped.stdout);
    let start = dom.find("data-result=\"").map(|i| i + "data-result=\"".len()).unwrap_or_else(|| {
        panic!("the probe did not run: {}", String::from_utf8_lossy(&dumped.stderr));
    });
    let end = start + dom[start..].find('"').expect("closed");
    let result: serde_json::Value = serde_json::from_str(&dom[start..end].replace("&quot;", "\"")).expect("JSON");
    let charts = result["charts"].as_array().expect("charts");
    let classes: Vec<&str> = charts.iter().filter_map(|c| c["chart"].as_str()).collect();
    assert_eq!(classes, ["chart wins", "chart length", "chart curve", "chart matrix"], "{result}");
    for chart in charts {
        assert!(chart["width"].as_u64() > Some(200) && chart["height"].as_u64() > Some(100), "{chart}");
    }
    // Two seats and draws; seven lengths (3 to 9 rounds); two seats' lines;
    // a 2 × 2 matrix; a header and the two cards in play (Lamp, never
    // played, has a row of its own).
    let expected = serde_json::json!({"bars": 3, "intervals": 3, "bins": 7, "lines": 2, "cells": 4, "rows": 3});
    for (key, value) in expected.as_object().expect("object") {
        assert_eq!(&result[key], value, "{key}: {result}");
    }
    assert_eq!(result["errors"], serde_json::json!([]), "{result}");
}
