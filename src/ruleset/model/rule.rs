//! A construction rule compiled to a typed tree ([`Compiled`]), as the
//! ruleset's rule compiler ([`crate::ruleset::rules`]) makes it and the
//! checker evaluates it.

use crate::source::Span;
use schemars::JsonSchema;
use serde::Serialize;

/// The type of a rule's node, or of a function's argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Ty {
    /// A whole number: `3`, `count(offense)`, `sum(points) * 100`.
    Number,
    /// Whether something holds: `count() == 27`, `any(extra)`.
    Truth,
    /// Which cards count: `offense`, `cost >= 2`, `symbol != deck`.
    Filter,
    /// A field of the cards: `points`, `tonnage`.
    Field,
    /// A deck type of the ruleset: `offense`, `line`.
    DeckType,
    /// A value a field's rows mention: `fighters`.
    Name,
    /// A position from 1: `value(move, 2)`.
    Position,
    /// Which effect lines count: `cost`, `symbol == damage`, `amount >= 3`.
    EffectFilter,
    /// A keyword of the ruleset: `unstoppable`.
    Keyword,
}

impl Ty {
    /// The type in a message: "expected a number, found a filter".
    pub fn describe(self) -> &'static str {
        match self {
            Ty::Number => "a number",
            Ty::Truth => "a truth (a comparison, `all(...)`, `any(...)`)",
            Ty::Filter => "a filter",
            Ty::Field => "a field",
            Ty::DeckType => "a deck type",
            Ty::Name => "a value name",
            Ty::Position => "a position from 1",
            Ty::EffectFilter => "an effect filter",
            Ty::Keyword => "a keyword",
        }
    }
}

/// Where a rule is declared, which decides what it sees: one card (a
/// kind's, shape's or field's rule), the cards of a deck (a deck type's
/// rules and computed values, which may look into the decks it includes),
/// or the cards one player plays in a turn (a play limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    Card,
    /// `includes`: whether the deck type includes decks; `based_on`:
    /// whether it names a deck type it is based on.
    Deck {
        includes: bool,
        based_on: bool,
    },
    Play,
}

/// A compiled rule: its typed tree.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct Compiled {
    pub root: Node,
}

/// A node of a compiled rule, with its type and where it is written.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct Node {
    pub op: Op,
    pub ty: Ty,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    Int(i64),
    /// A parameter of the deck's type (`agreed-points`), by its index, and
    /// its name for the summary of a failure.
    Param(usize, Box<str>),
    /// `arg`: the keyword argument `each-arg` is at, as a number.
    Arg,
    Not(Box<Node>),
    /// `a and b and …`, stopping at the first that does not hold.
    And(Vec<Node>),
    /// `a or b or …`, stopping at the first that holds.
    Or(Vec<Node>),
    /// `a + b - c …` (or `*`, `/`), from the left; sums stop at the largest
    /// number rather than overflowing.
    Arithmetic(Box<Node>, Vec<(Arith, Node)>),
    /// `a == b != c …`, from the left: each comparison's truth is the left
    /// side of the next.
    Compare(Box<Node>, Vec<(Cmp, Node)>),
    Call(Box<CallNode>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// The same comparison with its sides swapped: `a <= b` is `b >= a`.
    pub fn flipped(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            same => same,
        }
    }

    pub fn holds(self, l: i64, r: i64) -> bool {
        match self {
            Cmp::Eq => l == r,
            Cmp::Ne => l != r,
            Cmp::Lt => l < r,
            Cmp::Le => l <= r,
            Cmp::Gt => l > r,
            Cmp::Ge => l >= r,
        }
    }
}

/// A function call, and the call as written for the summary of a failure
/// ("here count(offense) is 19").
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct CallNode {
    pub call: Call,
    pub shown: Box<str>,
}

