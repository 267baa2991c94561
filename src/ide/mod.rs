//! What an editor asks of a checked workspace: what is at an offset, its
//! hover text, where it is declared and used, what may be written there,
//! a file's outline, its highlighting and the fixes on offer.
//!
//! It works over the files table, the IR and the syntax trees, in byte
//! offsets and [`Span`]s, with plain structs for answers.  It does no I/O and
//! knows nothing of the Language Server Protocol: `cardsmith lsp` (in the
//! binary) converts positions and speaks the protocol.  Names are resolved the
//! way the checker resolves them, but from the syntax tree, so that they are
//! found in files with mistakes too.

mod actions;
mod complete;
mod decls;
mod language;
mod nav;
mod outline;
mod sites;

pub use actions::Action;
pub use complete::{Completion, CompletionKind};
pub use decls::{Decl, RulesetDecls};
pub use nav::Hover;
pub use outline::{Symbol, SymbolKind, TokenKind};
pub use sites::Site;

use crate::diagnostics::Diagnostic;
use crate::ir::{Game, Project};
use crate::lint::Fix;
use crate::source::{FileId, Files, Span};
use crate::syntax::ast::SourceTree;
use crate::workspace::Outcome;

/// A checked workspace, ready for an editor's questions.
pub struct Analysis {
    pub files: Files,
    pub project: Project,
    /// Sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    pub fixes: Vec<Fix>,
    /// Read on the first question that needs them: a check whose
    /// diagnostics are all that is wanted does not pay for them.
    rulesets: std::sync::OnceLock<Vec<RulesetDecls>>,
}

impl Analysis {
    pub fn new(outcome: Outcome) -> Analysis {
        let Outcome { files, project, fixes, diagnostics, .. } = outcome;
        Analysis { files, project, diagnostics, fixes, rulesets: std::sync::OnceLock::new() }
    }

    /// The diagnostics whose primary label is in `file`.
    pub fn diagnostics_in(&self, file: FileId) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(move |d| d.primary_span().is_some_and(|s| s.file == file))
    }

    /// The file of this name, if loaded.
    pub fn file_named(&self, name: &str) -> Option<FileId> {
        self.files.ids().find(|id| self.files.get(*id).name == name)
    }

    /// The ruleset id a file is read against: the game a content file names,
    /// the id a ruleset file declares.
    pub fn game_of_file(&self, file: FileId) -> Option<String> {
        let (_, tree) = parse(&self.files, file);
        crate::check::ruleset_id(&tree).or_else(|| crate::check::game_of(&tree)).map(str::to_string)
    }

    /// The declarations a game's files may use: its ruleset's first, then
    /// those of the rulesets it extends.
    pub fn decls_of(&self, game: &str) -> Vec<&RulesetDecls> {
        let mut chain: Vec<&RulesetDecls> = Vec::new();
        let mut next = Some(game.to_string());
        while let Some(id) = next.take() {
            let Some(found) = self.rulesets().iter().find(|r| r.id == id) else { break };
            if chain.iter().any(|r| r.id == found.id) {
                break;
            }
            chain.push(found);
            next = found.extends.clone();
        }
        chain
    }

    /// The checked game of a ruleset id, if any content uses it.
    pub fn game(&self, id: &str) -> Option<&Game> {
        self.project.games.iter().find(|g| g.ruleset.id == id)
    }

    /// Every ruleset's declarations.
    pub fn rulesets(&self) -> &[RulesetDecls] {
        self.rulesets.get_or_init(|| {
            let files = &self.files;
            let ruleset_files: Vec<FileId> =
                files.ids().filter(|id| looks_like_ruleset(&files.get(*id).text)).collect();
            ruleset_files.iter().filter_map(|id| RulesetDecls::read(*id, &parse(files, *id).1)).collect()
        })
    }
}

