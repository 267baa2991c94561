//! The lossless concrete syntax tree: every byte of a file in exactly one
//! token, errors included.
//!
//! The tree is built from the grammar's pairs (see [`super::parser`]); the
//! bytes between pairs — spaces, line ends, `;`, braces, brackets, commas —
//! become trivia tokens, so [`Cst::text`] gives the file back byte for byte.
//! A line that does not parse is an [`Kind::Error`] node holding its text, so
//! the rest of its card and of the file are read as usual.  [`super::lower`]
//! turns the tree into the typed [`super::ast::SourceTree`] that the checker,
//! lints and the formatter read.
//!
//! The tree is stored flat, in source order (each entry before its children),
//! with `u32` offsets and no text of its own: a tree of 100,000 cards is a few
//! million entries of 16 bytes.

pub use super::literal::Form as LiteralForm;

/// What an entry of the tree is: a node (which has children) or a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The whole file.
    File,
    /// `name value* { block }`.
    Node,
    /// `require "message" expression` and its kin.
    Rule,
    /// `{ … }`, the braces included.
    Block,
    /// `name(a, b)`.
    Call,
    /// A line, or the rest of a line, that is not a node; a stray `}`.
    Error,
    /// A region refused before parsing because its blocks nest too deeply.
    TooDeep,
    /// An item the parser gave up on (see `E0007`).
    TooComplex(Limit),
    /// A top-level line, the indented lines after it and a `}` alone on a
    /// line: a block whose `{` is missing.
    MissingOpen,

    /// A node's name, or a call's.
    Name,
    /// `require`, `recommend`, `play-limit`, `compute`.
    Keyword,
    /// `"text"`, quotes included.
    String,
    /// A literal value, by form.
    Literal(LiteralForm),
    /// A rule's expression: the rest of its line.
    Expr,
    Comment,
    /// A run of spaces and tabs.
    Whitespace,
    /// `\n`, `\r\n` or `\r`.
    Newline,
    Semicolon,
    OpenBrace,
    CloseBrace,
    OpenParen,
    CloseParen,
    Comma,
    /// Text inside an error node.
    ErrorText,
    /// A string with no closing quote, to the end of its line.
    Unterminated,
    /// The `{` that goes deeper than blocks may nest.
    DeepBrace,
    /// Where a missing `}` was due: takes no bytes.
    MissingBrace,
}

/// Why the parser gave up on an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Its brackets nest too deeply for the parser's stack.
    Stack,
    /// It took the parser too many steps.
    Calls,
    /// Any other refusal of the parser.
    Other,
}

impl Kind {
    /// Whether entries of this kind have children.
    pub fn is_node(self) -> bool {
        matches!(self, Kind::File | Kind::Node | Kind::Rule | Kind::Block | Kind::Call | Kind::Error | Kind::TooDeep)
            || matches!(self, Kind::TooComplex(_) | Kind::MissingOpen)
    }

    /// Whether a token of this kind only separates (space, line ends, comments
    /// and punctuation).
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            Kind::Comment
                | Kind::Whitespace
                | Kind::Newline
                | Kind::Semicolon
                | Kind::OpenBrace
                | Kind::CloseBrace
                | Kind::OpenParen
                | Kind::CloseParen
                | Kind::Comma
                | Kind::MissingBrace
        )
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    kind: Kind,
    start: u32,
    end: u32,
    /// One past the index of this entry's last descendant.
    subtree_end: u32,
}

/// A lossless syntax tree of one file.
#[derive(Clone, Debug, Default)]
pub struct Cst {
    entries: Vec<Entry>,
}

/// One entry of a [`Cst`], to walk it.
#[derive(Clone, Copy, Debug)]
pub struct Element<'t> {
    tree: &'t Cst,
    index: u32,
}

impl Cst {
    /// The file node; every other entry is under it.
    pub fn root(&self) -> Element<'_> {
        Element { tree: self, index: 0 }
    }

    /// Every token (leaf), in source order.
    pub fn tokens(&self) -> impl Iterator<Item = Element<'_>> + '_ {
        (0..self.entries.len() as u32)
            .map(|index| Element { tree: self, index })
            .filter(|element| !element.kind().is_node())
    }

    /// The file's text, rebuilt from the tokens: the same bytes as `source`
    /// whenever the tree was built from it.
    pub fn text(&self, source: &str) -> String {
        let mut out = String::with_capacity(source.len());
        for token in self.tokens() {
            out.push_str(token.text(source));
        }
        out
    }

    /// How many entries the tree holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<'t> Element<'t> {
    fn entry(&self) -> &'t Entry {
        &self.tree.entries[self.index as usize]
    }

    pub fn kind(&self) -> Kind {
        self.entry().kind
    }

    /// The byte range in the file.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.entry().start as usize..self.entry().end as usize
    }

    pub fn text<'s>(&self, source: &'s str) -> &'s str {
        source.get(self.range()).unwrap_or("")
    }

    /// The direct children, in source order.
    pub fn children(&self) -> Children<'t> {
        Children { tree: self.tree, next: self.index + 1, end: self.entry().subtree_end }
    }

    /// Every entry under this one, in source order.
    pub fn descendants(&self) -> impl Iterator<Item = Element<'t>> + 't {
        let tree = self.tree;
        (self.index + 1..self.entry().subtree_end).map(move |index| Element { tree, index })
    }
}

