//! Lowers the lossless tree ([`super::cst`]) to the typed syntax tree
//! ([`super::ast`]) and reports the tree's errors.
//!
//! An error node inside a card is reported and left out; the card keeps its
//! other lines.  Only an item whose head did not parse is lost as a whole,
//! and the names it gives itself go to [`SourceTree::unparsed_names`], so
//! that decks and card texts that name it raise no follow-on error.

use super::ast::*;
use super::codes;
use super::cst::{Cst, Element, Kind, Limit, LiteralForm as Form};
use super::expr::Place;
use super::parser::{expected, found_at, number_too_large, strict_error};
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Span};
use std::sync::Arc;

/// The typed tree of `cst`, built from `text` of `file`.
pub(super) fn lower(cst: &Cst, text: &str, file: FileId, diagnostics: &mut Vec<Diagnostic>) -> SourceTree {
    let mut lowerer = Lowerer { text, file, diagnostics, lost: false, missing_reported: false, head_broken: false };
    let mut tree = SourceTree::default();
    for item in cst.root().children() {
        lowerer.lost = false;
        lowerer.missing_reported = false;
        lowerer.head_broken = false;
        match item.kind() {
            Kind::Node | Kind::Rule => {
                let node = lowerer.node(item);
                // An item whose head does not read is left out whole: what
                // it is cannot be trusted.
                if lowerer.head_broken {
                    tree.unparsed_names.extend(item_names(head_text(item, text)));
                    tree.lost_nodes.extend(node);
                    continue;
                }
                match node {
                    Some(node) if !lowerer.lost => tree.nodes.push(node),
                    // A rule whose expression does not read is left out alone.
                    None if !lowerer.lost => {}
                    _ => tree.unparsed_names.extend(item_names(item.text(text))),
                }
            }
            Kind::MissingOpen => match lowerer.missing_open(item) {
                Some(node) if !lowerer.head_broken && !lowerer.lost => tree.nodes.push(node),
                node => {
                    tree.unparsed_names.extend(item_names(head_text(item, text)));
                    tree.lost_nodes.extend(node);
                }
            },
            kind if is_error(kind) => {
                lowerer.error(item);
                tree.unparsed_names.extend(item_names(head_text(item, text)));
            }
            _ => {}
        }
    }
    tree.comments =
        cst.tokens().filter(|token| token.kind() == Kind::Comment).map(|token| lowerer.span(token.range())).collect();
    tree.nodes.shrink_to_fit();
    tree
}

/// A line as a message quotes it: at most 60 characters.
fn shown_head(line: &str) -> String {
    match line.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

fn is_value(kind: Kind) -> bool {
    matches!(kind, Kind::String | Kind::Literal(_) | Kind::Call)
}

fn is_error(kind: Kind) -> bool {
    matches!(kind, Kind::Error | Kind::TooDeep | Kind::TooComplex(_))
}

struct Lowerer<'a> {
    text: &'a str,
    file: FileId,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// Whether a value in the current item nested calls too deeply: the item
    /// is then left out, as one whose head does not parse is.
    lost: bool,
    /// Whether the current item already reported a missing `}`: the blocks
    /// around an unclosed one are missing theirs for the same reason.
    missing_reported: bool,
    /// Whether the head of the node last lowered holds an error.
    head_broken: bool,
}

