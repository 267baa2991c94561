//! The ruleset language: what a `.rules` file can declare, read into the
//! [`model::Ruleset`] that every later stage consults.
//!
//! It sits below the checker and the IR: reading a ruleset needs only the
//! syntax tree, and names nothing of the content it will check.  The
//! checker ([`crate::check`]) applies a ruleset to cards and decks.

pub mod codes;
mod contrast;
mod dial;
pub mod language;
mod loader;
pub mod model;
pub(crate) mod names;
pub mod palette;
pub mod play;
mod read;
pub(crate) mod rules;
pub mod setup;
pub mod special;
mod table;
mod timing;
pub mod vocabulary;

pub use read::extends;

use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Files};
use crate::syntax::ast::SourceTree;

/// Reads a ruleset file by the language's declaration.  Returns `None`
/// when the file has no `ruleset` header.
///
/// `bases` holds the declarations of the rulesets it `extends`, outermost
/// base first: they are read before the file's own, and a declaration of the
/// file replaces the base's declaration of the same name.
pub fn load(
    files: &Files,
    file: FileId,
    tree: &SourceTree,
    bases: &[&SourceTree],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<model::Ruleset> {
    let language = read::Language { header: &language::HEADER_LINES, file: &language::FILE };
    let before = diagnostics.len();
    let ruleset = read::load(files, (file, tree), bases, language, diagnostics);
    once_each(diagnostics, before);
    ruleset
}

/// Keeps one of each diagnostic given since `from` with the same code,
/// message and place: a mistake inside a definition that several rules call
/// is found once per call, and reported once.
fn once_each(diagnostics: &mut Vec<Diagnostic>, from: usize) {
    let mut seen = std::collections::HashSet::new();
    let mut index = 0;
    diagnostics.retain(|d| {
        index += 1;
        index <= from || seen.insert((d.code.id, d.message.clone(), d.primary_span()))
    });
}
