//! Lints that read card text: text against effects, keyword spelling and
//! terminology.

use super::catalogue::{KEYWORD_SPELLING, TERMINOLOGY_DRIFT, TEXT_STRUCTURE_MISMATCH};
use super::{lint, Context, Fix, Found};
use crate::diagnostics::Diagnostic;
use crate::ir::{Body, Card, Effect, Field, Spanned, Value};
use crate::ruleset::model::{KeywordAmount, KeywordDef, KeywordEffect, Repeat, Ruleset};
use crate::source::Span;

/// Runs the text lints on `cards` (cards without errors).
pub(super) fn run<'a>(
    context: &Context<'a>,
    vocabulary: &Vocabulary<'_>,
    cards: &[&'a Card],
    found: &mut Vec<Found<'a>>,
) {
    for &card in cards {
        let texts = text_fields(&card.body);
        if texts.is_empty() {
            continue;
        }
        structure(context, card, &texts, found);
        let quoted = texts.iter().flat_map(|f| &f.values).filter(|v| matches!(v.value, Value::Text(_)));
        for value in quoted {
            let Some(source) = QuotedText::of(context, value.span) else { continue };
            keyword_spelling(context, vocabulary, card, &source, found);
            terminology(context, vocabulary, card, &source, found);
        }
    }
}

/// Every field holding text, at any depth.
fn text_fields(body: &Body) -> Vec<&Field> {
    let mut out = Vec::new();
    for field in &body.fields {
        if field.each_value().any(|v| matches!(v, Value::Text(_))) {
            out.push(field);
        }
        if let Some(inner) = &field.body {
            out.extend(text_fields(inner));
        }
    }
    for inner in nested(body) {
        out.extend(text_fields(inner));
    }
    out
}

/// The bodies a block holds besides its fields': its conditions', its
/// choices' options and its `then` steps.
fn nested(body: &Body) -> impl Iterator<Item = &Body> {
    let options = body.choices.iter().flat_map(|c| &c.options);
    body.conditions.iter().map(|c| &c.body).chain(options).chain(&body.then)
}

fn effects(body: &Body) -> Vec<&Effect> {
    let mut out: Vec<&Effect> = body.effects.iter().collect();
    for field in &body.fields {
        if let Some(inner) = &field.body {
            out.extend(effects(inner));
        }
    }
    for inner in nested(body) {
        out.extend(effects(inner));
    }
    out
}

/// The source of a text field's string, with its position in the file.
struct QuotedText<'a> {
    /// The string as written, quotes excluded.
    text: &'a str,
    /// Where `text` starts in the file.
    start: u32,
    file: crate::source::FileId,
    /// `text` in lower case, when that keeps every byte offset, else `None`.
    lower: Option<String>,
    /// Byte ranges of `{…}` and `*…*`, which are not prose.
    markup: Vec<(usize, usize)>,
}

impl<'a> QuotedText<'a> {
    /// The text of a string value written at `span`, quotes included.
    fn of(context: &Context<'a>, span: Span) -> Option<QuotedText<'a>> {
        let line = context.files.text(span);
        let open = line.find('"')?;
        let close = line.rfind('"').filter(|c| *c > open)?;
        let text = &line[open + 1..close];
        let lower = Some(text.to_lowercase()).filter(|l| l.len() == text.len());
        Some(QuotedText { text, start: span.start + open as u32 + 1, file: span.file, lower, markup: markup(text) })
    }

    /// The words of the text in lower case (runs of letters, digits and
    /// `-`), as [`Self::find_words`] bounds them.
    fn words(&self) -> impl Iterator<Item = &str> {
        self.lower.as_deref().unwrap_or("").split(|c: char| !is_word_char(c)).filter(|w| !w.is_empty())
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, self.start as usize + start, self.start as usize + end)
    }

