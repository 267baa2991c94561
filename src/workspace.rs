//! A set of sources checked together: the entry point for the command line,
//! tests and editors.  Sources come in as bytes or text; nothing here touches
//! the file system.  Files are parsed when the workspace is checked, all
//! together, spread over the machine's cores ([`syntax::parse_many`]).

use crate::cache::{ByGame, Checked};
use crate::check;
use crate::diagnostics::{self, Diagnostic};
use crate::ir::Project;
use crate::source::{FileId, Files};
use crate::spreadsheet::sheet::{self, Loaded, Sheet};
use crate::syntax::{self, ast::SourceTree};

#[derive(Default)]
pub struct Workspace {
    pub files: Files,
    /// Files loaded but not parsed yet.
    unparsed: Vec<FileId>,
    trees: Vec<(FileId, SourceTree)>,
    /// Each parsed file's syntax diagnostics, also in `diagnostics`: kept
    /// with its tree by [`Workspace::check_keeping_parses`].
    parse_diagnostics: Vec<Vec<Diagnostic>>,
    diagnostics: Vec<Diagnostic>,
    /// Files the user gave, as opposed to bundled rulesets added for them.
    user_files: usize,
    lints: crate::lint::Config,
    /// What a check before kept for this one to reuse.
    cache: Option<Cache>,
    /// Spreadsheets of cards, their tables read; their cards are made once
    /// the rulesets are parsed.
    sheets: Vec<Loaded>,
}

/// What one check keeps for the next (see [`crate::cache`]): each game's
/// checked cards and their lints.
#[derive(Default)]
pub struct Cache {
    checked: ByGame<Checked>,
    linted: ByGame<crate::lint::KeptFindings>,
}

/// One file's syntax tree and syntax diagnostics, kept from a check so that
/// the next check of the same text, as the same file of the table, need not
/// parse it again (an editor checks again on every change).
pub struct Parsed {
    file: FileId,
    /// The text as given, byte-order mark included.
    text: String,
    tree: SourceTree,
    diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// The file of the table it was parsed as.
    pub fn file(&self) -> FileId {
        self.file
    }
}

/// The result of checking a workspace.
pub struct Outcome {
    pub files: Files,
    pub project: Project,
    /// Certain fixes the lints offer (`cardsmith lint --fix`).
    pub fixes: Vec<crate::lint::Fix>,
    /// Sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    pub stats: Stats,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub files: usize,
    pub cards: usize,
    pub decks: usize,
    pub errors: usize,
    pub warnings: usize,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// Sets the lint levels of the project (`[lints]` in `cardsmith.toml`).
    pub fn set_lint_config(&mut self, config: crate::lint::Config) {
        self.lints = config;
    }

    /// Adds a file read from disk.
    pub fn add_bytes(&mut self, name: &str, bytes: Vec<u8>) {
        self.user_files += 1;
        if let Some(id) = syntax::load(&mut self.files, name, bytes, &mut self.diagnostics) {
            self.unparsed.push(id);
        }
    }

    /// Adds a file from text in memory.
    pub fn add_text(&mut self, name: &str, text: &str) {
        self.add_bytes(name, text.as_bytes().to_vec());
    }

    /// Adds a spreadsheet of cards, read from disk: its cards are checked
    /// with the others, and every problem in them is shown at its cell.
    pub fn add_sheet(&mut self, sheet: Sheet, bytes: &[u8]) {
        self.user_files += 1;
        let loaded = sheet::load(&mut self.files, sheet, bytes, &mut self.diagnostics);
        self.sheets.push(loaded);
    }

    /// Adds the card text of each sheet, once the rulesets it needs are
    /// parsed, and parses it; the names of the cards its rows with problems
    /// did not make are lost names of its tree, which nothing reports again.
    fn add_sheet_cards(&mut self) {
        let mut lost = Vec::new();
        for loaded in std::mem::take(&mut self.sheets) {
            if let Some((file, names)) = sheet::cards(&mut self.files, &self.trees, &loaded, &mut self.diagnostics) {
                self.unparsed.push(file);
                lost.push((file, names));
            }
        }
        self.parse_added();
        for (file, names) in lost {
            if let Some((_, tree)) = self.trees.iter_mut().find(|(id, _)| *id == file) {
                tree.unparsed_names.extend(names);
            }
        }
    }

