//! Syntax: the grammar, the lossless syntax tree, and the typed tree with
//! spans that the later stages read.
//!
//! The pest grammar (`grammar/cardsmith.pest`) reads a file one top-level
//! item at a time ([`parser`]) into a lossless tree ([`cst`]) that holds every
//! byte, with a line that does not parse as an error node of its own, so a
//! mistake never hides the mistakes in the rest of its card or file.  The
//! tree is lowered ([`lower`]) to the typed [`ast::SourceTree`].  Blocks nested
//! too deeply are refused before pest sees them ([`guard`]).  pest types stay
//! inside [`parser`].  A rule's expression is matched by the grammar as the
//! rest of its line and read by [`expr`], without recursion, so its length
//! costs no stack and its nesting is bounded with a diagnostic.

pub mod ast;
pub mod codes;
pub mod cst;
mod expr;
pub mod guard;
mod literal;
mod lower;
mod parser;

use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Files, Span};
use ast::SourceTree;
use cst::Cst;

/// Files larger than this are refused before they are read into the table.
pub const MAX_FILE_SIZE: usize = 8 * 1024 * 1024;

/// Parses one file of the table.  Problems are appended to `diagnostics`; the
/// tree holds every item whose head parsed.
pub fn parse(files: &Files, file: FileId, diagnostics: &mut Vec<Diagnostic>) -> SourceTree {
    parse_lossless(files, file, diagnostics).1
}

/// Parses one file of the table into its lossless tree and the typed tree
/// lowered from it.
pub fn parse_lossless(files: &Files, file: FileId, diagnostics: &mut Vec<Diagnostic>) -> (Cst, SourceTree) {
    let text = &files.get(file).text;
    let cst = parser::build(text);
    let tree = lower::lower(&cst, text, file, diagnostics);
    (cst, tree)
}

/// Parses several files of the table, spread over the machine's cores.  The
/// result is in the order of `ids`, one tree and its problems per file, and is
/// the same whatever the number of cores.
pub fn parse_many(files: &Files, ids: &[FileId]) -> Vec<(SourceTree, Vec<Diagnostic>)> {
    crate::parallel::map(ids, |id| {
        let mut diagnostics = Vec::new();
        let tree = parse(files, *id, &mut diagnostics);
        (tree, diagnostics)
    })
}

/// Adds a file read from disk to the table.  Text that is not UTF-8, or a file
/// too large to read, is reported and stored empty so nothing else trips on it.
pub fn load(files: &mut Files, name: &str, bytes: Vec<u8>, diagnostics: &mut Vec<Diagnostic>) -> Option<FileId> {
    if bytes.len() > MAX_FILE_SIZE {
        let id = files.add(name, String::new());
        diagnostics.push(
            Diagnostic::error(
                &codes::FILE_TOO_LARGE,
                // The command line reads no more than one byte past the
                // limit, so the size itself is not known here.
                format!("`{name}` is larger than {MAX_FILE_SIZE} bytes (8 MiB), the most a file may hold"),
            )
            .primary(Span::new(id, 0, 0), "this file")
            .help("split a very large card pool into several files"),
        );
        return None;
    }
    match String::from_utf8(bytes) {
        Ok(text) => Some(files.add(name, text)),
        Err(error) => {
            let valid = error.utf8_error().valid_up_to();
            let bytes = error.into_bytes();
            // Keep the valid prefix so the label can show the line it is on.
            let prefix = String::from_utf8_lossy(&bytes[..valid]).into_owned();
            let len = prefix.len();
            let id = files.add(name, prefix);
            let at = len - if files.get(id).had_bom { 3 } else { 0 };
            diagnostics.push(
                Diagnostic::error(&codes::NOT_UTF8, format!("`{name}` is not UTF-8 text"))
                    .primary(Span::new(id, at, at), format!("byte {valid} is not valid UTF-8"))
                    .help("save the file as UTF-8 in your editor"),
            );
            None
        }
    }
}
