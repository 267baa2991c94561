//! The typed rule language on a one-kind ruleset: what rules compile to,
//! what they evaluate to, and the mistake each wrong rule is refused for.

use super::{Compiled, Evaluation, Pool, PoolEntry};
use crate::diagnostics::Diagnostic;
use crate::ir::{Body, Card};
use crate::ruleset::model::Ruleset;
use crate::source::{FileId, Files, Span};
use crate::syntax::ast::MAX_EXPR_DEPTH;

/// A ruleset of one kind of card and the given lines, read and checked.
fn ruleset(lines: &str) -> (Ruleset, Vec<Diagnostic>, Files) {
    let mut files = Files::new();
    let text = format!(
        "ruleset chains {{\n  title \"Chains\"\n}}\n\nenum size {{ small; large }}\n\n\
         symbol gold \"Gold\"\nrole gain \"Gain\" {{\n  colour yellow\n  mark square\n  applies-to \"you\"\n}}\n\
         keyword named \"Named\" {{\n  param symbols symbol+\n}}\nkeyword counted \"Counted\" {{\n  param n int\n}}\n\n\
         kind token \"Token\" {{\n  field worth int\n  field size size\n  field keywords keyword+\n  field words text\n}}\n\n{lines}\n"
    );
    let id = files.add("chains.rules", text);
    let mut diagnostics = Vec::new();
    let tree = crate::syntax::parse(&files, id, &mut diagnostics);
    let ruleset = crate::ruleset::load(&files, id, &tree, &[], &mut diagnostics);
    (ruleset.unwrap_or_else(|| panic!("no ruleset: {diagnostics:?}")), diagnostics, files)
}

fn token() -> Card {
    let span = Span::new(FileId(0), 0, 0);
    Card {
        name: "A".to_string(),
        kind: crate::ir::KindId::new(0, "token"),
        tags: Vec::new(),
        body: Body::default(),
        span,
        extent: span,
        lint_levels: Vec::new(),
    }
}

fn one_card() -> Pool {
    Pool {
        entries: vec![PoolEntry {
            card: 0,
            count: 1,
            span: Span::new(FileId(0), 0, 0),
            tags: Box::default(),
            positions: Box::default(),
        }],
        ..Pool::default()
    }
}

/// A rule's value over a pool of one card, and the evaluation's summary:
/// a truth as a play limit, a number as a deck type's computed value.
fn evaluate(rule: &str, truth: bool) -> (i64, String) {
    let line = if truth {
        format!("play-limit \"rule\" {rule}")
    } else {
        format!("deck-type d \"D\" {{\n  compute \"value\" {rule}\n}}")
    };
    let (ruleset, diagnostics, _) = ruleset(&line);
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let compiled: &Compiled = if truth {
        ruleset.play_limits[0].compiled.as_deref().expect("compiled")
    } else {
        ruleset.deck_types[0].computed[0].compiled.as_deref().expect("compiled")
    };
    let card = token();
    let cards = [&card];
    let mut evaluation = Evaluation::new(&ruleset, &cards);
    let value = evaluation.value(compiled, &one_card());
    (value, evaluation.summary())
}

/// A rule of a second kind, `probe`, on one card: its summary.
fn card_rule_summary(rule: &str) -> String {
    let (ruleset, diagnostics, _) = ruleset(&probe(rule));
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let compiled = ruleset.kinds[1].schema.rules[0].compiled.as_deref().expect("compiled");
    let card = token();
    let cards = [&card];
    let mut evaluation = Evaluation::new(&ruleset, &cards);
    evaluation.holds(compiled, &one_card());
    evaluation.summary()
}

/// A kind whose one rule is `rule`.
fn probe(rule: &str) -> String {
    format!("kind probe \"Probe\" {{\n  field worth int\n  require \"r\" {rule}\n}}")
}

fn number(rule: &str) -> i64 {
    evaluate(rule, false).0
}

fn truth(rule: &str) -> i64 {
    evaluate(rule, true).0
}

fn joined(term: &str, op: &str, n: usize) -> String {
    vec![term; n].join(op)
}

