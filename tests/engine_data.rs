//! `cardsmith build`: the engine data of every bundled ruleset, reviewed as
//! snapshots of its ruleset and one card of each kind and one deck of each
//! deck type (the rest are held by the two tests after it: every card and
//! deck is in the data once, at its place in the source, and the engine reads
//! every card back), validated against `schema.json` by an independent
//! validator (the `jsonschema` crate), which also rejects documents the
//! schema does not describe, byte-identical across runs, and written
//! atomically: a failing or killed build leaves the previous output intact.

mod common;

use common::{bundled_project, cardsmith, contents, kill_before_the_swap, objections, repo, stderr, validator};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Builds the bundled `cards/` folder from the repository into `out`.
fn build_bundled(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let output = cardsmith(&["build", "cards", "-o", out.to_str().expect("utf-8 path")], repo());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    contents(out)
}

/// JSON that keeps the order of object keys as written, so a document read
/// and written again is laid out as the build wrote it.
enum Ordered {
    Object(Vec<(String, Ordered)>),
    Array(Vec<Ordered>),
    Scalar(Value),
}

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Ordered, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> serde::de::Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(v.into()))
    }
    fn visit_unit<E>(self) -> Result<Ordered, E> {
        Ok(Ordered::Scalar(Value::Null))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Ordered::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Ordered::Object(entries))
    }
}

impl serde::Serialize for Ordered {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Ordered::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            Ordered::Array(items) => serializer.collect_seq(items),
            Ordered::Scalar(value) => value.serialize(serializer),
        }
    }
}

impl Ordered {
    fn get_mut(&mut self, wanted: &str) -> Option<&mut Ordered> {
        let Ordered::Object(entries) = self else { return None };
        entries.iter_mut().find(|(key, _)| key == wanted).map(|(_, value)| value)
    }

    fn text(&self, wanted: &str) -> Option<&str> {
        let Ordered::Object(entries) = self else { return None };
        match entries.iter().find(|(key, _)| key == wanted) {
            Some((_, Ordered::Scalar(Value::String(text)))) => Some(text),
            _ => None,
        }
    }

    /// Keeps the first item of the array under `list` for each value of
    /// the items' `key`.
    fn keep_first_of_each(&mut self, list: &str, key: &str) {
        let Some(Ordered::Array(items)) = self.get_mut(list) else { panic!("the document has no `{list}`") };
        let mut seen = std::collections::HashSet::new();
        items.retain(|item| {
            seen.insert(item.text(key).unwrap_or_else(|| panic!("an item without `{key}`")).to_string())
        });
    }
}

/// The document a reviewer reads: the whole ruleset, the first card of each
/// kind and the first deck of each deck type, laid out as the build wrote it.
fn sampled(text: &str) -> String {
    let mut document: Ordered = serde_json::from_str(text).expect("the engine data is JSON");
    document.keep_first_of_each("cards", "kind");
    document.keep_first_of_each("decks", "deck_type");
    serde_json::to_string_pretty(&document).expect("JSON") + "\n"
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
        insta::assert_snapshot!(format!("engine-data@{id}"), sampled(&text));
    }
}

/// The line of `file` (relative to the repository) at `line`, counted from 1.
fn source_line(file: &str, line: u64) -> String {
    let text = std::fs::read_to_string(repo().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.lines().nth(line.saturating_sub(1) as usize).unwrap_or_else(|| panic!("{file} has no line {line}")).to_string()
}

#[test]
fn every_card_and_deck_of_every_bundled_game_is_in_its_engine_data_at_its_source() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = build_bundled(&dir.path().join("out"));
    for id in cardsmith::check::builtin::ids() {
        let outcome = common::check_folder(&format!("cards/{id}"));
        let game = outcome.project.games.iter().find(|g| g.ruleset.id == id).expect("the game is checked");
        let document: Value = serde_json::from_slice(&files[&format!("{id}.json")]).expect("json");
        for (list, sources) in [
            ("cards", game.cards.iter().map(|c| c.name.as_str()).collect::<Vec<_>>()),
            ("decks", game.decks.iter().map(|d| d.name.as_str()).collect::<Vec<_>>()),
        ] {
            let items = document[list].as_array().unwrap_or_else(|| panic!("{id}: no {list}"));
            let names: Vec<&str> = items.iter().map(|item| item["name"].as_str().expect("a name")).collect();
            assert_eq!(names, sources, "{id}: the {list} of the engine data are not those of the source, in order");
            for item in items {
                let (file, line) = (item["source"]["file"].as_str().expect("a file"), &item["source"]["line"]);
                let written = source_line(file, line.as_u64().expect("a line"));
                let quoted = format!("\"{}\"", item["name"].as_str().expect("a name"));
                assert!(written.contains(&quoted), "{id}: {quoted} points at {file}:{line}, which reads `{written}`");
            }
        }
    }
}