/// Every rule function with its typed arguments.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Call {
    /// Copies of the matching cards.
    Count(Filters),
    /// Different matching cards.
    Distinct(Filters),
    /// Lines of the deck listing a matching card.
    Groups(Filters),
    /// Most copies of one matching card.
    MaxCopies(Filters),
    /// Most lines listing one matching card.
    MaxGroups(Filters),
    /// Whether every card matches.
    All(Filters),
    /// Whether some card matches.
    Any(Filters),
    /// A field's numbers over the matching cards, times their copies.
    Sum(FieldRef, Filters),
    /// The smallest (largest) number of a field among the matching cards
    /// that have one; 0 when none has.
    Min(FieldRef, Filters),
    Max(FieldRef, Filters),
    /// The numbers of a table field's rows that mention any of the names.
    SumRows(FieldRef, Vec<Box<str>>),
    /// Whether every card's `needs` values are found in the `has` field of
    /// as many matching cards.
    Subset {
        needs: FieldRef,
        has: FieldRef,
        filters: Filters,
    },
    /// Different names a field holds over the matching cards.
    Values(FieldRef, Filters),
    /// Matching cards whose copies fall outside their range field.
    OutOfRange(FieldRef, Filters),
    /// Included decks of the given types (any, when none is given).
    Decks(Vec<usize>),
    /// Whether the rule holds for each included deck of the types (of any
    /// type, when none is given).
    Every(Vec<usize>, Node),
    /// Whether the rule holds for some included deck of the types.
    Some(Vec<usize>, Node),
    /// Matching cards, by name, that more than one included deck holds.
    Shared(Filters),
    /// Copies of the matching cards of the deck this one is based on that
    /// it lacks.
    Removed(Filters),
    /// Copies of the matching cards it has beyond the deck it is based on.
    Added(Filters),
    /// Copies of the matching cards it has beyond their own deck: the
    /// deck of the `based-on` type whose match value is the card's.
    BeyondSource(Filters),
    /// The N-th number of a field, on the one card a card rule is about;
    /// a paired value (`4+/5+`, `0-12`) is two numbers.
    Value(FieldRef, usize),
    /// How many numbers a field holds on that card.
    Numbers(FieldRef),
    /// Effect lines of the cards (in any block, condition, option or
    /// step), times copies.
    Effects(Vec<EffectFilter>),
    /// `choose` blocks of the cards, times copies.
    Choices,
    /// Lines of a repeated field whose row matches, times copies.
    Rows(FieldRef, Filters),
    /// Whether every line of a repeated field matches.
    EachRow(FieldRef, Filters),
    /// Arguments of a keyword on the cards, by the keyword's index.
    Args(usize),
    /// Whether the rule holds for each argument of the keyword (`arg`).
    EachArg(usize, Node),
    /// The least distance, edge to edge, between a piece the deck places
    /// that matches the first filter and another that matches the second.
    Gap(Filters, Filters),
    /// The least distance from a placed matching piece's edge to the table's.
    EdgeGap(Filters),
    /// How many more placed matching pieces the fullest table quarter holds
    /// than the emptiest.
    QuarterSpread(Filters),
    /// Placed matching pieces whose centre lies in a deployment zone, by
    /// the zone's index among the table's.
    Inside(usize, Filters),
    /// Copies of the matching cards the deck gives no position (`at`).
    Unplaced(Filters),
    /// How far a range band reaches: its upper bound, the distance a piece
    /// "within" it is at most.
    Reach(i64),
    /// Hexes the fields of the one card list more than once (a hex of two
    /// colours), by their `coord` values.
    HexRepeats(Vec<FieldRef>),
    /// Hexes the fields list that no path reaches from the card's centre
    /// `0,0`, moving hex to hex through hexes the fields list.
    HexUnreached(Vec<FieldRef>),
    /// Different speeds among the manoeuvres of the one card's dial, by the
    /// dial's field.
    Speeds(FieldRef),
    /// Manoeuvres of the one card's dial whose bearing or difficulty is one
    /// of the names (any, when none is given).
    Manoeuvres(FieldRef, Vec<Box<str>>),
}

