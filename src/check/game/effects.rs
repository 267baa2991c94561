//! Checks the effect lines of a block against the ruleset's declarations:
//! `ROLE SYMBOL AMOUNT` lines, whose roles and symbols the ruleset declares;
//! `when CONDITION … { effects }` blocks, whose conditions are the built-in
//! range condition over the declared bands or a `condition` the ruleset
//! declares; `choose { … }` blocks of alternatives; and `then { … }`
//! steps, which resolve after the lines before them, in order.

use super::super::codes;
use super::{CardContext, GameChecker};
use crate::diagnostics::Diagnostic;
use crate::ir::{Body, Choice, Condition, Conditional, Effect, PerQuantity, Plus, StateArg, Value};
use crate::ruleset::model::{Schema, StateDef, Type, TypeSpec};
use crate::ruleset::names::{article, suggest};
use crate::source::Span;
use crate::syntax::ast::{self, Name, Node, ValueKind};

/// The words that start an effect construct other than an effect line.
pub(super) const CONSTRUCTS: [&str; 3] = ["when", "choose", "then"];

/// Where a block's first `then` step is, once one is met: a line after it
/// would read as part of a later step but resolves with the earlier ones.
#[derive(Default)]
pub(in crate::check) struct Order {
    then_at: Option<Span>,
    /// Each `when` line's condition as written, and where.
    whens: Vec<(String, Span)>,
}