#[test]
fn long_chains_fold_from_the_left() {
    assert_eq!(number(&joined("1", " + ", 100_000)), 100_000);
    assert_eq!(number(&format!("200000 - {}", joined("1", " - ", 100_000))), 100_000);
    assert_eq!(number(&format!("{} * 2", joined("1", " * ", 100_000))), 2);
    assert_eq!(truth(&joined("1 == 1", " and ", 100_000)), 1);
    assert_eq!(truth(&format!("{} and 1 == 0", joined("1 == 1", " and ", 100_000))), 0);
    assert_eq!(truth(&format!("{} or 7 > 1", joined("0 == 1", " or ", 100_000))), 1);
    assert_eq!(truth(&joined("0 == 1", " or ", 100_000)), 0);
    // (1 == 1) is a truth, and so is each comparison after it.
    assert_eq!(truth(&format!("1 == 1{}", " == (2 * 3 - 10 / 5 == 4)".repeat(1_000))), 1);
    assert_eq!(truth("7 - 2 - 1 == 4 != (0 < 2)"), 0);
}

#[test]
fn sums_stop_at_the_largest_number() {
    let max = i64::MAX.to_string();
    assert_eq!(number(&joined(&max, " + ", 100_000)), i64::MAX);
    assert_eq!(number(&format!("0 - {}", joined(&max, " - ", 1_000))), i64::MIN);
    assert_eq!(number(&joined(&max, " * ", 1_000)), i64::MAX);
    assert_eq!(number("7 / 0"), 0);
}

#[test]
fn filters_join_and_nest() {
    assert_eq!(number("count(token and not (worth or token))"), 0);
    assert_eq!(number("count(not (token and worth))"), 1);
    assert_eq!(number(&format!("count({})", joined("worth", " or ", 10_000) + " or token")), 1);
    assert_eq!(number(&format!("count({})", joined("token", " and ", 10_000) + " and worth")), 0);
    let (value, summary) = evaluate("all(not (token and not worth))", true);
    assert_eq!(value, 0);
    // A truth is not counted in the summary: the rule's message says what
    // does not hold, and its note echoes the rule with its brackets.
    assert_eq!(summary, "here");
}

#[test]
fn and_and_or_stop_at_the_deciding_side() {
    assert_eq!(evaluate("count(worth) == 1 and count() == 1", true).1, "here 0 cards matching `worth`");
    assert_eq!(evaluate("count() == 1 or count(worth) == 1", true).1, "here 1 card");
}

#[test]
fn a_summary_names_the_first_counts() {
    let calls: Vec<String> = (1..=20).map(|i| format!("value(worth, {i})")).collect();
    let summary = card_rule_summary(&format!("{} == 1", calls.join(" + ")));
    assert!(
        summary.starts_with("here 0, where exactly 1 is wanted: `worth` is 0, number 2 of `worth` is 0"),
        "{summary}"
    );
    assert!(summary.ends_with("number 8 of `worth` is 0, and 12 more"), "{summary}");
    let (_, summary) = evaluate(&joined("count()", " + ", 100_000), false);
    assert_eq!(summary, "here 1 card");
}

#[test]
fn the_deepest_rules_check_on_a_small_stack() {
    // Every level of nesting holds a run of each precedence.
    let depth = MAX_EXPR_DEPTH;
    let rule = format!("{}1 == 1{}", "1 == 1 or 1 == 1 and 1 == 1 + 1 * 1 - 1 or (".repeat(depth), ")".repeat(depth));
    let filter = format!("count({}token{})", "token and (worth or ".repeat(depth - 1), ")".repeat(depth - 1));
    // A quarter of the stack a worker thread gets by default.
    let small = std::thread::Builder::new().stack_size(512 * 1024);
    let values = small
        .spawn(move || (truth(&rule), number(&filter)))
        .and_then(|thread| thread.join().map_err(|_| std::io::Error::other("overflow")));
    assert_eq!(values.ok(), Some((1, 1)));
}

#[test]
fn mistakes_in_long_rules_are_each_reported() {
    let (_, diagnostics, _) = ruleset(&format!("play-limit \"rule\" {}", joined("x", " + ", 1_000)));
    assert_eq!(diagnostics.len(), 1_000);
    assert!(diagnostics.iter().all(|d| d.message == "`x` is not a value in a rule"));
    let (_, diagnostics, _) = ruleset("play-limit \"rule\" count(worth == 1 == 2)");
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].message, "a field test compares one field with one value");
}

