//! The preview server of `cardsmith watch --serve`: a small HTTP/1.1 server
//! on the loopback address, written with the standard library alone.  It
//! serves one page, the latest HTML preview, at `/`, and at `/events` a
//! stream of server-sent events that says `reload` each time a new page is
//! published; a script added to the page reloads it then.  `HEAD` is
//! answered wherever `GET` is, with the same head and no body.
//!
//! Every request is read under limits (its head's size, the time it takes),
//! and nothing a client sends can stop the server: a bad request gets its
//! status and is closed.  A request must name the server by its own address
//! in its `Host` header (`127.0.0.1:PORT`, `localhost:PORT`): a page of
//! another site whose name was made to lead to 127.0.0.1 (DNS rebinding)
//! gets `421 Misdirected Request` and nothing of the preview.
//!
//! Every client is on 127.0.0.1, so clients cannot be told apart; instead
//! connections are bounded by what they do ([`Slots`]): those still sending
//! their request, those being answered, and the event streams of open pages
//! each have their own bound, and a new connection past a bound closes the
//! oldest of its kind instead of being refused.  So however many idle
//! connections or event streams are open, a new page load is served.

use miette::{IntoDiagnostic, Result, WrapErr};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The most bytes of a request's head (its request line and headers).
const MOST_HEAD_BYTES: u64 = 16 * 1024;
/// The most connections still sending their request at once.
const MOST_READING: usize = 32;
/// The most answers being sent at once.
const MOST_ANSWERING: usize = 16;
/// The most event streams open at once: one for each open page.
const MOST_EVENT_STREAMS: usize = 8;
/// How long a client may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to read what it is sent.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often an idle event stream sends a comment, which also finds out
/// when its page was closed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Reloads the page when the server says so; a dropped stream reconnects
/// by itself (the browser's own retry).
const RELOAD_SCRIPT: &str =
    "<script>new EventSource(\"/events\").onmessage = function () { location.reload(); };</script>\n";

/// The head of the event stream, for `GET` and `HEAD`.
const EVENTS_HEAD: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\n";

/// The page being served and how many times it was replaced, and the
/// connections open.
struct Shared {
    page: Mutex<(u64, Arc<Vec<u8>>)>,
    published: Condvar,
    /// The server's port, which a request's `Host` header must name.
    port: u16,
    reading: Slots,
    answering: Slots,
    streams: Slots,
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
        let shared = Arc::new(Shared {
            page: Mutex::default(),
            published: Condvar::new(),
            port: address.port(),
            reading: Slots::new(MOST_READING),
            answering: Slots::new(MOST_ANSWERING),
            streams: Slots::new(MOST_EVENT_STREAMS),
        });
        let serving = Arc::clone(&shared);
        std::thread::spawn(move || accept(&listener, &serving));
        Ok(Server { shared, address })
    }

    /// Serves `page` from now on, with the reload script, and tells the open
    /// pages to reload.
    pub fn publish(&self, page: &[u8]) {
        let page = Arc::new(with_reload_script(page));
        let mut current = lock(&self.shared.page);
        *current = (current.0 + 1, page);
        self.shared.published.notify_all();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
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

/// The open connections of one kind, oldest first.  Past its bound, taking a
/// place closes the oldest connection: a client waiting that long is idle or
/// gone, and a page's event stream reconnects by itself.
struct Slots {
    most: usize,
    open: Mutex<VecDeque<Slot>>,
    next: AtomicU64,
}

struct Slot {
    id: u64,
    stream: TcpStream,
    closed: Arc<AtomicBool>,
}

/// A connection's place among its kind, given up when dropped.
struct Place<'s> {
    slots: &'s Slots,
    id: u64,
    /// Set when a newer connection took the place.
    closed: Arc<AtomicBool>,
}

impl Slots {
    fn new(most: usize) -> Slots {
        Slots { most, open: Mutex::default(), next: AtomicU64::new(0) }
    }

    /// Takes a place for `stream`, closing the oldest connection of the kind
    /// when every place is taken.
    fn take(&self, stream: &TcpStream) -> std::io::Result<Place<'_>> {
        let slot = Slot {
            id: self.next.fetch_add(1, Ordering::Relaxed),
            stream: stream.try_clone()?,
            closed: Arc::new(AtomicBool::new(false)),
        };
        let place = Place { slots: self, id: slot.id, closed: Arc::clone(&slot.closed) };
        let mut open = lock(&self.open);
        while open.len() >= self.most {
            let Some(oldest) = open.pop_front() else { break };
            oldest.closed.store(true, Ordering::SeqCst);
            // Ends a read or write under way; the connection's thread ends.
            let _ = oldest.stream.shutdown(Shutdown::Both);
        }
        open.push_back(slot);
        Ok(place)
    }
}

impl Place<'_> {
    fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        lock(&self.slots.open).retain(|slot| slot.id != self.id);
    }
}

fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // Out of file descriptors, say: wait rather than spin.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let shared = Arc::clone(shared);
        std::thread::spawn(move || {
            // A client that goes away mid-answer is no error of the server's.
            let _ = serve(stream, &shared);
        });
    }
}

/// What a request asks for, from its head.
struct Head {
    method: String,
    path: String,
    /// `HTTP/1.1`, or what the request line says.
    version: String,
    /// Every `Host` header's value.
    hosts: Vec<String>,
}

