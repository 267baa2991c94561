//! Lints driven by ruleset data: effects without an initiative, unusual
//! roles, costs no one can pay, text too long for its card, and rules that
//! are only recommendations.

use super::catalogue::{EFFECT_WITHOUT_INITIATIVE, RULE_IS_WARNING, TEXT_TOO_LONG, UNPAYABLE_COST, UNUSUAL_ROLE};
use super::{lint, Context, Found};
use crate::diagnostics::{Diagnostic, Severity};
use crate::ir::{Body, Card, Effect, TextPart, Value};
use crate::ruleset::model::{Kind, Type};

/// Runs the lints of one card on each of `cards` (cards without errors);
/// [`recommendations`] is the one about the ruleset.
pub(super) fn run<'a>(context: &Context<'a>, cards: &[&'a Card], found: &mut Vec<Found<'a>>) {
    let ruleset = &context.game.ruleset;
    for &card in cards {
        let Some(kind) = ruleset.kind_of(&card.kind) else { continue };
        let mut effects = Vec::new();
        walk(&card.body, false, &mut effects);
        without_initiative(context, card, kind, &effects, found);
        for (effect, _) in &effects {
            unusual_role(context, card, kind, effect, found);
            unpayable(context, card, effect, found);
        }
        too_long(context, card, kind, found);
    }
}

/// Every effect, with whether an initiative governs it.
fn walk<'b>(body: &'b Body, timed: bool, out: &mut Vec<(&'b Effect, bool)>) {
    out.extend(body.effects.iter().map(|e| (e, timed)));
    for field in &body.fields {
        let timed = timed || field.each_value().any(|v| matches!(v, Value::Initiative(_)));
        if let Some(inner) = &field.body {
            walk(inner, timed, out);
        }
    }
    for conditional in &body.conditions {
        walk(&conditional.body, timed, out);
    }
}

fn without_initiative<'a>(
    context: &Context<'a>,
    card: &'a Card,
    kind: &Kind,
    effects: &[(&Effect, bool)],
    found: &mut Vec<Found<'a>>,
) {
    let Some(lint) = lint(EFFECT_WITHOUT_INITIATIVE.name) else { return };
    let step_fields: Vec<&str> = kind
        .schema
        .fields
        .iter()
        .filter(|f| f.schema.effects && f.schema.takes.iter().any(|t| t.ty == Type::Initiative))
        .map(|f| f.name.as_str())
        .collect();
    let has_step = card.body.fields.iter().any(|f| step_fields.contains(&f.name.as_str()));
    if step_fields.is_empty() || effects.is_empty() || has_step || effects.iter().any(|(_, timed)| *timed) {
        return;
    }
    let diagnostic = Diagnostic::warning(lint.code, format!("`{}` has effects but no initiative step", card.name))
        .primary(card.span, "no `at STEP { ... }` on this card")
        .help("give the effects a step, such as `at 3.5 { ... }`");
    found.push(context.finding(lint, diagnostic, Some(card)));
}

fn unusual_role<'a>(context: &Context<'a>, card: &'a Card, kind: &Kind, effect: &Effect, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(UNUSUAL_ROLE.name) else { return };
    if !kind.rare_roles.contains(&effect.role) {
        return;
    }
    let diagnostic =
        Diagnostic::warning(lint.code, format!("{} effects are unusual on {}s", effect.role, kind.display))
            .primary(effect.span, "unusual for this kind")
            .help("if the card means it, add `allow unusual-role` to it");
    found.push(context.finding(lint, diagnostic, Some(card)));
}

fn unpayable<'a>(context: &Context<'a>, card: &'a Card, effect: &Effect, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(UNPAYABLE_COST.name) else { return };
    let limits = &context.game.ruleset.cost_limits;
    let Some(limit) = limits.iter().find(|l| l.role == effect.role && l.symbol == effect.symbol) else { return };
    if effect.amount <= limit.max {
        return;
    }
    let diagnostic =
        Diagnostic::warning(lint.code, format!("a cost of {} {} can never be paid", effect.amount, effect.symbol))
            .primary(effect.span, format!("more than {}", limit.max))
            .note(format!("{} (the ruleset's `cost-limit`)", limit.reason));
    found.push(context.finding(lint, diagnostic, Some(card)));
}

fn too_long<'a>(context: &Context<'a>, card: &'a Card, kind: &Kind, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(TEXT_TOO_LONG.name) else { return };
    let Some(limit) = kind.text_limit else { return };
    for field in &card.body.fields {
        for value in &field.values {
            let Value::Text(text) = &value.value else { continue };
            let length: usize = text
                .parts
                .iter()
                .map(|p| match p {
                    TextPart::Plain(s) | TextPart::CardRef(s) => s.chars().count(),
                    TextPart::Icon(_) => 2,
                })
                .sum();
            if length as i64 > limit {
                let diagnostic = Diagnostic::warning(
                    lint.code,
                    format!("the text of `{}` is {length} characters; {}s hold {limit}", card.name, kind.display),
                )
                .primary(value.span, "too long for the card")
                .help("shorten the text, or move reminder text to the rules");
                found.push(context.finding(lint, diagnostic, Some(card)));
            }
        }
    }
}

pub(super) fn recommendations<'a>(context: &Context<'a>, found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(RULE_IS_WARNING.name) else { return };
    for deck_type in &context.game.ruleset.deck_types {
        for rule in deck_type.rules.iter().filter(|r| r.severity == Severity::Warning) {
            let diagnostic = Diagnostic::warning(lint.code, format!("\"{}\" is only a recommendation", rule.message))
                .primary(rule.span, "declared with `recommend`")
                .help("use `require` if decks that break it are not valid");
            found.push(context.finding(lint, diagnostic, None));
        }
    }
}
