//! The form of a literal token (`8+`, `D6+1`, `long..`, `x2`, `narrow`).
//!
//! The grammar defines the literal forms (`literal_form` in
//! `grammar/cardsmith.pest`) but, for speed, matches a literal as one token of
//! word characters and lets [`classify`] tell its form: trying fourteen rules
//! on every token was most of the parsing time.  `classify` reads a token
//! exactly as `literal_form ~ !atom_char` would — the first form that matches
//! a prefix decides, and the token is that form only if the match is the
//! whole token, else a word.  A test in `parser.rs` holds the two to the same
//! answer on every short token and many long ones.
//!
//! The forms that hold characters a token cannot (`0,-1`, `6"`) are still
//! told apart by the grammar.

/// The form of a literal.  [`classify`] returns every form but those a
/// token cannot hold (`Coord`, `Distance`, `SlashList`, `Bracketed`), which
/// the grammar tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Coord,
    Distance,
    /// `3"/6"`: distances joined by `/`, each a value of its own.
    Distances,
    SlashList,
    /// `[Ac]`: a name in square brackets, read as the name.
    Bracketed,
    Dice,
    SavePair,
    Range,
    BandRange,
    PlusAfter,
    Signed,
    Decimal,
    Integer,
    Copies,
    Star,
    Ident,
    Word,
}

/// The form of a token of word characters (`atom_char+`).
///
/// A token that starts like a set of names (`F/S`) is a word: where the set
/// is the whole value, the grammar's `slash_value` has already read it.
/// Matches a form at the start of a token: the length matched.
type FormMatcher = fn(&[u8]) -> Option<usize>;

pub(super) fn classify(token: &str) -> Form {
    let s = token.as_bytes();
    // In the grammar's order; a set of names makes a word (see above).
    let forms: [(Form, FormMatcher); 12] = [
        (Form::Dice, dice),
        (Form::SavePair, save_pair),
        (Form::Word, slash_list),
        (Form::BandRange, band_range),
        (Form::Range, range),
        (Form::PlusAfter, plus_after),
        (Form::Signed, signed),
        (Form::Decimal, decimal),
        (Form::Integer, integer),
        (Form::Copies, copies),
        (Form::Star, star),
        (Form::Ident, ident),
    ];
    for (form, matcher) in forms {
        if let Some(end) = matcher(s) {
            return if end == s.len() { form } else { Form::Word };
        }
    }
    Form::Word
}

fn digits(s: &[u8], mut i: usize) -> usize {
    while s.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// At least one digit from `i`: the end of the run.
fn some_digits(s: &[u8], i: usize) -> Option<usize> {
    let end = digits(s, i);
    (end > i).then_some(end)
}

fn byte(s: &[u8], i: usize, b: u8) -> Option<usize> {
    (s.get(i) == Some(&b)).then_some(i + 1)
}

/// `ident = (ASCII_ALPHA | "_") ~ (ASCII_ALPHANUMERIC | "_" | "-")*`, from `i`.
fn ident_at(s: &[u8], i: usize) -> Option<usize> {
    let first = *s.get(i)?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let mut end = i + 1;
    while s.get(end).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-') {
        end += 1;
    }
    Some(end)
}

/// `ASCII_DIGIT* ~ "D" ~ ASCII_DIGIT+ ~ (("+" | "-") ~ ASCII_DIGIT+)?`
fn dice(s: &[u8]) -> Option<usize> {
    let end = some_digits(s, byte(s, digits(s, 0), b'D')?)?;
    let modifier = match s.get(end) {
        Some(b'+' | b'-') => some_digits(s, end + 1),
        _ => None,
    };
    Some(modifier.unwrap_or(end))
}

/// `ASCII_DIGIT+ ~ "+" ~ "/" ~ ASCII_DIGIT+ ~ "+"`
fn save_pair(s: &[u8]) -> Option<usize> {
    let i = byte(s, byte(s, some_digits(s, 0)?, b'+')?, b'/')?;
    byte(s, some_digits(s, i)?, b'+')
}

/// `slash_item ~ ("/" ~ slash_item)+`; a token holds no `(`, so an item is
/// an identifier.
fn slash_list(s: &[u8]) -> Option<usize> {
    let mut end = ident_at(s, 0)?;
    let mut items = 1;
    while let Some(next) = byte(s, end, b'/').and_then(|i| ident_at(s, i)) {
        end = next;
        items += 1;
    }
    (items > 1).then_some(end)
}

/// `ident ~ ".." ~ ident?`
fn band_range(s: &[u8]) -> Option<usize> {
    let dots = byte(s, byte(s, ident_at(s, 0)?, b'.')?, b'.')?;
    Some(ident_at(s, dots).unwrap_or(dots))
}

