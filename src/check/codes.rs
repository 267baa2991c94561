//! Diagnostic codes of the checking phase, each with its explanation.
//!
//! E01xx: files and rulesets.  E02xx: names that do not resolve.  E03xx:
//! values and fields of the wrong shape.  E04xx: decks and construction rules.

use crate::diagnostics::codes;

codes! {
MISSING_GAME "E0101" "missing-game" "\
A content file must say which game its cards belong to, on its first line:

    game dreadnaught-2e

The game names a ruleset: one of the bundled ones (`dreadnaught-2e`) or a
`ruleset` declared in a `.rules` file of your project.  An empty file gets
this error too.";

UNKNOWN_GAME "E0102" "unknown-game" "\
The `game` line names a ruleset that is neither bundled with cardsmith nor
declared by a `.rules` file among the files being checked.  Check the
spelling, or add the `.rules` file to the paths you check.

    game dreadnaught-3e    # wrong: no ruleset has this id
    game dreadnaught-2e    # right";

BAD_RULESET "E0103" "bad-ruleset" "\
A declaration in a ruleset file is malformed: a kind, field, keyword, deck
type or rule does not have the shape the ruleset language expects.  The
message says what is missing.  See docs/language.md, section \"Rulesets\".

    amount lots    # wrong: an amount form is shown by example
    amount 3       # right";

DUPLICATE_RULESET "E0104" "duplicate-ruleset" "\
Two ruleset files declare the same ruleset id.  Each game has one ruleset;
rename one of them, or check only one of the two.

    ruleset sampler { title \"Sampler\" }                     # in sampler.rules
    ruleset sampler { title \"Sampler, house rules\" }        # in house.rules: wrong
    ruleset sampler-house { title \"Sampler, house rules\" }  # in house.rules: right";

DUPLICATE_DECLARATION "E0105" "duplicate-declaration" "\
A ruleset declares the same name twice (two kinds, two keywords, two range
bands ...).  Names must be unique within their kind of declaration.

    kind token \"Token\" { field power int required }
    kind token \"Token\" { field cost int }    # wrong: `kind token` again
    kind relic \"Relic\" { field cost int }    # right";

UNKNOWN_KIND "E0201" "unknown-kind" "\
A top-level item starts with a name that is not a card kind of the game (nor
`deck`).  Card kinds are declared by the ruleset with `kind`; for
Dreadnaught they are `system`, `offense`, `defense`, `terrain`, `event` and
`boost`.

    ofense \"Kinetic Strike\" { ... }     # wrong
    offense \"Kinetic Strike\" { ... }    # right";

UNKNOWN_FIELD "E0202" "unknown-field" "\
A line inside a card names a field the card kind does not declare.  Each
kind lists its fields in the ruleset (`field arc arc`); inside an effect
block the first word may also be a colour role (`impact`, `cost` ...) or
`when`.

    txt \"Deal 3 {damage}.\"     # wrong
    text \"Deal 3 {damage}.\"    # right";

UNKNOWN_KEYWORD "E0203" "unknown-keyword" "\
A keyword is not declared by the game, nor by a `deck-keyword` on the System
Card of the card's deck.  Keywords are declared in the ruleset:

    keyword unstoppable \"Unstoppable\" { param symbols symbol+ }";

UNKNOWN_TAG "E0204" "unknown-tag" "\
A word after a card's name is not a tag of the game.  Tags (such as
`primary`) are declared in the ruleset with `tag`.

    offense \"Kinetic Strike\" primry { ... }     # wrong
    offense \"Kinetic Strike\" primary { ... }    # right";

UNKNOWN_VALUE "E0205" "unknown-value" "\
A name does not belong to the set of values the field accepts (an
enumeration such as a hex colour, or a deck symbol).  The message lists the
accepted values.

    symbol kinetc     # wrong: not a deck symbol of the game
    symbol kinetic    # right";

