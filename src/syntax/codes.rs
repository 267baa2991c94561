//! Diagnostic codes of the syntax phase, each with its explanation.

use crate::diagnostics::Code;

pub const SYNTAX_ERROR: Code = Code {
    id: "E0001",
    name: "syntax-error",
    explanation: "\
The text does not follow cardsmith's grammar at this point.  The message says
what was expected instead, in words (\"a value\", \"`{`\", \"the end of the line\").

Every file is a list of nodes: a name, some values, and an optional block:

    offense \"Kinetic Strike\" {
      at 3.5 {
        impact damage 3
      }
    }

A node ends at the end of its line, at `;`, or before a `}`.  Only the line
with the mistake is skipped; the rest of the card and of the file is still
checked.  A card whose first line has the mistake is skipped whole.",
};

pub const UNTERMINATED_STRING: Code = Code {
    id: "E0002",
    name: "unterminated-string",
    explanation: "\
A string opened with `\"` has no closing `\"` on the same line.  Strings cannot
span lines; a long card text stays on one line (editors wrap it for display).
Write `\\\"` for a quote inside a string:

    text \"Name one card: \\\"the target\\\".\"",
};

pub const UNCLOSED_BRACE: Code = Code {
    id: "E0003",
    name: "unclosed-brace",
    explanation: "\
A block opened with `{` is never closed with `}`.  The label points at the
`{`; the second label shows where the item was taken to end.  Lines inside a
block are indented; a line that starts in the first column with a letter
begins a new top-level item, so a missing `}` only affects its own item:

    offense \"Kinetic Strike\" {
      arc standard
    }                            <- this closes the card",
};

pub const UNEXPECTED_CLOSE: Code = Code {
    id: "E0004",
    name: "unexpected-close-brace",
    explanation: "\
A `}` appears where no block is open.  It is usually left over from editing:
remove it, or add the `{` it was meant to close.

    offense \"Kinetic Strike\" { symbol kinetic; arc standard; ... } }   # wrong: one `}` too many
    offense \"Kinetic Strike\" { symbol kinetic; arc standard; ... }     # right",
};

pub const TOO_DEEP: Code = Code {
    id: "E0005",
    name: "nesting-too-deep",
    explanation: "\
Blocks are nested more deeply than cardsmith accepts (32 levels), or brackets
and calls inside one item more deeply than 64 levels.  No card needs that:
cards nest a few levels at most (card, initiative step, condition).  The item
is refused before parsing so that it cannot exhaust the stack.

    offense \"Deep\" { a { a { a { ... } } } }       # wrong when the blocks go 33 deep
    offense \"Kinetic Strike\" { at 3.5 { ... } }    # right: a card nests 2 or 3 deep",
};

pub const NUMBER_TOO_LARGE: Code = Code {
    id: "E0006",
    name: "number-too-large",
    explanation: "\
A number is too large to represent (beyond 64-bit integers).  Card values are
small; check for a typing mistake such as a run of repeated digits.

    hp 44444444444444444444    # wrong
    hp 4                       # right",
};

pub const PARSER_LIMIT: Code = Code {
    id: "E0007",
    name: "parser-limit",
    explanation: "\
The parser gave up on this item after doing more work than any real card
needs.  This protects `cardsmith` from pathological input (for example a
value of thousands of alternatives that each nearly read).  Split the item,
or look for a run of stray symbols.

    arc set(set(set( ... x)))    # wrong when the parser gives up on it
    arc standard                 # right",
};

pub const NOT_UTF8: Code = Code {
    id: "E0008",
    name: "not-utf8",
    explanation: "\
The file is not valid UTF-8 text.  cardsmith reads UTF-8 only (a leading
byte-order mark is accepted).  Re-save the file as UTF-8 in your editor; the
label points at the first byte that is not UTF-8.

    text \"Caf\\xE9 strike\"    # wrong: the byte E9 is `é` in Latin-1, not UTF-8
    text \"Café strike\"       # right, saved as UTF-8",
};

pub const FILE_TOO_LARGE: Code = Code {
    id: "E0009",
    name: "file-too-large",
    explanation: "\
The file is larger than cardsmith reads in one piece (8 MiB).  A card file of
that size is almost certainly not a card file; split a very large card pool
into several files.

    cards/pool.cards      8.8 MiB, 110,000 cards    # wrong: refused unread
    cards/pool-1.cards    4.4 MiB                   # right: two files, each with
    cards/pool-2.cards    4.4 MiB                   # its own `game` line",
};

pub const EXPRESSION_TOO_DEEP: Code = Code {
    id: "E0014",
    name: "expression-too-deep",
    explanation: "\
Brackets, calls and `not` nest more deeply than cardsmith accepts (32
levels) in a rule's expression, or calls nest that deeply in a value
(`name(a, b)`).  No rule needs that: the deepest nest three or four levels,
as in

    require \"at most two of these\" count(a and not (b or c)) <= 2

The limit is nesting, not length: a rule may join any number of terms with
`+`, `and` or `or`.  The label points at the bracket, call or `not` that goes
too deep.  A rule nested too deeply is left out of its ruleset, and a value
nested too deeply leaves out its item, as a syntax error does.",
};

pub const MISSING_OPEN: Code = Code {
    id: "E0015",
    name: "missing-open-brace",
    explanation: "\
A line in the first column is followed by indented lines and then a `}` alone
at the start of a line, but the line itself opens no block: its `{` is
missing.  The indented lines are read as its block, and this one error is
reported in place of an error for each of them; `cardsmith fmt` leaves the
item as written until the `{` is added.

    offense \"Kinetic Strike\"     # wrong: the `{` is missing
      arc standard
    }
    offense \"Kinetic Strike\" {   # right
      arc standard
    }",
};

pub const ALL: &[&Code] = &[
    &SYNTAX_ERROR,
    &UNTERMINATED_STRING,
    &UNCLOSED_BRACE,
    &UNEXPECTED_CLOSE,
    &TOO_DEEP,
    &NUMBER_TOO_LARGE,
    &PARSER_LIMIT,
    &NOT_UTF8,
    &FILE_TOO_LARGE,
    &EXPRESSION_TOO_DEEP,
    &MISSING_OPEN,
];
