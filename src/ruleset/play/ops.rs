//! Reading the primitive operations of a procedure (`does`, `start`,
//! `end`, an action's `do`): each line one [`Op`], its words read in the
//! order the language writes them, a block of operations for `repeat`,
//! `if`, `else`, `for-each` and `target`.

use super::{bad_line, reference, word};
use crate::ruleset::loader::Loader;
use crate::ruleset::model::play::{Expression, Op, Pending, Pick, Ref, Whose};
use crate::syntax::ast::{Node, Value};

/// The words of one operation line, read from the front.
struct Words<'n> {
    node: &'n Node,
    at: usize,
}

impl<'n> Words<'n> {
    fn new(node: &'n Node) -> Words<'n> {
        Words { node, at: 0 }
    }

    fn peek(&self) -> Option<String> {
        self.node.values.get(self.at).and_then(word)
    }

    fn value(&mut self) -> Option<&'n Value> {
        let value = self.node.values.get(self.at)?;
        self.at += 1;
        Some(value)
    }

    /// The next word, when it is `expected`.
    fn eat(&mut self, expected: &str) -> bool {
        let found = self.peek().as_deref() == Some(expected);
        if found {
            self.at += 1;
        }
        found
    }

    fn name(&mut self) -> Option<Ref> {
        let value = self.node.values.get(self.at)?;
        let name = reference(value)?;
        self.at += 1;
        Some(name)
    }

    /// An amount: a number, or a name of one (`amount`, a quantity, a
    /// counter, a card's field).
    fn amount(&mut self) -> Option<Expression> {
        let value = self.value()?;
        let text = word(value)?;
        Some(Expression::pending(text.clone(), Pending::Amount(text), value.span))
    }

    /// `opponent` after a zone or counter: whose it is.
    fn whose(&mut self) -> Whose {
        if self.eat("opponent") {
            Whose::Opponent
        } else {
            Whose::You
        }
    }

    /// A filter (a kind, tag or `def`), unless the next word is `stop`.
    fn filter_before(&mut self, stop: &str) -> Option<Expression> {
        let text = self.peek().filter(|text| text != stop)?;
        let value = self.value()?;
        Some(Expression::pending(text.clone(), Pending::Filter(text), value.span))
    }

    fn done(&self) -> bool {
        self.at >= self.node.values.len()
    }
}

/// An operation's form, for its message when a line is not written so.
fn form(name: &str) -> &'static str {
    match name {
        "add" | "remove" | "set" => {
            "`add COUNTER AMOUNT [opponent]`, `remove COUNTER AMOUNT [opponent]`, `set COUNTER AMOUNT [opponent]`"
        }
        "respond" => "`respond [opponent]`, with no block",
        "pay" => "`pay COUNTER AMOUNT`, or `pay MARKER AMOUNT from ZONE…`",
        "target" => "`target [FILTER] from ZONE… [opponent] [with AMOUNT] { … }`",
        "raise" => "`raise FIELD VALUE [from ZONE… [opponent]]`",
        "run" => "`run ROLE SYMBOL [AMOUNT]`",
        "move" => {
            "`move COUNT|all [FILTER] from ZONE [opponent] to ZONE [opponent] [bottom] [top|chosen|random]`, such as `move 2 from draw-deck to hand`"
        }
        "this-to" => "`this-to ZONE`",
        "reveal" => "`reveal COUNT|all from ZONE [opponent]`",
        "may" => "`may { … }`: only a block follows `may`",
        "mark" => "`mark MARKER AMOUNT`",
        "clear" => "`clear MARKER`",
        "shuffle" => "`shuffle ZONE [opponent]`",
        "repeat" => "`repeat AMOUNT { … }`",
        "if" => "`if CONDITION [ARG…] { … }`, then optionally `else { … }`",
        "else" => "`else { … }` right after an `if` line",
        "needs" => "`needs CONDITION [ARG…]`, with no block",
        _ => "`for-each ZONE [FILTER] [opponent] { … }`",
    }
}

/// What `reveal all` reads as: more cards than any zone holds.
const MAX_REVEAL: &str = "100000";

/// The words an operation line may hold besides names and amounts.
const WORDS: &[&str] = &["opponent", "from", "to", "top", "chosen", "random", "all", "with", "bottom"];

