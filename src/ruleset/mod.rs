//! The ruleset language: what a `.rules` file can declare, read into the
//! [`model::Ruleset`] that every later stage consults.
//!
//! It sits below the checker and the IR: reading a ruleset needs only the
//! syntax tree, and names nothing of the content it will check.  The
//! checker ([`crate::check`]) applies a ruleset to cards and decks.

pub mod codes;
pub mod language;
pub mod model;
pub(crate) mod names;
mod read;
pub(crate) mod rules;
pub mod setup;
pub mod special;
mod timing;

pub use read::{extends, load};
