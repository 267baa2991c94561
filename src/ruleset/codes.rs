//! Diagnostic codes of reading a ruleset, each with its explanation.
//!
//! E01xx: files and rulesets.  E02xx: names that do not resolve.  E03xx:
//! values of the wrong shape.  E04xx: construction rules.

use crate::diagnostics::codes;

codes! {
BAD_RULESET "E0103" "bad-ruleset" "\
A declaration in a ruleset file is malformed: a kind, field, keyword, deck
type or rule does not have the shape the ruleset language expects.  The
message says what is missing.  See docs/language.md, section \"Rulesets\".

    amount lots    # wrong: an amount form is shown by example
    amount 3       # right";

DUPLICATE_DECLARATION "E0105" "duplicate-declaration" "\
A ruleset declares the same name twice (two kinds, two keywords, two range
bands ...).  Names must be unique within their kind of declaration.

    kind token \"Token\" { field power int required }
    kind token \"Token\" { field cost int }    # wrong: `kind token` again
    kind relic \"Relic\" { field cost int }    # right";

INITIATIVE_OFF_SCALE "E0304" "initiative-off-scale" "\
An initiative is not a step of the game's initiative scale.  Dreadnaught 2e
counts down from `X` through `5.9`, `5.8` ... to `0.0`, one decimal place
always written: the rulebook's \"initiative 5\" is `5.0`.

    at 5 { impact damage 3 }      # wrong
    at 5.0 { impact damage 3 }    # right

A scale of whole numbers (`initiative from 1 to 6 by 1`) takes whole
values: `3.4` is no initiative of the game, unless the scale says
`priority-digit` (a tenth that orders values within a step).";

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
    }

`player-chooses` is an outcome too: the plays still tied are one player's,
who orders them.  A rule before it must tell the players apart
(`has-initiative`, `side A B`, `choose`), else plays of two players could
be left tied with no one to order them.";

IDLE_SCALE_WORD "W0123" "idle-scale-word" "\
A word of the `initiative` line changes nothing where it stands:
`whole-steps` lets a scale of tenths accept `3` for `3.0`, and a scale of
whole numbers takes `3` already.

    initiative from 1 to 6 by 1 whole-steps    # warning: nothing to change
    initiative from 1 to 6 by 1                # right";

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
card kind or deck type the ruleset does not declare, deals more cards than a
zone holds, or mixes up the sides of an asymmetric game (a counter or zone
both shared and one side's, a step of one side on another side's zone, a
step every player does on one side's zone: write it in `when side SIDE`):

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
BAD_DIAL "E0134" "bad-dial" "\
A ruleset's `dial` block says that the lines of a repeated field are the
manoeuvres of a card's dial: a grid of bearings by speeds, each manoeuvre
coloured by its difficulty.  A line of it is malformed, names a field or enum
the ruleset does not declare, leaves a difficulty without a colour, or the
field's lines are not a speed of bounded whole numbers, a bearing and a
difficulty:

    enum bearing { bank-left \"Bank left\"; straight \"Straight\"; bank-right \"Bank right\" }
    enum difficulty { easy \"Easy\"; normal \"Normal\"; hard \"Hard\" }
    kind pilot \"Pilot\" { field move int 1..5 bearing difficulty many }
    dial manoeuvres \"Manoeuvre Dial\" {
      field move
      bearings bearing
      difficulties difficulty
      colour easy blue
      colour normal white
      colour hard red
    }

See docs/rulesets.md, section \"Dials\".";
BAD_TABLE "E0133" "bad-table" "\
A ruleset's `table` block says what the game is played on: its size, its
deployment zones and the fields that give a piece its size, in the game's
unit of distance.  A line of it is malformed, a zone lies off the table,
or it names a side or field the ruleset does not declare:

    table \"Table\" {
      size 36 x 36
      deployment red-edge \"Red deployment\" side red 0,0 36,6
      radius radius
    }

See docs/rulesets.md, section \"The table\".";
UNKNOWN_RULE_FUNCTION "E0420" "unknown-rule-function" "\
A rule calls a function the rule language does not have.  The functions
are `count`, `distinct`, `groups`, `max-copies`, `max-groups`, `all`, `any`,
`sum`, `sum-rows`, `subset`, `values`, `out-of-range`, `decks`, `every`,
`value`, `numbers`, `effects`, `rows`, `each-row`, `args`, `each-arg`,
`some`, `choices`, `min`, `max`, `shared`, `removed`, `added`,
`beyond-source`, `gap`, `edge-gap`, `quarter-spread` and `inside`
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
    require \"no free ships\" all(cost >= 1)                   # right

A field of no number — initiative steps, text, names without weights —
is never equal to a number nor larger or smaller than one:

    require \"fast units\" all(initiative >= 5)               # wrong: a step is no number";

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

PLAY_EXPRESSION "E0501" "play-expression" "\
An expression of play (`means`, `ends-when`, `score-by`, or a name a play
line gives as an amount, a filter or a test) does not compile: a name that
is not a zone, counter, quantity, condition, field, kind or tag of the
ruleset, a function that is not one of play's, or a value of the wrong
type.  Play expressions read the game state:

    quantity lanterns \"for each lantern you have lit\" { means count(lit) }
    condition rich \"if you have 5 coin\" { means coin >= 5 }
    condition ally \"…\" { param guild guild; means count(revealed, guild == param(guild) and not this) >= 1 }

