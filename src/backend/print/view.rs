//! What a template sees: a card of the IR turned into plain data, every
//! value with its printed text and its rich text (icons, bold keywords,
//! coloured effects, initiative badges).  The rich text stays typed in the
//! card's [`Table`], ready for [`super::layout`]; the data holds handles
//! to it.
//!
//! Nothing here knows a game: names are looked up in the card's ruleset, and
//! every field the card's kind declares is present (an empty list when the
//! card leaves it out), so templates never meet an undefined field.

use super::fonts::Style;
use super::rich::{Handle, Line, Run, Table};
use crate::ir::{
    Body, Card, Choice, Condition, Effect, Field, Initiative, Plus, Spanned, StateArg, Text, TextPart, Value,
};
use crate::ruleset::model::{EnumDef, Ruleset, Schema, StateDef, Type};
use crate::source::Span;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Serialize)]
pub struct CardView {
    pub name: String,
    pub kind: String,
    pub kind_display: String,
    /// The kind's border colour as `#rrggbb`, and as the ruleset names it.
    pub border: String,
    pub border_name: String,
    pub tags: Vec<NamedView>,
    /// How many copies the card's deck holds, when a deck lists it.
    pub copies: Option<i64>,
    /// The deck symbol the card carries, if any.
    pub symbol: Option<NamedView>,
    /// Every field the kind declares, by name: the card's values in order.
    pub fields: BTreeMap<String, Vec<FieldView>>,
    /// Effect lines written directly in the card.
    pub effects: Vec<Handle>,
    /// What the card's own block states, in the order it resolves: its
    /// effects on one line, then each choice, each condition with what it
    /// holds, and each `then` step (see [`Viewer::paragraphs`]).
    pub paras: Vec<Handle>,
    /// Every field but text and the deck symbol as `Label: value`
    /// paragraphs, nested blocks included: what a generic template prints.
    pub lines: Vec<Handle>,
    /// The card's text fields, one paragraph each (labelled unless the
    /// field is called `text`).
    pub texts: Vec<Handle>,
    /// The card's manoeuvre dials, one for each `dial` of the ruleset whose
    /// field the card writes: grids for the `dial` function to draw.
    pub dials: Vec<DialView>,
    /// Position in the print job, from 1.
    pub number: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct NamedView {
    pub id: String,
    pub display: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FieldView {
    /// The field's name made readable: `line-of-fire` → `Line of fire`.
    pub label: String,
    /// The values as plain text, separated by spaces (`2 4 3.0`).
    pub text: String,
    pub values: Vec<ValueView>,
    /// The values as one paragraph of rich text.
    pub rich: Handle,
    /// `rich` followed by the block's effects on one line, then one
    /// paragraph per condition: ready for `text_box`.
    pub paras: Vec<Handle>,
    /// `paras` with the label in bold before the first: `Overload: …`.
    pub labelled: Vec<Handle>,
    /// The fields of the block as `Label: value` paragraphs, text last.
    pub lines: Vec<Handle>,
    pub body: Option<BodyView>,
    /// The block itself, by its number in the card's table, for the
    /// functions that draw one (`hexes`).
    pub block: Option<usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ValueView {
    /// The value's type: `int`, `initiative`, `name`, `keyword`, `text` …
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub text: String,
    /// For names: the id (`narrow`) beside the printed `text` (`Narrow`).
    pub id: Option<String>,
    pub rich: Handle,
    /// For an arc with angles: `[from, to]` in degrees clockwise from
    /// straight ahead, for the `arc` function to shade.
    pub angles: Option<[i64; 2]>,
}

/// A card's manoeuvre dial as a grid: its bearings across, its speeds down
/// (fastest first), and in each cell the manoeuvre there, if any.
#[derive(Clone, Debug, Serialize)]
pub struct DialView {
    pub id: String,
    pub display: String,
    pub bearings: Vec<NamedView>,
    pub speeds: Vec<i64>,
    /// `cells[row][column]`: the row of `speeds[row]`, the column of
    /// `bearings[column]`.
    pub cells: Vec<Vec<Option<DifficultyView>>>,
    /// Every difficulty, in the ruleset's order, for a legend.
    pub difficulties: Vec<DifficultyView>,
}

/// A difficulty as a dial prints it: its colour, and a mark of one or two
/// letters that tells it apart in black and white.
#[derive(Clone, Debug, Serialize)]
pub struct DifficultyView {
    pub id: String,
    pub display: String,
    pub colour: String,
    pub mark: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct BodyView {
    pub fields: BTreeMap<String, Vec<FieldView>>,
    pub effects: Vec<Handle>,
    pub conditions: Vec<ConditionView>,
    /// Each `choose` block as one line: its options joined by "or".
    pub choices: Vec<Handle>,
    /// Each `then` step as one line, in order: `Then:` and what it holds.
    pub then: Vec<Handle>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ConditionView {
    pub text: String,
    pub effects: Vec<Handle>,
}

/// A paragraph of a block, where it is written, and where the effect lines
/// it prints are.
pub(crate) type Para = (Line, Option<Span>, Vec<Span>);

/// A value as printed, before its rich text joins the card's table.
struct Printed {
    ty: &'static str,
    text: String,
    id: Option<String>,
    rich: Line,
}

/// Builds views of the cards of one game.
pub struct Viewer<'a> {
    pub ruleset: &'a Ruleset,
    /// Keywords that cards declare for their deck (`new-keyword` fields),
    /// by id, with the name the card gives them.
    deck_keywords: BTreeMap<String, String>,
}

impl<'a> Viewer<'a> {
    pub fn new(game: &'a crate::ir::Game) -> Viewer<'a> {
        let ruleset = &game.ruleset;
        let mut deck_keywords = BTreeMap::new();
        for card in &game.cards {
            let Some(schema) = ruleset.kind_of(&card.kind).map(|k| &k.schema) else { continue };
            for field in &card.body.fields {
                let declares = schema.field(&field.name).and_then(|d| d.schema.takes.first()).map(|t| &t.ty)
                    == Some(&Type::NewKeyword);
                if let (true, Some(Value::Name(id)), Some(Value::String(name))) =
                    (declares, field.first_value(), field.values.get(1).map(|v| &v.value))
                {
                    deck_keywords.insert(id.clone(), name.clone());
                }
            }
        }
        Viewer { ruleset, deck_keywords }
    }

    /// The card as templates see it, and the rich text its handles name.
    pub fn card(&self, card: &Card, copies: Option<i64>, number: usize) -> (CardView, Table) {
        let mut table = Table::default();
        let kind = self.ruleset.kind_of(&card.kind);
        let border_name = kind.and_then(|k| k.border.clone()).unwrap_or_else(|| "grey".into());
        let schema = kind.map(|k| &k.schema);
        let symbol = card.body.fields.iter().find_map(|f| match (f.first_value(), schema) {
            (Some(Value::Name(id)), Some(schema))
                if schema.field(&f.name).and_then(|d| d.schema.takes.first()).map(|t| &t.ty)
                    == Some(&Type::DeckSymbol) =>
            {
                Some(NamedView { id: id.clone(), display: self.display(id) })
            }
            _ => None,
        });
        let fields = self.fields(&card.body.fields, schema, &mut table);
        let mut lines = Vec::new();
        let mut texts = Vec::new();
        let skip = symbol.as_ref().map(|s| s.id.clone());
        let mut generic = Generic { table: &mut table, lines: &mut lines, texts: &mut texts };
        generic.add(&card.body.fields, &fields, skip.as_deref(), "");
        let effects = card.body.effects.iter().map(|e| table.add(self.effect(e), Some(e.span))).collect();
        let paras = self.paragraphs(Line::new(), None, Some(&card.body));
        let paras = paras.into_iter().map(|(p, at, covers)| table.add_covering(p, at, covers)).collect();
        let view = CardView {
            name: card.name.clone(),
            kind: card.kind.to_string(),
            kind_display: kind.map(|k| k.display.clone()).unwrap_or_else(|| card.kind.to_string()),
            border: colour(&border_name),
            border_name,
            tags: card.tags.iter().map(|t| NamedView { id: t.clone(), display: self.display(t) }).collect(),
            copies,
            symbol,
            fields,
            effects,
            paras,
            lines,
            texts,
            dials: self.dials(card),
            number,
        };
        (view, table)
    }

    fn fields(&self, fields: &[Field], schema: Option<&Schema>, table: &mut Table) -> BTreeMap<String, Vec<FieldView>> {
        let mut map: BTreeMap<String, Vec<FieldView>> = BTreeMap::new();
        if let Some(schema) = schema {
            for def in &schema.fields {
                map.entry(def.name.clone()).or_default();
            }
            if let Some(shape) = schema.shape.as_deref().and_then(|s| self.ruleset.shape(s)) {
                for def in &shape.fields {
                    map.entry(def.name.clone()).or_default();
                }
            }
        }
        for field in fields {
            let def = schema.and_then(|s| {
                s.field(&field.name).or_else(|| {
                    s.shape.as_deref().and_then(|n| self.ruleset.shape(n)).and_then(|sh| sh.field(&field.name))
                })
            });
            let inner = def.map(|d| self.inner_schema(&d.schema));
            let printed = def.and_then(|d| d.label.clone()).unwrap_or_else(|| label(&field.name));
            let view = self.field(field, inner.as_ref(), printed, table);
            map.entry(field.name.clone()).or_default().push(view);
        }
        map
    }

    /// A field's own schema with its shared shape's fields merged in.
    fn inner_schema(&self, schema: &Schema) -> Schema {
        let mut merged = schema.clone();
        if let Some(shape) = schema.shape.as_deref().and_then(|s| self.ruleset.shape(s)) {
            merged.fields.extend(shape.fields.iter().cloned());
            // The values a shape takes are typed by the shape, so that an
            // enum value there prints its label as it does anywhere else.
            if merged.takes.is_empty() {
                merged.takes.clone_from(&shape.takes);
            }
        }
        merged
    }

    /// A field's view; `printed` is what the face calls it.
    fn field(&self, field: &Field, schema: Option<&Schema>, printed: String, table: &mut Table) -> FieldView {
        let shown: Vec<(Printed, Span)> =
            field.values.iter().map(|v| (self.labelled(self.value(&v.value), &v.value, schema), v.span)).collect();
        let text = shown.iter().map(|(v, _)| v.text.as_str()).collect::<Vec<_>>().join(" ");
        let separator = if field.each_value().all(|v| matches!(v, Value::Keyword { .. })) { ", " } else { " " };
        let mut rich: Line = Vec::new();
        for (index, (value, _)) in shown.iter().enumerate() {
            if index > 0 {
                rich.push(Run::plain(separator));
            }
            rich.extend(value.rich.iter().cloned());
        }
        let written = values_span(&field.values);
        let body = field.body.as_ref().map(|b| self.body(b, schema, table));
        // The first paragraph is the field's line, written where its values
        // are (or the whole field, with its block); the others are its
        // block's choices, conditions and steps, each where it is written.
        let first_at = if body.is_some() { Some(field.span) } else { written };
        let paras = self.paragraphs(rich.clone(), first_at, field.body.as_deref());
        let mut labelled = paras.clone();
        if let Some((first, at, _)) = labelled.first_mut() {
            let separator = if first.is_empty() { "" } else { ": " };
            first.insert(0, Run::styled(format!("{printed}{separator}"), Style::Bold));
            *at = Some(field.span);
        }
        let mut lines = Vec::new();
        if let (Some(block), Some(view)) = (&field.body, &body) {
            let mut texts = Vec::new();
            Generic { table, lines: &mut lines, texts: &mut texts }.add(&block.fields, &view.fields, None, "");
            lines.extend(texts);
        }
        let paras_handles = paras.into_iter().map(|(p, at, covers)| table.add_covering(p, at, covers)).collect();
        let labelled = labelled.into_iter().map(|(p, at, covers)| table.add_covering(p, at, covers)).collect();
        let values = shown
            .into_iter()
            .map(|(v, span)| {
                let angles = v.id.as_deref().and_then(|id| self.arc_angles(id));
                ValueView { ty: v.ty, text: v.text, id: v.id, rich: table.add(v.rich, Some(span)), angles }
            })
            .collect();
        FieldView {
            label: printed,
            text,
            values,
            rich: table.add(rich, written),
            paras: paras_handles,
            labelled,
            lines,
            body,
            block: field.body.as_ref().map(|b| table.add_block(b)),
        }
    }

    /// What a block states, in the order it resolves, one paragraph each
    /// with where it is written: `first` (a field's values) followed by the
    /// block's effects on one line, then each choice, each condition with
    /// all its block holds, and each `then` step last, on a line of its
    /// own so that it visibly follows everything above it.
    pub(crate) fn paragraphs(&self, first: Line, at: Option<Span>, body: Option<&Body>) -> Vec<Para> {
        let mut first = first;
        let Some(body) = body else { return vec![(first, at, Vec::new())] };
        let effects_at = body.effects.iter().map(|e| e.span).reduce(|all, s| all.to(s).unwrap_or(all));
        let at = at.or(effects_at);
        for effect in &body.effects {
            if !first.is_empty() {
                first.push(Run::plain(" "));
            }
            first.extend(self.effect(effect));
        }
        let mut paras = Vec::new();
        if !first.is_empty() || at.is_some() {
            paras.push((first, at, body.effects.iter().map(|e| e.span).collect()));
        }
        for choice in &body.choices {
            let covers = choice.options.iter().flat_map(effect_spans).collect();
            paras.push((self.choice(choice), Some(choice.span), covers));
        }
        for conditional in &body.conditions {
            let mut line = vec![Run::styled(format!("{}:", self.condition(&conditional.condition)), Style::Italic)];
            let mut rest = Line::new();
            self.option(&conditional.body, &mut rest);
            if !rest.is_empty() {
                line.push(Run::plain(" "));
                line.extend(rest);
            }
            paras.push((line, stated_span(&conditional.body), effect_spans(&conditional.body)));
        }
        for step in &body.then {
            paras.push((self.then(step), stated_span(step), effect_spans(step)));
        }
        paras
    }

    fn body(&self, body: &Body, schema: Option<&Schema>, table: &mut Table) -> BodyView {
        let fields = self.fields(&body.fields, schema, table);
        let mut effects =
            |list: &[Effect]| -> Vec<Handle> { list.iter().map(|e| table.add(self.effect(e), Some(e.span))).collect() };
        let own = effects(&body.effects);
        let conditions = body
            .conditions
            .iter()
            .map(|c| ConditionView { text: self.condition(&c.condition), effects: effects(&c.body.effects) })
            .collect();
        let choices = body
            .choices
            .iter()
            .map(|c| {
                let covers = c.options.iter().flat_map(effect_spans).collect();
                table.add_covering(self.choice(c), Some(c.span), covers)
            })
            .collect();
        let then = body
            .then
            .iter()
            .map(|step| table.add_covering(self.then(step), stated_span(step), effect_spans(step)))
            .collect();
        BodyView { fields, effects: own, conditions, choices, then }
    }

    /// A `then` step as one line: `Then:` and its effects, conditions,
    /// choices and own steps.
    fn then(&self, step: &Body) -> Line {
        let mut line = vec![Run::styled("Then: ", Style::Italic)];
        self.option(step, &mut line);
        line
    }

    /// `choose { … }` as one line: its options joined by "or", an option
    /// that states more than one thing in brackets, so that "or" never
    /// splits it.
    fn choice(&self, choice: &Choice) -> Line {
        let mut line = Line::new();
        for (i, option) in choice.options.iter().enumerate() {
            if i > 0 {
                line.push(Run::styled(" or ", Style::Italic));
            }
            let mut shown = Line::new();
            self.option(option, &mut shown);
            if choice.options.len() > 1 && parts(option) > 1 {
                line.push(Run::plain("("));
                line.extend(shown);
                line.push(Run::plain(")"));
            } else {
                line.extend(shown);
            }
        }
        line
    }

    /// A body on one line (an option of a choice, a condition's block, a
    /// `then` step): its effects, its choices, its conditions, then its
    /// steps.  A choice among other things is in brackets, so that a step
    /// after it follows the whole choice, not its last option.
    fn option(&self, option: &Body, line: &mut Line) {
        let mut first = true;
        let mut separate = |line: &mut Line| {
            if !std::mem::take(&mut first) {
                line.push(Run::plain(", "));
            }
        };
        for effect in &option.effects {
            separate(line);
            line.extend(self.effect(effect));
        }
        let alone = parts(option) == 1;
        for nested in &option.choices {
            separate(line);
            let bracket = !alone && nested.options.len() > 1;
            if bracket {
                line.push(Run::plain("("));
            }
            line.extend(self.choice(nested));
            if bracket {
                line.push(Run::plain(")"));
            }
        }
        for conditional in &option.conditions {
            separate(line);
            line.push(Run::styled(format!("{}:", self.condition(&conditional.condition)), Style::Italic));
            let mut rest = Line::new();
            self.option(&conditional.body, &mut rest);
            if !rest.is_empty() {
                line.push(Run::plain(" "));
                line.extend(rest);
            }
        }
        for step in &option.then {
            if !line.is_empty() {
                line.push(Run::plain(". "));
            }
            line.extend(self.then(step));
        }
    }

    /// `impact damage 8+` → the role's mark, a bold `8+` and the damage icon,
    /// all in the role's colour.
    pub fn effect(&self, effect: &Effect) -> Line {
        let role = self.ruleset.role(&effect.role);
        let colour = colour(role.and_then(|r| r.colour.as_deref()).unwrap_or("black"));
        let amount = match effect.plus {
            Plus::None => effect.amount.to_string(),
            Plus::After => format!("{}+", effect.amount),
            Plus::Before => format!("{:+}", effect.amount),
        };
        let bold = |text: String| Run::Text { text, style: Some(Style::Bold), colour: Some(colour.clone()) };
        let symbol = if self.ruleset.is_icon(&effect.symbol) {
            Run::Icon { id: effect.symbol.clone(), colour: Some(colour.clone()) }
        } else {
            bold(format!(" {}", self.display(&effect.symbol)))
        };
        // An amount that depends on the game prints the quantity's text:
        // in the number's place (`that many`), or after the symbol (`1 card
        // for each base you have`).
        let per = effect.per.as_ref().map(|per| {
            let text = self.ruleset.quantity(&per.quantity).map(|q| self.declared_text(q, &per.args));
            (per.alone, text.unwrap_or_else(|| per.quantity.clone()))
        });
        let mut line = Line::new();
        // The role's mark comes first, so that the effect reads without its
        // colour (printed in black and white, or by a colour-blind player).
        if let Some(mark) = role.and_then(|r| r.mark.as_deref()) {
            line.push(Run::Icon { id: mark.to_string(), colour: Some(colour.clone()) });
        }
        // A role with neither colour nor mark would leave no trace: its
        // name says it (`Steal 1 coin`), so whose effect it is still reads.
        if let Some(role) = role.filter(|r| r.colour.is_none() && r.mark.is_none()) {
            line.push(Run::styled(format!("{} ", role.display), Style::Italic));
        }
        match per {
            // A named symbol brings its own space; an icon does not.
            Some((true, text)) if matches!(symbol, Run::Icon { .. }) => line.extend([bold(format!("{text} ")), symbol]),
            Some((true, text)) => line.extend([bold(text), symbol]),
            Some((false, text)) => line.extend([bold(amount), symbol, Run::plain(format!(" {text}"))]),
            None => line.extend([bold(amount), symbol]),
        }
        line
    }

    fn condition(&self, condition: &Condition) -> String {
        match condition {
            Condition::Range { from, to, open } => {
                let from_text = self.display(from);
                match (to, open) {
                    (_, true) => format!("{from_text}+"),
                    (Some(to), false) if to != from => format!("{from_text}–{}", self.display(to)),
                    _ => from_text,
                }
            }
            Condition::Declared { id, args } => match self.ruleset.condition(id) {
                Some(def) => self.declared_text(def, args),
                None => id.clone(),
            },
        }
    }

    /// A declared condition's or quantity's printed text, each `{param}`
    /// replaced by the printed argument; arguments the text does not place
    /// follow it.
    fn declared_text(&self, def: &StateDef, args: &[StateArg]) -> String {
        let mut text = def.display.clone();
        let mut unplaced = Vec::new();
        for arg in args {
            // The parameter's type gives an enum value its printed label.
            let param = def.params.iter().find(|p| p.name == arg.param);
            let takes = Schema { takes: param.map(|p| p.ty.clone()).into_iter().collect(), ..Schema::default() };
            let printed = self.labelled(self.value(&arg.value.value), &arg.value.value, Some(&takes)).text;
            let placeholder = format!("{{{}}}", arg.param);
            if text.contains(&placeholder) {
                text = text.replace(&placeholder, &printed);
            } else {
                unplaced.push(printed);
            }
        }
        unplaced.iter().fold(text, |text, arg| format!("{text} {arg}"))
    }

    fn value(&self, value: &Value) -> Printed {
        let (ty, text, id, rich): (&'static str, String, Option<String>, Option<Line>) = match value {
            Value::Int(n) => ("int", n.to_string(), None, None),
            Value::Signed(n) => ("signed", format!("{n:+}"), None, None),
            Value::Decimal(d) => ("decimal", d.to_string(), None, None),
            Value::Initiative(i) => {
                let (main, small) = self.initiative(*i);
                let text = match &small {
                    Some(s) => format!("{main}.{s}"),
                    None => main.clone(),
                };
                // One size for the step and its priority, with the point
                // between them: a small second digit read as `48` for `4.8`.
                let badge = vec![Run::Badge { text: text.clone(), fill: "#222".into() }];
                ("initiative", text, None, Some(badge))
            }
            Value::Distance(d) => ("distance", format!("{d}\""), None, None),
            Value::Save { save, passive } => {
                let text = match passive {
                    Some(p) => format!("{save}+/{p}+"),
                    None => format!("{save}+"),
                };
                ("save", text, None, None)
            }
            Value::Dice { sides: 0, modifier, .. } => ("dice", modifier.to_string(), None, None),
            Value::Dice { count, sides, modifier } => {
                let count = if *count == 1 { String::new() } else { count.to_string() };
                let modifier = if *modifier == 0 { String::new() } else { format!("{modifier:+}") };
                ("dice", format!("{count}D{sides}{modifier}"), None, None)
            }
            Value::Range { low, high } => {
                let text = match high {
                    Some(h) if h != low => format!("{low}-{h}"),
                    Some(_) => low.to_string(),
                    None => format!("{low}+"),
                };
                ("range", text, None, None)
            }
            Value::Coord { q, r } => ("coord", format!("{q},{r}"), None, None),
            Value::Text(t) => ("text", t.raw.clone(), None, Some(self.text(t))),
            Value::String(s) => ("string", s.clone(), None, None),
            Value::Name(id) => {
                let is_symbol = self.ruleset.symbols.iter().any(|s| &s.id == id);
                let rich = is_symbol.then(|| vec![Run::Icon { id: id.clone(), colour: None }]);
                ("name", self.display(id), Some(id.clone()), rich)
            }
            // Printed exactly as written; its meaning is in the engine data.
            Value::Special { token, .. } => ("special", token.clone(), None, None),
            Value::Keyword { id, args } => {
                let (text, rich) = self.keyword(id, args);
                ("keyword", text, Some(id.clone()), Some(rich))
            }
            Value::Set(items) => ("set", items.join("/"), None, None),
            Value::Grade { letter, plus } => {
                ("grade", format!("{letter}{}", "+".repeat((*plus).clamp(0, 8) as usize)), None, None)
            }
        };
        let rich = rich.unwrap_or_else(|| vec![Run::plain(text.clone())]);
        Printed { ty, text, id, rich }
    }

    /// `unstoppable(damage)` → `Unstoppable (damage)` in bold, its arguments
    /// as they print (an icon for a symbol).
    fn keyword(&self, id: &str, args: &[Spanned<Value>]) -> (String, Line) {
        let display = self
            .ruleset
            .keyword(id)
            .map(|k| k.display.clone())
            .or_else(|| self.deck_keywords.get(id).cloned())
            .unwrap_or_else(|| label(id));
        let mut rich = vec![Run::styled(display.clone(), Style::Bold)];
        if args.is_empty() {
            return (display, rich);
        }
        let shown: Vec<Printed> = args.iter().map(|a| self.value(&a.value)).collect();
        let text = format!("{display} ({})", shown.iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(", "));
        rich.push(Run::styled(" (", Style::Bold));
        for (index, arg) in shown.into_iter().enumerate() {
            if index > 0 {
                rich.push(Run::styled(", ", Style::Bold));
            }
            // An argument with no rich text of its own (an empty text) is
            // printed as its plain text, bold like its keyword.
            if arg.rich.is_empty() {
                rich.push(Run::styled(arg.text, Style::Bold));
            } else {
                rich.extend(arg.rich);
            }
        }
        rich.push(Run::styled(")", Style::Bold));
        (text, rich)
    }

    /// `view` with the printed labels of the field's enums (`ucm` → `UCM`)
    /// for a value of one, or for each item of a set of them.
    fn labelled(&self, mut view: Printed, value: &Value, schema: Option<&Schema>) -> Printed {
        let enums: Vec<&EnumDef> = schema
            .into_iter()
            .flat_map(|s| &s.takes)
            .filter_map(|t| match &t.ty {
                Type::Enum(name) | Type::Set(name) => self.ruleset.enums.iter().find(|e| &e.id == name),
                _ => None,
            })
            .collect();
        // A value the enum gives no label prints made readable, as a
        // field's name does (`trade-federation` → `Trade federation`).
        let label_of = |id: &str| {
            enums
                .iter()
                .find(|e| e.values.iter().any(|v| v == id))
                .map(|e| e.label(id).map_or_else(|| label(id), str::to_string))
        };
        let text = match value {
            Value::Name(id) => label_of(id),
            Value::Set(items) if items.iter().any(|i| label_of(i).is_some()) => {
                Some(items.iter().map(|i| label_of(i).unwrap_or_else(|| i.clone())).collect::<Vec<_>>().join("/"))
            }
            _ => None,
        };
        if let Some(text) = text {
            view.rich = vec![Run::plain(text.clone())];
            view.text = text;
        }
        view
    }

    /// The step and priority of an initiative: `X`; `2.4`; or, on a scale of
    /// whole steps with a priority digit, `5` and `9`.
    fn initiative(&self, initiative: Initiative) -> (String, Option<String>) {
        match initiative {
            Initiative::X => ("X".into(), None),
            Initiative::Step(tenths) => {
                let scale = self.ruleset.initiative.as_ref();
                let whole = scale.is_some_and(|s| s.whole_steps || s.priority_digit);
                let text = crate::ruleset::model::tenths(tenths);
                match (whole, text.split_once('.')) {
                    (true, Some((step, "0"))) => (step.to_string(), None),
                    (true, Some((step, priority))) => (step.to_string(), Some(priority.to_string())),
                    // A scale of whole numbers prints `4`, as the game does.
                    _ => (scale.map_or(text, |s| s.show(tenths)), None),
                }
            }
        }
    }

    fn text(&self, text: &Text) -> Line {
        let mut runs = Vec::new();
        for part in &text.parts {
            match part {
                TextPart::Plain(s) => runs.extend(tagged(s)),
                TextPart::Icon(id) => runs.push(Run::Icon { id: id.clone(), colour: None }),
                TextPart::CardRef(name) => runs.push(Run::styled(name.clone(), Style::Italic)),
            }
        }
        runs
    }

    /// An arc's angles, where the ruleset gives them.
    fn arc_angles(&self, id: &str) -> Option<[i64; 2]> {
        let angles = self.ruleset.arcs.iter().find(|a| a.id == id)?.angles?;
        Some([angles.from, angles.to])
    }

    /// The card's manoeuvre dials, as grids.
    fn dials(&self, card: &Card) -> Vec<DialView> {
        let mut views = Vec::new();
        for dial in &self.ruleset.dials {
            let lines: Vec<_> =
                card.body.fields.iter().filter(|f| f.name == dial.field).filter_map(Field::manoeuvre).collect();
            if lines.is_empty() {
                continue;
            }
            let (Some(bearings), Some(difficulties)) =
                (self.ruleset.enum_def(&dial.bearings), self.ruleset.enum_def(&dial.difficulties))
            else {
                continue;
            };
            let bearings: Vec<NamedView> =
                bearings.values.iter().map(|v| NamedView { id: v.clone(), display: enum_label(bearings, v) }).collect();
            let difficulties = difficulty_views(dial, difficulties);
            let [low, high] = dial.speeds;
            let speeds: Vec<i64> = (low..=high.min(low.saturating_add(20))).rev().collect();
            let cell = |speed: i64, bearing: &str| {
                let (.., difficulty) = lines.iter().find(|(s, b, _)| *s == speed && *b == bearing)?;
                difficulties.iter().find(|d| d.id == *difficulty).cloned()
            };
            let cells = speeds.iter().map(|&s| bearings.iter().map(|b| cell(s, &b.id)).collect()).collect();
            views.push(DialView {
                id: dial.id.clone(),
                display: dial.display.clone(),
                bearings,
                speeds,
                cells,
                difficulties,
            });
        }
        views
    }

    /// The printed name of an id the ruleset declares, else the id made readable.
    pub fn display(&self, id: &str) -> String {
        let r = self.ruleset;
        let found = r
            .symbols
            .iter()
            .chain(&r.icons)
            .chain(&r.arcs)
            .find(|n| n.id == id)
            .map(|n| n.display.clone())
            .or_else(|| r.deck_symbols.iter().find(|d| d.id == id).map(|d| d.display.clone()))
            .or_else(|| r.tag(id).map(|t| t.display.clone()))
            .or_else(|| r.kind(id).map(|k| k.display.clone()))
            .or_else(|| r.band(id).map(|b| b.display.clone()));
        found.unwrap_or_else(|| id.to_string())
    }
}

/// A dial's difficulties with their colours and marks: each mark the
/// shortest start of its label that no other difficulty's shares.
fn difficulty_views(dial: &crate::ruleset::model::Dial, difficulties: &EnumDef) -> Vec<DifficultyView> {
    let ids = &difficulties.values;
    let labels: Vec<String> = ids.iter().map(|id| enum_label(difficulties, id)).collect();
    let mark = |label: &str| {
        let chars: Vec<char> = label.chars().filter(|c| c.is_alphanumeric()).collect();
        let start = |n: usize, of: &str| of.chars().filter(|c| c.is_alphanumeric()).take(n).collect::<String>();
        let unique =
            (1..=chars.len().max(1)).find(|&n| labels.iter().filter(|l| start(n, l) == start(n, label)).count() == 1);
        let mark = start(unique.unwrap_or(chars.len()).min(3), label);
        let mut letters = mark.chars();
        letters.next().map(|c| c.to_uppercase().chain(letters).collect()).unwrap_or_default()
    };
    ids.iter()
        .zip(&labels)
        .map(|(id, label)| DifficultyView {
            id: id.clone(),
            display: label.clone(),
            colour: dial.colours.get(id).cloned().unwrap_or_else(|| "#ffffff".to_string()),
            mark: mark(label),
        })
        .collect()
}

/// A value of an enum as a face prints it: its label, else its id made
/// readable.
fn enum_label(def: &EnumDef, value: &str) -> String {
    def.label(value).map_or_else(|| label(value), str::to_string)
}

/// How many things a block states on one line: its effects, choices,
/// conditions and steps.
fn parts(body: &Body) -> usize {
    body.effects.len() + body.choices.len() + body.conditions.len() + body.then.len()
}

/// Where a block's statements are written, first to last: its effects,
/// choices and, within its conditions and steps, theirs.
pub(crate) fn stated_span(body: &Body) -> Option<Span> {
    let mut spans = body.effects.iter().map(|e| e.span).chain(body.choices.iter().map(|c| c.span)).collect::<Vec<_>>();
    spans.extend(body.conditions.iter().filter_map(|c| stated_span(&c.body)));
    spans.extend(body.then.iter().filter_map(stated_span));
    let first = *spans.iter().min_by_key(|s| s.start)?;
    spans.iter().try_fold(first, |all, s| all.to(*s))
}

/// Where each effect line of a block is written, its nested blocks'
/// included, in the order written.
pub fn effect_spans(body: &Body) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut blocks: Vec<&Body> = vec![body];
    while let Some(body) = blocks.pop() {
        spans.extend(body.effects.iter().map(|e| e.span));
        blocks.extend(body.fields.iter().filter_map(|f| f.body.as_deref()));
        blocks.extend(body.conditions.iter().map(|c| &c.body));
        blocks.extend(body.choices.iter().flat_map(|c| &c.options));
        blocks.extend(&body.then);
    }
    spans.sort_by_key(|s| s.start);
    spans
}

/// Where a field's values are written, first to last.
fn values_span(values: &[Spanned<Value>]) -> Option<Span> {
    let (first, last) = (values.first()?, values.last()?);
    first.span.to(last.span)
}

/// The `Label: value` paragraphs of fields, and their text paragraphs, as
/// a generic template prints them.
struct Generic<'t> {
    table: &'t mut Table,
    lines: &'t mut Vec<Handle>,
    texts: &'t mut Vec<Handle>,
}

impl Generic<'_> {
    /// Adds the paragraphs of `fields`, in the order written.
    fn add(&mut self, fields: &[Field], views: &BTreeMap<String, Vec<FieldView>>, skip: Option<&str>, prefix: &str) {
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for field in fields {
            let index = seen.entry(field.name.as_str()).or_default();
            let Some(view) = views.get(&field.name).and_then(|v| v.get(*index)) else { continue };
            *index += 1;
            let all_text = !view.values.is_empty() && view.values.iter().all(|v| v.ty == "text");
            if all_text && view.body.is_none() {
                let mut para = Vec::new();
                if field.name != "text" {
                    para.push(Run::styled(format!("{prefix}{}: ", view.label), Style::Bold));
                }
                para.extend(self.table.runs(view.rich).iter().cloned());
                let handle = self.table.add(para, values_span(&field.values));
                // A block's text stays with the block's other lines; the
                // card's own texts come last.
                if prefix.is_empty() {
                    self.texts.push(handle);
                } else {
                    self.lines.push(handle);
                }
                continue;
            }
            if view.values.first().and_then(|v| v.id.as_deref()).is_some_and(|id| Some(id) == skip) {
                continue;
            }
            let mut first = vec![Run::styled(format!("{prefix}{}", view.label), Style::Bold)];
            let head = view.paras.first().map(|h| self.table.runs(*h)).filter(|p| !p.is_empty());
            if let Some(head) = head {
                first.push(Run::styled(": ", Style::Bold));
                first.extend(head.iter().cloned());
            }
            let covers = view.paras.first().map(|h| self.table.covers(*h).to_vec()).unwrap_or_default();
            let handle = self.table.add_covering(first, Some(field.span), covers);
            self.lines.push(handle);
            self.lines.extend(view.paras.iter().skip(1));
            if let (Some(body), Some(inner)) = (&field.body, &view.body) {
                self.add(&body.fields, &inner.fields, None, &format!("{prefix}{} – ", view.label));
            }
        }
    }
}

/// The fill of a printed tag's badge.
pub const TAG_FILL: &str = "#3a3f45";
/// The longest word a printed tag holds; longer brackets are text.
const TAG_CHARS: usize = 16;

/// Plain text with its printed tags (`[Fast]`: a short bracketed word, the
/// way card games print timings and keywords) as badges, so that a face
/// shows a tag and not its brackets.
fn tagged(text: &str) -> Line {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let inner = &rest[open + 1..];
        let Some(close) = inner.find(']') else { break };
        let word = &inner[..close];
        let is_tag = !word.is_empty()
            && word.chars().count() <= TAG_CHARS
            && word.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '-')
            && !word.starts_with(' ')
            && !word.ends_with(' ');
        let end = open + 1 + close + 1;
        if is_tag {
            if open > 0 {
                parts.push(Run::plain(&rest[..open]));
            }
            parts.push(Run::Badge { text: word.to_string(), fill: TAG_FILL.to_string() });
        } else {
            parts.push(Run::plain(&rest[..end]));
        }
        rest = &rest[end..];
    }
    if !rest.is_empty() {
        parts.push(Run::plain(rest));
    }
    parts
}