    /// Case-insensitive whole-word occurrences of `phrase` outside markup.
    fn find_words(&self, phrase: &str) -> Vec<(usize, usize)> {
        let already_lower = phrase.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase());
        let wanted: std::borrow::Cow<'_, str> =
            if already_lower { phrase.into() } else { phrase.to_lowercase().into() };
        let Some(lower) = self.lower.as_deref().filter(|_| !wanted.is_empty()) else {
            return Vec::new();
        };
        let is_word = |c: Option<char>| c.is_some_and(is_word_char);
        matches(lower, &wanted)
            .filter(|(start, end)| {
                !is_word(self.text[..*start].chars().next_back())
                    && !is_word(self.text[*end..].chars().next())
                    && !self.markup.iter().any(|(a, b)| start < b && end > a)
            })
            .collect()
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-'
}

/// The first word of a phrase in lower case: a whole-word occurrence of the
/// phrase starts with a word of the text equal to it.  `None` when the
/// phrase does not start with a word.
fn first_word(phrase: &str) -> Option<String> {
    let end = phrase.find(|c: char| !is_word_char(c)).unwrap_or(phrase.len());
    (end > 0).then(|| phrase[..end].to_lowercase())
}

/// The non-overlapping occurrences of `needle` in `haystack`, leftmost first,
/// as `str::match_indices` finds them; cheaper for the short texts and
/// phrases here, which are searched thousands of times per card pool.
fn matches<'h>(haystack: &'h str, needle: &'h str) -> impl Iterator<Item = (usize, usize)> + 'h {
    let (hay, needle) = (haystack.as_bytes(), needle.as_bytes());
    let mut from = 0;
    std::iter::from_fn(move || {
        let first = *needle.first()?;
        while from + needle.len() <= hay.len() {
            let at = from + hay[from..].iter().position(|b| *b == first)?;
            if hay[at..].starts_with(needle) {
                from = at + needle.len();
                return Some((at, from));
            }
            from = at + 1;
        }
        None
    })
}

