//! What a game's rules do, as a ruleset declares it: the meaning of each
//! effect (`does`), of conditions and quantities (`means`), the actions of
//! each phase, the end of the game and the winner (`play`), and bots'
//! priorities (`bot`).  Expressions are compiled to typed trees
//! ([`PlayExpr`]) once the ruleset is read (`ruleset/play/`); the engine
//! data carries them with their source text.  `docs/engine-data.md`
//! describes the format; `src/engine/semantics.rs` is how the engine reads
//! it.

use crate::source::Span;
use crate::syntax::ast::{Expr, Value};
use schemars::JsonSchema;
use serde::Serialize;
use std::sync::Arc;

/// A name a play line gives (a zone, a counter, a role), with where it is
/// written; serialised as the name alone.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct Ref {
    pub name: String,
    #[serde(skip)]
    pub span: Span,
}

/// An expression of play, with the text it was written as.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Expression {
    pub source: String,
    pub tree: PlayExpr,
    /// What is to be compiled, until the ruleset is read.
    #[serde(skip)]
    pub(in crate::ruleset) pending: Pending,
    #[serde(skip)]
    pub span: Span,
}

/// An expression as a line gives it, compiled once every name is known.
#[derive(Clone, Debug, Default)]
pub(in crate::ruleset) enum Pending {
    #[default]
    Done,
    /// `means count(lit)`: an expression.
    Ast(Arc<Expr>),
    /// `add coin amount`: a number, or a name of one.
    Amount(String),
    /// `move all lantern …`: a kind, a tag, or a definition.
    Filter(String),
    /// `if has-oil { … }`: a declared condition and the values of its
    /// parameters.
    Test { condition: String, args: Vec<Value> },
}

impl Expression {
    pub(in crate::ruleset) fn pending(source: String, pending: Pending, span: Span) -> Expression {
        Expression { source, tree: PlayExpr::Int { value: 0 }, pending, span }
    }
}

/// A node of a play expression, typed by the compiler: a number, a truth,
/// a filter (a truth about one card) or a name.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum PlayExpr {
    Int {
        value: i64,
    },
    /// An enum value or other name, compared with a card's field.
    Name {
        value: String,
    },
    /// A counter's value: a player's (yours or your opponent's) or the
    /// table's.
    Counter {
        id: String,
        of: Whose,
    },
    /// Cards in a zone that match the filter.
    Count {
        zone: String,
        of: Whose,
        #[serde(skip_serializing_if = "Option::is_none")]
        filter: Option<Box<PlayExpr>>,
    },
    /// The cards you played this turn (taken by an action that `counts
    /// played`) that match the filter.
    Played {
        #[serde(skip_serializing_if = "Option::is_none")]
        filter: Option<Box<PlayExpr>>,
    },
    /// A field's numbers over the matching cards of a zone.
    Sum {
        zone: String,
        of: Whose,
        field: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        filter: Option<Box<PlayExpr>>,
    },
    /// The amount of the effect being resolved.
    Amount,
    /// How much the previous operation did.
    Last,
    /// The current round, from 1.
    Round,
    /// Your place in the order players act in this round: 1 acts first.
    Place,
    Quantity {
        id: String,
    },
    /// A marker's value on the tested card, else on the card at hand.
    Marker {
        id: String,
    },
    Condition {
        id: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        args: Vec<PlayArg>,
    },
    /// A parameter of the condition or quantity being evaluated.
    Param {
        name: String,
    },
    /// The tested card's value of a field.
    Field {
        name: String,
    },
    Kind {
        id: String,
    },
    Tag {
        id: String,
    },
    /// The card being resolved, or the one a `for-each` is at.
    This,
    Not {
        operand: Box<PlayExpr>,
    },
    And {
        operands: Vec<PlayExpr>,
    },
    Or {
        operands: Vec<PlayExpr>,
    },
    Arith {
        first: Box<PlayExpr>,
        rest: Vec<(ArithOp, PlayExpr)>,
    },
    Compare {
        first: Box<PlayExpr>,
        rest: Vec<(CmpOp, PlayExpr)>,
    },
    /// `if(TRUTH, A, B)`: A when the truth holds, else B.
    If {
        test: Box<PlayExpr>,
        then: Box<PlayExpr>,
        otherwise: Box<PlayExpr>,
    },
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PlayArg {
    pub param: String,
    pub value: Box<PlayExpr>,
}

/// The operators of play's arithmetic and comparisons: the rules' own.
pub use super::rule::{Arith as ArithOp, Cmp as CmpOp};

/// Whose zone or counter an operation means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Whose {
    #[default]
    You,
    Opponent,
}

/// Which cards a move takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Pick {
    #[default]
    Top,
    Chosen,
    Random,
    All,
}

