//! Checking: resolves every name and types every value of the content files
//! against their game's ruleset, and builds the IR.
//!
//! Rulesets are loaded first ([`ruleset`]); then each game's cards are checked
//! ([`game`], [`effects`], [`value`], [`text`]) and its decks counted against the
//! construction rules ([`deck`], compiled and evaluated by [`rules`]).  All problems of the phase are
//! collected; nothing stops at the first.

pub mod builtin;
pub mod codes;
mod deck;
mod game;
mod includes;
mod play;
mod rules;
mod text;
mod value;

use crate::cache::{ByGame, Checked, ItemKey, Kept};
use crate::diagnostics::Diagnostic;
use crate::ir::{Game, Project};
use crate::ruleset::model::Ruleset;
pub use crate::ruleset::names::{suggest, Suggester};
use crate::source::{FileId, Files, Span};
use crate::syntax::ast::SourceTree;
pub use includes::MAX_DECK_CARDS;
use std::collections::HashMap;
use std::sync::Arc;

/// The `game` a content file names, if its first item is a `game` line.
pub fn game_of(tree: &SourceTree) -> Option<&str> {
    tree.nodes.first().filter(|n| n.name.text == "game").and_then(|n| crate::ruleset::names::id_at(n, 0))
}

/// The id a ruleset file declares, if it is one.
pub fn ruleset_id(tree: &SourceTree) -> Option<&str> {
    tree.nodes.first().filter(|n| n.name.text == "ruleset").and_then(|n| crate::ruleset::names::id_at(n, 0))
}

/// The id of the ruleset a ruleset file extends, if any.
pub fn extended_id(tree: &SourceTree) -> Option<&str> {
    crate::ruleset::extends(tree).map(|(id, _)| id)
}

/// Whether the file declares a ruleset.
pub fn is_ruleset(tree: &SourceTree) -> bool {
    tree.nodes.first().is_some_and(|n| n.name.text == "ruleset")
}

/// Checks every parsed file.  `trees` holds ruleset and content files alike.
pub fn check(files: &Files, trees: &[(FileId, SourceTree)], diagnostics: &mut Vec<Diagnostic>) -> Project {
    check_cached(files, trees, diagnostics, None)
}

/// Checks every parsed file, reusing what `cache` kept of a check before
/// for every card whose text, place and context are unchanged, and keeping
/// this check's results there for the next.  With the cache comes the
/// [`rules_fingerprint`] of the files, which the lints read too.
pub(crate) fn check_cached(
    files: &Files,
    trees: &[(FileId, SourceTree)],
    diagnostics: &mut Vec<Diagnostic>,
    mut cache: Option<(&mut ByGame<Checked>, u64)>,
) -> Project {
    let (rulesets, content) = load_rulesets(files, trees, diagnostics);
    let usual = usual_game(&content, &rulesets);
    let mut by_game: HashMap<usize, Vec<&SourceTree>> = HashMap::new();
    // The names a file of no known game gives its items: naming them
    // elsewhere is not a second mistake.
    let mut orphans: Vec<String> = Vec::new();
    for (file, tree) in content {
        match game_index(files, file, tree, &rulesets, usual, diagnostics) {
            Some(i) => by_game.entry(i).or_default().push(tree),
            None => orphans.extend(names_given(tree)),
        }
    }

    let mut project = Project {
        lost_names: trees.iter().flat_map(|(_, t)| t.unparsed_names.iter().cloned()).collect(),
        ..Project::default()
    };
    let mut games: Vec<(usize, Vec<&SourceTree>)> = by_game.into_iter().collect();
    games.sort_by_key(|(i, _)| *i);
    let mut used = vec![false; rulesets.len()];
    let mut checked = Vec::new();
    let rules = cache.as_ref().map_or(0, |(_, rules)| *rules);
    for (i, trees) in games {
        used[i] = true;
        let id = &rulesets[i].id;
        let kept = cache.as_mut().map(|(cache, _)| cache.remove(id).unwrap_or_default());
        let (game, problems, kept) = check_game(files, &rulesets[i], (&trees, &orphans), kept, rules);
        if let (Some((cache, _)), Some(kept)) = (cache.as_mut(), kept) {
            cache.insert(id.clone(), kept);
        }
        checked.push((i, game));
        diagnostics.extend(problems);
    }
    // Rulesets without content are still part of the project.
    let mut rulesets: Vec<Option<Ruleset>> = rulesets.into_iter().map(Some).collect();
    for (i, (cards, decks)) in checked {
        if let Some(ruleset) = rulesets[i].take() {
            project.games.push(Game { ruleset, cards, decks });
        }
    }
    for ruleset in rulesets.into_iter().flatten() {
        project.games.push(Game { ruleset, cards: Vec::new(), decks: Vec::new() });
    }
    project
}

