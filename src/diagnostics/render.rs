//! Rendering diagnostics: rich (codespan-reporting), short, and JSON.
//!
//! Rendering is text in, text out: how to show diagnostics (the format,
//! colour or not, how many of one code) arrives as one plain [`Options`]
//! value.  Whether standard error is a terminal, or what the environment
//! asks for, is for the caller to find out, never this module.

use super::{Diagnostic, Severity};
use crate::source::{FileId, Files};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageFormat {
    /// Source snippets with labels, like rustc.
    Human,
    /// One line per diagnostic: `file:line:column: severity[code]: message`.
    Short,
    /// One JSON object per line, for editors and CI.
    Json,
}

/// How to show diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub format: MessageFormat,
    /// ANSI colours in the rich format (the others have none).
    pub colour: bool,
    /// In the formats people read, at most this many diagnostics of one code
    /// per file, and a line counting the rest; JSON, for tools, has them all.
    pub most_of_one_code: usize,
}

impl Options {
    /// The given format, without colour, capped at [`MOST_OF_ONE_CODE`].
    pub fn plain(format: MessageFormat) -> Options {
        Options { format, colour: false, most_of_one_code: MOST_OF_ONE_CODE }
    }
}

/// The diagnostics as `options` asks: one block per diagnostic in the rich
/// format, one line each in the short and JSON formats, then in the formats
/// people read a line for each group left out.
pub fn render(files: &Files, diagnostics: &[Diagnostic], options: &Options) -> String {
    if options.format == MessageFormat::Json {
        return diagnostics.iter().map(|d| json(files, d) + "\n").collect();
    }
    let (shown, left_out) = capped(files, diagnostics, options.most_of_one_code);
    let mut text = match options.format {
        MessageFormat::Human if options.colour => {
            let mut buffer = term::termcolor::Ansi::new(Vec::new());
            human(files, shown, &mut buffer);
            String::from_utf8_lossy(&buffer.into_inner()).into_owned()
        }
        MessageFormat::Human => human_string_of(files, shown),
        _ => shown.into_iter().map(|d| short(files, d) + "\n").collect(),
    };
    for line in left_out {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// Writes diagnostics in the rich format to a writer in memory, which
/// applies colour or not.  Writing to memory cannot fail; a diagnostic
/// codespan-reporting cannot show (a span past the end of its file) is
/// written as its short line instead, so none is lost.
fn human<'d, W: term::WriteStyle + ?Sized>(
    files: &Files,
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
    out: &mut W,
) {
    let config = term::Config::default();
    let adapter = CodespanFiles { files, printable: std::cell::RefCell::new(HashMap::new()) };
    for d in diagnostics {
        if term::emit_to_write_style(out, &config, &adapter, &to_codespan(files, d)).is_err() {
            let _ = writeln!(out, "{}", short(files, d));
        }
    }
}

/// The most diagnostics of one code shown for one file; the rest are counted.
pub const MOST_OF_ONE_CODE: usize = 50;

/// The diagnostics to show, at most `limit` of each code in each file, and a
/// line counting each group left out.
fn capped<'d>(files: &Files, diagnostics: &'d [Diagnostic], limit: usize) -> (Vec<&'d Diagnostic>, Vec<String>) {
    let mut seen: HashMap<(Option<FileId>, &'static str), usize> = HashMap::new();
    let mut shown = Vec::new();
    let mut left_out: Vec<((Option<FileId>, &'static str), Severity)> = Vec::new();
    for d in diagnostics {
        let key = (d.primary_span().map(|s| s.file), d.code.id);
        let count = seen.entry(key).or_insert(0);
        *count += 1;
        match *count {
            n if n <= limit => shown.push(d),
            n if n == limit + 1 => left_out.push((key, d.severity)),
            _ => {}
        }
    }
    let lines = left_out
        .into_iter()
        .map(|((file, code), severity)| {
            let more = seen[&(file, code)] - limit;
            let place = file.map(|f| format!(" in {}", escape_controls(&files.get(f).name))).unwrap_or_default();
            format!("… and {more} more {}[{code}]{place} (the first {limit} are shown)", severity_word(severity))
        })
        .collect();
    (shown, lines)
}

/// Text as it may be shown on a terminal: control characters (other than tab
/// and line ends) and the invisible characters that reorder text are written
/// as `\u{…}` escapes, so a name in a file can never drive the terminal.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unprintable) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_unprintable(c) { format!("\\u{{{:x}}}", c as u32) } else { c.to_string() })
            .collect(),
    )
}

/// Characters a terminal would act on instead of showing.
fn is_unprintable(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Source text as shown in a snippet: each unprintable character becomes as
/// many `?` as it has bytes, so every byte offset still points where it did.
fn printable_source(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unprintable) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| if is_unprintable(c) { "?".repeat(c.len_utf8()) } else { c.to_string() }).collect())
}