/// `ASCII_DIGIT+ ~ (".." | "-") ~ ASCII_DIGIT*`
fn range(s: &[u8]) -> Option<usize> {
    let low = some_digits(s, 0)?;
    let separator = byte(s, low, b'.').and_then(|i| byte(s, i, b'.')).or_else(|| byte(s, low, b'-'))?;
    Some(digits(s, separator))
}

/// `ASCII_DIGIT+ ~ "+"`
fn plus_after(s: &[u8]) -> Option<usize> {
    byte(s, some_digits(s, 0)?, b'+')
}

/// `("+" | "-") ~ ASCII_DIGIT+`
fn signed(s: &[u8]) -> Option<usize> {
    let sign = byte(s, 0, b'+').or_else(|| byte(s, 0, b'-'))?;
    some_digits(s, sign)
}

/// `ASCII_DIGIT+ ~ "." ~ ASCII_DIGIT+`
fn decimal(s: &[u8]) -> Option<usize> {
    some_digits(s, byte(s, some_digits(s, 0)?, b'.')?)
}

/// `ASCII_DIGIT+`
fn integer(s: &[u8]) -> Option<usize> {
    some_digits(s, 0)
}

/// `"x" ~ ASCII_DIGIT+`
fn copies(s: &[u8]) -> Option<usize> {
    some_digits(s, byte(s, 0, b'x')?)
}

/// `"*"`
fn star(s: &[u8]) -> Option<usize> {
    byte(s, 0, b'*')
}

/// `ident`
fn ident(s: &[u8]) -> Option<usize> {
    ident_at(s, 0)
}

#[cfg(test)]
mod tests {
    use super::super::parser::{form_of, Grammar, Rule};
    use super::{classify, Form};
    use pest::Parser as _;

    /// What a rule reads at the start of `input`: the form and its text.
    fn read(rule: Rule, input: &str) -> Option<(Form, String)> {
        let literal = Grammar::parse(rule, input).ok()?.next()?;
        let inner = literal.into_inner().next()?;
        Some((form_of(&inner), inner.as_str().to_string()))
    }

    /// `literal` (a token told apart in Rust) and `literal_spec` (the forms
    /// as the grammar defines them) agree on `input`.
    fn agree(input: &str) {
        // A value never starts with a comment; a whole set of names is read
        // by `slash_value` before `literal` is tried.
        let spec = read(Rule::literal_spec, input);
        if input.starts_with("//") || matches!(spec, Some((Form::SlashList, _))) {
            return;
        }
        assert_eq!(read(Rule::literal, input), spec, "on {input:?}");
    }

    #[test]
    fn agrees_with_the_grammar_on_every_short_token_and_many_long_ones() {
        let alphabet: Vec<char> = "01Dxa-.+/*,\"() ".chars().collect();
        let mut input = String::new();
        // Every string of up to four characters of the alphabet.
        fn every(alphabet: &[char], input: &mut String, depth: usize) {
            agree(input);
            if depth == 4 {
                return;
            }
            for c in alphabet {
                input.push(*c);
                every(alphabet, input, depth + 1);
                input.pop();
            }
        }
        every(&alphabet, &mut input, 0);
        // Longer strings from a fixed generator, so failures reproduce.
        let mut state = 7u64;
        for _ in 0..20_000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let len = 5 + (state >> 60) as usize;
            let text: String = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    alphabet[(state >> 33) as usize % alphabet.len()]
                })
                .collect();
            agree(&text);
        }
    }

    #[test]
    fn reads_each_form() {
        let cases = [
            ("D6+4", Form::Dice),
            ("2D6", Form::Dice),
            ("D3", Form::Dice),
            ("3+/4+", Form::SavePair),
            ("1-3", Form::Range),
            ("11..", Form::Range),
            ("long..", Form::BandRange),
            ("close..medium", Form::BandRange),
            ("8+", Form::PlusAfter),
            ("+2", Form::Signed),
            ("-1", Form::Signed),
            ("5.9", Form::Decimal),
            ("26", Form::Integer),
            ("x2", Form::Copies),
            ("*", Form::Star),
            ("narrow", Form::Ident),
            ("X", Form::Ident),
            ("D", Form::Ident),
            ("x", Form::Ident),
        ];
        for (token, form) in cases {
            assert_eq!(classify(token), form, "{token}");
        }
    }

    #[test]
    fn a_form_that_stops_short_makes_a_word() {
        // `D6` is dice, so `D6x` is not an identifier but a word; `x2-3` is a
        // copy count followed by more.
        for token in ["D6x", "x2-3", "3+x", "5.", "F/S", "F/S.", "long..x.", "1-2-3", "**", "+"] {
            assert_eq!(classify(token), Form::Word, "{token}");
        }
    }
}
