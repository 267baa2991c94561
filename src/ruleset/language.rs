//! The ruleset language, declared once.
//!
//! Every line a `.rules` file can hold — each top-level declaration and each
//! line of each block — is one [`Line`] here: its name, the values it takes,
//! what it means, an example, what its block holds and how often it may be
//! given, with the function that reads it into the model.  Everything else
//! that knows the language derives from these tables: the reader
//! ([`super::read`]) dispatches on them, its "expected one of" lists are
//! their names, the editor's completion and hover in `.rules` files walk
//! them ([`at`]), and the reference section of `docs/rulesets.md` is
//! written from them ([`reference`]).
//!
//! The tables are grouped by where a line stands: [`FILE`] for the
//! declarations of a file, then one [`Block`] per block a declaration opens.

use super::codes;
use super::dial;
use super::model::setup::Setup;
use super::model::*;
use super::play;
use super::read;
use super::setup::{self, ZoneLines};
use super::table;
use super::timing::{self, TieBreaks};
pub use super::vocabulary::{About, Block, Body, Line, Occurs, Vocabulary};

/// The vocabulary inside the blocks named by `path` (`["kind", "field"]`),
/// from the top of a file: `None` when a name on the way is not a line
/// there, or holds no lines of the language.
pub fn at(path: &[&str]) -> Option<&'static dyn Vocabulary> {
    let mut here: &'static dyn Vocabulary = &FILE;
    for name in path {
        let lines = here.lines();
        let about = lines.into_iter().find(|a| a.name == *name)?;
        match about.body {
            Body::Lines(inner) => here = inner,
            _ => return None,
        }
    }
    Some(here)
}

/// The reference section of `docs/rulesets.md`: every place lines stand,
/// each with a table of its lines, from the top of a file down.
pub fn reference() -> String {
    let mut out = String::from(
        "Written from the language's declaration (`src/ruleset/language.rs`); a test fails when this \
         section differs from it.\n",
    );
    let mut places: Vec<&'static dyn Vocabulary> = vec![&HEADER_LINES, &FILE];
    let mut next = 0;
    while let Some(&place) = places.get(next) {
        next += 1;
        out.push_str(&format!("\n#### In {}\n\n| Line | Meaning | Example |\n|---|---|---|\n", place.place()));
        for about in place.lines() {
            out.push_str(&table_row(about));
            if let Body::Lines(inner) = about.body {
                if !places.iter().any(|p| p.place() == inner.place()) {
                    places.push(inner);
                }
            }
        }
    }
    out
}

/// One line of the language as a row of its place's table.
fn table_row(about: &About) -> String {
    let cell = |text: &str| text.replace('|', "\\|");
    let head =
        if about.values.is_empty() { about.name.to_string() } else { format!("{} {}", about.name, about.values) };
    let mut meaning = about.doc.to_string();
    match about.occurs {
        Occurs::ById => meaning.push_str(" One per id."),
        Occurs::Once => meaning.push_str(" At most one."),
        Occurs::Many => {}
    }
    match about.body {
        Body::None => {}
        Body::Lines(inner) => meaning.push_str(&format!(" Its block: the lines of {}.", inner.place())),
        Body::Data(what) => meaning.push_str(&format!(" Its block: {what}.")),
    }
    format!("| `{}` | {} | `{}` |\n", cell(&head), cell(&meaning), cell(about.example))
}

/// The first line of a ruleset file.
pub static HEADER: About = About {
    name: "ruleset",
    values: "ID",
    doc: "Starts a ruleset file and names the game: content files say `game ID` to be checked against it.",
    example: "ruleset my-game { title \"My Game\" }",
    body: Body::Lines(&HEADER_LINES),
    occurs: Occurs::Once,
};

