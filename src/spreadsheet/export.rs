//! `cardsmith export --csv`: one table per game and card kind, from checked
//! cards and the lines they were written with.

use super::{cell_from_string, columns, guarded, is_text_field, LINT_WORDS};
use crate::ir::{Card, Project};
use crate::ruleset::model::Kind;
use crate::source::{FileId, Files, Span};
use crate::syntax::ast::{Node, ValueKind};
use std::collections::HashMap;

/// The tables of every kind that has cards, named `GAME-KIND.csv`, each
/// with its text.  The project must have checked without errors.
pub fn export(files: &Files, project: &Project) -> Result<Vec<(String, String)>, csv::Error> {
    let nodes = card_nodes(files, project);
    let mut tables = Vec::new();
    for game in &project.games {
        for kind in &game.ruleset.kinds {
            let cards: Vec<&Card> = game.cards.iter().map(|c| &**c).filter(|c| c.kind.id() == kind.id).collect();
            if cards.is_empty() {
                continue;
            }
            let rows = cards.iter().map(|card| row(files, kind, card, nodes.get(&key(card.extent))));
            let contents = table(&columns(kind), rows)?;
            tables.push((format!("{}-{}.csv", game.ruleset.id, kind.id), contents));
        }
    }
    Ok(tables)
}

fn key(span: Span) -> (FileId, u32) {
    (span.file, span.start)
}

/// The syntax node of every card, by where it starts: the files holding
/// cards are read again, as the checker read them.
fn card_nodes(files: &Files, project: &Project) -> HashMap<(FileId, u32), Node> {
    let mut wanted: Vec<FileId> = project.games.iter().flat_map(|g| g.cards.iter().map(|c| c.extent.file)).collect();
    wanted.sort();
    wanted.dedup();
    let mut nodes = HashMap::new();
    for (tree, _) in crate::syntax::parse_many(files, &wanted) {
        for node in tree.nodes {
            nodes.insert(key(node.span), node);
        }
    }
    nodes
}

fn table(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(header)?;
    for row in rows {
        writer.write_record(row.into_iter().map(guarded))?;
    }
    let bytes = writer.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// One card's cells, in the order of [`columns`].
fn row(files: &Files, kind: &Kind, card: &Card, node: Option<&Node>) -> Vec<String> {
    let lines: &[Node] = node.and_then(|n| n.block.as_ref()).map(|b| b.nodes.as_slice()).unwrap_or_default();
    let name = node
        .and_then(|n| n.values.first())
        .map(|v| cell_from_string(&written_string(files, v.span)))
        .unwrap_or_else(|| card.name.clone());
    let mut cells = vec![name, card.tags.join(" ")];
    for field in &kind.schema.fields {
        let own: Vec<&Node> = lines.iter().filter(|n| n.name.text == field.name).collect();
        let cell = match own.as_slice() {
            [only] if is_text_field(field) && only.block.is_none() => match only.values.as_slice() {
                [value] if matches!(value.kind, ValueKind::String(_)) => {
                    cell_from_string(&written_string(files, value.span))
                }
                _ => after_name(files, only),
            },
            _ => own.iter().map(|n| after_name(files, n)).collect::<Vec<_>>().join("\n"),
        };
        cells.push(cell);
    }
    let is_field = |n: &&Node| kind.schema.field(&n.name.text).is_some();
    let is_lint = |n: &&Node| LINT_WORDS.contains(&n.name.text.as_str());
    if kind.schema.effects {
        let effects = lines.iter().filter(|n| !is_field(n) && !is_lint(n));
        cells.push(effects.map(|n| one_line(files, n)).collect::<Vec<_>>().join("\n"));
    }
    cells.push(lines.iter().filter(is_lint).map(|n| one_line(files, n)).collect::<Vec<_>>().join("\n"));
    cells
}

/// A string value as written between its quotes.
fn written_string(files: &Files, span: Span) -> String {
    let text = files.text(span);
    text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text).to_string()
}

/// A line without its name: `at 3.5 { impact damage 4 }` → `3.5 { impact
/// damage 4 }`.
fn after_name(files: &Files, node: &Node) -> String {
    let line = one_line(files, node);
    line[node.name.text.len()..].trim_start().to_string()
}

/// A line and its block on one line, `;` between the block's lines; each
/// value as written, comments left out.  Blocks nest as deep as the syntax
/// allows, which the parser bounds.
pub fn one_line(files: &Files, node: &Node) -> String {
    let mut out = node.name.text.clone();
    for value in &node.values {
        out.push(' ');
        out.push_str(files.text(value.span));
    }
    if let Some(block) = &node.block {
        let inner: Vec<String> = block.nodes.iter().map(|n| one_line(files, n)).collect();
        if inner.is_empty() {
            out.push_str(" {}");
        } else {
            out.push_str(" { ");
            out.push_str(&inner.join("; "));
            out.push_str(" }");
        }
    }
    out
}