UNKNOWN_RANGE_BAND "E0206" "unknown-range-band" "\
A range condition names a band the game does not declare.  Dreadnaught 2e has
`close` (0-3), `medium` (4-6), `long` (7-10) and `extreme` (11+); `far` is
the first edition's name.  Write one band, or an open range such as `long..`
for Long or further.

    when range far.. { impact damage +2 }     # wrong
    when range long.. { impact damage +2 }    # right";

UNKNOWN_SYMBOL "E0207" "unknown-symbol" "\
An effect names a symbol the game does not declare.  Dreadnaught has three:
`damage`, `push` and `burn` (Resource Burn):

    impact damage 3";

UNKNOWN_ARC "E0208" "unknown-arc" "\
A firing arc is not one of the game's arcs.  Dreadnaught 2e has seven:
`standard`, `narrow`, `narrow-long`, `forward`, `broadside`, `turret` and
`rear`.

    arc narow     # wrong
    arc narrow    # right";

UNRESOLVED_CARD_REFERENCE "E0209" "unclosed-card-reference" "\
Card text opens a card reference with `*` and never closes it.  A card name
in text is written in italics between two asterisks (`*Spinal Railcannon*`);
write `\\*` for a literal asterisk.  Whether the name exists is checked by the
`unresolved-card-reference` lint.

    text \"Play it after *Spinal Railcannon.\"     # wrong
    text \"Play it after *Spinal Railcannon*.\"    # right";

UNKNOWN_ICON "E0210" "unknown-icon" "\
Card text shows an icon (`{damage}`) the game does not declare.  Icons are
the effect symbols plus the ruleset's `icon` declarations.  Write `\\{` for a
literal brace.

    text \"Deal 3 {damge}.\"     # wrong
    text \"Deal 3 {damage}.\"    # right";

DUPLICATE_CARD "E0211" "duplicate-card" "\
Two cards of the same game have the same name.  Decks refer to cards by
name, so names must be unique; to have several copies of a card, define it
once and list it in a deck with a count (`card \"Kinetic Strike\" x3`).

    offense \"Kinetic Strike\" { ... }
    offense \"Kinetic Strike\" { ... }    # wrong: the same name again
    card \"Kinetic Strike\" x4            # right: one card, 4 copies in the deck";

UNKNOWN_CARD "E0212" "unknown-card" "\
A deck lists a card that no file of the same game defines.  Check the
spelling, and that the file defining the card is among the paths checked.

    card \"Kinetic Strik\" x4     # wrong
    card \"Kinetic Strike\" x4    # right";

UNKNOWN_DECK "E0213" "unknown-deck" "\
A deck includes another deck by a name no deck of the same game has.  A Draw
Deck, for example, names the Offense and Defense Decks it is built from:

    deck \"Kinetic and Armour\" draw {
      deck \"Kinetic\"
      deck \"Armour\"
    }";

DUPLICATE_FIELD "E0214" "duplicate-field" "\
A field that may appear once on a card appears twice.  Remove one of them;
fields that may repeat (such as `at` steps) are declared with `many`.  The
same goes for a value given twice in a set (`arc F/F`) and a tag given twice
on a deck's line (`group \"Avalon\" x1 flagship flagship`).

    offense \"Kinetic Strike\" { symbol kinetic; arc standard; arc turret; ... }   # wrong
    offense \"Kinetic Strike\" { symbol kinetic; arc turret; ... }                 # right";

