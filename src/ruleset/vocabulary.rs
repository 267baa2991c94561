//! How the ruleset language is declared: a [`Line`] says what one line
//! is and how it is read, a [`Block`] which lines may stand in one place.
//! The declaration itself is in [`super::language`].

use super::loader::Loader;
use super::model::Schema;
use crate::diagnostics::Code;
use crate::syntax::ast::Node;
use std::any::Any;

/// What a line of the language is, for the reader's messages, the editor
/// and the docs.
pub struct About {
    /// The word the line starts with.
    pub name: &'static str,
    /// The values after the name, as the reference writes them (`ID
    /// "NAME"`); empty when it takes none.
    pub values: &'static str,
    /// What the line means, in one or two sentences.
    pub doc: &'static str,
    /// The line as a designer would write it.
    pub example: &'static str,
    /// What its block holds.
    pub body: Body,
    /// How often a ruleset may give it (top-level declarations only).
    pub occurs: Occurs,
}

/// What a line's block holds.
pub enum Body {
    /// No block: the line is written on one line.
    None,
    /// Lines of the language, declared by this vocabulary.
    Lines(&'static dyn Vocabulary),
    /// Lines of data the declaration reads itself (an enum's values), as
    /// this text describes them.
    Data(&'static str),
}

/// How often a top-level declaration may be given.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Occurs {
    /// Once per id: a second of the same id in one file is an error, and
    /// one in a file that extends the ruleset replaces the base's.
    ById,
    /// Once per ruleset: a second in one file is an error, one in an
    /// extension replaces the base's.
    Once,
    /// Any number of times.
    Many,
}

/// One line of the language, with the function that reads it into `T`,
/// the part of the model its block (or the file) fills.
pub struct Line<T: 'static> {
    pub about: About,
    pub(super) read: fn(&mut Loader<'_>, &Node, &mut T),
}

/// The lines that may stand in one place: the file, or one kind of block.
pub struct Block<T: 'static> {
    /// Where these lines stand, for messages and the docs: `a kind`.
    pub place: &'static str,
    /// The language its messages name: `the ruleset language`.
    pub language: &'static str,
    /// The code of a line that is not one of these.
    pub code: &'static Code,
    pub lines: &'static [Line<T>],
    /// The lines of a shape may stand here too, filling this part of `T`.
    pub(super) schema: Option<ShapeLines<T>>,
}

/// The lines of one place, whatever part of the model they fill.
pub trait Vocabulary: Sync + Any {
    /// Where these lines stand: `a kind`.
    fn place(&self) -> &'static str;
    /// Every line that may stand here, in the order the docs list them.
    fn lines(&'static self) -> Vec<&'static About>;
    /// The block itself, for the reader to fill its part of the model.
    fn as_any(&'static self) -> &'static (dyn Any + Sync);
}

impl<T> Vocabulary for Block<T> {
    fn place(&self) -> &'static str {
        self.place
    }

    fn as_any(&'static self) -> &'static (dyn Any + Sync) {
        self
    }

    fn lines(&'static self) -> Vec<&'static About> {
        let own = self.lines.iter().map(|line| &line.about);
        let Some((shape, _)) = self.schema else { return own.collect() };
        // A shape's lines first, as a kind's block is mostly fields; a line
        // of this block's own of the same name stands in their place.
        let mut all: Vec<&'static About> = shape
            .lines
            .iter()
            .map(|line| self.lines.iter().find(|l| l.about.name == line.about.name).map_or(&line.about, |l| &l.about))
            .collect();
        let rest: Vec<&'static About> = own.filter(|about| !all.iter().any(|a| a.name == about.name)).collect();
        all.extend(rest);
        all
    }
}

impl<T> Block<T> {
    /// The line of this block named `name`, and whether it fills the shape
    /// part of `T`.
    pub(super) fn find(&'static self, name: &str) -> Option<Found<T>> {
        if let Some(line) = self.lines.iter().find(|l| l.about.name == name) {
            return Some(Found::Own(line));
        }
        let (shape, part) = self.schema?;
        shape.lines.iter().find(|l| l.about.name == name).map(|line| Found::Schema(line, part))
    }
}

/// The lines of a shape a block also holds, and the part of `T` they fill.
pub(super) type ShapeLines<T> = (&'static Block<Schema>, fn(&mut T) -> &mut Schema);

/// A line found in a block: one of its own, or a shape's line filling a part.
pub(super) enum Found<T: 'static> {
    Own(&'static Line<T>),
    Schema(&'static Line<Schema>, fn(&mut T) -> &mut Schema),
}
