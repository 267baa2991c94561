//! What one check keeps for the next, so that checking again after an edit
//! does again only what the edit changed: an editor or `watch` checks on
//! every change, and most of a project stays as it was.
//!
//! A card is checked on its own against its game's ruleset and the deck
//! keywords every card declares; its lints read it, the ruleset and the
//! names of the game's cards.  So each result is kept under the card's
//! place and text ([`ItemKey`]), for a *context*: a fingerprint of all it
//! read besides.  When the context changes, the kept results are dropped;
//! when a card's text or place changes, its key does, and it is checked
//! again.  Results no check asked for are dropped, so the cache holds one
//! project's worth at most.
//!
//! Deck rules, the names given twice and the lints about names read every
//! card: they run again on every check.

use crate::diagnostics::Diagnostic;
use crate::ir::Card;
use crate::source::{Files, Span};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Kept results, by game (its ruleset id).
#[derive(Default)]
pub struct Cache {
    pub(crate) checked: HashMap<String, Kept<Checked>>,
    pub(crate) linted: HashMap<String, Kept<crate::lint::KeptFindings>>,
}

/// The results of one game in one context.
pub(crate) struct Kept<T> {
    context: u64,
    results: HashMap<ItemKey, T>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept { context: 0, results: HashMap::new() }
    }
}

impl<T> Kept<T> {
    /// The results kept for `context`; none when it changed.
    pub(crate) fn for_context(mut self, context: u64) -> Kept<T> {
        if self.context != context {
            self.results.clear();
            self.context = context;
        }
        self
    }

    pub(crate) fn get(&self, key: &ItemKey) -> Option<&T> {
        self.results.get(key)
    }

    /// The results of this check: those reused and those made afresh.
    pub(crate) fn renewed(mut self, used: Vec<ItemKey>, fresh: Vec<(ItemKey, T)>) -> Kept<T> {
        let mut results: HashMap<ItemKey, T> = HashMap::with_capacity(used.len() + fresh.len());
        for key in used {
            if let Some(result) = self.results.remove(&key) {
                results.insert(key, result);
            }
        }
        results.extend(fresh);
        Kept { context: self.context, results }
    }
}

/// What checking one item gave: its card, if it is one, and its problems.
#[derive(Clone)]
pub(crate) struct Checked {
    pub card: Option<Card>,
    pub diagnostics: Vec<Diagnostic>,
}

/// An item by its place in the files table and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ItemKey {
    span: Span,
    text: u64,
}

impl ItemKey {
    pub(crate) fn of(files: &Files, span: Span) -> ItemKey {
        ItemKey { span, text: fingerprint(&[files.text(span)]) }
    }
}

/// A fingerprint of some texts, in order.
pub(crate) fn fingerprint<T: Hash>(parts: &[T]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
}
