//! Construction rules applied to content: the evaluation of the rules a
//! ruleset compiled ([`crate::ruleset::rules`]) over decks and cards.

pub(super) mod eval;

pub(super) use crate::ruleset::rules::*;
pub(super) use eval::{Evaluation, Included, Pool, PoolEntry, Sources};

#[cfg(test)]
mod tests;