DUPLICATE_DECK "E0215" "duplicate-deck" "\
Two decks of the same game have the same name.  Other decks include a deck by
its name, so names must be unique within a game.  A deck defined inside
another (a fleet's battlegroup) is named within that deck: two fleets may
each have a battlegroup \"Vanguard 1\", but one fleet may not have two.
Neither deck is counted against its construction rules until the names
differ.

    deck \"Kinetic\" offense { symbol kinetic; ... }
    deck \"Kinetic\" defense { symbol armour; ... }    # wrong: `Kinetic` again
    deck \"Armour\" defense { symbol armour; ... }     # right";

DUPLICATE_KEYWORD "E0216" "duplicate-keyword" "\
A card lists the same keyword twice.  A keyword is a rule the card has or has
not; listing it again adds nothing, and usually means another keyword was
meant.  Remove one:

    keywords volley volley      # wrong
    keywords volley overload    # right

A keyword that takes arguments is listed once with all of them.";

WRONG_TYPE "E0301" "wrong-type" "\
A value has the wrong form for its field: for example a save written `4`
where `4+` is expected, or text where a number is expected.  The message
says which form was expected and which was found.

    armour 4     # wrong: a Dropfleet ship's armour is a save
    armour 4+    # right";

MISSING_FIELD "E0302" "missing-field" "\
A card kind requires a field that the card does not have.  The ruleset marks
such fields `required`; for Dreadnaught every deck card needs its deck
`symbol`, and a Terrain Card needs its placement distance and `hp`.

    offense \"Kinetic Strike\" { arc standard; ... }                   # wrong: no `symbol`
    offense \"Kinetic Strike\" { symbol kinetic; arc standard; ... }   # right";

WRONG_VALUE_COUNT "E0303" "wrong-value-count" "\
A field has more or fewer values than it takes.  `move` on a System Card,
for example, takes the smaller move, the larger move and the initiative:

    move 2 4 3.0";

INITIATIVE_OFF_SCALE "E0304" "initiative-off-scale" "\
An initiative is not a step of the game's initiative scale.  Dreadnaught 2e
counts down from `X` through `5.9`, `5.8` ... to `0.0`, one decimal place
always written: the rulebook's \"initiative 5\" is `5.0`.

    at 5 { impact damage 3 }      # wrong
    at 5.0 { impact damage 3 }    # right";

OUT_OF_BOUNDS "E0305" "out-of-bounds" "\
A number is outside the bounds its field allows (for example an
`indestructible` keyword with 0 HP, or a negative effect value).

    at 3.5 { impact damage -2 }    # wrong
    at 3.5 { impact damage 2 }     # right";

ROLE_NOT_ALLOWED "E0306" "role-not-allowed" "\
An effect uses a colour role that the card kind does not allow.  Each kind
lists its roles in the ruleset; a Dreadnaught System Card, for example, only
has green (`increase`) bonuses, and Terrain only `impact` and `reduction`.

    terrain \"Ice Field\" { place 3; hexes 1; hp 4; collision { cost damage 2 } }     # wrong
    terrain \"Ice Field\" { place 3; hexes 1; hp 4; collision { impact damage 2 } }   # right";

KEYWORD_ARGUMENTS "E0307" "keyword-arguments" "\
A keyword has the wrong number or type of arguments.  `indestructible` takes
the HP of its tokens (`indestructible(3)`), `unstoppable` one or more
symbols (`unstoppable(damage, push)`), and keywords without parameters take
none.

    keywords indestructible       # wrong
    keywords indestructible(3)    # right";

NOT_ALLOWED_ON_KIND "E0308" "not-allowed-on-kind" "\
A keyword or tag is restricted by the ruleset to certain card kinds
(`only terrain`), and this card is of another kind.  `immovable`, for
example, only applies to Terrain.

    offense \"Kinetic Strike\" { ...; keywords immovable }                      # wrong
    terrain \"Ice Field\" { place 3; hexes 1; hp 4; keywords immovable }        # right";

MISSING_NAME "E0309" "missing-name" "\
A card or deck has no name.  The name comes right after the kind, in quotes:

    offense \"Kinetic Strike\" { ... }";

FIELDS_TOGETHER "E0310" "fields-together" "\
The ruleset says some fields go together: a card that has one must have all.
Moving terrain, for example, needs its `speed`, the initiative it `moves-at`
and its `chevron` direction; a missile token needs both `proximity` and `hit`
effects.

    terrain \"Drifting Hulk\" { place 4; hexes 3; hp 10; speed 2 }      # wrong
    terrain \"Drifting Hulk\" {                                         # right
      place 4; hexes 3; hp 10
      speed 2; moves-at 1.0; chevron forward
    }";

