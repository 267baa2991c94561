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

use super::{CardContext, GameChecker};
use crate::ruleset::model::{EnumDef, KeywordDef, Repeat, Ruleset, Type, TypeSpec};
pub(in crate::check) use crate::ruleset::names::spelling;
use crate::ruleset::names::suggest;
use crate::source::Span;
use crate::syntax::ast::{self, Name, ValueKind};
use std::borrow::Cow;

impl GameChecker<'_> {
    /// The values of a node with every keyword written as printed read as
    /// its id; borrowed when every keyword is written by its id already.
    pub(in crate::check) fn keywords_as_printed<'v>(
        &self,
        values: &'v [ast::Value],
        card: &CardContext,
    ) -> Cow<'v, [ast::Value]> {
        let by_id = |v: &ast::Value| {
            word_of(v).is_none_or(|name| self.ruleset.keyword(name).is_some() || self.deck_keyword_visible(name, card))
        };
        if values.iter().all(by_id) {
            return Cow::Borrowed(values);
        }
        let names = &*self.printed_names;
        Cow::Owned(join_runs(values, |rest| {
            if by_id(&rest[0]) {
                return None;
            }
            self.printed_deck_keyword(rest, card)
                .or_else(|| self.printed_keyword(names, rest))
                .or_else(|| self.unknown_printed_keyword(names, rest, card))
        }))
    }

    /// A run of capitalised words that names no keyword (`Warp Drive`): one
    /// keyword printed by its name, unknown, reported once.  The run stops
    /// at a comma and where a keyword starts.
    fn unknown_printed_keyword(
        &self,
        names: &Names<'_>,
        rest: &[ast::Value],
        card: &CardContext,
    ) -> Option<(ast::Value, usize)> {
        let capitalised = |v: &ast::Value| {
            matches!(v.kind, ValueKind::Ident(_) | ValueKind::Word(_))
                && word_of(v).is_some_and(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
        };
        let mut run = 0;
        while run < rest.len() && capitalised(&rest[run]) {
            let after_comma = run > 0 && {
                let between = Span { start: rest[run - 1].span.end, end: rest[run].span.start, ..rest[run].span };
                self.files.text(between).contains(',')
            };
            // A near miss comes back as the words written, which name none.
            let starts_keyword = self.printed_deck_keyword(&rest[run..], card).is_some()
                || match self.printed_keyword(names, &rest[run..]) {
                    Some((ast::Value { kind: ValueKind::Ident(id), .. }, _)) => names.find(&id).is_some(),
                    found => found.is_some(),
                };
            if after_comma || starts_keyword {
                break;
            }
            run += 1;
        }
        if run < 2 {
            return None;
        }
        let span = rest[0].span.to(rest[run - 1].span)?;
        Some((ast::Value { kind: ValueKind::Ident(self.files.text(span).to_string()), span }, run))
    }

    /// The keyword a card of this deck declares (`deck-keyword
    /// running-engagement "Running Engagement" …`) that the words at the
    /// start of `rest` spell as that card prints it, and how many words.
    fn printed_deck_keyword(&self, rest: &[ast::Value], card: &CardContext) -> Option<(ast::Value, usize)> {
        let visible = self.deck_keywords.iter().filter(|k| k.symbol.is_none() || k.symbol == card.symbol);
        let mut found: Option<(ast::Value, usize)> = None;
        for keyword in visible {
            let printed = keyword.display.as_deref().unwrap_or(&keyword.id);
            let words = printed.replace('-', " ").split_whitespace().count();
            let Some(last) = words.checked_sub(1).and_then(|i| rest.get(i)) else { continue };
            if !rest[..words].iter().all(|v| matches!(v.kind, ValueKind::Ident(_) | ValueKind::Word(_))) {
                continue;
            }
            let span = rest[0].span.to(last.span)?;
            let written = spelling(self.files.text(span));
            let spells = written == spelling(printed) || written == spelling(&keyword.id.replace('-', " "));
            if spells && found.as_ref().is_none_or(|(_, used)| words > *used) {
                found = Some((ast::Value { kind: ValueKind::Ident(keyword.id.clone()), span }, words));
            }
        }
        found
    }

    /// The keyword that the values at the start of `rest` spell as printed,
    /// and how many values spell it; `None` when they name none.
    fn printed_keyword(&self, names: &Names<'_>, rest: &[ast::Value]) -> Option<(ast::Value, usize)> {
        let first = rest.first()?;
        let name = word_of(first)?;
        // Only the last value of a run may have arguments.
        let plain = rest
            .iter()
            .take(names.longest)
            .take_while(|v| matches!(v.kind, ValueKind::Ident(_) | ValueKind::Word(_)))
            .count();
        let most = (plain + 1).min(rest.len()).min(names.longest);
        for used in (1..=most).rev() {
            let last = &rest[used - 1];
            let span = first.span.to(last.span)?;
            // The whole run, arguments and all, is the keyword's name:
            // `Close Action (Beam)`.
            if let Some(def) = names.find(self.files.text(span)) {
                return Some((ast::Value { kind: ValueKind::Ident(def.id.clone()), span }, used));
            }
            // The run up to the last value's `(` is the name, and the
            // arguments are the keyword's: `Burnthrough (4)`.
            if let ValueKind::Call { name: called, args } = &last.kind {
                let head = Span { end: called.span.end, ..first.span };
                if let Some(def) = names.find(self.files.text(head)) {
                    let name = Name { text: def.id.clone(), span: head };
                    return Some((ast::Value { kind: ValueKind::Call { name, args: args.clone() }, span }, used));
                }
            }
        }
        // A run of words that names no keyword but is close to one's printed
        // name (`Escape Velosity`) is one unknown keyword, reported once
        // with the keyword meant, unless each word is a keyword of its own.
        for used in (2..=plain.min(most)).rev() {
            let run = &rest[..used];
            if run.iter().all(|v| names.find(self.files.text(v.span)).is_some()) {
                continue;
            }
            let span = first.span.to(run[used - 1].span)?;
            let written = self.files.text(span);
            let near = spelling(written);
            let words = near.split_whitespace().count();
            let same_length =
                names.names.iter().map(|(_, d, _)| d.as_str()).filter(|d| d.split_whitespace().count() == words);
            if suggest(&near, same_length).is_some() {
                return Some((ast::Value { kind: ValueKind::Ident(written.to_string()), span }, used));
            }
        }
        // `Alt-1`: a keyword whose one parameter is a number, and the number.
        if matches!(first.kind, ValueKind::Call { .. }) {
            return None;
        }
        let (head, number) = name.rsplit_once('-')?;
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || head.is_empty() {
            return None;
        }
        let n: i64 = number.parse().ok()?;
        let def = names.find(head)?;
        let [param] = def.params.as_slice() else { return None };
        if param.ty.ty != Type::Int || param.ty.repeat != Repeat::One {
            return None;
        }
        let split = first.span.start + head.len() as u32;
        let name = Name { text: def.id.clone(), span: Span { end: split, ..first.span } };
        let arg = ast::Value { kind: ValueKind::Int(n), span: Span { start: split + 1, ..first.span } };
        Some((ast::Value { kind: ValueKind::Call { name, args: vec![arg] }, span: first.span }, 1))
    }
}

