//! The effect vocabulary a ruleset declares beyond roles and symbols: the
//! conditions effect blocks may depend on, and the parameters those
//! conditions and keywords take.  Read here so that the loader's match over
//! declarations stays one line each.

use super::{children, Loader};
use crate::check::model::{ConditionDef, Param, Repeat};
use crate::check::names::{ident_at, string_at};
use crate::syntax::ast::Node;

/// Words a card writes after `when` that the checker itself reads: a
/// declared condition cannot take them.
const RESERVED_CONDITIONS: &[&str] = &["range"];

impl Loader<'_> {
    /// `condition ID "Printed text" { param NAME TYPE …; doc "…" }`.
    pub(super) fn condition_declaration(&mut self, node: &Node) -> Option<ConditionDef> {
        let (id, display) = self.id_and_display(node)?;
        if RESERVED_CONDITIONS.contains(&id.as_str()) {
            self.bad(
                node.values[0].span,
                format!("`when {id} …` is the built-in condition over range bands; give this condition another id"),
            );
            return None;
        }
        let mut condition = ConditionDef { id, display, params: Vec::new(), doc: None };
        // A condition with a broken parameter is reported and left out, so
        // that cards using it raise no follow-on errors about its values.
        let mut sound = true;
        for child in children(node) {
            match child.name.text.as_str() {
                "param" => match self.param(child) {
                    Some(param) if param.ty.repeat == Repeat::One => condition.params.push(param),
                    Some(_) => {
                        self.bad(
                            child.head_span(),
                            "a condition's parameter takes one value: `param NAME TYPE`, without `+` or `*`",
                        );
                        sound = false;
                    }
                    None => sound = false,
                },
                "doc" => condition.doc = string_at(child, 0).map(str::to_string),
                _ => self.unknown(child, &["param", "doc"]),
            }
        }
        sound &= self.placeholders_are_params(node, &condition);
        sound.then_some(condition)
    }

    /// `param NAME TYPE`: one parameter of a keyword or a condition.
    pub(super) fn param(&mut self, node: &Node) -> Option<Param> {
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
    fn placeholders_are_params(&mut self, node: &Node, condition: &ConditionDef) -> bool {
        let mut all = true;
        for name in placeholders(&condition.display) {
            if !condition.params.iter().any(|p| p.name == name) {
                let span = node.values.get(1).map_or(node.head_span(), |v| v.span);
                self.bad(span, format!("`{{{name}}}` names no parameter of condition `{}`", condition.id));
                all = false;
            }
        }
        all
    }
}

/// The names between braces in a printed text: `"in the {arc} arc"` → `arc`.
pub(crate) fn placeholders(text: &str) -> impl Iterator<Item = &str> {
    text.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name))
}
