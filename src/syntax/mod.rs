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

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes of the diagnostics of `text`, and its typed tree.
    fn parsed(text: &str) -> (Vec<&'static str>, SourceTree) {
        let mut files = Files::new();
        let id = files.add("t.cards", text);
        let mut diagnostics = Vec::new();
        let tree = parse(&files, id, &mut diagnostics);
        (diagnostics.iter().map(|d| d.code.id).collect(), tree)
    }

    #[test]
    fn a_block_followed_by_a_brace_is_read_once_at_every_level() {
        let mut text = "c".to_string();
        for _ in 0..30 {
            text = format!("x {{ {text} }} {{}}");
        }
        let (codes, _) = parsed(&text);
        assert!(!codes.is_empty() && codes.iter().all(|c| *c == codes::SYNTAX_ERROR.id), "{codes:?}");
    }

    #[test]
    fn an_error_line_leaves_the_rest_of_its_card() {
        let (codes, tree) = parsed("card \"A\" {\n  one 1\n  ) two\n  three \"x\n  four 4 )\n  five 5\n}\nnext 1\n");
        assert_eq!(codes, ["E0001", "E0002", "E0001"]);
        let names: Vec<&str> =
            tree.nodes[0].block.as_ref().map_or(vec![], |b| b.nodes.iter().map(|n| n.name.text.as_str()).collect());
        assert_eq!(names, ["one", "three", "four", "five"]);
        assert_eq!(tree.nodes[1].name.text, "next");
        assert!(tree.unparsed_names.is_empty());
    }

    #[test]
    fn a_missing_brace_closes_before_the_next_item() {
        let (codes, tree) = parsed("card \"A\" {\n  one {\n    two 2\nnext 1\n");
        assert_eq!(codes, ["E0003"]);
        assert_eq!(tree.nodes.len(), 2);
        let (codes, _) = parsed("card \"A\" {\n}\n}\n");
        assert_eq!(codes, ["E0004"]);
    }

    #[test]
    fn an_item_whose_head_does_not_read_is_left_out_with_its_name() {
        let (codes, tree) = parsed("card \"A\" ) {\n  one ) 1\n}\nnext 1\n");
        assert_eq!(codes, ["E0001", "E0001"]);
        assert_eq!(tree.unparsed_names, ["A"]);
        assert_eq!(tree.nodes.len(), 1);
    }
}
