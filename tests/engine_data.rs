//! `cardsmith build`: the engine data of every bundled ruleset (reviewed
//! snapshots), validated against `schema.json` by an independent validator
//! (the Python `jsonschema` package), byte-identical across runs, and written
//! atomically: a failing or killed build leaves the previous output intact.

mod common;

use common::{bundled_project, cardsmith, contents, kill_before_the_swap, repo, stderr};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the bundled `cards/` folder from the repository into `out`.
fn build_bundled(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let output = cardsmith(&["build", "cards", "-o", out.to_str().expect("utf-8 path")], repo());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    contents(out)
}

#[test]
fn engine_data_of_every_bundled_ruleset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = build_bundled(&dir.path().join("out"));
    let mut expected: Vec<String> = cardsmith::check::builtin::ids().map(|id| format!("{id}.json")).collect();
    expected.extend(["schema.json".to_string(), ".cardsmith-output".to_string()]);
    expected.sort();
    assert_eq!(files.keys().cloned().collect::<Vec<_>>(), expected);
    for id in cardsmith::check::builtin::ids() {
        let text = String::from_utf8(files[&format!("{id}.json")].clone()).expect("utf-8");
        assert!(!text.contains(env!("CARGO_MANIFEST_DIR")), "{id}: an absolute path leaked into the engine data");
        insta::assert_snapshot!(format!("engine-data@{id}"), text);
    }
}

#[test]
fn schema_json_is_the_generated_schema() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = build_bundled(&dir.path().join("out"));
    let printed = cardsmith(&["schema"], repo());
    assert_eq!(printed.status.code(), Some(0));
    assert_eq!(files["schema.json"], printed.stdout);
    assert_eq!(String::from_utf8_lossy(&printed.stdout), cardsmith::backend::schema::text());
}

const VALIDATE: &str = r#"
import json, sys
from jsonschema import validators
schema = json.load(open(sys.argv[1], encoding="utf-8"))
cls = validators.validator_for(schema)
cls.check_schema(schema)
print(cls.__name__)
validator = cls(schema)
problems = 0
for path in sys.argv[2:]:
    for error in validator.iter_errors(json.load(open(path, encoding="utf-8"))):
        print(f"{path}: {error.json_path}: {error.message}")
        problems += 1
sys.exit(1 if problems else 0)
"#;

/// Runs the independent validator; `Ok(stdout)` when every document is valid.
fn validate(schema: &Path, documents: &[PathBuf]) -> Result<String, String> {
    let output = Command::new("python3")
        .arg("-c")
        .arg(VALIDATE)
        .arg(schema)
        .args(documents)
        .output()
        .expect("python3 runs: the schema test needs python3 with the jsonschema package (pip install jsonschema)");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    match output.status.code() {
        Some(0) => Ok(stdout),
        Some(1) => Err(stdout),
        _ => {
            panic!("the validator did not run (pip install jsonschema?):\n{}", String::from_utf8_lossy(&output.stderr))
        }
    }
}

#[test]
fn an_independent_validator_accepts_every_bundled_build() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let files = build_bundled(&out);
    let documents: Vec<PathBuf> =
        files.keys().filter(|n| n.ends_with(".json") && *n != "schema.json").map(|n| out.join(n)).collect();
    assert!(!documents.is_empty());
    let report = validate(&out.join("schema.json"), &documents).unwrap_or_else(|e| panic!("invalid:\n{e}"));
    assert!(report.starts_with("Draft202012Validator"), "{report}");
}

#[test]
fn the_validator_rejects_documents_the_schema_does_not_describe() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    build_bundled(&out);
    let text = std::fs::read_to_string(out.join("dreadnaught-2e.json")).expect("document");
    let good: serde_json::Value = serde_json::from_str(&text).expect("json");
    type Mutation = (&'static str, fn(&mut serde_json::Value));
    let mutations: Vec<Mutation> = vec![
        ("format 2", |d| d["format"] = 2.into()),
        ("no cards", |d| {
            d.as_object_mut().map(|o| o.remove("cards"));
        }),
        ("an int that is text", |d| d["cards"][0]["body"]["fields"][1]["values"][0]["value"] = "four".into()),
        ("an unknown plus marker", |d| {
            let effect = d["cards"]
                .as_array_mut()
                .and_then(|cards| cards.iter_mut().find(|c| c["kind"] == "offense"))
                .map(|c| &mut c["body"]["fields"]);
            if let Some(fields) = effect.and_then(|f| f.as_array_mut()) {
                for field in fields.iter_mut().filter(|f| f["name"] == "at") {
                    field["body"]["effects"][0]["plus"] = "sideways".into();
                }
            }
        }),
        ("a card without a source", |d| {
            d["cards"][0].as_object_mut().map(|o| o.remove("source"));
        }),
    ];
    for (what, mutate) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad);
        assert_ne!(bad, good, "{what}: the mutation changed nothing");
        let path = dir.path().join("bad.json");
        std::fs::write(&path, serde_json::to_string(&bad).expect("json")).expect("write");
        assert!(validate(&out.join("schema.json"), &[path]).is_err(), "{what}: accepted by the schema");
    }
}

