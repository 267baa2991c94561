//! The engine: what a game engine does with the engine data.
//!
//! This module is a consumer of the engine data, like any engine outside
//! cardsmith: it deserialises the JSON documents that `cardsmith build` writes
//! into its own types ([`data`]) and never sees the syntax tree, the IR or the
//! ruleset model.  That the timeline works from the JSON alone is the proof
//! that the data is enough to drive an engine.
//!
//! - [`data`]: the parts of a document the engine reads;
//! - [`play`]: playing a game from the data: set-up, turns, effects, bots;
//! - [`timeline`]: the order in which a turn's effects resolve;
//! - [`text`]: the timeline printed for a person.

pub mod data;
pub mod play;
pub mod record;
pub mod semantics;
pub mod simulate;
pub mod text;
pub mod timeline;