/// Byte ranges inside `{…}` and `*…*`, which are not prose.
fn markup(text: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            open @ (b'{' | b'*') => {
                let close = if open == b'{' { b'}' } else { b'*' };
                if let Some(len) = bytes[i + 1..].iter().position(|b| *b == close) {
                    ranges.push((i, i + len + 2));
                    i += len + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    ranges
}

/// Every `(amount, symbol)` the card states in structure: effect lines, a
/// base effect plus a conditional bonus, fields such as `absorb damage 2`,
/// and the effects its keywords declare.
fn structured_amounts(body: &Body, ruleset: &Ruleset) -> Vec<(i64, String)> {
    let symbols: Vec<&str> = ruleset.symbols.iter().map(|s| s.id.as_str()).collect();
    let mut amounts: Vec<(i64, String)> = effects(body).iter().map(|e| (e.amount, e.symbol.clone())).collect();
    amounts.extend(keyword_amounts(body, ruleset));
    let mut add_bonuses = |base: &Body| {
        for effect in &base.effects {
            for conditional in &base.conditions {
                for bonus in conditional.body.effects.iter().filter(|b| b.symbol == effect.symbol) {
                    amounts.push((effect.amount + bonus.amount, effect.symbol.clone()));
                }
            }
        }
    };
    add_bonuses(body);
    for field in &body.fields {
        if let Some(inner) = &field.body {
            add_bonuses(inner);
        }
    }
    let mut stack: Vec<&Body> = vec![body];
    while let Some(current) = stack.pop() {
        for field in &current.fields {
            let symbol = field.each_value().find_map(|v| match v {
                Value::Name(n) if symbols.contains(&n.as_str()) => Some(n.clone()),
                _ => None,
            });
            if let Some(symbol) = symbol {
                for value in field.each_value() {
                    if let Value::Int(n) = value {
                        amounts.push((*n, symbol.clone()));
                    }
                }
            }
            stack.extend(field.body.as_deref());
        }
    }
    amounts
}

/// `(amount, symbol)` the card's keywords deal by the effects their
/// declarations give them: `blaze(3)`, declared with `effect strike damage
/// heat`, is 3 damage.
fn keyword_amounts(body: &Body, ruleset: &Ruleset) -> Vec<(i64, String)> {
    let mut amounts = Vec::new();
    let mut stack: Vec<&Body> = vec![body];
    while let Some(current) = stack.pop() {
        for field in &current.fields {
            for value in field.each_value() {
                let Value::Keyword { id, args } = value else { continue };
                let Some(keyword) = ruleset.keyword(id) else { continue };
                let amount_of = |effect: &KeywordEffect| match &effect.amount {
                    KeywordAmount::Fixed(n) => Some(*n),
                    KeywordAmount::Param(name) => argument(keyword, args, name),
                };
                let (bonuses, bases): (Vec<&KeywordEffect>, Vec<&KeywordEffect>) =
                    keyword.effects.iter().partition(|e| e.when.is_some());
                for base in &bases {
                    amounts.extend(amount_of(base).map(|n| (n, base.symbol.clone())));
                }
                // A conditional bonus alone, and added to each base effect
                // of its symbol, as the text may state either.
                for bonus in bonuses {
                    let Some(n) = amount_of(bonus) else { continue };
                    amounts.push((n, bonus.symbol.clone()));
                    let same = bases.iter().filter(|b| b.symbol == bonus.symbol).filter_map(|b| amount_of(b));
                    amounts.extend(same.map(|base| (base + n, bonus.symbol.clone())));
                }
            }
            stack.extend(field.body.as_deref());
        }
        stack.extend(nested(current));
    }
    amounts
}

/// The whole number a card gives the keyword's parameter `name`, when each
/// parameter before it takes one value (so that its place is certain).
fn argument(keyword: &KeywordDef, args: &[Spanned<Value>], name: &str) -> Option<i64> {
    let at = keyword.params.iter().position(|p| p.name == name)?;
    if keyword.params[..at].iter().any(|p| p.ty.repeat != Repeat::One) {
        return None;
    }
    match args.get(at)?.value {
        Value::Int(n) => Some(n),
        _ => None,
    }
}

/// Amounts the text states next to an icon: `+2 {damage}`, `8 {damage}`.
fn stated_amounts(text: &str) -> Vec<(i64, String, String)> {
    let mut stated = Vec::new();
    let mut offset = 0;
    while let Some(open) = text[offset..].find('{') {
        let rest = &text[offset..];
        let Some(len) = rest[open..].find('}') else { break };
        let icon = &rest[open + 1..open + len];
        let before = text[..offset + open].trim_end();
        let token_start = before
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_ascii_digit() || *c == '+'))
            .map(|(i, c)| i + c.len_utf8())
            .unwrap_or(0);
        let token = &before[token_start..];
        let digits: String = token.chars().filter(char::is_ascii_digit).collect();
        if let Ok(amount) = digits.parse::<i64>() {
            stated.push((amount, icon.to_string(), token.to_string()));
        }
        offset += open + len + 1;
    }
    stated
}

