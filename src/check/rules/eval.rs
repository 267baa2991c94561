//! Evaluating a compiled rule over a pool of cards: a deck's entries, or the
//! one card (or block) a card rule is about.
//!
//! Truth is 1 or 0; sums and products stop at the largest number rather
//! than overflowing, since card values and copy counts are the user's and
//! may be absurd.  The recursion is as deep as the rule nests, which the
//! reader bounds.

use super::words;
use super::{ArgWanted, Arith, Call, CallNode, Cmp, Compiled, EffectFilter, Filter, Node, Op, Wanted};
use crate::ir::{Body, Card, DeckTypeId, Effect, Field, Spanned, Value};
use crate::ruleset::model::{EnumDef, Ruleset, Type};
use crate::source::Span;
use std::collections::BTreeMap;

mod dials;
mod hexes;
mod placed;

#[derive(Clone, Debug)]
pub(in crate::check) struct PoolEntry {
    pub card: usize,
    pub count: i64,
    pub span: Span,
    /// Tags the deck's line gives the card, by index among the ruleset's
    /// tags (`flagship`).
    pub tags: Box<[usize]>,
    /// Where the line places its copies on the table (`at 12,20`).
    pub positions: Box<[[i64; 2]]>,
}

/// The cards a rule counts: the deck's entries with copy counts (those of
/// included decks merged in), and each included deck's own pool.
#[derive(Debug, Default)]
pub(in crate::check) struct Pool {
    pub entries: Vec<PoolEntry>,
    pub included: Vec<Included>,
    /// The deck's own value of its match field (its symbol), for `deck`.
    pub own: Option<String>,
    /// The cards of the deck this one is based on, for `removed` and
    /// `added`.
    pub original: Option<Box<Pool>>,
    /// For `beyond-source`: the field whose value names a card's own deck
    /// (the match field of the `based-on` type), and the cards of each such
    /// deck the project has, by that value.
    pub sources: Option<Sources>,
    /// The deck's name, when it is the original of another.
    pub name: Option<Box<str>>,
}

/// Each card's own deck, for `beyond-source`.
#[derive(Debug)]
pub(in crate::check) struct Sources {
    /// The field whose value names a card's own deck.
    pub field: Box<str>,
    /// The cards of each such deck the project has, by that value.
    pub decks: Vec<(String, Pool)>,
}

#[derive(Debug)]
pub(in crate::check) struct Included {
    pub deck_type: DeckTypeId,
    pub span: Span,
    pub pool: Pool,
}

