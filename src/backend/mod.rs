//! Backends: what a checked project compiles to.  A backend consumes the IR
//! (and the files table, for source positions) and returns bytes in memory;
//! it never re-validates and never touches the file system — the command line
//! writes what it returns.
//!
//! - [`document`]: the types of an engine data document and its format
//!   version;
//! - [`json`]: the engine data, one JSON document per ruleset;
//! - [`schema`]: the JSON Schema of those documents, generated from the same
//!   types that are serialised;
//! - [`print`]: printable proxies — SVG faces from templates, PNG, PDF
//!   sheets, an HTML preview and Tabletop Simulator decks.

pub mod document;
pub mod json;
pub mod print;
pub mod schema;

/// A file a backend produced: a plain file name (no folders) and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    pub name: String,
    pub contents: String,
}
