//! Every lint: its name, code, default level and explanation.

use super::Level;
use crate::diagnostics::Code;

pub struct Lint {
    /// The stable name used in `cardsmith.toml` and `allow` lines.
    pub name: &'static str,
    pub code: &'static Code,
    pub default: Level,
    /// Whether `cardsmith lint --fix` can fix it.
    pub fixable: bool,
}

macro_rules! lints {
    ($($konst:ident $id:literal $name:literal $default:ident $fixable:literal $text:literal;)*) => {
        $(pub const $konst: Code = Code { id: $id, name: $name, explanation: $text };)*
        pub const LINTS: &[Lint] = &[$(Lint { name: $name, code: &$konst, default: Level::$default, fixable: $fixable }),*];
        pub const CODES: &[&Code] = &[$(&$konst),*];
    };
}

lints! {
TEXT_STRUCTURE_MISMATCH "L0001" "text-structure-mismatch" Warn false "\
The card's text and its structured effects disagree: the text says
`+2 {damage}` but no effect line gives 2 Damage, or the card has an effect
line whose symbol its text never mentions.  Players read the text; engines
read the effects.  Make them say the same thing.  Cards without text are not
checked.

    at 3.5 { impact damage 3 }
    text \"Deal 2 {damage}.\"    # wrong: the effect is 3
    text \"Deal 3 {damage}.\"    # right";

KEYWORD_SPELLING "L0002" "keyword-spelling" Warn true "\
Card text names a keyword with other casing than the ruleset declares
(`remains in play` for `Remains in Play`).  Keywords are printed the same way
on every card so players recognise them.  `cardsmith lint --fix` rewrites
them.

    keywords remains-in-play
    text \"Deal 3 {damage}. remains in play.\"    # wrong
    text \"Deal 3 {damage}. Remains in Play.\"    # right";

UNRESOLVED_CARD_REFERENCE "L0003" "unresolved-card-reference" Deny false "\
Card text names a card in italics (`*Spinal Railcannon*`) that no card of the
same game defines.  The nearest real name is suggested.  Card names in text
must match a card exactly, because engines and the print layout follow the
reference.

    text \"Play it after *Spinal Railgun*.\"       # wrong
    text \"Play it after *Spinal Railcannon*.\"    # right";

NEAR_DUPLICATE_NAMES "L0004" "near-duplicate-names" Warn false "\
Two cards of the same game have names that differ by one or two letters
(`Kinetic Strike` and `Kinetic Strik`): usually a typing mistake that left a
card defined twice.  If both are meant, allow the lint on one of them:

    offense \"Kinetic Strikes\" {
      allow near-duplicate-names
      ...
    }";

TERMINOLOGY_DRIFT "L0005" "terminology-drift" Warn true "\
Card text uses a short form of one of the game's terms: `burn` where the
ruleset's word is `Resource Burn`.  Consistent terms keep rules questions
away.  `cardsmith lint --fix` writes the full term.

Only certain short forms are reported: the symbol's name is a term of two or
three capitalised words (not a phrase such as `Destroy target base`), its
last word belongs to no other name the ruleset declares (another term, a
kind, a field, a tag, an enum value), and the word does not stand inside
another term or a card name in the text.  A short form followed by a number
reads as a verb (`must burn 1 card`), where the term, a noun, would not
(`Resource Burn 1 card`): it is still reported, but `--fix` leaves it.
`--fix` writes nothing when the fixed text would check with a problem it did
not have before.

    at 3.5 { impact burn 1 }
    text \"Inflict 1 burn.\"             # wrong
    text \"Inflict 1 Resource Burn.\"    # right";

EFFECT_WITHOUT_INITIATIVE "L0006" "effect-without-initiative" Warn false "\
The card has effects but no initiative step at which they resolve, although
its kind has one (`at 3.5 { ... }`).  An engine cannot order such effects.

    offense \"Loader\" {                                  # wrong
      symbol kinetic; arc standard; keywords overload
      overload { cost damage 1; impact damage +1 }
    }
    offense \"Loader\" {                                  # right
      symbol kinetic; arc standard; keywords overload
      at 1.0 { impact damage 1 }
      overload { cost damage 1; impact damage +1 }
    }";

UNUSUAL_ROLE "L0007" "unusual-role" Warn false "\
An effect uses a colour role that the ruleset marks as unusual for the card's
kind (`rare-roles` in the kind), such as a blue reduction on an Offense Card.
Some cards do this on purpose; allow the lint on them.

    at 3.5 { reduction damage 2 }    # warned on an Offense Card
    allow unusual-role               # right, on a card that means it";

UNPAYABLE_COST "L0008" "unpayable-cost" Warn false "\
A cost is larger than any ship can pay, by the ruleset's `cost-limit` (a
Dreadnaught starts with 24 HP, so a cost of 30 Damage can never be paid).

    at 3.5 { impact damage 9; cost damage 30 }    # wrong: more than 24 HP
    at 3.5 { impact damage 9; cost damage 3 }     # right";

TEXT_TOO_LONG "L0009" "text-too-long" Warn false "\
The card's text is longer than its kind's layout holds (`text-limit` in the
ruleset, in characters).  Printed, it would be shrunk below a legible size or
cut.

    text \"Deal 3 {damage}. Then more words here. Then more ...\"   # wrong: over 240 characters
    text \"Deal 3 {damage}.\"                                       # right";

CARD_IN_NO_DECK "L0010" "card-in-no-deck" Allow false "\
A card is defined but no deck lists it.  Allowed by default, since designers
often write cards before decks; turn it on in `cardsmith.toml` before a print
run:

    [lints]
    card-in-no-deck = \"warn\"";

RULE_IS_WARNING "L0011" "rule-is-warning" Allow false "\
A ruleset declares a construction rule as a recommendation (`recommend`)
rather than a requirement (`require`), so decks that break it are still
valid.  Turn this on when auditing a ruleset.

    # cardsmith.toml
    [lints]
    rule-is-warning = \"warn\"

and, in the ruleset:

    recommend \"a pile holds at most 10 cards\" count() <= 10    # warned
    require \"a pile holds at most 10 cards\" count() <= 10      # not warned";

UNKNOWN_LINT "L0000" "unknown-lint" Warn false "\
An `allow`, `warn` or `deny` line, or the `[lints]` table of `cardsmith.toml`,
names a lint that does not exist.  `cardsmith lint --list` lists them.

    allow near-duplicate-name     # wrong
    allow near-duplicate-names    # right";
}