BLOCK_MISMATCH "E0311" "block-mismatch" "\
A field that holds a block (`at 3.5 { ... }`) was written without one, or a
field that holds only values was given a block.

    at 3.5                            # wrong
    at 3.5 { impact damage 3 }        # right
    arc turret { impact damage 1 }    # wrong
    arc turret                        # right";

UNKNOWN_CONDITION "E0312" "unknown-condition" "\
A `when` line inside an effect block names a condition the game does not
declare.  Every game whose ruleset declares range bands has the range
condition, `when range BAND { ... }` (or an open range, `when range long..
{ ... }`); the others are declared by the ruleset, with the values they
take:

    condition target-has \"if the target has a {token} token\" {
      param token token-kind
    }

and written on a card with those values, in order:

    when target-has burn { impact damage +2 }

Check the spelling against the list in the note, or declare the condition.";

BAD_AMOUNT "E0313" "bad-amount" "\
An effect line is `ROLE SYMBOL AMOUNT`: the amount is a whole number, with
`+` after it when another effect on the card can increase it (`8+`), or
before it when it adds to the current value (`+2`).  A ruleset may allow
only some of these forms, each with what it means in the game:

    amount 3
    amount +3 \"added to the current value\"

and then an amount of another form (`3+` here) is this error.";

CARD_RULE_BROKEN "E0314" "card-rule-broken" "\
A card, or one of its blocks, breaks a rule its kind declares in the ruleset
(`require` inside a `kind`, `shape` or `field`), such as \"red arrows move the
target ship into blue hexes\" or \"the smaller move is not larger than the
larger\".  The message names the rule; the labels point at the lines of the
card it reads (the row that breaks a rule of every row) and at the rule.

    move 4 2 3.0    # wrong: the smaller move is larger than the larger
    move 2 4 3.0    # right";

CARD_RULE_ADVICE "W0315" "card-rule-advice" "\
A card, or one of its blocks, does not follow a rule its kind declares as a
recommendation (`recommend` inside a `kind`, `shape` or `field`).  The card is
still valid.

    at 2.4 { impact damage 4 }
    keywords unstoppable(damage, push)    # warned: the card never pushes
    keywords unstoppable(damage)          # right";

EMPTY_BLOCK "W0316" "empty-block" "\
A field that holds a block was given an empty one (`ally {}`): it does
nothing on the card, and is most often an unfinished line.  Write what it
holds, such as an effect line, or remove it.

    collision {}                     # warned
    collision { impact damage 2 }    # right";

DIE_NOT_OF_THE_GAME "E0317" "die-not-of-the-game" "\
A roll names a die the game does not use.  A ruleset that says which dice
its game rolls (`dice D3 D6`) refuses any other, so a `D7` or a `D12` typed
by mistake is caught.

    attack D7    # wrong: Dropfleet rolls D3 and D6
    attack D6    # right";

BACKWARDS_RANGE "E0318" "backwards-range" "\
A span of range bands in a `when range` condition names the farther band
first.  A span runs from the nearer band to the farther.

    when range long..close { impact damage 1 }    # wrong
    when range close..long { impact damage 1 }    # right";

DECK_RULE_BROKEN "E0401" "deck-rule-broken" "\
A deck breaks one of the construction rules its deck type declares in the
ruleset (`require`).  The message names the rule; the note gives the counted
value.  The second label points at the rule in the ruleset.

    deck \"Kinetic\" offense {
      symbol kinetic
      card \"Kinetic Strike\" x3    # wrong: the deck then has 26 cards, not 27
      card \"Kinetic Strike\" x4    # right
      ...
    }";

DECK_RULE_ADVICE "W0402" "deck-rule-advice" "\
A deck does not follow a construction rule that the ruleset declares as a
recommendation (`recommend`) rather than a hard rule.  The deck is still
valid.

    card \"Kinetic Strike\" x5    # warned: more than 4 copies
    card \"Flak Batteries\" x2
    card \"Kinetic Strike\" x4    # right: 27 cards still, at most 4 of each
    card \"Flak Batteries\" x3";

