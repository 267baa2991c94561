//! A set of sources checked together: the entry point for the command line,
//! tests and editors.  Sources come in as bytes or text; nothing here touches
//! the file system.  Files are parsed when the workspace is checked, all
//! together, spread over the machine's cores ([`syntax::parse_many`]).

use crate::check;
use crate::diagnostics::{self, Diagnostic};
use crate::ir::Project;
use crate::source::{FileId, Files};
use crate::syntax::{self, ast::SourceTree};

#[derive(Default)]
pub struct Workspace {
    pub files: Files,
    /// Files loaded but not parsed yet.
    unparsed: Vec<FileId>,
    trees: Vec<(FileId, SourceTree)>,
    diagnostics: Vec<Diagnostic>,
    /// Files the user gave, as opposed to bundled rulesets added for them.
    user_files: usize,
    lints: crate::lint::Config,
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

    /// Parses every file added since the last call, in the order added.
    fn parse_added(&mut self) {
        let ids = std::mem::take(&mut self.unparsed);
        for (id, (tree, diagnostics)) in ids.iter().zip(syntax::parse_many(&self.files, &ids)) {
            self.diagnostics.extend(diagnostics);
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

    pub fn check(mut self) -> Outcome {
        self.parse_added();
        self.add_bundled_rulesets();
        let mut diagnostics = std::mem::take(&mut self.diagnostics);
        let project = check::check(&self.files, &self.trees, &mut diagnostics);
        let errors: Vec<crate::source::Span> =
            diagnostics.iter().filter(|d| d.is_error()).filter_map(|d| d.primary_span()).collect();
        // Freeing millions of tree nodes takes a while: done beside the lints.
        let trees = std::mem::take(&mut self.trees);
        let linted = std::thread::scope(|scope| {
            scope.spawn(move || drop(trees));
            crate::lint::run(&self.files, &project, &self.lints, &errors)
        });
        diagnostics.extend(linted.diagnostics);
        diagnostics::sort(&mut diagnostics);
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let stats = Stats {
            files: self.user_files,
            cards: project.games.iter().map(|g| g.cards.len()).sum(),
            decks: project.games.iter().map(|g| g.decks.len()).sum(),
            errors,
            warnings: diagnostics.len() - errors,
        };
        Outcome { files: self.files, project, fixes: linted.fixes, diagnostics, stats }
    }
}
