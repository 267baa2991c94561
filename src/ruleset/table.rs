//! The table part of the ruleset language: what a game is played on — its
//! size, its deployment zones and the fields that give a piece its size —
//! so that rules can place pieces by coordinates and measure between them.
//!
//! Each line is read on its own here; the sides and fields it names are
//! checked by [`check`] once every declaration of the ruleset is known.

use super::codes;
use super::model::{Deployment, Ruleset, Table};
use super::names::{ident_at, string_at, suggest};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{Node, ValueKind};

fn bad(diagnostics: &mut Vec<Diagnostic>, span: Span, message: impl Into<String>, help: &str) {
    diagnostics.push(
        Diagnostic::error(&codes::BAD_TABLE, message).primary(span, "in this declaration").help(help.to_string()),
    );
}

/// `size 36 x 36`: the table's width and depth.
pub(super) fn size(node: &Node, table: &mut Table, diagnostics: &mut Vec<Diagnostic>) {
    let numbers: Vec<i64> = node
        .values
        .iter()
        .filter_map(|v| match v.kind {
            ValueKind::Int(n) => Some(n),
            _ => None,
        })
        .collect();
    let by = node.values.get(1).is_some_and(|v| v.kind == ValueKind::Ident("x".into()));
    match numbers.as_slice() {
        [width, depth] if by && node.values.len() == 3 && *width > 0 && *depth > 0 => {
            (table.width, table.depth) = (*width, *depth);
        }
        _ => {
            // Said, though not read: the table's size is not missing.
            table.width = -1;
            bad(
                diagnostics,
                node.head_span(),
                "a table's size is its width `x` its depth, whole numbers above 0",
                "write `size 48 x 48`, in the game's unit of distance",
            )
        }
    }
}

/// `deployment red-edge "Red deployment" side red 0,0 36,6`.
pub(super) fn deployment(node: &Node, table: &mut Table, diagnostics: &mut Vec<Diagnostic>) {
    let help = "write `deployment red-edge \"Red deployment\" side red 0,0 36,6`: an id, a name, an optional side, \
                then two opposite corners";
    let Some(id) = ident_at(node, 0) else {
        bad(diagnostics, node.head_span(), "a deployment zone needs an id", help);
        return;
    };
    let display = string_at(node, 1).map_or_else(|| id.to_string(), str::to_string);
    let side_at = node.values.iter().position(|v| v.kind == ValueKind::Ident("side".into()));
    let side = side_at.and_then(|i| ident_at(node, i + 1).map(|s| (s.to_string(), node.values[i + 1].span)));
    if side_at.is_some() && side.is_none() {
        bad(diagnostics, node.head_span(), format!("deployment `{id}` says `side` but names none"), help);
        return;
    }
    let corners: Vec<[i64; 2]> = node
        .values
        .iter()
        .filter_map(|v| match v.kind {
            ValueKind::Coord(x, y) => Some([x, y]),
            _ => None,
        })
        .collect();
    let [from, to] = corners.as_slice() else {
        bad(diagnostics, node.head_span(), format!("deployment `{id}` needs two opposite corners"), help);
        return;
    };
    table.deployments.push(Deployment {
        id: id.to_string(),
        display,
        side: side.as_ref().map(|(s, _)| s.clone()),
        from: *from,
        to: *to,
        span: node.head_span(),
        side_span: side.map(|(_, span)| span),
    });
}

/// `radius radius` or `diameter length`: the fields that give a piece its
/// size, the first a card has.
pub(super) fn size_fields(node: &Node, diagnostics: &mut Vec<Diagnostic>) -> Vec<(String, Span)> {
    let fields: Vec<(String, Span)> = (0..node.values.len())
        .filter_map(|i| ident_at(node, i).map(|f| (f.to_string(), node.values[i].span)))
        .collect();
    if fields.is_empty() {
        let help = "write `radius radius` or `diameter length`: the fields a piece's size is read from";
        bad(diagnostics, node.head_span(), format!("`{}` names the fields of a piece's size", node.name.text), help);
    }
    fields
}

/// Checks a table once its lines are read: its size is given, and every
/// zone lies on it.
pub(super) fn close(node: &Node, table: &Table, diagnostics: &mut Vec<Diagnostic>) {
    match table.width {
        0 => {
            bad(diagnostics, node.head_span(), "the table does not say its size", "add `size 48 x 48` to its block");
            return;
        }
        ..0 => return,
        _ => {}
    }
    for zone in &table.deployments {
        if !table.holds(zone.from) || !table.holds(zone.to) {
            diagnostics.push(
                Diagnostic::error(&codes::BAD_TABLE, format!("deployment `{}` reaches off the table", zone.id))
                    .primary(zone.span, "a corner lies off the table")
                    .note(format!("the table runs from 0,0 to {},{}", table.width, table.depth))
                    .help("give corners within the table's size"),
            );
        }
    }
}

/// The sides and fields a table names are declared.
pub(super) fn check(ruleset: &Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    let Some(table) = &ruleset.table else { return };
    let sides: Vec<&str> = ruleset.sides.iter().map(|s| s.id.as_str()).collect();
    for zone in &table.deployments {
        let (Some(side), Some(span)) = (&zone.side, zone.side_span) else { continue };
        if !sides.contains(&side.as_str()) {
            diagnostics.push(
                Diagnostic::error(&codes::BAD_TABLE, format!("no side is named `{side}`"))
                    .primary(span, "not a side of this ruleset")
                    .note(format!("declared: {}", if sides.is_empty() { "none".into() } else { sides.join(", ") }))
                    .suggest(suggest(side, sides.iter().copied())),
            );
        }
    }
    let fields: Vec<&str> =
        ruleset.kinds.iter().flat_map(|k| k.schema.fields.iter().map(|f| f.name.as_str())).collect();
    for (field, span) in &table.field_spans {
        if !fields.contains(&field.as_str()) {
            diagnostics.push(
                Diagnostic::error(&codes::BAD_TABLE, format!("no kind has a field `{field}`"))
                    .primary(*span, "a piece's size is read from a field of its card")
                    .suggest(suggest(field, fields.iter().copied())),
            );
        }
    }
}