/// The most items of a set written as printed that are read as one set.
const SET_ITEMS_READ: usize = 8;

/// Every keyword's id and displayed name in one spelling, made once for a
/// line that writes a keyword as printed.
/// The keywords of a ruleset by the names a rulebook prints: made once
/// per game.
pub(in crate::check) struct Names<'r> {
    names: Vec<(String, String, &'r KeywordDef)>,
    /// The most words of a displayed name.
    longest: usize,
    /// The types with a name printed in several words (an enum's `Bulk
    /// Landers`, a deck symbol's `Close Action`), and the most words of one.
    multi_word: Vec<(Type, usize)>,
}

impl<'r> Names<'r> {
    pub(in crate::check) fn of(ruleset: &'r Ruleset) -> Names<'r> {
        let mut names: Vec<(String, String, &KeywordDef)> =
            ruleset.keywords.iter().map(|k| (k.id.to_ascii_lowercase(), spelling(&k.display), k)).collect();
        for keyword in &ruleset.keywords {
            let id = keyword.id.to_ascii_lowercase();
            names.extend(keyword.printed.iter().map(|printed| (id.clone(), spelling(printed), keyword)));
        }
        let longest = ruleset.keywords.iter().map(|k| k.display.split_whitespace().count()).max().unwrap_or(1);
        Names { names, longest: longest.max(1), multi_word: multi_word_names(ruleset) }
    }

    /// The one keyword whose id or displayed name is `written`, in any
    /// letter case and spacing (`close action`, `Close Action (Beam)`).
    fn find(&self, written: &str) -> Option<&'r KeywordDef> {
        let written = spelling(written);
        // A keyword printed several ways has an entry for each.
        let mut found =
            self.names.iter().filter(|(id, display, _)| *display == written || *id == written).map(|(_, _, def)| *def);
        let first = found.next()?;
        found.all(|other| std::ptr::eq(other, first)).then_some(first)
    }
}

