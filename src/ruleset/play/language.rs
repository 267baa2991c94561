//! The lines of play in the ruleset language, declared once as the rest of
//! the language is ([`crate::ruleset::language`]), which links to these
//! blocks: a symbol's `does`, a procedure's operations, a phase's
//! `action`, `play` and `bot`, a counter's bounds.

use crate::ruleset::codes;
use crate::ruleset::language::{About, Block, Body, Line, Occurs, DOC};
use crate::ruleset::model::play::{Action, Bot, Op, PlayLines};
use crate::ruleset::model::setup::{Counter, Marker};
use crate::ruleset::model::Named;

/// A line of a block of play.
const fn line(name: &'static str, values: &'static str, doc: &'static str, example: &'static str) -> About {
    About { name, values, doc, example, body: Body::None, occurs: Occurs::Many }
}

/// A line that opens a block of operations.
const fn opens(name: &'static str, values: &'static str, doc: &'static str, example: &'static str) -> About {
    About { name, values, doc, example, body: Body::Lines(&OPS), occurs: Occurs::Many }
}

/// The block of a symbol: its doc, and what each role's effects do with it.
pub static SYMBOL: Block<Named> = Block {
    place: "a symbol",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line { about: DOC, read: |l, n, named| named.doc = l.string(n) },
        Line {
            about: opens(
                "does",
                "ROLE",
                "What an effect of this role and symbol does in play; `amount` is the effect's amount.",
                "does gain { move amount from draw-deck to hand }",
            ),
            read: |l, n, named| l.does(n, named),
        },
    ],
    schema: None,
};

