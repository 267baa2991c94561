//! What a stranger's page or program can do to the servers of cardsmith:
//! the preview server of `cardsmith watch --serve`, the real binary serving
//! a new project, asked over raw TCP connections; and the language server
//! `cardsmith lsp`, sent messages of hostile shapes over its pipes.

mod common;
mod lsp_wire;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The first check of a debug build, with the watcher started.
const START: Duration = Duration::from_secs(60);
/// An answer of the server, on a busy machine.
const ANSWER: Duration = Duration::from_secs(5);

/// `cardsmith watch --serve --port 0` on a new project, killed when dropped.
struct Serving {
    child: Child,
    address: String,
    _dir: tempfile::TempDir,
}

impl Serving {
    fn start() -> Serving {
        let dir = tempfile::tempdir().expect("temp dir");
        let output = common::cardsmith(&["new", "proj", "--game", "dreadnaught-2e"], dir.path());
        assert!(output.status.success(), "{}", common::stderr(&output));
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
            .args(["watch", "--serve", "--port", "0"])
            .current_dir(dir.path().join("proj"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cardsmith watch starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + START;
        let address = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = lines.recv_timeout(left).expect("watch says where it serves");
            if let Some(rest) = line.split("serving the preview at http://").nth(1) {
                break rest.trim_end_matches('/').to_string();
            }
        };
        Serving { child, address, _dir: dir }
    }

    fn port(&self) -> &str {
        self.address.rsplit(':').next().expect("a port")
    }

    /// A connection that has sent `request`, waiting for its answer.
    fn send(&self, request: &str) -> TcpStream {
        let mut stream = TcpStream::connect(&self.address).expect("the preview server accepts");
        stream.set_read_timeout(Some(ANSWER)).expect("timeout");
        stream.write_all(request.as_bytes()).expect("request sent");
        stream
    }

    /// The whole answer to `request`: the server closes every connection
    /// once answered.
    fn ask(&self, request: &str) -> String {
        let mut answer = String::new();
        self.send(request).read_to_string(&mut answer).expect("an answer in time");
        answer
    }

    /// The answer to `METHOD PATH` with this `Host` header.
    fn ask_as(&self, method: &str, path: &str, host: &str) -> String {
        self.ask(&format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\n\r\n"))
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn status(answer: &str) -> &str {
    answer.lines().next().unwrap_or("")
}

fn body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or("", |(_, body)| body)
}

#[test]
fn a_request_naming_another_host_gets_nothing_of_the_preview() {
    let server = Serving::start();
    let port = server.port().to_string();
    for host in ["attacker.example", "attacker.example:80", &format!("attacker.example:{port}"), "127.0.0.1:1"] {
        let answer = server.ask_as("GET", "/", host);
        assert!(status(&answer).starts_with("HTTP/1.1 421"), "Host: {host}\n{answer}");
        assert!(!answer.contains("<figure"), "nothing of the preview for Host: {host}");
        assert!(body(&answer).contains(&format!("http://127.0.0.1:{port}/")), "says where to go: {answer}");
        let events = server.ask_as("GET", "/events", host);
        assert!(status(&events).starts_with("HTTP/1.1 421"), "no event stream for Host: {host}\n{events}");
    }
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("LocalHost:{port}")] {
        let answer = server.ask_as("GET", "/", &host);
        assert!(status(&answer).starts_with("HTTP/1.1 200"), "Host: {host}\n{answer}");
        assert!(answer.contains("<figure"), "the preview for Host: {host}");
    }
    let missing = server.ask("GET / HTTP/1.1\r\n\r\n");
    assert!(status(&missing).starts_with("HTTP/1.1 400"), "{missing}");
    let twice = server.ask(&format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: attacker.example\r\n\r\n"));
    assert!(status(&twice).starts_with("HTTP/1.1 400"), "{twice}");
    // HTTP/1.0 has no Host header to give.
    let old = server.ask("GET / HTTP/1.0\r\n\r\n");
    assert!(status(&old).starts_with("HTTP/1.1 200"), "{old}");
}

#[test]
fn head_is_answered_wherever_get_is_with_the_same_head_and_no_body() {
    let server = Serving::start();
    let address = server.address.clone();
    for path in ["/", "/index.html", "/preview.html?x=1", "/nothing"] {
        let got = server.ask_as("GET", path, &address);
        let head = server.ask_as("HEAD", path, &address);
        let (got_head, got_body) = got.split_once("\r\n\r\n").expect("a head");
        assert_eq!(format!("{got_head}\r\n\r\n"), head, "HEAD {path} gives GET's head and nothing more");
        assert!(!got_body.is_empty());
    }
    assert!(status(&server.ask_as("HEAD", "/", &address)).starts_with("HTTP/1.1 200"));
    let events = server.ask_as("HEAD", "/events", &address);
    assert!(status(&events).starts_with("HTTP/1.1 200"), "{events}");
    assert!(events.contains("Content-Type: text/event-stream"), "{events}");
    assert!(body(&events).is_empty(), "the stream's head alone, then closed: {events}");
    let post = server.ask_as("POST", "/", &address);
    assert!(status(&post).starts_with("HTTP/1.1 405"), "{post}");
    assert!(post.contains("Allow: GET, HEAD\r\n"), "{post}");
}

#[test]
fn idle_connections_and_event_streams_never_lock_out_a_page_load() {
    let server = Serving::start();
    let address = server.address.clone();
    let events_request = format!("GET /events HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let mut streams: Vec<TcpStream> = (0..70).map(|_| server.send(&events_request)).collect();
    let idle: Vec<TcpStream> =
        (0..70).map(|_| TcpStream::connect(&address).expect("the preview server accepts")).collect();
    let asked = Instant::now();
    let page = server.ask_as("GET", "/", &address);
    assert!(status(&page).starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<figure"), "the whole page");
    assert!(asked.elapsed() < ANSWER, "the page took {:?}", asked.elapsed());

    // The newest streams are open, and all but the 9 newest were closed:
    // their pages' EventSource would reconnect.  Which are newest is the
    // order the server read their requests in, which under load need not
    // be the order they connected in, so the streams are counted, not named.
    let mut closed = 0;
    for stream in &mut streams {
        stream.set_read_timeout(Some(Duration::from_millis(500))).expect("timeout");
        let mut rest = String::new();
        closed += usize::from(stream.read_to_string(&mut rest).is_ok());
    }
    let all = streams.len();
    assert!(closed < all, "every event stream was closed: the newest must stay open");
    assert!(closed + 9 >= all, "only {closed} of {all} streams were closed");
    drop(idle);
}

/// `cardsmith lsp` on an empty project, initialized.
struct Language {
    wire: lsp_wire::Wire,
    next_id: i64,
    _dir: tempfile::TempDir,
}

impl Language {
    fn start() -> Language {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
        std::fs::create_dir(dir.path().join("cards")).expect("cards");
        let wire = lsp_wire::start(dir.path(), Stdio::null()).expect("cardsmith lsp starts");
        let mut language = Language { wire, next_id: 1, _dir: dir };
        let root = format!("file://{}", language._dir.path().display());
        language.call("initialize", json!({ "processId": null, "rootUri": root, "capabilities": {} }));
        language.notify("initialized", json!({}));
        language
    }

    fn uri(&self, name: &str) -> String {
        format!("file://{}", self._dir.path().join("cards").join(name).display())
    }

    fn send(&mut self, body: &[u8]) {
        lsp_wire::send(&mut self.wire.input, body).expect("the server reads");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }).to_string().as_bytes());
    }

    /// The response to a request.
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string().as_bytes());
        self.response(&json!(id))
    }

