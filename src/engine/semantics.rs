//! What a game's rules *do*, as the engine reads them from the engine data:
//! the play semantics a ruleset declares (format 3 and later).  A document without
//! them still loads; [`Play`] is then absent and the game cannot be played.
//!
//! Every expression is a typed tree ([`Expr`]) with its source text beside
//! it ([`Expression`]); every procedure is a list of primitive operations
//! ([`Op`]).  Nothing here names a game: a ruleset gives the names.
//!
//! Who "you" are: the player an operation is done for — the player who
//! took the action, whose card resolves, or, in a phase's `start` and `end`
//! procedures, each player in turn.  A zone or counter that every player
//! has ([`Owner::Each`]) is read as "yours" unless an operation says
//! `opponent`; a shared one is the table's.

use serde::Deserialize;

/// An expression with the text it was written as.
#[derive(Clone, Debug, Deserialize)]
pub struct Expression {
    /// The expression as written in the ruleset: `count(lit) >= 2`
    /// (for people; play reads only the tree).
    #[serde(default)]
    pub source: String,
    pub tree: Expr,
}

/// A node of a play expression.  Numbers are whole; a truth is a number
/// that is 0 or 1 nowhere: the two never mix (the compiler types them).
/// A filter is a truth about one card (the card being tested).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Expr {
    /// A whole number.
    Int {
        value: i64,
    },
    /// A name of the ruleset compared with a card's field (`weavers`).
    Name {
        value: String,
    },
    /// The value of a counter of a player (`of`: you or opponent) or of the
    /// table (a shared counter).
    Counter {
        id: String,
        of: Whose,
    },
    /// Cards in a zone matching the filter (every card when none).
    Count {
        zone: String,
        of: Whose,
        #[serde(default)]
        filter: Option<Box<Expr>>,
    },
    /// The cards the player played this turn (each taken by an action
    /// that `counts_as` `played`, wherever it is now) that match the filter.
    Played {
        #[serde(default)]
        filter: Option<Box<Expr>>,
    },
    /// A field's numbers over the cards of a zone that match (a card with
    /// no number there counts 0).
    Sum {
        zone: String,
        of: Whose,
        field: String,
        #[serde(default)]
        filter: Option<Box<Expr>>,
    },
    /// The amount of the effect being resolved (`gain coin 3`: 3, times
    /// its `per` quantity when it has one).
    Amount,
    /// How much the previous operation of this procedure did: the cards it
    /// moved, the amount it added, removed or paid.  0 at the start.
    Last,
    /// The number of the current round, from 1.
    Round,
    /// The player's place in the order players act in this round: 1 acts
    /// first.
    Place,
    /// A quantity the ruleset declares, by id: its own expression.
    Quantity {
        id: String,
    },
    /// A condition the ruleset declares, by id, with the arguments given.
    Condition {
        id: String,
        #[serde(default)]
        args: Vec<Arg>,
    },
    /// A parameter of the condition or quantity being evaluated: the value
    /// the card gave it (`when guild-ally weavers`: `weavers`).
    Param {
        name: String,
    },
    /// In a filter: the tested card's value of a field, a number or a name
    /// (a card without the field has none, and every comparison with it is
    /// false).
    Field {
        name: String,
    },
    /// In a filter: whether the tested card is of this kind.
    Kind {
        id: String,
    },
    /// In a filter: whether the tested card has this tag.
    Tag {
        id: String,
    },
    /// In a filter: whether the tested card is the card being resolved
    /// (or the one a `for-each` is at).
    This,
    /// The value of a marker ([`Marker`]) on the tested card in a filter,
    /// else on the card at hand (the card being resolved, or the one a
    /// `for-each` is at); 0 when there is none.
    Marker {
        id: String,
    },
    Not {
        operand: Box<Expr>,
    },
    And {
        operands: Vec<Expr>,
    },
    Or {
        operands: Vec<Expr>,
    },
    /// `first op operand op operand …`, from the left; division rounds
    /// toward zero and a division by zero is 0.
    Arith {
        first: Box<Expr>,
        rest: Vec<(ArithOp, Expr)>,
    },
    /// `a < b <= c`: every comparison holds.  Names compare only for
    /// (in)equality.
    Compare {
        first: Box<Expr>,
        rest: Vec<(CmpOp, Expr)>,
    },
    /// `if(TRUTH, A, B)`: the number `then` when the truth holds, else
    /// `otherwise`.
    If {
        test: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
}

