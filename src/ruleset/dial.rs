//! The dial part of the ruleset language: a manoeuvre dial as a typed grid.
//! `dial ID "NAME" { field F; bearings ENUM; difficulties ENUM; colour
//! VALUE COLOUR }` says that the lines of a repeated field are the
//! manoeuvres of a card's dial — each a speed, a bearing and a difficulty —
//! so that the checker refuses a manoeuvre listed twice, rules count
//! manoeuvres (`speeds`, `manoeuvres`), and templates draw the grid.
//!
//! Each line is read on its own here; the field and enums it names are
//! checked by [`check`] once every declaration of the ruleset is known,
//! which also reads the grid's speeds from the field's declaration.

use super::codes;
use super::model::{Dial, EnumDef, Ruleset, Type};
use super::names::{ident_at, string_at, suggest};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{Node, ValueKind};

fn bad(span: Span, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::error(&codes::BAD_DIAL, message).primary(span, "in this declaration").help(help.into())
}

/// Opens `dial ID "NAME"`, or `None` (reported) without an id.
pub(super) fn open(node: &Node, diagnostics: &mut Vec<Diagnostic>) -> Option<Dial> {
    let Some(id) = ident_at(node, 0) else {
        diagnostics.push(bad(
            node.head_span(),
            "a dial needs an id",
            "write `dial manoeuvres \"Manoeuvre Dial\" { … }`",
        ));
        return None;
    };
    let display = string_at(node, 1).unwrap_or(id).to_string();
    Some(Dial {
        id: id.to_string(),
        display,
        field: String::new(),
        bearings: String::new(),
        difficulties: String::new(),
        speeds: [0, 0],
        colours: Default::default(),
        doc: None,
        spans: Default::default(),
        span: node.head_span(),
    })
}

/// The one name a line takes (`field move`), and where it is written.
fn one_name(node: &Node, diagnostics: &mut Vec<Diagnostic>, example: &str) -> Option<(String, Span)> {
    match (ident_at(node, 0), node.values.len()) {
        (Some(name), 1) => Some((name.to_string(), node.values[0].span)),
        _ => {
            let line = &node.name.text;
            diagnostics.push(bad(node.head_span(), format!("`{line}` takes one name"), format!("write `{example}`")));
            None
        }
    }
}

/// `field move`: the repeated field whose lines are the manoeuvres.
pub(super) fn field(node: &Node, dial: &mut Dial, diagnostics: &mut Vec<Diagnostic>) {
    if let Some((name, span)) = one_name(node, diagnostics, "field move") {
        (dial.field, dial.spans.field) = (name, Some(span));
    }
}

/// `bearings bearing`: the enum of the grid's columns.
pub(super) fn bearings(node: &Node, dial: &mut Dial, diagnostics: &mut Vec<Diagnostic>) {
    if let Some((name, span)) = one_name(node, diagnostics, "bearings bearing") {
        (dial.bearings, dial.spans.bearings) = (name, Some(span));
    }
}

/// `difficulties difficulty`: the enum of the manoeuvres' difficulties.
pub(super) fn difficulties(node: &Node, dial: &mut Dial, diagnostics: &mut Vec<Diagnostic>) {
    if let Some((name, span)) = one_name(node, diagnostics, "difficulties difficulty") {
        (dial.difficulties, dial.spans.difficulties) = (name, Some(span));
    }
}

/// `colour easy blue`: the colour a difficulty prints in.
pub(super) fn colour(node: &Node, dial: &mut Dial, diagnostics: &mut Vec<Diagnostic>) {
    let help = "write `colour easy blue`: a difficulty, then a colour name or `#rrggbb`";
    let (Some(difficulty), Some(colour)) = (ident_at(node, 0), node.values.get(1)) else {
        diagnostics.push(bad(node.head_span(), "`colour` takes a difficulty and a colour", help));
        return;
    };
    let name = match &colour.kind {
        ValueKind::Ident(name) | ValueKind::Word(name) => name.as_str(),
        _ => "",
    };
    // The difficulty is coloured, if wrongly: one error, not two.
    dial.spans.colours.push((difficulty.to_string(), node.values[0].span));
    let Some(hex) = super::palette::hex(name) else {
        let names: Vec<&str> = super::palette::names().collect();
        diagnostics.push(
            Diagnostic::error(&codes::BAD_DIAL, format!("`{name}` is not a colour cardsmith knows"))
                .primary(colour.span, "unknown colour")
                .note(format!("the colours are: {}; or any `#rrggbb`", names.join(", ")))
                .suggest(suggest(name, names.iter().copied())),
        );
        return;
    };
    dial.colours.insert(difficulty.to_string(), hex);
}

/// Checks each dial against the ruleset once it is read, and reads the
/// grid's speeds from the field's declaration.
pub(super) fn check(ruleset: &mut Ruleset, diagnostics: &mut Vec<Diagnostic>) {
    let mut dials = std::mem::take(&mut ruleset.dials);
    let mut once = Vec::new();
    for dial in &mut dials {
        once.extend(check_one(ruleset, dial, diagnostics));
    }
    ruleset.dials = dials;
    // A dial's field declared without `many` is read as the dial needs it,
    // so that its cards are not each told that they give it twice.
    for field in ruleset.kinds.iter_mut().flat_map(|k| &mut k.schema.fields) {
        field.many |= once.contains(&field.name);
    }
}

