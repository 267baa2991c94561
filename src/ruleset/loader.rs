//! The state of reading one ruleset: what has been read, and the names
//! it uses, checked once every declaration is read.

use super::model::Type;
use crate::diagnostics::Diagnostic;
use crate::source::{Files, Span};
use std::any::Any;
use std::collections::HashMap;

/// Reads a ruleset's declarations into its model (see `read.rs`).
pub(super) struct Loader<'a> {
    pub(super) files: &'a Files,
    pub(super) diagnostics: &'a mut Vec<Diagnostic>,
    /// Type names used by fields and parameters, checked once all enums are known.
    pub(super) type_refs: Vec<(String, Span)>,
    /// Special values accepted by a type (`int or "*"`), checked once every
    /// `special` line is read.
    pub(super) special_refs: Vec<(String, Type, Span)>,
    /// Kinds and roles named by declarations (`only`, `roles`), checked
    /// once all are declared, each at the name that was written.
    pub(super) name_refs: Vec<NameRef>,
    /// Each deck type's `based-on` line, checked once every type is read.
    pub(super) based_on_lines: Vec<(String, Span)>,
    /// Names used by the timing declarations, checked once all are declared.
    pub(super) timing: super::timing::Pending,
    /// The declarations read so far (what, id, where), so that one
    /// declared twice in a file is reported.
    pub(super) seen: Vec<(String, String, Span)>,
    /// The values the line being read takes, as the language writes them,
    /// for its messages.
    pub(super) line_values: &'static str,
    /// The block the line being read opens, as the language declares it
    /// (a `Block` of the part of the model it fills).
    pub(super) line_block: Option<&'static (dyn Any + Sync)>,
    /// The definitions (`def`) rules may call, the base's first; one an
    /// extension replaces is left as `None` where it was.
    pub(super) defs: Vec<Option<super::rules::Def>>,
    /// Where each definition is among `defs`, by name.
    pub(super) def_index: HashMap<String, usize>,
    /// Whether a `play` block is written, even one with a mistake.
    pub(super) play_written: bool,
}

/// A kind or role a declaration names: what names it, and where.
pub(super) struct NameRef {
    pub(super) wanted: Wanted,
    pub(super) owner: String,
    pub(super) name: String,
    pub(super) span: Span,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Wanted {
    Kind,
    Role,
    Tag,
    DeckType,
    SetAside,
    Side,
}
