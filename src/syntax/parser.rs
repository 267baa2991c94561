//! Turns pest's pairs into the syntax tree.  This is the only module that
//! sees pest types; it has one function per grammar rule and reports spanned
//! diagnostics instead of panicking.

use super::ast::*;
use super::codes;
use super::expr::Place;
use super::literal::{self, Form};
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Span};
use pest::iterators::Pair;
use pest::Parser as _;
use std::sync::Arc;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/cardsmith.pest"]
pub(super) struct Grammar;

/// Enough for any real item; pathological input stops here instead of hanging.
const CALL_LIMIT: usize = 5_000_000;

/// Builds the tree of one chunk of a file; `offset` is where the chunk starts.
pub(super) struct ChunkParser<'a> {
    file: FileId,
    offset: usize,
    comments: &'a mut Vec<Span>,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// Whether a value nested calls too deeply: the item is then left out,
    /// as one that does not parse is.
    lost: bool,
}

impl<'a> ChunkParser<'a> {
    pub fn new(file: FileId, offset: usize, comments: &'a mut Vec<Span>, diagnostics: &'a mut Vec<Diagnostic>) -> Self {
        ChunkParser { file, offset, comments, diagnostics, lost: false }
    }

    pub fn parse(&mut self, text: &str, nodes: &mut Vec<Node>) {
        pest::set_call_limit(std::num::NonZeroUsize::new(CALL_LIMIT));
        match Grammar::parse(Rule::item_list, text) {
            Ok(mut pairs) => {
                let (nodes_before, comments_before) = (nodes.len(), self.comments.len());
                if let Some(list) = pairs.next() {
                    for pair in self.inner(list) {
                        if pair.as_rule() == Rule::node {
                            nodes.extend(self.node(pair));
                        }
                    }
                }
                if self.lost {
                    nodes.truncate(nodes_before);
                    self.comments.truncate(comments_before);
                }
            }
            Err(error) => {
                let diagnostic = self.syntax_error(text, error);
                self.diagnostics.push(diagnostic);
            }
        }
    }

    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, self.offset + s.start(), self.offset + s.end())
    }

    /// The children of a pair, with comments taken aside.
    fn inner<'i>(&mut self, pair: Pair<'i, Rule>) -> Vec<Pair<'i, Rule>> {
        let mut children = Vec::new();
        for child in pair.into_inner() {
            if child.as_rule() == Rule::comment {
                let span = self.span(&child);
                self.comments.push(span);
            } else {
                children.push(child);
            }
        }
        children
    }

    /// A node; none for a rule whose expression does not read.
    fn node(&mut self, pair: Pair<'_, Rule>) -> Option<Node> {
        let span = self.span(&pair);
        let children = self.inner(pair);
        match children.into_iter().next() {
            Some(child) if child.as_rule() == Rule::constraint => self.constraint(child),
            Some(child) => Some(self.plain_node(child)),
            None => Some(unreachable_node(span)),
        }
    }

    fn plain_node(&mut self, pair: Pair<'_, Rule>) -> Node {
        let span = self.span(&pair);
        let mut name = None;
        let children = self.inner(pair);
        // Sized exactly: a tree of 100,000 cards holds millions of these.
        let mut values = Vec::with_capacity(children.iter().filter(|c| is_value(c.as_rule())).count());
        let mut block = None;
        for child in children {
            match child.as_rule() {
                Rule::name => name = Some(self.name(child)),
                Rule::block => block = Some(self.block(child)),
                _ => values.push(self.value(child, 0)),
            }
        }
        let name = name.unwrap_or(Name { text: String::new(), span });
        Node { name, values, block, expr: None, span }
    }

    /// A rule.  When its expression does not read, the mistake is reported
    /// and the rule left out, alone: the block around it is still read, so
    /// nothing else reports the same mistake again.
    fn constraint(&mut self, pair: Pair<'_, Rule>) -> Option<Node> {
        let mut span = self.span(&pair);
        let mut name = Name { text: String::new(), span };
        let mut values = Vec::new();
        let mut expr = None;
        for child in self.inner(pair) {
            match child.as_rule() {
                Rule::constraint_kw => name = self.name(child),
                Rule::expr => expr = Some(Arc::new(self.expr(child)?)),
                _ => values.push(self.value(child, 0)),
            }
        }
        // The grammar's `expr` runs on to the end of the line; the node ends
        // with the expression's last token.
        if let Some(expr) = &expr {
            span.end = expr.span().end;
        }
        Some(Node { name, values, block: None, expr, span })
    }

    /// Reads a rule's expression (see [`super::expr`]).
    fn expr(&mut self, pair: Pair<'_, Rule>) -> Option<Expr> {
        let place = Place {
            file: self.file,
            offset: self.offset,
            text: pair.as_span().get_input(),
            start: pair.as_span().start(),
            end: pair.as_span().end(),
        };
        super::expr::read(&place, self.diagnostics)
    }

    fn name(&mut self, pair: Pair<'_, Rule>) -> Name {
        Name { text: pair.as_str().to_string(), span: self.span(&pair) }
    }

    fn block(&mut self, pair: Pair<'_, Rule>) -> Block {
        let span = self.span(&pair);
        let children = self.inner(pair);
        let mut nodes = Vec::with_capacity(children.iter().filter(|p| p.as_rule() == Rule::node).count());
        for child in children.into_iter().filter(|p| p.as_rule() == Rule::node) {
            nodes.extend(self.node(child));
        }
        Block { nodes, span }
    }

    /// A value, `depth` calls deep.
    fn value(&mut self, pair: Pair<'_, Rule>, depth: usize) -> Value {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::string => ValueKind::String(unescape(pair.as_str())),
            Rule::call => self.call(pair, depth + 1),
            Rule::slash_value => match pair.into_inner().next() {
                Some(form) => self.literal(form),
                None => ValueKind::Word(String::new()),
            },
            Rule::literal => match pair.into_inner().next() {
                Some(form) => self.literal(form),
                None => ValueKind::Word(String::new()),
            },
            _ => ValueKind::Word(pair.as_str().to_string()),
        };
        Value { kind, span }
    }

    /// A call (`name(a, b)`), the `depth`-th around its
    /// arguments.  Deeper than the limit, it is reported and read no further.
    fn call(&mut self, pair: Pair<'_, Rule>, depth: usize) -> ValueKind {
        let mut name = None;
        let mut args = Vec::new();
        for child in self.inner(pair) {
            match child.as_rule() {
                Rule::ident => name = Some(self.name(child)),
                Rule::call_args if depth > MAX_EXPR_DEPTH => {
                    let at = name.as_ref().map_or(self.span(&child), |n| n.span);
                    self.diagnostics.push(super::expr::too_deep(at, "call"));
                    self.lost = true;
                }
                Rule::call_args => {
                    for arg in self.inner(child).into_iter().filter(|a| a.as_rule() != Rule::comma) {
                        args.push(self.value(arg, depth));
                    }
                }
                _ => {}
            }
        }
        let span = name.as_ref().map(|n| n.span).unwrap_or(Span::new(self.file, self.offset, self.offset));
        ValueKind::Call { name: name.unwrap_or(Name { text: String::new(), span }), args }
    }

    fn literal(&mut self, pair: Pair<'_, Rule>) -> ValueKind {
        self.form(form_of(&pair), pair.as_str(), self.span(&pair))
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
        let kind = self.form_with(form, text, &mut number);
        if too_large {
            self.diagnostics.push(number_too_large(span));
            return ValueKind::Invalid;
        }
        kind
    }

    fn form_with(&mut self, form: Form, text: &str, number: &mut impl FnMut(&str) -> i64) -> ValueKind {
        match form {
            Form::Integer => ValueKind::Int(number(text)),
            Form::Signed => ValueKind::Signed(number(text.trim_start_matches('+'))),
            Form::PlusAfter => ValueKind::PlusAfter(number(&text[..text.len() - 1])),
            Form::Copies => ValueKind::Copies(number(&text[1..])),
            Form::Decimal => ValueKind::Decimal(decimal(text, number)),
            Form::Distance => ValueKind::Distance(decimal(&text[..text.len() - 1], number)),
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
            Form::SlashList => ValueKind::SlashList(text.split('/').map(str::to_string).collect()),
            Form::Star => ValueKind::Star,
            Form::Ident => ValueKind::Ident(text.to_string()),
            Form::Word => ValueKind::Word(text.to_string()),
        }
    }

    fn syntax_error(&self, text: &str, error: pest::error::Error<Rule>) -> Diagnostic {
        let position = match error.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((p, _)) => p,
        };
        let expected_text = match &error.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } => describe_expected(positives),
            pest::error::ErrorVariant::CustomError { message } => {
                // The item's first line, not the whole item: a label over
                // many lines would print every one of them.
                let head = first_line(text);
                let at = Span::new(self.file, self.offset + head.start, self.offset + head.end);
                let why = match message.as_str() {
                    "stack limit reached" => "its brackets nest too deeply for the parser",
                    "call limit reached" => "it took the parser too many steps",
                    other => other,
                };
                return Diagnostic::error(&codes::PARSER_LIMIT, "this item is too complex to parse")
                    .primary(at, "parsing stopped inside this item")
                    .note(why.to_string())
                    .help("split the item, or nest brackets less deeply");
            }
        };
        let (found, length) = found_at(text, position);
        let start = self.offset + position;
        expected(Span::new(self.file, start, start + length), &expected_text, &found)
    }
}

