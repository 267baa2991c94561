//! The canonical formatter for `.rules` and `.cards` files.
//!
//! It prints the syntax tree back with one layout: two spaces of indentation
//! per block, one node per line, single spaces between values, at most one
//! blank line where the author left any.  A block written on one line stays on
//! one line (`at 3.5 { impact damage 3 }`) when it holds no comment and fits.
//! Values are printed as written, so no number or string changes, in one
//! spelling of what a rulebook prints several ways: `Burnthrough (4), Flash`
//! is printed `Burnthrough(4) Flash`, `F/S (Right)` `F/S(Right)`, `Fighters &
//! Bombers` `Fighters/Bombers` and `6”` `6"`; what the names mean (that
//! `Flash` is the keyword `flash`, `[Ac]` the timing `ac`) only a ruleset
//! tells, and [`spelling`] writes them so from a checked project.  Comments
//! stay where they were: on their own line before the node that follows them,
//! or at the end of the line they ended.
//!
//! [`format_file`] refuses a file with syntax errors;
//! [`format_keeping_errors`] formats the items around them and keeps every
//! item with a mistake byte for byte as written, so no text is ever lost.
//! Formatting checks its own output: the result must parse to the same tree
//! and keep every comment, or the original is returned untouched with an
//! error.

pub mod spelling;

use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Files, SourceFile, Span};
use crate::syntax::{
    self,
    ast::{single_spaced, Node, SourceTree, ValueKind},
    cst::{Cst, Kind},
};

/// Lines longer than this are not joined into one-line blocks.
const MAX_WIDTH: usize = 120;

#[derive(Debug)]
pub enum FormatError {
    /// The file does not parse; nothing is formatted.
    Syntax(Vec<Diagnostic>),
    /// The formatter's own check failed (a bug); the file is left as it is.
    Unsafe(String),
}

/// Formats one file of the table.
pub fn format_file(files: &Files, file: FileId) -> Result<String, FormatError> {
    let mut diagnostics = Vec::new();
    let tree = syntax::parse(files, file, &mut diagnostics);
    if !diagnostics.is_empty() {
        return Err(FormatError::Syntax(diagnostics));
    }
    format_tree(files, file, &tree)
}

/// Prints the tree of a file that parsed without a mistake, and checks the
/// result: a text that comes out as it was written needs no check.
fn format_tree(files: &Files, file: FileId, tree: &SourceTree) -> Result<String, FormatError> {
    let source = files.get(file);
    let mut printer = Printer { source, comments: &tree.comments, next_comment: 0, out: String::new() };
    printer.nodes(&tree.nodes, 0, None);
    printer.rest_of_comments(tree.nodes.last().map(|node| node.span.end));
    let mut out = printer.out;
    out.truncate(out.trim_end().len());
    if !out.is_empty() {
        out.push('\n');
    }
    if out != source.text {
        verify(files, file, tree, &out)?;
    }
    Ok(out)
}

/// Formats text in memory (for tests and editors).
pub fn format_text(name: &str, text: &str) -> Result<String, FormatError> {
    let mut files = Files::new();
    let id = files.add(name, text);
    format_file(&files, id)
}

/// Formats a file that may hold syntax errors: each top-level item with a
/// mistake, from the start of its first line to the end of its last, is
/// kept as written, and the text between such items is formatted on its
/// own.  Gives the text and the file's syntax diagnostics.
pub fn format_keeping_errors(files: &Files, file: FileId) -> Result<(String, Vec<Diagnostic>), FormatError> {
    let mut diagnostics = Vec::new();
    let (cst, tree) = syntax::parse_lossless(files, file, &mut diagnostics);
    if diagnostics.is_empty() {
        return format_tree(files, file, &tree).map(|text| (text, diagnostics));
    }
    let text = &files.get(file).text;
    let mut out = String::with_capacity(text.len());
    let mut clean_from = 0;
    for broken in broken_items(&cst, text, &diagnostics) {
        format_between(&text[clean_from..broken.start], &mut out)?;
        out.push_str(&text[broken.clone()]);
        clean_from = broken.end;
    }
    format_between(&text[clean_from..], &mut out)?;
    Ok((out, diagnostics))
}