    /// Moves what points into the card text of a sheet to the cells it
    /// came from; a lint's fix there is no edit anyone can make, and goes.
    fn to_sheets(&self, diagnostics: &mut [Diagnostic], fixes: &mut Vec<crate::lint::Fix>) {
        for label in diagnostics.iter_mut().flat_map(|d| d.labels.iter_mut()) {
            label.span = self.files.origin(label.span);
        }
        fixes.retain(|fix| !self.files.is_derived(fix.span.file));
    }

    /// Adds a file from text in memory, with its parse from an earlier check
    /// when that parse is of the same text as the same file of the table;
    /// otherwise the text is parsed with the others.
    pub fn add_parsed(&mut self, name: &str, text: &str, parsed: Option<Parsed>) {
        let next = FileId(self.files.len() as u32);
        match parsed {
            Some(parsed) if parsed.file == next && parsed.text == text => {
                self.user_files += 1;
                let id = self.files.add(name, parsed.text);
                self.diagnostics.extend(parsed.diagnostics.iter().cloned());
                self.trees.push((id, parsed.tree));
                self.parse_diagnostics.push(parsed.diagnostics);
            }
            _ => self.add_text(name, text),
        }
    }

    /// Parses every file added since the last call, in the order added.
    fn parse_added(&mut self) {
        let ids = std::mem::take(&mut self.unparsed);
        for (id, (tree, diagnostics)) in ids.iter().zip(syntax::parse_many(&self.files, &ids)) {
            self.diagnostics.extend(diagnostics.iter().cloned());
            self.parse_diagnostics.push(diagnostics);
            self.trees.push((*id, tree));
        }
    }

    /// Adds the bundled ruleset of every game the content names that no given
    /// ruleset declares.
    fn add_bundled_rulesets(&mut self) {
        loop {
            let declared: Vec<String> =
                self.trees.iter().filter_map(|(_, t)| check::ruleset_id(t)).map(str::to_string).collect();
            let mut wanted: Vec<String> = self
                .trees
                .iter()
                .filter_map(|(_, t)| check::game_of(t).or_else(|| check::extended_id(t)))
                .chain(self.sheets.iter().map(|s| s.sheet.game.as_str()))
                .filter(|g| !declared.iter().any(|d| d == g))
                .map(str::to_string)
                .collect();
            wanted.sort();
            wanted.dedup();
            let bundled: Vec<(&str, &str)> = wanted.iter().filter_map(|g| check::builtin::find(g)).collect();
            if bundled.is_empty() {
                return;
            }
            for (name, text) in bundled {
                let id = self.files.add(name, text);
                self.unparsed.push(id);
            }
            self.parse_added();
        }
    }

    pub fn check(self) -> Outcome {
        self.check_inner(false).0
    }

    /// Gives the check the results a check before kept
    /// ([`Workspace::check_keeping_parses`]): each card whose text, place
    /// and context are unchanged is not checked or linted again.
    pub fn reuse(&mut self, cache: Cache) {
        self.cache = Some(cache);
    }

    /// Checks, and gives back the parse of every file given (bundled
    /// rulesets aside) for [`Workspace::add_parsed`] in the next check, and
    /// what checking and linting each card gave, for [`Workspace::reuse`].
    pub fn check_keeping_parses(self) -> (Outcome, Vec<Parsed>, Cache) {
        self.check_inner(true)
    }

