//! The effect vocabulary a ruleset declares beyond roles and symbols: the
//! conditions effect blocks may depend on, the quantities their amounts may
//! count, the parameters those and keywords take, the effect lines that say
//! what a keyword does, and the forms an amount may take.
//! Read here so that the loader's match over declarations stays one line
//! each.

use super::Loader;
use crate::diagnostics::Diagnostic;
use crate::ruleset::codes;
use crate::ruleset::model::Plus;
use crate::ruleset::model::{
    AmountForm, KeywordAmount, KeywordArg, KeywordCondition, KeywordDef, KeywordEffect, Param, Repeat, Ruleset,
    StateDef, Type,
};
use crate::ruleset::names::{ident_at, string_at, suggest};
use crate::syntax::ast::{Node, ValueKind};

/// Words a card writes after `when` that the checker itself reads: a
/// declared condition cannot take them.
const RESERVED_CONDITIONS: &[&str] = &["range"];

impl Loader<'_> {
    /// `condition ID "Printed text" { param NAME TYPE …; doc "…" }`, or
    /// `quantity …` of the same shape.
    pub(in crate::ruleset) fn state_declaration(&mut self, node: &Node) -> Option<StateDef> {
        let what = node.name.text.as_str();
        let (id, display) = self.id_and_display(node)?;
        if what == "condition" && RESERVED_CONDITIONS.contains(&id.as_str()) {
            self.bad(
                node.values[0].span,
                format!("`when {id} …` is the built-in condition over range bands; give this condition another id"),
            );
            return None;
        }
        let declared = StateDef { id, display, params: Vec::new(), doc: None, means: None, span: node.head_span() };
        // A declaration with a broken parameter is reported and left out, so
        // that cards using it raise no follow-on errors about its values.
        let mut lines = StateLines { declared, sound: true, what: what.to_string() };
        self.read_body(node, &mut lines);
        let StateLines { declared, mut sound, .. } = lines;
        sound &= self.placeholders_are_params(node, &declared, what);
        sound.then_some(declared)
    }

    /// `param NAME TYPE` in a condition or quantity: one value each.
    pub(in crate::ruleset) fn state_param(&mut self, node: &Node, lines: &mut StateLines) {
        match self.param(node) {
            Some(param) if param.ty.repeat == Repeat::One => lines.declared.params.push(param),
            Some(_) => {
                let what = &lines.what;
                self.bad(
                    node.head_span(),
                    format!("a {what}'s parameter takes one value: `param NAME TYPE`, without `+` or `*`"),
                );
                lines.sound = false;
            }
            None => lines.sound = false,
        }
    }

    /// `amount 3+ "what it means"`: a form effect amounts may take, shown
    /// by example (`3`, `3+` or `+3`).
    pub(in crate::ruleset) fn amount_form(&mut self, node: &Node) -> Option<AmountForm> {
        let form = match node.values.first().map(|v| &v.kind) {
            Some(ValueKind::Int(_)) => Plus::None,
            Some(ValueKind::PlusAfter(_)) => Plus::After,
            Some(ValueKind::Signed(n)) if *n >= 0 => Plus::Before,
            _ => {
                let at = node.values.first().map_or(node.name.span, |v| v.span);
                self.bad(at, "an amount form is shown by example: `amount 3`, `amount 3+` or `amount +3`");
                return None;
            }
        };
        let meaning = string_at(node, 1).map(str::to_string);
        if let Some(extra) = node.values.get(1 + usize::from(meaning.is_some())) {
            self.bad(extra.span, "write `amount FORM \"what it means\"`: the form, then its meaning");
        }
        Some(AmountForm { form, meaning })
    }

    /// `param NAME TYPE`: one parameter of a keyword or a condition.
    pub(in crate::ruleset) fn param(&mut self, node: &Node) -> Option<Param> {
        let name = ident_at(node, 0).unwrap_or_default().to_string();
        match self.type_specs(node, 1).into_iter().next() {
            Some(ty) if !name.is_empty() => Some(Param { name, ty }),
            _ => {
                self.bad(node.head_span(), "a parameter needs a name and a type: `param hp int`");
                None
            }
        }
    }

    /// Every `{name}` in the printed text names a parameter, or faces
    /// would print the braces.
    fn placeholders_are_params(&mut self, node: &Node, declared: &StateDef, what: &str) -> bool {
        let mut all = true;
        for name in placeholders(&declared.display) {
            if !declared.params.iter().any(|p| p.name == name) {
                let span = node.values.get(1).map_or(node.head_span(), |v| v.span);
                self.bad(span, format!("`{{{name}}}` names no parameter of {what} `{}`", declared.id));
                all = false;
            }
        }
        all
    }
}