/// `raise FIELD VALUE [from ZONE… [opponent]]`.
fn raise(node: &Node) -> Option<Op> {
    let mut words = Words::new(node);
    let (field, value) = (words.name()?, words.name()?);
    let mut zones = Vec::new();
    if words.eat("from") {
        while !words.done() && words.peek().as_deref() != Some("opponent") {
            zones.push(words.name()?);
        }
        if zones.is_empty() {
            return None;
        }
    }
    let of = words.whose();
    words.done().then_some(Op::Raise { field, value, zones, of })
}

/// `reveal COUNT|all from ZONE [opponent]`.
fn reveal(node: &Node) -> Option<Op> {
    let mut words = Words::new(node);
    let count = if words.peek().as_deref() == Some("all") {
        let value = words.value()?;
        Expression::pending("all".into(), Pending::Amount(MAX_REVEAL.into()), value.span)
    } else {
        words.amount()?
    };
    if !words.eat("from") {
        return None;
    }
    let (zone, of) = (words.name()?, words.whose());
    words.done().then_some(Op::Reveal { count, zone, of })
}

/// `pay COUNTER AMOUNT`, or `pay MARKER AMOUNT from ZONE…`: what is paid,
/// how much, and the zones whose cards are marked to pay it.
pub(super) fn pay(node: &Node) -> Option<(Ref, Expression, Vec<Ref>)> {
    let mut words = Words::new(node);
    let (counter, amount) = (words.name()?, words.amount()?);
    let mut marking = Vec::new();
    if words.eat("from") {
        while !words.done() {
            marking.push(words.name()?);
        }
        if marking.is_empty() {
            return None;
        }
    }
    words.done().then_some((counter, amount, marking))
}

/// A line that is not written as its operation's form: at a misspelt word
/// of the form when there is one, else at the line.
fn misread(node: &Node, name: &str) -> crate::diagnostics::Diagnostic {
    let misspelt = node.values.iter().find_map(|value| {
        let text = word(value).filter(|text| !WORDS.contains(&text.as_str()))?;
        let meant = crate::ruleset::names::suggest(&text, WORDS.iter().copied())?;
        Some((value.span, text, meant))
    });
    match misspelt {
        Some((span, text, meant)) => {
            bad_line(span, format!("`{text}` is no word of `{name}`"), format!("write {}", form(name)))
                .suggest(Some(meant))
        }
        None => bad_line(
            node.head_span(),
            format!("`{name}` is not written as the language says"),
            format!("write {}", form(name)),
        ),
    }
}