impl Lowerer<'_> {
    fn span(&self, range: std::ops::Range<usize>) -> Span {
        Span::new(self.file, range.start, range.end)
    }

    fn node(&mut self, element: Element<'_>) -> Option<Node> {
        let span = self.span(element.range());
        // Sized exactly: a tree of 100,000 cards holds millions of these.
        let values = Vec::with_capacity(element.children().filter(|c| is_value(c.kind())).count());
        let mut node = Node { name: Name { text: String::new(), span }, values, block: None, expr: None, span };
        let (mut broken, mut head_broken) = (false, false);
        for child in element.children() {
            match child.kind() {
                Kind::Name | Kind::Keyword => node.name = self.name(child),
                Kind::Block => node.block = Some(self.block(child)),
                Kind::Expr => {
                    let expr = self.expr(child)?;
                    // The grammar's `expr` runs on to the end of the line;
                    // the node ends with the expression's last token.
                    node.span.end = expr.span().end;
                    node.expr = Some(Arc::new(expr));
                }
                // `3"/6"` is two values, `3" 6"`.
                Kind::Literal(Form::Distances) => node.values.extend(self.distances(child)),
                Kind::String | Kind::Literal(_) | Kind::Call => node.values.push(self.value(child, 0)),
                Kind::Error if node.block.is_none() => (broken, head_broken) = (true, true),
                Kind::Error => broken = true,
                _ => {}
            }
        }
        if broken {
            self.broken_node(element);
        }
        if head_broken {
            // Which values were meant cannot be told, so the node keeps its
            // name and one value the checker accepts without a word, over
            // all it had: the mistake is reported here, once.
            let values = element
                .children()
                .filter(|c| matches!(c.kind(), Kind::String | Kind::Literal(_) | Kind::Call | Kind::Error));
            let span = values.map(|v| self.span(v.range())).reduce(|a, b| a.to(b).unwrap_or(a));
            node.values = span.map(|span| Value { kind: ValueKind::Invalid, span }).into_iter().collect();
        }
        self.head_broken = head_broken;
        Some(node)
    }

    /// Reports the mistakes of a node whose name read: each unterminated
    /// string, or else what the grammar expected where the line went wrong.
    fn broken_node(&mut self, element: Element<'_>) {
        let mut errors = element.children().filter(|c| c.kind() == Kind::Error).peekable();
        let Some(first) = errors.peek().copied() else { return };
        let mut strings = errors.flat_map(|e| e.children()).filter(|c| c.kind() == Kind::Unterminated).peekable();
        if strings.peek().is_some() {
            for string in strings {
                let at = string.range().start;
                let diagnostic = match signed_distance(self.text, at) {
                    Some(sign) => negative_distance(self.span(sign..at + 1), self.text[sign..].starts_with('-')),
                    None => unterminated(self.span(string.range())),
                };
                self.diagnostics.push(diagnostic);
            }
            return;
        }
        let start = element.range().start;
        let head = head_text(element, self.text).trim_end();
        let fallback = || {
            let what = if first.range().start >= head.len() + start { "the end of the line" } else { "a value" };
            (first.range().start - start, what.to_string())
        };
        let (at, what) = strict_error(head).unwrap_or_else(fallback);
        let (found, length) = found_at(self.text, start + at);
        let diagnostic = match signed_distance(self.text, start + at) {
            Some(sign) => negative_distance(self.span(sign..start + at + length), self.text[sign..].starts_with('-')),
            None => expected(self.span(start + at..start + at + length), &what, &found),
        };
        // A rulebook's `[3]` after a name is a value in round brackets here.
        let bracketed = self.text[start + at..].split(['\n', '\r']).next().unwrap_or("");
        let diagnostic = match bracketed.strip_prefix('[').and_then(|rest| rest.split_once(']')) {
            Some((inside, _)) if !inside.is_empty() && inside.bytes().all(|b| b.is_ascii_digit()) => {
                let line = self.text[..start + at].rsplit(['\n', '\r']).next().unwrap_or("");
                match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                    // `keywords Indestructible [3]`: the name is the word before.
                    [_, .., name] => diagnostic
                        .help(format!("a value in square brackets is written in round ones: `{name} ({inside})`")),
                    _ => diagnostic,
                }
            }
            _ => diagnostic,
        };
        self.diagnostics.push(diagnostic);
    }

    fn name(&self, element: Element<'_>) -> Name {
        Name { text: element.text(self.text).to_string(), span: self.span(element.range()) }
    }

    fn block(&mut self, element: Element<'_>) -> Block {
        let span = self.span(element.range());
        let mut nodes =
            Vec::with_capacity(element.children().filter(|c| matches!(c.kind(), Kind::Node | Kind::Rule)).count());
        let reported = self.diagnostics.len();
        for child in element.children() {
            match child.kind() {
                Kind::Node | Kind::Rule => nodes.extend(self.node(child)),
                Kind::MissingBrace => self.missing_brace(element.range().start, child.range().start),
                kind if is_error(kind) => self.error(child),
                _ => {}
            }
        }
        Block { nodes, span, broken: self.diagnostics.len() > reported }
    }

    /// Reads a rule's expression (see [`super::expr`]).
    fn expr(&mut self, element: Element<'_>) -> Option<Expr> {
        let range = element.range();
        let place = Place { file: self.file, offset: 0, text: self.text, start: range.start, end: range.end };
        super::expr::read(&place, self.diagnostics)
    }

    /// Each distance of `3"/6"`, as a value of its own at its own place.
    fn distances(&mut self, element: Element<'_>) -> Vec<Value> {
        let start = element.range().start;
        let mut at = start;
        let mut values = Vec::new();
        for part in element.text(self.text).split('/') {
            let range = at..at + part.len();
            let kind = self.form(Form::Distance, part, self.span(range.clone()));
            values.push(Value { kind, span: self.span(range) });
            at += part.len() + 1;
        }
        values
    }

    /// A value, `depth` calls deep.
    fn value(&mut self, element: Element<'_>, depth: usize) -> Value {
        let span = self.span(element.range());
        let text = element.text(self.text);
        let kind = match element.kind() {
            Kind::String => ValueKind::String(unescape(text)),
            Kind::Call => self.call(element, depth + 1),
            Kind::Literal(form) => self.form(form, text, span),
            _ => ValueKind::Word(text.to_string()),
        };
        Value { kind, span }
    }

    /// A call (`name(a, b)`), the `depth`-th around its arguments.  Deeper
    /// than the limit, it is reported and read no further.
    fn call(&mut self, element: Element<'_>, depth: usize) -> ValueKind {
        let mut children = element.children();
        let name = match children.next() {
            Some(first) if first.kind() == Kind::Name => self.name(first),
            _ => Name { text: String::new(), span: self.span(element.range()) },
        };
        if depth > MAX_EXPR_DEPTH {
            self.diagnostics.push(super::expr::too_deep(name.span, "call"));
            self.lost = true;
            return ValueKind::Call { name, args: Vec::new() };
        }
        let args = children.filter(|c| is_value(c.kind())).map(|arg| self.value(arg, depth)).collect();
        ValueKind::Call { name, args }
    }

    /// The value of a literal of a known form.
    /// A number too large makes the whole value [`ValueKind::Invalid`].
    fn form(&mut self, form: Form, text: &str, span: Span) -> ValueKind {
        let mut too_large = false;
        let mut number = |digits: &str| -> i64 {
            digits.parse::<i64>().unwrap_or_else(|_| {
                too_large = true;
                0
            })
        };
        let kind = form_value(form, text, &mut number);
        if too_large {
            self.diagnostics.push(number_too_large(span));
            return ValueKind::Invalid;
        }
        kind
    }

    /// A top-level line whose block lost its `{`: reported once, at the end
    /// of the line, and read with the indented lines after it as its block,
    /// so that nothing in them is reported for the missing brace.
    fn missing_open(&mut self, element: Element<'_>) -> Option<Node> {
        let mut items =
            element.children().filter(|c| matches!(c.kind(), Kind::Node | Kind::Rule) || is_error(c.kind()));
        let head = items.next().filter(|c| matches!(c.kind(), Kind::Node | Kind::Rule))?;
        let mut node = self.node(head)?;
        let head_broken = self.head_broken;
        let written = self.text[head.range()].trim_end();
        let head_end = head.range().start + written.len();
        let close = element.range().end - 1;
        // A name never closed swallowed the `{`: its own error says it all.
        if !head.descendants().any(|e| e.kind() == Kind::Unterminated) {
            self.diagnostics.push(
                Diagnostic::error(
                    &codes::MISSING_OPEN,
                    format!("`{}` is missing the `{{` of its block", shown_head(written)),
                )
                .primary(self.span(head_end..head_end), "`{` expected here")
                .secondary(self.span(close..close + 1), "the block this `}` closes starts after this line")
                .help("add `{` at the end of the line"),
            );
        }
        let mut nodes = Vec::new();
        for item in items {
            match item.kind() {
                Kind::Node | Kind::Rule => nodes.extend(self.node(item)),
                // The `}` that closes the block.
                _ if item.range().start == close => {}
                _ => self.error(item),
            }
        }
        self.head_broken = head_broken;
        node.block = Some(Block { nodes, span: self.span(head_end..element.range().end), broken: true });
        node.span = self.span(element.range());
        Some(node)
    }

    /// Reports an error node, and the errors inside the block it may open.
    fn error(&mut self, element: Element<'_>) {
        let range = element.range();
        match element.kind() {
            Kind::TooDeep => self.too_deep(element),
            Kind::TooComplex(limit) => self.too_complex(range, limit),
            _ if self.text[range.clone()].starts_with('}') => self.diagnostics.push(
                Diagnostic::error(&codes::UNEXPECTED_CLOSE, "unexpected `}`")
                    .primary(self.span(range.start..range.start + 1), "nothing is open here")
                    .help("remove this `}`, or add the `{` it was meant to close"),
            ),
            _ => self.bad_line(element),
        }
    }

    /// A line that is not a node: an unterminated string in it, or what the
    /// grammar expected where it went wrong.
    fn bad_line(&mut self, element: Element<'_>) {
        for child in element.children() {
            match child.kind() {
                Kind::Unterminated => {
                    self.diagnostics.push(unterminated(self.span(child.range())));
                    return self.errors_inside(element);
                }
                Kind::Block => break,
                _ => {}
            }
        }
        let start = element.range().start;
        let head = head_text(element, self.text).trim_end();
        let (at, what) = strict_error(head).unwrap_or((0, "a name".to_string()));
        let (found, length) = found_at(self.text, start + at);
        self.diagnostics.push(expected(self.span(start + at..start + at + length), &what, &found));
        self.errors_inside(element);
    }

    /// The errors inside the block of an error node: its lines are read,
    /// though what they belong to is not known.
    fn errors_inside(&mut self, element: Element<'_>) {
        for child in element.children().filter(|c| c.kind() == Kind::Block) {
            self.block(child);
        }
    }

    fn missing_brace(&mut self, open: usize, due: usize) {
        if std::mem::replace(&mut self.missing_reported, true) {
            return;
        }
        let trimmed_end = self.text[..due].trim_end().len().max(open + 1);
        self.diagnostics.push(
            Diagnostic::error(&codes::UNCLOSED_BRACE, "unclosed `{`")
                .primary(self.span(open..open + 1), "this `{` is never closed")
                .secondary(self.span(trimmed_end..trimmed_end), "expected a closing `}` by here")
                .help("add `}` at the end of the block; lines inside a block are indented, and a line starting in the first column begins a new item"),
        );
    }

    fn too_deep(&mut self, element: Element<'_>) {
        let Some(brace) = element.children().find(|c| c.kind() == Kind::DeepBrace) else { return };
        let written = &self.text[brace.range()];
        let (what, max) = match written {
            "{" => ("blocks", super::guard::MAX_DEPTH),
            _ => ("brackets", super::guard::MAX_BRACKET_DEPTH),
        };
        self.diagnostics.push(
            Diagnostic::error(&codes::TOO_DEEP, format!("{what} nested more than {max} deep"))
                .primary(self.span(brace.range()), format!("this `{written}` is too deep"))
                .help(format!("no game needs this much nesting; check for a run of stray `{written}`")),
        );
    }

    fn too_complex(&mut self, range: std::ops::Range<usize>, limit: Limit) {
        // The item's first line, not the whole item: a label over many lines
        // would print every one of them.
        let line = self.text[range.clone()].lines().next().unwrap_or("").trim_end();
        let why = match limit {
            Limit::Stack => "its brackets nest too deeply for the parser",
            Limit::Calls => "it took the parser too many steps",
            Limit::Other => "the parser refused it",
        };
        self.diagnostics.push(
            Diagnostic::error(&codes::PARSER_LIMIT, "this item is too complex to parse")
                .primary(self.span(range.start..range.start + line.len()), "parsing stopped inside this item")
                .note(why.to_string())
                .help("split the item, or nest brackets less deeply"),
        );
    }
}

