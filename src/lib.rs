//! cardsmith: a compiler for tabletop card games.
//!
//! Rulesets (`*.rules`) and cards (`*.cards`) are parsed ([`syntax`]), checked
//! against their game into a typed IR ([`check`], [`ir`]), and reported through
//! [`diagnostics`].  The library does no I/O of its own and knows nothing of
//! terminals or processes: the `cardsmith` binary (`src/main.rs` and
//! `src/cli/`) parses the command line, reads files and hands their text in,
//! decides how diagnostics are shown, and sets the exit status.

#![warn(clippy::too_many_lines)]

pub mod backend;
pub mod budget;
pub mod bundled;
pub mod cache;
pub mod card_size;
pub mod check;
pub mod codes;
pub mod config;
pub mod diagnostics;
pub mod engine;
pub mod fmt;
pub mod geometry;
pub mod ide;
pub mod ir;
pub mod lint;
pub mod markup;
pub mod parallel;
pub mod ruleset;
pub mod source;
pub mod spreadsheet;
pub mod syntax;
pub mod workspace;