/// Renders every diagnostic in the rich format to a string, without colour.
pub fn human_string(files: &Files, diagnostics: &[Diagnostic]) -> String {
    human_string_of(files, diagnostics)
}

fn human_string_of<'d>(files: &Files, diagnostics: impl IntoIterator<Item = &'d Diagnostic>) -> String {
    let mut buffer = term::termcolor::NoColor::new(Vec::new());
    human(files, diagnostics, &mut buffer);
    String::from_utf8_lossy(&buffer.into_inner()).into_owned()
}

/// One line per diagnostic.
pub fn short(files: &Files, diagnostic: &Diagnostic) -> String {
    let severity = severity_word(diagnostic.severity);
    let code = diagnostic.code.id;
    match diagnostic.primary_span() {
        Some(span) => {
            let place = files.place(span);
            let (place, message) = (escape_controls(&place), escape_controls(&diagnostic.message));
            format!("{place}: {severity}[{code}]: {message}")
        }
        None => format!("{severity}[{code}]: {}", escape_controls(&diagnostic.message)),
    }
}

/// One JSON object (on one line) per diagnostic.
pub fn json(files: &Files, diagnostic: &Diagnostic) -> String {
    let labels: Vec<JsonLabel> = diagnostic
        .labels
        .iter()
        .map(|label| {
            let file = files.get(label.span.file);
            let (line, column) = file.line_column(label.span.start as usize);
            let (end_line, end_column) = file.line_column(label.span.end as usize);
            JsonLabel {
                file: &file.name,
                line,
                column,
                end_line,
                end_column,
                byte_start: files.file_offset(label.span.file, label.span.start as usize),
                byte_end: files.file_offset(label.span.file, label.span.end as usize),
                message: &label.message,
                primary: label.primary,
            }
        })
        .collect();
    let primary = labels.iter().find(|l| l.primary);
    let cell = diagnostic.primary_span().and_then(|span| files.cell(span));
    let object = JsonDiagnostic {
        cell: cell.map(|c| c.reference()),
        row: cell.map(|c| c.row),
        header: cell.and_then(|c| c.header),
        code: diagnostic.code.id,
        name: diagnostic.code.name,
        severity: diagnostic.severity,
        message: &diagnostic.message,
        file: primary.map(|l| l.file),
        line: primary.map(|l| l.line),
        column: primary.map(|l| l.column),
        byte_start: primary.map(|l| l.byte_start),
        byte_end: primary.map(|l| l.byte_end),
        labels: &labels,
        notes: &diagnostic.notes,
        help: diagnostic.help.as_deref(),
    };
    serde_json::to_string(&object).unwrap_or_default()
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'static str,
    name: &'static str,
    severity: Severity,
    message: &'a str,
    file: Option<&'a str>,
    line: Option<usize>,
    column: Option<usize>,
    byte_start: Option<usize>,
    byte_end: Option<usize>,
    /// In a spreadsheet, the cell (`C7`), its row and its column's header.
    #[serde(skip_serializing_if = "Option::is_none")]
    cell: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    header: Option<&'a str>,
    labels: &'a [JsonLabel<'a>],
    notes: &'a [String],
    help: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    byte_start: usize,
    byte_end: usize,
    message: &'a str,
    primary: bool,
}

fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Lines longer than this are not shown as a snippet: a label on one (a
/// megabyte of brackets on a single line) becomes a note with its position.
const LONGEST_SHOWN_LINE: usize = 400;

fn to_codespan(files: &Files, d: &Diagnostic) -> cs::Diagnostic<FileId> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let mut positions = Vec::new();
    let labels = d
        .labels
        .iter()
        .filter(|l| {
            let file = files.get(l.span.file);
            let long = [l.span.start as usize, l.span.end as usize].iter().any(|&offset| {
                let line = file.line_index(offset);
                file.line_start(line + 1).saturating_sub(file.line_start(line)) > LONGEST_SHOWN_LINE
            });
            if long {
                let (line, column) = file.line_column(l.span.start as usize);
                let (name, message) = (escape_controls(&file.name), escape_controls(&l.message));
                positions.push(format!("{name}:{line}:{column}: {message} (a line too long to show)"));
            }
            !long
        })
        .map(|l| {
            let style = if l.primary { cs::LabelStyle::Primary } else { cs::LabelStyle::Secondary };
            cs::Label::new(style, l.span.file, l.span.range()).with_message(escape_controls(&l.message))
        })
        .collect();
    let mut notes = positions;
    notes.extend(d.primary_span().and_then(|span| cell_note(files, span)));
    notes.extend(d.notes.iter().map(|n| escape_controls(n).into_owned()));
    if let Some(help) = &d.help {
        notes.push(format!("help: {}", escape_controls(help)));
    }
    cs::Diagnostic::new(severity)
        .with_code(d.code.id)
        .with_message(escape_controls(&d.message))
        .with_labels(labels)
        .with_notes(notes)
}