/// The operations of a procedure, each a primitive of play.
pub static OPS: Block<Vec<Op>> = Block {
    place: "a procedure (`does`, `start`, `end`, `do`)",
    language: "the language of play",
    code: &codes::BAD_PROCEDURE,
    lines: &[
        Line {
            about: line("add", "COUNTER AMOUNT [opponent]", "Adds to a counter, up to its `max`.", "add coin amount"),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "remove",
                "COUNTER AMOUNT [opponent]",
                "Takes from a counter, down to its `min`.",
                "remove hp 2 opponent",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "set",
                "COUNTER AMOUNT [opponent]",
                "Sets a counter to the amount, within its `min` and `max`.",
                "set strike power",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "respond",
                "[opponent]",
                "Opens a window for the phase's reactions: from you (or your opponent), players in turn may take \
                 one or pass, until each has passed in a row; a reaction resolves when it is taken, before the rest \
                 of this procedure.",
                "respond opponent",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "pay",
                "COUNTER AMOUNT | MARKER AMOUNT from ZONE…",
                "Pays from a counter, or by marking that many of your cards of the zones whose marker is 0 (in \
                 the zones' order): all of it, or nothing and the rest of the procedure and of the effect block \
                 is skipped.",
                "pay oil 1",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "move",
                "COUNT|all [FILTER] from ZONE [opponent] to ZONE [opponent] [bottom] [top|chosen|random]",
                "Moves cards between zones: from the top, chosen by the player, or at random; `all` moves every \
                 card that matches the filter (a kind, a tag or a `def`); `bottom` puts them under the others.",
                "move amount from draw-deck to hand",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "this-to",
                "ZONE",
                "Moves the card being resolved (or the one `for-each` is at).",
                "this-to scrap",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "mark",
                "MARKER AMOUNT",
                "Adds to a marker of the card at hand (never below 0).",
                "mark damage amount",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line("clear", "MARKER", "Sets a marker of the card at hand back to 0.", "clear exhausted"),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "reveal",
                "COUNT|all from ZONE [opponent]",
                "Shows the player the top cards of a zone (all of them with `all`); nothing moves.",
                "reveal all from hand opponent",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: opens(
                "may",
                "",
                "The player chooses whether its block is done: \"you may …\".",
                "may { move 1 from draw-deck to draw-deck bottom }",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line("shuffle", "ZONE [opponent]", "Shuffles a zone.", "shuffle draw-deck"),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: opens(
                "repeat",
                "AMOUNT",
                "Does its block as many times as the amount.",
                "repeat amount { move 1 from hand to discard chosen }",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: opens(
                "if",
                "CONDITION [ARG…]",
                "Does its block when a condition of the ruleset holds.",
                "if has-oil { pay oil 1 }",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: opens(
                "else",
                "",
                "Right after `if`: done when its condition does not hold.",
                "else { this-to discard }",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "needs",
                "CONDITION [ARG…]",
                "The rest of the procedure, and of the effect block, is done only when the condition holds (a cost \
                 that cannot be paid).",
                "needs ready",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: opens(
                "for-each",
                "ZONE [FILTER] [opponent]",
                "Does its block for each card of a zone that matches, that card being `this`.",
                "for-each lit { pay oil 1 }",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "run",
                "ROLE SYMBOL [AMOUNT]",
                "Does what the symbol's `does` says for the role, with this amount (else the amount as it is): an \
                 effect named once and used in several procedures.",
                "run apply break",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: line(
                "raise",
                "FIELD VALUE [from ZONE… [opponent]]",
                "A trigger: each card of the zones (or the card at hand) whose field holds the value resolves that \
                 block, as its owner, with itself at hand.",
                "raise ability attacks",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
        Line {
            about: opens(
                "target",
                "[FILTER] from ZONE… [opponent] [with AMOUNT]",
                "The player chooses one card of the zones that matches; its block is done with that card at hand \
                 and `amount` the `with` amount (read before, for the card that was at hand).",
                "target unit from front back opponent with power { mark damage amount }",
            ),
            read: |l, n, ops| l.operation(n, ops),
        },
    ],
    schema: None,
};

/// The block of a phase's `action`.
pub static ACTION: Block<Action> = Block {
    place: "an action",
    language: "the language of play",
    code: &codes::BAD_PROCEDURE,
    lines: &[
        Line {
            about: line(
                "take",
                "ZONE [FILTER]",
                "The zone the player takes a card from; each card there (that matches) is one choice.",
                "take market-row",
            ),
            read: |l, n, a| l.take(n, a),
        },
        Line {
            about: line(
                "pay",
                "COUNTER AMOUNT | MARKER AMOUNT from ZONE…",
                "The price, paid before anything else; a field name reads the taken card's.  With zones, it is \
                 paid by marking that many of your cards there whose marker is 0.",
                "pay gold price",
            ),
            read: |l, n, a| l.action_cost(n, a),
        },
        Line {
            about: line("to", "ZONE", "Where the taken card goes.", "to discard"),
            read: |l, n, a| a.to = l.one_name(n, "write `to discard`"),
        },
        Line {
            about: line(
                "resolve",
                "FIELD [VALUE]",
                "The card's field whose effect block then resolves: at once, or in initiative order once every \
                 player has chosen in a phase that follows the scale; with a value, the one of the card's fields \
                 of that name whose value it is (`ability fast { … }`).",
                "resolve reveal",
            ),
            read: |l, n, a| l.resolve_line(n, a),
        },
        Line {
            about: line("limit", "N", "How many times a player may take it in one phase.", "limit 2"),
            read: |l, n, a| a.limit = l.count_line(n),
        },
        Line {
            about: line(
                "only-if",
                "CONDITION [ARG…]",
                "The action is open only when the condition holds.",
                "only-if rich",
            ),
            read: |l, n, a| a.only_if = l.test(n, &n.values),
        },
        Line {
            about: opens("do", "", "Done after the card is moved, before its effects resolve.", "do { add buys 1 }"),
            read: |l, n, a| a.ops.extend(l.procedure(n)),
        },
        Line {
            about: line(
                "counts",
                "acquired | played",
                "What taking the card counts as in a simulation's card statistics.",
                "counts acquired",
            ),
            read: |l, n, a| l.counts(n, a),
        },
    ],
    schema: None,
};

/// The block of `play`: the end of the game and the winner.
pub static PLAY: Block<PlayLines> = Block {
    place: "`play`",
    language: "the language of play",
    code: &codes::BAD_PROCEDURE,
    lines: &[
        Line { about: DOC, read: |l, n, p| p.doc = l.string(n) },
        Line {
            about: line(
                "ends-when",
                "EXPRESSION",
                "Read after every round: the game ends when it holds.",
                "ends-when count(market-deck) == 0",
            ),
            read: |l, n, p| p.ends_when = l.play_expression(n),
        },
        Line {
            about: line("round-limit", "N", "The game ends after this many rounds whatever happens.", "round-limit 40"),
            read: |l, n, p| p.round_limit = l.count_line(n),
        },
        Line {
            about: line(
                "score-by",
                "EXPRESSION",
                "Each player's score when the game ends; the highest wins, equal highest scores draw.",
                "score-by renown + sum(lit, glow)",
            ),
            read: |l, n, p| p.score = l.play_expression(n),
        },
        Line {
            about: opens(
                "refresh",
                "",
                "Continuous effects: done for each player, in seat order, once the set-up is done and whenever \
                 what a decision or a phase set off is done, so that it sets anew what holds while a card is \
                 where it is.",
                "refresh { raise ability auto from field }",
            ),
            read: |l, n, p| p.refresh.extend(l.procedure(n)),
        },
    ],
    schema: None,
};

/// The block of `bot`: priorities, first first.
pub static BOT: Block<Bot> = Block {
    place: "a bot",
    language: "the language of play",
    code: &codes::BAD_PROCEDURE,
    lines: &[
        Line { about: DOC, read: |l, n, b| b.doc = l.string(n) },
        Line {
            about: line(
                "prefer",
                "ACTION [FILTER] [by FIELD] [if CONDITION [ARG…]]",
                "Takes this action with a card that matches, the highest `by` first, when the condition holds; the \
                 first line that matches a legal action decides.",
                "prefer buy lantern by cost",
            ),
            read: |l, n, b| l.prefer(n, b),
        },
    ],
    schema: None,
};

/// The block of a set-up marker.
pub static MARKER: Block<Marker> = Block {
    place: "a marker",
    language: "the set-up language",
    code: &codes::BAD_SETUP,
    lines: &[Line { about: DOC, read: |l, n, m| m.doc = l.string(n) }],
    schema: None,
};

/// The block of a set-up counter.
pub static COUNTER: Block<Counter> = Block {
    place: "a counter",
    language: "the set-up language",
    code: &codes::BAD_SETUP,
    lines: &[
        Line {
            about: line("min", "N", "The lowest value play takes it to (0 unless given).", "min -5"),
            read: |l, n, c| l.bound(n, c),
        },
        Line { about: line("max", "N", "The highest value play takes it to.", "max 6"), read: |l, n, c| l.bound(n, c) },
        Line {
            about: line(
                "owner",
                "each | shared",
                "Every player has one (the default), or one for the table.",
                "owner shared",
            ),
            read: |l, n, c| l.counter_owner(n, c),
        },
        Line {
            about: line(
                "side",
                "SIDE",
                "Only the player of that side has the counter: for the others it reads 0 and does not change (not with `owner shared`).",
                "side runner",
            ),
            read: |l, n, c| c.side = l.side_named(n, &format!("counter `{}`", c.id)),
        },
        Line {
            about: line("reset", "round", "Back to its starting value at the end of every round.", "reset round"),
            read: |l, n, c| l.reset(n, c),
        },
        Line { about: DOC, read: |l, n, c| c.doc = l.string(n) },
    ],
    schema: None,
};