impl Loader<'_> {
    /// `effect ROLE SYMBOL AMOUNT` in a keyword: the amount a number (`3`,
    /// `3+`, `+3`) or the name of one of the keyword's parameters.
    pub(in crate::ruleset) fn keyword_effect(&mut self, node: &Node) -> Option<KeywordEffect> {
        let (Some(role), Some(symbol)) = (ident_at(node, 0), ident_at(node, 1)) else {
            self.bad(
                node.head_span(),
                "a keyword's effect is `effect ROLE SYMBOL AMOUNT`, the amount a number or a parameter",
            );
            return None;
        };
        let (amount, plus) = match node.values.get(2).map(|v| &v.kind) {
            Some(ValueKind::Int(n)) => (KeywordAmount::Fixed(*n), Plus::None),
            Some(ValueKind::PlusAfter(n)) => (KeywordAmount::Fixed(*n), Plus::After),
            Some(ValueKind::Signed(n)) if *n >= 0 => (KeywordAmount::Fixed(*n), Plus::Before),
            Some(ValueKind::Ident(param)) => (KeywordAmount::Param(param.clone()), Plus::None),
            _ => {
                let at = node.values.get(2).map_or(node.head_span(), |v| v.span);
                self.bad(at, "expected an amount: a number like `3`, `3+` or `+3`, or a parameter of the keyword");
                return None;
            }
        };
        if let Some(extra) = node.values.get(3) {
            self.bad(extra.span, "a keyword's effect is `effect ROLE SYMBOL AMOUNT`; nothing follows the amount");
        }
        let spans = [0, 1, 2].map(|i| node.values[i].span);
        Some(KeywordEffect { role: role.to_string(), symbol: symbol.to_string(), amount, plus, spans, when: None })
    }

    /// `when CONDITION VALUES… { effect … }` in a keyword: its effect lines,
    /// each under the condition.  The values are checked against the
    /// condition's parameters once every declaration is read.
    pub(in crate::ruleset) fn keyword_conditional(&mut self, node: &Node) -> Vec<KeywordEffect> {
        let Some(id) = ident_at(node, 0) else {
            self.bad(node.head_span(), "a keyword's condition is `when CONDITION VALUES… { effect … }`");
            return Vec::new();
        };
        let args = node.values[1..].iter().map(|v| match &v.kind {
            ValueKind::Ident(name) => Some(KeywordArg::Name(name.clone())),
            ValueKind::Int(n) => Some(KeywordArg::Int(*n)),
            _ => None,
        });
        let Some(args) = args.collect::<Option<Vec<KeywordArg>>>() else {
            self.bad(node.head_span(), "a keyword's condition takes names, numbers or the keyword's parameters");
            return Vec::new();
        };
        let spans = node.values.iter().map(|v| v.span).collect();
        let condition = KeywordCondition { id: id.to_string(), args, spans };
        let mut effects: Vec<KeywordEffect> = Vec::new();
        self.read_body(node, &mut effects);
        for effect in &mut effects {
            effect.when = Some(condition.clone());
        }
        effects
    }

    /// Each amount naming a parameter names one of the keyword's whole
    /// numbers, so that a card's argument is the effect's amount; a
    /// condition's value naming a parameter stands for it.
    pub(in crate::ruleset) fn keyword_effects_use_params(&mut self, keyword: &mut KeywordDef) {
        for condition in keyword.effects.iter_mut().filter_map(|e| e.when.as_mut()) {
            for arg in &mut condition.args {
                if let KeywordArg::Name(name) = arg {
                    if keyword.params.iter().any(|p| &p.name == name) {
                        *arg = KeywordArg::Param(std::mem::take(name));
                    }
                }
            }
        }
        for effect in &keyword.effects {
            let KeywordAmount::Param(name) = &effect.amount else { continue };
            match keyword.params.iter().find(|p| &p.name == name) {
                Some(param) if param.ty.ty == Type::Int && param.ty.repeat == Repeat::One => {}
                Some(param) => self.bad(
                    effect.spans[2],
                    format!(
                        "an effect's amount names a parameter of one whole number (`param {name} int`); \
                         `{name}` is `{}`",
                        param.ty.ty.name()
                    ),
                ),
                None => {
                    let params = keyword.params.iter().map(|p| p.name.as_str());
                    self.diagnostics.push(
                        Diagnostic::error(
                            &codes::BAD_RULESET,
                            format!("keyword `{}` has no parameter `{name}`", keyword.id),
                        )
                        .primary(effect.spans[2], "the amount names no parameter")
                        .help("declare it with `param NAME int`, or write a number")
                        .suggest(suggest(name, params)),
                    );
                }
            }
        }
    }

    /// A keyword's condition is declared and gets one value of the right
    /// type per parameter.
    fn keyword_condition_resolve(&mut self, ruleset: &Ruleset, keyword: &KeywordDef, condition: &KeywordCondition) {
        let Some(def) = ruleset.condition(&condition.id) else {
            let names = ruleset.conditions.iter().map(|c| c.id.as_str());
            self.diagnostics.push(
                Diagnostic::error(&codes::BAD_RULESET, format!("no condition is named `{}`", condition.id))
                    .primary(condition.spans[0], "not a condition of this ruleset")
                    .suggest(suggest(&condition.id, names)),
            );
            return;
        };
        if def.params.len() != condition.args.len() {
            let plural = if def.params.len() == 1 { "" } else { "s" };
            let (wanted, given) = (def.params.len(), condition.args.len());
            let message = format!("condition `{}` takes {wanted} value{plural}, given {given}", def.id);
            self.bad(condition.spans[0], message);
            return;
        }
        for ((param, arg), span) in def.params.iter().zip(&condition.args).zip(&condition.spans[1..]) {
            let fits = match arg {
                KeywordArg::Param(name) => keyword.params.iter().any(|p| &p.name == name && p.ty.ty == param.ty.ty),
                KeywordArg::Int(_) => param.ty.ty == Type::Int,
                KeywordArg::Name(name) => declared_names(ruleset, &param.ty.ty).contains(&name.as_str()),
            };
            if !fits {
                self.bad(*span, format!("`{}` takes {} here", def.id, param.ty.ty.describe()));
            }
        }
    }

    /// Each keyword effect's role and symbol are declared, once every
    /// declaration is read.
    pub(in crate::ruleset) fn keyword_effects_resolve(&mut self, ruleset: &Ruleset) {
        for keyword in &ruleset.keywords {
            let mut checked: Vec<&KeywordCondition> = Vec::new();
            for condition in keyword.effects.iter().filter_map(|e| e.when.as_ref()) {
                // The effects of one `when` block share its condition.
                if !checked.iter().any(|c| c.spans == condition.spans) {
                    self.keyword_condition_resolve(ruleset, keyword, condition);
                    checked.push(condition);
                }
            }
        }
        let roles: Vec<&str> = ruleset.roles.iter().map(|r| r.id.as_str()).collect();
        let symbols: Vec<&str> = ruleset.symbols.iter().map(|s| s.id.as_str()).collect();
        for effect in ruleset.keywords.iter().flat_map(|k| &k.effects) {
            let parts = [
                (&effect.role, &roles, "role", effect.spans[0]),
                (&effect.symbol, &symbols, "symbol", effect.spans[1]),
            ];
            for (name, declared, what, span) in parts {
                if !declared.contains(&name.as_str()) {
                    self.diagnostics.push(
                        Diagnostic::error(&codes::BAD_RULESET, format!("no {what} is named `{name}`"))
                            .primary(span, format!("not a {what} of this ruleset"))
                            .suggest(suggest(name, declared.iter().copied())),
                    );
                }
            }
        }
    }
}

