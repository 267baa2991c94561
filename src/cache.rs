//! What one check keeps for the next, so that checking again after an edit
//! does again only what the edit changed: an editor or `watch` checks on
//! every change, and most of a project stays as it was.
//!
//! A card is checked on its own against its game's ruleset and the deck
//! keywords every card declares; its lints read it, the ruleset and the
//! names of the game's cards.  So each result is kept under the card's
//! place ([`ItemKey`]) with its text, for a *context*: a fingerprint of all
//! it read besides.  When the context changes, the kept results are dropped;
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

/// Kept results, by game (its ruleset id).  The stage that makes the
/// results keeps them ([`crate::check`], [`crate::lint`]); the workspace
/// holds both between checks.
pub(crate) type ByGame<T> = HashMap<String, Kept<T>>;

/// The results of one game in one context, each with the text of the item
/// it was made from.
pub(crate) struct Kept<T> {
    context: u64,
    results: HashMap<Span, Entry<T>>,
    /// The number of the check that last renewed the results.
    generation: u32,
}

struct Entry<T> {
    text: Box<str>,
    result: T,
    /// The last check that used it.
    generation: u32,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept { context: 0, results: HashMap::new(), generation: 0 }
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

    /// The result kept for the item at `key`, if its text is unchanged.
    pub(crate) fn get(&self, files: &Files, key: ItemKey) -> Option<&T> {
        let entry = self.results.get(&key.0)?;
        (*entry.text == *files.text(key.0)).then_some(&entry.result)
    }

    /// The results of this check: those reused (`used`) and those made
    /// afresh; the others are dropped.
    pub(crate) fn renewed(mut self, files: &Files, used: Vec<ItemKey>, fresh: Vec<(ItemKey, T)>) -> Kept<T> {
        let generation = self.generation.wrapping_add(1);
        for key in used {
            if let Some(entry) = self.results.get_mut(&key.0) {
                entry.generation = generation;
            }
        }
        self.results.retain(|_, entry| entry.generation == generation);
        for (key, result) in fresh {
            self.results.insert(key.0, Entry { text: files.text(key.0).into(), result, generation });
        }
        self.generation = generation;
        self
    }
}

/// What checking one item gave: its card, if it is one, and its problems.
#[derive(Clone)]
pub(crate) struct Checked {
    /// Shared with the project the check made.
    pub card: Option<std::sync::Arc<Card>>,
    pub diagnostics: Vec<Diagnostic>,
}

/// An item by its place in the files table; its text is kept with its
/// result and compared when the result is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ItemKey(Span);

impl ItemKey {
    pub(crate) fn of(span: Span) -> ItemKey {
        ItemKey(span)
    }
}

/// A fingerprint of some texts, in order.
pub(crate) fn fingerprint<T: Hash>(parts: &[T]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
}
