//! The language server's latency: how long after an edit an editor gets the
//! file's diagnostics, on a large project.  A project of `--cards` cards
//! (10,000 by default) of `--game` (dreadnaught-2e) is written by the corpus
//! generator to a temporary folder; `cardsmith lsp` is started on it and
//! driven over its standard input and output as an editor drives it.  One
//! file in the middle of the project is opened; then, `--edits` times (20),
//! a line naming no field of its kind is added to its first card or taken
//! out again, and the time from sending `didChange` (the whole text) to
//! receiving the file's `publishDiagnostics` is measured.  A benchmark
//! prints figures; it asserts nothing.
//!
//!     cargo bench --bench lsp
//!     cargo bench --bench lsp -- --game dropfleet-1.3 --cards 1000 --edits 10

#[path = "../examples/gen-corpus/corpus.rs"]
mod corpus;
#[path = "../tests/lsp_wire/mod.rs"]
mod lsp_wire;

use serde_json::{json, Value};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let game = option("--game").unwrap_or_else(|| "dreadnaught-2e".into());
    let cards: usize = option("--cards").and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let edits: usize = option("--edits").and_then(|n| n.parse().ok()).unwrap_or(20);
    if let Err(e) = run(&game, cards, edits) {
        eprintln!("the benchmark failed: {e}");
        std::process::exit(1);
    }
}

fn run(game: &str, cards: usize, edits: usize) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary folder: {e}"))?;
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let samples = corpus::sample_files(repository, game).map_err(|e| format!("cannot read the samples: {e}"))?;
    let project = corpus::Template::new(game, samples)?.project(cards, 4);
    let mut card_files = Vec::new();
    for file in &project.files {
        let path = dir.path().join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap_or(dir.path())).map_err(|e| e.to_string())?;
        std::fs::write(&path, &file.text).map_err(|e| e.to_string())?;
        if file.path.ends_with(".cards") && file.text.contains("\n}") {
            card_files.push((path, file.text.clone()));
        }
    }
    let (path, text) = card_files.get(card_files.len() / 2).cloned().ok_or("no card file")?;
    let uri = format!("file://{}", path.display());
    // A line in the first card's block that names no field.
    let at = text.find("{\n").ok_or("no card with a block")? + 2;
    let broken = format!("{}  no-such-field 1\n{}", &text[..at], &text[at..]);

    let mut server = Server::start(dir.path())?;
    let started = Instant::now();
    let root = format!("file://{}", dir.path().display());
    server.request(1, "initialize", json!({ "processId": null, "rootUri": root, "capabilities": {} }))?;
    server.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }))?;
    let document = json!({ "uri": uri, "languageId": "cardsmith", "version": 1, "text": text });
    server
        .send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": document } }))?;
    server.diagnostics(&uri)?;
    let first = started.elapsed();

    let mut times = Vec::new();
    for n in 0..edits {
        let new = if n % 2 == 0 { &broken } else { &text };
        let change = json!({ "textDocument": { "uri": uri, "version": n + 2 }, "contentChanges": [{ "text": new }] });
        let sent = Instant::now();
        server.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": change }))?;
        let diagnostics = server.diagnostics(&uri)?;
        times.push(sent.elapsed());
        if diagnostics.is_empty() == (n % 2 == 0) {
            return Err(format!("edit {n}: unexpected diagnostics {diagnostics:?}"));
        }
    }
    server.request(2, "shutdown", Value::Null)?;
    server.send(&json!({ "jsonrpc": "2.0", "method": "exit" }))?;
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let (cards, decks) = (project.cards, project.decks);
    println!("cardsmith lsp: {cards} cards and {decks} decks of {game} in {} card files", card_files.len());
    println!("load average before: {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
    println!("initialize to the opened file's diagnostics: {:.0} ms", ms(first));
    if let (Some(low), Some(high)) = (times.first(), times.last()) {
        let median = times[times.len() / 2];
        println!(
            "didChange to publishDiagnostics, {edits} edits: median {:.1} ms, min {:.1} ms, max {:.1} ms",
            ms(median),
            ms(*low),
            ms(*high)
        );
    }
    Ok(())
}

struct Server {
    wire: lsp_wire::Wire,
}

/// The server does not outlive the benchmark.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.wire.child.kill();
        let _ = self.wire.child.wait();
    }
}

impl Server {
    fn start(dir: &Path) -> Result<Server, String> {
        Ok(Server { wire: lsp_wire::start(dir, Stdio::inherit())? })
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        lsp_wire::send(&mut self.wire.input, message.to_string().as_bytes()).map_err(|e| e.to_string())
    }

    fn next(&self) -> Result<Value, String> {
        self.wire.output.recv_timeout(Duration::from_secs(300)).map_err(|_| "the server stopped answering".to_string())
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Result<Value, String> {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        loop {
            let message = self.next()?;
            if message["id"] == id {
                return Ok(message);
            }
        }
    }

    /// The next diagnostics published for a file.
    fn diagnostics(&mut self, uri: &str) -> Result<Vec<Value>, String> {
        loop {
            let message = self.next()?;
            if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri {
                return Ok(message["params"]["diagnostics"].as_array().cloned().unwrap_or_default());
            }
        }
    }
}
