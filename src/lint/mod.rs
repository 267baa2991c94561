//! Card-text lints: problems that do not make a card wrong for the rules but
//! that a player would notice — text that disagrees with the card's effects,
//! misspelt keywords, drifting terminology, near-duplicate names.
//!
//! Each lint has a stable name and code, a default level (allow, warn, deny)
//! and its explanation next to its definition ([`catalogue`]).  Levels are set
//! in `cardsmith.toml` (`[lints]`) and per card or deck in the source
//! (`allow near-duplicate-names`).  Lints run on the checked IR; a few offer a
//! fix that is certain (casing, terminology), applied by `cardsmith lint --fix`.

mod catalogue;
mod names;
mod rules;
mod text;

pub use catalogue::{Lint, CODES, LINTS};

use crate::cache::{ByGame, ItemKey, Kept};
use crate::diagnostics::{Diagnostic, Severity};
use crate::ir::{Card, Game, LintLevel, Project};
use crate::source::{Files, Span};
use std::collections::BTreeMap;

pub use crate::ir::Level;

/// Project-wide levels, from `cardsmith.toml`.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub levels: BTreeMap<String, Level>,
}

/// A certain edit: replace the text of `span` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub span: Span,
    pub replacement: String,
}

/// What one lint found, before levels decide whether and how it is shown.
#[derive(Clone)]
pub(crate) struct Finding {
    pub lint: &'static Lint,
    pub diagnostic: Diagnostic,
    pub fix: Option<Fix>,
}

/// A finding with the lint levels written on its card or deck.
pub(crate) type Found<'a> = (Finding, &'a [LintLevel]);

/// The result of linting.
#[derive(Default)]
pub struct Outcome {
    pub diagnostics: Vec<Diagnostic>,
    pub fixes: Vec<Fix>,
}

/// Runs every lint over the project.  Cards with errors (`errors` holds the
/// spans the checker reported) are not linted: their problems are already
/// reported, and lints would only repeat them.
pub fn run(files: &Files, project: &Project, config: &Config, errors: &[Span]) -> Outcome {
    run_cached(files, project, config, errors, None)
}

/// Like [`run`], reusing what `cache` kept of the lints of each card whose
/// text, place and context are unchanged, and keeping this run's for the
/// next.  `rules` is the fingerprint of the rulesets' texts.
pub(crate) fn run_cached(
    files: &Files,
    project: &Project,
    config: &Config,
    errors: &[Span],
    mut cache: Option<(&mut ByGame<KeptFindings>, u64)>,
) -> Outcome {
    let mut outcome = Outcome::default();
    let mut findings: Vec<Found<'_>> = Vec::new();
    let mut errors = errors.to_vec();
    errors.sort_unstable();
    let errors = errors.as_slice();
    for game in &project.games {
        let context = Context { files, game, errors, lost_names: &project.lost_names };
        // The lints of one card read only that card: spread over the cores,
        // beside the lints about names, which read them all.
        let clean: Vec<&Card> = context.clean_cards().collect();
        let vocabulary = text::Vocabulary::of(&context);
        let kept = cache.as_mut().map(|(cache, rules)| {
            let names: Vec<&str> = game.cards.iter().map(|c| c.name.as_str()).collect();
            let kept = cache.remove(&game.ruleset.id).unwrap_or_default();
            kept.for_context(crate::cache::fingerprint(&[(*rules, names)]))
        });
        let (per_card, about_names) = std::thread::scope(|scope| {
            let about_names = scope.spawn(|| {
                let mut found = Vec::new();
                names::run(&context, &mut found);
                found
            });
            let per_card = crate::parallel::map(&crate::parallel::chunks(&clean), |cards| {
                lint_cards(&context, &vocabulary, cards, kept.as_ref())
            });
            match about_names.join() {
                Ok(found) => (per_card, found),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        });
        let (mut rules_found, mut used, mut fresh) = (Vec::new(), Vec::new(), Vec::new());
        for share in per_card {
            findings.extend(share.text);
            rules_found.extend(share.rules);
            used.extend(share.used);
            fresh.extend(share.fresh);
        }
        if let (Some((cache, _)), Some(kept)) = (cache.as_mut(), kept) {
            cache.insert(game.ruleset.id.clone(), kept.renewed(files, used, fresh));
        }
        findings.extend(about_names);
        findings.extend(rules_found);
        rules::recommendations(&context, &mut findings);
    }
    for (finding, levels) in findings {
        let (level, set_by) = level_of(finding.lint, config, levels);
        let severity = match level {
            Level::Allow => continue,
            Level::Warn => Severity::Warning,
            Level::Deny => Severity::Error,
        };
        let mut diagnostic = finding.diagnostic;
        diagnostic.severity = severity;
        diagnostic = diagnostic.note(format!("`{}` is {} {set_by}", finding.lint.name, past(level)));
        if let Some(fix) = finding.fix {
            outcome.fixes.push(fix);
        }
        outcome.diagnostics.push(diagnostic);
    }
    check_level_names(project, &mut outcome.diagnostics);
    outcome
}

/// The findings of the lints of one card each, for a share of a game's
/// cards: those about its text and those about its rules.
#[derive(Default)]
struct CardFindings<'a> {
    text: Vec<Found<'a>>,
    rules: Vec<Found<'a>>,
    /// Cards whose kept findings were reused.
    used: Vec<ItemKey>,
    /// Cards linted afresh, with their findings, to keep.
    fresh: Vec<(ItemKey, KeptFindings)>,
}

