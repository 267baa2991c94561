//! `cardsmith lsp`, driven over its standard input and output as an editor
//! drives it: JSON-RPC messages framed by `Content-Length` headers, on a
//! small project in a temporary folder.

#[path = "../examples/gen-corpus/corpus.rs"]
mod corpus;
mod lsp_wire;

use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(120);

/// The cards, with a mistake: `{damge}` after characters of one, two and
/// three UTF-16 units and UTF-8 bytes.
const CARDS: &str = r#"game dreadnaught-2e

offense "Spinal Lance" {
  symbol kinetic
  arc narrow
  at 2.4 {
    impact damage 8
  }
  keywords unstoppable(damage)
  text "“Deal” 8 𝔠 {damge} to the target."
}

offense "Twin Lance" {
  symbol kinetic
  arc narrow
  at 2.4 {
    impact damage 4
  }
  text "Deal 4 {damage}; see *Spinal Lance*. remains in play."
}

deck "Lances" draw {
  card "Spinal Lance" x2
  card "Twin Lance"
}

deck "More Lances" draw {
  deck "Lances"
}
"#;

struct Client {
    child: Child,
    input: ChildStdin,
    output: Receiver<Value>,
    /// Notifications received while waiting for something else.
    notifications: Vec<Value>,
    next_id: i64,
}

impl Client {
    fn start(dir: &Path) -> Client {
        Client::start_with(dir, Stdio::inherit())
    }

    fn start_with(dir: &Path, stderr: Stdio) -> Client {
        let lsp_wire::Wire { child, input, output } = lsp_wire::start(dir, stderr).expect("cardsmith starts");
        Client { child, input, output, notifications: Vec::new(), next_id: 1 }
    }

    fn send_raw(&mut self, body: &[u8]) {
        lsp_wire::send(&mut self.input, body).expect("write");
    }

    fn notify(&mut self, method: &str, params: Value) {
        let body = json!({ "jsonrpc": "2.0", "method": method, "params": params });
        self.send_raw(body.to_string().as_bytes());
    }

    /// The whole response to a request.
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        self.send_raw(body.to_string().as_bytes());
        self.response(&json!(id))
    }

    fn response(&mut self, id: &Value) -> Value {
        loop {
            let message = self.output.recv_timeout(WAIT).expect("an answer in time");
            if message.get("method").is_some() {
                self.notifications.push(message);
            } else if message["id"] == *id {
                return message;
            }
        }
    }

    /// The result of a request, which must succeed.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.call(method, params);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    /// The next message from the server, unasked, that `wanted` accepts.
    fn next(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            if let Some(i) = self.notifications.iter().position(&wanted) {
                return self.notifications.remove(i);
            }
            let message = self.output.recv_timeout(WAIT).expect("a message in time");
            self.notifications.push(message);
        }
    }

    /// The next diagnostics published for a file.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let notification = self.next(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri);
        notification["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    fn change(&mut self, uri: &str, version: i64, text: &str) {
        let params = json!({
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "text": text }],
        });
        self.notify("textDocument/didChange", params);
    }
}

fn project() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let manifest = "[project]\nname = \"lances\"\ngame = \"dreadnaught-2e\"\npaths = [\"cards\"]\n";
    std::fs::write(dir.path().join("cardsmith.toml"), manifest).expect("write");
    std::fs::create_dir(dir.path().join("cards")).expect("mkdir");
    let file = dir.path().join("cards").join("lances.cards");
    std::fs::write(&file, CARDS).expect("write");
    let uri = format!("file://{}", file.display());
    (dir, uri)
}

fn position(line: u32, character: u32) -> Value {
    json!({ "line": line, "character": character })
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": position(line, character) })
}