/// Parses one file of the table, with its diagnostics left out: they are
/// in the workspace's.
pub(crate) fn parse(files: &Files, file: FileId) -> (crate::syntax::cst::Cst, SourceTree) {
    crate::syntax::parse_lossless(files, file, &mut Vec::new())
}

/// Whether a file's first item is a `ruleset` line, read without parsing
/// the file: comments and blank lines may come first.
fn looks_like_ruleset(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("//"));
    first.is_some_and(|line| line.split_whitespace().next() == Some("ruleset"))
}

/// Whether a span covers an offset, its end included (a cursor just after
/// a word is on it).
pub(crate) fn covers(span: Span, offset: usize) -> bool {
    span.start as usize <= offset && offset <= span.end as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARDS: &str = "game dreadnaught-2e\n\noffense \"Lance\" {\n  allow near-duplicate-names\n  symbol kinetic\n  keywords unstoppable(damage)\n  grid {\n    \n  }\n}\n";

    fn analysis() -> (Analysis, FileId) {
        let mut workspace = crate::workspace::Workspace::new();
        workspace.add_text("a.cards", CARDS);
        let analysis = Analysis::new(workspace.check());
        let file = analysis.file_named("a.cards").expect("loaded");
        (analysis, file)
    }

    fn at(needle: &str) -> usize {
        CARDS.find(needle).expect("in the text") + 1
    }

    #[test]
    fn names_resolve_into_the_bundled_ruleset() {
        let (analysis, file) = analysis();
        let rules =
            |spans: Vec<Span>| -> Vec<String> { spans.iter().map(|s| analysis.files.text(*s).to_string()).collect() };
        assert_eq!(rules(analysis.definition(file, at("unstoppable"))), ["unstoppable"]);
        assert_eq!(rules(analysis.definition(file, at("symbol"))), ["symbol"]);
        assert_eq!(rules(analysis.definition(file, at("offense"))), ["offense"]);
        let lint = analysis.hover(file, at("near-duplicate")).expect("a hover");
        assert!(lint.markdown.starts_with("lint `near-duplicate-names` (L0004)"), "{}", lint.markdown);
        // In the ruleset, a kind named in a declaration leads to the kind.
        let ruleset = analysis.definition(file, at("offense"))[0].file;
        let text = &analysis.files.get(ruleset).text;
        let only = text.find("  only offense").expect("a keyword only for one kind") + "  only o".len();
        let kind = analysis.definition(ruleset, only);
        assert_eq!(analysis.files.text(kind[0]), "offense");
        assert!(analysis.references(ruleset, only).len() >= 3);
    }

    #[test]
    fn completion_knows_the_block_it_is_in() {
        let (analysis, file) = analysis();
        let labels =
            |offset| -> Vec<String> { analysis.completions(file, offset).into_iter().map(|c| c.label).collect() };
        // Inside `grid { }`, the fields of the grid shape.
        let grid = labels(CARDS.find("    \n").expect("the empty line") + 4);
        assert!(grid.contains(&"arrows".to_string()) && !grid.contains(&"symbol".to_string()), "{grid:?}");
        // At the top level, the kinds.
        let kinds = labels(CARDS.len());
        assert!(kinds.contains(&"offense".to_string()), "{kinds:?}");
        // On the first line, the games.
        let games = labels("game d".len());
        assert!(games.contains(&"dreadnaught-2e".to_string()), "{games:?}");
    }

    #[test]
    fn a_declaration_in_a_ruleset_hovers_as_itself() {
        let (analysis, file) = analysis();
        let ruleset = analysis.definition(file, at("offense"))[0].file;
        let text = &analysis.files.get(ruleset).text;
        let field = text.find("  field arc arc").expect("the arc field") + "  field a".len();
        let hover = analysis.hover(ruleset, field).expect("a hover");
        assert!(hover.markdown.contains("field arc arc"), "{}", hover.markdown);
        assert_eq!(analysis.files.text(analysis.definition(ruleset, field)[0]), "arc");
    }
}