SYMBOL_MISMATCH "E0403" "symbol-mismatch" "\
A card in a deck carries another deck's symbol.  A preconstructed deck holds
the cards bearing its symbol (the deck's `symbol` line).

    deck \"Kinetic\" offense {
      symbol kinetic
      card \"Reactive Plating\"    # wrong: an `armour` card
      card \"Rail Torpedo\"        # right: a `kinetic` card
      ...
    }";

UNKNOWN_DECK_TYPE "E0404" "unknown-deck-type" "\
A deck names a deck type the ruleset does not declare.  Dreadnaught 2e has
`offense`, `defense` and `draw`:

    deck \"Kinetic\" offense { ... }";

MISSING_DECK_SYMBOL "E0405" "missing-deck-symbol" "\
This deck type matches its cards by symbol, so the deck must say its symbol:

    deck \"Kinetic\" offense {
      symbol kinetic
      ...
    }";

WRONG_DECK_INCLUDED "E0406" "wrong-deck-included" "\
A deck includes another deck of a type it cannot be built from.  A Draw Deck
includes one Offense Deck and one Defense Deck.

    deck \"Kinetic and Armour\" draw {
      deck \"Kinetic\"
      deck \"Kinetic and Armour\"    # wrong: a Draw Deck
      deck \"Armour\"                # right: a Defense Deck
    }";

BAD_COPY_COUNT "E0407" "bad-copy-count" "\
A copy count must be at least 1 (`x1`, `x2` ...).  Leave the card out of the
deck instead of listing it `x0`.

    card \"Rail Torpedo\" x0    # wrong
    card \"Rail Torpedo\" x1    # right";

DECK_INCLUDE_CYCLE "E0408" "deck-include-cycle" "\
A deck includes itself, directly or through the decks it includes: the
deck would hold itself, so it could never be counted out.  The error is at
the line that closes the cycle, and names the decks in it; none of them is
counted until the cycle is broken.

    deck \"Outer\" pile {
      deck \"Inner\"
    }
    deck \"Inner\" pile {
      deck \"Outer\"    # wrong: `Outer` includes `Inner`
      card \"Token\"    # right: list the cards instead
    }";

DECK_TOO_LARGE "E0409" "deck-too-large" "\
A deck holds more than 100,000 cards, or its included decks nest more than
8 deep.  A deck's cards are counted with those of the decks it includes,
each included deck as many times as it is listed, and each line that
includes a deck counts as one card (it is built, even for an empty deck), so
ten lines including a deck of 10,000 cards already hold 100,010.  The count is made before any
deck is put together, so a few lines cannot fill the memory.  The decks of
one game hold at most 10,000,000 cards in all, each deck counted with its
includes and with the deck it is measured against; decks past that are not
checked.

    deck \"Ten\" pile { deck \"Big\"; deck \"Big\"; deck \"Big\" }   # each `Big` counts
    card \"Token\" x5000000                                      # wrong: too many copies";

BAD_TIMING "E0120" "bad-timing" "\
A timing declaration of the ruleset (`initiative`, `side`, `phase`,
`step-names`, `tie-break`) does not have the shape the language expects.  The
message says what is missing.  For example, a side names the player who plays
it:

    side north \"North\" player 1

See docs/rulesets.md, section \"Timing\".";

UNKNOWN_TIMING_NAME "E0121" "unknown-timing-name" "\
A timing declaration names something the ruleset does not declare: a side in
a `side` tie-break rule, a field in `higher`, `lower` or `choose`, a deck type
in a phase's `plays`, the enum of `step-names`, or a step that is not a value
of that enum.  For example, with only `side north` and `side south`
declared:

    tie-break {
      side north suoth   // did you mean `south`?
      simultaneous
    }";