/// Loads every ruleset file (a second of the same id is reported, not
/// loaded), and returns the rulesets with the content files left.
fn load_rulesets<'t>(
    files: &Files,
    trees: &'t [(FileId, SourceTree)],
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Ruleset>, Vec<(FileId, &'t SourceTree)>) {
    let mut rulesets: Vec<Ruleset> = Vec::new();
    let mut content: Vec<(FileId, &SourceTree)> = Vec::new();
    let ruleset_trees: Vec<(&str, &SourceTree)> = trees.iter().filter_map(|(_, t)| Some((ruleset_id(t)?, t))).collect();
    for (file, tree) in trees {
        if is_ruleset(tree) {
            let bases = bases_of(tree, &ruleset_trees, diagnostics);
            if let Some(ruleset) = crate::ruleset::load(files, *file, tree, &bases, diagnostics) {
                if let Some(first) = rulesets.iter().find(|r| r.id == ruleset.id) {
                    diagnostics.push(
                        Diagnostic::error(
                            &codes::DUPLICATE_RULESET,
                            format!("ruleset `{}` is declared twice", ruleset.id),
                        )
                        .primary(ruleset.span, "declared again here")
                        .secondary(first.span, "first declared here"),
                    );
                } else {
                    rulesets.push(ruleset);
                }
            }
        } else {
            content.push((*file, tree));
        }
    }
    (rulesets, content)
}

/// The index among `rulesets` of the game a content file names.  A file
/// that names none (reported unless it is blank) or names an unknown game
/// (reported) has none.
fn game_index(
    files: &Files,
    file: FileId,
    tree: &SourceTree,
    rulesets: &[Ruleset],
    usual: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let Some(header) = tree.nodes.first() else {
        let blank = files.get(file).text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with("//"));
        if blank {
            diagnostics.push(
                Diagnostic::error(&codes::MISSING_GAME, format!("`{}` has no cards", files.get(file).name))
                    .primary(Span::new(file, 0, 0), "nothing here")
                    .help(format!("a card file starts with the game it belongs to, like `game {usual}`")),
            );
        }
        return None;
    };
    let Some(id) = game_of(tree) else {
        diagnostics.push(
            Diagnostic::error(&codes::MISSING_GAME, "this file does not say which game it is for")
                .primary(header.head_span(), "expected `game NAME` before this")
                .help(format!("start the file with a line like `game {usual}`")),
        );
        return None;
    };
    let found = rulesets.iter().position(|r| r.id == id);
    if found.is_none() {
        let known: Vec<&str> =
            rulesets.iter().map(|r| r.id.as_str()).chain(builtin::ids().map(|id| -> &str { id })).collect();
        diagnostics.push(
            Diagnostic::error(&codes::UNKNOWN_GAME, format!("unknown game `{id}`"))
                .primary(header.values[0].span, "no ruleset has this id")
                .note(format!("bundled games: {}", builtin::ids().collect::<Vec<_>>().join(", ")))
                .suggest(suggest(id, known.iter().copied())),
        );
    }
    found
}

/// The game most content files name, for examples in messages: else a
/// game the project declares, else the first bundled one.
fn usual_game<'r>(content: &[(FileId, &SourceTree)], rulesets: &'r [Ruleset]) -> &'r str {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (_, tree) in content {
        if let Some(id) = game_of(tree) {
            *counts.entry(id).or_default() += 1;
        }
    }
    let bundled = |id: &str| builtin::ids().any(|b| b == id);
    let named = rulesets.iter().max_by_key(|r| (counts.get(r.id.as_str()).copied().unwrap_or(0), !bundled(&r.id)));
    named.map_or_else(|| builtin::ids().next().unwrap_or("my-game"), |r| r.id.as_str())
}