/// The values with each run that `read` finds at the start of what is left
/// replaced by the one value it reads, and how many values that run took.
fn join_runs(
    values: &[ast::Value],
    mut read: impl FnMut(&[ast::Value]) -> Option<(ast::Value, usize)>,
) -> Vec<ast::Value> {
    let mut joined: Vec<ast::Value> = Vec::with_capacity(values.len());
    let mut i = 0;
    while i < values.len() {
        match read(&values[i..]) {
            Some((value, used)) => {
                joined.push(value);
                i += used;
            }
            None => {
                joined.push(values[i].clone());
                i += 1;
            }
        }
    }
    joined
}

/// The name a value starts with: a word, or a call's name.
fn word_of(value: &ast::Value) -> Option<&str> {
    match &value.kind {
        ValueKind::Ident(name) | ValueKind::Word(name) => Some(name),
        ValueKind::Call { name, .. } => Some(&name.text),
        _ => None,
    }
}

/// The id of the declared name of type `ty` that `written` spells as a
/// rulebook prints it: its displayed name, an enum value's label or
/// `printed` spelling, or its id with spaces for hyphens, in any letter case
/// (`Damage` for the symbol `damage`, `Narrow (Long+)` for the arc
/// `narrow-long`, `S(L)` for `S(Left)`, `Bulk Landers` for `bulk-landers`).
pub(in crate::check) fn printed_name(ruleset: &Ruleset, ty: &Type, written: &str) -> Option<String> {
    let want = spelling(written);
    let spells = |printed: &str| spelling(printed) == want || spelling(&printed.replace('-', " ")) == want;
    // Each declaration by its id and the names it is printed by.
    let found: Vec<&str> = match ty {
        Type::Symbol => spelled(ruleset.symbols.iter().map(|n| (n.id.as_str(), n.display.as_str())), &spells),
        Type::Arc => spelled(ruleset.arcs.iter().map(|n| (n.id.as_str(), n.display.as_str())), &spells),
        Type::RangeBand => spelled(ruleset.ranges.iter().map(|b| (b.id.as_str(), b.display.as_str())), &spells),
        Type::DeckSymbol => spelled(ruleset.deck_symbols.iter().map(|d| (d.id.as_str(), d.display.as_str())), &spells),
        Type::Kind => spelled(ruleset.kinds.iter().map(|k| (k.id.as_str(), k.display.as_str())), &spells),
        Type::Tag => spelled(ruleset.tags.iter().map(|t| (t.id.as_str(), t.display.as_str())), &spells),
        Type::Enum(id) | Type::Set(id) => {
            let def = ruleset.enums.iter().find(|e| e.id == *id)?;
            let printed = def.printed.iter().filter(|(printed, _)| spells(printed)).map(|(_, value)| value.as_str());
            let values = def.values.iter().filter(|v| spells(v) || def.label(v).is_some_and(&spells));
            printed.chain(values.map(String::as_str)).collect()
        }
        _ => return None,
    };
    // A spelling that could be two declarations is none of them.
    match found.as_slice() {
        [first, rest @ ..] if rest.iter().all(|other| other == first) => Some(first.to_string()),
        _ => None,
    }
}

/// [`printed_name`] of words written in a row, where a `/` or an `&` may be
/// part of the name: `Missiles & Torpedoes`, or `Missiles/Torpedoes`, as a
/// set of its words is written.
pub(in crate::check) fn printed_name_of_run(ruleset: &Ruleset, ty: &Type, written: &str) -> Option<String> {
    printed_name(ruleset, ty, &written.replace('/', " & "))
}

/// The ids of the declarations whose id or displayed name `spells`.
fn spelled<'d>(declared: impl Iterator<Item = (&'d str, &'d str)>, spells: &impl Fn(&str) -> bool) -> Vec<&'d str> {
    declared.filter(|(id, display)| spells(id) || spells(display)).map(|(id, _)| id).collect()
}

/// The most words of one printed spelling of an enum's values.
fn enum_words(def: &EnumDef) -> usize {
    let printed = def.printed.keys().map(|p| words(p));
    let labels = def.labels.values().map(|l| words(l));
    def.values.iter().map(|v| words(v)).chain(printed).chain(labels).max().unwrap_or(1)
}

/// The words of a name as printed, hyphens and `&` apart.
fn words(name: &str) -> usize {
    name.replace('-', " ").split_whitespace().filter(|w| *w != "&").count()
}