/// One primitive operation of a procedure.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum Op {
    Add {
        counter: Ref,
        amount: Expression,
        of: Whose,
    },
    Remove {
        counter: Ref,
        amount: Expression,
        of: Whose,
    },
    /// Sets a counter to the amount, within its bounds.
    Set {
        counter: Ref,
        amount: Expression,
        of: Whose,
    },
    /// Opens a window for reactions: from you (or your opponent), players
    /// in turn may take one of the phase's reactions or pass, until each
    /// has passed in a row; a reaction resolves when it is taken.
    Respond {
        of: Whose,
        #[serde(skip)]
        span: Span,
    },
    /// Pays from a counter; with `marking`, `counter` is a marker and the
    /// amount is paid by marking that many of your cards of these zones
    /// whose marker is 0.
    Pay {
        counter: Ref,
        amount: Expression,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        marking: Vec<Ref>,
    },
    Move {
        count: Expression,
        from: Ref,
        from_of: Whose,
        to: Ref,
        to_of: Whose,
        pick: Pick,
        #[serde(skip_serializing_if = "Option::is_none")]
        filter: Option<Expression>,
        /// The cards go under the others of the zone, not on top.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        bottom: bool,
    },
    /// Shows the player the top cards of a zone (every card with `all`).
    Reveal {
        count: Expression,
        zone: Ref,
        of: Whose,
    },
    /// The player chooses whether its operations are done.
    May {
        ops: Vec<Op>,
        #[serde(skip)]
        span: Span,
    },
    ThisTo {
        zone: Ref,
    },
    /// Adds to a marker of the card at hand (never below 0).
    Mark {
        marker: Ref,
        amount: Expression,
    },
    /// Sets a marker of the card at hand to 0.
    Clear {
        marker: Ref,
    },
    Shuffle {
        zone: Ref,
        of: Whose,
    },
    Repeat {
        times: Expression,
        ops: Vec<Op>,
    },
    If {
        test: Expression,
        then: Vec<Op>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        otherwise: Vec<Op>,
    },
    ForEach {
        zone: Ref,
        of: Whose,
        #[serde(skip_serializing_if = "Option::is_none")]
        filter: Option<Expression>,
        ops: Vec<Op>,
    },
    /// The rest of the procedure, and of the effect block, is done only
    /// when the test holds.
    Needs {
        test: Expression,
    },
    /// Does what a symbol's `does` says for a role, with this amount (the
    /// amount as it was when none is given): an effect named once and used
    /// in many procedures.
    Run {
        role: Ref,
        symbol: Ref,
        #[serde(skip_serializing_if = "Option::is_none")]
        amount: Option<Expression>,
    },
    /// Each card of the zones (or the card at hand) whose `field` holds
    /// `value` resolves that block, as its owner: a trigger.
    Raise {
        field: Ref,
        value: Ref,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        zones: Vec<Ref>,
        of: Whose,
    },
    /// The player chooses one card of the zones that matches; its block
    /// runs with that card at hand and `amount` the `with` amount.
    Target {
        zones: Vec<Ref>,
        of: Whose,
        #[serde(skip_serializing_if = "Option::is_none")]
        filter: Option<Expression>,
        #[serde(skip_serializing_if = "Option::is_none")]
        with: Option<Expression>,
        ops: Vec<Op>,
    },
}

/// `does gain { add coin amount }`: what a role does with the symbol.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "EffectMeaning")]
pub struct Meaning {
    pub role: Ref,
    pub ops: Vec<Op>,
}

/// An action players may take in a phase.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Action {
    pub id: String,
    pub display: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Expression>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolve: Option<Ref>,
    /// `resolve ability fast`: of the card's `resolve` fields, the one
    /// whose value is this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolve_value: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only_if: Option<Expression>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ops: Vec<Op>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts_as: Option<Counts>,
    /// A reaction: offered only in a window a `respond` opens.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reaction: bool,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Counts {
    Acquired,
    Played,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Cost {
    pub counter: Ref,
    pub amount: Expression,
    /// With zones, `counter` is a marker: the cost marks that many of the
    /// player's cards of these zones whose marker is 0.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marking: Vec<Ref>,
}

/// What a phase does in play: its actions, and what is done for each player
/// when it starts and ends.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct PhasePlay {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub start: Vec<Op>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub end: Vec<Op>,
    /// Read for each player once `start` is done: from then on players act
    /// in the order of its values, highest first (ties keep the order they
    /// had).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<Expression>,
}

/// `play { … }`: the end of the game and the winner.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Play {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    pub ends_when: Expression,
    pub round_limit: u32,
    pub score: Expression,
    /// Done for each player whenever what a decision set off is done:
    /// continuous effects, set anew each time.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refresh: Vec<Op>,
    #[serde(skip)]
    pub span: Span,
}

/// The lines of a `play` block as read, before the required ones are
/// checked.
#[derive(Default)]
pub struct PlayLines {
    pub(in crate::ruleset) doc: Option<String>,
    pub(in crate::ruleset) ends_when: Option<Expression>,
    pub(in crate::ruleset) round_limit: Option<u32>,
    pub(in crate::ruleset) score: Option<Expression>,
    pub(in crate::ruleset) refresh: Vec<Op>,
}

/// `bot ID "NAME" { prefer … }`: priorities for the greedy bot.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Bot {
    pub id: String,
    pub display: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    pub prefer: Vec<Preference>,
    #[serde(skip)]
    pub span: Span,
}

/// `prefer buy lantern by cost if rich`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Preference {
    pub action: Ref,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Expression>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<Expression>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<Expression>,
}