/// A function misnamed, or given arguments it does not take.
#[test]
fn each_misused_function_is_refused_at_its_place() {
    assert_refused(&[
        ("play-limit \"r\" cuont(token) == 1", "E0420", "`cuont` is not a rule function", "cuont"),
        (&probe("value(worth) == 1"), "E0421", "`value` takes 2 arguments, not 1", "value(worth)"),
        (
            "deck-type d \"D\" {\n  includes d\n  require \"r\" every(1 == 1, 2 == 2)\n}",
            "E0422",
            "expected a deck type here",
            "1 == 1",
        ),
        (
            "deck-type d \"D\" {\n  includes d\n  require \"r\" some()\n}",
            "E0421",
            "`some` takes a rule, after any deck types",
            "some()",
        ),
        ("play-limit \"r\" sum() == 1", "E0421", "`sum` takes at least 1 argument, not 0", "sum()"),
        (
            "play-limit \"r\" each-row(worth)",
            "E0421",
            "`each-row` takes at least 2 arguments, not 1",
            "each-row(worth)",
        ),
        (&probe("numbers(worth, 2) == 1"), "E0421", "`numbers` takes 1 argument, not 2", "2"),
        (
            "play-limit \"r\" count(mentions()) == 0",
            "E0421",
            "`mentions` takes a text field, then an optional filter",
            "mentions()",
        ),
        (
            "play-limit \"r\" count(says(words)) == 0",
            "E0421",
            "`says` takes a text field and the quoted words",
            "says(words)",
        ),
    ]);
}

/// A function where the rule is not about what it reads.
#[test]
fn each_function_out_of_its_place_is_refused() {
    assert_refused(&[
        (
            "play-limit \"r\" value(worth, 1) == 1",
            "E0426",
            "`value` reads the one card a kind's rule is about, and this rule is about many",
            "value",
        ),
        (
            "deck-type d \"D\" {\n  require \"r\" every(count() == 1)\n}",
            "E0426",
            "`every` looks into included decks, and decks of this type include none",
            "every",
        ),
        (&probe("some(count() == 1)"), "E0426", "`some` looks into the decks a deck includes", "some"),
    ]);
}

/// A truth where a number is wanted, or a number where a truth is.
#[test]
fn each_truth_and_number_mixed_up_is_refused() {
    assert_refused(&[
        (
            "play-limit \"r\" count(token)",
            "E0422",
            "expected a truth (a comparison, `all(...)`, `any(...)`), found a number",
            "count(token)",
        ),
        (
            "play-limit \"r\" any(token) + 1 == 2",
            "E0422",
            "expected a number, found a truth (a comparison, `all(...)`, `any(...)`)",
            "any(token)",
        ),
        (
            "play-limit \"r\" count() == 1 == 1",
            "E0422",
            "`==` compares a truth (a comparison, `all(...)`, `any(...)`) with a number",
            "1",
        ),
        ("play-limit \"r\" (1 == 1) < (2 == 2)", "E0422", "`<` compares numbers, not truths", "(2 == 2)"),
        (
            "play-limit \"r\" count() and any(token)",
            "E0422",
            "expected a truth (a comparison, `all(...)`, `any(...)`), found a number",
            "count()",
        ),
        (
            "play-limit \"r\" not count()",
            "E0422",
            "expected a truth (a comparison, `all(...)`, `any(...)`), found a number",
            "count()",
        ),
        (
            "deck-type d \"D\" {\n  compute \"v\" any(token)\n}",
            "E0422",
            "expected a number, found a truth (a comparison, `all(...)`, `any(...)`)",
            "any(token)",
        ),
    ]);
}