fn structure<'a>(context: &Context<'a>, card: &'a Card, texts: &[&Field], found: &mut Vec<Found<'a>>) {
    let Some(lint) = lint(TEXT_STRUCTURE_MISMATCH.name) else { return };
    let effects = effects(&card.body);
    let symbols: Vec<&str> = context.game.ruleset.symbols.iter().map(|s| s.id.as_str()).collect();
    let amounts = structured_amounts(&card.body, &context.game.ruleset);
    let mut mentioned: Vec<String> = Vec::new();
    for field in texts {
        for value in &field.values {
            let Value::Text(text) = &value.value else { continue };
            for (amount, icon, written) in stated_amounts(&text.raw) {
                if !symbols.contains(&icon.as_str()) {
                    continue;
                }
                mentioned.push(icon.clone());
                if !amounts.contains(&(amount, icon.clone())) {
                    let diagnostic = Diagnostic::warning(
                        lint.code,
                        format!(
                            "the text of `{}` says `{written} {{{icon}}}` but no effect of the card is {amount} {icon}",
                            card.name
                        ),
                    )
                    .primary(value.span, "the text says this")
                    .help("make the text and the effect lines agree");
                    found.push(context.finding(lint, diagnostic, Some(card)));
                }
            }
            for icon in text.parts.iter().filter_map(|p| match p {
                crate::ir::TextPart::Icon(i) => Some(i.clone()),
                _ => None,
            }) {
                mentioned.push(icon);
            }
        }
    }
    let prose: String = texts
        .iter()
        .flat_map(|f| f.each_value())
        .filter_map(|v| if let Value::Text(t) = v { Some(t.raw.to_lowercase()) } else { None })
        .collect::<Vec<_>>()
        .join(" ");
    for effect in effects {
        let display =
            context.game.ruleset.symbols.iter().find(|s| s.id == effect.symbol).map(|s| s.display.to_lowercase());
        let named = mentioned.contains(&effect.symbol) || display.is_some_and(|d| prose.contains(&d));
        if !named {
            let diagnostic = Diagnostic::warning(
                lint.code,
                format!(
                    "`{}` has {} {} effect its text never mentions",
                    card.name,
                    crate::ruleset::names::article(&effect.symbol),
                    effect.symbol
                ),
            )
            .primary(effect.span, "not in the card's text")
            .help(format!("mention it in the text, e.g. `{} {{{}}}`", effect.amount, effect.symbol));
            found.push(context.finding(lint, diagnostic, Some(card)));
        }
    }
}

fn keyword_spelling<'a>(
    context: &Context<'a>,
    vocabulary: &Vocabulary<'_>,
    card: &'a Card,
    source: &QuotedText<'_>,
    found: &mut Vec<Found<'a>>,
) {
    let Some(lint) = lint(KEYWORD_SPELLING.name) else { return };
    let keywords = &context.game.ruleset.keywords;
    for index in vocabulary.keywords_in(source) {
        let keyword = &keywords[index];
        let display = keyword.display.as_str();
        let multi_word = display.contains(' ');
        let id = keyword.id.contains('-').then_some(keyword.id.as_str());
        for spelling in std::iter::once(display).chain(id) {
            for (start, end) in source.find_words(spelling) {
                let written = &source.text[start..end];
                let lowercase_prose = !multi_word && written == written.to_lowercase();
                if written == display || lowercase_prose {
                    continue;
                }
                let span = source.span(start, end);
                let diagnostic = Diagnostic::warning(lint.code, format!("keyword `{display}` is written `{written}`"))
                    .primary(span, format!("write `{display}`"))
                    .help("`cardsmith lint --fix` rewrites it");
                let (mut finding, levels) = context.finding(lint, diagnostic, Some(card));
                finding.fix = Some(Fix { span, replacement: display.to_string() });
                found.push((finding, levels));
            }
        }
    }
}

/// A short form the terminology lint may report.
struct ShortForm<'a> {
    /// The last word of the full term, in lower case.
    word: String,
    full: &'a str,
    /// Multi-word terms and card names holding `word`: an occurrence inside
    /// one of them is part of that name, not a shortening.
    within: Vec<&'a str>,
}

/// The short forms of the game's terms that are certain, and the
/// keywords by their first word: made once per game.
pub(super) struct Vocabulary<'a> {
    short_forms: Vec<ShortForm<'a>>,
    /// The keywords (by index) a spelling of which starts with a word, by
    /// that word in lower case: a text can only hold those whose word it has.
    keywords_by_first_word: std::collections::HashMap<String, Vec<usize>>,
    /// The keywords a spelling of which starts with no word: always looked for.
    keywords_always: Vec<usize>,
    /// The first bytes and lengths of those first words: most words of a
    /// text are told apart by these before any lookup.
    first_word_bytes: [bool; 256],
    first_word_lengths: u64,
}

