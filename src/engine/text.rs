//! The timeline as a person reads it: one heading per initiative step, one
//! numbered entry per resolution with its effects below it.

use super::data::{Body, Condition, Effect, Initiative, Value};
use super::timeline::{tenths, Timeline};
use std::fmt::Write;

/// The whole timeline as text, ending with a newline.
pub fn render(timeline: &Timeline) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", timeline.ruleset, plays(timeline));
    let mut any_simultaneous = false;
    for step in &timeline.steps {
        let _ = writeln!(out, "\n{}", step.initiative);
        for r in &step.resolutions {
            any_simultaneous |= r.simultaneous;
            let mark = if r.simultaneous { "=" } else { " " };
            let mut about = vec![r.kind.clone()];
            about.extend(r.compared.iter().cloned());
            if r.initiative != step.initiative {
                about.push(format!("at {}", r.initiative));
            }
            let _ = write!(out, "  {:>2}{mark} {:<9} {} ({})", r.position, r.side, r.card, about.join(", "));
            if let Some(by) = &r.decided_by {
                let _ = write!(out, "  [tie-break: {by}]");
            }
            out.push('\n');
            let lines = body_lines(&r.body);
            if lines.is_empty() {
                let values: Vec<String> = r.values.iter().map(value).collect();
                let _ = writeln!(out, "        {} {}", r.field, values.join(" "));
            }
            for line in lines {
                let _ = writeln!(out, "        {line}");
            }
        }
    }
    if timeline.steps.is_empty() {
        out.push_str("\nnothing resolves\n");
    }
    if any_simultaneous {
        out.push_str("\n= resolve at the same time and cannot affect each other\n");
    }
    if !timeline.notes.is_empty() {
        out.push('\n');
    }
    for note in &timeline.notes {
        let _ = writeln!(out, "note: {note}");
    }
    out
}

fn plays(timeline: &Timeline) -> String {
    let mut sides: Vec<(&str, Vec<&str>)> = Vec::new();
    for play in &timeline.plays {
        match sides.iter_mut().find(|(s, _)| *s == play.side) {
            Some((_, cards)) => cards.push(&play.card),
            None => sides.push((&play.side, vec![&play.card])),
        }
    }
    let parts: Vec<String> = sides.iter().map(|(side, cards)| format!("{side} plays {}", cards.join(", "))).collect();
    if parts.is_empty() {
        "no cards played".to_string()
    } else {
        parts.join("; ")
    }
}

/// The effects on one line, then one line per condition.
fn body_lines(body: &Body) -> Vec<String> {
    let mut lines = Vec::new();
    if !body.effects.is_empty() {
        lines.push(effects(&body.effects));
    }
    for conditional in &body.conditions {
        for (i, line) in body_lines(&conditional.body).into_iter().enumerate() {
            let prefix = if i == 0 { format!("when {}: ", condition(&conditional.condition)) } else { "  ".into() };
            lines.push(format!("{prefix}{line}"));
        }
    }
    lines
}

fn effects(effects: &[Effect]) -> String {
    let shown: Vec<String> = effects
        .iter()
        .map(|e| {
            let amount = match e.plus.as_str() {
                "after" => format!("{}+", e.amount),
                "before" => format!("+{}", e.amount),
                _ => e.amount.to_string(),
            };
            format!("{} {} {amount}", e.role, e.symbol)
        })
        .collect();
    shown.join(", ")
}

fn condition(condition: &Condition) -> String {
    match condition {
        Condition::Range { from, to: Some(to), .. } => format!("range {from}..{to}"),
        Condition::Range { from, open: true, .. } => format!("range {from}.."),
        Condition::Range { from, .. } => format!("range {from}"),
        Condition::Other => "a condition".to_string(),
    }
}

/// A value as it is written on the card.
pub fn value(value: &Value) -> String {
    match value {
        Value::Int(n) => n.to_string(),
        Value::Signed(n) => format!("{n:+}"),
        Value::Decimal(text) | Value::Name(text) => text.clone(),
        Value::Distance(text) => format!("{text}\""),
        Value::Initiative(Initiative::X) => "X".to_string(),
        Value::Initiative(Initiative::Step(t)) => tenths(*t),
        Value::String(text) => format!("{text:?}"),
        Value::Special { token, .. } => token.clone(),
        Value::Other => "…".to_string(),
    }
}
