//! Rule expressions as a typed language: compiled once, when the ruleset
//! loads ([`compile`]), for the [`Scope`] the rule is declared in, with the
//! calls of the ruleset's definitions expanded first ([`defs`]); then
//! evaluated over each card, block or deck by the checker
//! (`check::rules::eval`).
//!
//! A rule is read by the syntax stage into an untyped [`Expr`](crate::syntax::ast::Expr).
//! Compiling it resolves every function to a [`Call`] and every name to the
//! declaration it means (a kind, tag or keyword by its index in the ruleset,
//! a field, a deck type, a value a field can hold), and gives every node a
//! [`Ty`].  Any mistake is a diagnostic with its own code at the exact name
//! or argument, and the rule is left out, so that no card or deck is ever
//! said to break a rule that does not mean anything.  Evaluation then walks
//! the typed tree with exhaustive matches: nothing is looked up by name
//! and nothing defaults.
//!
//! The tree is only as deep as brackets, calls and `not` nest in the source,
//! which the reader bounds (`E0014`, [`MAX_EXPR_DEPTH`](crate::syntax::ast::MAX_EXPR_DEPTH)
//! levels); runs of one operator are one node, walked in a loop.

pub(crate) mod compile;
pub(crate) mod defs;

pub(crate) use compile::{Compiler, Names};
pub(crate) use defs::Def;

pub(crate) use super::model::rule::*;

/// The words of a text, as rules match them: runs of letters and digits.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty())
}