/// The UTF-16 column of the first `needle` on line `line` of `text`.
fn column(text: &str, line: usize, needle: &str) -> u32 {
    let line = text.lines().nth(line).expect("line");
    line[..line.find(needle).expect("needle on line")].encode_utf16().count() as u32
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

fn initialize(client: &mut Client, dir: &Path, capabilities: Value) -> Value {
    let root = format!("file://{}", dir.display());
    let result =
        client.request("initialize", json!({ "processId": null, "rootUri": root, "capabilities": capabilities }));
    client.notify("initialized", json!({}));
    result
}

fn open(client: &mut Client, uri: &str, text: &str) {
    let params = json!({ "textDocument": { "uri": uri, "languageId": "cardsmith", "version": 1, "text": text } });
    client.notify("textDocument/didOpen", params);
}

#[test]
fn an_editor_session() {
    let (dir, uri) = project();
    let mut client = Client::start(dir.path());
    let init = initialize(&mut client, dir.path(), json!({}));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    open(&mut client, &uri, CARDS);

    diagnostics_as_typed(&mut client, &uri);
    quick_fixes(&mut client, &uri);
    hover(&mut client, &uri);
    definitions_and_references(&mut client, &uri);
    completion(&mut client, &uri);
    outline_and_search(&mut client, &uri);
    formatting(&mut client, &uri);
    protocol_errors(&mut client, &uri);

    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    let status = client.child.wait().expect("exits");
    assert_eq!(status.code(), Some(0));
}

fn diagnostics_as_typed(client: &mut Client, uri: &str) {
    let diagnostics = client.diagnostics(uri);
    let icon = diagnostics.iter().find(|d| d["code"] == "E0210").expect("the unknown icon is reported");
    // `{damge}` on line 10, after `“`, `”` (one unit each) and `𝔠` (two).
    let start = column(CARDS, 9, "{damge}");
    assert_eq!(start, 20);
    assert_eq!(icon["range"], json!({ "start": position(9, start), "end": position(9, start + 7) }));
    assert_eq!(icon["severity"], 1);
    assert!(icon["message"].as_str().unwrap_or("").contains("did you mean `damage`?"), "{icon}");
    let spelling = diagnostics.iter().find(|d| d["code"] == "L0002").expect("the lint is reported");
    assert_eq!(spelling["severity"], 2);

    // A mistake typed in, then both fixed.
    let typo = CARDS.replacen("arc narrow", "arc narow", 1);
    client.change(uri, 2, &typo);
    let with_typo = client.diagnostics(uri);
    let arc = with_typo.iter().find(|d| d["range"]["start"]["line"] == 4).expect("the typo is reported");
    assert!(arc["message"].as_str().unwrap_or("").contains("narow"), "{arc}");
    assert!(codes(&with_typo).contains(&"E0210".to_string()));
    client.change(uri, 3, &CARDS.replace("{damge}", "{damage}"));
    let fixed = client.diagnostics(uri);
    assert!(!fixed.iter().any(|d| d["severity"] == 1 && d["range"]["start"]["line"].as_u64() < Some(20)), "{fixed:?}");
    assert!(codes(&fixed).contains(&"L0002".to_string()));
    // Back to the mistakes the other checks expect.
    client.change(uri, 4, CARDS);
    client.diagnostics(uri);
}

fn quick_fixes(client: &mut Client, uri: &str) {
    let start = column(CARDS, 9, "{damge}");
    let range = json!({ "start": position(9, start + 2), "end": position(9, start + 2) });
    let params = json!({ "textDocument": { "uri": uri }, "range": range, "context": { "diagnostics": [] } });
    let actions = client.request("textDocument/codeAction", params);
    let change = actions.as_array().and_then(|a| a.iter().find(|a| a["title"] == "Change to `damage`"));
    let change = change.unwrap_or_else(|| panic!("a did-you-mean fix: {actions}"));
    let edit = &change["edit"]["changes"][uri][0];
    assert_eq!(edit["newText"], "damage");
    assert_eq!(edit["range"], json!({ "start": position(9, start + 1), "end": position(9, start + 6) }));
    assert_eq!(change["diagnostics"][0]["code"], "E0210");

    let line = 18;
    let start = column(CARDS, line, "remains");
    let range = json!({ "start": position(line as u32, start), "end": position(line as u32, start + 3) });
    let params = json!({ "textDocument": { "uri": uri }, "range": range, "context": { "diagnostics": [] } });
    let actions = client.request("textDocument/codeAction", params);
    let fix = actions.as_array().and_then(|a| a.iter().find(|a| a["kind"] == "quickfix"));
    let fix = fix.unwrap_or_else(|| panic!("the lint's fix: {actions}"));
    assert_eq!(fix["edit"]["changes"][uri][0]["newText"], "Remains in Play");
    assert_eq!(fix["isPreferred"], true);
}

fn hover(client: &mut Client, uri: &str) {
    let text = |v: &Value| v["contents"]["value"].as_str().unwrap_or("").to_string();
    let keyword = client.request("textDocument/hover", at(uri, 8, column(CARDS, 8, "unstoppable") + 3));
    assert!(text(&keyword).contains("keyword unstoppable \"Unstoppable\""), "{keyword}");
    assert!(text(&keyword).contains("param"), "the keyword's parameters: {keyword}");
    let field = client.request("textDocument/hover", at(uri, 4, 3));
    assert!(text(&field).contains("field arc arc"), "{field}");
    let card = client.request("textDocument/hover", at(uri, 22, column(CARDS, 22, "Spinal")));
    assert!(text(&card).contains("**Spinal Lance** — Offense Card"), "{card}");
    let code = client.request("textDocument/hover", at(uri, 9, column(CARDS, 9, "damge")));
    assert!(text(&code).contains("**E0210**"), "the diagnostic's explanation: {code}");
}

fn definitions_and_references(client: &mut Client, uri: &str) {
    let card = client.request("textDocument/definition", at(uri, 22, column(CARDS, 22, "Spinal") + 2));
    assert_eq!(card, json!([{ "uri": uri, "range": { "start": position(2, 8), "end": position(2, 22) } }]));

    let deck = client.request("textDocument/definition", at(uri, 27, column(CARDS, 27, "Lances")));
    assert_eq!(deck[0]["range"]["start"], position(21, 0), "{deck}");

    let keyword = client.request("textDocument/definition", at(uri, 8, column(CARDS, 8, "unstoppable")));
    let target = &keyword[0];
    let rules = target["uri"].as_str().expect("a location").to_string();
    assert!(rules.ends_with("/dreadnaught-2e.rules"), "{keyword}");
    let path = rules.strip_prefix("file://").expect("a file");
    let text = std::fs::read_to_string(path).expect("the bundled ruleset is written for the editor");
    assert!(std::fs::metadata(path).expect("metadata").permissions().readonly());
    let line = text.lines().nth(target["range"]["start"]["line"].as_u64().unwrap_or(0) as usize).unwrap_or("");
    assert!(line.starts_with("keyword unstoppable "), "{line}");

    let uses = client.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": uri }, "position": position(2, 10), "context": { "includeDeclaration": true } }),
    );
    let lines: Vec<u64> =
        uses.as_array().expect("a list").iter().filter_map(|l| l["range"]["start"]["line"].as_u64()).collect();
    assert_eq!(lines, [2, 18, 22], "the card, its mention in text, the deck: {uses}");
}

