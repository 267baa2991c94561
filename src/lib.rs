//! cardsmith: a compiler for tabletop card games.
//!
//! Rulesets (`*.rules`) and cards (`*.cards`) are parsed ([`syntax`]), checked
//! against their game into a typed IR ([`check`], [`ir`]), and reported through
//! [`diagnostics`].  The library does no I/O of its own: the command line
//! ([`cli`]) reads files and hands their text in.

pub mod backend;
pub mod card_size;
pub mod check;
pub mod cli;
pub mod config;
pub mod diagnostics;
pub mod engine;
pub mod fmt;
pub mod ir;
pub mod lint;
pub(crate) mod parallel;
pub mod source;
pub mod spreadsheet;
pub mod syntax;
pub mod workspace;