/// What the `ruleset` line's block holds.
pub static HEADER_LINES: Block<Ruleset> = Block {
    place: "the `ruleset` line",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line {
            about: About {
                name: "title",
                values: "\"TITLE\"",
                doc: "The game's name as people write it.",
                example: "title \"Dreadnaught 2e\"",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, r| r.title = l.string(n).unwrap_or_default(),
        },
        Line {
            about: About {
                name: "extends",
                values: "ID",
                doc: "Builds on another ruleset: its declarations are read first, and one of this file with the same \
                      name replaces the base's (a house rule).",
                example: "extends dreadnaught-2e",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |_, n, r| r.extends = super::names::id_at(n, 0).map(str::to_string),
        },
        Line { about: DOC, read: |l, n, r| r.doc = l.string(n) },
    ],
    schema: None,
};

/// An id, then the name as printed.
const ID_NAME: &str = "ID \"NAME\"";

/// The declarations of a ruleset file, after its `ruleset` line.
pub static FILE: Block<Ruleset> = Block {
    place: "a ruleset file",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line {
            about: About {
                name: "symbol",
                values: ID_NAME,
                doc: "An effect symbol cards print with an amount (`damage 3`), and what each role's effects do with \
                      it in play.",
                example: "symbol damage \"Damage\" { does hit { remove hp amount opponent } }",
                body: Body::Lines(&play::language::SYMBOL),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.symbols.extend(l.named(n)),
        },
        Line {
            about: About {
                name: "icon",
                values: ID_NAME,
                doc: "An icon card text may show as `{ID}`.",
                example: "icon check \"Check\"",
                body: Body::Lines(&NAMED),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.icons.extend(l.named(n)),
        },
        Line {
            about: About {
                name: "role",
                values: ID_NAME,
                doc: "A role an effect line plays (attack, defence, cost), with the colour and mark faces show it by.",
                example: "role attack \"Attack\" { colour red }",
                body: Body::Lines(&ROLE),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.roles.extend(l.role(n)),
        },
        Line {
            about: About {
                name: "initiative",
                values: "[X] from N to N by N [whole-steps|priority-digit] [printed \"FORM\"]",
                doc: "The initiative scale cards are played on, counting down or up, in tenths at most; a scale by \
                      whole numbers takes whole values unless `priority-digit` lets a tenth order values within a \
                      step; `printed` says how the game prints a step, `{}` for its value.",
                example: "initiative X from 5.9 to 0.0 by 0.1",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, r| r.initiative = timing::scale(n, l.diagnostics),
        },
        Line {
            about: About {
                name: "tie-break",
                values: "",
                doc: "How plays tied on the initiative scale are ordered: rules tried in turn, the last an outcome.",
                example: "tie-break { kind defense offense; simultaneous }",
                body: Body::Lines(&TIE_BREAK),
                occurs: Occurs::Once,
            },
            read: |l, n, r| r.tie_break = l.tie_break(n),
        },
        Line {
            about: About {
                name: "side",
                values: "ID [\"NAME\"] player N",
                doc: "A side of the table, and the player who plays it.",
                example: "side north \"North\" player 1",
                body: Body::None,
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.sides.extend(timing::side(n, l.diagnostics)),
        },
        Line {
            about: About {
                name: "phase",
                values: ID_NAME,
                doc: "A phase of the turn, in order: its steps, or the initiative scale.",
                example: "phase action \"Action Phase\" { alternate; step ac \"Action\" }",
                body: Body::Lines(&PHASE),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.phases.extend(l.phase(n)),
        },
        Line {
            about: About {
                name: "step-names",
                values: "ENUM",
                doc: "The enum whose values name the steps cards are played in.",
                example: "step-names timing",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, r| r.step_names = timing::step_names(n, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "range",
                values: "ID [\"NAME\"] LOW..[HIGH]",
                doc: "A range band: the distances it spans.",
                example: "range close \"Close\" 0..3",
                body: Body::None,
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.ranges.extend(l.range(n)),
        },
        Line {
            about: About {
                name: "dice",
                values: "DIE…",
                doc: "The dice the game rolls, by their sides.",
                example: "dice D3 D6",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, r| r.dice = l.dice(n),
        },
        Line {
            about: About {
                name: "arc",
                values: ID_NAME,
                doc: "A firing arc a weapon may name, with its angles where the rules state them.",
                example: "arc forward \"Forward\" { angles -40 40 from centre }",
                body: Body::Lines(&ARC),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.arcs.extend(l.named(n)),
        },
        Line {
            about: About {
                name: "enum",
                values: "ID VALUE…",
                doc: "A closed set of values a field may take, in the head or one per line of its block.",
                example: "enum colour red green blue",
                body: Body::Data(
                    "one value per line, with an optional weight and printed label (`L 1 \"Light\"`), or \
                     `printed \"AS PRINTED\" VALUE`",
                ),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.enums.extend(l.enum_def(n)),
        },
        Line {
            about: About {
                name: "deck-symbol",
                values: "ID \"NAME\" [DECK-TYPE]",
                doc: "A symbol a deck is marked by (a faction), optionally only for one deck type.",
                example: "deck-symbol ucm \"UCM\"",
                body: Body::None,
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.deck_symbols.extend(l.deck_symbol(n)),
        },
        Line {
            about: About {
                name: "keyword",
                values: ID_NAME,
                doc: "A keyword cards may carry, with its parameters, where it may stand and what it does.",
                example: "keyword burnthrough \"Burnthrough\" { param n int }",
                body: Body::Lines(&KEYWORD),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.keywords.extend(l.keyword(n)),
        },
        Line {
            about: About {
                name: "tag",
                values: ID_NAME,
                doc: "A tag a card may carry in its head (`ship Falcon [elite]`).",
                example: "tag elite \"Elite\" { only ship }",
                body: Body::Lines(&TAG),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.tags.extend(l.tag(n)),
        },
        Line {
            about: About {
                name: "shape",
                values: "ID",
                doc: "A block of fields a field's block may take (`body cost`), declared once for many fields.",
                example: "shape cost { field log int 1.. }",
                body: Body::Lines(&SCHEMA),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.shapes.extend(l.shape(n)),
        },
        Line {
            about: About {
                name: "kind",
                values: ID_NAME,
                doc: "A kind of card: the top-level items of content files, with its fields and rules.",
                example: "kind ship \"Ship\" { field hull int 1.. required }",
                body: Body::Lines(&KIND),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.kinds.extend(l.kind(n)),
        },
        Line {
            about: About {
                name: "deck-type",
                values: ID_NAME,
                doc: "A kind of deck content files may build, with its entries and construction rules.",
                example: "deck-type fleet \"Fleet\" { word fleet; entry ship }",
                body: Body::Lines(&DECK_TYPE),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.deck_types.extend(l.deck_type(n)),
        },
        Line {
            about: About {
                name: "cost-limit",
                values: "ROLE SYMBOL MAX \"WHY\"",
                doc: "The most of a symbol an effect of a role may ask for.",
                example: "cost-limit cost damage 24 \"no ship can pay more\"",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, r| r.cost_limits.extend(l.cost_limit(n)),
        },
        Line {
            about: About {
                name: "play-limit",
                values: "\"MESSAGE\" EXPRESSION",
                doc: "A bound on what one player plays in a turn, for engines.",
                example: "play-limit \"at most 1 Primary Card a turn\" count(primary) <= 1",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, r| r.play_limits.extend(l.constraint(n)),
        },
        Line {
            about: About {
                name: "special",
                values: "\"TOKEN\" MEANING [\"WHAT IT STANDS FOR\"]",
                doc: "A token a card may write in place of a value: `not-applicable` or `see-text`.",
                example: "special \"-\" not-applicable \"no value\"",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, r| super::special::declare(n, r, &mut l.seen, l.diagnostics),
        },
        Line {
            about: About {
                name: "setup",
                values: "",
                doc: "How a game is set up: players, counters, zones and the steps that fill them. One per ruleset.",
                example: "setup { players 2; zone hand \"Hand\" { owner each } }",
                body: Body::Lines(&SETUP),
                occurs: Occurs::Many,
            },
            read: |l, n, r| l.setup(n, r),
        },
        Line {
            about: About {
                name: "dial",
                values: ID_NAME,
                doc: "A manoeuvre dial: the lines of a repeated field are its manoeuvres (a speed, a bearing and a \
                      difficulty), a grid of bearings by speeds coloured by difficulty. A manoeuvre listed twice is \
                      refused, rules count manoeuvres, and templates draw the grid (`dial`).",
                example: "dial manoeuvres \"Manoeuvre Dial\" { field move; bearings bearing; difficulties difficulty }",
                body: Body::Lines(&DIAL),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.dials.extend(l.dial(n)),
        },
        Line {
            about: About {
                name: "table",
                values: "\"NAME\"",
                doc: "The table the game is played on, in the game's unit of distance: its size, its deployment \
                      zones and the fields that give a piece its size. Decks place pieces on it by coordinates \
                      (`card \"Asteroid\" at 12,20`), and rules measure between them (`gap`).",
                example: "table \"Table\" { size 36 x 36; radius radius }",
                body: Body::Lines(&TABLE),
                occurs: Occurs::Once,
            },
            read: |l, n, r| r.table = l.table(n),
        },
        Line {
            about: About {
                name: "condition",
                values: "ID \"PRINTED TEXT\"",
                doc: "A condition an effect may be under (`when CONDITION …`), with its parameters.",
                example: "condition at-range \"at {band}\" { param band range }",
                body: Body::Lines(&STATE),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.conditions.extend(l.state_declaration(n)),
        },
        Line {
            about: About {
                name: "quantity",
                values: "ID \"PRINTED TEXT\"",
                doc: "A quantity an effect's amount may be counted per (`per QUANTITY`), with its parameters.",
                example: "quantity ships \"per ship\"",
                body: Body::Lines(&STATE),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.quantities.extend(l.state_declaration(n)),
        },
        Line {
            about: About {
                name: "amount",
                values: "FORM [\"MEANING\"]",
                doc: "A form an effect's amount may take, shown by example: `3`, `3+` or `+3`.",
                example: "amount 3+ \"another effect can increase it\"",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, r| r.amount_forms.extend(l.amount_form(n)),
        },
        Line {
            about: About {
                name: "def",
                values: "NAME[(PARAM, …)] EXPRESSION",
                doc: "Names a rule expression for rules to call.",
                example: "def at-most(n) count() <= n",
                body: Body::None,
                occurs: Occurs::ById,
            },
            read: |l, n, _| l.definition(n),
        },
        Line {
            about: About {
                name: "play",
                values: "",
                doc:
                    "How the game is played to its end: when it ends and each player's score. With it, `simulate` and \
                      `play` can play the game, and `check` says what its cards lack for play.",
                example: "play { ends-when count(draw-deck) == 0; round-limit 30; score-by renown }",
                body: Body::Lines(&play::language::PLAY),
                occurs: Occurs::Once,
            },
            read: |l, n, r| l.play(n, r),
        },
        Line {
            about: About {
                name: "bot",
                values: ID_NAME,
                doc: "A strategy for the greedy bot: priorities, first first.",
                example: "bot hoarder \"Hoarder\" { prefer buy dear by cost }",
                body: Body::Lines(&play::language::BOT),
                occurs: Occurs::ById,
            },
            read: |l, n, r| r.bots.extend(l.bot(n)),
        },
    ],
    schema: None,
};

/// A `doc` line: what a declaration means, shown on hover.
pub(super) const DOC: About = About {
    name: "doc",
    values: "\"TEXT\"",
    doc: "What the declaration means, as the editor shows it on hover.",
    example: "doc \"Ignores shields.\"",
    body: Body::None,
    occurs: Occurs::Many,
};

/// The block of a symbol, icon or arc.
pub static NAMED: Block<Named> = Block {
    place: "a symbol, icon or arc",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[Line { about: DOC, read: |l, n, named| named.doc = l.string(n) }],
    schema: None,
};

/// The block of a dial.
pub static DIAL: Block<Dial> = Block {
    place: "a dial",
    language: "the ruleset language",
    code: &codes::BAD_DIAL,
    lines: &[
        Line {
            about: About {
                name: "field",
                values: "FIELD",
                doc: "The repeated field whose lines are the manoeuvres, each a speed (whole numbers in a range: \
                      the grid's rows), a bearing and a difficulty: `field move int 1..5 bearing difficulty many` in \
                      a kind.",
                example: "field move",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, d| dial::field(n, d, l.diagnostics),
        },
        Line {
            about: About {
                name: "bearings",
                values: "ENUM",
                doc: "The enum of the bearings: the grid's columns, in the enum's order, headed by its labels.",
                example: "bearings bearing",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, d| dial::bearings(n, d, l.diagnostics),
        },
        Line {
            about: About {
                name: "difficulties",
                values: "ENUM",
                doc: "The enum of the difficulties each manoeuvre has.",
                example: "difficulties difficulty",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, d| dial::difficulties(n, d, l.diagnostics),
        },
        Line {
            about: About {
                name: "colour",
                values: "DIFFICULTY COLOUR",
                doc: "The colour a difficulty prints in; every difficulty has one. A printed dial also marks each \
                      manoeuvre with its difficulty's initial, so that it reads in black and white.",
                example: "colour hard red",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, d| dial::colour(n, d, l.diagnostics),
        },
        Line { about: DOC, read: |l, n, d| d.doc = l.string(n) },
    ],
    schema: None,
};

/// The block of an arc.
pub static ARC: Block<Named> = Block {
    place: "an arc",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line { about: DOC, read: |l, n, named| named.doc = l.string(n) },
        Line {
            about: About {
                name: "angles",
                values: "FROM TO from centre|edge",
                doc: "The angles the arc covers, in degrees clockwise from straight ahead (-360 to 360, at most 360 \
                      wide), measured from the base's centre or its edge; `-180 180` is all round.",
                example: "angles -40 40 from centre",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, named| named.angles = l.arc_angles(n),
        },
        Line {
            about: About {
                name: "within",
                values: "ARC",
                doc: "The arc lies within another (a bullseye within the front arc): checked against both arcs' \
                      angles, measured from the same place.",
                example: "within front",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, named| {
                named.within = l.name_or(n, "write `within front`: the arc this one lies within");
                named.within_span = n.values.first().map(|v| v.span);
            },
        },
    ],
    schema: None,
};

/// The block of a role.
pub static ROLE: Block<Role> = Block {
    place: "a role",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line {
            about: About {
                name: "colour",
                values: "COLOUR",
                doc: "The colour faces print the role's effects in: black, grey, red, red-orange, orange, yellow, \
                      gold, green, blue, purple, brown, silver, white, or `#rrggbb`.",
                example: "colour red",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, role| {
                if let Some(colour) = l.colour(n) {
                    role.colour = Some(colour);
                    role.colour_span = n.values.first().map(|v| v.span);
                }
            },
        },
        Line {
            about: About {
                name: "applies-to",
                values: "\"WHAT\"",
                doc: "What the role's effects apply to, as the docs and faces say it.",
                example: "applies-to \"the target\"",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, role| role.applies_to = l.string(n).unwrap_or_default(),
        },
        Line {
            about: About {
                name: "mark",
                values: "ICON",
                doc: "The icon faces print before the role's effects, so colour is never the only cue.",
                example: "mark square",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, role| {
                if let Some(mark) = l.name_or(n, "`mark` takes the id of an icon: `mark square`") {
                    role.mark = Some(mark);
                    role.mark_span = n.values.first().map(|v| v.span);
                }
            },
        },
    ],
    schema: None,
};

/// An `only` line: the kinds a keyword or tag may stand on.
const ONLY: About = About {
    name: "only",
    values: "KIND…",
    doc: "The kinds of card it may stand on; without it, any kind.",
    example: "only ship station",
    body: Body::None,
    occurs: Occurs::Many,
};

/// A `param` line of a keyword, condition or quantity.
const PARAM: About = About {
    name: "param",
    values: "NAME TYPE",
    doc: "A parameter, in order: cards write its value after the name (`burnthrough(4)`).",
    example: "param n int 1..",
    body: Body::None,
    occurs: Occurs::Many,
};

/// An `effect` line of a keyword.
const KEYWORD_EFFECT: About = About {
    name: "effect",
    values: "ROLE SYMBOL AMOUNT",
    doc: "An effect the keyword has, the amount a number (`3`, `3+`, `+3`) or one of its parameters.",
    example: "effect attack damage n",
    body: Body::None,
    occurs: Occurs::Many,
};

/// The block of a keyword.
pub static KEYWORD: Block<KeywordDef> = Block {
    place: "a keyword",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line { about: PARAM, read: |l, n, k| k.params.extend(l.param(n)) },
        Line { about: ONLY, read: |l, n, k| k.only = l.kinds_named(n, &k.id) },
        Line { about: DOC, read: |l, n, k| k.doc = l.string(n) },
        Line {
            about: About {
                name: "printed",
                values: "\"AS PRINTED\"",
                doc: "Another name the rulebook prints the keyword by, which cards may write too.",
                example: "printed \"L\"",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, k| {
                k.printed.extend(l.text_or(n, "`printed` takes a name as a rulebook prints it: `printed \"L\"`"))
            },
        },
        Line { about: KEYWORD_EFFECT, read: |l, n, k| k.effects.extend(l.keyword_effect(n)) },
        Line {
            about: About {
                name: "when",
                values: "CONDITION VALUE…",
                doc: "Effects the keyword has only while a declared condition holds.",
                example: "when at-range close { effect attack damage 1 }",
                body: Body::Lines(&WHEN),
                occurs: Occurs::Many,
            },
            read: |l, n, k| k.effects.extend(l.keyword_conditional(n)),
        },
    ],
    schema: None,
};

/// The block of a keyword's `when` line.
pub static WHEN: Block<Vec<KeywordEffect>> = Block {
    place: "a keyword's `when`",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[Line { about: KEYWORD_EFFECT, read: |l, n, effects| effects.extend(l.keyword_effect(n)) }],
    schema: None,
};

/// The block of a tag.
pub static TAG: Block<TagDef> = Block {
    place: "a tag",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line { about: ONLY, read: |l, n, t| t.only = l.kinds_named(n, &t.id) },
        Line { about: DOC, read: |l, n, t| t.doc = l.string(n) },
    ],
    schema: None,
};

/// A `require` line, and `recommend` at warning level.
const fn rule(name: &'static str, doc: &'static str, example: &'static str) -> About {
    About { name, values: "\"MESSAGE\" EXPRESSION", doc, example, body: Body::None, occurs: Occurs::Many }
}

const REQUIRE: About = rule(
    "require",
    "A rule that must hold, checked where it is declared (a card, a block, a deck); its message is the error.",
    "require \"a ship has at most 3 weapons\" count(weapon) <= 3",
);

const RECOMMEND: About = rule(
    "recommend",
    "A rule that should hold: as `require`, at warning level.",
    "recommend \"a fleet fields an admiral\" count(admiral) >= 1",
);

/// The lines of a shape, which a kind's and a field's blocks hold too.
pub static SCHEMA: Block<Schema> = Block {
    place: "a shape",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line {
            about: About {
                name: "field",
                values: "NAME [TYPE…] [required] [many]",
                doc: "A field cards write as a line of their block, with the types of its values in order; `effects` \
                      as its type makes it a block of effect lines, `flag` a field that takes nothing.",
                example: "field hull int 1.. required",
                body: Body::Lines(&FIELD),
                occurs: Occurs::Many,
            },
            read: |l, n, s| s.fields.extend(l.field(n)),
        },
        Line {
            about: About {
                name: "takes",
                values: "TYPE…",
                doc: "The values written on the line itself, before its block.",
                example: "takes int text",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, s| s.takes = l.type_specs(n, 0),
        },
        Line {
            about: About {
                name: "together",
                values: "FIELD…",
                doc: "Fields given all together or not at all.",
                example: "together lock attack",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, n, s| s.together.push(read::idents(n)),
        },
        Line {
            about: About {
                name: "effects",
                values: "",
                doc: "The block holds effect lines (`damage 3`), as the ruleset's symbols and roles allow.",
                example: "effects",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, _, s| s.effects = true,
        },
        Line { about: REQUIRE, read: |l, n, s| s.rules.extend(l.constraint(n)) },
        Line { about: RECOMMEND, read: |l, n, s| s.rules.extend(l.constraint(n)) },
        Line {
            about: About {
                name: "body",
                values: "effects",
                doc: "The same as an `effects` line.",
                example: "body effects",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, s| l.body_effects(n, s),
        },
    ],
    schema: None,
};

/// A field's block: a shape's lines, for the lines inside it, and these.
pub static FIELD: Block<FieldDef> = Block {
    place: "a field",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line {
            about: About {
                name: "required",
                values: "",
                doc: "Every card of the kind gives the field.",
                example: "required",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, _, f| f.required = true,
        },
        Line {
            about: About {
                name: "many",
                values: "",
                doc: "A card may give the field on several lines.",
                example: "many",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, _, f| f.many = true,
        },
        Line { about: DOC, read: |l, n, f| f.doc = l.string(n) },
        Line {
            about: About {
                name: "label",
                values: "\"PRINTED NAME\"",
                doc: "The name faces print before the field's value.",
                example: "label \"Admiral Value\"",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, f| {
                f.label = l.text_or(n, "`label` takes the printed name: `label \"Admiral Value\"`").or(f.label.take())
            },
        },
        Line {
            about: About {
                name: "body",
                values: "effects | SHAPE",
                doc: "What the field's block holds: effect lines, or the lines of a shape.",
                example: "body cost",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, f| l.field_body(n, f),
        },
        Line {
            about: About {
                name: "by-cards-played",
                values: "",
                doc: "Which of the field's values applies when a side plays other cards in the same step.",
                example: "by-cards-played { played 1 value 2; played 2 none }",
                body: Body::Lines(&PLAYED),
                occurs: Occurs::Many,
            },
            read: |l, n, f| f.by_cards_played = l.by_cards_played(n, f.schema.takes.len()),
        },
    ],
    schema: Some((&SCHEMA, |f| &mut f.schema)),
};

/// The block of a field's `by-cards-played`.
pub static PLAYED: Block<read::Played> = Block {
    place: "a `by-cards-played` block",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[Line {
        about: About {
            name: "played",
            values: "N value K | N none",
            doc: "When a side plays N other cards, the field's value K (from 1) applies, or none.",
            example: "played 2 value 1",
            body: Body::None,
            occurs: Occurs::Many,
        },
        read: |l, n, p| l.played(n, p),
    }],
    schema: None,
};

/// A kind's block: a shape's lines and these.
pub static KIND: Block<Kind> = Block {
    place: "a kind",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line {
            about: About {
                name: "side",
                values: "SIDE",
                doc: "The side whose cards these are: a deck of another side's deck type may not hold them.",
                example: "side runner",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, k| k.side = l.side_named(n, &format!("kind `{}`", k.id)),
        },
        Line {
            about: About {
                name: "border",
                values: "COLOUR",
                doc: "The colour of the kind's card border on faces, named as a role's `colour` is.",
                example: "border grey",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, k| {
                k.border = l.colour(n);
                k.border_span = n.values.first().map(|v| v.span);
            },
        },
        Line {
            about: About {
                name: "roles",
                values: "ROLE…",
                doc: "The roles the kind's effect lines may play.",
                example: "roles attack defense",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, k| k.roles = l.roles_named(n, &k.id),
        },
        Line {
            about: About {
                name: "rare-roles",
                values: "ROLE…",
                doc: "Roles the kind allows but seldom uses: a lint notes them on a card.",
                example: "rare-roles cost",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, n, k| k.rare_roles = read::idents(n),
        },
        Line {
            about: About {
                name: "text-limit",
                values: "N",
                doc: "The most characters of text a card of the kind fits.",
                example: "text-limit 240",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, k| k.text_limit = l.text_limit(n),
        },
        Line {
            about: About {
                name: "card-size",
                values: "SIZE",
                doc: "The kind's printed size: poker, bridge, tarot, mini, or `\"WIDTHxHEIGHT\"` in millimetres.",
                example: "card-size tarot",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, k| k.card_size = l.card_size(n),
        },
        Line {
            about: About {
                name: "enters-at",
                values: "STEP",
                doc: "The step of the initiative scale the kind's cards are played at.",
                example: "enters-at 5.0",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, k| {
                k.enters_at = l.enters_at(n);
                k.enters_at_span = n.values.first().map(|v| v.span);
            },
        },
    ],
    schema: Some((&SCHEMA, |k| &mut k.schema)),
};

/// The block of a deck type.
pub static DECK_TYPE: Block<DeckType> = Block {
    place: "a deck type",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line {
            about: About {
                name: "side",
                values: "SIDE",
                doc: "The side whose decks these are: they hold only its kinds' cards and those of kinds of no side.",
                example: "side runner",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, d| d.side = l.side_named(n, &format!("deck type `{}`", d.id)),
        },
        Line {
            about: About {
                name: "match",
                values: "FIELD",
                doc: "The line of a deck that says what it matches (its faction), compared with the cards' symbols.",
                example: "match symbol",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, n, d| d.match_field = super::names::ident_at(n, 0).map(str::to_string),
        },
        Line {
            about: About {
                name: "includes",
                values: "DECK-TYPE…",
                doc: "Deck types a deck of this type may include by name.",
                example: "includes battlegroup",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, d| d.includes = l.deck_types_named(n, &d.id),
        },
        Line {
            about: About {
                name: "set-aside",
                values: "DECK-TYPE…",
                doc: "Deck types set aside at set-up rather than shuffled in.",
                example: "set-aside reference",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, d| d.set_aside = l.set_aside_named(n, &d.id),
        },
        Line {
            about: About {
                name: "based-on",
                values: "DECK-TYPE",
                doc: "A variant of another deck type, whose deck of the same match value is its original.",
                example: "based-on offense",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, d| l.based_on(n, d),
        },
        Line {
            about: About {
                name: "word",
                values: "WORD",
                doc: "The word content files start a deck of this type with (`deck` unless given).",
                example: "word fleet",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, n, d| d.word = super::names::ident_at(n, 0).unwrap_or("deck").to_string(),
        },
        Line {
            about: About {
                name: "entry",
                values: "WORD…",
                doc: "The words a deck's lines of cards start with (`card` unless given).",
                example: "entry ship",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, n, d| d.entry = read::idents(n),
        },
        Line {
            about: About {
                name: "entry-tags",
                values: "TAG…",
                doc: "Tags a deck's line may give a card it lists.",
                example: "entry-tags elite",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, d| d.entry_tags = l.tags_named(n, &d.id),
        },
        Line { about: REQUIRE, read: |l, n, d| d.rules.extend(l.constraint(n)) },
        Line { about: RECOMMEND, read: |l, n, d| d.rules.extend(l.constraint(n)) },
        Line {
            about: About {
                name: "compute",
                values: "\"NAME\" EXPRESSION",
                doc: "A value derived from a deck (a strategy rating), shown with it and written to the engine data.",
                example: "compute \"points\" sum(points)",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, d| d.computed.extend(l.constraint(n)),
        },
        Line {
            about: About {
                name: "param",
                values: "NAME int [LOW..HIGH] [DEFAULT]",
                doc: "A number a deck sets by a line of its name, which the deck type's rules use.",
                example: "param agreed-points int 500..999 999",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, d| l.deck_param(n, d),
        },
    ],
    schema: None,
};

/// The block of `table`.
pub static TABLE: Block<Table> = Block {
    place: "`table`",
    language: "the ruleset language",
    code: &codes::BAD_TABLE,
    lines: &[
        Line {
            about: About {
                name: "size",
                values: "WIDTH x DEPTH",
                doc: "The table's width and depth; its corners are `0,0` and `WIDTH,DEPTH`.",
                example: "size 48 x 48",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, t| table::size(n, t, l.diagnostics),
        },
        Line {
            about: About {
                name: "deployment",
                values: "ID \"NAME\" [side SIDE] X,Y X,Y",
                doc: "A deployment zone: the rectangle between two opposite corners, for one side or every side.",
                example: "deployment red-edge \"Red deployment\" side red 0,0 36,6",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, t| table::deployment(n, t, l.diagnostics),
        },
        Line {
            about: About {
                name: "radius",
                values: "FIELD…",
                doc: "Fields whose value is a piece's radius, the first a card has: distances are measured from \
                      its edge.",
                example: "radius radius",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, t| {
                let fields = table::size_fields(n, l.diagnostics);
                t.radius = fields.iter().map(|(f, _)| f.clone()).collect();
                t.field_spans.extend(fields);
            },
        },
        Line {
            about: About {
                name: "diameter",
                values: "FIELD…",
                doc: "Fields whose value is a piece's diameter or longest dimension, read for a card without a \
                      `radius` field: half of it is its radius.",
                example: "diameter length",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, t| {
                let fields = table::size_fields(n, l.diagnostics);
                t.diameter = fields.iter().map(|(f, _)| f.clone()).collect();
                t.field_spans.extend(fields);
            },
        },
        Line { about: DOC, read: |l, n, t| t.doc = l.string(n) },
    ],
    schema: None,
};

/// The block of a phase.
pub static PHASE: Block<Phase> = Block {
    place: "a phase",
    language: "the timing language",
    code: &codes::BAD_TIMING,
    lines: &[
        Line {
            about: About {
                name: "side",
                values: "SIDE",
                doc: "The side whose own turn the phase is: only that side's player plays it, and only that side's \
                      cards are timed in it.",
                example: "side corp",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, p| p.side = l.side_named(n, &format!("phase `{}`", p.id)),
        },
        Line {
            about: About {
                name: "step",
                values: "ID [\"NAME\"] [side SIDE]",
                doc: "A step of the phase, in order; a step of one side times only that side's cards.",
                example: "step cast \"Cast\"",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, p| {
                if let Some(side) = timing::step(n, p, &mut l.timing, l.diagnostics) {
                    let owner = format!("step `{}`", p.steps.last().map_or("", |s| s.id.as_str()));
                    let named = l.side_at(side, &owner);
                    if let Some(step) = p.steps.last_mut() {
                        step.side = named;
                    }
                }
            },
        },
        Line {
            about: About {
                name: "initiative",
                values: "[lowest-first|highest-first]",
                doc: "The phase's steps are the initiative scale's, in the scale's order or the one named. Several \
                      phases may follow the scale, each in its own order.",
                example: "initiative highest-first",
                body: Body::None,
                occurs: Occurs::Once,
            },
            read: |l, n, p| timing::initiative_phase(n, p, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "tie-break",
                values: "",
                doc: "The phase's own tie-break list, in place of the ruleset's for plays of this phase.",
                example: "tie-break { has-initiative; player-chooses }",
                body: Body::Lines(&TIE_BREAK),
                occurs: Occurs::Once,
            },
            read: |l, n, p| p.tie_break = l.tie_break(n),
        },
        Line {
            about: About {
                name: "alternate",
                values: "",
                doc: "Players alternate single plays until both pass.",
                example: "alternate",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |_, _, p| p.alternate = true,
        },
        Line {
            about: About {
                name: "plays",
                values: "DECK-TYPE…",
                doc: "The deck types whose decks are played in the phase.",
                example: "plays squad",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, p| timing::plays(n, p, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "action",
                values: ID_NAME,
                doc: "Something a player may do in the phase in play: take a card from a zone, pay, move it, resolve \
                      its effects. Passing is always open.",
                example: "action buy \"Buy\" { take market-row; pay coin cost; to discard }",
                body: Body::Lines(&play::language::ACTION),
                occurs: Occurs::Many,
            },
            read: |l, n, p| l.action(n, p),
        },
        Line {
            about: About {
                name: "reaction",
                values: ID_NAME,
                doc: "An action offered only in a window a `respond` opens while the phase is on: an answer to what \
                      another player does, resolved before the rest of it.",
                example: "reaction shield \"Raise a shield\" { take hand; resolve reaction; to discard }",
                body: Body::Lines(&play::language::ACTION),
                occurs: Occurs::Many,
            },
            read: |l, n, p| l.reaction(n, p),
        },
        Line {
            about: About {
                name: "start",
                values: "",
                doc: "Done for each player, in seat order, when the phase starts.",
                example: "start { move 1 from draw-deck to hand }",
                body: Body::Lines(&play::language::OPS),
                occurs: Occurs::Many,
            },
            read: |l, n, p| l.phase_procedure(n, p),
        },
        Line {
            about: About {
                name: "end",
                values: "",
                doc: "Done for each player, in seat order, when the phase ends.",
                example: "end { move all from revealed to discard }",
                body: Body::Lines(&play::language::OPS),
                occurs: Occurs::Many,
            },
            read: |l, n, p| l.phase_procedure(n, p),
        },
        Line {
            about: About {
                name: "order-by",
                values: "EXPRESSION",
                doc: "Read for each player once the phase's `start` is done: from then on players act in the order \
                      of its values, highest first; equal values keep the order they had.",
                example: "order-by sum(speed, grade)",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, p| p.play.order_by = l.play_expression(n),
        },
        Line { about: DOC, read: |l, n, p| p.doc = l.string(n) },
    ],
    schema: None,
};

/// A tie-break rule that compares a field.
const fn compares(name: &'static str, doc: &'static str, example: &'static str) -> About {
    About { name, values: "FIELD", doc, example, body: Body::None, occurs: Occurs::Many }
}

/// The block of `tie-break`: rules tried in order.
pub static TIE_BREAK: Block<TieBreaks> = Block {
    place: "`tie-break`",
    language: "the timing language",
    code: &codes::BAD_TIMING,
    lines: &[
        Line {
            about: About {
                name: "kind",
                values: "KIND… [by FIELD [highest|lowest]] [missing first|last]",
                doc: "Plays of the kinds listed first go first; `by` orders plays of one kind by a field.",
                example: "kind spell by power highest",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, t| timing::tie_rule(n, t, timing::kind_rule, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "side",
                values: "SIDE… [if-needed]",
                doc: "Plays of the sides listed first go first; `if-needed` only when an effect needs an order.",
                example: "side first last",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, t| timing::tie_rule(n, t, timing::side_rule, &mut l.timing, l.diagnostics),
        },
        Line {
            about: compares("higher", "The play with the higher value of the field goes first.", "higher power"),
            read: |l, n, t| timing::tie_rule(n, t, timing::higher_rule, &mut l.timing, l.diagnostics),
        },
        Line {
            about: compares("lower", "The play with the lower value of the field goes first.", "lower power"),
            read: |l, n, t| timing::tie_rule(n, t, timing::lower_rule, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "choose",
                values: "higher|lower FIELD",
                doc: "The side whose play has the higher (or lower) value chooses the order.",
                example: "choose lower rating",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, t| timing::tie_rule(n, t, timing::choose_rule, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "has-initiative",
                values: "",
                doc: "The plays of the player who has initiative go first (`cardsmith timeline --initiative SIDE`; \
                      player 1 unless it says).",
                example: "has-initiative",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, t| timing::tie_rule(n, t, timing::has_initiative_rule, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "player-chooses",
                values: "",
                doc: "An outcome: plays still tied are one player's, who plays them in the order they choose. A rule \
                      before it must tell players apart (`has-initiative`, `side`).",
                example: "player-chooses",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, t| timing::tie_rule(n, t, timing::player_chooses_rule, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "simultaneous",
                values: "",
                doc: "An outcome: the plays still tied resolve at the same time.",
                example: "simultaneous",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, t| timing::tie_rule(n, t, timing::simultaneous_rule, &mut l.timing, l.diagnostics),
        },
        Line {
            about: About {
                name: "roll",
                values: "\"HOW\"",
                doc: "An outcome: a roll decides, as the text says.",
                example: "roll \"each rolls a D6; the higher chooses\"",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, t| timing::tie_rule(n, t, timing::roll_rule, &mut l.timing, l.diagnostics),
        },
    ],
    schema: None,
};

/// A set-up step line.
const fn setup_step(name: &'static str, values: &'static str, doc: &'static str, example: &'static str) -> About {
    About { name, values, doc, example, body: Body::None, occurs: Occurs::Many }
}

/// The block of `setup`.
pub static SETUP: Block<Setup> = Block {
    place: "`setup`",
    language: "the set-up language",
    code: &codes::BAD_SETUP,
    lines: &[
        Line {
            about: About {
                name: "players",
                values: "N | MIN..MAX",
                doc: "How many players the game takes.",
                example: "players 2..4",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, s| setup::players(n, s, l.diagnostics),
        },
        Line {
            about: About {
                name: "counter",
                values: "ID \"NAME\" START",
                doc: "A counter each player keeps (life, resources), with its starting value.",
                example: "counter hp \"HP\" 24 { min 0 }",
                body: Body::Lines(&play::language::COUNTER),
                occurs: Occurs::Many,
            },
            read: |l, n, s| l.counter(n, s),
        },
        Line {
            about: About {
                name: "marker",
                values: ID_NAME,
                doc: "In play: a number every card has (damage, exhaustion, tokens), from 0, back to 0 when the card \
                      moves to another zone.",
                example: "marker damage \"Damage\" { doc \"Wounds taken this battle.\" }",
                body: Body::Lines(&play::language::MARKER),
                occurs: Occurs::Many,
            },
            read: |l, n, s| l.marker(n, s),
        },
        Line {
            about: About {
                name: "zone",
                values: ID_NAME,
                doc: "A place cards are kept: who owns it, who sees it, its order and limit, the kinds it holds.",
                example: "zone hand \"Hand\" { owner each; visibility private; limit 7 }",
                body: Body::Lines(&ZONE),
                occurs: Occurs::Many,
            },
            read: |l, n, s| l.zone(n, s),
        },
        DECKS_STEP,
        PLACE_STEP,
        SHUFFLE_STEP,
        DEAL_STEP,
        ADD_STEP,
        MULLIGAN_STEP,
        Line {
            about: About {
                name: "when",
                values: "players N | players MIN..MAX | side SIDE",
                doc: "Set-up steps done only when that many play (a different deal or supply by the number of \
                      players), or only by the player of one side (an asymmetric game's own set-up).",
                example: "when side runner { deal 5 from stack to grip }",
                body: Body::Lines(&SETUP_STEPS),
                occurs: Occurs::Many,
            },
            read: |l, n, s| l.setup_when(n, s),
        },
        Line { about: DOC, read: |l, n, s| s.doc = l.string(n) },
    ],
    schema: None,
};

/// The set-up's steps, each standing in `setup` and in its `when` blocks.
const DECKS_STEP: Line<Setup> = Line {
    about: setup_step(
        "decks",
        "DECK-TYPE… to ZONE [set-aside ZONE] [random]",
        "Puts each player's deck of a type in a zone (a shared zone: the table's): the deck named for the game, \
         else the first of the type; with `random`, one of the type drawn for each game.",
        "decks draw to draw-deck",
    ),
    read: |l, n, s| setup::step(n, setup::DECKS, l.values(), s, l.diagnostics),
};
const PLACE_STEP: Line<Setup> = Line {
    about: setup_step(
        "place",
        "KIND… from ZONE to ZONE",
        "Moves the cards of a kind from one zone to another.",
        "place system from draw-deck to reference",
    ),
    read: |l, n, s| setup::step(n, setup::PLACE, l.values(), s, l.diagnostics),
};
const SHUFFLE_STEP: Line<Setup> = Line {
    about: setup_step("shuffle", "ZONE", "Shuffles a zone.", "shuffle draw-deck"),
    read: |l, n, s| setup::step(n, setup::SHUFFLE, l.values(), s, l.diagnostics),
};
const DEAL_STEP: Line<Setup> = Line {
    about: setup_step(
        "deal",
        "N | FIELD of ZONE from ZONE to ZONE",
        "Deals cards from one zone to another: a number, or a card's field.",
        "deal 6 from draw-deck to hand",
    ),
    read: |l, n, s| setup::step(n, setup::DEAL, l.values(), s, l.diagnostics),
};
const ADD_STEP: Line<Setup> = Line {
    about: setup_step(
        "add",
        "FIELD to COUNTER from ZONE",
        "Adds the field of the cards in a zone to a counter.",
        "add hp to hp from reference",
    ),
    read: |l, n, s| setup::step(n, setup::ADD, l.values(), s, l.diagnostics),
};
const MULLIGAN_STEP: Line<Setup> = Line {
    about: setup_step("mulligan", "ZONE", "Each player may redraw the zone once.", "mulligan hand"),
    read: |l, n, s| setup::step(n, setup::MULLIGAN, l.values(), s, l.diagnostics),
};

const LIMIT_STEP: Line<Setup> = Line {
    about: setup_step(
        "limit",
        "ZONE N",
        "The zone holds at most N cards when that many play, in place of its own `limit`.",
        "limit market-row 4",
    ),
    read: |l, n, s| setup::zone_limit(n, s, l.diagnostics),
};

/// The block of a set-up's `when players …`.
pub static SETUP_STEPS: Block<Setup> = Block {
    place: "a set-up's `when`",
    language: "the set-up language",
    code: &codes::BAD_SETUP,
    lines: &[DECKS_STEP, PLACE_STEP, SHUFFLE_STEP, DEAL_STEP, ADD_STEP, MULLIGAN_STEP, LIMIT_STEP],
    schema: None,
};

/// A zone line's setting.
const fn zone_setting(name: &'static str, values: &'static str, doc: &'static str, example: &'static str) -> About {
    About { name, values, doc, example, body: Body::None, occurs: Occurs::Many }
}

/// The block of a set-up zone.
pub static ZONE: Block<ZoneLines> = Block {
    place: "a zone",
    language: "the set-up language",
    code: &codes::BAD_SETUP,
    lines: &[
        Line {
            about: zone_setting("owner", "each | shared", "Each player has the zone, or all share one.", "owner each"),
            read: |l, n, z| setup::owner(n, z, l.diagnostics),
        },
        Line {
            about: zone_setting(
                "side",
                "SIDE",
                "Only the player of that side has the zone: one zone, theirs (not with `owner shared`).",
                "side runner",
            ),
            read: |l, n, z| z.set_side(l.side_named(n, &format!("zone `{}`", z.id()))),
        },
        Line {
            about: zone_setting(
                "visibility",
                "hidden | private | public",
                "Who sees its cards: no one, their owner, everyone.",
                "visibility public",
            ),
            read: |l, n, z| setup::visibility(n, z, l.diagnostics),
        },
        Line {
            about: zone_setting("ordered", "", "Its cards keep an order (a deck).", "ordered"),
            read: |l, n, z| setup::ordered(n, z, l.diagnostics),
        },
        Line {
            about: zone_setting("limit", "N", "The most cards it holds.", "limit 7"),
            read: |l, n, z| setup::limit(n, z, l.diagnostics),
        },
        Line {
            about: zone_setting("holds", "KIND…", "The kinds of card it may hold.", "holds caster"),
            read: |l, n, z| setup::holds(n, z, l.diagnostics),
        },
        Line {
            about: zone_setting(
                "reshuffle",
                "ZONE",
                "In play: when a card must be taken and it is empty, that zone is shuffled into it first.",
                "reshuffle discard",
            ),
            read: |l, n, z| setup::refill(n, z, l.diagnostics),
        },
        Line {
            about: zone_setting(
                "restock",
                "ZONE",
                "In play: kept filled up to its limit from the top of that zone.",
                "restock market-deck",
            ),
            read: |l, n, z| setup::refill(n, z, l.diagnostics),
        },
        Line {
            about: zone_setting(
                "fallback",
                "ZONE",
                "In play: when a card must be taken and it is empty, the card is taken from the top of that zone \
                 instead (a deck that runs out costs life).",
                "fallback hp-cards",
            ),
            read: |l, n, z| setup::refill(n, z, l.diagnostics),
        },
        Line { about: DOC, read: |l, n, z| setup::zone_doc(l.string(n), z) },
    ],
    schema: None,
};

/// The block of a condition or quantity.
pub static STATE: Block<read::StateLines> = Block {
    place: "a condition or quantity",
    language: "the ruleset language",
    code: &codes::BAD_RULESET,
    lines: &[
        Line { about: PARAM, read: |l, n, s| l.state_param(n, s) },
        Line { about: DOC, read: |l, n, s| s.declared.doc = l.string(n) },
        Line {
            about: About {
                name: "means",
                values: "EXPRESSION",
                doc: "What it is in play: a truth for a condition, a number for a quantity, read from the game state.",
                example: "means count(lit)",
                body: Body::None,
                occurs: Occurs::Many,
            },
            read: |l, n, s| l.means(n, &mut s.declared),
        },
    ],
    schema: None,
};