/// The names of the functions, for compiling and for suggestions.
pub const FUNCTIONS: &[&str] = &[
    "count",
    "distinct",
    "groups",
    "max-copies",
    "max-groups",
    "all",
    "any",
    "sum",
    "sum-rows",
    "subset",
    "values",
    "out-of-range",
    "decks",
    "every",
    "value",
    "numbers",
    "effects",
    "rows",
    "each-row",
    "args",
    "each-arg",
    "some",
    "choices",
    "min",
    "max",
    "shared",
    "removed",
    "added",
    "beyond-source",
    "gap",
    "edge-gap",
    "quarter-spread",
    "inside",
    "unplaced",
    "reach",
    "hex-repeats",
    "hex-unreached",
    "speeds",
    "manoeuvres",
];

/// The filter arguments of a call: a card matches when any matches; no
/// filter matches every card.
pub type Filters = Vec<Filter>;

/// A field of the cards, by name (fields are declared per kind and shape,
/// so one name may be several declarations).
pub type FieldRef = Box<str>;

/// Which cards a filter matches.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Filter {
    /// A name of the ruleset's vocabulary: the cards of that kind, with that
    /// tag, or carrying that keyword (a name may be several of these).
    Vocabulary {
        kind: Option<usize>,
        tag: Option<usize>,
        keyword: Option<usize>,
    },
    /// The cards that have the field.
    HasField(FieldRef),
    /// `name == "Scout"` (or `!=` when `equal` is false): a card of that
    /// name, or a row whose first quoted value it is.
    Name {
        name: Box<str>,
        equal: bool,
    },
    Not(Box<Filter>),
    And(Vec<Filter>),
    Or(Vec<Filter>),
    /// `field == value` (or `!=` when `equal` is false).
    Holds {
        field: FieldRef,
        value: Wanted,
        equal: bool,
    },
    /// `field >= 2`: a card that has the field, by its number.
    Compare {
        field: FieldRef,
        cmp: Cmp,
        bound: i64,
    },
    /// `mentions(text)`: a card whose text field names (`*Name*`) a card of
    /// the cards being counted (the deck's); with a filter,
    /// `mentions(text, symbol != deck)`, a named card that matches it.
    Mentions(FieldRef, Option<Box<Filter>>),
    /// `says(text, "rear arc")`: a card whose text field holds the words, in
    /// any letter case; the words in small letters.
    Says(FieldRef, Box<[Box<str>]>),
    /// `same(faction, identity)`: a card whose field holds a value that the
    /// field holds on one of the cards being counted (the deck's) that
    /// match the filter: the faction of the deck's identity card.
    Same(FieldRef, Box<Filter>),
    /// `link == 1`, `link == arg` (or `!=` when `equal` is false): a card
    /// or row carrying the keyword (by index) with that argument.
    KeywordArg {
        keyword: usize,
        value: ArgWanted,
        equal: bool,
    },
}

/// The argument a keyword test wants.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArgWanted {
    Int(i64),
    /// `arg`: the keyword argument `each-arg` is at.
    Arg,
}

/// Which effect lines count.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EffectFilter {
    /// A name of a role or a symbol (a name may be both), by index.
    Named {
        role: Option<usize>,
        symbol: Option<usize>,
    },
    /// `role == arg`, `symbol == arg`: the keyword argument `each-arg` is at.
    RoleIsArg,
    SymbolIsArg,
    /// `amount >= 3`.
    Amount(Cmp, i64),
    /// `plus == after`: where the amount's `+` is written (`8+`, `+2`).
    Plus(crate::ruleset::model::Plus),
    Not(Box<EffectFilter>),
    And(Vec<EffectFilter>),
    Or(Vec<EffectFilter>),
}

