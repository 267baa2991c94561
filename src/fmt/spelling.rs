//! The one spelling of the names a checked card writes as printed.
//!
//! The checker reads a keyword by the name its ruleset displays, in any
//! letter case and spacing (`Close Action (Beam)`, `Burnthrough (4)`, `Alt-1`)
//! and a set's items in any letter case (`Fighters/Bombers`); only the
//! ruleset tells what such words name, so the formatter, which reads the
//! syntax alone, cannot.  [`spellings`] gives, from a checked project, the
//! edits that write each of them as its id (`close-action-beam`,
//! `burnthrough(4)`, `alt(1)`, `fighters/bombers`), and an enum's value
//! written in other case or in brackets as printed (`[Ac]`) as its ruleset's
//! (`ac`); `cardsmith fmt` applies
//! them before it formats, once a check of the edited files has said they
//! mean the same.

use crate::ir::{Body, Project, Spanned, Value};
use crate::lint::Fix;
use crate::source::Files;

/// The edits that write each keyword and set value of every card as its
/// ruleset spells it, where the card spells it otherwise.
pub fn spellings(files: &Files, project: &Project) -> Vec<Fix> {
    let mut fixes = Vec::new();
    for game in &project.games {
        for card in &game.cards {
            body(files, &card.body, &mut fixes);
        }
    }
    fixes
}

fn body(files: &Files, body: &Body, fixes: &mut Vec<Fix>) {
    for field in &body.fields {
        for value in &field.values {
            let Some(canonical) = canonical(files, value) else { continue };
            if files.text(value.span) != canonical {
                fixes.push(Fix { span: value.span, replacement: canonical });
            }
        }
        if let Some(inner) = &field.body {
            self::body(files, inner, fixes);
        }
    }
    for conditional in &body.conditions {
        self::body(files, &conditional.body, fixes);
    }
    for choice in &body.choices {
        for option in &choice.options {
            self::body(files, option, fixes);
        }
    }
    for step in &body.then {
        self::body(files, step, fixes);
    }
}

/// A keyword, a set or a name as its ruleset spells it: `burnthrough(4)`,
/// `F/S(Right)`, `ac`; `None` for any other value, which is kept as written.
fn canonical(files: &Files, value: &Spanned<Value>) -> Option<String> {
    match &value.value {
        Value::Keyword { id, args } if args.is_empty() => Some(id.clone()),
        Value::Keyword { id, args } => {
            let args: Vec<String> =
                args.iter().map(|a| canonical(files, a).unwrap_or_else(|| files.text(a.span).to_string())).collect();
            Some(format!("{id}({})", args.join(", ")))
        }
        Value::Set(items) => Some(items.join("/")),
        // An enum's value in other letter case or in brackets: `[Ac]`.
        Value::Name(name) => Some(name.clone()),
        _ => None,
    }
}
