//! Runs the grammar and turns its pairs into the lossless tree
//! ([`super::cst`]).  This is the only module that sees pest types.
//!
//! A file is read one top-level item per call to pest, so that pest's step
//! and stack limits apply to one item: an item that reaches one becomes a
//! [`Kind::TooComplex`] node, and the items after it are read as usual.
//! Regions the depth guard refuses ([`super::guard`]) never reach pest.

use super::cst::{Builder, Cst, Kind, Limit};
use super::guard;
use super::literal::{self, Form};
use crate::diagnostics::Diagnostic;
use crate::source::Span;
use pest::Parser as _;
use pest::Token;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/cardsmith.pest"]
pub(super) struct Grammar;

/// Enough for any real item; pathological input stops here instead of hanging.
const CALL_LIMIT: usize = 5_000_000;

/// The lossless tree of `text`.
pub(super) fn build(text: &str) -> Cst {
    pest::set_call_limit(std::num::NonZeroUsize::new(CALL_LIMIT));
    let mut builder = Builder::new(text);
    let mut pos = 0;
    for refused in guard::too_deep(text) {
        items(text, pos, refused.range.start, &mut builder);
        builder.open(Kind::TooDeep, refused.range.start);
        builder.error_text_to(refused.brace);
        builder.token(Kind::DeepBrace, refused.brace, refused.brace + 1);
        builder.error_text_to(refused.range.end);
        builder.close(refused.range.end);
        pos = refused.range.end;
    }
    items(text, pos, text.len(), &mut builder);
    builder.finish()
}

/// Reads the items of `text[pos..end]` into the tree.  A top-level line
/// whose block lost its `{` is read as one [`Kind::MissingOpen`] region.
fn items(text: &str, pos: usize, end: usize, builder: &mut Builder<'_>) {
    items_to(text, pos, end, builder, true);
}

/// Reads the items of `text[pos..end]`, looking for a lost `{` when
/// `recover` (not inside a region already read as one).
fn items_to(text: &str, mut pos: usize, end: usize, builder: &mut Builder<'_>, recover: bool) {
    loop {
        pos = separators(text, pos, end, builder);
        if pos >= end {
            return;
        }
        if let Some(region_end) = recover.then(|| guard::missing_open(text, pos, end)).flatten() {
            builder.open(Kind::MissingOpen, pos);
            items_to(text, pos, region_end, builder, false);
            builder.close(region_end);
            pos = region_end;
            continue;
        }
        let slice = &text[pos..end];
        match Grammar::parse(Rule::item, slice) {
            Ok(pairs) => {
                let read = add_pairs(pairs, pos, builder);
                if read == pos {
                    // Only the end of the text reads as nothing.
                    builder.trivia_to(end);
                    return;
                }
                pos = read;
            }
            Err(error) => {
                let limit = match &error.variant {
                    pest::error::ErrorVariant::CustomError { message } if message.contains("stack") => Limit::Stack,
                    pest::error::ErrorVariant::CustomError { message } if message.contains("call") => Limit::Calls,
                    _ => Limit::Other,
                };
                let start = pos;
                let stop = guard::next_top_level_line(text.as_bytes(), start).clamp(start + 1, end);
                builder.open(Kind::TooComplex(limit), start);
                builder.error_text_to(stop);
                builder.close(stop);
                pos = stop;
            }
        }
    }
}

/// Adds the separators before the next item — spaces, line ends, `;` and
/// comments — and gives where the item starts.  They are read here, not by
/// the grammar, so that the parser's step limit counts an item's own steps:
/// a million blank lines before an item make it no more complex.
fn separators(text: &str, mut pos: usize, end: usize, builder: &mut Builder<'_>) -> usize {
    let bytes = text.as_bytes();
    while pos < end {
        match bytes[pos] {
            b' ' | b'\t' | b'\n' | b'\r' | b';' => pos += 1,
            b'/' if bytes.get(pos + 1) == Some(&b'/') => {
                let line_end = text[pos..end].find(['\n', '\r']).map_or(end, |at| pos + at);
                builder.token(Kind::Comment, pos, line_end);
                pos = line_end;
            }
            _ => break,
        }
    }
    builder.trivia_to(pos);
    pos
}