/// An argument of a condition in an expression.
#[derive(Clone, Debug, Deserialize)]
pub struct Arg {
    pub param: String,
    pub value: Box<Expr>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// Whether `left OP right` holds for two numbers.
    pub fn holds(self, left: i64, right: i64) -> bool {
        match self {
            CmpOp::Eq => left == right,
            CmpOp::Ne => left != right,
            CmpOp::Lt => left < right,
            CmpOp::Le => left <= right,
            CmpOp::Gt => left > right,
            CmpOp::Ge => left >= right,
        }
    }
}

/// Whose zone or counter: yours, or your opponent's (the next player in
/// seat order).  A shared zone or counter ignores it.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Whose {
    #[default]
    You,
    Opponent,
}

/// Which cards a move takes from its zone.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Pick {
    /// From the top (the end of an ordered zone's list).
    #[default]
    Top,
    /// The player chooses which, one card at a time.
    Chosen,
    /// At random.
    Random,
    /// Every matching card (the count is ignored).
    All,
}

/// One primitive operation of a procedure.  A procedure runs its
/// operations in order; a `pay` that cannot be paid in full pays nothing
/// and ends the procedure it stands in (the rest of that list is skipped,
/// and so is the rest of the card's effect block that holds it).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum Op {
    /// Adds to a counter, up to its maximum.  `last`: what was added.
    Add { counter: String, amount: Expression, of: Whose },
    /// Takes from a counter, down to its minimum.  `last`: what was taken.
    Remove { counter: String, amount: Expression, of: Whose },
    /// Sets a counter to the amount, within its bounds.  `last`: the new
    /// value.
    Set { counter: String, amount: Expression, of: Whose },
    /// A window for reactions ([`Action::reaction`]): from you (or your
    /// opponent), the players in seat order may each take one of the
    /// current phase's reactions or pass, round after round, until every
    /// player has passed in a row.  A reaction taken resolves at once, before
    /// the operations after the window.
    Respond {
        #[serde(default)]
        of: Whose,
    },
    /// Pays from a counter: all of the amount, or nothing and the
    /// procedure ends.  `last`: what was paid.
    Pay {
        counter: String,
        amount: Expression,
        /// With zones, `counter` is a marker: the amount is paid by adding 1
        /// to it on that many of the player's cards of these zones whose
        /// marker is 0, taken zone after zone, bottom first.
        #[serde(default)]
        marking: Vec<String>,
    },
    /// Moves up to `count` cards (all matching with `pick: all`) from one
    /// zone to another; a card a zone's `holds` refuses stays.  `last`:
    /// the cards moved.
    Move {
        count: Expression,
        from: String,
        #[serde(default)]
        from_of: Whose,
        to: String,
        #[serde(default)]
        to_of: Whose,
        #[serde(default)]
        pick: Pick,
        #[serde(default)]
        filter: Option<Expression>,
        /// The cards go under the others of the destination, not on top.
        #[serde(default)]
        bottom: bool,
    },
    /// Shows the player the top `count` cards of a zone (written in the
    /// log); nothing moves.  `last`: the cards shown.
    Reveal {
        count: Expression,
        zone: String,
        #[serde(default)]
        of: Whose,
    },
    /// The player chooses whether `ops` are done (a decision of two
    /// options: yes, no).
    May { ops: Vec<Op> },
    /// Moves the card being resolved (or the one a `for-each` is at) to a
    /// zone of its owner.
    ThisTo { zone: String },
    /// Shuffles a zone.
    Shuffle { zone: String, of: Whose },
    /// Adds the amount (which may be negative) to a marker of the card at
    /// hand (the card being resolved, or the one a `for-each` is at), never
    /// below 0; with no card at hand it does nothing.  `last`: the change
    /// made.
    Mark { marker: String, amount: Expression },
    /// Sets a marker of the card at hand to 0.  `last`: what it was.
    Clear { marker: String },
    /// Runs its operations as many times as the amount.
    Repeat { times: Expression, ops: Vec<Op> },
    /// Runs `then` when the truth holds, else `otherwise`.
    If {
        test: Expression,
        then: Vec<Op>,
        #[serde(default)]
        otherwise: Vec<Op>,
    },
    /// Runs its operations once for each card of the zone that matches,
    /// that card being "this".
    ForEach {
        zone: String,
        of: Whose,
        #[serde(default)]
        filter: Option<Expression>,
        ops: Vec<Op>,
    },
    /// Runs the operations of the symbol's meaning for the role, with this
    /// amount (else the amount as it is) and the same card at hand.
    Run {
        role: String,
        symbol: String,
        #[serde(default)]
        amount: Option<Expression>,
    },
    /// A trigger: each card of the zones (in their order; the card at hand
    /// when none is given) whose field `field` holds the name `value`
    /// among its values resolves that field's block, for the player who
    /// owns the zone it is in, with itself as "this".
    Raise {
        field: String,
        value: String,
        #[serde(default)]
        zones: Vec<String>,
        #[serde(default)]
        of: Whose,
    },
    /// Ends the procedure it stands in, as a `pay` that cannot be paid
    /// does, unless the truth holds.
    Needs { test: Expression },
    /// The player chooses one card of the zones that matches the filter
    /// (one decision; none when no card matches, and the operations are
    /// skipped); its operations run with that card as "this" and `amount`
    /// the `with` amount, read before the choice (else the amount as it
    /// was).  `last`: 1 when a card was chosen, else 0.
    Target {
        zones: Vec<String>,
        of: Whose,
        #[serde(default)]
        filter: Option<Expression>,
        #[serde(default)]
        with: Option<Expression>,
        ops: Vec<Op>,
    },
}