/// A name the ruleset does not have, or a value a field cannot hold.
#[test]
fn each_unknown_name_is_refused_at_its_place() {
    assert_refused(&[
        ("play-limit \"r\" sum(token) == 1", "E0423", "`token` is not a field of this ruleset", "token"),
        (
            "play-limit \"r\" count(tokn) == 1",
            "E0423",
            "`tokn` is not a kind, tag, keyword or field of this ruleset",
            "tokn",
        ),
        (
            "deck-type d \"D\" {\n  includes d\n  require \"r\" decks(dek) == 1\n}",
            "E0423",
            "`dek` is not a deck type of this ruleset",
            "dek",
        ),
        (
            "play-limit \"r\" count(size == smal) == 1",
            "E0424",
            "`smal` is not a value `size` can hold, so this test never holds",
            "smal",
        ),
        (
            "play-limit \"r\" sum-rows(size, huge) == 1",
            "E0424",
            "`huge` is not a value `size` can hold, so this test never holds",
            "huge",
        ),
        ("play-limit \"r\" effects(role == gian) == 0", "E0423", "`gian` is not a role of this ruleset", "gian"),
        (
            "play-limit \"r\" effects(gold, silver) == 0",
            "E0423",
            "`silver` is not a role or symbol of this ruleset",
            "silver",
        ),
        (
            "play-limit \"r\" effects(plus == behind) == 0",
            "E0424",
            "`behind` is not where an amount's `+` can be, so this test never holds",
            "behind",
        ),
        ("play-limit \"r\" args(nameless) == 0", "E0423", "`nameless` is not a keyword of this ruleset", "nameless"),
        (
            "play-limit \"r\" rows(worth, tokn) == 0",
            "E0423",
            "`tokn` is not a kind, tag, keyword or field of this ruleset",
            "tokn",
        ),
    ]);
}

/// A filter that tests what it cannot.
#[test]
fn each_wrong_filter_is_refused_at_its_place() {
    assert_refused(&[
        (
            "play-limit \"r\" count(1 + 2) == 0",
            "E0422",
            "expected a filter: a kind, tag or keyword, or `field == value`",
            "1 + 2",
        ),
        (
            "play-limit \"r\" effects(1) == 0",
            "E0422",
            "expected an effect filter: a role or symbol, or `role == cost`",
            "1",
        ),
        (
            "play-limit \"r\" effects(colour == red) == 0",
            "E0422",
            "an effect line is tested by its role, symbol, amount or plus",
            "colour == red",
        ),
        (
            "play-limit \"r\" count(counted == small) == 0",
            "E0422",
            "a keyword is tested by its argument: a number or `arg`",
            "small",
        ),
        (
            "play-limit \"r\" count(says(worth, \"x\")) == 0",
            "E0422",
            "`says` reads a text field, and `worth` holds none",
            "worth",
        ),
    ]);
}

/// `arg` outside `each-arg`, or where it is not a number.
#[test]
fn each_misplaced_arg_is_refused_at_its_place() {
    assert_refused(&[
        ("play-limit \"r\" arg == 1", "E0422", "`arg` stands for a keyword's argument only inside `each-arg`", "arg"),
        ("play-limit \"r\" each-arg(named, arg >= 1)", "E0422", "the arguments of `named` are not numbers", "arg"),
        (
            "play-limit \"r\" each-arg(counted, effects(symbol == arg) >= 1) and arg == 1",
            "E0422",
            "`arg` stands for a keyword's argument only inside `each-arg`",
            "arg",
        ),
        (
            "play-limit \"r\" count(counted == arg) == 1",
            "E0422",
            "`arg` stands for a keyword's argument only inside `each-arg`",
            "arg",
        ),
    ]);
}

/// Each wrong rule: its one diagnostic's code, message and the text its
/// label points at.
fn assert_refused(cases: &[(&str, &str, &str, &str)]) {
    for &(line, code, message, at) in cases {
        let (ruleset, diagnostics, files) = ruleset(line);
        let found: Vec<(&str, &str, &str)> = diagnostics
            .iter()
            .map(|d| (d.code.id, d.message.as_str(), d.primary_span().map(|s| files.text(s)).unwrap_or("")))
            .collect();
        assert_eq!(found, [(code, message, at)], "{line}");
        // The rule is left out, so that nothing is said to break it.
        let kind_rules = ruleset.kinds.iter().map(|k| k.schema.rules.len()).sum::<usize>();
        let deck_rules = ruleset.deck_types.iter().map(|d| d.rules.len() + d.computed.len()).sum::<usize>();
        assert_eq!((ruleset.play_limits.len(), kind_rules, deck_rules), (0, 0, 0), "{line}");
    }
}

#[test]
fn a_suggestion_comes_with_an_unknown_name() {
    let (_, diagnostics, _) = ruleset("play-limit \"r\" count(tokn) == 1 and cuont() == 0");
    let suggested: Vec<Option<&str>> = diagnostics.iter().map(|d| d.help.as_deref()).collect();
    assert_eq!(suggested.len(), 2);
    assert!(suggested.iter().all(|h| h.is_some()), "{suggested:?}");
}

