//! Reading what a game's rules do: the lines of play a ruleset may hold
//! (declared in [`language`]), read here into the model of
//! [`crate::ruleset::model::play`]; [`resolve`] compiles their expressions
//! ([`expr`]) and checks the names they use once every declaration is read.

pub(super) mod expr;
pub mod language;
mod ops;
pub(super) mod resolve;
mod sides;

use super::codes;
use super::loader::Loader;
use super::model::play::{Action, Bot, Counts, Expression, Meaning, Pending, Play, PlayLines, Preference, Ref};
use super::model::setup::{Counter, Owner, Setup};
use super::model::{Named, Phase, Ruleset, StateDef};
use super::names::{ident_at, string_at};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use crate::syntax::ast::{Node, Value, ValueKind};

/// The word a value is written as, when it is one word or number.
pub(super) fn word(value: &Value) -> Option<String> {
    match &value.kind {
        ValueKind::Ident(s) | ValueKind::Word(s) => Some(s.clone()),
        ValueKind::Int(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A line of play that is not written as it should be.
pub(super) fn bad_line(span: Span, message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::error(&codes::BAD_PROCEDURE, message).primary(span, "here").help(help)
}

/// The name a value gives, with where it is written.
pub(in crate::ruleset) fn reference(value: &Value) -> Option<Ref> {
    match &value.kind {
        ValueKind::Ident(s) => Some(Ref { name: s.clone(), span: value.span }),
        _ => None,
    }
}

/// An expression of play written on its own line (`means EXPRESSION`).
fn written_expression(l: &mut Loader<'_>, node: &Node) -> Option<Expression> {
    let Some(expr) = node.expr.clone() else {
        l.diagnostics.push(bad_line(
            node.head_span(),
            format!("`{}` needs an expression after it", node.name.text),
            format!("write `{} count(hand) >= 1`", node.name.text),
        ));
        return None;
    };
    let source = crate::syntax::ast::single_spaced(l.files.text(expr.span()));
    let span = expr.span();
    Some(Expression::pending(source, Pending::Ast(expr), span))
}

impl Loader<'_> {
    /// `does ROLE { OPERATION… }`: what the role's effects do with the
    /// symbol.
    pub(super) fn does(&mut self, node: &Node, symbol: &mut Named) {
        let Some(role) = node.values.first().and_then(reference) else {
            self.diagnostics.push(bad_line(
                node.head_span(),
                "`does` names the role whose effects it gives a meaning",
                "write `does gain { add coin amount }`",
            ));
            return;
        };
        if symbol.does.iter().any(|m| m.role.name == role.name) {
            self.diagnostics.push(bad_line(
                role.span,
                format!("symbol `{}` already says what `{}` does", symbol.id, role.name),
                "give each role one `does` line",
            ));
            return;
        }
        let mut ops = Vec::new();
        self.read_body(node, &mut ops);
        symbol.does.push(Meaning { role, ops });
    }

    /// `means EXPRESSION` in a condition or quantity.
    pub(super) fn means(&mut self, node: &Node, declared: &mut StateDef) {
        declared.means = written_expression(self, node);
    }

    /// `action ID "NAME" { take ZONE; cost COUNTER AMOUNT; to ZONE; … }`.
    pub(super) fn action(&mut self, node: &Node, phase: &mut Phase) {
        self.phase_action(node, phase, false);
    }

    /// `reaction ID "NAME" { … }` in a phase: an action offered only in a
    /// window a `respond` opens.
    pub(super) fn reaction(&mut self, node: &Node, phase: &mut Phase) {
        self.phase_action(node, phase, true);
    }

    fn phase_action(&mut self, node: &Node, phase: &mut Phase, reaction: bool) {
        let Some(id) = ident_at(node, 0) else {
            self.diagnostics.push(bad_line(
                node.head_span(),
                "an action needs an id",
                "write `action buy \"Buy\" { take market-row; pay coin cost; to discard }`",
            ));
            return;
        };
        if phase.play.actions.iter().any(|a| a.id == id) {
            self.diagnostics.push(bad_line(
                node.head_span(),
                format!("phase `{}` already has an action `{id}`", phase.id),
                "give each action of a phase its own id",
            ));
            return;
        }
        let display = string_at(node, 1).unwrap_or(id).to_string();
        let mut action = Action {
            id: id.to_string(),
            display,
            from: None,
            filter: None,
            cost: None,
            to: None,
            resolve: None,
            resolve_value: None,
            limit: None,
            only_if: None,
            ops: Vec::new(),
            counts_as: None,
            reaction,
            span: node.head_span(),
        };
        self.read_body(node, &mut action);
        phase.play.actions.push(action);
    }

    /// `take ZONE [FILTER]` in an action.
    pub(super) fn take(&mut self, node: &Node, action: &mut Action) {
        let zone = node.values.first().and_then(reference);
        let filter = node.values.get(1).and_then(|v| Some((word(v)?, v.span)));
        let Some(zone) = zone.filter(|_| node.values.len() <= 2) else {
            self.diagnostics.push(bad_line(
                node.head_span(),
                "`take` names the zone the card is taken from, and may name a filter",
                "write `take market-row` or `take hand lantern`",
            ));
            return;
        };
        action.from = Some(zone);
        action.filter = filter.map(|(name, span)| Expression::pending(name.clone(), Pending::Filter(name), span));
    }

    /// `pay COUNTER AMOUNT` in an action: its price.
    pub(super) fn action_cost(&mut self, node: &Node, action: &mut Action) {
        match ops::pay(node) {
            Some((counter, amount, marking)) => {
                action.cost = Some(super::model::play::Cost { counter, amount, marking });
            }
            None => self.diagnostics.push(bad_line(
                node.head_span(),
                "an action's `pay` names a counter and the amount paid from it, or a marker, the amount and the \
                 zones whose cards are marked",
                "write `pay coin price` (the card's field `price`), `pay coin 3` or `pay tapped cost from lands`",
            )),
        }
    }

    /// `resolve FIELD [VALUE]`: the field whose effects resolve, and of a
    /// field the card has several times, the one with this value.
    pub(super) fn resolve_line(&mut self, node: &Node, action: &mut Action) {
        let names: Vec<Ref> = node.values.iter().map_while(reference).collect();
        match names.as_slice() {
            [field] | [field, _] if names.len() == node.values.len() => {
                action.resolve = Some(field.clone());
                action.resolve_value = names.get(1).cloned();
            }
            _ => self.diagnostics.push(bad_line(
                node.head_span(),
                "`resolve` names the field whose effects resolve, and may name the value that picks one of several",
                "write `resolve reveal`, or `resolve ability fast` for the card's `ability fast { … }`",
            )),
        }
    }

    /// `to ZONE`: one name.
    pub(super) fn one_name(&mut self, node: &Node, usage: &str) -> Option<Ref> {
        let name = node.values.first().and_then(reference).filter(|_| node.values.len() == 1);
        if name.is_none() {
            self.diagnostics.push(bad_line(node.head_span(), format!("`{}` takes one name", node.name.text), usage));
        }
        name
    }

    /// `limit N`, `round-limit N`: a whole number from 1.
    pub(super) fn count_line(&mut self, node: &Node) -> Option<u32> {
        match node.values.as_slice() {
            [Value { kind: ValueKind::Int(n), .. }] if *n >= 1 => u32::try_from(*n).ok(),
            _ => {
                self.diagnostics.push(bad_line(
                    node.head_span(),
                    format!("`{}` takes a whole number from 1", node.name.text),
                    format!("write `{} 2`", node.name.text),
                ));
                None
            }
        }
    }

    /// `counts acquired|played` in an action.
    pub(super) fn counts(&mut self, node: &Node, action: &mut Action) {
        action.counts_as = match node.values.first().and_then(word).as_deref() {
            Some("acquired") if node.values.len() == 1 => Some(Counts::Acquired),
            Some("played") if node.values.len() == 1 => Some(Counts::Played),
            _ => {
                self.diagnostics.push(bad_line(
                    node.head_span(),
                    "`counts` says what taking the card counts as in a simulation's card statistics",
                    "write `counts acquired` (a buy) or `counts played`",
                ));
                None
            }
        };
    }

    /// `only-if CONDITION ARG…` in an action; `if CONDITION ARG…` of a bot's
    /// preference.
    pub(super) fn test(&mut self, node: &Node, values: &[Value]) -> Option<Expression> {
        let line = node.name.text.as_str();
        let help = format!(
            "a test is a condition of the ruleset: declare one, `condition low \"if your life is low\" {{ means hp <= 10 \
             }}`, and write `{line} low`"
        );
        let Some((first, args)) = values.split_first() else {
            self.diagnostics.push(bad_line(
                node.head_span(),
                format!("`{line}` names a condition of the ruleset"),
                help,
            ));
            return None;
        };
        let Some(condition) = word(first) else {
            self.diagnostics.push(bad_line(first.span, "expected the name of a condition", help));
            return None;
        };
        let span = values.iter().fold(first.span, |span, v| span.to(v.span).unwrap_or(span));
        let source = values.iter().filter_map(word).collect::<Vec<_>>().join(" ");
        Some(Expression::pending(source, Pending::Test { condition, args: args.to_vec() }, span))
    }

    /// The operations of the line's block.
    pub(super) fn procedure(&mut self, node: &Node) -> Vec<super::model::play::Op> {
        let mut ops = Vec::new();
        self.read_body(node, &mut ops);
        ops
    }

    /// `start { … }` or `end { … }` of a phase.
    pub(super) fn phase_procedure(&mut self, node: &Node, phase: &mut Phase) {
        let ops = self.procedure(node);
        if node.name.text == "start" {
            phase.play.start.extend(ops);
        } else {
            phase.play.end.extend(ops);
        }
    }

    /// `play { ends-when …; round-limit N; score-by … }`.
    pub(super) fn play(&mut self, node: &Node, ruleset: &mut Ruleset) {
        self.play_written = true;
        let mut lines = PlayLines::default();
        self.read_body(node, &mut lines);
        let missing: Vec<&str> = [
            ("ends-when", lines.ends_when.is_none()),
            ("round-limit", lines.round_limit.is_none()),
            ("score-by", lines.score.is_none()),
        ]
        .into_iter()
        .filter_map(|(name, missing)| missing.then_some(name))
        .collect();
        if !missing.is_empty() {
            let said = |line: &str| match line {
                "ends-when" => "`ends-when EXPRESSION`, when the game ends",
                "round-limit" => "`round-limit N`, the most rounds it lasts",
                _ => "`score-by EXPRESSION`, each player's score",
            };
            let list = missing.iter().map(|m| said(m)).collect::<Vec<_>>().join("; ");
            self.diagnostics.push(bad_line(
                node.head_span(),
                format!("`play` needs {list}"),
                "write `play { ends-when count(draw-deck) == 0; round-limit 30; score-by renown }`",
            ));
        }
        if let (Some(ends_when), Some(round_limit), Some(score)) = (lines.ends_when, lines.round_limit, lines.score) {
            let refresh = lines.refresh;
            ruleset.play =
                Some(Play { doc: lines.doc, ends_when, round_limit, score, refresh, span: node.head_span() });
        }
    }

    pub(super) fn play_expression(&mut self, node: &Node) -> Option<Expression> {
        written_expression(self, node)
    }

    /// `bot ID "NAME" { doc "…"; prefer … }`.
    pub(super) fn bot(&mut self, node: &Node) -> Option<Bot> {
        let (id, display) = self.id_and_display(node)?;
        let mut bot = Bot { id, display, doc: None, prefer: Vec::new(), span: node.head_span() };
        self.read_body(node, &mut bot);
        if bot.prefer.is_empty() {
            self.diagnostics.push(bad_line(
                node.head_span(),
                format!("bot `{}` prefers nothing", bot.id),
                "list its priorities, first first: `prefer buy lantern by cost`",
            ));
        }
        Some(bot)
    }

    /// `prefer ACTION [FILTER] [by FIELD] [if CONDITION ARG…]`.
    pub(super) fn prefer(&mut self, node: &Node, bot: &mut Bot) {
        let usage = "write `prefer ACTION [FILTER] [by FIELD] [if CONDITION …]`: `prefer buy lantern by cost if rich`";
        let Some(action) = node.values.first().and_then(reference) else {
            self.diagnostics.push(bad_line(node.head_span(), "`prefer` names an action", usage));
            return;
        };
        let rest = &node.values[1..];
        let test_at = rest.iter().position(|v| word(v).as_deref() == Some("if")).unwrap_or(rest.len());
        let (head, test) = rest.split_at(test_at);
        let test = match test.split_first() {
            Some((_, condition)) => self.test(node, condition),
            None => None,
        };
        let mut filter = None;
        let mut rank = None;
        let mut words = head.iter();
        while let Some(value) = words.next() {
            let text = word(value).unwrap_or_default();
            if text == "by" {
                let Some(field) = words.next().and_then(|v| Some((word(v)?, v.span))) else {
                    self.diagnostics.push(bad_line(value.span, "`by` names the field that ranks the cards", usage));
                    return;
                };
                rank = Some(Expression::pending(field.0.clone(), Pending::Amount(field.0), field.1));
            } else if filter.is_none() && !text.is_empty() {
                filter = Some(Expression::pending(text.clone(), Pending::Filter(text), value.span));
            } else {
                self.diagnostics.push(bad_line(value.span, "`prefer` takes one filter", usage));
                return;
            }
        }
        bot.prefer.push(Preference { action, filter, test, rank });
    }

    /// `counter ID "NAME" START { min N; max N; owner shared; reset round }`.
    pub(super) fn counter(&mut self, node: &Node, setup: &mut Setup) {
        let before = setup.counters.len();
        super::setup::counter(node, setup, self.diagnostics);
        if setup.counters.len() > before {
            if let Some(counter) = setup.counters.last_mut() {
                self.read_body(node, counter);
                let owned = (counter.side.is_some() && counter.owner == Owner::Shared).then(|| counter.id.clone());
                if let Some(id) = owned {
                    self.diagnostics.push(super::setup::shared_of_a_side(node, "counter", &id));
                }
            }
        }
    }

    /// `marker ID "NAME" { doc "…" }`.
    pub(super) fn marker(&mut self, node: &Node, setup: &mut Setup) {
        if let Some(at) = super::setup::marker(node, setup, self.diagnostics) {
            self.read_body(node, &mut setup.markers[at]);
        }
    }

    /// `min N` or `max N` of a counter.
    pub(super) fn bound(&mut self, node: &Node, counter: &mut Counter) {
        let n = match node.values.as_slice() {
            [Value { kind: ValueKind::Int(n) | ValueKind::Signed(n), .. }] => *n,
            _ => {
                self.diagnostics.push(bad_line(
                    node.head_span(),
                    format!("`{}` takes a number", node.name.text),
                    format!("write `{} 6`", node.name.text),
                ));
                return;
            }
        };
        if node.name.text == "min" {
            counter.min = n;
        } else {
            counter.max = Some(n);
        }
    }

    /// `owner shared` of a counter.
    pub(super) fn counter_owner(&mut self, node: &Node, counter: &mut Counter) {
        counter.owner = match node.values.first().and_then(word).as_deref() {
            Some("each") => Owner::Each,
            Some("shared") => Owner::Shared,
            _ => {
                self.diagnostics.push(bad_line(
                    node.head_span(),
                    "a counter's owner is `each` (every player has one) or `shared` (one for the table)",
                    "write `owner shared`",
                ));
                return;
            }
        };
    }

    /// `reset round` of a counter.
    pub(super) fn reset(&mut self, node: &Node, counter: &mut Counter) {
        match node.values.first().and_then(word).as_deref() {
            Some("round") if node.values.len() == 1 => counter.reset_each_round = true,
            _ => self.diagnostics.push(bad_line(
                node.head_span(),
                "a counter resets at the end of every round: `reset round`",
                "write `reset round`",
            )),
        }
    }
}