fn completion(client: &mut Client, uri: &str) {
    let labels = |v: Value| -> Vec<String> {
        v.as_array().expect("a list").iter().map(|c| c["label"].as_str().unwrap_or("").to_string()).collect()
    };
    let fields = labels(client.request("textDocument/completion", at(uri, 4, 3)));
    for field in ["arc", "keywords", "text", "symbol"] {
        assert!(fields.contains(&field.to_string()), "{field} in {fields:?}");
    }
    let arcs = labels(client.request("textDocument/completion", at(uri, 4, 6)));
    assert!(arcs.contains(&"broadside".to_string()) && !arcs.contains(&"arc".to_string()), "{arcs:?}");
    let icons = labels(client.request("textDocument/completion", at(uri, 9, column(CARDS, 9, "{damge}") + 1)));
    assert!(icons.contains(&"damage".to_string()), "{icons:?}");
    let cards = labels(client.request("textDocument/completion", at(uri, 23, column(CARDS, 23, "Twin"))));
    assert_eq!(cards, ["Spinal Lance", "Twin Lance"]);
}

fn outline_and_search(client: &mut Client, uri: &str) {
    let symbols = client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    let names: Vec<&str> = symbols.as_array().expect("a list").iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["Spinal Lance", "Twin Lance", "Lances", "More Lances"]);
    assert_eq!(symbols[0]["detail"], "offense");
    assert_eq!(symbols[0]["range"]["start"], position(2, 0));
    assert_eq!(symbols[0]["range"]["end"], position(10, 1));

    let found = client.request("workspace/symbol", json!({ "query": "twin" }));
    assert_eq!(found[0]["name"], "Twin Lance");
    assert_eq!(found[0]["location"]["range"]["start"], position(12, 0));

    let tokens = client.request("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": uri } }));
    let data = tokens["data"].as_array().expect("tokens");
    // `game`, a keyword of length 4 at the start, then the game's name five
    // characters on (line, start, length, type, modifiers).
    assert_eq!(data[..10], [0, 0, 4, 0, 0, 0, 5, 14, 5, 0].map(|n| json!(n)));
    assert_eq!(data.len() % 5, 0);
}