/// What one role of an effect does with a symbol: `gain coin 3` runs the
/// `gain` procedure of the symbol `coin`, with `amount` 3.
#[derive(Clone, Debug, Deserialize)]
pub struct Meaning {
    pub role: String,
    pub ops: Vec<Op>,
}

/// A counter of the set-up, with its bounds and when it resets.
#[derive(Clone, Debug, Deserialize)]
pub struct Counter {
    pub id: String,
    #[serde(default)]
    pub display: String,
    #[serde(default)]
    pub start: i64,
    /// The lowest value (0 unless the ruleset says).
    #[serde(default)]
    pub min: i64,
    #[serde(default)]
    pub max: Option<i64>,
    #[serde(default = "each")]
    pub owner: Owner,
    /// The side whose player alone has it: one counter, theirs.
    #[serde(default)]
    pub side: Option<String>,
    /// Back to `start` at the end of each round, when set.
    #[serde(default)]
    pub reset_each_round: bool,
}

fn each() -> Owner {
    Owner::Each
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Owner {
    Each,
    Shared,
}

/// A number every card keeps (exhausted, damage, tokens): 0 at the start,
/// and back to 0 whenever the card moves to another zone.
#[derive(Clone, Debug, Deserialize)]
pub struct Marker {
    pub id: String,
    #[serde(default)]
    pub display: String,
}

/// A zone of the set-up, with what keeps it filled.
#[derive(Clone, Debug, Deserialize)]
pub struct Zone {
    pub id: String,
    #[serde(default)]
    pub display: String,
    pub owner: Owner,
    /// The side whose player alone has it: one zone, theirs.
    #[serde(default)]
    pub side: Option<String>,
    #[serde(default)]
    pub ordered: bool,
    /// Who may see its cards (everyone when the document does not say).
    #[serde(default)]
    pub visibility: Visibility,
    #[serde(default)]
    pub limit: Option<i64>,
    /// Kinds it may hold; every kind when empty.
    #[serde(default)]
    pub holds: Vec<String>,
    /// When a card must be taken from it and it is empty, the cards of this
    /// zone (of the same owner) are shuffled into it first (a discard pile
    /// into a draw deck).
    #[serde(default)]
    pub reshuffle: Option<String>,
    /// After every operation, it is filled up to its `limit` from the top
    /// of this zone (a market row from the market deck).
    #[serde(default)]
    pub restock: Option<String>,
    /// When a card must be taken from it and it is empty, the card is
    /// taken from the top of this zone (of the same owner) instead.
    #[serde(default)]
    pub fallback: Option<String>,
}

/// Who sees a zone's cards: everyone, its owner only, or no one (the
/// others, and for `hidden` everyone, see how many cards it holds).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    #[default]
    Public,
    Private,
    Hidden,
    /// A visibility this engine does not know: shown as hidden.
    #[serde(other)]
    Other,
}