/// The children of an [`Element`].
pub struct Children<'t> {
    tree: &'t Cst,
    next: u32,
    end: u32,
}

impl<'t> Iterator for Children<'t> {
    type Item = Element<'t>;

    fn next(&mut self) -> Option<Element<'t>> {
        if self.next >= self.end {
            return None;
        }
        let element = Element { tree: self.tree, index: self.next };
        self.next = self.tree.entries[self.next as usize].subtree_end;
        Some(element)
    }
}

/// Builds a [`Cst`] in source order: nodes are opened and closed around their
/// children, and whatever bytes lie between the tokens pushed become trivia.
pub(super) struct Builder<'s> {
    source: &'s str,
    entries: Vec<Entry>,
    /// The nodes open, innermost last.
    open: Vec<u32>,
    /// Where the bytes already in the tree end.
    cursor: usize,
}

impl<'s> Builder<'s> {
    pub fn new(source: &'s str) -> Self {
        // About one entry for every four bytes of a card file: reserved at
        // once rather than grown by copying.
        let entries = Vec::with_capacity(source.len() / 4 + 1);
        let mut builder = Builder { source, entries, open: Vec::new(), cursor: 0 };
        builder.open(Kind::File, 0);
        builder
    }

    /// The text the tree is built from.
    pub fn source(&self) -> &'s str {
        self.source
    }

    pub fn open(&mut self, kind: Kind, at: usize) {
        self.trivia_to(at);
        self.open.push(self.entries.len() as u32);
        self.entries.push(Entry { kind, start: at as u32, end: at as u32, subtree_end: 0 });
    }

    pub fn close(&mut self, at: usize) {
        self.trivia_to(at);
        if let Some(index) = self.open.pop() {
            let subtree_end = self.entries.len() as u32;
            let entry = &mut self.entries[index as usize];
            entry.end = at.max(entry.start as usize) as u32;
            entry.subtree_end = subtree_end;
        }
    }

    pub fn token(&mut self, kind: Kind, start: usize, end: usize) {
        self.trivia_to(start);
        let index = self.entries.len() as u32;
        self.entries.push(Entry { kind, start: start as u32, end: end as u32, subtree_end: index + 1 });
        self.cursor = self.cursor.max(end);
    }

    /// The bytes from the cursor to `to` as one token of error text: a
    /// refused region is kept whole, however many brackets it holds.
    pub fn error_text_to(&mut self, to: usize) {
        if self.cursor < to {
            self.token(Kind::ErrorText, self.cursor, to);
        }
    }

    /// The bytes from the cursor to `to`, as trivia tokens.  Anything that is
    /// neither space nor punctuation (the text of an error) is error text.
    pub fn trivia_to(&mut self, to: usize) {
        let bytes = self.source.as_bytes();
        while self.cursor < to {
            let start = self.cursor;
            let (kind, end) = match bytes[start] {
                b' ' | b'\t' => (Kind::Whitespace, run(bytes, start, to, |b| b == b' ' || b == b'\t')),
                b'\r' if bytes.get(start + 1) == Some(&b'\n') && start + 2 <= to => (Kind::Newline, start + 2),
                b'\n' | b'\r' => (Kind::Newline, start + 1),
                b';' => (Kind::Semicolon, start + 1),
                b'{' => (Kind::OpenBrace, start + 1),
                b'}' => (Kind::CloseBrace, start + 1),
                b'(' => (Kind::OpenParen, start + 1),
                b')' => (Kind::CloseParen, start + 1),
                b',' => (Kind::Comma, start + 1),
                _ => (Kind::ErrorText, run(bytes, start, to, |b| !b" \t\r\n;{}(),".contains(&b))),
            };
            let index = self.entries.len() as u32;
            self.entries.push(Entry { kind, start: start as u32, end: end as u32, subtree_end: index + 1 });
            self.cursor = end;
        }
    }

    /// The tree, with every node still open closed at the end of the file.
    pub fn finish(mut self) -> Cst {
        let end = self.source.len();
        while !self.open.is_empty() {
            self.close(end);
        }
        Cst { entries: self.entries }
    }
}

/// The end of the run of bytes from `start` (before `to`) that `keep` accepts.
fn run(bytes: &[u8], start: usize, to: usize, keep: impl Fn(u8) -> bool) -> usize {
    let mut end = start + 1;
    while end < to && keep(bytes[end]) {
        end += 1;
    }
    end
}
