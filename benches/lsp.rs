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

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
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
    input: ChildStdin,
    output: Receiver<Value>,
}

impl Server {
    fn start(dir: &Path) -> Result<Server, String> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
            .arg("lsp")
            .current_dir(dir)
            .env("XDG_CACHE_HOME", dir.join("cache"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start cardsmith lsp: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (sender, output) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Ok(Server { input, output })
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).map_err(|e| e.to_string())?;
        self.input.flush().map_err(|e| e.to_string())
    }

    fn next(&self) -> Result<Value, String> {
        self.output.recv_timeout(Duration::from_secs(300)).map_err(|_| "the server stopped answering".to_string())
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

fn read(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        match line.trim_end().strip_prefix("Content-Length: ") {
            Some(value) => length = value.parse().ok()?,
            None if line.trim_end().is_empty() => break,
            None => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