pub(in crate::check) struct Evaluation<'a> {
    ruleset: &'a Ruleset,
    cards: &'a [&'a Card],
    /// The values of the deck type's parameters for the deck the rule is
    /// about, in the order the deck type declares them.
    params: &'a [i64],
    /// The keyword argument `each-arg` is at, for `arg`.
    arg: Option<&'a Value>,
    /// Each function call and parameter, and what it counted, for the
    /// diagnostic.
    counted: Vec<(Counted<'a>, i64)>,
    /// Lines of the deck responsible for a failure, when a function knows.
    pub culprits: Vec<Span>,
    /// The lines of a repeated field that an `each-row` found not to match:
    /// on one card, the lines to change.
    pub failing_rows: Vec<Span>,
    /// The hex positions a hex function found at fault, on one card, each
    /// with what is wrong there.
    pub positions: Vec<(Span, String)>,
    /// The included decks for which an `every` rule does not hold: the line
    /// including each, its type, and what was counted in it.
    pub members: Vec<(Span, DeckTypeId, String)>,
    /// Cards a function names for the diagnostic, with what they are: those
    /// `shared` found in more than one included deck, those `removed`
    /// found taken out of the original.
    pub named: Option<(String, Vec<&'a str>)>,
    /// The first count found too high (`count(…) == 0` failing), and what
    /// it was held to: its lines are the culprits if the whole rule fails.
    too_high: Option<(&'a Node, i64)>,
    /// How many `or`s the evaluation is inside.
    alternatives: u32,
    /// The first comparison that failed between worked-out values (a sum
    /// of terms): the two values, as the summary says them.
    decisive: Option<(i64, Cmp, i64)>,
    /// Whether a number the rule needed was a special value (`*`: see the
    /// card's text), which a rule never reads as a number: a rule that
    /// fails on one cannot be judged, and is not reported.
    pub read_special: std::cell::Cell<bool>,
}

/// How a deck differs from the deck it is based on.
#[derive(Clone, Copy)]
enum Change {
    Removed,
    Added,
}

impl Change {
    fn described(self, original: Option<&str>) -> String {
        let original =
            original.map_or("the deck it is based on".to_string(), |name| format!("`{name}`, the deck it is based on"));
        match self {
            Change::Removed => format!("taken out of {original}"),
            Change::Added => format!("added to {original}"),
        }
    }
}

/// What a number in a summary is.
#[derive(Clone, Copy)]
enum Counted<'a> {
    Call(&'a CallNode),
    Param(&'a str),
    /// A bound worked out from the deck's parameters (`agreed-points * 33
    /// / 100`) that a comparison failed against, with how it compares.
    Bound(Cmp),
}

/// How many counts a summary names; a rule of thousands of calls is summed
/// up by the first ones.
const SUMMARY_PARTS: usize = 8;

impl<'a> Evaluation<'a> {
    pub fn new(ruleset: &'a Ruleset, cards: &'a [&'a Card]) -> Self {
        Evaluation {
            ruleset,
            cards,
            params: &[],
            arg: None,
            counted: Vec::new(),
            culprits: Vec::new(),
            failing_rows: Vec::new(),
            positions: Vec::new(),
            members: Vec::new(),
            named: None,
            too_high: None,
            alternatives: 0,
            decisive: None,
            read_special: std::cell::Cell::new(false),
        }
    }

    /// The evaluation of a deck's rules, with the values of its parameters.
    pub fn with_params(self, params: &'a [i64]) -> Self {
        Evaluation { params, ..self }
    }

    pub fn holds(&mut self, rule: &'a Compiled, pool: &Pool) -> bool {
        let holds = self.eval(&rule.root, pool) != 0;
        if let Some((counted, allowed)) = self.too_high.take().filter(|_| !holds) {
            self.blame_matching(counted, allowed, pool);
        }
        holds
    }

    /// The value of a compiled rule (a `compute` line's number).
    pub fn value(&mut self, rule: &'a Compiled, pool: &Pool) -> i64 {
        self.eval(&rule.root, pool)
    }

    /// What was counted, in words ("here 26 cards, 18 matching
    /// `offense`"), each count once; truths are left out, since the rule's
    /// message says what does not hold.
    pub fn summary(&self) -> String {
        let parts = self.parts();
        let decisive = self.decisive.map(|(value, cmp, right)| {
            let wanted = match cmp {
                Cmp::Eq => "exactly",
                Cmp::Ne => "other than",
                Cmp::Lt => "less than",
                Cmp::Le => "at most",
                Cmp::Gt => "more than",
                Cmp::Ge => "at least",
            };
            format!("{value}, where {wanted} {right} is wanted")
        });
        match (decisive, parts.is_empty()) {
            (Some(decisive), true) => format!("here {decisive}"),
            (Some(decisive), false) => format!("here {decisive}: {parts}"),
            (None, true) => "here".to_string(),
            (None, false) => format!("here {parts}"),
        }
    }

    fn parts(&self) -> String {
        let mut seen = std::collections::HashSet::new();
        let mut parts: Vec<String> = Vec::new();
        let mut more = 0usize;
        for (counted, n) in &self.counted {
            let Some(part) = in_words(*counted, *n) else { continue };
            if !seen.insert(part.clone()) {
                continue;
            }
            if parts.len() < SUMMARY_PARTS {
                parts.push(part);
            } else {
                more += 1;
            }
        }
        if more > 0 {
            parts.push(format!("and {more} more"));
        }
        parts.join(", ")
    }

    fn eval(&mut self, node: &'a Node, pool: &Pool) -> i64 {
        match &node.op {
            Op::Int(n) => *n,
            // A rule naming a parameter is compiled only in its deck type,
            // and a deck's rules are evaluated only once every parameter
            // has a value (set, or its default), so the value is there.
            Op::Param(i, name) => {
                let value = self.params.get(*i).copied().unwrap_or(0);
                self.counted.push((Counted::Param(name), value));
                value
            }
            Op::Arg => self.arg.and_then(number).unwrap_or(0),
            Op::Not(inner) => i64::from(self.eval(inner, pool) == 0),
            // Short-circuit, so that only the deciding side is reported.
            Op::And(operands) => i64::from(operands.iter().all(|o| self.eval(o, pool) != 0)),
            Op::Or(operands) => {
                self.alternatives += 1;
                let any = operands.iter().any(|o| self.eval(o, pool) != 0);
                self.alternatives -= 1;
                i64::from(any)
            }
            Op::Arithmetic(first, rest) => {
                let mut value = self.eval(first, pool);
                for (op, operand) in rest {
                    let operand = self.eval(operand, pool);
                    value = match op {
                        Arith::Add => value.saturating_add(operand),
                        Arith::Sub => value.saturating_sub(operand),
                        Arith::Mul => value.saturating_mul(operand),
                        Arith::Div => value.checked_div(operand).unwrap_or(0),
                    };
                }
                value
            }
            Op::Compare(first, rest) => {
                let mut value = self.eval(first, pool);
                for (i, (cmp, operand)) in rest.iter().enumerate() {
                    let right = self.eval(operand, pool);
                    let holds = cmp.holds(value, right);
                    if !holds && i == 0 {
                        let counted = self.counted.len();
                        self.note_bound(first, *cmp, operand, (value, right));
                        // A bound worked out from parameters is said by the
                        // bound itself; a sum of counts by its total.
                        let bound = self.counted[counted..].iter().any(|(c, _)| matches!(c, Counted::Bound(_)));
                        let worked_out = |node: &Node| matches!(node.op, Op::Arithmetic(..));
                        if self.decisive.is_none() && !bound && (worked_out(first) || worked_out(operand)) {
                            self.decisive = Some((value, *cmp, right));
                        }
                        // Among alternatives, only a count that had to be
                        // none (`count(armament) == 0 or …`) is to blame.
                        let blamed = self.too_high.is_some() || (self.alternatives > 0 && right > 0);
                        if value > right && matches!(cmp, Cmp::Eq | Cmp::Le | Cmp::Lt) && !blamed {
                            self.too_high = Some((first, right));
                        }
                    }
                    value = i64::from(holds);
                }
                value
            }
            Op::Call(call) => {
                let value = self.call(call, pool);
                if !matches!(call.call, Call::Every(..)) {
                    self.counted.push((Counted::Call(call), value));
                }
                value
            }
        }
    }

    /// When a count is too high (`count(flagship and tonnage == L) == 0`
    /// fails), the lines it counted are the culprits, unless a function has
    /// named others: all of them when none was allowed, or when they are
    /// few enough to show; not 3 of 21 lines when 20 were allowed.
    fn blame_matching(&mut self, counted: &'a Node, allowed: i64, pool: &Pool) {
        const FEW: usize = 3;
        let Op::Call(call) = &counted.op else { return };
        let (Call::Count(filters) | Call::Groups(filters)) = &call.call else { return };
        if !self.culprits.is_empty() {
            return;
        }
        let lines: Vec<Span> = self.matching(filters, pool).map(|entry| entry.span).collect();
        if allowed <= 0 || lines.len() <= FEW {
            self.culprits = lines;
        }
    }

    /// When a comparison fails against a bound worked out from the deck's
    /// parameters, notes the bound for the summary ("the limit is 330"):
    /// the rule's text shows how it is worked out, not what it comes to.
    fn note_bound(&mut self, left: &Node, cmp: Cmp, right: &Node, (l, r): (i64, i64)) {
        let from_params = |node: &Node| matches!(node.op, Op::Arithmetic(..)) && only_params_and_numbers(node);
        if from_params(right) {
            self.counted.push((Counted::Bound(cmp), r));
        } else if from_params(left) {
            self.counted.push((Counted::Bound(cmp.flipped()), l));
        }
    }

    fn call(&mut self, call: &'a CallNode, pool: &Pool) -> i64 {
        match &call.call {
            Call::Count(filters) => total(self.matching(filters, pool).map(|e| e.count)),
            Call::Groups(filters) => self.matching(filters, pool).count() as i64,
            Call::Distinct(filters) => self.per_name(filters, pool).len() as i64,
            Call::MaxCopies(filters) => self.most(filters, pool, |(copies, _)| *copies),
            Call::MaxGroups(filters) => self.most(filters, pool, |(_, spans)| spans.len() as i64),
            Call::Shared(filters) => self.shared(filters, pool),
            Call::Removed(filters) => self.changed(filters, pool, Change::Removed),
            Call::Added(filters) => self.changed(filters, pool, Change::Added),
            Call::BeyondSource(filters) => self.beyond_source(filters, pool),
            Call::All(filters) => i64::from(self.matching(filters, pool).count() == pool.entries.len()),
            Call::Any(filters) => i64::from(self.matching(filters, pool).next().is_some()),
            Call::Sum(field, filters) => self.sum(field, filters, pool),
            Call::Min(field, filters) => self.extreme(field, filters, pool, Iterator::min),
            Call::Max(field, filters) => self.extreme(field, filters, pool, Iterator::max),
            Call::SumRows(field, wanted) => self.sum_rows(field, wanted, pool),
            Call::Subset { needs, has, filters } => self.subset(needs, has, filters, pool),
            Call::Values(field, filters) => self.distinct_values(field, filters, pool),
            Call::OutOfRange(field, filters) => self.out_of_range(field, filters, pool),
            Call::Decks(types) => of_types(pool, types).count() as i64,
            Call::Value(field, position) => self
                .first_card_values(field, pool)
                .iter()
                .flat_map(|v| numbers(&v.value))
                .nth(position - 1)
                .unwrap_or(0),
            Call::Every(types, inner) => self.every(types, inner, pool),
            Call::Some(types, inner) => self.some(types, inner, pool),
            Call::Numbers(field) => {
                self.first_card_values(field, pool).iter().map(|v| numbers(&v.value).count() as i64).sum()
            }
            Call::Effects(filters) => self.effects(filters, pool),
            Call::Choices => self.choices(pool),
            Call::Rows(field, filters) => self.rows(field, filters, pool),
            Call::EachRow(field, filters) => self.each_row(field, filters, pool),
            Call::Args(keyword) => self.args(*keyword, pool),
            Call::EachArg(keyword, inner) => self.each_arg(*keyword, inner, pool),
            Call::Gap(first, second) => self.gap(first, second, pool),
            Call::EdgeGap(filters) => self.edge_gap(filters, pool),
            Call::QuarterSpread(filters) => self.quarter_spread(filters, pool),
            Call::Inside(zone, filters) => self.inside(*zone, filters, pool),
            Call::Unplaced(filters) => self.unplaced(filters, pool),
            Call::Reach(distance) => *distance,
            Call::HexRepeats(fields) => self.hex_repeats(fields, pool),
            Call::HexUnreached(fields) => self.hex_unreached(fields, pool),
            Call::Speeds(field) => self.speeds(field, pool),
            Call::Manoeuvres(field, names) => self.manoeuvres(field, names, pool),
        }
    }

    /// A field's numbers over the matching cards, times their copies.
    fn sum(&self, field: &str, filters: &[Filter], pool: &Pool) -> i64 {
        total(
            self.matching(filters, pool)
                .map(|e| self.field_number(&Subject::card(self.cards[e.card]), field).saturating_mul(e.count)),
        )
    }

    /// The numbers of a table field's rows that mention any of the names,
    /// over all the cards, times their copies.
    fn sum_rows(&self, field: &str, wanted: &[Box<str>], pool: &Pool) -> i64 {
        total(pool.entries.iter().map(|e| self.row_sum(self.cards[e.card], field, wanted).saturating_mul(e.count)))
    }

    /// How many different names a field holds over the matching cards.
    fn distinct_values(&self, field: &str, filters: &[Filter], pool: &Pool) -> i64 {
        let mut values: Vec<&str> =
            self.matching(filters, pool).flat_map(|e| names_in(self.cards[e.card], field)).collect();
        values.sort_unstable();
        values.dedup();
        values.len() as i64
    }

    /// How many matching cards have copies outside their range field; their
    /// lines are the culprits.
    fn out_of_range(&mut self, field: &str, filters: &[Filter], pool: &Pool) -> i64 {
        let failing: Vec<Span> = self
            .matching(filters, pool)
            .filter(|e| {
                self.cards[e.card].field(field).and_then(|f| f.first_value()).is_some_and(|v| match v {
                    Value::Range { low, high } => e.count < *low || high.is_some_and(|h| e.count > h),
                    _ => false,
                })
            })
            .map(|e| e.span)
            .collect();
        let n = failing.len() as i64;
        self.culprits = failing;
        n
    }

    /// The values of a field on the one card a card rule is about: none
    /// when the pool is empty or the card lacks the field.
    fn first_card_values(&self, field: &str, pool: &Pool) -> &'a [Spanned<Value>] {
        let Some(entry) = pool.entries.first() else { return &[] };
        self.cards[entry.card].field(field).map(|f| f.values.as_slice()).unwrap_or_default()
    }

    /// Effect lines of the cards that match any of the filters (all of
    /// them, when there is none), times copies.
    fn effects(&self, filters: &[EffectFilter], pool: &Pool) -> i64 {
        total(pool.entries.iter().map(|e| {
            let mut n = 0i64;
            each_effect(&self.cards[e.card].body, &mut |effect| {
                n += i64::from(filters.is_empty() || filters.iter().any(|f| self.effect_matches(effect, f)));
            });
            n.saturating_mul(e.count)
        }))
    }

    /// `choose` blocks of the cards, times copies.
    fn choices(&self, pool: &Pool) -> i64 {
        total(pool.entries.iter().map(|e| {
            let mut n = 0i64;
            each_body(&self.cards[e.card].body, &mut |body| n = n.saturating_add(body.choices.len() as i64));
            n.saturating_mul(e.count)
        }))
    }

    /// Lines of a repeated field whose row matches, times copies.
    fn rows(&self, field: &str, filters: &[Filter], pool: &Pool) -> i64 {
        total(pool.entries.iter().map(|e| {
            let rows = self.cards[e.card].body.fields.iter().filter(|f| *f.name == *field);
            let n = rows.filter(|row| self.row_matches(row, filters, pool)).count() as i64;
            n.saturating_mul(e.count)
        }))
    }

    /// Arguments of a keyword (by its index) on the cards, times copies.
    fn args(&self, keyword: usize, pool: &Pool) -> i64 {
        let id = self.ruleset.keywords[keyword].id.as_str();
        total(pool.entries.iter().map(|e| (args_of(self.cards[e.card], id).count() as i64).saturating_mul(e.count)))
    }

    fn row_matches(&self, row: &Field, filters: &[Filter], pool: &Pool) -> bool {
        let row = Subject::row(row);
        filters.is_empty() || filters.iter().any(|f| self.matches(&row, f, pool))
    }

    /// Whether every line of `field` on every card matches; the cards with
    /// a line that does not are the culprits.
    fn each_row(&mut self, field: &str, filters: &[Filter], pool: &Pool) -> i64 {
        let mut failing_rows = Vec::new();
        let failing: Vec<Span> = pool
            .entries
            .iter()
            .filter(|e| {
                let rows = self.cards[e.card].body.fields.iter().filter(|f| f.name == field);
                let before = failing_rows.len();
                failing_rows.extend(rows.filter(|row| !self.row_matches(row, filters, pool)).map(|row| row.span));
                failing_rows.len() > before
            })
            .map(|e| e.span)
            .collect();
        let holds = failing.is_empty();
        self.culprits = failing;
        self.failing_rows = failing_rows;
        i64::from(holds)
    }

    /// Whether `inner` holds with `arg` at each argument of the keyword on
    /// each card.
    fn each_arg(&mut self, keyword: usize, inner: &'a Node, pool: &Pool) -> i64 {
        let cards: &'a [&'a Card] = self.cards;
        let id = self.ruleset.keywords[keyword].id.as_str();
        let outer = self.arg;
        let mut failing = Vec::new();
        for entry in &pool.entries {
            for arg in args_of(cards[entry.card], id) {
                self.arg = Some(arg);
                // Only the counts of an argument that fails are reported.
                let counted = self.counted.len();
                if self.eval(inner, pool) == 0 {
                    failing.push(entry.span);
                    break;
                }
                self.counted.truncate(counted);
            }
        }
        self.arg = outer;
        let holds = failing.is_empty();
        self.culprits = failing;
        i64::from(holds)
    }

    fn effect_matches(&self, effect: &Effect, filter: &EffectFilter) -> bool {
        let arg_name = || match self.arg {
            Some(Value::Name(name)) => Some(name.as_str()),
            _ => None,
        };
        match filter {
            EffectFilter::Named { role, symbol } => {
                role.is_some_and(|r| effect.role == self.ruleset.roles[r].id)
                    || symbol.is_some_and(|s| effect.symbol == self.ruleset.symbols[s].id)
            }
            EffectFilter::RoleIsArg => arg_name() == Some(effect.role.as_str()),
            EffectFilter::SymbolIsArg => arg_name() == Some(effect.symbol.as_str()),
            EffectFilter::Amount(cmp, n) => cmp.holds(effect.amount, *n),
            EffectFilter::Plus(plus) => effect.plus == *plus,
            EffectFilter::Not(inner) => !self.effect_matches(effect, inner),
            EffectFilter::And(all) => all.iter().all(|f| self.effect_matches(effect, f)),
            EffectFilter::Or(any) => any.iter().any(|f| self.effect_matches(effect, f)),
        }
    }

    /// The smallest or largest number of a field among the matching cards
    /// that have one (`pick`), or 0 when none has.
    fn extreme(
        &self,
        field: &str,
        filters: &'a [Filter],
        pool: &Pool,
        pick: fn(std::vec::IntoIter<i64>) -> Option<i64>,
    ) -> i64 {
        let numbers: Vec<i64> = self
            .matching(filters, pool)
            .map(|e| Subject::card(self.cards[e.card]))
            .filter(|card| self.has_number(card, field))
            .map(|card| self.field_number(&card, field))
            .collect();
        pick(numbers.into_iter()).unwrap_or(0)
    }

    /// Whether `inner` holds for each included deck; the decks where it
    /// does not are the culprits.
    fn every(&mut self, types: &[usize], inner: &'a Node, pool: &Pool) -> i64 {
        let mut failing = Vec::new();
        for deck in of_types(pool, types) {
            let mut nested = Evaluation::new(self.ruleset, self.cards).with_params(self.params);
            if nested.eval(inner, &deck.pool) == 0 {
                failing.push(deck.span);
                self.members.push((deck.span, deck.deck_type.clone(), nested.parts()));
                self.counted.extend(nested.counted);
            }
        }
        let holds = failing.is_empty();
        self.culprits = failing;
        i64::from(holds)
    }

    /// How many matching cards more than one included deck holds; the
    /// lines including those decks are the culprits.
    fn shared(&mut self, filters: &'a [Filter], pool: &Pool) -> i64 {
        let mut holders: BTreeMap<&'a str, Vec<Span>> = BTreeMap::new();
        for deck in &pool.included {
            for name in self.per_name(filters, &deck.pool).into_keys() {
                holders.entry(name).or_default().push(deck.span);
            }
        }
        holders.retain(|_, decks| decks.len() > 1);
        let mut culprits: Vec<Span> = holders.values().flatten().copied().collect();
        culprits.sort();
        culprits.dedup();
        self.culprits = culprits;
        let names: Vec<&'a str> = holders.keys().copied().collect();
        let shared = names.len() as i64;
        if shared > 0 {
            self.named = Some(("cards in more than one included deck".to_string(), names));
        }
        shared
    }

    /// Copies of the matching cards of the deck this one is based on that
    /// this one lacks (`removed`), or that this one has beyond it
    /// (`added`), card by card; 0 without such a deck.  The cards are
    /// named for the diagnostic.
    fn changed(&mut self, filters: &'a [Filter], pool: &Pool, change: Change) -> i64 {
        let Some(original) = pool.original.as_deref() else { return 0 };
        let (from, against) = match change {
            Change::Removed => (self.per_name(filters, original), self.per_name(&[], pool)),
            Change::Added => (self.per_name(filters, pool), self.per_name(&[], original)),
        };
        let mut names = Vec::new();
        let mut changed = 0i64;
        for (name, (copies, _)) in from {
            let beyond = copies.saturating_sub(against.get(name).map_or(0, |(n, _)| *n));
            if beyond > 0 {
                names.push(name);
                changed = changed.saturating_add(beyond);
            }
        }
        if !names.is_empty() {
            self.named = Some((change.described(original.name.as_deref()), names));
        }
        changed
    }

    /// Copies of the matching cards beyond what their own deck (of the
    /// `based-on` type, with the card's match value) holds, card by card; a
    /// card whose deck the project lacks counts none.  The cards are named
    /// for the diagnostic.
    fn beyond_source(&mut self, filters: &'a [Filter], pool: &Pool) -> i64 {
        let Some(Sources { field, decks: sources }) = &pool.sources else { return 0 };
        let cards: &'a [&'a Card] = self.cards;
        let (mut names, mut lines) = (Vec::new(), Vec::new());
        let mut beyond = 0i64;
        for (name, (copies, spans)) in self.per_name(filters, pool) {
            let Some(card) = pool.entries.iter().map(|e| cards[e.card]).find(|c| c.name == name) else { continue };
            let value = card.field(field).and_then(|f| f.values.first()).and_then(|v| match &v.value {
                Value::Name(value) => Some(value.as_str()),
                _ => None,
            });
            let Some((_, source)) = sources.iter().find(|(v, _)| Some(v.as_str()) == value) else { continue };
            let there = self.per_name(&[], source).get(name).map_or(0, |(n, _)| *n);
            let over = copies.saturating_sub(there);
            if over > 0 {
                names.push(name);
                lines.extend(spans);
                beyond = beyond.saturating_add(over);
            }
        }
        if !names.is_empty() {
            self.named = Some(("more copies than their own deck holds".to_string(), names));
            self.culprits = lines;
        }
        beyond
    }

    /// Whether `inner` holds for some included deck.
    fn some(&mut self, types: &[usize], inner: &'a Node, pool: &Pool) -> i64 {
        let mut tried = Vec::new();
        for deck in of_types(pool, types) {
            let mut nested = Evaluation::new(self.ruleset, self.cards).with_params(self.params);
            if nested.eval(inner, &deck.pool) != 0 {
                return 1;
            }
            tried.extend(nested.counted);
        }
        // None holds: what each deck counted says why.
        self.counted.extend(tried);
        0
    }

    /// The largest `size` of one card's entries among the matching cards;
    /// the lines of the cards of that size are the culprits.
    fn most(&mut self, filters: &'a [Filter], pool: &Pool, size: fn(&(i64, Vec<Span>)) -> i64) -> i64 {
        let per_name = self.per_name(filters, pool);
        let max = per_name.values().map(size).max().unwrap_or(0);
        let most: Vec<(&'a str, (i64, Vec<Span>))> =
            per_name.into_iter().filter(|(_, v)| size(v) == max && max > 0).collect();
        // The cards of the largest count, named: the ones to change.
        let what = match most.len() {
            0 => None,
            1 => Some(format!("the card counted {max} times")),
            _ => Some(format!("the cards counted {max} times each")),
        };
        self.named = what.map(|what| (what, most.iter().map(|(name, _)| *name).collect()));
        self.culprits = most.into_iter().flat_map(|(_, (_, spans))| spans).collect();
        max
    }

    fn matching<'p>(&'p self, filters: &'p [Filter], pool: &'p Pool) -> impl Iterator<Item = &'p PoolEntry> + 'p {
        pool.entries.iter().filter(move |e| {
            let card = Subject::entry(self.cards[e.card], &e.tags);
            filters.is_empty() || filters.iter().any(|f| self.matches(&card, f, pool))
        })
    }

    fn matches(&self, subject: &Subject<'_>, filter: &Filter, pool: &Pool) -> bool {
        match filter {
            Filter::Vocabulary { kind, tag, keyword } => {
                kind.is_some_and(|k| subject.kind == Some(k))
                    || tag.is_some_and(|t| {
                        subject.entry_tags.contains(&t)
                            || subject.tags.iter().any(|have| *have == self.ruleset.tags[t].id)
                    })
                    || keyword.is_some_and(|k| subject.keywords().any(|have| have == self.ruleset.keywords[k].id))
            }
            Filter::HasField(field) => subject.has(field),
            Filter::Mentions(field, named) => {
                let counted = |name: &str| {
                    pool.entries.iter().any(|e| {
                        let card = self.cards[e.card];
                        card.name == name
                            && named.as_deref().is_none_or(|f| self.matches(&Subject::entry(card, &e.tags), f, pool))
                    })
                };
                subject.values(field).any(|value| match value {
                    Value::Text(text) => text.parts.iter().any(|part| match part {
                        crate::ir::TextPart::CardRef(name) => counted(name),
                        _ => false,
                    }),
                    _ => false,
                })
            }
            Filter::Same(field, of) => {
                let theirs: Vec<&Value> = pool
                    .entries
                    .iter()
                    .map(|e| Subject::entry(self.cards[e.card], &e.tags))
                    .filter(|card| self.matches(card, of, pool))
                    .flat_map(|card| card.values(field).collect::<Vec<_>>())
                    .collect();
                subject.values(field).any(|value| theirs.contains(&value))
            }
            Filter::Says(field, words) => subject.values(field).any(|value| match value {
                Value::Text(text) => says(text, words),
                _ => false,
            }),
            Filter::Name { name, equal } => (subject.name == Some(&**name)) == *equal,
            Filter::Not(inner) => !self.matches(subject, inner, pool),
            Filter::And(all) => all.iter().all(|f| self.matches(subject, f, pool)),
            Filter::Or(any) => any.iter().any(|f| self.matches(subject, f, pool)),
            Filter::Holds { field, value, equal } => self.field_has(subject, field, value, pool) == *equal,
            Filter::KeywordArg { keyword, value, equal } => {
                let id = self.ruleset.keywords[*keyword].id.as_str();
                let wanted = |have: &Value| match value {
                    ArgWanted::Int(n) => matches!(have, Value::Int(h) | Value::Signed(h) if h == n),
                    ArgWanted::Arg => self.arg.is_some_and(|arg| arg == have),
                };
                subject.keyword_args(id).any(wanted) == *equal
            }
            // A special value (`-`, `*`) is no number: no comparison holds.
            Filter::Compare { field, cmp, bound } => {
                self.has_number(subject, field) && cmp.holds(self.field_number(subject, field), *bound)
            }
        }
    }

    /// `field == value`: whether the field holds the value.
    fn field_has(&self, subject: &Subject<'_>, field: &str, value: &Wanted, pool: &Pool) -> bool {
        let (want_name, want_number) = match (value, self.arg) {
            (Wanted::DeckOwn, _) => (pool.own.as_deref(), None),
            (Wanted::Name(name), _) => (Some(&**name), None),
            (Wanted::Int(n), _) => (None, Some(*n)),
            (Wanted::Arg, Some(Value::Name(name))) => (Some(name.as_str()), None),
            (Wanted::Arg, Some(arg)) => (None, number(arg)),
            (Wanted::Arg, None) => (None, None),
        };
        subject.values(field).any(|v| match (want_name, want_number, v) {
            (Some(want), _, Value::Name(have)) => want == have,
            (Some(want), _, Value::Keyword { id, .. }) => want == id,
            (Some(want), _, Value::Set(items)) => items.iter().any(|i| i == want),
            (_, Some(want), Value::Int(have) | Value::Signed(have)) => want == *have,
            _ => false,
        })
    }

    fn per_name(&self, filters: &[Filter], pool: &Pool) -> BTreeMap<&'a str, (i64, Vec<Span>)> {
        let cards: &'a [&'a Card] = self.cards;
        let mut per_name: BTreeMap<&'a str, (i64, Vec<Span>)> = BTreeMap::new();
        for entry in self.matching(filters, pool) {
            let slot = per_name.entry(cards[entry.card].name.as_str()).or_default();
            slot.0 = slot.0.saturating_add(entry.count);
            slot.1.push(entry.span);
        }
        per_name
    }

    /// A field as a number: integers as written; enum values by their weight.
    fn field_number(&self, subject: &Subject<'_>, field: &str) -> i64 {
        let weights = subject.kind.and_then(|kind| self.enum_of(kind, field));
        subject
            .values(field)
            .map(|v| match v {
                Value::Int(_) | Value::Signed(_) | Value::Decimal(_) | Value::Distance(_) => number(v).unwrap_or(0),
                Value::Name(name) => weights.and_then(|e| e.weight(name)).unwrap_or(0),
                Value::Special { .. } => {
                    self.read_special.set(true);
                    0
                }
                _ => 0,
            })
            .fold(0, i64::saturating_add)
    }

    /// Whether the field holds a number (or a weighted enum value), not only
    /// a special value such as `-` or `*`.
    fn has_number(&self, subject: &Subject<'_>, field: &str) -> bool {
        let weights = subject.kind.and_then(|kind| self.enum_of(kind, field));
        subject.values(field).any(|v| match v {
            Value::Special { .. } => {
                self.read_special.set(true);
                false
            }
            Value::Int(_) | Value::Signed(_) | Value::Decimal(_) | Value::Distance(_) => true,
            Value::Name(name) => weights.is_some_and(|e| e.weight(name).is_some()),
            _ => false,
        })
    }

    /// The enum a kind's field takes, for the weights of its values.
    fn enum_of(&self, kind: usize, field: &str) -> Option<&'a EnumDef> {
        let ruleset: &'a Ruleset = self.ruleset;
        let def = ruleset.kinds.get(kind)?.schema.field(field)?;
        match &def.schema.takes.first()?.ty {
            Type::Enum(id) => ruleset.enums.iter().find(|e| &e.id == id),
            _ => None,
        }
    }

    /// The numbers on the rows of a table field that mention any wanted name.
    fn row_sum(&self, card: &Card, field: &str, wanted: &[Box<str>]) -> i64 {
        let wanted = |name: &str| wanted.iter().any(|w| **w == *name);
        let mentions = |v: &Value| match v {
            Value::Name(n) => wanted(n),
            Value::Set(items) => items.iter().any(|i| wanted(i)),
            _ => false,
        };
        card.body
            .fields
            .iter()
            .filter(|f| f.name == field && f.each_value().any(mentions))
            .flat_map(|f| f.each_value())
            .map(|v| if let Value::Int(n) = v { *n } else { 0 })
            .fold(0, i64::saturating_add)
    }

    /// Whether every card's `needs` values (with multiplicity) are each found
    /// in the `has` field of at least as many cards matching the filters.
    fn subset(&mut self, needs: &str, has: &str, filters: &[Filter], pool: &Pool) -> i64 {
        let mut providers: BTreeMap<&str, i64> = BTreeMap::new();
        for entry in self.matching(filters, pool) {
            let mut values: Vec<&str> = names_in(self.cards[entry.card], has).collect();
            values.sort_unstable();
            values.dedup();
            for value in values {
                *providers.entry(value).or_default() += 1;
            }
        }
        let mut failing = Vec::new();
        for entry in &pool.entries {
            let mut wanted: BTreeMap<&str, i64> = BTreeMap::new();
            for value in names_in(self.cards[entry.card], needs) {
                *wanted.entry(value).or_default() += 1;
            }
            if wanted.iter().any(|(v, n)| providers.get(v).copied().unwrap_or(0) < *n) {
                failing.push(entry.span);
            }
        }
        let holds = failing.is_empty();
        self.culprits = failing;
        i64::from(holds)
    }
}

