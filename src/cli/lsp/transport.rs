//! JSON-RPC messages over standard input and output, framed by
//! `Content-Length` headers.
//!
//! `lsp-server` has a reader of its own, but it allocates whatever length a
//! header declares; this one refuses a header line, a header block or a body
//! over a limit, skips a refused body unallocated, and turns a message that is
//! not JSON-RPC into an error to answer rather than the end of the session.

use lsp_server::{ErrorCode, Notification, Request, RequestId};
use serde_json::Value;
use std::io::{self, BufRead, Read, Write};

/// The largest message body read (a whole file's text is one message).
pub const MAX_BODY: usize = 64 * 1024 * 1024;
/// The longest header line, and the most header lines, of one message.
const MAX_HEADER_LINE: usize = 8 * 1024;
const MAX_HEADERS: usize = 32;

/// One message from the client.
#[derive(Debug)]
pub enum Incoming {
    Request(Request),
    Notification(Notification),
    /// A response to a request of ours: the server sends none, so it is
    /// ignored.
    Response,
    /// A message that cannot be handled: answered with this error, under
    /// its id when it has one.
    Invalid {
        id: Option<RequestId>,
        code: ErrorCode,
        message: String,
    },
}

/// Reads the next message; `None` at the end of the input.  An I/O error
/// ends the session; a bad message does not.
pub fn read(input: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let mut length: Option<usize> = None;
    let mut lines = 0;
    loop {
        let mut line = Vec::new();
        let n = input.by_ref().take(MAX_HEADER_LINE as u64 + 1).read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(None);
        }
        lines += 1;
        if line.len() > MAX_HEADER_LINE || lines > MAX_HEADERS {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "message header too long"));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if lines == 1 {
                // A stray line end between messages.
                lines = 0;
                continue;
            }
            break;
        }
        if let Some((name, value)) = text.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
    let Some(length) = length else {
        return Ok(Some(invalid(None, ErrorCode::ParseError, "a message without a valid Content-Length header")));
    };
    if length > MAX_BODY {
        // Skipped unread, so the next message is read from its start.
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        let message = format!("a message of {length} bytes; the most read is {MAX_BODY}");
        return Ok(Some(invalid(None, ErrorCode::InvalidRequest, &message)));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(decode(&body)))
}

fn invalid(id: Option<RequestId>, code: ErrorCode, message: &str) -> Incoming {
    Incoming::Invalid { id, code, message: message.to_string() }
}

/// A body as a request, a notification or a response.
fn decode(body: &[u8]) -> Incoming {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return invalid(None, ErrorCode::ParseError, "the message is not JSON");
    };
    let id = value.get("id").and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let has_method = value.get("method").is_some();
    let has_id = value.get("id").is_some_and(|id| !id.is_null());
    match (has_method, has_id) {
        (true, true) => match serde_json::from_value::<Request>(value) {
            Ok(request) => Incoming::Request(request),
            Err(e) => invalid(id, ErrorCode::InvalidRequest, &format!("not a request: {e}")),
        },
        (true, false) => match serde_json::from_value::<Notification>(value) {
            Ok(notification) => Incoming::Notification(notification),
            Err(_) => invalid(None, ErrorCode::InvalidRequest, "not a notification"),
        },
        (false, true) if value.get("result").is_some() || value.get("error").is_some() => Incoming::Response,
        _ => invalid(id, ErrorCode::InvalidRequest, "not a JSON-RPC request, notification or response"),
    }
}

/// Writes one message with its header.
pub fn write(output: &mut impl Write, message: &Value) -> io::Result<()> {
    let body = serde_json::to_vec(message)?;
    write!(output, "Content-Length: {}\r\n\r\n", body.len())?;
    output.write_all(&body)?;
    output.flush()
}

/// An error response; `id` is `null` when the message's id is unknown.
pub fn error(id: Option<RequestId>, code: ErrorCode, message: &str) -> Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code as i32, "message": message },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8]) -> Vec<String> {
        let mut reader = io::BufReader::new(input);
        let mut out = Vec::new();
        while let Ok(Some(message)) = read(&mut reader) {
            out.push(
                format!("{message:?}").split('(').next().unwrap_or("").split(' ').next().unwrap_or("").to_string(),
            );
        }
        out
    }

    #[test]
    fn bad_messages_are_answered_and_the_next_one_read() {
        let good = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        // The body too large to read is skipped to the end of the input.
        let input = format!(
            "Content-Length: 3\r\n\r\nnot\
             Content-Length: 8\r\n\r\n{{\"id\":1}}\
             Content-Length: {}\r\n\r\n{good}\
             Content-Length: 99999999999\r\n\r\n{good}",
            good.len()
        );
        assert_eq!(read_all(input.as_bytes()), ["Invalid", "Invalid", "Notification", "Invalid"]);
    }
}