/// Each type of name with one printed in several words, and the most words
/// of one.
fn multi_word_names(ruleset: &Ruleset) -> Vec<(Type, usize)> {
    let most = |names: &mut dyn Iterator<Item = (&str, &str)>| {
        names.map(|(id, display)| words(id).max(words(display))).max().unwrap_or(1)
    };
    let named = [
        (Type::Symbol, most(&mut ruleset.symbols.iter().map(|n| (n.id.as_str(), n.display.as_str())))),
        (Type::Arc, most(&mut ruleset.arcs.iter().map(|n| (n.id.as_str(), n.display.as_str())))),
        (Type::RangeBand, most(&mut ruleset.ranges.iter().map(|b| (b.id.as_str(), b.display.as_str())))),
        (Type::DeckSymbol, most(&mut ruleset.deck_symbols.iter().map(|d| (d.id.as_str(), d.display.as_str())))),
        (Type::Kind, most(&mut ruleset.kinds.iter().map(|k| (k.id.as_str(), k.display.as_str())))),
        (Type::Tag, most(&mut ruleset.tags.iter().map(|t| (t.id.as_str(), t.display.as_str())))),
    ];
    let enums = ruleset.enums.iter().map(|def| (Type::Enum(def.id.clone()), enum_words(def)));
    named.into_iter().chain(enums).filter(|(_, words)| *words > 1).collect()
}

impl GameChecker<'_> {
    /// The values of a node with every name printed in several words
    /// (`Bulk Landers`, `Forward Right`, `Close Action`) read as the one
    /// value it names; in a field of several values, only when the first
    /// word is no value by itself.  Borrowed when there is none.
    pub(in crate::check) fn names_as_printed<'v>(
        &self,
        values: Cow<'v, [ast::Value]>,
        specs: &[TypeSpec],
    ) -> Cow<'v, [ast::Value]> {
        let names = &*self.printed_names;
        let word_or_set = |v: &ast::Value| matches!(v.kind, ValueKind::Ident(_) | ValueKind::SlashList(_));
        let two_words = values.windows(2).any(|w| w.iter().all(word_or_set));
        if names.multi_word.is_empty() || !two_words {
            return values;
        }
        // Each type with its most words, and whether its field takes several
        // values (then two words that are values each stay two values).
        let types: Vec<(&Type, usize, bool, bool)> = specs
            .iter()
            .filter_map(|spec| {
                let (ty, set) = match &spec.ty {
                    Type::Set(id) => (Type::Enum(id.clone()), true),
                    other => (other.clone(), false),
                };
                let (ty, most) = names.multi_word.iter().find(|(t, _)| *t == ty)?;
                Some((ty, *most, spec.repeat != Repeat::One, set))
            })
            .collect();
        if types.is_empty() {
            return values;
        }
        let joined = join_runs(&values, |rest| self.printed_name_run(&types, rest));
        if joined.len() == values.len() {
            return values;
        }
        Cow::Owned(joined)
    }

    /// The name the words at the start of `rest` spell, and how many words
    /// spell it.
    fn printed_name_run(
        &self,
        types: &[(&Type, usize, bool, bool)],
        rest: &[ast::Value],
    ) -> Option<(ast::Value, usize)> {
        if let Some(set) = types.iter().filter(|t| t.3).find_map(|(ty, most, ..)| self.printed_set_run(ty, *most, rest))
        {
            return Some(set);
        }
        let ValueKind::Ident(first) = &rest.first()?.kind else { return None };
        for (ty, most, repeated, _) in types {
            if *repeated && printed_name(self.ruleset, ty, first).is_some() {
                continue;
            }
            let words = rest.iter().take(*most).take_while(|v| matches!(v.kind, ValueKind::Ident(_))).count();
            for used in (2..=words).rev() {
                let span = rest[0].span.to(rest[used - 1].span)?;
                if let Some(id) = printed_name(self.ruleset, ty, self.files.text(span)) {
                    return Some((ast::Value { kind: ValueKind::Ident(id), span }, used));
                }
            }
        }
        None
    }
    /// A set whose values are printed in several words, its words and `/`
    /// or `&` read as written (`Bombers & Fire Ships`, `Dropships/Bulk
    /// Landers`): the set of ids, and how many values wrote it.
    fn printed_set_run(&self, ty: &Type, most: usize, rest: &[ast::Value]) -> Option<(ast::Value, usize)> {
        let is_set = |v: &ast::Value| matches!(v.kind, ValueKind::SlashList(_));
        let run = rest.iter().take_while(|v| matches!(v.kind, ValueKind::Ident(_)) || is_set(v)).count();
        // Each item of a set of a few may take `most` words: the run tried
        // is bounded, so a long line is read in linear time.
        let run = run.min(most.saturating_mul(SET_ITEMS_READ));
        for used in (2..=run).rev() {
            if !rest[..used].iter().any(is_set) {
                continue;
            }
            let span = rest[0].span.to(rest[used - 1].span)?;
            let ids: Option<Vec<String>> = self
                .files
                .text(span)
                .split(['/', '&'])
                .map(|item| printed_name(self.ruleset, ty, item.trim()))
                .collect();
            if let Some(ids) = ids {
                return Some((ast::Value { kind: ValueKind::SlashList(ids), span }, used));
            }
        }
        None
    }
}