/// `line-of-fire` → `Line of fire`.
pub fn label(id: &str) -> String {
    let words = id.replace(['-', '_'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A colour of the ruleset (`#rrggbb`, or a name of its palette) as
/// `#rrggbb`; the ruleset reader refuses any other, so grey is only ever
/// the colour of a role or kind that names none.
pub fn colour(name: &str) -> String {
    crate::ruleset::palette::hex(name).unwrap_or_else(|| "#6b7075".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_tags_become_badges() {
        let badge = |text: &str| Run::Badge { text: text.into(), fill: TAG_FILL.into() };
        let parts = tagged("[Ac] Discard [2 cards]: [Weaken] a unit [");
        assert_eq!(parts[0], badge("Ac"));
        assert_eq!(parts[1], Run::plain(" Discard "));
        assert_eq!(parts[2], badge("2 cards"));
        assert_eq!(parts[3], Run::plain(": "));
        assert_eq!(parts[4], badge("Weaken"));
        assert_eq!(parts[5], Run::plain(" a unit ["));
        let long = tagged("[a bracket that is much too long to be a tag]");
        assert_eq!(long, vec![Run::plain("[a bracket that is much too long to be a tag]")]);
        assert_eq!(tagged("[ spaced ]"), vec![Run::plain("[ spaced ]")]);
    }

    /// A special value prints exactly as the card wrote it, whatever it
    /// means, and is typed as special for a template to tell it apart.
    #[test]
    fn special_values_print_as_written() {
        let mut workspace = crate::workspace::Workspace::new();
        workspace.add_text(
            "tokens.rules",
            "ruleset tokens {\n  title \"Tokens\"\n}\nspecial \"X\" see-text\n\
             kind unit \"Unit\" {\n  field power int or \"X\" \"-\"\n}\n",
        );
        workspace.add_text("units.cards", "game tokens\nunit \"A\" { power X }\nunit \"B\" { power - }\n");
        let outcome = workspace.check();
        assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics);
        let game = &outcome.project.games[0];
        let viewer = Viewer::new(game);
        let printed: Vec<(&str, String)> = game
            .cards
            .iter()
            .map(|card| {
                let (view, _) = viewer.card(card, None, 1);
                let value = &view.fields["power"][0].values[0];
                (value.ty, value.text.clone())
            })
            .collect();
        assert_eq!(printed, vec![("special", "X".to_string()), ("special", "-".to_string())]);
    }

    #[test]
    fn names_and_colours() {
        assert_eq!(label("line-of-fire"), "Line of fire");
        assert_eq!(colour("red-orange"), "#d9531e");
        assert_eq!(colour("#abc"), "#abc");
        assert_eq!(colour("#<script>"), "#6b7075");
        assert_eq!(colour("mauve"), "#6b7075");
    }
}