Functions: `count(ZONE, FILTER…)`, `sum(ZONE, FIELD, FILTER…)`,
`opponent(COUNTER)`, `opponent-count(ZONE, FILTER…)`, `param(NAME)`; names:
counters, quantities, conditions without parameters, `amount`, `last`,
`round`, and in a filter a kind, a tag, a field, `this`, a `def`.  See
docs/play.md.";

BAD_PROCEDURE "E0502" "bad-procedure" "\
A line of play (an operation of a `does`, `start` or `end` block, an
`action`, a `play` or `bot` line) is not written as the language says, or
names a zone, counter, role, field or action the ruleset does not declare.
The message says what was expected:

    does gain { move amount from draw-deck to hand }   # right
    does gain { move amount draw-deck hand }           # wrong: `from` and `to`

See docs/play.md for every operation.";

MISSING_FOR_PLAY "W0503" "missing-for-play" "\
A ruleset declares how its game is played (`play { … }`), but something
its cards use has no meaning in play: an effect whose symbol says nothing
for its role (`does ROLE { … }`), a condition or quantity without
`means`, a phase where players can do nothing.  The game still checks,
builds and prints; `cardsmith simulate` and `cardsmith play` refuse it
until it is given:

    symbol coin \"Coin\" {
      does gain { add coin amount }    # `gain coin 2` now plays
    }";
OTHER_SIDES_COUNTER "W0505" "other-sides-counter" "\
A phase of one side changes a counter of another side as its own: the
side whose turn it is has no such counter, so in play the change does
nothing (it reads 0, and paying from it always fails).  A change to the
other player's counter says `opponent`:

    phase crew-turn \"Crew Turn\" {
      side crew
      end { add alert 1 }             # wrong: the Crew has no alert
      end { add alert 1 opponent }    # right: the House's alert
    }";
FAINT_COLOUR "W0140" "faint-colour" "\
A role's colour or a kind's border hardly shows on the card: its contrast
with the white body of the bundled and generic faces is under 1.5 to 1
(white is 1, yellow about 2).  A role's effects would print faint, and a
border frames the face, with the card's name printed in white on it:

    role boost \"Boost\" { colour white }    # warning: white on white
    role boost \"Boost\" { colour green }    # right

Choose a darker colour of the palette, or a `#rrggbb` dark enough to read.";

ALIKE_IN_GREY "W0141" "colours-alike-in-grey" "\
Two roles' colours print as nearly the same grey (their contrast ratio is
under 1.2 to 1), and their marks do not tell them apart: one has no `mark`,
or both have the same.  Printed in black and white, or read by a
colour-blind player, their effects look alike.  Red and blue are such a
pair:

    role cost \"Cost\" { colour red }
    role reduce \"Reduce\" { colour blue }    # warning

    role cost \"Cost\" {
      colour red
      mark triangle-down
    }
    role reduce \"Reduce\" {
      colour blue
      mark diamond                            # right: marks tell them apart
    }

A `mark` of its own on each role (an icon printed before its effects) is
the cue that survives any printer; see docs/print.md.";
}