/// The whole lines of each top-level item that holds a mistake: an error
/// node of the tree, or a syntax diagnostic (a rule's expression is read
/// after the tree is built, so its mistakes have no node of their own).
/// Items that share a line are kept or formatted together: a stray `}`
/// after a block's own `}` takes the block with it.
fn broken_items(cst: &Cst, text: &str, diagnostics: &[Diagnostic]) -> Vec<std::ops::Range<usize>> {
    let is_error = |kind: Kind| {
        matches!(kind, Kind::Error | Kind::TooDeep | Kind::TooComplex(_) | Kind::MissingBrace | Kind::MissingOpen)
    };
    let reported = |range: &std::ops::Range<usize>| {
        diagnostics.iter().filter_map(Diagnostic::primary_span).any(|span| {
            let at = span.start as usize;
            range.start <= at && (at < range.end || (at == range.end && span.end as usize == at))
        })
    };
    // Each run of items on shared lines, with whether any of them is broken.
    let mut groups: Vec<(std::ops::Range<usize>, bool)> = Vec::new();
    for item in cst.root().children() {
        let range = item.range();
        let broken = is_error(item.kind()) || item.descendants().any(|e| is_error(e.kind())) || reported(&range);
        let lines = whole_lines(text, range);
        match groups.last_mut() {
            Some((last, last_broken)) if last.end > lines.start => {
                last.end = lines.end.max(last.end);
                *last_broken |= broken;
            }
            _ => groups.push((lines, broken)),
        }
    }
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    for (lines, _) in groups.into_iter().filter(|(_, broken)| *broken) {
        match ranges.last_mut() {
            Some(last) if last.end >= lines.start => last.end = lines.end.max(last.end),
            _ => ranges.push(lines),
        }
    }
    ranges
}

/// An item's range widened to the start of its first line and past the end
/// of its last.
fn whole_lines(text: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let start = text[..range.start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    // An item that ends where a line starts (one refused for nesting too
    // deeply runs to the next item's line) takes none of that line.
    let at_line_start = text[..range.end].ends_with(['\n', '\r']);
    let end = match text[range.end..].find('\n') {
        _ if at_line_start => range.end,
        Some(i) => range.end + i + 1,
        None => text.len(),
    };
    start..end
}

/// Formats whole lines that hold no mistake, keeping a blank line before
/// and after them where the author left one.
fn format_between(lines: &str, out: &mut String) -> Result<(), FormatError> {
    if lines.trim().is_empty() {
        if !out.is_empty() && lines.contains(['\n', '\r']) && !out.ends_with("\n\n") {
            out.push('\n');
        }
        return Ok(());
    }
    if !out.is_empty() && lines.trim_start_matches([' ', '\t']).starts_with(['\n', '\r']) {
        out.push('\n');
    }
    out.push_str(&format_text("part", lines)?);
    if lines.trim_end_matches([' ', '\t']).ends_with("\n\n")
        || lines.trim_end_matches([' ', '\t']).ends_with("\r\n\r\n")
    {
        out.push('\n');
    }
    Ok(())
}

struct Printer<'a> {
    source: &'a SourceFile,
    comments: &'a [Span],
    next_comment: usize,
    out: String,
}

impl<'a> Printer<'a> {
    fn line_of(&self, offset: u32) -> usize {
        self.source.line_index(offset as usize)
    }

    fn text(&self, span: Span) -> &'a str {
        let source: &'a SourceFile = self.source;
        source.text.get(span.range()).unwrap_or("")
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    /// Whether the source has a blank line between two offsets.
    fn blank_between(&self, from: u32, to: u32) -> bool {
        let (a, b) = (self.line_of(from), self.line_of(to));
        (a + 1..b).any(|line| {
            let start = self.source.line_start(line);
            let end = self.source.line_start(line + 1);
            self.source.text[start..end].trim().is_empty()
        })
    }

    /// Own-line comments that start before `before`, each on its own line.
    fn comments_before(&mut self, depth: usize, before: u32, mut previous_end: Option<u32>) -> Option<u32> {
        while let Some(comment) = self.comments.get(self.next_comment).copied() {
            if comment.start >= before {
                break;
            }
            if previous_end.is_some_and(|end| self.blank_between(end, comment.start)) {
                self.out.push('\n');
            }
            self.indent(depth);
            self.out.push_str(self.text(comment).trim_end());
            self.out.push('\n');
            self.next_comment += 1;
            previous_end = Some(comment.end);
        }
        previous_end
    }

    /// A comment that starts on `line` (the end of what was just printed).
    fn trailing_comment(&mut self, line: usize, before: u32) {
        if let Some(comment) = self.comments.get(self.next_comment).copied() {
            if comment.start < before && self.line_of(comment.start) == line {
                self.out.push(' ');
                self.out.push_str(self.text(comment).trim_end());
                self.next_comment += 1;
            }
        }
    }

    /// The comments after the last top-level item, keeping a blank line
    /// before them where the author left one.
    fn rest_of_comments(&mut self, last_item_end: Option<u32>) {
        let last_comment_end = self.comments.get(self.next_comment.wrapping_sub(1)).map(|c| c.end);
        self.comments_before(0, u32::MAX, last_item_end.max(last_comment_end));
    }