    fn check_inner(mut self, keep: bool) -> (Outcome, Vec<Parsed>, Cache) {
        self.parse_added();
        self.add_bundled_rulesets();
        self.add_sheet_cards();
        let mut diagnostics = std::mem::take(&mut self.diagnostics);
        let mut cache = keep.then(|| self.cache.take().unwrap_or_default());
        let rules = if cache.is_some() { check::rules_fingerprint(&self.files, &self.trees) } else { 0 };
        let project = check::check_cached(
            &self.files,
            &self.trees,
            &mut diagnostics,
            cache.as_mut().map(|cache| (&mut cache.checked, rules)),
        );
        let errors: Vec<crate::source::Span> =
            diagnostics.iter().filter(|d| d.is_error()).filter_map(|d| d.primary_span()).collect();
        // Freeing millions of tree nodes takes a while: done beside the lints.
        let trees = std::mem::take(&mut self.trees);
        let (linted, trees) = std::thread::scope(|scope| {
            let kept = scope.spawn(move || {
                if keep {
                    trees
                } else {
                    drop(trees);
                    Vec::new()
                }
            });
            let cache = cache.as_mut().map(|cache| (&mut cache.linted, rules));
            let linted = crate::lint::run_cached(&self.files, &project, &self.lints, &errors, cache);
            (linted, kept.join().unwrap_or_default())
        });
        let parses = self.parses(trees);
        diagnostics.extend(linted.diagnostics);
        let mut fixes = linted.fixes;
        self.to_sheets(&mut diagnostics, &mut fixes);
        diagnostics::sort(&mut diagnostics);
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let stats = Stats {
            files: self.user_files,
            cards: project.games.iter().map(|g| g.cards.len()).sum(),
            decks: project.games.iter().map(|g| g.decks.len()).sum(),
            errors,
            warnings: diagnostics.len() - errors,
        };
        let outcome = Outcome { files: self.files, project, fixes, diagnostics, stats };
        (outcome, parses, cache.unwrap_or_default())
    }

