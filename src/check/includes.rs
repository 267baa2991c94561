//! The graph of decks including decks, walked once before any deck is
//! expanded.  A cycle is an error at the line that closes it.  Each deck's
//! size — the copies its lines list and those of the decks it includes,
//! multiplied through, in saturating sums — and how deep its includes nest
//! are counted from the graph alone, so a deck past a limit is refused
//! before a card of it is copied.  The walk keeps its own stack: a chain of
//! any length costs no recursion.

use super::codes;
use super::game::GameChecker;
use crate::diagnostics::Diagnostic;
use crate::ruleset::names::thousands;
use crate::source::Span;
use std::cell::Cell;

/// Included decks nest at most this deep, the deck itself counted.
pub(super) const MAX_INCLUDE_DEPTH: usize = 8;
/// A deck holds at most this many cards, those of its included decks
/// counted with them, and each inclusion counted as one.
pub const MAX_DECK_CARDS: i64 = 100_000;
/// The decks of one game are expanded to at most this many cards in all:
/// each deck, and each deck another is measured against, counted every
/// time it is expanded.
pub(super) const MAX_GAME_CARDS: i64 = 5_000_000;

/// A deck as the graph sees it.
pub(super) struct GraphDeck<'s> {
    pub name: &'s str,
    /// The copies its own lines list.
    pub own: i64,
    /// Where the deck is written, for its report.
    pub span: Span,
    /// The decks it includes, each with the line that includes it: only
    /// those that resolve and that its type may include.
    pub includes: Vec<(usize, Span)>,
}

/// What the walk found about each deck, and the game's budget of cards.
pub(super) struct Expansion {
    /// The cards each deck holds, included decks multiplied through, and
    /// one for each inclusion.
    pub cards: Vec<i64>,
    /// How deep its includes nest, the deck itself counted.
    depth: Vec<usize>,
    /// Whether the deck must not be expanded: it is in a cycle or past a
    /// limit (reported there), or it includes such a deck (whose report
    /// is the one).
    pub refused: Vec<bool>,
    /// The cards expanded so far in the game.
    spent: Cell<i64>,
}

/// How far the walk has gone with a deck.
#[derive(Clone, Copy, PartialEq)]
enum Visit {
    New,
    /// On the walk's path: an include leading to it closes a cycle.
    OnPath,
    Done,
}

impl Expansion {
    /// Takes `cards` from the game's budget; false, taking nothing, when
    /// they do not fit.
    pub fn spend(&self, cards: i64) -> bool {
        let spent = self.spent.get().saturating_add(cards);
        if spent > MAX_GAME_CARDS {
            return false;
        }
        self.spent.set(spent);
        true
    }
}