/// The names a field holds on a card, a set's one by one.
fn names_in<'c>(card: &'c Card, field: &'c str) -> impl Iterator<Item = &'c str> + 'c {
    card.body.fields.iter().filter(move |f| f.name == field).flat_map(|f| f.each_value()).flat_map(|v| {
        let (one, many): (Option<&str>, &[String]) = match v {
            Value::Name(n) => (Some(n.as_str()), &[]),
            Value::Set(items) => (None, items.as_slice()),
            _ => (None, &[]),
        };
        one.into_iter().chain(many.iter().map(String::as_str))
    })
}

/// A count in words ("590 points", "3 cards matching `offense`"); `None`
/// for a truth, which the rule's message already states.
fn in_words(counted: Counted<'_>, n: i64) -> Option<String> {
    let call = match counted {
        Counted::Param(name) => return Some(format!("{name} is {n}")),
        Counted::Bound(cmp) => return Some(bound_in_words(cmp, n)),
        Counted::Call(call) => call,
    };
    // The arguments as written, and those after a leading field.
    let args = call.shown.split_once('(').map_or("", |(_, rest)| rest.strip_suffix(')').unwrap_or(rest));
    let after_field = args.split_once(',').map_or("", |(_, rest)| rest.trim());
    let matching = |filters: &str| if filters.is_empty() { String::new() } else { format!(" matching `{filters}`") };
    let among =
        |filters: &str| if filters.is_empty() { String::new() } else { format!(" among cards matching `{filters}`") };
    let many = |word: &str| if n == 1 { word.to_string() } else { format!("{word}s") };
    Some(match &call.call {
        Call::Count(_) => format!("{n} {}{}", many("card"), matching(args)),
        Call::Distinct(_) => format!("{n} different {}{}", many("card"), matching(args)),
        Call::Groups(_) => format!("{n} {}{}", many("deck line"), matching(args)),
        Call::MaxCopies(_) => format!("at most {n} copies of one card{}", matching(args)),
        Call::MaxGroups(_) => format!("at most {n} lines naming one card{}", matching(args)),
        Call::Sum(field, _) => format!("{n} {field}{}", matching(after_field)),
        Call::Min(field, _) => format!("the least `{field}`{} is {n}", among(after_field)),
        Call::Max(field, _) => format!("the most `{field}`{} is {n}", among(after_field)),
        Call::SumRows(field, _) => format!("{n} {field} on the rows named {after_field}"),
        Call::Values(field, _) => format!("{n} different `{field}` {}", many("value")),
        Call::OutOfRange(..) => format!("{n} {} outside their card's range", many("deck line")),
        Call::Decks(_) => format!("{n} included {}{}", many("deck"), matching(args)),
        Call::Shared(_) => format!("{n} {}{} in more than one included deck", many("card"), matching(args)),
        Call::Removed(_) => format!("{n} {}{} taken out of the deck it is based on", many("card"), matching(args)),
        Call::Added(_) => format!("{n} {}{} added to the deck it is based on", many("card"), matching(args)),
        Call::BeyondSource(_) => {
            format!("{n} {}{} beyond what their own deck holds", many("card"), matching(args))
        }
        Call::Value(field, 1) => format!("`{field}` is {n}"),
        Call::Value(field, position) => format!("number {position} of `{field}` is {n}"),
        Call::Numbers(field) => format!("`{field}` holds {n} {}", many("number")),
        Call::Effects(_) => format!("{n} {}{}", many("effect line"), matching(args)),
        Call::Choices => format!("{n} `choose` {}", many("block")),
        Call::Rows(field, _) => format!("{n} `{field}` {}{}", many("row"), matching(after_field)),
        Call::Args(_) => format!("{n} {} of `{args}`", many("argument")),
        Call::Gap(..) => format!("the nearest two pieces are {n} apart, edge to edge"),
        Call::EdgeGap(_) => format!("the nearest piece is {n} from a table edge"),
        Call::QuarterSpread(_) => format!("one table quarter holds {n} more than another"),
        Call::Inside(..) => {
            let zone = args.split(',').next().unwrap_or_default().trim();
            format!("{n} placed {} in `{zone}`", many("piece"))
        }
        Call::Reach(_) => return None,
        Call::Unplaced(_) => format!("{n} {}{} placed nowhere", if n == 1 { "copy" } else { "copies" }, matching(args)),
        Call::HexRepeats(_) => format!("{n} {} listed more than once", hexes(n)),
        Call::HexUnreached(_) => format!("{n} {} no path reaches from the centre", hexes(n)),
        Call::Speeds(_) => format!("the dial has {n} different {}", if n == 1 { "speed" } else { "speeds" }),
        Call::Manoeuvres(..) => {
            format!("the dial has {n} {}{}", if n == 1 { "manoeuvre" } else { "manoeuvres" }, matching(after_field))
        }
        Call::All(_) | Call::Any(_) | Call::Subset { .. } | Call::Every(..) | Call::Some(..) => return None,
        Call::EachRow(..) | Call::EachArg(..) => return None,
    })
}