/// The range of the first line of `text` that holds more than space and a
/// comment, without its line end; the whole text if there is none.
fn first_line(text: &str) -> std::ops::Range<usize> {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim();
        if !content.is_empty() && !content.starts_with("//") {
            return start..start + line.trim_end().len();
        }
        start += line.len();
    }
    0..text.len()
}

/// `E0001`: "expected …, found …", at what was found.
pub(super) fn expected(span: Span, what: &str, found: &str) -> Diagnostic {
    Diagnostic::error(&codes::SYNTAX_ERROR, format!("expected {what}, found {found}"))
        .primary(span, format!("expected {what}"))
}

/// `E0006`: a number written with more digits than 64 bits hold.
pub(super) fn number_too_large(span: Span) -> Diagnostic {
    Diagnostic::error(&codes::NUMBER_TOO_LARGE, "number too large")
        .primary(span, "this number does not fit in 64 bits")
        .help("numbers go up to 9223372036854775807")
}

/// The form of the pair inside a `literal` (or a `literal_spec`, for its test).
pub(super) fn form_of(pair: &Pair<'_, Rule>) -> Form {
    match pair.as_rule() {
        Rule::token => literal::classify(pair.as_str()),
        Rule::coord => Form::Coord,
        Rule::distance => Form::Distance,
        Rule::slash_list => Form::SlashList,
        Rule::dice => Form::Dice,
        Rule::save_pair => Form::SavePair,
        Rule::range => Form::Range,
        Rule::band_range => Form::BandRange,
        Rule::plus_after => Form::PlusAfter,
        Rule::signed => Form::Signed,
        Rule::decimal => Form::Decimal,
        Rule::integer => Form::Integer,
        Rule::copies => Form::Copies,
        Rule::star => Form::Star,
        Rule::ident => Form::Ident,
        _ => Form::Word,
    }
}