    /// The parses of the given files, to keep.
    fn parses(&mut self, trees: Vec<(FileId, SourceTree)>) -> Vec<Parsed> {
        let given = self.files.len().min(self.user_files);
        let diagnostics = std::mem::take(&mut self.parse_diagnostics);
        trees
            .into_iter()
            .zip(diagnostics)
            .filter(|((id, _), _)| (id.0 as usize) < given)
            .map(|((file, tree), diagnostics)| {
                let source = self.files.get(file);
                let bom = if source.had_bom { "\u{feff}" } else { "" };
                Parsed { file, text: format!("{bom}{}", source.text), tree, diagnostics }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(outcome: &Outcome) -> Vec<(&'static str, u32)> {
        outcome.diagnostics.iter().map(|d| (d.code.id, d.primary_span().map_or(0, |s| s.start))).collect()
    }

    #[test]
    fn a_kept_parse_checks_as_a_fresh_one() {
        let a = "game dreadnaught-2e\n\noffense \"A\" {\n  symbol kinetic\n  at 2.4 { impact damage 8 }\n  text \"{damge}\"\n}\n";
        let b = "game dreadnaught-2e\n\noffense \"B\" {\n  symbol kinetic\n  at 2.4 { impact damage 8 }\n  ) oops\n}\n";
        let mut first = Workspace::new();
        first.add_text("a.cards", a);
        first.add_text("b.cards", b);
        let (fresh, parses, _) = first.check_keeping_parses();
        assert_eq!(parses.len(), 2, "the given files, not the bundled ruleset");
        // Parses given for the wrong files are not taken: each is parsed again.
        let mut swapped = Workspace::new();
        let mut parses = parses.into_iter();
        let (pa, pb) = (parses.next(), parses.next());
        swapped.add_parsed("a.cards", a, pb);
        swapped.add_parsed("b.cards", b, pa);
        let (second, parses, _) = swapped.check_keeping_parses();
        assert_eq!(codes(&fresh), codes(&second));
        // Given for the right files, they are taken.
        let mut parses = parses.into_iter();
        let mut again = Workspace::new();
        again.add_parsed("a.cards", a, parses.next());
        again.add_parsed("b.cards", b, parses.next());
        let third = again.check();
        assert_eq!(codes(&fresh), codes(&third));
        assert!(codes(&third).iter().any(|(code, _)| *code == "E0001"), "{:?}", codes(&third));
    }

    /// Every diagnostic, as shown, and every card, as the engine data gives
    /// it: what a check reusing kept results must give exactly as a fresh one.
    fn everything(outcome: &Outcome) -> (String, String) {
        let shown = crate::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
        let cards: Vec<String> =
            outcome.project.games.iter().flat_map(|g| &g.cards).map(|c| format!("{c:?}")).collect();
        (shown, cards.join("\n"))
    }

    /// Checks the files with the results a check of `before` kept, and
    /// afresh: both must give the same.
    fn check_after(before: &[(&str, &str)], after: &[(&str, &str)]) -> Outcome {
        let mut first = Workspace::new();
        for (name, text) in before {
            first.add_text(name, text);
        }
        let (_, _, cache) = first.check_keeping_parses();
        let (mut reusing, mut fresh) = (Workspace::new(), Workspace::new());
        reusing.reuse(cache);
        for (name, text) in after {
            reusing.add_text(name, text);
            fresh.add_text(name, text);
        }
        let (reused, _, _) = reusing.check_keeping_parses();
        let fresh = fresh.check();
        assert_eq!(everything(&reused), everything(&fresh));
        reused
    }

    #[test]
    fn a_check_reusing_kept_results_gives_what_a_fresh_one_does() {
        let card = |name: &str, text: &str| {
            format!("offense \"{name}\" {{\n  symbol kinetic\n  arc narrow\n  at 2.4 {{ impact damage 8 }}\n  text \"{text}\"\n}}\n")
        };
        let file = |cards: &[String]| format!("game dreadnaught-2e\n\n{}", cards.join("\n"));
        let a = file(&[card("A", "Deal 8 {damage}."), card("B", "Deal 8 {damage}.")]);
        let b = file(&[card("C", "Deal 8 {damage}.")]);
        // One card's text edited: a lint and an error appear, the rest is kept.
        let edited = file(&[card("A", "Deal 9 {damge}."), card("B", "Deal 8 {damage}.")]);
        let outcome = check_after(&[("a.cards", &a), ("b.cards", &b)], &[("a.cards", &edited), ("b.cards", &b)]);
        assert!(!outcome.diagnostics.is_empty());
        // A card renamed to another's name: the names given twice are checked
        // again whatever was kept.
        let renamed = file(&[card("C", "Deal 8 {damage}."), card("B", "Deal 8 {damage}.")]);
        let outcome = check_after(&[("a.cards", &a), ("b.cards", &b)], &[("a.cards", &renamed), ("b.cards", &b)]);
        assert!(outcome.diagnostics.iter().any(|d| d.code.id == "E0204" || d.message.contains("two cards")));
        // The same files again: everything is reused, not checked again,
        // so the cards are the very ones the first check made.
        let mut first = Workspace::new();
        first.add_text("a.cards", &a);
        let (before, _, cache) = first.check_keeping_parses();
        let mut again = Workspace::new();
        again.reuse(cache);
        again.add_text("a.cards", &a);
        let (after, _, _) = again.check_keeping_parses();
        let cards = |outcome: &Outcome| outcome.project.games.iter().flat_map(|g| g.cards.clone()).collect::<Vec<_>>();
        let (before, after) = (cards(&before), cards(&after));
        assert_eq!(before.len(), 2);
        assert!(before.iter().zip(&after).all(|(b, a)| std::sync::Arc::ptr_eq(b, a)), "the kept cards are reused");
        // A file added after the others: the bundled ruleset has another
        // place in the table, and a kept problem that points into it must
        // point into it still.
        let system = "game dreadnaught-2e\n\nsystem \"S\" {\n  symbol basic-weapons\n  hp +2\n  move 4 2 3.0\n  battlefield \"The map is not changed.\"\n  reverse {\n    deploy \"Anywhere.\"\n  }\n}\n";
        let outcome = check_after(&[("b.cards", system)], &[("b.cards", system), ("c.cards", &a)]);
        let shown = crate::diagnostics::render::human_string(&outcome.files, &outcome.diagnostics);
        assert!(shown.contains("the rule, declared here"), "{shown}");
    }
}