#[test]
fn the_parts_of_a_card_compile() {
    for rule in [
        "effects(role == gain and symbol != gold, amount >= 3, not gain) <= 1",
        "each-arg(named, effects(symbol == arg) >= 1)",
        "each-arg(counted, arg >= 1 and arg <= 3)",
        "args(named) <= 2 and numbers(worth) <= 1",
        "rows(keywords) <= 1 and each-row(keywords, named or counted)",
        "each-arg(counted, rows(keywords, counted == arg) >= 1) and count(counted != 2) <= 1",
    ] {
        let (ruleset, diagnostics, _) = ruleset(&probe(rule));
        assert!(diagnostics.is_empty(), "{rule}: {:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
        assert!(ruleset.kinds[1].schema.rules[0].compiled.is_some(), "{rule}");
    }
}

#[test]
fn a_name_filter_reads_the_name() {
    assert_eq!(number("count(name == \"A\")"), 1);
    assert_eq!(number("count(name != \"A\", name == \"B\")"), 0);
    // A quoted name keeps its spaces and escapes.
    let (spaced, diagnostics, _) = ruleset("play-limit \"r\" count(name == \"Big  \\\"One\\\"\") == 0");
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(spaced.play_limits[0].text, "count(name == \"Big  \\\"One\\\"\") == 0");
    let (_, diagnostics, _) = ruleset("play-limit \"r\" count(size == \"small\") == 0");
    assert_eq!(diagnostics[0].message, "only a card's name is compared with a quoted name");
    let (_, diagnostics, _) = ruleset("play-limit \"r\" \"A\" == 1");
    assert_eq!(diagnostics[0].message, "a quoted name is not a value in a rule");
}

#[test]
fn every_and_some_look_into_each_included_deck() {
    let (ruleset, diagnostics, _) = ruleset(
        "deck-type d \"D\" {\n  includes d\n  require \"a\" every(count() == 1)\n  require \"b\" some(count() == 1)\n}",
    );
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let span = Span::new(FileId(0), 0, 0);
    let included = |pool| super::Included { deck_type: crate::ir::DeckTypeId::new(0, "d"), span, pool };
    let pool = Pool { included: vec![included(one_card()), included(Pool::default())], ..Pool::default() };
    let card = token();
    let cards = [&card];
    let holds = |i: usize| {
        let compiled = ruleset.deck_types[0].rules[i].compiled.as_deref().expect("compiled");
        Evaluation::new(&ruleset, &cards).holds(compiled, &pool)
    };
    assert_eq!((holds(0), holds(1)), (false, true));
    // With no deck holding one card, `some` fails and says what each counted.
    let empty = Pool { included: vec![included(Pool::default())], ..Pool::default() };
    let compiled = ruleset.deck_types[0].rules[1].compiled.as_deref().expect("compiled");
    let mut evaluation = Evaluation::new(&ruleset, &cards);
    assert!(!evaluation.holds(compiled, &empty));
    assert_eq!(evaluation.summary(), "here 0 cards");
}

#[test]
fn every_and_some_may_look_into_decks_of_some_types() {
    let (ruleset, diagnostics, _) = ruleset(
        "deck-type d \"D\" {\n  includes d e\n  require \"a\" every(e, count() == 1)\n  \
         require \"b\" some(d, count() == 1)\n  require \"c\" every(d, e, count() == 1)\n}\n\
         deck-type e \"E\" {\n  require \"r\" count() >= 0\n}",
    );
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let span = Span::new(FileId(0), 0, 0);
    let included = |index, id, pool| super::Included { deck_type: crate::ir::DeckTypeId::new(index, id), span, pool };
    // A `d` deck of no cards and an `e` deck of one.
    let pool =
        Pool { included: vec![included(0, "d", Pool::default()), included(1, "e", one_card())], ..Pool::default() };
    let card = token();
    let cards = [&card];
    let holds: Vec<bool> = ruleset.deck_types[0]
        .rules
        .iter()
        .map(|rule| Evaluation::new(&ruleset, &cards).holds(rule.compiled.as_deref().expect("compiled"), &pool))
        .collect();
    assert_eq!(holds, [true, false, false]);
}

/// A comparison that fails against a bound worked out from the deck's
/// parameters says what the bound comes to, whichever side it is on; a
/// bound written as a number is in the rule's text already.
#[test]
fn a_bound_from_parameters_is_given_in_the_summary() {
    let summary = |rule: &str| {
        let line = format!("deck-type d \"D\" {{\n  param cap int 1..100 10\n  require \"r\" {rule}\n}}");
        let (ruleset, diagnostics, _) = ruleset(&line);
        assert!(diagnostics.is_empty(), "{:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
        let compiled = ruleset.deck_types[0].rules[0].compiled.as_deref().expect("compiled");
        let card = token();
        let cards = [&card];
        let mut evaluation = Evaluation::new(&ruleset, &cards).with_params(&[10]);
        assert!(!evaluation.holds(compiled, &one_card()), "{rule} should fail");
        evaluation.summary()
    };
    assert_eq!(summary("count() <= cap * 5 / 100"), "here 1 card, cap is 10, the limit is 0");
    assert_eq!(summary("cap * 50 / 100 >= count() + 9"), "here cap is 10, 1 card, the limit is 5");
    assert_eq!(summary("count() >= cap - 8"), "here 1 card, cap is 10, the least allowed is 2");
    assert_eq!(summary("count() == 2"), "here 1 card");
}

/// `shared` counts the cards that two or more included decks hold, and
/// names them; a card in one included deck only is not shared.
#[test]
fn shared_finds_a_card_held_by_two_included_decks() {
    let (ruleset, diagnostics, _) = ruleset("deck-type d \"D\" {\n  includes d\n  require \"r\" shared() == 0\n}");
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let span = |start| Span::new(FileId(0), start, start + 1);
    let included = |at, pool| super::Included { deck_type: crate::ir::DeckTypeId::new(0, "d"), span: span(at), pool };
    let card = token();
    let cards = [&card];
    let compiled = ruleset.deck_types[0].rules[0].compiled.as_deref().expect("compiled");
    let alone = Pool { included: vec![included(1, one_card()), included(2, Pool::default())], ..Pool::default() };
    assert!(Evaluation::new(&ruleset, &cards).holds(compiled, &alone));
    let twice = Pool { included: vec![included(1, one_card()), included(2, one_card())], ..Pool::default() };
    let mut evaluation = Evaluation::new(&ruleset, &cards);
    assert!(!evaluation.holds(compiled, &twice));
    assert_eq!(evaluation.named, Some(("cards in more than one included deck".to_string(), vec![card.name.as_str()])));
    assert_eq!(evaluation.culprits, [span(1), span(2)]);
    assert_eq!(evaluation.summary(), "here 1 card in more than one included deck");
}

/// `says` finds whole words in any letter case and spacing, never a part of
/// a longer word.
#[test]
fn says_finds_whole_words_of_a_text() {
    let text =
        |raw: &str| crate::ir::Text { raw: raw.to_string(), parts: vec![crate::ir::TextPart::Plain(raw.to_string())] };
    let says = |raw: &str, words: &[&str]| {
        let words: Vec<Box<str>> = words.iter().map(|w| Box::from(*w)).collect();
        super::eval::says(&text(raw), &words)
    };
    assert!(says("May attack into your Rear  arc.", &["rear", "arc"]));
    assert!(says("REAR", &["rear"]));
    assert!(!says("Rearm your ship.", &["rear"]));
    assert!(!says("Forward only.", &["rear"]));
    assert!(!says("Rear, then the arc.", &["rear", "arc"]));
    assert!(says("Ärger", &["ärger"]));
    // A card's name is not the text's own words; an icon keeps words apart.
    let parts = |parts: Vec<crate::ir::TextPart>| crate::ir::Text { raw: String::new(), parts };
    let named = parts(vec![
        crate::ir::TextPart::Plain("Play with ".into()),
        crate::ir::TextPart::CardRef("Rear Arc Battery".into()),
    ]);
    assert!(!super::eval::says(&named, &["rear".into(), "arc".into()]));
    let icon = parts(vec![
        crate::ir::TextPart::Plain("Rear ".into()),
        crate::ir::TextPart::Icon("x".into()),
        crate::ir::TextPart::Plain(" arc".into()),
    ]);
    assert!(!super::eval::says(&icon, &["rear".into(), "arc".into()]));
}