/// The most characters of a cell's text a note shows.
const LONGEST_CELL_SHOWN: usize = 60;

/// For a span in a spreadsheet, a note naming its cell and the cell's text:
/// in cell `units.csv!C7` (column `arc`): `sideways`.
fn cell_note(files: &Files, span: crate::source::Span) -> Option<String> {
    let cell = files.cell(span)?;
    let file = files.get(span.file);
    let raw = file.text.get(cell.start as usize..cell.end as usize).unwrap_or_default();
    let mut text: String = raw.chars().take(LONGEST_CELL_SHOWN).collect();
    if text.len() < raw.len() {
        text.push('…');
    }
    let text = text.replace('\r', "").replace('\n', "⏎");
    let column = cell.header.filter(|h| !h.is_empty()).map(|h| format!(" (column `{h}`)")).unwrap_or_default();
    let place = escape_controls(&format!("{}!{}", file.name, cell.reference())).into_owned();
    Some(format!("in cell {place}{column}: {}", escape_controls(&text)))
}

/// Lets codespan-reporting read our files table.  Line ranges stop before the
/// line terminator, so a `\r` of a CRLF file is never printed; names and
/// text are shown with their unprintable characters escaped or masked.
struct CodespanFiles<'a> {
    files: &'a Files,
    /// Each file's text as shown, made when a snippet of it is first shown.
    printable: std::cell::RefCell<HashMap<FileId, std::rc::Rc<str>>>,
}

impl<'a> codespan_reporting::files::Files<'a> for CodespanFiles<'a> {
    type FileId = FileId;
    type Name = String;
    type Source = std::rc::Rc<str>;

    fn name(&'a self, id: FileId) -> Result<String, codespan_reporting::files::Error> {
        Ok(escape_controls(&self.files.get(id).name).into_owned())
    }

    fn source(&'a self, id: FileId) -> Result<std::rc::Rc<str>, codespan_reporting::files::Error> {
        let mut printable = self.printable.borrow_mut();
        let text = printable.entry(id).or_insert_with(|| printable_source(&self.files.get(id).text).into());
        Ok(text.clone())
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.files.get(id).line_index(byte_index))
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, codespan_reporting::files::Error> {
        let file = self.files.get(id);
        let count = file.line_starts().len();
        if line_index >= count {
            return Err(codespan_reporting::files::Error::LineTooLarge { given: line_index, max: count - 1 });
        }
        let start = file.line_start(line_index);
        let mut end = file.line_start(line_index + 1);
        let bytes = file.text.as_bytes();
        while end > start && matches!(bytes[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        Ok(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    const TOO_LARGE: crate::diagnostics::Code =
        crate::diagnostics::Code { id: "E0009", name: "file-too-large", explanation: "" };

    fn one_error_per_line(lines: usize) -> (Files, Vec<Diagnostic>) {
        let mut files = Files::new();
        let id = files.add("a.cards", "x\n".repeat(lines));
        let diagnostics = (0..lines)
            .map(|line| {
                Diagnostic::error(&TOO_LARGE, "too large").primary(Span::new(id, line * 2, line * 2 + 1), "here")
            })
            .collect();
        (files, diagnostics)
    }

    #[test]
    fn colour_is_what_the_options_say_and_nothing_else() {
        let (files, diagnostics) = one_error_per_line(1);
        let plain = render(&files, &diagnostics, &Options::plain(MessageFormat::Human));
        assert_eq!(plain, human_string(&files, &diagnostics));
        assert!(!plain.contains('\u{1b}'), "{plain}");
        let coloured = Options { colour: true, ..Options::plain(MessageFormat::Human) };
        let coloured = render(&files, &diagnostics, &coloured);
        assert!(coloured.contains("\u{1b}["), "{coloured}");
        let stripped = coloured.split('\u{1b}').map(|part| part.split_once('m').map_or(part, |(_, rest)| rest));
        assert_eq!(stripped.collect::<String>(), plain, "the same text, coloured");
    }

    #[test]
    fn the_formats_people_read_are_capped_and_json_is_not() {
        let (files, diagnostics) = one_error_per_line(3);
        let options = |format| Options { most_of_one_code: 2, ..Options::plain(format) };
        let short = render(&files, &diagnostics, &options(MessageFormat::Short));
        let expected = "a.cards:1:1: error[E0009]: too large\na.cards:2:1: error[E0009]: too large\n\
                        … and 1 more error[E0009] in a.cards (the first 2 are shown)\n";
        assert_eq!(short, expected);
        assert!(render(&files, &diagnostics, &options(MessageFormat::Human)).ends_with("(the first 2 are shown)\n"));
        assert_eq!(render(&files, &diagnostics, &options(MessageFormat::Json)).lines().count(), 3);
    }
}
