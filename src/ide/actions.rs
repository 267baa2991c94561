//! Quick fixes: the lints' certain fixes and the checker's "did you mean"
//! suggestions, as edits an editor offers on a diagnostic.

use super::Analysis;
use crate::diagnostics::Diagnostic;
use crate::lint::Fix;
use crate::source::{FileId, Span};

/// An edit the editor may offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    /// The diagnostic it fixes: an index into [`Analysis::diagnostics`].
    pub diagnostic: Option<usize>,
    pub edits: Vec<Fix>,
    /// Whether it is the one fix an editor may apply without asking.
    pub preferred: bool,
}

impl Analysis {
    /// The fixes for what lies between `start` and `end` of a file, and one
    /// that applies every lint fix of the file when it has several.
    pub fn actions(&self, file: FileId, start: usize, end: usize) -> Vec<Action> {
        let touches = |span: Span| span.file == file && span.start as usize <= end && start <= span.end as usize;
        let mut out = Vec::new();
        for fix in self.fixes.iter().filter(|f| touches(f.span)) {
            let diagnostic =
                self.diagnostics.iter().position(|d| d.primary_span().is_some_and(|s| s.to(fix.span) == Some(s)));
            let was = self.files.text(fix.span);
            let title = format!("Replace `{was}` with `{}`", fix.replacement);
            out.push(Action { title, diagnostic, edits: vec![fix.clone()], preferred: true });
        }
        for (i, diagnostic) in self.diagnostics.iter().enumerate() {
            let Some(span) = diagnostic.primary_span().filter(|s| touches(*s)) else { continue };
            if let Some(edit) = self.suggestion(diagnostic, span) {
                let title = format!("Change to `{}`", edit.replacement);
                out.push(Action { title, diagnostic: Some(i), edits: vec![edit], preferred: false });
            }
        }
        let all: Vec<Fix> = self.fixes.iter().filter(|f| f.span.file == file).cloned().collect();
        if all.len() > 1 {
            out.push(Action {
                title: "Apply every lint fix in the file".into(),
                diagnostic: None,
                edits: all,
                preferred: false,
            });
        }
        out
    }

    /// The edit a "did you mean `NAME`?" help line suggests: the name in the
    /// labelled text replaced, its quotes, braces or stars kept.
    fn suggestion(&self, diagnostic: &Diagnostic, span: Span) -> Option<Fix> {
        let help = diagnostic.help.as_deref()?;
        let name = help.strip_prefix("did you mean `")?.strip_suffix("`?")?;
        let text = self.files.text(span);
        let inner = text.trim_start_matches(['"', '{', '*']);
        let lead = text.len() - inner.len();
        let inner = inner.trim_end_matches(['"', '}', '*']);
        if inner.is_empty() || inner == name || inner.contains(['\n', '"']) {
            return None;
        }
        let start = span.start as usize + lead;
        Some(Fix { span: Span::new(span.file, start, start + inner.len()), replacement: name.to_string() })
    }
}
