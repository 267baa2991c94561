//! The timeline as a person reads it: one heading per phase and step, one
//! numbered entry per resolution with its effects below it.

use super::data::{Argument, Body, Condition, Effect, Initiative, Value};
use super::timeline::{Resolution, Step, Timeline};
use std::fmt::Write;

/// The whole timeline as text, ending with a newline.
pub fn render(timeline: &Timeline) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", timeline.ruleset, plays(timeline));
    let (mut simultaneous, mut rolls, mut chosen, mut ordered) = (false, Vec::<String>::new(), false, false);
    for step in &timeline.steps {
        let heading = match (step.phase.is_empty(), step.step.is_empty()) {
            (true, _) => step.step.clone(),
            (false, true) => step.phase.clone(),
            (false, false) => format!("{}, {}", step.phase, step.step),
        };
        let _ = writeln!(out, "\n{heading}");
        for r in &step.resolutions {
            simultaneous |= r.simultaneous;
            chosen |= r.chooses;
            ordered |= r.player_orders;
            if let Some(roll) = r.undecided.as_ref().filter(|roll| !rolls.contains(roll)) {
                rolls.push(roll.clone());
            }
            resolution(&mut out, step, r, timeline.whole_numbers);
        }
    }
    if timeline.steps.is_empty() {
        out.push_str("\nnothing resolves\n");
    }
    if simultaneous {
        out.push_str("\n= resolve at the same time and cannot affect each other\n");
    }
    for roll in rolls {
        let _ = writeln!(out, "\n? tied: the order is decided by a roll ({roll})");
    }
    if chosen {
        out.push_str("\n* this side chose to go first, and may go second instead\n");
    }
    if ordered {
        out.push_str("\n~ tied: their player plays them in the order they choose\n");
    }
    if !timeline.notes.is_empty() {
        out.push('\n');
    }
    for note in &timeline.notes {
        let _ = writeln!(out, "note: {note}");
    }
    out
}

/// One numbered entry and its effects.
fn resolution(out: &mut String, step: &Step, r: &Resolution, whole_numbers: bool) {
    let mark = match (r.simultaneous, r.undecided.is_some(), r.chooses, r.player_orders) {
        (true, _, _, _) => "=",
        (_, true, _, _) => "?",
        (_, _, true, _) => "*",
        (_, _, _, true) => "~",
        _ => " ",
    };
    let mut about = vec![r.kind.clone()];
    about.extend(r.compared.iter().cloned());
    if let Some(at) = r.initiative.as_ref().filter(|at| Some(*at) != step.at.as_ref() && **at != step.step) {
        about.push(format!("at {at}"));
    }
    if let Some(round) = r.round {
        about.push(format!("round {round}"));
    }
    let _ = write!(out, "  {:>2}{mark} {:<9} {} ({})", r.position, r.side, r.card, about.join(", "));
    if let Some(by) = &r.decided_by {
        let _ = write!(out, "  [tie-break: {by}]");
    }
    out.push('\n');
    let lines = body_lines(&r.body);
    if lines.is_empty() && !r.values.is_empty() {
        let values: Vec<String> = r.values.iter().map(|v| written(v, whole_numbers)).collect();
        let _ = writeln!(out, "        {} {}", r.field.as_deref().unwrap_or_default(), values.join(" "));
    }
    if let Some(applies) = &r.applies {
        let _ = writeln!(out, "        this turn: {} {applies}", r.field.as_deref().unwrap_or_default());
    }
    for line in lines {
        let _ = writeln!(out, "        {line}");
    }
}

/// A value as written, an initiative on a scale of whole numbers without
/// its tenth (`4`, not `4.0`).
fn written(value: &Value, whole_numbers: bool) -> String {
    match value {
        Value::Initiative(Initiative::Step(t)) if whole_numbers && t % 10 == 0 => (t / 10).to_string(),
        _ => value.written(),
    }
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
    // A block without effect lines says what it does with its fields (an
    // ability's cost and text): one line each, nested blocks left out.
    if body.effects.is_empty() && body.conditions.is_empty() && body.choices.is_empty() && body.then.is_empty() {
        for field in body.fields.iter().filter(|f| !f.values.is_empty()) {
            let values: Vec<String> = field.values.iter().map(Value::written).collect();
            lines.push(format!("{} {}", field.name, values.join(" ")));
        }
    }
    for conditional in &body.conditions {
        nested(&mut lines, &format!("when {}", condition(&conditional.condition)), &conditional.body);
    }
    for choice in &body.choices {
        for (i, option) in choice.options.iter().enumerate() {
            nested(&mut lines, if i == 0 { "choose one" } else { "or" }, option);
        }
    }
    for step in &body.then {
        nested(&mut lines, "then", step);
    }
    lines
}

/// A nested body's lines, the first after `head:`, the rest indented.  The
/// recursion is as deep as blocks nest, which the parser bounds.
fn nested(lines: &mut Vec<String>, head: &str, body: &Body) {
    for (i, line) in body_lines(body).into_iter().enumerate() {
        let prefix = if i == 0 { format!("{head}: ") } else { "  ".into() };
        lines.push(format!("{prefix}{line}"));
    }
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
            match &e.per {
                Some(per) => format!("{} {} {amount} per {}", e.role, e.symbol, with_args(&per.quantity, &per.args)),
                None => format!("{} {} {amount}", e.role, e.symbol),
            }
        })
        .collect();
    shown.join(", ")
}

fn condition(condition: &Condition) -> String {
    match condition {
        Condition::Range { from, to: Some(to), .. } => format!("range {from}..{to}"),
        Condition::Range { from, open: true, .. } => format!("range {from}.."),
        Condition::Range { from, .. } => format!("range {from}"),
        Condition::Declared { id, args } => with_args(id, args),
        Condition::Other => "a condition".to_string(),
    }
}

/// A declared condition or quantity as a card writes it: `target-has burn`.
fn with_args(id: &str, args: &[Argument]) -> String {
    std::iter::once(id.to_string()).chain(args.iter().map(|a| a.value.written())).collect::<Vec<_>>().join(" ")
}