fn formatting(client: &mut Client, uri: &str) {
    let untidy = CARDS.replace("  symbol kinetic\n  arc narrow", "      symbol   kinetic\n arc narrow");
    client.change(uri, 5, &untidy);
    let params = json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } });
    let edits = client.request("textDocument/formatting", params);
    let edit = &edits[0];
    assert_eq!(edit["range"]["start"], position(0, 0));
    let formatted = edit["newText"].as_str().expect("text");
    assert!(formatted.contains("{\n  symbol kinetic\n  arc narrow\n"), "{formatted}");
    client.change(uri, 6, CARDS);
}

fn protocol_errors(client: &mut Client, uri: &str) {
    let unknown = client.call("textDocument/unheardOf", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    client.send_raw(b"{ not json");
    let parse = client.response(&Value::Null);
    assert_eq!(parse["error"]["code"], -32700);
    let bad = client.call("textDocument/hover", json!({ "textDocument": 3 }));
    assert_eq!(bad["error"]["code"], -32602);
    // A position past the end is clamped, not refused.
    let past = client.call("textDocument/hover", at(uri, 9999, 9999));
    assert!(past.get("error").is_none(), "{past}");
}

#[test]
fn positions_in_utf8_when_the_client_offers_it() {
    let (dir, uri) = project();
    let mut client = Client::start(dir.path());
    let capabilities = json!({
        "general": { "positionEncodings": ["utf-8", "utf-16"] },
        "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } },
    });
    let init = initialize(&mut client, dir.path(), capabilities);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    let diagnostics = client.diagnostics(&uri);
    let icon = diagnostics.iter().find(|d| d["code"] == "E0210").expect("the unknown icon is reported");
    let line = CARDS.lines().nth(9).expect("line");
    let start = line.find("{damge}").expect("on the line") as u64;
    assert_eq!(icon["range"]["start"]["character"], start);

    // The server asked to hear of files changed outside the editor; a new
    // file is checked once the client says so.
    let asked = client.next(|m| m["method"] == "client/registerCapability");
    assert_eq!(asked["params"]["registrations"][0]["method"], "workspace/didChangeWatchedFiles");
    client.send_raw(json!({ "jsonrpc": "2.0", "id": asked["id"], "result": null }).to_string().as_bytes());
    let new_file = dir.path().join("cards").join("new.cards");
    std::fs::write(&new_file, "game dreadnaught-2e\n\noffense \"Spare\" {\n  symbol kinetic\n  arc nowhere\n}\n")
        .expect("write");
    let new_uri = format!("file://{}", new_file.display());
    let changes = json!({ "changes": [{ "uri": new_uri, "type": 1 }] });
    client.notify("workspace/didChangeWatchedFiles", changes);
    let found = client.diagnostics(&new_uri);
    assert!(found.iter().any(|d| d["range"]["start"]["line"] == 4), "{found:?}");
    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().expect("exits").code(), Some(0));
}

