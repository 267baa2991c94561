//! Keywords written as a rulebook prints them.
//!
//! A card may name a keyword by its id (`close-action`, `burnthrough(4)`)
//! or by the name its ruleset displays for it, in any letter case, its words
//! written apart as printed: `Close Action`, `Burnthrough (4)`, `Close
//! Action (Beam)` for a keyword displayed "Close Action (Beam)".  A keyword
//! whose one parameter is a number may be written `NAME-N` (`Alt-1` for
//! `alt(1)`).  Each such run of values is read here as the one value it
//! names, an identifier or a call with the keyword's id, spanning the words
//! it was written with, before the values are typed; a word that names no
//! keyword is left as it is, for the usual diagnostic.

use super::game::{CardContext, GameChecker};
use super::model::{KeywordDef, Repeat, Type};
use crate::source::Span;
use crate::syntax::ast::{self, Name, ValueKind};
use std::borrow::Cow;

impl GameChecker<'_> {
    /// The values of a node with every keyword written as printed read as
    /// its id; borrowed when every keyword is written by its id already.
    pub(super) fn keywords_as_printed<'v>(
        &self,
        values: &'v [ast::Value],
        card: &CardContext,
    ) -> Cow<'v, [ast::Value]> {
        let mut joined: Option<Vec<ast::Value>> = None;
        let mut i = 0;
        while i < values.len() {
            match self.printed_keyword(&values[i..], card) {
                Some((value, used)) => {
                    joined.get_or_insert_with(|| values[..i].to_vec()).push(value);
                    i += used;
                }
                None => {
                    if let Some(joined) = &mut joined {
                        joined.push(values[i].clone());
                    }
                    i += 1;
                }
            }
        }
        match joined {
            Some(joined) => Cow::Owned(joined),
            None => Cow::Borrowed(values),
        }
    }

    /// The keyword that the values at the start of `rest` spell as printed,
    /// and how many values spell it; `None` when the first value is a
    /// keyword's id already, or names none.
    fn printed_keyword(&self, rest: &[ast::Value], card: &CardContext) -> Option<(ast::Value, usize)> {
        let first = rest.first()?;
        let name = word_of(first)?;
        if self.ruleset.keyword(name).is_some() || self.deck_keyword_visible(name, card) {
            return None;
        }
        // Only the last value of a run may have arguments.
        let longest = self.ruleset.keywords.iter().map(|k| k.display.split_whitespace().count()).max().unwrap_or(1);
        let plain = rest.iter().take_while(|v| matches!(v.kind, ValueKind::Ident(_) | ValueKind::Word(_))).count();
        let most = (plain + 1).min(rest.len()).min(longest);
        for used in (1..=most).rev() {
            let run = &rest[..used];
            let last = &run[used - 1];
            let span = first.span.to(last.span)?;
            // The whole run, arguments and all, is the keyword's name:
            // `Close Action (Beam)`.
            if let Some(def) = self.keyword_named(self.files.text(span)) {
                return Some((ast::Value { kind: ValueKind::Ident(def.id.clone()), span }, used));
            }
            // The run up to the last value's `(` is the name, and the
            // arguments are the keyword's: `Burnthrough (4)`.
            if let ValueKind::Call { name: called, args } = &last.kind {
                let head = Span { end: called.span.end, ..first.span };
                if let Some(def) = self.keyword_named(self.files.text(head)) {
                    let name = Name { text: def.id.clone(), span: head };
                    return Some((ast::Value { kind: ValueKind::Call { name, args: args.clone() }, span }, used));
                }
            }
        }
        // `Alt-1`: a keyword whose one parameter is a number, and the number.
        let (head, number) = name.rsplit_once('-')?;
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || head.is_empty() {
            return None;
        }
        let n: i64 = number.parse().ok()?;
        let def = self.keyword_named(head)?;
        let [param] = def.params.as_slice() else { return None };
        if param.ty.ty != Type::Int || param.ty.repeat != Repeat::One {
            return None;
        }
        let split = first.span.start + head.len() as u32;
        let name = Name { text: def.id.clone(), span: Span { end: split, ..first.span } };
        let arg = ast::Value { kind: ValueKind::Int(n), span: Span { start: split + 1, ..first.span } };
        Some((ast::Value { kind: ValueKind::Call { name, args: vec![arg] }, span: first.span }, 1))
    }

    /// The one keyword whose id or displayed name is `written`, in any
    /// letter case and spacing (`close action`, `Close Action (Beam)`).
    fn keyword_named(&self, written: &str) -> Option<&KeywordDef> {
        let written = spelling(written);
        let mut found = self
            .ruleset
            .keywords
            .iter()
            .filter(|k| spelling(&k.display) == written || k.id.eq_ignore_ascii_case(&written));
        match (found.next(), found.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }
}

/// The name a value starts with: a word, or a call's name.
fn word_of(value: &ast::Value) -> Option<&str> {
    match &value.kind {
        ValueKind::Ident(name) | ValueKind::Word(name) => Some(name),
        ValueKind::Call { name, .. } => Some(&name.text),
        _ => None,
    }
}

/// A name in one spelling: lower case, words single-spaced, no space inside
/// or before brackets nor before a comma.
fn spelling(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        let joins = word.starts_with(['(', ')', ',']) || out.ends_with('(') || out.is_empty();
        if !joins {
            out.push(' ');
        }
        out.extend(word.chars().map(|c| c.to_ascii_lowercase()));
    }
    out
}
