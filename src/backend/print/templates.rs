//! The face templates: the bundled ones (compiled in) and a project's
//! overrides, in one tera instance with autoescaping on for `.svg`.
//!
//! A face of a card of kind K in ruleset R uses the first template found of
//! `R/K.svg`, `R/card.svg`, `common/card.svg`; its back the first of
//! `R/K-back.svg`, `R/back.svg`, `common/back.svg`.  A project overrides a
//! template by giving one with the same name (`templates/R/K.svg`); every
//! bundled template is also named `bundled/NAME`, so that an override can
//! extend the very template it replaces and change one block.  Icons
//! come from `common/icons.svg`, then `R/icons.svg` (whose symbols win).
//!
//! Every template runs confined and on a budget ([`super::sandbox`]).

use super::functions;
use super::icons::Icons;
use super::sandbox;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Every bundled template, by name.
pub use crate::bundled::TEMPLATES as BUNDLED;

pub struct Templates {
    tera: tera::Tera,
    names: BTreeMap<String, String>,
    icons: BTreeMap<String, Arc<Icons>>,
}

impl Templates {
    /// The bundled templates with `overrides` (name, text) replacing or
    /// adding to them.  Fails with tera's message when a template does not
    /// parse.
    pub fn new(overrides: &[(String, String)]) -> Result<Templates, String> {
        let mut names: BTreeMap<String, String> = BUNDLED.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
        names.extend(BUNDLED.iter().map(|(n, t)| (format!("bundled/{n}"), t.to_string())));
        for (name, text) in overrides {
            names.insert(name.clone(), text.clone());
        }
        let mut parents = std::collections::HashMap::new();
        for (name, text) in &names {
            if let Some(parent) = sandbox::check_source(name, text)? {
                parents.insert(name.clone(), parent);
            }
        }
        sandbox::check_extends(&parents)?;
        let mut tera = tera::Tera::default();
        tera.autoescape_on(vec![".svg"]);
        functions::register(&mut tera);
        sandbox::confine(&mut tera);
        let templates: Vec<(&str, &str)> = names.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        tera.add_raw_templates(templates).map_err(|e| sandbox::chain(&e))?;
        sandbox::check_calls(&tera)?;
        Ok(Templates { tera, names, icons: BTreeMap::new() })
    }

    /// The template of a card's front or back.
    pub fn face(&self, ruleset: &str, kind: &str, back: bool) -> Option<String> {
        let suffix = if back { "-back" } else { "" };
        let generic = if back { "back" } else { "card" };
        [format!("{ruleset}/{kind}{suffix}.svg"), format!("{ruleset}/{generic}.svg"), format!("common/{generic}.svg")]
            .into_iter()
            .find(|n| self.names.contains_key(n))
    }

    /// The icons a ruleset's faces draw with.
    pub fn icons(&mut self, ruleset: &str) -> Arc<Icons> {
        if let Some(icons) = self.icons.get(ruleset) {
            return icons.clone();
        }
        // Icon files are templates too, so one can include another's.
        let empty = tera::Context::new();
        let mut text = String::new();
        for name in ["common/icons.svg".to_string(), format!("{ruleset}/icons.svg")] {
            if self.names.contains_key(&name) {
                text.push_str(&sandbox::render(&self.tera, &name, &empty).unwrap_or_default());
            }
        }
        let icons = Arc::new(Icons::parse(&text));
        self.icons.insert(ruleset.to_string(), icons.clone());
        icons
    }

    pub fn render(&self, name: &str, context: &tera::Context) -> Result<String, String> {
        sandbox::render(&self.tera, name, context)
    }
}
