//! The declarations of a ruleset file, read from its syntax tree: every
//! top-level `WHAT ID …` line, the values an `enum` lists, and the fields of
//! kinds and shapes at any depth, each with the span of its id.  The checker's
//! model keeps no spans for these, and an editor needs exactly them.

use crate::ruleset::names::{id_at, ident_at, string_at};
use crate::source::{FileId, Span};
use crate::syntax::ast::{Node, SourceTree, ValueKind};

/// One declaration of a ruleset.
#[derive(Clone, Debug)]
pub struct Decl {
    /// The line's name: `keyword`, `kind`, `field`, `enum`; an enum's
    /// values are declared by their `enum` line too.
    pub what: String,
    pub id: String,
    /// The id as written.
    pub span: Span,
    /// The whole declaration, block included.
    pub node: Span,
    /// The head of the line that declares it, without its block.
    pub head: Span,
    /// The declaration it is inside: a field's kind or shape (the outermost),
    /// an enum value's enum.
    pub parent: Option<String>,
    /// The text of its `doc` line.
    pub doc: Option<String>,
    /// The lines of its block other than `doc`, as written (parameters,
    /// restrictions, effects), for hover.
    pub details: Vec<Span>,
    /// Whether an enum value (not the enum itself).
    pub enum_value: bool,
}

/// The declarations of one ruleset file.
#[derive(Clone, Debug, Default)]
pub struct RulesetDecls {
    pub file: Option<FileId>,
    pub id: String,
    pub extends: Option<String>,
    pub decls: Vec<Decl>,
}

/// Lines that hold settings of their parent rather than declare a name.
const NOT_DECLARATIONS: &[&str] = &["doc", "title", "extends", "require", "recommend"];

impl RulesetDecls {
    /// Reads the declarations of a ruleset file's tree.
    pub fn read(file: FileId, tree: &SourceTree) -> Option<RulesetDecls> {
        let header = tree.nodes.first().filter(|n| n.name.text == "ruleset")?;
        let id = id_at(header, 0)?.to_string();
        let extends = children(header).iter().find(|n| n.name.text == "extends").and_then(|n| id_at(n, 0));
        let mut decls = Vec::new();
        for node in &tree.nodes[1..] {
            if NOT_DECLARATIONS.contains(&node.name.text.as_str()) {
                continue;
            }
            let Some(decl_id) = ident_at(node, 0) else { continue };
            decls.push(decl(node, 0, None));
            if node.name.text == "enum" {
                for (i, value) in node.values.iter().enumerate().skip(1) {
                    if let ValueKind::Ident(_) = value.kind {
                        let mut value_decl = decl(node, i, Some(decl_id));
                        value_decl.enum_value = true;
                        decls.push(value_decl);
                    }
                }
            }
            fields(node, decl_id, &mut decls);
        }
        Some(RulesetDecls { file: Some(file), id, extends: extends.map(str::to_string), decls })
    }
}

/// The `field` lines under a node, at any depth, with `top` as their parent.
fn fields(node: &Node, top: &str, out: &mut Vec<Decl>) {
    let mut stack: Vec<&Node> = children(node).iter().collect();
    while let Some(child) = stack.pop() {
        if child.name.text == "field" && ident_at(child, 0).is_some() {
            out.push(decl(child, 0, Some(top)));
        }
        stack.extend(children(child));
    }
}

fn decl(node: &Node, i: usize, parent: Option<&str>) -> Decl {
    let value = &node.values[i];
    let id = match &value.kind {
        ValueKind::Ident(s) | ValueKind::Word(s) => s.clone(),
        _ => String::new(),
    };
    let doc = children(node).iter().find(|n| n.name.text == "doc").and_then(|n| string_at(n, 0)).map(str::to_string);
    let details = children(node).iter().filter(|n| n.name.text != "doc").map(|n| n.head_span()).collect();
    Decl {
        what: node.name.text.clone(),
        id,
        span: value.span,
        node: node.span,
        head: node.head_span(),
        parent: parent.map(str::to_string),
        doc,
        details,
        enum_value: false,
    }
}

pub(super) fn children(node: &Node) -> &[Node] {
    node.block.as_ref().map(|b| b.nodes.as_slice()).unwrap_or(&[])
}

/// The nodes whose blocks hold an offset, outermost first.
pub(super) fn enclosing(nodes: &[Node], offset: usize) -> Vec<&Node> {
    let mut path = Vec::new();
    let mut level = nodes;
    while let Some(node) = level
        .iter()
        .find(|n| n.block.as_ref().is_some_and(|b| (b.span.start as usize) < offset && offset < b.span.end as usize))
    {
        path.push(node);
        level = children(node);
    }
    path
}