    fn nodes(&mut self, nodes: &[Node], depth: usize, mut previous_end: Option<u32>) {
        for node in nodes {
            previous_end = self.comments_before(depth, node.span.start, previous_end);
            if previous_end.is_some_and(|end| self.blank_between(end, node.span.start)) && !self.out.ends_with("{\n") {
                self.out.push('\n');
            }
            self.node(node, depth);
            previous_end = Some(node.span.end);
        }
    }

    fn node(&mut self, node: &Node, depth: usize) {
        self.indent(depth);
        let head = self.head(node);
        self.out.push_str(&head);
        let Some(block) = &node.block else {
            self.trailing_comment(self.line_of(node.span.end), u32::MAX);
            self.out.push('\n');
            return;
        };
        let inline = self.inline_block(node, depth * 2 + head.len());
        if let Some(inline) = inline {
            self.out.push_str(&inline);
            self.trailing_comment(self.line_of(block.span.end), u32::MAX);
            self.out.push('\n');
            return;
        }
        self.out.push_str(" {");
        self.trailing_comment(self.line_of(block.span.start), block.span.end);
        self.out.push('\n');
        self.nodes(&block.nodes, depth + 1, Some(block.span.start + 1));
        let before_close = block.span.end.saturating_sub(1);
        let last = block.nodes.last().map(|n| n.span.end).unwrap_or(block.span.start + 1);
        self.comments_before(depth + 1, before_close, Some(last));
        self.indent(depth);
        self.out.push('}');
        self.trailing_comment(self.line_of(block.span.end), u32::MAX);
        self.out.push('\n');
    }

    /// `name value value`, values as written but in one spelling: calls and
    /// sets with no space before `(`, sets joined by `/`, no commas between
    /// values, the straight inch mark.
    fn head(&self, node: &Node) -> String {
        let mut parts = vec![node.name.text.clone()];
        for value in &node.values {
            parts.push(self.value(value));
        }
        if let Some(expr) = &node.expr {
            parts.push(single_spaced(self.text(expr.span())));
        }
        parts.join(" ")
    }

    fn value(&self, value: &crate::syntax::ast::Value) -> String {
        match &value.kind {
            ValueKind::Call { name, args } => {
                let args: Vec<String> = args.iter().map(|a| self.value(a)).collect();
                format!("{}({})", name.text, args.join(", "))
            }
            // `F/S (Right)`, `Fighters & Bombers`: `/` between the items.
            ValueKind::SlashList(items) => items.join("/"),
            // `6”`: the straight inch mark.
            ValueKind::Distance(_) => self.text(value.span).replace('”', "\""),
            _ => self.text(value.span).to_string(),
        }
    }

    /// ` { a; b }` when the block was written on one line, holds no comment,
    /// has no nested block, and fits.
    fn inline_block(&self, node: &Node, used: usize) -> Option<String> {
        let block = node.block.as_ref()?;
        if self.line_of(block.span.start) != self.line_of(block.span.end.saturating_sub(1)) {
            return None;
        }
        let has_comment =
            self.comments[self.next_comment..].iter().any(|c| c.start < block.span.end && c.start > block.span.start);
        if has_comment || block.nodes.iter().any(|n| n.block.is_some()) {
            return None;
        }
        let inner: Vec<String> = block.nodes.iter().map(|n| self.head(n)).collect();
        let text = if inner.is_empty() { " {}".to_string() } else { format!(" {{ {} }}", inner.join("; ")) };
        (used + text.len() <= MAX_WIDTH).then_some(text)
    }
}

/// The output must parse to the same tree and keep every comment.
fn verify(files: &Files, file: FileId, original: &SourceTree, output: &str) -> Result<(), FormatError> {
    let mut check = Files::new();
    let id = check.add("formatted", output);
    let mut diagnostics = Vec::new();
    let tree = syntax::parse(&check, id, &mut diagnostics);
    if !diagnostics.is_empty() {
        return Err(FormatError::Unsafe("the formatted text does not parse".into()));
    }
    let comment_texts = |files: &Files, tree: &SourceTree| -> Vec<String> {
        tree.comments.iter().map(|c| files.text(*c).trim_end().to_string()).collect()
    };
    if comment_texts(files, original) != comment_texts(&check, &tree) {
        return Err(FormatError::Unsafe("a comment would be lost or moved out of order".into()));
    }
    if original.shape(&files.get(file).text) != tree.shape(&check.get(id).text) {
        return Err(FormatError::Unsafe("the formatted text means something else".into()));
    }
    Ok(())
}