/// One card's findings: about its text, and about its rules.
pub(crate) type KeptFindings = (Vec<Finding>, Vec<Finding>);

fn lint_cards<'a>(
    context: &Context<'a>,
    vocabulary: &text::Vocabulary<'_>,
    cards: &[&'a Card],
    kept: Option<&Kept<KeptFindings>>,
) -> CardFindings<'a> {
    let mut out = CardFindings::default();
    let Some(kept) = kept else {
        text::run(context, vocabulary, cards, &mut out.text);
        rules::run(context, cards, &mut out.rules);
        return out;
    };
    for &card in cards {
        let key = ItemKey::of(card.extent);
        let levels = card.lint_levels.as_slice();
        if let Some((text, rules)) = kept.get(context.files, key) {
            out.text.extend(text.iter().map(|finding| (finding.clone(), levels)));
            out.rules.extend(rules.iter().map(|finding| (finding.clone(), levels)));
            out.used.push(key);
            continue;
        }
        let (text_from, rules_from) = (out.text.len(), out.rules.len());
        text::run(context, vocabulary, &[card], &mut out.text);
        rules::run(context, &[card], &mut out.rules);
        let own = |found: &[Found<'a>]| found.iter().map(|(finding, _)| finding.clone()).collect();
        out.fresh.push((key, (own(&out.text[text_from..]), own(&out.rules[rules_from..]))));
    }
    out
}

fn past(level: Level) -> &'static str {
    match level {
        Level::Allow => "allowed",
        Level::Warn => "a warning",
        Level::Deny => "an error",
    }
}

/// A lint's level for one finding, and what set it: the lint's default,
/// the project's `[lints]`, or an `allow`, `warn` or `deny` line of the card
/// or deck.
fn level_of(lint: &Lint, config: &Config, source: &[LintLevel]) -> (Level, &'static str) {
    let mut level = match config.levels.get(lint.name) {
        Some(level) => (*level, "by `[lints]` in cardsmith.toml"),
        None => (lint.default, "by default"),
    };
    for attribute in source {
        if attribute.lint == lint.name {
            let line = match attribute.level {
                Level::Allow => "by an `allow` line of this card or deck",
                Level::Warn => "by a `warn` line of this card or deck",
                Level::Deny => "by a `deny` line of this card or deck",
            };
            level = (attribute.level, line);
        }
    }
    level
}