impl Loader<'_> {
    /// Reads one operation line into the procedure.
    pub(in crate::ruleset) fn operation(&mut self, node: &Node, ops: &mut Vec<Op>) {
        let name = node.name.text.as_str();
        let read = match name {
            "add" | "remove" | "set" => self.counter_op(node),
            "respond" => {
                let mut words = Words::new(node);
                let of = words.whose();
                words.done().then_some(Op::Respond { of, span: node.head_span() })
            }
            "pay" => pay(node).map(|(counter, amount, marking)| Op::Pay { counter, amount, marking }),
            "target" => self.target(node),
            "raise" => raise(node),
            "run" => {
                let mut words = Words::new(node);
                let (role, symbol) = (words.name(), words.name());
                let amount = if words.done() { None } else { words.amount() };
                match (role, symbol) {
                    (Some(role), Some(symbol)) if words.done() => Some(Op::Run { role, symbol, amount }),
                    _ => None,
                }
            }
            "move" => self.move_op(node),
            "reveal" => reveal(node),
            "may" => node.values.is_empty().then(|| Op::May { ops: self.nested(node), span: node.head_span() }),
            "mark" => {
                let mut words = Words::new(node);
                match (words.name(), words.amount()) {
                    (Some(marker), Some(amount)) if words.done() => Some(Op::Mark { marker, amount }),
                    _ => None,
                }
            }
            "clear" => match self.one_name(node, form(name)) {
                Some(marker) => Some(Op::Clear { marker }),
                None => return,
            },
            "this-to" => match self.one_name(node, form(name)) {
                Some(zone) => Some(Op::ThisTo { zone }),
                None => return,
            },
            "shuffle" => {
                let mut words = Words::new(node);
                match (words.name(), words.whose()) {
                    (Some(zone), of) if words.done() => Some(Op::Shuffle { zone, of }),
                    _ => None,
                }
            }
            "repeat" => {
                let mut words = Words::new(node);
                let times = words.amount().filter(|_| words.done());
                times.map(|times| Op::Repeat { times, ops: self.nested(node) })
            }
            "if" => match self.test(node, &node.values) {
                Some(test) => Some(Op::If { test, then: self.nested(node), otherwise: Vec::new() }),
                None => return,
            },
            "else" => return self.otherwise(node, ops),
            "needs" => match self.test(node, &node.values) {
                Some(test) if node.block.is_none() => Some(Op::Needs { test }),
                Some(_) => None,
                None => return,
            },
            "for-each" => self.for_each(node),
            // A word that is no operation: the block's reader said so.
            _ => return,
        };
        match read {
            Some(op) => ops.push(op),
            None => self.diagnostics.push(misread(node, name)),
        }
    }

    fn counter_op(&mut self, node: &Node) -> Option<Op> {
        let mut words = Words::new(node);
        let (counter, amount, of) = (words.name()?, words.amount()?, words.whose());
        if !words.done() {
            return None;
        }
        Some(match node.name.text.as_str() {
            "add" => Op::Add { counter, amount, of },
            "set" => Op::Set { counter, amount, of },
            _ => Op::Remove { counter, amount, of },
        })
    }

    /// `move COUNT|all [FILTER] from ZONE [opponent] to ZONE [opponent]
    /// [top|chosen|random]`.
    fn move_op(&mut self, node: &Node) -> Option<Op> {
        let mut words = Words::new(node);
        let (count, all) = if words.peek().as_deref() == Some("all") {
            let value = words.value()?;
            (Expression::pending("0".into(), Pending::Amount("0".into()), value.span), true)
        } else {
            (words.amount()?, false)
        };
        let filter = words.filter_before("from");
        if !words.eat("from") {
            return None;
        }
        let (from, from_of) = (words.name()?, words.whose());
        if !words.eat("to") {
            return None;
        }
        let (to, to_of) = (words.name()?, words.whose());
        let bottom = words.eat("bottom");
        let pick = match words.peek().as_deref() {
            None => Pick::Top,
            Some("top") => Pick::Top,
            Some("chosen") => Pick::Chosen,
            Some("random") => Pick::Random,
            Some(_) => return None,
        };
        let pick = if all { Pick::All } else { pick };
        Some(Op::Move { count, from, from_of, to, to_of, pick, filter, bottom })
    }

    /// `for-each ZONE [FILTER] [opponent] { … }`.
    fn for_each(&mut self, node: &Node) -> Option<Op> {
        let mut words = Words::new(node);
        let zone = words.name()?;
        let filter = words.filter_before("opponent");
        let of = words.whose();
        if !words.done() {
            return None;
        }
        Some(Op::ForEach { zone, of, filter, ops: self.nested(node) })
    }

    /// `target [FILTER] from ZONE… [opponent] [with AMOUNT] { … }`.
    fn target(&mut self, node: &Node) -> Option<Op> {
        let mut words = Words::new(node);
        let filter = words.filter_before("from");
        if !words.eat("from") {
            return None;
        }
        let mut zones = Vec::new();
        while !words.done() && !matches!(words.peek().as_deref(), Some("opponent" | "with")) {
            zones.push(words.name()?);
        }
        let of = words.whose();
        let with = if words.eat("with") { Some(words.amount()?) } else { None };
        if zones.is_empty() || !words.done() {
            return None;
        }
        Some(Op::Target { zones, of, filter, with, ops: self.nested(node) })
    }

    /// `else { … }`: what the `if` line before it does when its test fails.
    fn otherwise(&mut self, node: &Node, ops: &mut [Op]) {
        let ops_else = self.nested(node);
        match ops.last_mut() {
            Some(Op::If { otherwise, .. }) if otherwise.is_empty() && node.values.is_empty() => *otherwise = ops_else,
            _ => self.diagnostics.push(bad_line(
                node.head_span(),
                "`else` stands right after the block of an `if` line, and only one",
                "write `if low { add hp 1 }`, then `else { … }` on the next line",
            )),
        }
    }

    /// The operations of a line's block.
    fn nested(&mut self, node: &Node) -> Vec<Op> {
        let mut ops = Vec::new();
        self.read_block(node, &super::language::OPS, &mut ops);
        if node.block.is_none() {
            self.diagnostics.push(bad_line(
                node.head_span(),
                format!("`{}` needs a block of operations", node.name.text),
                format!("write {}", form(&node.name.text)),
            ));
        }
        ops
    }
}
