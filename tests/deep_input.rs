//! Long and deeply nested input through the command line: a construction
//! rule of 100,000 terms checks to the right value in well under two seconds,
//! and nesting deeper than the limit is one diagnostic, never a stack
//! overflow.

mod common;
use common::{cardsmith, stderr};

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Each run takes a fraction of this in a debug build.
const QUICKLY: Duration = Duration::from_secs(2);

/// Timed runs take turns, so that one test's run does not slow another's.
static TURN: Mutex<()> = Mutex::new(());

/// How many terms the long rules join.
const TERMS: usize = 100_000;

/// What a run of `cardsmith check` gave: its exit code and the code of every
/// diagnostic, with the human-readable output for failure messages.
struct Checked {
    exit: Option<i32>,
    codes: Vec<String>,
    /// The primary label of each diagnostic.
    labels: Vec<String>,
    shown: String,
}

impl Checked {
    /// Asserts how the run ended: its exit code and the codes of its
    /// diagnostics, in order.
    fn gave(&self, exit: i32, codes: &[&str]) -> &Checked {
        let found: Vec<&str> = self.codes.iter().map(String::as_str).collect();
        assert_eq!((self.exit, &found[..]), (Some(exit), codes), "{}", self.shown);
        self
    }
}

/// A fresh folder holding `files` (name and text).
fn project(files: &[(&str, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

/// Runs `cardsmith ARGS .` in `dir`, taking turns with the other runs; it
/// must end quickly.  Gives its output and, for failure messages, the start
/// of what it printed.
fn run(args: &[&str], dir: &Path) -> (std::process::Output, String) {
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let started = Instant::now();
    let output = cardsmith(&[args, &["."]].concat(), dir);
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = format!("{}{}", &stdout[..stdout.len().min(2000)], stderr(&output));
    assert!(took < QUICKLY, "{args:?} took {took:?}: {shown}");
    (output, shown)
}

/// Checks `files` in machine-readable form.
fn check(files: &[(&str, String)]) -> Checked {
    let dir = project(files);
    let (output, shown) = run(&["check", "--message-format", "json"], dir.path());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let diagnostics: Vec<serde_json::Value> =
        stdout.lines().map(|line| serde_json::from_str(line).expect("a JSON diagnostic")).collect();
    let text = |d: &serde_json::Value, key: &str| d[key].as_str().unwrap_or_default().to_string();
    Checked {
        exit: output.status.code(),
        codes: diagnostics.iter().map(|d| text(d, "code")).collect(),
        labels: diagnostics.iter().map(|d| text(&d["labels"][0], "message")).collect(),
        shown,
    }
}

/// A ruleset of one kind of card and one deck type holding `rule`; a pile
/// may include piles, so that `every` means something in its rules.
fn ruleset(rule: &str) -> (&'static str, String) {
    let text = format!(
        "ruleset chains {{\n  title \"Chains\"\n}}\n\nkind token \"Token\" {{\n  field worth int\n}}\n\n\
         deck-type pile \"Pile\" {{\n  includes pile\n  require \"the long rule\" {rule}\n}}\n"
    );
    ("chains.rules", text)
}

/// A deck of 100,000 copies of one card of the ruleset.
fn deck() -> (&'static str, String) {
    let text =
        format!("game chains\n\ntoken \"A\" {{ worth 1 }}\n\ndeck \"Stack\" pile {{\n  card \"A\" x{TERMS}\n}}\n");
    ("stack.cards", text)
}

/// `term` `TERMS` times, joined by `op`.
fn joined(term: &str, op: &str) -> String {
    vec![term; TERMS].join(op)
}

/// The rule holds on the deck: no diagnostic.
fn holds(rule: &str) {
    check(&[ruleset(rule), deck()]).gave(0, &[]);
}

/// The rule is broken by the deck: one diagnostic, saying what was counted.
fn is_broken(rule: &str, counted: &str) {
    let checked = check(&[ruleset(rule), deck()]);
    assert_eq!(checked.gave(1, &["E0401"]).labels, [counted], "{}", checked.shown);
}

#[test]
fn a_sum_of_100000_ones_is_100000() {
    holds(&format!("count() == {}", joined("1", "+")));
    is_broken(
        &format!("count() == {} + 1", joined("1", "+")),
        "here 100000, where exactly 100001 is wanted: 100000 cards",
    );
}

#[test]
fn terms_joined_by_and_hold_when_all_do() {
    holds(&joined("count() == 100000", " and "));
    // The last term decides; the summary names each count once.
    is_broken(&format!("{} and count() == 0", joined("count() == 100000", " and ")), "here 100000 cards");
}

#[test]
fn terms_joined_by_or_hold_when_one_does() {
    holds(&format!("{} or count() == 100000", joined("count() == 0", " or ")));
    is_broken(&format!("{} or count() == 0", joined("count() == 0", " or ")), "here 100000 cards");
}

#[test]
fn a_chain_of_100000_comparisons_of_mixed_sums_folds_from_the_left() {
    // Every sum is 1 (`*` and `/` before `+` and `-`), and each comparison's
    // truth is compared with the next one's: true == true == … holds.
    let terms = joined("(2 * 3 - 10 / 2 == 1)", " == ");
    holds(&format!("count() / 100000 == 2 * 3 - 10 / 2 == {terms}"));
    // (2 == 1) does not hold, and neither does false == true, all the way
    // along.
    is_broken(
        &format!("count() / 50000 == 2 * 3 - 10 / 2 == {terms}"),
        "here 2, where exactly 1 is wanted: 100000 cards",
    );
}

/// The rule is refused with one diagnostic, too deep, whose label says
/// `label`: the rule alone is left out, so the deck of its type raises
/// nothing more.
fn too_deep(rule: &str, label: &str) {
    let checked = check(&[ruleset(rule), deck()]);
    assert_eq!(checked.gave(1, &["E0014"]).labels, [label], "{}", checked.shown);
}

/// `open` `depth` times, `inner`, then `close` as many times.
fn nested(open: &str, inner: &str, close: &str, depth: usize) -> String {
    format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
}

#[test]
fn brackets_nest_32_deep_and_no_deeper() {
    check(&[ruleset(&nested("(", "1 == 1", ")", 32))]).gave(0, &[]);
    // A call is a level too: 31 brackets around `count()` are 32 levels.
    holds(&format!("{} == 100000", nested("(", "count()", ")", 31)));
    too_deep(&format!("{} == 1", nested("(", "count()", ")", 32)), "this call is too deep");
    too_deep(&format!("{} == 1", nested("(", "count()", ")", 33)), "this `(` is too deep");
    too_deep(&format!("{} == 1", nested("(", "count()", ")", 1_000_000)), "this `(` is too deep");
}

#[test]
fn calls_nest_32_deep_and_no_deeper() {
    holds(&nested("every(", "count() == 100000", ")", 31));
    check(&[ruleset(&nested("every(", "1 == 1", ")", 32))]).gave(0, &[]);
    too_deep(&nested("every(", "1", ")", 33), "this call is too deep");
    too_deep(&nested("every(", "1", ")", 200_000), "this call is too deep");
}

#[test]
fn not_nests_32_deep_and_no_deeper() {
    // 30 `not`s, a bracket and a call are 32 levels.
    is_broken(&nested("not ", "(count() == 0)", "", 30), "here 100000 cards");
    // 32 `not`s read; the rule is then refused for its type alone (`1` is
    // a number, not a truth), there being no level left for a comparison's
    // brackets or a call.
    check(&[ruleset(&nested("not ", "1", "", 32))]).gave(1, &["E0422"]);
    too_deep(&nested("not ", "1", "", 33), "this `not` is too deep");
    too_deep(&nested("not ", "1", "", 500_000), "this `not` is too deep");
    // Brackets, calls and `not` count together: 11 times three is 33.
    too_deep(&nested("not every((", "1", "))", 11), "this `(` is too deep");
}

#[test]
fn a_rule_that_does_not_read_is_one_mistake() {
    let checked = check(&[ruleset(&format!("{} +", joined("count()", " + "))), deck()]);
    assert_eq!(checked.gave(1, &["E0001"]).labels, ["expected an expression"], "{}", checked.shown);
}

#[test]
fn calls_in_a_card_nest_32_deep_and_no_deeper() {
    let card = |depth: usize| {
        let value = nested("set(", "x", ")", depth);
        ("deep.cards", format!("game dreadnaught-2e\n\noffense \"Deep\" {{\n  arc {value}\n}}\n"))
    };
    let checked = check(&[card(33)]);
    assert_eq!(checked.gave(1, &["E0014"]).labels, ["this call is too deep"]);
    // Brackets 65 deep are refused before parsing: still one diagnostic,
    // shown in a few lines, however deep they go.
    for depth in [65, 100_000] {
        let checked = check(&[card(depth)]);
        assert_eq!(checked.gave(1, &["E0005"]).labels, ["this `(` is too deep"], "{}", checked.shown);
    }
    let (output, shown) = run(&["check"], project(&[card(1_000_000)]).path());
    assert_eq!(output.status.code(), Some(1), "{shown}");
    assert!(output.stdout.len() + output.stderr.len() < 2000, "{shown}");
}

#[test]
fn a_rule_of_100000_terms_formats_and_builds() {
    let dir = project(&[ruleset(&format!("count()  ==  {}", joined("1", "  +  "))), deck()]);
    for args in [&["fmt"][..], &["fmt", "--check"], &["build"]] {
        let (output, shown) = run(args, dir.path());
        assert_eq!(output.status.code(), Some(0), "{args:?}: {shown}");
    }
    // The formatter keeps the rule as written, single-spaced; so does the
    // engine data.
    let rule = format!("count() == {}", joined("1", " + "));
    let formatted = std::fs::read_to_string(dir.path().join("chains.rules")).expect("formatted");
    assert!(formatted.contains(&format!("require \"the long rule\" {rule}\n")));
    let data = std::fs::read_to_string(dir.path().join("out/chains.json")).expect("engine data");
    assert!(data.contains(&format!("\"{rule}\"")));
}

/// Blank lines and comments between items are no part of an item's
/// complexity: 715,000 of them, before a card or alone, check as the card
/// alone would (this panicked, and an item after them was "too complex").
#[test]
fn a_million_blank_lines_are_no_item() {
    let blank = "\n".repeat(715_000);
    let comments = "// a note\n".repeat(100_000);
    check(&[deck(), ruleset("count() >= 1"), ("blank.cards", format!("game chains\n{blank}"))]).gave(0, &[]);
    let card = format!("game chains\n{blank}{comments}token \"B\" {{ worth 1 }}\n");
    check(&[ruleset("count() >= 1"), ("late.cards", card)]).gave(0, &[]);
    check(&[ruleset("count() >= 1"), ("crlf.cards", format!("game chains\n{}", "\r\n".repeat(715_000)))]).gave(0, &[]);
}