#[test]
fn hostile_messages_are_answered_and_never_end_the_session() {
    let (dir, uri) = project();
    let mut client = Client::start_with(dir.path(), Stdio::piped());
    let early = client.call("textDocument/hover", at(&uri, 0, 0));
    assert_eq!(early["error"]["code"], -32002, "not initialized: {early}");
    initialize(&mut client, dir.path(), json!({}));

    // Buffers that are not files, changes to buffers never opened.
    open(&mut client, "untitled:Untitled-1", "game dreadnaught-2e\n");
    let notes = format!("file://{}", dir.path().join("notes.md").display());
    let params = json!({ "textDocument": { "uri": notes, "languageId": "markdown", "version": 1, "text": "# notes" } });
    client.notify("textDocument/didOpen", params);
    assert_eq!(client.request("textDocument/hover", at(&notes, 0, 1)), Value::Null, "not a file it checks");
    client.change(&uri, 7, "nothing opened this");
    let untitled = client.request("textDocument/hover", at("untitled:Untitled-1", 0, 1));
    assert_eq!(untitled, Value::Null);

    let wrong_params = client.call("textDocument/definition", json!("a string"));
    assert_eq!(wrong_params["error"]["code"], -32602);
    client.send_raw(br#"{"jsonrpc":"2.0","id":41,"method":7}"#);
    assert_eq!(client.response(&json!(41))["error"]["code"], -32600);
    client.send_raw(br#"[{"jsonrpc":"2.0","id":42,"method":"shutdown"}]"#);
    assert_eq!(client.response(&Value::Null)["error"]["code"], -32600);
    write!(client.input, "X-Nothing: 1\r\n\r\n").expect("write");
    assert_eq!(client.response(&Value::Null)["error"]["code"], -32700);

    // The server still works, and checked the file from disk all along.
    let symbols = client.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(symbols[0]["name"], "Spinal Lance");

    // A body larger than the server reads, then the end of the input.
    write!(client.input, "Content-Length: 99999999999\r\n\r\n{{}}").expect("write");
    drop(client.input);
    let output = client.child.wait_with_output().expect("exits");
    assert_eq!(output.status.code(), Some(1), "no exit notification");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A workspace of 10,000 cards, as the generator writes one: one card is
/// broken in an open buffer and mended again, each time with the right
/// diagnostics, and the questions an editor asks are answered across the
/// whole workspace.  (How fast is the benchmark's business: `benches/lsp.rs`.)
#[test]
fn a_workspace_of_ten_thousand_cards() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let samples = corpus::sample_files(repository, "dreadnaught-2e").expect("samples");
    let project = corpus::Template::new("dreadnaught-2e", samples).expect("template").project(10_000, 4);
    let mut card_files = Vec::new();
    for file in &project.files {
        let path = dir.path().join(&file.path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, &file.text).expect("write");
        if file.path.ends_with(".cards") && file.text.contains("\n}") {
            card_files.push((path, file.text.clone()));
        }
    }
    assert!(project.cards >= 10_000 && project.decks > 0);
    let (path, text) = card_files[card_files.len() / 2].clone();
    let uri = format!("file://{}", path.display());
    let block = text.find("{\n").expect("a card with a block") + 2;
    let broken = format!("{}  no-such-field 1\n{}", &text[..block], &text[block..]);
    let line = text[..block].lines().count() as u32;

    let mut client = Client::start(dir.path());
    initialize(&mut client, dir.path(), json!({}));
    open(&mut client, &uri, &text);
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    for round in 0..2 {
        client.change(&uri, 2 + 2 * round, &broken);
        let diagnostics = client.diagnostics(&uri);
        assert_eq!(codes(&diagnostics), ["E0202"], "{diagnostics:?}");
        assert_eq!(diagnostics[0]["range"]["start"], position(line, 2));
        client.change(&uri, 3 + 2 * round, &text);
        assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    }
    // A card of another file, found among all the cards.
    let (other, other_text) = &card_files[0];
    let name = other_text.lines().find_map(|l| l.split('"').nth(1).filter(|_| l.ends_with('{'))).expect("a card");
    let found = client.request("workspace/symbol", json!({ "query": name }));
    let hits = found.as_array().expect("symbols");
    let other_uri = format!("file://{}", other.display());
    assert!(hits.iter().any(|h| h["name"] == name && h["location"]["uri"] == other_uri.as_str()), "{found}");
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
}

/// A game of a designer's own, with a cursor line at each kind of place.
const RULES: &str = r#"ruleset skirmish {
  title "Skirmish"
}

kind unit "Unit" {
  field hp int 1.. required {

  }

}

enum colour {
  red

}

setup {
  zone hand "Hand" {

  }
}

"#;

/// The names of the lines the language declares inside the blocks at `path`.
fn declared(path: &[&str]) -> Vec<String> {
    let vocabulary = cardsmith::ruleset::language::at(path).expect("a block of the language");
    vocabulary.lines().iter().map(|about| about.name.to_string()).collect()
}

#[test]
fn completion_in_a_ruleset_offers_the_lines_declared_there() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let file = dir.path().join("skirmish.rules");
    std::fs::write(&file, RULES).expect("write");
    let uri = format!("file://{}", file.display());
    let mut client = Client::start(dir.path());
    initialize(&mut client, dir.path(), json!({}));
    open(&mut client, &uri, RULES);
    let mut labels = |line: u32, character: u32| -> Vec<String> {
        let items = client.request("textDocument/completion", at(&uri, line, character));
        items.as_array().expect("a list").iter().map(|c| c["label"].as_str().unwrap_or("").to_string()).collect()
    };
    let cases: [(u32, u32, Vec<String>); 6] = [
        (1, 2, vec!["title".into(), "extends".into(), "doc".into()]),
        (4, 0, declared(&[])),
        (6, 4, declared(&["kind", "field"])),
        (8, 2, declared(&["kind"])),
        (19, 4, declared(&["setup", "zone"])),
        (23, 0, declared(&[])),
    ];
    for (line, character, expected) in cases {
        assert_eq!(labels(line, character), expected, "at line {line}");
    }
    // An enum's block holds its values, which are no lines of the language.
    assert_eq!(labels(14, 2), Vec::<String>::new());
    assert!(declared(&["kind"]).contains(&"field".to_string()) && declared(&["kind"]).contains(&"border".to_string()));

    let hover = client.request("textDocument/hover", at(&uri, 5, 3));
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.starts_with("`field NAME") && text.contains("For example: `field "), "{hover}");
}

