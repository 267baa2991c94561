//! Between the library's byte offsets and spans and the protocol's
//! positions (UTF-16 code units unless the client takes UTF-8), URIs and
//! diagnostics.

use cardsmith::diagnostics::{Diagnostic, Severity};
use cardsmith::source::{Files, SourceFile, Span};
use lsp_types as lsp;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// How a position's character counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// The length of a text in the encoding's units.
fn units(text: &str, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => text.len(),
        Encoding::Utf16 => text.encode_utf16().count(),
    }
}

/// The units of a byte-order mark the client's text holds and the stored
/// text does not: counted on the first line only.
fn bom_units(file: &SourceFile, line: usize, encoding: Encoding) -> usize {
    match (file.had_bom && line == 0, encoding) {
        (false, _) => 0,
        (true, Encoding::Utf8) => 3,
        (true, Encoding::Utf16) => 1,
    }
}

/// The byte range of a line's text, without its line end.
fn line_range(file: &SourceFile, line: usize) -> (usize, usize) {
    let start = file.line_start(line);
    let next = file.line_starts().get(line + 1).copied().unwrap_or(file.text.len());
    let end = start + file.text[start..next].trim_end_matches(['\r', '\n']).len();
    (start, end)
}

/// The byte offset of a position; one past a line's end or the file's is
/// clamped to it, and one inside a character moves to its start.
pub fn offset(file: &SourceFile, position: lsp::Position, encoding: Encoding) -> usize {
    let line = position.line as usize;
    if line >= file.line_starts().len() {
        return file.text.len();
    }
    let (start, end) = line_range(file, line);
    let wanted = (position.character as usize).saturating_sub(bom_units(file, line, encoding));
    let mut counted = 0;
    for (i, c) in file.text[start..end].char_indices() {
        let width = match encoding {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        };
        if counted + width > wanted {
            return start + i;
        }
        counted += width;
    }
    end
}

pub fn position(file: &SourceFile, offset: usize, encoding: Encoding) -> lsp::Position {
    let mut offset = offset.min(file.text.len());
    while !file.text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = file.line_index(offset);
    let start = file.line_start(line);
    let character = units(&file.text[start..offset], encoding) + bom_units(file, line, encoding);
    lsp::Position { line: line as u32, character: character as u32 }
}

pub fn range(files: &Files, span: Span, encoding: Encoding) -> lsp::Range {
    let file = files.get(span.file);
    lsp::Range {
        start: position(file, span.start as usize, encoding),
        end: position(file, span.end as usize, encoding),
    }
}

/// The path of a `file:` URI.
pub fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text.strip_prefix("file://")?;
    // An authority other than the empty one (or localhost) is another machine.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(path)?;
    // `/C:/x` on Windows is `C:/x`.
    let bytes = decoded.as_bytes();
    if cfg!(windows) && bytes.len() > 2 && bytes[2] == b':' {
        return Some(PathBuf::from(&decoded[1..]));
    }
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of a path.
pub fn uri_of(path: &Path) -> lsp::Uri {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(byte as char),
            b':' if cfg!(windows) => out.push(':'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    // Every byte outside the unreserved set is escaped: the text parses.
    lsp::Uri::from_str(&out).unwrap_or_else(|_| lsp::Uri::from_str("file:///").expect("a valid URI"))
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A diagnostic at its primary label, with its notes and help in the
/// message and its other labels as related information.
pub fn diagnostic(
    files: &Files,
    d: &Diagnostic,
    encoding: Encoding,
    uri_of_file: impl Fn(cardsmith::source::FileId) -> Option<lsp::Uri>,
) -> Option<lsp::Diagnostic> {
    let primary = d.labels.iter().find(|l| l.primary)?;
    // In a spreadsheet, the cell, as a spreadsheet names it: `C7: …`.
    let cell = files.cell(primary.span).map(|c| format!("{}: ", c.reference()));
    let mut message = format!("{}{}", cell.unwrap_or_default(), d.message);
    if !primary.message.is_empty() {
        message.push_str(&format!("\n{}", primary.message));
    }
    for note in &d.notes {
        message.push_str(&format!("\nnote: {note}"));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter(|l| !l.primary)
        .filter_map(|l| {
            let uri = uri_of_file(l.span.file)?;
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location { uri, range: range(files, l.span, encoding) },
                message: l.message.clone(),
            })
        })
        .collect();
    Some(lsp::Diagnostic {
        range: range(files, primary.span, encoding),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.id.to_string())),
        code_description: None,
        source: Some("cardsmith".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes_and_clamp() {
        let mut files = Files::new();
        let id = files.add("a.cards", "\u{feff}a “b” 𝔠 d\r\nx");
        let file = files.get(id);
        let d = file.text.find('d').unwrap();
        // BOM 1, `a “b” ` 6, `𝔠` two units, a space.
        let at = position(file, d, Encoding::Utf16);
        assert_eq!((at.line, at.character), (0, 10));
        assert_eq!(offset(file, at, Encoding::Utf16), d);
        let at8 = position(file, d, Encoding::Utf8);
        assert_eq!(offset(file, at8, Encoding::Utf8), d);
        // Past the line's end, inside a character, past the last line.
        assert_eq!(offset(file, lsp::Position { line: 0, character: 99 }, Encoding::Utf16), d + 1);
        let inside = lsp::Position { line: 0, character: 8 };
        assert_eq!(offset(file, inside, Encoding::Utf16), file.text.find('𝔠').unwrap());
        assert_eq!(offset(file, lsp::Position { line: 7, character: 0 }, Encoding::Utf16), file.text.len());
    }

    #[test]
    fn file_uris_round_trip() {
        let path = Path::new("/tmp/a b/ç.cards");
        let uri = uri_of(path);
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%A7.cards");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
    }
}