    fn response(&mut self, id: &Value) -> Value {
        loop {
            let message = self.wire.output.recv_timeout(START).expect("an answer in time");
            if message.get("method").is_none() && message["id"] == *id {
                return message;
            }
        }
    }
}

impl Drop for Language {
    fn drop(&mut self) {
        let _ = self.wire.child.kill();
        let _ = self.wire.child.wait();
    }
}

const CARD: &str = "game dreadnaught-2e\n\noffense \"Spinal Lance\" {\n  symbol kinetic\n  arc narrow\n  at 2.4 {\n    impact damage 8\n  }\n  text \"Deal 8 {damage}.\"\n}\n";

#[test]
fn twenty_thousand_range_edits_in_one_change_are_applied_at_once() {
    let mut language = Language::start();
    let uri = language.uri("lances.cards");
    // A long file: the edits' cost must not grow with it.
    let text = format!("{CARD}{}", "// a note on the lance\n".repeat(20_000));
    let params = json!({ "textDocument": { "uri": uri, "languageId": "cardsmith", "version": 1, "text": text } });
    language.notify("textDocument/didOpen", params);
    // A comment line above the card, one edit each, each where the one
    // before left the text: line i is the line the previous edit added.
    let edits: Vec<Value> = (0..20_000)
        .map(|i| {
            let at = json!({ "line": i, "character": 0 });
            json!({ "range": { "start": at, "end": at }, "text": "// 𝔠 added\n" })
        })
        .collect();
    let change = json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": edits });
    let sent = Instant::now();
    language.notify("textDocument/didChange", change);
    let symbols = language.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    let took = sent.elapsed();
    assert_eq!(symbols["result"][0]["name"], "Spinal Lance", "{symbols}");
    assert_eq!(symbols["result"][0]["range"]["start"], json!({ "line": 20_002, "character": 0 }), "{symbols}");
    assert!(took < Duration::from_secs(3), "20,000 edits and a check took {took:?}");
}

