//! Diagnostics as plain data.
//!
//! Every phase reports problems as [`Diagnostic`] values: a stable [`Code`], a
//! severity, a message, labelled spans, notes and a help line.  They are
//! rendered in one place ([`render`]).  Each code is defined, with its long
//! explanation, beside the code that emits it; [`crate::codes`] gathers them
//! for `cardsmith explain`.  This module is below every stage: it reads
//! none of them.

pub mod render;

/// Declares a family of codes and its `ALL` list:
/// `codes! { NAME "E0101" "name" "explanation"; … }`.
macro_rules! codes {
    ($($konst:ident $id:literal $name:literal $text:literal;)*) => {
        $(pub const $konst: $crate::diagnostics::Code =
            $crate::diagnostics::Code { id: $id, name: $name, explanation: $text };)*
        pub const ALL: &[&$crate::diagnostics::Code] = &[$(&$konst),*];
    };
}
pub(crate) use codes;

use crate::source::Span;
use serde::Serialize;

/// A stable diagnostic code with its explanation.
#[derive(Debug)]
pub struct Code {
    /// `E0203`: never reused for another meaning.
    pub id: &'static str,
    /// A short kebab-case name, also accepted by `cardsmith explain`.
    pub name: &'static str,
    /// The long explanation printed by `cardsmith explain`, in Markdown.
    pub explanation: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub code: &'static Code,
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Error, message)
    }

    pub fn warning(code: &'static Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Warning, message)
    }

    pub fn new(code: &'static Code, severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, severity, message: message.into(), labels: Vec::new(), notes: Vec::new(), help: None }
    }

    /// The label on the offending text.
    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into(), primary: true });
        self
    }

    /// A label on related text.
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into(), primary: false });
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// A note listing what was expected, or saying `none` when nothing
    /// could stand there (never an empty list).
    pub fn expected<S: AsRef<str>>(self, candidates: &[S], none: &str) -> Diagnostic {
        match candidates {
            [] => self.note(none),
            _ => {
                let names: Vec<&str> = candidates.iter().map(AsRef::as_ref).collect();
                self.note(format!("expected one of: {}", names.join(", ")))
            }
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds "did you mean" help when a suggestion exists.
    pub fn suggest(self, suggestion: Option<&str>) -> Diagnostic {
        match suggestion {
            Some(name) => self.help(format!("did you mean `{name}`?")),
            None => self,
        }
    }

    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Sorts diagnostics by file and position so output is stable.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| {
        let span = d.primary_span();
        (span.map(|s| (s.file, s.start, s.end)), d.code.id)
    });
}
