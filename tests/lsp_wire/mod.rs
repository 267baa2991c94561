//! The wire of `cardsmith lsp`, for the tests and the benchmark that drive
//! it as an editor does: the server started over pipes in a project folder,
//! and JSON-RPC messages framed by `Content-Length` headers.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};

/// A running server: its process, its input, and the messages it sends,
/// read on a thread of their own.
pub struct Wire {
    pub child: Child,
    pub input: ChildStdin,
    pub output: Receiver<Value>,
}

/// Starts `cardsmith lsp` in `dir`, with its cache in `dir/cache`.
pub fn start(dir: &Path, stderr: Stdio) -> Result<Wire, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
        .arg("lsp")
        .current_dir(dir)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("cannot start cardsmith lsp: {e}"))?;
    let input = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (sender, output) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        while let Some(message) = read(&mut reader) {
            if sender.send(message).is_err() {
                break;
            }
        }
    });
    Ok(Wire { child, input, output })
}

/// Sends one message body, framed.
pub fn send(input: &mut ChildStdin, body: &[u8]) -> std::io::Result<()> {
    write!(input, "Content-Length: {}\r\n\r\n", body.len())?;
    input.write_all(body)?;
    input.flush()
}

/// The next message, or `None` when the server has closed its output or
/// sent something that is not a framed JSON message.
fn read(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