/// `E0002`: a string with no closing quote on its line.
fn unterminated(span: Span) -> Diagnostic {
    Diagnostic::error(&codes::UNTERMINATED_STRING, "unterminated string")
        .primary(span, "this string has no closing `\"`")
        .help("close the string with `\"` on the same line; write `\\\"` for a quote inside it")
}

/// The text of an error node before the block it opens, if any.
fn head_text<'s>(element: Element<'_>, text: &'s str) -> &'s str {
    let range = element.range();
    let end = element.children().find(|c| c.kind() == Kind::Block).map_or(range.end, |b| b.range().start);
    &text[range.start..end]
}

/// The value of a literal of form `form`; `number` reads digits.
fn form_value(form: Form, text: &str, number: &mut impl FnMut(&str) -> i64) -> ValueKind {
    match form {
        Form::Integer => ValueKind::Int(number(text)),
        Form::Signed => ValueKind::Signed(number(text.trim_start_matches('+'))),
        Form::PlusAfter => ValueKind::PlusAfter(number(&text[..text.len() - 1])),
        Form::Copies => ValueKind::Copies(number(&text[1..])),
        Form::Decimal => ValueKind::Decimal(decimal(text, number)),
        // `6"`, or `6”` as a rulebook prints it.
        Form::Distance => ValueKind::Distance(decimal(text.trim_end_matches(['"', '”']), number)),
        Form::SavePair => {
            let (a, b) = text.split_once('/').unwrap_or((text, text));
            ValueKind::SavePair(number(a.trim_end_matches('+')), number(b.trim_end_matches('+')))
        }
        Form::Dice => {
            let (count, rest) = text.split_once('D').unwrap_or(("", text));
            let count = if count.is_empty() { 1 } else { number(count) };
            let (sides, modifier) = match rest.find(['+', '-']) {
                Some(at) => (number(&rest[..at]), number(&rest[at..])),
                None => (number(rest), 0),
            };
            ValueKind::Dice { count, sides, modifier }
        }
        Form::Coord => {
            let (q, r) = text.split_once(',').unwrap_or((text, "0"));
            ValueKind::Coord(number(q.trim_start_matches('+')), number(r.trim_start_matches('+')))
        }
        Form::Range => {
            let (low, high) = match text.split_once("..") {
                Some(parts) => parts,
                None => text.split_once('-').unwrap_or((text, "")),
            };
            let high = if high.is_empty() { None } else { Some(number(high)) };
            ValueKind::Range { low: number(low), high }
        }
        Form::BandRange => {
            let (from, to) = text.split_once("..").unwrap_or((text, ""));
            let to = if to.is_empty() { None } else { Some(to.to_string()) };
            ValueKind::BandRange { from: from.to_string(), to }
        }
        // `F/S(R)`; as printed, `F/S (Right)` and `Fighters & Bombers`:
        // each item without its spaces.
        Form::SlashList => ValueKind::SlashList(
            text.split(['/', '&']).map(|item| item.chars().filter(|c| !matches!(c, ' ' | '\t')).collect()).collect(),
        ),
        Form::Star => ValueKind::Star,
        // `[Ac]` is the name `Ac`, as printed.
        Form::Bracketed => ValueKind::Ident(text.trim_start_matches('[').trim_end_matches(']').to_string()),
        Form::Ident => ValueKind::Ident(text.to_string()),
        // Only a node's own values split; elsewhere (a call's argument) the
        // distances are one word, which no field takes.
        Form::Word | Form::Distances => ValueKind::Word(text.to_string()),
    }
}

