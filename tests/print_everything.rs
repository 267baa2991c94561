//! The acceptance test of printing: every bundled game and every example
//! project, at every named card size and on landscape poker, prints with
//! no warning at all, every effect line each card states on its face (an
//! unprinted one is W0718), every card's name and text there, and no
//! drawn text under 6 pt.  Faces are checked at the SVG stage, in the HTML
//! preview, where every text region is measured; no pixels are needed.

mod common;

use common::{cardsmith, repo, stderr};
use std::path::Path;

const SIZES: &[&str] = &["poker", "bridge", "tarot", "mini", "70x120", "88.9x63.5"];

/// What is printed: a bundled game (its folder under `cards/`, printed
/// from the repository) or an example project (printed from its folder).
fn sources() -> Vec<(String, Vec<String>, &'static Path)> {
    let mut found = Vec::new();
    let mut games: Vec<_> =
        std::fs::read_dir(repo().join("cards")).expect("cards").map(|e| e.expect("entry").path()).collect();
    games.sort();
    for game in games.iter().filter(|g| g.is_dir()) {
        let name = game.file_name().and_then(|n| n.to_str()).expect("utf-8").to_string();
        found.push((name.clone(), vec![format!("cards/{name}")], repo()));
    }
    for example in ["lantern-market", "lantern-market-sheet", "art-deck"] {
        found.push((example.to_string(), Vec::new(), repo()));
    }
    found
}

/// Every `font-size="N"` drawn, as a number.
fn font_sizes(html: &str) -> Vec<f32> {
    html.split("font-size=\"").skip(1).filter_map(|rest| rest.split('"').next()?.parse().ok()).collect()
}

/// The names and text the cards of a printed source state, from its
/// engine data: `(card, text)` for the name and each text field.
fn stated_texts(dir: &Path, paths: &[String]) -> Vec<(String, String)> {
    let out = tempfile::tempdir().expect("temp dir");
    let target = out.path().join("build");
    let mut args = vec!["build", "-o", target.to_str().expect("utf-8")];
    args.extend(paths.iter().map(String::as_str));
    let built = cardsmith(&args, dir);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(&target).expect("built") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") || path.file_name().is_some_and(|n| n == "schema.json") {
            continue;
        }
        let data: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).expect("data")).expect("json");
        for card in data["cards"].as_array().into_iter().flatten() {
            let name = card["name"].as_str().unwrap_or_default().to_string();
            texts.push((name.clone(), name.clone()));
            let values = card["body"]["fields"].as_array().into_iter().flatten().flat_map(|f| f["values"].as_array());
            for value in values.flatten().filter(|v| v["type"] == "text") {
                let plain = value["value"]["parts"].as_array().into_iter().flatten().filter(|p| p["type"] == "plain");
                texts.extend(plain.filter_map(|p| p["value"].as_str()).map(|t| (name.clone(), t.to_string())));
            }
        }
    }
    texts
}

#[test]
fn every_game_and_example_prints_everything_it_states_at_every_size_with_no_warning() {
    let jobs: Vec<_> = sources()
        .into_iter()
        .flat_map(|(name, paths, root)| SIZES.iter().map(move |size| (name.clone(), paths.clone(), root, *size)))
        .collect();
    // Two prints at a time: each is a process of its own.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let checked: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut checked = 0;
                    while let Some((name, paths, root, size)) =
                        jobs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        checked += print_and_check(name, paths, root, size);
                    }
                    checked
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a worker")).sum()
    });
    assert!(checked > 1000, "only {checked} texts checked");
}

/// Prints one game or example at one card size and checks its preview;
/// the texts checked.
fn print_and_check(name: &str, paths: &[String], root: &Path, size: &str) -> usize {
    let dir = if paths.is_empty() { root.join("examples").join(name) } else { root.to_path_buf() };
    let stated = stated_texts(&dir, paths);
    assert!(!stated.is_empty(), "{name}: no cards");
    let out = tempfile::tempdir().expect("temp dir");
    let target = out.path().join("print");
    let mut args = vec!["print", "-o", target.to_str().expect("utf-8"), "--format", "html", "--card", size];
    args.extend(paths.iter().map(String::as_str));
    let printed = cardsmith(&args, &dir);
    let err = stderr(&printed);
    assert_eq!(printed.status.code(), Some(0), "{name} --card {size}: {err}");
    // The art example's picture is small on purpose (W0717).
    let warnings: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("warning[") || l.starts_with("error["))
        .filter(|l| !(name == "art-deck" && l.starts_with("warning[W0717]")))
        .collect();
    assert!(warnings.is_empty(), "{name} --card {size}:\n{err}");
    let html = std::fs::read_to_string(target.join("preview.html")).expect("preview");
    let small: Vec<f32> = font_sizes(&html).into_iter().filter(|s| *s < 5.99).collect();
    assert!(small.is_empty(), "{name} --card {size}: text drawn at {small:?} pt");
    let html = html.replace("&#39;", "'").replace("&amp;", "&").replace("&quot;", "\"");
    for (card, text) in &stated {
        // Text is wrapped into lines, and a printed tag (`[Ac]`) is a
        // badge: each word of it stands for itself.
        for word in text.split(|c: char| c.is_whitespace() || c == '[' || c == ']').filter(|w| !w.is_empty()) {
            assert!(html.contains(word), "{name} --card {size}: `{card}` does not print `{word}`");
        }
    }
    stated.len()
}
