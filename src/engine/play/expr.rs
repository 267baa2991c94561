//! Reading a compiled expression in a game.  The trees are at most
//! [`MAX_DEPTH`] deep (the table refuses deeper ones), and an evaluation
//! goes through at most [`MAX_DEPTH`] declared conditions and quantities one
//! inside another: deeper, the value is nothing (a condition that names
//! itself does not run forever).

use super::state::{Env, Game};
use super::table::{Ex, Val};

/// The most declared conditions and quantities an evaluation goes through,
/// one inside another.
const MAX_REFS: usize = 8;
use crate::engine::semantics::{ArithOp, CmpOp};

impl Game<'_> {
    pub(crate) fn num(&self, e: &Ex, env: &Env) -> i64 {
        match self.eval(e, env, 0) {
            Val::Num(n) => n,
            _ => 0,
        }
    }

    pub(crate) fn truth(&self, e: &Ex, env: &Env) -> bool {
        matches!(self.eval(e, env, 0), Val::Num(n) if n != 0)
    }

    /// Whether a card passes an optional filter.
    pub(crate) fn passes(&self, filter: Option<&Ex>, card: u16, env: &Env) -> bool {
        self.passes_at(filter, card, env, 0)
    }

    fn passes_at(&self, filter: Option<&Ex>, card: u16, env: &Env, depth: usize) -> bool {
        match filter {
            None => true,
            Some(f) => matches!(self.eval(f, &Env { tested: Some(card), ..*env }, depth), Val::Num(n) if n != 0),
        }
    }

    /// A declared condition or quantity's meaning with these parameters.
    pub(crate) fn state_value(&self, means: Option<&Ex>, env: &Env, params: &[(u32, Val)], depth: usize) -> Val {
        match means {
            Some(means) if depth < MAX_REFS => self.eval(means, &Env { params, tested: None, ..*env }, depth + 1),
            _ => Val::None,
        }
    }

    pub(crate) fn eval(&self, e: &Ex, env: &Env, depth: usize) -> Val {
        let t = self.t;
        let tested = || env.tested.map(|c| t.card_of(c));
        let truth = |b: bool| Val::Num(i64::from(b));
        match e {
            Ex::Int(n) => Val::Num(*n),
            Ex::Name(n) => Val::Name(*n),
            Ex::Counter(c, of) => Val::Num(self.counters[t.counter_slot(*c, self.whose(env.you, *of))]),
            Ex::Count { zone, of, filter } => {
                let slot = t.zone_slot(*zone, self.whose(env.you, *of));
                let cards = self.slot(slot);
                let n = match filter {
                    None => cards.len(),
                    Some(f) => cards.iter().filter(|&&c| self.passes_at(Some(f), c, env, depth)).count(),
                };
                Val::Num(n as i64)
            }
            Ex::Played(filter) => {
                let mine = self.played.iter().filter(|&&(seat, _)| usize::from(seat) == env.you);
                let n = mine.filter(|&&(_, c)| self.passes_at(filter.as_deref(), c, env, depth)).count();
                Val::Num(n as i64)
            }
            Ex::Sum { zone, of, field, filter } => {
                let slot = t.zone_slot(*zone, self.whose(env.you, *of));
                let mut sum = 0i64;
                for &card in self.slot(slot) {
                    if self.passes_at(filter.as_deref(), card, env, depth) {
                        if let Val::Num(n) = t.field(t.card_of(card), *field) {
                            sum = sum.saturating_add(n);
                        }
                    }
                }
                Val::Num(sum)
            }
            Ex::Amount => Val::Num(env.amount),
            Ex::Last => Val::Num(self.last),
            Ex::Round => Val::Num(i64::from(self.round)),
            Ex::Place => Val::Num(self.order.iter().position(|&s| s as usize == env.you).map_or(0, |p| p as i64 + 1)),
            Ex::Quantity(q) => self.state_value(t.quantities[*q as usize].means.as_ref(), env, &[], depth),
            Ex::Condition(c, args) => {
                let bound: Vec<(u32, Val)> = args.iter().map(|(p, a)| (*p, self.eval(a, env, depth))).collect();
                self.state_value(t.conditions[*c as usize].means.as_ref(), env, &bound, depth)
            }
            Ex::Param(name) => env.params.iter().rev().find(|(p, _)| p == name).map_or(Val::None, |(_, v)| *v),
            // A field reads the tested card's value, else the card at hand's.
            Ex::Field(f) => env.tested.or(env.this).map_or(Val::None, |c| t.field(t.card_of(c), *f)),
            Ex::Kind(k) => truth(tested().is_some_and(|c| t.cards[c as usize].kind == *k)),
            Ex::Tag(g) => truth(tested().is_some_and(|c| t.cards[c as usize].tags.contains(g))),
            Ex::This => truth(env.tested.is_some() && env.tested == env.this),
            Ex::Marker(m) => Val::Num(env.tested.or(env.this).map_or(0, |c| self.marker(c, *m as usize))),
            Ex::Not(inner) => truth(!self.is_true(inner, env, depth)),
            Ex::If(parts) => {
                let [test, then, otherwise] = &**parts;
                self.eval(if self.is_true(test, env, depth) { then } else { otherwise }, env, depth)
            }
            Ex::And(list) => truth(list.iter().all(|e| self.is_true(e, env, depth))),
            Ex::Or(list) => truth(list.iter().any(|e| self.is_true(e, env, depth))),
            Ex::Arith(first, rest) => self.arith(first, rest, env, depth),
            Ex::Compare(first, rest) => {
                let mut left = self.eval(first, env, depth);
                for (op, e) in rest {
                    let right = self.eval(e, env, depth);
                    if !compare(left, *op, right) {
                        return Val::Num(0);
                    }
                    left = right;
                }
                Val::Num(1)
            }
        }
    }

    fn is_true(&self, e: &Ex, env: &Env, depth: usize) -> bool {
        matches!(self.eval(e, env, depth), Val::Num(n) if n != 0)
    }

    fn arith(&self, first: &Ex, rest: &[(ArithOp, Ex)], env: &Env, depth: usize) -> Val {
        let Val::Num(mut acc) = self.eval(first, env, depth) else { return Val::None };
        for (op, e) in rest {
            let Val::Num(n) = self.eval(e, env, depth) else { return Val::None };
            acc = match op {
                ArithOp::Add => acc.saturating_add(n),
                ArithOp::Sub => acc.saturating_sub(n),
                ArithOp::Mul => acc.saturating_mul(n),
                ArithOp::Div => acc.checked_div(n).unwrap_or(0),
            };
        }
        Val::Num(acc)
    }
}

/// A comparison: numbers any way, names only for (in)equality, and nothing
/// compares with nothing.
fn compare(left: Val, op: CmpOp, right: Val) -> bool {
    match (left, right) {
        (Val::Num(a), Val::Num(b)) => op.holds(a, b),
        (Val::Name(a), Val::Name(b)) => match op {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            _ => false,
        },
        _ => false,
    }
}