#[test]
fn a_message_of_many_tiny_objects_is_refused_unparsed_and_the_server_goes_on() {
    let mut language = Language::start();
    // 600,000 objects in 4 MB: parsed, about 250 MB.
    let objects = vec!["{\"a\":0}"; 600_000].join(",");
    let body = format!(r#"{{"jsonrpc":"2.0","id":"big","method":"textDocument/hover","params":{{"x":[{objects}]}}}}"#);
    language.send(body.as_bytes());
    let refused = language.response(&json!("big"));
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("more than 500000 JSON values"), "{refused}");
    assert_eq!(refused["error"]["code"], -32600, "{refused}");

    // A body past the byte limit, 8 MiB of text escaped six times over, is
    // skipped unread.
    let body = format!(r#"{{"jsonrpc":"2.0","id":"long","method":"x","params":"{}"}}"#, " ".repeat(52 << 20));
    language.send(body.as_bytes());
    let refused = language.response(&Value::Null);
    assert!(
        refused["error"]["message"].as_str().unwrap_or_default().contains("the most read is 50397184"),
        "{refused}"
    );

    let uri = language.uri("lances.cards");
    let params = json!({ "textDocument": { "uri": uri, "languageId": "cardsmith", "version": 1, "text": CARD } });
    language.notify("textDocument/didOpen", params);
    let symbols = language.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(symbols["result"][0]["name"], "Spinal Lance", "{symbols}");
}

#[test]
fn engine_data_of_many_tiny_objects_is_refused_before_it_is_parsed() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 1,000,001 objects in 8 MB, within the bytes: parsed, about 700 MB.
    let objects = vec![r#"{"a":0}"#; 1_000_001].join(",");
    let document = format!(
        r#"{{"format":2,"ruleset":{{"id":"g"}},"decks":[{{"name":"D","deck_type":"t","computed":{{"x":[{objects}]}}}}]}}"#
    );
    std::fs::write(dir.path().join("tiny.json"), document).expect("write");
    let started = Instant::now();
    let output = common::cardsmith(&["timeline", "--data", "tiny.json", "--play", "1:D"], dir.path());
    let message = common::stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(
        message.contains(
            "tiny.json holds more than 2000000 JSON values (objects, arrays and their items), the most an engine \
             data document may hold"
        ),
        "{message}"
    );
    assert!(started.elapsed() < Duration::from_secs(5), "refused in {:?}", started.elapsed());
}
