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

DUPLICATE_RULESET "E0104" "duplicate-ruleset" "\
Two ruleset files declare the same ruleset id.  Each game has one ruleset;
rename one of them, or check only one of the two.

    ruleset sampler { title \"Sampler\" }                     # in sampler.rules
    ruleset sampler { title \"Sampler, house rules\" }        # in house.rules: wrong
    ruleset sampler-house { title \"Sampler, house rules\" }  # in house.rules: right";

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

ICON_IN_BRACKETS "W0217" "icon-in-brackets" "\
A card's text writes an icon's name in square brackets (`[credit]`), as
another tool or a rulebook might, rather than in braces.  The faces print
the brackets and the word, not the icon, and a misspelt name would never be
caught.  Write it as an icon:

    text \"Gain 2 [credit].\"    # warned
    text \"Gain 2 {credit}.\"    # right

A word in brackets that the ruleset declares otherwise (a tag, a keyword, an
enum value, as printed) is left alone.";

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

MANOEUVRE_TWICE "E0319" "manoeuvre-twice" "\
A card's dial lists a manoeuvre twice: two lines of the dial's field with
the same speed and bearing.  A dial has one cell for each speed and
bearing, so the card says two things about one manoeuvre.

    move 2 straight easy
    move 2 straight hard    # wrong: speed 2 straight is on the dial already
    move 3 straight hard    # right";

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

WRONG_SIDE "E0410" "wrong-side" "\
A deck holds a card of another side.  In a game of asymmetric sides, a kind
or a deck type may belong to one side (`side runner` in its block); a deck
of a side's deck type then holds only that side's cards and cards of kinds
that belong to no side.

    kind program { side runner }
    deck-type corp-deck \"Corporation deck\" { side corp }

    deck \"Vaults\" corp-deck {
      card \"Icebreaker\"     # wrong: a `program`, a runner's card
      card \"Firewall\"       # right: a card of a corporation's kind
    }";

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

RULE_NAMES_NO_CARD "W0410" "rule-names-no-card" "\
A rule tests for a card by its name (`name == \"Scout\"`), but no card of
the game has that name, nor does any row of a card start with it: the test
never matches, and the rule silently counts nothing.  Check the spelling
against the cards' names.

    require \"one Explorer at most\" count(name == \"Explorr\") <= 1   # warned
    require \"one Explorer at most\" count(name == \"Explorer\") <= 1  # right";

REPEATED_CONDITION "W0333" "repeated-condition" "\
One effect block holds two `when` blocks under the same condition.  Both
apply together whenever it holds, so the second is most often a copy left
behind or a condition meant to be another one:

    when ally { gain coin 1 }
    when ally { draw card 1 }          // warned: the same condition
    when ally { gain coin 1; draw card 1 }   // right

Merge them into one block, or correct the condition of the second.";

PLAY_LIMIT_NOT_PLAYED "W0504" "play-limit-not-played" "\
A ruleset declares how its game is played (`play { … }`) and a
`play-limit` that `cardsmith play` and `cardsmith simulate` cannot read
over the cards a player plays in a turn: it uses a function or filter that
reads a deck (its lines with `groups`, its included decks, its parameters,
`deck`) or card text (`mentions`, `says`), or a keyword's arguments.  The
game still checks, builds and prints; play refuses it until the limit is
written with what play reads:

    play-limit \"one kind of unit a turn\" groups(unit) <= 1     # warned
    play-limit \"one kind of unit a turn\" distinct(unit) <= 1   # right

Play reads `count`, `distinct`, `max-copies`, `all`, `any`, `sum`, `min`
and `max`, with filters of kinds, tags, keywords, fields and names.  See
docs/play.md, \"Play limits\".";
}
