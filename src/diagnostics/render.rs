//! Rendering diagnostics: rich (codespan-reporting), short, and JSON.

use super::{Diagnostic, Severity};
use crate::source::{FileId, Files};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;
use codespan_reporting::term::termcolor::WriteColor;
use serde::Serialize;
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    /// Source snippets with labels, like rustc.
    Human,
    /// One line per diagnostic: `file:line:column: severity[code]: message`.
    Short,
    /// One JSON object per line, for editors and CI.
    Json,
}

/// Writes diagnostics in the rich format to a colour-capable writer.
pub fn human(files: &Files, diagnostics: &[Diagnostic], out: &mut dyn WriteColor) -> std::io::Result<()> {
    let config = term::Config::default();
    let adapter = CodespanFiles(files);
    for d in diagnostics {
        term::emit(out, &config, &adapter, &to_codespan(files, d)).map_err(std::io::Error::other)?;
    }
    Ok(())
}

/// Renders diagnostics in the rich format to a string, without colour.
pub fn human_string(files: &Files, diagnostics: &[Diagnostic]) -> String {
    let mut buffer = term::termcolor::NoColor::new(Vec::new());
    // Writing to memory cannot fail.
    let _ = human(files, diagnostics, &mut buffer);
    String::from_utf8_lossy(&buffer.into_inner()).into_owned()
}

/// One line per diagnostic.
pub fn short(files: &Files, diagnostic: &Diagnostic) -> String {
    let severity = severity_word(diagnostic.severity);
    let code = diagnostic.code.id;
    match diagnostic.primary_span() {
        Some(span) => {
            let file = files.get(span.file);
            let (line, column) = file.line_column(span.start as usize);
            format!("{}:{line}:{column}: {severity}[{code}]: {}", file.name, diagnostic.message)
        }
        None => format!("{severity}[{code}]: {}", diagnostic.message),
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
    let object = JsonDiagnostic {
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
                positions.push(format!("{}:{line}:{column}: {} (a line too long to show)", file.name, l.message));
            }
            !long
        })
        .map(|l| {
            let style = if l.primary { cs::LabelStyle::Primary } else { cs::LabelStyle::Secondary };
            cs::Label::new(style, l.span.file, l.span.range()).with_message(l.message.clone())
        })
        .collect();
    let mut notes = positions;
    notes.extend(d.notes.iter().cloned());
    if let Some(help) = &d.help {
        notes.push(format!("help: {help}"));
    }
    cs::Diagnostic::new(severity)
        .with_code(d.code.id)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

/// Lets codespan-reporting read our files table.  Line ranges stop before the
/// line terminator, so a `\r` of a CRLF file is never printed.
struct CodespanFiles<'a>(&'a Files);

impl<'a> codespan_reporting::files::Files<'a> for CodespanFiles<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.0.get(id).name)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.0.get(id).text)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.0.get(id).line_index(byte_index))
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, codespan_reporting::files::Error> {
        let file = self.0.get(id);
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