/// Answers one request.
fn serve(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let mut out = stream.try_clone()?;
    let reading = shared.reading.take(&stream)?;
    let head = read_head(stream)?;
    if reading.closed() {
        return Ok(());
    }
    drop(reading);
    let answering = shared.answering.take(&out)?;
    let Some(head) = head else {
        return respond(&mut out, "GET", "400 Bad Request", b"a request head is a few lines\n");
    };
    if let Err((status, why)) = check_host(&head, shared.port) {
        return respond(&mut out, &head.method, status, why.as_bytes());
    }
    let method = head.method.as_str();
    match (method, head.path.as_str()) {
        ("GET" | "HEAD", "/" | "/index.html" | "/preview.html") => {
            let page = Arc::clone(&lock(&shared.page).1);
            respond_with(&mut out, method, "200 OK", "text/html; charset=utf-8", &page)
        }
        ("GET", "/events") => {
            drop(answering);
            events(&mut out, shared)
        }
        ("HEAD", "/events") => {
            out.write_all(EVENTS_HEAD.as_bytes())?;
            out.flush()
        }
        ("GET" | "HEAD", _) => respond(&mut out, method, "404 Not Found", b"the preview is at /\n"),
        _ => respond(&mut out, method, "405 Method Not Allowed", b"only GET and HEAD\n"),
    }
}

/// Whether a request names this server in its `Host` header, as every
/// HTTP/1.1 request must; else the status to answer and why.
fn check_host(head: &Head, port: u16) -> std::result::Result<(), (&'static str, String)> {
    let ours = format!("127.0.0.1:{port}");
    match head.hosts.as_slice() {
        [] if head.version == "HTTP/1.0" => Ok(()),
        [] => Err(("400 Bad Request", "an HTTP/1.1 request names its host in a Host header\n".to_string())),
        [host] if is_our_host(host, port) => Ok(()),
        [_] => Err((
            "421 Misdirected Request",
            format!("this server answers only to its own address: open http://{ours}/ or http://localhost:{port}/\n"),
        )),
        _ => Err(("400 Bad Request", "a request has one Host header\n".to_string())),
    }
}

/// `127.0.0.1`, `localhost` or `[::1]` with the server's port (which may
/// go without saying when it is 80).
fn is_our_host(host: &str, port: u16) -> bool {
    let host = host.to_ascii_lowercase();
    let (name, given) = match host.rsplit_once(':') {
        Some((name, given)) if !name.is_empty() && !given.contains(']') => (name, given.parse().ok()),
        _ => (host.as_str(), Some(80)),
    };
    matches!(name, "127.0.0.1" | "localhost" | "[::1]") && given == Some(port)
}

/// Reads a request's head, up to its empty line; `None` when it is too long
/// or not text.
fn read_head(stream: TcpStream) -> std::io::Result<Option<Head>> {
    let mut reader = BufReader::new(stream.take(MOST_HEAD_BYTES));
    let mut request_line = String::new();
    let mut hosts = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).is_err() || !line.ends_with('\n') {
            return Ok(None);
        }
        let text = line.trim_end();
        if text.is_empty() {
            break;
        }
        if request_line.is_empty() {
            request_line = text.to_string();
        } else if let Some((name, value)) = text.split_once(':') {
            if name.eq_ignore_ascii_case("host") {
                hosts.push(value.trim().to_string());
            }
        }
    }
    let mut words = request_line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    let version = words.next().unwrap_or("").to_string();
    Ok(Some(Head { method: method.to_string(), path: path.to_string(), version, hosts }))
}

/// A short answer in plain text.
fn respond(out: &mut TcpStream, method: &str, status: &str, body: &[u8]) -> std::io::Result<()> {
    respond_with(out, method, status, "text/plain", body)
}

/// An answer, with its body unless the request is `HEAD`.
fn respond_with(out: &mut TcpStream, method: &str, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    let allow = if status.starts_with("405") { "Allow: GET, HEAD\r\n" } else { "" };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n{allow}Connection: close\r\n\r\n",
        body.len()
    );
    out.write_all(head.as_bytes())?;
    if method != "HEAD" {
        out.write_all(body)?;
    }
    out.flush()
}

/// The event stream: `reload` each time a page is published, a comment when
/// idle; it ends when the page is closed (a write fails) or a newer stream
/// takes its place.
fn events(out: &mut TcpStream, shared: &Shared) -> std::io::Result<()> {
    let place = shared.streams.take(out)?;
    // A stream whose place was just taken is waiting below: wake it to go.
    drop(lock(&shared.page));
    shared.published.notify_all();
    out.write_all(EVENTS_HEAD.as_bytes())?;
    out.write_all(b": connected\n\n")?;
    out.flush()?;
    let mut page = lock(&shared.page);
    let mut seen = page.0;
    loop {
        let (next, waited) = shared
            .published
            .wait_timeout_while(page, KEEP_ALIVE, |current| current.0 == seen && !place.closed())
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if place.closed() {
            return Ok(());
        }
        page = next;
        let message: &[u8] = if waited.timed_out() { b": idle\n\n" } else { b"data: reload\n\n" };
        seen = page.0;
        drop(page);
        out.write_all(message)?;
        out.flush()?;
        page = lock(&shared.page);
    }
}
