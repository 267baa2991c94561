//! Diagnostic codes of printing, each with its explanation.  E07xx.

use crate::diagnostics::codes;

codes! {
TEXT_OVERFLOW "E0701" "text-overflow" "\
A card's text does not fit its box on the printed face, even at the
smallest size the template allows.  cardsmith wraps text to its box and
shrinks it step by step down to that minimum; what still does not fit is
cut off with an ellipsis, so the printed card would be missing words.

Shorten the text (move reminder text to the rulebook, use icons such as
`{damage}` instead of words), or, if you design the card layout, give the
box more room or a smaller minimum size in the template's `text_box` call.";

TEMPLATE_ERROR "E0702" "template-error" "\
A face template could not be read or rendered.  Templates are tera
templates (`templates/<ruleset>/<kind>.svg`); the message carries tera's
own explanation, such as an unknown variable or an unclosed tag.  When the
template is one of your project's overrides, fix it or delete it to use the
bundled one.";

UNKNOWN_DECK "E0703" "no-such-deck" "\
`cardsmith print --deck NAME` names a deck that none of the checked files
declares.  Deck names are the quoted names after `deck` (or the word the
game uses, such as `fleet`); the message lists the decks that exist.";

BAD_FACE "E0704" "bad-face" "\
A face produced by a template is not valid SVG, so it cannot be drawn.
This points at a mistake in a template (an unclosed element, an attribute
without quotes); card text is always escaped and cannot cause it.";

TEXT_TOO_SMALL "E0705" "text-too-small" "\
A card's text fits its box only by shrinking below the minimum type size,
6 points unless `[print] min-text` (or `--min-text`) says otherwise.  Text
that small is hard to read on a printed card, so it is reported even
though nothing is cut off.

Shorten the text, print on a larger card (`--card tarot`, or a size the
ruleset gives the kind), or, if you accept smaller type, lower the minimum:

    [print]
    min-text = 5";

TEXT_COLLISION "E0706" "text-collision" "\
Two text regions of a printed face overlap, or one runs off the card.
Every text region a template lays out is checked against the card's edges
and against the regions drawn before it, at the size the card is printed:
a footer that rises into the rules text, or a box placed for a taller card,
is caught here.

Shorten the text, or, if you design the template, place the regions from
the card's size (`page.w`, `page.h`) so that they keep apart.";
}