impl Vocabulary<'_> {
    /// The indices, in order, of the keywords a text may spell.
    fn keywords_in(&self, source: &QuotedText<'_>) -> Vec<usize> {
        let mut found = self.keywords_always.clone();
        for word in source.words() {
            let length_bit = 1u64 << word.len().min(63);
            if self.first_word_bytes[word.as_bytes()[0] as usize] && self.first_word_lengths & length_bit != 0 {
                found.extend(self.keywords_by_first_word.get(word).into_iter().flatten());
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

/// The keywords of a ruleset by the first word of their spellings (see
/// [`Vocabulary::keywords_by_first_word`]).
fn keywords_by_first_word(ruleset: &Ruleset) -> (std::collections::HashMap<String, Vec<usize>>, Vec<usize>) {
    let mut by_word: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
    let mut always = Vec::new();
    for (index, keyword) in ruleset.keywords.iter().enumerate() {
        let id = keyword.id.contains('-').then_some(keyword.id.as_str());
        for spelling in std::iter::once(keyword.display.as_str()).chain(id) {
            match first_word(spelling) {
                Some(word) => by_word.entry(word).or_default().push(index),
                None => always.push(index),
            }
        }
    }
    (by_word, always)
}

impl<'a> Vocabulary<'a> {
    /// A symbol's name has a short form only when the name is a term of two
    /// or three capitalised words (`Resource Burn` → `burn`), not a phrase
    /// (`Destroy target base`), and the short form is certain: no other name
    /// the ruleset declares (a term, a kind, a field, a tag…) ends with it or
    /// holds it as a word.
    pub(super) fn of(context: &Context<'a>) -> Vocabulary<'a> {
        let ruleset = &context.game.ruleset;
        let terms = ruleset_terms(ruleset);
        let mut uses: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for term in &terms {
            for word in words_of(term) {
                *uses.entry(word.to_lowercase()).or_default() += 1;
            }
        }
        let short_forms: Vec<ShortForm<'a>> = ruleset
            .symbols
            .iter()
            .filter_map(|symbol| {
                let parts: Vec<&str> = symbol.display.split(' ').collect();
                let title_case = parts.iter().all(|w| w.chars().next().is_some_and(char::is_uppercase));
                let word = parts.last()?.to_lowercase();
                // The symbol's own name holds the word once, its id maybe once more.
                let own = 1 + usize::from(symbol.id.to_lowercase() == word);
                let certain = uses.get(&word).copied().unwrap_or(0) <= own;
                ((2..=3).contains(&parts.len()) && title_case && certain).then(|| ShortForm {
                    word,
                    full: symbol.display.as_str(),
                    within: Vec::new(),
                })
            })
            .collect();
        let (keywords_by_first_word, keywords_always) = keywords_by_first_word(ruleset);
        let mut first_word_bytes = [false; 256];
        let mut first_word_lengths = 0u64;
        for word in keywords_by_first_word.keys() {
            first_word_bytes[word.as_bytes()[0] as usize] = true;
            // Words of 63 bytes or more share a bit.
            first_word_lengths |= 1u64 << word.len().min(63);
        }
        let mut vocabulary =
            Vocabulary { short_forms, keywords_by_first_word, keywords_always, first_word_bytes, first_word_lengths };
        if vocabulary.short_forms.is_empty() {
            return vocabulary;
        }
        let names = terms.into_iter().filter(|t| t.contains(' ')).chain(context.card_names());
        for name in names {
            for word in words_of(name) {
                if let Some(form) = vocabulary.short_forms.iter_mut().find(|f| f.word.eq_ignore_ascii_case(word)) {
                    form.within.push(name);
                }
            }
        }
        vocabulary
    }
}

fn words_of(name: &str) -> impl Iterator<Item = &str> {
    name.split(|c: char| c.is_whitespace() || c == '-' || c == '_').filter(|w| !w.is_empty())
}

/// Every name and word the ruleset declares, ids and printed names alike.
fn ruleset_terms(ruleset: &crate::ruleset::model::Ruleset) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let named = ruleset.symbols.iter().chain(&ruleset.icons).chain(&ruleset.arcs);
    out.extend(named.flat_map(|n| [n.id.as_str(), n.display.as_str()]));
    out.extend(ruleset.roles.iter().flat_map(|r| [r.id.as_str(), r.display.as_str()]));
    out.extend(ruleset.ranges.iter().flat_map(|b| [b.id.as_str(), b.display.as_str()]));
    out.extend(ruleset.deck_symbols.iter().flat_map(|d| [d.id.as_str(), d.display.as_str()]));
    out.extend(ruleset.keywords.iter().flat_map(|k| [k.id.as_str(), k.display.as_str()]));
    out.extend(ruleset.tags.iter().flat_map(|t| [t.id.as_str(), t.display.as_str()]));
    let states = ruleset.conditions.iter().chain(&ruleset.quantities);
    out.extend(states.flat_map(|c| [c.id.as_str(), c.display.as_str()]));
    out.extend(ruleset.deck_types.iter().flat_map(|d| [d.id.as_str(), d.display.as_str()]));
    out.extend(
        ruleset.enums.iter().flat_map(|e| std::iter::once(e.id.as_str()).chain(e.values.iter().map(String::as_str))),
    );
    for kind in &ruleset.kinds {
        out.extend([kind.id.as_str(), kind.display.as_str()]);
        out.extend(kind.schema.fields.iter().map(|f| f.name.as_str()));
    }
    out
}

fn terminology<'a>(
    context: &Context<'a>,
    vocabulary: &Vocabulary<'_>,
    card: &'a Card,
    source: &QuotedText<'_>,
    found: &mut Vec<Found<'a>>,
) {
    let Some(lint) = lint(TERMINOLOGY_DRIFT.name) else { return };
    for form in &vocabulary.short_forms {
        let full = form.full;
        for (start, end) in source.find_words(&form.word) {
            let inside_name = form.within.iter().flat_map(|name| source.find_words(name));
            if inside_name.into_iter().any(|(a, b)| a <= start && end <= b) {
                continue;
            }
            let span = source.span(start, end);
            let written = &source.text[start..end];
            // `burn 1 card` uses the word as a verb: the term, a noun, would
            // not read (`Resource Burn 1 card`), so it is no certain fix.
            let as_verb = followed_by_number(&source.text[end..]);
            let help = if as_verb {
                format!("where the word names the effect, write `{full}`; followed by a number it reads as a verb, so `--fix` leaves it")
            } else {
                "`cardsmith lint --fix` writes the full term".to_string()
            };
            let diagnostic = Diagnostic::warning(lint.code, format!("`{written}` is called `{full}` in this game"))
                .primary(span, format!("write `{full}`"))
                .help(help);
            let (mut finding, levels) = context.finding(lint, diagnostic, Some(card));
            finding.fix = (!as_verb).then(|| Fix { span, replacement: full.to_string() });
            found.push((finding, levels));
        }
    }
}

/// Whether the text after a word starts, past spaces, with a number.
fn followed_by_number(after: &str) -> bool {
    after.trim_start_matches([' ', '\t']).starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::{matches, stated_amounts};

    #[test]
    fn finds_what_match_indices_finds() {
        for (haystack, needle) in [
            ("aaaa", "aa"),
            ("xab ab ab", "ab ab"),
            ("flak-screen flak", "flak"),
            ("", "a"),
            ("ab", "abc"),
            ("é é", "é"),
        ] {
            let expected: Vec<(usize, usize)> =
                haystack.match_indices(needle).map(|(at, m)| (at, at + m.len())).collect();
            assert_eq!(matches(haystack, needle).collect::<Vec<_>>(), expected, "{needle} in {haystack}");
        }
    }

    #[test]
    fn reads_amounts_next_to_icons() {
        let found = stated_amounts("Deal 8 {damage}; at Long range +2 {damage}. Move {move}.");
        let amounts: Vec<(i64, &str, &str)> = found.iter().map(|(n, i, w)| (*n, i.as_str(), w.as_str())).collect();
        assert_eq!(amounts, vec![(8, "damage", "8"), (2, "damage", "+2")]);
    }
}
