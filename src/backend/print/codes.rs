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
box more room or a smaller minimum size in the template's `text_box` call.

    text \"Deal 4 {damage} to a ship in your Broadside arc. Then deal 1 more ...\"   # wrong: 2,300 characters
    text \"Deal 4 {damage} to a ship in your Broadside arc.\"                        # right";

TEMPLATE_ERROR "E0702" "template-error" "\
A face template could not be read or rendered.  Templates are tera
templates (`templates/<ruleset>/<kind>.svg`); the message carries tera's
own explanation, such as an unknown variable or an unclosed tag.  When the
template is one of your project's overrides, fix it or delete it to use the
bundled one.

A template runs on a budget: it may not read environment variables
(`get_env`), a macro or include may not reach itself, a chain of calls is at
most 32 deep, `range` builds at most 100,000 items for one face, a face is
at most 64 MiB and takes at most 5 seconds to draw.

    <text x=\"14\" y=\"24\">{{ card.nmae }}</text>    # wrong: no variable `card.nmae`
    <text x=\"14\" y=\"24\">{{ card.name }}</text>    # right";

UNKNOWN_DECK "E0703" "no-such-deck" "\
`cardsmith print --deck NAME` names a deck that none of the checked files
declares.  Deck names are the quoted names after `deck` (or the word the
game uses, such as `fleet`); the message lists the decks that exist.

    cardsmith print cards/dreadnaught-2e --deck Kinetik    # wrong
    cardsmith print cards/dreadnaught-2e --deck Kinetic    # right";