#[test]
fn a_listed_sheet_gets_its_diagnostics_at_its_cells_when_it_or_a_card_file_changes() {
    let (dir, cards_uri) = project();
    let manifest = std::fs::read_to_string(dir.path().join("cardsmith.toml")).expect("manifest");
    let listed = "\n[[sheet]]\npath = \"offense.csv\"\nkind = \"offense\"\n";
    std::fs::write(dir.path().join("cardsmith.toml"), format!("{manifest}{listed}")).expect("manifest");
    let table = "name,symbol,arc,at,text\r\n\
                 Sheet Shot,kinetic,narrow,3.5 { impact damage 3 },Deal 3 {damage}.\r\n\
                 Sheet Salvo,kinetic,sideways,2.0 { impact damage 2 },Deal 2 {damage}.\r\n";
    let sheet = dir.path().join("offense.csv");
    std::fs::write(&sheet, table).expect("sheet");
    let uri = format!("file://{}", sheet.display());
    let mut client = Client::start(dir.path());
    initialize(&mut client, dir.path(), json!({}));
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(codes(&diagnostics), ["E0208"], "{diagnostics:?}");
    assert_eq!(diagnostics[0]["range"]["start"], position(2, column(table, 2, "sideways")));
    assert!(diagnostics[0]["message"].as_str().unwrap_or_default().starts_with("C3: unknown firing arc"));

    // The sheet open and edited: its buffer is what is checked.
    let params = json!({ "textDocument": { "uri": uri, "languageId": "csv", "version": 1, "text": table } });
    client.notify("textDocument/didOpen", params);
    client.change(&uri, 2, &table.replace("sideways", "narrow"));
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());

    // A card file that names a card of the sheet again: the sheet hears of it.
    let cards = std::fs::read_to_string(dir.path().join("cards/lances.cards")).expect("cards");
    let twice = format!("{cards}\noffense \"Sheet Shot\" {{\n  symbol kinetic\n  arc narrow\n  at 3.5 {{ impact damage 3 }}\n  text \"Deal 3 {{damage}}.\"\n}}\n");
    open(&mut client, &cards_uri, &cards);
    client.change(&cards_uri, 2, &twice);
    let diagnostics = client.diagnostics(&uri);
    assert!(
        diagnostics
            .iter()
            .any(|d| d["message"].as_str().unwrap_or_default().contains("two cards are named `Sheet Shot`")),
        "{diagnostics:?}"
    );
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
}