/// A distance written with a sign (`-2"`), from the sign to the inch mark.
fn negative_distance(span: Span, negative: bool) -> Diagnostic {
    let message = if negative { "a distance is never negative" } else { "a distance takes no sign" };
    Diagnostic::error(&codes::SYNTAX_ERROR, message)
        .primary(span, "a distance with a sign")
        .help("write it without a sign, as `6\"`")
}

/// Where the sign is, when an inch mark at `at` follows a signed number
/// (`-2"`), which no distance is.
fn signed_distance(text: &str, at: usize) -> Option<usize> {
    if !text.is_char_boundary(at) {
        return None;
    }
    let (before, after) = text.split_at(at);
    let number = before.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    // The sign is one byte; before it, nothing of a value (`3-6"` is a range).
    let before_sign = number.strip_suffix(['-', '+'])?;
    let sign_alone = before_sign.is_empty() || before_sign.ends_with(char::is_whitespace);
    let signed = (after.starts_with('"') || after.starts_with('”')) && number.len() < before.len() && sign_alone;
    signed.then_some(before_sign.len())
}

fn decimal(text: &str, number: &mut impl FnMut(&str) -> i64) -> Decimal {
    match text.split_once('.') {
        Some((whole, fraction)) => {
            let scale = fraction.len().min(18) as u8;
            let digits = format!("{whole}{}", &fraction[..scale as usize]);
            Decimal { units: number(&digits), scale }
        }
        None => Decimal { units: number(text), scale: 0 },
    }
}