/// Whether a child of a node is one of its values.
fn is_value(rule: Rule) -> bool {
    !matches!(rule, Rule::name | Rule::block | Rule::constraint_kw | Rule::expr)
}

fn unreachable_node(span: Span) -> Node {
    Node { name: Name { text: String::new(), span }, values: Vec::new(), block: None, expr: None, span }
}

/// What a person would call each grammar rule, for "expected …" messages.
fn rename(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::node | Rule::plain_node | Rule::name | Rule::constraint | Rule::constraint_kw => "a name",
        Rule::string | Rule::call | Rule::literal | Rule::call_args | Rule::slash_value => "a value",
        Rule::block => "`{`",
        Rule::comma => "`,`",
        Rule::call_close => "`)`",
        Rule::expr => "an expression",
        Rule::integer => "a number",
        Rule::ident => "a name",
        Rule::EOI => "the end of the line",
        _ => return None,
    })
}

fn describe_expected(positives: &[Rule]) -> String {
    let mut words: Vec<&str> = Vec::new();
    for rule in positives {
        if let Some(word) = rename(*rule) {
            if !words.contains(&word) {
                words.push(word);
            }
        }
    }
    if words.is_empty() {
        return "the end of the line".to_string();
    }
    match words.len() {
        1 => words[0].to_string(),
        n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

/// Describes what stands at `position`, and how many bytes to underline.
pub(super) fn found_at(text: &str, position: usize) -> (String, usize) {
    let rest = &text[position.min(text.len())..];
    let Some(c) = rest.chars().next() else {
        return ("the end of the item".to_string(), 0);
    };
    if c == '\n' || c == '\r' {
        return ("the end of the line".to_string(), 0);
    }
    let token: String = if c.is_alphanumeric() || c == '_' {
        rest.chars().take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '+')).collect()
    } else {
        c.to_string()
    };
    (format!("`{token}`"), token.len())
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