/// An editor opened on a folder with no `cardsmith.toml` (in it or above
/// it): the server reads the folder's card and ruleset files as
/// `cardsmith check FOLDER` does, so a name resolves to a card in a file
/// the editor never opened, in a sub-folder too; hidden folders are not read.
#[test]
fn a_folder_without_a_project_file_is_read_as_one() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let ships = CARDS.split("\ndeck ").next().expect("the cards");
    std::fs::create_dir_all(dir.path().join("ships")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join(".old")).expect("mkdir");
    std::fs::write(dir.path().join("ships/lances.cards"), ships).expect("write");
    std::fs::write(dir.path().join(".old/lances.cards"), ships).expect("write");
    let decks = "game dreadnaught-2e\n\ndeck \"Lances\" draw {\n  card \"Spinal Lance\" x2\n}\n";
    let file = dir.path().join("decks.cards");
    std::fs::write(&file, decks).expect("write");
    let uri = format!("file://{}", file.display());

    let mut client = Client::start(dir.path());
    initialize(&mut client, dir.path(), json!({}));
    open(&mut client, &uri, decks);
    let diagnostics = codes(&client.diagnostics(&uri));
    assert!(!diagnostics.contains(&"E0212".to_string()), "the deck's card is found: {diagnostics:?}");
    let found = client.request("textDocument/definition", at(&uri, 3, column(decks, 3, "Spinal") + 2));
    let ships_uri = format!("file://{}", dir.path().join("ships/lances.cards").display());
    assert_eq!(found, json!([{ "uri": ships_uri, "range": { "start": position(2, 8), "end": position(2, 22) } }]));
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
}

/// A project's `exclude` holds in the editor as on the command line: a
/// card in an excluded folder is not one of the project's, while one in
/// another file of the project, never opened, is.
#[test]
fn the_server_leaves_out_what_the_project_excludes() {
    let (dir, uri) = project();
    std::fs::create_dir_all(dir.path().join("cards/old")).expect("mkdir");
    std::fs::write(dir.path().join("cards/old/lances.cards"), CARDS).expect("write");
    let broad = "game dreadnaught-2e\n\noffense \"Broad Lance\" {\n  symbol kinetic\n  arc broadside\n}\n";
    std::fs::write(dir.path().join("cards/broad.cards"), broad).expect("write");
    let manifest = "[project]\npaths = [\"cards\"]\nexclude = [\"cards/old\"]\n";
    std::fs::write(dir.path().join("cardsmith.toml"), manifest).expect("write");
    let mut client = Client::start(dir.path());
    initialize(&mut client, dir.path(), json!({}));
    open(&mut client, &uri, CARDS);
    let card = client.request("textDocument/definition", at(&uri, 22, column(CARDS, 22, "Spinal") + 2));
    assert_eq!(card, json!([{ "uri": uri, "range": { "start": position(2, 8), "end": position(2, 22) } }]));
    let found = client.request("workspace/symbol", json!({ "query": "Lance" }));
    let mut files: Vec<&str> =
        found.as_array().expect("symbols").iter().filter_map(|s| s["location"]["uri"].as_str()).collect();
    files.sort();
    files.dedup();
    let broad_uri = format!("file://{}", dir.path().join("cards/broad.cards").display());
    assert_eq!(files, [broad_uri.as_str(), uri.as_str()], "{found}");
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
}