/// "hex" or "hexes", by how many.
fn hexes(n: i64) -> &'static str {
    if n == 1 {
        "hex"
    } else {
        "hexes"
    }
}

/// A bound the counted side is held to: `<= 330` is "the limit is 330".
fn bound_in_words(cmp: Cmp, n: i64) -> String {
    match cmp {
        Cmp::Le => format!("the limit is {n}"),
        Cmp::Lt => format!("the limit is under {n}"),
        Cmp::Ge => format!("the least allowed is {n}"),
        Cmp::Gt => format!("the least allowed is over {n}"),
        Cmp::Eq => format!("it must be {n}"),
        Cmp::Ne => format!("it must not be {n}"),
    }
}

/// Whether an expression is worked out from the deck's parameters (one at
/// least) and numbers alone: a sum of numbers is in the rule's text already.
fn only_params_and_numbers(node: &Node) -> bool {
    let mut stack = vec![node];
    let mut params = false;
    while let Some(node) = stack.pop() {
        match &node.op {
            Op::Int(_) => {}
            Op::Param(..) => params = true,
            Op::Arithmetic(first, rest) => {
                stack.push(first);
                stack.extend(rest.iter().map(|(_, operand)| operand));
            }
            _ => return false,
        }
    }
    params
}

/// A value as one number: `arg` of a keyword taking numbers.
fn number(value: &Value) -> Option<i64> {
    numbers(value).next()
}