#[test]
fn source_positions_are_relative_paths_and_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = build_bundled(&dir.path().join("out"));
    let doc: serde_json::Value = serde_json::from_slice(&files["dreadnaught-2e.json"]).expect("json");
    let card = doc["cards"].as_array().and_then(|c| c.iter().find(|c| c["name"] == "Spinal Railcannon")).expect("card");
    assert_eq!(card["source"]["file"], "cards/dreadnaught-2e/kinetic.cards");
    let text = std::fs::read_to_string(repo().join("cards/dreadnaught-2e/kinetic.cards")).expect("cards");
    let line = text.lines().position(|l| l.starts_with("offense \"Spinal Railcannon\"")).expect("card line") + 1;
    assert_eq!(card["source"]["line"], line);
}

#[test]
fn two_builds_from_different_folders_are_byte_identical() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = build_bundled(&dir.path().join("first"));
    // The second runs elsewhere and names the cards by an absolute path.
    let cards = repo().join("cards");
    let second_out = dir.path().join("second");
    let output =
        cardsmith(&["build", cards.to_str().expect("utf-8"), "-o", second_out.to_str().expect("utf-8")], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let second = contents(&second_out);
    assert_eq!(first.keys().collect::<Vec<_>>(), second.keys().collect::<Vec<_>>());
    for (name, bytes) in &first {
        assert!(bytes == &second[name], "{name} differs between two builds");
    }
}

/// A project with the bundled Dreadnaught 2e cards, and its first build.
fn project_with_a_build() -> (tempfile::TempDir, BTreeMap<String, Vec<u8>>) {
    let dir = bundled_project("dreadnaught-2e");
    let output = cardsmith(&["build"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let before = contents(&dir.path().join("out"));
    assert!(before.contains_key("dreadnaught-2e.json"));
    (dir, before)
}

fn edit_a_card(dir: &Path) {
    let path = dir.join("cards/kinetic.cards");
    let text = std::fs::read_to_string(&path).expect("cards");
    std::fs::write(&path, text.replace("impact damage 8+", "impact damage 9+")).expect("edit");
}

#[test]
fn a_failing_build_leaves_the_previous_output_untouched() {
    let (dir, before) = project_with_a_build();
    std::fs::write(dir.path().join("cards/broken.cards"), "game dreadnaught-2e\nofense \"X\" {}\n").expect("write");
    let output = cardsmith(&["build"], dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("E0201"), "{}", stderr(&output));
    assert_eq!(contents(&dir.path().join("out")), before);
}

#[test]
fn a_build_killed_before_it_moves_its_output_leaves_the_previous_output_intact() {
    let (dir, before) = project_with_a_build();
    edit_a_card(dir.path());
    let temp = kill_before_the_swap(&["build"], dir.path(), "out");
    assert_eq!(contents(&dir.path().join("out")), before, "the previous output changed");
    let written = contents(&temp);
    assert_ne!(written["dreadnaught-2e.json"], before["dreadnaught-2e.json"], "the killed build had new data");

    // The next build cleans up and replaces the output.
    let output = cardsmith(&["build"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!temp.exists(), "the leftover temporary folder was not removed");
    assert_eq!(contents(&dir.path().join("out")), written);
}

#[test]
fn build_replaces_only_a_folder_it_wrote() {
    let (dir, _) = project_with_a_build();
    std::fs::create_dir(dir.path().join("notes")).expect("folder");
    std::fs::write(dir.path().join("notes/todo.txt"), "keep me\n").expect("file");
    let output = cardsmith(&["build", "-o", "notes"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("did not write"), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(dir.path().join("notes/todo.txt")).expect("kept"), "keep me\n");
}

#[test]
fn the_manifest_names_the_output_folder() {
    let (dir, before) = project_with_a_build();
    std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n[build]\nout = \"engine\"\n")
        .expect("manifest");
    // From a subfolder, the project is found and its paths are the same.
    let output = cardsmith(&["build"], &dir.path().join("cards"));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(contents(&dir.path().join("engine")), before);
}