/// The value a field test wants.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Wanted {
    /// `deck`: the deck's own symbol.
    DeckOwn,
    Name(Box<str>),
    Int(i64),
    /// `arg`: the keyword argument `each-arg` is at, a number or a name.
    Arg,
}

impl Compiled {
    /// The fields of a card the rule reads, when they can be told: `None`
    /// when it reads more than named fields (effect lines, keywords, the
    /// card's kind or tags, whole decks), so that anything may change it.
    pub fn fields_read(&self) -> Option<Vec<&str>> {
        let mut fields = Vec::new();
        let mut nodes = vec![&self.root];
        while let Some(node) = nodes.pop() {
            match &node.op {
                Op::Int(_) | Op::Param(..) | Op::Arg => {}
                Op::Not(inner) => nodes.push(inner),
                Op::And(all) | Op::Or(all) => nodes.extend(all),
                Op::Arithmetic(first, rest) => {
                    nodes.push(first);
                    nodes.extend(rest.iter().map(|(_, node)| node));
                }
                Op::Compare(first, rest) => {
                    nodes.push(first);
                    nodes.extend(rest.iter().map(|(_, node)| node));
                }
                Op::Call(call) => call_fields(&call.call, &mut fields)?,
            }
        }
        Some(fields)
    }
}

/// The fields a call reads; `None` for a call that reads more (a deck's
/// decks, a keyword's arguments, effect lines).
fn call_fields<'c>(call: &'c Call, fields: &mut Vec<&'c str>) -> Option<()> {
    match call {
        Call::Count(filters)
        | Call::Distinct(filters)
        | Call::Groups(filters)
        | Call::MaxCopies(filters)
        | Call::MaxGroups(filters)
        | Call::All(filters)
        | Call::Any(filters)
        | Call::EdgeGap(filters)
        | Call::QuarterSpread(filters)
        | Call::Inside(_, filters)
        | Call::Unplaced(filters) => filter_fields(filters, fields),
        Call::Gap(first, second) => {
            filter_fields(first, fields)?;
            filter_fields(second, fields)
        }
        Call::Sum(field, filters)
        | Call::Min(field, filters)
        | Call::Max(field, filters)
        | Call::Values(field, filters)
        | Call::OutOfRange(field, filters)
        | Call::Rows(field, filters)
        | Call::EachRow(field, filters) => {
            fields.push(field);
            filter_fields(filters, fields)
        }
        Call::Subset { needs, has, filters } => {
            fields.extend([&**needs, &**has]);
            filter_fields(filters, fields)
        }
        Call::SumRows(field, _)
        | Call::Value(field, _)
        | Call::Numbers(field)
        | Call::Speeds(field)
        | Call::Manoeuvres(field, _) => {
            fields.push(field);
            Some(())
        }
        Call::Reach(_) => Some(()),
        Call::HexRepeats(read) | Call::HexUnreached(read) => {
            fields.extend(read.iter().map(|f| &**f));
            Some(())
        }
        _ => None,
    }
}

/// The fields filters read; `None` when one reads more than fields.
fn filter_fields<'f>(filters: &'f [Filter], fields: &mut Vec<&'f str>) -> Option<()> {
    let mut pending: Vec<&Filter> = filters.iter().collect();
    while let Some(filter) = pending.pop() {
        match filter {
            Filter::HasField(field) | Filter::Says(field, _) => fields.push(field),
            Filter::Holds { field, .. } | Filter::Compare { field, .. } => fields.push(field),
            Filter::Mentions(field, inner) => {
                fields.push(field);
                pending.extend(inner.as_deref());
            }
            Filter::Same(field, inner) => {
                fields.push(field);
                pending.push(inner);
            }
            Filter::Name { .. } => {}
            Filter::Not(inner) => pending.push(inner),
            Filter::And(all) | Filter::Or(all) => pending.extend(all),
            Filter::Vocabulary { .. } | Filter::KeywordArg { .. } => return None,
        }
    }
    Some(())
}