/// The numbers of a value, for `value(FIELD, N)` and `numbers(FIELD)`: a
/// save with a passive save (`4+/5+`) and a closed range (`0-12`) hold two.
/// A distance or decimal is one number, read as its whole part (`4.5"` is
/// 4), as rules compare whole numbers; so is an initiative (`3.4` is 3).
fn numbers(value: &Value) -> impl Iterator<Item = i64> {
    let (first, second) = match value {
        Value::Int(n) | Value::Signed(n) => (Some(*n), None),
        Value::Distance(d) | Value::Decimal(d) => (Some(d.units / 10i64.pow(u32::from(d.scale))), None),
        Value::Initiative(crate::ir::Initiative::Step(tenths)) => (Some(*tenths / 10), None),
        Value::Save { save, passive } => (Some(*save), *passive),
        Value::Range { low, high } => (Some(*low), *high),
        _ => (None, None),
    };
    first.into_iter().chain(second)
}

/// Every effect line of a body: its own, and those of every body inside it.
fn each_effect<'b>(body: &'b Body, visit: &mut impl FnMut(&'b Effect)) {
    each_body(body, &mut |body| body.effects.iter().for_each(&mut *visit));
}

/// A body and every body inside it: its fields' blocks, its conditions, the
/// options of its choices and its `then` steps.  The recursion is as deep as
/// blocks nest, which the parser bounds.
fn each_body<'b>(body: &'b Body, visit: &mut impl FnMut(&'b Body)) {
    visit(body);
    let fields = body.fields.iter().filter_map(|f| f.body.as_deref());
    let conditions = body.conditions.iter().map(|c| &c.body);
    let options = body.choices.iter().flat_map(|c| &c.options);
    for inner in fields.chain(conditions).chain(options).chain(&body.then) {
        each_body(inner, visit);
    }
}