/// Checks one dial; returns the dial's field when it is declared without
/// `many`, which is reported.
fn check_one(ruleset: &Ruleset, dial: &mut Dial, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    let enum_named = |name: &str, span: Option<Span>, line: &str, diagnostics: &mut Vec<Diagnostic>| {
        let found = ruleset.enum_def(name);
        if found.is_none() {
            let declared: Vec<&str> = ruleset.enums.iter().map(|e| e.id.as_str()).collect();
            diagnostics.push(match span {
                Some(span) => Diagnostic::error(&codes::BAD_DIAL, format!("no enum is named `{name}`"))
                    .primary(span, "not an enum of this ruleset")
                    .suggest(suggest(name, declared.iter().copied())),
                None => bad(dial.span, format!("dial `{}` does not say its {line}", dial.id), {
                    format!("add `{line} ENUM` to its block: an enum of the ruleset")
                }),
            });
        }
        found
    };
    let bearings = enum_named(&dial.bearings, dial.spans.bearings, "bearings", diagnostics);
    let difficulties = enum_named(&dial.difficulties, dial.spans.difficulties, "difficulties", diagnostics);
    if let Some(difficulties) = difficulties {
        check_colours(dial, difficulties, diagnostics);
    }
    let (bearings, difficulties) = bearings.zip(difficulties)?;
    check_field(ruleset, dial, bearings, difficulties, diagnostics)
}

/// Each colour names a difficulty, and each difficulty has a colour.
fn check_colours(dial: &Dial, difficulties: &EnumDef, diagnostics: &mut Vec<Diagnostic>) {
    for (difficulty, span) in &dial.spans.colours {
        if !difficulties.values.contains(difficulty) {
            diagnostics.push(
                Diagnostic::error(
                    &codes::BAD_DIAL,
                    format!("`{difficulty}` is not a difficulty of dial `{}`", dial.id),
                )
                .primary(*span, format!("not a value of `{}`", difficulties.id))
                .suggest(suggest(difficulty, difficulties.values.iter().map(String::as_str))),
            );
        }
    }
    let coloured = |d: &String| dial.spans.colours.iter().any(|(c, _)| c == d);
    let missing: Vec<&str> = difficulties.values.iter().filter(|d| !coloured(d)).map(String::as_str).collect();
    if !missing.is_empty() {
        diagnostics.push(bad(
            dial.span,
            format!("dial `{}` gives no colour to {}", dial.id, quoted(&missing)),
            format!("add `colour {} COLOUR` to its block: a printed dial colours each manoeuvre", missing[0]),
        ));
    }
}

/// The dial's field is declared with a speed of bounded whole numbers, a
/// bearing and a difficulty, in that order, on lines of their own; its
/// speeds are the grid's rows.  Returns the field when it lacks `many`.
fn check_field(
    ruleset: &Ruleset,
    dial: &mut Dial,
    bearings: &EnumDef,
    difficulties: &EnumDef,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let Some(span) = dial.spans.field else {
        diagnostics.push(bad(
            dial.span,
            format!("dial `{}` does not say which field holds its manoeuvres", dial.id),
            "add `field move` to its block: the field whose lines are `move 2 bank-left normal`",
        ));
        return None;
    };
    let declarations: Vec<_> =
        ruleset.kinds.iter().flat_map(|k| &k.schema.fields).filter(|f| f.name == dial.field).collect();
    if declarations.is_empty() {
        let fields: Vec<&str> = ruleset.kinds.iter().flat_map(|k| &k.schema.fields).map(|f| f.name.as_str()).collect();
        diagnostics.push(
            Diagnostic::error(&codes::BAD_DIAL, format!("no card kind declares a field `{}`", dial.field))
                .primary(span, "not a field of any kind")
                .suggest(suggest(&dial.field, fields.iter().copied())),
        );
        return None;
    }
    let wanted = [Type::Int, Type::Enum(bearings.id.clone()), Type::Enum(difficulties.id.clone())];
    let mut once = None;
    for field in declarations {
        let takes: Vec<&Type> = field.schema.takes.iter().map(|t| &t.ty).collect();
        let speeds = field.schema.takes.first().and_then(|t| t.bounds).and_then(|(low, high)| Some([low, high?]));
        match speeds {
            Some(speeds) if takes.len() == 3 && takes.iter().zip(&wanted).all(|(a, b)| *a == b) => {
                dial.speeds = speeds;
                if !field.many && once.is_none() {
                    diagnostics.push(bad(
                        span,
                        format!("field `{}` is given once a card, and a dial has a manoeuvre a line", dial.field),
                        format!("add `many` to the declaration: `field {} int … many`", dial.field),
                    ));
                    once = Some(field.name.clone());
                }
            }
            _ => diagnostics.push(
                Diagnostic::error(
                    &codes::BAD_DIAL,
                    format!("the lines of field `{}` are not manoeuvres of dial `{}`", dial.field, dial.id),
                )
                .primary(span, "the dial's field")
                .help(format!(
                    "declare it `field {} int 1..5 {} {} many`: a speed of bounded whole numbers, a bearing and a \
                     difficulty",
                    dial.field, bearings.id, difficulties.id
                )),
            ),
        }
    }
    once
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}
