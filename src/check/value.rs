//! Gives a type to each value a card writes, against the field's declared
//! type in the ruleset.

use super::codes;
use super::game::{CardContext, GameChecker};
use crate::diagnostics::Diagnostic;
use crate::ir::{Decimal, Initiative, Spanned, Value};
use crate::ruleset::model::{KeywordDef, Repeat, Type, TypeSpec};
use crate::ruleset::names::{article, suggest};
use crate::source::Span;
use crate::syntax::ast::{self, Node, ValueKind};

impl GameChecker<'_> {
    /// Types a node's values against a list of type specs.
    pub(super) fn values(&mut self, specs: &[TypeSpec], node: &Node, card: &CardContext) -> Vec<Spanned<Value>> {
        let enums = self.names_as_printed(std::borrow::Cow::Borrowed(&node.values), specs);
        let keywords;
        let values: &[ast::Value] = if specs.iter().any(|s| s.ty == Type::Keyword) {
            keywords = self.keywords_as_printed(&enums, card);
            &keywords
        } else {
            &enums
        };
        let mut typed = Vec::with_capacity(values.len());
        let needed = specs.iter().filter(|s| s.repeat != Repeat::ZeroOrMore).count();
        if values.len() < needed {
            let expected: Vec<String> = specs.iter().map(|s| s.ty.describe()).collect();
            let found = match values.len() {
                0 => "none".to_string(),
                n => n.to_string(),
            };
            // `at least` where a value may repeat (`initiative+`).
            let least = if specs.iter().any(|s| s.repeat != Repeat::One) { "at least " } else { "" };
            let values_word = if needed == 1 { "value" } else { "values" };
            self.report(
                Diagnostic::error(
                    &codes::WRONG_VALUE_COUNT,
                    format!("`{}` takes {least}{needed} {values_word}, found {found}", node.name.text),
                )
                .primary(node.head_span(), format!("expected {least}{needed} {values_word}"))
                .note(format!("`{}` takes: {}", node.name.text, expected.join(", "))),
            );
            return typed;
        }
        let mut next = 0;
        for (i, spec) in specs.iter().enumerate() {
            let later_ones = specs[i + 1..].iter().filter(|s| s.repeat == Repeat::One).count();
            let available = values.len().saturating_sub(next);
            let take = match spec.repeat {
                Repeat::One => 1.min(available),
                Repeat::OneOrMore | Repeat::ZeroOrMore => available.saturating_sub(later_ones),
            };
            let needed = usize::from(spec.repeat != Repeat::ZeroOrMore);
            if take < needed {
                let expected: Vec<String> = specs.iter().map(|s| s.ty.describe()).collect();
                let at = values.last().map(|v| v.span).unwrap_or(node.name.span);
                self.report(
                    Diagnostic::error(
                        &codes::WRONG_VALUE_COUNT,
                        format!("`{}` is missing {}", node.name.text, spec.ty.describe()),
                    )
                    .primary(at, format!("expected {} after this", spec.ty.describe()))
                    .note(format!("`{}` takes: {}", node.name.text, expected.join(", "))),
                );
                return typed;
            }
            for value in &values[next..next + take] {
                if let Some(v) = self.value(spec, value, card) {
                    typed.push(Spanned::new(v, value.span));
                }
            }
            if spec.ty == Type::Keyword {
                self.no_keyword_twice(&values[next..next + take]);
            }
            next += take;
        }
        if next < values.len() {
            let extra = &values[next];
            let span = extra.span.to(values[values.len() - 1].span).unwrap_or(extra.span);
            let takes = if specs.is_empty() {
                "no values".to_string()
            } else {
                specs.iter().map(|s| s.ty.describe()).collect::<Vec<_>>().join(", ")
            };
            self.report(
                Diagnostic::error(&codes::WRONG_VALUE_COUNT, format!("too many values for `{}`", node.name.text))
                    .primary(span, "not expected here")
                    .note(format!("`{}` takes {takes}", node.name.text)),
            );
        }
        typed
    }

    /// Reports a keyword written twice among one field's values, by name
    /// (`volley` and `volley` or `aegis(1)` and `aegis(2)`).
    fn no_keyword_twice(&mut self, written: &[ast::Value]) {
        let mut first_of: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
        for value in written {
            let name = match &value.kind {
                ValueKind::Ident(name) => name.as_str(),
                ValueKind::Call { name, .. } => name.text.as_str(),
                _ => continue,
            };
            match first_of.get(name) {
                Some(first) => self.report(
                    Diagnostic::error(&codes::DUPLICATE_KEYWORD, format!("the keyword `{name}` is listed twice"))
                        .primary(value.span, "listed again here")
                        .secondary(*first, "first listed here")
                        .help("remove one of them"),
                ),
                None => {
                    first_of.insert(name, value.span);
                }
            }
        }
    }

    /// Types one value; reports and returns `None` when it does not fit.
    pub(super) fn value(&mut self, spec: &TypeSpec, value: &ast::Value, card: &CardContext) -> Option<Value> {
        if value.kind == ValueKind::Invalid {
            // The parser reported it: one mistake, one report.
            return None;
        }
        if let Some(special) = self.special(spec, value) {
            return Some(special);
        }
        if let Type::Enum(id) | Type::Set(id) = &spec.ty {
            // A type the ruleset does not declare is reported at the
            // ruleset, once, not at every card that gives the field.
            self.ruleset.enum_values(id)?;
        }
        let typed = match (&spec.ty, &value.kind) {
            (Type::Int, ValueKind::Int(n)) => Value::Int(*n),
            (Type::Signed, ValueKind::Signed(n)) => Value::Signed(*n),
            (Type::Decimal, ValueKind::Decimal(d)) => Value::Decimal(*d),
            (Type::Decimal, ValueKind::Int(n)) => Value::Decimal(Decimal { units: *n, scale: 0 }),
            (Type::Distance, ValueKind::Distance(d)) => Value::Distance(*d),
            (Type::Save, ValueKind::PlusAfter(n)) => Value::Save { save: *n, passive: None },
            (Type::Save, ValueKind::SavePair(a, b)) => Value::Save { save: *a, passive: Some(*b) },
            (Type::Dice, ValueKind::Dice { count, sides, modifier }) => {
                Value::Dice { count: *count, sides: *sides, modifier: *modifier }
            }
            (Type::Dice, ValueKind::Int(n)) => Value::Dice { count: 0, sides: 0, modifier: *n },
            (Type::Range, ValueKind::Range { low, high }) => Value::Range { low: *low, high: *high },
            (Type::Range, ValueKind::Int(n)) => Value::Range { low: *n, high: Some(*n) },
            (Type::Grade, ValueKind::Ident(text) | ValueKind::Word(text)) => match grade(text) {
                Some(g) => g,
                None => {
                    self.wrong_type(&spec.ty, value);
                    return None;
                }
            },
            (Type::Set(id), _) => return self.set(id, value),
            (Type::Coord, ValueKind::Coord(q, r)) => Value::Coord { q: *q, r: *r },
            (Type::String | Type::Image, ValueKind::String(s)) => Value::String(s.clone()),
            (Type::Text, ValueKind::String(_)) => Value::Text(self.text(value)),
            (Type::Ident | Type::NewKeyword, ValueKind::Ident(s)) => Value::Name(s.clone()),
            (Type::Initiative, _) => return self.initiative(value).map(Value::Initiative),
            (Type::Keyword, _) => return self.keyword(value, card),
            (ty, ValueKind::Ident(name)) if is_name_type(ty) => return self.name(ty, name, value),
            // A printed name with a bracket or a sign: `Narrow (Long+)`; or
            // with an `&`, which reads as a set: `Missiles & Torpedoes`.
            (ty, ValueKind::Call { .. } | ValueKind::Word(_) | ValueKind::SlashList(_)) if is_name_type(ty) => {
                self.printed_name_value(ty, value)?
            }
            (ty, _) => {
                self.wrong_type(ty, value);
                return None;
            }
        };
        if let Value::Dice { count: 1.., sides, .. } = typed {
            if !self.ruleset.dice.is_empty() && !self.ruleset.dice.contains(&sides) {
                self.die_not_of_the_game(sides, value.span);
                return None;
            }
        }
        self.within_bounds(spec, &typed, value.span).then_some(typed)
    }

    /// The id of a name of the ruleset written as printed, where the text
    /// reads as another kind of value (a bracket, a sign, an `&`); reports
    /// and returns `None` when it is no name of the type.
    fn printed_name_value(&mut self, ty: &Type, value: &ast::Value) -> Option<Value> {
        let written = self.files.text(value.span);
        let id = match &value.kind {
            ValueKind::SlashList(_) => super::game::printed::printed_name_of_run(self.ruleset, ty, written),
            _ => super::game::printed::printed_name(self.ruleset, ty, written),
        };
        if id.is_none() {
            self.wrong_type(ty, value);
        }
        id.map(Value::Name)
    }

    /// Whether a typed value keeps within the spec's bounds (a dice roll
    /// with every total it can give); reports it when it does not.
    fn within_bounds(&mut self, spec: &TypeSpec, typed: &Value, span: Span) -> bool {
        let (Some((low, high)), Some((least, most))) = (spec.bounds, extremes(typed)) else { return true };
        if least >= low && high.is_none_or(|h| most <= h) {
            return true;
        }
        let bounds = match high {
            Some(h) if h == low => format!("{low}"),
            Some(h) => format!("from {low} to {h}"),
            None => format!("at least {low}"),
        };
        let found = match typed {
            Value::Dice { count, sides, modifier } if *count > 0 => {
                format!("a roll of `{}` can be {least} to {most}", dice_text(*count, *sides, *modifier))
            }
            Value::Distance(d) => format!("{d}\" is out of bounds"),
            _ => format!("{least} is out of bounds"),
        };
        self.report(
            Diagnostic::error(&codes::OUT_OF_BOUNDS, format!("{found}: the value must be {bounds}"))
                .primary(span, format!("must be {bounds}")),
        );
        false
    }

    fn die_not_of_the_game(&mut self, sides: i64, span: Span) {
        let dice: Vec<String> = self.ruleset.dice.iter().map(|n| format!("`D{n}`")).collect();
        self.report(
            Diagnostic::error(&codes::DIE_NOT_OF_THE_GAME, format!("`{}` rolls no `D{sides}`", self.ruleset.id))
                .primary(span, "not a die of the game")
                .help(match dice.as_slice() {
                    [one] => format!("the game rolls only {one}: write a roll of it"),
                    [rest @ .., last] => {
                        format!("the game rolls {} and {last}: write a roll of one of them", rest.join(", "))
                    }
                    [] => String::new(),
                }),
        );
    }

    /// A special value (`-`, `*`) the spec accepts, as written.  A token the
    /// spec does not accept is typed as any other value (an initiative's `X`
    /// stays a step even where a ruleset declares `X`), and only then
    /// refused, by [`Self::wrong_type`].
    fn special(&self, spec: &TypeSpec, value: &ast::Value) -> Option<Value> {
        if spec.specials.is_empty() || matches!(value.kind, ValueKind::String(_)) {
            return None;
        }
        let text = self.files.text(value.span);
        if !spec.specials.iter().any(|t| t == text) {
            return None;
        }
        let known = self.ruleset.specials.iter().find(|s| s.token == text)?;
        Some(Value::Special { token: known.token.clone(), meaning: known.meaning })
    }

    pub(super) fn wrong_type(&mut self, ty: &Type, value: &ast::Value) {
        let found = self.files.text(value.span);
        let special = self.ruleset.specials.iter().any(|s| s.token == found);
        let help = match (ty, &value.kind) {
            (Type::Save, ValueKind::Int(n)) => Some(format!("a save is written with `+`: `{n}+`")),
            (Type::Signed, ValueKind::Int(n)) => Some(format!("write the sign: `+{n}`")),
            (Type::Distance, ValueKind::Int(n)) => Some(format!("a distance is in inches: `{n}\"`")),
            (Type::Text | Type::String | Type::Image, _) => Some(format!("put text in quotes: `\"{found}\"`")),
            (Type::Int, ValueKind::Signed(n)) if *n >= 0 => Some(format!("write the number without a sign: `{n}`")),
            _ if special => Some(format!(
                "this value does not take `{found}`: write {}, or accept the token in the ruleset: `{} or \"{found}\"`",
                ty.describe(),
                ty.name()
            )),
            _ => None,
        };
        let found_what = if special { "the special value" } else { value.kind.describe() };
        let mut diagnostic =
            Diagnostic::error(&codes::WRONG_TYPE, format!("expected {}, found {found_what} `{found}`", ty.describe()))
                .primary(value.span, format!("expected {}", ty.describe()));
        if let Some(help) = help {
            diagnostic = diagnostic.help(help);
        }
        if let Type::Enum(id) | Type::Set(id) = ty {
            if let Some(def) = self.ruleset.enums.iter().find(|e| e.id == *id) {
                let values: Vec<String> = def
                    .values
                    .iter()
                    .map(|v| match def.label(v) {
                        Some(label) if label != v => format!("{v} ({label})"),
                        _ => v.clone(),
                    })
                    .collect();
                diagnostic = diagnostic.note(format!("the values are: {}", values.join(", ")));
            }
        }
        self.report(diagnostic);
    }

    fn initiative(&mut self, value: &ast::Value) -> Option<Initiative> {
        let Some(scale) = self.ruleset.initiative.clone() else {
            self.report(
                Diagnostic::error(
                    &crate::ruleset::codes::INITIATIVE_OFF_SCALE,
                    format!("the game `{}` declares no initiative scale", self.ruleset.id),
                )
                .primary(value.span, "no scale to place this on")
                .help("declare one in the ruleset: `initiative X from 5.9 to 0.0 by 0.1`"),
            );
            return None;
        };
        let off_scale = |this: &mut Self, help: String| {
            let text = this.files.text(value.span).to_string();
            this.report(
                Diagnostic::error(
                    &crate::ruleset::codes::INITIATIVE_OFF_SCALE,
                    format!("initiative `{text}` is not on the scale"),
                )
                .primary(value.span, "not a step of this game's initiative")
                .note(format!("the scale is {}", scale.describe()))
                .help(help),
            );
            None
        };
        match &value.kind {
            ValueKind::Ident(x) if x == "X" && scale.has_x => Some(Initiative::X),
            ValueKind::Ident(x) if x == "x" && scale.has_x => off_scale(self, "the first step is a capital `X`".into()),
            ValueKind::Int(n) if scale.whole_steps || scale.whole() => {
                match n.checked_mul(10).filter(|t| scale.contains(*t)) {
                    Some(t) => Some(Initiative::Step(t)),
                    None => off_scale(self, "pick a step on the scale".into()),
                }
            }
            ValueKind::Int(n) => {
                let fixed = n.checked_mul(10).filter(|t| scale.contains(*t));
                match fixed {
                    Some(_) => off_scale(self, format!("write every step with one decimal place: `{n}.0`")),
                    None => off_scale(self, "pick a step on the scale".into()),
                }
            }
            ValueKind::Decimal(d) => match d.tenths() {
                Some(t) if scale.contains(t) || scale.within_step(t) => Some(Initiative::Step(t)),
                Some(t) if scale.whole() && scale.contains(t - t.rem_euclid(10)) => off_scale(
                    self,
                    format!(
                        "this game's initiative is a whole number: write `{}`, or add `priority-digit` to the scale \
                         if a tenth orders values within a step",
                        t.div_euclid(10)
                    ),
                ),
                _ => off_scale(self, "pick a step on the scale".into()),
            },
            _ => {
                self.wrong_type(&Type::Initiative, value);
                None
            }
        }
    }

    /// A name that must be one of a declared set; an enum's value may be
    /// written in other letter case.
    fn name(&mut self, ty: &Type, name: &str, value: &ast::Value) -> Option<Value> {
        let ruleset = self.ruleset;
        let (candidates, code, what): (Vec<&str>, _, String) = match ty {
            Type::Symbol => (
                ruleset.symbols.iter().map(|s| s.id.as_str()).collect(),
                &codes::UNKNOWN_SYMBOL,
                "effect symbol".into(),
            ),
            Type::Arc => {
                (ruleset.arcs.iter().map(|s| s.id.as_str()).collect(), &codes::UNKNOWN_ARC, "firing arc".into())
            }
            Type::RangeBand => (
                ruleset.ranges.iter().map(|s| s.id.as_str()).collect(),
                &codes::UNKNOWN_RANGE_BAND,
                "range band".into(),
            ),
            Type::DeckSymbol => (
                ruleset.deck_symbols.iter().map(|s| s.id.as_str()).collect(),
                &codes::UNKNOWN_VALUE,
                "deck symbol".into(),
            ),
            Type::Kind => {
                (ruleset.kinds.iter().map(|s| s.id.as_str()).collect(), &codes::UNKNOWN_KIND, "card kind".into())
            }
            Type::Tag => (ruleset.tags.iter().map(|s| s.id.as_str()).collect(), &codes::UNKNOWN_TAG, "tag".into()),
            Type::Enum(id) => (
                ruleset.enum_values(id).unwrap_or_default().iter().map(String::as_str).collect(),
                &codes::UNKNOWN_VALUE,
                format!("`{id}` value"),
            ),
            _ => return None,
        };
        if candidates.contains(&name) {
            return Some(Value::Name(name.to_string()));
        }
        // An enum's value in other letter case, as printed (`[Ac]` for `ac`).
        if let Type::Enum(id) = ty {
            if let Some(same) = only_case_differs(name, ruleset.enum_values(id).unwrap_or_default()) {
                return Some(Value::Name(same.to_string()));
            }
        }
        // A name as a rulebook prints it (`Damage`, `Narrow (Long+)`).
        if let Some(id) = super::game::printed::printed_name(ruleset, ty, self.files.text(value.span)) {
            return Some(Value::Name(id));
        }
        self.report(
            Diagnostic::error(code, format!("unknown {what} `{name}`"))
                .primary(value.span, format!("not {} {what} of `{}`", article(&what), ruleset.id))
                .expected(&candidates, &format!("`{}` declares no {what}", ruleset.id))
                .suggest(suggest(name, candidates.iter().copied())),
        );
        None
    }

    /// `F/S(R)`, or a single `F` or `F(N)`, each item one of an enum's values.
    /// An item written in other letter case than the enum's (`Fighters` for
    /// `fighters`) is that value, when no other value differs from it only
    /// by case.
    fn set(&mut self, id: &str, value: &ast::Value) -> Option<Value> {
        let mut items: Vec<String> = match &value.kind {
            ValueKind::SlashList(items) => items.clone(),
            ValueKind::Ident(item) => vec![item.clone()],
            // `F(N)`, or `F (N)` as printed.
            ValueKind::Call { name, args } => {
                let args: Vec<&str> = args.iter().map(|a| self.files.text(a.span)).collect();
                vec![format!("{}({})", name.text, args.join(","))]
            }
            _ => {
                self.wrong_type(&Type::Set(id.to_string()), value);
                return None;
            }
        };
        let allowed = self.ruleset.enum_values(id).unwrap_or_default();
        let mut ok = true;
        for item in &mut items {
            if let Some(same) = only_case_differs(item, allowed) {
                *item = same.to_string();
            } else if let Some(printed) = (!allowed.contains(item))
                .then(|| super::game::printed::printed_name(self.ruleset, &Type::Set(id.to_string()), item))
                .flatten()
            {
                *item = printed;
            }
            if !allowed.contains(item) {
                ok = false;
                self.report(
                    Diagnostic::error(&codes::UNKNOWN_VALUE, format!("unknown `{id}` value `{item}`"))
                        .primary(value.span, format!("`{item}` is not one of the `{id}` values"))
                        .expected(allowed, "the enum has no values")
                        .suggest(suggest(item, allowed.iter().map(String::as_str))),
                );
            }
        }
        // `F/F`, `Fighters & Fighters`: a value given twice says nothing more.
        if let Some(twice) = items.iter().enumerate().find_map(|(i, item)| items[..i].contains(item).then_some(item)) {
            ok = false;
            self.report(
                Diagnostic::error(&codes::DUPLICATE_FIELD, format!("`{twice}` is given twice in this set"))
                    .primary(value.span, format!("`{twice}` twice"))
                    .help(format!("write each `{id}` value once")),
            );
        }
        ok.then_some(Value::Set(items))
    }

    /// Types a keyword and its arguments against the ruleset's declaration
    /// of it, or a deck keyword the card can see.
    fn keyword(&mut self, value: &ast::Value, card: &CardContext) -> Option<Value> {
        let (name, name_span, args) = match &value.kind {
            ValueKind::Ident(name) => (name.as_str(), value.span, &[][..]),
            ValueKind::Call { name, args } => (name.text.as_str(), name.span, args.as_slice()),
            _ => {
                self.wrong_type(&Type::Keyword, value);
                return None;
            }
        };
        let ruleset = self.ruleset;
        let Some(def) = ruleset.keyword(name) else {
            return self.undeclared_keyword(name, name_span, value, args, card);
        };
        if !def.only.is_empty() && !def.only.iter().any(|kind| card.kind == kind.as_str()) {
            self.report(
                Diagnostic::error(
                    &codes::NOT_ALLOWED_ON_KIND,
                    format!("`{name}` cannot appear on {} {} card", article(card.kind.id()), card.kind),
                )
                .primary(name_span, format!("only on: {}", def.only.join(", "))),
            );
        }
        if !self.keyword_argument_count(def, args.len(), value.span) {
            return None;
        }
        let typed = self.keyword_arguments(def, args, card);
        Some(Value::Keyword { id: name.to_string(), args: typed })
    }

    /// A keyword the ruleset does not declare: a deck keyword the card can
    /// see (which takes no arguments), or else reported as unknown, with
    /// the deck whose card declares it, a likely spelling, or how to
    /// declare one.
    fn undeclared_keyword(
        &mut self,
        name: &str,
        name_span: Span,
        value: &ast::Value,
        args: &[ast::Value],
        card: &CardContext,
    ) -> Option<Value> {
        let ruleset = self.ruleset;
        if self.deck_keyword_visible(name, card) {
            if !args.is_empty() {
                self.report(
                    Diagnostic::error(&codes::KEYWORD_ARGUMENTS, format!("deck keyword `{name}` takes no arguments"))
                        .primary(value.span, "remove the arguments"),
                );
            }
            return Some(Value::Keyword { id: name.to_string(), args: Vec::new() });
        }
        let candidates: Vec<&str> =
            ruleset.keywords.iter().map(|k| k.id.as_str()).chain(self.deck_keyword_names(card)).collect();
        let diagnostic = Diagnostic::error(&codes::UNKNOWN_KEYWORD, format!("unknown keyword `{name}`"))
            .primary(name_span, format!("not a keyword of `{}`", ruleset.id));
        // A keyword a System Card declares for another deck's cards.
        let spelled = super::game::printed::spelling(name);
        let other_deck = self.deck_keywords.iter().find(|k| {
            k.id == *name || k.display.as_deref().is_some_and(|d| super::game::printed::spelling(d) == spelled)
        });
        self.report(match (other_deck, suggest(name, candidates.iter().copied())) {
            (Some(keyword), _) => diagnostic.help(format!(
                "`{}` is a keyword of the cards with the symbol `{}`, whose card declares it; this card's symbol is `{}`",
                keyword.id,
                keyword.symbol.as_deref().unwrap_or("-"),
                card.symbol.as_deref().unwrap_or("-")
            )),
            (None, Some(meant)) => diagnostic.suggest(Some(meant)),
            // A rule of the designer's own is declared, not only written.
            (None, None) => diagnostic.help(format!(
                "a keyword of your own is declared in your project's ruleset: `keyword {}` (see docs/rulesets.md)",
                declaration_of(name)
            )),
        });
        None
    }

    /// Whether a keyword is given as many arguments as it declares (at
    /// least as many, when its last may repeat); reports it when not.
    fn keyword_argument_count(&mut self, def: &KeywordDef, given: usize, span: Span) -> bool {
        let takes_many = def.params.last().is_some_and(|p| p.ty.repeat != Repeat::One);
        let count_ok = if takes_many { given >= def.params.len() } else { given == def.params.len() };
        if !count_ok {
            let signature = signature(def);
            self.report(
                Diagnostic::error(
                    &codes::KEYWORD_ARGUMENTS,
                    format!(
                        "`{}` takes {}{} argument{}, found {given}",
                        def.id,
                        if takes_many { "at least " } else { "" },
                        def.params.len(),
                        if def.params.len() == 1 { "" } else { "s" },
                    ),
                )
                .primary(span, format!("expected `{signature}`")),
            );
        }
        count_ok
    }

    /// Types a keyword's arguments against its parameters (the last taking
    /// any beyond); a bad one is reported as an argument of the keyword and
    /// left out.
    fn keyword_arguments(&mut self, def: &KeywordDef, args: &[ast::Value], card: &CardContext) -> Vec<Spanned<Value>> {
        let mut typed = Vec::with_capacity(args.len());
        for (i, arg) in args.iter().enumerate() {
            let param = &def.params[i.min(def.params.len() - 1)];
            let spec = TypeSpec { repeat: Repeat::One, ..param.ty.clone() };
            let before = self.diagnostics.len();
            match self.value(&spec, arg, card) {
                Some(v) => typed.push(Spanned::new(v, arg.span)),
                None => {
                    // Say which keyword and parameter the bad argument belongs to.
                    if let Some(d) = self.diagnostics.get_mut(before) {
                        if d.code.id == codes::WRONG_TYPE.id {
                            d.code = &codes::KEYWORD_ARGUMENTS;
                            d.message = format!("argument `{}` of `{}`: {}", param.name, def.id, d.message);
                        }
                    }
                }
            }
        }
        typed
    }
}

