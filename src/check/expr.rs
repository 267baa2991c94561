//! Evaluates construction-rule expressions over a pool of cards.

use crate::ir::Card;
use crate::source::Span;
use crate::syntax::ast::{BinOp, Expr};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug)]
pub(super) struct PoolEntry {
    pub card: usize,
    pub count: i64,
    pub span: Span,
}

/// The cards a rule counts: entries with copy counts, and how many decks of
/// each type were included.
#[derive(Debug, Default)]
pub(super) struct Pool {
    pub entries: Vec<PoolEntry>,
    pub decks: BTreeMap<String, i64>,
}

pub(super) struct Evaluation<'a> {
    cards: &'a [Card],
    pool: &'a Pool,
    /// Each function call and what it counted, for the diagnostic.
    pub counted: Vec<(String, i64)>,
    /// Deck lines that pushed a `max-copies` over its limit.
    pub culprits: Vec<Span>,
}

impl<'a> Evaluation<'a> {
    pub fn new(cards: &'a [Card], pool: &'a Pool) -> Self {
        Evaluation { cards, pool, counted: Vec::new(), culprits: Vec::new() }
    }

    pub fn holds(&mut self, expr: &Expr) -> bool {
        self.eval(expr) != 0
    }

    /// "has 26 cards"-style summary of what was counted.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self.counted.iter().map(|(call, n)| format!("{call} is {n}")).collect();
        if parts.is_empty() {
            "this deck".to_string()
        } else {
            format!("here {}", parts.join(", "))
        }
    }

    fn eval(&mut self, expr: &Expr) -> i64 {
        match expr {
            Expr::Int(n, _) => *n,
            Expr::Name(_) => 0,
            Expr::Not(inner, _) => i64::from(self.eval(inner) == 0),
            Expr::Binary { op, lhs, rhs, .. } => {
                let l = self.eval(lhs);
                // `and`/`or` short-circuit so only the deciding side is reported.
                match op {
                    BinOp::And if l == 0 => return 0,
                    BinOp::Or if l != 0 => return 1,
                    _ => {}
                }
                let r = self.eval(rhs);
                match op {
                    BinOp::Or | BinOp::And => i64::from(r != 0),
                    BinOp::Eq => i64::from(l == r),
                    BinOp::Ne => i64::from(l != r),
                    BinOp::Le => i64::from(l <= r),
                    BinOp::Ge => i64::from(l >= r),
                    BinOp::Lt => i64::from(l < r),
                    BinOp::Gt => i64::from(l > r),
                    BinOp::Add => l.saturating_add(r),
                    BinOp::Sub => l.saturating_sub(r),
                }
            }
            Expr::Call { name, args, .. } => {
                let filter: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
                let value = match name.text.as_str() {
                    "count" => self.matching(&filter).map(|e| e.count).sum(),
                    "distinct" => self.per_name(&filter).len() as i64,
                    "max-copies" => {
                        let per_name = self.per_name(&filter);
                        let max = per_name.values().map(|(n, _)| *n).max().unwrap_or(0);
                        self.culprits =
                            per_name.into_values().filter(|(n, _)| *n == max && max > 0).flat_map(|(_, s)| s).collect();
                        max
                    }
                    "decks" => filter.iter().map(|t| self.pool.decks.get(*t).copied().unwrap_or(0)).sum(),
                    _ => 0,
                };
                self.counted.push((format!("{}({})", name.text, filter.join(", ")), value));
                value
            }
        }
    }

    fn matching<'s>(&'s self, filter: &'s [&str]) -> impl Iterator<Item = &'s PoolEntry> + 's {
        self.pool.entries.iter().filter(move |e| {
            let card = &self.cards[e.card];
            filter.is_empty()
                || filter.contains(&card.kind.as_str())
                || card.tags.iter().any(|t| filter.contains(&t.as_str()))
        })
    }

    fn per_name(&self, filter: &[&str]) -> BTreeMap<&'a str, (i64, Vec<Span>)> {
        let mut per_name: BTreeMap<&str, (i64, Vec<Span>)> = BTreeMap::new();
        for entry in self.matching(filter) {
            let slot = per_name.entry(self.cards[entry.card].name.as_str()).or_default();
            slot.0 += entry.count;
            slot.1.push(entry.span);
        }
        per_name
    }
}