/// The names a file's items give themselves (cards and decks), those of
/// items that did not read included.
fn names_given(tree: &SourceTree) -> impl Iterator<Item = String> + '_ {
    let items = tree.nodes.iter().enumerate().filter(|(i, node)| *i > 0 || node.name.text != "game");
    let named = items.filter_map(|(_, node)| crate::ruleset::names::string_at(node, 0).map(str::to_string));
    named.chain(tree.unparsed_names.iter().cloned())
}

/// The trees a ruleset extends, outermost base first.
fn bases_of<'t>(
    tree: &SourceTree,
    rulesets: &[(&str, &'t SourceTree)],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<&'t SourceTree> {
    let mut bases: Vec<&'t SourceTree> = Vec::new();
    let mut current = crate::ruleset::extends(tree);
    while let Some((id, span)) = current {
        let Some((_, base)) = rulesets.iter().find(|(r, _)| *r == id) else {
            let known: Vec<&str> = rulesets.iter().map(|(r, _)| *r).collect();
            diagnostics.push(
                Diagnostic::error(&codes::UNKNOWN_GAME, format!("cannot extend unknown ruleset `{id}`"))
                    .primary(span, "no ruleset has this id")
                    .suggest(suggest(id, known.iter().copied())),
            );
            break;
        };
        if bases.iter().any(|b| std::ptr::eq(*b, *base)) || std::ptr::eq(*base, tree) || bases.len() >= 8 {
            diagnostics.push(
                Diagnostic::error(&crate::ruleset::codes::BAD_RULESET, format!("ruleset `{id}` extends itself"))
                    .primary(span, "this leads back to the ruleset"),
            );
            break;
        }
        bases.insert(0, base);
        current = crate::ruleset::extends(base);
    }
    bases
}

type GameContent = (Vec<Arc<crate::ir::Card>>, Vec<crate::ir::Deck>);

/// A fingerprint of every ruleset's text and place in the files table: a
/// card's check reads its game's ruleset and those it extends, and its
/// problems may point into them.
pub fn rules_fingerprint(files: &Files, trees: &[(FileId, SourceTree)]) -> u64 {
    let rulesets: Vec<(FileId, &str)> =
        trees.iter().filter(|(_, t)| is_ruleset(t)).map(|(f, _)| (*f, files.get(*f).text.as_str())).collect();
    crate::cache::fingerprint(&rulesets)
}

impl game::GameChecker<'_> {
    /// Checks one top-level item that is not a deck: the card it holds, if
    /// it holds one.
    fn item(&mut self, node: &crate::syntax::ast::Node) -> Option<crate::ir::Card> {
        let ruleset = self.ruleset;
        let word = node.name.text.as_str();
        if word == "game" {
            self.report(
                Diagnostic::error(&codes::MISSING_GAME, "a file names its game once, on its first line")
                    .primary(node.head_span(), "a second `game` line"),
            );
            return None;
        }
        let Some(index) = ruleset.kinds.iter().position(|k| k.id == word) else {
            let mut candidates: Vec<&str> = ruleset.kinds.iter().map(|k| k.id.as_str()).collect();
            for deck_type in &ruleset.deck_types {
                if !candidates.contains(&deck_type.word.as_str()) {
                    candidates.push(&deck_type.word);
                }
            }
            self.report(
                Diagnostic::error(&codes::UNKNOWN_KIND, format!("unknown card kind `{word}`"))
                    .primary(node.name.span, format!("not a card kind of `{}`", ruleset.id))
                    .expected(&candidates, &format!("`{}` declares no card kind", ruleset.id))
                    .suggest(suggest(word, candidates.iter().copied())),
            );
            return None;
        };
        self.card(node, index)
    }
}

fn check_game(
    files: &Files,
    ruleset: &Ruleset,
    (trees, orphans): (&[&SourceTree], &[String]),
    kept: Option<Kept<Checked>>,
    rules: u64,
) -> (GameContent, Vec<Diagnostic>, Option<Kept<Checked>>) {
    let mut checker = game::GameChecker::new(files, ruleset);
    checker.lost_names = trees.iter().flat_map(|t| t.unparsed_names.iter().cloned()).collect();
    checker.lost_names.extend(orphans.iter().cloned());
    let items: Vec<&crate::syntax::ast::Node> = trees.iter().flat_map(|t| t.nodes.iter().skip(1)).collect();

    first_pass(&mut checker, &items, trees);
    let kept = kept.map(|kept| kept.for_context(checker.context_fingerprint(rules)));

    // Second pass: every item on its own, spread over the cores; then, in
    // source order, the names given twice.
    let checker_ref = &checker;
    let kept_ref = kept.as_ref();
    let checked = crate::parallel::map(&crate::parallel::chunks(&items), |chunk| {
        let mut worker = checker_ref.fork();
        let mut share = Share::default();
        for node in chunk.iter() {
            if worker.is_deck_word(&node.name.text) {
                worker.read_deck(node, &mut share.decks);
            } else if let Some(kept) = kept_ref {
                worker.item_cached(node, kept, &mut share);
            } else if let Some(card) = worker.item(node) {
                share.cards.push((Arc::new(card), *node));
            }
        }
        share.diagnostics = worker.diagnostics;
        share
    });
    let (mut used, mut fresh) = (Vec::new(), Vec::new());
    let mut checked_cards = Vec::with_capacity(items.len());
    let mut deck_sources = Vec::new();
    for Share { cards, decks, diagnostics, used: reused, fresh: made } in checked {
        checker.diagnostics.extend(diagnostics);
        checked_cards.extend(cards);
        used.extend(reused);
        fresh.extend(made);
        // A chunk numbers its decks from 0: a deck defined inside another
        // is found by that number, so it moves with the chunk's place.
        let offset = deck_sources.len();
        deck_sources.extend(decks.into_iter().map(|mut deck| {
            deck.within = deck.within.map(|i| i + offset);
            for (_, _, inside) in &mut deck.includes {
                *inside = inside.map(|i| i + offset);
            }
            deck
        }));
    }
    let mut first_of: HashMap<&str, Span> = HashMap::with_capacity(checked_cards.len());
    let mut twice = vec![false; checked_cards.len()];
    for (i, (card, node)) in checked_cards.iter().enumerate() {
        let span = node.values[0].span;
        match first_of.get(card.name.as_str()) {
            Some(first) => {
                twice[i] = true;
                checker.report(
                    Diagnostic::error(&codes::DUPLICATE_CARD, format!("two cards are named `{}`", card.name))
                        .primary(span, "second card with this name")
                        .secondary(*first, "first card with this name")
                        .help("rename one; for several copies list the card in a deck with a count such as `x2`"),
                );
            }
            None => {
                first_of.insert(&card.name, span);
            }
        }
    }
    drop(first_of);
    let cards: Vec<Arc<crate::ir::Card>> =
        checked_cards.into_iter().zip(twice).filter(|(_, twice)| !twice).map(|((card, _), _)| card).collect();
    checker.broken_cards = with_errors(&cards, &checker.diagnostics);
    names_tested(ruleset, &cards, &mut checker.diagnostics);
    play::lacks(ruleset, &cards, &mut checker.diagnostics);
    let decks = checker.decks(&deck_sources, &cards);
    ((cards, decks), checker.diagnostics, kept.map(|kept| kept.renewed(files, used, fresh)))
}

/// The first pass over a game's items: what cards declare for others to
/// use (deck keywords), those lost to a mistake in their head or kind
/// included, and the names of cards and decks such a mistake leaves unread.
fn first_pass(checker: &mut game::GameChecker<'_>, items: &[&crate::syntax::ast::Node], trees: &[&SourceTree]) {
    let ruleset = checker.ruleset;
    for node in items {
        match ruleset.kind(&node.name.text) {
            Some(kind) => checker.collect_deck_keywords(node, Some(kind)),
            None if !checker.is_deck_word(&node.name.text) => {
                checker.collect_deck_keywords(node, None);
                checker.lost_names.extend(crate::ruleset::names::string_at(node, 0).map(str::to_string));
            }
            None => {
                let lost = checker.deck_of_unknown_type(node).map(str::to_string);
                checker.lost_names.extend(lost);
            }
        }
    }
    for node in trees.iter().flat_map(|t| t.lost_nodes.iter()) {
        checker.collect_deck_keywords(node, ruleset.kind(&node.name.text));
    }
}

/// Warns of each card name a rule tests that no card of the game has, nor
/// a row of one: `name == "Explorr"` would silently never match.
fn names_tested(ruleset: &Ruleset, cards: &[Arc<crate::ir::Card>], diagnostics: &mut Vec<Diagnostic>) {
    if ruleset.tested_names.is_empty() || cards.is_empty() {
        return;
    }
    let mut known: std::collections::HashSet<&str> = cards.iter().map(|card| card.name.as_str()).collect();
    let mut bodies: Vec<&crate::ir::Body> = cards.iter().map(|card| &card.body).collect();
    while let Some(body) = bodies.pop() {
        for field in &body.fields {
            if let Some(crate::ir::Value::String(first)) = field.values.first().map(|v| &v.value) {
                known.insert(first);
            }
            bodies.extend(field.body.as_deref());
        }
    }
    for (name, span) in &ruleset.tested_names {
        if !known.contains(name.as_str()) {
            let names = cards.iter().map(|card| card.name.as_str());
            diagnostics.push(
                Diagnostic::warning(
                    &codes::RULE_NAMES_NO_CARD,
                    format!("no card of `{}` is named `{name}`", ruleset.id),
                )
                .primary(*span, "no card, nor row of one, has this name")
                .suggest(suggest(name, names)),
            );
        }
    }
}

/// For each card, whether an error points inside it that leaves what the
/// card holds unknown (a card rule it breaks does not: it is read whole).
fn with_errors(cards: &[Arc<crate::ir::Card>], diagnostics: &[Diagnostic]) -> Vec<bool> {
    let incomplete = |d: &&Diagnostic| d.is_error() && d.code.id != codes::CARD_RULE_BROKEN.id;
    let mut errors: Vec<Span> = diagnostics.iter().filter(incomplete).filter_map(Diagnostic::primary_span).collect();
    errors.sort_unstable_by_key(|span| (span.file, span.start));
    cards
        .iter()
        .map(|card| {
            let extent = card.extent;
            let first = errors.partition_point(|e| (e.file, e.start) < (extent.file, extent.start));
            errors.get(first).is_some_and(|e| e.file == extent.file && e.end <= extent.end)
        })
        .collect()
}

/// What one share of a game's items came to.
#[derive(Default)]
struct Share<'n> {
    cards: Vec<(Arc<crate::ir::Card>, &'n crate::syntax::ast::Node)>,
    decks: Vec<deck::DeckSource<'n>>,
    diagnostics: Vec<Diagnostic>,
    /// Items whose kept result was reused.
    used: Vec<ItemKey>,
    /// Items checked afresh, with their results, to keep.
    fresh: Vec<(ItemKey, Checked)>,
}

impl<'n> game::GameChecker<'_> {
    /// Checks one item that is not a deck, or reuses what checking the same
    /// text at the same place gave before.
    fn item_cached(&mut self, node: &'n crate::syntax::ast::Node, kept: &Kept<Checked>, share: &mut Share<'n>) {
        let key = ItemKey::of(node.span);
        if let Some(before) = kept.get(self.files, key) {
            self.diagnostics.extend(before.diagnostics.iter().cloned());
            share.cards.extend(before.card.clone().map(|card| (card, node)));
            share.used.push(key);
            return;
        }
        let problems_before = self.diagnostics.len();
        let card = self.item(node).map(Arc::new);
        let diagnostics = self.diagnostics[problems_before..].to_vec();
        share.fresh.push((key, Checked { card: card.clone(), diagnostics }));
        share.cards.extend(card.map(|card| (card, node)));
    }
}