/// The one value of `allowed` that `item` spells in other letter case, if
/// `item` is none of them itself.
fn only_case_differs<'a>(item: &str, allowed: &'a [String]) -> Option<&'a str> {
    if allowed.iter().any(|a| a == item) {
        return None;
    }
    let mut same = allowed.iter().filter(|a| a.eq_ignore_ascii_case(item));
    match (same.next(), same.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// The least and the most a bounded value can be, against whole-number
/// bounds: a number itself; a dice roll every total it can give (`D3+1`: 2
/// to 4); a distance its inches, rounded down and up (`4.5"`: 4 and 5, so
/// that it is below 5 and above 4).  Other values have no bounds.
fn extremes(value: &Value) -> Option<(i64, i64)> {
    match value {
        Value::Int(n) | Value::Signed(n) | Value::Save { save: n, .. } => Some((*n, *n)),
        Value::Distance(d) => {
            let pow = 10i64.checked_pow(u32::from(d.scale))?;
            let floor = d.units.div_euclid(pow);
            let ceil = if d.units.rem_euclid(pow) == 0 { floor } else { floor.saturating_add(1) };
            Some((floor, ceil))
        }
        Value::Dice { count, sides, modifier } => {
            let least = count.saturating_add(*modifier);
            let most = count.saturating_mul(*sides).saturating_add(*modifier);
            Some((least.min(most), least.max(most)))
        }
        _ => None,
    }
}

/// A dice roll as written: `D3`, `2D6+1`.
fn dice_text(count: i64, sides: i64, modifier: i64) -> String {
    let count = if count == 1 { String::new() } else { count.to_string() };
    match modifier {
        0 => format!("{count}D{sides}"),
        m if m > 0 => format!("{count}D{sides}+{m}"),
        m => format!("{count}D{sides}{m}"),
    }
}

fn is_name_type(ty: &Type) -> bool {
    matches!(ty, Type::Symbol | Type::Arc | Type::RangeBand | Type::DeckSymbol | Type::Kind | Type::Tag | Type::Enum(_))
}

fn signature(def: &KeywordDef) -> String {
    if def.params.is_empty() {
        return def.id.clone();
    }
    let params: Vec<String> = def
        .params
        .iter()
        .map(|p| {
            let repeat = match p.ty.repeat {
                Repeat::One => "",
                Repeat::OneOrMore => "+",
                Repeat::ZeroOrMore => "*",
            };
            format!("{}: {}{repeat}", p.name, p.ty.ty.name())
        })
        .collect();
    format!("{}({})", def.id, params.join(", "))
}

/// `B`, `A++`: one capital letter and any number of `+`.
pub(super) fn grade(text: &str) -> Option<Value> {
    let (letter, plus) = crate::ruleset::special::grade(text)?;
    Some(Value::Grade { letter: letter.to_string(), plus: plus as i64 })
}

/// How a keyword written on a card would be declared: `warp-drive "Warp
/// Drive"` for `Warp Drive` or `warp-drive`.
fn declaration_of(name: &str) -> String {
    let words: Vec<&str> = name.split([' ', '-']).filter(|w| !w.is_empty()).collect();
    let id = words.iter().map(|w| w.to_ascii_lowercase()).collect::<Vec<_>>().join("-");
    let capitalised = |w: &&str| {
        let mut chars = w.chars();
        chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
    };
    let display = match name.chars().any(|c| c.is_uppercase()) {
        true => name.to_string(),
        false => words.iter().map(capitalised).collect::<Vec<_>>().join(" "),
    };
    format!("{id} \"{display}\"")
}