/// The arguments of every use of a keyword on a card.
/// The arguments of a keyword on a card: on its lines and on the rows of
/// its repeated fields (a ship's weapons), in the order written.
fn args_of<'c>(card: &'c Card, keyword: &str) -> impl Iterator<Item = &'c Value> + 'c {
    let mut found = Vec::new();
    collect_args(&card.body.fields, keyword, &mut found);
    found.into_iter()
}

/// The recursion is as deep as blocks nest, which the parser bounds.
fn collect_args<'c>(fields: &'c [Field], keyword: &str, found: &mut Vec<&'c Value>) {
    for field in fields {
        found.extend(keyword_args(field.values.as_slice(), keyword));
        if let Some(body) = &field.body {
            collect_args(&body.fields, keyword, found);
        }
    }
}

/// The arguments of a keyword among values.
fn keyword_args<'c>(values: &'c [Spanned<Value>], keyword: &str) -> impl Iterator<Item = &'c Value> + 'c {
    let keyword = keyword.to_string();
    values.iter().flat_map(move |v| {
        let args: &'c [Spanned<Value>] = match &v.value {
            Value::Keyword { id, args } if *id == keyword => args,
            _ => &[],
        };
        args.iter().map(|a| &a.value)
    })
}

/// Whether a text's own words hold `words` (in small letters), one after
/// the other, in any letter case: a word is a run of letters and digits, so
/// `rear` is in "Rear arc." but not in "Rearm".  A card's name (`*Rear
/// Guard*`) is not the text's own words, and it or an icon between two words
/// keeps them apart.
pub(super) fn says(text: &crate::ir::Text, words: &[Box<str>]) -> bool {
    let holds = |run: &[&str]| {
        run.windows(words.len().max(1)).any(|written| {
            written.iter().zip(words).all(|(w, want)| w.chars().flat_map(char::to_lowercase).eq(want.chars()))
        })
    };
    let mut run: Vec<&str> = Vec::new();
    for part in &text.parts {
        match part {
            crate::ir::TextPart::Plain(s) => run.extend(self::words(s)),
            crate::ir::TextPart::CardRef(_) | crate::ir::TextPart::Icon(_) => {
                if holds(&run) {
                    return true;
                }
                run.clear();
            }
        }
    }
    holds(&run)
}