impl GameChecker<'_> {
    /// Checks `node` into `body` when it is an effect line or construct of
    /// an effect block; `false` when it is none (a field, say).
    pub(in crate::check) fn effect_construct(
        &mut self,
        node: &Node,
        schema: &Schema,
        card: &CardContext,
        owner_name: &str,
        body: &mut Body,
        order: &mut Order,
    ) -> bool {
        let name = node.name.text.as_str();
        let is_effect = self.ruleset.role(name).is_some();
        // A field the block declares keeps its name: the constructs came
        // later, and a ruleset's own field must still mean what it said.
        if !is_effect && (!CONSTRUCTS.contains(&name) || schema.field(name).is_some()) {
            return false;
        }
        if let (Some(then_at), false) = (order.then_at, name == "then") {
            self.report(
                Diagnostic::warning(
                    &codes::LINE_AFTER_THEN,
                    format!("this `{name}` line resolves before the `then` step above it"),
                )
                .primary(node.head_span(), "written after a `then` step")
                .secondary(then_at, "the step it is written after")
                .help("move it into the `then` block, or above it"),
            );
        }
        match name {
            _ if is_effect => body.effects.extend(self.effect(node, card)),
            "when" => {
                self.condition_once(node, order);
                body.conditions.extend(self.when(node, schema, card, owner_name));
            }
            "choose" => body.choices.extend(self.choice(node, card, owner_name)),
            _ => {
                order.then_at.get_or_insert(node.head_span());
                body.then.extend(self.then(node, card, owner_name));
            }
        }
        true
    }

    /// `then { … }`: effects that resolve after the lines before it.
    fn then(&mut self, node: &Node, card: &CardContext, owner_name: &str) -> Option<Body> {
        let Some(block) = &node.block else {
            self.report(
                Diagnostic::error(&codes::BLOCK_MISMATCH, "`then` needs a block of effects")
                    .primary(node.head_span(), "expected `{` after this")
                    .help("write `then { ... }` around the effects that resolve next"),
            );
            return None;
        };
        if let Some(extra) = node.values.first() {
            self.report(
                Diagnostic::error(&codes::WRONG_VALUE_COUNT, "`then` takes no values, only its block")
                    .primary(extra.span, "not expected here"),
            );
        }
        if block.nodes.is_empty() {
            self.report(
                Diagnostic::warning(&codes::EMPTY_BLOCK, "`then` has an empty block")
                    .primary(block.span, "nothing in this block")
                    .help("write the effects that resolve next, or remove the line"),
            );
        }
        Some(self.body(&effects_only(), &block.nodes, node.head_span(), card, owner_name))
    }

    /// `ROLE SYMBOL AMOUNT`.
    pub(in crate::check) fn effect(&mut self, node: &Node, card: &CardContext) -> Option<Effect> {
        let role = node.name.text.clone();
        if !self.role_allowed(node, card) {
            return None;
        }
        let symbol_spec = TypeSpec::one(Type::Symbol);
        let Some(symbol_value) = node.values.first() else {
            self.report(
                Diagnostic::error(&codes::BAD_AMOUNT, format!("`{role}` needs a symbol and an amount"))
                    .primary(node.name.span, "expected a symbol after this")
                    .help(format!("write `{role} {} 3`", self.example_symbol())),
            );
            return None;
        };
        let symbol = match self.value(&symbol_spec, symbol_value, card)? {
            Value::Name(s) => s,
            _ => return None,
        };
        let quantity_alone = matches!(node.values.get(1).map(|v| &v.kind), Some(ValueKind::Ident(_)))
            && !self.ruleset.quantities.is_empty();
        let (amount, plus, per) = if quantity_alone {
            // `gain trade that-many`: a quantity in the amount's place.
            (1, Plus::None, Some(self.per_quantity(node, 1, true, card)?))
        } else {
            let (amount, plus) = self.amount(node, &role, &symbol)?;
            (amount, plus, self.per(node, card)?)
        };
        if let Some(block) = &node.block {
            self.report(
                Diagnostic::error(&codes::BLOCK_MISMATCH, "an effect line does not take a block")
                    .primary(block.span, "remove this block"),
            );
        }
        Some(Effect { role, symbol, amount, plus, per: per.map(Box::new), span: node.head_span() })
    }

    /// Whether the card's kind allows the role of an effect line; reports
    /// it when not.
    fn role_allowed(&mut self, node: &Node, card: &CardContext) -> bool {
        let role = &node.name.text;
        let ruleset = self.ruleset;
        let Some(kind) = ruleset.kind_of(&card.kind) else { return true };
        if kind.roles.contains(role) {
            return true;
        }
        let colour = ruleset.role(role).and_then(|r| r.colour.as_deref());
        let named = colour.map_or(role.clone(), |colour| format!("{role} ({colour})"));
        self.report(
            Diagnostic::error(
                &codes::ROLE_NOT_ALLOWED,
                format!("{} {} cannot have {named} effects", article(&kind.display), kind.display),
            )
            .primary(node.name.span, format!("`{role}` is not allowed here"))
            .note(match kind.roles.as_slice() {
                [] => format!(
                    "{} {} allows no role: its kind has no `roles` line (`roles {role}` would allow this one)",
                    article(&kind.display),
                    kind.display
                ),
                roles => format!("{} {} allows: {}", article(&kind.display), kind.display, roles.join(", ")),
            }),
        );
        false
    }

    /// The first symbol the ruleset declares, for examples in help lines.
    fn example_symbol(&self) -> &str {
        self.ruleset.symbols.first().map_or("SYMBOL", |s| s.id.as_str())
    }

    /// The amount of an effect line: `3`, `3+` or `+3`, in a form the
    /// ruleset allows.
    fn amount(&mut self, node: &Node, role: &str, symbol: &str) -> Option<(i64, Plus)> {
        let (amount, form) = match node.values.get(1).map(|v| &v.kind) {
            Some(ValueKind::Int(n)) => (*n, Plus::None),
            Some(ValueKind::PlusAfter(n)) => (*n, Plus::After),
            Some(ValueKind::Signed(n)) if *n >= 0 => (*n, Plus::Before),
            // Already reported by the parser.
            Some(ValueKind::Invalid) => return None,
            Some(ValueKind::Signed(n)) => {
                let roles: Vec<&str> = self.ruleset.roles.iter().map(|r| r.id.as_str()).collect();
                self.report(
                    Diagnostic::error(&codes::OUT_OF_BOUNDS, format!("an effect cannot be negative ({n})"))
                        .primary(node.values[1].span, "negative amount")
                        .help(format!(
                            "an amount is zero or more; what takes away is said by the role (the roles are: {})",
                            roles.join(", ")
                        )),
                );
                return None;
            }
            Some(_) => {
                let value = &node.values[1];
                self.report(
                    Diagnostic::error(
                        &codes::BAD_AMOUNT,
                        format!(
                            "expected an amount like {}, found {} `{}`",
                            self.amount_examples(),
                            value.kind.describe(),
                            self.files.text(value.span)
                        ),
                    )
                    .primary(value.span, "not an amount"),
                );
                return None;
            }
            None => {
                self.report(
                    Diagnostic::error(&codes::BAD_AMOUNT, format!("`{role} {symbol}` needs an amount"))
                        .primary(node.head_span(), "expected an amount after this")
                        .help(format!("write `{role} {symbol} 3`")),
                );
                return None;
            }
        };
        if !self.ruleset.allows_amount(form) {
            let written = self.files.text(node.values[1].span);
            self.report(
                Diagnostic::error(
                    &codes::BAD_AMOUNT,
                    format!("`{}` writes no amounts like `{written}`", self.ruleset.id),
                )
                .primary(node.values[1].span, "not a form of amount this game declares")
                .note(format!("its amounts are written like {}", self.amount_examples())),
            );
            return None;
        }
        Some((amount, form))
    }

    /// The forms of amount the ruleset allows, as a reader writes them.
    fn amount_examples(&self) -> String {
        let forms: Vec<String> = self.ruleset.amount_examples().iter().map(|f| format!("`{f}`")).collect();
        match forms.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
            [] => "`3`".to_string(),
        }
    }

    /// What follows an effect's number: nothing, or `per QUANTITY ARGS…`.
    /// `None` when a quantity was named and did not check (reported).
    fn per(&mut self, node: &Node, card: &CardContext) -> Option<Option<PerQuantity>> {
        let Some(next) = node.values.get(2) else { return Some(None) };
        if next.kind == ValueKind::Ident("per".into()) {
            return self.per_quantity(node, 3, false, card).map(Some);
        }
        self.report(
            Diagnostic::error(&codes::WRONG_VALUE_COUNT, "an effect line is `ROLE SYMBOL AMOUNT`")
                .primary(next.span, "not expected here")
                .help("an amount that depends on the game is written `AMOUNT per QUANTITY`"),
        );
        Some(None)
    }

    /// The quantity written at `at` in an effect line, with its values.
    fn per_quantity(&mut self, node: &Node, at: usize, alone: bool, card: &CardContext) -> Option<PerQuantity> {
        let Some(head) = node.values.get(at) else {
            self.report(
                Diagnostic::error(&codes::UNKNOWN_QUANTITY, "`per` needs a quantity")
                    .primary(node.values[at - 1].span, "expected a quantity after this")
                    .note(format!("the quantities are: {}", self.quantity_names().join(", "))),
            );
            return None;
        };
        let def = match &head.kind {
            ValueKind::Ident(name) => self.ruleset.quantity(name),
            _ => None,
        };
        let Some(def) = def else {
            let names = self.quantity_names();
            let written = self.files.text(head.span);
            let listed = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            self.report(
                Diagnostic::error(&codes::UNKNOWN_QUANTITY, format!("unknown quantity `{written}`"))
                    .primary(head.span, format!("not a quantity of `{}`", self.ruleset.id))
                    .note(format!("the quantities are: {listed}"))
                    .help("an amount is a number like `3`, `3+` or `+3`, or a quantity the ruleset declares")
                    .suggest(suggest(written, names.iter().copied())),
            );
            return None;
        };
        let args = self.state_args(def, head, &node.values[at + 1..], card)?;
        Some(PerQuantity { quantity: def.id.clone(), args, alone })
    }

    fn quantity_names(&self) -> Vec<&str> {
        self.ruleset.quantities.iter().map(|q| q.id.as_str()).collect()
    }

    /// `when CONDITION ARGS… { effects }`.
    pub(in crate::check) fn when(
        &mut self,
        node: &Node,
        schema: &Schema,
        card: &CardContext,
        owner_name: &str,
    ) -> Option<Conditional> {
        // `when ally gain coin 1`: the effect line after the condition
        // belongs in its block.
        let role_at = (1..node.values.len()).find(|&from| self.is_role_at(node, from));
        if let (None, Some(from)) = (&node.block, role_at) {
            self.effect_line_without_block(node, from);
            return None;
        }
        let condition = self.condition(node, card)?;
        let Some(block) = &node.block else {
            self.report(
                Diagnostic::error(&codes::BLOCK_MISMATCH, "`when` needs a block of effects")
                    .primary(node.head_span(), "expected `{` after this"),
            );
            return None;
        };
        if block.nodes.is_empty() && !block.broken {
            self.empty_block(node, "`when` has an empty block", "write the effects that apply while it holds");
        }
        self.under_condition = true;
        let body = self.body(schema, &block.nodes, node.head_span(), card, owner_name);
        Some(Conditional { condition, body })
    }

    /// Whether the value at `at` of a line names a role of the ruleset.
    fn is_role_at(&self, node: &Node, at: usize) -> bool {
        matches!(node.values.get(at).map(|v| &v.kind), Some(ValueKind::Ident(role)) if self.ruleset.role(role).is_some())
    }

    /// Warns of a second `when` block of one body under the same condition.
    fn condition_once(&mut self, node: &Node, order: &mut Order) {
        let (Some(first), Some(last)) = (node.values.first(), node.values.last()) else { return };
        let Some(span) = first.span.to(last.span) else { return };
        let written = crate::syntax::ast::single_spaced(self.files.text(span));
        match order.whens.iter().find(|(condition, _)| *condition == written) {
            Some((_, first_at)) => self.report(
                Diagnostic::warning(&codes::REPEATED_CONDITION, format!("a second `when {written}` block"))
                    .primary(node.head_span(), "the same condition again")
                    .secondary(*first_at, "first here")
                    .help("merge the two blocks, or correct this condition"),
            ),
            None => order.whens.push((written, node.head_span())),
        }
    }

    /// Warns of a block that holds nothing: it does nothing on the card.
    fn empty_block(&mut self, node: &Node, message: &str, help: &str) {
        let span = node.block.as_ref().map_or(node.head_span(), |b| b.span);
        self.report(
            Diagnostic::warning(&codes::EMPTY_BLOCK, message)
                .primary(span, "nothing in this block")
                .help(format!("{help}, or remove the line")),
        );
    }

    /// The condition a `when` line names: `range BAND` over the declared
    /// bands, or a condition the ruleset declares with its arguments.
    fn condition(&mut self, node: &Node, card: &CardContext) -> Option<Condition> {
        let name = match node.values.first().map(|v| (&v.kind, v.span)) {
            Some((ValueKind::Ident(name), _)) => name,
            found => {
                let at = found.map_or(node.name.span, |(_, span)| span);
                let known = self.condition_names();
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_CONDITION, "`when` needs the name of a condition")
                        .primary(at, "expected a condition here")
                        .note(format!("the conditions are: {}", known.join(", ")))
                        .help(format!("write `when {} … {{ ... }}`", known.first().unwrap_or(&"CONDITION"))),
                );
                return None;
            }
        };
        if name == "range" {
            return self.range_condition(node);
        }
        match self.ruleset.condition(name) {
            Some(def) => self.declared_condition(def, node, card),
            None => {
                self.unknown_condition(name, &node.values[0]);
                None
            }
        }
    }

    /// The conditions a card of this game may write after `when`.
    fn condition_names(&self) -> Vec<&str> {
        let range = (!self.ruleset.ranges.is_empty()).then_some("range");
        range.into_iter().chain(self.ruleset.conditions.iter().map(|c| c.id.as_str())).collect()
    }

    fn unknown_condition(&mut self, name: &str, at: &ast::Value) {
        let known = self.condition_names();
        let listed = if known.is_empty() { "none".to_string() } else { known.join(", ") };
        self.report(
            Diagnostic::error(&codes::UNKNOWN_CONDITION, format!("unknown condition `{name}`"))
                .primary(at.span, format!("not a condition of `{}`", self.ruleset.id))
                .note(format!("the conditions are: {listed}"))
                .help("a ruleset declares its conditions with `condition ID \"Printed text\" { param … }`")
                .suggest(suggest(name, known.iter().copied())),
        );
    }

    /// `when ID ARGS…`: each argument typed by the declared parameter at its
    /// place.
    fn declared_condition(&mut self, def: &StateDef, node: &Node, card: &CardContext) -> Option<Condition> {
        let args = self.state_args(def, &node.values[0], &node.values[1..], card)?;
        Some(Condition::Declared { id: def.id.clone(), args })
    }

    /// The values written after a declared condition or quantity (`head`),
    /// each typed by the declared parameter at its place.
    fn state_args(
        &mut self,
        def: &StateDef,
        head: &ast::Value,
        values: &[ast::Value],
        card: &CardContext,
    ) -> Option<Vec<StateArg>> {
        let span = values.last().and_then(|last| head.span.to(last.span)).unwrap_or(head.span);
        let args = Node {
            name: Name { text: def.id.clone(), span: head.span },
            values: values.to_vec(),
            block: None,
            expr: None,
            span,
        };
        let specs: Vec<TypeSpec> = def.params.iter().map(|p| p.ty.clone()).collect();
        let typed = self.values(&specs, &args, card);
        // A value that did not type was reported; the condition or amount
        // is dropped with it rather than exported with a hole.
        if typed.len() != def.params.len() {
            return None;
        }
        Some(def.params.iter().zip(typed).map(|(p, value)| StateArg { param: p.name.clone(), value }).collect())
    }

    /// `range BAND`, `range BAND..` or `range BAND..BAND`.
    fn range_condition(&mut self, node: &Node) -> Option<Condition> {
        let Some(band) = node.values.get(1) else {
            self.report(
                Diagnostic::error(&codes::UNKNOWN_CONDITION, "`when range` needs a range band")
                    .primary(node.values[0].span, "expected a band after this")
                    .help("write a band such as `long`, or `long..` for Long or further"),
            );
            return None;
        };
        let (from, to, open) = match &band.kind {
            ValueKind::Ident(b) => (b.clone(), None, false),
            ValueKind::BandRange { from, to } => (from.clone(), to.clone(), to.is_none()),
            _ => {
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_CONDITION, "expected a range band")
                        .primary(band.span, "not a band")
                        .help("write a band such as `long`, or `long..` for Long or further"),
                );
                return None;
            }
        };
        // A band may be written by its printed name: `when range Far..`.
        let by_name = |name: String| {
            super::printed::printed_name(self.ruleset, &crate::ruleset::model::Type::RangeBand, &name).unwrap_or(name)
        };
        let (from, to) = (by_name(from), to.map(by_name));
        let bands: Vec<&str> = self.ruleset.ranges.iter().map(|b| b.id.as_str()).collect();
        for name in std::iter::once(&from).chain(to.as_ref()) {
            if !bands.contains(&name.as_str()) {
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_RANGE_BAND, format!("unknown range band `{name}`"))
                        .primary(band.span, format!("not a range band of `{}`", self.ruleset.id))
                        .note(format!("the bands are: {}", bands.join(", ")))
                        .suggest(suggest(name, bands.iter().copied())),
                );
                return None;
            }
        }
        if let Some(to) = &to {
            let at = |band: &str| self.ruleset.ranges.iter().find(|b| b.id == band).map(|b| b.low);
            if at(&from) > at(to) {
                self.report(
                    Diagnostic::error(&codes::BACKWARDS_RANGE, format!("the range `{from}..{to}` runs backwards"))
                        .primary(band.span, "the nearer band comes first")
                        .help(format!("write `{to}..{from}`")),
                );
                return None;
            }
        }
        Some(Condition::Range { from, to, open })
    }

    /// `choose { … }`: each line one option (an effect line or a `when`
    /// block), or `option { … }` for several lines as one.
    pub(in crate::check) fn choice(&mut self, node: &Node, card: &CardContext, owner_name: &str) -> Option<Choice> {
        let Some(block) = &node.block else {
            self.report(
                Diagnostic::error(&codes::BLOCK_MISMATCH, "`choose` needs a block of options")
                    .primary(node.head_span(), "expected `{` after this")
                    .help("write `choose { OPTION; OPTION }`, one effect line or `option { ... }` for each"),
            );
            return None;
        };
        if let Some(extra) = node.values.first() {
            self.report(
                Diagnostic::error(&codes::WRONG_VALUE_COUNT, "`choose` takes no values, only its block")
                    .primary(extra.span, "not expected here"),
            );
        }
        let mut options: Vec<Body> = Vec::new();
        for line in &block.nodes {
            let lines = match (line.name.text.as_str(), &line.block) {
                ("option", Some(inner)) if inner.nodes.is_empty() && !inner.broken => {
                    self.empty_block(line, "this option is empty", "write the effects the player picks");
                    continue;
                }
                ("option", Some(inner)) => inner.nodes.as_slice(),
                ("then", _) => {
                    self.then_in_choice(line, node);
                    continue;
                }
                _ => std::slice::from_ref(line),
            };
            let option = self.body(&effects_only(), lines, line.head_span(), card, owner_name);
            options.push(option);
        }
        if options.len() < 2 {
            self.report(
                Diagnostic::error(
                    &codes::TOO_FEW_OPTIONS,
                    format!("`choose` offers {} option{}", options.len(), if options.len() == 1 { "" } else { "s" }),
                )
                .primary(node.head_span(), "a choice needs at least two options")
                .help("add another option, or write the option's lines without `choose`"),
            );
        }
        Some(Choice { options, span: node.head_span() })
    }
}

impl GameChecker<'_> {
    /// A `then` inside `choose` would be read as one more option, not as a
    /// step after the choice: it is refused where it stands.
    fn then_in_choice(&mut self, line: &Node, choose: &Node) {
        self.report(
            Diagnostic::error(&codes::BLOCK_MISMATCH, "`then` inside `choose` is not an option")
                .primary(line.head_span(), "a step after the choice belongs after the `choose` block")
                .secondary(choose.head_span(), "the choice")
                .help("move the `then { … }` block below the `choose` block, or make it an `option { … }`"),
        );
    }
}

/// What a `choose` option or a `then` step holds: effects only, as a field
/// inside one would be no part of what the player picks or resolves next.
fn effects_only() -> Schema {
    Schema { effects: true, ..Schema::default() }
}