BAD_FACE "E0704" "bad-face" "\
A face produced by a template is not valid SVG, so it cannot be drawn.
This points at a mistake in a template (an unclosed element, an attribute
without quotes); card text is always escaped and cannot cause it.

    <text x=14 y=\"24\">{{ card.name }}</text>      # wrong: `x=14` without quotes
    <text x=\"14\" y=\"24\">{{ card.name }}</text>    # right";

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
the card's size (`page.w`, `page.h`) so that they keep apart.

    {{ text_box(paras=[card.name], x=14, y=14, w=152, h=20, size=12, min=6, what=\"name\") }}
    {{ text_box(paras=card.texts, x=14, y=24, w=152, h=100, size=8, min=6, what=\"text\") }}
    # warned: the text starts at y=24, inside the name (y=14 to 34); y=40 is right";

IMAGE_UNREADABLE "E0710" "image-unreadable" "\
A card names an image (in a field of the `image` type, such as `art`) that
cannot be read: there is no file at that path, or it cannot be opened.
The path is relative to the project folder, the one holding
`cardsmith.toml`, whichever card file names it:

    art \"art/leviathan.png\"     # the file <project>/art/leviathan.png";

IMAGE_OUTSIDE "E0711" "image-outside-project" "\
A card names an image outside the project folder: an absolute path, a
path through `..`, or a link that leads out of the project.  Printing
reads only files inside the project, so that a card file shared with you
cannot make `cardsmith print` read (and embed in the PDF) any other file on
your machine.  Copy the image into the project and name it from there.

    art \"../art/broadside.png\"    # wrong: outside the project
    art \"art/broadside.png\"       # right: the file <project>/art/broadside.png";

IMAGE_TOO_LARGE "E0712" "image-too-large" "\
A card's image is larger than printing takes: more than 16 MiB on disk, or
more than 8192 pixels a side or 40 million pixels in all.  A card printed
at 300 dpi needs about 750 × 1050 pixels; scale the image down.

    art \"art/broadside.png\"    # wrong while the file is 9000 × 10 pixels
    art \"art/broadside.png\"    # right once the file is scaled down to 750 × 1050";

IMAGE_UNDECODABLE "E0713" "image-undecodable" "\
A card's image is not a PNG, JPEG or SVG file that can be drawn: the file
has another format (GIF, WebP, a renamed document), or it is corrupt or
cut short.  PNG files are decoded whole when printing begins, so a broken
one is found before anything is written.  Open the image in an editor and
save it again as PNG, JPEG or SVG.

    art \"art/broadside.png\"    # wrong: the file is a GIF renamed `.png`
    art \"art/broadside.png\"    # right once the file is saved again as PNG";

FONT_UNUSABLE "E0714" "font-unusable" "\
A font the print should use cannot be: the file named in `[print] fonts`
(or put in `templates/<game>/` as a game's own font) does not exist or
cannot be read, lies outside the project folder (an absolute path, a path
through `..`, a link that leads out), is larger than a font file can be, or
is not a TrueType or OpenType font.  Printing reads only files inside the
project, so that a shared project cannot make it embed any other file.
Paths are relative to the folder holding `cardsmith.toml`:

    [print]
    fonts = [\"fonts/title.ttf\"]    # the file <project>/fonts/title.ttf";

UNKNOWN_MARK "E0715" "unknown-mark" "\
A role's `mark` names an icon the faces have no drawing for.  A mark is the
shape printed beside the role's effects so that they can be told apart
without colour; its id is a `<symbol id=\"…\">` of the icons templates
(`templates/common/icons.svg`, then `templates/<game>/icons.svg`).  Check
the spelling, or draw the icon:

    role attack \"Attack\" { colour red; mark squre }    # wrong: no icon `squre`
    role attack \"Attack\" { colour red; mark square }   # right";

ART_MISSING "W0716" "art-missing" "\
A card names a picture (a field of the `image` type, such as `art`) that is
not in the project: no file has that path, read from the project folder
(the one holding `cardsmith.toml`).  `check` warns at the path; `print`
goes on and draws a placeholder (a dashed frame crossed through) where the
art would be, so the rest of the cards still print:

    art \"art/railgun.png\"    # the file <project>/art/railgun.png

Check the spelling and the folder, or add the picture.";

ART_LOW_RESOLUTION "W0717" "art-low-resolution" "\
A card's picture has too few pixels for the window its face draws it in:
printed at that size it has under 200 pixels an inch (ppi), and will look
soft or blocky on paper.  The message gives the ppi and the picture's
pixels; the help gives the pixels it needs for 300 ppi, what print shops
ask for.  A picture 300 pixels wide drawn 63.5 mm (2.5 in) wide is 120 ppi:

    art \"art/small.png\"    # 300 × 200 pixels: use 750 × 500 or more

SVG pictures have no pixels and are never reported.  The size is the
`width` and `height` the face's template gives the image (`art_panel`'s
box on the bundled faces), cropped to fill it or fitted inside it as its
`preserveAspectRatio` says.";

UNPRINTED "W0718" "unprinted" "\
A card states something that no face of it prints, so the printed card
would be missing what the engine data has:

- an effect line, wherever it is written (the card's own block, a field's
  block, a `when` condition, a `choose` option, a `then` step), when no
  text the faces lay out holds it;
- a field with values, when the words of a value (its printed text, or
  the id of the icon that stands for it) are nowhere on the faces; a
  picture is drawn, not written, and never counts.

The generic face prints everything.  A template of your own prints a
field's effects with its `paras` (or `labelled`), the effects written
directly in the card with `card.paras`, and a field it shows by a drawing
of its own (marks, a diagram) says so with `shows(field=...)`:

    {{ text_box(paras=card.fields.cost.0.paras, ...) }}                   # warned: the card's `gain coin 2` is lost
    {{ text_box(paras=card.fields.cost.0.paras | concat(with=card.paras), ...) }}   # right
    {% for s in card.fields.size %}{{ shows(field=s) }}{% endfor %}       # size drawn as marks";

ICONS_ALIKE "W0719" "icons-alike" "\
Two icons the ruleset declares (symbols, icons, deck symbols) have no
drawing in the game's `icons.svg`, and their names start with the same two
letters.  An icon without a drawing prints as a circle with letters, the
first two of its name, so `bank-left` and `bank-right` would both print as
`Ba`.  cardsmith prints letters of their own instead (their words'
initials, `BL` and `BR`, or the first letter with a later one), which
tells them apart, but a reader must still learn them.

Draw the icons: `cardsmith templates GAME` writes the game's `icons.svg`
into the project's `templates/GAME/`, where each icon is a symbol:

    <symbol id=\"bank-left\" viewBox=\"0 0 100 100\"><path d=\"M80 20 20 50 80 80Z\" fill=\"currentColor\"/></symbol>";

GLYPH_MISSING "W0720" "glyph-missing" "\
A card's text holds a character that no font the face is printed with has
a glyph for: neither the bundled DejaVu Sans Condensed nor the project's
own fonts (`[print] fonts`) when the text box names one.  It would print
as an empty box, or not at all.  The message names each character with
its code point.

Write it another way (a word, or an icon such as `{star}`), or add a font
that has it:

    text \"The 龍 gate opens.\"       # warned: the bundled fonts have no CJK glyphs
    text \"The Dragon gate opens.\"   # right";
}