/// Every lint name in the source or the configuration must exist.
fn check_level_names(project: &Project, diagnostics: &mut Vec<Diagnostic>) {
    let names = LINTS.iter().map(|l| l.name);
    for game in &project.games {
        let attributes =
            game.cards.iter().flat_map(|c| &c.lint_levels).chain(game.decks.iter().flat_map(|d| &d.lint_levels));
        for attribute in attributes {
            if lint(&attribute.lint).is_none() {
                diagnostics.push(
                    Diagnostic::warning(&catalogue::UNKNOWN_LINT, format!("unknown lint `{}`", attribute.lint))
                        .primary(attribute.span, "no lint has this name")
                        .suggest(crate::check::suggest(&attribute.lint, names.clone())),
                );
            }
        }
    }
}

/// A lint by name.
pub fn lint(name: &str) -> Option<&'static Lint> {
    LINTS.iter().find(|l| l.name == name)
}

/// What every lint reads.
pub(crate) struct Context<'a> {
    pub files: &'a Files,
    pub game: &'a Game,
    /// Sorted, so that finding the errors inside a card is a binary search.
    errors: &'a [Span],
    /// Names given by items that did not parse.
    pub lost_names: &'a std::collections::HashSet<String>,
}

impl<'a> Context<'a> {
    /// A finding about a card (whose levels apply) or about the game.
    pub fn finding(&self, lint: &'static Lint, diagnostic: Diagnostic, card: Option<&'a Card>) -> Found<'a> {
        let levels: &'a [LintLevel] = card.map(|c| c.lint_levels.as_slice()).unwrap_or(&[]);
        (Finding { lint, diagnostic, fix: None }, levels)
    }

    /// The cards that checked without errors.
    pub fn clean_cards(&self) -> impl Iterator<Item = &'a Card> {
        let errors = self.errors;
        self.game.cards.iter().map(|c| &**c).filter(move |c| {
            let card = c.extent;
            let first = errors.partition_point(|e| (e.file, e.start) < (card.file, card.start));
            !errors[first..]
                .iter()
                .take_while(|e| e.file == card.file && e.start <= card.end)
                .any(|e| e.end <= card.end)
        })
    }

    /// The cards of the game by name.
    pub fn card_names(&self) -> impl Iterator<Item = &'a str> {
        self.game.cards.iter().map(|c| c.name.as_str())
    }
}

/// Applies fixes to a file's text; overlapping fixes after the first are skipped.
pub fn apply_fixes(text: &str, fixes: &[Fix]) -> String {
    let mut sorted: Vec<&Fix> = fixes.iter().collect();
    sorted.sort_by_key(|f| (f.span.start, f.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for fix in sorted {
        let (start, end) = (fix.span.start as usize, fix.span.end as usize);
        if start < at || end > text.len() {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(&fix.replacement);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// `docs/lints.md`, generated from the lint definitions.
pub fn docs_markdown() -> String {
    let mut out = String::from(
        "# Lints\n\n<!-- Generated from src/lint/catalogue.rs; `cargo test --test lints` fails when this file is stale. -->\n\n\
Lints find card text that a player would stumble over.  `cardsmith check` and\n\
`cardsmith lint` run them; `cardsmith lint --fix` applies the fixes marked below,\n\
which are certain, and nothing else.\n\n\
Set a lint's level for the whole project in `cardsmith.toml`:\n\n```toml\n[lints]\ncard-in-no-deck = \"warn\"\nnear-duplicate-names = \"deny\"\n```\n\n\
or for one card or deck, with a line in it:\n\n```\noffense \"Kinetic Strikes\" {\n  allow near-duplicate-names\n  ...\n}\n```\n\n\
`allow` hides a lint, `warn` reports it as a warning, `deny` as an error (exit status 1).\n\n\
| lint | code | default | fix |\n| --- | --- | --- | --- |\n",
    );
    for lint in LINTS {
        out.push_str(&format!(
            "| [`{}`](#{}) | {} | {} | {} |\n",
            lint.name,
            lint.name,
            lint.code.id,
            lint.default.word(),
            if lint.fixable { "yes" } else { "" }
        ));
    }
    for lint in LINTS {
        out.push_str(&format!(
            "\n## {}\n\n`{}`, {} by default.\n\n{}\n",
            lint.name,
            lint.code.id,
            lint.default.word(),
            lint.code.explanation
        ));
    }
    out
}