/// An action a player may take in a phase.
#[derive(Clone, Debug, Deserialize)]
pub struct Action {
    pub id: String,
    #[serde(default)]
    pub display: String,
    /// The zone the player takes a card from, when the action takes one;
    /// each card there that matches `filter` (and whose cost can be paid)
    /// is one legal action.
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub filter: Option<Expression>,
    /// Paid from a counter before anything else; the expression reads the
    /// taken card as "this" (`cost`: its field `cost`).
    #[serde(default)]
    pub cost: Option<Cost>,
    /// Where the taken card goes (a zone of the acting player, or shared).
    #[serde(default)]
    pub to: Option<String>,
    /// The card field whose effect block then resolves (`reveal`): at once,
    /// or in a phase that follows the initiative scale, once every player
    /// has chosen, in the order of the field's initiative values.
    #[serde(default)]
    pub resolve: Option<String>,
    /// Of a card's `resolve` fields, the one holding this name among its values
    /// (`ability` fields with `fast`); the first of them when not given.
    #[serde(default)]
    pub resolve_value: Option<String>,
    /// How many times a player may take it in one phase.
    #[serde(default)]
    pub limit: Option<u32>,
    /// Whether the action is open: a truth read before each choice.
    #[serde(default)]
    pub only_if: Option<Expression>,
    /// Done after the card is moved (and before its effects resolve).
    #[serde(default)]
    pub ops: Vec<Op>,
    /// Whether this action counts as acquiring the card (buying, gaining)
    /// or playing it, for the per-card statistics.
    #[serde(default)]
    pub counts_as: Option<Counts>,
    /// Offered only in a window a `respond` opens, and then only reactions
    /// are.
    #[serde(default)]
    pub reaction: bool,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Counts {
    Acquired,
    Played,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Cost {
    pub counter: String,
    pub amount: Expression,
    /// With zones, `counter` is a marker, and the cost is paid as the
    /// operation `pay` with these zones pays it.
    #[serde(default)]
    pub marking: Vec<String>,
}

/// What a phase does in play (beside its timing, in [`super::data::Phase`]).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PhasePlay {
    #[serde(default)]
    pub actions: Vec<Action>,
    /// Done for each player in seat order when the phase starts.
    #[serde(default)]
    pub start: Vec<Op>,
    /// Done for each player in seat order when the phase ends.
    #[serde(default)]
    pub end: Vec<Op>,
    /// Read for each player once `start` is done: from then on the players
    /// act in the order of its values, highest first; equal values keep
    /// the order they had.
    #[serde(default)]
    pub order_by: Option<Expression>,
}

/// The end of the game and the winner.
#[derive(Clone, Debug, Deserialize)]
pub struct Play {
    /// Read after every round, once for each player as "you": the game
    /// ends when it holds for any of them (`hp == 0`: a player's life is 0).
    pub ends_when: Expression,
    /// The game ends after this many rounds whatever happens.
    pub round_limit: u32,
    /// Each player's score, read for each player when the game ends; the
    /// highest wins, and equal highest scores are a draw.
    pub score: Expression,
    /// Continuous effects: done for each player in seat order once the
    /// set-up is done, and again whenever the procedures a decision or a
    /// phase started are all done.
    #[serde(default)]
    pub refresh: Vec<Op>,
}

/// A bot's priorities: the first line that matches a legal action decides.
#[derive(Clone, Debug, Deserialize)]
pub struct Bot {
    pub id: String,
    #[serde(default)]
    pub display: String,
    pub prefer: Vec<Preference>,
}

/// `prefer buy dear if rich`: take the action `action`, with a card that
/// matches `filter`, when `test` holds; among several such cards, the
/// one with the highest `rank` (then the first).
#[derive(Clone, Debug, Deserialize)]
pub struct Preference {
    pub action: String,
    #[serde(default)]
    pub filter: Option<Expression>,
    #[serde(default)]
    pub test: Option<Expression>,
    #[serde(default)]
    pub rank: Option<Expression>,
}