#[test]
fn the_engine_reads_every_card_of_every_bundled_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = build_bundled(&dir.path().join("out"));
    for id in cardsmith::check::builtin::ids() {
        let text = String::from_utf8(files[&format!("{id}.json")].clone()).expect("utf-8");
        let written: Value = serde_json::from_str(&text).expect("json");
        let read = cardsmith::engine::data::Document::from_json(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(read.ruleset.id, id);
        let cards = written["cards"].as_array().expect("cards");
        assert_eq!(read.cards.len(), cards.len(), "{id}: the engine read a different number of cards");
        for (card, json) in read.cards.iter().zip(cards) {
            assert_eq!(
                (card.name.as_str(), card.kind.as_str()),
                (json["name"].as_str().unwrap_or(""), json["kind"].as_str().unwrap_or(""))
            );
            // The engine keeps every field, effect and condition it was given.
            let body = serde_json::to_value(&card.body).expect("the body serialises");
            let given = &json["body"];
            for part in ["fields", "effects", "conditions"] {
                let count = |v: &Value| v[part].as_array().map_or(0, Vec::len);
                assert_eq!(count(&body), count(given), "{id}: `{}` lost {part}", card.name);
            }
        }
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

#[test]
fn an_independent_validator_accepts_every_bundled_build() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let files = build_bundled(&out);
    let validator = validator(&out.join("schema.json"));
    let mut validated = 0;
    for id in cardsmith::check::builtin::ids() {
        let document: Value = serde_json::from_slice(&files[&format!("{id}.json")]).expect("json");
        assert_eq!(objections(&validator, &document), vec![], "{id}.json does not match schema.json");
        validated += 1;
    }
    assert_eq!(validated, 4, "every bundled ruleset has its document validated");
}

/// A change that makes a valid document invalid.
enum Change {
    Set(Value),
    Remove,
}

/// What a mutation does, where (a JSON pointer) and how.
type Mutation = (&'static str, String, Change);

/// The JSON pointer of the first value, depth first, that `wanted` accepts.
fn first_pointer(value: &Value, wanted: &dyn Fn(&Value) -> bool) -> Option<String> {
    if wanted(value) {
        return Some(String::new());
    }
    let children: Vec<(String, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (k.replace('~', "~0").replace('/', "~1"), v)).collect(),
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        _ => Vec::new(),
    };
    children.into_iter().find_map(|(key, child)| first_pointer(child, wanted).map(|rest| format!("/{key}{rest}")))
}

/// Mutations of a valid document, each at a place found in it, so that
/// each touches a value the document really has.
fn mutations(good: &Value) -> Vec<Mutation> {
    let found = |what: &str, wanted: &dyn Fn(&Value) -> bool, key: &str| {
        first_pointer(good, wanted).map(|p| format!("{p}/{key}")).unwrap_or_else(|| panic!("no {what} in the document"))
    };
    vec![
        ("format 1", "/format".into(), Change::Set(1.into())),
        ("no cards", "/cards".into(), Change::Remove),
        ("a card without a source", "/cards/0/source".into(), Change::Remove),
        ("an int that is text", found("signed value", &|v| v["type"] == "signed", "value"), Change::Set("four".into())),
        (
            "an unknown plus marker",
            found("effect", &|v| v.get("plus").is_some(), "plus"),
            Change::Set("sideways".into()),
        ),
        (
            "a step that is text",
            found("initiative step", &|v| v.get("step").is_some(), "step"),
            Change::Set("2.4".into()),
        ),
        (
            "a text part of an unknown type",
            found("icon", &|v| v["type"] == "icon", "type"),
            Change::Set("sound".into()),
        ),
        (
            "a special value of an unknown meaning",
            found("special value", &|v| v["type"] == "special", "value"),
            Change::Set(serde_json::json!({"token": "*", "meaning": "maybe"})),
        ),
        (
            "a special value without its token",
            found("special value", &|v| v["type"] == "special", "value"),
            Change::Set(serde_json::json!({"meaning": "see-text"})),
        ),
        (
            "a zone of an unknown visibility",
            found("zone", &|v| v.get("visibility").is_some(), "visibility"),
            Change::Set("translucent".into()),
        ),
        (
            "a set-up step of an unknown kind",
            found("set-up step", &|v| v.get("do").is_some(), "do"),
            Change::Set("juggle".into()),
        ),
        ("a deal of text cards", found("deal", &|v| v["do"] == "deal", "count"), Change::Set("six".into())),
        (
            "a deck count that is text",
            found("deck entry", &|v| v.get("count").is_some(), "count"),
            Change::Set("three".into()),
        ),
    ]
}

/// Applies a mutation; returns the pointer of the value the schema should
/// object to: the changed value, or the object that lost a property.
fn apply(document: &mut Value, pointer: &str, change: Change) -> String {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer below the root");
    let object = document.pointer_mut(parent).and_then(Value::as_object_mut).expect("the mutated value's object");
    assert!(object.contains_key(key), "{pointer} is not in the document");
    match change {
        Change::Set(value) => {
            object.insert(key.to_string(), value);
            pointer.to_string()
        }
        Change::Remove => {
            object.remove(key);
            parent.to_string()
        }
    }
}

/// Whether `at` is `place` or an ancestor of it: an objection there is about
/// the mutation at `place` (a `oneOf` objects at the value that holds it).
fn at_or_above(at: &str, place: &str) -> bool {
    place == at || place.starts_with(&format!("{at}/"))
}

#[test]
fn the_validator_rejects_documents_the_schema_does_not_describe() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let files = build_bundled(&out);
    let validator = validator(&out.join("schema.json"));
    let good: Value = serde_json::from_slice(&files["dreadnaught-2e.json"]).expect("json");
    assert_eq!(objections(&validator, &good), vec![], "the unchanged document is valid");
    for (what, pointer, change) in mutations(&good) {
        let mut bad = good.clone();
        let place = apply(&mut bad, &pointer, change);
        let found = objections(&validator, &bad);
        assert!(!found.is_empty(), "{what} ({pointer}): accepted by the schema");
        for (at, why) in &found {
            assert!(at_or_above(at, &place), "{what}: an objection at {at:?}, not at {place:?}: {why}");
        }
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

/// A game that is none of the four: a deck-builder whose players start with
/// 50 authority, ten cards and a hand of five, around a face-up trade row of
/// five cards dealt from a shared trade deck, and whose cards print `*` for
/// a cost their text gives.  Its engine data says all of that, and validates.
#[test]
fn a_new_games_set_up_and_special_values_are_in_its_engine_data() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("trade.rules"),
        r#"ruleset trade {
  title "Trade"
}
kind ship "Ship" {
  field cost int 0.. or "*" required
  field text text
}
deck-type starter "Starting deck" {
  require "a starting deck has 10 cards" count() == 10
}
deck-type market "Trade deck" {
  require "the trade deck has at least 5 cards" count() >= 5
}
special "*" see-text "The card's text gives its cost."
setup {
  players 2..4
  counter authority "Authority" 50
  zone draw "Deck" { owner each; visibility hidden; ordered }
  zone hand "Hand" { owner each; visibility private }
  zone trade-deck "Trade Deck" { owner shared; visibility hidden; ordered }
  zone trade-row "Trade Row" { owner shared; visibility public; limit 5; holds ship }
  decks starter to draw
  decks market to trade-deck random
  shuffle draw
  shuffle trade-deck
  deal 5 from trade-deck to trade-row
  when players 2 { deal 5 from draw to hand }
  when players 3..4 { deal 4 from draw to hand }
  when players 4 { limit trade-row 6 }
}
"#,
    )
    .expect("write");
    std::fs::write(
        dir.path().join("trade.cards"),
        "game trade\nship \"Scout\" { cost 0 }\nship \"Mimic\" { cost *; text \"Costs as much as the ship it copies.\" }\n\
         deck \"Start\" starter { card \"Scout\" x10 }\ndeck \"Market\" market { card \"Mimic\" x5 }\n",
    )
    .expect("write");
    let out = dir.path().join("out");
    let output = cardsmith(&["build", "trade.rules", "trade.cards", "-o", out.to_str().expect("utf-8")], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let document: Value =
        serde_json::from_slice(&std::fs::read(out.join("trade.json")).expect("trade.json")).expect("json");
    assert_eq!(objections(&validator(&out.join("schema.json")), &document), vec![], "the document is valid");
    let setup = &document["ruleset"]["setup"];
    assert_eq!(setup["players"], serde_json::json!({"min": 2, "max": 4}));
    assert_eq!(
        setup["counters"][0],
        serde_json::json!({"id": "authority", "display": "Authority", "start": 50, "min": 0, "owner": "each"})
    );
    let row = setup["zones"].as_array().expect("zones").iter().find(|z| z["id"] == "trade-row").expect("the row");
    assert_eq!((&row["owner"], &row["visibility"], &row["limit"]), (&"shared".into(), &"public".into(), &5.into()));
    let deals: Vec<(&Value, &str)> = setup["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter(|s| s["do"] == "deal")
        .map(|s| (&s["count"], s["to"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(deals, vec![(&5.into(), "trade-row"), (&5.into(), "hand"), (&4.into(), "hand")]);
    let steps = setup["steps"].as_array().expect("steps");
    assert_eq!(
        steps[1],
        serde_json::json!({"do": "decks", "deck_types": ["market"], "to": "trade-deck", "random": true})
    );
    assert_eq!(steps[0].get("random"), None, "a step without `random` does not say it");
    assert_eq!(steps[4].get("players"), None, "a step for any number of players does not say it");
    assert_eq!(
        steps[6],
        serde_json::json!({"do": "deal", "count": 4, "from": "draw", "to": "hand", "players": {"min": 3, "max": 4}})
    );
    assert_eq!(
        setup["limits"],
        serde_json::json!([{"zone": "trade-row", "limit": 6, "players": {"min": 4, "max": 4}}])
    );
    let mimic = document["cards"].as_array().expect("cards").iter().find(|c| c["name"] == "Mimic").expect("Mimic");
    assert_eq!(
        mimic["body"]["fields"][0]["values"][0],
        serde_json::json!({"type": "special", "value": {"token": "*", "meaning": "see-text"}})
    );
}

/// House rules replace the base game's set-up and may describe a built-in
/// token for their game: the extension's engine data holds its own set-up
/// and the new meaning, and its cards' values carry that meaning.
#[test]
fn house_rules_replace_the_set_up_and_the_meaning_of_a_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("duel.rules"),
        r#"ruleset duel {
  title "Dreadnaught 2e, duel at 30 HP"
  extends dreadnaught-2e
}
special "*" not-applicable "Terrain without HP: it has none to lose."
setup {
  players 2
  counter hp "HP" 30
  counter damage-reduction "Damage reduction" 0 { reset round }
  counter burn-reduction "Resource Burn reduction" 0 { reset round }
  zone draw-deck "Draw Deck" { owner each; visibility hidden; ordered }
  zone hand "Hand" { owner each; visibility private }
  zone discard "Discard Pile" { owner each; visibility public }
  decks draw to draw-deck
  shuffle draw-deck
  deal 6 from draw-deck to hand
}
"#,
    )
    .expect("write");
    std::fs::write(
        dir.path().join("duel.cards"),
        "game duel\nterrain \"Ghost Reef\" {\n  symbol kinetic\n  place 3\n  hexes 1\n  hp *\n}\n",
    )
    .expect("write");
    let out = dir.path().join("out");
    let output = cardsmith(&["build", "duel.rules", "duel.cards", "-o", out.to_str().expect("utf-8")], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let document: Value =
        serde_json::from_slice(&std::fs::read(out.join("duel.json")).expect("duel.json")).expect("json");
    let ruleset = &document["ruleset"];
    assert_eq!(ruleset["setup"]["players"], serde_json::json!({"min": 2, "max": 2}));
    // The base game's meanings of its effects stay, so the set-up that
    // replaces its own keeps the counters and zones they use.
    assert_eq!(
        ruleset["setup"]["counters"][0],
        serde_json::json!({"id": "hp", "display": "HP", "start": 30, "min": 0, "owner": "each"})
    );
    let counters: Vec<&Value> =
        ruleset["setup"]["counters"].as_array().expect("counters").iter().map(|c| &c["id"]).collect();
    assert_eq!(counters, ["hp", "damage-reduction", "burn-reduction"]);
    let stars: Vec<&Value> =
        ruleset["specials"].as_array().expect("specials").iter().filter(|s| s["token"] == "*").collect();
    assert_eq!(stars.len(), 1, "one `*`, the house rule's");
    assert_eq!(stars[0]["meaning"], "not-applicable");
    let hp = &document["cards"][0]["body"]["fields"];
    let hp = hp.as_array().expect("fields").iter().find(|f| f["name"] == "hp").expect("hp");
    assert_eq!(hp["values"][0]["value"], serde_json::json!({"token": "*", "meaning": "not-applicable"}));
}