TIE_BREAK_OUTCOME "E0122" "tie-break-outcome" "\
A tie-break list must say what happens to plays that none of its rules
separates, with an outcome as its last rule: `simultaneous` (they resolve at
the same time and cannot affect each other) or `roll \"how\"` (a roll decides).
An outcome decides every tie left, so nothing may follow it:

    tie-break {
      higher power
      side north south
      simultaneous
    }";

BAD_SPECIAL "E0131" "bad-special" "\
A special value is a token a card writes in place of a value, such as `-`
(not applicable) or `*` (see the card's text).  A ruleset declares a token
with its meaning, and a field's type says which tokens it accepts:

    special \"X\" see-text \"Varies: the card's text gives the value\"
    kind ship \"Ship\" {
      field hull int or \"X\" required
    }

`-` (`not-applicable`) and `*` (`see-text`) are known without a declaration.
The meaning is `not-applicable` or `see-text`; the token is at most 8
characters, with no digit, space, quote, brace, comma or `;`.  This error
says a declaration is malformed, or a type accepts a token that is not
declared or that is already one of its values (an enum value, the
initiative scale's `X`), which cards could then no longer write.";

BAD_SETUP "E0132" "bad-setup" "\
A ruleset's `setup` block says how a game is set up: players, counters,
zones and the steps that fill them.  A line of it is malformed, names a zone,
card kind or deck type the ruleset does not declare, or deals more cards
than a zone holds:

    setup {
      players 2
      counter hp \"HP\" 24
      zone draw-deck \"Draw Deck\" { owner each; visibility hidden; ordered }
      zone hand \"Hand\" { owner each; visibility private; limit 7 }
      decks offense defense to draw-deck
      shuffle draw-deck
      deal 6 from draw-deck to hand
    }

See docs/rulesets.md, section \"Set-up\".";
TOO_FEW_OPTIONS "E0330" "too-few-options" "\
A `choose` block offers the player a choice, so it holds at least two
options: each effect line or `when` block inside it is one option, and an
`option { ... }` block groups several lines into one:

    choose {
      gain trade 3
      option { gain combat 5; gain authority 1 }
    }

With one option, write its lines without `choose`.";

UNKNOWN_QUANTITY "E0331" "unknown-quantity" "\
An effect's amount counts something of the game its ruleset does not
declare.  An amount that depends on the game names a quantity the ruleset
declares, with its values, either after `per` or in the amount's place:

    quantity bases \"for each base you have\"
    quantity that-many \"that many\"

    draw card 1 per bases
    gain trade that-many

Check the spelling against the list in the note, or declare the quantity.";

LINE_AFTER_THEN "W0332" "line-after-then" "\
An effect block holds a line after a `then` step.  A `then` block's effects
resolve after every other line of the block around it, wherever those lines
are written, so a line written below it still resolves first:

    draw card 1
    then { scrap card 1 }
    gain trade 2          // resolves with `draw card 1`, before the scrap

Move the line above the `then` block, or into it (or into a second `then`
block after the first, to resolve after it).";

UNKNOWN_RULE_FUNCTION "E0420" "unknown-rule-function" "\
A rule calls a function the rule language does not have.  The functions
are `count`, `distinct`, `groups`, `max-copies`, `max-groups`, `all`, `any`,
`sum`, `sum-rows`, `subset`, `values`, `out-of-range`, `decks`, `every`,
`value`, `numbers`, `effects`, `rows`, `each-row`, `args`, `each-arg`,
`some`, `choices`, `min`, `max`, `shared`, `removed` and `added`
(docs/rulesets.md, \"Rule expressions\"):

    require \"20 Offense Cards\" cuont(offense) == 20   # wrong
    require \"20 Offense Cards\" count(offense) == 20   # right";

RULE_ARITY "E0421" "rule-arity" "\
A rule function is given too few or too many arguments.  `sum` takes a field
and then filters, `value` a field and a position, `every` one rule:

    require \"the smaller move first\" value(move) <= value(move, 2)      # wrong
    require \"the smaller move first\" value(move, 1) <= value(move, 2)   # right";

RULE_TYPE "E0422" "rule-type" "\
A part of a rule has the wrong type.  A rule has numbers (`3`,
`count(offense)`), truths (`count() == 27`, `all(...)`, `any(...)`), and, as
arguments, filters (`offense`, `cost >= 2`), fields, deck types and
positions.  A rule as a whole is a truth (a `compute` line's is a number);
`and`, `or` and `not` join truths; `+ - * /` and `< <= > >=` take numbers;
`==` and `!=` compare two numbers or two truths.

    require \"ships have a cost\" cost                    # wrong: a filter
    require \"ships have a cost\" all(cost)               # right
    require \"no extras\" count(extra)                    # wrong: a number
    require \"no extras\" count(extra) == 0               # right";

UNKNOWN_RULE_NAME "E0423" "unknown-rule-name" "\
A rule names a kind, tag, keyword, field or deck type its ruleset does not
declare.  A filter is a kind, tag or keyword, or a field (the cards that
have it); `sum` and `values` take a field; `decks` takes deck types.

    require \"scouts cost nothing\" all(not (cost and scuot))   # wrong
    require \"scouts cost nothing\" all(not (cost and scout))   # right";

IMPOSSIBLE_RULE_VALUE "E0424" "impossible-rule-value" "\
A field test compares a field with a name the field can never hold: the
ruleset declares every value of the field (an enum, symbols, arcs ...), and
this is none of them, so the test would never hold and the rule would
silently never fire.  A field of numbers holds no names at all: compare it
with a number.

    enum faction { unaligned; blob; star }
    require \"no unaligned ships\" all(faction != unalinged)   # wrong
    require \"no unaligned ships\" all(faction != unaligned)   # right
    require \"no free ships\" all(cost != free)                # wrong: cost is a number
    require \"no free ships\" all(cost >= 1)                   # right";

RECURSIVE_DEFINITION "E0425" "recursive-definition" "\
A rule calls a definition (`def`) that uses itself, directly or through
other definitions, or definitions that use each other more than 8 deep, or
so many that the rule would expand to more than 10,000 calls.  A
definition is expanded where it is called, so it cannot repeat itself:

    def many(n) count() >= n and many(n)        # wrong: uses itself
    def many(n) count() >= n                    # right";

RULE_TOO_LARGE "E0428" "rule-too-large" "\
A rule grows past 100,000 parts (numbers, names, calls and operands) as its
definitions are expanded.  A definition is copied where it is called, and
its argument is copied at each use of a parameter, so a call inside a
call's argument can double the rule at each level: `f(f(f(1)))` with
`def f(n) n + n` holds eight ones, and thirty levels a billion.  The size
is counted before anything is built.

    def twice(n) n + n
    require \"small\" count() <= twice(twice(twice(twice(1))))   # grows fast
    require \"small\" count() <= 16                              # the same, written out";

RULE_SCOPE "E0426" "rule-scope" "\
A rule uses a function that means nothing where the rule is declared.  A
rule of a kind, shape or field is about one card; a deck type's rule is
about the cards of a deck, and may look into the decks it includes; a
play limit is about the cards one player plays in a turn.  `value` and
`numbers` read one card, so they belong in a kind's rules; `decks`,
`every` and `some` look into included decks, so they belong in a deck
type that `includes` others:

    deck-type line \"Line\" {
      require \"small moves\" value(move, 1) <= 2     # wrong: one card's value
      require \"small moves\" sum(move) <= 6          # right
    }";

UNUSED_DEFINITION "W0427" "unused-definition" "\
A ruleset declares a definition (`def`) that no rule calls.  A definition
is checked where a rule calls it, with the arguments it is given, so a
mistake in one that nothing calls would go unseen.  Call it from a rule,
or remove it:

    def at-most(n) count() <= n
    require \"a band has at most 3 units\" at-most(3)";
}
