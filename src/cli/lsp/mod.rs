//! `cardsmith lsp`: a language server over standard input and output.
//!
//! The server owns the text of every file: the project's files, read from
//! the disk when the client initializes, with the client's open buffers in
//! their place.  Each change marks the workspace stale; once no message is
//! waiting (so a burst of keystrokes costs one check) or before a request is
//! answered, the whole workspace is checked again ([`Workspace`]) and the
//! diagnostics that changed are published.  The analysis itself, offsets in
//! and spans out, is the library's [`cardsmith::ide`]; this module converts
//! positions and speaks the protocol.

mod convert;
mod documents;
mod edits;
mod handlers;
mod transport;

use convert::Encoding;
use documents::Documents;
use lsp_server::{ErrorCode, Notification, Request};
use serde_json::Value;
use std::io::Write;
use std::process::ExitCode;
use transport::Incoming;

/// The methods a client may call before `initialize`: none but these.
const BEFORE_INITIALIZE: &[&str] = &["initialize", "exit"];

/// The most messages read ahead of the one handled.
const MOST_READ_AHEAD: usize = 4;

pub fn run() -> miette::Result<ExitCode> {
    let (sender, receiver) = std::sync::mpsc::sync_channel(MOST_READ_AHEAD);
    // Reading on a thread of its own lets the loop see whether more
    // messages wait before it checks again.  They wait unparsed, a few at
    // most, so that one parsed message at a time is held.
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            match transport::read(&mut input) {
                Ok(Some(message)) => {
                    if sender.send(message).is_err() {
                        break;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    eprintln!("cardsmith lsp: cannot read the client's messages: {e}");
                    break;
                }
            }
        }
    });
    let mut server = Server::new();
    let mut out = std::io::stdout().lock();
    loop {
        let message = match receiver.try_recv() {
            Ok(message) => message,
            Err(std::sync::mpsc::TryRecvError::Empty) => {
                server.refresh(&mut out);
                match receiver.recv() {
                    Ok(message) => message,
                    Err(_) => break,
                }
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => break,
        };
        let message = message.decode();
        if let Some(code) = server.handle(message, &mut out) {
            return Ok(code);
        }
    }
    // The input ended without `exit`.
    Ok(ExitCode::from(1))
}

struct Server {
    initialized: bool,
    shutdown: bool,
    encoding: Encoding,
    docs: Documents,
    /// Whether the client lets the server ask it to watch the project's
    /// files, so that changes made outside the editor are checked too.
    can_watch: bool,
}

impl Server {
    fn new() -> Server {
        Server {
            initialized: false,
            shutdown: false,
            encoding: Encoding::Utf16,
            docs: Documents::new(),
            can_watch: false,
        }
    }

    /// Handles one message; the exit status once the client says `exit`.
    fn handle(&mut self, message: Incoming, out: &mut impl Write) -> Option<ExitCode> {
        match message {
            Incoming::Request(request) => {
                let id = request.id.clone();
                let reply = match self.request(request, out) {
                    Ok(result) => serde_json::json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                    Err((code, message)) => transport::error(Some(id), code, &message),
                };
                send(out, &reply);
            }
            Incoming::Notification(notification) if notification.method == "exit" => {
                return Some(if self.shutdown { ExitCode::SUCCESS } else { ExitCode::from(1) });
            }
            Incoming::Notification(notification) if notification.method == "initialized" && self.can_watch => {
                send(out, &watch_request());
            }
            Incoming::Notification(notification) if self.initialized => self.notification(notification),
            Incoming::Notification(_) | Incoming::Response => {}
            Incoming::Invalid { id, code, message } => send(out, &transport::error(id, code, &message)),
        }
        None
    }

    fn request(&mut self, request: Request, out: &mut impl Write) -> Result<Value, (ErrorCode, String)> {
        let method = request.method.as_str();
        if !self.initialized && !BEFORE_INITIALIZE.contains(&method) {
            return Err((ErrorCode::ServerNotInitialized, format!("`{method}` before `initialize`")));
        }
        if self.shutdown {
            return Err((ErrorCode::InvalidRequest, format!("`{method}` after `shutdown`")));
        }
        match method {
            "initialize" if self.initialized => Err((ErrorCode::InvalidRequest, "a second `initialize`".into())),
            "initialize" => {
                let params = parse(request.params)?;
                let result = self.initialize(params);
                self.initialized = true;
                Ok(result)
            }
            "shutdown" => {
                self.shutdown = true;
                Ok(Value::Null)
            }
            _ => {
                // Answers are about the buffers as they are now.
                self.refresh(out);
                handlers::request(&self.docs, self.encoding, method, request.params)
            }
        }
    }

    fn initialize(&mut self, params: lsp_types::InitializeParams) -> Value {
        let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
        if offered.is_some_and(|e| e.contains(&lsp_types::PositionEncodingKind::UTF8)) {
            self.encoding = Encoding::Utf8;
        }
        let watching = params.capabilities.workspace.as_ref().and_then(|w| w.did_change_watched_files.as_ref());
        self.can_watch = watching.and_then(|w| w.dynamic_registration).unwrap_or(false);
        #[allow(deprecated)] // `root_path` is what older clients send.
        let root = params
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .map(|f| &f.uri)
            .or(params.root_uri.as_ref())
            .and_then(convert::path_of)
            .or_else(|| params.root_path.map(std::path::PathBuf::from));
        if let Some(root) = root {
            self.docs.load_project(&root);
        }
        serde_json::json!({
            "capabilities": handlers::capabilities(self.encoding),
            "serverInfo": { "name": "cardsmith", "version": env!("CARGO_PKG_VERSION") },
        })
    }

    fn notification(&mut self, notification: Notification) {
        let params = notification.params;
        let result = match notification.method.as_str() {
            "textDocument/didOpen" => parse(params).map(|p| self.docs.open(p)),
            "textDocument/didChange" => parse(params).map(|p| self.docs.change(p, self.encoding)),
            "textDocument/didClose" => parse(params).map(|p| self.docs.close(p)),
            "workspace/didChangeWatchedFiles" => parse(params).map(|p| self.docs.watched(p)),
            _ => Ok(()),
        };
        if let Err((_, message)) = result {
            eprintln!("cardsmith lsp: {}: {message}", notification.method);
        }
    }

    /// Checks again if anything changed, and publishes what is new.
    fn refresh(&mut self, out: &mut impl Write) {
        if !self.initialized {
            return;
        }
        for (uri, diagnostics) in self.docs.refresh(self.encoding) {
            let params = lsp_types::PublishDiagnosticsParams { uri, diagnostics, version: None };
            let notification = serde_json::json!({
                "jsonrpc": "2.0",
                "method": "textDocument/publishDiagnostics",
                "params": params,
            });
            send(out, &notification);
        }
    }
}

/// Asks the client to report changes to card and ruleset files and
/// spreadsheets, whoever makes them (`workspace/didChangeWatchedFiles`).  Its answer is ignored.
fn watch_request() -> Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": "watch-files",
        "method": "client/registerCapability",
        "params": { "registrations": [{
            "id": "watch-files",
            "method": "workspace/didChangeWatchedFiles",
            "registerOptions": { "watchers": [{ "globPattern": "**/*.{cards,rules,csv,xlsx}" }] },
        }] },
    })
}

/// A message's parameters as the type its method takes.
fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(params).map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

/// Sends a message; a client that has gone is noticed when its input ends.
fn send(out: &mut impl Write, message: &Value) {
    if let Err(e) = transport::write(out, message) {
        eprintln!("cardsmith lsp: cannot write to the client: {e}");
    }
}