/// A folder with no project file is read within a project's limits: a link
/// leading out of it is refused, and so is a tree of more folders than a
/// folder of cards has; each is said in the server's log, and the open
/// buffers are checked all the same.
#[cfg(unix)]
#[test]
fn a_folder_without_a_project_file_is_read_within_limits() {
    let outside = tempfile::tempdir().expect("temporary folder");
    std::fs::write(outside.path().join("lances.cards"), CARDS.split("\ndeck ").next().expect("cards")).expect("write");
    let decks = "game dreadnaught-2e\n\ndeck \"Lances\" draw {\n  card \"Spinal Lance\" x2\n}\n";
    let session = |dir: &Path| -> (Value, String) {
        let file = dir.join("decks.cards");
        std::fs::write(&file, decks).expect("write");
        let uri = format!("file://{}", file.display());
        let mut client = Client::start_with(dir, Stdio::piped());
        initialize(&mut client, dir, json!({}));
        open(&mut client, &uri, decks);
        let found = client.request("textDocument/definition", at(&uri, 3, column(decks, 3, "Spinal") + 2));
        client.request("shutdown", Value::Null);
        client.notify("exit", Value::Null);
        let output = client.child.wait_with_output().expect("exits");
        (found, String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let linked = tempfile::tempdir().expect("temporary folder");
    std::os::unix::fs::symlink(outside.path(), linked.path().join("ships")).expect("link");
    let (found, log) = session(linked.path());
    assert_eq!(found, json!([]), "nothing is read through a link out");
    assert!(log.contains("links to") && log.contains("outside"), "{log}");

    let wide = tempfile::tempdir().expect("temporary folder");
    for i in 0..4096 {
        std::fs::create_dir(wide.path().join(format!("f{i:04}"))).expect("mkdir");
    }
    std::fs::write(wide.path().join("f4095/lances.cards"), CARDS.split("\ndeck ").next().expect("cards"))
        .expect("write");
    let (found, log) = session(wide.path());
    assert_eq!(found, json!([]), "a tree past the limit is not read");
    assert!(log.contains("more than 4096 folders to read"), "{log}");
}

/// A card's picture missing from the project is a warning in the editor as
/// in `check` (W0716), at its path, once.
#[test]
fn a_missing_picture_is_a_warning_at_its_path() {
    let (dir, uri) = project();
    // The first card has an error (an unknown icon), which leaves it out
    // of what is printed: the second names the missing picture.
    let cards = CARDS.replacen("  text \"Deal 4", "  art \"art/gone.png\"\n  text \"Deal 4", 1);
    let mut client = Client::start(dir.path());
    initialize(&mut client, dir.path(), json!({}));
    open(&mut client, &uri, &cards);
    // The buffer may be checked once before the project around it is read,
    // which is where its pictures are looked for: the next publication has it.
    let mut diagnostics = client.diagnostics(&uri);
    for _ in 0..3 {
        if codes(&diagnostics).iter().any(|c| c == "W0716") {
            break;
        }
        diagnostics = client.diagnostics(&uri);
    }
    let missing: Vec<&Value> = diagnostics.iter().filter(|d| d["code"] == "W0716").collect();
    assert_eq!(missing.len(), 1, "{diagnostics:?}");
    assert_eq!(missing[0]["severity"], 2, "a warning");
    let line = cards.lines().position(|l| l.contains("art/gone.png")).expect("the line") as u32;
    assert_eq!(missing[0]["range"]["start"], position(line, column(&cards, line as usize, "\"art/gone")));
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
}