fn unescape(quoted: &str) -> String {
    let inner = &quoted[1..quoted.len().saturating_sub(1).max(1)];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                // `\{`, `\}` and `\*` stay escaped: card text gives them meaning.
                Some(e @ ('{' | '}' | '*')) => {
                    out.push('\\');
                    out.push(e);
                }
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The names items in `text` give themselves: the string after the first
/// word of a line (`offense "Kinetic Strike" {`), unescaped.  Read from text
/// that did not parse, so it guesses generously: a name too many only keeps
/// a follow-on error quiet.  Copy counts (`x2 "Name"`) name no item.
pub(super) fn item_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let word_end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(line.len());
        let word = &line[..word_end];
        let copies = word.len() > 1 && word.starts_with('x') && word[1..].bytes().all(|b| b.is_ascii_digit());
        if word.is_empty() || !word.starts_with(|c: char| c.is_ascii_alphabetic()) || copies {
            continue;
        }
        let Some(rest) = line[word_end..].trim_start().strip_prefix('"') else { continue };
        let mut name = String::new();
        let mut chars = rest.chars();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '"' => {
                    closed = true;
                    break;
                }
                '\\' => name.extend(chars.next()),
                c => name.push(c),
            }
        }
        if !closed {
            // A name whose quote is never closed runs to the end of the
            // line, over the tags and `{` after it: where it was meant to
            // end is not known, so each run of its first words is a name.
            let words: Vec<&str> = name.split_whitespace().collect();
            names.extend((1..words.len()).map(|n| words[..n].join(" ")));
            name = words.join(" ");
        }
        names.push(name);
    }
    names
}
