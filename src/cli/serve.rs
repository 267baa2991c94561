//! The preview server of `cardsmith watch --serve`: a small HTTP/1.1 server
//! on the loopback address, written with the standard library alone.  It
//! serves one page, the latest HTML preview, at `/`, and at `/events` a
//! stream of server-sent events that says `reload` each time a new page is
//! published; a script added to the page reloads it then.
//!
//! Every request is read under limits (its head's size, the time it takes),
//! at most [`MOST_CONNECTIONS`] are served at once, and nothing a client
//! sends can stop the server: a bad request gets its status and is closed.

use miette::{IntoDiagnostic, Result, WrapErr};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The most bytes of a request's head (its request line and headers).
const MOST_HEAD_BYTES: u64 = 16 * 1024;
/// The most connections served at once; more are closed at once.
const MOST_CONNECTIONS: usize = 64;
/// How long a client may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How often an idle event stream sends a comment, which also finds out
/// when its page was closed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Reloads the page when the server says so; a dropped stream reconnects
/// by itself (the browser's own retry).
const RELOAD_SCRIPT: &str =
    "<script>new EventSource(\"/events\").onmessage = function () { location.reload(); };</script>\n";

/// The page being served and how many times it was replaced.
#[derive(Default)]
struct Shared {
    page: Mutex<(u64, Arc<Vec<u8>>)>,
    published: Condvar,
    connections: AtomicUsize,
}

/// A running server; it serves until the process ends.
pub struct Server {
    shared: Arc<Shared>,
    pub address: SocketAddr,
}

impl Server {
    /// Listens on 127.0.0.1:`port` (any free port for 0) and serves from a
    /// thread of its own.
    pub fn start(port: u16) -> Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot serve the preview on 127.0.0.1:{port}"))?;
        let address = listener.local_addr().into_diagnostic()?;
        let shared = Arc::new(Shared::default());
        let serving = Arc::clone(&shared);
        std::thread::spawn(move || accept(&listener, &serving));
        Ok(Server { shared, address })
    }

    /// Serves `page` from now on, with the reload script, and tells the open
    /// pages to reload.
    pub fn publish(&self, page: &[u8]) {
        let page = Arc::new(with_reload_script(page));
        let mut current = self.shared.page.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *current = (current.0 + 1, page);
        self.shared.published.notify_all();
    }
}

/// The page with the reload script before `</body>` (or at its end).
fn with_reload_script(page: &[u8]) -> Vec<u8> {
    let end = page.windows(7).rposition(|w| w.eq_ignore_ascii_case(b"</body>")).unwrap_or(page.len());
    let mut out = Vec::with_capacity(page.len() + RELOAD_SCRIPT.len());
    out.extend_from_slice(&page[..end]);
    out.extend_from_slice(RELOAD_SCRIPT.as_bytes());
    out.extend_from_slice(&page[end..]);
    out
}

fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // Out of file descriptors, say: wait rather than spin.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        if shared.connections.fetch_add(1, Ordering::SeqCst) >= MOST_CONNECTIONS {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            continue;
        }
        let shared = Arc::clone(shared);
        std::thread::spawn(move || {
            // A client that goes away mid-answer is no error of the server's.
            let _ = serve(stream, &shared);
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// Answers one request.
fn serve(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let mut out = stream.try_clone()?;
    let Some(request_line) = read_head(stream)? else {
        return respond(&mut out, "400 Bad Request", "text/plain", b"a request head is a few lines\n");
    };
    let mut words = request_line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    match (method, path) {
        ("GET", "/" | "/index.html" | "/preview.html") => {
            let page = Arc::clone(&shared.page.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).1);
            respond(&mut out, "200 OK", "text/html; charset=utf-8", &page)
        }
        ("GET", "/events") => events(&mut out, shared),
        ("GET" | "HEAD", _) => respond(&mut out, "404 Not Found", "text/plain", b"the preview is at /\n"),
        _ => respond(&mut out, "405 Method Not Allowed", "text/plain", b"only GET\n"),
    }
}

/// Reads a request's head, up to its empty line, and returns its first
/// line; `None` when it is too long or not text.
fn read_head(stream: TcpStream) -> std::io::Result<Option<String>> {
    let mut reader = BufReader::new(stream.take(MOST_HEAD_BYTES));
    let mut first = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).is_err() || !line.ends_with('\n') {
            return Ok(None);
        }
        if line.trim_end().is_empty() {
            return Ok(Some(first));
        }
        if first.is_empty() {
            first = line.trim_end().to_string();
        }
    }
}

fn respond(out: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    out.write_all(head.as_bytes())?;
    out.write_all(body)?;
    out.flush()
}

/// The event stream: `reload` each time a page is published, a comment when
/// idle; it ends when the page is closed (a write fails).
fn events(out: &mut TcpStream, shared: &Shared) -> std::io::Result<()> {
    out.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\n: connected\n\n",
    )?;
    out.flush()?;
    let mut page = shared.page.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut seen = page.0;
    loop {
        let (next, waited) = shared
            .published
            .wait_timeout_while(page, KEEP_ALIVE, |current| current.0 == seen)
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        page = next;
        let message: &[u8] = if waited.timed_out() { b": idle\n\n" } else { b"data: reload\n\n" };
        seen = page.0;
        drop(page);
        out.write_all(message)?;
        out.flush()?;
        page = shared.page.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    }
}
