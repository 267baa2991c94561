//! The ruleset language in the editor: inside a `.rules` file, the lines
//! that may stand where the cursor is, and what a line's first word means.
//! Both come from the language's one declaration ([`crate::ruleset::language`]).

use super::decls::enclosing;
use crate::ruleset::language::{self, About, Vocabulary};
use crate::syntax::ast::{Node, SourceTree};

/// The lines that may be written in the block around `offset` of a ruleset
/// file: the declarations at the top, a kind's lines in a kind, and so on.
/// Nothing inside a block of data (an enum's values).
pub(super) fn lines_at(tree: &SourceTree, offset: usize) -> Vec<&'static About> {
    let header_ahead = tree.nodes.first().is_none_or(|first| offset <= first.span.start as usize);
    if header_ahead {
        return vec![&language::HEADER];
    }
    let path = enclosing(&tree.nodes, offset);
    vocabulary_of(&path).map(|vocabulary| vocabulary.lines()).unwrap_or_default()
}

/// What the line whose first word is at `offset` means, from its
/// declaration in the language.
pub(super) fn line_named_at(tree: &SourceTree, offset: usize) -> Option<(crate::source::Span, String)> {
    let mut path: Vec<&Node> = Vec::new();
    let mut level = tree.nodes.as_slice();
    loop {
        let node = level.iter().find(|n| (n.span.start as usize) <= offset && offset <= n.span.end as usize)?;
        if (node.name.span.start as usize) <= offset && offset <= node.name.span.end as usize {
            let about = about_in(&path, &node.name.text, tree)?;
            return Some((node.name.span, describe(about)));
        }
        path.push(node);
        level = node.block.as_ref().map(|b| b.nodes.as_slice())?;
    }
}

/// The declaration of the line named `name` in the block at `path`.
fn about_in(path: &[&Node], name: &str, tree: &SourceTree) -> Option<&'static About> {
    if path.is_empty() && tree.nodes.first().is_some_and(|first| first.name.text == name && name == "ruleset") {
        return Some(&language::HEADER);
    }
    vocabulary_of(path)?.lines().into_iter().find(|about| about.name == name)
}

/// The vocabulary of the block at `path`: the `ruleset` line's own, or the
/// one the language declares for the names on the way.
fn vocabulary_of(path: &[&Node]) -> Option<&'static dyn Vocabulary> {
    match path.split_first() {
        Some((first, rest)) if first.name.text == language::HEADER.name => {
            rest.is_empty().then_some(&language::HEADER_LINES as &dyn Vocabulary)
        }
        _ => {
            let names: Vec<&str> = path.iter().map(|node| node.name.text.as_str()).collect();
            language::at(&names)
        }
    }
}

/// A line's hover: how it is written, what it means, an example.
fn describe(about: &About) -> String {
    let head =
        if about.values.is_empty() { about.name.to_string() } else { format!("{} {}", about.name, about.values) };
    format!("`{head}`\n\n{}\n\nFor example: `{}`", about.doc, about.example)
}