impl GameChecker<'_> {
    /// Walks the include graph depth first, reporting each cycle and each
    /// deck past a limit.
    pub(super) fn include_graph(&mut self, decks: &[GraphDeck<'_>]) -> Expansion {
        let count = decks.len();
        let mut expansion = Expansion {
            cards: vec![0; count],
            depth: vec![0; count],
            refused: vec![false; count],
            spent: Cell::new(0),
        };
        let mut visits = vec![Visit::New; count];
        // Each deck on the path, with how many of its includes were followed.
        let mut path: Vec<(usize, usize)> = Vec::new();
        for root in 0..count {
            if visits[root] != Visit::New {
                continue;
            }
            visits[root] = Visit::OnPath;
            path.push((root, 0));
            while let Some(&(deck, followed)) = path.last() {
                let Some(&(to, span)) = decks[deck].includes.get(followed) else {
                    path.pop();
                    visits[deck] = Visit::Done;
                    self.measure(decks, deck, &mut expansion);
                    continue;
                };
                if let Some(last) = path.last_mut() {
                    last.1 += 1;
                }
                match visits[to] {
                    Visit::New => {
                        visits[to] = Visit::OnPath;
                        path.push((to, 0));
                    }
                    Visit::OnPath => self.cycle(decks, &path, to, span, &mut expansion.refused),
                    Visit::Done => {}
                }
            }
        }
        expansion
    }

    /// An include at `span` leads back to `to`, on the path: the decks from
    /// `to` to the path's end include each other, and none is expanded.
    fn cycle(&mut self, decks: &[GraphDeck<'_>], path: &[(usize, usize)], to: usize, span: Span, refused: &mut [bool]) {
        let start = path.iter().position(|(deck, _)| *deck == to).unwrap_or(0);
        let cycle = &path[start..];
        for (deck, _) in cycle {
            refused[*deck] = true;
        }
        let name = decks[to].name;
        let diagnostic = if let [_] = cycle {
            Diagnostic::error(&codes::DECK_INCLUDE_CYCLE, format!("deck `{name}` includes itself"))
                .primary(span, "this line includes the deck it is in")
                .help("remove the line: a deck cannot hold itself")
        } else {
            let mut names: Vec<String> = cycle.iter().map(|(deck, _)| format!("`{}`", decks[*deck].name)).collect();
            names.push(format!("`{name}`"));
            let mut diagnostic = Diagnostic::error(
                &codes::DECK_INCLUDE_CYCLE,
                format!("decks include each other in a cycle: {}", names.join(" → ")),
            )
            .primary(span, format!("this line includes `{name}` again"));
            // The other lines of the cycle, each the include the path took.
            for (deck, followed) in cycle.iter().take(cycle.len() - 1).take(3) {
                let (next, line) = decks[*deck].includes[followed - 1];
                diagnostic =
                    diagnostic.secondary(line, format!("`{}` includes `{}`", decks[*deck].name, decks[next].name));
            }
            diagnostic.help("a deck cannot hold itself: remove one of these lines, or list the cards it would bring")
        };
        self.report(diagnostic);
    }

    /// Counts a deck whose includes are all counted: its cards and depth,
    /// refusing it past a limit or when it includes a refused deck.
    fn measure(&mut self, decks: &[GraphDeck<'_>], deck: usize, expansion: &mut Expansion) {
        let graph_deck = &decks[deck];
        let mut cards = graph_deck.own;
        let mut deepest = 0;
        let mut includes_refused = false;
        for &(to, _) in &graph_deck.includes {
            // The inclusion itself is built too, though its deck be empty.
            cards = cards.saturating_add(1).saturating_add(expansion.cards[to]);
            deepest = deepest.max(expansion.depth[to]);
            includes_refused |= expansion.refused[to];
        }
        expansion.cards[deck] = cards;
        expansion.depth[deck] = deepest + 1;
        if includes_refused || expansion.refused[deck] {
            expansion.refused[deck] = true;
            return;
        }
        let name = graph_deck.name;
        let diagnostic = if cards > MAX_DECK_CARDS {
            let counted = if cards == i64::MAX {
                "more cards than can be counted".to_string()
            } else {
                format!("{} cards", thousands(cards))
            };
            let diagnostic = Diagnostic::error(
                &codes::DECK_TOO_LARGE,
                format!(
                    "deck `{name}` holds {counted}; a deck holds at most {}, those of the decks it includes counted",
                    thousands(MAX_DECK_CARDS)
                ),
            )
            .primary(graph_deck.span, "this deck is too large");
            let diagnostic = if graph_deck.includes.is_empty() {
                diagnostic
            } else {
                diagnostic.note("each included deck counts as many times as it is listed, with the decks it includes, and each line including one counts as a card")
            };
            diagnostic.help("list fewer copies, or include the large decks fewer times")
        } else if deepest + 1 > MAX_INCLUDE_DEPTH {
            Diagnostic::error(
                &codes::DECK_TOO_LARGE,
                format!(
                    "the decks `{name}` includes nest {} deep; decks nest at most {MAX_INCLUDE_DEPTH} deep",
                    deepest + 1
                ),
            )
            .primary(graph_deck.span, "this deck nests too deep")
            .help("include the innermost decks' cards directly, or their decks one level up")
        } else {
            return;
        };
        expansion.refused[deck] = true;
        self.report(diagnostic);
    }
}