/// The included decks of the given types (all, when none is given).
fn of_types<'p>(pool: &'p Pool, types: &'p [usize]) -> impl Iterator<Item = &'p Included> + 'p {
    pool.included.iter().filter(move |d| types.is_empty() || types.contains(&d.deck_type.index()))
}

/// A sum that stops at the largest number rather than overflowing.
fn total(numbers: impl Iterator<Item = i64>) -> i64 {
    numbers.fold(0, i64::saturating_add)
}

/// What a filter is tried on: a card, or one line of a repeated field
/// (`rows`, `each-row`), whose fields are those of its block and whose own
/// values are `this`.
struct Subject<'c> {
    /// A card's name, or a row's first quoted value.
    name: Option<&'c str>,
    kind: Option<usize>,
    tags: &'c [String],
    /// Tags a deck's line gives the card, by index.
    entry_tags: &'c [usize],
    fields: &'c [Field],
    own: &'c [Spanned<Value>],
}

impl<'c> Subject<'c> {
    fn card(card: &'c Card) -> Self {
        Subject {
            name: Some(&card.name),
            kind: Some(card.kind.index()),
            tags: &card.tags,
            entry_tags: &[],
            fields: &card.body.fields,
            own: &[],
        }
    }

    /// A card as a deck's line lists it, with the tags the line gives.
    fn entry(card: &'c Card, entry_tags: &'c [usize]) -> Self {
        Subject { entry_tags, ..Subject::card(card) }
    }