/// The names a value of a name type may take in this ruleset.
fn declared_names<'r>(ruleset: &'r Ruleset, ty: &Type) -> Vec<&'r str> {
    let ids = |named: &'r [crate::ruleset::model::Named]| named.iter().map(|n| n.id.as_str()).collect();
    match ty {
        Type::Symbol => ids(&ruleset.symbols),
        Type::Arc => ids(&ruleset.arcs),
        Type::RangeBand => ruleset.ranges.iter().map(|b| b.id.as_str()).collect(),
        Type::Tag => ruleset.tags.iter().map(|t| t.id.as_str()).collect(),
        Type::Keyword => ruleset.keywords.iter().map(|k| k.id.as_str()).collect(),
        Type::Kind => ruleset.kinds.iter().map(|k| k.id.as_str()).collect(),
        Type::Enum(id) => ruleset.enum_values(id).unwrap_or_default().iter().map(String::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The names between braces in a printed text: `"in the {arc} arc"` → `arc`.
pub(crate) fn placeholders(text: &str) -> impl Iterator<Item = &str> {
    text.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name))
}

/// A condition or quantity while its block is read: whether every
/// parameter is sound.
pub struct StateLines {
    pub(in crate::ruleset) declared: StateDef,
    sound: bool,
    /// `condition` or `quantity`.
    what: String,
}