/// Adds one item's pairs (from `offset` in the file); gives where it ends.
fn add_pairs(pairs: pest::iterators::Pairs<'_, Rule>, offset: usize, builder: &mut Builder<'_>) -> usize {
    // Inside a token, the pairs that make it up are skipped: this counts
    // how deep, 0 when outside.
    let mut inside_token = 0usize;
    let mut token_start = 0;
    let mut token_kind = None;
    let mut end = offset;
    for token in pairs.tokens() {
        match token {
            Token::Start { rule, pos } => {
                let at = offset + pos.pos();
                if inside_token > 0 {
                    inside_token += 1;
                    continue;
                }
                match role(rule) {
                    Role::Node(kind) => builder.open(kind, at),
                    Role::Token(kind) => (inside_token, token_start, token_kind) = (1, at, Some(kind)),
                    // Told apart in Rust once its end is known.
                    Role::Literal => (inside_token, token_start, token_kind) = (1, at, None),
                    Role::Transparent => {}
                }
            }
            Token::End { rule, pos } => {
                let at = offset + pos.pos();
                end = end.max(at);
                if inside_token > 0 {
                    inside_token -= 1;
                    if inside_token == 0 {
                        let kind = token_kind
                            .unwrap_or_else(|| Kind::Literal(literal::classify(&builder.source()[token_start..at])));
                        builder.token(kind, token_start, at);
                    }
                    continue;
                }
                if let Role::Node(_) = role(rule) {
                    builder.close(at);
                }
            }
        }
    }
    end
}

/// What a pair of the grammar is in the tree.
enum Role {
    Node(Kind),
    Token(Kind),
    /// A literal token, whose form [`literal::classify`] tells.
    Literal,
    /// Only its children are kept.
    Transparent,
}

fn role(rule: Rule) -> Role {
    Role::Token(match rule {
        Rule::plain_node => return Role::Node(Kind::Node),
        Rule::constraint => return Role::Node(Kind::Rule),
        Rule::block => return Role::Node(Kind::Block),
        Rule::call => return Role::Node(Kind::Call),
        Rule::bad_node | Rule::bad_tail | Rule::bad_value | Rule::stray_close => return Role::Node(Kind::Error),
        Rule::name | Rule::ident => Kind::Name,
        Rule::constraint_kw | Rule::expr_kw => Kind::Keyword,
        Rule::string => Kind::String,
        Rule::expr => Kind::Expr,
        Rule::comment => Kind::Comment,
        Rule::comma => Kind::Comma,
        Rule::call_close => Kind::CloseParen,
        Rule::unterminated => Kind::Unterminated,
        Rule::missing_close => Kind::MissingBrace,
        Rule::token => return Role::Literal,
        Rule::coord | Rule::distance | Rule::distances | Rule::slash_list | Rule::bracketed | Rule::word => {
            Kind::Literal(form(rule))
        }
        _ => return Role::Transparent,
    })
}

/// What pest expected where `line` (an error node's text) stops being a
/// node: the offset in `line` and the words for what it expected.  None when
/// the line reads as a node on its own.
pub(super) fn strict_error(line: &str) -> Option<(usize, String)> {
    let error = Grammar::parse(Rule::strict_node, line).err()?;
    let position = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((p, _)) => p,
    };
    let expected = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => describe_expected(positives),
        pest::error::ErrorVariant::CustomError { .. } => return None,
    };
    Some((position, expected))
}

/// `E0001`: "expected …, found …", at what was found.
pub(super) fn expected(span: Span, what: &str, found: &str) -> Diagnostic {
    Diagnostic::error(&super::codes::SYNTAX_ERROR, format!("expected {what}, found {found}"))
        .primary(span, format!("expected {what}"))
}

/// `E0006`: a number written with more digits than 64 bits hold.
pub(super) fn number_too_large(span: Span) -> Diagnostic {
    Diagnostic::error(&super::codes::NUMBER_TOO_LARGE, "number too large")
        .primary(span, "this number does not fit in 64 bits")
        .help("numbers go up to 9223372036854775807")
}

/// The form of a literal pair told apart by the grammar (or, in the test of
/// [`literal`], of any pair inside a `literal` or a `literal_spec`).
#[cfg(test)]
pub(super) fn form_of(pair: &pest::iterators::Pair<'_, Rule>) -> Form {
    match pair.as_rule() {
        Rule::token => literal::classify(pair.as_str()),
        rule => form(rule),
    }
}

fn form(rule: Rule) -> Form {
    match rule {
        Rule::coord => Form::Coord,
        Rule::distance => Form::Distance,
        Rule::distances => Form::Distances,
        Rule::slash_list => Form::SlashList,
        Rule::bracketed => Form::Bracketed,
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

/// What a person would call each grammar rule, for "expected …" messages.
fn rename(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::node
        | Rule::plain_node
        | Rule::name
        | Rule::constraint
        | Rule::constraint_kw
        | Rule::expr_kw
        | Rule::strict_node => "a name",
        Rule::string | Rule::call | Rule::literal | Rule::call_args | Rule::slash_value | Rule::bracketed => "a value",
        Rule::block | Rule::block_open => "`{`",
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