    fn row(row: &'c Field) -> Self {
        let fields = row.body.as_ref().map(|b| b.fields.as_slice()).unwrap_or_default();
        let name = row.values.iter().find_map(|v| match &v.value {
            Value::String(name) => Some(name.as_str()),
            _ => None,
        });
        Subject { name, kind: None, tags: &[], entry_tags: &[], fields, own: &row.values }
    }

    /// The values of a field; `this` is a row's own values.
    fn values<'s>(&'s self, field: &'s str) -> impl Iterator<Item = &'c Value> + 's {
        let own = if field == "this" { self.own } else { &[] };
        let fields: &'c [Field] = self.fields;
        own.iter().map(|v| &v.value).chain(fields.iter().filter(move |f| f.name == field).flat_map(|f| f.each_value()))
    }

    fn has(&self, field: &str) -> bool {
        (field == "this" && !self.own.is_empty()) || self.fields.iter().any(|f| f.name == field)
    }

    /// The arguments of a keyword on the subject's own values and fields.
    fn keyword_args<'s>(&'s self, keyword: &'s str) -> impl Iterator<Item = &'c Value> + 's {
        let fields: &'c [Field] = self.fields;
        keyword_args(self.own, keyword).chain(fields.iter().flat_map(move |f| keyword_args(&f.values, keyword)))
    }

    fn keywords(&self) -> impl Iterator<Item = &'c str> + '_ {
        let fields: &'c [Field] = self.fields;
        let own: &'c [Spanned<Value>] = self.own;
        own.iter().map(|v| &v.value).chain(fields.iter().flat_map(|f| f.each_value())).filter_map(|v| match v {
            Value::Keyword { id, .. } => Some(id.as_str()),
            _ => None,
        })
    }
}
