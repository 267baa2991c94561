//! JSON-RPC messages over standard input and output, framed by
//! `Content-Length` headers.
//!
//! `lsp-server` has a reader of its own, but it allocates whatever length a
//! header declares; this one refuses a header line, a header block or a body
//! over a limit, skips a refused body unallocated, and turns a message that is
//! not JSON-RPC into an error to answer rather than the end of the session.
//!
//! What a body may build is bounded too: before it is parsed, one pass
//! counts its JSON values (the objects and arrays it opens and the items
//! after a comma, outside strings), and a body of more than [`MAX_VALUES`]
//! is refused unparsed, so a message of a few megabytes of tiny objects
//! cannot take gigabytes.  Reading ([`read`]) and parsing ([`Frame::decode`])
//! are apart, so that the messages read ahead of the one handled wait as
//! bytes.

use crate::cli::read;
use lsp_server::{ErrorCode, Notification, Request, RequestId};
use serde_json::Value;
use std::io::{self, BufRead, Read, Write};

/// The largest message body read: a whole file's text is one message, and
/// its JSON escapes take at most six bytes a byte (`\u001b`).
pub const MAX_BODY: usize = 6 * cardsmith::syntax::MAX_FILE_SIZE + 64 * 1024;
/// The most JSON values a body may hold: 50,000 range edits in one change
/// are about 450,000, and each value parsed takes up to about 400 bytes.
pub const MAX_VALUES: usize = 500_000;
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

/// A message as read, not yet parsed.
#[derive(Debug)]
pub enum Frame {
    Body(Vec<u8>),
    /// Refused unread: what to answer.
    Refused(Incoming),
}

impl Frame {
    /// The message, parsed.
    pub fn decode(self) -> Incoming {
        match self {
            Frame::Body(body) => decode(&body),
            Frame::Refused(answer) => answer,
        }
    }
}

/// Reads the next message's body, or what to answer a message that is
/// refused unread; `None` at the end of the input.  An I/O error ends the
/// session; a bad message does not.
pub fn read(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
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
        return Ok(Some(Frame::Refused(invalid(
            None,
            ErrorCode::ParseError,
            "a message without a valid Content-Length header",
        ))));
    };
    if length > MAX_BODY {
        // Skipped unread, so the next message is read from its start.
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        let message = format!("a message of {length} bytes; the most read is {MAX_BODY}");
        return Ok(Some(Frame::Refused(invalid(None, ErrorCode::InvalidRequest, &message))));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(Frame::Body(body)))
}

fn invalid(id: Option<RequestId>, code: ErrorCode, message: &str) -> Incoming {
    Incoming::Invalid { id, code, message: message.to_string() }
}

/// A body as a request, a notification or a response.
fn decode(body: &[u8]) -> Incoming {
    if !read::json_values_at_most(body, MAX_VALUES) {
        let message = format!(
            "a message of more than {MAX_VALUES} JSON values (objects, arrays and their items); \
             send a long change as the whole text instead"
        );
        return invalid(id_alone(body), ErrorCode::InvalidRequest, &message);
    }
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

/// A message's `id`, read without building anything else.
fn id_alone(body: &[u8]) -> Option<RequestId> {
    #[derive(serde::Deserialize)]
    struct IdAlone {
        id: Option<RequestId>,
    }
    serde_json::from_slice::<IdAlone>(body).ok()?.id
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
        while let Ok(Some(frame)) = read(&mut reader) {
            let message = frame.decode();
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

    #[test]
    fn values_are_counted_outside_strings() {
        assert!(read::json_values_at_most(br#"{"a":[1,2],"b":"{[,,]}\"{,"}"#, 4));
        assert!(!read::json_values_at_most(br#"{"a":[1,2],"b":3}"#, 3));
        let refused =
            decode(format!(r#"{{"id":7,"method":"m","params":[{}]}}"#, vec!["0"; MAX_VALUES + 1].join(",")).as_bytes());
        let Incoming::Invalid { id, message, .. } = refused else { panic!("{refused:?}") };
        assert_eq!(id, Some(RequestId::from(7)));
        assert!(message.contains("more than 500000 JSON values"), "{message}");
    }
}
